/*
 * blocks.c: the block generator (blocks.h): refine a unique dissection
 * by cuts, each proved by the solver, then check that it comes apart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/blk_int.h"
#include "gen/blocks.h"
#include "gen/gen.h"
#include "solver/poly.h"
#include "solver/prove.h"

static void work_clear(struct blk_work *w)
{
	free(w->at);
	free(w->nb);
	free(w->eb);
	free(w->nbm);
	free(w->pc);
	free(w->list);
	free(w->queue);
	free(w->walk);
	free(w->up);
	free(w->front);
	free(w->labels);
	dis_free(w->dis);
	prove_free(w->pv);
	free(w->memo.labels);
	free(w->memo.hash);
	free(w->memo.answer);
	free(w->memo.tab);
}

static size_t grid_cells(const struct grid *g)
{
	return (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
}

/* Number the goal's cells and find their neighbours. false: out of
 * memory. */
static bool work_init(struct blk_work *w, const struct grid *goal)
{
	memset(w, 0, sizeof *w);
	w->goal = goal;
	size_t total = grid_cells(goal);
	int *num = malloc(total * sizeof *num);
	if (!num)
		return false;
	int n = 0;
	for (size_t i = 0; i < total; i++)
		num[i] = goal->cells[i] ? n++ : -1;
	w->n = n;
	w->at = malloc((size_t)n * sizeof *w->at);
	w->nb = malloc((size_t)n * sizeof *w->nb);
	w->eb = malloc((size_t)n * sizeof *w->eb);
	w->nbm = n <= 64 ? calloc((size_t)n, sizeof *w->nbm) : NULL;
	w->pc = calloc((size_t)n, sizeof *w->pc);
	w->list = malloc((size_t)n * sizeof *w->list);
	w->queue = malloc((size_t)n * sizeof *w->queue);
	w->walk = malloc((size_t)n * sizeof *w->walk);
	w->up = malloc((size_t)n * sizeof *w->up);
	w->front = malloc((size_t)n);
	w->labels = malloc(total);
	w->dis = dis_new();
	w->pv = n <= PROVE_MAX_CELLS ? prove_new(goal) : NULL;
	if (!w->at || !w->nb || !w->eb || (n <= 64 && !w->nbm) || !w->pc || !w->list ||
	    !w->queue || !w->walk || !w->up || !w->front || !w->labels ||
	    !w->dis || !w->pv) {
		free(num);
		return false;
	}
	int c = 0;
	for (int z = 0; z < goal->nz; z++)
		for (int y = 0; y < goal->ny; y++)
			for (int x = 0; x < goal->nx; x++) {
				size_t i = puz_grid_index(goal, x, y, z);
				if (num[i] < 0)
					continue;
				w->at[c] = i;
				int p[3] = {x, y, z}, lim[3] = {goal->nx, goal->ny, goal->nz};
				for (int d = 0; d < 6; d++) {
					int q[3] = {p[0], p[1], p[2]};
					q[d / 2] += d % 2 ? -1 : 1;
					bool in = q[d / 2] >= 0 && q[d / 2] < lim[d / 2];
					w->nb[c][d] = in ? num[puz_grid_index(goal, q[0], q[1], q[2])]
					                 : -1;
					if (w->nbm && w->nb[c][d] >= 0)
						w->nbm[c] |= (uint64_t)1 << w->nb[c][d];
				}
				int e = 0;
				for (int a = 0; a < 3; a++)
					for (int b = a + 1; b < 3; b++)
						for (int t = 0; t < 4; t++) {
							int q[3] = {p[0], p[1], p[2]};
							q[a] += t & 1 ? -1 : 1;
							q[b] += t & 2 ? -1 : 1;
							bool in = q[a] >= 0 && q[a] < lim[a] &&
							          q[b] >= 0 && q[b] < lim[b];
							w->eb[c][e++] = in ? num[puz_grid_index(
							                         goal, q[0], q[1], q[2])]
							                   : -1;
						}
				c++;
			}
	free(num);
	return true;
}

