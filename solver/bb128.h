/*
 * bb128.h: exact cover on a bitboard of up to 128 cells (two 64-bit
 * words; one when the goal has at most 64 cells).
 *
 * The contract is bb.h's: every row is a set of cells (words[0] holds
 * cells 0..63, words[1] cells 64..127, in the goal's numbering) and a
 * type; type t is used exactly counts[t] times; rows are renumbered by
 * 'rank' (the caller's fill order) so that ties go to the first empty
 * cell in that order. Every cover is visited exactly once, with the row
 * numbers in the order added; an optional 'first' type is placed at the
 * root (the pinned piece).
 *
 * On top of bb.h's search (MRV on bit-sliced counters, a forward check
 * that every empty cell keeps a row), three prunings, all on by default:
 *   - regions: given the goal's adjacency (bb128_add_edge()), the empty
 *     cells split into connected regions; each must have a volume that
 *     the pieces left can make (a sum of their sizes), or the branch ends.
 *     Without edges this is off.
 *   - quick counts: the cell counters saturate at 4 first, and count to
 *     32 only when no empty cell has fewer than 4 rows.
 *   - holes (bb.h's rule, on the same adjacency, for goals of more than
 *     64 cells): when every row's cells each have a neighbour in the row,
 *     a row that would leave an empty cell with no empty neighbour is
 *     left out of the lists filtered below nodes of more than 512 rows.
 * None changes which covers are found, only how fast.
 *
 * Ownership: bb128_new() returns a struct the caller frees with
 * bb128_free(). Errors: XC_ENOMEM, XC_ETOOBIG (xc.h); the search itself
 * allocates nothing, so it cannot fail (bb128_split allocates the task
 * list, bb128_clone a whole copy).
 */
#ifndef CUBEGEN_BB128_H
#define CUBEGEN_BB128_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/xc.h"

#define BB128_MAX_CELLS 128

typedef struct bb128 bb128;

/* Prunings (bb128_set_flags); all on after bb128_new(). */
enum {
	BB128_REGIONS = 1,     /* region volumes (needs edges) */
	BB128_QUICK_COUNT = 2, /* counters saturating at 4 first */
	BB128_HOLES = 4,       /* rows that leave a hole (needs edges) */
};

/* 'ncells' (1..128) cells, 'rank[c]' cell c's place in the fill order (a
 * permutation of 0..ncells-1), 'ntypes' types with their counts. NULL
 * when out of memory or 'ncells' is out of range. */
bb128 *bb128_new(size_t ncells, const unsigned *rank, size_t ntypes,
                 const unsigned *counts);
void bb128_free(bb128 *b);
/* Add a row over 'cells' (two words, as above); its number is the count
 * of rows added before it. XC_ENOMEM leaves 'b' as it was. */
int bb128_add_row(bb128 *b, const uint64_t cells[2], size_t type);
/* Cells 'a' and 'b' are face neighbours (either order, duplicates
 * harmless): the regions pruning uses these. Should the neighbours form
 * more than a few distinct gaps in the fill order (a goal far from a
 * box), the pruning turns itself off. */
void bb128_add_edge(bb128 *b, size_t a, size_t c);
/* Rows of 'type' are placed first, at the root (call before solving). */
void bb128_set_first(bb128 *b, size_t type);
/* Below row 'root' of that type, the rows drop[0..n) take no part in the
 * search (as bb_drop_below). XC_OK, or XC_ENOMEM with nothing changed. */
int bb128_drop_below(bb128 *b, size_t root, const size_t *drop, size_t n);
/* Which prunings run (BB128_* bits; for benchmarks and tests). */
void bb128_set_flags(bb128 *b, unsigned flags);
/* Whether the list passes run on AVX-512 (bbvec.h): by default they do
 * where the CPU has it. 'on' false: the portable loops; the search is the
 * same either way (tests compare them). Returns whether they now do. */
bool bb128_set_vector(bb128 *b, bool on);
/* As xc_solve(): the visitor gets row numbers. */
enum xc_stop bb128_solve(bb128 *b, uint64_t max_nodes, xc_visit visit,
                         void *ctx, uint64_t *nodes);
/* A shared node budget, as xc_set_poll(). */
void bb128_set_poll(bb128 *b, xc_poll poll, void *ctx);
/* Split the search into tasks, as xc_split() and bb_split(): a task's
 * steps are row numbers, the rows placed on the path to it. The tasks
 * depend only on the rows, edges, flags and first type. */
int bb128_split(bb128 *b, size_t want, uint64_t max_nodes,
                struct xc_tasks *out, enum xc_stop *stop);
/* Search task k's subtree, as xc_solve_task(): 't' from bb128_split on
 * this engine or on one it was cloned from. Consecutive tasks share the
 * start of their paths, which is kept between calls; the next
 * bb128_solve or bb128_split drops it. The prunings run below the task
 * as in a whole search, so its covers and nodes are the whole search's
 * below that path. */
enum xc_stop bb128_solve_task(bb128 *b, const struct xc_tasks *t, size_t k,
                              uint64_t max_nodes, xc_visit visit, void *ctx,
                              uint64_t *nodes);
/* An independent copy with its rows, edges, flags, first type and poll
 * (one per thread), NULL when out of memory. */
bb128 *bb128_clone(const bb128 *b);
/* Of the rows the last bb128_solve() placed, how many led to no cover
 * (as xc_dead_ends()). */
uint64_t bb128_dead_ends(const bb128 *b);

#endif
