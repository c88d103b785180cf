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
 * Mirror images with ranges (find_group): G stays the proper rotations
 * and M, the improper symmetries of the goal (a coset of G, |M| = |G|),
 * is kept aside. The assemblies whose mirror image is an assembly (same
 * type counts for all of them under G and M) form a set closed under
 * G u M, whose orbits under it count; the others meet only G. So a cover
 * y adds |H r| * (|Stab_G(y)| + |{m in M : m y = y}|) in the first case
 * and |H r| * 2 |Stab_G(y)| in the second, and the sum is divided by
 * 2|G|: by the argument above with G u M (of order 2|G|) or with G
 * (each orbit's |G| doubled), every orbit adds 2|G|.
 *
 * Stab_G(y): g fixes y only if g maps P's region to P's region or g is not
 * in H, so only the h in H fixing r and the elements outside H are tried.
 * Where Stab_H(r) is more than {e}, a second piece is pinned below r the
 * same way, and |H r| gains a factor (choose_second()); below a pinned
 * cell's representative, a second cell (choose_cell_second()).
 *
 * solve.c and recolour.c call each other (solve_int.h): this file calls
 * recolour_setup(), recolour_stab() and recolour_free(), and recolour.c
 * calls back solve_cell_map(), solve_keeps_regions(), solve_match_kept()
 * and solve_types_kept(). The loop is the simplest shape: those are the
 * tests this file builds G and the twin colours with, and Γ needs them too.
 */
#include "solver/solve.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/bb.h"
#include "solver/bbw.h"
#include "solver/poly.h"
#include "solver/shell.h"
#include "solver/xc.h"

#include "solver/solve_int.h"

/* ---- goal and types ---------------------------------------------------- */

static void goal_coords(const struct solver *s, size_t gi, int c[3]);

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
				s->nopt += puz_cell_optional(g->cells[i]);
				int col = puz_cell_colour(g->cells[i]);
				if (col)
					s->goal_colours |= (uint32_t)1 << col;
			}
	return SOLVE_OK;
}

/* The distinct regions as goal-cell sets: the file's, then the six faces
 * of the goal's bounding box when asked (a flat goal's two faces across
 * its thin side are the same cells, kept twice: harmless). */
static int load_regions(struct solver *s)
{
	const struct puzzle *p = s->p;
	size_t n = p->distinct_faces ? 6 : 0;
	for (size_t r = 0; r < p->nregions; r++)
		n += p->regions[r].distinct;
	if (n == 0 || s->ncells == 0)
		return SOLVE_OK;
	s->dreg = calloc(n * s->ncells, 1);
	if (!s->dreg)
		return SOLVE_ENOMEM;
	for (size_t r = 0; r < p->nregions; r++) {
		if (!p->regions[r].distinct)
			continue;
		unsigned char *m = s->dreg + s->ndreg++ * s->ncells;
		for (size_t c = 0; c < s->ncells; c++)
			m[c] = p->regions[r].cells[s->goal_cell[c]] != 0;
	}
	for (int f = 0; p->distinct_faces && f < 6; f++) {
		unsigned char *m = s->dreg + s->ndreg++ * s->ncells;
		int a = f / 2, at = f % 2 ? s->gmax[a] : s->gmin[a];
		for (size_t c = 0; c < s->ncells; c++) {
			int v[3];
			goal_coords(s, c, v);
			m[c] = v[a] == at;
		}
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
		unsigned hi = puz_piece_max(&p->pieces[i]);
		if (t < s->ntypes) {
			/* at most PUZ_MAX_PIECES copies in all: no overflow */
			s->types[t].count += hi;
			s->types[t].lo += p->pieces[i].count;
			poly_shape_clear(&sh);
			poly_shape_clear(&canon);
			continue;
		}
		uint32_t cmask = 0;
		for (size_t c = 0; c < sh.n; c++)
			cmask |= (uint32_t)1 << poly_tag(sh.cells[c]);
		s->types[t] = (struct type){.shape = sh, .canon = canon,
		                            .count = hi, .lo = p->pieces[i].count,
		                            .cmask = cmask & ~(uint32_t)1,
		                            .piece = i};
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
		if (u == s->ntypes || s->types[u].count != s->types[t].count ||
		    s->types[u].lo != s->types[t].lo)
			closed = false;
	}
	s->res->mirror_closed = closed;
	for (size_t t = 0; t < s->ntypes; t++)
		s->coloured |= s->types[t].cmask != 0;
	return SOLVE_OK;
}

/* The type that type t becomes when its colours are renamed by 'perm'
 * (perm[c] for colour c; perm[0] = 0) and, if 'mirror', it is mirrored:
 * into '*u', s->ntypes when there is none. */
int solve_renamed_type(const struct solver *s, size_t t,
                       const unsigned char *perm, bool mirror, size_t *u)
{
	const struct shape *in = &s->types[t].shape;
	struct shape r = {in->n, malloc((in->n ? in->n : 1) * sizeof *r.cells)};
	if (!r.cells)
		return SOLVE_ENOMEM;
	for (size_t i = 0; i < in->n; i++)
		r.cells[i] = (in->cells[i] & ~(uint32_t)0xff) |
		             perm[poly_tag(in->cells[i])];
	struct shape m = {0, NULL}, canon;
	int rc = mirror ? poly_transform(&r, 1, &m) : POLY_OK;
	if (rc == POLY_OK)
		rc = poly_canonical(mirror ? &m : &r, &canon);
	poly_shape_clear(&r);
	poly_shape_clear(&m);
	if (rc != POLY_OK)
		return SOLVE_ENOMEM;
	*u = s->ntypes;
	for (size_t k = 0; k < s->ntypes && *u == s->ntypes; k++)
		if (poly_equal(&s->types[k].canon, &canon))
			*u = k;
	poly_shape_clear(&canon);
	return SOLVE_OK;
}

/* Whether renaming colours by 'perm' (and mirroring) maps the multiset of
 * types, with their ranges of copies, onto itself. */
int solve_types_kept(const struct solver *s, const unsigned char *perm,
                     bool mirror, bool *kept)
{
	*kept = true;
	for (size_t t = 0; t < s->ntypes && *kept; t++) {
		size_t u;
		int rc = solve_renamed_type(s, t, perm, mirror, &u);
		if (rc != SOLVE_OK)
			return rc;
		*kept = u < s->ntypes && s->types[u].count == s->types[t].count &&
		        s->types[u].lo == s->types[t].lo;
	}
	return SOLVE_OK;
}

bool solve_match_kept(const struct solver *s, const unsigned char *perm)
{
	if (!s->p->has_match)
		return true;
	for (int p = 1; p <= PUZ_NCOLOURS; p++) {
		if (!(s->all_colours >> p & 1))
			continue;
		for (int q = 1; q <= PUZ_NCOLOURS; q++)
			if ((s->all_colours >> q & 1) &&
			    (s->p->match[p] >> q & 1) !=
			    (s->p->match[perm[p]] >> perm[q] & 1))
				return false;
	}
	return true;
}

/* Interchangeable colours: a and b are twins when swapping them in every
 * piece maps the puzzle onto itself with the goal held still: neither is
 * a goal colour, the swap keeps the match table (solve_match_kept), and
 * the multiset of types is kept. Twins form classes (a swap conjugated by a swap is a
 * swap); colour breaking renames within them. */
static int find_twins(struct solver *s)
{
	for (size_t t = 0; t < s->ntypes; t++)
		s->piece_colours |= s->types[t].cmask;
	s->all_colours = s->piece_colours | s->goal_colours;
	for (int c = 0; c <= PUZ_NCOLOURS; c++)
		s->twin_class[c] = (uint32_t)1 << c;
	uint32_t cand = s->piece_colours & ~s->goal_colours;
	for (int a = 1; a <= PUZ_NCOLOURS; a++)
		for (int b = a + 1; b <= PUZ_NCOLOURS; b++) {
			if (!(cand >> a & 1) || !(cand >> b & 1) ||
			    (s->twin_class[a] >> b & 1))
				continue;
			unsigned char perm[PUZ_NCOLOURS + 1];
			for (int c = 0; c <= PUZ_NCOLOURS; c++)
				perm[c] = (unsigned char)c;
			perm[a] = (unsigned char)b;
			perm[b] = (unsigned char)a;
			if (!solve_match_kept(s, perm))
				continue;
			bool kept;
			int rc = solve_types_kept(s, perm, false, &kept);
			if (rc != SOLVE_OK)
				return rc;
			if (!kept)
				continue;
			uint32_t merged = s->twin_class[a] | s->twin_class[b];
			for (int c = 1; c <= PUZ_NCOLOURS; c++)
				if (merged >> c & 1)
					s->twin_class[c] = merged;
		}
	for (int c = 1; c <= PUZ_NCOLOURS && !s->o->no_pin; c++)
		if (s->twin_class[c] & (s->twin_class[c] - 1))
			s->twin_colours |= (uint32_t)1 << c;
	return SOLVE_OK;
}

/* ---- symmetry group --------------------------------------------------- */

/* What sym_goal() subtracts after turning a cell: the least corner of the
 * goal's box turned by 'sym' (the same for every cell). */
static void sym_shift(const struct solver *s, int sym, int m[3])
{
	int a[3] = {0, 0, 0}, b[3], lo[3], hi[3];
	for (int k = 0; k < 3; k++)
		b[k] = s->gmax[k] - s->gmin[k];
	poly_sym_apply(sym, a, lo);
	poly_sym_apply(sym, b, hi);
	for (int k = 0; k < 3; k++)
		m[k] = lo[k] < hi[k] ? lo[k] : hi[k];
}

/* Image of goal cell coordinates under symmetry 'sym', re-anchored so the
 * goal's bounding box maps onto itself ('m': sym_shift()). */
static void sym_goal(const struct solver *s, int sym, const int m[3],
                     const int c[3], int out[3])
{
	int v[3], w[3];
	for (int k = 0; k < 3; k++)
		v[k] = c[k] - s->gmin[k];
	poly_sym_apply(sym, v, w);
	for (int k = 0; k < 3; k++)
		out[k] = w[k] - m[k] + s->gmin[k];
}

