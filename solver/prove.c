/*
 * prove.c: uniqueness proofs for dissections of one goal (prove.h).
 *
 * Layout. A set of goal cells is a mask of W 64-bit words (W = 1, 2, 4 or
 * 8, the least that holds the goal; cell c is bit c % 64 of word c / 64).
 * A piece's placements are its masks in every proper rotation and
 * position, sorted (by word 0, then 1, ...), so that two pieces are
 * congruent exactly when their lists are equal: each list holds its own
 * piece's cells, so equal lists mean each piece is a placement of the
 * other. They are kept per piece slot while its cells stay the same, with
 * which of them are the least of their orbits once computed. The
 * search's rows ("entries") are the placements of one piece of each
 * congruence class (the pinned class's least ones only); a class with
 * several pieces has that many copies to place.
 *
 * The search. Up to 64 cells the rows go to bb.h and up to 128 to bbw.h
 * (MRV and their prunings: a 3 x 3 x 3 proof takes tens of nodes where
 * filling cell by cell takes thousands); beyond, a search of its own
 * fills the first empty cell with the rows in its bucket (those whose
 * first cell it is), skipping a row that leaves an empty cell with no
 * empty neighbour. Each engine finds every filling once per way the
 * pinned piece lies; the forms sort them into classes.
 *
 * Forms. A filling turned by a symmetry is written, per goal cell, as
 * (class, the least cell of its piece's image): the class alone would
 * merge two fillings where two copies of a class share their cells in
 * two ways. The least form over the symmetries names the filling's class.
 */
#include "solver/prove.h"
#include "solver/bb.h"
#include "solver/bbw.h"
#include "solver/poly.h"

#include <stdlib.h>
#include <string.h>

#define PV_MAXW 8

struct pv_piece {
	uint64_t cells[PV_MAXW]; /* the cells its placements were made from */
	bool valid;              /* the lists are up to date for 'cells' */
	size_t n;                /* placements */
	size_t norient;          /* distinct orientations */
	bool joined;             /* two cells or more, face-connected */
	uint64_t *place;         /* n x W words, sorted, owned */
	unsigned char *least;    /* n: bit 0 set when the placement is the
	                          * least of its orbit under the proper
	                          * symmetries, bit 1 under all; bits 2
	                          * and 3 when, besides, no symmetry but the
	                          * identity keeps it; owned */
	unsigned char known;     /* bit k: bit k of 'least' is computed */
	uint32_t shape;          /* its shape's in prove.shapes, when */
	uint32_t shape_gen;      /* == prove.shape_gen */
	uint64_t sig_cells[PV_MAXW]; /* the cells 'sig' is shape_sig() of */
	uint64_t sig;
	bool sig_ok;
	uint32_t *byfirst;       /* n: the placements by their first cell, */
	uint32_t *fstart;        /* those of cell c from fstart[c] (goal
	                          * cells + 1 starts); owned */
	bool indexed;            /* 'byfirst' is up to date */
};

/* Placements made before, by shape: the block generator's cuts make the
 * same few shapes again and again (3 x 3 x 3 in pieces of 4 and 5 cells:
 * 37 shapes), in any of 24 orientations (make_placements()). A shape is
 * found by a key, its cells with their box corner at the origin (packed
 * as poly.h packs them, ascending). A shape met for the first time in
 * a run is kept under the keys of all its 24 rotations, so that it is
 * found again by the key of the cells as they lie, in any orientation;
 * its least key, which every orientation shares, finds it when there
 * was no room for them all. */
struct pv_key {
	uint64_t h;       /* of its cells */
	size_t at, sz;    /* its sz packed cells: prove.kcells[at ..] */
	uint32_t shape;   /* in prove.shapes */
};
struct pv_shape {
	uint64_t *place;  /* n x W words, as pv_piece's; owned */
	size_t n, norient;
	bool joined;
	unsigned char *least, known; /* as pv_piece's, as far as a piece of
	                              * the shape computed them; owned */
};
#define PV_KEYS 16384                /* keys kept, at most */
#define PV_SHAPE_WORDS ((size_t)1 << 18) /* placements' words kept, at most (2 MB) */
#define PV_SIGS 4096                 /* signatures of shapes met once (a power of two) */

struct prove {
	int nx, ny, nz;   /* the goal's grid */
	bool box;         /* every cell of the grid is a goal cell */
	size_t n;         /* goal cells */
	int W;            /* words per mask */
	uint64_t full[PV_MAXW]; /* every goal cell */
	int *num;         /* grid index -> cell, -1 off the goal; owned */
	int (*at)[3];     /* cell -> x, y, z; owned */
	uint64_t *nbr;    /* cell -> its face neighbours in the goal, W words */
	bb *bb;           /* the 64-cell engine of the last proof; owned */
	int nsym;         /* the goal's symmetries, the identity first */
	int nproper;      /* of them, the proper rotations (they come first) */
	int *perm;        /* nsym x n: the image of each cell; owned */
	int *inv;         /* nsym x n: the cell each cell is the image of; owned */
	struct pv_piece pc[PROVE_MAX_PIECES];
	/* scratch of prove_count(), grown as needed; owned */
	uint32_t *ecls;   /* entry -> class */
	bool *efree;      /* entry -> a pinned placement no symmetry keeps */
	uint64_t *emask;  /* entry -> mask, W words each */
	uint64_t *ehalo;  /* entry -> the goal cells next to it, W words each */
	size_t ecap;      /* entries 'ecls' and 'emask' hold */
	/* On the bitboards (W <= 2) the entries are not copied: class j's
	 * are entries seg_at[j] .. seg_at[j + 1], their masks at seg_mask[j]
	 * (a piece's placements; for the pinned class, its least ones in
	 * emask), and efree holds the pinned class's alone (nseg classes;
	 * 0: the arrays above hold every entry) */
	size_t seg_at[PROVE_MAX_PIECES + 1];
	const uint64_t *seg_mask[PROVE_MAX_PIECES];
	int nseg, seg_pin;
	uint32_t *bstart; /* n + 1 bucket starts */
	uint32_t *forms;  /* the classes found, n words each */
	size_t fcap;      /* forms 'forms' holds */
	uint32_t *best;   /* n words: least_form()'s */
	uint32_t *scratch; /* 24 * n packed cells: a piece's orientations */
	int (*xyz)[3];     /* n: a piece's cells */
	int rperm[24][3], rsign[24][3]; /* the proper rotations: coordinate a
	                   * of a cell's image is rsign[a] * its coordinate
	                   * rperm[a] */
	uint64_t *tmp;     /* 24 * n masks: room to sort placements */
	uint32_t *key[2];  /* n each: a piece's keys, as it lies and least */
	uint32_t *turned;  /* 24 * n: the keys of its 24 rotations */
	struct pv_key *keys;     /* PV_KEYS, the first nkeys in use */
	uint32_t *kcells;  /* the keys' cells, kcells_n in use of kcells_cap */
	size_t kcells_n, kcells_cap;
	struct pv_shape *shapes; /* PV_KEYS, the first nshapes in use */
	size_t nkeys, nshapes, shape_words;
	uint32_t shape_gen; /* one more each time the shapes are forgotten */
	uint32_t *ktab;    /* 2 * PV_KEYS slots: key + 1, 0 empty */
	/* shape_sig()s of the shapes met and not kept (a shape is kept the
	 * second time its signature is met: most shapes a block generator
	 * proves are met once, a piece it cuts again), PV_SIGS slots, sig
	 * | 1, 0 empty; nsigs in use */
	uint64_t *sigs;
	size_t nsigs;
};

/* The lexicographic order of masks, word 0 first. */
static int mask_cmp(const uint64_t *a, const uint64_t *b, int W)
{
	for (int w = 0; w < W; w++)
		if (a[w] != b[w])
			return a[w] < b[w] ? -1 : 1;
	return 0;
}

