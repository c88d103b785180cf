/*
 * fuzz_xmpuzzle.c: libFuzzer target for the BurrTools (.xmpuzzle) reader.
 * Properties: no crash, leak or undefined behaviour on any input, gzip or
 * plain; every problem of a file that reads is a puzzle puz_write accepts
 * and puz_read_mem reads back the same; a small one solves within a node
 * budget without trouble, every engine to the same counts (samecounts.h).
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

static void check(const struct puzzle *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp || puz_write(fp, p) != PUZ_OK)
		abort();
	fclose(fp);
	struct puzzle q;
	struct puz_error e;
	if (puz_read_mem(text, len, &q, &e) != PUZ_OK)
		abort(); /* what we read, .puz must say */
	if (!same_grid(&p->goal, &q.goal) || p->npieces != q.npieces ||
	    strcmp(p->name, q.name) != 0 || p->has_match != q.has_match ||
	    memcmp(p->match, q.match, sizeof p->match) != 0)
		abort();
	for (size_t i = 0; i < p->npieces; i++)
		if (!same_grid(&p->pieces[i].shape, &q.pieces[i].shape) ||
		    p->pieces[i].count != q.pieces[i].count ||
		    p->pieces[i].count_max != q.pieces[i].count_max ||
		    p->pieces[i].weight != q.pieces[i].weight ||
		    p->pieces[i].group != q.pieces[i].group ||
		    strcmp(p->pieces[i].name, q.pieces[i].name) != 0)
			abort();
	puz_clear(&q);
	free(text);
	if (puz_grid_volume(&p->goal) <= 200 && p->npieces <= 12) {
		struct solve_opts o = {.max_nodes = 20000};
		struct solve_result r;
		if (solve_puzzle(p, &o, &r) == SOLVE_OK) {
			if (r.complete && r.solutions > r.assemblies)
				abort();
			if (r.complete)
				same_counts(p, o.max_nodes, r.solutions, r.assemblies);
			solve_result_clear(&r);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct puzzle p;
	struct xmp_info xi;
	struct puz_error e;
	size_t k = 0;
	do {
		int rc = xmp_read_mem(data, size, k, &p, &xi, &e);
		if (rc != PUZ_OK) {
			if (rc != PUZ_EPARSE || e.msg[0] == '\0')
				abort();
			return 0;
		}
		if (xi.nproblems == 0 || (xi.differs != (xi.why[0] != '\0')))
			abort();
		check(&p);
		puz_clear(&p);
	} while (++k < xi.nproblems && k < 4);
	return 0;
}
