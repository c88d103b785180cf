/*
 * disref.c: the brute-force reference disassembler (see disref.h) and the
 * maker of small random assemblies.
 *
 * Workload: assemblies of at most 8 pieces in boxes of a few cells a side,
 * with searches of at most some thousands of positions; everything is done
 * the obvious way, and kept apart from solver/disasm.c's ideas:
 *
 * - A position's pieces are drawn into an occupancy grid over its bounding
 *   box (1 + the part's index of the piece on a cell, 0 empty).
 * - A group slides one unit step at a time; each step looks up every moved
 *   cell in the grid. Once the group has gone as many steps as the
 *   bounding box is long on that axis, every moved cell lies outside the
 *   box, so nothing can be hit any more: a group with no hit up to there
 *   is free. (A fixed cap such as "the labels' box + 2" would not be sound:
 *   after some moves the pieces of a part spread over more than the box,
 *   and a gap wider than the box can be crossed and still end in a hit.)
 *   A group that is not free meets a piece within that many steps, so the
 *   finite moves are those short of the first hit.
 * - The breadth-first search goes a whole depth at a time: first every
 *   position of depth D is tested for separations; only when none has one
 *   are the positions of depth D + 1 made. So the positions kept are
 *   exactly those of depth < L, which is what max_nodes bounds.
 * - disref_check() tests moves cell against cell (every moved cell against
 *   every cell of the rest), not with the grid, so the two halves of the
 *   reference check each other through disref_disassemble().
 * - The verdicts of parts already decided are remembered (a part is its
 *   pieces and their shifts relative to the first), because the same
 *   sides come up again from many separations.
 */
#include "tests/disref.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/testrand.h"

#define MAXP DISREF_MAX_PIECES
/* Positions disref_check() lets a part's search keep. */
#define CHECK_NODES 1000000u
/* Cells of an occupancy grid, at most (more is treated as no memory). */
#define MAX_GRID ((size_t)1 << 26)
/* slide(): the group can go arbitrarily far. */
#define FREE (-1)

/* The six directions, in enum dis_dir order: d ^ 1 is the opposite. */
static const int dirv[6][3] = {
	{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
};

/* Where a part's pieces are: its piece j lies at its label cells + v[j]
 * (x y z). A struct so that it can be passed as const. */
struct shifts {
	int v[MAXP][3];
};

/* A part: some pieces, each at a shift from its cells in the labels. */
struct part {
	int k;             /* pieces, 1..MAXP */
	int idx[MAXP];     /* their indexes, ascending: idx[0] is the first */
	struct shifts off; /* where they are */
};

/* A part already decided: its pieces and their shifts relative to the
 * first one. */
struct memo {
	uint64_t pieces;  /* bit i: piece i */
	struct shifts off; /* minus the first's shift, unused rows 0 */
	int verdict;      /* enum dis_verdict */
	int first;        /* its L (0 when no separation was found) */
};

struct ref {
	size_t npieces;
	int weight[MAXP];     /* all 1 when none are given */
	int start[MAXP + 1];  /* piece i's cells: cell[start[i] .. start[i+1]) */
	int (*cell)[3];       /* the label cells of every piece, piece by piece */
	uint64_t max_nodes;   /* positions a part's search keeps, at most */
	/* The occupancy grid of one position (grid_build): */
	int glo[3];           /* the least x y z of its bounding box */
	int gsize[3];         /* the box's size along each axis */
	unsigned char *grid;  /* 1 + the part's index of a piece, or 0 */
	size_t gridcap;       /* cells allocated */
	struct memo *memo;    /* parts already decided */
	size_t nmemo, capmemo;
};

/* A position reached by the search. */
struct node {
	struct shifts off; /* the pieces' shifts: the first at 0 0 0,
	                    * unused rows 0 */
	size_t parent;    /* the node it was first reached from (SIZE_MAX:
	                   * none, the start) */
	unsigned group;   /* that move: bit j for the part's piece j, */
	int dir, dist;    /* its direction and length */
};

/* A separation: from node 'node' the group 'group' (bits as in struct
 * node) is free along 'dir'. */
struct sep {
	size_t node;
	unsigned group;
	int dir;
};

struct search {
	struct node *node;  /* every position kept, in breadth-first order */
	size_t nnode, capnode;
	size_t *table;      /* open addressing: 1 + a node index, 0 empty */
	size_t tcap;        /* a power of two, at least twice nnode */
	struct sep *sep;    /* the separations at depth L */
	size_t nsep, capsep;
	int first;          /* L, when a separation was found */
};

enum { S_SEP, S_NONE, S_BOUND, S_NOMEM }; /* search_run()'s outcomes */

/* ---- the pieces --------------------------------------------------------- */

/* Read the labels. 0, or -1 when out of memory ('r' then holds nothing). */
static int ref_init(struct ref *r, int nx, int ny, int nz,
                    const unsigned char *labels, size_t npieces,
                    const int *weights, uint64_t max_nodes)
{
	assert(nx >= 1 && ny >= 1 && nz >= 1);
	assert(nx <= DIS_MAX_DIM && ny <= DIS_MAX_DIM && nz <= DIS_MAX_DIM);
	assert(npieces >= 1 && npieces <= MAXP);
	memset(r, 0, sizeof *r);
	r->npieces = npieces;
	r->max_nodes = max_nodes ? max_nodes : DIS_MAX_NODES;
	for (size_t i = 0; i < npieces; i++)
		r->weight[i] = weights ? weights[i] : 1;
	size_t n = (size_t)nx * (size_t)ny * (size_t)nz;
	int count[MAXP] = {0};
	for (size_t c = 0; c < n; c++) {
		assert(labels[c] <= npieces);
		if (labels[c])
			count[labels[c] - 1]++;
	}
	r->start[0] = 0;
	for (size_t i = 0; i < npieces; i++) {
		assert(count[i] > 0); /* every piece has a cell */
		r->start[i + 1] = r->start[i] + count[i];
	}
	r->cell = malloc((size_t)r->start[npieces] * sizeof *r->cell);
	if (!r->cell)
		return -1;
	int fill[MAXP];
	memcpy(fill, r->start, sizeof fill);
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				int l = labels[x + nx * (y + ny * z)];
				if (!l)
					continue;
				int *c = r->cell[fill[l - 1]++];
				c[0] = x;
				c[1] = y;
				c[2] = z;
			}
	return 0;
}