prove *prove_new(const struct grid *goal)
{
	size_t total;
	if (!puz_box_cells(goal->nx, goal->ny, goal->nz, &total))
		return NULL;
	size_t n = 0;
	for (size_t i = 0; i < total; i++)
		n += goal->cells[i] != 0;
	if (n == 0 || n > PROVE_MAX_CELLS)
		return NULL;
	prove *p = calloc(1, sizeof *p);
	if (!p)
		return NULL;
	p->nx = goal->nx;
	p->ny = goal->ny;
	p->nz = goal->nz;
	p->n = n;
	p->box = n == total;
	p->W = 1;
	while ((size_t)p->W * 64 < n)
		p->W *= 2;
	p->num = malloc(total * sizeof *p->num);
	p->at = malloc(n * sizeof *p->at);
	p->perm = malloc(POLY_NSYM * n * sizeof *p->perm);
	p->inv = malloc(POLY_NSYM * n * sizeof *p->inv);
	p->xyz = malloc(n * sizeof *p->xyz);
	p->tmp = malloc(24 * n * (size_t)p->W * sizeof *p->tmp);
	p->nbr = calloc(n * (size_t)p->W, sizeof *p->nbr);
	p->bstart = malloc((n + 1) * sizeof *p->bstart);
	p->best = malloc(n * sizeof *p->best);
	p->scratch = malloc(24 * n * sizeof *p->scratch);
	p->key[0] = malloc(n * sizeof *p->key[0]);
	p->key[1] = malloc(n * sizeof *p->key[1]);
	p->turned = malloc(24 * n * sizeof *p->turned);
	p->keys = malloc(PV_KEYS * sizeof *p->keys);
	p->shapes = malloc(PV_KEYS * sizeof *p->shapes);
	p->ktab = calloc(2 * PV_KEYS, sizeof *p->ktab);
	p->sigs = calloc(PV_SIGS, sizeof *p->sigs);
	if (!p->num || !p->at || !p->perm || !p->inv || !p->bstart ||
	    !p->best || !p->scratch || !p->xyz || !p->nbr || !p->tmp ||
	    !p->key[0] || !p->key[1] || !p->turned || !p->keys || !p->shapes ||
	    !p->ktab || !p->sigs) {
		prove_free(p);
		return NULL;
	}
	size_t c = 0;
	int lo[3] = {p->nx, p->ny, p->nz};
	for (int z = 0; z < p->nz; z++)
		for (int y = 0; y < p->ny; y++)
			for (int x = 0; x < p->nx; x++) {
				size_t i = puz_grid_index(goal, x, y, z);
				p->num[i] = goal->cells[i] ? (int)c : -1;
				if (!goal->cells[i])
					continue;
				const int q[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					p->at[c][a] = q[a];
					lo[a] = q[a] < lo[a] ? q[a] : lo[a];
				}
				p->full[c / 64] |= (uint64_t)1 << (c % 64);
				c++;
			}
	for (size_t k = 0; k < n; k++)
		for (int d = 0; d < 6; d++) {
			int q[3] = {p->at[k][0], p->at[k][1], p->at[k][2]};
			q[d / 2] += d % 2 ? -1 : 1;
			const int lim[3] = {p->nx, p->ny, p->nz};
			if (q[d / 2] < 0 || q[d / 2] >= lim[d / 2])
				continue;
			int e = p->num[puz_grid_index(goal, q[0], q[1], q[2])];
			if (e >= 0)
				p->nbr[k * (size_t)p->W + (size_t)e / 64] |=
				    (uint64_t)1 << (e % 64);
		}
	for (int sym = 0, j = 0; sym < POLY_NSYM; sym++) {
		if (!poly_sym_proper(sym))
			continue;
		for (int a = 0; a < 3; a++) {
			int e[3] = {a == 0, a == 1, a == 2}, q[3];
			poly_sym_apply(sym, e, q);
			for (int b = 0; b < 3; b++)
				if (q[b]) {
					p->rperm[j][b] = a;
					p->rsign[j][b] = q[b];
				}
		}
		j++;
	}
	/* The goal's symmetries: those that map its cells, moved back to
	 * the same least corner, onto its cells; the proper ones first. */
	for (int pass = 0; pass < 2; pass++) {
		for (int s = 0; s < POLY_NSYM; s++) {
			if (poly_sym_proper(s) != (pass == 0))
				continue;
			int *img = p->perm + (size_t)p->nsym * n;
			int rlo[3] = {1 << 20, 1 << 20, 1 << 20};
			for (size_t k = 0; k < n; k++) {
				int q[3];
				poly_sym_apply(s, p->at[k], q);
				for (int a = 0; a < 3; a++)
					rlo[a] = q[a] < rlo[a] ? q[a] : rlo[a];
			}
			bool ok = true;
			for (size_t k = 0; k < n && ok; k++) {
				int q[3];
				poly_sym_apply(s, p->at[k], q);
				for (int a = 0; a < 3; a++)
					q[a] += lo[a] - rlo[a];
				ok = q[0] >= 0 && q[0] < p->nx && q[1] >= 0 && q[1] < p->ny &&
				     q[2] >= 0 && q[2] < p->nz;
				int to = ok ? p->num[puz_grid_index(goal, q[0], q[1], q[2])] : -1;
				ok = to >= 0;
				img[k] = to;
			}
			p->nsym += ok; /* poly.h: symmetry 0, the identity, comes first */
			p->nproper += ok && pass == 0;
		}
	}
	for (int s = 0; s < p->nsym; s++)
		for (size_t k = 0; k < n; k++)
			p->inv[(size_t)s * n + (size_t)p->perm[(size_t)s * n + k]] = (int)k;
	return p;
}

/* Forget every shape kept. */
static void shapes_clear(prove *p)
{
	for (size_t i = 0; i < p->nshapes; i++) {
		free(p->shapes[i].place);
		free(p->shapes[i].least);
	}
	p->nkeys = p->nshapes = p->shape_words = p->kcells_n = 0;
	p->shape_gen++;
	memset(p->ktab, 0, 2 * PV_KEYS * sizeof *p->ktab);
	if (p->sigs)
		memset(p->sigs, 0, PV_SIGS * sizeof *p->sigs);
	p->nsigs = 0;
}

void prove_free(prove *p)
{
	if (!p)
		return;
	if (p->keys && p->shapes && p->ktab)
		shapes_clear(p);
	free(p->keys);
	free(p->shapes);
	free(p->ktab);
	free(p->sigs);
	free(p->key[0]);
	free(p->key[1]);
	free(p->turned);
	free(p->kcells);
	for (int i = 0; i < PROVE_MAX_PIECES; i++) {
		free(p->pc[i].place);
		free(p->pc[i].least);
		free(p->pc[i].byfirst);
		free(p->pc[i].fstart);
	}
	free(p->xyz);
	free(p->tmp);
	free(p->nbr);
	free(p->ehalo);
	free(p->num);
	free(p->at);
	bb_free(p->bb);
	free(p->perm);
	free(p->inv);
	free(p->ecls);
	free(p->efree);
	free(p->emask);
	free(p->bstart);
	free(p->forms);
	free(p->best);
	free(p->scratch);
	free(p);
}

size_t prove_cells(const prove *p)
{
	return p->n;
}

/* Whether two-word mask x is below y, word 0 first. */
static inline bool pair_below(const uint64_t *x, const uint64_t *y)
{
	return x[0] < y[0] || (x[0] == y[0] && x[1] < y[1]);
}

/* Sort n masks of W words, word 0 first, through 'tmp' (room for n
 * masks). With one word, v holds nrun ascending runs (run r ends before
 * end[r]: one per orientation, since a larger move gives a larger top
 * cell) and they are merged, pairs at a time; with more, a merge sort
 * from runs of one (a move may carry cells from one word into the next,
 * so the orientations' runs are not in this order; qsort() takes no
 * width). */
static void sort_masks(uint64_t *v, size_t n, int W, uint64_t *tmp,
                       size_t *end, size_t nrun)
{
	if (W == 1) {
		uint64_t *a = v, *b = tmp;
		while (nrun > 1) {
			size_t k = 0, lo = 0;
			for (size_t r = 0; r < nrun; r += 2) {
				size_t mid = end[r], hi = r + 1 < nrun ? end[r + 1] : mid;
				size_t i = lo, j = mid, o = lo;
				while (i < mid && j < hi)
					b[o++] = a[j] < a[i] ? a[j++] : a[i++];
				while (i < mid)
					b[o++] = a[i++];
				while (j < hi)
					b[o++] = a[j++];
				end[k++] = hi;
				lo = hi;
			}
			nrun = k;
			uint64_t *t = a;
			a = b;
			b = t;
		}
		if (a != v)
			memcpy(v, a, n * sizeof *v);
		return;
	}
	/* two words or more: merged a run of 1, 2, 4, ... at a time */
	uint64_t *a = v, *b = tmp;
	size_t ws = (size_t)W;
	for (size_t len = 1; len < n; len *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * len) {
			size_t mid = lo + len < n ? lo + len : n;
			size_t hi = mid + len < n ? mid + len : n;
			size_t i = lo, j = mid, o = lo;
			while (i < mid || j < hi) {
				bool left = j == hi ||
				            (i < mid && (W == 2 ? !pair_below(a + 2 * j, a + 2 * i)
				                                : mask_cmp(a + i * ws, a + j * ws,
				                                           W) <= 0));
				size_t f = left ? i++ : j++;
				if (W == 2) { /* (the usual width: no call to copy) */
					b[2 * o] = a[2 * f];
					b[2 * o + 1] = a[2 * f + 1];
				} else {
					memcpy(b + o * ws, a + f * ws, ws * sizeof *a);
				}
				o++;
			}
		}
		uint64_t *t = a;
		a = b;
		b = t;
	}
	if (a != v)
		memcpy(v, a, n * ws * sizeof *v);
}

/* 'm' moved up by s cells (W words), into 'out'. */
static void mask_shift(const uint64_t *m, size_t s, int W, uint64_t *out)
{
	size_t q = s / 64;
	unsigned r = (unsigned)(s % 64);
	for (size_t w = 0; w < (size_t)W; w++) {
		uint64_t v = 0;
		if (w >= q) {
			v = m[w - q] << r;
			if (r && w > q)
				v |= m[w - q - 1] >> (64 - r);
		}
		out[w] = v;
	}
}

/* The placements of the piece with the sz cells xyz[] (any coordinates)
 * into a new sorted array '*out' of '*np' masks. false: out of memory. */
static bool placements(prove *p, const int (*xyz)[3], size_t sz,
                       uint64_t **out, size_t *nout, size_t *norient)
{
	const int W = p->W;
	/* the piece under each of the 24 rotations, moved to the origin
	 * (a piece with symmetries gives some orientation several times:
	 * its placements are made as often, and the copies dropped below) */
	uint32_t *orient = p->scratch;
	int ext[24][3];
	size_t no = 24, total = 0;
	/* the cells' box; a rotation's image box is its corners turned */
	int lo[3] = {1 << 20, 1 << 20, 1 << 20},
	    hi[3] = {-(1 << 20), -(1 << 20), -(1 << 20)};
	for (size_t k = 0; k < sz; k++)
		for (int a = 0; a < 3; a++) {
			lo[a] = xyz[k][a] < lo[a] ? xyz[k][a] : lo[a];
			hi[a] = xyz[k][a] > hi[a] ? xyz[k][a] : hi[a];
		}
	for (size_t j = 0; j < 24; j++) {
		uint32_t *o = orient + j * sz;
		const int *rp = p->rperm[j], *rs = p->rsign[j];
		int rlo[3], rhi[3];
		for (int a = 0; a < 3; a++) {
			rlo[a] = rs[a] > 0 ? lo[rp[a]] : -hi[rp[a]];
			rhi[a] = rs[a] > 0 ? hi[rp[a]] : -lo[rp[a]];
		}
		for (size_t k = 0; k < sz; k++)
			o[k] = poly_pack(rs[0] * xyz[k][rp[0]] - rlo[0],
			                 rs[1] * xyz[k][rp[1]] - rlo[1],
			                 rs[2] * xyz[k][rp[2]] - rlo[2]);
		for (int a = 0; a < 3; a++)
			ext[j][a] = rhi[a] - rlo[a] + 1;
		if (ext[j][0] <= p->nx && ext[j][1] <= p->ny && ext[j][2] <= p->nz)
			total += (size_t)(p->nx - ext[j][0] + 1) *
			         (size_t)(p->ny - ext[j][1] + 1) *
			         (size_t)(p->nz - ext[j][2] + 1);
	}
	uint64_t *place = malloc((total ? total : 1) * (size_t)W * sizeof *place);
	if (!place)
		return false;
	size_t np = 0, run[24];
	struct grid g = {p->nx, p->ny, p->nz, NULL};
	for (size_t j = 0; j < no; j++) {
		const uint32_t *o = orient + j * sz;
		if (p->box && W == 1) {
			/* a whole box of at most 64 cells: a cell's number is
			 * its grid index, and a move is a shift */
			uint64_t base = 0;
			for (size_t k = 0; k < sz; k++)
				base |= (uint64_t)1 << puz_grid_index(&g, poly_x(o[k]),
				                                     poly_y(o[k]),
				                                     poly_z(o[k]));
			for (int tz = 0; tz + ext[j][2] <= p->nz; tz++)
				for (int ty = 0; ty + ext[j][1] <= p->ny; ty++)
					for (int tx = 0; tx + ext[j][0] <= p->nx; tx++)
						place[np++] = base << puz_grid_index(&g, tx, ty, tz);
			run[j] = np;
			continue;
		}
		if (p->box) {
			/* the same on W words: a move shifts every word */
			uint64_t base[PV_MAXW] = {0};
			for (size_t k = 0; k < sz; k++) {
				size_t c = puz_grid_index(&g, poly_x(o[k]), poly_y(o[k]),
				                          poly_z(o[k]));
				base[c / 64] |= (uint64_t)1 << (c % 64);
			}
			for (int tz = 0; tz + ext[j][2] <= p->nz; tz++)
				for (int ty = 0; ty + ext[j][1] <= p->ny; ty++)
					for (int tx = 0; tx + ext[j][0] <= p->nx; tx++)
						mask_shift(base, puz_grid_index(&g, tx, ty, tz), W,
						           place + np++ * (size_t)W);
			run[j] = np;
			continue;
		}
		for (int tz = 0; tz + ext[j][2] <= p->nz; tz++)
			for (int ty = 0; ty + ext[j][1] <= p->ny; ty++)
				for (int tx = 0; tx + ext[j][0] <= p->nx; tx++) {
					uint64_t *v = place + np * (size_t)W;
					memset(v, 0, (size_t)W * sizeof *v);
					size_t k = 0;
					for (; k < sz; k++) {
						int c = p->num[puz_grid_index(
						    &g, tx + poly_x(o[k]), ty + poly_y(o[k]),
						    tz + poly_z(o[k]))];
						if (c < 0)
							break;
						v[c / 64] |= (uint64_t)1 << (c % 64);
					}
					np += k == sz;
				}
		run[j] = np;
	}
	sort_masks(place, np, W, p->tmp, run, no);
	/* each distinct placement came once per rotation that keeps the
	 * piece's shape: as often as the piece has symmetries */
	size_t nu = np ? 1 : 0;
	for (size_t i = 1; i < np; i++)
		if (mask_cmp(place + (i - 1) * (size_t)W, place + i * (size_t)W, W)) {
			for (int w = 0; w < W; w++)
				place[nu * (size_t)W + (size_t)w] = place[i * (size_t)W + (size_t)w];
			nu++;
		}
	*out = place;
	*nout = nu;
	*norient = nu ? 24 * nu / np : 24;
	return true;
}

