/*
 * pagefiles.c: the viewer's pages from the printed meshes.
 *
 * solution.html shows the pieces as printed (walls, clearance, engraved
 * numbers) in their places in the answer. A printed piece is the answer's
 * piece turned by a proper rotation: the rotation is found by matching
 * cells and layers (the first of the 24 that lays the printed cells on
 * the answer's, up to a shift, each wall layer on a wall layer), and each
 * vertex is carried over exactly. Along an axis
 * the printed piece spans its layers, W mm (wall or unit each), with its
 * solid moved by -h (h = clearance/2) so that it starts at 0; in the
 * answer the same layers start at G0, the width of the goal's layers
 * before them. A vertex at v along printed axis a lands, along the goal
 * axis b that a turns into, at G0 + (v + h) or, when the rotation turns
 * a against b, at G0 + W - (v + h). A rotation keeps triangles
 * anticlockwise seen from outside.
 */
#include "cli/pagefiles.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/disasm.h"
#include "solver/poly.h"
#include "solver/puzzle.h"
#include "solver/solve.h"

static bool write_page(struct outdir *od, const char *name, const char *title,
                       const struct mesh_object *obj, const uint32_t *const *tri,
                       size_t count, const struct mesh_page_step *steps,
                       size_t nsteps)
{
	FILE *fp = outdir_fopen(od, name);
	if (!fp)
		return false;
	int rc = mesh_write_page(fp, title, obj, tri, count, steps, nsteps);
	if (rc != MESH_OK) {
		cli_error("%s/%s: cannot write: %s", od->target, name,
		          rc == MESH_EIO ? strerror(errno) : mesh_strerror(rc));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, name);
}

/* A cell set's bounding box: lo and size per axis; false when empty. */
static bool box_of(const unsigned char *cells, const int dim[3], int want,
                   int lo[3], int n[3])
{
	int hi[3] = {-1, -1, -1};
	lo[0] = dim[0];
	lo[1] = dim[1];
	lo[2] = dim[2];
	for (int z = 0; z < dim[2]; z++)
		for (int y = 0; y < dim[1]; y++)
			for (int x = 0; x < dim[0]; x++) {
				unsigned char c = cells[x + (size_t)dim[0] * (y + (size_t)dim[1] * z)];
				if (want ? c != want : !c)
					continue;
				int p[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					lo[a] = p[a] < lo[a] ? p[a] : lo[a];
					hi[a] = p[a] > hi[a] ? p[a] : hi[a];
				}
			}
	for (int a = 0; a < 3; a++)
		n[a] = hi[a] - lo[a] + 1;
	return hi[0] >= 0;
}

/* How rotation r turns the axes: goal axis b is printed axis src[b],
 * along it (sgn[b] = 1) or against it (-1). */
static void axes_of(int r, int src[3], int sgn[3])
{
	/* (every b is set below, r being a rotation: set first all the same,
	 * which GCC's -O3 cannot see) */
	for (int b = 0; b < 3; b++) {
		src[b] = b;
		sgn[b] = 1;
	}
	for (int a = 0; a < 3; a++) {
		int e[3] = {0, 0, 0}, o[3];
		e[a] = 1;
		poly_sym_apply(r, e, o);
		for (int b = 0; b < 3; b++)
			if (o[b]) {
				src[b] = a;
				sgn[b] = o[b];
			}
	}
}

/* Whether rotation r lays printed piece s (box plo, pn) on the answer's
 * cells of number 'want' (box glo, gn). */
