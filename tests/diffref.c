/*
 * diffref.c: independent references for the difficulty measure and
 * random re-presentations of puzzles (see diffref.h). Its own rotations,
 * congruence, placements and searches; plain cell lists and bit sets.
 */
#include "tests/diffref.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testrand.h"

/* ---- rotations ---------------------------------------------------------- */

/* Rotation r = 4 * p + k: permutation p (parity par[p]), signs of
 * coordinates 0 and 1 from the bits of k, the sign of coordinate 2 making
 * the determinant par[p] * s0 * s1 * s2 equal to +1. */
void diffref_rotate(int r, const int in[3], int out[3])
{
	static const int perm[6][3] = {
		{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2},
	};
	static const int par[6] = {1, 1, 1, -1, -1, -1};
	int p = r / 4, k = r % 4;
	int s0 = k & 1 ? -1 : 1, s1 = k & 2 ? -1 : 1, s2 = par[p] * s0 * s1;
	out[0] = s0 * in[perm[p][0]];
	out[1] = s1 * in[perm[p][1]];
	out[2] = s2 * in[perm[p][2]];
}

/* ---- cell lists ------------------------------------------------------- */

/* n cells as 3n ints (x, y, z). */
struct cells {
	int n;
	int *c;
};

static void cells_free(struct cells *s)
{
	free(s->c);
	s->c = NULL;
	s->n = 0;
}

/* The set cells of 'g', in grid order. -1 when out of memory. */
static int cells_of_grid(const struct grid *g, struct cells *out)
{
	size_t total = (size_t)g->nx * g->ny * g->nz, n = 0;
	for (size_t i = 0; i < total; i++)
		n += g->cells[i] != 0;
	out->n = (int)n;
	out->c = malloc((n ? n : 1) * 3 * sizeof *out->c);
	if (!out->c)
		return -1;
	int k = 0;
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++)
				if (g->cells[puz_grid_index(g, x, y, z)]) {
					out->c[3 * k] = x;
					out->c[3 * k + 1] = y;
					out->c[3 * k + 2] = z;
					k++;
				}
	return 0;
}

/* Translate so that each coordinate's minimum is 0; the extents (max + 1)
 * into ext (when not NULL), the removed minimum into lo (when not NULL). */
static void normalise(int *c, int n, int ext[3], int lo[3])
{
	int mn[3] = {0, 0, 0}, mx[3] = {0, 0, 0};
	for (int a = 0; a < 3; a++) {
		mn[a] = n ? c[a] : 0;
		for (int i = 1; i < n; i++)
			if (c[3 * i + a] < mn[a])
				mn[a] = c[3 * i + a];
	}
	for (int i = 0; i < n; i++)
		for (int a = 0; a < 3; a++) {
			c[3 * i + a] -= mn[a];
			if (c[3 * i + a] > mx[a])
				mx[a] = c[3 * i + a];
		}
	for (int a = 0; a < 3; a++) {
		if (ext)
			ext[a] = n ? mx[a] + 1 : 0;
		if (lo)
			lo[a] = mn[a];
	}
}

