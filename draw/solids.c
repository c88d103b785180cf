/*
 * solids.c: the isometric pictures of draw.h for any polycube puzzle: its
 * pieces (draw_pieces), an assembled solution beside its exploded view
 * (draw_assembly) and the steps of putting it together (draw_steps).
 *
 * Workload: up to DRAW_MAX_PIECES pieces, or an assembly of up to
 * DRAW_MAX_N cells a side. Each picture takes the largest scale that fits
 * FIT_SIDE pixels, tried from the largest down (only sizes are worked out
 * per try); the exploded view tries up to five spreads of the pieces,
 * each a grid of at most EXPLODE_MAX_CELLS cells.
 */
#include "draw/draw_int.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIT_SIDE 1600    /* draw_pieces/draw_assembly aim to stay within */
#define UQ_PIECES 384    /* largest u for pieces and assemblies: 24 px */
#define NAME_H 40        /* name strip below a piece in draw_pieces */
#define LEGEND_ROW 26    /* one row of draw_assembly's legend */
#define LEGEND_CHARS 20  /* names in the legend are cut to this length */
/* The exploded view of draw_assembly may use up to this many cells. */
#define EXPLODE_MAX_CELLS ((size_t)1 << 24)

/* a / b rounded half away from zero, for b > 0. */
static int64_t rdiv(int64_t a, int64_t b)
{
	return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

/* ---- draw_pieces ------------------------------------------------------- */

struct pieces_layout {
	int cols, rows;     /* grid of slots */
	int maxh;           /* tallest piece, pixels */
	int sw, sh;         /* slot size */
	int w, h;           /* picture size */
};

static void pieces_layout(struct pieces_layout *l, int64_t uq,
                          const int (*dims)[3], size_t count, int th)
{
	int maxw = 0;
	l->maxh = 0;
	for (size_t i = 0; i < count; i++) {
		int pw, ph;
		dr_iso_size(uq, dims[i][0], dims[i][1], dims[i][2], &pw, &ph);
		maxw = imax(maxw, pw);
		l->maxh = imax(l->maxh, ph);
	}
	l->sw = imax(maxw + 2 * DRAW_MARGIN, 160);
	l->sh = l->maxh + NAME_H + DRAW_MARGIN;
	l->w = l->cols * l->sw;
	l->h = th + l->rows * l->sh + DRAW_MARGIN;
}

int draw_pieces(const unsigned char *const *shapes, const int (*dims)[3],
                size_t count, const char *const *names, const char *title,
                unsigned char **png, size_t *len)
{
	return draw_pieces_coloured(shapes, dims, count, NULL, names, title, png,
	                            len);
}

int draw_pieces_coloured(const unsigned char *const *shapes,
                         const int (*dims)[3], size_t count,
                         const uint32_t *const *rgb, const char *const *names,
                         const char *title, unsigned char **png, size_t *len)
{
	assert(shapes != NULL && dims != NULL && png != NULL && len != NULL);
	assert(count >= 1 && count <= DRAW_MAX_PIECES);
	for (size_t i = 0; i < count; i++) {
		assert(shapes[i] != NULL && (names == NULL || names[i] != NULL));
		for (int a = 0; a < 3; a++)
			assert(dims[i][a] >= 1 && dims[i][a] <= DRAW_MAX_N);
	}

	struct pieces_layout l;
	int th = dr_title_height(title);
	l.cols = 1;
	while ((size_t)l.cols * (size_t)l.cols < count)
		l.cols++;
	l.rows = (int)((count + (size_t)l.cols - 1) / (size_t)l.cols);

	/* The largest scale that fits FIT_SIDE; else the smallest, if that
	 * fits DRAW_MAX_SIDE. */
	int64_t uq = UQ_PIECES;
	for (; uq >= UQ_MIN; uq--) {
		pieces_layout(&l, uq, dims, count, th);
		if (l.w <= FIT_SIDE && l.h <= FIT_SIDE)
			break;
	}
	if (uq < UQ_MIN) {
		uq = UQ_MIN;
		pieces_layout(&l, uq, dims, count, th);
		if (l.w > DRAW_MAX_SIDE || l.h > DRAW_MAX_SIDE)
			return DRAW_ETOOBIG;
	}
	/* Only now read every cell: a refused picture should cost nothing. */
	for (size_t i = 0; i < count; i++) {
		size_t cells = (size_t)dims[i][0] * (size_t)dims[i][1] * (size_t)dims[i][2];
		for (size_t j = 0; j < cells; j++)
			assert(shapes[i][j] <= 1);
		(void)cells;
	}

	gdImagePtr im = dr_canvas(l.w, l.h);
	if (im == NULL)
		return DRAW_ENOMEM;
	dr_title_draw(im, l.w, title);
	for (size_t i = 0; i < count; i++) {
		int col = (int)(i % (size_t)l.cols), row = (int)(i / (size_t)l.cols);
		int sx = col * l.sw, sy = th + row * l.sh, pw, ph;
		struct shade sh[2];
		char buf[24];

		sh[1] = dr_shade_of(im, draw_colour((int)i + 1), uq);
		dr_iso_size(uq, dims[i][0], dims[i][1], dims[i][2], &pw, &ph);
		/* Bottom-aligned, so the names of a row line up. */
		struct iso v = dr_iso_place(uq, dims[i][1], dims[i][2],
		                            sx + (l.sw - pw) / 2, sy + l.maxh - ph);
		dr_iso_draw(im, &v, shapes[i], rgb ? rgb[i] : NULL, dims[i][0],
		            dims[i][1], dims[i][2], sh);
		/* The name at double size when it fits the slot. */
		snprintf(buf, sizeof buf, "%zu", i + 1);
		const char *name = names ? names[i] : buf;
		int scale = strlen(name) * 2 * FONT_W <= (size_t)(l.sw - 8) ? 2 : 1;
		dr_text_centred(im, sx + l.sw / 2,
		                sy + l.maxh + (NAME_H - FONT_H * scale) / 2 + 2, l.sw - 8,
		                scale, name, INK);
	}
	return dr_finish(im, png, len);
}

/* ---- draw_assembly ----------------------------------------------------- */

struct part {
	size_t cells;    /* cells of this piece; 0: not in the assembly */
	int64_t sum[3];  /* sum of 2*coordinate + 1 - side: centroid offset x 2cells */
};

/*
 * Lay the pieces of 'lab' into a fresh grid, each cell moved by
 * d[by[cell]] (by: lab itself, or a grid of parts); returns the grid
 * (dims in ed[3]) or NULL, with *status DRAW_ENOMEM when out of memory,
 * else DRAW_OK and *fit: 2 when no two pieces overlap or touch face to
 * face, 1 when they only touch, 0 when they overlap (the grid is then
 * freed and NULL returned). With 'rgb' the cells' colours move along into
 * a grid '*rgb_out' of the same size, freed with the grid.
 */
static unsigned char *explode_try(const unsigned char *lab,
                                  const unsigned char *by, const uint32_t *rgb,
                                  const int n[3], const int (*d)[3], int ed[3],
                                  int *fit, int *status, uint32_t **rgb_out)
{
	int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, first = 1;

	*status = DRAW_OK;
	*fit = 0;
	for (int z = 0; z < n[2]; z++)
		for (int y = 0; y < n[1]; y++)
			for (int x = 0; x < n[0]; x++) {
				size_t j = (size_t)x +
				           (size_t)n[0] * ((size_t)y + (size_t)n[1] * (size_t)z);
				if (lab[j] == 0)
					continue;
				const int *dj = d[by[j]], p[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					int v = p[a] + dj[a];
					lo[a] = first ? v : imin(lo[a], v);
					hi[a] = first ? v : imax(hi[a], v);
				}
				first = 0;
			}
	for (int a = 0; a < 3; a++)
		ed[a] = hi[a] - lo[a] + 1;
	size_t total = (size_t)ed[0] * (size_t)ed[1] * (size_t)ed[2];
	if (ed[0] > 4 * DRAW_MAX_N || ed[1] > 4 * DRAW_MAX_N ||
	    ed[2] > 4 * DRAW_MAX_N || total > EXPLODE_MAX_CELLS)
		return NULL; /* fit 0: never chosen */

	unsigned char *out = calloc(total, 1);
	uint32_t *moved = rgb ? calloc(total, sizeof *moved) : NULL;
	if (out == NULL || (rgb != NULL && moved == NULL)) {
		free(out);
		free(moved);
		*status = DRAW_ENOMEM;
		return NULL;
	}
	size_t sy = (size_t)ed[0], sz = sy * (size_t)ed[1];
	for (int z = 0; z < n[2]; z++)
		for (int y = 0; y < n[1]; y++)
			for (int x = 0; x < n[0]; x++) {
				size_t i = (size_t)x +
				           (size_t)n[0] * ((size_t)y + (size_t)n[1] * (size_t)z);
				int k = lab[i];
				if (k == 0)
					continue;
				const int *dj = d[by[i]];
				size_t j = (size_t)(x + dj[0] - lo[0]) +
				           sy * (size_t)(y + dj[1] - lo[1]) +
				           sz * (size_t)(z + dj[2] - lo[2]);
				if (out[j] != 0) {
					free(out);
					free(moved);
					return NULL;
				}
				out[j] = (unsigned char)k;
				if (moved != NULL)
					moved[j] = rgb[i];
			}
	*rgb_out = moved;
	*fit = 2;
	for (int z = 0; z < ed[2]; z++)
		for (int y = 0; y < ed[1]; y++)
			for (int x = 0; x < ed[0]; x++) {
				size_t j = (size_t)x + sy * (size_t)y + sz * (size_t)z;
				int k = out[j];
				if (k == 0)
					continue;
				if ((x + 1 < ed[0] && out[j + 1] && out[j + 1] != k) ||
				    (y + 1 < ed[1] && out[j + sy] && out[j + sy] != k) ||
				    (z + 1 < ed[2] && out[j + sz] && out[j + sz] != k))
					*fit = 1;
			}
	return out;
}

/* The parts of draw_assembly_apart()'s second way to explode. */
struct apart {
	const unsigned char *part; /* NULL: none */
	const int (*shift)[3];
	size_t nparts;
};

/*
 * The exploded view: each piece moves by f times its centroid's offset
 * from the box centre (rounded to whole cells), for the smallest f of
 * 1, 1.5, 2, 3, 4 that leaves no two pieces touching; failing that
 * (interlocked pieces) the parts of 'ap' moved by their shifts, when no
 * two of their cells meet; failing that the smallest f with no overlap;
 * failing that the assembly itself. Returns the grid, dims in ed, or NULL
 * when out of memory. With 'rgb' the colours move along into '*rgb_out'
 * (NULL without), which the caller frees.
 */
static unsigned char *explode(const unsigned char *lab, const uint32_t *rgb,
                              int nx, int ny, int nz, size_t np,
                              const struct apart *ap, int ed[3],
                              uint32_t **rgb_out)
{
	static const int factor4[] = {4, 6, 8, 12, 16}; /* f times 4 */
	struct part parts[DRAW_MAX_PIECES + 1];
	const int n[3] = {nx, ny, nz};
	unsigned char *best = NULL;
	uint32_t *best_rgb = NULL;
	int best_ed[3] = {0, 0, 0}, status;

	memset(parts, 0, sizeof parts);
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				int k = lab[x + nx * (y + ny * z)], p[3] = {x, y, z};
				if (k == 0)
					continue;
				struct part *q = &parts[k];
				for (int a = 0; a < 3; a++)
					q->sum[a] += 2 * p[a] + 1 - n[a];
				q->cells++;
			}

	int d[DRAW_MAX_PIECES + 1][3], best_fit = 0;
	memset(d, 0, sizeof d);
	for (size_t i = 0; i < sizeof factor4 / sizeof factor4[0]; i++) {
		int fit, try_ed[3];
		for (size_t k = 1; k <= np; k++)
			for (int a = 0; a < 3; a++)
				if (parts[k].cells)
					/* centroid offset = sum / (2 cells); times f4 / 4 */
					d[k][a] = (int)rdiv(factor4[i] * parts[k].sum[a],
					                    8 * (int64_t)parts[k].cells);
		uint32_t *g_rgb = NULL;
		unsigned char *g = explode_try(lab, lab, rgb, n, (const int (*)[3])d,
		                               try_ed, &fit, &status, &g_rgb);
		if (status != DRAW_OK) {
			free(best);
			free(best_rgb);
			return NULL;
		}
		if (g == NULL)
			continue;
		if (fit == 2 || best == NULL) {
			free(best);
			free(best_rgb);
			best = g;
			best_rgb = g_rgb;
			best_fit = fit;
			memcpy(best_ed, try_ed, sizeof best_ed);
			if (fit == 2)
				break;
		} else {
			free(g);
			free(g_rgb);
		}
	}
	if (best_fit < 2 && ap->part != NULL) {
		/* the parts where a disassembly leaves them (part 0: in place) */
		int (*sd)[3] = calloc(ap->nparts + 1, sizeof *sd);
		if (sd == NULL) {
			free(best);
			free(best_rgb);
			return NULL;
		}
		memcpy(sd + 1, ap->shift, ap->nparts * sizeof *sd);
		int fit, try_ed[3];
		uint32_t *g_rgb = NULL;
		unsigned char *g = explode_try(lab, ap->part, rgb, n,
		                               (const int (*)[3])sd, try_ed, &fit,
		                               &status, &g_rgb);
		free(sd);
		if (g != NULL || status != DRAW_OK) {
			free(best);
			free(best_rgb);
			best = g;
			best_rgb = g_rgb;
			memcpy(best_ed, try_ed, sizeof best_ed);
		}
		if (status != DRAW_OK)
			return NULL;
	}
	if (best == NULL) {
		size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
		best = malloc(total);
		if (best == NULL)
			return NULL;
		memcpy(best, lab, total);
		if (rgb != NULL) {
			best_rgb = malloc(total * sizeof *best_rgb);
			if (best_rgb == NULL) {
				free(best);
				return NULL;
			}
			memcpy(best_rgb, rgb, total * sizeof *best_rgb);
		}
		best_ed[0] = nx;
		best_ed[1] = ny;
		best_ed[2] = nz;
	}
	memcpy(ed, best_ed, sizeof best_ed);
	*rgb_out = best_rgb;
	return best;
}

