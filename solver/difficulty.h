/*
 * difficulty.h: how hard a puzzle is for a person, as one number that
 * belongs to the puzzle and not to how its file is written.
 *
 * The score is dead ends per solution of an exhaustive search that works
 * the way a person does: pick up a piece, try it against what is already
 * placed, and back off when nothing more fits. A dead end is a placement
 * that fits (no cell covered twice, nothing left that can no longer be
 * covered) but from which no way leads to a complete assembly. Higher is
 * harder.
 *
 * Two searches, by kind of puzzle:
 *
 * DIFF_PLATES: six flat plates into the shell of a box, each holding a
 * full 2 x 2 block (the Happy Cube kind and every generated puzzle; the
 * condition of shell.h, so each plate lies on one face and covers its
 * centre). The order is a person's: the bottom, then the four sides in
 * turn, then the top. At each face every plate left is tried at every
 * distinct placement (the 8 flat moves and the shifts that cover the
 * face's centre; placements of a symmetric plate that cover the same
 * cells once; identical plates once). A placement fits when no cell is
 * covered twice and every edge or corner whose faces are all placed is
 * covered. 'wins' counts the complete assemblies. A box whose sides are
 * not all equal has several human orders, one per pair (side of the
 * bottom's axis, side of the first wall's axis) of different lengths; the
 * counts are summed over them (one order for a cube, up to six).
 *
 * DIFF_CELLS: every other puzzle. Exact cover on the puzzle's canonical
 * form: the goal turned to its least rotation (poly_canonical) with cells
 * numbered in that order, identical pieces merged into types sorted by
 * canonical shape. The search is the solver's own engine fed that form:
 * up to 64 goal cells the bitboard engine (bb.h: branch on the cell with
 * the fewest fitting placements, or on a single-copy type with fewer;
 * ties to the lowest number), up to 1024 the wide one (bbw.h, the same
 * rule), beyond them dancing links (xc.h: the cell with the fewest, ties
 * to the lowest number; never a type, so another tree, with big pieces
 * a far bigger one, which is why the wide board takes goals up to its
 * limit). To keep the cost near one
 * solve, one single-copy type (the one with the most placements; ties:
 * the least canonical shape) is kept at only the least placement of each
 * orbit under the goal's rotations. 'wins' counts the covers found. A
 * change to either engine's branching rule changes these scores (say so
 * in the changelog).
 *
 * Colour puzzles (!puz_plain) are measured the same way, always by the
 * cell search. Colours are part of every shape (poly.h's tags), so the
 * canonical goal and types carry them, and an optional goal cell is
 * tagged too (GOAL_OPTIONAL in difficulty.c). A placement must match
 * colours (puz_match) and may not show a colour twice in a distinct
 * region. The distinct regions (the file's, then the six faces of the
 * goal's box) are taken to the canonical goal and, among the goal's
 * rotations that keep its cells and tags, turned by the one that makes
 * their sorted list of membership arrays least; the rotations that count
 * (for the pinned type, only exactly one copy: not a range) are those
 * that also keep the regions. A placement of the pinned type is compared
 * with its images as a list of (cell, colour) pairs. Without optional
 * cells, ranges or distinct regions the engines are a plain puzzle's.
 * With optional cells alone (up to 1024 cells), the wide bitboard with the
 * solver's fillers (solve.c: a monomino type for the cells left empty,
 * its placements neither nodes nor dead ends, optional cells branched on
 * only when no required cell is empty): on every design we hold it finds
 * the dead ends dancing links' phased search finds, 3D Onat's 1,984,668
 * among them, in a third of the time. With ranges and every cell
 * required, the wide bitboard with each type's least (bbw_set_least),
 * whose dead ends are the phased search's there, node for node. With
 * ranges and optional cells, or distinct regions, dancing links with the
 * solver's phased search and its numbering of items (required cells,
 * types of exactly one copy; then optional cells, the other types, one
 * item per distinct region and piece colour).
 *
 * Presentation independence: both searches are functions of the goal up
 * to rotation (with its colours, optional cells and distinct regions) and
 * the multiset of pieces up to rotation. Numbering,
 * naming, listing order and drawing of the pieces never enter; turning
 * the goal gives the same canonical form (DIFF_CELLS) or maps the human
 * orders onto themselves (DIFF_PLATES). Counts are integers; the score is
 * their ratio.
 *
 * Ownership: plain results, nothing to free. Errors: SOLVE_ENOMEM,
 * SOLVE_ETOOBIG (solve.h). A search stopped by its node budget is a
 * result with complete == false and no score.
 */
