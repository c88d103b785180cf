/*
 * test_genclimb.c: the search for hard and expert plate puzzles
 * (gen/climb.c): the levels against the commercial sets, every puzzle it
 * returns unique (proved again by the general search), in its band and
 * free of flat sides, the same puzzle for the same seed, the stream order
 * of gen.h (the start draws), and that it beats random sampling on the
 * same budget.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "gen/gen.h"
#include "solver/difficulty.h"
#include "solver/solve.h"

#ifndef DATA
#define DATA "tests/data/classic/"
#endif

static double score_of(const struct gen_puzzle *g)
{
	struct diff_result r;
	double d;
	assert_int_equal(gen_difficulty(g, &r), SOLVE_OK);
	assert_true(diff_score(&r, &d));
	return d;
}

static double file_score(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, DATA "happycube/%s.puz", name);
	struct puzzle p;
	struct puz_error err;
	assert_int_equal(puz_read_file(path, &p, &err), PUZ_OK);
	struct diff_result r;
	double d;
	assert_int_equal(diff_puzzle(&p, 0, &r), SOLVE_OK);
	assert_true(diff_score(&r, &d));
	puz_clear(&p);
	return d;
}

/* At 5 x 5 x 5: the Originals and Little Genius are easy, Confucius (the
 * easiest Pro set) above the random top but below hard, Da Vinci exactly
 * at expert's floor (expert is "at least as hard as Da Vinci"). */
static void test_genclimb_levels_against_the_sets(void **state)
{
	(void)state;
	int dim[3] = {5, 5, 5};
	struct gen_bands b;
	assert_int_equal(gen_bands(dim, &b), GEN_OK);
	assert_true(b.pro_min == 51.0);
	assert_true(file_score("e6166c21") == b.expert_min); /* Da Vinci */
	double confucius = file_score("1324cd79");
	assert_true(confucius > b.hard_min && confucius < b.pro_min);
	assert_true(file_score("f739452a") <= b.easy_max); /* Little Genius */
	assert_true(file_score("82af7031") <= b.easy_max); /* Amsterdam */
	assert_true(file_score("936cda1c") <= b.easy_max); /* Brussels */
	/* every size: the levels keep their order */
	for (int side = 3; side <= 8; side++) {
		int d[3] = {side, side, side};
		assert_int_equal(gen_bands(d, &b), GEN_OK);
		assert_true(b.easy_max < b.hard_min && b.hard_min < b.pro_min &&
		            b.pro_min < b.expert_min);
	}
}

/* A run of GEN_CLIMB_FLAT or more edge cells with one owner. */
static bool has_flat_side(const struct gen_puzzle *g)
{
	const int *d = g->dim;
	for (int a = 0; a < 3; a++) {
		int b = (a + 1) % 3, c = (a + 2) % 3;
		if (d[a] - 2 < GEN_CLIMB_FLAT)
			continue;
		for (int i = 0; i < 4; i++) {
			int p[3];
			p[b] = i & 1 ? d[b] - 1 : 0;
			p[c] = i & 2 ? d[c] - 1 : 0;
			int first = -1, same = 1;
			for (p[a] = 1; p[a] < d[a] - 1; p[a]++) {
				int o = g->owner[p[0] + d[0] * (p[1] + d[1] * p[2])];
				if (first < 0)
					first = o;
				same &= o == first;
			}
			if (same)
				return true;
		}
	}
	return false;
}

static bool same_puzzle(const struct gen_puzzle *g, const struct gen_puzzle *h)
{
	size_t cells = (size_t)g->dim[0] * g->dim[1] * g->dim[2];
	if (memcmp(g->owner, h->owner, cells) != 0)
		return false;
	for (int i = 0; i < 6; i++)
		if (g->face[i] != h->face[i] || g->orient[i] != h->orient[i] ||
		    g->pw[i] != h->pw[i] ||
		    memcmp(g->piece[i], h->piece[i], (size_t)(g->pw[i] * g->ph[i])))
			return false;
	return true;
}

