/*
 * mesh.c: a piece's cells -> its solid (DESIGN.md §3, mesh.h) as a merged,
 * watertight triangle mesh.
 *
 * Workload: pieces of up to a few thousand cells (a flat N x N plate, N up
 * to 64; small 3D polycubes), meshed once each; six pieces at N = 20 must
 * mesh and write in well under 10 ms.
 *
 * The central invariant: the solid is a union of boxes of a rectilinear
 * grid, the mesh is its exact boundary, and every mesh vertex that lies
 * on the boundary of a face rectangle is a vertex of that rectangle's
 * triangles. Step by step:
 *
 * 1. The grid. The solid is the union over the piece's cells of their
 *    boxes, each cell's unit cube inset by h = clearance/2 on every face
 *    whose neighbour cell is not in the piece. Along an axis, cell c is
 *    cut at c*unit + h and (c+1)*unit - h into a "low zone" of width h, a
 *    "core" and a "high zone" of width h. A grid box (one interval per
 *    axis) then lies in a single cell c, and it is in the solid exactly
 *    when c is in the piece and, on every axis where the box is in a
 *    zone, the neighbour of c across that zone's face is in the piece:
 *    that is where c's own box reaches, and no other cell's box enters
 *    the interior of c. One exception, the notches: a block in a zone on
 *    all three axes (a corner block) touches the cell corner V it is in,
 *    and is left out when V is notched (mesh_piece_notch(): 6 of the 8
 *    cells around V in the piece, the 2 missing ones on a face diagonal).
 *    Around such a V the rule above would fill exactly two corner blocks,
 *    diagonal to each other, that meet along an edge of length h (step 2);
 *    leaving them out cuts the cube [V - h, V + h]^3 out of the union of
 *    the cells' boxes, which only takes material away, so no gap between
 *    pieces shrinks. The low zone of the first cell and the high zone
 *    of the last one are always empty and left out, so an axis of n cells
 *    has 3n - 2 intervals. With clearance 0 the zones have no width and
 *    are left out too; the grid is the cells themselves. Everything is
 *    shifted by -h so the solid starts at 0: a grid line sits at
 *    pos(k) - t*h, t = 0 (a core starts), 1 (a cell boundary) or 2 (a core
 *    ends), pos(k) = nw*wall + nu*unit the layer boundary k (the wall and
 *    unit layers before it; k*unit without walls), computed that way for
 *    every line (scad.c uses the same expression). Layer widths change
 *    where the lines are, never which boxes are filled, so everything
 *    below holds for walls as for cubes.
 *    A label's strokes (label.c) are boxes cut out of the top: their sides
 *    become grid lines too, merged with these as floats, and a grid box
 *    inside a cut is empty (cut_grid()). The strokes overlap in whole
 *    blocks and stay at least 1 mm inside the top face, so the manifold
 *    check of step 2, which runs on the final grid, passes for them.
 *
 * 2. When it is a 2-manifold. The surface is a manifold exactly when, at
 *    every grid point, the 8 boxes around it pass mask_manifold(): this
 *    is checked at every point of every piece, and a piece that fails is
 *    refused (MESH_ENONMANIFOLD) rather than written. For a flat plate (1
 *    cell thick, its cells 4-connected: every piece `generate` writes)
 *    and clearance > 0 it never fails. Proof: every cell's box spans the
 *    same z range [h, unit - h], so the solid is a prism R x [0, unit -
 *    clearance] over a planar region R, a union of grid squares; the
 *    prism's surface is a 2-manifold iff R's boundary is a 1-manifold,
 *    i.e. iff no grid point has exactly two diagonally opposite squares of
 *    R around it. Take a grid point and the 4 squares around it, and say
 *    a line is "inner" when it cuts a cell into zone and core and "outer"
 *    when it is a cell boundary.
 *     - Both lines inner: the 4 squares lie in one cell c (in P, else all
 *       are empty), as core/core, zone/core, core/zone, zone/zone; a zone
 *       square needs the neighbour across its face. The zone/zone square
 *       needs both neighbours, so it implies both zone/core squares, and
 *       core/core is implied by every other square: the filled squares
 *       are never just a diagonal pair.
 *     - One line outer (between cells a and b), the other inner: the two
 *       squares on the core side of the inner line are a's high zone and
 *       b's low zone, each filled iff a and b are both in P: equal. A
 *       diagonal pair needs them to differ.
 *     - Both lines outer, cells a b / d e around the point (a, e
 *       diagonal): each square is the corner zone of one cell and needs
 *       that cell and its two neighbours among the four, i.e. three of
 *       the four cells. Two diagonal squares together need all four, and
 *       then all four squares are filled.
 *    Squares outside the piece's box are empty, which changes nothing.
 *    With clearance 0 the solid is the plain polycube: diagonal cells
 *    around a point fail, and such a piece is refused.
 *    With clearance > 0 every 6-connected piece passes, in 3D too. Every
 *    grid line lies within h of a cell boundary (2h < unit, 2h < wall),
 *    so every grid point lies in the cube [V - h, V + h]^3 around some
 *    cell corner V, and the blocks around it are decided by the 8 cells
 *    around V alone (a zone block needs only its cell and the neighbours
 *    across its zones, all among the 8; a corner block also V's notch,
 *    decided by the 8). So it is enough that the 27 grid points of that
 *    cube pass for each of the 256 sets of those cells. Without notches
 *    12 sets fail, exactly the notched ones: a full 2x2 layer with two
 *    diagonal cells on one side of it makes the corner blocks of the two
 *    layer cells under them meet along an edge shared by four faces.
 *    With the notches all 256 pass (test_mesh.c checks all 256, and every
 *    piece of up to 2 x 2 x 3 cells, against a voxel model of its own).
 *    The check stays in the code: it is cheap, and it guards the labels'
 *    cuts and the walls too.
 *
 * 3. Faces. In every grid plane, a grid face is on the surface when the
 *    boxes on its two sides differ; its sign says which way is out. Faces
 *    of one sign in one plane are merged greedily into maximal
 *    rectangles (grow along one axis, then the other; both orders are
 *    tried, see find_rects()). The mesh vertices are exactly the
 *    rectangles' corners. With cell colours (mesh_build_coloured()) a
 *    face has the colour of the cell its filled box lies in, and only
 *    faces of one sign and one colour are merged: the rectangles are
 *    finer, nothing else changes (step 4 holds for any partition of the
 *    surface faces into rectangles), and a piece of one colour gets the
 *    same ones.
 *
 * 4. Triangles. Each rectangle is triangulated with every mesh vertex on
 *    its boundary as a polygon vertex (a corner of a neighbouring
 *    rectangle in the same plane, or of one in a perpendicular plane
 *    across a solid edge), so no vertex lies inside a triangle's edge: no
 *    T-junctions. No mesh vertex lies inside a rectangle (its
 *    neighbourhood would not be flat), so interior diagonals are safe.
 *    Two rectangles that share a boundary piece split it at the same
 *    points, so each edge of the mesh is used by exactly the two faces
 *    around it, in opposite directions since both are oriented outward.
 *    A rectangle with k boundary vertices gets k - 2 triangles without
 *    Steiner points and without degenerate ones (rect_triangulate()).
 *
 * Coordinates are computed in double, then rounded once to float;
 * distinct grid lines must stay distinct floats (else MESH_ERANGE), so
 * every float triangle keeps its nonzero area.
 */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

const char *mesh_strerror(int status)
{
	switch (status) {
	case MESH_OK:
		return "success";
	case MESH_ENOMEM:
		return "out of memory";
	case MESH_EIO:
		return "input/output error";
	case MESH_EINVAL:
		return "invalid argument (unit must be > 0, clearance in "
		       "[0, unit/2), gap > 0, at least one piece)";
	case MESH_EDISCONNECTED:
		return "the piece has no cells or its cells are not 6-connected";
	case MESH_ENONMANIFOLD:
		return "the piece's solid is not a manifold: parts of it meet only "
		       "along an edge or at a corner (cells that touch that way, "
		       "with clearance 0)";
	case MESH_ERANGE:
		return "mesh too large, or unit and clearance too far apart for "
		       "float32 coordinates";
	case MESH_EBADMESH:
		return "the STL is not a clean closed solid";
	case MESH_ENOLIB:
		return "libzip could not be loaded (3MF files need it: is it installed? or memory ran out)";
	}
	return "unknown mesh error";
}

