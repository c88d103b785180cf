/*
 * disasm.c: BurrTools' disassembler rules by breadth-first search over
 * positions (disasm.h has the rules; DESIGN.md §2b).
 *
 * Workload: every assembly a solve finds, one after another (millions for
 * a big count), most of them coming apart at once (a piece on top lifts
 * off), a few needing searches of thousands to millions of positions
 * (burrs). So the common case must cost little more than one look at the
 * pieces, and the searches must keep positions small.
 *
 * Data. A part is k pieces (local 0..k-1, global pcs[]) each at an offset
 * from where it lay in the assembly. A position is the k offsets; local
 * piece 0 never moves, which makes positions that differ by a shift of
 * everything one and the same. Positions live in an arena per recursion
 * depth (struct level), in breadth-first order, each with its parent and
 * the move that reached it, and in an open-addressing table over the
 * arena.
 *
 * How far piece a can move along each of the six directions with piece b
 * held still depends only on the pair and on b's offset relative to a:
 * the cache (struct cache) keeps the six figures per (a, b, offset), for
 * the whole run (the pieces' cells do not change), cleared by a stamp.
 *
 * The moves from a position, per direction D: piece i "needs" piece j
 * when i cannot move one cell along D with j held still; a group can move
 * along D exactly when it holds every piece its members need, and then as
 * far as the least figure from a member to a non-member. The groups are
 * the closed sets of that relation; only those without local piece 0 are
 * moved (the others are the same moves of the complement the other way).
 * A group comes free along D when no member is stopped by a non-member at
 * any distance; the candidates are BurrTools': the closure of each single
 * piece under "is stopped by" with at most k/2 pieces, single pieces
 * first, direction by direction (+x, -x, +y, -y, +z, -z), piece by piece.
 *
 * The rule at a depth: every position at depth L - 1 is looked at for
 * separations before any position at depth L is, in the order made; the
 * first separation whose parts both come apart (recursively, each part a
 * new search from its positions just before the freeing move) decides;
 * when the level has separations and none works, the part is stuck
 * (BurrTools' rule: the depth of the first separation decides). Positions
 * of depth L are made only while no separation has turned up at depth
 * L - 1, and, where the search is eager, only until one has at depth L:
 * each position made is then looked at at once, not after the whole depth
 * is made.
 *
 * Most assemblies of an interlocking design are stuck with no separation
 * at any position they reach (Gargamel: all 7,679 of them, 16 positions
 * each on average). For those the search above finds every position and
 * no separation, whatever the order: a part is first walked with
 * one-cell moves of least groups alone (never_free()), which reach the
 * same positions for less work (Gargamel: 31 % fewer instructions in
 * all); only when that walk meets a separation (or a bound, or
 * NEVER_MAX positions) does the search above run. The walk goes depth
 * first, and its answer is the same for every image of the assembly
 * under the goal's symmetries: a solve asks it first of each cover as
 * found (dis_never_free_shapes(), its pieces as shapes the caller keeps
 * per row), and only a cover it does not settle is put in its least
 * form and searched (from the same shapes, dis_run_shapes(), when that
 * form is the cover itself; from labels, dis_run(), when it is turned).
 */
#include "solver/disasm.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define INF 0xffffu
#define NDIR 6
/* Pair figures kept at most (16 bytes each), and shapes: past these the
 * caches start again. (A test, tests/test_disasm_bounds.c, makes both
 * small, so that every restart happens in a short run.) */
#ifndef CACHE_MAX
#define CACHE_MAX ((size_t)1 << 20)
#endif
#ifndef SHAPES_MAX
#define SHAPES_MAX ((size_t)1 << 16)
#endif
/* Positions the look for a part with no separation (never_free()) makes
 * at most before it leaves the part to the whole search: a stuck part's
 * positions are mostly a few pieces wiggling (tens of them), while a part
 * with a long search usually comes apart at a high level, where this
 * work is lost (Pelikan's burr: 9 % more instructions than without the
 * look when it has no bound, 7 % fewer with this one). */
#ifndef NEVER_MAX
#define NEVER_MAX 1024
#endif
/* Positions of parts found stuck that a run remembers at most, beyond
 * each search's first (bad_add_all(); 40 bytes and 6 a piece each,
 * kept allocated from run to run: at most a few MB a thread). */
#ifndef BAD_MAX
#define BAD_MAX ((size_t)1 << 16)
#endif
/* A search's first depths, and every depth of a part's search after a
 * separation, look at new positions eagerly (search()). */
#define EAGER_DEPTHS 4
/* Slots of a search's position table at its start (a power of two). */
#define TAB_MIN 256

/* A pair's figures: how far piece a can move along each direction with
 * piece b held still, and which of them are finite and which 0. */
struct figs {
	uint16_t f[NDIR];
	uint8_t fr, zero;  /* bit D: f[D] < INF; f[D] == 0 */
};

/* Figures of the pair cache, 16 bytes, so that the table of a puzzle's
 * pairs stays near: tens of thousands of them, nearly every lookup a
 * first meeting in its part's search. The key: shapes a and b (16 bits
 * each), the offset of b's box corner from a's (9 bits an axis, offsets
 * of -CNEAR to CNEAR - 1 kept) and the cache's stamp (5 bits, the top).
 * Figures of CFAR cells or more (INF too) are CFAR; a pair with a
 * finite one that far is not kept. */
struct centry {
	uint64_t key;     /* in use when its stamp is cache.stamp */
	uint8_t f[NDIR];
	uint8_t fr, zero;
};
#define CNEAR 256
#define CFAR 255
#define CSTAMP_SHIFT 59
#define CSTAMP_MAX 31
_Static_assert(SHAPES_MAX <= (size_t)1 << 16, "a shape is 16 bits of a key");

/* A piece's cells with its box corner at the origin: pieces of many
 * assemblies are the same shapes in the same few orientations, so the
 * cache works on shapes and lasts from run to run. */
struct dshape {
	size_t n;
	int16_t (*c)[3];
	int16_t hi[3];     /* box: 0..hi on each axis */
	unsigned char *bits; /* the box, x fastest: 1 for a cell */
	/* Its lines along each axis k as bits (bit t: a cell at t on axis
	 * k), line (cu, cv) at lines[loff[k] + cu + (hi[u] + 1) * cv] with
	 * u = k + 1, v = k + 2 (mod 3); NULL when a side passes 64. */
	uint64_t *lines;
	size_t loff[3];
};

struct cache {
	struct centry *e;
	size_t mask;      /* capacity - 1, a power of two */
	size_t used;
	uint32_t stamp;
};

/* A few offsets a pair has had in this part's search, with their
 * figures: a search moves few pieces, so a pair meets few offsets again
 * and again, and this is in reach where the cache's table is not. */
#define PAIR_WAYS 8
struct pairmemo {
	uint32_t stamp;     /* == level.pm_stamp when in use */
	int16_t r[3];
	struct figs m;
};

/* A pair's figures at the node filled last (fill_figures): how far i
 * moves along D with j still; fr and zero 0 at the start (the rows
 * hold no bit of it). */
struct pairfig {
	struct figs m;
};

/* The positions of one part's search, one per recursion depth. */
struct level {
	size_t k;          /* pieces of the part */
	int16_t *pos;      /* node i: pos[i * 3k ... ] offsets of the k pieces */
	uint64_t *hash;    /* node i's hash (see hslot()) */
	uint32_t *parent;  /* node i's parent (node 0: none) */
	uint64_t *group;   /* the move reaching node i: local group, */
	uint8_t *dir;      /* direction, */
	uint16_t *dist;    /* cells */
	size_t n, cap;     /* nodes, capacity */
	uint32_t *tab;     /* node + 1, 0 empty; slots past tmask all 0 */
	size_t tmask;      /* slots in use - 1 (a search starts small) */
	size_t tcap;       /* slots allocated */
	struct pairfig *pair; /* k * k: pair (i < j)'s figures last seen */
	struct pairmemo *pm;  /* k * k * PAIR_WAYS: pair (i < j)'s offsets */
	uint32_t pm_stamp;    /* this part's */
	bool fresh;        /* the rows below hold no node's bits yet */
	size_t last;       /* the node the pairs and rows hold, if !fresh */
	/* For the node whose figures are in m, per direction and piece i:
	 * the pieces i needs to come free (m < INF), i itself included. */
	uint64_t free_cl[NDIR][DIS_MAX_PIECES];
	uint64_t move1[NDIR][DIS_MAX_PIECES]; /* likewise, to move one cell
	                                       * (m == 0) */
};

struct piece {
	size_t n, cap;
	int16_t (*c)[3];   /* cells, less lo (the box corner at 0) */
	int16_t lo[3], hi[3];
	uint32_t shape;    /* index in disasm.shapes */
};

/* Groups found along one direction from one node, at most (past them
 * the node's search is undecided). */
#define DIS_MAX_FOUND 4096
#define DIS_FOUND_TAB (2 * DIS_MAX_FOUND) /* its table, a power of two */

/* The moves of one node being made (expand()). */
struct expand {
	disasm *d;
	struct level *l;
	size_t u;
	bool full;                       /* the node budget ran out */
	bool tie1[3];                    /* per axis: tied for one cell */
	int err;
	/* the groups found along the direction at hand (DIS_MAX_FOUND;
	 * these three arrays are allocated apart from the struct: written
	 * only as far as they are used, they cost few fresh pages, where a
	 * zeroed struct of 115 KB costs 28 in every thread) */
	struct found {
		uint64_t g;   /* the group */
		unsigned s;   /* the cells it moves */
	} *found;
	size_t nfound;
	/* found's index by (g, s): slot i in use when ftab_at[i] is the
	 * stamp of the direction at hand (DIS_FOUND_TAB each, ftab_at
	 * zeroed) */
	uint16_t *ftab;
	uint32_t *ftab_at;
	uint32_t ftab_stamp;
};

/* Parts of this run found not to come apart (stuck, or stopped by a
 * bound), by their pieces and offsets relative to the first: a part met
 * again, after the same pieces were taken away in another order, is
 * not searched again. Without it, trying every separation of a depth is
 * exponential in the pieces left loose around a stuck part. */
struct badpart {
	uint64_t mask;  /* the pieces (bit i: piece i of the run) */
	uint64_t h;
	size_t at;      /* its offsets: off[at .. at + 3 * pieces) */
	enum dis_verdict v;
};

struct badparts {
	struct badpart *e;
	size_t n, cap;
	int16_t *off;
	size_t noff, offcap;
	uint32_t *tab; /* entry + 1, 0 empty */
	size_t tmask;  /* slots - 1 (tab NULL: none) */
};

