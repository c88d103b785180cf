/* test_disasm.c: the disassembler (solver/disasm.h) on hand-made
 * assemblies with known answers, against the brute force of
 * tests/disref.c on random ones, under symmetry, at its bounds and out of
 * memory; and solve --disassemble's counts (solver/solvedis.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "solver/disasm.h"
#include "solver/poly.h"
#include "solver/solve.h"
#include "tests/disref.h"
#include "tests/failmalloc.h"
#include "tests/randpuz.h"

/* An assembly drawn by hand: nz blocks of ny rows of nx characters,
 * '.' empty, 'A'.. piece 0.. */
struct hand {
	int nx, ny, nz;
	unsigned char lab[512];
	size_t np;
};

static void hand_make(struct hand *h, int nx, int ny, int nz,
                      const char *text)
{
	memset(h, 0, sizeof *h);
	h->nx = nx;
	h->ny = ny;
	h->nz = nz;
	size_t n = (size_t)nx * ny * nz, k = 0;
	assert_true(n <= sizeof h->lab);
	for (const char *t = text; *t; t++) {
		if (*t == ' ' || *t == '\n' || *t == '|')
			continue;
		assert_true(k < n);
		h->lab[k] = *t == '.' ? 0 : (unsigned char)(*t - 'A' + 1);
		if (h->lab[k] > h->np)
			h->np = h->lab[k];
		k++;
	}
	assert_int_equal(k, n);
}

/* A cube of side n filled by piece A but for the cells listed (x, y, z
 * triples, -1 ends), the first of them piece B. */
static void hand_cage(struct hand *h, int n, const int *channel)
{
	memset(h, 0, sizeof *h);
	h->nx = h->ny = h->nz = n;
	memset(h->lab, 1, (size_t)n * n * n);
	for (int i = 0; channel[i] >= 0; i += 3)
		h->lab[channel[i] + n * (channel[i + 1] + n * channel[i + 2])] =
			i == 0 ? 2 : 0;
	h->np = 2;
}

static void run(const struct hand *h, struct dis_result *r)
{
	disasm *d = dis_new();
	assert_non_null(d);
	assert_int_equal(dis_run(d, h->nx, h->ny, h->nz, h->lab, h->np, NULL, NULL, r),
	                 DIS_OK);
	dis_free(d);
}

static void expect_level(const struct dis_result *r, const int *lv, size_t n)
{
	assert_int_equal(r->verdict, DIS_APART);
	assert_int_equal(r->nlevel, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(r->level[i], lv[i]);
}

static void test_disasm_two_cubes(void **state)
{
	(void)state;
	struct hand h;
	hand_make(&h, 2, 1, 1, "AB");
	struct dis_result r;
	run(&h, &r);
	expect_level(&r, (const int[]){1}, 1);
	/* BurrTools' order: +x first, piece by piece: B slides off along +x */
	assert_int_equal(r.nmoves, 1);
	assert_int_equal(r.moves[0].group, 2);
	assert_int_equal(r.moves[0].dir, DIS_PX);
	assert_int_equal(r.moves[0].dist, 0);
	assert_null(disref_check(h.nx, h.ny, h.nz, h.lab, h.np, NULL, r.moves,
	                         r.nmoves, r.level, r.nlevel));
	dis_result_clear(&r);
}

/* A cube shut in a cage on every side never comes out. */
static void test_disasm_cage_is_stuck(void **state)
{
	(void)state;
	struct hand h;
	hand_cage(&h, 3, (const int[]){1, 1, 1, -1});
	struct dis_result r;
	run(&h, &r);
	assert_int_equal(r.verdict, DIS_STUCK);
	assert_int_equal(r.nmoves, 0);
	assert_null(r.moves);
	dis_result_clear(&r);
}

/* A cube caged, and eight loose cubes around: every order of taking
 * the loose ones away ends at the cage, stuck. A part found stuck is
 * not searched again when reached in another order, so the search
 * meets about 2^8 parts, not 8! orders of them. */
static void test_disasm_stuck_among_loose(void **state)
{
	(void)state;
	struct hand h;
	memset(&h, 0, sizeof h);
	h.nx = h.ny = 3;
	h.nz = 3 + 2 * 8;
	for (int z = 0; z < 3; z++)
		for (int i = 0; i < 9; i++)
			h.lab[i + 9 * z] = 1;
	h.lab[4 + 9 * 1] = 2;
	for (int c = 0; c < 8; c++)
		h.lab[4 + 9 * (4 + 2 * c)] = (unsigned char)(3 + c);
	h.np = 10;
	struct dis_result r;
	run(&h, &r);
	assert_int_equal(r.verdict, DIS_STUCK);
	assert_true(r.nodes < 20000);
	dis_result_clear(&r);
}

/* B sits in a bent tunnel: one cell along +x, then up and out: level 2. */
static void test_disasm_bent_tunnel_level_2(void **state)
{
	(void)state;
	struct hand h;
	hand_cage(&h, 5, (const int[]){2, 2, 2, 3, 2, 2, 3, 2, 3, 3, 2, 4, -1});
	struct dis_result r;
	run(&h, &r);
	expect_level(&r, (const int[]){2}, 1);
	assert_int_equal(r.nmoves, 2);
	assert_int_equal(r.moves[0].group, 2);
	assert_int_equal(r.moves[0].dir, DIS_PX);
	assert_int_equal(r.moves[0].dist, 1);
	assert_int_equal(r.moves[1].group, 2);
	assert_int_equal(r.moves[1].dir, DIS_PZ);
	assert_int_equal(r.moves[1].dist, 0);
	assert_null(disref_check(h.nx, h.ny, h.nz, h.lab, h.np, NULL, r.moves,
	                         r.nmoves, r.level, r.nlevel));
	dis_result_clear(&r);
}

/* The same tunnel with a lid on top: the lid slides off first (one move),
 * then the tunnel takes two: level 1.2, the lid's part left out of the
 * text (BurrTools writes only parts with a separation of 2 moves or
 * more). */
static void test_disasm_lid_then_tunnel(void **state)
{
	(void)state;
	struct hand h;
	hand_cage(&h, 5, (const int[]){2, 2, 2, 3, 2, 2, 3, 2, 3, 3, 2, 4, -1});
	/* grow the box by a layer z = 5, all piece C */
	struct hand g = {.nx = 5, .ny = 5, .nz = 6, .np = 3};
	memcpy(g.lab, h.lab, 125);
	memset(g.lab + 125, 3, 25);
	struct dis_result r;
	run(&g, &r);
	expect_level(&r, (const int[]){1, 2}, 2);
	assert_int_equal(r.nmoves, 3);
	assert_int_equal(r.moves[0].group, 4); /* C first */
	assert_int_equal(r.moves[0].dist, 0);
	assert_null(disref_check(g.nx, g.ny, g.nz, g.lab, g.np, NULL, r.moves,
	                         r.nmoves, r.level, r.nlevel));
	dis_result_clear(&r);
}

/* A single piece comes apart with no move and no level (documented). */
static void test_disasm_one_piece(void **state)
{
	(void)state;
	struct hand h;
	hand_make(&h, 2, 2, 1, "AA A.");
	struct dis_result r;
	run(&h, &r);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.nlevel, 0);
	assert_int_equal(r.nmoves, 0);
	dis_result_clear(&r);
}