bool blk_connected(struct blk_work *w, int i, int start, int want)
{
	unsigned char *seen = w->labels; /* scratch: cell numbers < n <= total */
	memset(seen, 0, (size_t)w->n);
	int head = 0, tail = 0;
	w->queue[tail++] = start;
	seen[start] = 1;
	while (head < tail) {
		int c = w->queue[head++];
		for (int d = 0; d < 6; d++) {
			int e = w->nb[c][d];
			if (e >= 0 && !seen[e] && w->pc[e] == i) {
				seen[e] = 1;
				w->queue[tail++] = e;
			}
		}
	}
	return tail == want;
}

/* The bytes' counts of set bits, each in its byte (without POPCNT,
 * which plain x86-64 lacks: the builtin would call libgcc). */
static uint64_t byte_counts(uint64_t m)
{
	m -= (m >> 1) & 0x5555555555555555u;
	m = (m & 0x3333333333333333u) + ((m >> 2) & 0x3333333333333333u);
	return (m + (m >> 4)) & 0x0f0f0f0f0f0f0f0fu;
}

static int pop64(uint64_t m)
{
	return (int)(byte_counts(m) * 0x0101010101010101u >> 56);
}

/* The k-th cell (from 0, k below the count) of mask m, in cell order:
 * the byte it lies in by the running counts of the bytes, then the bit. */
static int kth_cell(uint64_t m, uint64_t k)
{
	uint64_t run = byte_counts(m) * 0x0101010101010101u; /* byte b: bytes 0..b */
	int at = 0;
	uint64_t before = 0;
	while ((run >> at & 0xff) <= k) {
		before = run >> at & 0xff;
		at += 8;
	}
	uint64_t x = m >> at & 0xff;
	for (k -= before; k; k--)
		x &= x - 1;
	return at + __builtin_ctzll(x);
}

/* The grown cut (stream step 2 of blocks.h), on a goal of at most 64
 * cells: a part of s1 cells of piece i, grown from a cell one
 * neighbouring cell at a time, becomes piece j. false, with nothing
 * changed, when the rest of i is not face-connected. */
static bool grow_cut(struct blk_work *w, struct rng *r, int i, int s1, int j)
{
	uint64_t piece = 0;
	for (int c = 0; c < w->n; c++)
		piece |= (uint64_t)(w->pc[c] == i) << c;
	int s = pop64(piece);
	/* front: the cells of piece i, not in the part, next to it */
	uint64_t part = 0, front = 0;
	int c = kth_cell(piece, rng_below(r, (uint64_t)s));
	for (int got = 1;; got++) {
		part |= (uint64_t)1 << c;
		front &= ~part;
		if (got == s1)
			break;
		front |= w->nbm[c] & piece & ~part;
		c = kth_cell(front, rng_below(r, (uint64_t)pop64(front)));
	}
	/* the rest face-connected: flood it from its first cell */
	uint64_t rest = piece & ~part, seen = rest & -rest, todo = seen;
	while (todo) {
		uint64_t nw = w->nbm[__builtin_ctzll(todo)] & rest & ~seen;
		todo = (todo & (todo - 1)) | nw;
		seen |= nw;
	}
	if (seen != rest)
		return false;
	for (uint64_t x = part; x; x &= x - 1)
		w->pc[__builtin_ctzll(x)] = j;
	return true;
}

/* The tree cut (stream step 2 of blocks.h), on a goal of more than 64
 * cells, where a grown part nearly always leaves the rest of a large
 * piece in two: a random spanning tree of piece i's cells (Wilson's
 * algorithm: loop-erased random walks), then one of its edges whose two
 * sides are both face-connected by construction; the side taken as the
 * part, of lo..hi cells, becomes piece j. Its cells, or 0 (nothing
 * changed) when no edge leaves a side of lo..hi cells. Piece i must be
 * face-connected (every cut keeps it so), or a walk may never meet the
 * tree. */
