/*
 * xmbuild.c: the BurrTools reader, semantic half: one problem of a
 * document read by xmread.c, as a struct puzzle with cubegen's meaning
 * (DESIGN.md §2), such that cubegen counts what BurrTools' assembler
 * counts as assemblies (lib/assembler_1.cpp, lib/problem.cpp).
 *
 * - The problem's result shape is the goal, in its own box (so cells
 *   keep BurrTools' coordinates): '#' a cell (PUZ_CELL, or PUZ_CELL + c
 *   with colour c), '+' an optional cell (PUZ_OPTIONAL, or PUZ_OPTIONAL +
 *   c with colour c): filled or not, by a piece voxel that matches its
 *   colour as on a filled voxel (BurrTools checks a piece voxel's colour
 *   against the result voxel's whatever its state).
 * - Each <shape> of the problem is a piece, cut to the box of its voxels.
 *   count="K" is count K; min..max a range (min = max is a plain count);
 *   a piece that may be used 0 times at most is left out. It is named
 *   after the shape's name (spaces and other characters a .puz name
 *   cannot have become '_'), or "S<id+1>" as BurrTools shows it when
 *   unnamed or when the name is taken.
 * - Colours: <color> c (1-based) is colour letter c, with its RGB as the
 *   display colour. BurrTools lets a piece voxel of colour p lie on a
 *   result voxel of colour r when either is 0 (neutral) or the pair
 *   (p-1, r-1) is in the problem's <bitmap>. Pairs whose piece colour no
 *   piece uses, or whose result colour the result does not use, change
 *   nothing and are dropped (the .puz writer needs every entry used);
 *   what is left is cubegen's match table, exactly. When nothing is left
 *   but some colour is on both sides, no coloured piece voxel may lie on
 *   a coloured result voxel; a match table cannot say that (it needs an
 *   entry), so the result's colours that pieces also use take fresh
 *   letters, and "each colour matches only itself" then matches nothing.
 * - The problem's name is the puzzle's name (control characters become
 *   spaces; cut to PUZ_MAX_TITLE bytes).
 *
 * Refused (PUZ_EPARSE at the element): a problem without <result> or
 * without pieces; a piece with variable voxels (BurrTools' own solver
 * refuses them) or with no voxel; shapes past cubegen's limits
 * (PUZ_MAX_DIM a side and PUZ_MAX_CELLS voxels, after cutting pieces to
 * their voxels); a piece larger than the result; more than PUZ_MAX_PIECES
 * pieces counting copies (a range at its most); maxHoles where it would
 * limit anything (with piece ranges and more variable voxels than it);
 * more colours than letters after the renaming above.
 *
 * Counted differently: BurrTools tells the parts of a problem apart even
 * when their shapes are congruent (two shape ids, or one shape listed
 * twice), so assemblies that swap them count as different there and as
 * one here. With piece ranges BurrTools pairs each chiral piece with a
 * mirror image in the problem's order, one copy after another, and stops
 * at the first copy left without one (assembler_1.cpp); an assembly using
 * copies it did not pair then meets its mirror image as a different one
 * there, where cubegen, whose rule does not depend on the order, counts
 * the two once. xmp_info.differs says either; the counts of other
 * problems agree.
 *
 * Taken apart differently (xmp_info.dis_differs): of a part that does not
 * come apart, BurrTools' disassembler (disassembler_a.cpp) asks first
 * whether all its pieces are in one group, as cubegen does, and then a
 * second time through its grouping_c, which it filled by shape number but
 * asks by the part's place in the problem's list: a piece is looked up as
 * the shape whose number is its place (with the result as shape 0 and the
 * pieces after it in order, as the shape listed before it). Where that
 * lets a part pass for one group whose pieces are not all in one group
 * (group_lookup()), an assembly stuck here may count as a solution there.
 */
#include "formats/xmread_int.h"

#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "solver/poly.h"

/* The sides of 'box' as ints when within cubegen's limits. */
static bool box_ok(const uint64_t box[3], int d[3])
{
	uint64_t n = 1;

	for (int i = 0; i < 3; i++) {
		if (box[i] < 1 || box[i] > PUZ_MAX_DIM)
			return false;
		n *= box[i];
		d[i] = (int)box[i];
	}
	return n <= PUZ_MAX_CELLS;
}