/* Whether the cells m are face-connected (a flood through p->nbr). */
static bool face_connected(const prove *p, const uint64_t *m)
{
	const int W = p->W;
	uint64_t seen[PV_MAXW] = {0}, grow[PV_MAXW] = {0};
	for (int w = 0; w < W; w++)
		if (m[w]) {
			seen[w] = m[w] & -m[w];
			break;
		}
	for (bool more = true; more;) {
		memset(grow, 0, sizeof grow);
		for (int w = 0; w < W; w++)
			for (uint64_t x = seen[w]; x; x &= x - 1) {
				const uint64_t *nb = p->nbr +
				    (size_t)(w * 64 + __builtin_ctzll(x)) * (size_t)W;
				for (int u = 0; u < W; u++)
					grow[u] |= nb[u];
			}
		more = false;
		for (int w = 0; w < W; w++) {
			uint64_t add = grow[w] & m[w] & ~seen[w];
			seen[w] |= add;
			more |= add != 0;
		}
	}
	for (int w = 0; w < W; w++)
		if (seen[w] != m[w])
			return false;
	return true;
}

/* Into 'key' (sz of them), the packed cells of p->xyz turned by the
 * j-th rotation, their box corner at the origin, ascending; 'lo' and
 * 'hi' are the cells' least and greatest coordinates, and each side of
 * their box at most 256 cells (poly_pack()). */
static void turned_key(const prove *p, size_t sz, int j, const int lo[3],
                       const int hi[3], uint32_t *key)
{
	const int *rp = p->rperm[j], *rs = p->rsign[j];
	/* coordinate a of an image is s[a] * (its coordinate rp[a]) + o[a] */
	int sg[3], o[3];
	for (int a = 0; a < 3; a++) {
		sg[a] = rs[a];
		o[a] = rs[a] > 0 ? -lo[rp[a]] : hi[rp[a]];
	}
	for (size_t k = 0; k < sz; k++) {
		const int *q = p->xyz[k];
		uint32_t v = poly_pack(sg[0] * q[rp[0]] + o[0], sg[1] * q[rp[1]] + o[1],
		                       sg[2] * q[rp[2]] + o[2]);
		size_t i = k;
		for (; i > 0 && key[i - 1] > v; i--)
			key[i] = key[i - 1];
		key[i] = v;
	}
}

static uint64_t key_hash(const uint32_t *key, size_t sz)
{
	uint64_t v = sz;
	for (size_t k = 0; k < sz; k++)
		v = (v ^ key[k]) * 0x100000001b3u;
	return v ^ v >> 29;
}

/* The slot of key 'key' (sz cells, hash h) in p->ktab: where it is, or
 * the empty slot where it would go. */
static size_t key_slot(const prove *p, const uint32_t *key, size_t sz,
                       uint64_t h)
{
	size_t mask = 2 * PV_KEYS - 1;
	for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
		if (!p->ktab[i])
			return i;
		const struct pv_key *e = &p->keys[p->ktab[i] - 1];
		if (e->h == h && e->sz == sz &&
		    !memcmp(p->kcells + e->at, key, sz * sizeof *key))
			return i;
	}
}

/* Keep 'key' for shape s at its slot; false when it cannot be copied
 * (then it is not kept). */
static bool key_keep(prove *p, const uint32_t *key, size_t sz, uint64_t h,
                     size_t slot, uint32_t s)
{
	if (p->nkeys == PV_KEYS)
		return false;
	if (sz > p->kcells_cap - p->kcells_n) {
		size_t cap = p->kcells_cap ? 2 * p->kcells_cap : 4096;
		while (cap - p->kcells_n < sz)
			cap *= 2;
		uint32_t *c = realloc(p->kcells, cap * sizeof *c);
		if (!c)
			return false;
		p->kcells = c;
		p->kcells_cap = cap;
	}
	memcpy(p->kcells + p->kcells_n, key, sz * sizeof *key);
	p->keys[p->nkeys++] = (struct pv_key){h, p->kcells_n, sz, s};
	p->kcells_n += sz;
	p->ktab[slot] = (uint32_t)p->nkeys;
	return true;
}

/* The shape p->key[1] names (its hash h1), its placements just made,
 * kept with that key when there is room. Its number, or UINT32_MAX when
 * it is not kept (no room, or a copy that could not be made). */
static uint32_t shape_keep(prove *p, size_t sz, uint64_t h1,
                           const uint64_t *place, size_t np, size_t no,
                           bool joined)
{
	size_t words = np * (size_t)p->W;
	if (words > PV_SHAPE_WORDS)
		return UINT32_MAX;
	/* room for the keys of its 24 rotations */
	if (p->nkeys + 24 > PV_KEYS || p->shape_words + words > PV_SHAPE_WORDS)
		shapes_clear(p);
	struct pv_shape e = {malloc((words ? words : 1) * sizeof *e.place), np,
	                     no, joined, malloc(np ? np : 1), 0};
	if (!e.place || !e.least) {
		free(e.place);
		free(e.least);
		return UINT32_MAX;
	}
	memcpy(e.place, place, words * sizeof *e.place);
	uint32_t s = (uint32_t)p->nshapes;
	if (!key_keep(p, p->key[1], sz, h1, key_slot(p, p->key[1], sz, h1), s)) {
		free(e.place);
		free(e.least);
		return UINT32_MAX;
	}
	p->shapes[p->nshapes++] = e;
	p->shape_words += words;
	return s;
}

/* Keep the keys of the piece's 24 rotations (p->turned, sz cells each)
 * for shape s, those not kept already, while there is room. */
static void turned_keep(prove *p, size_t sz, uint32_t s)
{
	for (int j = 0; j < 24; j++) {
		const uint32_t *key = p->turned + (size_t)j * sz;
		uint64_t h = key_hash(key, sz);
		size_t slot = key_slot(p, key, sz, h);
		if (!p->ktab[slot] && !key_keep(p, key, sz, h, slot, s))
			return;
	}
}

static uint64_t shape_sig(const prove *p, const uint64_t *m);

/* Whether a shape of signature 'sig' (shape_sig()) has been met before
 * (p->sigs) without being kept; it is remembered as met when not. */
static bool sig_met(prove *p, uint64_t sig)
{
	sig |= 1;
	size_t mask = PV_SIGS - 1;
	size_t i = (size_t)(sig ^ sig >> 31) & mask;
	for (; p->sigs[i]; i = (i + 1) & mask)
		if (p->sigs[i] == sig)
			return true;
	if (2 * (p->nsigs + 1) > PV_SIGS) { /* half full: forget them all */
		memset(p->sigs, 0, PV_SIGS * sizeof *p->sigs);
		p->nsigs = 0;
		i = (size_t)(sig ^ sig >> 31) & mask;
	}
	p->sigs[i] = sig;
	p->nsigs++;
	return false;
}

/* The placements of the piece with cells 'm' into '*pc': those of its
 * shape kept from before, else made, and kept when its signature was met
 * before (a shape met once costs no turned keys: the block generator's
 * pieces that it cuts again are mostly met once). false: out of memory,
 * '*pc' unchanged. */
