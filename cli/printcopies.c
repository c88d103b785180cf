/*
 * printcopies.c: copies of pieces turned flat and written as printable
 * files (printcopies.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/printcopies.h"
#include "cli/printfiles.h"
#include "draw/draw.h"
#include "solver/poly.h"


/* A copy's colours from 'n' cell colours 'c', as struct copy keeps them:
 * NULL when all are plain. false when out of memory. */
bool copy_colours(struct copy *c, const unsigned char *col, size_t n)
{
	c->colour = NULL;
	size_t j = 0;
	while (j < n && col[j] == 0)
		j++;
	if (j == n)
		return true;
	if (!(c->colour = malloc(n)))
		return false;
	memcpy(c->colour, col, n);
	return true;
}

/* Where the three axes go under symmetry s: axis a to axis to[a]. */
static void sym_axes(int s, int to[3])
{
	for (int a = 0; a < 3; a++) {
		int e[3] = {0, 0, 0}, f[3];
		e[a] = 1;
		poly_sym_apply(s, e, f);
		to[a] = f[0] ? 0 : f[1] ? 1 : 2;
	}
}

/* The copy turned by s and moved to the origin: cells into out[], the
 * box into dims; returns nothing (the caller sized out[]). */
static void turn(const struct copy *c, int s, int (*out)[3], int dims[3])
{
	int lo[3] = {1 << 20, 1 << 20, 1 << 20}, hi[3] = {-(1 << 20), -(1 << 20), -(1 << 20)};
	for (size_t i = 0; i < c->n; i++) {
		poly_sym_apply(s, c->cell[i], out[i]);
		for (int a = 0; a < 3; a++) {
			lo[a] = out[i][a] < lo[a] ? out[i][a] : lo[a];
			hi[a] = out[i][a] > hi[a] ? out[i][a] : hi[a];
		}
	}
	for (size_t i = 0; i < c->n; i++)
		for (int a = 0; a < 3; a++)
			out[i][a] -= lo[a];
	for (int a = 0; a < 3; a++)
		dims[a] = hi[a] - lo[a] + 1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The overhanging cells of 'n' cells lying as they are (z = 0 the bed);
 * 'packed' is room for n cells. */
static size_t overhangs(const int (*cells)[3], size_t n, uint32_t *packed)
{
	for (size_t i = 0; i < n; i++)
		packed[i] = poly_pack(cells[i][0], cells[i][1], cells[i][2]);
	qsort(packed, n, sizeof *packed, cmp_u32);
	struct shape sh = {n, packed};
	return poly_overhangs(&sh);
}

/* The print orientation of a copy (see printcopies.h), its overhanging
 * cells into '*over'. */
static int flat_rotation(const struct copy *c, int (*tmp)[3], uint32_t *packed,
                         size_t *over)
{
	int best = -1;
	long key[4] = {0, 0, 0, 0};
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		int dims[3];
		turn(c, s, tmp, dims);
		long bottom = 0, top = 0;
		for (size_t i = 0; i < c->n; i++) {
			bottom += tmp[i][2] == 0;
			top += tmp[i][2] == dims[2] - 1;
		}
		size_t o = overhangs((const int (*)[3])tmp, c->n, packed);
		long k[4] = {-(long)o, bottom, -dims[2], top};
		int better = best < 0;
		for (int j = 0; j < 4 && !better; j++) {
			if (k[j] != key[j]) {
				better = k[j] > key[j];
				break;
			}
		}
		if (better) {
			best = s;
			*over = o;
			memcpy(key, k, sizeof key);
		}
	}
	return best;
}

/* Storage of one printed piece: its cells, its wall flags and, for a
 * copy with coloured cells, its cells' display colours. */
struct printed {
	unsigned char *cells;
	unsigned char *wall[3];
	uint32_t *rgb;
	char label[24];
	size_t overhang; /* cells that need support, as printed */
};

/* Turn copy c, printed as number 'k', flat into spec *s (buffers in *pr,
 * pr->rgb only for a coloured copy: plain cells in draw_colour(k)).
 * false when out of memory. */