static bool lays(int r, const struct mesh_spec *s, const int plo[3],
                 const int pn[3], const struct page_answer *a, int want,
                 const int glo[3], const int gn[3])
{
	int src[3], sgn[3];
	axes_of(r, src, sgn);
	for (int b = 0; b < 3; b++) {
		int pa = src[b];
		if (pn[pa] != gn[b])
			return false;
		/* layer for layer, walls where the goal has them (a piece whose
		 * cells look the same turned may not lie so: its widths) */
		for (int j = 0; j < gn[b]; j++) {
			int pj = plo[pa] + (sgn[b] > 0 ? j : gn[b] - 1 - j);
			bool pw = s->wall[pa] && s->wall[pa][pj];
			bool gw = a->wall[b] && a->wall[b][glo[b] + j];
			if (pw != gw)
				return false;
		}
	}
	for (int z = 0; z < gn[2]; z++)
		for (int y = 0; y < gn[1]; y++)
			for (int x = 0; x < gn[0]; x++) {
				int g[3] = {x, y, z}, p[3];
				for (int b = 0; b < 3; b++)
					p[src[b]] = sgn[b] > 0 ? g[b] : gn[b] - 1 - g[b];
				bool in_p = s->cells[(plo[0] + p[0]) + (size_t)s->dims[0] *
				                     ((plo[1] + p[1]) + (size_t)s->dims[1] * (plo[2] + p[2]))] != 0;
				bool in_g = a->owner[(glo[0] + x) + (size_t)a->dim[0] *
				                     ((glo[1] + y) + (size_t)a->dim[1] * (glo[2] + z))] == want;
				if (in_p != in_g)
					return false;
			}
	return true;
}

/* Millimetres of layers [from, to) along an axis with wall flags w. */
static double span(const unsigned char *w, int from, int to,
                   const struct mesh_size *sz)
{
	double mm = 0;
	for (int k = from; k < to; k++)
		mm += w && w[k] ? sz->wall : sz->unit;
	return mm;
}

/* Piece i's printed mesh moved into its place in the answer, as a new
 * mesh in '*out': 1, or 0 when no rotation fits, -1 out of memory. */
static int placed(const struct mesh_spec *s, const struct mesh_size *sz,
                  const struct mesh *m, const struct page_answer *a, int want,
                  struct mesh **out)
{
	int plo[3], pn[3], glo[3], gn[3];
	if (!box_of(s->cells, s->dims, 0, plo, pn) ||
	    !box_of(a->owner, a->dim, want, glo, gn))
		return 0;
	int r = 0;
	while (r < POLY_NSYM && !(poly_sym_proper(r) && lays(r, s, plo, pn, a, want, glo, gn)))
		r++;
	if (r == POLY_NSYM)
		return 0;
	int src[3], sgn[3];
	axes_of(r, src, sgn);
	double g0[3], w[3], h = sz->clearance / 2;
	for (int b = 0; b < 3; b++) {
		g0[b] = span(a->wall[b], 0, glo[b], sz);
		int pa = src[b];
		w[b] = span(s->wall[pa], plo[pa], plo[pa] + pn[pa], sz);
	}
	struct mesh *q = malloc(sizeof *q);
	float (*v)[3] = m->nvertices ? malloc(m->nvertices * sizeof *v) : NULL;
	uint32_t (*t)[3] = m->ntriangles ? malloc(m->ntriangles * sizeof *t) : NULL;
	if (!q || (m->nvertices && !v) || (m->ntriangles && !t)) {
		free(q);
		free(v);
		free(t);
		return -1;
	}
	for (size_t i = 0; i < m->nvertices; i++)
		for (int b = 0; b < 3; b++) {
			double p = (double)m->vertices[i][src[b]] + h;
			v[i][b] = (float)(sgn[b] > 0 ? g0[b] + p : g0[b] + w[b] - p);
		}
	if (m->ntriangles)
		memcpy(t, m->triangles, m->ntriangles * sizeof *t);
	*q = (struct mesh){m->nvertices, m->ntriangles, v, t};
	*out = q;
	return 1;
}