static bool make_placements(prove *p, const uint64_t *m, struct pv_piece *pc)
{
	size_t sz = 0;
	for (int w = 0; w < p->W; w++)
		for (uint64_t x = m[w]; x; x &= x - 1)
			memcpy(p->xyz[sz++], p->at[w * 64 + __builtin_ctzll(x)],
			       sizeof p->xyz[0]);
	/* the key as it lies (rotation 0 is the identity), then the least
	 * of the turned ones; none past 256 cells a side (they do not pack).
	 * A shape found by its least key, or made, is kept under all of its
	 * turned keys (turned_keep()). */
	int lo[3] = {1 << 20, 1 << 20, 1 << 20}, hi[3] = {-(1 << 20), -(1 << 20), -(1 << 20)};
	for (size_t k = 0; k < sz; k++)
		for (int a = 0; a < 3; a++) {
			lo[a] = p->xyz[k][a] < lo[a] ? p->xyz[k][a] : lo[a];
			hi[a] = p->xyz[k][a] > hi[a] ? p->xyz[k][a] : hi[a];
		}
	bool keyed = hi[0] - lo[0] < 256 && hi[1] - lo[1] < 256 && hi[2] - lo[2] < 256;
	const struct pv_shape *e = NULL;
	uint32_t shape = UINT32_MAX;
	uint64_t h1 = 0;
	bool turned = false;
	if (keyed) {
		turned_key(p, sz, 0, lo, hi, p->key[0]);
		size_t slot = key_slot(p, p->key[0], sz, key_hash(p->key[0], sz));
		if (p->ktab[slot]) {
			shape = p->keys[p->ktab[slot] - 1].shape;
			e = &p->shapes[shape];
		}
	}
	if (keyed && !e && sig_met(p, shape_sig(p, m))) {
		uint32_t *t = p->turned;
		memcpy(t, p->key[0], sz * sizeof *t);
		const uint32_t *least = t;
		for (int j = 1; j < 24; j++) {
			uint32_t *tj = t + (size_t)j * sz;
			turned_key(p, sz, j, lo, hi, tj);
			size_t i = 0;
			while (i < sz && tj[i] == least[i])
				i++;
			if (i < sz && tj[i] < least[i])
				least = tj;
		}
		turned = true;
		memcpy(p->key[1], least, sz * sizeof *least);
		h1 = key_hash(p->key[1], sz);
		size_t slot = key_slot(p, p->key[1], sz, h1);
		if (p->ktab[slot]) {
			shape = p->keys[p->ktab[slot] - 1].shape;
			e = &p->shapes[shape];
			turned_keep(p, sz, shape);
		}
	}
	uint64_t *place;
	size_t np, no;
	bool joined;
	if (e) {
		np = e->n;
		no = e->norient;
		joined = e->joined;
		place = malloc((np ? np : 1) * (size_t)p->W * sizeof *place);
		if (!place)
			return false;
		memcpy(place, e->place, np * (size_t)p->W * sizeof *place);
	} else {
		if (!placements(p, (const int (*)[3])p->xyz, sz, &place, &np, &no))
			return false;
		joined = sz >= 2 && face_connected(p, m);
		if (turned) {
			shape = shape_keep(p, sz, h1, place, np, no, joined);
			if (shape != UINT32_MAX)
				turned_keep(p, sz, shape);
		}
	}
	unsigned char *least = malloc(np ? np : 1);
	if (!least) {
		free(place);
		return false;
	}
	/* (a shape just kept has nothing known yet) */
	unsigned char known = shape != UINT32_MAX ? p->shapes[shape].known : 0;
	if (known)
		memcpy(least, p->shapes[shape].least, np);
	free(pc->place);
	free(pc->least);
	pc->joined = joined;
	memcpy(pc->cells, m, (size_t)p->W * sizeof *m);
	pc->place = place;
	pc->n = np;
	pc->norient = no;
	pc->least = least;
	pc->known = known;
	pc->shape = shape;
	pc->shape_gen = p->shape_gen;
	pc->valid = true;
	pc->indexed = false;
	return true;
}

