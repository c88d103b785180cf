/*
 * shell.c: six plates into a box shell, by their borders.
 *
 * The box is L = {X, Y, Z}. Face f lies on axis a = f / 2 at coordinate 0
 * (f even) or L[a]-1 (f odd). Its frame (i, j) runs along the other two
 * axes b < c in increasing order: frame cell (i, j) is the 3D cell with
 * coordinate a fixed, b = i, c = j, so the frame is W = L[b] by H = L[c].
 * A plate is placed by one of the 8 flat moves (poly_flat_apply), all of a
 * square's symmetries, so handedness of frames never matters; on a W x H
 * frame with W != H only the moves that keep the frame's shape can land.
 *
 * Because frame coordinates are 3D coordinates, each side of a face frame
 * lies along a box edge with positions equal to the edge's free
 * coordinate. A placed plate is four side masks (bit p = cell p of side:
 * side 0 is j = 0, side 1 is i = W-1, side 2 is j = H-1, side 3 is i = 0).
 * Edge interiors go into 12 edge masks, the 8 corners into a byte; a
 * placement is legal when it sets no bit twice, and an edge (corner) is
 * checked full once all its faces are placed.
 *
 * Counting (solve.c's argument, with H = G: a flat plate is its own mirror
 * image). The pinned plate P lies on one face of each G-orbit of faces (a
 * cube: -Z for all six; a box: one face per pair of equal faces), at one
 * placement per orbit of Stab_G(f0) on that face's placements; such a
 * placement r stands for |G r| = |G f0| * |Stab(f0) r| assemblies. Each
 * cover y then adds |G r| assemblies and |G r| * |Stab_G(y)| to
 * 'weighted', which is |G| times the solutions once the search is done.
 * Stab_G(y) fixes P's region, so only the g fixing face f0 are tried.
 */
#include "solver/shell.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "solver/poly.h"
#include "solver/shell_int.h"

static void face_cell(const int L[3], int f, int i, int j, int c[3])
{
	int a = f / 2, b = a == 0 ? 1 : 0, cc = a == 2 ? 1 : 2;
	c[a] = f % 2 ? L[a] - 1 : 0;
	c[b] = i;
	c[cc] = j;
}

static int corner_id(const int L[3], const int c[3])
{
	return (c[0] == L[0] - 1) | (c[1] == L[1] - 1) << 1 |
	       (c[2] == L[2] - 1) << 2;
}

/* The edge through two cells that differ in one coordinate only. */
static int edge_id(const int L[3], const int p[3], const int q[3])
{
	int e = p[0] != q[0] ? 0 : p[1] != q[1] ? 1 : 2;
	int u = e == 0 ? 1 : 0, v = e == 2 ? 1 : 2;
	return e * 4 + (p[u] == L[u] - 1) + 2 * (p[v] == L[v] - 1);
}

/* Bits 1..len-2 of a side len cells long. */
static uint64_t inner_bits(int len)
{
	uint64_t all = len >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << len) - 1;
	return all & ~(uint64_t)1 & ~((uint64_t)1 << (len - 1));
}

void shell_setup_geometry(struct shell *s)
{
	const int *L = s->L;
	for (int f = 0; f < 6; f++) {
		int a = f / 2, b = a == 0 ? 1 : 0, c = a == 2 ? 1 : 2;
		int W = L[b], H = L[c];
		s->fw[f] = W;
		s->fh[f] = H;
		/* side k: two cells of it, at positions 1 and 2 of the side */
		int p[3], q[3];
		face_cell(L, f, 1, 0, p); face_cell(L, f, 2, 0, q);
		s->edge[f][0] = edge_id(L, p, q);
		face_cell(L, f, W - 1, 1, p); face_cell(L, f, W - 1, 2, q);
		s->edge[f][1] = edge_id(L, p, q);
		face_cell(L, f, 1, H - 1, p); face_cell(L, f, 2, H - 1, q);
		s->edge[f][2] = edge_id(L, p, q);
		face_cell(L, f, 0, 1, p); face_cell(L, f, 0, 2, q);
		s->edge[f][3] = edge_id(L, p, q);
		for (int k = 0; k < 4; k++)
			s->full[s->edge[f][k]] = inner_bits(k % 2 ? H : W);
		int ij[4][2] = {{0, 0}, {W - 1, 0}, {0, H - 1}, {W - 1, H - 1}};
		for (int k = 0; k < 4; k++) {
			face_cell(L, f, ij[k][0], ij[k][1], p);
			s->corner[f][k] = corner_id(L, p);
		}
		for (unsigned m = 0; m < 16; m++) {
			s->cmask[f][m] = 0;
			for (int k = 0; k < 4; k++)
				if (m >> k & 1)
					s->cmask[f][m] |= (uint8_t)(1u << s->corner[f][k]);
		}
	}
	/* G: the signed axis permutations that only exchange equal sides. */
	s->order_g = 0;
	for (int g = 0; g < POLY_NSYM; g++) {
		int in[3] = {1, 2, 3}, out[3];
		poly_sym_apply(g, in, out);
		bool ok = true;
		for (int k = 0; k < 3; k++)
			ok &= L[abs(out[k]) - 1] == L[k];
		if (ok)
			s->group[s->order_g++] = g;
	}
}

