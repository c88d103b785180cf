/*
 * bbw.c: the wide bitboard engine, for goals of up to 1024 cells.
 *
 * Workload: pentacube boxes (60 to 125 cells), the Y-pentacube cube (125),
 * BurrTools designs of up to 1024 cells (burrs, boxes in frames: 150 to
 * 400, Moira's Cube 729, often with optional cells made required by
 * fillers, solve.c): a few dozen pieces, up to some 10^5 rows, 10^6 to
 * 10^9 nodes.
 *
 * Data layout. A row's cells are W 64-bit words (1 to 16: as many as
 * the goal needs), renumbered by the fill order. Every search level keeps the rows still placeable (no
 * cell filled, copies of the type left) as plain arrays, one per word
 * (structure of arrays, so that the loops over a list run two rows per
 * SSE2 instruction, eight on AVX-512), plus the row numbers, grouped by
 * type. Every hot function takes W as a compile-time constant (node_1 to
 * node_8 below), so a 64-cell goal pays nothing for a second word and a
 * 269-cell one runs five words, not eight; past eight words (node_n) W
 * is counted at run time.
 *
 * At a node (Algorithm X with MRV, as bb.c):
 *   - count the rows covering each empty cell with bit-sliced counters,
 *     first saturating at 4 (cheap: most nodes deep in the tree have a
 *     cell with 1 to 3 rows), and to 32 only when no cell is below 4;
 *   - branch on the empty cell with the fewest rows (ties: the first in
 *     the fill order), or on a single-copy type with fewer still;
 *   - for each branch row: check that every empty cell keeps a row that
 *     goes with it (a pass that stops as soon as that holds; most dead
 *     placements fail it; not on AVX-512, where the next node's check
 *     does it: check_first()); then
 *     that every connected region of empty cells has a volume the pieces
 *     left can make (a flood fill by shifts, below); then copy the rows
 *     that go with it into the next level's list.
 *
 * The passes over a list (filter, the cover check, the count, gathering a
 * cell's rows, the type checks) run on AVX-512 where the CPU has it
 * (bbvec.c, eight rows a step, every word of a row at once; the 70-cell
 * pentacube box in 1.4 s instead of 2.5 on one thread, Bedlam on this
 * engine 4.0 s instead of 7.5), else on AVX2 (bbvec2.c, four rows a
 * step), else on the portable loops here; all give the same lists in the
 * same order, so the same nodes and covers. The
 * vector count goes to 32 at once: the quick count would pick the same
 * cell, so it has no vector form.
 *
 * Regions. The goal's adjacency, in fill-order numbering, is a few
 * "gaps": cell i and i + delta are neighbours for i in a mask src[delta]
 * (a box filled in raster order has three gaps: 1, X and XY). A flood
 * fill step is then a few shifts and masks of the whole board at once.
 * Sound only when every row is connected (every placement of a connected
 * piece is): a region is then covered by rows lying wholly inside it, so
 * its size is a sum of the sizes of some pieces left. The check is off
 * when some row is not connected, or rows of one type differ in size.
 * The same gaps give bb.h's rule against holes (bbvec.h): when each cell
 * of every row has a neighbour in the row, a row that would leave an
 * empty cell without an empty neighbour is dropped from the lists that
 * nodes of more than HOLES_ROWS rows pass on.
 *
 * Every cover is found exactly once, for bb.c's reason: at each node
 * every cover extending the partial one covers the chosen cell (or places
 * the chosen single-copy type) by exactly one of its rows, each of those
 * rows is one branch, and copies of a type share one group counted down
 * by 'rem'. The prunings only cut branches with no cover below.
 *
 * Tried and left out, each measured alone on Bedlam and pentacube boxes
 * (no faster, see docs/figures.md): a transposed phase for short lists
 * (per cell, a bitset of the rows covering it: no list scans, but the
 * transposing costs what it saves); dropping rows that would empty a cell
 * of 1 to 3 rows (30% fewer nodes, twice the time per node); a table of
 * dead states (filled cells and pieces left: 5% fewer nodes, no faster).
 */
#include "solver/bbw_int.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define BB_INLINE static inline __attribute__((always_inline))
/* Two rows at a time with GCC's generic vectors (SSE2 on a plain x86-64
 * build); gcc and clang both have them. */
typedef uint64_t v2 __attribute__((vector_size(16)));
#define BB_VEC 1
#define NOINLINE __attribute__((noinline))
#else
#define BB_INLINE static inline
#define NOINLINE
#endif


bbw *bbw_new(size_t ncells, const unsigned *rank, size_t ntypes,
             const unsigned *counts)
{
	if (ncells == 0 || ncells > BBW_MAX_CELLS)
		return NULL;
	bbw *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->ncells = ncells;
	b->W = (int)((ncells + 63) / 64);
	for (size_t c = 0; c < ncells; c++)
		b->full[c / 64] |= (uint64_t)1 << (c % 64);
	b->ntypes = ntypes;
	b->first = ntypes;
	b->filler = ntypes;
	b->flags = BBW_QUICK_COUNT | BBW_HOLES | BBW_HOLES_MORE | BBW_MATRIX |
	           BBW_WINDOW | BBW_SQUEEZE;
	b->cut = SIZE_MAX;
	bbw_set_vector(b, true);
	size_t nt = ntypes ? ntypes : 1;
	b->rem = malloc(nt * sizeof *b->rem);
	b->count = malloc(nt * sizeof *b->count);
	b->vol = malloc(nt * sizeof *b->vol);
	size_t depth = 1;
	for (size_t t = 0; t < ntypes; t++)
		depth += counts[t];
	b->depth = depth;
	if (depth < SIZE_MAX / sizeof *b->path / MAXW) {
		b->path = malloc(depth * sizeof *b->path);
		b->lbase = calloc(depth + 2, sizeof *b->lbase);
		b->rfill = malloc((size_t)b->W * depth * sizeof *b->rfill);
		b->rany = malloc((size_t)b->W * depth * sizeof *b->rany);
		b->rtype = malloc(depth * sizeof *b->rtype);
	}
	if (depth < SIZE_MAX / sizeof *b->goff / 2 / (ntypes + 1))
		b->goff = malloc((depth + 1) * (ntypes + 1) * sizeof *b->goff);
	if (!b->rem || !b->count || !b->vol || !b->path || !b->lbase ||
	    !b->goff || !b->rfill || !b->rany || !b->rtype) {
		bbw_free(b);
		return NULL;
	}
	memcpy(b->rem, counts, ntypes * sizeof *counts);
	memcpy(b->count, counts, ntypes * sizeof *counts);
	b->ranked = true;
	for (size_t c = 0; c < ncells; c++) {
		b->rank[c] = rank[c];
		b->ranked &= rank[c] == c;
	}
	return b;
}

void bbw_free(bbw *b)
{
	if (!b)
		return;
	free(b->rem);
	free(b->count);
	free(b->vol);
	free(b->slack);
	free(b->need);
	if (!b->shared_rows) {
		free(b->rows);
		free(b->rowm);
	}
	for (int w = 0; w < MAXW; w++)
		free(b->lm[w]);
	free(b->li);
	free(b->goff);
	free(b->path);
	free(b->lbase);
	free(b->rfill);
	free(b->rany);
	free(b->rtype);
	drops_clear(&b->drops);
	free(b);
}

static void drop_replay(bbw *b);

/* The rows, edges, flags or first type change: forget the replayed path
 * and level 0. */
static void invalidate(bbw *b)
{
	drop_replay(b);
	b->level0 = false;
}

/* Entries a level's list has past its rows: the vector filters' last
 * block (bbvec.h: up to 8 past the rows they read) and more. */
#define LIST_SPARE 40

/* Where level d + 1's list starts, level d's holding n rows: after
 * them and LIST_SPARE entries, on a 64-byte line, and not 4 KB (512
 * entries) or a few lines more after level d's start, so that the
 * loads of one level and the stores of the next do not alias in the
 * cache (4K aliasing). At most LIST_STEP more than n. */
#define LIST_STEP (LIST_SPARE + 8 + 32)
static inline size_t next_base(size_t base, size_t n)
{
	size_t step = (n + LIST_SPARE + 7) & ~(size_t)7;
	if (step % 512 < 32)
		step += 32;
	return base + step;
}

/* Grow the row table and the search lists to 'cap' rows; nothing changes
 * on failure. */
static int grow(bbw *b, size_t cap)
{
	size_t W = (size_t)b->W;
	/* room for every level of a path: each at most LIST_STEP entries
	 * more than the rows of the level before (next_base()) */
	size_t stride = cap + LIST_STEP;
	if (cap > UINT32_MAX / 2 ||
	    stride > SIZE_MAX / 16 / (b->depth + 1) / (W + 1))
		return XC_ETOOBIG;
	size_t n = (b->depth + 1) * stride;
	struct brow *r = malloc(cap * sizeof *r);
	uint64_t *rm = malloc(W * cap * sizeof *rm);
	uint64_t *m[MAXW] = {0};
	bool ok = r && rm;
	for (size_t w = 0; w < W && ok; w++)
		ok = (m[w] = malloc(n * sizeof *m[w])) != NULL;
	uint32_t *li = ok ? malloc(n * sizeof *li) : NULL;
	if (!li) {
		free(r);
		free(rm);
		for (size_t w = 0; w < W; w++)
			free(m[w]);
		return XC_ENOMEM;
	}
	if (b->nrows) {
		memcpy(r, b->rows, b->nrows * sizeof *r);
		memcpy(rm, b->rowm, W * b->nrows * sizeof *rm);
	}
	if (!b->shared_rows) {
		free(b->rows);
		free(b->rowm);
	}
	b->shared_rows = false;
	for (size_t w = 0; w < W; w++) {
		free(b->lm[w]);
		b->lm[w] = m[w];
	}
	free(b->li);
	b->rows = r;
	b->rowm = rm;
	b->li = li;
	b->cap = cap;
	b->stride = stride;
	return XC_OK;
}

int bbw_reserve(bbw *b, size_t rows)
{
	if (rows <= b->cap && !b->shared_rows)
		return XC_OK;
	/* grow() makes the lists anew: level 0 and a kept replay with
	 * them (as for a row added) */
	invalidate(b);
	return grow(b, rows > b->cap ? rows : b->cap);
}

