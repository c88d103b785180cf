/*
 * xmsol.c: cubegen's solutions as BurrTools assemblies: each distinct
 * solution once, as (rotation, position) per copy of each piece.
 *
 * The solver reports covers (solve.h, on_cover): labels on the goal grid,
 * 1 + the piece on each cell, and the colour of the piece cell there.
 * Copies of one piece share a label, so a cover first becomes placements:
 * each labelled region is cut into copies of its piece, every way it can
 * be (two copies of a domino make a square two ways, and those are two
 * assemblies with the same labels), by always covering the first free cell
 * (grid order) with an orientation of the piece whose first cell lies on
 * it. Colours are part of an orientation, so a cut agrees with the colours
 * reported.
 *
 * Which solutions are written. G is the solver's group: the proper
 * rotations mapping the goal (cells, colours, optional cells) onto itself,
 * and the improper ones when the pieces are mirror-closed (computed here
 * as solve.c does; checked against solve_result after the search). With
 * ranges of copies and pieces that are not mirror-closed, G also holds
 * the goal's improper symmetries, which count only for an assembly whose
 * mirror image is an assembly (mirror_allowed(): found() leaves them out
 * of the key of any other), as the solver counts. An
 * assembly A is encoded over the goal cells in grid order as (its block's
 * rank by first appearance, the block's type, the colour): equal codes,
 * equal assemblies (identical pieces are interchangeable, so types, not
 * names). Its key is the least code of gA over g in G (an improper g turns
 * each type into its mirror type). Two assemblies are the same solution
 * exactly when their keys are equal, so keeping an assembly when its key
 * is new keeps one per solution. Every solution is seen: with no piece
 * coloured, the pinned search reports every G-orbit at least once (solve.h;
 * the pinned piece has one copy, so its region is never cut two ways, and
 * the cuts of a cover are covers of the search too); with coloured pieces
 * the search runs with no_pin, which reports every assembly (the pinned
 * search would rename interchangeable colours away, and a renamed assembly
 * need not be in the same G-orbit).
 *
 * The cap: with 'max', the search stops once its count reaches max. The
 * count adds |H r| * |Stab(y)| / |G| per cover y (solve.c's weights with
 * mirror images aside), at most 1 per solution in
 * all (1 per orbit once the search is complete), so when it reaches max
 * at least max distinct solutions have been seen; the first max are kept.
 * Without a cap the number kept equals solve's 'solutions' (asserted).
 *
 * From an assembly to BurrTools: the copies of a type go to the type's
 * pieces in file order, each piece first its least count, then up to its
 * most (BurrTools checks each piece's range), blocks in the order of their
 * first cells. A block's rotation is the first of BurrTools' 24 that turns
 * the piece's grid cells (with colours) into the block, and its position
 * the translation left (xmp_rotation in puz.h).
 */
#include "formats/puz.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver/poly.h"
#include "solver/solve.h"

struct block {
	size_t piece;  /* puzzle piece whose label the block has */
	size_t orient; /* its orientation (index into the piece's) */
	int off[3];    /* where that orientation's (0, 0, 0) lies */
};

struct coll {
	const struct puzzle *p;
	uint64_t max;
	bool oom;

	/* the goal */
	size_t ncells;       /* goal cells, numbered in grid order */
	size_t *cell;        /* goal cell -> grid index */
	int32_t *index;      /* grid index -> goal cell, -1 outside */

	/* pieces and types */
	struct shape **orient; /* per piece: its distinct orientations */
	size_t *norient;
	size_t *type;        /* piece -> type: its first congruent piece */
	size_t *mirror;      /* type -> type of its mirror image (pieces
	                      * indexes; npieces when there is none) */
	bool closed;         /* the pieces are mirror-closed */
	bool ranged;         /* some type's least and most copies differ */
	unsigned *lo, *hi;   /* per type: least and most copies */
	unsigned *used;      /* per type: copies in the assembly cut */

	/* G */
	int nsym;
	bool proper[POLY_NSYM];
	int32_t *inv;        /* nsym * ncells: the goal cell g maps onto
	                      * goal cell j, at [k * ncells + j] */

