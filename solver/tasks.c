/*
 * tasks.c: one search split into tasks, run by a pool of threads, or one
 * shard of them (solve_opts.threads, shard_index, shard_count).
 *
 * Workload: the long exhaustive counts (Bedlam, pentacube boxes: seconds
 * to hours of search), on a machine's cores and across machines.
 *
 * The split. The engine walks the top of its search tree in its own order
 * (bb_split, bbw_split, xc_split) down to the first depth with SOLVE_TASKS or more
 * open nodes; each is a task, named by its path. A tree of at most
 * SOLVE_SPLIT_WHOLE nodes is walked whole once instead, each cover a task. The
 * list depends only on
 * the puzzle and the options that shape the search, never on threads, so
 * shards agree on it: shard I of K takes the tasks t with t mod K == I
 * (neighbouring subtrees, often alike in size, go to different shards).
 *
 * Why the counts stay exact. Every cover lies in exactly one task and is
 * found there once, and its weight depends only on the cover: the pinned
 * piece's orbit and stabiliser (solve.c), the colour renamings on its
 * path (which a task's replay recomputes, xc.c), the Γ stabiliser
 * (recolour.c). So the sums over all tasks are the sums of one whole
 * search, only in another order. Each thread keeps its own sums (a copy
 * of the solver's search state: worker_init); they are added at the end
 * with overflow checks, and solve.c divides once.
 *
 * Limits. The node budget is shared: each thread draws allowances of
 * QUANTUM nodes from it (xc_poll), so at most max_nodes are tried in all,
 * and every thread looks at the stop flag once per allowance. A thread
 * that finds the budget empty waits while others still work, and a
 * thread out of tasks hands back what it drew and did not use: the
 * budget runs out only when every thread still working wants more. So
 * a search of N nodes is whole with max_nodes >= N and stops with
 * max_nodes < N, whatever the threads, as a plain search does. The
 * max_solutions check adds each cover to a shared sum. Either stops every
 * thread within an allowance; the counts are then lower bounds. The first
 * solution is the first cover of the lowest task that has one, which is
 * the first a whole search finds (xc.h), whatever the threads do, when
 * the search runs to its end.
 *
 * The caller's thread is one of the workers; only it calls
 * o->progress: between allowances while it works, and on a timed wait
 * while it waits for budget the others may hand back, and once it is
 * out of tasks and the others finish theirs.
 *
 * Memory: each thread has a copy of the engine and of the per-row stamps
 * (a few MB for the biggest searches, 4 million rows). All of it is
 * allocated by the caller's thread before any worker starts, so a
 * failure there is an error before the search; a thread's own
 * allocations (only the Γ stabilisers of --rename-colours make any) set
 * its 'oom', stop every thread, and become SOLVE_ENOMEM.
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solver/solve_int.h"

/* Nodes a thread draws from the budget at a time: a few milliseconds of
 * search, so a stop reaches every thread quickly. */
#define QUANTUM ((uint64_t)1 << 16)
/* Seconds between progress calls, at least. */
#define PROGRESS_EVERY 0.1

/* Why the pool stopped; the first reason set wins. */
enum { WHY_NONE, WHY_NODES, WHY_SOLUTIONS, WHY_ERROR };

struct pool {
	struct solver *s;            /* the prepared solver: read only */
	const struct xc_tasks *t;    /* every task */
	size_t base, step, mine;     /* this run's tasks: base + step * j,
	                              * j < mine */
	atomic_size_t next;          /* next j to claim */
	atomic_size_t done;          /* tasks finished */
	bool limited;                /* max_nodes set */
	atomic_uint_least64_t left;  /* budget not yet handed out */
	atomic_uint_least64_t found; /* numerators so far (for the limit
	                              * and progress; may wrap only when the
	                              * sums overflow, an error anyway) */
	atomic_bool stop;
	atomic_int why;
	pthread_mutex_t lock;        /* first, on_cover, running, active,
	                              * starved */
	pthread_cond_t idle;         /* a worker finished */
	pthread_cond_t more;         /* budget handed back, or a stop */
	bool timed;                  /* the two wait on the monotonic clock,
	                              * with progress to report */
	size_t running;              /* threads still working but the
	                              * caller's (lock) */
	size_t active;               /* threads still working (lock) */
	size_t starved;              /* of them, waiting for budget (lock) */
	atomic_size_t first_at;      /* task of 'first', SIZE_MAX none */
	unsigned char *first;        /* owned until handed to the result */
	unsigned char *first_colours;
	struct solve_moves first_moves; /* with disassemble, first's */
	double last_report;          /* the caller's thread only */
};

