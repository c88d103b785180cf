/*
 * brute.c: the independent brute-force reference counter (see brute.h).
 *
 * Correctness and clarity come first; the concessions to speed are a
 * volume check before searching, trying each orientation of a piece only
 * with the one cell that can land on the first empty goal cell, encoding
 * each symmetric image only until it compares larger than the best so
 * far, and storing only canonical forms (deduped now and then by
 * sorting).
 */
#include "tests/brute.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define NMAT 48
#define MAX_FORM_BYTES ((size_t)256 << 20) /* memory cap per store of forms */

struct vox {
	int c[3]; /* x, y, z */
};

/* A signed 3x3 permutation matrix: v'[i] = sign[i] * v[axis[i]]. */
struct mat {
	int axis[3], sign[3];
	int det; /* +1 proper, -1 improper */
};

struct btype {
	int n;               /* cells */
	unsigned long count; /* pieces of this type */
	struct vox *canon;   /* n cells: the canonical (minimal) orientation */
	int norient;
	struct vox *orient; /* norient * n cells, each normalised and sorted */
	int *first;         /* per orientation: index of its first cell in
	                     * grid order (least z, then y, then x) */
	int mirror;         /* type congruent to the mirror image, -1 none */
	bool single;        /* every entry of this type has count 1 */
	bool sep;           /* separable (brute.h): single, and so is mirror */
};

struct brute {
	/* goal, normalised to its bounding box, cells in grid order */
	int ncells;
	struct vox *cells;
	size_t *flat;  /* goal index -> index in the puzzle's goal grid */
	size_t gtotal; /* cells of the puzzle's goal grid, nx * ny * nz */
	int box[3];
	int *lookup; /* box cell -> goal index, -1 outside the goal */

	int ntypes;
	struct btype *types;
	size_t nentries;  /* the puzzle's piece entries */
	int *entry_type;  /* entry -> type, -1 for an entry with count 0 */
	bool all_sep;     /* every type separable: pi is the identity */

	int ng;
	int *perm;     /* ng * ncells: goal index -> goal index under g */
	int *inv;      /* ng * ncells: the inverse of each */
	bool *improper;

	/* search state */
	int npieces;          /* pieces to place, all types together */
	int *occ;             /* goal index -> region (depth), -1 empty */
	int *region_type;     /* region -> type */
	unsigned long *left;  /* type -> pieces not yet placed */
	uint64_t assemblies;
	int failed;           /* 0, or -1 after an error */

	/* canonical forms (brute_forms records of reclen words) */
	size_t reclen;
	struct brute_forms full;   /* full canonical forms: a set */
	struct brute_forms *kappa; /* when collecting sets: kappa, a set */
	struct brute_forms *pi;    /* and pi with the goal fixed, a multiset */
	uint32_t *cand, *best; /* scratch records */
	uint32_t *raw;         /* scratch record: the encoding under g = id */
	int *ctyp, *preg;      /* scratch: type and region per goal cell */
	int *minidx;           /* scratch: region -> smallest goal index */
	int nminidx;           /* entries of minidx */
};

/* ---- rotations ---------------------------------------------------- */

static void build_mats(struct mat m[NMAT])
{
	static const int perms[6][3] = {
		{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0},
	};
	static const int parity[6] = {1, -1, -1, 1, 1, -1};
	int k = 0;
	for (int p = 0; p < 6; p++) {
		for (int s = 0; s < 8; s++) {
			int det = parity[p];
			for (int i = 0; i < 3; i++) {
				m[k].axis[i] = perms[p][i];
				m[k].sign[i] = (s >> i) & 1 ? -1 : 1;
				det *= m[k].sign[i];
			}
			m[k].det = det;
			k++;
		}
	}
	/* m[0] is the identity */
}

static struct vox apply(const struct mat *m, struct vox v)
{
	struct vox r;
	for (int i = 0; i < 3; i++)
		r.c[i] = m->sign[i] * v.c[m->axis[i]];
	return r;
}

static int vox_cmp(const void *a, const void *b)
{
	const struct vox *u = a, *v = b;
	for (int i = 0; i < 3; i++)
		if (u->c[i] != v->c[i])
			return u->c[i] < v->c[i] ? -1 : 1;
	return 0;
}

