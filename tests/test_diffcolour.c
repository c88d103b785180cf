/*
 * test_diffcolour.c: the difficulty of colour puzzles (difficulty.h,
 * DIFF_CELLS with colours, optional cells, count ranges and distinct
 * regions): its covers against tests/colref.c's independent count, the
 * same result however the puzzle is written (goal and regions turned,
 * pieces turned, shuffled and renamed), and the known puzzles' figures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "solver/difficulty.h"
#include "solver/solve.h"
#include "tests/colref.h"
#include "tests/diffref.h"
#include "tests/testload.h"

#define DATA "tests/data/classic/"

static struct diff_result measure(const struct puzzle *p, uint64_t max_nodes)
{
	struct diff_result r;
	memset(&r, 0, sizeof r);
	assert_int_equal(diff_puzzle(p, max_nodes, &r), SOLVE_OK);
	return r;
}

/* The search pins one piece to one placement per orbit of the goal's
 * rotations (at most 24), so its covers lie between the assemblies / 24
 * and the assemblies, and are the assemblies when the goal (colours,
 * optional cells and regions included) has no symmetry but the identity. */
static void test_diffcolour_covers_against_reference(void **state)
{
	(void)state;
	int scored = 0, exact = 0, none = 0;
	for (uint64_t seed = 0; seed < 400; seed++) {
		struct puzzle p;
		int made = colref_random(seed, &p);
		assert_true(made >= 0);
		struct colref_result ref;
		if (colref_count(&p, &ref) != 0) {
			puz_clear(&p);
			continue;
		}
		struct diff_result r = measure(&p, 0);
		assert_true(r.complete);
		if (ref.assemblies == 0) {
			assert_true(r.wins == 0);
			none++;
		} else {
			assert_int_equal(r.method, DIFF_CELLS);
			if (r.wins > ref.assemblies || 24 * r.wins < ref.assemblies)
				fail_msg("seed %llu: %llu covers, %llu assemblies",
				         (unsigned long long)seed, (unsigned long long)r.wins,
				         (unsigned long long)ref.assemblies);
			if (ref.group_order == 1) {
				assert_true(r.wins == ref.assemblies);
				exact++;
			}
			double d;
			assert_true(diff_score(&r, &d));
			scored++;
		}
		puz_clear(&p);
	}
	print_message("%d scored (%d with a goal of no symmetry), %d without an "
	              "assembly\n", scored, exact, none);
	assert_true(scored >= 100 && exact >= 20 && none >= 10);
}

/* Grid 'in' turned by proper rotation r (diffref_rotate) into a new grid
 * whose box is the image's. */
static void turn_grid(const struct grid *in, int r, struct grid *out)
{
	int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, first = 1;
	int corner[3];
	for (int k = 0; k < 8; k++) {
		int c[3] = {k & 1 ? in->nx - 1 : 0, k & 2 ? in->ny - 1 : 0,
		            k & 4 ? in->nz - 1 : 0};
		diffref_rotate(r, c, corner);
		for (int a = 0; a < 3; a++) {
			if (first || corner[a] < lo[a])
				lo[a] = corner[a];
			if (first || corner[a] > hi[a])
				hi[a] = corner[a];
		}
		first = 0;
	}
	assert_int_equal(puz_grid_init(out, hi[0] - lo[0] + 1, hi[1] - lo[1] + 1,
	                               hi[2] - lo[2] + 1), PUZ_OK);
	for (int z = 0; z < in->nz; z++)
		for (int y = 0; y < in->ny; y++)
			for (int x = 0; x < in->nx; x++) {
				int c[3] = {x, y, z}, o[3];
				diffref_rotate(r, c, o);
				out->cells[puz_grid_index(out, o[0] - lo[0], o[1] - lo[1],
				                          o[2] - lo[2])] =
					in->cells[puz_grid_index(in, x, y, z)];
			}
}

/* 'p' rewritten from 'seed': the goal (and its regions) turned, every
 * piece turned, the pieces shuffled and renamed. */
static void re_present(const struct puzzle *p, uint64_t seed, struct puzzle *q)
{
	uint64_t s = seed * 0x9E3779B97F4A7C15u + 1;
#define NEXT(n) ((int)((s = s * 6364136223846793005u + 1442695040888963407u) >> 33) % (n))
	*q = *p;
	int gr = NEXT(24);
	turn_grid(&p->goal, gr, &q->goal);
	q->regions = calloc(p->nregions ? p->nregions : 1, sizeof *q->regions);
	assert_non_null(q->regions);
	for (size_t i = 0; i < p->nregions; i++) {
		q->regions[i] = p->regions[i];
		struct grid in = {p->goal.nx, p->goal.ny, p->goal.nz, p->regions[i].cells}, out;
		turn_grid(&in, gr, &out);
		q->regions[i].cells = out.cells;
	}
	q->pieces = calloc(p->npieces, sizeof *q->pieces);
	assert_non_null(q->pieces);
	size_t *order = malloc(p->npieces * sizeof *order);
	assert_non_null(order);
	for (size_t i = 0; i < p->npieces; i++)
		order[i] = i;
	for (size_t i = p->npieces; i > 1; i--) {
		size_t j = (size_t)NEXT((int)i), t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < p->npieces; i++) {
		q->pieces[i] = p->pieces[order[i]];
		snprintf(q->pieces[i].name, sizeof q->pieces[i].name, "x%zu", i);
		turn_grid(&p->pieces[order[i]].shape, NEXT(24), &q->pieces[i].shape);
	}
	free(order);
#undef NEXT
}

