/*
 * recolour.c: counting solutions up to symmetries and renamings of colours
 * (solve_opts.rename_colours, DESIGN.md §2).
 *
 * Γ is the group of pairs (g, π): g one of the 48 symmetries of the
 * lattice, π a permutation of the colours the puzzle uses, such that
 * (g, π) maps the puzzle onto itself: g maps the goal's cells, optional
 * marks and set of distinct regions onto themselves; the goal's colour at
 * g(c) is π of its colour at c; renaming the pieces' colours by π (and
 * mirroring them when g is improper) keeps the multiset of types with
 * their ranges of copies; and π keeps the match table (every entry
 * between colours the puzzle uses, whether or not a cell can meet it, so
 * that R below contains the swaps of twin colours). Γ acts on
 * assemblies (each piece moved by g, its colours renamed by π), and the
 * number of orbits is
 *
 *     sum over assemblies x of |Stab_Γ(x)| / |Γ|
 *
 * (each orbit O adds |O| * |Γ|/|O| / |Γ| = 1). The search visits covers y
 * that each stand for W(y) assemblies, all images of y under Γ (the
 * pinned piece's symmetries are in G ⊆ Γ, renamings of interchangeable
 * colours in Γ), so with the same stabiliser order: solve.c adds
 * W(y) * |Stab_Γ(y)| for every cover and divides by |Γ| at the end.
 *
 * Counting permutations. For a fixed g the valid π form a coset of
 * R = {π : (e, π) in Γ}. R contains every swap of two twin colours
 * (solve.c: interchangeable colours), so the set V of valid π that extend
 * any partial map (the colours a cover or the goal forces) is closed under
 * permuting, within each twin class, the colours the partial map leaves
 * free. So |V| is the number of valid π that are increasing on the free
 * colours of each class, times the product of (free colours in the
 * class)!. Those few are found by backtracking over the free colours,
 * each allowed only images with the same invariant (sig: the types it
 * occurs in, untagged and with their counts, and its part in the goal and
 * the match table), and checked in full at the leaves.
 *
 * solve.c calls recolour_setup(), recolour_stab() and recolour_free();
 * this file calls back solve_cell_map(), solve_keeps_regions(),
 * solve_match_kept() and solve_types_kept() (solve_int.h). The loop is
 * the simplest shape: solve.c needs those tests for G and the twin
 * colours even when colours are not renamed, so they stay there.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver/solve_int.h"

#define UNFORCED 0xff

/* ---- invariants ------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Untagged canonical forms of every type and of its mirror image, as
 * small ids (equal ids, congruent shapes): into ucanon[t] and umirror[t]. */
static int shape_ids(const struct solver *s, size_t *ucanon, size_t *umirror)
{
	size_t n = 2 * s->ntypes;
	struct shape *forms = calloc(n ? n : 1, sizeof *forms);
	if (!forms)
		return SOLVE_ENOMEM;
	int rc = SOLVE_OK;
	size_t made = 0;
	for (size_t t = 0; t < s->ntypes && rc == SOLVE_OK; t++) {
		const struct shape *in = &s->types[t].shape;
		struct shape bare = {in->n, malloc((in->n ? in->n : 1) * sizeof *bare.cells)};
		struct shape m = {0, NULL};
		if (!bare.cells) {
			rc = SOLVE_ENOMEM;
			break;
		}
		for (size_t i = 0; i < in->n; i++)
			bare.cells[i] = in->cells[i] & ~(uint32_t)0xff;
		if (poly_canonical(&bare, &forms[made]) != POLY_OK)
			rc = SOLVE_ENOMEM;
		else if (made++, poly_transform(&bare, 1, &m) != POLY_OK)
			rc = SOLVE_ENOMEM;
		else if (poly_canonical(&m, &forms[made]) != POLY_OK)
			rc = SOLVE_ENOMEM;
		else
			made++;
		poly_shape_clear(&bare);
		poly_shape_clear(&m);
	}
	for (size_t t = 0; t < s->ntypes && rc == SOLVE_OK; t++)
		for (int k = 0; k < 2; k++) {
			size_t id = 0;
			while (!poly_equal(&forms[id], &forms[2 * t + (size_t)k]))
				id++;
			(k ? umirror : ucanon)[t] = id;
		}
	poly_shapes_free(forms, made);
	return rc;
}

/* sig[m][c]: a hash of what a renaming must keep about colour c, with the
 * types mirrored when m = 1. Equal invariants are necessary for π(c) = c'
 * with a proper (m = 0) or improper (m = 1) g; a hash only loses pruning
 * on a collision, never a permutation. */
