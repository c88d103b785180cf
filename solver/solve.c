/*
 * solve.c: from a puzzle to counted solutions.
 *
 * Workload: puzzles of up to a few hundred goal cells and a dozen pieces
 * (Soma, pentacube boxes, Bedlam) searched exhaustively, and big sparse
 * ones (cube shells of size up to 64) with few, large pieces.
 *
 * Why the pinned count is exact. Let X be the assemblies, F the covers the
 * search finds (P at a representative r of its H-orbit), O a G-orbit of X,
 * s = |Stab_G(x)| for x in O. Every x in O has exactly one P region; the
 * x in O with P in the H-orbit of r are |H r| times those with P at r
 * (h maps one set onto the other, bijectively). Summing over representatives,
 * the sum over y in F∩O of |H r(y)| is |O| = |G| / s. So each y adds |H r|
 * assemblies, and |H r| * s / |G| solutions sums to exactly 1 per orbit.
 * With no single-copy piece nothing is pinned (H = {e}, |H r| = 1).
 *
 * Stab_G(y): g fixes y only if g maps P's region to P's region or g is not
 * in H, so only the h in H fixing r and the elements outside H are tried.
 */
#include "solver/solve.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/bb.h"
#include "solver/poly.h"
#include "solver/shell.h"
#include "solver/xc.h"

struct type {
	struct shape shape; /* normalised */
	struct shape canon; /* poly_canonical(shape) */
	unsigned count;     /* copies */
	size_t piece;       /* first puzzle piece of this type */
	size_t mirror;      /* type of the mirror image; ntypes if none */
	size_t row0, nrows; /* its rows in the row table */
};

struct solver {
	const struct puzzle *p;
	const struct solve_opts *o;
	struct solve_result *res;

	/* goal */
	size_t V;        /* goal cells */
	size_t *gcell;   /* goal index -> grid index */
	int32_t *gidx;   /* grid index -> goal index, -1 outside */
	int gmin[3];     /* goal bounding box, grid coordinates */
	int gmax[3];

	struct type *types;
	size_t ntypes;

	/* symmetry group G, as indexes into poly's 48 */
	int sym[POLY_NSYM];
	int ng;
	int32_t *cellmap; /* ng * V: goal index -> goal index under sym[k] */

	/* row table: every placement of every type */
	size_t nrows;
	size_t *rtype;    /* type of each row */
	size_t *roff;     /* nrows + 1 offsets into rcells */
	uint32_t *rcells; /* goal indexes, ascending within a row */
	size_t rcap, ccap;
	uint32_t *htab;   /* open addressing: row + 1, 0 empty */
	size_t hmask;

	/* pinning */
	size_t pin;        /* pinned type, ntypes if none */
	bool *in_h;        /* per G position: maps type pin to itself */
	int nh;            /* |H| */
	uint32_t *orbit;   /* per row of pin: |H r| for representatives, else 0 */
	uint64_t *fixes;   /* per row of pin: bit k set when sym[k] fixes it */
	size_t *xrow;      /* xc row -> table row */
	size_t *vrows;     /* a cover's table rows, one per piece */
	size_t nxrows;

	/* search */
	uint32_t *stamp; /* per table row, marks the rows of a cover */
	uint32_t cur;
	uint32_t *tmp;   /* a row's image cells */
	size_t tmpcap;
	uint64_t W;      /* |G| * solutions found so far */
	uint64_t assemblies;
	bool oom;
};

/* ---- goal and types ---------------------------------------------------- */

static int load_goal(struct solver *s)
{
	const struct grid *g = &s->p->goal;
	size_t total = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	s->V = grid_volume(g);
	s->gcell = malloc((s->V ? s->V : 1) * sizeof *s->gcell);
	s->gidx = malloc(total * sizeof *s->gidx);
	if (!s->gcell || !s->gidx)
		return SOLVE_ENOMEM;
	s->gmin[0] = g->nx; s->gmin[1] = g->ny; s->gmin[2] = g->nz;
	s->gmax[0] = s->gmax[1] = s->gmax[2] = -1;
	size_t k = 0;
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++) {
				size_t i = grid_index(g, x, y, z);
				if (!g->cells[i]) {
					s->gidx[i] = -1;
					continue;
				}
				int c[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					if (c[a] < s->gmin[a]) s->gmin[a] = c[a];
					if (c[a] > s->gmax[a]) s->gmax[a] = c[a];
				}
				s->gidx[i] = (int32_t)k;
				s->gcell[k++] = i;
			}
	return SOLVE_OK;
}

