/* test_solve.c: counting per DESIGN.md §2: known answers, every engine and
 * path against the others, and against the independent brute force in
 * tests/brute.c on hundreds of random puzzles. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "solver/poly.h"
#include "solver/shell.h"
#include "solver/solve.h"
#include "tests/brute.h"
#include "tests/randpuz.h"

#define DATA "tests/data/classic/"

static void load(const char *path, struct puzzle *p)
{
	struct puz_error e;
	size_t n = strlen(path);
	int rc = n > 4 && strcmp(path + n - 4, ".hcq") == 0
	         ? hcq_read_file(path, p, &e) : puz_read_file(path, p, &e);
	if (rc != PUZ_OK)
		fail_msg("%s:%d:%d: %s", path, e.line, e.col, e.msg);
}

static struct solve_result run(const struct puzzle *p, struct solve_opts o)
{
	struct solve_result r;
	assert_int_equal(solve_puzzle(p, &o, &r), SOLVE_OK);
	return r;
}

/* Every way of solving: default, generic with each engine, and without
 * symmetry breaking; all must give 'sol' solutions and 'as' assemblies. */
static void expect_all_ways(const struct puzzle *p, uint64_t sol, uint64_t as)
{
	static const struct solve_opts ways[] = {
		{0},
		{.generic = true, .engine = SOLVE_DLX},
		{.generic = true, .engine = SOLVE_BITS},
		{.generic = true, .engine = SOLVE_DLX, .no_pin = true},
		{.generic = true, .engine = SOLVE_BITS, .no_pin = true},
	};
	for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		struct solve_result r = run(p, ways[i]);
		if (r.solutions != sol || r.assemblies != as || !r.complete)
			fail_msg("%s, way %zu: %llu solutions %llu assemblies, "
			         "expected %llu %llu", p->name, i,
			         (unsigned long long)r.solutions,
			         (unsigned long long)r.assemblies,
			         (unsigned long long)sol, (unsigned long long)as);
		solve_result_clear(&r);
	}
}

static void test_solve_soma(void **state)
{
	(void)state;
	struct puzzle p;
	load(DATA "soma.puz", &p);
	expect_all_ways(&p, 240, 11520);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.group_order, 48);
	assert_true(r.mirror_closed);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_solve_pentacubes_2x3x10(void **state)
{
	(void)state;
	struct puzzle p;
	load(DATA "pentacubes-2x3x10.puz", &p);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.solutions, 12);
	assert_int_equal(r.assemblies, 96);
	assert_int_equal(r.group_order, 8);
	solve_result_clear(&r);
	r = run(&p, (struct solve_opts){.generic = true, .engine = SOLVE_DLX});
	assert_int_equal(r.solutions, 12);
	assert_int_equal(r.assemblies, 96);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_solve_happy_cubes(void **state)
{
	(void)state;
	struct puzzle p, q;
	load(DATA "HC_BQ_001.hcq", &p);
	load(DATA "HC_BQ_001.puz", &q);
	expect_all_ways(&p, 1, 48);
	expect_all_ways(&q, 1, 48);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_true(r.fast_path);
	solve_result_clear(&r);
	puz_clear(&p);
	puz_clear(&q);
	load(DATA "happycube-blue.puz", &p);
	expect_all_ways(&p, 3, 144);
	puz_clear(&p);
}

/* The first solution is a real assembly: every goal cell labelled, and
 * each piece's labelled cells congruent to the piece. */
static void check_first(const struct puzzle *p, const unsigned char *lab)
{
	const struct grid *g = &p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	for (size_t i = 0; i < total; i++)
		assert_int_equal(lab[i] != 0, g->cells[i] != 0);
	for (size_t k = 0; k < p->npieces; k++) {
		if (p->pieces[k].count != 1)
			continue;
		struct grid cells;
		assert_int_equal(grid_init(&cells, g->nx, g->ny, g->nz), PUZ_OK);
		for (size_t i = 0; i < total; i++)
			cells.cells[i] = lab[i] == k + 1;
		struct shape a, b, ca, cb;
		assert_int_equal(poly_from_grid(&cells, &a), POLY_OK);
		assert_int_equal(poly_from_grid(&p->pieces[k].shape, &b), POLY_OK);
		assert_int_equal(poly_canonical(&a, &ca), POLY_OK);
		assert_int_equal(poly_canonical(&b, &cb), POLY_OK);
		assert_true(poly_equal(&ca, &cb));
		poly_shape_clear(&a);
		poly_shape_clear(&b);
		poly_shape_clear(&ca);
		poly_shape_clear(&cb);
		grid_clear(&cells);
	}
}

