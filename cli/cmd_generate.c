/*
 * cmd_generate.c: 'cubegen generate': draw candidates from the seed's
 * stream until one has exactly one solution, then write its files. Two
 * kinds: plates (the shell of a box in six flat pieces, gen.h) and blocks
 * (a box or any goal cut into solid pieces, blocks.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/outputs.h"
#include "gen/gen.h"
#include "solver/solve.h"

static const char help[] =
	"usage: cubegen generate [--kind plates|blocks] [--size N|XxYxZ]\n"
	"                        [--seed S] [--out DIR]\n"
	"                        [--unit MM] [--wall MM] [--clearance MM]\n"
	"                        [--no-labels]\n"
	"                        [--difficulty easy|medium|hard|expert]\n"
	"                        [--pieces A..B] [--cells A..B] [--goal FILE]\n"
	"                        [--support-free] [--level N] [--threads T]\n"
	"                        [--max-attempts K] [--force]\n"
	"\n"
	"Split the shell of an N x N x N cube (or an X x Y x Z box) into six flat\n"
	"pieces (--kind plates), or the whole cube, box or goal into solid\n"
	"pieces (--kind blocks), prove that they assemble into it in exactly one\n"
	"way (and, for blocks, that the pieces come apart by hand), and write\n"
	"the pieces (STL, 3MF and OpenSCAD), the puzzle file, pictures, the\n"
	"answer, and pieces.html and solution.html to turn it in 3D in a browser.\n"
	"\n"
	"  --kind K          plates (default) or blocks\n"
	"  --size N|XxYxZ    cube size in cells, or a box like 4x5x6; each side\n"
	"                    3 to 64 (default 5; 4 for blocks)\n"
	"  --pieces A..B     blocks: how many pieces, drawn from A..B by the seed\n"
	"                    (2 <= A <= B <= 64; default 8..10)\n"
	"  --cells A..B      blocks: cells per piece (default 4..8, widened\n"
	"                    when fewer pieces cannot fill the goal otherwise)\n"
	"  --goal FILE       blocks: cut the goal of a puzzle file (.puz, .hcq,\n"
	"                    .xmpuzzle; its pieces are ignored) instead of a box\n"
	"  --support-free    blocks: every piece can lie on the bed with no\n"
	"                    overhanging cell (pieces.txt says which need support)\n"
	"  --level N         blocks: an interlocking puzzle, N moves (1 to 100)\n"
	"                    before its first piece comes free; inner cells may\n"
	"                    be left hollow (try --level 6 --pieces 4..4)\n"
	"  --threads T       blocks: where sets of pieces are drawn (pieces of\n"
	"                    at most 6 cells, goals of at most 64), count them\n"
	"                    on T threads, 1 to 512 (default: every core); the\n"
	"                    same puzzle whatever T\n"
	"  --seed S          a whole number from 0 to 18446744073709551615; the\n"
	"                    same seed and options always give the same files\n"
	"                    (default: drawn from the system, and printed)\n"
	"  --out DIR         output folder (default out/cubeN-S or\n"
	"                    out/boxXxYxZ-S; for blocks out/blocksN-S,\n"
	"                    out/blocksXxYxZ-S or out/blocks-NAME-S; with\n"
	"                    --difficulty B, -B at the end)\n"
	"  --unit MM         edge of one cell in millimetres, > 0 (default 10)\n"
	"  --wall MM         plates: thickness of the plates, 0 < wall <= unit,\n"
	"                    wall - clearance >= 0.6 (1.2 with numbers)\n"
	"                    (default: the unit, solid cubes); 3 makes light\n"
	"                    plates whose fingers interlock like a Happy Cube's\n"
	"  --clearance MM    gap between touching pieces, 0 <= c < wall/2\n"
	"                    (default 0.2); each exposed face is inset by c/2\n"
	"  --no-labels       do not engrave each piece's number on its top\n"
	"                    (engraving needs wall - clearance >= 1.2 mm)\n"
	"  --difficulty B    a puzzle in band B (bands per size: man cubegen):\n"
	"                    easy (about 95 % of random puzzles) or medium,\n"
	"                    drawn at random; for plates hard (at size 5 like\n"
	"                    a Pro set, >= 51) or expert (like Da Vinci,\n"
	"                    >= 61.67), searched for; for blocks hard (the\n"
	"                    hardest 1.5 % of 200 random puzzles)\n"
	"  --max-attempts K  candidates to try before giving up, 1 to 1000000\n"
	"                    (default 1000; 20000 for hard and expert plates;\n"
	"                    for blocks, dissections started)\n"
	"  --force           replace DIR if it exists (only a folder cubegen\n"
	"                    wrote, or an empty one)\n"
	"\n"
	"A block search that takes more than a second shows its attempts, proofs\n"
	"and time on stderr when that is a terminal, with at most how much\n"
	"longer it can take.\n"
	"\n"
	"Exit 0 when a unique puzzle was written, 1 when none was found or a\n"
	"file could not be written, 2 on bad usage.\n";

static bool os_seed(uint64_t *out)
{
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0)
		return false;
	unsigned char b[8];
	ssize_t n = read(fd, b, sizeof b);
	close(fd);
	if (n != (ssize_t)sizeof b)
		return false;
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	*out = v;
	return true;
}

int cmd_generate(int argc, char **argv)
{
	struct generate_args ga;
	switch (args_generate(argc, argv, &ga)) {
	case ARGS_HELP:
		fputs(help, stdout);
		return CLI_OK;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	const int *dim = ga.size;
	uint64_t seed = ga.seed, attempts = ga.attempts;
	if (!ga.have_seed && !os_seed(&seed)) {
		cli_error("cannot read a seed from /dev/urandom: %s (give --seed)",
		          strerror(errno));
		return CLI_FAIL;
	}
	if (ga.kind == KIND_BLOCKS)
		return generate_blocks(&ga, seed);
	/* "5" for a cube (as always), "4x5x6" for a box */
	char size[32];
	if (gen_is_cube(dim))
		snprintf(size, sizeof size, "%d", dim[0]);
	else
		snprintf(size, sizeof size, "%dx%dx%d", dim[0], dim[1], dim[2]);
	const char *out = ga.out;
	struct output_opts oo = {.unit = ga.print.unit, .wall = ga.print.wall,
	                         .clearance = ga.print.clearance,
	                         .labels = ga.print.labels};
	char defout[64];
	if (!out) {
		cli_generate_out(gen_is_cube(dim) ? "cube" : "box", size, seed,
		                 ga.band, defout, sizeof defout);
		out = defout;
	}
	struct outdir od;
	if (!outdir_begin(&od, out, ga.force))
		return CLI_FAIL;

	struct gen_bands bands = {0};
	if (ga.band != GEN_BAND_ANY) {
		if (isatty(STDERR_FILENO) && !(gen_is_cube(dim) && dim[0] <= 8))
			fprintf(stderr, "measuring the difficulty bands of %s boxes "
			        "(about a thousand random puzzles)...\n", size);
		if (gen_bands(dim, &bands) != GEN_OK) {
			cli_error("generate: out of memory");
			outdir_abort(&od);
			return CLI_FAIL;
		}
	}
	struct rng r;
	rng_seed(&r, seed);
	struct gen_puzzle g = {0};
	struct gen_found found;
	if (gen_find(&r, dim, attempts, (enum gen_band)ga.band, &bands, &g,
	             &found) != GEN_OK) {
		cli_error("generate: out of memory");
		outdir_abort(&od);
		return CLI_FAIL;
	}
	uint64_t tried = found.attempts;
	if (!found.found) {
		if (ga.band == GEN_BAND_ANY)
			cli_error("generate: no unique puzzle of size %s in %llu attempts "
			          "from seed %llu (try another seed or more "
			          "--max-attempts)", size, (unsigned long long)tried,
			          (unsigned long long)seed);
		else if (ga.band == GEN_BAND_HARD || ga.band == GEN_BAND_EXPERT)
			cli_error("generate: no %s puzzle of size %s (difficulty >= "
			          "%.2f) in %llu attempts from seed %llu; the search "
			          "reached %.2f (%s may be out of reach at this size: "
			          "docs/puzzles.md; try more --max-attempts)",
			          gen_band_name((enum gen_band)ga.band), size,
			          ga.band == GEN_BAND_HARD ? bands.pro_min
			                                   : bands.expert_min,
			          (unsigned long long)tried, (unsigned long long)seed,
			          found.difficulty < 0 ? 0 : found.difficulty,
			          gen_band_name((enum gen_band)ga.band));
		else
			cli_error("generate: no unique %s puzzle of size %s in %llu "
			          "attempts from seed %llu (%d of %d random unique "
			          "puzzles of this size were %s; try more "
			          "--max-attempts)",
			          gen_band_name((enum gen_band)ga.band), size,
			          (unsigned long long)tried, (unsigned long long)seed,
			          bands.in_band[ga.band], bands.samples,
			          gen_band_name((enum gen_band)ga.band));
		outdir_abort(&od);
		return CLI_FAIL;
	}
	bool confirmed = false;
	int rc = gen_confirm(&g, &confirmed);
	if (rc != SOLVE_OK || !confirmed) {
		if (rc != SOLVE_OK)
			cli_error("generate: %s", solve_strerror(rc));
		else
			cli_error("generate: internal error: the two searches disagree "
			          "on size %s seed %llu attempt %llu; nothing written "
			          "(please report this seed)", size,
			          (unsigned long long)seed, (unsigned long long)tried);
		gen_puzzle_clear(&g);
		outdir_abort(&od);
		return CLI_FAIL;
	}
	oo.seed = seed;
	bool ok = outputs_write(&od, &g, &oo) && outdir_commit(&od);
	if (!ok)
		outdir_abort(&od);
	gen_puzzle_clear(&g);
	if (!ok)
		return CLI_FAIL;
	printf("size: %s\nseed: %llu\nattempts: %llu\nsolutions: 1\n"
	       "difficulty: %.2f\n", size, (unsigned long long)seed,
	       (unsigned long long)tried, found.difficulty);
	if (ga.band == GEN_BAND_EASY)
		printf("band: easy (difficulty <= %.2f at this size)\n", bands.easy_max);
	else if (ga.band == GEN_BAND_MEDIUM)
		printf("band: medium (between %.2f and %.2f at this size)\n",
		       bands.easy_max, bands.hard_min);
	else if (ga.band == GEN_BAND_HARD)
		printf("band: hard (difficulty >= %.2f at this size)\n", bands.pro_min);
	else if (ga.band == GEN_BAND_EXPERT)
		printf("band: expert (difficulty >= %.2f at this size)\n",
		       bands.expert_min);
	printf("wrote: %.*s/\n", cli_dirlen(out), out);
	return CLI_OK;
}
