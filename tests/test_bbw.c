/* test_bbw.c: the wide bitboard engine, cover for cover, against the
 * general engine (xc.h, dancing links) and the 64-cell bitboard (bb.h) on
 * seeded random exact-cover instances of 1 to 1024 cells (one to sixteen
 * words, the word boundaries among them), with random fill orders,
 * pinned types and each pruning on and off; through solve_puzzle()
 * against dancing links on random puzzles of 65 to 1000 cells and on
 * puzzles with optional cells (every cover as a partition of the goal,
 * every assembly with no_pin; on one thread and split on three) and
 * against the independent brute force on small ones; known counts; the
 * node budget, the visitor stop and allocation failures (building,
 * splitting, cloning); and checks that each comparison can fail. The
 * split itself is tested in test_tasks.c. BBW_FILTER=pattern runs only
 * the matching tests. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "solver/bb.h"
#include "solver/bbw.h"
#include "solver/bbw_int.h" /* bbwmx_usable() */
#include "solver/poly.h"
#include "solver/solve.h"
#include "solver/xc.h"
#include "tests/brute.h"
#include "tests/dropref.h"
#include "tests/failmalloc.h"
#include "tests/polyo.h"
#include "tests/randpuz.h"
#include "tests/testload.h"
#include "tests/testpart.h"

#define DATA "tests/data/classic/"
#define MAX_ROWS 3000
#define MAX_TYPES 20
/* Instances with more covers than this are skipped (the run stays short). */
#define MAX_COVERS 20000

/* A small SplitMix64 stream: the same instances on every machine. */
static uint64_t sm_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static unsigned below(uint64_t *s, unsigned n)
{
	return (unsigned)(sm_next(s) % n);
}

/* ---- exact-cover instances ---------------------------------------------- */

/* Rows over cells 0..ncells-1, each with a type; type t used exactly
 * counts[t] times, every row of it size[t] cells (bbw.h's contract). In
 * 'chain' instances every row is an interval of cells, so rows are
 * connected along the chain 0-1-2-... and the regions pruning applies. */
struct inst {
	size_t ncells, ntypes;
	unsigned counts[MAX_TYPES], size[MAX_TYPES];
	unsigned rank[BBW_MAX_CELLS];
	bool chain;
	size_t nrows;
	uint64_t m[MAX_ROWS][BBW_MAX_WORDS];
	size_t type[MAX_ROWS];
};

/* One cover: its row numbers, ascending. Instances past 512 cells have
 * rows of two cells or more (make_inst()), so no cover has more rows. */
#define COVER_ROWS (BBW_MAX_CELLS / 2 + 1)
struct cover {
	size_t len;
	uint32_t row[COVER_ROWS];
};

struct covers {
	size_t n, cap;
	struct cover *c;
	bool bad;          /* out of memory */
	size_t stop_after; /* the visitor stops after this many (0: never) */
};

static void covers_clear(struct covers *cs)
{
	free(cs->c);
	memset(cs, 0, sizeof *cs);
}

static bool collect(void *ctx, const size_t *rows, size_t n)
{
	struct covers *cs = ctx;
	if (n > COVER_ROWS) {
		cs->bad = true;
		return false;
	}
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 64;
		struct cover *c = realloc(cs->c, cap * sizeof *c);
		if (!c) {
			cs->bad = true;
			return false;
		}
		cs->c = c;
		cs->cap = cap;
	}
	struct cover *k = &cs->c[cs->n++];
	k->len = n;
	for (size_t i = 0; i < n; i++) {
		uint32_t r = (uint32_t)rows[i];
		size_t j = i;
		for (; j > 0 && k->row[j - 1] > r; j--)
			k->row[j] = k->row[j - 1];
		k->row[j] = r;
	}
	return !(cs->stop_after && cs->n >= cs->stop_after);
}

static int cover_cmp(const void *a, const void *b)
{
	const struct cover *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	for (size_t i = 0; i < x->len; i++)
		if (x->row[i] != y->row[i])
			return x->row[i] < y->row[i] ? -1 : 1;
	return 0;
}

/* How far the cover sets a and b are apart: covers in one and not the
 * other, covers either holds twice, one per list marked bad. 0 when they
 * are the same set without duplicates. Sorts both. */
static size_t covers_diff(struct covers *a, struct covers *b)
{
	size_t d = (size_t)a->bad + (size_t)b->bad;
	if (a->n)
		qsort(a->c, a->n, sizeof *a->c, cover_cmp);
	if (b->n)
		qsort(b->c, b->n, sizeof *b->c, cover_cmp);
	for (size_t i = 1; i < a->n; i++)
		d += cover_cmp(&a->c[i - 1], &a->c[i]) == 0;
	for (size_t i = 1; i < b->n; i++)
		d += cover_cmp(&b->c[i - 1], &b->c[i]) == 0;
	size_t i = 0, j = 0;
	while (i < a->n && j < b->n) {
		int c = cover_cmp(&a->c[i], &b->c[j]);
		d += c != 0;
		i += c <= 0;
		j += c >= 0;
	}
	return d + (a->n - i) + (b->n - j);
}

static bool count_only(void *ctx, const size_t *rows, size_t n)
{
	(void)rows;
	(void)n;
	(*(uint64_t *)ctx)++;
	return true;
}

static void set_cell(uint64_t *m, unsigned c)
{
	m[c / 64] |= (uint64_t)1 << (c % 64);
}

/* A random instance with at least one cover (planted): the cells cut
 * into chunks of 1..5 cells (in a random order, or in order for a chain),
 * a chunk's type its size and one of two variants, and for each type a
 * few more random rows of its size. Sizes favour the word boundary. With
 * 'big', 513 to 1024 cells (nine to sixteen words) in chunks of 2..5
 * cells (the last may be shorter). */
static void make_inst_sized(uint64_t seed, struct inst *in, bool big)
{
	uint64_t s = seed;
	static const unsigned edge[] = {64, 65, 127, 128, 63, 1, 2, 129,
	                                192, 193, 256, 320, 448, 511, 512};
	static const unsigned edge2[] = {513, 575, 576, 577, 640, 704, 767,
	                                 768, 769, 896, 1023, 1024};
	memset(in, 0, sizeof *in);
	unsigned kind = below(&s, 4);
	if (big)
		in->ncells = kind < 2 ? edge2[below(&s, 12)] : 513 + below(&s, 512);
	else
		in->ncells = kind == 0 ? edge[below(&s, 15)]
		           : kind == 1 ? 129 + below(&s, 384) : 1 + below(&s, 128);
	in->chain = below(&s, 2);
	unsigned n = (unsigned)in->ncells, perm[BBW_MAX_CELLS];
	for (unsigned c = 0; c < n; c++)
		perm[c] = c;
	if (!in->chain)
		for (unsigned c = n; c > 1; c--) {
			unsigned j = below(&s, c), t = perm[c - 1];
			perm[c - 1] = perm[j];
			perm[j] = t;
		}
	/* planted chunks; type ids by (size, variant), renumbered after */
	int tid[6][2];
	memset(tid, -1, sizeof tid);
	unsigned maxsize = 1 + below(&s, 5);
	if (big && maxsize < 2)
		maxsize = 2;
	for (unsigned c = 0; c < n;) {
		unsigned sz = 1 + below(&s, maxsize), var = below(&s, 2);
		if (big && sz < 2)
			sz = 2;
		if (sz > n - c)
			sz = n - c;
		if (tid[sz][var] < 0) {
			if (in->ntypes == 10)
				var = 0, sz = 1; /* every size 1..5 x 2 taken: */
			if (tid[sz][var] < 0) {
				tid[sz][var] = (int)in->ntypes;
				in->size[in->ntypes++] = sz;
			}
		}
		size_t t = (size_t)tid[sz][var];
		in->counts[t]++;
		memset(in->m[in->nrows], 0, sizeof in->m[0]);
		for (unsigned k = 0; k < sz; k++)
			set_cell(in->m[in->nrows], perm[c + k]);
		in->type[in->nrows++] = t;
		c += sz;
	}
	/* decoys */
	unsigned extra = in->chain ? 1 + below(&s, 4) : 4 + below(&s, 40);
	for (size_t t = 0; t < in->ntypes; t++)
		for (unsigned e = 0; e < extra && in->nrows < MAX_ROWS; e++) {
			unsigned sz = in->size[t];
			uint64_t *m = in->m[in->nrows];
			memset(m, 0, sizeof in->m[0]);
			if (in->chain) {
				unsigned a = below(&s, n - sz + 1);
				for (unsigned k = 0; k < sz; k++)
					set_cell(m, a + k);
			} else {
				for (unsigned k = 0; k < sz;) {
					unsigned c = below(&s, n);
					if (!(m[c / 64] >> (c % 64) & 1)) {
						set_cell(m, c);
						k++;
					}
				}
			}
			in->type[in->nrows++] = t;
		}
	/* shuffle the rows, so the planted ones are not first */
	for (size_t i = in->nrows; i > 1; i--) {
		size_t j = below(&s, (unsigned)i);
		uint64_t m[BBW_MAX_WORDS];
		size_t t = in->type[i - 1];
		memcpy(m, in->m[i - 1], sizeof m);
		memcpy(in->m[i - 1], in->m[j], sizeof m);
		in->type[i - 1] = in->type[j];
		memcpy(in->m[j], m, sizeof m);
		in->type[j] = t;
	}
	/* a random fill order half the time */
	for (unsigned c = 0; c < n; c++)
		in->rank[c] = c;
	if (below(&s, 2))
		for (unsigned c = n; c > 1; c--) {
			unsigned j = below(&s, c), t = in->rank[c - 1];
			in->rank[c - 1] = in->rank[j];
			in->rank[j] = t;
		}
}

static void make_inst(uint64_t seed, struct inst *in)
{
	make_inst_sized(seed, in, false);
}

/* Every cover by dancing links; false when there are more than
 * MAX_COVERS or the search takes more than 200000 nodes. */
static bool covers_xc(const struct inst *in, struct covers *out)
{
	xc *x = xc_new(in->ncells, in->ntypes, in->counts);
	assert_non_null(x);
	for (size_t r = 0; r < in->nrows; r++) {
		size_t items[BBW_MAX_CELLS + 1], k = 0;
		for (unsigned c = 0; c < in->ncells; c++)
			if (in->m[r][c / 64] >> (c % 64) & 1)
				items[k++] = c;
		items[k++] = in->ncells + in->type[r];
		assert_int_equal(xc_add_row(x, items, k), XC_OK);
	}
	out->stop_after = MAX_COVERS + 1;
	uint64_t nodes;
	enum xc_stop st = xc_solve(x, 200000, collect, out, &nodes);
	xc_free(x);
	return st == XC_DONE;
}

/* Searches solve_both() compared, how many ran the vector passes and
 * how many compared AVX2's with another level; the matrix phase's
 * subtrees (and of them those in a window of one word) and the window's
 * squeezed ones (and of them those shifted again) in the last one's
 * first run (the best level). */
static unsigned long both_runs, both_vector, both_avx2;
static uint64_t mx_last, mx1_last, sq_last, rs_last;

/* bbw_solve() on the best kernels, then the same search on each level
 * below (AVX2 where the CPU has it, the portable list passes): the same
 * stop, nodes, dead ends and covers in the same order, or the test fails
 * (where the CPU has no vector level all runs are portable). The covers
 * go to 'out', which starts empty (its stop_after is used). Leaves 'b' on
 * the best level, as bbw_new does. */
static enum xc_stop solve_both(bbw *b, uint64_t max_nodes,
                               struct covers *out, uint64_t *nodes)
{
	assert_int_equal(out->n, 0);
	bool vec = bbw_set_vector(b, true);
	enum bb_kernels top = bbw_set_kernels(b, BB_MATRIX);
	enum xc_stop st = bbw_solve(b, max_nodes, collect, out, nodes);
	uint64_t dead = bbw_dead_ends(b);
	mx_last = bbw_matrix_runs(b, &mx1_last);
	bbw_window_runs(b, &sq_last, &rs_last);
	static const enum bb_kernels below[] = {BB_AVX2, BB_PORTABLE};
	for (size_t v = 0; v < 2; v++) {
		if (below[v] >= top || bbw_set_kernels(b, below[v]) != below[v])
			continue;
		struct covers port = {.stop_after = out->stop_after};
		uint64_t n2;
		enum xc_stop st2 = bbw_solve(b, max_nodes, collect, &port, &n2);
		uint64_t dead2 = bbw_dead_ends(b);
		size_t first_diff = 0;
		while (first_diff < out->n && first_diff < port.n &&
		       cover_cmp(&out->c[first_diff], &port.c[first_diff]) == 0)
			first_diff++;
		bool same = st2 == st && n2 == *nodes && dead2 == dead &&
		            port.n == out->n && first_diff == out->n && !port.bad;
		size_t np = port.n;
		covers_clear(&port);
		if (!same)
			fail_msg("kernels %d: stop %d, %llu nodes, %llu dead ends, "
			         "%zu covers; level %d: stop %d, %llu, %llu, %zu; "
			         "covers agree up to %zu", (int)top, (int)st,
			         (unsigned long long)*nodes, (unsigned long long)dead,
			         out->n, (int)below[v], (int)st2,
			         (unsigned long long)n2, (unsigned long long)dead2, np,
			         first_diff);
		both_avx2 += below[v] == BB_AVX2 || top == BB_AVX2;
	}
	bbw_set_vector(b, true);
	both_runs++;
	both_vector += vec;
	return st;
}

