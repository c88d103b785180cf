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
 * In the file, every box side is computed by the same expression,
 * cubegen_at(k, t) = k*unit - t*clearance/2, as mesh.c computes its grid
 * lines, and the boxes are polyhedra with those exact corners: sides of
 * two boxes that meet or are coplanar coincide to the last bit, so CGAL's
 * exact union leaves no sliver (translate() of a cube() would round the
 * far corner differently from box to box).
 */
#include <assert.h>
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

static void header(struct out *o, const char *title, double unit,
		   double clearance, const double *gap)
{
	char u[32], c[32], lo[32], hi[32];
	if (title && *title)
		comment(o, title);
	emit(o, "// Made by cubegen: a standalone, parametric OpenSCAD model. Change\n"
		"// unit or clearance (Window > Customizer), render (F6), export STL.\n"
		"\n/* [Size] */\n");
	num(u, unit);
	num(lo, unit < 2 ? unit : 2);
	num(hi, unit > 50 ? unit : 50);
	emit(o, "// Edge of one cell, in mm\nunit = %s; // [%s:0.5:%s]\n", u, lo, hi);
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
	emit(o, "\n/* [Hidden] */\n");
}

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

static void module_text(struct out *o)
{
	emit(o, "\nassert(unit > 0, \"unit must be positive\");\n"
		"assert(clearance >= 0 && clearance < unit / 2, "
		"\"clearance must be at least 0 and less than unit/2\");\n"
		"\n"
		"// Where a box side lies along an axis: cell boundary k, moved by t\n"
		"// half-clearances (t = 0, 1 or 2); the piece is moved by -clearance/2\n"
		"// so that its lowest corner is at the origin, on z = 0.\n"
		"function cubegen_at(k, t) = k * unit - t * (clearance / 2);\n"
		"\n"
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
		"module cubegen_piece(boxes) {\n"
		"  for (b = boxes)\n"
		"    cubegen_box([for (a = [0 : 2]) cubegen_at(b[a], 1 - b[6 + 2 * a])],\n"
		"                [for (a = [0 : 2]) cubegen_at(b[a] + b[3 + a], 1 + b[7 + 2 * a])]);\n"
		"}\n");
}

static const char cover_note[] =
	"// The piece: each of its cells is a unit cube moved in by clearance/2 on\n"
	"// every face not glued to a cell of the same piece, all unioned. Here the\n"
	"// cells are merged into boxes [x, y, z, size x, size y, size z] (in\n"
	"// cells) with inset flags [-x, +x, -y, +y, -z, +z]: 1 where the side moves\n"
	"// in by clearance/2. Boxes may overlap; their union is the piece (see\n"
	"// cubegen's mesh/scad.c).\n";

static int finish(struct out *o)
{
	if (!o->err && fflush(o->fp) != 0)
		o->err = 1;
	return o->err ? MESH_EIO : MESH_OK;
}

int mesh_write_scad(FILE *fp, const unsigned char *cells, int nx, int ny,
		    int nz, double unit, double clearance, const char *title)
{
	assert(fp && cells);
	struct mesh_piece p;
	int rc = mesh_piece_init(&p, cells, nx, ny, nz, unit, clearance);
	if (rc == MESH_OK)
		rc = mesh_piece_manifold(&p, clearance);
	if (rc != MESH_OK)
		return rc;
	struct mesh_box *b;
	size_t n;
	rc = mesh_cover_boxes(&p, &b, &n);
	if (rc != MESH_OK)
		return rc;
	struct out o = {fp, 0};
	header(&o, title, unit, clearance, NULL);
	emit(&o, "%s", cover_note);
	boxes_data(&o, "piece", b, n);
	module_text(&o);
	emit(&o, "\ncubegen_piece(piece);\n");
	free(b);
	return finish(&o);
}

int mesh_write_scad_plate(FILE *fp, const unsigned char *const *cells,
			  const int (*dims)[3], size_t count, double unit,
			  double clearance, double gap_mm, const char *title)
{
	assert(fp && (count == 0 || (cells && dims)));
	if (count == 0 || !(gap_mm > 0) || !isfinite(gap_mm) ||
	    count > SIZE_MAX / sizeof(struct mesh_piece))
		return MESH_EINVAL;
	/* Every piece's boxes are made before the first byte is written, so
	 * that running out of memory leaves 'fp' as it was, not holding the
	 * first pieces of a plate. */
	struct mesh_piece *pc = malloc(count * sizeof *pc);
	struct mesh_place *pl = malloc(count * sizeof *pl);
	struct mesh_box **box = calloc(count, sizeof *box);
	size_t *nbox = malloc(count * sizeof *nbox);
	int rc = pc && pl && box && nbox ? MESH_OK : MESH_ENOMEM;
	for (size_t i = 0; i < count && rc == MESH_OK; i++) {
		rc = mesh_piece_init(&pc[i], cells[i], dims[i][0], dims[i][1],
				     dims[i][2], unit, clearance);
		if (rc == MESH_OK)
			rc = mesh_piece_manifold(&pc[i], clearance);
	}
	for (size_t i = 0; i < count && rc == MESH_OK; i++)
		rc = mesh_cover_boxes(&pc[i], &box[i], &nbox[i]);
	if (rc == MESH_OK) {
		struct out o = {fp, 0};
		mesh_plate_layout(pc, count, pl);
		header(&o, title, unit, clearance, &gap_mm);
		emit(&o, "%s", cover_note);
		for (size_t i = 0; i < count; i++) {
			char name[32];
			snprintf(name, sizeof name, "piece_%zu", i + 1);
			boxes_data(&o, name, box[i], nbox[i]);
		}
		emit(&o, "pieces = [");
		for (size_t i = 0; i < count; i++)
			emit(&o, "piece_%zu%s", i + 1, i + 1 < count ? ", " : "];\n");
		emit(&o, "// Where each piece goes: [column, row, cells of the columns "
			 "left of it, cells of the rows in front of it]\nplace = [\n");
		for (size_t i = 0; i < count; i++)
			emit(&o, "  [%d, %d, %ld, %ld]%s\n", pl[i].col, pl[i].row,
			     pl[i].sx, pl[i].sy, i + 1 < count ? "," : "");
		emit(&o, "];\n");
		module_text(&o);
		emit(&o, "assert(gap > 0, \"gap must be positive\");\n"
			 "\n"
			 "for (i = [0 : len(pieces) - 1])\n"
			 "  translate([place[i][2] * unit + place[i][0] * (gap - clearance),\n"
			 "             place[i][3] * unit + place[i][1] * (gap - clearance), 0])\n"
			 "    cubegen_piece(pieces[i]);\n");
		rc = finish(&o);
	}
	for (size_t i = 0; box && i < count; i++)
		free(box[i]);
	free(box);
	free(nbox);
	free(pc);
	free(pl);
	return rc;
}