/* Whether mask 'm' is one of pc's placements (binary search). */
static size_t find_placement(const prove *p, const struct pv_piece *pc,
                             const uint64_t *m)
{
	size_t lo = 0, hi = pc->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = mask_cmp(pc->place + mid * (size_t)p->W, m, p->W);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

static bool has_placement(const prove *p, const struct pv_piece *pc,
                          const uint64_t *m)
{
	return find_placement(p, pc, m) != SIZE_MAX;
}

/* The image of mask 'm' under symmetry 's'. */
static void mask_image(const prove *p, int s, const uint64_t *m, uint64_t *out)
{
	const int *perm = p->perm + (size_t)s * p->n;
	memset(out, 0, (size_t)p->W * sizeof *out);
	for (int w = 0; w < p->W; w++)
		for (uint64_t x = m[w]; x; x &= x - 1) {
			int c = perm[w * 64 + __builtin_ctzll(x)];
			out[c / 64] |= (uint64_t)1 << (c % 64);
		}
}

/* Whether mask 'm' is the least of its orbit under the goal's first
 * 'nsym' symmetries: 0 no, 1 yes, 2 yes and no symmetry but the identity
 * keeps it (its stabiliser is trivial). */
static int orbit_least(const prove *p, int nsym, const uint64_t *m)
{
	uint64_t t[PV_MAXW];
	bool kept = false;
	for (int s = 1; s < nsym; s++) {
		mask_image(p, s, m, t);
		int c = mask_cmp(t, m, p->W);
		if (c < 0)
			return 0;
		kept |= c == 0;
	}
	return kept ? 1 : 2;
}

/* pc's orbit bits 'bit' (the least of its orbit) and bit << 2 (and a
 * trivial stabiliser) under the first 'nsym' symmetries, a group that
 * maps pc's placements onto themselves, as orbit_least() gives them,
 * an orbit at a time: its first placement in the sorted list is its
 * least, and it has nsym placements when only the identity keeps them.
 * false when an image is not in the list (the bits are then unfinished:
 * orbit_least() must set them). */
static bool orbit_bits(prove *p, struct pv_piece *pc, int nsym,
                       unsigned char bit)
{
	const int W = p->W;
	uint64_t *seen = p->tmp; /* 24 n words: a bit per placement */
	memset(seen, 0, (pc->n + 63) / 64 * sizeof *seen);
	unsigned char keep = (unsigned char)~(bit | bit << 2);
	for (size_t i = 0; i < pc->n; i++)
		pc->least[i] &= keep;
	for (size_t i = 0; i < pc->n; i++) {
		if (seen[i / 64] >> (i % 64) & 1)
			continue;
		int size = 0;
		for (int s = 0; s < nsym; s++) {
			uint64_t t[PV_MAXW];
			mask_image(p, s, pc->place + i * (size_t)W, t);
			size_t j = find_placement(p, pc, t);
			if (j == SIZE_MAX)
				return false;
			if (!(seen[j / 64] >> (j % 64) & 1)) {
				seen[j / 64] |= (uint64_t)1 << (j % 64);
				size++;
			}
		}
		pc->least[i] |= bit;
		if (size == nsym)
			pc->least[i] |= (unsigned char)(bit << 2);
	}
	return true;
}

/* The first cell of mask 'm' (which has one). */
static size_t first_cell(const uint64_t *m)
{
	size_t w = 0;
	while (!m[w])
		w++;
	return w * 64 + (size_t)__builtin_ctzll(m[w]);
}

/* pc's placements in buckets by their first cell (a counting sort), for
 * near_second(). false: out of memory. */
static bool first_index(prove *p, struct pv_piece *pc)
{
	if (pc->indexed)
		return true;
	size_t n = p->n;
	uint32_t *st = realloc(pc->fstart, (n + 1) * sizeof *st);
	if (!st)
		return false;
	pc->fstart = st;
	uint32_t *by = realloc(pc->byfirst, (pc->n ? pc->n : 1) * sizeof *by);
	if (!by)
		return false;
	pc->byfirst = by;
	memset(st, 0, (n + 1) * sizeof *st);
	for (size_t i = 0; i < pc->n; i++)
		st[first_cell(pc->place + i * (size_t)p->W) + 1]++;
	for (size_t c = 0; c < n; c++)
		st[c + 1] += st[c];
	/* st[c]: bucket c's start; filling moves it to bucket c + 1's */
	for (size_t i = 0; i < pc->n; i++)
		by[st[first_cell(pc->place + i * (size_t)p->W)]++] = (uint32_t)i;
	for (size_t c = n; c > 0; c--)
		st[c] = st[c - 1];
	st[0] = 0;
	pc->indexed = true;
	return true;
}

/* One search's state. */
struct run {
	prove *p;
	size_t depth;      /* pieces to place in all */
	uint32_t *idx;     /* depth -> the entry placed (or being tried) */
	uint32_t *cell;    /* depth -> the cell being filled */
	unsigned rem[PROVE_MAX_PIECES]; /* class -> copies left */
	unsigned char mirror[PROVE_MAX_PIECES]; /* class -> its mirror image's */
	int nsym;          /* the symmetries fillings are counted up to */
	bool isolate;      /* no piece of one cell: an isolated empty cell is dead */
	bool joined;       /* every piece face-connected, of two cells or more */
	uint64_t cap, max_nodes, nodes, found;
	uint64_t nforms;   /* of the classes found, those with their form kept */
	bool stopped;      /* by the cap or the budget */
	/* the known filling (a proof of uniqueness: near_poll()) */
	const uint64_t *const *known; /* piece -> its cells */
	const uint32_t *kcls; /* piece -> its class */
	size_t k;          /* pieces */
	int stage;         /* near_poll()'s steps done (NEAR_DONE: none due) */
	bool known_left;   /* the known class, forms[0], counted already and
	                    * not met yet as a class of its own */
	bool oom;          /* near_poll() ran out of memory */
	uint64_t limit;    /* search_w(): the nodes it may reach before it
	                    * asks near_poll() for more */
	uint64_t extra;    /* placements tried by refill() */
	uint32_t first[PROVE_MAX_PIECES]; /* a class of its own found before */
	size_t nfirst;     /* near_poll(): its entries, when nfirst > 0 */
	/* prove_count_pieces(): the first filling found, as piece labels
	 * (n of them), when not NULL; cls: piece -> its class */
	int *first_out;
	const int *cls;
	bool scout;        /* prove_count_pieces() capped at 2: the first
	                    * filling found to be scouted (scout_poll()) */
};

/* The least form of a filling of 'len' pieces (piece d covers masks[d]
 * and is of class cls[d]) under the run's symmetries, into p->best. */
static void least_form(struct run *r, const uint64_t *const *masks,
                       const uint32_t *cls, size_t len)
{
	prove *p = r->p;
	size_t n = p->n;
	const int W = p->W;
	unsigned char of[PROVE_MAX_CELLS]; /* cell -> its piece */
	for (size_t d = 0; d < len; d++)
		for (int w = 0; w < W; w++)
			for (uint64_t x = masks[d][w]; x; x &= x - 1)
				of[w * 64 + __builtin_ctzll(x)] = (unsigned char)d;
	/* The form of the filling turned by symmetry s: each cell of the
	 * image, in order, holds (class, the piece's rank among the pieces
	 * by their first cell in the image), so that two copies of a class
	 * that fill their cells in two ways differ. Read in cell order, an
	 * image stops at its first cell above the least form so far. */
	uint32_t *best = p->best;
	for (int s = 0; s < r->nsym; s++) {
		const int *inv = p->inv + (size_t)s * n;
		unsigned char rank[PROVE_MAX_PIECES];
		memset(rank, 0, len);
		unsigned next = 0;
		bool below = s == 0; /* writing: below the least so far */
		for (size_t c = 0; c < n; c++) {
			size_t d = of[inv[c]];
			if (!rank[d])
				rank[d] = (unsigned char)++next;
			uint32_t c0 = cls[d];
			if (s >= p->nproper) /* a mirror image: its mirror's class */
				c0 = r->mirror[c0];
			uint32_t v = c0 << 16 | rank[d];
			if (!below) {
				if (v > best[c])
					break;
				below = v < best[c];
			}
			best[c] = v;
		}
	}
}

/* Entry e's class (its segment when the entries are in segments). */
static inline uint32_t entry_cls(const prove *p, size_t e)
{
	if (!p->nseg)
		return p->ecls[e];
	uint32_t j = 0;
	while (e >= p->seg_at[j + 1])
		j++;
	return j;
}

static inline const uint64_t *entry_mask(const prove *p, size_t e)
{
	if (!p->nseg)
		return p->emask + e * (size_t)p->W;
	uint32_t j = entry_cls(p, e);
	return p->seg_mask[j] + (e - p->seg_at[j]) * (size_t)p->W;
}

/* Whether entry e is a pinned placement no symmetry keeps. */
static inline bool entry_free(const prove *p, size_t e)
{
	if (!p->nseg)
		return p->efree[e];
	int j = p->seg_pin;
	return j >= 0 && e >= p->seg_at[j] && e < p->seg_at[j + 1] &&
	       p->efree[e - p->seg_at[j]];
}

/* least_form() of the filling of entries idx[0..len) (or rows[]). */
static void entries_form(struct run *r, const uint32_t *idx, const size_t *rows,
                         size_t len)
{
	const prove *p = r->p;
	const uint64_t *masks[PROVE_MAX_PIECES];
	uint32_t cls[PROVE_MAX_PIECES];
	for (size_t d = 0; d < len; d++) {
		size_t e = idx ? idx[d] : rows[d];
		masks[d] = entry_mask(p, e);
		cls[d] = entry_cls(p, e);
	}
	least_form(r, masks, cls, len);
}

/* The filling of entries idx[0..len) (or rows[]) into r->first_out:
 * each cell's piece, the copies of a class taken in piece order. */
static void keep_first(struct run *r, const uint32_t *idx, const size_t *rows,
                       size_t len)
{
	const prove *p = r->p;
	bool used[PROVE_MAX_PIECES] = {false};
	for (size_t d = 0; d < len; d++) {
		size_t e = idx ? idx[d] : rows[d];
		uint32_t c = entry_cls(p, e);
		size_t i = 0;
		while (used[i] || (uint32_t)r->cls[i] != c)
			i++;
		used[i] = true;
		const uint64_t *m = entry_mask(p, e);
		for (int w = 0; w < p->W; w++)
			for (uint64_t x = m[w]; x; x &= x - 1)
				r->first_out[w * 64 + __builtin_ctzll(x)] = (int)i;
	}
}

/* A filling: entries idx[0..len). Counts it when its least image is new;
 * false when that reaches the cap. */
static bool filling_of(struct run *r, const uint32_t *idx, const size_t *rows,
                       size_t len)
{
	prove *p = r->p;
	size_t n = p->n;
	if (r->first_out && r->found == 0)
		keep_first(r, idx, rows, len);
	if (r->scout && r->found == 0) { /* for scout_poll() */
		for (size_t d = 0; d < len; d++)
			r->first[d] = idx ? idx[d] : (uint32_t)rows[d];
		r->nfirst = len;
	}
	bool alone = false; /* a class of its own (prove_count) */
	for (size_t d = 0; d < len && !alone; d++)
		alone = entry_free(p, idx ? idx[d] : rows[d]);
	if (alone && !r->known_left) {
		if (r->stage == 0) { /* for near_poll(): the cap is 2 */
			for (size_t d = 0; d < len; d++)
				r->first[d] = idx ? idx[d] : (uint32_t)rows[d];
			r->nfirst = len;
		}
		r->found++;
		return r->found < r->cap;
	}
	entries_form(r, idx, rows, len);
	if (alone && r->known_left) {
		/* the known class (forms[0]) is met once */
		if (!memcmp(p->forms, p->best, n * sizeof *p->best)) {
			r->known_left = false;
			return true;
		}
		r->found++;
		return r->found < r->cap;
	}
	for (uint64_t f = 0; f < r->nforms; f++)
		if (!memcmp(p->forms + f * n, p->best, n * sizeof *p->best))
			return true;
	memcpy(p->forms + r->nforms * n, p->best, n * sizeof *p->best);
	r->nforms++;
	r->found++;
	return r->found < r->cap;
}

static bool filling(struct run *r, size_t len)
{
	return filling_of(r, r->idx, NULL, len);
}

static bool bb_filling(void *ctx, const size_t *rows, size_t len)
{
	return filling_of(ctx, NULL, rows, len);
}

/*
 * The known filling. A dissection is a filling itself, so a proof that it
 * is the only one (a count capped at 2) knows one class before it starts.
 * Most proofs end within 500 nodes, counted as any other count. A
 * search still going then calls near_poll() (the engines' poll, xc.h),
 * which counts the known class: a class found already that is not it is
 * a second one, and otherwise the search stops at the first filling of
 * another class rather than at the second class it meets. It also takes
 * groups of two or three touching pieces out of the known filling and
 * fills their cells again in every way (refill()); after 5,000 nodes,
 * groups of four. A cut that makes a dissection ambiguous often does so
 * by a few pieces that share their cells in another way, which the
 * search may meet only after hundreds of thousands of nodes. Neither
 * changes a count: a class is counted once whoever finds it.
 */
static const struct {
	uint64_t after; /* nodes */
	int lo, hi;     /* group sizes */
} near_steps[] = {{500, 2, 3}, {5000, 4, 4}};
#define NEAR_DONE 2        /* steps */
#define NEAR_GROUP 4       /* pieces in a group, at most */
#define PV_ENDLESS ((uint64_t)1 << 62) /* nodes: no budget */

/* refill()'s state: a group of pieces of the known filling, taken out
 * and put back in every way. */
struct near {
	struct run *r;
	uint64_t adj[PROVE_MAX_PIECES]; /* piece -> the pieces it touches */
	const uint64_t *masks[PROVE_MAX_PIECES]; /* the filling being tried */
	int g[NEAR_GROUP], gs;          /* the group */
	unsigned used;                  /* of g[], those placed again */
	uint64_t left[PV_MAXW];         /* the group's cells still empty */
};

/* Fill the group's cells left, the first empty one first, in every way;
 * true at the first filling of a class other than the known one's
 * (forms[0]). */
static bool refill(struct near *s)
{
	struct run *r = s->r;
	prove *p = r->p;
	const int W = p->W;
	if (s->used == (1u << s->gs) - 1) {
		bool same = true;
		for (int d = 0; d < s->gs; d++)
			same &= s->masks[s->g[d]] == r->known[s->g[d]];
		if (same)
			return false;
		least_form(r, s->masks, r->kcls, r->k);
		return memcmp(p->best, p->forms, p->n * sizeof *p->best) != 0;
	}
	size_t c = first_cell(s->left);
	for (int d = 0; d < s->gs; d++) {
		if (s->used >> d & 1)
			continue;
		int i = s->g[d];
		const struct pv_piece *pc = &p->pc[i];
		for (uint32_t b = pc->fstart[c]; b < pc->fstart[c + 1]; b++) {
			const uint64_t *pl = pc->place + (size_t)pc->byfirst[b] * (size_t)W;
			bool fits = true;
			for (int w = 0; w < W; w++)
				fits &= (pl[w] & ~s->left[w]) == 0;
			if (!fits)
				continue;
			r->extra++;
			/* back in its own cells: the known filling's pointer */
			s->masks[i] = mask_cmp(pl, r->known[i], W) ? pl : r->known[i];
			s->used |= 1u << d;
			for (int w = 0; w < W; w++)
				s->left[w] &= ~pl[w];
			bool found = refill(s);
			for (int w = 0; w < W; w++)
				s->left[w] |= pl[w];
			s->used &= ~(1u << d);
			s->masks[i] = r->known[i];
			if (found)
				return true;
		}
	}
	return false;
}

/* The connected groups of 'size' pieces made of 'sub' (holding piece v,
 * the least) and pieces above v, grown by the pieces of 'ext' (Wernicke's
 * ESU enumeration: each group once), each refill()ed; true at a second
 * class. */
static bool grow(struct near *s, uint64_t sub, uint64_t ext, int v, int size)
{
	if (__builtin_popcountll(sub) == size) {
		const int W = s->r->p->W;
		s->gs = 0;
		s->used = 0;
		memset(s->left, 0, sizeof s->left);
		for (uint64_t x = sub; x; x &= x - 1) {
			int i = __builtin_ctzll(x);
			s->g[s->gs++] = i;
			for (int w = 0; w < W; w++)
				s->left[w] |= s->r->known[i][w];
		}
		return refill(s);
	}
	uint64_t around = 0, above = v == 63 ? 0 : ~(((uint64_t)2 << v) - 1);
	for (uint64_t x = sub; x; x &= x - 1)
		around |= s->adj[__builtin_ctzll(x)];
	while (ext) {
		int w = __builtin_ctzll(ext);
		ext &= ext - 1;
		uint64_t only = s->adj[w] & above & ~sub & ~around;
		if (grow(s, sub | (uint64_t)1 << w, ext | only, v, size))
			return true;
	}
	return false;
}

/* Whether some group of lo to hi touching pieces of the known filling
 * fills its cells in another way, making a filling of another class
 * (forms[0] the known one's): 1 yes, 0 no, -1 out of memory. */
static int near_second(struct run *r, int lo, int hi)
{
	prove *p = r->p;
	const int W = p->W;
	int k = (int)r->k;
	struct near s = {.r = r};
	for (int i = 0; i < k; i++) {
		if (!first_index(p, &p->pc[i]))
			return -1;
		s.masks[i] = r->known[i];
		uint64_t halo[PV_MAXW] = {0};
		for (int w = 0; w < W; w++)
			for (uint64_t x = r->known[i][w]; x; x &= x - 1) {
				const uint64_t *nb = p->nbr + (size_t)(w * 64 + __builtin_ctzll(x)) * (size_t)W;
				for (int u = 0; u < W; u++)
					halo[u] |= nb[u];
			}
		for (int j = 0; j < k; j++)
			for (int w = 0; w < W && j != i; w++)
				if (halo[w] & r->known[j][w]) {
					s.adj[i] |= (uint64_t)1 << j;
					break;
				}
	}
	for (int size = lo; size <= hi && size <= k; size++)
		for (int v = 0; v < k; v++) {
			uint64_t above = v == 63 ? 0 : ~(((uint64_t)2 << v) - 1);
			if (grow(&s, (uint64_t)1 << v, s.adj[v] & above, v, size))
				return 1;
		}
	return 0;
}

/* The first filling found when none was known (prove_count_pieces(),
 * the cap 2; its entries r->first[0..nfirst)): its form kept as
 * forms[0], its groups of two or three touching pieces refilled in
 * every way as near_second() refills a known filling's. 1: a filling of
 * another class found, 0: none, -1: out of memory. */
static int scout_first(struct run *r)
{
	prove *p = r->p;
	size_t len = r->nfirst;
	const uint64_t *masks[PROVE_MAX_PIECES];
	uint32_t kcls[PROVE_MAX_PIECES];
	bool used[PROVE_MAX_PIECES] = {false};
	for (size_t d = 0; d < len; d++) { /* the pieces as keep_first() */
		size_t e = r->first[d];
		uint32_t c = entry_cls(p, e);
		size_t i = 0;
		while (used[i] || (uint32_t)r->cls[i] != c)
			i++;
		used[i] = true;
		masks[i] = entry_mask(p, e);
		kcls[i] = c;
	}
	least_form(r, masks, kcls, len);
	memcpy(p->forms, p->best, p->n * sizeof *p->best);
	const uint64_t *const *known = r->known;
	const uint32_t *kc = r->kcls;
	size_t k = r->k;
	r->known = masks;
	r->kcls = kcls;
	r->k = len;
	int rc = near_second(r, 2, 3);
	r->known = known;
	r->kcls = kc;
	r->k = k;
	return rc;
}

/*
 * Scouting a set of pieces (prove_count_pieces() capped at 2). Most sets
 * that fill a goal fill it in many ways, a few pieces trading places,
 * and the search alone can take long to meet the second: at 4x4x4 in 13
 * pieces of 4 to 6 cells it spent 41 % of its nodes between the first
 * filling and the second. So the search stops every SCOUT_EVERY nodes,
 * and at the first stop after its first filling, that filling's groups
 * are refilled once (scout_first()). Small sets, whose second filling
 * comes soon after the first, are seldom scouted: scouting every first
 * filling at once cost 3x3x3 in six pieces 8 % more instructions.
 * Like the known filling's steps, it changes no count.
 */
#define SCOUT_EVERY 1000u /* nodes */

static uint64_t scout_poll(struct run *r)
{
	if (r->found == 1) {
		r->scout = false;
		int rc = scout_first(r);
		r->nforms = r->nforms ? r->nforms : 1;
		if (rc) {
			r->oom = rc < 0;
			r->found = rc > 0 ? 2 : r->found;
			return 0;
		}
	}
	uint64_t to = r->scout ? r->limit + SCOUT_EVERY : PV_ENDLESS;
	if (r->max_nodes && to > r->max_nodes)
		to = r->max_nodes;
	uint64_t more = to > r->limit ? to - r->limit : 0;
	r->limit = to;
	return more;
}

/* The engines' poll, at the nodes of each step of near_steps[]: the
 * known class counted (the first step) and the step's groups refilled.
 * How many more nodes the search may try: to the next step, or the rest
 * of the budget; 0 stops it. */
static uint64_t near_poll(void *ctx)
{
	struct run *r = ctx;
	prove *p = r->p;
	if (r->scout)
		return scout_poll(r);
	if (r->stage == 0) {
		/* (the cap is 2: one class at most found so far, its form
		 * kept unless it was a class of its own) */
		if (r->nfirst) {
			entries_form(r, r->first, NULL, r->nfirst);
			memcpy(p->forms, p->best, p->n * sizeof *p->best);
			r->nforms = 1;
		}
		least_form(r, r->known, r->kcls, r->k);
		if (r->found == 0) {
			memcpy(p->forms, p->best, p->n * sizeof *p->best);
			r->nforms = 1;
			r->found = 1;
			r->known_left = true;
		} else if (memcmp(p->forms, p->best, p->n * sizeof *p->best)) {
			r->found = 2;
			return 0;
		}
	}
	if (r->stage < NEAR_DONE) {
		int rc = near_second(r, near_steps[r->stage].lo,
		                     near_steps[r->stage].hi);
		r->stage++;
		if (rc) {
			r->oom = rc < 0;
			r->found = rc > 0 ? 2 : r->found;
			return 0;
		}
	}
	uint64_t to = r->stage < NEAR_DONE ? near_steps[r->stage].after : PV_ENDLESS;
	if (r->max_nodes && to > r->max_nodes)
		to = r->max_nodes;
	uint64_t more = to > r->limit ? to - r->limit : 0;
	r->limit = to;
	return more;
}

/* The first empty cell (every placement leaves one until the goal is
 * full). */
static inline __attribute__((always_inline)) uint32_t
first_empty(const uint64_t *full, const uint64_t *filled, const int W)
{
	for (int w = 0; w < W; w++) {
		uint64_t x = full[w] & ~filled[w];
		if (x)
			return (uint32_t)(w * 64 + __builtin_ctzll(x));
	}
	return 0;
}

/* Whether row e, just placed, leaves an empty cell none of whose face
 * neighbours is empty. */
static inline __attribute__((always_inline)) bool
isolates(const prove *p, uint32_t e, const uint64_t *filled,
         const uint64_t *full, const int W)
{
	const uint64_t *h = p->ehalo + (size_t)e * (size_t)W;
	for (int w = 0; w < W; w++)
		for (uint64_t x = h[w] & ~filled[w]; x; x &= x - 1) {
			const uint64_t *nb = p->nbr +
			    (size_t)(w * 64 + __builtin_ctzll(x)) * (size_t)W;
			uint64_t any = 0;
			for (int u = 0; u < W; u++)
				any |= nb[u] & full[u] & ~filled[u];
			if (!any)
				return true;
		}
	return false;
}

/* The search on masks of W words (a constant in each copy). */
static inline __attribute__((always_inline)) void search_w(struct run *r,
                                                           const int W)
{
	const prove *p = r->p;
	const uint32_t *bstart = p->bstart, *ecls = p->ecls;
	const uint64_t *emask = p->emask;
	uint64_t filled[PV_MAXW] = {0}, full[PV_MAXW];
	memcpy(full, p->full, sizeof full);
	size_t d = 0;
	r->cell[0] = first_empty(full, filled, W);
	uint32_t e = bstart[r->cell[0]];
	for (;;) {
		uint32_t end = bstart[r->cell[d] + 1];
		for (; e < end; e++) {
			if (!r->rem[ecls[e]])
				continue;
			const uint64_t *m = emask + (size_t)e * (size_t)W;
			uint64_t clash = 0;
			for (int w = 0; w < W; w++)
				clash |= m[w] & filled[w];
			if (!clash)
				break;
		}
		if (e == end) {
			if (d == 0)
				return;
			d--;
			e = r->idx[d];
			const uint64_t *m = emask + (size_t)e * (size_t)W;
			for (int w = 0; w < W; w++)
				filled[w] ^= m[w];
			r->rem[ecls[e]]++;
			e++;
			continue;
		}
		if (r->nodes == r->limit && !near_poll(r)) {
			r->stopped = true;
			return;
		}
		r->nodes++;
		const uint64_t *m = emask + (size_t)e * (size_t)W;
		for (int w = 0; w < W; w++)
			filled[w] |= m[w];
		r->idx[d] = e;
		if (d + 1 == r->depth) {
			/* every piece placed: the goal is full (the volumes
			 * agree) */
			if (!filling(r, d + 1)) {
				r->stopped = true;
				return;
			}
			for (int w = 0; w < W; w++)
				filled[w] ^= m[w];
			e++;
			continue;
		}
		/* an empty cell next to the row with no empty neighbour left
		 * can never be filled (every piece here has two cells or
		 * more: the caller's 'isolate' rule) */
		if (r->isolate && isolates(p, e, filled, full, W)) {
			for (int w = 0; w < W; w++)
				filled[w] ^= m[w];
			e++;
			continue;
		}
		r->rem[ecls[e]]--;
		d++;
		r->cell[d] = first_empty(full, filled, W);
		e = bstart[r->cell[d]];
	}
}

/* Room for 'ne' entries and 'nf' forms. false: out of memory. */
static bool reserve(prove *p, size_t ne, size_t nf)
{
	if (ne > p->ecap) {
		uint32_t *c = realloc(p->ecls, ne * sizeof *c);
		if (!c)
			return false;
		p->ecls = c;
		bool *fr = realloc(p->efree, ne * sizeof *fr);
		if (!fr)
			return false;
		p->efree = fr;
		uint64_t *m = realloc(p->emask, ne * (size_t)p->W * sizeof *m);
		if (!m)
			return false;
		p->emask = m;
		m = realloc(p->ehalo, ne * (size_t)p->W * sizeof *m);
		if (!m)
			return false;
		p->ehalo = m;
		p->ecap = ne;
	}
	if (nf > p->fcap) {
		if (nf > SIZE_MAX / sizeof *p->forms / p->n)
			return false;
		uint32_t *f = realloc(p->forms, nf * p->n * sizeof *f);
		if (!f)
			return false;
		p->forms = f;
		p->fcap = nf;
	}
	return true;
}

/* The entries of the cell-by-cell search: the rows in buckets by their
 * first cell (a counting sort), in class order within a bucket, each with
 * its halo. */
static void build_buckets(prove *p, int ncls, const int *rep, int pin,
                          unsigned char pinbit, unsigned char freebit)
{
	const int W = p->W;
	size_t n = p->n;
	memset(p->bstart, 0, (n + 1) * sizeof *p->bstart);
	for (int j = 0; j < ncls; j++) {
		const struct pv_piece *pc = &p->pc[rep[j]];
		for (size_t i = 0; i < pc->n; i++) {
			const uint64_t *v = pc->place + i * (size_t)W;
			if (j == pin && !(pc->least[i] & pinbit))
				continue;
			uint32_t c = (uint32_t)first_cell(v);
			p->bstart[c + 1]++;
		}
	}
	for (size_t c = 0; c < n; c++)
		p->bstart[c + 1] += p->bstart[c];
	uint32_t fill[PROVE_MAX_CELLS];
	memcpy(fill, p->bstart, n * sizeof *fill);
	for (int j = 0; j < ncls; j++) {
		const struct pv_piece *pc = &p->pc[rep[j]];
		for (size_t i = 0; i < pc->n; i++) {
			const uint64_t *v = pc->place + i * (size_t)W;
			if (j == pin && !(pc->least[i] & pinbit))
				continue;
			uint32_t c = (uint32_t)first_cell(v);
			uint32_t e = fill[c]++;
			p->ecls[e] = (uint32_t)j;
			p->efree[e] = j == pin && (pc->least[i] & freebit);
			memcpy(p->emask + (size_t)e * (size_t)W, v,
			       (size_t)W * sizeof *v);
			uint64_t *h = p->ehalo + (size_t)e * (size_t)W;
			memset(h, 0, (size_t)W * sizeof *h);
			for (int w = 0; w < W; w++)
				for (uint64_t x = v[w]; x; x &= x - 1) {
					const uint64_t *nb = p->nbr +
					    (size_t)(w * 64 + __builtin_ctzll(x)) * (size_t)W;
					for (int u = 0; u < W; u++)
						h[u] |= nb[u];
				}
			for (int w = 0; w < W; w++)
				h[w] &= ~v[w];
		}
	}
}

/* The search on the 64-cell engine (bb.h) over the 'ne' entries: MRV
 * with its own prunings, far fewer nodes than cell by cell. */
static int run_bb(prove *p, struct run *r, size_t ne, int ncls, int pin)
{
	unsigned rank[64], counts[PROVE_MAX_PIECES];
	for (size_t c = 0; c < p->n; c++)
		rank[c] = (unsigned)c;
	for (int j = 0; j < ncls; j++)
		counts[j] = r->rem[j];
	/* one engine for every proof, emptied for each */
	bb *b = p->bb;
	if (!b) {
		b = bb_new(p->n, rank, (size_t)ncls, counts);
		if (b && p->box) /* (bb_reset() keeps it) */
			bb_set_grid(b, (unsigned)p->nx, (unsigned)p->ny,
			            (unsigned)p->nz);
	} else if (bb_reset(b, (size_t)ncls, counts) != XC_OK) {
		bb_free(b);
		b = NULL;
	}
	p->bb = b;
	if (!b || bb_reserve(b, ne) != XC_OK)
		return PROVE_ENOMEM;
	for (int j = 0; j < ncls; j++)
		if (bb_add_rows(b, p->seg_mask[j], p->seg_at[j + 1] - p->seg_at[j],
		                (size_t)j) != XC_OK)
			return PROVE_ENOMEM;
	if (p->box && r->joined)
		bb_rows_connected(b);
	if (pin >= 0)
		bb_set_first(b, (size_t)pin);
	bool polled = r->stage < NEAR_DONE || r->scout;
	if (polled)
		bb_set_poll(b, near_poll, r);
	enum xc_stop st = bb_solve(b, polled ? r->limit : r->max_nodes,
	                           bb_filling, r, &r->nodes);
	r->stopped = st != XC_DONE;
	return PROVE_OK;
}

/* The same on the wide engine (bbw.h, two words), with the goal's faces. */
static int run_bbw(prove *p, struct run *r, int ncls, int pin)
{
	unsigned rank[128], counts[PROVE_MAX_PIECES];
	for (size_t c = 0; c < p->n; c++)
		rank[c] = (unsigned)c;
	for (int j = 0; j < ncls; j++)
		counts[j] = r->rem[j];
	bbw *b = bbw_new(p->n, rank, (size_t)ncls, counts);
	if (!b)
		return PROVE_ENOMEM;
	for (int j = 0; j < ncls; j++)
		for (size_t e = p->seg_at[j]; e < p->seg_at[j + 1]; e++)
			if (bbw_add_row(b, p->seg_mask[j] + 2 * (e - p->seg_at[j]),
			                (size_t)j) != XC_OK) {
				bbw_free(b);
				return PROVE_ENOMEM;
			}
	for (size_t c = 0; c < p->n; c++)
		for (int w = 0; w < 2; w++)
			for (uint64_t x = p->nbr[2 * c + (size_t)w]; x; x &= x - 1) {
				size_t d = (size_t)w * 64 + (size_t)__builtin_ctzll(x);
				if (d > c)
					bbw_add_edge(b, c, d);
			}
	if (pin >= 0)
		bbw_set_first(b, (size_t)pin);
	bool polled = r->stage < NEAR_DONE || r->scout;
	if (polled)
		bbw_set_poll(b, near_poll, r);
	enum xc_stop st = bbw_solve(b, polled ? r->limit : r->max_nodes,
	                            bb_filling, r, &r->nodes);
	bbw_free(b);
	r->stopped = st != XC_DONE;
	return PROVE_OK;
}

/* What rotations keep of the cells m: how many, their box's sides in
 * order, how many cells have 0..6 face neighbours among them; equal for
 * congruent pieces, and cheaper than their placements. */
static uint64_t shape_sig(const prove *p, const uint64_t *m)
{
	int lo[3] = {1 << 20, 1 << 20, 1 << 20}, hi[3] = {0, 0, 0};
	uint64_t deg[7] = {0}, size = 0;
	for (int w = 0; w < p->W; w++)
		for (uint64_t x = m[w]; x; x &= x - 1) {
			size_t c = (size_t)w * 64 + (size_t)__builtin_ctzll(x);
			for (int a = 0; a < 3; a++) {
				lo[a] = p->at[c][a] < lo[a] ? p->at[c][a] : lo[a];
				hi[a] = p->at[c][a] > hi[a] ? p->at[c][a] : hi[a];
			}
			int d = 0;
			for (int u = 0; u < p->W; u++)
				d += __builtin_popcountll(p->nbr[c * (size_t)p->W + (size_t)u] &
				                          m[u]);
			deg[d]++;
			size++;
		}
	uint64_t e[3];
	for (int a = 0; a < 3; a++)
		e[a] = (uint64_t)(hi[a] - lo[a]);
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2 - i; j++)
			if (e[j] > e[j + 1]) {
				uint64_t t = e[j];
				e[j] = e[j + 1];
				e[j + 1] = t;
			}
	uint64_t h = size;
	for (int a = 0; a < 3; a++)
		h = h * 0x100000001b3u + e[a];
	for (int d = 0; d < 7; d++)
		h = h * 0x100000001b3u + deg[d];
	return h;
}

