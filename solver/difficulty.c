/*
 * difficulty.c: dead ends per solution (difficulty.h), by two searches.
 *
 * Workload: the generator scores every unique candidate it keeps when a
 * band is asked for (a few hundred a second at 5 x 5 x 5, so the plate
 * walk reuses the shell fast path's border masks: a placement is four
 * word tests), and 'solve' and 'check' score any file once.
 *
 * The plate walk has no symmetry breaking on purpose: a person does not
 * know which placements are equivalent, and the tree over every placement
 * is the same whichever way the file draws the plates. It costs at most
 * |G| = 48 times the pinned count, still well under a millisecond at
 * 5 x 5 x 5 (make bench).
 */
#include "solver/difficulty.h"

#include <stdlib.h>
#include <string.h>

#include "solver/bb.h"
#include "solver/bb128.h"
#include "solver/poly.h"
#include "solver/shell_int.h"
#include "solver/solve.h"
#include "solver/xc.h"

/* ---- six plates, in a person's order ---------------------------------- */

struct walk {
	struct shell *s;
	uint64_t max_nodes;
	bool stop;
};

/* Every plate left at every placement on step d's face; the assemblies
 * found below. Dead ends go to s->dead. */
static uint64_t walk(struct walk *w, int d)
{
	struct shell *s = w->s;
	int f = s->order[d];
	uint64_t wins = 0;
	for (int u = 0; u < s->ntypes && !w->stop; u++) {
		struct ptype *ty = &s->type[u];
		if (!ty->count)
			continue;
		const struct onaxis *ax = ty->ax[f / 2];
		for (int k = 0; k < ax->nor; k++) {
			if (w->max_nodes && s->nodes >= w->max_nodes) {
				w->stop = true;
				break;
			}
			s->nodes++;
			const struct orient *o = &ax->o[k];
			bool full;
			if (!shell_put(s, d, o, &full))
				continue;
			if (full) {
				ty->count--;
				uint64_t below = d == 5 ? 1 : walk(w, d + 1);
				ty->count++;
				s->dead += below == 0;
				wins += below;
			}
			shell_take(s, d, o);
		}
	}
	return wins;
}

static int plates_walk(const int L[3], const struct shell_plate pl[6],
                       uint64_t max_nodes, struct diff_result *out)
{
	struct shell *s = malloc(sizeof *s);
	if (!s)
		return SOLVE_ENOMEM;
	memset(s, 0, offsetof(struct shell, place));
	memcpy(s->L, L, sizeof s->L);
	shell_setup_geometry(s);
	shell_make_types(s, pl);
	struct walk w = {.s = s, .max_nodes = max_nodes};
	struct diff_result r = {.method = DIFF_PLATES};
	/* One order per (bottom axis side, first wall axis side) pair of
	 * lengths: orders with equal pairs are mapped onto each other by a
	 * symmetry of the box, so they give the same counts. */
	int seen[6][2], nseen = 0;
	for (int a = 0; a < 3 && !w.stop; a++)
		for (int b = 0; b < 3 && !w.stop; b++) {
			if (b == a)
				continue;
			bool dup = false;
			for (int i = 0; i < nseen; i++)
				dup |= seen[i][0] == L[a] && seen[i][1] == L[b];
			if (dup)
				continue;
			seen[nseen][0] = L[a];
			seen[nseen++][1] = L[b];
			shell_setup_order(s, 2 * a, b);
			r.wins += walk(&w, 0);
			r.orders++;
		}
	r.dead = s->dead;
	r.nodes = s->nodes;
	r.complete = !w.stop;
	free(s);
	*out = r;
	return SOLVE_OK;
}

/* ---- any puzzle, by its most constrained cell ------------------------- */

struct cells {
	struct shape goal;     /* the canonical goal; cell k = goal.cells[k] */
	int dim[3];            /* its bounding box */
	int32_t *index;        /* dim[0]*dim[1]*dim[2]: cell number or -1 */
	struct shape *types;   /* canonical shapes of the distinct pieces */
	unsigned *counts;      /* copies of each */
	size_t ntypes;
	int rot[24];           /* proper rotations mapping the goal onto itself */
	int nrot;
	int32_t *rotmap;       /* nrot * ncells: cell -> its image */
	uint32_t *rcells;      /* rows: cell numbers, ascending within a row */
	size_t *roff;          /* nrows + 1 offsets */
	size_t *rtype;
	size_t nrows, rcap, ccap;
	uint64_t covers;
};

