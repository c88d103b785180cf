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

	/* The goal: its cells numbered 0..ncells-1 in grid order. */
	size_t ncells;
	size_t *goal_cell;    /* goal cell -> grid index */
	int32_t *goal_index;  /* grid index -> goal cell, -1 outside the goal */
	int gmin[3];          /* goal bounding box, grid coordinates */
	int gmax[3];

	struct type *types;   /* distinct pieces up to rotation */
	size_t ntypes;
	size_t *piece_type;   /* puzzle piece -> its type */

	/* The symmetry group G: group[k] indexes poly's 48 symmetries. */
	int group[POLY_NSYM];
	int group_order;      /* |G| */
	int32_t *cellmap;     /* group_order * ncells: cell -> its image under
	                       * group[k], at [k * ncells + cell] */

	/* The row table: every placement of every type. */
	size_t nrows;
	size_t *rtype;        /* type of each row */
	size_t *roff;         /* nrows + 1 offsets into rcells */
	uint32_t *rcells;     /* goal cells, ascending within a row */
	size_t rcap, ccap;    /* capacities of rtype/roff and rcells */
	uint32_t *htab;       /* open addressing: row + 1, 0 empty */
	size_t hmask;

	/* Symmetry breaking (see the top of this file). */
	size_t pin;           /* pinned type P, ntypes if none */
	bool *keeps_pin;      /* per k: group[k] maps type P to itself (is in H) */
	int nkeep;            /* |H| */
	uint32_t *orbit;      /* per row of P: |H r| for representatives, else 0 */
	uint64_t *fixes;      /* per row of P: bit k set when group[k] fixes it */
	size_t *table_row;    /* searched row number -> table row */
	size_t nsearched;     /* rows given to the engine */
	size_t *cover_rows;   /* a cover's table rows, one per piece */

	/* Search state. */
	uint32_t *stamp;      /* per table row: == stamp_now when in the cover */
	uint32_t stamp_now;
	uint32_t *image;      /* a row's image cells (row_image) */
	size_t image_cap;
	unsigned char *labels; /* goal-grid labels of a cover (visitor) */
	unsigned *copies_used; /* per type: copies labelled so far (visitor) */
	uint64_t weighted;    /* sum of |H r| * |Stab_G(y)|: |G| * solutions */
	uint64_t assemblies;
	bool oom;             /* an allocation failed inside the visitor */
};

/* ---- goal and types ---------------------------------------------------- */

static int load_goal(struct solver *s)
{
	const struct grid *g = &s->p->goal;
	size_t total = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	s->ncells = puz_grid_volume(g);
	s->goal_cell = malloc((s->ncells ? s->ncells : 1) * sizeof *s->goal_cell);
	s->goal_index = malloc(total * sizeof *s->goal_index);
	if (!s->goal_cell || !s->goal_index)
		return SOLVE_ENOMEM;
	s->gmin[0] = g->nx; s->gmin[1] = g->ny; s->gmin[2] = g->nz;
	s->gmax[0] = s->gmax[1] = s->gmax[2] = -1;
	size_t k = 0;
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++) {
				size_t i = puz_grid_index(g, x, y, z);
				if (!g->cells[i]) {
					s->goal_index[i] = -1;
					continue;
				}
				int c[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					if (c[a] < s->gmin[a]) s->gmin[a] = c[a];
					if (c[a] > s->gmax[a]) s->gmax[a] = c[a];
				}
				s->goal_index[i] = (int32_t)k;
				s->goal_cell[k++] = i;
			}
	return SOLVE_OK;
}

static void goal_coords(const struct solver *s, size_t gi, int c[3])
{
	const struct grid *g = &s->p->goal;
	size_t i = s->goal_cell[gi];
	c[0] = (int)(i % (size_t)g->nx);
	c[1] = (int)(i / (size_t)g->nx % (size_t)g->ny);
	c[2] = (int)(i / ((size_t)g->nx * (size_t)g->ny));
}

