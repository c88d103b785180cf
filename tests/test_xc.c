/* test_xc.c: the dancing-links engine against known answers and against
 * plain subset enumeration on random instances. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "solver/xc.h"

struct collect {
	size_t count;
	size_t rows[16][8];
	size_t nrows[16];
	size_t stop_after; /* 0: never */
};

static bool collect(void *ctx, const size_t *rows, size_t n)
{
	struct collect *c = ctx;
	if (c->count < 16) {
		memcpy(c->rows[c->count], rows, n * sizeof *rows);
		c->nrows[c->count] = n;
	}
	c->count++;
	return !(c->stop_after && c->count >= c->stop_after);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return (x > y) - (x < y);
}

/* Knuth, TAOCP 7.2.2.1 (6): items a..g, one solution {a d f} {b g} {c e}. */
static void test_xc_knuth_example(void **state)
{
	(void)state;
	static const size_t opt[6][3] = {{2, 4}, {0, 3, 6}, {1, 2, 5},
	                                 {0, 3, 5}, {1, 6}, {3, 4, 6}};
	static const size_t len[6] = {2, 3, 3, 3, 2, 3};
	xc *x = xc_new(7, 0, NULL);
	assert_non_null(x);
	for (int i = 0; i < 6; i++)
		assert_int_equal(xc_add_row(x, opt[i], len[i]), XC_OK);
	struct collect c = {0};
	uint64_t nodes;
	assert_int_equal(xc_solve(x, 0, collect, &c, &nodes), XC_DONE);
	assert_int_equal(c.count, 1);
	assert_int_equal(c.nrows[0], 3);
	qsort(c.rows[0], 3, sizeof c.rows[0][0], cmp_size);
	assert_int_equal(c.rows[0][0], 0);
	assert_int_equal(c.rows[0][1], 3);
	assert_int_equal(c.rows[0][2], 4);
	assert_true(nodes > 0);
	assert_true(xc_intact(x));
	/* solving twice gives the same answer */
	struct collect d = {0};
	assert_int_equal(xc_solve(x, 0, collect, &d, &nodes), XC_DONE);
	assert_int_equal(d.count, 1);
	xc_free(x);
}

/* Three cells, three monocubes of one type: bound 3 gives one cover,
 * bound 2 none (bounded items must be used exactly). */
static void test_xc_bounded_exact(void **state)
{
	(void)state;
	for (unsigned bound = 1; bound <= 4; bound++) {
		xc *x = xc_new(3, 1, &bound);
		for (size_t c = 0; c < 3; c++) {
			size_t row[2] = {c, 3};
			assert_int_equal(xc_add_row(x, row, 2), XC_OK);
		}
		struct collect col = {0};
		uint64_t nodes;
		xc_solve(x, 0, collect, &col, &nodes);
		assert_int_equal(col.count, bound == 3 ? 1 : 0);
		assert_true(xc_intact(x));
		xc_free(x);
	}
}

static void test_xc_limits(void **state)
{
	(void)state;
	/* 4 cells, dominoes and monocubes: many covers */
	xc *x = xc_new(4, 0, NULL);
	for (size_t c = 0; c < 4; c++) {
		size_t r1[1] = {c};
		assert_int_equal(xc_add_row(x, r1, 1), XC_OK);
		if (c + 1 < 4) {
			size_t r2[2] = {c, c + 1};
			assert_int_equal(xc_add_row(x, r2, 2), XC_OK);
		}
	}
	struct collect all = {0};
	uint64_t nodes;
	assert_int_equal(xc_solve(x, 0, collect, &all, &nodes), XC_DONE);
	assert_int_equal(all.count, 5); /* tilings of a 1x4 strip */
	struct collect two = {.stop_after = 2};
	assert_int_equal(xc_solve(x, 0, collect, &two, &nodes), XC_VISITOR);
	assert_int_equal(two.count, 2);
	assert_true(xc_intact(x));
	struct collect few = {0};
	assert_int_equal(xc_solve(x, 3, collect, &few, &nodes), XC_NODES);
	assert_int_equal(nodes, 3);
	assert_true(few.count < 5);
	assert_true(xc_intact(x));
	xc_free(x);
}

/* Count covers of random instances by trying every subset of rows. */
static size_t brute(size_t nitems, size_t nprim, const unsigned *bound,
                    const size_t (*rows)[4], const size_t *len, size_t nrows)
{
	size_t count = 0;
	for (uint32_t m = 0; m < (1u << nrows); m++) {
		unsigned used[16] = {0};
		for (size_t r = 0; r < nrows; r++)
			if (m >> r & 1)
				for (size_t k = 0; k < len[r]; k++)
					used[rows[r][k]]++;
		bool ok = true;
		for (size_t i = 0; i < nitems; i++)
			ok &= used[i] == (i < nprim ? 1 : bound[i - nprim]);
		count += ok;
	}
	return count;
}

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005u + 1442695040888963407u;
	return *s;
}

