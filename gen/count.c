/*
 * count.c: how the generator asks the solver whether a candidate is unique.
 */
#include "gen/gen.h"
#include "solver/shell.h"
#include "solver/solve.h"

int gen_count(const struct gen_puzzle *g, const struct solve_opts *o,
              struct solve_result *out)
{
	const unsigned char *plates[6];
	for (int i = 0; i < 6; i++)
		plates[i] = g->piece[i];
	int rc = shell_count(g->n, plates, o, out);
	if (rc != SHELL_NOT_SHELL)
		return rc;
	/* Size 3, or a plate without a full centre block: the general search. */
	struct puzzle p;
	if (gen_to_puzzle(g, 0, &p) != GEN_OK)
		return SOLVE_ENOMEM;
	rc = solve_puzzle(&p, o, out);
	puz_clear(&p);
	return rc;
}
