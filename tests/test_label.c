/*
 * test_label.c: pieces with walls and engraved numbers (mesh.h, the
 * section at its end): mesh_build(), mesh_spec_volume(),
 * mesh_label_height(), mesh_build_plate() and mesh_join().
 *
 * Everything is compared with a model written here from the headers'
 * text, not from mesh.c or label.c:
 *  - the solid is the union of the cells' boxes, each layer `unit` or
 *    `wall` wide, inset by clearance/2 where not glued, measured by
 *    coordinate compression (not by mesh_spec_volume()'s product sum);
 *  - the label's place is a brute force over every rectangle of top
 *    cells (wall layers weigh 0, then 1 when the top is all walls);
 *  - its glyphs are the classic 3 x 5 block seven-segment digits drawn
 *    here as bitmaps, scaled and centred as mesh.h says, turned by +90
 *    degrees (so never mirrored) when the text reads along +y.
 * Each mesh is checked in memory (every directed edge once and its
 * reverse once, distinct vertices, no zero-area triangle, the exact
 * bounding box, a pocket floor at top - 0.6 exactly when a label is
 * engraved, its signed volume equal to the model's volume on the same
 * float grid) and as an STL through mesh_verify_stl() with
 * mesh_spec_volume() as the expected volume. Pieces: random face plates
 * of W x H (3..12) and random 3D polycubes (up to 4x4x4), for every
 * combination of wall flags, wall, unit, clearance and label. Plus known
 * label heights, invalid labels and sizes, plates against mesh_plate()
 * and against mesh_join() of the pieces, mesh_join() itself, and failing
 * allocations (a malloc that fails on demand and counts live blocks, off
 * under AddressSanitizer, which owns malloc there).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen.h"
#include "gen/rng.h"
#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

#include "tests/failmalloc.h"
#include "tests/notchref.h"
#include "tests/testrand.h"

/* ---- helpers ----------------------------------------------------------------- */

static char tmpdir[64];

static const char *tmp_path(const char *name)
{
	static char buf[160];
	snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
	return buf;
}

#define MAXN 16

/* A piece in a dense array, with wall flags for the outer layers of each
 * axis of the array (a spec uses them per axis, or not). */
struct piece {
	int n[3];
	unsigned char c[MAXN * MAXN * 4];
	unsigned char wall[3][MAXN];
};

static int at(const struct piece *p, int x, int y, int z)
{
	if (x < 0 || y < 0 || z < 0 || x >= p->n[0] || y >= p->n[1] || z >= p->n[2])
		return 0;
	return p->c[x + p->n[0] * (y + p->n[1] * z)] != 0;
}

static void set(struct piece *p, int x, int y, int z)
{
	p->c[x + p->n[0] * (y + p->n[1] * z)] = 1;
}

static void outer_walls(struct piece *p)
{
	memset(p->wall, 0, sizeof p->wall);
	for (int a = 0; a < 3; a++)
		p->wall[a][0] = p->wall[a][p->n[a] - 1] = 1;
}

/* A full W x H plate with its outer layers as walls. */
static void full_plate(struct piece *p, int w, int h)
{
	memset(p, 0, sizeof *p);
	p->n[0] = w;
	p->n[1] = h;
	p->n[2] = 1;
	memset(p->c, 1, (size_t)(w * h));
	outer_walls(p);
}

/* A face plate of a W x H box face as the generator makes them: the
 * centre full, each edge cell there or not, a corner only next to an edge
 * cell; the outer rows and columns and its one layer flagged as walls. */
static void random_plate(uint64_t *s, int w, int h, int density, struct piece *p)
{
	memset(p, 0, sizeof *p);
	p->n[0] = w;
	p->n[1] = h;
	p->n[2] = 1;
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			int bx = x == 0 || x == w - 1, by = y == 0 || y == h - 1;
			if (!bx && !by)
				set(p, x, y, 0);
			else if (!(bx && by) && rnd(s, 100) < density)
				set(p, x, y, 0);
		}
	for (int y = 0; y < h; y += h - 1)
		for (int x = 0; x < w; x += w - 1) {
			int nb = at(p, x == 0 ? 1 : w - 2, y, 0) || at(p, x, y == 0 ? 1 : h - 2, 0);
			if (nb && rnd(s, 100) < density)
				set(p, x, y, 0);
		}
	outer_walls(p);
}

/* A random 6-connected polycube of 1..20 cells in a box of 1..4 per axis
 * (its bounding box may be smaller than the array). */
static void random_polycube(uint64_t *s, struct piece *p)
{
	memset(p, 0, sizeof *p);
	for (int a = 0; a < 3; a++)
		p->n[a] = 1 + rnd(s, 4);
	int vol = p->n[0] * p->n[1] * p->n[2];
	int want = 1 + rnd(s, vol < 20 ? vol : 20);
	set(p, rnd(s, p->n[0]), rnd(s, p->n[1]), rnd(s, p->n[2]));
	for (int have = 1; have < want;) {
		int x = rnd(s, p->n[0]), y = rnd(s, p->n[1]), z = rnd(s, p->n[2]);
		if (at(p, x, y, z))
			continue;
		if (at(p, x - 1, y, z) || at(p, x + 1, y, z) || at(p, x, y - 1, z) ||
		    at(p, x, y + 1, z) || at(p, x, y, z - 1) || at(p, x, y, z + 1)) {
			set(p, x, y, z);
			have++;
		}
	}
	outer_walls(p);
}

/* The spec of 'p' with the axes in 'axes' (bit a) using their flags. */
static struct mesh_spec spec_of(const struct piece *p, int axes, const char *label)
{
	struct mesh_spec s = {.cells = p->c, .dims = {p->n[0], p->n[1], p->n[2]},
			      .label = label};
	for (int a = 0; a < 3; a++)
		s.wall[a] = axes >> a & 1 ? p->wall[a] : NULL;
	return s;
}

static int mesh_to_file(const struct mesh *m, const char *path)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	int rc = mesh_write_stl(fp, m, "cubegen test_label");
	assert_int_equal(fclose(fp), 0);
	return rc;
}

/* Write 'm' as STL and put it through mesh_verify_stl(). */
static void verify_stl(const struct mesh *m, double expected)
{
	const char *path = tmp_path("piece.stl");
	assert_int_equal(mesh_to_file(m, path), MESH_OK);
	struct mesh_report rep;
	int vr = mesh_verify_stl(path, expected, &rep);
	if (vr != MESH_OK)
		fail_msg("verify: %s (%s), expected volume %.9g", mesh_strerror(vr),
			 rep.problem, expected);
	assert_int_equal(rep.triangles, m->ntriangles);
	unlink(path);
}

static int same_mesh(const struct mesh *a, const struct mesh *b)
{
	return a->nvertices == b->nvertices && a->ntriangles == b->ntriangles &&
	       memcmp(a->vertices, b->vertices, a->nvertices * sizeof *a->vertices) == 0 &&
	       memcmp(a->triangles, b->triangles, a->ntriangles * sizeof *a->triangles) == 0;
}

