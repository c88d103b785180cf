/*
 * main.c: cubegen's entry point: dispatch to a command, --help, --version.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "cli/cli.h"

static const char usage[] =
	"usage: cubegen COMMAND [OPTIONS]\n"
	"\n"
	"Make 3D-printable puzzle cubes that have exactly one solution, and\n"
	"solve or count any polycube packing puzzle.\n"
	"\n"
	"commands:\n"
	"  generate   make a new unique puzzle from a seed and write its files\n"
	"  batch      one JSON line per seed of a range: what generate would find\n"
	"  solve      count the solutions of a puzzle file (.puz, .hcq, .xmpuzzle)\n"
	"  check      exit 0 when a puzzle has exactly one solution, 1 if not\n"
	"  merge      add up the results of 'solve --shard I/K --json' runs\n"
	"  render     draw the pieces of a puzzle file (and its solution) as PNG\n"
	"  print      printable pieces (STL, 3MF, OpenSCAD) of any puzzle file\n"
	"  coupon     a test print that finds your printer's clearance\n"
	"  verify     check STL files the way cubegen checks its own\n"
	"  convert    convert a puzzle file (.puz, .hcq, BurrTools .xmpuzzle)\n"
	"\n"
	"Run 'cubegen COMMAND --help' for a command's options.\n"
	"Exit codes: 0 success, 1 the job failed, 2 bad usage or bad input.\n";

/* The command's exit code, or CLI_FAIL with one line when what it wrote
 * to standard output did not all get there (a full disk, /dev/full):
 * a script that runs shards or solves sees the failure in the exit code,
 * not as an empty file later. A command that failed has said why
 * already, in one line (batch its own write error; check's 1 is an
 * answer that stays 1). */
static int flushed(const char *cmd, int rc)
{
	errno = 0;
	if ((fflush(stdout) == 0 && !ferror(stdout)) || rc != CLI_OK)
		return rc;
	int err = errno;
	cli_error("%s: cannot write to standard output: %s", cmd,
	          err ? strerror(err) : "a write failed");
	return CLI_FAIL;
}

int main(int argc, char **argv)
{
#ifdef __GLIBC__
	/* glibc hands the free memory at the top of its heap back to the
	 * system past 128 KB, so a command that frees its solver's tables
	 * and makes new ones (the count, then the difficulty search) pays
	 * for those pages again, about 10 µs each on a virtual machine:
	 * 4 MB kept, and asked for at a time. Setting it turns off glibc's
	 * own rising of the size from which blocks are mapped apart (and
	 * unmapped when freed); that size is set to where glibc lets it rise
	 * (32 MB). Pelikan's burr's `solve`: 726 page faults to 625, 16.2
	 * ms to 14.6; the 600-cell box 9,550 to 8,771; 10 block puzzles of
	 * 5x5x5 found by `batch` 2,149 to 1,223. */
	mallopt(M_TOP_PAD, 4 << 20);
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
	if (argc < 2) {
		fputs(usage, stderr);
		return CLI_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
	    strcmp(cmd, "help") == 0) {
		fputs(usage, stdout);
		return flushed("--help", CLI_OK);
	}
	if (strcmp(cmd, "--version") == 0) {
		printf("cubegen %s\n", CUBEGEN_VERSION);
		return flushed("--version", CLI_OK);
	}
	static const struct {
		const char *name;
		int (*run)(int, char **);
	} cmds[] = {
		{"generate", cmd_generate}, {"solve", cmd_solve},
		{"check", cmd_check},       {"render", cmd_render},
		{"verify", cmd_verify},     {"print", cmd_print},
		{"coupon", cmd_coupon},
		{"convert", cmd_convert},
		{"batch", cmd_batch},
		{"merge", cmd_merge},
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (strcmp(cmd, cmds[i].name) == 0)
			return flushed(cmd, cmds[i].run(argc - 1, argv + 1));
	cli_error("unknown command '%s' (try 'cubegen --help')", cmd);
	return CLI_USAGE;
}