struct worker {
	struct solver s;   /* a copy, with its own search state */
	struct pool *pool;
	struct engine e;   /* its engine: a clone it owns, or the caller's */
	bool own_e;        /* e is a clone, freed with the worker */
	uint64_t granted;  /* nodes drawn from the budget */
	uint64_t used;     /* nodes tried */
	bool caller;       /* runs in the caller's thread */
	pthread_t thread;
	bool started;      /* 'thread' was created */
};

/* ---- the engines: one switch per call, none in their loops -------------- */

enum xc_stop tasks_engine_solve(struct engine e, uint64_t max_nodes,
                                xc_visit visit, void *ctx, uint64_t *nodes)
{
	switch (e.kind) {
	case ENGINE_BB:
		return bb_solve(e.b, max_nodes, visit, ctx, nodes);
	case ENGINE_BBW:
		return bbw_solve(e.bw, max_nodes, visit, ctx, nodes);
	case ENGINE_XC:
		break;
	}
	return xc_solve(e.x, max_nodes, visit, ctx, nodes);
}

void tasks_engine_free(struct engine e)
{
	switch (e.kind) {
	case ENGINE_BB:
		bb_free(e.b);
		return;
	case ENGINE_BBW:
		bbw_free(e.bw);
		return;
	case ENGINE_XC:
		break;
	}
	xc_free(e.x);
}

static int engine_split(struct engine e, size_t want, uint64_t max_nodes,
                        struct xc_tasks *out, enum xc_stop *stop)
{
	switch (e.kind) {
	case ENGINE_BB:
		return bb_split(e.b, want, max_nodes, out, stop);
	case ENGINE_BBW:
		return bbw_split(e.bw, want, max_nodes, out, stop);
	case ENGINE_XC:
		break;
	}
	return xc_split(e.x, want, max_nodes, out, stop);
}

static enum xc_stop engine_solve_task(struct engine e,
                                      const struct xc_tasks *t, size_t k,
                                      uint64_t max_nodes, xc_visit visit,
                                      void *ctx, uint64_t *nodes)
{
	switch (e.kind) {
	case ENGINE_BB:
		return bb_solve_task(e.b, t, k, max_nodes, visit, ctx, nodes);
	case ENGINE_BBW:
		return bbw_solve_task(e.bw, t, k, max_nodes, visit, ctx, nodes);
	case ENGINE_XC:
		break;
	}
	return xc_solve_task(e.x, t, k, max_nodes, visit, ctx, nodes);
}

/* A copy of 'e' of the same kind; its pointer NULL when out of memory. */
static struct engine engine_clone(struct engine e)
{
	struct engine c = {.kind = e.kind};
	switch (e.kind) {
	case ENGINE_BB:
		c.b = bb_clone(e.b);
		return c;
	case ENGINE_BBW:
		c.bw = bbw_clone(e.bw);
		return c;
	case ENGINE_XC:
		break;
	}
	c.x = xc_clone(e.x);
	return c;
}

static bool engine_null(struct engine e)
{
	switch (e.kind) {
	case ENGINE_BB:
		return !e.b;
	case ENGINE_BBW:
		return !e.bw;
	case ENGINE_XC:
		break;
	}
	return !e.x;
}

static void engine_set_poll(struct engine e, xc_poll poll, void *ctx)
{
	switch (e.kind) {
	case ENGINE_BB:
		bb_set_poll(e.b, poll, ctx);
		return;
	case ENGINE_BBW:
		bbw_set_poll(e.bw, poll, ctx);
		return;
	case ENGINE_XC:
		break;
	}
	xc_set_poll(e.x, poll, ctx);
}

/* ---- the pool ------------------------------------------------------------- */

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Stop every thread, for 'why'; the caller holds the lock. */
static void halt_locked(struct pool *pl, int why)
{
	int none = WHY_NONE;
	atomic_compare_exchange_strong(&pl->why, &none, why);
	atomic_store(&pl->stop, true);
	pthread_cond_broadcast(&pl->more);
}

static void halt(struct pool *pl, int why)
{
	pthread_mutex_lock(&pl->lock);
	halt_locked(pl, why);
	pthread_mutex_unlock(&pl->lock);
}

