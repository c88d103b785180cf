/*
 * bb.c: the 64-cell bitboard engine.
 *
 * Workload: Soma, pentacube boxes, Bedlam: a dozen pieces, a few thousand
 * rows, up to tens of millions of nodes.
 *
 * Algorithm X on bitboards. Every search level keeps the list of rows
 * still placeable (no cell filled, copies of the type left) as a plain
 * array of 64-bit masks, grouped by type. At a node:
 *   - count(): one pass over the list gives, for all 64 cells at once, the
 *     number of rows covering each (bit-sliced counters, exact up to 31),
 *     and the group sizes give each type's;
 *   - branch on the empty cell with the fewest rows (ties: the first in
 *     the caller's fill order), or on a single-copy type with fewer still
 *     (MRV, as DLX does with its items);
 *   - for each branch row: covered() checks that every empty cell keeps a
 *     row that goes with it (most branches fail here; it is a vector pass
 *     that stops as soon as the check holds), then filter() copies the
 *     rows that go with it into the next level's list. On AVX-512 the
 *     check is left to the next node, which ends where a cell has no row
 *     (check_first()).
 * An empty cell no row covers, or a type with fewer rows than copies left,
 * ends the branch.
 *
 * The three passes over a list (and the gathering of a cell's rows) run
 * on the best the CPU has: AVX-512 (bbvec.c, eight rows at a time), AVX2
 * (bbvec2.c, four at a time) or the portable loops here (Bedlam on one
 * thread of an AMD Zen 4: 2.58 s, 2.92 s, 5.98 s); so do the type checks
 * of a node. Where the CPU has the instructions, a node of at most 128
 * rows hands its whole subtree to bbmx.c, which searches it on that one
 * list as bit matrices instead of copying lists (Bedlam 2.16 s). All give
 * the same lists, or the same choices, in the same order, so the same
 * nodes and covers; bb_set_kernels() picks a lower level, which the tests
 * compare with the portable one.
 *
 * Every cover is found exactly once: at each node every cover extending
 * the partial one covers the chosen cell (or places the chosen single-copy
 * type) by exactly one of its rows, and each of those rows is one branch.
 * Copies of a type share one group, counted down by 'rem', so a set of
 * rows is never found in two orders.
 *
 * bb.c and bbmx.c call each other (bb_int.h): this file calls
 * bbmx_usable() and bbmx_node(), and bbmx.c calls back bb_spent() and
 * bb_path_of(). The loop is the simplest shape: the matrix phase is a
 * stretch of this search and must count nodes and number covers as it does.
 */
#include "solver/bb.h"
#include "solver/bb_int.h"
#include "solver/bbvec.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