/* shape_sig() of the cells m of piece i, remembered while they stay. */
static uint64_t piece_sig(prove *p, int i, const uint64_t *m)
{
	struct pv_piece *pc = &p->pc[i];
	if (!pc->sig_ok || mask_cmp(pc->sig_cells, m, p->W)) {
		memcpy(pc->sig_cells, m, (size_t)p->W * sizeof *m);
		pc->sig = shape_sig(p, m);
		pc->sig_ok = true;
	}
	return pc->sig;
}

int prove_congruent(prove *p, const int *piece, int k, int a,
                    const bool *others)
{
	const int W = p->W;
	if (k < 1 || k > PROVE_MAX_PIECES || a < 0 || a >= k)
		return -2;
	/* every piece's cells, in one pass */
	uint64_t m[PROVE_MAX_PIECES][PV_MAXW];
	memset(m, 0, (size_t)k * sizeof m[0]);
	for (size_t c = 0; c < p->n; c++)
		if (piece[c] >= 0 && piece[c] < k)
			m[piece[c]][c / 64] |= (uint64_t)1 << (c % 64);
	uint64_t any[PROVE_MAX_PIECES] = {0};
	for (int i = 0; i < k; i++)
		for (int w = 0; w < W; w++)
			any[i] |= m[i][w];
	if (!any[a])
		return -2;
	uint64_t sa = piece_sig(p, a, m[a]);
	struct pv_piece *pc = &p->pc[a];
	for (int b = 0; b < k; b++) {
		if (b == a || !others[b])
			continue;
		if (!any[b])
			return -2;
		if (piece_sig(p, b, m[b]) != sa)
			continue;
		if (!(pc->valid && !mask_cmp(pc->cells, m[a], W)) &&
		    !make_placements(p, m[a], pc))
			return -1;
		if (has_placement(p, pc, m[b]))
			return 1;
	}
	return 0;
}