/* Up to QUANTUM nodes from the budget; 0 when it is spent. */
static uint64_t draw(struct pool *pl)
{
	if (!pl->limited)
		return QUANTUM;
	uint64_t left = atomic_load(&pl->left);
	while (left) {
		uint64_t q = left < QUANTUM ? left : QUANTUM;
		if (atomic_compare_exchange_weak(&pl->left, &left, left - q))
			return q;
	}
	return 0;
}

static void report(struct pool *pl, bool force)
{
	const struct solve_opts *o = pl->s->o;
	if (!o->progress)
		return;
	double t = now();
	if (!force && t - pl->last_report < PROGRESS_EVERY)
		return;
	pl->last_report = t;
	struct solve_progress p = {
		.tasks_done = atomic_load(&pl->done),
		.tasks = pl->mine,
		.solutions = atomic_load(&pl->found) / pl->s->res->divisor,
	};
	o->progress(o->progress_ctx, &p);
}

/* Wait on c (its mutex m held) for PROGRESS_EVERY at most. */
static void wait_a_while(pthread_cond_t *c, pthread_mutex_t *m)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	t.tv_nsec += (long)(PROGRESS_EVERY * 1e9);
	if (t.tv_nsec >= 1000000000L) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000L;
	}
	pthread_cond_timedwait(c, m, &t);
}

/* The engines' xc_poll: more budget, unless the pool stops. */
static uint64_t poll_budget(void *ctx)
{
	struct worker *w = ctx;
	struct pool *pl = w->pool;
	if (w->caller)
		report(pl, false);
	if (atomic_load_explicit(&pl->stop, memory_order_relaxed))
		return 0;
	uint64_t q = draw(pl);
	if (!q) {
		/* others may hand back what they drew: the budget is spent
		 * only when every thread still working waits for more */
		pthread_mutex_lock(&pl->lock);
		pl->starved++;
		while (!atomic_load(&pl->stop) && !(q = draw(pl))) {
			if (pl->starved == pl->active) {
				halt_locked(pl, WHY_NODES);
			} else if (w->caller && pl->timed) {
				wait_a_while(&pl->more, &pl->lock);
				pthread_mutex_unlock(&pl->lock);
				report(pl, false);
				pthread_mutex_lock(&pl->lock);
			} else {
				pthread_cond_wait(&pl->more, &pl->lock);
			}
		}
		pl->starved--;
		pthread_mutex_unlock(&pl->lock);
	}
	w->granted += q;
	return q;
}

/* A thread out of work: what it drew and did not use goes back. */
static void leave(struct worker *w)
{
	struct pool *pl = w->pool;
	pthread_mutex_lock(&pl->lock);
	if (pl->limited)
		atomic_fetch_add(&pl->left, w->granted - w->used);
	w->granted = w->used;
	pl->active--;
	pthread_cond_broadcast(&pl->more);
	if (!w->caller) {
		pl->running--;
		pthread_cond_signal(&pl->idle);
	}
	pthread_mutex_unlock(&pl->lock);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct pool *pl = w->pool;
	while (!atomic_load(&pl->stop)) {
		size_t j = atomic_fetch_add(&pl->next, 1);
		if (j >= pl->mine)
			break;
		size_t k = pl->base + j * pl->step;
		w->s.task = k;
		w->s.task_found = false;
		/* what is left of the allowances drawn (0: the engine draws
		 * before its first node; a task may need none) */
		uint64_t nodes = 0, budget = w->granted - w->used;
		enum xc_stop st = engine_solve_task(w->e, pl->t, k, budget,
		                                    solve_visit, &w->s, &nodes);
		w->used += nodes;
		if (w->s.oom || w->s.overflow) {
			halt(pl, WHY_ERROR);
			break;
		}
		if (st != XC_DONE)
			break; /* the pool stops: its 'why' says why */
		atomic_fetch_add(&pl->done, 1);
		if (w->caller)
			report(pl, false);
	}
	leave(w);
	return NULL;
}

bool tasks_first_wanted(struct solver *s)
{
	bool want = !s->task_found &&
	            s->task < atomic_load(&s->pool->first_at);
	s->task_found = true;
	return want;
}

