/*
 * test_mesh.c: meshes, STL and OpenSCAD files of mesh/mesh.h.
 *
 * Every mesh is written as STL, read back and put through
 * mesh_verify_stl() (exact checks, then libadmesh) with its expected
 * volume, and that volume is compared with a brute force written here
 * from DESIGN.md's definition (the union of the cells' inset boxes, cut
 * along every plane a box side can lie on; an elementary box is inside
 * when its centre is inside some cell's box). The mesher's status is
 * compared with an independent manifold predictor on the same elementary
 * boxes (surface boundary cycles in the link of each grid point).
 * Pieces: random 3D polycubes in small boxes, every 4-connected plate of
 * 4 x 4 cells, random flat plates the way the generator makes them, and
 * shell puzzles from tests/randpuz.c, for clearance 0 and > 0. Polycubes
 * whose solid is not a manifold must be refused, with and without a
 * clearance (a 2x2 layer with two diagonal cells on top, for one); flat
 * plates never are, with a clearance.
 *
 * The checker itself is tested on hand-made bad files (4 triangles on an
 * edge, cubes touching at an edge or a corner, a T-junction, NaN,
 * infinity, -0.0, a flipped triangle, inside out, zero area, a normal
 * against the winding, a truncated file, a wrong volume, a "solid"
 * header, ASCII syntax errors), each of which must fail with a sentence
 * naming the problem, and on good ASCII and binary files. Plus: the
 * corner square at a concave corner, a byte-exact golden STL, write
 * errors on /dev/full, growth of the triangle count (an N=40 plate <
 * 2.5x an N=20 one), the OpenSCAD box cover (the union of its inset
 * boxes, placed by the file's formula, is exactly the brute force's
 * solid), the .scad text, and out-of-memory at every allocation (a
 * malloc that fails on demand, off under AddressSanitizer, which owns
 * malloc there).
 *
 * Cell colours (mesh_build_coloured()): random colourings of the same
 * pieces, with a clearance and without, with labels and walls, give
 * meshes that pass the same checks with the same exact volume; every
 * triangle's colour is that of the cell found just inside it (its
 * centroid moved a little against its normal, located by the unit
 * grid); a piece of one colour gives mesh_build()'s mesh triangle for
 * triangle; mesh_build_plate_coloured() is the pieces' coloured meshes
 * moved; and out-of-memory at every allocation.
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

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"
#include "solver/puzzle.h"
#include "tests/randpuz.h"

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

struct piece {
	int n[3];
	unsigned char c[4096];
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

/* A random 6-connected polycube of 1..20 cells in a box of 1..4 per axis. */
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
}

/* A flat N x N plate as the generator makes them: the (N-2)^2 centre
 * full, each edge cell there or not, a corner only next to an edge cell
 * (so it never floats). 'density' in percent for the border. */
static void random_plate(uint64_t *s, int n, int density, struct piece *p)
{
	memset(p, 0, sizeof *p);
	p->n[0] = p->n[1] = n;
	p->n[2] = 1;
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			int bx = x == 0 || x == n - 1, by = y == 0 || y == n - 1;
			if (!bx && !by)
				set(p, x, y, 0);
			else if (!(bx && by) && rnd(s, 100) < density)
				set(p, x, y, 0);
		}
	for (int y = 0; y < n; y += n - 1)
		for (int x = 0; x < n; x += n - 1) {
			int nb = at(p, x == 0 ? 1 : n - 2, y, 0) || at(p, x, y == 0 ? 1 : n - 2, 0);
			if (nb && rnd(s, 100) < density)
				set(p, x, y, 0);
		}
}

/* ---- the solid by its definition ------------------------------------------ */

/*
 * DESIGN.md §3, written here from the text and not from mesh.c: cell
 * (x, y, z) of the piece is the box [x*unit, (x+1)*unit] x ..., moved in
 * by h = clearance/2 on each face whose neighbour is not a cell of the
 * piece; the solid is the union of these boxes (coordinates unshifted:
 * the solid starts at h, not at 0), less the cube [V - h, V + h]^3 around
 * each notched cell corner V (mesh.h; tests/notchref.h).
 */
static void cell_box(const struct piece *p, const int c[3], double unit,
		     double h, double lo[3], double hi[3])
{
	for (int a = 0; a < 3; a++) {
		int d[3] = {c[0], c[1], c[2]};
		d[a] = c[a] - 1;
		lo[a] = c[a] * unit + (at(p, d[0], d[1], d[2]) ? 0 : h);
		d[a] = c[a] + 1;
		hi[a] = (c[a] + 1) * unit - (at(p, d[0], d[1], d[2]) ? 0 : h);
	}
}

/* Whether point m lies strictly inside the cube of half-side h around a
 * notched cell corner: the corner nearest to it on each axis. */
static int in_notch(const struct piece *p, double unit, double h, const double m[3])
{
	int V[3];
	for (int a = 0; a < 3; a++) {
		V[a] = (int)floor(m[a] / unit + 0.5);
		if (!(fabs(m[a] - V[a] * unit) < h))
			return 0;
	}
	unsigned cells8 = 0;
	for (int k = 0; k < 8; k++)
		if (at(p, V[0] - 1 + (k & 1), V[1] - 1 + (k >> 1 & 1), V[2] - 1 + (k >> 2)))
			cells8 |= 1u << k;
	return notchref(cells8);
}

/* Whether point m lies strictly inside some cell's box, and in no notch.
 * Only cells floor(m/unit) - 1 and floor(m/unit) per axis can hold it: a
 * cell's box lies within its cube. No assumption on how the boxes
 * overlap. */
static int in_solid(const struct piece *p, double unit, double h, const double m[3])
{
	if (h > 0 && in_notch(p, unit, h, m))
		return 0;
	int f[3];
	for (int a = 0; a < 3; a++)
		f[a] = (int)floor(m[a] / unit);
	for (int k = 0; k < 8; k++) {
		int c[3] = {f[0] - 1 + (k & 1), f[1] - 1 + (k >> 1 & 1), f[2] - 1 + (k >> 2)};
		if (!at(p, c[0], c[1], c[2]))
			continue;
		double lo[3], hi[3];
		cell_box(p, c, unit, h, lo, hi);
		if (lo[0] < m[0] && m[0] < hi[0] && lo[1] < m[1] && m[1] < hi[1] &&
		    lo[2] < m[2] && m[2] < hi[2])
			return 1;
	}
	return 0;
}

/*
 * Space cut along every plane where a box side can lie (k*unit and
 * k*unit +- h; one plane per k*unit when h = 0) into elementary boxes, and
 * which of those are in the solid, by testing their centres. Every box
 * side is one of the planes, so the solid is exactly the union of the
 * filled elementary boxes.
 */
struct vox {
	int n[3];         /* elementary intervals per axis */
	double *cut[3];   /* n[a] + 1 planes per axis, increasing */
	unsigned char *fill;
};

static void vox_init(struct vox *v, const struct piece *p, double unit, double clearance)
{
	double h = clearance / 2;
	for (int a = 0; a < 3; a++) {
		v->cut[a] = malloc((3 * (size_t)p->n[a] + 1) * sizeof(double));
		assert_non_null(v->cut[a]);
		int k = 0;
		for (int c = 0; c <= p->n[a]; c++) {
			double w[3] = {c * unit - h, c * unit, c * unit + h};
			for (int t = 0; t < 3; t++)
				if (w[t] >= h && w[t] <= p->n[a] * unit - h &&
				    (k == 0 || w[t] > v->cut[a][k - 1]))
					v->cut[a][k++] = w[t];
		}
		v->n[a] = k - 1;
	}
	v->fill = malloc((size_t)v->n[0] * (size_t)v->n[1] * (size_t)v->n[2]);
	assert_non_null(v->fill);
	for (int k = 0; k < v->n[2]; k++)
		for (int j = 0; j < v->n[1]; j++)
			for (int i = 0; i < v->n[0]; i++) {
				double m[3] = {(v->cut[0][i] + v->cut[0][i + 1]) / 2,
					       (v->cut[1][j] + v->cut[1][j + 1]) / 2,
					       (v->cut[2][k] + v->cut[2][k + 1]) / 2};
				v->fill[i + (size_t)v->n[0] * (j + (size_t)v->n[1] * k)] =
					(unsigned char)in_solid(p, unit, h, m);
			}
}

static void vox_clear(struct vox *v)
{
	for (int a = 0; a < 3; a++)
		free(v->cut[a]);
	free(v->fill);
}

static int vox_at(const struct vox *v, int i, int j, int k)
{
	if (i < 0 || j < 0 || k < 0 || i >= v->n[0] || j >= v->n[1] || k >= v->n[2])
		return 0;
	return v->fill[i + (size_t)v->n[0] * (j + (size_t)v->n[1] * k)];
}

/* The brute-force volume: the filled elementary boxes, summed. */
static double vox_volume(const struct vox *v)
{
	double sum = 0;
	for (int k = 0; k < v->n[2]; k++)
		for (int j = 0; j < v->n[1]; j++)
			for (int i = 0; i < v->n[0]; i++)
				if (vox_at(v, i, j, k))
					sum += (v->cut[0][i + 1] - v->cut[0][i]) *
					       (v->cut[1][j + 1] - v->cut[1][j]) *
					       (v->cut[2][k + 1] - v->cut[2][k]);
	return sum;
}

/* Independent predictor: the surface of a union of grid boxes is a
 * manifold iff at every grid point the boundary of the filled octants,
 * drawn on the octahedron around the point (vertices: the 6 half-axes,
 * edges: 12 between perpendicular half-axes, each between the 2 octants
 * that share the quarter-plane), is empty or a single cycle with no
 * vertex of degree 4. */
static int vox_manifold(const struct vox *v)
{
	for (int z = 0; z <= v->n[2]; z++)
		for (int y = 0; y <= v->n[1]; y++)
			for (int x = 0; x <= v->n[0]; x++) {
				int oct[2][2][2];
				for (int k = 0; k < 8; k++)
					oct[k & 1][k >> 1 & 1][k >> 2] =
						vox_at(v, x - 1 + (k & 1), y - 1 + (k >> 1 & 1), z - 1 + (k >> 2));
				/* half-axis id: 2*axis + side; an octahedron edge between
				 * half-axes (a, s) and (b, t) is the quarter-plane
				 * spanned by them, bordered by the two octants with
				 * coords a = s, b = t and the third coordinate 0 / 1 */
				int deg[6] = {0}, adj[6][6] = {{0}}, nedges = 0;
				for (int a = 0; a < 3; a++)
					for (int b = a + 1; b < 3; b++)
						for (int s = 0; s < 2; s++)
							for (int t = 0; t < 2; t++) {
								int c = 3 - a - b, q[2];
								for (int u = 0; u < 2; u++) {
									int co[3];
									co[a] = s;
									co[b] = t;
									co[c] = u;
									q[u] = oct[co[0]][co[1]][co[2]];
								}
								if (q[0] != q[1]) {
									int i = 2 * a + s, j = 2 * b + t;
									deg[i]++;
									deg[j]++;
									adj[i][j] = adj[j][i] = 1;
									nedges++;
								}
							}
				if (nedges == 0)
					continue;
				int start = -1, nverts = 0;
				for (int i = 0; i < 6; i++) {
					if (deg[i] == 4)
						return 0;
					if (deg[i]) {
						nverts++;
						start = i;
					}
				}
				/* a single cycle: connected, and #edges == #vertices */
				int seen = 1 << start, grew = 1;
				while (grew) {
					grew = 0;
					for (int i = 0; i < 6; i++)
						if (seen >> i & 1)
							for (int j = 0; j < 6; j++)
								if (adj[i][j] && !(seen >> j & 1)) {
									seen |= 1 << j;
									grew = 1;
								}
				}
				int reached = 0;
				for (int i = 0; i < 6; i++)
					reached += seen >> i & 1;
				if (reached != nverts || nedges != nverts)
					return 0;
			}
	return 1;
}

