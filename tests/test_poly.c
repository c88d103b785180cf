/* test_poly.c: the 48 symmetries, normal forms, congruence, orientations. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "solver/poly.h"

static struct shape make(const int (*c)[3], size_t n)
{
	struct grid g;
	assert_int_equal(puz_grid_init(&g, 4, 4, 4), PUZ_OK);
	for (size_t i = 0; i < n; i++)
		g.cells[puz_grid_index(&g, c[i][0], c[i][1], c[i][2])] = 1;
	struct shape s;
	assert_int_equal(poly_from_grid(&g, &s), POLY_OK);
	puz_grid_clear(&g);
	return s;
}

static size_t count_orientations(const int (*c)[3], size_t n)
{
	struct shape s = make(c, n), *o;
	size_t k;
	assert_int_equal(poly_orientations(&s, &o, &k), POLY_OK);
	poly_shapes_free(o, k);
	poly_shape_clear(&s);
	return k;
}

static void test_poly_group_closed(void **state)
{
	(void)state;
	int proper = 0;
	for (int a = 0; a < POLY_NSYM; a++) {
		proper += poly_sym_proper(a);
		int inv = poly_sym_inverse(a);
		assert_true(inv >= 0);
		assert_int_equal(poly_sym_compose(a, inv), 0);
		for (int b = 0; b < POLY_NSYM; b++) {
			int c = poly_sym_compose(a, b);
			assert_true(c >= 0 && c < POLY_NSYM);
			/* determinants multiply */
			assert_int_equal(poly_sym_proper(c),
			                 poly_sym_proper(a) == poly_sym_proper(b));
		}
	}
	assert_int_equal(proper, 24);
	assert_true(poly_sym_proper(0));
	int v[3] = {1, 2, 3}, o[3];
	poly_sym_apply(0, v, o);
	assert_memory_equal(v, o, sizeof v);
	/* symmetry 1 is the mirror x -> -x used for mirror images */
	poly_sym_apply(1, v, o);
	assert_int_equal(o[0], -1);
	assert_int_equal(o[1], 2);
	assert_int_equal(o[2], 3);
}