static int tree_cut(struct blk_work *w, struct rng *r, int i, int lo, int hi,
                    int j)
{
	int s = 0;
	for (int c = 0; c < w->n; c++)
		if (w->pc[c] == i)
			w->list[s++] = c;
	int *walk = w->walk, *up = w->up, *order = w->queue;
	unsigned char *in = w->front;
	for (int t = 0; t < s; t++)
		in[w->list[t]] = 0;
	int root = w->list[rng_below(r, (uint64_t)s)];
	in[root] = 1;
	up[root] = -1;
	for (int t = 0; t < s; t++) {
		/* walk from the cell until the tree, each cell remembering
		 * its last exit (that erases the loops); then the path
		 * joins the tree */
		int u = w->list[t];
		for (int c = u; !in[c]; c = walk[c]) {
			int nbr[6], d = 0;
			for (int e = 0; e < 6; e++)
				if (w->nb[c][e] >= 0 && w->pc[w->nb[c][e]] == i)
					nbr[d++] = w->nb[c][e];
			walk[c] = nbr[rng_below(r, (uint64_t)d)];
		}
		for (int c = u; !in[c]; c = walk[c]) {
			in[c] = 1;
			up[c] = walk[c];
		}
	}
	/* the tree from the root, parents before children; then each
	 * cell's side below its edge up, 'below' its size */
	int head = 0, tail = 0;
	order[tail++] = root;
	while (head < tail) {
		int u = order[head++];
		for (int e = 0; e < 6; e++) {
			int v = w->nb[u][e];
			if (v >= 0 && w->pc[v] == i && up[v] == u)
				order[tail++] = v;
		}
	}
	int *below = w->walk;
	for (int t = 0; t < s; t++)
		below[w->list[t]] = 1;
	for (int t = s - 1; t > 0; t--)
		below[up[order[t]]] += below[order[t]];
	/* the candidates, by cell: the side below, then the side above */
	int count = 0;
	for (int t = 0; t < s; t++) {
		int v = w->list[t];
		if (v != root)
			count += (below[v] >= lo && below[v] <= hi) +
			         (s - below[v] >= lo && s - below[v] <= hi);
	}
	if (count == 0)
		return 0;
	int k = (int)rng_below(r, (uint64_t)count), edge = -1;
	bool lower = true;
	for (int t = 0; t < s && edge < 0; t++) {
		int v = w->list[t];
		if (v == root)
			continue;
		if (below[v] >= lo && below[v] <= hi && k-- == 0) {
			edge = v;
		} else if (s - below[v] >= lo && s - below[v] <= hi && k-- == 0) {
			edge = v;
			lower = false;
		}
	}
	/* in[]: below the edge, parents first */
	for (int t = 0; t < s; t++) {
		int u = order[t];
		in[u] = u == edge || (u != root && in[up[u]]);
	}
	int part = 0;
	for (int t = 0; t < s; t++)
		if (in[w->list[t]] == lower) {
			w->pc[w->list[t]] = j;
			part++;
		}
	return part;
}

bool blk_piece_grid(const struct blk_work *w, int i, int sym, struct grid *out)
{
	int lo[3] = {1 << 20, 1 << 20, 1 << 20}, hi[3] = {-(1 << 20), -(1 << 20), -(1 << 20)};
	const struct grid *g = w->goal;
	for (int pass = 0; pass < 2; pass++) {
		for (int c = 0; c < w->n; c++) {
			if (w->pc[c] != i)
				continue;
			size_t at = w->at[c];
			int p[3] = {(int)(at % (size_t)g->nx),
			            (int)(at / (size_t)g->nx % (size_t)g->ny),
			            (int)(at / ((size_t)g->nx * (size_t)g->ny))}, q[3];
			poly_sym_apply(sym, p, q);
			for (int a = 0; a < 3 && pass == 0; a++) {
				lo[a] = q[a] < lo[a] ? q[a] : lo[a];
				hi[a] = q[a] > hi[a] ? q[a] : hi[a];
			}
			if (pass == 1)
				out->cells[puz_grid_index(out, q[0] - lo[0], q[1] - lo[1],
				                          q[2] - lo[2])] = 1;
		}
		if (pass == 0 && puz_grid_init(out, hi[0] - lo[0] + 1, hi[1] - lo[1] + 1,
		                               hi[2] - lo[2] + 1) != PUZ_OK)
			return false;
	}
	return true;
}

/* The n-th proper symmetry (0..23). */
static int proper_sym(int n)
{
	for (int s = 0; s < POLY_NSYM; s++)
		if (poly_sym_proper(s) && n-- == 0)
			return s;
	return 0;
}

bool blk_inner(const struct blk_work *w, int c)
{
	for (int d = 0; d < 6; d++)
		if (w->nb[c][d] < 0)
			return false;
	return true;
}

