/* test_tasks.c: a search split into tasks (solver/tasks.c) counts exactly
 * what one plain search counts: with 1, 2 and 8 threads, and K = 1, 3, 7
 * shards added up, on the known puzzles (every engine, pinning on and
 * off, colour weights, renamings, the shell path) and on random ones,
 * among them puzzles of 65 to 128 cells (the wide bitboard); shards
 * find disjoint covers whose union is the whole; the first solution is
 * the plain search's; limits stay lower bounds, and a node budget means
 * the same whatever the threads (whole at the search's nodes, stopped
 * one below, every node of it spent). Also the engines' own
 * split (xc_split, bb_split, bbw_split): tasks replayed, in order or
 * not, add up to the whole search, node for node and cover for cover,
 * and leave the engine intact. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "solver/bb.h"
#include "solver/bbw.h"
#include "solver/solve.h"
#include "solver/xc.h"
#include "tests/randpuz.h"
#include "tests/testload.h"
#include "tests/testpart.h"

#define DATA "tests/data/classic/"

static struct solve_result run(const struct puzzle *p, struct solve_opts o)
{
	struct solve_result r;
	int rc = solve_puzzle(p, &o, &r);
	if (rc != SOLVE_OK)
		fail_msg("%s: %s", p->name, solve_strerror(rc));
	return r;
}

static size_t grid_size(const struct puzzle *p)
{
	return (size_t)p->goal.nx * p->goal.ny * p->goal.nz;
}

/* One plain search against split ones with 'threads' threads: the same
 * counts, nodes and first solution. */
static void expect_same(const struct puzzle *p, struct solve_opts o,
                        const char *what)
{
	o.keep_first = true;
	struct solve_result a = run(p, o);
	/* split as tasks.c splits (a small tree in one round over all of
	 * it) on 1, 2 and 8 threads, and by depth, as a larger one is, on 2 */
	static const unsigned threads[] = {1, 2, 8, 2};
	for (size_t i = 0; i < 4; i++) {
		struct solve_opts ot = o;
		ot.threads = threads[i];
		ot.split_by_depth = i == 3;
		struct solve_result b = run(p, ot);
		if (b.solutions != a.solutions || b.assemblies != a.assemblies ||
		    b.numerator != a.numerator || b.divisor != a.divisor ||
		    b.nodes != a.nodes || b.complete != a.complete || !b.complete)
			fail_msg("%s, %s, %u threads%s: %llu solutions %llu "
			         "assemblies %llu nodes, plain %llu %llu %llu",
			         p->name, what, threads[i],
			         i == 3 ? " (by depth)" : "",
			         (unsigned long long)b.solutions,
			         (unsigned long long)b.assemblies,
			         (unsigned long long)b.nodes,
			         (unsigned long long)a.solutions,
			         (unsigned long long)a.assemblies,
			         (unsigned long long)a.nodes);
		/* every cover lies in a task */
		assert_true(a.fast_path || a.solutions == 0 || b.tasks > 0);
		assert_int_equal(!a.first, !b.first);
		if (a.first)
			assert_memory_equal(a.first, b.first, grid_size(p));
		assert_int_equal(!a.first_colours, !b.first_colours);
		if (a.first_colours)
			assert_memory_equal(a.first_colours, b.first_colours,
			                    grid_size(p));
		solve_result_clear(&b);
	}
	solve_result_clear(&a);
}

/* Covers as the visitor gives them (labels, then colours), kept in a
 * list; the solver serialises on_cover calls, so no lock is needed. */
struct covers {
	size_t cell;        /* bytes of one cover */
	size_t grid;
	unsigned char *data;
	size_t n, cap;
	bool fail;
};

static void on_cover(void *ctx, const unsigned char *labels,
                     const unsigned char *colours)
{
	struct covers *c = ctx;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 256;
		unsigned char *d = realloc(c->data, cap * c->cell);
		if (!d) {
			c->fail = true;
			return;
		}
		c->data = d;
		c->cap = cap;
	}
	unsigned char *at = c->data + c->n++ * c->cell;
	memcpy(at, labels, c->grid);
	memset(at + c->grid, 0, c->grid);
	if (colours)
		memcpy(at + c->grid, colours, c->grid);
}

static size_t sort_cell;
static int cmp_cover(const void *a, const void *b)
{
	return memcmp(a, b, sort_cell);
}

static void covers_sort(struct covers *c)
{
	sort_cell = c->cell;
	if (c->n)
		qsort(c->data, c->n, c->cell, cmp_cover);
}

/* K shards: their numerators, assemblies and nodes add up to the whole
 * search's; their covers are disjoint (no cover twice over all shards,
 * the whole search has none twice either) and together the whole's. */
static void expect_shards_split(const struct puzzle *p, struct solve_opts o,
                                unsigned k, const char *what)
{
	size_t grid = grid_size(p);
	struct covers whole = {.cell = 2 * grid, .grid = grid};
	struct solve_opts ow = o;
	ow.on_cover = on_cover;
	ow.ctx = &whole;
	struct solve_result a = run(p, ow);
	assert_false(whole.fail);
	struct covers parts = {.cell = 2 * grid, .grid = grid};
	uint64_t num = 0, as = 0, nodes = 0, tasks = 0;
	for (unsigned i = 0; i < k; i++) {
		struct solve_opts os = o;
		os.threads = 1 + i % 3;
		os.shard_index = i;
		os.shard_count = k;
		os.on_cover = on_cover;
		os.ctx = &parts;
		struct solve_result b = run(p, os);
		assert_true(b.complete);
		assert_int_equal(b.divisor, a.divisor);
		assert_int_equal(b.group_order, a.group_order);
		if (i > 0)
			assert_int_equal(b.tasks, tasks);
		tasks = b.tasks;
		num += b.numerator;
		as += b.assemblies;
		nodes += b.nodes - (i ? b.split_nodes : 0);
		solve_result_clear(&b);
	}
	assert_false(parts.fail);
	/* above the tasks, every shard tries the same nodes */
	if (num != a.numerator || as != a.assemblies || num / a.divisor != a.solutions)
		fail_msg("%s, %s, %u shards: numerator %llu assemblies %llu, "
		         "whole %llu %llu", p->name, what, k,
		         (unsigned long long)num, (unsigned long long)as,
		         (unsigned long long)a.numerator,
		         (unsigned long long)a.assemblies);
	assert_int_equal(nodes, a.nodes);
	assert_int_equal(parts.n, whole.n);
	covers_sort(&whole);
	covers_sort(&parts);
	if (whole.n)
		assert_memory_equal(whole.data, parts.data, whole.n * whole.cell);
	/* The same multiset of covers: so no cover was found by two shards
	 * (there would be one too many) and none was missed. */
	free(whole.data);
	free(parts.data);
	solve_result_clear(&a);
}

