/*
 * lock.c: the interlocking climb (blk_lock(), blk_int.h): reshape a
 * dissection a cell at a time until its answer needs level_min moves
 * before its first part comes free.
 *
 * Why hollows. Take a goal each of whose rows along x, y and z is one run
 * of cells (a box, say), filled with no empty cell. If a group can move
 * one cell along +x, every cell a group cell moves into is the group's or
 * outside the goal, so in each row the group's cells are the run's last
 * ones: nothing of the rest lies ahead of them, and the group can move
 * any distance. Such a goal filled solid therefore always comes apart at
 * level 1, whatever its pieces. Interlocking designs leave room inside:
 * here inner cells (all six neighbours in the goal) may stay empty,
 * hidden once the puzzle is together, and the written goal has every
 * inner cell optional, so that the answer is unique whatever is inside.
 * (A goal with a dent, a row of two runs or more, needs no hollow.)
 */
#include <stdint.h>
#include <string.h>

#include "gen/blk_int.h"
#include "solver/solve.h"

/* The assembly as labels into w->labels; how loose it is: over the
 * three axes, the strongly connected components of "piece i has a cell
 * of piece j ahead of one of its own along +axis", less one each. A
 * group can slide out along an axis at once exactly when that graph is
 * not strongly connected (the group closed under it, or the rest), so
 * this is 0 exactly when no group is free at the start: when an
 * assembly that comes apart does so at level 2 or more. The climb's
 * measure on level 1. */
static int loose(struct blk_work *w)
{
	const struct grid *g = w->goal;
	memset(w->labels, 0, (size_t)g->nx * (size_t)g->ny * (size_t)g->nz);
	for (int c = 0; c < w->n; c++)
		if (w->pc[c] >= 0)
			w->labels[w->at[c]] = (unsigned char)(w->pc[c] + 1);
	int lim[3] = {g->nx, g->ny, g->nz}, sum = 0, k = w->np;
	size_t step[3] = {1, (size_t)g->nx, (size_t)g->nx * (size_t)g->ny};
	for (int a = 0; a < 3; a++) {
		uint64_t reach[BLK_MAX_PIECES];
		for (int i = 0; i < k; i++)
			reach[i] = (uint64_t)1 << i;
		/* every line along a, from its far end: the pieces met so far
		 * are ahead of the cell reached */
		int b = (a + 1) % 3, c = (a + 2) % 3;
		for (int v = 0; v < lim[c]; v++)
			for (int u = 0; u < lim[b]; u++) {
				uint64_t ahead = 0;
				size_t at = (size_t)u * step[b] + (size_t)v * step[c] +
				            (size_t)(lim[a] - 1) * step[a];
				for (int t = lim[a] - 1; t >= 0; t--, at -= step[a]) {
					int p = w->labels[at];
					if (!p)
						continue;
					reach[p - 1] |= ahead;
					ahead |= (uint64_t)1 << (p - 1);
				}
			}
		/* closed under the edges: reach[i], every piece i reaches */
		for (bool more = true; more;) {
			more = false;
			for (int i = 0; i < k; i++) {
				uint64_t r = reach[i];
				for (uint64_t t = r & ~((uint64_t)1 << i); t; t &= t - 1)
					r |= reach[__builtin_ctzll(t)];
				more |= r != reach[i];
				reach[i] = r;
			}
		}
		/* a component's least piece: none before it both ways */
		for (int i = 0; i < k; i++) {
			bool least = true;
			for (int j = 0; j < i && least; j++)
				least = !(reach[i] >> j & 1 && reach[j] >> i & 1);
			sum += least;
		}
		sum--;
	}
	return sum;
}

/* The assembly's disassembly into '*d' (w->labels as loose() left
 * them). 1 it comes apart ('*level' its first number), 0 not (stuck or
 * bounded), -1 out of memory. */
static int take_apart(struct blk_work *w, struct dis_result *d, int *level)
{
	const struct grid *g = w->goal;
	int rc = dis_run(w->dis, g->nx, g->ny, g->nz, w->labels, (size_t)w->np,
	                 NULL, NULL, d);
	if (rc != DIS_OK)
		return rc == DIS_ENOMEM ? -1 : 0;
	if (d->verdict != DIS_APART) {
		dis_result_clear(d);
		return 0;
	}
	*level = d->nlevel ? d->level[0] : 1;
	return 1;
}

/* Whether the dissection keeps every rule of blocks.h: no two pieces
 * congruent, the caller's tests, and one solution with the inner cells
 * optional. 1 yes, 0 no, -1 out of memory. */