bool solve_cell_map(const struct solver *s, int sym, int32_t *map)
{
	const struct grid *g = &s->p->goal;
	int m[3];
	sym_shift(s, sym, m);
	for (size_t i = 0; i < s->ncells; i++) {
		int c[3], d[3];
		goal_coords(s, i, c);
		sym_goal(s, sym, m, c, d);
		if (d[0] < 0 || d[1] < 0 || d[2] < 0 || d[0] >= g->nx ||
		    d[1] >= g->ny || d[2] >= g->nz)
			return false;
		int32_t j = s->goal_index[puz_grid_index(g, d[0], d[1], d[2])];
		if (j < 0)
			return false;
		map[i] = j;
	}
	return true;
}

/* Whether cell map 'map' takes the set of distinct regions onto itself
 * ('mark': ncells bytes of scratch, left zero). */
bool solve_keeps_regions(const struct solver *s, const int32_t *map,
                         unsigned char *mark)
{
	bool ok = true;
	for (size_t r = 0; r < s->ndreg && ok; r++) {
		const unsigned char *m = s->dreg + r * s->ncells;
		size_t size = 0;
		for (size_t c = 0; c < s->ncells; c++)
			if (m[c]) {
				mark[map[c]] = 1;
				size++;
			}
		ok = false;
		for (size_t q = 0; q < s->ndreg && !ok; q++) {
			const unsigned char *mq = s->dreg + q * s->ncells;
			size_t same = 0, qsize = 0;
			for (size_t c = 0; c < s->ncells; c++) {
				qsize += mq[c] != 0;
				same += mq[c] && mark[c];
			}
			ok = qsize == size && same == size;
		}
		memset(mark, 0, s->ncells);
	}
	return ok;
}

/* G: the symmetries (proper ones, and improper ones when the pieces are
 * mirror-closed) that map the goal onto itself, with their cell maps,
 * keeping every cell's colour and optional mark and the set of distinct
 * regions. All or nothing: a group missing elements would give wrong
 * counts, so any failure returns an error and leaves no partial group.
 * With ranges of copies and pieces that are not mirror-closed the
 * improper ones go to msym instead: they count for an assembly whose
 * mirror image is an assembly too (solve_visit), as in BurrTools. Not
 * with --rename-colours, whose Γ keeps the rule of the whole set. */
static int find_group(struct solver *s)
{
	const struct grid *g = &s->p->goal;
	size_t nc = s->ncells ? s->ncells : 1;
	bool ranged = false;
	for (size_t t = 0; t < s->ntypes; t++)
		ranged |= s->types[t].lo != s->types[t].count;
	bool some = ranged && !s->res->mirror_closed && !s->o->rename_colours;
	s->cellmap = malloc((size_t)POLY_NSYM * nc * sizeof *s->cellmap);
	s->mmap = some ? malloc((size_t)POLY_NSYM / 2 * nc * sizeof *s->mmap)
	               : NULL;
	unsigned char *mark = calloc(nc, 1);
	if (!s->cellmap || !mark || (some && !s->mmap)) {
		free(mark);
		return SOLVE_ENOMEM;
	}
	s->group_order = 0;
	s->nmirror = 0;
	for (int sym = 0; sym < POLY_NSYM; sym++) {
		bool proper = poly_sym_proper(sym);
		if (!proper && !s->res->mirror_closed && !some)
			continue;
		bool aside = !proper && !s->res->mirror_closed;
		int32_t *map = aside ? s->mmap + (size_t)s->nmirror * nc
		                     : s->cellmap + (size_t)s->group_order * nc;
		bool ok = solve_cell_map(s, sym, map);
		for (size_t i = 0; i < s->ncells && ok; i++)
			ok = g->cells[s->goal_cell[map[i]]] == g->cells[s->goal_cell[i]];
		if (ok && s->ndreg)
			ok = solve_keeps_regions(s, map, mark);
		if (ok && aside)
			s->msym[s->nmirror++] = sym;
		else if (ok)
			s->group[s->group_order++] = sym;
	}
	free(mark);
	/* The identity always maps the goal onto itself; the improper
	 * symmetries, when there are any, are a coset of the proper ones. */
	assert(s->group_order >= 1 && s->group[0] == 0);
	assert(s->nmirror == 0 || s->nmirror == s->group_order);
	/* Give back the maps of the symmetries that were not kept; should
	 * that fail, the larger block serves as well. */
	int32_t *shrunk = realloc(s->cellmap,
	                          (size_t)s->group_order * nc * sizeof *shrunk);
	if (shrunk)
		s->cellmap = shrunk;
	s->res->group_order = s->group_order;
	s->res->mirror_some = s->nmirror > 0;
	return SOLVE_OK;
}

uint64_t solve_divisor(const struct solver *s)
{
	return (uint64_t)s->group_order * (s->nmirror ? 2 : 1);
}

/* ---- rows --------------------------------------------------------------- */

/* A row's key: its type, cells and (col, when not NULL) colours. */
static uint64_t row_hash(size_t type, const uint32_t *c,
                         const unsigned char *col, size_t n)
{
	uint64_t h = 1469598103934665603u ^ type;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i] | (col ? (uint64_t)col[i] << 32 : 0);
		h *= 1099511628211u;
	}
	return h ^ h >> 29;
}

static int add_row(struct solver *s, size_t type, const uint32_t *c,
                   const unsigned char *col, size_t n)
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
		if (s->coloured) {
			unsigned char *ncol = realloc(s->rcol, cap);
			if (!ncol)
				return SOLVE_ENOMEM;
			s->rcol = ncol;
		}
		s->ccap = cap;
	}
	s->roff[0] = 0;
	memcpy(s->rcells + used, c, n * sizeof *c);
	if (col)
		memcpy(s->rcol + used, col, n);
	s->rtype[s->nrows] = type;
	s->roff[s->nrows + 1] = used + n;
	s->nrows++;
	return SOLVE_OK;
}

/* Whether a placement with cells c and colours col puts two cells of one
 * colour into one distinct region. */
static bool repeats_colour(const struct solver *s, const uint32_t *c,
                           const unsigned char *col, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n && col[i]; j++) {
			if (col[j] != col[i])
				continue;
			for (size_t r = 0; r < s->ndreg; r++) {
				const unsigned char *m = s->dreg + r * s->ncells;
				if (m[c[i]] && m[c[j]])
					return true;
			}
		}
	return false;
}

/* Every translation of every orientation of type t that fits the goal:
 * inside it, each cell's colour matching the goal cell's, and no colour
 * twice in a distinct region. */
static int make_rows(struct solver *s, size_t t)
{
	struct type *ty = &s->types[t];
	struct shape *or;
	size_t nor;
	if (poly_orientations(&ty->shape, &or, &nor) != POLY_OK)
		return SOLVE_ENOMEM;
	const struct grid *g = &s->p->goal;
	uint32_t *c = malloc(ty->shape.n * sizeof *c);
	unsigned char *col = malloc(ty->shape.n);
	bool coloured = s->coloured;
	int rc = c && col ? SOLVE_OK : SOLVE_ENOMEM;
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
				col[i] = (unsigned char)poly_tag(sh->cells[i]);
				int gc = puz_cell_colour(g->cells[s->goal_cell[j]]);
				if (!puz_match(s->p, col[i], gc))
					break;
			}
			if (i < sh->n)
				continue;
			if (s->ndreg && ty->cmask && repeats_colour(s, c, col, sh->n))
				continue;
			/* cells sorted by (z, y, x) map to ascending goal indexes */
			rc = add_row(s, t, c, coloured ? col : NULL, sh->n);
		}
	}
	ty->nrows = s->nrows - ty->row0;
	free(c);
	free(col);
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
		size_t h = (size_t)row_hash(s->rtype[r], s->rcells + s->roff[r],
		                            s->rcol ? s->rcol + s->roff[r] : NULL, n);
		while (s->htab[h & s->hmask])
			h++;
		s->htab[h & s->hmask] = (uint32_t)r + 1;
	}
	return SOLVE_OK;
}

/* The row of type 'type' with cells 'c' (ascending) and colours 'col'
 * (NULL when rows carry none), or SIZE_MAX. */
static size_t find_row(const struct solver *s, size_t type, const uint32_t *c,
                       const unsigned char *col, size_t n)
{
	size_t h = (size_t)row_hash(type, c, col, n);
	for (;; h++) {
		uint32_t e = s->htab[h & s->hmask];
		if (!e)
			return SIZE_MAX;
		size_t r = e - 1;
		if (s->rtype[r] == type && s->roff[r + 1] - s->roff[r] == n &&
		    memcmp(s->rcells + s->roff[r], c, n * sizeof *c) == 0 &&
		    (!col || memcmp(s->rcol + s->roff[r], col, n) == 0))
			return r;
	}
}

/* The row that G's k-th element makes of row r; SIZE_MAX when out of
 * memory (the image of a placement is always a placement). */
/* Sort a row's cells (distinct values) ascending: a cover's stabilizer
 * sorts the image of every row under every candidate symmetry (most
 * rows are tens of cells), where qsort's calls through a pointer cost
 * more than the sort. Shell sort with Ciura's gaps. */
static void sort_cells(uint32_t *a, size_t n)
{
	static const size_t gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
	for (size_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
		size_t h = gaps[g];
		for (size_t i = h; i < n; i++) {
			uint32_t v = a[i];
			size_t j = i;
			for (; j >= h && a[j - h] > v; j -= h)
				a[j] = a[j - h];
			a[j] = v;
		}
	}
}

/* Sort a row image's n cells, all different: as bits of a set of the
 * goal's cells, when it can be had, for all but the fewest cells (a
 * piece of 32 cells: a tenth of the instructions of sort_cells()). */