struct disasm {
	size_t npieces;      /* this run's */
	int weight[DIS_MAX_PIECES]; /* this run's */
	unsigned group[DIS_MAX_PIECES]; /* this run's, 0 none */
	uint64_t max_nodes;
	struct piece pc[DIS_MAX_PIECES];
	struct dshape *shapes; /* every shape met so far */
	uint32_t epoch;        /* shapes_reset()s so far */
	size_t nshapes, shcap;
	uint32_t *shtab;       /* shape + 1, 0 empty */
	size_t shmask;
	struct cache cache;
	struct level *lv[DIS_MAX_PIECES]; /* per depth, made on first use; owned */
	struct expand ex;    /* expand()'s state */
	struct dis_move *mv; /* the moves found so far */
	size_t nmv, mvcap;
	uint64_t nodes;
	bool oom;
	/* dis_never_free_shapes() said no for the assembly the next
	 * dis_run() is of: its whole search skips never_free() (an answer
	 * it would give again; skipping it never changes a result) */
	bool walked;
	struct badparts bad;
	/* a position's hash is the sum of its offsets times these, one per
	 * offset (see hslot()): a move changes it by a few products */
	uint64_t zr[3 * DIS_MAX_PIECES];
};

/* The number of bits set: the portable builtin calls libgcc's loop
 * where the target has no POPCNT; this is a few operations. */
static inline int pop64(uint64_t v)
{
	v = v - (v >> 1 & 0x5555555555555555u);
	v = (v & 0x3333333333333333u) + (v >> 2 & 0x3333333333333333u);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	return (int)(v * 0x0101010101010101u >> 56);
}

/* The same, quicker when v has at most one bit (most sets closures
 * add). */
static inline int pop_few(uint64_t v)
{
	return v & (v - 1) ? pop64(v) : v != 0;
}

/* Parts of up to PACK_MAX pieces close the one-cell rows of a direction
 * all at once where a position's moves are made (every piece's closure
 * is asked for there): the rows packed a byte each (byte i: row i),
 * closed by Warshall's algorithm, about ten operations a piece, where
 * closure_walk() costs tens a piece. The same sets either way; Gargamel
 * 4.7 % fewer instructions, Dracula 1.6 %, Pelikan 0.6 % more. The rows
 * of "needs to come free" keep the walks: fewer closures are asked of
 * them, and the memo's early answers win there. */
#define PACK_MAX 8
#define BYTES_LOW 0x0101010101010101u

static inline uint64_t pack8(const uint64_t *r, size_t k)
{
	uint64_t m = 0;
	for (size_t i = 0; i < k; i++)
		m |= r[i] << 8 * i;
	return m;
}

/* Packed rows m of k pieces, each holding its own bit, closed: byte i
 * becomes every piece row i reaches. */
static inline uint64_t closure8(uint64_t m, size_t k)
{
	for (size_t p = 0; p < k; p++) {
		uint64_t has = (m >> p & BYTES_LOW) * 0xffu;
		m |= has & ((m >> 8 * p & 0xffu) * BYTES_LOW);
	}
	return m;
}

static inline uint64_t byte8(uint64_t m, size_t e)
{
	return m >> 8 * e & 0xffu;
}

/* ---- set up ------------------------------------------------------------- */

disasm *dis_new(void)
{
	disasm *d = calloc(1, sizeof *d);
	if (!d)
		return NULL;
	d->ex.found = malloc(DIS_MAX_FOUND * sizeof *d->ex.found);
	d->ex.ftab = malloc(DIS_FOUND_TAB * sizeof *d->ex.ftab);
	d->ex.ftab_at = calloc(DIS_FOUND_TAB, sizeof *d->ex.ftab_at);
	if (!d->ex.found || !d->ex.ftab || !d->ex.ftab_at) {
		dis_free(d);
		return NULL;
	}
	d->max_nodes = DIS_MAX_NODES;
	uint64_t x = 0x243F6A8885A308D3u; /* splitmix64's sequence */
	for (size_t e = 0; e < 3 * DIS_MAX_PIECES; e++) {
		uint64_t z = (x += 0x9E3779B97F4A7C15u);
		z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9u;
		z = (z ^ z >> 27) * 0x94D049BB133111EBu;
		d->zr[e] = z ^ z >> 31;
	}
	return d;
}

static void level_free(struct level *l)
{
	free(l->pos);
	free(l->parent);
	free(l->group);
	free(l->dir);
	free(l->dist);
	free(l->tab);
	free(l->pair);
	free(l->pm);
	free(l->hash);
	memset(l, 0, sizeof *l);
}

void dis_free(disasm *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < DIS_MAX_PIECES; i++)
		if (d->lv[i]) {
			level_free(d->lv[i]);
			free(d->lv[i]);
		}
	for (size_t i = 0; i < DIS_MAX_PIECES; i++)
		free(d->pc[i].c);
	for (size_t i = 0; i < d->nshapes; i++) {
		free(d->shapes[i].c);
		free(d->shapes[i].bits);
		free(d->shapes[i].lines);
	}
	free(d->shapes);
	free(d->shtab);
	free(d->cache.e);
	free(d->mv);
	free(d->bad.e);
	free(d->bad.off);
	free(d->bad.tab);
	free(d->ex.found);
	free(d->ex.ftab);
	free(d->ex.ftab_at);
	free(d);
}

void dis_set_max_nodes(disasm *d, uint64_t max_nodes)
{
	d->max_nodes = max_nodes ? max_nodes : DIS_MAX_NODES;
}

void dis_result_clear(struct dis_result *r)
{
	free(r->moves);
	memset(r, 0, sizeof *r);
}

const char *dis_strerror(int status)
{
	switch (status) {
	case DIS_OK:
		return "success";
	case DIS_ENOMEM:
		return "out of memory";
	case DIS_ETOOBIG:
		return "too many pieces or too big a box to take apart";
	}
	return "unknown error";
}