/* A search stopped by its bound is undecided, never stuck; the same run
 * with room decides. */
static void test_disasm_bound_is_undecided(void **state)
{
	(void)state;
	struct hand h;
	hand_cage(&h, 5, (const int[]){2, 2, 2, 3, 2, 2, 3, 2, 3, 3, 2, 4, -1});
	disasm *d = dis_new();
	assert_non_null(d);
	dis_set_max_nodes(d, 1);
	struct dis_result r;
	assert_int_equal(dis_run(d, h.nx, h.ny, h.nz, h.lab, 2, NULL, NULL, &r), DIS_OK);
	assert_int_equal(r.verdict, DIS_BOUND);
	dis_result_clear(&r);
	/* the cage: every position of it kept within 2, so stuck is sure */
	struct hand c;
	hand_cage(&c, 3, (const int[]){1, 1, 1, -1});
	assert_int_equal(dis_run(d, 3, 3, 3, c.lab, 2, NULL, NULL, &r), DIS_OK);
	assert_int_equal(r.verdict, DIS_STUCK);
	dis_result_clear(&r);
	dis_set_max_nodes(d, 0);
	assert_int_equal(dis_run(d, h.nx, h.ny, h.nz, h.lab, 2, NULL, NULL, &r), DIS_OK);
	expect_level(&r, (const int[]){2}, 1);
	dis_result_clear(&r);
	dis_free(d);
}

/* Weights: the heaviest piece stays, so the other side is removed the
 * other way. */
static void test_disasm_weights(void **state)
{
	(void)state;
	struct hand h;
	hand_make(&h, 2, 1, 1, "AB");
	disasm *d = dis_new();
	assert_non_null(d);
	struct dis_result r;
	int w[2] = {1, 5};
	assert_int_equal(dis_run(d, 2, 1, 1, h.lab, 2, w, NULL, &r), DIS_OK);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.nmoves, 1);
	assert_int_equal(r.moves[0].group, 1); /* A goes, along -x */
	assert_int_equal(r.moves[0].dir, DIS_NX);
	assert_null(disref_check(2, 1, 1, h.lab, 2, w, r.moves, r.nmoves,
	                         r.level, r.nlevel));
	dis_result_clear(&r);
	dis_free(d);
}

/* Groups: a cage around a cube, under a lid. The lid comes off, and the
 * caged cube never does: stuck, unless cage and cube are one group, which
 * need not come apart (the whole assembly still must). */
static void test_disasm_groups(void **state)
{
	(void)state;
	struct hand h;
	hand_cage(&h, 3, (const int[]){1, 1, 1, -1});
	struct hand g = {.nx = 3, .ny = 3, .nz = 4, .np = 3};
	memcpy(g.lab, h.lab, 27);
	memset(g.lab + 27, 3, 9);
	disasm *d = dis_new();
	assert_non_null(d);
	struct dis_result r;
	assert_int_equal(dis_run(d, 3, 3, 4, g.lab, 3, NULL, NULL, &r), DIS_OK);
	assert_int_equal(r.verdict, DIS_STUCK);
	dis_result_clear(&r);
	unsigned other[3] = {1, 2, 0}, same[3] = {1, 1, 0}, all[3] = {5, 5, 5};
	assert_int_equal(dis_run(d, 3, 3, 4, g.lab, 3, NULL, other, &r), DIS_OK);
	assert_int_equal(r.verdict, DIS_STUCK);
	dis_result_clear(&r);
	assert_int_equal(dis_run(d, 3, 3, 4, g.lab, 3, NULL, same, &r), DIS_OK);
	expect_level(&r, (const int[]){1}, 1);
	assert_int_equal(r.nmoves, 1);
	assert_int_equal(r.moves[0].group, 4); /* the lid, and nothing more */
	dis_result_clear(&r);
	/* one group for every piece: the top still comes apart first */
	assert_int_equal(dis_run(d, 3, 3, 4, g.lab, 3, NULL, all, &r), DIS_OK);
	assert_int_equal(r.verdict, DIS_APART);
	dis_result_clear(&r);
	assert_int_equal(dis_run(d, 3, 3, 3, h.lab, 2, NULL, all, &r), DIS_OK);
	assert_int_equal(r.verdict, DIS_STUCK);
	dis_result_clear(&r);
	dis_free(d);
}

static void test_disasm_too_big(void **state)
{
	(void)state;
	disasm *d = dis_new();
	assert_non_null(d);
	unsigned char lab[65];
	for (int i = 0; i < 65; i++)
		lab[i] = (unsigned char)(i + 1);
	struct dis_result r = {.nlevel = 7};
	assert_int_equal(dis_run(d, 65, 1, 1, lab, 65, NULL, NULL, &r), DIS_ETOOBIG);
	assert_int_equal(r.nlevel, 7); /* untouched */
	assert_int_equal(dis_run(d, 129, 1, 1, lab, 1, NULL, NULL, &r), DIS_ETOOBIG);
	dis_free(d);
}

/* The level order: a prefix is lower. */
static void test_disasm_level_order(void **state)
{
	(void)state;
	const int a[] = {98, 2, 4}, b[] = {98, 2}, c[] = {98, 3}, e[] = {5};
	assert_true(dis_level_cmp(a, 3, b, 2) > 0);
	assert_true(dis_level_cmp(b, 2, a, 3) < 0);
	assert_true(dis_level_cmp(c, 2, a, 3) > 0);
	assert_true(dis_level_cmp(e, 1, a, 3) < 0);
	assert_int_equal(dis_level_cmp(a, 3, a, 3), 0);
	assert_int_equal(dis_level_cmp(NULL, 0, NULL, 0), 0);
}

/* ---- against the brute force --------------------------------------- */

/* The same assembly under symmetry 'sym' (a box onto a box). */
static void turn(const unsigned char *lab, int nx, int ny, int nz, int sym,
                 unsigned char *out, int *mx, int *my, int *mz)
{
	int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
	for (int corner = 0; corner < 8; corner++) {
		int v[3] = {corner & 1 ? nx - 1 : 0, corner & 2 ? ny - 1 : 0,
		            corner & 4 ? nz - 1 : 0}, w[3];
		poly_sym_apply(sym, v, w);
		for (int a = 0; a < 3; a++) {
			if (corner == 0 || w[a] < lo[a])
				lo[a] = w[a];
			if (corner == 0 || w[a] > hi[a])
				hi[a] = w[a];
		}
	}
	*mx = hi[0] - lo[0] + 1;
	*my = hi[1] - lo[1] + 1;
	*mz = hi[2] - lo[2] + 1;
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				int v[3] = {x, y, z}, w[3];
				poly_sym_apply(sym, v, w);
				out[(w[0] - lo[0]) + *mx * ((w[1] - lo[1]) + *my * (w[2] - lo[2]))] =
					lab[x + nx * (y + ny * z)];
			}
}