static double signed_volume(const struct mesh *m)
{
	double v = 0;
	for (size_t t = 0; t < m->ntriangles; t++) {
		const float *p = m->vertices[m->triangles[t][0]];
		const float *q = m->vertices[m->triangles[t][1]];
		const float *r = m->vertices[m->triangles[t][2]];
		v += (double)p[0] * ((double)q[1] * r[2] - (double)q[2] * r[1]) -
		     (double)p[1] * ((double)q[0] * r[2] - (double)q[2] * r[0]) +
		     (double)p[2] * ((double)q[0] * r[1] - (double)q[1] * r[0]);
	}
	return v / 6;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static int cmp_vertex(const void *a, const void *b)
{
	const float *x = a, *y = b;
	for (int k = 0; k < 3; k++)
		if (x[k] != y[k])
			return x[k] < y[k] ? -1 : 1;
	return 0;
}

/*
 * Closed and clean, in memory: indexes in range, vertices distinct and all
 * used, no triangle with a repeated vertex or zero area, every directed
 * edge used once and its reverse once (so each edge by exactly two
 * triangles in opposite directions). Returns NULL or the first problem.
 */
static const char *closed_problem(const struct mesh *m)
{
	if (m->ntriangles < 4 || m->nvertices < 4)
		return "too small";
	const char *why = NULL;
	size_t ne = 3 * m->ntriangles;
	uint64_t *e = malloc(ne * sizeof *e);
	unsigned char *used = calloc(m->nvertices, 1);
	float (*v)[3] = malloc(m->nvertices * sizeof *v);
	assert_true(e && used && v);
	for (size_t t = 0; t < m->ntriangles && !why; t++) {
		const uint32_t *q = m->triangles[t];
		for (int k = 0; k < 3; k++) {
			if (q[k] >= m->nvertices) {
				why = "index out of range";
				break;
			}
			used[q[k]] = 1;
			e[3 * t + (size_t)k] = (uint64_t)q[k] << 32 | q[(k + 1) % 3];
		}
		if (why)
			break;
		if (q[0] == q[1] || q[1] == q[2] || q[0] == q[2]) {
			why = "repeated vertex";
			break;
		}
		const float *a = m->vertices[q[0]], *b = m->vertices[q[1]], *c = m->vertices[q[2]];
		double u[3], w[3];
		for (int k = 0; k < 3; k++) {
			u[k] = (double)b[k] - a[k];
			w[k] = (double)c[k] - a[k];
		}
		double n0 = u[1] * w[2] - u[2] * w[1], n1 = u[2] * w[0] - u[0] * w[2],
		       n2 = u[0] * w[1] - u[1] * w[0];
		if (n0 == 0 && n1 == 0 && n2 == 0)
			why = "zero area";
	}
	for (size_t i = 0; i < m->nvertices && !why; i++)
		if (!used[i])
			why = "unused vertex";
	if (!why) {
		qsort(e, ne, sizeof *e, cmp_u64);
		for (size_t i = 0; i < ne && !why; i++) {
			uint64_t r = e[i] << 32 | e[i] >> 32;
			if (i > 0 && e[i] == e[i - 1])
				why = "directed edge used twice";
			else if (!bsearch(&r, e, ne, sizeof *e, cmp_u64))
				why = "edge without its reverse";
		}
	}
	if (!why) {
		memcpy(v, m->vertices, m->nvertices * sizeof *v);
		qsort(v, m->nvertices, sizeof *v, cmp_vertex);
		for (size_t i = 1; i < m->nvertices && !why; i++)
			if (cmp_vertex(v[i - 1], v[i]) == 0)
				why = "duplicate vertex";
	}
	free(e);
	free(used);
	free(v);
	return why;
}

static void check_closed(const struct mesh *m)
{
	const char *why = closed_problem(m);
	if (why)
		fail_msg("mesh not closed: %s", why);
}

/* Surface area of 'm', for float rounding bounds. */
static double mesh_area(const struct mesh *m)
{
	double area = 0;
	for (size_t t = 0; t < m->ntriangles; t++) {
		const float *a = m->vertices[m->triangles[t][0]];
		const float *b = m->vertices[m->triangles[t][1]];
		const float *c = m->vertices[m->triangles[t][2]];
		double u[3], w[3];
		for (int k = 0; k < 3; k++) {
			u[k] = (double)b[k] - a[k];
			w[k] = (double)c[k] - a[k];
		}
		double n0 = u[1] * w[2] - u[2] * w[1], n1 = u[2] * w[0] - u[0] * w[2],
		       n2 = u[0] * w[1] - u[1] * w[0];
		area += sqrt(n0 * n0 + n1 * n1 + n2 * n2) / 2;
	}
	return area;
}

/* ---- the font, from the classic 3 x 5 block seven-segment digits ---------- */

/* Rows top to bottom; each block is 2 x 2 font units, so a digit is 6 x 10. */
static const char *const digit_rows[10][5] = {
	{"###", "#.#", "#.#", "#.#", "###"}, {"..#", "..#", "..#", "..#", "..#"},
	{"###", "..#", "###", "#..", "###"}, {"###", "..#", "###", "..#", "###"},
	{"#.#", "#.#", "###", "..#", "..#"}, {"###", "#..", "###", "..#", "###"},
	{"###", "#..", "###", "#.#", "###"}, {"###", "..#", "..#", "..#", "..#"},
	{"###", "#.#", "###", "#.#", "###"}, {"###", "#.#", "###", "..#", "###"},
};

#define TEXT_W (MESH_LABEL_MAX * 9)
#define TEXT_H 14

/* A label's text as unit squares: bit[u][v - ylo] covers [u, u+1] x
 * [v, v+1]. Digit i spans u in [9i, 9i + 6], v in [0, 10]; a label with a
 * 6 or a 9 has an underline v in [-4, -2] across the text. */
struct text {
	int w, ylo;                       /* box [0, w] x [ylo, 10] */
	unsigned char bit[TEXT_W][TEXT_H];
	long nbits;                       /* squares set */
};

/* 0 for an invalid label: not 1 to MESH_LABEL_MAX decimal digits. */
static int text_of(const char *label, struct text *t)
{
	memset(t, 0, sizeof *t);
	size_t len = strlen(label);
	if (len < 1 || len > MESH_LABEL_MAX)
		return 0;
	int under = 0;
	for (size_t i = 0; i < len; i++)
		if (label[i] < '0' || label[i] > '9')
			return 0;
		else
			under |= label[i] == '6' || label[i] == '9';
	t->w = 9 * (int)len - 3;
	t->ylo = under ? -4 : 0;
	for (size_t i = 0; i < len; i++)
		for (int r = 0; r < 5; r++)
			for (int b = 0; b < 3; b++)
				if (digit_rows[label[i] - '0'][r][b] == '#')
					for (int du = 0; du < 2; du++)
						for (int dv = 0; dv < 2; dv++)
							t->bit[9 * i + 2 * (size_t)b + (size_t)du]
							      [10 - 2 * (r + 1) + dv - t->ylo] = 1;
	if (under)
		for (int u = 0; u < t->w; u++)
			for (int v = -4; v < -2; v++)
				t->bit[u][v - t->ylo] = 1;
	for (int u = 0; u < TEXT_W; u++)
		for (int v = 0; v < TEXT_H; v++)
			t->nbits += t->bit[u][v];
	return 1;
}

/* ---- the model ------------------------------------------------------------------- */

/* What a spec should give, from the headers' definitions. */
struct model {
	int lo[3], n[3];          /* the bounding box of the set cells */
	int flag[3][MAXN];        /* bounding-box layer i is a wall */
	double pos[3][MAXN + 1];  /* layer boundaries */
	double ext[3];            /* nw*wall + nu*unit - clearance: the size */
	double h;                 /* clearance / 2 */
	int label;                /* 1 when a label is engraved */
	int x0, x1, y0, y1, turned; /* its rectangle of top cells */
	struct text text;
	double s, height;         /* mm per font unit, digit height */
	double cx, cy, top;       /* rectangle centre, top face z */
	int fallback;             /* the top all walls: weighed as units */
	double volume;            /* exact: the solid less the pocket */
	double vcells_f;          /* the cells' union on the float grid */
};

static int m_cell(const struct piece *p, const struct model *m, int x, int y, int z)
{
	if (x < 0 || y < 0 || z < 0 || x >= m->n[0] || y >= m->n[1] || z >= m->n[2])
		return 0;
	return at(p, m->lo[0] + x, m->lo[1] + y, m->lo[2] + z);
}

/* Side 0 (low) or 1 (high) of cell c's box along axis a, shifted by -h:
 * unglued sides are inset by h. */
static double box_side(const struct model *m, int a, int c, int side, int glued)
{
	if (side == 0)
		return glued ? m->pos[a][c] - m->h : m->pos[a][c];
	return glued ? m->pos[a][c + 1] - m->h : m->pos[a][c + 1] - 2 * m->h;
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Whether point 'mid' (shifted) lies in the cube of half-side h around a
 * notched cell corner (mesh.h, tests/notchref.h): cell boundary k sits at
 * pos[k] - h. */
static int m_notch(const struct piece *p, const struct model *m, const double mid[3])
{
	if (!(m->h > 0))
		return 0;
	int V[3];
	for (int a = 0; a < 3; a++) {
		V[a] = -1;
		for (int k = 1; k < m->n[a]; k++)
			if (fabs(mid[a] - (m->pos[a][k] - m->h)) < m->h)
				V[a] = k;
		if (V[a] < 0)
			return 0;
	}
	unsigned cells8 = 0;
	for (int k = 0; k < 8; k++)
		if (m_cell(p, m, V[0] - 1 + (k & 1), V[1] - 1 + (k >> 1 & 1), V[2] - 1 + (k >> 2)))
			cells8 |= 1u << k;
	return notchref(cells8);
}

/* The cells' union by coordinate compression: every box side is a line,
 * and so is every side of a notch's cube; an elementary box is in the
 * solid when its centre is in the box of the cell whose (shifted) slab
 * holds it and in no notch. Exact volume in *v, and the volume of the
 * same boxes with every line rounded to float in *vf. */
static void cells_volume(const struct piece *p, const struct model *m, double *v,
			 double *vf)
{
	double line[3][7 * (MAXN + 1)];
	float linef[3][7 * (MAXN + 1)]; /* a float array: see check_cuts() */
	int nl[3];
	for (int a = 0; a < 3; a++) {
		int k = 0;
		for (int c = 0; c < m->n[a]; c++)
			for (int side = 0; side < 2; side++)
				for (int g = 0; g < 2; g++)
					line[a][k++] = box_side(m, a, c, side, g);
		for (int c = 1; c < m->n[a] && m->h > 0; c++)
			for (int t = 0; t < 3; t++)
				line[a][k++] = m->pos[a][c] - t * m->h;
		qsort(line[a], (size_t)k, sizeof(double), cmp_double);
		int u = 0;
		for (int i = 0; i < k; i++)
			if (u == 0 || line[a][i] != line[a][u - 1])
				line[a][u++] = line[a][i];
		nl[a] = u;
		for (int i = 0; i < u; i++)
			linef[a][i] = (float)line[a][i];
	}
	*v = *vf = 0;
	for (int k = 0; k + 1 < nl[2]; k++)
		for (int j = 0; j + 1 < nl[1]; j++)
			for (int i = 0; i + 1 < nl[0]; i++) {
				int I[3] = {i, j, k}, c[3];
				double mid[3];
				for (int a = 0; a < 3; a++) {
					mid[a] = (line[a][I[a]] + line[a][I[a] + 1]) / 2;
					c[a] = 0;
					while (c[a] + 1 < m->n[a] && mid[a] > m->pos[a][c[a] + 1] - m->h)
						c[a]++;
				}
				if (!m_cell(p, m, c[0], c[1], c[2]))
					continue;
				int in = 1;
				for (int a = 0; a < 3 && in; a++) {
					int d[3] = {c[0], c[1], c[2]};
					d[a]--;
					int glo = m_cell(p, m, d[0], d[1], d[2]);
					d[a] += 2;
					int ghi = m_cell(p, m, d[0], d[1], d[2]);
					in = mid[a] > box_side(m, a, c[a], 0, glo) &&
					     mid[a] < box_side(m, a, c[a], 1, ghi);
				}
				if (!in || m_notch(p, m, mid))
					continue;
				double e = 1, ef = 1;
				for (int a = 0; a < 3; a++) {
					e *= line[a][I[a] + 1] - line[a][I[a]];
					ef *= (double)linef[a][I[a] + 1] - linef[a][I[a]];
				}
				*v += e;
				*vf += ef;
			}
}

/* A candidate rectangle: larger score first, then fewer wall layers, then
 * more cells, then the first in scan order (y0, y1, x0). This is label.c's
 * stated rule; mesh.h says "ties go to the smaller rectangle", but the
 * 5 x 5 plate's label "12" lands on the 3 x 3 inner cells (18.53 mm), not
 * on 3 x 2 of them (17.8 mm), as the tie would give by that text. */
struct cand {
	long score, walls, area;
};

static int cand_better(const struct cand *a, const struct cand *b)
{
	if (a->score != b->score)
		return a->score > b->score;
	if (a->walls != b->walls)
		return a->walls < b->walls;
	return a->area > b->area;
}

/* Brute force over every rectangle [x0, x1) x [y0, y1) of top-layer cells,
 * both ways round: the scale is min(ew / fw, eh / fh) (turned: the text's
 * width along y), ew and eh counting unit layers 1 and wall layers
 * 'wall_weight'. Returns 1 and fills the place when some score is > 0. */
static int place_pass(const struct piece *p, struct model *m, int wall_weight,
		      long fw, long fh)
{
	int top = m->n[2] - 1, nx = m->n[0], ny = m->n[1];
	struct cand best = {0, 0, 0};
	int found = 0;
	for (int y0 = 0; y0 < ny; y0++)
		for (int y1 = y0 + 1; y1 <= ny; y1++)
			for (int x0 = 0; x0 < nx; x0++)
				for (int x1 = x0 + 1; x1 <= nx; x1++) {
					int full = 1;
					for (int y = y0; y < y1 && full; y++)
						for (int x = x0; x < x1 && full; x++)
							full = m_cell(p, m, x, y, top);
					if (!full)
						break; /* wider rectangles hold this cell too */
					long ew = 0, eh = 0, walls = 0;
					for (int x = x0; x < x1; x++) {
						ew += m->flag[0][x] ? wall_weight : 1;
						walls += m->flag[0][x] && wall_weight == 0;
					}
					for (int y = y0; y < y1; y++) {
						eh += m->flag[1][y] ? wall_weight : 1;
						walls += m->flag[1][y] && wall_weight == 0;
					}
					for (int turned = 0; turned < 2; turned++) {
						long a = turned ? ew * fw : ew * fh;
						long b = turned ? eh * fh : eh * fw;
						struct cand c = {a < b ? a : b, walls,
								 (long)(x1 - x0) * (y1 - y0)};
						if (c.score > 0 && cand_better(&c, &best)) {
							best = c;
							found = 1;
							m->x0 = x0;
							m->x1 = x1;
							m->y0 = y0;
							m->y1 = y1;
							m->turned = turned;
						}
					}
				}
	return found;
}

/* Font units -> mm: the text's box centred on the rectangle's centre;
 * turned, u runs along +y and v along -x (a rotation by +90 degrees, so
 * the text is never mirrored). */
static void font_to_mm(const struct model *m, double u, double v, double *x, double *y)
{
	double uc = m->text.w / 2.0, vc = (m->text.ylo + 10) / 2.0;
	if (m->turned) {
		*x = m->cx - (v - vc) * m->s;
		*y = m->cy + (u - uc) * m->s;
	} else {
		*x = m->cx + (u - uc) * m->s;
		*y = m->cy + (v - vc) * m->s;
	}
}

static void mm_to_font(const struct model *m, double x, double y, double *u, double *v)
{
	double uc = m->text.w / 2.0, vc = (m->text.ylo + 10) / 2.0;
	if (m->turned) {
		*u = uc + (y - m->cy) / m->s;
		*v = vc - (x - m->cx) / m->s;
	} else {
		*u = uc + (x - m->cx) / m->s;
		*v = vc + (y - m->cy) / m->s;
	}
}

/* The model of spec 'axes' of 'p' for 'sz' and 'label' (NULL for none);
 * the label must be valid. */
static void model_init(struct model *m, const struct piece *p, int axes,
		       const struct mesh_size *sz, const char *label)
{
	memset(m, 0, sizeof *m);
	int lo[3] = {MAXN, MAXN, MAXN}, hi[3] = {-1, -1, -1};
	for (int z = 0; z < p->n[2]; z++)
		for (int y = 0; y < p->n[1]; y++)
			for (int x = 0; x < p->n[0]; x++)
				if (at(p, x, y, z)) {
					int c[3] = {x, y, z};
					for (int a = 0; a < 3; a++) {
						lo[a] = c[a] < lo[a] ? c[a] : lo[a];
						hi[a] = c[a] > hi[a] ? c[a] : hi[a];
					}
				}
	m->h = sz->clearance / 2;
	for (int a = 0; a < 3; a++) {
		m->lo[a] = lo[a];
		m->n[a] = hi[a] - lo[a] + 1;
		/* pos(k) = nw*wall + nu*unit, "computed exactly that way
		 * everywhere" (mesh.h), so the float grids agree to the bit */
		long nw = 0, nu = 0;
		m->pos[a][0] = 0;
		for (int i = 0; i < m->n[a]; i++) {
			m->flag[a][i] = (axes >> a & 1) && p->wall[a][lo[a] + i];
			nw += m->flag[a][i];
			nu += !m->flag[a][i];
			m->pos[a][i + 1] = (double)nw * sz->wall + (double)nu * sz->unit;
		}
		m->ext[a] = m->pos[a][m->n[a]] - sz->clearance;
	}
	/* the cells' volumes do not depend on the label: the last ones are
	 * kept (the random tests try 5 labels per size) */
	static struct piece last_p;
	static struct model last_m;
	static int have_last;
	if (have_last && memcmp(&last_p, p, sizeof *p) == 0 &&
	    memcmp(last_m.pos, m->pos, sizeof m->pos) == 0 && last_m.h == m->h &&
	    memcmp(last_m.flag, m->flag, sizeof m->flag) == 0) {
		m->volume = last_m.volume;
		m->vcells_f = last_m.vcells_f;
	} else {
		cells_volume(p, m, &m->volume, &m->vcells_f);
		last_p = *p;
		last_m = *m;
		have_last = 1;
	}
	m->top = m->pos[2][m->n[2]] - 2 * m->h;
	if (!label || !*label)
		return;
	assert_true(text_of(label, &m->text));
	long fw = m->text.w, fh = 10 - m->text.ylo;
	if (!place_pass(p, m, 0, fw, fh)) {
		assert_true(place_pass(p, m, 1, fw, fh));
		m->fallback = 1;
	}
	double X0 = m->pos[0][m->x0] - m->h, X1 = m->pos[0][m->x1] - m->h;
	double Y0 = m->pos[1][m->y0] - m->h, Y1 = m->pos[1][m->y1] - m->h;
	double margin = m->h + 1;
	double aw = X1 - X0 - 2 * margin, ah = Y1 - Y0 - 2 * margin;
	m->s = m->turned ? fmin(aw / fh, ah / fw) : fmin(aw / fw, ah / fh);
	m->cx = (X0 + X1) / 2;
	m->cy = (Y0 + Y1) / 2;
	if (!(m->s * 10 >= MESH_LABEL_MIN)) {
		m->s = 0;
		return;
	}
	m->label = 1;
	m->height = m->s * 10;
	/* the text's box lies inside the rectangle less the margin, whose
	 * cells are all top cells at least 0.6 deep: the pocket is inside */
	double bx0, by0, bx1, by1;
	font_to_mm(m, 0, m->text.ylo, &bx0, &by0);
	font_to_mm(m, fw, 10, &bx1, &by1);
	assert_true(fmin(bx0, bx1) >= X0 + margin - 1e-9 && fmax(bx0, bx1) <= X1 - margin + 1e-9);
	assert_true(fmin(by0, by1) >= Y0 + margin - 1e-9 && fmax(by0, by1) <= Y1 - margin + 1e-9);
	m->volume -= (double)m->text.nbits * m->s * m->s * MESH_LABEL_DEPTH;
}

/* The library's own piece for a spec (mesh_int.h). */
static void piece_init(struct mesh_piece *pc, const struct mesh_spec *s,
		       const struct mesh_size *sz)
{
	assert_int_equal(mesh_piece_init_spec(pc, s, sz), MESH_OK);
}

/*
 * mesh_label_place() and mesh_label_cuts() against the model: the same
 * rectangle and direction; the cut boxes, taken back to font units by the
 * model's transform, are whole unit squares whose union is the model's
 * text bitmap; each cut spans z from top - 0.6 to above the top; height
 * and union area agree. Returns the cuts' union area on the float grid
 * (the pocket of the float mesh), 0 without a label.
 */
static double check_cuts(const struct model *m, const struct mesh_spec *s,
			 const struct mesh_size *sz)
{
	struct mesh_piece pc;
	piece_init(&pc, s, sz);
	struct mesh_label_place pl;
	assert_int_equal(mesh_label_place(&pc, &pl), MESH_OK);
	if (s->label && *s->label) {
		assert_int_equal(pl.ok, 1);
		if (pl.x0 != m->x0 || pl.x1 != m->x1 || pl.y0 != m->y0 ||
		    pl.y1 != m->y1 || pl.turned != m->turned)
			fail_msg("label '%s' place [%d,%d)x[%d,%d) turned %d, model "
				 "[%d,%d)x[%d,%d) turned %d", s->label, pl.x0, pl.x1, pl.y0,
				 pl.y1, pl.turned, m->x0, m->x1, m->y0, m->y1, m->turned);
	} else {
		assert_int_equal(pl.ok, 0);
	}
	struct mesh_cut cut[MESH_LABEL_STROKES];
	size_t ncut = 99;
	double height = -1, area = -1;
	assert_int_equal(mesh_label_cuts(&pc, sz, cut, &ncut, &height, &area), MESH_OK);
	if (!m->label) {
		assert_int_equal(ncut, 0);
		assert_true(height == 0 && area == 0);
		return 0;
	}
	assert_true(ncut >= 1 && ncut <= MESH_LABEL_STROKES);
	assert_true(fabs(height - m->height) <= 1e-12 * m->height);
	double want = (double)m->text.nbits * m->s * m->s;
	assert_true(fabs(area - want) <= 1e-9 * want);
	unsigned char bit[TEXT_W][TEXT_H];
	memset(bit, 0, sizeof bit);
	for (size_t k = 0; k < ncut; k++) {
		double u0, v0, u1, v1;
		mm_to_font(m, cut[k].lo[0], cut[k].lo[1], &u0, &v0);
		mm_to_font(m, cut[k].hi[0], cut[k].hi[1], &u1, &v1);
		double b[4] = {fmin(u0, u1), fmin(v0, v1), fmax(u0, u1), fmax(v0, v1)};
		int ib[4];
		for (int q = 0; q < 4; q++) {
			ib[q] = (int)lround(b[q]);
			assert_true(fabs(b[q] - ib[q]) <= 1e-6);
		}
		assert_true(ib[0] >= 0 && ib[2] <= m->text.w && ib[0] < ib[2]);
		assert_true(ib[1] >= m->text.ylo && ib[3] <= 10 && ib[1] < ib[3]);
		for (int u = ib[0]; u < ib[2]; u++)
			for (int v = ib[1]; v < ib[3]; v++)
				bit[u][v - m->text.ylo] = 1;
		assert_true(fabs(cut[k].lo[2] - (m->top - MESH_LABEL_DEPTH)) <= 1e-12);
		assert_true(cut[k].hi[2] > m->top);
	}
	assert_memory_equal(bit, m->text.bit, sizeof bit);

	/* the union of the cuts' footprints with float-rounded sides (kept in
	 * float arrays: GCC 12.2's SLP vectorizer at -O2 drops the rounding of
	 * (double)(float)x stored to a double array) */
	float xs[2 * MESH_LABEL_STROKES], ys[2 * MESH_LABEL_STROKES];
	size_t nxs = 0, nys = 0;
	for (size_t k = 0; k < ncut; k++) {
		xs[nxs++] = (float)cut[k].lo[0];
		xs[nxs++] = (float)cut[k].hi[0];
		ys[nys++] = (float)cut[k].lo[1];
		ys[nys++] = (float)cut[k].hi[1];
	}
	qsort(xs, nxs, sizeof *xs, cmp_float);
	qsort(ys, nys, sizeof *ys, cmp_float);
	uint64_t mx[2 * MESH_LABEL_STROKES] = {0}, my[2 * MESH_LABEL_STROKES] = {0};
	for (size_t i = 0; i + 1 < nxs; i++)
		for (size_t k = 0; k < ncut; k++) {
			double mid = ((double)xs[i] + xs[i + 1]) / 2;
			if (mid > (float)cut[k].lo[0] && mid < (float)cut[k].hi[0])
				mx[i] |= (uint64_t)1 << k;
		}
	for (size_t j = 0; j + 1 < nys; j++)
		for (size_t k = 0; k < ncut; k++) {
			double mid = ((double)ys[j] + ys[j + 1]) / 2;
			if (mid > (float)cut[k].lo[1] && mid < (float)cut[k].hi[1])
				my[j] |= (uint64_t)1 << k;
		}
	double af = 0;
	for (size_t j = 0; j + 1 < nys; j++)
		for (size_t i = 0; i + 1 < nxs; i++)
			if (mx[i] & my[j])
				af += ((double)xs[i + 1] - xs[i]) * ((double)ys[j + 1] - ys[j]);
	double depth = (double)(float)m->top - (double)(float)cut[0].lo[2];
	return af * depth;
}

/* What the random tests met, so they are known not to be vacuous. */
static struct {
	long built, engraved, turned, fallback, too_small, refused;
} seen;

/*
 * One spec: mesh_label_height(), mesh_spec_volume() and the cuts against
 * the model, then mesh_build(): status 'want' (MESH_OK or
 * MESH_ENONMANIFOLD), and on success the mesh checked in memory and, when
 * 'stl', as an STL. Returns the build status.
 */
static int check_spec(const struct piece *p, int axes, const struct mesh_size *sz,
		      const char *label, int want, int stl)
{
	struct mesh_spec s = spec_of(p, axes, label);
	struct model m;
	model_init(&m, p, axes, sz, label);

	double height = -1;
	assert_int_equal(mesh_label_height(&s, sz, &height), MESH_OK);
	if (m.label)
		assert_true(fabs(height - m.height) <= 1e-12 * m.height);
	else
		assert_true(height == 0);
	double sv = mesh_spec_volume(&s, sz);
	if (!(fabs(sv - m.volume) <= 1e-9 * m.volume))
		fail_msg("mesh_spec_volume %.12g, model %.12g (label '%s', axes %d, "
			 "unit %g wall %g clearance %g)", sv, m.volume, label ? label : "",
			 axes, sz->unit, sz->wall, sz->clearance);
	double pocket_f = check_cuts(&m, &s, sz);

	seen.engraved += m.label;
	seen.turned += m.label && m.turned;
	seen.fallback += m.label && m.fallback;
	seen.too_small += label && *label && !m.label;
	struct mesh *out = NULL;
	int rc = mesh_build(&s, sz, &out);
	seen.built += rc == MESH_OK;
	seen.refused += rc == MESH_ENONMANIFOLD;
	if (rc != want)
		fail_msg("mesh_build: %s, expected %s (label '%s', axes %d, unit %g "
			 "wall %g clearance %g)", mesh_strerror(rc), mesh_strerror(want),
			 label ? label : "", axes, sz->unit, sz->wall, sz->clearance);
	if (rc != MESH_OK) {
		assert_null(out);
		return rc;
	}
	check_closed(out);

	/* the bounding box, exactly; the pocket floor */
	float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
	float floor_z = (float)(m.top - MESH_LABEL_DEPTH);
	size_t on_floor = 0;
	for (size_t i = 0; i < out->nvertices; i++) {
		for (int a = 0; a < 3; a++) {
			lo[a] = fminf(lo[a], out->vertices[i][a]);
			hi[a] = fmaxf(hi[a], out->vertices[i][a]);
		}
		on_floor += out->vertices[i][2] == floor_z;
	}
	for (int a = 0; a < 3; a++) {
		assert_true(lo[a] == 0.0f && !signbit(lo[a]));
		if (hi[a] != (float)m.ext[a])
			fail_msg("axis %d: max %.9g, expected %.9g", a, (double)hi[a], m.ext[a]);
	}
	if (m.label)
		assert_true(on_floor >= 4);
	else
		assert_int_equal(on_floor, 0);

	/* its volume: the model's on the same float grid */
	double vm = signed_volume(out), vf = m.vcells_f - pocket_f;
	if (!(fabs(vm - vf) <= 1e-10 * vf + 1e-7))
		fail_msg("mesh volume %.12g, model on floats %.12g (exact %.12g)", vm, vf,
			 m.volume);
	/* and the exact volume within float rounding of the coordinates */
	double r = fmax(fmax(m.ext[0], m.ext[1]), m.ext[2]);
	assert_true(fabs(vm - m.volume) <= mesh_area(out) * r * 0x1p-22);
	if (stl)
		verify_stl(out, sv);
	mesh_free(out);
	return rc;
}

static const double walls[] = {1.5, 3, 10};
static const double units[] = {8, 10};
static const double clearances[] = {0, 0.2, 0.35};
static const char *const labels[] = {NULL, "1", "6", "12", "2469"};
/* wall flags: none, x and y outer layers, plus z, z alone */
static const int axes_list[] = {0, 3, 7, 4};

#define COUNT(a) (sizeof(a) / sizeof *(a))

/* Every combination for one piece, each expected to give
 * mesh_from_cells()'s status for the same cells, unit and clearance;
 * every 'stl_every'-th mesh (counted in '*stl_turn') also as STL. Returns
 * the number of meshes built. */
static int check_all(const struct piece *p, int stl_every, int *stl_turn)
{
	int built = 0;
	for (size_t ui = 0; ui < COUNT(units); ui++)
		for (size_t ci = 0; ci < COUNT(clearances); ci++) {
			struct mesh *ref = NULL;
			int want = mesh_from_cells(p->c, p->n[0], p->n[1], p->n[2], units[ui],
						   clearances[ci], &ref);
			assert_true(want == MESH_OK || want == MESH_ENONMANIFOLD);
			mesh_free(ref);
			for (size_t ai = 0; ai < COUNT(axes_list); ai++)
				for (size_t wi = 0; wi < COUNT(walls); wi++) {
					/* without flags the wall does not matter */
					if (axes_list[ai] == 0 && wi > 0)
						continue;
					struct mesh_size sz = {units[ui], walls[wi], clearances[ci]};
					for (size_t li = 0; li < COUNT(labels); li++) {
						int stl = ++*stl_turn % stl_every == 0;
						built += check_spec(p, axes_list[ai], &sz, labels[li],
								    want, stl) == MESH_OK;
					}
				}
		}
	return built;
}

/* ---- tests ---------------------------------------------------------------------- */

/* The checks can fail: a mesh with one triangle turned round, or two
 * triangles' vertices swapped, is caught; the volumes of an "8" and a "0"
 * (one stroke apart) differ far beyond the tolerances used. */
static void test_label_checks_can_fail(void **state)
{
	(void)state;
	struct piece p;
	full_plate(&p, 4, 4);
	struct mesh_size sz = {10, 3, 0.2};
	struct mesh_spec s = spec_of(&p, 7, "8");
	struct mesh *m = NULL;
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_OK);
	assert_null(closed_problem(m));
	uint32_t t = m->triangles[5][1];
	m->triangles[5][1] = m->triangles[5][2];
	m->triangles[5][2] = t;
	assert_non_null(closed_problem(m));
	m->triangles[5][2] = m->triangles[5][1];
	m->triangles[5][1] = t;
	assert_null(closed_problem(m));
	m->vertices[0][0] += 0.5f;
	assert_null(closed_problem(m)); /* still closed, but: */
	struct model m8, m0;
	model_init(&m8, &p, 7, &sz, "8");
	model_init(&m0, &p, 7, &sz, "0");
	assert_true(m8.label && m0.label);
	double vm = signed_volume(m);
	assert_true(fabs(vm - m8.volume) > 1e-6 * m8.volume);
	m->vertices[0][0] -= 0.5f;
	vm = signed_volume(m);
	assert_true(fabs(vm - m8.volume) < 1e-6 * m8.volume);
	assert_true(fabs(vm - m0.volume) > 1e3 * (1e-10 * m0.volume + 1e-7));
	assert_true(fabs(mesh_spec_volume(&s, &sz) - m0.volume) > 1e3 * 1e-9 * m0.volume);
	mesh_free(m);
}

/* mesh_label_strokes() draws the digits of the seven-segment font: the
 * strokes' union is the model's bitmap, the box is [0, w] x [ylo, 10]. */
static void test_label_font_is_seven_segments(void **state)
{
	(void)state;
	const char *cases[] = {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
			       "12", "2469", "888888", "123456", "90", "07"};
	for (size_t i = 0; i < COUNT(cases); i++) {
		struct text t;
		assert_true(text_of(cases[i], &t));
		int stroke[MESH_LABEL_STROKES][4], w = -1, ylo = -1;
		int n = mesh_label_strokes(cases[i], stroke, &w, &ylo);
		assert_true(n >= 1 && n <= MESH_LABEL_STROKES);
		assert_int_equal(w, t.w);
		assert_int_equal(ylo, t.ylo);
		unsigned char bit[TEXT_W][TEXT_H];
		memset(bit, 0, sizeof bit);
		for (int k = 0; k < n; k++) {
			assert_true(stroke[k][0] >= 0 && stroke[k][2] <= w);
			assert_true(stroke[k][1] >= ylo && stroke[k][3] <= 10);
			assert_true(stroke[k][0] < stroke[k][2] && stroke[k][1] < stroke[k][3]);
			for (int u = stroke[k][0]; u < stroke[k][2]; u++)
				for (int v = stroke[k][1]; v < stroke[k][3]; v++)
					bit[u][v - ylo] = 1;
		}
		assert_memory_equal(bit, t.bit, sizeof bit);
	}
	const char *bad[] = {"", "a", "1234567", "-1", "1a", " 1", "1 ", "+1", "1.5"};
	for (size_t i = 0; i < COUNT(bad); i++) {
		int stroke[MESH_LABEL_STROKES][4], w, ylo;
		assert_int_equal(mesh_label_strokes(bad[i], stroke, &w, &ylo), 0);
	}
}

static double height_of(const struct piece *p, int axes, double unit, double wall,
			double clearance, const char *label)
{
	struct mesh_spec s = spec_of(p, axes, label);
	struct mesh_size sz = {unit, wall, clearance};
	double mm = -1;
	assert_int_equal(mesh_label_height(&s, &sz, &mm), MESH_OK);
	return mm;
}

/* Heights worked out by hand. */
static void test_label_height_known_values(void **state)
{
	(void)state;
	struct piece p;
	full_plate(&p, 5, 5);
	/* the 3 x 3 inner cells: 30 mm less 2 * (0.1 + 1) = 27.8 mm each way */
	assert_true(fabs(height_of(&p, 7, 10, 3, 0.2, "3") - 27.8) < 1e-9);
	/* 15 font units wide: s = min(27.8 / 15, 27.8 / 10) */
	assert_true(fabs(height_of(&p, 7, 10, 3, 0.2, "12") - 27.8 / 15 * 10) < 1e-9);
	/* a 6 is underlined: 14 font units tall */
	assert_true(fabs(height_of(&p, 7, 10, 3, 0.2, "6") - 27.8 / 14 * 10) < 1e-9);
	assert_true(fabs(height_of(&p, 7, 10, 3, 0.2, "9") - 27.8 / 14 * 10) < 1e-9);
	/* 4 digits, 33 wide, underlined */
	assert_true(fabs(height_of(&p, 7, 10, 3, 0.2, "2469") - 27.8 / 33 * 10) < 1e-9);
	/* the wall's width does not move the label off the inner cells */
	assert_true(fabs(height_of(&p, 7, 10, 10, 0.2, "3") - 27.8) < 1e-9);
	assert_true(fabs(height_of(&p, 7, 10, 1.5, 0.2, "3") - 27.8) < 1e-9);
	/* without walls the whole 5 x 5 top: 50 - 2.2 */
	assert_true(fabs(height_of(&p, 0, 10, 3, 0.2, "3") - 47.8) < 1e-9);
	/* with walls on x only: 3 x 5 cells, the width limits: 27.8 / 6 * 10 */
	assert_true(fabs(height_of(&p, 1, 10, 3, 0.2, "3") - 27.8 / 6 * 10) < 1e-9);

	/* the place is the 3 x 3 inner cells, the label at its centre */
	struct mesh_spec s = spec_of(&p, 7, "3");
	struct mesh_size sz = {10, 3, 0.2};
	struct mesh_piece pc;
	piece_init(&pc, &s, &sz);
	struct mesh_label_place pl;
	assert_int_equal(mesh_label_place(&pc, &pl), MESH_OK);
	assert_true(pl.ok && pl.x0 == 1 && pl.x1 == 4 && pl.y0 == 1 && pl.y1 == 4 && !pl.turned);
	struct mesh_cut cut[MESH_LABEL_STROKES];
	size_t n;
	double h, area;
	assert_int_equal(mesh_label_cuts(&pc, &sz, cut, &n, &h, &area), MESH_OK);
	double bb[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
	for (size_t k = 0; k < n; k++) {
		bb[0] = fmin(bb[0], cut[k].lo[0]);
		bb[1] = fmin(bb[1], cut[k].lo[1]);
		bb[2] = fmax(bb[2], cut[k].hi[0]);
		bb[3] = fmax(bb[3], cut[k].hi[1]);
	}
	/* inner cells [3, 33] - 0.1 each way; a 3 fills its 6 x 10 box:
	 * 16.68 x 27.8 mm */
	assert_int_equal(n, 5);
	assert_true(fabs((bb[0] + bb[2]) / 2 - 17.9) < 1e-9);
	assert_true(fabs((bb[1] + bb[3]) / 2 - 17.9) < 1e-9);
	assert_true(fabs(bb[2] - bb[0] - 16.68) < 1e-9);
	assert_true(fabs(bb[3] - bb[1] - 27.8) < 1e-9);
	for (size_t k = 0; k < n; k++) {
		assert_true(fabs(cut[k].lo[2] - (3 - 0.2 - MESH_LABEL_DEPTH)) < 1e-12);
		assert_true(cut[k].hi[2] > 3 - 0.2);
	}

	/* a 1 x 3 strip reads along y: turned, 7.8 mm (unturned: 5.2) */
	struct piece q;
	full_plate(&q, 1, 3);
	assert_true(fabs(height_of(&q, 0, 10, 3, 0.2, "12") - 7.8) < 1e-9);
	s = spec_of(&q, 0, "12");
	piece_init(&pc, &s, &sz);
	assert_int_equal(mesh_label_place(&pc, &pl), MESH_OK);
	assert_true(pl.ok && pl.turned);
	/* a 3 x 1 strip: not turned, the same height */
	full_plate(&q, 3, 1);
	assert_true(fabs(height_of(&q, 0, 10, 3, 0.2, "12") - 7.8) < 1e-9);

	/* one cell: 10 - 2 * 1 = 8 (clearance 0), 7.8 (0.2); unit 3: 0.8 mm
	 * of room, under MESH_LABEL_MIN, left off */
	full_plate(&q, 1, 1);
	assert_true(fabs(height_of(&q, 0, 10, 3, 0, "1") - 8) < 1e-9);
	assert_true(fabs(height_of(&q, 0, 10, 3, 0.2, "1") - 7.8) < 1e-9);
	assert_true(height_of(&q, 0, 3, 3, 0.2, "1") == 0);
	assert_true(height_of(&q, 0, 3, 3, 0.2, NULL) == 0);
	assert_true(height_of(&q, 0, 10, 3, 0.2, "") == 0);
	/* the room left: 4.2 mm -> 4.2 for "1" (limited by 10 tall), then
	 * exactly at the minimum: 2 mm tall needs 2 mm of height */
	assert_true(fabs(height_of(&q, 0, 6.4, 3, 0.2, "1") - 4.2) < 1e-9);
	assert_true(fabs(height_of(&q, 0, 4.25, 3, 0.25, "1") - 2) < 1e-9);
	assert_true(height_of(&q, 0, 4.1, 3, 0.2, "1") == 0);
	/* the top all walls: weighed as units, the label still placed */
	assert_true(fabs(height_of(&q, 7, 10, 20, 0.2, "1") - 17.8) < 1e-9);
	/* a single wall cell at unit size 3 mm: too small */
	assert_true(height_of(&q, 7, 10, 3, 0.2, "1") == 0);

	/* the engraved mesh: the volume less the strokes' area * 0.6 */
	full_plate(&q, 1, 1);
	s = spec_of(&q, 0, "1");
	struct mesh_size one = {10, 10, 0};
	/* "1": two blocks of 2 x 6 overlapping in 2 x 2: 2 x 10 units, s = 0.8 */
	double v = mesh_spec_volume(&s, &one);
	assert_true(fabs(v - (1000 - 2 * 10 * 0.8 * 0.8 * 0.6)) < 1e-9);
	s.label = "8";
	v = mesh_spec_volume(&s, &one);
	assert_true(fabs(v - (1000 - (60 - 8) * 0.64 * 0.6)) < 1e-9);
}

/* The label's place depends on the cells and flags only: for every
 * size, the cuts taken back to font units around the place's centre are
 * the same, and the place is the model's. */
static void test_label_place_independent_of_sizes(void **state)
{
	(void)state;
	uint64_t seed = 11;
	for (int it = 0; it < 30; it++) {
		struct piece p;
		random_plate(&seed, 3 + rnd(&seed, 10), 3 + rnd(&seed, 10), 60, &p);
		const char *label = labels[1 + rnd(&seed, 4)];
		int axes = axes_list[rnd(&seed, 4)];
		int first = 1, ref[4] = {0};
		for (size_t ui = 0; ui < COUNT(units); ui++)
			for (size_t wi = 0; wi < COUNT(walls); wi++)
				for (size_t ci = 0; ci < COUNT(clearances); ci++) {
					struct mesh_size sz = {units[ui], walls[wi], clearances[ci]};
					struct mesh_spec s = spec_of(&p, axes, label);
					struct model m;
					model_init(&m, &p, axes, &sz, label);
					check_cuts(&m, &s, &sz);
					int now[4] = {m.x0 * 2 + m.turned, m.x1, m.y0, m.y1};
					if (first)
						memcpy(ref, now, sizeof ref);
					assert_memory_equal(ref, now, sizeof ref);
					first = 0;
				}
	}
}

/*
 * Wall flags anywhere, not only on the outer layers: the place is still
 * the best of "the rectangles of cells of the top layer" (mesh.h), as the
 * brute force finds it. Smallest case: a 5 x 1 bar whose middle layer is
 * a wall, label "1": [0, 2) turned scores as well as the whole bar with
 * no wall in it (and is smaller), so the label goes there, not across
 * the wall.
 */
static void test_label_place_any_flags(void **state)
{
	(void)state;
	static const unsigned char bar[5] = {1, 1, 1, 1, 1};
	static const unsigned char mid[5] = {0, 0, 1, 0, 0};
	struct mesh_spec bs = {.cells = bar, .dims = {5, 1, 1}, .wall = {mid, NULL, NULL},
			       .label = "1"};
	struct mesh_size bsz = {10, 3, 0.2};
	struct mesh_piece bp;
	piece_init(&bp, &bs, &bsz);
	struct mesh_label_place bpl;
	assert_int_equal(mesh_label_place(&bp, &bpl), MESH_OK);
	int bar_ok = bpl.ok && bpl.x0 == 0 && bpl.x1 == 2 && bpl.y0 == 0 && bpl.y1 == 1 &&
		     bpl.turned;

	uint64_t seed = 21;
	int bad = 0;
	char first[200] = "";
	for (int it = 0; it < 400; it++) {
		struct piece p;
		if (it % 2)
			random_plate(&seed, 3 + rnd(&seed, 8), 3 + rnd(&seed, 8), 50, &p);
		else
			random_polycube(&seed, &p);
		for (int a = 0; a < 3; a++)
			for (int i = 0; i < p.n[a]; i++)
				p.wall[a][i] = rnd(&seed, 3) == 0;
		const char *label = labels[1 + rnd(&seed, 4)];
		struct mesh_spec s = spec_of(&p, 7, label);
		struct mesh_size sz = {10, 3, 0.2};
		struct model m;
		model_init(&m, &p, 7, &sz, label);
		struct mesh_piece pc;
		piece_init(&pc, &s, &sz);
		struct mesh_label_place pl;
		assert_int_equal(mesh_label_place(&pc, &pl), MESH_OK);
		if (pl.x0 != m.x0 || pl.x1 != m.x1 || pl.y0 != m.y0 || pl.y1 != m.y1 ||
		    pl.turned != m.turned) {
			if (!bad++)
				snprintf(first, sizeof first, "iteration %d label %s: [%d,%d)x[%d,%d) "
					 "t%d, brute force [%d,%d)x[%d,%d) t%d", it, label, pl.x0,
					 pl.x1, pl.y0, pl.y1, pl.turned, m.x0, m.x1, m.y0, m.y1,
					 m.turned);
		}
	}
	if (!bar_ok || bad)
		fail_msg("5 x 1 bar, wall at x = 2: place [%d,%d)x[%d,%d) turned %d, want "
			 "[0,2)x[0,1) turned; %d of 400 random places differ from the "
			 "brute force, first: %s", bpl.x0, bpl.x1, bpl.y0, bpl.y1,
			 bpl.turned, bad, first);
}

/* Random face plates: every combination of flags and sizes and labels. */
static void test_label_random_plates_exact(void **state)
{
	(void)state;
	uint64_t seed = 1;
	int turn = 0, built = 0;
	memset(&seen, 0, sizeof seen);
	for (int it = 0; it < 12; it++) {
		struct piece p;
		int w = 3 + rnd(&seed, 10), h = 3 + rnd(&seed, 10);
		if (it == 0)
			w = h = 12;
		if (it == 1)
			w = h = 3;
		random_plate(&seed, w, h, 20 + rnd(&seed, 81), &p);
		built += check_all(&p, 9, &turn);
	}
	/* flat plates are never refused, not even with clearance 0 */
	assert_int_equal(built, 12 * 2 * 3 * 10 * 5);
	assert_true(seen.engraved > 1000 && seen.turned > 50 && seen.too_small > 0);
}

/* The pieces `generate` makes, as it prints them (outer layers of the
 * face as walls, one layer thick, numbered 1..6), over sizes, boxes and
 * seeds, at the default and at thin walls: each passes every check
 * against the model, its STL included. */
static void test_label_generated_pieces(void **state)
{
	(void)state;
	static const int dims[][3] = {{3, 3, 3}, {4, 4, 4}, {5, 5, 5}, {8, 8, 8},
				      {4, 5, 6}, {3, 3, 10}, {16, 16, 16}};
	static const double wall[] = {10, 3, 1.5};
	static const char *const number[6] = {"1", "2", "3", "4", "5", "6"};
	int built = 0;
	memset(&seen, 0, sizeof seen);
	for (size_t d = 0; d < COUNT(dims); d++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct rng r;
			rng_seed(&r, seed);
			struct gen_puzzle g = {0};
			assert_int_equal(gen_draw(&r, dims[d], &g), GEN_OK);
			for (int i = 0; i < 6; i++) {
				struct piece p;
				memset(&p, 0, sizeof p);
				p.n[0] = g.pw[i];
				p.n[1] = g.ph[i];
				p.n[2] = 1;
				memcpy(p.c, g.piece[i], (size_t)(g.pw[i] * g.ph[i]));
				outer_walls(&p);
				for (size_t w = 0; w < COUNT(wall); w++) {
					struct mesh_size sz = {10, wall[w], 0.2};
					built += check_spec(&p, 7, &sz, number[i], MESH_OK, 1) == MESH_OK;
					struct mesh_spec sp = spec_of(&p, 7, number[i]);
					double h = 0;
					assert_int_equal(mesh_label_height(&sp, &sz, &h), MESH_OK);
					if (!(h >= 4))
						fail_msg("%dx%dx%d seed %d piece %d wall %g: "
							 "digits %.2f mm tall", dims[d][0], dims[d][1],
							 dims[d][2], (int)seed, i + 1, wall[w], h);
				}
			}
			gen_puzzle_clear(&g);
		}
	assert_int_equal(built, (int)COUNT(dims) * 3 * 6 * (int)COUNT(wall));
	/* every piece has room for its number, at least 4 mm tall */
	assert_int_equal(seen.engraved, built);
}

/* How many of the piece's cell corners are notched (tests/notchref.h). */
static int piece_notches(const struct piece *p)
{
	int count = 0;
	for (int z = 1; z < p->n[2]; z++)
		for (int y = 1; y < p->n[1]; y++)
			for (int x = 1; x < p->n[0]; x++) {
				unsigned cells8 = 0;
				for (int k = 0; k < 8; k++)
					if (at(p, x - 1 + (k & 1), y - 1 + (k >> 1 & 1), z - 1 + (k >> 2)))
						cells8 |= 1u << k;
				count += notchref(cells8);
			}
	return count;
}

/* Random 3D polycubes: the same, and refused exactly when
 * mesh_from_cells() refuses the same cells; some have notches. */
static void test_label_random_polycubes_exact(void **state)
{
	(void)state;
	uint64_t seed = 2;
	int turn = 0, built = 0, total = 0, notched = 0;
	memset(&seen, 0, sizeof seen);
	for (int it = 0; it < 24; it++) {
		struct piece p;
		random_polycube(&seed, &p);
		notched += piece_notches(&p) > 0;
		built += check_all(&p, 9, &turn);
		total += 2 * 3 * 10 * 5;
	}
	/* random ones rarely have a notch: two that do (one and two) */
	static const struct piece fixed[2] = {
		{{2, 2, 2}, {1, 1, 1, 1, 1, 0, 0, 1}, {{0}}},
		{{3, 2, 2}, {1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 0}, {{0}}},
	};
	for (int i = 0; i < 2; i++) {
		assert_int_equal(piece_notches(&fixed[i]), i + 1);
		notched++;
		built += check_all(&fixed[i], 1, &turn);
		total += 2 * 3 * 10 * 5;
	}
	/* both kinds were seen, and labels of every kind */
	print_message("%d of 26 pieces notched (2 fixed)\n", notched);
	assert_true(built > 0 && built < total && notched >= 2);
	assert_true(seen.engraved > 500 && seen.turned > 20 && seen.fallback > 20 &&
		    seen.too_small > 20 && seen.refused > 100);
}

/* Sizes that are not round numbers, and the longest labels (up to 42
 * strokes), on plates and polycubes: the same checks, every mesh as STL. */
static void test_label_odd_sizes_long_labels(void **state)
{
	(void)state;
	static const struct mesh_size sizes[] = {
		{7.3, 2.2, 0.15}, {12.7, 4.9, 0.3}, {9.1, 9.1, 0.05}, {6.35, 1.27, 0.6},
		{25.4, 3.175, 0.254},
	};
	static const char *const longl[] = {"888888", "888889", "969696", "123456",
					    "0", "7", "90", "1111"};
	uint64_t seed = 9;
	for (int it = 0; it < 8; it++) {
		struct piece p;
		if (it < 5)
			random_plate(&seed, 3 + rnd(&seed, 10), 3 + rnd(&seed, 10), 60, &p);
		else
			random_polycube(&seed, &p);
		for (size_t i = 0; i < COUNT(sizes); i++) {
			int axes = axes_list[rnd(&seed, 4)];
			const char *label = longl[rnd(&seed, (int)COUNT(longl))];
			struct mesh *ref = NULL;
			int want = mesh_from_cells(p.c, p.n[0], p.n[1], p.n[2], sizes[i].unit,
						   sizes[i].clearance, &ref);
			mesh_free(ref);
			check_spec(&p, axes, &sizes[i], label, want, 1);
		}
	}
	/* a big plate: "888888" in 42 strokes, large enough to engrave */
	struct piece p;
	full_plate(&p, 12, 12);
	struct mesh_spec s = spec_of(&p, 7, "888888");
	struct mesh_size sz = {10, 3, 0.2};
	struct mesh_piece pc;
	piece_init(&pc, &s, &sz);
	struct mesh_cut cut[MESH_LABEL_STROKES];
	size_t n;
	double h, area;
	assert_int_equal(mesh_label_cuts(&pc, &sz, cut, &n, &h, &area), MESH_OK);
	assert_int_equal(n, 42);
	assert_true(h > 10);
	check_spec(&p, 7, &sz, "888888", MESH_OK, 1);
	check_spec(&p, 7, &sz, "969696", MESH_OK, 1);
}

/* No walls, no label: mesh_from_cells() vertex for vertex; walls as wide
 * as the unit change nothing either; flags of zeros and flags on layers
 * outside the bounding box are no walls. */
static void test_label_plain_equals_from_cells(void **state)
{
	(void)state;
	uint64_t seed = 3;
	for (int it = 0; it < 40; it++) {
		struct piece p;
		if (it % 2)
			random_plate(&seed, 3 + rnd(&seed, 10), 3 + rnd(&seed, 10), 50, &p);
		else
			random_polycube(&seed, &p);
		const double us[] = {8, 10, 9.7, 0.3};
		for (size_t ui = 0; ui < COUNT(us); ui++)
			for (size_t ci = 0; ci < COUNT(clearances); ci++) {
				double u = us[ui], c = clearances[ci] * (u < 1 ? 0.1 : 1);
				struct mesh *ref = NULL, *m = NULL;
				int rc = mesh_from_cells(p.c, p.n[0], p.n[1], p.n[2], u, c, &ref);
				for (int axes = 0; axes < 8; axes++) {
					struct mesh_size sz = {u, axes ? u : 3, c};
					struct mesh_spec s = spec_of(&p, axes, axes % 2 ? "" : NULL);
					assert_int_equal(mesh_build(&s, &sz, &m), rc);
					if (rc != MESH_OK)
						continue;
					if (!same_mesh(m, ref))
						fail_msg("axes %d unit %g clearance %g: not mesh_from_cells()",
							 axes, u, c);
					mesh_free(m);
				}
				/* all-zero flags with a bad wall */
				unsigned char zero[MAXN] = {0};
				struct mesh_spec s = spec_of(&p, 0, NULL);
				s.wall[0] = s.wall[1] = s.wall[2] = zero;
				struct mesh_size bad = {u, -1, c};
				assert_int_equal(mesh_build(&s, &bad, &m), rc);
				if (rc == MESH_OK) {
					assert_true(same_mesh(m, ref));
					mesh_free(m);
				}
				mesh_free(ref);
			}
	}

	/* flags only on an empty border layer: no walls, wall not checked */
	struct piece p;
	memset(&p, 0, sizeof p);
	p.n[0] = 6;
	p.n[1] = 5;
	p.n[2] = 1;
	for (int y = 0; y < 5; y++)
		for (int x = 1; x < 6; x++)
			set(&p, x, y, 0);
	p.wall[0][0] = 1;
	struct mesh *ref = NULL, *m = NULL;
	assert_int_equal(mesh_from_cells(p.c, 6, 5, 1, 10, 0.2, &ref), MESH_OK);
	struct mesh_spec s = spec_of(&p, 1, NULL);
	struct mesh_size sz = {10, 0, 0.2};
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_OK);
	assert_true(same_mesh(m, ref));
	mesh_free(m);
	assert_true(fabs(mesh_spec_volume(&s, &sz) -
			 mesh_expected_volume(p.c, 6, 5, 1, 10, 0.2)) < 1e-9);
	/* ... but the same flag on a layer of the box is a wall */
	p.wall[0][1] = 1;
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_EINVAL);
	mesh_free(ref);
}