static void test_poly_orientation_counts(void **state)
{
	(void)state;
	static const int mono[][3] = {{0, 0, 0}};
	static const int domino[][3] = {{0, 0, 0}, {1, 0, 0}};
	static const int ltri[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
	static const int cube[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
	                              {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
	static const int lfour[][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
	/* Soma A: chiral, but with a half-turn axis: 12 orientations */
	static const int soma_a[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 1}};
	static const int tee[][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}};
	assert_int_equal(count_orientations(mono, 1), 1);
	assert_int_equal(count_orientations(domino, 2), 3);
	assert_int_equal(count_orientations(ltri, 3), 12);
	assert_int_equal(count_orientations(cube, 8), 1);
	assert_int_equal(count_orientations(lfour, 4), 24);
	assert_int_equal(count_orientations(soma_a, 4), 12);
	assert_int_equal(count_orientations(tee, 4), 12);
}

static void test_poly_canonical_congruence(void **state)
{
	(void)state;
	static const int a[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 1}};
	struct shape s = make(a, 4), ca;
	assert_int_equal(poly_canonical(&s, &ca), POLY_OK);
	for (int g = 0; g < POLY_NSYM; g++) {
		struct shape t, ct;
		assert_int_equal(poly_transform(&s, g, &t), POLY_OK);
		assert_int_equal(poly_canonical(&t, &ct), POLY_OK);
		/* rotations are congruent; this piece is chiral, so mirror
		 * images are not */
		assert_int_equal(poly_equal(&ca, &ct), poly_sym_proper(g));
		poly_shape_clear(&t);
		poly_shape_clear(&ct);
	}
	poly_shape_clear(&s);
	poly_shape_clear(&ca);
}

static void test_poly_normalised(void **state)
{
	(void)state;
	static const int a[][3] = {{3, 2, 1}, {3, 3, 1}, {2, 3, 1}};
	struct shape s = make(a, 3);
	assert_int_equal(s.n, 3);
	/* translated to the origin, sorted by z, y, x */
	assert_int_equal(s.cells[0], poly_pack(1, 0, 0));
	assert_int_equal(s.cells[1], poly_pack(0, 1, 0));
	assert_int_equal(s.cells[2], poly_pack(1, 1, 0));
	poly_shape_clear(&s);
}

/* Colours ride along: a domino coloured a-b turned end for end is b-a in
 * place, so the two are congruent (same canonical form), while a-a and
 * a-b are not; a colour never changes under any of the 48 symmetries. */
static void test_poly_colour_tags(void **state)
{
	(void)state;
	struct grid g;
	assert_int_equal(puz_grid_init(&g, 2, 1, 1), PUZ_OK);
	g.cells[0] = PUZ_CELL + 1;
	g.cells[1] = PUZ_CELL + 2;
	struct shape ab, ba, aa, cab, cba, caa;
	assert_int_equal(poly_from_grid(&g, &ab), POLY_OK);
	assert_int_equal(poly_tag(ab.cells[0]), 1);
	assert_int_equal(poly_tag(ab.cells[1]), 2);
	g.cells[0] = PUZ_CELL + 2;
	g.cells[1] = PUZ_CELL + 1;
	assert_int_equal(poly_from_grid(&g, &ba), POLY_OK);
	g.cells[0] = g.cells[1] = PUZ_CELL + 1;
	assert_int_equal(poly_from_grid(&g, &aa), POLY_OK);
	assert_false(poly_equal(&ab, &ba));
	assert_int_equal(poly_canonical(&ab, &cab), POLY_OK);
	assert_int_equal(poly_canonical(&ba, &cba), POLY_OK);
	assert_int_equal(poly_canonical(&aa, &caa), POLY_OK);
	assert_true(poly_equal(&cab, &cba));
	assert_false(poly_equal(&cab, &caa));
	for (int s = 0; s < POLY_NSYM; s++) {
		struct shape t;
		assert_int_equal(poly_transform(&ab, s, &t), POLY_OK);
		int tags = poly_tag(t.cells[0]) * 10 + poly_tag(t.cells[1]);
		assert_true(tags == 12 || tags == 21);
		poly_shape_clear(&t);
	}
	poly_shape_clear(&ab);
	poly_shape_clear(&ba);
	poly_shape_clear(&aa);
	poly_shape_clear(&cab);
	poly_shape_clear(&cba);
	poly_shape_clear(&caa);
	puz_grid_clear(&g);
}

static int cmp_cell(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Shapes past the few cells of a piece (a goal of hundreds, turned by
 * other paths than a piece's: read off a box when they fill it densely,
 * else sorted by bytes): on random shapes of 49 to 3,000 cells in a box
 * of up to 20 a side, filling 6 % or 37 % of it, some with colour tags,
 * every transform equals the cells turned one by one by
 * poly_sym_apply(), moved to the origin and sorted by qsort; the
 * canonical form is the least of the rotations, and the orientations are
 * the distinct rotations. */
static void test_poly_big_shapes(void **state)
{
	(void)state;
	uint64_t seed = 12345;
	for (int round = 0; round < 40; round++) {
		seed = seed * 6364136223846793005u + 1442695040888963407u;
		int nx = 3 + (int)(seed >> 33) % 18, ny = 3 + (int)(seed >> 40) % 18,
		    nz = 3 + (int)(seed >> 47) % 18;
		struct grid g;
		assert_int_equal(puz_grid_init(&g, nx, ny, nz), PUZ_OK);
		size_t n = 0, cells = (size_t)nx * ny * nz;
		for (size_t c = 0; c < cells; c++) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			if ((seed >> 60) < (round % 2 ? 6u : 1u)) {
				g.cells[c] = (unsigned char)(PUZ_CELL +
				             (round % 3 ? (seed >> 50) % 4 : 0));
				n++;
			}
		}
		struct shape s;
		assert_int_equal(poly_from_grid(&g, &s), POLY_OK);
		assert_int_equal(s.n, n);
		if (n <= 48) {
			poly_shape_clear(&s);
			puz_grid_clear(&g);
			continue;
		}
		uint32_t *want = malloc(n * sizeof *want);
		int (*turned)[3] = malloc(n * sizeof *turned);
		assert_non_null(want);
		assert_non_null(turned);
		struct shape least = {0};
		for (int sym = 0; sym < POLY_NSYM; sym++) {
			int lo[3] = {1 << 20, 1 << 20, 1 << 20};
			for (size_t i = 0; i < n; i++) {
				int in[3] = {poly_x(s.cells[i]), poly_y(s.cells[i]),
				             poly_z(s.cells[i])};
				poly_sym_apply(sym, in, turned[i]);
				for (int k = 0; k < 3; k++)
					if (turned[i][k] < lo[k])
						lo[k] = turned[i][k];
			}
			for (size_t i = 0; i < n; i++)
				want[i] = poly_pack(turned[i][0] - lo[0], turned[i][1] - lo[1],
				                    turned[i][2] - lo[2]) |
				          (uint32_t)poly_tag(s.cells[i]);
			qsort(want, n, sizeof *want, cmp_cell);
			struct shape t;
			assert_int_equal(poly_transform(&s, sym, &t), POLY_OK);
			assert_int_equal(t.n, n);
			assert_memory_equal(t.cells, want, n * sizeof *want);
			if (poly_sym_proper(sym) &&
			    (!least.cells || poly_compare(&t, &least) < 0)) {
				poly_shape_clear(&least);
				least = t;
			} else {
				poly_shape_clear(&t);
			}
		}
		struct shape canon, *o;
		size_t no;
		assert_int_equal(poly_canonical(&s, &canon), POLY_OK);
		assert_true(poly_equal(&canon, &least));
		assert_int_equal(poly_orientations(&s, &o, &no), POLY_OK);
		for (int sym = 0; sym < POLY_NSYM; sym++) {
			if (!poly_sym_proper(sym))
				continue;
			struct shape t;
			assert_int_equal(poly_transform(&s, sym, &t), POLY_OK);
			bool found = false;
			for (size_t j = 0; j < no; j++)
				found |= poly_equal(&o[j], &t);
			assert_true(found);
			poly_shape_clear(&t);
		}
		for (size_t j = 0; j < no; j++)
			for (size_t k = j + 1; k < no; k++)
				assert_false(poly_equal(&o[j], &o[k]));
		poly_shapes_free(o, no);
		poly_shape_clear(&canon);
		poly_shape_clear(&least);
		free(want);
		free(turned);
		poly_shape_clear(&s);
		puz_grid_clear(&g);
	}
}

/* The flat moves: t = 0 is the identity, t = 1 a clockwise quarter turn
 * (the top-left corner goes to the top right), t = 4 a turn-over; the 8
 * moves of a rectangle are distinct, map it onto its own (or the swapped)
 * rectangle, and poly_flat_inverse() undoes each. */
static void test_poly_flat_moves(void **state)
{
	(void)state;
	static const int dims[][2] = {{4, 4}, {3, 5}, {6, 2}, {1, 3}};
	for (size_t d = 0; d < sizeof dims / sizeof dims[0]; d++) {
		int w = dims[d][0], h = dims[d][1];
		int seen[8][2];
		for (int t = 0; t < 8; t++) {
			int w2 = t & 1 ? h : w, h2 = t & 1 ? w : h;
			for (int y = 0; y < h; y++)
				for (int x = 0; x < w; x++) {
					int u, v, bx, by;
					poly_flat_apply(t, w, h, x, y, &u, &v);
					assert_true(u >= 0 && u < w2 && v >= 0 && v < h2);
					poly_flat_apply(poly_flat_inverse(t), w2, h2, u, v, &bx, &by);
					assert_int_equal(bx, x);
					assert_int_equal(by, y);
				}
			/* the image of an asymmetric pair of cells tells moves apart */
			int u0, v0, u1, v1;
			poly_flat_apply(t, w, h, 0, 0, &u0, &v0);
			poly_flat_apply(t, w, h, 1 % w, 0, &u1, &v1);
			seen[t][0] = u0 * 100 + v0;
			seen[t][1] = u1 * 100 + v1;
			for (int s = 0; s < t && w > 1 && h > 1; s++)
				assert_false(seen[s][0] == seen[t][0] && seen[s][1] == seen[t][1]);
		}
		int u, v;
		poly_flat_apply(0, w, h, 1 % w, 2 % h, &u, &v);
		assert_true(u == 1 % w && v == 2 % h);
		poly_flat_apply(1, w, h, 0, 0, &u, &v);
		assert_true(u == h - 1 && v == 0);
		poly_flat_apply(4, w, h, 0, 0, &u, &v);
		assert_true(u == w - 1 && v == 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poly_group_closed),
		cmocka_unit_test(test_poly_orientation_counts),
		cmocka_unit_test(test_poly_canonical_congruence),
		cmocka_unit_test(test_poly_normalised),
		cmocka_unit_test(test_poly_colour_tags),
		cmocka_unit_test(test_poly_big_shapes),
		cmocka_unit_test(test_poly_flat_moves),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