static void sort_image(struct solver *s, uint32_t *a, size_t n)
{
	if (n > 8 && !s->image_bits)
		s->image_bits = calloc((s->ncells + 63) / 64, sizeof *s->image_bits);
	if (n <= 8 || !s->image_bits) {
		sort_cells(a, n);
		return;
	}
	uint64_t *bits = s->image_bits;
	uint32_t lo = UINT32_MAX, hi = 0;
	for (size_t i = 0; i < n; i++) {
		bits[a[i] >> 6] |= (uint64_t)1 << (a[i] & 63);
		lo = a[i] < lo ? a[i] : lo;
		hi = a[i] > hi ? a[i] : hi;
	}
	size_t at = 0;
	for (size_t w = lo >> 6; w <= hi >> 6; w++) {
		for (uint64_t x = bits[w]; x; x &= x - 1)
			a[at++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
		bits[w] = 0;
	}
	assert(at == n);
}

/* The row that symmetry 'sym', whose cell map is 'map', turns row r into. */
static size_t row_image_by(struct solver *s, int sym, const int32_t *map,
                           size_t r)
{
	size_t n = s->roff[r + 1] - s->roff[r];
	if (n > s->image_cap) {
		uint32_t *t = realloc(s->image, n * sizeof *t);
		if (t)
			s->image = t;
		unsigned char *tc = t ? realloc(s->image_col, n) : NULL;
		if (!tc) {
			s->oom = true;
			return SIZE_MAX;
		}
		s->image_col = tc;
		s->image_cap = n;
	}
	const uint32_t *c = s->rcells + s->roff[r];
	size_t t = s->rtype[r];
	if (!poly_sym_proper(sym))
		t = s->types[t].mirror;
	size_t img;
	if (!s->rcol) {
		for (size_t i = 0; i < n; i++)
			s->image[i] = (uint32_t)map[c[i]];
		sort_image(s, s->image, n);
		img = find_row(s, t, s->image, NULL, n);
	} else {
		/* each colour goes with its cell: sort (cell, colour) pairs */
		const unsigned char *col = s->rcol + s->roff[r];
		for (size_t i = 0; i < n; i++)
			s->image[i] = (uint32_t)map[c[i]] << 8 | col[i];
		sort_cells(s->image, n);
		for (size_t i = 0; i < n; i++) {
			s->image_col[i] = (unsigned char)(s->image[i] & 0xff);
			s->image[i] >>= 8;
		}
		img = find_row(s, t, s->image, s->image_col, n);
	}
	assert(img != SIZE_MAX);
	return img;
}

/* The row that G's element k turns row r into. */
static size_t row_image(struct solver *s, int k, size_t r)
{
	return row_image_by(s, s->group[k],
	                    s->cellmap + (size_t)k * s->ncells, r);
}

/* ---- pinning ------------------------------------------------------------ */

/* A positive number m * 2^(256 e), m in [1, 2^256) (0: m == 0): products
 * of many row counts, kept exact in their doubles' rounding (scaling by
 * powers of two is exact), so that the same puzzle picks the same pin
 * on every machine. */
struct big {
	double m;
	long e;
};

static void big_norm(struct big *b)
{
	while (b->m >= 0x1p256) {
		b->m *= 0x1p-256;
		b->e++;
	}
	while (b->m > 0 && b->m < 1) {
		b->m *= 0x1p256;
		b->e--;
	}
}

static struct big big_add(struct big a, struct big b)
{
	if (a.m == 0)
		return b;
	if (b.m == 0)
		return a;
	for (; a.e < b.e; a.e++)
		a.m *= 0x1p-256;
	for (; b.e < a.e; b.e++)
		b.m *= 0x1p-256;
	a.m += b.m;
	big_norm(&a);
	return a;
}

static bool big_less(struct big a, struct big b)
{
	if (a.m == 0 || b.m == 0)
		return a.m < b.m;
	return a.e != b.e ? a.e < b.e : a.m < b.m;
}

/* The symmetries that keep type t's placements among its own: the proper
 * ones, and all when t is its own mirror image. */
static bool keeps_type(const struct solver *s, size_t t, int k)
{
	return poly_sym_proper(s->group[k]) || s->types[t].mirror == t;
}

/* choose_pin()'s last word between types of equal estimates: how big the
 * search below type t pinned looks. Over one placement per orbit, the
 * product over the other types of their placements that do not meet it
 * (the lists the first level passes on), summed. Tetris cube: the six
 * types of 12 orbits take 18 to 43 million nodes pinned, in the order of
 * this figure at the two ends. */
static int pin_size(struct solver *s, size_t t, struct big *out)
{
	const struct type *ty = &s->types[t];
	bool *seen = calloc(ty->nrows, sizeof *seen);
	unsigned char *mark = calloc(s->ncells ? s->ncells : 1, 1);
	int rc = seen && mark ? SOLVE_OK : SOLVE_ENOMEM;
	struct big sum = {0, 0};
	for (size_t i = 0; i < ty->nrows && rc == SOLVE_OK; i++) {
		if (seen[i])
			continue;
		size_t r = ty->row0 + i;
		for (int k = 0; k < s->group_order && rc == SOLVE_OK; k++) {
			if (!keeps_type(s, t, k))
				continue;
			size_t img = row_image(s, k, r);
			if (img == SIZE_MAX)
				rc = SOLVE_ENOMEM;
			else
				seen[img - ty->row0] = true;
		}
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			mark[s->rcells[c]] = 1;
		struct big prod = {1, 0};
		for (size_t u = 0; u < s->ntypes; u++) {
			if (u == t)
				continue;
			const struct type *tu = &s->types[u];
			size_t n = 0;
			for (size_t q = tu->row0; q < tu->row0 + tu->nrows; q++) {
				size_t c = s->roff[q];
				while (c < s->roff[q + 1] && !mark[s->rcells[c]])
					c++;
				n += c == s->roff[q + 1];
			}
			prod.m *= (double)n;
			big_norm(&prod);
		}
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			mark[s->rcells[c]] = 0;
		sum = big_add(sum, prod);
	}
	free(seen);
	free(mark);
	*out = sum;
	return rc;
}

/* With no type to pin (every piece has copies: 25 Y-pentacubes), pin a
 * cell: the required goal cell fixed by the most of G (ties: the fewest
 * rows on it, then the first). Every cover has exactly one row on it, so
 * the argument of the pinned type holds with "the row on the cell" for
 * "the pinned type's row" and H the elements fixing the cell: a cover
 * found with representative r there stands for |H r| covers, and an
 * element of H that fixes the cover fixes r. No cell fixed by more
 * than the identity: nothing pinned. Colours renamed in the search
 * (twin colours) leave the cell alone, as they leave a type. */
static int choose_cell(struct solver *s)
{
	if (s->o->no_pin || s->twin_colours || s->group_order < 2)
		return SOLVE_OK;
	size_t *on = calloc(s->ncells ? s->ncells : 1, sizeof *on);
	if (!on)
		return SOLVE_ENOMEM;
	for (size_t r = 0; r < s->nrows; r++)
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			on[s->rcells[c]]++;
	int most = 1;
	size_t best = SIZE_MAX;
	for (size_t c = 0; c < s->ncells; c++) {
		if (puz_cell_optional(s->p->goal.cells[s->goal_cell[c]]))
			continue;
		int n = 0;
		for (int k = 0; k < s->group_order; k++)
			n += s->cellmap[(size_t)k * s->ncells + c] == (int32_t)c;
		if (n > most || (n == most && best < SIZE_MAX && on[c] < on[best])) {
			most = n;
			best = c;
		}
	}
	free(on);
	if (best == SIZE_MAX)
		return SOLVE_OK;
	s->nkeep = 0;
	for (int k = 0; k < s->group_order; k++) {
		s->keeps_pin[k] =
		        s->cellmap[(size_t)k * s->ncells + best] == (int32_t)best;
		s->nkeep += s->keeps_pin[k];
	}
	s->cell_orbit = malloc(s->nrows * sizeof *s->cell_orbit);
	s->cell_fixes = calloc(s->nrows, sizeof *s->cell_fixes);
	bool *seen = calloc(s->nrows, sizeof *seen);
	int rc = s->cell_orbit && s->cell_fixes && seen ? SOLVE_OK : SOLVE_ENOMEM;
	for (size_t r = 0; r < s->nrows && rc == SOLVE_OK; r++) {
		s->cell_orbit[r] = PIN_OFF;
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			if (s->rcells[c] == best)
				s->cell_orbit[r] = 0;
	}
	for (size_t r = 0; r < s->nrows && rc == SOLVE_OK; r++) {
		if (s->cell_orbit[r] == PIN_OFF || seen[r])
			continue;
		uint32_t distinct = 0;
		for (int k = 0; k < s->group_order; k++) {
			if (!s->keeps_pin[k])
				continue;
			size_t img = row_image(s, k, r);
			if (img == SIZE_MAX) {
				rc = SOLVE_ENOMEM;
				break;
			}
			if (img == r)
				s->cell_fixes[r] |= (uint64_t)1 << k;
			if (!seen[img]) {
				seen[img] = true;
				distinct++;
			}
		}
		s->cell_orbit[r] = distinct;
	}
	free(seen);
	return rc;
}

/* Pick the single-copy type whose placements fall into the fewest orbits
 * (estimated as rows / |H| times its own symmetry); ties: the type with
 * fewer placements (Bedlam: 19% fewer nodes), then, without optional
 * cells, the least pin_size() (Tetris cube: 18 million nodes instead of
 * 43; with optional cells it was as often wrong as right: Arne's cube
 * 14.2 million instead of 10.7, 3D Onat 1.5 instead of 2.1), then the
 * first. Without optional cells, before all that, the type of the most
 * cells (below each of its placements the fewest fillings are left: the
 * 90th percentile of `check` on random dissections of 4x4x4 into 10 to
 * 13 pieces, bench --proofs, 7.3 ms to 2.9 ms; the block generator's
 * prover pins so too; Soma, Bedlam and the Tetris cube pin the same
 * piece as before). Find its orbits. */
static int choose_pin(struct solver *s)
{
	s->pin = s->ntypes;
	double best = 0;
	struct big bsize = {0, 0};
	for (size_t t = 0; t < s->ntypes; t++) {
		const struct type *ty = &s->types[t];
		/* exactly one copy, and no colour the search renames */
		if (ty->count != 1 || ty->lo != 1 || ty->nrows == 0 ||
		    (ty->cmask & s->twin_colours) || s->o->no_pin)
			continue;
		/* without optional cells, fewer cells than the pin: never */
		bool sized = !s->nopt && s->pin < s->ntypes;
		if (sized && ty->shape.n < s->types[s->pin].shape.n)
			continue;
		int nh = 0;
		for (int k = 0; k < s->group_order; k++)
			nh += keeps_type(s, t, k);
		struct shape *or;
		size_t nor;
		if (poly_orientations(&ty->shape, &or, &nor) != POLY_OK)
			return SOLVE_ENOMEM;
		poly_shapes_free(or, nor);
		double score = (double)ty->nrows / nh * (24.0 / (double)nor);
		if (sized && ty->shape.n > s->types[s->pin].shape.n) {
			best = score; /* more cells: pinned, whatever its orbits */
			bsize = (struct big){0, 0};
			s->pin = t;
			continue;
		}
		if (s->pin < s->ntypes && (score > best ||
		    (score == best && ty->nrows > s->types[s->pin].nrows)))
			continue;
		bool tie = s->pin < s->ntypes && score == best &&
		           ty->nrows == s->types[s->pin].nrows;
		if (tie && s->nopt)
			continue;
		if (tie && !bsize.m && pin_size(s, s->pin, &bsize) != SOLVE_OK)
			return SOLVE_ENOMEM;
		struct big size = {0, 0};
		if (tie && pin_size(s, t, &size) != SOLVE_OK)
			return SOLVE_ENOMEM;
		if (tie && !big_less(size, bsize))
			continue;
		best = score;
		bsize = size;
		s->pin = t;
	}
	s->keeps_pin = calloc((size_t)s->group_order, sizeof *s->keeps_pin);
	if (!s->keeps_pin)
		return SOLVE_ENOMEM;
	if (s->pin == s->ntypes) {
		s->keeps_pin[0] = true;
		s->nkeep = 1;
		return choose_cell(s);
	}
	const struct type *ty = &s->types[s->pin];
	for (int k = 0; k < s->group_order; k++)
		if (keeps_type(s, s->pin, k)) {
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

/* One level down. A representative r of the pinned type's placements
 * may be fixed by more of H than the identity (a piece lying
 * symmetrically in a symmetric box): its subtree holds each solution
 * |S| times over, S = Stab_H(r). Let Q be another type of one copy and S'
 * the elements of S mapping Q to itself. They map the covers with P at r
 * onto each other, Q's row q to g q, so there are as many covers with Q
 * at q as with Q at any row of q's S'-orbit. So the search keeps one row
 * of each orbit (the first), and a cover found with Q at q stands for
 * |S' q| covers with P at r: the visitor multiplies that into the cover's
 * orbit. Q: the type whose rows that go with r fall into the fewest
 * orbits (the pinned type's rule). 3x4x5 pentacubes: 43 % fewer nodes;
 * Bedlam: none (its representatives have no symmetry). */
static int choose_second(struct solver *s)
{
	if (s->pin == s->ntypes)
		return SOLVE_OK;
	const struct type *pt = &s->types[s->pin];
	size_t most = 1;
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].nrows > most)
			most = s->types[t].nrows;
	s->sec_type = malloc(pt->nrows * sizeof *s->sec_type);
	s->sec_off = malloc(pt->nrows * sizeof *s->sec_off);
	bool *mark = calloc(s->ncells ? s->ncells : 1, sizeof *mark);
	bool *seen = malloc(most * sizeof *seen);
	uint32_t *orb = malloc(most * sizeof *orb);
	uint32_t *best = malloc(most * sizeof *best);
	int rc = s->sec_type && s->sec_off && mark && seen && orb && best
	       ? SOLVE_OK : SOLVE_ENOMEM;
	size_t used = 0;
	for (size_t j = 0; j < pt->nrows && rc == SOLVE_OK; j++) {
		s->sec_type[j] = s->ntypes;
		s->sec_off[j] = 0;
		if (!s->orbit[j] || __builtin_popcountll(s->fixes[j]) < 2)
			continue;
		size_t r = pt->row0 + j, fewest = SIZE_MAX;
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			mark[s->rcells[c]] = true;
		for (size_t t = 0; t < s->ntypes && rc == SOLVE_OK; t++) {
			const struct type *ty = &s->types[t];
			if (t == s->pin || ty->count != 1 || ty->lo != 1 ||
			    ty->nrows == 0 || (ty->cmask & s->twin_colours))
				continue;
			uint64_t sub = 0;
			for (int k = 0; k < s->group_order; k++)
				if ((s->fixes[j] >> k & 1) &&
				    (poly_sym_proper(s->group[k]) || ty->mirror == t))
					sub |= (uint64_t)1 << k;
			if (__builtin_popcountll(sub) < 2)
				continue;
			memset(seen, 0, ty->nrows * sizeof *seen);
			size_t kept = 0;
			for (size_t i = 0; i < ty->nrows && rc == SOLVE_OK; i++) {
				orb[i] = 0;
				if (seen[i])
					continue;
				for (int k = 0; k < s->group_order; k++) {
					if (!(sub >> k & 1))
						continue;
					size_t img = row_image(s, k, ty->row0 + i);
					if (img == SIZE_MAX) {
						rc = SOLVE_ENOMEM;
						break;
					}
					if (!seen[img - ty->row0]) {
						seen[img - ty->row0] = true;
						orb[i]++;
					}
				}
				bool fits = true;
				size_t q = ty->row0 + i;
				for (size_t c = s->roff[q]; c < s->roff[q + 1]; c++)
					fits &= !mark[s->rcells[c]];
				kept += fits;
			}
			if (rc == SOLVE_OK && kept < fewest) {
				fewest = kept;
				s->sec_type[j] = t;
				uint32_t *x = best;
				best = orb;
				orb = x;
			}
		}
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			mark[s->rcells[c]] = false;
		size_t t = s->sec_type[j];
		if (rc != SOLVE_OK || t == s->ntypes)
			continue;
		size_t n = s->types[t].nrows;
		uint32_t *so = realloc(s->sec_orbit, (used + n) * sizeof *so);
		if (!so) {
			rc = SOLVE_ENOMEM;
			break;
		}
		s->sec_orbit = so;
		memcpy(so + used, best, n * sizeof *so);
		s->sec_off[j] = used;
		used += n;
	}
	free(mark);
	free(seen);
	free(orb);
	free(best);
	return rc;
}

/* For drop_seconds() and drop_cell_seconds(): '*num' each table row's
 * number in the engine (the searched rows, in order) and '*rows' room for
 * as many; both the caller's to free (NULL or not), SOLVE_ENOMEM when
 * either could not be had. */
static int engine_numbers(const struct solver *s, size_t **num, size_t **rows)
{
	*num = malloc((s->nrows ? s->nrows : 1) * sizeof **num);
	*rows = malloc((s->nrows ? s->nrows : 1) * sizeof **rows);
	if (!*num || !*rows)
		return SOLVE_ENOMEM;
	for (size_t k = 0; k < s->nsearched; k++)
		(*num)[s->table_row[k]] = k;
	return SOLVE_OK;
}

/* Hand the engine the rows choose_second() leaves out (by searched row
 * number, with 'drop' its bb_drop_below); the visitor then weighs the
 * covers found. */
static int drop_seconds(struct solver *s, void *e,
                        int (*drop)(void *, size_t, const size_t *, size_t))
{
	if (!s->sec_type)
		return SOLVE_OK;
	const struct type *pt = &s->types[s->pin];
	size_t *num, *rows;
	int rc = engine_numbers(s, &num, &rows);
	for (size_t j = 0; j < pt->nrows && rc == SOLVE_OK; j++) {
		size_t t = s->sec_type[j], n = 0;
		if (t == s->ntypes)
			continue;
		const struct type *q = &s->types[t];
		for (size_t i = 0; i < q->nrows; i++)
			if (!s->sec_orbit[s->sec_off[j] + i])
				rows[n++] = num[q->row0 + i];
		if (n && drop(e, num[pt->row0 + j], rows, n) != XC_OK)
			rc = SOLVE_ENOMEM;
	}
	free(num);
	free(rows);
	s->sec_on = rc == SOLVE_OK;
	return rc;
}

/* Row images choose_cell_second() may make in all, choosing cells: a
 * bound on its time where many representatives are symmetric (the 25
 * Y-pentacubes make about 12,000). */
#define CELL_SECOND_IMAGES ((uint64_t)1 << 20)

/* The orbit of row q under the elements 'sub' of G (bit k: group[k]),
 * marked in seen[] with 'stamp'; returns its size, 0 when q was marked
 * already, SIZE_MAX out of memory. */
static size_t mark_orbit(struct solver *s, uint64_t sub, size_t q,
                         uint32_t *seen, uint32_t stamp, uint64_t *images)
{
	if (seen[q] == stamp)
		return 0;
	size_t n = 0;
	for (int k = 0; k < s->group_order; k++) {
		if (!(sub >> k & 1))
			continue;
		size_t img = row_image(s, k, q);
		if (img == SIZE_MAX)
			return SIZE_MAX;
		++*images;
		if (seen[img] != stamp) {
			seen[img] = stamp;
			n++;
		}
	}
	return n;
}

/* Whether row q meets none of the cells marked. */
static bool misses(const struct solver *s, size_t q, const bool *mark)
{
	for (size_t c = s->roff[q]; c < s->roff[q + 1]; c++)
		if (mark[s->rcells[c]])
			return false;
	return true;
}

/* One level down below a pinned cell C, as choose_second() below a
 * pinned type. A representative r on C may be fixed by more of H than
 * the identity (a flat piece on the middle of a box lies in a mirror
 * plane): its subtree holds each solution |S| times over, S = Stab_H(r).
 * Let C2 be a required cell outside r and S' the elements of S fixing
 * C2. Every cover with r has exactly one row on C2, and S' maps the
 * covers with r onto each other, the row q on C2 to g q; so there are as
 * many covers with r and q as with r and any row of q's S'-orbit. The
 * search keeps one row of each orbit (the first) and a cover found with
 * q stands for |S' q| covers with r. C2: the cell whose rows that go
 * with r keep the least share (then the fewest, then the first cell).
 * Without colours (the visitor finds q by cov_owner); the engine leaves
 * the others out below r only when r is its root's row (drop_below), so
 * the visitor weighs only those covers (solve_visit). */
static int choose_cell_second(struct solver *s)
{
	/* (no rows at all: a range of copies that fits nowhere) */
	if (!s->cell_orbit || s->rcol || !s->nrows)
		return SOLVE_OK;
	size_t nr = s->nrows, nc = s->ncells;
	size_t *coff = calloc(nc + 1, sizeof *coff);
	size_t *crow = malloc((s->roff[nr] ? s->roff[nr] : 1) * sizeof *crow);
	uint32_t *seen = calloc(nr ? nr : 1, sizeof *seen);
	bool *mark = calloc(nc ? nc : 1, sizeof *mark);
	s->csec_cell = malloc((nr ? nr : 1) * sizeof *s->csec_cell);
	s->csec_off = calloc(nr + 1, sizeof *s->csec_off);
	int rc = coff && crow && seen && mark && s->csec_cell && s->csec_off
	       ? SOLVE_OK : SOLVE_ENOMEM;
	if (rc != SOLVE_OK)
		goto out;
	/* the rows on each cell, ascending */
	for (size_t r = 0; r < nr; r++)
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			coff[s->rcells[c] + 1]++;
	for (size_t c = 0; c < nc; c++)
		coff[c + 1] += coff[c];
	for (size_t r = 0; r < nr; r++)
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			crow[coff[s->rcells[c]]++] = r;
	for (size_t c = nc; c > 0; c--)
		coff[c] = coff[c - 1];
	coff[0] = 0;
	uint32_t stamp = 0;
	uint64_t images = 0;
	size_t used = 0, cap = 0;
	for (size_t r = 0; r < nr && rc == SOLVE_OK; r++) {
		s->csec_off[r] = used;
		s->csec_cell[r] = UINT32_MAX;
		uint32_t o = s->cell_orbit[r];
		if (o == PIN_OFF || o == 0 ||
		    __builtin_popcountll(s->cell_fixes[r]) < 2 ||
		    images >= CELL_SECOND_IMAGES)
			continue;
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			mark[s->rcells[c]] = true;
		size_t bc = SIZE_MAX, bk = 0, bt = 1;
		uint64_t bsub = 0;
		for (size_t c2 = 0; c2 < nc && rc == SOLVE_OK &&
		                    images < CELL_SECOND_IMAGES; c2++) {
			if (mark[c2] ||
			    puz_cell_optional(s->p->goal.cells[s->goal_cell[c2]]))
				continue;
			uint64_t sub = 0;
			for (int k = 0; k < s->group_order; k++)
				if ((s->cell_fixes[r] >> k & 1) &&
				    s->cellmap[(size_t)k * nc + c2] == (int32_t)c2)
					sub |= (uint64_t)1 << k;
			if (__builtin_popcountll(sub) < 2)
				continue;
			if (++stamp == 0) {
				memset(seen, 0, nr * sizeof *seen);
				stamp = 1;
			}
			size_t kept = 0, total = 0;
			for (size_t j = coff[c2]; j < coff[c2 + 1]; j++) {
				size_t q = crow[j];
				if (!misses(s, q, mark))
					continue;
				total++;
				size_t z = mark_orbit(s, sub, q, seen, stamp, &images);
				if (z == SIZE_MAX)
					rc = SOLVE_ENOMEM;
				kept += z != 0;
			}
			if (rc == SOLVE_OK && kept < total &&
			    (bc == SIZE_MAX || kept * bt < bk * total ||
			     (kept * bt == bk * total && kept < bk))) {
				bc = c2;
				bk = kept;
				bt = total;
				bsub = sub;
			}
		}
		if (rc == SOLVE_OK && bc != SIZE_MAX) {
			if (used + bt > cap) {
				size_t nc2 = 2 * cap + bt;
				size_t *nrw = realloc(s->csec_row, nc2 * sizeof *nrw);
				if (nrw)
					s->csec_row = nrw;
				uint32_t *no = nrw ? realloc(s->csec_orb,
				                             nc2 * sizeof *no) : NULL;
				if (no)
					s->csec_orb = no;
				if (!nrw || !no)
					rc = SOLVE_ENOMEM;
				else
					cap = nc2;
			}
			if (++stamp == 0) {
				memset(seen, 0, nr * sizeof *seen);
				stamp = 1;
			}
			for (size_t j = coff[bc]; j < coff[bc + 1] && rc == SOLVE_OK; j++) {
				size_t q = crow[j];
				if (!misses(s, q, mark))
					continue;
				size_t z = mark_orbit(s, bsub, q, seen, stamp, &images);
				if (z == SIZE_MAX) {
					rc = SOLVE_ENOMEM;
					break;
				}
				s->csec_row[used] = q;
				s->csec_orb[used++] = (uint32_t)z;
			}
			s->csec_cell[r] = (uint32_t)bc;
		}
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			mark[s->rcells[c]] = false;
	}
	s->csec_off[nr] = used;
out:
	free(coff);
	free(crow);
	free(seen);
	free(mark);
	return rc;
}

/* Hand the engine the rows choose_cell_second() leaves out, as
 * drop_seconds(). */
static int drop_cell_seconds(struct solver *s, void *e,
                             int (*drop)(void *, size_t, const size_t *, size_t))
{
	if (!s->csec_cell)
		return SOLVE_OK;
	size_t *num, *rows;
	int rc = engine_numbers(s, &num, &rows);
	for (size_t r = 0; r < s->nrows && rc == SOLVE_OK; r++) {
		if (s->csec_cell[r] == UINT32_MAX)
			continue;
		size_t n = 0;
		for (size_t j = s->csec_off[r]; j < s->csec_off[r + 1]; j++)
			if (!s->csec_orb[j])
				rows[n++] = num[s->csec_row[j]];
		if (n && drop(e, num[r], rows, n) != XC_OK)
			rc = SOLVE_ENOMEM;
	}
	free(num);
	free(rows);
	s->csec_on = rc == SOLVE_OK;
	return rc;
}

/* The factor |S' q| of a cover (rows[0..n), the table rows, root's
 * first; cov_owner set) whose root row r has a second cell
 * (choose_cell_second), else 1. */
static uint64_t cell_second_factor(const struct solver *s, const size_t *xrows,
                                   const size_t *rows, size_t n)
{
	if (!s->csec_on || !n || xrows[0] >= s->nsearched)
		return 1;
	size_t r = rows[0];
	uint32_t c2 = s->csec_cell[r];
	if (c2 == UINT32_MAX)
		return 1;
	int32_t i = s->cov_owner[c2];
	assert(i >= 0 && (size_t)i < n);
	size_t q = rows[i], lo = s->csec_off[r], hi = s->csec_off[r + 1];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->csec_row[mid] < q)
			lo = mid + 1;
		else
			hi = mid;
	}
	assert(lo < s->csec_off[r + 1] && s->csec_row[lo] == q &&
	       s->csec_orb[lo] > 0);
	return s->csec_orb[lo];
}

