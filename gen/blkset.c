/*
 * blkset.c: the block generator's exhaustive route (blocks.h). When the
 * pieces may only be small (at most BLK_SETS_CELLS cells) and the sets of
 * pairwise non-congruent shapes that could fill the goal are few (at most
 * BLK_SETS_MAX), every set is solved, so the search either finds a puzzle
 * or proves that none exists: a puzzle's pieces have one solution, which
 * is a dissection of the goal, so a puzzle exists exactly when some set
 * has one solution that comes apart (and passes the caller's tests).
 *
 * The shapes: every polycube of cells_min..cells_max cells, up to the 24
 * proper rotations (mirror images apart), grown a cell at a time from one
 * cube, kept when some orientation of it lies inside the goal. The sets:
 * k of those shapes, k a feasible piece count (blocks.h, step 1), their
 * cells adding up to the goal's, in the order of a walk that takes or
 * leaves each shape in turn (shapes by size, then by canonical form).
 * Each set is solved as solve_puzzle() solves it (`cubegen check`), at
 * most 2 solutions; one with exactly one solution is then taken apart.
 *
 * Workload: 3 x 3 x 3 in 7 pieces of Soma's sizes (one of 3 cells, six of
 * 4) has 14 sets and none with one solution; each is solved in about a
 * millisecond.
 *
 * With too many sets to try each, on a small goal, the shapes made here
 * go to the drawn route (blkdraw.c), each with the goal cells it lies on
 * somewhere (fits()).
 */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/blk_int.h"
#include "solver/poly.h"
#include "solver/solve.h"

static void shapes_clear(struct blk_shapes *h)
{
	for (size_t i = 0; i < h->n; i++)
		poly_shape_clear(&h->s[i]);
	free(h->s);
	free(h->at);
	memset(h, 0, sizeof *h);
}

static int cmp_shape(const void *a, const void *b)
{
	return poly_compare(a, b);
}

/* Whether some proper turn of 'sh' lies inside the goal: 1 yes, the
 * goal cells where it lies into 'out' (sh->n of them: its turn by the
 * first proper symmetry of poly.h that fits, moved to the origin, at
 * the first place, z then y then x least first); 0 no. cell_of: grid
 * index -> goal cell, -1 none. */
static int fits(const struct blk_work *w, const struct shape *sh,
                const int *cell_of, int *out)
{
	const struct grid *g = w->goal;
	int ok = 0;
	for (int s = 0; s < POLY_NSYM && !ok; s++) {
		if (!poly_sym_proper(s))
			continue;
		/* the turn, moved to the origin */
		int q[BLK_SETS_CELLS][3], lo[3] = {INT_MAX, INT_MAX, INT_MAX};
		for (size_t c = 0; c < sh->n; c++) {
			int in[3] = {poly_x(sh->cells[c]), poly_y(sh->cells[c]),
			             poly_z(sh->cells[c])};
			poly_sym_apply(s, in, q[c]);
			for (int a = 0; a < 3; a++)
				lo[a] = q[c][a] < lo[a] ? q[c][a] : lo[a];
		}
		for (size_t c = 0; c < sh->n; c++)
			for (int a = 0; a < 3; a++)
				q[c][a] -= lo[a];
		for (int z = 0; z < g->nz && !ok; z++)
			for (int y = 0; y < g->ny && !ok; y++)
				for (int x = 0; x < g->nx && !ok; x++) {
					bool in = true;
					for (size_t c = 0; c < sh->n && in; c++) {
						int p[3] = {x + q[c][0], y + q[c][1], z + q[c][2]};
						in = p[0] < g->nx && p[1] < g->ny && p[2] < g->nz;
						int at = in ? cell_of[puz_grid_index(g, p[0], p[1],
						                                     p[2])] : -1;
						in = at >= 0;
						out[c] = at;
					}
					ok = in;
				}
	}
	return ok;
}

/* Polycubes of n cells up to the 24 proper rotations (OEIS A000162). */
static const double polycubes[BLK_SETS_CELLS + 1] = {0, 1, 1, 2, 8, 29, 166};

/* A key of 'n' cells (at most 7) as they lie, moved to the origin: equal
 * for equal cell sets. */
