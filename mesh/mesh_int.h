/*
 * mesh_int.h: internals shared by mesh.c, stl.c, stlcheck.c and scad.c.
 * Not part of the public API (tests of this module may use it).
 */
#ifndef CUBEGEN_MESH_INT_H
#define CUBEGEN_MESH_INT_H

#include <assert.h>
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
	const unsigned char *wall[3]; /* caller's layer flags (mesh_spec) or NULL */
	const char *label;          /* NULL when none */
	const uint32_t *rgb;        /* caller's cell colours (mesh_build_coloured()),
				       laid out like cells, or NULL */
};

/* Whether bounding-box layer i (0 <= i < n[a]) along axis a is a wall. */
static inline int mesh_piece_is_wall(const struct mesh_piece *p, int a, int i)
{
	return p->wall[a] && p->wall[a][p->lo[a] + i];
}

/* The wall and unit layers of the bounding box before layer k along axis
 * a (0 <= k <= n[a]). Inline here with the piece's other accessors, so
 * that label.c needs nothing from mesh.c: mesh.c calls label.c, never
 * the other way round. */
static inline void mesh_piece_layers(const struct mesh_piece *p, int a, int k,
				     long *nw, long *nu)
{
	assert(k >= 0 && k <= p->n[a]);
	long w = 0;
	for (int i = 0; i < k && p->wall[a]; i++)
		w += mesh_piece_is_wall(p, a, i);
	*nw = w;
	*nu = k - w;
}

/* Where layer boundary k of the bounding box lies along axis a, before
 * the -clearance/2 shift: nw*wall + nu*unit (struct mesh_spec). */
static inline double mesh_piece_pos(const struct mesh_piece *p,
				    const struct mesh_size *sz, int a, int k)
{
	long nw, nu;
	mesh_piece_layers(p, a, k, &nw, &nu);
	/* without walls the wall is not even looked at (it may be anything) */
	return nw ? (double)nw * sz->wall + (double)nu * sz->unit
		  : (double)nu * sz->unit;
}

/*
 * Validate a spec and its sizes and fill '*p' (see mesh_piece_init()):
 * MESH_EINVAL for bad sizes (struct mesh_size; the wall only when a
 * layer of the bounding box is flagged) or a bad label (not 1 to
 * MESH_LABEL_MAX digits; a top layer whose width less the clearance is
 * not above MESH_LABEL_DEPTH), MESH_EDISCONNECTED, MESH_ENOMEM.
 */
int mesh_piece_init_spec(struct mesh_piece *p, const struct mesh_spec *s,
			 const struct mesh_size *sz);

/* Specs without walls or labels for the old cells-and-dims API: '*out'
 * is calloc'ed (count >= 1), the caller frees it. MESH_EINVAL (count 0
 * or too large), MESH_ENOMEM. */
int mesh_specs_from_cells(const unsigned char *const *cells,
			  const int (*dims)[3], size_t count,
			  struct mesh_spec **out);

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

/* Whether the cell corner at bounding-box lattice point (x, y, z) is
 * notched (mesh.h, "Notches"): of the 8 cells around it exactly 6 are the
 * piece's, and the 2 missing ones lie on a diagonal of a face of the
 * 2 x 2 x 2 block. With a clearance the 8 corner blocks around such a
 * point are left out of the solid (mesh.c, step 1). */
int mesh_piece_notch(const struct mesh_piece *p, int x, int y, int z);

/* How many of the piece's cell corners are notched. */
size_t mesh_piece_notches(const struct mesh_piece *p);

/* The index in the caller's arrays (cells, rgb) of bounding-box cell
 * (x, y, z), which must lie in the box. */
static inline size_t mesh_piece_index(const struct mesh_piece *p, int x, int y,
				      int z)
{
	return (size_t)(p->lo[0] + x) +
	       (size_t)p->dims[0] * ((size_t)(p->lo[1] + y) +
				     (size_t)p->dims[1] * (size_t)(p->lo[2] + z));
}

