/*
 * testrand.h: the small seeded generator the unit tests draw their random
 * cases from (splitmix64: every seed gives the same cases on every run).
 */
#ifndef CUBEGEN_TESTS_TESTRAND_H
#define CUBEGEN_TESTS_TESTRAND_H

#include <stdint.h>

static inline uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

/* A number in [0, n), n >= 1. */
static inline int rnd(uint64_t *s, int n)
{
	return (int)(splitmix(s) % (uint64_t)n);
}

#endif