static int bb_drop(void *e, size_t root, const size_t *rows, size_t n)
{
	return bb_drop_below(e, root, rows, n);
}

static int bbw_drop(void *e, size_t root, const size_t *rows, size_t n)
{
	return bbw_drop_below(e, root, rows, n);
}

/* ---- search ------------------------------------------------------------- */

/* Whether symmetry 'sym', whose cell map is 'map', maps the cover 'rows'
 * (n rows, stamped; without colours, cov_owner set) onto itself. */
static bool fixes_cover(struct solver *s, int sym, const int32_t *map,
                        const size_t *rows, size_t n)
{
	if (!s->rcol) {
		/* without colours a row is its type and cells: the image of
		 * row r is a row of the cover when all its cells lie in one
		 * row o of the cover (cov_owner, set by solve_visit) of the
		 * image's type and size */
		bool proper = poly_sym_proper(sym);
		for (size_t i = 0; i < n; i++) {
			size_t r = rows[i], t = s->rtype[r];
			if (!proper)
				t = s->types[t].mirror;
			const uint32_t *c = s->rcells + s->roff[r];
			size_t len = s->roff[r + 1] - s->roff[r];
			int32_t o = s->cov_owner[map[c[0]]];
			if (o < 0 || s->rtype[rows[o]] != t ||
			    s->roff[rows[o] + 1] - s->roff[rows[o]] != len)
				return false;
			for (size_t j = 1; j < len; j++)
				if (s->cov_owner[map[c[j]]] != o)
					return false;
		}
		return true;
	}
	for (size_t i = 0; i < n; i++) {
		size_t img = row_image_by(s, sym, map, rows[i]);
		if (img == SIZE_MAX || s->stamp[img] != s->stamp_now)
			return false;
	}
	return true;
}