struct assembly_layout {
	int aw, ah, ew, eh; /* the two views, pixels */
	int ew_entry;       /* legend entry width */
	int lcols, lrows;   /* legend grid */
	int w, h;           /* picture size */
};

static void assembly_layout(struct assembly_layout *l, int64_t uq,
                            const int n[3], const int ed[3], size_t np,
                            int th)
{
	dr_iso_size(uq, n[0], n[1], n[2], &l->aw, &l->ah);
	dr_iso_size(uq, ed[0], ed[1], ed[2], &l->ew, &l->eh);
	int views = l->aw + l->ew + 4 * DRAW_MARGIN;
	int legend_min = (int)(np < 4 ? np : 4) * l->ew_entry + 2 * DRAW_MARGIN;
	l->w = imax(imax(views, legend_min), 320);
	l->lcols = imax(1, (l->w - 2 * DRAW_MARGIN) / l->ew_entry);
	l->lrows = (int)((np + (size_t)l->lcols - 1) / (size_t)l->lcols);
	l->h = th + DRAW_CAPTION_H + imax(l->ah, l->eh) + DRAW_MARGIN +
	       l->lrows * LEGEND_ROW + DRAW_MARGIN;
}

int draw_assembly(const unsigned char *labels, int nx, int ny, int nz,
                  const char *const *names, size_t npieces, const char *title,
                  unsigned char **png, size_t *len)
{
	return draw_assembly_coloured(labels, NULL, nx, ny, nz, names, npieces,
	                              title, png, len);
}

