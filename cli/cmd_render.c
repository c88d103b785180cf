/*
 * cmd_render.c: 'cubegen render': pictures of any puzzle file.
 *
 * pieces.png shows the pieces (flat plates drawn flat, as a .puz file
 * shows them; other polycubes as shaded blocks). solution.png shows the
 * first solution found, when there is one: a cube shell of six plates as a
 * net plus assembled and exploded views, anything else assembled and
 * exploded.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "gen/gen.h"
#include "draw/draw.h"
#include "solver/solve.h"

static const char help[] =
	"usage: cubegen render FILE [--out DIR] [--force] [--problem K]\n"
	"\n"
	"Draw the pieces of a puzzle (.puz, .hcq or .xmpuzzle) into\n"
	"DIR/pieces.png and,\n"
	"when the puzzle has a solution, the first one found into\n"
	"DIR/solution.png.\n"
	"\n"
	"  --out DIR   output folder (default out/render-NAME, NAME the file's\n"
	"              name without its extension)\n"
	"  --force     replace DIR if it exists (only a folder cubegen wrote)\n"
	"  --problem K the K-th problem of a BurrTools file (default 1)\n";

/* Whether every piece is one cell thick (in z) and fits a picture. */
static bool all_flat(const struct puzzle *p)
{
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *s = &p->pieces[i].shape;
		if (s->nz != 1 || s->nx > DRAW_MAX_N || s->ny > DRAW_MAX_N)
			return false;
	}
	return true;
}

static int draw_pieces_of(const struct puzzle *p, const unsigned char **cells,
                          unsigned char **png, size_t *len);

/* The pieces' cells as 0/1 (draw/ takes no colours yet): one block,
 * cells[i] pointing into it; NULL when out of memory. */
static unsigned char *plain_cells(const struct puzzle *p,
                                  const unsigned char **cells)
{
	size_t total = 0;
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *s = &p->pieces[i].shape;
		total += (size_t)s->nx * s->ny * s->nz;
	}
	unsigned char *block = malloc(total ? total : 1);
	if (!block)
		return NULL;
	size_t at = 0;
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *s = &p->pieces[i].shape;
		size_t n = (size_t)s->nx * s->ny * s->nz;
		for (size_t k = 0; k < n; k++)
			block[at + k] = s->cells[k] != 0;
		cells[i] = block + at;
		at += n;
	}
	return block;
}

static int draw_piece_picture(const struct puzzle *p, unsigned char **png,
                              size_t *len)
{
	size_t count = p->npieces;
	const unsigned char **cells = malloc((count ? count : 1) * sizeof *cells);
	unsigned char *block = cells ? plain_cells(p, cells) : NULL;
	if (!block) {
		free(cells);
		return DRAW_ENOMEM;
	}
	int rc = draw_pieces_of(p, cells, png, len);
	free(block);
	free(cells);
	return rc;
}

static int draw_pieces_of(const struct puzzle *p, const unsigned char **cells,
                          unsigned char **png, size_t *len)
{
	size_t count = p->npieces;
	if (count <= 12 && all_flat(p)) {
		const unsigned char **plates = malloc(count * sizeof *plates);
		int (*dims)[2] = malloc(count * sizeof *dims);
		int *label = malloc(count * sizeof *label);
		int rc = DRAW_ENOMEM;
		if (dims && plates && label) {
			for (size_t i = 0; i < count; i++) {
				const struct grid *s = &p->pieces[i].shape;
				plates[i] = cells[i]; /* z = 0: [x + nx*y] */
				dims[i][0] = s->nx;
				dims[i][1] = s->ny;
				label[i] = (int)i + 1;
			}
			rc = draw_plates(plates, (const int (*)[2])dims, count, label,
			                 p->name, png, len);
		}
		free(dims);
		free(plates);
		free(label);
		return rc;
	}
	if (count > DRAW_MAX_PIECES)
		return DRAW_ETOOBIG;
	const unsigned char **shapes = malloc(count * sizeof *shapes);
	int (*dims)[3] = malloc(count * sizeof *dims);
	const char **names = malloc(count * sizeof *names);
	int rc = DRAW_ENOMEM;
	if (shapes && dims && names) {
		for (size_t i = 0; i < count; i++) {
			const struct grid *s = &p->pieces[i].shape;
			shapes[i] = cells[i];
			dims[i][0] = s->nx;
			dims[i][1] = s->ny;
			dims[i][2] = s->nz;
			names[i] = p->pieces[i].name;
		}
		rc = draw_pieces(shapes, (const int (*)[3])dims, count, names,
		                 p->name, png, len);
	}
	free(shapes);
	free(dims);
	free(names);
	return rc;
}

