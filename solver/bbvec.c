/*
 * bbvec.c: bb.c's list kernels on AVX-512 (see bbvec.h).
 *
 * Workload: lists of a few dozen to a few thousand rows, scanned millions
 * of times (Bedlam on these kernels alone: 18.5 million placements). A
 * block of eight rows is one 512-bit load; a mask register says which of
 * them go on, and VPCOMPRESSQ packs those to the front of a register,
 * stored whole at the output's end: the filter needs no branch per row,
 * which is where the portable loop spends its time (about 1.8 ns a row on
 * Bedlam against 0.6 here). Block tails are masked loads, so nothing past
 * an input's end is read.
 *
 * The functions carry a target attribute instead of the file a compiler
 * flag: the rest of the program stays plain x86-64 and runs anywhere, and
 * bb.c calls these only when bbvec_usable(). Other compilers and CPUs get
 * stubs that are never called. A CPU with AVX2 but not AVX-512 runs
 * bbvec2.c's kernels, four rows at a time, the same lists again.
 */
#include "solver/bbvec.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

#define BBVEC __attribute__((target("avx512f,avx512vl,popcnt")))

bool bbvec_usable(void)
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

/* p + k, where p + k may lie past the array's end when no lane of the
 * block there is loaded: C allows a pointer only up to one past the end,
 * so the address is formed as an integer. */
BBVEC static inline const void *after(const uint64_t *p, size_t k)
{
	return (const void *)((uintptr_t)p + 8 * (uintptr_t)k);
}

/* The lanes of m0 (one-word rows), of the lanes 'in', that leave no
 * hole by h's rule (bbvec.h), with up[k] and down[k] from
 * bb_holes_up() and bb_holes_down(): only the row is shifted, six times,
 * and the six terms fold in two chains of three. */
struct holes_v {
	__m512i empty, up[3], down[3];
	__m128i sh[3];
};

BBVEC static inline __attribute__((always_inline)) __mmask8
no_holes_of(const struct holes_v *hv, __mmask8 in, __m512i m0)
{
	/* 0xf4: a | (b & ~c) */
	__m512i n0 = _mm512_andnot_si512(_mm512_sll_epi64(m0, hv->sh[0]),
	                                 hv->up[0]);
	__m512i n1 = _mm512_andnot_si512(_mm512_srl_epi64(m0, hv->sh[0]),
	                                 hv->down[0]);
	n0 = _mm512_ternarylogic_epi64(n0, hv->up[1],
	                               _mm512_sll_epi64(m0, hv->sh[1]), 0xf4);
	n1 = _mm512_ternarylogic_epi64(n1, hv->down[1],
	                               _mm512_srl_epi64(m0, hv->sh[1]), 0xf4);
	n0 = _mm512_ternarylogic_epi64(n0, hv->up[2],
	                               _mm512_sll_epi64(m0, hv->sh[2]), 0xf4);
	n1 = _mm512_ternarylogic_epi64(n1, hv->down[2],
	                               _mm512_srl_epi64(m0, hv->sh[2]), 0xf4);
	/* 0x01: ~(a | b | c), the cells of neither row nor a neighbour */
	__m512i lone = _mm512_ternarylogic_epi64(n0, n1, m0, 0x01);
	return _mm512_mask_testn_epi64_mask(in, lone, hv->empty);
}

/* h's rule on two words (bbvec.h), in registers: per gap, its masks and
 * the shift counts d, 64 - d and d - 64 (those out of 0..63 shift
 * everything out, as VPSLLQ and VPSRLQ do). */
struct holes2_v {
	__m512i empty[2];
	size_t ngaps;
	__m512i src[BB_HOLES2_GAPS][2];
	__m128i d[BB_HOLES2_GAPS], up[BB_HOLES2_GAPS], down[BB_HOLES2_GAPS];
	bool wide[BB_HOLES2_GAPS]; /* d >= 64 */
};

/* The lanes of rows m0/m1 (two words) that leave a hole by hv's rule, of
 * the lanes 'in'. A cell's neighbour d up: word 1 gets word 1 << d, word
 * 0 >> (64 - d) and (d >= 64) word 0 << (d - 64); down likewise. */
