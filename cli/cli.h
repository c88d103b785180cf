/*
 * cli.h: the command-line front end's shared pieces. Only cli/ parses
 * arguments, prints or exits; the libraries below report statuses.
 *
 * Exit codes (DESIGN.md §4): CLI_OK 0, CLI_FAIL 1 (the job failed),
 * CLI_USAGE 2 (bad usage or bad input). Every error is one line on stderr,
 * "cubegen: " followed by what was wrong and where.
 */
#ifndef CUBEGEN_CLI_H
#define CUBEGEN_CLI_H

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/puz.h"

#define CUBEGEN_VERSION "0.1.0"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_USAGE = 2 };

/* Print "cubegen: " + the formatted message + newline on stderr. */
void cli_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* Option parsing over argv[1..]: '--name value' or '--name=value'. */
struct cli_args {
	int argc;
	char **argv;
	int i;             /* next argument */
	const char *value; /* value of the option just matched */
	bool bad;          /* an error was printed */
};

/* Whether argv[i] is option 'name' taking a value; on a match the value
 * is in a->value and a->i has moved past it. A missing value prints an
 * error and sets a->bad. */
bool cli_opt_value(struct cli_args *a, const char *name);
/* Whether argv[i] is the flag 'name' (no value). */
bool cli_opt_flag(struct cli_args *a, const char *name);

/* Parse a whole decimal number in [lo, hi] for option 'what'; prints an
 * error and returns false otherwise. */
bool cli_parse_u64(const char *what, const char *s, uint64_t lo, uint64_t hi,
                   uint64_t *out);
bool cli_parse_double(const char *what, const char *s, double *out);

/* Read a .puz or .hcq file (by extension). CLI_OK, or the error printed
 * and the exit code: CLI_FAIL when out of memory, CLI_USAGE for a file
 * that cannot be read or is not a valid puzzle. */
int cli_read_puzzle(const char *path, struct puzzle *out);
/* The same, and .xmpuzzle (BurrTools) files: problem K (from 1; 0 for
 * the first), with what BurrTools would count differently in '*xi' when
 * not NULL (zeroed for other formats). --problem on another format is
 * bad usage. */
int cli_read_puzzle_at(const char *path, uint64_t problem, struct puzzle *out,
                       struct xmp_info *xi);
/* cli_read_puzzle_at(), and with 'disassemble' a BurrTools file whose
 * groups split a piece's copies refused (one line, CLI_USAGE): cubegen
 * takes each piece in one group or none. */
int cli_read_puzzle_dis(const char *path, uint64_t problem, bool disassemble,
                        struct puzzle *out, struct xmp_info *xi);
/* The same for a goal: a .puz file may have no piece. */
int cli_read_goal(const char *path, struct puzzle *out);

/* Seconds on a monotonic clock. */
double cli_now(void);

/* The cores online, 1..max: the threads a command uses by default. */
unsigned cli_cores(unsigned max);

/* A status line on stderr rewritten in place (progress on a terminal):
 * shown only once 'after' seconds have passed since t0 and 'every'
 * seconds since it was last shown; cli_status_end() blanks it. */
