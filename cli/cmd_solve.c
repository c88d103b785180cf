/*
 * cmd_solve.c: 'cubegen solve' and 'cubegen check'.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "formats/puz.h"
#include "solver/difficulty.h"
#include "solver/solve.h"

static const char solve_help[] =
	"usage: cubegen solve FILE [--max K] [--max-nodes N] [--print] [--json]\n"
	"                          [--difficulty-nodes N] [--rename-colours]\n"
	"                          [--problem K] [--threads T] [--shard I/K]\n"
	"                          [--disassemble [--min-level N]\n"
	"                          [--disassemble-nodes N]]\n"
	"\n"
	"Count the distinct solutions of a packing puzzle (a .puz file, a\n"
	"Happy Cube .hcq file or a BurrTools .xmpuzzle file) and the assemblies\n"
	"with the goal held fixed.\n"
	"Solutions that a symmetry of the goal maps onto each other count once\n"
	"(mirror images too when every piece's mirror image is in the set;\n"
	"with count ranges, for each solution whose mirror image is one too).\n"
	"Colour puzzles (coloured cells, optional cells plain or coloured,\n"
	"count ranges, distinct regions) are counted exactly the same way.\n"
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
	"                 (it tells congruent shapes apart, with ranges\n"
	"                 pairs mirror images in file order, and with\n"
	"                 --disassemble looks a stuck part's groups up by\n"
	"                 the pieces' places); BurrTools' 'assemblies' are\n"
	"                 what cubegen calls solutions\n"
	"  --difficulty-nodes N\n"
	"                 placements the difficulty search may try (default\n"
	"                 5000000, a second or two; 0: no limit)\n"
	"  --disassemble  take every assembly apart as BurrTools does (pieces\n"
	"                 slide along x, y, z, never turn): 'solutions' counts\n"
	"                 only those that come apart, 'stuck' the others, and\n"
	"                 'level' is the highest BurrTools level (98.2.4: 98\n"
	"                 moves until the first part comes free, ...); --print\n"
	"                 adds the first solution's moves, one per line\n"
	"  --min-level N  with --disassemble: count only solutions whose first\n"
	"                 part needs at least N moves to come free\n"
	"  --disassemble-nodes N\n"
	"                 positions one disassembly search may keep (default\n"
	"                 4000000); an assembly stopped there is 'undecided',\n"
	"                 never 'stuck'\n"
	"  --threads T    search on T threads (default: every core, here %ld);\n"
	"                 the counts are the same for any T\n"
	"  --shard I/K    search only the I-th of K disjoint parts of the search\n"
	"                 (1 <= I <= K), with --json, so that K runs anywhere do\n"
	"                 one search together; 'cubegen merge' adds them up\n"
	"\n"
	"A search that takes more than a second shows its progress on stderr\n"
	"when that is a terminal (never with --json).\n"
	"\n"
	"The difficulty is dead ends per solution of a search that works the way\n"
	"a person does (higher is harder; see 'man cubegen'). It is measured\n"
	"only when the count is complete.\n"
	"\n"
	"Exit 0 when the count ran (to its end, or to --max or --max-nodes,\n"
	"which 'stopped:' says), 1 when it could not (out of memory, too big\n"
	"to search), 2 on bad usage or input.\n";

static const char check_help[] =
	"usage: cubegen check FILE [--max-nodes N] [--difficulty-nodes N]\n"
	"                          [--rename-colours] [--problem K]\n"
	"                          [--disassemble [--min-level N]\n"
	"                          [--disassemble-nodes N]]\n"
	"\n"
	"Say whether a puzzle (.puz, .hcq, or problem K of a BurrTools\n"
	".xmpuzzle file) has exactly one solution, and how\n"
	"hard it is (as 'cubegen solve'). With --disassemble, exactly one\n"
	"solution that comes apart (as 'cubegen solve --disassemble').\n"
	"A search past a second shows its progress on stderr when that is a\n"
	"terminal (never with --json).\n"
	"Exit 0 when it does, 1 when it has none or several (or the node budget\n"
	"ran out first), 2 on bad input.\n";

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

/* The moves of a disassembly as text, one line each: the moving pieces'
 * names, the direction and the distance or "out" ("A B +x 2", "C -z
 * out"). NULL when out of memory; free with free_lines(). */
