/*
 * shell.h: the exact fast path for six flat plates into an n x n x n shell.
 *
 * Applies when n >= 4, the goal is exactly the shell, and there are six
 * n x n x 1 plates, each with a full (n-2)^2 centre and a cell on each of
 * its four sides (so an n x n bounding box). Then every plate must lie on
 * one face, unshifted, in one of 8 flat orientations: a 2x2 block cannot
 * lie in a ring plane, and six faces need six plates, one each, each
 * covering its face's centre alone. An assembly is therefore a choice of
 * plate and orientation per face whose borders cover every edge and corner
 * cell exactly once, and only the borders (4n - 4 cells) need checking.
 *
 * Counting follows solve.h exactly (all 48 symmetries apply: flat plates
 * are mirror-closed). One single-copy plate is pinned to face -Z in one
 * orientation; its orbit under the 48 is all 6 faces times its distinct
 * orientations. With no single-copy plate the path declines.
 */
#ifndef CUBEGEN_SHELL_H
#define CUBEGEN_SHELL_H

#include "solver/puz.h"
#include "solver/solve.h"

/* Returned when the puzzle is not a six-plate shell this path handles. */
#define SHELL_NOT_SHELL (-1)

/* Solve 'p' if it is a six-plate shell; SHELL_NOT_SHELL otherwise, with
 * '*out' untouched. */
int shell_solve(const struct puzzle *p, const struct solve_opts *o,
                struct solve_result *out);

/* The same for six n x n plates given directly ([x + n*y], 0/1), as the
 * generator makes them; 'first' labels are plate index + 1. */
int shell_count(int n, const unsigned char *const plates[6],
                const struct solve_opts *o, struct solve_result *out);

#endif
