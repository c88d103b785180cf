/*
 * bbw.h: exact cover on a wide bitboard: goals of up to 1024 cells, one
 * to sixteen 64-bit words (as many as the goal needs).
 *
 * The contract is bb.h's: every row is a set of cells (word w holds cells
 * 64w..64w+63, in the goal's numbering) and a type; type t is used
 * exactly counts[t] times; rows are renumbered by 'rank' (the caller's
 * fill order) so that ties go to the first empty cell in that order.
 * Every cover is visited exactly once, with the row numbers in the order
 * added; an optional 'first' type is placed at the root (the pinned
 * piece).
 *
 * On top of bb.h's search (MRV on bit-sliced counters, a forward check
 * that every empty cell keeps a row), three prunings and a phase:
 *   - regions (off by default): given the goal's adjacency
 *     (bbw_add_edge()), the empty cells split into connected regions;
 *     each must have a volume that the pieces left can make (a sum of
 *     their sizes), or the branch ends. Without edges this is off. It
 *     cost more than it saved on every puzzle measured (the 70-cell
 *     pentacube box 12 % slower for 0.9 % fewer nodes).
 *   - quick counts: the cell counters saturate at 4 first, and count to
 *     32 only when no empty cell has fewer than 4 rows.
 *   - holes (bb.h's rule, on the same adjacency, for goals of 65 to 128
 *     cells): when every row's cells each have a neighbour in the row, a
 *     row that would leave an empty cell with no empty neighbour is left
 *     out of the lists filtered below nodes of more than 512 rows (with
 *     BBW_HOLES_MORE in a goal of three gaps at most, only where their
 *     empty cells are more than 64 or lie within 64 in a row); with
 *     BBW_HOLES_MORE also of more than 192 rows with more than 64 empty
 *     cells, and of more than 128 whose empty cells lie within 64 cells
 *     in a row (as many rows as the 64-cell board's rule; goals of three
 *     gaps at most, a box's).
 *   - the matrix phase (two words, AVX-512 as bb.h's; not with regions
 *     or optional cells): below a node of at most 128 rows the subtree
 *     works on bit sets over that one list instead of copying lists.
 *   - the window (where regions do not run): once a node's empty cells
 *     fit in fewer words than the goal needs, its subtree runs on those
 *     words alone, the empty cells renumbered in order: a shift when
 *     they lie within a run of that many words, else (BBW_SQUEEZE,
 *     where the CPU has a fast PEXT) each row squeezed onto them. With
 *     the matrix phase, a window of one word has it too, on one word of
 *     cells.
 * On goals of 65 to 128 cells most nodes are on one word then.
 * None changes which covers are found, nor the nodes, only how fast.
 *
 * Ownership: bbw_new() returns a struct the caller frees with bbw_free().
 * Errors: XC_ENOMEM, XC_ETOOBIG (xc.h); the search itself allocates
 * nothing, so it cannot fail (bbw_split allocates the task list,
 * bbw_clone its own search state).
 */
#ifndef CUBEGEN_BBW_H
#define CUBEGEN_BBW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/bb.h" /* enum bb_kernels */
#include "solver/xc.h"

#define BBW_MAX_CELLS 1024
#define BBW_MAX_WORDS (BBW_MAX_CELLS / 64)

typedef struct bbw bbw;

/* Prunings and phases (bbw_set_flags); all but BBW_REGIONS on after
 * bbw_new(). */
enum {
	BBW_REGIONS = 1,     /* region volumes (needs edges; off by default) */
	BBW_QUICK_COUNT = 2, /* counters saturating at 4 first */
	BBW_HOLES = 4,       /* rows that leave a hole (needs edges) */
	BBW_MATRIX = 8,      /* the matrix phase on two words */
	BBW_WINDOW = 16,     /* fewer words once the empty cells fit */
	BBW_SQUEEZE = 32,    /* ... wherever they lie (with BBW_WINDOW) */
	BBW_HOLES_MORE = 64, /* BBW_HOLES below shorter lists too (below) */
};

/* 'ncells' (1..1024) cells, 'rank[c]' cell c's place in the fill order (a
 * permutation of 0..ncells-1), 'ntypes' types with their counts. NULL
 * when out of memory or 'ncells' is out of range. */
bbw *bbw_new(size_t ncells, const unsigned *rank, size_t ntypes,
             const unsigned *counts);
void bbw_free(bbw *b);
/* Add a row over 'cells' ((ncells + 63) / 64 words, as above); its number
 * is the count of rows added before it. XC_ENOMEM leaves 'b' as it was. */
int bbw_add_row(bbw *b, const uint64_t *cells, size_t type);
/* Room for 'rows' rows in all (fillers included) at once, so that adding
 * them copies nothing and the tables are no larger than they need: a
 * fresh page costs more than the row written on it. Optional: without
 * it the tables double as rows come. XC_ENOMEM leaves 'b' as it was. */
int bbw_reserve(bbw *b, size_t rows);
/* Cells 'a' and 'b' are face neighbours (either order, duplicates
 * harmless): the regions pruning uses these. Should the neighbours form
 * more than a few distinct gaps in the fill order (a goal far from a
 * box), the pruning turns itself off. */