static int rules_kept(struct blk_work *w, const struct blk_spec *s)
{
	for (int i = 0; i < w->np; i++)
		blk_drop_final(w, i);
	for (int i = 0; i < w->np; i++) {
		int ok = blk_final_ok(w, s, i);
		if (ok <= 0)
			return ok;
	}
	struct puzzle p;
	if (!blk_make_puzzle(w, NULL, NULL, &p))
		return -1;
	struct solve_opts o = {
		.max_solutions = 2,
		.max_nodes = s->proof_nodes ? s->proof_nodes : BLK_PROOF_NODES};
	struct solve_result r;
	int rc = solve_puzzle(&p, &o, &r);
	puz_clear(&p);
	if (rc != SOLVE_OK)
		return rc == SOLVE_ENOMEM ? -1 : 0;
	w->info->solver_calls++;
	w->info->nodes += r.nodes;
	w->info->cut_short += !r.complete && r.solutions < 2;
	bool one = r.complete && r.solutions == 1;
	solve_result_clear(&r);
	if (s->progress)
		s->progress(s->progress_ctx, w->info);
	return one;
}

/* Give cell c to 'to' (-1: leave it hollow) when the sizes allow and its
 * piece stays connected. false, nothing changed, when not. */
static bool give(struct blk_work *w, const struct blk_spec *s, int c, int to)
{
	int from = w->pc[c];
	if (from >= 0 && w->size[from] <= s->cells_min)
		return false;
	if (to >= 0 && w->size[to] >= s->cells_max)
		return false;
	w->pc[c] = to;
	if (from >= 0) {
		int start = -1;
		for (int d = 0; d < 6 && start < 0; d++) {
			int e = w->nb[c][d];
			if (e >= 0 && w->pc[e] == from)
				start = e;
		}
		if (start < 0 || !blk_connected(w, from, start, w->size[from] - 1)) {
			w->pc[c] = from;
			return false;
		}
		w->size[from]--;
	}
	if (to >= 0)
		w->size[to]++;
	return true;
}

static void take_back(struct blk_work *w, int c, int from)
{
	int to = w->pc[c];
	if (to >= 0)
		w->size[to]--;
	if (from >= 0)
		w->size[from]++;
	w->pc[c] = from;
}

int blk_lock(struct blk_work *w, struct rng *r, const struct blk_spec *s,
             struct dis_result *d)
{
	dis_set_max_nodes(w->dis, BLK_LOCK_NODES);
	struct dis_result cur;
	int slack = loose(w), level, rc = take_apart(w, &cur, &level);
	bool held = rc == 1, fresh = true;
	/* rc: 1 climbing ('cur' is the dissection's), 2 found, 0 given up,
	 * -1 out of memory */
	for (uint64_t t = 0; rc == 1; t++) {
		if (fresh && level >= s->level_min) {
			int ok = rules_kept(w, s);
			if (ok != 0) {
				rc = ok < 0 ? -1 : 2;
				break;
			}
		}
		fresh = false;
		if (t == BLK_LOCK_STEPS) {
			rc = 0;
			break;
		}
		/* a cell, and a neighbour's piece to take it (0..5) or a
		 * hollow (6) */
		int c = (int)rng_below(r, (uint64_t)w->n);
		int how = (int)rng_below(r, 7), from = w->pc[c], to = -1;
		if (how == 6) {
			if (from < 0 || !blk_inner(w, c))
				continue;
		} else {
			int e = w->nb[c][how];
			if (e < 0 || w->pc[e] < 0 || w->pc[e] == from)
				continue;
			to = w->pc[e];
		}
		if (!give(w, s, c, to))
			continue;
		/* with support_free every piece keeps lying flat */
		int flat = 1;
		if (s->support_free && from >= 0)
			flat = blk_lies_flat(w, from);
		if (s->support_free && to >= 0 && flat == 1)
			flat = blk_lies_flat(w, to);
		if (flat < 0) {
			rc = -1;
			break;
		}
		if (!flat) {
			take_back(w, c, from);
			continue;
		}
		/* better: a higher level, or on level 1 a less loose
		 * assembly (a looser one is not even taken apart); as good:
		 * kept when the search saw as many positions, else one time
		 * in ten (a walk along the plateau) */
		int nslack = loose(w), nlevel = 0, got = 0;
		struct dis_result next;
		if (nslack <= slack)
			got = take_apart(w, &next, &nlevel);
		if (got < 0) {
			rc = -1;
			break;
		}
		if (got == 1 && (nlevel > level || nslack < slack ||
		                 (nlevel == level &&
		                  (next.nodes >= cur.nodes || rng_below(r, 10) == 0)))) {
			dis_result_clear(&cur);
			cur = next;
			level = nlevel;
			slack = nslack;
			fresh = true;
			continue;
		}
		if (got == 1)
			dis_result_clear(&next);
		take_back(w, c, from);
	}
	dis_set_max_nodes(w->dis, 0);
	if (rc == 2) {
		*d = cur;
		return 1;
	}
	if (held)
		dis_result_clear(&cur);
	return rc < 0 ? -1 : 0;
}