/* Hard and expert at several sizes: found, unique for both searches, in
 * the band, no flat side, and the same again from the same seed. */
static void test_genclimb_finds_unique_puzzles_in_band(void **state)
{
	(void)state;
	int sizes[][3] = {{5, 5, 5}, {4, 4, 4}, {6, 6, 6}, {8, 8, 8}, {4, 4, 7}};
	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		struct gen_bands b;
		assert_int_equal(gen_bands(sizes[s], &b), GEN_OK);
		for (int band = GEN_BAND_HARD; band <= GEN_BAND_EXPERT; band++)
			for (uint64_t seed = 1; seed <= 3; seed++) {
				struct rng r, w;
				rng_seed(&r, seed);
				rng_seed(&w, seed);
				struct gen_puzzle g = {0}, h = {0};
				struct gen_found f, f2;
				assert_int_equal(gen_find(&r, sizes[s], GEN_CLIMB_ATTEMPTS,
				                          (enum gen_band)band, &b, &g, &f),
				                 GEN_OK);
				assert_true(f.found);
				double d = score_of(&g);
				assert_true(d == f.difficulty);
				assert_true(d >= (band == GEN_BAND_HARD ? b.pro_min
				                                          : b.expert_min));
				bool unique = false;
				assert_int_equal(gen_confirm(&g, &unique), SOLVE_OK);
				assert_true(unique);
				assert_false(has_flat_side(&g));
				assert_int_equal(gen_find(&w, sizes[s], GEN_CLIMB_ATTEMPTS,
				                          (enum gen_band)band, &b, &h, &f2),
				                 GEN_OK);
				assert_true(f2.attempts == f.attempts && f2.nodes == f.nodes);
				assert_true(same_puzzle(&g, &h));
				assert_memory_equal(r.s, w.s, sizeof r.s);
				gen_puzzle_clear(&g);
				gen_puzzle_clear(&h);
			}
	}
}

/* The first attempt is gen.h's start draw: gen_draw()'s owner grid with
 * each flat run broken by flipping cell rng_below(length). A target of 0
 * ends the search at the first unique start; its pieces are scrambled
 * from the stream after it (rules 4 and 5). */
static void test_genclimb_first_start(void **state)
{
	(void)state;
	int dim[3] = {5, 5, 5}, compared = 0;
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct rng r, w;
		rng_seed(&r, seed);
		rng_seed(&w, seed);
		struct gen_puzzle g = {0}, h = {0};
		struct gen_found f;
		assert_int_equal(gen_climb(&r, dim, 1, 0, &g, &f), GEN_OK);
		assert_int_equal(f.attempts, 1);
		assert_int_equal(gen_draw(&w, dim, &h), GEN_OK);
		unsigned char *o = h.owner;
		/* the 12 runs in the order of their first cell, x fastest */
		int runs[12][3][3], nrun = 0;
		for (int z = 0; z < 5; z++)
			for (int y = 0; y < 5; y++)
				for (int x = 0; x < 5; x++) {
					int c[3] = {x, y, z}, k = 0, axis = -1;
					for (int a = 0; a < 3; a++) {
						if (c[a] == 0 || c[a] == 4)
							k++;
						else
							axis = a;
					}
					if (k != 2 || c[axis] != 1)
						continue;
					for (int i = 0; i < 3; i++) {
						memcpy(runs[nrun][i], c, sizeof c);
						runs[nrun][i][axis] = 1 + i;
					}
					nrun++;
				}
		assert_int_equal(nrun, 12);
		for (int q = 0; q < 12; q++) {
			int at[3];
			for (int i = 0; i < 3; i++)
				at[i] = runs[q][i][0] + 5 * (runs[q][i][1] + 5 * runs[q][i][2]);
			if (o[at[0]] != o[at[1]] || o[at[1]] != o[at[2]])
				continue;
			int pick = at[rng_below(&w, 3)];
			/* the other face of that edge cell */
			int x = pick % 5, y = pick / 5 % 5, z = pick / 25, c[3] = {x, y, z};
			for (int a = 0; a < 3; a++)
				if ((c[a] == 0 || c[a] == 4) && 2 * a + (c[a] != 0) != o[pick]) {
					o[pick] = (unsigned char)(2 * a + (c[a] != 0));
					break;
				}
		}
		/* no corner of these draws needs repairing when its neighbours
		 * still include its owner; when one does, skip the seed */
		bool repaired = false;
		for (int c = 0; c < 8; c++) {
			int x = c & 1 ? 4 : 0, y = c & 2 ? 4 : 0, z = c & 4 ? 4 : 0;
			int n[3] = {(x ? 3 : 1) + 5 * (y + 5 * z), x + 5 * ((y ? 3 : 1) + 5 * z),
			            x + 5 * (y + 5 * (z ? 3 : 1))};
			int own = o[x + 5 * (y + 5 * z)];
			repaired |= o[n[0]] != own && o[n[1]] != own && o[n[2]] != own;
		}
		if (f.found && !repaired) {
			assert_memory_equal(g.owner, o, 125);
			struct gen_puzzle k = {0};
			assert_int_equal(gen_from_owner(&w, dim, o, &k), GEN_OK);
			assert_true(same_puzzle(&g, &k));
			gen_puzzle_clear(&k);
			compared++;
		}
		gen_puzzle_clear(&g);
		gen_puzzle_clear(&h);
	}
	assert_true(compared >= 5);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The same budget of candidates (300), 11 seeds: the median best of the
 * climb is far above the median best of random draws. */