bb *bb_new(size_t ncells, const unsigned *rank, size_t ntypes,
           const unsigned *counts)
{
	if (ncells == 0 || ncells > 64)
		return NULL;
	bb *b = calloc(1, sizeof *b);
	if (!b)
		return NULL;
	b->ncells = ncells;
	b->full = ncells == 64 ? ~(uint64_t)0 : ((uint64_t)1 << ncells) - 1;
	b->ntypes = ntypes;
	b->first = ntypes;
	b->cut = SIZE_MAX;
	b->inorder = true;
	bb_set_kernels(b, BB_MATRIX);
	size_t nt = ntypes ? ntypes : 1;
	b->tcap = nt;
	b->rem = malloc(nt * sizeof *b->rem);
	b->count = malloc(nt * sizeof *b->count);
	size_t depth = 1;
	for (size_t t = 0; t < ntypes; t++)
		depth += counts[t];
	b->depth = depth;
	b->dcap = depth;
	b->path = malloc(depth * sizeof *b->path);
	b->pmask = malloc(depth * sizeof *b->pmask);
	b->ptype = malloc(depth * sizeof *b->ptype);
	b->gcap = (depth + 1) * (ntypes + 1);
	b->goff = malloc(b->gcap * sizeof *b->goff);
	b->rfill = malloc(depth * sizeof *b->rfill);
	b->rany = malloc(depth * sizeof *b->rany);
	b->rtype = malloc(depth * sizeof *b->rtype);
	if (!b->rem || !b->count || !b->path || !b->pmask || !b->ptype ||
	    !b->goff || !b->rfill || !b->rany || !b->rtype) {
		bb_free(b);
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

void bb_free(bb *b)
{
	if (!b)
		return;
	free(b->rem);
	free(b->count);
	free(b->rows);
	free(b->lm);
	free(b->li);
	free(b->goff);
	free(b->path);
	free(b->pmask);
	free(b->ptype);
	free(b->byk);
	free(b->pos0);
	drops_clear(&b->drops);
	free(b->rfill);
	free(b->rany);
	free(b->rtype);
	free(b);
}

/* Room for 'cap' rows (more than there is). XC_OK, or XC_ENOMEM /
 * XC_ETOOBIG with the room there was. */
static int grow(bb *b, size_t cap)
{
	if (cap > UINT32_MAX / 2 || cap > SIZE_MAX / 16 / (b->depth + 2))
		return XC_ETOOBIG;
	/* Levels are 'stride' apart, not a power of two, so that the loads
	 * of one level and the stores of the next do not alias in the cache
	 * (4K aliasing); the 40 spare entries also take the vector filters'
	 * last block (bbvec.h: 8 past a list of at most 'cap' rows). */
	size_t stride = cap + 40;
	struct brow *r = realloc(b->rows, cap * sizeof *r);
	if (!r)
		return XC_ENOMEM;
	b->rows = r;
	r = realloc(b->byk, cap * sizeof *r);
	if (!r)
		return XC_ENOMEM;
	b->byk = r;
	uint32_t *p0 = realloc(b->pos0, cap * sizeof *p0);
	if (!p0)
		return XC_ENOMEM;
	b->pos0 = p0;
	/* The search's lists are sized here, so solving cannot fail for
	 * want of memory. Their contents need not be kept: start() fills
	 * them, and a new row makes it run again. On failure the old lists
	 * stay, with the room they had ('rows' and the others above, grown
	 * or not, hold at least as much). */
	uint64_t *lm = malloc((b->depth + 1) * stride * sizeof *lm);
	uint32_t *li = malloc((b->depth + 1) * stride * sizeof *li);
	if (!lm || !li) {
		free(lm);
		free(li);
		return XC_ENOMEM;
	}
	free(b->lm);
	free(b->li);
	b->lm = lm;
	b->li = li;
	b->ldepth = b->depth;
	b->cap = cap;
	b->stride = stride;
	b->level0 = false;
	return XC_OK;
}

int bb_reserve(bb *b, size_t rows)
{
	return rows > b->cap ? grow(b, rows) : XC_OK;
}

/* realloc() of p to n items of 'size' bytes; p itself, with '*ok'
 * cleared, when out of memory. */
static void *resized(void *p, size_t n, size_t size, bool *ok)
{
	void *q = realloc(p, n * size);
	if (!q)
		*ok = false;
	return q ? q : p;
}

int bb_reset(bb *b, size_t ntypes, const unsigned *counts)
{
	size_t depth = 1, nt = ntypes ? ntypes : 1;
	for (size_t t = 0; t < ntypes; t++)
		depth += counts[t];
	bool ok = true;
	if (nt > b->tcap) {
		b->rem = resized(b->rem, nt, sizeof *b->rem, &ok);
		b->count = resized(b->count, nt, sizeof *b->count, &ok);
		if (!ok)
			return XC_ENOMEM;
		b->tcap = nt;
	}
	if (depth > b->dcap) {
		b->path = resized(b->path, depth, sizeof *b->path, &ok);
		b->pmask = resized(b->pmask, depth, sizeof *b->pmask, &ok);
		b->ptype = resized(b->ptype, depth, sizeof *b->ptype, &ok);
		b->rfill = resized(b->rfill, depth, sizeof *b->rfill, &ok);
		b->rany = resized(b->rany, depth, sizeof *b->rany, &ok);
		b->rtype = resized(b->rtype, depth, sizeof *b->rtype, &ok);
		if (!ok)
			return XC_ENOMEM;
		b->dcap = depth;
	}
	size_t go = (depth + 1) * (ntypes + 1);
	if (go > b->gcap) {
		b->goff = resized(b->goff, go, sizeof *b->goff, &ok);
		if (!ok)
			return XC_ENOMEM;
		b->gcap = go;
	}
	b->depth = depth;
	/* the lists: a level for each piece */
	if (b->cap && depth > b->ldepth && grow(b, b->cap) != XC_OK)
		return XC_ENOMEM;
	memcpy(b->rem, counts, ntypes * sizeof *counts);
	memcpy(b->count, counts, ntypes * sizeof *counts);
	b->ntypes = ntypes;
	b->nrows = 0;
	b->first = ntypes;
	b->cut = SIZE_MAX;
	b->cut_hits = 0;
	b->tasks = NULL;
	b->split_oom = false;
	b->inorder = true;
	b->level0 = false;
	b->vouched = false;
	b->holes = false;
	b->ids = false;
	b->poll = NULL;
	b->pctx = NULL;
	b->rlen = 0;
	b->rbl = 0;
	b->nodes = b->covers = b->dead = 0;
	drops_clear(&b->drops);
	return XC_OK;
}

int bb_add_rows(bb *b, const uint64_t *cells, size_t n, size_t type)
{
	if (n == 0)
		return XC_OK;
	if (n > b->cap - b->nrows) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap - b->nrows < n && cap <= UINT32_MAX)
			cap *= 2;
		int rc = grow(b, cap);
		if (rc != XC_OK)
			return rc;
	}
	/* still in order: each row after the last one's type, or above
	 * its mask */
	bool in = b->inorder;
	const struct brow *l = b->nrows ? &b->rows[b->nrows - 1] : NULL;
	struct brow *r = b->rows + b->nrows;
	for (size_t i = 0; i < n; i++) {
		uint64_t m = cells[i];
		if (!b->ranked) {
			m = 0;
			for (uint64_t c = cells[i]; c; c &= c - 1)
				m |= (uint64_t)1 << b->rank[__builtin_ctzll(c)];
		}
		if (i)
			in &= r[i - 1].mask < m;
		else if (l)
			in &= l->type < type || (l->type == type && l->mask < m);
		r[i] = (struct brow){m, (uint32_t)type, (uint32_t)(b->nrows + i)};
	}
	b->inorder = in;
	b->nrows += n;
	b->level0 = false;
	return XC_OK;
}

int bb_add_row(bb *b, uint64_t cells, size_t type)
{
	return bb_add_rows(b, &cells, 1, type);
}

void bb_set_first(bb *b, size_t type)
{
	b->first = type;
}

