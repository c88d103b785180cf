/*
 * test_gen.c: the shell generator against DESIGN.md §1 and the conventions
 * of gen.h. The conventions (face frame, orientation, stream order) are
 * re-derived here from the header's words, not from gen.c, so a drift
 * between documentation and code fails a test.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"

/* ---- independent helpers ---------------------------------------------- */

static size_t idx(int n, int x, int y, int z)
{
	return (size_t)x + (size_t)n * ((size_t)y + (size_t)n * (size_t)z);
}

static int shell_volume(int n)
{
	return 6 * n * n - 12 * n + 8;
}

/* Faces of a cell, ascending enum order; returns the count (0 inside). */
static int faces_of(int n, int x, int y, int z, int f[3])
{
	int k = 0;

	if (x == 0) f[k++] = GEN_XMIN;
	if (x == n - 1) f[k++] = GEN_XMAX;
	if (y == 0) f[k++] = GEN_YMIN;
	if (y == n - 1) f[k++] = GEN_YMAX;
	if (z == 0) f[k++] = GEN_ZMIN;
	if (z == n - 1) f[k++] = GEN_ZMAX;
	return k;
}

static int on_face(int n, int face, int x, int y, int z)
{
	int f[3];
	int k = faces_of(n, x, y, z, f);

	for (int i = 0; i < k; i++)
		if (f[i] == face)
			return 1;
	return 0;
}

/* gen.h's orientation, transcribed as closed forms: turn over left to
 * right if t & 4, then t & 3 clockwise quarter turns (y downward). */
static void ref_orient(int n, int t, int x, int y, int *u, int *v)
{
	int m = n - 1;

	if (t & 4)
		x = m - x;
	switch (t & 3) {
	case 0: *u = x;     *v = y;     break;
	case 1: *u = m - y; *v = x;     break;
	case 2: *u = m - x; *v = m - y; break;
	default: *u = y;    *v = m - x; break;
	}
}

