/*
 * bb.c: the 64-cell bitboard engine.
 *
 * Workload: Soma, pentacube boxes, Bedlam: tens of pieces, a few thousand
 * rows, millions to billions of nodes. Per node the work is one AND per
 * candidate row, so rows are grouped by their first cell (in fill order)
 * into one contiguous array, with each row's neighbour mask precomputed
 * for the dead-region test.
 *
 * Dead regions: after a placement, each empty region next to the piece is
 * flooded; one whose size no multiset of the pieces left adds up to can
 * never be filled, so the branch ends.
 */
#include "solver/bb.h"

#include <stdlib.h>
#include <string.h>

struct brow {
	uint64_t mask; /* cells, renumbered */
	uint64_t adj;  /* empty-able cells next to the row */
	uint32_t type;
	uint32_t id;   /* row number as added */
};

struct bb {
	size_t ncells;
	uint64_t full;
	uint64_t nbr[64]; /* renumbered */
	unsigned rank[64];
	size_t ntypes;
	unsigned *rem;  /* copies left per type */
	unsigned *size; /* cells per type */
	struct brow *rows;
	size_t nrows, cap;
	size_t first; /* type placed at the root; ntypes if none */

	/* search */
	struct brow *sorted;  /* rows by first cell */
	uint32_t start[65];   /* sorted[start[c] .. start[c+1]) begin at c */
	size_t *path;
	uint64_t nodes, max_nodes;
	xc_visit visit;
	void *ctx;
	enum xc_stop stop;
};

bb *bb_new(size_t ncells, const uint64_t *nbr, const unsigned *rank,
           size_t ntypes, const unsigned *counts, const unsigned *sizes)
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
	b->rem = malloc((ntypes ? ntypes : 1) * sizeof *b->rem);
	b->size = malloc((ntypes ? ntypes : 1) * sizeof *b->size);
	size_t depth = 1;
	for (size_t t = 0; t < ntypes; t++)
		depth += counts[t];
	b->path = malloc(depth * sizeof *b->path);
	if (!b->rem || !b->size || !b->path) {
		bb_free(b);
		return NULL;
	}
	memcpy(b->rem, counts, ntypes * sizeof *counts);
	memcpy(b->size, sizes, ntypes * sizeof *sizes);
	for (size_t c = 0; c < ncells; c++)
		b->rank[c] = rank[c];
	for (size_t c = 0; c < ncells; c++) {
		uint64_t m = 0;
		for (size_t d = 0; d < ncells; d++)
			if (nbr[c] >> d & 1)
				m |= (uint64_t)1 << rank[d];
		b->nbr[rank[c]] = m;
	}
	return b;
}

void bb_free(bb *b)
{
	if (!b)
		return;
	free(b->rem);
	free(b->size);
	free(b->rows);
	free(b->sorted);
	free(b->path);
	free(b);
}

int bb_add_row(bb *b, uint64_t cells, size_t type)
{
	if (b->nrows == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 256;
		struct brow *r = realloc(b->rows, cap * sizeof *r);
		if (!r)
			return XC_ENOMEM;
		b->rows = r;
		/* The search's sorted copy is sized here, so solving cannot
		 * fail for want of memory. */
		struct brow *s = realloc(b->sorted, cap * sizeof *s);
		if (!s)
			return XC_ENOMEM;
		b->sorted = s;
		b->cap = cap;
	}
	if (b->nrows >= UINT32_MAX)
		return XC_ETOOBIG;
	uint64_t m = 0, adj = 0;
	for (uint64_t c = cells; c; c &= c - 1)
		m |= (uint64_t)1 << b->rank[__builtin_ctzll(c)];
	for (uint64_t c = m; c; c &= c - 1)
		adj |= b->nbr[__builtin_ctzll(c)];
	b->rows[b->nrows] = (struct brow){m, adj & ~m, (uint32_t)type,
	                                  (uint32_t)b->nrows};
	b->nrows++;
	return XC_OK;
}

void bb_set_first(bb *b, size_t type)
{
	b->first = type;
}

