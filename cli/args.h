/*
 * args.h: each command's options parsed into a struct, with no other side
 * effect than an error line on stderr: so the parsers can be fuzzed.
 *
 * Every parser takes the command's argv (argv[0] the command name) and
 * returns ARGS_OK, ARGS_HELP (--help seen: print the help, exit 0) or
 * ARGS_BAD (one error line printed: exit 2). Values point into argv.
 */
#ifndef CUBEGEN_ARGS_H
#define CUBEGEN_ARGS_H

#include <stdbool.h>
#include <stdint.h>

enum { ARGS_OK = 0, ARGS_HELP, ARGS_BAD };

struct generate_args {
	int size[3];       /* the box X, Y, Z (--size N is N, N, N) */
	uint64_t seed, attempts;
	bool have_seed, force;
	double unit, clearance;
	const char *out; /* NULL: the default folder */
};

struct solve_args {
	const char *file;
	uint64_t max, max_nodes; /* 0: no limit */
	bool print, json;
};

struct render_args {
	const char *file;
	const char *out; /* NULL: the default folder */
	bool force;
};

int args_generate(int argc, char **argv, struct generate_args *a);
/* 'check' accepts only FILE and --max-nodes. */
int args_solve(int argc, char **argv, bool check, struct solve_args *a);
int args_render(int argc, char **argv, struct render_args *a);

#endif
