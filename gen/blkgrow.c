/*
 * blkgrow.c: the grown route's dissections (blocks.h): every piece grown
 * at once from a seed cell, as branched as the goal allows.
 *
 * Why branched. On 5 x 5 x 5 in 16 pieces of 6 to 8 cells, a dissection
 * whose pieces grow by cells touching the piece along one face only (so a
 * piece is a tree of cells), curling round (cells that touch it along an
 * edge preferred), was unique 7 times in 8 (within 3 million nodes a
 * proof), where the refinement's cuts made none in thousands of attempts:
 * a branched piece fits the goal in few ways, and a wrong placement
 * leaves a cell nothing else can fill, so the proof ends soon too.
 * Pieces grown straight (cells touching the piece along an edge avoided)
 * made no unique one in 8, and with no preference 1 in 6 (docs/figures.md).
 *
 * Threads. An attempt's proof takes up to seconds, and its growth a
 * millisecond or so, so with threads the next attempts are grown ahead
 * from a copy of the stream, as the search itself will grow them, until
 * there are as many dissections to prove as threads; those are proved
 * side by side (each thread with a prover of its own, which counts as
 * the search's own would), and the search then runs its attempts as on
 * one thread, each proof taken from those made ahead when its
 * dissection is one of them. So the puzzle, the figures and the stream
 * are the same whatever the threads; proofs made past the puzzle are
 * work thrown away, at most one a thread.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "gen/blk_int.h"
#include "solver/solve.h"

/* One try of blk_grow(): 1 made, 0 failed. */
static int grow_once(struct blk_work *w, struct rng *r,
                     const struct blk_spec *s, int k)
{
	int n = w->n;
	int *frontier = w->list, *tied = w->queue;
	unsigned char *touch = w->front; /* per piece: has a free neighbour */
	for (int c = 0; c < n; c++)
		w->pc[c] = -1;
	/* the seeds */
	int left = n;
	for (int i = 0; i < k; i++) {
		int t = (int)rng_below(r, (uint64_t)left), c = 0;
		for (;; c++)
			if (w->pc[c] < 0 && t-- == 0)
				break;
		w->pc[c] = i;
		w->size[i] = 1;
		left--;
	}
	w->np = k;
	for (; left > 0; left--) {
		/* the pieces that can grow: below cells_max, a free cell
		 * next to them */
		for (int i = 0; i < k; i++)
			touch[i] = 0;
		for (int c = 0; c < n; c++) {
			if (w->pc[c] >= 0)
				continue;
			for (int d = 0; d < 6; d++) {
				int e = w->nb[c][d];
				if (e >= 0 && w->pc[e] >= 0)
					touch[w->pc[e]] = 1;
			}
		}
		/* the smallest of them, drawn among those as small */
		int least = 0, nt = 0;
		for (int i = 0; i < k; i++) {
			if (!touch[i] || w->size[i] >= s->cells_max)
				continue;
			if (nt == 0 || w->size[i] < least) {
				least = w->size[i];
				nt = 0;
			}
			if (w->size[i] == least)
				tied[nt++] = i;
		}
		if (nt == 0)
			return 0; /* free cells no piece can take */
		int p = tied[rng_below(r, (uint64_t)nt)];
		/* its free neighbours: fewest faces on the piece, then most
		 * edges on it, drawn among the best */
		int nf = 0, best_face = 7, best_edge = -1;
		for (int c = 0; c < n; c++) {
			if (w->pc[c] >= 0)
				continue;
			int face = 0, edge = 0;
			for (int d = 0; d < 6; d++)
				face += w->nb[c][d] >= 0 && w->pc[w->nb[c][d]] == p;
			if (face == 0 || face > best_face)
				continue;
			for (int t = 0; t < 12; t++)
				edge += w->eb[c][t] >= 0 && w->pc[w->eb[c][t]] == p;
			if (face < best_face || edge > best_edge) {
				best_face = face;
				best_edge = edge;
				nf = 0;
			}
			if (edge == best_edge)
				frontier[nf++] = c;
		}
		int c = frontier[rng_below(r, (uint64_t)nf)];
		w->pc[c] = p;
		w->size[p]++;
	}
	for (int i = 0; i < k; i++) {
		if (w->size[i] < s->cells_min)
			return 0;
		w->m[i] = 1;
	}
	return 1;
}

int blk_grow(struct blk_work *w, struct rng *r, const struct blk_spec *s,
             int k)
{
	if (k > w->n)
		return 0;
	for (int t = 0; t < BLK_GROW_TRIES; t++) {
		w->info->tries++;
		if (grow_once(w, r, s, k))
			return 1;
		if (s->progress && t % 256 == 255) /* growths can take seconds */
			s->progress(s->progress_ctx, w->info);
	}
	return 0;
}