static void cells_clear(struct cells *c)
{
	poly_shape_clear(&c->goal);
	free(c->index);
	if (c->types)
		poly_shapes_free(c->types, c->ntypes);
	free(c->counts);
	free(c->rotmap);
	free(c->rcells);
	free(c->roff);
	free(c->rtype);
}

/* Sort the types by canonical shape, carrying their counts (insertion
 * sort: a puzzle has at most a few dozen types). */
static void sort_types(struct cells *c)
{
	for (size_t i = 1; i < c->ntypes; i++)
		for (size_t j = i; j > 0 && poly_compare(&c->types[j], &c->types[j - 1]) < 0; j--) {
			struct shape t = c->types[j];
			c->types[j] = c->types[j - 1];
			c->types[j - 1] = t;
			unsigned n = c->counts[j];
			c->counts[j] = c->counts[j - 1];
			c->counts[j - 1] = n;
		}
}

/* load() found that the puzzle can have no assembly (not a SOLVE_*). */
#define NO_ASSEMBLY (-1)

/* The canonical goal, its cell index and its distinct pieces; NO_ASSEMBLY
 * when there can be no assembly (no goal cells, or volumes that differ). */
static int load(const struct puzzle *p, struct cells *c)
{
	struct shape g;
	if (poly_from_grid(&p->goal, &g) != POLY_OK)
		return SOLVE_ENOMEM;
	int rc = poly_canonical(&g, &c->goal);
	poly_shape_clear(&g);
	if (rc != POLY_OK)
		return SOLVE_ENOMEM;
	if (c->goal.n == 0)
		return NO_ASSEMBLY;
	for (size_t k = 0; k < c->goal.n; k++) {
		uint32_t v = c->goal.cells[k];
		int xyz[3] = {poly_x(v), poly_y(v), poly_z(v)};
		for (int a = 0; a < 3; a++)
			if (xyz[a] + 1 > c->dim[a])
				c->dim[a] = xyz[a] + 1;
	}
	size_t vol = (size_t)c->dim[0] * (size_t)c->dim[1] * (size_t)c->dim[2];
	c->index = malloc(vol * sizeof *c->index);
	c->types = calloc(p->npieces ? p->npieces : 1, sizeof *c->types);
	c->counts = calloc(p->npieces ? p->npieces : 1, sizeof *c->counts);
	if (!c->index || !c->types || !c->counts)
		return SOLVE_ENOMEM;
	for (size_t i = 0; i < vol; i++)
		c->index[i] = -1;
	for (size_t k = 0; k < c->goal.n; k++) {
		uint32_t v = c->goal.cells[k];
		c->index[poly_x(v) + (size_t)c->dim[0] *
		         (poly_y(v) + (size_t)c->dim[1] * poly_z(v))] = (int32_t)k;
	}
	uint64_t volume = 0;
	for (size_t i = 0; i < p->npieces; i++) {
		struct shape sh, canon;
		if (poly_from_grid(&p->pieces[i].shape, &sh) != POLY_OK)
			return SOLVE_ENOMEM;
		rc = poly_canonical(&sh, &canon);
		poly_shape_clear(&sh);
		if (rc != POLY_OK)
			return SOLVE_ENOMEM;
		volume += (uint64_t)canon.n * p->pieces[i].count;
		size_t t = 0;
		while (t < c->ntypes && !poly_equal(&c->types[t], &canon))
			t++;
		if (t < c->ntypes) {
			poly_shape_clear(&canon);
		} else {
			c->types[t] = canon;
			c->ntypes++;
		}
		c->counts[t] += p->pieces[i].count;
	}
	sort_types(c);
	for (size_t t = 0; t < c->ntypes; t++)
		if (c->types[t].n == 0)
			return NO_ASSEMBLY;
	return volume == c->goal.n ? SOLVE_OK : NO_ASSEMBLY;
}

static int32_t cell_at(const struct cells *c, int x, int y, int z)
{
	if (x < 0 || y < 0 || z < 0 || x >= c->dim[0] || y >= c->dim[1] ||
	    z >= c->dim[2])
		return -1;
	return c->index[x + (size_t)c->dim[0] * (y + (size_t)c->dim[1] * z)];
}

