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

/* Of the rows the last xc_solve() tried, how many led to no cover: the
 * search's dead ends (difficulty.h). Exact when that search was
 * complete. */
uint64_t xc_dead_ends(const xc *x);

/* Whether every link is as it was after the last xc_add_row(): a sanity
 * check for tests (Knuth's "every link restored"). */
bool xc_intact(const xc *x);

#endif