bool bb_set_grid(bb *b, unsigned X, unsigned Y, unsigned Z)
{
	if (!X || !Y || !Z || (uint64_t)X * Y * Z != b->ncells)
		return false;
	const unsigned ext[3] = {X, Y, Z}, step[3] = {1, X, X * Y};
	struct bb_holes *h = &b->grid;
	*h = (struct bb_holes){0};
	for (unsigned c = 0; c < b->ncells; c++) {
		const unsigned at[3] = {c % X, c / X % Y, c / (X * Y)};
		for (int k = 0; k < 3; k++) {
			h->lo[k] |= (uint64_t)(at[k] == 0) << c;
			h->hi[k] |= (uint64_t)(at[k] == ext[k] - 1) << c;
		}
	}
	/* an axis of one cell has no neighbours along it: its masks are
	 * every cell, and a step of 0 keeps every shift below 64 */
	for (int k = 0; k < 3; k++)
		h->sh[k] = ext[k] > 1 ? step[k] : 0;
	b->gridded = true;
	b->level0 = false; /* start() checks the rows again */
	return true;
}

void bb_rows_connected(bb *b)
{
	b->vouched = true;
}

int bb_drop_below(bb *b, size_t root, const size_t *drop, size_t n)
{
	return drops_add(&b->drops, b->nrows, root, drop, n);
}

enum bb_kernels bb_set_kernels(bb *b, enum bb_kernels k)
{
	assert(k == BB_PORTABLE || k == BB_AVX2 || k == BB_AVX512 ||
	       k == BB_MATRIX);
	if (k == BB_MATRIX && !(bbvec_usable() && bbmx_usable()))
		k = BB_AVX512;
	if (k == BB_AVX512 && !bbvec_usable())
		k = BB_AVX2;
	if (k == BB_AVX2 && !bbvec_avx2_usable())
		k = BB_PORTABLE;
	b->matrix = k == BB_MATRIX;
	b->kern = b->matrix ? BB_AVX512 : k;
	return k;
}

#if defined(__GNUC__) && !defined(BB_NO_VEC)
/* Two rows at a time with GCC's generic vectors (SSE2 on a plain x86-64
 * build); the scalar loops alone elsewhere, or with -DBB_NO_VEC. */
typedef uint64_t v2 __attribute__((vector_size(16)));
#define BB_VEC 1
#endif

/* Filter level d's list by the placed row 'rm' (its type already counted
 * down; 'empty' the cells left) into level d + 1; returns the union of the
 * rows kept. Below a node of more than BBMX_ROWS rows the rule against
 * holes applies, when it does at all: above the matrix phase, which does
 * not apply it, so that every level of kernels gives the same lists. */
static uint64_t filter(bb *b, size_t d, uint64_t rm, uint64_t empty)
{
	size_t T = b->ntypes;
	const uint32_t *restrict g = b->goff + d * (T + 1);
	struct bb_holes hv;
	const struct bb_holes *h = NULL;
	if (b->holes && g[T] > BBMX_ROWS) {
		hv = b->grid;
		hv.empty = empty;
		h = &hv;
	}
	uint32_t *restrict og = b->goff + (d + 1) * (T + 1);
	const uint64_t *restrict pm = b->lm + d * b->stride;
	const uint32_t *restrict pi = b->ids ? b->li + d * b->stride : NULL;
	uint64_t *restrict om = b->lm + (d + 1) * b->stride;
	uint32_t *restrict oi = b->ids ? b->li + (d + 1) * b->stride : NULL;
	const unsigned *restrict rem = b->rem;
	switch (b->kern) {
	case BB_MATRIX: /* never: 'matrix' says so, the lists are AVX-512's */
	case BB_AVX512:
		return bbvec_filter(pm, pi, g, rem, T, rm, h, om, oi, og);
	case BB_AVX2:
		return bbvec_avx2_filter(pm, pi, g, rem, T, rm, h, om, oi, og);
	case BB_PORTABLE:
		break;
	}
	uint64_t any = 0;
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		uint32_t i = g[t], end = g[t + 1];
#ifdef BB_VEC
		/* the rule, two rows at a time: no branch on its outcome,
		 * which is random */
		for (; h && end - i >= 2; i += 2) {
			v2 m, e, n = {0, 0};
			memcpy(&m, pm + i, sizeof m);
			e = hv.empty & ~m;
			for (int a = 0; a < 3; a++)
				n |= (e & ~hv.hi[a]) << hv.sh[a] |
				     (e & ~hv.lo[a]) >> hv.sh[a];
			v2 bad = (m & rm) | (e & ~n);
			for (int j = 0; j < 2; j++) {
				uint64_t keep = bad[j] == 0;
				om[k] = m[j];
				if (oi)
					oi[k] = pi[i + (uint32_t)j];
				k += (uint32_t)keep;
				any |= m[j] & -keep;
			}
		}
#endif
		for (; i < end; i++) {
			uint64_t m = pm[i];
			uint64_t keep = ((m & rm) == 0) &
			                (uint64_t)!(h && bb_isolates(h, m));
			om[k] = m;
			if (oi)
				oi[k] = pi[i];
			k += (uint32_t)keep;
			any |= m & -keep;
		}
	}
	og[T] = k;
	return any;
}

/* Whether some row of pm[i..end) that does not clash with rm covers each
 * cell of 'empty' not in '*any' (which collects the rows' union); stops
 * as soon as it does. */