/* Same input, same bytes. */
static void test_label_deterministic(void **state)
{
	(void)state;
	uint64_t seed = 4;
	struct piece p;
	random_plate(&seed, 9, 7, 50, &p);
	struct mesh_spec s = spec_of(&p, 7, "2469");
	struct mesh_size sz = {10, 3, 0.2};
	struct mesh *a = NULL, *b = NULL;
	assert_int_equal(mesh_build(&s, &sz, &a), MESH_OK);
	assert_int_equal(mesh_build(&s, &sz, &b), MESH_OK);
	assert_true(same_mesh(a, b));
	mesh_free(a);
	mesh_free(b);
}

/* Labels that are not 1 to 6 digits, and top layers too thin. */
static void test_label_invalid_labels(void **state)
{
	(void)state;
	struct piece p;
	full_plate(&p, 5, 5);
	struct mesh_size sz = {10, 3, 0.2};
	struct mesh *sentinel = (struct mesh *)&p, *m = sentinel;
	const char *bad[] = {"a", "1234567", "-1", "1a", " 1", "1 ", "+1", "0x1", "1.5"};
	for (size_t i = 0; i < COUNT(bad); i++) {
		struct mesh_spec s = spec_of(&p, 7, bad[i]);
		assert_int_equal(mesh_build(&s, &sz, &m), MESH_EINVAL);
		assert_ptr_equal(m, sentinel);
		double mm = 42;
		assert_int_equal(mesh_label_height(&s, &sz, &mm), MESH_EINVAL);
		assert_true(mm == 42);
		assert_true(mesh_spec_volume(&s, &sz) < 0);
		struct mesh_spec two[2] = {spec_of(&p, 7, "1"), s};
		double origin[2][3] = {{-1, -1, -1}, {-1, -1, -1}};
		assert_int_equal(mesh_build_plate(two, 2, &sz, 5, &m, origin), MESH_EINVAL);
		assert_ptr_equal(m, sentinel);
		assert_true(origin[0][0] == -1 && origin[1][2] == -1);
	}
	/* "" is no label: the same mesh as NULL; 6 digits are fine */
	struct mesh *a = NULL, *b = NULL;
	struct mesh_spec s = spec_of(&p, 7, "");
	assert_int_equal(mesh_build(&s, &sz, &a), MESH_OK);
	s.label = NULL;
	assert_int_equal(mesh_build(&s, &sz, &b), MESH_OK);
	assert_true(same_mesh(a, b));
	mesh_free(a);
	mesh_free(b);
	s.label = "123456";
	assert_int_equal(mesh_build(&s, &sz, &a), MESH_OK);
	mesh_free(a);

	/* a top layer too thin: wall 0.7 less 0.2 is under 0.6 deep */
	struct mesh_size thin = {10, 0.7, 0.2};
	s = spec_of(&p, 7, "1");
	assert_int_equal(mesh_build(&s, &thin, &m), MESH_EINVAL);
	assert_ptr_equal(m, sentinel);
	double mm = 42;
	assert_int_equal(mesh_label_height(&s, &thin, &mm), MESH_EINVAL);
	assert_true(mesh_spec_volume(&s, &thin) < 0);
	/* the same without the label, or with the top a unit layer */
	s.label = NULL;
	assert_int_equal(mesh_build(&s, &thin, &m), MESH_OK);
	mesh_free(m);
	s = spec_of(&p, 3, "1");
	assert_int_equal(mesh_build(&s, &thin, &m), MESH_OK);
	mesh_free(m);
	/* a unit top too thin: unit 0.7 with a label */
	struct mesh_size small = {0.7, 0.7, 0.2};
	s = spec_of(&p, 0, "1");
	m = sentinel;
	assert_int_equal(mesh_build(&s, &small, &m), MESH_EINVAL);
	assert_ptr_equal(m, sentinel);
	s.label = NULL;
	assert_int_equal(mesh_build(&s, &small, &m), MESH_OK);
	mesh_free(m);
	/* just thick enough: 0.9 - 0.2 = 0.7 > 0.6 */
	struct mesh_size ok = {10, 0.9, 0.2};
	s = spec_of(&p, 7, "1");
	assert_int_equal(mesh_build(&s, &ok, &m), MESH_OK);
	mesh_free(m);
}

