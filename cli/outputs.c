/*
 * outputs.c: puzzle.puz and puzzle.xmpuzzle, solution.txt, the pieces as STL and OpenSCAD, and
 * the pictures, for one generated puzzle.
 */
#include "cli/outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "draw/draw.h"
#include "cli/printfiles.h"
#include "mesh/mesh.h"
#include "formats/puz.h"

bool outputs_puzzle_files(struct outdir *od, const struct puzzle *p,
                          const struct xmp_solutions *sols)
{
	FILE *fp = outdir_fopen(od, "puzzle.puz");
	bool ok = fp != NULL;
	if (ok && puz_write(fp, p) != PUZ_OK) {
		cli_error("%s/puzzle.puz: cannot write: %s", od->target, strerror(errno));
		fclose(fp);
		ok = false;
	} else if (ok) {
		ok = outdir_fclose(od, fp, "puzzle.puz");
	}
	fp = ok ? outdir_fopen(od, "puzzle.xmpuzzle") : NULL;
	ok = fp != NULL;
	int rc = ok ? xmp_write(fp, p, sols, true) : PUZ_OK;
	if (ok && rc != PUZ_OK) {
		cli_error("%s/puzzle.xmpuzzle: cannot write: %s", od->target,
		          rc == PUZ_ENOMEM ? "out of memory" : strerror(errno));
		fclose(fp);
		ok = false;
	} else if (ok) {
		ok = outdir_fclose(od, fp, "puzzle.xmpuzzle");
	}
	return ok;
}

static bool write_puzzle(struct outdir *od, const struct gen_puzzle *g,
                         const struct output_opts *o)
{
	struct puzzle p;
	if (gen_to_puzzle(g, o->seed, &p) != GEN_OK) {
		cli_error("generate: out of memory");
		return false;
	}
	/* the BurrTools file without the solution: that is the answer */
	bool ok = outputs_puzzle_files(od, &p, NULL);
	puz_clear(&p);
	return ok;
}

static bool write_answer(struct outdir *od, const struct gen_puzzle *g)
{
	FILE *fp = outdir_fopen(od, "solution.txt");
	if (!fp)
		return false;
	if (gen_write_answer(fp, g) != GEN_OK) {
		cli_error("%s/solution.txt: cannot write: %s", od->target, strerror(errno));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, "solution.txt");
}

bool outputs_png(struct outdir *od, const char *name, int rc,
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
	int label[6], dims[6][2];
	for (int i = 0; i < 6; i++) {
		plates[i] = g->piece[i];
		label[i] = i + 1;
		dims[i][0] = g->pw[i];
		dims[i][1] = g->ph[i];
	}
	char title[96];
	snprintf(title, sizeof title, "cubegen %dx%dx%d seed %llu: the six pieces",
	         g->dim[0], g->dim[1], g->dim[2], (unsigned long long)o->seed);
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_plates(plates, (const int (*)[2])dims, 6, label, title,
	                     &png, &len);
	return outputs_png(od, "preview.png", rc, png, len);
}

/* solution.png: the net with every piece in place, assembled, exploded. */
static bool write_solution_png(struct outdir *od, const struct gen_puzzle *g,
                               const struct output_opts *o)
{
	const int *dim = g->dim;
	size_t faces = 0, cells = (size_t)dim[0] * dim[1] * dim[2];
	for (int f = 0; f < 6; f++) {
		int w, h;
		gen_face_dims(dim, f, &w, &h);
		faces += (size_t)w * h;
	}
	unsigned char *buf = malloc(faces + cells);
	if (!buf) {
		cli_error("solution.png: out of memory");
		return false;
	}
	const unsigned char *views[6];
	unsigned char *at = buf;
	for (int f = 0; f < 6; f++) {
		int w, h;
		gen_face_dims(dim, f, &w, &h);
		gen_face_view(g, f, at);
		views[f] = at;
		at += (size_t)w * h;
	}
	unsigned char *owner = at;
	gen_piece_grid(g, owner);
	int net[6][2];
	for (int f = 0; f < 6; f++)
		gen_net_pos(f, net[f]);
	char title[96];
	snprintf(title, sizeof title, "cubegen %dx%dx%d seed %llu: answer",
	         dim[0], dim[1], dim[2], (unsigned long long)o->seed);
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_shell_solution(dim, views, (const int (*)[2])net, owner, g->face,
	                             title, &png, &len);
	free(buf);
	return outputs_png(od, "solution.png", rc, png, len);
}

/* solution.html's answer: the box's cells by piece, its outer layers
 * walls, and a step per face in solution.txt's order and words, each
 * piece sliding in from outside its face. */
