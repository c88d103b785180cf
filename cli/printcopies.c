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
                       const struct page_answer *answer)
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
		ok = printfiles_write(od, s, rgb, ncopies, sz, what, answer);
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
