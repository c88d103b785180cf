/*
 * label.c: a piece's number, engraved in its top face (DESIGN.md §3).
 *
 * The digits are seven-segment glyphs drawn as axis-aligned rectangles
 * ("strokes"), so cutting them out of the solid keeps every face of the
 * mesh on the rectilinear grid mesh.c works on: the mesh stays exact and
 * the .scad draws the same cuts with cube-like boxes, with no font
 * tessellation anywhere. In font units a digit is MESH_FONT_W x
 * MESH_FONT_H with strokes 2 wide; the vertical strokes run over the
 * horizontal ones they meet, so strokes of a digit overlap in whole
 * 2 x 2 blocks and never touch only at a corner (that would make the
 * solid non-manifold along an edge). A 6 and a 9 are the same glyph
 * turned over, and which side of a piece is "up" was scrambled, so a
 * label with either gets an underline.
 *
 * Where it goes is decided from the cells alone, never from millimetres,
 * so the .scad (which recomputes millimetres from its parameters) and
 * the mesher agree for every unit, wall and clearance: among the
 * rectangles of top-layer cells, the one where the text gets the largest
 * scale counting a unit layer 1 and a wall layer 0 (on a plate of a
 * box's face the walls are the thin edge fingers, so the label lands in
 * the plate's full-height centre). Then its size in mm is computed from
 * the rectangle's solid extent.
 *
 * mesh.c calls mesh_label_strokes() and mesh_label_cuts(); this file
 * reads the piece only through mesh_int.h's inline accessors, so it
 * calls nothing in mesh.c.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

/* Segments a..g: top, upper right, lower right, bottom, lower left,
 * upper left, middle, as [x0, y0, x1, y1] in font units (y up). */
static const int segment[7][4] = {
	{0, 8, 6, 10}, {4, 4, 6, 10}, {4, 0, 6, 6}, {0, 0, 6, 2},
	{0, 0, 2, 6},  {0, 4, 2, 10}, {0, 4, 6, 6},
};

/* Bit s set: digit d uses segment s. */
static const unsigned char glyph[10] = {
	0x3f, 0x06, 0x5b, 0x4f, 0x66, 0x6d, 0x7d, 0x07, 0x7f, 0x6f,
};

int mesh_label_strokes(const char *text, int (*stroke)[4], int *w, int *ylo)
{
	assert(text && stroke && w && ylo);
	size_t len = strlen(text);
	if (len < 1 || len > MESH_LABEL_MAX)
		return 0;
	int n = 0, under = 0;
	for (size_t i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return 0;
		int d = text[i] - '0', x = (int)i * (MESH_FONT_W + MESH_FONT_GAP);
		under |= d == 6 || d == 9;
		for (int s = 0; s < 7; s++)
			if (glyph[d] >> s & 1) {
				stroke[n][0] = x + segment[s][0];
				stroke[n][1] = segment[s][1];
				stroke[n][2] = x + segment[s][2];
				stroke[n][3] = segment[s][3];
				n++;
			}
	}
	*w = (int)len * (MESH_FONT_W + MESH_FONT_GAP) - MESH_FONT_GAP;
	*ylo = 0;
	if (under) {
		*ylo = -MESH_FONT_UNDER;
		stroke[n][0] = 0;
		stroke[n][1] = -MESH_FONT_UNDER;
		stroke[n][2] = *w;
		stroke[n][3] = -MESH_FONT_UNDER + 2;
		n++;
	}
	return n;
}

/* The candidate being compared: score (larger wins), then fewer wall
 * layers, then more cells; the first found wins the rest. */
struct cand {
	long score, walls, area;
};

static int better(const struct cand *a, const struct cand *b)
{
	if (a->score != b->score)
		return a->score > b->score;
	if (a->walls != b->walls)
		return a->walls < b->walls;
	return a->area > b->area;
}

/* Unit (weight 1) and wall layers in [i0, i1) along axis a; with
 * 'walls' 0 every layer weighs 1. */