static int fail_box(const struct xshape *s, size_t id, const char *role,
                    const uint64_t box[3], struct puz_error *err)
{
	return fmt_fail(err, s->line, s->col,
	                "<voxel> (shape S%zu, %s): %llu x %llu x %llu; "
	                "cubegen takes 1..%d a side and %d voxels in all",
	                id + 1, role, (unsigned long long)box[0],
	                (unsigned long long)box[1], (unsigned long long)box[2],
	                PUZ_MAX_DIM, PUZ_MAX_CELLS);
}

/* The result shape as the goal. */
static int make_goal(const struct xdoc *d, size_t id, struct grid *g,
                     struct puz_error *err)
{
	const struct xshape *s = &d->shapes[id];
	int dim[3];

	if (!box_ok(s->dim, dim))
		return fail_box(s, id, "the result", s->dim, err);
	if (puz_grid_init(g, dim[0], dim[1], dim[2]) != PUZ_OK)
		return fmt_fail_nomem(err);
	for (size_t i = 0; i < s->n; i++) {
		int st = XV_STATE(s->v[i]), c = XV_COLOUR(s->v[i]);

		if (st == XV_FILLED) {
			g->cells[i] = (unsigned char)(PUZ_CELL + c);
		} else if (st == XV_VARIABLE) {
			g->cells[i] = (unsigned char)(PUZ_OPTIONAL + c);
		}
	}
	if (puz_grid_volume(g) == 0)
		return fmt_fail(err, s->line, s->col,
		                "<voxel> (shape S%zu, the result): no filled "
		                "or variable voxel",
		                id + 1);
	return PUZ_OK;
}

/* Shape 'id' as a piece, cut to the box of its voxels. */
static int make_piece(const struct xdoc *d, size_t id, struct grid *g,
                      struct puz_error *err)
{
	const struct xshape *s = &d->shapes[id];
	uint64_t lo[3] = {UINT64_MAX, UINT64_MAX, UINT64_MAX}, hi[3] = {0};
	uint64_t box[3];
	int dim[3];

	for (size_t i = 0; i < s->n; i++) {
		uint64_t at[3] = {i % s->dim[0], i / s->dim[0] % s->dim[1],
		                  i / s->dim[0] / s->dim[1]};

		if (XV_STATE(s->v[i]) == XV_EMPTY)
			continue;
		if (XV_STATE(s->v[i]) == XV_VARIABLE)
			return fmt_fail(err, s->line, s->col,
			                "<voxel> (shape S%zu, a piece): a "
			                "variable voxel at (%llu, %llu, %llu); "
			                "cubegen reads them in the result only "
			                "(BurrTools' solver takes one in a piece "
			                "as empty)",
			                id + 1, (unsigned long long)at[0],
			                (unsigned long long)at[1],
			                (unsigned long long)at[2]);
		for (int k = 0; k < 3; k++) {
			lo[k] = at[k] < lo[k] ? at[k] : lo[k];
			hi[k] = at[k] > hi[k] ? at[k] : hi[k];
		}
	}
	if (lo[0] == UINT64_MAX)
		return fmt_fail(err, s->line, s->col,
		                "<voxel> (shape S%zu, a piece): no filled "
		                "voxel",
		                id + 1);
	for (int k = 0; k < 3; k++)
		box[k] = hi[k] - lo[k] + 1;
	if (!box_ok(box, dim))
		return fail_box(s, id, "a piece", box, err);
	if (puz_grid_init(g, dim[0], dim[1], dim[2]) != PUZ_OK)
		return fmt_fail_nomem(err);
	for (size_t i = 0; i < s->n; i++) {
		if (XV_STATE(s->v[i]) != XV_FILLED)
			continue;
		g->cells[puz_grid_index(
			g, (int)(i % s->dim[0] - lo[0]),
			(int)(i / s->dim[0] % s->dim[1] - lo[1]),
			(int)(i / s->dim[0] / s->dim[1] - lo[2]))] =
			(unsigned char)(PUZ_CELL + XV_COLOUR(s->v[i]));
	}
	return PUZ_OK;
}

static bool name_taken(const struct puzzle *p, const char *name)
{
	for (size_t i = 0; i < p->npieces; i++)
		if (strcmp(p->pieces[i].name, name) == 0)
			return true;
	return false;
}

