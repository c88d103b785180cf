/*
 * bbvec.c: bb.c's list kernels on AVX-512 (see bbvec.h).
 *
 * Workload: lists of a few dozen to a few thousand rows, scanned millions
 * of times (Bedlam: 32 million placements, 12 million lists filtered). A
 * block of eight rows is one 512-bit load; a mask register says which of
 * them go on, and VPCOMPRESSQ packs those to the front of a register,
 * stored whole at the output's end: the filter needs no branch per row,
 * which is where the portable loop spends its time (about 1.8 ns a row on
 * Bedlam against 0.6 here). Block tails are masked loads, so nothing past
 * an input's end is read.
 *
 * The functions carry a target attribute instead of the file a compiler
 * flag: the rest of the program stays plain x86-64 and runs anywhere, and
 * bb.c calls these only when bbvec_avx512_usable(). Other compilers and
 * CPUs get stubs that are never called. A CPU with AVX2 but not AVX-512
 * runs bbvec2.c's kernels, four rows at a time, the same lists again.
 */
#include "solver/bbvec.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

#define BBVEC __attribute__((target("avx512f,avx512vl,popcnt")))

bool bbvec_avx512_usable(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("popcnt");
}

/* The first min(n - i, 8) lanes of a block starting at i < n. */
BBVEC static inline __mmask8 lanes(uint32_t i, uint32_t n)
{
	return n - i >= 8 ? (__mmask8)0xff : (__mmask8)((1u << (n - i)) - 1);
}

BBVEC uint64_t bbvec_avx512_filter(const uint64_t *pm, const uint32_t *pi,
                                   const uint32_t *g, const unsigned *rem,
                                   size_t T, uint64_t rm, uint64_t *om,
                                   uint32_t *oi, uint32_t *og)
{
	__m512i rv = _mm512_set1_epi64((long long)rm);
	__m512i any = _mm512_setzero_si512();
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		for (uint32_t i = g[t], end = g[t + 1]; i < end; i += 8) {
			__mmask8 in = lanes(i, end);
			__m512i m = _mm512_maskz_loadu_epi64(in, pm + i);
			__m256i id = _mm256_maskz_loadu_epi32(in, pi + i);
			__mmask8 keep = _mm512_mask_testn_epi64_mask(in, m, rv);
			__m512i km = _mm512_maskz_compress_epi64(keep, m);
			/* a compressing store to memory is slow on some
			 * CPUs (AMD Zen 4): compress in a register, store
			 * whole */
			_mm512_storeu_si512(om + k, km);
			_mm256_storeu_si256((__m256i *)(oi + k),
			                    _mm256_maskz_compress_epi32(keep, id));
			any = _mm512_or_si512(any, km);
			k += (uint32_t)__builtin_popcount(keep);
		}
	}
	og[T] = k;
	return (uint64_t)_mm512_reduce_or_epi64(any);
}

BBVEC bool bbvec_avx512_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                              uint64_t rm, uint64_t empty, uint64_t *any)
{
	__m512i rv = _mm512_set1_epi64((long long)rm);
	__m512i acc = _mm512_setzero_si512();
	uint64_t a = *any;
	while (end - i >= 32) {
		/* the check every four blocks: it costs a reduction */
		for (int j = 0; j < 4; j++, i += 8) {
			__m512i m = _mm512_loadu_si512(pm + i);
			acc = _mm512_mask_or_epi64(
			    acc, _mm512_testn_epi64_mask(m, rv), acc, m);
		}
		if ((a | (uint64_t)_mm512_reduce_or_epi64(acc)) == empty) {
			*any = empty;
			return true;
		}
	}
	for (; i < end; i += 8) {
		__mmask8 in = lanes(i, end);
		__m512i m = _mm512_maskz_loadu_epi64(in, pm + i);
		acc = _mm512_mask_or_epi64(
		    acc, _mm512_mask_testn_epi64_mask(in, m, rv), acc, m);
	}
	a |= (uint64_t)_mm512_reduce_or_epi64(acc);
	*any = a;
	return a == empty;
}

/* Bit-sliced counters, one set per lane: x's bits added to c0..c4 (bit 0
 * to 4 of each cell's count), 'sat' set on a carry out of c4. */