int bbw_add_row(bbw *b, const uint64_t *cells, size_t type)
{
	invalidate(b);
	if (b->nrows == b->cap || b->shared_rows) {
		/* The search's lists are sized here, so solving cannot fail
		 * for want of memory. A clone's first row of its own: the
		 * original's rows copied first. */
		int rc = grow(b, b->nrows < b->cap ? b->cap
		                 : b->cap ? 2 * b->cap : 256);
		if (rc != XC_OK)
			return rc;
	}
	int W = b->W;
	uint64_t *m = b->rowm + (size_t)W * b->nrows;
	if (b->ranked) {
		/* the cells as they are, less the caller's padding */
		for (int w = 0; w < W; w++) {
			size_t lo = 64 * (size_t)w;
			m[w] = lo + 64 <= b->ncells ? cells[w]
			     : lo >= b->ncells ? 0
			     : cells[w] & (((uint64_t)1 << (b->ncells - lo)) - 1);
		}
		b->rows[b->nrows] = (struct brow){(uint32_t)type, (uint32_t)b->nrows};
		b->nrows++;
		return XC_OK;
	}
	memset(m, 0, (size_t)W * sizeof *m);
	for (int w = 0; w < W; w++)
		for (uint64_t c = cells[w]; c; c &= c - 1) {
			unsigned i = 64 * (unsigned)w + (unsigned)__builtin_ctzll(c);
			if (i >= b->ncells)
				continue; /* no such cell: the caller's padding */
			unsigned r = b->rank[i];
			m[r / 64] |= (uint64_t)1 << (r % 64);
		}
	b->rows[b->nrows] = (struct brow){(uint32_t)type, (uint32_t)b->nrows};
	b->nrows++;
	return XC_OK;
}

void bbw_add_edge(bbw *b, size_t a, size_t c)
{
	invalidate(b);
	unsigned ra = b->rank[a], rc = b->rank[c];
	if (ra == rc)
		return;
	unsigned lo = ra < rc ? ra : rc, delta = ra < rc ? rc - ra : ra - rc;
	size_t k;
	for (k = 0; k < b->ngaps && b->gap[k].delta != delta; k++)
		;
	if (k == b->ngaps) {
		if (k == MAX_GAPS) {
			b->gaps_overflow = true;
			return;
		}
		b->gap[k] = (struct gap){.delta = delta};
		b->ngaps++;
	}
	b->gap[k].src[lo / 64] |= (uint64_t)1 << (lo % 64);
}

int bbw_add_filler(bbw *b, size_t type, size_t cell)
{
	uint64_t m[MAXW] = {0};
	m[cell / 64] = (uint64_t)1 << (cell % 64);
	int rc = bbw_add_row(b, m, type);
	if (rc != XC_OK)
		return rc;
	unsigned r = b->rank[cell];
	b->late[r / 64] |= (uint64_t)1 << (r % 64);
	b->has_late = true;
	b->filler = type;
	return XC_OK;
}

unsigned bbw_range_count(unsigned least, unsigned most, size_t size,
                         size_t ncells)
{
	size_t fit = size ? ncells / size : 0;
	if (least == most || fit >= most)
		return most;
	return fit > least ? (unsigned)fit : least;
}

int bbw_set_least(bbw *b, const unsigned *least)
{
	size_t nt = b->ntypes ? b->ntypes : 1;
	unsigned *slack = malloc(nt * sizeof *slack);
	unsigned *need = malloc(nt * sizeof *need);
	if (!slack || !need) {
		free(slack);
		free(need);
		return XC_ENOMEM;
	}
	bool any = false;
	for (size_t t = 0; t < b->ntypes; t++) {
		assert(least[t] <= b->count[t]);
		slack[t] = b->count[t] - least[t];
		any |= slack[t] != 0;
	}
	invalidate(b);
	free(b->slack);
	free(b->need);
	b->slack = any ? slack : NULL;
	b->need = any ? need : NULL;
	if (!any) {
		free(slack);
		free(need);
	}
	return XC_OK;
}

/* The copies of each type a node must still place: 'rem', less what a
 * range lets a type leave out (bbw_set_least). */
static const unsigned *needed(bbw *b)
{
	if (!b->slack)
		return b->rem;
	for (size_t t = 0; t < b->ntypes; t++)
		b->need[t] = b->rem[t] > b->slack[t] ? b->rem[t] - b->slack[t] : 0;
	return b->need;
}

/* With ranges: whether placing one more row of type t (cells all
 * covered then) leaves every type within its range. */
static bool least_met(const bbw *b, size_t t)
{
	for (size_t k = 0; k < b->ntypes; k++)
		if (b->rem[k] > b->slack[k] + (k == t))
			return false;
	return true;
}

void bbw_set_first(bbw *b, size_t type)
{
	invalidate(b);
	b->first = type;
}

int bbw_drop_below(bbw *b, size_t root, const size_t *drop, size_t n)
{
	invalidate(b);
	return drops_add(&b->drops, b->nrows, root, drop, n);
}

void bbw_set_flags(bbw *b, unsigned flags)
{
	invalidate(b);
	b->flags = flags;
}

enum bb_kernels bbw_set_kernels(bbw *b, enum bb_kernels k)
{
	assert(k == BB_PORTABLE || k == BB_AVX2 || k == BB_AVX512 ||
	       k == BB_MATRIX);
	if (k == BB_MATRIX)
		k = BB_AVX512; /* the matrix phase: BBW_MATRIX and the CPU */
	if (k == BB_AVX512 && !bbvec_usable())
		k = BB_AVX2;
	if (k == BB_AVX2 && !bbvec_avx2_usable())
		k = BB_PORTABLE;
	b->kern = k;
	b->pext = k != BB_PORTABLE && bbvec_pext_usable();
	return k;
}

bool bbw_set_vector(bbw *b, bool on)
{
	return bbw_set_kernels(b, on ? BB_AVX512 : BB_PORTABLE) != BB_PORTABLE;
}

/* ---- board words --------------------------------------------------------- */

/* out = x << s and x >> s on a W-word board, 0 < s < 64 * W (out is not
 * x). */
BB_INLINE void shl(const uint64_t *x, unsigned s, uint64_t *out, int W)
{
	if (W == 1) {
		out[0] = x[0] << s;
		return;
	}
	if (W == 2) {
		if (s >= 64) {
			out[1] = x[0] << (s - 64);
			out[0] = 0;
		} else {
			out[1] = x[1] << s | (s ? x[0] >> (64 - s) : 0);
			out[0] = x[0] << s;
		}
		return;
	}
	int q = (int)(s / 64);
	unsigned r = s % 64;
	for (int w = 0; w < W; w++) {
		uint64_t v = 0;
		if (w >= q) {
			v = x[w - q] << r;
			if (r && w - q >= 1)
				v |= x[w - q - 1] >> (64 - r);
		}
		out[w] = v;
	}
}

BB_INLINE void shr(const uint64_t *x, unsigned s, uint64_t *out, int W)
{
	if (W == 1) {
		out[0] = x[0] >> s;
		return;
	}
	if (W == 2) {
		if (s >= 64) {
			out[0] = x[1] >> (s - 64);
			out[1] = 0;
		} else {
			out[0] = x[0] >> s | (s ? x[1] << (64 - s) : 0);
			out[1] = x[1] >> s;
		}
		return;
	}
	int q = (int)(s / 64);
	unsigned r = s % 64;
	for (int w = 0; w < W; w++) {
		uint64_t v = 0;
		if (w + q < W) {
			v = x[w + q] >> r;
			if (r && w + q + 1 < W)
				v |= x[w + q + 1] << (64 - r);
		}
		out[w] = v;
	}
}

/* The cells of x (W words) joined by the gaps to a cell of x, with x. */
BB_INLINE void grow_by_gaps(const bbw *b, const uint64_t *x, uint64_t *g,
                            int W)
{
	for (int w = 0; w < W; w++)
		g[w] = x[w];
	for (size_t k = 0; k < b->ngaps; k++) {
		const struct gap *p = &b->gap[k];
		uint64_t s[MAXW], y[MAXW];
		for (int w = 0; w < W; w++)
			s[w] = x[w] & p->src[w];
		shl(s, p->delta, y, W);
		for (int w = 0; w < W; w++)
			g[w] |= y[w];
		shr(x, p->delta, y, W);
		for (int w = 0; w < W; w++)
			g[w] |= y[w] & p->src[w];
	}
}

/* ---- the search ---------------------------------------------------------- */

/* The face neighbours of the cells x (two words), by h's gaps. */
static void near2(const struct bb_holes2 *h, const uint64_t *x, uint64_t *n)
{
	n[0] = n[1] = 0;
	for (size_t k = 0; k < h->ngaps; k++) {
		uint64_t y[2], s[2] = {x[0] & h->src[k][0], x[1] & h->src[k][1]};
		shl(s, h->delta[k], y, 2);
		n[0] |= y[0];
		n[1] |= y[1];
		shr(x, h->delta[k], y, 2);
		n[0] |= y[0] & h->src[k][0];
		n[1] |= y[1] & h->src[k][1];
	}
}

/* Whether row m leaves a cell of h->empty with no empty neighbour. */
static bool isolates2(const struct bb_holes2 *h, uint64_t m0, uint64_t m1)
{
	uint64_t e[2] = {h->empty[0] & ~m0, h->empty[1] & ~m1}, n[2];
	near2(h, e, n);
	return ((e[0] & ~n[0]) | (e[1] & ~n[1])) != 0;
}

/* Lists longer than this have the rule against holes applied to what
 * they pass on: on the 70-cell pentacube box, 0.59 s against 0.64 s
 * without the rule; from 128 rows 0.65 s, on every list 0.66 s (28 %
 * fewer nodes, but a two-word filter three times as dear). Where the
 * node's empty cells lie within 64 cells in a row it applies from
 * BBWMX_ROWS rows (hrule), as on the 64-cell board: the window then
 * runs it on one word. */
#define HOLES_ROWS 512
/* ... and from this many rows at a node with more than 64 empty cells,
 * which no window takes to one word on any CPU: the 25 Y-pentacubes
 * 11.7 to 7.6 million nodes, 1.65 to 1.25 s, the 70-cell box the same
 * (from 128 rows 7.3 million nodes but slower, from 256 8.7 million). */
#define HOLES_MANY_ROWS 192