/* Both predictions for one piece. */
static void predict(const struct piece *p, double unit, double clearance,
		    double *volume, int *manifold)
{
	struct vox v;
	vox_init(&v, p, unit, clearance);
	*volume = vox_volume(&v);
	*manifold = vox_manifold(&v);
	vox_clear(&v);
}

static int mesh_to_file(const struct mesh *m, const char *path)
{
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	int rc = mesh_write_stl(fp, m, "cubegen test_mesh");
	assert_int_equal(fclose(fp), 0);
	return rc;
}

/* Mesh, write, verify with the expected volume; also compare that volume
 * with the brute force, and the status with the manifold predictor.
 * Returns mesh_from_cells()'s status. */
static int check_piece(const struct piece *p, double unit, double clearance,
		       size_t *ntri)
{
	double bv;
	int manifold;
	predict(p, unit, clearance, &bv, &manifold);
	double ev = mesh_expected_volume(p->c, p->n[0], p->n[1], p->n[2], unit, clearance);
	assert_true(fabs(ev - bv) <= 1e-10 * bv);
	struct mesh *m = NULL;
	int rc = mesh_from_cells(p->c, p->n[0], p->n[1], p->n[2], unit, clearance, &m);
	if (rc == MESH_ENONMANIFOLD)
		assert_false(manifold);
	if (rc != MESH_OK)
		return rc;
	assert_true(manifold);
	const char *path = tmp_path("piece.stl");
	assert_int_equal(mesh_to_file(m, path), MESH_OK);
	struct mesh_report rep;
	int vr = mesh_verify_stl(path, ev, &rep);
	if (vr != MESH_OK)
		fail_msg("verify: %s (%s)", mesh_strerror(vr), rep.problem);
	assert_string_equal(rep.problem, "");
	assert_int_equal(rep.triangles, m->ntriangles);
	/* lies at the origin, on z = 0 */
	float lo[3] = {INFINITY, INFINITY, INFINITY};
	for (size_t i = 0; i < m->nvertices; i++)
		for (int a = 0; a < 3; a++)
			if (m->vertices[i][a] < lo[a])
				lo[a] = m->vertices[i][a];
	for (int a = 0; a < 3; a++)
		assert_true(lo[a] == 0.0f && !signbit(lo[a]));
	if (ntri)
		*ntri = m->ntriangles;
	mesh_free(m);
	unlink(path);
	return MESH_OK;
}

/* ---- meshes ---------------------------------------------------------------------- */

static void test_mesh_strerror_names_every_status(void **state)
{
	(void)state;
	for (int s = MESH_OK; s <= MESH_EBADMESH; s++) {
		assert_non_null(mesh_strerror(s));
		assert_null(strstr(mesh_strerror(s), "unknown"));
	}
	assert_non_null(strstr(mesh_strerror(999), "unknown"));
}

static void test_mesh_single_cell(void **state)
{
	(void)state;
	unsigned char one[1] = {1};
	struct mesh *m;
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 10, 0.2, &m), MESH_OK);
	assert_int_equal(m->ntriangles, 12);
	assert_int_equal(m->nvertices, 8);
	assert_int_equal(mesh_triangles(m), 12);
	for (size_t i = 0; i < m->nvertices; i++)
		for (int a = 0; a < 3; a++)
			assert_true(m->vertices[i][a] == 0.0f ||
				    m->vertices[i][a] == (float)(10 - 0.2));
	mesh_free(m);
	struct piece p = {{1, 1, 1}, {1}};
	assert_int_equal(check_piece(&p, 10, 0.2, NULL), MESH_OK);
	assert_int_equal(check_piece(&p, 10, 0, NULL), MESH_OK);
	assert_true(fabs(mesh_expected_volume(one, 1, 1, 1, 10, 0.2) - 9.8 * 9.8 * 9.8) < 1e-9);
	mesh_free(NULL);
}

/* Any full box of cells is one box: 12 triangles, coplanar faces merged. */
static void test_mesh_boxes_merge_to_12_triangles(void **state)
{
	(void)state;
	for (int nx = 1; nx <= 4; nx++)
		for (int ny = 1; ny <= 3; ny++)
			for (int nz = 1; nz <= 3; nz++) {
				struct piece p = {{nx, ny, nz}, {0}};
				memset(p.c, 1, (size_t)(nx * ny * nz));
				size_t t;
				assert_int_equal(check_piece(&p, 10, 0.2, &t), MESH_OK);
				assert_int_equal(t, 12);
				assert_int_equal(check_piece(&p, 7.5, 0, &t), MESH_OK);
				assert_int_equal(t, 12);
			}
}

/* Empty border planes of the cell array are ignored. */
static void test_mesh_ignores_empty_border(void **state)
{
	(void)state;
	struct piece p = {{3, 3, 3}, {0}};
	set(&p, 1, 1, 1);
	set(&p, 2, 1, 1);
	struct mesh *m;
	assert_int_equal(mesh_from_cells(p.c, 3, 3, 3, 10, 0.2, &m), MESH_OK);
	assert_int_equal(m->ntriangles, 12);
	float hi[3] = {0, 0, 0};
	for (size_t i = 0; i < m->nvertices; i++)
		for (int a = 0; a < 3; a++)
			if (m->vertices[i][a] > hi[a])
				hi[a] = m->vertices[i][a];
	assert_true(hi[0] == (float)(20 - 0.2));
	assert_true(hi[1] == (float)(10 - 0.2) && hi[2] == (float)(10 - 0.2));
	mesh_free(m);
	assert_int_equal(check_piece(&p, 10, 0.2, NULL), MESH_OK);
}

/* The status of mesh_write_scad() for a piece, written to /dev/null. */
static int scad_status(const struct piece *p, double unit, double clearance)
{
	FILE *fp = fopen("/dev/null", "w");
	assert_non_null(fp);
	int rc = mesh_write_scad(fp, p->c, p->n[0], p->n[1], p->n[2], unit, clearance, "r");
	assert_int_equal(fclose(fp), 0);
	return rc;
}

/* The concave corner of an L of cells A = (0,0), B = (1,0), C = (0,1):
 * A is glued on +x and +y, so its box keeps its full corner, an h x h
 * square that B (inset on +y) and C (inset on +x) do not reach. Each
 * flat face is the L's outline with that step, 8 corners. */
static void test_mesh_concave_corner_keeps_corner_square(void **state)
{
	(void)state;
	struct piece p = {{2, 2, 1}, {1, 1, 1, 0}};
	double u = 10, c = 0.2, h = c / 2;
	/* A: (u-h)^2; B, C: (u-h) x (u-c); all (u-c) high */
	double want = ((u - h) * (u - h) + 2 * (u - h) * (u - c)) * (u - c);
	assert_true(fabs(mesh_expected_volume(p.c, 2, 2, 1, u, c) - want) < 1e-9);
	struct mesh *m;
	assert_int_equal(mesh_from_cells(p.c, 2, 2, 1, u, c, &m), MESH_OK);
	/* shifted by -h: A's corner at (u-2h, u-2h) + (h, h) */
	const float outline[8][2] = {
		{0, 0}, {(float)(2 * u - c), 0}, {(float)(2 * u - c), (float)(u - c)},
		{(float)(u - h), (float)(u - c)}, {(float)(u - h), (float)(u - h)},
		{(float)(u - c), (float)(u - h)}, {(float)(u - c), (float)(2 * u - c)},
		{0, (float)(2 * u - c)}};
	/* every outline corner, top and bottom; nothing at (u-c, u-c),
	 * where the piece eroded by h would have its reflex corner (it is
	 * inside A's box). The cut from each reflex corner to the opposite
	 * side adds one vertex there: 2 per face. */
	int corners = 0;
	for (size_t i = 0; i < m->nvertices; i++) {
		const float *v = m->vertices[i];
		assert_true(v[2] == 0 || v[2] == (float)(u - c));
		assert_false(v[0] == (float)(u - c) && v[1] == (float)(u - c));
		for (int k = 0; k < 8; k++)
			corners += v[0] == outline[k][0] && v[1] == outline[k][1];
	}
	assert_int_equal(corners, 16);
	assert_int_equal(m->nvertices, 20);
	mesh_free(m);
	assert_int_equal(check_piece(&p, u, c, NULL), MESH_OK);
	assert_int_equal(check_piece(&p, u, 0, NULL), MESH_OK);
}

/* A full 2x2 layer with two diagonal cells on top. The two layer cells
 * under them are glued above, so their boxes reach the top of the layer,
 * while the other two stop h lower: in that last h the union of the boxes
 * would have the two meet only along the layer's central vertical edge,
 * shared by four faces. The corner there is notched (mesh.h): the piece
 * meshes with any clearance, 2 h^3 less than the boxes, and every writer
 * takes it; with none the two top cells touch along an edge and it is
 * refused. */
static char *slurp_text(const char *path); /* a static buffer */