bool blk_puzzle_frame(const struct blk_work *w, int k, struct puzzle *out)
{
	struct puzzle p;
	memset(&p, 0, sizeof p);
	const struct grid *g = w->goal;
	if (puz_grid_init(&p.goal, g->nx, g->ny, g->nz) != PUZ_OK)
		return false;
	for (int c = 0; c < w->n; c++)
		p.goal.cells[w->at[c]] = w->hollow && blk_inner(w, c) ? PUZ_OPTIONAL
		                                                      : PUZ_CELL;
	if (!(p.pieces = calloc((size_t)k, sizeof *p.pieces))) {
		puz_clear(&p);
		return false;
	}
	p.npieces = (size_t)k; /* empty grids until the caller fills them */
	for (int i = 0; i < k; i++) {
		snprintf(p.pieces[i].name, sizeof p.pieces[i].name, "%d", i + 1);
		p.pieces[i].count = 1;
	}
	*out = p;
	return true;
}

bool blk_make_puzzle(const struct blk_work *w, const int *a, const int *rot,
                     struct puzzle *out)
{
	struct puzzle p;
	if (!blk_puzzle_frame(w, w->np, &p))
		return false;
	for (int i = 0; i < w->np; i++)
		if (!blk_piece_grid(w, a ? a[i] : i, rot ? proper_sym(rot[i]) : 0,
		                    &p.pieces[i].shape)) {
			puz_clear(&p);
			return false;
		}
	*out = p;
	return true;
}

/* The memo's hash of the dissection's labels. */
static uint64_t labels_hash(const struct blk_work *w)
{
	uint64_t h = (uint64_t)w->n;
	for (int c = 0; c < w->n; c++)
		h = (h ^ (uint64_t)w->pc[c]) * 0x100000001b3u;
	return h ^ h >> 29;
}

/* The slot of the dissection (hash h) in the memo's table: its entry + 1
 * there, or the empty slot where it would go. */
static size_t memo_slot(const struct blk_work *w, uint64_t h)
{
	const struct blk_memo *m = &w->memo;
	size_t i = (size_t)(h * 0x9E3779B97F4A7C15u >> 32) & m->tmask;
	for (;; i = (i + 1) & m->tmask) {
		uint32_t e = m->tab[i];
		if (!e)
			return i;
		const unsigned char *l = m->labels + (size_t)(e - 1) * (size_t)w->n;
		if (m->hash[e - 1] != h)
			continue;
		int c = 0;
		while (c < w->n && l[c] == (unsigned char)w->pc[c])
			c++;
		if (c == w->n)
			return i;
	}
}

/* Remember the answer of the dissection (hash h) the memo lacks; when
 * out of memory, or past BLK_MEMO_MAX entries, it is not kept (the memo
 * only saves work). */
static void memo_keep(struct blk_work *w, uint64_t h, int answer)
{
	struct blk_memo *m = &w->memo;
	if (m->len == BLK_MEMO_MAX)
		return;
	if (m->len == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 64, n = (size_t)w->n;
		unsigned char *l = realloc(m->labels, cap * n);
		if (l)
			m->labels = l;
		uint64_t *hs = l ? realloc(m->hash, cap * sizeof *hs) : NULL;
		if (hs)
			m->hash = hs;
		unsigned char *a = hs ? realloc(m->answer, cap) : NULL;
		if (a)
			m->answer = a;
		/* a table of twice the entries, rebuilt */
		uint32_t *t = a ? calloc(2 * cap, sizeof *t) : NULL;
		if (!t)
			return;
		free(m->tab);
		m->tab = t;
		m->tmask = 2 * cap - 1;
		m->cap = cap;
		for (size_t e = 0; e < m->len; e++) {
			size_t i = (size_t)(m->hash[e] * 0x9E3779B97F4A7C15u >> 32) &
			           m->tmask;
			while (m->tab[i])
				i = (i + 1) & m->tmask;
			m->tab[i] = (uint32_t)e + 1;
		}
	}
	size_t slot = memo_slot(w, h);
	unsigned char *l = m->labels + m->len * (size_t)w->n;
	for (int c = 0; c < w->n; c++)
		l[c] = (unsigned char)w->pc[c];
	m->hash[m->len] = h;
	m->answer[m->len] = (unsigned char)answer;
	m->tab[slot] = (uint32_t)++m->len;
}

/* Whether attempts take the grown route (blocks.h): pieces of
 * BLK_GROW_CELLS to BLK_GROW_CELLS_MAX cells on a goal of more than 64
 * cells. */