/* The name of shape 'id' as the next piece of 'p'. */
static void piece_name(const struct puzzle *p, const struct xshape *s,
                       size_t id, char out[PUZ_MAX_NAME + 1])
{
	size_t n = 0;

	for (const char *c = s->name; c != NULL && *c && n < PUZ_MAX_NAME;
	     c++) {
		unsigned char b = (unsigned char)*c;

		if ((b & 0xC0) == 0x80)
			continue; /* one '_' for a whole UTF-8 character */
		out[n++] = fmt_name_char_ok(*c) ? *c : '_';
	}
	out[n] = '\0';
	if (n > 0 && !name_taken(p, out))
		return;
	snprintf(out, PUZ_MAX_NAME + 1, "S%zu", id + 1);
	for (unsigned k = 2; name_taken(p, out); k++)
		snprintf(out, PUZ_MAX_NAME + 1, "S%zu_%u", id + 1, k);
}

/* The problem's name as a title: control characters become spaces, no
 * space at either end, at most PUZ_MAX_TITLE bytes cut between
 * characters. expat hands over valid UTF-8. */
static void title(const char *name, char out[PUZ_MAX_TITLE + 1])
{
	size_t n = 0, i = 0, b = 0, len = name ? strlen(name) : 0;

	while (i < len) {
		unsigned char c = (unsigned char)name[i];
		size_t k = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
		/* C0 controls, DEL, and C1 controls (C2 80..C2 9F) */
		bool ctl = c < 0x20 || c == 0x7F ||
		           (c == 0xC2 && i + 1 < len &&
		            (unsigned char)name[i + 1] <= 0x9F);

		if (k > len - i)
			k = len - i;
		if (n + (ctl ? 1 : k) > PUZ_MAX_TITLE)
			break;
		if (ctl) {
			out[n++] = ' ';
		} else {
			memcpy(out + n, name + i, k);
			n += k;
		}
		i += k;
	}
	while (n > 0 && out[n - 1] == ' ')
		n--;
	while (b < n && out[b] == ' ')
		b++;
	memmove(out, out + b, n - b);
	out[n - b] = '\0';
}

/* Colours: display colours, the match table, and the renaming of goal
 * colours when no pair is left (see the top of the file). */
static int colours(const struct xdoc *d, const struct xproblem *pr,
                   struct puzzle *p, struct puz_error *err)
{
	uint32_t pused = 0, gused = 0, both, free_;
	unsigned char to[PUZ_NCOLOURS + 1];
	size_t n;
	bool any = false;

	for (size_t c = 1; c <= d->ncolours; c++) {
		p->rgb[c] = d->rgb[c];
		p->rgb_set |= (uint32_t)1 << c;
	}
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *g = &p->pieces[i].shape;

		n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
		for (size_t j = 0; j < n; j++)
			pused |= (uint32_t)1 << puz_cell_colour(g->cells[j]);
	}
	n = (size_t)p->goal.nx * (size_t)p->goal.ny * (size_t)p->goal.nz;
	for (size_t j = 0; j < n; j++)
		gused |= (uint32_t)1 << puz_cell_colour(p->goal.cells[j]);
	pused &= ~(uint32_t)1;
	gused &= ~(uint32_t)1;
	for (int pc = 1; pc <= PUZ_NCOLOURS; pc++) {
		if (!(pused >> pc & 1))
			continue;
		for (int gc = 1; gc <= PUZ_NCOLOURS; gc++)
			if ((gused >> gc & 1) && (pr->allow[pc - 1] >> (gc - 1) & 1)) {
				p->match[pc] |= (uint32_t)1 << gc;
				any = true;
			}
	}
	if (any) {
		p->has_match = true;
		return PUZ_OK;
	}
	both = pused & gused;
	if (both == 0)
		return PUZ_OK; /* no coloured pair can meet at all */
	free_ = ~(pused | gused) & ((uint32_t)0x3FFFFFF << 1);
	for (int c = 0; c <= PUZ_NCOLOURS; c++)
		to[c] = (unsigned char)c;
	for (int c = 1; c <= PUZ_NCOLOURS; c++) {
		int f = 1;

		if (!(both >> c & 1))
			continue;
		while (f <= PUZ_NCOLOURS && !(free_ >> f & 1))
			f++;
		if (f > PUZ_NCOLOURS)
			return fmt_fail(err, pr->line, pr->col,
			                "<problem>: no colour pair may meet, "
			                "which takes more than %d colour "
			                "letters to say",
			                PUZ_NCOLOURS);
		free_ &= ~((uint32_t)1 << f);
		to[c] = (unsigned char)f;
		p->rgb[f] = p->rgb[c];
		p->rgb_set |= (uint32_t)1 << f;
	}
	for (size_t j = 0; j < n; j++) {
		int c = puz_cell_colour(p->goal.cells[j]);

		if (c != 0)
			p->goal.cells[j] = (unsigned char)(
				(puz_cell_optional(p->goal.cells[j]) ? PUZ_OPTIONAL
				                                     : PUZ_CELL) +
				to[c]);
	}
	return PUZ_OK;
}

