/*
 * args.c: option parsing for generate, solve, check and render.
 */
#include "cli/args.h"

#include <string.h>

#include "cli/cli.h"
#include "gen/gen.h"

/* --size N (a cube) or XxYxZ (a box), each side GEN_MIN_SIZE..GEN_MAX_SIZE:
 * decimal digits only, 'x' or 'X' between the sides. */
static bool parse_size(const char *s, int size[3])
{
	int d[3], n = 0;
	const char *p = s;
	bool ok = true;
	for (;;) {
		uint64_t v = 0;
		const char *start = p;
		while (*p >= '0' && *p <= '9' && p - start < 6)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (p == start || (*p >= '0' && *p <= '9') || v < GEN_MIN_SIZE ||
		    v > GEN_MAX_SIZE || n == 3) {
			ok = false;
			break;
		}
		d[n++] = (int)v;
		if (*p != 'x' && *p != 'X')
			break;
		p++; /* a side must follow */
	}
	if (!ok || *p != '\0' || (n != 1 && n != 3)) {
		cli_error("--size: expected N or XxYxZ, each side %d to %d (like 5 "
		          "or 4x5x6), got '%s'", GEN_MIN_SIZE, GEN_MAX_SIZE, s);
		return false;
	}
	for (int k = 0; k < 3; k++)
		size[k] = d[n == 1 ? 0 : k];
	return true;
}

int args_generate(int argc, char **argv, struct generate_args *g)
{
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	*g = (struct generate_args){.size = {5, 5, 5}, .attempts = 1000,
	                            .unit = 10.0, .clearance = 0.2};
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (cli_opt_value(&a, "--size")) {
			if (!a.bad && !parse_size(a.value, g->size))
				return ARGS_BAD;
		} else if (cli_opt_value(&a, "--seed")) {
			if (!a.bad && !cli_parse_u64("--seed", a.value, 0, UINT64_MAX,
			                             &g->seed))
				return ARGS_BAD;
			g->have_seed = true;
		} else if (cli_opt_value(&a, "--out")) {
			g->out = a.value;
		} else if (cli_opt_value(&a, "--unit")) {
			if (!a.bad && !cli_parse_double("--unit", a.value, &g->unit))
				return ARGS_BAD;
		} else if (cli_opt_value(&a, "--clearance")) {
			if (!a.bad && !cli_parse_double("--clearance", a.value,
			                                &g->clearance))
				return ARGS_BAD;
		} else if (cli_opt_value(&a, "--max-attempts")) {
			if (!a.bad && !cli_parse_u64("--max-attempts", a.value, 1, 1000000,
			                             &g->attempts))
				return ARGS_BAD;
		} else if (cli_opt_flag(&a, "--force")) {
			g->force = true;
		} else {
			cli_error("generate: unknown argument '%s' (try 'cubegen generate "
			          "--help')", arg);
			return ARGS_BAD;
		}
	}
	if (a.bad)
		return ARGS_BAD;
	if (!(g->unit > 0) || g->unit > 1000) {
		cli_error("--unit: must be more than 0 and at most 1000 mm, got %g",
		          g->unit);
		return ARGS_BAD;
	}
	if (!(g->clearance >= 0) || !(g->clearance < g->unit / 2)) {
		cli_error("--clearance: must be at least 0 and less than half the unit "
		          "(%g mm), got %g", g->unit / 2, g->clearance);
		return ARGS_BAD;
	}
	if (g->out && !*g->out) {
		cli_error("--out: the folder name is empty");
		return ARGS_BAD;
	}
	return ARGS_OK;
}

/* A lone FILE argument: the first one, or an error for a second. */
static int take_file(const char *cmd, const char **file, const char *arg)
{
	if (*file) {
		cli_error("%s: one puzzle file at a time ('%s' and '%s')", cmd, *file,
		          arg);
		return ARGS_BAD;
	}
	*file = arg;
	return ARGS_OK;
}

int args_solve(int argc, char **argv, bool check, struct solve_args *s)
{
	const char *cmd = check ? "check" : "solve";
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	memset(s, 0, sizeof *s);
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (!check && cli_opt_value(&a, "--max")) {
			if (!a.bad && !cli_parse_u64("--max", a.value, 1, UINT64_MAX, &s->max))
				return ARGS_BAD;
		} else if (cli_opt_value(&a, "--max-nodes")) {
			if (!a.bad && !cli_parse_u64("--max-nodes", a.value, 1, UINT64_MAX,
			                             &s->max_nodes))
				return ARGS_BAD;
		} else if (!check && cli_opt_flag(&a, "--print")) {
			s->print = true;
		} else if (!check && cli_opt_flag(&a, "--json")) {
			s->json = true;
		} else if (arg[0] == '-' && arg[1] != '\0') {
			cli_error("%s: unknown option '%s' (try 'cubegen %s --help')", cmd,
			          arg, cmd);
			return ARGS_BAD;
		} else {
			if (take_file(cmd, &s->file, arg) != ARGS_OK)
				return ARGS_BAD;
			a.i++;
		}
	}
	if (a.bad)
		return ARGS_BAD;
	if (!s->file) {
		cli_error("%s: which puzzle file? (try 'cubegen %s --help')", cmd, cmd);
		return ARGS_BAD;
	}
	return ARGS_OK;
}

int args_render(int argc, char **argv, struct render_args *r)
{
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	memset(r, 0, sizeof *r);
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (cli_opt_value(&a, "--out")) {
			r->out = a.value;
		} else if (cli_opt_flag(&a, "--force")) {
			r->force = true;
		} else if (arg[0] == '-' && arg[1]) {
			cli_error("render: unknown option '%s' (try 'cubegen render --help')",
			          arg);
			return ARGS_BAD;
		} else {
			if (take_file("render", &r->file, arg) != ARGS_OK)
				return ARGS_BAD;
			a.i++;
		}
	}
	if (a.bad)
		return ARGS_BAD;
	if (!r->file) {
		cli_error("render: which puzzle file? (try 'cubegen render --help')");
		return ARGS_BAD;
	}
	if (r->out && !*r->out) {
		cli_error("--out: the folder name is empty");
		return ARGS_BAD;
	}
	return ARGS_OK;
}