int draw_assembly_coloured(const unsigned char *labels, const uint32_t *rgb,
                           int nx, int ny, int nz, const char *const *names,
                           size_t npieces, const char *title,
                           unsigned char **png, size_t *len)
{
	return draw_assembly_apart(labels, rgb, nx, ny, nz, names, npieces, title,
	                           NULL, NULL, 0, png, len);
}

int draw_assembly_apart(const unsigned char *labels, const uint32_t *rgb,
                        int nx, int ny, int nz, const char *const *names,
                        size_t npieces, const char *title,
                        const unsigned char *part, const int (*shift)[3],
                        size_t nparts, unsigned char **png, size_t *len)
{
	assert(labels != NULL && png != NULL && len != NULL);
	assert(part == NULL || (shift != NULL && nparts >= 1));
	assert(nx >= 1 && nx <= DRAW_MAX_N && ny >= 1 && ny <= DRAW_MAX_N);
	assert(nz >= 1 && nz <= DRAW_MAX_N);
	assert(npieces >= 1 && npieces <= DRAW_MAX_PIECES);
	size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
	for (size_t j = 0; j < total; j++)
		assert(labels[j] <= npieces && (part == NULL || part[j] <= nparts));
	for (size_t k = 0; names != NULL && k < npieces; k++)
		assert(names[k] != NULL);

	const int n[3] = {nx, ny, nz};
	const struct apart ap = {part, shift, nparts};
	int ed[3], th = dr_title_height(title), longest = 3;
	struct assembly_layout l;

	for (size_t k = 0; names != NULL && k < npieces; k++)
		longest = imax(longest, (int)strnlen(names[k], LEGEND_CHARS));
	l.ew_entry = 2 * (FONT_H + 3) + 10 + longest * FONT_W + 2 * DRAW_MARGIN;

	/* Size first, so a hopeless picture costs no exploding. The exploded
	 * view is never smaller than the assembly, so sizing with the assembly
	 * twice is a lower bound. */
	assembly_layout(&l, UQ_MIN, n, n, npieces, th);
	if (l.w > DRAW_MAX_SIDE || l.h > DRAW_MAX_SIDE)
		return DRAW_ETOOBIG;

	uint32_t *ex_rgb = NULL;
	unsigned char *ex = explode(labels, rgb, nx, ny, nz, npieces, &ap, ed,
	                            &ex_rgb);
	if (ex == NULL)
		return DRAW_ENOMEM;
	int64_t uq = UQ_PIECES;
	for (; uq >= UQ_MIN; uq--) {
		assembly_layout(&l, uq, n, ed, npieces, th);
		if (l.w <= FIT_SIDE && l.h <= FIT_SIDE)
			break;
	}
	if (uq < UQ_MIN) {
		uq = UQ_MIN;
		assembly_layout(&l, uq, n, ed, npieces, th);
		if (l.w > DRAW_MAX_SIDE || l.h > DRAW_MAX_SIDE) {
			free(ex);
			free(ex_rgb);
			return DRAW_ETOOBIG;
		}
	}

	gdImagePtr im = dr_canvas(l.w, l.h);
	if (im == NULL) {
		free(ex);
		free(ex_rgb);
		return DRAW_ENOMEM;
	}
	struct shade sh[DRAW_MAX_PIECES + 1];
	for (size_t k = 1; k <= npieces; k++)
		sh[k] = dr_shade_of(im, draw_colour((int)k), uq);
	dr_title_draw(im, l.w, title);

	/* The two views, centred as a pair, bottoms aligned. */
	int vh = imax(l.ah, l.eh), vy = th + DRAW_CAPTION_H;
	int x = (l.w - (l.aw + l.ew + 2 * DRAW_MARGIN)) / 2;
	int cy = th + (DRAW_CAPTION_H - FONT_H) / 2;
	struct iso v = dr_iso_place(uq, ny, nz, x, vy + vh - l.ah);
	dr_text_centred(im, x + l.aw / 2, cy, l.aw + 2 * DRAW_MARGIN, 1, "Assembled",
	                INK_SOFT);
	dr_iso_draw(im, &v, labels, rgb, nx, ny, nz, sh);
	x += l.aw + 2 * DRAW_MARGIN;
	v = dr_iso_place(uq, ed[1], ed[2], x, vy + vh - l.eh);
	dr_text_centred(im, x + l.ew / 2, cy, l.ew + 2 * DRAW_MARGIN, 1, "Exploded",
	                INK_SOFT);
	dr_iso_draw(im, &v, ex, ex_rgb, ed[0], ed[1], ed[2], sh);
	free(ex);
	free(ex_rgb);

	/* Legend: a swatch and the name of every piece, row by row; with
	 * colours, the swatch shows those of the piece's cells. */
	struct swatch swatches[DRAW_MAX_PIECES + 1];
	for (size_t k = 1; k <= npieces; k++)
		swatches[k] = (struct swatch){1, {draw_colour((int)k)}};
	if (rgb != NULL) {
		for (size_t k = 1; k <= npieces; k++)
			swatches[k].n = 0;
		for (size_t j = 0; j < total; j++)
			if (labels[j] != 0)
				dr_swatch_add(&swatches[labels[j]], rgb[j]);
		for (size_t k = 1; k <= npieces; k++)
			if (swatches[k].n == 0) /* not in the assembly */
				swatches[k] = (struct swatch){1, {draw_colour((int)k)}};
	}
	int ly = vy + vh + DRAW_MARGIN, sq = FONT_H + 3;
	int used = imin(l.lcols, (int)npieces) * l.ew_entry - 2 * DRAW_MARGIN;
	int lx0 = (l.w - used) / 2;
	for (size_t k = 1; k <= npieces; k++) {
		int col = (int)((k - 1) % (size_t)l.lcols);
		int row = (int)((k - 1) / (size_t)l.lcols);
		int ex0 = lx0 + col * l.ew_entry, ey0 = ly + row * LEGEND_ROW;
		char buf[24];
		struct text t;

		dr_rect(im, ex0, ey0, ex0 + 2 * sq - 1, ey0 + sq - 1, INK);
		dr_swatch_draw(im, ex0 + 1, ey0 + 1, ex0 + 2 * sq - 2, ey0 + sq - 2,
		               &swatches[k]);
		snprintf(buf, sizeof buf, "%zu", k);
		dr_text_make(&t, names ? names[k - 1] : buf, LEGEND_CHARS);
		dr_text_draw(im, ex0 + 2 * sq + 10, ey0 + 2, 1, &t, INK);
	}
	return dr_finish(im, png, len);
}

