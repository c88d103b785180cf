/*
 * poly.c: the 48 signed axis permutations and what is built on them.
 *
 * Symmetry s = 8 * p + m: p picks one of the six axis permutations, bit k of
 * m negates coordinate k of the image. Index 0 is the identity. Shapes are
 * small (a piece), so every operation here is a plain loop and a sort.
 */
#include "solver/poly.h"

#include <assert.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const int perms[6][3] = {
	{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0},
};
static const int perm_parity[6] = {1, -1, -1, 1, 1, -1};

void poly_sym_apply(int s, const int in[3], int out[3])
{
	const int *p = perms[s / 8];
	int m = s % 8;
	for (int k = 0; k < 3; k++)
		out[k] = (m >> k & 1) ? -in[p[k]] : in[p[k]];
}

bool poly_sym_proper(int s)
{
	int m = s % 8;
	int neg = (m & 1) + (m >> 1 & 1) + (m >> 2 & 1);
	int det = perm_parity[s / 8] * (neg % 2 ? -1 : 1);
	return det > 0;
}

/* Find the symmetry that maps the unit vectors as observed: a symmetry is
 * determined by its images of (1,2,3). */
static int sym_find(const int img[3])
{
	for (int s = 0; s < POLY_NSYM; s++) {
		int v[3] = {1, 2, 3}, o[3];
		poly_sym_apply(s, v, o);
		if (o[0] == img[0] && o[1] == img[1] && o[2] == img[2])
			return s;
	}
	return -1;
}

int poly_sym_compose(int a, int b)
{
	int v[3] = {1, 2, 3}, t[3], o[3];
	poly_sym_apply(a, v, t);
	poly_sym_apply(b, t, o);
	return sym_find(o);
}