/* Whether the cells x (two words, some) lie within 64 cells in a row. */
static inline bool within64(const uint64_t *x)
{
	unsigned lo = x[0] ? (unsigned)__builtin_ctzll(x[0])
	                   : 64 + (unsigned)__builtin_ctzll(x[1]);
	unsigned hi = x[1] ? 127 - (unsigned)__builtin_clzll(x[1])
	                   : 63 - (unsigned)__builtin_clzll(x[0]);
	return hi - lo < 64;
}

/* Whether a node on two words of 'n' rows whose empty cells are e passes
 * its lists on with the rule against holes (b->holes):
 *   - past HOLES_ROWS rows; but in a goal whose rule goes along to one
 *     word (hrule), not where the empty cells are 64 or fewer and lie
 *     further apart than 64: a squeezed window takes those to one word,
 *     where the rule cannot run (without PEXT the node stays on two
 *     words, without the rule too: the same tree on every CPU). On the
 *     2 x 5 x 7 slabs 239,146 nodes against 226,732, 0.041 s against
 *     0.046 (AMD Zen 4, AVX-512); the 70-cell box 2.79 against 2.62
 *     million nodes in the same time;
 *   - past HOLES_MANY_ROWS with more than 64 empty cells;
 *   - past BBWMX_ROWS with the empty cells within 64 in a row (hrule).
 * In a squeezed subtree (64 empty cells or fewer; lists of at most 512
 * rows in a goal without hrule, as where it was squeezed) only the last
 * can hold, and reshift() shifts such a node again for it. */
static inline bool rule_below(const bbw *b, uint32_t n, const uint64_t *e)
{
	if (!b->holes)
		return false;
	bool many = __builtin_popcountll(e[0]) + __builtin_popcountll(e[1]) > 64;
	if (n > HOLES_ROWS && (many || !b->hrule))
		return true;
	if (b->hmore && n > HOLES_MANY_ROWS && many)
		return true;
	return b->hrule && n > BBWMX_ROWS && within64(e);
}

/* Filter level d's list by the placed row 'rm' (its type already counted
 * down; 'empty' the cells left) into level d + 1; 'any' gets the union of
 * the rows kept. Below a node that passes on the rule against holes
 * (rule_below(); on one word in a shifted window, 'wholes') the rule
 * applies when it does at all: the same tree with the window or
 * without, squeezed or not. */
BB_INLINE void filter(bbw *b, size_t d, const uint64_t *rm,
                      const uint64_t *empty, uint64_t *any, int W)
{
	size_t T = b->ntypes;
	const uint32_t *restrict g = b->goff + d * (T + 1);
	size_t at = b->lbase[d], to = next_base(at, g[T]);
	b->lbase[d + 1] = to;
	struct bb_holes2 *h = NULL;
	if (W == 2 && b->holes &&
	    rule_below(b, g[T],
	               (const uint64_t[2]){empty[0] | rm[0], empty[1] | rm[1]})) {
		h = &b->hv;
		h->empty[0] = empty[0];
		h->empty[1] = empty[1];
	}
	struct bb_holes hw, *h1 = NULL;
	if (W == 1 && b->wholes && g[T] > BBWMX_ROWS) {
		hw = b->wh;
		hw.empty = empty[0];
		h1 = &hw;
	}
	uint32_t *restrict og = b->goff + (d + 1) * (T + 1);
	const uint64_t *p[MAXW];
	uint64_t *o[MAXW];
	for (int w = 0; w < W; w++) {
		p[w] = b->lm[w] + at;
		o[w] = b->lm[w] + to;
	}
	const uint32_t *restrict pi = b->li + at;
	uint32_t *restrict oi = b->li + to;
	const unsigned *restrict rem = b->rem;
	if (b->kern == BB_AVX512) {
		if (W == 1)
			any[0] = bbvec_filter(p[0], pi, g, rem, T, rm[0], h1, o[0],
			                      oi, og);
		else if (W == 2)
			bbvec_filter2(p[0], p[1], pi, g, rem, T, rm, h, o[0], o[1],
			              oi, og, any);
		else
			bbvec_filterw(p, pi, g, rem, T, rm, o, oi, og, any, W);
		return;
	}
	if (b->kern == BB_AVX2) {
		if (W == 1)
			any[0] = bbvec_avx2_filter(p[0], pi, g, rem, T, rm[0], h1,
			                           o[0], oi, og);
		else
			bbvec_avx2_filterw(p, pi, g, rem, T, rm, h, o, oi, og, any,
			                   W);
		return;
	}
	uint64_t a[MAXW] = {0}, r[MAXW];
	for (int w = 0; w < W; w++)
		r[w] = rm[w]; /* not reloaded after each store */
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		uint32_t end = g[t + 1];
		for (uint32_t i = g[t]; i < end; i++) {
			/* each word loaded once: the lists may alias as far as
			 * the compiler knows */
			uint64_t m[MAXW], clash = 0;
			for (int w = 0; w < W; w++) {
				m[w] = p[w][i];
				clash |= m[w] & r[w];
			}
			/* no branch on the rule's outcome: it is random */
			uint64_t keep = (clash == 0) &
			                (uint64_t)!(h && isolates2(h, m[0], m[1])) &
			                (uint64_t)!(h1 && bb_isolates(h1, m[0]));
			for (int w = 0; w < W; w++) {
				o[w][k] = m[w];
				a[w] |= m[w] & -keep;
			}
			oi[k] = pi[i];
			k += (uint32_t)keep;
		}
	}
	og[T] = k;
	for (int w = 0; w < W; w++)
		any[w] = a[w];
}

/* Level 1's list without the rows left out below the root row 'root'
 * (bbw_drop_below); 'any' becomes the union of the rows kept. */
static void drop_below(bbw *b, size_t root, uint64_t *any)
{
	const uint64_t *bits = drops_of(&b->drops, root);
	if (!bits)
		return;
	size_t T = b->ntypes, s = b->lbase[1];
	int W = b->W;
	uint32_t *g = b->goff + (T + 1);
	uint64_t *m[MAXW];
	for (int w = 0; w < W; w++) {
		m[w] = b->lm[w] + s;
		any[w] = 0;
	}
	uint32_t *li = b->li + s;
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		uint32_t i = g[t], end = g[t + 1];
		g[t] = k;
		for (; i < end; i++) {
			if (li[i] < 64 * b->drops.words && drops_has(bits, li[i]))
				continue;
			for (int w = 0; w < W; w++) {
				m[w][k] = m[w][i];
				any[w] |= m[w][k];
			}
			li[k++] = li[i];
		}
	}
	g[T] = k;
}

/* Whether the W-word masks a and e are equal. */
BB_INLINE bool same(const uint64_t *a, const uint64_t *e, int W)
{
	uint64_t x = 0;
	for (int w = 0; w < W; w++)
		x |= a[w] ^ e[w];
	return x == 0;
}

/* Whether some row of the list [i, end) that does not clash with 'rm'
 * covers each cell of 'empty' not in 'a' (which collects the rows'
 * union); stops as soon as it does. */
static NOINLINE bool cover_range(const bbw *b, size_t d, uint32_t i,
                                 uint32_t end, const uint64_t *rm,
                                 const uint64_t *empty, uint64_t *a, int W)
{
	const uint64_t *p[MAXW];
	for (int w = 0; w < W; w++)
		p[w] = b->lm[w] + b->lbase[d];
#ifdef BB_VEC
	v2 z = {0, 0}, rv[MAXW], u[MAXW];
	for (int w = 0; w < W; w++) {
		rv[w] = (v2){rm[w], rm[w]};
		u[w] = z;
	}
	while (end - i >= 16) {
		for (int j = 0; j < 8; j++, i += 2) {
			v2 m[MAXW], x = z;
			for (int w = 0; w < W; w++) {
				memcpy(&m[w], p[w] + i, sizeof m[w]);
				x |= m[w] & rv[w];
			}
			/* all ones when x == 0: no 64-bit compare in SSE2 */
			v2 ok = ((x | -x) >> 63) - 1;
			for (int w = 0; w < W; w++)
				u[w] |= m[w] & ok;
		}
		uint64_t diff = 0;
		for (int w = 0; w < W; w++)
			diff |= (a[w] | u[w][0] | u[w][1]) ^ empty[w];
		if (!diff) {
			for (int w = 0; w < W; w++)
				a[w] = empty[w];
			return true;
		}
	}
	for (int w = 0; w < W; w++)
		a[w] |= u[w][0] | u[w][1];
#endif
	for (; i < end; i++) {
		uint64_t x = 0;
		for (int w = 0; w < W; w++)
			x |= p[w][i] & rm[w];
		uint64_t ok = x == 0;
		for (int w = 0; w < W; w++)
			a[w] |= p[w][i] & -ok;
	}
	return same(a, empty, W);
}

/* cover_range() or its vector kernel. */
BB_INLINE bool cover_any(const bbw *b, size_t d, uint32_t i, uint32_t end,
                         const uint64_t *rm, const uint64_t *empty,
                         uint64_t *a, int W)
{
	if (b->kern == BB_PORTABLE)
		return cover_range(b, d, i, end, rm, empty, a, W);
	const uint64_t *p[MAXW];
	for (int w = 0; w < W; w++)
		p[w] = b->lm[w] + b->lbase[d];
	if (b->kern == BB_AVX2)
		return W == 1 ? bbvec_avx2_cover(p[0], i, end, rm[0], empty[0], a)
		              : bbvec_avx2_coverw(p, i, end, rm, empty, a, W);
	if (W == 1)
		return bbvec_cover(p[0], i, end, rm[0], empty[0], a);
	if (W == 2)
		return bbvec_cover2(p[0], p[1], i, end, rm, empty, a);
	return bbvec_coverw(p, i, end, rm, empty, a, W);
}

/* Whether, once the row 'rm' of type 'rt' is placed (and counted down),
 * every cell of 'empty' is still covered by some row of level d's list
 * that could go with it: a cheaper test than filter(), that most dead
 * placements fail, and that stops as soon as it holds. Rows of other
 * exhausted types are not in the list (filter() dropped them). */
