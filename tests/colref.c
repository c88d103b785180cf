/*
 * colref.c: the independent reference for colour puzzles (see colref.h)
 * and the maker of small random colour puzzles.
 *
 * Workload: goals of at most a dozen cells (up to 64 for plain puzzles),
 * a handful of colours; everything is done the obvious way. The only
 * concessions to speed are the incremental match and distinct checks while
 * placing (a leaf check alone would try 4^12 colourings of single cells)
 * and trying each orientation only with its first cell on the first
 * undecided goal cell.
 */
#include "tests/colref.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testrand.h"

#define NSYM 48
#define NCOL (PUZ_NCOLOURS + 1) /* colour 0 (plain) and 1..26 */
#define UNDECIDED (-1)
#define EMPTY (-2)

/* A record word: bits 0..4 the colour of the piece cell (0..26) or
 * W_EMPTY for an empty cell, bits 5..11 the least goal index of its
 * (projected) region, bits 12.. 1 + its type (raw forms only). */
#define W_EMPTY 31u
#define W_COL(w) ((w) & 31u)
#define W_REG(w) ((w) >> 5 & 127u)

/* A signed axis permutation: out[i] = sign[i] * in[axis[i]]. */
struct csym {
	int axis[3], sign[3];
	int det; /* +1 a rotation, -1 improper */
};

/* A cell and the colour on it (0 plain). */
struct ccell {
	int c[3]; /* x, y, z */
	int col;
};

struct ctype {
	int n;               /* cells */
	struct ccell *canon; /* the least orientation (canon_shape) */
	int norient;         /* distinct orientations, colours included */
	struct ccell *orient; /* norient * n cells, each normalised, in grid
	                       * order: orient[o * n] is its first cell */
	unsigned lo, hi;     /* copies: the sum of its entries' ranges */
	bool sep;            /* every entry has at most one copy */
};

struct colref {
	/* goal: cells in grid order, coordinates from its bounding box */
	int ncells;
	int (*xyz)[3];
	unsigned char *gval; /* the goal value of each cell */
	size_t *flat;        /* goal index -> index in the puzzle's grid */
	size_t gtotal;       /* cells of the puzzle's goal grid */
	int box[3];
	int *lookup;         /* box cell -> goal index, -1 outside */

	/* distinct cell sets (bit i: goal index i), duplicates dropped */
	int nregions;
	uint64_t *regions;

	bool has_match;
	uint32_t match[NCOL];

	int ntypes;
	struct ctype *types;
	size_t nentries;
	int *entry_type;     /* entry -> type, -1 for an entry with no copies */
	bool exact;          /* every type separable */
	bool mirror_closed;
	/* Not mirror-closed, with ranges of copies: the improper g mapping
	 * the goal onto itself (values and distinct sets) count for an
	 * assembly exactly when its image is an assembly too. Their nm
	 * inverse cell maps, and each type's mirror type (-1 none). */
	int nm;
	int *minv;           /* nm * ncells */
	int *mtype;          /* per type */

	int ncolours;        /* colours used, and which */
	int used[PUZ_NCOLOURS];

	/* H, the identity first; G = the elements with hin_g */
	int nh, ng;
	int *hperm;          /* nh * ncells: goal index -> its image */
	int *hinv;           /* nh * ncells: the inverse */
	unsigned char *hpi;  /* nh * NCOL: colour renaming, hpi[0] = 0 */
	bool *hin_g;

	/* search and encoding state */
	int *occ;            /* goal index -> piece (or region) id, or
	                      * UNDECIDED / EMPTY */
	unsigned char *pcol; /* goal index -> piece colour */
	int *ctyp;           /* goal index -> type (raw forms) */
	int *ptype;          /* piece id -> type, during the search */
	unsigned *nused;     /* type -> copies placed */
	unsigned char *rcnt; /* nregions * NCOL: colours shown per region */
	int *minidx;         /* region id -> least goal index, scratch */
	int nminidx;
	size_t len;          /* record words: 1 + ncells */
	uint32_t *cand, *best, *tmp; /* scratch records */
	uint64_t assemblies;
	uint64_t limit;      /* assemblies at most */
	int failed;          /* 0, -1, or COLREF_TOO_MANY */

	/* where the leaves go (NULL: not collected) */
	struct brute_forms *gset, *hset; /* canonical forms: sets */
	struct brute_forms *raws;        /* raw forms: a multiset */
	struct brute_forms *alls;        /* full identity forms: a multiset */
};

/* ---- symmetries and shapes ------------------------------------------ */