/* expect_shards_split() with the shards split as tasks.c splits them (a
 * small tree in one round over all of it) and by depth. */
static void expect_shards(const struct puzzle *p, struct solve_opts o,
                          unsigned k, const char *what)
{
	o.split_by_depth = false;
	expect_shards_split(p, o, k, what);
	o.split_by_depth = true;
	expect_shards_split(p, o, k, what);
}

static const struct solve_opts ways[] = {
	{0},
	{.generic = true, .engine = SOLVE_DLX},
	{.generic = true, .engine = SOLVE_BITS},
	{.generic = true, .engine = SOLVE_DLX, .no_pin = true},
	{.generic = true, .engine = SOLVE_BITS, .no_pin = true},
	{.generic = true, .engine = SOLVE_WIDE},
	{.generic = true, .engine = SOLVE_WIDE, .no_pin = true},
};
static const char *const way_names[] = {
	"default", "dlx", "bits", "dlx, no pin", "bits, no pin", "wide",
	"wide, no pin",
};
#define NWAYS (sizeof ways / sizeof ways[0])

/* The first 'nways' ways (all but the nine-colour cube: without
 * pinning it has 14.5 million covers). */
static void some_ways(const char *path, size_t nways, bool shards)
{
	struct puzzle p;
	test_load_puzzle(path, &p);
	for (size_t w = 0; w < nways; w++) {
		expect_same(&p, ways[w], way_names[w]);
		for (unsigned k = 1; shards && k <= 7; k += 2 + (k == 3))
			expect_shards(&p, ways[w], k, way_names[w]);
	}
	puz_clear(&p);
}

static void every_way(const char *path, bool shards)
{
	some_ways(path, NWAYS, shards);
}

static void test_tasks_soma(void **state)
{
	(void)state;
	every_way(DATA "soma.puz", true);
}

static void test_tasks_pentacubes(void **state)
{
	(void)state;
	/* pinned only: without pinning it is eight times the search */
	some_ways(DATA "pentacubes-2x3x10.puz", 3, true);
}

static void test_tasks_happy_cubes(void **state)
{
	(void)state;
	every_way(DATA "HC_BQ_001.puz", true);
	every_way(DATA "happycube-blue.puz", true);
}

/* Ranges of copies with every cell required: the wide board with each
 * type's least (bbw_set_least) by default, dancing links' phased search
 * where asked, the 64-cell board standing aside (it has no ranges). Each
 * way agrees with itself split (every_way) and every way gives the counts
 * dancing links gave before the wide board took ranges; the second
 * puzzle has two pieces of one copy (the pinned type at the root, and a
 * second type below its symmetric placements). */
static void test_tasks_ranges(void **state)
{
	(void)state;
	static const struct {
		const char *path;
		uint64_t solutions, assemblies;
	} known[] = {
		{"tests/data/puz/ranges-3x3x2.puz", 734, 11488},
		{"tests/data/puz/ranges-pinned-3x3x2.puz", 319, 5104},
	};
	for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
		every_way(known[k].path, true);
		struct puzzle p;
		test_load_puzzle(known[k].path, &p);
		for (size_t w = 0; w < NWAYS; w++) {
			struct solve_result r = run(&p, ways[w]);
			if (!r.complete || r.solutions != known[k].solutions ||
			    r.assemblies != known[k].assemblies)
				fail_msg("%s, %s: %llu solutions, %llu assemblies",
				         known[k].path, way_names[w],
				         (unsigned long long)r.solutions,
				         (unsigned long long)r.assemblies);
			solve_result_clear(&r);
		}
		puz_clear(&p);
	}
}

static void test_tasks_colours(void **state)
{
	(void)state;
	every_way(DATA "colour-mix.puz", true);
	some_ways("examples/ninecolour.puz", 3, true);
	struct puzzle p;
	test_load_puzzle(DATA "colour-mix.puz", &p);
	expect_same(&p, (struct solve_opts){.rename_colours = true}, "renamed");
	for (unsigned k = 1; k <= 7; k += 2 + (k == 3))
		expect_shards(&p, (struct solve_opts){.rename_colours = true}, k,
		              "renamed");
	puz_clear(&p);
	test_load_puzzle("examples/ninecolour.puz", &p);
	expect_same(&p, (struct solve_opts){.rename_colours = true}, "renamed");
	expect_shards(&p, (struct solve_opts){.rename_colours = true}, 3,
	              "renamed");
	puz_clear(&p);
}

/* The shell path is one task: shard 1 has it all. */
static void test_tasks_shell_is_one_task(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "happycube-blue.puz", &p);
	for (unsigned i = 0; i < 3; i++) {
		struct solve_result r = run(&p, (struct solve_opts){
			.shard_index = i, .shard_count = 3, .keep_first = true});
		assert_true(r.fast_path && r.complete);
		assert_int_equal(r.tasks, 1);
		assert_int_equal(r.solutions, i == 0 ? 3 : 0);
		assert_int_equal(r.numerator, i == 0 ? 3 * r.divisor : 0);
		assert_true(i == 0 ? r.first != NULL : r.first == NULL);
		solve_result_clear(&r);
	}
	puz_clear(&p);
}

static void test_tasks_random(void **state)
{
	(void)state;
	int counted = 0;
	for (uint64_t seed = 1; seed <= 150; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		for (size_t w = 0; w < NWAYS; w++) {
			struct solve_opts o = ways[w];
			expect_same(&p, o, way_names[w]);
			if (seed % 5 == 0)
				expect_shards(&p, o, 3, way_names[w]);
		}
		struct solve_result r = run(&p, (struct solve_opts){0});
		counted += r.solutions > 0;
		solve_result_clear(&r);
		puz_clear(&p);
	}
	assert_true(counted > 100);
}

