/*
 * test_gen.c: the shell generator against DESIGN.md §1 and the conventions
 * of gen.h, for cubes and for X*Y*Z boxes. The conventions (face frame and
 * sizes, orientation, stream order) are re-derived here from the header's
 * words, not from gen.c, so a drift between documentation and code fails a
 * test. Cubes must give the bytes of the cube-only versions: pinned below
 * as hashes of what those versions wrote.
 *
 * The counts of generated boxes are checked three ways: gen_count() (the
 * shell fast path when every plate holds a 2 x 2 block), the generic
 * search, and the independent brute force of tests/brute.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "gen/gen.h"
#include "solver/poly.h"
#include "solver/solve.h"
#include "tests/brute.h"

#define NELEM(a) (sizeof (a) / sizeof (a)[0])

/* Boxes with all kinds of proportions: sides all different, two equal (in
 * every position), long and thin, flat, and the largest side. */
static const int boxes[][3] = {
	{ 3, 3, 4 }, { 3, 4, 4 }, { 4, 3, 3 }, { 3, 4, 3 }, { 3, 4, 5 },
	{ 5, 4, 3 }, { 4, 5, 6 }, { 6, 4, 5 }, { 4, 4, 6 }, { 5, 5, 3 },
	{ 3, 3, 10 }, { 10, 3, 3 }, { 3, 7, 4 }, { 7, 3, 4 }, { 64, 3, 3 },
	{ 3, 64, 5 }, { 4, 6, 64 },
};

/* ---- independent helpers ---------------------------------------------- */

static size_t idx(const int d[3], int x, int y, int z)
{
	return (size_t)x + (size_t)d[0] * ((size_t)y + (size_t)d[1] * (size_t)z);
}

static size_t volume(const int d[3])
{
	return (size_t)d[0] * (size_t)d[1] * (size_t)d[2];
}

static int shell_volume(const int d[3])
{
	return d[0] * d[1] * d[2] - (d[0] - 2) * (d[1] - 2) * (d[2] - 2);
}

static int is_cube(const int d[3])
{
	return d[0] == d[1] && d[1] == d[2];
}

/* Faces of a cell, ascending enum order; returns the count (0 inside). */
static int faces_of(const int d[3], int x, int y, int z, int f[3])
{
	int k = 0;

	if (x == 0) f[k++] = GEN_XMIN;
	if (x == d[0] - 1) f[k++] = GEN_XMAX;
	if (y == 0) f[k++] = GEN_YMIN;
	if (y == d[1] - 1) f[k++] = GEN_YMAX;
	if (z == 0) f[k++] = GEN_ZMIN;
	if (z == d[2] - 1) f[k++] = GEN_ZMAX;
	return k;
}

static int on_face(const int d[3], int face, int x, int y, int z)
{
	int f[3];
	int k = faces_of(d, x, y, z, f);

	for (int i = 0; i < k; i++)
		if (f[i] == face)
			return 1;
	return 0;
}

/* gen.h's table of face sizes: front and back X x Z, right and left
 * Y x Z, top and bottom X x Y. */
static void ref_face_dims(const int d[3], int face, int *w, int *h)
{
	switch (face) {
	case GEN_YMIN: case GEN_YMAX: *w = d[0]; *h = d[2]; break;
	case GEN_XMIN: case GEN_XMAX: *w = d[1]; *h = d[2]; break;
	default: *w = d[0]; *h = d[1]; break;
	}
}

/* gen.h's orientation of a pw x ph drawing, transcribed as closed forms:
 * turn over left to right if t & 4, then t & 3 clockwise quarter turns
 * (y downward), each (x, y) -> (ph-1-y, x) on the current rectangle. */
static void ref_orient(int pw, int ph, int t, int x, int y, int *u, int *v)
{
	if (t & 4)
		x = pw - 1 - x;
	switch (t & 3) {
	case 0: *u = x;          *v = y;          break;
	case 1: *u = ph - 1 - y; *v = x;          break;
	case 2: *u = pw - 1 - x; *v = ph - 1 - y; break;
	default: *u = y;         *v = pw - 1 - x; break;
	}
}

/* Is the set {b[i] == val} of a w*h bitmap non-empty and 4-connected? */
static int connected4(const unsigned char *b, int w, int h, unsigned char val)
{
	int stack[GEN_MAX_SIZE * GEN_MAX_SIZE];
	unsigned char seen[GEN_MAX_SIZE * GEN_MAX_SIZE] = { 0 };
	int total = 0, reached = 0, sp = 0;

	for (int i = 0; i < w * h; i++)
		if (b[i] == val) {
			if (total++ == 0) {
				stack[sp++] = i;
				seen[i] = 1;
			}
		}
	if (total == 0)
		return 0;
	while (sp > 0) {
		int i = stack[--sp], x = i % w, y = i / w;
		int nb[4][2] = { { x - 1, y }, { x + 1, y }, { x, y - 1 }, { x, y + 1 } };

		reached++;
		for (int k = 0; k < 4; k++) {
			int a = nb[k][0], c = nb[k][1], j = a + w * c;

			if (a < 0 || a >= w || c < 0 || c >= h || seen[j] || b[j] != val)
				continue;
			seen[j] = 1;
			stack[sp++] = j;
		}
	}
	return reached == total;
}

static int count_set(const unsigned char *b, size_t len)
{
	int c = 0;

	for (size_t i = 0; i < len; i++)
		c += b[i] != 0;
	return c;
}

static void draw(uint64_t seed, const int dim[3], struct gen_puzzle *g)
{
	struct rng r;

	rng_seed(&r, seed);
	assert_int_equal(gen_draw(&r, dim, g), GEN_OK);
}

static void draw_cube(uint64_t seed, int n, struct gen_puzzle *g)
{
	const int dim[3] = { n, n, n };

	draw(seed, dim, g);
}

/* The piece number on 'face'. */
static int piece_on(const struct gen_puzzle *g, int face)
{
	for (int i = 0; i < 6; i++)
		if (g->face[i] == face)
			return i + 1;
	fail_msg("face %d has no piece", face);
	return 0;
}

/* 64-bit FNV-1a, to pin bytes written by earlier versions. */
static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= UINT64_C(1099511628211);
	}
	return h;
}

/* ---- the face frame ---------------------------------------------------- */

/* gen_face_dims() is gen.h's table; poly_flat_apply() is the orientation
 * the header describes in words, for any rectangle. */
static void test_gen_face_dims_and_orientation(void **state)
{
	(void)state;
	for (size_t b = 0; b < NELEM(boxes); b++)
		for (int f = 0; f < 6; f++) {
			int w, h, rw, rh;

			gen_face_dims(boxes[b], f, &w, &h);
			ref_face_dims(boxes[b], f, &rw, &rh);
			assert_int_equal(w, rw);
			assert_int_equal(h, rh);
		}
	for (int pw = 1; pw <= 6; pw++)
		for (int ph = 1; ph <= 6; ph++)
			for (int t = 0; t < 8; t++) {
				int ow = t & 1 ? ph : pw, oh = t & 1 ? pw : ph;
				unsigned char hit[36] = { 0 };

				for (int y = 0; y < ph; y++)
					for (int x = 0; x < pw; x++) {
						int u, v, ru, rv;

						poly_flat_apply(t, pw, ph, x, y, &u, &v);
						ref_orient(pw, ph, t, x, y, &ru, &rv);
						assert_int_equal(u, ru);
						assert_int_equal(v, rv);
						assert_true(u >= 0 && u < ow && v >= 0 && v < oh);
						assert_int_equal(hit[u + ow * v]++, 0);
					}
			}
	{
		const int cube[3] = { 5, 5, 5 }, box[3] = { 4, 5, 6 };

		assert_true(gen_is_cube(cube));
		assert_false(gen_is_cube(box));
		for (int k = 0; k < 3; k++) {
			int d[3] = { 5, 5, 5 };

			d[k] = 4;
			assert_false(gen_is_cube(d));
		}
	}
}

