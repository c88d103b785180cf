/*
 * randpuz.c: random test puzzles (see randpuz.h). Self-contained: its own
 * SplitMix64 stream, its own rotations, its own shell cutter.
 */
#include "tests/randpuz.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 32   /* cells of a polycube goal (<= 30) */
#define MAXSPEC 8 /* piece entries of a polycube puzzle (<= 6) */

struct rng {
	uint64_t s;
};

/* SplitMix64 (Steele, Lea, Flood 2014). */
static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += UINT64_C(0x9E3779B97F4A7C15));
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Uniform-enough integer in 0..n-1 (n small; the bias is irrelevant). */
static int rng_below(struct rng *r, int n)
{
	return (int)(rng_next(r) % (uint64_t)n);
}

struct rv {
	int c[3];
};

struct spec {
	int n;
	struct rv v[MAXC];
	unsigned count;
};

/* ---- cell lists --------------------------------------------------- */

static int rv_cmp(const void *a, const void *b)
{
	const struct rv *u = a, *v = b;
	for (int i = 0; i < 3; i++)
		if (u->c[i] != v->c[i])
			return u->c[i] < v->c[i] ? -1 : 1;
	return 0;
}

static bool rv_eq(struct rv a, struct rv b)
{
	return a.c[0] == b.c[0] && a.c[1] == b.c[1] && a.c[2] == b.c[2];
}

static bool adjacent(struct rv a, struct rv b)
{
	int d = 0;
	for (int i = 0; i < 3; i++)
		d += abs(a.c[i] - b.c[i]);
	return d == 1;
}

static bool contains(const struct rv *v, int n, struct rv x)
{
	for (int i = 0; i < n; i++)
		if (rv_eq(v[i], x))
			return true;
	return false;
}

/* Translate the min corner to 0 and sort. */
static void normalise(struct rv *v, int n)
{
	int lo[3] = {v[0].c[0], v[0].c[1], v[0].c[2]};
	for (int i = 1; i < n; i++)
		for (int a = 0; a < 3; a++)
			if (v[i].c[a] < lo[a])
				lo[a] = v[i].c[a];
	for (int i = 0; i < n; i++)
		for (int a = 0; a < 3; a++)
			v[i].c[a] -= lo[a];
	qsort(v, (size_t)n, sizeof *v, rv_cmp);
}

static bool connected(const struct rv *v, int n)
{
	bool seen[MAXC] = {false};
	int stack[MAXC], top = 0, nseen = 1;
	if (n == 0)
		return true;
	seen[0] = true;
	stack[top++] = 0;
	while (top > 0) {
		int i = stack[--top];
		for (int j = 0; j < n; j++)
			if (!seen[j] && adjacent(v[i], v[j])) {
				seen[j] = true;
				nseen++;
				stack[top++] = j;
			}
	}
	return nseen == n;
}

/* A random proper rotation (one of 24) applied to every cell. */
static void rotate_random(struct rng *r, struct rv *v, int n)
{
	static const int perms[6][3] = {
		{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0},
	};
	static const int parity[6] = {1, -1, -1, 1, 1, -1};
	int p, sign[3];
	for (;;) {
		int k = rng_below(r, 48);
		p = k / 8;
		int det = parity[p];
		for (int i = 0; i < 3; i++) {
			sign[i] = (k >> i) & 1 ? -1 : 1;
			det *= sign[i];
		}
		if (det == 1)
			break;
	}
	for (int j = 0; j < n; j++) {
		struct rv o = v[j];
		for (int i = 0; i < 3; i++)
			v[j].c[i] = sign[i] * o.c[perms[p][i]];
	}
}

/* ---- puzzles in memory -------------------------------------------- */

/* A grid holding the cells v (n >= 1), cropped to their bounding box. */
static int grid_of(struct grid *g, const struct rv *v, int n)
{
	struct rv w[MAXC];
	memcpy(w, v, (size_t)n * sizeof *w);
	normalise(w, n);
	int hi[3] = {0, 0, 0};
	for (int i = 0; i < n; i++)
		for (int a = 0; a < 3; a++)
			if (w[i].c[a] > hi[a])
				hi[a] = w[i].c[a];
	if (puz_grid_init(g, hi[0] + 1, hi[1] + 1, hi[2] + 1) != PUZ_OK)
		return -1;
	for (int i = 0; i < n; i++)
		g->cells[puz_grid_index(g, w[i].c[0], w[i].c[1], w[i].c[2])] = 1;
	return 0;
}