static void ref_clear(struct ref *r)
{
	free(r->cell);
	free(r->grid);
	free(r->memo);
}

/* The whole assembly as a part, every piece where the labels put it. */
static void part_whole(const struct ref *r, struct part *p)
{
	memset(p, 0, sizeof *p);
	p->k = (int)r->npieces;
	for (int j = 0; j < p->k; j++)
		p->idx[j] = j;
}

static uint64_t part_pieces(const struct part *p)
{
	uint64_t m = 0;
	for (int j = 0; j < p->k; j++)
		m |= (uint64_t)1 << p->idx[j];
	return m;
}

/* The pieces of 'p' with bit j in 'group' (local bits) as global bits. */
static uint64_t global_group(const struct part *p, unsigned group)
{
	uint64_t m = 0;
	for (int j = 0; j < p->k; j++)
		if (group >> j & 1)
			m |= (uint64_t)1 << p->idx[j];
	return m;
}

/* Split 'p', its pieces at the shifts 'off', into the pieces with bit j
 * in 'group' ('in') and the others ('out'), each keeping its shifts. */
static void split(const struct part *p, const struct shifts *off, unsigned group,
                  struct part *in, struct part *out)
{
	memset(in, 0, sizeof *in);
	memset(out, 0, sizeof *out);
	for (int j = 0; j < p->k; j++) {
		struct part *s = group >> j & 1 ? in : out;
		s->idx[s->k] = p->idx[j];
		memcpy(s->off.v[s->k], off->v[j], sizeof off->v[j]);
		s->k++;
	}
}

