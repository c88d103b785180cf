/*
 * bbmx.c: bb.c's matrix phase, on AVX-512 (bb_int.h).
 *
 * Workload: two thirds of Bedlam's 18.5 million nodes lie below a node
 * with at most 128 rows left in its list, and most of their placements
 * fail at once; there, copying a list per node (bb.c's filter) costs more
 * than the search it feeds.
 *
 * Below a node whose list has at most 128 rows, the whole subtree works
 * on that one list, a node's rows a bit set over it and each cell's rows
 * a byte-sliced column (mx_int.h, shared with the wide board's phase,
 * bbwmx.c). Placing a row drops the rows that clash with it (VPTESTMQ on
 * the list, eight rows a test) and, when its type is used up, the type's
 * rows: a node is two words, not a list.
 *
 * The search is bb.c's step for step: the same cell or type branched on
 * (exact counts choose as bb.c's counters do: the fewest rows, ties to the
 * first cell in the fill order, a single-copy type when it has fewer),
 * the same rows in the same order, the same checks (a row placed must
 * leave every empty cell a row; a node, every type its copies), the same
 * nodes, dead ends and covers. So everything written is the same; the
 * tests compare it with the portable loops on every instance they solve.
 * Bedlam on one thread of an AMD Zen 4: 2.16 s instead of 2.58 (3x4x5
 * pentacubes 0.47 s instead of 0.59). Up to 64 rows take one word, up to
 * 128 two; three or four words, up to 254 rows, were slower than the
 * lists, and so was reading the rows from the list instead of a copy.
 *
 * bb.c calls bbmx_usable() and bbmx_node(); this file calls back
 * bb_spent() and bb_path_of() (bb_int.h), so the node budget and the
 * numbering of covers stay bb.c's alone. The loop is the simplest shape:
 * this file is only stubs where AVX-512 cannot be compiled, so those two
 * cannot move here.
 */
#include "solver/bb_int.h"
#include "solver/mx_int.h"

#include <assert.h>

#ifdef MX_AVAILABLE

_Static_assert(BBMX_ROWS == MX_ROWS && BBMX_TYPES == MX_TYPES,
               "bb.c's limits are the matrix phase's");

bool bbmx_usable(void)
{
	return mx_usable();
}

/* One subtree's list, on the stack of bbmx_node(). */
struct mx {
	__m512i z[16];   /* byte-sliced cell -> rows (mx_int.h) */
	__m512i l[16];   /* the rows' masks, eight a vector */
	struct mx_types ty;   /* the rows of each type, the single ones */
	const uint64_t *rows; /* the list (level d's, untouched below it) */
	const uint32_t *ids;  /* the rows' numbers when b->ids, else NULL */
	size_t ntypes;
	uint8_t type[BBMX_ROWS];   /* each row's */
};

static void node1(bb *b, const struct mx *x, size_t d, uint64_t filled,
                  struct rows live);
static void node2(bb *b, const struct mx *x, size_t d, uint64_t filled,
                  struct rows live);

/* f placements that failed their check: the nodes and dead ends bb_step()
 * and place() count one by one; false when the budget ran out first. */
static inline bool failed(bb *b, unsigned f)
{
	if (b->nodes + f <= b->limit) {
		b->nodes += f;
		b->dead += f;
		return true;
	}
	for (unsigned q = 0; q < f; q++) {
		if (b->nodes >= b->limit && bb_spent(b))
			return false;
		b->nodes++;
		b->dead++;
	}
	return true;
}

/* bb.c's place() on row i of type t, once its check has passed: 'next'
 * the rows that go with it. */
MXI void place_w(bb *b, const struct mx *x, size_t d, uint64_t filled,
                 struct rows next, uint32_t i, size_t t, int W)
{
	uint64_t m = x->rows[i];
	if (!bb_step(b, d, m, t, x->ids, i))
		return;
	uint64_t nf = filled | m;
	if (nf == b->full) {
		b->covers++;
		if (!b->visit(b->ctx, bb_path_of(b, d + 1), d + 1))
			b->stop = XC_VISITOR;
		return;
	}
	uint64_t before = b->covers;
	b->rem[t]--;
	if (W == 1)
		node1(b, x, d + 1, nf, next);
	else
		node2(b, x, d + 1, nf, next);
	b->rem[t]++;
	b->dead += b->covers == before;
}

