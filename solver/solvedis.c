/*
 * solvedis.c: solve --disassemble: every cover the search finds is taken
 * apart (disasm.h) and counted by its verdict (solve.h's disassembly
 * fields).
 *
 * Why the counts stay exact. A symmetry of the goal maps a disassembly
 * of an assembly onto one of its image (moves turn with it, mirrored or
 * not), so whether an assembly comes apart, and the number of moves of
 * its first separation, are the same for every assembly of a solution;
 * each cover adds its share of the numerator (solve.c) to the sum of its
 * verdict, and each sum divides like 'solutions'. The later numbers of a
 * level are another matter: among separations at the same depth the
 * first that works is taken in a fixed order of directions and pieces,
 * which a symmetry reorders. So the disassembler is run on one fixed
 * form of the cover's orbit: the image under the symmetry of G whose
 * labelling of the goal cells (in goal-cell order, each cell the rank of
 * its piece by first appearance, 0 for an empty cell; with colours, and
 * the piece's type) is least. Every
 * cover of a solution has that same form, so the same level, and the
 * per-level counts divide exactly too. The solution shown with its
 * moves (--print's first) is that form (sdis_show), its pieces numbered
 * as BurrTools numbers them, so that the level is BurrTools' on the
 * solution as shown.
 *
 * Cost: per cover, the forms under the |G| symmetries (most are
 * abandoned within a few cells) and one disassembly; against a search
 * node, a few microseconds for a piece that lifts off, more for burrs.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver/solve_int.h"

/* A form's code of a cell: 0 empty, else 1 + its piece's rank, plus
 * FORM_RANKS * (1 + its type) with colours; ranks are at most
 * DIS_MAX_PIECES. */
#define FORM_RANKS (DIS_MAX_PIECES + 1)

/* Bytes the memo keeps at most (it starts again past them; small in
 * tests/test_disasm_bounds.c). */
#ifndef MEMO_BYTES
#define MEMO_BYTES ((size_t)64 << 20)
#endif

static void memo_reset(struct sdis *sd);

int solve_moves_copy(struct solve_moves *dst, const struct solve_moves *src)
{
	struct solve_moves m = *src;
	m.moves = NULL;
	if (src->nmoves) {
		m.moves = malloc(src->nmoves * sizeof *m.moves);
		if (!m.moves)
			return SOLVE_ENOMEM;
		memcpy(m.moves, src->moves, src->nmoves * sizeof *m.moves);
	}
	*dst = m;
	return SOLVE_OK;
}

void solve_moves_clear(struct solve_moves *m)
{
	free(m->moves);
	memset(m, 0, sizeof *m);
}

int sdis_prepare(struct solver *s)
{
	/* weights that differ, or groups: the disassembler is told them */
	s->dis_traits = false;
	for (size_t i = 0; i < s->p->npieces; i++)
		s->dis_traits |= s->p->pieces[i].group != 0 ||
		                 s->p->pieces[i].weight > 1;
	for (int k = 0; k < s->group_order; k++) {
		int inv = poly_sym_inverse(s->group[k]);
		s->group_inv[k] = -1;
		for (int j = 0; j < s->group_order; j++)
			if (s->group[j] == inv)
				s->group_inv[k] = j;
		assert(s->group_inv[k] >= 0);
	}
	return SOLVE_OK;
}

int sdis_thread_init(struct solver *s)
{
	struct sdis *sd = &s->sd;
	*sd = (struct sdis){0};
	const struct grid *g = &s->p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	size_t nc = s->ncells ? s->ncells : 1;
	sd->dis = dis_new();
	sd->owner = malloc(nc * sizeof *sd->owner);
	sd->best = malloc(nc * sizeof *sd->best);
	sd->rank = malloc(nc * sizeof *sd->rank);
	sd->best_rank = malloc(nc * sizeof *sd->best_rank);
	sd->btype = malloc(nc * sizeof *sd->btype);
	sd->clabels = calloc(total, 1);
	sd->key = malloc(nc + 8 * DIS_MAX_PIECES);
	size_t nr = s->nrows ? s->nrows : 1;
	sd->rshape = malloc(nr * sizeof *sd->rshape);
	sd->repoch = calloc(nr, sizeof *sd->repoch);
	sd->rlo = malloc(nr * sizeof *sd->rlo);
	sd->rcell = malloc(nc * sizeof *sd->rcell);
	if (!sd->dis || !sd->owner || !sd->best || !sd->rank ||
	    !sd->best_rank || !sd->btype || !sd->clabels || !sd->key ||
	    !sd->rshape || !sd->repoch || !sd->rlo || !sd->rcell)
		return SOLVE_ENOMEM;
	if (s->o->dis_max_nodes)
		dis_set_max_nodes(sd->dis, s->o->dis_max_nodes);
	return SOLVE_OK;
}

