/*
 * prove.h: uniqueness proofs for dissections of one goal, asked again and
 * again (the block generator's inner loop).
 *
 * A dissection labels each goal cell with its piece, 0..k-1. Every piece
 * may be placed anywhere in the goal, turned by any of the 24 proper
 * rotations (never mirrored) and moved in whole cells. prove_count()
 * counts the ways the k pieces fill the goal, up to the goal's proper
 * symmetries, congruent pieces interchangeable: what solve_puzzle() counts
 * for a puzzle of those pieces (every cell of the goal plain).
 *
 * Workload: goals of 27 to a few hundred cells cut into 4 to 20 pieces,
 * hundreds of proofs per written puzzle, each with one or two pieces
 * changed since the last. The set-up the general solver repeats for every
 * puzzle (the goal's symmetries, its cell numbering) is done once in
 * prove_new(), a piece's placements are kept from one call to the next
 * while its cells stay the same, and the placements of every shape made
 * are kept (2 MB at most) for the next piece of that shape, however it
 * lies.
 *
 * The symmetries counted up to are the goal's proper rotations, and its
 * mirror symmetries too when the pieces are mirror-closed (each piece's
 * mirror image congruent to a piece, as many of each), as solve.h counts.
 * One piece congruent to no other is pinned to the least placement of
 * each of its orbits under those of them that keep it what it is, so
 * that every class of fillings has a member the search finds; each
 * filling found is reduced to its least image under the symmetries and
 * counted when that image is new, so a class found twice (a pinned
 * placement with a symmetry of its own) counts once. The search runs on
 * the bitboard engines up to 128 cells (prove.c says how beyond).
 *
 * A count capped at 2 (is the dissection the only filling?) also uses
 * the dissection itself, a filling known before the search: past a few
 * hundred nodes the search stops at the first filling of another class,
 * and groups of a few touching pieces are tried in other places first
 * (prove.c). The answer is the same; its nodes include those tries.
 *
 * Ownership: prove_new() returns a struct the caller frees with
 * prove_free(). Nothing here prints or keeps global state.
 */
#ifndef CUBEGEN_PROVE_H
#define CUBEGEN_PROVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/puzzle.h"

#define PROVE_MAX_CELLS 512
#define PROVE_MAX_PIECES 64
#define PROVE_MAX_CAP 4096 /* classes a search may be asked to find */

enum prove_status { PROVE_OK = 0, PROVE_ENOMEM, PROVE_EINVAL };

typedef struct prove prove;

struct prove_result {
	uint64_t solutions; /* classes found, at most the cap */
	uint64_t nodes;     /* placements made (the budget counts the
	                     * search's alone) */
	bool complete;      /* the search ran to its end: 'solutions' is the count */
};

/* The prover for 'goal' (its nonzero cells, 1..PROVE_MAX_CELLS of them;
 * values other than 0 all count as a cell). NULL when out of memory or the
 * goal has no cells or too many. */
prove *prove_new(const struct grid *goal);
void prove_free(prove *p);
/* The goal's cells, numbered in grid order. */
size_t prove_cells(const prove *p);
/* Count the fillings by the k pieces (1..PROVE_MAX_PIECES) of 'piece'
 * (goal cell c, numbered as above, belongs to piece piece[c]; each piece
 * has a cell). The search stops at 'cap' classes (1..PROVE_MAX_CAP) or after
 * 'max_nodes' placements (0: no limit). PROVE_OK with '*out' set;
 * PROVE_ENOMEM, or PROVE_EINVAL for a bad k or label, with '*out'
 * untouched. */
int prove_count(prove *p, const int *piece, int k, uint64_t cap,
                uint64_t max_nodes, struct prove_result *out);

/* The same count for k pieces given by their cells as each lies
 * somewhere in the goal, rotated any way, never mirrored (piece i: the
 * size[i] distinct goal cells cells[i][...], numbered as above; pieces
 * may overlap): a set of shapes rather than a dissection, so no filling
 * is known before the search. When 'first' is not NULL and a filling is
 * found, the first one found is written there: each goal cell's piece
 * (copies of one shape in piece order). Pieces whose cells add up to
 * more or fewer than the goal's have no filling, and nor have pieces
 * whose chessboard colours cannot make the goal's (prove.c's
 * balance_ok()): both answered complete, with 0 nodes. Capped at 2, the
 * first filling found is scouted for a second nearby (pieces trading
 * places), which changes nodes, never the count. PROVE_OK, PROVE_ENOMEM,
 * or PROVE_EINVAL for a bad k, cap, size or cell. */
int prove_count_pieces(prove *p, const int *const *cells, const int *size,
                       int k, uint64_t cap, uint64_t max_nodes,
                       struct prove_result *out, int *first);

/* Whether piece a of 'piece' (as prove_count()'s, of k pieces; labels
 * outside 0..k-1 are cells of none) is congruent under rotation to one
 * of the pieces b != a with others[b] (k of them): 1 yes, 0 no, -1 out
 * of memory, -2 for a bad k or a, or a piece looked at with no cell.
 * Piece a's placements are kept for the next count. */
int prove_congruent(prove *p, const int *piece, int k, int a,
                    const bool *others);

#endif
