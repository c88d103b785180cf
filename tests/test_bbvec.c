/* test_bbvec.c: the bitboards' list kernels, on AVX-512 (solver/bbvec.c)
 * and on AVX2 (solver/bbvec2.c), each against a plain loop written here,
 * filter and cover on rows of one word (bb.c, both levels) and of two
 * (bbw.c, AVX-512), on thousands of random lists: every length from 0
 * to 70 and longer ones up to 2000, lengths that are and are not
 * multiples of the block, random groups (empty ones too) and copies left,
 * counts past the 32 where counting saturates, and type tables longer
 * than one block of lanes. Outputs must match entry for entry, and nothing
 * may be written before an output or more than 8 entries past what was
 * kept (guards around every buffer); the one-word kernels read their
 * lists from blocks of the lists' exact size, so valgrind (which runs
 * AVX2 but hides AVX-512) sees a read past an end. Each level the CPU
 * lacks is skipped: solver/bb.c never calls its kernels there. The wide
 * board's squeeze (PEXT) is checked the same way. */
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
#include "tests/testrand.h"

#define MAXN 2048
#define GUARD 16 /* entries of canary before and after each output */
#define CANARY64 0xa5a5a5a5a5a5a5a5u
#define CANARY32 0x5a5a5a5au

/* A number in [0, n), n >= 1, for sizes (testrand.h's draw() is int). */
static size_t draw(uint64_t *s, size_t n)
{
	return (size_t)(splitmix(s) % n);
}

/* A row of k random cells of 64, or of the first 'span' cells. */
static uint64_t row(uint64_t *s, unsigned k, unsigned span)
{
	uint64_t m = 0;
	while ((unsigned)__builtin_popcountll(m) < k)
		m |= (uint64_t)1 << draw(s, span);
	return m;
}

/* The i-th list length of a run: 0..70 in turn, then random up to MAXN. */
static uint32_t length(uint64_t *s, int i)
{
	return i <= 70 ? (uint32_t)i : (uint32_t)draw(s, MAXN - 8);
}

/* Lists of masks with few cells (many rows clash) or spread over 12
 * cells (counts past 32), and row numbers. */
static void fill_list(uint64_t *s, uint64_t *pm, uint32_t *pi, uint32_t n)
{
	unsigned k = 1 + (unsigned)draw(s, 6), span = draw(s, 2) ? 64 : 12;
	if (k > span)
		k = span;
	for (uint32_t i = 0; i < n; i++) {
		pm[i] = row(s, k, span);
		pi[i] = (uint32_t)splitmix(s);
	}
}

/* A row of two words (cells 0..127): k random cells of 128, or of the 12
 * cells 58..69 across the words' boundary (rows clash in both words). */
static void row2(uint64_t *s, unsigned k, bool across, uint64_t m[2])
{
	m[0] = m[1] = 0;
	for (unsigned j = 0; j < k;) {
		unsigned c = across ? 58 + (unsigned)draw(s, 12)
		                    : (unsigned)draw(s, 128);
		if (!(m[c / 64] >> (c % 64) & 1)) {
			m[c / 64] |= (uint64_t)1 << (c % 64);
			j++;
		}
	}
}

/* fill_list's lists on W words: word 0 of each row in p0, word 1 in p1
 * (rows of two words as row2 makes them). */
static void fill_lists(uint64_t *s, int W, uint64_t *p0, uint64_t *p1,
                       uint32_t *pi, uint32_t n)
{
	if (W == 1) {
		fill_list(s, p0, pi, n);
		return;
	}
	unsigned k = 1 + (unsigned)draw(s, 6);
	bool across = draw(s, 2);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t m[2];
		row2(s, k, across, m);
		p0[i] = m[0];
		p1[i] = m[1];
		pi[i] = (uint32_t)splitmix(s);
	}
}

/* The one-word kernels of a level (bbvec.h). */
struct level {
	const char *name;
	bool (*usable)(void);
	uint64_t (*filter)(const uint64_t *, const uint32_t *, const uint32_t *,
	                   const unsigned *, size_t, uint64_t,
	                   const struct bb_holes *, uint64_t *, uint32_t *,
	                   uint32_t *);
	bool (*cover)(const uint64_t *, uint32_t, uint32_t, uint64_t, uint64_t,
	              uint64_t *);
	void (*count)(const uint64_t *, uint32_t, uint64_t[6]);
	unsigned (*gather)(const uint64_t *, uint32_t, uint64_t, uint32_t *);
	bool (*types)(const uint32_t *, const unsigned *, const unsigned *,
	              size_t, unsigned *, size_t *);
};

