/*
 * xc.c: dancing links over index arrays, laid out as in Knuth's DLX1.
 *
 * Data layout. Item i (0-based in the API) is header node i+1. Nodes are
 * one array of {top, up, down, last}:
 *   - nodes 1..N are item headers; for them 'top' holds the number of rows
 *     still in the item's list (LEN in Knuth's notation);
 *   - node N+1 is the first spacer; then each row's nodes, each row followed
 *     by a spacer. A spacer has top <= 0 (minus its row number), 'up' = the
 *     first node of the row before it, 'down' = the last node of the row
 *     after it, so a row can be walked cyclically without pointers;
 *   - a row's nodes hold in 'last' the row's last node, so hide/unhide
 *     walk the row as two plain runs with no test for the spacer (the
 *     16-byte node also keeps every node within one cache line): Moira's
 *     Cube counts 6 % faster, SolidSixPieceBurrs 10 %.
 * Item headers also sit in doubly linked lists through left/right: primary
 * items in the list rooted at item slot 0 (the branching candidates),
 * bounded items in the list rooted at slot N+1. An item leaves its list when
 * it is covered.
 *
 * Bounded items (identical pieces): rem[i] copies are still to be placed.
 * Choosing a row decrements rem of its bounded items and covers an item
 * when rem reaches 0, which removes the type's remaining rows. The chosen
 * row itself has already left every list through its primary item's cover.
 *
 * The search is recursive (depth = number of rows in a cover, at most the
 * number of pieces) and restores every link on the way back.
 *
 * Ranges (xc_new_ranges). A bounded item may allow lo..hi rows (a piece
 * with a range of copies, lo < hi; an optional goal cell, 0..1); rem[i]
 * starts at hi and need = lo - (hi - rem) copies are still required.
 * Then a cover is any set of rows covering every primary item once and
 * each bounded item within its range, and rows with no primary item at
 * all (a piece lying on optional cells only) may be chosen. Three phases,
 * each found cover reached by exactly one path:
 *   1. while a primary item is uncovered, branch on one (MRV), as ever;
 *   2. then, while some bounded item still needs rows, branch on the one
 *      with the fewest rows left: its k-th branch takes its k-th row and
 *      first removes rows 1..k-1 from the whole problem (Knuth's
 *      "tweaking" in Algorithm M), so a cover is reached through the
 *      first of its rows, in list order, of that item;
 *   3. then the rows chosen so far are a cover; every further row that
 *      still fits extends it to another cover, and extensions are taken in
 *      increasing row number, so each set of added rows once.
 */
#include "solver/xc.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

struct node {
	int32_t top;  /* item header index; for headers LEN; for spacers <= 0 */
	int32_t up;   /* previous node in the item's list */
	int32_t down; /* next node in the item's list */
	int32_t last; /* the last node of its row (headers, spacers: 0) */
};

struct xc {
	size_t nprimary, nbounded;
	int32_t nitems;    /* N */
	int32_t *left;     /* N+2 entries: item list links; 0 and N+1 roots */
	int32_t *right;
	unsigned *rem;     /* N+1 entries: copies left for bounded items */
	unsigned *bound;   /* N+1 entries: the initial rem (hi) */
	unsigned *slack;   /* N+1 entries: hi - lo (all 0 unless ranged) */
	bool ranged;       /* some bounded item has lo < hi */
	int32_t *tstack;   /* with ranges: rows tweaked away (a node of each),
	                    * one slot per row added */
	size_t ntweaked;
	struct node *node; /* 'nnodes' used, 'cap' allocated */
	size_t nnodes, cap;
	size_t nrows;
	int32_t last_spacer;

	/* search state */
	size_t *choice; /* chosen rows' nodes, depth-indexed */
	size_t *rows;   /* rows passed to the visitor */
	uint64_t nodes_tried, max_nodes;
	uint64_t limit;     /* nodes allowed so far: max_nodes, raised by
	                     * poll; UINT64_MAX for no limit */
	uint64_t covers;   /* covers visited */
	uint64_t dead;     /* rows tried that led to no cover */
	xc_visit visit;
	void *ctx;
	enum xc_stop stop;
	xc_weigh weigh;    /* NULL: every row of a branch, weight 1 */
	void *wctx;
	uint64_t *wprod;   /* depth+1 entries: weight of the path; 0 overflow */
	size_t depth_reported; /* depth of the cover being visited */
	size_t maxdepth;   /* entries of choice and rows */
	xc_poll poll;      /* more budget (xc_set_poll); NULL: none */
	void *pctx;