/* Puzzles of copies only (a pinned cell, solve.c's choose_cell): threads
 * and shards find the same covers. */
static void test_tasks_copies(void **state)
{
	(void)state;
	int counted = 0;
	for (uint64_t seed = 1; seed <= 80; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_copies(seed, &p), 0);
		for (size_t w = 0; w < NWAYS; w++) {
			expect_same(&p, ways[w], way_names[w]);
			if (seed % 4 == 0)
				expect_shards(&p, ways[w], 3, way_names[w]);
		}
		struct solve_result r = run(&p, (struct solve_opts){0});
		counted += r.solutions > 0;
		solve_result_clear(&r);
		puz_clear(&p);
	}
	assert_true(counted > 40);
}

/* Random puzzles of 65 to 128 cells: the default engine is the wide
 * bitboard there. Puzzles with a big search are skipped (the run stays
 * short); the others are compared until three of them split into 100
 * tasks or more without pinning (pinned, most of these searches are too
 * narrow to reach 1000 open nodes: the split walks them whole and their
 * covers are the tasks). */
static void test_tasks_bbw_puzzles(void **state)
{
	(void)state;
	static const struct solve_opts bways[] = {
		{0},
		{.generic = true, .engine = SOLVE_WIDE, .no_pin = true},
	};
	static const char *const bnames[] = {"default", "wide, no pin"};
	int compared = 0, several = 0, split = 0;
	uint64_t seed;
	for (seed = 1; split < 3; seed++) {
		assert_true(seed < 80);
		struct puzzle p;
		assert_int_equal(randpuz_box(seed * 104729, &p), 0);
		struct solve_result r = run(&p, (struct solve_opts){
			.generic = true, .engine = SOLVE_WIDE, .no_pin = true,
			.max_nodes = 75000, .threads = 1, .split_by_depth = true});
		bool small = r.complete;
		split += small && r.tasks >= 100;
		solve_result_clear(&r);
		if (!small) {
			puz_clear(&p);
			continue;
		}
		/* the default is bbw here: the same nodes as asking for it */
		struct solve_result a = run(&p, (struct solve_opts){0});
		r = run(&p, (struct solve_opts){.generic = true,
		                                .engine = SOLVE_WIDE});
		assert_int_equal(a.nodes, r.nodes);
		assert_int_equal(a.solutions, r.solutions);
		assert_true(a.solutions >= 1);
		several += a.solutions > 1;
		solve_result_clear(&r);
		solve_result_clear(&a);
		for (size_t w = 0; w < 2; w++) {
			expect_same(&p, bways[w], bnames[w]);
			for (unsigned k = 1; k <= 7; k += 2 + (k == 3))
				expect_shards(&p, bways[w], k, bnames[w]);
		}
		compared++;
		puz_clear(&p);
	}
	print_message("    %d puzzles of 65..128 cells (of %d), %d with several "
	              "solutions\n", compared, (int)seed - 1, several);
	assert_true(several >= 3 && compared >= 20);
}

/* The 70-cell pentacube box (1418 solutions, 2.8 million nodes whole):
 * node budgets and solution limits stop every thread count with lower
 * bounds, on the wide bitboard; whole, its nodes are locked. */
static void test_tasks_bbw_limits(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle("tests/data/bench/pentacubes-2x5x7.puz", &p);
	static const uint64_t budgets[] = {1, 100, 5000, 70000, 400000};
	for (unsigned th = 1; th <= 8; th *= 2) {
		for (size_t b = 0; b < 5; b++) {
			struct solve_result r = run(&p, (struct solve_opts){
				.max_nodes = budgets[b], .threads = th, .keep_first = true});
			assert_false(r.complete);
			assert_int_equal(r.stop, SOLVE_MAX_NODES);
			/* the whole budget spent, whatever the threads */
			assert_int_equal(r.nodes, budgets[b]);
			assert_true(r.solutions < 1418);
			solve_result_clear(&r);
		}
		struct solve_result r = run(&p, (struct solve_opts){
			.max_solutions = 5, .threads = th});
		assert_int_equal(r.stop, SOLVE_MAX_SOLUTIONS);
		assert_true(r.solutions >= 5 && r.solutions < 1418);
		solve_result_clear(&r);
	}
	/* a shard stops on its budget as well */
	struct solve_result r = run(&p, (struct solve_opts){
		.max_nodes = 50000, .threads = 2, .shard_index = 1,
		.shard_count = 3});
	assert_int_equal(r.stop, SOLVE_MAX_NODES);
	assert_true(r.nodes <= 50000 && r.tasks > 1000);
	solve_result_clear(&r);
	/* Whole, on one thread and on two: its tree, locked (the rule
	 * against holes below short lists, BBW_HOLES_MORE, takes it from
	 * 3,114,308 nodes to 2,624,979, and leaving it out where a window
	 * squeezes a node of long lists to these; docs/figures.md) */
	for (unsigned th = 1; th <= 2; th++) {
		r = run(&p, (struct solve_opts){.threads = th});
		assert_true(r.complete);
		assert_int_equal(r.solutions, 1418);
		assert_int_equal(r.nodes, 2794788);
		solve_result_clear(&r);
	}
	puz_clear(&p);
}

static void test_tasks_limits(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "pentacubes-2x3x10.puz", &p);
	for (unsigned th = 1; th <= 8; th *= 2) {
		struct solve_result r = run(&p, (struct solve_opts){
			.max_solutions = 3, .threads = th});
		assert_false(r.complete);
		assert_int_equal(r.stop, SOLVE_MAX_SOLUTIONS);
		assert_true(r.solutions >= 3 && r.solutions <= 12);
		solve_result_clear(&r);
		static const uint64_t budgets[] = {1, 100, 5000, 40000};
		for (size_t b = 0; b < 4; b++) {
			r = run(&p, (struct solve_opts){.max_nodes = budgets[b],
			                                .threads = th});
			assert_false(r.complete);
			assert_int_equal(r.stop, SOLVE_MAX_NODES);
			assert_true(r.nodes <= budgets[b]);
			assert_true(b > 1 || r.solutions < 12);
			solve_result_clear(&r);
			r = run(&p, (struct solve_opts){.max_nodes = budgets[b],
			        .threads = th, .generic = true, .engine = SOLVE_DLX});
			assert_int_equal(r.stop, SOLVE_MAX_NODES);
			assert_true(r.nodes <= budgets[b]);
			solve_result_clear(&r);
		}
	}
	puz_clear(&p);
}