BBVEC static inline __attribute__((always_inline)) __mmask8
holes2_of(const struct holes2_v *hv, __mmask8 in, __m512i m0, __m512i m1)
{
	__m512i e0 = _mm512_andnot_si512(m0, hv->empty[0]);
	__m512i e1 = _mm512_andnot_si512(m1, hv->empty[1]);
	__m512i n0 = _mm512_setzero_si512(), n1 = n0;
	for (size_t k = 0; k < hv->ngaps; k++) {
		/* up from the cells of src, down to them */
		__m512i x0 = _mm512_and_si512(e0, hv->src[k][0]);
		__m512i x1 = _mm512_and_si512(e1, hv->src[k][1]);
		if (hv->wide[k]) {
			n1 = _mm512_or_si512(n1, _mm512_sll_epi64(x0, hv->down[k]));
			n0 = _mm512_ternarylogic_epi64(
			    n0, _mm512_srl_epi64(e1, hv->down[k]), hv->src[k][0],
			    0xf8);
			continue;
		}
		n0 = _mm512_or_si512(n0, _mm512_sll_epi64(x0, hv->d[k]));
		n1 = _mm512_ternarylogic_epi64(
		    n1, _mm512_sll_epi64(x1, hv->d[k]),
		    _mm512_srl_epi64(x0, hv->up[k]), 0xfe);
		__m512i z0 = _mm512_or_si512(_mm512_srl_epi64(e0, hv->d[k]),
		                             _mm512_sll_epi64(e1, hv->up[k]));
		n0 = _mm512_ternarylogic_epi64(n0, z0, hv->src[k][0], 0xf8);
		n1 = _mm512_ternarylogic_epi64(n1, _mm512_srl_epi64(e1, hv->d[k]),
		                               hv->src[k][1], 0xf8);
	}
	__mmask8 h0 = _mm512_mask_test_epi64_mask(
	    in, _mm512_andnot_si512(n0, e0), e0);
	__mmask8 h1 = _mm512_mask_test_epi64_mask(
	    in, _mm512_andnot_si512(n1, e1), e1);
	return h0 | h1;
}

/* A block of filter_w: eight rows of one or two words, their numbers. */
struct fblock {
	__m512i m0, m1;
	__m256i id;
};

/* filter_w's reading of the block at i (lanes 'in'), and which of its
 * rows stay: no clash with rv0/rv1, and by hv's or hv2's rule when H. */
BBVEC static inline __attribute__((always_inline)) __mmask8
fblock_keep(struct fblock *f, const uint64_t *p0, const uint64_t *p1,
            const uint32_t *pi, uint32_t i, __mmask8 in, __m512i rv0,
            __m512i rv1, const struct holes_v *hv,
            const struct holes2_v *hv2, int W, int I, int H)
{
	f->m0 = _mm512_maskz_loadu_epi64(in, p0 + i);
	f->m1 = _mm512_setzero_si512();
	f->id = _mm256_setzero_si256();
	if (I)
		f->id = _mm256_maskz_loadu_epi32(in, pi + i);
	__mmask8 keep = _mm512_mask_testn_epi64_mask(in, f->m0, rv0);
	if (H && W == 1)
		keep = no_holes_of(hv, keep, f->m0);
	if (W == 2) {
		f->m1 = _mm512_maskz_loadu_epi64(in, p1 + i);
		keep = _mm512_mask_testn_epi64_mask(keep, f->m1, rv1);
		if (H)
			keep &= (__mmask8)~holes2_of(hv2, keep, f->m0, f->m1);
	}
	return keep;
}

/* The rows 'keep' of block f written at the end k of the output, their
 * union into a0/a1. */
