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
 * ties to the lowest number), beyond them dancing links (xc.h: the cell
 * with the fewest, ties to the lowest number). To keep the cost near one
 * solve, one single-copy type (the one with the most placements; ties:
 * the least canonical shape) is kept at only the least placement of each
 * orbit under the goal's rotations. 'wins' counts the covers found. A
 * change to either engine's branching rule changes these scores (say so
 * in the changelog).
 *
 * Presentation independence: both searches are functions of the goal up
 * to rotation and the multiset of pieces up to rotation. Numbering,
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
 * '*out' is written on SOLVE_OK. A colour puzzle (!puz_plain) is not
 * measured: method DIFF_NONE, complete false, so no score. */
int diff_puzzle(const struct puzzle *p, uint64_t max_nodes,
                struct diff_result *out);

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
