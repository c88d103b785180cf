/*
 * args.c: option parsing for generate, solve, check, render, print,
 * coupon and convert.
 */
#include "cli/args.h"

#include <string.h>

#include "cli/cli.h"
#include "gen/blocks.h"
#include "gen/gen.h"
#include "solver/difficulty.h"
#include "solver/solve.h"

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

/* The defaults: 10 mm cells, walls as thick (solid cubes), 0.2 mm
 * clearance, numbers engraved. wall < 0 until --wall is given. */
static const struct print_opts print_defaults = {
	PRINT_DEFAULT_UNIT, -1, PRINT_DEFAULT_CLEARANCE, true};

/* Whether argv[a->i] is one of the print options (--clearance only when
 * 'clearance'); a->bad or false with an error printed on a bad value:
 * *bad is set then. */
static bool print_option(struct cli_args *a, struct print_opts *p,
                         bool clearance, bool *bad)
{
	double *v = NULL;
	const char *name = NULL;
	if (cli_opt_value(a, "--unit")) {
		v = &p->unit;
		name = "--unit";
	} else if (cli_opt_value(a, "--wall")) {
		v = &p->wall;
		name = "--wall";
	} else if (clearance && cli_opt_value(a, "--clearance")) {
		v = &p->clearance;
		name = "--clearance";
	} else if (cli_opt_flag(a, "--no-labels")) {
		p->labels = false;
		return true;
	} else {
		return false;
	}
	if (!a->bad && !cli_parse_double(name, a->value, v))
		*bad = true;
	if (!*bad && v == &p->wall && !(p->wall > 0)) {
		cli_error("--wall: must be more than 0 mm, got %s", a->value);
		*bad = true;
	}
	return true;
}

/* The rules of struct print_opts, for the largest clearance 'c'; one
 * error line and false when broken. Fills in wall = unit by default. */
static bool print_check(struct print_opts *p, double c, const char *what)
{
	if (!(p->unit > 0) || p->unit > 1000) {
		cli_error("--unit: must be more than 0 and at most 1000 mm, got %g",
		          p->unit);
		return false;
	}
	bool defaulted = p->wall < 0; /* the unit's: named as --unit below */
	if (defaulted)
		p->wall = p->unit;
	if (!(p->wall <= p->unit)) {
		cli_error("--wall: must be more than 0 and at most the unit (%g mm), "
		          "got %g", p->unit, p->wall);
		return false;
	}
	if (!(c >= 0) || !(c < p->wall / 2)) {
		cli_error("%s: must be at least 0 and less than half the %s (%g mm), "
		          "got %g", what, p->wall < p->unit ? "wall" : "unit",
		          p->wall / 2, c);
		return false;
	}
	double floor = p->labels ? PRINT_MIN_FLOOR + 0.6 : PRINT_MIN_FLOOR;
	if (!(p->wall - c >= floor - 1e-9)) {
		cli_error("%s: %g mm less the %g mm clearance leaves %g mm of "
		          "plate; at least %g mm are needed%s",
		          defaulted ? "--unit" : "--wall", p->wall, c,
		          p->wall - c, floor,
		          p->labels ? " (0.6 mm engraved numbers and 0.6 mm below "
		                      "them; or --no-labels)" : "");
		return false;
	}
	return true;
}

static bool parse_band(const char *v, int *band)
{
	static const int bands[] = {GEN_BAND_EASY, GEN_BAND_MEDIUM, GEN_BAND_HARD,
	                            GEN_BAND_EXPERT};
	for (size_t i = 0; i < sizeof bands / sizeof *bands; i++)
		if (strcmp(v, gen_band_name(bands[i])) == 0) {
			*band = bands[i];
			return true;
		}
	cli_error("--difficulty: '%s' is not a band; use easy, medium, hard or expert",
	          v);
	return false;
}

/* --pieces or --cells: A..B or A, decimal, each 0..99999 and A <= B
 * (what the kind allows is checked later). */