void bbw_add_edge(bbw *b, size_t a, size_t c);
/* Optional goal cells: a row of 'type', the fillers (a monomino type
 * whose count is the cells left empty), over 'cell' alone; call once per
 * optional cell, after the pieces' rows. A filler cell is branched on
 * only when no other empty cell is left (the search decides the pieces
 * first), the fillers' placements are neither nodes nor dead ends
 * ('nodes' counts the pieces placed, as dancing links' does), and once
 * only fillers are left they fill the rest in one step. Every cell is
 * still covered exactly once. XC_OK, or bbw_add_row()'s error. */
int bbw_add_filler(bbw *b, size_t type, size_t cell);
/* Ranges of copies: type t is used least[t]..counts[t] times instead of
 * exactly counts[t] (least[t] <= counts[t]; BurrTools' piece ranges). A
 * cover is then any set of rows covering every cell once with each type
 * in its range: a type must still be placed only while it is short of
 * its least (the check that each type has rows enough for the copies
 * left, and the branch on a single-copy type, count those copies), and
 * a set that covers every cell but leaves a type short is no cover (a
 * dead end, as dancing links' phased search counts it). Not with
 * fillers (bbw_add_filler); the matrix phase stands aside. Call before
 * solving; XC_OK or XC_ENOMEM (nothing changed). */
int bbw_set_least(bbw *b, const unsigned *least);
/* The count to give bbw_new() for a type of 'size' cells used least..most
 * times in a goal of 'ncells' (most when they are equal): no more copies
 * than fit, since the engine's depth is the copies' sum (12 pentacube
 * types of 0..80 in a 6x6x6 cube would take 961 levels of lists), and
 * never fewer than 'least'. */
unsigned bbw_range_count(unsigned least, unsigned most, size_t size,
                         size_t ncells);
/* Rows of 'type' are placed first, at the root (call before solving). */
void bbw_set_first(bbw *b, size_t type);
/* Below row 'root' of that type, the rows drop[0..n) take no part in the
 * search (as bb_drop_below). XC_OK, or XC_ENOMEM with nothing changed. */
int bbw_drop_below(bbw *b, size_t root, const size_t *drop, size_t n);
/* Which prunings run (BBW_* bits; for benchmarks and tests). */
void bbw_set_flags(bbw *b, unsigned flags);
/* Whether the list passes run on vector instructions (bbvec.h): by
 * default they do, on the best level the CPU has (AVX-512, else AVX2).
 * 'on' false: the portable loops; the search is the same either way
 * (tests compare them). Returns whether they now do. */
bool bbw_set_vector(bbw *b, bool on);
/* The same with the level named, as bb_set_kernels() (BB_MATRIX: AVX-512
 * with the matrix phase where BBW_MATRIX asks for it); returns the level
 * taken. */
enum bb_kernels bbw_set_kernels(bbw *b, enum bb_kernels k);
/* As xc_solve(): the visitor gets row numbers. */
enum xc_stop bbw_solve(bbw *b, uint64_t max_nodes, xc_visit visit, void *ctx,
                       uint64_t *nodes);
/* A shared node budget, as xc_set_poll(). */
void bbw_set_poll(bbw *b, xc_poll poll, void *ctx);
/* Split the search into tasks, as xc_split() and bb_split(): a task's
 * steps are row numbers, the rows placed on the path to it. The tasks
 * depend only on the rows, edges, flags and first type. */
int bbw_split(bbw *b, size_t want, uint64_t max_nodes, struct xc_tasks *out,
              enum xc_stop *stop);
/* Search task k's subtree, as xc_solve_task(): 't' from bbw_split on this
 * engine or on one it was cloned from. Consecutive tasks share the start
 * of their paths, which is kept between calls; the next bbw_solve or
 * bbw_split drops it. The prunings run below the task as in a whole
 * search, so its covers and nodes are the whole search's below that
 * path. */
enum xc_stop bbw_solve_task(bbw *b, const struct xc_tasks *t, size_t k,
                            uint64_t max_nodes, xc_visit visit, void *ctx,
                            uint64_t *nodes);
/* A copy with the rows, edges, flags, first type and poll of 'b' (one
 * per thread), searching on its own, NULL when out of memory. It reads
 * b's rows (they are not copied): 'b' must outlive it and get no more
 * rows and no bbw_reserve() while it lives; rows added to the clone (or
 * room reserved in it) are its own. */
bbw *bbw_clone(const bbw *b);
/* Of the rows the last bbw_solve() placed, how many led to no cover (as
 * xc_dead_ends()). */
uint64_t bbw_dead_ends(const bbw *b);
/* How many subtrees the last search handed to the matrix phase (0 where
 * it does not run), and of them, to '*one_word' when not NULL, how many
 * in a window of one word; for tests and benchmarks. */
uint64_t bbw_matrix_runs(const bbw *b, uint64_t *one_word);
/* How many subtrees the last search ran on fewer words (the window,
 * BBW_WINDOW), and of them, to '*squeezed' when not NULL, how many with
 * their empty cells squeezed (BBW_SQUEEZE), and to '*reshifted' when
 * not NULL, how many squeezed subtrees went on shifted (for the rule
 * against holes); for tests and benchmarks. */
uint64_t bbw_window_runs(const bbw *b, uint64_t *squeezed,
                         uint64_t *reshifted);

#endif