/* A six-plate box shell solution as a net, when 'lab' is one. */
static int draw_shell_answer(const struct puzzle *p, const unsigned char *lab,
                             unsigned char **png, size_t *len)
{
	const struct grid *g = &p->goal;
	int dim[3] = {g->nx, g->ny, g->nz};
	if (p->npieces != 6)
		return -1;
	for (int k = 0; k < 3; k++)
		if (dim[k] < 3 || dim[k] > DRAW_MAX_N)
			return -1;
	int face_of[7] = {-1, -1, -1, -1, -1, -1, -1};
	int piece_face[6];
	size_t faces = 0;
	for (int f = 0; f < 6; f++) {
		int x, y, z, w, h;
		gen_face_dims(dim, f, &w, &h);
		faces += (size_t)w * h;
		gen_face_cell(dim, f, w / 2, h / 2, &x, &y, &z);
		int k = lab[puz_grid_index(g, x, y, z)];
		if (k < 1 || k > 6 || face_of[k] >= 0)
			return -1;
		face_of[k] = f;
		piece_face[k - 1] = f;
	}
	unsigned char *views = calloc(faces, 1);
	if (!views)
		return DRAW_ENOMEM;
	const unsigned char *vp[6];
	unsigned char *at = views;
	for (int f = 0; f < 6; f++) {
		int w, h;
		gen_face_dims(dim, f, &w, &h);
		vp[f] = at;
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++) {
				int x, y, z;
				gen_face_cell(dim, f, u, v, &x, &y, &z);
				int k = lab[puz_grid_index(g, x, y, z)];
				if (k >= 1 && k <= 6 && face_of[k] == f)
					at[u + (size_t)w * v] = (unsigned char)k;
			}
		at += (size_t)w * h;
	}
	int net[6][2];
	for (int f = 0; f < 6; f++)
		gen_net_pos(f, net[f]);
	int rc = draw_shell_solution(dim, vp, (const int (*)[2])net, lab, piece_face,
	                             p->name, png, len);
	free(views);
	return rc;
}

static int draw_answer(const struct puzzle *p, const unsigned char *lab,
                       unsigned char **png, size_t *len)
{
	int rc = draw_shell_answer(p, lab, png, len);
	if (rc >= 0)
		return rc;
	const struct grid *g = &p->goal;
	const char **names = malloc(p->npieces * sizeof *names);
	if (!names)
		return DRAW_ENOMEM;
	for (size_t i = 0; i < p->npieces; i++)
		names[i] = p->pieces[i].name;
	rc = draw_assembly(lab, g->nx, g->ny, g->nz, names, p->npieces, p->name,
	                   png, len);
	free(names);
	return rc;
}

int cmd_render(int argc, char **argv)
{
	struct render_args ra;
	switch (args_render(argc, argv, &ra)) {
	case ARGS_HELP:
		fputs(help, stdout);
		return CLI_OK;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	const char *file = ra.file, *out = ra.out;
	bool force = ra.force;
	struct puzzle p;
	int rrc = cli_read_puzzle_at(file, ra.problem, &p, NULL);
	if (rrc != CLI_OK)
		return rrc;
	char defout[PATH_MAX];
	if (!out) {
		cli_default_out("render", file, defout, sizeof defout);
		out = defout;
	}
	struct outdir od;
	if (!outdir_begin(&od, out, force)) {
		puz_clear(&p);
		return CLI_FAIL;
	}
	int code = CLI_FAIL;
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_piece_picture(&p, &png, &len);
	if (rc != DRAW_OK) {
		cli_error("%s: cannot draw the pieces: %s", file, draw_strerror(rc));
		goto done;
	}
	bool ok = outdir_write(&od, "pieces.png", png, len);
	free(png);
	png = NULL;
	if (!ok)
		goto done;
	struct solve_opts o = {.max_solutions = 1, .keep_first = true};
	struct solve_result r;
	rc = solve_puzzle(&p, &o, &r);
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", file, solve_strerror(rc));
		goto done;
	}
	bool solved = r.first != NULL;
	if (solved) {
		rc = draw_answer(&p, r.first, &png, &len);
		if (rc != DRAW_OK) {
			cli_error("%s: cannot draw the solution: %s", file, draw_strerror(rc));
			solve_result_clear(&r);
			goto done;
		}
		ok = outdir_write(&od, "solution.png", png, len);
		free(png);
		if (!ok) {
			solve_result_clear(&r);
			goto done;
		}
	}
	solve_result_clear(&r);
	/* A folder render wrote is one --force may replace again. */
	FILE *fp = outdir_fopen(&od, "puzzle.puz");
	if (!fp)
		goto done;
	if (puz_write(fp, &p) != PUZ_OK) {
		cli_error("%s/puzzle.puz: cannot write", od.target);
		fclose(fp);
		goto done;
	}
	if (!outdir_fclose(&od, fp, "puzzle.puz"))
		goto done;
	if (!outdir_commit(&od))
		goto done;
	printf("wrote: %s/pieces.png\n", out);
	if (solved)
		printf("wrote: %s/solution.png\n", out);
	else
		printf("no solution to draw: the puzzle has none\n");
	code = CLI_OK;
done:
	if (code != CLI_OK)
		outdir_abort(&od);
	puz_clear(&p);
	return code;
}