/* Is the set {b[i] == val} of an n*n bitmap non-empty and 4-connected? */
static int connected4(const unsigned char *b, int n, unsigned char val)
{
	int stack[GEN_MAX_SIZE * GEN_MAX_SIZE];
	unsigned char seen[GEN_MAX_SIZE * GEN_MAX_SIZE] = { 0 };
	int total = 0, reached = 0, sp = 0;

	for (int i = 0; i < n * n; i++)
		if (b[i] == val) {
			if (total++ == 0) {
				stack[sp++] = i;
				seen[i] = 1;
			}
		}
	if (total == 0)
		return 0;
	while (sp > 0) {
		int i = stack[--sp], x = i % n, y = i / n;
		int nb[4][2] = { { x - 1, y }, { x + 1, y }, { x, y - 1 }, { x, y + 1 } };

		reached++;
		for (int k = 0; k < 4; k++) {
			int a = nb[k][0], c = nb[k][1], j = a + n * c;

			if (a < 0 || a >= n || c < 0 || c >= n || seen[j] || b[j] != val)
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

static void draw(uint64_t seed, int n, struct gen_puzzle *g)
{
	struct rng r;

	rng_seed(&r, seed);
	assert_int_equal(gen_draw(&r, n, g), GEN_OK);
}

/* ---- the face frame ---------------------------------------------------- */

/* Each face frame covers its face once, is seen from outside, and the
 * frames fit the documented cross: left front right back in a row, top
 * above front, bottom below it. */
static void test_gen_face_cell_net(void **state)
{
	static const int normal[6][3] = {
		{ -1, 0, 0 }, { 1, 0, 0 }, { 0, -1, 0 },
		{ 0, 1, 0 }, { 0, 0, -1 }, { 0, 0, 1 },
	};
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
	for (int n = 3; n <= 6; n++) {
		for (int f = 0; f < 6; f++) {
			unsigned char hit[6 * 6 * 6] = { 0 };
			int x0, y0, z0, x1, y1, z1, x2, y2, z2;

			for (int v = 0; v < n; v++)
				for (int u = 0; u < n; u++) {
					int x, y, z;

					gen_face_cell(n, f, u, v, &x, &y, &z);
					assert_true(x >= 0 && x < n && y >= 0 && y < n &&
					            z >= 0 && z < n);
					assert_true(on_face(n, f, x, y, z));
					assert_int_equal(hit[idx(n, x, y, z)]++, 0);
				}
			/* Seen from outside: right x down = -outward normal. */
			gen_face_cell(n, f, 0, 0, &x0, &y0, &z0);
			gen_face_cell(n, f, 1, 0, &x1, &y1, &z1);
			gen_face_cell(n, f, 0, 1, &x2, &y2, &z2);
			{
				int r[3] = { x1 - x0, y1 - y0, z1 - z0 };
				int d[3] = { x2 - x0, y2 - y0, z2 - z0 };
				int c[3] = { r[1] * d[2] - r[2] * d[1],
				             r[2] * d[0] - r[0] * d[2],
				             r[0] * d[1] - r[1] * d[0] };

				for (int a = 0; a < 3; a++)
					assert_int_equal(c[a], -normal[f][a]);
			}
		}
		for (int k = 0; k < nglue; k++)
			for (int s = 0; s < n; s++) {
				int uv[2][2], cell[2][3];

				for (int h = 0; h < 2; h++) {
					int side = glue[k][2 * h + 1];

					uv[h][0] = side == 1 ? n - 1 : side == 3 ? 0 : s;
					uv[h][1] = side == 0 ? 0 : side == 2 ? n - 1 : s;
					gen_face_cell(n, glue[k][2 * h], uv[h][0], uv[h][1],
					              &cell[h][0], &cell[h][1], &cell[h][2]);
				}
				assert_memory_equal(cell[0], cell[1], sizeof cell[0]);
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

/* ---- DESIGN §1 rules, for every N 3..12 --------------------------------- */

static void check_rules(const struct gen_puzzle *g)
{
	int n = g->n;
	int owned = 0;
	unsigned char view[GEN_MAX_SIZE * GEN_MAX_SIZE];
	int seen[6] = { 0 };

	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				int f[3];
				int k = faces_of(n, x, y, z, f);
				unsigned char o = g->owner[idx(n, x, y, z)];

				if (k == 0) {
					assert_int_equal(o, GEN_NONE);
					continue;
				}
				owned++;
				/* Rule 1 and 2: a cell's owner is one of its faces. */
				assert_true(o < 6 && on_face(n, o, x, y, z));
				if (k == 3) {
					/* Rule 3: the corner's owner owns a neighbour edge. */
					int dx = x ? -1 : 1, dy = y ? -1 : 1, dz = z ? -1 : 1;

					assert_true(g->owner[idx(n, x + dx, y, z)] == o ||
					            g->owner[idx(n, x, y + dy, z)] == o ||
					            g->owner[idx(n, x, y, z + dz)] == o);
				}
			}
	assert_int_equal(owned, shell_volume(n));

	for (int i = 0; i < 6; i++) {
		assert_true(g->face[i] >= 0 && g->face[i] < 6);
		assert_int_equal(seen[g->face[i]]++, 0);
		assert_true(g->orient[i] >= 0 && g->orient[i] < 8);
	}
	for (int f = 0; f < 6; f++) {
		int p = 0, cells = 0;

		for (int i = 0; i < 6; i++)
			if (g->face[i] == f)
				p = i + 1;
		gen_face_view(g, f, view);
		/* The centre is the face's own; nothing else is 'p' or 0. */
		for (int v = 0; v < n; v++)
			for (int u = 0; u < n; u++) {
				unsigned char c = view[u + n * v];

				assert_true(c == 0 || c == p);
				if (u > 0 && v > 0 && u < n - 1 && v < n - 1)
					assert_int_equal(c, p);
			}
		assert_true(connected4(view, n, (unsigned char)p));
		for (int z = 0; z < n; z++)
			for (int y = 0; y < n; y++)
				for (int x = 0; x < n; x++)
					cells += g->owner[idx(n, x, y, z)] == f;
		assert_int_equal(count_set(view, (size_t)n * n), cells);
		/* The drawing: same cell count, 0/1 only, connected. */
		assert_int_equal(count_set(g->piece[p - 1], (size_t)n * n), cells);
		for (int i = 0; i < n * n; i++)
			assert_true(g->piece[p - 1][i] <= 1);
		assert_true(connected4(g->piece[p - 1], n, 1));
	}
}

static void test_gen_draw_follows_design_rules(void **state)
{
	(void)state;
	for (int n = 3; n <= 12; n++) {
		struct rng r;

		rng_seed(&r, (uint64_t)n * 1000);
		for (int s = 0; s < 200; s++) {
			struct gen_puzzle g;

			assert_int_equal(gen_draw(&r, n, &g), GEN_OK);
			assert_int_equal(g.n, n);
			check_rules(&g);
			gen_puzzle_clear(&g);
		}
	}
}

/* The size limits work, including the largest cube. */
static void test_gen_draw_extreme_sizes(void **state)
{
	(void)state;
	for (int n = GEN_MIN_SIZE; n <= GEN_MAX_SIZE; n += GEN_MAX_SIZE - GEN_MIN_SIZE) {
		struct gen_puzzle g;

		draw(99, n, &g);
		check_rules(&g);
		gen_puzzle_clear(&g);
	}
}

/* ---- reconstruction from what the user sees ----------------------------- */

/* From the drawings, face[] and orient[] alone (with gen_face_cell and the
 * documented orientation), rebuild the assembly and the face views. */
static void test_gen_reconstruct_from_drawings(void **state)
{
	static unsigned char own[GEN_MAX_SIZE * GEN_MAX_SIZE * GEN_MAX_SIZE];
	unsigned char want[GEN_MAX_SIZE * GEN_MAX_SIZE];
	unsigned char got[GEN_MAX_SIZE * GEN_MAX_SIZE];

	(void)state;
	for (int n = 3; n <= 10; n++)
		for (uint64_t seed = 0; seed < 60; seed++) {
			struct gen_puzzle g;
			size_t n3 = (size_t)n * n * n;

			draw(seed * 7919 + (uint64_t)n, n, &g);
			memset(own, GEN_NONE, n3);
			memset(want, 0, sizeof want);
			for (int i = 0; i < 6; i++)
				for (int y = 0; y < n; y++)
					for (int x = 0; x < n; x++) {
						int u, v, cx, cy, cz;

						if (!g.piece[i][x + n * y])
							continue;
						ref_orient(n, g.orient[i], x, y, &u, &v);
						gen_face_cell(n, g.face[i], u, v, &cx, &cy, &cz);
						/* No cell claimed twice. */
						assert_int_equal(own[idx(n, cx, cy, cz)], GEN_NONE);
						own[idx(n, cx, cy, cz)] = (unsigned char)g.face[i];
					}
			assert_memory_equal(own, g.owner, n3);

			for (int i = 0; i < 6; i++) {
				memset(want, 0, (size_t)n * n);
				for (int y = 0; y < n; y++)
					for (int x = 0; x < n; x++) {
						int u, v;

						ref_orient(n, g.orient[i], x, y, &u, &v);
						if (g.piece[i][x + n * y])
							want[u + n * v] = (unsigned char)(i + 1);
					}
				gen_face_view(&g, g.face[i], got);
				assert_memory_equal(want, got, (size_t)n * n);
			}

			for (int z = 0; z < n; z++)
				for (int y = 0; y < n; y++)
					for (int x = 0; x < n; x++) {
						unsigned char o = g.owner[idx(n, x, y, z)];
						int p = 0;

						for (int i = 0; i < 6; i++)
							if (o != GEN_NONE && g.face[i] == o)
								p = i + 1;
						assert_int_equal(gen_cell_piece(&g, x, y, z), p);
					}
			gen_puzzle_clear(&g);
		}
}

/* ---- the stream, re-derived from gen.h's description ------------------- */

static void ref_generate(struct rng *r, int n, unsigned char *owner,
                         int face[6], int orient[6])
{
	int a[6] = { 0, 1, 2, 3, 4, 5 };

	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				int f[3];
				int k = faces_of(n, x, y, z, f);

				if (k == 0)
					owner[idx(n, x, y, z)] = GEN_NONE;
				else if (k == 1)
					owner[idx(n, x, y, z)] = (unsigned char)f[0];
				else if (k == 2)
					owner[idx(n, x, y, z)] = (unsigned char)f[rng_below(r, 2)];
			}
	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				int f[3], d[3], k = 0;

				if (faces_of(n, x, y, z, f) != 3)
					continue;
				int nb[3] = {
					owner[idx(n, x ? x - 1 : 1, y, z)],
					owner[idx(n, x, y ? y - 1 : 1, z)],
					owner[idx(n, x, y, z ? z - 1 : 1)],
				};
				/* distinct, ascending (insertion sort of a set) */
				for (int i = 0; i < 3; i++) {
					int dup = 0, j;

					for (j = 0; j < k; j++)
						dup |= d[j] == nb[i];
					if (dup)
						continue;
					for (j = k; j > 0 && d[j - 1] > nb[i]; j--)
						d[j] = d[j - 1];
					d[j] = nb[i];
					k++;
				}
				owner[idx(n, x, y, z)] = (unsigned char)d[rng_below(r, (uint64_t)k)];
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

static void test_gen_draw_follows_documented_stream(void **state)
{
	static unsigned char owner[12 * 12 * 12];

	(void)state;
	for (int n = 3; n <= 12; n++) {
		struct rng r, ref;

		rng_seed(&r, (uint64_t)n);
		ref = r;
		/* Several candidates in a row: each starts where the last ended. */
		for (int c = 0; c < 5; c++) {
			struct gen_puzzle g;
			int face[6], orient[6];

			assert_int_equal(gen_draw(&r, n, &g), GEN_OK);
			ref_generate(&ref, n, owner, face, orient);
			assert_memory_equal(g.owner, owner, (size_t)n * n * n);
			assert_memory_equal(g.face, face, sizeof face);
			assert_memory_equal(g.orient, orient, sizeof orient);
			assert_memory_equal(r.s, ref.s, sizeof r.s);
			gen_puzzle_clear(&g);
		}
	}
}

/* ---- distributions ------------------------------------------------------ */

static void test_gen_edges_split_evenly(void **state)
{
	enum { N = 6, DRAWS = 2500 };
	long low[12] = { 0 }, all[12] = { 0 }, tlow = 0, tall = 0;
	struct rng r;

	(void)state;
	rng_seed(&r, 2024);
	for (int s = 0; s < DRAWS; s++) {
		struct gen_puzzle g;

		assert_int_equal(gen_draw(&r, N, &g), GEN_OK);
		for (int z = 0; z < N; z++)
			for (int y = 0; y < N; y++)
				for (int x = 0; x < N; x++) {
					int f[3];

					if (faces_of(N, x, y, z, f) != 2)
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
					low[slot] += g.owner[idx(N, x, y, z)] == f[0];
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
	/* tally[k][j]: corners with k distinct candidates that took the j-th
	 * smallest of them */
	long tally[4][3] = { { 0 } };
	struct rng r;

	(void)state;
	rng_seed(&r, 77);
	for (int s = 0; s < DRAWS; s++) {
		struct gen_puzzle g;

		assert_int_equal(gen_draw(&r, N, &g), GEN_OK);
		for (int z = 0; z < N; z += N - 1)
			for (int y = 0; y < N; y += N - 1)
				for (int x = 0; x < N; x += N - 1) {
					int nb[3] = {
						g.owner[idx(N, x ? x - 1 : 1, y, z)],
						g.owner[idx(N, x, y ? y - 1 : 1, z)],
						g.owner[idx(N, x, y, z ? z - 1 : 1)],
					};
					int o = g.owner[idx(N, x, y, z)], k = 0, j = -1;

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
			double e = (double)tot / k, d = (double)tally[k][j] - e;

			chi += d * d / e;
		}
		/* 0.1% points for 1 and 2 degrees of freedom */
		assert_true(chi < (k == 2 ? 10.83 : 13.82));
	}
}

static void test_gen_scramble_hits_all(void **state)
{
	enum { DRAWS = 12000 };
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

		assert_int_equal(gen_draw(&r, 3, &g), GEN_OK);
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
	size_t nn = (size_t)a->n * a->n;

	if (a->n != b->n || memcmp(a->owner, b->owner, nn * a->n) ||
	    memcmp(a->face, b->face, sizeof a->face) ||
	    memcmp(a->orient, b->orient, sizeof a->orient))
		return 0;
	for (int i = 0; i < 6; i++)
		if (memcmp(a->piece[i], b->piece[i], nn))
			return 0;
	return 1;
}

static void test_gen_same_seed_same_bytes(void **state)
{
	(void)state;
	for (int n = 3; n <= 8; n++)
		for (uint64_t seed = 0; seed < 20; seed++) {
			struct gen_puzzle a, b;

			draw(seed, n, &a);
			draw(seed, n, &b);
			assert_true(same_puzzle(&a, &b));
			gen_puzzle_clear(&a);
			gen_puzzle_clear(&b);
		}
}

static void test_gen_different_seeds_differ(void **state)
{
	enum { K = 40 };
	struct gen_puzzle g[K];

	(void)state;
	for (int i = 0; i < K; i++) {
		draw((uint64_t)i, 5, &g[i]);
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

	draw(w->seed, n, &g);
	assert_memory_equal(g.face, w->face, sizeof g.face);
	assert_memory_equal(g.orient, w->orient, sizeof g.orient);
	for (int i = 0; i < 6; i++) {
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

/* The answer names every face and every piece once, its words agree with
 * orient[], and its pictures agree with the drawings and the face views. */
static void test_gen_write_answer_contents(void **state)
{
	static const int order[6] = {
		GEN_ZMIN, GEN_ZMAX, GEN_YMIN, GEN_YMAX, GEN_XMIN, GEN_XMAX,
	};
	static const char *const turns[4] = {
		"do not turn it", "a quarter turn clockwise", "a half turn",
		"a quarter turn anticlockwise",
	};

	(void)state;
	for (int n = 3; n <= 9; n += 3)
		for (uint64_t seed = 0; seed < 10; seed++) {
			struct gen_puzzle g;
			unsigned char view[GEN_MAX_SIZE * GEN_MAX_SIZE];
			FILE *fp = tmpfile();
			char *text, *line;
			const char *prev = NULL;

			assert_non_null(fp);
			draw(seed, n, &g);
			assert_int_equal(gen_write_answer(fp, &g), GEN_OK);
			text = read_all(fp);
			fclose(fp);
			for (int p = 1; p <= 6; p++) {
				char s[32];

				snprintf(s, sizeof s, "piece %d.", p);
				assert_int_equal(count_sub(text, s), 1);
			}
			for (int k = 0; k < 6; k++) {
				int f = order[k], p = 0, col = 2 + (n < 8 ? 8 : n) + 3;
				char head[64];

				for (int i = 0; i < 6; i++)
					if (g.face[i] == f)
						p = i + 1;
				snprintf(head, sizeof head, "\n%s (", gen_face_name(f));
				assert_int_equal(count_sub(text, head), 1);
				line = strstr(text, head) + 1;
				/* faces come in the documented order */
				assert_true(prev == NULL || line > prev);
				prev = line;
				snprintf(head, sizeof head, "piece %d.", p);
				assert_non_null(strstr(line, head));
				assert_true(strstr(line, head) < strchr(line, '\n'));
				{
					int t = g.orient[p - 1];
					char *eol = strchr(line, '\n');
					char *over = strstr(line, "Turn it over");
					char *tw = strstr(line, turns[t & 3]);

					assert_int_equal(over != NULL && over < eol, (t & 4) != 0);
					assert_true(tw != NULL && tw < eol);
				}
				/* skip the title and the "as drawn / in place" line */
				line = strchr(strchr(line, '\n') + 1, '\n') + 1;
				gen_face_view(&g, f, view);
				for (int y = 0; y < n; y++) {
					for (int x = 0; x < n; x++) {
						assert_int_equal(line[2 + x] == '#',
						                 g.piece[p - 1][x + n * y]);
						assert_int_equal(line[col + x] == '#',
						                 view[x + n * y] != 0);
					}
					line = strchr(line, '\n') + 1;
				}
			}
			free(text);
			gen_puzzle_clear(&g);
		}
}

static void test_gen_write_answer_eio(void **state)
{
	struct gen_puzzle g;
	FILE *fp;

	(void)state;
	draw(1, 5, &g);
	fp = fopen("/dev/full", "w");
	if (!fp) {
		gen_puzzle_clear(&g);
		skip();
	}
	/* Unbuffered: the first write fails. */
	assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
	assert_int_equal(gen_write_answer(fp, &g), GEN_EIO);
	fclose(fp);
	/* Buffered: the failure shows when the answer is flushed. */
	fp = fopen("/dev/full", "w");
	assert_non_null(fp);
	assert_int_equal(gen_write_answer(fp, &g), GEN_EIO);
	fclose(fp);
	gen_puzzle_clear(&g);
}

/* ---- the puzzle file ---------------------------------------------------- */

static void test_gen_to_puzzle(void **state)
{
	(void)state;
	for (int n = 3; n <= 7; n++) {
		struct gen_puzzle g;
		struct puzzle p;
		char name[80];
		uint64_t seed = UINT64_C(18446744073709551615) - (uint64_t)n;

		draw(seed, n, &g);
		assert_int_equal(gen_to_puzzle(&g, seed, &p), GEN_OK);
		snprintf(name, sizeof name, "cubegen %dx%dx%d shell, seed %llu", n, n,
		         n, (unsigned long long)seed);
		assert_string_equal(p.name, name);
		assert_int_equal(p.goal.nx, n);
		assert_int_equal(p.goal.ny, n);
		assert_int_equal(p.goal.nz, n);
		assert_int_equal(count_set(p.goal.cells, (size_t)n * n * n),
		                 shell_volume(n));
		for (int z = 0; z < n; z++)
			for (int y = 0; y < n; y++)
				for (int x = 0; x < n; x++) {
					int f[3];

					assert_int_equal(p.goal.cells[grid_index(&p.goal, x, y, z)],
					                 faces_of(n, x, y, z, f) > 0);
				}
		assert_int_equal(p.npieces, 6);
		for (int i = 0; i < 6; i++) {
			char want[16];

			snprintf(want, sizeof want, "%d", i + 1);
			assert_string_equal(p.pieces[i].name, want);
			assert_int_equal(p.pieces[i].count, 1);
			assert_int_equal(p.pieces[i].shape.nx, n);
			assert_int_equal(p.pieces[i].shape.ny, n);
			assert_int_equal(p.pieces[i].shape.nz, 1);
			for (int y = 0; y < n; y++)
				for (int x = 0; x < n; x++)
					assert_int_equal(p.pieces[i].shape.cells[
					        grid_index(&p.pieces[i].shape, x, y, 0)],
					        g.piece[i][x + n * y]);
		}
		assert_int_equal(p.size, n);
		assert_true(p.has_seed);
		assert_int_equal(p.seed, seed);
		puz_clear(&p);
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
static void test_gen_puzzle_file_round_trip(void **state)
{
	(void)state;
	for (int n = GEN_MIN_SIZE; n <= 12; n++)
		for (uint64_t seed = 0; seed < 20; seed++) {
			struct rng r;
			uint64_t big = seed * 0x9e3779b97f4a7c15u;
			rng_seed(&r, big);
			struct gen_puzzle g = {0};
			assert_int_equal(gen_draw(&r, n, &g), GEN_OK);
			struct puzzle p, q;
			assert_int_equal(gen_to_puzzle(&g, big, &p), GEN_OK);
			size_t len, len2;
			char *text = write_text(&p, &len);
			struct puz_error e;
			assert_int_equal(puz_read_mem(text, len, &q, &e), PUZ_OK);
			assert_string_equal(q.name, p.name);
			assert_int_equal(q.size, n);
			assert_true(q.has_seed);
			assert_true(q.seed == big);
			assert_int_equal(q.npieces, 6);
			assert_memory_equal(q.goal.cells, p.goal.cells, (size_t)n * n * n);
			for (int i = 0; i < 6; i++) {
				assert_string_equal(q.pieces[i].name, p.pieces[i].name);
				assert_int_equal(q.pieces[i].shape.nx, n);
				assert_int_equal(q.pieces[i].shape.ny, n);
				assert_int_equal(q.pieces[i].shape.nz, 1);
				assert_memory_equal(q.pieces[i].shape.cells, g.piece[i],
				                    (size_t)n * n);
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
}

static void test_gen_puzzle_clear_accepts_zeroed(void **state)
{
	struct gen_puzzle g;

	(void)state;
	memset(&g, 0, sizeof g);
	gen_puzzle_clear(&g);
	draw(3, 4, &g);
	gen_puzzle_clear(&g);
	assert_null(g.owner);
	for (int i = 0; i < 6; i++)
		assert_null(g.piece[i]);
	gen_puzzle_clear(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gen_face_cell_net),
		cmocka_unit_test(test_gen_face_names),
		cmocka_unit_test(test_gen_draw_follows_design_rules),
		cmocka_unit_test(test_gen_draw_extreme_sizes),
		cmocka_unit_test(test_gen_reconstruct_from_drawings),
		cmocka_unit_test(test_gen_draw_follows_documented_stream),
		cmocka_unit_test(test_gen_edges_split_evenly),
		cmocka_unit_test(test_gen_corners_uniform),
		cmocka_unit_test(test_gen_scramble_hits_all),
		cmocka_unit_test(test_gen_same_seed_same_bytes),
		cmocka_unit_test(test_gen_different_seeds_differ),
		cmocka_unit_test(test_gen_golden),
		cmocka_unit_test(test_gen_write_answer_contents),
		cmocka_unit_test(test_gen_write_answer_eio),
		cmocka_unit_test(test_gen_to_puzzle),
		cmocka_unit_test(test_gen_puzzle_file_round_trip),
		cmocka_unit_test(test_gen_puzzle_clear_accepts_zeroed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