/* Whether the mirror image of the cover 'rows' (n rows) is an assembly:
 * every type it uses has a mirror type, and the mirror types' copies
 * stay within each type's least and most (copies_used as scratch). */
static bool mirror_allowed(struct solver *s, const size_t *rows, size_t n)
{
	memset(s->copies_used, 0, s->ntypes * sizeof *s->copies_used);
	for (size_t i = 0; i < n; i++) {
		size_t t = s->rtype[rows[i]];
		if (s->types[t].mirror == s->ntypes)
			return false;
		s->copies_used[t]++;
	}
	for (size_t t = 0; t < s->ntypes; t++) {
		size_t m = s->types[t].mirror;
		unsigned got = m == s->ntypes ? 0 : s->copies_used[m];
		if (got < s->types[t].lo || got > s->types[t].count)
			return false;
	}
	return true;
}

/* The puzzle piece that copy k of type t stands for: the type's pieces in
 * file order, each 'count' times (identical pieces are interchangeable, so
 * any assignment is right; this one names every piece of the file). */
size_t solve_copy_piece(const struct solver *s, size_t t, unsigned k)
{
	for (size_t i = s->types[t].piece; i < s->p->npieces; i++) {
		if (s->piece_type[i] != t)
			continue;
		unsigned n = puz_piece_max(&s->p->pieces[i]);
		if (k < n)
			return i;
		k -= n;
	}
	assert(!"more copies placed than the type has");
	return s->types[t].piece;
}