static bool cover_range(const uint64_t *pm, uint32_t i, uint32_t end,
                        uint64_t rm, uint64_t empty, uint64_t *any)
{
	uint64_t a = *any;
#ifdef BB_VEC
	v2 rv = {rm, rm}, a0 = {0, 0}, a1 = {0, 0};
	while (end - i >= 16) {
		for (int j = 0; j < 4; j++, i += 4) {
			v2 m0, m1;
			memcpy(&m0, pm + i, sizeof m0);
			memcpy(&m1, pm + i + 2, sizeof m1);
			v2 x0 = m0 & rv, x1 = m1 & rv;
			/* all ones when x == 0: no 64-bit compare in SSE2 */
			a0 |= m0 & (((x0 | -x0) >> 63) - 1);
			a1 |= m1 & (((x1 | -x1) >> 63) - 1);
		}
		v2 u = a0 | a1;
		if ((a | u[0] | u[1]) == empty) {
			*any = empty;
			return true;
		}
	}
	v2 u = a0 | a1;
	a |= u[0] | u[1];
#endif
	for (; i < end; i++) {
		uint64_t m = pm[i];
		a |= (m & rm) ? 0 : m;
	}
	*any = a;
	return a == empty;
}

/* cover_range() on b's kernels. */
static bool cover_on(const bb *b, const uint64_t *pm, uint32_t i,
                     uint32_t end, uint64_t rm, uint64_t empty, uint64_t *any)
{
	switch (b->kern) {
	case BB_MATRIX: /* never, as in filter() */
	case BB_AVX512:
		return bbvec_cover(pm, i, end, rm, empty, any);
	case BB_AVX2:
		return bbvec_avx2_cover(pm, i, end, rm, empty, any);
	case BB_PORTABLE:
		break;
	}
	return cover_range(pm, i, end, rm, empty, any);
}

/* Whether, once the row 'rm' of type 'rt' is placed (and counted down),
 * every cell of 'empty' is still covered by some row of level d's list
 * that could go with it: a cheaper test than filter(), that most dead
 * placements fail, and that stops as soon as it holds. Rows of other
 * exhausted types are not in the list (filter() dropped them). */
static bool covered(const bb *b, size_t d, uint64_t rm, size_t rt,
                    uint64_t empty)
{
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	const uint64_t *pm = b->lm + d * b->stride;
	uint64_t any = 0;
	if (b->rem[rt])
		return cover_on(b, pm, 0, g[T], rm, empty, &any);
	return cover_on(b, pm, 0, g[rt], rm, empty, &any) ||
	       cover_on(b, pm, g[rt + 1], g[T], rm, empty, &any);
}

/* Whether place() runs covered() before filter(). filter() drops every
 * row covered() looks at that clashes, and more (rows of a type used up,
 * rows that leave a hole), so a placement covered() refuses leaves
 * node() a cell no row of its list covers, and node() ends there: the
 * same nodes, dead ends and covers either way, only the cost differs.
 * The check pays where a pass of the filter costs more than one of the
 * check: the portable loops (the 3x4x5 pentacubes 1.21 to 1.25 s with
 * it, 1.32 to 1.36 s without; AVX2 within the noise). On AVX-512 the
 * filter is about as cheap, and a placement that passes would pay for
 * both: without it Bedlam takes 1.37 to 1.38 s instead of 1.42 to 1.48,
 * the Tetris cube 1 to 2 % less (one core, AMD Zen 5, the builds in
 * turn). While splitting it stays: node() records a task before it
 * looks. */
static bool check_first(const bb *b)
{
	return b->kern != BB_AVX512 || b->cut != SIZE_MAX;
}

/* Cell counters of level d's list: bit c of c0..c4 is bit 0..4 of the
 * number of rows covering cell c; 'sat' set when it reached 32. */
struct cnt {
	uint64_t c0, c1, c2, c3, c4, sat;
};

/* Add the rows x (one bit per cell) to the bit-sliced counters. */
#define CNT_ADD(T, c0, c1, c2, c3, c4, sat, x) do {                     \
		T k_ = (c0) & (x);                          \
		(c0) ^= (x);                                            \
		T l_ = (c1) & k_;                           \
		(c1) ^= k_;                                             \
		k_ = (c2) & l_;                                         \
		(c2) ^= l_;                                             \
		l_ = (c3) & k_;                                         \
		(c3) ^= k_;                                             \
		(sat) |= (c4) & l_;                                     \
		(c4) ^= l_;                                             \
	} while (0)

/* a + b, saturating at 32. */
static struct cnt cnt_sum(struct cnt a, struct cnt b)
{
	uint64_t x[5] = {a.c0, a.c1, a.c2, a.c3, a.c4};
	uint64_t y[5] = {b.c0, b.c1, b.c2, b.c3, b.c4};
	uint64_t carry = 0;
	for (int j = 0; j < 5; j++) {
		uint64_t h = x[j] ^ y[j];
		uint64_t s = h ^ carry;
		carry = (x[j] & y[j]) | (carry & h);
		x[j] = s;
	}
	return (struct cnt){x[0], x[1], x[2], x[3], x[4],
	                    a.sat | b.sat | carry};
}

