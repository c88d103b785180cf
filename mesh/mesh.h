/*
 * mesh.h: printable solids from voxel pieces. Watertight triangle meshes,
 * binary STL, parametric OpenSCAD, and the product's own STL checks.
 *
 * Input. A piece is a dense box of cells, x fastest: cell (x, y, z) is
 * cells[x + nx * (y + ny * z)], nonzero for a cell of the piece, for
 * 0 <= x < nx, 0 <= y < ny, 0 <= z < nz. Only the bounding box of the set
 * cells matters (empty border planes are ignored). The cells of one piece
 * must be 6-connected (face to face).
 *
 * The solid (DESIGN.md §3). Each cell is a unit-mm cube (with walls,
 * see struct mesh_spec, a box as wide as its layer on each axis), inset by
 * h = clearance/2 on every face that is not glued to a cell of the same piece;
 * the solid is the union of these boxes. Precisely, with the cells of the
 * bounding box numbered from 0: cell (x, y, z) of the piece is the box
 * [x*unit + a, (x+1)*unit - b] x (the same for y and z), where on each
 * side a (or b) is h when the neighbour across that face is not a cell of
 * the piece and 0 when it is. Boxes of two cells meet only on a common
 * face. Two pieces that touch in the assembled puzzle keep a gap of
 * `clearance` between facing faces. At a concave corner of a piece the
 * cell glued on both sides keeps its full corner, a step of h x h along
 * the edge that its two neighbours, inset there, do not reach: a piece
 * nested in that corner passes it at h*sqrt(2).
 *
 * Notches. With a clearance, one corner of the cells needs more: where 6
 * of the 8 cells around a cell corner V are the piece's and the 2 missing
 * ones lie on a diagonal of a face of that 2 x 2 x 2 block (a full 2x2
 * layer with two diagonal cells on one side of it), the union of the
 * boxes would have two of its cells' corners meet only along an edge of
 * length h at V, which no printer or slicer can take. There the cube
 * [V - h, V + h]^3 is cut out of the solid: a notch of h x h x h in each
 * of those two corners, material taken away, so no gap between pieces
 * shrinks. Plates never have one (a notch needs cells in two layers).
 * The volume, the sum of the boxes' volumes less 2 h^3 per notch, is
 * mesh_expected_volume().
 *
 * When it is a manifold. With clearance > 0 the solid of every piece is a
 * 2-manifold, flat plates and 3D polycubes alike (proof in mesh.c). With
 * clearance 0 the solid is the plain polycube, which is not one when two
 * of its cells touch only along an edge or at a corner. Every writer
 * checks and refuses such a piece with MESH_ENONMANIFOLD rather than
 * write a bad solid.
 *
 * Coordinates are millimetres, the whole solid moved by -h so that its
 * lowest cells stand on z = 0 and its minimum x and y are 0: it lies in
 * [0, n_x*unit - clearance] x [0, n_y*unit - clearance] x
 * [0, n_z*unit - clearance], n_* being the size of the bounding box of its
 * cells. Vertices are stored as float, exactly what an STL holds.
 *
 * Ownership: functions returning a struct mesh ** allocate it; the caller
 * frees it with mesh_free(). Writers never close their FILE.
 *
 * Errors: functions return enum mesh_status (MESH_OK = 0); out-parameters
 * are written only on MESH_OK (mesh_verify_stl() also fills its report on
 * failure, that is its purpose). Nothing here prints or exits. Passing NULL
 * where an object is required is a caller bug and asserts.
 */
#ifndef CUBEGEN_MESH_H
#define CUBEGEN_MESH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum mesh_status {
	MESH_OK = 0,
	MESH_ENOMEM,        /* out of memory */
	MESH_EIO,           /* a file could not be opened, read or written */
	MESH_EINVAL,        /* bad argument: dims < 1, unit <= 0, clearance
			       outside [0, unit/2), gap <= 0, no pieces */
	MESH_EDISCONNECTED, /* the piece has no cells or they are not
			       6-connected */
	MESH_ENONMANIFOLD,  /* the piece's solid is not a 2-manifold (see the
			       top of this file; never with
			       clearance > 0) */
	MESH_ERANGE,        /* too large (more than 2^32-1 vertices or
			       triangles), or unit/clearance give coordinates
			       that float32 cannot keep apart */
	MESH_EBADMESH,      /* mesh_verify_stl(): the file is not a clean solid */
	MESH_ENOLIB,        /* mesh_3mf(): libzip could not be loaded */
};