static void test_diffcolour_presentation_invariance(void **state)
{
	(void)state;
	int compared = 0;
	for (uint64_t seed = 0; seed < 200; seed++) {
		struct puzzle p;
		assert_true(colref_random(seed, &p) >= 0);
		struct diff_result want = measure(&p, 0);
		for (uint64_t k = 0; k < 4; k++) {
			struct puzzle q;
			re_present(&p, seed * 10 + k, &q);
			struct diff_result got = measure(&q, 0);
			if (got.method != want.method || got.dead != want.dead ||
			    got.wins != want.wins || got.nodes != want.nodes ||
			    got.complete != want.complete)
				fail_msg("seed %llu, presentation %llu: dead %llu wins %llu "
				         "nodes %llu, as written dead %llu wins %llu nodes %llu",
				         (unsigned long long)seed, (unsigned long long)k,
				         (unsigned long long)got.dead, (unsigned long long)got.wins,
				         (unsigned long long)got.nodes, (unsigned long long)want.dead,
				         (unsigned long long)want.wins, (unsigned long long)want.nodes);
			puz_clear(&q);
			compared++;
		}
		puz_clear(&p);
	}
	assert_int_equal(compared, 800);
}

/* A distinct region that breaks the goal's symmetry: the square goal has
 * 8 rotations, the region none, so which of the region's 8 images a file
 * draws must not matter. */
static void test_diffcolour_region_on_symmetric_goal(void **state)
{
	(void)state;
	static const char text[] =
		"puzzle v1\n"
		"goal 4 4 1\n####\n####\n####\n####\n"
		"piece A 4 1 1\nabca\npiece B 4 1 1\ncbab\n"
		"piece C 2 2 1\nab\nca\npiece D 2 2 1\nbc\nad\n"
		"region R\n##..\n#...\n....\n...#\n"
		"distinct R\n";
	struct puzzle p;
	struct puz_error err;
	assert_int_equal(puz_read_mem(text, sizeof text - 1, &p, &err), PUZ_OK);
	struct diff_result want = measure(&p, 0);
	assert_true(want.complete && want.wins > 0);
	for (uint64_t k = 0; k < 48; k++) {
		struct puzzle q;
		re_present(&p, k, &q);
		struct diff_result got = measure(&q, 0);
		if (got.dead != want.dead || got.wins != want.wins ||
		    got.nodes != want.nodes)
			fail_msg("presentation %llu: dead %llu wins %llu nodes %llu, as "
			         "written dead %llu wins %llu nodes %llu",
			         (unsigned long long)k, (unsigned long long)got.dead,
			         (unsigned long long)got.wins, (unsigned long long)got.nodes,
			         (unsigned long long)want.dead, (unsigned long long)want.wins,
			         (unsigned long long)want.nodes);
		puz_clear(&q);
	}
	puz_clear(&p);
}

/* Two coloured dominoes in a plain 2 x 2 square: 16 assemblies, and the
 * square's 8 rotations move "ab" through 8 distinct placements (the same
 * cells in the other colour order are another placement), so pinning it
 * to one per orbit leaves 16 / 8 = 2 covers. */
static void test_diffcolour_pin_tells_colourings_apart(void **state)
{
	(void)state;
	static const char text[] =
		"puzzle v1\ngoal 2 2 1\n##\n##\n"
		"piece P 2 1 1\nab\npiece Q 2 1 1\ncd\n";
	struct puzzle p;
	struct puz_error err;
	assert_int_equal(puz_read_mem(text, sizeof text - 1, &p, &err), PUZ_OK);
	struct colref_result ref;
	assert_int_equal(colref_count(&p, &ref), 0);
	assert_true(ref.assemblies == 16);
	struct diff_result r = measure(&p, 0);
	assert_true(r.complete);
	assert_true(r.wins == 2);
	assert_true(r.dead == 0);
	puz_clear(&p);
}

/* colour-mix.puz: every colour feature but faces; its goal has no
 * symmetry, so every one of its 74893 assemblies is a cover. */
static void test_diffcolour_known(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "colour-mix.puz", &p);
	struct diff_result r = measure(&p, 0);
	assert_int_equal(r.method, DIFF_CELLS);
	assert_true(r.complete);
	assert_true(r.wins == 74893);
	assert_true(r.dead == 1102);
	struct diff_result b = measure(&p, 1000);
	assert_false(b.complete);
	double d;
	assert_false(diff_score(&b, &d));
	puz_clear(&p);
}

/* A design's dead ends and covers as dancing links' phased search found
 * them before the wide board took its kind of puzzle. */
