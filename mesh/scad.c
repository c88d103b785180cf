/*
 * scad.c: standalone, parametric OpenSCAD for pieces and build plates.
 *
 * The file builds the solid of mesh.h, the union of the piece's cells'
 * boxes, each inset by h = clearance/2 on its exposed faces, as a union of
 * a few larger boxes, which CGAL unions exactly and fast (OpenSCAD
 * 2021.01: a piece of an N = 5 puzzle, 3 to 12 boxes, in 0.2 to 0.5 s, its
 * plate of six in 1.2 s; an N = 20 piece, ~40 boxes, in 2 s).
 *
 * Why the union of the file's boxes is exactly the solid. A box M of the
 * piece's cells has a side inset by h unless every cell across that side
 * is in the piece (struct mesh_box). Inside each cell c of M, M's inset
 * box lies in c's own box: a side of c inside M is glued, and a side of c
 * on a side of M that is not inset has its neighbour in the piece. So
 * every such box lies in the solid. Conversely, cut every cell into 27
 * zone blocks (low zone, core, high zone per axis, as in mesh.c, step 1):
 * the solid is the union of its zone blocks, and a block of cell c in M
 * lies in M's inset box iff on every axis where it is in a zone, c is not
 * on that side of M or that side of M is not inset (covers()).
 * mesh_cover_boxes() goes through the cells and, in each, through its
 * blocks in the solid, the most constrained first (zone on 3 axes, then
 * 2, 1, the core). For each block not yet in a box it grows a box from
 * the block's cell for as long as the piece allows and that block stays
 * in it, in each of the six axis orders, and keeps the one that takes in
 * the most new blocks. A single cell with its own insets holds every
 * block of that cell, so the loop ends with every block in some box: the
 * union is the solid. Last, boxes all of whose blocks lie in other boxes
 * are dropped. With clearance 0 the union is the plain polycube. This
 * greedy cover is close to the best such boxes can do: over the 60
 * pieces of ten generated N = 5 puzzles it takes 7.8 boxes on average,
 * an exhaustive search 7.6.
 *
 * Nothing in this argument depends on the cells' widths, so it holds on a
 * grid of wall and unit layers too (struct mesh_spec).
 *
 * Notches (mesh.h). The solid is the union above less, at each notched
 * cell corner, the cube between cubegen_at(k, 2) and cubegen_at(k, 0) on
 * each axis (k the corner's cell boundary): exactly the 8 corner blocks
 * around it that mesh.c leaves out. Only a file with a notched piece has
 * the _notches data and the cubegen_notched() module.
 *
 * In the file, every box side is computed by the same expression as
 * mesh.c computes its grid lines, cubegen_at(k, t) = pos(k) - t*clearance/2
 * with pos(k) = nw*wall + nu*unit, nw and nu the wall and unit layers
 * before boundary k (mesh_piece_pos()); the file holds each piece's wall
 * flags and sums them itself. Without walls it is k*unit - t*clearance/2,
 * the same double. The boxes are polyhedra with those exact corners:
 * sides of two boxes that meet or are coplanar coincide to the last bit,
 * so CGAL's exact union leaves no sliver (translate() of a cube() would
 * round the far corner differently from box to box).
 *
 * Labels. The file holds what label.c decides from the cells alone (the
 * rectangle of top cells, whether the text is turned: mesh_label_place())
 * and the strokes in font units (mesh_label_strokes()); OpenSCAD works out
 * the millimetres from unit, wall and clearance with mesh_label_cuts()'
 * expressions, term for term, so for every size the strokes are the
 * mesher's to the bit, and a label with no room (digits under
 * MESH_LABEL_MIN) is left off by the same test. The strokes are
 * polyhedra too, from MESH_LABEL_DEPTH below the top to 1 mm above it,
 * subtracted from the union of the boxes. OpenSCAD 2021.01 renders a
 * 5 x 5 plate of a box's face with a label in 0.2 to 0.6 s and a plate of
 * six in 2.5 to 3.5 s.
 *
 * Walls, labels and the labels switch appear in the file only when some
 * piece has a wall layer or a label: without them the file is the one
 * mesh_write_scad() always wrote, byte for byte.
 */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

/* ---- the cover ------------------------------------------------------------ */

static int box_full(const struct mesh_piece *p, const int lo[3], const int n[3])
{
	for (int z = lo[2]; z < lo[2] + n[2]; z++)
		for (int y = lo[1]; y < lo[1] + n[1]; y++)
			for (int x = lo[0]; x < lo[0] + n[0]; x++)
				if (!mesh_piece_cell(p, x, y, z))
					return 0;
	return 1;
}

/* Set b->inset from the cells across each side (outside the bounding box
 * counts as not in the piece). */
static void set_insets(const struct mesh_piece *p, struct mesh_box *b)
{
	for (int a = 0; a < 3; a++)
		for (int s = 0; s < 2; s++) {
			int lo[3] = {b->lo[0], b->lo[1], b->lo[2]};
			int n[3] = {b->n[0], b->n[1], b->n[2]};
			lo[a] = s ? b->lo[a] + b->n[a] : b->lo[a] - 1;
			n[a] = 1;
			b->inset[a][s] = !box_full(p, lo, n);
		}
}