	/* splitting (xc_split): search() records the path to each node at
	 * depth 'cut' (and to each end of the branching above it) instead
	 * of going on; cut 0: off */
	size_t cut;
	size_t cut_hits;   /* tasks recorded at depth 'cut' */
	struct xc_tasks *tasks;
	bool split_oom;
	/* xc_solve_task keeps the path it replayed (choice[0..rlen-1]
	 * covered and committed): the next task undoes only the steps it
	 * does not share. xc_end_tasks() undoes them all. */
	size_t rlen;
};

xc *xc_new(size_t nprimary, size_t nbounded, const unsigned *bounds)
{
	return xc_new_ranges(nprimary, nbounded, bounds, bounds);
}

xc *xc_new_ranges(size_t nprimary, size_t nbounded, const unsigned *lo,
                  const unsigned *bounds)
{
	size_t n = nprimary + nbounded;
	if (n >= (size_t)INT32_MAX / 2)
		return NULL;
	xc *x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->nprimary = nprimary;
	x->nbounded = nbounded;
	x->nitems = (int32_t)n;
	x->left = malloc((n + 2) * sizeof *x->left);
	x->right = malloc((n + 2) * sizeof *x->right);
	x->rem = calloc(n + 1, sizeof *x->rem);
	x->bound = calloc(n + 1, sizeof *x->bound);
	x->slack = calloc(n + 1, sizeof *x->slack);
	/* A cover has at most one row per primary item plus one per copy of
	 * each bounded item: that bounds the search depth. */
	size_t depth = nprimary + 1;
	for (size_t j = 0; j < nbounded; j++)
		depth += bounds[j];
	x->maxdepth = depth;
	x->choice = malloc(depth * sizeof *x->choice);
	x->rows = malloc(depth * sizeof *x->rows);
	x->wprod = malloc((depth + 1) * sizeof *x->wprod);
	x->cap = 2 * (n + 2) + 64;
	x->node = malloc(x->cap * sizeof *x->node);
	if (!x->left || !x->right || !x->rem || !x->bound || !x->slack ||
	    !x->node || !x->choice || !x->rows || !x->wprod) {
		xc_free(x);
		return NULL;
	}
	int32_t N = (int32_t)n, P = (int32_t)nprimary;
	/* primary list: 0 <-> 1 <-> ... <-> P <-> 0 */
	for (int32_t i = 0; i <= P; i++) {
		x->left[i] = i == 0 ? P : i - 1;
		x->right[i] = i == P ? 0 : i + 1;
	}
	/* bounded list: N+1 <-> P+1 <-> ... <-> N <-> N+1 */
	int32_t root = N + 1;
	int32_t prev = root;
	for (int32_t i = P + 1; i <= N; i++) {
		x->left[i] = prev;
		x->right[prev] = i;
		prev = i;
	}
	x->right[prev] = root;
	x->left[root] = prev;
	for (size_t j = 0; j < nbounded; j++) {
		assert(bounds[j] >= 1 && lo[j] <= bounds[j]);
		x->bound[P + 1 + j] = bounds[j];
		x->rem[P + 1 + j] = bounds[j];
		x->slack[P + 1 + j] = bounds[j] - lo[j];
		x->ranged |= lo[j] < bounds[j];
	}
	for (int32_t i = 0; i <= N; i++) {
		x->node[i].top = 0;
		x->node[i].up = i;
		x->node[i].down = i;
		x->node[i].last = 0;
	}
	x->node[N + 1] = (struct node){0, 0, 0, 0};
	x->nnodes = (size_t)N + 2;
	x->last_spacer = N + 1;
	return x;
}

void xc_free(xc *x)
{
	if (!x)
		return;
	free(x->left);
	free(x->right);
	free(x->rem);
	free(x->bound);
	free(x->slack);
	free(x->tstack);
	free(x->node);
	free(x->choice);
	free(x->rows);
	free(x->wprod);
	free(x);
}