/* Each face frame covers its face once, is seen from outside, and the
 * frames fit the documented cross: left front right back in a row, top
 * above front, bottom below it; for cubes and boxes alike. */
static void test_gen_face_cell_net(void **state)
{
	static const int normal[6][3] = {
		{ -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 },
		{ 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 },
	};
	static const int shapes[][3] = {
		{ 3, 3, 3 }, { 4, 4, 4 }, { 5, 5, 5 }, { 6, 6, 6 },
		{ 3, 4, 5 }, { 5, 3, 4 }, { 4, 5, 3 }, { 3, 3, 7 }, { 6, 3, 3 },
		{ 4, 6, 4 },
	};
	static unsigned char hit[8 * 8 * 8];
	/* Pairs (a, a's side, b, b's side) that share an edge in the net of
	 * gen_net_pos(); sides: 0 top row, 1 right column, 2 bottom row,
	 * 3 left column. A cross has exactly five such pairs. */
	int glue[6 * 6][4], nglue = 0, pos[6][2];
	for (int f = 0; f < 6; f++) {
		gen_net_pos(f, pos[f]);
		assert_true(pos[f][0] >= 0 && pos[f][0] < 4);
		assert_true(pos[f][1] >= 0 && pos[f][1] < 3);
		for (int g = 0; g < f; g++)
			assert_false(pos[f][0] == pos[g][0] && pos[f][1] == pos[g][1]);
	}
	for (int a = 0; a < 6; a++)
		for (int b = 0; b < 6; b++) {
			if (pos[b][0] == pos[a][0] + 1 && pos[b][1] == pos[a][1]) {
				int e[4] = {a, 1, b, 3};
				memcpy(glue[nglue++], e, sizeof e);
			}
			if (pos[b][1] == pos[a][1] + 1 && pos[b][0] == pos[a][0]) {
				int e[4] = {a, 2, b, 0};
				memcpy(glue[nglue++], e, sizeof e);
			}
		}
	assert_int_equal(nglue, 5);
	(void)state;
	for (size_t s = 0; s < NELEM(shapes); s++) {
		const int *d = shapes[s];

		for (int f = 0; f < 6; f++) {
			int w, h, x0, y0, z0, x1, y1, z1, x2, y2, z2;

			gen_face_dims(d, f, &w, &h);
			memset(hit, 0, sizeof hit);
			for (int v = 0; v < h; v++)
				for (int u = 0; u < w; u++) {
					int x, y, z;

					gen_face_cell(d, f, u, v, &x, &y, &z);
					assert_true(x >= 0 && x < d[0] && y >= 0 && y < d[1] &&
					            z >= 0 && z < d[2]);
					assert_true(on_face(d, f, x, y, z));
					assert_int_equal(hit[idx(d, x, y, z)]++, 0);
				}
			/* the frame covers the whole face */
			{
				int on = 0;

				for (int z = 0; z < d[2]; z++)
					for (int y = 0; y < d[1]; y++)
						for (int x = 0; x < d[0]; x++)
							on += on_face(d, f, x, y, z);
				assert_int_equal(on, w * h);
			}
			/* Seen from outside: right x down = -outward normal. */
			gen_face_cell(d, f, 0, 0, &x0, &y0, &z0);
			gen_face_cell(d, f, 1, 0, &x1, &y1, &z1);
			gen_face_cell(d, f, 0, 1, &x2, &y2, &z2);
			{
				int r[3] = { x1 - x0, y1 - y0, z1 - z0 };
				int dn[3] = { x2 - x0, y2 - y0, z2 - z0 };
				int c[3] = { r[1] * dn[2] - r[2] * dn[1],
				             r[2] * dn[0] - r[0] * dn[2],
				             r[0] * dn[1] - r[1] * dn[0] };

				for (int a = 0; a < 3; a++)
					assert_int_equal(c[a], -normal[f][a]);
			}
		}
		for (int k = 0; k < nglue; k++) {
			int wh[2][2], len[2];

			/* glued sides have the same length */
			for (int e = 0; e < 2; e++) {
				int side = glue[k][2 * e + 1];

				gen_face_dims(d, glue[k][2 * e], &wh[e][0], &wh[e][1]);
				len[e] = side == 1 || side == 3 ? wh[e][1] : wh[e][0];
			}
			assert_int_equal(len[0], len[1]);
			for (int t = 0; t < len[0]; t++) {
				int uv[2][2], cell[2][3];

				for (int e = 0; e < 2; e++) {
					int side = glue[k][2 * e + 1];

					uv[e][0] = side == 1 ? wh[e][0] - 1 : side == 3 ? 0 : t;
					uv[e][1] = side == 0 ? 0 : side == 2 ? wh[e][1] - 1 : t;
					gen_face_cell(d, glue[k][2 * e], uv[e][0], uv[e][1],
					              &cell[e][0], &cell[e][1], &cell[e][2]);
				}
				assert_memory_equal(cell[0], cell[1], sizeof cell[0]);
			}
		}
	}
}

static void test_gen_face_names(void **state)
{
	(void)state;
	assert_string_equal(gen_face_name(GEN_XMIN), "left");
	assert_string_equal(gen_face_name(GEN_XMAX), "right");
	assert_string_equal(gen_face_name(GEN_YMIN), "front");
	assert_string_equal(gen_face_name(GEN_YMAX), "back");
	assert_string_equal(gen_face_name(GEN_ZMIN), "bottom");
	assert_string_equal(gen_face_name(GEN_ZMAX), "top");
	assert_string_equal(gen_strerror(GEN_OK), "success");
	assert_true(strcmp(gen_strerror(GEN_ENOMEM), gen_strerror(GEN_EIO)) != 0);
	assert_non_null(gen_strerror(12345));
}

/* ---- DESIGN §1 rules ---------------------------------------------------- */