static bool grown(const struct blk_work *w, const struct blk_spec *s)
{
	return !w->nbm && !w->hollow && s->cells_min >= BLK_GROW_CELLS &&
	       s->cells_max <= BLK_GROW_CELLS_MAX;
}

/* The i-th term (i >= 1) of Luby's sequence 1, 1, 2, 1, 1, 2, 4, 1, 1,
 * 2, 1, 1, 2, 4, 8, ...: 2^(j-1) when i = 2^j - 1, else the term i - 2^(j-1)
 * + 1 for the j with 2^(j-1) <= i < 2^j - 1. Past 2^63 it stays 2^62. */
static uint64_t luby(uint64_t i)
{
	for (;;) {
		int j = 1;
		while (j < 63 && ((uint64_t)1 << j) - 1 < i)
			j++;
		if (((uint64_t)1 << j) - 1 <= i)
			return (uint64_t)1 << (j - 1);
		i -= ((uint64_t)1 << (j - 1)) - 1;
	}
}

uint64_t blk_grow_budget(uint64_t i)
{
	uint64_t t = luby(i ? i : 1);
	return BLK_GROW_PROOF_NODES *
	       (t < BLK_GROW_PROOF_TIMES ? t : BLK_GROW_PROOF_TIMES);
}

/* Whether the dissection is proved unique: 1 yes, 0 no (or not within
 * the node budget), -1 out of memory. A scout (the dissection before
 * its last cut: the cut can only add solutions, so one that is not
 * unique is dropped early) has a smaller budget, and a scout cut short
 * passes (2 in the memo): only the last cut's proof decides. A
 * dissection proved before in this search gets the answer it got then:
 * the proof is a function of the labels and the budget alone (on the
 * grown route the budget of the first proof of it: a repeat keeps that
 * answer, cut short or not, so the search stays the same); one a
 * scout left open is proved again when it is a last cut. */
static int unique(struct blk_work *w, const struct blk_spec *s, bool scout)
{
	_Static_assert(BLK_MAX_PIECES <= 256, "a label is a byte");
	uint64_t h = labels_hash(w);
	uint32_t e = 0;
	if (w->memo.tab) {
		e = w->memo.tab[memo_slot(w, h)];
		if (e && (scout || w->memo.answer[e - 1] != 2)) {
			w->info->repeats++;
			return w->memo.answer[e - 1] != 0;
		}
	}
	uint64_t budget = s->proof_nodes ? s->proof_nodes : BLK_PROOF_NODES;
	if (!s->proof_nodes && grown(w, s))
		budget = blk_grow_budget(++w->grown_proofs);
	if (scout && budget > BLK_SCOUT_NODES)
		budget = BLK_SCOUT_NODES;
	struct prove_result r;
	int rc = prove_count(w->pv, w->pc, w->np, 2, budget, &r);
	if (rc != PROVE_OK)
		return -1;
	w->info->solver_calls++;
	w->info->nodes += r.nodes;
	bool open = !r.complete && r.solutions < 2;
	w->info->cut_short += open && !scout;
	w->info->scouts_open += open && scout;
	int answer = open && scout ? 2 : r.complete && r.solutions == 1;
	if (e)
		w->memo.answer[e - 1] = (unsigned char)answer;
	else
		memo_keep(w, h, answer);
	if (s->progress)
		s->progress(s->progress_ctx, w->info);
	return answer != 0;
}

/* Whether shape 'sh' has a rotation with no overhanging cell: 1 yes, 0
 * no, -1 out of memory. */
static int lies_flat(const struct shape *sh)
{
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		struct shape t;
		if (poly_transform(sh, s, &t) != POLY_OK)
			return -1;
		size_t o = poly_overhangs(&t);
		poly_shape_clear(&t);
		if (o == 0)
			return 1;
	}
	return 0;
}

int blk_lies_flat(const struct blk_work *w, int i)
{
	struct grid g;
	if (!blk_piece_grid(w, i, 0, &g))
		return -1;
	struct shape sh;
	int rc = poly_from_grid(&g, &sh);
	puz_grid_clear(&g);
	if (rc != POLY_OK)
		return -1;
	int ok = lies_flat(&sh);
	poly_shape_clear(&sh);
	return ok;
}

