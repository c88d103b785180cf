/*
 * rng.c: SplitMix64, xoshiro256** and unbiased bounded integers.
 *
 * The algorithms and their exact constants are the contract in rng.h; this
 * file only transcribes them. The 128-bit product is the compiler's
 * unsigned __int128 where it has one, else built from 32-bit halves
 * (plain ISO C); both give the same bits (test_rng).
 */
#include "gen/rng.h"

#include <assert.h>

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t rng_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t sm = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&sm);
}

uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

/* The full 128-bit product a * b as *hi:*lo: by the compiler's 128-bit
 * integers where it has them (one instruction), else by schoolbook
 * 32-bit halves; the same bits. */
static inline void mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
#ifdef __SIZEOF_INT128__
	__extension__ typedef unsigned __int128 u128;
	u128 p = (u128)a * b;
	*lo = (uint64_t)p;
	*hi = (uint64_t)(p >> 64);
#else
	uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	/* Middle column: cannot overflow, each term is < 2^32. */
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);

	*lo = (mid << 32) | (p00 & 0xffffffffu);
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

uint64_t rng_below(struct rng *r, uint64_t n)
{
	uint64_t hi, lo;

	assert(n >= 1);
	mul128(rng_next(r), n, &hi, &lo);
	if (lo < n) {
		/* 2^64 mod n: the number of x values that would make the
		 * low results over-represented; reject exactly those. */
		uint64_t t = (0 - n) % n;

		while (lo < t)
			mul128(rng_next(r), n, &hi, &lo);
	}
	return hi;
}