/* ---- pieces ------------------------------------------------------------ */

static int params_ok(double unit, double clearance)
{
	return isfinite(unit) && isfinite(clearance) && unit > 0 &&
	       clearance >= 0 && clearance < unit / 2;
}

/* nx*ny*nz as size_t, or 0 on overflow / bad dims. */
static size_t cell_count(int nx, int ny, int nz)
{
	if (nx < 1 || ny < 1 || nz < 1)
		return 0;
	size_t a = (size_t)nx, b = (size_t)ny, c = (size_t)nz;
	if (a > SIZE_MAX / b || a * b > SIZE_MAX / c)
		return 0;
	return a * b * c;
}

int mesh_piece_init(struct mesh_piece *p, const unsigned char *cells, int nx,
		    int ny, int nz, double unit, double clearance)
{
	assert(p && cells);
	struct mesh_spec s = {.cells = cells, .dims = {nx, ny, nz}};
	struct mesh_size sz = {unit, unit, clearance};
	return mesh_piece_init_spec(p, &s, &sz);
}

/* Whether any layer of the bounding box is a wall. */
static int has_walls(const struct mesh_piece *p)
{
	for (int a = 0; a < 3; a++)
		for (int i = 0; i < p->n[a]; i++)
			if (mesh_piece_is_wall(p, a, i))
				return 1;
	return 0;
}

/* Sizes, and a label the top layer can hold (mesh_piece_init_spec()). */
static int spec_sizes_ok(const struct mesh_piece *p, const struct mesh_size *sz)
{
	if (!params_ok(sz->unit, sz->clearance))
		return 0;
	if (has_walls(p) && !params_ok(sz->wall, sz->clearance))
		return 0;
	if (p->label) {
		int stroke[MESH_LABEL_STROKES][4], w, ylo;
		if (!mesh_label_strokes(p->label, stroke, &w, &ylo))
			return 0;
		double top = mesh_piece_is_wall(p, 2, p->n[2] - 1) ? sz->wall : sz->unit;
		if (!(top - sz->clearance > MESH_LABEL_DEPTH))
			return 0;
	}
	return 1;
}

int mesh_piece_init_spec(struct mesh_piece *p, const struct mesh_spec *s,
			 const struct mesh_size *sz)
{
	assert(p && s && s->cells && sz);
	const unsigned char *cells = s->cells;
	int nx = s->dims[0], ny = s->dims[1], nz = s->dims[2];
	if (!params_ok(sz->unit, sz->clearance))
		return MESH_EINVAL;
	size_t total = cell_count(nx, ny, nz);
	if (total == 0)
		return MESH_EINVAL;

	struct mesh_piece q = {.cells = cells, .dims = {nx, ny, nz},
			       .wall = {s->wall[0], s->wall[1], s->wall[2]},
			       .label = s->label && *s->label ? s->label : NULL};
	int lo[3] = {nx, ny, nz}, hi[3] = {-1, -1, -1};
	size_t ncells = 0, first = 0;
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				size_t i = (size_t)x + (size_t)nx * ((size_t)y + (size_t)ny * (size_t)z);
				if (!cells[i])
					continue;
				if (ncells++ == 0)
					first = i;
				int c[3] = {x, y, z};
				for (int a = 0; a < 3; a++) {
					if (c[a] < lo[a])
						lo[a] = c[a];
					if (c[a] > hi[a])
						hi[a] = c[a];
				}
			}
	if (ncells == 0)
		return MESH_EDISCONNECTED;
	for (int a = 0; a < 3; a++) {
		q.lo[a] = lo[a];
		q.n[a] = hi[a] - lo[a] + 1;
	}
	if (!spec_sizes_ok(&q, sz))
		return MESH_EINVAL;

	/* Breadth-first search over the whole array: is every cell reached? */
	if (ncells > SIZE_MAX / sizeof(size_t))
		return MESH_ENOMEM;
	size_t *queue = malloc(ncells * sizeof *queue);
	unsigned char *seen = calloc(total, 1);
	if (!queue || !seen) {
		free(queue);
		free(seen);
		return MESH_ENOMEM;
	}
	size_t head = 0, tail = 0;
	queue[tail++] = first;
	seen[first] = 1;
	while (head < tail) {
		size_t i = queue[head++];
		int x = (int)(i % (size_t)nx);
		int y = (int)(i / (size_t)nx % (size_t)ny);
		int z = (int)(i / ((size_t)nx * (size_t)ny));
		static const int d[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
					    {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
		for (int k = 0; k < 6; k++) {
			int X = x + d[k][0], Y = y + d[k][1], Z = z + d[k][2];
			if (X < 0 || Y < 0 || Z < 0 || X >= nx || Y >= ny || Z >= nz)
				continue;
			size_t j = (size_t)X + (size_t)nx * ((size_t)Y + (size_t)ny * (size_t)Z);
			if (cells[j] && !seen[j]) {
				seen[j] = 1;
				queue[tail++] = j;
			}
		}
	}
	free(queue);
	free(seen);
	if (tail != ncells)
		return MESH_EDISCONNECTED;
	*p = q;
	return MESH_OK;
}

double mesh_expected_volume(const unsigned char *cells, int nx, int ny, int nz,
			    double unit, double clearance)
{
	assert(cells);
	if (!params_ok(unit, clearance) || cell_count(nx, ny, nz) == 0)
		return -1;
	struct mesh_piece p = {.cells = cells, .dims = {nx, ny, nz},
			       .lo = {0, 0, 0}, .n = {nx, ny, nz}};
	/* The cells' boxes meet only on their faces (each lies in its own
	 * cell), so the volume is the sum of theirs. Each box is
	 * unit - h*(exposed faces on that axis) wide per axis; cells are
	 * counted by their numbers of exposed faces per axis, 0 to 2, so
	 * that the sum has 27 terms, each computed once. */
	double count[27] = {0};
	size_t ncells = 0;
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				if (!mesh_piece_cell(&p, x, y, z))
					continue;
				ncells++;
				int e[3];
				e[0] = !mesh_piece_cell(&p, x - 1, y, z) + !mesh_piece_cell(&p, x + 1, y, z);
				e[1] = !mesh_piece_cell(&p, x, y - 1, z) + !mesh_piece_cell(&p, x, y + 1, z);
				e[2] = !mesh_piece_cell(&p, x, y, z - 1) + !mesh_piece_cell(&p, x, y, z + 1);
				count[e[0] + 3 * e[1] + 9 * e[2]]++;
			}
	if (ncells == 0)
		return -1;
	double h = clearance / 2, w[3] = {unit, unit - h, unit - clearance}, v = 0;
	for (int k = 0; k < 27; k++)
		v += count[k] * (w[k % 3] * w[k / 3 % 3] * w[k / 9]);
	/* each notch takes two corner blocks of h^3 (mesh.c, step 1) */
	if (h > 0)
		v -= (double)mesh_piece_notches(&p) * 2 * h * h * h;
	return v;
}