/* ---- random polycube puzzles -------------------------------------- */

/* Grow the cell out[0] into a connected set of n cells inside the box
 * of sides b[]: a random cell of the set and a random face, n - 1 times
 * a new cell. */
static void grow(struct rng *r, const int b[3], struct rv *out, int n)
{
	int k = 1;
	while (k < n) {
		struct rv x = out[rng_below(r, k)];
		int dir = rng_below(r, 6);
		x.c[dir / 2] += dir % 2 ? 1 : -1;
		if (x.c[dir / 2] < 0 || x.c[dir / 2] >= b[dir / 2] ||
		    contains(out, k, x))
			continue;
		out[k++] = x;
	}
}

/* A random connected set of minvol..maxvol cells: a whole random box when
 * 'whole', else a connected subset grown in a random box of <= 30 cells. */
static int random_blob(struct rng *r, int minvol, int maxvol, bool whole,
                       struct rv *out)
{
	int b[3], vol;
	for (;;) {
		for (int a = 0; a < 3; a++)
			b[a] = 1 + rng_below(r, 4);
		vol = b[0] * b[1] * b[2];
		if (vol >= minvol && vol <= (whole ? maxvol : 30))
			break;
	}
	int n = 0;
	if (whole) {
		for (int z = 0; z < b[2]; z++)
			for (int y = 0; y < b[1]; y++)
				for (int x = 0; x < b[0]; x++)
					out[n++] = (struct rv){{x, y, z}};
		return n;
	}
	int top = vol < maxvol ? vol : maxvol;
	int target = minvol + rng_below(r, top - minvol + 1);
	for (int a = 0; a < 3; a++)
		out[0].c[a] = rng_below(r, b[a]);
	grow(r, b, out, target);
	return target;
}

/* Cut the connected set v (n cells) into k connected regions grown from
 * k distinct random seeds: label[i] in 0..k-1. */
static void partition(struct rng *r, const struct rv *v, int n, int k,
                      int *label)
{
	int idx[MAXC];
	for (int i = 0; i < n; i++) {
		idx[i] = i;
		label[i] = -1;
	}
	for (int i = 0; i < k; i++) { /* partial Fisher-Yates */
		int j = i + rng_below(r, n - i);
		int t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
		label[idx[i]] = i;
	}
	for (int done = k; done < n; done++) {
		/* every (unlabelled cell, labelled neighbour) pair is a candidate */
		int cand[MAXC * 6][2], nc = 0;
		for (int i = 0; i < n; i++) {
			if (label[i] >= 0)
				continue;
			for (int j = 0; j < n; j++)
				if (label[j] >= 0 && adjacent(v[i], v[j])) {
					cand[nc][0] = i;
					cand[nc][1] = j;
					nc++;
				}
		}
		int c = rng_below(r, nc); /* nc >= 1: v is connected */
		label[cand[c][0]] = label[cand[c][1]];
	}
}

/* Move one cell of s elsewhere, keeping it connected and its volume, so
 * that the new shape is not a translate of the old one. */
static bool alter(struct rng *r, struct spec *s)
{
	struct rv old[MAXC];
	memcpy(old, s->v, (size_t)s->n * sizeof *old);
	normalise(old, s->n);
	for (int tries = 0; tries < 100; tries++) {
		struct rv w[MAXC];
		int i = rng_below(r, s->n), m = 0;
		for (int j = 0; j < s->n; j++)
			if (j != i)
				w[m++] = s->v[j];
		if (!connected(w, m))
			continue;
		struct rv x = w[rng_below(r, m)];
		int dir = rng_below(r, 6);
		x.c[dir / 2] += dir % 2 ? 1 : -1;
		if (contains(w, m, x) || rv_eq(x, s->v[i]))
			continue;
		w[m++] = x;
		struct rv cmp[MAXC];
		memcpy(cmp, w, (size_t)m * sizeof *cmp);
		normalise(cmp, m);
		if (memcmp(cmp, old, (size_t)m * sizeof *cmp) == 0)
			continue;
		memcpy(s->v, w, (size_t)m * sizeof *w);
		return true;
	}
	return false;
}

