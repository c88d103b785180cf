/*
 * rng.h: the seeded random source of cubegen.
 *
 * This stream is a user-visible contract (DESIGN.md §1): the same seed gives
 * the same numbers, and so the same puzzle, on every machine and in every
 * future version. Everything below is specified exactly enough to
 * reimplement it elsewhere. All arithmetic is on unsigned 64-bit integers,
 * modulo 2^64; rotl(x, k) = (x << k) | (x >> (64 - k)).
 *
 * SplitMix64 (Steele, Lea, Flood 2014; Vigna's splitmix64.c), one step on a
 * 64-bit state s:
 *     s = s + 0x9e3779b97f4a7c15
 *     z = s
 *     z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
 *     z = (z ^ (z >> 27)) * 0x94d049bb133111eb
 *     output z ^ (z >> 31)
 * From s = 0 the outputs are 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4,
 * 0x06c45d188009454f, 0xf88bb8a8724c81ec.
 *
 * Seeding: the SplitMix64 state starts at 'seed'; s[0], s[1], s[2], s[3]
 * are its first four outputs, in that order. The four outputs come from four
 * distinct SplitMix64 states through a bijection, so they are never all
 * zero (the one state xoshiro must avoid).
 *
 * xoshiro256** (Blackman & Vigna 2018, xoshiro256starstar.c), one step:
 *     result = rotl(s[1] * 5, 7) * 9
 *     t = s[1] << 17
 *     s[2] ^= s[0];  s[3] ^= s[1];  s[1] ^= s[2];  s[0] ^= s[3]
 *     s[2] ^= t;     s[3] = rotl(s[3], 45)
 *     output result
 * From s = {1, 2, 3, 4} the outputs are 11520, 0, 1509978240,
 * 1215971899390074240, ...; after rng_seed(42) they are
 * 1546998764402558742, 6990951692964543102, 12544586762248559009, ...
 *
 * Bounded integers, rng_below(n), n >= 1: Lemire's multiply-shift with
 * rejection ("Fast random integer generation in an interval", 2019). Let
 * mul(x, n) be the full 128-bit product, hi/lo its upper/lower 64 bits:
 *     x = next; m = mul(x, n)
 *     if lo(m) < n:
 *         t = (2^64 - n) mod n          (that is, 2^64 mod n)
 *         while lo(m) < t: x = next; m = mul(x, n)
 *     output hi(m)
 * Every call consumes at least one output, rng_below(1) exactly one (and
 * returns 0). The result is exactly uniform: of the 2^64 values of x, each
 * result keeps floor(2^64 / n) of them.
 *
 * Ownership: struct rng is plain caller-owned data; copy it to fork a
 * stream. Nothing here allocates, fails or keeps global state.
 */
#ifndef CUBEGEN_RNG_H
#define CUBEGEN_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4]; /* xoshiro256** state, never all zero */
};

/* Seed 'r': its state becomes 4 successive SplitMix64 outputs from 'seed'. */
void rng_seed(struct rng *r, uint64_t seed);

/* The next xoshiro256** output; advances 'r'. */
uint64_t rng_next(struct rng *r);

/* A uniform integer in [0, n), n >= 1 (asserted), by Lemire's
 * multiply-shift with rejection as described above. */
uint64_t rng_below(struct rng *r, uint64_t n);

/* One SplitMix64 step: advances '*state' and returns the output. */
uint64_t rng_splitmix64(uint64_t *state);

#endif
