/*
 * brute.c: the independent brute-force reference counter (see brute.h).
 *
 * Correctness and clarity come first; the only concessions to speed are a
 * volume check before searching and storing only canonical forms (deduped
 * now and then by sorting).
 */
#include "tests/brute.h"

#include <stdlib.h>
#include <string.h>

#define NMAT 48
#define MAX_FORM_BYTES ((size_t)256 << 20) /* memory cap for stored forms */

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
	int mirror;         /* type congruent to the mirror image, -1 none */
};

struct brute {
	/* goal, normalised to its bounding box, cells in grid order */
	int ncells;
	struct vox *cells;
	int box[3];
	int *lookup; /* box cell -> goal index, -1 outside the goal */

	int ntypes;
	struct btype *types;

	int ng;
	int *perm;     /* ng * ncells: goal index -> goal index under g */
	bool *improper;

	/* search state */
	int *occ;             /* goal index -> region (depth), -1 empty */
	int *region_type;     /* region -> type */
	unsigned long *left;  /* type -> pieces not yet placed */
	uint64_t assemblies;
	int failed;           /* 0, or -1 after an error */

	/* canonical forms: records of 1 + 2*ncells uint32_t, the first being
	 * the record length so the qsort comparator can read it */
	size_t reclen;
	uint32_t *forms;
	size_t nforms, capforms;
	uint32_t *cand, *best; /* scratch records */
	uint32_t *nt, *nr;     /* scratch: transformed types and regions */
	int *minidx;           /* scratch: region -> smallest goal index */
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
	free(b->lookup);
	for (int t = 0; t < b->ntypes; t++) {
		free(b->types[t].canon);
		free(b->types[t].orient);
	}
	free(b->types);
	free(b->perm);
	free(b->improper);
	free(b->occ);
	free(b->region_type);
	free(b->left);
	free(b->forms);
	free(b->cand);
	free(b->best);
	free(b->nt);
	free(b->nr);
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
				if (g->cells[grid_index(g, x, y, z)])
					v[k++] = (struct vox){{x, y, z}};
	return v;
}

