/*
 * cmd_render.c: 'cubegen render': pictures of any puzzle file.
 *
 * pieces.png shows the pieces (flat plates drawn flat, as a .puz file
 * shows them; other polycubes as shaded blocks). solution.png shows the
 * first solution found, when there is one: a cube shell of six plates as a
 * net plus assembled and exploded views, anything else assembled and
 * exploded.
 *
 * Colours. A piece is drawn in its number's colour (draw_colour()), except
 * that a colour puzzle's coloured cells are drawn in their display colours
 * (puz_colour_rgb(): the file's 'colour' line or the fixed palette), in
 * both pictures; a piece's plain cells keep its number's colour. The
 * solution takes each cell's colour from the piece cell the solver put
 * there (solve_opts.on_cover), so a piece turned in the solution shows its
 * colours where they lie. The goal itself is never drawn on its own: its
 * colours show through the pieces that match them, and an optional goal
 * cell the solution leaves empty is drawn empty, like any cell outside the
 * goal. A plain puzzle's pictures are the same bytes as before colours.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/printcopies.h"
#include "gen/gen.h"
#include "draw/draw.h"
#include "solver/solve.h"

static const char help[] =
	"usage: cubegen render FILE [--out DIR] [--force] [--problem K]\n"
	"\n"
	"Draw the pieces of a puzzle (.puz, .hcq or .xmpuzzle) into\n"
	"DIR/pieces.png and DIR/pieces.html (in 3D, as `print` makes them)\n"
	"and, when the puzzle has a solution, one into DIR/solution.png and\n"
	"DIR/solution.html: the first found that comes apart by hand (when\n"
	"one is found within 5000000 search nodes), its moves reversed step\n"
	"by step, else the first found.\n"
	"\n"
	"  --out DIR   output folder (default out/render-NAME, NAME the file's\n"
	"              name without its extension; for a puzzle.puz, its\n"
	"              folder's name; -problemK after it for --problem K >= 2)\n"
	"  --force     replace DIR if it exists (only a folder cubegen wrote)\n"
	"  --problem K the K-th problem of a BurrTools file (default 1)\n"
	"\n"
	"A search for the solution past a second shows its progress on stderr\n"
	"when that is a terminal.\n"
	"Exit 0 when the pictures and pages were written (also for a puzzle\n"
	"with no solution to draw), 1 when they could not be, 2 on bad usage\n"
	"or input.\n";

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

/* The display colour of a cell of colour c (0 plain) of piece number k. */
static uint32_t cell_rgb(const struct puzzle *p, int c, int k)
{
	return c ? puz_colour_rgb(p, c) : draw_colour(k);
}

/*
 * The pieces as draw.h takes them: cells[i] 0/1 (a copy when the file's
 * cell values are not all 0 and 1, else the piece's own array) and rgb[i]
 * its cells' colours, NULL for a piece with no coloured cell. rgb itself
 * is NULL when no piece has one. Owned by the struct; piece_cells_clear()
 * frees it.
 */
struct piece_cells {
	const unsigned char **cells;
	unsigned char **own;  /* the copies (NULL where none) */
	const uint32_t **rgb; /* NULL, or per piece NULL or colours */
	size_t count;
};

static void piece_cells_clear(struct piece_cells *pc)
{
	for (size_t i = 0; i < pc->count; i++) {
		if (pc->own)
			free(pc->own[i]);
		if (pc->rgb)
			free((void *)pc->rgb[i]);
	}
	free(pc->cells);
	free(pc->own);
	free((void *)pc->rgb);
}

/* Fill '*pc' for the pieces of 'p' (count <= DRAW_MAX_PIECES). false when
 * out of memory. */
static bool piece_cells_init(struct piece_cells *pc, const struct puzzle *p)
{
	size_t count = p->npieces;
	*pc = (struct piece_cells){.count = count};
	pc->cells = calloc(count, sizeof *pc->cells);
	pc->own = calloc(count, sizeof *pc->own);
	if (!pc->cells || !pc->own)
		return false;
	bool coloured = false;
	for (size_t i = 0; i < count; i++) {
		const struct grid *g = &p->pieces[i].shape;
		size_t n = (size_t)g->nx * g->ny * g->nz;
		bool binary = true;
		for (size_t j = 0; j < n; j++) {
			binary &= g->cells[j] <= PUZ_CELL;
			coloured |= puz_cell_colour(g->cells[j]) != 0;
		}
		pc->cells[i] = g->cells;
		if (binary)
			continue;
		if (!(pc->own[i] = malloc(n)))
			return false;
		for (size_t j = 0; j < n; j++)
			pc->own[i][j] = g->cells[j] != 0;
		pc->cells[i] = pc->own[i];
	}
	if (!coloured)
		return true;
	pc->rgb = calloc(count, sizeof *pc->rgb);
	if (!pc->rgb)
		return false;
	for (size_t i = 0; i < count; i++) {
		const struct grid *g = &p->pieces[i].shape;
		size_t n = (size_t)g->nx * g->ny * g->nz, j = 0;
		while (j < n && !puz_cell_colour(g->cells[j]))
			j++;
		if (j == n)
			continue; /* a plain piece: its number's colour */
		uint32_t *rgb = malloc(n * sizeof *rgb);
		if (!rgb)
			return false;
		for (j = 0; j < n; j++)
			rgb[j] = cell_rgb(p, puz_cell_colour(g->cells[j]), (int)i + 1);
		pc->rgb[i] = rgb;
	}
	return true;
}