/* A piece's canonical form and where it came from. */
struct form {
	struct shape s;
	size_t piece;
};

static int cmp_form(const void *a, const void *b)
{
	const struct form *x = a, *y = b;
	int c = poly_compare(&x->s, &y->s);

	if (c != 0)
		return c;
	return (x->piece > y->piece) - (x->piece < y->piece);
}

/* A piece's canonical form into 'canon' and, unless NULL, its mirror
 * image's into 'mirror'. POLY_ENOMEM leaves what was made to clear. */
static int piece_form(const struct puz_piece *pc, struct shape *canon,
                      struct shape *mirror)
{
	struct shape s = {0}, m = {0};
	int s_mirror = 0, rc;

	while (poly_sym_proper(s_mirror))
		s_mirror++;
	rc = poly_from_grid(&pc->shape, &s);
	if (rc == POLY_OK)
		rc = poly_canonical(&s, canon);
	if (rc == POLY_OK && mirror != NULL)
		rc = poly_transform(&s, s_mirror, &m);
	if (rc == POLY_OK && mirror != NULL)
		rc = poly_canonical(&m, mirror);
	poly_shape_clear(&s);
	poly_shape_clear(&m);
	return rc;
}

/* Whether two pieces are congruent (BurrTools tells them apart). */
static int congruent(const struct puzzle *p, const size_t *shape_of,
                     struct xmp_info *info, struct puz_error *err)
{
	struct form *f;
	size_t n = p->npieces, a = SIZE_MAX, b = SIZE_MAX, k;
	int rc = PUZ_OK;

	if (n < 2)
		return PUZ_OK;
	f = calloc(n, sizeof(*f));
	if (f == NULL)
		return fmt_fail_nomem(err);
	for (k = 0; k < n && rc == PUZ_OK; k++) {
		f[k].piece = k;
		if (piece_form(&p->pieces[k], &f[k].s, NULL) != POLY_OK)
			rc = fmt_fail_nomem(err);
	}
	if (rc == PUZ_OK) {
		qsort(f, n, sizeof(*f), cmp_form);
		/* the first pair in file order, for a steady message */
		for (k = 0; k + 1 < n; k++)
			if (poly_equal(&f[k].s, &f[k + 1].s) &&
			    (f[k].piece < a ||
			     (f[k].piece == a && f[k + 1].piece < b))) {
				a = f[k].piece;
				b = f[k + 1].piece;
			}
	}
	for (k = 0; k < n; k++)
		poly_shape_clear(&f[k].s);
	free(f);
	if (rc != PUZ_OK || a == SIZE_MAX)
		return rc;
	info->differs = true;
	if (shape_of[a] == shape_of[b])
		snprintf(info->why, sizeof(info->why),
		         "shape S%zu is listed twice in the problem: BurrTools "
		         "counts assemblies that swap the two as different, "
		         "cubegen as one",
		         shape_of[a] + 1);
	else
		snprintf(info->why, sizeof(info->why),
		         "shapes S%zu and S%zu are congruent: BurrTools counts "
		         "assemblies that swap them as different, cubegen as "
		         "one",
		         shape_of[a] + 1, shape_of[b] + 1);
	return PUZ_OK;
}

/* Piece k's most copies. */
static unsigned most(const struct puzzle *p, size_t k)
{
	const struct puz_piece *pc = &p->pieces[k];

	return pc->count_max ? pc->count_max : pc->count;
}

/* Whether the goal has an improper symmetry (a mirror image of it is
 * itself, colours ignored): without one neither tool meets mirror images. */