/* Everything DESIGN §1 and gen.h promise about one drawn candidate. */
static void check_rules(const struct gen_puzzle *g)
{
	const int *d = g->dim;
	int owned = 0;
	unsigned char view[GEN_MAX_SIZE * GEN_MAX_SIZE];
	int seen[6] = { 0 };

	for (int k = 0; k < 3; k++)
		assert_true(d[k] >= GEN_MIN_SIZE && d[k] <= GEN_MAX_SIZE);
	for (int z = 0; z < d[2]; z++)
		for (int y = 0; y < d[1]; y++)
			for (int x = 0; x < d[0]; x++) {
				int f[3];
				int k = faces_of(d, x, y, z, f);
				unsigned char o = g->owner[idx(d, x, y, z)];

				if (k == 0) {
					assert_int_equal(o, GEN_NONE);
					continue;
				}
				owned++;
				/* Rules 1 and 2: a face cell is its face's, an edge
				 * cell one of its two faces'. */
				assert_true(o < 6 && on_face(d, o, x, y, z));
				if (k == 1)
					assert_int_equal(o, f[0]);
				if (k == 3) {
					/* Rule 3: the corner's owner owns a neighbour edge. */
					int dx = x ? -1 : 1, dy = y ? -1 : 1, dz = z ? -1 : 1;

					assert_true(g->owner[idx(d, x + dx, y, z)] == o ||
					            g->owner[idx(d, x, y + dy, z)] == o ||
					            g->owner[idx(d, x, y, z + dz)] == o);
				}
			}
	assert_int_equal(owned, shell_volume(d));

	/* Six different faces, one per piece. */
	for (int i = 0; i < 6; i++) {
		assert_true(g->face[i] >= 0 && g->face[i] < 6);
		assert_int_equal(seen[g->face[i]]++, 0);
		assert_true(g->orient[i] >= 0 && g->orient[i] < 8);
	}
	for (int f = 0; f < 6; f++) {
		int p = piece_on(g, f), cells = 0, w, h;
		int t = g->orient[p - 1], pw = g->pw[p - 1], ph = g->ph[p - 1];
		const unsigned char *pc = g->piece[p - 1];

		ref_face_dims(d, f, &w, &h);
		/* drawn w x h, or h x w when turned an odd number of quarters */
		assert_int_equal(pw, t & 1 ? h : w);
		assert_int_equal(ph, t & 1 ? w : h);
		gen_face_view(g, f, view);
		/* The centre is the face's own; nothing else is 'p' or 0. */
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++) {
				unsigned char c = view[u + w * v];

				assert_true(c == 0 || c == p);
				if (u > 0 && v > 0 && u < w - 1 && v < h - 1)
					assert_int_equal(c, p);
			}
		assert_true(connected4(view, w, h, (unsigned char)p));
		for (int z = 0; z < d[2]; z++)
			for (int y = 0; y < d[1]; y++)
				for (int x = 0; x < d[0]; x++)
					cells += g->owner[idx(d, x, y, z)] == f;
		assert_int_equal(count_set(view, (size_t)w * h), cells);
		/* The drawing: same cell count, 0/1 only, connected, and carried
		 * through its orientation it is the face view. */
		assert_int_equal(count_set(pc, (size_t)pw * ph), cells);
		assert_true(connected4(pc, pw, ph, 1));
		for (int y = 0; y < ph; y++)
			for (int x = 0; x < pw; x++) {
				int u, v;

				assert_true(pc[x + pw * y] <= 1);
				poly_flat_apply(t, pw, ph, x, y, &u, &v);
				assert_true(u >= 0 && u < w && v >= 0 && v < h);
				assert_int_equal(view[u + w * v], pc[x + pw * y] ? p : 0);
			}
	}
}

/* gen_to_puzzle(): pieces pw x ph x 1 as drawn, the goal the box shell,
 * size X Y Z, the seed. */
static void check_to_puzzle(const struct gen_puzzle *g, uint64_t seed)
{
	const int *d = g->dim;
	struct puzzle p;
	char name[96];

	assert_int_equal(gen_to_puzzle(g, seed, &p), GEN_OK);
	snprintf(name, sizeof name, "cubegen %dx%dx%d shell, seed %llu", d[0],
	         d[1], d[2], (unsigned long long)seed);
	assert_string_equal(p.name, name);
	assert_int_equal(p.goal.nx, d[0]);
	assert_int_equal(p.goal.ny, d[1]);
	assert_int_equal(p.goal.nz, d[2]);
	assert_int_equal(count_set(p.goal.cells, volume(d)), shell_volume(d));
	for (int z = 0; z < d[2]; z++)
		for (int y = 0; y < d[1]; y++)
			for (int x = 0; x < d[0]; x++) {
				int f[3];

				assert_int_equal(p.goal.cells[puz_grid_index(&p.goal, x, y, z)],
				                 faces_of(d, x, y, z, f) > 0);
			}
	assert_int_equal(p.npieces, 6);
	for (int i = 0; i < 6; i++) {
		char want[16];
		const struct grid *s = &p.pieces[i].shape;

		snprintf(want, sizeof want, "%d", i + 1);
		assert_string_equal(p.pieces[i].name, want);
		assert_int_equal(p.pieces[i].count, 1);
		assert_int_equal(s->nx, g->pw[i]);
		assert_int_equal(s->ny, g->ph[i]);
		assert_int_equal(s->nz, 1);
		for (int y = 0; y < g->ph[i]; y++)
			for (int x = 0; x < g->pw[i]; x++)
				assert_int_equal(s->cells[puz_grid_index(s, x, y, 0)],
				                 g->piece[i][x + g->pw[i] * y]);
	}
	assert_memory_equal(p.size, d, sizeof p.size);
	assert_true(p.has_seed);
	assert_true(p.seed == seed);
	puz_clear(&p);
}

static void test_gen_draw_follows_design_rules(void **state)
{
	(void)state;
	for (int n = 3; n <= 12; n++) {
		const int dim[3] = { n, n, n };
		struct rng r;

		rng_seed(&r, (uint64_t)n * 1000);
		for (int s = 0; s < 200; s++) {
			struct gen_puzzle g;

			assert_int_equal(gen_draw(&r, dim, &g), GEN_OK);
			assert_memory_equal(g.dim, dim, sizeof dim);
			check_rules(&g);
			gen_puzzle_clear(&g);
		}
	}
}

/* The same rules for boxes of every kind, many seeds each, and their
 * puzzles. */
static void test_gen_box_follows_design_rules(void **state)
{
	(void)state;
	for (size_t b = 0; b < NELEM(boxes); b++) {
		const int *dim = boxes[b];
		int seeds = volume(dim) > 1000 ? 20 : 150;
		struct rng r;

		rng_seed(&r, 31337 + (uint64_t)b);
		for (int s = 0; s < seeds; s++) {
			struct gen_puzzle g;

			assert_int_equal(gen_draw(&r, dim, &g), GEN_OK);
			assert_memory_equal(g.dim, dim, sizeof g.dim);
			check_rules(&g);
			if (s < 20)
				check_to_puzzle(&g, (uint64_t)s);
			gen_puzzle_clear(&g);
		}
	}
}

/* The size limits work, including the largest cube and the longest and
 * flattest boxes. */
static void test_gen_draw_extreme_sizes(void **state)
{
	static const int dims[][3] = {
		{ GEN_MIN_SIZE, GEN_MIN_SIZE, GEN_MIN_SIZE },
		{ GEN_MAX_SIZE, GEN_MAX_SIZE, GEN_MAX_SIZE },
		{ GEN_MAX_SIZE, GEN_MIN_SIZE, GEN_MIN_SIZE },
		{ GEN_MIN_SIZE, GEN_MAX_SIZE, GEN_MIN_SIZE },
		{ GEN_MIN_SIZE, GEN_MIN_SIZE, GEN_MAX_SIZE },
		{ GEN_MAX_SIZE, GEN_MAX_SIZE, GEN_MIN_SIZE },
		{ GEN_MIN_SIZE, GEN_MAX_SIZE, GEN_MAX_SIZE },
	};

	(void)state;
	for (size_t k = 0; k < NELEM(dims); k++) {
		struct gen_puzzle g;

		draw(99, dims[k], &g);
		check_rules(&g);
		check_to_puzzle(&g, 99);
		gen_puzzle_clear(&g);
	}
}

/* ---- reconstruction from what the user sees ----------------------------- */

/* From the drawings, face[] and orient[] alone (with gen_face_cell and the
 * documented orientation), rebuild the assembly and the face views. */