static const struct level levels[] = {
	{"AVX-512", bbvec_usable, bbvec_filter, bbvec_cover, bbvec_count,
	 bbvec_gather, bbvec_types},
	{"AVX2", bbvec_avx2_usable, bbvec_avx2_filter, bbvec_avx2_cover,
	 bbvec_avx2_count, bbvec_avx2_gather, bbvec_avx2_types},
};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* Level v, or NULL (said so) when the CPU lacks it. */
static const struct level *level(size_t v)
{
	if (levels[v].usable())
		return &levels[v];
	print_message("no %s on this CPU: its kernels are never called\n",
	              levels[v].name);
	return NULL;
}

/* A copy of a[0..n) in a block of exactly n entries (one when n is 0),
 * that the caller frees: a kernel reading past the end of it is caught
 * by valgrind. */
static void *exact(const void *a, size_t n, size_t size)
{
	void *x = malloc(n ? n * size : 1);
	assert_non_null(x);
	if (n)
		memcpy(x, a, n * size);
	return x;
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

/* A random box of at most 64 cells (sides 1 to 8) for the rule against
 * holes, its masks as bbvec.h describes them, and a random set of empty
 * cells in it; dims[0..3) its sides. Returns its cells. */
static uint64_t random_holes(uint64_t *s, struct bb_holes *h,
                             unsigned dims[3])
{
	do
		for (int k = 0; k < 3; k++)
			dims[k] = 1 + (unsigned)draw(s, 8);
	while (dims[0] * dims[1] * dims[2] > 64);
	unsigned n = dims[0] * dims[1] * dims[2];
	*h = (struct bb_holes){0};
	unsigned step = 1;
	for (int k = 0; k < 3; k++) {
		for (unsigned c = 0; c < n; c++) {
			unsigned at = c / step % dims[k];
			h->lo[k] |= (uint64_t)(at == 0) << c;
			h->hi[k] |= (uint64_t)(at == dims[k] - 1) << c;
		}
		h->sh[k] = dims[k] > 1 ? step : 0;
		step *= dims[k];
	}
	uint64_t cells = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
	/* mostly full, so that a row makes holes now and then */
	h->empty = cells & ~(splitmix(s) & splitmix(s) & splitmix(s));
	return cells;
}

/* Whether m leaves a cell of 'empty' with no empty face neighbour in the
 * box dims, by coordinates. */
static bool isolates_ref(const unsigned dims[3], uint64_t empty, uint64_t m)
{
	uint64_t e = empty & ~m;
	for (unsigned c = 0; c < 64; c++) {
		if (!(e >> c & 1))
			continue;
		unsigned at[3] = {c % dims[0], c / dims[0] % dims[1],
		                  c / (dims[0] * dims[1])};
		bool alone = true;
		for (int k = 0; k < 3 && alone; k++)
			for (int dir = -1; dir <= 1; dir += 2) {
				int v = (int)at[k] + dir;
				if (v < 0 || v >= (int)dims[k])
					continue;
				unsigned b[3] = {at[0], at[1], at[2]};
				b[k] = (unsigned)v;
				unsigned nb = (b[2] * dims[1] + b[1]) * dims[0] + b[0];
				if (e >> nb & 1)
					alone = false;
			}
		if (alone)
			return true;
	}
	return false;
}

/* Random gaps for bbw.c's rule against holes (bbvec.h): 1 to 6 gaps,
 * some of 64 cells or more (across the words), each with a random half
 * of the cells it can have (i + delta < 128), and a mostly full set of
 * empty cells. */
static void random_holes2(uint64_t *s, struct bb_holes2 *h)
{
	*h = (struct bb_holes2){0};
	h->ngaps = 1 + draw(s, 6);
	for (size_t k = 0; k < h->ngaps; k++) {
		unsigned d = draw(s, 3) ? 1 + (unsigned)draw(s, 20)
		                        : 1 + (unsigned)draw(s, 127);
		h->delta[k] = d;
		for (unsigned i = 0; i + d < 128; i++)
			if (draw(s, 2))
				h->src[k][i / 64] |= (uint64_t)1 << (i % 64);
	}
	for (int w = 0; w < 2; w++)
		h->empty[w] = ~(splitmix(s) & splitmix(s) & splitmix(s));
}

/* Whether m (two words) leaves a cell of h->empty with no empty neighbour
 * by h's gaps, cell by cell. */
static bool isolates2_ref(const struct bb_holes2 *h, const uint64_t *m)
{
	uint64_t e[2] = {h->empty[0] & ~m[0], h->empty[1] & ~m[1]};
	for (unsigned c = 0; c < 128; c++) {
		if (!(e[c / 64] >> (c % 64) & 1))
			continue;
		bool alone = true;
		for (size_t k = 0; k < h->ngaps && alone; k++) {
			unsigned d = h->delta[k];
			if (h->src[k][c / 64] >> (c % 64) & 1 &&
			    e[(c + d) / 64] >> ((c + d) % 64) & 1)
				alone = false;
			if (c >= d && h->src[k][(c - d) / 64] >> ((c - d) % 64) & 1 &&
			    e[(c - d) / 64] >> ((c - d) % 64) & 1)
				alone = false;
		}
		if (alone)
			return true;
	}
	return false;
}

/* The filter on W words (L's one-word filter, bbvec_filter2) against the
 * plain loop: groups at random cuts (some empty), copies left or not; the
 * one-word filter every other time without row numbers (bb.c's lists),
 * when it must leave the numbers' output alone, and every third time with
 * the rule against holes (one word: rows within a random box; two: random
 * gaps). */
static void filter_trials(int W, const struct level *L, uint64_t s)
{
	size_t total = MAXN + 2 * GUARD;
	uint64_t *p[2], *o[2], *wm[2];
	for (int w = 0; w < 2; w++) {
		p[w] = malloc(MAXN * sizeof *p[w]);
		o[w] = malloc(total * sizeof *o[w]);
		wm[w] = malloc(MAXN * sizeof *wm[w]);
		assert_true(p[w] && o[w] && wm[w]);
	}
	uint32_t *pi = malloc(MAXN * sizeof *pi), *oi = malloc(total * sizeof *oi);
	uint32_t *wi = malloc(MAXN * sizeof *wi);
	assert_true(pi && oi && wi);
	for (int trial = 0; trial < 3000; trial++) {
		uint32_t n = length(&s, trial % 400);
		fill_lists(&s, W, p[0], p[1], pi, n);
		size_t T = 1 + draw(&s, 20);
		uint32_t g[22], og[22 + GUARD], wg[22];
		unsigned rem[21];
		/* T - 1 random cuts of [0, n], sorted: groups, some empty */
		g[0] = 0;
		g[T] = n;
		for (size_t t = 1; t < T; t++)
			g[t] = (uint32_t)draw(&s, n + 1);
		for (size_t t = 1; t < T; t++)
			for (size_t u = t; u > 1 && g[u - 1] > g[u]; u--) {
				uint32_t x = g[u];
				g[u] = g[u - 1];
				g[u - 1] = x;
			}
		for (size_t t = 0; t < T; t++)
			rem[t] = draw(&s, 4) ? 1 + (unsigned)draw(&s, 2) : 0;
		uint64_t rm[2] = {0, 0};
		if (draw(&s, 8)) {
			if (W == 1)
				rm[0] = row(&s, 1 + (unsigned)draw(&s, 5), 64);
			else
				row2(&s, 1 + (unsigned)draw(&s, 5), draw(&s, 2), rm);
		}
		struct bb_holes h;
		struct bb_holes2 h2;
		unsigned dims[3];
		bool holes = trial % 3 == 0;
		if (holes && W == 1) {
			uint64_t box = random_holes(&s, &h, dims);
			for (uint32_t i = 0; i < n; i++)
				p[0][i] &= box;
			rm[0] &= box;
		} else if (holes) {
			random_holes2(&s, &h2);
		}
		/* the plain loop */
		uint64_t want[2] = {0, 0};
		uint32_t k = 0;
		for (size_t t = 0; t < T; t++) {
			wg[t] = k;
			if (!rem[t])
				continue;
			for (uint32_t i = g[t]; i < g[t + 1]; i++)
				if (!(p[0][i] & rm[0]) &&
				    (W == 1 || !(p[1][i] & rm[1])) &&
				    !(holes && W == 1 &&
				      isolates_ref(dims, h.empty, p[0][i])) &&
				    !(holes && W == 2 &&
				      isolates2_ref(&h2, (uint64_t[2]){p[0][i],
				                                       p[1][i]}))) {
					for (int w = 0; w < W; w++) {
						wm[w][k] = p[w][i];
						want[w] |= p[w][i];
					}
					wi[k++] = pi[i];
				}
		}
		wg[T] = k;
		for (int w = 0; w < 2; w++)
			guard64(o[w], total);
		guard32(oi, total);
		guard32(og, T + 1 + GUARD);
		uint64_t got[2] = {0, 0};
		bool ids = W == 2 || trial % 2;
		if (W == 1) {
			uint64_t *x = exact(p[0], n, sizeof *x);
			uint32_t *xi = ids ? exact(pi, n, sizeof *xi) : NULL;
			got[0] = L->filter(x, xi, g, rem, T, rm[0],
			                   holes ? &h : NULL, o[0] + GUARD,
			                   ids ? oi + GUARD : NULL, og);
			free(x);
			free(xi);
		} else
			bbvec_filter2(p[0], p[1], pi, g, rem, T, rm,
			              holes ? &h2 : NULL, o[0] + GUARD, o[1] + GUARD,
			              oi + GUARD, og, got);
		assert_memory_equal(got, want, sizeof want);
		assert_memory_equal(og, wg, (T + 1) * sizeof *og);
		assert_true(og[T + 1] == CANARY32);
		for (int w = 0; w < W && k; w++)
			assert_memory_equal(o[w] + GUARD, wm[w], k * sizeof *wm[w]);
		if (k && ids)
			assert_memory_equal(oi + GUARD, wi, k * sizeof *wi);
		for (int w = 0; w < W; w++)
			check_guards64(o[w], k, total);
		/* one word: the second output untouched */
		if (W == 1)
			check_guards64(o[1], 0, GUARD);
		if (ids)
			check_guards32(oi, k, total);
		else
			for (size_t i = 0; i < total; i++)
				assert_true(oi[i] == CANARY32);
	}
	for (int w = 0; w < 2; w++) {
		free(p[w]);
		free(o[w]);
		free(wm[w]);
	}
	free(pi);
	free(oi);
	free(wi);
}

static void test_filter(void **state)
{
	(void)state;
	for (size_t v = 0; v < NLEVELS; v++)
		if (level(v))
			filter_trials(1, &levels[v], 0x66696c74u); /* "filt" */
}

static void test_filter2(void **state)
{
	(void)state;
	skip_without_avx512();
	filter_trials(2, NULL, 0x66696c7432u); /* "filt2" */
}

/* The cover check on W words (L's one-word cover, bbvec_cover2) against
 * the plain loop, from a random start, covering or not. */
static void cover_trials(int W, const struct level *L, uint64_t s)
{
	uint64_t *p[2];
	for (int w = 0; w < 2; w++) {
		p[w] = malloc(MAXN * sizeof *p[w]);
		assert_true(p[w]);
	}
	uint32_t *pi = malloc(MAXN * sizeof *pi);
	assert_true(pi);
	size_t yes = 0, no = 0;
	for (int trial = 0; trial < 20000; trial++) {
		uint32_t n = length(&s, trial % 300);
		fill_lists(&s, W, p[0], p[1], pi, n);
		uint32_t i = n ? (uint32_t)draw(&s, n + 1) : 0;
		uint64_t rm[2] = {0, 0};
		if (W == 1)
			rm[0] = row(&s, 1 + (unsigned)draw(&s, 5), 64);
		else
			row2(&s, 1 + (unsigned)draw(&s, 5), draw(&s, 2), rm);
		uint64_t all[2] = {0, 0};
		for (uint32_t j = i; j < n; j++)
			if (!(p[0][j] & rm[0]) && (W == 1 || !(p[1][j] & rm[1])))
				for (int w = 0; w < W; w++)
					all[w] |= p[w][j];
		/* the engines' contract: the rows that go with rm lie within
		 * 'empty' (as the cells not filled); 'any' holds some of it.
		 * Half the time one cell more, that no row may cover. */
		uint64_t any0[2] = {0, 0}, empty[2] = {0, 0};
		bool any_given = draw(&s, 2);
		for (int w = 0; w < W; w++) {
			if (any_given)
				any0[w] = all[w] & splitmix(&s);
			empty[w] = all[w] | any0[w];
		}
		if (draw(&s, 2)) {
			int w = (int)draw(&s, (size_t)W);
			empty[w] |= (uint64_t)1 << draw(&s, 64) & ~rm[w];
		}
		bool want = true;
		for (int w = 0; w < W; w++)
			want &= (all[w] | any0[w]) == empty[w];
		uint64_t any[2] = {any0[0], any0[1]};
		bool got;
		if (W == 1) {
			uint64_t *x = exact(p[0], n, sizeof *x);
			got = L->cover(x, i, n, rm[0], empty[0], any);
			free(x);
		} else
			got = bbvec_cover2(p[0], p[1], i, n, rm, empty, any);
		assert_true(got == want);
		for (int w = 0; w < W; w++)
			assert_true(any[w] == (all[w] | any0[w]));
		if (W == 1)
			assert_true(any[1] == any0[1]); /* one word: untouched */
		yes += want;
		no += !want;
	}
	print_message("%s cover on %d word%s: %zu covered, %zu not\n",
	              W == 1 ? L->name : "AVX-512", W, W > 1 ? "s" : "", yes,
	              no);
	assert_true(yes > 2000 && no > 2000);
	for (int w = 0; w < 2; w++)
		free(p[w]);
	free(pi);
}

static void test_cover(void **state)
{
	(void)state;
	for (size_t v = 0; v < NLEVELS; v++)
		if (level(v))
			cover_trials(1, &levels[v], 0x636f76u); /* "cov" */
}

static void test_cover2(void **state)
{
	(void)state;
	skip_without_avx512();
	cover_trials(2, NULL, 0x636f7632u); /* "cov2" */
}

/* The cover check on 2 to 16 words (bbvec_coverw, bbvec_avx2_coverw:
 * each width to eight compiled alone, past it one loop)
 * against the plain loop: rows within a few words of a random stretch,
 * a row placed on one to three words (the kernels test only those), and
 * a start 'any' that often holds whole words already (the kernels then
 * neither load nor collect them). */
static void coverw_trials(int W, bool avx2, uint64_t s)
{
	uint64_t *p[BBVEC_MAX_WORDS];
	for (int w = 0; w < W; w++) {
		p[w] = malloc(MAXN * sizeof *p[w]);
		assert_true(p[w]);
	}
	size_t yes = 0, no = 0, skipped = 0;
	for (int trial = 0; trial < 4000; trial++) {
		uint32_t n = length(&s, trial % 300);
		for (uint32_t j = 0; j < n; j++) {
			int w0 = (int)draw(&s, (size_t)W);
			for (int w = 0; w < W; w++)
				p[w][j] = w == w0 || (w == w0 + 1 && draw(&s, 2))
				          ? row(&s, 1 + (unsigned)draw(&s, 3), 64) : 0;
		}
		uint32_t i = n ? (uint32_t)draw(&s, n + 1) : 0;
		uint64_t rm[BBVEC_MAX_WORDS] = {0}, all[BBVEC_MAX_WORDS] = {0};
		uint64_t any0[BBVEC_MAX_WORDS] = {0}, empty[BBVEC_MAX_WORDS];
		int r0 = (int)draw(&s, (size_t)W), rn = 1 + (int)draw(&s, 3);
		for (int w = r0; w < W && w < r0 + rn; w++)
			rm[w] = row(&s, 1 + (unsigned)draw(&s, 4), 64);
		for (uint32_t j = i; j < n; j++) {
			uint64_t x = 0;
			for (int w = 0; w < W; w++)
				x |= p[w][j] & rm[w];
			for (int w = 0; x == 0 && w < W; w++)
				all[w] |= p[w][j];
		}
		for (int w = 0; w < W; w++) {
			/* a word done already, some cells found, or none */
			unsigned k = (unsigned)draw(&s, 3);
			uint64_t extra = row(&s, 1, 64) & ~rm[w];
			any0[w] = k == 0 ? all[w] | extra : k == 1 ? all[w] & splitmix(&s) : 0;
			empty[w] = all[w] | any0[w];
			skipped += k == 0 && !rm[w];
		}
		if (draw(&s, 2)) {
			int w = (int)draw(&s, (size_t)W);
			empty[w] |= (uint64_t)1 << draw(&s, 64) & ~rm[w];
		}
		bool want = true;
		for (int w = 0; w < W; w++)
			want &= (all[w] | any0[w]) == empty[w];
		uint64_t any[BBVEC_MAX_WORDS];
		memcpy(any, any0, sizeof any);
		const uint64_t *const *pp = (const uint64_t *const *)p;
		bool got = avx2 ? bbvec_avx2_coverw(pp, i, n, rm, empty, any, W)
		                : bbvec_coverw(pp, i, n, rm, empty, any, W);
		assert_true(got == want);
		for (int w = 0; w < W; w++)
			assert_true(any[w] == (got ? empty[w] : all[w] | any0[w]));
		yes += want;
		no += !want;
	}
	print_message("%s cover on %d words: %zu covered, %zu not, %zu words "
	              "done from the start\n", avx2 ? "AVX2" : "AVX-512", W,
	              yes, no, skipped);
	assert_true(yes > 400 && no > 400 && skipped > 200 * (size_t)W);
	for (int w = 0; w < W; w++)
		free(p[w]);
}

static void test_coverw(void **state)
{
	(void)state;
	for (int W = 2; W <= BBVEC_MAX_WORDS; W++) {
		if (W > 2 && bbvec_usable())
			coverw_trials(W, false, 0x636f7677u + (uint64_t)W);
		if (bbvec_avx2_usable())
			coverw_trials(W, true, 0x636f7661u + (uint64_t)W);
	}
}

static void count_trials(const struct level *L)
{
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
		uint64_t *x = exact(pm, n, sizeof *x);
		L->count(x, n, got);
		free(x);
		/* a saturated cell's low bits are the count mod 32 */
		assert_memory_equal(got, want, sizeof want);
	}
	assert_true(saturated > 1000);
	free(pm);
	free(pi);
}