/* Lexicographic comparison of two voxel lists of n cells. */
static int list_cmp(const struct vox *a, const struct vox *b, int n)
{
	for (int i = 0; i < n; i++) {
		int c = vox_cmp(&a[i], &b[i]);
		if (c)
			return c;
	}
	return 0;
}

/* Translate the min corner to 0 and sort. */
static void normalise(struct vox *v, int n)
{
	int lo[3] = {v[0].c[0], v[0].c[1], v[0].c[2]};
	for (int i = 1; i < n; i++)
		for (int a = 0; a < 3; a++)
			if (v[i].c[a] < lo[a])
				lo[a] = v[i].c[a];
	for (int i = 0; i < n; i++)
		for (int a = 0; a < 3; a++)
			v[i].c[a] -= lo[a];
	qsort(v, (size_t)n, sizeof *v, vox_cmp);
}

/* 'out' = canonical form of 'in' (n cells): the lexicographic minimum of
 * the normalised sorted images under the 24 proper rotations. 'tmp' is
 * scratch of n cells. */
static void canonical(const struct mat m[NMAT], const struct vox *in, int n,
                      struct vox *out, struct vox *tmp)
{
	bool have = false;
	for (int g = 0; g < NMAT; g++) {
		if (m[g].det != 1)
			continue;
		for (int i = 0; i < n; i++)
			tmp[i] = apply(&m[g], in[i]);
		normalise(tmp, n);
		if (!have || list_cmp(tmp, out, n) < 0) {
			memcpy(out, tmp, (size_t)n * sizeof *out);
			have = true;
		}
	}
}

/* ---- setup -------------------------------------------------------- */

static void brute_free(struct brute *b)
{
	free(b->cells);
	free(b->flat);
	free(b->lookup);
	for (int t = 0; t < b->ntypes; t++) {
		free(b->types[t].canon);
		free(b->types[t].orient);
		free(b->types[t].first);
	}
	free(b->types);
	free(b->entry_type);
	free(b->perm);
	free(b->inv);
	free(b->improper);
	free(b->occ);
	free(b->region_type);
	free(b->left);
	brute_forms_clear(&b->full);
	free(b->cand);
	free(b->best);
	free(b->raw);
	free(b->ctyp);
	free(b->preg);
	free(b->minidx);
}

/* The cells of a grid, in grid order (x fastest, then y, then z). */
static struct vox *grid_cells(const struct grid *g, int *n)
{
	size_t cnt = 0;
	size_t total = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	for (size_t i = 0; i < total; i++)
		cnt += g->cells[i] != 0;
	*n = (int)cnt;
	if (cnt == 0 || cnt > 65535)
		return NULL;
	struct vox *v = malloc(cnt * sizeof *v);
	if (!v)
		return NULL;
	size_t k = 0;
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++)
				if (g->cells[puz_grid_index(g, x, y, z)])
					v[k++] = (struct vox){{x, y, z}};
	return v;
}

static int setup_goal(struct brute *b, const struct grid *goal)
{
	b->cells = grid_cells(goal, &b->ncells);
	if (!b->cells)
		return -1;
	b->gtotal = (size_t)goal->nx * (size_t)goal->ny * (size_t)goal->nz;
	b->flat = malloc((size_t)b->ncells * sizeof *b->flat);
	if (!b->flat)
		return -1;
	for (int i = 0; i < b->ncells; i++) {
		const int *c = b->cells[i].c;
		b->flat[i] = puz_grid_index(goal, c[0], c[1], c[2]);
	}
	/* translate the min corner to 0; grid order is kept */
	int lo[3] = {goal->nx, goal->ny, goal->nz}, hi[3] = {0, 0, 0};
	for (int i = 0; i < b->ncells; i++)
		for (int a = 0; a < 3; a++) {
			if (b->cells[i].c[a] < lo[a])
				lo[a] = b->cells[i].c[a];
			if (b->cells[i].c[a] > hi[a])
				hi[a] = b->cells[i].c[a];
		}
	for (int a = 0; a < 3; a++)
		b->box[a] = hi[a] - lo[a] + 1;
	for (int i = 0; i < b->ncells; i++)
		for (int a = 0; a < 3; a++)
			b->cells[i].c[a] -= lo[a];
	size_t vol = (size_t)b->box[0] * (size_t)b->box[1] * (size_t)b->box[2];
	b->lookup = malloc(vol * sizeof *b->lookup);
	if (!b->lookup)
		return -1;
	for (size_t i = 0; i < vol; i++)
		b->lookup[i] = -1;
	for (int i = 0; i < b->ncells; i++) {
		const int *c = b->cells[i].c;
		b->lookup[c[0] + b->box[0] * (c[1] + b->box[1] * c[2])] = i;
	}
	return 0;
}