static int load_types(struct solver *s)
{
	const struct puzzle *p = s->p;
	s->types = calloc(p->npieces ? p->npieces : 1, sizeof *s->types);
	s->piece_type = malloc((p->npieces ? p->npieces : 1) * sizeof *s->piece_type);
	if (!s->types || !s->piece_type)
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
		s->piece_type[i] = t;
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

/* G: the symmetries (proper ones, and improper ones when the pieces are
 * mirror-closed) that map the goal onto itself, with their cell maps. All
 * or nothing: a group missing elements would give wrong counts, so any
 * failure returns an error and leaves no partial group. */
static int find_group(struct solver *s)
{
	const struct grid *g = &s->p->goal;
	size_t nc = s->ncells ? s->ncells : 1;
	s->cellmap = malloc((size_t)POLY_NSYM * nc * sizeof *s->cellmap);
	if (!s->cellmap)
		return SOLVE_ENOMEM;
	s->group_order = 0;
	for (int sym = 0; sym < POLY_NSYM; sym++) {
		if (!poly_sym_proper(sym) && !s->res->mirror_closed)
			continue;
		int32_t *map = s->cellmap + (size_t)s->group_order * nc;
		bool ok = true;
		for (size_t i = 0; i < s->ncells && ok; i++) {
			int c[3], d[3];
			goal_coords(s, i, c);
			sym_goal(s, sym, c, d);
			if (d[0] < 0 || d[1] < 0 || d[2] < 0 || d[0] >= g->nx ||
			    d[1] >= g->ny || d[2] >= g->nz) {
				ok = false;
				break;
			}
			int32_t j = s->goal_index[puz_grid_index(g, d[0], d[1], d[2])];
			ok = j >= 0;
			map[i] = j;
		}
		if (ok)
			s->group[s->group_order++] = sym;
	}
	/* The identity always maps the goal onto itself. */
	assert(s->group_order >= 1 && s->group[0] == 0);
	/* Give back the maps of the symmetries that were not kept; should
	 * that fail, the larger block serves as well. */
	int32_t *shrunk = realloc(s->cellmap,
	                          (size_t)s->group_order * nc * sizeof *shrunk);
	if (shrunk)
		s->cellmap = shrunk;
	s->res->group_order = s->group_order;
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
		/* Every loop stops at the first error: a row table missing rows
		 * would be searched as if complete and give wrong counts. */
		for (int dz = s->gmin[2]; dz + ext[2] <= s->gmax[2] && rc == SOLVE_OK; dz++)
		for (int dy = s->gmin[1]; dy + ext[1] <= s->gmax[1] && rc == SOLVE_OK; dy++)
		for (int dx = s->gmin[0]; dx + ext[0] <= s->gmax[0] && rc == SOLVE_OK; dx++) {
			size_t i = 0;
			for (; i < sh->n; i++) {
				int32_t j = s->goal_index[puz_grid_index(g, poly_x(sh->cells[i]) + dx,
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
	if (n > s->image_cap) {
		uint32_t *t = realloc(s->image, n * sizeof *t);
		if (!t) {
			s->oom = true;
			return SIZE_MAX;
		}
		s->image = t;
		s->image_cap = n;
	}
	const int32_t *map = s->cellmap + (size_t)k * s->ncells;
	const uint32_t *c = s->rcells + s->roff[r];
	for (size_t i = 0; i < n; i++)
		s->image[i] = (uint32_t)map[c[i]];
	qsort(s->image, n, sizeof *s->image, cmp_u32);
	size_t t = s->rtype[r];
	if (!poly_sym_proper(s->group[k]))
		t = s->types[t].mirror;
	size_t img = find_row(s, t, s->image, n);
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
		for (int k = 0; k < s->group_order; k++)
			if (poly_sym_proper(s->group[k]) || ty->mirror == t)
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
	s->keeps_pin = calloc((size_t)s->group_order, sizeof *s->keeps_pin);
	if (!s->keeps_pin)
		return SOLVE_ENOMEM;
	if (s->pin == s->ntypes) {
		s->keeps_pin[0] = true;
		s->nkeep = 1;
		return SOLVE_OK;
	}
	const struct type *ty = &s->types[s->pin];
	for (int k = 0; k < s->group_order; k++)
		if (poly_sym_proper(s->group[k]) || ty->mirror == s->pin) {
			s->keeps_pin[k] = true;
			s->nkeep++;
		}
	s->orbit = calloc(ty->nrows, sizeof *s->orbit);
	s->fixes = calloc(ty->nrows, sizeof *s->fixes);
	bool *seen = calloc(ty->nrows, sizeof *seen);
	size_t *img = malloc((size_t)s->group_order * sizeof *img);
	int rc = (s->orbit && s->fixes && seen && img) ? SOLVE_OK : SOLVE_ENOMEM;
	for (size_t i = 0; i < ty->nrows && rc == SOLVE_OK; i++) {
		if (seen[i])
			continue;
		size_t r = ty->row0 + i;
		uint32_t distinct = 0;
		for (int k = 0; k < s->group_order; k++) {
			if (!s->keeps_pin[k])
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
		if (img == SIZE_MAX || s->stamp[img] != s->stamp_now)
			return false;
	}
	return true;
}

/* The puzzle piece that copy k of type t stands for: the type's pieces in
 * file order, each 'count' times (identical pieces are interchangeable, so
 * any assignment is right; this one names every piece of the file). */
static size_t copy_piece(const struct solver *s, size_t t, unsigned k)
{
	for (size_t i = s->types[t].piece; i < s->p->npieces; i++) {
		if (s->piece_type[i] != t)
			continue;
		if (k < s->p->pieces[i].count)
			return i;
		k -= s->p->pieces[i].count;
	}
	assert(!"more copies placed than the type has");
	return s->types[t].piece;
}

static bool visit(void *ctx, const size_t *xrows, size_t n)
{
	struct solver *s = ctx;
	size_t *rows = s->cover_rows;
	uint64_t orbit = 1, cand = 0;
	if (++s->stamp_now == 0) {
		memset(s->stamp, 0, s->nrows * sizeof *s->stamp);
		s->stamp_now = 1;
	}
	for (size_t i = 0; i < n; i++) {
		rows[i] = s->table_row[xrows[i]];
		s->stamp[rows[i]] = s->stamp_now;
		if (s->rtype[rows[i]] == s->pin) {
			size_t j = rows[i] - s->types[s->pin].row0;
			orbit = s->orbit[j];
			cand = s->fixes[j];
		}
	}
	if (s->pin == s->ntypes)
		cand = ~(uint64_t)0;
	for (int k = 0; k < s->group_order; k++)
		if (!s->keeps_pin[k])
			cand |= (uint64_t)1 << k;
	uint64_t stab = 1;
	for (int k = 1; k < s->group_order; k++)
		if (cand >> k & 1)
			stab += fixes_cover(s, k, rows, n);
	if (s->oom)
		return false;
	s->assemblies += orbit;
	s->weighted += orbit * stab;
	if ((s->o->keep_first && !s->res->first) || s->o->on_cover) {
		const struct grid *g = &s->p->goal;
		size_t total = (size_t)g->nx * g->ny * g->nz;
		memset(s->labels, 0, total);
		memset(s->copies_used, 0, s->ntypes * sizeof *s->copies_used);
		for (size_t i = 0; i < n; i++) {
			size_t t = s->rtype[rows[i]];
			size_t piece = copy_piece(s, t, s->copies_used[t]++);
			unsigned char lab = (unsigned char)(piece + 1 > 255 ? 255 : piece + 1);
			for (size_t c = s->roff[rows[i]]; c < s->roff[rows[i] + 1]; c++)
				s->labels[s->goal_cell[s->rcells[c]]] = lab;
		}
		if (s->o->keep_first && !s->res->first) {
			s->res->first = malloc(total);
			if (!s->res->first) {
				s->oom = true;
				return false;
			}
			memcpy(s->res->first, s->labels, total);
		}
		if (s->o->on_cover)
			s->o->on_cover(s->o->ctx, s->labels, NULL);
	}
	if (s->o->max_solutions && s->weighted / (uint64_t)s->group_order >= s->o->max_solutions) {
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
	for (size_t i = 0; i < s->ncells; i++) {
		int c[3];
		goal_coords(s, i, c);
		key[i] = ((long)c[ax[2]] * 256 + c[ax[1]]) * 256 + c[ax[0]];
		idx[i] = i;
	}
	for (size_t i = 1; i < s->ncells; i++)
		for (size_t j = i; j > 0 && key[idx[j - 1]] > key[idx[j]]; j--) {
			size_t t = idx[j];
			idx[j] = idx[j - 1];
			idx[j - 1] = t;
		}
	for (size_t r = 0; r < s->ncells; r++)
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
		b = bb_new(s->ncells, rank, s->ntypes, counts);
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
		s->table_row[s->nsearched++] = r;
	}
	if (rc == SOLVE_OK) {
		if (s->pin < s->ntypes)
			bb_set_first(b, s->pin);
		s->res->rows = s->nsearched;
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
			item[t] = s->ncells + nsingle++;
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].count > 1) {
			bounds[nmulti] = s->types[t].count;
			item[t] = s->ncells + nsingle + nmulti++;
		}
	xc *x = xc_new(s->ncells + nsingle, nmulti, bounds);
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
		s->table_row[s->nsearched++] = r;
	}
	free(buf);
	free(item);
	if (rc == SOLVE_OK) {
		s->res->rows = s->nsearched;
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
	s->table_row = malloc((s->nrows ? s->nrows : 1) * sizeof *s->table_row);
	s->stamp = calloc(s->nrows ? s->nrows : 1, sizeof *s->stamp);
	s->cover_rows = malloc((s->ncells + 1) * sizeof *s->cover_rows);
	const struct grid *g = &s->p->goal;
	s->labels = malloc((size_t)g->nx * g->ny * g->nz);
	s->copies_used = malloc((s->ntypes ? s->ntypes : 1) * sizeof *s->copies_used);
	if (!s->table_row || !s->stamp || !s->cover_rows || !s->labels ||
	    !s->copies_used)
		return SOLVE_ENOMEM;
	int rc = s->ncells <= 64 && s->o->engine != SOLVE_DLX ? search_bits(s)
	                                                  : search_dlx(s);
	if (rc == SOLVE_OK && s->oom)
		rc = SOLVE_ENOMEM;
	return rc;
}

/* ---- driver -------------------------------------------------------------- */

static void solver_free(struct solver *s)
{
	free(s->goal_cell);
	free(s->goal_index);
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
	free(s->keeps_pin);
	free(s->orbit);
	free(s->fixes);
	free(s->table_row);
	free(s->stamp);
	free(s->cover_rows);
	free(s->image);
	free(s->labels);
	free(s->copies_used);
	free(s->piece_type);
}

/* Reasons to answer 0 without searching; false when there are none. */
static bool hopeless(struct solver *s)
{
	unsigned long long vol = 0;
	for (size_t t = 0; t < s->ntypes; t++)
		vol += (unsigned long long)s->types[t].shape.n * s->types[t].count;
	if (vol != s->ncells) {
		snprintf(s->res->why, sizeof s->res->why,
		         "the pieces have %llu cells, the goal %llu", vol,
		         (unsigned long long)s->ncells);
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
		assert(!res.complete || s.weighted % (uint64_t)s.group_order == 0);
		res.solutions = s.weighted / (uint64_t)s.group_order;
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
	case SOLVE_EOVERFLOW:
		return "a count is larger than 18446744073709551615 (2^64 - 1)";
	default: return "unknown error";
	}
}
