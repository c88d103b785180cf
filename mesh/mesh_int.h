/*
 * mesh_int.h: internals shared by mesh.c, stl.c, stlcheck.c and scad.c.
 * Not part of the public API (tests of this module may use it).
 */
#ifndef CUBEGEN_MESH_INT_H
#define CUBEGEN_MESH_INT_H

#include <stddef.h>
#include <stdint.h>

#include "mesh/mesh.h"

/* A validated piece: the caller's cell array and the bounding box of its
 * set cells. Coordinates in the accessors are relative to the box. */
struct mesh_piece {
	const unsigned char *cells; /* caller's array, not owned */
	int dims[3];                /* nx, ny, nz of 'cells' */
	int lo[3];                  /* lowest set cell per axis */
	int n[3];                   /* size of the bounding box, each >= 1 */
};

/*
 * Check unit and clearance (unit > 0, 0 <= clearance < unit/2, both
 * finite), the dimensions, that there is at least one cell and that the
 * cells are 6-connected; fill '*p'. MESH_EINVAL, MESH_EDISCONNECTED,
 * MESH_ENOMEM; '*p' is written only on success.
 */
int mesh_piece_init(struct mesh_piece *p, const unsigned char *cells, int nx,
		    int ny, int nz, double unit, double clearance);

/* MESH_ENONMANIFOLD when the piece's solid for this clearance is not a
 * 2-manifold (exactly when mesh_from_cells() refuses it: see mesh.c, step
 * 2), MESH_OK when it is; MESH_ENOMEM, MESH_ERANGE. */
int mesh_piece_manifold(const struct mesh_piece *p, double clearance);

/* Whether bounding-box cell (x, y, z) is set; 0 outside the box. */
static inline int mesh_piece_cell(const struct mesh_piece *p, int x, int y,
				  int z)
{
	if (x < 0 || y < 0 || z < 0 || x >= p->n[0] || y >= p->n[1] ||
	    z >= p->n[2])
		return 0;
	size_t i = (size_t)(p->lo[0] + x) +
		   (size_t)p->dims[0] * ((size_t)(p->lo[1] + y) +
					 (size_t)p->dims[1] * (size_t)(p->lo[2] + z));
	return p->cells[i] != 0;
}

/* Where a piece goes on a build plate: its lowest corner is at
 * x = sx*unit + col*(gap - clearance), y = sy*unit + row*(gap - clearance),
 * z = 0. sx is the sum of the widths in cells of the columns before it. */
struct mesh_place {
	int col, row; /* grid position */
	long sx, sy;  /* cells of the columns / rows before it */
};

/* Lay out 'count' >= 1 pieces as mesh_plate() documents. */
void mesh_plate_layout(const struct mesh_piece *pieces, size_t count,
		       struct mesh_place *place);

/* A box of bounding-box cells, [lo, lo + n) per axis, and which of its
 * sides are inset by clearance/2: side s (0 low, 1 high) of axis a is
 * inset unless every cell across it belongs to the piece. */
struct mesh_box {
	int lo[3];
	int n[3];
	int inset[3][2]; /* 1 inset, 0 not */
};

/*
 * Boxes made only of the piece's cells, with their insets, whose inset
 * boxes' union is exactly the piece's solid (see scad.c); they may
 * overlap. '*out' is malloc'ed; MESH_ENOMEM.
 */
int mesh_cover_boxes(const struct mesh_piece *p, struct mesh_box **out,
		     size_t *count);

/* An STL file in memory, as read. */
struct mesh_stl {
	size_t nfacets;
	float (*facets)[12]; /* per facet: normal xyz, then 3 vertices xyz */
	int is_binary;       /* 1 binary, 0 ASCII */
	char header[81];     /* binary: the 80 header bytes, NUL-terminated */
};

/*
 * Read the binary or ASCII STL at 'path' into '*out' (caller frees with
 * mesh_stl_clear()). MESH_EIO (cannot open or read), MESH_EBADMESH (not
 * an STL: truncated, wrong size, bad ASCII) or MESH_ENOMEM, with a
 * sentence in 'problem' (size 'psize'); '*out' is written only on success.
 */
int mesh_read_stl(const char *path, struct mesh_stl *out, char *problem,
		  size_t psize);
void mesh_stl_clear(struct mesh_stl *s);

#endif