struct cli_status {
	double t0, last;
	double after, every;
	int width; /* of the line shown, 0 none */
};
/* Whether it is time to show the line ('*elapsed' the seconds since t0). */
bool cli_status_due(struct cli_status *s, double *elapsed);
void cli_status_show(struct cli_status *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void cli_status_end(struct cli_status *s);

/* A solve's progress on a terminal: "WHAT: 12.5 % of 48 tasks, 3
 * solutions so far, 2.0 s, about 14 s left", as a status line. */
struct cli_progress {
	struct cli_status line;
	const char *what;
};
struct solve_opts;
struct solve_progress;
/* Start 'pg' now; whether to show it: 'show' and stderr a terminal. */
bool cli_progress_begin(struct cli_progress *pg, const char *what, bool show);
/* solve_opts.progress, its context a struct cli_progress. */
void cli_progress_show(void *pg, const struct solve_progress *pr);
/* cli_progress_begin(), and when shown, 'o' calls cli_progress_show()
 * (and searches as tasks, on one thread where it had none); under a node
 * budget 'o' searches as tasks, shown or not. */
void cli_progress_on(struct cli_progress *pg, const char *what, bool show,
                     struct solve_opts *o);
/* Blank the line, once the solve has returned. */
void cli_progress_end(struct cli_progress *pg);

/* The size of input file 'path' (CLI_SIZE_UNKNOWN when it is no regular
 * file: a pipe, a device), or -1 with one line ("PREFIXpath: No such file
 * or directory", "...: is a folder") when it is missing or a folder. */
#define CLI_SIZE_UNKNOWN LLONG_MAX
long long cli_input_size(const char *prefix, const char *path);

/* Whether every piece of 'p' (read from 'file') is one solid: its cells
 * joined face to face, as print and render need to mesh it. CLI_OK, or
 * one line naming the first piece that is not and CLI_USAGE (CLI_FAIL
 * when out of memory). */
int cli_pieces_solid(const char *file, const struct puzzle *p);

/* The default folder of a command run on a puzzle file: "out/PREFIX-NAME",
 * NAME the file's name without its folders and its extension (.puz,
 * .hcq, .xmpuzzle, else from its last dot on); for a file named
 * puzzle.puz (generate's) the name of its folder; "-problemK" after it
 * for problem K >= 2 of a BurrTools file (--problem; 0 or 1: none). */
void cli_default_out(const char *prefix, const char *file, uint64_t problem,
                     char *buf, size_t len);

/* Whether 'path' can name an output folder: its last part a name, not
 * '.', '..' or '/'. */
bool cli_folder_name_ok(const char *path);
/* The length of 'path' without its trailing slashes (for "wrote: %.*s/"). */
int cli_dirlen(const char *path);

/* generate's default folder: "out/" KIND SIZE "-" SEED, and "-" the band
 * when one was asked for (band an enum gen_band; GEN_BAND_ANY none):
 * out/cube5-42, out/blocks-NAME-7-hard. */
void cli_generate_out(const char *kind, const char *size, uint64_t seed,
                      int band, char *buf, size_t len);

/* An output folder written beside its target and renamed into place. */
#define OUTDIR_SYNC_MAX 64
struct outdir {
	char target[PATH_MAX];
	char tmp[PATH_MAX];
	char old[PATH_MAX]; /* where a replaced folder waits to be removed */
	bool replace; /* the target exists and --force was given */
	int sync[OUTDIR_SYNC_MAX]; /* files written, to be synced at commit */
	size_t nsync;
	/* the temporary folder, opened when made: emptied through it when
	 * aborted, which then allocates nothing (out of memory too) */
	DIR *dir;
};
/* Refuse an existing target unless 'force'; make the temporary folder. */
bool outdir_begin(struct outdir *o, const char *target, bool force);
/* Write 'len' bytes to file 'name' inside the temporary folder. */
bool outdir_write(struct outdir *o, const char *name, const void *data,
                  size_t len);
/* Open 'name' for writing inside the temporary folder ("wb"). */
FILE *outdir_fopen(struct outdir *o, const char *name);
/* Flush and close a file opened by outdir_fopen, its sync left to
 * outdir_commit (writeback started now); false on error. */
bool outdir_fclose(struct outdir *o, FILE *fp, const char *name);
/* The full temporary path of 'name' (for readers that check files). */
void outdir_path(const struct outdir *o, const char *name, char *buf,
                 size_t len);
/* Sync every file written, then rename into place (the old folder is
 * removed only after the new one is in place); false, an error printed
 * and the folder aborted when that fails. */
bool outdir_commit(struct outdir *o);
/* Remove the temporary folder and everything in it. */
void outdir_abort(struct outdir *o);

int cmd_generate(int argc, char **argv);
/* generate --kind blocks with its options parsed and its seed chosen. */
struct generate_args;
int generate_blocks(const struct generate_args *ga, uint64_t seed);
int cmd_solve(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_print(int argc, char **argv);
int cmd_coupon(int argc, char **argv);
int cmd_convert(int argc, char **argv);
int cmd_batch(int argc, char **argv);
int cmd_merge(int argc, char **argv);

#endif