static void extent(const struct mesh_piece *p, int a, int i0, int i1,
		   int walls, long *weight, long *nwall)
{
	*weight = 0;
	*nwall = 0;
	for (int i = i0; i < i1; i++) {
		int w = walls && mesh_piece_is_wall(p, a, i);
		*weight += !w;
		*nwall += w;
	}
}

/* Try rectangle [x0, x1) x [y0, y1) both ways round. */
static void consider(const struct mesh_piece *p, int walls, long fw, long fh,
		     int x0, int x1, int y0, int y1, struct cand *best,
		     struct mesh_label_place *out)
{
	long ew, eh, ww, wh;
	extent(p, 0, x0, x1, walls, &ew, &ww);
	extent(p, 1, y0, y1, walls, &eh, &wh);
	for (int turned = 0; turned < 2; turned++) {
		/* scale ~ min(ew / fw, eh / fh), over the common fw * fh */
		long sw = turned ? ew * fw : ew * fh, sh = turned ? eh * fh : eh * fw;
		struct cand c = {sw < sh ? sw : sh, ww + wh,
				 (long)(x1 - x0) * (y1 - y0)};
		if (c.score > 0 && better(&c, best)) {
			*best = c;
			*out = (struct mesh_label_place){1, x0, x1, y0, y1, turned};
		}
	}
}

/*
 * The rectangles worth trying in a run [xa, xb) of columns: for a given
 * number of wall layers inside, the widest. Those go from the start of a
 * stretch of unit layers to the end of one (the run's ends when 'walls'
 * is 0); any narrower rectangle scores no more and has no fewer walls.
 */
static void consider_run(const struct mesh_piece *p, int walls, long fw,
			 long fh, int xa, int xb, int y0, int y1,
			 struct cand *best, struct mesh_label_place *out)
{
	if (!walls) {
		consider(p, walls, fw, fh, xa, xb, y0, y1, best, out);
		return;
	}
	for (int s = xa; s < xb; s++) {
		if (mesh_piece_is_wall(p, 0, s) || (s > xa && !mesh_piece_is_wall(p, 0, s - 1)))
			continue; /* s starts a stretch of unit layers */
		for (int e = s + 1; e <= xb; e++)
			if (!mesh_piece_is_wall(p, 0, e - 1) &&
			    (e == xb || mesh_piece_is_wall(p, 0, e)))
				consider(p, walls, fw, fh, s, e, y0, y1, best, out);
	}
}

/* The best rectangle of top cells, or ok = 0 when every one scores 0. */
static void best_place(const struct mesh_piece *p, int walls, long fw, long fh,
		       unsigned char *col, struct mesh_label_place *out)
{
	struct cand best = {0, 0, 0};
	int top = p->n[2] - 1;
	*out = (struct mesh_label_place){0};
	for (int y0 = 0; y0 < p->n[1]; y0++) {
		memset(col, 1, (size_t)p->n[0]);
		for (int y1 = y0 + 1; y1 <= p->n[1]; y1++) {
			/* col[x]: cells (x, y0 .. y1-1) all on top */
			for (int x = 0; x < p->n[0]; x++)
				col[x] &= (unsigned char)mesh_piece_cell(p, x, y1 - 1, top);
			for (int x = 0; x < p->n[0];) {
				if (!col[x]) {
					x++;
					continue;
				}
				int xa = x, xb = x;
				while (xb < p->n[0] && col[xb])
					xb++;
				x = xb;
				consider_run(p, walls, fw, fh, xa, xb, y0, y1, &best, out);
			}
		}
	}
}