static int popcount(uint64_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

static int max_weight(const struct ref *r, uint64_t m)
{
	int w = 0;
	bool any = false;
	for (size_t i = 0; i < r->npieces; i++)
		if (m >> i & 1 && (!any || r->weight[i] > w)) {
			w = r->weight[i];
			any = true;
		}
	return w;
}

/* Of the two sides 'a' and 'b' of a separation (global bits), the one
 * that is removed: the one with fewer pieces; with as many, the one
 * without the part's first (lowest) piece; then, when that one's heaviest
 * piece outweighs the other's, the other. */
static uint64_t removed_side(const struct ref *r, uint64_t a, uint64_t b)
{
	uint64_t all = a | b, x;
	int na = popcount(a), nb = popcount(b);
	if (na != nb)
		x = na < nb ? a : b;
	else
		x = a & (all & -all) ? b : a;
	uint64_t y = all ^ x;
	return max_weight(r, x) > max_weight(r, y) ? y : x;
}

/* ---- the occupancy grid and sliding ------------------------------------- */

/* Draw the part 'p', its pieces at the shifts 'off', into r's grid over
 * its bounding box. 0, or -1 when out of memory. */
static int grid_build(struct ref *r, const struct part *p,
                      const struct shifts *off)
{
	int lo[3] = {INT_MAX, INT_MAX, INT_MAX}, hi[3] = {INT_MIN, INT_MIN, INT_MIN};
	for (int j = 0; j < p->k; j++)
		for (int c = r->start[p->idx[j]]; c < r->start[p->idx[j] + 1]; c++)
			for (int a = 0; a < 3; a++) {
				int v = r->cell[c][a] + off->v[j][a];
				if (v < lo[a])
					lo[a] = v;
				if (v > hi[a])
					hi[a] = v;
			}
	size_t n = 1;
	for (int a = 0; a < 3; a++) {
		r->glo[a] = lo[a];
		r->gsize[a] = hi[a] - lo[a] + 1;
		n *= (size_t)r->gsize[a]; /* each side is small: no overflow */
		if (n > MAX_GRID)
			return -1;
	}
	if (n > r->gridcap) {
		unsigned char *g = realloc(r->grid, n);
		if (!g)
			return -1;
		r->grid = g;
		r->gridcap = n;
	}
	memset(r->grid, 0, n);
	for (int j = 0; j < p->k; j++)
		for (int c = r->start[p->idx[j]]; c < r->start[p->idx[j] + 1]; c++) {
			int x = r->cell[c][0] + off->v[j][0] - lo[0];
			int y = r->cell[c][1] + off->v[j][1] - lo[1];
			int z = r->cell[c][2] + off->v[j][2] - lo[2];
			r->grid[x + r->gsize[0] * (y + r->gsize[1] * z)] =
				(unsigned char)(j + 1);
		}
	return 0;
}

/* The grid at x y z: 1 + the part's index of the piece there, or 0 (also
 * outside the bounding box). */
static int grid_at(const struct ref *r, int x, int y, int z)
{
	x -= r->glo[0];
	y -= r->glo[1];
	z -= r->glo[2];
	if (x < 0 || y < 0 || z < 0 || x >= r->gsize[0] || y >= r->gsize[1] ||
	    z >= r->gsize[2])
		return 0;
	return r->grid[x + r->gsize[0] * (y + r->gsize[1] * z)];
}

/* How far the group (bit j: the part's piece j) can slide along 'dir'
 * from the position drawn in the grid (at shifts 'off'): the number of
 * unit steps before the first that puts one of its cells on a cell of
 * another piece, or FREE when no step ever does (see the top). */
static int slide(const struct ref *r, const struct part *p,
                 const struct shifts *off, unsigned group, int dir)
{
	int span = r->gsize[dir / 2];
	for (int t = 1; t <= span; t++)
		for (int j = 0; j < p->k; j++) {
			if (!(group >> j & 1))
				continue;
			for (int c = r->start[p->idx[j]]; c < r->start[p->idx[j] + 1];
			     c++) {
				int v = grid_at(r,
				                r->cell[c][0] + off->v[j][0] + t * dirv[dir][0],
				                r->cell[c][1] + off->v[j][1] + t * dirv[dir][1],
				                r->cell[c][2] + off->v[j][2] + t * dirv[dir][2]);
				if (v && !(group >> (v - 1) & 1))
					return t - 1;
			}
		}
	return FREE;
}

/* ---- the breadth-first search ------------------------------------------- */

static void search_init(struct search *s)
{
	memset(s, 0, sizeof *s);
}

static void search_clear(struct search *s)
{
	free(s->node);
	free(s->table);
	free(s->sep);
}

static size_t node_hash(const struct shifts *off)
{
	uint64_t h = 14695981039346656037u; /* FNV-1a over the shifts */
	for (int j = 0; j < MAXP; j++)
		for (int a = 0; a < 3; a++) {
			h ^= (uint32_t)off->v[j][a];
			h *= 1099511628211u;
		}
	return (size_t)(h ^ h >> 29);
}

/* The index of the node with the shifts 'off', or SIZE_MAX. */
static size_t search_find(const struct search *s, const struct shifts *off)
{
	if (!s->tcap)
		return SIZE_MAX;
	for (size_t h = node_hash(off) & (s->tcap - 1); s->table[h];
	     h = (h + 1) & (s->tcap - 1)) {
		size_t i = s->table[h] - 1;
		if (!memcmp(&s->node[i].off, off, sizeof *off))
			return i;
	}
	return SIZE_MAX;
}

static void table_put(size_t *table, size_t tcap, const struct node *nodes,
                      size_t i)
{
	size_t h = node_hash(&nodes[i].off) & (tcap - 1);
	while (table[h])
		h = (h + 1) & (tcap - 1);
	table[h] = i + 1;
}

/* Keep 'n', a position not kept yet. 0, or -1 when out of memory ('s'
 * unchanged). */
static int search_add(struct search *s, const struct node *n)
{
	if (s->nnode == s->capnode) {
		size_t cap = s->capnode ? 2 * s->capnode : 64;
		struct node *v = realloc(s->node, cap * sizeof *v);
		if (!v)
			return -1;
		s->node = v;
		s->capnode = cap;
	}
	if (2 * (s->nnode + 1) > s->tcap) {
		size_t cap = s->tcap ? 2 * s->tcap : 128;
		size_t *t = calloc(cap, sizeof *t);
		if (!t)
			return -1;
		for (size_t i = 0; i < s->nnode; i++)
			table_put(t, cap, s->node, i);
		free(s->table);
		s->table = t;
		s->tcap = cap;
	}
	s->node[s->nnode] = *n;
	table_put(s->table, s->tcap, s->node, s->nnode);
	s->nnode++;
	return 0;
}

static int search_add_sep(struct search *s, size_t node, unsigned group,
                          int dir)
{
	if (s->nsep == s->capsep) {
		size_t cap = s->capsep ? 2 * s->capsep : 16;
		struct sep *v = realloc(s->sep, cap * sizeof *v);
		if (!v)
			return -1;
		s->sep = v;
		s->capsep = cap;
	}
	s->sep[s->nsep++] = (struct sep){node, group, dir};
	return 0;
}

/*
 * Search the positions of 'p' breadth-first from where its pieces are,
 * keeping at most 'max_nodes'. S_SEP: s->first is L and s->sep lists
 * every separation at depth L (from every position of depth L - 1, every
 * group without the first piece, every direction). S_NONE: no position
 * reachable has one (stuck). S_BOUND: the positions of depth < L, or all
 * reachable ones, are more than max_nodes. S_NOMEM: out of memory.
 */
static int search_run(struct ref *r, const struct part *p, uint64_t max_nodes,
                      struct search *s)
{
	unsigned all = (1u << p->k) - 1;
	struct node n;
	memset(&n, 0, sizeof n);
	for (int j = 0; j < p->k; j++)
		for (int a = 0; a < 3; a++)
			n.off.v[j][a] = p->off.v[j][a] - p->off.v[0][a];
	n.parent = SIZE_MAX;
	if (search_add(s, &n))
		return S_NOMEM;
	size_t begin = 0, end = 1; /* the positions of depth 'depth' */
	for (int depth = 0;; depth++) {
		/* Any separation from this depth? Groups without piece 0 are
		 * the even masks. */
		for (size_t i = begin; i < end; i++) {
			if (grid_build(r, p, &s->node[i].off))
				return S_NOMEM;
			for (unsigned g = 2; g < all; g += 2)
				for (int dir = 0; dir < 6; dir++)
					if (slide(r, p, &s->node[i].off, g, dir) == FREE &&
					    search_add_sep(s, i, g, dir))
						return S_NOMEM;
		}
		if (s->nsep) {
			s->first = depth + 1;
			return S_SEP;
		}
		/* None: make the next depth, every group by every distance
		 * short of its first hit. */
		for (size_t i = begin; i < end; i++) {
			struct node cur = s->node[i]; /* s->node may move */
			if (grid_build(r, p, &cur.off))
				return S_NOMEM;
			for (unsigned g = 2; g < all; g += 2)
				for (int dir = 0; dir < 6; dir++) {
					int d = slide(r, p, &cur.off, g, dir);
					assert(d != FREE); /* no separation at this depth */
					for (int t = 1; t <= d; t++) {
						n = cur;
						for (int j = 0; j < p->k; j++)
							if (g >> j & 1)
								for (int a = 0; a < 3; a++)
									n.off.v[j][a] += t * dirv[dir][a];
						n.parent = i;
						n.group = g;
						n.dir = dir;
						n.dist = t;
						if (search_find(s, &n.off) != SIZE_MAX)
							continue;
						if (s->nnode >= max_nodes)
							return S_BOUND;
						if (search_add(s, &n))
							return S_NOMEM;
					}
				}
		}
		if (s->nnode == end)
			return S_NONE;
		begin = end;
		end = s->nnode;
	}
}

/* ---- deciding parts ----------------------------------------------------- */

static void memo_key(const struct part *p, struct memo *m)
{
	memset(m, 0, sizeof *m);
	m->pieces = part_pieces(p);
	for (int j = 0; j < p->k; j++)
		for (int a = 0; a < 3; a++)
			m->off.v[j][a] = p->off.v[j][a] - p->off.v[0][a];
}

static const struct memo *memo_find(const struct ref *r, const struct memo *key)
{
	for (size_t i = 0; i < r->nmemo; i++)
		if (r->memo[i].pieces == key->pieces &&
		    !memcmp(&r->memo[i].off, &key->off, sizeof key->off))
			return &r->memo[i];
	return NULL;
}

static int memo_add(struct ref *r, const struct memo *m)
{
	if (r->nmemo == r->capmemo) {
		size_t cap = r->capmemo ? 2 * r->capmemo : 16;
		struct memo *v = realloc(r->memo, cap * sizeof *v);
		if (!v)
			return -1;
		r->memo = v;
		r->capmemo = cap;
	}
	r->memo[r->nmemo++] = *m;
	return 0;
}

/*
 * Decide the part 'p' by the min-depth rule: '*verdict' and '*first' (its
 * L, 0 when it has one piece or no separation). A separation decides
 * nothing while a side is bound; the part is bound only when no
 * separation at depth L comes apart and not every one has a stuck side.
 * 0, or -1 when out of memory.
 */
static int solve_part(struct ref *r, const struct part *p, int *verdict,
                      int *first)
{
	if (p->k == 1) {
		*verdict = DIS_APART;
		*first = 0;
		return 0;
	}
	struct memo key;
	memo_key(p, &key);
	const struct memo *m = memo_find(r, &key);
	if (m) {
		*verdict = m->verdict;
		*first = m->first;
		return 0;
	}
	struct search s;
	search_init(&s);
	int rc = search_run(r, p, r->max_nodes, &s);
	int v = DIS_STUCK;
	if (rc == S_NOMEM)
		goto err;
	if (rc == S_BOUND)
		v = DIS_BOUND;
	for (size_t i = 0; rc == S_SEP && i < s.nsep && v != DIS_APART; i++) {
		struct part a, b;
		int va, vb, fa, fb;
		split(p, &s.node[s.sep[i].node].off, s.sep[i].group, &a, &b);
		if (solve_part(r, &a, &va, &fa))
			goto err;
		if (va == DIS_STUCK)
			continue;
		if (solve_part(r, &b, &vb, &fb))
			goto err;
		if (vb == DIS_STUCK)
			continue;
		v = va == DIS_APART && vb == DIS_APART ? DIS_APART : DIS_BOUND;
	}
	key.verdict = v;
	key.first = rc == S_SEP ? s.first : 0;
	search_clear(&s);
	if (memo_add(r, &key))
		return -1;
	*verdict = key.verdict;
	*first = key.first;
	return 0;
err:
	search_clear(&s);
	return -1;
}

/* The level of a part from its L and its sides' levels (see disref.h);
 * '*deep': some separation in it takes more than one move. */
static void compose_level(int first, const int *left, size_t nleft,
                          bool dleft, const int *rem, size_t nrem, bool drem,
                          int *level, size_t *nlevel, bool *deep)
{
	size_t n = 0;
	level[n++] = first;
	for (size_t i = 0; dleft && i < nleft; i++)
		level[n++] = left[i];
	for (size_t i = 0; drem && i < nrem; i++)
		level[n++] = rem[i];
	assert(n < MAXP);
	*nlevel = n;
	*deep = first > 1 || dleft || drem;
}

/* ---- a witness disassembly ---------------------------------------------- */

struct moves {
	struct dis_move *m;
	size_t n, cap;
};

static int moves_add(struct moves *v, uint64_t group, int dir, int dist)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 16;
		struct dis_move *m = realloc(v->m, cap * sizeof *m);
		if (!m)
			return -1;
		v->m = m;
		v->cap = cap;
	}
	v->m[v->n++] = (struct dis_move){group, dir, dist};
	return 0;
}