static void reconstruct(const struct gen_puzzle *g)
{
	static unsigned char own[GEN_MAX_SIZE * GEN_MAX_SIZE * GEN_MAX_SIZE];
	unsigned char want[GEN_MAX_SIZE * GEN_MAX_SIZE];
	unsigned char got[GEN_MAX_SIZE * GEN_MAX_SIZE];
	const int *d = g->dim;

	memset(own, GEN_NONE, volume(d));
	for (int i = 0; i < 6; i++)
		for (int y = 0; y < g->ph[i]; y++)
			for (int x = 0; x < g->pw[i]; x++) {
				int u, v, cx, cy, cz;

				if (!g->piece[i][x + g->pw[i] * y])
					continue;
				ref_orient(g->pw[i], g->ph[i], g->orient[i], x, y, &u, &v);
				gen_face_cell(d, g->face[i], u, v, &cx, &cy, &cz);
				/* No cell claimed twice. */
				assert_int_equal(own[idx(d, cx, cy, cz)], GEN_NONE);
				own[idx(d, cx, cy, cz)] = (unsigned char)g->face[i];
			}
	assert_memory_equal(own, g->owner, volume(d));

	for (int i = 0; i < 6; i++) {
		int w, h;

		ref_face_dims(d, g->face[i], &w, &h);
		memset(want, 0, (size_t)w * h);
		for (int y = 0; y < g->ph[i]; y++)
			for (int x = 0; x < g->pw[i]; x++) {
				int u, v;

				ref_orient(g->pw[i], g->ph[i], g->orient[i], x, y, &u, &v);
				if (g->piece[i][x + g->pw[i] * y])
					want[u + w * v] = (unsigned char)(i + 1);
			}
		gen_face_view(g, g->face[i], got);
		assert_memory_equal(want, got, (size_t)w * h);
	}

	for (int z = 0; z < d[2]; z++)
		for (int y = 0; y < d[1]; y++)
			for (int x = 0; x < d[0]; x++) {
				unsigned char o = g->owner[idx(d, x, y, z)];
				int p = 0;

				for (int i = 0; i < 6; i++)
					if (o != GEN_NONE && g->face[i] == o)
						p = i + 1;
				assert_int_equal(gen_cell_piece(g, x, y, z), p);
			}
	{
		unsigned char *grid = malloc(volume(d));

		assert_non_null(grid);
		gen_piece_grid(g, grid);
		for (int z = 0; z < d[2]; z++)
			for (int y = 0; y < d[1]; y++)
				for (int x = 0; x < d[0]; x++)
					assert_int_equal(grid[idx(d, x, y, z)],
					                 gen_cell_piece(g, x, y, z));
		free(grid);
	}
}

static void test_gen_reconstruct_from_drawings(void **state)
{
	(void)state;
	for (int n = 3; n <= 10; n++)
		for (uint64_t seed = 0; seed < 60; seed++) {
			struct gen_puzzle g;

			draw_cube(seed * 7919 + (uint64_t)n, n, &g);
			reconstruct(&g);
			gen_puzzle_clear(&g);
		}
	for (size_t b = 0; b < NELEM(boxes); b++)
		for (uint64_t seed = 0; seed < 30; seed++) {
			struct gen_puzzle g;

			draw(seed * 7919 + b, boxes[b], &g);
			reconstruct(&g);
			gen_puzzle_clear(&g);
		}
}

/* ---- the stream, re-derived from gen.h's description ------------------- */