/* Sizes out of range. */
static void test_label_bad_sizes(void **state)
{
	(void)state;
	struct piece p;
	full_plate(&p, 4, 3);
	struct mesh *sentinel = (struct mesh *)&p, *m = sentinel;
	const struct mesh_size bad_flagged[] = {
		{10, 0, 0.2}, {10, -3, 0.2}, {10, NAN, 0.2}, {10, INFINITY, 0.2},
		{10, 3, 1.5}, {10, 3, 1.6}, {10, 0.4, 0.2},
	};
	const struct mesh_size bad_any[] = {
		{0, 3, 0.2}, {-1, 3, 0.2}, {NAN, 3, 0.2}, {INFINITY, 3, 0.2},
		{10, 3, -0.1}, {10, 3, NAN}, {10, 3, INFINITY}, {10, 30, 5},
		{10, 30, 6}, {-INFINITY, 3, 0}, {10, 3, 5},
	};
	for (int pass = 0; pass < 2; pass++) {
		const struct mesh_size *list = pass ? bad_any : bad_flagged;
		size_t n = pass ? COUNT(bad_any) : COUNT(bad_flagged);
		for (size_t i = 0; i < n; i++) {
			for (int axes = 0; axes < 8; axes++) {
				/* walls only matter when a layer is flagged */
				int want = pass || axes ? MESH_EINVAL : MESH_OK;
				/* (see test_label_unflagged_wall_not_used) */
				if (want == MESH_OK && !isfinite(list[i].wall))
					continue;
				struct mesh_spec s = spec_of(&p, axes, axes % 2 ? "1" : NULL);
				m = sentinel;
				int rc = mesh_build(&s, &list[i], &m);
				if (rc != want)
					fail_msg("size %zu (%g, %g, %g) axes %d: %s", i, list[i].unit,
						 list[i].wall, list[i].clearance, axes, mesh_strerror(rc));
				if (rc == MESH_OK) {
					mesh_free(m);
					continue;
				}
				assert_ptr_equal(m, sentinel);
				double mm = 42;
				assert_int_equal(mesh_label_height(&s, &list[i], &mm), MESH_EINVAL);
				assert_true(mm == 42);
				assert_true(mesh_spec_volume(&s, &list[i]) < 0);
				assert_int_equal(mesh_build_plate(&s, 1, &list[i], 5, &m, NULL),
						 MESH_EINVAL);
				assert_ptr_equal(m, sentinel);
			}
		}
	}
	/* clearance just under wall / 2 is fine */
	struct mesh_spec s = spec_of(&p, 7, "1");
	struct mesh_size sz = {10, 1.5, 0.74};
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_OK);
	struct model mo;
	model_init(&mo, &p, 7, &sz, "1");
	assert_true(fabs(mesh_spec_volume(&s, &sz) - mo.volume) <= 1e-9 * mo.volume);
	verify_stl(m, mo.volume);
	mesh_free(m);
	/* a clearance of wall / 2 or more is fine when no layer is a wall */
	sz = (struct mesh_size){10, 0.2, 0.35};
	s = spec_of(&p, 0, "1");
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_OK);
	mesh_free(m);
	/* an empty piece and a disconnected one */
	struct piece q;
	memset(&q, 0, sizeof q);
	q.n[0] = 3;
	q.n[1] = q.n[2] = 1;
	s = spec_of(&q, 0, "1");
	sz = (struct mesh_size){10, 3, 0.2};
	m = sentinel;
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_EDISCONNECTED);
	assert_true(mesh_spec_volume(&s, &sz) < 0);
	set(&q, 0, 0, 0);
	set(&q, 2, 0, 0);
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_EDISCONNECTED);
	assert_true(mesh_spec_volume(&s, &sz) < 0);
	double mm = 42;
	assert_int_equal(mesh_label_height(&s, &sz, &mm), MESH_EDISCONNECTED);
	s.dims[0] = 0;
	assert_int_equal(mesh_build(&s, &sz, &m), MESH_EINVAL);
	assert_ptr_equal(m, sentinel);
}

