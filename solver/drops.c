/*
 * drops.c: rows left out below a root row (drops.h).
 */
#include "solver/drops.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver/xc.h"

static size_t find_root(const struct drops *d, size_t root)
{
	size_t k = 0;
	while (k < d->n && d->root[k] != root)
		k++;
	return k;
}

int drops_add(struct drops *d, size_t nrows, size_t root, const size_t *rows,
              size_t n)
{
	assert(root < nrows && nrows <= UINT32_MAX);
	size_t k = find_root(d, root);
	size_t words = (nrows + 63) / 64;
	if (words < d->words)
		words = d->words;
	if (k == d->n || words != d->words) {
		/* room for one more root, or for more rows: a new table */
		size_t nroots = d->n + (k == d->n);
		uint64_t *bits = calloc(nroots * words, sizeof *bits);
		uint32_t *rt = malloc(nroots * sizeof *rt);
		if (!bits || !rt) {
			free(bits);
			free(rt);
			return XC_ENOMEM;
		}
		for (size_t j = 0; j < d->n; j++) {
			rt[j] = d->root[j];
			memcpy(bits + j * words, d->bits + j * d->words,
			       d->words * sizeof *bits);
		}
		if (k == d->n)
			rt[k] = (uint32_t)root;
		free(d->bits);
		free(d->root);
		d->bits = bits;
		d->root = rt;
		d->n = nroots;
		d->words = words;
	}
	uint64_t *b = d->bits + k * d->words;
	for (size_t i = 0; i < n; i++) {
		assert(rows[i] < nrows);
		b[rows[i] / 64] |= (uint64_t)1 << (rows[i] % 64);
	}
	return XC_OK;
}

const uint64_t *drops_of(const struct drops *d, size_t root)
{
	size_t k = find_root(d, root);
	return k < d->n ? d->bits + k * d->words : NULL;
}

int drops_copy(struct drops *dst, const struct drops *src)
{
	*dst = (struct drops){0};
	if (!src->n)
		return XC_OK;
	dst->root = malloc(src->n * sizeof *dst->root);
	dst->bits = malloc(src->n * src->words * sizeof *dst->bits);
	if (!dst->root || !dst->bits) {
		drops_clear(dst);
		return XC_ENOMEM;
	}
	memcpy(dst->root, src->root, src->n * sizeof *dst->root);
	memcpy(dst->bits, src->bits, src->n * src->words * sizeof *dst->bits);
	dst->n = src->n;
	dst->words = src->words;
	return XC_OK;
}

void drops_clear(struct drops *d)
{
	free(d->root);
	free(d->bits);
	*d = (struct drops){0};
}