void blk_ahead_clear(struct blk_ahead *a)
{
	for (int i = 0; i < a->npv; i++)
		prove_free(a->pv[i]);
	free(a->pv);
	free(a->labels);
	free(a->k);
	free(a->rc);
	free(a->pr);
	memset(a, 0, sizeof *a);
}

/* Attempts grown ahead at most, a thread. */
#define AHEAD_SPAN 8

/* The slots being proved, shared by the threads of one batch. */
struct ahead_pool {
	struct blk_ahead *a;
	size_t cells;
	uint64_t budget;
	atomic_int next;
};

struct ahead_worker {
	pthread_t id;
	struct ahead_pool *pool;
	prove *pv;
};

static void prove_slots(struct ahead_pool *p, prove *pv)
{
	for (;;) {
		int i = atomic_fetch_add(&p->next, 1);
		if (i >= p->a->n)
			return;
		p->a->rc[i] = prove_count(pv, p->a->labels + (size_t)i * p->cells,
		                          p->a->k[i], 2, p->budget, &p->a->pr[i]);
	}
}

static void *ahead_main(void *arg)
{
	struct ahead_worker *k = arg;
	prove_slots(k->pool, k->pv);
	return NULL;
}

bool blk_ahead_fill(struct blk_work *w, const struct rng *r,
                    const struct blk_spec *s, const int *ks, int nk,
                    uint64_t left)
{
	struct blk_ahead *a = &w->ahead;
	int t = a->threads;
	size_t cells = (size_t)w->n;
	a->n = a->at = 0;
	if (!a->labels) {
		a->labels = malloc((size_t)t * cells * sizeof *a->labels);
		a->k = malloc((size_t)t * sizeof *a->k);
		a->rc = malloc((size_t)t * sizeof *a->rc);
		a->pr = malloc((size_t)t * sizeof *a->pr);
		a->pv = calloc((size_t)t, sizeof *a->pv);
		if (!a->labels || !a->k || !a->rc || !a->pr || !a->pv) {
			blk_ahead_clear(a);
			a->threads = t;
			return false;
		}
	}
	/* the attempts to come, as attempt() makes them, up to their proofs
	 * (no progress shown for them: they have not happened yet; at most
	 * AHEAD_SPAN a thread, where growths seldom succeed) */
	struct rng q = *r;
	uint64_t tries = w->info->tries;
	struct blk_spec quiet = *s;
	quiet.progress = NULL;
	for (int i = 0; i < BLK_MAX_PIECES; i++)
		blk_drop_final(w, i);
	uint64_t most = (uint64_t)t * AHEAD_SPAN;
	left = left < most ? left : most;
	a->span = 0;
	for (; a->span < left && a->n < t; a->span++) {
		int k = ks[rng_below(&q, (uint64_t)nk)];
		int rc = blk_grow(w, &q, &quiet, k);
		for (int i = 0; i < k && rc == 1; i++)
			rc = blk_final_ok(w, &quiet, i);
		for (int i = 0; i < k; i++)
			blk_drop_final(w, i);
		if (rc < 0) {
			a->span++; /* the attempt stopped here: no later one */
			break;
		}
		if (rc == 1) {
			memcpy(a->labels + (size_t)a->n * cells, w->pc,
			       cells * sizeof *w->pc);
			a->k[a->n++] = k;
		}
	}
	w->info->tries = tries;
	/* the workers' provers, as many as can be made */
	while (a->npv < a->n - 1 && a->npv < t - 1) {
		if (!(a->pv[a->npv] = prove_new(w->goal)))
			break;
		a->npv++;
	}
	struct ahead_pool pool = {
	    .a = a, .cells = cells,
	    .budget = s->proof_nodes ? s->proof_nodes : BLK_PROOF_NODES};
	atomic_init(&pool.next, 0);
	struct ahead_worker wk[SOLVE_MAX_THREADS];
	int started = 0;
	for (int i = 0; i < a->npv && i < a->n - 1; i++) {
		wk[i].pool = &pool;
		wk[i].pv = a->pv[i];
		if (pthread_create(&wk[i].id, NULL, ahead_main, &wk[i]) != 0)
			break;
		started++;
	}
	prove_slots(&pool, w->pv);
	for (int i = 0; i < started; i++)
		pthread_join(wk[i].id, NULL);
	return true;
}

bool blk_ahead_take(struct blk_work *w, struct prove_result *out)
{
	struct blk_ahead *a = &w->ahead;
	size_t cells = (size_t)w->n;
	for (int i = a->at; i < a->n; i++) {
		if (a->k[i] != w->np ||
		    memcmp(a->labels + (size_t)i * cells, w->pc,
		           cells * sizeof *w->pc) != 0)
			continue;
		a->at = i + 1;
		if (a->rc[i] != PROVE_OK)
			return false; /* out of memory there: prove it here */
		*out = a->pr[i];
		return true;
	}
	return false;
}
