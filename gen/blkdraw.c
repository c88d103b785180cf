/*
 * blkdraw.c: the block generator's drawn route (blocks.h). With too many
 * sets of shapes to try each, on a goal of at most BLK_DRAW_CELLS cells,
 * sets are drawn uniformly at random (a table of how many sets each
 * choice of sizes leaves, then shapes within a size) and counted by the
 * prover, each shape given as it lies somewhere in the goal (blkset.c's
 * fits()); the first with exactly one solution that comes apart is the
 * puzzle. 3 x 3 x 3 in six pieces of 4 or 5 cells: about 11 sets a
 * puzzle, 20,000 instructions a count; 4 x 4 x 4 in 13 pieces of 4 to 6
 * cells: one set in tens of thousands, about a millisecond a count.
 *
 * Threads. The sets are drawn one after another from the seed's stream,
 * as on one thread, and only their counts run side by side: a batch of
 * sets is drawn, counted on s->threads threads (each with a prover of
 * its own, which counts a set as the search's own prover would, nodes
 * and first filling alike), then walked in the order drawn, where the
 * first puzzle ends the search, the stream put back as it was after that
 * set's draw. So the puzzle, the attempts, proofs and nodes, and what
 * the stream draws next are the same whatever the threads; sets counted
 * past the puzzle are work thrown away, at most a batch. The first
 * DRAW_ALONE sets are counted on the caller's thread alone (most small
 * searches end there: a batch would cost more than it saves), then
 * batches of DRAW_BATCH sets a thread, doubling up to DRAW_BATCH_MAX.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gen/blk_int.h"
#include "gen/rng.h"
#include "solver/poly.h"
#include "solver/solve.h"

#define DRAW_ALONE 32      /* sets counted before threads are used */
#define DRAW_BATCH 8       /* sets a thread in the first batch */
#define DRAW_BATCH_MAX 1024 /* sets in a batch, at most */

/* How many sets each choice leaves: ways[(sz - lo) * plane * vw + t * vw
 * + v] sets of t shapes of sizes sz..hi with v cells in all. */
struct table {
	int lo, hi, n;
	size_t at[BLK_SETS_CELLS + 2]; /* size -> its shapes' first index */
	size_t plane, vw;
	double *ways;
	size_t *idx; /* scratch: the shapes of a size, shuffled */
};

/* One set drawn, and its count. */
struct slot {
	const int *cells[BLK_MAX_PIECES];
	int size[BLK_MAX_PIECES];
	int np;          /* 0: the piece count drawn has no set */
	struct rng after; /* the stream after this set's draw */
	int rc;          /* prove_count_pieces()'s */
	struct prove_result pr;
	int first[BLK_DRAW_CELLS]; /* its first filling, when it has one */
};

/* The slots of a batch, counted side by side. */
struct pool {
	struct slot *slot;
	size_t n;
	atomic_size_t next; /* the next slot to count */
	uint64_t budget;
};

struct worker {
	pthread_t id;
	struct pool *pool;
	prove *pv;
};

/* A uniform draw in [0, 1) from 'r' (one output). */
static double draw_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* The table for shapes 'h', piece counts up to kmax. false: out of
 * memory. */