int dis_level_cmp(const int *a, size_t na, const int *b, size_t nb)
{
	for (size_t i = 0; i < na && i < nb; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return na < nb ? -1 : na > nb;
}

/* ---- the pair cache ----------------------------------------------------- */

/* The key of (a, b, r), its stamp bits 0. */
static uint64_t ckey(uint32_t a, uint32_t b, const int16_t r[3])
{
	return (uint64_t)a | (uint64_t)b << 16 |
	       (uint64_t)(r[0] + CNEAR) << 32 | (uint64_t)(r[1] + CNEAR) << 41 |
	       (uint64_t)(r[2] + CNEAR) << 50;
}

static size_t chash(uint64_t key)
{
	uint64_t h = (key & (((uint64_t)1 << CSTAMP_SHIFT) - 1)) *
	             0xff51afd7ed558ccdu;
	h ^= h >> 32;
	return (size_t)h;
}

/* A new stamp: every entry is out of use (the table is emptied when
 * the stamps wrap). */
static void cache_restart(struct cache *c)
{
	if (++c->stamp > CSTAMP_MAX) {
		if (c->e)
			memset(c->e, 0, (c->mask + 1) * sizeof *c->e);
		c->stamp = 1;
	}
	c->used = 0;
}

static bool cache_grow(struct cache *c)
{
	size_t ncap = c->e ? 2 * (c->mask + 1) : 4096;
	struct centry *ne = calloc(ncap, sizeof *ne);
	if (!ne)
		return false;
	for (size_t i = 0; c->e && i <= c->mask; i++) {
		struct centry *o = &c->e[i];
		if (o->key >> CSTAMP_SHIFT != c->stamp)
			continue;
		size_t h = chash(o->key) & (ncap - 1);
		while (ne[h].key >> CSTAMP_SHIFT == c->stamp)
			h = (h + 1) & (ncap - 1);
		ne[h] = *o;
	}
	free(c->e);
	c->e = ne;
	c->mask = ncap - 1;
	return true;
}

/* pair_figures() on the pieces' lines (struct dshape): per axis, per
 * line both cross, a's bits against b's, both moved to one frame of 64
 * bits; the least shift that makes a meet b is one more than the gap.
 * False (m untouched) when a piece has no lines or the pair spans more
 * than 64 cells along an axis. */
static bool line_figures(const struct dshape *pa, const struct dshape *pb,
                         const int16_t r[3], uint16_t *m)
{
	if (!pa->lines || !pb->lines)
		return false;
	unsigned sa[3], sb[3];
	for (int k = 0; k < 3; k++) {
		int lo = r[k] < 0 ? r[k] : 0;
		int hi = pa->hi[k] > pb->hi[k] + r[k] ? pa->hi[k] : pb->hi[k] + r[k];
		if (hi - lo > 63)
			return false;
		sa[k] = (unsigned)-lo;
		sb[k] = (unsigned)(r[k] - lo);
	}
	for (int ax = 0; ax < 3; ax++) {
		int u = (ax + 1) % 3, v = (ax + 2) % 3;
		int u0 = r[u] > 0 ? r[u] : 0, v0 = r[v] > 0 ? r[v] : 0;
		int u1 = pa->hi[u] < pb->hi[u] + r[u] ? pa->hi[u] : pb->hi[u] + r[u];
		int v1 = pa->hi[v] < pb->hi[v] + r[v] ? pa->hi[v] : pb->hi[v] + r[v];
		const uint64_t *la = pa->lines + pa->loff[ax];
		const uint64_t *lb = pb->lines + pb->loff[ax];
		int wa = pa->hi[u] + 1, wb = pb->hi[u] + 1;
		unsigned up = m[2 * ax], down = m[2 * ax + 1];
		for (int cv = v0; cv <= v1; cv++)
			for (int cu = u0; cu <= u1; cu++) {
				uint64_t a = la[cu + wa * cv];
				uint64_t b = lb[cu - r[u] + wb * (cv - r[v])];
				if (!a || !b)
					continue;
				a <<= sa[ax];
				b <<= sb[ax];
				/* a moving +ax meets the next cell of b above
				 * one of its own, -ax the next one below */
				for (uint64_t t = a; t; t &= t - 1) {
					unsigned i = (unsigned)__builtin_ctzll(t);
					uint64_t above = i < 63 ? b >> (i + 1) : 0;
					uint64_t below = b & (((uint64_t)1 << i) - 1);
					if (above) { /* the gap: cells i+1 .. next - 1 */
						unsigned gap = (unsigned)__builtin_ctzll(above);
						up = gap < up ? gap : up;
					}
					if (below) { /* next + 1 .. i - 1 */
						unsigned next = 63u - (unsigned)__builtin_clzll(below);
						unsigned gap = i - 1 - next;
						down = gap < down ? gap : down;
					}
				}
			}
		m[2 * ax] = (uint16_t)up;
		m[2 * ax + 1] = (uint16_t)down;
	}
	return true;
}

/* How far piece a can move along each direction with b held still, b
 * lying at offset r from a: for every line of cells along an axis that
 * both cross, the gap between a cell of a and the next cell of b ahead. */
static void pair_figures(const struct dshape *pa, const struct dshape *pb,
                         const int16_t r[3], struct figs *fg)
{
	uint16_t *m = fg->f;
	for (int k = 0; k < NDIR; k++)
		m[k] = INF;
	if (line_figures(pa, pb, r, m))
		goto flags;
	/* (figures() has seen that the boxes meet on two axes at least:
	 * lines along the third are crossed by both) */
	/* From each cell of the smaller piece, walk the other's box along
	 * each direction to its first cell: the gap there. Walking from a
	 * cell of b towards -x and meeting a finds how far a moves +x. */
	bool swap = pa->n < pb->n;
	const struct dshape *walk = swap ? pb : pa, *from = swap ? pa : pb;
	int sg = swap ? -1 : 1; /* from's cells in walk's frame: c + sg*r */
	int W[3] = {walk->hi[0] + 1, walk->hi[1] + 1, walk->hi[2] + 1};
	for (size_t i = 0; i < from->n; i++) {
		int c[3];
		for (int k = 0; k < 3; k++)
			c[k] = from->c[i][k] + sg * r[k];
		for (int ax = 0; ax < 3; ax++) {
			int u = (ax + 1) % 3, v = (ax + 2) % 3;
			if (c[u] < 0 || c[u] >= W[u] || c[v] < 0 || c[v] >= W[v])
				continue;
			for (int dir = -1; dir <= 1; dir += 2) {
				int x[3] = {c[0], c[1], c[2]};
				/* the first cell of the box on the way, if any */
				int t = c[ax] + dir;
				if (dir > 0 && t < 0)
					t = 0;
				if (dir < 0 && t >= W[ax])
					t = W[ax] - 1;
				for (; t >= 0 && t < W[ax]; t += dir) {
					x[ax] = t;
					if (!walk->bits[x[0] + W[0] * (x[1] + W[1] * x[2])])
						continue;
					/* walk's cell at x, from's at c: moving from's
					 * piece along 'dir' meets it after 'gap' cells */
					unsigned gap = (unsigned)((t - c[ax]) * dir) - 1;
					int k = 2 * ax + (dir < 0);
					if (!swap) /* from is b: a moves the other way */
						k ^= 1;
					if (gap < m[k])
						m[k] = (uint16_t)gap;
					break;
				}
			}
		}
	}
flags:
	fg->fr = fg->zero = 0;
	for (int D = 0; D < NDIR; D++) {
		fg->fr |= (uint8_t)((m[D] != INF) << D);
		fg->zero |= (uint8_t)((m[D] == 0) << D);
	}
}

/* The figures of (a, b, r), from the cache or computed, into *out;
 * false when out of memory. */
static bool figures(disasm *d, uint32_t a, uint32_t b, const int16_t r[3],
                    struct figs *out)
{
	/* Lines along axis k are crossed by both only when the boxes meet
	 * on the other two axes: boxes that meet on fewer than two have no
	 * figure to look up (many pairs of a large part; the cache's table
	 * is slow to reach) */
	static const struct figs apart = {{INF, INF, INF, INF, INF, INF}, 0, 0};
	const struct dshape *pa = &d->shapes[a], *pb = &d->shapes[b];
	int meet = 0;
	for (int k = 0; k < 3; k++)
		meet += 0 <= pb->hi[k] + r[k] && r[k] <= pa->hi[k];
	if (meet < 2) {
		*out = apart;
		return true;
	}
	bool near = true;
	for (int k = 0; k < 3; k++)
		near &= -CNEAR <= r[k] && r[k] < CNEAR;
	if (!near) {
		pair_figures(pa, pb, r, out);
		return true;
	}
	struct cache *c = &d->cache;
	if (2 * (c->used + 1) > (c->e ? c->mask + 1 : 0)) {
		if (c->used >= CACHE_MAX)
			cache_restart(c); /* full: start again */
		else if (!cache_grow(c))
			return false;
	}
	uint64_t key = ckey(a, b, r), stamp = (uint64_t)c->stamp << CSTAMP_SHIFT;
	size_t h = chash(key) & c->mask;
	for (;; h = (h + 1) & c->mask) {
		const struct centry *e = &c->e[h];
		if (e->key >> CSTAMP_SHIFT != c->stamp)
			break;
		if (e->key == (key | stamp)) {
			for (int D = 0; D < NDIR; D++)
				out->f[D] = e->f[D] == CFAR ? INF : e->f[D];
			out->fr = e->fr;
			out->zero = e->zero;
			return true;
		}
	}
	pair_figures(pa, pb, r, out);
	struct centry *e = &c->e[h];
	for (int D = 0; D < NDIR; D++) {
		if (out->f[D] >= CFAR && out->f[D] != INF)
			return true; /* too far to keep */
		e->f[D] = out->f[D] == INF ? CFAR : (uint8_t)out->f[D];
	}
	e->key = key | stamp;
	e->fr = out->fr;
	e->zero = out->zero;
	c->used++;
	return true;
}

/* ---- positions ---------------------------------------------------------- */

/* The slot of hash h in a table of mask + 1 slots. A position's hash
 * is linear in its offsets (each times its own random number, all
 * modulo 2^64): so a move updates it in a step per piece moved, and
 * equal hashes are checked offset by offset. */
static inline size_t hslot(uint64_t h, size_t mask)
{
	h ^= h >> 29;
	h *= 0xBF58476D1CE4E5B9u;
	return (size_t)(h ^ h >> 32) & mask;
}

/* Empty the position table of the last search: slot by slot when it held
 * few positions (a big table from an earlier search is not swept for
 * every small part), else whole. */
static void table_clear(struct level *l)
{
	if (!l->tab)
		return;
	if (8 * l->n >= l->tmask + 1) {
		memset(l->tab, 0, (l->tmask + 1) * sizeof *l->tab);
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		/* every entry goes: probe past the emptied slots */
		size_t h = hslot(l->hash[i], l->tmask);
		while (l->tab[h] != (uint32_t)i + 1)
			h = (h + 1) & l->tmask;
		l->tab[h] = 0;
	}
}

/* The level of 'depth', made on first use (a run of few pieces needs
 * few). NULL when out of memory. */
static struct level *level_at(disasm *d, size_t depth)
{
	if (!d->lv[depth])
		d->lv[depth] = calloc(1, sizeof *d->lv[depth]);
	return d->lv[depth];
}

/* Room for the search of a part of k pieces at this level. */
static bool level_init(struct level *l, size_t k)
{
	table_clear(l);
	if (l->tab && l->tmask + 1 > TAB_MIN)
		l->tmask = TAB_MIN - 1; /* every slot is empty */
	l->n = 0;
	if (l->k != k) {
		free(l->pair);
		free(l->pm);
		l->pair = malloc(k * k * sizeof *l->pair);
		l->pm = calloc(k * k * PAIR_WAYS, sizeof *l->pm);
		l->pm_stamp = 0;
		if (!l->pair || !l->pm) {
			level_free(l);
			return false;
		}
		/* the arena holds positions of another size now */
		if (l->cap && l->k && l->cap * l->k / k < l->cap)
			l->cap = l->cap * l->k / k;
		l->k = k;
	}
	/* another part: no pair seen yet */
	for (size_t i = 0; i < k * k; i++)
		l->pair[i].m.fr = l->pair[i].m.zero = 0;
	if (++l->pm_stamp == 0) { /* every 4 billion parts */
		memset(l->pm, 0, k * k * PAIR_WAYS * sizeof *l->pm);
		l->pm_stamp = 1;
	}
	l->fresh = true;
	return true;
}

static bool level_grow(struct level *l)
{
	size_t ncap = l->cap ? 2 * l->cap : 256;
	size_t k = l->k;
	int16_t *pos = realloc(l->pos, ncap * 3 * k * sizeof *pos);
	if (!pos)
		return false;
	l->pos = pos;
	uint64_t *hash = realloc(l->hash, ncap * sizeof *hash);
	if (!hash)
		return false;
	l->hash = hash;
	uint32_t *parent = realloc(l->parent, ncap * sizeof *parent);
	if (!parent)
		return false;
	l->parent = parent;
	uint64_t *group = realloc(l->group, ncap * sizeof *group);
	if (!group)
		return false;
	l->group = group;
	uint8_t *dir = realloc(l->dir, ncap * sizeof *dir);
	if (!dir)
		return false;
	l->dir = dir;
	uint16_t *dist = realloc(l->dist, ncap * sizeof *dist);
	if (!dist)
		return false;
	l->dist = dist;
	l->cap = ncap;
	return true;
}

/* Twice the slots in use, in the table there is when it has them (a
 * small search keeps a small table in reach, whatever an earlier one
 * grew it to). */
static bool table_grow(struct level *l)
{
	size_t ncap = l->tab ? 2 * (l->tmask + 1) : TAB_MIN;
	if (ncap > l->tcap) {
		uint32_t *nt = calloc(ncap, sizeof *nt);
		if (!nt)
			return false;
		free(l->tab);
		l->tab = nt;
		l->tcap = ncap;
	} else {
		memset(l->tab, 0, (l->tmask + 1) * sizeof *l->tab);
	}
	l->tmask = ncap - 1;
	for (size_t i = 0; i < l->n; i++) {
		size_t h = hslot(l->hash[i], l->tmask);
		while (l->tab[h])
			h = (h + 1) & l->tmask;
		l->tab[h] = (uint32_t)i + 1;
	}
	return true;
}

/* Room for one more node; false when out of memory. */
static bool node_grow(struct level *l)
{
	if (2 * (l->n + 1) > (l->tab ? l->tmask + 1 : 0) && !table_grow(l))
		return false;
	return l->n < l->cap || level_grow(l);
}

static inline bool node_room(struct level *l)
{
	/* (a table's slots are never fewer than TAB_MIN) */
	return (l->tab && 2 * (l->n + 1) <= l->tmask + 1 && l->n < l->cap) ||
	       node_grow(l);
}

/* Node l->n, whose offsets are written, is added: its hash h, in table
 * slot 'slot', reached from 'parent' by the move given. */
static void node_put(struct level *l, size_t slot, uint64_t h,
                     uint32_t parent, uint64_t group, int dir, unsigned dist)
{
	l->hash[l->n] = h;
	l->parent[l->n] = parent;
	l->group[l->n] = group;
	l->dir[l->n] = (uint8_t)dir;
	l->dist[l->n] = (uint16_t)dist;
	l->tab[slot] = (uint32_t)l->n + 1;
	l->n++;
}

/* The first node of a search: the offsets 'start'; false when out of
 * memory. */
static bool add_start(struct level *l, const uint64_t *zr,
                      const int16_t *start)
{
	if (!node_room(l))
		return false;
	size_t w = 3 * l->k;
	uint64_t h = 0;
	for (size_t e = 0; e < w; e++)
		h += (uint64_t)(int64_t)start[e] * zr[e];
	memcpy(l->pos, start, w * sizeof *start); /* the table is empty */
	node_put(l, hslot(h, l->tmask), h, 0, 0, 0, 0);
	return true;
}

/* ---- one position ------------------------------------------------------- */

static uint64_t all_of(size_t k)
{
	return k == 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1;
}

/* Where a pair's offset r goes among its PAIR_WAYS memos. */
static inline size_t pair_way(int16_t r0, int16_t r1, int16_t r2)
{
	uint32_t h = (uint32_t)(uint16_t)r0 * 0x9E3779B1u +
	             (uint32_t)(uint16_t)r1 * 0x85EBCA77u +
	             (uint32_t)(uint16_t)r2 * 0xC2B2AE3Du;
	_Static_assert(PAIR_WAYS == 8, "pair_way() takes three bits");
	return h >> 29;
}

/* The figures of node u of part pcs into l->pair, and the rows of
 * l->free_cl and l->move1. Positions next to each other in the
 * breadth-first order share most pairs' offsets: only the pairs whose
 * offsets changed since the node filled last are looked at. */
static bool fill_figures(disasm *d, struct level *l, const uint8_t *pcs,
                         size_t u)
{
	size_t k = l->k;
	const int16_t *p = l->pos + u * 3 * k;
	/* The rows hold the last node's bits: bit j of row i along D comes
	 * from pair (i, j) alone, so only the pairs that changed change
	 * them. A new part starts them afresh (level_init). A pair keeps
	 * its offset when both pieces moved alike since the last node:
	 * alike[i] is the pieces that moved as i did. */
	uint64_t alike[DIS_MAX_PIECES];
	if (l->fresh) {
		for (int D = 0; D < NDIR; D++)
			for (size_t i = 0; i < k; i++)
				l->free_cl[D][i] = l->move1[D][i] = (uint64_t)1 << i;
		for (size_t i = 0; i < k; i++)
			alike[i] = (uint64_t)1 << i;
		l->fresh = false;
	} else {
		/* the few distinct shifts since the last node, and who made
		 * each */
		const int16_t *q = l->pos + l->last * 3 * k;
		uint64_t key[DIS_MAX_PIECES], cls[DIS_MAX_PIECES];
		size_t ncls = 0, at[DIS_MAX_PIECES];
		for (size_t i = 0; i < k; i++) {
			uint64_t v = 0;
			for (int x = 0; x < 3; x++)
				v |= (uint64_t)(uint16_t)(p[3 * i + x] - q[3 * i + x])
				     << 16 * x;
			size_t c = 0;
			while (c < ncls && key[c] != v)
				c++;
			if (c == ncls) {
				key[ncls] = v;
				cls[ncls++] = 0;
			}
			cls[c] |= (uint64_t)1 << i;
			at[i] = c;
		}
		for (size_t i = 0; i < k; i++)
			alike[i] = cls[at[i]];
	}
	l->last = u;
	for (size_t i = 0; i < k; i++) {
		const struct piece *a = &d->pc[pcs[i]];
		/* the later pieces that did not move as i did */
		uint64_t js = all_of(k) & ~all_of(i + 1) & ~alike[i];
		for (; js; js &= js - 1) {
			size_t j = (size_t)__builtin_ctzll(js);
			const struct piece *b = &d->pc[pcs[j]];
			struct pairfig *pf = &l->pair[i * k + j];
			/* b's offset from a, in registers (an array
			 * written by halves and read whole stalls) */
			int16_t r0 = (int16_t)(p[3 * j] + b->lo[0] - p[3 * i] - a->lo[0]);
			int16_t r1 = (int16_t)(p[3 * j + 1] + b->lo[1] -
			                       p[3 * i + 1] - a->lo[1]);
			int16_t r2 = (int16_t)(p[3 * j + 2] + b->lo[2] -
			                       p[3 * i + 2] - a->lo[2]);
			struct pairmemo *pm = &l->pm[(i * k + j) * PAIR_WAYS +
			                             pair_way(r0, r1, r2)];
			if (pm->stamp != l->pm_stamp || pm->r[0] != r0 ||
			    pm->r[1] != r1 || pm->r[2] != r2) {
				int16_t r[3] = {r0, r1, r2};
				if (!figures(d, a->shape, b->shape, r, &pm->m))
					return false;
				pm->stamp = l->pm_stamp;
				pm->r[0] = r0;
				pm->r[1] = r1;
				pm->r[2] = r2;
			}
			uint64_t bi = (uint64_t)1 << i, bj = (uint64_t)1 << j;
			/* the pair's bits that changed: j stops i along D when
			 * f[D] < INF, and then i stops j along D ^ 1 */
			for (unsigned m = pf->m.fr ^ pm->m.fr; m; m &= m - 1) {
				int D = __builtin_ctz(m);
				l->free_cl[D][i] ^= bj;
				l->free_cl[D ^ 1][j] ^= bi;
			}
			for (unsigned m = pf->m.zero ^ pm->m.zero; m; m &= m - 1) {
				int D = __builtin_ctz(m);
				l->move1[D][i] ^= bj;
				l->move1[D ^ 1][j] ^= bi;
			}
			pf->m = pm->m;
		}
	}
	/* free_cl stays as it is: separations() closes only the rows it
	 * needs, and only up to k/2 pieces */
	return true;
}

/* How far piece i can move along D with j still, at the node filled. */
static inline unsigned fig(const struct level *l, int D, size_t i, size_t j)
{
	if (i < j)
		return l->pair[i * l->k + j].m.f[D];
	if (i > j)
		return l->pair[j * l->k + i].m.f[D ^ 1];
	return INF;
}

/* Whether "needs" along an axis ('fw' its rows along one way, 'bw' along
 * the other: the transpose) links every piece to every other: then no
 * group but all of them is closed, along either way, and no group can
 * move (or come free) along the axis. Piece 0 reaching every piece and
 * every piece reaching piece 0 is enough. */
static bool tied(const uint64_t *fw, const uint64_t *bw, size_t k)
{
	uint64_t all = all_of(k);
	for (int way = 0; way < 2; way++) {
		const uint64_t *r = way ? bw : fw;
		uint64_t c = r[0], todo = c & ~(uint64_t)1;
		while (todo && c != all) {
			uint64_t add = r[__builtin_ctzll(todo)] & ~c;
			todo &= todo - 1;
			c |= add;
			todo |= add;
		}
		if (c != all)
			return false;
	}
	return true;
}

/* fill_figures() of node u, and per axis whether it is tied for one
 * cell (then for any distance too: "needs" for one cell is part of
 * "needs" at all). */
static bool fill_node(disasm *d, struct level *l, const uint8_t *pcs,
                      size_t u, bool tie1[3])
{
	if (!fill_figures(d, l, pcs, u))
		return false;
	for (int a = 0; a < 3; a++)
		tie1[a] = tied(l->move1[2 * a], l->move1[2 * a + 1], l->k);
	return true;
}

/* Closures under one set of rows ("needs") already taken, so that the
 * next walk stops at them: a part of many pieces, nearly all tied, has
 * every closure large, and each walk after the first meets a large one
 * at once. */
struct clmemo {
	uint64_t big;   /* pieces whose closure has more than 'most' */
	uint64_t known; /* pieces whose closure is in cl */
	uint64_t cl[DIS_MAX_PIECES];
};

/* The closure of piece e under the rows 'r', or 0 when it has more than
 * 'most' pieces (small_closure() has looked at the memo first). A
 * piece whose closure is known adds it whole (closed: none of its
 * members need a look); one whose closure is large makes e's large
 * too. */
static uint64_t closure_walk(const uint64_t *r, size_t e, int most,
                             struct clmemo *m)
{
	uint64_t be = (uint64_t)1 << e;
	uint64_t c = r[e], done = be, todo = c & ~be;
	int n = pop_few(c);
	while (todo && n <= most && !(c & m->big)) {
		size_t f = (size_t)__builtin_ctzll(todo);
		uint64_t add;
		if (m->known >> f & 1) {
			add = m->cl[f] & ~c;
			done |= m->cl[f];
		} else {
			add = r[f] & ~c;
			done |= (uint64_t)1 << f;
		}
		c |= add;
		n += pop_few(add);
		todo = c & ~done;
	}
	if (n > most || (c & m->big)) {
		m->big |= be;
		return 0;
	}
	m->known |= be;
	m->cl[e] = c;
	return c;
}

/* The same, the memo's answers first (most calls end here, inline). */
static inline uint64_t small_closure(const uint64_t *r, size_t e, int most,
                                     struct clmemo *m)
{
	uint64_t be = (uint64_t)1 << e;
	if (m->big & be)
		return 0;
	if (m->known & be)
		return m->cl[e];
	if (r[e] & m->big) { /* a piece e needs has a large closure */
		m->big |= be;
		return 0;
	}
	return closure_walk(r, e, most, m);
}

/* Packed closures c8 with every closure of more than 'most' pieces
 * made 0: each byte's bits counted at once, then compared (a count of
 * at most 8 plus 127 - most passes 127 just when it is over most). */
static inline uint64_t small8(uint64_t c8, int most)
{
	uint64_t v = c8 - (c8 >> 1 & 0x5555555555555555u);
	v = (v & 0x3333333333333333u) + (v >> 2 & 0x3333333333333333u);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fu;
	uint64_t over = (v + (uint64_t)(127 - most) * BYTES_LOW) &
	                0x8080808080808080u;
	return c8 & ~((over >> 7) * 0xffu);
}

/* No closures packed yet (closure_of()): never a value, as no closure
 * of k > 1 pieces has all of them and at most k/2. */
#define C8_NONE UINT64_MAX

/* small_closure() of piece p under the rows r of k pieces; 'c8' is
 * C8_NONE or, when k <= PACK_MAX, their small closures packed (made on
 * first use). */
static inline uint64_t closure_of(const uint64_t *r, size_t k, size_t p,
                                  int most, struct clmemo *cm, uint64_t *c8)
{
	if (k <= PACK_MAX) {
		if (*c8 == C8_NONE)
			*c8 = small8(closure8(pack8(r, k), k), most);
		return byte8(*c8, p);
	}
	return small_closure(r, p, most, cm);
}

/* ---- the search of one part --------------------------------------------- */

/* The outcome of a part: its verdict, level and whether some separation
 * in it takes more than one move (BurrTools' containsMultiMoves). */
struct outcome {
	enum dis_verdict v;
	int level[DIS_MAX_LEVEL];
	size_t nlevel;
	bool multi;
};

static int search(disasm *d, size_t depth, size_t k, const uint8_t *pcs,
                  const int16_t *start, struct outcome *out);

static int maxweight(const disasm *d, const uint8_t *pcs, uint64_t g)
{
	int w = 0;
	for (; g; g &= g - 1) {
		int x = d->weight[pcs[__builtin_ctzll(g)]];
		if (x > w)
			w = x;
	}
	return w;
}

static uint64_t global_mask(const uint8_t *pcs, uint64_t g)
{
	uint64_t m = 0;
	for (; g; g &= g - 1)
		m |= (uint64_t)1 << pcs[__builtin_ctzll(g)];
	return m;
}

static bool push_move(disasm *d, uint64_t group, int dir, int dist)
{
	if (d->nmv == d->mvcap) {
		size_t ncap = d->mvcap ? 2 * d->mvcap : 64;
		struct dis_move *n = realloc(d->mv, ncap * sizeof *n);
		if (!n)
			return false;
		d->mv = n;
		d->mvcap = ncap;
	}
	d->mv[d->nmv++] = (struct dis_move){group, dir, dist};
	return true;
}

/* The side of a move that is shown moving: the smaller; on a tie the one
 * without local piece 0; then the heaviest piece stays. 'g' moves along
 * *dir; may become the complement the other way. */
static uint64_t shown_side(const disasm *d, const uint8_t *pcs, size_t k,
                           uint64_t g, int *dir)
{
	uint64_t rest = all_of(k) & ~g;
	int ng = pop64(g), nr = (int)k - ng;
	if (ng > nr || (ng == nr && (g & 1))) {
		g = rest;
		rest = all_of(k) & ~g;
		*dir ^= 1;
	}
	if (maxweight(d, pcs, g) > maxweight(d, pcs, rest)) {
		g = rest;
		*dir ^= 1;
	}
	return g;
}

/* The moves from the start to node u, in order, onto d->mv. */
static bool push_path(disasm *d, const struct level *l, const uint8_t *pcs,
                      size_t u)
{
	size_t steps = 0;
	for (size_t v = u; v; v = l->parent[v])
		steps++;
	size_t base = d->nmv;
	for (size_t i = 0; i < steps; i++)
		if (!push_move(d, 0, 0, 0))
			return false;
	size_t at = base + steps;
	for (size_t v = u; v; v = l->parent[v]) {
		int dir = l->dir[v];
		uint64_t g = shown_side(d, pcs, l->k, l->group[v], &dir);
		d->mv[--at] = (struct dis_move){global_mask(pcs, g), dir, l->dist[v]};
	}
	return true;
}

/* The key of a part: its pieces and their offsets relative to the
 * first's, 'pos' 3 per piece. */
static uint64_t bad_hash(uint64_t mask, size_t n, const int16_t *pos)
{
	uint64_t h = mask * 0x9E3779B97F4A7C15u;
	for (size_t i = 3; i < 3 * n; i++) {
		h ^= (uint16_t)(pos[i] - pos[i % 3]);
		h *= 0xff51afd7ed558ccdu;
	}
	return h ^ h >> 32;
}

/* The verdict of the part, when it is known not to come apart; else
 * DIS_APART. */
static enum dis_verdict bad_find(const disasm *d, uint64_t mask, size_t n,
                                 const int16_t *pos)
{
	const struct badparts *b = &d->bad;
	if (!b->tab)
		return DIS_APART;
	uint64_t h = bad_hash(mask, n, pos);
	for (size_t i = (size_t)h & b->tmask; b->tab[i]; i = (i + 1) & b->tmask) {
		const struct badpart *e = &b->e[b->tab[i] - 1];
		if (e->h != h || e->mask != mask)
			continue;
		const int16_t *o = b->off + e->at;
		size_t j = 3;
		while (j < 3 * n && o[j] == pos[j] - pos[j % 3])
			j++;
		if (j == 3 * n)
			return e->v;
	}
	return DIS_APART;
}

static bool bad_grow(struct badparts *b)
{
	size_t ncap = b->tab ? 2 * (b->tmask + 1) : 256;
	uint32_t *nt = calloc(ncap, sizeof *nt);
	if (!nt)
		return false;
	for (size_t k = 0; k < b->n; k++) {
		size_t i = (size_t)b->e[k].h & (ncap - 1);
		while (nt[i])
			i = (i + 1) & (ncap - 1);
		nt[i] = (uint32_t)k + 1;
	}
	free(b->tab);
	b->tab = nt;
	b->tmask = ncap - 1;
	return true;
}

/* Remember that the part does not come apart ('v'). false: out of
 * memory. */
static bool bad_add(disasm *d, uint64_t mask, size_t n, const int16_t *pos,
                    enum dis_verdict v)
{
	struct badparts *b = &d->bad;
	if (b->n == b->cap) {
		size_t ncap = b->cap ? 2 * b->cap : 64;
		struct badpart *ne = realloc(b->e, ncap * sizeof *ne);
		if (!ne)
			return false;
		b->e = ne;
		b->cap = ncap;
	}
	if (b->noff + 3 * n > b->offcap) {
		size_t ncap = b->offcap ? 2 * b->offcap : 1024;
		while (ncap < b->noff + 3 * n)
			ncap *= 2;
		int16_t *no = realloc(b->off, ncap * sizeof *no);
		if (!no)
			return false;
		b->off = no;
		b->offcap = ncap;
	}
	if (2 * (b->n + 1) > (b->tab ? b->tmask + 1 : 0) && !bad_grow(b))
		return false;
	uint64_t h = bad_hash(mask, n, pos);
	struct badpart *e = &b->e[b->n];
	*e = (struct badpart){.mask = mask, .h = h, .at = b->noff, .v = v};
	for (size_t j = 0; j < 3 * n; j++)
		b->off[b->noff++] = (int16_t)(pos[j] - pos[j % 3]);
	size_t i = (size_t)h & b->tmask;
	while (b->tab[i])
		i = (i + 1) & b->tmask;
	b->tab[i] = (uint32_t)++b->n;
	return true;
}

/* Forget the last run's parts (a table grown big is let go). */
static void bad_reset(struct badparts *b)
{
	if (!b->n)
		return;
	if (b->tmask + 1 > 4096) {
		free(b->tab);
		b->tab = NULL;
	} else {
		memset(b->tab, 0, (b->tmask + 1) * sizeof *b->tab);
	}
	b->n = b->noff = 0;
}

/* Try the separation of node u of level 'depth' that frees local group g
 * along D (L moves in all): both parts taken apart, the moves and the
 * level written. */
static int try_separation(disasm *d, size_t depth, const uint8_t *pcs,
                          size_t u, uint64_t g, int D, int L,
                          struct outcome *out)
{
	struct level *l = d->lv[depth];
	size_t k = l->k;
	/* The group found is removed (at most half the pieces), unless it
	 * holds the heaviest piece (BurrTools' weights). */
	uint64_t rest = all_of(k) & ~g;
	if (maxweight(d, pcs, g) > maxweight(d, pcs, rest)) {
		rest = g;
		g = all_of(k) & ~g;
		D ^= 1;
	}
	size_t mark = d->nmv;
	if (!push_path(d, l, pcs, u) ||
	    !push_move(d, global_mask(pcs, g), D, 0))
		return DIS_ENOMEM;

	/* The two parts at node u's positions: left first, then removed. */
	struct outcome sub[2];
	uint64_t side[2] = {rest, g};
	for (int s = 0; s < 2; s++) {
		uint8_t spcs[DIS_MAX_PIECES];
		int16_t spos[3 * DIS_MAX_PIECES];
		size_t n = 0;
		const int16_t *p = l->pos + u * 3 * k;
		for (uint64_t t = side[s]; t; t &= t - 1) {
			size_t i = (size_t)__builtin_ctzll(t);
			spcs[n] = pcs[i];
			memcpy(spos + 3 * n, p + 3 * i, 3 * sizeof *spos);
			n++;
		}
		/* one piece, or pieces of one group: nothing to take apart
		 * (both sides have a piece) */
		assert(n >= 1);
		unsigned g0 = n ? d->group[spcs[0]] : 0;
		bool one = g0 != 0;
		for (size_t i = 1; i < n && one; i++)
			one = d->group[spcs[i]] == g0;
		if (n == 1 || one) {
			sub[s] = (struct outcome){.v = DIS_APART};
			continue;
		}
		uint64_t gm = global_mask(pcs, side[s]);
		enum dis_verdict known = bad_find(d, gm, n, spos);
		if (known != DIS_APART) {
			sub[s] = (struct outcome){.v = known};
		} else {
			int rc = search(d, depth + 1, n, spcs, spos, &sub[s]);
			if (rc != DIS_OK)
				return rc;
			if (sub[s].v != DIS_APART &&
			    !bad_add(d, gm, n, spos, sub[s].v))
				return DIS_ENOMEM;
		}
		if (sub[s].v != DIS_APART) {
			d->nmv = mark;
			out->v = sub[s].v;
			return DIS_OK;
		}
	}
	out->v = DIS_APART;
	out->level[0] = L;
	out->nlevel = 1;
	out->multi = L > 1;
	for (int s = 0; s < 2; s++) {
		if (!sub[s].multi)
			continue;
		out->multi = true;
		for (size_t i = 0; i < sub[s].nlevel && out->nlevel < DIS_MAX_LEVEL; i++)
			out->level[out->nlevel++] = sub[s].level[i];
	}
	return DIS_OK;
}

/* The separations of node u in BurrTools' order; tries each. *found is
 * set when there is one; out->v is DIS_APART when one worked, DIS_BOUND
 * when one was undecided and none worked. */
static int separations(disasm *d, size_t depth, const uint8_t *pcs, size_t u,
                       int L, const bool *tie1, bool *found, bool *bound,
                       struct outcome *out)
{
	struct level *l = d->lv[depth];
	size_t k = l->k;
	uint64_t seen[NDIR][DIS_MAX_PIECES];
	size_t nseen[NDIR] = {0};
	struct clmemo cm; /* pass 1: the closures along D */
	bool tie[3];
	for (int a = 0; a < 3; a++)
		tie[a] = tie1[a] ||
		         tied(l->free_cl[2 * a], l->free_cl[2 * a + 1], k);
	/* along D, the pieces free to go alone (each row holds its piece);
	 * none along a tied axis */
	uint64_t alone[NDIR];
	for (int D = 0; D < NDIR; D++) {
		const uint64_t *row = l->free_cl[D];
		uint64_t a = 0;
		for (size_t e = 0; e < k; e++)
			a |= (uint64_t)(row[e] == (uint64_t)1 << e) << e;
		alone[D] = tie[D >> 1] ? 0 : a;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int D = 0; D < NDIR; D++) {
			/* pass 0: e alone; pass 1: groups of 2 to k/2 */
			uint64_t es = pass == 0 ? alone[D]
			              : tie[D >> 1] || k < 4 ? 0
			              : all_of(k) & ~alone[D];
			cm.big = cm.known = 0;
			for (; es; es &= es - 1) {
				size_t e = (size_t)__builtin_ctzll(es);
				uint64_t c = (uint64_t)1 << e;
				if (pass == 1) {
					c = small_closure(l->free_cl[D], e, (int)(k / 2), &cm);
					if (!c)
						continue;
				}
				bool dup = false;
				for (size_t s = 0; s < nseen[D]; s++)
					dup |= seen[D][s] == c;
				if (dup)
					continue;
				seen[D][nseen[D]++] = c;
				*found = true;
				int rc = try_separation(d, depth, pcs, u, c, D, L, out);
				if (rc != DIS_OK)
					return rc;
				if (out->v == DIS_APART)
					return DIS_OK;
				if (out->v == DIS_BOUND)
					*bound = true;
			}
		}
	return DIS_OK;
}

/* The moves of one node, in BurrTools' order (movementanalysator.cpp's
 * find(), after its single and group removals): direction by direction,
 * piece by piece, 1, 2, ... cells: the least group holding the piece
 * that can move that far, while it has at most k/2 pieces; and each new
 * group at once joined with every group found before along the same
 * direction by as many cells (two groups that move apart from each other
 * also move together), the unions joined in turn. Every group that can
 * move is found so (it is the union of its pieces' least groups; one of
 * at most k/2 pieces along D, else the rest along the other way), so the
 * positions reached are all of them, in the order BurrTools meets them:
 * the separation it finds first is the one found first here. */

/* The position of node x->u with group g moved s cells along D; the
 * group is made the one without piece 0 (the other side the other way,
 * the same position), so that piece 0 stays. */
static void add_move(struct expand *x, uint64_t g, int D, unsigned s)
{
	struct level *l = x->l;
	size_t k = l->k;
	if (g & 1) {
		g = all_of(k) & ~g;
		D ^= 1;
	}
	if (l->n >= x->d->max_nodes) {
		x->full = true;
		return;
	}
	/* the move back to the node's parent: known */
	if (x->u && g == l->group[x->u] && D == (l->dir[x->u] ^ 1) &&
	    s == l->dist[x->u])
		return;
	int ax = D >> 1, delta = D & 1 ? -(int)s : (int)s;
	const uint64_t *zr = x->d->zr;
	uint64_t h = l->hash[x->u];
	for (uint64_t t = g; t; t &= t - 1) {
		size_t e = 3 * (size_t)__builtin_ctzll(t) + (size_t)ax;
		int v = l->pos[x->u * 3 * k + e] + delta;
		if (v <= -DIS_MAX_SHIFT || v >= DIS_MAX_SHIFT) {
			x->full = true;
			return;
		}
		h += (uint64_t)(int64_t)delta * zr[e];
	}
	if (!node_room(l)) { /* (it may move the arena) */
		x->err = DIS_ENOMEM;
		return;
	}
	/* the new position is written where it would go, then looked up:
	 * equal hashes are compared whole (nearly every lookup finds its
	 * position, and most moves lead to one known) */
	size_t w = 3 * k;
	int16_t *to = l->pos + l->n * w;
	memcpy(to, l->pos + x->u * w, w * sizeof *to);
	for (uint64_t t = g; t; t &= t - 1)
		to[3 * (size_t)__builtin_ctzll(t) + (size_t)ax] += (int16_t)delta;
	size_t slot = hslot(h, l->tmask);
	for (; l->tab[slot]; slot = (slot + 1) & l->tmask) {
		size_t v = l->tab[slot] - 1;
		if (l->hash[v] == h &&
		    memcmp(l->pos + v * w, to, w * sizeof *to) == 0)
			return; /* known */
	}
	node_put(l, slot, h, (uint32_t)x->u, g, D, s);
	x->d->nodes++;
}

/* Group g, found moving s cells along D: its move, then its unions with
 * the groups found before (BurrTools' merges). */
/* The slot of (g, s) in x's table of groups found: its index + 1 there
 * (x->ftab_stamp current), or the empty slot where it would go. */
static size_t found_slot(const struct expand *x, uint64_t g, unsigned s)
{
	uint64_t h = (g ^ (uint64_t)s << 58) * 0x9E3779B97F4A7C15u;
	size_t i = (size_t)(h >> 51) & (DIS_FOUND_TAB - 1);
	for (;; i = (i + 1) & (DIS_FOUND_TAB - 1)) {
		if (x->ftab_at[i] != x->ftab_stamp)
			return i;
		const struct found *f = &x->found[x->ftab[i]];
		if (f->g == g && f->s == s)
			return i;
	}
}

/* Record (g, s) as found; false when it was already, or when the table
 * is full (x->full set: undecided). */
static bool found_new(struct expand *x, uint64_t g, unsigned s)
{
	size_t i = found_slot(x, g, s);
	if (x->ftab_at[i] == x->ftab_stamp)
		return false;
	if (x->nfound == DIS_MAX_FOUND) {
		x->full = true; /* more groups than kept: undecided */
		return false;
	}
	x->ftab_at[i] = x->ftab_stamp;
	x->ftab[i] = (uint16_t)x->nfound;
	x->found[x->nfound++] = (struct found){g, s};
	return true;
}

static void add_group(struct expand *x, uint64_t g, int D, unsigned s)
{
	uint64_t all = all_of(x->l->k);
	size_t at = x->nfound;
	if (!found_new(x, g, s))
		return;
	add_move(x, g, D, s);
	/* BurrTools' merges (movementanalysator.cpp, find()'s state 99): the
	 * new group joined with each group found before it along D, the
	 * newest first (its list of them puts each one found, unions too, at
	 * its head), each new union a move at once. A union made here is
	 * joined with the groups found after it, not with the others made
	 * now. Every union of groups found is made all the same; the order
	 * decides which position comes first, and so which separation of a
	 * level a part meets first: its later level numbers. */
	for (size_t i = at; i-- > 0 && !x->full && !x->err;) {
		if (x->found[i].s != s)
			continue;
		uint64_t un = g | x->found[i].g;
		if (un == g || un == x->found[i].g || un == all)
			continue;
		if (found_new(x, un, s))
			add_move(x, un, D, s);
	}
}

/* The least group holding piece p that can move s cells along D (every
 * member's figure to a non-member at least s), or 0 when it has more
 * than 'most' pieces. */
static uint64_t least_group(const struct level *l, int D, size_t p,
                            unsigned s, int most)
{
	uint64_t c = (uint64_t)1 << p, todo = c;
	int n = 1;
	while (todo) {
		size_t i = (size_t)__builtin_ctzll(todo);
		todo &= todo - 1;
		/* only pieces in i's way at all (a figure below INF) */
		for (uint64_t js = l->free_cl[D][i] & ~c; js; js &= js - 1) {
			size_t j = (size_t)__builtin_ctzll(js);
			if (fig(l, D, i, j) < s) {
				c |= (uint64_t)1 << j;
				todo |= (uint64_t)1 << j;
				if (++n > most)
					return 0;
			}
		}
	}
	return c;
}

static void expand(struct expand *x)
{
	struct level *l = x->l;
	size_t k = l->k;
	int most = (int)(k / 2);
	for (int D = 0; D < NDIR && !x->full && !x->err; D++) {
		/* tied for one cell: for more cells too (more pieces needed) */
		if (x->tie1[D >> 1])
			continue;
		x->nfound = 0;
		if (++x->ftab_stamp == 0) { /* every 4 billion directions */
			memset(x->ftab_at, 0, DIS_FOUND_TAB * sizeof *x->ftab_at);
			x->ftab_stamp = 1;
		}
		struct clmemo cm; /* the closures along D */
		cm.big = cm.known = 0;
		uint64_t c8 = C8_NONE; /* (k <= PACK_MAX: closure_of()) */
		for (size_t p = 0; p < k && !x->full && !x->err; p++)
			for (unsigned s = 1; !x->full && !x->err; s++) {
				/* one cell: the rows made with the figures; more:
				 * the rows of the group's members only */
				uint64_t g = s == 1 ? closure_of(l->move1[D], k, p, most, &cm, &c8)
				                    : least_group(l, D, p, s, most);
				/* no removal here (separations() looked first):
				 * the group grows before s passes every figure */
				if (!g || s >= 2 * DIS_MAX_SHIFT)
					break;
				add_group(x, g, D, s);
			}
	}
}

/* ---- parts with no separation anywhere --------------------------------- */

/* Whether node u (its figures filled, 'tie1' its axes tied for one cell)
 * has a separation for separations() to try: the same candidates, none
 * tried. */
static bool has_separation(const struct level *l, const bool *tie1)
{
	size_t k = l->k;
	for (int a = 0; a < 3; a++) {
		if (tie1[a] || tied(l->free_cl[2 * a], l->free_cl[2 * a + 1], k))
			continue;
		for (int D = 2 * a; D < 2 * a + 2; D++) {
			const uint64_t *row = l->free_cl[D];
			for (size_t e = 0; e < k; e++)
				if (row[e] == (uint64_t)1 << e)
					return true;
			if (k < 4)
				continue;
			struct clmemo cm;
			cm.big = cm.known = 0;
			for (size_t e = 0; e < k; e++)
				if (small_closure(row, e, (int)(k / 2), &cm))
					return true;
		}
	}
	return false;
}

/* The moves of node u one cell long, of the least groups: every group
 * that can move is a union of them and any move a chain of them, so
 * they reach every position the whole moves reach (expand()), in
 * another order. */
static void expand_cells(struct expand *x)
{
	struct level *l = x->l;
	size_t k = l->k;
	int most = (int)(k / 2);
	for (int D = 0; D < NDIR && !x->full && !x->err; D++) {
		if (x->tie1[D >> 1])
			continue;
		struct clmemo cm;
		cm.big = cm.known = 0;
		uint64_t c8 = C8_NONE, seen[DIS_MAX_PIECES];
		size_t nseen = 0;
		for (size_t p = 0; p < k && !x->full && !x->err; p++) {
			uint64_t g = closure_of(l->move1[D], k, p, most, &cm, &c8);
			bool dup = !g;
			for (size_t i = 0; i < nseen && !dup; i++)
				dup = seen[i] == g;
			if (dup)
				continue;
			seen[nseen++] = g;
			add_move(x, g, D, 1);
		}
	}
}

/* Whether the part whose search starts at node 0 of 'l' (the only node)
 * meets no separation at any position it can reach: then the search
 * would look at every one of them, level by level, find none and call
 * the part stuck, having made as many positions as this does. It is
 * that search's answer at a fraction of its work: one-cell moves of
 * least groups only (expand_cells()), no unions, no order. 1 stuck
 * (nodes counted as that search counts them), 0 not known (a
 * separation, a bound, or more than NEVER_MAX positions: 'l' then holds
 * node 0 alone again, its figures filled when it was the separation),
 * or DIS_ENOMEM's negation. */
static int never_free(disasm *d, struct level *l, const uint8_t *pcs)
{
	size_t k = l->k;
	uint64_t nodes = d->nodes;
	struct expand *x = &d->ex;
	x->d = d;
	x->l = l;
	x->full = false;
	x->err = DIS_OK;
	/* Depth first: the next node is mostly a child of the last, whose
	 * pairs fill_figures() mostly keeps (in breadth-first order it is
	 * mostly a sibling: twice the pairs change). Every order meets
	 * the same positions. */
	uint32_t todo[NEVER_MAX];
	size_t ntodo = 1;
	todo[0] = 0;
	bool open = false; /* left before the end */
	while (ntodo && !open) {
		size_t u = todo[--ntodo], n0 = l->n;
		bool tie1[3];
		if (!fill_node(d, l, pcs, u, tie1))
			return -DIS_ENOMEM;
		if (has_separation(l, tie1)) {
			if (u == 0)
				return 0;
			open = true;
			continue;
		}
		x->u = u;
		memcpy(x->tie1, tie1, sizeof tie1);
		expand_cells(x);
		if (x->err)
			return -x->err;
		open = x->full || l->n > NEVER_MAX;
		/* (todo holds at most l->n <= NEVER_MAX nodes) */
		for (size_t v = n0; v < l->n && !open; v++)
			todo[ntodo++] = (uint32_t)v;
	}
	if (!open)
		return 1;
	/* start again from node 0 */
	int16_t start[3 * DIS_MAX_PIECES];
	memcpy(start, l->pos, 3 * k * sizeof *start);
	d->nodes = nodes;
	if (!level_init(l, k) || !add_start(l, d->zr, start))
		return -DIS_ENOMEM;
	return 0;
}

/* A part whose every position was met with no separation anywhere
 * (never_free(), or search() to its end): each of them reaches all the
 * others (a move taken back is a move), so the part is stuck from each.
 * They are remembered, all but node 0, which the caller remembers
 * (try_separation()): another separation of the part above that leaves
 * this part at another of its positions finds it stuck at once
 * (Dracula's Dental Disaster: 17,692 positions in all before, 8,980).
 * Up to BAD_MAX positions a run; past that only the nodes 0
 * (remembering never changes a verdict). false: out of memory. */
static bool bad_add_all(disasm *d, const struct level *l, const uint8_t *pcs)
{
	size_t k = l->k;
	if (d->bad.n + l->n > BAD_MAX)
		return true;
	uint64_t gm = global_mask(pcs, all_of(k));
	for (size_t u = 1; u < l->n; u++)
		if (!bad_add(d, gm, k, l->pos + u * 3 * k, DIS_STUCK))
			return false;
	return true;
}

static int search(disasm *d, size_t depth, size_t k, const uint8_t *pcs,
                  const int16_t *start, struct outcome *out)
{
	assert(depth < DIS_MAX_PIECES && k >= 2);
	struct level *l = level_at(d, depth);
	if (!l || !level_init(l, k))
		return DIS_ENOMEM;
	if (!add_start(l, d->zr, start))
		return DIS_ENOMEM;
	d->nodes++;
	int never = depth == 0 && d->walked ? 0 : never_free(d, l, pcs);
	if (never < 0)
		return -never;
	if (never) {
		out->v = DIS_STUCK;
		return depth > 0 && !bad_add_all(d, l, pcs) ? DIS_ENOMEM : DIS_OK;
	}
	/* Nodes below 'checked' have been looked at for separations (eagerly:
	 * see below). */
	size_t lo = 0, hi = 1, checked = 0;
	bool full = false;
	for (int L = 1;; L++) {
		bool found = false, bound = false;
		/* Eagerly: each node's new positions are looked at for
		 * separations as soon as they are made, in the order made,
		 * once every node of this depth has been (so that a separation
		 * one move deeper is taken only when this depth has none): the
		 * first separation of the next depth turns up before the rest
		 * of that depth is made, and no node before it is expanded.
		 * Each node is then filled twice (looked at, then expanded),
		 * which pays where the next depth is likely the last: in the
		 * parts left by a separation, whose levels are mostly small,
		 * and in a search's first depths. (Pelikan's burr with optional
		 * cells, 53.6.7.2.3.3: 32,287 positions to 25,767 and 20 %
		 * fewer instructions; the first search of Pelikan's burr, 98
		 * deep, eager at every depth: 7 % more.) The answers are the
		 * same either way; where a search reaches max_nodes, eagerly it
		 * can find a separation the other way never looks at. */
		bool eager = (depth > 0 || L <= EAGER_DEPTHS) &&
		             (checked >= hi || hi - lo == 1);
		bool found1 = false, bound1 = false; /* one move deeper */
		for (size_t u = lo; u < hi; u++) {
			bool tie1[3];
			if (!fill_node(d, l, pcs, u, tie1))
				return DIS_ENOMEM;
			if (u >= checked) {
				int rc = separations(d, depth, pcs, u, L, tie1, &found,
				                     &bound, out);
				if (rc != DIS_OK)
					return rc;
				if (found && out->v == DIS_APART)
					return DIS_OK;
			}
			if (found || full)
				continue;
			struct expand *x = &d->ex;
			x->d = d;
			x->l = l;
			x->u = u;
			x->full = false;
			x->err = DIS_OK;
			/* (d->ex is every depth's: set after separations()) */
			memcpy(x->tie1, tie1, sizeof tie1);
			size_t n0 = l->n;
			expand(x);
			if (x->err)
				return x->err;
			full = x->full;
			for (size_t v = n0; eager && !full && v < l->n; v++) {
				bool t1[3];
				if (!fill_node(d, l, pcs, v, t1))
					return DIS_ENOMEM;
				int rc = separations(d, depth, pcs, v, L + 1, t1, &found1,
				                     &bound1, out);
				if (rc != DIS_OK)
					return rc;
				if (found1 && out->v == DIS_APART)
					return DIS_OK;
				checked = v + 1;
			}
		}
		if (found) {
			out->v = bound ? DIS_BOUND : DIS_STUCK;
			return DIS_OK;
		}
		if (full) {
			out->v = DIS_BOUND;
			return DIS_OK;
		}
		if (found1) {
			out->v = bound1 ? DIS_BOUND : DIS_STUCK;
			return DIS_OK;
		}
		if (l->n == hi) {
			/* every position met, none with a separation (as
			 * never_free() past its bound) */
			out->v = DIS_STUCK;
			return depth > 0 && !bad_add_all(d, l, pcs) ? DIS_ENOMEM
			                                            : DIS_OK;
		}
		lo = hi;
		hi = l->n;
	}
}

/* ---- the run ------------------------------------------------------------ */

/* A shape's hash, from its cells (box corner at the origin). */
static size_t shash(const int16_t (*c)[3], size_t n)
{
	uint64_t h = n * 0x9E3779B97F4A7C15u;
	for (size_t i = 0; i < n; i++) {
		h ^= (uint64_t)(uint16_t)c[i][0] |
		     (uint64_t)(uint16_t)c[i][1] << 16 |
		     (uint64_t)(uint16_t)c[i][2] << 32;
		h *= 0xff51afd7ed558ccdu;
	}
	return (size_t)(h ^ h >> 31);
}

static bool same_shape(const struct dshape *s, const int16_t (*c)[3], size_t n)
{
	return s->n == n && !memcmp(s->c, c, n * sizeof *c);
}

/* Forget every shape, and so every pair figure. */
static void shapes_reset(disasm *d)
{
	for (size_t i = 0; i < d->nshapes; i++) {
		free(d->shapes[i].c);
		free(d->shapes[i].bits);
		free(d->shapes[i].lines);
	}
	d->nshapes = 0;
	if (d->shtab)
		memset(d->shtab, 0, (d->shmask + 1) * sizeof *d->shtab);
	cache_restart(&d->cache);
	d->epoch++;
}

static bool shtab_grow(disasm *d)
{
	size_t ncap = d->shtab ? 2 * (d->shmask + 1) : 256;
	uint32_t *nt = calloc(ncap, sizeof *nt);
	if (!nt)
		return false;
	for (size_t i = 0; i < d->nshapes; i++) {
		const struct dshape *sh = &d->shapes[i];
		size_t h = shash((const int16_t (*)[3])sh->c, sh->n) & (ncap - 1);
		while (nt[h])
			h = (h + 1) & (ncap - 1);
		nt[h] = (uint32_t)i + 1;
	}
	free(d->shtab);
	d->shtab = nt;
	d->shmask = ncap - 1;
	return true;
}

/* sh->lines from its cells (struct dshape); false when out of memory. */
static bool shape_lines(struct dshape *sh)
{
	sh->lines = NULL;
	size_t total = 0;
	for (int k = 0; k < 3; k++) {
		if (sh->hi[k] >= 64)
			return true;
		sh->loff[k] = total;
		total += ((size_t)sh->hi[(k + 1) % 3] + 1) *
		         ((size_t)sh->hi[(k + 2) % 3] + 1);
	}
	sh->lines = calloc(total, sizeof *sh->lines);
	if (!sh->lines)
		return false;
	for (size_t i = 0; i < sh->n; i++)
		for (int k = 0; k < 3; k++) {
			int u = (k + 1) % 3, v = (k + 2) % 3;
			sh->lines[sh->loff[k] + (size_t)sh->c[i][u] +
			          ((size_t)sh->hi[u] + 1) * (size_t)sh->c[i][v]] |=
			    (uint64_t)1 << sh->c[i][k];
		}
	return true;
}

/* Set p->shape: the shape of p's cells, registered when new. */
static bool find_shape(disasm *d, const int16_t (*c)[3], size_t n,
                       const int16_t hi[3], uint32_t *shape)
{
	if (2 * (d->nshapes + 1) > (d->shtab ? d->shmask + 1 : 0) &&
	    !shtab_grow(d))
		return false;
	size_t h = shash(c, n) & d->shmask;
	for (; d->shtab[h]; h = (h + 1) & d->shmask)
		if (same_shape(&d->shapes[d->shtab[h] - 1], c, n)) {
			*shape = d->shtab[h] - 1;
			return true;
		}
	if (d->nshapes == d->shcap) {
		size_t ncap = d->shcap ? 2 * d->shcap : 64;
		struct dshape *ns = realloc(d->shapes, ncap * sizeof *ns);
		if (!ns)
			return false;
		d->shapes = ns;
		d->shcap = ncap;
	}
	struct dshape *sh = &d->shapes[d->nshapes];
	sh->c = malloc(n * sizeof *sh->c);
	if (!sh->c)
		return false;
	sh->n = n;
	memcpy(sh->hi, hi, sizeof sh->hi);
	size_t w = (size_t)sh->hi[0] + 1, hy = (size_t)sh->hi[1] + 1;
	sh->bits = calloc(w * hy * ((size_t)sh->hi[2] + 1), 1);
	if (!sh->bits) {
		free(sh->c);
		return false;
	}
	memcpy(sh->c, c, n * sizeof *c);
	for (size_t i = 0; i < n; i++)
		sh->bits[sh->c[i][0] + w * (sh->c[i][1] + hy * (size_t)sh->c[i][2])] = 1;
	if (!shape_lines(sh)) {
		free(sh->c);
		free(sh->bits);
		return false;
	}
	d->shtab[h] = (uint32_t)d->nshapes + 1;
	*shape = (uint32_t)d->nshapes++;
	return true;
}

/* A run's pieces from 'labels' (dis_run()'s arguments): DIS_OK, or
 * DIS_ETOOBIG, DIS_ENOMEM. */
static int run_setup(disasm *d, int nx, int ny, int nz,
                     const unsigned char *labels, size_t np,
                     const int *weights, const unsigned *groups)
{
	if (np > DIS_MAX_PIECES || nx < 1 || ny < 1 || nz < 1 ||
	    nx > DIS_MAX_DIM || ny > DIS_MAX_DIM || nz > DIS_MAX_DIM)
		return DIS_ETOOBIG;
	d->npieces = np;
	for (size_t i = 0; i < np; i++) {
		d->weight[i] = weights ? weights[i] : 1;
		d->group[i] = groups ? groups[i] : 0;
	}
	/* The pieces' cells, with their box corners at the origin: first
	 * how many and the boxes, then the cells. A box is found from the
	 * rows, columns and layers each piece meets, as bits (no branch a
	 * cell: eight pieces' cells interleaved mislead the predictor). */
	enum { MW = (DIS_MAX_DIM + 63) / 64 };
	uint64_t meets[DIS_MAX_PIECES][3][MW];
	memset(meets, 0, np * sizeof *meets);
	for (size_t i = 0; i < np; i++)
		d->pc[i].n = 0;
	const unsigned char *lab = labels;
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++, lab++) {
				if (!*lab)
					continue;
				assert(*lab <= np);
				size_t i = *lab - 1u;
				d->pc[i].n++;
				meets[i][0][x >> 6] |= (uint64_t)1 << (x & 63);
				meets[i][1][y >> 6] |= (uint64_t)1 << (y & 63);
				meets[i][2][z >> 6] |= (uint64_t)1 << (z & 63);
			}
	for (size_t i = 0; i < np; i++)
		for (int a = 0; a < 3; a++) {
			int w = 0, v = MW - 1;
			while (w < MW - 1 && !meets[i][a][w])
				w++;
			while (v > 0 && !meets[i][a][v])
				v--;
			/* (a piece with no cell fails the assertion below) */
			d->pc[i].lo[a] = (int16_t)(64 * w + (meets[i][a][w]
			        ? __builtin_ctzll(meets[i][a][w]) : 0));
			d->pc[i].hi[a] = (int16_t)(64 * v + (meets[i][a][v]
			        ? 63 - __builtin_clzll(meets[i][a][v]) : 0));
		}
	for (size_t i = 0; i < np; i++) {
		assert(d->pc[i].n > 0);
		if (d->pc[i].n > d->pc[i].cap) {
			free(d->pc[i].c);
			d->pc[i].cap = 0;
			d->pc[i].c = malloc(d->pc[i].n * sizeof *d->pc[i].c);
			if (!d->pc[i].c)
				return DIS_ENOMEM;
			d->pc[i].cap = d->pc[i].n;
		}
		d->pc[i].n = 0;
	}
	lab = labels;
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++, lab++) {
				if (!*lab)
					continue;
				struct piece *p = &d->pc[*lab - 1];
				int16_t *c = p->c[p->n++];
				c[0] = (int16_t)(x - p->lo[0]);
				c[1] = (int16_t)(y - p->lo[1]);
				c[2] = (int16_t)(z - p->lo[2]);
			}
	if (!d->cache.stamp)
		d->cache.stamp = 1;
	/* never mid-run: this run's pieces keep their shapes */
	if (d->nshapes + np > SHAPES_MAX)
		shapes_reset(d);
	for (size_t i = 0; i < np; i++)
		if (!find_shape(d, (const int16_t (*)[3])d->pc[i].c, d->pc[i].n,
		                (const int16_t[3]){
		                        (int16_t)(d->pc[i].hi[0] - d->pc[i].lo[0]),
		                        (int16_t)(d->pc[i].hi[1] - d->pc[i].lo[1]),
		                        (int16_t)(d->pc[i].hi[2] - d->pc[i].lo[2])},
		                &d->pc[i].shape))
			return DIS_ENOMEM;
	d->nmv = 0;
	d->nodes = 0;
	bad_reset(&d->bad);
	return DIS_OK;
}

