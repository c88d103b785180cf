/* test_bb.c: the bitboard exact-cover engine against known answers and,
 * cover for cover, against a plain recursive enumeration written here (it
 * shares no code with solver/bb.c) on hundreds of seeded random instances,
 * with random fill orders and with and without a pinned type, on every
 * level of list passes the CPU has and with the matrix phase (bb.h's
 * bb_set_kernels); then its node budget, its visitor stop, and a check
 * that the comparison itself can fail. (test_bbvec.c tests the vector
 * list kernels alone.) */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/bb.h"
#include "tests/dropref.h"
#include "tests/polyo.h"

#define MAX_ROWS 2048
#define MAX_TYPES 8
/* The brute force gives up above this many covers (the instance is then
 * skipped), to keep the run short. */
#define MAX_COVERS 20000
#define NO_FIRST ((size_t)-1)

/* An instance in bb's terms: rows over cells 0..ncells-1 (the goal's
 * numbering), each with a type; type t to be used exactly counts[t] times.
 * Every row of a type has the same size and the volumes add up, as bb's
 * contract requires, unless a test says otherwise. */
struct inst {
	size_t ncells;
	size_t ntypes;
	unsigned counts[MAX_TYPES];
	unsigned rank[64]; /* fill order handed to bb_new() */
	size_t nrows;
	uint64_t mask[MAX_ROWS];
	size_t type[MAX_ROWS];
	unsigned grid[3]; /* bb_set_grid()'s box when grid[0] != 0 */
	bool bulk;        /* added by bb_add_rows(), a type's run at a time */
};

/* One cover: its row numbers, ascending (the canonical form). */
struct cover {
	size_t len;
	uint32_t row[64];
};

/* Covers in the order found; the caller frees 'c'. */
struct covers {
	size_t n, cap;
	struct cover *c;
	bool bad;          /* a cover of more than 64 rows, or out of memory */
	size_t stop_after; /* the visitor stops after this many (0: never) */
};

static void covers_clear(struct covers *cs)
{
	free(cs->c);
	memset(cs, 0, sizeof *cs);
}

/* Append the cover 'rows' in canonical form. */
static void covers_add(struct covers *cs, const size_t *rows, size_t n)
{
	if (n > 64) {
		cs->bad = true;
		return;
	}
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? 2 * cs->cap : 64;
		struct cover *c = realloc(cs->c, cap * sizeof *c);
		if (!c) {
			cs->bad = true;
			return;
		}
		cs->c = c;
		cs->cap = cap;
	}
	struct cover *k = &cs->c[cs->n++];
	memset(k, 0, sizeof *k);
	k->len = n;
	for (size_t i = 0; i < n; i++) {
		uint32_t r = (uint32_t)rows[i];
		size_t j = i;
		for (; j > 0 && k->row[j - 1] > r; j--)
			k->row[j] = k->row[j - 1];
		k->row[j] = r;
	}
}