/* The 48 signed axis permutations, the identity first. */
static void make_syms(struct csym s[NSYM])
{
	static const int perm[6][3] = {
		{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, /* even */
		{0, 2, 1}, {2, 1, 0}, {1, 0, 2}, /* odd */
	};
	int k = 0;
	for (int p = 0; p < 6; p++)
		for (int m = 0; m < 8; m++) {
			s[k].det = p < 3 ? 1 : -1;
			for (int i = 0; i < 3; i++) {
				s[k].axis[i] = perm[p][i];
				s[k].sign[i] = m >> i & 1 ? -1 : 1;
				s[k].det *= s[k].sign[i];
			}
			k++;
		}
}

static void sym_apply(const struct csym *s, const int in[3], int out[3])
{
	for (int i = 0; i < 3; i++)
		out[i] = s->sign[i] * in[s->axis[i]];
}

/* Grid order: z, then y, then x; then the colour. */
static int ccell_cmp(const void *a, const void *b)
{
	const struct ccell *u = a, *v = b;
	for (int i = 2; i >= 0; i--)
		if (u->c[i] != v->c[i])
			return u->c[i] < v->c[i] ? -1 : 1;
	return (u->col > v->col) - (u->col < v->col);
}

static int shape_cmp(const struct ccell *a, const struct ccell *b, int n)
{
	for (int i = 0; i < n; i++) {
		int c = ccell_cmp(&a[i], &b[i]);
		if (c)
			return c;
	}
	return 0;
}

/* Move the least corner to 0 and sort in grid order. */
static void normalise(struct ccell *v, int n)
{
	for (int a = 0; a < 3; a++) {
		int lo = v[0].c[a];
		for (int i = 1; i < n; i++)
			if (v[i].c[a] < lo)
				lo = v[i].c[a];
		for (int i = 0; i < n; i++)
			v[i].c[a] -= lo;
	}
	qsort(v, (size_t)n, sizeof *v, ccell_cmp);
}

/* 'out' = the image of 'in' (n cells) under 's' with colours renamed by
 * 'pi' (NULL: kept), normalised. */
static void shape_image(const struct csym *s, const unsigned char *pi,
                        const struct ccell *in, int n, struct ccell *out)
{
	for (int i = 0; i < n; i++) {
		sym_apply(s, in[i].c, out[i].c);
		out[i].col = pi ? pi[in[i].col] : in[i].col;
	}
	normalise(out, n);
}

/* 'out' = the least, over the 24 rotations, of the normalised images of
 * 'in'; 'tmp' scratch of n cells. Congruent coloured shapes, and only
 * those, get equal canonical forms. */
static void canon_shape(const struct csym s[NSYM], const struct ccell *in,
                        int n, struct ccell *out, struct ccell *tmp)
{
	bool have = false;
	for (int k = 0; k < NSYM; k++) {
		if (s[k].det != 1)
			continue;
		shape_image(&s[k], NULL, in, n, tmp);
		if (!have || shape_cmp(tmp, out, n) < 0) {
			memcpy(out, tmp, (size_t)n * sizeof *out);
			have = true;
		}
	}
}

/* Whether goal value v may stay empty: PUZ_OPTIONAL plain, PUZ_OPTIONAL
 * + c of colour c (puzzle.h). */
static bool value_optional(unsigned char v)
{
	return v >= PUZ_OPTIONAL && v <= PUZ_OPTIONAL + PUZ_NCOLOURS;
}

/* The colour of goal or piece value v (0 plain), or -1 when v is none of
 * puzzle.h's cell values ('goal' allows the optional ones). */
static int value_colour(unsigned char v, bool goal)
{
	if (v == PUZ_CELL)
		return 0;
	if (v > PUZ_CELL && v <= PUZ_CELL + PUZ_NCOLOURS)
		return v - PUZ_CELL;
	if (goal && value_optional(v))
		return v - PUZ_OPTIONAL;
	return -1;
}

/* The rule of DESIGN.md §3, written out: plain on either side matches;
 * without a table only the same colour; with one, exactly its entries. */
static bool fits(const struct colref *r, int pc, int gc)
{
	if (pc == 0 || gc == 0)
		return true;
	if (!r->has_match)
		return pc == gc;
	return (r->match[pc] >> gc & 1u) != 0;
}

/* ---- setup ------------------------------------------------------------ */

static void colref_release(struct colref *r)
{
	free(r->xyz);
	free(r->gval);
	free(r->flat);
	free(r->lookup);
	free(r->regions);
	for (int t = 0; t < r->ntypes; t++) {
		free(r->types[t].canon);
		free(r->types[t].orient);
	}
	free(r->types);
	free(r->entry_type);
	free(r->hperm);
	free(r->hinv);
	free(r->hpi);
	free(r->hin_g);
	free(r->minv);
	free(r->mtype);
	free(r->occ);
	free(r->pcol);
	free(r->ctyp);
	free(r->ptype);
	free(r->nused);
	free(r->rcnt);
	free(r->minidx);
	free(r->cand);
	free(r->best);
	free(r->tmp);
}

static int goal_at(const struct colref *r, const int c[3])
{
	for (int a = 0; a < 3; a++)
		if (c[a] < 0 || c[a] >= r->box[a])
			return -1;
	return r->lookup[c[0] + r->box[0] * (c[1] + r->box[1] * c[2])];
}

static int setup_goal(struct colref *r, const struct grid *g)
{
	size_t total;
	if (!g->cells || !puz_box_cells(g->nx, g->ny, g->nz, &total))
		return -1;
	r->gtotal = total;
	size_t n = 0;
	for (size_t i = 0; i < total; i++)
		n += g->cells[i] != 0;
	if (n == 0 || n > COLREF_MAX_CELLS)
		return -1;
	r->ncells = (int)n;
	r->xyz = malloc(n * sizeof *r->xyz);
	r->gval = malloc(n);
	r->flat = malloc(n * sizeof *r->flat);
	if (!r->xyz || !r->gval || !r->flat)
		return -1;
	int lo[3] = {g->nx, g->ny, g->nz}, hi[3] = {0, 0, 0};
	size_t k = 0;
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++) {
				size_t i = puz_grid_index(g, x, y, z);
				if (!g->cells[i])
					continue;
				if (value_colour(g->cells[i], true) < 0)
					return -1;
				int c[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					r->xyz[k][a] = c[a];
					lo[a] = c[a] < lo[a] ? c[a] : lo[a];
					hi[a] = c[a] > hi[a] ? c[a] : hi[a];
				}
				r->gval[k] = g->cells[i];
				r->flat[k] = i;
				k++;
			}
	size_t boxn = 1;
	for (int a = 0; a < 3; a++) {
		r->box[a] = hi[a] - lo[a] + 1;
		boxn *= (size_t)r->box[a];
	}
	r->lookup = malloc(boxn * sizeof *r->lookup);
	if (!r->lookup)
		return -1;
	for (size_t i = 0; i < boxn; i++)
		r->lookup[i] = -1;
	for (int i = 0; i < r->ncells; i++) {
		for (int a = 0; a < 3; a++)
			r->xyz[i][a] -= lo[a];
		const int *c = r->xyz[i];
		r->lookup[c[0] + r->box[0] * (c[1] + r->box[1] * c[2])] = i;
	}
	return 0;
}

static int add_region(struct colref *r, uint64_t m)
{
	for (int i = 0; i < r->nregions; i++)
		if (r->regions[i] == m)
			return 0;
	uint64_t *nr = realloc(r->regions, (size_t)(r->nregions + 1) * sizeof *nr);
	if (!nr)
		return -1;
	r->regions = nr;
	r->regions[r->nregions++] = m;
	return 0;
}

/* The distinct cell sets: regions marked distinct, and the six outer
 * layers of the goal's bounding box when distinct_faces. */
static int setup_regions(struct colref *r, const struct puzzle *p)
{
	for (size_t k = 0; k < p->nregions; k++) {
		const struct puz_region *reg = &p->regions[k];
		if (!reg->distinct)
			continue;
		uint64_t m = 0;
		size_t members = 0;
		for (size_t i = 0; i < r->gtotal; i++)
			members += reg->cells[i] != 0;
		for (int i = 0; i < r->ncells; i++)
			if (reg->cells[r->flat[i]]) {
				m |= (uint64_t)1 << i;
				members--;
			}
		if (members != 0) /* a member that is no goal cell */
			return -1;
		if (add_region(r, m) != 0)
			return -1;
	}
	if (p->distinct_faces)
		for (int a = 0; a < 3; a++)
			for (int side = 0; side < 2; side++) {
				int at = side ? r->box[a] - 1 : 0;
				uint64_t m = 0;
				for (int i = 0; i < r->ncells; i++)
					if (r->xyz[i][a] == at)
						m |= (uint64_t)1 << i;
				if (add_region(r, m) != 0)
					return -1;
			}
	return 0;
}

static int find_type(const struct colref *r, const struct ccell *canon, int n)
{
	for (int t = 0; t < r->ntypes; t++)
		if (r->types[t].n == n && shape_cmp(r->types[t].canon, canon, n) == 0)
			return t;
	return -1;
}

static int setup_types(struct colref *r, const struct puzzle *p,
                       const struct csym s[NSYM], unsigned *colmask)
{
	r->nentries = p->npieces;
	r->entry_type = malloc((p->npieces ? p->npieces : 1) * sizeof *r->entry_type);
	r->types = calloc(p->npieces ? p->npieces : 1, sizeof *r->types);
	if (!r->entry_type || !r->types)
		return -1;
	r->exact = true;
	for (size_t e = 0; e < p->npieces; e++) {
		const struct puz_piece *pc = &p->pieces[e];
		const struct grid *g = &pc->shape;
		unsigned hi = pc->count_max ? pc->count_max : pc->count;
		r->entry_type[e] = -1;
		if (hi == 0)
			continue;
		size_t total;
		if (!g->cells || !puz_box_cells(g->nx, g->ny, g->nz, &total) ||
		    (pc->count_max && pc->count_max < pc->count))
			return -1;
		size_t n = 0;
		for (size_t i = 0; i < total; i++)
			n += g->cells[i] != 0;
		if (n == 0 || n > COLREF_MAX_CELLS)
			return -1;
		struct ccell *v = malloc(n * sizeof *v);
		struct ccell *canon = malloc(n * sizeof *canon);
		struct ccell *tmp = malloc(n * sizeof *tmp);
		if (!v || !canon || !tmp) {
			free(v);
			free(canon);
			free(tmp);
			return -1;
		}
		size_t k = 0;
		int bad = 0;
		for (int z = 0; z < g->nz; z++)
			for (int y = 0; y < g->ny; y++)
				for (int x = 0; x < g->nx; x++) {
					unsigned char val = g->cells[puz_grid_index(g, x, y, z)];
					if (!val)
						continue;
					int col = value_colour(val, false);
					bad |= col < 0;
					if (col > 0)
						*colmask |= 1u << col;
					v[k++] = (struct ccell){{x, y, z}, col};
				}
		if (!bad)
			canon_shape(s, v, (int)n, canon, tmp);
		free(v);
		free(tmp);
		if (bad) {
			free(canon);
			return -1;
		}
		int t = find_type(r, canon, (int)n);
		if (t < 0) {
			if (r->ntypes == COLREF_MAX_TYPES) {
				free(canon);
				return -1;
			}
			t = r->ntypes++;
			r->types[t] = (struct ctype){.n = (int)n, .canon = canon,
			                             .sep = true};
		} else {
			free(canon);
		}
		r->entry_type[e] = t;
		r->types[t].lo += pc->count;
		r->types[t].hi += hi;
		if (hi > 1) {
			r->types[t].sep = false;
			r->exact = false;
		}
	}
	/* the distinct orientations of each type */
	for (int t = 0; t < r->ntypes; t++) {
		struct ctype *ty = &r->types[t];
		int n = ty->n;
		ty->orient = malloc((size_t)24 * (size_t)n * sizeof *ty->orient);
		if (!ty->orient)
			return -1;
		for (int k = 0; k < NSYM; k++) {
			if (s[k].det != 1)
				continue;
			struct ccell *o = &ty->orient[(size_t)ty->norient * (size_t)n];
			shape_image(&s[k], NULL, ty->canon, n, o);
			bool dup = false;
			for (int j = 0; j < ty->norient && !dup; j++)
				dup = shape_cmp(&ty->orient[(size_t)j * (size_t)n], o, n) == 0;
			if (!dup)
				ty->norient++;
		}
	}
	return 0;
}