bool solve_visit(void *ctx, const size_t *xrows, size_t n)
{
	struct solver *s = ctx;
	size_t *rows = s->cover_rows;
	uint64_t orbit = 1, cand = 0;
	if (++s->stamp_now == 0) {
		memset(s->stamp, 0, s->nrows * sizeof *s->stamp);
		s->stamp_now = 1;
	}
	size_t pj = SIZE_MAX, np = 0;
	for (size_t i = 0; i < n; i++) {
		if (xrows[i] >= s->nsearched)
			continue; /* a filler (engine_counts): an empty cell */
		size_t r = rows[np++] = s->table_row[xrows[i]];
		s->stamp[r] = s->stamp_now;
		if (s->rtype[r] == s->pin) {
			pj = r - s->types[s->pin].row0;
			orbit = s->orbit[pj];
			cand = s->fixes[pj];
		} else if (s->cell_orbit && s->cell_orbit[r] != PIN_OFF) {
			orbit = s->cell_orbit[r];
			cand = s->cell_fixes[r];
		}
	}
	n = np;
	if (s->sec_on && pj != SIZE_MAX && s->sec_type[pj] < s->ntypes) {
		/* the covers with Q's row in its orbit (choose_second) */
		const struct type *q = &s->types[s->sec_type[pj]];
		for (size_t i = 0; i < n; i++)
			if (s->rtype[rows[i]] == s->sec_type[pj])
				orbit *= s->sec_orbit[s->sec_off[pj] +
				                      rows[i] - q->row0];
	}
	if (s->pin == s->ntypes && !s->cell_orbit)
		cand = ~(uint64_t)0;
	for (int k = 0; k < s->group_order; k++)
		if (!s->keeps_pin[k])
			cand |= (uint64_t)1 << k;
	uint64_t stab = 1;
	if (!s->rcol)
		for (size_t i = 0; i < n; i++)
			for (size_t c = s->roff[rows[i]]; c < s->roff[rows[i] + 1]; c++)
				s->cov_owner[s->rcells[c]] = (int32_t)i;
	for (int k = 1; k < s->group_order; k++)
		if (cand >> k & 1)
			stab += fixes_cover(s, s->group[k],
			                    s->cellmap + (size_t)k * s->ncells, rows, n);
	/* With improper symmetries aside (find_group) the count is divided
	 * by 2|G|: a cover whose mirror image is an assembly adds its
	 * stabiliser in G and the improper symmetries together; any other,
	 * whose orbit is one of G alone, adds 2 * |Stab_G(y)|. */
	if (s->nmirror && !mirror_allowed(s, rows, n))
		stab *= 2;
	else
		for (int k = 0; k < s->nmirror; k++)
			stab += fixes_cover(s, s->msym[k],
			                    s->mmap + (size_t)k * s->ncells, rows, n);
	/* below a pinned cell's symmetric representative (cov_owner is
	 * set: without colours) */
	if (!s->rcol)
		orbit *= cell_second_factor(s, xrows, rows, n);
	if (!s->rcol) /* back to -1 for the next cover */
		for (size_t i = 0; i < n; i++)
			for (size_t c = s->roff[rows[i]]; c < s->roff[rows[i] + 1]; c++)
				s->cov_owner[s->rcells[c]] = -1;
	if (s->oom)
		return false;
	/* With --disassemble only the covers that come apart are solutions;
	 * the others are counted by their verdict (solvedis.c). */
	int kind = SDIS_COUNT;
	if (s->o->disassemble && sdis_cover(s, rows, n, &kind) != SOLVE_OK) {
		s->oom = true;
		return false;
	}
	bool counted = kind == SDIS_COUNT;
	/* The cover stands for orbit * w assemblies: the pinned piece's
	 * images, and the renamings of interchangeable colours (xc). */
	uint64_t w = s->dlx ? xc_weight(s->dlx) : 1, a, ws;
	if (w == 0 || __builtin_mul_overflow(orbit, w, &a) ||
	    __builtin_mul_overflow(a, stab, &ws) ||
	    __builtin_add_overflow(s->assemblies, a, &s->assemblies) ||
	    (counted && __builtin_add_overflow(s->weighted, ws, &s->weighted))) {
		s->overflow = true;
		return false;
	}
	uint64_t num = ws; /* this cover's share of the numerator */
	if (s->o->rename_colours && s->gamma_order != (uint64_t)s->group_order) {
		uint64_t st, wr;
		int rc = recolour_stab(s, rows, n, &st);
		if (rc == SOLVE_ENOMEM)
			s->oom = true;
		else if (rc != SOLVE_OK || __builtin_mul_overflow(a, st, &wr) ||
		         (counted && __builtin_add_overflow(s->weighted_rc, wr,
		                                            &s->weighted_rc)))
			s->overflow = true;
		if (rc != SOLVE_OK || s->overflow)
			return false;
		num = wr;
	}
	if (s->o->disassemble && !sdis_tally(s, kind, num))
		return false;
	if (!counted)
		return true;
	bool first = s->o->keep_first &&
	             (s->pool ? tasks_first_wanted(s) : !s->res->first);
	if (first || s->o->on_cover) {
		const struct grid *g = &s->p->goal;
		size_t total = (size_t)g->nx * g->ny * g->nz;
		memset(s->labels, 0, total);
		if (s->colours)
			memset(s->colours, 0, total);
		memset(s->copies_used, 0, s->ntypes * sizeof *s->copies_used);
		for (size_t i = 0; i < n; i++) {
			size_t t = s->rtype[rows[i]];
			size_t piece = solve_copy_piece(s, t, s->copies_used[t]++);
			unsigned char lab = (unsigned char)(piece + 1 > 255 ? 255 : piece + 1);
			for (size_t c = s->roff[rows[i]]; c < s->roff[rows[i] + 1]; c++) {
				s->labels[s->goal_cell[s->rcells[c]]] = lab;
				if (s->colours)
					s->colours[s->goal_cell[s->rcells[c]]] = s->rcol[c];
			}
		}
		/* with --disassemble, the solution as its moves know it */
		if (s->o->disassemble)
			sdis_show(s, s->labels, s->colours);
		if (first && s->pool) {
			tasks_keep_first(s);
		} else if (first) {
			s->res->first = malloc(total);
			if (s->colours && s->res->first)
				s->res->first_colours = malloc(total);
			if (!s->res->first || (s->colours && !s->res->first_colours)) {
				s->oom = true;
				return false;
			}
			memcpy(s->res->first, s->labels, total);
			if (s->colours)
				memcpy(s->res->first_colours, s->colours, total);
			if (s->o->disassemble &&
			    solve_moves_copy(&s->res->first_moves, &s->sd.cur)) {
				s->oom = true;
				return false;
			}
		}
		if (s->o->on_cover && s->pool)
			tasks_on_cover(s);
		else if (s->o->on_cover)
			s->o->on_cover(s->o->ctx, s->labels, s->colours);
	}
	if (s->pool)
		return tasks_count(s, num);
	uint64_t sols = s->o->rename_colours &&
	                s->gamma_order != (uint64_t)s->group_order
	              ? s->weighted_rc / s->gamma_order
	              : s->weighted / solve_divisor(s);
	if (s->o->max_solutions && sols >= s->o->max_solutions) {
		s->res->stop = SOLVE_MAX_SOLUTIONS;
		return false;
	}
	return true;
}

/* Optional goal cells on the bitboards, which fill every cell: the cells
 * the pieces leave empty are filled by monominoes of one more type, one
 * row per optional cell, as many copies as cells stay empty (the pieces
 * have a fixed volume there: no ranges). A set of rows of one type is
 * found once, so each assembly is one cover; solve_visit() leaves the
 * fillers out (their engine rows are numbered after the searched ones).
 * The engine's counts per type, fillers last when there are any ('*nt'
 * types); NULL when out of memory. */
static unsigned *engine_counts(const struct solver *s, size_t *nt)
{
	unsigned *counts = malloc((s->ntypes + 1) * sizeof *counts);
	if (!counts)
		return NULL;
	size_t vol = 0;
	for (size_t t = 0; t < s->ntypes; t++) {
		const struct type *ty = &s->types[t];
		counts[t] = bbw_range_count(ty->lo, ty->count, ty->shape.n,
		                            s->ncells);
		vol += (size_t)ty->count * ty->shape.n;
	}
	*nt = s->ntypes;
	if (s->nopt && vol < s->ncells)
		counts[(*nt)++] = (unsigned)(s->ncells - vol);
	return counts;
}

/* Whether goal cell c is optional. */
static bool optional(const struct solver *s, size_t c)
{
	return puz_cell_optional(s->p->goal.cells[s->goal_cell[c]]);
}

/* bbw_add_row's error as the solver's. */
static int wide_rc(int rc)
{
	return rc == XC_OK ? SOLVE_OK : rc == XC_ENOMEM ? SOLVE_ENOMEM
	                                                : SOLVE_ETOOBIG;
}

/* The fill order for the bitboard: along the goal's longest axis last,
 * so the front of filled cells stays small (a cross-section). 'dims' gets
 * the bounding box's sides in that order, the fastest first. */
static void fill_order(const struct solver *s, unsigned *rank,
                       unsigned dims[3])
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
	size_t idx[BBW_MAX_CELLS];
	long key[BBW_MAX_CELLS];
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
	for (int k = 0; k < 3; k++)
		dims[k] = (unsigned)(ext[ax[k]] + 1);
}

/* Whether row r goes to the search: every row but the pinned type's
 * placements (or the rows on the pinned cell) that do not represent
 * their orbit. */
static bool searched(const struct solver *s, size_t r)
{
	if (s->cell_orbit)
		return s->cell_orbit[r] != 0;
	size_t t = s->rtype[r];
	return t != s->pin || s->orbit[r - s->types[t].row0] != 0;
}

/* Whether the bitboards place the pinned type at the root (and, below
 * a symmetric representative, leave out the second type's rows,
 * choose_second()): when it has at most twice the rows of the required
 * goal cell with the fewest, so that the root branches at most twice as
 * often as the fewest-rows rule would there (the second level took 43 %
 * of the nodes off the 3x4x5 pentacubes). Else the rule decides where
 * the pinned type goes, as on dancing links, without the second level:
 * Arne's cube took 10.7 million nodes with its pinned type (110 rows,
 * against 2 on a cell) at the root, 2.6 million without; Anke's cube
 * 50,075 and 47,724. Past that bound two small puzzles of the tests
 * lose a little (Rhinoceros 4,256 to 4,407 nodes), two gain. */
static bool pin_at_root(const struct solver *s)
{
	if (s->pin == s->ntypes)
		return false;
	size_t *on = calloc(s->ncells ? s->ncells : 1, sizeof *on);
	if (!on)
		return true; /* (the old way: no worse than before) */
	size_t pinned = 0;
	for (size_t r = 0; r < s->nrows; r++) {
		if (!searched(s, r))
			continue;
		pinned += s->rtype[r] == s->pin;
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			on[s->rcells[c]]++;
	}
	size_t fewest = SIZE_MAX;
	for (size_t c = 0; c < s->ncells; c++)
		if (!optional(s, c) && on[c] < fewest)
			fewest = on[c];
	free(on);
	/* (no cell that must be filled: nothing to compare with) */
	return fewest == SIZE_MAX || pinned <= 2 * fewest;
}

/* The bitboard engine with the searched rows, into '*out'. */
static int build_bits(struct solver *s, bb **out)
{
	unsigned rank[64], dims[3];
	fill_order(s, rank, dims);
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
	/* the rows, counted first: the tables made once */
	size_t want = 0;
	for (size_t r = 0; r < s->nrows; r++)
		want += searched(s, r);
	int rc = bb_reserve(b, want) == XC_OK ? SOLVE_OK : SOLVE_ENOMEM;
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
		/* a whole box: the rule against holes (bb.h); false, and no
		 * rule, for any other goal */
		(void)bb_set_grid(b, dims[0], dims[1], dims[2]);
		if (pin_at_root(s)) {
			bb_set_first(b, s->pin);
			rc = drop_seconds(s, b, bb_drop);
		}
		if (rc == SOLVE_OK)
			rc = drop_cell_seconds(s, b, bb_drop);
	}
	if (rc == SOLVE_OK) {
		s->res->rows = s->nsearched;
		*out = b;
	} else {
		bb_free(b);
	}
	return rc;
}