static bbw *bbw_of(const struct inst *in, size_t nrows, size_t first,
                       bool edges, unsigned flags)
{
	bbw *b = bbw_new(in->ncells, in->rank, in->ntypes, in->counts);
	if (!b)
		return NULL;
	/* the tables made at once for two instances in three (for all the
	 * rows, or half of them and then doubling), else grown row by row:
	 * every test of the covers sees both */
	size_t room = nrows % 3 == 1 ? nrows : nrows % 3 == 2 ? nrows / 2 + 1 : 0;
	if (room && bbw_reserve(b, room) != XC_OK) {
		bbw_free(b);
		return NULL;
	}
	for (size_t r = 0; r < nrows; r++)
		if (bbw_add_row(b, in->m[r], in->type[r]) != XC_OK) {
			bbw_free(b);
			return NULL;
		}
	if (edges)
		for (size_t c = 0; c + 1 < in->ncells; c++)
			bbw_add_edge(b, c, c + 1);
	if (first < in->ntypes)
		bbw_set_first(b, first);
	bbw_set_flags(b, flags);
	return b;
}

/* The covers bbw finds, the way 'first', 'edges' and 'flags' say;
 * '*nodes' the nodes it took. */
static enum xc_stop covers_bbw(const struct inst *in, size_t first,
                                 bool edges, unsigned flags,
                                 struct covers *out, uint64_t *nodes)
{
	bbw *b = bbw_of(in, in->nrows, first, edges, flags);
	assert_non_null(b);
	enum xc_stop st = solve_both(b, 0, out, nodes);
	bbw_free(b);
	return st;
}

static void covers_bb(const struct inst *in, size_t first, struct covers *out)
{
	bb *b = bb_new(in->ncells, in->rank, in->ntypes, in->counts);
	assert_non_null(b);
	for (size_t r = 0; r < in->nrows; r++)
		assert_int_equal(bb_add_row(b, in->m[r][0], in->type[r]), XC_OK);
	if (first < in->ntypes)
		bb_set_first(b, first);
	uint64_t nodes;
	assert_int_equal(bb_solve(b, 0, collect, out, &nodes), XC_DONE);
	bb_free(b);
}

/* Without regions bbw searches the tree bb does (the same cell or type
 * at every node, the same rows in the same order): the same nodes and
 * dead ends, which the difficulty measure relies on when it takes bb up
 * to 64 cells and bbw from 65 to 128. */
static void same_tree(const struct inst *in, size_t first)
{
	bb *b = bb_new(in->ncells, in->rank, in->ntypes, in->counts);
	assert_non_null(b);
	for (size_t r = 0; r < in->nrows; r++)
		assert_int_equal(bb_add_row(b, in->m[r][0], in->type[r]), XC_OK);
	if (first < in->ntypes)
		bb_set_first(b, first);
	bbw *w = bbw_of(in, in->nrows, first, false, BBW_QUICK_COUNT);
	assert_non_null(w);
	uint64_t n1 = 0, n2 = 0, c1 = 0;
	struct covers c2 = {0};
	assert_int_equal(bb_solve(b, 0, count_only, &c1, &n1), XC_DONE);
	assert_int_equal(solve_both(w, 0, &c2, &n2), XC_DONE);
	assert_int_equal(c1, c2.n);
	assert_int_equal(n1, n2);
	assert_int_equal(bb_dead_ends(b), bbw_dead_ends(w));
	covers_clear(&c2);
	bb_free(b);
	bbw_free(w);
}

/* Instance 'seed' (make_inst_sized()) and dancing links' covers of it
 * into '*ref'; false, with nothing in '*ref', when it has too many covers
 * or nodes to compare (covers_xc()). */
static bool inst_with_covers(uint64_t seed, bool big, struct inst *in,
                             struct covers *ref)
{
	make_inst_sized(seed, in, big);
	*ref = (struct covers){0};
	if (covers_xc(in, ref))
		return true;
	covers_clear(ref);
	return false;
}

/* One way to search an instance: the type placed at the root (ntypes:
 * none), the chain's edges or none, the flags. */
struct way {
	size_t first;
	bool edges;
	unsigned flags;
};

/* bbw's covers of 'in' searched way 'w' (number k of instance 'seed'),
 * which must be 'ref', dancing links' set; returns the nodes. */
static uint64_t same_covers(const struct inst *in, struct covers *ref,
                            uint64_t seed, size_t k, struct way w)
{
	struct covers got = {0};
	uint64_t nodes;
	assert_int_equal(covers_bbw(in, w.first, w.edges, w.flags, &got, &nodes),
	                 XC_DONE);
	size_t d = covers_diff(ref, &got);
	if (d)
		fail_msg("seed %llu (%zu cells, %zu rows), way %zu: %zu covers "
		         "differ from dancing links' %zu", (unsigned long long)seed,
		         in->ncells, in->nrows, k, d, ref->n);
	covers_clear(&got);
	return nodes;
}

static void test_bbw_random_differential(void **state)
{
	(void)state;
	static struct inst in;
	int compared = 0, wide = 0, wider = 0, with_covers = 0, several = 0;
	int chains = 0, same_trees = 0;
	uint64_t nodes_regions = 0, nodes_plain = 0, nodes_lists = 0;
	uint64_t matrix_runs = 0, window_matrix = 0;
	for (uint64_t seed = 1; seed <= 320; seed++) {
		struct covers ref;
		if (!inst_with_covers(seed * 1000003, false, &in, &ref))
			continue;
		/* each way: pinned type, edges (regions), prunings */
		size_t first = (size_t)(seed % (in.ntypes + 1));
		const struct way ways[] = {
			{in.ntypes, false, 0},
			{in.ntypes, true, BBW_REGIONS | BBW_QUICK_COUNT},
			{first, true, BBW_REGIONS | BBW_QUICK_COUNT},
			{first, false, BBW_QUICK_COUNT},
			{in.ntypes, true, 0},
			{first, false, BBW_MATRIX},
			{in.ntypes, true,
			 BBW_QUICK_COUNT | BBW_HOLES | BBW_HOLES_MORE | BBW_MATRIX},
			{first, false, BBW_MATRIX | BBW_WINDOW | BBW_SQUEEZE},
			{in.ntypes, true,
			 BBW_QUICK_COUNT | BBW_HOLES | BBW_HOLES_MORE | BBW_MATRIX |
			     BBW_WINDOW},
		};
		uint64_t nodes_holes = 0;
		for (size_t w = 0; w < sizeof ways / sizeof *ways; w++) {
			uint64_t nodes = same_covers(&in, &ref, seed, w, ways[w]);
			if (w == 1 && in.chain)
				nodes_regions += nodes;
			if (w == 4 && in.chain)
				nodes_plain += nodes;
			if (w == 3)
				nodes_lists = nodes;
			if (w == 5 || w == 7) {
				/* the matrix phase searches the lists' tree, in
				 * a window too */
				assert_int_equal(nodes, nodes_lists);
				matrix_runs += mx_last;
			}
			if (w == 6)
				nodes_holes = nodes;
			if (w == 8)
				assert_int_equal(nodes, nodes_holes);
			if (w >= 7)
				window_matrix += mx1_last;
		}
		if (in.ncells <= 64) {
			struct covers got = {0};
			covers_bb(&in, first, &got);
			assert_int_equal(covers_diff(&ref, &got), 0);
			covers_clear(&got);
			same_tree(&in, first);
			same_trees++;
		}
		compared++;
		wide += in.ncells > 64;
		wider += in.ncells > 128;
		with_covers += ref.n > 0;
		several += ref.n > 1;
		chains += in.chain;
		covers_clear(&ref);
	}
	print_message("    %d instances (%d of 65..512 cells, %d of 129..512, %d "
	              "chains), %d with covers, %d with several; chain nodes %llu "
	              "with regions, %llu without; %llu matrix subtrees, %llu "
	              "of them in a window of one word\n",
	              compared, wide, wider, chains, with_covers, several,
	              (unsigned long long)nodes_regions,
	              (unsigned long long)nodes_plain,
	              (unsigned long long)matrix_runs,
	              (unsigned long long)window_matrix);
	if (bbvec_usable() && bbwmx_usable())
		assert_true(matrix_runs >= 1000 && window_matrix >= 100);
	assert_true(compared >= 200 && wide >= 120 && wider >= 80 && chains >= 80);
	assert_true(with_covers == compared && several >= 100);
	assert_true(same_trees >= 60);
	/* on a chain the forward check already sees what regions would */
	assert_true(nodes_regions <= nodes_plain);
}

/* Ranges of copies (bbw_set_least): random instances whose types may be
 * used least..count times, against dancing links' phased search
 * (xc_new_ranges) over the same rows: the same covers, on every kernel
 * (solve_both), with type 0 (kept exact) placed first or not, with the
 * rule against holes and the window or without. */
static void test_bbw_ranges_differential(void **state)
{
	(void)state;
	static struct inst in;
	int compared = 0, several = 0, ranged = 0, firsts = 0;
	for (uint64_t seed = 1; seed <= 160; seed++) {
		make_inst(seed * 7919 + 17, &in);
		uint64_t s = seed * 0x9E3779B97F4A7C15u + 5;
		unsigned lo[MAX_TYPES];
		bool any = false;
		for (size_t t = 0; t < in.ntypes; t++) {
			s = s * 6364136223846793005u + 1442695040888963407u;
			lo[t] = t == 0 ? in.counts[t]
			               : (unsigned)(s >> 33) % (in.counts[t] + 1);
			s = s * 6364136223846793005u + 1442695040888963407u;
			if (t > 0)
				in.counts[t] += (unsigned)(s >> 33) % 3;
			any |= lo[t] != in.counts[t];
		}
		xc *x = xc_new_ranges(in.ncells, in.ntypes, lo, in.counts);
		assert_non_null(x);
		for (size_t r = 0; r < in.nrows; r++) {
			size_t items[BBW_MAX_CELLS + 1], k = 0;
			for (unsigned c = 0; c < in.ncells; c++)
				if (in.m[r][c / 64] >> (c % 64) & 1)
					items[k++] = c;
			items[k++] = in.ncells + in.type[r];
			assert_int_equal(xc_add_row(x, items, k), XC_OK);
		}
		struct covers ref = {.stop_after = MAX_COVERS + 1};
		uint64_t nodes;
		enum xc_stop st = xc_solve(x, 200000, collect, &ref, &nodes);
		xc_free(x);
		if (st != XC_DONE || ref.n > MAX_COVERS) {
			covers_clear(&ref);
			continue;
		}
		size_t first = in.counts[0] ? 0 : in.ntypes;
		const struct way ways[] = {
			{in.ntypes, false, BBW_QUICK_COUNT},
			{first, false, BBW_QUICK_COUNT | BBW_MATRIX},
			{in.ntypes, true,
			 BBW_QUICK_COUNT | BBW_HOLES | BBW_HOLES_MORE | BBW_MATRIX |
			     BBW_WINDOW | BBW_SQUEEZE},
		};
		for (size_t w = 0; w < sizeof ways / sizeof *ways; w++) {
			bbw *b = bbw_of(&in, in.nrows, ways[w].first, ways[w].edges,
			                ways[w].flags);
			assert_non_null(b);
			assert_int_equal(bbw_set_least(b, lo), XC_OK);
			struct covers got = {.stop_after = MAX_COVERS + 1};
			solve_both(b, 0, &got, &nodes);
			bbw_free(b);
			size_t d = covers_diff(&ref, &got);
			if (d)
				fail_msg("seed %llu, way %zu: %zu covers differ (%zu "
				         "by dancing links, %zu here)",
				         (unsigned long long)seed, w, d, ref.n, got.n);
			covers_clear(&got);
		}
		compared++;
		several += ref.n > 1;
		ranged += any;
		firsts += first == 0;
		covers_clear(&ref);
	}
	print_message("    %d instances (%d with a range, %d with a type first), "
	              "%d with several covers\n", compared, ranged, firsts,
	              several);
	assert_true(compared >= 100 && ranged >= 90 && several >= 40 &&
	            firsts >= 80);
}

