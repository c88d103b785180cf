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
#include "solver/bbw.h"
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
	/* Colour puzzles (all zero for a plain one): goal cell k's tag is
	 * its colour, plus GOAL_OPTIONAL when it may stay empty. */
	const struct puzzle *p;
	bool colour;
	unsigned *lo;          /* least copies of each type (== counts[t] but
	                        * for a range) */
	bool ranges;           /* a range or an optional cell: the phased search */
	unsigned char *dreg;   /* ndreg * goal.n: distinct region membership */
	size_t ndreg;
	unsigned char *rcol;   /* the colour of each row cell, as rcells */
};

#define GOAL_OPTIONAL 0x40 /* in a goal cell's tag: it may stay empty */

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
	free(c->lo);
	free(c->dreg);
	free(c->rcol);
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
			n = c->lo[j];
			c->lo[j] = c->lo[j - 1];
			c->lo[j - 1] = n;
		}
}

/* load() found that the puzzle can have no assembly (not a SOLVE_*). */
#define NO_ASSEMBLY (-1)

/* The least x, y and z of the cells of grid 'g' (where poly_from_grid()
 * puts its origin). */
static void grid_low(const struct grid *g, int lo[3])
{
	lo[0] = g->nx;
	lo[1] = g->ny;
	lo[2] = g->nz;
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++)
				if (g->cells[puz_grid_index(g, x, y, z)]) {
					lo[0] = x < lo[0] ? x : lo[0];
					lo[1] = y < lo[1] ? y : lo[1];
					lo[2] = z < lo[2] ? z : lo[2];
				}
}

/* The goal's cells as a normalised shape tagged with their colours and,
 * in a colour puzzle, GOAL_OPTIONAL on a cell that may stay empty. */
static int goal_shape(const struct puzzle *p, bool colour, struct shape *out)
{
	if (poly_from_grid(&p->goal, out) != POLY_OK)
		return SOLVE_ENOMEM;
	if (!colour)
		return SOLVE_OK;
	const struct grid *g = &p->goal;
	int lo[3];
	grid_low(g, lo);
	/* the tag is the low byte: the cells stay sorted */
	for (size_t k = 0; k < out->n; k++) {
		uint32_t v = out->cells[k];
		if (puz_cell_optional(g->cells[puz_grid_index(g, poly_x(v) + lo[0],
		                      poly_y(v) + lo[1], poly_z(v) + lo[2])]))
			out->cells[k] |= GOAL_OPTIONAL;
	}
	return SOLVE_OK;
}

/* The canonical goal, its cell index and its distinct pieces; NO_ASSEMBLY
 * when there can be no assembly (no goal cells, or volumes that differ).
 * 'g' is the goal as goal_shape() gives it (kept for load_regions()). */
static int load(const struct puzzle *p, const struct shape *g, struct cells *c)
{
	int rc = poly_canonical(g, &c->goal);
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
		c->ranges |= (poly_tag(v) & GOAL_OPTIONAL) != 0;
	}
	size_t vol = (size_t)c->dim[0] * (size_t)c->dim[1] * (size_t)c->dim[2];
	c->index = malloc(vol * sizeof *c->index);
	c->types = calloc(p->npieces ? p->npieces : 1, sizeof *c->types);
	c->counts = calloc(p->npieces ? p->npieces : 1, sizeof *c->counts);
	c->lo = calloc(p->npieces ? p->npieces : 1, sizeof *c->lo);
	if (!c->index || !c->types || !c->counts || !c->lo)
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
		c->counts[t] += puz_piece_max(&p->pieces[i]);
		c->lo[t] += p->pieces[i].count;
		c->ranges |= p->pieces[i].count_max != 0;
	}
	sort_types(c);
	for (size_t t = 0; t < c->ntypes; t++)
		if (c->types[t].n == 0)
			return NO_ASSEMBLY;
	return c->ranges || volume == c->goal.n ? SOLVE_OK : NO_ASSEMBLY;
}