static struct cnt count(const bb *b, size_t d)
{
	const uint64_t *restrict lm = b->lm + d * b->stride;
	uint32_t n = b->goff[d * (b->ntypes + 1) + b->ntypes];
	if (b->kern != BB_PORTABLE) {
		uint64_t c[6];
		if (b->kern == BB_AVX512)
			bbvec_count(lm, n, c);
		else
			bbvec_avx2_count(lm, n, c);
		return (struct cnt){c[0], c[1], c[2], c[3], c[4], c[5]};
	}
	uint64_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, sat = 0;
	uint32_t i = 0;
	struct cnt r = {0, 0, 0, 0, 0, 0};
#ifdef BB_VEC
	if (n >= 8) {
		/* two lanes, each its own counters */
		v2 z = {0, 0};
		v2 d0 = z, d1 = z, d2 = z, d3 = z, d4 = z, ds = z;
		for (; n - i >= 2; i += 2) {
			v2 m;
			memcpy(&m, lm + i, sizeof m);
			CNT_ADD(v2, d0, d1, d2, d3, d4, ds, m);
		}
		r = cnt_sum((struct cnt){d0[0], d1[0], d2[0], d3[0], d4[0], ds[0]},
		            (struct cnt){d0[1], d1[1], d2[1], d3[1], d4[1], ds[1]});
	}
#endif
	for (; i < n; i++) {
		uint64_t x = lm[i];
		CNT_ADD(uint64_t, c0, c1, c2, c3, c4, sat, x);
	}
	return cnt_sum(r, (struct cnt){c0, c1, c2, c3, c4, sat});
}

/* The empty cell with the fewest rows in level d's list, counted
 * exactly (ties: the first in the fill order); '*best' its count.
 * Ripple-carry counters: a row's carry dies after two slices on
 * average. */
static unsigned least_exact(const bb *b, size_t d, uint64_t empty,
                            unsigned *best)
{
	const uint64_t *lm = b->lm + d * b->stride;
	uint32_t n = b->goff[d * (b->ntypes + 1) + b->ntypes];
	uint64_t c[32] = {0};
	for (uint32_t i = 0; i < n; i++)
		for (uint64_t k = lm[i], j = 0; k && j < 32; j++) {
			uint64_t t = c[j] & k;
			c[j] ^= k;
			k = t;
		}
	unsigned cell = (unsigned)__builtin_ctzll(empty);
	uint64_t low = UINT64_MAX;
	for (uint64_t x = empty; x; x &= x - 1) {
		unsigned bit = (unsigned)__builtin_ctzll(x);
		uint64_t v = 0;
		for (int j = 0; j < 32; j++)
			v |= (c[j] >> bit & 1) << j;
		if (v < low) {
			low = v;
			cell = bit;
		}
	}
	*best = low > UINT32_MAX ? UINT32_MAX : (unsigned)low;
	return cell;
}

static void place(bb *b, size_t d, uint64_t filled, uint32_t i, size_t t);

/* The number of the row of type t with mask m (one, since !b->ids). */
static size_t row_number(const bb *b, size_t t, uint64_t m)
{
	size_t lo = b->goff[t], hi = b->goff[t + 1];
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->byk[mid].mask <= m)
			lo = mid;
		else
			hi = mid;
	}
	assert(b->byk[lo].mask == m && b->byk[lo].type == t);
	return b->byk[lo].id;
}

const size_t *bb_path_of(bb *b, size_t len)
{
	if (!b->ids)
		for (size_t k = 0; k < len; k++)
			b->path[k] = row_number(b, b->ptype[k], b->pmask[k]);
	return b->path;
}

/* Level 1's list without the rows left out below the root row 'root'
 * (bb_drop_below); returns the union of the rows kept ('any', that of
 * the list as it is, when none are left out there). */
static uint64_t drop_below(bb *b, size_t root, uint64_t any)
{
	const uint64_t *bits = drops_of(&b->drops, root);
	if (!bits)
		return any;
	size_t T = b->ntypes;
	uint32_t *g = b->goff + (T + 1);
	uint64_t *lm = b->lm + b->stride;
	uint32_t *li = b->ids ? b->li + b->stride : NULL;
	uint32_t k = 0;
	any = 0;
	for (size_t t = 0; t < T; t++) {
		uint32_t i = g[t], end = g[t + 1];
		g[t] = k;
		for (; i < end; i++) {
			size_t id = li ? li[i] : row_number(b, t, lm[i]);
			if (id < 64 * b->drops.words && drops_has(bits, id))
				continue;
			lm[k] = lm[i];
			if (li)
				li[k] = li[i];
			any |= lm[k++];
		}
	}
	g[T] = k;
	return any;
}

/* Splitting: the rows placed so far, path[0..len-1], are a task. */
static void record(bb *b, size_t len)
{
	if (xc_tasks_add(b->tasks, bb_path_of(b, len), len)) {
		b->cut_hits += len == b->cut;
		return;
	}
	b->split_oom = true;
	b->stop = XC_VISITOR;
}

bool __attribute__((noinline)) bb_spent(bb *b)
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

/* Branch at level d: the list holds the placeable rows, 'any' is their
 * union. */