int poly_sym_inverse(int s)
{
	for (int t = 0; t < POLY_NSYM; t++)
		if (poly_sym_compose(s, t) == 0)
			return t;
	return -1;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Sort 'n' packed cells ascending by their bytes, least significant
 * first (a counting pass per byte in which the cells differ, into 'tmp'
 * and back). For big shapes too sparse for scan_image(): qsort's calls
 * to a comparison, on shapes of hundreds of cells turned 24 times each,
 * took a sixth of a whole solve --disassemble (Dracula's dental
 * disaster). */
static void radix_u32(uint32_t *a, size_t n, uint32_t *tmp)
{
	uint32_t differ = 0, any = 0;
	for (size_t i = 0; i < n; i++) {
		differ |= a[i] ^ a[0];
		any |= a[i];
	}
	uint32_t *src = a, *dst = tmp;
	for (unsigned b = 0; b < 32; b += 8) {
		if (!(differ >> b & 0xff))
			continue;
		/* a byte is at most the bytes' OR: coordinates start at 0,
		 * so a few dozen counters, not 256 */
		size_t at[256], nb = (any >> b & 0xff) + 1;
		memset(at, 0, nb * sizeof *at);
		for (size_t i = 0; i < n; i++)
			at[src[i] >> b & 0xff]++;
		for (size_t k = 0, sum = 0; k < nb; k++) {
			size_t c = at[k];
			at[k] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[at[src[i] >> b & 0xff]++] = src[i];
		uint32_t *x = src;
		src = dst;
		dst = x;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
}

/* Sort 'n' packed cells ascending: insertion sort for the few cells of a
 * piece (most sorts here: every transform of every piece, for every
 * proof the block generator runs), radix_u32() beyond, qsort when its
 * scratch cannot be had (the order is the same). */
static void sort_u32(uint32_t *a, size_t n)
{
	if (n > 48) {
		uint32_t *tmp = malloc(n * sizeof *tmp);
		if (tmp)
			radix_u32(a, n, tmp);
		else
			qsort(a, n, sizeof *a, cmp_u32);
		free(tmp);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		uint32_t v = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

/* Translate integer cells so each coordinate's minimum is 0, pack with
 * their tags (none: 0), sort. */
static void normalise(const int (*c)[3], const unsigned char *tag, size_t n,
                      uint32_t *out)
{
	int lo[3] = {c[0][0], c[0][1], c[0][2]};
	for (size_t i = 1; i < n; i++)
		for (int k = 0; k < 3; k++)
			if (c[i][k] < lo[k])
				lo[k] = c[i][k];
	for (size_t i = 0; i < n; i++)
		out[i] = poly_pack(c[i][0] - lo[0], c[i][1] - lo[1], c[i][2] - lo[2]) |
		         (tag ? tag[i] : 0u);
	sort_u32(out, n);
}

/* A normalised shape from 'n' integer cells and their tags (NULL: all 0);
 * takes nothing from 'c' or 'tag'. */
static int shape_from(const int (*c)[3], const unsigned char *tag, size_t n,
                      struct shape *out)
{
	uint32_t *cells = malloc((n ? n : 1) * sizeof *cells);
	if (!cells)
		return POLY_ENOMEM;
	if (n)
		normalise(c, tag, n, cells);
	out->n = n;
	out->cells = cells;
	return POLY_OK;
}

void poly_flat_apply(int t, int w, int h, int x, int y, int *u, int *v)
{
	assert(t >= 0 && t < 8);
	if (t & 4)
		x = w - 1 - x;
	for (int k = 0; k < (t & 3); k++) {
		int nx = h - 1 - y;
		y = x;
		x = nx;
		int nw = h;
		h = w;
		w = nw;
	}
	*u = x;
	*v = y;
}

int poly_flat_inverse(int t)
{
	/* A turn-over followed by k turns is its own inverse (it is a
	 * reflection); k turns alone are undone by 4 - k. */
	return t & 4 ? t : (4 - t) & 3;
}

int poly_from_grid(const struct grid *g, struct shape *out)
{
	size_t n = puz_grid_volume(g), k = 0;
	int (*c)[3] = malloc((n ? n : 1) * sizeof *c);
	unsigned char *tag = malloc(n ? n : 1);
	if (!c || !tag) {
		free(c);
		free(tag);
		return POLY_ENOMEM;
	}
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++) {
				unsigned char v = g->cells[puz_grid_index(g, x, y, z)];
				if (v) {
					c[k][0] = x;
					c[k][1] = y;
					c[k][2] = z;
					tag[k] = (unsigned char)puz_cell_colour(v);
					k++;
				}
			}
	int rc = shape_from((const int (*)[3])c, tag, n, out);
	free(c);
	free(tag);
	return rc;
}

/* The least and greatest of each coordinate of the cells of 'in' (0s for
 * no cells). */
static void bounds(const struct shape *in, int lo[3], int hi[3])
{
	for (int k = 0; k < 3; k++) {
		lo[k] = in->n ? 255 : 0;
		hi[k] = 0;
	}
	for (size_t i = 0; i < in->n; i++)
		for (int k = 0; k < 3; k++) {
			int v = (int)(in->cells[i] >> (8 * (k + 1)) & 0xff);
			lo[k] = v < lo[k] ? v : lo[k];
			hi[k] = v > hi[k] ? v : hi[k];
		}
}

/* The cells of 'in' moved by symmetry 's', normalised and sorted, into
 * 'cells' (in->n entries); tags ride along. 'lo' and 'hi' are bounds()
 * of 'in'. Nothing is allocated: every proof of the block generator
 * turns every piece 24 times. */
static void transform_into(const struct shape *in, const int lo[3],
                           const int hi[3], int s, uint32_t *cells)
{
	/* poly_sym_apply(), unrolled: image coordinate k is sign[k] times
	 * coordinate p[k] (0 x, 1 y, 2 z) of the cell, and its least value
	 * is sign[k] times that coordinate's least or greatest */
	const int *p = perms[s / 8];
	int m = s % 8, sign[3], shift[3], min[3];
	for (int k = 0; k < 3; k++) {
		sign[k] = m >> k & 1 ? -1 : 1;
		shift[k] = 8 * (p[k] + 1);
		min[k] = sign[k] > 0 ? lo[p[k]] : -hi[p[k]];
	}
	for (size_t i = 0; i < in->n; i++) {
		uint32_t v = in->cells[i], c = (uint32_t)poly_tag(v);
		for (int k = 0; k < 3; k++)
			c |= (uint32_t)(sign[k] * (int)(v >> shift[k] & 0xff) - min[k])
			     << (8 * (k + 1));
		cells[i] = c;
	}
	sort_u32(cells, in->n);
}

/* The box of a big shape's cells for scan_image(): byte x + ex * (y +
 * ey * z), counted from lo, is the cell's tag + 1, 0 where there is none.
 * NULL for a shape of a few cells, one that fills less than an eighth of
 * its box (a scan would mostly meet holes), a tag of 255, or no memory:
 * the caller then turns and sorts. */
static unsigned char *cell_box(const struct shape *in, const int lo[3],
                               const int hi[3])
{
	if (in->n <= 48)
		return NULL;
	size_t ex = (size_t)(hi[0] - lo[0] + 1), ey = (size_t)(hi[1] - lo[1] + 1),
	       ez = (size_t)(hi[2] - lo[2] + 1);
	if (ex * ey * ez / 8 > in->n)
		return NULL;
	unsigned char *box = calloc(ex * ey * ez, 1);
	for (size_t i = 0; box && i < in->n; i++) {
		uint32_t c = in->cells[i];
		if (poly_tag(c) == 0xff) {
			free(box);
			return NULL;
		}
		box[(size_t)(poly_x(c) - lo[0]) +
		    ex * ((size_t)(poly_y(c) - lo[1]) + ey * (size_t)(poly_z(c) - lo[2]))] =
		    (unsigned char)(poly_tag(c) + 1);
	}
	return box;
}

/* The image of the shape of 'box' (cell_box()) under symmetry s, read
 * off the box in the image's own order, so already sorted, into 'cells'.
 * With 'best' (an image as long), compared with it on the way: negative
 * when less (cells then hold the whole image), 0 when equal, positive
 * when greater (the scan stops there, cells partly written); negative
 * without 'best'. A canonical form of a goal of 1,656 cells needs no
 * sort, and most images stop within a few cells. */
static int scan_image(const unsigned char *box, const int lo[3],
                      const int hi[3], int s, uint32_t *cells,
                      const uint32_t *best)
{
	const int *p = perms[s / 8];
	int m = s % 8, E[3];
	ptrdiff_t unit[3], step[3], base = 0;
	unit[0] = 1;
	unit[1] = hi[0] - lo[0] + 1;
	unit[2] = unit[1] * (hi[1] - lo[1] + 1);
	for (int k = 0; k < 3; k++) {
		/* image axis k runs along the box's axis p[k], backwards when
		 * the symmetry turns it over */
		E[k] = hi[p[k]] - lo[p[k]] + 1;
		step[k] = m >> k & 1 ? -unit[p[k]] : unit[p[k]];
		if (m >> k & 1)
			base += (E[k] - 1) * unit[p[k]];
	}
	int cmp = best ? 0 : -1;
	size_t i = 0;
	for (int z = 0; z < E[2]; z++)
		for (int y = 0; y < E[1]; y++) {
			ptrdiff_t at = base + z * step[2] + y * step[1];
			for (int x = 0; x < E[0]; x++, at += step[0]) {
				unsigned c = box[at];
				if (!c)
					continue;
				uint32_t v = poly_pack(x, y, z) | (c - 1);
				if (!cmp) {
					if (v > best[i])
						return 1;
					cmp = v < best[i] ? -1 : 0;
				}
				cells[i++] = v;
			}
		}
	return cmp;
}

int poly_transform(const struct shape *in, int s, struct shape *out)
{
	uint32_t *cells = malloc((in->n ? in->n : 1) * sizeof *cells);
	if (!cells)
		return POLY_ENOMEM;
	int lo[3], hi[3];
	bounds(in, lo, hi);
	unsigned char *box = cell_box(in, lo, hi);
	if (box)
		scan_image(box, lo, hi, s, cells, NULL);
	else
		transform_into(in, lo, hi, s, cells);
	free(box);
	out->n = in->n;
	out->cells = cells;
	return POLY_OK;
}

bool poly_equal(const struct shape *a, const struct shape *b)
{
	return a->n == b->n && (a->n == 0 ||
	       memcmp(a->cells, b->cells, a->n * sizeof *a->cells) == 0);
}

int poly_compare(const struct shape *a, const struct shape *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (size_t i = 0; i < a->n; i++)
		if (a->cells[i] != b->cells[i])
			return a->cells[i] < b->cells[i] ? -1 : 1;
	return 0;
}

int poly_canonical(const struct shape *in, struct shape *out)
{
	size_t n = in->n ? in->n : 1;
	uint32_t *best = malloc(n * sizeof *best), *t = malloc(n * sizeof *t);
	if (!best || !t) {
		free(best);
		free(t);
		return POLY_ENOMEM;
	}
	bool have = false;
	int lo[3], hi[3];
	bounds(in, lo, hi);
	unsigned char *box = cell_box(in, lo, hi);
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		bool less;
		if (box) {
			less = scan_image(box, lo, hi, s, t, have ? best : NULL) < 0;
		} else {
			transform_into(in, lo, hi, s, t);
			size_t i = 0;
			while (have && i < in->n && t[i] == best[i])
				i++;
			less = !have || (i < in->n && t[i] < best[i]);
		}
		if (less) {
			uint32_t *x = best;
			best = t;
			t = x;
			have = true;
		}
	}
	free(box);
	free(t);
	out->n = in->n;
	out->cells = best;
	return POLY_OK;
}

int poly_orientations(const struct shape *in, struct shape **out, size_t *count)
{
	struct shape *o = calloc(24, sizeof *o);
	uint32_t *t = malloc((in->n ? in->n : 1) * sizeof *t);
	if (!o || !t) {
		free(o);
		free(t);
		return POLY_ENOMEM;
	}
	int lo[3], hi[3];
	bounds(in, lo, hi);
	unsigned char *box = cell_box(in, lo, hi);
	size_t k = 0;
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		if (box)
			scan_image(box, lo, hi, s, t, NULL);
		else
			transform_into(in, lo, hi, s, t);
		struct shape img = {in->n, t};
		bool dup = false;
		for (size_t j = 0; j < k && !dup; j++)
			dup = poly_equal(&o[j], &img);
		if (dup)
			continue;
		o[k].cells = malloc((in->n ? in->n : 1) * sizeof *t);
		if (!o[k].cells) {
			poly_shapes_free(o, k);
			free(box);
			free(t);
			return POLY_ENOMEM;
		}
		memcpy(o[k].cells, t, in->n * sizeof *t);
		o[k++].n = in->n;
	}
	free(box);
	free(t);
	*out = o;
	*count = k;
	return POLY_OK;
}

void poly_shape_clear(struct shape *s)
{
	free(s->cells);
	s->cells = NULL;
	s->n = 0;
}

void poly_shapes_free(struct shape *s, size_t count)
{
	if (!s)
		return;
	for (size_t i = 0; i < count; i++)
		poly_shape_clear(&s[i]);
	free(s);
}

size_t poly_overhangs(const struct shape *s)
{
	size_t count = 0;
	for (size_t i = 0; i < s->n; i++) {
		int z = poly_z(s->cells[i]);
		if (z == 0)
			continue;
		uint32_t below = poly_pack(poly_x(s->cells[i]), poly_y(s->cells[i]),
		                           z - 1);
		/* the first cell not below 'below' (tags ride in the low byte) */
		size_t lo = 0, hi = i;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (s->cells[mid] < below)
				lo = mid + 1;
			else
				hi = mid;
		}
		count += !(lo < i && (s->cells[lo] & ~(uint32_t)0xff) == below);
	}
	return count;
}