/* A static English sentence for a status; never NULL. */
const char *mesh_strerror(int status);

/*
 * A closed, 2-manifold, outward-oriented triangle mesh without degenerate
 * triangles or T-junctions. Read-only for callers; all arrays owned.
 */
struct mesh {
	size_t nvertices;         /* number of vertices */
	size_t ntriangles;        /* number of triangles */
	float (*vertices)[3];     /* nvertices points (x, y, z), mm */
	uint32_t (*triangles)[3]; /* ntriangles vertex indexes, counter-
				     clockwise seen from outside */
};

/*
 * Mesh one piece (see the top of this file for the solid and where it
 * lies). Coplanar faces are merged into few large rectangles, so the
 * triangle count grows with the piece's outline, not with its cells.
 * On success '*out' is a new mesh the caller frees with mesh_free().
 * Fails with MESH_EINVAL, MESH_EDISCONNECTED, MESH_ENONMANIFOLD,
 * MESH_ERANGE or MESH_ENOMEM; '*out' is then untouched.
 */
int mesh_from_cells(const unsigned char *cells, int nx, int ny, int nz,
		    double unit, double clearance, struct mesh **out);

/*
 * A build plate: several pieces in one mesh, each placed as
 * mesh_from_cells() would and then moved into a grid of ceil(sqrt(count))
 * columns, piece i in column i % cols, row i / cols (row 0 at y = 0),
 * columns and rows 'gap_mm' apart, all on z = 0. cells[i] has dimensions
 * dims[i][0..2] (nx, ny, nz). Errors as mesh_from_cells() (each piece must
 * be valid on its own), and MESH_EINVAL for count == 0 or gap_mm <= 0.
 */
int mesh_plate(const unsigned char *const *cells, const int (*dims)[3],
	       size_t count, double unit, double clearance, double gap_mm,
	       struct mesh **out);

/* Free a mesh; NULL is fine. */
void mesh_free(struct mesh *m);

/* Number of triangles of 'm'. */
size_t mesh_triangles(const struct mesh *m);

/*
 * The exact volume in mm^3 of the solid of a piece, computed from the
 * cells (independently of the mesher): the cells' boxes meet only on
 * faces, so it is the sum over the cells of
 *     (unit - e_x h) (unit - e_y h) (unit - e_z h),
 * h = clearance/2, e_a the number (0, 1 or 2) of the cell's two faces
 * across axis a that are not glued to a cell of the piece, less 2 h^3
 * for each notch (above). Returns -1 for invalid arguments or a piece with no cells. Connectivity
 * and manifoldness are not checked.
 */
double mesh_expected_volume(const unsigned char *cells, int nx, int ny, int nz,
			    double unit, double clearance);

/*
 * Write 'm' as binary STL: an 80-byte header, a u32 facet count, then per
 * triangle its unit normal, three vertices (float32) and a zero u16,
 * little-endian on every host. The header is 'header_text' (NULL for
 * none) truncated or space-padded to 80 bytes, non-printable bytes
 * replaced by '?'; if it would start with "solid" (any case, after blanks)
 * it is prefixed with "STL ", so no reader takes the file for ASCII.
 * Flushes 'fp' but never closes it. MESH_EIO when a write fails (errno as
 * stdio left it), MESH_ERANGE for more than 2^32-1 triangles.
 */
int mesh_write_stl(FILE *fp, const struct mesh *m, const char *header_text);

/* What mesh_verify_stl() found. */
struct mesh_report {
	size_t triangles;  /* facets in the file (0 if it could not be read) */
	double volume;     /* signed volume from the file's vertices, mm^3 */
	char problem[160]; /* "" when clean, else the first problem found */
};