int blk_final_ok(struct blk_work *w, const struct blk_spec *s, int i)
{
	w->final[i] = true;
	int rc = prove_congruent(w->pv, w->pc, w->np, i, w->final);
	if (rc != 0)
		return rc < 0 ? -1 : 0;
	int ok = s->support_free ? blk_lies_flat(w, i) : 1;
	if (ok != 1 || !s->piece_ok)
		return ok;
	struct grid g;
	if (!blk_piece_grid(w, i, 0, &g))
		return -1;
	ok = s->piece_ok(s->ctx, g.cells, g.nx, g.ny, g.nz);
	puz_grid_clear(&g);
	return ok;
}

void blk_drop_final(struct blk_work *w, int i)
{
	w->final[i] = false;
}

/* The pieces the dissection is planned to become. */
static int k_of(const struct blk_work *w)
{
	int k = 0;
	for (int i = 0; i < w->np; i++)
		k += w->m[i];
	return k;
}

/* One step: cut the piece planned as most pieces. 1 done, 0 no cut kept
 * in BLK_TRIES, -1 out of memory. */
static int step(struct blk_work *w, struct rng *r, const struct blk_spec *s)
{
	int i = 0;
	for (int k = 1; k < w->np; k++)
		if (w->m[k] > w->m[i])
			i = k;
	int m = w->m[i], m1 = m / 2, m2 = m - m1, sz = w->size[i];
	int lo = m1 * s->cells_min, hi = m1 * s->cells_max;
	if (sz - m2 * s->cells_max > lo)
		lo = sz - m2 * s->cells_max;
	if (sz - m2 * s->cells_min < hi)
		hi = sz - m2 * s->cells_min;
	int j = w->np;
	for (int t = 0; t < BLK_TRIES; t++) {
		w->info->tries++;
		int s1;
		if (w->nbm) {
			s1 = lo + (int)rng_below(r, (uint64_t)(hi - lo + 1));
			if (!grow_cut(w, r, i, s1, j))
				continue;
		} else if ((s1 = tree_cut(w, r, i, lo, hi, j)) == 0) {
			continue;
		}
		w->np = j + 1;
		w->m[i] = m2;
		w->m[j] = m1;
		w->size[i] = sz - s1;
		w->size[j] = s1;
		int ok = 1;
		if (m1 == 1)
			ok = blk_final_ok(w, s, j);
		if (ok == 1 && m2 == 1)
			ok = blk_final_ok(w, s, i);
		/* (an interlocking climb proves its own end) */
		if (ok == 1 && !w->hollow && w->np >= k_of(w) - 1)
			ok = unique(w, s, w->np < k_of(w));
		if (ok == 1)
			return 1;
		blk_drop_final(w, i);
		blk_drop_final(w, j);
		for (int c = 0; c < w->n; c++)
			if (w->pc[c] == j)
				w->pc[c] = i;
		w->np = j;
		w->m[i] = m;
		w->size[i] = sz;
		if (ok < 0)
			return -1;
	}
	return 0;
}

/* The feasible piece counts of 's' for n cells into ks[], how many. */
static int feasible(const struct blk_spec *s, int n, int *ks)
{
	int count = 0;
	for (int k = s->pieces_min; k <= s->pieces_max; k++)
		if ((long)k * s->cells_min <= n && n <= (long)k * s->cells_max)
			ks[count++] = k;
	return count;
}

/* Whether some row of the goal along x, y or z is more than one run of
 * cells: then a group may slide into the gap and stop, without hollows
 * (lock.c). */
static bool dented(const struct grid *g)
{
	int n[3] = {g->nx, g->ny, g->nz};
	for (int a = 0; a < 3; a++) {
		int b = (a + 1) % 3, c = (a + 2) % 3;
		for (int v = 0; v < n[c]; v++)
			for (int u = 0; u < n[b]; u++) {
				int runs = 0;
				bool was = false;
				for (int t = 0; t < n[a]; t++) {
					int p[3];
					p[a] = t;
					p[b] = u;
					p[c] = v;
					bool in = g->cells[puz_grid_index(g, p[0], p[1], p[2])];
					runs += in && !was;
					was = in;
				}
				if (runs > 1)
					return true;
			}
	}
	return false;
}