/* Goal index of v, or -1 when v is outside the goal. */
static int goal_at(const struct brute *b, struct vox v)
{
	for (int a = 0; a < 3; a++)
		if (v.c[a] < 0 || v.c[a] >= b->box[a])
			return -1;
	return b->lookup[v.c[0] + b->box[0] * (v.c[1] + b->box[1] * v.c[2])];
}

static int find_type(const struct brute *b, const struct vox *canon, int n)
{
	for (int t = 0; t < b->ntypes; t++)
		if (b->types[t].n == n && list_cmp(b->types[t].canon, canon, n) == 0)
			return t;
	return -1;
}

/* Whether u comes before v in grid order (z slowest, x fastest). */
static bool grid_before(struct vox u, struct vox v)
{
	for (int a = 2; a >= 0; a--)
		if (u.c[a] != v.c[a])
			return u.c[a] < v.c[a];
	return false;
}

static int setup_types(struct brute *b, const struct puzzle *p,
                       const struct mat m[NMAT])
{
	b->types = calloc(p->npieces ? p->npieces : 1, sizeof *b->types);
	b->entry_type = malloc((p->npieces ? p->npieces : 1) * sizeof *b->entry_type);
	if (!b->types || !b->entry_type)
		return -1;
	b->nentries = p->npieces;
	for (size_t i = 0; i < p->npieces; i++) {
		b->entry_type[i] = -1;
		if (p->pieces[i].count == 0)
			continue;
		int n;
		struct vox *v = grid_cells(&p->pieces[i].shape, &n);
		if (!v)
			return -1;
		struct vox *canon = malloc((size_t)n * sizeof *canon);
		struct vox *tmp = malloc((size_t)n * sizeof *tmp);
		if (!canon || !tmp) {
			free(v);
			free(canon);
			free(tmp);
			return -1;
		}
		canonical(m, v, n, canon, tmp);
		free(v);
		free(tmp);
		int t = find_type(b, canon, n);
		if (t >= 0) {
			b->types[t].count += p->pieces[i].count;
			b->types[t].single &= p->pieces[i].count == 1;
			free(canon);
		} else {
			t = b->ntypes++;
			struct btype *bt = &b->types[t];
			bt->n = n;
			bt->count = p->pieces[i].count;
			bt->canon = canon;
			bt->single = p->pieces[i].count == 1;
		}
		b->entry_type[i] = t;
	}
	if (b->ntypes > 65535)
		return -1;

	/* distinct orientations and mirror images */
	for (int t = 0; t < b->ntypes; t++) {
		struct btype *bt = &b->types[t];
		int n = bt->n;
		bt->orient = malloc((size_t)24 * (size_t)n * sizeof *bt->orient);
		bt->first = malloc(24 * sizeof *bt->first);
		struct vox *tmp = malloc((size_t)n * sizeof *tmp);
		struct vox *mir = malloc((size_t)n * sizeof *mir);
		if (!bt->orient || !bt->first || !tmp || !mir) {
			free(tmp);
			free(mir);
			return -1;
		}
		for (int g = 0; g < NMAT; g++) {
			if (m[g].det != 1)
				continue;
			for (int i = 0; i < n; i++)
				tmp[i] = apply(&m[g], bt->canon[i]);
			normalise(tmp, n);
			bool seen = false;
			for (int o = 0; o < bt->norient && !seen; o++)
				seen = list_cmp(&bt->orient[(size_t)o * (size_t)n], tmp, n) == 0;
			if (seen)
				continue;
			int f = 0;
			for (int i = 1; i < n; i++)
				if (grid_before(tmp[i], tmp[f]))
					f = i;
			bt->first[bt->norient] = f;
			memcpy(&bt->orient[(size_t)bt->norient++ * (size_t)n], tmp,
			       (size_t)n * sizeof *tmp);
		}
		for (int i = 0; i < n; i++) {
			mir[i] = bt->canon[i];
			mir[i].c[0] = -mir[i].c[0];
		}
		struct vox *mcanon = malloc((size_t)n * sizeof *mcanon);
		if (!mcanon) {
			free(tmp);
			free(mir);
			return -1;
		}
		canonical(m, mir, n, mcanon, tmp);
		bt->mirror = find_type(b, mcanon, n);
		free(mcanon);
		free(tmp);
		free(mir);
	}

	/* separability must not depend on the handedness (brute.h) */
	b->all_sep = true;
	for (int t = 0; t < b->ntypes; t++) {
		struct btype *bt = &b->types[t];
		bt->sep = bt->single && (bt->mirror < 0 || b->types[bt->mirror].single);
		b->all_sep &= bt->sep;
	}
	return 0;
}