static bool parse_range(const char *name, const char *s, int r[2])
{
	uint64_t v[2] = {0, 0};
	const char *p = s;
	int n = 0;
	bool ok = true;
	for (;;) {
		const char *start = p;
		while (*p >= '0' && *p <= '9' && p - start < 5)
			v[n] = v[n] * 10 + (uint64_t)(*p++ - '0');
		if (p == start || (*p >= '0' && *p <= '9')) {
			ok = false;
			break;
		}
		n++;
		if (n == 2 || p[0] != '.' || p[1] != '.')
			break;
		p += 2;
	}
	if (!ok || *p != '\0' || (n == 2 && v[1] < v[0])) {
		cli_error("%s: expected a range A..B of whole numbers with A <= B "
		          "(or one number), got '%s'", name, s);
		return false;
	}
	r[0] = (int)v[0];
	r[1] = (int)v[n - 1];
	return true;
}

static bool parse_kind(const char *v, int *kind)
{
	if (strcmp(v, "plates") == 0)
		*kind = KIND_PLATES;
	else if (strcmp(v, "blocks") == 0)
		*kind = KIND_BLOCKS;
	else {
		cli_error("--kind: '%s' is not a kind of puzzle; use plates or blocks",
		          v);
		return false;
	}
	return true;
}

/* The options generate and batch share about the kind of puzzle. */
struct kind_opts {
	int kind;
	bool have_size;
	int *size, *pieces, *cells;
	const char *goal;
	bool support_free;
	uint64_t level; /* --level, 0 until given */
	uint64_t threads; /* --threads, 0 until given */
	const char *no; /* an option given that blocks refuse, or NULL */
	int band;       /* enum gen_band asked for */
	bool have_attempts;
	uint64_t *attempts;
};

/* What the options mean for the kind chosen, and the blocks' defaults;
 * false with one line when an option does not apply. */
static bool kind_check(const char *cmd, struct kind_opts k)
{
	if (k.kind == KIND_PLATES) {
		const char *only = k.pieces[0] >= 0 ? "--pieces" : k.cells[0] >= 0
		                 ? "--cells" : k.goal ? "--goal" : k.support_free
		                 ? "--support-free" : k.level ? "--level"
		                 : k.threads ? "--threads" : NULL;
		if (only) {
			cli_error("%s: %s is for block puzzles (--kind blocks)", cmd,
			          only);
			return false;
		}
		/* hard and expert climb: each move is an attempt */
		if (!k.have_attempts &&
		    (k.band == GEN_BAND_HARD || k.band == GEN_BAND_EXPERT))
			*k.attempts = GEN_CLIMB_ATTEMPTS;
		return true;
	}
	if (k.band == GEN_BAND_EXPERT) {
		cli_error("%s: --difficulty expert is for plate puzzles (block "
		          "puzzles have easy, medium and hard)", cmd);
		return false;
	}
	if (k.no) {
		cli_error("%s: %s is not available for block puzzles yet", cmd, k.no);
		return false;
	}
	if (k.goal && k.have_size) {
		cli_error("%s: give --size or --goal, not both", cmd);
		return false;
	}
	if (!k.have_size)
		k.size[0] = k.size[1] = k.size[2] = 4;
	if (k.pieces[0] < 0) {
		k.pieces[0] = 8;
		k.pieces[1] = 10;
	}
	/* --cells: blocks_job_init() sets the default, from the goal */
	return true;
}

/* Whether --out's value (NULL: not given) names a folder to write:
 * not empty, and its last part not '.', '..' or '/' alone; else one
 * error line. */
static bool out_ok(const char *out)
{
	if (!out)
		return true;
	if (!*out) {
		cli_error("--out: the folder name is empty");
		return false;
	}
	if (!cli_folder_name_ok(out)) {
		cli_error("--out: '%s' is not a folder name (it must end in a "
		          "name, not '.', '..' or '/')", out);
		return false;
	}
	return true;
}

/* One line for an argument a command without a file does not know: an
 * option by its name, a word as a stray argument. */
static void unknown(const char *cmd, const char *arg)
{
	if (arg[0] == '-')
		cli_error("%s: unknown option '%s' (try 'cubegen %s --help')", cmd,
		          arg, cmd);
	else
		cli_error("%s: unexpected argument '%s' (%s takes options only; try "
		          "'cubegen %s --help')", cmd, arg, cmd, cmd);
}

/* Whether argv[a->i] is one of the kind options; *bad when its value is
 * bad (an error printed). */