/* Append the moves taking apart 'p', known to come apart: the path to the
 * first separation at depth L (in search order) whose sides both come
 * apart, its out move, then the left and the removed part's moves. Its
 * level in 'level'. 0, or -1 when out of memory. */
static int witness_part(struct ref *r, const struct part *p, struct moves *out,
                        int *level, size_t *nlevel, bool *deep)
{
	if (p->k == 1) {
		*nlevel = 0;
		*deep = false;
		return 0;
	}
	struct search s;
	search_init(&s);
	size_t *path = NULL;
	int rc = search_run(r, p, r->max_nodes, &s);
	if (rc == S_NOMEM)
		goto err;
	assert(rc == S_SEP); /* as when the part was decided */
	struct part a, b;
	size_t i;
	for (i = 0; i < s.nsep; i++) {
		int va, vb, fa, fb;
		split(p, &s.node[s.sep[i].node].off, s.sep[i].group, &a, &b);
		if (solve_part(r, &a, &va, &fa) || solve_part(r, &b, &vb, &fb))
			goto err;
		if (va == DIS_APART && vb == DIS_APART)
			break;
	}
	assert(i < s.nsep);
	const struct sep *sp = &s.sep[i];
	size_t len = 0;
	for (size_t n = sp->node; s.node[n].parent != SIZE_MAX; n = s.node[n].parent)
		len++;
	path = malloc((len + 1) * sizeof *path);
	if (!path)
		goto err;
	size_t at = len;
	for (size_t n = sp->node; s.node[n].parent != SIZE_MAX; n = s.node[n].parent)
		path[--at] = n;
	for (size_t k = 0; k < len; k++) {
		const struct node *n = &s.node[path[k]];
		if (moves_add(out, global_group(p, n->group), n->dir, n->dist))
			goto err;
	}
	uint64_t ga = part_pieces(&a), gb = part_pieces(&b);
	const struct part *left = &b, *rem = &a;
	int dir = sp->dir;
	if (removed_side(r, ga, gb) != ga) {
		/* the rest goes out the other way */
		left = &a;
		rem = &b;
		dir ^= 1;
	}
	if (moves_add(out, part_pieces(rem), dir, 0))
		goto err;
	int first = s.first;
	free(path);
	search_clear(&s);
	int ll[MAXP], lr[MAXP];
	size_t nl, nr;
	bool dl, dr;
	if (witness_part(r, left, out, ll, &nl, &dl) ||
	    witness_part(r, rem, out, lr, &nr, &dr))
		return -1;
	compose_level(first, ll, nl, dl, lr, nr, dr, level, nlevel, deep);
	return 0;
err:
	free(path);
	search_clear(&s);
	return -1;
}