BB_INLINE bool covered(const bbw *b, size_t d, const uint64_t *rm, size_t rt,
                       const uint64_t *empty, int W)
{
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	/* While fillers are left, an empty optional cell has its filler in
	 * the list, a row over that cell alone that nothing else placed
	 * clashes with: it counts as covered from the start, and the
	 * fillers, which cover nothing else, need no look. Else the pass
	 * would look for those cells among the fillers, at the list's end,
	 * and could never stop early (Arne's cube: the check was 60 % of
	 * the time, a quarter of its rows fillers). */
	/* (W words only: the array zeroed whole, 128 bytes a placement,
	 * was a twentieth of the 70-cell box's time on AVX2) */
	uint64_t a[MAXW];
	bool seeded = b->has_late && b->rem[b->filler];
	for (int w = 0; w < W; w++)
		a[w] = seeded ? empty[w] & b->late[w] : 0;
	/* the groups left out, in order: rt's once used up, the fillers' */
	size_t skip[2] = {b->rem[rt] ? T : rt, seeded ? b->filler : T};
	if (skip[0] > skip[1]) {
		size_t x = skip[0];
		skip[0] = skip[1];
		skip[1] = x;
	}
	uint32_t lo = 0;
	for (int k = 0; k < 2; k++) {
		if (skip[k] >= T || (k == 1 && skip[1] == skip[0]))
			continue;
		if (cover_any(b, d, lo, g[skip[k]], rm, empty, a, W))
			return true;
		lo = g[skip[k] + 1];
	}
	return cover_any(b, d, lo, g[T], rm, empty, a, W);
}

/* Words of the volumes a set of pieces can make (0 to BBW_MAX_CELLS cells). */
#define REACH_WORDS (BBW_MAX_CELLS / 64 + 1)

/* Whether every connected region of the empty cells 'empty' has a volume
 * that the types left ('rem') can make. */
static NOINLINE bool regions_ok(const bbw *b, const uint64_t *empty, int W)
{
	uint64_t e[MAXW], reach[REACH_WORDS] = {0};
	int nr = W + 1; /* words of 'reach' that matter: volumes to 64 * W */
	for (int w = 0; w < W; w++)
		e[w] = empty[w];
	bool first = true;
	for (;;) {
		/* grow the region of the first empty cell */
		uint64_t f[MAXW] = {0};
		for (int w = 0; w < W; w++)
			if (e[w]) {
				f[w] = e[w] & -e[w];
				break;
			}
		for (;;) {
			uint64_t g[MAXW];
			grow_by_gaps(b, f, g, W);
			uint64_t diff = 0;
			for (int w = 0; w < W; w++) {
				g[w] &= e[w];
				diff |= g[w] ^ f[w];
				f[w] = g[w];
			}
			if (!diff)
				break;
		}
		if (first && same(f, e, W))
			return true; /* one region: the whole volume left */
		if (first) {
			/* sums of the sizes of the pieces left */
			reach[0] = 1;
			for (size_t t = 0; t < b->ntypes; t++)
				for (unsigned k = 0; k < b->rem[t]; k++) {
					unsigned v = b->vol[t];
					int q = (int)(v / 64);
					unsigned s = v % 64;
					for (int j = nr - 1; j >= q; j--) {
						uint64_t x = reach[j - q] << s;
						if (s && j - q >= 1)
							x |= reach[j - q - 1] >> (64 - s);
						reach[j] |= x;
					}
				}
			first = false;
		}
		unsigned n = 0;
		uint64_t left = 0;
		for (int w = 0; w < W; w++) {
			n += (unsigned)__builtin_popcountll(f[w]);
			e[w] &= ~f[w];
			left |= e[w];
		}
		if (!(reach[n / 64] >> (n % 64) & 1))
			return false;
		if (!left)
			return true;
	}
}

/* Cell counters of a list, per word: bit c of c[0..4] is bit 0..4 of the
 * number of rows covering cell c; 'sat' set when it reached 2^nbits. */
struct cnt {
	uint64_t c[5], sat;
};

/* Add the rows x (one bit per cell) to bit-sliced counters of 5 bits
 * (or 2, for the quick count). */
#define CNT_ADD5(T, c, sat, x) do {                                    \
		T k_ = (c)[0] & (x);                                    \
		(c)[0] ^= (x);                                          \
		T l_ = (c)[1] & k_;                                     \
		(c)[1] ^= k_;                                           \
		k_ = (c)[2] & l_;                                       \
		(c)[2] ^= l_;                                           \
		l_ = (c)[3] & k_;                                       \
		(c)[3] ^= k_;                                           \
		(sat) |= (c)[4] & l_;                                   \
		(c)[4] ^= l_;                                           \
	} while (0)
#define CNT_ADD2(T, c, sat, x) do {                                    \
		T k_ = (c)[0] & (x);                                    \
		(c)[0] ^= (x);                                          \
		(sat) |= (c)[1] & k_;                                   \
		(c)[1] ^= k_;                                           \
	} while (0)

/* a + b over 'nbits' bit slices, saturating at 2^nbits. */
static struct cnt cnt_sum(struct cnt a, struct cnt b, int nbits)
{
	struct cnt r = {{0, 0, 0, 0, 0}, a.sat | b.sat};
	uint64_t carry = 0;
	for (int j = 0; j < nbits; j++) {
		uint64_t h = a.c[j] ^ b.c[j];
		r.c[j] = h ^ carry;
		carry = (a.c[j] & b.c[j]) | (carry & h);
	}
	r.sat |= carry;
	return r;
}

/* Count the 'n' rows of one word's list 'lm' to 2^nbits (5 or 2). */
BB_INLINE struct cnt count(const uint64_t *restrict lm, uint32_t n, int nbits)
{
	struct cnt r = {{0, 0, 0, 0, 0}, 0}, s = r;
	uint32_t i = 0;
#ifdef BB_VEC
	if (n >= 8) {
		/* two lanes, each its own counters */
		v2 z = {0, 0};
		v2 c[5] = {z, z, z, z, z}, sat = z;
		for (; n - i >= 2; i += 2) {
			v2 m;
			memcpy(&m, lm + i, sizeof m);
			if (nbits == 5)
				CNT_ADD5(v2, c, sat, m);
			else
				CNT_ADD2(v2, c, sat, m);
		}
		struct cnt l0 = {{c[0][0], c[1][0], c[2][0], c[3][0], c[4][0]}, sat[0]};
		struct cnt l1 = {{c[0][1], c[1][1], c[2][1], c[3][1], c[4][1]}, sat[1]};
		r = cnt_sum(l0, l1, nbits);
	}
#endif
	for (; i < n; i++) {
		uint64_t x = lm[i];
		if (nbits == 5)
			CNT_ADD5(uint64_t, s.c, s.sat, x);
		else
			CNT_ADD2(uint64_t, s.c, s.sat, x);
	}
	return cnt_sum(r, s, nbits);
}

/* The cells of word 'w' whose counter, of 'nbits' slices, is exactly v
 * (and not saturated), among 'ns'. */
static uint64_t count_is(const struct cnt *cn, uint64_t ns, unsigned v,
                         int nbits)
{
	uint64_t m = ns & ~cn->sat;
	for (int j = 0; j < nbits; j++)
		m &= v >> j & 1 ? cn->c[j] : ~cn->c[j];
	return m;
}

/* least()'s last resort, when every empty cell has 32 rows or more (near
 * the root, or pieces of many cells): count exactly, as dancing links
 * would, or the top of the tree branches on the first cell whatever its
 * count (a 120-cell puzzle took 150 times the nodes). Ripple-carry
 * counters: a row's carry dies after two slices on average. */
static unsigned NOINLINE least_exact(const bbw *b, size_t d, uint32_t n,
                                     const uint64_t *empty, unsigned *cell,
                                     int W)
{
	uint64_t c[MAXW][24];
	memset(c, 0, sizeof c);
	for (int w = 0; w < W; w++) {
		const uint64_t *lm = b->lm[w] + b->lbase[d];
		for (uint32_t i = 0; i < n; i++)
			for (uint64_t k = lm[i], j = 0; k && j < 24; j++) {
				uint64_t t = c[w][j] & k;
				c[w][j] ^= k;
				k = t;
			}
	}
	unsigned best = UINT32_MAX;
	for (int w = 0; w < W; w++)
		for (uint64_t x = empty[w]; x; x &= x - 1) {
			unsigned bit = (unsigned)__builtin_ctzll(x), v = 0;
			for (int j = 0; j < 24; j++)
				v |= (unsigned)(c[w][j] >> bit & 1) << j;
			if (v < best) {
				best = v;
				*cell = 64 * (unsigned)w + bit;
			}
		}
	return best;
}

/* least() on the vector levels: each word's list counted to 32
 * (bbvec_count or bbvec_avx2_count), the
 * fewest found slice by slice over every word at once (keep the cells
 * with a 0 in slice j, from the top, if there are any), as bb.c does. No
 * quick count: a cell below 4 is found as such among the counts to 32, so
 * the answer is the same, and the kernel counts to 32 for less than the
 * portable loop pays to count to 4. */
BB_INLINE unsigned least_vec(const bbw *b, size_t d, uint32_t n,
                             const uint64_t *empty, unsigned *cell, int W)
{
	uint64_t c[MAXW][6], cand[MAXW] = {0}, any = 0;
	for (int w = 0; w < W; w++) {
		if (b->kern == BB_AVX512)
			bbvec_count(b->lm[w] + b->lbase[d], n, c[w]);
		else
			bbvec_avx2_count(b->lm[w] + b->lbase[d], n, c[w]);
		cand[w] = empty[w] & ~c[w][5];
		any |= cand[w];
	}
	if (!any)
		return least_exact(b, d, n, empty, cell, W);
	for (int j = 4; j >= 0; j--) {
		uint64_t x[MAXW], some = 0;
		for (int w = 0; w < W; w++) {
			x[w] = cand[w] & ~c[w][j];
			some |= x[w];
		}
		if (some)
			for (int w = 0; w < W; w++)
				cand[w] = x[w];
	}
	int w = 0;
	while (w < W - 1 && !cand[w])
		w++;
	unsigned bit = (unsigned)__builtin_ctzll(cand[w]), v = 0;
	for (int j = 0; j < 5; j++)
		v |= (unsigned)(c[w][j] >> bit & 1) << j;
	*cell = 64 * (unsigned)w + bit;
	return v;
}

/* The empty cell with the fewest rows in level d's list (ties: the first
 * in the fill order): '*cell' its fill-order number, the count returned.
 * Empty cells all have a row (node() checked). */