static void goal_coords(const struct solver *s, size_t gi, int c[3])
{
	const struct grid *g = &s->p->goal;
	size_t i = s->gcell[gi];
	c[0] = (int)(i % (size_t)g->nx);
	c[1] = (int)(i / (size_t)g->nx % (size_t)g->ny);
	c[2] = (int)(i / ((size_t)g->nx * (size_t)g->ny));
}

static int load_types(struct solver *s)
{
	const struct puzzle *p = s->p;
	s->types = calloc(p->npieces ? p->npieces : 1, sizeof *s->types);
	if (!s->types)
		return SOLVE_ENOMEM;
	for (size_t i = 0; i < p->npieces; i++) {
		struct shape sh, canon;
		if (poly_from_grid(&p->pieces[i].shape, &sh) != POLY_OK)
			return SOLVE_ENOMEM;
		if (poly_canonical(&sh, &canon) != POLY_OK) {
			poly_shape_clear(&sh);
			return SOLVE_ENOMEM;
		}
		size_t t = 0;
		while (t < s->ntypes && !poly_equal(&s->types[t].canon, &canon))
			t++;
		if (t < s->ntypes) {
			s->types[t].count += p->pieces[i].count;
			poly_shape_clear(&sh);
			poly_shape_clear(&canon);
			continue;
		}
		s->types[t] = (struct type){.shape = sh, .canon = canon,
		                            .count = p->pieces[i].count, .piece = i};
		s->ntypes++;
	}
	/* Mirror images: symmetry 1 negates x. */
	bool closed = true;
	for (size_t t = 0; t < s->ntypes; t++) {
		struct shape m, mc;
		if (poly_transform(&s->types[t].shape, 1, &m) != POLY_OK)
			return SOLVE_ENOMEM;
		int rc = poly_canonical(&m, &mc);
		poly_shape_clear(&m);
		if (rc != POLY_OK)
			return SOLVE_ENOMEM;
		s->types[t].mirror = s->ntypes;
		for (size_t u = 0; u < s->ntypes; u++)
			if (poly_equal(&s->types[u].canon, &mc))
				s->types[t].mirror = u;
		poly_shape_clear(&mc);
		size_t u = s->types[t].mirror;
		if (u == s->ntypes || s->types[u].count != s->types[t].count)
			closed = false;
	}
	s->res->mirror_closed = closed;
	return SOLVE_OK;
}

/* ---- symmetry group --------------------------------------------------- */

/* Image of goal cell coordinates under symmetry 'sym', re-anchored so the
 * goal's bounding box maps onto itself. */
static void sym_goal(const struct solver *s, int sym, const int c[3], int out[3])
{
	int v[3], w[3], lo[3], hi[3], a[3], b[3];
	for (int k = 0; k < 3; k++)
		v[k] = c[k] - s->gmin[k];
	poly_sym_apply(sym, v, w);
	for (int k = 0; k < 3; k++) {
		a[k] = 0;
		b[k] = s->gmax[k] - s->gmin[k];
	}
	poly_sym_apply(sym, a, lo);
	poly_sym_apply(sym, b, hi);
	for (int k = 0; k < 3; k++) {
		int m = lo[k] < hi[k] ? lo[k] : hi[k];
		out[k] = w[k] - m + s->gmin[k];
	}
}