BBVEC static inline __attribute__((always_inline)) void
fblock_put(const struct fblock *f, __mmask8 keep, uint64_t *o0, uint64_t *o1,
           uint32_t *oi, uint32_t *k, __m512i *a0, __m512i *a1, int W, int I)
{
	/* a compressing store to memory is slow on some CPUs (AMD Zen 4):
	 * compress in a register, store whole */
	__m512i k0 = _mm512_maskz_compress_epi64(keep, f->m0);
	_mm512_storeu_si512(o0 + *k, k0);
	*a0 = _mm512_or_si512(*a0, k0);
	if (W == 2) {
		__m512i k1 = _mm512_maskz_compress_epi64(keep, f->m1);
		_mm512_storeu_si512(o1 + *k, k1);
		*a1 = _mm512_or_si512(*a1, k1);
	}
	if (I)
		_mm256_storeu_si256((__m256i *)(oi + *k),
		                    _mm256_maskz_compress_epi32(keep, f->id));
	*k += (uint32_t)__builtin_popcount(keep);
}

/* The filter on W words (1 or 2, a constant where it is inlined): the
 * rows of p0/p1 (word 0 and 1 of each mask) kept when neither word clashes
 * with r0/r1, with their numbers pi when I (a constant too); any[0..W)
 * gets their union. When H, rows that leave a hole go too: by hv's rule
 * on one word, by hv2's on two. */
BBVEC static inline __attribute__((always_inline)) void
filter_w(const uint64_t *p0, const uint64_t *p1, const uint32_t *pi,
         const uint32_t *g, const unsigned *rem, size_t T, uint64_t r0,
         uint64_t r1, const struct holes_v *hv, const struct holes2_v *hv2,
         uint64_t *o0, uint64_t *o1, uint32_t *oi, uint32_t *og,
         uint64_t *any, int W, int I, int H)
{
	__m512i rv0 = _mm512_set1_epi64((long long)r0);
	__m512i rv1 = _mm512_set1_epi64((long long)r1);
	__m512i a0 = _mm512_setzero_si512(), a1 = a0;
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		uint32_t i = g[t], end = g[t + 1];
		/* two blocks a step while there are: both read and tested
		 * before either is written (AMD Zen 4, 20,000 of the Tetris
		 * cube's lists replayed: 0.47 ns a row instead of 0.52) */
		for (; end - i >= 16; i += 16) {
			struct fblock f, h;
			__mmask8 kf = fblock_keep(&f, p0, p1, pi, i, 0xff, rv0,
			                          rv1, hv, hv2, W, I, H);
			__mmask8 kh = fblock_keep(&h, p0, p1, pi, i + 8, 0xff,
			                          rv0, rv1, hv, hv2, W, I, H);
			fblock_put(&f, kf, o0, o1, oi, &k, &a0, &a1, W, I);
			fblock_put(&h, kh, o0, o1, oi, &k, &a0, &a1, W, I);
		}
		for (;; i += 8) {
			/* full blocks, then one masked block (maybe of none)
			 * whatever is left: where a group ends varies, and a
			 * mispredicted exit costs more than the block (3 %) */
			struct fblock f;
			__mmask8 keep = fblock_keep(&f, p0, p1, pi, i,
			                            lanes(i, end), rv0, rv1, hv,
			                            hv2, W, I, H);
			fblock_put(&f, keep, o0, o1, oi, &k, &a0, &a1, W, I);
			if (end - i < 8)
				break;
		}
	}
	og[T] = k;
	any[0] = (uint64_t)_mm512_reduce_or_epi64(a0);
	if (W == 2)
		any[1] = (uint64_t)_mm512_reduce_or_epi64(a1);
}

BBVEC uint64_t bbvec_filter(const uint64_t *pm, const uint32_t *pi,
                            const uint32_t *g, const unsigned *rem,
                            size_t T, uint64_t rm, const struct bb_holes *h,
                            uint64_t *om, uint32_t *oi, uint32_t *og)
{
	uint64_t any;
	if (h) {
		struct holes_v hv;
		hv.empty = _mm512_set1_epi64((long long)h->empty);
		for (int k = 0; k < 3; k++) {
			hv.up[k] = _mm512_set1_epi64((long long)bb_holes_up(h, k));
			hv.down[k] =
			    _mm512_set1_epi64((long long)bb_holes_down(h, k));
			hv.sh[k] = _mm_cvtsi32_si128((int)h->sh[k]);
		}
		if (pi)
			filter_w(pm, NULL, pi, g, rem, T, rm, 0, &hv, NULL, om,
			         NULL, oi, og, &any, 1, 1, 1);
		else
			filter_w(pm, NULL, NULL, g, rem, T, rm, 0, &hv, NULL, om,
			         NULL, NULL, og, &any, 1, 0, 1);
	} else if (pi) {
		filter_w(pm, NULL, pi, g, rem, T, rm, 0, NULL, NULL, om, NULL,
		         oi, og, &any, 1, 1, 0);
	} else {
		filter_w(pm, NULL, NULL, g, rem, T, rm, 0, NULL, NULL, om, NULL,
		         NULL, og, &any, 1, 0, 0);
	}
	return any;
}