int xc_add_row(xc *x, const size_t *items, size_t k)
{
	assert(k >= 1);
	if (k + 1 > (size_t)INT32_MAX - x->nnodes)
		return XC_ETOOBIG;
	size_t need = x->nnodes + k + 1;
	if (need > x->cap) {
		size_t cap = x->cap;
		while (cap < need)
			cap = cap > SIZE_MAX / 4 ? need : cap * 2;
		if (cap > (size_t)INT32_MAX)
			cap = (size_t)INT32_MAX;
		struct node *nn = realloc(x->node, cap * sizeof *nn);
		if (!nn)
			return XC_ENOMEM;
		x->node = nn;
		x->cap = cap;
	}
	/* A row with no primary item could never be chosen by branching on
	 * primary items: it needs the phased search of ranges. */
	bool has_primary = false;
	for (size_t j = 0; j < k; j++)
		has_primary |= items[j] < x->nprimary;
	if (x->ranged || !has_primary) {
		/* every row can be tweaked away once along a path */
		int32_t *ts = realloc(x->tstack, (x->nrows + 1) * sizeof *ts);
		if (!ts)
			return XC_ENOMEM;
		x->tstack = ts;
		x->ranged = true;
	}
	int32_t first = (int32_t)x->nnodes;
	for (size_t j = 0; j < k; j++) {
		assert(items[j] < (size_t)x->nitems);
		int32_t i = (int32_t)items[j] + 1;
		int32_t q = first + (int32_t)j;
		x->node[q].top = i;
		x->node[q].up = x->node[i].up;
		x->node[q].down = i;
		x->node[x->node[i].up].down = q;
		x->node[i].up = q;
		x->node[i].top++;
		x->node[q].last = first + (int32_t)k - 1;
	}
	int32_t last = first + (int32_t)k - 1;
	x->node[x->last_spacer].down = last;
	int32_t sp = last + 1;
	x->nrows++;
	x->node[sp].top = -(int32_t)x->nrows;
	x->node[sp].up = first;
	x->node[sp].down = 0;
	x->node[sp].last = 0;
	x->last_spacer = sp;
	x->nnodes = (size_t)sp + 1;
	return XC_OK;
}

/* Node q out of its item's list, and back. */
static inline void unlink_node(struct node *nd, int32_t q)
{
	int32_t t = nd[q].top, u = nd[q].up, d = nd[q].down;
	nd[u].down = d;
	nd[d].up = u;
	nd[t].top--;
}

static inline void relink_node(struct node *nd, int32_t q)
{
	int32_t t = nd[q].top, u = nd[q].up, d = nd[q].down;
	nd[u].down = q;
	nd[d].up = q;
	nd[t].top++;
}

/* Unlink the nodes of p's row but p from their items, in row order
 * from p on (the row's bounds from its 'last' and the spacer after it,
 * so the loops need no test for the spacer); unhide() relinks them in the
 * reverse order. */
static void hide(struct node *nd, int32_t p)
{
	int32_t e = nd[p].last, s = nd[e + 1].up;
	for (int32_t q = p + 1; q <= e; q++)
		unlink_node(nd, q);
	for (int32_t q = s; q < p; q++)
		unlink_node(nd, q);
}

static void unhide(struct node *nd, int32_t p)
{
	int32_t e = nd[p].last, s = nd[e + 1].up;
	for (int32_t q = p - 1; q >= s; q--)
		relink_node(nd, q);
	for (int32_t q = e; q > p; q--)
		relink_node(nd, q);
}

static void cover(xc *x, int32_t i)
{
	struct node *nd = x->node;
	for (int32_t p = nd[i].down; p != i; p = nd[p].down)
		hide(nd, p);
	int32_t l = x->left[i], r = x->right[i];
	x->right[l] = r;
	x->left[r] = l;
}

static void uncover(xc *x, int32_t i)
{
	struct node *nd = x->node;
	int32_t l = x->left[i], r = x->right[i];
	x->right[l] = i;
	x->left[r] = i;
	for (int32_t p = nd[i].up; p != i; p = nd[p].up)
		unhide(nd, p);
}