static int find_group(struct solver *s)
{
	const struct grid *g = &s->p->goal;
	int32_t *map = malloc((s->V ? s->V : 1) * sizeof *map);
	if (!map)
		return SOLVE_ENOMEM;
	int32_t *maps[POLY_NSYM] = {0};
	s->ng = 0;
	for (int sym = 0; sym < POLY_NSYM; sym++) {
		if (!poly_sym_proper(sym) && !s->res->mirror_closed)
			continue;
		bool ok = true;
		for (size_t i = 0; i < s->V && ok; i++) {
			int c[3], d[3];
			goal_coords(s, i, c);
			sym_goal(s, sym, c, d);
			if (d[0] < 0 || d[1] < 0 || d[2] < 0 || d[0] >= g->nx ||
			    d[1] >= g->ny || d[2] >= g->nz) {
				ok = false;
				break;
			}
			int32_t j = s->gidx[grid_index(g, d[0], d[1], d[2])];
			if (j < 0)
				ok = false;
			map[i] = j;
		}
		if (!ok)
			continue;
		maps[s->ng] = map;
		s->sym[s->ng++] = sym;
		map = malloc((s->V ? s->V : 1) * sizeof *map);
		if (!map)
			break;
	}
	free(map);
	s->cellmap = malloc((size_t)s->ng * (s->V ? s->V : 1) * sizeof *s->cellmap);
	bool fail = !s->cellmap;
	for (int k = 0; k < s->ng; k++) {
		if (!fail)
			memcpy(s->cellmap + (size_t)k * s->V, maps[k],
			       s->V * sizeof *s->cellmap);
		free(maps[k]);
	}
	if (fail || s->ng == 0)
		return SOLVE_ENOMEM;
	s->res->group_order = s->ng;
	return SOLVE_OK;
}

/* ---- rows --------------------------------------------------------------- */

static uint64_t row_hash(size_t type, const uint32_t *c, size_t n)
{
	uint64_t h = 1469598103934665603u ^ type;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 1099511628211u;
	}
	return h ^ h >> 29;
}