static bool kind_option(struct cli_args *a, struct kind_opts *k, bool *bad)
{
	if (cli_opt_value(a, "--kind")) {
		*bad = !a->bad && !parse_kind(a->value, &k->kind);
	} else if (cli_opt_value(a, "--pieces")) {
		*bad = !a->bad && !parse_range("--pieces", a->value, k->pieces);
	} else if (cli_opt_value(a, "--cells")) {
		*bad = !a->bad && !parse_range("--cells", a->value, k->cells);
	} else if (cli_opt_value(a, "--goal")) {
		k->goal = a->value;
	} else if (cli_opt_flag(a, "--support-free")) {
		k->support_free = true;
	} else if (cli_opt_value(a, "--level")) {
		*bad = !a->bad && !cli_parse_u64("--level", a->value, 1, BLK_MAX_LEVEL,
		                                 &k->level);
	} else if (cli_opt_value(a, "--threads")) {
		*bad = !a->bad && !cli_parse_u64("--threads", a->value, 1,
		                                 SOLVE_MAX_THREADS, &k->threads);
	} else {
		return false;
	}
	return true;
}

int args_generate(int argc, char **argv, struct generate_args *g)
{
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	*g = (struct generate_args){.size = {5, 5, 5}, .attempts = 1000,
	                            .pieces = {-1, -1}, .cells = {-1, -1},
	                            .print = print_defaults};
	struct kind_opts k = {.size = g->size, .pieces = g->pieces,
	                      .cells = g->cells};
	bool bad = false;
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (cli_opt_value(&a, "--size")) {
			if (!a.bad && !parse_size(a.value, g->size))
				return ARGS_BAD;
			g->have_size = true;
		} else if (cli_opt_value(&a, "--seed")) {
			if (!a.bad && !cli_parse_u64("--seed", a.value, 0, UINT64_MAX,
			                             &g->seed))
				return ARGS_BAD;
			g->have_seed = true;
		} else if (cli_opt_value(&a, "--out")) {
			g->out = a.value;
		} else if (kind_option(&a, &k, &bad)) {
			if (bad)
				return ARGS_BAD;
		} else if (print_option(&a, &g->print, true, &bad)) {
			g->have_wall = g->print.wall >= 0;
			if (bad)
				return ARGS_BAD;
		} else if (cli_opt_value(&a, "--max-attempts")) {
			if (!a.bad && !cli_parse_u64("--max-attempts", a.value, 1, 1000000,
			                             &g->attempts))
				return ARGS_BAD;
			k.have_attempts = true;
		} else if (cli_opt_value(&a, "--difficulty")) {
			if (!a.bad && !parse_band(a.value, &g->band))
				return ARGS_BAD;
		} else if (cli_opt_flag(&a, "--force")) {
			g->force = true;
		} else {
			unknown("generate", arg);
			return ARGS_BAD;
		}
	}
	k.have_size = g->have_size;
	k.no = g->have_wall ? "--wall" : NULL;
	k.band = g->band;
	k.attempts = &g->attempts;
	g->kind = k.kind;
	g->goal = k.goal;
	g->support_free = k.support_free;
	g->level = k.level ? (int)k.level : 1;
	g->threads = (unsigned)k.threads;
	if (a.bad || !kind_check("generate", k) ||
	    !print_check(&g->print, g->print.clearance, "--clearance"))
		return ARGS_BAD;
	if (!out_ok(g->out))
		return ARGS_BAD;
	return ARGS_OK;
}

/* --problem's value (cli_opt_value() has taken it): K of a BurrTools
 * file, from 1. false (the error printed) when it is bad. */