/* Zone block 'code' = zone x + 3 zone y + 9 zone z (0 low, 1 core, 2 high)
 * of cell c: whether it is in the solid (mesh.c, step 1). */
static int block_solid(const struct mesh_piece *p, const int c[3], int code)
{
	if (!mesh_piece_cell(p, c[0], c[1], c[2]))
		return 0;
	for (int a = 0, k = code; a < 3; a++, k /= 3) {
		if (k % 3 == 1)
			continue;
		int d[3] = {c[0], c[1], c[2]};
		d[a] += k % 3 - 1;
		if (!mesh_piece_cell(p, d[0], d[1], d[2]))
			return 0;
	}
	return 1;
}

/* Whether zone block 'code' of cell c, a cell of box b, lies in b's inset
 * box. */
static int covers(const struct mesh_box *b, const int c[3], int code)
{
	for (int a = 0, k = code; a < 3; a++, k /= 3) {
		if (k % 3 == 0 && c[a] == b->lo[a] && b->inset[a][0])
			return 0;
		if (k % 3 == 2 && c[a] == b->lo[a] + b->n[a] - 1 && b->inset[a][1])
			return 0;
	}
	return 1;
}

/* Grow 'b' along the axes in 'order', one slab of cells at a time, while
 * the slab is in the piece and block 'code' of cell c stays covered. */
static void grow(const struct mesh_piece *p, struct mesh_box *b,
		 const int order[3], const int c[3], int code)
{
	for (int k = 0; k < 3; k++) {
		int a = order[k];
		for (int s = 0; s < 2; s++)
			for (;;) {
				struct mesh_box t = *b;
				t.lo[a] = s ? b->lo[a] + b->n[a] : b->lo[a] - 1;
				t.n[a] = 1;
				if (!box_full(p, t.lo, t.n))
					break;
				t = *b;
				t.n[a]++;
				t.lo[a] -= !s;
				set_insets(p, &t);
				if (!covers(&t, c, code))
					break;
				*b = t;
			}
	}
}

/* Index of cell c in the per-block state array (27 per cell). */
static size_t block_index(const struct mesh_piece *p, const int c[3], int code)
{
	return ((size_t)c[0] + (size_t)p->n[0] * ((size_t)c[1] + (size_t)p->n[1] * (size_t)c[2])) * 27 +
	       (size_t)code;
}

/* For each block of b's cells that 'state' has as 1 (in the solid, in no
 * box yet) and b covers: count it, and with 'mark' set its state to 2. */
static size_t take_blocks(const struct mesh_piece *p, const struct mesh_box *b,
			  unsigned char *state, int mark)
{
	size_t n = 0;
	int c[3];
	for (c[2] = b->lo[2]; c[2] < b->lo[2] + b->n[2]; c[2]++)
		for (c[1] = b->lo[1]; c[1] < b->lo[1] + b->n[1]; c[1]++)
			for (c[0] = b->lo[0]; c[0] < b->lo[0] + b->n[0]; c[0]++)
				for (int code = 0; code < 27; code++) {
					unsigned char *st = &state[block_index(p, c, code)];
					if (*st == 1 && covers(b, c, code)) {
						n++;
						if (mark)
							*st = 2;
					}
				}
	return n;
}

/* Add 'delta' (+1 or -1) to mult[] for every solid block b covers, or
 * with delta 0 count those that only b covers (mult 1). */
static size_t count_blocks(const struct mesh_piece *p, const struct mesh_box *b,
			   uint32_t *mult, int delta)
{
	size_t n = 0;
	int c[3];
	for (c[2] = b->lo[2]; c[2] < b->lo[2] + b->n[2]; c[2]++)
		for (c[1] = b->lo[1]; c[1] < b->lo[1] + b->n[1]; c[1]++)
			for (c[0] = b->lo[0]; c[0] < b->lo[0] + b->n[0]; c[0]++)
				for (int code = 0; code < 27; code++) {
					if (!covers(b, c, code) || !block_solid(p, c, code))
						continue;
					uint32_t *m = &mult[block_index(p, c, code)];
					if (delta > 0)
						++*m;
					else if (delta < 0)
						--*m;
					else
						n += *m == 1;
				}
	return n;
}

