/*
 * bbwmx.c: bbw.c's matrix phase on boards of two words (goals of 65 to
 * 128 cells) and on the windows of one word their subtrees move to
 * (bbw.c's window()), on AVX-512 (bbw_int.h).
 *
 * Workload: pentacube boxes of 65 to 125 cells (the 70-cell box, the 25
 * Y-pentacubes), where about two thirds of the nodes lie below a node
 * with at most 128 rows left in its list. There, copying two words of
 * every row per node (bbw.c's filter) costs more than the search it
 * feeds.
 *
 * It is bbmx.c's phase with a second word of cells: the rows' masks are
 * two lists of vectors (l[0] cells 0..63, l[1] cells 64..127) and each
 * cell's rows two byte-sliced matrices (z[0], z[1]; mx_int.h); a row
 * clashes when either word meets the row placed, the fewest-rows cell is
 * the least byte of the two counts (ties to the first in the fill order,
 * word 0 first), and a placement's check ORs both matrices. In a window
 * of one word (C = 1 below) only l[0] and z[0] are made and read: on
 * the 70-cell pentacube box that took the count from 0.44 s to 0.34 s,
 * the same nodes (the window had stood aside for the matrix phase).
 *
 * The search is bbw.c's step for step (its AVX-512 path's choices: exact
 * counts, the fewest rows, ties to the first cell, a single-copy type
 * when it has fewer; the same rows in the same order; the same checks;
 * the same nodes, dead ends and covers), so everything written is the
 * same; the tests compare it with the lists and the portable loops. It
 * runs only where bbw.c's node() has nothing else to do: no optional
 * cells (fillers, late cells) and no regions pruning; the rule against
 * holes applies only above 512 rows.
 */
#include "solver/bbw_int.h"
#include "solver/mx_int.h"

#include <assert.h>

#ifdef MX_AVAILABLE

_Static_assert(BBWMX_ROWS == MX_ROWS && BBWMX_TYPES == MX_TYPES,
               "bbw.c's limits are the matrix phase's");

bool bbwmx_usable(void)
{
	return mx_usable();
}

/* One subtree's list, on the stack of bbwmx_node(). */
struct wmx {
	__m512i z[2][16];     /* per word of cells: cell -> rows, sliced */
	__m512i l[2][16];     /* per word of cells: the rows', eight a vector */
	struct mx_types ty;   /* the rows of each type, the single ones */
	const uint64_t *rows[2]; /* the list's words (level d's, untouched) */
	const uint32_t *ids;  /* the rows' numbers */
	size_t ntypes;
	uint8_t type[BBWMX_ROWS]; /* each row's */
};

static void node11(bbw *b, const struct wmx *x, size_t d,
                   const uint64_t *filled, struct rows live);
static void node12(bbw *b, const struct wmx *x, size_t d,
                   const uint64_t *filled, struct rows live);
static void node21(bbw *b, const struct wmx *x, size_t d,
                   const uint64_t *filled, struct rows live);
static void node22(bbw *b, const struct wmx *x, size_t d,
                   const uint64_t *filled, struct rows live);

/* The rows that share a cell with m (C words of cells). */
MXI struct rows clash2(const struct wmx *x, const uint64_t *m, int W, int C)
{
	struct rows a = mx_clash(x->l[0], m[0], W);
	if (C == 2) {
		struct rows c = mx_clash(x->l[1], m[1], W);
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			a.w[w] |= c.w[w];
	}
	return a;
}

/* f placements that failed their check: the nodes and dead ends bbw.c's
 * place() counts one by one; false when the budget ran out first. */
static inline bool failed(bbw *b, unsigned f)
{
	if (b->nodes + f <= b->limit) {
		b->nodes += f;
		b->dead += f;
		return true;
	}
	for (unsigned q = 0; q < f; q++) {
		if (b->nodes >= b->limit && bbw_spent(b))
			return false;
		b->nodes++;
		b->dead++;
	}
	return true;
}

/* bbw.c's place() on row i of type t, once its check has passed: 'next'
 * the rows that go with it. */
MXI void place_w(bbw *b, const struct wmx *x, size_t d,
                 const uint64_t *filled, struct rows next, uint32_t i,
                 size_t t, int W, int C)
{
	if (b->nodes >= b->limit && bbw_spent(b))
		return;
	b->nodes++;
	b->path[d] = x->ids[i];
	uint64_t nf[2] = {filled[0] | x->rows[0][i],
	                  C == 2 ? filled[1] | x->rows[1][i] : 0};
	if (nf[0] == b->full[0] && (C == 1 || nf[1] == b->full[1])) {
		b->covers++;
		if (!b->visit(b->ctx, b->path, d + 1))
			b->stop = XC_VISITOR;
		return;
	}
	uint64_t before = b->covers;
	b->rem[t]--;
	if (C == 1)
		(W == 1 ? node11 : node21)(b, x, d + 1, nf, next);
	else
		(W == 1 ? node12 : node22)(b, x, d + 1, nf, next);
	b->rem[t]++;
	b->dead += b->covers == before;
}