static bool problem_value(const struct cli_args *a, uint64_t *problem)
{
	return !a->bad &&
	       cli_parse_u64("--problem", a->value, 1, SIZE_MAX, problem);
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

/* Shards a search may be cut into, at most: far more than its tasks, so
 * a larger K would only leave shards empty. */
#define SHARDS_MAX 1000000u

/* --shard I/K: decimal I and K, 1 <= I <= K <= SHARDS_MAX. */
static bool parse_shard(const char *s, unsigned *index, unsigned *count)
{
	uint64_t v[2] = {0, 0};
	const char *p = s;
	bool ok = true;
	for (int k = 0; k < 2 && ok; k++) {
		const char *start = p;
		while (*p >= '0' && *p <= '9' && p - start < 8)
			v[k] = v[k] * 10 + (uint64_t)(*p++ - '0');
		ok = p > start && !(*p >= '0' && *p <= '9') &&
		     *p == (k == 0 ? '/' : '\0');
		p++;
	}
	if (!ok || v[0] < 1 || v[0] > v[1] || v[1] > SHARDS_MAX) {
		cli_error("--shard: expected I/K, the I-th of K parts, 1 <= I <= K "
		          "<= %u (like 2/8), got '%s'", SHARDS_MAX, s);
		return false;
	}
	*index = (unsigned)v[0] - 1;
	*count = (unsigned)v[1];
	return true;
}

int args_solve(int argc, char **argv, bool check, struct solve_args *s)
{
	const char *cmd = check ? "check" : "solve";
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	memset(s, 0, sizeof *s);
	s->diff_nodes = DIFF_DEFAULT_NODES;
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
		} else if (cli_opt_value(&a, "--difficulty-nodes")) {
			if (!a.bad && !cli_parse_u64("--difficulty-nodes", a.value, 0,
			                             UINT64_MAX, &s->diff_nodes))
				return ARGS_BAD;
		} else if (!check && cli_opt_flag(&a, "--print")) {
			s->print = true;
		} else if (!check && cli_opt_flag(&a, "--json")) {
			s->json = true;
		} else if (cli_opt_flag(&a, "--rename-colours")) {
			s->rename_colours = true;
		} else if (cli_opt_value(&a, "--problem")) {
			if (!problem_value(&a, &s->problem))
				return ARGS_BAD;
		} else if (!check && cli_opt_value(&a, "--threads")) {
			uint64_t v = 0; /* stays 0 when a.bad: the loop ends */
			if (!a.bad && !cli_parse_u64("--threads", a.value, 1,
			                             SOLVE_MAX_THREADS, &v))
				return ARGS_BAD;
			s->threads = (unsigned)v;
		} else if (!check && cli_opt_value(&a, "--shard")) {
			if (!a.bad && !parse_shard(a.value, &s->shard_index,
			                           &s->shard_count))
				return ARGS_BAD;
		} else if (cli_opt_flag(&a, "--disassemble")) {
			s->disassemble = true;
		} else if (cli_opt_value(&a, "--min-level")) {
			uint64_t v = 0;
			if (!a.bad && !cli_parse_u64("--min-level", a.value, 1, 1000000,
			                             &v))
				return ARGS_BAD;
			s->min_level = (unsigned)v;
		} else if (cli_opt_value(&a, "--disassemble-nodes")) {
			if (!a.bad && !cli_parse_u64("--disassemble-nodes", a.value, 1,
			                             UINT32_MAX, &s->dis_nodes))
				return ARGS_BAD;
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
	if ((s->min_level || s->dis_nodes) && !s->disassemble) {
		cli_error("%s: %s needs --disassemble", cmd,
		          s->min_level ? "--min-level" : "--disassemble-nodes");
		return ARGS_BAD;
	}
	return ARGS_OK;
}

/* The checks after a FILE [--out DIR] command's options: a file given,
 * and a folder name that names one. */
static int file_and_out(const char *cmd, const char *file, const char *out)
{
	if (!file) {
		cli_error("%s: which puzzle file? (try 'cubegen %s --help')", cmd, cmd);
		return ARGS_BAD;
	}
	if (!out_ok(out))
		return ARGS_BAD;
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
		} else if (cli_opt_value(&a, "--problem")) {
			if (!problem_value(&a, &r->problem))
				return ARGS_BAD;
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
	return file_and_out("render", r->file, r->out);
}

int args_merge(int argc, char **argv, struct merge_args *m)
{
	*m = (struct merge_args){.argc = argc, .argv = argv};
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)
			return ARGS_HELP;
		if (strcmp(arg, "--json") == 0) {
			m->json = true;
		} else if (arg[0] == '-' && arg[1]) {
			cli_error("merge: unknown option '%s' (try 'cubegen merge --help')",
			          arg);
			return ARGS_BAD;
		} else {
			m->nfiles++;
		}
	}
	if (m->nfiles == 0) {
		cli_error("merge: which shard files? (the --json outputs of 'cubegen "
		          "solve FILE --shard I/K --json'; try 'cubegen merge --help')");
		return ARGS_BAD;
	}
	return ARGS_OK;
}