/* Hundreds of random small assemblies: the verdict and the first number
 * as the brute force finds them, every disassembly valid by its checker
 * (moves legal, each part's count of moves least, the level as the tree
 * implies), and the verdict and first number the same under all 48
 * symmetries. */
static void test_disasm_against_brute_force(void **state)
{
	(void)state;
	uint64_t seed = 20261128;
	disasm *d = dis_new();
	assert_non_null(d);
	int stuck = 0, apart = 0, deep = 0, multi = 0;
	for (int t = 0; t < 400; t++) {
		int nx, ny, nz;
		size_t np;
		unsigned char lab[DISREF_RANDOM_CELLS];
		disref_random(&seed, &nx, &ny, &nz, lab, &np);
		struct dis_result r;
		assert_int_equal(dis_run(d, nx, ny, nz, lab, np, NULL, NULL, &r), DIS_OK);
		const char *why = disref_agrees(nx, ny, nz, lab, np, &r);
		if (why)
			fail_msg("assembly %d: %s", t, why);
		if (r.verdict == DIS_APART) {
			apart++;
			deep += r.nlevel && r.level[0] > 1;
			multi += r.nlevel > 1;
		} else {
			stuck++;
		}
		/* a few of the symmetries for every assembly, all for some */
		for (int sym = 1; sym < POLY_NSYM; sym += t % 8 ? 7 : 1) {
			unsigned char tl[DISREF_RANDOM_CELLS];
			int mx, my, mz;
			turn(lab, nx, ny, nz, sym, tl, &mx, &my, &mz);
			struct dis_result q;
			assert_int_equal(dis_run(d, mx, my, mz, tl, np, NULL, NULL, &q), DIS_OK);
			assert_int_equal(q.verdict, r.verdict);
			if (q.verdict == DIS_APART && np >= 2)
				assert_int_equal(q.level[0], r.level[0]);
			dis_result_clear(&q);
		}
		dis_result_clear(&r);
	}
	/* the comparison covers each kind of answer */
	assert_true(stuck >= 10);
	assert_true(apart >= 10);
	assert_true(deep >= 3);
	assert_true(multi >= 3);
	dis_free(d);
}

/* Pieces past 64 cells along x (pair figures from cell walks, not the
 * lines of bits of narrower pieces): random assemblies stretched along x
 * until the box is 64 to 76 cells wide, against the brute force. */
static void test_disasm_wide_pieces(void **state)
{
	(void)state;
	uint64_t seed = 20261129;
	disasm *d = dis_new();
	assert_non_null(d);
	unsigned char *wide = malloc(80 * DISREF_RANDOM_CELLS);
	assert_non_null(wide);
	int tried = 0, stuck = 0, apart = 0;
	while (tried < 60) {
		int nx, ny, nz;
		size_t np;
		unsigned char lab[DISREF_RANDOM_CELLS];
		disref_random(&seed, &nx, &ny, &nz, lab, &np);
		if (np > 4 || nx < 2)
			continue;
		int k = (64 + nx - 1) / nx, wx = nx * k;
		for (int z = 0; z < nz; z++)
			for (int y = 0; y < ny; y++)
				for (int x = 0; x < wx; x++)
					wide[x + wx * (y + ny * z)] = lab[x / k + nx * (y + ny * z)];
		struct dis_result r;
		assert_int_equal(dis_run(d, wx, ny, nz, wide, np, NULL, NULL, &r), DIS_OK);
		const char *why = disref_agrees(wx, ny, nz, wide, np, &r);
		if (why)
			fail_msg("assembly %d: %s", tried, why);
		apart += r.verdict == DIS_APART;
		stuck += r.verdict != DIS_APART;
		dis_result_clear(&r);
		tried++;
	}
	print_message("%d stretched assemblies: %d stuck, %d apart\n", tried, stuck, apart);
	assert_true(stuck >= 3);
	assert_true(apart >= 3);
	free(wide);
	dis_free(d);
}

/* The cells of piece 'p' (label p + 1) of an assembly, box corner at the
 * origin, in box order, into c; their corner into lo; how many. */
static size_t piece_cells(const unsigned char *lab, int nx, int ny, int nz,
                          size_t p, int16_t (*c)[3], int16_t lo[3])
{
	size_t n = 0;
	lo[0] = lo[1] = lo[2] = INT16_MAX;
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++)
				if (lab[x + nx * (y + ny * z)] == p + 1) {
					int16_t v[3] = {(int16_t)x, (int16_t)y, (int16_t)z};
					for (int a = 0; a < 3; a++) {
						c[n][a] = v[a];
						lo[a] = v[a] < lo[a] ? v[a] : lo[a];
					}
					n++;
				}
	for (size_t i = 0; i < n; i++)
		for (int a = 0; a < 3; a++)
			c[i][a] = (int16_t)(c[i][a] - lo[a]);
	return n;
}

/* The shapes of the pieces of 'lab' made with dis_shape() (as
 * solvedis.c makes them from its rows), and their box corners. */
static int shapes_of(disasm *d, int nx, int ny, int nz,
                     const unsigned char *lab, size_t np, uint32_t *shape,
                     int16_t (*lo)[3])
{
	int16_t c[512][3];
	assert_true((size_t)nx * ny * nz <= 512);
	for (size_t p = 0; p < np; p++) {
		size_t n = piece_cells(lab, nx, ny, nz, p, c, lo[p]);
		int rc = dis_shape(d, (const int16_t (*)[3])c, n, &shape[p]);
		if (rc != DIS_OK)
			return rc;
	}
	return DIS_OK;
}

/* dis_never_free_shapes() on the assembly 'lab'. */
static int never_free_labels(disasm *d, int nx, int ny, int nz,
                             const unsigned char *lab, size_t np, bool *stuck,
                             uint64_t *nodes)
{
	uint32_t shape[DIS_MAX_PIECES];
	int16_t lo[DIS_MAX_PIECES][3];
	int rc = shapes_of(d, nx, ny, nz, lab, np, shape, lo);
	return rc != DIS_OK ? rc
	       : dis_never_free_shapes(d, np, shape, (const int16_t (*)[3])lo,
	                               stuck, nodes);
}

/* dis_never_free_shapes(), on random small assemblies: when it says stuck,
 * dis_run() and the brute force say stuck too, dis_run() having visited
 * as many positions; and it says the same, with as many positions, under
 * every symmetry. It must say stuck for some and not for others, among
 * them stuck ones (a separation whose parts are stuck). */