void sdis_thread_free(struct solver *s)
{
	struct sdis *sd = &s->sd;
	dis_free(sd->dis);
	free(sd->owner);
	free(sd->best);
	free(sd->rank);
	free(sd->best_rank);
	free(sd->btype);
	free(sd->clabels);
	free(sd->key);
	free(sd->rshape);
	free(sd->repoch);
	free(sd->rlo);
	free(sd->rcell);
	solve_moves_clear(&sd->cur);
	solve_moves_clear(&sd->max);
	memo_reset(sd);
	*sd = (struct sdis){0};
}

/* The code of form cell c under the symmetry whose inverse's cell map
 * is 'inv', ranks given in order of first appearance (rank[], *next). */
static inline int32_t form_code(const struct solver *s, const int32_t *inv,
                                bool mirror, size_t c, int32_t *rank,
                                int32_t *next)
{
	const struct sdis *sd = &s->sd;
	int32_t b = sd->owner[inv[c]];
	if (b < 0)
		return 0;
	if (rank[b] < 0)
		rank[b] = (*next)++;
	int32_t code = rank[b] + 1;
	if (s->coloured) {
		/* with colours a piece's type is part of the form (a symmetry
		 * may map shapes onto shapes but not colours onto colours);
		 * an improper one turns each type into its mirror */
		size_t t = sd->btype[b];
		if (mirror)
			t = s->types[t].mirror;
		code += FORM_RANKS * (int32_t)(t + 1);
	}
	return code;
}

/* The least form of the cover whose owners are in sd->owner (n pieces):
 * sd->best gets its labelling, sd->best_rank each piece's rank in it;
 * returns the index in G of the symmetry that makes it (the first, on a
 * tie). Each image is compared with the least so far cell by cell, both
 * made as they go: two images nearly always differ within a few cells,
 * so only the least is made whole. */
static int least_form(struct solver *s, size_t n)
{
	struct sdis *sd = &s->sd;
	size_t nc = s->ncells;
	int bestk = 0;
	for (int k = 1; k < s->group_order; k++) {
		/* the image's cell c is the cover's cell inv(c) */
		const int32_t *ia = s->cellmap + (size_t)s->group_inv[k] * nc;
		const int32_t *ib = s->cellmap + (size_t)s->group_inv[bestk] * nc;
		bool ma = s->coloured && !poly_sym_proper(s->group[k]);
		bool mb = s->coloured && !poly_sym_proper(s->group[bestk]);
		for (size_t i = 0; i < n; i++)
			sd->rank[i] = sd->best_rank[i] = -1;
		int32_t na = 0, nb = 0;
		for (size_t c = 0; c < nc; c++) {
			int32_t a = form_code(s, ia, ma, c, sd->rank, &na);
			int32_t b = form_code(s, ib, mb, c, sd->best_rank, &nb);
			if (a != b) {
				if (a < b)
					bestk = k;
				break;
			}
		}
	}
	const int32_t *inv = s->cellmap + (size_t)s->group_inv[bestk] * nc;
	bool mirror = s->coloured && !poly_sym_proper(s->group[bestk]);
	for (size_t i = 0; i < n; i++)
		sd->best_rank[i] = -1;
	int32_t next = 0;
	for (size_t c = 0; c < nc; c++) {
		int32_t code = form_code(s, inv, mirror, c, sd->best_rank, &next);
		sd->best[c] = code;
		/* the memo key's first part (make_key): the rank code */
		sd->key[c] = (unsigned char)(s->coloured ? code % FORM_RANKS : code);
	}
	return bestk;
}

