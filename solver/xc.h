/*
 * xc.h: exact cover by dancing links (after Knuth's DLX1), with bounded
 * items for identical pieces.
 *
 * Items are numbered from 0. Items 0..nprimary-1 are primary: each must be
 * covered by exactly one chosen row. Items nprimary..nprimary+nbounded-1 are
 * bounded: item nprimary+j must be covered by exactly bounds[j] chosen rows
 * (a piece type with several identical copies). The search branches only on
 * primary items, always on one with the fewest rows left (MRV, ties to the
 * lowest number), and drops a bounded item's rows once it is used up; so
 * every exact cover is found exactly once, whatever the row order.
 *
 * Rows are numbered from 0 in the order they are added. Ownership: the
 * caller owns the xc from xc_new() and frees it with xc_free(). Errors:
 * XC_ENOMEM (nothing changed), XC_ETOOBIG (more than 2^31 nodes).
 */
#ifndef CUBEGEN_XC_H
#define CUBEGEN_XC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xc xc;

enum xc_status { XC_OK = 0, XC_ENOMEM, XC_ETOOBIG };

/* Why a search ended. */
enum xc_stop {
	XC_DONE,    /* every cover was visited */
	XC_VISITOR, /* the visitor asked to stop */
	XC_NODES,   /* the node budget ran out */
};

/* Called for each exact cover with its rows (in the order chosen); return
 * false to stop the search. 'rows' is valid only during the call. */
typedef bool (*xc_visit)(void *ctx, const size_t *rows, size_t nrows);

/* A new problem with no rows, or NULL when out of memory. */
xc *xc_new(size_t nprimary, size_t nbounded, const unsigned *bounds);
/* The same with ranges: bounded item nprimary+j must be covered by lo[j]
 * to hi[j] chosen rows (0 <= lo <= hi, hi >= 1). With some lo < hi, rows
 * need no primary item (a piece on optional cells only), and the search
 * also branches on items that still need rows and extends covers by rows
 * that still fit (xc.c); every such cover is visited exactly once. */
xc *xc_new_ranges(size_t nprimary, size_t nbounded, const unsigned *lo,
                  const unsigned *hi);
void xc_free(xc *x);

/* Add a row covering the 'k' distinct items 'items' (k >= 1). A row
 * with no primary item makes the search phased, as with ranges. */
int xc_add_row(xc *x, const size_t *items, size_t k);

/*
 * Symmetric rows (optional). A weigher is asked, whenever the search
 * branches on a primary item, about each row of that item: it returns 0 to
 * skip the row or w >= 1 when the row stands for w rows of the item (its
 * images under a symmetry of the problem that fixes the rows chosen so
 * far, which are in 'chosen', 'depth' of them; UINT64_MAX: more than fit
 * in 64 bits, so the cover's weight is 0). The weigher must make the
 * counts right: the covers through a skipped row must be exactly as many,
 * in total, as the weights of its representatives say. xc_weight() gives
 * a cover's weight, the product along its path, during the visit.
 */
typedef uint64_t (*xc_weigh)(void *ctx, size_t item, size_t row,
                             const size_t *chosen, size_t depth);
void xc_set_weigh(xc *x, xc_weigh weigh, void *ctx);
/* The weight of the cover being visited; 0 when it does not fit in
 * 64 bits. 1 without a weigher. */
uint64_t xc_weight(const xc *x);

/* Search for every exact cover, calling 'visit' for each. At most
 * 'max_nodes' rows are tried (0: no limit). '*nodes' receives the number
 * tried. The xc is left as it was, so it can be solved again. */
enum xc_stop xc_solve(xc *x, uint64_t max_nodes, xc_visit visit, void *ctx,
                      uint64_t *nodes);

