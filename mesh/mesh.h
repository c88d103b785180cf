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
 * The solid (DESIGN.md §3). Each cell is a unit-mm cube; every face that is
 * not glued to a cell of the same piece moves inward by h = clearance/2.
 * Precisely, the solid is the piece shrunk by h: the set of points p whose
 * cube p + [-h, h]^3 lies inside the union of the piece's cells. Where two
 * exposed faces meet at a concave edge they meet cleanly, so two pieces
 * that touch in the assembled puzzle keep a gap of a full `clearance`
 * everywhere, corners included. (Insetting each cell's box on its own
 * exposed faces and taking the union of the boxes would leave an h-sized
 * notch in every concave edge, halve the gap there, and for some 3D pieces
 * make two notches touch along an edge: not a manifold solid.)
 * Its volume has a closed form, see mesh_expected_volume(). For
 * 0 < clearance < unit/2 the solid is always a 2-manifold; with clearance 0
 * it is the plain polycube, which is not a manifold when two of its cells
 * touch only along an edge or at a corner (MESH_ENONMANIFOLD).
 *
 * Coordinates are millimetres. A piece's solid lies in
 * [0, n_x*unit - clearance] x [0, n_y*unit - clearance] x
 * [0, n_z*unit - clearance], n_* being the size of the bounding box of its
 * cells: its lowest cells stand on z = 0, its minimum x and y are 0. Cell
 * (x, y, z) of the bounding box occupies, before the shrink, the cube
 * [x*unit - h, (x+1)*unit - h] and so on. Vertices are stored as float,
 * exactly what an STL holds.
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
	MESH_ENONMANIFOLD,  /* clearance 0 and two cells touch only along an
			       edge or at a corner */
	MESH_ERANGE,        /* too large (more than 2^32-1 vertices or
			       triangles), or unit/clearance give coordinates
			       that float32 cannot keep apart */
	MESH_EBADMESH,      /* mesh_verify_stl(): the file is not a clean solid */
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
 * The exact volume in mm^3 of the solid of a piece, computed in closed
 * form from the cells (independently of the mesher): with a = unit -
 * clearance and c = clearance,
 *     cells * a^3 + glued face pairs * c a^2
 *     + full 2x2 squares * c^2 a + full 2x2x2 blocks * c^3.
 * Returns -1 for invalid arguments or a piece with no cells. Connectivity
 * is not checked.
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
 * as data merged into a few boxes, and a module that builds the same solid
 * as mesh_from_cells() (the union of the boxes, each shrunk by clearance/2
 * on every side; the boxes cover every 2x2x2 block of the piece's cells,
 * which makes that union exactly the shrunk piece). 'title' (NULL for
 * none) becomes a comment. Errors as mesh_from_cells(), and MESH_EIO when
 * a write fails. Flushes but never closes 'fp'.
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

#endif
