/*
 * cmd_print.c: 'cubegen print FILE': printable files for the pieces of any
 * puzzle file (a Soma cube, the Bedlam cube, a Happy Cube set).
 *
 * Every copy of every piece is printed as its own numbered piece, turned to
 * lie flat (printcopies.h). With --wall the walls are the goal's outer
 * layers (DESIGN.md §3), so which layers of a piece are walls depends on where it goes: the
 * puzzle is solved first, and each copy printed as it lies in that
 * solution, turned flat.
 *
 * Colours. A colour puzzle's pieces keep their cells' colours: in
 * plate.3mf a piece of one colour is an object of that colour, a piece of
 * several (or of coloured and plain cells) is coloured triangle by
 * triangle, plain cells in the piece's number colour (printfiles.h). With
 * --wall each copy takes its colours from the piece cell the solver put
 * on each goal cell, or where the solver does not say, from an
 * orientation of the piece whose colours match the goal's.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/printcopies.h"
#include "draw/draw.h"
#include "mesh/mesh.h"
#include "solver/poly.h"
#include "solver/solve.h"

static const char help[] =
	"usage: cubegen print FILE [--out DIR] [--unit MM] [--wall MM]\n"
	"                     [--clearance MM] [--no-labels] [--force]\n"
	"                     [--problem K]\n"
	"\n"
	"Write printable pieces for any puzzle file (.puz, .hcq or a problem\n"
	"of a .xmpuzzle): each piece lying flat as STL and OpenSCAD\n"
	"with its number engraved on top, all of them on one bed as plate.stl,\n"
	"plate.3mf and puzzle.scad, pieces.html (them in 3D, for a browser),\n"
	"solution.html (a solution step by step, chosen as render chooses\n"
	"it, when the solver finds one within 20000000 search nodes; none\n"
	"for a piece with a range of copies), and pieces.txt saying which\n"
	"number is which piece of the file. A piece\n"
	"with a range of copies (count MIN..MAX) is printed MAX times; a\n"
	"colour puzzle's pieces carry their colours in plate.3mf.\n"
	"\n"
	"  --out DIR         output folder (default out/print-NAME, NAME the\n"
	"                    file's name without its extension; for a\n"
	"                    puzzle.puz, its folder's name; -problemK after\n"
	"                    it for --problem K >= 2)\n"
	"  --unit MM         edge of one cell in millimetres (default 10)\n"
	"  --wall MM         thickness of the goal's outer layers, 0 < wall <=\n"
	"                    unit, wall - clearance >= 0.6 (1.2 with numbers)\n"
	"                    (default: the unit); needs a solution, which\n"
	"                    is found first; not for puzzles with a range of\n"
	"                    copies of a piece (count MIN..MAX)\n"
	"  --clearance MM    gap between touching pieces, 0 <= c < wall/2\n"
	"                    (default 0.2)\n"
	"  --no-labels       do not engrave the numbers\n"
	"  --force           replace DIR if it exists\n"
	"  --problem K       the K-th problem of a BurrTools file (default 1)\n"
	"\n"
	"A search for the solution past a second shows its progress on stderr\n"
	"when that is a terminal.\n"
	"Exit 0 when the files were written, 1 when they could not be (or --wall\n"
	"was given for a puzzle without a solution), 2 on bad usage or input.\n";


/* Every copy as it lies in the first solution, with the goal's outer
 * layers as walls; 'answer' gets them for solution.html. CLI_OK, or an
 * error printed and its exit code. */