/*
 * A shared node budget (optional). With a poll function set, the budget a
 * solve is given is a first allowance: when it is used up the engine asks
 * poll() for more nodes and goes on with what it returns, or stops
 * (XC_NODES) on 0. So several searches can draw on one budget, and stop
 * together, checking shared state only once per allowance. With a poll
 * function max_nodes 0 is an allowance of none (poll is asked before the
 * first node), not "no limit". bb.h shares this.
 */
typedef uint64_t (*xc_poll)(void *ctx);
void xc_set_poll(xc *x, xc_poll poll, void *ctx);

/*
 * Splitting a search into tasks (xc_split, bb_split). The top of the
 * search tree is walked in the engine's own order down to a cut depth d,
 * the smallest at which at least 'want' subtrees are left open (or none
 * reaches d): each open subtree, and each cover or end of the branching
 * met above d, is a task, named by the path that leads to it from the
 * root (the engine's own step numbers). The tasks are disjoint and their
 * union is the whole search: every cover is found in exactly one, and
 * the nodes tried above them ('nodes') plus those the tasks try are the
 * nodes of one whole solve. Tasks are listed in the search's order, so
 * the first cover of the lowest task that has one is the first cover a
 * whole solve finds. Freed with xc_tasks_clear().
 */
/* A cut depth no search reaches (want 0 above). */
#define XC_NO_CUT (SIZE_MAX - 1)

struct xc_tasks {
	size_t n;        /* tasks */
	size_t *off;     /* n + 1 offsets into 'step' */
	size_t *step;    /* task k's path: step[off[k]] .. step[off[k+1]-1] */
	uint64_t nodes;  /* nodes tried above the tasks */
	size_t ncap, scap; /* capacities of off and step */
};
void xc_tasks_clear(struct xc_tasks *t);
/* Append a task, the path step[0..len-1] (for the engines' splits).
 * False when out of memory ('t' unchanged). */
bool xc_tasks_add(struct xc_tasks *t, const size_t *step, size_t len);

/* Split the search of 'x' into tasks ('*out', empty on entry). At most
 * 'max_nodes' nodes are tried (0: no limit); '*stop' says XC_NODES when
 * they ran out (the tasks are then incomplete). XC_OK or XC_ENOMEM
 * ('*out' cleared). The xc is left as it was.
 *
 * want 0: no cut at all. The whole search is walked once and each cover
 * is a task (no subtree is left open, but for the bounded and ranged
 * items' phases below a cover of the primary items, which xc records
 * as a task as any split does): the split of a tree too small to
 * open 'want' subtrees at any depth, in one round instead of one per
 * depth, each repeating the top, where such trees (a few thousand nodes
 * of long lists: a block puzzle of 216 cells) spend most of their time.
 * The tasks are as valid as any split's; solve's tasks.c asks for it
 * first, with a small budget. */
int xc_split(xc *x, size_t want, uint64_t max_nodes, struct xc_tasks *out,
             enum xc_stop *stop);
/* Search the subtree of task k of 't' (made by xc_split on this xc or on
 * one it was cloned from), as xc_solve() does the whole. */
enum xc_stop xc_solve_task(xc *x, const struct xc_tasks *t, size_t k,
                           uint64_t max_nodes, xc_visit visit, void *ctx,
                           uint64_t *nodes);
/* Undo what xc_solve_task keeps between calls (the path it replayed
 * last), so the xc is as it was (xc_intact); xc_solve and xc_split do it
 * themselves. */
void xc_end_tasks(xc *x);
/* An independent copy of 'x' with its rows, weigher and poll (one per
 * thread: a search changes its xc while it runs); NULL when out of
 * memory. */
xc *xc_clone(const xc *x);

/* Of the rows the last xc_solve() tried, how many led to no cover: the
 * search's dead ends (difficulty.h). Exact when that search was
 * complete. */
uint64_t xc_dead_ends(const xc *x);

/* Whether every link is as it was after the last xc_add_row(): a sanity
 * check for tests (Knuth's "every link restored"). */
bool xc_intact(const xc *x);

#endif