/*
 * mesh.h: "wall only matters when a layer is flagged", and
 * mesh_piece_init_spec() checks it only then; so a spec with no layer of
 * its bounding box flagged gives, for any wall (NaN and infinity
 * included), what it gives with a valid one: the same mesh, volume,
 * label height and plate.
 */
static void test_label_unflagged_wall_not_used(void **state)
{
	(void)state;
	struct piece p;
	full_plate(&p, 5, 4);
	const double bad[] = {-1, 0, NAN, INFINITY, -INFINITY};
	struct mesh_size good = {10, 3, 0.2};
	struct mesh_spec s = spec_of(&p, 0, "12");
	struct mesh *ref = NULL;
	assert_int_equal(mesh_build(&s, &good, &ref), MESH_OK);
	double v = mesh_spec_volume(&s, &good), h = -1;
	assert_int_equal(mesh_label_height(&s, &good, &h), MESH_OK);
	assert_true(h > 2);
	/* every check first, then one failure naming them all (nothing
	 * leaks when it fails) */
	char why[400] = "";
	size_t len = 0;
	for (size_t i = 0; i < COUNT(bad); i++) {
		struct mesh_size sz = {10, bad[i], 0.2};
		struct mesh *m = NULL;
		int rc = mesh_build(&s, &sz, &m);
		int same = rc == MESH_OK && same_mesh(m, ref);
		mesh_free(m);
		double mm = -1, origin[1][3];
		int rh = mesh_label_height(&s, &sz, &mm);
		int rp = mesh_build_plate(&s, 1, &sz, 5, &m, origin);
		int psame = rp == MESH_OK && same_mesh(m, ref);
		if (rp == MESH_OK)
			mesh_free(m);
		double sv = mesh_spec_volume(&s, &sz);
		if (!same || rh != MESH_OK || mm != h || !psame || sv != v)
			len += (size_t)snprintf(why + len, len < sizeof why ? sizeof why - len : 0,
						"[wall %g: build %s%s, height %s %g, plate %s%s, "
						"volume %g] ", bad[i], mesh_strerror(rc),
						rc == MESH_OK && !same ? " (other mesh)" : "",
						mesh_strerror(rh), mm, mesh_strerror(rp),
						rp == MESH_OK && !psame ? " (other mesh)" : "", sv);
	}
	mesh_free(ref);
	if (len)
		fail_msg("no layer flagged, label height %g, volume %g: %s", h, v, why);
}

