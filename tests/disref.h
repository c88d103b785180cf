/*
 * disref.h: an independent, deliberately simple brute-force reference for
 * the disassembler (solver/disasm.h), for differential tests, and a maker
 * of small random assemblies.
 *
 * It shares no code with solver/disasm.c: only the enums and struct
 * dis_move of solver/disasm.h are used, never its functions. Everything is
 * done the obvious way, for parts of at most DISREF_MAX_PIECES pieces.
 *
 * The model, as solver/disasm.h states it:
 *
 * - Input: labels on an nx*ny*nz box, x fastest,
 *   labels[x + nx * (y + ny * z)]: 0 empty, 1 + i for piece i. Pieces
 *   never turn; space is unbounded (the box only holds the start).
 * - A part is a set of pieces, each at some shift from its cells in the
 *   labels. A position of a part is the shifts of its pieces; positions
 *   that differ by one common shift of all its pieces are one (they are
 *   stored relative to the part's first piece, its lowest index).
 * - A move shifts a group of the part's pieces (not none, not all) by
 *   d >= 1 cells along one of +x -x +y -y +z -z such that at every unit
 *   step 1..d no cell of the group lies on a cell of a piece outside it.
 *   Moving a group G by d along a direction gives the same position as
 *   moving the rest by d the opposite way, so the search moves only groups
 *   without the part's first piece (2^(k-1) - 1 groups, 6 directions).
 * - A separation: a group that can go arbitrarily far along a direction:
 *   no cell of the rest lies anywhere on the ray ahead of any of its
 *   cells. It counts as one move (the "out" move, dist 0).
 * - Depths: breadth-first from the part's start (depth 0). L, the part's
 *   first number, is the least depth at which a separation exists: a
 *   separation from a position at depth L-1. The part comes apart when it
 *   has one piece, or when SOME separation at depth L (any position at
 *   depth L-1, any group, any direction) leaves two sides (the group and
 *   the rest, where they were at that position, each a part of its own)
 *   that both come apart. Stuck: no separation at any depth, or every
 *   separation at depth L leaves a stuck side.
 * - Bound: a part's search keeps at most max_nodes positions (0: the
 *   default DIS_MAX_NODES). It keeps the positions of depth < L (all
 *   positions reachable, for a stuck part): the positions of depth L are
 *   never made. When one more would be needed the part is DIS_BOUND. A
 *   bound in a side makes the separation undecided: the whole is
 *   DIS_APART if another separation at depth L comes apart, DIS_STUCK if
 *   every other has a stuck side, else DIS_BOUND.
 * - The removed side of a separation: the side with fewer pieces; with
 *   as many, the side without the part's first piece; then, when that
 *   side's heaviest piece (weights; NULL: all 1) outweighs the other
 *   side's, the other side. The rest is the "left" side. So the removed
 *   side is the smaller one, and on a tie in size the one whose heaviest
 *   piece is lighter. On a full tie (as many pieces, heaviest pieces as
 *   heavy) disasm.h breaks it by BurrTools' search order (the direction,
 *   then the first piece whose group comes free), which this reference
 *   does not copy: disref_disassemble() removes the side without the
 *   part's first piece, disref_check() accepts either side.
 * - The level (BurrTools' "a.b.c"): a part's L, then, in pre-order, the
 *   level of its left part and then of its removed part, each written only
 *   when some separation inside it takes more than one move. A part of one
 *   piece has no level.
 * - Moves, in the order of struct dis_result: a part's moves up to and
 *   including its separation (dist 0, the group being the removed side),
 *   then the left part's moves, then the removed part's.
 *
 * Nothing is printed; there is no global state but disref_check()'s
 * message buffer (one per thread).
 */
#ifndef CUBEGEN_TESTS_DISREF_H
#define CUBEGEN_TESTS_DISREF_H

#include <stddef.h>
#include <stdint.h>

#include "solver/disasm.h"

