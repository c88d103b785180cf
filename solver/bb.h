/*
 * bb.h: exact cover on a 64-bit board, for goals of at most 64 cells.
 *
 * Every row is a set of cells (a uint64_t over goal cells 0..63) and a
 * type; type t may be used exactly counts[t] times (the goal volume check
 * in solve.c makes "at most" equal "exactly"). Rows must be added in the
 * goal's numbering; the engine renumbers cells by 'rank' (the caller's
 * fill order) so that the first empty cell is the next one in that order.
 *
 * Search: Algorithm X with MRV, as xc.h, on 64-bit masks: branch on the
 * empty cell with the fewest rows left (ties: the first in the fill
 * order), or on a single-copy type with fewer; optionally place every row
 * of a 'first' type at the root (the pinned piece, so symmetry breaking
 * bites at once; should it have several copies, the root takes the first
 * of a cover's rows of that type, in the order added). A branch ends when
 * some empty cell has no row left or some type fewer rows than copies.
 * Every cover is found exactly once.
 *
 * Ownership: bb_new() returns a struct the caller frees with bb_free().
 */
#ifndef CUBEGEN_BB_H
#define CUBEGEN_BB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/xc.h"

typedef struct bb bb;

/* 'ncells' <= 64 cells, 'rank[c]' cell c's place in the fill order (a
 * permutation of 0..ncells-1), 'ntypes' types with their counts. NULL
 * when out of memory. */
bb *bb_new(size_t ncells, const unsigned *rank, size_t ntypes,
           const unsigned *counts);
void bb_free(bb *b);
/* Empty 'b' for another search on the same cells and ranks: 'ntypes'
 * types with their counts, no rows, no first type, no drops and no poll,
 * as bb_new() makes it, but with its kernels, its grid (bb_set_grid())
 * and its room for rows kept, so that a run of small searches allocates
 * little. XC_OK, or XC_ENOMEM when 'b' can only be freed. */
int bb_reset(bb *b, size_t ntypes, const unsigned *counts);
/* Room for 'rows' rows in all, so that adding them allocates nothing
 * more (optional). XC_OK, or XC_ENOMEM / XC_ETOOBIG with nothing
 * changed. */
int bb_reserve(bb *b, size_t rows);
/* Add a row; its number is the count of rows added before it. */
int bb_add_row(bb *b, uint64_t cells, size_t type);
/* Add n rows of one type, cells[0..n), numbered in turn. Quickest with
 * rows added by type and, within a type, by ascending mask. XC_OK, or
 * XC_ENOMEM / XC_ETOOBIG with nothing added. */
int bb_add_rows(bb *b, const uint64_t *cells, size_t n, size_t type);
/* Rows of 'type' are placed first, at the root (call before solving). */
void bb_set_first(bb *b, size_t type);
/* Below row 'root' of that type, the rows drop[0..n) take no part in the
 * search (solve.c's symmetry breaking one level down). Rows are numbers
 * of rows added already. XC_OK, or XC_ENOMEM with nothing changed. */
int bb_drop_below(bb *b, size_t root, const size_t *drop, size_t n);
/* The cells, in fill order, are an X x Y x Z box: rank (z * Y + y) * X + x
 * is cell (x, y, z). Then, when each cell of every row has a face
 * neighbour in the row (true of a connected piece of two cells or more),
 * a row that would leave an empty cell with no empty face neighbour (a
 * cell no row could fill) is left out of the lists filtered below nodes
 * of more than 128 rows (solve.c's boxes: Bedlam 42 % fewer nodes).
 * False, with nothing changed, when X * Y * Z is not the number of
 * cells. */
bool bb_set_grid(bb *b, unsigned X, unsigned Y, unsigned Z);
/* The caller vouches that each cell of every row has a face neighbour in
 * the row (the rows are pieces of two or more face-connected cells), so
 * that the rule against holes of bb_set_grid() applies without checking
 * every row at each solve. A wrong vouch gives wrong counts. */
void bb_rows_connected(bb *b);
/* The instructions the list passes run on (bbvec.h), from the fewest:
 * the portable loops, AVX2, AVX-512 (F and VL); then those with the
 * matrix phase below nodes of at most 128 rows (bbmx.c: AVX-512 with BW,
 * VBMI, BITALG, VPOPCNTDQ and GFNI). */
enum bb_kernels { BB_PORTABLE, BB_AVX2, BB_AVX512, BB_MATRIX };
/* Run the search on 'k', or on the best below it that the CPU has
 * (BB_PORTABLE always runs); returns the level taken. By default it runs
 * on the best the CPU has. The search is the same on every level (tests
 * compare them): only its speed differs. */
enum bb_kernels bb_set_kernels(bb *b, enum bb_kernels k);
/* As xc_solve(): the visitor gets row numbers. */
enum xc_stop bb_solve(bb *b, uint64_t max_nodes, xc_visit visit, void *ctx,
                      uint64_t *nodes);
/* A shared node budget, as xc_set_poll(). */
void bb_set_poll(bb *b, xc_poll poll, void *ctx);
/* Split the search into tasks, as xc_split(): a task's steps are row
 * numbers, the rows placed on the path to it. */
int bb_split(bb *b, size_t want, uint64_t max_nodes, struct xc_tasks *out,
             enum xc_stop *stop);
/* Search task k's subtree, as xc_solve_task(). */
enum xc_stop bb_solve_task(bb *b, const struct xc_tasks *t, size_t k,
                           uint64_t max_nodes, xc_visit visit, void *ctx,
                           uint64_t *nodes);
/* An independent copy (one per thread), NULL when out of memory. */
bb *bb_clone(const bb *b);

/* Of the rows the last bb_solve() placed, how many led to no cover (as
 * xc_dead_ends()). */
uint64_t bb_dead_ends(const bb *b);

#endif