BBVEC void bbvec_filter2(const uint64_t *p0, const uint64_t *p1,
                         const uint32_t *pi, const uint32_t *g,
                         const unsigned *rem, size_t T, const uint64_t rm[2],
                         const struct bb_holes2 *h, uint64_t *o0,
                         uint64_t *o1, uint32_t *oi, uint32_t *og,
                         uint64_t any[2])
{
	if (!h) {
		filter_w(p0, p1, pi, g, rem, T, rm[0], rm[1], NULL, NULL, o0, o1,
		         oi, og, any, 2, 1, 0);
		return;
	}
	struct holes2_v hv;
	for (int w = 0; w < 2; w++)
		hv.empty[w] = _mm512_set1_epi64((long long)h->empty[w]);
	hv.ngaps = h->ngaps;
	for (size_t k = 0; k < h->ngaps; k++) {
		long long d = h->delta[k];
		for (int w = 0; w < 2; w++)
			hv.src[k][w] = _mm512_set1_epi64((long long)h->src[k][w]);
		hv.d[k] = _mm_cvtsi64_si128(d);
		hv.up[k] = _mm_cvtsi64_si128(64 - d);
		hv.down[k] = _mm_cvtsi64_si128(d - 64);
		hv.wide[k] = d >= 64;
	}
	filter_w(p0, p1, pi, g, rem, T, rm[0], rm[1], NULL, &hv, o0, o1, oi,
	         og, any, 2, 1, 1);
}

/* The cover check on W words, as filter_w: any[0..W) collects the union
 * of the rows that go with r0/r1; true when it is empty[0..W). */
BBVEC static inline __attribute__((always_inline)) bool
cover_w(const uint64_t *p0, const uint64_t *p1, uint32_t i, uint32_t end,
        uint64_t r0, uint64_t r1, const uint64_t *empty, uint64_t *any, int W)
{
	__m512i rv0 = _mm512_set1_epi64((long long)r0);
	__m512i rv1 = _mm512_set1_epi64((long long)r1);
	__m512i c0 = _mm512_setzero_si512(), c1 = c0;
	uint64_t e0 = empty[0], e1 = W == 2 ? empty[1] : 0;
	uint64_t a0 = any[0], a1 = W == 2 ? any[1] : 0;
	while (end - i >= 32) {
		/* the check every four blocks: it costs a reduction */
		for (int j = 0; j < 4; j++, i += 8) {
			__m512i m0 = _mm512_loadu_si512(p0 + i);
			__mmask8 ok = _mm512_testn_epi64_mask(m0, rv0);
			if (W == 2) {
				__m512i m1 = _mm512_loadu_si512(p1 + i);
				ok = _mm512_mask_testn_epi64_mask(ok, m1, rv1);
				c1 = _mm512_mask_or_epi64(c1, ok, c1, m1);
			}
			c0 = _mm512_mask_or_epi64(c0, ok, c0, m0);
		}
		if ((a0 | (uint64_t)_mm512_reduce_or_epi64(c0)) == e0 &&
		    (W == 1 ||
		     (a1 | (uint64_t)_mm512_reduce_or_epi64(c1)) == e1)) {
			any[0] = e0;
			if (W == 2)
				any[1] = e1;
			return true;
		}
	}
	/* 0..31 rows: four masked blocks whatever is left, not a loop to
	 * the end, whose exit would be mispredicted (4 %) */
	__m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
	long long r = (long long)end - i;
	for (int j = 0; j < 4; j++, i += 8, r -= 8) {
		__mmask8 in = _mm512_cmplt_epi64_mask(iota, _mm512_set1_epi64(r));
		__m512i m0 = _mm512_maskz_loadu_epi64(in, after(p0, i));
		__mmask8 ok = _mm512_mask_testn_epi64_mask(in, m0, rv0);
		if (W == 2) {
			__m512i m1 = _mm512_maskz_loadu_epi64(in, after(p1, i));
			ok = _mm512_mask_testn_epi64_mask(ok, m1, rv1);
			c1 = _mm512_mask_or_epi64(c1, ok, c1, m1);
		}
		c0 = _mm512_mask_or_epi64(c0, ok, c0, m0);
	}
	a0 |= (uint64_t)_mm512_reduce_or_epi64(c0);
	any[0] = a0;
	if (W == 2) {
		a1 |= (uint64_t)_mm512_reduce_or_epi64(c1);
		any[1] = a1;
	}
	return a0 == e0 && (W == 1 || a1 == e1);
}

