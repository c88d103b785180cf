/*
 * find.c: draw candidates until one is unique (and in a difficulty band),
 * and the bands themselves.
 *
 * Bands are percentiles of the same box's random unique puzzles, so they
 * mean the same at every size: a 5 x 5 x 5 puzzle scores several times a
 * 7 x 7 x 7 one (more plates' worth of border to go wrong with at small
 * sizes), so fixed numbers would make "hard" unreachable at one size and
 * common at another. The sample is drawn from a fixed stream, not the
 * user's seed, so the bands of a box never change; at 5 x 5 x 5 they are
 * where the commercial Happy Cube families fall (docs/puzzles.md).
 */
#include <stdlib.h>

#include "gen/gen.h"
#include "gen/gen_int.h"
#include "solver/difficulty.h"
#include "solver/solve.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int gen_calibrate(const int dim[3], int want, struct gen_bands *out)
{
	int d[3] = {dim[0], dim[1], dim[2]};
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2 - i; j++)
			if (d[j] > d[j + 1]) {
				int t = d[j];
				d[j] = d[j + 1];
				d[j + 1] = t;
			}
	double *s = malloc((size_t)(want > 0 ? want : 1) * sizeof *s);
	if (!s)
		return GEN_ENOMEM;
	struct rng r;
	rng_seed(&r, GEN_CALIB_SEED);
	struct gen_puzzle g = {0};
	int n = 0, rc = GEN_OK;
	for (long draws = 0; n < want && draws < 50L * want; draws++) {
		gen_puzzle_clear(&g);
		bool yes = false;
		uint64_t nodes = 0;
		if (gen_draw(&r, d, &g) != GEN_OK ||
		    gen_unique(&g, &yes, &nodes) != SOLVE_OK ||
		    (yes && gen_score(&g, &s[n]) != SOLVE_OK)) {
			rc = GEN_ENOMEM;
			break;
		}
		n += yes;
	}
	gen_puzzle_clear(&g);
	if (rc == GEN_OK)
		gen_bands_of_scores(s, n, out);
	free(s);
	return rc;
}

/* gen_calibrate(side^3, GEN_CALIB_CUBES) for sides 3..8, as printed by
 * `make bands` (tools/bands.c); test_genfind recomputes sides 6..8. */
static const struct gen_bands cube_bands[6] = {
	{.easy_max = 146.5, .hard_min = 211.5, .samples = 10000,
	 .in_band = {0, 9474, 375, 151}}, /* side 3 */
	{.easy_max = 58.208333333333336, .hard_min = 83.875, .samples = 10000,
	 .in_band = {0, 9470, 379, 151}}, /* side 4 */
	{.easy_max = 14.041666666666666, .hard_min = 19.041666666666668, .samples = 10000,
	 .in_band = {0, 9474, 374, 152}}, /* side 5 */
	{.easy_max = 5.25, .hard_min = 7, .samples = 10000,
	 .in_band = {0, 9470, 377, 153}}, /* side 6 */
	{.easy_max = 2.6666666666666665, .hard_min = 3.5416666666666665, .samples = 10000,
	 .in_band = {0, 9487, 354, 159}}, /* side 7 */
	{.easy_max = 1.4583333333333333, .hard_min = 1.9166666666666667, .samples = 10000,
	 .in_band = {0, 9516, 333, 151}}, /* side 8 */
};

/* pro_min and expert_min: the Pro sets' levels scaled by the box's random
 * top (gen.h). */
static void pro_levels(struct gen_bands *b)
{
	double h5 = cube_bands[2].hard_min;
	b->pro_min = GEN_PRO_HARD * b->hard_min / h5;
	b->expert_min = GEN_PRO_EXPERT * b->hard_min / h5;
}

int gen_bands(const int dim[3], struct gen_bands *out)
{
	if (gen_is_cube(dim) && dim[0] >= 3 && dim[0] <= 8) {
		*out = cube_bands[dim[0] - 3];
		pro_levels(out);
		return GEN_OK;
	}
	long shell = 2L * ((long)dim[0] * dim[1] + (long)dim[1] * dim[2] +
	                   (long)dim[0] * dim[2]);
	return gen_calibrate(dim, shell <= 600 ? GEN_CALIB_SAMPLES
	                                      : GEN_CALIB_SAMPLES / 5, out);
}

void gen_bands_of_scores(double *s, int n, struct gen_bands *out)
{
	qsort(s, (size_t)n, sizeof *s, cmp_double);
	struct gen_bands b = {.samples = n};
	if (n > 0) {
		/* ceil(p n) - 1 in integers: p of the scores lie at or below it */
		b.easy_max = s[(947 * (long)n + 999) / 1000 - 1];
		b.hard_min = s[(985 * (long)n + 999) / 1000 - 1];
	}
	for (int i = 0; i < n; i++)
		b.in_band[gen_band_of(&b, s[i])]++;
	pro_levels(&b);
	*out = b;
}

enum gen_band gen_band_of(const struct gen_bands *b, double d)
{
	if (d <= b->easy_max)
		return GEN_BAND_EASY;
	if (d >= b->hard_min)
		return GEN_BAND_HARD;
	return GEN_BAND_MEDIUM;
}

const char *gen_band_name(enum gen_band band)
{
	switch (band) {
	case GEN_BAND_EASY: return "easy";
	case GEN_BAND_MEDIUM: return "medium";
	case GEN_BAND_HARD: return "hard";
	case GEN_BAND_EXPERT: return "expert";
	case GEN_BAND_ANY: break;
	}
	return "any";
}

int gen_find(struct rng *r, const int dim[3], uint64_t max_attempts,
             enum gen_band band, const struct gen_bands *bands,
             struct gen_puzzle *out, struct gen_found *info)
{
	if (band == GEN_BAND_HARD || band == GEN_BAND_EXPERT)
		return gen_climb(r, dim, max_attempts, band == GEN_BAND_HARD ?
		                 bands->pro_min : bands->expert_min, out, info);
	struct gen_puzzle g = {0};
	struct gen_found f = {0};
	int rc = GEN_OK;
	while (f.attempts < max_attempts) {
		gen_puzzle_clear(&g);
		if (gen_draw(r, dim, &g) != GEN_OK) {
			rc = GEN_ENOMEM;
			break;
		}
		f.attempts++;
		bool yes = false;
		if (gen_unique(&g, &yes, &f.nodes) != SOLVE_OK ||
		    (yes && gen_score(&g, &f.difficulty) != SOLVE_OK)) {
			rc = GEN_ENOMEM;
			break;
		}
		if (yes && (band == GEN_BAND_ANY ||
		            gen_band_of(bands, f.difficulty) == band)) {
			f.found = true;
			break;
		}
	}
	if (rc != GEN_OK || !f.found)
		gen_puzzle_clear(&g);
	if (rc == GEN_OK) {
		*info = f;
		if (f.found)
			*out = g;
	}
	return rc;
}

int gen_confirm(const struct gen_puzzle *g, bool *unique_too)
{
	struct puzzle p;
	if (gen_to_puzzle(g, 0, &p) != GEN_OK)
		return SOLVE_ENOMEM;
	struct solve_opts o = {.max_solutions = 2, .generic = true};
	struct solve_result r;
	int rc = solve_puzzle(&p, &o, &r);
	puz_clear(&p);
	if (rc == SOLVE_OK) {
		*unique_too = r.complete && r.solutions == 1;
		solve_result_clear(&r);
	}
	return rc;
}
