/*
 * bb128.c: the bitboard engine for goals of up to 128 cells.
 *
 * Workload: Bedlam (64 cells), pentacube boxes (60), and boxes of up to
 * 128 cells: a few dozen pieces, up to some 10^5 rows, 10^7 to 10^9 nodes.
 *
 * Data layout. A row's cells are one or two 64-bit words, renumbered by
 * the fill order. Every search level keeps the rows still placeable (no
 * cell filled, copies of the type left) as plain arrays, one per word
 * (structure of arrays, so that the loops over a list run two rows per
 * SSE2 instruction), plus the row numbers, grouped by type. 'W', the
 * words in use, is 1 up to 64 cells, else 2; every hot function takes W
 * as a compile-time constant (node1/node2 below), so a 64-cell goal pays
 * nothing for the second word.
 *
 * At a node (Algorithm X with MRV, as bb.c):
 *   - count the rows covering each empty cell with bit-sliced counters,
 *     first saturating at 4 (cheap: most nodes deep in the tree have a
 *     cell with 1 to 3 rows), and to 32 only when no cell is below 4;
 *   - branch on the empty cell with the fewest rows (ties: the first in
 *     the fill order), or on a single-copy type with fewer still;
 *   - for each branch row: check that every empty cell keeps a row that
 *     goes with it (a pass that stops as soon as that holds; most dead
 *     placements fail it); then
 *     that every connected region of empty cells has a volume the pieces
 *     left can make (a flood fill by shifts, below); then copy the rows
 *     that go with it into the next level's list.
 *
 * The passes over a list (filter, the cover check, the count, gathering a
 * cell's rows, the type checks) run on AVX-512 where the CPU has it
 * (bbvec.c, eight rows a step, both words of a row at once; the 70-cell
 * pentacube box in 1.4 s instead of 2.5 on one thread, Bedlam on this
 * engine 4.0 s instead of 7.5), else on the portable loops here; both give
 * the same lists in the same order, so the same nodes and covers. The
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
#include "solver/bb128.h"
#include "solver/bbvec.h"
#include "solver/drops.h"

#include <assert.h>
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

/* Adjacency gaps kept at most; beyond, no region pruning and no rule
 * against holes. */
#define MAX_GAPS BB_HOLES2_GAPS

struct brow {
	uint64_t m[2]; /* cells, renumbered */
	uint32_t type;
	uint32_t id;   /* row number as added */
};

struct gap {
	unsigned delta;  /* i and i + delta are neighbours ... */
	uint64_t src[2]; /* ... for each i in this mask */
};

struct bb128 {
	size_t ncells;
	int W;            /* words in use: 1 up to 64 cells, else 2 */
	uint64_t full[2]; /* every cell */
	unsigned rank[BB128_MAX_CELLS];
	size_t ntypes;
	unsigned *rem;    /* copies left per type */
	unsigned *count;  /* copies per type */
	unsigned *vol;    /* cells per row of each type (when all agree) */
	struct brow *rows;
	size_t nrows, cap, stride;
	size_t first;     /* type placed at the root; ntypes if none */
	struct drops drops; /* rows left out below a root row */
	size_t depth;     /* pieces in a cover + 1: levels of lists */
	unsigned flags;   /* BB128_* prunings asked for */
	bool regions;     /* the regions pruning runs in this solve */
	bool holes;       /* the rule against holes runs in this solve */
	struct bb_holes2 hv; /* its gaps; 'empty' set by each filter() */
	bool vec;         /* the list passes on AVX-512 (bbvec.h) */
	struct gap gap[MAX_GAPS];
	size_t ngaps;
	bool gaps_overflow; /* more gaps than MAX_GAPS */

	/* search: level d's list is lm[w][d * stride ..] (word w of the
	 * masks) and li[d * stride ..] (row numbers); type t's group in it
	 * is [goff[d * (ntypes + 1) + t], goff[d * (ntypes + 1) + t + 1]) */
	uint64_t *lm[2];
	uint32_t *li;
	uint32_t *goff;
	size_t *path;
	uint64_t nodes, max_nodes;
	uint64_t limit;   /* nodes allowed so far: max_nodes, raised by
	                   * poll; UINT64_MAX for no limit */
	uint64_t covers;  /* covers visited */
	uint64_t dead;    /* rows placed that led to no cover */
	xc_visit visit;
	void *ctx;
	enum xc_stop stop;
	xc_poll poll;     /* more budget (bb128_set_poll); NULL: none */
	void *pctx;

	/* Splitting (bb128_split), as bb.c: node() records the path to
	 * each node at level 'cut', and place() each cover above it,
	 * instead of going on; SIZE_MAX: off. */
	size_t cut;
	size_t cut_hits;  /* tasks recorded at level 'cut' */
	struct xc_tasks *tasks;
	bool split_oom;

