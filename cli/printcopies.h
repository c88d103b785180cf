/*
 * printcopies.h: printable files for copies of pieces, each turned to lie
 * flat (shared by 'print' and block puzzles' 'generate').
 *
 * The print orientation of a copy: of its 24 rotations the one that
 * needs the least support (the fewest overhanging cells: cells above the
 * bed with no cell of the piece right below them, poly_overhangs()), then
 * with the most cells on the bed, then the lowest, then with the most
 * cells on top (room for the number), then the first.
 */
#ifndef CUBEGEN_PRINTCOPIES_H
#define CUBEGEN_PRINTCOPIES_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/cli.h"
#include "cli/pagefiles.h"
#include "mesh/mesh.h"
#include "solver/puzzle.h"

/* One printed copy: its cells in some frame, and per axis the wall flag of
 * each coordinate (NULL: no walls). Coordinates 0..PUZ_MAX_DIM-1. */
struct copy {
	size_t n;
	int (*cell)[3];
	unsigned char *colour;        /* n colours (0 plain, 1..26), owned; NULL
	                               * for a copy with no coloured cell */
	const unsigned char *flag[3]; /* indexed by coordinate */
};

/* A copy's colours from 'n' cell colours 'col', as struct copy keeps them:
 * NULL when all are plain. false when out of memory. */
bool copy_colours(struct copy *c, const unsigned char *col, size_t n);

/* The cells of shape 'g' as a copy (no walls), with their colours. false
 * when out of memory. */
bool copy_of_shape(const struct grid *g, struct copy *c);

/* Free the cells and colours of copies[0..n-1]. */
void copies_free(struct copy *copies, size_t n);

/* Write the printable files (printfiles.h) of copies[0..n-1] of puzzle
 * 'p', copy i printed as number i + 1 (engraved unless !labels), into
 * 'od'; overhang[i] (when not NULL) gets copy i's overhanging cells as
 * printed; solution.html too when 'answer' is not NULL (its numbers
 * those of the copies); only the pages with !printables. Prints an error
 * and returns false on failure. */
bool printcopies_write(struct outdir *od, const struct puzzle *p,
                       const struct copy *copies, size_t n,
                       const struct mesh_size *sz, bool labels,
                       const char *what, size_t *overhang,
                       const struct page_answer *answer, bool printables);

/*
 * The copies of 'p' as they lie in a solution: 'lab' as
 * solve_result.first (per goal cell 0 or the piece's index + 1),
 * 'colours' its first_colours (may be NULL). Fills copies[] with every
 * copy in piece order (the counts' sum of them), each with the wall flags
 * 'flags' (NULL: none), and, when 'answer' is not NULL, the answer for
 * solution.html (lowest_answer_steps(), its walls the flags, which must
 * outlive it; the caller clears it). CLI_OK,
 * or an error printed ("CMD: ...") and its exit code.
 */
int printcopies_solved(const char *cmd, const struct puzzle *p,
                       const unsigned char *lab, const unsigned char *colours,
                       struct copy *copies, const unsigned char *const flags[3],
                       struct lowest_answer *answer);

/* pieces.txt: the comment 'head', then per copy its number and its
 * piece's name, with "support N" when N > 0 of its cells overhang as
 * printed (overhang[], as printcopies_write() gives it), and a last
 * comment saying how many need support. */
bool printcopies_index(struct outdir *od, const char *head,
                       const struct puzzle *p, const size_t *overhang);

#endif