static int build_polycubes(uint64_t seed, struct rng *r, struct puzzle *p)
{
	struct rv goal[MAXC];
	struct spec specs[MAXSPEC];
	int ngoal, nspec = 0;
	int label[MAXC];
	memset(specs, 0, sizeof specs);

	if (rng_below(r, 4) == 0) {
		/* a half cut into k1 pieces plus a translated copy of it */
		int k1 = 1 + rng_below(r, 3);
		bool whole = rng_below(r, 2) == 0;
		int nh = random_blob(r, k1, 12, whole, goal);
		partition(r, goal, nh, k1, label);
		int axis = rng_below(r, 3), lo = goal[0].c[axis], hi = lo;
		for (int i = 0; i < nh; i++) {
			if (goal[i].c[axis] < lo)
				lo = goal[i].c[axis];
			if (goal[i].c[axis] > hi)
				hi = goal[i].c[axis];
		}
		for (int i = 0; i < nh; i++) {
			goal[nh + i] = goal[i];
			goal[nh + i].c[axis] += hi - lo + 1;
		}
		ngoal = 2 * nh;
		for (int reg = 0; reg < k1; reg++) {
			struct spec s = {0};
			for (int i = 0; i < nh; i++)
				if (label[i] == reg)
					s.v[s.n++] = goal[i];
			if (rng_below(r, 2) == 0) {
				s.count = 2;
				specs[nspec++] = s;
			} else {
				s.count = 1;
				specs[nspec++] = s;
				specs[nspec++] = s;
			}
		}
	} else {
		int k = 2 + rng_below(r, 5);
		bool whole = rng_below(r, 2) == 0;
		ngoal = random_blob(r, k, 24, whole, goal);
		partition(r, goal, ngoal, k, label);
		for (int reg = 0; reg < k; reg++) {
			struct spec s = {0};
			s.count = 1;
			for (int i = 0; i < ngoal; i++)
				if (label[i] == reg)
					s.v[s.n++] = goal[i];
			specs[nspec++] = s;
		}
	}

	int rc = 0;
	if (rng_below(r, 8) == 0) {
		int big[MAXSPEC], nbig = 0;
		for (int i = 0; i < nspec; i++)
			if (specs[i].n >= 2)
				big[nbig++] = i;
		if (nbig > 0 && alter(r, &specs[big[rng_below(r, nbig)]]))
			rc = 1;
	}

	snprintf(p->name, sizeof p->name, "randpuz polycubes seed %" PRIu64, seed);
	if (grid_of(&p->goal, goal, ngoal) != 0)
		return -1;
	p->pieces = calloc((size_t)nspec, sizeof *p->pieces);
	if (!p->pieces)
		return -1;
	for (int i = 0; i < nspec; i++) {
		struct puz_piece *pc = &p->pieces[p->npieces];
		rotate_random(r, specs[i].v, specs[i].n);
		if (grid_of(&pc->shape, specs[i].v, specs[i].n) != 0)
			return -1;
		snprintf(pc->name, sizeof pc->name, "p%d", i + 1);
		pc->count = specs[i].count;
		p->npieces++;
	}
	return rc;
}

int randpuz_polycubes(uint64_t seed, struct puzzle *out)
{
	struct rng r = {seed};
	struct puzzle p;
	memset(&p, 0, sizeof p);
	memset(out, 0, sizeof *out);
	int rc = build_polycubes(seed, &r, &p);
	if (rc < 0) {
		puz_clear(&p);
		return -1;
	}
	*out = p;
	return rc;
}

/* ---- random shell puzzles ----------------------------------------- */

/* Faces of cell c: 2*axis for coordinate 0, 2*axis+1 for n-1. */
static int faces_of(const int c[3], int n, int f[3])
{
	int k = 0;
	for (int a = 0; a < 3; a++) {
		if (c[a] == 0)
			f[k++] = 2 * a;
		else if (c[a] == n - 1)
			f[k++] = 2 * a + 1;
	}
	return k;
}

