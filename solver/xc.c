/*
 * xc.c: dancing links over index arrays, laid out as in Knuth's DLX1.
 *
 * Data layout. Item i (0-based in the API) is header node i+1. Nodes are
 * one array of {top, up, down}:
 *   - nodes 1..N are item headers; for them 'top' holds the number of rows
 *     still in the item's list (LEN in Knuth's notation);
 *   - node N+1 is the first spacer; then each row's nodes, each row followed
 *     by a spacer. A spacer has top <= 0 (minus its row number), 'up' = the
 *     first node of the row before it, 'down' = the last node of the row
 *     after it, so hide/unhide can walk a row cyclically without pointers.
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
};

struct xc {
	size_t nprimary, nbounded;
	int32_t nitems;    /* N */
	int32_t *left;     /* N+2 entries: item list links; 0 and N+1 roots */
	int32_t *right;
	unsigned *rem;     /* N+1 entries: copies left for bounded items */
	unsigned *bound;   /* N+1 entries: the initial rem */
	struct node *node; /* 'nnodes' used, 'cap' allocated */
	size_t nnodes, cap;
	size_t nrows;
	int32_t last_spacer;

	/* search state */
	size_t *choice; /* chosen rows' nodes, depth-indexed */
	size_t *rows;   /* rows passed to the visitor */
	uint64_t nodes_tried, max_nodes;
	uint64_t covers;   /* covers visited */
	uint64_t dead;     /* rows tried that led to no cover */
	xc_visit visit;
	void *ctx;
	enum xc_stop stop;
};

xc *xc_new(size_t nprimary, size_t nbounded, const unsigned *bounds)
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
	/* A cover has at most one row per primary item plus one per copy of
	 * each bounded item: that bounds the search depth. */
	size_t depth = nprimary + 1;
	for (size_t j = 0; j < nbounded; j++)
		depth += bounds[j];
	x->choice = malloc(depth * sizeof *x->choice);
	x->rows = malloc(depth * sizeof *x->rows);
	x->cap = 2 * (n + 2) + 64;
	x->node = malloc(x->cap * sizeof *x->node);
	if (!x->left || !x->right || !x->rem || !x->bound || !x->node ||
	    !x->choice || !x->rows) {
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
		assert(bounds[j] >= 1);
		x->bound[P + 1 + j] = bounds[j];
		x->rem[P + 1 + j] = bounds[j];
	}
	for (int32_t i = 0; i <= N; i++) {
		x->node[i].top = 0;
		x->node[i].up = i;
		x->node[i].down = i;
	}
	x->node[N + 1] = (struct node){0, 0, 0};
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
	free(x->node);
	free(x->choice);
	free(x->rows);
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
	/* The search branches on primary items only, so a row with none
	 * could never be chosen. */
	bool has_primary = false;
	for (size_t j = 0; j < k; j++)
		has_primary |= items[j] < x->nprimary;
	assert(has_primary);
	(void)has_primary;
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
	}
	int32_t last = first + (int32_t)k - 1;
	x->node[x->last_spacer].down = last;
	int32_t sp = last + 1;
	x->nrows++;
	x->node[sp].top = -(int32_t)x->nrows;
	x->node[sp].up = first;
	x->node[sp].down = 0;
	x->last_spacer = sp;
	x->nnodes = (size_t)sp + 1;
	return XC_OK;
}

static void hide(struct node *nd, int32_t p)
{
	for (int32_t q = p + 1; q != p;) {
		int32_t t = nd[q].top;
		if (t <= 0) {
			q = nd[q].up;
		} else {
			int32_t u = nd[q].up, d = nd[q].down;
			nd[u].down = d;
			nd[d].up = u;
			nd[t].top--;
			q++;
		}
	}
}

static void unhide(struct node *nd, int32_t p)
{
	for (int32_t q = p - 1; q != p;) {
		int32_t t = nd[q].top;
		if (t <= 0) {
			q = nd[q].down;
		} else {
			int32_t u = nd[q].up, d = nd[q].down;
			nd[u].down = q;
			nd[d].up = q;
			nd[t].top++;
			q--;
		}
	}
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

/* Whether some bounded item has fewer rows left than copies to place. */
static bool bounded_dead(const xc *x)
{
	int32_t root = x->nitems + 1;
	for (int32_t i = x->right[root]; i != root; i = x->right[i])
		if ((unsigned)x->node[i].top < x->rem[i])
			return true;
	return false;
}

static void search(xc *x, size_t depth)
{
	if (x->right[0] == 0) {
		/* Every primary item is covered; bounded ones must be used up. */
		if (x->right[x->nitems + 1] != x->nitems + 1)
			return;
		for (size_t d = 0; d < depth; d++)
			x->rows[d] = row_of(x, (int32_t)x->choice[d]);
		x->covers++;
		if (!x->visit(x->ctx, x->rows, depth))
			x->stop = XC_VISITOR;
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
		if (x->max_nodes && x->nodes_tried >= x->max_nodes) {
			x->stop = XC_NODES;
			break;
		}
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

enum xc_stop xc_solve(xc *x, uint64_t max_nodes, xc_visit visit, void *ctx,
                      uint64_t *nodes)
{
	x->nodes_tried = 0;
	x->covers = 0;
	x->dead = 0;
	x->max_nodes = max_nodes;
	x->visit = visit;
	x->ctx = ctx;
	x->stop = XC_DONE;
	search(x, 0);
	*nodes = x->nodes_tried;
	return x->stop;
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