static void test_solve_first_solution_is_geometric(void **state)
{
	(void)state;
	static const char *files[] = {DATA "soma.puz", DATA "HC_BQ_001.hcq",
	                              DATA "happycube-blue.puz",
	                              DATA "pentacubes-2x3x10.puz"};
	for (size_t i = 0; i < 4; i++)
		for (int generic = 0; generic < 2; generic++) {
			struct puzzle p;
			load(files[i], &p);
			struct solve_result r =
				run(&p, (struct solve_opts){.keep_first = true,
				                            .generic = generic,
				                            .max_solutions = 1});
			assert_non_null(r.first);
			check_first(&p, r.first);
			solve_result_clear(&r);
			puz_clear(&p);
		}
}

/* The 19 commercial Happy Cube sets: the fast path and DLX agree (and
 * the brute force, which knows nothing of either). */
static void test_solve_happycube_sets(void **state)
{
	(void)state;
	static const char *ids[] = {
		"050b7f1c", "1324cd79", "1cd8e63e", "2912d4de", "3ad70224",
		"3e7db9fa", "413671bb", "82af7031", "90fbdf4e", "936cda1c",
		"9eee9ee5", "a569529f", "ae37886c", "b10801b1", "b95e3254",
		"cfe252dc", "d4124011", "e6166c21", "f739452a"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		char path[128];
		snprintf(path, sizeof path, DATA "happycube/%s.puz", ids[i]);
		struct puzzle p;
		load(path, &p);
		struct brute_result b;
		assert_int_equal(brute_count(&p, &b), 0);
		expect_all_ways(&p, b.solutions, b.assemblies);
		puz_clear(&p);
	}
}

/* Compare the solver with the brute force; false when they differ. */
static bool agrees(const struct puzzle *p, struct solve_opts o,
                   const struct brute_result *b)
{
	struct solve_result r;
	if (solve_puzzle(p, &o, &r) != SOLVE_OK)
		return false;
	bool same = r.complete && r.solutions == b->solutions &&
	            r.assemblies == b->assemblies &&
	            r.group_order == b->group_order &&
	            r.mirror_closed == b->mirror_closed;
	solve_result_clear(&r);
	return same;
}

static void test_solve_differential_polycubes(void **state)
{
	(void)state;
	static const struct solve_opts ways[] = {
		{0},
		{.generic = true, .engine = SOLVE_DLX},
		{.generic = true, .engine = SOLVE_BITS, .no_pin = true},
	};
	int compared = 0, solvable = 0, several = 0, symmetric = 0;
	for (uint64_t seed = 1; compared < 400; seed++) {
		struct puzzle p;
		int made = randpuz_polycubes(seed, &p);
		assert_true(made >= 0);
		struct brute_result b;
		if (brute_count(&p, &b) != 0) {
			puz_clear(&p);
			continue;
		}
		for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
			if (!agrees(&p, ways[w], &b))
				fail_msg("random puzzle seed %llu, way %zu: brute force "
				         "says %llu solutions %llu assemblies",
				         (unsigned long long)seed, w,
				         (unsigned long long)b.solutions,
				         (unsigned long long)b.assemblies);
		compared++;
		solvable += b.assemblies > 0;
		several += b.solutions > 1;
		symmetric += b.assemblies * 1 != b.solutions * (uint64_t)b.group_order;
		puz_clear(&p);
	}
	/* The sample must exercise what matters: solvable and unsolvable,
	 * unique and not, and solutions with symmetries of their own. */
	assert_true(solvable > 200 && solvable < compared);
	assert_true(several > 20);
	assert_true(symmetric > 10);
}

static void test_solve_differential_shells(void **state)
{
	(void)state;
	int compared = 0, unique = 0;
	for (int n = 3; n <= 5; n++)
		/* n = 4 most often has plates with an empty side, which may sit
		 * shifted on their face: compare more of those */
		for (uint64_t seed = 1; seed <= (n == 4 ? 200u : 50u); seed++) {
			struct puzzle p;
			assert_int_equal(randpuz_shell(seed * 7919 + (uint64_t)n, n, &p), 0);
			struct brute_result b;
			assert_int_equal(brute_count(&p, &b), 0);
			assert_true(agrees(&p, (struct solve_opts){0}, &b));
			assert_true(agrees(&p, (struct solve_opts){.generic = true}, &b));
			compared++;
			unique += b.solutions == 1;
			puz_clear(&p);
		}
	assert_int_equal(compared, 300);
	assert_true(unique > 100 && unique < 300);
}

