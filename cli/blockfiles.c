/*
 * blockfiles.c: the files 'generate --kind blocks' writes for one block
 * puzzle: puzzle.puz, puzzle.xmpuzzle (with the solution and how it comes
 * apart, for BurrTools), the pieces (printcopies.h), preview.png,
 * solution.png and solution.txt, the assembly guide.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/blocksjob.h"
#include "cli/outputs.h"
#include "cli/printcopies.h"
#include "draw/draw.h"
#include "formats/puz.h"
#include "solver/solve.h"

/* puzzle.puz, and puzzle.xmpuzzle with its solution and separation: the
 * solver finds them again on the written puzzle, as 'convert --solutions
 * --disassemble' would. */
static bool write_puzzle_files(struct outdir *od, const struct puzzle *p)
{
	char why[160];
	if (!xmp_writable(p, true, why, sizeof why)) {
		cli_error("puzzle.xmpuzzle: %s", why);
		return false;
	}
	struct xmp_solutions s = {0};
	int rc = xmp_find_solutions(p, 0, true, NULL, NULL, &s);
	if (rc != SOLVE_OK) {
		cli_error("puzzle.xmpuzzle: %s", solve_strerror(rc));
		return false;
	}
	bool ok = outputs_puzzle_files(od, p, &s);
	xmp_solutions_clear(&s);
	return ok;
}

/* The finished shape, layer by layer, each seen from above. */
static void write_layers(FILE *fp, const struct puzzle *p,
                         const unsigned char *answer)
{
	const struct grid *g = &p->goal;
	size_t total = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	bool hollow = false;
	for (size_t i = 0; i < total && !hollow; i++)
		hollow = g->cells[i] && !answer[i];
	fprintf(fp, "The finished shape, layer by layer from the bottom, each seen "
	        "from above\n(the front at the bottom of each map; . is no "
	        "cell%s):\n", hollow ? ", o a hollow\ninside, left empty" : "");
	for (int z = 0; z < g->nz; z++) {
		fprintf(fp, "\nlayer %d%s\n", z + 1, z == 0 ? " (bottom)" :
		        z == g->nz - 1 ? " (top)" : "");
		for (int y = g->ny - 1; y >= 0; y--) {
			for (int x = 0; x < g->nx; x++) {
				int k = answer[puz_grid_index(g, x, y, z)];
				if (k)
					fprintf(fp, "%3d", k);
				else if (g->cells[puz_grid_index(g, x, y, z)])
					fprintf(fp, "  o");
				else
					fprintf(fp, "  .");
			}
			fputc('\n', fp);
		}
	}
}

/* The disassembly reversed, one step a line; false when out of memory. */
static bool write_steps(FILE *fp, const struct blk_puzzle *b)
{
	const struct dis_result *d = &b->dis;
	char level[DIS_LEVEL_TEXT];
	blocks_level_text(d, level, sizeof level);
	fprintf(fp, "\nHow it goes together: the way the solver takes it apart "
	        "(level %s),\nreversed. Hold it with the front toward you; a group "
	        "of pieces that\nmoves together was put together first.\n\n",
	        level);
	struct guide_step *st = malloc((b->npieces + d->nmoves) * sizeof *st);
	if (!st)
		return false;
	size_t n = guide_steps(d, b->npieces, st);
	for (size_t i = 0; i < n; i++)
		fprintf(fp, "%3zu. %s\n", i + 1, st[i].text);
	free(st);
	return true;
}

static bool write_answer(struct outdir *od, const struct blk_puzzle *b,
                         const char *title)
{
	FILE *fp = outdir_fopen(od, "solution.txt");
	if (!fp)
		return false;
	fprintf(fp, "%s: the answer\n\n", title);
	write_layers(fp, &b->puz, b->answer);
	if (!write_steps(fp, b)) {
		cli_error("generate: out of memory");
		fclose(fp);
		return false;
	}
	if (ferror(fp)) {
		cli_error("%s/solution.txt: cannot write: %s", od->target,
		          strerror(errno));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, "solution.txt");
}

/* The steps of solution.txt as pictures: the pieces that stay first, then
 * each group as it goes in, in place. */