static int32_t cell_at(const struct cells *c, int x, int y, int z)
{
	if (x < 0 || y < 0 || z < 0 || x >= c->dim[0] || y >= c->dim[1] ||
	    z >= c->dim[2])
		return -1;
	return c->index[x + (size_t)c->dim[0] * (y + (size_t)c->dim[1] * z)];
}

/* The goal's proper rotations and how each maps the cells. A rotation
 * maps the goal onto itself when it keeps the box's sides and takes
 * every cell to a goal cell of the same tag (the map is one to one, so
 * then the cells are the same set); the image is re-anchored at 0 as
 * poly_transform() would. */
static int load_rotations(struct cells *c)
{
	size_t n = c->goal.n;
	c->nrot = 0;
	c->rotmap = malloc(24 * (n ? n : 1) * sizeof *c->rotmap);
	if (!c->rotmap)
		return SOLVE_ENOMEM;
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		/* the image of the box's far corner gives the sides it keeps
		 * and, where negative, the shift back to 0 */
		int far[3] = {c->dim[0] - 1, c->dim[1] - 1, c->dim[2] - 1}, o[3];
		poly_sym_apply(s, far, o);
		int lo[3];
		bool fits = true;
		for (int a = 0; a < 3; a++) {
			lo[a] = o[a] < 0 ? o[a] : 0;
			fits &= (o[a] < 0 ? -o[a] : o[a]) == c->dim[a] - 1;
		}
		int32_t *map = c->rotmap + (size_t)c->nrot * n;
		for (size_t k = 0; k < n && fits; k++) {
			uint32_t v = c->goal.cells[k];
			int in[3] = {poly_x(v), poly_y(v), poly_z(v)};
			poly_sym_apply(s, in, o);
			int32_t at = c->index[(o[0] - lo[0]) + (size_t)c->dim[0] *
			                      ((o[1] - lo[1]) + (size_t)c->dim[1] *
			                       (o[2] - lo[2]))];
			fits = at >= 0 && poly_tag(c->goal.cells[at]) == poly_tag(v);
			map[k] = at;
		}
		if (fits)
			c->rot[c->nrot++] = s;
	}
	return SOLVE_OK;
}

/* The order of distinct regions: membership arrays compared bytewise
 * (insertion sort: a puzzle has a handful). */
static void sort_regions(unsigned char *r, size_t nreg, size_t n, unsigned char *tmp)
{
	for (size_t i = 1; i < nreg; i++)
		for (size_t j = i; j > 0 && memcmp(r + j * n, r + (j - 1) * n, n) < 0; j--) {
			memcpy(tmp, r + j * n, n);
			memcpy(r + j * n, r + (j - 1) * n, n);
			memcpy(r + (j - 1) * n, tmp, n);
		}
}

/* regions 'in' (nreg x n) moved by the goal's rotation r and sorted */
static void turn_regions(const struct cells *c, int r, const unsigned char *in,
                         unsigned char *out, unsigned char *tmp)
{
	size_t n = c->goal.n;
	for (size_t j = 0; j < c->ndreg; j++)
		for (size_t k = 0; k < n; k++)
			out[j * n + (size_t)c->rotmap[(size_t)r * n + k]] = in[j * n + k];
	sort_regions(out, c->ndreg, n, tmp);
}

/* The distinct regions on the canonical goal: the file's distinct ones,
 * then the six faces of the goal's box when asked (a flat goal's two
 * faces across its thin side are the same cells, kept twice: harmless).
 * The goal's rotations that keep the tagged goal may still move them, so
 * they are turned by the one (of those rotations) that makes the sorted
 * list least, and the rotations are cut down to those that keep it. 'g'
 * is the goal as goal_shape() gave it. */