/*
 * Read the STL (binary, or ASCII starting with "solid") at 'path' and
 * check it the way cubegen checks its own files. First exactly, on the
 * float coordinates as stored: every coordinate finite and not -0.0, every
 * normal finite, no zero-area triangle, every edge used by exactly two
 * triangles in opposite directions (this also catches T-junctions and
 * solids touching along an edge), the triangles at every vertex forming a
 * single fan (catches solids touching at a corner), positive volume and,
 * if expected_volume >= 0, the volume equal to it within what float32
 * rounding of the coordinates can explain (|dV| <= A * R * 2^-23, A the
 * surface area, R the largest |coordinate|). Then libadmesh's checks: all
 * facets connected on 3 edges, no edges fixed, no facets reversed, no
 * backwards edges, and its volume after recomputing the normals equal to
 * ours within float32 summation error. A binary file whose header starts
 * with "solid" is refused (some readers take it for ASCII).
 * '*rep' is always filled. Returns MESH_OK when clean, MESH_EBADMESH with
 * rep->problem saying what is wrong, MESH_EIO when the file cannot be
 * opened or read (rep->problem says why), MESH_ENOMEM.
 */
int mesh_verify_stl(const char *path, double expected_volume,
		    struct mesh_report *rep);

/*
 * Write a standalone, parametric OpenSCAD file for one piece: `unit` and
 * `clearance` at the top as Customizer parameters with ranges, the cells
 * as data merged into a few boxes of cells, each with the sides that are
 * inset by clearance/2, and a module that builds the same solid as
 * mesh_from_cells() from them for any unit and clearance (the union of
 * the inset boxes, exactly the union of the cells' boxes; see scad.c).
 * 'title' (NULL for none) becomes a comment. Errors as mesh_from_cells(),
 * and MESH_EIO when a write fails; on any other error nothing has been
 * written to 'fp'. Flushes but never closes 'fp'.
 */
int mesh_write_scad(FILE *fp, const unsigned char *cells, int nx, int ny,
		    int nz, double unit, double clearance, const char *title);

/*
 * The same for a whole build plate laid out as mesh_plate() does, with
 * `gap` a third parameter: renders to the same solid as mesh_plate().
 */
int mesh_write_scad_plate(FILE *fp, const unsigned char *const *cells,
			  const int (*dims)[3], size_t count, double unit,
			  double clearance, double gap_mm, const char *title);

/* ---- pieces with walls and engraved numbers (DESIGN.md §3) ------------- */

/* Sizes in millimetres. Along each axis a layer of cells is `unit` wide,
 * or `wall` wide when the piece's spec flags it (the two outer layers of
 * a puzzle's box: see struct mesh_spec). Valid when all three are finite,
 * unit > 0, wall > 0 and 0 <= clearance < min(unit, wall) / 2 (wall only
 * matters when a layer is flagged). */
struct mesh_size {
	double unit;
	double wall;
	double clearance;
};

/* How deep a label is engraved, mm. */
#define MESH_LABEL_DEPTH 0.6
/* A label is 1 to MESH_LABEL_MAX decimal digits. */
#define MESH_LABEL_MAX 6

/*
 * One piece to print. cells as for mesh_from_cells() (dims[0..2] = nx, ny,
 * nz, x fastest). wall[a] is NULL (every layer along axis a is `unit`
 * wide) or dims[a] flags, nonzero for a layer `wall` mm wide: layer i
 * along x spans [pos(i), pos(i+1)] with pos(i) = nw*wall + nu*unit, nw
 * and nu the numbers of wall and unit layers before i (computed exactly
 * that way everywhere, .scad included). Only layers of the bounding box
 * of the set cells count (pos() is taken from its first layer).
 *
 * label (NULL or "" for none) is a number engraved MESH_LABEL_DEPTH deep
 * into the top face (largest z) as rectilinear strokes of a seven-segment
 * style font, as large as fits in the chosen rectangle of top cells (see
 * mesh_label_height()); a label containing 6 or 9 is underlined so it
 * reads the same way up whichever way the piece is turned. The strokes'
 * union is cut out of the solid: the mesh stays exact.
 */
struct mesh_spec {
	const unsigned char *cells;
	int dims[3];
	const unsigned char *wall[3];
	const char *label;
};