static int add_row(struct solver *s, size_t type, const uint32_t *c, size_t n)
{
	if (s->nrows >= SOLVE_MAX_ROWS)
		return SOLVE_ETOOBIG;
	if (s->nrows + 2 > s->rcap) {
		size_t cap = s->rcap ? 2 * s->rcap : 256;
		size_t *t = realloc(s->rtype, cap * sizeof *t);
		if (!t)
			return SOLVE_ENOMEM;
		s->rtype = t;
		size_t *o = realloc(s->roff, (cap + 1) * sizeof *o);
		if (!o)
			return SOLVE_ENOMEM;
		s->roff = o;
		s->rcap = cap;
	}
	size_t used = s->nrows ? s->roff[s->nrows] : 0;
	if (n > SOLVE_MAX_ROW_CELLS || used > SOLVE_MAX_ROW_CELLS - n)
		return SOLVE_ETOOBIG;
	if (used + n > s->ccap) {
		size_t cap = s->ccap ? 2 * s->ccap : 4096;
		while (cap < used + n)
			cap *= 2;
		uint32_t *nc = realloc(s->rcells, cap * sizeof *nc);
		if (!nc)
			return SOLVE_ENOMEM;
		s->rcells = nc;
		s->ccap = cap;
	}
	s->roff[0] = 0;
	memcpy(s->rcells + used, c, n * sizeof *c);
	s->rtype[s->nrows] = type;
	s->roff[s->nrows + 1] = used + n;
	s->nrows++;
	return SOLVE_OK;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Every translation of every orientation of type t that fits the goal. */
static int make_rows(struct solver *s, size_t t)
{
	struct type *ty = &s->types[t];
	struct shape *or;
	size_t nor;
	if (poly_orientations(&ty->shape, &or, &nor) != POLY_OK)
		return SOLVE_ENOMEM;
	const struct grid *g = &s->p->goal;
	uint32_t *c = malloc(ty->shape.n * sizeof *c);
	int rc = c ? SOLVE_OK : SOLVE_ENOMEM;
	ty->row0 = s->nrows;
	for (size_t k = 0; k < nor && rc == SOLVE_OK; k++) {
		const struct shape *sh = &or[k];
		int ext[3] = {0, 0, 0};
		for (size_t i = 0; i < sh->n; i++) {
			int v[3] = {poly_x(sh->cells[i]), poly_y(sh->cells[i]),
			            poly_z(sh->cells[i])};
			for (int a = 0; a < 3; a++)
				if (v[a] > ext[a])
					ext[a] = v[a];
		}
		for (int dz = s->gmin[2]; dz + ext[2] <= s->gmax[2]; dz++)
		for (int dy = s->gmin[1]; dy + ext[1] <= s->gmax[1]; dy++)
		for (int dx = s->gmin[0]; dx + ext[0] <= s->gmax[0]; dx++) {
			size_t i = 0;
			for (; i < sh->n; i++) {
				int32_t j = s->gidx[grid_index(g, poly_x(sh->cells[i]) + dx,
				                               poly_y(sh->cells[i]) + dy,
				                               poly_z(sh->cells[i]) + dz)];
				if (j < 0)
					break;
				c[i] = (uint32_t)j;
			}
			if (i < sh->n)
				continue;
			/* cells sorted by (z, y, x) map to ascending goal indexes */
			rc = add_row(s, t, c, sh->n);
			if (rc != SOLVE_OK)
				break;
		}
	}
	ty->nrows = s->nrows - ty->row0;
	free(c);
	poly_shapes_free(or, nor);
	return rc;
}

static int build_hash(struct solver *s)
{
	size_t cap = 16;
	while (cap < 2 * s->nrows)
		cap *= 2;
	s->htab = calloc(cap, sizeof *s->htab);
	if (!s->htab)
		return SOLVE_ENOMEM;
	s->hmask = cap - 1;
	for (size_t r = 0; r < s->nrows; r++) {
		size_t n = s->roff[r + 1] - s->roff[r];
		size_t h = (size_t)row_hash(s->rtype[r], s->rcells + s->roff[r], n);
		while (s->htab[h & s->hmask])
			h++;
		s->htab[h & s->hmask] = (uint32_t)r + 1;
	}
	return SOLVE_OK;
}

/* The row of type 'type' with cells 'c' (ascending), or SIZE_MAX. */
static size_t find_row(const struct solver *s, size_t type, const uint32_t *c,
                       size_t n)
{
	size_t h = (size_t)row_hash(type, c, n);
	for (;; h++) {
		uint32_t e = s->htab[h & s->hmask];
		if (!e)
			return SIZE_MAX;
		size_t r = e - 1;
		if (s->rtype[r] == type && s->roff[r + 1] - s->roff[r] == n &&
		    memcmp(s->rcells + s->roff[r], c, n * sizeof *c) == 0)
			return r;
	}
}

/* The row that G's k-th element makes of row r; SIZE_MAX when out of
 * memory (the image of a placement is always a placement). */
static size_t row_image(struct solver *s, int k, size_t r)
{
	size_t n = s->roff[r + 1] - s->roff[r];
	if (n > s->tmpcap) {
		uint32_t *t = realloc(s->tmp, n * sizeof *t);
		if (!t) {
			s->oom = true;
			return SIZE_MAX;
		}
		s->tmp = t;
		s->tmpcap = n;
	}
	const int32_t *map = s->cellmap + (size_t)k * s->V;
	const uint32_t *c = s->rcells + s->roff[r];
	for (size_t i = 0; i < n; i++)
		s->tmp[i] = (uint32_t)map[c[i]];
	qsort(s->tmp, n, sizeof *s->tmp, cmp_u32);
	size_t t = s->rtype[r];
	if (!poly_sym_proper(s->sym[k]))
		t = s->types[t].mirror;
	size_t img = find_row(s, t, s->tmp, n);
	assert(img != SIZE_MAX);
	return img;
}

/* ---- pinning ------------------------------------------------------------ */

/* Pick the single-copy type whose placements fall into the fewest orbits
 * (estimated as rows / |H| times its own symmetry), and find the orbits. */
static int choose_pin(struct solver *s)
{
	s->pin = s->ntypes;
	double best = 0;
	for (size_t t = 0; t < s->ntypes; t++) {
		const struct type *ty = &s->types[t];
		if (ty->count != 1 || ty->nrows == 0 || s->o->no_pin)
			continue;
		int nh = 0;
		for (int k = 0; k < s->ng; k++)
			if (poly_sym_proper(s->sym[k]) || ty->mirror == t)
				nh++;
		struct shape *or;
		size_t nor;
		if (poly_orientations(&ty->shape, &or, &nor) != POLY_OK)
			return SOLVE_ENOMEM;
		poly_shapes_free(or, nor);
		double score = (double)ty->nrows / nh * (24.0 / (double)nor);
		/* ties: the type with fewer placements (Bedlam: 19% fewer nodes) */
		if (s->pin == s->ntypes || score < best ||
		    (score == best && ty->nrows < s->types[s->pin].nrows)) {
			best = score;
			s->pin = t;
		}
	}
	s->in_h = calloc((size_t)s->ng, sizeof *s->in_h);
	if (!s->in_h)
		return SOLVE_ENOMEM;
	if (s->pin == s->ntypes) {
		s->in_h[0] = true;
		s->nh = 1;
		return SOLVE_OK;
	}
	const struct type *ty = &s->types[s->pin];
	for (int k = 0; k < s->ng; k++)
		if (poly_sym_proper(s->sym[k]) || ty->mirror == s->pin) {
			s->in_h[k] = true;
			s->nh++;
		}
	s->orbit = calloc(ty->nrows, sizeof *s->orbit);
	s->fixes = calloc(ty->nrows, sizeof *s->fixes);
	bool *seen = calloc(ty->nrows, sizeof *seen);
	size_t *img = malloc((size_t)s->ng * sizeof *img);
	int rc = (s->orbit && s->fixes && seen && img) ? SOLVE_OK : SOLVE_ENOMEM;
	for (size_t i = 0; i < ty->nrows && rc == SOLVE_OK; i++) {
		if (seen[i])
			continue;
		size_t r = ty->row0 + i;
		uint32_t distinct = 0;
		for (int k = 0; k < s->ng; k++) {
			if (!s->in_h[k])
				continue;
			img[k] = row_image(s, k, r);
			if (img[k] == SIZE_MAX) {
				rc = SOLVE_ENOMEM;
				break;
			}
			if (img[k] == r)
				s->fixes[i] |= (uint64_t)1 << k;
			if (!seen[img[k] - ty->row0]) {
				seen[img[k] - ty->row0] = true;
				distinct++;
			}
		}
		s->orbit[i] = distinct;
	}
	free(seen);
	free(img);
	return rc;
}

/* ---- search ------------------------------------------------------------- */

static bool fixes_cover(struct solver *s, int k, const size_t *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t img = row_image(s, k, rows[i]);
		if (img == SIZE_MAX || s->stamp[img] != s->cur)
			return false;
	}
	return true;
}