int args_print(int argc, char **argv, struct print_args *p)
{
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	*p = (struct print_args){.print = print_defaults};
	bool bad = false;
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (cli_opt_value(&a, "--out")) {
			p->out = a.value;
		} else if (cli_opt_flag(&a, "--force")) {
			p->force = true;
		} else if (cli_opt_value(&a, "--problem")) {
			if (!problem_value(&a, &p->problem))
				return ARGS_BAD;
		} else if (print_option(&a, &p->print, true, &bad)) {
			if (bad)
				return ARGS_BAD;
		} else if (arg[0] == '-' && arg[1]) {
			cli_error("print: unknown option '%s' (try 'cubegen print --help')",
			          arg);
			return ARGS_BAD;
		} else {
			if (take_file("print", &p->file, arg) != ARGS_OK)
				return ARGS_BAD;
			a.i++;
		}
	}
	if (a.bad || !print_check(&p->print, p->print.clearance, "--clearance"))
		return ARGS_BAD;
	return file_and_out("print", p->file, p->out);
}

/* --clearances: 1 to COUPON_MAX comma-separated millimetre values. */
static bool parse_clearances(const char *s, struct coupon_args *c)
{
	const char *p = s;
	c->count = 0;
	for (;;) {
		char item[32];
		size_t n = strcspn(p, ",");
		if (n == 0 || n >= sizeof item || c->count == COUPON_MAX) {
			cli_error("--clearances: expected 1 to %d values in mm separated "
			          "by commas (like 0.1,0.15,0.2), got '%s'", COUPON_MAX, s);
			return false;
		}
		memcpy(item, p, n);
		item[n] = '\0';
		double v;
		if (!cli_parse_double("--clearances", item, &v))
			return false;
		c->clearance[c->count++] = v;
		if (p[n] == '\0')
			return true;
		p += n + 1;
	}
}

int args_coupon(int argc, char **argv, struct coupon_args *c)
{
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	*c = (struct coupon_args){.clearance = {0.1, 0.15, 0.2, 0.25, 0.3},
	                          .count = 5, .print = print_defaults};
	bool bad = false;
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (cli_opt_value(&a, "--out")) {
			c->out = a.value;
		} else if (cli_opt_flag(&a, "--force")) {
			c->force = true;
		} else if (cli_opt_value(&a, "--clearances")) {
			if (!a.bad && !parse_clearances(a.value, c))
				return ARGS_BAD;
		} else if (print_option(&a, &c->print, false, &bad)) {
			if (bad)
				return ARGS_BAD;
		} else {
			unknown("coupon", arg);
			return ARGS_BAD;
		}
	}
	if (a.bad)
		return ARGS_BAD;
	double most = 0;
	for (size_t i = 0; i < c->count; i++) {
		if (!(c->clearance[i] >= 0)) {
			cli_error("--clearances: each value must be at least 0 mm, got %g",
			          c->clearance[i]);
			return ARGS_BAD;
		}
		most = c->clearance[i] > most ? c->clearance[i] : most;
	}
	c->print.clearance = most;
	if (!print_check(&c->print, most, "--clearances"))
		return ARGS_BAD;
	if (!out_ok(c->out))
		return ARGS_BAD;
	return ARGS_OK;
}