#define BBVEC_ADD(c0, c1, c2, c3, c4, sat, x) do {                            \
		__m512i k_ = _mm512_and_si512(c0, x);                          \
		c0 = _mm512_xor_si512(c0, x);                                  \
		__m512i l_ = _mm512_and_si512(c1, k_);                         \
		c1 = _mm512_xor_si512(c1, k_);                                 \
		k_ = _mm512_and_si512(c2, l_);                                 \
		c2 = _mm512_xor_si512(c2, l_);                                 \
		l_ = _mm512_and_si512(c3, k_);                                 \
		c3 = _mm512_xor_si512(c3, k_);                                 \
		sat = _mm512_or_si512(sat, _mm512_and_si512(c4, l_));          \
		c4 = _mm512_xor_si512(c4, l_);                                 \
	} while (0)

BBVEC void bbvec_avx512_count(const uint64_t *lm, uint32_t n,
                              uint64_t out[6])
{
	__m512i c[6];
	for (int j = 0; j < 6; j++)
		c[j] = _mm512_setzero_si512();
	for (uint32_t i = 0; i < n; i += 8) {
		__m512i m = _mm512_maskz_loadu_epi64(lanes(i, n), lm + i);
		BBVEC_ADD(c[0], c[1], c[2], c[3], c[4], c[5], m);
	}
	/* Fold the eight lanes' counters into one: add the upper half of
	 * the lanes to the lower, three times (ripple carry over the five
	 * slices, saturating at 32). */
	for (int w = 0; w < 3; w++) {
		__m512i h[6], carry = _mm512_setzero_si512();
		for (int j = 0; j < 6; j++)
			h[j] = w == 0 ? _mm512_shuffle_i64x2(c[j], c[j], 0x4e)
			     : w == 1 ? _mm512_shuffle_i64x2(c[j], c[j], 0xb1)
			              : _mm512_shuffle_epi32(c[j], 0x4e);
		for (int j = 0; j < 5; j++) {
			__m512i x = _mm512_xor_si512(c[j], h[j]);
			__m512i s = _mm512_xor_si512(x, carry);
			carry = _mm512_or_si512(_mm512_and_si512(c[j], h[j]),
			                        _mm512_and_si512(carry, x));
			c[j] = s;
		}
		c[5] = _mm512_or_si512(_mm512_or_si512(c[5], h[5]), carry);
	}
	for (int j = 0; j < 6; j++)
		out[j] = (uint64_t)_mm_cvtsi128_si64(_mm512_castsi512_si128(c[j]));
}

BBVEC unsigned bbvec_avx512_gather(const uint64_t *lm, uint32_t n,
                                   uint64_t cell, uint32_t *sel)
{
	__m512i cv = _mm512_set1_epi64((long long)cell);
	__m256i idx = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
	__m256i eight = _mm256_set1_epi32(8);
	unsigned k = 0;
	for (uint32_t i = 0; i < n; i += 8) {
		__mmask8 in = lanes(i, n);
		__m512i m = _mm512_maskz_loadu_epi64(in, lm + i);
		__mmask8 hit = _mm512_mask_test_epi64_mask(in, m, cv);
		_mm256_storeu_si256((__m256i *)(sel + k),
		                    _mm256_maskz_compress_epi32(hit, idx));
		k += (unsigned)__builtin_popcount(hit);
		idx = _mm256_add_epi32(idx, eight);
	}
	return k;
}

#else /* no AVX-512 kernels on this compiler or CPU: never called */

bool bbvec_avx512_usable(void)
{
	return false;
}

uint64_t bbvec_avx512_filter(const uint64_t *pm, const uint32_t *pi,
                             const uint32_t *g, const unsigned *rem,
                             size_t T, uint64_t rm, uint64_t *om,
                             uint32_t *oi, uint32_t *og)
{
	(void)pm, (void)pi, (void)g, (void)rem, (void)T, (void)rm, (void)om;
	(void)oi, (void)og;
	return 0;
}

bool bbvec_avx512_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                        uint64_t rm, uint64_t empty, uint64_t *any)
{
	(void)pm, (void)i, (void)end, (void)rm, (void)empty, (void)any;
	return true;
}

void bbvec_avx512_count(const uint64_t *lm, uint32_t n, uint64_t out[6])
{
	(void)lm, (void)n;
	for (int j = 0; j < 6; j++)
		out[j] = 0;
}

unsigned bbvec_avx512_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                             uint32_t *sel)
{
	(void)lm, (void)n, (void)cell, (void)sel;
	return 0;
}

#endif
