/*
 * report.h: the result of a count as 'solve' prints it, text or JSON;
 * 'merge' prints the sum of shards through the same functions, so a merged
 * count reads exactly like one whole run.
 */
#ifndef CUBEGEN_REPORT_H
#define CUBEGEN_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct count_report {
	const char *file;      /* the puzzle file as given */
	const char *name;      /* the puzzle's name ("" none: the file) */
	uint64_t solutions, assemblies, nodes;
	bool complete;
	const char *stop;      /* "done", "max" or "max-nodes" */
	double seconds;
	int symmetries;        /* |G| */
	bool mirror_closed;
	bool mirror_some;      /* solve_result.mirror_some */
	const char *why;       /* why no search was needed, "" none */
	bool rename_colours;
	uint64_t renamings;    /* |Γ| with rename_colours */
	/* difficulty: the score when there is one, the method's name, dead
	 * ends, and the text after "difficulty: " in the text output */
	bool diff_has;
	double diff_score;
	const char *diff_method;
	uint64_t dead_ends;
	const char *diff_text;
	uint64_t tasks;        /* tasks the search was split into */
	unsigned threads;      /* threads it ran on; 0: not said (merge) */
	/* a BurrTools file: the problem counted (from 1) and how many the
	 * file has (0: not a BurrTools file), and why BurrTools would count
	 * it differently (NULL: it would not) */
	uint64_t problem;
	size_t problems;
	const char *burrtools_why;
	/* --disassemble: 'solutions' are those that come apart; the others
	 * (stuck, undecided, below min_level), the highest level among the
	 * solutions (nmax_level 0: none), how many have it, and the moves of
	 * the first found with it, one line each ("A B +x 2") */
	bool disassembled;
	unsigned min_level;
	uint64_t stuck, undecided, below_min, max_level_solutions;
	const int *max_level;
	size_t nmax_level;
	char *const *moves;
	size_t nmoves;
};

/* A level as BurrTools writes it ("98.2.4") into buf. */
void report_level(const int *level, size_t n, char *buf, size_t len);

/* "puzzle: ..., solutions: ..., ..., difficulty: ..." lines on stdout. */
void report_text(const struct count_report *r);
/* The JSON object's opening brace and fields, without the closing brace:
 * the caller may add fields (", \"name\": ...") and then prints "}\n". */
void report_json_fields(const struct count_report *r);
/* A JSON string literal of 's' on stdout. */
void report_json_string(const char *s);

#endif