static int draw_piece_picture(const struct puzzle *p, unsigned char **png,
                              size_t *len)
{
	size_t count = p->npieces;
	bool flat = count <= 12 && all_flat(p);
	if (!flat && count > DRAW_MAX_PIECES)
		return DRAW_ETOOBIG;
	struct piece_cells pc;
	if (!piece_cells_init(&pc, p)) {
		piece_cells_clear(&pc);
		return DRAW_ENOMEM;
	}
	if (flat) {
		int (*dims)[2] = malloc(count * sizeof *dims);
		int *label = malloc(count * sizeof *label);
		int rc = DRAW_ENOMEM;
		if (dims && label) {
			for (size_t i = 0; i < count; i++) {
				const struct grid *s = &p->pieces[i].shape;
				dims[i][0] = s->nx; /* z = 0: [x + nx*y] */
				dims[i][1] = s->ny;
				label[i] = (int)i + 1;
			}
			rc = draw_plates_coloured(pc.cells, (const int (*)[2])dims,
			                          count, label, pc.rgb, p->name, png,
			                          len);
		}
		free(dims);
		free(label);
		piece_cells_clear(&pc);
		return rc;
	}
	int (*dims)[3] = malloc(count * sizeof *dims);
	const char **names = malloc(count * sizeof *names);
	int rc = DRAW_ENOMEM;
	if (dims && names) {
		for (size_t i = 0; i < count; i++) {
			const struct grid *s = &p->pieces[i].shape;
			dims[i][0] = s->nx;
			dims[i][1] = s->ny;
			dims[i][2] = s->nz;
			names[i] = p->pieces[i].name;
		}
		rc = draw_pieces_coloured(pc.cells, (const int (*)[3])dims, count,
		                          pc.rgb, names, p->name, png, len);
	}
	free(dims);
	free(names);
	piece_cells_clear(&pc);
	return rc;
}

/* A six-plate box shell solution as a net, when 'lab' is one; 'rgb'
 * (may be NULL) the colours of its cells. */
static int draw_shell_answer(const struct puzzle *p, const unsigned char *lab,
                             const uint32_t *rgb, unsigned char **png,
                             size_t *len)
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
	uint32_t *view_rgb = rgb ? calloc(faces, sizeof *view_rgb) : NULL;
	if (!views || (rgb && !view_rgb)) {
		free(views);
		free(view_rgb);
		return DRAW_ENOMEM;
	}
	const unsigned char *vp[6];
	const uint32_t *vrgb[6];
	size_t at = 0;
	for (int f = 0; f < 6; f++) {
		int w, h;
		gen_face_dims(dim, f, &w, &h);
		vp[f] = views + at;
		vrgb[f] = rgb ? view_rgb + at : NULL;
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++) {
				int x, y, z;
				gen_face_cell(dim, f, u, v, &x, &y, &z);
				size_t i = puz_grid_index(g, x, y, z);
				int k = lab[i];
				if (k >= 1 && k <= 6 && face_of[k] == f) {
					views[at + u + (size_t)w * v] = (unsigned char)k;
					if (rgb)
						view_rgb[at + u + (size_t)w * v] = rgb[i];
				}
			}
		at += (size_t)w * h;
	}
	int net[6][2];
	for (int f = 0; f < 6; f++)
		gen_net_pos(f, net[f]);
	int rc = draw_shell_solution_coloured(dim, vp, rgb ? vrgb : NULL,
	                                      (const int (*)[2])net, lab, rgb,
	                                      piece_face, p->name, png, len);
	free(views);
	free(view_rgb);
	return rc;
}

/*
 * The solution: 'lab' as solve_result.first, 'colours' (may be NULL) the
 * colour of the piece cell on each goal cell (solve_opts.on_cover); 'ga'
 * (may be NULL) its disassembly, of its copies, whose end the exploded
 * view shows when the pieces are interlocked (draw_assembly_apart()).
 */