static void node(bb *b, size_t d, uint64_t filled, uint64_t any)
{
	if (b->cut == d) {
		record(b, d);
		return;
	}
	uint64_t empty = b->full & ~filled;
	if (empty & ~any)
		return;
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	if (b->matrix && d > 0 && g[T] <= BBMX_ROWS &&
	    T <= BBMX_TYPES && b->cut == SIZE_MAX) {
		bbmx_node(b, d, filled);
		return;
	}
	/* a type with fewer rows than copies ends the branch; else the
	 * single-copy type with the fewest rows (the first of them) */
	size_t bt = T;
	unsigned tbest = UINT32_MAX;
	if (b->kern == BB_AVX512) {
		if (!bbvec_types(g, b->rem, b->count, T, &tbest, &bt))
			return;
	} else if (b->kern == BB_AVX2) {
		if (!bbvec_avx2_types(g, b->rem, b->count, T, &tbest, &bt))
			return;
	} else {
		for (size_t t = 0; t < T; t++) {
			unsigned n = g[t + 1] - g[t];
			if (n < b->rem[t])
				return;
			if (b->rem[t] && b->count[t] == 1 && n < tbest) {
				tbest = n;
				bt = t;
			}
		}
	}
	struct cnt cn = count(b, d);
	/* The empty cells with the fewest rows, from the top slice down:
	 * keep those with a 0 in slice j if there are any. Every empty cell
	 * has a row (checked above). */
	uint64_t cand = ~cn.sat & empty;
	unsigned best = 0;
	if (cand) {
		const uint64_t sl[5] = {cn.c0, cn.c1, cn.c2, cn.c3, cn.c4};
		for (int j = 4; j >= 0; j--) {
			uint64_t x = cand & ~sl[j];
			cand = x ? x : cand;
		}
		unsigned c = (unsigned)__builtin_ctzll(cand);
		for (int j = 0; j < 5; j++)
			best |= (unsigned)(sl[j] >> c & 1) << j;
	} else {
		/* Every empty cell has 32 rows or more (near the root): count
		 * exactly, or the top of the tree would branch on the first
		 * cell in the fill order whatever its count. */
		unsigned c = least_exact(b, d, empty, &best);
		cand = (uint64_t)1 << c;
	}
	if (tbest < best)
		best = tbest;
	else
		bt = T;
	const uint64_t *lm = b->lm + d * b->stride;
	if (bt < T) {
		for (uint32_t i = g[bt]; i < g[bt + 1]; i++) {
			place(b, d, filled, i, bt);
			if (b->stop != XC_DONE)
				return;
		}
		return;
	}
	uint64_t cell = cand & -cand;
	if (best < 32) {
		/* Gather the rows covering 'cell' first: fewer than 32
		 * (and room for bbvec.h's last block of 8). */
		uint32_t sel[32 + 8];
		unsigned c = (unsigned)__builtin_ctzll(cell), nsel = 0;
		if (b->kern == BB_AVX512)
			nsel = bbvec_gather(lm, g[T], cell, sel);
		else if (b->kern == BB_AVX2)
			nsel = bbvec_avx2_gather(lm, g[T], cell, sel);
		else
			for (uint32_t i = 0, n = g[T]; i < n; i++) {
				sel[nsel & 31] = i;
				nsel += (unsigned)(lm[i] >> c & 1);
			}
		size_t t = 0;
		for (unsigned j = 0; j < nsel; j++) {
			/* sel[] is in order: its types only go up */
			while (g[t + 1] <= sel[j])
				t++;
			place(b, d, filled, sel[j], t);
			if (b->stop != XC_DONE)
				return;
		}
		return;
	}
	for (size_t t = 0; t < T; t++)
		for (uint32_t i = g[t]; i < g[t + 1]; i++) {
			if (!(lm[i] & cell))
				continue;
			place(b, d, filled, i, t);
			if (b->stop != XC_DONE)
				return;
		}
}

/* Place level d's i-th row (of type t) and search below it. */
static void place(bb *b, size_t d, uint64_t filled, uint32_t i, size_t t)
{
	uint64_t m = b->lm[d * b->stride + i];
	if (!bb_step(b, d, m, t, b->ids ? b->li + d * b->stride : NULL, i))
		return;
	uint64_t nf = filled | m;
	if (nf == b->full) {
		if (b->cut != SIZE_MAX) {
			record(b, d + 1);
			return;
		}
		b->covers++;
		if (!b->visit(b->ctx, bb_path_of(b, d + 1), d + 1))
			b->stop = XC_VISITOR;
		return;
	}
	uint64_t before = b->covers;
	b->rem[t]--;
	if (!check_first(b) || covered(b, d, m, t, b->full & ~nf)) {
		uint64_t any = filter(b, d, m, b->full & ~nf);
		if (d == 0 && b->drops.n)
			any = drop_below(b, b->li[i], any);
		node(b, d + 1, nf, any);
	}
	b->rem[t]++;
	b->dead += b->covers == before;
}

/* Whether row x goes before row y: by mask, then number. */
static bool before(const struct brow *x, const struct brow *y)
{
	return x->mask != y->mask ? x->mask < y->mask : x->id < y->id;
}

/* Sort rows by mask, then number (a total order: numbers differ). Shell
 * sort, inline comparisons: a type has tens to a few thousand rows, and
 * the block generator sets up a search for every proof. */
static void sort_by_mask(struct brow *r, size_t n)
{
	static const size_t gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
	for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
		size_t h = gaps[g];
		for (size_t i = h; i < n; i++) {
			struct brow v = r[i];
			size_t j = i;
			for (; j >= h && before(&v, &r[j - h]); j -= h)
				r[j] = r[j - h];
			r[j] = v;
		}
	}
}

/* Whether no row has a cell without a neighbour in it (the rule
 * against holes holds: a cell with no empty neighbour has no row). */
