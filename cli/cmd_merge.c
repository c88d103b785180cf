/*
 * cmd_merge.c: 'cubegen merge': add up the --json outputs of 'cubegen
 * solve FILE --shard I/K --json' for I = 1..K into the result of one
 * whole solve (DESIGN.md §4).
 *
 * A shard's count is not a whole number of solutions by itself: each
 * carries the un-divided numerator (solve.h), and the sum of all K is
 * divided once. So the set must be exactly shards 1..K of one K, of one
 * puzzle with the same options and the same task split (the fingerprint
 * and the task count), every one complete; anything else is refused with
 * one line and exit 2. JSON is read with json-c (its integers hold the
 * whole uint64_t range).
 */
#include <json.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "solver/disasm.h"

static const char merge_help[] =
	"usage: cubegen merge SHARD.json... [--json]\n"
	"\n"
	"Add up the results of 'cubegen solve FILE --shard I/K --json', one file\n"
	"per shard (each the one JSON object solve printed), and print what one\n"
	"whole 'cubegen solve FILE' prints: the same counts, nodes and\n"
	"difficulty; the time is the sum of the shards' times.\n"
	"\n"
	"  --json   print the result as 'cubegen solve --json' does\n"
	"\n"
	"Every shard 1..K of one K must be there once, of the same puzzle with\n"
	"the same options and the same cubegen, and each must have run to its\n"
	"end (no --max or --max-nodes stop); otherwise merge says what is wrong\n"
	"and exits 2.\n";

/* One shard's result, as read. */
struct shard {
	const char *path;
	json_object *root;     /* owned */
	uint64_t index, count; /* I (1-based) and K */
	uint64_t tasks, numerator, divisor, assemblies, nodes;
	uint64_t split_nodes;  /* of nodes, those every shard tried */
	const char *fingerprint;
	bool complete;
	const char *stop;
	double seconds;
};

/* The member 'key' of 'o' as a non-negative integer; false (and a message
 * naming 'path') when it is missing or not one. */
static bool get_u64(const char *path, json_object *o, const char *key,
                    uint64_t *out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0) {
		cli_error("merge: %s: no whole number '%s' (not the --json output "
		          "of 'cubegen solve --shard I/K'?)", path, key);
		return false;
	}
	*out = json_object_get_uint64(v);
	return true;
}

static bool get_string(const char *path, json_object *o, const char *key,
                       const char **out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string)) {
		cli_error("merge: %s: no string '%s' (not the --json output of "
		          "'cubegen solve --shard I/K'?)", path, key);
		return false;
	}
	*out = json_object_get_string(v);
	return true;
}

static bool get_bool(const char *path, json_object *o, const char *key,
                     bool *out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_boolean)) {
		cli_error("merge: %s: no true or false '%s' (not the --json output "
		          "of 'cubegen solve --shard I/K'?)", path, key);
		return false;
	}
	*out = json_object_get_boolean(v);
	return true;
}

static bool get_double(const char *path, json_object *o, const char *key,
                       double *out)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) ||
	    !(json_object_is_type(v, json_type_double) ||
	      json_object_is_type(v, json_type_int))) {
		cli_error("merge: %s: no number '%s' (not the --json output of "
		          "'cubegen solve --shard I/K'?)", path, key);
		return false;
	}
	*out = json_object_get_double(v);
	return true;
}