/* The layout of mesh_int.h: columns as wide as their most wall layers
 * plus their most unit layers, rows likewise, 'gap - clearance' apart. */
static void layout(const struct model *md, size_t count, const struct mesh_size *sz,
		   double gap, double (*origin)[3])
{
	size_t cols = 1;
	while (cols * cols < count)
		cols++;
	for (size_t i = 0; i < count; i++) {
		size_t col = i % cols, row = i / cols;
		double o[2] = {0, 0};
		for (int a = 0; a < 2; a++) {
			long sw = 0, su = 0;
			size_t before = a == 0 ? col : row;
			for (size_t g = 0; g < before; g++) {
				long mw = 0, mu = 0;
				for (size_t j = 0; j < count; j++) {
					if ((a == 0 ? j % cols : j / cols) != g)
						continue;
					long w = 0, u = 0;
					for (int k = 0; k < md[j].n[a]; k++) {
						w += md[j].flag[a][k];
						u += !md[j].flag[a][k];
					}
					mw = w > mw ? w : mw;
					mu = u > mu ? u : mu;
				}
				sw += mw;
				su += mu;
			}
			o[a] = sw * sz->wall + su * sz->unit + (double)before * (gap - sz->clearance);
		}
		origin[i][0] = o[0];
		origin[i][1] = o[1];
		origin[i][2] = 0;
	}
}