/* b's whole search split into about 'want' tasks, t (empty before), and
 * a clone of b to replay them on (the caller frees both). */
static bbw *split_clone(bbw *b, size_t want, struct xc_tasks *t)
{
	enum xc_stop st;
	assert_int_equal(bbw_split(b, want, 0, t, &st), XC_OK);
	assert_int_equal(st, XC_DONE);
	bbw *c = bbw_clone(b);
	assert_non_null(c);
	return c;
}

/* A clone reads its original's rows and keeps rows added to it for
 * itself: over random instances, the original holding all rows but the
 * last and its clone given the last one, the clone finds dancing links'
 * covers of all the rows and the original, searched after the clone is
 * freed, those of the rows it has (a row written into the shared table,
 * or the table freed with the clone, shows here or under ASan). */
static void test_bbw_clone_rows(void **state)
{
	(void)state;
	size_t tested = 0, differ = 0;
	for (uint64_t seed = 1; seed <= 400 && tested < 40; seed++) {
		struct inst in;
		struct covers all, fewer = {0};
		if (!inst_with_covers(seed, seed % 2 == 0, &in, &all))
			continue;
		in.nrows--;
		bool ok = covers_xc(&in, &fewer);
		in.nrows++;
		if (!ok || in.nrows < 2) {
			covers_clear(&all);
			covers_clear(&fewer);
			continue;
		}
		bbw *b = bbw_of(&in, in.nrows - 1, in.ntypes, false, BBW_QUICK_COUNT);
		assert_non_null(b);
		bbw *c = bbw_clone(b);
		assert_non_null(c);
		assert_int_equal(bbw_add_row(c, in.m[in.nrows - 1],
		                             in.type[in.nrows - 1]), XC_OK);
		struct covers got = {0};
		uint64_t nodes;
		assert_int_equal(solve_both(c, 0, &got, &nodes), XC_DONE);
		assert_int_equal(covers_diff(&all, &got), 0);
		covers_clear(&got);
		bbw_free(c);
		assert_int_equal(solve_both(b, 0, &got, &nodes), XC_DONE);
		assert_int_equal(covers_diff(&fewer, &got), 0);
		differ += all.n != fewer.n;
		covers_clear(&got);
		bbw_free(b);
		covers_clear(&all);
		covers_clear(&fewer);
		tested++;
	}
	assert_true(tested >= 20);
	assert_true(differ >= 3); /* the last row mattered somewhere */
}

/* bbw_reserve() after a search, on a clone that reads its board's rows
 * (which it then copies) and then on the board: the lists are made anew,
 * and the next search finds the same covers (it searched unset lists
 * before). */
static void test_bbw_reserve_after_search(void **state)
{
	(void)state;
	size_t tested = 0;
	for (uint64_t seed = 1; seed <= 200 && tested < 20; seed++) {
		struct inst in;
		struct covers all;
		if (!inst_with_covers(seed, seed % 2 == 0, &in, &all))
			continue;
		bbw *b = bbw_of(&in, in.nrows, in.ntypes, false, BBW_QUICK_COUNT);
		assert_non_null(b);
		bbw *c = bbw_clone(b);
		assert_non_null(c);
		struct covers got = {0};
		uint64_t nodes;
		for (int k = 0; k < 2; k++) {
			bbw *e = k ? b : c; /* the clone first: see bbw_clone() */
			assert_int_equal(solve_both(e, 0, &got, &nodes), XC_DONE);
			covers_clear(&got);
			/* the clone grows by any reservation: its rows copied */
			assert_int_equal(bbw_reserve(e, k ? 4 * in.nrows + 64 : 1),
			                 XC_OK);
			assert_int_equal(solve_both(e, 0, &got, &nodes), XC_DONE);
			assert_int_equal(covers_diff(&all, &got), 0);
			covers_clear(&got);
		}
		bbw_free(c);
		bbw_free(b);
		covers_clear(&all);
		tested++;
	}
	assert_int_equal(tested, 20);
}

static void drop_bbw(void *b, size_t root, const size_t *rows, size_t n)
{
	assert_int_equal(bbw_drop_below(b, root, rows, n), XC_OK);
}

static size_t draw(uint64_t *s, size_t n)
{
	return below(s, (unsigned)n);
}

/* bbw_drop_below(), as test_bb.c's test of bb_drop_below: a cover goes
 * only when none of its rows is left out below its root row (its first
 * row of the first type). Random instances against dancing links' covers
 * filtered so, solved whole (with and without the regions pruning) and
 * split into tasks replayed on a clone, forwards and backwards. */
static void test_bbw_drop_below(void **state)
{
	(void)state;
	static struct inst in;
	bool *out = malloc((size_t)MAX_ROWS * MAX_ROWS * sizeof *out);
	size_t *buf = malloc(MAX_ROWS * sizeof *buf);
	assert_true(out && buf);
	uint64_t s = 0x64726f70u;
	int done = 0, cut = 0, wide = 0;
	for (uint64_t seed = 1; seed <= 200 && done < 80; seed++) {
		make_inst(seed * 7919 + 11, &in);
		size_t f = below(&s, (unsigned)in.ntypes);
		struct covers all = {0};
		if (in.counts[f] == 0 || !covers_xc(&in, &all) || all.n < 2) {
			covers_clear(&all);
			continue;
		}
		done++;
		wide += in.ncells > 64;
		for (int edges = 0; edges < 2; edges++) {
			bbw *b = bbw_of(&in, in.nrows, f, edges,
			                    edges ? BBW_REGIONS | BBW_QUICK_COUNT
			                          : BBW_QUICK_COUNT);
			assert_non_null(b);
			uint64_t ds = seed; /* the same drops both ways */
			dropref_draw(in.nrows, in.type, f, draw, &ds, out, buf,
			             drop_bbw, b);
			struct covers want = {0};
			for (size_t i = 0; i < all.n; i++) {
				const struct cover *c = &all.c[i];
				if (dropref_keeps(c->row, c->len, in.type, f, out,
				                  in.nrows)) {
					size_t rows[BBW_MAX_CELLS];
					for (size_t j = 0; j < c->len; j++)
						rows[j] = c->row[j];
					collect(&want, rows, c->len);
				}
			}
			cut += edges && want.n < all.n;
			struct covers got = {0};
			uint64_t nodes;
			assert_int_equal(solve_both(b, 0, &got, &nodes), XC_DONE);
			if (covers_diff(&want, &got) != 0)
				fail_msg("seed %llu (edges %d): %zu covers, %zu expected",
				         (unsigned long long)seed, edges, got.n, want.n);
			covers_clear(&got);
			struct xc_tasks t = {0};
			bbw *c = split_clone(b, 12, &t);
			for (int back = 0; back < 2; back++) {
				for (size_t k = 0; k < t.n; k++)
					assert_int_equal(bbw_solve_task(c, &t,
					        back ? t.n - 1 - k : k, 0, collect, &got,
					        &nodes), XC_DONE);
				if (covers_diff(&want, &got) != 0)
					fail_msg("seed %llu (edges %d): %zu tasks found %zu "
					         "covers, %zu expected",
					         (unsigned long long)seed, edges, t.n, got.n,
					         want.n);
				covers_clear(&got);
			}
			bbw_free(c);
			xc_tasks_clear(&t);
			covers_clear(&want);
			bbw_free(b);
		}
		covers_clear(&all);
	}
	print_message("    drops: %d instances (%d past 64 cells), %d lost covers "
	              "to them\n", done, wide, cut);
	free(out);
	free(buf);
	assert_true(done == 80 && wide >= 20 && cut >= 30);
}

/* A dense instance, where every cell has 32 rows or more at the root
 * (bb and bbw then count exactly to pick the cell): the 15 cells of a
 * cycle cut into 5 triples of one type, each triple within 7 cyclically
 * consecutive cells, or within 8 when it holds cell 0: 243 rows, 63 on
 * cell 0, 47 or 51 on the others (so the first cell is not the least),
 * and 69456 partitions (counted by a memoised recursion outside this
 * project). */
static void test_bbw_dense_same_tree(void **state)
{
	(void)state;
	static struct inst in;
	memset(&in, 0, sizeof in);
	in.ncells = 15;
	in.ntypes = 1;
	in.counts[0] = 5;
	in.size[0] = 3;
	for (unsigned c = 0; c < 15; c++)
		in.rank[c] = c;
	for (unsigned a = 0; a < 15; a++)
		for (unsigned b = a + 1; b < 15; b++)
			for (unsigned c = b + 1; c < 15; c++) {
				unsigned w = a == 0 ? 7 : 6;
				bool within = false;
				for (unsigned st = 0; st < 15 && !within; st++)
					within = (a + 15 - st) % 15 <= w &&
					         (b + 15 - st) % 15 <= w &&
					         (c + 15 - st) % 15 <= w;
				if (!within)
					continue;
				set_cell(in.m[in.nrows], a);
				set_cell(in.m[in.nrows], b);
				set_cell(in.m[in.nrows], c);
				in.type[in.nrows++] = 0;
			}
	assert_int_equal(in.nrows, 243);
	xc *x = xc_new(in.ncells, in.ntypes, in.counts);
	assert_non_null(x);
	for (size_t r = 0; r < in.nrows; r++) {
		size_t items[4], k = 0;
		for (unsigned c = 0; c < 15; c++)
			if (in.m[r][0] >> c & 1)
				items[k++] = c;
		items[k++] = 15;
		assert_int_equal(xc_add_row(x, items, k), XC_OK);
	}
	uint64_t covers = 0, nodes;
	assert_int_equal(xc_solve(x, 0, count_only, &covers, &nodes), XC_DONE);
	assert_int_equal(covers, 69456);
	xc_free(x);
	same_tree(&in, in.ntypes);
}

/* The last cell, and rows wholly in the last word: a 2 x L ladder (row
 * y = 1 starts at cell L) tiled by dominoes, horizontal anywhere,
 * vertical only in columns kP and kP + 1; the tilings counted by a
 * recurrence written here. L = 64 is two words, L = 256 eight. */
static void ladder(unsigned L, unsigned P)
{
	static struct inst in;
	memset(&in, 0, sizeof in);
	in.ncells = 2 * L;
	in.ntypes = 1;
	in.counts[0] = L;
	in.size[0] = 2;
	for (unsigned c = 0; c < 2 * L; c++)
		in.rank[c] = c;
	for (unsigned x = 0; x < L; x++) {
		for (unsigned y = 0; y < 2 && x + 1 < L; y++) {
			set_cell(in.m[in.nrows], y * L + x);
			set_cell(in.m[in.nrows], y * L + x + 1);
			in.type[in.nrows++] = 0;
		}
		if (x % P < 2) {
			set_cell(in.m[in.nrows], x);
			set_cell(in.m[in.nrows], L + x);
			in.type[in.nrows++] = 0;
		}
	}
	/* f[i]: tilings of columns 0..i-1: a vertical at i-1, or two
	 * horizontals over i-2 and i-1 */
	uint64_t f[257] = {1};
	for (unsigned i = 1; i <= L; i++)
		f[i] = ((i - 1) % P < 2 ? f[i - 1] : 0) + (i >= 2 ? f[i - 2] : 0);
	assert_true(f[L] > 1000);
	for (int w = 0; w < 3; w++) {
		bbw *b = bbw_of(&in, in.nrows, w == 2 ? 0 : 1, w > 0,
		                w ? BBW_REGIONS | BBW_QUICK_COUNT : 0);
		assert_non_null(b);
		if (w > 0)
			for (unsigned x = 0; x < L; x++) {
				bbw_add_edge(b, L + x, x);
				if (x + 1 < L) {
					bbw_add_edge(b, x, x + 1);
					bbw_add_edge(b, L + x, L + x + 1);
				}
			}
		struct covers covers = {0};
		uint64_t nodes;
		assert_int_equal(solve_both(b, 0, &covers, &nodes), XC_DONE);
		assert_int_equal(covers.n, f[L]);
		covers_clear(&covers);
		bbw_free(b);
	}
}

static void test_bbw_ladder(void **state)
{
	(void)state;
	ladder(64, 8);
	ladder(256, 32);
}