bool pagefiles_write(struct outdir *od, const char *title,
                     const struct mesh_spec *s, const struct mesh_size *sz,
                     struct mesh *const *m, const double (*origin)[3],
                     const uint32_t *colour, const uint32_t *const *tri,
                     size_t count, const struct page_answer *a)
{
	struct mesh_object *obj = calloc(count, sizeof *obj);
	char (*names)[24] = calloc(count, sizeof *names);
	struct mesh **moved = a ? calloc(count, sizeof *moved) : NULL;
	bool ok = obj && names && (moved || !a);
	if (!ok)
		cli_error("pieces.html: out of memory");
	for (size_t i = 0; ok && i < count; i++) {
		snprintf(names[i], sizeof names[i], "%zu", i + 1);
		obj[i] = (struct mesh_object){m[i], names[i], colour[i],
		                              {origin[i][0], origin[i][1], origin[i][2]}};
	}
	char head[200];
	snprintf(head, sizeof head, "%s: the pieces", title);
	ok = ok && write_page(od, "pieces.html", head, obj, tri, count, NULL, 0);
	for (size_t i = 0; ok && a && i < count; i++) {
		int rc = placed(&s[i], sz, m[i], a, (int)i + 1, &moved[i]);
		ok = rc > 0;
		if (rc < 0)
			cli_error("solution.html: out of memory");
		else if (rc == 0)
			cli_error("solution.html: piece %zu: cannot place it", i + 1);
		else
			obj[i] = (struct mesh_object){moved[i], names[i], colour[i], {0, 0, 0}};
	}
	snprintf(head, sizeof head, "%s: the answer", title);
	ok = ok && (!a || write_page(od, "solution.html", head, obj, tri, count,
	                             a->steps, a->nsteps));
	for (size_t i = 0; moved && i < count; i++)
		mesh_free(moved[i]);
	free(moved);
	free(obj);
	free(names);
	return ok;
}

void lowest_answer_clear(struct lowest_answer *la)
{
	free(la->owner);
	free(la->step);
	free(la->order);
	free(la->text);
	memset(la, 0, sizeof *la);
}

bool lowest_answer_steps(struct lowest_answer *la, const struct grid *g,
                         size_t count, const char *const *names)
{
	la->a = (struct page_answer){.owner = la->owner,
	                             .dim = {g->nx, g->ny, g->nz}};
	if (count == 0 || count > 255)
		return true; /* no page: the owner grid holds numbers to 255 */
	la->step = calloc(count, sizeof *la->step);
	la->order = malloc(count * sizeof *la->order);
	la->text = malloc(count * sizeof *la->text);
	if (!la->step || !la->order || !la->text)
		return false;
	/* the copies in the order their lowest cells come, z then y then x:
	 * cells in grid order are in that order already */
	size_t n = 0, total = (size_t)g->nx * g->ny * g->nz;
	bool *seen = calloc(count, sizeof *seen);
	if (!seen)
		return false;
	for (size_t c = 0; c < total && n < count; c++) {
		int k = la->owner[c];
		if (k && !seen[k - 1]) {
			seen[k - 1] = true;
			la->order[n++] = (size_t)k - 1;
		}
	}
	free(seen);
	int most = g->nx > g->ny ? g->nx : g->ny;
	most = most > g->nz ? most : g->nz;
	for (size_t k = 0; k < n; k++) {
		size_t i = la->order[k];
		/* an order, not a move the disassembler checked: no direction */
		snprintf(la->text[k], sizeof la->text[k], "Put piece %zu (%s) in place.",
		         i + 1, names[i]);
		la->step[k] = (struct mesh_page_step){
			.text = la->text[k], .show = la->order, .nshow = k + 1,
			.moving = &la->order[k], .nmoving = 1,
			/* cells: the page is in mm, the unit is the caller's; a
			 * height of 1.5 goals in cells of 10 mm is far enough */
			.from = {0, 0, 15.0 * most}};
	}
	la->a.steps = la->step;
	la->a.nsteps = n;
	return true;
}

/* ---- the assembly guide ------------------------------------------------- */

/* Axis names of the guide: as the box is held (gen.h), +x right, +y
 * away from you, +z up. */
static const char *const dir_name[6] = {"to the right", "to the left",
                                        "away from you", "toward you", "up",
                                        "down"};
static const char *const side_name[6] = {"right", "left", "back", "front",
                                         "top", "bottom"};

const char *guide_side_name(int dir)
{
	assert(dir >= 0 && dir < 6);
	return side_name[dir];
}

/* "pieces 3, 5 and 7" or "piece 4" ("Piece 4" with 'cap'). */
static void group_text(uint64_t g, bool cap, char *buf, size_t len)
{
	int n = 0, total = 0;
	for (int i = 0; i < 64; i++)
		total += (int)(g >> i & 1);
	size_t at = (size_t)snprintf(buf, len, "%s%s", cap ? "P" : "p",
	                             total == 1 ? "iece" : "ieces");
	for (int i = 0; i < 64 && at < len; i++)
		if (g >> i & 1) {
			n++;
			at += (size_t)snprintf(buf + at, len - at, "%s%d",
			                       n == 1 ? " " : n == total ? " and " : ", ",
			                       i + 1);
		}
}