static bool table_make(struct table *tb, const struct blk_shapes *h, int lo,
                       int hi, int n, int kmax)
{
	memset(tb, 0, sizeof *tb);
	tb->lo = lo;
	tb->hi = hi;
	tb->n = n;
	/* the shapes of each size: h->s[at[sz] .. at[sz + 1]) */
	for (int sz = lo; sz <= hi + 1; sz++) {
		tb->at[sz] = sz == lo ? 0 : tb->at[sz - 1];
		while (sz > lo && tb->at[sz] < h->n &&
		       (int)h->s[tb->at[sz]].n == sz - 1)
			tb->at[sz]++;
	}
	tb->plane = (size_t)kmax + 1;
	tb->vw = (size_t)n + 1;
	size_t pv = tb->plane * tb->vw;
	tb->ways = calloc((size_t)(hi - lo + 2) * pv, sizeof *tb->ways);
	tb->idx = malloc((h->n ? h->n : 1) * sizeof *tb->idx);
	if (!tb->ways || !tb->idx)
		return false;
	double *end = tb->ways + (size_t)(hi - lo + 1) * pv;
	end[0] = 1;
	for (int sz = hi; sz >= lo; sz--) {
		double *cur = tb->ways + (size_t)(sz - lo) * pv;
		double *nxt = cur + pv, c = 1;
		double m = (double)(tb->at[sz + 1] - tb->at[sz]);
		for (int a = 0; a <= kmax && a <= m; a++) {
			if (a > 0)
				c = c * (m - a + 1) / a;
			for (int t = a; t <= kmax; t++)
				for (int v = a * sz; v <= n; v++)
					cur[(size_t)t * tb->vw + (size_t)v] +=
					    c * nxt[(size_t)(t - a) * tb->vw +
					            (size_t)(v - a * sz)];
		}
	}
	return true;
}

/* One attempt's draw into 't' (blocks.h, the stream): the piece count,
 * then the shapes of each size. */
static void draw_set(struct table *tb, const struct blk_shapes *h,
                     struct rng *r, const int *ks, int nk, struct slot *t)
{
	size_t pv = tb->plane * tb->vw, vw = tb->vw;
	int k = ks[rng_below(r, (uint64_t)nk)], left = k, v = tb->n;
	t->np = 0;
	if (tb->ways[(size_t)k * vw + (size_t)tb->n] == 0)
		return; /* no set of k shapes: an attempt lost */
	for (int sz = tb->lo; sz <= tb->hi; sz++) {
		double *cur = tb->ways + (size_t)(sz - tb->lo) * pv;
		double *nxt = cur + pv, c = 1;
		double m = (double)(tb->at[sz + 1] - tb->at[sz]);
		double u = draw_unit(r) * cur[(size_t)left * vw + (size_t)v];
		int take = -1;
		for (int a = 0; a <= left && a <= m && a * sz <= v; a++) {
			if (a > 0)
				c = c * (m - a + 1) / a;
			double wt = c * nxt[(size_t)(left - a) * vw +
			                    (size_t)(v - a * sz)];
			if (wt > 0)
				take = a; /* (the last with a weight, for rounding) */
			if (wt > 0 && u < wt)
				break;
			u -= wt;
		}
		/* 'take' of this size's shapes, a partial Fisher-Yates */
		size_t cnt = tb->at[sz + 1] - tb->at[sz];
		for (size_t i = 0; i < cnt; i++)
			tb->idx[i] = tb->at[sz] + i;
		for (int i = 0; i < take; i++) {
			size_t j = (size_t)i +
			           (size_t)rng_below(r, (uint64_t)(cnt - (size_t)i));
			size_t x = tb->idx[i];
			tb->idx[i] = tb->idx[j];
			tb->idx[j] = x;
			t->cells[t->np] = h->at + tb->idx[i] * BLK_SETS_CELLS;
			t->size[t->np++] = sz;
		}
		left -= take;
		v -= take * sz;
	}
}

/* Count the pool's slots until none is left, on prover 'pv'. */
static void count_slots(struct pool *p, prove *pv)
{
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->n)
			return;
		struct slot *t = &p->slot[i];
		if (t->np)
			t->rc = prove_count_pieces(pv, t->cells, t->size, t->np, 2,
			                           p->budget, &t->pr, t->first);
	}
}

static void *worker_main(void *arg)
{
	struct worker *k = arg;
	count_slots(k->pool, k->pv);
	return NULL;
}

/* Count the batch on the caller's prover and the workers' (those that
 * start; a thread that cannot leaves its share to the others). */
static void count_batch(struct pool *p, prove *own, struct worker *wk,
                        int nw)
{
	atomic_store(&p->next, 0);
	int started = 0;
	for (int i = 0; i < nw; i++) {
		wk[i].pool = p;
		if (pthread_create(&wk[i].id, NULL, worker_main, &wk[i]) != 0)
			break;
		started++;
	}
	count_slots(p, own);
	for (int i = 0; i < started; i++)
		pthread_join(wk[i].id, NULL);
}