static void test_disasm_never_free(void **state)
{
	(void)state;
	uint64_t seed = 20261129;
	disasm *d = dis_new();
	assert_non_null(d);
	int never = 0, apart = 0, stuck_later = 0;
	for (int t = 0; t < 600; t++) {
		int nx, ny, nz;
		size_t np;
		unsigned char lab[DISREF_RANDOM_CELLS];
		disref_random(&seed, &nx, &ny, &nz, lab, &np);
		bool stuck;
		uint64_t nodes = 0;
		assert_int_equal(never_free_labels(d, nx, ny, nz, lab, np, &stuck, &nodes),
		                 DIS_OK);
		struct dis_result r;
		assert_int_equal(dis_run(d, nx, ny, nz, lab, np, NULL, NULL, &r), DIS_OK);
		int v, first;
		assert_int_equal(disref_solve(nx, ny, nz, lab, np, NULL, 0, &v, &first),
		                 0);
		if (stuck) {
			if (r.verdict != DIS_STUCK || v != DIS_STUCK || r.nodes != nodes)
				fail_msg("assembly %d: no separation anywhere, but dis_run "
				         "says %d after %llu positions (%llu), brute force %d",
				         t, (int)r.verdict, (unsigned long long)r.nodes,
				         (unsigned long long)nodes, v);
			never++;
		} else {
			apart += r.verdict == DIS_APART;
			stuck_later += r.verdict == DIS_STUCK;
		}
		for (int sym = 1; sym < POLY_NSYM; sym += t % 8 ? 5 : 1) {
			unsigned char tl[DISREF_RANDOM_CELLS];
			int mx, my, mz;
			turn(lab, nx, ny, nz, sym, tl, &mx, &my, &mz);
			bool st;
			uint64_t nd = 0;
			assert_int_equal(never_free_labels(d, mx, my, mz, tl, np, &st, &nd),
			                 DIS_OK);
			assert_int_equal(st, stuck);
			if (st)
				assert_int_equal(nd, nodes);
		}
		dis_result_clear(&r);
	}
	print_message("600 draws: %d with no separation anywhere, %d apart, "
	              "%d stuck after a separation\n", never, apart, stuck_later);
	assert_true(never >= 10);
	assert_true(apart >= 10);
	assert_true(stuck_later >= 1);
	dis_free(d);
}

/* dis_never_free_shapes() with one disassembler for many random
 * assemblies, so that shapes are met again: a shape's number is the same
 * whenever its cells are, and a stuck is dis_run()'s (on a disassembler
 * of its own), with as many positions. */
static void test_disasm_never_free_shapes(void **state)
{
	(void)state;
	uint64_t seed = 7;
	disasm *d = dis_new(), *e = dis_new();
	assert_non_null(d);
	assert_non_null(e);
	int never = 0;
	for (int t = 0; t < 400; t++) {
		int nx, ny, nz;
		size_t np;
		unsigned char lab[DISREF_RANDOM_CELLS];
		disref_random(&seed, &nx, &ny, &nz, lab, &np);
		uint32_t shape[DIS_MAX_PIECES];
		int16_t lo[DIS_MAX_PIECES][3], c[DISREF_RANDOM_CELLS][3];
		for (size_t p = 0; p < np; p++) {
			size_t n = piece_cells(lab, nx, ny, nz, p, c, lo[p]);
			assert_int_equal(dis_shape(d, (const int16_t (*)[3])c, n,
			                           &shape[p]), DIS_OK);
			uint32_t again;
			assert_int_equal(dis_shape(d, (const int16_t (*)[3])c, n, &again),
			                 DIS_OK);
			assert_int_equal(again, shape[p]);
		}
		bool st = false;
		uint64_t nodes = 0;
		assert_int_equal(dis_never_free_shapes(d, np, shape,
		                                       (const int16_t (*)[3])lo,
		                                       &st, &nodes), DIS_OK);
		struct dis_result r;
		assert_int_equal(dis_run(e, nx, ny, nz, lab, np, NULL, NULL, &r), DIS_OK);
		if (st) {
			assert_int_equal(r.verdict, DIS_STUCK);
			assert_int_equal(nodes, r.nodes);
		}
		dis_result_clear(&r);
		never += st;
	}
	assert_true(never >= 10);
	/* no cells, or cells too far out: refused */
	uint32_t sh;
	int16_t far[1][3] = {{0, 0, DIS_MAX_DIM}};
	assert_int_equal(dis_shape(d, (const int16_t (*)[3])far, 1, &sh), DIS_ETOOBIG);
	assert_int_equal(dis_shape(d, (const int16_t (*)[3])far, 0, &sh), DIS_ETOOBIG);
	dis_free(d);
	dis_free(e);
}

/* dis_run_shapes() gives what dis_run() gives on the labels (verdict,
 * level, moves, positions), with and without weights, one disassembler
 * for many assemblies, either call first. */
static void test_disasm_run_shapes(void **state)
{
	(void)state;
	uint64_t seed = 20261207;
	disasm *d = dis_new(), *e = dis_new();
	assert_non_null(d);
	assert_non_null(e);
	int apart = 0, stuck = 0;
	for (int t = 0; t < 600; t++) {
		int nx, ny, nz;
		size_t np;
		unsigned char lab[DISREF_RANDOM_CELLS];
		disref_random(&seed, &nx, &ny, &nz, lab, &np);
		uint32_t shape[DIS_MAX_PIECES];
		int16_t lo[DIS_MAX_PIECES][3];
		assert_int_equal(shapes_of(d, nx, ny, nz, lab, np, shape, lo),
		                 DIS_OK);
		int w[DIS_MAX_PIECES];
		for (size_t p = 0; p < np; p++)
			w[p] = 1 + (int)((seed >> (3 * p)) % 3);
		const int *weights = t % 3 == 0 ? w : NULL;
		struct dis_result a, b;
		if (t % 2) {
			assert_int_equal(dis_run_shapes(d, np, shape,
			                                (const int16_t (*)[3])lo,
			                                weights, NULL, &a), DIS_OK);
			assert_int_equal(dis_run(e, nx, ny, nz, lab, np, weights,
			                         NULL, &b), DIS_OK);
		} else {
			assert_int_equal(dis_run(e, nx, ny, nz, lab, np, weights,
			                         NULL, &b), DIS_OK);
			assert_int_equal(dis_run_shapes(d, np, shape,
			                                (const int16_t (*)[3])lo,
			                                weights, NULL, &a), DIS_OK);
		}
		assert_int_equal(a.verdict, b.verdict);
		assert_int_equal(a.nodes, b.nodes);
		assert_int_equal(a.nlevel, b.nlevel);
		assert_memory_equal(a.level, b.level, a.nlevel * sizeof *a.level);
		assert_int_equal(a.nmoves, b.nmoves);
		for (size_t m = 0; m < a.nmoves; m++) {
			assert_int_equal(a.moves[m].group, b.moves[m].group);
			assert_int_equal(a.moves[m].dir, b.moves[m].dir);
			assert_int_equal(a.moves[m].dist, b.moves[m].dist);
		}
		apart += a.verdict == DIS_APART && a.nmoves > 1;
		stuck += a.verdict == DIS_STUCK;
		dis_result_clear(&a);
		dis_result_clear(&b);
	}
	assert_true(apart >= 200 && stuck >= 20);
	dis_free(d);
	dis_free(e);
}

/* Past 65,536 shapes a disassembler forgets them all: the epoch says so,
 * and shapes made after it work. */