/* The type of the image of type t under (s, pi), or -1. 'a', 'b' scratch
 * of the type's size. */
static int type_image(const struct colref *r, const struct csym sy[NSYM],
                      int k, const unsigned char *pi, int t, struct ccell *a,
                      struct ccell *b)
{
	const struct ctype *ty = &r->types[t];
	struct ccell *c = malloc((size_t)ty->n * sizeof *c);
	if (!c)
		return -2;
	shape_image(&sy[k], pi, ty->canon, ty->n, a);
	canon_shape(sy, a, ty->n, c, b);
	int u = find_type(r, c, ty->n);
	free(c);
	return u;
}

/* Whether (s, pi) maps the puzzle onto itself, given the cell map 'perm'
 * of s on the goal. -1 when out of memory. */
static int keeps_puzzle(const struct colref *r, const struct csym sy[NSYM],
                        int k, const int *perm, const unsigned char *pi,
                        bool types, struct ccell *a, struct ccell *b)
{
	for (int i = 0; i < r->ncells; i++) {
		unsigned char v = r->gval[i];
		int col = value_colour(v, true);
		unsigned char base = value_optional(v) ? PUZ_OPTIONAL : PUZ_CELL;
		unsigned char want = col > 0 ? (unsigned char)(base + pi[col]) : v;
		if (r->gval[perm[i]] != want)
			return 0;
	}
	for (int j = 0; j < r->nregions; j++) {
		uint64_t img = 0;
		for (int i = 0; i < r->ncells; i++)
			if (r->regions[j] >> i & 1)
				img |= (uint64_t)1 << perm[i];
		bool found = false;
		for (int q = 0; q < r->nregions && !found; q++)
			found = r->regions[q] == img;
		if (!found)
			return 0;
	}
	if (r->has_match)
		for (int p = 1; p < NCOL; p++)
			for (int q = 1; q < NCOL; q++)
				if ((r->match[p] >> q & 1u) !=
				    (r->match[pi[p]] >> pi[q] & 1u))
					return 0;
	for (int t = 0; t < r->ntypes && types; t++) {
		int u = type_image(r, sy, k, pi, t, a, b);
		if (u == -2)
			return -1;
		if (u < 0 || r->types[u].lo != r->types[t].lo ||
		    r->types[u].hi != r->types[t].hi)
			return 0;
	}
	return 1;
}

/* Next permutation of a[0..n-1] in lexicographic order; false after the
 * last. */
static bool next_perm(int *a, int n)
{
	int i = n - 2;
	while (i >= 0 && a[i] >= a[i + 1])
		i--;
	if (i < 0)
		return false;
	int j = n - 1;
	while (a[j] <= a[i])
		j--;
	int t = a[i];
	a[i] = a[j];
	a[j] = t;
	for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--) {
		t = a[lo];
		a[lo] = a[hi];
		a[hi] = t;
	}
	return true;
}

static int setup_group(struct colref *r, const struct csym sy[NSYM])
{
	int nc = r->ncells, maxn = 1;
	for (int t = 0; t < r->ntypes; t++)
		maxn = r->types[t].n > maxn ? r->types[t].n : maxn;
	struct ccell *a = malloc((size_t)maxn * sizeof *a);
	struct ccell *b = malloc((size_t)maxn * sizeof *b);
	int *perm = malloc((size_t)nc * sizeof *perm);
	int (*img)[3] = malloc((size_t)nc * sizeof *img);
	int cap = 0, rc = -1;
	if (!a || !b || !perm || !img)
		goto out;

	/* mirror-closed: (a reflection, identity) keeps every type's range */
	unsigned char id[NCOL];
	for (int c = 0; c < NCOL; c++)
		id[c] = (unsigned char)c;
	int refl = 0;
	while (sy[refl].det == 1)
		refl++;
	r->mirror_closed = true;
	bool ranged = false;
	r->mtype = malloc(((size_t)r->ntypes + 1) * sizeof *r->mtype);
	if (!r->mtype)
		goto out;
	for (int t = 0; t < r->ntypes; t++) {
		int u = type_image(r, sy, refl, id, t, a, b);
		if (u == -2)
			goto out;
		r->mtype[t] = u;
		if (u < 0 || r->types[u].lo != r->types[t].lo ||
		    r->types[u].hi != r->types[t].hi)
			r->mirror_closed = false;
		ranged |= r->types[t].lo != r->types[t].hi;
	}
	if (ranged && !r->mirror_closed) {
		r->minv = malloc((size_t)NSYM * (size_t)nc * sizeof *r->minv);
		if (!r->minv)
			goto out;
	}

	for (int k = 0; k < NSYM; k++) {
		/* the cell map of s, re-anchored to the goal's box */
		int lo[3] = {0, 0, 0};
		for (int i = 0; i < nc; i++) {
			sym_apply(&sy[k], r->xyz[i], img[i]);
			for (int q = 0; q < 3; q++)
				if (i == 0 || img[i][q] < lo[q])
					lo[q] = img[i][q];
		}
		bool onto = true;
		for (int i = 0; i < nc && onto; i++) {
			for (int q = 0; q < 3; q++)
				img[i][q] -= lo[q];
			perm[i] = goal_at(r, img[i]);
			onto = perm[i] >= 0;
		}
		if (!onto)
			continue; /* injective into a finite set of equal size: onto */
		if (r->minv && sy[k].det != 1) {
			int keep = keeps_puzzle(r, sy, k, perm, id, false, a, b);
			if (keep < 0)
				goto out;
			int *mv = &r->minv[(size_t)r->nm * (size_t)nc];
			for (int i = 0; i < nc && keep; i++)
				mv[perm[i]] = i;
			r->nm += keep;
		}
		int order[PUZ_NCOLOURS];
		memcpy(order, r->used, sizeof order);
		do {
			unsigned char pi[NCOL];
			memcpy(pi, id, sizeof pi);
			for (int i = 0; i < r->ncolours; i++)
				pi[r->used[i]] = (unsigned char)order[i];
			int keep = keeps_puzzle(r, sy, k, perm, pi, true, a, b);
			if (keep < 0)
				goto out;
			if (!keep)
				continue;
			if (r->nh == cap) {
				cap = cap ? 2 * cap : 64;
				int *hp = realloc(r->hperm, (size_t)cap * (size_t)nc * sizeof *hp);
				if (hp)
					r->hperm = hp;
				int *hi = realloc(r->hinv, (size_t)cap * (size_t)nc * sizeof *hi);
				if (hi)
					r->hinv = hi;
				unsigned char *pp = realloc(r->hpi, (size_t)cap * NCOL);
				if (pp)
					r->hpi = pp;
				bool *g = realloc(r->hin_g, (size_t)cap * sizeof *g);
				if (g)
					r->hin_g = g;
				if (!hp || !hi || !pp || !g)
					goto out;
			}
			int *hp = &r->hperm[(size_t)r->nh * (size_t)nc];
			int *hv = &r->hinv[(size_t)r->nh * (size_t)nc];
			for (int i = 0; i < nc; i++) {
				hp[i] = perm[i];
				hv[perm[i]] = i;
			}
			memcpy(&r->hpi[(size_t)r->nh * NCOL], pi, NCOL);
			r->hin_g[r->nh] = memcmp(pi, id, NCOL) == 0;
			r->ng += r->hin_g[r->nh];
			r->nh++;
		} while (next_perm(order, r->ncolours));
	}
	/* the identity: symmetry 0 with pi = identity, tried first */
	rc = r->nh >= 1 && r->hin_g[0] && r->hperm[0] == 0 ? 0 : -1;
out:
	free(a);
	free(b);
	free(perm);
	free(img);
	return rc;
}