static bool mirror_closed(const struct brute *b)
{
	for (int t = 0; t < b->ntypes; t++) {
		int u = b->types[t].mirror;
		if (u < 0 || b->types[u].count != b->types[t].count)
			return false;
	}
	return true;
}

static int setup_group(struct brute *b, const struct mat m[NMAT], bool mirror)
{
	int nc = b->ncells;
	b->perm = malloc((size_t)NMAT * (size_t)nc * sizeof *b->perm);
	b->inv = malloc((size_t)NMAT * (size_t)nc * sizeof *b->inv);
	b->improper = calloc(NMAT, sizeof *b->improper);
	struct vox *img = malloc((size_t)nc * sizeof *img);
	if (!b->perm || !b->inv || !b->improper || !img) {
		free(img);
		return -1;
	}
	for (int g = 0; g < NMAT; g++) {
		if (m[g].det != 1 && !mirror)
			continue;
		int lo[3];
		for (int i = 0; i < nc; i++) {
			img[i] = apply(&m[g], b->cells[i]);
			for (int a = 0; a < 3; a++)
				if (i == 0 || img[i].c[a] < lo[a])
					lo[a] = img[i].c[a];
		}
		int *pg = &b->perm[(size_t)b->ng * (size_t)nc];
		bool ok = true;
		for (int i = 0; i < nc && ok; i++) {
			for (int a = 0; a < 3; a++)
				img[i].c[a] -= lo[a];
			pg[i] = goal_at(b, img[i]);
			ok = pg[i] >= 0;
		}
		/* an injective map of the goal into itself is onto */
		if (!ok)
			continue;
		int *ig = &b->inv[(size_t)b->ng * (size_t)nc];
		for (int i = 0; i < nc; i++)
			ig[pg[i]] = i;
		b->improper[b->ng++] = m[g].det != 1;
	}
	free(img);
	return 0;
}

/* Everything but the search: goal, types, group (whether mirror-closed
 * into '*mirror') and the scratch records for canonical forms. */
static int setup(struct brute *b, const struct puzzle *p, bool *mirror)
{
	struct mat m[NMAT];
	build_mats(m);
	if (setup_goal(b, &p->goal) != 0 || setup_types(b, p, m) != 0)
		return -1;
	*mirror = mirror_closed(b);
	if (setup_group(b, m, *mirror) != 0)
		return -1;
	int nc = b->ncells;
	b->reclen = 1 + 2 * (size_t)nc;
	brute_forms_init(&b->full, b->reclen, true);
	b->cand = malloc(b->reclen * sizeof *b->cand);
	b->best = malloc(b->reclen * sizeof *b->best);
	b->raw = malloc(b->reclen * sizeof *b->raw);
	b->ctyp = malloc((size_t)nc * sizeof *b->ctyp);
	b->preg = malloc((size_t)nc * sizeof *b->preg);
	if (!b->cand || !b->best || !b->raw || !b->ctyp || !b->preg)
		return -1;
	return 0;
}

/* Room for region ids 0..n-1 in canon_form(). */
static int setup_minidx(struct brute *b, size_t n)
{
	if (n > (size_t)INT_MAX)
		return -1;
	b->minidx = malloc((n ? n : 1) * sizeof *b->minidx);
	b->nminidx = (int)n;
	return b->minidx ? 0 : -1;
}

/* ---- sets of forms ------------------------------------------------ */

void brute_forms_init(struct brute_forms *f, size_t len, bool set)
{
	memset(f, 0, sizeof *f);
	f->len = len;
	f->set = set;
}