int mesh_label_place(const struct mesh_piece *p, struct mesh_label_place *out)
{
	assert(p && out);
	*out = (struct mesh_label_place){0};
	int stroke[MESH_LABEL_STROKES][4], w, ylo;
	if (!p->label || !mesh_label_strokes(p->label, stroke, &w, &ylo))
		return MESH_OK;
	unsigned char *col = malloc((size_t)p->n[0]);
	if (!col)
		return MESH_ENOMEM;
	long fw = w, fh = MESH_FONT_H - ylo;
	best_place(p, 1, fw, fh, col, out);
	if (!out->ok) /* the top is all walls: weigh them like units */
		best_place(p, 0, fw, fh, col, out);
	free(col);
	return MESH_OK;
}

/* Area of the union of the strokes, font units^2: a bitmap of the text's
 * box, which is small (at most 51 x 14). */
static long union_area(const int (*stroke)[4], int n, int w, int ylo)
{
	unsigned char map[MESH_LABEL_MAX * (MESH_FONT_W + MESH_FONT_GAP)]
			 [MESH_FONT_H + MESH_FONT_UNDER];
	memset(map, 0, sizeof map);
	for (int k = 0; k < n; k++)
		for (int x = stroke[k][0]; x < stroke[k][2]; x++)
			for (int y = stroke[k][1]; y < stroke[k][3]; y++)
				map[x][y - ylo] = 1;
	long area = 0;
	for (int x = 0; x < w; x++)
		for (int y = 0; y < MESH_FONT_H - ylo; y++)
			area += map[x][y];
	return area;
}

int mesh_label_cuts(const struct mesh_piece *p, const struct mesh_size *sz,
		    struct mesh_cut *cut, size_t *count, double *height,
		    double *area)
{
	assert(p && sz && cut && count && height && area);
	*count = 0;
	*height = 0;
	*area = 0;
	struct mesh_label_place pl;
	int rc = mesh_label_place(p, &pl);
	if (rc != MESH_OK || !pl.ok)
		return rc;
	int stroke[MESH_LABEL_STROKES][4], w, ylo;
	int n = mesh_label_strokes(p->label, stroke, &w, &ylo);
	double h = sz->clearance / 2, m = h + MESH_LABEL_MARGIN;
	/* the rectangle's cell boundaries: grid lines k, t = 1 (mesh.c) */
	double x0 = mesh_piece_pos(p, sz, 0, pl.x0) - h;
	double x1 = mesh_piece_pos(p, sz, 0, pl.x1) - h;
	double y0 = mesh_piece_pos(p, sz, 1, pl.y0) - h;
	double y1 = mesh_piece_pos(p, sz, 1, pl.y1) - h;
	double top = mesh_piece_pos(p, sz, 2, p->n[2]) - 2 * h;
	double aw = x1 - x0 - 2 * m, ah = y1 - y0 - 2 * m;
	double fw = w, fh = MESH_FONT_H - ylo;
	double s = pl.turned ? fmin(aw / fh, ah / fw) : fmin(aw / fw, ah / fh);
	if (!(s * MESH_FONT_H >= MESH_LABEL_MIN))
		return MESH_OK;
	double cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
	double uc = fw / 2, vc = (ylo + MESH_FONT_H) / 2.0;
	for (int k = 0; k < n; k++) {
		const int *t = stroke[k];
		struct mesh_cut *c = &cut[k];
		if (pl.turned) { /* text u along +y, v along -x */
			c->lo[0] = cx - (t[3] - vc) * s;
			c->hi[0] = cx - (t[1] - vc) * s;
			c->lo[1] = cy + (t[0] - uc) * s;
			c->hi[1] = cy + (t[2] - uc) * s;
		} else {
			c->lo[0] = cx + (t[0] - uc) * s;
			c->hi[0] = cx + (t[2] - uc) * s;
			c->lo[1] = cy + (t[1] - vc) * s;
			c->hi[1] = cy + (t[3] - vc) * s;
		}
		c->lo[2] = top - MESH_LABEL_DEPTH;
		c->hi[2] = top + 1;
	}
	*count = (size_t)n;
	*height = s * MESH_FONT_H;
	*area = (double)union_area((const int (*)[4])stroke, n, w, ylo) * s * s;
	return MESH_OK;
}