int mesh_cover_boxes(const struct mesh_piece *p, struct mesh_box **out,
		     size_t *count)
{
	assert(p && out && count);
	const int *n = p->n;
	size_t ncells = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
	if (ncells > SIZE_MAX / 27)
		return MESH_ENOMEM;
	/* per zone block: 0 not in the solid, 1 in no box yet, 2 in a box */
	unsigned char *state = malloc(ncells * 27);
	struct mesh_box *boxes = NULL;
	size_t len = 0, cap = 0;
	if (!state)
		return MESH_ENOMEM;
	int c[3];
	for (c[2] = 0; c[2] < n[2]; c[2]++)
		for (c[1] = 0; c[1] < n[1]; c[1]++)
			for (c[0] = 0; c[0] < n[0]; c[0]++)
				for (int code = 0; code < 27; code++)
					state[block_index(p, c, code)] =
						(unsigned char)block_solid(p, c, code);
	/* blocks by the number of axes on which they are in a zone, most first */
	int order_codes[27], no = 0;
	for (int zn = 3; zn >= 0; zn--)
		for (int code = 0; code < 27; code++)
			if ((code % 3 != 1) + (code / 3 % 3 != 1) + (code / 9 != 1) == zn)
				order_codes[no++] = code;
	static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
					 {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	for (c[2] = 0; c[2] < n[2]; c[2]++)
		for (c[1] = 0; c[1] < n[1]; c[1]++)
			for (c[0] = 0; c[0] < n[0]; c[0]++)
				for (int k = 0; k < 27; k++) {
					int code = order_codes[k];
					if (state[block_index(p, c, code)] != 1)
						continue;
					struct mesh_box one = {{c[0], c[1], c[2]}, {1, 1, 1}, {{0}}};
					set_insets(p, &one);
					struct mesh_box best = one;
					size_t bestn = 0;
					long bestv = 0;
					for (int o = 0; o < 6; o++) {
						struct mesh_box g = one;
						grow(p, &g, orders[o], c, code);
						size_t gn = take_blocks(p, &g, state, 0);
						long gv = (long)g.n[0] * g.n[1] * g.n[2];
						if (gn > bestn || (gn == bestn && gv > bestv)) {
							best = g;
							bestn = gn;
							bestv = gv;
						}
					}
					if (len == cap) {
						size_t ncap = cap ? 2 * cap : 16;
						void *nbx = realloc(boxes, ncap * sizeof *boxes);
						if (!nbx) {
							free(boxes);
							free(state);
							return MESH_ENOMEM;
						}
						boxes = nbx;
						cap = ncap;
					}
					boxes[len++] = best;
					take_blocks(p, &best, state, 1);
				}
	free(state);
	/* Drop boxes whose every block is also in another box: the greedy
	 * order takes a box before later ones make it redundant. */
	uint32_t *mult = calloc(ncells * 27, sizeof *mult);
	if (!mult) {
		free(boxes);
		return MESH_ENOMEM;
	}
	for (size_t i = 0; i < len; i++)
		count_blocks(p, &boxes[i], mult, 1);
	size_t kept = 0;
	for (size_t i = 0; i < len; i++) {
		if (count_blocks(p, &boxes[i], mult, 0)) {
			boxes[kept++] = boxes[i];
			continue;
		}
		count_blocks(p, &boxes[i], mult, -1);
	}
	free(mult);
	*out = boxes;
	*count = kept;
	return MESH_OK;
}

/* ---- writing -------------------------------------------------------------- */


struct out {
	FILE *fp;
	int err; /* a write failed */
};

static void emit(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void emit(struct out *o, const char *fmt, ...)
{
	if (o->err)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vfprintf(o->fp, fmt, ap) < 0)
		o->err = 1;
	va_end(ap);
}

/* The shortest plain decimal that reads back as 'v' (OpenSCAD parses
 * doubles), "10" rather than "1e+01"; exponent form only for extremes. */
static void num(char buf[32], double v)
{
	if (fabs(v) < 1e15 && (v == 0 || fabs(v) >= 1e-6))
		for (int prec = 0; prec <= 17; prec++) {
			snprintf(buf, 32, "%.*f", prec, v);
			if (strtod(buf, NULL) == v)
				return;
		}
	snprintf(buf, 32, "%.17g", v);
}

/* A comment line: printable ASCII only, so the title cannot end it. */
static void comment(struct out *o, const char *text)
{
	emit(o, "// ");
	for (const char *t = text; *t; t++)
		emit(o, "%c", *t >= 0x20 && *t < 0x7f ? *t : '?');
	emit(o, "\n");
}

/* One piece, ready to write: everything that can fail is done for every
 * piece before the first byte goes out, so that an error leaves 'fp' as
 * it was, not holding the first pieces of a plate. */
struct prep {
	struct mesh_box *box;       /* mesh_cover_boxes(), owned */
	size_t nbox;
	struct mesh_label_place lp; /* lp.ok = 0: no label */
	int stroke[MESH_LABEL_STROKES][4]; /* lp.ok: the label's strokes */
	int nstroke, w, ylo;        /* their count, the text's width and
				       lowest y, font units */
	int (*notch)[3];            /* the notched cell corners (mesh.h),
				       bounding-box lattice points, owned */
	size_t nnotch;
};

/* What a file needs beyond unit and clearance. Without walls and labels
 * its text is the one mesh_write_scad() always wrote, byte for byte; each
 * is added only where some piece uses it, so a maker never sees a
 * parameter that changes nothing. */
struct features {
	int walls;    /* some layer of some piece's bounding box is a wall */
	int labels;   /* some piece has a label */
	int unit_top; /* a labelled piece's top layer is a unit layer */
	int wall_top; /* ... a wall layer */
	int notches;  /* some piece has a notched corner (mesh.h) */
};

/* The piece's notched corners into q->notch (NULL when none).
 * MESH_ENOMEM. */
static int notches_of(const struct mesh_piece *p, struct prep *q)
{
	q->notch = NULL;
	q->nnotch = mesh_piece_notches(p);
	if (q->nnotch == 0)
		return MESH_OK;
	q->notch = malloc(q->nnotch * sizeof *q->notch);
	if (!q->notch)
		return MESH_ENOMEM;
	size_t k = 0;
	for (int z = 1; z < p->n[2]; z++)
		for (int y = 1; y < p->n[1]; y++)
			for (int x = 1; x < p->n[0]; x++)
				if (mesh_piece_notch(p, x, y, z)) {
					q->notch[k][0] = x;
					q->notch[k][1] = y;
					q->notch[k][2] = z;
					k++;
				}
	assert(k == q->nnotch);
	return MESH_OK;
}

/* Validate spec 's' at size 'sz' as mesh_build() does (but for the float
 * range checks of the mesher) and fill '*p' and '*q' (q->box and
 * q->notch are then q's to free). MESH_EINVAL, MESH_EDISCONNECTED, MESH_ENONMANIFOLD,
 * MESH_ENOMEM; q->box stays NULL on failure. */
static int prepare(const struct mesh_spec *s, const struct mesh_size *sz,
		   struct mesh_piece *p, struct prep *q)
{
	int rc = mesh_piece_init_spec(p, s, sz);
	if (rc == MESH_OK)
		rc = mesh_piece_manifold(p, sz->clearance);
	if (rc == MESH_OK)
		rc = mesh_label_place(p, &q->lp);
	if (rc != MESH_OK)
		return rc;
	q->nstroke = 0;
	if (q->lp.ok)
		q->nstroke = mesh_label_strokes(p->label, q->stroke, &q->w, &q->ylo);
	assert(!q->lp.ok || q->nstroke > 0);
	rc = notches_of(p, q);
	if (rc != MESH_OK)
		return rc;
	return mesh_cover_boxes(p, &q->box, &q->nbox);
}

static void features_of(const struct mesh_piece *p, const struct prep *q,
			size_t count, struct features *f)
{
	*f = (struct features){0};
	for (size_t i = 0; i < count; i++) {
		for (int a = 0; a < 3; a++)
			for (int k = 0; k < p[i].n[a]; k++)
				f->walls |= mesh_piece_is_wall(&p[i], a, k);
		f->notches |= q[i].nnotch > 0;
		if (q[i].lp.ok) {
			int wall_top = mesh_piece_is_wall(&p[i], 2, p[i].n[2] - 1);
			f->labels = 1;
			f->wall_top |= wall_top;
			f->unit_top |= !wall_top;
		}
	}
}

static void header(struct out *o, const char *title, const struct mesh_size *sz,
		   const struct features *f, const double *gap)
{
	static const char *const names[4] = {
		"unit or clearance", "unit, wall or clearance",
		"unit, clearance or labels", "unit, wall, clearance or labels"};
	char u[32], c[32], lo[32], hi[32];
	double unit = sz->unit, wall = sz->wall, clearance = sz->clearance;
	if (title && *title)
		comment(o, title);
	emit(o, "// Made by cubegen: a standalone, parametric OpenSCAD model. Change\n"
		"// %s (Window > Customizer), render (F6), export STL.\n"
		"\n/* [Size] */\n", names[f->walls + 2 * f->labels]);
	num(u, unit);
	num(lo, unit < 2 ? unit : 2);
	num(hi, unit > 50 ? unit : 50);
	emit(o, "// Edge of one cell, in mm\nunit = %s; // [%s:0.5:%s]\n", u, lo, hi);
	if (f->walls) {
		num(u, wall);
		num(lo, wall < 1 ? wall : 1);
		num(hi, wall > 50 ? wall : 50);
		emit(o, "// Width of a wall layer (the outer layers of the puzzle's box), "
			"in mm\nwall = %s; // [%s:0.5:%s]\n", u, lo, hi);
	}
	num(c, clearance);
	num(hi, clearance > 2 ? clearance : 2);
	emit(o, "// Gap between two pieces that touch, in mm (each face not glued to "
		"the same piece moves in by half of it)\n"
		"clearance = %s; // [0:0.05:%s]\n", c, hi);
	if (gap) {
		char g[32];
		num(g, *gap);
		num(hi, *gap > 50 ? *gap : 50);
		emit(o, "// Space between the pieces on the plate, in mm\n"
			"gap = %s; // [0.5:0.5:%s]\n", g, hi);
	}
	if (f->labels) {
		num(c, MESH_LABEL_DEPTH);
		emit(o, "\n/* [Labels] */\n"
			"// Engrave each piece's number in its top face, %s mm deep\n"
			"labels = true;\n", c);
	}
	emit(o, "\n/* [Hidden] */\n");
}

static const char cover_note[] =
	"// The piece: each of its cells is a unit cube moved in by clearance/2 on\n"
	"// every face not glued to a cell of the same piece, all unioned. Here the\n"
	"// cells are merged into boxes [x, y, z, size x, size y, size z] (in\n"
	"// cells) with inset flags [-x, +x, -y, +y, -z, +z]: 1 where the side moves\n"
	"// in by clearance/2. Boxes may overlap; their union is the piece (see\n"
	"// cubegen's mesh/scad.c).\n";

static const char cover_note_walls[] =
	"// The piece: each of its cells is a box as wide as its layer along each\n"
	"// axis (unit, or wall for a wall layer), moved in by clearance/2 on every\n"
	"// face not glued to a cell of the same piece, all unioned. Here the cells\n"
	"// are merged into boxes [x, y, z, size x, size y, size z] (in cells) with\n"
	"// inset flags [-x, +x, -y, +y, -z, +z]: 1 where the side moves in by\n"
	"// clearance/2. Boxes may overlap; their union is the piece (see\n"
	"// cubegen's mesh/scad.c). Its _walls are, per axis x, y, z, a flag for\n"
	"// each layer of its cells: 1 for a wall layer, 0 for a unit layer.\n";

static const char label_note[] =
	"// Its _label (engraved when labels is true; [] for none) is\n"
	"// [[x0, x1, y0, y1, z1], turned, w, ylo, strokes]: centred on the top of\n"
	"// the cells [x0, x1) x [y0, y1) of its top layer, z1 - 1, and reading\n"
	"// along +y when turned is 1, the text spans [0, w] x [ylo, 10] in font\n"
	"// units (a digit is 6 x 10) and is the union of the strokes\n"
	"// [u0, v0, u1, v1] (font units). The size in mm is worked out below.\n";

static void boxes_data(struct out *o, const char *name,
		       const struct mesh_box *b, size_t n)
{
	emit(o, "%s = [\n", name);
	for (size_t i = 0; i < n; i++)
		emit(o, "  [%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d]%s\n",
		     b[i].lo[0], b[i].lo[1], b[i].lo[2], b[i].n[0], b[i].n[1],
		     b[i].n[2], b[i].inset[0][0], b[i].inset[0][1], b[i].inset[1][0],
		     b[i].inset[1][1], b[i].inset[2][0], b[i].inset[2][1],
		     i + 1 < n ? "," : "");
	emit(o, "];\n");
}

static void walls_data(struct out *o, const char *name, const struct mesh_piece *p)
{
	emit(o, "%s_walls = [", name);
	for (int a = 0; a < 3; a++) {
		emit(o, "[");
		for (int k = 0; k < p->n[a]; k++)
			emit(o, "%d%s", mesh_piece_is_wall(p, a, k), k + 1 < p->n[a] ? ", " : "");
		emit(o, "]%s", a < 2 ? ", " : "];\n");
	}
}

/* The strokes one digit to a line, the underline on its own. */
static const char notch_note[] =
	"// Its _notches are cell corners [x, y, z] (in cells) where a full 2x2\n"
	"// layer has two diagonal cells on one side of it: there the union of\n"
	"// the cells would have two corners meet only along an edge, so a cube\n"
	"// of clearance x clearance x clearance around the corner is cut out.\n";

static void notches_data(struct out *o, const char *name, const struct prep *q)
{
	emit(o, "%s_notches = [", name);
	for (size_t i = 0; i < q->nnotch; i++)
		emit(o, "[%d, %d, %d]%s", q->notch[i][0], q->notch[i][1],
		     q->notch[i][2], i + 1 < q->nnotch ? ", " : "");
	emit(o, "];\n");
}

static void label_data(struct out *o, const char *name, const struct mesh_piece *p,
		       const struct prep *q)
{
	const struct mesh_label_place *lp = &q->lp;
	if (!lp->ok) {
		emit(o, "%s_label = [];\n", name);
		return;
	}
	emit(o, "%s_label = [[%d, %d, %d, %d, %d], %d, %d, %d, [ // \"%s\"", name,
	     lp->x0, lp->x1, lp->y0, lp->y1, p->n[2], lp->turned, q->w, q->ylo,
	     p->label);
	int line = -1;
	for (int k = 0; k < q->nstroke; k++) {
		const int *t = q->stroke[k];
		int l = t[1] < 0 ? INT_MAX : t[0] / (MESH_FONT_W + MESH_FONT_GAP);
		emit(o, "%s[%d, %d, %d, %d]", k == 0 ? "\n  " : l != line ? ",\n  " : ", ",
		     t[0], t[1], t[2], t[3]);
		line = l;
	}
	emit(o, "\n]];\n");
}

/* Everything after the data: checks, the functions and modules. */
static void module_text(struct out *o, const struct features *f)
{
	/* walls[a] as the first argument of cubegen_at() and so on */
	const char *wa = f->walls ? "walls[a], " : "";
	const char *wp = f->walls ? ", walls" : "";
	const char *np = f->notches ? ", notches" : "";
	if (f->labels) {
		char d[32], mg[32], mn[32], fh[32];
		num(d, MESH_LABEL_DEPTH);
		num(mg, MESH_LABEL_MARGIN);
		num(mn, MESH_LABEL_MIN);
		num(fh, MESH_FONT_H);
		emit(o, "\n"
			"// The engraving, in mm: its depth, the margin between the text and\n"
			"// the sides of the top face beyond clearance/2, and the least height\n"
			"// of a digit (a piece with less room gets no label). A digit is %s\n"
			"// font units tall.\n"
			"label_depth = %s;\n"
			"label_margin = %s;\n"
			"label_min = %s;\n", fh, d, mg, mn);
	}
	emit(o, "\nassert(unit > 0, \"unit must be positive\");\n"
		"assert(clearance >= 0 && clearance < unit / 2, "
		"\"clearance must be at least 0 and less than unit/2\");\n");
	if (f->walls)
		emit(o, "assert(wall > 0, \"wall must be positive\");\n"
			"assert(clearance < wall / 2, \"clearance must be less than wall/2\");\n");
	if (f->unit_top)
		emit(o, "assert(!labels || unit - clearance > label_depth, \"with labels, "
			"unit - clearance must be more than label_depth\");\n");
	if (f->wall_top)
		emit(o, "assert(!labels || wall - clearance > label_depth, \"with labels, "
			"wall - clearance must be more than label_depth\");\n");
	if (f->walls)
		emit(o, "\n"
			"// Where a box side lies along an axis whose layers have the wall\n"
			"// flags f: layer boundary k is at nw * wall + nu * unit, nw and nu\n"
			"// the numbers of wall and unit layers before it, moved by t\n"
			"// half-clearances (t = 0, 1 or 2); the piece is moved by\n"
			"// -clearance/2 so that its lowest corner is at the origin, on z = 0.\n"
			"function cubegen_walls(f, k) = k == 0 ? 0 : f[k - 1] + cubegen_walls(f, k - 1);\n"
			"function cubegen_at(f, k, t) = let (nw = cubegen_walls(f, k))\n"
			"  nw * wall + (k - nw) * unit - t * (clearance / 2);\n");
	else
		emit(o, "\n"
			"// Where a box side lies along an axis: cell boundary k, moved by t\n"
			"// half-clearances (t = 0, 1 or 2); the piece is moved by -clearance/2\n"
			"// so that its lowest corner is at the origin, on z = 0.\n"
			"function cubegen_at(k, t) = k * unit - t * (clearance / 2);\n");
	emit(o, "\n"
		"// A box from two corners, as a polyhedron: its corners are exactly the\n"
		"// cubegen_at() values, so boxes that meet share faces exactly (a\n"
		"// translated cube() would round its far corner box by box).\n"
		"module cubegen_box(lo, hi) {\n"
		"  polyhedron(\n"
		"    points = [for (i = [0 : 7]) [i %% 2 < 1 ? lo[0] : hi[0],\n"
		"                                 i %% 4 < 2 ? lo[1] : hi[1],\n"
		"                                 i < 4 ? lo[2] : hi[2]]],\n"
		"    faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6],\n"
		"             [0, 2, 6, 4], [1, 5, 7, 3]]);\n"
		"}\n"
		"\n"
		"// A piece from its boxes, all unioned: box [x, y, z, sx, sy, sz, ...] is\n"
		"// the cells [x, x + sx) x [y, y + sy) x [z, z + sz), each side moved in\n"
		"// by clearance/2 where its flag (-x, +x, -y, +y, -z, +z) is 1.\n"
		"module cubegen_piece(boxes%s) {\n"
		"  for (b = boxes)\n"
		"    cubegen_box([for (a = [0 : 2]) cubegen_at(%sb[a], 1 - b[6 + 2 * a])],\n"
		"                [for (a = [0 : 2]) cubegen_at(%sb[a] + b[3 + a], 1 + b[7 + 2 * a])]);\n"
		"}\n", wp, wa, wa);
	if (f->notches)
		emit(o, "\n"
			"// The piece less a cube of clearance x clearance x clearance around\n"
			"// each of its notched corners (cell boundaries, t = 1: from t = 2 to\n"
			"// t = 0).\n"
			"module cubegen_notched(boxes%s, notches) {\n"
			"  difference() {\n"
			"    cubegen_piece(boxes%s);\n"
			"    if (clearance > 0)\n"
			"      for (v = notches)\n"
			"        cubegen_box([for (a = [0 : 2]) cubegen_at(%sv[a], 2)],\n"
			"                    [for (a = [0 : 2]) cubegen_at(%sv[a], 0)]);\n"
			"  }\n"
			"}\n", wp, wp, wa, wa);
	if (!f->labels)
		return;
	char fh[32];
	num(fh, MESH_FONT_H);
	const char *w0 = f->walls ? "walls[0], " : "", *w1 = f->walls ? "walls[1], " : "";
	const char *w2 = f->walls ? "walls[2], " : "";
	const char *body = f->notches ? "cubegen_notched" : "cubegen_piece";
	emit(o, "\n"
		"// A label's strokes, to cut out of the piece: the text scaled by s to\n"
		"// fit the rectangle r = [x0, x1, y0, y1] (mm) less clearance/2 +\n"
		"// label_margin on each side, centred, from label_depth below 'top' to\n"
		"// 1 mm above it (so the cut is clean). Nothing when the digits would\n"
		"// be under label_min tall.\n"
		"module cubegen_label(r, top, label) {\n"
		"  turned = label[1];\n"
		"  w = label[2];\n"
		"  ylo = label[3];\n"
		"  m = clearance / 2 + label_margin;\n"
		"  aw = r[1] - r[0] - 2 * m;\n"
		"  ah = r[3] - r[2] - 2 * m;\n"
		"  fh = %s - ylo;\n"
		"  s = turned ? min(aw / fh, ah / w) : min(aw / w, ah / fh);\n"
		"  cx = (r[0] + r[1]) / 2;\n"
		"  cy = (r[2] + r[3]) / 2;\n"
		"  uc = w / 2;\n"
		"  vc = (ylo + %s) / 2;\n"
		"  if (s * %s >= label_min)\n"
		"    for (t = label[4])\n"
		"      if (turned) // the text's u along +y, its v along -x\n"
		"        cubegen_box([cx - (t[3] - vc) * s, cy + (t[0] - uc) * s, top - label_depth],\n"
		"                    [cx - (t[1] - vc) * s, cy + (t[2] - uc) * s, top + 1]);\n"
		"      else\n"
		"        cubegen_box([cx + (t[0] - uc) * s, cy + (t[1] - vc) * s, top - label_depth],\n"
		"                    [cx + (t[2] - uc) * s, cy + (t[3] - vc) * s, top + 1]);\n"
		"}\n"
		"\n"
		"// A piece with its label cut out of its top when labels is true: the\n"
		"// rectangle's sides at cell boundaries (t = 1), the top face at t = 2.\n"
		"module cubegen_part(boxes%s%s, label) {\n"
		"  if (labels && len(label) > 0)\n"
		"    difference() {\n"
		"      %s(boxes%s%s);\n"
		"      cubegen_label([cubegen_at(%slabel[0][0], 1), cubegen_at(%slabel[0][1], 1),\n"
		"                     cubegen_at(%slabel[0][2], 1), cubegen_at(%slabel[0][3], 1)],\n"
		"                    cubegen_at(%slabel[0][4], 2), label);\n"
		"    }\n"
		"  else\n"
		"    %s(boxes%s%s);\n"
		"}\n",
	     fh, fh, fh, wp, np, body, wp, np, w0, w0, w1, w1, w2, body, wp, np);
}

static int finish(struct out *o)
{
	if (!o->err && fflush(o->fp) != 0)
		o->err = 1;
	return o->err ? MESH_EIO : MESH_OK;
}

/* One piece's data: its boxes 'name', and name_walls and name_label when
 * the file has walls or labels. */
static void piece_data(struct out *o, const char *name, const struct mesh_piece *p,
		       const struct prep *q, const struct features *f)
{
	boxes_data(o, name, q->box, q->nbox);
	if (f->walls)
		walls_data(o, name, p);
	if (f->notches)
		notches_data(o, name, q);
	if (f->labels)
		label_data(o, name, p, q);
}

static void write_piece(struct out *o, const char *title,
			const struct mesh_size *sz, const struct mesh_piece *p,
			const struct prep *q, const struct features *f)
{
	header(o, title, sz, f, NULL);
	emit(o, "%s", f->walls ? cover_note_walls : cover_note);
	if (f->labels)
		emit(o, "%s", label_note);
	if (f->notches)
		emit(o, "%s", notch_note);
	piece_data(o, "piece", p, q, f);
	module_text(o, f);
	const char *w = f->walls ? ", piece_walls" : "";
	const char *n = f->notches ? ", piece_notches" : "";
	if (f->labels)
		emit(o, "\ncubegen_part(piece%s%s, piece_label);\n", w, n);
	else
		emit(o, "\n%s(piece%s%s);\n",
		     f->notches ? "cubegen_notched" : "cubegen_piece", w, n);
}

/* A list 'name' = [piece_1<suffix>, piece_2<suffix>, ...]. */
static void piece_list(struct out *o, const char *name, const char *suffix,
		       size_t count)
{
	emit(o, "%s = [", name);
	for (size_t i = 0; i < count; i++)
		emit(o, "piece_%zu%s%s", i + 1, suffix, i + 1 < count ? ", " : "];\n");
}

static void write_plate(struct out *o, const char *title,
			const struct mesh_size *sz, double gap,
			const struct mesh_piece *p, const struct prep *q,
			const struct mesh_place *pl, size_t count,
			const struct features *f)
{
	header(o, title, sz, f, &gap);
	emit(o, "%s", f->walls ? cover_note_walls : cover_note);
	if (f->labels)
		emit(o, "%s", label_note);
	if (f->notches)
		emit(o, "%s", notch_note);
	for (size_t i = 0; i < count; i++) {
		char name[32];
		snprintf(name, sizeof name, "piece_%zu", i + 1);
		piece_data(o, name, &p[i], &q[i], f);
	}
	piece_list(o, "pieces", "", count);
	if (f->walls)
		piece_list(o, "pieces_walls", "_walls", count);
	if (f->notches)
		piece_list(o, "pieces_notches", "_notches", count);
	if (f->labels)
		piece_list(o, "pieces_label", "_label", count);
	if (f->walls) {
		emit(o, "// Where each piece goes: [column, row, unit layers of the columns "
			"left of it,\n// of the rows in front of it, wall layers of the "
			"columns left of it, of the\n// rows in front of it]\nplace = [\n");
		for (size_t i = 0; i < count; i++)
			emit(o, "  [%d, %d, %ld, %ld, %ld, %ld]%s\n", pl[i].col, pl[i].row,
			     pl[i].sx, pl[i].sy, pl[i].wx, pl[i].wy, i + 1 < count ? "," : "");
	} else {
		emit(o, "// Where each piece goes: [column, row, cells of the columns "
			"left of it, cells of the rows in front of it]\nplace = [\n");
		for (size_t i = 0; i < count; i++)
			emit(o, "  [%d, %d, %ld, %ld]%s\n", pl[i].col, pl[i].row,
			     pl[i].sx, pl[i].sy, i + 1 < count ? "," : "");
	}
	emit(o, "];\n");
	module_text(o, f);
	/* the origin as mesh_build_plate() computes it, term for term */
	const char *wx = f->walls ? "place[i][4] * wall + " : "";
	const char *wy = f->walls ? "place[i][5] * wall + " : "";
	emit(o, "assert(gap > 0, \"gap must be positive\");\n"
		"\n"
		"for (i = [0 : len(pieces) - 1])\n"
		"  translate([%splace[i][2] * unit + place[i][0] * (gap - clearance),\n"
		"             %splace[i][3] * unit + place[i][1] * (gap - clearance), 0])\n",
	     wx, wy);
	const char *w = f->walls ? ", pieces_walls[i]" : "";
	const char *n = f->notches ? ", pieces_notches[i]" : "";
	if (f->labels)
		emit(o, "    cubegen_part(pieces[i]%s%s, pieces_label[i]);\n", w, n);
	else
		emit(o, "    %s(pieces[i]%s%s);\n",
		     f->notches ? "cubegen_notched" : "cubegen_piece", w, n);
}

/* Prepare every piece, then write one piece (gap NULL) or a plate. */
static int write_scad(FILE *fp, const struct mesh_spec *s, size_t count,
		      const struct mesh_size *sz, const double *gap,
		      const char *title)
{
	if (count > SIZE_MAX / sizeof(struct prep))
		return MESH_EINVAL;
	struct mesh_piece *p = malloc(count * sizeof *p);
	struct prep *q = calloc(count, sizeof *q);
	struct mesh_place *pl = gap ? malloc(count * sizeof *pl) : NULL;
	int rc = p && q && (pl || !gap) ? MESH_OK : MESH_ENOMEM;
	for (size_t i = 0; i < count && rc == MESH_OK; i++)
		rc = prepare(&s[i], sz, &p[i], &q[i]);
	if (rc == MESH_OK) {
		struct out o = {fp, 0};
		struct features f;
		features_of(p, q, count, &f);
		if (gap) {
			mesh_plate_layout(p, count, pl);
			write_plate(&o, title, sz, *gap, p, q, pl, count, &f);
		} else {
			write_piece(&o, title, sz, p, q, &f);
		}
		rc = finish(&o);
	}
	for (size_t i = 0; q && i < count; i++) {
		free(q[i].box);
		free(q[i].notch);
	}
	free(p);
	free(q);
	free(pl);
	return rc;
}

int mesh_write_scad_spec(FILE *fp, const struct mesh_spec *s,
			 const struct mesh_size *sz, const char *title)
{
	assert(fp && s && sz);
	return write_scad(fp, s, 1, sz, NULL, title);
}

int mesh_write_scad_plate_spec(FILE *fp, const struct mesh_spec *s,
			       size_t count, const struct mesh_size *sz,
			       double gap_mm, const char *title)
{
	assert(fp && sz && (count == 0 || s));
	if (count == 0 || !(gap_mm > 0) || !isfinite(gap_mm))
		return MESH_EINVAL;
	return write_scad(fp, s, count, sz, &gap_mm, title);
}

int mesh_write_scad(FILE *fp, const unsigned char *cells, int nx, int ny,
		    int nz, double unit, double clearance, const char *title)
{
	assert(fp && cells);
	struct mesh_spec s = {.cells = cells, .dims = {nx, ny, nz}};
	struct mesh_size sz = {unit, unit, clearance};
	return mesh_write_scad_spec(fp, &s, &sz, title);
}

int mesh_write_scad_plate(FILE *fp, const unsigned char *const *cells,
			  const int (*dims)[3], size_t count, double unit,
			  double clearance, double gap_mm, const char *title)
{
	assert(fp && (count == 0 || (cells && dims)));
	struct mesh_spec *s;
	int rc = mesh_specs_from_cells(cells, dims, count, &s);
	if (rc != MESH_OK)
		return rc;
	struct mesh_size sz = {unit, unit, clearance};
	rc = mesh_write_scad_plate_spec(fp, s, count, &sz, gap_mm, title);
	free(s);
	return rc;
}