void brute_forms_clear(struct brute_forms *f)
{
	free(f->rec);
	f->rec = NULL;
	f->n = f->cap = 0;
}

static int rec_cmp(const void *a, const void *b)
{
	const uint32_t *u = a, *v = b;
	for (uint32_t i = 1; i < u[0]; i++)
		if (u[i] != v[i])
			return u[i] < v[i] ? -1 : 1;
	return 0;
}

void brute_forms_sort(struct brute_forms *f)
{
	size_t rl = f->len;
	if (f->n < 2)
		return;
	qsort(f->rec, f->n, rl * sizeof *f->rec, rec_cmp);
	if (!f->set)
		return;
	size_t k = 1; /* records kept so far */
	for (size_t i = 1; i < f->n; i++) {
		if (rec_cmp(&f->rec[(k - 1) * rl], &f->rec[i * rl]) == 0)
			continue;
		if (k != i)
			memcpy(&f->rec[k * rl], &f->rec[i * rl], rl * sizeof *f->rec);
		k++;
	}
	f->n = k;
}

int brute_forms_add(struct brute_forms *f, const uint32_t *rec)
{
	size_t rl = f->len;
	assert(rl >= 1 && rec[0] == rl);
	if (f->n == f->cap) {
		/* a set first drops its duplicates; it grows only when that
		 * frees less than half, so sorting stays amortised */
		if (f->set)
			brute_forms_sort(f);
		if (!f->set || f->n * 2 >= f->cap) {
			size_t cap = f->cap ? 2 * f->cap : 64;
			if (cap > MAX_FORM_BYTES / sizeof *f->rec / rl)
				return -1;
			uint32_t *r = realloc(f->rec, cap * rl * sizeof *r);
			if (!r)
				return -1;
			f->rec = r;
			f->cap = cap;
		}
	}
	memcpy(&f->rec[f->n * rl], rec, rl * sizeof *rec);
	f->n++;
	return 0;
}

size_t brute_forms_missing(const struct brute_forms *a,
                           const struct brute_forms *b)
{
	if (a->len != b->len)
		return a->n;
	size_t rl = a->len, i = 0, j = 0, miss = 0;
	while (i < a->n) {
		if (j == b->n)
			return miss + (a->n - i);
		int c = rec_cmp(&a->rec[i * rl], &b->rec[j * rl]);
		if (c == 0) {
			i++;
			j++;
		} else if (c < 0) {
			miss++;
			i++;
		} else {
			j++;
		}
	}
	return miss;
}

bool brute_forms_equal(const struct brute_forms *a, const struct brute_forms *b)
{
	return a->len == b->len && a->n == b->n && brute_forms_missing(a, b) == 0;
}

