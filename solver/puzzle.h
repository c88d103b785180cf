/*
 * puzzle.h: puzzles in memory: the plain structures the solver works on,
 * and that formats/ reads from files and writes back (formats/puz.h).
 *
 * A puzzle is a goal shape and a multiset of pieces (DESIGN.md §2). Shapes
 * are dense boxes of cells: cell (x, y, z) of a grid g is
 * g->cells[x + g->nx * (y + g->ny * z)], 1 for a cell, 0 for none (x
 * fastest, then y, then z; 0 <= x < nx etc.).
 *
 * Ownership: a struct puzzle owns its grids and piece array; puz_clear()
 * frees them and leaves an empty puzzle.
 *
 * Limits (checked by the readers, documented in the README): every
 * dimension 1..PUZ_MAX_DIM, a goal of at most PUZ_MAX_CELLS cells, at most
 * PUZ_MAX_PIECES pieces counted with multiplicity, names of at most
 * PUZ_MAX_NAME bytes.
 */
#ifndef CUBEGEN_PUZZLE_H
#define CUBEGEN_PUZZLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PUZ_MAX_DIM 128
#define PUZ_MAX_CELLS 262144 /* 64^3: a size-64 generated cube */
#define PUZ_MAX_PIECES 1024
#define PUZ_MAX_NAME 63
#define PUZ_MAX_TITLE 200

/* One status for the puz_ functions here and the readers and writer of
 * formats/puz.h: the functions here return only PUZ_OK and PUZ_ENOMEM. */
enum puz_status {
	PUZ_OK = 0,
	PUZ_ENOMEM, /* out of memory */
	PUZ_EIO,    /* the file could not be opened, read or written */
	PUZ_EPARSE, /* the text is not a valid puzzle; see the error's line */
};

struct grid {
	int nx, ny, nz;       /* dimensions, each >= 1 */
	unsigned char *cells; /* nx*ny*nz bytes, 0 or 1, owned */
};

struct puz_piece {
	char name[PUZ_MAX_NAME + 1]; /* no white space, not empty */
	struct grid shape;           /* at least one cell */
	unsigned count;              /* how many of this piece, >= 1 */
};

struct puzzle {
	char name[PUZ_MAX_TITLE + 1]; /* "" when the file has no name line */
	struct grid goal;
	struct puz_piece *pieces; /* npieces entries, owned */
	size_t npieces;
	int size[3];   /* the 'size' line of a generated puzzle: the box
	                * X, Y, Z ('size N' is N, N, N); all 0 if none */
	bool has_seed; /* whether there is a 'seed S' line */
	uint64_t seed;
};

/* Cell access without bounds checks (callers check 0 <= x < nx ...). */
static inline size_t puz_grid_index(const struct grid *g, int x, int y, int z)
{
	return (size_t)x + (size_t)g->nx * ((size_t)y + (size_t)g->ny * (size_t)z);
}

/* nx*ny*nz into '*n'; false, and '*n' untouched, when it does not fit in
 * a size_t. */
bool puz_box_cells(int nx, int ny, int nz, size_t *n);
/* Allocate an all-empty nx*ny*nz grid into '*g'. PUZ_ENOMEM on failure. */
int puz_grid_init(struct grid *g, int nx, int ny, int nz);
void puz_grid_clear(struct grid *g);
/* Number of cells set. */
size_t puz_grid_volume(const struct grid *g);

/* Free everything 'p' owns and leave it empty. Accepts an empty puzzle. */
void puz_clear(struct puzzle *p);

#endif