static void ref_generate(struct rng *r, const int d[3], unsigned char *owner,
                         int face[6], int orient[6])
{
	int a[6] = { 0, 1, 2, 3, 4, 5 };

	for (int z = 0; z < d[2]; z++)
		for (int y = 0; y < d[1]; y++)
			for (int x = 0; x < d[0]; x++) {
				int f[3];
				int k = faces_of(d, x, y, z, f);

				if (k == 0)
					owner[idx(d, x, y, z)] = GEN_NONE;
				else if (k == 1)
					owner[idx(d, x, y, z)] = (unsigned char)f[0];
				else if (k == 2)
					owner[idx(d, x, y, z)] = (unsigned char)f[rng_below(r, 2)];
			}
	for (int z = 0; z < d[2]; z++)
		for (int y = 0; y < d[1]; y++)
			for (int x = 0; x < d[0]; x++) {
				int f[3], dd[3], k = 0;

				if (faces_of(d, x, y, z, f) != 3)
					continue;
				/* one step inward along x, along y, along z */
				int nb[3] = {
					owner[idx(d, x ? x - 1 : 1, y, z)],
					owner[idx(d, x, y ? y - 1 : 1, z)],
					owner[idx(d, x, y, z ? z - 1 : 1)],
				};
				/* distinct, ascending (insertion sort of a set) */
				for (int i = 0; i < 3; i++) {
					int dup = 0, j;

					for (j = 0; j < k; j++)
						dup |= dd[j] == nb[i];
					if (dup)
						continue;
					for (j = k; j > 0 && dd[j - 1] > nb[i]; j--)
						dd[j] = dd[j - 1];
					dd[j] = nb[i];
					k++;
				}
				owner[idx(d, x, y, z)] = (unsigned char)dd[rng_below(r, (uint64_t)k)];
			}
	for (int i = 5; i >= 1; i--) {
		int j = (int)rng_below(r, (uint64_t)i + 1), t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
	for (int i = 0; i < 6; i++)
		face[i] = a[i];
	for (int i = 0; i < 6; i++)
		orient[i] = (int)rng_below(r, 8);
}

static void check_stream(const int d[3], uint64_t seed)
{
	static unsigned char owner[GEN_MAX_SIZE * GEN_MAX_SIZE * GEN_MAX_SIZE];
	struct rng r, ref;

	rng_seed(&r, seed);
	ref = r;
	/* Several candidates in a row: each starts where the last ended. */
	for (int c = 0; c < 5; c++) {
		struct gen_puzzle g;
		int face[6], orient[6];

		assert_int_equal(gen_draw(&r, d, &g), GEN_OK);
		ref_generate(&ref, d, owner, face, orient);
		assert_memory_equal(g.owner, owner, volume(d));
		assert_memory_equal(g.face, face, sizeof face);
		assert_memory_equal(g.orient, orient, sizeof orient);
		assert_memory_equal(r.s, ref.s, sizeof r.s);
		gen_puzzle_clear(&g);
	}
}

static void test_gen_draw_follows_documented_stream(void **state)
{
	(void)state;
	for (int n = 3; n <= 12; n++) {
		const int d[3] = { n, n, n };

		check_stream(d, (uint64_t)n);
	}
	for (size_t b = 0; b < NELEM(boxes); b++)
		check_stream(boxes[b], 500 + b);
}

/* ---- distributions ------------------------------------------------------ */

static void test_gen_edges_split_evenly(void **state)
{
	enum { N = 6, DRAWS = 2500 };
	static const int D[3] = { N, N, N };
	long low[12] = { 0 }, all[12] = { 0 }, tlow = 0, tall = 0;
	struct rng r;

	(void)state;
	rng_seed(&r, 2024);
	for (int s = 0; s < DRAWS; s++) {
		struct gen_puzzle g;

		assert_int_equal(gen_draw(&r, D, &g), GEN_OK);
		for (int z = 0; z < N; z++)
			for (int y = 0; y < N; y++)
				for (int x = 0; x < N; x++) {
					int f[3];

					if (faces_of(D, x, y, z, f) != 2)
						continue;
					/* the edge: its pair of faces, 12 possible */
					int e = f[0] * 6 + f[1], slot = 0;
					static const int pairs[12] = {
						0 * 6 + 2, 0 * 6 + 3, 0 * 6 + 4, 0 * 6 + 5,
						1 * 6 + 2, 1 * 6 + 3, 1 * 6 + 4, 1 * 6 + 5,
						2 * 6 + 4, 2 * 6 + 5, 3 * 6 + 4, 3 * 6 + 5,
					};
					while (pairs[slot] != e)
						slot++;
					all[slot]++;
					low[slot] += g.owner[idx(D, x, y, z)] == f[0];
				}
		gen_puzzle_clear(&g);
	}
	for (int e = 0; e < 12; e++) {
		double p = (double)low[e] / (double)all[e];

		assert_int_equal(all[e], (long)DRAWS * (N - 2));
		assert_true(p > 0.47 && p < 0.53);
		tlow += low[e];
		tall += all[e];
	}
	assert_true(tall >= 100000);
	assert_true((double)tlow / (double)tall > 0.49 &&
	            (double)tlow / (double)tall < 0.51);
}

static void test_gen_corners_uniform(void **state)
{
	enum { N = 4, DRAWS = 6000 };
	static const int D[3] = { N, N, N };
	/* tally[k][j]: corners with k distinct candidates that took the j-th
	 * smallest of them */
	long tally[4][3] = { { 0 } };
	struct rng r;

	(void)state;
	rng_seed(&r, 77);
	for (int s = 0; s < DRAWS; s++) {
		struct gen_puzzle g;

		assert_int_equal(gen_draw(&r, D, &g), GEN_OK);
		for (int z = 0; z < N; z += N - 1)
			for (int y = 0; y < N; y += N - 1)
				for (int x = 0; x < N; x += N - 1) {
					int nb[3] = {
						g.owner[idx(D, x ? x - 1 : 1, y, z)],
						g.owner[idx(D, x, y ? y - 1 : 1, z)],
						g.owner[idx(D, x, y, z ? z - 1 : 1)],
					};
					int o = g.owner[idx(D, x, y, z)], k = 0, j = -1;

					for (int f = 0; f < 6; f++)
						if (nb[0] == f || nb[1] == f || nb[2] == f) {
							if (f == o)
								j = k;
							k++;
						}
					assert_true(j >= 0);
					tally[k][j]++;
				}
		gen_puzzle_clear(&g);
	}
	/* No face is on all three neighbour edges, so k is 2 or 3. */
	assert_int_equal(tally[1][0], 0);
	for (int k = 2; k <= 3; k++) {
		long tot = 0;
		double chi = 0;

		for (int j = 0; j < k; j++)
			tot += tally[k][j];
		assert_true(tot > 5000);
		for (int j = 0; j < k; j++) {
			double e = (double)tot / k, dv = (double)tally[k][j] - e;

			chi += dv * dv / e;
		}
		/* 0.1% points for 1 and 2 degrees of freedom */
		assert_true(chi < (k == 2 ? 10.83 : 13.82));
	}
}

static void test_gen_scramble_hits_all(void **state)
{
	enum { DRAWS = 12000 };
	static const int D[3] = { 3, 3, 3 };
	static unsigned char perm_seen[6 * 6 * 6 * 6 * 6 * 6];
	long fcount[6][6] = { { 0 } }, ocount[6][8] = { { 0 } };
	int perms = 0;
	struct rng r;

	(void)state;
	memset(perm_seen, 0, sizeof perm_seen);
	rng_seed(&r, 5);
	for (int s = 0; s < DRAWS; s++) {
		struct gen_puzzle g;
		int code = 0;

		assert_int_equal(gen_draw(&r, D, &g), GEN_OK);
		for (int i = 0; i < 6; i++) {
			fcount[i][g.face[i]]++;
			ocount[i][g.orient[i]]++;
			code = code * 6 + g.face[i];
		}
		perms += !perm_seen[code];
		perm_seen[code] = 1;
		gen_puzzle_clear(&g);
	}
	assert_int_equal(perms, 720);
	for (int i = 0; i < 6; i++) {
		for (int f = 0; f < 6; f++)
			assert_true(fcount[i][f] > DRAWS / 6 * 0.9 &&
			            fcount[i][f] < DRAWS / 6 * 1.1);
		for (int t = 0; t < 8; t++)
			assert_true(ocount[i][t] > DRAWS / 8 * 0.85 &&
			            ocount[i][t] < DRAWS / 8 * 1.15);
	}
}

/* ---- determinism and golden values -------------------------------------- */

static int same_puzzle(const struct gen_puzzle *a, const struct gen_puzzle *b)
{
	if (memcmp(a->dim, b->dim, sizeof a->dim) ||
	    memcmp(a->owner, b->owner, volume(a->dim)) ||
	    memcmp(a->face, b->face, sizeof a->face) ||
	    memcmp(a->orient, b->orient, sizeof a->orient) ||
	    memcmp(a->pw, b->pw, sizeof a->pw) || memcmp(a->ph, b->ph, sizeof a->ph))
		return 0;
	for (int i = 0; i < 6; i++)
		if (memcmp(a->piece[i], b->piece[i], (size_t)a->pw[i] * a->ph[i]))
			return 0;
	return 1;
}

static void test_gen_same_seed_same_bytes(void **state)
{
	(void)state;
	for (int n = 3; n <= 8; n++)
		for (uint64_t seed = 0; seed < 20; seed++) {
			struct gen_puzzle a, b;

			draw_cube(seed, n, &a);
			draw_cube(seed, n, &b);
			assert_true(same_puzzle(&a, &b));
			gen_puzzle_clear(&a);
			gen_puzzle_clear(&b);
		}
}

static void test_gen_different_seeds_differ(void **state)
{
	enum { K = 40 };
	static const int box[3] = { 4, 5, 6 };
	struct gen_puzzle g[K];

	(void)state;
	for (int i = 0; i < K; i++) {
		draw_cube((uint64_t)i, 5, &g[i]);
		for (int j = 0; j < i; j++)
			assert_false(same_puzzle(&g[i], &g[j]));
	}
	for (int i = 0; i < K; i++)
		gen_puzzle_clear(&g[i]);
	for (int i = 0; i < K; i++) {
		draw((uint64_t)i, box, &g[i]);
		for (int j = 0; j < i; j++)
			assert_false(same_puzzle(&g[i], &g[j]));
	}
	for (int i = 0; i < K; i++)
		gen_puzzle_clear(&g[i]);
}

struct golden {
	int n;
	uint64_t seed;
	int face[6], orient[6];
	const char *piece[6]; /* rows of '#'/'.', y = 0 first, no separators */
};

static void check_golden(const struct golden *w)
{
	struct gen_puzzle g;
	int n = w->n;

	draw_cube(w->seed, n, &g);
	assert_memory_equal(g.face, w->face, sizeof g.face);
	assert_memory_equal(g.orient, w->orient, sizeof g.orient);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(g.pw[i], n);
		assert_int_equal(g.ph[i], n);
		assert_int_equal(strlen(w->piece[i]), (size_t)n * n);
		for (int c = 0; c < n * n; c++)
			assert_int_equal(g.piece[i][c], w->piece[i][c] == '#');
	}
	gen_puzzle_clear(&g);
}

/* Pinned outputs: any change to the stream or the conventions fails here
 * and must be announced in the changelog (DESIGN.md §1). */
static void test_gen_golden(void **state)
{
	static const struct golden want[] = {
		/* Checked by hand: the 26 cells split 7 bottom, 5 top, 5 right,
		 * 3 each for the rest; neighbouring face views agree on every
		 * edge; e.g. piece 4 (bottom, t = 6) turned over and given a half
		 * turn reads ###/###/..# from below. */
		{ 3, 1, { 3, 0, 1, 4, 5, 2 }, { 1, 3, 6, 6, 7, 0 },
		  { "..#" ".##" "...",
		    ".##" ".#." "...",
		    "..." "###" "#.#",
		    "..#" "###" "###",
		    ".#." "###" ".#.",
		    "#.." "##." "..." } },
		/* 98 cells: 20 bottom, 19 top, 18 front, 16 back, 13 right,
		 * 12 left; every 3x3 centre full. */
		{ 5, 42, { 4, 3, 1, 2, 0, 5 }, { 6, 4, 2, 1, 5, 0 },
		  { ".##.#" "#####" "#####" "#####" "#..#.",
		    "....." ".####" "#####" "#####" "#..#.",
		    "....#" ".####" ".###." ".####" "..#..",
		    "..#.." "####." "#####" "#####" "#.##.",
		    "...#." ".###." ".####" ".###." "...#.",
		    "#####" "#####" ".###." "#####" "....#" } },
	};

	(void)state;
	for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
		check_golden(&want[k]);
}

/* What a maker gets from one candidate: puzzle.puz's bytes (puz_write of
 * gen_to_puzzle) and the answer's bytes. Both malloc'ed. */