static bool make_spec(const struct puzzle *p, const struct copy *c, size_t k,
                      struct printed *pr, struct mesh_spec *s)
{
	int (*tmp)[3] = malloc(c->n * sizeof *tmp);
	uint32_t *packed = malloc(c->n * sizeof *packed);
	if (!tmp || !packed) {
		free(tmp);
		free(packed);
		return false;
	}
	int r = flat_rotation(c, tmp, packed, &pr->overhang);
	free(packed);
	int dims[3], to[3];
	turn(c, r, tmp, dims);
	sym_axes(r, to);
	size_t total = (size_t)dims[0] * dims[1] * dims[2];
	pr->cells = calloc(total, 1);
	bool ok = pr->cells != NULL;
	for (int a = 0; a < 3 && ok && c->flag[0]; a++)
		ok = (pr->wall[a] = calloc((size_t)dims[a], 1)) != NULL;
	if (ok && c->colour)
		ok = (pr->rgb = calloc(total, sizeof *pr->rgb)) != NULL;
	if (ok) {
		/* as printfiles.c colours piece k */
		uint32_t plain = draw_colour((int)((k - 1) % DRAW_MAX_PIECES) + 1);
		for (size_t i = 0; i < c->n; i++) {
			const int *d = tmp[i];
			size_t at = (size_t)d[0] + (size_t)dims[0] * ((size_t)d[1] + (size_t)dims[1] * d[2]);
			pr->cells[at] = 1;
			if (pr->rgb)
				pr->rgb[at] = c->colour[i] ? puz_colour_rgb(p, c->colour[i])
				                           : plain;
			/* original axis a became axis to[a] */
			for (int a = 0; a < 3 && c->flag[0]; a++)
				pr->wall[to[a]][d[to[a]]] = c->flag[a][c->cell[i][a]];
		}
		*s = (struct mesh_spec){
			.cells = pr->cells, .dims = {dims[0], dims[1], dims[2]},
			.wall = {pr->wall[0], pr->wall[1], pr->wall[2]}};
	}
	free(tmp);
	return ok;
}

/* The cells of shape 'g' as a copy (no walls), with their colours. */
bool copy_of_shape(const struct grid *g, struct copy *c)
{
	size_t n = puz_grid_volume(g), k = 0;
	c->cell = malloc(n * sizeof *c->cell);
	unsigned char *col = malloc(n ? n : 1);
	if (!c->cell || !col) {
		free(col);
		return false;
	}
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++) {
				unsigned char v = g->cells[puz_grid_index(g, x, y, z)];
				if (!v)
					continue;
				c->cell[k][0] = x;
				c->cell[k][1] = y;
				c->cell[k][2] = z;
				col[k] = (unsigned char)puz_cell_colour(v);
				k++;
			}
	c->n = n;
	c->flag[0] = c->flag[1] = c->flag[2] = NULL;
	bool ok = copy_colours(c, col, n);
	free(col);
	return ok;
}

void copies_free(struct copy *copies, size_t n)
{
	for (size_t i = 0; copies && i < n; i++) {
		free(copies[i].cell);
		free(copies[i].colour);
	}
}

bool printcopies_write(struct outdir *od, const struct puzzle *p,
                       const struct copy *copies, size_t ncopies,
                       const struct mesh_size *sz, bool labels,
                       const char *what, size_t *overhang,
                       const struct page_answer *answer, bool printables)
{
	struct printed *pr = calloc(ncopies, sizeof *pr);
	struct mesh_spec *s = calloc(ncopies, sizeof *s);
	const uint32_t **rgb = NULL; /* only when some copy has colours */
	bool ok = pr && s;
	for (size_t i = 0; i < ncopies && ok; i++) {
		ok = make_spec(p, &copies[i], i + 1, &pr[i], &s[i]);
		snprintf(pr[i].label, sizeof pr[i].label, "%zu", i + 1);
		s[i].label = labels ? pr[i].label : NULL;
		if (ok && pr[i].rgb && !rgb)
			ok = (rgb = calloc(ncopies, sizeof *rgb)) != NULL;
		if (ok && pr[i].rgb)
			rgb[i] = pr[i].rgb;
		if (ok && overhang)
			overhang[i] = pr[i].overhang;
	}
	if (!ok)
		cli_error("print: out of memory");
	else
		ok = printfiles_write(od, s, rgb, ncopies, sz, what, answer, printables);
	for (size_t i = 0; pr && i < ncopies; i++) {
		free(pr[i].cells);
		free(pr[i].rgb);
		for (int a = 0; a < 3; a++)
			free(pr[i].wall[a]);
	}
	free(pr);
	free(s);
	free(rgb);
	return ok;
}

