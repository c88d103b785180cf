/*
 * cmd_solve.c: 'cubegen solve' and 'cubegen check'.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "solver/difficulty.h"
#include "solver/solve.h"

static const char solve_help[] =
	"usage: cubegen solve FILE [--max K] [--max-nodes N] [--print] [--json]\n"
	"                          [--difficulty-nodes N] [--rename-colours]\n"
	"                          [--problem K]\n"
	"\n"
	"Count the distinct solutions of a packing puzzle (a .puz file, a\n"
	"Happy Cube .hcq file or a BurrTools .xmpuzzle file) and the assemblies\n"
	"with the goal held fixed.\n"
	"Solutions that a symmetry of the goal maps onto each other count once\n"
	"(mirror images too when every piece's mirror image is in the set).\n"
	"Colour puzzles (coloured cells, optional cells, count ranges, distinct\n"
	"regions) are counted exactly the same way.\n"
	"\n"
	"  --max K        stop after K distinct solutions (the count is then a\n"
	"                 lower bound)\n"
	"  --max-nodes N  stop after trying N placements (likewise)\n"
	"  --print        draw the first solution layer by layer (z = 0 first),\n"
	"                 with the colours beside the pieces in a colour puzzle\n"
	"  --rename-colours\n"
	"                 also count as one the solutions that are the same\n"
	"                 after renaming the colours (one renaming for pieces\n"
	"                 and goal alike, with a symmetry of the goal)\n"
	"  --json         print one JSON object: solutions, assemblies, complete,\n"
	"                 nodes, seconds, symmetries, mirror_closed, difficulty\n"
	"  --problem K    the K-th problem of a BurrTools file (default 1); a\n"
	"                 line says when BurrTools would count it differently\n"
	"                 (it tells congruent shapes apart); BurrTools'\n"
	"                 'assemblies' are what cubegen calls solutions\n"
	"  --difficulty-nodes N\n"
	"                 placements the difficulty search may try (default\n"
	"                 5000000, a second or two; 0: no limit)\n"
	"\n"
	"The difficulty is dead ends per solution of a search that works the way\n"
	"a person does (higher is harder; see 'man cubegen'). It is measured\n"
	"only when the count is complete.\n";

static const char check_help[] =
	"usage: cubegen check FILE [--max-nodes N] [--difficulty-nodes N]\n"
	"                          [--rename-colours] [--problem K]\n"
	"\n"
	"Say whether a puzzle (.puz, .hcq, or problem K of a BurrTools\n"
	".xmpuzzle file) has exactly one solution, and how\n"
	"hard it is (as 'cubegen solve').\n"
	"Exit 0 when it does, 1 when it has none or several (or the node budget\n"
	"ran out first), 2 on bad input.\n";

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* The first solution, layer by layer, one symbol per piece of the file
 * (the copies of a piece with count K share its symbol). Pieces named by
 * one character are drawn by their names; otherwise a legend lists the
 * symbol of every piece. */