static void render(uint64_t seed, const int dim[3], char **puz, size_t *puzlen,
                   char **ans, size_t *anslen)
{
	struct gen_puzzle g;
	struct puzzle p;
	FILE *fp;

	draw(seed, dim, &g);
	assert_int_equal(gen_to_puzzle(&g, seed, &p), GEN_OK);
	*puz = NULL;
	fp = open_memstream(puz, puzlen);
	assert_non_null(fp);
	assert_int_equal(puz_write(fp, &p), PUZ_OK);
	assert_int_equal(fclose(fp), 0);
	*ans = NULL;
	fp = open_memstream(ans, anslen);
	assert_non_null(fp);
	assert_int_equal(gen_write_answer(fp, &g), GEN_OK);
	assert_int_equal(fclose(fp), 0);
	puz_clear(&p);
	gen_puzzle_clear(&g);
}

/* A cube drawn as dim {n, n, n} writes exactly the bytes the cube-only
 * generator wrote (commit c776d07) for its first candidate: puzzle.puz and
 * the answer, pinned by length and FNV-1a hash. size5-seed42 is also the
 * command-line golden (tests/golden/size5-seed42: 494 and 2072 bytes). */
static void test_gen_cube_bytes_as_before(void **state)
{
	static const struct {
		int n;
		uint64_t seed, puz_hash;
		size_t puz_len;
		uint64_t ans_hash;
		size_t ans_len;
	} want[] = {
		{ 3, 1, UINT64_C(0x19677eb1c0afebd6), 268, UINT64_C(0x118a27887539dc55), 1834 },
		{ 4, 7, UINT64_C(0xe0488916b391acb9), 361, UINT64_C(0x88f6e793f5623c45), 2000 },
		{ 5, 42, UINT64_C(0xf487e93970c5c2ae), 494, UINT64_C(0x983c2ef8560ea5c9), 2072 },
		{ 6, 3, UINT64_C(0xb6b4e3f29aeb5301), 667, UINT64_C(0x042258a1c2d5cb22), 2260 },
		{ 8, 2026, UINT64_C(0x0cc0acd3454e6249), 1179, UINT64_C(0xbe39650a1bceba82), 2590 },
		{ 12, 99, UINT64_C(0x2e9b062c2a600582), 2998, UINT64_C(0xefc5999dd2481b5f), 3689 },
	};

	(void)state;
	for (size_t k = 0; k < NELEM(want); k++) {
		const int dim[3] = { want[k].n, want[k].n, want[k].n };
		char *puz, *ans;
		size_t puzlen, anslen;

		render(want[k].seed, dim, &puz, &puzlen, &ans, &anslen);
		assert_int_equal(puzlen, want[k].puz_len);
		assert_true(fnv1a(puz, puzlen) == want[k].puz_hash);
		assert_int_equal(anslen, want[k].ans_len);
		assert_true(fnv1a(ans, anslen) == want[k].ans_hash);
		/* a cube's faces are named without sizes, as before */
		assert_non_null(strstr(ans, "\nbottom (-Z): piece "));
		assert_null(strstr(ans, "box"));
		free(puz);
		free(ans);
	}
}

/* Boxes: the same seed and size give the same bytes; another size (even
 * the same sides in another order) with the same seed gives other pieces. */
static void test_gen_box_determinism(void **state)
{
	enum { SEEDS = 6 };
	static const int dims[][3] = {
		{ 3, 4, 5 }, { 5, 4, 3 }, { 4, 3, 5 }, { 4, 5, 6 }, { 6, 5, 4 },
		{ 3, 3, 4 }, { 4, 3, 3 }, { 3, 4, 3 }, { 3, 3, 10 }, { 5, 5, 5 },
	};
	char *puz[NELEM(dims)], *ans[NELEM(dims)];
	size_t puzlen[NELEM(dims)], anslen[NELEM(dims)];

	(void)state;
	for (uint64_t seed = 0; seed < SEEDS; seed++) {
		uint64_t s = seed * UINT64_C(0x9e3779b97f4a7c15);

		for (size_t i = 0; i < NELEM(dims); i++) {
			char *p2, *a2;
			size_t p2len, a2len;

			render(s, dims[i], &puz[i], &puzlen[i], &ans[i], &anslen[i]);
			render(s, dims[i], &p2, &p2len, &a2, &a2len);
			assert_int_equal(p2len, puzlen[i]);
			assert_memory_equal(p2, puz[i], p2len);
			assert_int_equal(a2len, anslen[i]);
			assert_memory_equal(a2, ans[i], a2len);
			free(p2);
			free(a2);
		}
		for (size_t i = 0; i < NELEM(dims); i++)
			for (size_t j = 0; j < i; j++) {
				/* compare the pieces, not the name or size lines */
				const char *pi = strstr(puz[i], "\npiece ");
				const char *pj = strstr(puz[j], "\npiece ");

				assert_non_null(pi);
				assert_non_null(pj);
				assert_true(strcmp(pi, pj) != 0);
				assert_true(anslen[i] != anslen[j] ||
				            memcmp(ans[i], ans[j], anslen[i]) != 0);
			}
		for (size_t i = 0; i < NELEM(dims); i++) {
			free(puz[i]);
			free(ans[i]);
		}
	}
}

/* ---- the answer sheet --------------------------------------------------- */

static char *read_all(FILE *fp)
{
	long len;
	char *buf;

	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	len = ftell(fp);
	assert_true(len > 0);
	rewind(fp);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = '\0';
	return buf;
}

static int count_sub(const char *hay, const char *needle)
{
	int c = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		c++;
	return c;
}

/* The answer for 'g' names every face and every piece once, its words
 * agree with orient[], and its pictures agree with the drawings and the
 * face views. A box's faces carry their sizes, a cube's do not. */
static void check_answer(const struct gen_puzzle *g)
{
	static const int order[6] = {
		GEN_ZMIN, GEN_ZMAX, GEN_YMIN, GEN_YMAX, GEN_XMIN, GEN_XMAX,
	};
	static const char *const axis[6] = { "-X", "+X", "-Y", "+Y", "-Z", "+Z" };
	static const char *const turns[4] = {
		"do not turn it", "a quarter turn clockwise", "a half turn",
		"a quarter turn anticlockwise",
	};
	unsigned char view[GEN_MAX_SIZE * GEN_MAX_SIZE];
	FILE *fp = tmpfile();
	char *text, *line;
	const char *prev = NULL;
	int cube = is_cube(g->dim);

	assert_non_null(fp);
	assert_int_equal(gen_write_answer(fp, g), GEN_OK);
	text = read_all(fp);
	fclose(fp);
	assert_non_null(strstr(text, cube ? "How to put the cube together\n" :
	                                    "How to put the box together\n"));
	if (!cube)
		assert_null(strstr(text, "cube"));
	for (int p = 1; p <= 6; p++) {
		char s[32];

		snprintf(s, sizeof s, "piece %d.", p);
		assert_int_equal(count_sub(text, s), 1);
	}
	for (int k = 0; k < 6; k++) {
		int f = order[k], p = piece_on(g, f), w, h;
		int pw = g->pw[p - 1], ph = g->ph[p - 1];
		int col = 2 + (pw < 8 ? 8 : pw) + 3;
		char head[64];

		ref_face_dims(g->dim, f, &w, &h);
		snprintf(head, sizeof head, "\n%s (", gen_face_name(f));
		assert_int_equal(count_sub(text, head), 1);
		if (cube)
			snprintf(head, sizeof head, "\n%s (%s): piece %d. ",
			         gen_face_name(f), axis[f], p);
		else
			snprintf(head, sizeof head, "\n%s (%s, %dx%d): piece %d. ",
			         gen_face_name(f), axis[f], w, h, p);
		assert_int_equal(count_sub(text, head), 1);
		line = strstr(text, head) + 1;
		/* faces come in the documented order */
		assert_true(prev == NULL || line > prev);
		prev = line;
		{
			int t = g->orient[p - 1];
			char *eol = strchr(line, '\n');
			char *over = strstr(line, "Turn it over");
			char *tw = strstr(line, turns[t & 3]);

			assert_int_equal(over != NULL && over < eol, (t & 4) != 0);
			assert_true(tw != NULL && tw < eol);
		}
		/* skip the title and the "as drawn / in place" line */
		line = strchr(line, '\n') + 1;
		assert_int_equal(strncmp(line, "  as drawn", 10), 0);
		assert_int_equal(strncmp(line + col, "in place\n", 9), 0);
		line = strchr(line, '\n') + 1;
		gen_face_view(g, f, view);
		for (int y = 0; y < ph || y < h; y++) {
			char *eol = strchr(line, '\n');

			assert_non_null(eol);
			for (int x = 0; x < pw && y < ph; x++)
				assert_int_equal(line[2 + x] == '#',
				                 g->piece[p - 1][x + pw * y]);
			for (int x = 0; x < w && y < h; x++)
				assert_int_equal(line[col + x] == '#', view[x + w * y] != 0);
			/* a row ends after its last picture */
			assert_int_equal(eol - line, y < h ? col + w : 2 + pw);
			line = eol + 1;
		}
	}
	free(text);
}