static bool write_steps_png(struct outdir *od, const struct blk_puzzle *b,
                            const char *title)
{
	const struct dis_result *d = &b->dis;
	size_t max = d->nmoves + 1, n = 0;
	uint64_t *shown = calloc(max, sizeof *shown);
	char (*text)[40] = calloc(max, sizeof *text);
	const char **captions = calloc(max, sizeof *captions);
	if (!shown || !text || !captions) {
		free(shown);
		free(text);
		free(captions);
		cli_error("generate: out of memory");
		return false;
	}
	uint64_t moved = 0;
	for (size_t i = 0; i < d->nmoves; i++)
		if (d->moves[i].dist == 0)
			moved |= d->moves[i].group;
	uint64_t all = b->npieces == 64 ? ~(uint64_t)0
	                                : ((uint64_t)1 << b->npieces) - 1;
	shown[0] = all & ~moved;
	size_t at = (size_t)snprintf(text[0], sizeof text[0], "1. piece");
	for (size_t k = 0; k < b->npieces && at < sizeof text[0]; k++)
		if (shown[0] >> k & 1)
			at += (size_t)snprintf(text[0] + at, sizeof text[0] - at, " %zu",
			                       k + 1);
	n = 1;
	for (size_t i = d->nmoves; i-- > 0;) {
		const struct dis_move *m = &d->moves[i];
		if (m->dist != 0)
			continue;
		shown[n] = shown[n - 1] | m->group;
		at = (size_t)snprintf(text[n], sizeof text[n], "%zu. %s", n + 1,
		                      m->group & (m->group - 1) ? "pieces" : "piece");
		const char *sep = " ";
		for (size_t k = 0; k < b->npieces && at < sizeof text[n]; k++)
			if (m->group >> k & 1) {
				at += (size_t)snprintf(text[n] + at, sizeof text[n] - at,
				                       "%s%zu", sep, k + 1);
				sep = "+";
			}
		if (at < sizeof text[n])
			snprintf(text[n] + at, sizeof text[n] - at, " (%s)",
			         guide_side_name(m->dir));
		n++;
	}
	for (size_t i = 0; i < n; i++)
		captions[i] = text[i];
	const struct grid *g = &b->puz.goal;
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_steps(b->answer, g->nx, g->ny, g->nz, b->npieces, shown,
	                    captions, n, title, &png, &len);
	free(shown);
	free(text);
	free(captions);
	return outputs_png(od, "solution.png", rc, png, len);
}

/* preview.png (the pieces as drawn) and solution.png (the steps). */
static bool write_pictures(struct outdir *od, const struct blk_puzzle *b,
                           const char *title)
{
	const struct puzzle *p = &b->puz;
	size_t k = p->npieces;
	const unsigned char **cells = malloc(k * sizeof *cells);
	int (*dims)[3] = malloc(k * sizeof *dims);
	const char **names = malloc(k * sizeof *names);
	bool ok = cells && dims && names;
	if (!ok)
		cli_error("generate: out of memory");
	for (size_t i = 0; i < k && ok; i++) {
		const struct grid *s = &p->pieces[i].shape;
		cells[i] = s->cells;
		dims[i][0] = s->nx;
		dims[i][1] = s->ny;
		dims[i][2] = s->nz;
		names[i] = p->pieces[i].name;
	}
	char t[PUZ_MAX_TITLE + 32];
	unsigned char *png = NULL;
	size_t len = 0;
	if (ok) {
		snprintf(t, sizeof t, "%s: the pieces", title);
		int rc = draw_pieces(cells, (const int (*)[3])dims, k, names, t, &png,
		                     &len);
		ok = outputs_png(od, "preview.png", rc, png, len);
	}
	if (ok) {
		snprintf(t, sizeof t, "%s: answer", title);
		ok = write_steps_png(od, b, t);
	}
	free(cells);
	free(dims);
	free(names);
	return ok;
}

static bool write_pieces(struct outdir *od, const struct blk_puzzle *b,
                         const struct output_opts *o, const char *title)
{
	const struct puzzle *p = &b->puz;
	struct copy *copies = calloc(p->npieces, sizeof *copies);
	size_t *over = calloc(p->npieces, sizeof *over);
	bool ok = copies && over;
	for (size_t i = 0; i < p->npieces && ok; i++)
		ok = copy_of_shape(&p->pieces[i].shape, &copies[i]);
	if (!ok)
		cli_error("generate: out of memory");
	struct mesh_size sz = {o->unit, o->unit, o->clearance};
	struct guide_answer ga = {0};
	const struct grid *g = &p->goal;
	if (ok && !guide_answer_init(&ga, &b->dis, b->npieces, b->answer,
	                             (const int[3]){g->nx, g->ny, g->nz}, sz.unit)) {
		cli_error("generate: out of memory");
		ok = false;
	}
	char head[PUZ_MAX_TITLE + 64];
	snprintf(head, sizeof head, "%s: number engraved -> piece in puzzle.puz",
	         title);
	ok = ok && printcopies_write(od, p, copies, p->npieces, &sz, o->labels,
	                             title, over, &ga.a, true) &&
	     printcopies_index(od, head, p, over);
	guide_answer_clear(&ga);
	copies_free(copies, p->npieces);
	free(copies);
	free(over);
	return ok;
}

bool outputs_write_blocks(struct outdir *od, const struct blk_puzzle *b,
                          const struct output_opts *o)
{
	const char *title = b->puz.name;
	return write_puzzle_files(od, &b->puz) &&
	       write_answer(od, b, title) && write_pieces(od, b, o, title) &&
	       write_pictures(od, b, title);
}