/* dis_never_free_shapes() of the pieces set up: the start of the whole
 * search (search() at depth 0) and its walk. */
static int walk_start(disasm *d, size_t np, bool *stuck, uint64_t *nodes)
{
	*stuck = false;
	if (np < 2)
		return DIS_OK;
	struct level *l = level_at(d, 0);
	int16_t start[3 * DIS_MAX_PIECES] = {0};
	uint8_t pcs[DIS_MAX_PIECES];
	for (size_t i = 0; i < np; i++)
		pcs[i] = (uint8_t)i;
	if (!l || !level_init(l, np) || !add_start(l, d->zr, start))
		return DIS_ENOMEM;
	d->nodes++;
	int never = never_free(d, l, pcs);
	if (never < 0)
		return -never;
	*stuck = never == 1;
	*nodes = d->nodes;
	d->walked = !*stuck;
	return DIS_OK;
}

int dis_shape(disasm *d, const int16_t (*cells)[3], size_t n, uint32_t *shape)
{
	if (n == 0)
		return DIS_ETOOBIG;
	int16_t lo[3] = {INT16_MAX, INT16_MAX, INT16_MAX}, hi[3] = {0, 0, 0};
	for (size_t i = 0; i < n; i++)
		for (int a = 0; a < 3; a++) {
			if (cells[i][a] < 0 || cells[i][a] >= DIS_MAX_DIM)
				return DIS_ETOOBIG;
			lo[a] = cells[i][a] < lo[a] ? cells[i][a] : lo[a];
			hi[a] = cells[i][a] > hi[a] ? cells[i][a] : hi[a];
		}
	assert(!lo[0] && !lo[1] && !lo[2]); /* the box corner at 0 */
	if (d->nshapes + 1 > SHAPES_MAX)
		shapes_reset(d);
	return find_shape(d, cells, n, hi, shape) ? DIS_OK : DIS_ENOMEM;
}