static int load_regions(const struct puzzle *p, const struct shape *g,
                        struct cells *c)
{
	size_t nreg = p->distinct_faces ? 6 : 0, n = c->goal.n;
	for (size_t r = 0; r < p->nregions; r++)
		nreg += p->regions[r].distinct;
	if (nreg == 0)
		return SOLVE_OK;
	c->dreg = calloc(nreg * n, 1);
	unsigned char *best = malloc(nreg * n), *cand = malloc(nreg * n),
	              *tmp = malloc(n);
	int rc = c->dreg && best && cand && tmp ? SOLVE_OK : SOLVE_ENOMEM;
	/* the rotation s0 taking g onto the canonical goal, and its shift */
	int s0 = -1;
	for (int sy = 0; sy < POLY_NSYM && s0 < 0 && rc == SOLVE_OK; sy++) {
		struct shape img;
		if (!poly_sym_proper(sy))
			continue;
		if (poly_transform(g, sy, &img) != POLY_OK) {
			rc = SOLVE_ENOMEM;
			break;
		}
		if (poly_equal(&img, &c->goal))
			s0 = sy;
		poly_shape_clear(&img);
	}
	if (rc != SOLVE_OK)
		goto out;
	int lo[3] = {INT32_MAX, INT32_MAX, INT32_MAX};
	for (size_t k = 0; k < g->n; k++) {
		int in[3] = {poly_x(g->cells[k]), poly_y(g->cells[k]), poly_z(g->cells[k])}, o[3];
		poly_sym_apply(s0, in, o);
		for (int a = 0; a < 3; a++)
			lo[a] = o[a] < lo[a] ? o[a] : lo[a];
	}
	const struct grid *gr = &p->goal;
	int glo[3];
	grid_low(gr, glo);
	size_t m = 0;
	for (size_t r = 0; r < p->nregions; r++) {
		if (!p->regions[r].distinct)
			continue;
		for (int z = 0; z < gr->nz; z++)
			for (int y = 0; y < gr->ny; y++)
				for (int x = 0; x < gr->nx; x++) {
					if (!p->regions[r].cells[puz_grid_index(gr, x, y, z)])
						continue;
					int in[3] = {x - glo[0], y - glo[1], z - glo[2]}, o[3];
					poly_sym_apply(s0, in, o);
					int32_t k = cell_at(c, o[0] - lo[0], o[1] - lo[1], o[2] - lo[2]);
					if (k >= 0)
						c->dreg[m * n + (size_t)k] = 1;
				}
		m++;
	}
	for (int f = 0; p->distinct_faces && f < 6; f++, m++)
		for (size_t k = 0; k < n; k++) {
			uint32_t v = c->goal.cells[k];
			int xyz[3] = {poly_x(v), poly_y(v), poly_z(v)};
			c->dreg[m * n + k] = xyz[f / 2] == (f % 2 ? c->dim[f / 2] - 1 : 0);
		}
	c->ndreg = nreg;
	sort_regions(c->dreg, nreg, n, tmp);
	memcpy(best, c->dreg, nreg * n);
	for (int r = 1; r < c->nrot; r++) {
		turn_regions(c, r, c->dreg, cand, tmp);
		if (memcmp(cand, best, nreg * n) < 0)
			memcpy(best, cand, nreg * n);
	}
	memcpy(c->dreg, best, nreg * n);
	/* keep the rotations (and their maps) that keep the regions */
	int kept = 0;
	for (int r = 0; r < c->nrot; r++) {
		turn_regions(c, r, c->dreg, cand, tmp);
		if (memcmp(cand, c->dreg, nreg * n) != 0)
			continue;
		c->rot[kept] = c->rot[r];
		memmove(c->rotmap + (size_t)kept * n, c->rotmap + (size_t)r * n,
		        n * sizeof *c->rotmap);
		kept++;
	}
	c->nrot = kept;
out:
	free(best);
	free(cand);
	free(tmp);
	return rc;
}

/* Whether a placement with cells 'cells' and colours 'col' puts two cells
 * of one colour into one distinct region. */