/* Progress: called from the caller's thread only, tasks done never
 * going back, never past the tasks. */
struct seen {
	pthread_t caller;
	int calls;
	uint64_t last_done, tasks;
	bool bad;
};

static void on_progress(void *ctx, const struct solve_progress *pr)
{
	struct seen *s = ctx;
	s->calls++;
	if (!pthread_equal(pthread_self(), s->caller) ||
	    pr->tasks_done < s->last_done || pr->tasks_done > pr->tasks ||
	    (s->tasks && pr->tasks != s->tasks))
		s->bad = true;
	s->last_done = pr->tasks_done;
	s->tasks = pr->tasks;
}

/* A budget of exactly the search's nodes completes it, one node less
 * stops it with every node spent: on any engine, with any threads (an
 * idle thread waits for what the others hand back instead of stopping
 * them), and with optional cells, whose fillers are no nodes. */
/* run(), with progress (when asked) checked as test_tasks_progress
 * checks it. */
static struct solve_result run_seen(const struct puzzle *p,
                                    struct solve_opts o, bool progress)
{
	struct seen sn = {.caller = pthread_self()};
	if (progress) {
		o.progress = on_progress;
		o.progress_ctx = &sn;
	}
	struct solve_result r = run(p, o);
	assert_false(sn.bad);
	return r;
}

static void expect_exact_budget(const char *path, enum solve_engine engine,
                                bool progress)
{
	struct puzzle p;
	test_load_puzzle(path, &p);
	struct solve_opts o = {.engine = engine, .generic = true};
	struct solve_result whole = run_seen(&p, o, progress);
	assert_true(whole.complete);
	assert_true(whole.nodes > 1);
	static const unsigned threads[] = {0, 1, 2, 8};
	for (size_t i = 0; i < 4; i++) {
		o.threads = threads[i];
		o.max_nodes = whole.nodes;
		struct solve_result r = run_seen(&p, o, progress);
		if (!r.complete || r.nodes != whole.nodes ||
		    r.solutions != whole.solutions)
			fail_msg("%s, engine %d, %u threads, budget %llu: %s, "
			         "%llu nodes, %llu solutions (whole: %llu)", path,
			         (int)engine, threads[i],
			         (unsigned long long)o.max_nodes,
			         r.complete ? "whole" : "stopped",
			         (unsigned long long)r.nodes,
			         (unsigned long long)r.solutions,
			         (unsigned long long)whole.solutions);
		solve_result_clear(&r);
		o.max_nodes = whole.nodes - 1;
		r = run_seen(&p, o, progress);
		if (r.complete || r.stop != SOLVE_MAX_NODES ||
		    r.nodes != o.max_nodes)
			fail_msg("%s, engine %d, %u threads, budget %llu: %s, "
			         "%llu nodes", path, (int)engine, threads[i],
			         (unsigned long long)o.max_nodes,
			         r.complete ? "whole" : "stopped",
			         (unsigned long long)r.nodes);
		solve_result_clear(&r);
	}
	solve_result_clear(&whole);
	puz_clear(&p);
}

static void test_tasks_exact_budget(void **state)
{
	(void)state;
	static const enum solve_engine engines[] = {SOLVE_AUTO, SOLVE_WIDE,
	                                            SOLVE_DLX};
	for (size_t e = 0; e < 3; e++) {
		expect_exact_budget(DATA "pentacubes-2x3x10.puz", engines[e], false);
		expect_exact_budget(DATA "colour-mix.puz", engines[e], false);
	}
	/* 70 cells: the wide bitboard either way */
	expect_exact_budget("tests/data/bench/slabs-2x5x7.puz", SOLVE_AUTO,
	                    false);
	/* optional cells: the wide bitboard's fillers (exact cover has
	 * none: the one placement is its only node) */
	expect_exact_budget("tests/data/puz/filler-budget.puz", SOLVE_AUTO,
	                    false);
}

/* A tree of at most SOLVE_SPLIT_WHOLE nodes is split in one round over
 * all of it (every node above the tasks, its covers the tasks), which is
 * what the last round by depth makes of a tree that never opens
 * SOLVE_TASKS subtrees; a larger one by depth, into SOLVE_TASKS or
 * more. Either way the same counts, nodes and first solution as one
 * plain search (expect_same() runs both on every puzzle). */
