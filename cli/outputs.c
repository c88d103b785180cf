/*
 * outputs.c: puzzle.puz, solution.txt, the pieces as STL and OpenSCAD, and
 * the pictures, for one generated puzzle.
 */
#include "cli/outputs.h"

#include <errno.h>
#include <string.h>

#include "solver/puz.h"

static bool write_puzzle(struct outdir *od, const struct gen_puzzle *g,
                         const struct output_opts *o)
{
	struct puzzle p;
	if (gen_to_puzzle(g, o->seed, &p) != GEN_OK) {
		cli_error("generate: out of memory");
		return false;
	}
	FILE *fp = outdir_fopen(od, "puzzle.puz");
	bool ok = fp != NULL;
	if (ok && puz_write(fp, &p) != PUZ_OK) {
		cli_error("%s/puzzle.puz: cannot write: %s", od->tmp, strerror(errno));
		fclose(fp);
		ok = false;
	} else if (ok) {
		ok = outdir_fclose(od, fp, "puzzle.puz");
	}
	puz_clear(&p);
	return ok;
}

static bool write_answer(struct outdir *od, const struct gen_puzzle *g)
{
	FILE *fp = outdir_fopen(od, "solution.txt");
	if (!fp)
		return false;
	if (gen_write_answer(fp, g) != GEN_OK) {
		cli_error("%s/solution.txt: cannot write: %s", od->tmp, strerror(errno));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, "solution.txt");
}

bool write_outputs(struct outdir *od, const struct gen_puzzle *g,
                   const struct output_opts *o)
{
	return write_puzzle(od, g, o) && write_answer(od, g);
}