	/* Replaying (bb128_solve_task), as bb.c: consecutive tasks share
	 * the start of their paths, so the path replayed last is kept:
	 * levels 1..rlen hold its lists, 'rem' is counted down by its rows,
	 * and per step the cells filled and the union of the next level's
	 * rows (two words each: rfill/rany[2 * step + w]) and the row's
	 * type; level 0's first 'rbl' rows of the first type are blanked
	 * (the root's rule). Dropped by bb128_solve, bb128_split and
	 * whatever changes the rows, edges, flags or first type. */
	bool level0;      /* level 0 holds every row and 'regions' is set:
	                   * start() need not redo them */
	size_t rlen;
	uint64_t *rfill, *rany;
	uint32_t *rtype;
	uint32_t rbl;
};

bb128 *bb128_new(size_t ncells, const unsigned *rank, size_t ntypes,
                 const unsigned *counts)
{
	if (ncells == 0 || ncells > BB128_MAX_CELLS)
		return NULL;
	bb128 *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->ncells = ncells;
	b->W = ncells > 64 ? 2 : 1;
	for (size_t c = 0; c < ncells; c++)
		b->full[c / 64] |= (uint64_t)1 << (c % 64);
	b->ntypes = ntypes;
	b->first = ntypes;
	b->flags = BB128_REGIONS | BB128_QUICK_COUNT | BB128_HOLES;
	b->cut = SIZE_MAX;
	b->vec = bbvec_usable();
	size_t nt = ntypes ? ntypes : 1;
	b->rem = malloc(nt * sizeof *b->rem);
	b->count = malloc(nt * sizeof *b->count);
	b->vol = malloc(nt * sizeof *b->vol);
	size_t depth = 1;
	for (size_t t = 0; t < ntypes; t++)
		depth += counts[t];
	b->depth = depth;
	if (depth < SIZE_MAX / sizeof *b->path / 2) {
		b->path = malloc(depth * sizeof *b->path);
		b->rfill = malloc(2 * depth * sizeof *b->rfill);
		b->rany = malloc(2 * depth * sizeof *b->rany);
		b->rtype = malloc(depth * sizeof *b->rtype);
	}
	if (depth < SIZE_MAX / sizeof *b->goff / 2 / (ntypes + 1))
		b->goff = malloc((depth + 1) * (ntypes + 1) * sizeof *b->goff);
	if (!b->rem || !b->count || !b->vol || !b->path || !b->goff ||
	    !b->rfill || !b->rany || !b->rtype) {
		bb128_free(b);
		return NULL;
	}
	memcpy(b->rem, counts, ntypes * sizeof *counts);
	memcpy(b->count, counts, ntypes * sizeof *counts);
	for (size_t c = 0; c < ncells; c++)
		b->rank[c] = rank[c];
	return b;
}

void bb128_free(bb128 *b)
{
	if (!b)
		return;
	free(b->rem);
	free(b->count);
	free(b->vol);
	free(b->rows);
	free(b->lm[0]);
	free(b->lm[1]);
	free(b->li);
	free(b->goff);
	free(b->path);
	free(b->rfill);
	free(b->rany);
	free(b->rtype);
	drops_clear(&b->drops);
	free(b);
}

static void drop_replay(bb128 *b);

/* The rows, edges, flags or first type change: forget the replayed path
 * and level 0. */
static void invalidate(bb128 *b)
{
	drop_replay(b);
	b->level0 = false;
}

/* Grow the row table and the search lists to 'cap' rows; nothing changes
 * on failure. */
static int grow(bb128 *b, size_t cap)
{
	size_t W = (size_t)b->W;
	/* Levels are 'stride' apart, not a power of two, so that the loads
	 * of one level and the stores of the next do not alias in the cache
	 * (4K aliasing). */
	size_t stride = cap + 40;
	if (cap > UINT32_MAX / 2 ||
	    stride > SIZE_MAX / 16 / (b->depth + 1) / (W + 1))
		return XC_ETOOBIG;
	size_t n = (b->depth + 1) * stride;
	struct brow *r = malloc(cap * sizeof *r);
	uint64_t *m0 = malloc(n * sizeof *m0);
	uint64_t *m1 = W == 2 ? malloc(n * sizeof *m1) : NULL;
	uint32_t *li = malloc(n * sizeof *li);
	if (!r || !m0 || (W == 2 && !m1) || !li) {
		free(r);
		free(m0);
		free(m1);
		free(li);
		return XC_ENOMEM;
	}
	if (b->nrows)
		memcpy(r, b->rows, b->nrows * sizeof *r);
	free(b->rows);
	free(b->lm[0]);
	free(b->lm[1]);
	free(b->li);
	b->rows = r;
	b->lm[0] = m0;
	b->lm[1] = m1;
	b->li = li;
	b->cap = cap;
	b->stride = stride;
	return XC_OK;
}

int bb128_add_row(bb128 *b, const uint64_t cells[2], size_t type)
{
	invalidate(b);
	if (b->nrows == b->cap) {
		/* The search's lists are sized here, so solving cannot fail
		 * for want of memory. */
		int rc = grow(b, b->cap ? 2 * b->cap : 256);
		if (rc != XC_OK)
			return rc;
	}
	uint64_t m[2] = {0, 0};
	for (int w = 0; w < 2; w++)
		for (uint64_t c = cells[w]; c; c &= c - 1) {
			unsigned r = b->rank[64 * w + (unsigned)__builtin_ctzll(c)];
			m[r / 64] |= (uint64_t)1 << (r % 64);
		}
	b->rows[b->nrows] = (struct brow){{m[0], m[1]}, (uint32_t)type,
	                                  (uint32_t)b->nrows};
	b->nrows++;
	return XC_OK;
}