/* The comparison itself can fail: a wrong count is caught. */
static void test_solve_differential_can_fail(void **state)
{
	(void)state;
	struct puzzle p;
	load(DATA "happycube-blue.puz", &p);
	struct brute_result b;
	assert_int_equal(brute_count(&p, &b), 0);
	assert_true(agrees(&p, (struct solve_opts){0}, &b));
	b.solutions++;
	assert_false(agrees(&p, (struct solve_opts){0}, &b));
	b.solutions--;
	b.assemblies++;
	assert_false(agrees(&p, (struct solve_opts){.generic = true}, &b));
	puz_clear(&p);
}

/* Generated puzzles: the shell fast path and the generic search agree on
 * every count, for many seeds and sizes. */
static void test_solve_generated_fast_path_matches(void **state)
{
	(void)state;
	int fast = 0;
	for (int n = 3; n <= 8; n++)
		for (uint64_t seed = 0; seed < (n <= 5 ? 120u : 30u); seed++) {
			struct rng r;
			rng_seed(&r, seed);
			struct gen_puzzle g = {0};
			assert_int_equal(gen_draw(&r, n, &g), GEN_OK);
			struct puzzle p;
			assert_int_equal(gen_to_puzzle(&g, seed, &p), GEN_OK);
			struct solve_result a = run(&p, (struct solve_opts){0});
			struct solve_result b = run(&p, (struct solve_opts){.generic = true});
			assert_int_equal(a.solutions, b.solutions);
			assert_int_equal(a.assemblies, b.assemblies);
			assert_true(a.solutions >= 1);
			fast += a.fast_path;
			const unsigned char *pl[6];
			for (int i = 0; i < 6; i++)
				pl[i] = g.piece[i];
			struct solve_result c;
			int rc = shell_count(n, pl, &(struct solve_opts){0}, &c);
			if (rc == SOLVE_OK) {
				assert_int_equal(c.solutions, a.solutions);
				assert_int_equal(c.assemblies, a.assemblies);
				solve_result_clear(&c);
			} else {
				assert_int_equal(rc, SHELL_NOT_SHELL);
			}
			solve_result_clear(&a);
			solve_result_clear(&b);
			puz_clear(&p);
			gen_puzzle_clear(&g);
		}
	assert_true(fast > 300);
}

static void test_solve_limits(void **state)
{
	(void)state;
	struct puzzle p;
	load(DATA "soma.puz", &p);
	struct solve_result r = run(&p, (struct solve_opts){.max_solutions = 5});
	assert_false(r.complete);
	assert_int_equal(r.stop, SOLVE_MAX_SOLUTIONS);
	assert_true(r.solutions >= 5 && r.solutions < 240);
	solve_result_clear(&r);
	r = run(&p, (struct solve_opts){.max_nodes = 100});
	assert_false(r.complete);
	assert_int_equal(r.stop, SOLVE_MAX_NODES);
	assert_true(r.nodes <= 100);
	solve_result_clear(&r);
	r = run(&p, (struct solve_opts){.max_nodes = 100, .generic = true,
	                                .engine = SOLVE_DLX});
	assert_int_equal(r.stop, SOLVE_MAX_NODES);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_solve_unsolvable_says_why(void **state)
{
	(void)state;
	static const char vol[] = "puzzle v1\ngoal 2 2 1\n##\n##\n"
	                          "piece L 2 2 1\n##\n#.\n";
	static const char nowhere[] = "puzzle v1\ngoal 4 1 1\n####\n"
	                              "piece L 2 2 1\n##\n#.\n"
	                              "piece I 1 1 1\n#\n";
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_mem(vol, sizeof vol - 1, &p, &e), PUZ_OK);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.solutions, 0);
	assert_true(r.complete);
	assert_non_null(strstr(r.why, "3 cells, the goal 4"));
	assert_int_equal(r.nodes, 0);
	solve_result_clear(&r);
	puz_clear(&p);
	assert_int_equal(puz_read_mem(nowhere, sizeof nowhere - 1, &p, &e), PUZ_OK);
	r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.solutions, 0);
	assert_non_null(strstr(r.why, "'L' fits nowhere"));
	solve_result_clear(&r);
	puz_clear(&p);
}

/* Identical pieces given as separate entries or as a count are the same
 * puzzle: two L trominoes in a 3x2 rectangle, 2 assemblies, 1 solution. */