void shell_setup_order(struct shell *s, int f0, int wall)
{
	int a = f0 / 2, b = wall, c = 3 - a - wall;
	assert(wall != a && wall >= 0 && wall < 3);
	int ord[6] = {f0, 2 * b, 2 * c, 2 * b + 1, 2 * c + 1, f0 ^ 1};
	int ecount[12] = {0}, ccount[8] = {0};
	for (int d = 0; d < 6; d++) {
		int f = ord[d];
		s->order[d] = f;
		s->edone[d] = 0;
		s->cdone[d] = 0;
		for (int k = 0; k < 4; k++) {
			if (++ecount[s->edge[f][k]] == 2)
				s->edone[d] |= (uint16_t)(1u << s->edge[f][k]);
			if (++ccount[s->corner[f][k]] == 3)
				s->cdone[d] |= 1u << s->corner[f][k];
		}
	}
}

static void add_cell(struct orient *o, int W, int H, int i, int j)
{
	if (j == 0) o->side[0] |= (uint64_t)1 << i;
	if (i == W - 1) o->side[1] |= (uint64_t)1 << j;
	if (j == H - 1) o->side[2] |= (uint64_t)1 << i;
	if (i == 0) o->side[3] |= (uint64_t)1 << j;
}

static int orient_cmp(const struct orient *a, const struct orient *b)
{
	for (int k = 0; k < 4; k++)
		if (a->side[k] != b->side[k])
			return a->side[k] < b->side[k] ? -1 : 1;
	return 0;
}

static int orient_find(const struct orient *o, int count, const struct orient *q)
{
	for (int k = 0; k < count; k++)
		if (orient_cmp(&o[k], q) == 0)
			return k;
	return -1;
}

/* The box of a plate's cells: x0..x1, y0..y1; false when it has none. */
static bool plate_box(const struct shell_plate *pl, int *x0, int *x1, int *y0,
                      int *y1)
{
	*x0 = pl->pw;
	*x1 = -1;
	*y0 = pl->ph;
	*y1 = -1;
	for (int y = 0; y < pl->ph; y++)
		for (int x = 0; x < pl->pw; x++)
			if (pl->cells[x + pl->pw * y]) {
				if (x < *x0) *x0 = x;
				if (x > *x1) *x1 = x;
				if (y < *y0) *y0 = y;
				if (y > *y1) *y1 = y;
			}
	return *x1 >= 0;
}

/* Every distinct placement of plate 'pl' on a W x H face: a move t and a
 * shift that keep it on the face and cover the face's whole centre (which
 * only this plate can cover, shell.h). Returns the count, filling out[].
 *
 * Workload: six plates per candidate, thousands of candidates a second, so
 * each move's image is built once as row masks (trow[v] bit u: cell (u, v)
 * of the moved cell box), and a shift is checked and turned into side
 * masks with word operations: O(W + H) per shift. */