static int setup(struct colref *r, const struct puzzle *p)
{
	struct csym sy[NSYM];
	make_syms(sy);
	unsigned colmask = 0;
	if (setup_goal(r, &p->goal) != 0 || setup_regions(r, p) != 0 ||
	    setup_types(r, p, sy, &colmask) != 0)
		return -1;
	for (int i = 0; i < r->ncells; i++) {
		int col = value_colour(r->gval[i], true);
		if (col > 0)
			colmask |= 1u << col;
	}
	for (int c = 1; c < NCOL; c++)
		if (colmask >> c & 1u) {
			if (r->ncolours == COLREF_MAX_COLOURS)
				return -1;
			r->used[r->ncolours++] = c;
		}
	r->has_match = p->has_match;
	memcpy(r->match, p->match, sizeof r->match);
	if (setup_group(r, sy) != 0)
		return -1;

	int nc = r->ncells;
	r->len = 1 + (size_t)nc;
	r->nminidx = nc + (int)r->nentries + r->ntypes + 1;
	r->occ = malloc((size_t)nc * sizeof *r->occ);
	r->pcol = calloc((size_t)nc, 1);
	r->ctyp = malloc((size_t)nc * sizeof *r->ctyp);
	r->ptype = malloc((size_t)nc * sizeof *r->ptype);
	r->nused = calloc((size_t)r->ntypes + 1, sizeof *r->nused);
	r->rcnt = calloc((size_t)r->nregions * NCOL + 1, 1);
	r->minidx = malloc((size_t)r->nminidx * sizeof *r->minidx);
	r->cand = malloc(r->len * sizeof *r->cand);
	r->best = malloc(r->len * sizeof *r->best);
	r->tmp = malloc(r->len * sizeof *r->tmp);
	if (!r->occ || !r->pcol || !r->ctyp || !r->ptype || !r->nused ||
	    !r->rcnt || !r->minidx || !r->cand || !r->best || !r->tmp)
		return -1;
	return 0;
}

/* ---- records ------------------------------------------------------------ */

static int rec_cmp(const void *a, const void *b)
{
	const uint32_t *u = a, *v = b;
	for (uint32_t i = 1; i < u[0]; i++)
		if (u[i] != v[i])
			return u[i] < v[i] ? -1 : 1;
	return 0;
}

/* ---- forms of assemblies ------------------------------------------------ */

/* The encoding of the assembly in r->occ / r->pcol (region ids below
 * r->nminidx, negative for an empty cell) moved by element h of H, into
 * 'out': per goal cell d in grid order, the renamed colour of the piece
 * cell that lands on d and the least d' its piece lands on. */
static void encode_by(struct colref *r, const int *inv,
                      const unsigned char *pi, uint32_t *out)
{
	int nc = r->ncells;
	for (int i = 0; i < r->nminidx; i++)
		r->minidx[i] = -1;
	out[0] = (uint32_t)r->len;
	for (int d = 0; d < nc; d++) {
		int c = inv[d]; /* the cell h moves onto d */
		int reg = r->occ[c];
		if (reg < 0) {
			out[1 + d] = W_EMPTY;
			continue;
		}
		if (r->minidx[reg] < 0)
			r->minidx[reg] = d; /* d ascends: the first is the least */
		out[1 + d] = (uint32_t)pi[r->pcol[c]] | (uint32_t)r->minidx[reg] << 5;
	}
}

static void encode(struct colref *r, int h, uint32_t *out)
{
	encode_by(r, &r->hinv[(size_t)h * (size_t)r->ncells],
	          &r->hpi[(size_t)h * NCOL], out);
}

/* Element k of the improper maps aside (r->minv): its encoding. */
static void encode_m(struct colref *r, int k, uint32_t *out)
{
	unsigned char id[NCOL];
	for (int c = 0; c < NCOL; c++)
		id[c] = (unsigned char)c;
	encode_by(r, &r->minv[(size_t)k * (size_t)r->ncells], id, out);
}

/* Whether the mirror image of the assembly searched (r->nused) is an
 * assembly: each type placed has a mirror type, and each type gets as
 * many copies as its mirror type had, within its range. */
static bool mirror_is_assembly(const struct colref *r)
{
	for (int t = 0; t < r->ntypes; t++) {
		if (r->nused[t] && r->mtype[t] < 0)
			return false;
		unsigned got = r->mtype[t] < 0 ? 0 : r->nused[r->mtype[t]];
		if (got < r->types[t].lo || got > r->types[t].hi)
			return false;
	}
	return true;
}

/* The least encoding over G (or H when 'all') into 'out'; over G, the
 * improper maps aside too when 'mirror'. */
static void canonical(struct colref *r, bool all, bool mirror, uint32_t *out)
{
	bool have = false;
	for (int h = 0; h < r->nh; h++) {
		if (!all && !r->hin_g[h])
			continue;
		encode(r, h, r->cand);
		if (!have || rec_cmp(r->cand, out) < 0) {
			memcpy(out, r->cand, r->len * sizeof *out);
			have = true;
		}
	}
	for (int k = 0; k < r->nm && !all && mirror; k++) {
		encode_m(r, k, r->cand);
		if (rec_cmp(r->cand, out) < 0)
			memcpy(out, r->cand, r->len * sizeof *out);
	}
}

/* The raw form of the assembly in r->occ / r->pcol / r->ctyp: per goal
 * cell, (1 + type, colour, least goal index of the projected region). A
 * separable type's region is its piece id; the pieces of any other type t
 * are merged into id r->nminidx - 1 - t. */
static void encode_raw(struct colref *r, uint32_t *out)
{
	int nc = r->ncells;
	for (int i = 0; i < r->nminidx; i++)
		r->minidx[i] = -1;
	out[0] = (uint32_t)r->len;
	for (int d = 0; d < nc; d++) {
		if (r->occ[d] < 0) {
			out[1 + d] = W_EMPTY;
			continue;
		}
		int t = r->ctyp[d];
		int reg = r->types[t].sep ? r->occ[d] : r->nminidx - 1 - t;
		if (r->minidx[reg] < 0)
			r->minidx[reg] = d;
		out[1 + d] = (uint32_t)r->pcol[d] | (uint32_t)r->minidx[reg] << 5 |
		             (uint32_t)(t + 1) << 12;
	}
}

/* The assembly a full form (an encoding) describes, into r->occ / r->pcol:
 * region ids are the least goal indices. */
static void decode(struct colref *r, const uint32_t *rec)
{
	for (int d = 0; d < r->ncells; d++) {
		uint32_t w = rec[1 + d];
		if (W_COL(w) == W_EMPTY) {
			r->occ[d] = EMPTY;
			r->pcol[d] = 0;
		} else {
			r->occ[d] = (int)W_REG(w);
			r->pcol[d] = (unsigned char)W_COL(w);
		}
	}
}

/* ---- search ---------------------------------------------------------- */

static void leaf(struct colref *r)
{
	for (int t = 0; t < r->ntypes; t++)
		if (r->nused[t] < r->types[t].lo)
			return;
	if (++r->assemblies > r->limit) {
		r->failed = COLREF_TOO_MANY;
		return;
	}
	canonical(r, false, r->nm && mirror_is_assembly(r), r->best);
	if (brute_forms_add(r->gset, r->best) != 0) {
		r->failed = -1;
		return;
	}
	canonical(r, true, false, r->best);
	if (brute_forms_add(r->hset, r->best) != 0) {
		r->failed = -1;
		return;
	}
	if (!r->raws)
		return;
	for (int d = 0; d < r->ncells; d++)
		r->ctyp[d] = r->occ[d] >= 0 ? r->ptype[r->occ[d]] : -1;
	encode_raw(r, r->tmp);
	encode(r, 0, r->best); /* h = 0 is the identity */
	if (brute_forms_add(r->raws, r->tmp) != 0 ||
	    brute_forms_add(r->alls, r->best) != 0)
		r->failed = -1;
}