double mesh_spec_volume(const struct mesh_spec *s, const struct mesh_size *sz)
{
	assert(s && s->cells && sz);
	struct mesh_piece p;
	/* mesh_piece_init_spec() checks connectivity too, which the volume
	 * does not need, but a spec mesh_build() refuses has no volume. */
	if (mesh_piece_init_spec(&p, s, sz) != MESH_OK)
		return -1;
	/* As mesh_expected_volume(), with each cell's box as wide as its
	 * layer on each axis: cells are counted by (layer kind, exposed
	 * faces) per axis, 6 cases per axis, 216 terms. */
	double count[216] = {0};
	for (int z = 0; z < p.n[2]; z++)
		for (int y = 0; y < p.n[1]; y++)
			for (int x = 0; x < p.n[0]; x++) {
				if (!mesh_piece_cell(&p, x, y, z))
					continue;
				int e[3];
				e[0] = !mesh_piece_cell(&p, x - 1, y, z) + !mesh_piece_cell(&p, x + 1, y, z);
				e[1] = !mesh_piece_cell(&p, x, y - 1, z) + !mesh_piece_cell(&p, x, y + 1, z);
				e[2] = !mesh_piece_cell(&p, x, y, z - 1) + !mesh_piece_cell(&p, x, y, z + 1);
				int c[3] = {x, y, z}, k = 0;
				for (int a = 2; a >= 0; a--)
					k = k * 6 + 3 * mesh_piece_is_wall(&p, a, c[a]) + e[a];
				count[k]++;
			}
	double h = sz->clearance / 2, v = 0;
	for (int k = 0; k < 216; k++) {
		if (!count[k])
			continue;
		double prod = count[k];
		for (int a = 0, r = k; a < 3; a++, r /= 6) {
			double w = r % 6 >= 3 ? sz->wall : sz->unit;
			prod *= w - (r % 3) * h;
		}
		v += prod;
	}
	if (h > 0)
		v -= (double)mesh_piece_notches(&p) * 2 * h * h * h;
	struct mesh_cut cut[MESH_LABEL_STROKES];
	size_t ncut;
	double height, area;
	if (mesh_label_cuts(&p, sz, cut, &ncut, &height, &area) != MESH_OK)
		return -1;
	return v - area * MESH_LABEL_DEPTH;
}

int mesh_label_height(const struct mesh_spec *s, const struct mesh_size *sz,
		      double *mm)
{
	assert(s && sz && mm);
	struct mesh_piece p;
	int rc = mesh_piece_init_spec(&p, s, sz);
	if (rc != MESH_OK)
		return rc;
	struct mesh_cut cut[MESH_LABEL_STROKES];
	size_t ncut;
	double height, area;
	rc = mesh_label_cuts(&p, sz, cut, &ncut, &height, &area);
	if (rc == MESH_OK)
		*mm = height;
	return rc;
}

/* ---- growing arrays ------------------------------------------------------ */

/* Make room for 'more' elements of 'size' bytes in '*arr' holding '*len'
 * of '*cap'. MESH_ENOMEM (arrays untouched) or MESH_ERANGE. */
static int reserve(void **arr, size_t *cap, size_t len, size_t more,
		   size_t size)
{
	if (more > SIZE_MAX / size - len)
		return MESH_ERANGE;
	if (len + more <= *cap)
		return MESH_OK;
	size_t ncap = *cap ? *cap : 64;
	while (ncap < len + more)
		ncap = ncap > SIZE_MAX / size / 2 ? len + more : ncap * 2;
	void *n = realloc(*arr, ncap * size);
	if (!n)
		return MESH_ENOMEM;
	*arr = n;
	*cap = ncap;
	return MESH_OK;
}

/* A mesh being built: one or more pieces appended. */
struct mbuf {
	struct mesh m;
	size_t vcap, tcap;
	int colours;   /* keep a colour per triangle in rgb */
	uint32_t *rgb; /* m.ntriangles colours (mesh_build_coloured()) */
	size_t ccap;   /* capacity of rgb */
};

/* Append triangle (p, q, r) of colour 'rgb' (kept only when b->colours). */
static int add_triangle(struct mbuf *b, uint32_t p, uint32_t q, uint32_t r,
			uint32_t rgb)
{
	void *t = b->m.triangles;
	int rc = reserve(&t, &b->tcap, b->m.ntriangles, 1, sizeof *b->m.triangles);
	b->m.triangles = t;
	if (rc != MESH_OK)
		return rc;
	if (b->m.ntriangles >= UINT32_MAX) /* STL counts facets in a u32 */
		return MESH_ERANGE;
	if (b->colours) {
		void *c = b->rgb;
		rc = reserve(&c, &b->ccap, b->m.ntriangles, 1, sizeof *b->rgb);
		b->rgb = c;
		if (rc != MESH_OK)
			return rc;
		b->rgb[b->m.ntriangles] = rgb;
	}
	uint32_t *tri = b->m.triangles[b->m.ntriangles++];
	tri[0] = p;
	tri[1] = q;
	tri[2] = r;
	return MESH_OK;
}

/* ---- one piece ------------------------------------------------------------- */

/* A face rectangle in the plane 'axis' = grid line 'plane', spanning grid
 * lines [u0, u1] along axis (axis+1)%3 and [v0, v1] along (axis+2)%3. */
struct rect {
	int axis, plane, sign; /* sign +1: outward normal along +axis */
	int u0, u1, v0, v1;
	uint32_t rgb;          /* its cells' colour (0 without colours) */
};

/* A boundary point of a rectangle: mesh vertex and its grid position
 * along the side it lies on. */
struct bpt {
	uint32_t id;
	int pos;
};

struct builder {
	const struct mesh_piece *pc;
	int g[3];           /* grid intervals per axis */
	int zones;          /* 1 when clearance > 0 (step 1) */
	unsigned char *fill; /* g0*g1*g2 boxes, 1 inside the solid */
	float *line[3];     /* g[a]+1 grid line coordinates per axis */
	uint32_t *vid;      /* per grid point: 0 or mesh vertex id + 1 */
	struct rect *rects;
	size_t nrects, rcap;
	struct bpt *pts;    /* boundary buffer of one rectangle */
	size_t pcap;
	struct mbuf *out;
	int sign;           /* orientation of the rectangle being emitted */
	uint32_t rgb;       /* colour of the rectangle being emitted */
	/* With cell colours only (pc->rgb), else all NULL: */
	int *cell_of[3];    /* g[a] entries: the bounding-box layer of the
			       cell each grid interval lies in */
	uint32_t *palette;  /* the piece's distinct colours, ascending */
	size_t npalette;
};

static int box_filled(const struct builder *b, int i, int j, int k)
{
	if (i < 0 || j < 0 || k < 0 || i >= b->g[0] || j >= b->g[1] || k >= b->g[2])
		return 0;
	return b->fill[(size_t)i + (size_t)b->g[0] * ((size_t)j + (size_t)b->g[1] * (size_t)k)];
}

static size_t point_index(const struct builder *b, const int c[3])
{
	return (size_t)c[0] + (size_t)(b->g[0] + 1) *
			      ((size_t)c[1] + (size_t)(b->g[1] + 1) * (size_t)c[2]);
}

/* Whether the 8 boxes around a grid point (bit dx + 2dy + 4dz set when
 * box (i-1+dx, j-1+dy, k-1+dz) is filled) leave a disk-shaped surface:
 * no diagonal pair around any of its 6 half-edges, and the filled and
 * the empty boxes each face-connected. */
static int mask_manifold(unsigned mask)
{
	if (mask == 0 || mask == 255)
		return 1;
	for (int a = 0; a < 3; a++)
		for (int s = 0; s < 2; s++) {
			/* the 4 octants with bit a equal to s */
			int o[4], n = 0;
			for (int m = 0; m < 8; m++)
				if (((m >> a) & 1) == s)
					o[n++] = (mask >> m) & 1;
			/* o[] in order of the two other bits: 00 01 10 11 */
			if (o[0] == o[3] && o[1] == o[2] && o[0] != o[1])
				return 0;
		}
	for (int want = 0; want < 2; want++) {
		unsigned set = want ? mask : ~mask & 255u, reach = 0;
		for (int m = 0; m < 8; m++)
			if (set >> m & 1) {
				reach = 1u << m;
				break;
			}
		for (int round = 0; round < 8; round++)
			for (int m = 0; m < 8; m++)
				if (reach >> m & 1)
					for (int a = 0; a < 3; a++) {
						int nb = m ^ (1 << a);
						if (set >> nb & 1)
							reach |= 1u << nb;
					}
		if (reach != set)
			return 0;
	}
	return 1;
}

/* Grid intervals along an axis of n cells (step 1). */
static int grid_intervals(int n, int zones)
{
	return zones ? 3 * n - 2 : n;
}