/* Whether a piece cell of colour 'tag' may be the one on goal cell 'i':
 * the colour the solver put there ('want', NULL when it does not say),
 * else any the goal's colour there matches. */
static bool colour_fits(const struct puzzle *p, const unsigned char *want,
                        size_t i, int tag)
{
	if (want)
		return want[i] == tag;
	return puz_match(p, tag, puz_cell_colour(p->goal.cells[i]));
}

/*
 * Split 'left' (goal cells, 1 = still to cover) into copies of 'o' (the
 * piece's orientations, their cells tagged with their colours): the
 * lowest cell left (z, y, x order) must be the lowest cell of the copy
 * covering it, so each step tries every orientation anchored there whose
 * colours fit (colour_fits()), and backtracks when the rest cannot be
 * split. The solver put exactly 'k' copies there, so a split exists.
 * Fills out[0..k-1] (cells and colours malloc'ed) and returns true, or
 * false.
 */
static bool split(const struct puzzle *p, const unsigned char *want,
                  unsigned char *left, const struct shape *o, size_t no,
                  unsigned k, struct copy *out, bool *oom)
{
	if (k == 0)
		return true;
	const struct grid *goal = &p->goal;
	size_t total = (size_t)goal->nx * goal->ny * goal->nz, at = 0;
	while (at < total && !left[at])
		at++;
	if (at == total)
		return false;
	int ax = (int)(at % (size_t)goal->nx);
	int ay = (int)(at / (size_t)goal->nx % (size_t)goal->ny);
	int az = (int)(at / ((size_t)goal->nx * goal->ny));
	for (size_t r = 0; r < no && !*oom; r++) {
		const struct shape *s = &o[r];
		/* cells sorted by z, y, x: cells[0] is the lowest */
		int dx = ax - poly_x(s->cells[0]), dy = ay - poly_y(s->cells[0]),
		    dz = az - poly_z(s->cells[0]);
		bool fits = true;
		for (size_t i = 0; i < s->n && fits; i++) {
			int x = poly_x(s->cells[i]) + dx, y = poly_y(s->cells[i]) + dy,
			    z = poly_z(s->cells[i]) + dz;
			fits = x >= 0 && y >= 0 && z >= 0 && x < goal->nx &&
			       y < goal->ny && z < goal->nz &&
			       left[puz_grid_index(goal, x, y, z)] &&
			       colour_fits(p, want, puz_grid_index(goal, x, y, z),
			                   poly_tag(s->cells[i]));
		}
		if (!fits)
			continue;
		int (*cells)[3] = malloc(s->n * sizeof *cells);
		unsigned char *col = malloc(s->n);
		if (!cells || !col) {
			free(cells);
			free(col);
			*oom = true;
			return false;
		}
		for (size_t i = 0; i < s->n; i++) {
			cells[i][0] = poly_x(s->cells[i]) + dx;
			cells[i][1] = poly_y(s->cells[i]) + dy;
			cells[i][2] = poly_z(s->cells[i]) + dz;
			col[i] = (unsigned char)poly_tag(s->cells[i]);
			left[puz_grid_index(goal, cells[i][0], cells[i][1], cells[i][2])] = 0;
		}
		out[0] = (struct copy){.n = s->n, .cell = cells};
		bool ok = copy_colours(&out[0], col, s->n);
		free(col);
		if (!ok) {
			free(cells);
			out[0].cell = NULL;
			*oom = true;
			return false;
		}
		if (split(p, want, left, o, no, k - 1, out + 1, oom))
			return true;
		for (size_t i = 0; i < s->n; i++)
			left[puz_grid_index(goal, cells[i][0], cells[i][1], cells[i][2])] = 1;
		free(cells);
		free(out[0].colour);
		out[0] = (struct copy){0};
		if (*oom)
			return false;
	}
	return false;
}

