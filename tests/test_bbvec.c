/* test_bbvec.c: the bitboard's AVX-512 list kernels (solver/bbvec.c), each
 * against a plain loop written here, on thousands of random lists: every
 * length from 0 to 70 and longer ones up to 2000, lengths that are and are
 * not multiples of the block, random groups (empty ones too) and copies
 * left, counts past the 32 where counting saturates, and type tables
 * longer than one 16-lane block. Outputs must match entry for entry, and
 * nothing may be written before an output or more than 8 entries past
 * what was kept (guards around every buffer). On a CPU without AVX-512
 * the tests are skipped: solver/bb.c never calls the kernels there. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/bbvec.h"

#define MAXN 2048
#define GUARD 16 /* entries of canary before and after each output */
#define CANARY64 0xa5a5a5a5a5a5a5a5u
#define CANARY32 0x5a5a5a5au

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static size_t rnd(uint64_t *s, size_t n)
{
	return (size_t)(splitmix64(s) % n);
}

/* A row of k random cells of 64, or of the first 'span' cells. */
static uint64_t row(uint64_t *s, unsigned k, unsigned span)
{
	uint64_t m = 0;
	while ((unsigned)__builtin_popcountll(m) < k)
		m |= (uint64_t)1 << rnd(s, span);
	return m;
}

/* The i-th list length of a run: 0..70 in turn, then random up to MAXN. */
static uint32_t length(uint64_t *s, int i)
{
	return i <= 70 ? (uint32_t)i : (uint32_t)rnd(s, MAXN - 8);
}

/* Lists of masks with few cells (many rows clash) or spread over 12
 * cells (counts past 32), and row numbers. */
static void fill_list(uint64_t *s, uint64_t *pm, uint32_t *pi, uint32_t n)
{
	unsigned k = 1 + (unsigned)rnd(s, 6), span = rnd(s, 2) ? 64 : 12;
	if (k > span)
		k = span;
	for (uint32_t i = 0; i < n; i++) {
		pm[i] = row(s, k, span);
		pi[i] = (uint32_t)splitmix64(s);
	}
}

static void skip_without_avx512(void)
{
	if (!bbvec_usable()) {
		print_message("no AVX-512 on this CPU: the kernels are never "
		              "called, nothing to test\n");
		skip();
	}
}

static void guard64(uint64_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = CANARY64;
}

static void guard32(uint32_t *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = CANARY32;
}

/* Canaries intact outside [GUARD, GUARD + used + 8). */
static void check_guards64(const uint64_t *buf, size_t used, size_t total)
{
	for (size_t i = 0; i < GUARD; i++)
		assert_true(buf[i] == CANARY64);
	for (size_t i = GUARD + used + 8; i < total; i++)
		assert_true(buf[i] == CANARY64);
}

static void check_guards32(const uint32_t *buf, size_t used, size_t total)
{
	for (size_t i = 0; i < GUARD; i++)
		assert_true(buf[i] == CANARY32);
	for (size_t i = GUARD + used + 8; i < total; i++)
		assert_true(buf[i] == CANARY32);
}