static int placements(int W, int H, const struct shell_plate *pl, struct orient *out)
{
	int x0, x1, y0, y1;
	if (!plate_box(pl, &x0, &x1, &y0, &y1))
		return 0;
	int bw = x1 - x0 + 1, bh = y1 - y0 + 1;
	uint64_t centre = inner_bits(W);
	int k = 0;
	for (int t = 0; t < 8; t++) {
		int tw = t & 1 ? bh : bw, th = t & 1 ? bw : bh;
		/* the moved box must contain the centre and fit the face */
		if (tw > W || th > H || tw < W - 2 || th < H - 2)
			continue;
		/* A flat move is affine: u = u0 + ux x + uy y, likewise v. */
		int u0, v0, u1, v1, u2, v2;
		poly_flat_apply(t, bw, bh, 0, 0, &u0, &v0);
		poly_flat_apply(t, bw, bh, 1 % bw, 0, &u1, &v1);
		poly_flat_apply(t, bw, bh, 0, 1 % bh, &u2, &v2);
		int ux = u1 - u0, vx = v1 - v0, uy = u2 - u0, vy = v2 - v0;
		uint64_t trow[SH_MAXN];
		memset(trow, 0, (size_t)th * sizeof *trow);
		for (int y = 0; y < bh; y++)
			for (int x = 0; x < bw; x++)
				if (pl->cells[(x0 + x) + pl->pw * (y0 + y)])
					trow[v0 + vx * x + vy * y] |=
						(uint64_t)1 << (u0 + ux * x + uy * y);
		/* the box's top-left cell lands on face cell (dx, dy) */
		for (int dy = 0; dy + th <= H; dy++)
			for (int dx = 0; dx + tw <= W; dx++) {
				if (dx > 1 || dy > 1 || dx + tw < W - 1 || dy + th < H - 1)
					continue; /* the centre sticks out */
				bool ok = true;
				for (int j = 1; j < H - 1 && ok; j++)
					ok = ((trow[j - dy] << dx) & centre) == centre;
				if (!ok)
					continue;
				struct orient o;
				memset(&o, 0, sizeof o);
				if (dy == 0)
					o.side[0] = trow[0] << dx;
				if (dy + th == H)
					o.side[2] = trow[th - 1] << dx;
				for (int v = 0; v < th; v++) {
					if (dx == 0 && (trow[v] & 1))
						o.side[3] |= (uint64_t)1 << (v + dy);
					if (dx + tw == W && (trow[v] >> (tw - 1) & 1))
						o.side[1] |= (uint64_t)1 << (v + dy);
				}
				if (orient_find(out, k, &o) < 0) {
					assert(k < SH_MAXPLACE);
					out[k++] = o;
				}
			}
	}
	for (int i = 0; i < k; i++) {
		struct orient *q = &out[i];
		for (int e = 0; e < 4; e++)
			q->edge[e] = q->side[e] & inner_bits(e % 2 ? H : W);
		q->corners = (unsigned)((q->side[0] & 1) |
		             (q->side[0] >> (W - 1) & 1) << 1 |
		             (q->side[2] & 1) << 2 | (q->side[2] >> (W - 1) & 1) << 3);
	}
	return k;
}

/* The image of placement 'o' on a W x H face under frame move t (t odd
 * only when W == H). */
static void orient_move(int W, int H, int t, const struct orient *o,
                        struct orient *img)
{
	memset(img, 0, sizeof *img);
	for (int q = 0; q < 4; q++) {
		int len = q % 2 ? H : W;
		for (int p = 0; p < len; p++) {
			if (!(o->side[q] >> p & 1))
				continue;
			int i = q == 0 ? p : q == 1 ? W - 1 : q == 2 ? p : 0;
			int j = q == 0 ? 0 : q == 1 ? p : q == 2 ? H - 1 : p;
			int a, b;
			poly_flat_apply(t, W, H, i, j, &a, &b);
			add_cell(img, W, H, a, b);
		}
	}
}

/* The pinned type's representative faces (one per G-orbit of faces, the
 * one of highest axis, side 0: -Z for a cube) and its placements there up
 * to the face's stabiliser, whose moves on the frame are the flat moves
 * that keep the W x H frame (all 8 on a square face). */