static bool is_bounded(const xc *x, int32_t i)
{
	return i > (int32_t)x->nprimary;
}

/* Cover the items of the chosen row 'r' other than node r itself. */
static void commit(xc *x, int32_t r)
{
	struct node *nd = x->node;
	for (int32_t q = r + 1; q != r;) {
		int32_t t = nd[q].top;
		if (t <= 0) {
			q = nd[q].up;
			continue;
		}
		if (!is_bounded(x, t) || --x->rem[t] == 0)
			cover(x, t);
		q++;
	}
}

static void uncommit(xc *x, int32_t r)
{
	struct node *nd = x->node;
	for (int32_t q = r - 1; q != r;) {
		int32_t t = nd[q].top;
		if (t <= 0) {
			q = nd[q].down;
			continue;
		}
		if (!is_bounded(x, t) || x->rem[t]++ == 0)
			uncover(x, t);
		q--;
	}
}

static size_t row_of(const xc *x, int32_t q)
{
	while (x->node[q].top > 0)
		q--;
	return (size_t)(-x->node[q].top);
}

/* Rows bounded item i still needs (0 when its range is met). */
static unsigned need(const xc *x, int32_t i)
{
	return x->rem[i] > x->slack[i] ? x->rem[i] - x->slack[i] : 0;
}

/* Whether some bounded item has fewer rows left than copies it needs. */
static bool bounded_dead(const xc *x)
{
	int32_t root = x->nitems + 1;
	for (int32_t i = x->right[root]; i != root; i = x->right[i])
		if ((unsigned)x->node[i].top < need(x, i))
			return true;
	return false;
}

static void report(xc *x, size_t depth)
{
	if (!x->weigh)
		x->wprod[depth] = 1;
	for (size_t d = 0; d < depth; d++)
		x->rows[d] = row_of(x, (int32_t)x->choice[d]);
	x->depth_reported = depth;
	x->covers++;
	if (!x->visit(x->ctx, x->rows, depth))
		x->stop = XC_VISITOR;
}

/* Remove row r (node p of it, in item top(p)'s list) from the whole
 * problem, and put it back. */
static void tweak(xc *x, int32_t p)
{
	hide(x->node, p);
	unlink_node(x->node, p);
}

static void untweak(xc *x, int32_t p)
{
	relink_node(x->node, p);
	unhide(x->node, p);
}

/* Choose row p when every primary item is covered: the row leaves the
 * problem, each of its items (all bounded) gives up one copy and is
 * covered once it has none left. Undone by untake(). */
static void take(xc *x, int32_t p)
{
	struct node *nd = x->node;
	tweak(x, p);
	int32_t q = p;
	do {
		int32_t t = nd[q].top;
		if (t <= 0) {
			q = nd[q].up;
			continue;
		}
		if (--x->rem[t] == 0)
			cover(x, t);
		q++;
	} while (q != p);
}

static void untake(xc *x, int32_t p)
{
	struct node *nd = x->node;
	int32_t q = p;
	do {
		q--;
		int32_t t = nd[q].top;
		if (t <= 0) {
			q = nd[q].down + 1;
			continue;
		}
		if (x->rem[t]++ == 0)
			uncover(x, t);
	} while (q != p);
	untweak(x, p);
}

/* Whether the node budget is spent: poll() (xc_set_poll) may give more;
 * sets stop when not. Out of the way of the hot loops. */
static bool __attribute__((noinline)) spent(xc *x)
{
	if (x->poll) {
		uint64_t more = x->poll(x->pctx);
		if (more) {
			x->limit += more;
			return false;
		}
	}
	x->stop = XC_NODES;
	return true;
}

/* Splitting: the path to this node, choice[0..depth-1], is a task. */
static void record(xc *x, size_t depth)
{
	if (xc_tasks_add(x->tasks, x->choice, depth)) {
		x->cut_hits += depth == x->cut;
		return;
	}
	x->split_oom = true;
	x->stop = XC_VISITOR;
}

static void search(xc *x, size_t depth);

/* Phase 3 (see the top): the rows chosen are a cover; extend it by every
 * row numbered 'from' or above that still fits. */