/* ---- the memo: forms already taken apart -------------------------------- */

/* The memo's key of the cover at hand: its least form, one byte a goal
 * cell (ranks are at most DIS_MAX_PIECES), each rank's type (2 bytes:
 * the pieces are numbered by type), then, when the pieces have weights or
 * groups, those of each piece in that numbering, 6 bytes each. Into
 * sd->key (ncells + 8 * DIS_MAX_PIECES bytes); returns its length. */
static size_t make_key(struct solver *s, size_t n, const size_t *type_of,
                       const int *weight, const unsigned *group)
{
	struct sdis *sd = &s->sd;
	size_t len = s->ncells;
	/* the first ncells bytes: least_form() wrote them */
	for (size_t r = 0; r < n; r++) {
		sd->key[len++] = (unsigned char)type_of[r];
		sd->key[len++] = (unsigned char)(type_of[r] >> 8);
	}
	for (size_t i = 0; s->dis_traits && i < n; i++) {
		uint32_t w = (uint32_t)weight[i];
		for (int b = 0; b < 4; b++)
			sd->key[len++] = (unsigned char)(w >> 8 * b);
		sd->key[len++] = (unsigned char)group[i];
		sd->key[len++] = (unsigned char)(group[i] >> 8);
	}
	return len;
}

static uint64_t key_hash(const unsigned char *k, size_t len)
{
	uint64_t h = 0xcbf29ce484222325u ^ len;
	size_t c = 0;
	for (; c + 8 <= len; c += 8) { /* eight bytes a step */
		uint64_t w;
		memcpy(&w, k + c, sizeof w);
		h = (h ^ w) * 0x9E3779B97F4A7C15u;
		h ^= h >> 32;
	}
	for (; c < len; c++) {
		h ^= k[c];
		h *= 0x100000001b3u;
	}
	return h ^ h >> 29;
}

static bool memo_same(const struct solver *s, const struct memo_ent *e,
                      size_t len)
{
	return e->len == len && !memcmp(s->sd.forms + e->off, s->sd.key, len);
}

/* A copy of the result kept for the key in sd->key (len bytes) into
 * '*r': SOLVE_OK; -1 when there is none; SOLVE_ENOMEM. */
static int memo_find(struct solver *s, size_t len, struct dis_result *r)
{
	struct sdis *sd = &s->sd;
	if (!sd->memo)
		return -1;
	uint64_t h = key_hash(sd->key, len);
	for (size_t i = h & sd->memo_mask; sd->memo[i].used;
	     i = (i + 1) & sd->memo_mask) {
		const struct memo_ent *e = &sd->memo[i];
		if (e->hash != h || !memo_same(s, e, len))
			continue;
		if (!e->apart) {
			*r = (struct dis_result){.verdict = e->verdict};
			return SOLVE_OK;
		}
		*r = *e->apart;
		r->moves = NULL;
		if (e->apart->nmoves) {
			r->moves = malloc(e->apart->nmoves * sizeof *r->moves);
			if (!r->moves)
				return SOLVE_ENOMEM;
			memcpy(r->moves, e->apart->moves,
			       e->apart->nmoves * sizeof *r->moves);
		}
		return SOLVE_OK;
	}
	return -1;
}

static void memo_reset(struct sdis *sd)
{
	for (size_t i = 0; sd->memo && i <= sd->memo_mask; i++)
		if (sd->memo[i].apart) {
			free(sd->memo[i].apart->moves);
			free(sd->memo[i].apart);
		}
	free(sd->memo);
	free(sd->forms);
	sd->memo = NULL;
	sd->forms = NULL;
	sd->memo_n = sd->forms_len = sd->forms_cap = sd->memo_bytes = 0;
	sd->memo_mask = 0;
}

/* Keep a copy of 'r' for the key in sd->key (nc bytes); false when out
 * of memory (the memo is then empty, never half-made). Past MEMO_BYTES in
 * all (keys, table, results) it starts again. */