static void test_tasks_whole_round(void **state)
{
	(void)state;
	static const enum solve_engine engines[] = {SOLVE_AUTO, SOLVE_WIDE,
	                                            SOLVE_DLX};
	struct puzzle p;
	int opened = 0;
	for (size_t e = 0; e < 3; e++) {
		test_load_puzzle(DATA "soma.puz", &p);
		struct solve_opts o = {.generic = true, .engine = engines[e],
		                       .keep_first = true};
		struct solve_result a = run(&p, o);
		assert_true(a.nodes <= SOLVE_SPLIT_WHOLE);
		o.threads = 2;
		struct solve_result b = run(&p, o);
		o.split_by_depth = true;
		struct solve_result c = run(&p, o);
		assert_int_equal(b.split_nodes, a.nodes);
		assert_int_equal(b.nodes, a.nodes);
		assert_true(b.tasks > 0 && b.tasks <= a.assemblies);
		/* by depth, a tree that never opens SOLVE_TASKS subtrees ends
		 * in a round cut below its bottom: the same tasks, after a
		 * round a depth; dancing links' tree of Soma opens them */
		if (c.split_nodes == a.nodes) {
			assert_int_equal(c.tasks, b.tasks);
		} else {
			assert_true(c.split_nodes < a.nodes &&
			            c.tasks >= SOLVE_TASKS);
			opened++;
		}
		assert_int_equal(c.nodes, a.nodes);
		assert_int_equal(b.solutions, a.solutions);
		assert_int_equal(c.solutions, a.solutions);
		assert_memory_equal(b.first, a.first, grid_size(&p));
		solve_result_clear(&a);
		solve_result_clear(&b);
		solve_result_clear(&c);
		puz_clear(&p);
		/* past SOLVE_SPLIT_WHOLE nodes: by depth, the round's nodes
		 * not counted */
		test_load_puzzle(DATA "pentacubes-2x3x10.puz", &p);
		o = (struct solve_opts){.generic = true, .engine = engines[e]};
		a = run(&p, o);
		assert_true(a.nodes > SOLVE_SPLIT_WHOLE);
		o.threads = 1;
		b = run(&p, o);
		assert_true(b.split_nodes < b.nodes && b.tasks >= SOLVE_TASKS);
		assert_int_equal(b.nodes, a.nodes);
		assert_int_equal(b.solutions, a.solutions);
		solve_result_clear(&a);
		solve_result_clear(&b);
		puz_clear(&p);
	}
	assert_int_equal(opened, 1);
	/* The task list does not depend on the budget: a shard run with one
	 * that ends whole has the tasks of one run without (dancing links'
	 * Soma, 4,859 nodes, which by depth opens 1000 subtrees: the round
	 * must not give way to the depth split under a budget), so shards
	 * with other budgets merge; one too small stops with its budget's
	 * nodes, nothing counted. */
	test_load_puzzle(DATA "soma.puz", &p);
	struct solve_opts so = {.generic = true, .engine = SOLVE_DLX,
	                        .threads = 1, .shard_index = 1,
	                        .shard_count = 2};
	struct solve_result free_run = run(&p, so);
	assert_true(free_run.complete && free_run.nodes <= SOLVE_SPLIT_WHOLE);
	uint64_t n = free_run.split_nodes;
	const uint64_t budgets[] = {n / 3, n / 2, n - 1, n, n + 1,
	                            SOLVE_SPLIT_WHOLE, SOLVE_SPLIT_WHOLE + 1};
	for (size_t i = 0; i < sizeof budgets / sizeof *budgets; i++) {
		so.max_nodes = budgets[i];
		struct solve_result r = run(&p, so);
		if (r.complete) {
			assert_int_equal(r.tasks, free_run.tasks);
			assert_int_equal(r.split_nodes, free_run.split_nodes);
			assert_int_equal(r.numerator, free_run.numerator);
		} else {
			assert_true(budgets[i] < n);
			assert_int_equal(r.stop, SOLVE_MAX_NODES);
			assert_int_equal(r.nodes, budgets[i]);
		}
		solve_result_clear(&r);
	}
	solve_result_clear(&free_run);
	puz_clear(&p);
	/* 216 cells (four words, the window below): 3,286 nodes of long
	 * lists, the tree the round was made for */
	test_load_puzzle("tests/data/bench/blocks-6x6x6.puz", &p);
	expect_same(&p, (struct solve_opts){0}, "6x6x6 blocks");
	expect_shards(&p, (struct solve_opts){0}, 3, "6x6x6 blocks");
	puz_clear(&p);
}

/* Random puzzles with optional cells (fillers and late cells in
 * solve.c: their covers are recorded as tasks in the round) of 8 to 400
 * cells, through threads and shards split both ways. */
static void test_tasks_optional_cells(void **state)
{
	(void)state;
	int compared = 0, whole = 0, several = 0;
	for (uint64_t seed = 1; compared < 24 && seed <= 200; seed++) {
		struct puzzle p;
		int lo = seed % 3 == 0 ? 8 : seed % 3 == 1 ? 65 : 129;
		int hi = seed % 3 == 0 ? 64 : seed % 3 == 1 ? 128 : 400;
		assert_int_equal(randpuz_box_sized(seed * 2654435761u, lo, hi, true,
		                                   &p), 0);
		size_t opt = 0;
		for (size_t i = 0; i < grid_size(&p); i++)
			opt += puz_cell_optional(p.goal.cells[i]);
		assert_true(opt > 0);
		/* small searches only: the run stays short */
		struct solve_result a = run(&p, (struct solve_opts){
			.max_nodes = 4 * SOLVE_SPLIT_WHOLE});
		bool small = a.complete && a.solutions > 0;
		if (small) {
			struct solve_result b = run(&p, (struct solve_opts){
				.threads = 2});
			whole += b.split_nodes == b.nodes;
			several += a.solutions > 1;
			solve_result_clear(&b);
			expect_same(&p, (struct solve_opts){0}, "optional cells");
			expect_shards(&p, (struct solve_opts){0}, 3, "optional cells");
			compared++;
		}
		solve_result_clear(&a);
		puz_clear(&p);
	}
	struct puzzle p;
	test_load_puzzle("tests/data/puz/filler-budget.puz", &p);
	expect_same(&p, (struct solve_opts){0}, "filler");
	expect_shards(&p, (struct solve_opts){0}, 3, "filler");
	puz_clear(&p);
	print_message("    %d puzzles with optional cells, %d split in one "
	              "round, %d with several solutions\n", compared, whole,
	              several);
	assert_true(compared >= 24 && whole >= 12 && several >= 3);
}

static void test_tasks_progress(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle("tests/data/bench/pentacubes-2x5x6.puz", &p);
	struct seen s = {.caller = pthread_self()};
	struct solve_result r = run(&p, (struct solve_opts){
		.threads = 2, .progress = on_progress, .progress_ctx = &s});
	assert_int_equal(r.solutions, 264);
	assert_false(s.bad);
	/* a fifth of a second or more of search: some calls */
	assert_true(s.calls >= 1);
	print_message("    %d progress calls, %llu tasks\n", s.calls,
	              (unsigned long long)r.tasks);
	solve_result_clear(&r);
	puz_clear(&p);
}