/* bb.c's node() on the rows 'live'. */
MXI void node_w(bb *b, const struct mx *x, size_t d, uint64_t filled,
                struct rows live, int W)
{
	uint64_t empty = b->full & ~filled;
	/* a type with fewer rows than copies ends the branch; else the
	 * single-copy type with the fewest rows (the first of them) */
	size_t bt;
	unsigned tbest;
	if (!mx_check_types(&x->ty, b->rem, x->ntypes, live, W, &tbest, &bt))
		return;
	/* the empty cells with the fewest rows (at most 128: a byte each),
	 * the first of them */
	__mmask64 em = _cvtu64_mask64(empty);
	__m512i n = _mm512_mask_blend_epi8(em, _mm512_set1_epi8((char)0xff),
	                                   mx_counts(x->z, live, W));
	unsigned best = mx_min_byte(n);
	uint64_t least = _cvtmask64_u64(_mm512_mask_cmpeq_epi8_mask(
	    em, n, _mm512_set1_epi8((char)best)));
	struct rows sel;
	if (tbest < best) {
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			sel.w[w] = x->ty.tm[w][bt] & live.w[w];
	} else {
		sel = mx_clash(x->l, least & -least, W);
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			sel.w[w] &= live.w[w];
	}
	/* Every branch's check first (bb.c's covered(): the rows that go
	 * with it leave every empty cell a row): they are independent, and
	 * in a loop without a branch on their outcome, which fails about
	 * half the time, they overlap (2 % on Bedlam). */
	struct rows pass = {{0, 0}};
	struct rows next[BBMX_ROWS];
	unsigned nb = 0;
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		for (uint64_t s = sel.w[w]; s; s &= s - 1, nb++) {
			uint32_t i = 64 * (uint32_t)w + (uint32_t)__builtin_ctzll(s);
			uint64_t m = x->rows[i];
			size_t t = x->type[i];
			next[nb] = mx_next(&x->ty, live, mx_clash(x->l, m, W), t,
			                   b->rem[t] == 1, W);
			/* (a cover: nothing empty, it passes) */
			uint64_t left = b->full & ~(filled | m);
			uint64_t ok = (mx_covered(x->z, next[nb], W) & left) == left;
			pass.w[w] |= ok << (i & 63);
		}
	/* Then the branches in order, as bb.c takes them: a run of failed
	 * ones counts its nodes and dead ends at once. */
	struct mx_walk k = mx_walk_of(sel, pass, W);
	uint32_t i;
	unsigned j, f;
	while (mx_walk_next(&k, W, &i, &j, &f)) {
		if (f && !failed(b, f))
			return;
		place_w(b, x, d, filled, next[j], i, x->type[i], W);
		if (b->stop != XC_DONE)
			return;
	}
	if (f)
		failed(b, f);
}

MX static void node1(bb *b, const struct mx *x, size_t d, uint64_t filled,
                     struct rows live)
{
	node_w(b, x, d, filled, live, 1);
}

MX static void node2(bb *b, const struct mx *x, size_t d, uint64_t filled,
                     struct rows live)
{
	node_w(b, x, d, filled, live, 2);
}

MX void bbmx_node(bb *b, size_t d, uint64_t filled)
{
	struct mx x;
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	const uint64_t *lm = b->lm + d * b->stride;
	uint32_t n = g[T];
	assert(d > 0 && n > 0 && n <= BBMX_ROWS && T > 0 && T <= BBMX_TYPES);
	int W = n <= 64 ? 1 : 2;
	x.ntypes = T;
	x.rows = lm;
	x.ids = b->ids ? b->li + d * b->stride : NULL;
	mx_load(lm, n, W, x.l, x.z);
	mx_types_of(g, T, b->count, &x.ty, x.type);
	struct rows live = mx_all(n);
	if (W == 1)
		node1(b, &x, d, filled, live);
	else
		node2(b, &x, d, filled, live);
}

#else /* no matrix phase on this compiler or CPU: never called */

bool bbmx_usable(void)
{
	return false;
}

void bbmx_node(bb *b, size_t d, uint64_t filled)
{
	(void)b, (void)d, (void)filled;
}

#endif
