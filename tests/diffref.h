/*
 * diffref.h: independent references for the difficulty measure
 * (solver/difficulty.h), for the differential tests in test_difficulty.c,
 * and the random re-presentations those tests feed the product.
 *
 * Nothing here uses solver/poly.c, solver/shell.c or solver/solve.c: the
 * 24 proper rotations, congruence, placements and both searches are this
 * file's own, written from difficulty.h's words with plain 3D cell sets.
 * Only the types of solver/puzzle.h (and puz_grid_init/puz_clear) are
 * shared. Nothing is printed and no global state is used.
 */
#ifndef CUBEGEN_TESTS_DIFFREF_H
#define CUBEGEN_TESTS_DIFFREF_H

#include <stdint.h>

#include "solver/puzzle.h"

/* Box volume diffref_plates() handles, and goal cells diffref_cells(). */
#define DIFFREF_MAX_BOX 512
#define DIFFREF_MAX_GOAL 64
#define DIFFREF_MAX_TYPES 16

/* Returned when the puzzle is not of the kind a reference handles. */
#define DIFFREF_NOT_KIND 1

/*
 * DIFF_PLATES, literally. The goal (cropped to its cells) must be exactly
 * the shell of an X x Y x Z box, each side >= 3, volume at most
 * DIFFREF_MAX_BOX; the pieces six flat plates (with counts), each holding
 * a full 2 x 2 block.
 *
 * Plates congruent under the 24 proper rotations are one type. Human
 * orders: for every bottom axis a and first wall axis s != a, the first
 * pair with a given (L[a], L[s]) (a, then s, ascending); its faces are
 * a = 0, s = 0, t = 0, s = max, t = max, a = max (t the third axis). At
 * step d every type with copies left is tried at every distinct cell set
 * it covers lying in face d's plane, inside the box, over the face's
 * whole centre (its cells off the face's border); each such try is a
 * node. A try fits when it overlaps nothing placed and every shell cell
 * whose faces are all among faces 0..d is covered. A fit at step 5 is a
 * win; a fit before whose subtree holds no win is a dead end. Counts are
 * summed over the orders.
 */
struct diffref_counts {
	uint64_t dead, wins, nodes;
	int orders;
};

/* 0 and '*out' filled; DIFFREF_NOT_KIND (out zeroed) when 'p' is not such
 * a puzzle; -1 when out of memory. */
int diffref_plates(const struct puzzle *p, struct diffref_counts *out);

/*
 * For DIFF_CELLS properties: every assembly of 'p' (goal held fixed,
 * identical pieces interchangeable: a labelled partition of the goal),
 * enumerated by first empty cell, and for each single-copy type P
 * W(P) = the assemblies in which P lies at a fixed representative of its
 * placement's orbit under the goal's proper rotations, summed over the
 * orbits (which representative does not matter: a rotation of the goal
 * maps the assemblies with P at r onto those with P at its image). That
 * is what a cover search pinning P to one placement per orbit finds.
 * 'pinned' is the type difficulty.h pins: the single-copy type with the
 * most placements in the goal, ties to the least canonical shape (least
 * by cell count, then lexicographically by the sorted packed cells
 * x | y << 8 | z << 16 over the 24 rotations, each normalised); -1 when
 * no type has a single copy. 'expect_wins' is W(pinned), or 'assemblies'
 * when nothing is pinned.
 */
struct diffref_cells {
	uint64_t assemblies;
	int ntypes;
	int pinned;
	uint64_t expect_wins;
	int nsym;                                /* goal's proper rotations */
	unsigned count[DIFFREF_MAX_TYPES];       /* copies of each type */
	int nplace[DIFFREF_MAX_TYPES];           /* placements in the goal */
	uint64_t w[DIFFREF_MAX_TYPES];           /* W(t), single-copy types */
};

/* 0 and '*out' filled; DIFFREF_NOT_KIND when the goal has more than
 * DIFFREF_MAX_GOAL cells, or more than DIFFREF_MAX_TYPES types, or more
 * than 10^7 assemblies; -1 when out of memory or when the reference's
 * own consistency check fails (assembly counts not constant on an orbit). */
int diffref_cells(const struct puzzle *p, struct diffref_cells *out);

/* Proper rotation r (0..23; 0 the identity) of (x, y, z): coordinate k of
 * the image is sign[k] * in[perm[k]], the signed permutation matrix having
 * determinant +1. */
void diffref_rotate(int r, const int in[3], int out[3]);

/*
 * A random re-presentation of 'in' from 'seed': the same puzzle (goal up
 * to rotation, pieces as a multiset up to rotation) written differently.
 * Entries of count K may be split into K entries, congruent entries merged
 * into one with their counts added; each entry is turned by a random
 * proper rotation (a flat piece often kept flat in z, so also just turned
 * over or round) and cropped; entries are shuffled and renamed; the goal
 * is turned by a random proper rotation and cropped. No size or seed
 * line. 0, or -1 when out of memory ('*out' left empty).
 */
int diffref_present(const struct puzzle *in, uint64_t seed, struct puzzle *out);

/*
 * A random X x Y x Z box shell (dim[k] >= 3) cut into six plates: face
 * cells to their face, each edge cell to one of its two faces, each
 * corner to the plate of one of its three neighbouring edge cells. Plate
 * i is written as a w x h x 1 grid in a random one of its 8 flat
 * orientations; the plates in random order, named "1".."6", count 1.
 * 0, or -1 when out of memory ('*out' left empty).
 */
int diffref_box(uint64_t seed, const int dim[3], struct puzzle *out);

#endif
