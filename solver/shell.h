/*
 * shell.h: the exact fast path for six flat plates into the shell of an
 * X x Y x Z box (a cube when the sides are equal), each side 3..64.
 *
 * Applies when the goal is exactly the shell and there are six flat plates
 * (one cell thick), each holding a full 2 x 2 block of cells. Then every
 * plate lies on exactly one face and covers that face's whole centre: a
 * 2 x 2 block cannot lie in a cross-section of the shell away from the
 * faces (a ring one cell wide), and the six face centres, which only a
 * plate in their own face plane can reach, need six plates, one in each
 * face plane, each covering its centre alone. A placement is a flat move
 * (8) and a shift that keep the plate on its face and over the centre.
 * Interior cells are then always covered once, so only the borders are
 * checked.
 *
 * Counting follows solve.h exactly, with G the box's symmetries (48 for a
 * cube, 16 with two equal sides, 8 with all sides different; all of them,
 * mirror images included, since flat plates are mirror-closed). One
 * single-copy plate is pinned, at one placement per orbit of G (see
 * shell.c). With no single-copy plate the path declines.
 */
#ifndef CUBEGEN_SHELL_H
#define CUBEGEN_SHELL_H

#include "solver/puzzle.h"
#include "solver/solve.h"

/* Returned when the puzzle is not a six-plate shell this path handles. */
#define SHELL_NOT_SHELL (-1)

/* Solve 'p' if it is a six-plate shell; SHELL_NOT_SHELL otherwise, with
 * '*out' untouched. */
int shell_solve(const struct puzzle *p, const struct solve_opts *o,
                struct solve_result *out);

/* The same for the box 'dim' and six plates given directly, as the
 * generator makes them: plate p is pdims[p][0] x pdims[p][1] cells
 * [x + w*y], 0/1; 'first' labels are plate index + 1. */
int shell_count(const int dim[3], const unsigned char *const plates[6],
                const int (*pdims)[2], const struct solve_opts *o,
                struct solve_result *out);

#endif