static void pin_faces(struct shell *s, const struct ptype *ty)
{
	s->npinf = 0;
	for (int a = 2; a >= 0; a--) {
		/* faces of axis a are in the orbit of a higher axis' faces when
		 * the sides are equal (an axis swap maps them) */
		bool higher = false;
		for (int h = a + 1; h < 3; h++)
			higher |= s->L[h] == s->L[a];
		if (higher)
			continue;
		int faces = 2; /* the face orbit: both faces of each equal axis */
		for (int l = 0; l < a; l++)
			faces += 2 * (s->L[l] == s->L[a]);
		int f0 = 2 * a, W = s->fw[f0], H = s->fh[f0];
		const struct onaxis *ax = ty->ax[a];
		if (ax->nor == 0)
			continue;
		struct pinface *pf = &s->pinf[s->npinf++];
		pf->face = f0;
		pf->nrep = 0;
		bool seen[SH_MAXPLACE] = {false};
		for (int k = 0; k < ax->nor; k++) {
			if (seen[k])
				continue;
			int size = 0;
			for (int t = 0; t < 8; t++) {
				if (t % 2 && W != H)
					continue;
				struct orient img;
				orient_move(W, H, t, &ax->o[k], &img);
				int m = orient_find(ax->o, ax->nor, &img);
				assert(m >= 0);
				if (!seen[m]) {
					seen[m] = true;
					size++;
				}
			}
			pf->rep[pf->nrep] = k;
			pf->orbit[pf->nrep++] = faces * size;
		}
	}
}

/* The least of a placement table (by orient_cmp), NULL when empty. */
static const struct orient *least(const struct onaxis *ax)
{
	const struct orient *m = ax->nor ? &ax->o[0] : NULL;
	for (int k = 1; k < ax->nor; k++)
		if (orient_cmp(&ax->o[k], m) < 0)
			m = &ax->o[k];
	return m;
}

/* Whether two plates are congruent, from their placements: a placement
 * fixes every cell of the plate (its borders as masks, its centre full),
 * so sharing one (the least, on the first axis where they fit) means the
 * same plate; congruent plates have the same placements everywhere.
 * Plates that fit no face at all compare equal, which is harmless: the
 * puzzle then has no assembly whatever the types. */
static bool same_plate(struct onaxis *const a[3], struct onaxis *const b[3])
{
	for (int k = 0; k < 3; k++)
		if (a[k]->nor != b[k]->nor)
			return false;
	for (int k = 0; k < 3; k++)
		if (a[k]->nor)
			return orient_cmp(least(a[k]), least(b[k])) == 0;
	return true;
}

/* Group the plates into types (congruent plates: one type) and find each
 * type's placements on the faces of each axis. */
void shell_make_types(struct shell *s, const struct shell_plate pl[6])
{
	for (int p = 0; p < 6; p++) {
		int t = s->ntypes;
		struct ptype *ty = &s->type[t];
		for (int a = 0; a < 3; a++) {
			/* faces of the same shape share the placements */
			int same = 0;
			while (same < a && !(s->fw[2 * same] == s->fw[2 * a] &&
			                     s->fh[2 * same] == s->fh[2 * a]))
				same++;
			ty->ax[a] = &s->place[t][same];
			if (same == a)
				ty->ax[a]->nor = placements(s->fw[2 * a], s->fh[2 * a],
				                            &pl[p], ty->ax[a]->o);
		}
		int k = 0;
		while (k < s->ntypes && !same_plate(s->type[k].ax, ty->ax))
			k++;
		if (k < s->ntypes) {
			s->type[k].count++;
			s->type[k].copy[s->type[k].ncopies++] = p;
			continue;
		}
		ty->count = 1;
		ty->ncopies = 1;
		ty->copy[0] = p;
		s->ntypes++;
	}
}

/* Whether cell (i, j) of a W x H face frame is covered by orientation o. */
static bool covers(int W, int H, const struct orient *o, int i, int j)
{
	if (j == 0) return o->side[0] >> i & 1;
	if (j == H - 1) return o->side[2] >> i & 1;
	if (i == 0) return o->side[3] >> j & 1;
	if (i == W - 1) return o->side[1] >> j & 1;
	return true;
}

static size_t box_index(const int L[3], const int c[3])
{
	return (size_t)c[0] + (size_t)L[0] * ((size_t)c[1] + (size_t)L[1] * c[2]);
}

/* Label the box with the current assembly: lab = type + 1, or
 * step_label[d] for the plate placed at step d when given; reg = face. */
