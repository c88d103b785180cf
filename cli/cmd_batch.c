/*
 * cmd_batch.c: 'cubegen batch': for every seed of a range, search for a
 * puzzle exactly as 'generate' does (the same candidates from the seed's
 * stream, the same uniqueness check and its confirmation, the same
 * difficulty band) and print one JSON line about it; write no files.
 *
 * A line depends only on its seed and the options, never on the seeds
 * before it (each seed starts its own stream), so a range split in two
 * and run anywhere gives the same lines as the whole, apart from
 * "seconds": any job runner can spread a range over machines.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/blocksjob.h"
#include "cli/cli.h"
#include "gen/gen.h"
#include "solver/solve.h"

static const char help[] =
	"usage: cubegen batch [--size N|XxYxZ] --seeds A..B\n"
	"                     [--difficulty easy|medium|hard|expert]\n"
	"                     [--max-attempts K]\n"
	"       cubegen batch --kind blocks [--size N|XxYxZ | --goal FILE]\n"
	"                     [--pieces A..B] [--cells A..B] [--support-free]\n"
	"                     [--level N] [--threads T]\n"
	"                     --seeds A..B [--difficulty B] [--max-attempts K]\n"
	"\n"
	"For every seed from A to B, find the puzzle 'cubegen generate' would\n"
	"make from it (same options, same search) and print one JSON line about\n"
	"it on standard output; no files are written. Lines depend only on their\n"
	"seed, so a range split in parts (say 1..500 and 501..1000) and run on\n"
	"different machines gives, concatenated, the lines of the whole range\n"
	"(apart from \"seconds\").\n"
	"\n"
	"  --size N|XxYxZ    cube size in cells, or a box like 4x5x6; each side\n"
	"                    3 to 64 (default 5)\n"
	"  --seeds A..B      the seeds, whole numbers from 0 to\n"
	"                    18446744073709551615, A <= B, both included\n"
	"  --difficulty B    a puzzle in band B: easy, medium, hard or expert\n"
	"                    (plates only), as generate does\n"
	"  --max-attempts K  candidates to try per seed, 1 to 1000000 (default\n"
	"                    1000; 20000 for hard and expert plates)\n"
	"  --kind, --pieces, --cells, --goal, --support-free, --level, --threads\n"
	"                    block puzzles, as generate has them (with the\n"
	"                    default --unit and --clearance)\n"
	"\n"
	"Each line is an object with these fields:\n"
	"  seed        the seed\n"
	"  size        \"5\" for a cube, \"4x5x6\" for a box, as generate prints it\n"
	"  attempts    candidates drawn (generate's 'attempts')\n"
	"  found       true when a unique puzzle (in the band) was found within\n"
	"              --max-attempts; false when not, and then solutions,\n"
	"              difficulty and band are null\n"
	"  solutions   1 (the puzzle generate would write has one solution)\n"
	"  difficulty  its score, as generate prints it but to 6 decimals\n"
	"  band        the band asked for with --difficulty, else null\n"
	"  nodes       search nodes of the uniqueness checks of all candidates\n"
	"  seconds     the time this seed took (the one field that varies)\n"
	"\n"
	"With --kind blocks each line has seed, \"kind\": \"blocks\", size,\n"
	"attempts, found, solutions, pieces (how many), level (as generate prints\n"
	"it), difficulty, band, proofs (uniqueness proofs run), nodes and\n"
	"seconds; solutions, pieces, level and difficulty are null when none\n"
	"was found.\n"
	"\n"
	"While it runs, the seeds done and the time taken show on standard error\n"
	"when that is a terminal (never in a pipe or a file).\n"
	"\n"
	"Exit 0 when every seed has its line (found or not), 1 when out of memory\n"
	"or the lines cannot be written, 2 on bad usage.\n";

/* Progress on stderr when it is a terminal: "batch: 12 of 100 seeds,
 * 3.2 s" rewritten in place at most five times a second. */