BBVEC bool bbvec_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                       uint64_t rm, uint64_t empty, uint64_t *any)
{
	return cover_w(pm, NULL, i, end, rm, 0, &empty, any, 1);
}

BBVEC bool bbvec_cover2(const uint64_t *p0, const uint64_t *p1, uint32_t i,
                        uint32_t end, const uint64_t rm[2],
                        const uint64_t empty[2], uint64_t any[2])
{
	return cover_w(p0, p1, i, end, rm[0], rm[1], empty, any, 2);
}

/* The filter on W words, 3 to 8 (a constant where it is inlined), as
 * filter_w without the rule against holes. */
BBVEC static inline __attribute__((always_inline)) void
filter_n(const uint64_t *const *p, const uint32_t *pi, const uint32_t *g,
         const unsigned *rem, size_t T, const uint64_t *rm,
         uint64_t *const *o, uint32_t *oi, uint32_t *og, uint64_t *any,
         int W)
{
	__m512i rv[BBVEC_MAX_WORDS], a[BBVEC_MAX_WORDS];
	for (int w = 0; w < W; w++) {
		rv[w] = _mm512_set1_epi64((long long)rm[w]);
		a[w] = _mm512_setzero_si512();
	}
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		uint32_t i = g[t], end = g[t + 1];
		for (;; i += 8) {
			__mmask8 in = lanes(i, end);
			__m512i m[BBVEC_MAX_WORDS];
			__mmask8 keep = in;
			for (int w = 0; w < W; w++) {
				m[w] = _mm512_maskz_loadu_epi64(in, p[w] + i);
				keep = _mm512_mask_testn_epi64_mask(keep, m[w], rv[w]);
			}
			for (int w = 0; w < W; w++) {
				__m512i kw = _mm512_maskz_compress_epi64(keep, m[w]);
				_mm512_storeu_si512(o[w] + k, kw);
				a[w] = _mm512_or_si512(a[w], kw);
			}
			__m256i id = _mm256_maskz_loadu_epi32(in, pi + i);
			_mm256_storeu_si256((__m256i *)(oi + k),
			                    _mm256_maskz_compress_epi32(keep, id));
			k += (uint32_t)__builtin_popcount(keep);
			if (end - i < 8)
				break;
		}
	}
	og[T] = k;
	for (int w = 0; w < W; w++)
		any[w] = (uint64_t)_mm512_reduce_or_epi64(a[w]);
}

BBVEC void bbvec_filterw(const uint64_t *const *p, const uint32_t *pi,
                         const uint32_t *g, const unsigned *rem, size_t T,
                         const uint64_t *rm, uint64_t *const *o, uint32_t *oi,
                         uint32_t *og, uint64_t *any, int W)
{
	switch (W) {
	case 3: filter_n(p, pi, g, rem, T, rm, o, oi, og, any, 3); break;
	case 4: filter_n(p, pi, g, rem, T, rm, o, oi, og, any, 4); break;
	case 5: filter_n(p, pi, g, rem, T, rm, o, oi, og, any, 5); break;
	case 6: filter_n(p, pi, g, rem, T, rm, o, oi, og, any, 6); break;
	case 7: filter_n(p, pi, g, rem, T, rm, o, oi, og, any, 7); break;
	case 8: filter_n(p, pi, g, rem, T, rm, o, oi, og, any, 8); break;
	default: filter_n(p, pi, g, rem, T, rm, o, oi, og, any, W); break;
	}
}