static bool visit(void *ctx, const size_t *xrows, size_t n)
{
	struct solver *s = ctx;
	size_t *rows = s->vrows;
	uint64_t orbit = 1, cand = 0;
	if (++s->cur == 0) {
		memset(s->stamp, 0, s->nrows * sizeof *s->stamp);
		s->cur = 1;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i] = s->xrow[xrows[i]];
		s->stamp[rows[i]] = s->cur;
		if (s->rtype[rows[i]] == s->pin) {
			size_t j = rows[i] - s->types[s->pin].row0;
			orbit = s->orbit[j];
			cand = s->fixes[j];
		}
	}
	if (s->pin == s->ntypes)
		cand = ~(uint64_t)0;
	for (int k = 0; k < s->ng; k++)
		if (!s->in_h[k])
			cand |= (uint64_t)1 << k;
	uint64_t stab = 1;
	for (int k = 1; k < s->ng; k++)
		if (cand >> k & 1)
			stab += fixes_cover(s, k, rows, n);
	if (s->oom)
		return false;
	s->assemblies += orbit;
	s->W += orbit * stab;
	if (s->o->keep_first && !s->res->first) {
		const struct grid *g = &s->p->goal;
		size_t total = (size_t)g->nx * g->ny * g->nz;
		s->res->first = calloc(total, 1);
		if (!s->res->first) {
			s->oom = true;
			return false;
		}
		for (size_t i = 0; i < n; i++) {
			size_t t = s->rtype[rows[i]];
			for (size_t c = s->roff[rows[i]]; c < s->roff[rows[i] + 1]; c++)
				s->res->first[s->gcell[s->rcells[c]]] =
					(unsigned char)(s->types[t].piece + 1 > 255
					                ? 255 : s->types[t].piece + 1);
		}
	}
	if (s->o->max_solutions && s->W / (uint64_t)s->ng >= s->o->max_solutions) {
		s->res->stop = SOLVE_MAX_SOLUTIONS;
		return false;
	}
	return true;
}

/* The fill order for the bitboard: along the goal's longest axis last,
 * so the front of filled cells stays small (a cross-section). */