/* ---- the public entry points -------------------------------------------- */

int disref_solve(int nx, int ny, int nz, const unsigned char *labels,
                 size_t npieces, const int *weights, uint64_t max_nodes,
                 int *verdict, int *first)
{
	struct ref r;
	if (ref_init(&r, nx, ny, nz, labels, npieces, weights, max_nodes))
		return -1;
	struct part p;
	part_whole(&r, &p);
	int v, f;
	int rc = solve_part(&r, &p, &v, &f);
	ref_clear(&r);
	if (rc)
		return -1;
	*verdict = v;
	*first = f;
	return 0;
}

int disref_disassemble(int nx, int ny, int nz, const unsigned char *labels,
                       size_t npieces, const int *weights, uint64_t max_nodes,
                       int *verdict, struct dis_move **moves, size_t *nmoves,
                       int *level, size_t *nlevel)
{
	struct ref r;
	if (ref_init(&r, nx, ny, nz, labels, npieces, weights, max_nodes))
		return -1;
	struct part p;
	part_whole(&r, &p);
	struct moves out = {NULL, 0, 0};
	int v, f, lv[MAXP];
	size_t nlv = 0;
	bool deep;
	if (solve_part(&r, &p, &v, &f))
		goto err;
	if (v == DIS_APART && witness_part(&r, &p, &out, lv, &nlv, &deep))
		goto err;
	ref_clear(&r);
	*verdict = v;
	*moves = out.m;
	*nmoves = out.n;
	if (nlv)
		memcpy(level, lv, nlv * sizeof *lv);
	*nlevel = nlv;
	return 0;
err:
	free(out.m);
	ref_clear(&r);
	return -1;
}