static void test_disasm_shape_epoch(void **state)
{
	(void)state;
	disasm *d = dis_new();
	assert_non_null(d);
	uint32_t e0 = dis_shape_epoch(d), sh = 0;
	/* distinct shapes: (0,0,0) and a set of the other cells of a
	 * 4 x 4 x 4 box, by the bits of k */
	int16_t c[64][3];
	for (uint32_t k = 1; k <= 65537; k++) {
		size_t n = 0;
		for (int b = 0; b < 64; b++)
			if (b == 0 || (b < 20 && (k >> (b - 1) & 1))) {
				c[n][0] = (int16_t)(b % 4);
				c[n][1] = (int16_t)(b / 4 % 4);
				c[n][2] = (int16_t)(b / 16);
				n++;
			}
		assert_int_equal(dis_shape(d, (const int16_t (*)[3])c, n, &sh), DIS_OK);
		if (k <= 65536)
			assert_int_equal(dis_shape_epoch(d), e0);
	}
	assert_int_not_equal(dis_shape_epoch(d), e0);
	assert_int_equal(sh, 0); /* the first of the new epoch */
	/* two cubes side by side, as shapes of this epoch: they come apart */
	int16_t one[1][3] = {{0, 0, 0}}, lo[2][3] = {{0, 0, 0}, {1, 0, 0}};
	uint32_t s2[2];
	assert_int_equal(dis_shape(d, (const int16_t (*)[3])one, 1, &s2[0]), DIS_OK);
	s2[1] = s2[0];
	bool stuck = true;
	uint64_t nodes = 0;
	assert_int_equal(dis_never_free_shapes(d, 2, s2, (const int16_t (*)[3])lo,
	                                       &stuck, &nodes), DIS_OK);
	assert_false(stuck);
	dis_free(d);
}

/* The checker can fail: a wrong level, an illegal move, a move too many. */
static void test_disasm_checker_can_fail(void **state)
{
	(void)state;
	struct hand h;
	hand_cage(&h, 5, (const int[]){2, 2, 2, 3, 2, 2, 3, 2, 3, 3, 2, 4, -1});
	struct dis_result r;
	run(&h, &r);
	int lv = 3;
	assert_non_null(disref_check(h.nx, h.ny, h.nz, h.lab, 2, NULL, r.moves,
	                             r.nmoves, &lv, 1));
	struct dis_move bad[2] = {r.moves[0], r.moves[1]};
	bad[0].dist = 2; /* into the wall */
	assert_non_null(disref_check(h.nx, h.ny, h.nz, h.lab, 2, NULL, bad, 2,
	                             r.level, r.nlevel));
	bad[0] = r.moves[0];
	bad[1].dir = DIS_NZ; /* down is walled */
	assert_non_null(disref_check(h.nx, h.ny, h.nz, h.lab, 2, NULL, bad, 2,
	                             r.level, r.nlevel));
	assert_non_null(disref_check(h.nx, h.ny, h.nz, h.lab, 2, NULL, r.moves, 1,
	                             r.level, r.nlevel));
	/* and the whole comparison: right as it is, wrong when the
	 * verdict or the first number is */
	assert_null(disref_agrees(h.nx, h.ny, h.nz, h.lab, 2, &r));
	r.level[0]++;
	assert_non_null(disref_agrees(h.nx, h.ny, h.nz, h.lab, 2, &r));
	r.level[0]--;
	r.verdict = DIS_STUCK;
	assert_non_null(disref_agrees(h.nx, h.ny, h.nz, h.lab, 2, &r));
	r.verdict = DIS_APART;
	dis_result_clear(&r);
}

#ifndef HAVE_ASAN
/* A 5x5x5 cage 'c' under a slab of 5x5x1 that lifts off: three pieces. */
static void under_slab(const struct hand *c, struct hand *g)
{
	*g = (struct hand){.nx = 5, .ny = 5, .nz = 6, .np = 3};
	memcpy(g->lab, c->lab, 125);
	memset(g->lab + 125, 3, 25);
}

/* Whether r is what g gives: level lv (n numbers), or stuck when n is 0. */
static void expect_answer(const struct dis_result *r, const int *lv, size_t n)
{
	if (n)
		expect_level(r, lv, n);
	else
		assert_int_equal(r->verdict, DIS_STUCK);
}

/* dis_run() of g with each of its allocations failing in turn: DIS_ENOMEM
 * and nothing leaked, or the answer (expect_answer()); after a failure
 * the same disassembler answers right. */
static void run_every_failure(const struct hand *g, const int *lv, size_t n)
{
	long before = live;
	alloc_calls = 0;
	disasm *d = dis_new();
	struct dis_result r;
	assert_int_equal(dis_run(d, g->nx, g->ny, g->nz, g->lab, g->np, NULL,
	                         NULL, &r), DIS_OK);
	expect_answer(&r, lv, n);
	dis_result_clear(&r);
	dis_free(d);
	long total = alloc_calls;
	for (long k = 0; k < total; k++) {
		fail_after = k;
		d = dis_new();
		int rc = d ? dis_run(d, g->nx, g->ny, g->nz, g->lab, g->np, NULL,
		                     NULL, &r)
		           : DIS_ENOMEM;
		fail_after = -1;
		if (rc == DIS_OK) {
			expect_answer(&r, lv, n);
			dis_result_clear(&r);
		} else {
			assert_int_equal(rc, DIS_ENOMEM);
			/* and the same disassembler recovers */
			if (d) {
				assert_int_equal(dis_run(d, g->nx, g->ny, g->nz, g->lab,
				                         g->np, NULL, NULL, &r), DIS_OK);
				expect_answer(&r, lv, n);
				dis_result_clear(&r);
			}
		}
		dis_free(d);
		assert_int_equal(live, before);
	}
}
#endif

/* Every allocation failure returns DIS_ENOMEM, leaks nothing, and the
 * disassembler still answers right afterwards. */
static void test_disasm_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	if (!failmalloc_active())
		skip(); /* valgrind owns malloc */
	struct hand h, g;
	hand_cage(&h, 5, (const int[]){2, 2, 2, 3, 2, 2, 3, 2, 3, 3, 2, 4, -1});
	under_slab(&h, &g);
	run_every_failure(&g, (const int[]){1, 2}, 2);
	/* the walk alone, on a cube caged in a 3x3x3 box: stuck */
	long before = live;
	struct hand c;
	hand_cage(&c, 3, (const int[]){1, 1, 1, -1});
	alloc_calls = 0;
	disasm *d = dis_new();
	bool stuck = false;
	uint64_t nodes = 0;
	assert_int_equal(never_free_labels(d, c.nx, c.ny, c.nz, c.lab, c.np, &stuck,
	                                &nodes), DIS_OK);
	assert_true(stuck);
	dis_free(d);
	long total = alloc_calls;
	for (long k = 0; k < total; k++) {
		fail_after = k;
		d = dis_new();
		stuck = false;
		int rc = d ? never_free_labels(d, c.nx, c.ny, c.nz, c.lab, c.np, &stuck,
		                            &nodes)
		           : DIS_ENOMEM;
		fail_after = -1;
		if (rc == DIS_OK) {
			assert_true(stuck);
		} else {
			assert_int_equal(rc, DIS_ENOMEM);
			if (d) {
				assert_int_equal(never_free_labels(d, c.nx, c.ny, c.nz, c.lab,
				                                c.np, &stuck, &nodes), DIS_OK);
				assert_true(stuck);
			}
		}
		dis_free(d);
		assert_int_equal(live, before);
	}
	/* a stuck part left behind by a separation, with room inside: a
	 * cube that slides along x in a closed cage under the slab; the
	 * part's three positions remembered (bad_add_all()) */
	hand_cage(&c, 5, (const int[]){2, 2, 2, 1, 2, 2, 3, 2, 2, -1});
	under_slab(&c, &g);
	run_every_failure(&g, NULL, 0);