static void test_gen_write_answer_contents(void **state)
{
	(void)state;
	for (int n = 3; n <= 9; n += 3)
		for (uint64_t seed = 0; seed < 10; seed++) {
			struct gen_puzzle g;

			draw_cube(seed, n, &g);
			check_answer(&g);
			gen_puzzle_clear(&g);
		}
	for (size_t b = 0; b < NELEM(boxes); b++)
		for (uint64_t seed = 0; seed < 10; seed++) {
			struct gen_puzzle g;

			draw(seed, boxes[b], &g);
			check_answer(&g);
			gen_puzzle_clear(&g);
		}
}

/* A 4x5x6 box names each face with its size as seen from outside. */
static void test_gen_write_answer_box_sizes(void **state)
{
	static const int dim[3] = { 4, 5, 6 };
	static const char *const heads[6] = {
		"\nbottom (-Z, 4x5): piece ", "\ntop (+Z, 4x5): piece ",
		"\nfront (-Y, 4x6): piece ", "\nback (+Y, 4x6): piece ",
		"\nleft (-X, 5x6): piece ", "\nright (+X, 5x6): piece ",
	};
	struct gen_puzzle g;
	FILE *fp = tmpfile();
	char *text;
	const char *prev = NULL;

	(void)state;
	assert_non_null(fp);
	draw(1, dim, &g);
	assert_int_equal(gen_write_answer(fp, &g), GEN_OK);
	text = read_all(fp);
	fclose(fp);
	assert_int_equal(strncmp(text, "How to put the box together\n", 28), 0);
	for (int k = 0; k < 6; k++) {
		const char *at = strstr(text, heads[k]);

		assert_non_null(at);
		assert_true(prev == NULL || at > prev);
		prev = at;
	}
	free(text);
	gen_puzzle_clear(&g);
}

static void test_gen_write_answer_eio(void **state)
{
	static const int box[3] = { 4, 5, 6 };
	struct gen_puzzle g[2];
	FILE *fp;

	(void)state;
	draw_cube(1, 5, &g[0]);
	draw(1, box, &g[1]);
	for (int k = 0; k < 2; k++) {
		fp = fopen("/dev/full", "w");
		if (!fp) {
			gen_puzzle_clear(&g[0]);
			gen_puzzle_clear(&g[1]);
			skip();
		}
		/* Unbuffered: the first write fails. */
		assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
		assert_int_equal(gen_write_answer(fp, &g[k]), GEN_EIO);
		fclose(fp);
		/* Buffered: the failure shows when the answer is flushed. */
		fp = fopen("/dev/full", "w");
		assert_non_null(fp);
		assert_int_equal(gen_write_answer(fp, &g[k]), GEN_EIO);
		fclose(fp);
	}
	gen_puzzle_clear(&g[0]);
	gen_puzzle_clear(&g[1]);
}

/* ---- the puzzle file ---------------------------------------------------- */

static void test_gen_to_puzzle(void **state)
{
	(void)state;
	for (int n = 3; n <= 7; n++) {
		struct gen_puzzle g;
		uint64_t seed = UINT64_C(18446744073709551615) - (uint64_t)n;

		draw_cube(seed, n, &g);
		for (int i = 0; i < 6; i++) {
			assert_int_equal(g.pw[i], n);
			assert_int_equal(g.ph[i], n);
		}
		check_to_puzzle(&g, seed);
		gen_puzzle_clear(&g);
	}
	for (size_t b = 0; b < NELEM(boxes); b++) {
		struct gen_puzzle g;
		uint64_t seed = UINT64_C(18446744073709551615) - b;

		draw(seed, boxes[b], &g);
		check_to_puzzle(&g, seed);
		gen_puzzle_clear(&g);
	}
}

static char *write_text(const struct puzzle *p, size_t *len)
{
	char *text = NULL;
	FILE *fp = open_memstream(&text, len);
	assert_non_null(fp);
	assert_int_equal(puz_write(fp, p), PUZ_OK);
	assert_int_equal(fclose(fp), 0);
	return text;
}

/* Generated puzzles survive writing and reading exactly: the same goal,
 * pieces, names, size and seed, and the same bytes when written again. */
static void round_trip(const int dim[3], uint64_t big)
{
	struct rng r;
	rng_seed(&r, big);
	struct gen_puzzle g = {0};
	assert_int_equal(gen_draw(&r, dim, &g), GEN_OK);
	struct puzzle p, q;
	assert_int_equal(gen_to_puzzle(&g, big, &p), GEN_OK);
	size_t len, len2;
	char *text = write_text(&p, &len);
	struct puz_error e;
	assert_int_equal(puz_read_mem(text, len, &q, &e), PUZ_OK);
	assert_string_equal(q.name, p.name);
	assert_memory_equal(q.size, dim, sizeof q.size);
	assert_true(q.has_seed);
	assert_true(q.seed == big);
	assert_int_equal(q.npieces, 6);
	assert_int_equal(q.goal.nx, dim[0]);
	assert_int_equal(q.goal.ny, dim[1]);
	assert_int_equal(q.goal.nz, dim[2]);
	assert_memory_equal(q.goal.cells, p.goal.cells, volume(dim));
	for (int i = 0; i < 6; i++) {
		assert_string_equal(q.pieces[i].name, p.pieces[i].name);
		assert_int_equal(q.pieces[i].shape.nx, g.pw[i]);
		assert_int_equal(q.pieces[i].shape.ny, g.ph[i]);
		assert_int_equal(q.pieces[i].shape.nz, 1);
		assert_memory_equal(q.pieces[i].shape.cells, g.piece[i],
		                    (size_t)g.pw[i] * g.ph[i]);
	}
	char *again = write_text(&q, &len2);
	assert_int_equal(len2, len);
	assert_memory_equal(again, text, len);
	free(text);
	free(again);
	puz_clear(&p);
	puz_clear(&q);
	gen_puzzle_clear(&g);
}

static void test_gen_puzzle_file_round_trip(void **state)
{
	(void)state;
	for (int n = GEN_MIN_SIZE; n <= 12; n++)
		for (uint64_t seed = 0; seed < 20; seed++) {
			const int dim[3] = { n, n, n };

			round_trip(dim, seed * 0x9e3779b97f4a7c15u);
		}
	for (size_t b = 0; b < NELEM(boxes); b++)
		for (uint64_t seed = 0; seed < 10; seed++)
			round_trip(boxes[b], seed * 0x9e3779b97f4a7c15u + b);
}