static void test_count(void **state)
{
	(void)state;
	for (size_t v = 0; v < NLEVELS; v++)
		if (level(v))
			count_trials(&levels[v]);
}

static void gather_trials(const struct level *L)
{
	uint64_t s = 0x676174u; /* "gat" */
	size_t total = MAXN + 2 * GUARD;
	uint64_t *pm = malloc(MAXN * sizeof *pm);
	uint32_t *pi = malloc(MAXN * sizeof *pi), *sel = malloc(total * sizeof *sel);
	uint32_t *want = malloc(MAXN * sizeof *want);
	assert_true(pm && pi && sel && want);
	for (int trial = 0; trial < 4000; trial++) {
		uint32_t n = length(&s, trial % 300);
		fill_list(&s, pm, pi, n);
		uint64_t cell = (uint64_t)1 << draw(&s, 64);
		unsigned k = 0;
		for (uint32_t i = 0; i < n; i++)
			if (pm[i] & cell)
				want[k++] = i;
		guard32(sel, total);
		uint64_t *x = exact(pm, n, sizeof *x);
		assert_int_equal(L->gather(x, n, cell, sel + GUARD), k);
		free(x);
		if (k)
			assert_memory_equal(sel + GUARD, want, k * sizeof *want);
		check_guards32(sel, k, total);
	}
	free(pm);
	free(pi);
	free(sel);
	free(want);
}