#endif
}

/* ---- solve --disassemble ------------------------------------------- */

static void load_xmp(const char *path, struct puzzle *p)
{
	struct puz_error e;
	struct xmp_info xi;
	if (xmp_read_file(path, 0, p, &xi, &e) != PUZ_OK)
		fail_msg("%s:%d:%d: %s", path, e.line, e.col, e.msg);
}

/* Pelikan's burr: 12 solutions of which one comes apart, at the level
 * its designer and BurrTools give, 98.2.4; on threads and in shards the
 * same. */
static void test_disasm_solve_pelikan(void **state)
{
	(void)state;
	struct puzzle p;
	load_xmp("tests/data/burrtools/PelikanBurr.xmpuzzle", &p);
	struct solve_opts o = {.disassemble = true, .keep_first = true};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_true(r.disassembled);
	assert_int_equal(r.solutions, 1);
	assert_int_equal(r.stuck, 11);
	assert_int_equal(r.undecided, 0);
	assert_int_equal(r.max_level_solutions, 1);
	assert_int_equal(r.hardest_moves.nlevel, 3);
	assert_int_equal(r.hardest_moves.level[0], 98);
	assert_int_equal(r.hardest_moves.level[1], 2);
	assert_int_equal(r.hardest_moves.level[2], 4);
	assert_non_null(r.first);
	assert_int_equal(r.first_moves.nlevel, 3);
	/* 98 moves, then 2, then 4, then the single ones */
	size_t outs = 0;
	for (size_t i = 0; i < r.first_moves.nmoves; i++)
		outs += r.first_moves.moves[i].dist == 0;
	assert_int_equal(outs, 6); /* 7 pieces: 6 separations */
	/* the level is the disassembler's on the solution as shown, its
	 * pieces numbered as in the file (each piece here has one copy) */
	{
		const struct grid *g = &p.goal;
		int w[7];
		for (size_t i = 0; i < 7; i++)
			w[i] = p.pieces[i].weight;
		disasm *d = dis_new();
		struct dis_result q;
		assert_non_null(d);
		assert_int_equal(p.npieces, 7);
		assert_int_equal(dis_run(d, g->nx, g->ny, g->nz, r.first, 7, w, NULL,
		                         &q), DIS_OK);
		assert_int_equal(q.verdict, DIS_APART);
		assert_int_equal(q.nlevel, r.first_moves.nlevel);
		assert_memory_equal(q.level, r.first_moves.level,
		                    q.nlevel * sizeof *q.level);
		assert_int_equal(q.nmoves, r.first_moves.nmoves);
		assert_memory_equal(q.moves, r.first_moves.moves,
		                    q.nmoves * sizeof *q.moves);
		dis_result_clear(&q);
		dis_free(d);
	}
	solve_result_clear(&r);

	for (unsigned th = 1; th <= 3; th += 2) {
		o = (struct solve_opts){.disassemble = true, .threads = th};
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_int_equal(r.solutions, 1);
		assert_int_equal(r.stuck, 11);
		assert_int_equal(r.hardest_moves.level[0], 98);
		solve_result_clear(&r);
	}
	uint64_t stuck = 0, num = 0;
	for (unsigned i = 0; i < 3; i++) {
		o = (struct solve_opts){.disassemble = true, .threads = 1,
		                        .shard_index = i, .shard_count = 3};
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		stuck += r.stuck_num;
		num += r.numerator;
		solve_result_clear(&r);
	}
	assert_int_equal(stuck, 11 * 24);
	assert_int_equal(num, 24);
	/* --min-level: the one solution's first number is 98 */
	o = (struct solve_opts){.disassemble = true, .min_level = 98};
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_int_equal(r.solutions, 1);
	solve_result_clear(&r);
	o.min_level = 99;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_int_equal(r.solutions, 0);
	assert_int_equal(r.below_min, 1);
	assert_int_equal(r.stuck, 11);
	solve_result_clear(&r);
	puz_clear(&p);
}

/* Where several solutions share the highest level (Misused Key's
 * second problem: 4 of 8), the hardest solution shown is the same on any
 * number of threads: each thread keeps its first in task order, and the
 * earliest task wins. */
static void test_disasm_hardest_on_threads(void **state)
{
	(void)state;
	struct puzzle p;
	struct puz_error e;
	struct xmp_info xi;
	assert_int_equal(xmp_read_file("tests/data/burr/lohe.misused-key.xmpuzzle",
	                               1, &p, &xi, &e), PUZ_OK);
	struct solve_result first;
	for (unsigned th = 0; th <= 2; th++) {
		struct solve_opts o = {.disassemble = true, .threads = th};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_int_equal(r.max_level_solutions, 4);
		if (th == 0) {
			first = r;
			continue;
		}
		const struct solve_moves *a = &first.hardest_moves,
		                         *b = &r.hardest_moves;
		assert_int_equal(a->nlevel, b->nlevel);
		assert_memory_equal(a->level, b->level, a->nlevel * sizeof *a->level);
		assert_int_equal(a->npieces, b->npieces);
		assert_memory_equal(a->piece, b->piece, a->npieces * sizeof *a->piece);
		assert_int_equal(a->nmoves, b->nmoves);
		assert_memory_equal(a->moves, b->moves, a->nmoves * sizeof *a->moves);
		solve_result_clear(&r);
	}
	solve_result_clear(&first);
	puz_clear(&p);
}

/* BurrTools' own answers (tests/data/burr/SOURCE.md: burrTxt -d built
 * from BurrTools' source): per file and problem its assemblies (cubegen's
 * solutions + stuck) and solutions (those that come apart), and the
 * highest level. The first number of the level is always BurrTools'; the
 * rest depend on the order parts are met in, and equal BurrTools' on every
 * file but Pelikan's burr, where burrTxt (on the assembly as its solver
 * turns it) gives 98.2.4.2 (95.2.4.2 for its version of 2006). Groups: CubeInCage, key-trap. Weights:
 * AlPackino, PelikanBurr, key-trap, misused-key. Colour constraints:
 * Dracula's. Demirhan's burrloop has congruent shapes, which BurrTools
 * counts apart (192 and 12 there); cubegen's own counts here.
 * pelikan-optional-53: burrTxt -d gives 53.6.7.2.3.3 on the assembly as
 * it turns it, and its disassembler gives 53.6.7.2.1.3 on the solution
 * as cubegen writes it (convert --solutions). */
