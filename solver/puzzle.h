/*
 * puzzle.h: puzzles in memory: the plain structures the solver works on,
 * and that formats/ reads from files and writes back (formats/puz.h).
 *
 * A puzzle is a goal shape and a multiset of pieces (DESIGN.md §2). Shapes
 * are dense boxes of cells: cell (x, y, z) of a grid g is
 * g->cells[x + g->nx * (y + g->ny * z)] (x fastest, then y, then z;
 * 0 <= x < nx etc.): 0 for none, PUZ_CELL (1) for a plain cell, PUZ_CELL +
 * c for a cell of colour c (1..26, the letters a..z), and, in the goal
 * only, PUZ_OPTIONAL + c for a cell that may stay empty (c = 0 plain, else
 * its colour: a piece cell on it must match it as on a required cell).
 * puz_cell_colour() reads the colour of either kind, puz_cell_optional()
 * whether a cell may stay empty. Any non-zero value is a cell, so code
 * that only asks "is there a cell" reads every puzzle alike; puz_plain()
 * says whether a puzzle uses none of the colour puzzle features (colours,
 * optional cells, count ranges, distinct regions), which the plate paths
 * and the difficulty measure need.
 *
 * Ownership: a struct puzzle owns its grids and piece array; puz_clear()
 * frees them and leaves an empty puzzle.
 *
 * Limits (checked by the readers, documented in docs/formats.md): every
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

#define PUZ_CELL 1          /* a plain cell */
#define PUZ_NCOLOURS 26     /* colours 1..26, written 'a'..'z' */
#define PUZ_OPTIONAL 0x40   /* a goal cell that may stay empty: plain;
                             * PUZ_OPTIONAL + c has colour c (1..26) */

/* Whether cell value 'v' is an optional goal cell (plain or coloured). */
static inline bool puz_cell_optional(unsigned char v)
{
	return v >= PUZ_OPTIONAL && v <= PUZ_OPTIONAL + PUZ_NCOLOURS;
}

/* The colour of cell value 'v', required or optional: 0 plain (or none),
 * else 1..26. */
static inline int puz_cell_colour(unsigned char v)
{
	if (puz_cell_optional(v))
		return v - PUZ_OPTIONAL;
	return v > PUZ_CELL && v <= PUZ_CELL + PUZ_NCOLOURS ? v - PUZ_CELL : 0;
}

struct grid {
	int nx, ny, nz;       /* dimensions, each >= 1 */
	unsigned char *cells; /* nx*ny*nz cell values (above), owned */
};

struct puz_piece {
	char name[PUZ_MAX_NAME + 1]; /* no white space, not empty */
	struct grid shape;           /* at least one cell; none optional */
	unsigned count;              /* copies: exactly this many, >= 1, or
	                              * the least of a range (may be 0) */
	unsigned count_max;          /* 0: exactly 'count'; else the most of
	                              * a range count..count_max, > count */
	/* For the disassembler (solver/disasm.h), as BurrTools has them:
	 * when a group comes free, the side holding the heaviest piece stays
	 * (1..PUZ_MAX_WEIGHT; 0, what a zeroed puzzle has, counts as 1, the
	 * default); pieces of one 'group' (1..PUZ_MAX_GROUP; 0 none) need not
	 * come apart from each other. */
	int weight;
	unsigned group;
};

#define PUZ_MAX_WEIGHT 1000000000
#define PUZ_MAX_GROUP 65535

/* The most copies of a piece. */
static inline unsigned puz_piece_max(const struct puz_piece *pc)
{
	return pc->count_max ? pc->count_max : pc->count;
}

/* A named set of goal cells ('region NAME' in a file). */
struct puz_region {
	char name[PUZ_MAX_NAME + 1];
	unsigned char *cells; /* goal-grid sized, 1 for a member, owned; every
	                       * member is a goal cell */
	bool distinct;        /* each colour at most once among the piece
	                       * cells placed on it ('distinct NAME') */
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

	/* Colour puzzles (all zero in a plain puzzle). */
	uint32_t rgb[PUZ_NCOLOURS + 1]; /* display colour 0xRRGGBB of colour c
	                                 * when bit c of rgb_set is set */
	uint32_t rgb_set;
	/* Matching (BurrTools' rule): a plain cell on either side matches
	 * anything. Without a table (has_match false) a colour matches only
	 * itself; with one, piece colour p may lie on goal colour q exactly
	 * when bit q of match[p] is set. puz_match() applies the rule. */
	bool has_match;
	uint32_t match[PUZ_NCOLOURS + 1];
	struct puz_region *regions; /* nregions entries, owned */
	size_t nregions;
	bool distinct_faces; /* 'distinct faces': each of the six outer layers
	                      * of the goal's box is a distinct region */
};

/* Whether a piece cell of colour 'pc' may lie on a goal cell of colour 'gc'
 * (0 plain, 1..26). */
static inline bool puz_match(const struct puzzle *p, int pc, int gc)
{
	if (pc == 0 || gc == 0)
		return true;
	if (!p->has_match)
		return pc == gc;
	return p->match[pc] >> gc & 1;
}

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

/* The display colour 0xRRGGBB of colour c (1..26): the puzzle's 'colour'
 * line, else a fixed default (a red, b green, c yellow, d blue, e orange,
 * f purple, g cyan, h magenta, ...: Sasha Trubetskoy's 20 distinct
 * colours for a..t, then six more). */
uint32_t puz_colour_rgb(const struct puzzle *p, int c);

/* Whether 'p' is a plain puzzle: no colours, no optional cells, no count
 * ranges, no distinct regions (a 'region' without 'distinct' and 'colour'
 * display lines change nothing and are allowed). */
bool puz_plain(const struct puzzle *p);

/* Free everything 'p' owns and leave it empty. Accepts an empty puzzle. */
void puz_clear(struct puzzle *p);

#endif