/* The count of prove_count() and prove_count_pieces(): piece i has the
 * cells m[i] (each has one); 'known' when they are a filling of the goal
 * (a dissection); the first filling into 'first' when not NULL. */
static int count_masks(prove *p, uint64_t (*m)[PV_MAXW], int k, bool is_known,
                       uint64_t cap, uint64_t max_nodes,
                       struct prove_result *out, int *first)
{
	const int W = p->W;
	for (int i = 0; i < k; i++) {
		struct pv_piece *pc = &p->pc[i];
		if (pc->valid && !mask_cmp(pc->cells, m[i], W))
			continue;
		if (!make_placements(p, m[i], pc))
			return PROVE_ENOMEM;
	}
	/* classes: a piece joins the first earlier one with its list */
	int cls[PROVE_MAX_PIECES], rep[PROVE_MAX_PIECES], ncls = 0;
	struct run r = {.p = p, .depth = (size_t)k, .cap = cap,
	                .max_nodes = max_nodes, .first_out = first, .cls = cls};
	for (int i = 0; i < k; i++) {
		const struct pv_piece *a = &p->pc[i];
		cls[i] = -1;
		for (int j = 0; j < ncls && cls[i] < 0; j++) {
			const struct pv_piece *b = &p->pc[rep[j]];
			if (a->n == b->n &&
			    !memcmp(a->place, b->place, a->n * (size_t)W * sizeof *a->place))
				cls[i] = j;
		}
		if (cls[i] < 0) {
			rep[ncls] = i;
			cls[i] = ncls++;
		}
		r.rem[cls[i]]++;
	}
	r.isolate = true;
	r.joined = true;
	for (int i = 0; i < k; i++)
		r.joined &= p->pc[i].joined;
	int size[PROVE_MAX_PIECES];
	for (int i = 0; i < k; i++) {
		int sz = 0;
		for (int w = 0; w < W; w++)
			sz += __builtin_popcountll(m[i][w]);
		size[i] = sz;
		r.isolate &= sz >= 2;
	}
	/* Mirror images: when every class's mirror image is a class with
	 * as many copies, fillings are counted up to the goal's mirror
	 * symmetries too (solve.h: the pieces are mirror-closed). */
	bool closed = p->nsym > p->nproper;
	for (int j = 0; j < ncls && closed; j++) {
		/* the goal's first mirror symmetry turns the piece into a
		 * placement of its mirror image */
		uint64_t img[PV_MAXW];
		mask_image(p, p->nproper, p->pc[rep[j]].cells, img);
		int mj = -1;
		for (int u = 0; u < ncls && mj < 0; u++)
			if (has_placement(p, &p->pc[rep[u]], img))
				mj = u;
		closed = mj >= 0 && r.rem[mj] == r.rem[j];
		r.mirror[j] = (unsigned char)(closed ? mj : j);
	}
	r.nsym = closed ? p->nsym : p->nproper;
	/* The pinned class: one copy, the most cells (below each of its
	 * placements the fewest fillings are left), then the fewest orbits
	 * of placements, estimated as placements / orientations (they are
	 * the root's branches); the first of them. (Against the fewest
	 * orbits alone, over the proofs of the block generator's bench rows:
	 * 9 % fewer nodes at 4x4x4 in 8 to 12 pieces, its longest proof
	 * 363,263 nodes to 234,770; 16 % fewer in 11 or 12 pieces; 2 % at
	 * 3x3x3 in six; 23 % on the unique ones of 5x5x5's default. Pinning
	 * the piece of the fewest orbits whatever its size: no better;
	 * the most orbits: five times the nodes.) It is turned by the
	 * symmetries that keep its class: all the proper ones, and the
	 * mirror ones when it is its own mirror image. */
	int pin = -1;
	for (int j = 0; j < ncls && r.nsym > 1; j++) {
		const struct pv_piece *a = &p->pc[rep[j]];
		if (r.rem[j] != 1)
			continue;
		if (pin < 0) {
			pin = j;
			continue;
		}
		const struct pv_piece *b = &p->pc[rep[pin]];
		int sa = size[rep[j]], sb = size[rep[pin]];
		if (sa > sb || (sa == sb && a->n * b->norient < b->n * a->norient))
			pin = j;
	}
	int pinsym = pin >= 0 && r.mirror[pin] == pin ? r.nsym : p->nproper;
	unsigned char pinbit = pinsym == p->nproper ? 1 : 2;
	if (pin >= 0 && !(p->pc[rep[pin]].known & pinbit)) {
		struct pv_piece *pc = &p->pc[rep[pin]];
		bool done = orbit_bits(p, pc, pinsym, pinbit);
		for (size_t i = 0; !done && i < pc->n; i++) {
			pc->least[i] &= (unsigned char)~(pinbit | pinbit << 2);
			int o = orbit_least(p, pinsym, pc->place + i * (size_t)W);
			if (o)
				pc->least[i] |= pinbit;
			if (o == 2)
				pc->least[i] |= (unsigned char)(pinbit << 2);
		}
		pc->known |= pinbit;
		/* for the next piece of its shape */
		if (pc->shape != UINT32_MAX && pc->shape_gen == p->shape_gen) {
			struct pv_shape *e = &p->shapes[pc->shape];
			memcpy(e->least, pc->least, pc->n);
			e->known = pc->known;
		}
	}
	/* A filling whose pinned piece lies where no symmetry but the
	 * identity keeps it is its class's only filling the search finds
	 * (another would be its image under a symmetry that keeps the
	 * pinned placement, the least of its orbit), when all the
	 * symmetries counted up to keep the pinned class. */
	unsigned char freebit = pin >= 0 && pinsym == r.nsym
	                      ? (unsigned char)(pinbit << 2) : 0;
	size_t ne = 0;
	for (int j = 0; j < ncls; j++)
		ne += p->pc[rep[j]].n;
	uint32_t stack[2 * PROVE_MAX_PIECES];
	r.idx = stack;
	r.cell = stack + PROVE_MAX_PIECES;
	if (!reserve(p, ne, (size_t)cap))
		return PROVE_ENOMEM;
	uint32_t kcls[PROVE_MAX_PIECES];
	const uint64_t *known[PROVE_MAX_PIECES];
	for (int i = 0; i < k; i++) {
		kcls[i] = (uint32_t)cls[i];
		known[i] = m[i];
	}
	r.known = known;
	r.kcls = kcls;
	r.k = (size_t)k;
	r.stage = cap == 2 && is_known ? 0 : NEAR_DONE;
	r.scout = cap == 2 && !is_known;
	r.limit = max_nodes ? max_nodes : UINT64_MAX;
	if (r.stage == 0 && r.limit > near_steps[0].after)
		r.limit = near_steps[0].after;
	if (r.scout && r.limit > SCOUT_EVERY)
		r.limit = SCOUT_EVERY;
	if (W <= 2) {
		/* the bitboard engines: rows in class order, each class's
		 * straight from its placements (the pinned one's least ones
		 * copied) */
		size_t e = 0;
		for (int j = 0; j < ncls; j++) {
			const struct pv_piece *pc = &p->pc[rep[j]];
			p->seg_at[j] = e;
			if (j != pin) {
				p->seg_mask[j] = pc->place;
				e += pc->n;
				continue;
			}
			size_t np = 0;
			for (size_t i = 0; i < pc->n; i++) {
				if (!(pc->least[i] & pinbit))
					continue;
				p->efree[np] = pc->least[i] & freebit;
				memcpy(p->emask + np * (size_t)W, pc->place + i * (size_t)W,
				       (size_t)W * sizeof *pc->place);
				np++;
			}
			p->seg_mask[j] = p->emask;
			e += np;
		}
		p->seg_at[ncls] = e;
		p->nseg = ncls;
		p->seg_pin = pin;
		int rc = W == 1 ? run_bb(p, &r, e, ncls, pin)
		                : run_bbw(p, &r, ncls, pin);
		p->nseg = 0;
		if (rc != PROVE_OK)
			return rc;
	} else {
		build_buckets(p, ncls, rep, pin, pinbit, freebit);
		if (W == 4)
			search_w(&r, 4);
		else
			search_w(&r, 8);
	}
	if (r.oom)
		return PROVE_ENOMEM;
	*out = (struct prove_result){r.found, r.nodes + r.extra, !r.stopped};
	return PROVE_OK;
}