static void extend(xc *x, size_t depth, size_t from)
{
	struct node *nd = x->node;
	int32_t root = x->nitems + 1;
	for (int32_t i = x->right[root]; i != root && x->stop == XC_DONE;
	     i = x->right[i])
		for (int32_t p = nd[i].down; p != i && x->stop == XC_DONE;
		     p = nd[p].down) {
			if (nd[p - 1].top > 0)
				continue; /* not its row's first node: seen elsewhere */
			size_t row = row_of(x, p);
			if (row < from)
				continue;
			if (x->nodes_tried >= x->limit &&
			    spent(x))
				return;
			x->nodes_tried++;
			x->choice[depth] = (size_t)p;
			x->wprod[depth + 1] = x->wprod[depth];
			take(x, p);
			report(x, depth + 1);
			if (x->stop == XC_DONE)
				extend(x, depth + 1, row + 1);
			untake(x, p);
		}
}

/* Phase 2: branch on bounded item i, which still needs rows. */
static void branch_needed(xc *x, size_t depth, int32_t i)
{
	struct node *nd = x->node;
	int32_t p = nd[i].down, done = 0;
	while (p != i && x->stop == XC_DONE) {
		if (x->nodes_tried >= x->limit && spent(x))
			break;
		x->nodes_tried++;
		x->choice[depth] = (size_t)p;
		x->wprod[depth + 1] = x->wprod[depth];
		uint64_t before = x->covers;
		take(x, p);
		search(x, depth + 1);
		untake(x, p);
		x->dead += x->covers == before;
		int32_t next = nd[p].down;
		tweak(x, p);
		x->tstack[x->ntweaked++] = p;
		done++;
		p = next;
	}
	/* put the tweaked rows back, last first */
	while (done-- > 0)
		untweak(x, x->tstack[--x->ntweaked]);
}

static void search(xc *x, size_t depth)
{
	if (x->cut && (depth == x->cut || x->right[0] == 0)) {
		record(x, depth);
		return;
	}
	if (x->right[0] == 0) {
		int32_t root = x->nitems + 1;
		if (!x->ranged) {
			/* Every primary item is covered; bounded ones must be
			 * used up. */
			if (x->right[root] == root)
				report(x, depth);
			return;
		}
		if (bounded_dead(x))
			return;
		int32_t best = 0;
		for (int32_t i = x->right[root]; i != root; i = x->right[i])
			if (need(x, i) && (!best || x->node[i].top < x->node[best].top))
				best = i;
		if (best) {
			branch_needed(x, depth, best);
			return;
		}
		report(x, depth);
		if (x->stop == XC_DONE)
			extend(x, depth, 0);
		return;
	}
	if (x->nbounded && bounded_dead(x))
		return;
	struct node *nd = x->node;
	int32_t best = x->right[0];
	int32_t best_len = nd[best].top;
	for (int32_t i = x->right[best]; i != 0 && best_len > 0; i = x->right[i])
		if (nd[i].top < best_len) {
			best = i;
			best_len = nd[i].top;
		}
	if (best_len == 0)
		return;
	cover(x, best);
	for (int32_t r = nd[best].down; r != best; r = nd[r].down) {
		if (x->weigh) {
			/* x->rows[0..depth-1] hold the rows of this path */
			size_t row = row_of(x, r);
			uint64_t w = x->weigh(x->wctx, (size_t)best - 1, row,
			                      x->rows, depth);
			if (w == 0)
				continue;
			uint64_t p = x->wprod[depth];
			/* UINT64_MAX from the weigher: too many */
			x->wprod[depth + 1] = p && w != UINT64_MAX && w <= UINT64_MAX / p
			                    ? p * w : 0;
			x->rows[depth] = row;
		}
		if (x->nodes_tried >= x->limit && spent(x))
			break;
		x->nodes_tried++;
		x->choice[depth] = (size_t)r;
		uint64_t before = x->covers;
		commit(x, r);
		search(x, depth + 1);
		uncommit(x, r);
		x->dead += x->covers == before;
		if (x->stop != XC_DONE)
			break;
	}
	uncover(x, best);
}

