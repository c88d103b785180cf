/*
 * climb.c: search for a hard plate puzzle instead of waiting for one
 * (gen.h: the hard and expert bands, and the stream order of the search).
 *
 * Random puzzles are easy: at 5 x 5 x 5 the best of a thousand scores
 * about 20 and a Pro set 35.6 to 61.7. So the search hill-climbs over the
 * generator's own choices (which face each edge cell goes to, which piece
 * each corner joins), keeping a unique puzzle at every step, and restarts
 * from fresh draws when it stalls (docs/difficulty-study.md: what was tried
 * and measured).
 *
 * Every state the search visits is a valid assembly: face cells never
 * change, every edge cell touches its face's inner cells, and a corner is
 * always owned by the owner of one of its three neighbouring edge cells
 * (it is re-picked when a move takes that away), so every plate stays one
 * piece. No edge run of GEN_CLIMB_FLAT cells or more may have one owner:
 * a plate with such a flat side is what the score rewards and no
 * commercial set has (ibid.).
 *
 * Workload: one evaluation is a uniqueness check (20-50 us at 5^3) and,
 * when unique, a score (150-800 us); a state is X*Y*Z bytes, copied per
 * move, negligible beside them.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "gen/gen_int.h"
#include "solver/solve.h"

/* The box's choices: its edge cells, grouped into the 12 runs (the cells
 * between two corners, in scan order, so neighbours in a run are
 * neighbours in space), and its 8 corners. */
struct layout {
	int dim[3];
	size_t cells;
	int nedge;
	int *ecell;                 /* cell index of edge cell e */
	unsigned char (*eface)[2];  /* its two faces, ascending */
	int (*ecorner)[2];          /* the corners it neighbours, -1 for none */
	int runstart[12], runlen[12];
	int *run;                   /* edge cells of run q: run[runstart[q] + i] */
	int corner[8];              /* cell index of corner c, scan order */
	int cnb[8][3];              /* its neighbouring edge cells (x, y, z) */
};

static size_t idx(const int dim[3], int x, int y, int z)
{
	return (size_t)x + (size_t)dim[0] * ((size_t)y + (size_t)dim[1] * (size_t)z);
}

static void layout_clear(struct layout *l)
{
	free(l->ecell);
	free(l->eface);
	free(l->ecorner);
	free(l->run);
}

static int layout_init(struct layout *l, const int dim[3])
{
	memset(l, 0, sizeof *l);
	memcpy(l->dim, dim, sizeof l->dim);
	l->cells = (size_t)dim[0] * (size_t)dim[1] * (size_t)dim[2];
	int n = 4 * (dim[0] - 2) + 4 * (dim[1] - 2) + 4 * (dim[2] - 2);
	int *edge_of = malloc(l->cells * sizeof *edge_of);
	l->ecell = malloc((size_t)n * sizeof *l->ecell);
	l->eface = malloc((size_t)n * sizeof *l->eface);
	l->ecorner = malloc((size_t)n * sizeof *l->ecorner);
	l->run = malloc((size_t)n * sizeof *l->run);
	int *erun = malloc((size_t)n * sizeof *erun);
	if (!edge_of || !l->ecell || !l->eface || !l->ecorner || !l->run || !erun) {
		free(edge_of);
		free(erun);
		layout_clear(l);
		return GEN_ENOMEM;
	}
	int runid[6][6];
	memset(runid, -1, sizeof runid);
	int nrun = 0;
	for (int z = 0; z < dim[2]; z++)
		for (int y = 0; y < dim[1]; y++)
			for (int x = 0; x < dim[0]; x++) {
				int c[3] = {x, y, z}, f[3], k = 0;
				for (int a = 0; a < 3; a++)
					if (c[a] == 0 || c[a] == dim[a] - 1)
						f[k++] = 2 * a + (c[a] != 0);
				size_t i = idx(dim, x, y, z);
				edge_of[i] = -1;
				if (k != 2)
					continue;
				int e = l->nedge++;
				edge_of[i] = e;
				l->ecell[e] = (int)i;
				l->eface[e][0] = (unsigned char)f[0];
				l->eface[e][1] = (unsigned char)f[1];
				l->ecorner[e][0] = l->ecorner[e][1] = -1;
				if (runid[f[0]][f[1]] < 0)
					runid[f[0]][f[1]] = nrun++;
				erun[e] = runid[f[0]][f[1]];
				l->runlen[erun[e]]++;
			}
	for (int q = 1; q < 12; q++)
		l->runstart[q] = l->runstart[q - 1] + l->runlen[q - 1];
	int fill[12] = {0};
	for (int e = 0; e < l->nedge; e++)
		l->run[l->runstart[erun[e]] + fill[erun[e]]++] = e;
	int c = 0;
	for (int z = 0; z < dim[2]; z += dim[2] - 1)
		for (int y = 0; y < dim[1]; y += dim[1] - 1)
			for (int x = 0; x < dim[0]; x += dim[0] - 1, c++) {
				int dx = x ? -1 : 1, dy = y ? -1 : 1, dz = z ? -1 : 1;
				l->corner[c] = (int)idx(dim, x, y, z);
				l->cnb[c][0] = edge_of[idx(dim, x + dx, y, z)];
				l->cnb[c][1] = edge_of[idx(dim, x, y + dy, z)];
				l->cnb[c][2] = edge_of[idx(dim, x, y, z + dz)];
				for (int j = 0; j < 3; j++) {
					int *ec = l->ecorner[l->cnb[c][j]];
					ec[ec[0] >= 0] = c;
				}
			}
	free(edge_of);
	free(erun);
	return GEN_OK;
}