/* Read one shard file; CLI_OK, or the error printed and its exit code. */
static int read_shard(const char *path, struct shard *s)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	/* what is wrong with the file itself, said as the other commands
	 * say it (json-c's messages name its own functions) */
	long long size = cli_input_size("merge: ", path);
	if (size < 0)
		return CLI_USAGE;
	if (size == 0) {
		cli_error("merge: %s: the file is empty (a shard that did not run "
		          "to its end? run it again)", path);
		return CLI_USAGE;
	}
	s->root = json_object_from_file(path);
	if (!s->root) {
		cli_error("merge: %s: not JSON, or cut short (a shard that did not "
		          "run to its end? run it again)", path);
		return CLI_USAGE;
	}
	if (!json_object_is_type(s->root, json_type_object)) {
		cli_error("merge: %s: not a JSON object (the --json output of "
		          "'cubegen solve --shard I/K')", path);
		return CLI_USAGE;
	}
	json_object *o = s->root;
	if (!get_u64(path, o, "shard_index", &s->index) ||
	    !get_u64(path, o, "shard_count", &s->count) ||
	    !get_string(path, o, "fingerprint", &s->fingerprint) ||
	    !get_u64(path, o, "tasks", &s->tasks) ||
	    !get_u64(path, o, "numerator", &s->numerator) ||
	    !get_u64(path, o, "divisor", &s->divisor) ||
	    !get_u64(path, o, "assemblies", &s->assemblies) ||
	    !get_u64(path, o, "nodes", &s->nodes) ||
	    !get_u64(path, o, "split_nodes", &s->split_nodes) ||
	    !get_bool(path, o, "complete", &s->complete) ||
	    !get_string(path, o, "stop", &s->stop) ||
	    !get_double(path, o, "seconds", &s->seconds))
		return CLI_USAGE;
	if (s->index < 1 || s->index > s->count || s->divisor == 0 ||
	    s->split_nodes > s->nodes) {
		cli_error("merge: %s: shard %llu/%llu makes no sense", path,
		          (unsigned long long)s->index, (unsigned long long)s->count);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* Whether the shards are one whole set: one K, one puzzle and split,
 * each of 1..K once, all complete. The error printed when not. */
static bool whole_set(const struct shard *s, size_t n)
{
	const struct shard *a = &s[0];
	/* first: a shard stopped early may not even have split the search
	 * as the others did */
	for (size_t i = 0; i < n; i++)
		if (!s[i].complete) {
			cli_error("merge: %s: shard %llu/%llu did not run to its end "
			          "(stopped: %s); solve it again without --max or "
			          "--max-nodes", s[i].path,
			          (unsigned long long)s[i].index,
			          (unsigned long long)s[i].count, s[i].stop);
			return false;
		}
	for (size_t i = 1; i < n; i++) {
		if (s[i].count != a->count) {
			cli_error("merge: %s is shard %llu of %llu, %s of %llu: shards of "
			          "one search all have the same K", s[i].path,
			          (unsigned long long)s[i].index,
			          (unsigned long long)s[i].count, a->path,
			          (unsigned long long)a->count);
			return false;
		}
		if (strcmp(s[i].fingerprint, a->fingerprint) != 0) {
			cli_error("merge: %s and %s are parts of different searches "
			          "(another puzzle, other options or another cubegen: "
			          "fingerprints %s and %s)", a->path, s[i].path,
			          a->fingerprint, s[i].fingerprint);
			return false;
		}
		if (s[i].tasks != a->tasks || s[i].divisor != a->divisor ||
		    s[i].split_nodes != a->split_nodes) {
			/* the same puzzle, options and version, split otherwise:
			 * builds of one version that search differently */
			cli_error("merge: %s and %s are parts of different searches "
			          "(the same puzzle and options, split into %llu and "
			          "%llu tasks: shards from two builds of cubegen)",
			          a->path, s[i].path, (unsigned long long)a->tasks,
			          (unsigned long long)s[i].tasks);
			return false;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (s[i].index == s[j].index) {
				cli_error("merge: %s and %s are both shard %llu/%llu",
				          s[j].path, s[i].path,
				          (unsigned long long)s[i].index,
				          (unsigned long long)s[i].count);
				return false;
			}
	if (n != a->count) {
		/* the first missing one, and how many */
		uint64_t missing = 0;
		for (uint64_t k = 1; k <= a->count && !missing; k++) {
			bool have = false;
			for (size_t i = 0; i < n && !have; i++)
				have = s[i].index == k;
			if (!have)
				missing = k;
		}
		cli_error("merge: %llu of %llu shards are missing, shard %llu/%llu "
		          "first", (unsigned long long)(a->count - n),
		          (unsigned long long)a->count, (unsigned long long)missing,
		          (unsigned long long)a->count);
		return false;
	}
	return true;
}

/* A shard's disassembly fields (solve --disassemble --shard). */
struct dis_part {
	uint64_t stuck, undecided, below, max_num, max_task;
	int level[DIS_MAX_LEVEL];
	size_t nlevel;
	json_object *moves; /* array of strings, owned by the shard's root */
};

static bool read_dis(const struct shard *sh, struct dis_part *d)
{
	const char *path = sh->path;
	json_object *o = sh->root, *lv;
	memset(d, 0, sizeof *d);
	if (!get_u64(path, o, "stuck_num", &d->stuck) ||
	    !get_u64(path, o, "undecided_num", &d->undecided) ||
	    !get_u64(path, o, "below_num", &d->below) ||
	    !get_u64(path, o, "max_level_num", &d->max_num) ||
	    !get_u64(path, o, "max_level_task", &d->max_task))
		return false;
	if (!json_object_object_get_ex(o, "max_level", &lv) ||
	    !json_object_is_type(lv, json_type_array) ||
	    json_object_array_length(lv) > DIS_MAX_LEVEL ||
	    !json_object_object_get_ex(o, "moves", &d->moves) ||
	    !json_object_is_type(d->moves, json_type_array)) {
		cli_error("merge: %s: no 'max_level' and 'moves' arrays (not the "
		          "--json output of 'cubegen solve --disassemble --shard "
		          "I/K'?)", path);
		return false;
	}
	d->nlevel = json_object_array_length(lv);
	for (size_t i = 0; i < d->nlevel; i++) {
		json_object *x = json_object_array_get_idx(lv, i);
		int64_t v = json_object_get_int64(x);
		if (!json_object_is_type(x, json_type_int) || v < 0 || v > INT32_MAX) {
			cli_error("merge: %s: 'max_level' holds something other than "
			          "whole numbers", path);
			return false;
		}
		d->level[i] = (int)v;
	}
	for (size_t i = 0; i < json_object_array_length(d->moves); i++)
		if (!json_object_is_type(json_object_array_get_idx(d->moves, i),
		                         json_type_string)) {
			cli_error("merge: %s: 'moves' holds something other than "
			          "strings", path);
			return false;
		}
	return true;
}

/* Print the merged result, with what shard 1 says of the puzzle. */
static int print_merged(const struct shard *s, size_t n, bool json)
{
	/* the nodes above the tasks once, and each shard's below them */
	uint64_t num = 0, as = 0, nodes = s[0].split_nodes;
	double secs = 0;
	for (size_t i = 0; i < n; i++) {
		if (__builtin_add_overflow(num, s[i].numerator, &num) ||
		    __builtin_add_overflow(as, s[i].assemblies, &as) ||
		    __builtin_add_overflow(nodes, s[i].nodes - s[i].split_nodes,
		                           &nodes)) {
			cli_error("merge: a count is larger than 18446744073709551615 "
			          "(2^64 - 1)");
			return CLI_FAIL;
		}
		secs += s[i].seconds;
	}
	const struct shard *first = &s[0];
	for (size_t i = 0; i < n; i++)
		if (s[i].index == 1)
			first = &s[i];
	if (num % first->divisor != 0) {
		cli_error("merge: the shards do not add up to a whole count (%llu "
		          "is not a multiple of %llu): were they changed?",
		          (unsigned long long)num,
		          (unsigned long long)first->divisor);
		return CLI_USAGE;
	}
	json_object *o = first->root, *v;
	struct count_report r = {.solutions = num / first->divisor,
	                         .assemblies = as, .nodes = nodes,
	                         .complete = true, .stop = "done",
	                         .seconds = secs, .why = "", .diff_method = "",
	                         .diff_text = "", .name = "",
	                         .tasks = first->tasks};
	uint64_t u;
	const char *path = first->path;
	if (!get_string(path, o, "file", &r.file) ||
	    !get_string(path, o, "name", &r.name) ||
	    !get_u64(path, o, "symmetries", &u) ||
	    !get_bool(path, o, "mirror_closed", &r.mirror_closed) ||
	    !get_bool(path, o, "rename_colours", &r.rename_colours) ||
	    !get_string(path, o, "difficulty_method", &r.diff_method) ||
	    !get_u64(path, o, "dead_ends", &r.dead_ends) ||
	    !get_string(path, o, "difficulty_text", &r.diff_text))
		return CLI_USAGE;
	r.symmetries = u > 48 ? 48 : (int)u;
	/* solve_result.mirror_some: the divisor is twice the symmetries */
	r.mirror_some = !r.mirror_closed && !r.rename_colours &&
	                first->divisor == 2 * u;
	if (r.rename_colours && !get_u64(path, o, "renamings", &r.renamings))
		return CLI_USAGE;
	if (json_object_object_get_ex(o, "why", &v) &&
	    json_object_is_type(v, json_type_string))
		r.why = json_object_get_string(v);
	if (json_object_object_get_ex(o, "difficulty", &v) &&
	    !json_object_is_type(v, json_type_null)) {
		if (!get_double(path, o, "difficulty", &r.diff_score))
			return CLI_USAGE;
		r.diff_has = true;
	}
	/* the threads of one machine mean nothing for the sum */
	r.threads = 0;
	/* --disassemble: each sum adds up and divides like the count; the
	 * highest level is the highest of any shard, its moves those of the
	 * lowest task, as one whole search keeps them */
	struct dis_part sum = {0}, part;
	const char **lines = NULL;
	if (json_object_object_get_ex(o, "disassembled", &v) &&
	    json_object_get_boolean(v)) {
		bool have = false;
		uint64_t ml = 0;
		if (json_object_object_get_ex(o, "min_level", &v))
			ml = (uint64_t)json_object_get_int64(v);
		for (size_t i = 0; i < n; i++) {
			if (!read_dis(&s[i], &part))
				return CLI_USAGE;
			if (__builtin_add_overflow(sum.stuck, part.stuck, &sum.stuck) ||
			    __builtin_add_overflow(sum.undecided, part.undecided,
			                           &sum.undecided) ||
			    __builtin_add_overflow(sum.below, part.below, &sum.below)) {
				cli_error("merge: a count is larger than "
				          "18446744073709551615 (2^64 - 1)");
				return CLI_FAIL;
			}
			if (!part.nlevel && !part.max_num)
				continue;
			int c = !have ? 1 : dis_level_cmp(part.level, part.nlevel,
			                                  sum.level, sum.nlevel);
			if (c == 0) {
				if (__builtin_add_overflow(sum.max_num, part.max_num,
				                           &sum.max_num)) {
					cli_error("merge: a count is larger than "
					          "18446744073709551615 (2^64 - 1)");
					return CLI_FAIL;
				}
				if (part.max_task < sum.max_task) {
					sum.max_task = part.max_task;
					sum.moves = part.moves;
				}
			} else if (c > 0) {
				uint64_t keep = part.max_num;
				sum = (struct dis_part){.stuck = sum.stuck,
				                        .undecided = sum.undecided,
				                        .below = sum.below};
				memcpy(sum.level, part.level, sizeof part.level);
				sum.nlevel = part.nlevel;
				sum.max_num = keep;
				sum.max_task = part.max_task;
				sum.moves = part.moves;
				have = true;
			}
		}
		uint64_t dv = first->divisor;
		size_t nm = sum.moves ? json_object_array_length(sum.moves) : 0;
		lines = calloc(nm ? nm : 1, sizeof *lines);
		if (!lines) {
			cli_error("merge: out of memory");
			return CLI_FAIL;
		}
		for (size_t i = 0; i < nm; i++)
			lines[i] = json_object_get_string(
				json_object_array_get_idx(sum.moves, i));
		r.disassembled = true;
		r.min_level = (unsigned)ml;
		r.stuck = sum.stuck / dv;
		r.undecided = sum.undecided / dv;
		r.below_min = sum.below / dv;
		r.max_level = sum.level;
		r.nmax_level = sum.nlevel;
		r.max_level_solutions = sum.max_num / dv;
		r.moves = (char *const *)lines;
		r.nmoves = nm;
	}
	if (json) {
		report_json_fields(&r);
		printf(", \"shards\": %llu}\n", (unsigned long long)n);
	} else {
		report_text(&r);
	}
	free(lines);
	return CLI_OK;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args m;
	switch (args_merge(argc, argv, &m)) {
	case ARGS_HELP:
		fputs(merge_help, stdout);
		return CLI_OK;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	struct shard *s = calloc(m.nfiles, sizeof *s);
	if (!s) {
		cli_error("merge: out of memory");
		return CLI_FAIL;
	}
	size_t n = 0;
	int rc = CLI_OK;
	for (int i = 1; i < m.argc && rc == CLI_OK; i++) {
		if (strcmp(m.argv[i], "--json") == 0)
			continue;
		rc = read_shard(m.argv[i], &s[n++]);
	}
	if (rc == CLI_OK)
		rc = whole_set(s, n) ? print_merged(s, n, m.json) : CLI_USAGE;
	for (size_t i = 0; i < n; i++)
		json_object_put(s[i].root);
	free(s);
	return rc;
}