bool brute_forms_has(const struct brute_forms *f, const uint32_t *rec)
{
	if (rec[0] != f->len)
		return false;
	size_t lo = 0, hi = f->n; /* half-open range still possible */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = rec_cmp(&f->rec[mid * f->len], rec);
		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* ---- canonical forms of assemblies -------------------------------- */

/* The canonical form, into b->best, of the labelled partition of the goal
 * given per goal cell by typ[] (a type) and reg[] (a region id below
 * b->nminidx; cells with one id form one region): the least over g in G
 * of the encoding, per goal cell in grid order, of (type, smallest goal
 * index of its region). 'raw', when not NULL, gets the encoding under
 * the identity (g = 0: m[0] is the identity and always in G).
 *
 * Each image is encoded cell by cell while it is compared with the best
 * so far, and dropped at the first cell where it is larger: most images
 * lose within a few cells. */
static void canon_form(struct brute *b, const int *typ, const int *reg,
                       uint32_t *raw)
{
	int nc = b->ncells;
	uint32_t *best = b->best, *cand = b->cand;
	for (int g = 0; g < b->ng; g++) {
		const int *inv = &b->inv[(size_t)g * (size_t)nc];
		for (int r = 0; r < b->nminidx; r++)
			b->minidx[r] = -1;
		int sign = g == 0 ? -1 : 0; /* cand vs best on the cells so far */
		cand[0] = (uint32_t)b->reclen;
		for (int d = 0; d < nc && sign <= 0; d++) {
			int c = inv[d]; /* the cell g moves onto d */
			int t = typ[c];
			if (b->improper[g])
				t = b->types[t].mirror;
			int r = reg[c];
			if (b->minidx[r] < 0)
				b->minidx[r] = d; /* cells are visited in order */
			cand[1 + 2 * d] = (uint32_t)t;
			cand[2 + 2 * d] = (uint32_t)b->minidx[r];
			for (int k = 1; k <= 2 && sign == 0; k++)
				if (cand[k + 2 * d] != best[k + 2 * d])
					sign = cand[k + 2 * d] < best[k + 2 * d] ? -1 : 1;
		}
		if (sign < 0) {
			uint32_t *sw = best;
			best = cand;
			cand = sw;
		}
		if (g == 0 && raw)
			memcpy(raw, best, b->reclen * sizeof *raw);
	}
	b->best = best;
	b->cand = cand;
}

/* Record the assembly in b->occ / b->region_type: its full canonical form
 * and, when collecting sets, kappa and pi (brute.h). Regions of
 * non-separable types get one id per type, after the piece ids. */
static int found(struct brute *b)
{
	int nc = b->ncells;
	for (int c = 0; c < nc; c++)
		b->ctyp[c] = b->region_type[b->occ[c]];
	canon_form(b, b->ctyp, b->occ, b->kappa ? b->raw : NULL);
	if (brute_forms_add(&b->full, b->best) != 0)
		return -1;
	if (!b->kappa)
		return 0;
	if (!b->all_sep) {
		for (int c = 0; c < nc; c++) {
			int t = b->ctyp[c];
			b->preg[c] = b->types[t].sep ? b->occ[c] : b->npieces + t;
		}
		canon_form(b, b->ctyp, b->preg, b->raw);
	}
	if (brute_forms_add(b->kappa, b->best) != 0 ||
	    brute_forms_add(b->pi, b->raw) != 0)
		return -1;
	return 0;
}

/* ---- search ------------------------------------------------------- */

static void search(struct brute *b, int first, int depth)
{
	if (b->failed)
		return;
	int c = first;
	while (c < b->ncells && b->occ[c] >= 0)
		c++;
	if (c == b->ncells) {
		if (++b->assemblies > BRUTE_MAX_ASSEMBLIES || found(b) != 0)
			b->failed = -1;
		return;
	}
	/* Every goal cell before c is filled, so a piece covering c has its
	 * first cell in grid order on c: any other choice puts that cell on
	 * a filled cell or outside the goal. */
	struct vox at = b->cells[c];
	for (int t = 0; t < b->ntypes; t++) {
		if (b->left[t] == 0)
			continue;
		const struct btype *bt = &b->types[t];
		int n = bt->n;
		for (int o = 0; o < bt->norient; o++) {
			const struct vox *sh = &bt->orient[(size_t)o * (size_t)n];
			int d[3];
			for (int a = 0; a < 3; a++)
				d[a] = at.c[a] - sh[bt->first[o]].c[a];
			int i;
			for (i = 0; i < n; i++) {
				struct vox v = {{sh[i].c[0] + d[0], sh[i].c[1] + d[1],
				                 sh[i].c[2] + d[2]}};
				int gi = goal_at(b, v);
				if (gi < 0 || b->occ[gi] >= 0)
					break;
			}
			if (i < n)
				continue;
			for (i = 0; i < n; i++) {
				struct vox v = {{sh[i].c[0] + d[0], sh[i].c[1] + d[1],
				                 sh[i].c[2] + d[2]}};
				b->occ[goal_at(b, v)] = depth;
			}
			b->region_type[depth] = t;
			b->left[t]--;
			search(b, c + 1, depth + 1);
			b->left[t]++;
			for (i = 0; i < n; i++) {
				struct vox v = {{sh[i].c[0] + d[0], sh[i].c[1] + d[1],
				                 sh[i].c[2] + d[2]}};
				b->occ[goal_at(b, v)] = -1;
			}
			if (b->failed)
				return;
		}
	}
}

/* ---- entry points ------------------------------------------------- */

/* Count into '*out' and, when 'sets' is not NULL, collect its forms (its
 * brute_forms already initialised). */
static int run(struct brute *b, const struct puzzle *p, struct brute_result *out,
               struct brute_solset *sets)
{
	if (setup(b, p, &out->mirror_closed) != 0)
		return -1;
	out->group_order = b->ng;
	if (sets) {
		brute_forms_init(&sets->solutions, b->reclen, true);
		brute_forms_init(&sets->assemblies, b->reclen, false);
		sets->ntypes = b->ntypes;
		sets->exact = b->all_sep;
		b->kappa = &sets->solutions;
		b->pi = &sets->assemblies;
	}

	/* the pieces must fill the goal exactly */
	unsigned long long vol = 0, npieces = 0;
	for (int t = 0; t < b->ntypes; t++) {
		vol += (unsigned long long)b->types[t].n * b->types[t].count;
		npieces += b->types[t].count;
	}
	if (vol != (unsigned long long)b->ncells)
		return 0;

	int nc = b->ncells;
	b->npieces = (int)npieces; /* <= nc: every piece has a cell */
	if (setup_minidx(b, (size_t)b->npieces + (size_t)b->ntypes) != 0)
		return -1;
	b->occ = malloc((size_t)nc * sizeof *b->occ);
	b->region_type = malloc((size_t)npieces * sizeof *b->region_type);
	b->left = malloc((size_t)b->ntypes * sizeof *b->left);
	if (!b->occ || !b->region_type || !b->left)
		return -1;
	for (int c = 0; c < nc; c++)
		b->occ[c] = -1;
	for (int t = 0; t < b->ntypes; t++)
		b->left[t] = b->types[t].count;

	search(b, 0, 0);
	if (b->failed)
		return -1;
	brute_forms_sort(&b->full);
	out->assemblies = b->assemblies;
	out->solutions = b->full.n;
	if (sets) {
		brute_forms_sort(&sets->solutions);
		brute_forms_sort(&sets->assemblies);
	}
	return 0;
}

int brute_count(const struct puzzle *p, struct brute_result *out)
{
	struct brute b;
	memset(&b, 0, sizeof b);
	memset(out, 0, sizeof *out);
	int rc = run(&b, p, out, NULL);
	brute_free(&b);
	if (rc != 0)
		memset(out, 0, sizeof *out);
	return rc;
}

int brute_solutions(const struct puzzle *p, struct brute_solset *out)
{
	struct brute b;
	memset(&b, 0, sizeof b);
	memset(out, 0, sizeof *out);
	int rc = run(&b, p, &out->counts, out);
	brute_free(&b);
	if (rc != 0)
		brute_solset_clear(out);
	return rc;
}

void brute_solset_clear(struct brute_solset *s)
{
	brute_forms_clear(&s->solutions);
	brute_forms_clear(&s->assemblies);
	memset(s, 0, sizeof *s);
}

/* ---- canonical forms of label grids ------------------------------- */

struct brute_canon {
	struct brute b; /* set up, never searched */
};

struct brute_canon *brute_canon_new(const struct puzzle *p)
{
	struct brute_canon *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	bool mirror;
	/* ids: an entry index for a separable type, nentries + type else */
	if (setup(&c->b, p, &mirror) != 0 ||
	    setup_minidx(&c->b, c->b.nentries + (size_t)c->b.ntypes) != 0) {
		brute_canon_free(c);
		return NULL;
	}
	return c;
}

void brute_canon_free(struct brute_canon *c)
{
	if (!c)
		return;
	brute_free(&c->b);
	free(c);
}

size_t brute_canon_len(const struct brute_canon *c)
{
	return c->b.reclen;
}

int brute_canonical(struct brute_canon *c, const unsigned char *labels,
                    uint32_t *form, uint32_t *raw)
{
	struct brute *b = &c->b;
	size_t k = 0; /* goal cells seen; b->flat is increasing */
	for (size_t i = 0; i < b->gtotal; i++) {
		unsigned lab = labels[i];
		if (k == (size_t)b->ncells || b->flat[k] != i) {
			if (lab != 0)
				return -1;
			continue;
		}
		if (lab == 0 || lab > b->nentries || b->entry_type[lab - 1] < 0)
			return -1;
		int t = b->entry_type[lab - 1];
		b->ctyp[k] = t;
		/* a separable type's entries have count 1: a label is a piece */
		b->preg[k] = b->types[t].sep ? (int)(lab - 1) : (int)b->nentries + t;
		k++;
	}
	canon_form(b, b->ctyp, b->preg, raw ? b->raw : NULL);
	memcpy(form, b->best, b->reclen * sizeof *form);
	if (raw)
		memcpy(raw, b->raw, b->reclen * sizeof *raw);
	return 0;
}