#ifndef CUBEGEN_DIFFICULTY_H
#define CUBEGEN_DIFFICULTY_H

#include <stdbool.h>
#include <stdint.h>

#include "solver/puzzle.h"

enum diff_method {
	DIFF_NONE,   /* no search: the puzzle cannot be assembled at all */
	DIFF_PLATES, /* six plates into a box shell, in a person's order */
	DIFF_CELLS,  /* any other puzzle, by its most constrained cell */
};

/* The node budget solve and check use by default: a second or two. */
#define DIFF_DEFAULT_NODES 5000000u

struct diff_result {
	enum diff_method method;
	bool complete;  /* the search finished within its budget */
	uint64_t dead;  /* placements that fit but lead to no assembly */
	uint64_t wins;  /* assemblies (plates) or covers (cells) found */
	uint64_t nodes; /* placements tried, fitting or not */
	int orders;     /* DIFF_PLATES: human orders searched */
};

/* Measure 'p' with at most 'max_nodes' placements tried (0: no limit).
 * '*out' is written on SOLVE_OK. */
int diff_puzzle(const struct puzzle *p, uint64_t max_nodes,
                struct diff_result *out);

/* The same, given a complete count of the puzzle (solve.h): its
 * 'assemblies' and the 'count_nodes' its search took (0: unknown), which
 * can show that the cell search would pass 'max_nodes', and then it is
 * not started: '*out' says so as a search stopped by its budget would
 * (DIFF_CELLS, complete false, no counts). Sure: the search finds each
 * cover at a node of its own, every assembly when no type is pinned and
 * at least one in |rotations| when one is (the nine-colour cube: 14.5
 * million assemblies, no piece that comes once). Measured: on every
 * plain puzzle in tests/data and examples and on generated block
 * puzzles the search took at least 0.99 times the count's nodes (1.9 to
 * 10 times on those of 40 cells or more), so a count of more than
 * DIFF_COUNT_FACTOR times 'max_nodes' shows it would pass it too
 * (Bedlam: 18.5 million count nodes, 49 million to score). The plate walk
 * is always run (microseconds). */
#define DIFF_COUNT_FACTOR 2
int diff_puzzle_known(const struct puzzle *p, uint64_t max_nodes,
                      uint64_t assemblies, uint64_t count_nodes,
                      struct diff_result *out);

/* Progress of a long measure (diff_puzzle_watched): fn is called with
 * the placements the cell search has tried so far and its budget
 * (max_nodes, 0 for none), once every 'every' placements (0:
 * DIFF_POLL_NODES), from the caller's thread. */
struct diff_watch {
	void (*fn)(void *ctx, uint64_t nodes, uint64_t max_nodes);
	void *ctx;
	uint64_t every;
};
#define DIFF_POLL_NODES 65536u
/* diff_puzzle_known(), watched by 'w' (NULL: not): the same result. */
int diff_puzzle_watched(const struct puzzle *p, uint64_t max_nodes,
                        uint64_t assemblies, uint64_t count_nodes,
                        const struct diff_watch *w, struct diff_result *out);

/* Returned by diff_plates() for plates that do not meet the condition. */
#define DIFF_NOT_PLATES (-1)

/* The same for six plates as the generator makes them (shell_count()'s
 * arguments), with no node budget; DIFF_NOT_PLATES, '*out' untouched,
 * when they do not meet the plate condition (then measure the puzzle). */
int diff_plates(const int dim[3], const unsigned char *const plates[6],
                const int (*pdims)[2], struct diff_result *out);

/* The score dead / wins into '*score'; false (and '*score' untouched)
 * when there is none: no assembly, or the search was incomplete. */
bool diff_score(const struct diff_result *r, double *score);

/* "plates", "cells" or "none". */
const char *diff_method_name(enum diff_method m);

#endif