static void print_first(const struct puzzle *p, const unsigned char *lab,
                        const unsigned char *col)
{
	bool single = true;
	for (size_t i = 0; i < p->npieces; i++)
		single &= strlen(p->pieces[i].name) == 1;
	static const char sym[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	const struct grid *g = &p->goal;
	if (!single) {
		printf("pieces:");
		for (size_t i = 0; i < p->npieces; i++) {
			printf(" %c=%s", i < sizeof sym - 1 ? sym[i] : '?',
			       p->pieces[i].name);
			if (p->pieces[i].count_max)
				printf("(x%u..%u)", p->pieces[i].count,
				       p->pieces[i].count_max);
			else if (p->pieces[i].count > 1)
				printf("(x%u)", p->pieces[i].count);
		}
		putchar('\n');
	}
	for (int z = 0; z < g->nz; z++) {
		printf("z = %d\n", z);
		for (int y = 0; y < g->ny; y++) {
			for (int x = 0; x < g->nx; x++) {
				unsigned v = lab[puz_grid_index(g, x, y, z)];
				char c = '.';
				if (v && single)
					c = p->pieces[v - 1].name[0];
				else if (v)
					c = v - 1 < sizeof sym - 1 ? sym[v - 1] : '?';
				putchar(c);
			}
			/* beside it, the colour of every piece cell: its letter,
			 * '#' plain, '.' none */
			for (int x = 0; col && x < g->nx; x++) {
				size_t i = puz_grid_index(g, x, y, z);
				int k = col[i];
				if (x == 0)
					fputs("   ", stdout);
				putchar(k ? 'a' + k - 1 : lab[i] ? '#' : '.');
			}
			putchar('\n');
		}
		if (z + 1 < g->nz)
			putchar('\n');
	}
}

/* The difficulty, or why there is none. */
struct difficulty {
	bool has;
	double score;
	struct diff_result r;
	const char *why; /* when !has */
	bool over;       /* the budget ran out */
	uint64_t budget;
};

static int measure(const struct puzzle *p, uint64_t budget, bool run,
                   struct difficulty *d)
{
	memset(d, 0, sizeof *d);
	d->budget = budget;
	if (!run) {
		d->why = "not measured: the count stopped early";
		return SOLVE_OK;
	}
	if (!puz_plain(p)) {
		d->why = "not measured: colour puzzles are not scored yet";
		return SOLVE_OK;
	}
	int rc = diff_puzzle(p, budget, &d->r);
	if (rc != SOLVE_OK)
		return rc;
	d->has = diff_score(&d->r, &d->score);
	d->over = !d->r.complete;
	if (d->over)
		d->why = "not measured: over --difficulty-nodes";
	else if (!d->has)
		d->why = "none: no assembly";
	return SOLVE_OK;
}

static void print_difficulty(const struct difficulty *d)
{
	if (d->over) {
		printf("difficulty: %s %llu (0 lifts the limit)\n", d->why,
		       (unsigned long long)d->budget);
		return;
	}
	if (!d->has) {
		printf("difficulty: %s\n", d->why);
		return;
	}
	printf("difficulty: %.2f (%llu dead ends / %llu %s, %s search)\n", d->score,
	       (unsigned long long)d->r.dead, (unsigned long long)d->r.wins,
	       d->r.method == DIFF_PLATES ? "assemblies" : "covers",
	       d->r.method == DIFF_PLATES ? "plate-by-plate" : "cell-by-cell");
}

static void json_difficulty(const struct difficulty *d)
{
	if (d->has)
		printf(", \"difficulty\": %.6f", d->score);
	else
		printf(", \"difficulty\": null");
	printf(", \"difficulty_method\": \"%s\", \"dead_ends\": %llu",
	       diff_method_name(d->r.method), (unsigned long long)d->r.dead);
}

/* Parse; 0 to go on, else the exit code (help printed, or bad usage). */
static int parse(int argc, char **argv, bool check, struct solve_args *c)
{
	switch (args_solve(argc, argv, check, c)) {
	case ARGS_HELP:
		fputs(check ? check_help : solve_help, stdout);
		return -1;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	return 0;
}

int cmd_solve(int argc, char **argv)
{
	struct solve_args c;
	int pc = parse(argc, argv, false, &c);
	if (pc)
		return pc < 0 ? CLI_OK : pc;
	struct puzzle p;
	struct xmp_info xi;
	int rrc = cli_read_puzzle_at(c.file, c.problem, &p, &xi);
	if (rrc != CLI_OK)
		return rrc;
	struct solve_opts o = {.max_solutions = c.max, .max_nodes = c.max_nodes,
	                       .keep_first = c.print,
	                       .rename_colours = c.rename_colours};
	struct solve_result r;
	double t0 = now();
	int rc = solve_puzzle(&p, &o, &r);
	double secs = now() - t0;
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", c.file, solve_strerror(rc));
		puz_clear(&p);
		return CLI_FAIL;
	}
	struct difficulty d;
	rc = measure(&p, c.diff_nodes, r.complete, &d);
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", c.file, solve_strerror(rc));
		solve_result_clear(&r);
		puz_clear(&p);
		return CLI_FAIL;
	}
	const char *stop = r.stop == SOLVE_MAX_SOLUTIONS ? "max"
	                 : r.stop == SOLVE_MAX_NODES ? "max-nodes" : "done";
	if (c.json) {
		printf("{\"file\": ");
		json_string(c.file);
		printf(", \"solutions\": %llu, \"assemblies\": %llu, \"complete\": %s, "
		       "\"nodes\": %llu, \"seconds\": %.6f, \"symmetries\": %d, "
		       "\"mirror_closed\": %s, \"stop\": \"%s\"",
		       (unsigned long long)r.solutions, (unsigned long long)r.assemblies,
		       r.complete ? "true" : "false", (unsigned long long)r.nodes, secs,
		       r.group_order, r.mirror_closed ? "true" : "false", stop);
		if (r.why[0]) {
			printf(", \"why\": ");
			json_string(r.why);
		}
		printf(", \"rename_colours\": %s", c.rename_colours ? "true" : "false");
		if (xi.nproblems) {
			printf(", \"problem\": %llu, \"problems\": %zu, \"burrtools_differs\": ",
			       (unsigned long long)(c.problem ? c.problem : 1), xi.nproblems);
			if (xi.differs)
				json_string(xi.why);
			else
				printf("null");
		}
		if (c.rename_colours)
			printf(", \"renamings\": %llu", (unsigned long long)r.rename_order);
		json_difficulty(&d);
		printf("}\n");
	} else {
		const char *lb = r.complete ? "" : "at least ";
		printf("puzzle: %s\n", p.name[0] ? p.name : c.file);
		if (xi.differs)
			printf("burrtools: counts differently: %s\n", xi.why);
		printf("solutions: %s%llu\n", lb, (unsigned long long)r.solutions);
		printf("assemblies: %s%llu\n", lb, (unsigned long long)r.assemblies);
		if (r.why[0])
			printf("why: %s\n", r.why);
		if (!r.complete)
			printf("stopped: %s\n", r.stop == SOLVE_MAX_SOLUTIONS
			       ? "--max solutions found" : "--max-nodes reached");
		printf("symmetries: %d%s\n", r.group_order,
		       r.mirror_closed ? " (with mirror images: the pieces are mirror-closed)"
		                       : " (rotations only)");
		if (c.rename_colours)
			printf("renamings: %llu (symmetries combined with renamings of "
			       "colours that keep the puzzle; solutions count up to "
			       "them)\n", (unsigned long long)r.rename_order);
		printf("nodes: %llu\n", (unsigned long long)r.nodes);
		printf("time: %.6f s\n", secs);
		print_difficulty(&d);
		if (c.print && r.first) {
			printf("first solution:\n");
			print_first(&p, r.first, r.first_colours);
		}
	}
	solve_result_clear(&r);
	puz_clear(&p);
	return CLI_OK;
}

