/*
 * blkband.c: how hard block puzzles are (blocks.h): each found puzzle's
 * score (solver/difficulty.h), the bands of a goal and its ranges, and
 * the search for a puzzle in a band.
 */
#include <stdlib.h>

#include "gen/blocks.h"
#include "gen/gen.h"
#include "solver/difficulty.h"
#include "solver/solve.h"

int blk_score(const struct blk_puzzle *b, double *score)
{
	struct diff_result d;
	if (diff_puzzle(&b->puz, 0, &d) != SOLVE_OK)
		return GEN_ENOMEM;
	if (!diff_score(&d, score))
		*score = 0; /* no cover: cannot happen for a unique puzzle */
	return GEN_OK;
}

/* The figures of the searches before this one, and the caller's
 * progress function, to which blk_find_band() reports their sums. */
struct band_progress {
	const struct blk_found *before;
	const struct blk_spec *s;
};

static void add_found(struct blk_found *sum, const struct blk_found *f)
{
	sum->attempts += f->attempts;
	sum->solver_calls += f->solver_calls;
	sum->cut_short += f->cut_short;
	sum->scouts_open += f->scouts_open;
	sum->repeats += f->repeats;
	sum->nodes += f->nodes;
	sum->tries += f->tries;
	/* the exhaustive route: every search of the goal takes it or none */
	sum->exhaustive = f->exhaustive;
	sum->drawn = f->drawn;
	sum->grown = f->grown;
	sum->sets = f->sets;
	sum->sets_open += f->sets_open;
}

static void band_progress(void *ctx, const struct blk_found *f)
{
	const struct band_progress *b = ctx;
	struct blk_found sum = *b->before;
	add_found(&sum, f);
	b->s->progress(b->s->progress_ctx, &sum);
}

int blk_find_band(struct rng *r, const struct grid *goal,
                  const struct blk_spec *s, enum gen_band band,
                  const struct gen_bands *bands, struct blk_puzzle *out,
                  struct blk_found *info, double *score)
{
	struct blk_found sum = {0};
	struct blk_spec t = *s;
	struct band_progress bp = {&sum, s};
	if (s->progress) {
		t.progress = band_progress;
		t.progress_ctx = &bp;
	}
	while (sum.attempts < s->max_attempts) {
		t.max_attempts = s->max_attempts - sum.attempts;
		struct blk_puzzle b;
		struct blk_found f;
		if (blk_find(r, goal, &t, &b, &f) != GEN_OK)
			return GEN_ENOMEM;
		add_found(&sum, &f);
		if (!f.found)
			break;
		double d;
		if (blk_score(&b, &d) != GEN_OK) {
			blk_puzzle_clear(&b);
			return GEN_ENOMEM;
		}
		if (band == GEN_BAND_ANY || gen_band_of(bands, d) == band) {
			sum.found = true;
			*out = b;
			*score = d;
			break;
		}
		blk_puzzle_clear(&b);
	}
	*info = sum;
	return GEN_OK;
}

int blk_bands(const struct grid *goal, const struct blk_spec *s, int want,
              struct gen_bands *out)
{
	double *v = malloc((size_t)(want > 0 ? want : 1) * sizeof *v);
	if (!v)
		return GEN_ENOMEM;
	struct rng r;
	rng_seed(&r, GEN_CALIB_SEED);
	/* (the caller's progress is its search's, not these) */
	struct blk_spec t = *s;
	t.progress = NULL;
	int n = 0, rc = GEN_OK;
	for (int tries = 0; n < want && tries < 2 * want; tries++) {
		struct blk_puzzle b;
		struct blk_found f;
		if (blk_find(&r, goal, &t, &b, &f) != GEN_OK) {
			rc = GEN_ENOMEM;
			break;
		}
		/* the exhaustive route proved there is none: so will the rest */
		if (!f.found && f.exhaustive && !f.sets_open)
			break;
		if (!f.found)
			continue;
		rc = blk_score(&b, &v[n]);
		blk_puzzle_clear(&b);
		if (rc != GEN_OK)
			break;
		n++;
	}
	if (rc == GEN_OK)
		gen_bands_of_scores(v, n, out);
	free(v);
	return rc;
}