static void fill_order(const struct solver *s, unsigned *rank)
{
	int ext[3], ax[3] = {0, 1, 2};
	for (int k = 0; k < 3; k++)
		ext[k] = s->gmax[k] - s->gmin[k];
	/* ax[2]: longest axis (slowest), ax[0]: shortest (fastest) */
	for (int i = 0; i < 3; i++)
		for (int j = i + 1; j < 3; j++)
			if (ext[ax[j]] < ext[ax[i]]) {
				int t = ax[i];
				ax[i] = ax[j];
				ax[j] = t;
			}
	size_t idx[64];
	long key[64];
	for (size_t i = 0; i < s->V; i++) {
		int c[3];
		goal_coords(s, i, c);
		key[i] = ((long)c[ax[2]] * 256 + c[ax[1]]) * 256 + c[ax[0]];
		idx[i] = i;
	}
	for (size_t i = 1; i < s->V; i++)
		for (size_t j = i; j > 0 && key[idx[j - 1]] > key[idx[j]]; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (size_t r = 0; r < s->V; r++)
		rank[idx[r]] = (unsigned)r;
}

/* Whether row r goes to the search: every row but the pinned type's
 * placements that do not represent their orbit. */
static bool searched(const struct solver *s, size_t r)
{
	size_t t = s->rtype[r];
	return t != s->pin || s->orbit[r - s->types[t].row0] != 0;
}

static int search_bits(struct solver *s)
{
	unsigned rank[64];
	fill_order(s, rank);
	unsigned *counts = malloc((s->ntypes ? s->ntypes : 1) * sizeof *counts);
	bb *b = NULL;
	if (counts) {
		for (size_t t = 0; t < s->ntypes; t++)
			counts[t] = s->types[t].count;
		b = bb_new(s->V, rank, s->ntypes, counts);
	}
	free(counts);
	if (!b)
		return SOLVE_ENOMEM;
	int rc = SOLVE_OK;
	for (size_t r = 0; r < s->nrows && rc == SOLVE_OK; r++) {
		if (!searched(s, r))
			continue;
		size_t t = s->rtype[r];
		uint64_t m = 0;
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			m |= (uint64_t)1 << s->rcells[c];
		if (bb_add_row(b, m, t) != XC_OK)
			rc = SOLVE_ENOMEM;
		s->xrow[s->nxrows++] = r;
	}
	if (rc == SOLVE_OK) {
		if (s->pin < s->ntypes)
			bb_set_first(b, s->pin);
		s->res->rows = s->nxrows;
		uint64_t nodes = 0;
		enum xc_stop st = bb_solve(b, s->o->max_nodes, visit, s, &nodes);
		s->res->nodes = nodes;
		if (st == XC_NODES)
			s->res->stop = SOLVE_MAX_NODES;
	}
	bb_free(b);
	return rc;
}

static int search_dlx(struct solver *s)
{
	/* Items: goal cells, then single-copy types (primary), then the
	 * types with several copies (bounded). */
	size_t nsingle = 0, nmulti = 0;
	size_t *item = malloc(s->ntypes * sizeof *item);
	unsigned *bounds = malloc((s->ntypes ? s->ntypes : 1) * sizeof *bounds);
	if (!item || !bounds) {
		free(item);
		free(bounds);
		return SOLVE_ENOMEM;
	}
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].count == 1)
			item[t] = s->V + nsingle++;
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].count > 1) {
			bounds[nmulti] = s->types[t].count;
			item[t] = s->V + nsingle + nmulti++;
		}
	xc *x = xc_new(s->V + nsingle, nmulti, bounds);
	free(bounds);
	size_t maxn = 1;
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].shape.n + 1 > maxn)
			maxn = s->types[t].shape.n + 1;
	size_t *buf = malloc(maxn * sizeof *buf);
	int rc = (x && buf) ? SOLVE_OK : SOLVE_ENOMEM;
	for (size_t r = 0; r < s->nrows && rc == SOLVE_OK; r++) {
		if (!searched(s, r))
			continue;
		size_t t = s->rtype[r];
		size_t n = 0;
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			buf[n++] = s->rcells[c];
		buf[n++] = item[t];
		rc = xc_add_row(x, buf, n);
		if (rc == XC_ENOMEM)
			rc = SOLVE_ENOMEM;
		else if (rc != XC_OK)
			rc = SOLVE_ETOOBIG;
		s->xrow[s->nxrows++] = r;
	}
	free(buf);
	free(item);
	if (rc == SOLVE_OK) {
		s->res->rows = s->nxrows;
		uint64_t nodes = 0;
		enum xc_stop st = xc_solve(x, s->o->max_nodes, visit, s, &nodes);
		s->res->nodes = nodes;
		if (st == XC_NODES)
			s->res->stop = SOLVE_MAX_NODES;
	}
	xc_free(x);
	return rc;
}