/* The goal's proper rotations and how each maps the cells. */
static int load_rotations(struct cells *c)
{
	c->nrot = 0;
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		struct shape img;
		if (poly_transform(&c->goal, s, &img) != POLY_OK)
			return SOLVE_ENOMEM;
		bool same = poly_equal(&img, &c->goal);
		poly_shape_clear(&img);
		if (same)
			c->rot[c->nrot++] = s;
	}
	size_t n = c->goal.n;
	c->rotmap = malloc((size_t)c->nrot * n * sizeof *c->rotmap);
	if (!c->rotmap)
		return SOLVE_ENOMEM;
	for (int r = 0; r < c->nrot; r++) {
		/* poly_transform re-anchors the image at 0: the same shift here */
		int lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
		for (size_t k = 0; k < n; k++) {
			uint32_t v = c->goal.cells[k];
			int in[3] = {poly_x(v), poly_y(v), poly_z(v)}, o[3];
			poly_sym_apply(c->rot[r], in, o);
			for (int a = 0; a < 3; a++)
				if (o[a] < lo[a])
					lo[a] = o[a];
		}
		for (size_t k = 0; k < n; k++) {
			uint32_t v = c->goal.cells[k];
			int in[3] = {poly_x(v), poly_y(v), poly_z(v)}, o[3];
			poly_sym_apply(c->rot[r], in, o);
			c->rotmap[(size_t)r * n + k] =
				cell_at(c, o[0] - lo[0], o[1] - lo[1], o[2] - lo[2]);
		}
	}
	return SOLVE_OK;
}

static int add_row(struct cells *c, const uint32_t *cells, size_t k, size_t t)
{
	if (c->nrows >= SOLVE_MAX_ROWS || c->roff[c->nrows] + k > SOLVE_MAX_ROW_CELLS)
		return SOLVE_ETOOBIG;
	if (c->nrows + 1 >= c->rcap) {
		size_t cap = c->rcap * 2;
		size_t *ro = realloc(c->roff, (cap + 1) * sizeof *ro);
		if (!ro)
			return SOLVE_ENOMEM;
		c->roff = ro;
		size_t *rt = realloc(c->rtype, cap * sizeof *rt);
		if (!rt)
			return SOLVE_ENOMEM;
		c->rtype = rt;
		c->rcap = cap;
	}
	size_t at = c->roff[c->nrows];
	if (at + k > c->ccap) {
		size_t cap = c->ccap * 2 > at + k ? c->ccap * 2 : at + k;
		uint32_t *rc = realloc(c->rcells, cap * sizeof *rc);
		if (!rc)
			return SOLVE_ENOMEM;
		c->rcells = rc;
		c->ccap = cap;
	}
	memcpy(c->rcells + at, cells, k * sizeof *cells);
	c->rtype[c->nrows] = t;
	c->roff[++c->nrows] = at + k;
	return SOLVE_OK;
}

/* Every placement of every type: each distinct orientation at each shift
 * inside the goal. A translation keeps packed cells in order, so a row's
 * cell numbers come out ascending. */