static void test_gen_puzzle_clear_accepts_zeroed(void **state)
{
	static const int box[3] = { 3, 4, 5 };
	struct gen_puzzle g;

	(void)state;
	memset(&g, 0, sizeof g);
	gen_puzzle_clear(&g);
	draw_cube(3, 4, &g);
	gen_puzzle_clear(&g);
	assert_null(g.owner);
	for (int i = 0; i < 6; i++)
		assert_null(g.piece[i]);
	gen_puzzle_clear(&g);
	draw(3, box, &g);
	gen_puzzle_clear(&g);
	assert_null(g.owner);
	for (int i = 0; i < 6; i++)
		assert_null(g.piece[i]);
}

/* ---- counts: fast path, generic search and brute force ------------------ */

/* |G| of a box shell of plates, mirror images included (DESIGN §2). */
static int box_group_order(const int d[3])
{
	int equal = (d[0] == d[1]) + (d[1] == d[2]) + (d[0] == d[2]);

	return equal == 3 ? 48 : equal == 1 ? 16 : 8;
}

struct tally {
	int cases, unique, multi, fast, fast_multi;
};

/* One candidate counted three ways; all must agree on solutions,
 * assemblies and |G|. A disagreement is printed with the box and seed. */
static void count_three_ways(const int dim[3], uint64_t seed, struct tally *t)
{
	struct gen_puzzle g;
	struct puzzle p;
	struct solve_opts o = { 0 }, og = { 0 };
	struct solve_result a, b, c;
	struct brute_result br;
	int order = box_group_order(dim);

	og.generic = true;
	draw(seed, dim, &g);
	assert_int_equal(gen_count(&g, &o, &a), SOLVE_OK);
	assert_int_equal(gen_to_puzzle(&g, seed, &p), GEN_OK);
	assert_int_equal(solve_puzzle(&p, &og, &b), SOLVE_OK);
	assert_int_equal(solve_puzzle(&p, &o, &c), SOLVE_OK);
	assert_int_equal(brute_count(&p, &br), 0);
	if (a.solutions != br.solutions || b.solutions != br.solutions ||
	    c.solutions != br.solutions || a.assemblies != br.assemblies ||
	    b.assemblies != br.assemblies || c.assemblies != br.assemblies ||
	    a.group_order != order || b.group_order != order ||
	    c.group_order != order || br.group_order != order) {
		print_error("box %dx%dx%d seed %llu: gen_count %llu solutions "
		            "%llu assemblies |G| %d (fast path %d); generic %llu %llu "
		            "%d; solve_puzzle %llu %llu %d (fast path %d); brute "
		            "%llu %llu %d; expected |G| %d\n",
		            dim[0], dim[1], dim[2], (unsigned long long)seed,
		            (unsigned long long)a.solutions,
		            (unsigned long long)a.assemblies, a.group_order,
		            a.fast_path, (unsigned long long)b.solutions,
		            (unsigned long long)b.assemblies, b.group_order,
		            (unsigned long long)c.solutions,
		            (unsigned long long)c.assemblies, c.group_order,
		            c.fast_path, (unsigned long long)br.solutions,
		            (unsigned long long)br.assemblies, br.group_order, order);
		fail();
	}
	assert_true(a.complete && b.complete && c.complete);
	assert_true(br.mirror_closed && a.mirror_closed && b.mirror_closed);
	assert_false(b.fast_path);
	/* the file route takes the fast path exactly when the plates do */
	assert_int_equal(c.fast_path, a.fast_path);
	/* the generated assembly is one of them */
	assert_true(br.solutions >= 1);
	t->cases++;
	t->unique += br.solutions == 1;
	t->multi += br.solutions > 1;
	t->fast += a.fast_path;
	t->fast_multi += a.fast_path && br.solutions > 1;
	solve_result_clear(&a);
	solve_result_clear(&b);
	solve_result_clear(&c);
	puz_clear(&p);
	gen_puzzle_clear(&g);
}

/* Small boxes, many seeds, unique or not: gen_count() (the shell fast path
 * where every plate holds a 2 x 2 block), the generic search and the brute
 * force agree. The minimum counts keep the test from drifting to only one
 * kind of puzzle or never reaching the fast path. */
static void test_gen_box_counts_match_brute_force(void **state)
{
	static const struct {
		int dim[3];
		int seeds;
		int min_unique, min_multi, min_fast;
	} cases[] = {
		/* box, seeds, at least: unique, not unique, by the fast path;
		 * 4x4 and 4x5 faces have 2x2 centres, so 4x4xN always takes the
		 * fast path; 3-wide faces only when a border completes a block */
		{ { 3, 3, 4 }, 40, 10, 15, 0 },
		{ { 3, 4, 4 }, 40, 20, 6, 3 },
		{ { 3, 4, 5 }, 60, 40, 4, 8 },
		{ { 4, 4, 5 }, 100, 80, 3, 100 },
		{ { 3, 3, 6 }, 40, 25, 3, 0 },
		{ { 3, 3, 8 }, 30, 25, 0, 1 },
		{ { 4, 4, 4 }, 40, 20, 6, 40 },
	};
	struct tally all = { 0 };

	(void)state;
	for (size_t k = 0; k < NELEM(cases); k++) {
		struct tally t = { 0 };

		for (int s = 0; s < cases[k].seeds; s++)
			count_three_ways(cases[k].dim, 1000 * k + (uint64_t)s, &t);
		print_message("%dx%dx%d: %d cases, %d unique, %d not, %d fast "
		              "(%d of them not unique)\n",
		              cases[k].dim[0], cases[k].dim[1], cases[k].dim[2],
		              t.cases, t.unique, t.multi, t.fast, t.fast_multi);
		assert_true(t.unique >= cases[k].min_unique);
		assert_true(t.multi >= cases[k].min_multi);
		assert_true(t.fast >= cases[k].min_fast);
		all.unique += t.unique;
		all.multi += t.multi;
		if (!is_cube(cases[k].dim))
			all.fast_multi += t.fast_multi;
	}
	assert_true(all.unique >= 200 && all.multi >= 40);
	/* the fast path also counted non-unique boxes (not only cubes) */
	assert_true(all.fast_multi >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_face_dims_and_orientation),
		cmocka_unit_test(test_gen_face_cell_net),
		cmocka_unit_test(test_gen_face_names),
		cmocka_unit_test(test_gen_draw_follows_design_rules),
		cmocka_unit_test(test_gen_box_follows_design_rules),
		cmocka_unit_test(test_gen_draw_extreme_sizes),
		cmocka_unit_test(test_gen_reconstruct_from_drawings),
		cmocka_unit_test(test_gen_draw_follows_documented_stream),
		cmocka_unit_test(test_gen_edges_split_evenly),
		cmocka_unit_test(test_gen_corners_uniform),
		cmocka_unit_test(test_gen_scramble_hits_all),
		cmocka_unit_test(test_gen_same_seed_same_bytes),
		cmocka_unit_test(test_gen_different_seeds_differ),
		cmocka_unit_test(test_gen_golden),
		cmocka_unit_test(test_gen_cube_bytes_as_before),
		cmocka_unit_test(test_gen_box_determinism),
		cmocka_unit_test(test_gen_write_answer_contents),
		cmocka_unit_test(test_gen_write_answer_box_sizes),
		cmocka_unit_test(test_gen_write_answer_eio),
		cmocka_unit_test(test_gen_to_puzzle),
		cmocka_unit_test(test_gen_puzzle_file_round_trip),
		cmocka_unit_test(test_gen_puzzle_clear_accepts_zeroed),
		cmocka_unit_test(test_gen_box_counts_match_brute_force),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