/* The cover check on W words, 3 to 8, as cover_w: any[0..W) collects the
 * union of the rows that go with rm; true when it is empty[0..W). */
/* One block of cover_n: the rows i..i+7 of the lanes 'in', their words
 * of 'tw' tested against rv, their words of 'aw' collected into c (only
 * those words loaded). */
BBVEC static inline __attribute__((always_inline)) void
cover_block_n(const uint64_t *const *p, uint32_t i, __mmask8 in,
              const __m512i *rv, __m512i *c, unsigned tw, unsigned aw, int W)
{
	__m512i m[BBVEC_MAX_WORDS];
	__mmask8 ok = in;
	for (int w = 0; w < W; w++)
		m[w] = (tw | aw) >> w & 1 ? _mm512_maskz_loadu_epi64(in, p[w] + i)
		                          : _mm512_setzero_si512();
	for (int w = 0; w < W; w++)
		if (tw >> w & 1)
			ok = _mm512_mask_testn_epi64_mask(ok, m[w], rv[w]);
	for (int w = 0; w < W; w++)
		if (aw >> w & 1)
			c[w] = _mm512_mask_or_epi64(c[w], ok, c[w], m[w]);
}

BBVEC static inline __attribute__((always_inline)) bool
cover_n(const uint64_t *const *p, uint32_t i, uint32_t end,
        const uint64_t *rm, const uint64_t *empty, uint64_t *any, int W)
{
	/* Only the words that can clash (rm's) are tested, and only the
	 * words with a cell still to find are collected: the others are
	 * not loaded (a row placed on a goal of eight words meets three or
	 * four, and some words are done: a third of the loads go) */
	__m512i rv[BBVEC_MAX_WORDS], c[BBVEC_MAX_WORDS];
	unsigned tw = 0, aw = 0;
	for (int w = 0; w < W; w++) {
		rv[w] = _mm512_set1_epi64((long long)rm[w]);
		c[w] = _mm512_setzero_si512();
		tw |= (unsigned)(rm[w] != 0) << w;
		aw |= (unsigned)(any[w] != empty[w]) << w;
	}
	while (end - i >= 16) {
		/* the check every two blocks: it costs a reduction a word */
		for (int j = 0; j < 2; j++, i += 8)
			cover_block_n(p, i, 0xff, rv, c, tw, aw, W);
		bool all = true;
		for (int w = 0; w < W && all; w++)
			all = !(aw >> w & 1) ||
			      (any[w] | (uint64_t)_mm512_reduce_or_epi64(c[w])) ==
			          empty[w];
		if (all) {
			for (int w = 0; w < W; w++)
				any[w] = empty[w];
			return true;
		}
	}
	for (; i < end; i += 8)
		cover_block_n(p, i, lanes(i, end), rv, c, tw, aw, W);
	/* (a word not collected is all found: the rows' union adds nothing
	 * to it) */
	bool all = true;
	for (int w = 0; w < W; w++) {
		any[w] |= (uint64_t)_mm512_reduce_or_epi64(c[w]);
		all &= any[w] == empty[w];
	}
	return all;
}

BBVEC bool bbvec_coverw(const uint64_t *const *p, uint32_t i, uint32_t end,
                        const uint64_t *rm, const uint64_t *empty,
                        uint64_t *any, int W)
{
	switch (W) {
	case 3: return cover_n(p, i, end, rm, empty, any, 3);
	case 4: return cover_n(p, i, end, rm, empty, any, 4);
	case 5: return cover_n(p, i, end, rm, empty, any, 5);
	case 6: return cover_n(p, i, end, rm, empty, any, 6);
	case 7: return cover_n(p, i, end, rm, empty, any, 7);
	case 8: return cover_n(p, i, end, rm, empty, any, 8);
	default: return cover_n(p, i, end, rm, empty, any, W);
	}
}

