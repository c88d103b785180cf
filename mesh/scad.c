/*
 * scad.c: standalone, parametric OpenSCAD for pieces and build plates.
 *
 * The file builds the solid of mesh.h, the piece shrunk by h = clearance/2,
 * as a union of a few cubes, which CGAL unions exactly and fast (a piece
 * of an N = 5 puzzle: 0.2 s). Why a union of shrunk boxes is exact: a
 * point p is in the shrunk piece iff its cube p + [-h, h]^3 lies in the
 * piece; as 2h < unit, that cube meets the interiors of a block of 1 or 2
 * cells per axis, all of which must be in the piece, and then p lies in
 * that block shrunk by h. So the shrunk piece is the union of its full
 * blocks of 1 or 2 cells per axis, each shrunk by h, and any set of boxes
 * of the piece's cells that together contain all those blocks gives the
 * same union (a box shrunk contains its sub-blocks shrunk, and lies in
 * the shrunk piece itself). mesh_cover_boxes() picks such boxes greedily,
 * each grown as large as the piece allows. With clearance 0 the union is
 * the plain polycube.
 */
#include <assert.h>
#include <math.h>
#include <stdarg.h>
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

/* Grow 'b' along the axes in 'order' as long as it stays inside the piece. */
static void grow(const struct mesh_piece *p, struct mesh_box *b, const int order[3])
{
	for (int k = 0; k < 3; k++) {
		int a = order[k];
		for (;;) { /* upward: the slab just past the box */
			struct mesh_box s = *b;
			s.lo[a] = b->lo[a] + b->n[a];
			s.n[a] = 1;
			if (s.lo[a] >= p->n[a] || !box_full(p, s.lo, s.n))
				break;
			b->n[a]++;
		}
		for (;;) { /* downward */
			struct mesh_box s = *b;
			s.lo[a] = b->lo[a] - 1;
			s.n[a] = 1;
			if (s.lo[a] < 0 || !box_full(p, s.lo, s.n))
				break;
			b->lo[a]--;
			b->n[a]++;
		}
	}
}

int mesh_cover_boxes(const struct mesh_piece *p, struct mesh_box **out,
		     size_t *count)
{
	assert(p && out && count);
	const int *n = p->n;
	size_t nb = (size_t)n[0] * (size_t)n[1] * (size_t)n[2];
	/* covered[base * 8 + code]: block at 'base' of size 1 + bit per axis */
	unsigned char *covered = calloc(nb * 8, 1);
	struct mesh_box *boxes = NULL;
	size_t len = 0, cap = 0;
	if (!covered)
		return MESH_ENOMEM;
	static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
					 {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	for (int z = 0; z < n[2]; z++)
		for (int y = 0; y < n[1]; y++)
			for (int x = 0; x < n[0]; x++)
				for (int code = 7; code >= 0; code--) {
					struct mesh_box blk = {{x, y, z},
							       {1 + (code & 1), 1 + (code >> 1 & 1),
								1 + (code >> 2 & 1)}};
					size_t base = (size_t)x + (size_t)n[0] * ((size_t)y + (size_t)n[1] * (size_t)z);
					if (covered[base * 8 + (size_t)code] ||
					    x + blk.n[0] > n[0] || y + blk.n[1] > n[1] ||
					    z + blk.n[2] > n[2] || !box_full(p, blk.lo, blk.n))
						continue;
					/* the largest of the six growth orders */
					struct mesh_box best = blk;
					long bestv = 0;
					for (int o = 0; o < 6; o++) {
						struct mesh_box g = blk;
						grow(p, &g, orders[o]);
						long v = (long)g.n[0] * g.n[1] * g.n[2];
						if (v > bestv) {
							bestv = v;
							best = g;
						}
					}
					if (len == cap) {
						size_t ncap = cap ? 2 * cap : 16;
						void *nbx = realloc(boxes, ncap * sizeof *boxes);
						if (!nbx) {
							free(boxes);
							free(covered);
							return MESH_ENOMEM;
						}
						boxes = nbx;
						cap = ncap;
					}
					boxes[len++] = best;
					/* every block inside 'best' is now covered */
					for (int Z = best.lo[2]; Z < best.lo[2] + best.n[2]; Z++)
						for (int Y = best.lo[1]; Y < best.lo[1] + best.n[1]; Y++)
							for (int X = best.lo[0]; X < best.lo[0] + best.n[0]; X++)
								for (int c = 0; c < 8; c++)
									if (X + 1 + (c & 1) <= best.lo[0] + best.n[0] &&
									    Y + 1 + (c >> 1 & 1) <= best.lo[1] + best.n[1] &&
									    Z + 1 + (c >> 2 & 1) <= best.lo[2] + best.n[2])
										covered[((size_t)X + (size_t)n[0] * ((size_t)Y + (size_t)n[1] * (size_t)Z)) * 8 + (size_t)c] = 1;
				}
	free(covered);
	*out = boxes;
	*count = len;
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
		emit(o, "  [%d, %d, %d, %d, %d, %d]%s\n", b[i].lo[0], b[i].lo[1],
		     b[i].lo[2], b[i].n[0], b[i].n[1], b[i].n[2],
		     i + 1 < n ? "," : "");
	emit(o, "];\n");
}

static void module_text(struct out *o)
{
	emit(o, "\nassert(unit > 0, \"unit must be positive\");\n"
		"assert(clearance >= 0 && clearance < unit / 2, "
		"\"clearance must be at least 0 and less than unit/2\");\n"
		"\n"
		"// A piece from its boxes: each box shrunk by clearance/2 on every\n"
		"// side, all unioned. The lowest corner is at the origin, on z = 0.\n"
		"module cubegen_piece(boxes) {\n"
		"  for (b = boxes)\n"
		"    translate([b[0], b[1], b[2]] * unit)\n"
		"      cube([b[3], b[4], b[5]] * unit - [1, 1, 1] * clearance);\n"
		"}\n");
}

static const char cover_note[] =
	"// Cells merged into boxes [x, y, z, size x, size y, size z], in cells.\n"
	"// Boxes may overlap; together they contain every block of 1 or 2 cells\n"
	"// per axis of the piece, which makes the union of the shrunk boxes the\n"
	"// whole piece shrunk by clearance/2 (see cubegen's mesh/scad.c).\n";

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
	struct mesh_piece *pc = malloc(count * sizeof *pc);
	struct mesh_place *pl = malloc(count * sizeof *pl);
	int rc = pc && pl ? MESH_OK : MESH_ENOMEM;
	for (size_t i = 0; i < count && rc == MESH_OK; i++) {
		rc = mesh_piece_init(&pc[i], cells[i], dims[i][0], dims[i][1],
				     dims[i][2], unit, clearance);
		if (rc == MESH_OK)
			rc = mesh_piece_manifold(&pc[i], clearance);
	}
	struct out o = {fp, 0};
	if (rc == MESH_OK) {
		mesh_plate_layout(pc, count, pl);
		header(&o, title, unit, clearance, &gap_mm);
		emit(&o, "%s", cover_note);
		for (size_t i = 0; i < count && rc == MESH_OK; i++) {
			struct mesh_box *b;
			size_t n;
			rc = mesh_cover_boxes(&pc[i], &b, &n);
			if (rc != MESH_OK)
				break;
			char name[32];
			snprintf(name, sizeof name, "piece_%zu", i + 1);
			boxes_data(&o, name, b, n);
			free(b);
		}
	}
	if (rc == MESH_OK) {
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
	free(pc);
	free(pl);
	return rc;
}