int cmd_check(int argc, char **argv)
{
	struct solve_args c;
	int pc = parse(argc, argv, true, &c);
	if (pc)
		return pc < 0 ? CLI_OK : pc;
	struct puzzle p;
	struct xmp_info xi;
	int rrc = cli_read_puzzle_at(c.file, c.problem, &p, &xi);
	if (rrc != CLI_OK)
		return rrc;
	if (xi.differs)
		printf("%s: burrtools: counts differently: %s\n", c.file, xi.why);
	/* Two solutions are enough to say "not unique". */
	struct solve_opts o = {.max_solutions = 2, .max_nodes = c.max_nodes,
	                       .rename_colours = c.rename_colours};
	struct solve_result r;
	int rc = solve_puzzle(&p, &o, &r);
	struct difficulty d;
	if (rc == SOLVE_OK) {
		rc = measure(&p, c.diff_nodes, r.stop != SOLVE_MAX_NODES, &d);
		if (rc != SOLVE_OK)
			solve_result_clear(&r);
	}
	puz_clear(&p);
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", c.file, solve_strerror(rc));
		return CLI_FAIL;
	}
	int exit_code = CLI_FAIL;
	if (r.stop == SOLVE_MAX_NODES)
		printf("%s: undecided: the node budget ran out after %llu "
		       "solution(s)\n", c.file, (unsigned long long)r.solutions);
	else if (r.solutions == 0)
		printf("%s: not unique: no solution%s%s\n", c.file,
		       r.why[0] ? ": " : "", r.why);
	else if (r.solutions == 1) {
		printf("%s: unique: exactly 1 solution\n", c.file);
		exit_code = CLI_OK;
	} else
		printf("%s: not unique: %s%llu solutions\n", c.file,
		       r.complete ? "" : "at least ", (unsigned long long)r.solutions);
	print_difficulty(&d);
	solve_result_clear(&r);
	return exit_code;
}