static bool memo_add(struct solver *s, size_t nc, const struct dis_result *r)
{
	struct sdis *sd = &s->sd;
	size_t cost = nc + 2 * sizeof *sd->memo +
	              (r->verdict == DIS_APART
	               ? sizeof *r + r->nmoves * sizeof *r->moves : 0);
	if (sd->memo_bytes + cost > MEMO_BYTES)
		memo_reset(sd);
	if (2 * (sd->memo_n + 1) > (sd->memo ? sd->memo_mask + 1 : 0)) {
		size_t ncap = sd->memo ? 2 * (sd->memo_mask + 1) : 256;
		struct memo_ent *nm = calloc(ncap, sizeof *nm);
		if (!nm) {
			memo_reset(sd);
			return false;
		}
		for (size_t i = 0; sd->memo && i <= sd->memo_mask; i++) {
			if (!sd->memo[i].used)
				continue;
			size_t j = sd->memo[i].hash & (ncap - 1);
			while (nm[j].used)
				j = (j + 1) & (ncap - 1);
			nm[j] = sd->memo[i];
		}
		free(sd->memo);
		sd->memo = nm;
		sd->memo_mask = ncap - 1;
	}
	if (sd->forms_len + nc > sd->forms_cap) {
		size_t ncap = sd->forms_cap ? 2 * sd->forms_cap : 4096;
		while (ncap < sd->forms_len + nc)
			ncap *= 2;
		unsigned char *nf = realloc(sd->forms, ncap);
		if (!nf) {
			memo_reset(sd);
			return false;
		}
		sd->forms = nf;
		sd->forms_cap = ncap;
	}
	struct dis_result *copy = NULL;
	if (r->verdict == DIS_APART) {
		copy = malloc(sizeof *copy);
		if (copy) {
			*copy = *r;
			copy->moves = r->nmoves ? malloc(r->nmoves * sizeof *r->moves)
			                        : NULL;
		}
		if (!copy || (r->nmoves && !copy->moves)) {
			free(copy);
			memo_reset(sd);
			return false;
		}
		if (r->nmoves)
			memcpy(copy->moves, r->moves, r->nmoves * sizeof *r->moves);
	}
	uint64_t h = key_hash(sd->key, nc);
	size_t i = h & sd->memo_mask;
	while (sd->memo[i].used)
		i = (i + 1) & sd->memo_mask;
	memcpy(sd->forms + sd->forms_len, sd->key, nc);
	sd->memo[i] = (struct memo_ent){.used = true, .hash = h, .len = nc,
	                                .off = sd->forms_len,
	                                .verdict = (unsigned char)r->verdict,
	                                .apart = copy};
	sd->forms_len += nc;
	sd->memo_bytes += cost;
	sd->memo_n++;
	return true;
}

/* The disassembler's shape of row r (its cells with their box corner
 * at the origin, in goal order: x fastest) and that corner, kept per
 * row while the disassembler's shapes last (sdis.rshape): covers share
 * most rows. DIS_OK, or dis_shape()'s error. */
static int row_shape(struct solver *s, size_t r)
{
	struct sdis *sd = &s->sd;
	const struct grid *g = &s->p->goal;
	size_t nx = (size_t)g->nx, ny = (size_t)g->ny;
	int16_t (*c)[3] = sd->rcell;
	size_t n = 0;
	int16_t lo[3] = {INT16_MAX, INT16_MAX, INT16_MAX};
	for (size_t i = s->roff[r]; i < s->roff[r + 1]; i++, n++) {
		size_t at = s->goal_cell[s->rcells[i]];
		c[n][0] = (int16_t)(at % nx);
		c[n][1] = (int16_t)(at / nx % ny);
		c[n][2] = (int16_t)(at / nx / ny);
		for (int a = 0; a < 3; a++)
			lo[a] = c[n][a] < lo[a] ? c[n][a] : lo[a];
	}
	for (size_t i = 0; i < n; i++)
		for (int a = 0; a < 3; a++)
			c[i][a] = (int16_t)(c[i][a] - lo[a]);
	int rc = dis_shape(sd->dis, (const int16_t (*)[3])c, n, &sd->rshape[r]);
	if (rc != DIS_OK)
		return rc;
	memcpy(sd->rlo[r], lo, sizeof lo);
	sd->repoch[r] = dis_shape_epoch(sd->dis) + 1;
	return DIS_OK;
}