static uint64_t cells_key(const uint32_t *c, size_t n)
{
	int lo[3] = {255, 255, 255};
	for (size_t i = 0; i < n; i++) {
		int q[3] = {poly_x(c[i]), poly_y(c[i]), poly_z(c[i])};
		for (int a = 0; a < 3; a++)
			lo[a] = q[a] < lo[a] ? q[a] : lo[a];
	}
	uint64_t v[8];
	for (size_t i = 0; i < n; i++) {
		/* (a span of at most 6: three bits an axis) */
		uint64_t x = (uint64_t)((poly_x(c[i]) - lo[0]) |
		                        (poly_y(c[i]) - lo[1]) << 3 |
		                        (poly_z(c[i]) - lo[2]) << 6);
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	uint64_t k = (uint64_t)n << 60;
	for (size_t i = 0; i < n; i++)
		k |= v[i] << (9 * i);
	return k;
}

/* The keys of every orientation of the shapes grown so far: an open
 * table of 'slots' (a power of two, more than twice the keys), 0 free
 * (no key is 0). */
static uint64_t *key_slot(uint64_t *tab, size_t slots, uint64_t k)
{
	size_t i = (size_t)((k * 0x9e3779b97f4a7c15u) >> 32) & (slots - 1);
	while (tab[i] && tab[i] != k)
		i = (i + 1) & (slots - 1);
	return &tab[i];
}

/* Keep the keys of the 24 proper turns of 'sh'. */
static void keep_turns(uint64_t *tab, size_t slots, const struct shape *sh)
{
	uint32_t t[BLK_SETS_CELLS + 1];
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		for (size_t i = 0; i < sh->n; i++) {
			int in[3] = {poly_x(sh->cells[i]), poly_y(sh->cells[i]),
			             poly_z(sh->cells[i])}, out[3];
			poly_sym_apply(s, in, out);
			/* (cells_key() moves them to the origin) */
			t[i] = poly_pack(out[0] + 8, out[1] + 8, out[2] + 8);
		}
		uint64_t k = cells_key(t, sh->n);
		*key_slot(tab, slots, k) = k;
	}
}

/* The shapes of one cell more than those of 'prev', into 'next' (empty),
 * in canonical order. A cell added to a shape makes a cell set whose key
 * is looked up among every orientation of the shapes found (one key
 * rather than 24 turns a candidate: most are found again). false: out of
 * memory. */
static bool grow(const struct blk_shapes *prev, struct blk_shapes *next)
{
	_Static_assert(BLK_SETS_CELLS <= 6, "cells_key(): 3 bits an axis");
	uint32_t buf[BLK_SETS_CELLS + 1];
	size_t want = 48 * (size_t)polycubes[prev->s[0].n + 1], slots = 64;
	while (slots < want)
		slots *= 2;
	uint64_t *tab = calloc(slots, sizeof *tab);
	if (!tab)
		return false;
	bool ok = true;
	for (size_t i = 0; i < prev->n && ok; i++) {
		const struct shape *p = &prev->s[i];
		for (size_t c = 0; c < p->n && ok; c++)
			for (int d = 0; d < 6 && ok; d++) {
				int q[3] = {poly_x(p->cells[c]), poly_y(p->cells[c]),
				            poly_z(p->cells[c])};
				q[d / 2] += d % 2 ? -1 : 1;
				/* shift by one so that -1 stays in range */
				uint32_t add = poly_pack(q[0] + 1, q[1] + 1, q[2] + 1);
				bool taken = false;
				for (size_t j = 0; j < p->n; j++) {
					buf[j] = p->cells[j] + poly_pack(1, 1, 1);
					taken |= buf[j] == add;
				}
				if (taken)
					continue;
				buf[p->n] = add;
				uint64_t *slot = key_slot(tab, slots, cells_key(buf, p->n + 1));
				if (*slot)
					continue; /* a turn of a shape found */
				struct shape t = {p->n + 1, buf}, canon, m;
				/* normalise: poly_transform with the identity */
				if (poly_transform(&t, 0, &m) != POLY_OK) {
					ok = false;
					break;
				}
				int rc = poly_canonical(&m, &canon);
				poly_shape_clear(&m);
				if (rc != POLY_OK) {
					ok = false;
					break;
				}
				keep_turns(tab, slots, &canon);
				if (next->n == next->cap) {
					size_t cap = next->cap ? 2 * next->cap : 64;
					struct shape *ns = realloc(next->s, cap * sizeof *ns);
					if (!ns) {
						poly_shape_clear(&canon);
						ok = false;
						break;
					}
					next->s = ns;
					next->cap = cap;
				}
				next->s[next->n++] = canon;
			}
	}
	free(tab);
	if (ok)
		qsort(next->s, next->n, sizeof *next->s, cmp_shape);
	return ok;
}

/* The shapes of s->cells_min..s->cells_max cells that fit the goal, into
 * 'out' (sizes ascending). 1 done, 0 too many (more than BLK_SETS_SHAPES),
 * -1 out of memory. */