/* Interval I of an axis: its cell and zone (0 low, 1 core, 2 high). */
static void interval_zone(int zones, int I, int *cell, int *zone)
{
	if (zones) {
		*cell = (I + 1) / 3;
		*zone = (I + 1) % 3;
	} else {
		*cell = I;
		*zone = 1;
	}
}

/* The grid's boxes, 1 inside the solid, in '*out' (malloc'ed, g[0] *
 * g[1] * g[2], x fastest). MESH_ERANGE, MESH_ENOMEM. */
static int fill_grid(const struct mesh_piece *pc, int zones, int g[3],
		     unsigned char **out)
{
	for (int a = 0; a < 3; a++) {
		if (pc->n[a] > (INT_MAX - 2) / 3)
			return MESH_ERANGE;
		g[a] = grid_intervals(pc->n[a], zones);
	}
	size_t nbox = cell_count(g[0], g[1], g[2]);
	if (nbox == 0 || cell_count(g[0] + 1, g[1] + 1, g[2] + 1) == 0)
		return MESH_ERANGE;
	unsigned char *fill = malloc(nbox);
	if (!fill)
		return MESH_ENOMEM;
	int I[3], c[3], zone[3];
	for (I[2] = 0; I[2] < g[2]; I[2]++)
		for (I[1] = 0; I[1] < g[1]; I[1]++)
			for (I[0] = 0; I[0] < g[0]; I[0]++) {
				for (int a = 0; a < 3; a++)
					interval_zone(zones, I[a], &c[a], &zone[a]);
				int f = mesh_piece_cell(pc, c[0], c[1], c[2]), corner = 1;
				for (int a = 0; a < 3 && f; a++) {
					corner &= zone[a] != 1;
					if (zone[a] == 1)
						continue;
					int d[3] = {c[0], c[1], c[2]};
					d[a] += zone[a] - 1; /* the neighbour across */
					f = mesh_piece_cell(pc, d[0], d[1], d[2]);
				}
				/* a corner block at a notched corner (mesh_piece_notch()) */
				if (f && corner)
					f = !mesh_piece_notch(pc, c[0] + zone[0] / 2,
							      c[1] + zone[1] / 2,
							      c[2] + zone[2] / 2);
				fill[(size_t)I[0] + (size_t)g[0] * ((size_t)I[1] + (size_t)g[1] * (size_t)I[2])] =
					(unsigned char)f;
			}
	*out = fill;
	return MESH_OK;
}

int mesh_piece_notch(const struct mesh_piece *p, int x, int y, int z)
{
	int missing[8], n = 0;
	for (int k = 0; k < 8; k++)
		if (!mesh_piece_cell(p, x - 1 + (k & 1), y - 1 + (k >> 1 & 1),
				     z - 1 + (k >> 2))) {
			if (n == 2)
				return 0;
			missing[n++] = k;
		}
	if (n != 2)
		return 0;
	/* bit a of k is the side along axis a: a face diagonal differs in
	 * two of them */
	int d = missing[0] ^ missing[1];
	return d == 3 || d == 5 || d == 6;
}

size_t mesh_piece_notches(const struct mesh_piece *p)
{
	size_t count = 0;
	/* 6 cells around a notch: it lies inside the bounding box */
	for (int z = 1; z < p->n[2]; z++)
		for (int y = 1; y < p->n[1]; y++)
			for (int x = 1; x < p->n[0]; x++)
				count += (size_t)mesh_piece_notch(p, x, y, z);
	return count;
}

/* Bit c of 'col' (c = 0..3) to bit 2c. */
static unsigned spread(unsigned col)
{
	return (col & 1) | (col & 2) << 1 | (col & 4) << 2 | (col & 8) << 3;
}

/* Step 2: MESH_ENONMANIFOLD unless every grid point passes. The point
 * masks are built a column of 4 boxes at a time along x, and each
 * distinct mask is judged once (a piece has few). */
static int grid_manifold(const int g[3], const unsigned char *fill)
{
	unsigned char memo[256] = {0}; /* 0 not judged yet, 1 ok, 2 not */
	for (int k = 0; k <= g[2]; k++)
		for (int j = 0; j <= g[1]; j++) {
			/* rows of boxes around the line: dy + 2 dz, NULL outside */
			const unsigned char *row[4];
			for (int r = 0; r < 4; r++) {
				int y = j - 1 + (r & 1), z = k - 1 + (r >> 1);
				row[r] = y >= 0 && z >= 0 && y < g[1] && z < g[2]
						 ? fill + (size_t)g[0] * ((size_t)y + (size_t)g[1] * (size_t)z)
						 : NULL;
			}
			unsigned prev = 0; /* the column at x = i - 1 */
			for (int i = 0; i <= g[0]; i++) {
				unsigned col = 0;
				for (int r = 0; r < 4; r++)
					if (row[r] && i < g[0] && row[r][i])
						col |= 1u << r;
				unsigned mask = spread(prev) | spread(col) << 1;
				prev = col;
				if (!memo[mask])
					memo[mask] = mask_manifold(mask) ? 1 : 2;
				if (memo[mask] == 2)
					return MESH_ENONMANIFOLD;
			}
		}
	return MESH_OK;
}

int mesh_piece_manifold(const struct mesh_piece *p, double clearance)
{
	int g[3];
	unsigned char *fill;
	int rc = fill_grid(p, clearance > 0, g, &fill);
	if (rc != MESH_OK)
		return rc;
	rc = grid_manifold(g, fill);
	free(fill);
	return rc;
}