static void start(xc *x, uint64_t max_nodes, xc_visit visit, void *ctx)
{
	x->nodes_tried = 0;
	x->covers = 0;
	x->dead = 0;
	x->max_nodes = max_nodes;
	/* with a poll function, max_nodes is the first allowance, 0 too */
	x->limit = max_nodes || x->poll ? max_nodes : UINT64_MAX;
	x->visit = visit;
	x->ctx = ctx;
	x->stop = XC_DONE;
	x->wprod[0] = 1;
}

/* Undo the replayed steps from the last back to step 'keep'. */
static void unreplay(xc *x, size_t keep)
{
	for (; x->rlen > keep; x->rlen--) {
		int32_t p = (int32_t)x->choice[x->rlen - 1];
		uncommit(x, p);
		uncover(x, x->node[p].top);
	}
}

void xc_end_tasks(xc *x)
{
	unreplay(x, 0);
}

enum xc_stop xc_solve(xc *x, uint64_t max_nodes, xc_visit visit, void *ctx,
                      uint64_t *nodes)
{
	unreplay(x, 0);
	start(x, max_nodes, visit, ctx);
	search(x, 0);
	*nodes = x->nodes_tried;
	return x->stop;
}

void xc_set_poll(xc *x, xc_poll poll, void *ctx)
{
	x->poll = poll;
	x->pctx = ctx;
}

bool xc_tasks_add(struct xc_tasks *t, const size_t *step, size_t len)
{
	size_t used = t->n ? t->off[t->n] : 0;
	if (t->n + 2 > t->ncap) {
		size_t cap = t->ncap ? 2 * t->ncap : 256;
		size_t *o = realloc(t->off, cap * sizeof *o);
		if (!o)
			return false;
		t->off = o;
		t->ncap = cap;
	}
	if (used + len > t->scap) {
		size_t cap = t->scap ? 2 * t->scap : 1024;
		while (cap < used + len)
			cap *= 2;
		size_t *st = realloc(t->step, cap * sizeof *st);
		if (!st)
			return false;
		t->step = st;
		t->scap = cap;
	}
	if (len) /* an empty task (the root's) may have no steps yet */
		memcpy(t->step + used, step, len * sizeof *t->step);
	t->off[0] = 0;
	t->off[++t->n] = used + len;
	return true;
}

void xc_tasks_clear(struct xc_tasks *t)
{
	free(t->off);
	free(t->step);
	*t = (struct xc_tasks){0};
}

/* Iterative deepening: cut at depth 1, 2, ... until enough tasks are open
 * or none reaches the cut. Each round repeats the top of the search, a
 * small share of it (the rounds' sizes grow geometrically); the nodes
 * reported are the last round's, those above its cut. want 0: one round
 * with a cut no search reaches. */
int xc_split(xc *x, size_t want, uint64_t max_nodes, struct xc_tasks *out,
             enum xc_stop *stop)
{
	xc_poll poll = x->poll;
	x->poll = NULL; /* a plain budget here */
	x->tasks = out;
	unreplay(x, 0);
	for (size_t d = want ? 1 : XC_NO_CUT;; d++) {
		out->n = 0;
		x->cut = d;
		x->cut_hits = 0;
		x->split_oom = false;
		start(x, max_nodes, NULL, NULL);
		search(x, 0);
		x->cut = 0;
		if (x->split_oom) {
			x->poll = poll;
			xc_tasks_clear(out);
			return XC_ENOMEM;
		}
		if (!out->off) {
			/* no task at all: keep 'off' a valid empty list */
			out->off = malloc(sizeof *out->off);
			if (!out->off) {
				x->poll = poll;
				return XC_ENOMEM;
			}
			out->ncap = 1;
			out->off[0] = 0;
		}
		out->nodes = x->nodes_tried;
		*stop = x->stop;
		if (!want || x->stop != XC_DONE || out->n >= want ||
		    x->cut_hits == 0)
			break;
	}
	x->poll = poll;
	return XC_OK;
}

/* Replay task k's path as search() took it (cover the item branched on,
 * commit the row, weigh it) from where it parts from the path replayed
 * last, and search below. */