/* Without walls and labels: mesh_plate() byte for byte. */
static void test_label_plate_equals_mesh_plate(void **state)
{
	(void)state;
	uint64_t seed = 5;
	for (int it = 0; it < 20; it++) {
		size_t count = 1 + (size_t)rnd(&seed, 9);
		struct piece p[9];
		struct mesh_spec s[9];
		const unsigned char *cells[9];
		int dims[9][3];
		for (size_t i = 0; i < count; i++) {
			if (rnd(&seed, 2))
				random_plate(&seed, 3 + rnd(&seed, 8), 3 + rnd(&seed, 8), 50, &p[i]);
			else
				random_polycube(&seed, &p[i]);
			s[i] = spec_of(&p[i], 0, rnd(&seed, 2) ? "" : NULL);
			cells[i] = p[i].c;
			memcpy(dims[i], p[i].n, sizeof dims[i]);
		}
		double c = clearances[rnd(&seed, 3)], u = units[rnd(&seed, 2)], gap = 2 + rnd(&seed, 5);
		struct mesh_size sz = {u, 3, c};
		struct mesh *a = NULL, *b = NULL;
		double origin[9][3];
		int ra = mesh_build_plate(s, count, &sz, gap, &a, origin);
		int rb = mesh_plate(cells, (const int (*)[3])dims, count, u, c, gap, &b);
		assert_int_equal(ra, rb);
		if (ra != MESH_OK) {
			assert_int_equal(ra, MESH_ENONMANIFOLD);
			continue;
		}
		assert_true(same_mesh(a, b));
		struct model md[9];
		double want[9][3];
		for (size_t i = 0; i < count; i++)
			model_init(&md[i], &p[i], 0, &sz, NULL);
		layout(md, count, &sz, gap, want);
		for (size_t i = 0; i < count; i++)
			for (int k = 0; k < 3; k++)
				assert_true(origin[i][k] == want[i][k]);
		mesh_free(a);
		mesh_free(b);
	}
}

/*
 * With walls and labels: the plate is mesh_join() of the pieces'
 * mesh_build() meshes moved by the returned origins (the same triangles,
 * vertices within float rounding), at the origins of the layout, each
 * piece's box exactly [origin, origin + size], pieces at least 'gap'
 * apart along x or y, and the STL clean with the sum of the volumes.
 */
static void test_label_plate_is_join_of_pieces(void **state)
{
	(void)state;
	uint64_t seed = 6;
	for (int it = 0; it < 16; it++) {
		size_t count = it == 0 ? 6 : 1 + (size_t)rnd(&seed, 9);
		struct piece p[9];
		struct mesh_spec s[9];
		int axes = axes_list[rnd(&seed, 4)];
		const char *digits[9] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
		for (size_t i = 0; i < count; i++) {
			if (it == 0 || rnd(&seed, 3))
				random_plate(&seed, 3 + rnd(&seed, 8), 3 + rnd(&seed, 8), 50, &p[i]);
			else
				random_polycube(&seed, &p[i]);
			s[i] = spec_of(&p[i], axes, rnd(&seed, 4) ? digits[i] : NULL);
		}
		double c = clearances[1 + rnd(&seed, 2)], gap = 2 + rnd(&seed, 5);
		struct mesh_size sz = {units[rnd(&seed, 2)], walls[rnd(&seed, 3)], c};
		struct mesh *plate = NULL, *one[9];
		double origin[9][3];
		int rc = mesh_build_plate(s, count, &sz, gap, &plate, origin);
		int want = MESH_OK;
		double volume = 0;
		for (size_t i = 0; i < count; i++) {
			int r = mesh_build(&s[i], &sz, &one[i]);
			if (r != MESH_OK) {
				assert_int_equal(r, MESH_ENONMANIFOLD);
				want = r;
				for (size_t j = 0; j < i; j++)
					mesh_free(one[j]);
				break;
			}
			volume += mesh_spec_volume(&s[i], &sz);
		}
		assert_int_equal(rc, want);
		if (rc != MESH_OK)
			continue;
		struct model md[9];
		double lay[9][3];
		for (size_t i = 0; i < count; i++)
			model_init(&md[i], &p[i], axes, &sz, NULL);
		layout(md, count, &sz, gap, lay);
		for (size_t i = 0; i < count; i++)
			for (int k = 0; k < 3; k++)
				assert_true(fabs(origin[i][k] - lay[i][k]) <= 1e-9);

		struct mesh *joined = NULL;
		assert_int_equal(mesh_join((const struct mesh *const *)one,
					   (const double (*)[3])origin, count, &joined),
				 MESH_OK);
		assert_int_equal(joined->ntriangles, plate->ntriangles);
		assert_int_equal(joined->nvertices, plate->nvertices);
		assert_memory_equal(joined->triangles, plate->triangles,
				    plate->ntriangles * sizeof *plate->triangles);
		for (size_t v = 0; v < plate->nvertices; v++)
			for (int k = 0; k < 3; k++)
				assert_true(fabsf(joined->vertices[v][k] - plate->vertices[v][k]) <= 1e-4f);
		double vp = signed_volume(plate), vj = signed_volume(joined);
		assert_true(fabs(vp - vj) <= 1e-6 * vp);
		assert_true(fabs(vp - volume) <= 1e-5 * volume);
		check_closed(plate);
		verify_stl(plate, volume);

		/* each piece's vertices, in order: its box */
		float box[9][2][3];
		size_t base = 0;
		for (size_t i = 0; i < count; i++) {
			for (int k = 0; k < 3; k++) {
				box[i][0][k] = INFINITY;
				box[i][1][k] = -INFINITY;
			}
			for (size_t v = base; v < base + one[i]->nvertices; v++)
				for (int k = 0; k < 3; k++) {
					box[i][0][k] = fminf(box[i][0][k], plate->vertices[v][k]);
					box[i][1][k] = fmaxf(box[i][1][k], plate->vertices[v][k]);
				}
			base += one[i]->nvertices;
			for (int k = 0; k < 3; k++) {
				assert_true(box[i][0][k] == (float)origin[i][k]);
				assert_true(fabs(box[i][1][k] - (origin[i][k] + md[i].ext[k])) <= 1e-4);
			}
		}
		for (size_t i = 0; i < count; i++)
			for (size_t j = i + 1; j < count; j++) {
				double sep = -INFINITY;
				for (int k = 0; k < 2; k++) {
					sep = fmax(sep, (double)box[j][0][k] - box[i][1][k]);
					sep = fmax(sep, (double)box[i][0][k] - box[j][1][k]);
				}
				if (!(sep >= gap - 1e-4))
					fail_msg("pieces %zu and %zu of %zu: %g apart, gap %g", i, j,
						 count, sep, gap);
			}
		for (size_t i = 0; i < count; i++)
			mesh_free(one[i]);
		mesh_free(joined);
		mesh_free(plate);
	}
}