/* The base grid's line L along axis a (step 1), before the move. */
static double base_line(const struct mesh_piece *pc, const struct mesh_size *sz,
			int zones, int a, int L)
{
	/* line L starts interval L (ends the last one): a low zone at the
	 * cell boundary (k = c, t = 1), a core (k = c, t = 0), a high zone
	 * (k = c + 1, t = 2) */
	int c, zone;
	interval_zone(zones, L, &c, &zone);
	int k = zone == 2 ? c + 1 : c, t = zone == 0 ? 1 : zone == 1 ? 0 : 2;
	return mesh_piece_pos(pc, sz, a, k) - t * (sz->clearance / 2);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

/*
 * Step 1 with cuts (the label's strokes): every cut side inside the solid's
 * range becomes a grid line too. The lines are rounded to float first and
 * equal floats merged, so no interval is empty in the mesh; each interval
 * then takes the base box its midpoint lies in, and is emptied where a cut
 * holds its midpoint on all three axes. Without cuts the grid is the base
 * grid, line for line.
 */
static int cut_grid(struct builder *b, const struct mesh_size *sz,
		    const double origin[3], const int gb[3],
		    const unsigned char *base, const struct mesh_cut *cut,
		    size_t ncut)
{
	assert(ncut <= 64); /* one bit per cut */
	uint64_t *mask[3] = {NULL, NULL, NULL};
	int *from[3] = {NULL, NULL, NULL};
	float *bf = NULL;
	int rc = MESH_OK;
	for (int a = 0; a < 3 && rc == MESH_OK; a++) {
		/* the base lines, then the cut sides inside them, as floats:
		 * every interval of the merged grid lies between two of them,
		 * so comparing its midpoint with them classifies it exactly */
		size_t nb = (size_t)gb[a] + 1, cap = nb + 2 * ncut;
		float *f = malloc(cap * sizeof *f);
		free(bf);
		bf = malloc(nb * sizeof *bf);
		if (!f || !bf) {
			free(f);
			rc = MESH_ENOMEM;
			break;
		}
		for (size_t L = 0; L < nb; L++) {
			bf[L] = (float)(origin[a] + base_line(b->pc, sz, b->zones, a, (int)L));
			if (!isfinite(bf[L]) || (L > 0 && !(bf[L] > bf[L - 1])))
				rc = MESH_ERANGE;
		}
		memcpy(f, bf, nb * sizeof *f);
		size_t n = nb;
		float clo[64], chi[64];
		for (size_t k = 0; k < ncut; k++) {
			clo[k] = (float)(origin[a] + cut[k].lo[a]);
			chi[k] = (float)(origin[a] + cut[k].hi[a]);
			if (clo[k] > bf[0] && clo[k] < bf[nb - 1])
				f[n++] = clo[k];
			if (chi[k] > bf[0] && chi[k] < bf[nb - 1])
				f[n++] = chi[k];
		}
		qsort(f, n, sizeof *f, cmp_float);
		size_t u = 0;
		for (size_t k = 0; k < n; k++)
			if (u == 0 || f[k] != f[u - 1])
				f[u++] = f[k];
		b->line[a] = f;
		if (u < 2 || rc != MESH_OK) {
			rc = MESH_ERANGE;
			break;
		}
		b->g[a] = (int)u - 1;
		mask[a] = calloc((size_t)b->g[a], sizeof *mask[a]);
		from[a] = malloc((size_t)b->g[a] * sizeof *from[a]);
		if (b->pc->rgb)
			b->cell_of[a] = malloc((size_t)b->g[a] * sizeof *b->cell_of[a]);
		if (!mask[a] || !from[a] || (b->pc->rgb && !b->cell_of[a])) {
			rc = MESH_ENOMEM;
			break;
		}
		int I = 0;
		for (int j = 0; j < b->g[a]; j++) {
			double mid = ((double)f[j] + (double)f[j + 1]) / 2;
			while (I + 1 < gb[a] && !(mid < bf[I + 1]))
				I++;
			from[a][j] = I;
			if (b->cell_of[a]) {
				int zone;
				interval_zone(b->zones, I, &b->cell_of[a][j], &zone);
			}
			for (size_t k = 0; k < ncut; k++)
				if (mid > clo[k] && mid < chi[k])
					mask[a][j] |= (uint64_t)1 << k;
		}
	}
	free(bf);
	size_t nbox = rc == MESH_OK ? cell_count(b->g[0], b->g[1], b->g[2]) : 0;
	if (rc == MESH_OK && (nbox == 0 || cell_count(b->g[0] + 1, b->g[1] + 1, b->g[2] + 1) == 0))
		rc = MESH_ERANGE;
	if (rc == MESH_OK && !(b->fill = malloc(nbox)))
		rc = MESH_ENOMEM;
	for (int k = 0; k < b->g[2] && rc == MESH_OK; k++)
		for (int j = 0; j < b->g[1]; j++)
			for (int i = 0; i < b->g[0]; i++) {
				size_t at = (size_t)from[0][i] + (size_t)gb[0] *
					((size_t)from[1][j] + (size_t)gb[1] * (size_t)from[2][k]);
				int in = base[at] && !(mask[0][i] & mask[1][j] & mask[2][k]);
				b->fill[(size_t)i + (size_t)b->g[0] * ((size_t)j + (size_t)b->g[1] * (size_t)k)] =
					(unsigned char)in;
			}
	for (int a = 0; a < 3; a++) {
		free(mask[a]);
		free(from[a]);
	}
	return rc;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* The piece's distinct cell colours, ascending, into b->palette: a face's
 * key in find_rects() is its colour's place there. */
static int build_palette(struct builder *b)
{
	const struct mesh_piece *pc = b->pc;
	size_t n = (size_t)pc->n[0] * (size_t)pc->n[1] * (size_t)pc->n[2], k = 0;
	if (n > SIZE_MAX / sizeof *b->palette)
		return MESH_ERANGE;
	uint32_t *pal = malloc(n * sizeof *pal);
	if (!pal)
		return MESH_ENOMEM;
	for (int z = 0; z < pc->n[2]; z++)
		for (int y = 0; y < pc->n[1]; y++)
			for (int x = 0; x < pc->n[0]; x++)
				if (mesh_piece_cell(pc, x, y, z))
					pal[k++] = pc->rgb[mesh_piece_index(pc, x, y, z)];
	qsort(pal, k, sizeof *pal, cmp_u32);
	size_t u = 0;
	for (size_t i = 0; i < k; i++)
		if (u == 0 || pal[i] != pal[u - 1])
			pal[u++] = pal[i];
	b->palette = pal;
	b->npalette = u;
	return MESH_OK;
}

/* Step 1: the grid lines (moved by 'origin') and the filled boxes, with
 * the cuts taken out. */
static int build_grid(struct builder *b, const struct mesh_size *sz,
		      const double origin[3], const struct mesh_cut *cut,
		      size_t ncut)
{
	b->zones = sz->clearance > 0;
	int gb[3];
	unsigned char *base;
	int rc = fill_grid(b->pc, b->zones, gb, &base);
	if (rc != MESH_OK)
		return rc;
	if (ncut > 0) {
		rc = cut_grid(b, sz, origin, gb, base, cut, ncut);
		free(base);
		if (rc != MESH_OK)
			return rc;
	} else {
		b->fill = base;
		for (int a = 0; a < 3; a++) {
			b->g[a] = gb[a];
			b->line[a] = malloc(((size_t)b->g[a] + 1) * sizeof *b->line[a]);
			if (!b->line[a])
				return MESH_ENOMEM;
			for (int L = 0; L <= b->g[a]; L++) {
				double v = base_line(b->pc, sz, b->zones, a, L);
				float f = (float)(origin[a] + v);
				if (!isfinite(f) || (L > 0 && !(f > b->line[a][L - 1])))
					return MESH_ERANGE;
				b->line[a][L] = f;
			}
			if (!b->pc->rgb)
				continue;
			b->cell_of[a] = malloc((size_t)b->g[a] * sizeof *b->cell_of[a]);
			if (!b->cell_of[a])
				return MESH_ENOMEM;
			for (int I = 0; I < b->g[a]; I++) {
				int zone;
				interval_zone(b->zones, I, &b->cell_of[a][I], &zone);
			}
		}
	}
	if (b->pc->rgb) {
		int rc2 = build_palette(b);
		if (rc2 != MESH_OK)
			return rc2;
	}
	size_t npts = cell_count(b->g[0] + 1, b->g[1] + 1, b->g[2] + 1);
	if (npts > SIZE_MAX / sizeof *b->vid)
		return MESH_ERANGE;
	b->vid = calloc(npts, sizeof *b->vid);
	if (!b->vid)
		return MESH_ENOMEM;
	return MESH_OK;
}

/* A rectangle of faces within one plane: [u0, u1) x [v0, v1), label s
 * (the sign times the colour key). */
struct prect {
	int u0, u1, v0, v1;
	int32_t s;
};

/* Greedy merge of a gu x gv label array (0: no face, else the sign times
 * the face's colour key, 1 without colours): from the first unused face
 * in row order, grow along u, then along v while whole rows match. 'work'
 * (gu*gv) is scratch; returns the count. */
static size_t greedy(const int32_t *lab, int gu, int gv, int32_t *work,
		     struct prect *out)
{
	size_t n = 0;
	memcpy(work, lab, (size_t)gu * (size_t)gv * sizeof *work);
	for (int v = 0; v < gv; v++)
		for (int u = 0; u < gu; u++) {
			int32_t s = work[u + (size_t)gu * v];
			if (!s)
				continue;
			int u1 = u + 1, v1 = v + 1;
			while (u1 < gu && work[u1 + (size_t)gu * v] == s)
				u1++;
			for (; v1 < gv; v1++) {
				int x = u;
				while (x < u1 && work[x + (size_t)gu * v1] == s)
					x++;
				if (x < u1)
					break;
			}
			for (int y = v; y < v1; y++)
				memset(work + u + (size_t)gu * y, 0,
				       (size_t)(u1 - u) * sizeof *work);
			out[n++] = (struct prect){u, u1, v, v1, s};
			u = u1 - 1;
		}
	return n;
}

/* Whether grid point (i, j) is a corner of the region of label s: around
 * it 1 or 3 faces of that label, or 2 diagonal ones. Any other rectangle
 * corner is a cut ending on a straight side or inside the region, a
 * vertex the polygon itself would not need. */
static int region_corner(const int32_t *lab, int gu, int gv, int32_t s, int i,
			 int j)
{
	int q[4], n = 0;
	for (int k = 0; k < 4; k++) {
		int u = i - 1 + (k & 1), v = j - 1 + (k >> 1);
		q[k] = u >= 0 && v >= 0 && u < gu && v < gv && lab[u + (size_t)gu * v] == s;
		n += q[k];
	}
	return n == 1 || n == 3 || (n == 2 && q[0] == q[3]);
}

static size_t extra_corners(const int32_t *lab, int gu, int gv,
			    const struct prect *r, size_t n)
{
	size_t bad = 0;
	for (size_t k = 0; k < n; k++) {
		bad += !region_corner(lab, gu, gv, r[k].s, r[k].u0, r[k].v0);
		bad += !region_corner(lab, gu, gv, r[k].s, r[k].u1, r[k].v0);
		bad += !region_corner(lab, gu, gv, r[k].s, r[k].u0, r[k].v1);
		bad += !region_corner(lab, gu, gv, r[k].s, r[k].u1, r[k].v1);
	}
	return bad;
}

/* The colour key (1 + its place in the palette) of the cell grid box c
 * lies in. */
static int32_t face_key(const struct builder *b, const int c[3])
{
	const struct mesh_piece *pc = b->pc;
	uint32_t rgb = pc->rgb[mesh_piece_index(pc, b->cell_of[0][c[0]],
						 b->cell_of[1][c[1]],
						 b->cell_of[2][c[2]])];
	const uint32_t *at = bsearch(&rgb, b->palette, b->npalette,
				     sizeof *b->palette, cmp_u32);
	assert(at);
	return (int32_t)(at - b->palette) + 1;
}

/* Step 3: merge each plane's faces into rectangles and mark their
 * corners as mesh vertices. Each plane is merged along u first and along
 * v first; the one with fewer corners that are not corners of the
 * faces' polygon wins (each such corner is an extra vertex, and costs
 * triangles here and in the faces meeting there). */
static int find_rects(struct builder *b)
{
	size_t lcap = 0;
	for (int a = 0; a < 3; a++) {
		size_t s = (size_t)b->g[(a + 1) % 3] * (size_t)b->g[(a + 2) % 3];
		if (s > lcap)
			lcap = s;
	}
	if (lcap > SIZE_MAX / sizeof(struct prect))
		return MESH_ERANGE;
	int32_t *lab = malloc(lcap * sizeof *lab), *labt = malloc(lcap * sizeof *labt);
	int32_t *work = malloc(lcap * sizeof *work);
	struct prect *r1 = malloc(lcap * sizeof *r1), *r2 = malloc(lcap * sizeof *r2);
	int rc = lab && labt && work && r1 && r2 ? MESH_OK : MESH_ENOMEM;
	for (int a = 0; a < 3 && rc == MESH_OK; a++) {
		int ub = (a + 1) % 3, vc = (a + 2) % 3;
		int gu = b->g[ub], gv = b->g[vc];
		for (int p = 0; p <= b->g[a] && rc == MESH_OK; p++) {
			int c[3];
			int any = 0;
			for (int v = 0; v < gv; v++)
				for (int u = 0; u < gu; u++) {
					c[ub] = u;
					c[vc] = v;
					c[a] = p;
					int in = box_filled(b, c[0], c[1], c[2]);
					c[a] = p - 1;
					int before = box_filled(b, c[0], c[1], c[2]);
					int32_t s = before - in;
					if (s && b->palette) {
						/* the filled box's cell's colour */
						c[a] = in ? p : p - 1;
						s *= face_key(b, c);
					}
					lab[u + (size_t)gu * v] = s;
					labt[v + (size_t)gv * u] = s;
					any |= s != 0;
				}
			if (!any)
				continue;
			size_t n1 = greedy(lab, gu, gv, work, r1);
			size_t n2 = greedy(labt, gv, gu, work, r2);
			for (size_t k = 0; k < n2; k++) /* back to (u, v) */
				r2[k] = (struct prect){r2[k].v0, r2[k].v1, r2[k].u0, r2[k].u1, r2[k].s};
			const struct prect *best = r1;
			size_t nb = n1;
			if (extra_corners(lab, gu, gv, r2, n2) < extra_corners(lab, gu, gv, r1, n1)) {
				best = r2;
				nb = n2;
			}
			void *r = b->rects;
			rc = reserve(&r, &b->rcap, b->nrects, nb, sizeof *b->rects);
			b->rects = r;
			if (rc != MESH_OK)
				break;
			for (size_t k = 0; k < nb; k++) {
				const struct prect *q = &best[k];
				int32_t key = q->s > 0 ? q->s : -q->s;
				b->rects[b->nrects++] = (struct rect){
					.axis = a, .plane = p, .sign = q->s > 0 ? 1 : -1,
					.u0 = q->u0, .u1 = q->u1, .v0 = q->v0, .v1 = q->v1,
					.rgb = b->palette ? b->palette[key - 1] : 0};
				int corner[4][2] = {{q->u0, q->v0}, {q->u1, q->v0},
						    {q->u1, q->v1}, {q->u0, q->v1}};
				c[a] = p;
				for (int k2 = 0; k2 < 4; k2++) {
					c[ub] = corner[k2][0];
					c[vc] = corner[k2][1];
					b->vid[point_index(b, c)] = 1;
				}
			}
		}
	}
	free(lab);
	free(labt);
	free(work);
	free(r1);
	free(r2);
	return rc;
}

/* Number the marked grid points in scan order (x fastest) and append them
 * as vertices. */
static int number_vertices(struct builder *b)
{
	struct mbuf *o = b->out;
	size_t base = o->m.nvertices, n = 0;
	size_t npts = cell_count(b->g[0] + 1, b->g[1] + 1, b->g[2] + 1);
	for (size_t i = 0; i < npts; i++)
		n += b->vid[i] != 0;
	if (base + n > UINT32_MAX - 1)
		return MESH_ERANGE;
	void *v = o->m.vertices;
	int rc = reserve(&v, &o->vcap, base, n, sizeof *o->m.vertices);
	o->m.vertices = v;
	if (rc != MESH_OK)
		return rc;
	int c[3];
	size_t id = base;
	for (c[2] = 0; c[2] <= b->g[2]; c[2]++)
		for (c[1] = 0; c[1] <= b->g[1]; c[1]++)
			for (c[0] = 0; c[0] <= b->g[0]; c[0]++) {
				size_t i = point_index(b, c);
				if (!b->vid[i])
					continue;
				for (int a = 0; a < 3; a++)
					o->m.vertices[id][a] = b->line[a][c[a]];
				b->vid[i] = (uint32_t)(id + 1);
				id++;
			}
	o->m.nvertices = id;
	return MESH_OK;
}

/* Emit a triangle counter-clockwise in the rectangle's (u, v) plane,
 * flipped when the rectangle faces -axis. */
static int tri(struct builder *b, uint32_t p, uint32_t q, uint32_t r)
{
	return b->sign > 0 ? add_triangle(b->out, p, q, r, b->rgb)
			   : add_triangle(b->out, p, r, q, b->rgb);
}

/* Fan from 'apex' over the chain q[0..n-1]. */
static int fan(struct builder *b, uint32_t apex, const uint32_t *q, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		int rc = tri(b, apex, q[i], q[i + 1]);
		if (rc != MESH_OK)
			return rc;
	}
	return MESH_OK;
}

/*
 * Triangulate one rectangle given its corners c[0..3] (counter-clockwise
 * from (u0, v0)) and, per side k (from c[k] to c[k+1]), the mesh vertices
 * strictly inside it in counter-clockwise order: side[k][0..len[k]-1].
 * A triangle is degenerate only if its three vertices lie on one side, so:
 *  - if some corner has no points on its two sides, fan from it (every
 *    fan triangle takes its far edge from the two other sides);
 *  - otherwise two opposite sides, "bottom" and "top", both have points
 *    (if the bottom had none, both corners on it would need points on
 *    the left and right sides). Fan from the first bottom point over the
 *    left side, from the last one over the right side, and zip the
 *    bottom and top points together in between; every triangle then has
 *    vertices on two different parallel sides, or on two sides and the
 *    apex off both.
 * Both give k - 2 triangles for k boundary vertices.
 */
static int rect_triangulate(struct builder *b, const uint32_t c[4],
			    const struct bpt *const side[4], const size_t len[4],
			    uint32_t *chain)
{
	for (int k = 0; k < 4; k++) {
		if (len[(k + 3) % 4] || len[k])
			continue;
		size_t n = 0;
		for (int s = 1; s <= 3; s++) {
			chain[n++] = c[(k + s) % 4];
			if (s < 3)
				for (size_t i = 0; i < len[(k + s) % 4]; i++)
					chain[n++] = side[(k + s) % 4][i].id;
		}
		return fan(b, c[k], chain, n);
	}
	int r = len[0] && len[2] ? 0 : 1;
	assert(len[r] && len[r + 2]);
	const struct bpt *bot = side[r], *top = side[r + 2];
	const struct bpt *right = side[r + 1], *left = side[(r + 3) % 4];
	size_t m = len[r], n = len[r + 2], nr = len[r + 1], nl = len[(r + 3) % 4];
	uint32_t BL = c[r], BR = c[r + 1], TR = c[r + 2], TL = c[(r + 3) % 4];
	/* top points left to right are top[n-1] ... top[0] */
	size_t k = 0;
	chain[k++] = top[n - 1].id;
	chain[k++] = TL;
	for (size_t i = 0; i < nl; i++)
		chain[k++] = left[i].id;
	chain[k++] = BL;
	int rc = fan(b, bot[0].id, chain, k);
	if (rc != MESH_OK)
		return rc;
	k = 0;
	chain[k++] = BR;
	for (size_t i = 0; i < nr; i++)
		chain[k++] = right[i].id;
	chain[k++] = TR;
	chain[k++] = top[0].id;
	rc = fan(b, bot[m - 1].id, chain, k);
	/* zip: bottom i = 0..m-1 ascending, top j = 0..n-1 ascending (top[n-1-j]).
	 * Positions along the bottom's direction decide which side advances,
	 * for well-shaped triangles; any order would be valid. */
	size_t i = 0, j = 0;
	while (rc == MESH_OK && (i + 1 < m || j + 1 < n)) {
		const struct bpt *tj = &top[n - 1 - j];
		if (j + 1 == n || (i + 1 < m && bot[i + 1].pos <= top[n - 2 - j].pos)) {
			rc = tri(b, bot[i].id, bot[i + 1].id, tj->id);
			i++;
		} else {
			rc = tri(b, bot[i].id, top[n - 2 - j].id, tj->id);
			j++;
		}
	}
	return rc;
}

/* Step 4: collect each rectangle's boundary vertices and triangulate. */
static int emit_rects(struct builder *b)
{
	uint32_t *chain = NULL;
	size_t ccap = 0;
	int rc = MESH_OK;
	for (size_t ri = 0; ri < b->nrects && rc == MESH_OK; ri++) {
		const struct rect *r = &b->rects[ri];
		int a = r->axis, ub = (a + 1) % 3, vc = (a + 2) % 3;
		size_t per = (size_t)(r->u1 - r->u0 + r->v1 - r->v0) * 2 + 8;
		void *p = b->pts;
		rc = reserve(&p, &b->pcap, 0, per, sizeof *b->pts);
		b->pts = p;
		if (rc != MESH_OK)
			break;
		p = chain;
		rc = reserve(&p, &ccap, 0, per, sizeof *chain);
		chain = p;
		if (rc != MESH_OK)
			break;
		int c[3];
		c[a] = r->plane;
		/* corners and walks: start (u, v), step (du, dv), steps */
		const int start[4][2] = {{r->u0, r->v0}, {r->u1, r->v0},
					 {r->u1, r->v1}, {r->u0, r->v1}};
		const int step[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
		const int steps[4] = {r->u1 - r->u0, r->v1 - r->v0,
				      r->u1 - r->u0, r->v1 - r->v0};
		uint32_t corner[4];
		const struct bpt *side[4];
		size_t len[4], used = 0;
		for (int k = 0; k < 4; k++) {
			c[ub] = start[k][0];
			c[vc] = start[k][1];
			corner[k] = b->vid[point_index(b, c)] - 1;
			side[k] = b->pts + used;
			len[k] = 0;
			for (int s = 1; s < steps[k]; s++) {
				c[ub] = start[k][0] + s * step[k][0];
				c[vc] = start[k][1] + s * step[k][1];
				uint32_t v = b->vid[point_index(b, c)];
				if (v)
					b->pts[used + len[k]++] = (struct bpt){
						v - 1, (k & 1) ? c[vc] : c[ub]};
			}
			used += len[k];
		}
		b->sign = r->sign;
		b->rgb = r->rgb;
		rc = rect_triangulate(b, corner, side, len, chain);
	}
	free(chain);
	return rc;
}

static void builder_free(struct builder *b)
{
	for (int a = 0; a < 3; a++) {
		free(b->line[a]);
		free(b->cell_of[a]);
	}
	free(b->palette);
	free(b->fill);
	free(b->vid);
	free(b->rects);
	free(b->pts);
}

/* Append the piece's solid, moved by 'origin', to 'out'. On failure 'out'
 * may hold a partial piece; callers discard it. */
static int build_piece(const struct mesh_piece *pc, const struct mesh_size *sz,
		       const double origin[3], struct mbuf *out)
{
	struct builder b = {.pc = pc, .out = out};
	struct mesh_cut cut[MESH_LABEL_STROKES];
	size_t ncut;
	double height, area;
	int rc = mesh_label_cuts(pc, sz, cut, &ncut, &height, &area);
	if (rc == MESH_OK)
		rc = build_grid(&b, sz, origin, cut, ncut);
	if (rc == MESH_OK)
		rc = grid_manifold(b.g, b.fill);
	if (rc == MESH_OK)
		rc = find_rects(&b);
	if (rc == MESH_OK)
		rc = number_vertices(&b);
	if (rc == MESH_OK)
		rc = emit_rects(&b);
	builder_free(&b);
	return rc;
}

static void mbuf_free(struct mbuf *b)
{
	free(b->m.vertices);
	free(b->m.triangles);
	free(b->rgb);
}

/* Move the built mesh into a heap struct mesh with exact-size arrays. */
static int mbuf_finish(struct mbuf *b, struct mesh **out)
{
	struct mesh *m = malloc(sizeof *m);
	if (!m) {
		mbuf_free(b);
		return MESH_ENOMEM;
	}
	*m = b->m;
	/* shrinking never fails in practice; keep the old block if it does */
	void *v = realloc(m->vertices, (m->nvertices ? m->nvertices : 1) * sizeof *m->vertices);
	if (v)
		m->vertices = v;
	void *t = realloc(m->triangles, (m->ntriangles ? m->ntriangles : 1) * sizeof *m->triangles);
	if (t)
		m->triangles = t;
	*out = m;
	return MESH_OK;
}

/* mesh_build() and mesh_build_coloured(): rgb and tri_rgb both NULL or
 * both not. */
static int build_one(const struct mesh_spec *s, const uint32_t *rgb,
		     const struct mesh_size *sz, struct mesh **out,
		     uint32_t **tri_rgb)
{
	struct mesh_piece pc;
	int rc = mesh_piece_init_spec(&pc, s, sz);
	if (rc != MESH_OK)
		return rc;
	pc.rgb = rgb;
	struct mbuf b = {.colours = rgb != NULL};
	const double origin[3] = {0, 0, 0};
	rc = build_piece(&pc, sz, origin, &b);
	if (rc != MESH_OK) {
		mbuf_free(&b);
		return rc;
	}
	uint32_t *colours = b.rgb;
	b.rgb = NULL;
	rc = mbuf_finish(&b, out);
	if (rc != MESH_OK) {
		free(colours);
		return rc;
	}
	if (tri_rgb)
		*tri_rgb = colours;
	return MESH_OK;
}

int mesh_build(const struct mesh_spec *s, const struct mesh_size *sz,
	       struct mesh **out)
{
	assert(s && sz && out);
	return build_one(s, NULL, sz, out, NULL);
}

int mesh_build_coloured(const struct mesh_spec *s, const uint32_t *rgb,
			const struct mesh_size *sz, struct mesh **out,
			uint32_t **tri_rgb)
{
	assert(s && rgb && sz && out && tri_rgb);
	return build_one(s, rgb, sz, out, tri_rgb);
}

int mesh_from_cells(const unsigned char *cells, int nx, int ny, int nz,
		    double unit, double clearance, struct mesh **out)
{
	assert(cells && out);
	struct mesh_spec s = {.cells = cells, .dims = {nx, ny, nz}};
	struct mesh_size sz = {unit, unit, clearance};
	return mesh_build(&s, &sz, out);
}

/* ---- plates ------------------------------------------------------------------ */

void mesh_plate_layout(const struct mesh_piece *pieces, size_t count,
		       struct mesh_place *place)
{
	assert(count >= 1);
	size_t cols = 1;
	while (cols * cols < count)
		cols++;
	size_t rows = (count + cols - 1) / cols;
	long sx = 0, wx = 0;
	for (size_t col = 0; col < cols; col++) {
		long nu = 0, nw = 0;
		for (size_t i = col; i < count; i += cols) {
			long w, u;
			mesh_piece_layers(&pieces[i], 0, pieces[i].n[0], &w, &u);
			nu = u > nu ? u : nu;
			nw = w > nw ? w : nw;
		}
		for (size_t i = col; i < count; i += cols) {
			place[i].col = (int)col;
			place[i].sx = sx;
			place[i].wx = wx;
		}
		sx += nu;
		wx += nw;
	}
	long sy = 0, wy = 0;
	for (size_t row = 0; row < rows; row++) {
		long nu = 0, nw = 0;
		for (size_t i = row * cols; i < count && i < (row + 1) * cols; i++) {
			long w, u;
			mesh_piece_layers(&pieces[i], 1, pieces[i].n[1], &w, &u);
			nu = u > nu ? u : nu;
			nw = w > nw ? w : nw;
		}
		for (size_t i = row * cols; i < count && i < (row + 1) * cols; i++) {
			place[i].row = (int)row;
			place[i].sy = sy;
			place[i].wy = wy;
		}
		sy += nu;
		wy += nw;
	}
}

int mesh_build_plate(const struct mesh_spec *s, size_t count,
		     const struct mesh_size *sz, double gap_mm,
		     struct mesh **out, double (*origin)[3])
{
	return mesh_build_plate_coloured(s, NULL, count, sz, gap_mm, out, origin);
}

int mesh_build_plate_coloured(const struct mesh_spec *s,
			      const uint32_t *const *rgb, size_t count,
			      const struct mesh_size *sz, double gap_mm,
			      struct mesh **out, double (*origin)[3])
{
	assert(sz && out && (count == 0 || s));
	if (count == 0 || !(gap_mm > 0) || !isfinite(gap_mm) ||
	    count > SIZE_MAX / sizeof(struct mesh_piece))
		return MESH_EINVAL;
	/* zeroed: GCC cannot see that the pieces are all set before use */
	struct mesh_piece *pc = calloc(count, sizeof *pc);
	struct mesh_place *pl = malloc(count * sizeof *pl);
	double (*at)[3] = malloc(count * sizeof *at);
	struct mbuf b = {0};
	int rc = pc && pl && at ? MESH_OK : MESH_ENOMEM;
	for (size_t i = 0; i < count && rc == MESH_OK; i++) {
		rc = mesh_piece_init_spec(&pc[i], &s[i], sz);
		if (rgb)
			pc[i].rgb = rgb[i]; /* faces merged within a colour */
	}
	if (rc == MESH_OK)
		mesh_plate_layout(pc, count, pl);
	double c = sz->clearance;
	for (size_t i = 0; i < count && rc == MESH_OK; i++) {
		double *o = at[i];
		/* (the wall is not looked at without walls, as in mesh_piece_pos()) */
		o[0] = (pl[i].wx ? pl[i].wx * sz->wall : 0) + pl[i].sx * sz->unit +
		       pl[i].col * (gap_mm - c);
		o[1] = (pl[i].wy ? pl[i].wy * sz->wall : 0) + pl[i].sy * sz->unit +
		       pl[i].row * (gap_mm - c);
		o[2] = 0;
		/* The gap must survive rounding to float, or neighbours
		 * would share faces: the first float past this piece's
		 * column/row must be strictly below the next one's start. */
		for (int a = 0; a < 2; a++) {
			double end = o[a] + (mesh_piece_pos(&pc[i], sz, a, pc[i].n[a]) - c);
			if (!((float)end < (float)(end + gap_mm)))
				rc = MESH_ERANGE;
		}
		if (rc == MESH_OK)
			rc = build_piece(&pc[i], sz, o, &b);
	}
	if (rc == MESH_OK && origin)
		memcpy(origin, at, count * sizeof *at);
	free(pc);
	free(pl);
	free(at);
	if (rc != MESH_OK) {
		mbuf_free(&b);
		return rc;
	}
	return mbuf_finish(&b, out);
}

int mesh_specs_from_cells(const unsigned char *const *cells,
			  const int (*dims)[3], size_t count,
			  struct mesh_spec **out)
{
	if (count == 0 || count > SIZE_MAX / sizeof(struct mesh_spec))
		return MESH_EINVAL;
	struct mesh_spec *s = calloc(count, sizeof *s);
	if (!s)
		return MESH_ENOMEM;
	for (size_t i = 0; i < count; i++) {
		assert(cells[i]);
		s[i].cells = cells[i];
		memcpy(s[i].dims, dims[i], sizeof s[i].dims);
	}
	*out = s;
	return MESH_OK;
}

int mesh_plate(const unsigned char *const *cells, const int (*dims)[3],
	       size_t count, double unit, double clearance, double gap_mm,
	       struct mesh **out)
{
	assert(out && (count == 0 || (cells && dims)));
	struct mesh_spec *s;
	int rc = mesh_specs_from_cells(cells, dims, count, &s);
	if (rc != MESH_OK)
		return rc;
	struct mesh_size sz = {unit, unit, clearance};
	rc = mesh_build_plate(s, count, &sz, gap_mm, out, NULL);
	free(s);
	return rc;
}

int mesh_join(const struct mesh *const *m, const double (*origin)[3],
	      size_t count, struct mesh **out)
{
	assert(out && (count == 0 || (m && origin)));
	if (count == 0)
		return MESH_EINVAL;
	size_t nv = 0, nt = 0;
	for (size_t i = 0; i < count; i++) {
		assert(m[i]);
		if (m[i]->nvertices > UINT32_MAX - nv || m[i]->ntriangles > UINT32_MAX - nt)
			return MESH_ERANGE;
		nv += m[i]->nvertices;
		nt += m[i]->ntriangles;
	}
	struct mbuf b = {0};
	void *v = NULL, *t = NULL;
	int rc = reserve(&v, &b.vcap, 0, nv ? nv : 1, sizeof *b.m.vertices);
	b.m.vertices = v;
	if (rc == MESH_OK) {
		rc = reserve(&t, &b.tcap, 0, nt ? nt : 1, sizeof *b.m.triangles);
		b.m.triangles = t;
	}
	for (size_t i = 0; i < count && rc == MESH_OK; i++) {
		uint32_t base = (uint32_t)b.m.nvertices;
		for (size_t k = 0; k < m[i]->nvertices; k++) {
			float *p = b.m.vertices[b.m.nvertices++];
			for (int a = 0; a < 3; a++) {
				p[a] = (float)(m[i]->vertices[k][a] + origin[i][a]);
				if (!isfinite(p[a]))
					rc = MESH_ERANGE;
			}
		}
		for (size_t k = 0; k < m[i]->ntriangles; k++) {
			uint32_t *q = b.m.triangles[b.m.ntriangles++];
			for (int a = 0; a < 3; a++)
				q[a] = base + m[i]->triangles[k][a];
		}
	}
	if (rc != MESH_OK) {
		mbuf_free(&b);
		return rc;
	}
	return mbuf_finish(&b, out);
}

void mesh_free(struct mesh *m)
{
	if (!m)
		return;
	free(m->vertices);
	free(m->triangles);
	free(m);
}

size_t mesh_triangles(const struct mesh *m)
{
	assert(m);
	return m->ntriangles;
}