/* The same on bbw (up to 1024 cells), with the goal's adjacency for its
 * region pruning. */
static int build_wide(struct solver *s, bbw **out)
{
	unsigned rank[BBW_MAX_CELLS], dims[3];
	fill_order(s, rank, dims);
	size_t nt;
	unsigned *counts = engine_counts(s, &nt);
	bbw *b = counts ? bbw_new(s->ncells, rank, nt, counts) : NULL;
	/* ranges (run_search() takes them here with no optional cell) */
	for (size_t t = 0; b && t < s->ntypes; t++)
		counts[t] = s->types[t].lo;
	if (b && bbw_set_least(b, counts) != XC_OK) {
		bbw_free(b);
		b = NULL;
	}
	free(counts);
	if (!b)
		return SOLVE_ENOMEM;
	const struct grid *g = &s->p->goal;
	for (size_t i = 0; i < s->ncells; i++) {
		int c[3];
		goal_coords(s, i, c);
		for (int k = 0; k < 3; k++) {
			int d[3] = {c[0], c[1], c[2]};
			d[k]++;
			if (d[0] >= g->nx || d[1] >= g->ny || d[2] >= g->nz)
				continue;
			int32_t j = s->goal_index[puz_grid_index(g, d[0], d[1], d[2])];
			if (j >= 0)
				bbw_add_edge(b, i, (size_t)j);
		}
	}
	/* the rows and fillers, counted first: the tables made once */
	size_t want = 0;
	for (size_t r = 0; r < s->nrows; r++)
		want += searched(s, r);
	for (size_t c = 0; c < s->ncells && nt > s->ntypes; c++)
		want += optional(s, c);
	int rc = wide_rc(bbw_reserve(b, want));
	for (size_t r = 0; r < s->nrows && rc == SOLVE_OK; r++) {
		if (!searched(s, r))
			continue;
		size_t t = s->rtype[r];
		uint64_t m[BBW_MAX_WORDS] = {0};
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++)
			m[s->rcells[c] / 64] |= (uint64_t)1 << (s->rcells[c] % 64);
		rc = wide_rc(bbw_add_row(b, m, t));
		s->table_row[s->nsearched++] = r;
	}
	for (size_t c = 0; c < s->ncells && rc == SOLVE_OK && nt > s->ntypes; c++)
		if (optional(s, c))
			rc = wide_rc(bbw_add_filler(b, s->ntypes, c));
	if (rc == SOLVE_OK) {
		if (pin_at_root(s)) {
			bbw_set_first(b, s->pin);
			rc = drop_seconds(s, b, bbw_drop);
		}
		if (rc == SOLVE_OK)
			rc = drop_cell_seconds(s, b, bbw_drop);
	}
	if (rc == SOLVE_OK) {
		s->res->rows = s->nsearched;
		*out = b;
	} else {
		bbw_free(b);
	}
	return rc;
}

/* Colour breaking (xc_weigh): at a branch on a required goal cell, of the
 * rows that differ only by a renaming of interchangeable colours no chosen
 * row uses, only one is tried, standing for all of them. Which one: scan
 * the row's cells in order; the i-th new such colour met in a class must
 * be the i-th smallest unused colour of the class. That row's images are
 * u(u-1)...(u-k+1) rows per class (u unused colours, k of them in the
 * row), all in the item's list: a renaming of unused interchangeable
 * colours maps the rows chosen so far, and so the rest of the problem, to
 * themselves, so each image has as many covers below it. */
static uint64_t colour_weigh(void *ctx, size_t item, size_t xrow,
                             const size_t *chosen, size_t depth)
{
	const struct solver *s = ctx;
	if (item >= s->ncells - s->nopt)
		return 1; /* a type or optional cell: images not in the list */
	size_t r = s->table_row[xrow];
	uint32_t mine = s->types[s->rtype[r]].cmask & s->twin_colours;
	if (!mine)
		return 1;
	uint32_t used = 0;
	for (size_t d = 0; d < depth; d++)
		used |= s->types[s->rtype[s->table_row[chosen[d]]]].cmask;
	if (!(mine & ~used))
		return 1;
	uint32_t seen = 0;
	uint64_t w = 1;
	for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++) {
		int col = s->rcol[c];
		uint32_t bit = (uint32_t)1 << col;
		if (!(mine & bit & ~used) || (seen & bit))
			continue;
		uint32_t free_in = s->twin_class[col] & ~used & ~seen;
		if (bit != (free_in & -free_in))
			return 0; /* not the least unused colour left in its class */
		if (__builtin_mul_overflow(w, (uint64_t)__builtin_popcount(free_in), &w))
			return UINT64_MAX; /* too many to count: xc reports 0 */
		seen |= bit;
	}
	return w;
}

/* The dancing-links engine with the searched rows, into '*out'. */
static int build_dlx(struct solver *s, xc **out)
{
	/* Items: required goal cells, then single-copy types (primary);
	 * then the optional goal cells (0..1), the other types (lo..hi) and
	 * one item per distinct region and colour (0..1) (bounded). */
	size_t nreq = s->ncells - s->nopt, nsingle = 0, nmulti = 0;
	int ncol = __builtin_popcount(s->piece_colours);
	size_t nrc = s->ndreg * (size_t)ncol;
	size_t *item = malloc((s->ntypes ? s->ntypes : 1) * sizeof *item);
	size_t *cell_item = malloc((s->ncells ? s->ncells : 1) * sizeof *cell_item);
	size_t nb = s->ntypes + s->nopt + nrc;
	unsigned *lo = malloc((nb ? nb : 1) * sizeof *lo);
	unsigned *hi = malloc((nb ? nb : 1) * sizeof *hi);
	if (!item || !cell_item || !lo || !hi) {
		free(item);
		free(cell_item);
		free(lo);
		free(hi);
		return SOLVE_ENOMEM;
	}
	size_t nr = 0, no = 0;
	for (size_t c = 0; c < s->ncells; c++)
		if (!puz_cell_optional(s->p->goal.cells[s->goal_cell[c]]))
			cell_item[c] = nr++;
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].count == 1 && s->types[t].lo == 1)
			item[t] = nreq + nsingle++;
	size_t base = nreq + nsingle;
	for (size_t c = 0; c < s->ncells; c++)
		if (puz_cell_optional(s->p->goal.cells[s->goal_cell[c]])) {
			lo[nmulti] = 0;
			hi[nmulti] = 1;
			cell_item[c] = base + nmulti++;
			no++;
		}
	for (size_t t = 0; t < s->ntypes; t++)
		if (!(s->types[t].count == 1 && s->types[t].lo == 1)) {
			lo[nmulti] = s->types[t].lo;
			hi[nmulti] = s->types[t].count;
			item[t] = base + nmulti++;
		}
	size_t rc_base = base + nmulti;
	for (size_t k = 0; k < nrc; k++) {
		lo[nmulti] = 0;
		hi[nmulti++] = 1;
	}
	assert(nr == nreq && no == s->nopt);
	xc *x = xc_new_ranges(base, nmulti, lo, hi);
	free(lo);
	free(hi);
	/* colour -> its index among the piece colours */
	size_t cindex[PUZ_NCOLOURS + 1] = {0};
	for (int c = 1, k = 0; c <= PUZ_NCOLOURS; c++)
		if (s->piece_colours >> c & 1)
			cindex[c] = (size_t)k++;
	size_t maxn = 1;
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].shape.n * (1 + s->ndreg) + 1 > maxn)
			maxn = s->types[t].shape.n * (1 + s->ndreg) + 1;
	size_t *buf = malloc(maxn * sizeof *buf);
	int rc = (x && buf) ? SOLVE_OK : SOLVE_ENOMEM;
	for (size_t r = 0; r < s->nrows && rc == SOLVE_OK; r++) {
		if (!searched(s, r))
			continue;
		size_t t = s->rtype[r];
		size_t n = 0;
		for (size_t c = s->roff[r]; c < s->roff[r + 1]; c++) {
			buf[n++] = cell_item[s->rcells[c]];
			int col = s->rcol ? s->rcol[c] : 0;
			for (size_t g = 0; col && g < s->ndreg; g++)
				if (s->dreg[g * s->ncells + s->rcells[c]])
					buf[n++] = rc_base + g * (size_t)ncol + cindex[col];
		}
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
	free(cell_item);
	if (rc == SOLVE_OK) {
		s->res->rows = s->nsearched;
		if (s->twin_colours)
			xc_set_weigh(x, colour_weigh, s);
		*out = x;
	} else {
		xc_free(x);
	}
	return rc;
}