static int make_sigs(struct solver *s)
{
	size_t *ucanon = malloc((s->ntypes ? s->ntypes : 1) * sizeof *ucanon);
	size_t *umirror = malloc((s->ntypes ? s->ntypes : 1) * sizeof *umirror);
	uint64_t *keys = malloc((s->ntypes ? s->ntypes : 1) * sizeof *keys);
	int rc = ucanon && umirror && keys ? shape_ids(s, ucanon, umirror)
	                                   : SOLVE_ENOMEM;
	for (int m = 0; m < 2 && rc == SOLVE_OK; m++)
		for (int c = 1; c <= PUZ_NCOLOURS; c++) {
			if (!(s->all_colours >> c & 1))
				continue;
			size_t nk = 0;
			for (size_t t = 0; t < s->ntypes; t++) {
				const struct type *ty = &s->types[t];
				if (!(ty->cmask >> c & 1))
					continue;
				uint64_t cells = 0;
				for (size_t i = 0; i < ty->shape.n; i++)
					cells += poly_tag(ty->shape.cells[i]) == c;
				keys[nk++] = ((uint64_t)(m ? umirror : ucanon)[t] << 40) ^
				             ((uint64_t)ty->lo << 28) ^
				             ((uint64_t)ty->count << 16) ^ cells;
			}
			qsort(keys, nk, sizeof *keys, cmp_u64);
			uint64_t h = 1469598103934665603u;
			h = (h ^ (s->goal_colours >> c & 1)) * 1099511628211u;
			if (s->p->has_match) {
				int row = __builtin_popcount(s->p->match[c] & s->all_colours);
				int col = 0;
				for (int p = 1; p <= PUZ_NCOLOURS; p++)
					col += (s->all_colours >> p & 1) &&
					       (s->p->match[p] >> c & 1);
				h = (h ^ (uint64_t)(row * 64 + col)) * 1099511628211u;
			}
			for (size_t k = 0; k < nk; k++)
				h = (h ^ keys[k]) * 1099511628211u;
			s->sig[m][c] = h;
		}
	free(ucanon);
	free(umirror);
	free(keys);
	return rc;
}

/* ---- permutations ----------------------------------------------------- */

struct count_ctx {
	struct solver *s;
	bool mirror;
	unsigned char perm[PUZ_NCOLOURS + 1];
	int freecol[PUZ_NCOLOURS]; /* the colours to assign, ascending */
	int nfree;
	uint32_t taken;            /* images used */
	uint64_t found;
	uint64_t *steps;           /* of all count_perms() calls so far */
	int rc;
};

static void assign(struct count_ctx *k, int i)
{
	if (k->rc != SOLVE_OK)
		return;
	if (++*k->steps > SOLVE_MAX_RENAMES) {
		k->rc = SOLVE_ERENAMES;
		return;
	}
	struct solver *s = k->s;
	if (i == k->nfree) {
		bool kept = solve_match_kept(s, k->perm);
		if (kept)
			k->rc = solve_types_kept(s, k->perm, k->mirror, &kept);
		k->found += kept;
		return;
	}
	int c = k->freecol[i];
	/* increasing within c's twin class: above the image of the last
	 * free colour of the class before c */
	int floor = 0;
	for (int j = 0; j < i; j++)
		if (s->twin_class[c] >> k->freecol[j] & 1)
			floor = k->perm[k->freecol[j]];
	for (int d = floor + 1; d <= PUZ_NCOLOURS; d++) {
		if (!(s->all_colours >> d & 1) || (k->taken >> d & 1) ||
		    s->sig[0][d] != s->sig[k->mirror][c])
			continue;
		k->perm[c] = (unsigned char)d;
		k->taken |= (uint32_t)1 << d;
		assign(k, i + 1);
		k->taken &= ~((uint32_t)1 << d);
	}
}

/* The number of π extending 'force' (UNFORCED where free) with (g, π) in
 * Γ, g proper unless 'mirror' (its cells already checked), into '*out';
 * 0 when the forced part is not a partial permutation. '*steps' counts
 * the search's steps, over all calls: SOLVE_ERENAMES past the limit. */
static int count_perms(struct solver *s, const unsigned char *force,
                       bool mirror, uint64_t *steps, uint64_t *out)
{
	struct count_ctx k = {.s = s, .mirror = mirror, .steps = steps};
	*out = 0;
	for (int c = 0; c <= PUZ_NCOLOURS; c++)
		k.perm[c] = (unsigned char)c;
	for (int c = 1; c <= PUZ_NCOLOURS; c++) {
		if (!(s->all_colours >> c & 1))
			continue;
		if (force[c] == UNFORCED) {
			k.freecol[k.nfree++] = c;
			continue;
		}
		if (!(s->all_colours >> force[c] & 1) || (k.taken >> force[c] & 1) ||
		    s->sig[0][force[c]] != s->sig[mirror][c])
			return SOLVE_OK;
		k.perm[c] = force[c];
		k.taken |= (uint32_t)1 << force[c];
	}
	assign(&k, 0);
	if (k.rc != SOLVE_OK)
		return k.rc;
	/* times (free colours of each twin class)! */
	uint64_t total = k.found;
	uint32_t done = 0;
	for (int i = 0; i < k.nfree; i++) {
		int c = k.freecol[i];
		if (done >> c & 1)
			continue;
		uint32_t cls = s->twin_class[c];
		uint64_t f = 0;
		for (int j = 0; j < k.nfree; j++)
			if (cls >> k.freecol[j] & 1) {
				f++;
				if (__builtin_mul_overflow(total, f, &total))
					return SOLVE_EOVERFLOW;
			}
		done |= cls;
	}
	*out = total;
	return SOLVE_OK;
}

