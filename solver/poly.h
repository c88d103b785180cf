/*
 * poly.h: polycube shapes, the 48 axis symmetries, congruence, placements.
 *
 * A shape is a set of cells, stored as a sorted array of packed cells
 * (poly_pack: tag | x << 8 | y << 16 | z << 24, so sorting orders by z,
 * then y, then x). Coordinates are 0..255 once normalised (translated so
 * that the minimum of each coordinate is 0); PUZ_MAX_DIM keeps every shape
 * well inside that. The tag (0..255) rides along with its cell through
 * every transform: a piece cell's colour (0 plain). Equality, order and
 * canonical forms include tags, so congruence means "same shape, same
 * colours in the same places".
 *
 * The 48 symmetries of the cube lattice are signed axis permutations:
 * coordinate k of the image is sign[k] * (coordinate perm[k] of the cell).
 * Index 0 is the identity; the 24 proper rotations (determinant +1) are the
 * indexes with poly_sym_proper() true. A flat plate turned over is a proper
 * rotation; a mirror image is not.
 *
 * Ownership: struct shape owns its cell array; poly_shape_clear() frees it.
 * Functions that allocate return POLY_ENOMEM and leave outputs untouched.
 */
#ifndef CUBEGEN_POLY_H
#define CUBEGEN_POLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/puzzle.h"

enum poly_status { POLY_OK = 0, POLY_ENOMEM };

#define POLY_NSYM 48

struct shape {
	size_t n;        /* number of cells */
	uint32_t *cells; /* n packed cells, sorted ascending, owned */
};

static inline uint32_t poly_pack(int x, int y, int z)
{
	return (uint32_t)x << 8 | (uint32_t)y << 16 | (uint32_t)z << 24;
}
static inline int poly_x(uint32_t c) { return (int)(c >> 8 & 0xff); }
static inline int poly_y(uint32_t c) { return (int)(c >> 16 & 0xff); }
static inline int poly_z(uint32_t c) { return (int)(c >> 24 & 0xff); }
static inline int poly_tag(uint32_t c) { return (int)(c & 0xff); }

/* Symmetry 's' (0..47) applied to (x, y, z): may give negative values. */
void poly_sym_apply(int s, const int in[3], int out[3]);
/* Whether symmetry 's' is a proper rotation (determinant +1). */
bool poly_sym_proper(int s);
/* The symmetry equal to applying 'a' then 'b'. */
int poly_sym_compose(int a, int b);
/* The inverse of symmetry 's'. */
int poly_sym_inverse(int s);

/*
 * The 8 flat moves of a plate (the symmetries of a square, for any w x h
 * rectangle of cells (x, y), 0 <= x < w, 0 <= y < h, y drawn downward).
 * Move t, 0..7: first, if t & 4, turn the plate over left to right,
 * (x, y) -> (w-1-x, y); then t & 3 quarter turns clockwise,
 * (x, y) -> (h-1-y, x), each of which swaps the rectangle's sides. The one
 * encoding of flat moves: the generator's orientations and the shell fast
 * path both use it. A plate turned over is a proper rotation in 3D.
 */
void poly_flat_apply(int t, int w, int h, int x, int y, int *u, int *v);
/* The move undoing move t (applied to the moved rectangle). */
int poly_flat_inverse(int t);

/* The cells of grid 'g' as a normalised shape, each tagged with its
 * colour (puz_cell_colour). */
int poly_from_grid(const struct grid *g, struct shape *out);
/* 'in' transformed by symmetry 's' and normalised, into 'out'. */
int poly_transform(const struct shape *in, int s, struct shape *out);
/* Whether two shapes are the same cell set (both normalised). */
bool poly_equal(const struct shape *a, const struct shape *b);
/* Order of shapes: by length, then lexicographically by packed cells;
 * <0, 0 or >0. */
int poly_compare(const struct shape *a, const struct shape *b);
/* Canonical form: the least (by length then lexicographic cells) of the
 * 24 proper rotations of 'in'. Congruent shapes have equal forms. */
int poly_canonical(const struct shape *in, struct shape *out);
/* The distinct proper orientations of 'in' (1..24 normalised shapes) into
 * a new array '*out' of '*count' shapes; free with poly_shapes_free(). */
int poly_orientations(const struct shape *in, struct shape **out, size_t *count);
void poly_shapes_free(struct shape *s, size_t count);
/* How many cells of normalised 's' overhang when it lies as it is on a
 * print bed (z = 0): cells above the bed with no cell of the shape right
 * below them. A print needs support under each. */
size_t poly_overhangs(const struct shape *s);
void poly_shape_clear(struct shape *s);

#endif