/* Bit s set when some multiset of the pieces left has s cells in all
 * (s < 64; bit 0 is always set). */
static uint64_t sums_left(const bb *b)
{
	uint64_t can = 1;
	for (size_t t = 0; t < b->ntypes; t++)
		for (unsigned k = 0; k < b->rem[t] && b->size[t] < 64; k++)
			can |= can << b->size[t];
	return can;
}

/* Whether some empty region next to 'adj' has a size that no multiset of
 * the pieces left adds up to (a region that fills all empty cells always
 * fits: the volumes match). */
static bool dead(const bb *b, uint64_t filled, uint64_t adj)
{
	uint64_t seen = 0, empty = b->full & ~filled, can = 0;
	for (uint64_t cand = adj & empty; cand; cand &= cand - 1) {
		uint64_t bit = cand & -cand;
		if (seen & bit)
			continue;
		uint64_t region = bit, frontier = bit;
		while (frontier) {
			uint64_t grow = 0;
			for (uint64_t f = frontier; f; f &= f - 1)
				grow |= b->nbr[__builtin_ctzll(f)];
			frontier = grow & empty & ~region;
			region |= frontier;
		}
		if (region == empty)
			return false;
		if (!can)
			can = sums_left(b);
		if (!(can >> __builtin_popcountll(region) & 1))
			return true;
		seen |= region;
	}
	return false;
}

static void search(bb *b, uint64_t filled, size_t depth)
{
	if (filled == b->full) {
		if (!b->visit(b->ctx, b->path, depth))
			b->stop = XC_VISITOR;
		return;
	}
	unsigned c = (unsigned)__builtin_ctzll(~filled);
	for (uint32_t i = b->start[c]; i < b->start[c + 1]; i++) {
		const struct brow *r = &b->sorted[i];
		if ((r->mask & filled) || !b->rem[r->type])
			continue;
		if (b->max_nodes && b->nodes >= b->max_nodes) {
			b->stop = XC_NODES;
			return;
		}
		b->nodes++;
		uint64_t nf = filled | r->mask;
		b->rem[r->type]--;
		if (!dead(b, nf, r->adj)) {
			b->path[depth] = r->id;
			search(b, nf, depth + 1);
		}
		b->rem[r->type]++;
		if (b->stop != XC_DONE)
			return;
	}
}

static int cmp_first(const void *pa, const void *pb)
{
	const struct brow *a = pa, *b = pb;
	unsigned ca = (unsigned)__builtin_ctzll(a->mask);
	unsigned cb = (unsigned)__builtin_ctzll(b->mask);
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

enum xc_stop bb_solve(bb *b, uint64_t max_nodes, xc_visit visit, void *ctx,
                      uint64_t *nodes)
{
	size_t n = 0;
	for (size_t i = 0; i < b->nrows; i++)
		if (b->rows[i].type != b->first)
			b->sorted[n++] = b->rows[i];
	qsort(b->sorted, n, sizeof *b->sorted, cmp_first);
	size_t k = 0;
	for (unsigned c = 0; c <= 64; c++) {
		while (k < n && (unsigned)__builtin_ctzll(b->sorted[k].mask) < c)
			k++;
		b->start[c] = (uint32_t)k;
	}
	b->start[64] = (uint32_t)n;
	b->nodes = 0;
	b->max_nodes = max_nodes;
	b->visit = visit;
	b->ctx = ctx;
	b->stop = XC_DONE;
	if (b->first == b->ntypes) {
		search(b, 0, 0);
	} else {
		b->rem[b->first]--;
		for (size_t i = 0; i < b->nrows && b->stop == XC_DONE; i++) {
			const struct brow *r = &b->rows[i];
			if (r->type != b->first)
				continue;
			if (max_nodes && b->nodes >= max_nodes) {
				b->stop = XC_NODES;
				break;
			}
			b->nodes++;
			if (dead(b, r->mask, r->adj))
				continue;
			b->path[0] = r->id;
			search(b, r->mask, 1);
		}
		b->rem[b->first]++;
	}
	*nodes = b->nodes;
	return b->stop;
}