BB_INLINE unsigned least_w(const bbw *b, size_t d, const uint64_t *empty,
                           unsigned *cell, int W)
{
	uint32_t n = b->goff[d * (b->ntypes + 1) + b->ntypes];
	if (b->kern != BB_PORTABLE)
		return least_vec(b, d, n, empty, cell, W);
	struct cnt cn[MAXW];
	int nbits = 5;
	if (b->flags & BBW_QUICK_COUNT) {
		for (int w = 0; w < W; w++)
			cn[w] = count(b->lm[w] + b->lbase[d], n, 2);
		for (unsigned v = 1; v < 4; v++)
			for (int w = 0; w < W; w++) {
				uint64_t m = count_is(&cn[w], empty[w], v, 2);
				if (m) {
					*cell = 64 * (unsigned)w +
					        (unsigned)__builtin_ctzll(m);
					return v;
				}
			}
	}
	for (int w = 0; w < W; w++)
		cn[w] = count(b->lm[w] + b->lbase[d], n, nbits);
	for (unsigned v = 1; v < 32; v++)
		for (int w = 0; w < W; w++) {
			uint64_t m = count_is(&cn[w], empty[w], v, nbits);
			if (m) {
				*cell = 64 * (unsigned)w + (unsigned)__builtin_ctzll(m);
				return v;
			}
		}
	return least_exact(b, d, n, empty, cell, W);
}

/* least_w() out of line, one function a width as node_1 .. node_8 (and
 * one for the rest), as are the portable cover check and the regions
 * pruning: their arrays of BBW_MAX_WORDS words would otherwise sit in
 * the frame of every level of the recursion, whose depth is the pieces
 * in a cover (a 1024-cell goal of dominoes: 512 levels). */
#define LEAST_OF(n)                                                      \
	static NOINLINE unsigned least_##n(const bbw *b, size_t d,       \
	                                   const uint64_t *empty,        \
	                                   unsigned *cell)               \
	{                                                                \
		return least_w(b, d, empty, cell, n);                    \
	}
LEAST_OF(1)
LEAST_OF(2)
LEAST_OF(3)
LEAST_OF(4)
LEAST_OF(5)
LEAST_OF(6)
LEAST_OF(7)
LEAST_OF(8)

static NOINLINE unsigned least_n(const bbw *b, size_t d,
                                 const uint64_t *empty, unsigned *cell,
                                 int W)
{
	return least_w(b, d, empty, cell, W);
}

BB_INLINE unsigned least(const bbw *b, size_t d, const uint64_t *empty,
                         unsigned *cell, int W)
{
	switch (W) {
	case 1: return least_1(b, d, empty, cell);
	case 2: return least_2(b, d, empty, cell);
	case 3: return least_3(b, d, empty, cell);
	case 4: return least_4(b, d, empty, cell);
	case 5: return least_5(b, d, empty, cell);
	case 6: return least_6(b, d, empty, cell);
	case 7: return least_7(b, d, empty, cell);
	case 8: return least_8(b, d, empty, cell);
	default: return least_n(b, d, empty, cell, W);
	}
}

