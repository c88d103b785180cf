/*
 * drops.h: rows left out below a root row, for the bitboards'
 * bb_drop_below() and bbw_drop_below(). Private to solver/.
 *
 * A table holds, per root row, the set of rows (by number, as added) that
 * take no part in the subtree below it: a bit per row. There are few
 * roots (solve.c sets them only below pinned rows that some symmetry
 * fixes), so a root is found by a scan.
 */
#ifndef CUBEGEN_DROPS_H
#define CUBEGEN_DROPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct drops {
	size_t n;       /* roots */
	size_t words;   /* per root: words of bits over the rows */
	uint32_t *root; /* their row numbers */
	uint64_t *bits; /* root k's rows left out: bits[k * words ..] */
};

/* Leave rows[0..n) (numbers below 'nrows', the rows added so far) out
 * below row 'root', adding to what is left out there already. XC_OK, or
 * XC_ENOMEM with the table as it was. */
int drops_add(struct drops *d, size_t nrows, size_t root, const size_t *rows,
              size_t n);
/* The bits of the rows left out below 'root'; NULL when none are. */
const uint64_t *drops_of(const struct drops *d, size_t root);
/* Whether row 'id' is among 'bits' (from drops_of). */
static inline bool drops_has(const uint64_t *bits, size_t id)
{
	return bits[id / 64] >> (id % 64) & 1;
}
/* '*dst' a copy of 'src' (dst's own memory); XC_OK or XC_ENOMEM (then
 * '*dst' is empty). */
int drops_copy(struct drops *dst, const struct drops *src);
/* Free the table's memory; it is empty again. */
void drops_clear(struct drops *d);

#endif
