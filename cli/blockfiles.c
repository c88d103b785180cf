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

/* Axis names of the guide: as the box is held (gen.h), +x right, +y
 * away from you, +z up. */
static const char *const dir_name[6] = {"to the right", "to the left",
                                        "away from you", "toward you", "up",
                                        "down"};
static const char *const side_name[6] = {"right", "left", "back", "front",
                                         "top", "bottom"};

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
	int rc = xmp_find_solutions(p, 0, true, &s);
	if (rc != SOLVE_OK) {
		cli_error("puzzle.xmpuzzle: %s", solve_strerror(rc));
		return false;
	}
	bool ok = outputs_puzzle_files(od, p, &s);
	xmp_solutions_clear(&s);
	return ok;
}

/* "pieces 3, 5 and 7" or "piece 4" ("Piece 4" with 'cap'). */
static void group_text(uint64_t g, bool cap, char *buf, size_t len)
{
	int n = 0, total = 0;
	for (int i = 0; i < 64; i++)
		total += (int)(g >> i & 1);
	size_t at = (size_t)snprintf(buf, len, "%s%s", cap ? "P" : "p",
	                             total == 1 ? "iece" : "ieces");
	for (int i = 0; i < 64 && at < len; i++)
		if (g >> i & 1) {
			n++;
			at += (size_t)snprintf(buf + at, len - at, "%s%d",
			                       n == 1 ? " " : n == total ? " and " : ", ",
			                       i + 1);
		}
}

/* The finished shape, layer by layer, each seen from above. */
static void write_layers(FILE *fp, const struct puzzle *p,
                         const unsigned char *answer)
{
	const struct grid *g = &p->goal;
	fprintf(fp, "The finished shape, layer by layer from the bottom, each seen "
	        "from above\n(the front at the bottom of each map; . is no "
	        "cell):\n");
	for (int z = 0; z < g->nz; z++) {
		fprintf(fp, "\nlayer %d%s\n", z + 1, z == 0 ? " (bottom)" :
		        z == g->nz - 1 ? " (top)" : "");
		for (int y = g->ny - 1; y >= 0; y--) {
			for (int x = 0; x < g->nx; x++) {
				int k = answer[puz_grid_index(g, x, y, z)];
				if (k)
					fprintf(fp, "%3d", k);
				else
					fprintf(fp, "  .");
			}
			fputc('\n', fp);
		}
	}
}

/* One step of the assembly guide: the disassembly reversed. A start
 * step puts 'group' (one piece) down; a move brings 'group' in from the
 * side 'dir' points to (dist 0), or slides it dist cells against 'dir'. */
struct bstep {
	char text[480];
	uint64_t group;
	int dir, dist;
	bool start;
};

/* The steps of 'b' into st (room for npieces + nmoves); their count. */
static size_t block_steps(const struct blk_puzzle *b, struct bstep *st)
{
	const struct dis_result *d = &b->dis;
	/* the piece no separation removes stays where it is */
	uint64_t moved = 0;
	for (size_t i = 0; i < d->nmoves; i++)
		if (d->moves[i].dist == 0)
			moved |= d->moves[i].group;
	size_t n = 0;
	for (size_t k = 0; k < b->npieces; k++)
		if (!(moved >> k & 1)) {
			st[n] = (struct bstep){.group = (uint64_t)1 << k, .start = true};
			snprintf(st[n++].text, sizeof st->text, "Start with piece %zu.", k + 1);
		}
	for (size_t i = d->nmoves; i-- > 0;) {
		const struct dis_move *m = &d->moves[i];
		char who[400];
		int back = m->dir ^ 1; /* the reverse of the move */
		st[n] = (struct bstep){.group = m->group, .dir = m->dir, .dist = m->dist};
		if (m->dist == 0) {
			group_text(m->group, true, who, sizeof who);
			snprintf(st[n].text, sizeof st->text, "%s go%s in from the %s, moving %s.",
			         who, strncmp(who, "Pieces", 6) ? "es" : "",
			         side_name[m->dir], dir_name[back]);
		} else {
			group_text(m->group, false, who, sizeof who);
			snprintf(st[n].text, sizeof st->text, "Slide %s %d cell%s %s.", who,
			         m->dist, m->dist == 1 ? "" : "s", dir_name[back]);
		}
		n++;
	}
	return n;
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
	struct bstep *st = malloc((b->npieces + d->nmoves) * sizeof *st);
	if (!st)
		return false;
	size_t n = block_steps(b, st);
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
			         side_name[m->dir]);
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

/* solution.html's answer: the pieces where b->answer has them, and the
 * steps of solution.txt, each group coming in from its side (or sliding
 * its cells). Owns its arrays (block_answer_free()). */
struct block_answer {
	struct page_answer a;
	struct bstep *st;
	struct mesh_page_step *step;
	size_t *shown; /* per step, the pieces shown: (step + 1) * npieces */
	size_t *moving;
};

static void block_answer_free(struct block_answer *ba)
{
	free(ba->st);
	free(ba->step);
	free(ba->shown);
	free(ba->moving);
}

static bool block_answer(const struct blk_puzzle *b, const struct mesh_size *sz,
                         struct block_answer *ba)
{
	const struct grid *g = &b->puz.goal;
	size_t np = b->npieces, max = np + b->dis.nmoves;
	*ba = (struct block_answer){
		.st = malloc(max * sizeof *ba->st),
		.step = calloc(max, sizeof *ba->step),
		.shown = malloc(max * np * sizeof *ba->shown),
		.moving = malloc(max * np * sizeof *ba->moving)};
	if (!ba->st || !ba->step || !ba->shown || !ba->moving) {
		block_answer_free(ba);
		return false;
	}
	size_t n = block_steps(b, ba->st);
	double far = 1.5 * sz->unit * (g->nx > g->ny ? (g->nx > g->nz ? g->nx : g->nz)
	                                             : (g->ny > g->nz ? g->ny : g->nz));
	uint64_t shown = 0;
	for (size_t k = 0; k < n; k++) {
		const struct bstep *t = &ba->st[k];
		struct mesh_page_step *ps = &ba->step[k];
		size_t *sh = ba->shown + k * np, *mv = ba->moving + k * np;
		shown |= t->group;
		ps->text = t->text;
		ps->show = sh;
		ps->moving = mv;
		for (size_t i = 0; i < np; i++) {
			if (shown >> i & 1)
				sh[ps->nshow++] = i;
			if (!t->start && t->group >> i & 1)
				mv[ps->nmoving++] = i;
		}
		if (!t->start) {
			/* dis dirs: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z */
			double d = t->dist ? t->dist * sz->unit : far;
			ps->from[t->dir / 2] = t->dir % 2 ? -d : d;
		}
	}
	ba->a = (struct page_answer){.owner = b->answer,
	                             .dim = {g->nx, g->ny, g->nz},
	                             .steps = ba->step, .nsteps = n};
	return true;
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
	struct block_answer ba = {0};
	if (ok && !block_answer(b, &sz, &ba)) {
		cli_error("generate: out of memory");
		ok = false;
	}
	char head[PUZ_MAX_TITLE + 64];
	snprintf(head, sizeof head, "%s: number engraved -> piece in puzzle.puz",
	         title);
	ok = ok && printcopies_write(od, p, copies, p->npieces, &sz, o->labels,
	                             title, over, &ba.a, true) &&
	     printcopies_index(od, head, p, over);
	block_answer_free(&ba);
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