/* The shapes and box corners of the cover's pieces, for
 * dis_never_free_shapes(): DIS_OK, DIS_ENOMEM, DIS_ETOOBIG. */
static int cover_shapes(struct solver *s, const size_t *rows, size_t n,
                        uint32_t *shape, int16_t (*lo)[3])
{
	struct sdis *sd = &s->sd;
	/* a shape made may forget the others (past 65,536): then again,
	 * once (a cover's shapes fit many times over) */
	for (;;) {
		uint32_t ep = dis_shape_epoch(sd->dis) + 1;
		for (size_t i = 0; i < n; i++) {
			size_t r = rows[i];
			if (sd->repoch[r] != ep) {
				int rc = row_shape(s, r);
				if (rc != DIS_OK)
					return rc;
			}
			shape[i] = sd->rshape[r];
			memcpy(lo[i], sd->rlo[r], sizeof lo[i]);
		}
		if (dis_shape_epoch(sd->dis) + 1 == ep)
			return DIS_OK;
	}
}

/* Whether to look first for no separation anywhere, on the cover as
 * it is (dis_never_free_shapes()): while that has been the answer at
 * least half the time, and on every 64th cover anyway. Where nearly every
 * solution is stuck (Gargamel, two face 3) it saves the least form and
 * the memo; where they come apart (Soma) it costs a set-up now and
 * then. Either way the counts are the same. */
static bool walk_first(struct sdis *sd)
{
	return 2 * sd->walk_stuck >= sd->walks || sd->covers % 64 == 0;
}

/* dis_run() of the cover's least form (symmetry k, its pieces numbered
 * by sd->q_of as BurrTools numbers them). When that form is the cover
 * as found (k 0: always on a goal with no symmetry), from the pieces'
 * shapes as the rows keep them; else from labels on the goal's box. */
static int take_apart(struct solver *s, const size_t *rows, size_t n, int k,
                      const int *weight, const unsigned *group,
                      struct dis_result *r)
{
	struct sdis *sd = &s->sd;
	if (k == 0) {
		uint32_t shape[DIS_MAX_PIECES], qshape[DIS_MAX_PIECES];
		int16_t lo[DIS_MAX_PIECES][3], qlo[DIS_MAX_PIECES][3];
		int rc = cover_shapes(s, rows, n, shape, lo);
		if (rc != DIS_OK)
			return rc;
		for (size_t i = 0; i < n; i++) {
			size_t q = sd->q_of[sd->best_rank[i]];
			qshape[q] = shape[i];
			memcpy(qlo[q], lo[i], sizeof qlo[q]);
		}
		return dis_run_shapes(sd->dis, n, qshape,
		                      (const int16_t (*)[3])qlo, weight, group, r);
	}
	size_t nc = s->ncells;
	for (size_t c = 0; c < nc; c++)
		sd->clabels[s->goal_cell[c]] = sd->key[c]
		        ? (unsigned char)(sd->q_of[sd->key[c] - 1] + 1) : 0;
	const struct grid *g = &s->p->goal;
	return dis_run(sd->dis, g->nx, g->ny, g->nz, sd->clabels, n, weight,
	               group, r);
}