static int goal_mirrors(const struct puzzle *p, bool *yes)
{
	struct shape g = {0}, t = {0};
	int rc = poly_from_grid(&p->goal, &g);

	*yes = false;
	for (size_t i = 0; i < g.n; i++)
		g.cells[i] &= ~(uint32_t)0xff;
	for (int s = 0; rc == POLY_OK && s < POLY_NSYM && !*yes; s++) {
		if (poly_sym_proper(s))
			continue;
		rc = poly_transform(&g, s, &t);
		*yes = rc == POLY_OK && poly_equal(&g, &t);
		poly_shape_clear(&t);
	}
	poly_shape_clear(&g);
	return rc;
}

/*
 * With ranges: where BurrTools' pairing of mirror images stops short.
 * Each piece's copies in order, each copy not yet paired and not its own
 * mirror image is paired with the first later unpaired copy of its mirror
 * image, until a copy has none (assembler_1.cpp). A chiral piece A whose
 * mirror image B is in the problem, with fewer copies paired than
 * min(most(A), most(B)), may be used by an assembly whose mirror image
 * cubegen meets (the copies stay within the ranges) and BurrTools does not.
 * 'form' and 'mform' are each piece's canonical form and its mirror
 * image's; 'paired' is scratch of one count per piece.
 */
static size_t pairing_short(const struct puzzle *p, const struct form *form,
                            const struct form *mform, unsigned *paired)
{
	size_t n = p->npieces, a, b;
	bool stopped = false;

	memset(paired, 0, n * sizeof(*paired));
	/* the copies in order; those paired by an earlier piece are the
	 * first paired[] ones of their piece, so the rest are unpaired */
	for (a = 0; a < n && !stopped; a++) {
		if (poly_equal(&form[a].s, &mform[a].s))
			continue;
		while (!stopped && paired[a] < most(p, a)) {
			for (b = a + 1; b < n; b++)
				if (paired[b] < most(p, b) &&
				    poly_equal(&form[b].s, &mform[a].s))
					break;
			stopped = b == n;
			if (!stopped) {
				paired[a]++;
				paired[b]++;
			}
		}
	}
	for (a = 0; a < n; a++) {
		if (poly_equal(&form[a].s, &mform[a].s))
			continue;
		for (b = 0; b < n; b++) {
			if (!poly_equal(&form[b].s, &mform[a].s))
				continue;
			if (paired[a] < most(p, a) && paired[a] < most(p, b))
				return a;
		}
	}
	return SIZE_MAX;
}

/* Whether BurrTools' pairing of mirror images may count differently
 * (pairing_short): into 'info' when it may. */
static int mirror_pairs(const struct puzzle *p, const size_t *shape_of,
                        struct xmp_info *info, struct puz_error *err)
{
	size_t n = p->npieces, k, a = SIZE_MAX;
	struct form *f = calloc(2 * n, sizeof(*f));
	unsigned *paired = calloc(n, sizeof(*paired));
	int rc = PUZ_OK;
	bool sym = false;

	if (f == NULL || paired == NULL)
		rc = fmt_fail_nomem(err);
	for (k = 0; k < n && rc == PUZ_OK; k++)
		if (piece_form(&p->pieces[k], &f[k].s, &f[n + k].s) != POLY_OK)
			rc = fmt_fail_nomem(err);
	if (rc == PUZ_OK)
		a = pairing_short(p, f, f + n, paired);
	if (rc == PUZ_OK && a != SIZE_MAX && goal_mirrors(p, &sym) != POLY_OK)
		rc = fmt_fail_nomem(err);
	if (rc == PUZ_OK && a != SIZE_MAX && sym) {
		info->differs = true;
		snprintf(info->why, sizeof(info->why),
		         "BurrTools pairs mirror-image shapes in file order and "
		         "stops at the first unpaired chiral one: an assembly "
		         "using S%zu may count apart from its mirror image "
		         "there, as one here",
		         shape_of[a] + 1);
	}
	for (k = 0; f != NULL && k < 2 * n; k++)
		poly_shape_clear(&f[k].s);
	free(f);
	free(paired);
	return rc;
}

/* Room for the pieces of 'pr'. */
static int add_pieces(const struct xdoc *d, const struct xproblem *pr,
                      size_t k, struct puzzle *p, size_t *shape_of,
                      bool *ranges, bool *split, char *split_why,
                      struct puz_error *err)
{
	size_t gvol = puz_grid_volume(&p->goal);
	uint64_t total = 0;