int args_convert(int argc, char **argv, struct convert_args *c)
{
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	memset(c, 0, sizeof *c);
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (cli_opt_flag(&a, "--solutions")) {
			c->solutions = true;
		} else if (cli_opt_flag(&a, "--disassemble")) {
			c->disassemble = true;
		} else if (cli_opt_value(&a, "--max")) {
			if (!a.bad && !cli_parse_u64("--max", a.value, 1, UINT64_MAX,
			                             &c->max))
				return ARGS_BAD;
		} else if (cli_opt_flag(&a, "--force")) {
			c->force = true;
		} else if (cli_opt_value(&a, "--problem")) {
			if (!problem_value(&a, &c->problem))
				return ARGS_BAD;
		} else if (arg[0] == '-' && arg[1]) {
			cli_error("convert: unknown option '%s' (try 'cubegen convert "
			          "--help')", arg);
			return ARGS_BAD;
		} else if (!c->in) {
			c->in = arg;
			a.i++;
		} else if (!c->out) {
			c->out = arg;
			a.i++;
		} else {
			cli_error("convert: one input and one output file ('%s' is a "
			          "third)", arg);
			return ARGS_BAD;
		}
	}
	if (a.bad)
		return ARGS_BAD;
	if (!c->out) {
		cli_error("convert: expected IN and OUT files (try 'cubegen convert "
		          "--help')");
		return ARGS_BAD;
	}
	if (c->max && !c->solutions) {
		cli_error("--max: only with --solutions");
		return ARGS_BAD;
	}
	if (c->disassemble && !c->solutions) {
		cli_error("--disassemble: only with --solutions");
		return ARGS_BAD;
	}
	return ARGS_OK;
}

/* A whole decimal number that fits in 64 bits, digits only. */
static bool seed_number(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

/* --seeds A..B: two seeds, A <= B, whose count B - A + 1 fits in 64 bits
 * (0..18446744073709551615 does not). */
static bool parse_seeds(const char *s, uint64_t *first, uint64_t *last)
{
	const char *dots = strstr(s, "..");
	if (!dots || !seed_number(s, (size_t)(dots - s), first) ||
	    !seed_number(dots + 2, strlen(dots + 2), last)) {
		cli_error("--seeds: expected A..B, two whole numbers from 0 to %llu "
		          "(like 1..1000), got '%s'", (unsigned long long)UINT64_MAX, s);
		return false;
	}
	if (*first > *last) {
		cli_error("--seeds: %s is empty: the first seed is above the last", s);
		return false;
	}
	if (*last - *first == UINT64_MAX) {
		cli_error("--seeds: %s holds 2^64 seeds, one more than a batch can "
		          "count; split it in two", s);
		return false;
	}
	return true;
}

int args_batch(int argc, char **argv, struct batch_args *b)
{
	struct cli_args a = {.argc = argc, .argv = argv, .i = 1};
	*b = (struct batch_args){.size = {5, 5, 5}, .attempts = 1000,
	                         .pieces = {-1, -1}, .cells = {-1, -1}};
	struct kind_opts k = {.size = b->size, .pieces = b->pieces,
	                      .cells = b->cells};
	bool seeds = false, bad = false;
	while (a.i < argc && !a.bad) {
		const char *arg = argv[a.i];
		if (cli_opt_flag(&a, "--help") || cli_opt_flag(&a, "-h")) {
			return ARGS_HELP;
		} else if (cli_opt_value(&a, "--size")) {
			if (!a.bad && !parse_size(a.value, b->size))
				return ARGS_BAD;
			b->have_size = true;
		} else if (kind_option(&a, &k, &bad)) {
			if (bad)
				return ARGS_BAD;
		} else if (cli_opt_value(&a, "--seeds")) {
			if (!a.bad && !parse_seeds(a.value, &b->first, &b->last))
				return ARGS_BAD;
			seeds = true;
		} else if (cli_opt_value(&a, "--max-attempts")) {
			if (!a.bad && !cli_parse_u64("--max-attempts", a.value, 1, 1000000,
			                             &b->attempts))
				return ARGS_BAD;
			k.have_attempts = true;
		} else if (cli_opt_value(&a, "--difficulty")) {
			if (!a.bad && !parse_band(a.value, &b->band))
				return ARGS_BAD;
		} else {
			unknown("batch", arg);
			return ARGS_BAD;
		}
	}
	k.have_size = b->have_size;
	k.no = NULL;
	k.band = b->band;
	k.attempts = &b->attempts;
	b->kind = k.kind;
	b->goal = k.goal;
	b->support_free = k.support_free;
	b->level = k.level ? (int)k.level : 1;
	b->threads = (unsigned)k.threads;
	if (a.bad || !kind_check("batch", k))
		return ARGS_BAD;
	if (!seeds) {
		cli_error("batch: which seeds? give --seeds A..B (try 'cubegen batch "
		          "--help')");
		return ARGS_BAD;
	}
	return ARGS_OK;
}
