/*
 * fuzz_puz.c: libFuzzer target for the .puz reader. Properties: no crash,
 * no leak, no undefined behaviour on any input; a file that reads writes
 * back to text that reads to the same puzzle; a small puzzle solves within
 * a node budget without crashing, and every engine, the search without
 * symmetry breaking and a split one give the same counts where they
 * end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "solver/solve.h"
#include "tests/fuzz/samecounts.h"

static int same_grid(const struct grid *a, const struct grid *b)
{
	return a->nx == b->nx && a->ny == b->ny && a->nz == b->nz &&
	       memcmp(a->cells, b->cells, (size_t)a->nx * a->ny * a->nz) == 0;
}

/* The colour puzzle fields (solver/puzzle.h). */
static int same_colour_fields(const struct puzzle *p, const struct puzzle *q)
{
	if (p->rgb_set != q->rgb_set || p->has_match != q->has_match ||
	    memcmp(p->match, q->match, sizeof p->match) != 0 ||
	    p->distinct_faces != q->distinct_faces || p->nregions != q->nregions)
		return 0;
	for (int c = 1; c <= PUZ_NCOLOURS; c++)
		if ((p->rgb_set >> c & 1) && p->rgb[c] != q->rgb[c])
			return 0;
	size_t n = (size_t)p->goal.nx * p->goal.ny * p->goal.nz;
	for (size_t r = 0; r < p->nregions; r++)
		if (strcmp(p->regions[r].name, q->regions[r].name) != 0 ||
		    p->regions[r].distinct != q->regions[r].distinct ||
		    memcmp(p->regions[r].cells, q->regions[r].cells, n) != 0)
			return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct puzzle p;
	struct puz_error e;
	if (puz_read_mem((const char *)data, size, &p, &e) != PUZ_OK)
		return 0;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp || puz_write(fp, &p) != PUZ_OK)
		abort();
	fclose(fp);
	struct puzzle q;
	if (puz_read_mem(text, len, &q, &e) != PUZ_OK)
		abort(); /* what we write, we must read */
	if (!same_grid(&p.goal, &q.goal) || p.npieces != q.npieces ||
	    strcmp(p.name, q.name) != 0 ||
	    memcmp(p.size, q.size, sizeof p.size) != 0 ||
	    p.has_seed != q.has_seed || p.seed != q.seed ||
	    !same_colour_fields(&p, &q))
		abort();
	for (size_t i = 0; i < p.npieces; i++)
		if (!same_grid(&p.pieces[i].shape, &q.pieces[i].shape) ||
		    p.pieces[i].count != q.pieces[i].count ||
		    p.pieces[i].count_max != q.pieces[i].count_max ||
		    p.pieces[i].weight != q.pieces[i].weight ||
		    p.pieces[i].group != q.pieces[i].group ||
		    strcmp(p.pieces[i].name, q.pieces[i].name) != 0)
			abort();
	puz_clear(&q);
	free(text);
	if (puz_grid_volume(&p.goal) <= 200 && p.npieces <= 12) {
		struct solve_opts o = {.max_nodes = 20000, .keep_first = true};
		struct solve_result r;
		uint64_t plain = 0;
		bool complete = false;
		if (solve_puzzle(&p, &o, &r) == SOLVE_OK) {
			if (r.complete && r.solutions > r.assemblies)
				abort();
			plain = r.solutions;
			complete = r.complete;
			uint64_t assemblies = r.assemblies;
			solve_result_clear(&r);
			if (complete)
				same_counts(&p, o.max_nodes, plain, assemblies);
		}
		/* taken apart: the verdicts share out the plain count (each
		 * search held to a few hundred positions: undecided, not
		 * stuck, when they run out) */
		o.disassemble = true;
		o.dis_max_nodes = 300;
		if (solve_puzzle(&p, &o, &r) == SOLVE_OK) {
			if (complete && r.complete &&
			    r.solutions + r.stuck + r.undecided + r.below_min != plain)
				abort();
			solve_result_clear(&r);
		}
		o.disassemble = false;
		/* and up to renamings: never more than without them */
		o.rename_colours = true;
		o.keep_first = false;
		if (solve_puzzle(&p, &o, &r) == SOLVE_OK) {
			if (complete && r.complete && r.solutions > plain)
				abort();
			solve_result_clear(&r);
		}
	}
	puz_clear(&p);
	return 0;
}