size_t guide_steps(const struct dis_result *d, size_t npieces,
                   struct guide_step *st)
{
	/* the piece no separation removes stays where it is */
	uint64_t moved = 0;
	for (size_t i = 0; i < d->nmoves; i++)
		if (d->moves[i].dist == 0)
			moved |= d->moves[i].group;
	/* (several when they are one group, which stays together: one
	 * step puts them down) */
	uint64_t start = 0;
	for (size_t k = 0; k < npieces; k++)
		if (!(moved >> k & 1))
			start |= (uint64_t)1 << k;
	size_t n = 0;
	if (start) {
		char who[400];
		group_text(start, false, who, sizeof who);
		st[n] = (struct guide_step){.group = start, .start = true};
		snprintf(st[n++].text, sizeof st->text, "Start with %s.", who);
	}
	for (size_t i = d->nmoves; i-- > 0;) {
		const struct dis_move *m = &d->moves[i];
		char who[400];
		int back = m->dir ^ 1; /* the reverse of the move */
		st[n] = (struct guide_step){.group = m->group, .dir = m->dir, .dist = m->dist};
		if (m->dist == 0) {
			group_text(m->group, true, who, sizeof who);
			snprintf(st[n].text, sizeof st->text, "%s go%s in from the %s, moving %s.",
			         who, strncmp(who, "Pieces", 6) ? "es" : "",
			         side_name[m->dir], dir_name[back]);
		} else {
			group_text(m->group, false, who, sizeof who);
			snprintf(st[n].text, sizeof st->text, "Slide %s %d cell%s %s.", who,
			         m->dist, m->dist == 1 ? "" : "s", dir_name[back]);
		}
		n++;
	}
	return n;
}

void guide_answer_clear(struct guide_answer *ga)
{
	free(ga->st);
	free(ga->step);
	free(ga->shown);
	free(ga->moving);
	free(ga->at);
	free(ga->apart);
	memset(ga, 0, sizeof *ga);
}

/*
 * One scene for the whole disassembly: a move of dist > 0 shifts its
 * group dist cells, and a move that takes a group out shifts it 'far'
 * along its direction (where it waits while its own parts come apart).
 * ga->at gets, (d->nmoves + 1) rows of np, where every piece is before
 * each move (row i) and after the last, in mm from its place in the
 * finished puzzle; part[i] the pieces of the part move i acts in (the
 * group and what it moves against). false when out of memory.
 */
static bool guide_places(struct guide_answer *ga, const struct dis_result *d,
                         size_t np, double unit, double far, uint64_t *part)
{
	ga->at = calloc((d->nmoves + 1) * np, sizeof *ga->at);
	unsigned char *id = calloc(np ? np : 1, 1); /* part of each piece */
	if (!ga->at || !id) {
		free(id);
		return false;
	}
	unsigned char parts = 1;
	for (size_t i = 0; i < d->nmoves; i++) {
		const struct dis_move *m = &d->moves[i];
		double (*now)[3] = ga->at + i * np, (*next)[3] = now + np;
		memcpy(next, now, np * sizeof *now);
		assert(m->group && parts < 255);
		int first = __builtin_ctzll(m->group);
		part[i] = 0;
		for (size_t p = 0; p < np; p++)
			if (id[p] == id[first])
				part[i] |= (uint64_t)1 << p;
		/* dis dirs: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z */
		double shift = (m->dir % 2 ? -1 : 1) * (m->dist ? m->dist * unit : far);
		for (size_t p = 0; p < np; p++)
			if (m->group >> p & 1) {
				next[p][m->dir / 2] += shift;
				if (!m->dist)
					id[p] = parts;
			}
		parts += !m->dist;
	}
	free(id);
	return true;
}

/* Cells between a part taken out and every other piece where render's
 * exploded picture leaves it. */
#define APART_GAP 2

/*
 * Where each piece waits once the disassembly is over, in whole cells
 * from its place in 'owner' (dim cells: 0 or the piece's number): a move
 * of dist > 0 shifts its group dist cells; one that takes a group out
 * shifts it along its direction until its box lies APART_GAP cells past
 * the boxes of all other pieces where they are then, so that no part
 * waits where another is. ga->apart gets np rows. false when out of
 * memory.
 */