BBVEC bool bbvec_types(const uint32_t *g, const unsigned *rem,
                       const unsigned *count, size_t T, unsigned *tbest,
                       size_t *bt)
{
	unsigned best = UINT32_MAX;
	size_t at = T;
	__m512i one = _mm512_set1_epi32(1), none = _mm512_set1_epi32(-1);
	for (size_t t0 = 0; t0 < T; t0 += 16) {
		__mmask16 in = T - t0 >= 16 ? (__mmask16)0xffff
		                            : (__mmask16)((1u << (T - t0)) - 1);
		__m512i n = _mm512_sub_epi32(_mm512_maskz_loadu_epi32(in, g + t0 + 1),
		                             _mm512_maskz_loadu_epi32(in, g + t0));
		__m512i r = _mm512_maskz_loadu_epi32(in, rem + t0);
		if (_mm512_mask_cmplt_epu32_mask(in, n, r))
			return false;
		__mmask16 single = _mm512_mask_cmpneq_epu32_mask(
		    _mm512_mask_cmpeq_epu32_mask(
		        in, _mm512_maskz_loadu_epi32(in, count + t0), one),
		    r, _mm512_setzero_si512());
		__m512i v = _mm512_mask_mov_epi32(none, single, n);
		unsigned low = (unsigned)_mm512_reduce_min_epu32(v);
		if (low < best) {
			best = low;
			at = t0 + (size_t)__builtin_ctz(_mm512_mask_cmpeq_epu32_mask(
			                  single, v, _mm512_set1_epi32((int)low)));
		}
	}
	*tbest = best;
	*bt = at;
	return true;
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

/* Full adders in one instruction each: the sum and the carry of three. */
#define BBVEC_XOR3(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define BBVEC_MAJ(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0xe8)

BBVEC void bbvec_count(const uint64_t *lm, uint32_t n, uint64_t out[6])
{
	__m512i c[6];
	for (int j = 0; j < 6; j++)
		c[j] = _mm512_setzero_si512();
	uint32_t i = 0;
	/* Two blocks a step: a full adder takes both into the ones slice
	 * and gives one carry for the rest (carry-save, as Harley and Seal
	 * count bits): five instructions a block instead of ten. */
	for (; n - i >= 16; i += 16) {
		__m512i a = _mm512_loadu_si512(lm + i);
		__m512i b = _mm512_loadu_si512(lm + i + 8);
		__m512i cy = BBVEC_MAJ(c[0], a, b);
		c[0] = BBVEC_XOR3(c[0], a, b);
		__m512i k = _mm512_and_si512(c[1], cy);
		c[1] = _mm512_xor_si512(c[1], cy);
		__m512i l = _mm512_and_si512(c[2], k);
		c[2] = _mm512_xor_si512(c[2], k);
		k = _mm512_and_si512(c[3], l);
		c[3] = _mm512_xor_si512(c[3], l);
		c[5] = _mm512_or_si512(c[5], _mm512_and_si512(c[4], k));
		c[4] = _mm512_xor_si512(c[4], k);
	}
	for (; i < n; i += 8) {
		__m512i m = _mm512_maskz_loadu_epi64(lanes(i, n), lm + i);
		BBVEC_ADD(c[0], c[1], c[2], c[3], c[4], c[5], m);
	}
	/* Fold the eight lanes' counters into one: add the upper half of
	 * the lanes to the lower (ripple carry over the five slices,
	 * saturating at 32), on ever narrower registers. */
	__m256i d[6], cy = _mm256_setzero_si256();
	for (int j = 0; j < 5; j++) {
		__m256i lo = _mm512_castsi512_si256(c[j]);
		__m256i hi = _mm512_extracti64x4_epi64(c[j], 1);
		d[j] = _mm256_ternarylogic_epi64(lo, hi, cy, 0x96);
		cy = _mm256_ternarylogic_epi64(lo, hi, cy, 0xe8);
	}
	d[5] = _mm256_or_si256(_mm256_or_si256(_mm512_castsi512_si256(c[5]),
	                                       _mm512_extracti64x4_epi64(c[5], 1)),
	                       cy);
	__m128i e[6], cx = _mm_setzero_si128();
	for (int j = 0; j < 5; j++) {
		__m128i lo = _mm256_castsi256_si128(d[j]);
		__m128i hi = _mm256_extracti128_si256(d[j], 1);
		e[j] = _mm_ternarylogic_epi64(lo, hi, cx, 0x96);
		cx = _mm_ternarylogic_epi64(lo, hi, cx, 0xe8);
	}
	e[5] = _mm_or_si128(_mm_or_si128(_mm256_castsi256_si128(d[5]),
	                                 _mm256_extracti128_si256(d[5], 1)),
	                    cx);
	uint64_t lo[6], hi[6];
	for (int j = 0; j < 6; j++) {
		lo[j] = (uint64_t)_mm_cvtsi128_si64(e[j]);
		hi[j] = (uint64_t)_mm_extract_epi64(e[j], 1);
	}
	bbvec_add_counts(lo, hi, out);
}

BBVEC unsigned bbvec_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                            uint32_t *sel)
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