	for (size_t i = 0; i < pr->nparts; i++) {
		const struct xpart *pt = &pr->parts[i];
		struct puz_piece *pc;
		size_t vol;
		int rc;

		if (pt->max == 0)
			continue;
		if (pt->max > PUZ_MAX_PIECES - total)
			return fmt_fail(err, pt->line, pt->col,
			                "<shape id=\"%llu\">: more than %d "
			                "pieces in problem %zu (counting each "
			                "copy, a range at its most)",
			                (unsigned long long)pt->id,
			                PUZ_MAX_PIECES, k + 1);
		total += pt->max;
		pc = &p->pieces[p->npieces];
		memset(pc, 0, sizeof(*pc));
		rc = make_piece(d, (size_t)pt->id, &pc->shape, err);
		if (rc != PUZ_OK) {
			puz_grid_clear(&pc->shape);
			return rc;
		}
		vol = puz_grid_volume(&pc->shape);
		if (vol > gvol) {
			puz_grid_clear(&pc->shape);
			return fmt_fail(err, pt->line, pt->col,
			                "<shape id=\"%llu\">: %zu voxels, more "
			                "than the result's %zu",
			                (unsigned long long)pt->id, vol, gvol);
		}
		piece_name(p, &d->shapes[pt->id], (size_t)pt->id, pc->name);
		pc->count = (unsigned)pt->min;
		pc->count_max = pt->min == pt->max ? 0 : (unsigned)pt->max;
		pc->weight = d->shapes[pt->id].weight;
		/* one group for every copy, or none: else the copies are
		 * split among groups, which cubegen does not model */
		if (pt->mixed || (pt->ngroups == 1 && pt->gcount < pt->max)) {
			if (!*split)
				snprintf(split_why, 200, "the copies of piece '%s' are "
				         "split among BurrTools groups", pc->name);
			*split = true;
		} else {
			pc->group = (unsigned)pt->group;
		}
		*ranges |= pc->count_max != 0;
		shape_of[p->npieces++] = (size_t)pt->id;
	}
	if (p->npieces == 0)
		return fmt_fail(err, pr->line, pr->col,
		                "<problem> (problem %zu): no pieces", k + 1);
	return PUZ_OK;
}

/* A part's one group (0 none) and its count, as BurrTools keeps them
 * (problem.cpp: the group attribute counts every copy). */
static uint64_t part_group(const struct xpart *pt, uint64_t *count)
{
	*count = pt->ngroups ? pt->gcount : pt->max;
	return pt->mixed ? 0 : pt->group;
}

/* Whether BurrTools' second group check (see the top) may take a stuck
 * part for one group where cubegen does not: then info->dis_differs.
 * That check puts the copies at place i (part i of the problem) in group
 * g up to the count the part of shape number i has there (cap_i); a
 * stuck part passes when its pieces fit one group so. It passes where
 * cubegen's rule (every piece in one group, BurrTools' first check) does
 * not exactly when some g takes two pieces or more and the places it
 * takes them from are not all of one same group of their own. */
static int group_lookup(const struct xdoc *d, const struct xproblem *pr,
                        struct xmp_info *info, struct puz_error *err)
{
	/* a place with pieces whose looked-up part has a group: at most one
	 * per piece (PUZ_MAX_PIECES in all), so the pairs below stay few */
	struct place {
		size_t i;
		uint64_t g, cap, own; /* looked-up group, its count there, and
		                       * the place's own group */
	} *pl;
	uint64_t c;
	size_t q, i, m = 0, n = pr->nparts < d->nshapes ? pr->nparts : d->nshapes;
	size_t *of;