int blk_check(const struct grid *goal, const struct blk_spec *s, char *why,
              size_t len)
{
	if (s->pieces_min < 2 || s->pieces_max > BLK_MAX_PIECES ||
	    s->pieces_min > s->pieces_max) {
		snprintf(why, len, "pieces must be a range A..B with 2 <= A <= B <= %d",
		         BLK_MAX_PIECES);
		return GEN_EINVAL;
	}
	if (s->cells_min < 1 || s->cells_max > BLK_MAX_CELLS ||
	    s->cells_min > s->cells_max) {
		snprintf(why, len, "cells must be a range A..B with 1 <= A <= B <= %d",
		         BLK_MAX_CELLS);
		return GEN_EINVAL;
	}
	size_t total = grid_cells(goal), n = 0, first = 0;
	for (size_t i = 0; i < total; i++) {
		if (puz_cell_optional(goal->cells[i])) {
			snprintf(why, len, "the goal has optional cells; a block puzzle "
			         "fills every cell");
			return GEN_EINVAL;
		}
		if (goal->cells[i] && n++ == 0)
			first = i;
	}
	if (n == 0 || n > BLK_MAX_CELLS) {
		snprintf(why, len, "the goal has %zu cells; a block puzzle needs 1 to "
		         "%d", n, BLK_MAX_CELLS);
		return GEN_EINVAL;
	}
	int ks[BLK_MAX_PIECES + 1];
	if (feasible(s, (int)n, ks) == 0) {
		/* the piece counts those sizes allow, as a hint */
		int lo = (int)((n + (size_t)s->cells_max - 1) / (size_t)s->cells_max);
		int hi = (int)(n / (size_t)s->cells_min);
		lo = lo < 2 ? 2 : lo;
		hi = hi > BLK_MAX_PIECES ? BLK_MAX_PIECES : hi;
		char hint[64] = "";
		if (lo <= hi)
			snprintf(hint, sizeof hint, " (--pieces %d..%d would fit)", lo,
			         hi);
		snprintf(why, len, "%zu goal cells cannot be cut into %d..%d pieces of "
		         "%d..%d cells%s", n, s->pieces_min, s->pieces_max, s->cells_min,
		         s->cells_max, hint);
		return GEN_EINVAL;
	}
	struct blk_work w;
	if (!work_init(&w, goal)) {
		work_clear(&w);
		return GEN_ENOMEM;
	}
	int c0 = 0;
	while (w.at[c0] != first)
		c0++;
	bool ok = blk_connected(&w, 0, c0, w.n), inner = false;
	for (int c = 0; c < w.n && !inner; c++)
		inner = blk_inner(&w, c);
	work_clear(&w);
	if (!ok) {
		snprintf(why, len, "the goal is not face-connected");
		return GEN_EINVAL;
	}
	if (s->level_min < 0 || s->level_min > BLK_MAX_LEVEL) {
		snprintf(why, len, "level must be 1 to %d", BLK_MAX_LEVEL);
		return GEN_EINVAL;
	}
	if (s->level_min > 1 && !inner && !dented(goal)) {
		snprintf(why, len, "a level above 1 needs room to move inside the "
		         "goal: an inner cell to leave hollow (a box at least 3 "
		         "cells on every side) or a dent; without one every "
		         "dissection comes apart at level 1");
		return GEN_EINVAL;
	}
	return GEN_OK;
}

/* Steps 3 and 4 of the stream: number and turn the pieces into '*out'.
 * false: out of memory. */