	/* one assembly being cut */
	int32_t *blk;        /* per goal cell: its block, -1 none */
	struct block *blocks;
	size_t nblocks, cap_blocks;
	unsigned char *col;  /* per goal cell: the colour on it */
	uint32_t *code, *key; /* ncells each: a code, the least so far */
	uint32_t *rank;      /* per block */
	uint32_t *scratch;   /* a piece's cells (place_block) */
	size_t scratch_cap;

	/* keys seen: an open-addressed table of indexes into 'keys' */
	uint32_t *keys;      /* nkeys * ncells */
	size_t nkeys, cap_keys;
	size_t *table;       /* 1 + key index, 0 empty */
	size_t table_cap;    /* a power of two */

	/* the solutions kept */
	size_t slots;
	size_t *base;        /* piece -> its first slot */
	struct xmp_place *place;
	struct xmp_sep *sep; /* with dis: cap entries, the first n in use */
	size_t n, cap;

	/* with 'disassemble': each kept assembly taken apart */
	bool dis;
	disasm *d;
	unsigned char *slab; /* goal grid: 1 + the placed copy on a cell */
	size_t *slot_of;     /* per block: its slot */
};

static void goal_xyz(const struct grid *g, size_t i, int c[3])
{
	c[0] = (int)(i % (size_t)g->nx);
	c[1] = (int)(i / (size_t)g->nx % (size_t)g->ny);
	c[2] = (int)(i / ((size_t)g->nx * (size_t)g->ny));
}

/* ---- setup ------------------------------------------------------------- */

static int setup_goal(struct coll *c)
{
	const struct grid *g = &c->p->goal;
	size_t total = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	c->ncells = puz_grid_volume(g);
	size_t n = c->ncells ? c->ncells : 1;
	c->cell = malloc(n * sizeof *c->cell);
	c->index = malloc(total * sizeof *c->index);
	c->blk = malloc(n * sizeof *c->blk);
	c->code = malloc(n * sizeof *c->code);
	c->key = malloc(n * sizeof *c->key);
	c->col = malloc(n);
	if (!c->cell || !c->index || !c->blk || !c->code || !c->key || !c->col)
		return SOLVE_ENOMEM;
	size_t k = 0;
	for (size_t i = 0; i < total; i++) {
		c->index[i] = g->cells[i] ? (int32_t)k : -1;
		if (g->cells[i])
			c->cell[k++] = i;
	}
	for (size_t i = 0; i < c->ncells; i++)
		c->blk[i] = -1;
	return SOLVE_OK;
}

/* Types (the first congruent piece stands for its type), their mirror
 * types and whether the pieces are mirror-closed, as solve.c finds them:
 * a type and its mirror type have the same least and most copies. When
 * they are not and some type has a range of copies, an improper g counts
 * for the assemblies whose mirror image is an assembly too (found()). */
static int setup_pieces(struct coll *c)
{
	const struct puzzle *p = c->p;
	size_t np = p->npieces ? p->npieces : 1;
	struct shape *canon = calloc(np, sizeof *canon);
	c->orient = calloc(np, sizeof *c->orient);
	c->norient = calloc(np, sizeof *c->norient);
	c->type = malloc(np * sizeof *c->type);
	c->mirror = malloc(np * sizeof *c->mirror);
	unsigned *lo = c->lo = calloc(np, sizeof *lo);
	unsigned *hi = c->hi = calloc(np, sizeof *hi);
	c->used = calloc(np, sizeof *c->used);
	int rc = SOLVE_OK;
	if (!canon || !c->orient || !c->norient || !c->type || !c->mirror ||
	    !lo || !hi || !c->used)
		rc = SOLVE_ENOMEM;
	for (size_t i = 0; i < p->npieces && rc == SOLVE_OK; i++) {
		struct shape sh;
		if (poly_from_grid(&p->pieces[i].shape, &sh) != POLY_OK) {
			rc = SOLVE_ENOMEM;
			break;
		}
		if (poly_canonical(&sh, &canon[i]) != POLY_OK ||
		    poly_orientations(&sh, &c->orient[i], &c->norient[i]) != POLY_OK)
			rc = SOLVE_ENOMEM;
		if (sh.n > c->scratch_cap)
			c->scratch_cap = sh.n;
		poly_shape_clear(&sh);
		if (rc != SOLVE_OK)
			break;
		size_t t = 0;
		while (!poly_equal(&canon[t], &canon[i]))
			t++;
		c->type[i] = t;
		lo[t] += p->pieces[i].count;
		hi[t] += puz_piece_max(&p->pieces[i]);
	}
	c->closed = true;
	for (size_t i = 0; i < p->npieces && rc == SOLVE_OK; i++) {
		if (c->type[i] != i)
			continue;
		struct shape m, mc;
		if (poly_transform(&c->orient[i][0], 1, &m) != POLY_OK) {
			rc = SOLVE_ENOMEM;
			break;
		}
		rc = poly_canonical(&m, &mc) == POLY_OK ? SOLVE_OK : SOLVE_ENOMEM;
		poly_shape_clear(&m);
		if (rc != SOLVE_OK)
			break;
		c->mirror[i] = p->npieces;
		for (size_t u = 0; u < p->npieces; u++)
			if (c->type[u] == u && poly_equal(&canon[u], &mc))
				c->mirror[i] = u;
		poly_shape_clear(&mc);
		size_t u = c->mirror[i];
		if (u == p->npieces || lo[u] != lo[i] || hi[u] != hi[i])
			c->closed = false;
		c->ranged |= lo[i] != hi[i];
	}
	for (size_t i = 0; canon && i < p->npieces; i++)
		poly_shape_clear(&canon[i]);
	free(canon);
	if (rc == SOLVE_OK) {
		c->scratch = malloc((c->scratch_cap ? c->scratch_cap : 1) *
		                    sizeof *c->scratch);
		if (!c->scratch)
			rc = SOLVE_ENOMEM;
	}
	return rc;
}

