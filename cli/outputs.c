/*
 * outputs.c: puzzle.puz, solution.txt, the pieces as STL and OpenSCAD, and
 * the pictures, for one generated puzzle.
 */
#include "cli/outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/draw.h"
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

static bool write_png(struct outdir *od, const char *name, int rc,
                      unsigned char *png, size_t len)
{
	if (rc != DRAW_OK) {
		cli_error("%s: cannot draw: %s", name, draw_strerror(rc));
		return false;
	}
	bool ok = outdir_write(od, name, png, len);
	free(png);
	return ok;
}

/* preview.png: the pieces as drawn in puzzle.puz, numbered. */
static bool write_preview(struct outdir *od, const struct gen_puzzle *g,
                          const struct output_opts *o)
{
	const unsigned char *plates[6];
	int label[6];
	for (int i = 0; i < 6; i++) {
		plates[i] = g->piece[i];
		label[i] = i + 1;
	}
	char title[96];
	snprintf(title, sizeof title, "cubegen %dx%dx%d seed %llu: the six pieces",
	         g->n, g->n, g->n, (unsigned long long)o->seed);
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_plates(plates, g->n, 6, label, title, &png, &len);
	return write_png(od, "preview.png", rc, png, len);
}

/* solution.png: the net with every piece in place, assembled, exploded. */
static bool write_solution_png(struct outdir *od, const struct gen_puzzle *g,
                               const struct output_opts *o)
{
	int n = g->n;
	size_t nn = (size_t)n * n, n3 = nn * n;
	unsigned char *buf = malloc(6 * nn + n3);
	if (!buf) {
		cli_error("solution.png: out of memory");
		return false;
	}
	const unsigned char *views[6];
	for (int f = 0; f < 6; f++) {
		gen_face_view(g, f, buf + f * nn);
		views[f] = buf + f * nn;
	}
	unsigned char *owner = buf + 6 * nn;
	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++)
				owner[x + n * (y + (size_t)n * z)] =
					(unsigned char)gen_cell_piece(g, x, y, z);
	/* The net of gen.h: left, front, right, back in a row, the top above
	 * the front, the bottom below it. Faces in the order -X +X -Y +Y -Z +Z. */
	static const int net[6][2] = {{0, 1}, {2, 1}, {1, 1}, {3, 1}, {1, 2}, {1, 0}};
	char title[96];
	snprintf(title, sizeof title, "cubegen %dx%dx%d seed %llu: answer",
	         n, n, n, (unsigned long long)o->seed);
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_shell_solution(n, views, net, owner, g->face, title, &png, &len);
	free(buf);
	return write_png(od, "solution.png", rc, png, len);
}

bool write_outputs(struct outdir *od, const struct gen_puzzle *g,
                   const struct output_opts *o)
{
	return write_puzzle(od, g, o) && write_answer(od, g) &&
	       write_preview(od, g, o) && write_solution_png(od, g, o);
}