int blk_draw_sets(struct blk_work *w, struct rng *r, const struct blk_spec *s,
                  const struct blk_shapes *h, const int *ks, int nk,
                  struct dis_result *d)
{
	assert(w->n <= BLK_DRAW_CELLS);
	int kmax = 0;
	for (int i = 0; i < nk; i++)
		kmax = ks[i] > kmax ? ks[i] : kmax;
	int threads = s->threads > SOLVE_MAX_THREADS ? (int)SOLVE_MAX_THREADS
	            : s->threads > 1 ? (int)s->threads : 1;
	size_t cap = threads > 1 ? DRAW_BATCH_MAX : 1;
	struct table tb;
	struct pool pool = {.budget = s->proof_nodes ? s->proof_nodes
	                                             : BLK_PROOF_NODES};
	bool ok = table_make(&tb, h, s->cells_min, s->cells_max, w->n, kmax);
	pool.slot = ok ? malloc(cap * sizeof *pool.slot) : NULL;
	struct worker *wk = threads > 1 ? calloc((size_t)threads - 1, sizeof *wk)
	                                : NULL;
	int rc = pool.slot && (threads == 1 || wk) ? 1 : -1;
	int nw = 0; /* workers with a prover (made at the first batch) */
	int found = 0;
	size_t batch = (size_t)threads * DRAW_BATCH;
	w->info->drawn = rc == 1;
	while (rc == 1 && found == 0 && w->info->attempts < s->max_attempts) {
		uint64_t left = s->max_attempts - w->info->attempts;
		bool alone = threads == 1 || w->info->attempts < DRAW_ALONE;
		size_t n = alone ? 1 : batch < cap ? batch : cap;
		n = n < left ? n : (size_t)left;
		for (size_t i = 0; i < n; i++) {
			draw_set(&tb, h, r, ks, nk, &pool.slot[i]);
			pool.slot[i].after = *r;
		}
		pool.n = n;
		if (alone) {
			struct slot *t = &pool.slot[0];
			if (t->np)
				t->rc = prove_count_pieces(w->pv, t->cells, t->size, t->np,
				                           2, pool.budget, &t->pr, t->first);
		} else {
			while (nw < threads - 1) {
				wk[nw].pv = prove_new(w->goal);
				if (!wk[nw].pv) {
					threads = nw + 1; /* fewer, the same counts */
					size_t most = (size_t)threads * DRAW_BATCH;
					batch = batch < most ? batch : most;
					break;
				}
				nw++;
			}
			count_batch(&pool, w->pv, wk, nw);
			batch = batch * 2 < cap ? batch * 2 : cap;
		}
		/* the sets in the order drawn, as one thread would meet them */
		for (size_t i = 0; i < n && found == 0; i++) {
			struct slot *t = &pool.slot[i];
			w->info->attempts++; /* a set drawn is an attempt */
			if (!t->np)
				continue;
			assert(t->rc != PROVE_EINVAL); /* the shapes' cells are the goal's */
			if (t->rc != PROVE_OK) {
				rc = -1;
				break;
			}
			w->info->solver_calls++;
			w->info->nodes += t->pr.nodes;
			w->info->cut_short += !t->pr.complete && t->pr.solutions < 2;
			if (t->pr.complete && t->pr.solutions == 1) {
				memcpy(w->pc, t->first, (size_t)w->n * sizeof *w->pc);
				w->np = t->np;
				found = blk_set_apart(w, s, t->np, d);
				if (found < 0)
					rc = -1;
				if (found == 1)
					*r = t->after;
			}
			if (found == 0 && s->progress)
				s->progress(s->progress_ctx, w->info);
		}
	}
	for (int i = 0; i < nw; i++)
		prove_free(wk[i].pv);
	free(wk);
	free(pool.slot);
	free(tb.ways);
	free(tb.idx);
	if (rc == 1)
		w->info->found = found == 1;
	return rc;
}