/* in rotated by r into out (both 3n ints), normalised. */
static void rotate_cells(int r, const int *in, int n, int *out, int ext[3])
{
	for (int i = 0; i < n; i++)
		diffref_rotate(r, in + 3 * i, out + 3 * i);
	normalise(out, n, ext, NULL);
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* The canonical form of n cells: over the 24 rotations, each normalised,
 * the packed cells x | y << 8 | z << 16 sorted ascending; the least such
 * array. 'out' has n words, 'tmp' 3n ints, 'cand' n words. Coordinates
 * must stay below 256 (every shape here does). */
static void canonical(const int *c, int n, uint32_t *out, int *tmp,
                      uint32_t *cand)
{
	for (int r = 0; r < 24; r++) {
		int ext[3];
		rotate_cells(r, c, n, tmp, ext);
		for (int i = 0; i < n; i++)
			cand[i] = (uint32_t)tmp[3 * i] | (uint32_t)tmp[3 * i + 1] << 8 |
			          (uint32_t)tmp[3 * i + 2] << 16;
		qsort(cand, (size_t)n, sizeof *cand, u32_cmp);
		bool less = r == 0;
		for (int i = 0; !less && i < n; i++)
			if (cand[i] != out[i]) {
				less = cand[i] < out[i];
				break;
			}
		if (less)
			memcpy(out, cand, (size_t)n * sizeof *out);
	}
}

/* Order of canonical forms: by cell count, then lexicographically. */
static int canon_cmp(const uint32_t *a, int na, const uint32_t *b, int nb)
{
	if (na != nb)
		return na < nb ? -1 : 1;
	for (int i = 0; i < na; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* A grid exactly holding the cells (normalised first, into 'c' itself). */
static int grid_of_cells(int *c, int n, struct grid *g)
{
	int ext[3];
	normalise(c, n, ext, NULL);
	for (int a = 0; a < 3; a++)
		if (ext[a] < 1)
			ext[a] = 1;
	if (puz_grid_init(g, ext[0], ext[1], ext[2]) != PUZ_OK)
		return -1;
	for (int i = 0; i < n; i++)
		g->cells[puz_grid_index(g, c[3 * i], c[3 * i + 1], c[3 * i + 2])] = 1;
	return 0;
}

/* Types of the puzzle's pieces: congruence classes by canonical form. */
struct types {
	int n;
	unsigned count[DIFFREF_MAX_TYPES];
	struct cells shape[DIFFREF_MAX_TYPES]; /* normalised, of the first entry */
	uint32_t *canon[DIFFREF_MAX_TYPES];
};

static void types_free(struct types *t)
{
	for (int i = 0; i < t->n; i++) {
		cells_free(&t->shape[i]);
		free(t->canon[i]);
	}
	t->n = 0;
}

/* 0; DIFFREF_NOT_KIND with too many types or an empty piece; -1 OOM. */
static int types_of(const struct puzzle *p, struct types *t)
{
	memset(t, 0, sizeof *t);
	for (size_t e = 0; e < p->npieces; e++) {
		struct cells s;
		if (cells_of_grid(&p->pieces[e].shape, &s) != 0)
			goto oom;
		if (s.n == 0 || s.n > 4096) {
			cells_free(&s);
			types_free(t);
			return DIFFREF_NOT_KIND;
		}
		normalise(s.c, s.n, NULL, NULL);
		uint32_t *cf = malloc((size_t)s.n * sizeof *cf);
		uint32_t *cand = malloc((size_t)s.n * sizeof *cand);
		int *tmp = malloc((size_t)s.n * 3 * sizeof *tmp);
		if (!cf || !cand || !tmp) {
			free(cf);
			free(cand);
			free(tmp);
			cells_free(&s);
			goto oom;
		}
		canonical(s.c, s.n, cf, tmp, cand);
		free(cand);
		free(tmp);
		int k;
		for (k = 0; k < t->n; k++)
			if (canon_cmp(t->canon[k], t->shape[k].n, cf, s.n) == 0)
				break;
		if (k < t->n) {
			t->count[k] += p->pieces[e].count;
			free(cf);
			cells_free(&s);
			continue;
		}
		if (t->n == DIFFREF_MAX_TYPES) {
			free(cf);
			cells_free(&s);
			types_free(t);
			return DIFFREF_NOT_KIND;
		}
		t->shape[t->n] = s;
		t->canon[t->n] = cf;
		t->count[t->n] = p->pieces[e].count;
		t->n++;
	}
	return 0;
oom:
	types_free(t);
	return -1;
}

/* ---- DIFF_PLATES ------------------------------------------------------ */

#define NW (DIFFREF_MAX_BOX / 64)
#define MAXPL 72 /* 8 flat turns times at most 3 x 3 shifts over the centre */

struct bits {
	uint64_t w[NW];
};

struct pref {
	int L[3];
	int nw;
	int ntypes;
	unsigned left[6];
	struct bits *pl;     /* [type][face][MAXPL] */
	int npl[6][6];
	struct bits mask[6]; /* cells that must be covered after step d */
	int order[6];
	uint64_t dead, wins, nodes;
};

static struct bits *pl_at(struct pref *s, int t, int f, int i)
{
	return &s->pl[((size_t)t * 6 + (size_t)f) * MAXPL + (size_t)i];
}

static int box_index(const int L[3], const int c[3])
{
	return c[0] + L[0] * (c[1] + L[1] * c[2]);
}

static void bit_set(struct bits *b, int i)
{
	b->w[i / 64] |= (uint64_t)1 << (i % 64);
}

static int bits_cmp(const void *a, const void *b)
{
	const struct bits *x = a, *y = b;
	for (int i = 0; i < NW; i++)
		if (x->w[i] != y->w[i])
			return x->w[i] < y->w[i] ? -1 : 1;
	return 0;
}

/* Faces of cell c, as a bit mask of face numbers 2 * axis + (at max). */
static unsigned faces_of(const int L[3], const int c[3])
{
	unsigned m = 0;
	for (int a = 0; a < 3; a++) {
		if (c[a] == 0)
			m |= 1u << (2 * a);
		if (c[a] == L[a] - 1)
			m |= 1u << (2 * a + 1);
	}
	return m;
}

static bool has_block(const struct cells *s, int ext[3])
{
	int flat = ext[0] == 1 ? 0 : ext[1] == 1 ? 1 : 2;
	int u = flat == 0 ? 1 : 0, v = flat == 2 ? 1 : 2;
	int w = ext[u], h = ext[v];
	unsigned char *m = calloc((size_t)w * (size_t)h, 1);
	if (!m)
		return false;
	for (int i = 0; i < s->n; i++)
		m[s->c[3 * i + u] + w * s->c[3 * i + v]] = 1;
	bool ok = false;
	for (int y = 0; y + 1 < h && !ok; y++)
		for (int x = 0; x + 1 < w && !ok; x++)
			ok = m[x + w * y] && m[x + 1 + w * y] && m[x + w * (y + 1)] &&
			     m[x + 1 + w * (y + 1)];
	free(m);
	return ok;
}

/* Placements of type t on every face. */
static int plates_place(struct pref *s, const struct cells *shape, int t)
{
	const int *L = s->L;
	int *tmp = malloc((size_t)shape->n * 3 * sizeof *tmp);
	if (!tmp)
		return -1;
	for (int f = 0; f < 6; f++) {
		int a = f / 2, u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
		int at = f % 2 ? L[a] - 1 : 0;
		struct bits centre;
		memset(&centre, 0, sizeof centre);
		for (int i = 1; i < L[u] - 1; i++)
			for (int j = 1; j < L[v] - 1; j++) {
				int c[3];
				c[a] = at;
				c[u] = i;
				c[v] = j;
				bit_set(&centre, box_index(L, c));
			}
		int n = 0;
		for (int r = 0; r < 24; r++) {
			int ext[3];
			rotate_cells(r, shape->c, shape->n, tmp, ext);
			if (ext[a] != 1 || ext[u] > L[u] || ext[v] > L[v])
				continue;
			for (int su = 0; su + ext[u] <= L[u]; su++)
				for (int sv = 0; sv + ext[v] <= L[v]; sv++) {
					struct bits b;
					memset(&b, 0, sizeof b);
					for (int i = 0; i < shape->n; i++) {
						int c[3];
						c[a] = at;
						c[u] = tmp[3 * i + u] + su;
						c[v] = tmp[3 * i + v] + sv;
						bit_set(&b, box_index(L, c));
					}
					bool over = true;
					for (int w = 0; w < NW; w++)
						over &= (b.w[w] & centre.w[w]) == centre.w[w];
					if (!over)
						continue;
					if (n == MAXPL) { /* cannot happen: 8 turns, 9 shifts */
						free(tmp);
						return -1;
					}
					*pl_at(s, t, f, n++) = b;
				}
		}
		qsort(pl_at(s, t, f, 0), (size_t)n, sizeof(struct bits), bits_cmp);
		int m = 0;
		for (int i = 0; i < n; i++)
			if (m == 0 || bits_cmp(pl_at(s, t, f, i), pl_at(s, t, f, m - 1)) != 0)
				*pl_at(s, t, f, m++) = *pl_at(s, t, f, i);
		s->npl[t][f] = m;
	}
	free(tmp);
	return 0;
}

static uint64_t plates_walk(struct pref *s, int d, const struct bits *filled)
{
	uint64_t found = 0;
	int f = s->order[d], nw = s->nw;
	const struct bits *need = &s->mask[d];
	for (int t = 0; t < s->ntypes; t++) {
		if (s->left[t] == 0)
			continue;
		for (int i = 0; i < s->npl[t][f]; i++) {
			const struct bits *b = pl_at(s, t, f, i);
			s->nodes++;
			struct bits u;
			bool fits = true;
			for (int w = 0; w < nw && fits; w++) {
				fits = (filled->w[w] & b->w[w]) == 0;
				u.w[w] = filled->w[w] | b->w[w];
				fits = fits && (u.w[w] & need->w[w]) == need->w[w];
			}
			if (!fits)
				continue;
			if (d == 5) {
				s->wins++;
				found++;
				continue;
			}
			s->left[t]--;
			uint64_t below = plates_walk(s, d + 1, &u);
			s->left[t]++;
			if (below == 0)
				s->dead++;
			found += below;
		}
	}
	return found;
}

int diffref_plates(const struct puzzle *p, struct diffref_counts *out)
{
	memset(out, 0, sizeof *out);
	struct pref *s = calloc(1, sizeof *s);
	if (!s)
		return -1;
	struct types ty;
	memset(&ty, 0, sizeof ty);
	int rc = DIFFREF_NOT_KIND;

	/* the goal: exactly the shell of its bounding box */
	struct cells g;
	if (cells_of_grid(&p->goal, &g) != 0) {
		free(s);
		return -1;
	}
	int lo[3];
	normalise(g.c, g.n, s->L, lo);
	long vol = (long)s->L[0] * s->L[1] * s->L[2];
	if (g.n == 0 || s->L[0] < 3 || s->L[1] < 3 || s->L[2] < 3 ||
	    vol > DIFFREF_MAX_BOX)
		goto done;
	{
		unsigned char in[DIFFREF_MAX_BOX] = {0};
		for (int i = 0; i < g.n; i++)
			in[box_index(s->L, g.c + 3 * i)] = 1;
		int c[3];
		for (c[2] = 0; c[2] < s->L[2]; c[2]++)
			for (c[1] = 0; c[1] < s->L[1]; c[1]++)
				for (c[0] = 0; c[0] < s->L[0]; c[0]++)
					if ((faces_of(s->L, c) != 0) != in[box_index(s->L, c)])
						goto done;
	}
	s->nw = (int)((vol + 63) / 64);

	/* six flat plates, each with a 2 x 2 block */
	unsigned total = 0;
	for (size_t e = 0; e < p->npieces; e++) {
		if (p->pieces[e].count > 6 || (total += p->pieces[e].count) > 6)
			goto done;
	}
	if (total != 6)
		goto done;
	int trc = types_of(p, &ty);
	if (trc != 0) {
		rc = trc;
		goto done;
	}
	if (ty.n > 6)
		goto done;
	for (int t = 0; t < ty.n; t++) {
		int ext[3];
		normalise(ty.shape[t].c, ty.shape[t].n, ext, NULL);
		int ones = (ext[0] == 1) + (ext[1] == 1) + (ext[2] == 1);
		if (ones != 1 || !has_block(&ty.shape[t], ext))
			goto done;
	}
	s->ntypes = ty.n;
	s->pl = malloc((size_t)ty.n * 6 * MAXPL * sizeof *s->pl);
	if (!s->pl) {
		rc = -1;
		goto done;
	}
	for (int t = 0; t < ty.n; t++) {
		s->left[t] = ty.count[t];
		if (plates_place(s, &ty.shape[t], t) != 0) {
			rc = -1;
			goto done;
		}
	}

	/* the human orders */
	int seen[6][2], nseen = 0;
	for (int a = 0; a < 3; a++)
		for (int w = 0; w < 3; w++) {
			if (w == a)
				continue;
			bool dup = false;
			for (int i = 0; i < nseen; i++)
				dup |= seen[i][0] == s->L[a] && seen[i][1] == s->L[w];
			if (dup)
				continue;
			seen[nseen][0] = s->L[a];
			seen[nseen][1] = s->L[w];
			nseen++;
			int t3 = 3 - a - w;
			int ord[6] = {2 * a, 2 * w, 2 * t3, 2 * w + 1, 2 * t3 + 1, 2 * a + 1};
			unsigned done = 0;
			for (int d = 0; d < 6; d++) {
				s->order[d] = ord[d];
				done |= 1u << ord[d];
				memset(&s->mask[d], 0, sizeof s->mask[d]);
				int c[3];
				for (c[2] = 0; c[2] < s->L[2]; c[2]++)
					for (c[1] = 0; c[1] < s->L[1]; c[1]++)
						for (c[0] = 0; c[0] < s->L[0]; c[0]++) {
							unsigned fm = faces_of(s->L, c);
							if (fm && (fm & ~done) == 0)
								bit_set(&s->mask[d], box_index(s->L, c));
						}
			}
			struct bits none;
			memset(&none, 0, sizeof none);
			plates_walk(s, 0, &none);
			out->orders++;
		}
	out->dead = s->dead;
	out->wins = s->wins;
	out->nodes = s->nodes;
	rc = 0;
done:
	if (rc != 0)
		memset(out, 0, sizeof *out);
	types_free(&ty);
	cells_free(&g);
	free(s->pl);
	free(s);
	return rc;
}

/* ---- DIFF_CELLS: assemblies and the pinned count -------------------- */

#define MAX_ASSEMBLIES 10000000u

struct cref {
	int ntypes;
	unsigned left[DIFFREF_MAX_TYPES];
	bool single[DIFFREF_MAX_TYPES];
	uint64_t *pl[DIFFREF_MAX_TYPES];  /* sorted by (lowest cell, value) */
	int npl[DIFFREF_MAX_TYPES];
	int start[DIFFREF_MAX_TYPES][DIFFREF_MAX_GOAL + 1]; /* by lowest cell */
	uint64_t *cnt[DIFFREF_MAX_TYPES]; /* assemblies per placement */
	int chosen[DIFFREF_MAX_TYPES];
	uint64_t full;
	uint64_t assemblies;
	bool over;
};

static int low_cell(uint64_t b)
{
	int i = 0;
	while (!(b >> i & 1))
		i++;
	return i;
}

static int pl_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	int lx = low_cell(x), ly = low_cell(y);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return x < y ? -1 : x > y;
}

static void cells_walk(struct cref *s, uint64_t filled)
{
	if (s->over)
		return;
	if (filled == s->full) {
		if (++s->assemblies > MAX_ASSEMBLIES) {
			s->over = true;
			return;
		}
		for (int t = 0; t < s->ntypes; t++)
			if (s->single[t])
				s->cnt[t][s->chosen[t]]++;
		return;
	}
	int c = low_cell(~filled);
	for (int t = 0; t < s->ntypes; t++) {
		if (s->left[t] == 0)
			continue;
		for (int i = s->start[t][c]; i < s->start[t][c + 1]; i++) {
			uint64_t b = s->pl[t][i];
			if (b & filled)
				continue;
			s->left[t]--;
			s->chosen[t] = i;
			cells_walk(s, filled | b);
			s->left[t]++;
		}
	}
}

/* Index of placement b of type t, or -1. */
static int pl_find(const struct cref *s, int t, uint64_t b)
{
	int c = low_cell(b), lo = s->start[t][c], hi = s->start[t][c + 1];
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (s->pl[t][mid] == b)
			return mid;
		if (s->pl[t][mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int diffref_cells(const struct puzzle *p, struct diffref_cells *out)
{
	memset(out, 0, sizeof *out);
	const struct grid *gg = &p->goal;
	struct cref *s = calloc(1, sizeof *s);
	struct types ty;
	memset(&ty, 0, sizeof ty);
	struct cells g = {0, NULL}, gn = {0, NULL};
	int *index = NULL, *tmp = NULL, (*symmap)[DIFFREF_MAX_GOAL] = NULL;
	int rc = -1;
	if (!s)
		return -1;
	if (cells_of_grid(gg, &g) != 0)
		goto done;
	rc = DIFFREF_NOT_KIND;
	if (g.n == 0 || g.n > DIFFREF_MAX_GOAL)
		goto done;
	rc = -1;
	size_t total = (size_t)gg->nx * gg->ny * gg->nz;
	index = malloc(total * sizeof *index);
	if (!index)
		goto done;
	for (size_t i = 0; i < total; i++)
		index[i] = -1;
	for (int i = 0; i < g.n; i++)
		index[puz_grid_index(gg, g.c[3 * i], g.c[3 * i + 1], g.c[3 * i + 2])] = i;
	s->full = g.n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g.n) - 1;

	int trc = types_of(p, &ty);
	if (trc != 0) {
		rc = trc;
		goto done;
	}
	s->ntypes = ty.n;
	out->ntypes = ty.n;
	int maxn = g.n;
	for (int t = 0; t < ty.n; t++)
		if (ty.shape[t].n > maxn)
			maxn = ty.shape[t].n;
	tmp = malloc((size_t)maxn * 3 * sizeof *tmp);
	if (!tmp)
		goto done;

	/* placements: every rotation and translation landing on goal cells */
	for (int t = 0; t < ty.n; t++) {
		s->left[t] = ty.count[t];
		s->single[t] = ty.count[t] == 1;
		out->count[t] = ty.count[t];
		int cap = 64, n = 0;
		s->pl[t] = malloc((size_t)cap * sizeof *s->pl[t]);
		if (!s->pl[t])
			goto done;
		const struct cells *sh = &ty.shape[t];
		for (int r = 0; r < 24; r++) {
			int ext[3];
			rotate_cells(r, sh->c, sh->n, tmp, ext);
			for (int tz = 0; tz + ext[2] <= gg->nz; tz++)
				for (int tyy = 0; tyy + ext[1] <= gg->ny; tyy++)
					for (int tx = 0; tx + ext[0] <= gg->nx; tx++) {
						uint64_t b = 0;
						bool ok = sh->n <= g.n;
						for (int i = 0; i < sh->n && ok; i++) {
							int k = index[puz_grid_index(gg, tmp[3 * i] + tx,
							                             tmp[3 * i + 1] + tyy,
							                             tmp[3 * i + 2] + tz)];
							ok = k >= 0;
							if (ok)
								b |= (uint64_t)1 << k;
						}
						if (!ok)
							continue;
						if (n == cap) {
							uint64_t *q = realloc(s->pl[t], (size_t)cap * 2 * sizeof *q);
							if (!q)
								goto done;
							s->pl[t] = q;
							cap *= 2;
						}
						s->pl[t][n++] = b;
					}
		}
		qsort(s->pl[t], (size_t)n, sizeof *s->pl[t], pl_cmp);
		int m = 0;
		for (int i = 0; i < n; i++)
			if (m == 0 || s->pl[t][i] != s->pl[t][m - 1])
				s->pl[t][m++] = s->pl[t][i];
		s->npl[t] = m;
		out->nplace[t] = m;
		int i = 0;
		for (int c = 0; c <= g.n; c++) {
			while (i < m && low_cell(s->pl[t][i]) < c)
				i++;
			s->start[t][c] = i;
		}
		s->cnt[t] = calloc((size_t)(m ? m : 1), sizeof *s->cnt[t]);
		if (!s->cnt[t])
			goto done;
	}

	cells_walk(s, 0);
	if (s->over) {
		rc = DIFFREF_NOT_KIND;
		goto done;
	}
	out->assemblies = s->assemblies;

	/* the goal's proper rotations, as maps of goal cells */
	symmap = malloc(24 * sizeof *symmap);
	if (!symmap)
		goto done;
	int lo[3], ext[3];
	gn.n = g.n;
	gn.c = malloc((size_t)g.n * 3 * sizeof *gn.c);
	if (!gn.c)
		goto done;
	memcpy(gn.c, g.c, (size_t)g.n * 3 * sizeof *gn.c);
	normalise(gn.c, gn.n, ext, lo);
	int nsym = 0;
	for (int r = 0; r < 24; r++) {
		int rext[3];
		rotate_cells(r, gn.c, gn.n, tmp, rext);
		bool ok = rext[0] == ext[0] && rext[1] == ext[1] && rext[2] == ext[2];
		for (int i = 0; i < g.n && ok; i++) {
			int k = index[puz_grid_index(gg, tmp[3 * i] + lo[0],
			                             tmp[3 * i + 1] + lo[1],
			                             tmp[3 * i + 2] + lo[2])];
			ok = k >= 0;
			symmap[nsym][i] = k;
		}
		if (ok)
			nsym++;
	}
	out->nsym = nsym;

	/* W(t) for every single-copy type, orbit by orbit */
	for (int t = 0; t < ty.n; t++) {
		if (!s->single[t])
			continue;
		uint64_t w = 0;
		for (int i = 0; i < s->npl[t]; i++) {
			int rep = i;
			for (int k = 0; k < nsym; k++) {
				uint64_t img = 0, b = s->pl[t][i];
				for (int c = 0; c < g.n; c++)
					if (b >> c & 1)
						img |= (uint64_t)1 << symmap[k][c];
				int j = pl_find(s, t, img);
				if (j < 0 || s->cnt[t][j] != s->cnt[t][i])
					goto done; /* the reference contradicts itself */
				if (j < rep)
					rep = j;
			}
			if (rep == i)
				w += s->cnt[t][i];
		}
		out->w[t] = w;
	}

	/* the pinned type */
	out->pinned = -1;
	for (int t = 0; t < ty.n; t++) {
		if (!s->single[t])
			continue;
		int b = out->pinned;
		if (b < 0 || s->npl[t] > s->npl[b] ||
		    (s->npl[t] == s->npl[b] &&
		     canon_cmp(ty.canon[t], ty.shape[t].n, ty.canon[b],
		               ty.shape[b].n) < 0))
			out->pinned = t;
	}
	out->expect_wins = out->pinned < 0 ? out->assemblies : out->w[out->pinned];
	rc = 0;
done:
	if (rc != 0)
		memset(out, 0, sizeof *out);
	for (int t = 0; t < DIFFREF_MAX_TYPES; t++) {
		free(s->pl[t]);
		free(s->cnt[t]);
	}
	types_free(&ty);
	cells_free(&g);
	cells_free(&gn);
	free(index);
	free(tmp);
	free(symmap);
	free(s);
	return rc;
}

/* ---- re-presentations ------------------------------------------------- */

struct entry {
	struct cells s;
	unsigned count;
	uint32_t *canon;
};

static void entries_free(struct entry *e, int n)
{
	for (int i = 0; i < n; i++) {
		cells_free(&e[i].s);
		free(e[i].canon);
	}
	free(e);
}

static int cells_copy(const struct cells *in, struct cells *out)
{
	out->n = in->n;
	out->c = malloc((size_t)(in->n ? in->n : 1) * 3 * sizeof *out->c);
	if (!out->c)
		return -1;
	memcpy(out->c, in->c, (size_t)in->n * 3 * sizeof *out->c);
	return 0;
}

static bool is_flat(const struct cells *s)
{
	int *c = malloc((size_t)(s->n ? s->n : 1) * 3 * sizeof *c);
	if (!c)
		return false;
	memcpy(c, s->c, (size_t)s->n * 3 * sizeof *c);
	int ext[3];
	normalise(c, s->n, ext, NULL);
	free(c);
	return (ext[0] == 1) + (ext[1] == 1) + (ext[2] == 1) == 1;
}

int diffref_present(const struct puzzle *in, uint64_t seed, struct puzzle *out)
{
	uint64_t rs = seed * 0x2545F4914F6CDD1Du + 17;
	struct puzzle p;
	memset(&p, 0, sizeof p);
	memset(out, 0, sizeof *out);
	size_t cap = 0;
	for (size_t i = 0; i < in->npieces; i++)
		cap += in->pieces[i].count;
	if (cap < in->npieces)
		cap = in->npieces;
	struct entry *e = calloc(cap ? cap : 1, sizeof *e);
	struct cells gc = {0, NULL};
	int *tmp = NULL;
	int n = 0;
	if (!e)
		return -1;
	for (size_t i = 0; i < in->npieces; i++) {
		if (cells_of_grid(&in->pieces[i].shape, &e[n].s) != 0)
			goto oom;
		normalise(e[n].s.c, e[n].s.n, NULL, NULL);
		e[n].count = in->pieces[i].count;
		n++;
	}
	/* merge congruent entries */
	if (rnd(&rs, 2)) {
		for (int i = 0; i < n; i++) {
			e[i].canon = malloc((size_t)(e[i].s.n ? e[i].s.n : 1) * sizeof *e[i].canon);
			uint32_t *cand = malloc((size_t)(e[i].s.n ? e[i].s.n : 1) * sizeof *cand);
			int *t3 = malloc((size_t)(e[i].s.n ? e[i].s.n : 1) * 3 * sizeof *t3);
			if (!e[i].canon || !cand || !t3) {
				free(cand);
				free(t3);
				goto oom;
			}
			canonical(e[i].s.c, e[i].s.n, e[i].canon, t3, cand);
			free(cand);
			free(t3);
		}
		int m = 0;
		for (int i = 0; i < n; i++) {
			int k;
			for (k = 0; k < m; k++)
				if (canon_cmp(e[k].canon, e[k].s.n, e[i].canon, e[i].s.n) == 0)
					break;
			if (k < m) {
				e[k].count += e[i].count;
				cells_free(&e[i].s);
				free(e[i].canon);
				e[i].canon = NULL;
			} else {
				e[m++] = e[i];
			}
		}
		for (int i = m; i < n; i++)
			e[i] = (struct entry){{0, NULL}, 0, NULL};
		n = m;
	}
	/* split entries of count K into K entries */
	for (int i = 0, n0 = n; i < n0; i++) {
		if (e[i].count < 2 || !rnd(&rs, 2))
			continue;
		while (e[i].count > 1) {
			if ((size_t)n >= cap)
				break; /* cannot happen: cap is the total count */
			if (cells_copy(&e[i].s, &e[n].s) != 0)
				goto oom;
			e[n].count = 1;
			e[i].count--;
			n++;
		}
	}
	/* turn every entry */
	for (int i = 0; i < n; i++) {
		int *c = malloc((size_t)(e[i].s.n ? e[i].s.n : 1) * 3 * sizeof *c);
		if (!c)
			goto oom;
		bool keep_z = is_flat(&e[i].s) && rnd(&rs, 2);
		for (int tries = 0;; tries++) {
			int r = rnd(&rs, 24), ext[3];
			rotate_cells(r, e[i].s.c, e[i].s.n, c, ext);
			if (!keep_z || ext[2] == 1 || tries > 1000)
				break;
		}
		free(e[i].s.c);
		e[i].s.c = c;
	}
	/* shuffle */
	for (int i = n - 1; i > 0; i--) {
		int j = rnd(&rs, i + 1);
		struct entry t = e[i];
		e[i] = e[j];
		e[j] = t;
	}
	/* the goal, turned */
	if (cells_of_grid(&in->goal, &gc) != 0)
		goto oom;
	tmp = malloc((size_t)(gc.n ? gc.n : 1) * 3 * sizeof *tmp);
	if (!tmp)
		goto oom;
	{
		int ext[3];
		rotate_cells(rnd(&rs, 24), gc.c, gc.n, tmp, ext);
	}
	if (grid_of_cells(tmp, gc.n, &p.goal) != 0)
		goto oom;
	snprintf(p.name, sizeof p.name, "%s", in->name);
	p.pieces = calloc((size_t)(n ? n : 1), sizeof *p.pieces);
	if (!p.pieces)
		goto oom;
	unsigned base = (unsigned)rnd(&rs, 1000);
	for (int i = 0; i < n; i++) {
		struct puz_piece *pc = &p.pieces[i];
		if (grid_of_cells(e[i].s.c, e[i].s.n, &pc->shape) != 0)
			goto oom;
		snprintf(pc->name, sizeof pc->name, "r%u-%d", base, n - i);
		pc->count = e[i].count;
		p.npieces++;
	}
	entries_free(e, (int)cap);
	cells_free(&gc);
	free(tmp);
	*out = p;
	return 0;
oom:
	entries_free(e, (int)cap);
	cells_free(&gc);
	free(tmp);
	puz_clear(&p);
	return -1;
}

/* ---- random boxes ----------------------------------------------------- */

int diffref_box(uint64_t seed, const int dim[3], struct puzzle *out)
{
	uint64_t rs = seed ^ 0xD1B54A32D192ED03u;
	const int *L = dim;
	struct puzzle p;
	memset(&p, 0, sizeof p);
	memset(out, 0, sizeof *out);
	size_t vol = (size_t)L[0] * L[1] * L[2];
	int *face = malloc(vol * sizeof *face);
	if (!face)
		return -1;
	int c[3];
	for (c[2] = 0; c[2] < L[2]; c[2]++)
		for (c[1] = 0; c[1] < L[1]; c[1]++)
			for (c[0] = 0; c[0] < L[0]; c[0]++) {
				unsigned fm = faces_of(L, c);
				int f[3], k = 0;
				for (int i = 0; i < 6; i++)
					if (fm >> i & 1)
						f[k++] = i;
				face[box_index(L, c)] = k == 0 ? -1 : k == 1 ? f[0]
				                      : k == 2 ? f[rnd(&rs, 2)] : -2;
			}
	for (c[2] = 0; c[2] < L[2]; c[2] += L[2] - 1)
		for (c[1] = 0; c[1] < L[1]; c[1] += L[1] - 1)
			for (c[0] = 0; c[0] < L[0]; c[0] += L[0] - 1) {
				int d[3], nd = 0;
				for (int a = 0; a < 3; a++) {
					int q[3] = {c[0], c[1], c[2]};
					q[a] = c[a] == 0 ? 1 : L[a] - 2;
					int f = face[box_index(L, q)];
					bool dup = false;
					for (int i = 0; i < nd; i++)
						dup |= d[i] == f;
					if (!dup)
						d[nd++] = f;
				}
				face[box_index(L, c)] = d[rnd(&rs, nd)];
			}
	snprintf(p.name, sizeof p.name, "diffref box %dx%dx%d seed %llu", L[0],
	         L[1], L[2], (unsigned long long)seed);
	if (puz_grid_init(&p.goal, L[0], L[1], L[2]) != PUZ_OK)
		goto oom;
	for (size_t i = 0; i < vol; i++)
		p.goal.cells[i] = face[i] >= 0;
	int order[6] = {0, 1, 2, 3, 4, 5};
	for (int i = 5; i > 0; i--) {
		int j = rnd(&rs, i + 1), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	p.pieces = calloc(6, sizeof *p.pieces);
	if (!p.pieces)
		goto oom;
	for (int i = 0; i < 6; i++) {
		int f = order[i], a = f / 2, u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
		int W = L[u], H = L[v];
		int flip = rnd(&rs, 2), turns = rnd(&rs, 4);
		struct puz_piece *pc = &p.pieces[i];
		int w = turns % 2 ? H : W, h = turns % 2 ? W : H;
		if (puz_grid_init(&pc->shape, w, h, 1) != PUZ_OK)
			goto oom;
		snprintf(pc->name, sizeof pc->name, "%d", i + 1);
		pc->count = 1;
		p.npieces++;
		for (int j = 0; j < H; j++)
			for (int k = 0; k < W; k++) {
				int q[3];
				q[a] = f % 2 ? L[a] - 1 : 0;
				q[u] = k;
				q[v] = j;
				if (face[box_index(L, q)] != f)
					continue;
				int x = flip ? W - 1 - k : k, y = j, cw = W, ch = H;
				for (int t = 0; t < turns; t++) {
					int nx = ch - 1 - y;
					y = x;
					x = nx;
					int sw = cw;
					cw = ch;
					ch = sw;
				}
				pc->shape.cells[puz_grid_index(&pc->shape, x, y, 0)] = 1;
			}
	}
	free(face);
	*out = p;
	return 0;
oom:
	free(face);
	puz_clear(&p);
	return -1;
}