static void label_box(const struct shell *s, const unsigned char *step_label,
                      unsigned char *lab, unsigned char *reg)
{
	for (int d = 0; d < 6; d++) {
		int f = s->order[d], W = s->fw[f], H = s->fh[f];
		const struct orient *o = &s->type[s->ctype[d]].ax[f / 2]->o[s->corient[d]];
		unsigned char l = step_label ? step_label[d]
		                             : (unsigned char)(s->ctype[d] + 1);
		for (int j = 0; j < H; j++)
			for (int i = 0; i < W; i++) {
				if (!covers(W, H, o, i, j))
					continue;
				int c[3];
				face_cell(s->L, f, i, j, c);
				size_t at = box_index(s->L, c);
				lab[at] = l;
				if (reg)
					reg[at] = (unsigned char)f;
			}
	}
}

/* |Stab_G(y)| for the current assembly y, testing the g in G that keep
 * the pinned face in place (the only candidates: see the top). */
static uint64_t stabiliser(struct shell *s)
{
	const int *L = s->L;
	size_t cells = (size_t)L[0] * L[1] * L[2];
	unsigned char *lab = s->lab, *reg = s->reg;
	int f0 = s->order[0], a0 = f0 / 2;
	memset(lab, 0, cells);
	label_box(s, NULL, lab, reg);
	uint64_t stab = 1;
	for (int k = 1; k < s->order_g; k++) {
		int g = s->group[k];
		int e[3] = {0, 0, 0}, ge[3];
		e[a0] = 1;
		poly_sym_apply(g, e, ge);
		if (ge[a0] != 1)
			continue;
		/* A negated axis maps coordinate c to L-1-c. Decide by the
		 * symmetry's sign, not the image's: c = 0 gives -0 = 0. */
		int one[3] = {1, 1, 1}, sign[3];
		poly_sym_apply(g, one, sign);
		int map[6] = {-1, -1, -1, -1, -1, -1};
		bool ok = true;
		for (int z = 0; z < L[2] && ok; z++)
			for (int y = 0; y < L[1] && ok; y++)
				for (int x = 0; x < L[0] && ok; x++) {
					int c[3] = {x, y, z}, d[3];
					size_t at = box_index(L, c);
					if (!lab[at])
						continue;
					poly_sym_apply(g, c, d);
					for (int q = 0; q < 3; q++)
						if (sign[q] < 0)
							d[q] += L[q] - 1;
					size_t bt = box_index(L, d);
					if (lab[bt] != lab[at]) {
						ok = false;
						break;
					}
					if (map[reg[at]] < 0)
						map[reg[at]] = reg[bt];
					else if (map[reg[at]] != reg[bt])
						ok = false;
				}
		stab += ok;
	}
	return stab;
}

static void found(struct shell *s)
{
	uint64_t orbit = s->pin_orbit;
	uint64_t stab = s->pin_free ? 1 : stabiliser(s);
	s->assemblies += orbit;
	s->weighted += orbit * stab;
	if ((s->want_first && !s->first) || s->o->on_cover) {
		/* Each plate placed is labelled with its own puzzle piece: the
		 * k-th plate of a type placed gets that type's k-th copy. */
		unsigned char step_label[6];
		for (int d = 0; d < 6; d++) {
			int t = s->ctype[d], k = 0;
			for (int e = 0; e < d; e++)
				k += s->ctype[e] == t;
			step_label[d] = (unsigned char)(s->plate_piece[s->type[t].copy[k]] + 1);
		}
		size_t cells = (size_t)s->L[0] * s->L[1] * s->L[2];
		memset(s->lab, 0, cells);
		label_box(s, step_label, s->lab, NULL);
		if (s->want_first && !s->first) {
			s->first = malloc(cells);
			if (!s->first) {
				s->oom = true;
				return;
			}
			memcpy(s->first, s->lab, cells);
		}
		if (s->o->on_cover)
			s->o->on_cover(s->o->ctx, s->lab, NULL);
	}
	if (s->o->max_solutions &&
	    s->weighted / (uint64_t)s->order_g >= s->o->max_solutions)
		s->stop_sol = true;
}

static void search(struct shell *s, int d);

/* Try placement k of type t at step d, and search on from it. */
static inline void step(struct shell *s, int d, int t, int k)
{
	if (s->o->max_nodes && s->nodes >= s->o->max_nodes) {
		s->stop_nodes = true;
		return;
	}
	s->nodes++;
	struct ptype *ty = &s->type[t];
	const struct orient *o = &ty->ax[s->order[d] / 2]->o[k];
	bool full;
	if (!shell_put(s, d, o, &full))
		return;
	if (full) {
		ty->count--;
		s->ctype[d] = t;
		s->corient[d] = k;
		if (d == 5)
			found(s);
		else
			search(s, d + 1);
		ty->count++;
	}
	shell_take(s, d, o);
}

