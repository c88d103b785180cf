/*
 * colref.h: an independent brute-force reference for colour puzzles
 * (DESIGN.md §2 and §3, solver/puzzle.h), for the differential tests in
 * tests/test_colour.c, and a maker of small random colour puzzles.
 *
 * It shares no code with solver/ (only the types of solver/puzzle.h and
 * puz_grid_init/puz_clear): its own 48 signed axis permutations, its own
 * congruence of coloured shapes, its own colour matching, and its own
 * enumeration. Every feature of puzzle.h counts:
 *
 * - Cells. A goal cell is plain (PUZ_CELL), coloured (PUZ_CELL + c) or
 *   optional (may stay empty: PUZ_OPTIONAL plain, PUZ_OPTIONAL + c of
 *   colour c); a piece cell is plain or coloured. Required goal cells are
 *   covered exactly once, optional ones at most once, nothing outside the
 *   goal; a piece cell on an optional cell matches its colour as on a
 *   required one.
 * - Matching: a plain cell on either side matches anything; without a
 *   table a colour matches only itself; with one, piece colour p may lie
 *   on goal colour q exactly when bit q of match[p] is set.
 * - Types: piece entries congruent under the 24 proper rotations, colours
 *   included, are one type, interchangeable; their count ranges add up
 *   (count..count_max, or exactly count). An entry with at most 0 copies
 *   is no piece.
 * - Distinct regions: the cell sets of the regions marked distinct and,
 *   with distinct_faces, the six outer layers of the bounding box of the
 *   goal's cells (x = min, x = max, ...), as one set of cell sets with
 *   duplicates dropped. Within each, the coloured piece cells placed on
 *   it show each colour at most once (plain piece cells and empty cells
 *   show none; goal colours do not count).
 *
 * Counts:
 * - assemblies: the assemblies with the goal held fixed, each a set of
 *   placed pieces, a placed piece being its type and the colour of its
 *   cell on each goal cell it covers. Enumerated by backtracking on the
 *   first undecided goal cell in grid order (z, then y, then x): leave it
 *   empty (when optional), or put there the first cell (in grid order) of
 *   a distinct orientation of a type with copies left.
 * - H, the symmetries of the puzzle under renaming: the pairs (g, pi) of
 *   one of the 48 symmetries g of space (each followed by the translation
 *   that keeps the goal's bounding box) and a permutation pi of the
 *   colours used in the goal or the pieces (others fixed), such that: the
 *   goal value at g(c) is the value at c with its colour renamed by pi
 *   (optional stays optional, of the renamed colour); g maps the
 *   distinct cell sets onto themselves; every type t is sent to a type with the same count range
 *   by (mirror when g is improper) o (rename by pi); and with a match
 *   table, p may lie on q exactly when pi(p) may lie on pi(q). H is a
 *   group, and it acts on the assemblies.
 * - G = the g with (g, identity) in H: the proper rotations mapping the
 *   goal onto itself with its values and distinct cell sets, and the
 *   improper ones when the piece multiset is mirror-closed (the mirror
 *   image of every type, colours included, is a type with the same count
 *   range).
 * - solutions: orbits of assemblies under G; renamed: orbits under H.
 *   Both by canonical forms: the least encoding over the group, per goal
 *   cell in grid order, of (colour of the piece cell there or 'empty',
 *   least goal index of its piece's cells), which determines the assembly.
 *
 * Labels. The solver reports a cover as labels (1 + the index of the
 * piece entry, 0 for an empty cell) and piece colours per goal cell.
 * Copies of an entry with more than one copy share a label, so its
 * pieces cannot be told apart; as in tests/brute.h both sides are then
 * compared through a projection: a type is separable when each of its
 * entries has at most one copy; a separable type's pieces are kept, all
 * pieces of any other type merged into one region. The raw form of an
 * assembly is, per goal cell in grid order, (type, colour, least goal index
 * of its projected region) or 'empty', with the goal held fixed. When
 * every type is separable ('exact') it loses nothing.
 *
 * Limits: at most COLREF_MAX_CELLS goal cells, COLREF_MAX_TYPES types,
 * COLREF_MAX_COLOURS colours used, COLREF_MAX_ASSEMBLIES assemblies.
 * Nothing is printed and no global state is used.
 */
#ifndef CUBEGEN_TESTS_COLREF_H
#define CUBEGEN_TESTS_COLREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/puzzle.h"
#include "tests/brute.h"

#define COLREF_MAX_CELLS 64
#define COLREF_MAX_TYPES 64
#define COLREF_MAX_COLOURS 6 /* |H| <= 48 * 6! */
#define COLREF_MAX_ASSEMBLIES 1000000u

/* Returned by colref_sets() when one of its self-checks fails (a bug in
 * the reference, not in the puzzle), and when there are more assemblies
 * than it was asked to handle. */