	for (q = 0; q < pr->nparts && part_group(&pr->parts[q], &c) == 0; q++)
		;
	if (q == pr->nparts || n == 0)
		return PUZ_OK; /* no groups: the usual file */
	/* of[i]: the part of shape number i, + 1 (0 none), for the places
	 * that can have pieces (a place past the shapes looks up none) */
	of = calloc(n, sizeof(*of));
	pl = malloc((n < PUZ_MAX_PIECES ? n : PUZ_MAX_PIECES) * sizeof(*pl));
	if (of == NULL || pl == NULL) {
		free(of);
		free(pl);
		return fmt_fail_nomem(err);
	}
	for (q = pr->nparts; q-- > 0;)
		if (pr->parts[q].id < n)
			of[pr->parts[q].id] = q + 1;
	for (i = 0; i < n; i++) {
		uint64_t g = of[i] ? part_group(&pr->parts[of[i] - 1], &c) : 0;
		/* (add_pieces() has seen at most PUZ_MAX_PIECES pieces) */
		if (g == 0 || c == 0 || pr->parts[i].max == 0 ||
		    m == PUZ_MAX_PIECES)
			continue;
		uint64_t cap = c < pr->parts[i].max ? c : pr->parts[i].max;
		pl[m++] = (struct place){i, g, cap, part_group(&pr->parts[i], &c)};
	}
	for (q = 0; q < m && !info->dis_differs; q++) {
		uint64_t g = pl[q].g, held = 0;
		bool one = true;
		size_t bad = SIZE_MAX;

		for (i = 0; i < q && pl[i].g != g; i++)
			;
		if (i < q)
			continue; /* g done */
		for (i = q; i < m; i++) {
			if (pl[i].g != g)
				continue;
			one &= pl[i].own == pl[q].own;
			if (pl[i].own != g && bad == SIZE_MAX)
				bad = pl[i].i;
			held += pl[i].cap;
		}
		if (held < 2 || (one && pl[q].own != 0))
			continue;
		/* (a place of another group, or of none, is among them) */
		info->dis_differs = true;
		snprintf(info->dis_why, sizeof(info->dis_why),
		         "BurrTools checks a stuck part's groups again "
		         "by each piece's place, not its shape (S%u, looked up "
		         "as S%u, passes for group %u): an assembly stuck here "
		         "may be a solution there",
		         (unsigned)(pr->parts[bad].id + 1), (unsigned)(bad + 1),
		         (unsigned)g);
	}
	free(of);
	free(pl);
	return PUZ_OK;
}

int xmp_build(const struct xdoc *d, size_t k, struct puzzle *p,
              struct xmp_info *info, struct puz_error *err)
{
	const struct xproblem *pr = &d->problems[k];
	size_t *shape_of = NULL, opt = 0, n;
	bool ranges = false;
	int rc;

	info->nproblems = d->nproblems;
	info->solved = pr->solved;
	info->assemblies = pr->solved ? pr->assemblies : 0;
	info->solutions = pr->solved ? pr->solutions : 0;
	title(pr->name, p->name);
	if (!pr->has_result)
		return fmt_fail(err, pr->line, pr->col,
		                "<problem> (problem %zu): no <result>", k + 1);
	rc = make_goal(d, (size_t)pr->result, &p->goal, err);
	if (rc != PUZ_OK)
		return rc;
	/* pr->nparts entries of some bytes each in the text: no overflow */
	if (pr->nparts > 0) {
		p->pieces = calloc(pr->nparts, sizeof(*p->pieces));
		shape_of = calloc(pr->nparts, sizeof(*shape_of));
		if (p->pieces == NULL || shape_of == NULL) {
			free(shape_of);
			return fmt_fail_nomem(err);
		}
	}
	info->groups_split = false;
	info->groups_why[0] = '\0';
	rc = add_pieces(d, pr, k, p, shape_of, &ranges, &info->groups_split,
	                info->groups_why, err);
	if (rc == PUZ_OK && ranges && pr->has_maxholes) {
		n = (size_t)p->goal.nx * (size_t)p->goal.ny * (size_t)p->goal.nz;
		for (size_t i = 0; i < n; i++)
			opt += puz_cell_optional(p->goal.cells[i]);
		if (pr->maxholes < opt)
			rc = fmt_fail(err, pr->line, pr->col,
			              "<problem maxHoles=\"%llu\">: at most that "
			              "many of the %zu variable voxels may stay "
			              "empty; cubegen cannot say that",
			              (unsigned long long)pr->maxholes, opt);
	}
	if (rc == PUZ_OK)
		rc = colours(d, pr, p, err);
	if (rc == PUZ_OK)
		rc = congruent(p, shape_of, info, err);
	if (rc == PUZ_OK && ranges && !info->differs)
		rc = mirror_pairs(p, shape_of, info, err);
	info->dis_differs = false;
	info->dis_why[0] = '\0';
	if (rc == PUZ_OK && !info->groups_split)
		rc = group_lookup(d, pr, info, err);
	free(shape_of);
	return rc;
}