/* The neighbours on a w x h board, cell y * w + x. */
static void grid_edges(bbw *b, unsigned w, unsigned h)
{
	for (unsigned y = 0; y < h; y++)
		for (unsigned x = 0; x < w; x++) {
			if (x + 1 < w)
				bbw_add_edge(b, y * w + x, y * w + x + 1);
			if (y + 1 < h)
				bbw_add_edge(b, y * w + x, (y + 1) * w + x);
		}
}

/* The regions pruning prunes, and finds the same covers: straight and
 * L trominoes tiling a 5 x 6 board (one type, ten copies), counted by
 * dancing links. (Past 64 cells the random puzzles above run with it.) */
static void tromino_board(unsigned w, unsigned h, struct inst *in)
{
	memset(in, 0, sizeof *in);
	in->ncells = w * h;
	in->ntypes = 1;
	in->counts[0] = w * h / 3;
	in->size[0] = 3;
	for (unsigned c = 0; c < w * h; c++)
		in->rank[c] = c;
	/* offsets of the six trominoes (2 straight, 4 L) in a 3 x 3 box */
	static const int shape[6][3][2] = {
		{{0, 0}, {1, 0}, {2, 0}}, {{0, 0}, {0, 1}, {0, 2}},
		{{0, 0}, {1, 0}, {0, 1}}, {{0, 0}, {1, 0}, {1, 1}},
		{{0, 0}, {0, 1}, {1, 1}}, {{1, 0}, {0, 1}, {1, 1}},
	};
	for (int k = 0; k < 6; k++)
		for (unsigned y = 0; y < h; y++)
			for (unsigned x = 0; x < w; x++) {
				uint64_t *m = in->m[in->nrows];
				bool fits = true;
				m[0] = m[1] = 0;
				for (int j = 0; j < 3; j++) {
					unsigned cx = x + (unsigned)shape[k][j][0];
					unsigned cy = y + (unsigned)shape[k][j][1];
					if (cx >= w || cy >= h)
						fits = false;
					else
						set_cell(m, cy * w + cx);
				}
				if (fits)
					in->type[in->nrows++] = 0;
			}
}

static void test_bbw_regions_prune(void **state)
{
	(void)state;
	static struct inst in;
	static const unsigned dims[1][2] = {{5, 6}};
	for (int k = 0; k < 1; k++) {
		unsigned w = dims[k][0], h = dims[k][1];
		tromino_board(w, h, &in);
		struct covers ref = {0};
		uint64_t want = 0, n[2];
		xc *x = xc_new(in.ncells, 1, in.counts);
		assert_non_null(x);
		for (size_t r = 0; r < in.nrows; r++) {
			size_t items[4], j = 0;
			for (unsigned c = 0; c < in.ncells; c++)
				if (in.m[r][c / 64] >> (c % 64) & 1)
					items[j++] = c;
			items[j++] = in.ncells;
			assert_int_equal(xc_add_row(x, items, j), XC_OK);
		}
		uint64_t nodes;
		assert_int_equal(xc_solve(x, 0, count_only, &want, &nodes), XC_DONE);
		xc_free(x);
		for (int regions = 0; regions < 2; regions++) {
			bbw *b = bbw_of(&in, in.nrows, in.ntypes, false,
			                    regions ? BBW_REGIONS : 0);
			grid_edges(b, w, h);
			struct covers covers = {0};
			assert_int_equal(solve_both(b, 0, &covers, &n[regions]), XC_DONE);
			assert_int_equal(covers.n, want);
			covers_clear(&covers);
			bbw_free(b);
		}
		print_message("    %u x %u trominoes: %llu tilings, %llu nodes, %llu "
		              "with regions\n", w, h, (unsigned long long)want,
		              (unsigned long long)n[0], (unsigned long long)n[1]);
		assert_true(want > 100);
		assert_true(n[1] < n[0]);
		covers_clear(&ref);
	}
}

/* Every placement of the polyomino 'shape' (cells of a board w x h, cell
 * y * w + x) as it lies, and turned half a turn when 'turn', anywhere on
 * the board, as rows of type t, each once; false when MAX_ROWS would
 * overflow. */
static bool add_placements(struct inst *in, const uint64_t *shape,
                           unsigned w, unsigned h, size_t t, bool turn)
{
	int c[128][2];
	size_t k = 0;
	for (unsigned i = 0; i < w * h; i++)
		if (shape[i / 64] >> (i % 64) & 1) {
			c[k][0] = (int)(i % w);
			c[k++][1] = (int)(i / w);
		}
	size_t from = in->nrows;
	/* as it lies, and two quarter turns */
	for (int o = 0; o < (turn ? 4 : 1); o += 2) {
		int p[128][2], pw, ph;
		polyo_orient(c, k, o, p, &pw, &ph);
		for (int dy = 0; dy + ph <= (int)h; dy++)
			for (int dx = 0; dx + pw <= (int)w; dx++) {
				uint64_t m[2] = {0, 0};
				for (size_t i = 0; i < k; i++)
					set_cell(m, (unsigned)(p[i][1] + dy) * w +
					                (unsigned)(p[i][0] + dx));
				bool seen = false;
				for (size_t r = from; r < in->nrows && !seen; r++)
					seen = in->m[r][0] == m[0] && in->m[r][1] == m[1];
				if (seen)
					continue;
				if (in->nrows == MAX_ROWS)
					return false;
				in->m[in->nrows][0] = m[0];
				in->m[in->nrows][1] = m[1];
				in->type[in->nrows++] = t;
			}
	}
	return true;
}

/* A board of h x w cells, h 2 or 3, of 66 to 90 cells, cut into at most MAX_TYPES pieces of 2 or more face-connected cells, each a
 * type of one copy whose rows are its shape moved anywhere, and for a
 * quarter of them also turned half a turn (more and the counts explode).
 * With 'mono', one
 * piece of 3 cells or more gives up a cell at its end to a piece of one
 * cell. False when the cut failed (try another). */