/* Whether bounding-box cell (x, y, z) is set; 0 outside the box. */
static inline int mesh_piece_cell(const struct mesh_piece *p, int x, int y,
				  int z)
{
	if (x < 0 || y < 0 || z < 0 || x >= p->n[0] || y >= p->n[1] ||
	    z >= p->n[2])
		return 0;
	return p->cells[mesh_piece_index(p, x, y, z)] != 0;
}

/* Where a piece goes on a build plate: its lowest corner is at
 * x = wx*wall + sx*unit + col*(gap - clearance), y likewise with wy, sy
 * and row, z = 0. A column is as wide as the most wall layers and the
 * most unit layers of its pieces' bounding boxes (a bound on each piece's
 * width for every wall and unit, so the layout is the same for all
 * sizes); sx and wx sum those over the columns before it. Without walls
 * this is the widest piece in cells, as mesh_plate() documents. */
struct mesh_place {
	int col, row;   /* grid position */
	long sx, sy;    /* unit layers of the columns / rows before it */
	long wx, wy;    /* wall layers of the columns / rows before it */
};

/* Lay out 'count' >= 1 pieces as mesh_plate() documents. */
void mesh_plate_layout(const struct mesh_piece *pieces, size_t count,
		       struct mesh_place *place);

/* ---- labels (label.c) ---------------------------------------------------- */

/* Font units: a digit is 6 wide and 10 tall with strokes 2 wide, digits
 * 3 apart; the underline (labels with a 6 or a 9) is 2 tall, 2 below. */
enum { MESH_FONT_W = 6, MESH_FONT_H = 10, MESH_FONT_GAP = 3,
       MESH_FONT_UNDER = 4 };
/* Empty space between a label's strokes and the sides of its rectangle,
 * beyond the clearance inset, mm (label.c and the .scad). */
#define MESH_LABEL_MARGIN 1.0
/* At most 7 strokes per digit and the underline. */
#define MESH_LABEL_STROKES (7 * MESH_LABEL_MAX + 1)

/* A label's strokes in font units: rectangles [x0, x1] x [y0, y1], the
 * text's box [0, w] x [ylo, MESH_FONT_H] (ylo = -MESH_FONT_UNDER when
 * underlined, else 0). Returns the number of strokes, 0 for an invalid
 * label (not 1 to MESH_LABEL_MAX digits). */
int mesh_label_strokes(const char *text, int (*stroke)[4], int *w, int *ylo);

/* Where a piece's label goes, chosen from its cells (mesh.h,
 * mesh_label_height()): the rectangle of top-layer cells [x0, x1) x
 * [y0, y1) of the bounding box, and whether the text is turned to read
 * along +y. ok = 0 when the piece has no label. */
struct mesh_label_place {
	int ok;
	int x0, x1, y0, y1;
	int turned;
};
int mesh_label_place(const struct mesh_piece *p, struct mesh_label_place *out);

/* A box cut out of the solid, mm, in the solid's own frame. */
struct mesh_cut {
	double lo[3], hi[3];
};

/*
 * The label's strokes as boxes cut from the solid (at most
 * MESH_LABEL_STROKES), the digits' height in mm, and the area of the
 * strokes' union in mm^2. *count = 0 (and height 0) when there is no
 * label or it is under MESH_LABEL_MIN mm. MESH_OK or MESH_ENOMEM.
 */
int mesh_label_cuts(const struct mesh_piece *p, const struct mesh_size *sz,
		    struct mesh_cut *cut, size_t *count, double *height,
		    double *area);

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

/* ---- the viewer's source (web/, made into strings by tools/embed.c) ---- */

extern const char cubegen_web_page[];
extern const size_t cubegen_web_page_len;
extern const char cubegen_web_css[];
extern const size_t cubegen_web_css_len;
extern const char cubegen_web_js[];
extern const size_t cubegen_web_js_len;

#endif