static int run_search(struct solver *s)
{
	s->table_row = malloc((s->nrows ? s->nrows : 1) * sizeof *s->table_row);
	s->stamp = calloc(s->nrows ? s->nrows : 1, sizeof *s->stamp);
	s->cover_rows = malloc((s->ncells + 1) * sizeof *s->cover_rows);
	s->cov_owner = malloc((s->ncells + 1) * sizeof *s->cov_owner);
	for (size_t c = 0; s->cov_owner && c <= s->ncells; c++)
		s->cov_owner[c] = -1;
	const struct grid *g = &s->p->goal;
	s->labels = malloc((size_t)g->nx * g->ny * g->nz);
	s->copies_used = malloc((s->ntypes ? s->ntypes : 1) * sizeof *s->copies_used);
	if (s->coloured)
		s->colours = malloc((size_t)g->nx * g->ny * g->nz);
	if (!s->table_row || !s->stamp || !s->cover_rows || !s->cov_owner ||
	    !s->labels ||
	    !s->copies_used || (s->coloured && !s->colours))
		return SOLVE_ENOMEM;
	if (s->o->disassemble && sdis_thread_init(s) != SOLVE_OK)
		return SOLVE_ENOMEM;
	/* The bitboard packs exactly: every cell once (optional ones by
	 * fillers: engine_counts), every type used up, or, on the wide
	 * board, within its range (bbw_set_least) where no cell is
	 * optional (the fillers' count would not be known). */
	bool bits = s->ncells <= BBW_MAX_CELLS && s->o->engine != SOLVE_DLX &&
	            !s->ndreg && !s->twin_colours;
	bool ranged = false;
	for (size_t t = 0; t < s->ntypes; t++)
		ranged |= s->types[t].lo != s->types[t].count;
	bits &= !ranged || (!s->nopt && s->o->engine != SOLVE_BITS);
	/* bbw matches bb up to 64 cells, not faster (bench): bb there, but
	 * for optional cells (bbw_add_filler) and ranges. */
	bool wide = bits && (s->o->engine == SOLVE_WIDE || s->nopt || ranged ||
	                     (s->ncells > 64 && s->o->engine == SOLVE_AUTO));
	struct engine e = {.kind = wide ? ENGINE_BBW
	                         : bits && s->ncells <= 64 ? ENGINE_BB
	                         : ENGINE_XC};
	int rc = e.kind == ENGINE_BBW ? build_wide(s, &e.bw)
	       : e.kind == ENGINE_BB ? build_bits(s, &e.b) : build_dlx(s, &e.x);
	if (rc == SOLVE_OK && (s->o->threads || s->o->shard_count)) {
		rc = tasks_run(s, e);
	} else if (rc == SOLVE_OK) {
		/* one plain search */
		uint64_t nodes = 0;
		s->dlx = e.kind == ENGINE_XC ? e.x : NULL;
		enum xc_stop st = tasks_engine_solve(e, s->o->max_nodes,
		                                     solve_visit, s, &nodes);
		s->dlx = NULL;
		s->res->nodes = nodes;
		if (st == XC_NODES)
			s->res->stop = SOLVE_MAX_NODES;
	}
	tasks_engine_free(e);
	if (rc == SOLVE_OK && s->oom)
		rc = SOLVE_ENOMEM;
	if (rc == SOLVE_OK && s->overflow)
		rc = SOLVE_EOVERFLOW;
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
	free(s->mmap);
	free(s->rtype);
	free(s->roff);
	free(s->rcells);
	free(s->htab);
	free(s->keeps_pin);
	free(s->orbit);
	free(s->fixes);
	free(s->cell_orbit);
	free(s->cell_fixes);
	free(s->sec_type);
	free(s->sec_off);
	free(s->sec_orbit);
	free(s->csec_cell);
	free(s->csec_off);
	free(s->csec_row);
	free(s->csec_orb);
	free(s->table_row);
	free(s->stamp);
	free(s->cover_rows);
	free(s->cov_owner);
	free(s->image);
	free(s->labels);
	free(s->colours);
	free(s->copies_used);
	free(s->dreg);
	free(s->rcol);
	free(s->image_col);
	free(s->image_bits);
	recolour_free(s);
	sdis_thread_free(s);
	free(s->piece_type);
}

/* Reasons to answer 0 without searching; false when there are none. */
static bool hopeless(struct solver *s)
{
	unsigned long long lo = 0, hi = 0;
	unsigned long long need = s->ncells - s->nopt, room = s->ncells;
	for (size_t t = 0; t < s->ntypes; t++) {
		lo += (unsigned long long)s->types[t].shape.n * s->types[t].lo;
		hi += (unsigned long long)s->types[t].shape.n * s->types[t].count;
	}
	if (lo == hi && need == room && lo != need) {
		snprintf(s->res->why, sizeof s->res->why,
		         "the pieces have %llu cells, the goal %llu", lo, need);
		return true;
	}
	if (hi < need || lo > room) {
		snprintf(s->res->why, sizeof s->res->why,
		         "the pieces have %llu to %llu cells, the goal takes "
		         "%llu to %llu", lo, hi, need, room);
		return true;
	}
	for (size_t t = 0; t < s->ntypes; t++)
		if (s->types[t].nrows == 0 && s->types[t].lo > 0) {
			snprintf(s->res->why, sizeof s->res->why,
			         "piece '%s' fits nowhere in the goal",
			         s->p->pieces[s->types[t].piece].name);
			return true;
		}
	return false;
}

/* --disassemble on the shell path: each of the six plates lies in its
 * face's outer layer, so in every assembly the plate on +z lifts off
 * straight up, then the one on -z down, then each side plate outwards:
 * every solution comes apart, with level 1. The moves shown are the
 * first assembly's (the disassembler's own). Only for six distinct
 * plates (solve_puzzle), so that each has a label of its own. */
static int shell_disassembled(const struct puzzle *p,
                              const struct solve_opts *o,
                              struct solve_result *res)
{
	res->disassembled = true;
	if (!res->solutions)
		return SOLVE_OK;
	struct solve_moves m = {.level = {1}, .nlevel = 1};
	res->max_level_solutions = res->solutions;
	res->max_level_num = res->solutions * (uint64_t)res->group_order;
	/* six distinct plates (solve_puzzle): one label per plate */
	if (res->first) {
		const struct grid *g = &p->goal;
		disasm *d = dis_new();
		struct dis_result r;
		int rc = d ? dis_run(d, g->nx, g->ny, g->nz, res->first,
		                     p->npieces, NULL, NULL, &r)
		           : DIS_ENOMEM;
		dis_free(d);
		if (rc != DIS_OK)
			return SOLVE_ENOMEM;
		assert(r.verdict == DIS_APART && r.nlevel == 1 && r.level[0] == 1);
		m.moves = r.moves;
		m.nmoves = r.nmoves;
		m.npieces = p->npieces;
		for (size_t i = 0; i < p->npieces; i++)
			m.piece[i] = (uint16_t)i;
		if (o->keep_first && solve_moves_copy(&res->first_moves, &m)) {
			free(m.moves);
			return SOLVE_ENOMEM;
		}
	}
	if (!o->keep_first) {
		free(res->first);
		res->first = NULL;
	}
	res->hardest_moves = m;
	return SOLVE_OK;
}

int solve_puzzle(const struct puzzle *p, const struct solve_opts *o,
                 struct solve_result *out)
{
	assert(o->threads <= SOLVE_MAX_THREADS);
	assert(!o->shard_count || o->shard_index < o->shard_count);
	struct solve_result res = {.stop = SOLVE_DONE};
	struct solver s = {.p = p, .o = o, .res = &res};
	/* With --disassemble the shell path takes six distinct plates only:
	 * copies of a plate share a label in its first assembly, which then
	 * names no moves (shell_disassembled). */
	bool copies = false;
	for (size_t i = 0; i < p->npieces && o->disassemble; i++)
		copies |= p->pieces[i].count != 1 || p->pieces[i].count_max;
	if (!o->generic && !copies) {
		/* The shell path is one task, shard 1's (0 mod K): another
		 * shard runs it only for the group, reporting no cover. */
		struct solve_opts so = *o;
		bool other = o->shard_count && o->shard_index != 0;
		if (other) {
			so.on_cover = NULL;
			so.keep_first = false;
		}
		/* the first assembly's moves stand for every one's */
		if (o->disassemble && !other)
			so.keep_first = true;
		int rc = shell_solve(p, &so, &res);
		if (rc == SOLVE_OK && o->disassemble)
			rc = shell_disassembled(p, o, &res);
		if (rc == SOLVE_OK) {
			/* a plain puzzle: renamings change nothing, Γ = G */
			if (o->rename_colours)
				res.rename_order = (uint64_t)res.group_order;
			res.divisor = (uint64_t)res.group_order;
			/* exact: the shell path counts |G| * solutions */
			res.numerator = res.solutions * res.divisor;
			if (o->threads || o->shard_count)
				res.tasks = 1;
			if (other) {
				solve_result_clear(&res);
				res.solutions = res.assemblies = res.nodes = 0;
				res.numerator = 0;
				res.max_level_solutions = res.max_level_num = 0;
				res.complete = true;
				res.stop = SOLVE_DONE;
			}
			*out = res;
			return SOLVE_OK;
		}
		if (rc != SHELL_NOT_SHELL)
			return rc;
	}
	int rc = load_goal(&s);
	if (rc == SOLVE_OK)
		rc = load_regions(&s);
	if (rc == SOLVE_OK)
		rc = load_types(&s);
	if (rc == SOLVE_OK)
		rc = find_twins(&s);
	if (rc == SOLVE_OK)
		rc = find_group(&s);
	for (size_t t = 0; t < s.ntypes && rc == SOLVE_OK; t++)
		rc = make_rows(&s, t);
	if (rc == SOLVE_OK && !hopeless(&s)) {
		rc = build_hash(&s);
		if (rc == SOLVE_OK && o->rename_colours)
			rc = recolour_setup(&s);
		if (rc == SOLVE_OK && o->disassemble)
			rc = sdis_prepare(&s);
		if (rc == SOLVE_OK)
			rc = choose_pin(&s);
		if (rc == SOLVE_OK)
			rc = choose_second(&s);
		if (rc == SOLVE_OK)
			rc = choose_cell_second(&s);
		if (rc == SOLVE_OK)
			rc = run_search(&s);
	}
	if (rc == SOLVE_OK) {
		res.complete = res.stop == SOLVE_DONE;
		/* a shard's share of the numerator need not divide */
		bool whole = res.complete && !o->shard_count;
		(void)whole; /* only the asserts read it */
		assert(!whole || s.weighted % solve_divisor(&s) == 0);
		res.numerator = s.weighted;
		res.divisor = solve_divisor(&s);
		/* Γ contains G; when it is no larger, it is G */
		if (o->rename_colours && s.gamma_order != (uint64_t)s.group_order &&
		    s.gamma_order) {
			assert(!whole || s.weighted_rc % s.gamma_order == 0);
			res.numerator = s.weighted_rc;
			res.divisor = s.gamma_order;
		}
		res.solutions = res.numerator / res.divisor;
		if (o->rename_colours)
			res.rename_order = s.gamma_order ? s.gamma_order
			                                 : (uint64_t)s.group_order;
		res.assemblies = s.assemblies;
		if (o->disassemble)
			sdis_result(&s, &res);
		*out = res;
	} else {
		solve_result_clear(&res);
	}
	solver_free(&s);
	return rc;
}

void solve_result_clear(struct solve_result *r)
{
	free(r->first);
	r->first = NULL;
	free(r->first_colours);
	r->first_colours = NULL;
	solve_moves_clear(&r->first_moves);
	solve_moves_clear(&r->hardest_moves);
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
	case SOLVE_ERENAMES:
		return "--rename-colours: too many ways to rename colours that "
		       "look alike (more than 200,000 steps to try them)";
	default: return "unknown error";
	}
}