/* Layout of draw_steps(): 'cols' panels a row, each pw x ph pixels. */
static void steps_layout(int64_t uq, const int n[3], size_t nsteps, int th,
                         int *cols, int *pw, int *ph, int *w, int *h)
{
	int aw, ah;
	dr_iso_size(uq, n[0], n[1], n[2], &aw, &ah);
	*cols = (int)(nsteps < 4 ? nsteps : 4);
	int rows = (int)((nsteps + (size_t)*cols - 1) / (size_t)*cols);
	*pw = imax(aw, 14 * FONT_W) + 2 * DRAW_MARGIN;
	*ph = DRAW_CAPTION_H + ah + DRAW_MARGIN;
	*w = imax(*cols * *pw + 2 * DRAW_MARGIN, 320);
	*h = th + rows * *ph + DRAW_MARGIN;
}

int draw_steps(const unsigned char *labels, int nx, int ny, int nz,
               size_t npieces, const uint64_t *shown,
               const char *const *captions, size_t nsteps, const char *title,
               unsigned char **png, size_t *len)
{
	assert(labels != NULL && shown != NULL && captions != NULL);
	assert(png != NULL && len != NULL);
	assert(nx >= 1 && nx <= DRAW_MAX_N && ny >= 1 && ny <= DRAW_MAX_N);
	assert(nz >= 1 && nz <= DRAW_MAX_N);
	assert(npieces >= 1 && npieces <= 64 && nsteps >= 1);
	size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
	for (size_t j = 0; j < total; j++)
		assert(labels[j] <= npieces);
	if (nsteps > DRAW_MAX_STEPS)
		return DRAW_ETOOBIG;
	const int n[3] = {nx, ny, nz};
	int th = dr_title_height(title), cols, pw, ph, w, h;
	int64_t uq = UQ_PIECES;
	for (; uq > UQ_MIN; uq--) {
		steps_layout(uq, n, nsteps, th, &cols, &pw, &ph, &w, &h);
		if (w <= FIT_SIDE && h <= FIT_SIDE)
			break;
	}
	steps_layout(uq, n, nsteps, th, &cols, &pw, &ph, &w, &h);
	if (w > DRAW_MAX_SIDE || h > DRAW_MAX_SIDE)
		return DRAW_ETOOBIG;
	unsigned char *part = malloc(total);
	if (part == NULL)
		return DRAW_ENOMEM;
	gdImagePtr im = dr_canvas(w, h);
	if (im == NULL) {
		free(part);
		return DRAW_ENOMEM;
	}
	struct shade sh[65];
	for (size_t k = 1; k <= npieces; k++)
		sh[k] = dr_shade_of(im, draw_colour((int)k), uq);
	dr_title_draw(im, w, title);
	int aw, ah, x0 = (w - cols * pw) / 2;
	dr_iso_size(uq, nx, ny, nz, &aw, &ah);
	for (size_t s = 0; s < nsteps; s++) {
		int col = (int)(s % (size_t)cols), row = (int)(s / (size_t)cols);
		int px = x0 + col * pw, py = th + row * ph;
		for (size_t j = 0; j < total; j++)
			part[j] = labels[j] && (shown[s] >> (labels[j] - 1) & 1)
			          ? labels[j] : 0;
		dr_text_centred(im, px + pw / 2, py + (DRAW_CAPTION_H - FONT_H) / 2,
		                pw - DRAW_MARGIN, 1, captions[s], INK_SOFT);
		struct iso v = dr_iso_place(uq, ny, nz, px + (pw - aw) / 2,
		                            py + DRAW_CAPTION_H);
		dr_iso_draw(im, &v, part, NULL, nx, ny, nz, sh);
	}
	free(part);
	return dr_finish(im, png, len);
}