static bool guide_apart(struct guide_answer *ga, const struct dis_result *d,
                        size_t np, const unsigned char *owner,
                        const int dim[3])
{
	assert(np <= DIS_MAX_PIECES); /* (a move's group is 64 bits) */
	int lo[DIS_MAX_PIECES][3], hi[DIS_MAX_PIECES][3];
	ga->apart = calloc(np ? np : 1, sizeof *ga->apart);
	if (!ga->apart)
		return false;
	for (size_t p = 0; p < np; p++)
		for (int a = 0; a < 3; a++) {
			lo[p][a] = INT_MAX;
			hi[p][a] = INT_MIN;
		}
	for (int z = 0; z < dim[2]; z++)
		for (int y = 0; y < dim[1]; y++)
			for (int x = 0; x < dim[0]; x++) {
				int v = owner[x + dim[0] * (y + dim[1] * z)], c[3] = {x, y, z};
				if (!v || (size_t)v > np)
					continue;
				for (int a = 0; a < 3; a++) {
					lo[v - 1][a] = c[a] < lo[v - 1][a] ? c[a] : lo[v - 1][a];
					hi[v - 1][a] = c[a] > hi[v - 1][a] ? c[a] : hi[v - 1][a];
				}
			}
	int (*at)[3] = ga->apart;
	for (size_t i = 0; i < d->nmoves; i++) {
		const struct dis_move *m = &d->moves[i];
		/* dis dirs: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z */
		int a = m->dir / 2, sign = m->dir % 2 ? -1 : 1, s = m->dist;
		if (!s) {
			/* along the way out: the group's near side and the far
			 * side of the rest */
			int gnear = INT_MAX, rfar = INT_MIN;
			for (size_t p = 0; p < np; p++) {
				if (lo[p][a] > hi[p][a])
					continue; /* (not in the assembly) */
				int l = sign * (sign > 0 ? lo[p][a] : hi[p][a]) + sign * at[p][a];
				int h = sign * (sign > 0 ? hi[p][a] : lo[p][a]) + sign * at[p][a];
				if (m->group >> p & 1)
					gnear = l < gnear ? l : gnear;
				else
					rfar = h > rfar ? h : rfar;
			}
			s = rfar == INT_MIN || gnear == INT_MAX
			    ? 1 : rfar - gnear + 1 + APART_GAP;
			s = s < 1 ? 1 : s;
		}
		for (size_t p = 0; p < np; p++)
			if (m->group >> p & 1)
				at[p][a] += sign * s;
	}
	return true;
}

bool guide_answer_init(struct guide_answer *ga, const struct dis_result *d,
                       size_t np, const unsigned char *owner, const int dim[3],
                       double unit)
{
	size_t max = np + d->nmoves;
	*ga = (struct guide_answer){
		.st = malloc(max * sizeof *ga->st),
		.step = calloc(max, sizeof *ga->step),
		.shown = malloc(max * np * sizeof *ga->shown),
		.moving = malloc(max * np * sizeof *ga->moving)};
	if (!ga->st || !ga->step || !ga->shown || !ga->moving) {
		guide_answer_clear(ga);
		return false;
	}
	size_t n = guide_steps(d, np, ga->st);
	int most = dim[0] > dim[1] ? dim[0] : dim[1];
	double far = 1.5 * unit * (most > dim[2] ? most : dim[2]);
	uint64_t *part = malloc((d->nmoves ? d->nmoves : 1) * sizeof *part);
	if (!part || !guide_places(ga, d, np, unit, far, part) ||
	    !guide_apart(ga, d, np, owner, dim)) {
		free(part);
		guide_answer_clear(ga);
		return false;
	}
	size_t starts = n - d->nmoves;
	uint64_t shown = 0;
	for (size_t k = 0; k < n; k++) {
		const struct guide_step *t = &ga->st[k];
		struct mesh_page_step *ps = &ga->step[k];
		size_t *sh = ga->shown + k * np, *mv = ga->moving + k * np;
		/* move i reversed: the group joins the rest of its part, which
		 * its own steps have put together (where it waits) */
		size_t i = t->start ? d->nmoves : d->nmoves - 1 - (k - starts);
		shown |= t->group | (t->start ? 0 : part[i]);
		ps->text = t->text;
		ps->show = sh;
		ps->moving = mv;
		for (size_t p = 0; p < np; p++) {
			if (shown >> p & 1)
				sh[ps->nshow++] = p;
			if (!t->start && t->group >> p & 1)
				mv[ps->nmoving++] = p;
		}
		/* where the pieces are: after the last move for a start step,
		 * else before move i (a cast: C11 converts no pointer to an
		 * array to one to its const elements) */
		ps->at = (const double (*)[3])(ga->at + i * np);
		if (!t->start) {
			/* dis dirs: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z */
			double dd = t->dist ? t->dist * unit : far;
			ps->from[t->dir / 2] = t->dir % 2 ? -dd : dd;
		}
	}
	free(part);
	ga->a = (struct page_answer){.owner = owner,
	                             .dim = {dim[0], dim[1], dim[2]},
	                             .steps = ga->step, .nsteps = n};
	ga->npieces = np;
	return true;
}