static int make_shapes(const struct blk_work *w, const struct blk_spec *s,
                       struct blk_shapes *out)
{
	struct blk_shapes cur = {0}, next = {0};
	uint32_t one = poly_pack(0, 0, 0);
	struct shape unit = {1, &one};
	cur.s = malloc(sizeof *cur.s);
	if (!cur.s || poly_canonical(&unit, &cur.s[0]) != POLY_OK) {
		free(cur.s);
		return -1;
	}
	cur.n = cur.cap = 1;
	const struct grid *g = w->goal;
	size_t ncell = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	int *cell_of = malloc(ncell * sizeof *cell_of), there[BLK_SETS_CELLS];
	int rc = cell_of ? 1 : -1;
	for (size_t i = 0; rc == 1 && i < ncell; i++)
		cell_of[i] = -1;
	for (int c = 0; rc == 1 && c < w->n; c++)
		cell_of[w->at[c]] = c;
	for (int size = 1; size <= s->cells_max && rc == 1; size++) {
		if (size > 1) {
			if (!grow(&cur, &next)) {
				rc = -1;
				break;
			}
			shapes_clear(&cur);
			cur = next;
			memset(&next, 0, sizeof next);
		}
		if (size < s->cells_min)
			continue;
		for (size_t i = 0; i < cur.n && rc == 1; i++) {
			int f = fits(w, &cur.s[i], cell_of, there);
			if (f) {
				if (out->n == BLK_SETS_SHAPES) {
					rc = 0;
					break;
				}
				if (out->n == out->cap) {
					size_t cap = out->cap ? 2 * out->cap : 64;
					struct shape *t = realloc(out->s, cap * sizeof *t);
					if (t)
						out->s = t;
					int *at = realloc(out->at, cap * BLK_SETS_CELLS *
					                               sizeof *at);
					if (at)
						out->at = at;
					if (!t || !at) {
						rc = -1;
						break;
					}
					out->cap = cap;
				}
				/* a copy: cur grows into the next size */
				struct shape *c = &out->s[out->n];
				c->cells = malloc(cur.s[i].n * sizeof *c->cells);
				if (!c->cells) {
					rc = -1;
					break;
				}
				c->n = cur.s[i].n;
				memcpy(c->cells, cur.s[i].cells, c->n * sizeof *c->cells);
				memcpy(out->at + out->n * BLK_SETS_CELLS, there,
				       c->n * sizeof *there);
				out->n++;
			}
		}
	}
	free(cell_of);
	shapes_clear(&cur);
	shapes_clear(&next);
	return rc;
}


/* How many sets of k distinct shapes (kok[k]) have 'cells' cells in all,
 * with n[s] shapes of s cells for s = lo..hi: counted by size, the
 * number of ways to take a shapes of one size being C(n[s], a). In
 * doubles, exact while the counts are small (a sum at most BLK_SETS_MAX
 * has only terms that small); past that only their size matters, and the
 * walk checks BLK_SETS_MAX again. -1 when out of memory. */
static double count_sets(const double *n, int lo, int hi, const bool *kok,
                         int kmax, int cells)
{
	size_t w = (size_t)cells + 1;
	double *ways = calloc((size_t)(kmax + 1) * w, sizeof *ways);
	double *next = malloc((size_t)(kmax + 1) * w * sizeof *next);
	if (!ways || !next) {
		free(ways);
		free(next);
		return -1;
	}
	ways[0] = 1;
	for (int sz = lo; sz <= hi; sz++) {
		memcpy(next, ways, (size_t)(kmax + 1) * w * sizeof *next);
		for (int k = 0; k < kmax; k++)
			for (int v = 0; v + sz <= cells; v++) {
				if (ways[(size_t)k * w + (size_t)v] == 0)
					continue;
				double c = 1; /* C(n, a) */
				for (int a = 1; k + a <= kmax && v + a * sz <= cells &&
				                a <= n[sz]; a++) {
					c = c * (n[sz] - a + 1) / a;
					next[(size_t)(k + a) * w + (size_t)(v + a * sz)] +=
						ways[(size_t)k * w + (size_t)v] * c;
				}
			}
		double *t = ways;
		ways = next;
		next = t;
	}
	double sets = 0;
	for (int k = 0; k <= kmax; k++)
		if (kok[k])
			sets += ways[(size_t)k * w + (size_t)cells];
	free(ways);
	free(next);
	return sets;
}

/* The sets: walking the shapes from 'from' on, 'left' pieces still to
 * take (within 'ks') with 'cells' still to fill. */