static int solved_copies(const char *file, const struct puzzle *p,
                         struct copy *copies, unsigned char *flags[3],
                         struct lowest_answer *answer)
{
	const struct grid *g = &p->goal;
	struct solve_opts so = {.max_solutions = 1, .keep_first = true};
	struct cli_progress prog;
	cli_progress_on(&prog, "solving", true, &so);
	struct solve_result r;
	int rc = solve_puzzle(p, &so, &r);
	cli_progress_end(&prog);
	if (rc != SOLVE_OK) {
		cli_error("print: %s", solve_strerror(rc));
		return CLI_FAIL;
	}
	if (!r.first) {
		cli_error("print: %s has no solution%s, and --wall needs one (to know "
		          "which layers of each piece are the outer walls); print it "
		          "without --wall", file, r.complete ? "" : " within the limits");
		solve_result_clear(&r);
		return CLI_FAIL;
	}
	int n[3] = {g->nx, g->ny, g->nz}, lo[3] = {n[0], n[1], n[2]}, hi[3] = {-1, -1, -1};
	for (int z = 0; z < n[2]; z++)
		for (int y = 0; y < n[1]; y++)
			for (int x = 0; x < n[0]; x++)
				if (g->cells[puz_grid_index(g, x, y, z)]) {
					int c[3] = {x, y, z};
					for (int a = 0; a < 3; a++) {
						lo[a] = c[a] < lo[a] ? c[a] : lo[a];
						hi[a] = c[a] > hi[a] ? c[a] : hi[a];
					}
				}
	for (int a = 0; a < 3; a++) {
		flags[a][lo[a]] = 1;
		flags[a][hi[a]] = 1;
	}
	rc = printcopies_solved("print", p, r.first, r.first_colours, copies,
	                        (const unsigned char *const *)flags, answer);
	solve_result_clear(&r);
	return rc;
}

/* Search nodes print may spend finding a solution for solution.html
 * when --wall does not ask for one: a few seconds at most. A puzzle
 * with no solution found within them gets pieces.html alone (help[]
 * says the number). */
#define PRINT_SOLVE_NODES 20000000u

/* Without --wall: the first solution, when one is found within
 * PRINT_SOLVE_NODES, into 'la' for solution.html (its copies as they lie
 * there; the printed copies are laid out on their own). *found: whether
 * there is one; *complete: whether the search ended before its bound.
 * CLI_OK, or an error printed and its exit code. */
static int answer_of(const struct puzzle *p, size_t ncopies,
                     struct lowest_answer *la, bool *found, bool *complete)
{
	*found = false;
	*complete = true;
	struct solve_result r;
	int rc = pages_solution(p, PRINT_SOLVE_NODES, &r);
	if (rc != SOLVE_OK) {
		cli_error("print: %s", solve_strerror(rc));
		return CLI_FAIL;
	}
	int code = CLI_OK;
	if (r.first) {
		struct copy *placed = calloc(ncopies, sizeof *placed);
		if (!placed) {
			cli_error("print: out of memory");
			code = CLI_FAIL;
		} else {
			code = printcopies_solved("print", p, r.first, r.first_colours,
			                          placed, NULL, la);
			copies_free(placed, ncopies);
			free(placed);
		}
		*found = code == CLI_OK;
	}
	*complete = r.complete;
	solve_result_clear(&r);
	return code;
}

/* The files, given every copy. */
static int write_all(const struct print_args *pa, const struct puzzle *p,
                     const struct copy *copies, size_t ncopies, const char *out,
                     const struct page_answer *answer)
{
	struct outdir od;
	struct mesh_size sz = {pa->print.unit, pa->print.wall, pa->print.clearance};
	const char *base = strrchr(pa->file, '/');
	char what[PATH_MAX + 32];
	snprintf(what, sizeof what, "cubegen print %s", base ? base + 1 : pa->file);
	size_t *over = calloc(ncopies, sizeof *over);
	if (!over) {
		cli_error("print: out of memory");
		return CLI_FAIL;
	}
	char head[PATH_MAX + 64];
	snprintf(head, sizeof head, "cubegen print %s: number engraved -> piece "
	         "in the file", pa->file);
	int code = CLI_FAIL;
	if (outdir_begin(&od, out, pa->force)) {
		if (printcopies_write(&od, p, copies, ncopies, &sz, pa->print.labels,
		                      what, over, answer, true) &&
		    printcopies_index(&od, head, p, over) && outdir_commit(&od))
			code = CLI_OK;
		else
			outdir_abort(&od);
	}
	free(over);
	return code;
}