struct design {
	const char *file; /* a BurrTools file, else a .puz */
	uint64_t dead, wins;
};

static void expect_designs(const struct design *known, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		struct puzzle p;
		size_t len = strlen(known[k].file);
		if (len > 9 && strcmp(known[k].file + len - 9, ".xmpuzzle") == 0) {
			struct xmp_info xi;
			struct puz_error e;
			assert_int_equal(xmp_read_file(known[k].file, 0, &p, &xi, &e),
			                 PUZ_OK);
		} else {
			test_load_puzzle(known[k].file, &p);
		}
		struct diff_result r = measure(&p, 0);
		if (!r.complete || r.dead != known[k].dead ||
		    r.wins != known[k].wins)
			fail_msg("%s: %llu dead ends / %llu covers, want %llu / %llu",
			         known[k].file, (unsigned long long)r.dead,
			         (unsigned long long)r.wins,
			         (unsigned long long)known[k].dead,
			         (unsigned long long)known[k].wins);
		puz_clear(&p);
	}
}

/* Designs with optional cells (BurrTools' variable cells), measured on
 * the wide bitboard with fillers: the phased search measured these until
 * 2026-11, from 84 to 408 cells. */
static void test_diffcolour_optional_designs(void **state)
{
	(void)state;
	static const struct design known[] = {
		{"examples/CubeInCage.xmpuzzle", 124, 96},
		{"examples/PelikanBurr.xmpuzzle", 3, 12},
		{"tests/data/burr/eyckmans.gargamel.xmpuzzle", 3526, 7680},
		{"tests/data/burr/eyckmans.rhinoceros.xmpuzzle", 3085, 72},
		{"tests/data/burr/greyhound-eyckmans.xmpuzzle", 123, 267},
		{"tests/data/burr/frames-burr-data.xmpuzzle", 235, 502},
		{"tests/data/burr/lohe.misused-key.xmpuzzle", 5, 66},
	};
	expect_designs(known, sizeof known / sizeof known[0]);
}

/* Ranges of copies with every cell required, measured on the wide board
 * with each type's least (bbw_set_least): the phased search measured
 * these until 2026-12-03. */
static void test_diffcolour_range_designs(void **state)
{
	(void)state;
	static const struct design known[] = {
		{"tests/data/burr/SolidSixPieceBurrs.xmpuzzle", 564481, 12597},
		{"tests/data/puz/ranges-3x3x2.puz", 100697, 11488},
	};
	expect_designs(known, sizeof known / sizeof known[0]);
}

/* Given the assemblies, a search sure to pass its budget is not started:
 * the nine-colour cube (no piece comes once, so every one of its
 * 14,515,200 assemblies would be a cover) at once; colour-mix (no
 * symmetry) with a budget under its 74893 assemblies. Otherwise the same
 * as diff_puzzle(). */
static void test_diffcolour_known_assemblies(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle("examples/ninecolour.puz", &p);
	struct diff_result r;
	assert_int_equal(diff_puzzle_known(&p, 5000000, 14515200, 0, &r), SOLVE_OK);
	assert_int_equal(r.method, DIFF_CELLS);
	assert_false(r.complete);
	assert_true(r.nodes == 0 && r.wins == 0 && r.dead == 0);
	puz_clear(&p);
	test_load_puzzle(DATA "colour-mix.puz", &p);
	assert_int_equal(diff_puzzle_known(&p, 74892, 74893, 0, &r), SOLVE_OK);
	assert_false(r.complete);
	assert_true(r.nodes == 0);
	struct diff_result want = measure(&p, 0);
	assert_int_equal(diff_puzzle_known(&p, 0, 74893, 0, &r), SOLVE_OK);
	assert_true(r.complete && r.dead == want.dead && r.wins == want.wins &&
	            r.nodes == want.nodes);
	assert_int_equal(diff_puzzle_known(&p, want.nodes, 74893, 0, &r), SOLVE_OK);
	assert_true(r.complete && r.dead == want.dead && r.wins == want.wins);
	/* a count of more than twice the budget: not started either */
	assert_int_equal(diff_puzzle_known(&p, want.nodes, 0, 2 * want.nodes + 2, &r),
	                 SOLVE_OK);
	assert_false(r.complete);
	assert_true(r.nodes == 0);
	assert_int_equal(diff_puzzle_known(&p, want.nodes, 0, 2 * want.nodes + 1, &r),
	                 SOLVE_OK);
	assert_true(r.complete && r.wins == want.wins);
	puz_clear(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diffcolour_covers_against_reference),
		cmocka_unit_test(test_diffcolour_optional_designs),
		cmocka_unit_test(test_diffcolour_range_designs),
		cmocka_unit_test(test_diffcolour_presentation_invariance),
		cmocka_unit_test(test_diffcolour_region_on_symmetric_goal),
		cmocka_unit_test(test_diffcolour_pin_tells_colourings_apart),
		cmocka_unit_test(test_diffcolour_known),
		cmocka_unit_test(test_diffcolour_known_assemblies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