static bool tiled_board(uint64_t *s, struct inst *in, unsigned *wp,
                        unsigned *hp, bool mono)
{
	memset(in, 0, sizeof *in);
	unsigned h = 2 + below(s, 2), w = (66 + below(s, 25)) / h;
	unsigned n = w * h;
	*wp = w;
	*hp = h;
	in->ncells = n;
	for (unsigned c = 0; c < n; c++)
		in->rank[c] = c;
	uint64_t filled[2] = {0, 0}, piece[MAX_TYPES][2];
	size_t np = 0;
	for (unsigned c = 0; c < n; c++) {
		if (filled[c / 64] >> (c % 64) & 1)
			continue;
		if (np == MAX_TYPES - (mono ? 1 : 0))
			return false;
		uint64_t *m = piece[np++];
		m[0] = m[1] = 0;
		set_cell(m, c);
		set_cell(filled, c);
		unsigned size = 1, want = 5 + below(s, 3);
		while (size < want) {
			/* a free neighbour of the piece, at random */
			unsigned cand[128], nc = 0;
			for (unsigned i = 0; i < n; i++) {
				if (filled[i / 64] >> (i % 64) & 1)
					continue;
				unsigned x = i % w, y = i / w;
				bool next = false;
				if (x > 0 && m[(i - 1) / 64] >> ((i - 1) % 64) & 1)
					next = true;
				if (x + 1 < w && m[(i + 1) / 64] >> ((i + 1) % 64) & 1)
					next = true;
				if (y > 0 && m[(i - w) / 64] >> ((i - w) % 64) & 1)
					next = true;
				if (y + 1 < h && m[(i + w) / 64] >> ((i + w) % 64) & 1)
					next = true;
				if (next)
					cand[nc++] = i;
			}
			if (!nc)
				break;
			unsigned i = cand[below(s, nc)];
			set_cell(m, i);
			set_cell(filled, i);
			size++;
		}
		if (size == 1 && np > 1) {
			/* stuck: the cell joins a piece next to it */
			np--;
			unsigned x = c % w, y = c / w;
			for (size_t k = 0; k < np; k++) {
				uint64_t *q = piece[k];
				if ((x > 0 && q[(c - 1) / 64] >> ((c - 1) % 64) & 1) ||
				    (x + 1 < w && q[(c + 1) / 64] >> ((c + 1) % 64) & 1) ||
				    (y > 0 && q[(c - w) / 64] >> ((c - w) % 64) & 1) ||
				    (y + 1 < h && q[(c + w) / 64] >> ((c + w) % 64) & 1)) {
					set_cell(q, c);
					break;
				}
			}
		}
	}
	if (mono) {
		/* the last cell in raster order of a piece of 3 or more:
		 * a cell with one neighbour in the piece keeps it connected */
		size_t i = np;
		unsigned leaf = 0;
		for (size_t k = 0; k < np && i == np; k++) {
			unsigned cnt = (unsigned)(__builtin_popcountll(piece[k][0]) +
			                          __builtin_popcountll(piece[k][1]));
			if (cnt < 3)
				continue;
			for (unsigned c = 0; c < n && i == np; c++) {
				if (!(piece[k][c / 64] >> (c % 64) & 1))
					continue;
				unsigned x = c % w, y = c / w, nb = 0;
				const int d[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
				for (int j = 0; j < 4; j++) {
					int xx = (int)x + d[j][0], yy = (int)y + d[j][1];
					if (xx < 0 || yy < 0 || xx >= (int)w || yy >= (int)h)
						continue;
					unsigned q = (unsigned)yy * w + (unsigned)xx;
					nb += (unsigned)(piece[k][q / 64] >> (q % 64) & 1);
				}
				if (nb == 1) {
					i = k;
					leaf = c;
				}
			}
		}
		if (i == np)
			return false;
		piece[i][leaf / 64] &= ~((uint64_t)1 << (leaf % 64));
		piece[np][0] = piece[np][1] = 0;
		set_cell(piece[np++], leaf);
	}
	in->ntypes = np;
	for (size_t t = 0; t < np; t++) {
		in->counts[t] = 1;
		in->size[t] = (unsigned)(__builtin_popcountll(piece[t][0]) +
		                         __builtin_popcountll(piece[t][1]));
		if (!add_placements(in, piece[t], w, h, t, below(s, 4) == 0))
			return false;
	}
	return true;
}

/* The rule against holes (BBW_HOLES, on the board's own adjacency): on
 * boards of 66 to 90 cells tiled by polyominoes, the covers are dancing
 * links', on the vector and the portable passes alike (solve_both), and
 * the rule cuts nodes; with a piece of one cell it stands down (the same
 * nodes as without it). */
static void test_bbw_holes(void **state)
{
	(void)state;
	static struct inst in;
	uint64_t s = 0x686f6c6532ull; /* "hole2" */
	int done = 0, cut = 0, monos = 0;
	uint64_t with = 0, without = 0;
	const unsigned all = BBW_REGIONS | BBW_QUICK_COUNT | BBW_HOLES;
	for (int trial = 0; done < 16 || monos < 4; trial++) {
		assert_true(trial < 1000);
		bool mono = trial % 2 && monos < 4;
		unsigned w, h;
		if (!tiled_board(&s, &in, &w, &h, mono))
			continue;
		struct covers ref = {0};
		if (!covers_xc(&in, &ref) || ref.n == 0 || ref.n > MAX_COVERS) {
			covers_clear(&ref);
			continue;
		}
		done++;
		size_t first = below(&s, 2) ? below(&s, (unsigned)in.ntypes)
		                            : in.ntypes;
		uint64_t nodes[2];
		for (int k = 0; k < 2; k++) {
			bbw *b = bbw_of(&in, in.nrows, first, false,
			                    k ? all & ~(unsigned)BBW_HOLES : all);
			assert_non_null(b);
			grid_edges(b, w, h);
			struct covers got = {0};
			assert_int_equal(solve_both(b, 0, &got, &nodes[k]), XC_DONE);
			if (covers_diff(&ref, &got))
				fail_msg("trial %d (%u x %u, %zu rows, holes %d): %zu covers, "
				         "dancing links %zu", trial, w, h, in.nrows, !k,
				         got.n, ref.n);
			covers_clear(&got);
			bbw_free(b);
		}
		if (mono) {
			assert_true(nodes[0] == nodes[1]);
			monos++;
		} else {
			with += nodes[0];
			without += nodes[1];
			cut += nodes[0] < nodes[1];
		}
		covers_clear(&ref);
	}
	print_message("    %d boards: the rule cut nodes on %d (%llu nodes, %llu "
	              "without it); %d with a piece of one cell (the gaps of "
	              "64 cells or more: test_bbvec)\n", done, cut,
	              (unsigned long long)with, (unsigned long long)without,
	              monos);
	assert_true(cut >= 4 && with < without && monos >= 4);
}

/* ---- the vector and the portable list passes ------------------------------ */

/* Lists of thousands of rows, as real puzzles of 70 to 128 cells have (the
 * random instances above stay under 1200): a w x h board, w a multiple of
 * the piece size k (3 to 5), most boards past 64 cells and some under (one
 * word); per type 100 to 400 random placements of one random polyomino of
 * k cells (grown cell by cell, so rows are connected and the regions
 * pruning runs), one or two copies, enough pieces to fill the board; the
 * first type pinned or not, each pruning on or off. solve_both() checks
 * that the vector and the portable passes search the same tree, up to a
 * node budget (a whole search would take millions of nodes). */
static void test_bbw_vector_long_lists(void **state)
{
	(void)state;
	uint64_t s = 0x766563313238u; /* "vec128" */
	uint64_t total = 0, covers = 0;
	unsigned long runs = both_runs, wide = 0, longest = 0;
	for (int trial = 0; trial < 24; trial++) {
		unsigned k = 3 + below(&s, 3), w = k * (2 + below(&s, 2));
		unsigned hmax = 128 / w, h = hmax - below(&s, 3);
		if (trial % 6 == 5)
			h = 64 / w; /* one word */
		unsigned n = w * h, P = n / k, T = 0, counts[64], rank[128];
		for (unsigned p = 0; p < P; T++) {
			counts[T] = P - p >= 2 && below(&s, 4) == 0 ? 2 : 1;
			p += counts[T];
		}
		for (unsigned c = 0; c < n; c++)
			rank[c] = c;
		bbw *b = bbw_new(n, rank, T, counts);
		assert_non_null(b);
		unsigned rows = 0;
		for (unsigned t = 0; t < T; t++) {
			/* a polyomino of k cells within a k x k box */
			int px[5] = {0}, py[5] = {0};
			for (unsigned j = 1; j < k;) {
				unsigned from = below(&s, j), dir = below(&s, 4);
				int x = px[from] + (dir == 0) - (dir == 1);
				int y = py[from] + (dir == 2) - (dir == 3);
				bool taken = false;
				for (unsigned i = 0; i < j; i++)
					taken |= px[i] == x && py[i] == y;
				if (!taken) {
					px[j] = x;
					py[j++] = y;
				}
			}
			for (unsigned r = 100 + below(&s, 300); r > 0; r--) {
				int ox = (int)below(&s, w), oy = (int)below(&s, h);
				uint64_t m[2] = {0, 0};
				bool fits = true;
				for (unsigned j = 0; j < k && fits; j++) {
					int x = ox + px[j], y = oy + py[j];
					fits = x >= 0 && y >= 0 && x < (int)w && y < (int)h;
					if (fits)
						set_cell(m, (unsigned)(y * (int)w + x));
				}
				if (!fits)
					continue; /* fewer rows, same distribution */
				assert_int_equal(bbw_add_row(b, m, t), XC_OK);
				rows++;
			}
		}
		grid_edges(b, w, h);
		if (trial % 2)
			bbw_set_first(b, 0);
		bbw_set_flags(b, (trial / 2 % 2 ? BBW_REGIONS : 0) |
		                   (trial / 4 % 2 ? BBW_QUICK_COUNT : 0));
		uint64_t budget = 20000 + below(&s, 30000), nodes;
		struct covers got = {0};
		solve_both(b, budget, &got, &nodes);
		total += nodes;
		covers += got.n;
		wide += n > 64;
		longest = rows > longest ? rows : longest;
		covers_clear(&got);
		bbw_free(b);
	}
	print_message("    long lists (up to %lu rows, %lu of 24 boards past 64 "
	              "cells): %llu nodes, %llu covers, each searched the same "
	              "on every level of list passes (%lu of %lu solves "
	              "compared on a vector level so far, %lu with AVX2)\n",
	              longest, wide, (unsigned long long)total,
	              (unsigned long long)covers, both_vector, both_runs,
	              both_avx2);
	assert_true(both_runs - runs == 24);
	if (bbvec_avx2_usable())
		assert_true(both_avx2 >= 24);
	assert_true(total > 200000 && wide >= 16 && longest >= 2000);
}

/* ---- the window ----------------------------------------------------------- */

/* A box of w x h x l cells (cell (z * h + y) * w + x, filled in that
 * order) cut along a snake (rows left to right, then right to left, a
 * layer's rows up, the next one's down) into pieces of 4 to 8 cells,
 * each a type of one copy placed at every translation where it fits
 * (never turned): at least one cover, the cut, and often a few. Edges
 * for the rule against holes when 'edges'. */
static bbw *window_box(uint64_t *s, unsigned w, unsigned h, unsigned l,
                       bool edges)
{
	unsigned n = w * h * l, cut[BBW_MAX_CELLS + 1], np = 0;
	for (unsigned c = 0; c < n; np++) {
		cut[np] = c;
		c += 4 + below(s, 5);
		if (c > n || n - c < 4)
			c = n;
	}
	cut[np] = n;
	unsigned counts[BBW_MAX_CELLS] = {0}, rank[BBW_MAX_CELLS] = {0};
	for (unsigned t = 0; t < np; t++)
		counts[t] = 1;
	for (unsigned c = 0; c < n; c++)
		rank[c] = c;
	bbw *b = bbw_new(n, rank, np, counts);
	assert_non_null(b);
	for (unsigned t = 0; t < np; t++) {
		int px[12], py[12], pz[12], k = 0;
		for (unsigned i = cut[t]; i < cut[t + 1]; i++, k++) {
			/* the snake: row r = i / w overall, its z and its y */
			unsigned r = i / w, x = i % w, z = r / h, y = r % h;
			pz[k] = (int)z;
			py[k] = (int)(z % 2 ? h - 1 - y : y);
			px[k] = (int)(r % 2 ? w - 1 - x : x);
		}
		for (int dz = -(int)l; dz < (int)l; dz++)
			for (int dy = -(int)h; dy < (int)h; dy++)
				for (int dx = -(int)w; dx < (int)w; dx++) {
					uint64_t m[BBW_MAX_WORDS] = {0};
					bool fits = true;
					for (int j = 0; j < k && fits; j++) {
						int x = px[j] + dx, y = py[j] + dy, z = pz[j] + dz;
						fits = x >= 0 && y >= 0 && z >= 0 && x < (int)w &&
						       y < (int)h && z < (int)l;
						if (fits)
							set_cell(m, (unsigned)((z * (int)h + y) * (int)w + x));
					}
					if (fits)
						assert_int_equal(bbw_add_row(b, m, t), XC_OK);
				}
	}
	if (edges)
		for (unsigned c = 0; c < n; c++) {
			unsigned x = c % w, y = c / w % h, z = c / (w * h);
			if (x + 1 < w)
				bbw_add_edge(b, c, c + 1);
			if (y + 1 < h)
				bbw_add_edge(b, c, c + w);
			if (z + 1 < l)
				bbw_add_edge(b, c, c + w * h);
		}
	return b;
}


/* The window (BBW_WINDOW, with BBW_SQUEEZE two times in three: it runs
 * where the CPU has a fast PEXT) searches the same tree on fewer words: the
 * same stop, nodes, dead ends and covers in the same order as without
 * it, on boards of 65 to 320 cells with and without the rule against
 * holes (BBW_HOLES_MORE: on two words also below lists of more than 128
 * rows where the empty cells lie within 64 in a row, on one word in a
 * shifted window, squeezed windows shifted again for it; the same covers
 * as with the rule past 512 rows alone, in another tree), on boards and
 * on boxes of two to four layers (8 x 8 x 2 among them: a gap of 64),
 * and with the matrix phase too (which then runs in windows of one
 * word) on those of two words; and split into tasks, replayed forwards,
 * backwards and each task twice in a row (a window shifts the list kept
 * for the task's own node, which the next replay must not reuse), the
 * same covers, and the same nodes as the whole search. */
static void test_bbw_window(void **state)
{
	(void)state;
	uint64_t s = 0x77696e646f77u; /* "window" */
	int compared = 0, split = 0, wider = 0, with_matrix = 0;
	uint64_t runs = 0, nodes_all = 0, squeezed = 0, mx1 = 0, reshifted = 0;
	uint64_t rule_nodes = 0, plain_nodes = 0;
	for (int trial = 0; trial < 60; trial++) {
		/* the last 20 small, to be searched whole and split */
		unsigned w = 3 + below(&s, 6);
		unsigned want = trial >= 40     ? 65 + below(&s, 8)
		              : trial % 4 == 3 ? 129 + below(&s, 192)
		                               : 65 + below(&s, 64);
		/* one in four a box of two to four layers (three gaps, the
		 * rule's third), one of them 8 x 8 x 2 (a gap of 64) */
		unsigned l = trial % 4 == 0 ? 2 + below(&s, 3) : 1;
		if (trial == 8)
			w = 8, l = 2, want = 128;
		unsigned h = (want + w * l - 1) / (w * l);
		bool edges = trial % 2 == 0;
		unsigned flags = BBW_QUICK_COUNT |
		                 (edges ? BBW_HOLES | BBW_HOLES_MORE : 0);
		uint64_t s2 = s, s3 = s;
		bbw *a = window_box(&s, w, h, l, edges);
		bbw *b = window_box(&s2, w, h, l, edges);
		bbw_set_flags(a, flags);
		bbw_set_flags(b, flags | BBW_WINDOW | (trial % 3 ? BBW_SQUEEZE : 0));
		struct covers ca = {0}, cb = {0};
		uint64_t na, nb, budget = 60000;
		enum xc_stop sa = solve_both(a, budget, &ca, &na);
		enum xc_stop sb = solve_both(b, budget, &cb, &nb);
		uint64_t wr = bbw_window_runs(b, NULL, NULL);
		squeezed += sq_last;
		reshifted += rs_last;
		if (edges && sb == XC_DONE) {
			/* the same board with the rule only past 512 rows
			 * (no BBW_HOLES_MORE) */
			uint64_t s4 = s3, np;
			bbw *c = window_box(&s4, w, h, l, true);
			bbw_set_flags(c, BBW_QUICK_COUNT | BBW_HOLES | BBW_WINDOW);
			struct covers cc = {0};
			assert_int_equal(bbw_solve(c, 0, collect, &cc, &np), XC_DONE);
			/* (a copy: covers_diff() sorts, cb's order is compared
			 * below) */
			struct covers cb2 = {.n = cb.n, .cap = cb.n};
			cb2.c = malloc((cb.n ? cb.n : 1) * sizeof *cb2.c);
			assert_non_null(cb2.c);
			memcpy(cb2.c, cb.c, cb.n * sizeof *cb2.c);
			assert_int_equal(cc.n, cb2.n);
			assert_int_equal(covers_diff(&cc, &cb2), 0);
			rule_nodes += nb;
			plain_nodes += np;
			covers_clear(&cc);
			covers_clear(&cb2);
			bbw_free(c);
		}
		/* (before covers_diff() below sorts the covers) */
		if (w * h <= 128) {
			bbw *m = window_box(&s3, w, h, l, edges);
			bbw_set_flags(m, flags | BBW_WINDOW | BBW_MATRIX |
			                     (trial % 3 ? BBW_SQUEEZE : 0));
			struct covers cm = {0};
			uint64_t nm;
			enum xc_stop sm = solve_both(m, budget, &cm, &nm);
			if (sm != sa || nm != na || bbw_dead_ends(m) != bbw_dead_ends(a) ||
			    cm.n != ca.n)
				fail_msg("trial %d (%u x %u): with the matrix phase stop "
				         "%d, %llu nodes, %zu covers; %d, %llu, %zu expected",
				         trial, w, h, (int)sm, (unsigned long long)nm, cm.n,
				         (int)sa, (unsigned long long)na, ca.n);
			for (size_t i = 0; i < ca.n; i++)
				assert_int_equal(cover_cmp(&ca.c[i], &cm.c[i]), 0);
			mx1 += mx1_last;
			with_matrix++;
			covers_clear(&cm);
			bbw_free(m);
		}
		if (sa != sb || na != nb || bbw_dead_ends(a) != bbw_dead_ends(b) ||
		    ca.n != cb.n || covers_diff(&ca, &cb) != 0)
			fail_msg("trial %d (%u x %u): without the window stop %d, "
			         "%llu nodes, %zu covers; with it %d, %llu, %zu",
			         trial, w, h, (int)sa,
			         (unsigned long long)na, ca.n, (int)sb,
			         (unsigned long long)nb, cb.n);
		for (size_t i = 0; i < ca.n; i++)
			assert_int_equal(cover_cmp(&ca.c[i], &cb.c[i]), 0);
		assert_int_equal(bbw_window_runs(a, NULL, NULL), 0);
		compared++;
		wider += w * h > 128;
		runs += wr;
		nodes_all += na;
		if (sb == XC_DONE && wr) {
			struct xc_tasks t = {0};
			bbw *c = split_clone(b, 30, &t);
			for (int way = 0; way < 3; way++) {
				struct covers got = {0};
				uint64_t n, all = t.nodes;
				for (size_t j = 0; j < t.n; j++) {
					size_t task = way == 1 ? t.n - 1 - j : j, before = got.n;
					assert_int_equal(bbw_solve_task(c, &t, task, 0, collect,
					                                &got, &n), XC_DONE);
					all += n;
					if (way == 2) {
						/* the same task again: its covers once more */
						size_t once = got.n - before;
						assert_int_equal(bbw_solve_task(c, &t, task, 0,
						                                collect, &got, &n),
						                 XC_DONE);
						assert_int_equal(got.n - before, 2 * once);
					}
				}
				/* the tasks' trees are the whole search's */
				if (way < 2 && all != nb)
					fail_msg("trial %d: %zu tasks, way %d: %llu nodes, "
					         "%llu whole", trial, t.n, way,
					         (unsigned long long)all,
					         (unsigned long long)nb);
				size_t expect = way == 2 ? 2 * cb.n : cb.n;
				if (got.n != expect)
					fail_msg("trial %d: %zu tasks, way %d: %zu covers, "
					         "%zu expected", trial, t.n, way, got.n, expect);
				if (way < 2 && covers_diff(&cb, &got) != 0)
					fail_msg("trial %d: %zu tasks, way %d: other covers",
					         trial, t.n, way);
				covers_clear(&got);
			}
			bbw_free(c);
			xc_tasks_clear(&t);
			split++;
		}
		covers_clear(&ca);
		covers_clear(&cb);
		bbw_free(a);
		bbw_free(b);
	}
	print_message("    window: %d boards (%d past 128 cells), %llu nodes, "
	              "%llu subtrees on fewer words (portable passes), %llu "
	              "squeezed (the best level's); %d split into tasks; %d with "
	              "the matrix phase, %llu of its subtrees on one word\n",
	              compared, wider, (unsigned long long)nodes_all,
	              (unsigned long long)runs, (unsigned long long)squeezed, split,
	              with_matrix, (unsigned long long)mx1);
	print_message("    the rule against holes: %llu nodes with "
	              "BBW_HOLES_MORE, %llu without; %llu squeezed subtrees "
	              "shifted again\n",
	              (unsigned long long)rule_nodes,
	              (unsigned long long)plain_nodes,
	              (unsigned long long)reshifted);
	assert_true(compared >= 30 && wider >= 5 && runs >= 1000 && split >= 10);
	/* (the rule changes the fewest-rows cells, so the trees differ,
	 * with more nodes or fewer: the same tree would mean it never ran) */
	assert_true(with_matrix >= 20 && rule_nodes != plain_nodes);
	if (bbvec_pext_usable() && bbvec_avx2_usable())
		assert_true(reshifted >= 100);
	if (bbvec_usable() && bbwmx_usable())
		assert_true(mx1 >= 1000);
	if (bbvec_pext_usable() && bbvec_avx2_usable())
		assert_true(squeezed >= 1000);
}

/* ---- random puzzles of 65 to 128 cells ---------------------------------- */

/* The covers a solver run reports, each as a partition of the goal grid:
 * each entry's label taken to its type's where parts_types() says so
 * (the engines may hand a type's copies to congruent entries in any
 * order), then renumbered in order of first appearance, so that
 * swapping two interchangeable pieces gives the same record. */
struct parts {
	size_t n, cap, len;
	unsigned char *rec;
	unsigned char type[256]; /* label -> its type's label */
	bool bad;
	bool tamper; /* change the third record (the tests that can fail) */
};

/* ps->type for the entries of p: congruent entries (same cells under a
 * rotation, tags included) share the least label among them when one of
 * them has more than one copy (or a range); otherwise each keeps its
 * own, as renumbering by first appearance already makes single copies
 * of congruent entries interchangeable, and a finer record compares
 * more. */
static void parts_types(struct parts *ps, const struct puzzle *p)
{
	assert_true(p->npieces < 256);
	struct shape *canon = calloc(p->npieces ? p->npieces : 1, sizeof *canon);
	assert_non_null(canon);
	for (size_t i = 0; i < p->npieces; i++) {
		struct shape s;
		assert_int_equal(poly_from_grid(&p->pieces[i].shape, &s), 0);
		assert_int_equal(poly_canonical(&s, &canon[i]), 0);
		poly_shape_clear(&s);
	}
	for (int l = 0; l < 256; l++)
		ps->type[l] = (unsigned char)l;
	for (size_t i = 0; i < p->npieces; i++) {
		size_t least = i;
		bool copies = false;
		for (size_t j = 0; j < p->npieces; j++)
			if (poly_equal(&canon[i], &canon[j])) {
				least = j < least ? j : least;
				copies |= p->pieces[j].count > 1 ||
				          p->pieces[j].count_max > 0;
			}
		if (copies)
			ps->type[i + 1] = (unsigned char)(least + 1);
	}
	poly_shapes_free(canon, p->npieces);
}

static void parts_cover(void *ctx, const unsigned char *labels,
                        const unsigned char *colours)
{
	struct parts *ps = ctx;
	(void)colours;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 64;
		unsigned char *r = realloc(ps->rec, cap * ps->len);
		if (!r) {
			ps->bad = true;
			return;
		}
		ps->rec = r;
		ps->cap = cap;
	}
	unsigned char map[256] = {0}, next = 1;
	unsigned char *out = ps->rec + ps->n * ps->len;
	for (size_t i = 0; i < ps->len; i++) {
		unsigned char l = ps->type[labels[i]];
		if (l && !map[l])
			map[l] = next++;
		out[i] = l ? map[l] : 0;
	}
	if (ps->tamper && ps->n == 2)
		out[0] ^= 1;
	ps->n++;
}