static bool rows_hold_holes(const bb *b)
{
	for (size_t i = 0; i < b->nrows; i++) {
		uint64_t m = b->rows[i].mask;
		if (m & ~bb_near(&b->grid, m))
			return false;
	}
	return true;
}

/* start()'s level 0 for rows added in order (b->inorder): the rows as
 * they are, numbered by their place, no two alike in a type. */
static void start_inorder(bb *b)
{
	size_t T = b->ntypes, n = b->nrows;
	uint32_t *g = b->goff;
	size_t i = 0;
	for (size_t t = 0; t < T; t++) {
		g[t] = (uint32_t)i;
		while (i < n && b->rows[i].type == t)
			i++;
	}
	g[T] = (uint32_t)n;
	for (i = 0; i < n; i++) {
		b->lm[i] = b->rows[i].mask;
		b->li[i] = (uint32_t)i;
		b->pos0[i] = (uint32_t)i;
	}
	if (n) /* (no rows: no room either) */
		memcpy(b->byk, b->rows, n * sizeof *b->rows);
	b->ids = false;
	b->holes = b->gridded && (b->vouched || rows_hold_holes(b));
}

/* Set up a search: counters, and level 0: every row, grouped by type (a
 * counting sort, stable). */
static void start(bb *b, uint64_t max_nodes, xc_visit visit, void *ctx)
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
	uint32_t *g = b->goff;
	if (b->inorder) {
		start_inorder(b);
		return;
	}
	memset(g, 0, (T + 1) * sizeof *g);
	for (size_t i = 0; i < b->nrows; i++)
		g[b->rows[i].type + 1]++;
	for (size_t t = 0; t < T; t++)
		g[t + 1] += g[t];
	for (size_t i = 0; i < b->nrows; i++) {
		uint32_t k = g[b->rows[i].type]++;
		b->lm[k] = b->rows[i].mask;
		b->li[k] = b->rows[i].id;
		b->byk[k] = b->rows[i];
		b->pos0[i] = k;
	}
	for (size_t t = T; t > 0; t--)
		g[t] = g[t - 1];
	g[0] = 0;
	/* each type's rows by mask (then number), for row_number() */
	b->ids = false;
	for (size_t t = 0; t < T; t++) {
		size_t n = g[t + 1] - g[t];
		if (n < 2)
			continue; /* (no rows at all: no table either) */
		struct brow *r = b->byk + g[t];
		size_t k = 1;
		while (k < n && before(&r[k - 1], &r[k]))
			k++;
		if (k < n) /* rows added in order need no sorting */
			sort_by_mask(r, n);
		for (size_t i = 1; i < n; i++)
			b->ids |= r[i].mask == r[i - 1].mask;
	}
	/* the rule against holes holds when no row has a cell without a
	 * neighbour in it: then a cell with no empty neighbour has no row */
	b->holes = b->gridded && (b->vouched || rows_hold_holes(b));
}

/* Whether the root branches on the rows of the 'first' type. */
static bool first_at_root(const bb *b)
{
	return b->first < b->ntypes && b->count[b->first] != 0;
}

/* Put back level 0's rows of the first type that the root blanked. */
static void unblank(bb *b)
{
	size_t f = b->first;
	if (b->inorder) {
		for (size_t k = b->goff[f]; k < b->goff[f + 1]; k++)
			b->lm[k] = b->rows[k].mask;
		return;
	}
	for (size_t i = 0, k = b->goff[f]; i < b->nrows; i++)
		if (b->rows[i].type == f)
			b->lm[k++] = b->rows[i].mask;
}

static void run(bb *b)
{
	size_t T = b->ntypes;
	uint32_t *g = b->goff;
	if (!first_at_root(b)) {
		uint64_t any = 0;
		for (uint32_t i = 0; i < g[T]; i++)
			any |= b->lm[i];
		node(b, 0, 0, any);
	} else {
		/* The pinned type's rows are the root's branches. Should it
		 * have several copies, the others come from the rows after
		 * the root's: those before are blanked out of level 0 (a mask
		 * of every cell clashes with any row), so a cover is found
		 * once, with its first row of the type at the root. */
		size_t f = b->first;
		for (uint32_t i = g[f]; i < g[f + 1] && b->stop == XC_DONE; i++) {
			if (i > g[f])
				b->lm[i - 1] = ~(uint64_t)0;
			place(b, 0, 0, i, f);
		}
		unblank(b);
	}
}

/* Forget the path bb_solve_task kept: rem and level 0 as they were. */
static void drop_replay(bb *b)
{
	for (size_t k = 0; k < b->rlen; k++)
		b->rem[b->rtype[k]]++;
	b->rlen = 0;
	if (b->rbl)
		unblank(b);
	b->rbl = 0;
}

enum xc_stop bb_solve(bb *b, uint64_t max_nodes, xc_visit visit, void *ctx,
                      uint64_t *nodes)
{
	drop_replay(b);
	start(b, max_nodes, visit, ctx);
	run(b);
	*nodes = b->nodes;
	return b->stop;
}

void bb_set_poll(bb *b, xc_poll poll, void *ctx)
{
	b->poll = poll;
	b->pctx = ctx;
}