static void test_genclimb_beats_random(void **state)
{
	(void)state;
	int dim[3] = {5, 5, 5};
	double climb[11], random[11];
	for (uint64_t seed = 0; seed < 11; seed++) {
		struct rng r;
		rng_seed(&r, seed);
		struct gen_puzzle g = {0};
		struct gen_found f;
		assert_int_equal(gen_climb(&r, dim, 300, 1e9, &g, &f), GEN_OK);
		assert_false(f.found);
		assert_int_equal(f.attempts, 300);
		climb[seed] = f.difficulty;
		rng_seed(&r, seed);
		random[seed] = -1;
		for (int k = 0; k < 300; k++) {
			struct gen_puzzle h;
			assert_int_equal(gen_draw(&r, dim, &h), GEN_OK);
			struct solve_opts o = {.max_solutions = 2};
			struct solve_result res;
			assert_int_equal(gen_count(&h, &o, &res), SOLVE_OK);
			if (res.complete && res.solutions == 1) {
				double d = score_of(&h);
				random[seed] = d > random[seed] ? d : random[seed];
			}
			solve_result_clear(&res);
			gen_puzzle_clear(&h);
		}
	}
	qsort(climb, 11, sizeof *climb, cmp_double);
	qsort(random, 11, sizeof *random, cmp_double);
	print_message("median best of 300 candidates: climb %.2f, random %.2f\n",
	              climb[5], random[5]);
	assert_true(climb[5] > 2 * random[5]);
}

/* Not found: '*out' untouched, every attempt used, the best score seen
 * reported; at 3 x 3 x 3 hard is out of reach (docs/puzzles.md). */
static void test_genclimb_not_found(void **state)
{
	(void)state;
	int dim[3] = {3, 3, 3};
	struct gen_bands b;
	assert_int_equal(gen_bands(dim, &b), GEN_OK);
	struct rng r;
	rng_seed(&r, 7);
	struct gen_puzzle g = {0};
	struct gen_found f;
	assert_int_equal(gen_find(&r, dim, 500, GEN_BAND_HARD, &b, &g, &f), GEN_OK);
	assert_false(f.found);
	assert_int_equal(f.attempts, 500);
	assert_true(f.difficulty > b.hard_min && f.difficulty < b.pro_min);
	assert_null(g.owner);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_genclimb_levels_against_the_sets),
		cmocka_unit_test(test_genclimb_finds_unique_puzzles_in_band),
		cmocka_unit_test(test_genclimb_first_start),
		cmocka_unit_test(test_genclimb_beats_random),
		cmocka_unit_test(test_genclimb_not_found),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