uint32_t dis_shape_epoch(const disasm *d)
{
	return d->epoch;
}

/* A run's pieces as shapes with their box corners (dis_shape()), as
 * run_setup() makes them from labels: DIS_OK, or DIS_ETOOBIG. */
static int shapes_setup(disasm *d, size_t np, const uint32_t *shape,
                        const int16_t (*lo)[3], const int *weights,
                        const unsigned *groups)
{
	if (np > DIS_MAX_PIECES)
		return DIS_ETOOBIG;
	d->npieces = np;
	for (size_t i = 0; i < np; i++) {
		assert(shape[i] < d->nshapes);
		const struct dshape *sh = &d->shapes[shape[i]];
		struct piece *p = &d->pc[i];
		d->weight[i] = weights ? weights[i] : 1;
		d->group[i] = groups ? groups[i] : 0;
		p->shape = shape[i];
		p->n = 0; /* (its cells are not needed: the shape's are) */
		for (int a = 0; a < 3; a++) {
			p->lo[a] = lo[i][a];
			p->hi[a] = (int16_t)(lo[i][a] + sh->hi[a]);
		}
	}
	if (!d->cache.stamp)
		d->cache.stamp = 1;
	d->nmv = 0;
	d->nodes = 0;
	bad_reset(&d->bad);
	return DIS_OK;
}