static int run_search(struct solver *s)
{
	s->xrow = malloc((s->nrows ? s->nrows : 1) * sizeof *s->xrow);
	s->stamp = calloc(s->nrows ? s->nrows : 1, sizeof *s->stamp);
	s->vrows = malloc((s->V + 1) * sizeof *s->vrows);
	if (!s->xrow || !s->stamp || !s->vrows)
		return SOLVE_ENOMEM;
	int rc = s->V <= 64 && s->o->engine != SOLVE_DLX ? search_bits(s)
	                                                  : search_dlx(s);
	if (rc == SOLVE_OK && s->oom)
		rc = SOLVE_ENOMEM;
	return rc;
}

/* ---- driver -------------------------------------------------------------- */

static void solver_free(struct solver *s)
{
	free(s->gcell);
	free(s->gidx);
	for (size_t t = 0; s->types && t < s->p->npieces; t++) {
		poly_shape_clear(&s->types[t].shape);
		poly_shape_clear(&s->types[t].canon);
	}
	free(s->types);
	free(s->cellmap);
	free(s->rtype);
	free(s->roff);
	free(s->rcells);
	free(s->htab);
	free(s->in_h);
	free(s->orbit);
	free(s->fixes);
	free(s->xrow);
	free(s->stamp);
	free(s->vrows);
	free(s->tmp);
}

/* Reasons to answer 0 without searching; false when there are none. */
static bool hopeless(struct solver *s)
{
	unsigned long long vol = 0;
	for (size_t t = 0; t < s->ntypes; t++)
		vol += (unsigned long long)s->types[t].shape.n * s->types[t].count;
	if (vol != s->V) {
		snprintf(s->res->why, sizeof s->res->why,
		         "the pieces have %llu cells, the goal %llu", vol,
		         (unsigned long long)s->V);
		return true;
	}
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].nrows == 0) {
			snprintf(s->res->why, sizeof s->res->why,
			         "piece '%s' fits nowhere in the goal",
			         s->p->pieces[s->types[t].piece].name);
			return true;
		}
	return false;
}

int solve_puzzle(const struct puzzle *p, const struct solve_opts *o,
                 struct solve_result *out)
{
	struct solve_result res = {.stop = SOLVE_DONE};
	struct solver s = {.p = p, .o = o, .res = &res};
	if (!o->generic) {
		int rc = shell_solve(p, o, &res);
		if (rc == SOLVE_OK) {
			*out = res;
			return SOLVE_OK;
		}
		if (rc != SHELL_NOT_SHELL)
			return rc;
	}
	int rc = load_goal(&s);
	if (rc == SOLVE_OK)
		rc = load_types(&s);
	if (rc == SOLVE_OK)
		rc = find_group(&s);
	for (size_t t = 0; t < s.ntypes && rc == SOLVE_OK; t++)
		rc = make_rows(&s, t);
	if (rc == SOLVE_OK && !hopeless(&s)) {
		rc = build_hash(&s);
		if (rc == SOLVE_OK)
			rc = choose_pin(&s);
		if (rc == SOLVE_OK)
			rc = run_search(&s);
	}
	if (rc == SOLVE_OK) {
		res.complete = res.stop == SOLVE_DONE;
		assert(!res.complete || s.W % (uint64_t)s.ng == 0);
		res.solutions = s.W / (uint64_t)s.ng;
		res.assemblies = s.assemblies;
		*out = res;
	} else {
		free(res.first);
	}
	solver_free(&s);
	return rc;
}

void solve_result_clear(struct solve_result *r)
{
	free(r->first);
	r->first = NULL;
}

const char *solve_strerror(int status)
{
	switch (status) {
	case SOLVE_OK: return "success";
	case SOLVE_ENOMEM: return "out of memory";
	case SOLVE_ETOOBIG:
		return "too big to search: the pieces have more than 4 million "
		       "placements or 40 million placed cells in the goal";
	default: return "unknown error";
	}
}