/* Threads meeting on everything they share, for ThreadSanitizer ('make
 * tsan' runs this test alone): 8 threads on a search of a few thousand
 * tasks, with the first solution kept, every cover reported, the limits
 * reached, and per-cover allocations (renamings); on each engine. */
static void test_tasks_stress(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	for (int rep = 0; rep < 3; rep++) {
		expect_same(&p, (struct solve_opts){0}, "stress");
		expect_shards(&p, (struct solve_opts){.generic = true,
		              .engine = SOLVE_DLX}, 3, "stress");
		struct solve_result r = run(&p, (struct solve_opts){
			.threads = 8, .max_solutions = 100, .keep_first = true});
		assert_int_equal(r.stop, SOLVE_MAX_SOLUTIONS);
		assert_true(r.solutions >= 100 && r.first != NULL);
		solve_result_clear(&r);
		struct seen sn = {.caller = pthread_self()};
		r = run(&p, (struct solve_opts){.threads = 8, .max_nodes = 3000,
		        .progress = on_progress, .progress_ctx = &sn});
		assert_false(sn.bad);
		assert_int_equal(r.stop, SOLVE_MAX_NODES);
		assert_int_equal(r.nodes, 3000);
		solve_result_clear(&r);
	}
	puz_clear(&p);
	/* threads waiting for the budget the others hand back, the
	 * caller's reporting progress as it waits (past an allowance on
	 * the pentacubes, where the caller's thread waits too) */
	expect_exact_budget(DATA "soma.puz", SOLVE_AUTO, false);
	expect_exact_budget(DATA "soma.puz", SOLVE_AUTO, true);
	expect_exact_budget(DATA "pentacubes-2x3x10.puz", SOLVE_AUTO, true);
	test_load_puzzle("examples/ninecolour.puz", &p);
	expect_same(&p, (struct solve_opts){.rename_colours = true}, "stress");
	puz_clear(&p);
	/* the wide bitboard: 72 cells, 1500 tasks without pinning */
	assert_int_equal(randpuz_box(5 * 104729, &p), 0);
	struct solve_opts wide = {.generic = true, .engine = SOLVE_WIDE,
	                          .no_pin = true};
	expect_same(&p, wide, "stress, bbw");
	expect_shards(&p, wide, 3, "stress, bbw");
	wide.threads = 8;
	wide.max_nodes = 3000;
	struct solve_result r = run(&p, wide);
	assert_int_equal(r.stop, SOLVE_MAX_NODES);
	assert_int_equal(r.nodes, 3000);
	solve_result_clear(&r);
	puz_clear(&p);
}

/* ---- the engines' split ------------------------------------------------- */

struct tally {
	uint64_t covers, rowsum; /* covers, and a checksum of their rows */
};

static bool tally_visit(void *ctx, const size_t *rows, size_t n)
{
	struct tally *t = ctx;
	t->covers++;
	for (size_t i = 0; i < n; i++)
		t->rowsum += (rows[i] + 1) * 2654435761u;
	return true;
}

/* A random exact cover problem (perfect matchings of a random graph:
 * 16 items, 60 rows of two) in
 * both engines: split for several targets, every task replayed on a
 * clone; the covers, their rows and the nodes add up to one whole
 * search's. */
static void test_tasks_engine_split(void **state)
{
	(void)state;
	uint64_t x = 12345;
	enum { NI = 16, NR = 60 };
	size_t rows[NR][2], len[NR];
	uint64_t masks[NR];
	for (size_t r = 0; r < NR; r++) {
		uint64_t m = 0;
		len[r] = 0;
		while (len[r] < 2) {
			x = x * 6364136223846793005u + 1442695040888963407u;
			size_t it = (size_t)(x >> 33) % NI;
			if (m >> it & 1)
				continue;
			m |= (uint64_t)1 << it;
			rows[r][len[r]++] = it;
		}
		masks[r] = m;
	}
	xc *e = xc_new(NI, 0, NULL);
	unsigned rank[64], counts[1] = {NI / 2};
	for (unsigned c = 0; c < NI; c++)
		rank[c] = c;
	bb *b = bb_new(NI, rank, 1, counts);
	bbw *w = bbw_new(NI, rank, 1, counts);
	assert_non_null(e);
	assert_non_null(b);
	assert_non_null(w);
	for (size_t r = 0; r < NR; r++) {
		assert_int_equal(xc_add_row(e, rows[r], len[r]), XC_OK);
		assert_int_equal(bb_add_row(b, masks[r], 0), XC_OK);
		assert_int_equal(bbw_add_row(w, (uint64_t[2]){masks[r], 0}, 0),
		                 XC_OK);
	}
	for (int engine = 0; engine < 3; engine++) {
		struct tally whole = {0};
		uint64_t nodes;
		if (engine == 2)
			bbw_solve(w, 0, tally_visit, &whole, &nodes);
		else if (engine)
			bb_solve(b, 0, tally_visit, &whole, &nodes);
		else
			xc_solve(e, 0, tally_visit, &whole, &nodes);
		assert_true(whole.covers > 10);
		/* 0: the whole tree, every cover a task (tasks_run()'s round) */
		static const size_t wants[] = {0, 1, 2, 10, 100, 1000, 100000};
		for (size_t wi = 0; wi < 7; wi++) {
			struct xc_tasks t = {0};
			enum xc_stop st;
			int rc = engine == 2 ? bbw_split(w, wants[wi], 0, &t, &st)
			       : engine ? bb_split(b, wants[wi], 0, &t, &st)
			       : xc_split(e, wants[wi], 0, &t, &st);
			assert_int_equal(rc, XC_OK);
			assert_int_equal(st, XC_DONE);
			if (!wants[wi])
				assert_int_equal(t.n, whole.covers);
			struct tally sum = {0};
			uint64_t total = t.nodes;
			xc *ec = engine ? NULL : xc_clone(e);
			bb *bc = engine == 1 ? bb_clone(b) : NULL;
			bbw *wc = engine == 2 ? bbw_clone(w) : NULL;
			for (size_t k = 0; k < t.n; k++) {
				uint64_t n;
				assert_int_equal(engine == 2
					? bbw_solve_task(wc, &t, k, 0, tally_visit, &sum, &n)
					: engine
					? bb_solve_task(bc, &t, k, 0, tally_visit, &sum, &n)
					: xc_solve_task(ec, &t, k, 0, tally_visit, &sum, &n),
					XC_DONE);
				total += n;
			}
			assert_int_equal(sum.covers, whole.covers);
			assert_int_equal(sum.rowsum, whole.rowsum);
			assert_int_equal(total, nodes);
			if (!engine) {
				xc_end_tasks(ec);
				assert_true(xc_intact(ec) && xc_intact(e));
			}
			xc_free(ec);
			bb_free(bc);
			bbw_free(wc);
			xc_tasks_clear(&t);
		}
	}
	xc_free(e);
	bb_free(b);
	bbw_free(w);
}

