/*
 * test_bigcounts.c: published counts of large puzzles (tests/data/bench,
 * whose SOURCE.md gives where each comes from), counted whole on two
 * threads: the Tetris Cube's 9,839 solutions (236,136 assemblies, 24 per
 * solution), and the 25 Y-pentacubes' 1,264 (60,672 assemblies), a
 * count with no piece of one copy: the middle cell pinned and, below
 * each placement there (all lie in a mirror plane), a second cell
 * (solve.c's choose_cell_second()), in 3,694,265 nodes; 7,630,463
 * without that second level. Seconds, not minutes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "formats/puz.h"
#include "solver/solve.h"

static void test_tetris_cube(void **state)
{
	(void)state;
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_file("tests/data/bench/tetris-cube.puz", &p, &e),
	                 PUZ_OK);
	struct solve_opts o = {.threads = 2};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_true(r.complete);
	assert_int_equal(r.solutions, 9839);
	assert_int_equal(r.assemblies, 236136);
	assert_int_equal(r.group_order, 24);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_y_pentacubes(void **state)
{
	(void)state;
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_file("tests/data/bench/y-pentacubes-5x5x5.puz",
	                               &p, &e), PUZ_OK);
	struct solve_opts o = {.threads = 2};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_true(r.complete);
	assert_int_equal(r.solutions, 1264);
	assert_int_equal(r.assemblies, 60672);
	assert_int_equal(r.group_order, 48);
	assert_int_equal(r.nodes, 3694265);
	solve_result_clear(&r);
	puz_clear(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tetris_cube),
		cmocka_unit_test(test_y_pentacubes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