/* Put orientation 'o' of type t with its first cell on goal cell 'at' as
 * piece 'id'; false (nothing changed) when a cell leaves the goal, is
 * taken, does not match, or shows a colour twice in a distinct set. */
static bool place(struct colref *r, int t, int o, int at, int id)
{
	const struct ctype *ty = &r->types[t];
	const struct ccell *sh = &ty->orient[(size_t)o * (size_t)ty->n];
	int d[3], cell[COLREF_MAX_CELLS];
	for (int a = 0; a < 3; a++)
		d[a] = r->xyz[at][a] - sh[0].c[a];
	for (int i = 0; i < ty->n; i++) {
		int c[3] = {sh[i].c[0] + d[0], sh[i].c[1] + d[1], sh[i].c[2] + d[2]};
		int gi = goal_at(r, c);
		if (gi < 0 || r->occ[gi] != UNDECIDED ||
		    !fits(r, sh[i].col, value_colour(r->gval[gi], true)))
			return false;
		cell[i] = gi;
	}
	/* count the colours shown, then look for one shown twice */
	bool twice = false;
	for (int i = 0; i < ty->n; i++)
		for (int j = 0; j < r->nregions && sh[i].col; j++)
			if (r->regions[j] >> cell[i] & 1)
				twice |= ++r->rcnt[j * NCOL + sh[i].col] > 1;
	if (twice) {
		for (int i = 0; i < ty->n; i++)
			for (int j = 0; j < r->nregions && sh[i].col; j++)
				if (r->regions[j] >> cell[i] & 1)
					r->rcnt[j * NCOL + sh[i].col]--;
		return false;
	}
	for (int i = 0; i < ty->n; i++) {
		r->occ[cell[i]] = id;
		r->pcol[cell[i]] = (unsigned char)sh[i].col;
	}
	r->ptype[id] = t;
	r->nused[t]++;
	return true;
}

static void unplace(struct colref *r, int t, int o, int at)
{
	const struct ctype *ty = &r->types[t];
	const struct ccell *sh = &ty->orient[(size_t)o * (size_t)ty->n];
	int d[3];
	for (int a = 0; a < 3; a++)
		d[a] = r->xyz[at][a] - sh[0].c[a];
	for (int i = 0; i < ty->n; i++) {
		int c[3] = {sh[i].c[0] + d[0], sh[i].c[1] + d[1], sh[i].c[2] + d[2]};
		int gi = goal_at(r, c);
		for (int j = 0; j < r->nregions && sh[i].col; j++)
			if (r->regions[j] >> gi & 1)
				r->rcnt[j * NCOL + sh[i].col]--;
		r->occ[gi] = UNDECIDED;
		r->pcol[gi] = 0;
	}
	r->nused[t]--;
}

/* Every cell before 'first' is decided; 'id' pieces are placed. */
static void search(struct colref *r, int first, int id)
{
	int c = first;
	while (c < r->ncells && r->occ[c] != UNDECIDED)
		c++;
	if (c == r->ncells) {
		leaf(r);
		return;
	}
	if (value_optional(r->gval[c])) {
		r->occ[c] = EMPTY;
		search(r, c + 1, id);
		r->occ[c] = UNDECIDED;
	}
	/* a piece covering c has its first cell (grid order) there: every
	 * cell before c is decided */
	for (int t = 0; t < r->ntypes && !r->failed; t++) {
		if (r->nused[t] == r->types[t].hi)
			continue;
		for (int o = 0; o < r->types[t].norient && !r->failed; o++) {
			if (!place(r, t, o, c, id))
				continue;
			search(r, c + 1, id + 1);
			unplace(r, t, o, c);
		}
	}
}

/* ---- self-checks ------------------------------------------------------ */

/* Every image under H of every assembly in sorted 'alls' is one of them. */
static bool closed_under_h(struct colref *r, const struct brute_forms *alls)
{
	for (size_t i = 0; i < alls->n; i++) {
		decode(r, &alls->rec[i * alls->len]);
		for (int h = 0; h < r->nh; h++) {
			encode(r, h, r->cand);
			if (!brute_forms_has(alls, r->cand))
				return false;
		}
	}
	return true;
}

/* Sum over the canonical forms in 'set' of |group| / |stabiliser|: the
 * assemblies, when the forms are one per orbit. Over G, the improper maps
 * aside join the group for a form whose image under them is one of the
 * assemblies in sorted 'alls' (found here from the images themselves,
 * not from counts of types as the search does). */
static uint64_t orbit_total(struct colref *r, const struct brute_forms *set,
                            bool all, const struct brute_forms *alls)
{
	uint64_t total = 0;
	for (size_t i = 0; i < set->n; i++) {
		const uint32_t *rec = &set->rec[i * set->len];
		decode(r, rec);
		int stab = 0, order = all ? r->nh : r->ng;
		for (int h = 0; h < r->nh; h++) {
			if (!all && !r->hin_g[h])
				continue;
			encode(r, h, r->cand);
			stab += rec_cmp(r->cand, rec) == 0;
		}
		int images = 0;
		for (int k = 0; k < r->nm && !all; k++) {
			encode_m(r, k, r->cand);
			images += brute_forms_has(alls, r->cand);
		}
		/* all or none: the images differ by elements of G */
		if (images != 0 && images != r->nm)
			return UINT64_MAX;
		for (int k = 0; k < r->nm && images; k++) {
			encode_m(r, k, r->cand);
			stab += rec_cmp(r->cand, rec) == 0;
		}
		order += images;
		if (stab == 0 || order % stab != 0)
			return UINT64_MAX;
		total += (uint64_t)(order / stab);
	}
	return total;
}

/* ---- entry points ------------------------------------------------------ */

static void fill_result(const struct colref *r, struct colref_result *out)
{
	out->assemblies = r->assemblies;
	out->solutions = r->gset->n;
	out->renamed = r->hset->n;
	out->group_order = r->ng;
	out->rename_order = r->nh;
	out->mirror_closed = r->mirror_closed;
	out->ntypes = r->ntypes;
	out->exact = r->exact;
}

static int run(struct colref *r)
{
	for (int i = 0; i < r->ncells; i++)
		r->occ[i] = UNDECIDED;
	search(r, 0, 0);
	if (r->failed)
		return r->failed;
	brute_forms_sort(r->gset);
	brute_forms_sort(r->hset);
	return 0;
}

int colref_count(const struct puzzle *p, struct colref_result *out)
{
	struct colref r;
	struct brute_forms g, h;
	memset(&r, 0, sizeof r);
	memset(out, 0, sizeof *out);
	int rc = setup(&r, p);
	brute_forms_init(&g, r.len, true);
	brute_forms_init(&h, r.len, true);
	if (rc == 0) {
		r.gset = &g;
		r.hset = &h;
		r.limit = COLREF_MAX_ASSEMBLIES;
		rc = run(&r) != 0 ? -1 : 0;
	}
	if (rc == 0)
		fill_result(&r, out);
	brute_forms_clear(&g);
	brute_forms_clear(&h);
	colref_release(&r);
	return rc;
}