int cmd_print(int argc, char **argv)
{
	struct print_args pa;
	switch (args_print(argc, argv, &pa)) {
	case ARGS_HELP:
		fputs(help, stdout);
		return CLI_OK;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	struct puzzle p;
	int code = cli_read_puzzle_at(pa.file, pa.problem, &p, NULL);
	if (code != CLI_OK)
		return code;
	code = cli_pieces_solid(pa.file, &p);
	if (code != CLI_OK) {
		puz_clear(&p);
		return code;
	}
	char defout[PATH_MAX];
	const char *out = pa.out;
	if (!out) {
		cli_default_out("print", pa.file, pa.problem, defout, sizeof defout);
		out = defout;
	}
	/* Every copy an assembly may use: MAX of a range. With --wall each
	 * copy is printed as it lies in a solution, which may use fewer. */
	bool walls = pa.print.wall != pa.print.unit;
	size_t ncopies = 0;
	for (size_t i = 0; i < p.npieces; i++) {
		ncopies += puz_piece_max(&p.pieces[i]);
		if (walls && puz_piece_max(&p.pieces[i]) != p.pieces[i].count) {
			cli_error("print: --wall needs each piece's number of copies "
			          "fixed, and piece %s of %s has a range (count %u..%u); "
			          "print it without --wall", p.pieces[i].name, pa.file,
			          p.pieces[i].count, puz_piece_max(&p.pieces[i]));
			puz_clear(&p);
			return CLI_USAGE;
		}
	}
	struct copy *copies = calloc(ncopies, sizeof *copies);
	unsigned char *flags[3] = {NULL, NULL, NULL};
	struct lowest_answer la = {0}; /* the first solution's, if any */
	struct guide_answer ga = {0};
	const struct page_answer *answer = NULL;
	bool fixed = true; /* no range of copies: a solution uses them all */
	for (size_t i = 0; i < p.npieces; i++)
		fixed = fixed && puz_piece_max(&p.pieces[i]) == p.pieces[i].count;
	bool ok = copies != NULL;
	for (int a = 0; a < 3 && walls && ok; a++)
		ok = (flags[a] = calloc(PUZ_MAX_DIM, 1)) != NULL;
	if (!ok) {
		cli_error("print: out of memory");
		code = CLI_FAIL;
	} else if (walls) {
		code = solved_copies(pa.file, &p, copies, flags, &la);
	} else {
		size_t at = 0;
		for (size_t i = 0; i < p.npieces && code == CLI_OK; i++)
			for (unsigned k = 0; k < puz_piece_max(&p.pieces[i]) && code == CLI_OK; k++)
				if (!copy_of_shape(&p.pieces[i].shape, &copies[at++])) {
					cli_error("print: out of memory");
					code = CLI_FAIL;
				}
	}
	bool found = walls, complete = true;
	if (code == CLI_OK && !walls && fixed)
		code = answer_of(&p, ncopies, &la, &found, &complete);
	if (code == CLI_OK && found &&
	    !page_answer_pick(&la, ncopies, &p, PAGES_DIS_NODES, pa.print.unit, &ga,
	                      &answer)) {
		cli_error("print: out of memory");
		code = CLI_FAIL;
	}
	if (code == CLI_OK)
		code = write_all(&pa, &p, copies, ncopies, out, answer);
	guide_answer_clear(&ga);
	lowest_answer_clear(&la);
	if (code == CLI_OK) {
		printf("pieces: %zu\nwrote: %.*s/\n", ncopies, cli_dirlen(out), out);
		if (!found && fixed && complete)
			printf("no solution.html: the puzzle has no solution\n");
		else if (!found && fixed)
			printf("no solution.html: no solution found within %u search "
			       "nodes\n", PRINT_SOLVE_NODES);
	}
	copies_free(copies, ncopies);
	free(copies);
	for (int a = 0; a < 3; a++)
		free(flags[a]);
	puz_clear(&p);
	return code;
}
