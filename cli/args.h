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
#include <stddef.h>
#include <stdint.h>

enum { ARGS_OK = 0, ARGS_HELP, ARGS_BAD };

/* How printed pieces are made (DESIGN.md §3): --unit, --wall,
 * --clearance, --no-labels; shared by generate, print and coupon. After a
 * parser returns ARGS_OK: 0 < wall <= unit <= 1000, 0 <= clearance <
 * wall/2, and wall - clearance leaves at least PRINT_MIN_FLOOR mm of
 * plate (under the engraving, with labels). */
struct print_opts {
	double unit, wall, clearance;
	bool labels;
};
#define PRINT_MIN_FLOOR 0.6
/* The defaults: 10 mm cells, 0.2 mm clearance. */
#define PRINT_DEFAULT_UNIT 10.0
#define PRINT_DEFAULT_CLEARANCE 0.2

enum gen_kind { KIND_PLATES, KIND_BLOCKS };

struct generate_args {
	int kind;          /* enum gen_kind: --kind plates (default) or blocks */
	int size[3];       /* the box X, Y, Z (--size N is N, N, N) */
	bool have_size;
	/* Blocks: --pieces A..B, --cells A..B (-1 -1 until given), --goal. */
	int pieces[2], cells[2];
	const char *goal;  /* NULL: the box of --size */
	bool support_free; /* --support-free */
	int level;         /* --level: the answer's first level at least */
	unsigned threads;  /* --threads (blocks), 1..SOLVE_MAX_THREADS; 0:
	                    * not given (every core) */
	bool have_wall;
	uint64_t seed, attempts;
	int band;          /* enum gen_band: GEN_BAND_ANY unless --difficulty */
	bool have_seed, force;
	struct print_opts print;
	const char *out; /* NULL: the default folder */
};

/* 'print FILE': printable files for the pieces of any puzzle. */
struct print_args {
	const char *file;
	const char *out; /* NULL: the default folder */
	bool force;
	uint64_t problem; /* --problem K, as in struct solve_args */
	struct print_opts print;
};

/* 'coupon': one tab-and-slot pair per clearance. */
#define COUPON_MAX 10u
struct coupon_args {
	double clearance[COUPON_MAX];
	size_t count;
	const char *out; /* NULL: the default folder */
	bool force;
	struct print_opts print; /* its clearance is the largest tried */
};

struct solve_args {
	const char *file;
	uint64_t max, max_nodes; /* 0: no limit */
	uint64_t diff_nodes;     /* --difficulty-nodes (0: no limit) */
	bool print, json;
	bool rename_colours;     /* --rename-colours */
	uint64_t problem;        /* --problem K of a BurrTools file (from 1);
	                          * 0: not given (the first) */
	unsigned threads;        /* --threads, 1..SOLVE_MAX_THREADS; 0: not
	                          * given (every core) */
	unsigned shard_index;    /* --shard I/K: I - 1 and K; count 0: none */
	unsigned shard_count;
	bool disassemble;        /* --disassemble */
	unsigned min_level;      /* --min-level N (1..), with --disassemble;
	                          * 0: not given */
	uint64_t dis_nodes;      /* --disassemble-nodes N; 0: the default */
};

/* 'merge SHARD.json...': the files are the arguments that are not
 * options, argv[1..argc-1] in order. */
struct merge_args {
	int argc;
	char **argv;
	size_t nfiles;
	bool json;
};

struct render_args {
	const char *file;
	const char *out; /* NULL: the default folder */
	bool force;
	uint64_t problem; /* --problem K, as in struct solve_args */
};

/* 'convert IN OUT': one puzzle file into another format. */
struct convert_args {
	const char *in, *out;
	bool solutions; /* --solutions */
	bool disassemble; /* --disassemble: only those that come apart, each
	                   * with its moves */
	uint64_t max;   /* --max K: solutions written at most; 0 all */
	bool force;     /* --force: replace an existing OUT */
	uint64_t problem; /* --problem K of IN, as in struct solve_args */
};

/* 'batch': the seeds first..last, each searched exactly as generate
 * searches, reported as a line and written nowhere. After ARGS_OK:
 * first <= last and last - first < UINT64_MAX (the count fits). */
struct batch_args {
	int kind;            /* enum gen_kind */
	int size[3];         /* the box X, Y, Z (--size N is N, N, N) */
	bool have_size;
	int pieces[2], cells[2]; /* blocks, as generate's */
	const char *goal;
	bool support_free;
	int level;           /* --level (1 unless given) */
	unsigned threads;    /* --threads (blocks); 0: not given (every core) */
	uint64_t first, last; /* --seeds first..last, both included */
	uint64_t attempts;   /* --max-attempts, 1..1000000 */
	int band;            /* enum gen_band: GEN_BAND_ANY unless --difficulty */
};

int args_generate(int argc, char **argv, struct generate_args *a);
int args_batch(int argc, char **argv, struct batch_args *a);
/* 'check' accepts only FILE and --max-nodes. */
int args_solve(int argc, char **argv, bool check, struct solve_args *a);
int args_render(int argc, char **argv, struct render_args *a);
int args_merge(int argc, char **argv, struct merge_args *a);
int args_print(int argc, char **argv, struct print_args *a);
int args_coupon(int argc, char **argv, struct coupon_args *a);
/* IN and OUT given; --max only with --solutions. */
int args_convert(int argc, char **argv, struct convert_args *a);

#endif