int colref_sets(const struct puzzle *p, uint64_t max_assemblies,
                struct colref_sets *out)
{
	struct colref r;
	struct brute_forms alls;
	memset(&r, 0, sizeof r);
	memset(out, 0, sizeof *out);
	int rc = setup(&r, p);
	brute_forms_init(&out->assemblies, r.len, false);
	brute_forms_init(&out->solutions, r.len, true);
	brute_forms_init(&out->renamed, r.len, true);
	brute_forms_init(&alls, r.len, false);
	if (rc == 0) {
		r.gset = &out->solutions;
		r.hset = &out->renamed;
		r.raws = &out->assemblies;
		r.alls = &alls;
		r.limit = max_assemblies && max_assemblies < COLREF_MAX_ASSEMBLIES
		          ? max_assemblies : COLREF_MAX_ASSEMBLIES;
		rc = run(&r);
	}
	if (rc == 0) {
		brute_forms_sort(&out->assemblies);
		brute_forms_sort(&alls);
		fill_result(&r, &out->counts);
		/* no assembly twice */
		for (size_t i = 1; i < alls.n && rc == 0; i++)
			if (rec_cmp(&alls.rec[(i - 1) * alls.len],
			            &alls.rec[i * alls.len]) == 0)
				rc = COLREF_SELF_CHECK;
		if (rc == 0 && (alls.n != r.assemblies ||
		                out->assemblies.n != r.assemblies ||
		                !closed_under_h(&r, &alls) ||
		                orbit_total(&r, &out->solutions, false, &alls) != r.assemblies ||
		                orbit_total(&r, &out->renamed, true, &alls) != r.assemblies ||
		                (out->renamed.n > out->solutions.n && !r.nm)))
			rc = COLREF_SELF_CHECK;
	}
	brute_forms_clear(&alls);
	colref_release(&r);
	if (rc != 0)
		colref_sets_clear(out);
	return rc;
}

void colref_sets_clear(struct colref_sets *s)
{
	brute_forms_clear(&s->assemblies);
	brute_forms_clear(&s->solutions);
	brute_forms_clear(&s->renamed);
	memset(s, 0, sizeof *s);
}

struct colref *colref_new(const struct puzzle *p)
{
	struct colref *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	if (setup(r, p) != 0) {
		colref_free(r);
		return NULL;
	}
	return r;
}

void colref_free(struct colref *r)
{
	if (!r)
		return;
	colref_release(r);
	free(r);
}

size_t colref_len(const struct colref *r)
{
	return r->len;
}

bool colref_exact(const struct colref *r)
{
	return r->exact;
}

int colref_cover(struct colref *r, const unsigned char *labels,
                 const unsigned char *colours, uint32_t *raw, uint32_t *gform,
                 uint32_t *hform)
{
	size_t k = 0; /* goal cells seen; r->flat ascends */
	for (size_t i = 0; i < r->gtotal; i++) {
		unsigned lab = labels[i];
		if (k == (size_t)r->ncells || r->flat[k] != i) {
			if (lab != 0)
				return -1;
			continue;
		}
		unsigned col = colours ? colours[i] : 0;
		if (col > PUZ_NCOLOURS)
			return -1;
		if (lab == 0) {
			if (!value_optional(r->gval[k]))
				return -1;
			r->occ[k] = EMPTY;
			r->pcol[k] = 0;
			r->ctyp[k] = -1;
		} else {
			if (lab > r->nentries || r->entry_type[lab - 1] < 0)
				return -1;
			r->occ[k] = (int)lab - 1; /* a piece when separable */
			r->pcol[k] = (unsigned char)col;
			r->ctyp[k] = r->entry_type[lab - 1];
		}
		k++;
	}
	encode_raw(r, raw);
	/* copies of each type: each entry has at most one when exact */
	memset(r->nused, 0, ((size_t)r->ntypes + 1) * sizeof *r->nused);
	for (size_t e = 0; e < r->nentries && r->exact; e++) {
		bool placed = false;
		for (int d = 0; d < r->ncells && !placed; d++)
			placed = r->occ[d] == (int)e;
		if (placed)
			r->nused[r->entry_type[e]]++;
	}
	bool mirror = r->nm && mirror_is_assembly(r);
	if (r->exact && gform)
		canonical(r, false, mirror, gform);
	if (r->exact && hform)
		canonical(r, true, false, hform);
	return 0;
}

int colref_labels(const struct colref *r, const uint32_t *raw,
                  unsigned char *labels, unsigned char *colours)
{
	if (!r->exact || raw[0] != r->len)
		return -1;
	bool *taken = calloc(r->nentries ? r->nentries : 1, sizeof *taken);
	if (!taken)
		return -1;
	size_t entry[COLREF_MAX_CELLS]; /* region (least index) -> entry */
	memset(labels, 0, r->gtotal);
	memset(colours, 0, r->gtotal);
	int rc = 0;
	for (int d = 0; d < r->ncells && rc == 0; d++) {
		uint32_t w = raw[1 + d];
		if (W_COL(w) == W_EMPTY)
			continue;
		int t = (int)(w >> 12) - 1;
		unsigned reg = W_REG(w);
		if (t < 0 || t >= r->ntypes || reg > (unsigned)d) {
			rc = -1;
			break;
		}
		if (reg == (unsigned)d) { /* the piece's first cell: a new piece */
			size_t e = 0;
			while (e < r->nentries && (taken[e] || r->entry_type[e] != t))
				e++;
			if (e == r->nentries) {
				rc = -1;
				break;
			}
			taken[e] = true;
			entry[d] = e;
		}
		labels[r->flat[d]] = (unsigned char)(entry[reg] + 1);
		colours[r->flat[d]] = (unsigned char)W_COL(w);
	}
	free(taken);
	return rc;
}

/* ---- random colour puzzles -------------------------------------------- */

#define RC_MAXG 18   /* cells of a 3 x 3 x 2 box */
#define RC_MAXP 24   /* piece entries */

struct rc_piece {
	int n;
	struct ccell v[4];
	unsigned count, count_max;
};

static bool rc_adjacent(const int a[3], const int b[3])
{
	return abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2]) == 1;
}

/* A random connected set of 'want' cells of the box b, into 'out'. */
static int rc_blob(uint64_t *s, const int b[3], int want, int out[][3])
{
	int n = 1;
	for (int a = 0; a < 3; a++)
		out[0][a] = rnd(s, b[a]);
	while (n < want) {
		int x[3];
		memcpy(x, out[rnd(s, n)], sizeof x);
		int dir = rnd(s, 6);
		x[dir / 2] += dir % 2 ? 1 : -1;
		if (x[dir / 2] < 0 || x[dir / 2] >= b[dir / 2])
			continue;
		bool dup = false;
		for (int i = 0; i < n && !dup; i++)
			dup = memcmp(out[i], x, sizeof x) == 0;
		if (!dup)
			memcpy(out[n++], x, sizeof x);
	}
	return n;
}