static void test_xc_random_differential(void **state)
{
	(void)state;
	uint64_t s = 12345;
	size_t nonzero = 0;
	for (int trial = 0; trial < 400; trial++) {
		size_t nprim = 2 + (lcg(&s) >> 61);
		size_t nb = lcg(&s) >> 62;
		if (nb > 2)
			nb = 2;
		unsigned bound[2];
		for (size_t j = 0; j < nb; j++)
			bound[j] = 1 + (unsigned)(lcg(&s) >> 63);
		size_t nitems = nprim + nb, nrows = 4 + trial % 11;
		size_t rows[16][4], len[16];
		for (size_t r = 0; r < nrows; r++) {
			len[r] = 0;
			uint64_t pick = lcg(&s) >> 20;
			for (size_t i = 0; i < nitems && len[r] < 4; i++)
				if (pick >> (3 * i) & 1 || (i + 1 == nprim && len[r] == 0))
					rows[r][len[r]++] = i; /* >= 1 primary item */
		}
		size_t want = brute(nitems, nprim, bound, (const size_t (*)[4])rows, len, nrows);
		xc *x = xc_new(nprim, nb, bound);
		for (size_t r = 0; r < nrows; r++)
			assert_int_equal(xc_add_row(x, rows[r], len[r]), XC_OK);
		struct collect c = {0};
		uint64_t nodes;
		xc_solve(x, 0, collect, &c, &nodes);
		assert_int_equal(c.count, want);
		assert_true(xc_intact(x));
		nonzero += want > 0;
		xc_free(x);
	}
	/* the comparison must have had something to compare */
	assert_true(nonzero > 40);
}

/* Ranges: every cover, as a bit set of rows, visited exactly once. */
struct masks {
	uint32_t seen[1u << 12]; /* visits per row set (rows < 12) */
	size_t count;
};

static bool collect_mask(void *ctx, const size_t *rows, size_t n)
{
	struct masks *m = ctx;
	uint32_t set = 0;
	for (size_t k = 0; k < n; k++) {
		assert_true(rows[k] < 12);
		assert_false(set >> rows[k] & 1); /* a row twice in one cover */
		set |= 1u << rows[k];
	}
	m->seen[set]++;
	m->count++;
	return true;
}

static void test_xc_ranges_differential(void **state)
{
	(void)state;
	uint64_t s = 777;
	size_t nonzero = 0, many = 0, bare = 0;
	for (int trial = 0; trial < 1500; trial++) {
		size_t nprim = lcg(&s) >> 62;             /* 0..3 */
		size_t nb = 1 + (lcg(&s) >> 62);          /* 1..4 */
		unsigned lo[4], hi[4];
		for (size_t j = 0; j < nb; j++) {
			hi[j] = 1 + (unsigned)(lcg(&s) >> 62); /* 1..4 */
			lo[j] = (unsigned)(lcg(&s) % (hi[j] + 1));
		}
		size_t nitems = nprim + nb, nrows = 3 + (size_t)(lcg(&s) % 10);
		size_t rows[12][4], len[12];
		for (size_t r = 0; r < nrows; r++) {
			len[r] = 0;
			uint64_t pick = lcg(&s) >> 20;
			for (size_t i = 0; i < nitems && len[r] < 4; i++)
				if (pick >> (2 * i) & 1)
					rows[r][len[r]++] = i;
			if (len[r] == 0)
				rows[r][len[r]++] = nprim + (size_t)(pick % nb);
			bool prim = false;
			for (size_t k = 0; k < len[r]; k++)
				prim |= rows[r][k] < nprim;
			bare += !prim;
		}
		xc *x = xc_new_ranges(nprim, nb, lo, hi);
		assert_non_null(x);
		for (size_t r = 0; r < nrows; r++)
			assert_int_equal(xc_add_row(x, rows[r], len[r]), XC_OK);
		struct masks *m = calloc(1, sizeof *m);
		assert_non_null(m);
		uint64_t nodes;
		assert_int_equal(xc_solve(x, 0, collect_mask, m, &nodes), XC_DONE);
		assert_true(xc_intact(x));
		size_t want = 0;
		for (uint32_t set = 0; set < (1u << nrows); set++) {
			unsigned used[8] = {0};
			for (size_t r = 0; r < nrows; r++)
				if (set >> r & 1)
					for (size_t k = 0; k < len[r]; k++)
						used[rows[r][k]]++;
			bool ok = true;
			for (size_t i = 0; i < nitems; i++)
				ok &= i < nprim ? used[i] == 1
				                : used[i] >= lo[i - nprim] && used[i] <= hi[i - nprim];
			assert_int_equal(m->seen[set], ok ? 1 : 0);
			want += ok;
		}
		assert_int_equal(m->count, want);
		nonzero += want > 0;
		many += want > 3;
		free(m);
		xc_free(x);
	}
	assert_true(nonzero > 300 && many > 50 && bare > 500);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xc_knuth_example),
		cmocka_unit_test(test_xc_bounded_exact),
		cmocka_unit_test(test_xc_limits),
		cmocka_unit_test(test_xc_random_differential),
		cmocka_unit_test(test_xc_ranges_differential),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