/* The distinct owners of corner c's neighbouring edge cells, ascending
 * (gen.h rule 2); returns how many (1..3). */
static int corner_options(const struct layout *l, const unsigned char *o, int c,
                          unsigned char d[3])
{
	int k = 0;
	for (int f = 0; f < 6; f++)
		for (int j = 0; j < 3; j++)
			if (o[l->ecell[l->cnb[c][j]]] == f) {
				d[k++] = (unsigned char)f;
				break;
			}
	return k;
}

/* Every corner whose owner is no longer among its options re-picked:
 * corner order, rng_below(k). */
static void repair_corners(const struct layout *l, struct rng *r, unsigned char *o)
{
	for (int c = 0; c < 8; c++) {
		unsigned char d[3];
		int k = corner_options(l, o, c, d), ok = 0;
		for (int i = 0; i < k; i++)
			ok |= d[i] == o[l->corner[c]];
		if (!ok)
			o[l->corner[c]] = d[rng_below(r, (uint64_t)k)];
	}
}

static void flip(const struct layout *l, unsigned char *o, int e)
{
	unsigned char *p = &o[l->ecell[e]];
	*p = *p == l->eface[e][0] ? l->eface[e][1] : l->eface[e][0];
}

/* Whether run q is a flat side: GEN_CLIMB_FLAT cells or more, one owner. */
static bool flat(const struct layout *l, const unsigned char *o, int q)
{
	const int *run = l->run + l->runstart[q];
	if (l->runlen[q] < GEN_CLIMB_FLAT)
		return false;
	for (int i = 1; i < l->runlen[q]; i++)
		if (o[l->ecell[run[i]]] != o[l->ecell[run[0]]])
			return false;
	return true;
}

static bool any_flat(const struct layout *l, const unsigned char *o)
{
	for (int q = 0; q < 12; q++)
		if (flat(l, o, q))
			return true;
	return false;
}

/* A start candidate: gen_draw()'s owner grid, each flat run (run order)
 * broken by flipping its cell rng_below(length), then the corners
 * repaired. */
static int draw_start(const struct layout *l, struct rng *r, unsigned char *o)
{
	struct gen_puzzle g;
	if (gen_draw(r, l->dim, &g) != GEN_OK)
		return GEN_ENOMEM;
	memcpy(o, g.owner, l->cells);
	gen_puzzle_clear(&g);
	for (int q = 0; q < 12; q++)
		if (flat(l, o, q))
			flip(l, o, l->run[l->runstart[q] +
			                  (int)rng_below(r, (uint64_t)l->runlen[q])]);
	repair_corners(l, r, o);
	return GEN_OK;
}

/* One move from s into t (gen.h lists the kinds and their draws); a move
 * that changes nothing or leaves a flat side is drawn again. */
