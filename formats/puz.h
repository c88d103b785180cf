/*
 * puz.h: the file formats: puzzle files into the solver's plain structures
 * (solver/puzzle.h) and back. .puz (DESIGN.md §3) is read and written;
 * .hcq, the Happy Cube edge file, is read only.
 *
 * Coordinates are those of solver/puzzle.h. In a .puz file a shape is Z
 * blocks (z = 0 first) of Y rows (y = 0 first) of X characters (x = 0
 * first): '.' no cell, '#' a plain cell (PUZ_CELL), 'a'..'z' a cell of
 * that colour (PUZ_CELL + 1..26), and in the goal only '+' an optional
 * cell (PUZ_OPTIONAL).
 *
 * Colour puzzles (DESIGN.md §3) add `piece ... count MIN..MAX` (count,
 * count_max), `colour c RRGGBB` (rgb, rgb_set), `match P G` (has_match,
 * match), `region NAME` with blocks the size of the goal (regions) and
 * `distinct NAME...` (regions[i].distinct; `faces` is distinct_faces).
 * The full rules are at the top of puzread.c.
 *
 * Ownership: readers fill '*out' only on success, and the caller frees it
 * with puz_clear(); on failure '*out' is untouched and '*err' says where
 * and what. The writer never closes its FILE.
 *
 * Errors: enum puz_status (solver/puzzle.h): PUZ_ENOMEM, PUZ_EIO,
 * PUZ_EPARSE. Nothing here prints or exits.
 */
#ifndef CUBEGEN_PUZ_H
#define CUBEGEN_PUZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "solver/puzzle.h"

/* The most `region` lines a .puz file may have (a reader's limit, like
 * PUZ_MAX_PIECES: it keeps the memory of a file near its size). */
#define PUZ_MAX_REGIONS 1024

/* Where a reader stopped: line and column are 1-based (0 when the error
 * is about the whole file, such as one that cannot be opened). */
struct puz_error {
	int line, col;
	char msg[160];
};

/* Read a .puz file (or text in memory). On failure '*out' is untouched. */
int puz_read_file(const char *path, struct puzzle *out, struct puz_error *err);
int puz_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err);

/* Write 'p' in the .puz format, LF line ends, so that reading it back
 * gives the same puzzle; a plain puzzle is written as it was before
 * colour puzzles. 'p' must be one a reader could have produced (cell
 * values, names, a match table whose colours cells use: asserted).
 * PUZ_EIO when a write fails. Never closes 'fp'. */
int puz_write(FILE *fp, const struct puzzle *p);

/* Read a Happy Cube edge file (.hcq): six 5x5 tiles, as the 5x5x5 shell
 * puzzle. Errors as puz_read_*. */
int hcq_read_file(const char *path, struct puzzle *out, struct puz_error *err);
int hcq_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err);

/* BurrTools .xmpuzzle (read; DESIGN.md §3): gzip-compressed or plain XML,
 * told apart by content, cube grids only. One problem of the file is
 * read: 'problem' counts from 0 (the command line's --problem K is K - 1).
 * What is read, skipped and refused is listed at the top of
 * formats/xmread.c; how BurrTools' rules become cubegen's at the top of
 * formats/xmbuild.c. '*info' is filled only on success. */
struct xmp_info {
	size_t nproblems; /* problems in the file */
	bool differs;     /* BurrTools would count this problem differently */
	char why[200];    /* when 'differs': one sentence saying why */
	bool solved;      /* the file holds BurrTools' finished count */
	uint64_t assemblies, solutions; /* that count, when 'solved':
	                                 * BurrTools' assemblies are what
	                                 * cubegen calls solutions; its
	                                 * solutions also come apart */
};

int xmp_read_file(const char *path, size_t problem, struct puzzle *out,
                  struct xmp_info *info, struct puz_error *err);
int xmp_read_mem(const void *data, size_t len, size_t problem,
                 struct puzzle *out, struct xmp_info *info,
                 struct puz_error *err);

#endif