/* G and, for each element, where it takes the goal cells: the images of
 * the goal's cells re-anchored at the goal's least corner must be goal
 * cells of the same value (then the image is the goal: the map is one to
 * one and the counts agree). */
static int setup_group(struct coll *c)
{
	const struct grid *g = &c->p->goal;
	size_t n = c->ncells ? c->ncells : 1;
	c->inv = malloc((size_t)POLY_NSYM * n * sizeof *c->inv);
	int (*img)[3] = malloc(n * sizeof *img);
	if (!c->inv || !img) {
		free(img);
		return SOLVE_ENOMEM;
	}
	int lo[3] = {g->nx, g->ny, g->nz};
	for (size_t k = 0; k < c->ncells; k++) {
		int v[3];
		goal_xyz(g, c->cell[k], v);
		for (int a = 0; a < 3; a++)
			lo[a] = v[a] < lo[a] ? v[a] : lo[a];
	}
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s) && !c->closed && !c->ranged)
			continue;
		int m[3] = {0, 0, 0};
		for (size_t k = 0; k < c->ncells; k++) {
			int v[3];
			goal_xyz(g, c->cell[k], v);
			poly_sym_apply(s, v, img[k]);
			for (int a = 0; a < 3; a++)
				if (k == 0 || img[k][a] < m[a])
					m[a] = img[k][a];
		}
		int32_t *inv = c->inv + (size_t)c->nsym * n;
		bool ok = true;
		for (size_t k = 0; k < c->ncells && ok; k++) {
			int d[3];
			for (int a = 0; a < 3; a++)
				d[a] = img[k][a] - m[a] + lo[a];
			ok = d[0] < g->nx && d[1] < g->ny && d[2] < g->nz;
			size_t gi = ok ? puz_grid_index(g, d[0], d[1], d[2]) : 0;
			ok = ok && c->index[gi] >= 0 &&
			     g->cells[gi] == g->cells[c->cell[k]];
			if (ok)
				inv[c->index[gi]] = (int32_t)k;
		}
		if (ok) {
			c->proper[c->nsym] = poly_sym_proper(s);
			c->nsym++;
		}
	}
	free(img);
	return SOLVE_OK;
}

static void coll_free(struct coll *c)
{
	for (size_t i = 0; c->orient && c->norient && i < c->p->npieces; i++)
		poly_shapes_free(c->orient[i], c->norient[i]);
	free(c->orient);
	free(c->norient);
	free(c->type);
	free(c->mirror);
	free(c->lo);
	free(c->hi);
	free(c->used);
	free(c->cell);
	free(c->index);
	free(c->inv);
	free(c->blk);
	free(c->blocks);
	free(c->code);
	free(c->key);
	free(c->col);
	free(c->rank);
	free(c->scratch);
	free(c->keys);
	free(c->table);
	free(c->base);
	free(c->place);
	for (size_t i = 0; c->sep && i < c->n; i++)
		free(c->sep[i].moves);
	free(c->sep);
	dis_free(c->d);
	free(c->slab);
	free(c->slot_of);
}