struct walk {
	const struct blk_shapes *h;
	const bool *kok;      /* kok[k]: k is a feasible piece count */
	int kmax;
	uint16_t *sets;       /* BLK_SETS_MAX sets of up to kmax shapes */
	int *len;             /* per set: its shapes */
	size_t nsets;
	int cells_max;
	uint64_t steps;       /* of the walk, at most BLK_SETS_STEPS */
	bool over;            /* more than BLK_SETS_MAX sets or steps */
	uint16_t pick[BLK_MAX_PIECES];
};

static void walk_sets(struct walk *t, size_t from, int taken, int cells)
{
	if (t->over)
		return;
	if (cells == 0) {
		if (!t->kok[taken])
			return;
		if (t->nsets == BLK_SETS_MAX) {
			t->over = true;
			return;
		}
		memcpy(t->sets + t->nsets * (size_t)t->kmax, t->pick,
		       (size_t)taken * sizeof *t->pick);
		t->len[t->nsets++] = taken;
		return;
	}
	/* the pieces left could not fill what is left */
	if (taken == t->kmax || cells > (t->kmax - taken) * t->cells_max)
		return;
	if (++t->steps > BLK_SETS_STEPS) {
		t->over = true;
		return;
	}
	for (size_t i = from; i < t->h->n && !t->over; i++) {
		int n = (int)t->h->s[i].n;
		if (n > cells)
			break; /* sizes ascend */
		t->pick[taken] = (uint16_t)i;
		walk_sets(t, i + 1, taken + 1, cells - n);
	}
}

/* The puzzle of the set: the goal and the set's shapes, one copy each
 * (blk_puzzle_frame()). false: out of memory. */
static bool set_puzzle(const struct blk_work *w, const struct blk_shapes *h,
                       const uint16_t *pick, int k, struct puzzle *out)
{
	struct puzzle p;
	if (!blk_puzzle_frame(w, k, &p))
		return false;
	for (int i = 0; i < k; i++) {
		const struct shape *sh = &h->s[pick[i]];
		int hi[3] = {0, 0, 0};
		for (size_t c = 0; c < sh->n; c++) {
			int q[3] = {poly_x(sh->cells[c]), poly_y(sh->cells[c]),
			            poly_z(sh->cells[c])};
			for (int a = 0; a < 3; a++)
				hi[a] = q[a] > hi[a] ? q[a] : hi[a];
		}
		struct grid *g = &p.pieces[i].shape;
		if (puz_grid_init(g, hi[0] + 1, hi[1] + 1, hi[2] + 1) != PUZ_OK) {
			puz_clear(&p);
			return false;
		}
		for (size_t c = 0; c < sh->n; c++)
			g->cells[puz_grid_index(g, poly_x(sh->cells[c]),
			                        poly_y(sh->cells[c]),
			                        poly_z(sh->cells[c]))] = PUZ_CELL;
	}
	*out = p;
	return true;
}


/* Set 'pick' (k shapes): 1 when it is a puzzle, with w->pc, w->np its
 * dissection and '*d' its disassembly; 0 not; -1 out of memory. */
static int try_set(struct blk_work *w, const struct blk_spec *s,
                   const struct blk_shapes *h, const uint16_t *pick, int k,
                   struct dis_result *d)
{
	struct puzzle p;
	if (!set_puzzle(w, h, pick, k, &p))
		return -1;
	struct solve_opts o = {.max_solutions = 2, .keep_first = true,
	                       .max_nodes = s->proof_nodes ? s->proof_nodes
	                                                   : BLK_PROOF_NODES};
	struct solve_result r;
	int rc = solve_puzzle(&p, &o, &r);
	puz_clear(&p);
	if (rc != SOLVE_OK) {
		/* not decided: no proof that the set is no puzzle */
		w->info->sets_open++;
		return rc == SOLVE_ENOMEM ? -1 : 0;
	}
	w->info->solver_calls++;
	w->info->nodes += r.nodes;
	if (r.stop == SOLVE_MAX_NODES) {
		w->info->cut_short++;
		w->info->sets_open++;
	}
	bool one = r.complete && r.solutions == 1 && r.first;
	if (one) {
		for (int c = 0; c < w->n; c++)
			w->pc[c] = r.first[w->at[c]] - 1;
		w->np = k;
	}
	solve_result_clear(&r);
	if (!one)
		return 0;
	return blk_set_apart(w, s, k, d);
}