static char **move_lines(const struct puzzle *p, const struct solve_moves *m)
{
	static const char *const dirs[] = {"+x", "-x", "+y", "-y", "+z", "-z"};
	char **lines = calloc(m->nmoves ? m->nmoves : 1, sizeof *lines);
	if (!lines)
		return NULL;
	for (size_t i = 0; i < m->nmoves; i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&text, &len);
		if (!fp)
			goto fail;
		const struct dis_move *mv = &m->moves[i];
		for (size_t k = 0; k < m->npieces; k++)
			if (mv->group >> k & 1)
				fprintf(fp, "%s ", p->pieces[m->piece[k]].name);
		if (mv->dist)
			fprintf(fp, "%s %d", dirs[mv->dir], mv->dist);
		else
			fprintf(fp, "%s out", dirs[mv->dir]);
		if (fclose(fp) != 0) {
			free(text);
			goto fail;
		}
		lines[i] = text;
	}
	return lines;
fail:
	for (size_t i = 0; i < m->nmoves; i++)
		free(lines[i]);
	free(lines);
	return NULL;
}

static void free_lines(char **lines, size_t n)
{
	for (size_t i = 0; lines && i < n; i++)
		free(lines[i]);
	free(lines);
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

/* The difficulty search's progress on a terminal (struct diff_watch),
 * its context a struct cli_progress. */
static void measure_show(void *ctx, uint64_t nodes, uint64_t budget)
{
	struct cli_progress *pg = ctx;
	double el;
	if (!cli_status_due(&pg->line, &el))
		return;
	if (budget)
		cli_status_show(&pg->line, "%s: %.1f of at most %.1f million "
		                "placements, %.1f s", pg->what, (double)nodes / 1e6,
		                (double)budget / 1e6, el);
	else
		cli_status_show(&pg->line, "%s: %.1f million placements, %.1f s",
		                pg->what, (double)nodes / 1e6, el);
}

/* The difficulty of 'p' within 'budget' nodes, when 'run'; 'count' is
 * its complete count (NULL: unknown, as for a shard or check). With
 * 'show', a search that takes more than a second says how far it is on
 * a terminal. */
static int measure(const struct puzzle *p, uint64_t budget, bool run,
                   const struct solve_result *count, bool show,
                   struct difficulty *d)
{
	memset(d, 0, sizeof *d);
	d->budget = budget;
	if (!run) {
		d->why = "not measured: the count stopped early";
		return SOLVE_OK;
	}
	struct cli_progress pg;
	bool on = cli_progress_begin(&pg, "measuring the difficulty", show);
	struct diff_watch w = {.fn = measure_show, .ctx = &pg};
	int rc = diff_puzzle_watched(p, budget, count ? count->assemblies : 0,
	                             count ? count->nodes : 0, on ? &w : NULL,
	                             &d->r);
	cli_progress_end(&pg);
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

/* The text after "difficulty: ". */
static void difficulty_text(const struct difficulty *d, char *buf, size_t len)
{
	if (d->over)
		snprintf(buf, len, "%s %llu (0 lifts the limit)", d->why,
		         (unsigned long long)d->budget);
	else if (!d->has)
		snprintf(buf, len, "%s", d->why);
	else
		snprintf(buf, len, "%.2f (%llu dead ends / %llu %s, %s search)",
		         d->score, (unsigned long long)d->r.dead,
		         (unsigned long long)d->r.wins,
		         d->r.method == DIFF_PLATES ? "assemblies" : "covers",
		         d->r.method == DIFF_PLATES ? "plate-by-plate" : "cell-by-cell");
}

static void print_difficulty(const struct difficulty *d)
{
	char buf[256];
	difficulty_text(d, buf, sizeof buf);
	printf("difficulty: %s\n", buf);
}

/* What a shard's result must agree on with the others' to be merged: the
 * puzzle as the .puz writer writes it, the options that shape the search,
 * and the version (whose task split it is), as 16 hex digits of FNV-1a.
 * False when out of memory. */
static bool fingerprint(const struct puzzle *p, const struct solve_args *c,
                        char out[17])
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp)
		return false;
	bool ok = fprintf(fp, "cubegen %s tasks %u rename_colours %d\n",
	                  CUBEGEN_VERSION, SOLVE_TASKS, c->rename_colours) > 0 &&
	          (!c->disassemble ||
	           fprintf(fp, "disassemble min_level %u nodes %llu\n",
	                   c->min_level, (unsigned long long)c->dis_nodes) > 0) &&
	          puz_write(fp, p) == PUZ_OK;
	ok &= fclose(fp) == 0;
	if (ok) {
		uint64_t h = 14695981039346656037u;
		for (size_t i = 0; i < len; i++) {
			h ^= (unsigned char)text[i];
			h *= 1099511628211u;
		}
		snprintf(out, 17, "%016llx", (unsigned long long)h);
	}
	free(text);
	return ok;
}