#define COLREF_SELF_CHECK (-2)
#define COLREF_TOO_MANY 1

struct colref_result {
	uint64_t assemblies; /* goal held fixed */
	uint64_t solutions;  /* orbits under G */
	uint64_t renamed;    /* orbits under H */
	int group_order;     /* |G|, >= 1 */
	int rename_order;    /* |H|, >= |G| */
	bool mirror_closed;
	int ntypes;          /* piece types (entries with copies, up to
	                      * congruence) */
	bool exact;          /* every type separable: raw forms lose nothing */
};

/* ---- records -------------------------------------------------------- */

/* Records are tests/brute.h's forms (struct brute_forms): a record's first
 * word is 'len' (so qsort's comparator knows it), then one word per goal
 * cell. */

/* ---- counting ------------------------------------------------------- */

/* Count 'p'. 0 and '*out' filled; -1 (out zeroed) when out of memory, over
 * a limit above, or malformed (no goal cell, a piece without cells, a
 * cell value puzzle.h does not define). */
int colref_count(const struct puzzle *p, struct colref_result *out);

struct colref_sets {
	struct colref_result counts;
	struct brute_forms assemblies; /* raw forms: a sorted multiset,
	                                 * counts.assemblies records */
	struct brute_forms solutions;  /* G-canonical forms, a sorted set */
	struct brute_forms renamed;    /* H-canonical forms, a sorted set */
};

/* Count 'p' and keep its forms, and check the reference against itself:
 * no assembly found twice, every image of an assembly under H is an
 * assembly, and the orbits' sizes |H| / |stabiliser| (and |G| / ...) add
 * up to the assemblies. 0 and '*out' filled (free with
 * colref_sets_clear()); COLREF_TOO_MANY when there are more than
 * 'max_assemblies' (0: COLREF_MAX_ASSEMBLIES) assemblies; -1 as
 * colref_count(); COLREF_SELF_CHECK when a check fails. '*out' is left
 * empty on failure. */
int colref_sets(const struct puzzle *p, uint64_t max_assemblies,
                struct colref_sets *out);
void colref_sets_clear(struct colref_sets *s);

/* ---- covers as the solver reports them ------------------------------- */

/* The setup for one puzzle (types, H); does not keep 'p'. NULL when out of
 * memory, over a limit or malformed. */
struct colref *colref_new(const struct puzzle *p);
void colref_free(struct colref *r); /* accepts NULL */
/* Words per record (the brute_forms 'len' of this puzzle's forms). */
size_t colref_len(const struct colref *r);
bool colref_exact(const struct colref *r);

/* Forms of a reported cover: 'labels' goal-grid sized (0 outside the goal
 * and on empty cells, else 1 + a piece entry index), 'colours' goal-grid
 * sized piece colours, or NULL for all plain. Writes the raw form into
 * 'raw' and, when the puzzle is exact and they are not NULL, the G- and
 * H-canonical forms into 'gform' and 'hform' (colref_len() words each).
 * Returns 0; -1 (nothing written) when a label lies outside the goal, on
 * a required cell is 0, names no entry or an entry with no copies, or a
 * colour is above 26. Whether the cover is an assembly is not checked:
 * look its raw form up in colref_sets()'s assemblies. */
int colref_cover(struct colref *r, const unsigned char *labels,
                 const unsigned char *colours, uint32_t *raw, uint32_t *gform,
                 uint32_t *hform);

/* The labels and colours (goal-grid sized, written whole) of the assembly
 * whose raw form is 'raw', as a solver would report it: the pieces of
 * each type given to its entries in entry order. 0, or -1 when the puzzle
 * is not exact, a type has more pieces than entries, or out of memory. */
int colref_labels(const struct colref *r, const uint32_t *raw,
                  unsigned char *labels, unsigned char *colours);

/* ---- random colour puzzles ------------------------------------------ */

/* A random small colour puzzle from 'seed' (the same on every machine): a
 * goal in a box of at most 3 x 3 x 2 (at most 12 cells; now and then with
 * an empty margin in the grid), cut into connected pieces of 1..4 cells
 * with colours from up to four letters, the goal's colours taken from the
 * pieces on it (or plain), sometimes optional cells, plain or coloured
 * (and then a piece that may be left out), count ranges, identical
 * pieces merged into one entry with a count, a match table, distinct
 * regions, distinct faces, a region that is not distinct. Each piece is written in a random
 * proper rotation. Returns 0 when the cut is an assembly by construction,
 * 1 when something was changed afterwards (it may or may not be
 * solvable), -1 when out of memory ('*out' left empty). Free with
 * puz_clear(). */
int colref_random(uint64_t seed, struct puzzle *out);

#endif