/* Pieces in an assembly, at most (the subsets of a part are enumerated). */
#define DISREF_MAX_PIECES 8
/* Cells disref_random() may write: its boxes are at most 4 x 4 x 4. */
#define DISREF_RANDOM_CELLS 64

/*
 * Decide whether the assembly comes apart: '*verdict' DIS_APART, DIS_STUCK
 * or DIS_BOUND (see the top), '*first' the whole assembly's L when its
 * search found a separation (also when a side then turns out stuck or
 * bound), else 0; 0 too for a single piece. 'weights' do not change the
 * verdict (both sides must come apart) and may be NULL. Every piece
 * 0..npieces-1 (1 <= npieces <= DISREF_MAX_PIECES) must have a cell.
 * Returns 0, or -1 when out of memory (outputs then untouched).
 */
int disref_solve(int nx, int ny, int nz, const unsigned char *labels,
                 size_t npieces, const int *weights, uint64_t max_nodes,
                 int *verdict, int *first);

/*
 * As disref_solve(), and for DIS_APART one disassembly that obeys the
 * rules: '*moves' (malloc'd, the caller frees it; NULL when there are
 * none) and '*nmoves', the level in 'level' (room for DISREF_MAX_PIECES)
 * and '*nlevel'. Of the separations at a part's depth L the first that
 * comes apart in the reference's own order is taken, so the sub-levels
 * may differ from solver/disasm.c's (disref_check() accepts both).
 * For DIS_STUCK and DIS_BOUND: no moves, nlevel 0. Returns 0, or -1 when
 * out of memory (outputs then untouched).
 */
int disref_disassemble(int nx, int ny, int nz, const unsigned char *labels,
                       size_t npieces, const int *weights, uint64_t max_nodes,
                       int *verdict, struct dis_move **moves, size_t *nmoves,
                       int *level, size_t *nlevel);

/*
 * NULL when 'moves' take the assembly apart by the rules above: every
 * move's group a non-empty proper subset of its part, every move
 * collision-free at each unit step (checked cell against cell, apart from
 * the search's code), every finite move of a group that is not already
 * free, every out move's group free along its ray and the removed side
 * (either side on a full tie, see the top),
 * every part's move count its L from where it starts (by the brute-force
 * search, at most 1,000,000 positions), every part of one piece in the
 * end, no move left over, and 'level' the level the tree implies.
 * Otherwise a short message naming the move index (in a buffer of this
 * thread's, valid until its next call).
 */
const char *disref_check(int nx, int ny, int nz, const unsigned char *labels,
                         size_t npieces, const int *weights,
                         const struct dis_move *moves, size_t nmoves,
                         const int *level, size_t nlevel);

/*
 * NULL when 'r', a disassembler's answer for the assembly, has the
 * reference's verdict and, for DIS_APART of two pieces or more, its first
 * number and a disassembly disref_check() accepts; else a short message
 * (in disref_check()'s buffer). No weights, the default bound.
 */
const char *disref_agrees(int nx, int ny, int nz, const unsigned char *labels,
                          size_t npieces, const struct dis_result *r);

/*
 * A small random assembly drawn from '*state' (splitmix64, advanced), one
 * of two kinds, half each. Packed: a box of 2..4 cells a side, 2..7
 * pieces grown over it, full or with up to a quarter of it empty. Caged:
 * a box of 3..4 a side whose outer layer, but for 1..4 holes next to the
 * inside, is grown as 1..3 pieces around 1..3 pieces grown inside (some
 * inner cells left empty when there are several): the inner pieces may
 * have to wander to a hole or cannot get out at all. Pieces are face
 * connected, grown from random seeds as blobs or as winding snakes.
 * 'labels' needs room for DISREF_RANDOM_CELLS. The same state gives the
 * same assembly.
 */
void disref_random(uint64_t *state, int *nx, int *ny, int *nz,
                   unsigned char *labels, size_t *npieces);

#endif