struct plates_answer {
	struct page_answer a;
	unsigned char *owner;
	unsigned char wall[3][GEN_MAX_SIZE];
	char text[6][220];
	size_t order[6];
	struct mesh_page_step step[6];
};

static bool plates_answer(const struct gen_puzzle *g, const struct mesh_size *sz,
                          struct plates_answer *pa)
{
	const int *dim = g->dim;
	memset(pa, 0, sizeof *pa);
	pa->owner = malloc((size_t)dim[0] * dim[1] * dim[2]);
	if (!pa->owner)
		return false;
	gen_piece_grid(g, pa->owner);
	double far = 0;
	for (int a = 0; a < 3; a++) {
		pa->wall[a][0] = pa->wall[a][dim[a] - 1] = 1;
		double mm = 2 * sz->wall + (dim[a] - 2) * sz->unit;
		far = mm > far ? mm : far;
	}
	for (int k = 0; k < 6; k++) {
		int face = gen_answer_face(k);
		int p = gen_answer_line(g, face, pa->text[k], sizeof pa->text[k]);
		pa->order[k] = (size_t)p - 1;
		struct mesh_page_step *st = &pa->step[k];
		st->text = pa->text[k];
		st->show = pa->order;
		st->nshow = (size_t)k + 1;
		st->moving = &pa->order[k];
		st->nmoving = 1;
		/* enum gen_face: axis face / 2, the low side when even */
		st->from[face / 2] = face % 2 ? far : -far;
	}
	pa->a = (struct page_answer){
		.owner = pa->owner, .dim = {dim[0], dim[1], dim[2]},
		.wall = {pa->wall[0], pa->wall[1], pa->wall[2]},
		.steps = pa->step, .nsteps = 6};
	return true;
}

/* The six pieces as printed. Each piece lies on z = 0 as drawn: seen
 * from above (+Z, the way a slicer shows the bed, y up) it looks like its
 * drawing, so drawing row y becomes y = ph-1-y. Its cells are its face's
 * whole w x h frame, so the frame's outer rows and columns are the
 * box's outer layers: walls (DESIGN.md §3), as is its one layer of
 * thickness; the number engraved is the piece's. */
static bool write_pieces(struct outdir *od, const struct gen_puzzle *g,
                         const struct output_opts *o)
{
	const int *dim = g->dim;
	size_t nn = 0, side = 0; /* the largest piece, the longest side */
	for (int i = 0; i < 6; i++) {
		if ((size_t)g->pw[i] * g->ph[i] > nn)
			nn = (size_t)g->pw[i] * g->ph[i];
		side = (size_t)g->pw[i] > side ? (size_t)g->pw[i] : side;
		side = (size_t)g->ph[i] > side ? (size_t)g->ph[i] : side;
	}
	/* per piece: its cells, then the wall flags of its x and y layers */
	size_t per = nn + 2 * side;
	unsigned char *buf = calloc(6, per);
	if (!buf) {
		cli_error("generate: out of memory");
		return false;
	}
	static const unsigned char thick[1] = {1};
	struct mesh_spec s[6];
	char label[6][2];
	for (int i = 0; i < 6; i++) {
		unsigned char *c = buf + i * per, *wx = c + nn, *wy = wx + side;
		int pw = g->pw[i], ph = g->ph[i];
		for (int y = 0; y < ph; y++)
			memcpy(c + (size_t)(ph - 1 - y) * pw, g->piece[i] + (size_t)y * pw,
			       (size_t)pw);
		wx[0] = wx[pw - 1] = 1;
		wy[0] = wy[ph - 1] = 1;
		label[i][0] = (char)('1' + i);
		label[i][1] = '\0';
		s[i] = (struct mesh_spec){
			.cells = c, .dims = {pw, ph, 1}, .wall = {wx, wy, thick},
			.label = o->labels ? label[i] : NULL};
	}
	struct mesh_size sz = {o->unit, o->wall, o->clearance};
	char what[96];
	snprintf(what, sizeof what, "cubegen %dx%dx%d seed %llu", dim[0], dim[1],
	         dim[2], (unsigned long long)o->seed);
	struct plates_answer pa;
	bool ok = plates_answer(g, &sz, &pa);
	if (!ok)
		cli_error("generate: out of memory");
	ok = ok && printfiles_write(od, s, NULL, 6, &sz, what, &pa.a, true);
	free(pa.owner);
	free(buf);
	return ok;
}

bool outputs_write(struct outdir *od, const struct gen_puzzle *g,
                   const struct output_opts *o)
{
	return write_puzzle(od, g, o) && write_answer(od, g) &&
	       write_pieces(od, g, o) && write_preview(od, g, o) &&
	       write_solution_png(od, g, o);
}