static void test_gather(void **state)
{
	(void)state;
	for (size_t v = 0; v < NLEVELS; v++)
		if (level(v))
			gather_trials(&levels[v]);
}

static void types_trials(const struct level *L)
{
	uint64_t s = 0x747970u; /* "typ" */
	size_t some = 0, none = 0, dead = 0, far = 0;
	for (int trial = 0; trial < 20000; trial++) {
		size_t T = 1 + draw(&s, 40);
		uint32_t g[41];
		unsigned rem[40], count[40];
		g[0] = 0;
		for (size_t t = 0; t < T; t++) {
			/* few rows so that ties are common */
			g[t + 1] = g[t] + (uint32_t)draw(&s, draw(&s, 2) ? 4 : 40);
			count[t] = 1 + (unsigned)(draw(&s, 4) == 0);
			rem[t] = (unsigned)draw(&s, count[t] + 1);
			if (draw(&s, 3) && g[t + 1] - g[t] < rem[t])
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
		uint32_t *xg = exact(g, T + 1, sizeof *xg);
		unsigned *xr = exact(rem, T, sizeof *xr);
		unsigned *xc = exact(count, T, sizeof *xc);
		bool ok = L->types(xg, xr, xc, T, &best, &bt);
		free(xg);
		free(xr);
		free(xc);
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
	print_message("%s types: %zu ended, %zu with a type to branch on "
	              "(%zu past the first 16), %zu without\n", L->name, dead,
	              some, far, none);
	assert_true(dead > 1000 && some > 1000 && far > 100 && none > 100);
}

static void test_types(void **state)
{
	(void)state;
	for (size_t v = 0; v < NLEVELS; v++)
		if (level(v))
			types_trials(&levels[v]);
}

/* bbvec_squeeze() (where the CPU has a fast PEXT) against a loop over
 * the cells: random sets e of 1 to 8 words, from sparse to full, and
 * rows of random cells of e, every W2 the cells of e need. */
static void test_squeeze(void **state)
{
	(void)state;
	if (!bbvec_pext_usable()) {
		print_message("    no fast PEXT here: squeeze not tested\n");
		return;
	}
	uint64_t s = 0x73717565657a65u; /* "squeeze" */
	enum { N = 40 };
	unsigned trials = 0, two = 0;
	for (int trial = 0; trial < 3000; trial++) {
		int W = 1 + (int)draw(&s, BB_SQUEEZE_WORDS);
		if (trial % 3 == 0)
			W = 2;
		uint64_t e[BB_SQUEEZE_WORDS];
		unsigned ne = 0;
		for (int w = 0; w < W; w++) {
			unsigned kind = (unsigned)draw(&s, 4);
			e[w] = kind == 0 ? 0 : kind == 1 ? ~(uint64_t)0
			     : kind == 2 ? splitmix(&s) & splitmix(&s) : splitmix(&s);
			ne += (unsigned)__builtin_popcountll(e[w]);
		}
		if (!ne)
			continue;
		int W2 = (int)((ne + 63) / 64);
		uint64_t rows[BB_SQUEEZE_WORDS][N], want[BB_SQUEEZE_WORDS][N];
		uint64_t *lm[BB_SQUEEZE_WORDS];
		uint32_t n = (uint32_t)draw(&s, N + 1);
		for (uint32_t i = 0; i < n; i++) {
			for (int v = 0; v < W2; v++)
				want[v][i] = 0;
			unsigned c = 0;
			for (int w = 0; w < W; w++) {
				rows[w][i] = e[w] & splitmix(&s) & splitmix(&s);
				for (uint64_t f = e[w]; f; f &= f - 1, c++)
					if (rows[w][i] & f & -f)
						want[c / 64][i] |= (uint64_t)1 << (c % 64);
			}
		}
		for (int w = 0; w < W; w++)
			lm[w] = rows[w];
		bbvec_squeeze(lm, n, e, W, W2);
		for (int v = 0; v < W2; v++)
			for (uint32_t i = 0; i < n; i++)
				if (rows[v][i] != want[v][i])
					fail_msg("trial %d: W %d, %u cells, row %u word %d: "
					         "%llx, %llx expected", trial, W, ne, i, v,
					         (unsigned long long)rows[v][i],
					         (unsigned long long)want[v][i]);
		trials++;
		two += W == 2 && W2 == 1;
	}
	assert_true(trials >= 2500 && two >= 200);
}

/* The comparisons can fail: a plain loop that differs from the kernel in
 * one entry is caught. */
static void comparison_trial(const struct level *L)
{
	uint64_t pm[20], want[6] = {0}, got[6];
	for (int i = 0; i < 20; i++)
		pm[i] = (uint64_t)1 << (i % 3);
	for (int c = 0; c < 3; c++) {
		unsigned k = c < 2 ? 7 : 6;
		for (int j = 0; j < 5; j++)
			want[j] |= (uint64_t)(k >> j & 1) << c;
	}
	L->count(pm, 20, got);
	assert_memory_equal(got, want, sizeof want);
	want[0] ^= 1; /* cell 0 counted 6 */
	assert_memory_not_equal(got, want, sizeof want);
	uint32_t sel[32];
	assert_int_equal(L->gather(pm, 20, 4, sel), 6);
	assert_int_equal(sel[5], 17);
	assert_int_not_equal(L->gather(pm, 19, 4, sel), 7);
}

static void test_comparison_can_fail(void **state)
{
	(void)state;
	for (size_t v = 0; v < NLEVELS; v++)
		if (level(v))
			comparison_trial(&levels[v]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_filter2),
		cmocka_unit_test(test_cover),
		cmocka_unit_test(test_cover2),
		cmocka_unit_test(test_coverw),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_gather),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_squeeze),
		cmocka_unit_test(test_comparison_can_fail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
