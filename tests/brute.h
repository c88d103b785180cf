/*
 * brute.h: an independent, deliberately simple reference counter for
 * packing puzzles, used by differential tests of the real solver.
 *
 * It implements DESIGN.md §2 literally and shares no code with the solver sources
 * (only the types of solver/puzzle.h):
 *
 * - Piece entries congruent under the 24 proper rotations are one type;
 *   their counts add up.
 * - An assembly is a labelled partition of the goal: which goal cells form
 *   one placed piece, and the type of each such region. Swapping identical
 *   pieces gives the same assembly. They are enumerated by backtracking on
 *   the first empty goal cell (grid order), trying every type with pieces
 *   left, every distinct proper orientation and every translation that
 *   puts some piece cell on that cell (only the one putting the piece's
 *   first cell in grid order there can fit: every cell before is full).
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
 * Solution sets (brute_solutions(), brute_canonical()). The solver reports
 * a cover as labels on the goal grid (1 + the index of the piece entry
 * lying there), and all copies of an entry with count K carry one label:
 * from its output alone the individual copies cannot be told apart (two L
 * trominoes with one label fill a 2x3 block in two ways that look the
 * same). So both sides are compared through one projection pi of an
 * assembly, which the labels determine:
 *
 * - a type is "separable" when it and its mirror type (if any) consist
 *   only of entries with count 1: then each copy has a label of its own
 *   and each region is kept as it is;
 * - every other type's regions are merged into one region per type.
 *
 * pi(A) is encoded like the full form: per goal cell in grid order, (type,
 * index of the smallest cell of its projected region). Separability is the
 * same for t and mirror(t), so pi commutes with every g in G, and the
 * projected canonical form kappa(A) = min over g in G of the encoding of
 * g.pi(A) is the same for every assembly of one solution. When every type
 * is separable (every entry has count 1: shells, congruent pieces given as
 * separate entries) pi is the identity and kappa is exactly the full
 * canonical form; otherwise two assemblies differing only in how copies
 * of one non-separable type tile their common union share kappa.
 *
 * Nothing is printed and no global state is used.
 */
#ifndef CUBEGEN_TESTS_BRUTE_H
#define CUBEGEN_TESTS_BRUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/puzzle.h"

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

/* ---- sets of forms -------------------------------------------------- */

/* A set or multiset of encoded forms, records of 'len' uint32_t each. A
 * record's first word is 'len' itself (qsort's comparator has no context
 * argument), then 2 words per goal cell: 1 + 2 * cells in all. Compare
 * only records of one puzzle. */
struct brute_forms {
	size_t len;    /* uint32_t per record, the length word included */
	size_t n;      /* records held */
	size_t cap;    /* records allocated */
	bool set;      /* drop duplicates (a set) or keep them (a multiset) */
	uint32_t *rec; /* n * len words, owned */
};

/* An empty collection of records of 'len' words. */
void brute_forms_init(struct brute_forms *f, size_t len, bool set);
/* Append a copy of 'rec' (rec[0] == f->len). A set may drop duplicates
 * now and then to save room; the order is arbitrary until
 * brute_forms_sort(). Returns 0, or -1 when out of memory or above
 * 256 MiB (then 'f' holds the records it held before). */
int brute_forms_add(struct brute_forms *f, const uint32_t *rec);
/* Sort ascending; a set also drops its duplicates. */
void brute_forms_sort(struct brute_forms *f);
/* How many records of sorted 'a' have no partner in sorted 'b', matched
 * one to one (so a record twice in 'a' and once in 'b' counts once). */
size_t brute_forms_missing(const struct brute_forms *a,
                           const struct brute_forms *b);
/* Whether sorted 'a' and 'b' hold the same records, as many times each. */
bool brute_forms_equal(const struct brute_forms *a, const struct brute_forms *b);
/* Whether sorted 'f' holds 'rec'. */
bool brute_forms_has(const struct brute_forms *f, const uint32_t *rec);
/* Free the records; 'f' is left empty and may be reused. */
void brute_forms_clear(struct brute_forms *f);

/* ---- solution sets -------------------------------------------------- */

struct brute_solset {
	struct brute_result counts; /* as brute_count() gives them */
	/* kappa of every assembly: a set, sorted. Its size is at most
	 * counts.solutions, and equal when 'exact'. */
	struct brute_forms solutions;
	/* pi of every assembly with the goal held fixed (the encoding under
	 * the identity): a multiset, sorted, counts.assemblies records. */
	struct brute_forms assemblies;
	int ntypes;  /* piece types: congruence classes of the entries */
	bool exact;  /* every type separable: pi loses nothing */
};

/* Enumerate the assemblies of 'p' as brute_count() does and collect their
 * projected forms. Returns 0 and fills '*out' (owned: free it with
 * brute_solset_clear()); -1 as brute_count(), with '*out' left empty. */
int brute_solutions(const struct puzzle *p, struct brute_solset *out);
void brute_solset_clear(struct brute_solset *s);

/* ---- canonical forms of label grids ----------------------------------- */

/* The setup (types, goal symmetries) to project label grids of one
 * puzzle; it does not own or keep 'p'. */
struct brute_canon;

/* NULL when out of memory, too large or malformed (as brute_count()). */
struct brute_canon *brute_canon_new(const struct puzzle *p);
void brute_canon_free(struct brute_canon *c); /* accepts NULL */
/* Words per form: the 'len' of the puzzle's brute_forms. */
size_t brute_canon_len(const struct brute_canon *c);
/* Project a label grid like solve_result.first (goal-grid sized, 0
 * outside the goal, else 1 + a piece entry index) and write kappa into
 * 'form' and, when not NULL, pi with the goal held fixed into 'raw'
 * (brute_canon_len() words each), comparable with brute_solutions()'s
 * records. Returns 0, or -1 (nothing written) when a label is out of
 * range, names an entry with count 0, or the labelled cells are not
 * exactly the goal. Whether the labels form an assembly is not checked:
 * that is what comparing the forms is for. */
int brute_canonical(struct brute_canon *c, const unsigned char *labels,
                    uint32_t *form, uint32_t *raw);

#endif
