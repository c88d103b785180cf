/*
 * test_bigcounts.c: published counts of large puzzles (tests/data/bench,
 * whose SOURCE.md gives where each comes from), counted whole on two
 * threads: the Tetris Cube's 9,839 solutions (236,136 assemblies, 24 per
 * solution). Seconds, not minutes: the 25 Y-pentacubes' count (a minute)
 * is left to make bench.
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tetris_cube),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