void tasks_keep_first(struct solver *s)
{
	struct pool *pl = s->pool;
	const struct grid *g = &s->p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	pthread_mutex_lock(&pl->lock);
	if (s->task < atomic_load(&pl->first_at)) {
		memcpy(pl->first, s->labels, total);
		if (s->colours)
			memcpy(pl->first_colours, s->colours, total);
		if (s->o->disassemble) {
			struct solve_moves m;
			if (solve_moves_copy(&m, &s->sd.cur) == SOLVE_OK) {
				solve_moves_clear(&pl->first_moves);
				pl->first_moves = m;
			} else {
				s->oom = true;
			}
		}
		atomic_store(&pl->first_at, s->task);
	}
	pthread_mutex_unlock(&pl->lock);
}

void tasks_on_cover(struct solver *s)
{
	pthread_mutex_lock(&s->pool->lock);
	s->o->on_cover(s->o->ctx, s->labels, s->colours);
	pthread_mutex_unlock(&s->pool->lock);
}

bool tasks_count(struct solver *s, uint64_t num)
{
	struct pool *pl = s->pool;
	uint64_t total = atomic_fetch_add(&pl->found, num) + num;
	if (s->o->max_solutions &&
	    total / s->res->divisor >= s->o->max_solutions) {
		halt(pl, WHY_SOLUTIONS);
		return false;
	}
	return true;
}

/* Free what worker_init allocated (the rest is the prepared solver's). */
static void worker_clear(struct worker *w)
{
	struct solver *c = &w->s;
	free(c->stamp);
	free(c->image);
	free(c->image_col);
	free(c->image_bits);
	free(c->labels);
	free(c->colours);
	free(c->copies_used);
	free(c->cover_rows);
	free(c->cov_owner);
	free(c->owner);
	free(c->pcol);
	sdis_thread_free(c);
	if (w->own_e)
		tasks_engine_free(w->e);
	else /* the caller's engine: nothing of this worker left in it */
		engine_set_poll(w->e, NULL, NULL);
}

/* A thread's copy of 's': the tables shared, its own search state and
 * engine (a clone of 'e', or 'e' itself when 'borrow'), allocated whole
 * so that the search needs no more (row images come sized to the longest
 * row). */
static int worker_init(struct worker *w, struct solver *s, struct pool *pl,
                       struct engine e, size_t maxrow, bool borrow)
{
	*w = (struct worker){.s = *s, .pool = pl};
	struct solver *c = &w->s;
	c->sd = (struct sdis){0}; /* its own, below: never s's */
	const struct grid *g = &s->p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	size_t nc = s->ncells ? s->ncells : 1;
	c->pool = pl;
	c->stamp = calloc(s->nrows ? s->nrows : 1, sizeof *c->stamp);
	c->stamp_now = 0;
	c->image = malloc(maxrow * sizeof *c->image);
	c->image_col = malloc(maxrow);
	c->image_cap = maxrow;
	c->image_bits = NULL;
	c->labels = malloc(total);
	c->colours = s->colours ? malloc(total) : NULL;
	c->copies_used = malloc((s->ntypes ? s->ntypes : 1) * sizeof *c->copies_used);
	c->cover_rows = malloc((s->ncells + 1) * sizeof *c->cover_rows);
	c->cov_owner = malloc((s->ncells + 1) * sizeof *c->cov_owner);
	for (size_t i = 0; c->cov_owner && i <= s->ncells; i++)
		c->cov_owner[i] = -1;
	c->owner = s->owner ? malloc(nc * sizeof *c->owner) : NULL;
	c->pcol = s->pcol ? malloc(nc) : NULL;
	c->weighted = c->weighted_rc = c->assemblies = 0;
	c->oom = c->overflow = false;
	w->e = borrow ? e : engine_clone(e);
	w->own_e = !borrow;
	c->dlx = w->e.kind == ENGINE_XC ? w->e.x : NULL;
	if (!c->stamp || !c->image || !c->image_col || !c->labels ||
	    (s->colours && !c->colours) || !c->copies_used || !c->cover_rows ||
	    !c->cov_owner ||
	    (s->owner && !c->owner) || (s->pcol && !c->pcol) ||
	    engine_null(w->e))
		return SOLVE_ENOMEM;
	if (s->o->disassemble && sdis_thread_init(c) != SOLVE_OK)
		return SOLVE_ENOMEM;
	engine_set_poll(w->e, poll_budget, w);
	return SOLVE_OK;
}