void bb128_add_edge(bb128 *b, size_t a, size_t c)
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
		b->gap[k] = (struct gap){delta, {0, 0}};
		b->ngaps++;
	}
	b->gap[k].src[lo / 64] |= (uint64_t)1 << (lo % 64);
}

void bb128_set_first(bb128 *b, size_t type)
{
	invalidate(b);
	b->first = type;
}

int bb128_drop_below(bb128 *b, size_t root, const size_t *drop, size_t n)
{
	invalidate(b);
	return drops_add(&b->drops, b->nrows, root, drop, n);
}

void bb128_set_flags(bb128 *b, unsigned flags)
{
	invalidate(b);
	b->flags = flags;
}

bool bb128_set_vector(bb128 *b, bool on)
{
	b->vec = on && bbvec_usable();
	return b->vec;
}

/* ---- board words --------------------------------------------------------- */

/* x << s and x >> s on a W-word board, 0 < s < 64 * W. */
BB_INLINE void shl(const uint64_t *x, unsigned s, uint64_t *out, int W)
{
	if (W == 1) {
		out[0] = x[0] << s;
		return;
	}
	if (s >= 64) {
		out[1] = x[0] << (s - 64);
		out[0] = 0;
	} else {
		out[1] = x[1] << s | (s ? x[0] >> (64 - s) : 0);
		out[0] = x[0] << s;
	}
}

BB_INLINE void shr(const uint64_t *x, unsigned s, uint64_t *out, int W)
{
	if (W == 1) {
		out[0] = x[0] >> s;
		return;
	}
	if (s >= 64) {
		out[0] = x[1] >> (s - 64);
		out[1] = 0;
	} else {
		out[0] = x[0] >> s | (s ? x[1] << (64 - s) : 0);
		out[1] = x[1] >> s;
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
 * fewer nodes, but a two-word filter three times as dear). */
#define HOLES_ROWS 512

/* Filter level d's list by the placed row 'rm' (its type already counted
 * down; 'empty' the cells left) into level d + 1; '*any' gets the union of
 * the rows kept. Below a node of more than HOLES_ROWS rows on two words,
 * the rule against holes applies when it does at all. */
BB_INLINE void filter(bb128 *b, size_t d, const uint64_t *rm,
                      const uint64_t *empty, uint64_t *any, int W)
{
	size_t T = b->ntypes, s = b->stride;
	const uint32_t *restrict g = b->goff + d * (T + 1);
	struct bb_holes2 *h = NULL;
	if (W == 2 && b->holes && g[T] > HOLES_ROWS) {
		h = &b->hv;
		h->empty[0] = empty[0];
		h->empty[1] = empty[1];
	}
	uint32_t *restrict og = b->goff + (d + 1) * (T + 1);
	const uint64_t *restrict p0 = b->lm[0] + d * s;
	const uint64_t *restrict p1 = W == 2 ? b->lm[1] + d * s : NULL;
	const uint32_t *restrict pi = b->li + d * s;
	uint64_t *restrict o0 = b->lm[0] + (d + 1) * s;
	uint64_t *restrict o1 = W == 2 ? b->lm[1] + (d + 1) * s : NULL;
	uint32_t *restrict oi = b->li + (d + 1) * s;
	const unsigned *restrict rem = b->rem;
	if (b->vec) {
		if (W == 1)
			any[0] = bbvec_filter(p0, pi, g, rem, T, rm[0], NULL, o0, oi,
			                      og);
		else
			bbvec_filter2(p0, p1, pi, g, rem, T, rm, h, o0, o1, oi, og,
			              any);
		return;
	}
	uint64_t a0 = 0, a1 = 0, r0 = rm[0], r1 = W == 2 ? rm[1] : 0;
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		uint32_t end = g[t + 1];
		for (uint32_t i = g[t]; i < end; i++) {
			uint64_t m0 = p0[i], m1 = W == 2 ? p1[i] : 0;
			/* no branch on the rule's outcome: it is random */
			uint64_t keep = (((m0 & r0) | (m1 & r1)) == 0) &
			                (uint64_t)!(h && isolates2(h, m0, m1));
			o0[k] = m0;
			if (W == 2)
				o1[k] = m1;
			oi[k] = pi[i];
			k += (uint32_t)keep;
			a0 |= m0 & -keep;
			a1 |= m1 & -keep;
		}
	}
	og[T] = k;
	any[0] = a0;
	if (W == 2)
		any[1] = a1;
}

/* Level 1's list without the rows left out below the root row 'root'
 * (bb128_drop_below); 'any' becomes the union of the rows kept. */