static int load_rows(struct cells *c)
{
	c->rcap = 64;
	c->ccap = 256;
	c->roff = malloc((c->rcap + 1) * sizeof *c->roff);
	c->rtype = malloc(c->rcap * sizeof *c->rtype);
	c->rcells = malloc(c->ccap * sizeof *c->rcells);
	uint32_t *buf = malloc(c->goal.n * sizeof *buf);
	int rc = SOLVE_ENOMEM;
	if (!c->roff || !c->rtype || !c->rcells || !buf)
		goto out;
	c->roff[0] = 0;
	rc = SOLVE_OK;
	for (size_t t = 0; t < c->ntypes && rc == SOLVE_OK; t++) {
		struct shape *ors;
		size_t nor;
		if (poly_orientations(&c->types[t], &ors, &nor) != POLY_OK) {
			rc = SOLVE_ENOMEM;
			break;
		}
		for (size_t o = 0; o < nor && rc == SOLVE_OK; o++) {
			const struct shape *sh = &ors[o];
			int hi[3] = {0, 0, 0};
			for (size_t k = 0; k < sh->n; k++) {
				uint32_t v = sh->cells[k];
				int xyz[3] = {poly_x(v), poly_y(v), poly_z(v)};
				for (int a = 0; a < 3; a++)
					if (xyz[a] > hi[a])
						hi[a] = xyz[a];
			}
			for (int dz = 0; dz + hi[2] < c->dim[2] && rc == SOLVE_OK; dz++)
				for (int dy = 0; dy + hi[1] < c->dim[1] && rc == SOLVE_OK; dy++)
					for (int dx = 0; dx + hi[0] < c->dim[0] && rc == SOLVE_OK; dx++) {
						size_t k = 0;
						for (; k < sh->n; k++) {
							uint32_t v = sh->cells[k];
							int32_t at = cell_at(c, poly_x(v) + dx,
							                     poly_y(v) + dy, poly_z(v) + dz);
							if (at < 0)
								break;
							buf[k] = (uint32_t)at;
						}
						if (k == sh->n)
							rc = add_row(c, buf, k, t);
					}
		}
		poly_shapes_free(ors, nor);
	}
out:
	free(buf);
	return rc;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Whether row i is the least of its orbit under the goal's rotations
 * (rows compared as ascending cell lists); 'buf' holds a row. */
static bool least_of_orbit(const struct cells *c, size_t i, uint32_t *buf)
{
	const uint32_t *cells = c->rcells + c->roff[i];
	size_t k = c->roff[i + 1] - c->roff[i], n = c->goal.n;
	for (int r = 1; r < c->nrot; r++) {
		for (size_t j = 0; j < k; j++)
			buf[j] = (uint32_t)c->rotmap[(size_t)r * n + cells[j]];
		qsort(buf, k, sizeof *buf, cmp_u32);
		for (size_t j = 0; j < k; j++)
			if (buf[j] != cells[j]) {
				if (buf[j] < cells[j])
					return false;
				break;
			}
	}
	return true;
}

static bool count_cover(void *ctx, const size_t *rows, size_t nrows)
{
	(void)rows;
	(void)nrows;
	((struct cells *)ctx)->covers++;
	return true;
}

static int cells_search(struct cells *c, uint64_t max_nodes,
                        struct diff_result *out)
{
	/* Pin the single-copy type with the most rows (orbits are largest),
	 * ties to the first in canonical order. */
	size_t pin = c->ntypes, best = 0;
	for (size_t t = 0; t < c->ntypes; t++) {
		size_t n = 0;
		for (size_t i = 0; i < c->nrows; i++)
			n += c->rtype[i] == t;
		if (c->counts[t] == 1 && n > best) {
			pin = t;
			best = n;
		}
	}
	/* Up to 64 cells the 64-bit board, up to 128 the 128-bit one (its
	 * region pruning off: no edges), beyond them dancing links: all
	 * branch on the most constrained cell with ties to the lowest
	 * canonical number, so the tree is a function of the canonical
	 * form. */
	size_t n = c->goal.n;
	bool bits = n <= 64, wide = !bits && n <= BB128_MAX_CELLS;
	unsigned rank[BB128_MAX_CELLS];
	for (size_t k = 0; k < n && (bits || wide); k++)
		rank[k] = (unsigned)k;
	xc *x = bits || wide ? NULL : xc_new(n, c->ntypes, c->counts);
	bb *b = bits ? bb_new(n, rank, c->ntypes, c->counts) : NULL;
	bb128 *w = wide ? bb128_new(n, rank, c->ntypes, c->counts) : NULL;
	uint32_t *buf = malloc(n * sizeof *buf);
	size_t *items = malloc((n + 1) * sizeof *items);
	int rc = SOLVE_ENOMEM;
	if ((!x && !b && !w) || !buf || !items)
		goto out;
	if (w)
		bb128_set_flags(w, BB128_QUICK_COUNT);
	rc = SOLVE_OK;
	for (size_t i = 0; i < c->nrows && rc == SOLVE_OK; i++) {
		if (c->rtype[i] == pin && !least_of_orbit(c, i, buf))
			continue;
		size_t k = 0;
		uint64_t mask[2] = {0, 0};
		for (size_t j = c->roff[i]; j < c->roff[i + 1]; j++) {
			items[k++] = c->rcells[j];
			if (bits || wide)
				mask[c->rcells[j] / 64] |= (uint64_t)1 << (c->rcells[j] % 64);
		}
		items[k++] = n + c->rtype[i];
		int er = bits ? bb_add_row(b, mask[0], c->rtype[i])
		       : wide ? bb128_add_row(w, mask, c->rtype[i])
		       : xc_add_row(x, items, k);
		if (er != XC_OK)
			rc = er == XC_ENOMEM ? SOLVE_ENOMEM : SOLVE_ETOOBIG;
	}
	if (rc != SOLVE_OK)
		goto out;
	uint64_t nodes;
	enum xc_stop stop = bits ? bb_solve(b, max_nodes, count_cover, c, &nodes)
	                  : wide ? bb128_solve(w, max_nodes, count_cover, c, &nodes)
	                         : xc_solve(x, max_nodes, count_cover, c, &nodes);
	*out = (struct diff_result){
		.method = DIFF_CELLS,
		.complete = stop == XC_DONE,
		.dead = bits ? bb_dead_ends(b) : wide ? bb128_dead_ends(w)
		                                      : xc_dead_ends(x),
		.wins = c->covers,
		.nodes = nodes,
	};
out:
	xc_free(x);
	bb_free(b);
	bb128_free(w);
	free(buf);
	free(items);
	return rc;
}

static int cells_measure(const struct puzzle *p, uint64_t max_nodes,
                         struct diff_result *out)
{
	struct cells c;
	memset(&c, 0, sizeof c);
	int rc = load(p, &c);
	if (rc == NO_ASSEMBLY) {
		*out = (struct diff_result){.method = DIFF_NONE, .complete = true};
		rc = SOLVE_OK;
	} else if (rc == SOLVE_OK) {
		rc = load_rotations(&c);
		if (rc == SOLVE_OK)
			rc = load_rows(&c);
		if (rc == SOLVE_OK)
			rc = cells_search(&c, max_nodes, out);
	}
	cells_clear(&c);
	return rc;
}

/* ---- the API ------------------------------------------------------- */

/* 'in' cut down to the box of its cells, into a new grid 'out' (a 1 x 1
 * x 1 empty grid when it has none). */
static int crop(const struct grid *in, struct grid *out)
{
	int lo[3] = {in->nx, in->ny, in->nz}, hi[3] = {-1, -1, -1};
	for (int z = 0; z < in->nz; z++)
		for (int y = 0; y < in->ny; y++)
			for (int x = 0; x < in->nx; x++) {
				if (!in->cells[puz_grid_index(in, x, y, z)])
					continue;
				int c[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					if (c[a] < lo[a]) lo[a] = c[a];
					if (c[a] > hi[a]) hi[a] = c[a];
				}
			}
	if (hi[0] < 0)
		lo[0] = lo[1] = lo[2] = hi[0] = hi[1] = hi[2] = 0;
	if (puz_grid_init(out, hi[0] - lo[0] + 1, hi[1] - lo[1] + 1,
	                  hi[2] - lo[2] + 1) != PUZ_OK)
		return SOLVE_ENOMEM;
	for (int z = 0; z < out->nz; z++)
		for (int y = 0; y < out->ny; y++)
			for (int x = 0; x < out->nx; x++)
				out->cells[puz_grid_index(out, x, y, z)] =
					in->cells[puz_grid_index(in, x + lo[0], y + lo[1],
					                         z + lo[2])];
	return SOLVE_OK;
}

/* Whether 'p' is six plates in a box shell once every grid is cut to its
 * cells (empty margins in a file must not change the search); then walk
 * it. SHELL_NOT_SHELL when it is not. */
static int plates_measure(const struct puzzle *p, uint64_t max_nodes,
                          struct diff_result *out)
{
	struct puzzle q = {.npieces = p->npieces};
	q.pieces = calloc(p->npieces ? p->npieces : 1, sizeof *q.pieces);
	int rc = q.pieces ? crop(&p->goal, &q.goal) : SOLVE_ENOMEM;
	for (size_t i = 0; i < p->npieces && rc == SOLVE_OK; i++) {
		q.pieces[i].count = p->pieces[i].count;
		rc = crop(&p->pieces[i].shape, &q.pieces[i].shape);
	}
	int L[3], piece_of[6];
	struct shell_plate pl[6];
	if (rc == SOLVE_OK)
		rc = shell_plates_of(&q, L, pl, piece_of) == 0
		   ? plates_walk(L, pl, max_nodes, out) : SHELL_NOT_SHELL;
	puz_grid_clear(&q.goal);
	for (size_t i = 0; q.pieces && i < p->npieces; i++)
		puz_grid_clear(&q.pieces[i].shape);
	free(q.pieces);
	return rc;
}

int diff_puzzle(const struct puzzle *p, uint64_t max_nodes,
                struct diff_result *out)
{
	if (!puz_plain(p)) {
		/* Colour puzzles are not measured (yet): no score. */
		*out = (struct diff_result){.method = DIFF_NONE};
		return SOLVE_OK;
	}
	int rc = plates_measure(p, max_nodes, out);
	if (rc != SHELL_NOT_SHELL)
		return rc;
	return cells_measure(p, max_nodes, out);
}

int diff_plates(const int dim[3], const unsigned char *const plates[6],
                const int (*pdims)[2], struct diff_result *out)
{
	struct shell_plate pl[6];
	if (shell_plates_given(dim, plates, pdims, pl) != 0)
		return DIFF_NOT_PLATES;
	return plates_walk(dim, pl, 0, out);
}

bool diff_score(const struct diff_result *r, double *score)
{
	if (!r->complete || r->wins == 0)
		return false;
	*score = (double)r->dead / (double)r->wins;
	return true;
}

const char *diff_method_name(enum diff_method m)
{
	switch (m) {
	case DIFF_PLATES: return "plates";
	case DIFF_CELLS: return "cells";
	case DIFF_NONE: break;
	}
	return "none";
}