static bool collect(void *ctx, const size_t *rows, size_t n)
{
	struct covers *cs = ctx;
	covers_add(cs, rows, n);
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

/* How far the sets of covers a and b are apart: covers in one and not the
 * other, plus covers either holds more than once, plus one for each list
 * marked bad. 0 when they are the same set with no duplicates. Sorts both
 * lists. */
static size_t covers_diff(struct covers *a, struct covers *b)
{
	size_t d = (size_t)a->bad + (size_t)b->bad;
	if (a->n) /* qsort() wants a pointer even for no elements */
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

/* Whether the first n covers of a and b are the same, in the same order. */
static bool same_prefix(const struct covers *a, const struct covers *b,
                        size_t n)
{
	if (a->n < n || b->n < n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (cover_cmp(&a->c[i], &b->c[i]) != 0)
			return false;
	return true;
}

/* ---- the reference: plain recursion on the lowest empty cell ---- */

struct brute {
	const struct inst *in;
	uint64_t full;
	unsigned used[MAX_TYPES];
	size_t path[64];
	size_t depth;
	struct covers *out;
};

static void brute_rec(struct brute *br, uint64_t filled)
{
	const struct inst *in = br->in;
	if (br->out->n > MAX_COVERS)
		return;
	if (filled == br->full) {
		for (size_t t = 0; t < in->ntypes; t++)
			if (br->used[t] != in->counts[t])
				return;
		covers_add(br->out, br->path, br->depth);
		return;
	}
	size_t c = 0;
	while (filled >> c & 1)
		c++;
	/* every cover holds exactly one row with cell c: try each */
	for (size_t r = 0; r < in->nrows; r++) {
		size_t t = in->type[r];
		if (!(in->mask[r] >> c & 1) || (in->mask[r] & filled) ||
		    br->used[t] >= in->counts[t])
			continue;
		br->used[t]++;
		br->path[br->depth++] = r;
		brute_rec(br, filled | in->mask[r]);
		br->depth--;
		br->used[t]--;
	}
}

/* Every exact cover of 'in' into 'out'; false when there are more than
 * MAX_COVERS. */
static bool brute(const struct inst *in, struct covers *out)
{
	struct brute br = {.in = in, .out = out};
	br.full = in->ncells == 64 ? ~(uint64_t)0
	                           : ((uint64_t)1 << in->ncells) - 1;
	brute_rec(&br, 0);
	return out->n <= MAX_COVERS;
}

/* ---- running bb ---- */

static bb *bb_of(const struct inst *in, size_t nrows, size_t first)
{
	bb *b = bb_new(in->ncells, in->rank, in->ntypes, in->counts);
	assert_non_null(b);
	for (size_t r = 0, e; r < nrows; r = e) {
		e = r + 1;
		if (!in->bulk) {
			assert_int_equal(bb_add_row(b, in->mask[r], in->type[r]),
			                 XC_OK);
			continue;
		}
		while (e < nrows && in->type[e] == in->type[r])
			e++;
		assert_int_equal(bb_add_rows(b, in->mask + r, e - r, in->type[r]),
		                 XC_OK);
	}
	if (first != NO_FIRST)
		bb_set_first(b, first);
	if (in->grid[0])
		assert_true(bb_set_grid(b, in->grid[0], in->grid[1], in->grid[2]));
	return b;
}

static enum xc_stop run_bb(const struct inst *in, size_t first,
                           uint64_t max_nodes, struct covers *out,
                           uint64_t *nodes)
{
	bb *b = bb_of(in, in->nrows, first);
	enum xc_stop st = bb_solve(b, max_nodes, collect, out, nodes);
	bb_free(b);
	return st;
}

static void dump(const struct inst *in, size_t first)
{
	print_message("instance: ncells %zu, ntypes %zu, ", in->ncells,
	              in->ntypes);
	if (first == NO_FIRST)
		print_message("no first type\ncounts");
	else
		print_message("first type %zu\ncounts", first);
	for (size_t t = 0; t < in->ntypes; t++)
		print_message(" %u", in->counts[t]);
	print_message("\nrank");
	for (size_t c = 0; c < in->ncells; c++)
		print_message(" %u", in->rank[c]);
	print_message("\n");
	for (size_t r = 0; r < in->nrows; r++)
		print_message("row %zu: 0x%016llx type %zu\n", r,
		              (unsigned long long)in->mask[r], in->type[r]);
}

/* The list passes' levels above the portable one (bb.h), with names. */
static const enum bb_kernels vector_kernels[] = {BB_AVX2, BB_AVX512,
                                                 BB_MATRIX};
static const char *const kernel_name[] = {"portable", "AVX2", "AVX-512",
                                          "AVX-512 with the matrix phase"};
#define NKERNELS 4

/* Whether bb's covers of 'in' are the set 'want' (sorted by the call),
 * each found once, and solving the same bb twice visits them in the same
 * order with the same nodes; and whether every level of list passes the
 * CPU has searches the same tree as the portable ones (the same stop,
 * nodes, dead ends, covers in the same order). Says what differs when
 * not. Leaves nothing to free, so that a caller can release its own
 * before failing. */
static bool check_covers(const struct inst *in, size_t first,
                         struct covers *want, const char *what)
{
	bb *b = bb_of(in, in->nrows, first);
	struct covers got = {0}, again = {0};
	uint64_t nodes, nodes2;
	assert_int_equal(bb_set_kernels(b, BB_PORTABLE), BB_PORTABLE);
	enum xc_stop st = bb_solve(b, 0, collect, &got, &nodes);
	uint64_t dead = bb_dead_ends(b);
	enum xc_stop st2 = bb_solve(b, 0, collect, &again, &nodes2);
	bool ok = true;
	if (st2 != st || nodes2 != nodes || again.n != got.n ||
	    !same_prefix(&got, &again, got.n)) {
		print_message("%s: a second solve differs\n", what);
		ok = false;
	}
	covers_clear(&again);
	for (size_t v = 0; v < NKERNELS - 1; v++) {
		enum bb_kernels k = vector_kernels[v];
		if (bb_set_kernels(b, k) != k)
			continue; /* not on this CPU */
		struct covers vec = {0};
		uint64_t nodes3;
		enum xc_stop st3 = bb_solve(b, 0, collect, &vec, &nodes3);
		uint64_t dead3 = bb_dead_ends(b);
		if (st3 != st || nodes3 != nodes || dead3 != dead ||
		    vec.n != got.n || !same_prefix(&got, &vec, got.n)) {
			print_message("%s: the %s list passes differ (%llu "
			              "nodes, %llu dead ends, %zu covers; "
			              "portable %llu, %llu, %zu)\n", what,
			              kernel_name[k], (unsigned long long)nodes3,
			              (unsigned long long)dead3, vec.n,
			              (unsigned long long)nodes,
			              (unsigned long long)dead, got.n);
			ok = false;
		}
		covers_clear(&vec);
	}
	bb_free(b);
	size_t d = covers_diff(want, &got);
	if (st != XC_DONE || d != 0) {
		dump(in, first);
		print_message("%s: bb found %zu covers (stop %d), the brute "
		              "force %zu; %zu differences\n", what, got.n,
		              (int)st, want->n, d);
		ok = false;
	}
	covers_clear(&got);
	return ok;
}

static void expect_covers(const struct inst *in, size_t first,
                          struct covers *want, const char *what)
{
	if (!check_covers(in, first, want, what))
		fail_msg("%s: bb and the brute force disagree", what);
}

/* ---- instances ---- */

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

static size_t popcount(uint64_t m)
{
	size_t n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* A random cell of the nonempty set m. */
static size_t pick(uint64_t *s, uint64_t m)
{
	size_t k = rnd(s, popcount(m));
	for (size_t c = 0;; c++)
		if (m >> c & 1 && k-- == 0)
			return c;
}

/* The cells next to those of m on a board of n cells, w to a line. */
static uint64_t around(uint64_t m, size_t n, size_t w)
{
	uint64_t a = 0;
	for (size_t c = 0; c < n; c++) {
		if (!(m >> c & 1))
			continue;
		if (c % w > 0)
			a |= (uint64_t)1 << (c - 1);
		if (c % w + 1 < w && c + 1 < n)
			a |= (uint64_t)1 << (c + 1);
		if (c >= w)
			a |= (uint64_t)1 << (c - w);
		if (c + w < n)
			a |= (uint64_t)1 << (c + w);
	}
	return a;
}

/* A region of 'size' cells out of 'avoid', grown from 'start' through
 * neighbours while it can, else by a jump to any free cell. The caller
 * leaves enough free cells. */
static uint64_t grow(uint64_t *s, size_t n, size_t w, size_t start,
                     size_t size, uint64_t avoid)
{
	uint64_t all = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
	uint64_t m = (uint64_t)1 << start;
	while (popcount(m) < size) {
		uint64_t cand = around(m, n, w) & ~m & ~avoid;
		if (!cand)
			cand = all & ~m & ~avoid;
		m |= (uint64_t)1 << pick(s, cand);
	}
	return m;
}

/* m moved by (dx, dy) on the board, or 0 when some cell falls off. */
static uint64_t shift(uint64_t m, size_t n, size_t w, int dx, int dy)
{
	uint64_t r = 0;
	for (size_t c = 0; c < n; c++) {
		if (!(m >> c & 1))
			continue;
		int x = (int)(c % w) + dx, y = (int)(c / w) + dy;
		if (x < 0 || x >= (int)w || y < 0)
			return 0;
		size_t k = (size_t)y * w + (size_t)x;
		if (k >= n)
			return 0;
		r |= (uint64_t)1 << k;
	}
	return r;
}

static void add(struct inst *in, uint64_t m, size_t t)
{
	assert_true(in->nrows < MAX_ROWS);
	in->mask[in->nrows] = m;
	in->type[in->nrows++] = t;
}

static void shuffle_rows(struct inst *in, uint64_t *s)
{
	for (size_t i = in->nrows; i > 1; i--) {
		size_t j = rnd(s, i);
		uint64_t m = in->mask[i - 1];
		size_t t = in->type[i - 1];
		in->mask[i - 1] = in->mask[j];
		in->type[i - 1] = in->type[j];
		in->mask[j] = m;
		in->type[j] = t;
	}
}

static void random_rank(struct inst *in, uint64_t *s)
{
	for (size_t c = 0; c < in->ncells; c++)
		in->rank[c] = (unsigned)c;
	if (rnd(s, 3) == 0)
		return; /* the identity now and then */
	for (size_t i = in->ncells; i > 1; i--) {
		size_t j = rnd(s, i);
		unsigned t = in->rank[i - 1];
		in->rank[i - 1] = in->rank[j];
		in->rank[j] = t;
	}
}

/* A board of 'lo'..'hi' cells, w to a line, a planted partition into
 * pieces of 1..4 types (1..6 cells, 1..3 copies) unless 'plant' is
 * false, plus random extra rows of each type: shifted copies of the
 * planted pieces and freshly grown regions; sometimes a type with no
 * copies (whose rows no cover may use), and sometimes a row dropped
 * (covers may vanish). */
static void gen_planted(struct inst *in, uint64_t *s, size_t lo, size_t hi,
                        bool plant)
{
	memset(in, 0, sizeof *in);
	size_t size[MAX_TYPES], n;
	do {
		in->ntypes = 1 + rnd(s, 4);
		n = 0;
		for (size_t t = 0; t < in->ntypes; t++) {
			size[t] = 1 + rnd(s, 6);
			in->counts[t] = 1 + (unsigned)rnd(s, 3);
			n += size[t] * in->counts[t];
		}
	} while (n < lo || n > hi);
	in->ncells = n;
	if (rnd(s, 5) == 0) {
		/* Smaller than the board: a row of a type with no copies
		 * that fills the board is test_bb_zero_count_fills_board's
		 * bug, kept out of here so that this test can still find
		 * others. */
		size[in->ntypes] = 1 + rnd(s, n - 1 < 6 ? n - 1 : 6);
		in->counts[in->ntypes++] = 0;
	}
	size_t w = 1 + rnd(s, 8);
	size_t piece[64], np = 0;
	for (size_t t = 0; t < in->ntypes; t++)
		for (unsigned k = 0; k < in->counts[t]; k++)
			piece[np++] = t;
	for (size_t i = np; i > 1; i--) {
		size_t j = rnd(s, i), t = piece[i - 1];
		piece[i - 1] = piece[j];
		piece[j] = t;
	}
	uint64_t all = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
	uint64_t filled = 0;
	size_t planted[64];
	for (size_t i = 0; i < (plant ? np : 0); i++) {
		uint64_t free_ = all & ~filled;
		size_t start = 0;
		if (rnd(s, 2))
			start = pick(s, free_);
		else
			while (!(free_ >> start & 1))
				start++;
		uint64_t m = grow(s, n, w, start, size[piece[i]], filled);
		filled |= m;
		planted[i] = in->nrows;
		add(in, m, piece[i]);
	}
	for (size_t t = 0; t < in->ntypes; t++) {
		size_t extra = rnd(s, 2 + 2 * n / size[t]);
		for (size_t e = 0; e < extra; e++) {
			uint64_t m = 0;
			if (plant && rnd(s, 2)) {
				size_t i = rnd(s, np);
				if (piece[i] == t)
					m = shift(in->mask[planted[i]], n, w,
					          (int)rnd(s, 5) - 2,
					          (int)rnd(s, 5) - 2);
			}
			if (!m)
				m = grow(s, n, w, rnd(s, n), size[t], 0);
			add(in, m, t);
		}
	}
	shuffle_rows(in, s);
	if (in->nrows > 1 && rnd(s, 4) == 0) {
		size_t r = rnd(s, in->nrows);
		in->nrows--;
		in->mask[r] = in->mask[in->nrows];
		in->type[r] = in->type[in->nrows];
	}
	random_rank(in, s);
}

/* 6..16 cells, 40..199 random subsets of one size: most cells in more
 * than 31 rows (bb's cell counters saturate there); one type, or a
 * single-copy type beside a multi-copy one. */
static void gen_dense(struct inst *in, uint64_t *s)
{
	memset(in, 0, sizeof *in);
	size_t k = 2 + rnd(s, 3), copies = 2 + rnd(s, 3);
	in->ncells = k * copies;
	if (rnd(s, 2)) {
		in->ntypes = 2;
		in->counts[0] = (unsigned)copies - 1;
		in->counts[1] = 1;
	} else {
		in->ntypes = 1;
		in->counts[0] = (unsigned)copies;
	}
	uint64_t all = ((uint64_t)1 << in->ncells) - 1;
	size_t nrows = 40 + rnd(s, 160);
	for (size_t r = 0; r < nrows; r++) {
		uint64_t m = 0;
		while (popcount(m) < k)
			m |= (uint64_t)1 << pick(s, all & ~m);
		add(in, m, rnd(s, in->ntypes));
	}
	random_rank(in, s);
}

static void identity_rank(struct inst *in)
{
	for (size_t c = 0; c < in->ncells; c++)
		in->rank[c] = (unsigned)c;
}

/* Dominoes on a board of h x w cells (x fastest), one type with 'copies'. */
static void dominoes(struct inst *in, size_t h, size_t w, unsigned copies)
{
	memset(in, 0, sizeof *in);
	in->ncells = h * w;
	in->ntypes = 1;
	in->counts[0] = copies;
	identity_rank(in);
	for (size_t y = 0; y < h; y++)
		for (size_t x = 0; x < w; x++) {
			size_t c = y * w + x;
			if (x + 1 < w)
				add(in, (uint64_t)3 << c, 0);
			if (y + 1 < h)
				add(in, (uint64_t)1 << c | (uint64_t)1 << (c + w), 0);
		}
}

/* ---- known answers ---- */

/* Knuth, TAOCP 7.2.2.1 (6) with items a..g as cells 0..6: the one
 * solution is rows {0 3 4}. bb wants types used exactly and volumes that
 * add up, so the two-cell rows are one type with two copies and the
 * three-cell rows another with one. */
static void test_bb_knuth_example(void **state)
{
	(void)state;
	static const char *opt[6] = {"ce", "adg", "bcf", "adf", "bg", "deg"};
	struct inst in = {.ncells = 7, .ntypes = 2, .counts = {2, 1}};
	identity_rank(&in);
	for (size_t i = 0; i < 6; i++) {
		uint64_t m = 0;
		for (const char *p = opt[i]; *p; p++)
			m |= (uint64_t)1 << (*p - 'a');
		add(&in, m, strlen(opt[i]) == 2 ? 0 : 1);
	}
	for (size_t first = 0; first < 3; first++) {
		struct covers got = {0};
		uint64_t nodes;
		size_t f = first == 2 ? NO_FIRST : first;
		assert_int_equal(run_bb(&in, f, 0, &got, &nodes), XC_DONE);
		assert_int_equal(got.n, 1);
		assert_int_equal(got.c[0].len, 3);
		assert_int_equal(got.c[0].row[0], 0);
		assert_int_equal(got.c[0].row[1], 3);
		assert_int_equal(got.c[0].row[2], 4);
		assert_true(nodes > 0);
		covers_clear(&got);
	}
	struct covers want = {0};
	assert_true(brute(&in, &want));
	assert_int_equal(want.n, 1);
	expect_covers(&in, NO_FIRST, &want, "knuth");
	covers_clear(&want);
}

/* Domino tilings: 5 of a 2x4 board, 8 of 2x5, 36 of 4x4, 41 of 3x6,
 * whatever the fill order and with the domino type pinned (it has several
 * copies: the root takes each cover's first domino). */
static void test_bb_dominoes(void **state)
{
	(void)state;
	static const struct {
		size_t h, w, tilings;
	} boards[] = {{2, 4, 5}, {2, 5, 8}, {4, 4, 36}, {3, 6, 41}};
	uint64_t s = 7;
	for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
		struct inst in;
		dominoes(&in, boards[i].h, boards[i].w,
		         (unsigned)(boards[i].h * boards[i].w / 2));
		struct covers want = {0};
		assert_true(brute(&in, &want));
		assert_int_equal(want.n, boards[i].tilings);
		for (int k = 0; k < 6; k++) {
			if (k >= 2)
				random_rank(&in, &s);
			expect_covers(&in, k & 1 ? 0 : NO_FIRST, &want,
			              "dominoes");
		}
		covers_clear(&want);
	}
}

/* bb names a row by its type and mask, keeping row numbers in its lists
 * only when two rows of a type share a mask. Both ways, every cover comes
 * back with the numbers of the rows placed: dominoes of a 2x4 board with
 * every placement added twice have 5 tilings of 4 dominoes, 5 * 2^4 = 80
 * covers by number; with the copies a second type of one copy, each
 * tiling takes the second type once: 5 * 4 = 20. */
static void test_bb_duplicate_rows(void **state)
{
	(void)state;
	for (int second = 0; second < 2; second++) {
		struct inst in;
		dominoes(&in, 2, 4, second ? 3 : 4);
		size_t n = in.nrows;
		for (size_t r = 0; r < n; r++)
			add(&in, in.mask[r], (size_t)second);
		if (second) {
			in.ntypes = 2;
			in.counts[1] = 1;
		}
		struct covers want = {0};
		assert_true(brute(&in, &want));
		assert_int_equal(want.n, second ? 20 : 80);
		expect_covers(&in, NO_FIRST, &want, "dominoes twice");
		expect_covers(&in, 0, &want, "dominoes twice, pinned");
		covers_clear(&want);
	}
}

/* All 64 cells: a 4x16 board has 95 tilings by 1x4 bars
 * (a(n) = a(n-1) + a(n-4)). */
static void test_bb_full_board(void **state)
{
	(void)state;
	struct inst in = {.ncells = 64, .ntypes = 1, .counts = {16}};
	identity_rank(&in);
	for (size_t y = 0; y < 4; y++)
		for (size_t x = 0; x + 4 <= 16; x++)
			add(&in, (uint64_t)0xf << (16 * y + x), 0);
	for (size_t x = 0; x < 16; x++)
		add(&in, (uint64_t)0x0001000100010001u << x, 0);
	struct covers want = {0};
	assert_true(brute(&in, &want));
	assert_int_equal(want.n, 95);
	uint64_t s = 64;
	for (int k = 0; k < 4; k++) {
		if (k >= 2)
			random_rank(&in, &s);
		expect_covers(&in, k & 1 ? 0 : NO_FIRST, &want, "4x16 bars");
	}
	covers_clear(&want);
}

/* Every k-subset of n cells as a row: n! / (k!^(n/k) (n/k)!) covers, with
 * every cell in more rows than bb's counters hold exactly (31). The same
 * rows as two single-copy types: one cover per subset. */
static void test_bb_all_subsets(void **state)
{
	(void)state;
	static const struct {
		size_t n, k, covers;
	} cases[] = {{8, 4, 35}, {10, 5, 126}, {12, 4, 5775}, {12, 6, 462}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = cases[i].n, k = cases[i].k;
		struct inst in = {.ncells = n, .ntypes = 1};
		in.counts[0] = (unsigned)(n / k);
		identity_rank(&in);
		for (uint64_t m = 0; m < (uint64_t)1 << n; m++)
			if (popcount(m) == k)
				add(&in, m, 0);
		struct covers want = {0};
		assert_true(brute(&in, &want));
		assert_int_equal(want.n, cases[i].covers);
		expect_covers(&in, NO_FIRST, &want, "subsets");
		expect_covers(&in, 0, &want, "subsets, pinned");
		covers_clear(&want);
		if (n != 2 * k)
			continue;
		/* halves: type 0 and type 1, one copy each, same rows */
		size_t nr = in.nrows;
		for (size_t r = 0; r < nr; r++)
			add(&in, in.mask[r], 1);
		in.ntypes = 2;
		in.counts[0] = in.counts[1] = 1;
		struct covers want2 = {0};
		assert_true(brute(&in, &want2));
		assert_int_equal(want2.n, nr);
		expect_covers(&in, NO_FIRST, &want2, "halves");
		expect_covers(&in, 1, &want2, "halves, pinned");
		covers_clear(&want2);
	}
}

/* Regression (fails today): a type with no copies is never used, says
 * bb.h, yet at the root bb branches on every row of the list, those of a
 * type with counts[t] == 0 included; a row that fills the board alone is
 * then reported as a cover (one that does not is harmless: rem[t] wraps
 * to UINT_MAX and the next node prunes). Minimal instance: two cells,
 * counts {2, 0}, rows {0} and {1} of type 0, {0 1} of type 1; the only
 * cover is {0 1}, bb also reports {2}. Pinning type 0 hides it, as the
 * root then branches on type 0's rows alone; so does a single-copy type
 * with fewer rows than any cell, as the root then branches on that type.
 * The random test below keeps such rows smaller than the board. */
static void test_bb_zero_count_fills_board(void **state)
{
	(void)state;
	struct inst in = {.ncells = 2, .ntypes = 2, .counts = {2, 0}};
	identity_rank(&in);
	add(&in, 1, 0);
	add(&in, 2, 0);
	add(&in, 3, 1);
	struct covers want = {0};
	assert_true(brute(&in, &want));
	assert_int_equal(want.n, 1);
	bool pinned = check_covers(&in, 0, &want, "zero count, type 0 pinned");
	bool unpinned = check_covers(&in, NO_FIRST, &want, "zero count");
	covers_clear(&want);
	assert_true(pinned);
	assert_true(unpinned);
}

/* ---- random differential ---- */

/* 'in' with its rows by type, then mask (ties as they were), to be
 * added by bb_add_rows(); the caller frees it. */
static struct inst *sorted_copy(const struct inst *in)
{
	struct inst *o = malloc(sizeof *o);
	assert_non_null(o);
	*o = *in;
	o->bulk = true;
	for (size_t i = 1; i < o->nrows; i++) /* insertion: stable */
		for (size_t j = i; j > 0 &&
		     (o->type[j - 1] > o->type[j] ||
		      (o->type[j - 1] == o->type[j] &&
		       o->mask[j - 1] > o->mask[j])); j--) {
			uint64_t m = o->mask[j];
			size_t t = o->type[j];
			o->mask[j] = o->mask[j - 1];
			o->type[j] = o->type[j - 1];
			o->mask[j - 1] = m;
			o->type[j - 1] = t;
		}
	return o;
}

/* The nodes of a whole search of 'in' (no first type). */
static uint64_t tree_nodes(const struct inst *in)
{
	struct covers got = {0};
	uint64_t nodes;
	assert_int_equal(run_bb(in, NO_FIRST, 0, &got, &nodes), XC_DONE);
	covers_clear(&got);
	return nodes;
}

static void test_bb_random_differential(void **state)
{
	(void)state;
	uint64_t s = 0x6262u; /* "bb" */
	struct inst *in = malloc(sizeof *in), *half = malloc(sizeof *half);
	assert_non_null(in);
	assert_non_null(half);
	size_t done = 0, skipped = 0, none = 0, one = 0, many = 0, big = 0;
	size_t zero_type = 0, pinned = 0, dense = 0;
	for (int trial = 0; done < 600; trial++) {
		assert_true(trial < 1200);
		/* of ten: six planted on 4..40 cells, one on 41..64, one
		 * not planted, two dense */
		int mode = trial % 10;
		bool is_dense = mode >= 8;
		if (is_dense)
			gen_dense(in, &s);
		else
			gen_planted(in, &s, mode == 6 ? 41 : 4,
			            mode == 6 ? 64 : 40, mode != 7);
		struct covers want = {0};
		if (!brute(in, &want)) {
			skipped++;
			covers_clear(&want);
			continue;
		}
		done++;
		dense += is_dense;
		none += want.n == 0;
		one += want.n == 1;
		many += want.n > 1;
		big += in->ncells > 40;
		zero_type += in->counts[in->ntypes - 1] == 0;
		char what[64];
		snprintf(what, sizeof what, "trial %d", trial);
		expect_covers(in, NO_FIRST, &want, what);
		/* the rows by type and mask, added a type at a time: level 0
		 * as they come (bb.c's start_inorder, when no mask is twice
		 * in a type), the same covers and nodes */
		struct inst *srt = sorted_copy(in);
		struct covers want_srt = {0};
		assert_true(brute(srt, &want_srt));
		snprintf(what, sizeof what, "trial %d, rows in order", trial);
		expect_covers(srt, NO_FIRST, &want_srt, what);
		assert_int_equal(tree_nodes(srt), tree_nodes(in));
		covers_clear(&want_srt);
		free(srt);
		size_t f = rnd(&s, in->ntypes);
		pinned += in->counts[f] > 0;
		snprintf(what, sizeof what, "trial %d, first %zu", trial, f);
		expect_covers(in, f, &want, what);
		if (trial % 4 == 0 && in->nrows > 1) {
			/* rows added after a solve: solve, add, solve again */
			size_t k = 1 + rnd(&s, in->nrows - 1);
			*half = *in;
			half->nrows = k;
			struct covers want_half = {0};
			if (brute(half, &want_half)) {
				size_t pf = trial % 8 == 0 ? f : NO_FIRST;
				bb *b = bb_of(in, k, pf);
				struct covers got = {0};
				uint64_t nodes;
				assert_int_equal(bb_solve(b, 0, collect, &got, &nodes),
				                 XC_DONE);
				if (covers_diff(&want_half, &got) != 0) {
					dump(half, pf);
					fail_msg("trial %d: first %zu rows differ",
					         trial, k);
				}
				covers_clear(&got);
				for (size_t r = k; r < in->nrows; r++)
					assert_int_equal(bb_add_row(b, in->mask[r],
					                            in->type[r]), XC_OK);
				assert_int_equal(bb_solve(b, 0, collect, &got, &nodes),
				                 XC_DONE);
				if (covers_diff(&want, &got) != 0) {
					dump(in, pf);
					fail_msg("trial %d: rows added after a solve",
					         trial);
				}
				covers_clear(&got);
				bb_free(b);
			}
			covers_clear(&want_half);
		}
		covers_clear(&want);
	}
	print_message("random: %zu instances compared (%zu skipped as too "
	              "big), %zu with no cover, %zu with one, %zu with more\n",
	              done, skipped, none, one, many);
	/* the comparison must have had every kind of case to compare */
	assert_true(skipped < 60);
	assert_true(none > 50);
	assert_true(one > 50);
	assert_true(many > 100);
	assert_true(big > 20);
	assert_true(zero_type > 30);
	assert_true(pinned > 200);
	assert_true(dense > 80);
	free(in);
	free(half);
}

/* A poll that gives no more nodes. */
static uint64_t no_more(void *ctx)
{
	(void)ctx;
	return 0;
}

/* One bb emptied by bb_reset() between random instances of one board
 * (types and copies, so the levels of lists, going up and down; a pinned
 * type or none), each left with rows dropped below a root and a poll
 * that stops at once, which the reset must forget: the brute force's
 * covers, and the nodes of a fresh bb. */
static void test_bb_reset(void **state)
{
	(void)state;
	uint64_t s = 0x7265736574u; /* "reset" */
	struct inst *in = malloc(sizeof *in);
	assert_non_null(in);
	unsigned rank[64], one = 1;
	for (unsigned c = 0; c < 64; c++)
		rank[c] = c;
	bb *b = bb_new(24, rank, 1, &one);
	assert_non_null(b);
	size_t done = 0, many = 0, deep = 0;
	for (int trial = 0; done < 150; trial++) {
		assert_true(trial < 600);
		gen_planted(in, &s, 24, 24, trial % 5 != 0);
		identity_rank(in);
		struct covers want = {0};
		if (!brute(in, &want)) {
			covers_clear(&want);
			continue;
		}
		done++;
		size_t f = trial % 3 ? rnd(&s, in->ntypes) : NO_FIRST;
		assert_int_equal(bb_reset(b, in->ntypes, in->counts), XC_OK);
		for (size_t r = 0; r < in->nrows; r++)
			assert_int_equal(bb_add_row(b, in->mask[r], in->type[r]),
			                 XC_OK);
		if (f != NO_FIRST)
			bb_set_first(b, f);
		struct covers got = {0}, fresh = {0};
		uint64_t nodes, fresh_nodes;
		assert_int_equal(bb_solve(b, 0, collect, &got, &nodes), XC_DONE);
		if (covers_diff(&want, &got) != 0) {
			dump(in, f);
			fail_msg("trial %d: a bb reset finds other covers", trial);
		}
		bb *c = bb_of(in, in->nrows, f);
		assert_int_equal(bb_solve(c, 0, collect, &fresh, &fresh_nodes),
		                 XC_DONE);
		bb_free(c);
		assert_int_equal(nodes, fresh_nodes);
		many += want.n > 1;
		unsigned copies = 0;
		for (size_t t = 0; t < in->ntypes; t++)
			copies += in->counts[t];
		deep += copies >= 8;
		covers_clear(&got);
		covers_clear(&fresh);
		covers_clear(&want);
		/* left for the reset to clear */
		size_t drop = in->nrows - 1;
		assert_int_equal(bb_drop_below(b, 0, &drop, 1), XC_OK);
		bb_set_poll(b, no_more, NULL);
	}
	bb_free(b);
	free(in);
	/* instances with several covers, and deep ones after shallow */
	assert_true(many > 30);
	assert_true(deep > 30);
}

/* ---- rows left out below a root row ---- */

static void drop_bb(void *b, size_t root, const size_t *rows, size_t n)
{
	assert_int_equal(bb_drop_below(b, root, rows, n), XC_OK);
}

/* b's search split into tasks, replayed on a clone in order and from the
 * last task back (the root's step replayed anew): the covers 'want'. */
static void expect_tasks(bb *b, struct covers *want, int trial)
{
	struct xc_tasks t = {0};
	enum xc_stop st;
	assert_int_equal(bb_split(b, 12, 0, &t, &st), XC_OK);
	assert_int_equal(st, XC_DONE);
	bb *c = bb_clone(b);
	assert_non_null(c);
	for (int back = 0; back < 2; back++) {
		struct covers got = {0};
		for (size_t k = 0; k < t.n; k++) {
			uint64_t nodes;
			size_t task = back ? t.n - 1 - k : k;
			assert_int_equal(bb_solve_task(c, &t, task, 0, collect, &got,
			                               &nodes), XC_DONE);
		}
		if (covers_diff(want, &got) != 0)
			fail_msg("trial %d: %zu tasks found %zu covers, %zu expected",
			         trial, t.n, got.n, want->n);
		covers_clear(&got);
	}
	bb_free(c);
	xc_tasks_clear(&t);
}

/* bb_drop_below(): a cover goes only when none of its rows is left out
 * below its root row (the first row of the first type in it, as the root
 * places them). Random instances, random sets left out below some of the
 * first type's rows, against the brute force's covers filtered so: on
 * every level of list passes, and split into tasks replayed on a clone,
 * in order and from the last task back (the root's step replayed anew). */
static void test_bb_drop_below(void **state)
{
	(void)state;
	uint64_t s = 0x64726f70u; /* "drop" */
	struct inst *in = malloc(sizeof *in);
	bool *out = malloc((size_t)MAX_ROWS * MAX_ROWS * sizeof *out);
	size_t *buf = malloc(MAX_ROWS * sizeof *buf);
	assert_true(in && out && buf);
	size_t done = 0, cut = 0, kept = 0;
	for (int trial = 0; done < 150; trial++) {
		assert_true(trial < 600);
		if (trial % 3 == 2)
			gen_dense(in, &s);
		else
			gen_planted(in, &s, 4, 40, true);
		size_t f = rnd(&s, in->ntypes);
		struct covers all = {0};
		if (in->counts[f] == 0 || !brute(in, &all) || all.n < 2) {
			covers_clear(&all);
			continue;
		}
		done++;
		bb *b = bb_of(in, in->nrows, f);
		dropref_draw(in->nrows, in->type, f, rnd, &s, out, buf, drop_bb, b);
		struct covers want = {0};
		for (size_t i = 0; i < all.n; i++) {
			const struct cover *c = &all.c[i];
			if (dropref_keeps(c->row, c->len, in->type, f, out,
			                  in->nrows)) {
				size_t rows[64];
				for (size_t j = 0; j < c->len; j++)
					rows[j] = c->row[j];
				covers_add(&want, rows, c->len);
			}
		}
		cut += want.n < all.n;
		kept += want.n > 0;
		for (int v = 0; v < NKERNELS; v++) {
			if (bb_set_kernels(b, (enum bb_kernels)v) != (enum bb_kernels)v)
				continue;
			struct covers got = {0};
			uint64_t nodes;
			assert_int_equal(bb_solve(b, 0, collect, &got, &nodes), XC_DONE);
			if (covers_diff(&want, &got) != 0) {
				dump(in, f);
				fail_msg("trial %d (%s): %zu covers, %zu expected",
				         trial, kernel_name[v], got.n, want.n);
			}
			covers_clear(&got);
		}
		expect_tasks(b, &want, trial);
		bb_free(b);
		covers_clear(&want);
		covers_clear(&all);
	}
	print_message("drops: %zu instances, %zu lost covers to them, %zu "
	              "kept some\n", done, cut, kept);
	assert_true(cut > 50);
	assert_true(kept > 50);
	free(in);
	free(out);
	free(buf);
}

/* ---- the rule against holes ---- */

/* Every placement of the polyomino 'shape' (cells of a board w x h, x
 * fastest), in its eight turns and flips, anywhere on the board, as rows
 * of type t, each mask once. */
static void add_placements(struct inst *in, uint64_t shape, size_t w,
                           size_t h, size_t t)
{
	int c[64][2];
	size_t k = 0;
	for (size_t i = 0; i < 64; i++)
		if (shape >> i & 1) {
			c[k][0] = (int)(i % w);
			c[k++][1] = (int)(i / w);
		}
	size_t from = in->nrows;
	for (int o = 0; o < 8; o++) {
		int p[64][2], pw, ph;
		polyo_orient(c, k, o, p, &pw, &ph);
		for (int dy = 0; dy + ph <= (int)h; dy++)
			for (int dx = 0; dx + pw <= (int)w; dx++) {
				uint64_t m = 0;
				for (size_t i = 0; i < k; i++)
					m |= (uint64_t)1 << ((size_t)(p[i][1] + dy) * w +
					                     (size_t)(p[i][0] + dx));
				bool seen = false;
				for (size_t r = from; r < in->nrows && !seen; r++)
					seen = in->mask[r] == m;
				if (!seen)
					add(in, m, t);
			}
	}
}

/* A board of w x h cells (w, h >= 3; 20 to 30 cells) cut into 3 to 8
 * pieces of 2 to 6 face-connected cells, each a type of one copy with
 * every placement of its shape for rows, the board as bb_set_grid()'s box
 * (the identity fill order). With 'mono', one piece of 3 cells or more
 * gives up a cell at its end to a piece of one cell, with which the rule
 * against holes must stand down. */
static void gen_tiled(struct inst *in, uint64_t *s, bool mono)
{
	for (;;) {
		memset(in, 0, sizeof *in);
		size_t w = 3 + rnd(s, 6), h = 3 + rnd(s, 6), n = w * h;
		if (n < 20 || n > 30)
			continue;
		in->ncells = n;
		uint64_t all = ((uint64_t)1 << n) - 1, filled = 0;
		uint64_t piece[MAX_TYPES];
		size_t np = 0;
		bool ok = true;
		while (filled != all && ok) {
			size_t want = 2 + rnd(s, 5), c = 0;
			while (filled >> c & 1)
				c++;
			uint64_t m = (uint64_t)1 << c;
			while (popcount(m) < want) {
				uint64_t cand = around(m, n, w) & ~m & ~filled;
				if (!cand)
					break;
				m |= (uint64_t)1 << pick(s, cand);
			}
			ok = popcount(m) >= 2 && np < MAX_TYPES - (mono ? 1 : 0);
			if (ok) {
				filled |= m;
				piece[np++] = m;
			}
		}
		if (!ok || np < 3)
			continue;
		if (mono) {
			/* a cell of a piece of 3 or more with one neighbour
			 * in it: the rest stays connected */
			size_t i = 0;
			uint64_t leaf = 0;
			for (; i < np && !leaf; i++)
				if (popcount(piece[i]) >= 3)
					for (uint64_t x = piece[i]; x && !leaf;
					     x &= x - 1) {
						uint64_t b = x & -x;
						if (popcount(around(b, n, w) & piece[i]) == 1)
							leaf = b;
					}
			if (!leaf)
				continue;
			piece[i - 1] &= ~leaf;
			piece[np++] = leaf;
		}
		in->ntypes = np;
		for (size_t t = 0; t < np; t++) {
			in->counts[t] = 1;
			add_placements(in, piece[t], w, h, t);
		}
		shuffle_rows(in, s);
		identity_rank(in);
		in->grid[0] = (unsigned)w;
		in->grid[1] = (unsigned)h;
		in->grid[2] = 1;
		return;
	}
}

/* bb_set_grid()'s rule against holes (bb.h): on boards tiled by
 * polyominoes, the covers are the brute force's, on every level of list
 * passes (check_covers(): the same nodes on each) and split into tasks
 * replayed on a clone, and the rule cuts nodes; with a piece of one cell
 * (a row with a cell that has no neighbour in it) it stands down: the
 * same nodes as without a grid. bb_set_grid() refuses a box that is not
 * the board. */
static void test_bb_holes(void **state)
{
	(void)state;
	uint64_t s = 0x686f6c65u; /* "hole" */
	struct inst *in = malloc(sizeof *in), *plain = malloc(sizeof *plain);
	assert_true(in && plain);
	size_t done = 0, cut = 0, monos = 0;
	uint64_t with = 0, without = 0;
	for (int trial = 0; done < 40; trial++) {
		assert_true(trial < 200);
		bool mono = trial % 4 == 3;
		gen_tiled(in, &s, mono);
		struct covers want = {0};
		if (!brute(in, &want)) {
			covers_clear(&want);
			continue;
		}
		done++;
		size_t first = rnd(&s, 2) ? rnd(&s, in->ntypes) : NO_FIRST;
		expect_covers(in, first, &want, "holes");
		*plain = *in;
		plain->grid[0] = 0;
		struct covers a = {0}, b0 = {0};
		uint64_t n1, n0;
		assert_int_equal(run_bb(in, first, 0, &a, &n1), XC_DONE);
		assert_int_equal(run_bb(plain, first, 0, &b0, &n0), XC_DONE);
		assert_int_equal(covers_diff(&a, &b0), 0);
		if (mono) {
			assert_true(n1 == n0);
			monos++;
		} else {
			with += n1;
			without += n0;
			cut += n1 < n0;
		}
		covers_clear(&a);
		covers_clear(&b0);
		bb *b = bb_of(in, in->nrows, first);
		expect_tasks(b, &want, trial);
		bb_free(b);
		covers_clear(&want);
	}
	print_message("holes: %zu boards, the rule cut nodes on %zu (%llu "
	              "nodes, %llu without it); %zu with a piece of one cell\n",
	              done, cut, (unsigned long long)with,
	              (unsigned long long)without, monos);
	assert_true(cut >= 15);
	assert_true(with < without);
	assert_true(monos >= 5);
	/* a box that is not the board */
	bb *b = bb_of(in, in->nrows, NO_FIRST);
	assert_false(bb_set_grid(b, in->grid[0] + 1, in->grid[1], 1));
	assert_false(bb_set_grid(b, 0, in->grid[1], in->grid[2]));
	bb_free(b);
	free(in);
	free(plain);
}

/* ---- limits ---- */

/* A budget of k nodes stops with XC_NODES after exactly k nodes (the
 * budget ran out) while k is below what the whole search takes, having
 * visited the covers the whole search visits first; a budget of the whole
 * search's nodes or more finishes it. The same bb is solved again each
 * time, so a stopped search must leave it as it was (with 6 copies of the
 * pinned type, the root blanks rows of level 0 and must restore them). */
static void test_bb_node_budget(void **state)
{
	(void)state;
	struct inst in;
	dominoes(&in, 3, 4, 6);
	for (int pinned = 0; pinned < 2; pinned++) {
		bb *b = bb_of(&in, in.nrows, pinned ? 0 : NO_FIRST);
		struct covers all = {0};
		uint64_t total;
		assert_int_equal(bb_solve(b, 0, collect, &all, &total), XC_DONE);
		assert_int_equal(all.n, 11);
		assert_true(total > 11);
		for (uint64_t k = 1; k <= total + 1; k++) {
			struct covers few = {0};
			uint64_t nodes = 0;
			enum xc_stop st = bb_solve(b, k, collect, &few, &nodes);
			assert_true(nodes <= k);
			if (k < total) {
				assert_int_equal(st, XC_NODES);
				assert_int_equal(nodes, k);
				assert_true(few.n <= all.n);
			} else {
				assert_int_equal(st, XC_DONE);
				assert_int_equal(nodes, total);
				assert_int_equal(few.n, all.n);
			}
			assert_true(same_prefix(&all, &few, few.n));
			covers_clear(&few);
		}
		struct covers again = {0};
		uint64_t nodes;
		assert_int_equal(bb_solve(b, 0, collect, &again, &nodes), XC_DONE);
		assert_int_equal(nodes, total);
		assert_true(again.n == all.n && same_prefix(&all, &again, all.n));
		covers_clear(&again);
		covers_clear(&all);
		bb_free(b);
	}
}

/* A poll function handing out a few nodes at a time; then none. */
struct dole {
	uint64_t s, left;
};

static uint64_t dole_out(void *ctx)
{
	struct dole *d = ctx;
	uint64_t k = 1 + rnd(&d->s, 3);
	if (k > d->left)
		k = d->left;
	d->left -= k;
	return k;
}

/* Budgets on every level of list passes: on random instances, each
 * budget from 1 node to the whole search stops every level at the same
 * node as the portable loops (the same stop, nodes, dead ends and covers
 * in order; the matrix phase counts runs of failed branches at once, and
 * must stop inside a run as the loops do). And a poll function doling
 * the nodes out a few at a time gives the whole search. */
static void test_bb_budget_every_node(void **state)
{
	(void)state;
	uint64_t s = 0x627564u; /* "bud" */
	struct inst *in = malloc(sizeof *in);
	assert_non_null(in);
	int done = 0, levels = 0;
	uint64_t budgets = 0;
	for (int trial = 0; done < 40; trial++) {
		assert_true(trial < 2000);
		gen_planted(in, &s, 16, 48, true);
		size_t f = trial % 2 ? rnd(&s, in->ntypes) : NO_FIRST;
		bb *b[NKERNELS];
		bool has[NKERNELS];
		for (int v = 0; v < NKERNELS; v++) {
			b[v] = bb_of(in, in->nrows, f);
			has[v] = bb_set_kernels(b[v], (enum bb_kernels)v) ==
			         (enum bb_kernels)v;
		}
		uint64_t total;
		struct covers all = {0};
		assert_int_equal(bb_solve(b[0], 0, collect, &all, &total), XC_DONE);
		if (total < 50 || total > 1500) {
			covers_clear(&all);
			for (int v = 0; v < NKERNELS; v++)
				bb_free(b[v]);
			continue;
		}
		done++;
		levels = has[1] + has[2] + has[3];
		for (uint64_t k = 1; k <= total; k++) {
			struct covers ref = {0};
			uint64_t n0;
			enum xc_stop st0 = bb_solve(b[0], k, collect, &ref, &n0);
			uint64_t d0 = bb_dead_ends(b[0]);
			for (int v = 1; v < NKERNELS; v++) {
				if (!has[v])
					continue;
				struct covers got = {0};
				uint64_t n;
				enum xc_stop st = bb_solve(b[v], k, collect, &got, &n);
				if (st != st0 || n != n0 || bb_dead_ends(b[v]) != d0 ||
				    got.n != ref.n || !same_prefix(&got, &ref, ref.n))
					fail_msg("trial %d, budget %llu: %s stops %d after "
					         "%llu nodes with %zu covers, portable %d "
					         "after %llu with %zu", trial,
					         (unsigned long long)k, kernel_name[v],
					         (int)st, (unsigned long long)n, got.n,
					         (int)st0, (unsigned long long)n0, ref.n);
				covers_clear(&got);
				budgets++;
			}
			covers_clear(&ref);
		}
		for (int v = 0; v < NKERNELS; v++) {
			if (has[v]) {
				struct dole d = {s + (uint64_t)v, total};
				bb_set_poll(b[v], dole_out, &d);
				struct covers got = {0};
				uint64_t n;
				assert_int_equal(bb_solve(b[v], 1, collect, &got, &n),
				                 XC_DONE);
				assert_int_equal(n, total);
				assert_true(got.n == all.n &&
				            same_prefix(&got, &all, all.n));
				covers_clear(&got);
			}
			bb_free(b[v]);
		}
		covers_clear(&all);
	}
	print_message("budgets: %d instances, %llu budgets compared on %d "
	              "level(s) above the portable one\n", done,
	              (unsigned long long)budgets, levels);
	free(in);
}

/* A visitor returning false stops the search at once, even on the last
 * cover, and leaves the bb as it was. */
static void test_bb_visitor_stop(void **state)
{
	(void)state;
	struct inst in;
	dominoes(&in, 2, 5, 5);
	for (int pinned = 0; pinned < 2; pinned++) {
		bb *b = bb_of(&in, in.nrows, pinned ? 0 : NO_FIRST);
		struct covers all = {0};
		uint64_t total;
		assert_int_equal(bb_solve(b, 0, collect, &all, &total), XC_DONE);
		assert_int_equal(all.n, 8);
		for (size_t k = 1; k <= all.n; k++) {
			struct covers few = {.stop_after = k};
			uint64_t nodes;
			assert_int_equal(bb_solve(b, 0, collect, &few, &nodes),
			                 XC_VISITOR);
			assert_int_equal(few.n, k);
			assert_true(same_prefix(&all, &few, k));
			assert_true(nodes <= total);
			covers_clear(&few);
		}
		struct covers again = {0};
		uint64_t nodes;
		assert_int_equal(bb_solve(b, 0, collect, &again, &nodes), XC_DONE);
		assert_int_equal(nodes, total);
		assert_true(again.n == all.n && same_prefix(&all, &again, all.n));
		covers_clear(&again);
		covers_clear(&all);
		bb_free(b);
	}
}

/* ---- the comparison can fail ---- */

static void copy_covers(struct covers *dst, const struct covers *src)
{
	*dst = (struct covers){0};
	for (size_t i = 0; i < src->n; i++) {
		size_t rows[64];
		for (size_t j = 0; j < src->c[i].len; j++)
			rows[j] = src->c[i].row[j];
		covers_add(dst, rows, src->c[i].len);
	}
	assert_false(dst->bad);
}

/* Lists of thousands of rows, as real puzzles have (the random instances
 * above stay under a few hundred): pieces of 3 to 5 cells filling most of
 * 64, in 8 to 21 types of one or two copies, a few hundred rows each,
 * every row within 14 cells of the fill order (a polycube's reach), the
 * first type pinned or not. Every level of list passes the CPU has must
 * search the same tree as the portable ones: the same nodes, dead ends
 * and covers in the same order, up to a node budget. */
static void test_bb_vector_long_lists(void **state)
{
	(void)state;
	uint64_t s = 0x766563u; /* "vec" */
	uint64_t total = 0, covers = 0;
	int levels = 0;
	for (int trial = 0; trial < 24; trial++) {
		/* pieces of k cells, P of them in T types of one or two
		 * copies (k = 3 gives more than 16 types) */
		size_t k = 3 + rnd(&s, 3), P = 64 / k - rnd(&s, 3), T = 0;
		unsigned counts[32], rank[64];
		for (size_t p = 0; p < P; T++) {
			counts[T] = P - p >= 2 && rnd(&s, 4) == 0 ? 2 : 1;
			p += counts[T];
		}
		size_t ncells = k * P;
		for (size_t c = 0; c < ncells; c++)
			rank[c] = (unsigned)c;
		/* b[v]: the search on level v (bb.h's order) */
		bb *b[NKERNELS];
		bool has[NKERNELS];
		for (int v = 0; v < NKERNELS; v++) {
			b[v] = bb_new(ncells, rank, T, counts);
			assert_non_null(b[v]);
			has[v] = bb_set_kernels(b[v], (enum bb_kernels)v) ==
			         (enum bb_kernels)v;
		}
		assert_true(has[BB_PORTABLE]);
		levels = has[BB_AVX2] + has[BB_AVX512] + has[BB_MATRIX];
		for (size_t t = 0; t < T; t++) {
			size_t n = 100 + rnd(&s, 200);
			for (size_t r = 0; r < n; r++) {
				size_t lo = rnd(&s, ncells - 13);
				uint64_t m = 0;
				while (popcount(m) < k)
					m |= (uint64_t)1 << (lo + rnd(&s, 14));
				for (int v = 0; v < NKERNELS; v++)
					assert_int_equal(bb_add_row(b[v], m, t), XC_OK);
			}
		}
		if (trial % 2)
			for (int v = 0; v < NKERNELS; v++)
				bb_set_first(b[v], 0);
		/* a whole search would take millions of nodes; odd budgets
		 * stop at different depths */
		uint64_t budget = 20000 + rnd(&s, 30000);
		struct covers got[NKERNELS] = {{0}};
		uint64_t nodes[NKERNELS], dead[NKERNELS];
		enum xc_stop st[NKERNELS];
		for (int v = 0; v < NKERNELS; v++) {
			if (has[v]) {
				st[v] = bb_solve(b[v], budget, collect, &got[v],
				                 &nodes[v]);
				dead[v] = bb_dead_ends(b[v]);
			}
			bb_free(b[v]);
		}
		for (int v = 1; v < NKERNELS; v++)
			if (has[v] &&
			    (st[v] != st[0] || nodes[v] != nodes[0] ||
			     dead[v] != dead[0] || got[v].n != got[0].n ||
			     !same_prefix(&got[v], &got[0], got[0].n)))
				fail_msg("trial %d, %s against portable: stop "
				         "%d/%d, nodes %llu/%llu, dead ends "
				         "%llu/%llu, covers %zu/%zu", trial,
				         kernel_name[v], (int)st[v], (int)st[0],
				         (unsigned long long)nodes[v],
				         (unsigned long long)nodes[0],
				         (unsigned long long)dead[v],
				         (unsigned long long)dead[0], got[v].n,
				         got[0].n);
		total += nodes[0];
		covers += got[0].n;
		for (int v = 0; v < NKERNELS; v++)
			covers_clear(&got[v]);
	}
	print_message("long lists: %llu nodes, %llu covers, each searched the "
	              "same on the portable list passes and %d vector "
	              "level(s)\n", (unsigned long long)total,
	              (unsigned long long)covers, levels);
	assert_true(total > 200000); /* deep enough to mean something */
}

static void test_bb_comparison_can_fail(void **state)
{
	(void)state;
	struct inst in;
	dominoes(&in, 2, 4, 4);
	struct covers want = {0}, got = {0}, other = {0};
	uint64_t nodes;
	assert_true(brute(&in, &want));
	assert_int_equal(run_bb(&in, NO_FIRST, 0, &got, &nodes), XC_DONE);
	assert_int_equal(covers_diff(&want, &got), 0);
	/* one cover dropped */
	copy_covers(&other, &want);
	other.n--;
	assert_true(covers_diff(&other, &got) > 0);
	assert_true(covers_diff(&got, &other) > 0);
	covers_clear(&other);
	/* one cover found twice: same count as a set of 5 would need 6 */
	copy_covers(&other, &want);
	other.c[1] = other.c[0];
	assert_true(covers_diff(&other, &got) > 0);
	covers_clear(&other);
	/* one row of one cover changed */
	copy_covers(&other, &want);
	other.c[2].row[0] ^= 1;
	assert_true(covers_diff(&other, &got) > 0);
	covers_clear(&other);
	/* a row of the instance changed: the engines' sets part */
	in.mask[0] = (uint64_t)1 << 0 | (uint64_t)1 << 5; /* a diagonal */
	struct covers mut = {0};
	assert_int_equal(run_bb(&in, NO_FIRST, 0, &mut, &nodes), XC_DONE);
	assert_true(covers_diff(&want, &mut) > 0);
	covers_clear(&mut);
	covers_clear(&want);
	covers_clear(&got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bb_knuth_example),
		cmocka_unit_test(test_bb_dominoes),
		cmocka_unit_test(test_bb_duplicate_rows),
		cmocka_unit_test(test_bb_full_board),
		cmocka_unit_test(test_bb_all_subsets),
		cmocka_unit_test(test_bb_zero_count_fills_board),
		cmocka_unit_test(test_bb_random_differential),
		cmocka_unit_test(test_bb_reset),
		cmocka_unit_test(test_bb_drop_below),
		cmocka_unit_test(test_bb_holes),
		cmocka_unit_test(test_bb_node_budget),
		cmocka_unit_test(test_bb_budget_every_node),
		cmocka_unit_test(test_bb_visitor_stop),
		cmocka_unit_test(test_bb_vector_long_lists),
		cmocka_unit_test(test_bb_comparison_can_fail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