/* Every plate left, at every placement, on step d's face. */
static void search(struct shell *s, int d)
{
	int a = s->order[d] / 2;
	for (int u = 0; u < s->ntypes; u++) {
		if (!s->type[u].count)
			continue;
		const struct onaxis *ax = s->type[u].ax[a];
		for (int k = 0; k < ax->nor; k++) {
			step(s, d, u, k);
			if (s->stop_nodes || s->stop_sol || s->oom)
				return;
		}
	}
}

static void shell_free(struct shell *s)
{
	free(s->lab);
	free(s->reg);
	free(s);
}

static int run(const int L[3], const struct shell_plate pl[6], const int *plate_piece,
               const struct solve_opts *o, struct solve_result *out)
{
	if (o->no_pin)
		return SHELL_NOT_SHELL; /* this path always pins a plate */
	struct shell *s = malloc(sizeof *s);
	size_t cells = (size_t)L[0] * L[1] * L[2];
	unsigned char *lab = malloc(cells), *reg = malloc(cells);
	if (!s || !lab || !reg) {
		free(s);
		free(lab);
		free(reg);
		return SOLVE_ENOMEM;
	}
	memset(s, 0, offsetof(struct shell, place));
	s->lab = lab;
	s->reg = reg;
	memcpy(s->L, L, sizeof s->L);
	s->o = o;
	s->plate_piece = plate_piece;
	s->want_first = o->keep_first;
	shell_setup_geometry(s);
	shell_make_types(s, pl);
	/* Pin the single-copy plate with the most placements: its orbits are
	 * the largest (8 on a square face for a plate with no symmetry). */
	int pin = -1, best = 0;
	for (int t = 0; t < s->ntypes; t++) {
		int nor = s->type[t].ax[0]->nor + s->type[t].ax[1]->nor +
		          s->type[t].ax[2]->nor;
		if (s->type[t].count == 1 && nor > 0 && (pin < 0 || nor > best)) {
			pin = t;
			best = nor;
		}
	}
	if (pin < 0) {
		shell_free(s);
		return SHELL_NOT_SHELL;
	}
	/* The pinned type is type 0, tried first at step 0. */
	struct ptype tmp = s->type[0];
	s->type[0] = s->type[pin];
	s->type[pin] = tmp;
	pin_faces(s, &s->type[0]);
	for (int i = 0; i < s->npinf && !s->stop_nodes && !s->stop_sol && !s->oom; i++) {
		const struct pinface *pf = &s->pinf[i];
		shell_setup_order(s, pf->face, pf->face / 2 == 0 ? 1 : 0);
		for (int r = 0; r < pf->nrep; r++) {
			s->pin_orbit = (uint64_t)pf->orbit[r];
			/* |Stab_G(r)| = |G| / |G r|: trivial means no test */
			s->pin_free = s->pin_orbit == (uint64_t)s->order_g;
			step(s, 0, 0, pf->rep[r]);
			if (s->stop_nodes || s->stop_sol || s->oom)
				break;
		}
	}
	if (s->oom) {
		free(s->first);
		shell_free(s);
		return SOLVE_ENOMEM;
	}
	/* Each orbit of assemblies adds exactly |G| to weighted once it is
	 * complete: anything else is a counting bug, never a result. */
	assert(s->stop_nodes || s->stop_sol ||
	       s->weighted % (uint64_t)s->order_g == 0);
	struct solve_result r = {
		.solutions = s->weighted / (uint64_t)s->order_g,
		.assemblies = s->assemblies,
		.nodes = s->nodes,
		.complete = !s->stop_nodes && !s->stop_sol,
		.stop = s->stop_nodes ? SOLVE_MAX_NODES
		      : s->stop_sol ? SOLVE_MAX_SOLUTIONS : SOLVE_DONE,
		.group_order = s->order_g,
		.mirror_closed = true,
		.fast_path = true,
		.first = s->first,
	};
	*out = r;
	shell_free(s);
	return SOLVE_OK;
}

/* Whether the plates meet the condition in shell.h: each holds a full
 * 2 x 2 block of cells, so it can lie only in a face plane. */