int blk_set_apart(struct blk_work *w, const struct blk_spec *s, int k,
                  struct dis_result *d)
{
	for (int i = 0; i < k; i++) {
		int ok = s->support_free ? blk_lies_flat(w, i) : 1;
		if (ok == 1 && s->piece_ok) {
			struct grid g;
			if (!blk_piece_grid(w, i, 0, &g))
				return -1;
			ok = s->piece_ok(s->ctx, g.cells, g.nx, g.ny, g.nz);
			puz_grid_clear(&g);
		}
		if (ok != 1)
			return ok;
	}
	memset(w->labels, 0, (size_t)w->goal->nx * w->goal->ny * w->goal->nz);
	for (int c = 0; c < w->n; c++)
		w->labels[w->at[c]] = (unsigned char)(w->pc[c] + 1);
	const struct grid *g = w->goal;
	int rc = dis_run(w->dis, g->nx, g->ny, g->nz, w->labels, (size_t)k,
	                 NULL, NULL, d);
	if (rc != DIS_OK) {
		w->info->sets_open++;
		return rc == DIS_ENOMEM ? -1 : 0;
	}
	if (d->verdict != DIS_APART) {
		/* a disassembly stopped by its bound decides nothing */
		w->info->sets_open += d->verdict == DIS_BOUND;
		dis_result_clear(d);
		return 0;
	}
	return 1;
}

int blk_sets(struct blk_work *w, struct rng *r, const struct blk_spec *s,
             const int *ks, int nk, struct dis_result *d)
{
	if (s->cells_max > BLK_SETS_CELLS || s->level_min > 1)
		return 0;
	bool kok[BLK_MAX_PIECES + 1] = {false};
	int kmax = 0;
	for (int i = 0; i < nk; i++) {
		kok[ks[i]] = true;
		kmax = ks[i] > kmax ? ks[i] : kmax;
	}
	/* first from every polycube of those sizes, fitting or not: far too
	 * many sets, and the shapes are not even made */
	double bound = count_sets(polycubes, s->cells_min, s->cells_max, kok,
	                          kmax, w->n);
	if (bound < 0)
		return -1;
	bool drawn = w->n <= BLK_DRAW_CELLS;
	if (bound > BLK_SETS_BOUND && !drawn)
		return 0;
	struct blk_shapes h = {0};
	int rc = make_shapes(w, s, &h);
	if (rc == 1) {
		double n[BLK_SETS_CELLS + 1] = {0};
		for (size_t i = 0; i < h.n; i++)
			n[h.s[i].n]++;
		double sets = count_sets(n, s->cells_min, s->cells_max, kok,
		                         kmax, w->n);
		rc = sets < 0 ? -1 : sets > BLK_SETS_MAX ? 0 : 1;
		if (rc == 0 && drawn) {
			rc = blk_draw_sets(w, r, s, &h, ks, nk, d);
			shapes_clear(&h);
			return rc;
		}
	}
	struct walk t = {.h = &h, .kok = kok, .kmax = kmax,
	                 .cells_max = s->cells_max};
	if (rc == 1) {
		t.sets = malloc((size_t)BLK_SETS_MAX * (size_t)kmax * sizeof *t.sets);
		t.len = malloc((size_t)BLK_SETS_MAX * sizeof *t.len);
		rc = t.sets && t.len ? 1 : -1;
	}
	if (rc == 1) {
		walk_sets(&t, 0, 0, w->n);
		rc = t.over ? 0 : 1;
	}
	size_t *order = rc == 1 ? malloc((t.nsets ? t.nsets : 1) * sizeof *order)
	                        : NULL;
	if (rc == 1 && !order)
		rc = -1;
	int found = 0;
	if (rc == 1) {
		w->info->exhaustive = true;
		w->info->sets = t.nsets;
		/* the seed's order of the sets: Fisher-Yates, from the last */
		for (size_t i = 0; i < t.nsets; i++)
			order[i] = i;
		for (size_t i = t.nsets; i-- > 1;) {
			size_t j = (size_t)rng_below(r, (uint64_t)i + 1), x = order[i];
			order[i] = order[j];
			order[j] = x;
		}
		for (size_t i = 0; i < t.nsets && found == 0; i++) {
			size_t e = order[i];
			w->info->attempts++; /* a set tried is an attempt */
			found = try_set(w, s, &h, t.sets + e * (size_t)kmax, t.len[e], d);
			if (found == 0 && s->progress)
				s->progress(s->progress_ctx, w->info);
		}
		if (found < 0)
			rc = -1;
	}
	free(order);
	free(t.sets);
	free(t.len);
	shapes_clear(&h);
	if (rc == 1)
		w->info->found = found == 1;
	return rc;
}