/* ---- Γ ------------------------------------------------------------------ */

/* Merge 'want' (the image of colour a is b) into 'force'; false when it
 * contradicts it (plain must stay plain). */
static bool force_pair(unsigned char *force, int a, int b)
{
	if (a == 0 || b == 0)
		return a == b;
	if (force[a] == UNFORCED)
		force[a] = (unsigned char)b;
	return force[a] == b;
}

int recolour_setup(struct solver *s)
{
	const struct grid *g = &s->p->goal;
	size_t nc = s->ncells ? s->ncells : 1;
	s->geo_map = malloc((size_t)POLY_NSYM * nc * sizeof *s->geo_map);
	s->owner = malloc(nc * sizeof *s->owner);
	s->pcol = malloc(nc);
	unsigned char *mark = calloc(nc, 1);
	int rc = s->geo_map && s->owner && s->pcol && mark ? make_sigs(s)
	                                                  : SOLVE_ENOMEM;
	s->gamma_order = 0;
	uint64_t steps = 0;
	for (int sym = 0; sym < POLY_NSYM && rc == SOLVE_OK; sym++) {
		int32_t *map = s->geo_map + (size_t)sym * nc;
		unsigned char *force = s->goal_force[sym];
		memset(force, UNFORCED, sizeof s->goal_force[sym]);
		bool ok = solve_cell_map(s, sym, map);
		for (size_t i = 0; i < s->ncells && ok; i++) {
			unsigned char a = g->cells[s->goal_cell[i]];
			unsigned char b = g->cells[s->goal_cell[map[i]]];
			ok = puz_cell_optional(a) == puz_cell_optional(b) &&
			     force_pair(force, puz_cell_colour(a), puz_cell_colour(b));
		}
		if (ok && s->ndreg)
			ok = solve_keeps_regions(s, map, mark);
		uint64_t n = 0;
		if (ok)
			rc = count_perms(s, force, !poly_sym_proper(sym), &steps,
			                 &n);
		s->geo_ok[sym] = ok && n > 0;
		if (rc == SOLVE_OK &&
		    __builtin_add_overflow(s->gamma_order, n, &s->gamma_order))
			rc = SOLVE_EOVERFLOW;
	}
	free(mark);
	/* the identity with the identity renaming is always there */
	assert(rc != SOLVE_OK || s->geo_ok[0]);
	return rc;
}

int recolour_stab(struct solver *s, const size_t *rows, size_t n,
                  uint64_t *stab)
{
	size_t nc = s->ncells ? s->ncells : 1;
	for (size_t c = 0; c < s->ncells; c++) {
		s->owner[c] = -1;
		s->pcol[c] = 0;
	}
	for (size_t k = 0; k < n; k++)
		for (size_t c = s->roff[rows[k]]; c < s->roff[rows[k] + 1]; c++) {
			s->owner[s->rcells[c]] = (int32_t)k;
			s->pcol[s->rcells[c]] = s->rcol ? s->rcol[c] : 0;
		}
	*stab = 0;
	for (int sym = 0; sym < POLY_NSYM; sym++) {
		if (!s->geo_ok[sym])
			continue;
		const int32_t *map = s->geo_map + (size_t)sym * nc;
		unsigned char force[PUZ_NCOLOURS + 1];
		memcpy(force, s->goal_force[sym], sizeof force);
		/* g must map each piece's cells onto one piece's cells, and
		 * the colours on them must correspond by one renaming */
		bool ok = true;
		for (size_t k = 0; k < n && ok; k++) {
			size_t r = rows[k];
			size_t len = s->roff[r + 1] - s->roff[r];
			int32_t o = s->owner[map[s->rcells[s->roff[r]]]];
			ok = o >= 0 &&
			     s->roff[rows[o] + 1] - s->roff[rows[o]] == len;
			for (size_t c = s->roff[r]; c < s->roff[r + 1] && ok; c++) {
				uint32_t a = s->rcells[c];
				int32_t b = map[a];
				ok = s->owner[b] == o &&
				     force_pair(force, s->pcol[a], s->pcol[b]);
			}
		}
		if (!ok)
			continue;
		/* a subtree of recolour_setup()'s search, within its limit */
		uint64_t cnt, steps = 0;
		int rc = count_perms(s, force, !poly_sym_proper(sym), &steps,
		                     &cnt);
		if (rc != SOLVE_OK)
			return rc;
		if (__builtin_add_overflow(*stab, cnt, stab))
			return SOLVE_EOVERFLOW;
	}
	assert(*stab >= 1); /* the identity fixes every cover */
	return SOLVE_OK;
}

void recolour_free(struct solver *s)
{
	free(s->geo_map);
	free(s->owner);
	free(s->pcol);
}