int sdis_cover(struct solver *s, const size_t *rows, size_t n, int *kind)
{
	struct sdis *sd = &s->sd;
	if (n > DIS_MAX_PIECES) {
		*kind = SDIS_UNDECIDED;
		return SOLVE_OK;
	}
	size_t nc = s->ncells;
	for (size_t c = 0; c < nc; c++)
		sd->owner[c] = -1;
	for (size_t i = 0; i < n; i++)
		for (size_t c = s->roff[rows[i]]; c < s->roff[rows[i] + 1]; c++)
			sd->owner[s->rcells[c]] = (int32_t)i;
	/* BurrTools takes no assembly of one piece for a solution: its
	 * disassembler has nothing to answer for it */
	if (n < 2) {
		*kind = SDIS_STUCK;
		return SOLVE_OK;
	}
	sd->covers++;
	if (walk_first(sd)) {
		/* no separation anywhere is the same verdict in every form:
		 * the least one is not needed (nor the memo, keyed by it) */
		uint32_t shape[DIS_MAX_PIECES];
		int16_t lo[DIS_MAX_PIECES][3];
		bool stuck = false;
		uint64_t nodes = 0;
		int rc = cover_shapes(s, rows, n, shape, lo);
		if (rc == DIS_OK)
			rc = dis_never_free_shapes(sd->dis, n, shape,
			                           (const int16_t (*)[3])lo, &stuck,
			                           &nodes);
		if (rc == DIS_ENOMEM)
			return SOLVE_ENOMEM;
		sd->walks++;
		if (rc == DIS_OK && stuck) {
			sd->walk_stuck++;
			sd->nodes += nodes;
			sd->runs++;
			*kind = SDIS_STUCK;
			return SOLVE_OK;
		}
	}
	for (size_t i = 0; s->coloured && i < n; i++)
		sd->btype[i] = s->rtype[rows[i]];
	int k = least_form(s, n);
	assert(k >= 0);
	sd->form_k = k;
	/* The pieces numbered as BurrTools numbers them: in the order of the
	 * puzzle's pieces (by type, the file order of its first piece),
	 * copies of one type by where they first appear in the form; each
	 * with its puzzle piece, weight and group. */
	struct solve_moves *m = &sd->cur;
	size_t type_of[DIS_MAX_PIECES], byq[DIS_MAX_PIECES];
	/* an improper symmetry makes each piece its mirror image: the form
	 * holds pieces of the mirror types (the set is mirror-closed then) */
	bool improper = !poly_sym_proper(s->group[k]);
	for (size_t i = 0; i < n; i++) {
		size_t t = s->rtype[rows[i]];
		type_of[sd->best_rank[i]] = improper ? s->types[t].mirror : t;
	}
	for (size_t r = 0; r < n; r++) {
		size_t at = r;
		while (at > 0 && type_of[byq[at - 1]] > type_of[r]) {
			byq[at] = byq[at - 1];
			at--;
		}
		byq[at] = r;
	}
	memset(s->copies_used, 0, s->ntypes * sizeof *s->copies_used);
	int weight[DIS_MAX_PIECES];
	unsigned group[DIS_MAX_PIECES];
	for (size_t q = 0; q < n; q++) {
		size_t t = type_of[byq[q]];
		size_t piece = solve_copy_piece(s, t, s->copies_used[t]++);
		sd->q_of[byq[q]] = (unsigned char)q;
		m->piece[q] = (uint16_t)piece;
		int w = s->p->pieces[piece].weight;
		weight[q] = w ? w : 1;
		group[q] = s->p->pieces[piece].group;
	}
	struct dis_result r;
	size_t klen = make_key(s, n, type_of, weight, group);
	int rc = memo_find(s, klen, &r);
	if (rc == SOLVE_ENOMEM)
		return rc;
	if (rc != SOLVE_OK) {
		rc = take_apart(s, rows, n, k, s->dis_traits ? weight : NULL,
		                s->dis_traits ? group : NULL, &r);
		if (rc == DIS_OK) {
			sd->nodes += r.nodes;
			sd->runs++;
		}
		if (rc == DIS_ENOMEM || (rc == DIS_OK && !memo_add(s, klen, &r))) {
			if (rc == DIS_OK)
				dis_result_clear(&r);
			return SOLVE_ENOMEM;
		}
		if (rc != DIS_OK) {
			*kind = SDIS_UNDECIDED;
			return SOLVE_OK;
		}
	}
	if (r.verdict != DIS_APART) {
		*kind = r.verdict == DIS_STUCK ? SDIS_STUCK : SDIS_UNDECIDED;
		dis_result_clear(&r);
		return SOLVE_OK;
	}
	int first = r.nlevel ? r.level[0] : 0;
	*kind = (unsigned)first < s->o->min_level ? SDIS_BELOW : SDIS_COUNT;

	/* The moves, of the form (the solution as shown: sdis_show) */
	free(m->moves);
	m->moves = r.moves;
	m->nmoves = r.nmoves;
	m->nlevel = r.nlevel;
	m->npieces = n;
	memcpy(m->level, r.level, r.nlevel * sizeof *m->level);
	return SOLVE_OK;
}