static int build_shell(uint64_t seed, struct rng *r, int n, struct puzzle *p,
                       int *face)
{
	size_t n3 = (size_t)n * (size_t)n * (size_t)n;
#define AT(x, y, z) ((size_t)(x) + (size_t)n * ((size_t)(y) + (size_t)n * (size_t)(z)))
	/* face and edge cells, in grid order */
	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				int c[3] = {x, y, z}, f[3];
				int k = faces_of(c, n, f);
				face[AT(x, y, z)] = k == 0 ? -1 : k == 1 ? f[0]
				                  : k == 2 ? f[rng_below(r, 2)] : -2;
			}
	/* corners: a random one of the distinct pieces of the neighbouring
	 * edge cells */
	for (int z = 0; z < n; z += n - 1)
		for (int y = 0; y < n; y += n - 1)
			for (int x = 0; x < n; x += n - 1) {
				int c[3] = {x, y, z}, distinct[3], nd = 0;
				for (int a = 0; a < 3; a++) {
					int e[3] = {x, y, z};
					e[a] = c[a] == 0 ? 1 : n - 2;
					int f = face[AT(e[0], e[1], e[2])];
					bool seen = false;
					for (int i = 0; i < nd; i++)
						seen = seen || distinct[i] == f;
					if (!seen)
						distinct[nd++] = f;
				}
				face[AT(x, y, z)] = distinct[rng_below(r, nd)];
			}

	snprintf(p->name, sizeof p->name, "randpuz shell %d seed %" PRIu64, n, seed);
	if (puz_grid_init(&p->goal, n, n, n) != 0)
		return -1;
	for (size_t i = 0; i < n3; i++)
		p->goal.cells[i] = face[i] >= 0;

	int order[6] = {0, 1, 2, 3, 4, 5};
	for (int i = 5; i > 0; i--) {
		int j = rng_below(r, i + 1);
		int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	p->pieces = calloc(6, sizeof *p->pieces);
	if (!p->pieces)
		return -1;
	for (int i = 0; i < 6; i++) {
		int f = order[i], axis = f / 2;
		int ua = axis == 0 ? 1 : 0, va = axis == 2 ? 1 : 2;
		int flip = rng_below(r, 2), turns = rng_below(r, 4);
		struct puz_piece *pc = &p->pieces[p->npieces];
		if (puz_grid_init(&pc->shape, n, n, 1) != 0)
			return -1;
		snprintf(pc->name, sizeof pc->name, "%d", i + 1);
		pc->count = 1;
		p->npieces++;
		for (int v = 0; v < n; v++)
			for (int u = 0; u < n; u++) {
				int c[3];
				c[axis] = f % 2 ? n - 1 : 0;
				c[ua] = u;
				c[va] = v;
				if (face[AT(c[0], c[1], c[2])] != f)
					continue;
				int pu = flip ? n - 1 - u : u, pv = v;
				for (int t = 0; t < turns; t++) {
					int nu = n - 1 - pv;
					pv = pu;
					pu = nu;
				}
				pc->shape.cells[puz_grid_index(&pc->shape, pu, pv, 0)] = 1;
			}
	}
#undef AT
	return 0;
}

int randpuz_shell(uint64_t seed, int n, struct puzzle *out)
{
	memset(out, 0, sizeof *out);
	if (n < 3 || n > 64)
		return -1;
	struct rng r = {seed};
	struct puzzle p;
	memset(&p, 0, sizeof p);
	int *face = malloc((size_t)n * (size_t)n * (size_t)n * sizeof *face);
	int rc = face ? build_shell(seed, &r, n, &p, face) : -1;
	free(face);
	if (rc != 0) {
		puz_clear(&p);
		return -1;
	}
	*out = p;
	return 0;
}

/* ---- random puzzles of 65 to 128 cells ----------------------------- */

/* Which piece each of the n cells of the d[0] x d[1] x d[2] box belongs
 * to (-1 for a hole), grown from n / (size + a random 0..spread-1) random
 * seeds; the number of pieces. */