static void move(const struct layout *l, struct rng *r, const unsigned char *s,
                 unsigned char *t)
{
	for (;;) {
		memcpy(t, s, l->cells);
		uint64_t ne = (uint64_t)l->nedge;
		int kind = (int)rng_below(r, 6);
		if (kind == 0) {
			flip(l, t, (int)rng_below(r, ne));
		} else if (kind == 1) {
			int c = (int)rng_below(r, 8);
			unsigned char d[3], other[2];
			int k = corner_options(l, t, c, d), m = 0;
			for (int i = 0; i < k; i++)
				if (d[i] != t[l->corner[c]])
					other[m++] = d[i];
			if (m == 0)
				continue;
			t[l->corner[c]] = other[rng_below(r, (uint64_t)m)];
		} else if (kind == 2) {
			int a = (int)rng_below(r, ne);
			int b = (int)rng_below(r, ne - 1);
			flip(l, t, a);
			flip(l, t, b + (b >= a));
		} else if (kind == 3 || kind == 4) {
			int q = (int)rng_below(r, 12), len = l->runlen[q];
			const int *run = l->run + l->runstart[q];
			if (kind == 3) {
				for (int i = 0; i < len; i++)
					flip(l, t, run[i]);
			} else {
				if (len < 2)
					continue;
				int i = (int)rng_below(r, (uint64_t)len - 1);
				flip(l, t, run[i]);
				flip(l, t, run[i + 1]);
			}
		} else {
			int e = (int)rng_below(r, ne);
			flip(l, t, e);
			for (int j = 0; j < 2; j++) {
				int c = l->ecorner[e][j];
				unsigned char d[3];
				if (c < 0)
					continue;
				int k = corner_options(l, t, c, d);
				t[l->corner[c]] = d[rng_below(r, (uint64_t)k)];
			}
		}
		repair_corners(l, r, t);
		if (memcmp(t, s, l->cells) != 0 && !any_flat(l, t))
			return;
	}
}

/* Evaluate owner grid o: '*score' is its score when unique, else -1. */
static int eval(const struct layout *l, const unsigned char *o, double *score,
                uint64_t *nodes)
{
	struct gen_puzzle g;
	if (gen_from_owner(NULL, l->dim, o, &g) != GEN_OK)
		return GEN_ENOMEM;
	bool yes = false;
	int rc = gen_unique(&g, &yes, nodes);
	*score = -1;
	if (rc == SOLVE_OK && yes)
		rc = gen_score(&g, score);
	gen_puzzle_clear(&g);
	return rc == SOLVE_OK ? GEN_OK : GEN_ENOMEM;
}

int gen_climb(struct rng *r, const int dim[3], uint64_t max_attempts,
              double target, struct gen_puzzle *out, struct gen_found *info)
{
	struct layout l;
	if (layout_init(&l, dim) != GEN_OK)
		return GEN_ENOMEM;
	unsigned char *cur = malloc(l.cells), *nb = malloc(l.cells),
	              *best = malloc(l.cells);
	struct gen_found f = {.difficulty = -1};
	int rc = cur && nb && best ? GEN_OK : GEN_ENOMEM;
	while (rc == GEN_OK && !f.found && f.attempts < max_attempts) {
		/* a start: the best of GEN_CLIMB_STARTS unique draws */
		double cs = -1, s;
		for (int got = 0; rc == GEN_OK && !f.found &&
		                  got < GEN_CLIMB_STARTS && f.attempts < max_attempts;) {
			rc = draw_start(&l, r, nb);
			if (rc == GEN_OK)
				rc = eval(&l, nb, &s, &f.nodes);
			if (rc != GEN_OK)
				break;
			f.attempts++;
			if (s < 0)
				continue;
			got++;
			if (s > cs) {
				cs = s;
				memcpy(cur, nb, l.cells);
			}
			if (s > f.difficulty) {
				f.difficulty = s;
				memcpy(best, nb, l.cells);
			}
			f.found = s >= target;
		}
		if (cs < 0)
			continue;
		/* climb: keep a move that stays unique and does not lower the score */
		double top = cs;
		for (int stall = 0; rc == GEN_OK && !f.found &&
		                    stall < GEN_CLIMB_STALL && f.attempts < max_attempts;) {
			move(&l, r, cur, nb);
			rc = eval(&l, nb, &s, &f.nodes);
			if (rc != GEN_OK)
				break;
			f.attempts++;
			stall++;
			if (s < cs)
				continue;
			memcpy(cur, nb, l.cells);
			cs = s;
			if (s > top) {
				top = s;
				stall = 0;
			}
			if (s > f.difficulty) {
				f.difficulty = s;
				memcpy(best, nb, l.cells);
			}
			f.found = s >= target;
		}
	}
	if (rc == GEN_OK && f.found)
		rc = gen_from_owner(r, dim, best, out);
	if (rc == GEN_OK)
		*info = f;
	free(cur);
	free(nb);
	free(best);
	layout_clear(&l);
	return rc;
}