struct progress {
	bool tty;
	bool open;       /* a progress line waits for its newline */
	uint64_t total;  /* seeds in the range */
	double start, shown;
};

static void progress_show(struct progress *p, uint64_t done, bool last)
{
	double t = cli_now();
	if (!p->tty || (!last && t - p->shown < 0.2))
		return;
	fprintf(stderr, "\rbatch: %llu of %llu seeds, %.1f s ",
	        (unsigned long long)done, (unsigned long long)p->total,
	        t - p->start);
	p->shown = t;
	p->open = true;
}

/* End the progress line, so an error or the shell prompt starts afresh. */
static void progress_end(struct progress *p)
{
	if (p->open)
		fputc('\n', stderr);
	p->open = false;
}

/* What one seed gave. */
struct seed_result {
	struct gen_found found;
	double seconds;
};

/* Search seed 's' as cmd_generate() does: gen_find() from the seed's own
 * stream, then gen_confirm() on what it found. CLI_OK with '*out' filled,
 * else the error printed and CLI_FAIL. */
static int run_seed(const struct batch_args *b, const struct gen_bands *bands,
                    uint64_t s, struct progress *p, struct seed_result *out)
{
	double t0 = cli_now();
	struct rng r;
	rng_seed(&r, s);
	struct gen_puzzle g = {0};
	struct gen_found f;
	if (gen_find(&r, b->size, b->attempts, (enum gen_band)b->band, bands, &g,
	             &f) != GEN_OK) {
		progress_end(p);
		cli_error("batch: out of memory at seed %llu", (unsigned long long)s);
		return CLI_FAIL;
	}
	if (f.found) {
		bool confirmed = false;
		int rc = gen_confirm(&g, &confirmed);
		gen_puzzle_clear(&g);
		if (rc != SOLVE_OK || !confirmed)
			progress_end(p);
		if (rc != SOLVE_OK) {
			cli_error("batch: %s at seed %llu", solve_strerror(rc),
			          (unsigned long long)s);
			return CLI_FAIL;
		}
		if (!confirmed) {
			cli_error("batch: internal error: the two searches disagree on "
			          "seed %llu attempt %llu (please report this seed)",
			          (unsigned long long)s, (unsigned long long)f.attempts);
			return CLI_FAIL;
		}
	}
	out->found = f;
	out->seconds = cli_now() - t0;
	return CLI_OK;
}

/* The line of seed 's'; false when stdout fails (errno set). */
static bool print_line(const struct batch_args *b, const char *size,
                       uint64_t s, const struct seed_result *res)
{
	const struct gen_found *f = &res->found;
	int n = printf("{\"seed\": %llu, \"size\": \"%s\", \"attempts\": %llu, "
	               "\"found\": %s, ", (unsigned long long)s, size,
	               (unsigned long long)f->attempts, f->found ? "true" : "false");
	if (n >= 0 && f->found)
		n = printf("\"solutions\": 1, \"difficulty\": %.6f, \"band\": ",
		           f->difficulty);
	else if (n >= 0)
		n = printf("\"solutions\": null, \"difficulty\": null, \"band\": ");
	if (n >= 0 && f->found && b->band != GEN_BAND_ANY)
		n = printf("\"%s\", ", gen_band_name((enum gen_band)b->band));
	else if (n >= 0)
		n = printf("null, ");
	if (n >= 0)
		n = printf("\"nodes\": %llu, \"seconds\": %.6f}\n",
		           (unsigned long long)f->nodes, res->seconds);
	/* A line at a time, so a job killed midway leaves whole lines. */
	return n >= 0 && fflush(stdout) == 0;
}