static void drop_below(bb128 *b, size_t root, uint64_t *any)
{
	const uint64_t *bits = drops_of(&b->drops, root);
	if (!bits)
		return;
	size_t T = b->ntypes, s = b->stride;
	uint32_t *g = b->goff + (T + 1);
	uint64_t *m0 = b->lm[0] + s, *m1 = b->W == 2 ? b->lm[1] + s : NULL;
	uint32_t *li = b->li + s;
	uint32_t k = 0;
	any[0] = any[1] = 0;
	for (size_t t = 0; t < T; t++) {
		uint32_t i = g[t], end = g[t + 1];
		g[t] = k;
		for (; i < end; i++) {
			if (li[i] < 64 * b->drops.words && drops_has(bits, li[i]))
				continue;
			m0[k] = m0[i];
			any[0] |= m0[k];
			if (m1) {
				m1[k] = m1[i];
				any[1] |= m1[k];
			}
			li[k++] = li[i];
		}
	}
	g[T] = k;
}

/* Whether some row of the list [i, end) that does not clash with 'rm'
 * covers each cell of 'empty' not in 'a' (which collects the rows'
 * union); stops as soon as it does. */
BB_INLINE bool cover_range(const bb128 *b, size_t d, uint32_t i, uint32_t end,
                           const uint64_t *rm, const uint64_t *empty,
                           uint64_t *a, int W)
{
	const uint64_t *p0 = b->lm[0] + d * b->stride;
	const uint64_t *p1 = W == 2 ? b->lm[1] + d * b->stride : NULL;
	uint64_t r0 = rm[0], r1 = W == 2 ? rm[1] : 0;
	uint64_t e0 = empty[0], e1 = W == 2 ? empty[1] : 0;
	uint64_t a0 = a[0], a1 = W == 2 ? a[1] : 0;
#ifdef BB_VEC
	v2 rv0 = {r0, r0}, rv1 = {r1, r1}, z = {0, 0};
	v2 u0 = z, u1 = z;
	while (end - i >= 16) {
		for (int j = 0; j < 8; j++, i += 2) {
			v2 m0, m1 = z;
			memcpy(&m0, p0 + i, sizeof m0);
			if (W == 2)
				memcpy(&m1, p1 + i, sizeof m1);
			v2 x = (m0 & rv0) | (m1 & rv1);
			/* all ones when x == 0: no 64-bit compare in SSE2 */
			v2 ok = ((x | -x) >> 63) - 1;
			u0 |= m0 & ok;
			if (W == 2)
				u1 |= m1 & ok;
		}
		if ((a0 | u0[0] | u0[1]) == e0 &&
		    (W == 1 || (a1 | u1[0] | u1[1]) == e1)) {
			a[0] = e0;
			if (W == 2)
				a[1] = e1;
			return true;
		}
	}
	a0 |= u0[0] | u0[1];
	a1 |= u1[0] | u1[1];
#endif
	for (; i < end; i++) {
		uint64_t m0 = p0[i], m1 = W == 2 ? p1[i] : 0;
		uint64_t ok = ((m0 & r0) | (m1 & r1)) == 0;
		a0 |= m0 & -ok;
		a1 |= m1 & -ok;
	}
	a[0] = a0;
	if (W == 2)
		a[1] = a1;
	return a0 == e0 && (W == 1 || a1 == e1);
}

/* Whether, once the row 'rm' of type 'rt' is placed (and counted down),
 * every cell of 'empty' is still covered by some row of level d's list
 * that could go with it: a cheaper test than filter(), that most dead
 * placements fail, and that stops as soon as it holds. Rows of other
 * exhausted types are not in the list (filter() dropped them). */
/* cover_range() or its AVX-512 kernel. */
BB_INLINE bool cover_any(const bb128 *b, size_t d, uint32_t i, uint32_t end,
                         const uint64_t *rm, const uint64_t *empty,
                         uint64_t *a, int W)
{
	if (!b->vec)
		return cover_range(b, d, i, end, rm, empty, a, W);
	const uint64_t *p0 = b->lm[0] + d * b->stride;
	if (W == 1)
		return bbvec_cover(p0, i, end, rm[0], empty[0], a);
	return bbvec_cover2(p0, b->lm[1] + d * b->stride, i, end, rm, empty, a);
}

BB_INLINE bool covered(const bb128 *b, size_t d, const uint64_t *rm,
                       size_t rt, const uint64_t *empty, int W)
{
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	uint64_t a[2] = {0, 0};
	if (b->rem[rt])
		return cover_any(b, d, 0, g[T], rm, empty, a, W);
	return cover_any(b, d, 0, g[rt], rm, empty, a, W) ||
	       cover_any(b, d, g[rt + 1], g[T], rm, empty, a, W);
}

/* Whether every connected region of the empty cells 'e' has a volume
 * that the types left ('rem') can make. */
