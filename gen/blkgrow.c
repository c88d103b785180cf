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
 */
#include <stdlib.h>

#include "gen/blk_int.h"

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

