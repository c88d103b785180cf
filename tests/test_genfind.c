/*
 * test_genfind.c: the generator's difficulty side (gen/find.c): the band
 * table is what the calibration computes, bands do not depend on the order
 * of a box's sides, gen_find() returns the first unique candidate of the
 * stream in the band asked for, and its score is the puzzle's own; its
 * node count is the uniqueness checks' over every candidate drawn, and
 * gen_confirm() agrees with the fast path on unique and ambiguous
 * candidates alike.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "gen/gen.h"
#include "solver/difficulty.h"
#include "solver/solve.h"

/* The table in find.c is gen_calibrate() with GEN_CALIB_CUBES samples;
 * the sides whose calibration takes about a second are recomputed here
 * (the smaller ones take longer: `make bands` prints the whole table). */
static void test_genfind_table_is_the_calibration(void **state)
{
	(void)state;
	for (int side = 6; side <= 8; side++) {
		int dim[3] = {side, side, side};
		struct gen_bands table, computed;
		assert_int_equal(gen_bands(dim, &table), GEN_OK);
		assert_int_equal(gen_calibrate(dim, GEN_CALIB_CUBES, &computed), GEN_OK);
		assert_int_equal(table.samples, computed.samples);
		assert_true(table.easy_max == computed.easy_max);
		assert_true(table.hard_min == computed.hard_min);
		assert_memory_equal(table.in_band, computed.in_band,
		                    sizeof table.in_band);
		assert_int_equal(table.in_band[GEN_BAND_EASY] +
		                 table.in_band[GEN_BAND_MEDIUM] +
		                 table.in_band[GEN_BAND_HARD], table.samples);
		assert_true(table.easy_max < table.hard_min);
	}
}

/* 5 x 5 x 5 is anchored to the commercial sets (docs/puzzles.md): the hardest
 * Original (14.00) is easy, Marble Curie (24.58) and the Pros hard. */
static void test_genfind_bands_at_five(void **state)
{
	(void)state;
	int dim[3] = {5, 5, 5};
	struct gen_bands b;
	assert_int_equal(gen_bands(dim, &b), GEN_OK);
	assert_int_equal(gen_band_of(&b, 4.1667), GEN_BAND_EASY);
	assert_int_equal(gen_band_of(&b, 14.0), GEN_BAND_EASY);
	assert_int_equal(gen_band_of(&b, 14.6667), GEN_BAND_MEDIUM);
	assert_int_equal(gen_band_of(&b, 24.5833), GEN_BAND_HARD);
	assert_int_equal(gen_band_of(&b, 35.5833), GEN_BAND_HARD);
	assert_int_equal(gen_band_of(&b, b.easy_max), GEN_BAND_EASY);
	assert_int_equal(gen_band_of(&b, b.hard_min), GEN_BAND_HARD);
	assert_string_equal(gen_band_name(GEN_BAND_MEDIUM), "medium");
}

static void test_genfind_box_bands_ignore_side_order(void **state)
{
	(void)state;
	int a[3] = {4, 5, 6}, b[3] = {6, 4, 5};
	struct gen_bands x, y;
	assert_int_equal(gen_calibrate(a, 60, &x), GEN_OK);
	assert_int_equal(gen_calibrate(b, 60, &y), GEN_OK);
	assert_int_equal(x.samples, 60);
	assert_int_equal(x.samples, y.samples);
	assert_true(x.easy_max == y.easy_max && x.hard_min == y.hard_min);
	assert_true(x.easy_max <= x.hard_min);
}

/* The score of a generated puzzle, two ways: from the plates and from the
 * .puz puzzle the generator writes. */
static double score_of(const struct gen_puzzle *g)
{
	struct diff_result r, q;
	double d, e;
	assert_int_equal(gen_difficulty(g, &r), SOLVE_OK);
	assert_true(diff_score(&r, &d));
	struct puzzle p;
	assert_int_equal(gen_to_puzzle(g, 0, &p), GEN_OK);
	assert_int_equal(diff_puzzle(&p, 0, &q), SOLVE_OK);
	puz_clear(&p);
	assert_true(diff_score(&q, &e));
	assert_true(d == e);
	assert_true(r.dead == q.dead && r.wins == q.wins && r.method == q.method);
	return d;
}

static bool unique(const struct gen_puzzle *g)
{
	struct solve_opts o = {.max_solutions = 2};
	struct solve_result r;
	assert_int_equal(gen_count(g, &o, &r), SOLVE_OK);
	bool yes = r.complete && r.solutions == 1;
	solve_result_clear(&r);
	return yes;
}

/* gen_find() against a plain walk of the stream: the first unique
 * candidate in the band, after the same number of draws (the random
 * bands; hard and expert climb: test_genclimb.c). */