/* ---- checking a disassembly --------------------------------------------- */

static _Thread_local char check_msg[160];

#ifdef __GNUC__
__attribute__((format(printf, 1, 2)))
#endif
static const char *fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(check_msg, sizeof check_msg, fmt, ap);
	va_end(ap);
	return check_msg;
}

/* The cell 'c' of the part's piece j at its shift plus 't' steps along
 * 'dir', written to 'q'. */
static void cell_at(const struct ref *r, const struct shifts *off, int j, int c,
                    int dir, int t, int *q)
{
	for (int a = 0; a < 3; a++)
		q[a] = r->cell[c][a] + off->v[j][a] + t * dirv[dir][a];
}

/* Whether, after 't' unit steps along 'dir', a cell of the group (bit j:
 * the part's piece j) lies on a cell of another piece of the part: every
 * cell against every cell. */
static bool pair_collide(const struct ref *r, const struct part *p,
                         const struct shifts *off, unsigned group, int dir, int t)
{
	for (int i = 0; i < p->k; i++)
		for (int j = 0; j < p->k; j++) {
			if (!(group >> i & 1) || group >> j & 1)
				continue;
			for (int ci = r->start[p->idx[i]]; ci < r->start[p->idx[i] + 1]; ci++)
				for (int cj = r->start[p->idx[j]]; cj < r->start[p->idx[j] + 1]; cj++) {
					int u[3], w[3];
					cell_at(r, off, i, ci, dir, t, u);
					cell_at(r, off, j, cj, dir, 0, w);
					if (u[0] == w[0] && u[1] == w[1] && u[2] == w[2])
						return true;
				}
		}
	return false;
}

/* Whether the group is free along 'dir': no cell of another piece lies on
 * the ray ahead of any of its cells (every cell against every cell). */
static bool pair_free(const struct ref *r, const struct part *p,
                      const struct shifts *off, unsigned group, int dir)
{
	int axis = dir / 2, sign = dirv[dir][axis];
	for (int i = 0; i < p->k; i++)
		for (int j = 0; j < p->k; j++) {
			if (!(group >> i & 1) || group >> j & 1)
				continue;
			for (int ci = r->start[p->idx[i]]; ci < r->start[p->idx[i] + 1]; ci++)
				for (int cj = r->start[p->idx[j]]; cj < r->start[p->idx[j] + 1]; cj++) {
					int u[3], w[3];
					cell_at(r, off, i, ci, dir, 0, u);
					cell_at(r, off, j, cj, dir, 0, w);
					bool line = true;
					for (int a = 0; a < 3; a++)
						if (a != axis && u[a] != w[a])
							line = false;
					if (line && (w[axis] - u[axis]) * sign > 0)
						return false;
				}
		}
	return true;
}

struct check {
	struct ref *r;
	const struct dis_move *m; /* the moves checked */
	size_t nm;
	size_t i;                 /* the next move to check */
};

/* Check the moves from c->i that take apart 'p' (see disref_check()),
 * consuming them, and give the level they imply. NULL, or the message. */