static int grow_pieces(struct rng *r, const int d[3],
                       const unsigned char *cells, int *piece, int size,
                       int spread)
{
	int n = d[0] * d[1] * d[2];
	for (int c = 0; c < n; c++)
		piece[c] = -1;
	int np = n / (size + rng_below(r, spread)), made = 0;
	for (int k = 0; k < np; k++) {
		int c = rng_below(r, n);
		if (cells[c] && piece[c] < 0)
			piece[c] = made++;
	}
	/* grow: an unassigned cell joins a random assigned neighbour */
	for (bool grew = true; grew;) {
		grew = false;
		for (int k = 0; k < 4 * n; k++) {
			int c = rng_below(r, n);
			if (!cells[c] || piece[c] >= 0)
				continue;
			int v[3] = {c % d[0], c / d[0] % d[1], c / (d[0] * d[1])};
			int k2 = rng_below(r, 6);
			v[k2 / 2] += k2 % 2 ? 1 : -1;
			if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[0] >= d[0] ||
			    v[1] >= d[1] || v[2] >= d[2])
				continue;
			int e = (v[2] * d[1] + v[1]) * d[0] + v[0];
			if (piece[e] >= 0) {
				piece[c] = piece[e];
				grew = true;
			}
		}
	}
	for (int c = 0; c < n; c++) /* cut off: a piece of its own */
		if (cells[c] && piece[c] < 0)
			piece[c] = made++;
	return made;
}

int randpuz_box(uint64_t seed, struct puzzle *out)
{
	return randpuz_box_sized(seed, 65, 128, false, out);
}

int randpuz_box_sized(uint64_t seed, int vmin, int vmax, bool optional,
                      struct puzzle *out)
{
	struct rng r = {seed};
	struct puzzle p;
	memset(&p, 0, sizeof p);
	memset(out, 0, sizeof *out);
	if (vmin < 8 || vmin > vmax || vmax > 1024)
		return -1;
	/* sides 2 to 6 up to 128 cells (randpuz_box's draws), else to 8,
	 * past 512 to 10 */
	unsigned sides = vmax <= 128 ? 5 : vmax <= 512 ? 7 : 9;
	int d[3];
	do {
		for (int k = 0; k < 3; k++)
			d[k] = 2 + rng_below(&r, sides);
	} while (d[0] * d[1] * d[2] < vmin || d[0] * d[1] * d[2] > vmax);
	snprintf(p.name, sizeof p.name, "random %dx%dx%d, seed %" PRIu64, d[0],
	         d[1], d[2], seed);
	if (puz_grid_init(&p.goal, d[0], d[1], d[2]) != PUZ_OK)
		return -1;
	int n = d[0] * d[1] * d[2];
	memset(p.goal.cells, PUZ_CELL, (size_t)n);
	for (int k = rng_below(&r, 2) ? rng_below(&r, 4) : 0; k > 0; k--) {
		int c = rng_below(&r, n);
		if (puz_grid_volume(&p.goal) > (size_t)vmin)
			p.goal.cells[c] = 0;
	}
	/* pieces of about 8 to 13 cells, as randpuz_box's; past 128 cells
	 * 16 to 23 (past 512, 24 to 31), so that the searches stay small; 6
	 * to 9 with optional cells up to 128, so that there are pieces to
	 * leave out */
	int piece[1024], size = vmax > 512 ? 24 : vmax > 128 ? 16 : optional ? 6 : 8;
	int made = grow_pieces(&r, d, p.goal.cells, piece, size,
	                       vmax > 128 ? 8 : optional ? 4 : 6);
	if (optional && made >= 2) {
		/* one or two pieces left out (one of fewer than four): their
		 * cells optional; and a few cells of the others optional too */
		for (int k = made > 3 ? 1 + rng_below(&r, 2) : 1; k > 0; k--) {
			int gone = rng_below(&r, made);
			for (int c = 0; c < n; c++)
				if (piece[c] == gone) {
					piece[c] = -1;
					p.goal.cells[c] = PUZ_OPTIONAL;
				} else if (piece[c] > gone) {
					piece[c]--;
				}
			made--;
		}
		for (int k = rng_below(&r, 4); k > 0; k--) {
			int c = rng_below(&r, n);
			if (piece[c] >= 0)
				p.goal.cells[c] = PUZ_OPTIONAL;
		}
	}
	p.pieces = calloc((size_t)made, sizeof *p.pieces);
	if (!p.pieces) {
		puz_clear(&p);
		return -1;
	}
	for (int k = 0; k < made; k++) {
		int lo[3] = {99, 99, 99}, hi[3] = {-1, -1, -1};
		for (int c = 0; c < n; c++) {
			if (piece[c] != k)
				continue;
			int v[3] = {c % d[0], c / d[0] % d[1], c / (d[0] * d[1])};
			for (int j = 0; j < 3; j++) {
				lo[j] = v[j] < lo[j] ? v[j] : lo[j];
				hi[j] = v[j] > hi[j] ? v[j] : hi[j];
			}
		}
		struct puz_piece *pc = &p.pieces[k];
		snprintf(pc->name, sizeof pc->name, "p%d", k + 1);
		pc->count = 1;
		if (puz_grid_init(&pc->shape, hi[0] - lo[0] + 1, hi[1] - lo[1] + 1,
		                  hi[2] - lo[2] + 1) != PUZ_OK) {
			puz_clear(&p);
			return -1;
		}
		p.npieces++;
		for (int c = 0; c < n; c++)
			if (piece[c] == k)
				pc->shape.cells[puz_grid_index(&pc->shape,
				        c % d[0] - lo[0], c / d[0] % d[1] - lo[1],
				        c / (d[0] * d[1]) - lo[2])] = PUZ_CELL;
	}
	*out = p;
	return 0;
}