static void test_genfind_first_in_band(void **state)
{
	(void)state;
	int sizes[][3] = {{5, 5, 5}, {4, 4, 4}, {4, 5, 6}, {6, 6, 6}};
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		struct gen_bands b;
		assert_int_equal(gen_bands(sizes[s], &b), GEN_OK);
		for (int band = GEN_BAND_ANY; band <= GEN_BAND_MEDIUM; band++)
			for (uint64_t seed = 1; seed <= 3; seed++) {
				struct rng r, w;
				rng_seed(&r, seed);
				rng_seed(&w, seed);
				struct gen_puzzle g = {0};
				struct gen_found f;
				assert_int_equal(gen_find(&r, sizes[s], 3000,
				                          (enum gen_band)band, &b, &g, &f),
				                 GEN_OK);
				uint64_t draws = 0;
				struct gen_puzzle h = {0};
				bool hit = false;
				while (draws < 3000 && !hit) {
					gen_puzzle_clear(&h);
					assert_int_equal(gen_draw(&w, sizes[s], &h), GEN_OK);
					draws++;
					hit = unique(&h) &&
					      (band == GEN_BAND_ANY ||
					       (int)gen_band_of(&b, score_of(&h)) == band);
				}
				assert_int_equal(f.found, hit);
				assert_int_equal(f.attempts, draws);
				if (hit) {
					assert_true(f.difficulty == score_of(&h));
					for (int i = 0; i < 6; i++) {
						assert_int_equal(g.pw[i], h.pw[i]);
						assert_int_equal(g.ph[i], h.ph[i]);
						assert_memory_equal(g.piece[i], h.piece[i],
						                    (size_t)(g.pw[i] * g.ph[i]));
					}
				}
				gen_puzzle_clear(&g);
				gen_puzzle_clear(&h);
			}
	}
}

/* gen_found.nodes adds up the nodes of every candidate's uniqueness
 * check (as gen_count() reports them); gen_confirm(), the general
 * search, says what gen_count() says, for unique and ambiguous
 * candidates (size 3 has plenty of both). */
static void test_genfind_nodes_and_confirm(void **state)
{
	(void)state;
	int sizes[][3] = {{3, 3, 3}, {5, 5, 5}, {3, 4, 5}};
	int unique_seen = 0, ambiguous_seen = 0;
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct gen_bands b;
			assert_int_equal(gen_bands(sizes[s], &b), GEN_OK);
			struct rng r, w;
			rng_seed(&r, seed);
			rng_seed(&w, seed);
			struct gen_puzzle g = {0}, h = {0};
			struct gen_found f;
			assert_int_equal(gen_find(&r, sizes[s], 200, GEN_BAND_MEDIUM, &b,
			                          &g, &f), GEN_OK);
			uint64_t nodes = 0;
			for (uint64_t k = 0; k < f.attempts; k++) {
				gen_puzzle_clear(&h);
				assert_int_equal(gen_draw(&w, sizes[s], &h), GEN_OK);
				struct solve_opts o = {.max_solutions = 2};
				struct solve_result res;
				assert_int_equal(gen_count(&h, &o, &res), SOLVE_OK);
				nodes += res.nodes;
				bool yes = res.complete && res.solutions == 1, again = !yes;
				solve_result_clear(&res);
				assert_int_equal(gen_confirm(&h, &again), SOLVE_OK);
				assert_int_equal(again, yes);
				unique_seen += yes;
				ambiguous_seen += !yes;
			}
			assert_true(f.nodes == nodes);
			assert_true(f.nodes > 0);
			gen_puzzle_clear(&g);
			gen_puzzle_clear(&h);
		}
	assert_true(unique_seen > 0 && ambiguous_seen > 0);
}

/* Not found is a result: '*out' untouched, attempts all used. */
static void test_genfind_not_found(void **state)
{
	(void)state;
	int dim[3] = {5, 5, 5};
	struct gen_bands b;
	assert_int_equal(gen_bands(dim, &b), GEN_OK);
	struct rng r;
	rng_seed(&r, 42);
	struct gen_puzzle g = {0};
	struct gen_found f;
	assert_int_equal(gen_find(&r, dim, 5, GEN_BAND_HARD, &b, &g, &f), GEN_OK);
	assert_false(f.found);
	assert_int_equal(f.attempts, 5);
	assert_null(g.owner);
	assert_null(g.piece[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_genfind_table_is_the_calibration),
		cmocka_unit_test(test_genfind_bands_at_five),
		cmocka_unit_test(test_genfind_box_bands_ignore_side_order),
		cmocka_unit_test(test_genfind_first_in_band),
		cmocka_unit_test(test_genfind_not_found),
		cmocka_unit_test(test_genfind_nodes_and_confirm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