int prove_count(prove *p, const int *piece, int k, uint64_t cap,
                uint64_t max_nodes, struct prove_result *out)
{
	size_t n = p->n;
	if (k < 1 || k > PROVE_MAX_PIECES || cap < 1 || cap > PROVE_MAX_CAP)
		return PROVE_EINVAL;
	uint64_t m[PROVE_MAX_PIECES][PV_MAXW];
	memset(m, 0, sizeof m);
	for (size_t c = 0; c < n; c++) {
		if (piece[c] < 0 || piece[c] >= k)
			return PROVE_EINVAL;
		m[piece[c]][c / 64] |= (uint64_t)1 << (c % 64);
	}
	for (int i = 0; i < k; i++) {
		bool empty = true;
		for (int w = 0; w < p->W; w++)
			empty &= m[i][w] == 0;
		if (empty)
			return PROVE_EINVAL;
	}
	return count_masks(p, m, k, true, cap, max_nodes, out, NULL);
}

/*
 * The chessboard's test. Colour the grid's cells black where x + y + z
 * is even: every turn of the grid keeps the parity of x + y + z and a
 * shift keeps it or flips it everywhere, so each placement of a piece
 * covers b - w = +d or -d, d its balance as it lies anywhere. A filling
 * then needs signs with sum(e_i d_i) the goal's own b - w, that is a
 * subset of the d_i summing to (sum d_i + goal) / 2. A set that fails
 * has no filling, and the search, which would have to find that out
 * placement by placement, is not run: at 4x4x4 in 13 pieces of 4 to 6
 * cells such sets are about 1 in 1,000 and ran to the 2,000,000-node
 * budget, a fifth of all the nodes.
 */
static bool balance_ok(const prove *p, const int *const *cells,
                       const int *size, int k)
{
	int d[PROVE_MAX_PIECES], sum = 0, goal = 0;
	for (size_t c = 0; c < p->n; c++)
		goal += (p->at[c][0] + p->at[c][1] + p->at[c][2]) % 2 ? -1 : 1;
	for (int i = 0; i < k; i++) {
		int b = 0;
		for (int j = 0; j < size[i]; j++) {
			const int *q = p->at[cells[i][j]];
			b += (q[0] + q[1] + q[2]) % 2 ? -1 : 1;
		}
		d[i] = b < 0 ? -b : b;
		sum += d[i];
	}
	goal = goal < 0 ? -goal : goal; /* (the signs are free) */
	if (goal > sum || (sum + goal) % 2)
		return false;
	/* the subset sums up to 'want', a bit each */
	int want = (sum + goal) / 2;
	uint64_t reach[PROVE_MAX_CELLS / 64 + 1] = {1};
	int words = want / 64 + 1;
	for (int i = 0; i < k; i++) {
		int w = d[i] / 64, b = d[i] % 64;
		for (int u = words - 1; u >= w && d[i]; u--) {
			uint64_t v = reach[u - w] << b;
			if (b && u - w > 0)
				v |= reach[u - w - 1] >> (64 - b);
			reach[u] |= v;
		}
	}
	return reach[want / 64] >> (want % 64) & 1;
}

int prove_count_pieces(prove *p, const int *const *cells, const int *size,
                       int k, uint64_t cap, uint64_t max_nodes,
                       struct prove_result *out, int *first)
{
	size_t n = p->n, all = 0;
	if (k < 1 || k > PROVE_MAX_PIECES || cap < 1 || cap > PROVE_MAX_CAP)
		return PROVE_EINVAL;
	uint64_t m[PROVE_MAX_PIECES][PV_MAXW];
	memset(m, 0, sizeof m);
	for (int i = 0; i < k; i++) {
		if (size[i] < 1)
			return PROVE_EINVAL;
		for (int j = 0; j < size[i]; j++) {
			int c = cells[i][j];
			if (c < 0 || (size_t)c >= n ||
			    m[i][c / 64] >> (c % 64) & 1)
				return PROVE_EINVAL;
			m[i][c / 64] |= (uint64_t)1 << (c % 64);
		}
		all += (size_t)size[i];
	}
	if (all != n || !balance_ok(p, cells, size, k)) {
		/* no filling: the volumes, or the colours, differ */
		*out = (struct prove_result){0, 0, true};
		return PROVE_OK;
	}
	return count_masks(p, m, k, false, cap, max_nodes, out, first);
}