/* ---- puzzles of copies only --------------------------------------- */


/* randpuz_copies() on one of the boxes[0..nb), shapes of smin to
 * smin + 2 cells. */
static int copies_in(uint64_t seed, const int (*boxes)[3], int nb, int smin,
                     struct puzzle *out)
{
	struct rng r = {seed};
	struct puzzle p;
	memset(&p, 0, sizeof p);
	memset(out, 0, sizeof *out);
	const int *d = boxes[rng_below(&r, nb)];
	int v = d[0] * d[1] * d[2];
	/* one shape of s cells, V/s copies; or two, a and b copies */
	int ns, sz[2], cnt[2];
	for (;;) {
		ns = 1 + rng_below(&r, 2);
		sz[0] = smin + rng_below(&r, 3);
		sz[1] = smin + rng_below(&r, 3);
		if (ns == 1) {
			cnt[0] = v / sz[0];
			if (v % sz[0] == 0 && cnt[0] >= 2)
				break;
			continue;
		}
		if (sz[0] == sz[1])
			continue;
		cnt[0] = 2 + rng_below(&r, v / sz[0]);
		int rest = v - cnt[0] * sz[0];
		if (rest >= 2 * sz[1] && rest % sz[1] == 0) {
			cnt[1] = rest / sz[1];
			break;
		}
	}
	snprintf(p.name, sizeof p.name, "copies %dx%dx%d, seed %" PRIu64, d[0],
	         d[1], d[2], seed);
	if (puz_grid_init(&p.goal, d[0], d[1], d[2]) != PUZ_OK)
		return -1;
	memset(p.goal.cells, PUZ_CELL, (size_t)v);
	p.pieces = calloc((size_t)ns, sizeof *p.pieces);
	if (!p.pieces) {
		puz_clear(&p);
		return -1;
	}
	for (int i = 0; i < ns; i++) {
		struct rv s[MAXC];
		s[0] = (struct rv){{0, 0, 0}};
		grow(&r, d, s, sz[i]);
		struct puz_piece *pc = &p.pieces[p.npieces++];
		rotate_random(&r, s, sz[i]);
		if (grid_of(&pc->shape, s, sz[i]) != 0) {
			puz_clear(&p);
			return -1;
		}
		snprintf(pc->name, sizeof pc->name, "p%d", i + 1);
		pc->count = (unsigned)cnt[i];
	}
	*out = p;
	return 0;
}

int randpuz_copies(uint64_t seed, struct puzzle *out)
{
	/* odd sides: a middle cell fixed by every symmetry; 2x3x3 and
	 * 1x3x4: middle cells fixed by some */
	static const int boxes[][3] = {
		{3, 3, 3}, {1, 3, 3}, {1, 3, 5}, {1, 5, 5}, {2, 3, 3},
		{1, 3, 4}, {3, 3, 1}, {1, 1, 9},
	};
	return copies_in(seed, boxes, (int)(sizeof boxes / sizeof *boxes), 3,
	                 out);
}

int randpuz_copies_wide(uint64_t seed, struct puzzle *out)
{
	/* 65 to 125 cells, each with cells that symmetries fix */
	static const int boxes[][3] = {
		{5, 5, 3}, {3, 3, 9}, {3, 5, 5}, {1, 9, 9}, {3, 3, 11},
		{5, 5, 5}, {3, 5, 7}, {1, 7, 11}, {2, 5, 7}, {3, 7, 5},
	};
	return copies_in(seed, boxes, (int)(sizeof boxes / sizeof *boxes), 4,
	                 out);
}