enum xc_stop xc_solve_task(xc *x, const struct xc_tasks *t, size_t k,
                           uint64_t max_nodes, xc_visit visit, void *ctx,
                           uint64_t *nodes)
{
	assert(k < t->n);
	const size_t *path = t->step + t->off[k];
	size_t len = t->off[k + 1] - t->off[k];
	struct node *nd = x->node;
	start(x, max_nodes, visit, ctx);
	size_t p = 0;
	while (p < x->rlen && p < len && x->choice[p] == path[p])
		p++;
	unreplay(x, p);
	for (size_t d = p; d < len; d++) {
		int32_t q = (int32_t)path[d];
		cover(x, nd[q].top);
		if (x->weigh) {
			size_t row = row_of(x, q);
			uint64_t w = x->weigh(x->wctx, (size_t)nd[q].top - 1, row,
			                      x->rows, d);
			uint64_t pw = x->wprod[d];
			x->wprod[d + 1] = pw && w != UINT64_MAX && w <= UINT64_MAX / pw
			                ? pw * w : 0;
			x->rows[d] = row;
		}
		x->choice[d] = (size_t)q;
		commit(x, q);
		x->rlen = d + 1;
	}
	search(x, len);
	*nodes = x->nodes_tried;
	return x->stop;
}

/* Copy 'n' elements of 'size' bytes, or NULL for a NULL 'p'; '*bad' is
 * set when out of memory. */
static void *dup_array(const void *p, size_t n, size_t size, bool *bad)
{
	if (!p)
		return NULL;
	void *q = malloc((n ? n : 1) * size);
	if (!q)
		*bad = true;
	else
		memcpy(q, p, n * size);
	return q;
}

xc *xc_clone(const xc *x)
{
	xc *c = malloc(sizeof *c);
	if (!c)
		return NULL;
	*c = *x;
	size_t n = (size_t)x->nitems;
	bool bad = false;
	c->left = dup_array(x->left, n + 2, sizeof *x->left, &bad);
	c->right = dup_array(x->right, n + 2, sizeof *x->right, &bad);
	c->rem = dup_array(x->rem, n + 1, sizeof *x->rem, &bad);
	c->bound = dup_array(x->bound, n + 1, sizeof *x->bound, &bad);
	c->slack = dup_array(x->slack, n + 1, sizeof *x->slack, &bad);
	c->tstack = dup_array(x->tstack, x->nrows, sizeof *x->tstack, &bad);
	c->node = dup_array(x->node, x->nnodes, sizeof *x->node, &bad);
	c->choice = dup_array(x->choice, x->maxdepth, sizeof *x->choice, &bad);
	c->rows = dup_array(x->rows, x->maxdepth, sizeof *x->rows, &bad);
	c->wprod = dup_array(x->wprod, x->maxdepth + 1, sizeof *x->wprod, &bad);
	c->cap = x->nnodes;
	c->tasks = NULL;
	if (bad) {
		xc_free(c);
		return NULL;
	}
	return c;
}

void xc_set_weigh(xc *x, xc_weigh weigh, void *ctx)
{
	x->weigh = weigh;
	x->wctx = ctx;
}

uint64_t xc_weight(const xc *x)
{
	return x->wprod[x->depth_reported];
}

uint64_t xc_dead_ends(const xc *x)
{
	return x->dead;
}

bool xc_intact(const xc *x)
{
	int32_t N = x->nitems, P = (int32_t)x->nprimary;
	for (int32_t i = 0; i <= P; i++)
		if (x->right[i] != (i == P ? 0 : i + 1))
			return false;
	for (int32_t i = P + 1; i <= N; i++)
		if (x->rem[i] != x->bound[i] || x->left[x->right[i]] != i)
			return false;
	/* Every list must be the rows in order, with the right lengths. */
	for (int32_t i = 1; i <= N; i++) {
		int32_t len = 0, prev = i;
		for (int32_t p = x->node[i].down; p != i; p = x->node[p].down) {
			if (p <= prev || x->node[p].top != i || x->node[p].up != prev)
				return false;
			prev = p;
			len++;
		}
		if (len != x->node[i].top || x->node[i].up != prev)
			return false;
	}
	return true;
}