static size_t parts_len;
static int part_cmp(const void *a, const void *b)
{
	return memcmp(a, b, parts_len);
}

/* Whether the records of a and b are the same multiset (sorts both). */
static bool parts_equal(struct parts *a, struct parts *b)
{
	if (a->bad || b->bad || a->n != b->n || a->len != b->len)
		return false;
	parts_len = a->len;
	if (a->n) {
		qsort(a->rec, a->n, a->len, part_cmp);
		qsort(b->rec, b->n, b->len, part_cmp);
	}
	return a->n == 0 || memcmp(a->rec, b->rec, a->n * a->len) == 0;
}

static struct solve_result run_parts(const struct puzzle *p,
                                     struct solve_opts o, struct parts *ps)
{
	memset(ps, 0, sizeof *ps);
	ps->len = (size_t)p->goal.nx * p->goal.ny * p->goal.nz;
	parts_types(ps, p);
	o.on_cover = parts_cover;
	o.ctx = ps;
	struct solve_result r;
	assert_int_equal(solve_puzzle(p, &o, &r), SOLVE_OK);
	return r;
}

/* A puzzle by dancing links and by bbw, with and without the pinned
 * piece: the same counts and the same covers as partitions of the goal;
 * AUTO takes bbw (the same nodes as SOLVE_WIDE), on one thread and split
 * into tasks on three (the same counts and nodes). False, with nothing
 * compared, when dancing links needs more than 'budget' nodes. */
static bool same_as_dlx(const struct puzzle *p, uint64_t budget,
                        uint64_t *solutions)
{
	struct solve_opts quick = {.generic = true, .engine = SOLVE_DLX,
	                           .no_pin = true, .max_nodes = budget};
	struct solve_result rq;
	assert_int_equal(solve_puzzle(p, &quick, &rq), SOLVE_OK);
	solve_result_clear(&rq);
	if (!rq.complete)
		return false;
	for (int no_pin = 0; no_pin < 2; no_pin++) {
		struct parts a, b;
		struct solve_result ra = run_parts(p, (struct solve_opts){
			.generic = true, .engine = SOLVE_DLX, .no_pin = no_pin}, &a);
		struct solve_result rb = run_parts(p, (struct solve_opts){
			.generic = true, .engine = SOLVE_WIDE, .no_pin = no_pin}, &b);
		assert_true(ra.complete && rb.complete);
		assert_int_equal(ra.solutions, rb.solutions);
		assert_int_equal(ra.assemblies, rb.assemblies);
		if (no_pin)
			assert_int_equal(b.n, rb.assemblies);
		if (!parts_equal(&a, &b))
			fail_msg("%s (no_pin %d): dancing links %zu covers, bbw %zu, "
			         "not the same", p->name, no_pin, a.n, b.n);
		*solutions = ra.solutions;
		free(a.rec);
		free(b.rec);
		solve_result_clear(&ra);
		solve_result_clear(&rb);
	}
	struct solve_result r0, r1, r3;
	struct solve_opts o = {.engine = SOLVE_AUTO};
	assert_int_equal(solve_puzzle(p, &o, &r0), SOLVE_OK);
	o = (struct solve_opts){.generic = true, .engine = SOLVE_WIDE};
	assert_int_equal(solve_puzzle(p, &o, &r1), SOLVE_OK);
	assert_int_equal(r0.solutions, r1.solutions);
	assert_int_equal(r0.nodes, r1.nodes);
	/* split into tasks on three threads: the same counts and nodes */
	o = (struct solve_opts){.engine = SOLVE_AUTO, .threads = 3};
	assert_int_equal(solve_puzzle(p, &o, &r3), SOLVE_OK);
	assert_int_equal(r3.solutions, r1.solutions);
	assert_int_equal(r3.assemblies, r1.assemblies);
	assert_int_equal(r3.nodes, r1.nodes);
	solve_result_clear(&r0);
	solve_result_clear(&r1);
	solve_result_clear(&r3);
	return true;
}

static void test_bbw_puzzles_65_to_128(void **state)
{
	(void)state;
	int compared = 0, solvable = 0, several = 0, holes = 0, skipped = 0;
	for (uint64_t seed = 1; seed <= 30; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_box(seed * 7919, &p), 0);
		size_t vol = puz_grid_volume(&p.goal);
		assert_true(vol >= 65 && vol <= 128);
		/* keep the run short: skip puzzles with a big search */
		uint64_t sol = 0;
		if (same_as_dlx(&p, 200000, &sol)) {
			holes += vol < (size_t)p.goal.nx * p.goal.ny * p.goal.nz;
			solvable += sol > 0;
			several += sol > 1;
			compared++;
		} else {
			skipped++;
		}
		puz_clear(&p);
	}
	print_message("    %d puzzles of 65..128 cells: %d solvable, %d with "
	              "several solutions, %d goals with holes (%d skipped: big "
	              "searches)\n", compared, solvable, several, holes, skipped);
	assert_true(compared >= 20 && solvable == compared && several >= 3 &&
	            holes >= 3);
}

/* Random puzzles of 129 to 384 cells (three to six words; the engine's
 * own instances above go to 512): how solve.c hands them to bbw. Dancing
 * links is slow on these (long rows), so the searches are kept small. */
static void test_bbw_puzzles_129_to_384(void **state)
{
	(void)state;
	int compared = 0, several = 0, skipped = 0, words[9] = {0};
	for (uint64_t seed = 1; seed <= 16; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_box_sized(seed * 104729, 129, 384, false,
		                                   &p), 0);
		size_t vol = puz_grid_volume(&p.goal);
		assert_true(vol >= 129 && vol <= 512);
		uint64_t sol = 0;
		if (same_as_dlx(&p, 2000, &sol)) {
			compared++;
			several += sol > 1;
			words[(vol + 63) / 64]++;
		} else {
			skipped++;
		}
		puz_clear(&p);
	}
	int kinds = 0;
	for (int w = 3; w <= 8; w++)
		kinds += words[w] > 0;
	print_message("    %d puzzles of 129..384 cells (%d widths of 3 to 6 "
	              "words), %d with several solutions (%d skipped: big "
	              "searches)\n", compared, kinds, several, skipped);
	assert_true(compared >= 8 && kinds >= 3);
}

/* Random puzzles with optional cells (fillers and late cells in solve.c),
 * of 8 to 512 cells: dancing links' secondary items are the reference. */