/* Covers in the order found, each as its rows in the order placed
 * (c[i][0] the count). */
struct seq {
	size_t n, cap;
	uint32_t (*c)[66];
};

static bool seq_visit(void *ctx, const size_t *rows, size_t n)
{
	struct seq *q = ctx;
	assert_true(n <= 65);
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 256;
		q->c = realloc(q->c, q->cap * sizeof *q->c);
		assert_non_null(q->c);
	}
	memset(q->c[q->n], 0, sizeof q->c[0]);
	q->c[q->n][0] = (uint32_t)n;
	for (size_t i = 0; i < n; i++)
		q->c[q->n][i + 1] = (uint32_t)rows[i];
	q->n++;
	return true;
}

static int seq_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(uint32_t[66]));
}

/* Whether a and b hold the same covers, in any order (sorts both). */
static bool seq_same_set(struct seq *a, struct seq *b)
{
	if (a->n != b->n)
		return false;
	if (a->n) {
		qsort(a->c, a->n, sizeof a->c[0], seq_cmp);
		qsort(b->c, b->n, sizeof b->c[0], seq_cmp);
	}
	return a->n == 0 || memcmp(a->c, b->c, a->n * sizeof a->c[0]) == 0;
}

/* Tilings of a line of n cells (numbered along it) by a rods of two
 * cells and b of 'lb', every placement a row, with the line's edges (so
 * the regions pruning runs when the fill order leaves few gaps). With
 * 'mid', cell mid keeps only the two rows that start there: it then
 * ties with the ends of the line for the fewest rows, and when it comes
 * first in the fill order the search splits the line there into two
 * regions, whose lengths the pruning checks. */
static bool rod_row(unsigned n, unsigned mid, unsigned c, unsigned len)
{
	return c + len <= n && !(mid && c < mid && c + len > mid);
}

static bbw *rods(unsigned n, unsigned a, unsigned b, unsigned lb,
                   unsigned mid, const unsigned *rank)
{
	unsigned counts[2] = {a, b};
	bbw *e = bbw_new(n, rank, 2, counts);
	assert_non_null(e);
	for (unsigned t = 0; t < 2; t++)
		for (unsigned c = 0, len = t ? lb : 2; c < n; c++) {
			if (!rod_row(n, mid, c, len))
				continue;
			uint64_t m[2] = {0, 0};
			for (unsigned k = c; k < c + len; k++)
				m[k / 64] |= (uint64_t)1 << (k % 64);
			assert_int_equal(bbw_add_row(e, m, t), XC_OK);
		}
	for (unsigned c = 0; c + 1 < n; c++)
		bbw_add_edge(e, c, c + 1);
	return e;
}

/* Their number, by counting along the line: f[c][j] tilings of cells
 * 0..c-1 with j long rods. */
static uint64_t rod_tilings(unsigned n, unsigned b, unsigned lb, unsigned mid)
{
	static uint64_t f[129][8];
	memset(f, 0, sizeof f);
	f[0][0] = 1;
	for (unsigned c = 0; c < n; c++)
		for (unsigned j = 0; j <= b && j < 7; j++) {
			if (rod_row(n, mid, c, 2))
				f[c + 2][j] += f[c][j];
			if (rod_row(n, mid, c, lb))
				f[c + lb][j + 1] += f[c][j];
		}
	return f[n][b];
}

static bool tally_count(void *ctx, const size_t *rows, size_t n)
{
	(void)rows;
	(void)n;
	(*(uint64_t *)ctx)++;
	return true;
}

static uint64_t polls;
static uint64_t poll_some(void *ctx)
{
	(void)ctx;
	polls++;
	return 37;
}

/* bbw_split on one and two words, with and without the regions
 * pruning, the first type at the root (one copy of several, or none):
 * the tasks replayed in order on a clone find exactly the whole search's
 * covers, in its order (so the first is the whole's first), with its
 * nodes; replayed in a shuffled order (the path kept between tasks
 * shrinking and growing), the same set and nodes; and the engines are
 * left as they were. */