/* Start the workers after the first in threads of their own, run the
 * first in this one, and wait for all of them. A thread that cannot be
 * created leaves its share to the others: the tasks are claimed from
 * one counter, so every task is still searched once. */
static void run_pool(struct pool *pl, struct worker *w, size_t n)
{
	/* With progress to report, the wait for the others times out on
	 * the monotonic clock. */
	bool timed = false;
	pthread_condattr_t ca;
	if (pl->s->o->progress && pthread_condattr_init(&ca) == 0) {
		timed = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 &&
		        pthread_cond_init(&pl->idle, &ca) == 0;
		if (timed && pthread_cond_init(&pl->more, &ca) != 0) {
			pthread_cond_destroy(&pl->idle);
			timed = false;
		}
		pthread_condattr_destroy(&ca);
	}
	if (!timed) {
		pthread_cond_init(&pl->idle, NULL);
		pthread_cond_init(&pl->more, NULL);
	}
	pl->timed = timed;
	pl->running = 0;
	pl->active = 1; /* the caller's */
	pl->starved = 0;
	w[0].caller = true;
	for (size_t i = 1; i < n; i++) {
		pthread_mutex_lock(&pl->lock);
		w[i].started = pthread_create(&w[i].thread, NULL, work, &w[i]) == 0;
		pl->running += w[i].started;
		pl->active += w[i].started;
		pthread_mutex_unlock(&pl->lock);
	}
	work(&w[0]);
	pthread_mutex_lock(&pl->lock);
	while (pl->running) {
		if (!timed) {
			pthread_cond_wait(&pl->idle, &pl->lock);
			continue;
		}
		wait_a_while(&pl->idle, &pl->lock);
		pthread_mutex_unlock(&pl->lock);
		report(pl, false);
		pthread_mutex_lock(&pl->lock);
	}
	pthread_mutex_unlock(&pl->lock);
	for (size_t i = 1; i < n; i++)
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
	pthread_cond_destroy(&pl->idle);
	pthread_cond_destroy(&pl->more);
}

/* Add the threads' sums into 's'; SOLVE_EOVERFLOW when they do not fit. */
static int add_sums(struct solver *s, struct worker *w, size_t n,
                    uint64_t *nodes)
{
	for (size_t i = 0; i < n; i++) {
		const struct solver *c = &w[i].s;
		if (__builtin_add_overflow(s->weighted, c->weighted, &s->weighted) ||
		    __builtin_add_overflow(s->weighted_rc, c->weighted_rc,
		                           &s->weighted_rc) ||
		    __builtin_add_overflow(s->assemblies, c->assemblies,
		                           &s->assemblies) ||
		    __builtin_add_overflow(*nodes, w[i].used, nodes))
			return SOLVE_EOVERFLOW;
		if (s->o->disassemble && !sdis_add(s, &w[i].s))
			return SOLVE_EOVERFLOW;
	}
	return SOLVE_OK;
}