static void test_filter(void **state)
{
	(void)state;
	skip_without_avx512();
	uint64_t s = 0x66696c74u; /* "filt" */
	size_t total = MAXN + 2 * GUARD;
	uint64_t *pm = malloc(MAXN * sizeof *pm), *om = malloc(total * sizeof *om);
	uint32_t *pi = malloc(MAXN * sizeof *pi), *oi = malloc(total * sizeof *oi);
	uint64_t *wm = malloc(MAXN * sizeof *wm);
	uint32_t *wi = malloc(MAXN * sizeof *wi);
	assert_true(pm && om && pi && oi && wm && wi);
	for (int trial = 0; trial < 3000; trial++) {
		uint32_t n = length(&s, trial % 400);
		fill_list(&s, pm, pi, n);
		size_t T = 1 + rnd(&s, 20);
		uint32_t g[22], og[22 + GUARD], wg[22];
		unsigned rem[21];
		/* T - 1 random cuts of [0, n], sorted: groups, some empty */
		g[0] = 0;
		g[T] = n;
		for (size_t t = 1; t < T; t++)
			g[t] = (uint32_t)rnd(&s, n + 1);
		for (size_t t = 1; t < T; t++)
			for (size_t u = t; u > 1 && g[u - 1] > g[u]; u--) {
				uint32_t x = g[u];
				g[u] = g[u - 1];
				g[u - 1] = x;
			}
		for (size_t t = 0; t < T; t++)
			rem[t] = rnd(&s, 4) ? 1 + (unsigned)rnd(&s, 2) : 0;
		uint64_t rm = rnd(&s, 8) ? row(&s, 1 + (unsigned)rnd(&s, 5), 64) : 0;
		/* the plain loop */
		uint64_t want = 0;
		uint32_t k = 0;
		for (size_t t = 0; t < T; t++) {
			wg[t] = k;
			if (!rem[t])
				continue;
			for (uint32_t i = g[t]; i < g[t + 1]; i++)
				if (!(pm[i] & rm)) {
					wm[k] = pm[i];
					wi[k++] = pi[i];
					want |= pm[i];
				}
		}
		wg[T] = k;
		guard64(om, total);
		guard32(oi, total);
		guard32(og, T + 1 + GUARD);
		uint64_t got = bbvec_filter(pm, pi, g, rem, T, rm, om + GUARD,
		                            oi + GUARD, og);
		assert_true(got == want);
		assert_memory_equal(og, wg, (T + 1) * sizeof *og);
		assert_true(og[T + 1] == CANARY32);
		if (k) {
			assert_memory_equal(om + GUARD, wm, k * sizeof *wm);
			assert_memory_equal(oi + GUARD, wi, k * sizeof *wi);
		}
		check_guards64(om, k, total);
		check_guards32(oi, k, total);
	}
	free(pm);
	free(om);
	free(pi);
	free(oi);
	free(wm);
	free(wi);
}

static void test_cover(void **state)
{
	(void)state;
	skip_without_avx512();
	uint64_t s = 0x636f76u; /* "cov" */
	uint64_t *pm = malloc(MAXN * sizeof *pm);
	uint32_t *pi = malloc(MAXN * sizeof *pi);
	assert_true(pm && pi);
	size_t yes = 0, no = 0;
	for (int trial = 0; trial < 20000; trial++) {
		uint32_t n = length(&s, trial % 300);
		fill_list(&s, pm, pi, n);
		uint32_t i = n ? (uint32_t)rnd(&s, n + 1) : 0;
		uint64_t rm = row(&s, 1 + (unsigned)rnd(&s, 5), 64);
		uint64_t all = 0;
		for (uint32_t j = i; j < n; j++)
			all |= (pm[j] & rm) ? 0 : pm[j];
		/* bb's contract: the rows that go with rm lie within 'empty'
		 * (as the cells not filled); 'any' holds some of it. Half the
		 * time one cell more, that no row may cover. */
		uint64_t any0 = rnd(&s, 2) ? all & splitmix64(&s) : 0;
		uint64_t empty = all | any0;
		if (rnd(&s, 2))
			empty |= (uint64_t)1 << rnd(&s, 64) & ~rm;
		bool want = (all | any0) == empty;
		uint64_t any = any0;
		bool got = bbvec_cover(pm, i, n, rm, empty, &any);
		assert_true(got == want);
		assert_true(any == (all | any0));
		yes += want;
		no += !want;
	}
	print_message("cover: %zu covered, %zu not\n", yes, no);
	assert_true(yes > 2000 && no > 2000);
	free(pm);
	free(pi);
}

static void test_count(void **state)
{
	(void)state;
	skip_without_avx512();
	uint64_t s = 0x636e74u; /* "cnt" */
	uint64_t *pm = malloc(MAXN * sizeof *pm);
	uint32_t *pi = malloc(MAXN * sizeof *pi);
	assert_true(pm && pi);
	size_t saturated = 0;
	for (int trial = 0; trial < 4000; trial++) {
		uint32_t n = length(&s, trial % 300);
		fill_list(&s, pm, pi, n);
		uint64_t want[6] = {0}, got[6];
		for (int c = 0; c < 64; c++) {
			unsigned k = 0;
			for (uint32_t i = 0; i < n; i++)
				k += (unsigned)(pm[i] >> c & 1);
			if (k >= 32) {
				want[5] |= (uint64_t)1 << c;
				saturated++;
			}
			for (int j = 0; j < 5; j++)
				want[j] |= (uint64_t)(k >> j & 1) << c;
		}
		bbvec_count(pm, n, got);
		/* a saturated cell's low bits are the count mod 32 */
		assert_memory_equal(got, want, sizeof want);
	}
	assert_true(saturated > 1000);
	free(pm);
	free(pi);
}