void sdis_show(struct solver *s, unsigned char *labels, unsigned char *colours)
{
	struct sdis *sd = &s->sd;
	size_t nc = s->ncells;
	const int32_t *inv = s->cellmap + (size_t)s->group_inv[sd->form_k] * nc;
	if (colours) {
		/* the colour on form cell c is the cover's on cell inv(c) */
		for (size_t c = 0; c < nc; c++)
			sd->clabels[s->goal_cell[c]] = colours[s->goal_cell[inv[c]]];
		for (size_t c = 0; c < nc; c++)
			colours[s->goal_cell[c]] = sd->clabels[s->goal_cell[c]];
	}
	for (size_t c = 0; c < nc; c++) {
		int32_t b = sd->best[c] % FORM_RANKS;
		labels[s->goal_cell[c]] = b ? (unsigned char)(sd->cur.piece[
		        sd->q_of[b - 1]] + 1 > 255 ? 255
		        : sd->cur.piece[sd->q_of[b - 1]] + 1) : 0;
	}
}

bool sdis_tally(struct solver *s, int kind, uint64_t num)
{
	struct sdis *sd = &s->sd;
	uint64_t *sum = kind == SDIS_STUCK ? &sd->stuck
	              : kind == SDIS_UNDECIDED ? &sd->undecided
	              : kind == SDIS_BELOW ? &sd->below : NULL;
	if (sum) {
		if (__builtin_add_overflow(*sum, num, sum))
			s->overflow = true;
		return !s->overflow;
	}
	int c = sd->have_max ? dis_level_cmp(sd->cur.level, sd->cur.nlevel,
	                                     sd->max.level, sd->max.nlevel)
	                     : 1;
	if (c == 0 && __builtin_add_overflow(sd->max_num, num, &sd->max_num))
		s->overflow = true;
	if (c > 0) {
		struct solve_moves m;
		if (solve_moves_copy(&m, &sd->cur) != SOLVE_OK) {
			s->oom = true;
			return false;
		}
		solve_moves_clear(&sd->max);
		sd->max = m;
		sd->max_num = num;
		sd->max_task = s->task;
		sd->have_max = true;
	}
	return !s->overflow;
}

bool sdis_add(struct solver *s, struct solver *w)
{
	struct sdis *a = &s->sd, *b = &w->sd;
	a->nodes += b->nodes;
	a->runs += b->runs;
	if (__builtin_add_overflow(a->stuck, b->stuck, &a->stuck) ||
	    __builtin_add_overflow(a->undecided, b->undecided, &a->undecided) ||
	    __builtin_add_overflow(a->below, b->below, &a->below))
		return false;
	if (!b->have_max)
		return true;
	int c = a->have_max ? dis_level_cmp(b->max.level, b->max.nlevel,
	                                    a->max.level, a->max.nlevel)
	                    : 1;
	if (c == 0) {
		if (__builtin_add_overflow(a->max_num, b->max_num, &a->max_num))
			return false;
		if (b->max_task < a->max_task) {
			struct solve_moves t = a->max;
			a->max = b->max;
			b->max = t;
			a->max_task = b->max_task;
		}
	} else if (c > 0) {
		struct solve_moves t = a->max;
		a->max = b->max;
		b->max = t;
		a->max_num = b->max_num;
		a->max_task = b->max_task;
		a->have_max = true;
	}
	return true;
}

void sdis_result(struct solver *s, struct solve_result *res)
{
	struct sdis *sd = &s->sd;
	uint64_t div = res->divisor ? res->divisor : 1;
	res->disassembled = true;
	res->stuck_num = sd->stuck;
	res->undecided_num = sd->undecided;
	res->below_num = sd->below;
	res->stuck = sd->stuck / div;
	res->undecided = sd->undecided / div;
	res->below_min = sd->below / div;
	res->dis_nodes = sd->nodes;
	res->dis_runs = sd->runs;
	if (sd->have_max) {
		res->hardest_moves = sd->max;
		memset(&sd->max, 0, sizeof sd->max);
		res->max_level_num = sd->max_num;
		res->max_level_solutions = sd->max_num / div;
		res->max_level_task = sd->max_task;
	}
}
