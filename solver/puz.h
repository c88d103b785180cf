/*
 * puz.h: puzzles in memory, and the .puz and .hcq file formats.
 *
 * A puzzle is a goal shape and a multiset of pieces (DESIGN.md §2). Shapes
 * are dense boxes of cells: cell (x, y, z) of a grid g is
 * g->cells[x + g->nx * (y + g->ny * z)], 1 for a cell, 0 for none (x
 * fastest, then y, then z; 0 <= x < nx etc.).
 *
 * Ownership: a struct puzzle owns its grids and piece array; puz_clear()
 * frees them and leaves an empty puzzle. Readers fill '*out' only on
 * success; on failure '*out' is untouched and '*err' says where and what.
 *
 * Limits (checked by the readers, documented in the README): every
 * dimension 1..PUZ_MAX_DIM, a goal of at most PUZ_MAX_CELLS cells, at most
 * PUZ_MAX_PIECES pieces counted with multiplicity, names of at most
 * PUZ_MAX_NAME bytes.
 */
#ifndef CUBEGEN_PUZ_H
#define CUBEGEN_PUZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PUZ_MAX_DIM 128
#define PUZ_MAX_CELLS 262144 /* 64^3: a size-64 generated cube */
#define PUZ_MAX_PIECES 1024
#define PUZ_MAX_NAME 63
#define PUZ_MAX_TITLE 200

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

/* Where a reader stopped: line and column are 1-based (0 when the error
 * is about the whole file, such as one that cannot be opened). */
struct puz_error {
	int line, col;
	char msg[160];
};

/* Cell access without bounds checks (callers check 0 <= x < nx ...). */
static inline size_t puz_grid_index(const struct grid *g, int x, int y, int z)
{
	return (size_t)x + (size_t)g->nx * ((size_t)y + (size_t)g->ny * (size_t)z);
}

/* Allocate an all-empty nx*ny*nz grid into '*g'. PUZ_ENOMEM on failure. */
int puz_grid_init(struct grid *g, int nx, int ny, int nz);
void puz_grid_clear(struct grid *g);
/* Number of cells set. */
size_t puz_grid_volume(const struct grid *g);

/* Read a .puz file (or text in memory). On failure '*out' is untouched. */
int puz_read_file(const char *path, struct puzzle *out, struct puz_error *err);
int puz_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err);

/* Write 'p' in the .puz format, LF line ends, so that reading it back
 * gives the same puzzle. PUZ_EIO when a write fails. Never closes 'fp'. */
int puz_write(FILE *fp, const struct puzzle *p);

/* Read a Happy Cube edge file (.hcq): six 5x5 tiles, as the 5x5x5 shell
 * puzzle. Errors as puz_read_*. */
int hcq_read_file(const char *path, struct puzzle *out, struct puz_error *err);
int hcq_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err);

/* Free everything 'p' owns and leave it empty. Accepts an empty puzzle. */
void puz_clear(struct puzzle *p);

#endif