/* ---- one assembly --------------------------------------------------------- */

/* The code of g A (element k of G) into 'out', A the blocks now cut. */
static void encode(struct coll *c, int k, uint32_t *out)
{
	const int32_t *inv = c->inv + (size_t)k * c->ncells;
	if (c->nblocks)
		memset(c->rank, 0, c->nblocks * sizeof *c->rank);
	uint32_t next = 0;
	for (size_t j = 0; j < c->ncells; j++) {
		size_t src = (size_t)inv[j];
		int32_t b = c->blk[src];
		if (b < 0) {
			out[j] = 0;
			continue;
		}
		if (!c->rank[b])
			c->rank[b] = ++next;
		size_t t = c->type[c->blocks[b].piece];
		if (!c->proper[k])
			t = c->mirror[t];
		/* rank <= 1024, type + 1 <= 1024, colour <= 26 */
		out[j] = c->rank[b] << 16 | (uint32_t)(t + 1) << 5 |
		         (uint32_t)c->col[src];
	}
}

static int cmp_codes(const uint32_t *a, const uint32_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static uint64_t hash_key(const uint32_t *k, size_t n)
{
	uint64_t h = 1469598103934665603u;
	for (size_t i = 0; i < n; i++) {
		h ^= k[i];
		h *= 1099511628211u;
	}
	return h ^ h >> 31;
}

/* Add c->key to the keys seen; whether it is new. */
static bool key_new(struct coll *c)
{
	size_t n = c->ncells;
	if (2 * (c->nkeys + 1) > c->table_cap) {
		size_t cap = c->table_cap ? 2 * c->table_cap : 64;
		size_t *t = calloc(cap, sizeof *t);
		if (!t) {
			c->oom = true;
			return false;
		}
		for (size_t i = 0; i < c->nkeys; i++) {
			size_t h = (size_t)hash_key(c->keys + i * n, n) & (cap - 1);
			while (t[h])
				h = (h + 1) & (cap - 1);
			t[h] = i + 1;
		}
		free(c->table);
		c->table = t;
		c->table_cap = cap;
	}
	size_t h = (size_t)hash_key(c->key, n) & (c->table_cap - 1);
	for (; c->table[h]; h = (h + 1) & (c->table_cap - 1))
		if (cmp_codes(c->keys + (c->table[h] - 1) * n, c->key, n) == 0)
			return false;
	if (c->nkeys == c->cap_keys) {
		size_t cap = c->cap_keys ? 2 * c->cap_keys : 16;
		uint32_t *k = n && cap <= SIZE_MAX / n / sizeof *k
		            ? realloc(c->keys, cap * n * sizeof *k) : NULL;
		if (!k && n) {
			c->oom = true;
			return false;
		}
		c->keys = k;
		c->cap_keys = cap;
	}
	if (n)
		memcpy(c->keys + c->nkeys * n, c->key, n * sizeof *c->key);
	c->table[h] = ++c->nkeys;
	return true;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The BurrTools placement of piece 'i' on block 'b': the first rotation
 * turning the piece's grid cells into the block's cells and colours. */
static void place_block(struct coll *c, size_t i, const struct block *b,
                        struct xmp_place *out)
{
	const struct grid *g = &c->p->pieces[i].shape;
	const struct shape *o = &c->orient[b->piece][b->orient];
	size_t cells = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	for (int t = 0; t < 24; t++) {
		int s = xmp_rotation(t), lo[3] = {0, 0, 0};
		size_t n = 0;
		for (size_t k = 0; k < cells; k++) {
			if (!g->cells[k])
				continue;
			int v[3], w[3];
			goal_xyz(g, k, v);
			poly_sym_apply(s, v, w);
			for (int a = 0; a < 3; a++)
				if (n == 0 || w[a] < lo[a])
					lo[a] = w[a];
			n++;
		}
		assert(n == o->n);
		n = 0;
		for (size_t k = 0; k < cells; k++) {
			if (!g->cells[k])
				continue;
			int v[3], w[3];
			goal_xyz(g, k, v);
			poly_sym_apply(s, v, w);
			c->scratch[n++] = poly_pack(w[0] - lo[0], w[1] - lo[1],
			                            w[2] - lo[2]) |
			                  (uint32_t)puz_cell_colour(g->cells[k]);
		}
		qsort(c->scratch, n, sizeof *c->scratch, cmp_u32);
		if (memcmp(c->scratch, o->cells, n * sizeof *o->cells) == 0) {
			*out = (struct xmp_place){b->off[0] - lo[0], b->off[1] - lo[1],
			                          b->off[2] - lo[2], t};
			return;
		}
	}
	assert(!"a block is no rotation of its piece");
}

/* With 'dis': take apart the assembly just placed ('out', its slots'
 * placements), its copies numbered in slot order as BurrTools numbers
 * them; keep the moves in sep[n] and say whether it comes apart. */
static bool take_apart(struct coll *c, const struct xmp_place *out)
{
	const struct grid *g = &c->p->goal;
	size_t np = 0;
	if (c->nblocks > DIS_MAX_PIECES)
		return false; /* undecided: never kept as coming apart */
	/* placed slots in order get 0, 1, ... */
	size_t *rank = c->slot_of + c->ncells;
	for (size_t k = 0; k < c->slots; k++)
		rank[k] = out[k].rot >= 0 ? np++ : SIZE_MAX;
	memset(c->slab, 0, (size_t)g->nx * g->ny * g->nz);
	for (size_t u = 0; u < c->ncells; u++)
		if (c->blk[u] >= 0)
			c->slab[c->cell[u]] =
				(unsigned char)(rank[c->slot_of[c->blk[u]]] + 1);
	/* each placed copy's piece: the one whose slots hold it */
	int weight[DIS_MAX_PIECES];
	unsigned group[DIS_MAX_PIECES];
	for (size_t k = 0, i = 0; k < c->slots; k++) {
		while (i + 1 < c->p->npieces && c->base[i + 1] <= k)
			i++;
		if (rank[k] != SIZE_MAX) {
			int w = c->p->pieces[i].weight;
			weight[rank[k]] = w ? w : 1;
			group[rank[k]] = c->p->pieces[i].group;
		}
	}
	struct dis_result r;
	if (np < 2)
		return false; /* as solve --disassemble: not a solution */
	int rc = dis_run(c->d, g->nx, g->ny, g->nz, c->slab, np, weight, group,
	                 &r);
	if (rc == DIS_ENOMEM) {
		c->oom = true;
		return false;
	}
	if (rc != DIS_OK || r.verdict != DIS_APART) {
		if (rc == DIS_OK)
			dis_result_clear(&r);
		return false;
	}
	struct xmp_sep *e = &c->sep[c->n];
	*e = (struct xmp_sep){.moves = r.moves, .nmoves = r.nmoves,
	                      .nlevel = r.nlevel};
	memcpy(e->level, r.level, r.nlevel * sizeof *e->level);
	return true;
}

/* Keep the assembly now cut as BurrTools placements. */
static void keep(struct coll *c)
{
	const struct puzzle *p = c->p;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct xmp_place *q = cap <= SIZE_MAX / c->slots / sizeof *q
		                    ? realloc(c->place, cap * c->slots * sizeof *q)
		                    : NULL;
		if (!q) {
			c->oom = true;
			return;
		}
		c->place = q;
		if (c->dis) {
			struct xmp_sep *e = realloc(c->sep, cap * sizeof *e);
			if (!e) {
				c->oom = true;
				return;
			}
			c->sep = e;
		}
		c->cap = cap;
	}
	struct xmp_place *out = c->place + c->n * c->slots;
	for (size_t k = 0; k < c->slots; k++)
		out[k] = (struct xmp_place){0, 0, 0, -1};
	for (size_t t = 0; t < p->npieces; t++) {
		if (c->type[t] != t)
			continue;
		/* copies of type t placed, and those the pieces' least counts
		 * take first */
		unsigned used = 0, least = 0;
		for (size_t b = 0; b < c->nblocks; b++)
			used += c->type[c->blocks[b].piece] == t;
		for (size_t i = t; i < p->npieces; i++)
			if (c->type[i] == t)
				least += p->pieces[i].count;
		assert(used >= least);
		unsigned extra = used - least;
		size_t b = 0;
		for (size_t i = t; i < p->npieces; i++) {
			if (c->type[i] != t)
				continue;
			unsigned give = p->pieces[i].count,
			         room = puz_piece_max(&p->pieces[i]) - give;
			give += extra < room ? extra : room;
			extra -= give - p->pieces[i].count;
			for (unsigned k = 0; k < give; k++) {
				while (c->type[c->blocks[b].piece] != t)
					b++;
				place_block(c, i, &c->blocks[b], &out[c->base[i] + k]);
				if (c->dis)
					c->slot_of[b] = c->base[i] + k;
				b++;
			}
		}
		assert(extra == 0);
	}
	if (c->dis && !take_apart(c, out))
		return;
	c->n++;
}

/* Whether the mirror image of the assembly cut is an assembly: every
 * type it uses has a mirror type, whose copies stay within each type's
 * least and most (solve.c's mirror_allowed). */
static bool mirror_allowed(struct coll *c)
{
	size_t np = c->p->npieces;
	memset(c->used, 0, np * sizeof *c->used);
	for (size_t b = 0; b < c->nblocks; b++) {
		size_t t = c->type[c->blocks[b].piece];
		if (c->mirror[t] == np)
			return false;
		c->used[t]++;
	}
	for (size_t t = 0; t < np; t++) {
		if (c->type[t] != t)
			continue;
		unsigned got = c->mirror[t] == np ? 0 : c->used[c->mirror[t]];
		if (got < c->lo[t] || got > c->hi[t])
			return false;
	}
	return true;
}

/* An assembly is cut: keep it if its solution is new. */
static void found(struct coll *c)
{
	bool mirror = c->closed || mirror_allowed(c);
	for (int k = 0; k < c->nsym; k++) {
		if (!c->proper[k] && !mirror)
			continue;
		encode(c, k, c->code);
		if (k == 0 || cmp_codes(c->code, c->key, c->ncells) < 0) {
			uint32_t *t = c->key;
			c->key = c->code;
			c->code = t;
		}
	}
	if (key_new(c))
		keep(c);
}

/* Cut the labelled cells from goal cell 'from' on into copies of their
 * pieces, every way; found() for each complete cut. */
static void cut(struct coll *c, const unsigned char *labels, size_t from)
{
	const struct grid *g = &c->p->goal;
	size_t u = from;
	while (u < c->ncells && (!labels[c->cell[u]] || c->blk[u] >= 0))
		u++;
	if (u == c->ncells) {
		found(c);
		return;
	}
	size_t piece = (size_t)labels[c->cell[u]] - 1;
	assert(piece < c->p->npieces);
	int at[3];
	goal_xyz(g, c->cell[u], at);
	if (c->nblocks == c->cap_blocks) {
		size_t cap = c->cap_blocks ? 2 * c->cap_blocks : 16;
		struct block *b = realloc(c->blocks, cap * sizeof *b);
		uint32_t *r = realloc(c->rank, cap * sizeof *r);
		if (b)
			c->blocks = b;
		if (r)
			c->rank = r;
		if (!b || !r) {
			c->oom = true;
			return;
		}
		c->cap_blocks = cap;
	}
	for (size_t o = 0; o < c->norient[piece]; o++) {
		const struct shape *sh = &c->orient[piece][o];
		/* the orientation's first cell (least in grid order) on u */
		int off[3] = {at[0] - poly_x(sh->cells[0]),
		              at[1] - poly_y(sh->cells[0]),
		              at[2] - poly_z(sh->cells[0])};
		size_t n = 0;
		for (; n < sh->n; n++) {
			int x = off[0] + poly_x(sh->cells[n]),
			    y = off[1] + poly_y(sh->cells[n]),
			    z = off[2] + poly_z(sh->cells[n]);
			if (x < 0 || y < 0 || z < 0 || x >= g->nx || y >= g->ny ||
			    z >= g->nz)
				break;
			size_t gi = puz_grid_index(g, x, y, z);
			int32_t k = c->index[gi];
			if (k < 0 || labels[gi] != piece + 1 || c->blk[k] >= 0 ||
			    c->col[k] != poly_tag(sh->cells[n]))
				break;
			c->blk[k] = (int32_t)c->nblocks;
		}
		if (n == sh->n) {
			c->blocks[c->nblocks++] = (struct block){piece, o,
			                                         {off[0], off[1], off[2]}};
			cut(c, labels, u + 1);
			c->nblocks--;
		}
		/* free the cells taken (the first n) */
		while (n-- > 0)
			c->blk[c->index[puz_grid_index(g,
			        off[0] + poly_x(sh->cells[n]),
			        off[1] + poly_y(sh->cells[n]),
			        off[2] + poly_z(sh->cells[n]))]] = -1;
		if (c->oom || (c->max && c->n >= c->max))
			return;
	}
}

/* solve_opts.on_cover */
static void on_cover(void *ctx, const unsigned char *labels,
                     const unsigned char *colours)
{
	struct coll *c = ctx;
	if (c->oom || (c->max && c->n >= c->max))
		return;
	for (size_t k = 0; k < c->ncells; k++)
		c->col[k] = colours ? colours[c->cell[k]] : 0;
	cut(c, labels, 0);
}

int xmp_find_solutions(const struct puzzle *p, uint64_t max, bool disassemble,
                       void (*progress)(void *ctx,
                                        const struct solve_progress *pr),
                       void *ctx, struct xmp_solutions *out)
{
#ifndef NDEBUG
	char why[160];
	assert(xmp_writable(p, true, why, sizeof why));
#endif
	struct coll c = {.p = p, .max = max, .dis = disassemble};
	int rc = setup_goal(&c);
	if (rc == SOLVE_OK && disassemble) {
		const struct grid *g = &p->goal;
		size_t slots = 0;
		for (size_t i = 0; i < p->npieces; i++)
			slots += puz_piece_max(&p->pieces[i]);
		c.d = dis_new();
		c.slab = malloc((size_t)g->nx * g->ny * g->nz);
		/* per block (at most one per goal cell) and per slot */
		c.slot_of = malloc((c.ncells + slots + 1) * sizeof *c.slot_of);
		if (!c.d || !c.slab || !c.slot_of)
			rc = SOLVE_ENOMEM;
	}
	if (rc == SOLVE_OK)
		rc = setup_pieces(&c);
	if (rc == SOLVE_OK)
		rc = setup_group(&c);
	if (rc == SOLVE_OK) {
		c.base = malloc((p->npieces ? p->npieces : 1) * sizeof *c.base);
		if (!c.base)
			rc = SOLVE_ENOMEM;
		for (size_t i = 0; i < p->npieces && c.base; i++) {
			c.base[i] = c.slots;
			c.slots += puz_piece_max(&p->pieces[i]);
		}
	}
	bool coloured = false;
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *g = &p->pieces[i].shape;
		size_t cells = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
		for (size_t k = 0; k < cells; k++)
			coloured |= puz_cell_colour(g->cells[k]) != 0;
	}
	struct solve_result r;
	if (rc == SOLVE_OK) {
		/* with progress, one thread split into tasks (a plain
		 * search reports none): the same covers, in the same order */
		struct solve_opts o = {.max_solutions = max, .no_pin = coloured,
		                       .threads = progress ? 1 : 0,
		                       .on_cover = on_cover, .ctx = &c,
		                       .disassemble = disassemble,
		                       .progress = progress, .progress_ctx = ctx};
		rc = solve_puzzle(p, &o, &r);
	}
	if (rc == SOLVE_OK && c.oom) {
		solve_result_clear(&r);
		rc = SOLVE_ENOMEM;
	}
	if (rc == SOLVE_OK) {
		/* the group found here is the solver's */
		assert(c.closed == r.mirror_closed &&
		       (r.mirror_some ? c.ranged && c.nsym == 2 * r.group_order
		                      : c.nsym == r.group_order));
		/* every solution kept once (the proof at the top) */
		assert(!r.complete || c.n == (max && r.solutions > max
		                              ? max : r.solutions));
		assert(r.complete || c.n == max);
		*out = (struct xmp_solutions){.n = c.n, .slots = c.slots,
		                              .place = c.place, .sep = c.sep,
		                              .solutions = r.solutions,
		                              .complete = r.complete};
		c.place = NULL;
		c.sep = NULL;
		solve_result_clear(&r);
	}
	coll_free(&c);
	return rc;
}

void xmp_solutions_clear(struct xmp_solutions *s)
{
	for (size_t i = 0; s->sep && i < s->n; i++)
		free(s->sep[i].moves);
	free(s->sep);
	s->sep = NULL;
	free(s->place);
	s->place = NULL;
	s->n = 0;
}