int dis_never_free_shapes(disasm *d, size_t np, const uint32_t *shape,
                          const int16_t (*lo)[3], bool *stuck,
                          uint64_t *nodes)
{
	int rc = shapes_setup(d, np, shape, lo, NULL, NULL);
	return rc == DIS_OK ? walk_start(d, np, stuck, nodes) : rc;
}

/* dis_run() once its pieces are set up ('rc' the set-up's outcome). */
static int run_search(disasm *d, int rc, size_t np, struct dis_result *out)
{
	struct outcome o = {.v = DIS_APART};
	if (rc == DIS_OK && np >= 2) {
		uint8_t pcs[DIS_MAX_PIECES];
		int16_t start[3 * DIS_MAX_PIECES] = {0};
		for (size_t i = 0; i < np; i++)
			pcs[i] = (uint8_t)i;
		rc = search(d, 0, np, pcs, start, &o);
	}
	d->walked = false; /* (once) */
	if (rc != DIS_OK)
		return rc;
	struct dis_result r = {.verdict = o.v, .nodes = d->nodes};
	if (o.v == DIS_APART) {
		memcpy(r.level, o.level, o.nlevel * sizeof *r.level);
		r.nlevel = o.nlevel;
		if (d->nmv) {
			r.moves = malloc(d->nmv * sizeof *r.moves);
			if (!r.moves)
				return DIS_ENOMEM;
			memcpy(r.moves, d->mv, d->nmv * sizeof *r.moves);
			r.nmoves = d->nmv;
		}
	}
	*out = r;
	return DIS_OK;
}

int dis_run(disasm *d, int nx, int ny, int nz, const unsigned char *labels,
            size_t np, const int *weights, const unsigned *groups,
            struct dis_result *out)
{
	return run_search(d, run_setup(d, nx, ny, nz, labels, np, weights,
	                               groups), np, out);
}

int dis_run_shapes(disasm *d, size_t np, const uint32_t *shape,
                   const int16_t (*lo)[3], const int *weights,
                   const unsigned *groups, struct dis_result *out)
{
	return run_search(d, shapes_setup(d, np, shape, lo, weights, groups),
	                  np, out);
}