BB_INLINE bool regions_ok(const bb128 *b, const uint64_t *empty, int W)
{
	uint64_t e[2] = {empty[0], W == 2 ? empty[1] : 0};
	uint64_t reach[3] = {0, 0, 0};
	bool first = true;
	for (;;) {
		/* grow the region of the first empty cell */
		uint64_t f[2] = {0, 0};
		if (e[0])
			f[0] = e[0] & -e[0];
		else
			f[1] = e[1] & -e[1];
		for (;;) {
			uint64_t g[2] = {f[0], f[1]};
			for (size_t k = 0; k < b->ngaps; k++) {
				const struct gap *p = &b->gap[k];
				uint64_t x[2] = {f[0] & p->src[0], f[1] & p->src[1]};
				uint64_t y[2];
				shl(x, p->delta, y, W);
				g[0] |= y[0];
				if (W == 2)
					g[1] |= y[1];
				shr(f, p->delta, y, W);
				g[0] |= y[0] & p->src[0];
				if (W == 2)
					g[1] |= y[1] & p->src[1];
			}
			g[0] &= e[0];
			g[1] &= e[1];
			if (g[0] == f[0] && g[1] == f[1])
				break;
			f[0] = g[0];
			f[1] = g[1];
		}
		if (first && f[0] == e[0] && f[1] == e[1])
			return true; /* one region: the whole volume left */
		if (first) {
			/* sums of the sizes of the pieces left */
			reach[0] = 1;
			for (size_t t = 0; t < b->ntypes; t++)
				for (unsigned k = 0; k < b->rem[t]; k++) {
					unsigned v = b->vol[t];
					uint64_t r[3] = {reach[0], reach[1], reach[2]};
					for (int j = 0; j < 3; j++) {
						int from = j - (int)(v / 64);
						unsigned s = v % 64;
						uint64_t x = 0;
						if (from >= 0)
							x = r[from] << s;
						if (from >= 1 && s)
							x |= r[from - 1] >> (64 - s);
						reach[j] |= x;
					}
				}
			first = false;
		}
		unsigned n = (unsigned)(__builtin_popcountll(f[0]) +
		                        __builtin_popcountll(f[1]));
		if (!(reach[n / 64] >> (n % 64) & 1))
			return false;
		e[0] &= ~f[0];
		e[1] &= ~f[1];
		if (!e[0] && !e[1])
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
static unsigned NOINLINE least_exact(const bb128 *b, size_t d, uint32_t n,
                                     const uint64_t *empty, unsigned *cell,
                                     int W)
{
	uint64_t c[2][24];
	memset(c, 0, sizeof c);
	for (int w = 0; w < W; w++) {
		const uint64_t *lm = b->lm[w] + d * b->stride;
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

/* least() on AVX-512: each word's list counted to 32 (bbvec_count), the
 * fewest found slice by slice over both words at once (keep the cells
 * with a 0 in slice j, from the top, if there are any), as bb.c does. No
 * quick count: a cell below 4 is found as such among the counts to 32, so
 * the answer is the same, and the kernel counts to 32 for less than the
 * portable loop pays to count to 4. */
BB_INLINE unsigned least_vec(const bb128 *b, size_t d, uint32_t n,
                             const uint64_t *empty, unsigned *cell, int W)
{
	uint64_t c[2][6];
	for (int w = 0; w < W; w++)
		bbvec_count(b->lm[w] + d * b->stride, n, c[w]);
	uint64_t cand[2] = {empty[0] & ~c[0][5],
	                    W == 2 ? empty[1] & ~c[1][5] : 0};
	if (!(cand[0] | cand[1]))
		return least_exact(b, d, n, empty, cell, W);
	for (int j = 4; j >= 0; j--) {
		uint64_t x0 = cand[0] & ~c[0][j];
		uint64_t x1 = W == 2 ? cand[1] & ~c[1][j] : 0;
		if (x0 | x1) {
			cand[0] = x0;
			cand[1] = x1;
		}
	}
	int w = cand[0] ? 0 : 1;
	unsigned bit = (unsigned)__builtin_ctzll(cand[w]), v = 0;
	for (int j = 0; j < 5; j++)
		v |= (unsigned)(c[w][j] >> bit & 1) << j;
	*cell = 64 * (unsigned)w + bit;
	return v;
}

/* The empty cell with the fewest rows in level d's list (ties: the first
 * in the fill order): '*cell' its fill-order number, the count returned.
 * Empty cells all have a row (node() checked). */
BB_INLINE unsigned least(const bb128 *b, size_t d, const uint64_t *empty,
                         unsigned *cell, int W)
{
	uint32_t n = b->goff[d * (b->ntypes + 1) + b->ntypes];
	if (b->vec)
		return least_vec(b, d, n, empty, cell, W);
	struct cnt cn[2];
	int nbits = 5;
	if (b->flags & BB128_QUICK_COUNT) {
		for (int w = 0; w < W; w++)
			cn[w] = count(b->lm[w] + d * b->stride, n, 2);
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
		cn[w] = count(b->lm[w] + d * b->stride, n, nbits);
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

static void node1(bb128 *b, size_t d, const uint64_t *filled,
                  const uint64_t *any);
static void node2(bb128 *b, size_t d, const uint64_t *filled,
                  const uint64_t *any);

/* Splitting: the rows placed so far, path[0..len-1], are a task. */
static void record(bb128 *b, size_t len)
{
	if (xc_tasks_add(b->tasks, b->path, len)) {
		b->cut_hits += len == b->cut;
		return;
	}
	b->split_oom = true;
	b->stop = XC_VISITOR;
}

/* Whether the node budget is spent: more from poll, if any (xc.h). */
static bool NOINLINE spent(bb128 *b)
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

/* Place level d's i-th row (of type t) and search below it. */
BB_INLINE void place(bb128 *b, size_t d, const uint64_t *filled, uint32_t i,
                     size_t t, int W)
{
	/* Below the root a used-up type's rows are filtered out; at the root
	 * a type given count 0 still has its rows. */
	if (!b->rem[t])
		return;
	if (b->nodes >= b->limit && spent(b))
		return;
	b->nodes++;
	size_t at = d * b->stride + i;
	uint64_t m[2] = {b->lm[0][at], W == 2 ? b->lm[1][at] : 0};
	b->path[d] = b->li[at];
	uint64_t nf[2] = {filled[0] | m[0], W == 2 ? filled[1] | m[1] : 0};
	if (nf[0] == b->full[0] && (W == 1 || nf[1] == b->full[1])) {
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
	uint64_t empty[2] = {b->full[0] & ~nf[0], b->full[1] & ~nf[1]};
	b->rem[t]--;
	if (covered(b, d, m, t, empty, W) &&
	    (!b->regions || regions_ok(b, empty, W))) {
		uint64_t any[2] = {0, 0};
		filter(b, d, m, empty, any, W);
		if (d == 0 && b->drops.n)
			drop_below(b, b->li[at], any);
		if (W == 1)
			node1(b, d + 1, nf, any);
		else
			node2(b, d + 1, nf, any);
	}
	b->rem[t]++;
	b->dead += b->covers == before;
}

/* Branch at level d: the list holds the placeable rows, 'any' is their
 * union. */
BB_INLINE void node(bb128 *b, size_t d, const uint64_t *filled,
                    const uint64_t *any, int W)
{
	if (b->cut == d) {
		record(b, d);
		return;
	}
	uint64_t empty[2] = {b->full[0] & ~filled[0],
	                     W == 2 ? b->full[1] & ~filled[1] : 0};
	if ((empty[0] & ~any[0]) || (W == 2 && (empty[1] & ~any[1])))
		return;
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	unsigned cell = 0, best;
	size_t bt = T;
	if (b->vec) {
		/* the same checks and choice as the loops below */
		unsigned tbest;
		if (!bbvec_types(g, b->rem, b->count, T, &tbest, &bt))
			return;
		best = least(b, d, empty, &cell, W);
		if (tbest < best)
			best = tbest;
		else
			bt = T;
	} else {
		for (size_t t = 0; t < T; t++)
			if (g[t + 1] - g[t] < b->rem[t])
				return;
		best = least(b, d, empty, &cell, W);
		for (size_t t = 0; t < T; t++) {
			unsigned n = g[t + 1] - g[t];
			if (b->rem[t] && b->count[t] == 1 && n < best) {
				best = n;
				bt = t;
			}
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
	const uint64_t *lm = b->lm[cell / 64] + d * b->stride;
	unsigned c = cell % 64;
	if (best < 32) {
		/* Gather the rows covering 'cell' first: fewer than 32
		 * (and room for bbvec_gather's last block of 8). */
		uint32_t sel[32 + 8];
		unsigned nsel = 0;
		if (b->vec)
			nsel = bbvec_gather(lm, g[T], (uint64_t)1 << c, sel);
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

static void node1(bb128 *b, size_t d, const uint64_t *filled,
                  const uint64_t *any)
{
	node(b, d, filled, any, 1);
}

static void node2(bb128 *b, size_t d, const uint64_t *filled,
                  const uint64_t *any)
{
	node(b, d, filled, any, 2);
}

static void place_root(bb128 *b, uint32_t i, size_t t)
{
	uint64_t none[2] = {0, 0};
	if (b->W == 1)
		place(b, 0, none, i, t, 1);
	else
		place(b, 0, none, i, t, 2);
}

/* Whether the cells 'm' are connected through the gaps. */
static bool connected(const bb128 *b, const uint64_t *m)
{
	uint64_t f[2] = {0, 0};
	if (m[0])
		f[0] = m[0] & -m[0];
	else
		f[1] = m[1] & -m[1];
	for (;;) {
		uint64_t g[2] = {f[0], f[1]};
		for (size_t k = 0; k < b->ngaps; k++) {
			const struct gap *p = &b->gap[k];
			uint64_t x[2] = {f[0] & p->src[0], f[1] & p->src[1]}, y[2];
			shl(x, p->delta, y, 2);
			g[0] |= y[0];
			g[1] |= y[1];
			shr(f, p->delta, y, 2);
			g[0] |= y[0] & p->src[0];
			g[1] |= y[1] & p->src[1];
		}
		g[0] &= m[0];
		g[1] &= m[1];
		if (g[0] == f[0] && g[1] == f[1])
			return f[0] == m[0] && f[1] == m[1];
		f[0] = g[0];
		f[1] = g[1];
	}
}

/* Whether the regions pruning is sound and possible for these rows:
 * edges given, few gaps, rows connected, one size per type. Sets vol[]. */
static bool regions_sound(bb128 *b)
{
	if (!(b->flags & BB128_REGIONS) || !b->ngaps || b->gaps_overflow)
		return false;
	for (size_t t = 0; t < b->ntypes; t++)
		b->vol[t] = 0;
	for (size_t i = 0; i < b->nrows; i++) {
		const struct brow *r = &b->rows[i];
		unsigned n = (unsigned)(__builtin_popcountll(r->m[0]) +
		                        __builtin_popcountll(r->m[1]));
		if (!n || (b->vol[r->type] && b->vol[r->type] != n))
			return false;
		b->vol[r->type] = n;
		if (!connected(b, r->m))
			return false;
	}
	return true;
}

/* Whether the rule against holes is sound and possible for these rows:
 * asked for, two words, edges given, few gaps, and no row with a cell
 * that has no neighbour in it (a row with two cells or more of a
 * connected piece). Sets hv's gaps. */
static bool holes_sound(bb128 *b)
{
	if (!(b->flags & BB128_HOLES) || b->W != 2 || !b->ngaps ||
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
		const uint64_t *m = b->rows[i].m;
		uint64_t n[2];
		near2(h, m, n);
		if ((m[0] & ~n[0]) | (m[1] & ~n[1]))
			return false;
	}
	return true;
}

/* Set up a search: counters, and (once, until the rows, edges or flags
 * change) the regions pruning, the rule against holes and level 0: every
 * row, grouped by type (a counting sort, stable). */
static void start(bb128 *b, uint64_t max_nodes, xc_visit visit, void *ctx)
{
	size_t T = b->ntypes;
	b->nodes = 0;
	b->covers = 0;
	b->dead = 0;
	b->max_nodes = max_nodes;
	/* with a poll function, max_nodes is the first allowance, 0 too */
	b->limit = max_nodes || b->poll ? max_nodes : UINT64_MAX;
	b->visit = visit;
	b->ctx = ctx;
	b->stop = XC_DONE;
	if (b->level0)
		return;
	b->level0 = true;
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
		b->lm[0][k] = b->rows[i].m[0];
		if (b->W == 2)
			b->lm[1][k] = b->rows[i].m[1];
		b->li[k] = b->rows[i].id;
	}
	for (size_t t = T; t > 0; t--)
		g[t] = g[t - 1];
	g[0] = 0;
}

/* Whether the root branches on the rows of the 'first' type. */
static bool first_at_root(const bb128 *b)
{
	return b->first < b->ntypes && b->count[b->first] != 0;
}

/* Blank level 0's i-th row: a mask of every cell clashes with any row. */
static void blank(bb128 *b, uint32_t i)
{
	b->lm[0][i] = ~(uint64_t)0;
	if (b->W == 2)
		b->lm[1][i] = ~(uint64_t)0;
}

/* Put back level 0's rows of the first type that the root blanked. */
static void unblank(bb128 *b)
{
	size_t f = b->first;
	for (size_t i = 0, k = b->goff[f]; i < b->nrows; i++)
		if (b->rows[i].type == f) {
			b->lm[0][k] = b->rows[i].m[0];
			if (b->W == 2)
				b->lm[1][k] = b->rows[i].m[1];
			k++;
		}
}

/* node() at level d, for the words in use. */
static void node_at(bb128 *b, size_t d, const uint64_t *filled,
                    const uint64_t *any)
{
	if (b->W == 1)
		node1(b, d, filled, any);
	else
		node2(b, d, filled, any);
}

static void run(bb128 *b)
{
	size_t T = b->ntypes;
	const uint32_t *g = b->goff;
	if (!first_at_root(b)) {
		uint64_t any[2] = {0, 0}, none[2] = {0, 0};
		for (uint32_t i = 0; i < g[T]; i++) {
			any[0] |= b->lm[0][i];
			if (b->W == 2)
				any[1] |= b->lm[1][i];
		}
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

/* Forget the path bb128_solve_task kept: rem and level 0 as they were. */
static void drop_replay(bb128 *b)
{
	for (size_t k = 0; k < b->rlen; k++)
		b->rem[b->rtype[k]]++;
	b->rlen = 0;
	if (b->rbl)
		unblank(b);
	b->rbl = 0;
}

enum xc_stop bb128_solve(bb128 *b, uint64_t max_nodes, xc_visit visit,
                         void *ctx, uint64_t *nodes)
{
	drop_replay(b);
	start(b, max_nodes, visit, ctx);
	run(b);
	*nodes = b->nodes;
	return b->stop;
}

void bb128_set_poll(bb128 *b, xc_poll poll, void *ctx)
{
	b->poll = poll;
	b->pctx = ctx;
}

/* Iterative deepening, as xc_split(). */
int bb128_split(bb128 *b, size_t want, uint64_t max_nodes,
                struct xc_tasks *out, enum xc_stop *stop)
{
	xc_poll poll = b->poll;
	b->poll = NULL;
	b->tasks = out;
	drop_replay(b);
	int rc = XC_OK;
	for (size_t d = 1;; d++) {
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
		if (b->stop != XC_DONE || out->n >= want || b->cut_hits == 0)
			break;
	}
	b->tasks = NULL;
	b->poll = poll;
	return rc;
}

/* Level d's index of the row numbered 'id', and its type. */
static uint32_t find_in_level(const bb128 *b, size_t d, size_t id,
                              size_t *type)
{
	const uint32_t *g = b->goff + d * (b->ntypes + 1);
	const uint32_t *li = b->li + d * b->stride;
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

/* Replay task k's rows as place() put them (their nodes were counted by
 * bb128_split; so were the checks they passed, the regions among them),
 * then search below. The steps it shares with the path replayed last
 * are kept (see struct bb128). */
enum xc_stop bb128_solve_task(bb128 *b, const struct xc_tasks *t, size_t k,
                              uint64_t max_nodes, xc_visit visit, void *ctx,
                              uint64_t *nodes)
{
	assert(k < t->n);
	const size_t *path = t->step + t->off[k];
	size_t len = t->off[k + 1] - t->off[k];
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
	uint64_t filled[2] = {0, 0}, any[2] = {0, 0};
	if (p) {
		memcpy(filled, b->rfill + 2 * (p - 1), sizeof filled);
		memcpy(any, b->rany + 2 * (p - 1), sizeof any);
	}
	size_t d = p;
	for (; d < len; d++) {
		i = find_in_level(b, d, path[d], &type);
		size_t at = d * b->stride + i;
		uint64_t m[2] = {b->lm[0][at], b->W == 2 ? b->lm[1][at] : 0};
		b->path[d] = path[d];
		filled[0] |= m[0];
		filled[1] |= m[1];
		if (filled[0] == b->full[0] && filled[1] == b->full[1]) {
			assert(d + 1 == len);
			b->covers++;
			if (!b->visit(b->ctx, b->path, d + 1))
				b->stop = XC_VISITOR;
			break;
		}
		b->rem[type]--;
		uint64_t empty[2] = {b->full[0] & ~filled[0],
		                     b->full[1] & ~filled[1]};
		if (b->W == 1)
			filter(b, d, m, empty, any, 1);
		else
			filter(b, d, m, empty, any, 2);
		if (d == 0 && b->drops.n)
			drop_below(b, path[0], any);
		memcpy(b->rfill + 2 * d, filled, sizeof filled);
		memcpy(b->rany + 2 * d, any, sizeof any);
		b->rtype[d] = (uint32_t)type;
		b->rlen = d + 1;
	}
	if (d == len)
		node_at(b, len, filled, any);
	*nodes = b->nodes;
	return b->stop;
}

bb128 *bb128_clone(const bb128 *b)
{
	bb128 *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *b;
	size_t nt = b->ntypes ? b->ntypes : 1, lists = (b->depth + 1) * b->stride;
	if (!lists)
		lists = 1;
	/* every pointer replaced before any check, so bb128_free(c) frees
	 * only c's own */
	c->rem = malloc(nt * sizeof *c->rem);
	c->count = malloc(nt * sizeof *c->count);
	c->vol = malloc(nt * sizeof *c->vol);
	c->rows = malloc((b->cap ? b->cap : 1) * sizeof *c->rows);
	c->lm[0] = malloc(lists * sizeof *c->lm[0]);
	c->lm[1] = b->W == 2 ? malloc(lists * sizeof *c->lm[1]) : NULL;
	c->li = malloc(lists * sizeof *c->li);
	c->goff = malloc((b->depth + 1) * (b->ntypes + 1) * sizeof *c->goff);
	c->path = malloc(b->depth * sizeof *c->path);
	c->rfill = malloc(2 * b->depth * sizeof *c->rfill);
	c->rany = malloc(2 * b->depth * sizeof *c->rany);
	c->rtype = malloc(b->depth * sizeof *c->rtype);
	int dr = drops_copy(&c->drops, &b->drops);
	c->tasks = NULL;
	c->cut = SIZE_MAX;
	c->level0 = false;
	c->rlen = 0;
	c->rbl = 0;
	if (!c->rem || !c->count || !c->vol || !c->rows || !c->lm[0] ||
	    (b->W == 2 && !c->lm[1]) || !c->li || !c->goff || !c->path ||
	    !c->rfill || !c->rany || !c->rtype || dr != XC_OK) {
		bb128_free(c);
		return NULL;
	}
	/* counts as added: the original's replay (if any) is not copied */
	memcpy(c->rem, b->count, b->ntypes * sizeof *c->rem);
	memcpy(c->count, b->count, b->ntypes * sizeof *c->count);
	memcpy(c->vol, b->vol, b->ntypes * sizeof *c->vol);
	if (b->nrows)
		memcpy(c->rows, b->rows, b->nrows * sizeof *c->rows);
	/* the lists are rebuilt by the first search: nothing to copy */
	return c;
}

uint64_t bb128_dead_ends(const bb128 *b)
{
	return b->dead;
}