static void node_1(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_2(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_3(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_4(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_5(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_6(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_7(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_8(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any);
static void node_n(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any, int W);

/* node() at level d on W words (a constant where it is inlined, so the
 * switch goes). */
BB_INLINE void node_w(bbw *b, size_t d, const uint64_t *filled,
                      const uint64_t *any, int W)
{
	switch (W) {
	case 1: node_1(b, d, filled, any); break;
	case 2: node_2(b, d, filled, any); break;
	case 3: node_3(b, d, filled, any); break;
	case 4: node_4(b, d, filled, any); break;
	case 5: node_5(b, d, filled, any); break;
	case 6: node_6(b, d, filled, any); break;
	case 7: node_7(b, d, filled, any); break;
	case 8: node_8(b, d, filled, any); break;
	default: node_n(b, d, filled, any, W); break;
	}
}

/* Splitting: the rows placed so far, path[0..len-1], are a task. */
static void record(bbw *b, size_t len)
{
	if (xc_tasks_add(b->tasks, b->path, len)) {
		b->cut_hits += len == b->cut;
		return;
	}
	b->split_oom = true;
	b->stop = XC_VISITOR;
}

bool NOINLINE bbw_spent(bbw *b)
{
	if (b->poll) {
		uint64_t more = b->poll(b->pctx);
		if (more) {
			b->limit += more;
			return false;
		}
	}
	b->stop = XC_NODES;
	return true;
}

/* Whether place() runs covered() before filter(): as bb.c's
 * check_first(), the same tree either way; not on AVX-512 (the 70-cell
 * pentacube box 0.236 -> 0.228 s, the 2x5x7 slabs 0.027 -> 0.025 s, the
 * 25 Y-pentacubes within 1 %; one core, AMD Zen 5), nor while
 * splitting. */
static inline bool check_first(const bbw *b)
{
	return b->kern != BB_AVX512 || b->cut != SIZE_MAX;
}

/* Place level d's i-th row (of type t) and search below it. */
BB_INLINE void place(bbw *b, size_t d, const uint64_t *filled, uint32_t i,
                     size_t t, int W)
{
	/* Below the root a used-up type's rows are filtered out; at the root
	 * a type given count 0 still has its rows. */
	if (!b->rem[t])
		return;
	/* a filler is no node: it takes none of the budget */
	if (t != b->filler && b->nodes >= b->limit && bbw_spent(b))
		return;
	b->nodes += t != b->filler;
	size_t at = b->lbase[d] + i;
	uint64_t m[MAXW], nf[MAXW], empty[MAXW], left = 0;
	for (int w = 0; w < W; w++) {
		m[w] = b->lm[w][at];
		nf[w] = filled[w] | m[w];
		empty[w] = b->full[w] & ~nf[w];
		left |= empty[w];
	}
	b->path[d] = b->li[at];
	if (!left) {
		if (b->slack && !least_met(b, t)) {
			b->dead += t != b->filler; /* every cell, a type short */
			return;
		}
		if (b->cut != SIZE_MAX) {
			record(b, d + 1);
			return;
		}
		b->covers++;
		if (!b->visit(b->ctx, b->path, d + 1))
			b->stop = XC_VISITOR;
		return;
	}
	uint64_t before = b->covers;
	b->rem[t]--;
	if ((!check_first(b) || covered(b, d, m, t, empty, W)) &&
	    (!b->regions || regions_ok(b, empty, W))) {
		uint64_t any[MAXW];
		filter(b, d, m, empty, any, W);
		if (d == 0 && b->drops.n)
			drop_below(b, b->li[at], any);
		node_w(b, d + 1, nf, any, W);
	}
	b->rem[t]++;
	b->dead += b->covers == before && t != b->filler;
}

/* Whether level d's node is the end of a cover where only fillers are
 * left (bbw_add_filler): one type with copies left, as many rows in the
 * list as copies, disjoint and filling the empty cells. The search would
 * place them one by one, one branch each (every cell has one row); they
 * are placed here at once, with the same nodes, cover and dead ends, but
 * no list passes (3D Onat: 2.3 M placements of its 4.4 M; splitting, the
 * search would otherwise walk down the chain a level a pass). Not where
 * the node budget would end among them. */
BB_INLINE bool last_type(bbw *b, size_t d, const uint64_t *empty, int W)
{
	size_t T = b->ntypes, t = T;
	if (b->slack) /* (no fillers with ranges: not met) */
		return false;
	for (size_t k = 0; k < T; k++)
		if (b->rem[k]) {
			if (t < T)
				return false;
			t = k;
		}
	const uint32_t *g = b->goff + d * (T + 1);
	uint32_t n = t < T ? g[t + 1] - g[t] : 0;
	if (t == T || n != b->rem[t] || !b->vol[t] ||
	    (t != b->filler && b->limit - b->nodes < n))
		return false;
	/* n rows of vol[t] cells each that cover the empty cells, as many
	 * as there are: disjoint. The fillers are distinct single cells
	 * (bbw_add_filler), all empty (the list holds no row over a filled
	 * cell): disjoint, and covering when there are as many. */
	size_t at = b->lbase[d] + g[t];
	unsigned want = 0;
	for (int w = 0; w < W; w++)
		want += (unsigned)__builtin_popcountll(empty[w]);
	if ((uint64_t)n * b->vol[t] != want)
		return false;
	if (t != b->filler || b->vol[t] != 1) {
		uint64_t u[MAXW] = {0};
		for (int w = 0; w < W; w++)
			for (uint32_t i = 0; i < n; i++)
				u[w] |= b->lm[w][at + i];
		if (!same(u, empty, W))
			return false;
	}
	for (uint32_t i = 0; i < n; i++)
		b->path[d + i] = b->li[at + i];
	b->nodes += t != b->filler ? n : 0;
	if (b->cut != SIZE_MAX) {
		/* splitting: the cover is a task, as place() makes one of a
		 * cover above the cut (replayed, it is counted there) */
		record(b, d + n);
		return true;
	}
	b->covers++;
	if (!b->visit(b->ctx, b->path, d + n))
		b->stop = XC_VISITOR;
	return true;
}

static void window(bbw *b, size_t d, const uint64_t *filled,
                   const uint64_t *any, const uint64_t *empty, unsigned off,
                   int W, int W2);
static void reshift(bbw *b, size_t d, const uint64_t *filled,
                    const uint64_t *any, const uint64_t *cells);

/* Branch at level d: the list holds the placeable rows, 'any' is their
 * union. */
BB_INLINE void node(bbw *b, size_t d, const uint64_t *filled,
                    const uint64_t *any, int W)
{
	if (b->cut == d) {
		record(b, d);
		return;
	}
	uint64_t empty[MAXW], bare = 0;
	for (int w = 0; w < W; w++) {
		empty[w] = b->full[w] & ~filled[w];
		bare |= empty[w] & ~any[w];
	}
	if (bare)
		return;
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	/* The window: not where the list passes on the rule against holes
	 * on two words (past HOLES_ROWS rows), unless the window takes the
	 * rule along (hrule: a shift to one word); and not at the root
	 * (drop_below(), replays). */
	if (W > 1 && b->window && d > 0) {
		int w = 0;
		while (w < W - 1 && !empty[w])
			w++;
		unsigned lo = 64 * (unsigned)w + (unsigned)__builtin_ctzll(empty[w]);
		for (w = W - 1; !empty[w]; w--)
			;
		unsigned hi = 64 * (unsigned)w + 63 -
		              (unsigned)__builtin_clzll(empty[w]);
		int W2 = (int)((hi - lo) / 64 + 1);
		if (W2 < W && ((b->hrule && W2 == 1) ||
		               !(b->holes && g[T] > HOLES_ROWS))) {
			window(b, d, filled, any, empty, lo, W, W2);
			return;
		}
		/* (here the rule goes along only where it does not run) */
		if (b->squeeze && !rule_below(b, g[T], empty)) {
			unsigned ne = 0;
			for (w = 0; w < W; w++)
				ne += (unsigned)__builtin_popcountll(empty[w]);
			W2 = (int)((ne + 63) / 64);
			if (W2 < W) {
				window(b, d, filled, any, empty, UINT_MAX, W, W2);
				return;
			}
		}
	}
	/* A squeezed window's node whose cells lie within 64 in the goal,
	 * under a list the rule applies to (hrule): shifted there instead,
	 * where the rule runs as it would on two words. */
	if (W == 1 && b->squeezed && g[T] > BBWMX_ROWS) {
		uint64_t e2[2];
		bbvec_unsqueeze_cells(empty[0], b->sqcells, e2);
		if (within64(e2)) {
			reshift(b, d, filled, any, e2);
			return;
		}
	}
	if (W <= 2 && b->matrix && !b->slack && d > 0 && g[T] <= BBWMX_ROWS &&
	    T <= BBWMX_TYPES && b->cut == SIZE_MAX) {
		bbwmx_node(b, d, filled);
		return;
	}
	/* the cells to branch on: the empty ones, but late ones only when
	 * no other is left */
	uint64_t early[MAXW], some = 0;
	const uint64_t *branch = empty;
	bool late_only = false;
	if (b->has_late) {
		for (int w = 0; w < W; w++) {
			early[w] = empty[w] & ~b->late[w];
			some |= early[w];
		}
		if (some)
			branch = early;
		late_only = !some;
	}
	if (late_only && last_type(b, d, empty, W))
		return;
	/* Where only late cells are left, a single-copy type goes first
	 * whatever its rows (dancing links branches on pieces there, never on
	 * optional cells: Onega 6.7 M nodes the other way, 0.2 M this way). */
	unsigned cell = 0, best;
	size_t bt = T;
	const unsigned *need = needed(b);
	if (b->kern != BB_PORTABLE) {
		/* the same checks and choice as the loops below */
		unsigned tbest;
		if (b->kern == BB_AVX512 ? !bbvec_types(g, need, b->count, T, &tbest, &bt)
		              : !bbvec_avx2_types(g, need, b->count, T, &tbest,
		                                  &bt))
			return;
		if (late_only && bt < T) {
			best = tbest;
		} else {
			best = least(b, d, branch, &cell, W);
			if (tbest < best)
				best = tbest;
			else
				bt = T;
		}
	} else {
		for (size_t t = 0; t < T; t++)
			if (g[t + 1] - g[t] < need[t])
				return;
		best = UINT32_MAX;
		for (size_t t = 0; t < T; t++) {
			unsigned n = g[t + 1] - g[t];
			if (need[t] && b->count[t] == 1 && n < best) {
				best = n;
				bt = t;
			}
		}
		if (!late_only || bt == T) {
			unsigned tbest = best;
			best = least(b, d, branch, &cell, W);
			if (tbest < best)
				best = tbest;
			else
				bt = T;
		}
	}
	if (bt < T) {
		for (uint32_t i = g[bt]; i < g[bt + 1]; i++) {
			place(b, d, filled, i, bt, W);
			if (b->stop != XC_DONE)
				return;
		}
		return;
	}
	const uint64_t *lm = b->lm[cell / 64] + b->lbase[d];
	unsigned c = cell % 64;
	if (best < 32) {
		/* Gather the rows covering 'cell' first: fewer than 32
		 * (and room for bbvec_gather's last block of 8). */
		uint32_t sel[32 + 8];
		unsigned nsel = 0;
		if (b->kern == BB_AVX512)
			nsel = bbvec_gather(lm, g[T], (uint64_t)1 << c, sel);
		else if (b->kern == BB_AVX2)
			nsel = bbvec_avx2_gather(lm, g[T], (uint64_t)1 << c, sel);
		else
			for (uint32_t i = 0, n = g[T]; i < n; i++) {
				sel[nsel & 31] = i;
				nsel += (unsigned)(lm[i] >> c & 1);
			}
		for (unsigned j = 0, t = 0; j < nsel; j++) {
			while (g[t + 1] <= sel[j])
				t++;
			place(b, d, filled, sel[j], t, W);
			if (b->stop != XC_DONE)
				return;
		}
		return;
	}
	for (size_t t = 0; t < T; t++)
		for (uint32_t i = g[t]; i < g[t + 1]; i++) {
			if (!(lm[i] >> c & 1))
				continue;
			place(b, d, filled, i, t, W);
			if (b->stop != XC_DONE)
				return;
		}
}

#define NODE_OF(n)                                                       \
	static void node_##n(bbw *b, size_t d, const uint64_t *filled,   \
	                     const uint64_t *any)                        \
	{                                                                \
		node(b, d, filled, any, n);                              \
	}
NODE_OF(1)
NODE_OF(2)
NODE_OF(3)
NODE_OF(4)
NODE_OF(5)
NODE_OF(6)
NODE_OF(7)
NODE_OF(8)

/* Past eight words (goals of 513 to BBW_MAX_CELLS cells), one loop with
 * the words counted at run time: such goals are rare, and the window
 * takes their subtrees to fewer words as the goal fills. */
_Static_assert(BBW_MAX_WORDS <= BBVEC_MAX_WORDS,
               "the vector kernels take every word of a row");

static NOINLINE void node_n(bbw *b, size_t d, const uint64_t *filled,
                            const uint64_t *any, int W)
{
	node(b, d, filled, any, W);
}

/* The rule against holes (hrule) in a window of one word shifted down by
 * 'off' from two: the gaps' cells shifted alike (a gap of 64 or more
 * has no pair of cells within the window). */
static void shifted_holes(bbw *b, unsigned off)
{
	struct bb_holes *h = &b->wh;
	*h = (struct bb_holes){0};
	for (int k = 0; k < 3; k++) {
		uint64_t s[2] = {0, 0};
		unsigned dk = 0;
		if ((size_t)k < b->hv.ngaps && b->hv.delta[k] < 64) {
			shr(b->hv.src[k], off, s, 2);
			dk = b->hv.delta[k];
		}
		/* no neighbour along an unused gap: every cell at both ends,
		 * and a step of 0 */
		h->hi[k] = ~s[0];
		h->lo[k] = ~(s[0] << dk);
		h->sh[k] = dk;
	}
}

/* The window: level d's node searched on W2 < W words. Every row in its
 * list lies on empty cells, so the search below sees nothing of the
 * filled ones: renumbering the empty cells 0, 1, ... in their order and
 * the rows with them loses no bit that matters, and the subtree makes
 * the same choices (ties go to the first cell either way), nodes and
 * covers. When the empty cells lie within cells off to off + 64 * W2 - 1
 * everything is shifted down by 'off' (a word or two a row); else (off
 * UINT_MAX) each row is squeezed onto them by PEXT (bbvec_squeeze()).
 * Level d's list is changed where it is (its node is the only reader;
 * the caller filters it anew for its next row); the goal's words are
 * put back after. */
static NOINLINE void window(bbw *b, size_t d, const uint64_t *filled,
                            const uint64_t *any, const uint64_t *empty,
                            unsigned off, int W, int W2)
{
	size_t T = b->ntypes, at = b->lbase[d];
	uint32_t n = b->goff[d * (T + 1) + T];
	uint64_t full[MAXW], late[MAXW], f2[MAXW], a2[MAXW];
	memcpy(full, b->full, sizeof full);
	memcpy(late, b->late, sizeof late);
	if (off != UINT_MAX) {
		unsigned q = off / 64, r = off % 64;
		/* word v of each row from words q + v and q + v + 1: in
		 * place, as word v is written only after every word below it
		 * is done */
		for (int v = 0; v < W2; v++) {
			uint64_t *restrict o = b->lm[v] + at;
			const uint64_t *lo = b->lm[q + (unsigned)v] + at;
			if (!r) {
				if (q)
					memcpy(o, lo, n * sizeof *o);
				continue;
			}
			if ((int)q + v + 1 < W) {
				const uint64_t *hi = b->lm[q + (unsigned)v + 1] + at;
				for (uint32_t i = 0; i < n; i++)
					o[i] = lo[i] >> r | hi[i] << (64 - r);
			} else {
				for (uint32_t i = 0; i < n; i++)
					o[i] = lo[i] >> r;
			}
		}
		shr(full, off, b->full, W);
		shr(late, off, b->late, W);
		shr(filled, off, f2, W);
		shr(any, off, a2, W);
	} else {
		uint64_t *lm[MAXW] = {0};
		for (int w = 0; w < W; w++)
			lm[w] = b->lm[w] + at;
		bbvec_squeeze(lm, n, empty, W, W2);
		b->sq_runs++;
		/* the goal, its late cells and 'any' as three rows more */
		uint64_t x[MAXW][3] = {{0}}, *xm[MAXW] = {0};
		for (int w = 0; w < W; w++) {
			x[w][0] = full[w] & empty[w];
			x[w][1] = late[w] & empty[w];
			x[w][2] = any[w] & empty[w];
			xm[w] = x[w];
		}
		bbvec_squeeze(xm, 3, empty, W, W2);
		for (int v = 0; v < W2; v++) {
			b->full[v] = x[v][0];
			b->late[v] = x[v][1];
			a2[v] = x[v][2];
			f2[v] = 0;
		}
	}
	for (int w = W2; w < W; w++)
		b->full[w] = b->late[w] = 0;
	if (d == b->rlen)
		b->rspoilt = true;
	/* the rule against holes goes along (hrule, two words to one): on
	 * a shift's masks, or a squeezed window remembers its cells */
	bool rule = b->hrule && W == 2 && W2 == 1;
	if (rule && off != UINT_MAX) {
		shifted_holes(b, off);
		b->wholes = true;
	} else if (rule) {
		b->sqcells[0] = empty[0];
		b->sqcells[1] = empty[1];
		b->squeezed = true;
	}
	int oldW = b->W;
	b->W = W2;
	b->win_runs++;
	node_w(b, d, f2, a2, W2);
	b->W = oldW;
	b->wholes = b->squeezed = false;
	memcpy(b->full, full, sizeof full);
	memcpy(b->late, late, sizeof late);
}

/* A squeezed window's node (level d, one word) whose empty cells, 'cells'
 * as they lie in the goal (two words), lie within 64 cells: searched on
 * them shifted instead, so that the rule against holes runs (hrule), as
 * it does at that node without the squeeze. Level d's list is changed
 * where it is, as window() does. */
static NOINLINE void reshift(bbw *b, size_t d, const uint64_t *filled,
                             const uint64_t *any, const uint64_t *cells)
{
	size_t T = b->ntypes, at = b->lbase[d];
	uint32_t n = b->goff[d * (T + 1) + T];
	uint64_t full = b->full[0], late = b->late[0];
	unsigned off = cells[0] ? (unsigned)__builtin_ctzll(cells[0])
	                        : 64 + (unsigned)__builtin_ctzll(cells[1]);
	/* the rows lie on the empty cells, within 64 of off; the goal's
	 * cells and the filled ones outside them fall off the word */
	bbvec_unsqueeze(b->lm[0] + at, n, b->sqcells, off);
	uint64_t x[4] = {full, late, filled[0], any[0]};
	bbvec_unsqueeze(x, 4, b->sqcells, off);
	b->full[0] = x[0];
	b->late[0] = x[1];
	if (d == b->rlen)
		b->rspoilt = true;
	shifted_holes(b, off);
	b->wholes = true;
	b->squeezed = false;
	b->rs_runs++;
	node_w(b, d, &x[2], &x[3], 1);
	b->wholes = false;
	b->squeezed = true;
	b->full[0] = full;
	b->late[0] = late;
}

/* node() at level d, for the words in use. */
static void node_at(bbw *b, size_t d, const uint64_t *filled,
                    const uint64_t *any)
{
	node_w(b, d, filled, any, b->W);
}

/* place() at the root, for the words in use. */
static void place_root(bbw *b, uint32_t i, size_t t)
{
	static const uint64_t none[MAXW];
	switch (b->W) {
	case 1: place(b, 0, none, i, t, 1); break;
	case 2: place(b, 0, none, i, t, 2); break;
	case 3: place(b, 0, none, i, t, 3); break;
	case 4: place(b, 0, none, i, t, 4); break;
	case 5: place(b, 0, none, i, t, 5); break;
	case 6: place(b, 0, none, i, t, 6); break;
	case 7: place(b, 0, none, i, t, 7); break;
	case 8: place(b, 0, none, i, t, 8); break;
	default: place(b, 0, none, i, t, b->W); break;
	}
}

/* filter() for the words in use (replaying a task's path). */
static void filter_at(bbw *b, size_t d, const uint64_t *rm,
                      const uint64_t *empty, uint64_t *any)
{
	switch (b->W) {
	case 1: filter(b, d, rm, empty, any, 1); break;
	case 2: filter(b, d, rm, empty, any, 2); break;
	default: filter(b, d, rm, empty, any, b->W); break;
	}
}

/* Whether the cells 'm' are connected through the gaps. */
static bool connected(const bbw *b, const uint64_t *m)
{
	int W = b->W;
	uint64_t f[MAXW] = {0};
	for (int w = 0; w < W; w++)
		if (m[w]) {
			f[w] = m[w] & -m[w];
			break;
		}
	for (;;) {
		uint64_t g[MAXW], diff = 0;
		grow_by_gaps(b, f, g, W);
		for (int w = 0; w < W; w++) {
			g[w] &= m[w];
			diff |= g[w] ^ f[w];
			f[w] = g[w];
		}
		if (!diff)
			return same(f, m, W);
	}
}

/* vol[t]: the cells of each row of type t, 0 when they differ (or it has
 * no rows); UINT_MAX while being set. */
static void type_sizes(bbw *b)
{
	for (size_t t = 0; t < b->ntypes; t++)
		b->vol[t] = UINT_MAX;
	for (size_t i = 0; i < b->nrows; i++) {
		const uint64_t *m = b->rowm + (size_t)b->W * i;
		unsigned n = 0, *v = &b->vol[b->rows[i].type];
		for (int w = 0; w < b->W; w++)
			n += (unsigned)__builtin_popcountll(m[w]);
		*v = *v == UINT_MAX || *v == n ? n : 0;
	}
	for (size_t t = 0; t < b->ntypes; t++)
		if (b->vol[t] == UINT_MAX)
			b->vol[t] = 0;
}

/* Whether the regions pruning is sound and worth it for these rows: edges
 * given, few gaps, rows connected, one size per type (type_sizes()), no
 * type of one cell. */
static bool regions_sound(bbw *b)
{
	if (!(b->flags & BBW_REGIONS) || !b->ngaps || b->gaps_overflow)
		return false;
	for (size_t i = 0; i < b->nrows; i++) {
		/* a type of one cell (the fillers of optional cells, solve.c)
		 * makes nearly every volume: the fills cost, nothing pruned */
		if (b->vol[b->rows[i].type] < 2 ||
		    !connected(b, b->rowm + (size_t)b->W * i))
			return false;
	}
	return true;
}

/* Whether the rule against holes is sound and possible for these rows:
 * asked for, two words, edges given, few gaps, and no row with a cell
 * that has no neighbour in it (a row with two cells or more of a
 * connected piece). Sets hv's gaps. */
static bool holes_sound(bbw *b)
{
	if (!(b->flags & BBW_HOLES) || b->W != 2 || !b->ngaps ||
	    b->gaps_overflow)
		return false;
	struct bb_holes2 *h = &b->hv;
	h->ngaps = b->ngaps;
	for (size_t k = 0; k < b->ngaps; k++) {
		h->delta[k] = b->gap[k].delta;
		h->src[k][0] = b->gap[k].src[0];
		h->src[k][1] = b->gap[k].src[1];
	}
	for (size_t i = 0; i < b->nrows; i++) {
		const uint64_t *m = b->rowm + 2 * i;
		uint64_t n[2];
		near2(h, m, n);
		if ((m[0] & ~n[0]) | (m[1] & ~n[1]))
			return false;
	}
	return true;
}

static void level0(bbw *b);

/* Set up a search: counters, level 0 (once, until the rows, edges or
 * flags change) and whether the matrix phase runs. */
static void start(bbw *b, uint64_t max_nodes, xc_visit visit, void *ctx)
{
	size_t T = b->ntypes;
	b->nodes = 0;
	b->covers = 0;
	b->dead = 0;
	b->mx_runs = 0;
	b->mx1_runs = 0;
	b->rs_runs = 0;
	b->wholes = b->squeezed = false;
	b->win_runs = 0;
	b->sq_runs = 0;
	b->max_nodes = max_nodes;
	/* with a poll function, max_nodes is the first allowance, 0 too */
	b->limit = max_nodes || b->poll ? max_nodes : UINT64_MAX;
	b->visit = visit;
	b->ctx = ctx;
	b->stop = XC_DONE;
	if (!b->level0) {
		b->level0 = true;
		level0(b);
	}
	/* (after level0(): it decides 'regions') */
	b->matrix = (b->flags & BBW_MATRIX) && b->kern == BB_AVX512 &&
	            b->W == 2 &&
	            !b->has_late && b->filler == T && !b->regions &&
	            bbwmx_usable();
	b->window = (b->flags & BBW_WINDOW) && b->W > 1 &&
	            !b->regions;
	b->squeeze = b->window && (b->flags & BBW_SQUEEZE) &&
	             b->pext;
	b->hmore = b->holes && (b->flags & BBW_HOLES_MORE);
	b->hrule = b->hmore && b->hv.ngaps <= 3;
}

/* Level 0 and what depends only on the rows, edges and flags: the
 * regions pruning, the rule against holes, every row grouped by type (a
 * counting sort, stable). */
static void level0(bbw *b)
{
	size_t T = b->ntypes;
	type_sizes(b);
	b->regions = regions_sound(b);
	b->holes = holes_sound(b);
	uint32_t *g = b->goff;
	memset(g, 0, (T + 1) * sizeof *g);
	for (size_t i = 0; i < b->nrows; i++)
		g[b->rows[i].type + 1]++;
	for (size_t t = 0; t < T; t++)
		g[t + 1] += g[t];
	for (size_t i = 0; i < b->nrows; i++) {
		uint32_t k = g[b->rows[i].type]++;
		for (int w = 0; w < b->W; w++)
			b->lm[w][k] = b->rowm[(size_t)b->W * i + (size_t)w];
		b->li[k] = b->rows[i].id;
	}
	for (size_t t = T; t > 0; t--)
		g[t] = g[t - 1];
	g[0] = 0;
}

/* Whether the root branches on the rows of the 'first' type. */
static bool first_at_root(const bbw *b)
{
	return b->first < b->ntypes && b->count[b->first] != 0;
}

/* Blank level 0's i-th row: a mask of every cell clashes with any row. */
static void blank(bbw *b, uint32_t i)
{
	for (int w = 0; w < b->W; w++)
		b->lm[w][i] = ~(uint64_t)0;
}

/* Put back level 0's rows of the first type that the root blanked. */
static void unblank(bbw *b)
{
	size_t f = b->first;
	for (size_t i = 0, k = b->goff[f]; i < b->nrows; i++)
		if (b->rows[i].type == f) {
			for (int w = 0; w < b->W; w++)
				b->lm[w][k] = b->rowm[(size_t)b->W * i + (size_t)w];
			k++;
		}
}

static void run(bbw *b)
{
	size_t T = b->ntypes;
	const uint32_t *g = b->goff;
	if (!first_at_root(b)) {
		uint64_t any[MAXW] = {0}, none[MAXW] = {0};
		for (int w = 0; w < b->W; w++)
			for (uint32_t i = 0; i < g[T]; i++)
				any[w] |= b->lm[w][i];
		node_at(b, 0, none, any);
	} else {
		/* The pinned type's rows are the root's branches. Should it
		 * have several copies, the others come from the rows after
		 * the root's: those before are blanked out of level 0, so a
		 * cover is found once, with its first row of the type at the
		 * root. */
		size_t f = b->first;
		for (uint32_t i = g[f]; i < g[f + 1] && b->stop == XC_DONE; i++) {
			if (i > g[f])
				blank(b, i - 1);
			place_root(b, i, f);
		}
		unblank(b);
	}
}

/* Forget the path bbw_solve_task kept: rem and level 0 as they were. */
static void drop_replay(bbw *b)
{
	for (size_t k = 0; k < b->rlen; k++)
		b->rem[b->rtype[k]]++;
	b->rlen = 0;
	if (b->rbl)
		unblank(b);
	b->rbl = 0;
}

enum xc_stop bbw_solve(bbw *b, uint64_t max_nodes, xc_visit visit, void *ctx,
                       uint64_t *nodes)
{
	drop_replay(b);
	start(b, max_nodes, visit, ctx);
	run(b);
	*nodes = b->nodes;
	return b->stop;
}

void bbw_set_poll(bbw *b, xc_poll poll, void *ctx)
{
	b->poll = poll;
	b->pctx = ctx;
}

/* Iterative deepening, as xc_split(). */
int bbw_split(bbw *b, size_t want, uint64_t max_nodes, struct xc_tasks *out,
              enum xc_stop *stop)
{
	xc_poll poll = b->poll;
	b->poll = NULL;
	b->tasks = out;
	drop_replay(b);
	int rc = XC_OK;
	for (size_t d = want ? 1 : XC_NO_CUT;; d++) {
		out->n = 0;
		b->cut = d;
		b->cut_hits = 0;
		b->split_oom = false;
		start(b, max_nodes, NULL, NULL);
		run(b);
		b->cut = SIZE_MAX;
		if (b->split_oom) {
			xc_tasks_clear(out);
			rc = XC_ENOMEM;
			break;
		}
		if (!out->off) {
			out->off = malloc(sizeof *out->off);
			if (!out->off) {
				rc = XC_ENOMEM;
				break;
			}
			out->ncap = 1;
			out->off[0] = 0;
		}
		out->nodes = b->nodes;
		*stop = b->stop;
		if (!want || b->stop != XC_DONE || out->n >= want ||
		    b->cut_hits == 0)
			break;
	}
	b->tasks = NULL;
	b->poll = poll;
	return rc;
}

/* Level d's index of the row numbered 'id', and its type. */
static uint32_t find_in_level(const bbw *b, size_t d, size_t id, size_t *type)
{
	const uint32_t *g = b->goff + d * (b->ntypes + 1);
	const uint32_t *li = b->li + b->lbase[d];
	uint32_t i = 0;
	while (li[i] != id)
		i++;
	assert(i < g[b->ntypes]);
	size_t t = 0;
	while (g[t + 1] <= i)
		t++;
	*type = t;
	return i;
}

/* Whether the task's steps d..len-1, all fillers, end the cover: they
 * fill the cells 'filled' leaves empty, each once. Then the cover is
 * visited as the step-by-step replay would (fillers are no nodes). A
 * cover ended by fillers is recorded whole when splitting (last_type()),
 * and replaying it a level a filler wrote a list per level: Pelikan's
 * burr, 512 cells, 160 levels of fillers, a page of each list's words
 * apiece. */
static bool filler_tail(bbw *b, const size_t *path, size_t d, size_t len,
                        const uint64_t *filled)
{
	int W = b->W;
	uint64_t u[MAXW];
	memcpy(u, filled, (size_t)W * sizeof *u);
	for (size_t e = d; e < len; e++) {
		const uint64_t *m = b->rowm + (size_t)W * path[e];
		for (int w = 0; w < W; w++) {
			if (u[w] & m[w])
				return false;
			u[w] |= m[w];
		}
	}
	if (!same(u, b->full, W))
		return false;
	for (size_t e = d; e < len; e++)
		b->path[e] = path[e];
	b->covers++;
	if (!b->visit(b->ctx, b->path, len))
		b->stop = XC_VISITOR;
	return true;
}

/* Replay task k's rows as place() put them (their nodes were counted by
 * bbw_split; so were the checks they passed, the regions among them),
 * then search below. The steps it shares with the path replayed last
 * are kept (see struct bbw). */
enum xc_stop bbw_solve_task(bbw *b, const struct xc_tasks *t, size_t k,
                            uint64_t max_nodes, xc_visit visit, void *ctx,
                            uint64_t *nodes)
{
	assert(k < t->n);
	const size_t *path = t->step + t->off[k];
	size_t len = t->off[k + 1] - t->off[k];
	int W = b->W;
	start(b, max_nodes, visit, ctx);
	size_t p = 0;
	while (p < b->rlen && p < len && b->path[p] == path[p])
		p++;
	for (size_t d = b->rlen; d > p; d--)
		b->rem[b->rtype[d - 1]]++;
	b->rlen = p;
	size_t type;
	uint32_t i;
	if (p == 0 && first_at_root(b)) {
		/* the root's rule: the first type's rows before the one taken
		 * are blanked out of level 0 (run) */
		assert(len >= 1);
		i = find_in_level(b, 0, path[0], &type);
		assert(type == b->first);
		uint32_t g0 = b->goff[type], want = i - g0;
		if (want < b->rbl) {
			unblank(b);
			b->rbl = 0;
		}
		for (uint32_t j = g0 + b->rbl; j < i; j++)
			blank(b, j);
		b->rbl = want;
	}
	uint64_t filled[MAXW] = {0}, any[MAXW] = {0};
	if (p) {
		memcpy(filled, b->rfill + (size_t)W * (p - 1), (size_t)W * sizeof *filled);
		memcpy(any, b->rany + (size_t)W * (p - 1), (size_t)W * sizeof *any);
	}
	/* the fillers at the path's end, if any */
	size_t tail = len;
	while (b->has_late && tail > 0 && b->rows[path[tail - 1]].type == b->filler)
		tail--;
	size_t d = p;
	for (; d < len; d++) {
		if (d >= tail && filler_tail(b, path, d, len, filled)) {
			*nodes = b->nodes;
			return b->stop;
		}
		i = find_in_level(b, d, path[d], &type);
		size_t at = b->lbase[d] + i;
		uint64_t m[MAXW], empty[MAXW], left = 0;
		for (int w = 0; w < W; w++) {
			m[w] = b->lm[w][at];
			filled[w] |= m[w];
			empty[w] = b->full[w] & ~filled[w];
			left |= empty[w];
		}
		b->path[d] = path[d];
		if (!left) {
			assert(d + 1 == len);
			b->covers++;
			if (!b->visit(b->ctx, b->path, d + 1))
				b->stop = XC_VISITOR;
			break;
		}
		b->rem[type]--;
		filter_at(b, d, m, empty, any);
		if (d == 0 && b->drops.n)
			drop_below(b, path[0], any);
		memcpy(b->rfill + (size_t)W * d, filled, (size_t)W * sizeof *filled);
		memcpy(b->rany + (size_t)W * d, any, (size_t)W * sizeof *any);
		b->rtype[d] = (uint32_t)type;
		b->rlen = d + 1;
	}
	if (d == len) {
		b->rspoilt = false;
		node_at(b, len, filled, any);
		if (b->rspoilt) {
			/* a window shifted level len's list: keep one step
			 * fewer */
			b->rlen--;
			b->rem[b->rtype[b->rlen]]++;
		}
	}
	*nodes = b->nodes;
	return b->stop;
}

bbw *bbw_clone(const bbw *b)
{
	bbw *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *b;
	size_t nt = b->ntypes ? b->ntypes : 1, lists = (b->depth + 1) * b->stride;
	size_t W = (size_t)b->W, cap = b->cap ? b->cap : 1;
	if (!lists)
		lists = 1;
	/* every pointer replaced before any check, so bbw_free(c) frees
	 * only c's own */
	c->rem = malloc(nt * sizeof *c->rem);
	c->count = malloc(nt * sizeof *c->count);
	c->vol = malloc(nt * sizeof *c->vol);
	c->slack = b->slack ? malloc(nt * sizeof *c->slack) : NULL;
	c->need = b->slack ? malloc(nt * sizeof *c->need) : NULL;
	/* the rows are read only while searching: a clone shares them (a
	 * clone of a wide board's 3,817 rows: 77 fresh pages fewer) */
	c->shared_rows = b->rows != NULL;
	if (!c->shared_rows) {
		c->rows = malloc(cap * sizeof *c->rows);
		c->rowm = malloc(W * cap * sizeof *c->rowm);
	}
	bool lists_ok = true;
	for (size_t w = 0; w < MAXW; w++) {
		c->lm[w] = w < W ? malloc(lists * sizeof *c->lm[w]) : NULL;
		lists_ok &= w >= W || c->lm[w];
	}
	c->li = malloc(lists * sizeof *c->li);
	c->goff = malloc((b->depth + 1) * (b->ntypes + 1) * sizeof *c->goff);
	c->path = malloc(b->depth * sizeof *c->path);
	c->lbase = malloc((b->depth + 2) * sizeof *c->lbase);
	if (c->lbase)
		memcpy(c->lbase, b->lbase, (b->depth + 2) * sizeof *c->lbase);
	c->rfill = malloc(W * b->depth * sizeof *c->rfill);
	c->rany = malloc(W * b->depth * sizeof *c->rany);
	c->rtype = malloc(b->depth * sizeof *c->rtype);
	int dr = drops_copy(&c->drops, &b->drops);
	c->tasks = NULL;
	c->cut = SIZE_MAX;
	c->level0 = false;
	c->rlen = 0;
	c->rbl = 0;
	if (!c->rem || !c->count || !c->vol || !c->rows || !c->rowm ||
	    (b->slack && (!c->slack || !c->need)) ||
	    !lists_ok || !c->li || !c->goff || !c->path || !c->lbase ||
	    !c->rfill || !c->rany || !c->rtype || dr != XC_OK) {
		bbw_free(c);
		return NULL;
	}
	/* counts as added: the original's replay (if any) is not copied */
	memcpy(c->rem, b->count, b->ntypes * sizeof *c->rem);
	memcpy(c->count, b->count, b->ntypes * sizeof *c->count);
	memcpy(c->vol, b->vol, b->ntypes * sizeof *c->vol);
	if (b->slack)
		memcpy(c->slack, b->slack, b->ntypes * sizeof *c->slack);
	/* the lists are rebuilt by the first search: nothing to copy */
	return c;
}

uint64_t bbw_matrix_runs(const bbw *b, uint64_t *one_word)
{
	if (one_word)
		*one_word = b->mx1_runs;
	return b->mx_runs;
}

uint64_t bbw_window_runs(const bbw *b, uint64_t *squeezed,
                         uint64_t *reshifted)
{
	if (reshifted)
		*reshifted = b->rs_runs;
	if (squeezed)
		*squeezed = b->sq_runs;
	return b->win_runs;
}

uint64_t bbw_dead_ends(const bbw *b)
{
	return b->dead;
}
