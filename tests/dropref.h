/*
 * dropref.h: rows left out below root rows (bb_drop_below and
 * bbw_drop_below) as test_bb.c and test_bbw.c draw them, and the rule
 * that says which covers the engines must still find.
 */
#ifndef CUBEGEN_TESTS_DROPREF_H
#define CUBEGEN_TESTS_DROPREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Below two in three of the rows of type 'first' (of 'nrows' rows typed
 * 'type'), a random third of the other rows: out[r * nrows + q] is set
 * when q is left out below r, and drop(ctx, r, rows, n) is called with
 * them ('buf' has room for nrows). 'draw(rng, n)' is a number below n. */
static inline void dropref_draw(size_t nrows, const size_t *type, size_t first,
                                size_t (*draw)(uint64_t *, size_t),
                                uint64_t *rng, bool *out, size_t *buf,
                                void (*drop)(void *, size_t, const size_t *,
                                             size_t),
                                void *ctx)
{
	memset(out, 0, nrows * nrows * sizeof *out);
	for (size_t r = 0; r < nrows; r++) {
		if (type[r] != first || draw(rng, 3) == 0)
			continue;
		size_t n = 0;
		for (size_t q = 0; q < nrows; q++)
			if (q != r && draw(rng, 3) == 0) {
				buf[n++] = q;
				out[r * nrows + q] = true;
			}
		drop(ctx, r, buf, n);
	}
}

/* Whether a cover (its 'len' rows ascending) stays: none of its rows is
 * left out below its root, its first row of type 'first' (the one the
 * root places). */
static inline bool dropref_keeps(const uint32_t *rows, size_t len,
                                 const size_t *type, size_t first,
                                 const bool *out, size_t nrows)
{
	size_t root = SIZE_MAX;
	for (size_t j = 0; j < len && root == SIZE_MAX; j++)
		if (type[rows[j]] == first)
			root = rows[j];
	if (root == SIZE_MAX)
		return true;
	for (size_t j = 0; j < len; j++)
		if (out[root * nrows + rows[j]])
			return false;
	return true;
}

#endif