static bool repeats_colour(const struct cells *c, const uint32_t *cells,
                           const unsigned char *col, size_t k)
{
	for (size_t i = 0; i < k; i++)
		for (size_t j = i + 1; j < k && col[i]; j++) {
			if (col[j] != col[i])
				continue;
			for (size_t r = 0; r < c->ndreg; r++)
				if (c->dreg[r * c->goal.n + cells[i]] &&
				    c->dreg[r * c->goal.n + cells[j]])
					return true;
		}
	return false;
}

static int add_row(struct cells *c, const uint32_t *cells,
                   const unsigned char *col, size_t k, size_t t)
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
		if (c->colour) {
			unsigned char *co = realloc(c->rcol, cap);
			if (!co)
				return SOLVE_ENOMEM;
			c->rcol = co;
		}
		c->ccap = cap;
	}
	memcpy(c->rcells + at, cells, k * sizeof *cells);
	if (c->colour)
		memcpy(c->rcol + at, col, k);
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
	if (c->colour)
		c->rcol = malloc(c->ccap);
	uint32_t *buf = malloc(c->goal.n * sizeof *buf);
	unsigned char *col = malloc(c->goal.n);
	size_t most = 1; /* a type's cells, at most */
	for (size_t t = 0; t < c->ntypes; t++)
		most = c->types[t].n > most ? c->types[t].n : most;
	size_t *off = malloc(most * sizeof *off); /* a cell's index in the box */
	int rc = SOLVE_ENOMEM;
	if (!c->roff || !c->rtype || !c->rcells || !buf || !col || !off ||
	    (c->colour && !c->rcol))
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
				off[k] = (size_t)xyz[0] + (size_t)c->dim[0] *
				         ((size_t)xyz[1] + (size_t)c->dim[1] * (size_t)xyz[2]);
			}
			for (int dz = 0; dz + hi[2] < c->dim[2] && rc == SOLVE_OK; dz++)
				for (int dy = 0; dy + hi[1] < c->dim[1] && rc == SOLVE_OK; dy++)
					for (int dx = 0; dx + hi[0] < c->dim[0] && rc == SOLVE_OK; dx++) {
						/* (every cell is inside the box here) */
						size_t base = (size_t)dx + (size_t)c->dim[0] *
						              ((size_t)dy + (size_t)c->dim[1] * (size_t)dz);
						size_t k = 0;
						for (; k < sh->n; k++) {
							uint32_t v = sh->cells[k];
							int32_t at = c->index[base + off[k]];
							if (at < 0)
								break;
							buf[k] = (uint32_t)at;
							/* a colour puzzle: the colours must match */
							col[k] = (unsigned char)poly_tag(v);
							int gc = poly_tag(c->goal.cells[at]) & ~GOAL_OPTIONAL;
							if (c->colour && !puz_match(c->p, col[k], gc))
								break;
						}
						if (k == sh->n && !(c->ndreg &&
						                    repeats_colour(c, buf, col, k)))
							rc = add_row(c, buf, col, k, t);
					}
		}
		poly_shapes_free(ors, nor);
	}
out:
	free(off);
	free(buf);
	free(col);
	return rc;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Row i's cell j as an orbit key: its cell number, then its colour. */
static uint64_t row_key(const struct cells *c, size_t i, size_t j, uint32_t cell)
{
	return (uint64_t)cell << 8 | (c->rcol ? c->rcol[c->roff[i] + j] : 0);
}

/* Rows of at most this many cells are compared with their images by
 * taking the image's keys least first, stopping at the first that
 * differs (nearly always the first); longer ones are sorted whole. */
#define ORBIT_SELECT 32

/* Whether row i is the least of its orbit under the goal's rotations
 * (rows compared as ascending lists of (cell, colour)); 'buf' holds a
 * row. */