/* The block puzzles' lines: one job for every seed. */
static int batch_blocks(const struct batch_args *b, struct progress *p)
{
	struct blocks_job job;
	int rc = blocks_job_init(&job, "batch", b->size, b->goal, b->pieces,
	                         b->cells, b->support_free, b->level, b->attempts,
	                         b->threads, PRINT_DEFAULT_UNIT,
	                         PRINT_DEFAULT_CLEARANCE, b->band);
	if (rc != CLI_OK)
		return rc;
	uint64_t done = 0;
	for (uint64_t s = b->first;; s++) {
		double t0 = cli_now();
		struct blk_puzzle puz;
		struct blk_found f;
		double score = 0;
		rc = blocks_job_run(&job, "batch", s, &puz, &f, &score);
		if (rc != CLI_OK)
			break;
		double secs = cli_now() - t0;
		int n = printf("{\"seed\": %llu, \"kind\": \"blocks\", \"size\": "
		               "\"%s\", \"attempts\": %llu, \"found\": %s, ",
		               (unsigned long long)s, job.size,
		               (unsigned long long)f.attempts, f.found ? "true" : "false");
		if (n >= 0 && f.found) {
			char level[DIS_LEVEL_TEXT];
			blocks_level_text(&puz.dis, level, sizeof level);
			n = printf("\"solutions\": 1, \"pieces\": %zu, \"level\": \"%s\", "
			           "\"difficulty\": %.6f, ", puz.npieces, level, score);
			blk_puzzle_clear(&puz);
		} else if (n >= 0) {
			n = printf("\"solutions\": null, \"pieces\": null, \"level\": null, "
			           "\"difficulty\": null, ");
		}
		if (n >= 0 && f.found && b->band != GEN_BAND_ANY)
			n = printf("\"band\": \"%s\", ", gen_band_name((enum gen_band)b->band));
		else if (n >= 0)
			n = printf("\"band\": null, ");
		if (n >= 0)
			n = printf("\"proofs\": %llu, \"nodes\": %llu, \"seconds\": %.6f}\n",
			           (unsigned long long)f.solver_calls,
			           (unsigned long long)f.nodes, secs);
		if (n < 0 || fflush(stdout) != 0) {
			int err = errno;
			progress_end(p);
			cli_error("batch: cannot write the results: %s", strerror(err));
			rc = CLI_FAIL;
			break;
		}
		progress_show(p, ++done, s == b->last);
		if (s == b->last)
			break;
	}
	progress_end(p);
	blocks_job_clear(&job);
	return rc;
}

int cmd_batch(int argc, char **argv)
{
	struct batch_args b;
	switch (args_batch(argc, argv, &b)) {
	case ARGS_HELP:
		fputs(help, stdout);
		return CLI_OK;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	char size[32];
	if (gen_is_cube(b.size))
		snprintf(size, sizeof size, "%d", b.size[0]);
	else
		snprintf(size, sizeof size, "%dx%dx%d", b.size[0], b.size[1],
		         b.size[2]);
	struct progress p = {.tty = isatty(STDERR_FILENO) == 1,
	                     .total = b.last - b.first + 1};
	if (b.kind == KIND_BLOCKS) {
		p.start = p.shown = cli_now();
		return batch_blocks(&b, &p);
	}
	struct gen_bands bands = {0};
	if (b.band != GEN_BAND_ANY) {
		if (p.tty && !(gen_is_cube(b.size) && b.size[0] <= 8))
			fprintf(stderr, "measuring the difficulty bands of %s boxes "
			        "(about a thousand random puzzles)...\n", size);
		if (gen_bands(b.size, &bands) != GEN_OK) {
			cli_error("batch: out of memory");
			return CLI_FAIL;
		}
	}
	p.start = p.shown = cli_now();
	uint64_t done = 0;
	int rc = CLI_OK;
	for (uint64_t s = b.first;; s++) {
		struct seed_result res;
		rc = run_seed(&b, &bands, s, &p, &res);
		if (rc != CLI_OK)
			break;
		if (!print_line(&b, size, s, &res)) {
			int err = errno;
			progress_end(&p);
			cli_error("batch: cannot write the results: %s", strerror(err));
			rc = CLI_FAIL;
			break;
		}
		progress_show(&p, ++done, s == b.last);
		if (s == b.last)
			break;
	}
	progress_end(&p);
	return rc;
}