/*
 * mesh_from_cells() for a spec: the solid of its cells on its grid of
 * layers, each face not glued to a cell of the piece inset by
 * clearance/2, moved so its minimum corner is at the origin, minus the
 * label's strokes. MESH_EINVAL also for a label that is not 1 to
 * MESH_LABEL_MAX digits, or a top layer too thin for it (its width minus
 * the clearance must exceed MESH_LABEL_DEPTH). A label with no room at
 * all (mesh_label_height() 0) is left off silently: callers that care
 * ask mesh_label_height() first.
 */
int mesh_build(const struct mesh_spec *s, const struct mesh_size *sz,
	       struct mesh **out);

/*
 * Cell colours, for a 3MF that shows them (mesh_3mf_coloured()).
 * mesh_build() for spec 's' whose cells have the colours rgb[] (0xRRGGBB,
 * laid out like s->cells, read where a cell is set). The solid is the
 * same; only the merging of faces changes: faces of cells of different
 * colours are never merged into one rectangle, so every triangle lies on
 * the faces of cells of one colour, and '*tri_rgb' gets it, a malloc'ed
 * array of (*out)->ntriangles colours the caller frees with free(). (A
 * face of the solid belongs to the cell whose box it bounds; a label's
 * engraving to the top cell it is cut into.) A piece of one colour is
 * meshed exactly as mesh_build() meshes it, triangle for triangle; a
 * piece of several is triangulated differently (usually with more
 * triangles), still closed, manifold and exact (mesh.c, step 3). Errors
 * as mesh_build(); nothing is allocated then.
 */
int mesh_build_coloured(const struct mesh_spec *s, const uint32_t *rgb,
			const struct mesh_size *sz, struct mesh **out,
			uint32_t **tri_rgb);

/*
 * The exact volume of mesh_build()'s solid, computed independently of the
 * mesher: mesh_expected_volume()'s sum over the cells with their layer
 * widths, minus the area of the union of the label's strokes times
 * MESH_LABEL_DEPTH. Negative for invalid arguments or when out of memory
 * (callers tell them apart by mesh_build()).
 */
double mesh_spec_volume(const struct mesh_spec *s, const struct mesh_size *sz);

/*
 * The height in mm of the digits mesh_build() engraves (0 when the spec has
 * no label or no rectangle of top cells has room for it: digits under
 * MESH_LABEL_MIN mm are left off). The rectangle is chosen from the cells
 * alone, the same for every size: among the rectangles of cells of the top
 * layer, counting a layer's extent as 1 when it is a unit layer and 0 when
 * it is a wall layer, the one where the label (along x, or turned to read
 * along y) gets the largest scale; ties go to the one with fewer wall
 * layers, then to more cells, then to the first in scan order (lowest y,
 * then x, then the label along x). When every rectangle scores 0 (a top
 * of walls only) the walls count as 1 too. Then the label is scaled to fit that rectangle's
 * solid top, less a margin of clearance/2 + 1 mm on each side, and centred.
 * MESH_OK, MESH_EINVAL, MESH_ENOMEM.
 */
int mesh_label_height(const struct mesh_spec *s, const struct mesh_size *sz,
		      double *mm);
#define MESH_LABEL_MIN 2.0

/*
 * A build plate of specs, laid out as mesh_plate() does, except that a
 * column is as wide as the most wall layers and the most unit layers of
 * its pieces (so the layout is the same for every size; without walls,
 * its widest piece), and likewise a row; solids at least 'gap_mm' apart.
 * With no walls and no labels it is byte for byte mesh_plate(). origin[i] (may be NULL)
 * receives where piece i's mesh_build() mesh was moved to (its minimum
 * corner), so plate = the union of the pieces moved by origin[i].
 */
int mesh_build_plate(const struct mesh_spec *s, size_t count,
		     const struct mesh_size *sz, double gap_mm,
		     struct mesh **out, double (*origin)[3]);

/* mesh_build_plate() of pieces with cell colours: rgb NULL or 'count'
 * arrays, rgb[i] NULL or piece i's cell colours, meshed as
 * mesh_build_coloured() meshes it, so the plate is still the union of the
 * pieces' meshes moved (colours are not kept: a plate is for an STL). */
int mesh_build_plate_coloured(const struct mesh_spec *s,
			      const uint32_t *const *rgb, size_t count,
			      const struct mesh_size *sz, double gap_mm,
			      struct mesh **out, double (*origin)[3]);