static bool least_of_orbit(const struct cells *c, size_t i, uint64_t *buf)
{
	const uint32_t *cells = c->rcells + c->roff[i];
	size_t k = c->roff[i + 1] - c->roff[i], n = c->goal.n;
	for (int r = 1; r < c->nrot; r++) {
		for (size_t j = 0; j < k; j++)
			buf[j] = row_key(c, i, j,
			                 (uint32_t)c->rotmap[(size_t)r * n + cells[j]]);
		if (k <= ORBIT_SELECT) {
			for (size_t j = 0; j < k; j++) {
				size_t m = j;
				for (size_t t = j + 1; t < k; t++)
					m = buf[t] < buf[m] ? t : m;
				uint64_t least = buf[m], own = row_key(c, i, j, cells[j]);
				buf[m] = buf[j];
				buf[j] = least;
				if (least != own) {
					if (least < own)
						return false;
					break;
				}
			}
			continue;
		}
		qsort(buf, k, sizeof *buf, cmp_u64);
		for (size_t j = 0; j < k; j++) {
			uint64_t own = row_key(c, i, j, cells[j]);
			if (buf[j] != own) {
				if (buf[j] < own)
					return false;
				break;
			}
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

/* The items of the phased search (a colour puzzle with an optional cell,
 * a range or a distinct region), numbered as the solver's dancing links
 * number them: required cells (canonical order), then the types of
 * exactly one copy, primary; then the optional cells (0..1), the other
 * types (least..most copies) and one item per distinct region and piece
 * colour (0..1), bounded. */
struct phased {
	size_t *cell_item, *type_item;
	size_t rc_base;        /* item of (region r, colour c): rc_base + r * ncol + cindex[c] */
	size_t cindex[PUZ_NCOLOURS + 1];
	size_t ncol;
};

static xc *phased_new(const struct cells *c, struct phased *ph)
{
	size_t n = c->goal.n, nt = c->ntypes;
	ph->cell_item = malloc((n ? n : 1) * sizeof *ph->cell_item);
	ph->type_item = malloc((nt ? nt : 1) * sizeof *ph->type_item);
	uint32_t colours = 0;
	for (size_t t = 0; t < nt; t++)
		for (size_t k = 0; k < c->types[t].n; k++)
			colours |= (uint32_t)1 << poly_tag(c->types[t].cells[k]);
	colours &= ~(uint32_t)1;
	ph->ncol = 0;
	for (int col = 1; col <= PUZ_NCOLOURS; col++)
		if (colours >> col & 1)
			ph->cindex[col] = ph->ncol++;
	size_t nb = n + nt + c->ndreg * ph->ncol;
	unsigned *lo = malloc((nb ? nb : 1) * sizeof *lo);
	unsigned *hi = malloc((nb ? nb : 1) * sizeof *hi);
	xc *x = NULL;
	if (!ph->cell_item || !ph->type_item || !lo || !hi)
		goto out;
	size_t np = 0, nm = 0;
	for (size_t k = 0; k < n; k++)
		if (!(poly_tag(c->goal.cells[k]) & GOAL_OPTIONAL))
			ph->cell_item[k] = np++;
	for (size_t t = 0; t < nt; t++)
		if (c->counts[t] == 1 && c->lo[t] == 1)
			ph->type_item[t] = np++;
	for (size_t k = 0; k < n; k++)
		if (poly_tag(c->goal.cells[k]) & GOAL_OPTIONAL) {
			lo[nm] = 0;
			hi[nm] = 1;
			ph->cell_item[k] = np + nm++;
		}
	for (size_t t = 0; t < nt; t++)
		if (!(c->counts[t] == 1 && c->lo[t] == 1)) {
			lo[nm] = c->lo[t];
			hi[nm] = c->counts[t];
			ph->type_item[t] = np + nm++;
		}
	ph->rc_base = np + nm;
	for (size_t k = 0; k < c->ndreg * ph->ncol; k++) {
		lo[nm] = 0;
		hi[nm++] = 1;
	}
	x = xc_new_ranges(np, nm, lo, hi);
out:
	free(lo);
	free(hi);
	return x;
}

/* Row i's items in the phased search, into 'items'; returns how many. */
static size_t phased_items(const struct cells *c, const struct phased *ph,
                           size_t i, size_t *items)
{
	size_t k = 0, n = c->goal.n;
	for (size_t j = c->roff[i]; j < c->roff[i + 1]; j++) {
		uint32_t cell = c->rcells[j];
		items[k++] = ph->cell_item[cell];
		int col = c->rcol[j];
		for (size_t r = 0; col && r < c->ndreg; r++)
			if (c->dreg[r * n + cell])
				items[k++] = ph->rc_base + r * ph->ncol + ph->cindex[col];
	}
	items[k++] = ph->type_item[c->rtype[i]];
	return k;
}

/* A watched search's allowances (xc_poll): 'every' placements at a
 * time, none past the budget, so that it stops where it would unwatched
 * (the engines take a budget in allowances so: xc.h). */
struct allowance {
	const struct diff_watch *w;
	uint64_t given, max, every;
};

static uint64_t next_allowance(void *ctx)
{
	struct allowance *a = ctx;
	a->w->fn(a->w->ctx, a->given, a->max);
	uint64_t more = a->every;
	if (a->max && a->max - a->given < more)
		more = a->max - a->given;
	a->given += more;
	return more;
}

static int cells_search(struct cells *c, uint64_t max_nodes,
                        const struct diff_watch *watch,
                        struct diff_result *out)
{
	/* Pin the single-copy type with the most rows (orbits are largest),
	 * ties to the first in canonical order. */
	size_t pin = c->ntypes, best = 0;
	for (size_t t = 0; t < c->ntypes; t++) {
		size_t n = 0;
		for (size_t i = 0; i < c->nrows; i++)
			n += c->rtype[i] == t;
		if (c->counts[t] == 1 && c->lo[t] == 1 && n > best) {
			pin = t;
			best = n;
		}
	}
	/* Up to 64 cells the 64-bit board, up to 1024 the wide one (its
	 * region pruning off: no edges), beyond them dancing links: all
	 * branch on the most constrained cell with ties to the lowest
	 * canonical number (the bitboards on a single-copy type with
	 * fewer rows still), so the tree is a function of the canonical
	 * form. Optional cells alone (up to 1024 cells): the wide board with
	 * fillers, branched on last and neither nodes nor dead ends, which
	 * finds the phased search's dead ends (difficulty.h). Ranges with
	 * every cell required (up to 1024 cells): the wide board with each
	 * type's least, the same tree. Ranges with optional cells, or
	 * distinct regions: dancing links with its phased search, at any
	 * size. */
	size_t n = c->goal.n, nt = c->ntypes, vol = 0;
	bool ranged = false, optional = false;
	for (size_t t = 0; t < nt; t++) {
		ranged |= c->lo[t] != c->counts[t];
		vol += (size_t)c->counts[t] * c->types[t].n;
	}
	for (size_t k = 0; k < n; k++)
		optional |= (poly_tag(c->goal.cells[k]) & GOAL_OPTIONAL) != 0;
	bool fill = c->ranges && !ranged && !c->ndreg && n <= BBW_MAX_CELLS &&
	            vol <= n;
	/* Ranges with every cell required: the wide board with each type's
	 * least (bbw_set_least), which branches, prunes and counts dead
	 * ends as the phased search does there (every cell first, then no
	 * row fits: a cover short of a type is a dead end). */
	bool least = ranged && !optional && !c->ndreg && n <= BBW_MAX_CELLS;
	bool phased = (c->ranges && !fill && !least) || c->ndreg;
	bool bits = !phased && !fill && !least && n <= 64;
	bool wide = !phased && !bits && (n <= BBW_MAX_CELLS || fill);
	unsigned rank[BBW_MAX_CELLS], *counts = malloc((nt + 1) * sizeof *counts);
	for (size_t k = 0; k < n && (bits || wide); k++)
		rank[k] = (unsigned)k;
	if (counts) {
		memcpy(counts, c->counts, nt * sizeof *counts);
		counts[nt] = (unsigned)(n - vol);
		/* a range: as the solver's engine has it */
		for (size_t t = 0; least && t < nt; t++)
			counts[t] = bbw_range_count(c->lo[t], c->counts[t],
			                            c->types[t].n, n);
	}
	size_t wt = nt + (fill && vol < n);
	struct phased ph = {0};
	xc *x = phased ? phased_new(c, &ph)
	      : bits || wide ? NULL : xc_new(n, nt, c->counts);
	bb *b = bits ? bb_new(n, rank, nt, c->counts) : NULL;
	bbw *w = wide && counts ? bbw_new(n, rank, wt, counts) : NULL;
	uint64_t *buf = malloc(n * sizeof *buf);
	size_t *items = malloc((n + 1 + n * c->ndreg) * sizeof *items);
	int rc = SOLVE_ENOMEM;
	if ((!x && !b && !w) || !buf || !items)
		goto out;
	if (w)
		bbw_set_flags(w, BBW_QUICK_COUNT | BBW_MATRIX | BBW_WINDOW |
		                     BBW_SQUEEZE);
	rc = SOLVE_OK;
	if (w && least && bbw_set_least(w, c->lo) != XC_OK)
		rc = SOLVE_ENOMEM;
	if (w) { /* at most every row and a filler per cell: made once */
		size_t most = c->nrows + (wt > nt ? n : 0);
		int er = bbw_reserve(w, most);
		if (er != XC_OK)
			rc = er == XC_ENOMEM ? SOLVE_ENOMEM : SOLVE_ETOOBIG;
	}
	for (size_t i = 0; i < c->nrows && rc == SOLVE_OK; i++) {
		if (c->rtype[i] == pin && !least_of_orbit(c, i, buf))
			continue;
		size_t k = 0;
		uint64_t mask[BBW_MAX_WORDS] = {0};
		if (phased) {
			k = phased_items(c, &ph, i, items);
		} else {
			for (size_t j = c->roff[i]; j < c->roff[i + 1]; j++) {
				items[k++] = c->rcells[j];
				if (bits || wide)
					mask[c->rcells[j] / 64] |= (uint64_t)1 << (c->rcells[j] % 64);
			}
			items[k++] = n + c->rtype[i];
		}
		int er = bits ? bb_add_row(b, mask[0], c->rtype[i])
		       : wide ? bbw_add_row(w, mask, c->rtype[i])
		       : xc_add_row(x, items, k);
		if (er != XC_OK)
			rc = er == XC_ENOMEM ? SOLVE_ENOMEM : SOLVE_ETOOBIG;
	}
	for (size_t k = 0; k < n && rc == SOLVE_OK && wt > nt; k++) {
		if (!(poly_tag(c->goal.cells[k]) & GOAL_OPTIONAL))
			continue;
		int er = bbw_add_filler(w, nt, k);
		if (er != XC_OK)
			rc = er == XC_ENOMEM ? SOLVE_ENOMEM : SOLVE_ETOOBIG;
	}
	if (rc != SOLVE_OK)
		goto out;
	struct allowance a = {.w = watch, .max = max_nodes,
	                      .every = watch && watch->every ? watch->every
	                                                     : DIFF_POLL_NODES};
	uint64_t first = max_nodes;
	if (watch) {
		first = max_nodes && max_nodes < a.every ? max_nodes : a.every;
		a.given = first;
		if (bits)
			bb_set_poll(b, next_allowance, &a);
		else if (wide)
			bbw_set_poll(w, next_allowance, &a);
		else
			xc_set_poll(x, next_allowance, &a);
	}
	uint64_t nodes;
	enum xc_stop stop = bits ? bb_solve(b, first, count_cover, c, &nodes)
	                  : wide ? bbw_solve(w, first, count_cover, c, &nodes)
	                         : xc_solve(x, first, count_cover, c, &nodes);
	*out = (struct diff_result){
		.method = DIFF_CELLS,
		.complete = stop == XC_DONE,
		.dead = bits ? bb_dead_ends(b) : wide ? bbw_dead_ends(w)
		                                      : xc_dead_ends(x),
		.wins = c->covers,
		.nodes = nodes,
	};
out:
	xc_free(x);
	bb_free(b);
	bbw_free(w);
	free(counts);
	free(ph.cell_item);
	free(ph.type_item);
	free(buf);
	free(items);
	return rc;
}

/* Whether the search is sure to pass 'max_nodes' (0: no limit) given a
 * complete count's 'assemblies' and 'count_nodes' (0: unknown; see
 * difficulty.h): every cover it finds is a node of its own, and it finds
 * every assembly when nothing is pinned, else at least one in nrot. */
static bool sure_to_pass(const struct cells *c, uint64_t max_nodes,
                         uint64_t assemblies, uint64_t count_nodes)
{
	if (!max_nodes)
		return false;
	if (count_nodes / DIFF_COUNT_FACTOR > max_nodes)
		return true;
	bool pin = false;
	for (size_t t = 0; t < c->ntypes; t++)
		pin |= c->counts[t] == 1 && c->lo[t] == 1;
	uint64_t rot = (uint64_t)c->nrot;
	uint64_t covers = pin ? assemblies / rot + (assemblies % rot != 0) : assemblies;
	return covers > max_nodes;
}

static int cells_measure(const struct puzzle *p, uint64_t max_nodes,
                         uint64_t assemblies, uint64_t count_nodes,
                         const struct diff_watch *watch,
                         struct diff_result *out)
{
	struct cells c;
	memset(&c, 0, sizeof c);
	c.p = p;
	c.colour = !puz_plain(p);
	struct shape g;
	int rc = goal_shape(p, c.colour, &g);
	if (rc != SOLVE_OK)
		return rc;
	rc = load(p, &g, &c);
	if (rc == NO_ASSEMBLY) {
		*out = (struct diff_result){.method = DIFF_NONE, .complete = true};
		rc = SOLVE_OK;
	} else if (rc == SOLVE_OK) {
		rc = load_rotations(&c);
		if (rc == SOLVE_OK)
			rc = load_regions(p, &g, &c);
		if (rc == SOLVE_OK && sure_to_pass(&c, max_nodes, assemblies, count_nodes))
			*out = (struct diff_result){.method = DIFF_CELLS};
		else if (rc == SOLVE_OK && (rc = load_rows(&c)) == SOLVE_OK)
			rc = cells_search(&c, max_nodes, watch, out);
	}
	poly_shape_clear(&g);
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
	return diff_puzzle_known(p, max_nodes, 0, 0, out);
}

int diff_puzzle_known(const struct puzzle *p, uint64_t max_nodes,
                      uint64_t assemblies, uint64_t count_nodes,
                      struct diff_result *out)
{
	return diff_puzzle_watched(p, max_nodes, assemblies, count_nodes, NULL,
	                           out);
}

int diff_puzzle_watched(const struct puzzle *p, uint64_t max_nodes,
                        uint64_t assemblies, uint64_t count_nodes,
                        const struct diff_watch *w, struct diff_result *out)
{
	/* Colour puzzles: always the cell search (the plates need plain). */
	int rc = puz_plain(p) ? plates_measure(p, max_nodes, out) : SHELL_NOT_SHELL;
	if (rc != SHELL_NOT_SHELL)
		return rc;
	return cells_measure(p, max_nodes, assemblies, count_nodes,
	                     w && w->fn ? w : NULL, out);
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