bool shell_plates_ok(const struct shell_plate pl[6])
{
	for (int p = 0; p < 6; p++) {
		bool found = false;
		for (int y = 0; y + 1 < pl[p].ph && !found; y++)
			for (int x = 0; x + 1 < pl[p].pw && !found; x++) {
				const unsigned char *c = pl[p].cells + x + pl[p].pw * y;
				found = c[0] && c[1] && c[pl[p].pw] && c[pl[p].pw + 1];
			}
		if (!found)
			return false;
	}
	return true;
}

bool shell_box_ok(const int L[3])
{
	for (int k = 0; k < 3; k++)
		if (L[k] < 3 || L[k] > SH_MAXN)
			return false;
	return true;
}

int shell_plates_given(const int dim[3], const unsigned char *const plates[6],
                       const int (*pdims)[2], struct shell_plate pl[6])
{
	if (!shell_box_ok(dim))
		return SHELL_NOT_SHELL;
	for (int p = 0; p < 6; p++) {
		if (pdims[p][0] < 1 || pdims[p][1] < 1 || pdims[p][0] > SH_MAXN ||
		    pdims[p][1] > SH_MAXN)
			return SHELL_NOT_SHELL;
		pl[p] = (struct shell_plate){pdims[p][0], pdims[p][1], plates[p]};
	}
	return shell_plates_ok(pl) ? 0 : SHELL_NOT_SHELL;
}

int shell_count(const int dim[3], const unsigned char *const plates[6],
                const int (*pdims)[2], const struct solve_opts *o,
                struct solve_result *out)
{
	struct shell_plate pl[6];
	if (shell_plates_given(dim, plates, pdims, pl) != 0)
		return SHELL_NOT_SHELL;
	int ident[6] = {0, 1, 2, 3, 4, 5};
	return run(dim, pl, ident, o, out);
}

int shell_plates_of(const struct puzzle *p, int L[3],
                    struct shell_plate pl[6], int piece_of[6])
{
	const struct grid *g = &p->goal;
	/* colours, optional cells, ranges and regions are the general
	 * solver's */
	if (!puz_plain(p))
		return SHELL_NOT_SHELL;
	L[0] = g->nx;
	L[1] = g->ny;
	L[2] = g->nz;
	if (!shell_box_ok(L))
		return SHELL_NOT_SHELL;
	for (int z = 0; z < L[2]; z++)
		for (int y = 0; y < L[1]; y++)
			for (int x = 0; x < L[0]; x++) {
				bool sh = x == 0 || y == 0 || z == 0 || x == L[0] - 1 ||
				          y == L[1] - 1 || z == L[2] - 1;
				if (g->cells[puz_grid_index(g, x, y, z)] != sh)
					return SHELL_NOT_SHELL;
			}
	unsigned total = 0;
	for (size_t i = 0; i < p->npieces; i++) {
		total += p->pieces[i].count;
		if (total > 6)
			return SHELL_NOT_SHELL;
	}
	if (total != 6)
		return SHELL_NOT_SHELL;
	int k = 0;
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *s = &p->pieces[i].shape;
		/* a flat piece: one axis of length 1; its cells, read along the
		 * other two (u < v), are a d[u] x d[v] plate as stored (x fastest
		 * then y then z, so the plate is the grid's own cell array) */
		int d[3] = {s->nx, s->ny, s->nz}, flat = -1;
		for (int a = 2; a >= 0; a--)
			if (d[a] == 1)
				flat = a;
		int u = flat == 0 ? 1 : 0, v = flat == 2 ? 1 : 2;
		if (flat < 0 || d[u] > SH_MAXN || d[v] > SH_MAXN)
			return SHELL_NOT_SHELL;
		for (unsigned cpy = 0; cpy < p->pieces[i].count; cpy++) {
			pl[k] = (struct shell_plate){d[u], d[v], s->cells};
			piece_of[k++] = (int)i;
		}
	}
	return shell_plates_ok(pl) ? 0 : SHELL_NOT_SHELL;
}

int shell_solve(const struct puzzle *p, const struct solve_opts *o,
                struct solve_result *out)
{
	int L[3], piece_of[6];
	struct shell_plate pl[6];
	if (shell_plates_of(p, L, pl, piece_of) != 0)
		return SHELL_NOT_SHELL;
	return run(L, pl, piece_of, o, out);
}