static int setup_goal(struct brute *b, const struct grid *goal)
{
	b->cells = grid_cells(goal, &b->ncells);
	if (!b->cells)
		return -1;
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

static int setup_types(struct brute *b, const struct puzzle *p,
                       const struct mat m[NMAT])
{
	b->types = calloc(p->npieces ? p->npieces : 1, sizeof *b->types);
	if (!b->types)
		return -1;
	for (size_t i = 0; i < p->npieces; i++) {
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
			free(canon);
		} else {
			struct btype *bt = &b->types[b->ntypes++];
			bt->n = n;
			bt->count = p->pieces[i].count;
			bt->canon = canon;
		}
	}
	if (b->ntypes > 65535)
		return -1;

	/* distinct orientations and mirror images */
	for (int t = 0; t < b->ntypes; t++) {
		struct btype *bt = &b->types[t];
		int n = bt->n;
		bt->orient = malloc((size_t)24 * (size_t)n * sizeof *bt->orient);
		struct vox *tmp = malloc((size_t)n * sizeof *tmp);
		struct vox *mir = malloc((size_t)n * sizeof *mir);
		if (!bt->orient || !tmp || !mir) {
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
			if (!seen)
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
	b->improper = calloc(NMAT, sizeof *b->improper);
	struct vox *img = malloc((size_t)nc * sizeof *img);
	if (!b->perm || !b->improper || !img) {
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
		if (ok)
			b->improper[b->ng++] = m[g].det != 1;
	}
	free(img);
	return 0;
}

/* ---- canonical forms of assemblies -------------------------------- */

static int rec_cmp(const void *a, const void *b)
{
	const uint32_t *u = a, *v = b;
	for (uint32_t i = 1; i < u[0]; i++)
		if (u[i] != v[i])
			return u[i] < v[i] ? -1 : 1;
	return 0;
}

/* Sort the stored forms and drop duplicates. */
static void forms_unique(struct brute *b)
{
	size_t rl = b->reclen;
	if (b->nforms < 2)
		return;
	qsort(b->forms, b->nforms, rl * sizeof *b->forms, rec_cmp);
	size_t k = 1; /* records kept so far */
	for (size_t i = 1; i < b->nforms; i++) {
		if (rec_cmp(&b->forms[(k - 1) * rl], &b->forms[i * rl]) == 0)
			continue;
		if (k != i)
			memcpy(&b->forms[k * rl], &b->forms[i * rl], rl * sizeof *b->forms);
		k++;
	}
	b->nforms = k;
}

static int forms_add(struct brute *b, const uint32_t *rec)
{
	size_t rl = b->reclen;
	if (b->nforms == b->capforms) {
		forms_unique(b);
		if (b->nforms * 2 >= b->capforms) {
			size_t cap = b->capforms ? 2 * b->capforms : 64;
			if (cap * rl * sizeof *b->forms > MAX_FORM_BYTES)
				return -1;
			uint32_t *f = realloc(b->forms, cap * rl * sizeof *f);
			if (!f)
				return -1;
			b->forms = f;
			b->capforms = cap;
		}
	}
	memcpy(&b->forms[b->nforms * rl], rec, rl * sizeof *rec);
	b->nforms++;
	return 0;
}

/* The canonical form of the assembly in b->occ / b->region_type, nregions
 * regions, into b->best. */
static void canon_assembly(struct brute *b, int nregions)
{
	int nc = b->ncells;
	for (int g = 0; g < b->ng; g++) {
		const int *pg = &b->perm[(size_t)g * (size_t)nc];
		for (int c = 0; c < nc; c++) {
			int r = b->occ[c];
			int t = b->region_type[r];
			if (b->improper[g])
				t = b->types[t].mirror;
			b->nt[pg[c]] = (uint32_t)t;
			b->nr[pg[c]] = (uint32_t)r;
		}
		for (int r = 0; r < nregions; r++)
			b->minidx[r] = -1;
		uint32_t *rec = g == 0 ? b->best : b->cand;
		rec[0] = (uint32_t)b->reclen;
		for (int d = 0; d < nc; d++) {
			uint32_t r = b->nr[d];
			if (b->minidx[r] < 0)
				b->minidx[r] = d; /* cells are visited in order */
			rec[1 + 2 * d] = b->nt[d];
			rec[2 + 2 * d] = (uint32_t)b->minidx[r];
		}
		if (g > 0 && rec_cmp(b->cand, b->best) < 0) {
			uint32_t *sw = b->best;
			b->best = b->cand;
			b->cand = sw;
		}
	}
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
		if (++b->assemblies > BRUTE_MAX_ASSEMBLIES) {
			b->failed = -1;
			return;
		}
		canon_assembly(b, depth);
		if (forms_add(b, b->best) != 0)
			b->failed = -1;
		return;
	}
	struct vox at = b->cells[c];
	for (int t = 0; t < b->ntypes; t++) {
		if (b->left[t] == 0)
			continue;
		const struct btype *bt = &b->types[t];
		int n = bt->n;
		for (int o = 0; o < bt->norient; o++) {
			const struct vox *sh = &bt->orient[(size_t)o * (size_t)n];
			for (int anchor = 0; anchor < n; anchor++) {
				int d[3];
				for (int a = 0; a < 3; a++)
					d[a] = at.c[a] - sh[anchor].c[a];
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
}

/* ---- entry point -------------------------------------------------- */

static int run(struct brute *b, const struct puzzle *p, struct brute_result *out)
{
	struct mat m[NMAT];
	build_mats(m);
	if (setup_goal(b, &p->goal) != 0 || setup_types(b, p, m) != 0)
		return -1;
	out->mirror_closed = mirror_closed(b);
	if (setup_group(b, m, out->mirror_closed) != 0)
		return -1;
	out->group_order = b->ng;

	/* the pieces must fill the goal exactly */
	unsigned long long vol = 0, npieces = 0;
	for (int t = 0; t < b->ntypes; t++) {
		vol += (unsigned long long)b->types[t].n * b->types[t].count;
		npieces += b->types[t].count;
	}
	if (vol != (unsigned long long)b->ncells)
		return 0;

	int nc = b->ncells;
	b->reclen = 1 + 2 * (size_t)nc;
	b->occ = malloc((size_t)nc * sizeof *b->occ);
	b->region_type = malloc((size_t)npieces * sizeof *b->region_type);
	b->left = malloc((size_t)b->ntypes * sizeof *b->left);
	b->cand = malloc(b->reclen * sizeof *b->cand);
	b->best = malloc(b->reclen * sizeof *b->best);
	b->nt = malloc((size_t)nc * sizeof *b->nt);
	b->nr = malloc((size_t)nc * sizeof *b->nr);
	b->minidx = malloc((size_t)npieces * sizeof *b->minidx);
	if (!b->occ || !b->region_type || !b->left || !b->cand || !b->best ||
	    !b->nt || !b->nr || !b->minidx)
		return -1;
	for (int c = 0; c < nc; c++)
		b->occ[c] = -1;
	for (int t = 0; t < b->ntypes; t++)
		b->left[t] = b->types[t].count;

	search(b, 0, 0);
	if (b->failed)
		return -1;
	forms_unique(b);
	out->assemblies = b->assemblies;
	out->solutions = b->nforms;
	return 0;
}

int brute_count(const struct puzzle *p, struct brute_result *out)
{
	struct brute b;
	memset(&b, 0, sizeof b);
	memset(out, 0, sizeof *out);
	int rc = run(&b, p, out);
	brute_free(&b);
	if (rc != 0)
		memset(out, 0, sizeof *out);
	return rc;
}
