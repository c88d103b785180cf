/*
 * count.c: how the generator asks the solver about a candidate: is it
 * unique (gen_count), how hard is it (gen_difficulty). Both take the
 * plates directly when they meet the shell condition, else the puzzle.
 */
#include "gen/gen.h"
#include "gen/gen_int.h"
#include "solver/difficulty.h"
#include "solver/shell.h"
#include "solver/solve.h"

/* The plates of 'g' as shell_count() and diff_plates() take them. */
static void plates_of(const struct gen_puzzle *g,
                      const unsigned char *plates[6], int dims[6][2])
{
	for (int i = 0; i < 6; i++) {
		plates[i] = g->piece[i];
		dims[i][0] = g->pw[i];
		dims[i][1] = g->ph[i];
	}
}

int gen_count(const struct gen_puzzle *g, const struct solve_opts *o,
              struct solve_result *out)
{
	const unsigned char *plates[6];
	int dims[6][2];
	plates_of(g, plates, dims);
	int rc = shell_count(g->dim, plates, (const int (*)[2])dims, o, out);
	if (rc != SHELL_NOT_SHELL)
		return rc;
	/* A plate without a full 2 x 2 block: the general search. */
	struct puzzle p;
	if (gen_to_puzzle(g, 0, &p) != GEN_OK)
		return SOLVE_ENOMEM;
	rc = solve_puzzle(&p, o, out);
	puz_clear(&p);
	return rc;
}

int gen_difficulty(const struct gen_puzzle *g, struct diff_result *out)
{
	const unsigned char *plates[6];
	int dims[6][2];
	plates_of(g, plates, dims);
	int rc = diff_plates(g->dim, plates, (const int (*)[2])dims, out);
	if (rc != DIFF_NOT_PLATES)
		return rc;
	struct puzzle p;
	if (gen_to_puzzle(g, 0, &p) != GEN_OK)
		return SOLVE_ENOMEM;
	rc = diff_puzzle(&p, 0, out);
	puz_clear(&p);
	return rc;
}

int gen_unique(const struct gen_puzzle *g, bool *yes, uint64_t *nodes)
{
	struct solve_opts o = {.max_solutions = 2};
	struct solve_result r;
	int rc = gen_count(g, &o, &r);
	if (rc == SOLVE_OK) {
		*yes = r.complete && r.solutions == 1;
		*nodes += r.nodes;
		solve_result_clear(&r);
	}
	return rc;
}

int gen_score(const struct gen_puzzle *g, double *d)
{
	struct diff_result r;
	int rc = gen_difficulty(g, &r);
	if (rc == SOLVE_OK && !diff_score(&r, d))
		*d = 0; /* not reached: a unique puzzle has an assembly */
	return rc;
}