static bool finish(struct blk_work *w, struct rng *r, const struct dis_result *d,
                   struct blk_puzzle *out)
{
	int k = w->np, a[BLK_MAX_PIECES], rot[BLK_MAX_PIECES], of[BLK_MAX_PIECES];
	for (int i = 0; i < k; i++)
		a[i] = i;
	for (int i = k - 1; i >= 1; i--) {
		int j = (int)rng_below(r, (uint64_t)i + 1), t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
	/* piece i (cut order) is number a[i] + 1; number n + 1 is piece of[n] */
	for (int i = 0; i < k; i++)
		of[a[i]] = i;
	for (int i = 0; i < k; i++)
		rot[i] = (int)rng_below(r, 24);
	struct blk_puzzle b;
	memset(&b, 0, sizeof b);
	size_t total = grid_cells(w->goal);
	if (!(b.answer = calloc(total, 1)))
		return false;
	if (!blk_make_puzzle(w, of, rot, &b.puz)) {
		free(b.answer);
		return false;
	}
	for (int c = 0; c < w->n; c++)
		if (w->pc[c] >= 0)
			b.answer[w->at[c]] = (unsigned char)(a[w->pc[c]] + 1);
	b.npieces = (size_t)k;
	/* the moves name pieces in cut order: renumber their groups */
	b.dis = *d;
	for (size_t i = 0; i < d->nmoves; i++) {
		uint64_t g = 0;
		for (int p = 0; p < k; p++)
			if (d->moves[i].group >> p & 1)
				g |= (uint64_t)1 << a[p];
		b.dis.moves[i].group = g;
	}
	*out = b;
	return true;
}

/* One attempt. 1 found (in '*out'), 0 not, -1 out of memory. */
static int attempt(struct blk_work *w, struct rng *r, const struct blk_spec *s,
                   struct blk_puzzle *out)
{
	int ks[BLK_MAX_PIECES + 1], nk = feasible(s, w->n, ks), ki = 0;
	if (grown(w, s))
		while (ki < nk - 1 && rng_below(r, BLK_GROW_MORE) == 0)
			ki++;
	else
		ki = (int)rng_below(r, (uint64_t)nk);
	int k = ks[ki];
	for (int i = 0; i < w->np; i++)
		blk_drop_final(w, i);
	for (int c = 0; c < w->n; c++)
		w->pc[c] = 0;
	w->np = 1;
	w->m[0] = k;
	w->size[0] = w->n;
	if (grown(w, s)) {
		int rc = blk_grow(w, r, s, k);
		for (int i = 0; i < k && rc == 1; i++)
			rc = blk_final_ok(w, s, i);
		if (rc == 1)
			rc = unique(w, s, false);
		if (rc <= 0)
			return rc;
	}
	while (w->np < k) {
		int rc = step(w, r, s);
		if (rc <= 0)
			return rc;
	}
	struct dis_result d;
	if (w->hollow) {
		int rc = blk_lock(w, r, s, &d);
		if (rc <= 0)
			return rc;
		if (!finish(w, r, &d, out)) {
			dis_result_clear(&d);
			return -1;
		}
		return 1;
	}
	memset(w->labels, 0, grid_cells(w->goal));
	for (int c = 0; c < w->n; c++)
		w->labels[w->at[c]] = (unsigned char)(w->pc[c] + 1);
	const struct grid *g = w->goal;
	int rc = dis_run(w->dis, g->nx, g->ny, g->nz, w->labels, (size_t)w->np,
	                 NULL, NULL, &d);
	if (rc != DIS_OK)
		return rc == DIS_ENOMEM ? -1 : 0;
	if (d.verdict != DIS_APART) {
		dis_result_clear(&d);
		return 0;
	}
	if (!finish(w, r, &d, out)) {
		dis_result_clear(&d);
		return -1;
	}
	return 1;
}

int blk_find(struct rng *r, const struct grid *goal, const struct blk_spec *s,
             struct blk_puzzle *out, struct blk_found *info)
{
	struct blk_found f = {0};
	struct blk_work w;
	if (!work_init(&w, goal)) {
		work_clear(&w);
		return GEN_ENOMEM;
	}
	w.info = &f;
	w.hollow = s->level_min > 1;
	int ks[BLK_MAX_PIECES + 1], nk = feasible(s, w.n, ks);
	struct dis_result d;
	int rc = blk_sets(&w, r, s, ks, nk, &d);
	if (rc == 1) {
		/* every set tried: found or proved none */
		if (f.found && !finish(&w, r, &d, out)) {
			dis_result_clear(&d);
			rc = -1;
		}
		work_clear(&w);
		if (rc < 0)
			return GEN_ENOMEM;
		*info = f;
		return GEN_OK;
	}
	f.grown = rc == 0 && grown(&w, s);
	while (f.attempts < s->max_attempts && rc == 0) {
		f.attempts++;
		rc = attempt(&w, r, s, out);
		if (rc == 0 && s->progress)
			s->progress(s->progress_ctx, &f);
	}
	work_clear(&w);
	if (rc < 0)
		return GEN_ENOMEM;
	f.found = rc == 1;
	*info = f;
	return GEN_OK;
}

void blk_puzzle_clear(struct blk_puzzle *b)
{
	puz_clear(&b->puz);
	free(b->answer);
	dis_result_clear(&b->dis);
	memset(b, 0, sizeof *b);
}