static void test_gather(void **state)
{
	(void)state;
	skip_without_avx512();
	uint64_t s = 0x676174u; /* "gat" */
	size_t total = MAXN + 2 * GUARD;
	uint64_t *pm = malloc(MAXN * sizeof *pm);
	uint32_t *pi = malloc(MAXN * sizeof *pi), *sel = malloc(total * sizeof *sel);
	uint32_t *want = malloc(MAXN * sizeof *want);
	assert_true(pm && pi && sel && want);
	for (int trial = 0; trial < 4000; trial++) {
		uint32_t n = length(&s, trial % 300);
		fill_list(&s, pm, pi, n);
		uint64_t cell = (uint64_t)1 << rnd(&s, 64);
		unsigned k = 0;
		for (uint32_t i = 0; i < n; i++)
			if (pm[i] & cell)
				want[k++] = i;
		guard32(sel, total);
		assert_int_equal(bbvec_gather(pm, n, cell, sel + GUARD), k);
		if (k)
			assert_memory_equal(sel + GUARD, want, k * sizeof *want);
		check_guards32(sel, k, total);
	}
	free(pm);
	free(pi);
	free(sel);
	free(want);
}

static void test_types(void **state)
{
	(void)state;
	skip_without_avx512();
	uint64_t s = 0x747970u; /* "typ" */
	size_t some = 0, none = 0, dead = 0, far = 0;
	for (int trial = 0; trial < 20000; trial++) {
		size_t T = 1 + rnd(&s, 40);
		uint32_t g[41];
		unsigned rem[40], count[40];
		g[0] = 0;
		for (size_t t = 0; t < T; t++) {
			/* few rows so that ties are common */
			g[t + 1] = g[t] + (uint32_t)rnd(&s, rnd(&s, 2) ? 4 : 40);
			count[t] = 1 + (unsigned)(rnd(&s, 4) == 0);
			rem[t] = (unsigned)rnd(&s, count[t] + 1);
			if (rnd(&s, 3) && g[t + 1] - g[t] < rem[t])
				g[t + 1] = g[t] + rem[t]; /* mostly alive */
		}
		bool want_ok = true;
		unsigned want_best = UINT32_MAX;
		size_t want_bt = T;
		for (size_t t = 0; t < T; t++) {
			unsigned n = g[t + 1] - g[t];
			if (n < rem[t])
				want_ok = false;
			if (rem[t] && count[t] == 1 && n < want_best) {
				want_best = n;
				want_bt = t;
			}
		}
		unsigned best = 7;
		size_t bt = 7;
		bool ok = bbvec_types(g, rem, count, T, &best, &bt);
		assert_true(ok == want_ok);
		if (!ok) {
			dead++;
			continue;
		}
		assert_int_equal(best, want_best);
		assert_int_equal(bt, want_bt);
		some += want_bt < T;
		none += want_bt == T;
		far += want_bt >= 16;
	}
	print_message("types: %zu ended, %zu with a type to branch on (%zu "
	              "past the first 16), %zu without\n", dead, some, far, none);
	assert_true(dead > 1000 && some > 1000 && far > 100 && none > 100);
}

/* The comparisons can fail: a plain loop that differs from the kernel in
 * one entry is caught. */
static void test_comparison_can_fail(void **state)
{
	(void)state;
	skip_without_avx512();
	uint64_t pm[20], want[6] = {0}, got[6];
	for (int i = 0; i < 20; i++)
		pm[i] = (uint64_t)1 << (i % 3);
	for (int c = 0; c < 3; c++) {
		unsigned k = c < 2 ? 7 : 6;
		for (int j = 0; j < 5; j++)
			want[j] |= (uint64_t)(k >> j & 1) << c;
	}
	bbvec_count(pm, 20, got);
	assert_memory_equal(got, want, sizeof want);
	want[0] ^= 1; /* cell 0 counted 6 */
	assert_memory_not_equal(got, want, sizeof want);
	uint32_t sel[32];
	assert_int_equal(bbvec_gather(pm, 20, 4, sel), 6);
	assert_int_equal(sel[5], 17);
	assert_int_not_equal(bbvec_gather(pm, 19, 4, sel), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_gather),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_comparison_can_fail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