static const char *check_part(struct check *c, const struct part *p,
                              int *level, size_t *nlevel, bool *deep)
{
	if (p->k == 1) {
		*nlevel = 0;
		*deep = false;
		return NULL;
	}
	struct search s;
	search_init(&s);
	int rc = search_run(c->r, p, CHECK_NODES, &s);
	int least = s.first;
	search_clear(&s);
	if (rc == S_NOMEM)
		return fail("move %zu: out of memory", c->i);
	if (rc == S_BOUND)
		return fail("move %zu: its part's search passes %u positions", c->i,
		            CHECK_NODES);
	uint64_t pieces = part_pieces(p);
	struct shifts off = p->off;
	int count = 0;
	const struct dis_move *mv;
	unsigned g;
	for (;;) {
		size_t i = c->i;
		if (i >= c->nm)
			return fail("move %zu: the list ends before a part of %d "
			            "pieces comes apart", i, p->k);
		mv = &c->m[i];
		if (mv->group & ~pieces)
			return fail("move %zu: its group has pieces outside its part", i);
		if (mv->group == 0 || mv->group == pieces)
			return fail("move %zu: its group is empty or the whole part", i);
		if (mv->dir < 0 || mv->dir > 5)
			return fail("move %zu: no such direction", i);
		if (mv->dist < 0)
			return fail("move %zu: a negative distance", i);
		g = 0;
		for (int j = 0; j < p->k; j++)
			if (mv->group >> p->idx[j] & 1)
				g |= 1u << j;
		count++;
		c->i++;
		bool free_now = pair_free(c->r, p, &off, g, mv->dir);
		if (mv->dist == 0) {
			if (!free_now)
				return fail("move %zu: out, but the group is blocked", i);
			if (rc == S_NONE)
				return fail("move %zu: the reference finds no separation "
				            "for this part", i);
			if (count != least)
				return fail("move %zu: its part comes apart in %d moves, "
				            "the least is %d", i, count, least);
			/* On a full tie either side may go: disasm.h breaks it by
			 * BurrTools' search order, which is not copied here. */
			uint64_t rest = pieces & ~mv->group;
			bool tie = popcount(mv->group) == popcount(rest) &&
			           max_weight(c->r, mv->group) == max_weight(c->r, rest);
			if (!tie && removed_side(c->r, mv->group, rest) != mv->group)
				return fail("move %zu: the out group is not the removed side", i);
			break;
		}
		/* A free group moved a finite way would make this part's count
		 * exceed its L anyway (a separation was there a move earlier);
		 * saying so here also keeps the step loop below finite. */
		if (free_now)
			return fail("move %zu: a free group moves a finite distance", i);
		for (int t = 1; t <= mv->dist; t++)
			if (pair_collide(c->r, p, &off, g, mv->dir, t))
				return fail("move %zu: collides at step %d", i, t);
		for (int j = 0; j < p->k; j++)
			if (g >> j & 1)
				for (int a = 0; a < 3; a++)
					off.v[j][a] += mv->dist * dirv[mv->dir][a];
	}
	struct part rem, left;
	split(p, &off, g, &rem, &left);
	int ll[MAXP], lr[MAXP];
	size_t nl, nr;
	bool dl, dr;
	const char *e = check_part(c, &left, ll, &nl, &dl);
	if (!e)
		e = check_part(c, &rem, lr, &nr, &dr);
	if (e)
		return e;
	compose_level(count, ll, nl, dl, lr, nr, dr, level, nlevel, deep);
	return NULL;
}

const char *disref_check(int nx, int ny, int nz, const unsigned char *labels,
                         size_t npieces, const int *weights,
                         const struct dis_move *moves, size_t nmoves,
                         const int *level, size_t nlevel)
{
	struct ref r;
	if (ref_init(&r, nx, ny, nz, labels, npieces, weights, CHECK_NODES))
		return fail("out of memory");
	struct part p;
	part_whole(&r, &p);
	struct check c = {&r, moves, nmoves, 0};
	int lv[MAXP];
	size_t nlv;
	bool deep;
	const char *e = check_part(&c, &p, lv, &nlv, &deep);
	ref_clear(&r);
	if (e)
		return e;
	if (c.i != nmoves)
		return fail("move %zu: left over after the last part came apart", c.i);
	if (nlevel != nlv || (nlv && memcmp(level, lv, nlv * sizeof *lv))) {
		char text[64] = "";
		size_t at = 0;
		for (size_t i = 0; i < nlv && at < sizeof text; i++)
			at += (size_t)snprintf(text + at, sizeof text - at, "%s%d",
			                       i ? "." : "", lv[i]);
		return fail("level: the moves give %s", nlv ? text : "none");
	}
	return NULL;
}

const char *disref_agrees(int nx, int ny, int nz, const unsigned char *labels,
                          size_t npieces, const struct dis_result *r)
{
	int v, first;
	if (disref_solve(nx, ny, nz, labels, npieces, NULL, 0, &v, &first) != 0)
		return fail("the reference is out of memory");
	if ((int)r->verdict != v)
		return fail("verdict %d, brute force %d", (int)r->verdict, v);
	if (r->verdict != DIS_APART || npieces < 2)
		return NULL;
	if (r->nlevel < 1 || r->level[0] != first)
		return fail("first number %d, brute force %d",
		            r->nlevel ? r->level[0] : 0, first);
	return disref_check(nx, ny, nz, labels, npieces, NULL, r->moves, r->nmoves,
	                    r->level, r->nlevel);
}

/* ---- random assemblies -------------------------------------------------- */

/* Candidate cells for the piece labelled 'l' to grow into: the cells of
 * 'room' still empty that are face neighbours of cell 'from', or of any of
 * its cells when from < 0, with repeats (a cell touching the piece on two
 * faces is likelier). */
static int grow_candidates(const int *d, const unsigned char *labels,
                           const bool *room, int l, int from, int *cand)
{
	int n = 0, ncell = d[0] * d[1] * d[2];
	for (int c = 0; c < ncell; c++) {
		if (from >= 0 ? c != from : labels[c] != l)
			continue;
		int x = c % d[0], y = c / d[0] % d[1], z = c / (d[0] * d[1]);
		for (int dir = 0; dir < 6; dir++) {
			int u = x + dirv[dir][0], v = y + dirv[dir][1],
			    w = z + dirv[dir][2];
			if (u < 0 || v < 0 || w < 0 || u >= d[0] || v >= d[1] || w >= d[2])
				continue;
			int e = u + d[0] * (v + d[1] * w);
			if (room[e] && !labels[e])
				cand[n++] = e;
		}
	}
	return n;
}

