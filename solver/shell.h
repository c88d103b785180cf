/*
 * shell.h: the exact fast path for six flat plates into an n x n x n shell.
 *
 * Applies when n >= 4, the goal is exactly the shell, and there are six
 * flat plates (one cell thick, at most n x n), each holding a full
 * (n-2) x (n-2) block of cells. Then every plate lies on exactly one face
 * and covers that face's centre: a 2x2 block cannot lie in a ring plane
 * (the shell's cross-sections away from the faces are one cell wide), and
 * six face centres need six plates, one in each face plane, each covering
 * its centre alone. A placement is a turn (8 flat transforms) and a shift
 * that keeps the plate on its face and over the centre: a plate whose
 * cells reach all four sides has only its unshifted turns, one with an
 * empty side may also sit one cell over. Interior cells are then always
 * covered once, so only the borders (4n - 4 cells per face) are checked.
 *
 * Counting follows solve.h exactly (all 48 symmetries apply: flat plates
 * are mirror-closed). One single-copy plate is pinned to face -Z, at one
 * placement per orbit of the face's 8 symmetries; such a placement's orbit
 * under the 48 is 6 faces times its orbit on the face. With no
 * single-copy plate the path declines.
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