static void test_tasks_bbw_split(void **state)
{
	(void)state;
	static const unsigned shape[][4] = {
		/* n, a, b, lb */
		{64, 29, 2, 3}, {70, 32, 2, 3}, {127, 62, 1, 3}, {128, 62, 1, 4},
	};
	uint64_t x = 99;
	int bites = 0;
	for (size_t i = 0; i < 4; i++)
		for (int fill = 0; fill < 3; fill++)
			for (size_t first = 0; first <= 2; first++) {
				/* fill orders: along the line; from cell 'mid' (the
				 * search splits the line there, so the regions
				 * pruning cuts); shuffled (the pruning turns itself
				 * off: too many gaps) */
				unsigned n = shape[i][0], rank[128];
				unsigned mid = fill == 1 ? n / 2 : 0;
				for (unsigned c = 0; c < n; c++)
					rank[c] = c < mid ? c + 1 : c == mid ? 0 : c;
				for (unsigned c = n; fill == 2 && c > 1; c--) {
					x = x * 6364136223846793005u + 1442695040888963407u;
					unsigned j = (unsigned)(x >> 33) % c, t = rank[c - 1];
					rank[c - 1] = rank[j];
					rank[j] = t;
				}
				bbw *e = rods(n, shape[i][1], shape[i][2], shape[i][3],
				                mid, rank);
				if (first < 2)
					bbw_set_first(e, first);
				/* the regions pruning (off by default) where it
				 * cuts; elsewhere the defaults, the matrix phase
				 * on two words among them */
				if (fill == 1)
					bbw_set_flags(e, BBW_REGIONS | BBW_QUICK_COUNT |
					                     BBW_HOLES | BBW_MATRIX);
				struct seq whole = {0};
				uint64_t nodes, n2;
				assert_int_equal(bbw_solve(e, 0, seq_visit, &whole, &nodes),
				                 XC_DONE);
				assert_int_equal(whole.n, rod_tilings(n, shape[i][2],
				                                      shape[i][3], mid));
				assert_true(whole.n >= 2);
				if (fill == 1) {
					/* whether the pruning cut: the tasks below must
					 * then cut alike to match the nodes */
					bbw *np = rods(n, shape[i][1], shape[i][2],
					                 shape[i][3], mid, rank);
					if (first < 2)
						bbw_set_first(np, first);
					bbw_set_flags(np, BBW_QUICK_COUNT);
					uint64_t covers = 0;
					assert_int_equal(bbw_solve(np, 0, tally_count, &covers,
					                             &n2), XC_DONE);
					assert_int_equal(covers, whole.n);
					assert_true(n2 >= nodes);
					bites += n2 > nodes;
					bbw_free(np);
				}
				/* 0: the whole tree in one walk, every cover a task */
				static const size_t wants[] = {0, 1, 100, 100000};
				for (size_t wi = 0; wi < 4; wi++) {
					/* to the leaves (the split walks the tree once
					 * per depth): with the root's rule only */
					if (wi == 3 && first != 1)
						continue;
					struct xc_tasks t = {0};
					enum xc_stop st;
					assert_int_equal(bbw_split(e, wants[wi], 0, &t, &st),
					                 XC_OK);
					assert_int_equal(st, XC_DONE);
					assert_true(t.n >= 1);
					if (!wants[wi])
						assert_int_equal(t.n, whole.n);
					bbw *c = bbw_clone(e);
					assert_non_null(c);
					struct seq got = {0};
					uint64_t total = t.nodes;
					for (size_t k = 0; k < t.n; k++) {
						assert_int_equal(bbw_solve_task(c, &t, k, 0,
						                 seq_visit, &got, &n2), XC_DONE);
						total += n2;
					}
					assert_int_equal(total, nodes);
					assert_int_equal(got.n, whole.n);
					assert_memory_equal(got.c, whole.c, whole.n * sizeof whole.c[0]);
					if (wi == 2) {
						/* shuffled, with a poll of small allowances */
						size_t *order = malloc(t.n * sizeof *order);
						assert_non_null(order);
						for (size_t k = 0; k < t.n; k++)
							order[k] = k;
						for (size_t k = t.n; k > 1; k--) {
							x = x * 6364136223846793005u + 1442695040888963407u;
							size_t j = (size_t)(x >> 33) % k, tmp = order[k - 1];
							order[k - 1] = order[j];
							order[j] = tmp;
						}
						bbw_set_poll(c, poll_some, NULL);
						polls = 0;
						struct seq any = {0};
						total = t.nodes;
						for (size_t k = 0; k < t.n; k++) {
							assert_int_equal(bbw_solve_task(c, &t, order[k],
							                 0, seq_visit, &any, &n2), XC_DONE);
							total += n2;
						}
						assert_int_equal(total, nodes);
						assert_true(polls >= (nodes - t.nodes) / 37);
						struct seq w2 = {.n = whole.n, .cap = whole.n};
						w2.c = malloc((whole.n ? whole.n : 1) * sizeof *w2.c);
						assert_non_null(w2.c);
						memcpy(w2.c, whole.c, whole.n * sizeof *w2.c);
						assert_true(seq_same_set(&w2, &any));
						free(w2.c);
						free(any.c);
						free(order);
						bbw_set_poll(c, NULL, NULL);
					}
					/* a whole search on the clone after its tasks */
					got.n = 0;
					assert_int_equal(bbw_solve(c, 0, seq_visit, &got, &n2),
					                 XC_DONE);
					assert_int_equal(n2, nodes);
					assert_int_equal(got.n, whole.n);
					assert_memory_equal(got.c, whole.c, whole.n * sizeof whole.c[0]);
					free(got.c);
					bbw_free(c);
					xc_tasks_clear(&t);
				}
				/* the split left the engine as it was */
				struct seq again = {0};
				assert_int_equal(bbw_solve(e, 0, seq_visit, &again, &n2),
				                 XC_DONE);
				assert_int_equal(n2, nodes);
				assert_int_equal(again.n, whole.n);
				assert_memory_equal(again.c, whole.c, whole.n * sizeof whole.c[0]);
				free(again.c);
				free(whole.c);
				bbw_free(e);
			}
	print_message("    the regions pruning cut %d of 12 searches\n", bites);
	assert_true(bites >= 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tasks_engine_split),
		cmocka_unit_test(test_tasks_bbw_split),
		cmocka_unit_test(test_tasks_whole_round),
		cmocka_unit_test(test_tasks_optional_cells),
		cmocka_unit_test(test_tasks_soma),
		cmocka_unit_test(test_tasks_pentacubes),
		cmocka_unit_test(test_tasks_happy_cubes),
		cmocka_unit_test(test_tasks_ranges),
		cmocka_unit_test(test_tasks_colours),
		cmocka_unit_test(test_tasks_shell_is_one_task),
		cmocka_unit_test(test_tasks_random),
		cmocka_unit_test(test_tasks_copies),
		cmocka_unit_test(test_tasks_bbw_puzzles),
		cmocka_unit_test(test_tasks_limits),
		cmocka_unit_test(test_tasks_bbw_limits),
		cmocka_unit_test(test_tasks_exact_budget),
		cmocka_unit_test(test_tasks_progress),
		cmocka_unit_test(test_tasks_stress),
	};
	/* TASKS_FILTER=pattern runs only the matching tests ('make tsan'
	 * runs a short selection under ThreadSanitizer) */
	if (getenv("TASKS_FILTER"))
		cmocka_set_test_filter(getenv("TASKS_FILTER"));
	return run_tests_parts(tests);
}