static void test_bbw_optional_cells(void **state)
{
	(void)state;
	int compared = 0, several = 0, skipped = 0, wider = 0;
	for (uint64_t seed = 1; seed <= 48; seed++) {
		struct puzzle p;
		int lo = seed % 3 == 0 ? 8 : seed % 3 == 1 ? 65 : 129;
		int hi = seed % 3 == 0 ? 64 : seed % 3 == 1 ? 128 : 400;
		assert_int_equal(randpuz_box_sized(seed * 15485863, lo, hi, true,
		                                   &p), 0);
		size_t opt = 0, vol = puz_grid_volume(&p.goal), pv = 0;
		for (size_t i = 0; i < (size_t)p.goal.nx * p.goal.ny * p.goal.nz; i++)
			opt += puz_cell_optional(p.goal.cells[i]);
		for (size_t k = 0; k < p.npieces; k++)
			pv += puz_grid_volume(&p.pieces[k].shape);
		assert_true(opt > 0 && pv < vol);
		uint64_t sol = 0;
		if (same_as_dlx(&p, vol > 128 ? 2000 : 100000, &sol)) {
			compared++;
			several += sol > 1;
			wider += vol > 128;
		} else {
			skipped++;
		}
		puz_clear(&p);
	}
	print_message("    %d puzzles with optional cells (%d of 129..400 "
	              "cells), %d with several solutions (%d skipped)\n",
	              compared, wider, several, skipped);
	assert_true(compared >= 24 && wider >= 6 && several >= 3);
}

/* Goals of 513 to 1024 cells (nine to sixteen words: one loop with the
 * words counted at run time, and its vector kernels): random instances
 * against dancing links' covers, each way as in the differential test,
 * every level of list passes searching the same tree (solve_both()),
 * and the same tree with and without the window; and random puzzles
 * through solve_puzzle(), with and without optional cells, against
 * dancing links (same_as_dlx(), small searches). */
static void test_bbw_past_512(void **state)
{
	(void)state;
	static struct inst in;
	int compared = 0, several = 0, words[BBW_MAX_WORDS + 1] = {0};
	uint64_t runs = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct covers ref;
		bool skip = !inst_with_covers(seed * 2654435761u, true, &in, &ref);
		assert_true(in.ncells > 512 && in.ncells <= BBW_MAX_CELLS);
		if (skip)
			continue;
		size_t first = (size_t)(seed % (in.ntypes + 1));
		const struct way ways[] = {
			{in.ntypes, false, 0},
			{first, true, BBW_REGIONS | BBW_QUICK_COUNT},
			{first, false, BBW_QUICK_COUNT | BBW_WINDOW | BBW_SQUEEZE},
			{in.ntypes, true, BBW_QUICK_COUNT | BBW_HOLES | BBW_WINDOW},
		};
		for (size_t w = 0; w < sizeof ways / sizeof *ways; w++)
			same_covers(&in, &ref, seed, w, ways[w]);
		/* the window (with the squeeze every other time) searches the
		 * same tree as the whole words */
		bbw *a = bbw_of(&in, in.nrows, first, false, BBW_QUICK_COUNT);
		bbw *b = bbw_of(&in, in.nrows, first, false,
		                BBW_QUICK_COUNT | BBW_WINDOW |
		                    (seed % 2 ? BBW_SQUEEZE : 0));
		assert_non_null(a);
		assert_non_null(b);
		struct covers ca = {0}, cb = {0};
		uint64_t na, nb;
		assert_int_equal(solve_both(a, 0, &ca, &na), XC_DONE);
		assert_int_equal(solve_both(b, 0, &cb, &nb), XC_DONE);
		if (na != nb || bbw_dead_ends(a) != bbw_dead_ends(b) ||
		    ca.n != cb.n)
			fail_msg("seed %llu: without the window %llu nodes, %zu "
			         "covers; with it %llu, %zu", (unsigned long long)seed,
			         (unsigned long long)na, ca.n, (unsigned long long)nb,
			         cb.n);
		for (size_t i = 0; i < ca.n; i++)
			assert_int_equal(cover_cmp(&ca.c[i], &cb.c[i]), 0);
		assert_int_equal(bbw_window_runs(a, NULL, NULL), 0);
		runs += bbw_window_runs(b, NULL, NULL);
		covers_clear(&ca);
		covers_clear(&cb);
		bbw_free(a);
		bbw_free(b);
		compared++;
		several += ref.n > 1;
		words[(in.ncells + 63) / 64]++;
		covers_clear(&ref);
	}
	int kinds = 0;
	for (int w = 9; w <= BBW_MAX_WORDS; w++)
		kinds += words[w] > 0;
	print_message("    %d instances of 513..1024 cells (%d widths of 9 to 16 "
	              "words), %d with several covers\n", compared, kinds,
	              several);
	assert_true(compared >= 30 && kinds >= 6 && several >= 10);
	assert_true(runs >= 100);

	/* whole puzzles, as solve.c hands them to bbw: random ones of 513 to
	 * 640 cells are mostly long searches, so these seeds are ones whose
	 * search is short (one of them with two solutions; the even ones
	 * with optional cells) */
	static const uint64_t seeds[] = {1, 26, 37, 40};
	int puzzles = 0, optional = 0;
	for (size_t k = 0; k < sizeof seeds / sizeof *seeds; k++) {
		struct puzzle p;
		bool opt = seeds[k] % 2 == 0;
		assert_int_equal(randpuz_box_sized(seeds[k] * 6700417, 513, 640,
		                                   opt, &p), 0);
		size_t vol = puz_grid_volume(&p.goal);
		assert_true(vol > 512 && vol <= BBW_MAX_CELLS);
		uint64_t sol = 0;
		assert_true(same_as_dlx(&p, 3000, &sol));
		assert_true(sol >= 1);
		puzzles++;
		optional += opt;
		puz_clear(&p);
	}
	print_message("    %d puzzles of 513..640 cells (%d with optional "
	              "cells), the same as dancing links; window runs %llu\n",
	              puzzles, optional, (unsigned long long)runs);
}

/* A puzzle file's box goal as bbw rows: every turn of every piece
 * moved anywhere in the box, cells numbered x first, then y, then z, and
 * the box's adjacency as edges. */
static bbw *bbw_of_box(const char *path, size_t *ncells)
{
	struct puzzle p;
	test_load_puzzle(path, &p);
	int nx = p.goal.nx, ny = p.goal.ny, nz = p.goal.nz;
	size_t n = (size_t)nx * ny * nz, T = p.npieces;
	assert_int_equal(puz_grid_volume(&p.goal), n);
	assert_true(n <= BBW_MAX_CELLS && T <= MAX_TYPES);
	unsigned counts[MAX_TYPES], rank[BBW_MAX_CELLS];
	for (size_t t = 0; t < T; t++)
		counts[t] = p.pieces[t].count;
	for (size_t c = 0; c < n; c++)
		rank[c] = (unsigned)c;
	bbw *b = bbw_new(n, rank, T, counts);
	assert_non_null(b);
	for (size_t t = 0; t < T; t++) {
		struct shape s, *turns;
		size_t nt;
		assert_int_equal(poly_from_grid(&p.pieces[t].shape, &s), 0);
		assert_int_equal(poly_orientations(&s, &turns, &nt), 0);
		for (size_t o = 0; o < nt; o++) {
			int hi[3] = {0, 0, 0};
			for (size_t i = 0; i < turns[o].n; i++) {
				uint32_t c = turns[o].cells[i];
				int v[3] = {poly_x(c), poly_y(c), poly_z(c)};
				for (int a = 0; a < 3; a++)
					hi[a] = v[a] > hi[a] ? v[a] : hi[a];
			}
			for (int dz = 0; dz + hi[2] < nz; dz++)
				for (int dy = 0; dy + hi[1] < ny; dy++)
					for (int dx = 0; dx + hi[0] < nx; dx++) {
						uint64_t m[BBW_MAX_WORDS] = {0};
						for (size_t i = 0; i < turns[o].n; i++) {
							uint32_t c = turns[o].cells[i];
							set_cell(m, (unsigned)(((poly_z(c) + dz) * ny +
							                        poly_y(c) + dy) * nx +
							                       poly_x(c) + dx));
						}
						assert_int_equal(bbw_add_row(b, m, t), XC_OK);
					}
		}
		poly_shapes_free(turns, nt);
		poly_shape_clear(&s);
	}
	for (size_t c = 0; c < n; c++) {
		int x = (int)(c % (size_t)nx), y = (int)(c / (size_t)nx % (size_t)ny),
		    z = (int)(c / ((size_t)nx * ny));
		if (x + 1 < nx)
			bbw_add_edge(b, c, c + 1);
		if (y + 1 < ny)
			bbw_add_edge(b, c, c + (size_t)nx);
		if (z + 1 < nz)
			bbw_add_edge(b, c, c + (size_t)nx * ny);
	}
	puz_clear(&p);
	*ncells = n;
	return b;
}

/* The window under long lists: in the 2 x 5 x 7 box of eight flat
 * pentacubes and three 2 x 5 slabs, nodes of more than 512 rows have 64
 * empty cells or fewer lying further apart than 64, where no rule against
 * holes is passed on (the squeeze takes them to one word). The tree must
 * not depend on whether the CPU squeezes: the same nodes, dead ends and
 * covers on each kernel (the portable passes never squeeze) and without
 * the window, and every assembly (155 solutions, each in the box's eight
 * turns: no piece pinned here). */
static void test_bbw_window_long_lists(void **state)
{
	(void)state;
	size_t n;
	bbw *a = bbw_of_box("tests/data/bench/slabs-2x5x7.puz", &n);
	bbw *b = bbw_of_box("tests/data/bench/slabs-2x5x7.puz", &n);
	assert_int_equal(n, 70);
	bbw_set_flags(b, BBW_QUICK_COUNT | BBW_HOLES | BBW_HOLES_MORE |
	                     BBW_MATRIX);
	struct covers ca = {0}, cb = {0};
	uint64_t na, nb, squeezed = 0;
	assert_int_equal(solve_both(a, 0, &ca, &na), XC_DONE);
	squeezed = sq_last;
	assert_int_equal(bbw_solve(b, 0, collect, &cb, &nb), XC_DONE);
	if (na != nb || bbw_dead_ends(a) != bbw_dead_ends(b) || ca.n != cb.n)
		fail_msg("with the window %llu nodes, %llu dead ends, %zu covers; "
		         "without it %llu, %llu, %zu", (unsigned long long)na,
		         (unsigned long long)bbw_dead_ends(a), ca.n,
		         (unsigned long long)nb,
		         (unsigned long long)bbw_dead_ends(b), cb.n);
	for (size_t i = 0; i < ca.n; i++)
		assert_int_equal(cover_cmp(&ca.c[i], &cb.c[i]), 0);
	assert_int_equal(ca.n, 155 * 8);
	assert_int_equal(bbw_window_runs(b, NULL, NULL), 0);
	print_message("    2x5x7 slabs: %llu nodes, %zu covers; %llu squeezed "
	              "subtrees\n", (unsigned long long)na, ca.n,
	              (unsigned long long)squeezed);
	covers_clear(&ca);
	covers_clear(&cb);
	bbw_free(a);
	bbw_free(b);
}

/* Small random puzzles against the independent brute force (counts), and
 * against the 64-cell bitboard (partitions). */
static void test_bbw_small_puzzles_brute(void **state)
{
	(void)state;
	int compared = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		struct brute_solset bs;
		assert_int_equal(brute_solutions(&p, &bs), 0);
		for (int no_pin = 0; no_pin < 2; no_pin++) {
			struct parts a, b;
			struct solve_result ra = run_parts(&p, (struct solve_opts){
				.generic = true, .engine = SOLVE_BITS, .no_pin = no_pin}, &a);
			struct solve_result rb = run_parts(&p, (struct solve_opts){
				.generic = true, .engine = SOLVE_WIDE, .no_pin = no_pin}, &b);
			assert_int_equal(rb.solutions, bs.counts.solutions);
			assert_int_equal(rb.assemblies, bs.counts.assemblies);
			assert_int_equal(ra.assemblies, rb.assemblies);
			if (!parts_equal(&a, &b))
				fail_msg("%s (no_pin %d): bb %zu covers, bbw %zu, not the "
				         "same", p.name, no_pin, a.n, b.n);
			free(a.rec);
			free(b.rec);
			solve_result_clear(&ra);
			solve_result_clear(&rb);
		}
		brute_solset_clear(&bs);
		compared++;
		puz_clear(&p);
	}
	assert_int_equal(compared, 200);
}