static void test_disasm_burrtools_designs(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		size_t problem;
		uint64_t assemblies, solutions, at_max;
		int level[14];
		size_t nlevel;
	} want[] = {
		{"AlPackino", 0, 1, 1, 1, {1, 1, 1, 1, 1, 2, 1, 3, 1, 2, 1, 2}, 12},
		{"CubeInCage", 0, 96, 1, 1, {4, 9, 3}, 3},
		{"DraculasDentalDesaster", 0, 84, 1, 1, {3, 5, 16, 6, 4}, 5},
		{"PelikanBurr", 0, 12, 1, 1, {98, 2, 4}, 3},
		{"basic-burr", 0, 2, 1, 1, {6, 4}, 2},
		{"chocolate-dip-cutler", 0, 960, 21, 1, {13, 1, 2, 2, 3}, 5},
		{"closed-box-lohe", 0, 2, 1, 1, {15, 6, 2}, 3},
		{"demirhan.burrloop", 0, 16, 1, 1, {7}, 1},
		{"eyckmans.gargamel", 0, 7680, 1, 1, {62, 3, 2, 2, 3, 2, 3}, 7},
		{"eyckmans.rhinoceros", 0, 72, 1, 1, {31, 6, 3, 1, 3}, 5},
		{"frames-burr-data", 0, 502, 1, 1, {12, 2, 2, 2, 2}, 5},
		{"greyhound-eyckmans", 0, 267, 1, 1, {32, 4, 1, 1, 2}, 5},
		{"lohe.key-trap", 0, 68, 1, 1, {26, 4, 5, 1, 2}, 5},
		{"lohe.misused-key", 0, 66, 2, 2, {26, 8, 2, 6, 2}, 5},
		{"lohe.misused-key", 1, 470, 8, 4, {7, 21, 8, 2, 5, 2}, 6},
		{"lohe.misused-key", 2, 376, 6, 4, {6, 21, 8, 2, 5, 2}, 6},
		{"magic-drawer", 0, 35, 6, 1, {12}, 1},
		/* Pelikan's burr with every goal cell optional and a cell
		 * less: BurrTools' own level on the solution as cubegen turns
		 * it, where it makes a union of groups before the groups it
		 * joins (53.6.6.2.1.3 when unions were made oldest first) */
		{"pelikan-optional-53", 0, 12, 1, 1, {53, 6, 7, 2, 1, 3}, 6},
		/* as BurrTools wrote them in 2006 (gridType's brick angles):
		 * an earlier Pelikan's burr, 95.2.4.2 in burrTxt */
		{"PelikanBurr-2006", 0, 12, 1, 1, {95, 2, 4}, 3},
		{"AlPackino-2006", 0, 1, 1, 1, {1, 1, 1, 1, 1, 2, 1, 3, 1, 2, 1, 2}, 12},
		/* 25 sticks with ranges of copies: which six make a solid
		 * burr (the file stores older counts: SOURCE.md) */
		{"SolidSixPieceBurrs", 0, 588, 179, 31, {1, 2}, 2},
		/* a random six-piece burr of many quick assemblies */
		{"random-burr-8", 0, 2289, 1685, 5, {5, 2}, 2},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char path[128];
		snprintf(path, sizeof path, "tests/data/burr/%s.xmpuzzle",
		         want[i].file);
		struct puzzle p;
		struct puz_error e;
		struct xmp_info xi;
		if (xmp_read_file(path, want[i].problem, &p, &xi, &e) != PUZ_OK)
			fail_msg("%s:%d:%d: %s", path, e.line, e.col, e.msg);
		struct solve_opts o = {.disassemble = true};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		if (r.solutions + r.stuck != want[i].assemblies ||
		    r.solutions != want[i].solutions || r.undecided ||
		    r.max_level_solutions != want[i].at_max)
			fail_msg("%s problem %zu: %llu solutions, %llu stuck, %llu "
			         "undecided, %llu at the highest level", want[i].file,
			         want[i].problem + 1, (unsigned long long)r.solutions,
			         (unsigned long long)r.stuck,
			         (unsigned long long)r.undecided,
			         (unsigned long long)r.max_level_solutions);
		if (r.hardest_moves.nlevel != want[i].nlevel ||
		    memcmp(r.hardest_moves.level, want[i].level,
		           want[i].nlevel * sizeof *want[i].level) != 0)
			fail_msg("%s problem %zu: another level", want[i].file,
			         want[i].problem + 1);
		/* Dracula's: a part left stuck by a separation is met again
		 * by others at other positions of its own (each reaching all
		 * the others), found stuck once (17,692 positions when only
		 * the position searched from was remembered) */
		if (strcmp(want[i].file, "DraculasDentalDesaster") == 0 &&
		    r.dis_nodes > 10000)
			fail_msg("Dracula's: %llu positions",
			         (unsigned long long)r.dis_nodes);
		/* the parts left by its separations are searched eagerly:
		 * the first separation of a depth is found before the rest
		 * of the depth is made (32,287 positions when each depth was
		 * made whole first, 25,767 eagerly) */
		if (strcmp(want[i].file, "pelikan-optional-53") == 0 &&
		    r.dis_nodes > 27000)
			fail_msg("Pelikan with optional cells: %llu positions",
			         (unsigned long long)r.dis_nodes);
		solve_result_clear(&r);
		puz_clear(&p);
	}
}

/* Colour puzzles (BurrTools' colour constraints, variable voxels, a
 * range): the verdicts share out the count, and each sum divides
 * exactly (a solution's assemblies get one form: colours in it). */
static void test_disasm_colour_puzzles(void **state)
{
	(void)state;
	for (int i = 1; i <= 9; i++) {
		char path[64];
		snprintf(path, sizeof path, "tests/data/burrtools/colour-%d.xmpuzzle",
		         i);
		struct puzzle p;
		load_xmp(path, &p);
		struct solve_opts plain = {0}, o = {.disassemble = true};
		struct solve_result a, r;
		assert_int_equal(solve_puzzle(&p, &plain, &a), SOLVE_OK);
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_int_equal(r.solutions + r.stuck + r.undecided, a.solutions);
		assert_int_equal(r.stuck_num % r.divisor, 0);
		assert_int_equal(r.max_level_num % r.divisor, 0);
		solve_result_clear(&a);
		solve_result_clear(&r);
		puz_clear(&p);
	}
}

/* DemoPieceGenerator has one assembly of a single piece, which BurrTools
 * takes for no solution (928 assemblies, 927 solutions, all level 1). */
static void test_disasm_one_piece_assembly(void **state)
{
	(void)state;
	struct puzzle p;
	load_xmp("tests/data/burrtools/DemoPieceGenerator.xmpuzzle", &p);
	struct solve_opts o = {.disassemble = true};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_int_equal(r.solutions, 927);
	assert_int_equal(r.stuck, 1);
	assert_int_equal(r.max_level_solutions, 927);
	solve_result_clear(&r);
	puz_clear(&p);
}

/* The first solution as --disassemble shows it (a fixed form, maybe a
 * mirror image of the assembly found) is an assembly: each piece's cells
 * are that piece, turned. Soma has a mirror pair (A and B), and its
 * forms are mirror images half of the time. */