/* Iterative deepening, as xc_split(). */
int bb_split(bb *b, size_t want, uint64_t max_nodes, struct xc_tasks *out,
             enum xc_stop *stop)
{
	xc_poll poll = b->poll;
	b->poll = NULL;
	b->tasks = out;
	drop_replay(b);
	for (size_t d = want ? 1 : XC_NO_CUT;; d++) {
		out->n = 0;
		b->cut = d;
		b->cut_hits = 0;
		b->split_oom = false;
		start(b, max_nodes, NULL, NULL);
		run(b);
		b->cut = SIZE_MAX;
		if (b->split_oom) {
			b->poll = poll;
			xc_tasks_clear(out);
			return XC_ENOMEM;
		}
		if (!out->off) {
			out->off = malloc(sizeof *out->off);
			if (!out->off) {
				b->poll = poll;
				return XC_ENOMEM;
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
	b->poll = poll;
	return XC_OK;
}

/* Level d's index of the row numbered 'id', and its type. */
static uint32_t find_in_level(const bb *b, size_t d, size_t id, size_t *type)
{
	size_t t = b->rows[id].type;
	*type = t;
	if (d == 0)
		return b->pos0[id];
	const uint32_t *g = b->goff + d * (b->ntypes + 1);
	uint32_t i = g[t];
	if (b->ids) {
		const uint32_t *li = b->li + d * b->stride;
		while (li[i] != id)
			i++;
	} else {
		const uint64_t *lm = b->lm + d * b->stride;
		while (lm[i] != b->rows[id].mask)
			i++;
	}
	assert(i < g[t + 1]);
	return i;
}

/* Replay task k's rows as place() put them (their nodes were counted by
 * bb_split; so were the checks they passed), then search below. The
 * steps it shares with the path replayed last are kept (see struct bb). */
enum xc_stop bb_solve_task(bb *b, const struct xc_tasks *t, size_t k,
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
		 * are blanked out of level 0 (bb_solve) */
		assert(len >= 1);
		i = find_in_level(b, 0, path[0], &type);
		assert(type == b->first);
		uint32_t g0 = b->goff[type], want = i - g0;
		if (want < b->rbl) {
			unblank(b);
			b->rbl = 0;
		}
		for (uint32_t j = g0 + b->rbl; j < i; j++)
			b->lm[j] = ~(uint64_t)0;
		b->rbl = want;
	}
	uint64_t filled = p ? b->rfill[p - 1] : 0, any = p ? b->rany[p - 1] : 0;
	size_t d = p;
	for (; d < len; d++) {
		i = find_in_level(b, d, path[d], &type);
		uint64_t m = b->lm[d * b->stride + i];
		b->path[d] = path[d];
		b->pmask[d] = m;
		b->ptype[d] = (uint32_t)type;
		filled |= m;
		if (filled == b->full) {
			assert(d + 1 == len);
			b->covers++;
			if (!b->visit(b->ctx, b->path, d + 1))
				b->stop = XC_VISITOR;
			break;
		}
		b->rem[type]--;
		any = filter(b, d, m, b->full & ~filled);
		if (d == 0 && b->drops.n)
			any = drop_below(b, path[0], any);
		b->rfill[d] = filled;
		b->rany[d] = any;
		b->rtype[d] = (uint32_t)type;
		b->rlen = d + 1;
	}
	if (d == len)
		node(b, len, filled, any);
	*nodes = b->nodes;
	return b->stop;
}

bb *bb_clone(const bb *b)
{
	bb *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *b;
	size_t nt = b->ntypes ? b->ntypes : 1, lists = (b->depth + 1) * b->stride;
	c->rem = malloc(nt * sizeof *c->rem);
	c->count = malloc(nt * sizeof *c->count);
	c->rows = malloc((b->cap ? b->cap : 1) * sizeof *c->rows);
	c->byk = malloc((b->cap ? b->cap : 1) * sizeof *c->byk);
	c->pos0 = malloc((b->cap ? b->cap : 1) * sizeof *c->pos0);
	c->lm = malloc((lists ? lists : 1) * sizeof *c->lm);
	c->li = malloc((lists ? lists : 1) * sizeof *c->li);
	c->goff = malloc((b->depth + 1) * (b->ntypes + 1) * sizeof *c->goff);
	c->path = malloc(b->depth * sizeof *c->path);
	c->pmask = malloc(b->depth * sizeof *c->pmask);
	c->ptype = malloc(b->depth * sizeof *c->ptype);
	c->rfill = malloc(b->depth * sizeof *c->rfill);
	c->rany = malloc(b->depth * sizeof *c->rany);
	c->rtype = malloc(b->depth * sizeof *c->rtype);
	int dr = drops_copy(&c->drops, &b->drops);
	c->tasks = NULL;
	c->tcap = nt;
	c->dcap = c->ldepth = b->depth;
	c->gcap = (b->depth + 1) * (b->ntypes + 1);
	c->level0 = false;
	c->rlen = 0;
	c->rbl = 0;
	if (!c->rem || !c->count || !c->rows || !c->byk || !c->pos0 ||
	    !c->lm || !c->li || !c->goff || !c->path || !c->pmask ||
	    !c->ptype || !c->rfill || !c->rany || !c->rtype || dr != XC_OK) {
		bb_free(c);
		return NULL;
	}
	/* counts as added: the original's replay (if any) is not copied */
	memcpy(c->rem, b->count, b->ntypes * sizeof *c->rem);
	memcpy(c->count, b->count, b->ntypes * sizeof *c->count);
	memcpy(c->rows, b->rows, b->nrows * sizeof *c->rows);
	/* the lists are rebuilt by every search: nothing to copy */
	return c;
}

uint64_t bb_dead_ends(const bb *b)
{
	return b->dead;
}