/*
 * Grow the pieces labelled first..first+k-1 in the cells of 'room': a seed
 * each at a random empty cell of it, then the pieces take turns (from a
 * random one) taking an empty face neighbour in it, until 'cells' cells are
 * taken or no piece can grow. Blobs grow from any of their cells; snakes
 * from the cell they took last while they can, which makes long winding
 * pieces that hook around each other. Returns the pieces seeded (fewer
 * than k when the room is short of cells).
 */
static int grow(uint64_t *state, const int *d, unsigned char *labels,
                const bool *room, int first, int k, int cells, bool snake)
{
	int ncell = d[0] * d[1] * d[2], free_cells[DISREF_RANDOM_CELLS], nfree = 0;
	int last[MAXP], cand[6 * DISREF_RANDOM_CELLS];
	for (int c = 0; c < ncell; c++)
		if (room[c] && !labels[c])
			free_cells[nfree++] = c;
	if (k > nfree)
		k = nfree;
	for (int i = 0; i < k; i++) {
		int at = rnd(state, nfree);
		int c = free_cells[at];
		free_cells[at] = free_cells[--nfree];
		labels[c] = (unsigned char)(first + i);
		last[i] = c;
	}
	for (int taken = k; taken < cells;) {
		int start = rnd(state, k), n = 0;
		for (int i = 0; i < k && !n; i++) {
			int p = (start + i) % k;
			if (snake)
				n = grow_candidates(d, labels, room, first + p, last[p], cand);
			if (!n)
				n = grow_candidates(d, labels, room, first + p, -1, cand);
			if (n) {
				last[p] = cand[rnd(state, n)];
				labels[last[p]] = (unsigned char)(first + p);
			}
		}
		if (!n)
			break; /* the empty cells left touch no piece */
		taken++;
	}
	return k;
}

/* Whether cell 'c' of the box 'd' has a face neighbour off its outer
 * layer. */
static bool next_inside(const int *d, int c)
{
	int x = c % d[0], y = c / d[0] % d[1], z = c / (d[0] * d[1]);
	for (int dir = 0; dir < 6; dir++) {
		int u = x + dirv[dir][0], v = y + dirv[dir][1], w = z + dirv[dir][2];
		if (u > 0 && v > 0 && w > 0 && u < d[0] - 1 && v < d[1] - 1 &&
		    w < d[2] - 1)
			return true;
	}
	return false;
}

/*
 * Two kinds, half each (see disref.h). Packed boxes mostly come apart in
 * one move, or not at all; cages give the several-move cases: the inner
 * pieces wander to a hole, or the cage's pieces slide apart first. A
 * single-piece cage comes half the time, as it needs the most moves.
 */
void disref_random(uint64_t *state, int *nx, int *ny, int *nz,
                   unsigned char *labels, size_t *npieces)
{
	int d[3];
	bool caged = rnd(state, 2), room[DISREF_RANDOM_CELLS];
	for (int a = 0; a < 3; a++)
		d[a] = (caged ? 3 : 2) + rnd(state, caged ? 2 : 3);
	int ncell = d[0] * d[1] * d[2];
	memset(labels, 0, (size_t)ncell);
	int k;
	if (!caged) {
		for (int c = 0; c < ncell; c++)
			room[c] = true;
		int cells = ncell;
		if (rnd(state, 2))
			cells -= rnd(state, ncell / 4 + 1);
		k = grow(state, d, labels, room, 1, 2 + rnd(state, 6), cells,
		         rnd(state, 2));
	} else {
		int ninner = 0;
		for (int c = 0; c < ncell; c++) {
			int x = c % d[0], y = c / d[0] % d[1], z = c / (d[0] * d[1]);
			room[c] = x == 0 || y == 0 || z == 0 || x == d[0] - 1 ||
			          y == d[1] - 1 || z == d[2] - 1;
			ninner += !room[c];
		}
		/* The holes, in the outer layer next to an inner cell. */
		for (int h = 1 + rnd(state, 4); h > 0; h--) {
			int c;
			do
				c = rnd(state, ncell);
			while (!room[c] || !next_inside(d, c));
			room[c] = false;
		}
		int outer = rnd(state, 2) ? 1 : 2 + rnd(state, 2);
		k = grow(state, d, labels, room, 1, outer, ncell, rnd(state, 2));
		for (int c = 0; c < ncell; c++) {
			int x = c % d[0], y = c / d[0] % d[1], z = c / (d[0] * d[1]);
			room[c] = x > 0 && y > 0 && z > 0 && x < d[0] - 1 &&
			          y < d[1] - 1 && z < d[2] - 1;
		}
		k += grow(state, d, labels, room, k + 1, 1 + rnd(state, 3),
		          ninner - 1 - rnd(state, ninner), rnd(state, 2));
	}
	*nx = d[0];
	*ny = d[1];
	*nz = d[2];
	*npieces = (size_t)k;
}