int printcopies_solved(const char *cmd, const struct puzzle *p,
                       const unsigned char *lab, const unsigned char *colours,
                       struct copy *copies, const unsigned char *const flags[3],
                       struct lowest_answer *answer)
{
	const struct grid *g = &p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz, at = 0;
	unsigned char *left = malloc(total);
	bool oom = left == NULL;
	if (answer && !oom) {
		*answer = (struct lowest_answer){.owner = calloc(total, 1)};
		oom = answer->owner == NULL;
	}
	for (size_t i = 0; i < p->npieces && !oom; i++) {
		for (size_t c = 0; c < total; c++)
			left[c] = lab[c] == i + 1;
		struct shape sh, *o = NULL;
		size_t no = 0;
		if (poly_from_grid(&p->pieces[i].shape, &sh) != POLY_OK) {
			oom = true;
			break;
		}
		if (poly_orientations(&sh, &o, &no) != POLY_OK)
			oom = true;
		poly_shape_clear(&sh);
		if (!oom && !split(p, colours, left, o, no, p->pieces[i].count,
		                   copies + at, &oom) && !oom) {
			cli_error("%s: internal error: piece %s does not split into its "
			          "copies in the solution found", cmd, p->pieces[i].name);
			poly_shapes_free(o, no);
			free(left);
			return CLI_FAIL;
		}
		poly_shapes_free(o, no);
		for (unsigned k = 0; k < p->pieces[i].count && !oom; k++) {
			struct copy *cp = &copies[at + k];
			for (int a = 0; a < 3; a++)
				cp->flag[a] = flags ? flags[a] : NULL;
			for (size_t c = 0; answer && c < cp->n; c++)
				answer->owner[puz_grid_index(g, cp->cell[c][0], cp->cell[c][1],
				                             cp->cell[c][2])] = (unsigned char)(at + k + 1);
		}
		at += p->pieces[i].count;
	}
	free(left);
	if (!oom && answer) {
		const char **names = malloc(at * sizeof *names);
		oom = names == NULL;
		for (size_t i = 0, c = 0; !oom && i < p->npieces; i++)
			for (unsigned k = 0; k < p->pieces[i].count; k++)
				names[c++] = p->pieces[i].name;
		oom = oom || !lowest_answer_steps(answer, g, at, names);
		free(names);
		/* the goal's wall layers, where the copies have theirs */
		for (int a = 0; a < 3; a++)
			answer->a.wall[a] = flags ? flags[a] : NULL;
	}
	if (oom) {
		cli_error("%s: out of memory", cmd);
		return CLI_FAIL;
	}
	return CLI_OK;
}

bool printcopies_index(struct outdir *od, const char *head,
                       const struct puzzle *p, const size_t *overhang)
{
	FILE *fp = outdir_fopen(od, "pieces.txt");
	if (!fp)
		return false;
	fprintf(fp, "# %s\n# a piece followed by 'support N' needs support under "
	        "N overhanging cells\n", head);
	size_t k = 0, need = 0;
	for (size_t i = 0; i < p->npieces; i++)
		for (unsigned c = 0; c < puz_piece_max(&p->pieces[i]); c++, k++) {
			fprintf(fp, "%zu %s", k + 1, p->pieces[i].name);
			if (overhang[k]) {
				fprintf(fp, " support %zu", overhang[k]);
				need++;
			}
			fputc('\n', fp);
		}
	if (need)
		fprintf(fp, "# pieces that need support: %zu of %zu\n", need, k);
	else
		fprintf(fp, "# every piece prints without support\n");
	return outdir_fclose(od, fp, "pieces.txt");
}