/* Parse; 0 to go on, else the exit code (help printed, or bad usage). */
static int parse(int argc, char **argv, bool check, struct solve_args *c)
{
	switch (args_solve(argc, argv, check, c)) {
	case ARGS_HELP:
		if (check)
			fputs(check_help, stdout);
		else
			printf(solve_help, (long)cli_cores(SOLVE_MAX_THREADS));
		return -1;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	return 0;
}

/* The puzzle of c->file (its problem c->problem): CLI_OK, or the exit
 * code, the error said. A BurrTools file whose groups split a piece is
 * refused with --disassemble; with it, xi says too where BurrTools may
 * take its assemblies apart differently. */
static int read_solve_puzzle(const struct solve_args *c, struct puzzle *p,
                             struct xmp_info *xi)
{
	int rc = cli_read_puzzle_dis(c->file, c->problem, c->disassemble, p, xi);
	if (rc != CLI_OK)
		return rc;
	if (c->disassemble && !xi->differs && xi->dis_differs) {
		xi->differs = true;
		snprintf(xi->why, sizeof xi->why, "%s", xi->dis_why);
	}
	return CLI_OK;
}

int cmd_solve(int argc, char **argv)
{
	struct solve_args c;
	int pc = parse(argc, argv, false, &c);
	if (pc)
		return pc < 0 ? CLI_OK : pc;
	struct puzzle p;
	struct xmp_info xi;
	int rrc = read_solve_puzzle(&c, &p, &xi);
	if (rrc != CLI_OK)
		return rrc;
	char fp[17] = "";
	if (c.shard_count && !fingerprint(&p, &c, fp)) {
		cli_error("%s: %s", c.file, solve_strerror(SOLVE_ENOMEM));
		puz_clear(&p);
		return CLI_FAIL;
	}
	unsigned threads = c.threads ? c.threads : cli_cores(SOLVE_MAX_THREADS);
	struct solve_opts o = {.max_solutions = c.max, .max_nodes = c.max_nodes,
	                       .keep_first = c.print,
	                       .rename_colours = c.rename_colours,
	                       .threads = threads,
	                       .shard_index = c.shard_index,
	                       .shard_count = c.shard_count,
	                       .disassemble = c.disassemble,
	                       .min_level = c.min_level,
	                       .dis_max_nodes = c.dis_nodes};
	/* One thread, no shard, every count complete: the tree walked whole
	 * instead of cut into tasks, each replayed from the root (the same
	 * counts, nodes, first solution and disassembly; the replays cost
	 * the 2x5x7 slabs a fifth of their time). cli_progress_on() cuts it
	 * again where the progress line needs tasks. A search stopped by
	 * --max or --max-nodes stays cut, so that it stops where it does on
	 * any number of threads. */
	if (threads == 1 && !c.shard_count && !c.max && !c.max_nodes)
		o.threads = 0;
	double t0 = cli_now();
	struct cli_progress prog;
	cli_progress_on(&prog, "solving", !c.json, &o);
	struct solve_result r;
	int rc = solve_puzzle(&p, &o, &r);
	double secs = cli_now() - t0;
	cli_progress_end(&prog);
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", c.file, solve_strerror(rc));
		puz_clear(&p);
		return CLI_FAIL;
	}
	/* A shard measures the difficulty only when it is the first: the
	 * merged result takes it from there. */
	struct difficulty d;
	bool measured = !c.shard_count || c.shard_index == 0;
	rc = measure(&p, c.diff_nodes, r.complete && measured,
	             c.shard_count ? NULL : &r, !c.json, &d);
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", c.file, solve_strerror(rc));
		solve_result_clear(&r);
		puz_clear(&p);
		return CLI_FAIL;
	}
	if (!measured)
		d.why = "not measured: measured by shard 1";
	char dtext[256];
	difficulty_text(&d, dtext, sizeof dtext);
	struct count_report rep = {
		.file = c.file, .name = p.name, .solutions = r.solutions,
		.assemblies = r.assemblies, .nodes = r.nodes, .complete = r.complete,
		.stop = r.stop == SOLVE_MAX_SOLUTIONS ? "max"
		      : r.stop == SOLVE_MAX_NODES ? "max-nodes" : "done",
		.seconds = secs, .symmetries = r.group_order,
		.mirror_closed = r.mirror_closed, .mirror_some = r.mirror_some,
		.why = r.why,
		.rename_colours = c.rename_colours, .renamings = r.rename_order,
		.diff_has = d.has, .diff_score = d.score,
		.diff_method = diff_method_name(d.r.method),
		/* cut off by its budget or not started: no count (the same
		 * either way, so merge agrees) */
		.dead_ends = d.over ? 0 : d.r.dead,
		.diff_text = dtext, .tasks = r.tasks, .threads = threads,
		.problem = xi.nproblems ? (c.problem ? c.problem : 1) : 0,
		.problems = xi.nproblems,
		.burrtools_why = xi.differs ? xi.why : NULL,
		.disassembled = r.disassembled, .min_level = c.min_level,
		.stuck = r.stuck, .undecided = r.undecided,
		.below_min = r.below_min,
		.max_level_solutions = r.max_level_solutions,
		.max_level = r.hardest_moves.level,
		.nmax_level = r.hardest_moves.nlevel,
		.nmoves = r.hardest_moves.nmoves,
	};
	char **hard = NULL, **firstm = NULL;
	if (r.disassembled) {
		hard = move_lines(&p, &r.hardest_moves);
		firstm = move_lines(&p, &r.first_moves);
		if (!hard || !firstm) {
			cli_error("%s: %s", c.file, solve_strerror(SOLVE_ENOMEM));
			free_lines(hard, r.hardest_moves.nmoves);
			free_lines(firstm, r.first_moves.nmoves);
			solve_result_clear(&r);
			puz_clear(&p);
			return CLI_FAIL;
		}
		rep.moves = hard;
	}
	if (c.json) {
		report_json_fields(&rep);
		if (c.shard_count) {
			/* what merge needs: the part, the split, the un-divided
			 * count; and the name and difficulty text for its output */
			printf(", \"shard_index\": %u, \"shard_count\": %u, "
			       "\"fingerprint\": \"%s\", \"numerator\": %llu, "
			       "\"divisor\": %llu, \"split_nodes\": %llu, %s",
			       c.shard_index + 1, c.shard_count, fp,
			       (unsigned long long)r.numerator,
			       (unsigned long long)r.divisor,
			       (unsigned long long)r.split_nodes,
			       r.disassembled ? "" : "\"name\": ");
			if (r.disassembled)
				printf("\"stuck_num\": %llu, \"undecided_num\": %llu, "
				       "\"below_num\": %llu, \"max_level_num\": %llu, "
				       "\"max_level_task\": %llu, \"name\": ",
				       (unsigned long long)r.stuck_num,
				       (unsigned long long)r.undecided_num,
				       (unsigned long long)r.below_num,
				       (unsigned long long)r.max_level_num,
				       (unsigned long long)r.max_level_task);
			report_json_string(p.name);
			printf(", \"difficulty_text\": ");
			report_json_string(dtext);
		}
		printf("}\n");
	} else {
		if (c.shard_count)
			printf("shard: %u/%u of %llu tasks (a part of the count: 'cubegen "
			       "merge' adds up the --json outputs of all %u)\n",
			       c.shard_index + 1, c.shard_count,
			       (unsigned long long)r.tasks, c.shard_count);
		report_text(&rep);
		if (c.print && r.first) {
			printf("first solution:\n");
			print_first(&p, r.first, r.first_colours);
		}
		if (c.print && r.first && r.disassembled) {
			char lv[DIS_LEVEL_TEXT];
			report_level(r.first_moves.level, r.first_moves.nlevel, lv,
			             sizeof lv);
			printf("its moves (level %s):\n", r.first_moves.nlevel ? lv : "0");
			for (size_t i = 0; i < r.first_moves.nmoves; i++)
				printf("%s\n", firstm[i]);
		}
	}
	free_lines(hard, r.hardest_moves.nmoves);
	free_lines(firstm, r.first_moves.nmoves);
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
	int rrc = read_solve_puzzle(&c, &p, &xi);
	if (rrc != CLI_OK)
		return rrc;
	if (xi.differs)
		printf("%s: burrtools: counts differently: %s\n", c.file, xi.why);
	/* Two solutions are enough to say "not unique". */
	struct solve_opts o = {.max_solutions = 2, .max_nodes = c.max_nodes,
	                       .rename_colours = c.rename_colours,
	                       .disassemble = c.disassemble,
	                       .min_level = c.min_level,
	                       .dis_max_nodes = c.dis_nodes};
	struct cli_progress prog;
	cli_progress_on(&prog, "checking", !c.json, &o);
	struct solve_result r;
	int rc = solve_puzzle(&p, &o, &r);
	cli_progress_end(&prog);
	struct difficulty d;
	if (rc == SOLVE_OK) {
		rc = measure(&p, c.diff_nodes, r.stop != SOLVE_MAX_NODES, NULL,
		             !c.json, &d);
		if (rc != SOLVE_OK)
			solve_result_clear(&r);
	}
	puz_clear(&p);
	if (rc != SOLVE_OK) {
		cli_error("%s: %s", c.file, solve_strerror(rc));
		return CLI_FAIL;
	}
	int exit_code = CLI_FAIL;
	/* with --disassemble, a solution left undecided by a search bound
	 * may come apart: no verdict of uniqueness then */
	const char *what = !c.disassemble ? ""
	                 : c.min_level ? " that comes apart (level at least "
	                                 "--min-level)"
	                 : " that comes apart";
	if (c.disassemble && r.undecided && r.solutions <= 1)
		printf("%s: undecided: %llu solution(s) could not be taken apart "
		       "(a search bound, see --disassemble-nodes, or more than "
		       "64 pieces)\n", c.file,
		       (unsigned long long)r.undecided);
	else if (r.stop == SOLVE_MAX_NODES)
		printf("%s: undecided: the node budget ran out after %llu "
		       "solution(s)\n", c.file, (unsigned long long)r.solutions);
	else if (r.solutions == 0)
		printf("%s: not unique: no solution%s%s%s\n", c.file, what,
		       r.why[0] ? ": " : "", r.why);
	else if (r.solutions == 1) {
		printf("%s: unique: exactly 1 solution%s\n", c.file, what);
		exit_code = CLI_OK;
	} else
		printf("%s: not unique: %s%llu solutions%s\n", c.file,
		       r.complete ? "" : "at least ", (unsigned long long)r.solutions,
		       c.disassemble ? " that come apart" : "");
	print_difficulty(&d);
	solve_result_clear(&r);
	return exit_code;
}