static void test_mesh_diagonal_cells_on_layer_notched(void **state)
{
	(void)state;
	struct piece p = {{2, 2, 2}, {1, 1, 1, 1, 1, 0, 0, 1}};
	const unsigned char *cells[1] = {p.c};
	const int dims[1][3] = {{2, 2, 2}};
	static const double clears[3] = {0.2, 0.01, 4.9};
	for (int k = 0; k < 3; k++) {
		double c = clears[k], h = c / 2;
		struct mesh *m = NULL;
		assert_int_equal(check_piece(&p, 10, c, NULL), MESH_OK);
		/* the boxes: 4 layer cells of (10 - h)^2 (10 - h under a top
		 * cell, else 10 - 2h), 2 top cells of (10 - 2h)^2 (10 - h) */
		double boxes = 2 * (10 - h) * (10 - h) * (10 - c) +
			       2 * (10 - h) * (10 - h) * (10 - h) +
			       2 * (10 - c) * (10 - c) * (10 - h);
		double ev = mesh_expected_volume(p.c, 2, 2, 2, 10, c);
		assert_true(fabs(ev - (boxes - 2 * h * h * h)) <= 1e-9 * ev);
		assert_int_equal(mesh_plate(cells, dims, 1, 10, c, 5, &m), MESH_OK);
		mesh_free(m);
		assert_int_equal(scad_status(&p, 10, c), MESH_OK);
		FILE *fp = fopen("/dev/null", "w");
		assert_non_null(fp);
		assert_int_equal(mesh_write_scad_plate(fp, cells, dims, 1, 10, c, 5, "x"),
				 MESH_OK);
		assert_int_equal(fclose(fp), 0);
	}
	assert_int_equal(check_piece(&p, 10, 0, NULL), MESH_ENONMANIFOLD);
	/* the .scad names the corner and cuts it */
	const char *path = tmp_path("notched.scad");
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(mesh_write_scad(fp, p.c, 2, 2, 2, 10, 0.2, "x"), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	char *t = slurp_text(path);
	assert_non_null(strstr(t, "\npiece_notches = [[1, 1, 1]];\n"));
	assert_non_null(strstr(t, "\nmodule cubegen_notched(boxes, notches) {\n"));
	assert_non_null(strstr(t, "\ncubegen_notched(piece, piece_notches);\n"));
	unlink(path);
}

/* Every 6-connected piece of up to 2 x 2 x 3 cells meshes with a
 * clearance, to the voxel model's volume (notches included), and the
 * notch path is taken; with clearance 0 exactly those whose cells touch
 * only along an edge or at a corner are refused (the model's verdict,
 * checked inside check_piece()). */
static void test_mesh_every_small_polycube_meshes(void **state)
{
	(void)state;
	int connected = 0, notched = 0, refused0 = 0;
	for (unsigned mask = 1; mask < 1u << 12; mask++) {
		struct piece p = {{2, 2, 3}, {0}};
		for (int i = 0; i < 12; i++)
			p.c[i] = (unsigned char)(mask >> i & 1);
		int rc = check_piece(&p, 10, 0.4, NULL);
		if (rc == MESH_EDISCONNECTED)
			continue;
		assert_int_equal(rc, MESH_OK);
		assert_int_equal(check_piece(&p, 3, 1.4, NULL), MESH_OK);
		connected++;
		for (int z = 1; z < 3; z++) {
			unsigned cells8 = 0;
			for (int k = 0; k < 8; k++)
				if (at(&p, k & 1, k >> 1 & 1, z - 1 + (k >> 2)))
					cells8 |= 1u << k;
			notched += notchref(cells8);
		}
		int rc0 = check_piece(&p, 10, 0, NULL);
		assert_true(rc0 == MESH_OK || rc0 == MESH_ENONMANIFOLD);
		refused0 += rc0 != MESH_OK;
	}
	assert_true(connected > 1000 && notched >= 12 && refused0 > 10);
	print_message("2x2x3: %d connected pieces, %d notches, %d refused without "
		      "a clearance\n", connected, notched, refused0);
}

/* Every 4-connected set of cells of a 4 x 4 plate (clearance > 0) is a
 * manifold solid (the proof is in mesh.c, step 2); those of a 3 x 3
 * plate also pass the whole check, for both clearances. */
static void test_mesh_every_flat_plate_is_manifold(void **state)
{
	(void)state;
	int connected = 0;
	for (unsigned mask = 1; mask < 1u << 16; mask++) {
		unsigned char c[16];
		for (int i = 0; i < 16; i++)
			c[i] = (unsigned char)(mask >> i & 1);
		struct mesh *m = NULL;
		int rc = mesh_from_cells(c, 4, 4, 1, 10, 0.2, &m);
		if (rc == MESH_EDISCONNECTED)
			continue;
		assert_int_equal(rc, MESH_OK);
		mesh_free(m);
		connected++;
	}
	assert_true(connected > 5000);
	for (unsigned mask = 1; mask < 1u << 9; mask++) {
		struct piece p = {{3, 3, 1}, {0}};
		for (int i = 0; i < 9; i++)
			p.c[i] = (unsigned char)(mask >> i & 1);
		int rc = check_piece(&p, 10, 0.2, NULL);
		assert_true(rc == MESH_OK || rc == MESH_EDISCONNECTED);
		assert_int_equal(check_piece(&p, 3, 1.4, NULL), rc);
	}
}

/* Random 3D polycubes: with a clearance every one meshes; with none some
 * are refused. The .scad writer refuses exactly what the mesher refuses. */
static void test_mesh_random_polycubes_verify(void **state)
{
	(void)state;
	uint64_t s = 1;
	int refused = 0, meshed = 0, refused0 = 0, meshed0 = 0;
	static const double units[3] = {10, 7.5, 1};
	static const double clears[3] = {0.2, 0.5, 0.01};
	for (int i = 0; i < 400; i++) {
		struct piece p;
		random_polycube(&s, &p);
		int k = i % 3;
		int rc = check_piece(&p, units[k], clears[k], NULL);
		assert_int_equal(rc, MESH_OK);
		assert_int_equal(check_piece(&p, 10, 0.2, NULL), rc);
		assert_int_equal(scad_status(&p, units[k], clears[k]), rc);
		refused += rc != MESH_OK;
		meshed += rc == MESH_OK;
		int rc0 = check_piece(&p, units[k], 0, NULL);
		assert_true(rc0 == MESH_OK || rc0 == MESH_ENONMANIFOLD);
		assert_int_equal(scad_status(&p, units[k], 0), rc0);
		refused0 += rc0 != MESH_OK;
		meshed0 += rc0 == MESH_OK;
	}
	/* every branch was exercised */
	assert_true(refused == 0 && meshed == 400 && refused0 > 10 && meshed0 > 10);
	print_message("polycubes: %d of 400 refused without a clearance\n", refused0);
}

static void test_mesh_random_plates_verify(void **state)
{
	(void)state;
	uint64_t s = 2;
	for (int n = 3; n <= 20; n++)
		for (int k = 0; k < 4; k++) {
			struct piece p;
			random_plate(&s, n, k == 3 ? 90 : 50, &p);
			assert_int_equal(check_piece(&p, 10, 0.2, NULL), MESH_OK);
			assert_int_equal(check_piece(&p, 10, 0, NULL), MESH_OK);
			assert_int_equal(check_piece(&p, 3, 0.4, NULL), MESH_OK);
		}
}

/* The six plates of shell puzzles built by DESIGN.md's rules. */
static void test_mesh_shell_puzzles_verify(void **state)
{
	(void)state;
	for (int n = 3; n <= 20; n++) {
		struct puzzle pz;
		assert_int_equal(randpuz_shell(1000 + (uint64_t)n, n, &pz), 0);
		assert_int_equal(pz.npieces, 6);
		for (size_t i = 0; i < pz.npieces; i++) {
			const struct grid *g = &pz.pieces[i].shape;
			struct piece p = {{g->nx, g->ny, g->nz}, {0}};
			assert_true((size_t)(g->nx * g->ny * g->nz) <= sizeof p.c);
			memcpy(p.c, g->cells, (size_t)(g->nx * g->ny * g->nz));
			assert_int_equal(check_piece(&p, 10, 0.2, NULL), MESH_OK);
			assert_int_equal(check_piece(&p, 10, 0, NULL), MESH_OK);
		}
		puz_clear(&pz);
	}
}

/* The triangle count follows the outline: N=40 plates have fewer than
 * 2.5 times the triangles of N=20 ones (in total over 10 random plates of
 * each border density, since two unrelated random borders differ; and
 * for the worst border, every other edge cell), and far fewer than 12
 * per cell (a quarter: each concave corner of the outline is a step of
 * three corners, the corner cell's square, and splits the faces around
 * it; 768 triangles at most here). */
static void test_mesh_plate_triangles_grow_with_outline(void **state)
{
	(void)state;
	for (int density = 10; density <= 90; density += 40) {
		uint64_t s = 3;
		double sum20 = 0, sum40 = 0;
		for (int k = 0; k < 10; k++) {
			struct piece p20, p40;
			random_plate(&s, 20, density, &p20);
			random_plate(&s, 40, density, &p40);
			size_t t20, t40;
			assert_int_equal(check_piece(&p20, 10, 0.2, &t20), MESH_OK);
			assert_int_equal(check_piece(&p40, 10, 0.2, &t40), MESH_OK);
			/* vs 12 per cell (at least 18 * 18 cells) */
			assert_true(t20 < 12 * 18 * 18 / 4);
			sum20 += (double)t20;
			sum40 += (double)t40;
		}
		assert_true(sum40 < 2.5 * sum20);
	}
	/* the worst border: every other edge cell */
	struct piece a = {{20, 20, 1}, {0}}, b = {{40, 40, 1}, {0}};
	for (int y = 0; y < 40; y++)
		for (int x = 0; x < 40; x++) {
			int edge = x == 0 || y == 0 || x == 39 || y == 39;
			int corner = (x == 0 || x == 39) && (y == 0 || y == 39);
			if (!corner && (!edge || (x + y) % 2))
				set(&b, x, y, 0);
			int e20 = x < 20 && y < 20 && (x == 0 || y == 0 || x == 19 || y == 19);
			int c20 = (x == 0 || x == 19) && (y == 0 || y == 19);
			if (x < 20 && y < 20 && !c20 && (!e20 || (x + y) % 2))
				set(&a, x, y, 0);
		}
	size_t ta, tb;
	assert_int_equal(check_piece(&a, 10, 0.2, &ta), MESH_OK);
	assert_int_equal(check_piece(&b, 10, 0.2, &tb), MESH_OK);
	assert_true(tb < 2.5 * ta);
}

static void test_mesh_bad_arguments(void **state)
{
	(void)state;
	unsigned char one[2] = {1, 0}, two[3] = {1, 0, 1}, none[2] = {0, 0};
	unsigned char pair[2] = {1, 1};
	struct mesh dummy, *m = &dummy; /* must stay untouched */
	struct mesh *const keep = m;
	assert_int_equal(mesh_from_cells(two, 3, 1, 1, 10, 0.2, &m), MESH_EDISCONNECTED);
	assert_int_equal(mesh_from_cells(none, 2, 1, 1, 10, 0.2, &m), MESH_EDISCONNECTED);
	assert_int_equal(mesh_from_cells(one, 0, 1, 1, 10, 0.2, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, -1, 1, 10, 0.2, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 0, 0, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, -1, 0, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, NAN, 0, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, INFINITY, 0, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 10, 5, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 10, -0.1, &m), MESH_EINVAL);
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 10, NAN, &m), MESH_EINVAL);
	/* the clearance vanishes next to the unit in float32 */
	assert_int_equal(mesh_from_cells(pair, 2, 1, 1, 1e6, 1e-6, &m), MESH_ERANGE);
	assert_ptr_equal(m, keep);
	assert_true(mesh_expected_volume(one, 1, 1, 1, 10, 5) < 0);
	assert_true(mesh_expected_volume(one, 0, 1, 1, 10, 0.2) < 0);
	assert_true(mesh_expected_volume(none, 2, 1, 1, 10, 0.2) < 0);
	/* not connected still has a volume */
	assert_true(fabs(mesh_expected_volume(two, 3, 1, 1, 10, 0) - 2000) < 1e-9);

	const unsigned char *cells[2] = {one, two};
	const int dims[2][3] = {{1, 1, 1}, {3, 1, 1}};
	assert_int_equal(mesh_plate(cells, dims, 0, 10, 0.2, 5, &m), MESH_EINVAL);
	assert_int_equal(mesh_plate(cells, dims, 1, 10, 0.2, 0, &m), MESH_EINVAL);
	assert_int_equal(mesh_plate(cells, dims, 1, 10, 0.2, NAN, &m), MESH_EINVAL);
	assert_int_equal(mesh_plate(cells, dims, 2, 10, 0.2, 5, &m), MESH_EDISCONNECTED);
	/* a gap float32 cannot see */
	assert_int_equal(mesh_plate(cells, dims, 1, 10, 0.2, 5, &m), MESH_OK);
	mesh_free(m);
	const unsigned char *c2[2] = {one, one};
	const int d2[2][3] = {{1, 1, 1}, {1, 1, 1}};
	assert_int_equal(mesh_plate(c2, d2, 2, 1e5, 0, 1e-6, &m), MESH_ERANGE);
	FILE *fp = fopen(tmp_path("x.scad"), "w");
	assert_non_null(fp);
	assert_int_equal(mesh_write_scad(fp, two, 3, 1, 1, 10, 0.2, "x"), MESH_EDISCONNECTED);
	/* cells touching along an edge: a manifold only with a clearance
	 * (notched, test_mesh_diagonal_cells_on_layer_notched()) */
	unsigned char diag[8] = {1, 1, 1, 1, 1, 0, 0, 1};
	const unsigned char *dc[1] = {diag};
	const int dd[1][3] = {{2, 2, 2}};
	assert_int_equal(mesh_write_scad(fp, diag, 2, 2, 2, 10, 0, "x"), MESH_ENONMANIFOLD);
	assert_int_equal(mesh_write_scad_plate(fp, dc, dd, 1, 10, 0, 5, "x"), MESH_ENONMANIFOLD);
	assert_int_equal(mesh_from_cells(diag, 2, 2, 2, 10, 0, &m), MESH_ENONMANIFOLD);
	assert_int_equal(mesh_plate(dc, dd, 1, 10, 0, 5, &m), MESH_ENONMANIFOLD);
	assert_int_equal(mesh_write_scad(fp, diag, 2, 2, 2, 10, 0.2, "x"), MESH_OK);
	assert_int_equal(mesh_write_scad(fp, one, 1, 1, 1, 10, 6, "x"), MESH_EINVAL);
	assert_int_equal(mesh_write_scad_plate(fp, cells, dims, 1, 10, 0.2, -1, "x"), MESH_EINVAL);
	assert_int_equal(mesh_write_scad_plate(fp, cells, dims, 0, 10, 0.2, 5, "x"), MESH_EINVAL);
	assert_int_equal(fclose(fp), 0);
	unlink(tmp_path("x.scad"));
}