/* Several meshes in one, mesh i moved by origin[i] (float sums); the
 * caller makes sure they do not touch. MESH_EINVAL (count 0), MESH_ERANGE,
 * MESH_ENOMEM. */
int mesh_join(const struct mesh *const *m, const double (*origin)[3],
	      size_t count, struct mesh **out);

/*
 * OpenSCAD for specs: mesh_write_scad() / mesh_write_scad_plate() with
 * `wall` added to the Customizer parameters when some piece has a wall
 * layer, and `labels` (true/false) when some piece has a label.
 * The file renders to mesh_build()'s (mesh_build_plate()'s) solid for any
 * unit, wall and clearance, labels included (the label's rectangle is
 * chosen from the cells, so it is the same for every size).
 */
int mesh_write_scad_spec(FILE *fp, const struct mesh_spec *s,
			 const struct mesh_size *sz, const char *title);
int mesh_write_scad_plate_spec(FILE *fp, const struct mesh_spec *s,
			       size_t count, const struct mesh_size *sz,
			       double gap_mm, const char *title);

/* One object of a 3MF file. */
struct mesh_object {
	const struct mesh *mesh;
	const char *name;  /* the object's name, e.g. "piece-1" */
	uint32_t rgb;      /* display colour 0xRRGGBB */
	double origin[3];  /* where the build places it, mm */
};

/*
 * A 3MF package (3MF Core Specification 1.x) in memory: millimetres, one
 * mesh object per entry with its name and colour, each placed on the
 * build plate by a translation to its origin. Deterministic: the same
 * objects give the same bytes (fixed timestamps, fixed order).
 * '*buf' is malloc'ed (the caller frees it). MESH_EINVAL (count 0),
 * MESH_ENOMEM, MESH_EIO (the ZIP library failed), MESH_ENOLIB (libzip,
 * loaded at the first call, could not be).
 */
int mesh_3mf(const struct mesh_object *obj, size_t count, const char *title,
	     unsigned char **buf, size_t *len);

/*
 * mesh_3mf() with triangle colours: tri_rgb is NULL or 'count' arrays,
 * tri_rgb[i] NULL or obj[i].mesh->ntriangles colours 0xRRGGBB (as
 * mesh_build_coloured() gives). An object whose triangles have colours
 * other than its own carries them triangle by triangle, as the core
 * specification's per-triangle properties (see threemf.c); a consumer
 * that ignores those shows the object's colour. With every tri_rgb NULL,
 * or equal to its object's colour, the bytes are mesh_3mf()'s.
 * MESH_EINVAL also for a triangle colour above 0xFFFFFF.
 */
int mesh_3mf_coloured(const struct mesh_object *obj,
		      const uint32_t *const *tri_rgb, size_t count,
		      const char *title, unsigned char **buf, size_t *len);

/* ---- viewer pages (page.c) ----------------------------------------------- */

/* One step of a solution page: after it the pieces show[0..nshow-1]
 * (indexes into the page's objects) are in place, and those of moving[]
 * among them slid in from 'from' mm away. */
struct mesh_page_step {
	const char *text;     /* the line the page shows for the step */
	const size_t *show;
	size_t nshow;
	const size_t *moving;
	size_t nmoving;
	double from[3];
	const double (*at)[3]; /* NULL, or per object (count) where the step
	                        * leaves it, in mm from where it is drawn: a
	                        * piece part way through a burr's slides */
};

/*
 * An HTML page of the 3D viewer (web/, embedded at build time): one
 * self-contained file, no network. The objects are drawn where their
 * origins put them, in their colours (tri_rgb as in mesh_3mf_coloured():
 * NULL, or per object NULL or a colour per triangle). With nsteps == 0
 * it is a pieces page: the objects, and nothing else in its data; else
 * a solution page with those steps (each step's indexes below count).
 * The data is JSON inside the page (coordinates in mm to 4 decimals),
 * the same objects giving the same bytes. MESH_EINVAL (count 0, an index
 * out of range, a colour above 0xFFFFFF), MESH_EIO (a write failed).
 */
int mesh_write_page(FILE *fp, const char *title, const struct mesh_object *obj,
		    const uint32_t *const *tri_rgb, size_t count,
		    const struct mesh_page_step *steps, size_t nsteps);

#endif