bool bbvec_usable(void)
{
	return false;
}

uint64_t bbvec_filter(const uint64_t *pm, const uint32_t *pi,
                      const uint32_t *g, const unsigned *rem, size_t T,
                      uint64_t rm, const struct bb_holes *h, uint64_t *om,
                      uint32_t *oi, uint32_t *og)
{
	(void)pm, (void)pi, (void)g, (void)rem, (void)T, (void)rm, (void)h;
	(void)om, (void)oi, (void)og;
	return 0;
}

bool bbvec_cover(const uint64_t *pm, uint32_t i, uint32_t end, uint64_t rm,
                 uint64_t empty, uint64_t *any)
{
	(void)pm, (void)i, (void)end, (void)rm, (void)empty, (void)any;
	return true;
}

void bbvec_filter2(const uint64_t *p0, const uint64_t *p1, const uint32_t *pi,
                   const uint32_t *g, const unsigned *rem, size_t T,
                   const uint64_t rm[2], const struct bb_holes2 *h,
                   uint64_t *o0, uint64_t *o1, uint32_t *oi, uint32_t *og,
                   uint64_t any[2])
{
	(void)p0, (void)p1, (void)pi, (void)g, (void)rem, (void)T, (void)rm;
	(void)h, (void)o0, (void)o1, (void)oi, (void)og;
	any[0] = any[1] = 0;
}

bool bbvec_cover2(const uint64_t *p0, const uint64_t *p1, uint32_t i,
                  uint32_t end, const uint64_t rm[2], const uint64_t empty[2],
                  uint64_t any[2])
{
	(void)p0, (void)p1, (void)i, (void)end, (void)rm, (void)empty, (void)any;
	return true;
}

void bbvec_filterw(const uint64_t *const *p, const uint32_t *pi,
                   const uint32_t *g, const unsigned *rem, size_t T,
                   const uint64_t *rm, uint64_t *const *o, uint32_t *oi,
                   uint32_t *og, uint64_t *any, int W)
{
	(void)p, (void)pi, (void)g, (void)rem, (void)T, (void)rm, (void)o;
	(void)oi, (void)og;
	for (int w = 0; w < W; w++)
		any[w] = 0;
}

bool bbvec_coverw(const uint64_t *const *p, uint32_t i, uint32_t end,
                  const uint64_t *rm, const uint64_t *empty, uint64_t *any,
                  int W)
{
	(void)p, (void)i, (void)end, (void)rm, (void)empty, (void)any, (void)W;
	return true;
}

void bbvec_count(const uint64_t *lm, uint32_t n, uint64_t out[6])
{
	(void)lm, (void)n;
	for (int j = 0; j < 6; j++)
		out[j] = 0;
}

unsigned bbvec_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                      uint32_t *sel)
{
	(void)lm, (void)n, (void)cell, (void)sel;
	return 0;
}

bool bbvec_types(const uint32_t *g, const unsigned *rem,
                 const unsigned *count, size_t T, unsigned *tbest, size_t *bt)
{
	(void)g, (void)rem, (void)count, (void)T;
	*tbest = 0;
	*bt = 0;
	return false;
}

#endif