static int draw_answer(const struct puzzle *p, const unsigned char *lab,
                       const unsigned char *colours,
                       const struct guide_answer *ga, unsigned char **png,
                       size_t *len)
{
	const struct grid *g = &p->goal;
	size_t cells = (size_t)g->nx * g->ny * g->nz;
	uint32_t *rgb = NULL;
	if (colours) {
		if (!(rgb = malloc(cells * sizeof *rgb)))
			return DRAW_ENOMEM;
		for (size_t j = 0; j < cells; j++)
			rgb[j] = lab[j] ? cell_rgb(p, colours[j], lab[j]) : 0;
	}
	int rc = draw_shell_answer(p, lab, rgb, png, len);
	if (rc >= 0) {
		free(rgb);
		return rc;
	}
	const char **names = malloc(p->npieces * sizeof *names);
	if (!names) {
		free(rgb);
		return DRAW_ENOMEM;
	}
	for (size_t i = 0; i < p->npieces; i++)
		names[i] = p->pieces[i].name;
	bool apart = ga && ga->apart && ga->npieces;
	rc = draw_assembly_apart(lab, rgb, g->nx, g->ny, g->nz, names, p->npieces,
	                         p->name, apart ? ga->a.owner : NULL,
	                         apart ? (const int (*)[3])ga->apart : NULL,
	                         apart ? ga->npieces : 0, png, len);
	free(names);
	free(rgb);
	return rc;
}

/* solution.png of solution 'r' ('ga' as draw_answer()'s). */
static bool render_answer(struct outdir *od, const char *file,
                          const struct puzzle *p, const struct solve_result *r,
                          const struct guide_answer *ga)
{
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_answer(p, r->first, r->first_colours, ga, &png, &len);
	if (rc != DRAW_OK) {
		cli_error("%s: cannot draw the solution: %s", file, draw_strerror(rc));
		return false;
	}
	bool ok = outdir_write(od, "solution.png", png, len);
	free(png);
	return ok;
}

/* pieces.html and, given a solution 'r', solution.png and solution.html:
 * the pieces as print makes them (default unit and clearance, numbers
 * engraved), the solution's copies as page_answer_pick() puts them
 * together. A puzzle with a range of copies gets pieces.html only (every
 * copy it may use) beside its solution.png. */
static bool render_pages(struct outdir *od, const char *file,
                         const struct puzzle *p, const struct solve_result *r)
{
	bool fixed = true;
	size_t n = 0;
	for (size_t i = 0; i < p->npieces; i++) {
		n += puz_piece_max(&p->pieces[i]);
		fixed = fixed && puz_piece_max(&p->pieces[i]) == p->pieces[i].count;
	}
	struct copy *copies = calloc(n ? n : 1, sizeof *copies);
	if (!copies) {
		cli_error("render: out of memory");
		return false;
	}
	struct lowest_answer la = {0};
	struct guide_answer ga = {0};
	const struct page_answer *answer = NULL;
	bool ok = true;
	if (r && fixed) {
		ok = printcopies_solved("render", p, r->first, r->first_colours, copies,
		                        NULL, &la) == CLI_OK;
		if (ok && !page_answer_pick(&la, n, p, PAGES_DIS_NODES,
		                            PRINT_DEFAULT_UNIT, &ga, &answer)) {
			cli_error("render: out of memory");
			ok = false;
		}
	} else {
		for (size_t i = 0, at = 0; i < p->npieces && ok; i++)
			for (unsigned k = 0; k < puz_piece_max(&p->pieces[i]) && ok; k++)
				ok = copy_of_shape(&p->pieces[i].shape, &copies[at++]);
		if (!ok)
			cli_error("render: out of memory");
	}
	/* the exploded view from the disassembly the page shows, if any */
	bool guided = answer && answer == &ga.a;
	ok = ok && (!r || render_answer(od, file, p, r, guided ? &ga : NULL));
	struct mesh_size sz = {PRINT_DEFAULT_UNIT, PRINT_DEFAULT_UNIT,
	                       PRINT_DEFAULT_CLEARANCE};
	const char *base = strrchr(file, '/');
	char what[PATH_MAX + 32];
	snprintf(what, sizeof what, "cubegen render %s", base ? base + 1 : file);
	ok = ok && printcopies_write(od, p, copies, n, &sz, true, what, NULL,
	                             answer, false);
	guide_answer_clear(&ga);
	lowest_answer_clear(&la);
	copies_free(copies, n);
	free(copies);
	return ok;
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
	rrc = cli_pieces_solid(file, &p);
	if (rrc != CLI_OK) {
		puz_clear(&p);
		return rrc;
	}
	char defout[PATH_MAX];
	if (!out) {
		cli_default_out("render", file, ra.problem, defout, sizeof defout);
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
	struct solve_result r;
	rc = pages_solution(&p, 0, &r);
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", file, solve_strerror(rc));
		goto done;
	}
	bool solved = r.first != NULL;
	ok = render_pages(&od, file, &p, solved ? &r : NULL);
	solve_result_clear(&r);
	if (!ok)
		goto done;
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
	printf("wrote: %.*s/pieces.png\nwrote: %.*s/pieces.html\n",
	       cli_dirlen(out), out, cli_dirlen(out), out);
	if (solved)
		printf("wrote: %.*s/solution.png\nwrote: %.*s/solution.html\n",
		       cli_dirlen(out), out, cli_dirlen(out), out);
	else
		printf("no solution to draw: the puzzle has none\n");
	code = CLI_OK;
done:
	if (code != CLI_OK)
		outdir_abort(&od);
	puz_clear(&p);
	return code;
}