/* The comparisons above can fail: a changed cover, one cover fewer. */
static void test_bbw_comparison_can_fail(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	struct parts a, b;
	struct solve_opts o = {.generic = true, .engine = SOLVE_WIDE};
	struct solve_result ra = run_parts(&p, o, &a);
	o.engine = SOLVE_BITS; /* the same covers: both drop rows alike */
	memset(&b, 0, sizeof b);
	b.len = a.len;
	parts_types(&b, &p);
	b.tamper = true;
	o.on_cover = parts_cover;
	o.ctx = &b;
	struct solve_result rb;
	assert_int_equal(solve_puzzle(&p, &o, &rb), SOLVE_OK);
	assert_true(a.n > 3 && a.n == b.n);
	assert_false(parts_equal(&a, &b));
	b.n--;
	assert_false(parts_equal(&a, &b));
	free(a.rec);
	free(b.rec);
	solve_result_clear(&ra);
	solve_result_clear(&rb);
	puz_clear(&p);

	static struct inst in;
	make_inst(5, &in);
	struct covers x = {0}, y = {0};
	uint64_t nodes;
	assert_true(covers_xc(&in, &x));
	assert_int_equal(covers_bbw(&in, in.ntypes, false, 0, &y, &nodes), XC_DONE);
	assert_true(x.n >= 1);
	assert_int_equal(covers_diff(&x, &y), 0);
	y.c[0].row[0] ^= 1;
	assert_true(covers_diff(&x, &y) > 0);
	y.c[0].row[0] ^= 1;
	y.n--;
	assert_true(covers_diff(&x, &y) > 0);
	covers_clear(&x);
	covers_clear(&y);
}

/* ---- known counts --------------------------------------------------------- */

static void expect_counts(const char *path, uint64_t sol, uint64_t as)
{
	struct puzzle p;
	test_load_puzzle(path, &p);
	for (int no_pin = 0; no_pin < 2; no_pin++) {
		struct solve_opts o = {.generic = true, .engine = SOLVE_WIDE,
		                       .no_pin = no_pin};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		if (r.solutions != sol || r.assemblies != as || !r.complete)
			fail_msg("%s (no_pin %d): %llu solutions, %llu assemblies; want "
			         "%llu, %llu", path, no_pin,
			         (unsigned long long)r.solutions,
			         (unsigned long long)r.assemblies,
			         (unsigned long long)sol, (unsigned long long)as);
		solve_result_clear(&r);
	}
	puz_clear(&p);
}

static void test_bbw_known_counts(void **state)
{
	(void)state;
	expect_counts(DATA "soma.puz", 240, 11520);
	expect_counts(DATA "pentacubes-2x3x10.puz", 12, 96);
	expect_counts("tests/data/bench/pentacubes-2x5x6.puz", 264, 2112);
	expect_counts(DATA "HC_BQ_001.puz", 1, 48);
	expect_counts(DATA "happycube-blue.puz", 3, 144);
}

/* ---- limits --------------------------------------------------------------- */

static void test_bbw_node_budget(void **state)
{
	(void)state;
	static struct inst in;
	uint64_t seed = 1;
	uint64_t all = 0, full;
	/* an instance with a search of some size */
	for (;; seed++) {
		make_inst(seed * 31, &in);
		bbw *b = bbw_of(&in, in.nrows, in.ntypes, false, BBW_QUICK_COUNT);
		assert_non_null(b);
		all = 0;
		assert_int_equal(bbw_solve(b, 0, count_only, &all, &full), XC_DONE);
		bbw_free(b);
		if (full >= 50 && in.ncells > 64)
			break;
	}
	for (uint64_t k = 1; k < full; k += full / 7 + 1) {
		bbw *b = bbw_of(&in, in.nrows, in.ntypes, false, BBW_QUICK_COUNT);
		uint64_t covers = 0, nodes;
		struct covers some = {0};
		assert_int_equal(solve_both(b, k, &some, &nodes), XC_NODES);
		assert_int_equal(nodes, k);
		assert_true(some.n <= all);
		covers_clear(&some);
		/* solving again, without a budget, is complete */
		covers = 0;
		assert_int_equal(bbw_solve(b, 0, count_only, &covers, &nodes), XC_DONE);
		assert_int_equal(covers, all);
		assert_int_equal(nodes, full);
		bbw_free(b);
	}
	/* through solve_puzzle */
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	struct solve_opts o = {.generic = true, .engine = SOLVE_WIDE,
	                       .max_nodes = 100};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_false(r.complete);
	assert_int_equal(r.stop, SOLVE_MAX_NODES);
	assert_true(r.nodes <= 100);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_bbw_visitor_stop(void **state)
{
	(void)state;
	static struct inst in;
	for (uint64_t seed = 1;; seed++) {
		make_inst(seed * 77, &in);
		struct covers all = {0};
		if (!covers_xc(&in, &all) || all.n < 3) {
			covers_clear(&all);
			continue;
		}
		struct covers some = {.stop_after = 2};
		uint64_t nodes;
		assert_int_equal(covers_bbw(&in, in.ntypes, true,
		                              BBW_REGIONS | BBW_QUICK_COUNT, &some,
		                              &nodes), XC_VISITOR);
		assert_int_equal(some.n, 2);
		covers_clear(&all);
		covers_clear(&some);
		break;
	}
}

/* Bad input: no goal of 0 or 513 cells; a goal of every size from 1 to
 * 512 with one row of every cell has one cover (the last word's edge). */
static void test_bbw_sizes(void **state)
{
	(void)state;
	unsigned rank[BBW_MAX_CELLS + 1], counts[1] = {1};
	for (unsigned c = 0; c <= BBW_MAX_CELLS; c++)
		rank[c] = c;
	assert_null(bbw_new(0, rank, 1, counts));
	assert_null(bbw_new(BBW_MAX_CELLS + 1, rank, 1, counts));
	for (size_t n = 1; n <= BBW_MAX_CELLS; n += n < 130 ? 1 : 63) {
		bbw *b = bbw_new(n, rank, 1, counts);
		assert_non_null(b);
		uint64_t m[BBW_MAX_WORDS], covers = 0, nodes;
		memset(m, 0xff, sizeof m); /* cells past n: ignored */
		assert_int_equal(bbw_add_row(b, m, 0), XC_OK);
		assert_int_equal(bbw_solve(b, 0, count_only, &covers, &nodes),
		                 XC_DONE);
		assert_int_equal(covers, 1);
		struct covers one = {0};
		assert_int_equal(solve_both(b, 0, &one, &nodes), XC_DONE);
		assert_int_equal(one.n, 1);
		covers_clear(&one);
		bbw_free(b);
	}
	bbw_free(NULL);
}

/* ---- allocation failures -------------------------------------------------- */

#ifndef HAVE_ASAN
/* test_bbw_out_of_memory() on one instance: building (each allocation
 * failed in turn), splitting and cloning. */
static void oom_instance(const struct inst *in)
{
	struct covers want = {0};
	assert_true(covers_xc(in, &want));
	for (long k = 0;; k++) {
		long before = live;
		fail_after = k;
		bbw *b = bbw_of(in, in->nrows, in->ntypes, true,
		                    BBW_REGIONS | BBW_QUICK_COUNT);
		fail_after = -1;
		if (!b) {
			if (live != before)
				fail_msg("allocation %ld failing: %ld blocks leaked", k,
				         live - before);
			assert_true(k < 1000);
			continue;
		}
		/* the search itself allocates nothing */
		struct covers got = {0};
		uint64_t nodes;
		fail_after = 0;
		long calls = alloc_calls;
		enum xc_stop st = bbw_solve(b, 0, count_only, &got.n, &nodes);
		long during = alloc_calls - calls;
		fail_after = -1;
		assert_int_equal(st, XC_DONE);
		assert_int_equal(during, 0);
		assert_int_equal(got.n, want.n);
		bbw_free(b);
		assert_int_equal(live, before);
		break;
	}
	/* bbw_split and bbw_clone: XC_ENOMEM or NULL, nothing leaked,
	 * the engine as it was; or tasks that add up to the whole */
	bbw *b = bbw_of(in, in->nrows, in->ntypes, true,
	                    BBW_REGIONS | BBW_QUICK_COUNT);
	assert_non_null(b);
	uint64_t all = 0, full;
	assert_int_equal(bbw_solve(b, 0, count_only, &all, &full), XC_DONE);
	assert_int_equal(all, want.n);
	int failed = 0;
	for (long k = 0;; k++) {
		long before = live;
		struct xc_tasks t = {0};
		enum xc_stop st;
		fail_after = k;
		int rc = bbw_split(b, 1000, 0, &t, &st);
		bbw *c = rc == XC_OK ? bbw_clone(b) : NULL;
		fail_after = -1;
		if (rc != XC_OK || !c) {
			assert_true(rc == XC_OK || rc == XC_ENOMEM);
			xc_tasks_clear(&t);
			if (live != before)
				fail_msg("allocation %ld failing: %ld blocks leaked", k,
				         live - before);
			failed++;
			continue;
		}
		uint64_t covers = 0, nodes = t.nodes, n;
		for (size_t j = 0; j < t.n; j++) {
			assert_int_equal(bbw_solve_task(c, &t, j, 0, count_only,
			                                  &covers, &n), XC_DONE);
			nodes += n;
		}
		assert_int_equal(covers, all);
		assert_int_equal(nodes, full);
		bbw_free(c);
		xc_tasks_clear(&t);
		assert_int_equal(live, before);
		break;
	}
	uint64_t again = 0, n2;
	assert_int_equal(bbw_solve(b, 0, count_only, &again, &n2), XC_DONE);
	assert_int_equal(again, all);
	assert_int_equal(n2, full);
	bbw_free(b);
	assert_true(failed >= 12); /* the task lists, the clone's arrays */
	covers_clear(&want);
}
#endif

static void test_bbw_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	static struct inst in;
	make_inst(12345, &in);
	oom_instance(&in);
	/* past eight words */
	make_inst_sized(11 * 2654435761u, &in, true);
	assert_true(in.ncells > 512);
	oom_instance(&in);
	/* through solve_puzzle: out of memory, or the right counts */
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	for (long k = 0;; k++) {
		long before = live;
		struct solve_opts o = {.generic = true, .engine = SOLVE_WIDE};
		struct solve_result r;
		fail_after = k;
		int rc = solve_puzzle(&p, &o, &r);
		fail_after = -1;
		if (rc == SOLVE_OK) {
			assert_int_equal(r.solutions, 240);
			assert_int_equal(r.assemblies, 11520);
			solve_result_clear(&r);
			assert_int_equal(live, before);
			break;
		}
		assert_int_equal(rc, SOLVE_ENOMEM);
		if (live != before)
			fail_msg("allocation %ld failing: %ld blocks leaked", k,
			         live - before);
		assert_true(k < 100000);
	}
	puz_clear(&p);
#endif
}

int main(void)
{
	/* In rows of three: `make test` runs the program in three parts
	 * (TEST_PART=i/3 takes every third test), and the columns take about
	 * the same time (2026-12-02: the first test alone is a third). */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bbw_random_differential),
		cmocka_unit_test(test_bbw_ranges_differential),
		cmocka_unit_test(test_bbw_past_512),
		cmocka_unit_test(test_bbw_drop_below),
		cmocka_unit_test(test_bbw_regions_prune),
		cmocka_unit_test(test_bbw_out_of_memory),
		cmocka_unit_test(test_bbw_optional_cells),
		cmocka_unit_test(test_bbw_known_counts),
		cmocka_unit_test(test_bbw_holes),
		cmocka_unit_test(test_bbw_window),
		cmocka_unit_test(test_bbw_window_long_lists),
		cmocka_unit_test(test_bbw_small_puzzles_brute),
		cmocka_unit_test(test_bbw_clone_rows),
		cmocka_unit_test(test_bbw_puzzles_65_to_128),
		cmocka_unit_test(test_bbw_comparison_can_fail),
		cmocka_unit_test(test_bbw_reserve_after_search),
		cmocka_unit_test(test_bbw_dense_same_tree),
		cmocka_unit_test(test_bbw_node_budget),
		cmocka_unit_test(test_bbw_ladder),
		cmocka_unit_test(test_bbw_vector_long_lists),
		cmocka_unit_test(test_bbw_visitor_stop),
		cmocka_unit_test(test_bbw_sizes),
		cmocka_unit_test(test_bbw_puzzles_129_to_384),
	};
	/* BBW_FILTER=pattern runs only the matching tests */
	if (getenv("BBW_FILTER"))
		cmocka_set_test_filter(getenv("BBW_FILTER"));
	return run_tests_parts(tests);
}