static void test_solve_identical_pieces(void **state)
{
	(void)state;
	static const char counted[] = "puzzle v1\ngoal 3 2 1\n###\n###\n"
	                              "piece L 2 2 1 count 2\n##\n#.\n";
	static const char apart[] = "puzzle v1\ngoal 3 2 1\n###\n###\n"
	                            "piece L 2 2 1\n##\n#.\n"
	                            "piece M 2 2 1\n.#\n##\n";
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_mem(counted, sizeof counted - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 1, 2);
	puz_clear(&p);
	assert_int_equal(puz_read_mem(apart, sizeof apart - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 1, 2);
	puz_clear(&p);
}

/* The only single-copy pieces are chiral (Soma's A and B, mirror images of
 * each other) in a mirror-closed set: the pinned piece's group H is the
 * rotations only, index 2 in G, and some solutions have symmetries of
 * their own. Counts from the brute force, checked by hand for the first. */
static void test_solve_chiral_pin(void **state)
{
	(void)state;
	static const char ab_l[] =
		"puzzle v1\ngoal 4 2 2\n####\n####\n\n####\n####\n"
		"piece A 2 2 2\n##\n#.\n\n.#\n..\n"
		"piece B 2 2 2\n##\n#.\n\n..\n#.\n"
		"piece L 3 2 1 count 2\n###\n#..\n";
	static const char ab_i[] =
		"puzzle v1\ngoal 3 2 2\n###\n###\n\n###\n###\n"
		"piece A 2 2 2\n##\n#.\n\n.#\n..\n"
		"piece B 2 2 2\n##\n#.\n\n..\n#.\n"
		"piece I 2 1 1 count 2\n##\n";
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_mem(ab_l, sizeof ab_l - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 1, 8);
	struct brute_result b;
	assert_int_equal(brute_count(&p, &b), 0);
	assert_int_equal(b.solutions, 1);
	assert_int_equal(b.group_order, 16);
	puz_clear(&p);
	assert_int_equal(puz_read_mem(ab_i, sizeof ab_i - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 3, 32);
	assert_int_equal(brute_count(&p, &b), 0);
	assert_int_equal(b.solutions, 3);
	assert_int_equal(b.assemblies, 32);
	puz_clear(&p);
}

/* Regression: shells whose only single-copy plates have symmetries of
 * their own, so the fast path's stabiliser test decides the count. A
 * negated axis was once re-anchored by the image's sign (c = 0 gives -0,
 * never shifted), so such puzzles were miscounted, one with two solutions
 * as unique. Found by an adversarial review; its 126 puzzles live in
 * tests/data/regress/ and must all agree with the brute force. */
static void test_solve_regress_symmetric_pinned_plates(void **state)
{
	(void)state;
	DIR *d = opendir("tests/data/regress");
	assert_non_null(d);
	struct dirent *e;
	int checked = 0, fast = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".puz") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "tests/data/regress/%s", e->d_name);
		struct puzzle p;
		load(path, &p);
		struct brute_result b;
		assert_int_equal(brute_count(&p, &b), 0);
		struct solve_result r = run(&p, (struct solve_opts){0});
		if (r.solutions != b.solutions || r.assemblies != b.assemblies)
			fail_msg("%s: %llu solutions %llu assemblies, brute force %llu %llu",
			         path, (unsigned long long)r.solutions,
			         (unsigned long long)r.assemblies,
			         (unsigned long long)b.solutions,
			         (unsigned long long)b.assemblies);
		fast += r.fast_path;
		solve_result_clear(&r);
		puz_clear(&p);
		checked++;
	}
	closedir(d);
	assert_true(checked >= 100);
	assert_true(fast >= checked / 2); /* the path under test was taken */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_solve_soma),
		cmocka_unit_test(test_solve_pentacubes_2x3x10),
		cmocka_unit_test(test_solve_happy_cubes),
		cmocka_unit_test(test_solve_first_solution_is_geometric),
		cmocka_unit_test(test_solve_happycube_sets),
		cmocka_unit_test(test_solve_differential_polycubes),
		cmocka_unit_test(test_solve_differential_shells),
		cmocka_unit_test(test_solve_differential_can_fail),
		cmocka_unit_test(test_solve_generated_fast_path_matches),
		cmocka_unit_test(test_solve_limits),
		cmocka_unit_test(test_solve_unsolvable_says_why),
		cmocka_unit_test(test_solve_identical_pieces),
		cmocka_unit_test(test_solve_chiral_pin),
		cmocka_unit_test(test_solve_regress_symmetric_pinned_plates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