static void test_disasm_shown_solution_is_an_assembly(void **state)
{
	(void)state;
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_file("tests/data/classic/soma.puz", &p, &e),
	                 PUZ_OK);
	for (unsigned th = 0; th <= 2; th += 2) {
		struct solve_opts o = {.disassemble = true, .keep_first = true,
		                       .threads = th};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_non_null(r.first);
		const struct grid *g = &p.goal;
		for (size_t i = 0; i < p.npieces; i++) {
			struct grid cut;
			assert_int_equal(puz_grid_init(&cut, g->nx, g->ny, g->nz),
			                 PUZ_OK);
			size_t total = (size_t)g->nx * g->ny * g->nz;
			for (size_t c = 0; c < total; c++)
				cut.cells[c] = r.first[c] == i + 1 ? PUZ_CELL : 0;
			struct shape a, b, ca, cb;
			assert_int_equal(poly_from_grid(&cut, &a), POLY_OK);
			assert_int_equal(poly_from_grid(&p.pieces[i].shape, &b), POLY_OK);
			assert_int_equal(poly_canonical(&a, &ca), POLY_OK);
			assert_int_equal(poly_canonical(&b, &cb), POLY_OK);
			if (!poly_equal(&ca, &cb))
				fail_msg("piece %s is not where --print shows it",
				         p.pieces[i].name);
			poly_shape_clear(&a);
			poly_shape_clear(&b);
			poly_shape_clear(&ca);
			poly_shape_clear(&cb);
			puz_grid_clear(&cut);
		}
		/* and its moves are its own (the same as taking it apart) */
		disasm *d = dis_new();
		struct dis_result q;
		assert_non_null(d);
		assert_int_equal(dis_run(d, g->nx, g->ny, g->nz, r.first, p.npieces,
		                         NULL, NULL, &q), DIS_OK);
		assert_int_equal(q.nmoves, r.first_moves.nmoves);
		assert_memory_equal(q.moves, r.first_moves.moves,
		                    q.nmoves * sizeof *q.moves);
		dis_result_clear(&q);
		dis_free(d);
		solve_result_clear(&r);
	}
	puz_clear(&p);
}

/* Every solution of a box of plates, and of the Soma cube, comes apart,
 * each piece lifting off; counts unchanged. */
static void test_disasm_solve_soma_and_shells(void **state)
{
	(void)state;
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_file("tests/data/classic/soma.puz", &p, &e),
	                 PUZ_OK);
	struct solve_opts o = {.disassemble = true};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_int_equal(r.solutions, 240);
	assert_int_equal(r.assemblies, 11520);
	assert_int_equal(r.stuck, 0);
	assert_int_equal(r.max_level_solutions, 240);
	assert_int_equal(r.hardest_moves.nlevel, 1);
	assert_int_equal(r.hardest_moves.level[0], 1);
	solve_result_clear(&r);
	puz_clear(&p);

	for (int k = 1; k <= 3; k++) {
		char path[64];
		snprintf(path, sizeof path, "tests/data/regress/shell-%d.puz", k);
		assert_int_equal(puz_read_file(path, &p, &e), PUZ_OK);
		struct solve_opts plain = {0};
		struct solve_result a, b;
		assert_int_equal(solve_puzzle(&p, &plain, &a), SOLVE_OK);
		o = (struct solve_opts){.disassemble = true, .keep_first = true};
		assert_int_equal(solve_puzzle(&p, &o, &b), SOLVE_OK);
		assert_int_equal(b.solutions, a.solutions);
		assert_int_equal(b.stuck, 0);
		if (b.solutions) {
			assert_int_equal(b.hardest_moves.level[0], 1);
			assert_int_equal(b.first_moves.nmoves, 5);
		}
		/* the generic search says the same */
		o.generic = true;
		solve_result_clear(&b);
		assert_int_equal(solve_puzzle(&p, &o, &b), SOLVE_OK);
		assert_int_equal(b.solutions, a.solutions);
		assert_int_equal(b.stuck, 0);
		solve_result_clear(&a);
		solve_result_clear(&b);
		puz_clear(&p);
	}
}

/* On random puzzles: solutions + stuck + undecided is the plain count,
 * and the same on every engine and with pinning off. */
static void test_disasm_solve_partition(void **state)
{
	(void)state;
	for (int t = 0; t < 60; t++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(7700 + (uint64_t)t, &p) >= 0);
		struct solve_opts plain = {0};
		struct solve_result a;
		assert_int_equal(solve_puzzle(&p, &plain, &a), SOLVE_OK);
		uint64_t s0 = 0, st0 = 0;
		for (int eng = 0; eng < 3; eng++) {
			struct solve_opts o = {.disassemble = true,
			                       .engine = eng == 1 ? SOLVE_DLX : SOLVE_AUTO,
			                       .no_pin = eng == 2, .generic = true};
			struct solve_result r;
			assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
			assert_int_equal(r.solutions + r.stuck + r.undecided, a.solutions);
			assert_int_equal(r.assemblies, a.assemblies);
			/* every sum divides exactly: one verdict and one level
			 * for all the assemblies of a solution */
			assert_int_equal(r.stuck_num % r.divisor, 0);
			assert_int_equal(r.max_level_num % r.divisor, 0);
			if (eng == 0) {
				s0 = r.solutions;
				st0 = r.stuck;
			}
			assert_int_equal(r.solutions, s0);
			assert_int_equal(r.stuck, st0);
			solve_result_clear(&r);
		}
		solve_result_clear(&a);
		puz_clear(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disasm_two_cubes),
		cmocka_unit_test(test_disasm_cage_is_stuck),
		cmocka_unit_test(test_disasm_stuck_among_loose),
		cmocka_unit_test(test_disasm_bent_tunnel_level_2),
		cmocka_unit_test(test_disasm_lid_then_tunnel),
		cmocka_unit_test(test_disasm_one_piece),
		cmocka_unit_test(test_disasm_bound_is_undecided),
		cmocka_unit_test(test_disasm_weights),
		cmocka_unit_test(test_disasm_groups),
		cmocka_unit_test(test_disasm_too_big),
		cmocka_unit_test(test_disasm_level_order),
		cmocka_unit_test(test_disasm_against_brute_force),
		cmocka_unit_test(test_disasm_wide_pieces),
		cmocka_unit_test(test_disasm_never_free),
		cmocka_unit_test(test_disasm_never_free_shapes),
		cmocka_unit_test(test_disasm_run_shapes),
		cmocka_unit_test(test_disasm_shape_epoch),
		cmocka_unit_test(test_disasm_checker_can_fail),
		cmocka_unit_test(test_disasm_out_of_memory),
		cmocka_unit_test(test_disasm_solve_pelikan),
		cmocka_unit_test(test_disasm_burrtools_designs),
		cmocka_unit_test(test_disasm_hardest_on_threads),
		cmocka_unit_test(test_disasm_one_piece_assembly),
		cmocka_unit_test(test_disasm_colour_puzzles),
		cmocka_unit_test(test_disasm_shown_solution_is_an_assembly),
		cmocka_unit_test(test_disasm_solve_soma_and_shells),
		cmocka_unit_test(test_disasm_solve_partition),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