/* ---- build plates -------------------------------------------------------------- */

static void plate_of(uint64_t seed, int n, struct piece p[6],
		     const unsigned char *cells[6], int dims[6][3])
{
	uint64_t s = seed;
	for (int i = 0; i < 6; i++) {
		random_plate(&s, n, 50, &p[i]);
		cells[i] = p[i].c;
		memcpy(dims[i], p[i].n, sizeof dims[i]);
	}
}

static void test_mesh_plate_verify_and_fits_bed(void **state)
{
	(void)state;
	static const int sizes[3] = {3, 5, 20};
	for (int si = 0; si < 3; si++) {
		int n = sizes[si];
		struct piece p[6];
		const unsigned char *cells[6];
		int dims[6][3];
		plate_of(40 + (uint64_t)n, n, p, cells, dims);
		for (int ci = 0; ci < 2; ci++) {
			double c = ci ? 0.2 : 0, ev = 0;
			struct mesh *m;
			assert_int_equal(mesh_plate(cells, (const int (*)[3])dims, 6, 10, c, 5, &m),
					 MESH_OK);
			size_t tsum = 0;
			for (int i = 0; i < 6; i++) {
				ev += mesh_expected_volume(cells[i], n, n, 1, 10, c);
				struct mesh *one;
				assert_int_equal(mesh_from_cells(cells[i], n, n, 1, 10, c, &one), MESH_OK);
				tsum += one->ntriangles;
				mesh_free(one);
			}
			assert_int_equal(m->ntriangles, tsum);
			float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {0, 0, 0};
			for (size_t i = 0; i < m->nvertices; i++)
				for (int a = 0; a < 3; a++) {
					if (m->vertices[i][a] < lo[a])
						lo[a] = m->vertices[i][a];
					if (m->vertices[i][a] > hi[a])
						hi[a] = m->vertices[i][a];
				}
			assert_true(lo[0] == 0 && lo[1] == 0 && lo[2] == 0);
			/* 3 columns x 2 rows of n cells, 5 mm apart */
			assert_true(hi[0] <= (float)(3 * n * 10 - c + 10) && hi[2] == (float)(10 - c));
			assert_true(hi[1] <= (float)(2 * n * 10 - c + 5));
			if (n == 5)
				assert_true(hi[0] <= 200 && hi[1] <= 200);
			const char *path = tmp_path("plate.stl");
			assert_int_equal(mesh_to_file(m, path), MESH_OK);
			struct mesh_report rep;
			int rc = mesh_verify_stl(path, ev, &rep);
			if (rc != MESH_OK)
				fail_msg("plate n=%d: %s", n, rep.problem);
			mesh_free(m);
			unlink(path);
		}
	}
}

/* The layout: ceil(sqrt(count)) columns, widest piece sets a column. */
static void test_mesh_plate_layout(void **state)
{
	(void)state;
	struct mesh_piece pc[7] = {{0}};
	for (int i = 0; i < 7; i++) {
		pc[i].n[0] = 1 + i;
		pc[i].n[1] = 7 - i;
		pc[i].n[2] = 1;
	}
	struct mesh_place pl[7];
	mesh_plate_layout(pc, 7, pl);
	/* 3 columns: widths max(1,4,7)=7, max(2,5)=5, max(3,6)=6 */
	static const int col[7] = {0, 1, 2, 0, 1, 2, 0}, row[7] = {0, 0, 0, 1, 1, 1, 2};
	static const long sx[7] = {0, 7, 12, 0, 7, 12, 0}, sy[7] = {0, 0, 0, 7, 7, 7, 11};
	for (int i = 0; i < 7; i++) {
		assert_int_equal(pl[i].col, col[i]);
		assert_int_equal(pl[i].row, row[i]);
		assert_int_equal(pl[i].sx, sx[i]);
		assert_int_equal(pl[i].sy, sy[i]);
	}
	mesh_plate_layout(pc, 1, pl);
	assert_int_equal(pl[0].col, 0);
	assert_int_equal(pl[0].sx, 0);
}

/* ---- STL bytes -------------------------------------------------------------------- */

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3u;
	}
	return h;
}

static size_t read_all(const char *path, unsigned char *buf, size_t cap)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	size_t n = fread(buf, 1, cap, fp);
	assert_int_equal(ferror(fp), 0);
	assert_int_equal(fclose(fp), 0);
	return n;
}

static const unsigned char golden_plate[25] = {
	0, 1, 1, 0, 1,
	1, 1, 1, 1, 1,
	0, 1, 1, 1, 0,
	1, 1, 1, 1, 1,
	1, 1, 0, 1, 0,
};

/* The bytes of one piece's STL. When the geometry changes on purpose,
 * check the new file by hand before updating the hash: `cubegen verify`
 * (exact checks and libadmesh), PrusaSlicer's --info (manifold, no
 * repairs), its volume against a separate brute force and against
 * OpenSCAD's render of the piece's .scad. Last done for the box union
 * of DESIGN.md §3: 188 triangles, 18346.972 mm^3. */
static void test_mesh_golden_stl_bytes(void **state)
{
	(void)state;
	struct mesh *m;
	assert_int_equal(mesh_from_cells(golden_plate, 5, 5, 1, 10, 0.2, &m), MESH_OK);
	const char *path = tmp_path("golden.stl");
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(mesh_write_stl(fp, m, "cubegen golden piece"), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	static unsigned char buf[1 << 16];
	size_t n = read_all(path, buf, sizeof buf);
	assert_int_equal(n, 84 + 50 * m->ntriangles);
	/* header, count, attribute bytes */
	assert_memory_equal(buf, "cubegen golden piece ", 21);
	assert_int_equal(buf[79], ' ');
	assert_int_equal(buf[80] | buf[81] << 8 | buf[82] << 16 | (uint32_t)buf[83] << 24,
			 m->ntriangles);
	for (size_t i = 0; i < m->ntriangles; i++)
		assert_true(buf[84 + 50 * i + 48] == 0 && buf[84 + 50 * i + 49] == 0);
	/* the first vertex of the first facet, decoded by hand */
	uint32_t bits = buf[96] | buf[97] << 8 | buf[98] << 16 | (uint32_t)buf[99] << 24;
	float x;
	memcpy(&x, &bits, 4);
	assert_true(x == m->vertices[m->triangles[0][0]][0]);
	if (fnv1a(buf, n) != 0xf40a52a03ed2e591ULL)
		print_message("golden: %zu triangles, fnv1a %016llx\n", m->ntriangles,
			      (unsigned long long)fnv1a(buf, n));
	assert_int_equal(m->ntriangles, 188);
	assert_true(fnv1a(buf, n) == 0xf40a52a03ed2e591ULL);
	struct mesh_report rep;
	assert_int_equal(mesh_verify_stl(path, mesh_expected_volume(golden_plate, 5, 5, 1, 10, 0.2), &rep),
			 MESH_OK);
	mesh_free(m);
	unlink(path);
}

static void header_case(const char *text, const char *want)
{
	unsigned char one[1] = {1};
	struct mesh *m;
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 10, 0.2, &m), MESH_OK);
	const char *path = tmp_path("head.stl");
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(mesh_write_stl(fp, m, text), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	unsigned char buf[2048];
	size_t n = read_all(path, buf, sizeof buf);
	assert_int_equal(n, 84 + 12 * 50);
	char head[81];
	memcpy(head, buf, 80);
	head[80] = 0;
	assert_memory_equal(head, want, strlen(want));
	for (size_t i = strlen(want); i < 80; i++)
		assert_int_equal(head[i], ' ');
	assert_true(strncmp(head, "solid", 5) != 0);
	struct mesh_report rep;
	assert_int_equal(mesh_verify_stl(path, -1, &rep), MESH_OK);
	mesh_free(m);
	unlink(path);
}

static void test_mesh_stl_header_never_solid(void **state)
{
	(void)state;
	header_case("solid cube", "STL solid cube");
	header_case("  SOLID cube", "STL   SOLID cube");
	header_case("Solid", "STL Solid");
	header_case("sol", "sol");
	header_case(NULL, "");
	header_case("", "");
	header_case("tab\there\nnewline", "tab?here?newline");
	char longer[200];
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = 0;
	char want[81];
	memset(want, 'a', 80);
	want[80] = 0;
	header_case(longer, want);
	char sl[120] = "solid ";
	memset(sl + 6, 'b', 100);
	sl[106] = 0;
	char w2[81] = "STL solid ";
	memset(w2 + 10, 'b', 70);
	w2[80] = 0;
	header_case(sl, w2);
}

static void test_mesh_write_dev_full_is_eio(void **state)
{
	(void)state;
	unsigned char one[1] = {1};
	struct mesh *m;
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 10, 0.2, &m), MESH_OK);
	for (int buffered = 0; buffered < 2; buffered++) {
		FILE *fp = fopen("/dev/full", "wb");
		assert_non_null(fp);
		if (!buffered)
			assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
		assert_int_equal(mesh_write_stl(fp, m, "x"), MESH_EIO);
		fclose(fp); /* fails too; nothing to check */
		fp = fopen("/dev/full", "w");
		assert_non_null(fp);
		if (!buffered)
			assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
		assert_int_equal(mesh_write_scad(fp, one, 1, 1, 1, 10, 0.2, "x"), MESH_EIO);
		fclose(fp);
		fp = fopen("/dev/full", "w");
		assert_non_null(fp);
		const unsigned char *cells[1] = {one};
		const int dims[1][3] = {{1, 1, 1}};
		assert_int_equal(mesh_write_scad_plate(fp, cells, dims, 1, 10, 0.2, 5, "x"),
				 MESH_EIO);
		fclose(fp);
	}
	mesh_free(m);
}

