/*
 * puz.h: the file formats: puzzle files into the solver's plain structures
 * (solver/puzzle.h) and back. .puz (DESIGN.md §3) is read and written;
 * .hcq, the Happy Cube edge file, is read only.
 *
 * Coordinates are those of solver/puzzle.h. In a .puz file a shape is Z
 * blocks (z = 0 first) of Y rows (y = 0 first) of X characters (x = 0
 * first): '.' no cell, '#' a plain cell (PUZ_CELL), 'a'..'z' a cell of
 * that colour (PUZ_CELL + 1..26), and in the goal only '+' an optional
 * cell (PUZ_OPTIONAL) and 'A'..'Z' an optional cell of colour 'a'..'z'
 * (PUZ_OPTIONAL + 1..26).
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

#include "solver/disasm.h"
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
/* The same, for a file that may hold a goal and no piece (npieces 0):
 * the goal of a generated block puzzle. */
int puz_read_goal_file(const char *path, struct puzzle *out,
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
	bool groups_split; /* some piece's copies are split among BurrTools
	                    * groups (the disassembler takes one group per
	                    * piece: solve --disassemble refuses these) */
	char groups_why[200]; /* when 'groups_split': which piece */
	bool dis_differs; /* BurrTools' disassembler may take apart this
	                   * problem's assemblies differently: its second
	                   * check of a stuck part's groups looks pieces up
	                   * by their place as shape numbers (xmbuild.c) */
	char dis_why[200]; /* when 'dis_differs': one sentence saying why */
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
/* ---- BurrTools files (.xmpuzzle), written (xmwrite.c, xmsol.c) ---------
 *
 * xmp_write() writes a puzzle as one BurrTools 0.6 file on its cube grid,
 * gzip-compressed as BurrTools writes it (or plain XML): shape 0 is the
 * goal (optional cells as variable voxels), shapes 1.. the pieces in file
 * order with their names, and one problem with each piece's count or
 * range (and group). When a piece has a group the goal is the last shape
 * instead, after the pieces 0..: then each piece's place in the problem
 * is its shape's number, and BurrTools' second check of a stuck part's
 * groups, which takes the one for the other (xmp_info.dis_differs),
 * finds the right pieces. Colour c (1..26, 'a'..'z') is BurrTools colour
 * c with its display colour; the match rule becomes BurrTools' colour
 * constraints (with no match table, each colour on itself). BurrTools
 * has no distinct regions: xmp_writable() refuses them. Regions without
 * 'distinct' (they change nothing) and the size and seed lines are not
 * carried.
 *
 * Rotations: BurrTools numbers the 24 rotations of its cube grid by a
 * table of its own; xmp_rotation(t) is rotation t as a symmetry of
 * solver/poly.h. A placement (x, y, z, t) of a piece puts every cell c of
 * the piece's grid on goal cell R_t c + (x, y, z), R_t its matrix (the
 * pieces are written with their hotspot at (0, 0, 0), so BurrTools'
 * position of a piece is exactly that translation).
 */

/* BurrTools' cube rotation t (0..23) as a poly symmetry (0..47, proper). */
int xmp_rotation(int t);

/* Whether 'p' can be written as a BurrTools file, and with 'solutions'
 * its solutions too (the solver labels at most 254 pieces); if not, why
 * (one line) into 'why'. */
bool xmp_writable(const struct puzzle *p, bool solutions, char *why,
                  size_t len);

/* One piece in one solution: its BurrTools rotation 'rot' (0..23) and
 * translation, as above; rot < 0 for a copy the solution does not use. */
struct xmp_place {
	int x, y, z;
	int rot;
};

/* Distinct solutions as BurrTools assemblies. Each has 'slots'
 * placements, one per copy: piece 0's copies first (its most copies), then
 * piece 1's, and so on, the copies a solution uses before those it does
 * not (BurrTools' order). */
/* How one solution comes apart (with 'disassemble'): the disassembler's
 * moves (solver/disasm.h), their groups' bit i naming the i-th placed
 * copy in slot order, and its level. */
struct xmp_sep {
	struct dis_move *moves;  /* owned */
	size_t nmoves;
	int level[DIS_MAX_LEVEL];
	size_t nlevel;
};

struct xmp_solutions {
	size_t n;                /* solutions kept */
	size_t slots;            /* placements per solution */
	struct xmp_place *place; /* n * slots, owned */
	struct xmp_sep *sep;     /* n, with 'disassemble'; else NULL; owned */
	uint64_t solutions;      /* the puzzle's distinct solutions, as solve
	                          * counts them (a lower bound if !complete) */
	bool complete;           /* the search finished */
};

/* Solve 'p' and keep its distinct solutions, each once (up to the goal's
 * symmetries, as solve counts them; the proof is in xmsol.c), the first
 * 'max' found (0: all); with 'disassemble' only those that come apart
 * (as solve --disassemble counts them), each with its moves in 'sep'.
 * 'progress' (NULL: none) is called as solve_opts.progress, with 'ctx'.
 * 'p' must pass xmp_writable(p, true). Returns solve_puzzle()'s status
 * (solver/solve.h: SOLVE_OK, SOLVE_ENOMEM, SOLVE_ETOOBIG,
 * SOLVE_EOVERFLOW); '*out' is filled only on SOLVE_OK and freed with
 * xmp_solutions_clear(). */
struct solve_progress;
int xmp_find_solutions(const struct puzzle *p, uint64_t max, bool disassemble,
                       void (*progress)(void *ctx,
                                        const struct solve_progress *pr),
                       void *ctx, struct xmp_solutions *out);
void xmp_solutions_clear(struct xmp_solutions *s);

/* Write 'p' (which must pass xmp_writable(p, sols != NULL)) and, unless
 * NULL, the solutions 'sols' found for it, gzip-compressed when 'gzip',
 * else as plain XML. The same input gives the same bytes. PUZ_ENOMEM or
 * PUZ_EIO (a write failed); never closes 'fp'. */
int xmp_write(FILE *fp, const struct puzzle *p,
              const struct xmp_solutions *sols, bool gzip);

#endif