/* Plate arguments. */
static void test_label_plate_bad_arguments(void **state)
{
	(void)state;
	struct piece p;
	full_plate(&p, 4, 4);
	struct mesh_spec s = spec_of(&p, 7, "1");
	struct mesh_size sz = {10, 3, 0.2};
	struct mesh *sentinel = (struct mesh *)&p, *m = sentinel;
	double origin[1][3] = {{-1, -1, -1}};
	assert_int_equal(mesh_build_plate(&s, 0, &sz, 5, &m, origin), MESH_EINVAL);
	assert_int_equal(mesh_build_plate(NULL, 0, &sz, 5, &m, NULL), MESH_EINVAL);
	assert_int_equal(mesh_build_plate(&s, 1, &sz, 0, &m, origin), MESH_EINVAL);
	assert_int_equal(mesh_build_plate(&s, 1, &sz, -1, &m, origin), MESH_EINVAL);
	assert_int_equal(mesh_build_plate(&s, 1, &sz, NAN, &m, origin), MESH_EINVAL);
	assert_int_equal(mesh_build_plate(&s, 1, &sz, INFINITY, &m, origin), MESH_EINVAL);
	assert_ptr_equal(m, sentinel);
	assert_true(origin[0][0] == -1);
	/* one piece: the piece itself at the origin */
	struct mesh *a = NULL;
	assert_int_equal(mesh_build_plate(&s, 1, &sz, 5, &m, origin), MESH_OK);
	assert_int_equal(mesh_build(&s, &sz, &a), MESH_OK);
	assert_true(origin[0][0] == 0 && origin[0][1] == 0 && origin[0][2] == 0);
	assert_true(same_mesh(a, m));
	mesh_free(a);
	mesh_free(m);
}

/* mesh_join(): counts, offsets, moves, errors. */
static void test_label_join(void **state)
{
	(void)state;
	struct mesh *sentinel = (struct mesh *)state, *out = sentinel;
	assert_int_equal(mesh_join(NULL, NULL, 0, &out), MESH_EINVAL);
	assert_ptr_equal(out, sentinel);

	uint64_t seed = 7;
	struct piece p[3];
	struct mesh *m[4];
	struct mesh_size sz = {10, 3, 0.2};
	const char *lab[3] = {"1", "69", NULL};
	for (int i = 0; i < 3; i++) {
		random_plate(&seed, 4 + 2 * i, 5, 50, &p[i]);
		struct mesh_spec s = spec_of(&p[i], 7, lab[i]);
		assert_int_equal(mesh_build(&s, &sz, &m[i]), MESH_OK);
	}
	/* a hand-made empty mesh adds nothing */
	struct mesh empty = {0, 0, NULL, NULL};
	m[3] = &empty;
	const double origin[4][3] = {{0, 0, 0}, {100, 0.5, 0}, {-50, 20.25, 3}, {1, 1, 1}};
	assert_int_equal(mesh_join((const struct mesh *const *)m, origin, 4, &out), MESH_OK);
	size_t nv = 0, nt = 0;
	for (int i = 0; i < 3; i++) {
		for (size_t v = 0; v < m[i]->nvertices; v++)
			for (int k = 0; k < 3; k++)
				assert_true(out->vertices[nv + v][k] ==
					    (float)(m[i]->vertices[v][k] + origin[i][k]));
		for (size_t t = 0; t < m[i]->ntriangles; t++)
			for (int k = 0; k < 3; k++)
				assert_int_equal(out->triangles[nt + t][k], m[i]->triangles[t][k] + nv);
		nv += m[i]->nvertices;
		nt += m[i]->ntriangles;
	}
	assert_int_equal(out->nvertices, nv);
	assert_int_equal(out->ntriangles, nt);
	assert_int_equal(mesh_triangles(out), nt);
	check_closed(out);
	double sum = 0;
	for (int i = 0; i < 3; i++)
		sum += signed_volume(m[i]);
	assert_true(fabs(signed_volume(out) - sum) <= 1e-6 * sum);
	mesh_free(out);

	/* one mesh at 0: itself */
	assert_int_equal(mesh_join((const struct mesh *const *)m, origin, 1, &out), MESH_OK);
	assert_true(same_mesh(out, m[0]));
	mesh_free(out);
	/* only empty meshes: an empty mesh */
	const struct mesh *e[2] = {&empty, &empty};
	assert_int_equal(mesh_join(e, origin, 2, &out), MESH_OK);
	assert_int_equal(out->nvertices, 0);
	assert_int_equal(out->ntriangles, 0);
	mesh_free(out);
	/* moved beyond float: MESH_ERANGE, nothing written */
	const double far[2][3] = {{0, 0, 0}, {1e39, 0, 0}};
	out = sentinel;
	assert_int_equal(mesh_join((const struct mesh *const *)m, far, 2, &out), MESH_ERANGE);
	assert_ptr_equal(out, sentinel);
	for (int i = 0; i < 3; i++)
		mesh_free(m[i]);
}

/* ---- out of memory --------------------------------------------------------------- */

#ifndef HAVE_ASAN
/* Fail every allocation from the k-th on, for every k until 'call'
 * succeeds: it must return MESH_ENOMEM each time and leave no block
 * behind. */
#define EVERY_ALLOCATION(call, cleanup)                                   \
	do {                                                              \
		for (long k = 0;; k++) {                                  \
			long live0_ = live;                               \
			fail_after = k;                                   \
			int rc_ = (call);                                 \
			fail_after = -1;                                  \
			if (rc_ == MESH_OK) {                             \
				cleanup;                                  \
				assert_int_equal(live, live0_);           \
				break;                                    \
			}                                                 \
			assert_int_equal(rc_, MESH_ENOMEM);               \
			if (live != live0_)                               \
				fail_msg("allocation %ld failed: %ld blocks " \
					 "leaked", k, live - live0_);     \
			assert_true(k < 10000);                           \
		}                                                         \
	} while (0)

static int height_call(const struct mesh_spec *s, const struct mesh_size *sz)
{
	double mm;
	return mesh_label_height(s, sz, &mm);
}

static int volume_call(const struct mesh_spec *s, const struct mesh_size *sz, double want)
{
	double v = mesh_spec_volume(s, sz);
	if (v == want)
		return MESH_OK;
	return v < 0 ? MESH_ENOMEM : MESH_EINVAL;
}
#endif

static void test_label_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	uint64_t seed = 8;
	struct piece p[4];
	struct mesh_spec s[4];
	const char *lab[4] = {"2469", "1", "69", NULL};
	for (int i = 0; i < 4; i++) {
		random_plate(&seed, 6 + i, 5, 50, &p[i]);
		s[i] = spec_of(&p[i], 7, lab[i]);
	}
	struct mesh_size sz = {10, 3, 0.2};
	struct mesh *m = NULL;
	/* the counter sees a mesh: the struct and its two arrays */
	long live0 = live;
	assert_int_equal(mesh_build(&s[0], &sz, &m), MESH_OK);
	assert_int_equal(live, live0 + 3);
	mesh_free(m);
	assert_int_equal(live, live0);
	for (int i = 0; i < 4; i++)
		EVERY_ALLOCATION(mesh_build(&s[i], &sz, &m), mesh_free(m));
	struct mesh_size nocl = {10, 3, 0};
	EVERY_ALLOCATION(mesh_build(&s[0], &nocl, &m), mesh_free(m));
	double origin[4][3];
	EVERY_ALLOCATION(mesh_build_plate(s, 4, &sz, 5, &m, origin), mesh_free(m));
	EVERY_ALLOCATION(height_call(&s[0], &sz), (void)0);
	double v = mesh_spec_volume(&s[0], &sz);
	assert_true(v > 0);
	EVERY_ALLOCATION(volume_call(&s[0], &sz, v), (void)0);
	struct mesh *one[2];
	assert_int_equal(mesh_build(&s[0], &sz, &one[0]), MESH_OK);
	assert_int_equal(mesh_build(&s[1], &sz, &one[1]), MESH_OK);
	const double at2[2][3] = {{0, 0, 0}, {100, 0, 0}};
	EVERY_ALLOCATION(mesh_join((const struct mesh *const *)one, at2, 2, &m), mesh_free(m));
	/* MESH_ERANGE after the allocations: nothing left behind either */
	const double far[2][3] = {{0, 0, 0}, {1e39, 0, 0}};
	live0 = live;
	assert_int_equal(mesh_join((const struct mesh *const *)one, far, 2, &m), MESH_ERANGE);
	assert_int_equal(live, live0);
	mesh_free(one[0]);
	mesh_free(one[1]);
#endif
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_label.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_label_checks_can_fail),
		cmocka_unit_test(test_label_font_is_seven_segments),
		cmocka_unit_test(test_label_height_known_values),
		cmocka_unit_test(test_label_place_independent_of_sizes),
		cmocka_unit_test(test_label_place_any_flags),
		cmocka_unit_test(test_label_random_plates_exact),
		cmocka_unit_test(test_label_generated_pieces),
		cmocka_unit_test(test_label_random_polycubes_exact),
		cmocka_unit_test(test_label_odd_sizes_long_labels),
		cmocka_unit_test(test_label_plain_equals_from_cells),
		cmocka_unit_test(test_label_deterministic),
		cmocka_unit_test(test_label_invalid_labels),
		cmocka_unit_test(test_label_bad_sizes),
		cmocka_unit_test(test_label_unflagged_wall_not_used),
		cmocka_unit_test(test_label_plate_equals_mesh_plate),
		cmocka_unit_test(test_label_plate_is_join_of_pieces),
		cmocka_unit_test(test_label_plate_bad_arguments),
		cmocka_unit_test(test_label_join),
		cmocka_unit_test(test_label_out_of_memory),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return failed ? 1 : 0;
}