int tasks_run(struct solver *s, struct engine e)
{
	const struct solve_opts *o = s->o;
	struct solve_result *res = s->res;
	/* the divisor the pool's running count is read with (solve_puzzle
	 * sets the final one the same way) */
	res->divisor = o->rename_colours && s->gamma_order &&
	               s->gamma_order != (uint64_t)s->group_order
	             ? s->gamma_order : solve_divisor(s);
	struct xc_tasks t = {0};
	enum xc_stop st = XC_NODES;
	int rc = XC_OK;
	/* A tree of at most SOLVE_SPLIT_WHOLE nodes is split in one round over
	 * all of it, its covers the tasks (xc.h); a larger one, the round
	 * stopped, by depth as before. The round's budget is not max_nodes:
	 * the task list must not depend on it (shards run with other budgets
	 * are merged). A tree the round walks whole, of more nodes than
	 * max_nodes, all of them above the tasks, stops as a split that runs
	 * out of budget does, with max_nodes nodes and nothing counted. */
	if (!o->split_by_depth) {
		rc = engine_split(e, 0, SOLVE_SPLIT_WHOLE, &t, &st);
		if (rc == XC_OK && st != XC_DONE) {
			xc_tasks_clear(&t);
		} else if (rc == XC_OK && o->max_nodes && t.nodes > o->max_nodes) {
			res->tasks = t.n;
			res->nodes = res->split_nodes = o->max_nodes;
			res->stop = SOLVE_MAX_NODES;
			xc_tasks_clear(&t);
			return SOLVE_OK;
		}
	}
	if (rc == XC_OK && st != XC_DONE)
		rc = engine_split(e, SOLVE_TASKS, o->max_nodes, &t, &st);
	if (rc != XC_OK)
		return SOLVE_ENOMEM;
	res->tasks = t.n;
	res->nodes = res->split_nodes = t.nodes;
	if (st == XC_NODES) {
		/* the budget ran out above the tasks: nothing counted */
		res->stop = SOLVE_MAX_NODES;
		xc_tasks_clear(&t);
		return SOLVE_OK;
	}
	size_t k = o->shard_count ? o->shard_count : 1;
	size_t i0 = o->shard_count ? o->shard_index : 0;
	assert(i0 < k);
	struct pool pl = {.s = s, .t = &t, .base = i0, .step = k,
	                  .mine = t.n > i0 ? (t.n - i0 + k - 1) / k : 0,
	                  .limited = o->max_nodes != 0};
	atomic_init(&pl.next, 0);
	atomic_init(&pl.done, 0);
	atomic_init(&pl.left, o->max_nodes ? o->max_nodes - t.nodes : 0);
	atomic_init(&pl.found, 0);
	atomic_init(&pl.stop, false);
	atomic_init(&pl.why, WHY_NONE);
	atomic_init(&pl.first_at, SIZE_MAX);
	size_t n = o->threads ? o->threads : 1;
	if (n > pl.mine)
		n = pl.mine ? pl.mine : 1;
	size_t maxrow = 1;
	for (size_t r = 0; r < s->nrows; r++)
		if (s->roff[r + 1] - s->roff[r] > maxrow)
			maxrow = s->roff[r + 1] - s->roff[r];
	const struct grid *g = &s->p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	struct worker *w = calloc(n, sizeof *w);
	size_t ready = 0;
	rc = w ? SOLVE_OK : SOLVE_ENOMEM;
	if (rc == SOLVE_OK && o->keep_first) {
		pl.first = malloc(total);
		if (s->colours)
			pl.first_colours = malloc(total);
		if (!pl.first || (s->colours && !pl.first_colours))
			rc = SOLVE_ENOMEM;
	}
	/* The caller's worker searches with 'e' itself, the others with
	 * clones, made before any search starts. Every engine leaves its
	 * split as a clone starts (the bitboards: level 0 made, no path
	 * kept, nothing blanked; dancing links: its lists whole again, a
	 * clone being a copy of them), and a clone's tables are fresh
	 * pages: Pelikan's burr (a 512-cell board, 3,817 rows) 140 page
	 * faults fewer, a tenth of its solve; Dracula's Dental Disaster
	 * (dancing links) 63. */
	for (; ready < n && rc == SOLVE_OK; ready++)
		rc = worker_init(&w[ready], s, &pl, e, maxrow, ready == 0);
	if (rc == SOLVE_OK && pthread_mutex_init(&pl.lock, NULL) != 0)
		rc = SOLVE_ENOMEM;
	if (rc == SOLVE_OK) {
		run_pool(&pl, w, n);
		pthread_mutex_destroy(&pl.lock);
		uint64_t nodes = t.nodes;
		for (size_t i = 0; i < n; i++) {
			s->oom |= w[i].s.oom;
			s->overflow |= w[i].s.overflow;
		}
		if (!s->oom && !s->overflow)
			rc = add_sums(s, w, n, &nodes);
		res->nodes = nodes;
		int why = atomic_load(&pl.why);
		if (why == WHY_SOLUTIONS)
			res->stop = SOLVE_MAX_SOLUTIONS;
		else if (why == WHY_NODES)
			res->stop = SOLVE_MAX_NODES;
		if (atomic_load(&pl.first_at) != SIZE_MAX) {
			res->first = pl.first;
			res->first_colours = pl.first_colours;
			pl.first = pl.first_colours = NULL;
			res->first_moves = pl.first_moves;
			memset(&pl.first_moves, 0, sizeof pl.first_moves);
		}
	}
	for (size_t i = 0; i < ready; i++)
		worker_clear(&w[i]);
	free(w);
	free(pl.first);
	free(pl.first_colours);
	solve_moves_clear(&pl.first_moves);
	xc_tasks_clear(&t);
	return rc;
}
