/*
 * brute.h: an independent, deliberately simple reference counter for
 * packing puzzles, used by differential tests of the real solver.
 *
 * It implements DESIGN.md §2 literally and shares no code with the solver sources
 * (only the types of solver/puz.h):
 *
 * - Piece entries congruent under the 24 proper rotations are one type;
 *   their counts add up.
 * - An assembly is a labelled partition of the goal: which goal cells form
 *   one placed piece, and the type of each such region. Swapping identical
 *   pieces gives the same assembly. They are enumerated by backtracking on
 *   the first empty goal cell (grid order), trying every type with pieces
 *   left, every distinct proper orientation and every translation that
 *   puts some piece cell on that cell.
 * - The piece multiset is mirror-closed when every type's mirror image is
 *   congruent to a type with the same count.
 * - G is the set of proper rotations (plus the improper ones when
 *   mirror-closed) mapping the goal onto itself, each followed by the
 *   translation that re-normalises. An improper g turns a region of type t
 *   into a region of type mirror(t).
 * - solutions = number of distinct canonical forms, where the canonical
 *   form of an assembly is the lexicographic minimum over g in G of the
 *   encoding of the transformed labelled partition: for each goal cell in
 *   grid order, (type label, index of the smallest cell of its region).
 *
 * Nothing is printed and no global state is used.
 */
#ifndef CUBEGEN_TESTS_BRUTE_H
#define CUBEGEN_TESTS_BRUTE_H

#include <stdbool.h>
#include <stdint.h>

#include "solver/puz.h"

/* Above this many assemblies brute_count() gives up and returns -1. */
#define BRUTE_MAX_ASSEMBLIES 2000000u

struct brute_result {
	uint64_t assemblies, solutions;
	int group_order;    /* |G| used (always >= 1: the identity) */
	bool mirror_closed; /* whether the piece multiset is mirror-closed */
};

/* Count the assemblies and solutions of 'p'. Returns 0 and fills '*out' on
 * success; -1 when out of memory, when the puzzle is too large (more than
 * BRUTE_MAX_ASSEMBLIES assemblies, distinct forms needing more than
 * 256 MiB, more than 65535 goal cells or piece types) or malformed (an
 * empty goal or an empty piece). '*out' is zeroed on failure. The goal
 * grid may have empty margins. */
int brute_count(const struct puzzle *p, struct brute_result *out);

#endif