/* bbw.c's node() on the rows 'live'. */
MXI void node_w(bbw *b, const struct wmx *x, size_t d, const uint64_t *filled,
                struct rows live, int W, int C)
{
	uint64_t empty[2] = {b->full[0] & ~filled[0],
	                     C == 2 ? b->full[1] & ~filled[1] : 0};
	size_t bt;
	unsigned tbest;
	if (!mx_check_types(&x->ty, b->rem, x->ntypes, live, W, &tbest, &bt))
		return;
	/* the empty cells with the fewest rows (at most 128: a byte each),
	 * the first of them in the fill order */
	__mmask64 e0 = _cvtu64_mask64(empty[0]), e1 = _cvtu64_mask64(empty[1]);
	__m512i none = _mm512_set1_epi8((char)0xff);
	__m512i n0 = _mm512_mask_blend_epi8(e0, none, mx_counts(x->z[0], live, W));
	__m512i n1 = C == 2 ? _mm512_mask_blend_epi8(e1, none,
	                                             mx_counts(x->z[1], live, W))
	                    : none;
	unsigned best = mx_min_byte(C == 2 ? _mm512_min_epu8(n0, n1) : n0);
	struct rows sel;
	if (tbest < best) {
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			sel.w[w] = x->ty.tm[w][bt] & live.w[w];
	} else {
		__m512i bv = _mm512_set1_epi8((char)best);
		uint64_t c0 = _cvtmask64_u64(_mm512_mask_cmpeq_epi8_mask(e0, n0, bv));
		uint64_t c1 = C == 2 ? _cvtmask64_u64(
		                           _mm512_mask_cmpeq_epi8_mask(e1, n1, bv))
		                     : 0;
		int h = c0 ? 0 : 1;
		uint64_t c = h ? c1 : c0;
		sel = mx_clash(x->l[h], c & -c, W);
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			sel.w[w] &= live.w[w];
	}
	/* Every branch's check first (bbw.c's covered()), as bbmx.c does:
	 * independent, and without a branch on their outcome. */
	struct rows pass = {{0, 0}};
	struct rows next[BBWMX_ROWS];
	unsigned nb = 0;
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		for (uint64_t s = sel.w[w]; s; s &= s - 1, nb++) {
			uint32_t i = 64 * (uint32_t)w + (uint32_t)__builtin_ctzll(s);
			uint64_t m[2] = {x->rows[0][i], C == 2 ? x->rows[1][i] : 0};
			size_t t = x->type[i];
			next[nb] = mx_next(&x->ty, live, clash2(x, m, W, C), t,
			                   b->rem[t] == 1, W);
			/* (a cover: nothing empty, it passes) */
			uint64_t l0 = empty[0] & ~m[0], l1 = empty[1] & ~m[1];
			uint64_t miss0 = l0 & ~mx_covered(x->z[0], next[nb], W);
			uint64_t miss1 = C == 2 ? l1 & ~mx_covered(x->z[1], next[nb], W)
			                        : 0;
			uint64_t ok = (miss0 | miss1) == 0;
			pass.w[w] |= ok << (i & 63);
		}
	/* Then the branches in order, as bbw.c takes them: a run of failed
	 * ones counts its nodes and dead ends at once. */
	struct mx_walk k = mx_walk_of(sel, pass, W);
	uint32_t i;
	unsigned j, f;
	while (mx_walk_next(&k, W, &i, &j, &f)) {
		if (f && !failed(b, f))
			return;
		place_w(b, x, d, filled, next[j], i, x->type[i], W, C);
		if (b->stop != XC_DONE)
			return;
	}
	if (f)
		failed(b, f);
}

/* node_w() for W words of rows and C words of cells. */
#define NODE_WC(W, C)                                                     \
	MX static void node##W##C(bbw *b, const struct wmx *x, size_t d,   \
	                          const uint64_t *filled, struct rows live) \
	{                                                                   \
		node_w(b, x, d, filled, live, W, C);                        \
	}
NODE_WC(1, 1)
NODE_WC(1, 2)
NODE_WC(2, 1)
NODE_WC(2, 2)

MX void bbwmx_node(bbw *b, size_t d, const uint64_t *filled)
{
	struct wmx x;
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	uint32_t n = g[T];
	assert((b->W == 1 || b->W == 2) && d > 0 && n > 0 &&
	       n <= BBWMX_ROWS && T > 0 && T <= BBWMX_TYPES);
	int W = n <= 64 ? 1 : 2, C = b->W;
	b->mx_runs++;
	b->mx1_runs += C == 1;
	x.ntypes = T;
	x.rows[1] = NULL;
	for (int h = 0; h < C; h++) {
		x.rows[h] = b->lm[h] + b->lbase[d];
		mx_load(x.rows[h], n, W, x.l[h], x.z[h]);
	}
	x.ids = b->li + b->lbase[d];
	mx_types_of(g, T, b->count, &x.ty, x.type);
	struct rows live = mx_all(n);
	if (C == 1)
		(W == 1 ? node11 : node21)(b, &x, d, filled, live);
	else
		(W == 1 ? node12 : node22)(b, &x, d, filled, live);
}

#else /* no matrix phase on this compiler or CPU: never called */

bool bbwmx_usable(void)
{
	return false;
}

void bbwmx_node(bbw *b, size_t d, const uint64_t *filled)
{
	(void)b, (void)d, (void)filled;
}

#endif