static int rc_popcount(uint64_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Whether the colours 'col' on the goal cells 'g' (n of them) show a
 * colour twice in one of the sets 'mask' (nm of them, bit i: cell i). */
static bool rc_twice(const int *col, int n, const uint64_t *mask, int nm)
{
	for (int m = 0; m < nm; m++)
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				if (col[i] && col[i] == col[j] && (mask[m] >> i & 1) &&
				    (mask[m] >> j & 1))
					return true;
	return false;
}

/* Goal value 'v' made optional: with its colour half the time, plain
 * otherwise; when 'empty' (the cut leaves the cell empty, so any colour
 * keeps it an assembly), a colour of the palette half the time. Draws from
 * its own stream 'oc', so that the rest of a seed's puzzle is the one it
 * was before optional cells had colours. */
static unsigned char rc_optional(uint64_t *oc, unsigned char v, bool empty,
                                 const int *pal, int npal)
{
	int col = value_colour(v, true);
	if (rnd(oc, 2) == 0)
		return PUZ_OPTIONAL;
	if (empty)
		return (unsigned char)(PUZ_OPTIONAL + pal[rnd(oc, npal)]);
	return (unsigned char)(PUZ_OPTIONAL + (col > 0 ? col : 0));
}

static int rc_build(uint64_t seed, uint64_t *s, struct puzzle *p)
{
	struct csym sy[NSYM];
	make_syms(sy);
	uint64_t oc = seed * 0xD1B54A32D192ED03u + 0x0C0105ED0F7u;
	/* Now and then a puzzle made to have a renaming among its symmetries:
	 * a half, and its copy one layer up whose pieces have the first two
	 * colours swapped, on a plain goal. */
	bool swap_mode = rnd(s, 4) == 0;
	int b[3], vol, maxg = swap_mode ? 6 : 12;
	do {
		b[0] = 1 + rnd(s, 3);
		b[1] = 1 + rnd(s, 3);
		b[2] = swap_mode ? 1 : 1 + rnd(s, 2);
		vol = b[0] * b[1] * b[2];
	} while (vol < 2);

	/* the goal: the whole box or a connected part of it */
	int g[RC_MAXG][3], ng = 0;
	if (vol <= maxg && rnd(s, 2) == 0) {
		for (int z = 0; z < b[2]; z++)
			for (int y = 0; y < b[1]; y++)
				for (int x = 0; x < b[0]; x++) {
					g[ng][0] = x;
					g[ng][1] = y;
					g[ng][2] = z;
					ng++;
				}
	} else {
		int top = vol < maxg ? vol : maxg;
		ng = rc_blob(s, b, 2 + rnd(s, top - 1), g);
	}

	/* cut it into connected pieces of 1..4 cells */
	static const int sizes[] = {1, 2, 2, 3, 3, 4};
	int owner[RC_MAXG], np = 0, npc[RC_MAXG];
	for (int i = 0; i < ng; i++)
		owner[i] = -1;
	for (int left = ng; left > 0;) {
		int k = rnd(s, left), start = -1;
		for (int i = 0; i < ng && start < 0; i++)
			if (owner[i] < 0 && k-- == 0)
				start = i;
		int want = sizes[rnd(s, 6)];
		owner[start] = np;
		npc[np] = 1;
		left--;
		while (npc[np] < want) {
			int cand[RC_MAXG], nc = 0;
			for (int i = 0; i < ng; i++) {
				if (owner[i] >= 0)
					continue;
				for (int j = 0; j < ng; j++)
					if (owner[j] == np && rc_adjacent(g[i], g[j])) {
						cand[nc++] = i;
						break;
					}
			}
			if (nc == 0)
				break;
			owner[cand[rnd(s, nc)]] = np;
			npc[np]++;
			left--;
		}
		np++;
	}

	/* colours: 1..4 letters of a..f; each puzzle its own share of plain */
	int pal[4], npal = swap_mode ? 2 + rnd(s, 2) : 1 + rnd(s, 4);
	for (int i = 0; i < npal;) {
		int c = 1 + rnd(s, 6);
		bool dup = false;
		for (int j = 0; j < i; j++)
			dup |= pal[j] == c;
		if (!dup)
			pal[i++] = c;
	}
	int plain8 = 1 + 2 * rnd(s, 3); /* a piece cell is plain with p/8 */
	int pcol[RC_MAXG];                /* piece colour on each goal cell */
	for (int i = 0; i < ng; i++)
		pcol[i] = rnd(s, 8) < plain8 ? 0 : pal[rnd(s, npal)];
	unsigned char swap[NCOL]; /* pal[0] <-> pal[1] */
	for (int c = 0; c < NCOL; c++)
		swap[c] = (unsigned char)c;
	if (swap_mode) {
		swap[pal[0]] = (unsigned char)pal[1];
		swap[pal[1]] = (unsigned char)pal[0];
		for (int i = 0; i < ng; i++) {
			memcpy(g[ng + i], g[i], sizeof g[i]);
			g[ng + i][2]++;
			owner[ng + i] = owner[i] + np;
			pcol[ng + i] = swap[pcol[i]];
		}
		ng *= 2;
		np *= 2;
		b[2] = 2;
	}

	/* the goal's values and, sometimes, a match table that lets them be;
	 * in swap mode the upper layer's are the lower's with the colours
	 * swapped (a symmetry with reflecting z), and so are the needed
	 * entries, while the other entries are made symmetric or not */
	bool use_match = rnd(s, 3) == 0;
	bool sym_match = !swap_mode || rnd(s, 2) == 0;
	uint32_t match[NCOL] = {0};
	unsigned char gv[RC_MAXG];
	for (int i = 0; i < ng; i++) {
		gv[i] = PUZ_CELL;
		if (swap_mode && i >= ng / 2) {
			int lower = i - ng / 2;
			int q = gv[lower] > PUZ_CELL ? swap[gv[lower] - PUZ_CELL] : 0;
			gv[i] = (unsigned char)(PUZ_CELL + q);
			if (q && pcol[i])
				match[pcol[i]] |= 1u << q;
			continue;
		}
		if (pcol[i] && rnd(s, 2) == 0) {
			int q = use_match ? pal[rnd(s, npal)] : pcol[i];
			match[pcol[i]] |= 1u << q;
			gv[i] = (unsigned char)(PUZ_CELL + q);
		} else if (!pcol[i] && rnd(s, 4) == 0) {
			gv[i] = (unsigned char)(PUZ_CELL + pal[rnd(s, npal)]);
		}
	}
	if (use_match)
		for (int i = 0; i < npal; i++)
			for (int j = 0; j < npal; j++)
				if (rnd(s, 4) == 0) {
					match[pal[i]] |= 1u << pal[j];
					if (sym_match)
						match[swap[pal[i]]] |= 1u << swap[pal[j]];
				}

	/* the pieces as cut */
	struct rc_piece pcs[RC_MAXP];
	int npcs = 0;
	memset(pcs, 0, sizeof pcs);
	for (int k = 0; k < np; k++) {
		struct rc_piece *pc = &pcs[npcs++];
		pc->count = 1;
		for (int i = 0; i < ng; i++)
			if (owner[i] == k) {
				memcpy(pc->v[pc->n].c, g[i], sizeof g[i]);
				pc->v[pc->n++].col = pcol[i];
			}
	}

	/* optional cells: a whole piece's (which may then be left out), and
	 * now and then one or two more. An optional cell keeps the goal's
	 * colour half the time (rc_optional); one the cut leaves empty may
	 * take any colour. */
	int shown[RC_MAXG]; /* colour the construction shows on each cell */
	memcpy(shown, pcol, sizeof shown);
	if (rnd(s, 3) == 0) {
		int k = rnd(s, np), how = rnd(s, 3);
		for (int i = 0; i < ng; i++)
			if (owner[i] == k) {
				gv[i] = rc_optional(&oc, gv[i], how == 0, pal, npal);
				if (how == 0)
					shown[i] = 0;
			}
		if (how == 0)
			pcs[k].count = 0; /* dropped below */
		else if (how == 1)
			pcs[k].count_max = 1, pcs[k].count = 0;
	}
	if (rnd(s, 4) == 0)
		for (int m = 1 + rnd(s, 2); m > 0; m--) {
			int i = rnd(s, ng);
			gv[i] = rc_optional(&oc, gv[i], false, pal, npal);
			/* in swap mode its twin in the other layer too, with the
			 * swapped colour, so that the renaming stays a symmetry
			 * (both cells keep their colour or both lose it) */
			if (swap_mode) {
				int j = i < ng / 2 ? i + ng / 2 : i - ng / 2;
				int cj = value_colour(gv[j], true);
				gv[j] = (unsigned char)(PUZ_OPTIONAL +
				                        (value_colour(gv[i], true) ? cj : 0));
			}
		}
	/* in swap mode, half the time, a coloured goal cell and its twin
	 * made optional with their colours: renamings that move coloured
	 * optional cells (a cell is covered as before, so the cut stays an
	 * assembly) */
	if (swap_mode && rnd(&oc, 2) == 0)
		for (int tries = 0; tries < 4; tries++) {
			int i = rnd(&oc, ng / 2), j = i + ng / 2;
			int ci = value_colour(gv[i], true), cj = value_colour(gv[j], true);
			if (ci > 0 && cj > 0) {
				gv[i] = (unsigned char)(PUZ_OPTIONAL + ci);
				gv[j] = (unsigned char)(PUZ_OPTIONAL + cj);
				break;
			}
		}

	/* count ranges, and an extra piece that may be left out */
	for (int k = 0; k < npcs; k++)
		if (pcs[k].count == 1 && pcs[k].count_max == 0 && rnd(s, 8) == 0) {
			pcs[k].count = (unsigned)rnd(s, 2);
			pcs[k].count_max = 2;
		}
	if (rnd(s, 6) == 0) {
		struct rc_piece *pc = &pcs[npcs++];
		pc->n = 1 + rnd(s, 2);
		pc->count = 0;
		pc->count_max = 1 + (unsigned)rnd(s, 2);
		for (int i = 0; i < pc->n; i++) {
			pc->v[i] = (struct ccell){{i, 0, 0}, 0};
			if (rnd(s, 2))
				pc->v[i].col = pal[rnd(s, npal)];
		}
	}

	/* identical pieces into one entry with their counts added */
	if (rnd(s, 2) == 0)
		for (int k = 0; k < npcs; k++)
			for (int j = k + 1; j < npcs; j++) {
				struct rc_piece *u = &pcs[k], *w = &pcs[j];
				if (u->n != w->n || !u->n)
					continue;
				struct ccell cu[4], cw[4], tmp[4];
				canon_shape(sy, u->v, u->n, cu, tmp);
				canon_shape(sy, w->v, w->n, cw, tmp);
				if (shape_cmp(cu, cw, u->n) != 0)
					continue;
				unsigned lo = u->count + w->count;
				unsigned hi = (u->count_max ? u->count_max : u->count) +
				              (w->count_max ? w->count_max : w->count);
				u->count = lo;
				u->count_max = hi > lo ? hi : 0;
				w->n = 0; /* merged */
			}

	/* a perturbation: one piece cell changes colour */
	int rc = 0;
	if (rnd(s, 8) == 0) {
		struct rc_piece *pc = &pcs[rnd(s, npcs)];
		if (pc->n > 0) {
			struct ccell *c = &pc->v[rnd(s, pc->n)];
			int to = rnd(s, npal + 1);
			to = to == npal ? 0 : pal[to];
			if (to != c->col) {
				c->col = to;
				rc = 1;
			}
		}
	}

	/* the goal grid, now and then with an empty margin */
	int dim[3], off[3] = {0, 0, 0};
	memcpy(dim, b, sizeof dim);
	if (rnd(s, 10) == 0) {
		int a = rnd(s, 3);
		dim[a]++;
		off[a] = rnd(s, 2);
	}
	snprintf(p->name, sizeof p->name, "colref random seed %" PRIu64, seed);
	if (puz_grid_init(&p->goal, dim[0], dim[1], dim[2]) != PUZ_OK)
		return -1;
	size_t gidx[RC_MAXG];
	for (int i = 0; i < ng; i++) {
		gidx[i] = puz_grid_index(&p->goal, g[i][0] + off[0], g[i][1] + off[1],
		                         g[i][2] + off[2]);
		p->goal.cells[gidx[i]] = gv[i];
	}
	/* a blob may leave the box's sides empty: then the goal's own box is
	 * smaller, and that is what the faces are */
	int lo[3] = {99, 99, 99}, hi[3] = {-1, -1, -1};
	for (int i = 0; i < ng; i++)
		for (int a = 0; a < 3; a++) {
			lo[a] = g[i][a] < lo[a] ? g[i][a] : lo[a];
			hi[a] = g[i][a] > hi[a] ? g[i][a] : hi[a];
		}

	/* regions: distinct ones the construction satisfies (mostly), and a
	 * region that is not distinct */
	uint64_t sets[8], regmask[3];
	bool regdistinct[3];
	int nsets = 0, nreg = 0;
	int want_distinct = rnd(s, 4) == 0 ? 1 + rnd(s, 2) : 0;
	int want_plain = rnd(s, 8) == 0;
	for (int k = 0; k < want_distinct + want_plain; k++) {
		bool distinct = k < want_distinct;
		uint64_t m = 0;
		for (int tries = 0; tries < 8; tries++) {
			m = 0;
			for (int i = 0; i < ng; i++)
				if (rnd(s, 2))
					m |= (uint64_t)1 << i;
			if (rc_popcount(m) >= 2 &&
			    (!distinct || !rc_twice(shown, ng, &m, 1)))
				break;
		}
		if (rc_popcount(m) < 2)
			continue;
		regmask[nreg] = m;
		regdistinct[nreg++] = distinct;
		if (distinct)
			sets[nsets++] = m;
	}
	bool faces = rnd(s, 8) == 0;
	if (faces)
		for (int a = 0; a < 3; a++)
			for (int side = 0; side < 2; side++) {
				uint64_t m = 0;
				for (int i = 0; i < ng; i++)
					if (g[i][a] == (side ? hi[a] : lo[a]))
						m |= (uint64_t)1 << i;
				sets[nsets++] = m;
			}
	if (rc_twice(shown, ng, sets, nsets))
		rc = 1;
	p->distinct_faces = faces;
	if (nreg) {
		p->regions = calloc((size_t)nreg, sizeof *p->regions);
		if (!p->regions)
			return -1;
	}
	for (int k = 0; k < nreg; k++) {
		struct puz_region *rg = &p->regions[k];
		rg->cells = calloc((size_t)dim[0] * (size_t)dim[1] * (size_t)dim[2], 1);
		if (!rg->cells)
			return -1; /* the regions so far are freed with p */
		p->nregions++;
		snprintf(rg->name, sizeof rg->name, "r%d", k + 1);
		rg->distinct = regdistinct[k];
		for (int i = 0; i < ng; i++)
			if (regmask[k] >> i & 1)
				rg->cells[gidx[i]] = 1;
	}
	/* A file's match lines name only colours some piece cell and some
	 * goal cell have (formats/puzread.c checks it): keep those entries,
	 * and no table when none is left. */
	uint32_t pused = 0, gused = 0;
	for (int k = 0; k < npcs; k++)
		for (int i = 0; i < pcs[k].n && (pcs[k].count || pcs[k].count_max); i++)
			pused |= 1u << pcs[k].v[i].col;
	for (int i = 0; i < ng; i++)
		if (value_colour(gv[i], true) > 0)
			gused |= 1u << value_colour(gv[i], true);
	for (int c = 1; c < NCOL && use_match; c++) {
		match[c] = pused >> c & 1u ? match[c] & gused & ~1u : 0;
		if (match[c])
			p->has_match = true;
	}
	if (p->has_match)
		memcpy(p->match, match, sizeof p->match);

	/* the pieces, each turned by a random rotation */
	p->pieces = calloc((size_t)npcs, sizeof *p->pieces);
	if (!p->pieces)
		return -1;
	for (int k = 0; k < npcs; k++) {
		struct rc_piece *pc = &pcs[k];
		if (pc->n == 0 || (pc->count == 0 && pc->count_max == 0))
			continue;
		int sk;
		do
			sk = rnd(s, NSYM);
		while (sy[sk].det != 1);
		struct ccell v[4];
		shape_image(&sy[sk], NULL, pc->v, pc->n, v);
		int top[3] = {0, 0, 0};
		for (int i = 0; i < pc->n; i++)
			for (int a = 0; a < 3; a++)
				top[a] = v[i].c[a] > top[a] ? v[i].c[a] : top[a];
		struct puz_piece *out = &p->pieces[p->npieces];
		if (puz_grid_init(&out->shape, top[0] + 1, top[1] + 1, top[2] + 1) != PUZ_OK)
			return -1;
		p->npieces++;
		snprintf(out->name, sizeof out->name, "p%d", k + 1);
		out->count = pc->count;
		out->count_max = pc->count_max;
		for (int i = 0; i < pc->n; i++)
			out->shape.cells[puz_grid_index(&out->shape, v[i].c[0], v[i].c[1],
			                                v[i].c[2])] =
				(unsigned char)(PUZ_CELL + v[i].col);
	}
	return rc;
}

int colref_random(uint64_t seed, struct puzzle *out)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15u + 0x243F6A8885A308D3u;
	struct puzzle p;
	memset(&p, 0, sizeof p);
	memset(out, 0, sizeof *out);
	int rc = rc_build(seed, &s, &p);
	if (rc < 0) {
		puz_clear(&p);
		return -1;
	}
	*out = p;
	return rc;
}