/* ---- the checker on hand-made files -------------------------------------------------- */

struct soup {
	size_t n;
	float f[64][12]; /* normal, 3 vertices */
};

static void add_tri(struct soup *s, const float a[3], const float b[3], const float c[3])
{
	assert_true(s->n < 64);
	float *f = s->f[s->n++];
	double u[3], v[3];
	for (int k = 0; k < 3; k++) {
		u[k] = (double)b[k] - a[k];
		v[k] = (double)c[k] - a[k];
		f[3 + k] = a[k];
		f[6 + k] = b[k];
		f[9 + k] = c[k];
	}
	double w[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
		       u[0] * v[1] - u[1] * v[0]};
	double l = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
	for (int k = 0; k < 3; k++)
		f[k] = l > 0 ? (float)(w[k] / l) + 0.0f : 0.0f;
}

/* An axis-aligned box, outward, two triangles per face. */
static void add_box(struct soup *s, float x0, float y0, float z0, float x1,
		    float y1, float z1)
{
	float c[8][3];
	for (int i = 0; i < 8; i++) {
		c[i][0] = i & 1 ? x1 : x0;
		c[i][1] = i & 2 ? y1 : y0;
		c[i][2] = i & 4 ? z1 : z0;
	}
	static const int face[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
				       {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
	for (int k = 0; k < 6; k++) {
		add_tri(s, c[face[k][0]], c[face[k][1]], c[face[k][2]]);
		add_tri(s, c[face[k][0]], c[face[k][2]], c[face[k][3]]);
	}
}

/* An outward tetrahedron. */
static void add_tet(struct soup *s, const float a[3], const float b[3],
		    const float c[3], const float d[3])
{
	add_tri(s, a, c, b);
	add_tri(s, a, b, d);
	add_tri(s, a, d, c);
	add_tri(s, b, c, d);
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Write the soup as binary STL (dropping 'cut' bytes from the end). */
static const char *soup_file(const struct soup *s, const char *header, size_t cut)
{
	static unsigned char buf[84 + 64 * 50];
	memset(buf, ' ', 80);
	memcpy(buf, header, strlen(header));
	put32(buf + 80, (uint32_t)s->n);
	for (size_t i = 0; i < s->n; i++) {
		for (int k = 0; k < 12; k++) {
			uint32_t v;
			memcpy(&v, &s->f[i][k], 4);
			put32(buf + 84 + 50 * i + 4 * (size_t)k, v);
		}
		buf[84 + 50 * i + 48] = buf[84 + 50 * i + 49] = 0;
	}
	const char *path = tmp_path("soup.stl");
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	size_t len = 84 + 50 * s->n - cut;
	assert_int_equal(fwrite(buf, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return path;
}

/* Verify must fail with 'status' and a problem mentioning 'word'. */
static void expect_bad(const char *path, double expected, int status, const char *word)
{
	struct mesh_report rep;
	int rc = mesh_verify_stl(path, expected, &rep);
	if (rc != status || !strstr(rep.problem, word))
		fail_msg("want %d with \"%s\", got %d: \"%s\"", status, word, rc, rep.problem);
}

static void test_mesh_verify_good_box(void **state)
{
	(void)state;
	struct soup s = {0};
	add_box(&s, 0, 0, 0, 1, 2, 3);
	struct mesh_report rep;
	assert_int_equal(mesh_verify_stl(soup_file(&s, "box", 0), 6, &rep), MESH_OK);
	assert_int_equal(rep.triangles, 12);
	assert_true(fabs(rep.volume - 6) < 1e-12);
	/* no volume to compare */
	assert_int_equal(mesh_verify_stl(soup_file(&s, "box", 0), -1, &rep), MESH_OK);
	/* a box far from the origin, admesh's float sums included */
	s.n = 0;
	add_box(&s, 1000.5f, 2000.25f, 3.0f, 1010.75f, 2000.5f, 250.0f);
	double v = 10.25 * 0.25 * 247;
	assert_int_equal(mesh_verify_stl(soup_file(&s, "far", 0), v, &rep), MESH_OK);
}

static void test_mesh_verify_edge_of_four_triangles(void **state)
{
	(void)state;
	struct soup s = {0};
	const float o[3] = {0, 0, 0}, x[3] = {1, 0, 0}, y[3] = {0, 1, 0}, z[3] = {0, 0, 1};
	const float mx[3] = {-1, 0, 0}, my[3] = {0, -1, 0};
	add_tet(&s, o, x, y, z);
	add_tet(&s, o, mx, my, z);
	expect_bad(soup_file(&s, "two tets", 0), 1.0 / 3, MESH_EBADMESH, "shared by 4 triangles");
}

static void test_mesh_verify_cubes_touching_at_edge(void **state)
{
	(void)state;
	struct soup s = {0};
	add_box(&s, 0, 0, 0, 1, 1, 1);
	add_box(&s, 1, 1, 0, 2, 2, 1);
	expect_bad(soup_file(&s, "edge", 0), 2, MESH_EBADMESH, "shared by 4 triangles");
}

static void test_mesh_verify_cubes_touching_at_corner(void **state)
{
	(void)state;
	struct soup s = {0};
	add_box(&s, 0, 0, 0, 1, 1, 1);
	add_box(&s, 1, 1, 1, 2, 2, 2);
	expect_bad(soup_file(&s, "corner", 0), 2, MESH_EBADMESH, "2 separate fans");
}

static void test_mesh_verify_t_junction(void **state)
{
	(void)state;
	/* a 2x1x1 bar whose y = 0 side is two squares while the bottom and
	 * top are single rectangles: (1,0,0) and (1,0,1) sit inside edges */
	struct soup s = {0};
	float c[12][3];
	for (int i = 0; i < 12; i++) {
		c[i][0] = (float)(i % 3);
		c[i][1] = (float)(i / 3 % 2);
		c[i][2] = (float)(i / 6);
	}
	/* index = x + 3*y + 6*z */
#define Q(a, b, cc, d)                        \
	do {                                  \
		add_tri(&s, c[a], c[b], c[cc]); \
		add_tri(&s, c[a], c[cc], c[d]); \
	} while (0)
	Q(0, 1, 7, 6);   /* y = 0, x in [0,1] */
	Q(1, 2, 8, 7);   /* y = 0, x in [1,2] */
	Q(3, 9, 11, 5);  /* y = 1 */
	Q(0, 3, 5, 2);   /* z = 0 */
	Q(6, 8, 11, 9);  /* z = 1 */
	Q(0, 6, 9, 3);   /* x = 0 */
	Q(2, 5, 11, 8);  /* x = 2 */
#undef Q
	expect_bad(soup_file(&s, "tj", 0), 2, MESH_EBADMESH, "T-junction");
}

static void test_mesh_verify_bad_values(void **state)
{
	(void)state;
	struct soup s = {0};
	add_box(&s, 0, 0, 0, 1, 1, 1);
	s.f[3][7] = NAN;
	expect_bad(soup_file(&s, "nan", 0), 1, MESH_EBADMESH, "NaN");
	s.n = 0;
	add_box(&s, 0, 0, 0, 1, 1, 1);
	s.f[5][1] = NAN;
	expect_bad(soup_file(&s, "nan normal", 0), 1, MESH_EBADMESH, "NaN in its normal");
	s.n = 0;
	add_box(&s, 0, 0, 0, 1, 1, 1);
	s.f[0][11] = INFINITY;
	expect_bad(soup_file(&s, "inf", 0), 1, MESH_EBADMESH, "infinity");
	s.n = 0;
	add_box(&s, 0, 0, 0, 1, 1, 1);
	for (int k = 3; k < 12; k++)
		if (s.f[4][k] == 0) {
			s.f[4][k] = -0.0f;
			break;
		}
	expect_bad(soup_file(&s, "negzero", 0), 1, MESH_EBADMESH, "-0.0");
}

/* Reverse triangle i's vertex order, and its normal with it. */
static void flip(struct soup *s, size_t i)
{
	float a[3], b[3], c[3];
	memcpy(a, &s->f[i][3], sizeof a);
	memcpy(b, &s->f[i][6], sizeof b);
	memcpy(c, &s->f[i][9], sizeof c);
	size_t n = s->n;
	s->n = i;
	add_tri(s, a, c, b);
	s->n = n;
}

static void test_mesh_verify_orientation(void **state)
{
	(void)state;
	struct soup s = {0};
	add_box(&s, 0, 0, 0, 1, 1, 1);
	/* one triangle flipped, its normal recomputed to match */
	struct soup t = s;
	flip(&t, 7);
	expect_bad(soup_file(&t, "flip", 0), 1, MESH_EBADMESH, "same direction");
	/* all flipped: inside out */
	struct soup u = s;
	for (size_t i = 0; i < u.n; i++)
		flip(&u, i);
	expect_bad(soup_file(&u, "inside out", 0), 1, MESH_EBADMESH, "inside out");
	/* a stored normal against the vertex order */
	t = s;
	for (int k = 0; k < 3; k++)
		t.f[2][k] = -t.f[2][k] + 0.0f;
	expect_bad(soup_file(&t, "normal", 0), 1, MESH_EBADMESH, "stored normal");
	/* zero area: a triangle whose third vertex is on its first edge */
	t = s;
	for (int k = 0; k < 3; k++)
		t.f[9][9 + k] = (t.f[9][3 + k] + t.f[9][6 + k]) / 2;
	expect_bad(soup_file(&t, "flat", 0), 1, MESH_EBADMESH, "zero area");
	t = s;
	memcpy(&t.f[9][9], &t.f[9][3], 3 * sizeof(float));
	expect_bad(soup_file(&t, "flat2", 0), 1, MESH_EBADMESH, "same point");
}

static void test_mesh_verify_file_shape(void **state)
{
	(void)state;
	struct soup s = {0};
	add_box(&s, 0, 0, 0, 1, 1, 1);
	expect_bad(soup_file(&s, "trunc", 10), 1, MESH_EBADMESH, "truncated");
	expect_bad(soup_file(&s, "box", 0), 1.01, MESH_EBADMESH, "expected");
	expect_bad(soup_file(&s, "box", 0), 0.99, MESH_EBADMESH, "volume");
	expect_bad(soup_file(&s, "solid but binary", 0), 1, MESH_EBADMESH, "\"solid\"");
	/* a hole: one triangle missing */
	s.n = 11;
	expect_bad(soup_file(&s, "hole", 0), 1, MESH_EBADMESH, "open edge");
	s.n = 3;
	expect_bad(soup_file(&s, "few", 0), 1, MESH_EBADMESH, "too few");
	const char *path = tmp_path("empty.stl");
	FILE *fp = fopen(path, "wb");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	expect_bad(path, 1, MESH_EBADMESH, "too short");
	expect_bad(tmp_path("no such file.stl"), 1, MESH_EIO, "cannot open");
	expect_bad(tmpdir, 1, MESH_EIO, "cannot read");
}

static const char *text_file(const char *text)
{
	const char *path = tmp_path("ascii.stl");
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_true(fputs(text, fp) >= 0);
	assert_int_equal(fclose(fp), 0);
	return path;
}

static void test_mesh_verify_ascii(void **state)
{
	(void)state;
	struct soup s = {0};
	add_box(&s, 0, 0, 0, 2, 1, 1);
	char text[8192];
	size_t n = (size_t)snprintf(text, sizeof text, "solid box made by hand\n");
	for (size_t i = 0; i < s.n; i++) {
		const float *f = s.f[i];
		n += (size_t)snprintf(text + n, sizeof text - n,
				      " facet normal %g %g %g\n  outer loop\n"
				      "   vertex %g %g %g\n   vertex %g %g %g\n"
				      "   vertex %g %g %g\n  endloop\n endfacet\n",
				      f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8],
				      f[9], f[10], f[11]);
	}
	snprintf(text + n, sizeof text - n, "endsolid box made by hand\n");
	struct mesh_report rep;
	assert_int_equal(mesh_verify_stl(text_file(text), 2, &rep), MESH_OK);
	assert_int_equal(rep.triangles, 12);
	char *v = strstr(text, "vertex");
	v[1] = 'X';
	expect_bad(text_file(text), 2, MESH_EBADMESH, "syntax error on line 4");
	v[1] = 'e';
	char *e = strstr(text, "endsolid");
	strcpy(e, "endsolid\ntrailing junk\n");
	expect_bad(text_file(text), 2, MESH_EBADMESH, "syntax error");
	expect_bad(text_file("solid x\n facet normal 0 0 1\n outer loop\n vertex 0 0"),
		   2, MESH_EBADMESH, "syntax");
	expect_bad(text_file("solid x\nendsolid x\n"), 2, MESH_EBADMESH, "too few");
}

/* ---- OpenSCAD ------------------------------------------------------------------------- */

/* The cover's boxes lie in the piece, and the union of their inset boxes,
 * placed by the .scad file's formula (a side at k*unit - t*clearance/2,
 * t = 1 - inset low, 1 + inset high), less the notches' cubes (the file's
 * cubegen_notched()), is exactly the solid: compared on
 * every elementary box of the brute force (its cut planes hold every
 * side of either). Returns the number of boxes. */
static size_t check_cover(const struct piece *p, double unit, double clearance)
{
	struct mesh_piece mp;
	assert_int_equal(mesh_piece_init(&mp, p->c, p->n[0], p->n[1], p->n[2], unit,
					 clearance), MESH_OK);
	struct mesh_box *b;
	size_t nb;
	assert_int_equal(mesh_cover_boxes(&mp, &b, &nb), MESH_OK);
	double h = clearance / 2, (*lo)[3] = malloc(nb * sizeof *lo), (*hi)[3] = malloc(nb * sizeof *hi);
	assert_true(lo && hi);
	for (size_t i = 0; i < nb; i++) {
		for (int z = 0; z < b[i].n[2]; z++)
			for (int y = 0; y < b[i].n[1]; y++)
				for (int x = 0; x < b[i].n[0]; x++)
					assert_true(mesh_piece_cell(&mp, b[i].lo[0] + x, b[i].lo[1] + y,
								    b[i].lo[2] + z));
		for (int a = 0; a < 3; a++) {
			int k0 = mp.lo[a] + b[i].lo[a], k1 = k0 + b[i].n[a];
			assert_true(b[i].inset[a][0] == 0 || b[i].inset[a][0] == 1);
			assert_true(b[i].inset[a][1] == 0 || b[i].inset[a][1] == 1);
			/* the file's sides, shifted back by +h to the definition's */
			lo[i][a] = k0 * unit - (1 - b[i].inset[a][0]) * h + h;
			hi[i][a] = k1 * unit - (1 + b[i].inset[a][1]) * h + h;
		}
	}
	struct vox v;
	vox_init(&v, p, unit, clearance);
	for (int k = 0; k < v.n[2]; k++)
		for (int j = 0; j < v.n[1]; j++)
			for (int i = 0; i < v.n[0]; i++) {
				double m[3] = {(v.cut[0][i] + v.cut[0][i + 1]) / 2,
					       (v.cut[1][j] + v.cut[1][j + 1]) / 2,
					       (v.cut[2][k] + v.cut[2][k + 1]) / 2};
				int cov = 0;
				for (size_t q = 0; q < nb && !cov; q++)
					cov = lo[q][0] < m[0] && m[0] < hi[q][0] && lo[q][1] < m[1] &&
					      m[1] < hi[q][1] && lo[q][2] < m[2] && m[2] < hi[q][2];
				if (h > 0 && in_notch(p, unit, h, m))
					cov = 0;
				assert_int_equal(cov, vox_at(&v, i, j, k));
			}
	vox_clear(&v);
	free(lo);
	free(hi);
	free(b);
	return nb;
}

static void test_mesh_scad_cover_is_exact(void **state)
{
	(void)state;
	uint64_t s = 5;
	for (int i = 0; i < 300; i++) {
		struct piece p;
		random_polycube(&s, &p);
		check_cover(&p, 10, 0.2);
		check_cover(&p, 7, 3);
		check_cover(&p, 10, 0);
	}
	for (int n = 3; n <= 12; n++) {
		struct piece p;
		random_plate(&s, n, 50, &p);
		check_cover(&p, 10, 0.2);
	}
	/* few boxes for a plate: 5 x 5 ones need 8 on average here, 13 at
	 * most (an exhaustive search over the 60 pieces of ten generated N = 5
	 * puzzles found 7.6 on average where this greedy cover takes 7.8) */
	size_t most = 0, sum = 0;
	for (int i = 0; i < 60; i++) {
		struct piece p;
		random_plate(&s, 5, 50, &p);
		size_t nb = check_cover(&p, 10, 0.2);
		sum += nb;
		most = nb > most ? nb : most;
	}
	assert_true(most <= 13 && sum <= 9 * 60);
}

/* A cell whose neighbours are glued on two sides keeps its corner
 * square: an L of three cells needs more than one box, and two cells
 * glued side by side need one. */
static void test_mesh_scad_cover_small_cases(void **state)
{
	(void)state;
	struct piece two = {{2, 1, 1}, {1, 1}};
	assert_int_equal(check_cover(&two, 10, 0.2), 1);
	struct piece ell = {{2, 2, 1}, {1, 1, 1, 0}};
	assert_int_equal(check_cover(&ell, 10, 0.2), 3);
	struct piece full = {{3, 3, 3}, {0}};
	memset(full.c, 1, 27);
	assert_int_equal(check_cover(&full, 10, 0.2), 1);
}

static char *slurp_text(const char *path)
{
	static char buf[1 << 16];
	size_t n = read_all(path, (unsigned char *)buf, sizeof buf - 1);
	buf[n] = 0;
	return buf;
}

static void test_mesh_scad_text(void **state)
{
	(void)state;
	const char *path = tmp_path("piece.scad");
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(mesh_write_scad(fp, golden_plate, 5, 5, 1, 10, 0.2,
					 "piece 1\nof */ puzzle"), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	char *t = slurp_text(path);
	assert_true(strncmp(t, "// piece 1?of */ puzzle\n", 24) == 0);
	assert_non_null(strstr(t, "\n/* [Size] */\n// Edge of one cell, in mm\nunit = 10; // [2:0.5:50]\n"));
	assert_non_null(strstr(t, "\nclearance = 0.2; // [0:0.05:2]\n"));
	assert_non_null(strstr(t, "\n/* [Hidden] */\n"));
	assert_non_null(strstr(t, "module cubegen_piece(boxes)"));
	/* every side by one expression, the same as mesh.c's grid lines */
	assert_non_null(strstr(t, "\nfunction cubegen_at(k, t) = k * unit - t * (clearance / 2);\n"));
	assert_non_null(strstr(t, "cubegen_box([for (a = [0 : 2]) cubegen_at(b[a], 1 - b[6 + 2 * a])],\n"
				  "                [for (a = [0 : 2]) cubegen_at(b[a] + b[3 + a], 1 + b[7 + 2 * a])]);"));
	assert_non_null(strstr(t, "\ncubegen_piece(piece);\n"));
	assert_true(strstr(t, "[Hidden]") < strstr(t, "piece = ["));
	/* the boxes in the file are the cover */
	struct mesh_piece mp;
	assert_int_equal(mesh_piece_init(&mp, golden_plate, 5, 5, 1, 10, 0.2), MESH_OK);
	struct mesh_box *b;
	size_t nb;
	assert_int_equal(mesh_cover_boxes(&mp, &b, &nb), MESH_OK);
	const char *q = strstr(t, "piece = [\n") + 10;
	for (size_t i = 0; i < nb; i++) {
		int v[12], used = 0;
		assert_int_equal(sscanf(q, "  [%d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d, %d]%n",
					&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
					&v[8], &v[9], &v[10], &v[11], &used), 12);
		for (int a = 0; a < 3; a++) {
			assert_int_equal(v[a], b[i].lo[a]);
			assert_int_equal(v[3 + a], b[i].n[a]);
			assert_int_equal(v[6 + 2 * a], b[i].inset[a][0]);
			assert_int_equal(v[7 + 2 * a], b[i].inset[a][1]);
		}
		q = strchr(q + used, '\n') + 1;
	}
	assert_true(strncmp(q, "];\n", 3) == 0);
	free(b);
	/* odd values keep their exact digits and widen the ranges */
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(mesh_write_scad(fp, golden_plate, 5, 5, 1, 77.25, 2.5, NULL), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	t = slurp_text(path);
	assert_true(strncmp(t, "// Made by cubegen", 18) == 0);
	assert_non_null(strstr(t, "\nunit = 77.25; // [2:0.5:77.25]\n"));
	assert_non_null(strstr(t, "\nclearance = 2.5; // [0:0.05:2.5]\n"));
	unlink(path);
}

static void test_mesh_scad_plate_text(void **state)
{
	(void)state;
	struct piece p[6];
	const unsigned char *cells[6];
	int dims[6][3];
	plate_of(77, 5, p, cells, dims);
	const char *path = tmp_path("puzzle.scad");
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(mesh_write_scad_plate(fp, cells, (const int (*)[3])dims, 6, 10, 0.2, 5,
					       "puzzle"), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	char *t = slurp_text(path);
	assert_non_null(strstr(t, "\ngap = 5; // [0.5:0.5:50]\n"));
	assert_true(strstr(t, "gap = 5;") < strstr(t, "[Hidden]"));
	for (int i = 1; i <= 6; i++) {
		char name[32];
		snprintf(name, sizeof name, "\npiece_%d = [\n", i);
		assert_non_null(strstr(t, name));
	}
	assert_non_null(strstr(t, "pieces = [piece_1, piece_2, piece_3, piece_4, piece_5, piece_6];"));
	assert_non_null(strstr(t, "place = [\n  [0, 0, 0, 0],\n  [1, 0, 5, 0],\n  [2, 0, 10, 0],\n"
				  "  [0, 1, 0, 5],\n  [1, 1, 5, 5],\n  [2, 1, 10, 5]\n];"));
	unlink(path);
}

/* ---- cell colours ---------------------------------------------------------------------- */

static const uint32_t palette3[3] = {0xFF0000, 0x00FF00, 0x0000FF};

/* Colour every cell of 'p' from palette3: 'how' 0 at random, 1 all the
 * first colour, 2 by x, 3 by x + y + z. */
static void colour_cells(uint64_t *s, const struct piece *p, int how,
			 uint32_t *rgb)
{
	for (int z = 0; z < p->n[2]; z++)
		for (int y = 0; y < p->n[1]; y++)
			for (int x = 0; x < p->n[0]; x++) {
				int i = x + p->n[0] * (y + p->n[1] * z);
				int k = how == 0 ? rnd(s, 3) : how == 1 ? 0
					: how == 2 ? x % 3 : (x + y + z) % 3;
				rgb[i] = p->c[i] ? palette3[k] : 0xDEAD;
			}
}

/* The cell whose box holds point 'q' of a piece meshed without walls at
 * the origin (layer k spans [k*unit - h, (k+1)*unit - h]). */
static int cell_at(const struct piece *p, double unit, double h,
		   const double q[3])
{
	int c[3];
	for (int a = 0; a < 3; a++) {
		c[a] = (int)floor((q[a] + h) / unit);
		c[a] = c[a] < 0 ? 0 : c[a] >= p->n[a] ? p->n[a] - 1 : c[a];
	}
	return c[0] + p->n[0] * (c[1] + p->n[1] * c[2]);
}

/*
 * mesh_build_coloured() of piece 'p' with colours 'rgb' (its bounding
 * box must start at the origin: every border plane holds a cell): the
 * status of mesh_build(); then the STL passes mesh_verify_stl() with the
 * spec's exact volume; each triangle has a palette colour, that of the
 * cell just inside it (unit layers only: 'walls' skips this); a piece of
 * one colour is mesh_build()'s mesh exactly. (One of several usually has
 * more triangles, but not always: the greedy merge in a plane cut at
 * colour borders sometimes leaves fewer stray corners.) Returns the
 * status.
 */
static int check_coloured(const struct piece *p, const uint32_t *rgb,
			  const struct mesh_size *sz, const unsigned char *const wall[3],
			  const char *label)
{
	struct mesh_spec sp = {.cells = p->c, .dims = {p->n[0], p->n[1], p->n[2]},
			       .wall = {wall ? wall[0] : NULL, wall ? wall[1] : NULL,
					wall ? wall[2] : NULL},
			       .label = label};
	struct mesh *m = NULL, *plain = NULL;
	uint32_t *tri = NULL;
	int rc = mesh_build_coloured(&sp, rgb, sz, &m, &tri);
	assert_int_equal(mesh_build(&sp, sz, &plain), rc);
	if (rc != MESH_OK)
		return rc;
	double v = mesh_spec_volume(&sp, sz);
	const char *path = tmp_path("coloured.stl");
	assert_int_equal(mesh_to_file(m, path), MESH_OK);
	struct mesh_report rep;
	int vr = mesh_verify_stl(path, v, &rep);
	if (vr != MESH_OK)
		fail_msg("verify: %s (%s)", mesh_strerror(vr), rep.problem);
	unlink(path);

	int colours = 0;
	size_t ncells = (size_t)p->n[0] * p->n[1] * p->n[2];
	for (size_t j = 0; j < ncells; j++)
		for (int k = 0; k < 3; k++)
			if (p->c[j] && rgb[j] == palette3[k])
				colours |= 1 << k;
	double h = sz->clearance / 2;
	for (size_t t = 0; t < m->ntriangles; t++) {
		int k = 0;
		while (k < 3 && tri[t] != palette3[k])
			k++;
		assert_true(k < 3 && (colours >> k & 1));
		if (wall)
			continue;
		const float *a = m->vertices[m->triangles[t][0]];
		const float *b = m->vertices[m->triangles[t][1]];
		const float *c = m->vertices[m->triangles[t][2]];
		double u[3], w[3], n[3], q[3];
		for (int i = 0; i < 3; i++) {
			u[i] = (double)b[i] - a[i];
			w[i] = (double)c[i] - a[i];
		}
		n[0] = u[1] * w[2] - u[2] * w[1];
		n[1] = u[2] * w[0] - u[0] * w[2];
		n[2] = u[0] * w[1] - u[1] * w[0];
		double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
		for (int i = 0; i < 3; i++)
			q[i] = ((double)a[i] + b[i] + c[i]) / 3 - 1e-3 * n[i] / len;
		int cell = cell_at(p, sz->unit, h, q);
		assert_true(p->c[cell]);
		if (tri[t] != rgb[cell])
			fail_msg("triangle %zu: colour %06X, the cell inside %06X", t,
				 (unsigned)tri[t], (unsigned)rgb[cell]);
	}
	if (colours == 1 || colours == 2 || colours == 4) {
		assert_int_equal(m->nvertices, plain->nvertices);
		assert_int_equal(m->ntriangles, plain->ntriangles);
		assert_memory_equal(m->vertices, plain->vertices,
				    m->nvertices * sizeof *m->vertices);
		assert_memory_equal(m->triangles, plain->triangles,
				    m->ntriangles * sizeof *m->triangles);
	}
	mesh_free(m);
	mesh_free(plain);
	free(tri);
	return MESH_OK;
}

/* Random polycubes and plates, randomly coloured and in stripes, with
 * clearances 0.2, 0 and 0.5 (unit 3); the solid refused exactly when
 * mesh_build() refuses it. */
static void test_mesh_coloured_pieces(void **state)
{
	(void)state;
	uint64_t s = 21;
	static uint32_t rgb[4096];
	static const struct mesh_size sizes[3] = {{10, 10, 0.2}, {10, 10, 0},
						   {3, 3, 0.5}};
	int several = 0;
	for (int i = 0; i < 300; i++) {
		struct piece p;
		random_polycube(&s, &p);
		/* trim empty border planes: cell_at() counts from the origin */
		int lo[3] = {p.n[0], p.n[1], p.n[2]}, hi[3] = {-1, -1, -1};
		for (int z = 0; z < p.n[2]; z++)
			for (int y = 0; y < p.n[1]; y++)
				for (int x = 0; x < p.n[0]; x++)
					if (at(&p, x, y, z)) {
						int c[3] = {x, y, z};
						for (int a = 0; a < 3; a++) {
							lo[a] = c[a] < lo[a] ? c[a] : lo[a];
							hi[a] = c[a] > hi[a] ? c[a] : hi[a];
						}
					}
		struct piece q = {{hi[0] - lo[0] + 1, hi[1] - lo[1] + 1, hi[2] - lo[2] + 1}, {0}};
		for (int z = 0; z < q.n[2]; z++)
			for (int y = 0; y < q.n[1]; y++)
				for (int x = 0; x < q.n[0]; x++)
					if (at(&p, x + lo[0], y + lo[1], z + lo[2]))
						set(&q, x, y, z);
		colour_cells(&s, &q, i % 4, rgb);
		int rc = check_coloured(&q, rgb, &sizes[i % 3], NULL, NULL);
		assert_true(rc == MESH_OK || rc == MESH_ENONMANIFOLD);
		several += rc == MESH_OK && i % 4 != 1;
	}
	assert_true(several > 100);
	for (int n = 3; n <= 12; n++)
		for (int k = 0; k < 4; k++) {
			struct piece p;
			do
				random_plate(&s, n, 50, &p);
			while (!at(&p, 0, 1, 0) || !at(&p, 1, 0, 0) ||
			       !at(&p, n - 1, 1, 0) || !at(&p, 1, n - 1, 0));
			colour_cells(&s, &p, k, rgb);
			for (int z = 0; z < 3; z++)
				assert_int_equal(check_coloured(&p, rgb, &sizes[z], NULL,
								k == 2 ? "42" : NULL),
						 MESH_OK);
		}
}

/* Walls and labels: closed and exact, colours only from the piece; a
 * plate of coloured pieces is their coloured meshes moved, triangle for
 * triangle. */
static void test_mesh_coloured_walls_and_plate(void **state)
{
	(void)state;
	uint64_t s = 22;
	static uint32_t rgb[6][4096];
	struct piece p[6];
	const unsigned char *cells[6];
	int dims[6][3];
	plate_of(23, 7, p, cells, dims);
	unsigned char edge[7] = {1, 0, 0, 0, 0, 0, 1}, thick[1] = {1};
	const unsigned char *wall[3] = {edge, edge, thick};
	const struct mesh_size sz = {10, 3, 0.2};
	struct mesh_spec sp[6];
	const uint32_t *col[6];
	for (int i = 0; i < 6; i++) {
		colour_cells(&s, &p[i], i % 4, rgb[i]);
		sp[i] = (struct mesh_spec){.cells = p[i].c, .dims = {7, 7, 1},
					   .wall = {edge, edge, thick}, .label = "7"};
		col[i] = i == 4 ? NULL : rgb[i];
		assert_int_equal(check_coloured(&p[i], rgb[i], &sz, wall, "7"), MESH_OK);
	}
	struct mesh *plate = NULL, *one[6];
	double origin[6][3];
	assert_int_equal(mesh_build_plate_coloured(sp, col, 6, &sz, 5, &plate, origin),
			 MESH_OK);
	size_t nt = 0;
	for (int i = 0; i < 6; i++) {
		uint32_t *tri = NULL;
		if (col[i]) {
			assert_int_equal(mesh_build_coloured(&sp[i], col[i], &sz, &one[i], &tri),
					 MESH_OK);
			free(tri);
		} else {
			assert_int_equal(mesh_build(&sp[i], &sz, &one[i]), MESH_OK);
		}
		/* the plate holds piece i's triangles, in order, moved */
		for (size_t t = 0; t < one[i]->ntriangles; t++)
			for (int a = 0; a < 3; a++) {
				const float *u = one[i]->vertices[one[i]->triangles[t][a]];
				const float *w = plate->vertices[plate->triangles[nt + t][a]];
				for (int d = 0; d < 3; d++)
					assert_true(fabs((double)w[d] - (u[d] + origin[i][d])) < 1e-4);
			}
		nt += one[i]->ntriangles;
		mesh_free(one[i]);
	}
	assert_int_equal(plate->ntriangles, nt);
	/* without colours it is mesh_build_plate() */
	struct mesh *a = NULL, *b = NULL;
	assert_int_equal(mesh_build_plate_coloured(sp, NULL, 6, &sz, 5, &a, NULL), MESH_OK);
	assert_int_equal(mesh_build_plate(sp, 6, &sz, 5, &b, NULL), MESH_OK);
	assert_int_equal(a->ntriangles, b->ntriangles);
	assert_memory_equal(a->triangles, b->triangles, a->ntriangles * sizeof *a->triangles);
	assert_memory_equal(a->vertices, b->vertices, a->nvertices * sizeof *a->vertices);
	mesh_free(a);
	mesh_free(b);
	mesh_free(plate);
}

/* ---- out of memory --------------------------------------------------------------------- */

#ifndef HAVE_ASAN
/* Fail every allocation from the k-th on, for every k until 'call'
 * succeeds: it must return MESH_ENOMEM each time, never crash. */
#define EVERY_ALLOCATION(call, cleanup)                                   \
	do {                                                              \
		for (long k = 0;; k++) {                                  \
			fail_after = k;                                   \
			int rc_ = (call);                                 \
			fail_after = -1;                                  \
			if (rc_ == MESH_OK) {                             \
				cleanup;                                  \
				break;                                    \
			}                                                 \
			assert_int_equal(rc_, MESH_ENOMEM);               \
			assert_true(k < 10000);                           \
		}                                                         \
	} while (0)
#endif

/* The viewer's page: the template's markers replaced, the title escaped
 * for HTML and for JSON (no '<' in the data, so no "</script>"), the
 * objects at their origins, steps only on a solution page, bad indexes
 * refused, a failed write reported. */
static char *page_text(const char *path, const char *title,
		       const struct mesh_object *obj, const uint32_t *const *tri,
		       const struct mesh_page_step *st, size_t nst)
{
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(mesh_write_page(fp, title, obj, tri, 2, st, nst), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	return slurp_text(path);
}

static void test_mesh_page(void **state)
{
	(void)state;
	/* the viewer a page carries besides its data: at most 30 KB, and
	 * nothing in it that would end its element early */
	assert_true(cubegen_web_page_len + cubegen_web_css_len + cubegen_web_js_len <=
		    30 * 1024);
	assert_null(strstr(cubegen_web_js, "</script"));
	assert_null(strstr(cubegen_web_css, "</style"));
	unsigned char one[1] = {1};
	struct mesh *m = NULL;
	assert_int_equal(mesh_from_cells(one, 1, 1, 1, 10, 0.2, &m), MESH_OK);
	struct mesh_object obj[2] = {{m, "1", 0xE69F00, {0, 0, 0}},
				     {m, "2", 0x56B4E9, {20.5, 0, 0}}};
	const char *title = "a </script><b> & \"q\"";
	const char *path = tmp_path("page.html");
	char *t = page_text(path, title, obj, NULL, NULL, 0);
	assert_null(strstr(t, "<!--CUBEGEN-"));
	assert_non_null(strstr(t, "a &lt;/script&gt;&lt;b&gt; &amp; &quot;q&quot;"));
	assert_non_null(strstr(t, "\"title\": \"a \\u003c/script>\\u003cb> & \\\"q\\\"\""));
	assert_non_null(strstr(t, "{\"page\": \"pieces\""));
	assert_null(strstr(t, "\"steps\""));
	assert_non_null(strstr(t, "\"colour\": [230, 159, 0]"));
	/* the second cube moved by its origin: 20.5 + 9.8 */
	assert_non_null(strstr(t, ",30.3,"));
	/* one "</script>" per script element only: the data's and the code's */
	size_t ends = 0;
	for (const char *at = t; (at = strstr(at, "</script>")); at++)
		ends++;
	assert_int_equal(ends, 2);

	size_t show[2] = {0, 1}, mv[1] = {1};
	struct mesh_page_step st[2] = {{"Start with piece 1.", show, 1, NULL, 0, {0, 0, 0}, NULL},
				       {"Piece 2 goes in.", show, 2, mv, 1, {0, 0, 30}, NULL}};
	t = page_text(path, "x", obj, NULL, st, 2);
	assert_non_null(strstr(t, "{\"page\": \"solution\""));
	assert_non_null(strstr(t, "{\"text\": \"Piece 2 goes in.\", \"show\": [0, 1], "
				  "\"moving\": [1], \"from\": [0, 0, 30]}"));
	/* "at": only the shown pieces a step leaves away from their place */
	const double at[2][3] = {{0, 0, 0}, {-10, 0, 2.5}};
	st[0].at = at;
	st[1].at = at;
	t = page_text(path, "x", obj, NULL, st, 2);
	assert_non_null(strstr(t, "{\"text\": \"Start with piece 1.\", \"show\": [0], "
				  "\"moving\": [], \"from\": [0, 0, 0]}"));
	assert_non_null(strstr(t, "\"moving\": [1], \"from\": [0, 0, 30], "
				  "\"at\": [[1, -10, 0, 2.5]]}"));
	/* triangle colours only where they differ from the object's */
	uint32_t *tri = malloc(m->ntriangles * sizeof *tri);
	assert_non_null(tri);
	for (size_t i = 0; i < m->ntriangles; i++)
		tri[i] = i ? 0x56B4E9 : 0x000001;
	const uint32_t *tris[2] = {NULL, tri};
	t = page_text(path, "x", obj, tris, NULL, 0);
	assert_non_null(strstr(t, "\"tricolours\": [1,5682409,"));

	FILE *fp = fopen("/dev/null", "w");
	assert_non_null(fp);
	size_t bad[1] = {2};
	struct mesh_page_step sb = {"x", bad, 1, NULL, 0, {0, 0, 0}, NULL};
	assert_int_equal(mesh_write_page(fp, "x", obj, NULL, 2, &sb, 1), MESH_EINVAL);
	assert_int_equal(mesh_write_page(fp, "x", obj, NULL, 0, NULL, 0), MESH_EINVAL);
	tri[0] = 0x1000000;
	assert_int_equal(mesh_write_page(fp, "x", obj, tris, 2, NULL, 0), MESH_EINVAL);
	assert_int_equal(fclose(fp), 0);
	fp = fopen("/dev/full", "w");
	if (fp) {
		assert_int_equal(mesh_write_page(fp, "x", obj, NULL, 2, NULL, 0), MESH_EIO);
		fclose(fp);
	}
	free(tri);
	mesh_free(m);
	unlink(path);
}

static void test_mesh_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	struct piece p;
	uint64_t s = 9;
	random_plate(&s, 8, 50, &p);
	struct mesh *m = NULL;
	EVERY_ALLOCATION(mesh_from_cells(p.c, 8, 8, 1, 10, 0.2, &m), mesh_free(m));
	EVERY_ALLOCATION(mesh_from_cells(p.c, 8, 8, 1, 10, 0, &m), mesh_free(m));
	struct piece pp[6];
	const unsigned char *cells[6];
	int dims[6][3];
	plate_of(5, 4, pp, cells, dims);
	EVERY_ALLOCATION(mesh_plate(cells, (const int (*)[3])dims, 6, 10, 0.2, 5, &m),
			 mesh_free(m));
	/* with colours: the palette and the grid's cell maps too */
	static uint32_t rgb[4096];
	uint32_t *tri = NULL;
	colour_cells(&s, &p, 0, rgb);
	const struct mesh_spec sp = {.cells = p.c, .dims = {8, 8, 1}, .label = "5"};
	const struct mesh_size sz = {10, 10, 0.2};
	EVERY_ALLOCATION(mesh_build_coloured(&sp, rgb, &sz, &m, &tri),
			 (mesh_free(m), free(tri)));
	const struct mesh_spec sp6[2] = {sp, sp};
	const uint32_t *col[2] = {rgb, rgb};
	EVERY_ALLOCATION(mesh_build_plate_coloured(sp6, col, 2, &sz, 5, &m, NULL),
			 mesh_free(m));
	FILE *fp = fopen(tmp_path("oom.scad"), "w");
	assert_non_null(fp);
	assert_true(fprintf(fp, "// stdio's buffer is allocated now\n") > 0);
	EVERY_ALLOCATION(mesh_write_scad(fp, p.c, 8, 8, 1, 10, 0.2, "x"), (void)0);
	EVERY_ALLOCATION(mesh_write_scad_plate(fp, cells, (const int (*)[3])dims, 6, 10, 0.2, 5,
					       "x"), (void)0);
	/* a notched piece: the notches' list too */
	static const unsigned char notched[8] = {1, 1, 1, 1, 1, 0, 0, 1};
	EVERY_ALLOCATION(mesh_write_scad(fp, notched, 2, 2, 2, 10, 0.2, "x"), (void)0);
	assert_int_equal(fclose(fp), 0);

	/* The checker: only our own allocations, which all come before
	 * admesh's (admesh cannot report a failed malloc). Count them on the
	 * same file failing the last exact check (a wrong volume: the same
	 * allocations, even glibc qsort's), then fail each. */
	struct soup so = {0};
	add_box(&so, 0, 0, 0, 1, 1, 1);
	const char *good = soup_file(&so, "box", 0);
	struct mesh_report rep;
	alloc_calls = 0;
	assert_int_equal(mesh_verify_stl(good, 2, &rep), MESH_EBADMESH);
	long ours = alloc_calls;
	/* + 2: our two arrays handed to admesh */
	for (long k = 0; k < ours + 2; k++) {
		fail_after = k;
		int rc = mesh_verify_stl(good, 1, &rep);
		fail_after = -1;
		assert_int_equal(rc, MESH_ENOMEM);
		assert_true(rep.problem[0] != 0);
	}
	assert_int_equal(mesh_verify_stl(good, 1, &rep), MESH_OK);
#endif
}

int main(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/test_mesh.XXXXXX");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mesh_strerror_names_every_status),
		cmocka_unit_test(test_mesh_single_cell),
		cmocka_unit_test(test_mesh_boxes_merge_to_12_triangles),
		cmocka_unit_test(test_mesh_ignores_empty_border),
		cmocka_unit_test(test_mesh_concave_corner_keeps_corner_square),
		cmocka_unit_test(test_mesh_diagonal_cells_on_layer_notched),
		cmocka_unit_test(test_mesh_every_small_polycube_meshes),
		cmocka_unit_test(test_mesh_every_flat_plate_is_manifold),
		cmocka_unit_test(test_mesh_random_polycubes_verify),
		cmocka_unit_test(test_mesh_random_plates_verify),
		cmocka_unit_test(test_mesh_shell_puzzles_verify),
		cmocka_unit_test(test_mesh_plate_triangles_grow_with_outline),
		cmocka_unit_test(test_mesh_bad_arguments),
		cmocka_unit_test(test_mesh_plate_verify_and_fits_bed),
		cmocka_unit_test(test_mesh_plate_layout),
		cmocka_unit_test(test_mesh_coloured_pieces),
		cmocka_unit_test(test_mesh_coloured_walls_and_plate),
		cmocka_unit_test(test_mesh_golden_stl_bytes),
		cmocka_unit_test(test_mesh_stl_header_never_solid),
		cmocka_unit_test(test_mesh_write_dev_full_is_eio),
		cmocka_unit_test(test_mesh_verify_good_box),
		cmocka_unit_test(test_mesh_verify_edge_of_four_triangles),
		cmocka_unit_test(test_mesh_verify_cubes_touching_at_edge),
		cmocka_unit_test(test_mesh_verify_cubes_touching_at_corner),
		cmocka_unit_test(test_mesh_verify_t_junction),
		cmocka_unit_test(test_mesh_verify_bad_values),
		cmocka_unit_test(test_mesh_verify_orientation),
		cmocka_unit_test(test_mesh_verify_file_shape),
		cmocka_unit_test(test_mesh_verify_ascii),
		cmocka_unit_test(test_mesh_scad_cover_is_exact),
		cmocka_unit_test(test_mesh_scad_cover_small_cases),
		cmocka_unit_test(test_mesh_scad_text),
		cmocka_unit_test(test_mesh_scad_plate_text),
		cmocka_unit_test(test_mesh_page),
		cmocka_unit_test(test_mesh_out_of_memory),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return failed ? 1 : 0;
}