/* The weights and groups of n copies of 'p' numbered in its pieces'
 * order into weight[] and group[]; false when the copies are not n. */
static bool copy_traits(const struct puzzle *p, size_t n, int *weight,
                        unsigned *group)
{
	size_t at = 0;
	for (size_t i = 0; i < p->npieces; i++)
		for (unsigned k = 0; k < p->pieces[i].count; k++, at++) {
			if (at == n)
				return false;
			weight[at] = p->pieces[i].weight ? p->pieces[i].weight : 1;
			group[at] = p->pieces[i].group;
		}
	return at == n;
}

bool page_answer_pick(const struct lowest_answer *la, size_t n,
                      const struct puzzle *p, unsigned max_nodes, double unit,
                      struct guide_answer *ga,
                      const struct page_answer **out)
{
	*out = la->a.nsteps ? &la->a : NULL;
	if (!*out || n > DIS_MAX_PIECES || n < 2)
		return true;
	int weight[DIS_MAX_PIECES];
	unsigned group[DIS_MAX_PIECES];
	bool traits = p && copy_traits(p, n, weight, group);
	disasm *d = dis_new();
	if (!d)
		return false;
	dis_set_max_nodes(d, max_nodes);
	struct dis_result res;
	int rc = dis_run(d, la->a.dim[0], la->a.dim[1], la->a.dim[2], la->owner, n,
	                 traits ? weight : NULL, traits ? group : NULL, &res);
	dis_free(d);
	if (rc == DIS_ENOMEM)
		return false;
	if (rc != DIS_OK)
		return true;
	bool ok = true;
	if (res.verdict == DIS_APART) {
		ok = guide_answer_init(ga, &res, n, la->owner, la->a.dim, unit);
		if (ok) {
			for (int a = 0; a < 3; a++)
				ga->a.wall[a] = la->a.wall[a];
			*out = &ga->a;
		}
	}
	dis_result_clear(&res);
	return ok;
}

int pages_solution(const struct puzzle *p, uint64_t max_nodes,
                   struct solve_result *r)
{
	struct solve_opts o = {.max_solutions = 1, .keep_first = true,
	                       .disassemble = true, .max_nodes = PAGES_APART_NODES,
	                       .dis_max_nodes = PAGES_DIS_NODES};
	struct cli_progress prog;
	cli_progress_on(&prog, "solving", true, &o);
	int rc = solve_puzzle(p, &o, r);
	if (rc == SOLVE_ENOMEM || (rc == SOLVE_OK && r->first)) {
		cli_progress_end(&prog);
		return rc;
	}
	if (rc == SOLVE_OK)
		solve_result_clear(r);
	/* none comes apart within the bounds (or the puzzle's groups rule
	 * out taking it apart): the first solution, as found (the progress
	 * line goes on, its clock too) */
	struct solve_opts q = {.max_solutions = 1, .keep_first = true,
	                       .max_nodes = max_nodes,
	                       .threads = o.progress || max_nodes ? 1 : 0,
	                       .progress = o.progress,
	                       .progress_ctx = o.progress_ctx};
	rc = solve_puzzle(p, &q, r);
	cli_progress_end(&prog);
	return rc;
}
