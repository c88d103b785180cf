/*
 * bbvec2.c: bb.c's and bbw.c's list kernels on AVX2 (see bbvec.h), for
 * the CPUs that have it but not AVX-512 (Intel since Alder Lake, AMD
 * before Zen 4).
 *
 * Workload: as bbvec.c's, the same lists, four rows to a 256-bit
 * register. AVX2 has no compress instruction, so the filter packs the
 * rows it keeps with a table: the four rows' keep bits (movemask_pd) pick
 * a VPERMD index vector that brings the kept 64-bit lanes to the front in
 * order, and a 4-lane index vector that does the same for the four row
 * numbers (VPERMILPS within 128 bits); both registers are stored whole at
 * the output's end, which moves on by the kept rows' count. No branch per
 * row, as on AVX-512. The count adds two blocks a step (carry-save), and
 * a node's type checks take eight types to a register. Block tails are
 * masked loads (VPMASKMOVQ/D), so nothing past an input's end is read.
 * Bedlam on one thread: 3.6 s, as fast as bbvec.c's on the AMD Zen 4
 * measured (whose 512-bit operations take two passes), against 6.7 on
 * the portable loops; on the wide board the 70-cell pentacube box 0.63 s
 * against 1.28 (AVX-512 with the matrix phase: 0.46 s).
 *
 * The functions carry a target attribute instead of the file a compiler
 * flag, as bbvec.c's: bb.c calls these only when bbvec_avx2_usable().
 * Other compilers and CPUs get stubs that are never called.
 */
#include "solver/bbvec.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <cpuid.h>
#include <immintrin.h>

#define BBVEC2 __attribute__((target("avx2,popcnt")))

bool bbvec_avx2_usable(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2") &&
	       __builtin_cpu_supports("popcnt");
}

/* For each 4-bit set of lanes m (bit l: lane l), the lanes of m in
 * increasing order, then zeros: the packing of a filter's row numbers and
 * of a gather's indexes. */
static _Alignas(16) const int32_t lanes_of[16][4] = {
	{0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0},
	{2, 0, 0, 0}, {0, 2, 0, 0}, {1, 2, 0, 0}, {0, 1, 2, 0},
	{3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
	{2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3},
};

/* The same for 64-bit lanes as VPERMD sees them: lane l is the 32-bit
 * lanes 2l and 2l + 1. */
static _Alignas(32) const int32_t pairs_of[16][8] = {
	{0, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 0, 0, 0, 0, 0},
	{2, 3, 0, 0, 0, 0, 0, 0}, {0, 1, 2, 3, 0, 0, 0, 0},
	{4, 5, 0, 0, 0, 0, 0, 0}, {0, 1, 4, 5, 0, 0, 0, 0},
	{2, 3, 4, 5, 0, 0, 0, 0}, {0, 1, 2, 3, 4, 5, 0, 0},
	{6, 7, 0, 0, 0, 0, 0, 0}, {0, 1, 6, 7, 0, 0, 0, 0},
	{2, 3, 6, 7, 0, 0, 0, 0}, {0, 1, 2, 3, 6, 7, 0, 0},
	{4, 5, 6, 7, 0, 0, 0, 0}, {0, 1, 4, 5, 6, 7, 0, 0},
	{2, 3, 4, 5, 6, 7, 0, 0}, {0, 1, 2, 3, 4, 5, 6, 7},
};

/* All ones in the first r 64-bit lanes (none when r <= 0, all four when
 * r >= 4): the lanes of a block that lie in a list. */
BBVEC2 static inline __m256i tail64(long long r)
{
	return _mm256_cmpgt_epi64(_mm256_set1_epi64x(r),
	                          _mm256_setr_epi64x(0, 1, 2, 3));
}

/* The same for four 32-bit lanes (|r| < 2^31). */
BBVEC2 static inline __m128i tail32(long long r)
{
	return _mm_cmpgt_epi32(_mm_set1_epi32((int)r),
	                       _mm_setr_epi32(0, 1, 2, 3));
}

/* The first r rows from p (none when r <= 0, four when r >= 4), the
 * lanes past them 0; nothing past them is read. */
BBVEC2 static inline __m256i load_first(const uint64_t *p, long long r)
{
	return _mm256_maskload_epi64((const long long *)p, tail64(r));
}

/* load_first(p + k, r), where p + k may lie past the array's end when
 * r <= 0: C allows a pointer only up to one past the end, so the address
 * is formed as an integer; nothing is read from it then. */
BBVEC2 static inline __m256i load_after(const uint64_t *p, size_t k,
                                        long long r)
{
	return load_first((const uint64_t *)((uintptr_t)p + 8 * (uintptr_t)k),
	                  r);
}

/* The OR of the four lanes. */
BBVEC2 static inline uint64_t or4(__m256i v)
{
	__m128i x = _mm_or_si128(_mm256_castsi256_si128(v),
	                         _mm256_extracti128_si256(v, 1));
	return (uint64_t)_mm_cvtsi128_si64(
	    _mm_or_si128(x, _mm_unpackhi_epi64(x, x)));
}

/* h's rule (bbvec.h) in registers, as bbvec.c's: up[k] and down[k] are
 * the empty cells with an empty neighbour below or above along axis k,
 * shifted onto that neighbour. */
struct holes4 {
	__m256i empty, up[3], down[3];
	__m128i sh[3];
};

/* Axis k's two terms of no_holes4_of() below, for rows m. */
BBVEC2 static inline __attribute__((always_inline)) __m256i
near4(const struct holes4 *hv, __m256i m, int k)
{
	return _mm256_or_si256(
	    _mm256_andnot_si256(_mm256_sll_epi64(m, hv->sh[k]), hv->up[k]),
	    _mm256_andnot_si256(_mm256_srl_epi64(m, hv->sh[k]), hv->down[k]));
}

/* All ones in the lanes of m that leave no hole by hv's rule. (The three
 * axes written out: GCC at -O2 kept them a loop, which reloaded the masks
 * from memory at every block.) */
BBVEC2 static inline __attribute__((always_inline)) __m256i
no_holes4_of(const struct holes4 *hv, __m256i m)
{
	__m256i n = _mm256_or_si256(_mm256_or_si256(near4(hv, m, 0),
	                                            near4(hv, m, 1)),
	                            near4(hv, m, 2));
	__m256i lone = _mm256_andnot_si256(_mm256_or_si256(n, m), hv->empty);
	return _mm256_cmpeq_epi64(lone, _mm256_setzero_si256());
}

/* One block of a filter: of the rows 'm' with numbers 'id', those of the
 * lanes 'in' that do not clash with 'rv' (nor, when H, leave a hole by
 * hv's rule) go, in order, to om + k and oi + k (four lanes stored
 * whole); '*any' collects them. Returns how many. */
BBVEC2 static inline __attribute__((always_inline)) uint32_t
filter4(__m256i m, __m128i id, __m256i in, __m256i rv,
        const struct holes4 *hv, uint64_t *om, uint32_t *oi, uint32_t k,
        __m256i *any, int I, int H)
{
	__m256i ok = _mm256_and_si256(
	    in, _mm256_cmpeq_epi64(_mm256_and_si256(m, rv),
	                           _mm256_setzero_si256()));
	if (H)
		ok = _mm256_and_si256(no_holes4_of(hv, m), ok);
	unsigned keep = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(ok));
	__m256i p = _mm256_load_si256((const __m256i *)pairs_of[keep]);
	_mm256_storeu_si256((__m256i *)(om + k),
	                    _mm256_permutevar8x32_epi32(m, p));
	if (I) {
		__m128i q = _mm_load_si128((const __m128i *)lanes_of[keep]);
		_mm_storeu_si128((__m128i *)(oi + k),
		                 _mm_castps_si128(_mm_permutevar_ps(
		                     _mm_castsi128_ps(id), q)));
	}
	*any = _mm256_or_si256(*any, _mm256_and_si256(m, ok));
	return (uint32_t)__builtin_popcount(keep);
}

/*
 * Every pass below ends a range with one masked block, whether or not
 * rows are left (lanes past the end load as 0; a block of none loads
 * nothing), rather than with a loop or a test on the rows left: where a
 * range ends varies from call to call, and the mispredicted branch cost
 * more than the block (Bedlam 8 % faster in all from the filter's, 6 %
 * from cover's). Eight rows a step instead of four gained nothing
 * measurable in the filter.
 */

/* The filter, with the row numbers when I and h's rule when H (constants
 * where inlined). */
BBVEC2 static inline __attribute__((always_inline)) uint64_t
filter_i(const uint64_t *pm, const uint32_t *pi, const uint32_t *g,
         const unsigned *rem, size_t T, uint64_t rm, const struct holes4 *hv,
         uint64_t *om, uint32_t *oi, uint32_t *og, int I, int H)
{
	__m256i rv = _mm256_set1_epi64x((long long)rm);
	__m256i all = _mm256_set1_epi64x(-1);
	__m256i any = _mm256_setzero_si256();
	__m128i none = _mm_setzero_si128();
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		uint32_t i = g[t], end = g[t + 1];
		for (; end - i >= 4; i += 4)
			k += filter4(_mm256_loadu_si256((const __m256i *)(pm + i)),
			             I ? _mm_loadu_si128((const __m128i *)(pi + i))
			               : none,
			             all, rv, hv, om, oi, k, &any, I, H);
		/* 0..3 rows: the lanes past the end load as 0, which
		 * clashes with nothing: 'in' keeps them out */
		__m256i in = tail64(end - i);
		k += filter4(load_first(pm + i, end - i),
		             I ? _mm_maskload_epi32((const int *)(pi + i),
		                                    tail32(end - i))
		               : none,
		             in, rv, hv, om, oi, k, &any, I, H);
	}
	og[T] = k;
	return or4(any);
}

BBVEC2 uint64_t bbvec_avx2_filter(const uint64_t *pm, const uint32_t *pi,
                                  const uint32_t *g, const unsigned *rem,
                                  size_t T, uint64_t rm,
                                  const struct bb_holes *h, uint64_t *om,
                                  uint32_t *oi, uint32_t *og)
{
	if (h) {
		struct holes4 hv;
		hv.empty = _mm256_set1_epi64x((long long)h->empty);
		for (int k = 0; k < 3; k++) {
			hv.up[k] = _mm256_set1_epi64x((long long)bb_holes_up(h, k));
			hv.down[k] =
			    _mm256_set1_epi64x((long long)bb_holes_down(h, k));
			hv.sh[k] = _mm_cvtsi32_si128((int)h->sh[k]);
		}
		if (pi)
			return filter_i(pm, pi, g, rem, T, rm, &hv, om, oi, og,
			                1, 1);
		return filter_i(pm, NULL, g, rem, T, rm, &hv, om, NULL, og, 0,
		                1);
	}
	if (pi)
		return filter_i(pm, pi, g, rem, T, rm, NULL, om, oi, og, 1, 0);
	return filter_i(pm, NULL, g, rem, T, rm, NULL, om, NULL, og, 0, 0);
}

/* acc | the rows of m that do not clash with rv. */
BBVEC2 static inline __m256i cover4(__m256i acc, __m256i m, __m256i rv)
{
	__m256i ok = _mm256_cmpeq_epi64(_mm256_and_si256(m, rv),
	                                _mm256_setzero_si256());
	return _mm256_or_si256(acc, _mm256_and_si256(m, ok));
}

BBVEC2 bool bbvec_avx2_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                             uint64_t rm, uint64_t empty, uint64_t *any)
{
	__m256i rv = _mm256_set1_epi64x((long long)rm);
	__m256i a0 = _mm256_setzero_si256(), a1 = a0;
	uint64_t a = *any;
	while (end - i >= 16) {
		/* the check every four blocks: it costs a reduction (every
		 * eight cost 1 % more, every two 5 %) */
		for (int j = 0; j < 2; j++, i += 8) {
			a0 = cover4(a0, _mm256_loadu_si256(
			                    (const __m256i *)(pm + i)), rv);
			a1 = cover4(a1, _mm256_loadu_si256(
			                    (const __m256i *)(pm + i + 4)), rv);
		}
		if ((a | or4(_mm256_or_si256(a0, a1))) == empty) {
			*any = empty;
			return true;
		}
	}
	/* 0..15 rows: four blocks, the lanes past the end load as 0 and
	 * add nothing */
	long long r = (long long)end - i;
	a0 = cover4(a0, load_first(pm + i, r), rv);
	a1 = cover4(a1, load_after(pm, i + 4, r - 4), rv);
	a0 = cover4(a0, load_after(pm, i + 8, r - 8), rv);
	a1 = cover4(a1, load_after(pm, i + 12, r - 12), rv);
	a |= or4(_mm256_or_si256(a0, a1));
	*any = a;
	return a == empty;
}

/* bbw.c's lists of W words (2 to 8, a constant where inlined), four rows
 * a step as above: a row is kept when no word clashes with rm's (and,
 * on two words when hv is not NULL, it leaves no hole by its rule);
 * every word goes through the same lane packing. */

/* bb_holes2's rule in registers (bbvec.h): per gap its masks and the
 * shift counts d, 64 - d and d - 64 (out of 0..63 shifts everything out,
 * as VPSLLQ and VPSRLQ do). */
struct holes4w {
	__m256i empty[2];
	size_t ngaps;
	__m256i src[BB_HOLES2_GAPS][2];
	__m128i d[BB_HOLES2_GAPS], up[BB_HOLES2_GAPS], down[BB_HOLES2_GAPS];
};

/* All ones in the lanes of rows m0/m1 that leave no hole by hv's rule. A
 * cell's neighbour d up: word 1 gets word 1 << d, word 0 >> (64 - d) and
 * word 0 << (d - 64); down likewise (the shifts out of range give 0). */
BBVEC2 static inline __attribute__((always_inline)) __m256i
no_holes4w(const struct holes4w *hv, __m256i m0, __m256i m1)
{
	__m256i e0 = _mm256_andnot_si256(m0, hv->empty[0]);
	__m256i e1 = _mm256_andnot_si256(m1, hv->empty[1]);
	__m256i n0 = _mm256_setzero_si256(), n1 = n0;
	for (size_t k = 0; k < hv->ngaps; k++) {
		__m256i x0 = _mm256_and_si256(e0, hv->src[k][0]);
		__m256i x1 = _mm256_and_si256(e1, hv->src[k][1]);
		n0 = _mm256_or_si256(n0, _mm256_sll_epi64(x0, hv->d[k]));
		n1 = _mm256_or_si256(n1, _mm256_or_si256(
		    _mm256_or_si256(_mm256_sll_epi64(x1, hv->d[k]),
		                    _mm256_srl_epi64(x0, hv->up[k])),
		    _mm256_sll_epi64(x0, hv->down[k])));
		__m256i y0 = _mm256_or_si256(
		    _mm256_or_si256(_mm256_srl_epi64(e0, hv->d[k]),
		                    _mm256_sll_epi64(e1, hv->up[k])),
		    _mm256_srl_epi64(e1, hv->down[k]));
		n0 = _mm256_or_si256(n0, _mm256_and_si256(y0, hv->src[k][0]));
		n1 = _mm256_or_si256(n1, _mm256_and_si256(
		    _mm256_srl_epi64(e1, hv->d[k]), hv->src[k][1]));
	}
	__m256i lone = _mm256_or_si256(_mm256_andnot_si256(n0, e0),
	                               _mm256_andnot_si256(n1, e1));
	return _mm256_cmpeq_epi64(lone, _mm256_setzero_si256());
}

/* The same rule where the goal has at most three gaps, each under 64 (a
 * box's 1, X and XY past 64 cells: the 2x5x7 boxes), written out with
 * the word-crossing terms of gaps of 64 or more left out: GCC at -O2
 * keeps the loop above a loop and reloads every gap's masks from memory
 * at every block. Unused gaps have no cells (src 0). */
struct holes4w3 {
	__m256i empty[2], src[3][2];
	__m128i d[3], up[3]; /* d, 64 - d */
};

BBVEC2 static inline __attribute__((always_inline)) void
gap4w3(const struct holes4w3 *hv, int k, __m256i e0, __m256i e1, __m256i *n0,
       __m256i *n1)
{
	__m256i x0 = _mm256_and_si256(e0, hv->src[k][0]);
	__m256i x1 = _mm256_and_si256(e1, hv->src[k][1]);
	*n0 = _mm256_or_si256(*n0, _mm256_sll_epi64(x0, hv->d[k]));
	*n1 = _mm256_or_si256(*n1,
	                      _mm256_or_si256(_mm256_sll_epi64(x1, hv->d[k]),
	                                      _mm256_srl_epi64(x0, hv->up[k])));
	__m256i y0 = _mm256_or_si256(_mm256_srl_epi64(e0, hv->d[k]),
	                             _mm256_sll_epi64(e1, hv->up[k]));
	*n0 = _mm256_or_si256(*n0, _mm256_and_si256(y0, hv->src[k][0]));
	*n1 = _mm256_or_si256(*n1, _mm256_and_si256(
	                               _mm256_srl_epi64(e1, hv->d[k]),
	                               hv->src[k][1]));
}

BBVEC2 static inline __attribute__((always_inline)) __m256i
no_holes4w3(const struct holes4w3 *hv, __m256i m0, __m256i m1)
{
	__m256i e0 = _mm256_andnot_si256(m0, hv->empty[0]);
	__m256i e1 = _mm256_andnot_si256(m1, hv->empty[1]);
	__m256i n0 = _mm256_setzero_si256(), n1 = n0;
	gap4w3(hv, 0, e0, e1, &n0, &n1);
	gap4w3(hv, 1, e0, e1, &n0, &n1);
	gap4w3(hv, 2, e0, e1, &n0, &n1);
	__m256i lone = _mm256_or_si256(_mm256_andnot_si256(n0, e0),
	                               _mm256_andnot_si256(n1, e1));
	return _mm256_cmpeq_epi64(lone, _mm256_setzero_si256());
}

/* One block of filterw4: rows m[0..W) (the lanes 'in'), numbers 'id';
 * the rule against holes by hv, or by h3 (three gaps), or none. */
BBVEC2 static inline __attribute__((always_inline)) uint32_t
block4w(const __m256i *m, __m128i id, __m256i in, const __m256i *rv,
        const struct holes4w *hv, const struct holes4w3 *h3,
        uint64_t *const *o, uint32_t *oi, uint32_t k, __m256i *acc, int W)
{
	__m256i ok = in;
	for (int w = 0; w < W; w++)
		ok = _mm256_and_si256(ok, _mm256_cmpeq_epi64(
		                              _mm256_and_si256(m[w], rv[w]),
		                              _mm256_setzero_si256()));
	if (hv)
		ok = _mm256_and_si256(ok, no_holes4w(hv, m[0], m[1]));
	if (h3)
		ok = _mm256_and_si256(ok, no_holes4w3(h3, m[0], m[1]));
	unsigned keep = (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(ok));
	__m256i p = _mm256_load_si256((const __m256i *)pairs_of[keep]);
	for (int w = 0; w < W; w++) {
		_mm256_storeu_si256((__m256i *)(o[w] + k),
		                    _mm256_permutevar8x32_epi32(m[w], p));
		acc[w] = _mm256_or_si256(acc[w], _mm256_and_si256(m[w], ok));
	}
	__m128i q = _mm_load_si128((const __m128i *)lanes_of[keep]);
	_mm_storeu_si128((__m128i *)(oi + k),
	                 _mm_castps_si128(_mm_permutevar_ps(
	                     _mm_castsi128_ps(id), q)));
	return (uint32_t)__builtin_popcount(keep);
}

BBVEC2 static inline __attribute__((always_inline)) void
filterw4(const uint64_t *const *p, const uint32_t *pi, const uint32_t *g,
         const unsigned *rem, size_t T, const uint64_t *rm,
         const struct holes4w *hv, const struct holes4w3 *h3,
         uint64_t *const *o, uint32_t *oi, uint32_t *og, uint64_t *any,
         int W)
{
	__m256i rv[BBVEC_MAX_WORDS], acc[BBVEC_MAX_WORDS], m[BBVEC_MAX_WORDS];
	for (int w = 0; w < W; w++) {
		rv[w] = _mm256_set1_epi64x((long long)rm[w]);
		acc[w] = _mm256_setzero_si256();
	}
	__m256i all = _mm256_set1_epi64x(-1);
	uint32_t k = 0;
	for (size_t t = 0; t < T; t++) {
		og[t] = k;
		if (!rem[t])
			continue;
		uint32_t i = g[t], end = g[t + 1];
		for (; end - i >= 4; i += 4) {
			for (int w = 0; w < W; w++)
				m[w] = _mm256_loadu_si256((const __m256i *)(p[w] + i));
			k += block4w(m, _mm_loadu_si128((const __m128i *)(pi + i)),
			             all, rv, hv, h3, o, oi, k, acc, W);
		}
		/* 0..3 rows: the lanes past the end load as 0 */
		long long r = (long long)end - i;
		for (int w = 0; w < W; w++)
			m[w] = load_first(p[w] + i, r);
		k += block4w(m, _mm_maskload_epi32((const int *)(pi + i),
		                                   tail32(r)),
		             tail64(r), rv, hv, h3, o, oi, k, acc, W);
	}
	og[T] = k;
	for (int w = 0; w < W; w++)
		any[w] = or4(acc[w]);
}

BBVEC2 void bbvec_avx2_filterw(const uint64_t *const *p, const uint32_t *pi,
                               const uint32_t *g, const unsigned *rem,
                               size_t T, const uint64_t *rm,
                               const struct bb_holes2 *h, uint64_t *const *o,
                               uint32_t *oi, uint32_t *og, uint64_t *any,
                               int W)
{
	struct holes4w hv;
	struct holes4w3 h3;
	bool three = h && h->ngaps <= 3;
	for (size_t k = 0; three && k < h->ngaps; k++)
		three = h->delta[k] < 64;
	if (three) {
		for (int w = 0; w < 2; w++)
			h3.empty[w] = _mm256_set1_epi64x((long long)h->empty[w]);
		for (size_t k = 0; k < 3; k++) {
			long long d = k < h->ngaps ? h->delta[k] : 1;
			for (int w = 0; w < 2; w++)
				h3.src[k][w] = _mm256_set1_epi64x(
				    k < h->ngaps ? (long long)h->src[k][w] : 0);
			h3.d[k] = _mm_cvtsi64_si128(d);
			h3.up[k] = _mm_cvtsi64_si128(64 - d);
		}
	} else if (h) {
		for (int w = 0; w < 2; w++)
			hv.empty[w] = _mm256_set1_epi64x((long long)h->empty[w]);
		hv.ngaps = h->ngaps;
		for (size_t k = 0; k < h->ngaps; k++) {
			long long d = h->delta[k];
			for (int w = 0; w < 2; w++)
				hv.src[k][w] = _mm256_set1_epi64x(
				    (long long)h->src[k][w]);
			hv.d[k] = _mm_cvtsi64_si128(d);
			hv.up[k] = _mm_cvtsi64_si128(64 - d);
			hv.down[k] = _mm_cvtsi64_si128(d - 64);
		}
	}
	switch (W) {
	case 2:
		if (three)
			filterw4(p, pi, g, rem, T, rm, NULL, &h3, o, oi, og, any,
			         2);
		else if (h)
			filterw4(p, pi, g, rem, T, rm, &hv, NULL, o, oi, og, any,
			         2);
		else
			filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any,
			         2);
		break;
	case 3: filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any, 3); break;
	case 4: filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any, 4); break;
	case 5: filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any, 5); break;
	case 6: filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any, 6); break;
	case 7: filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any, 7); break;
	case 8: filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any, 8); break;
	default: filterw4(p, pi, g, rem, T, rm, NULL, NULL, o, oi, og, any, W); break;
	}
}

/* One block of coverw4: the rows of m[0..W) that clash with no word of
 * rv into acc. */
BBVEC2 static inline __attribute__((always_inline)) void
cover4w(__m256i *acc, const __m256i *m, const __m256i *rv, int W)
{
	__m256i ok = _mm256_set1_epi64x(-1);
	for (int w = 0; w < W; w++)
		ok = _mm256_and_si256(ok, _mm256_cmpeq_epi64(
		                              _mm256_and_si256(m[w], rv[w]),
		                              _mm256_setzero_si256()));
	for (int w = 0; w < W; w++)
		acc[w] = _mm256_or_si256(acc[w], _mm256_and_si256(m[w], ok));
}

BBVEC2 static inline __attribute__((always_inline)) bool
coverw4(const uint64_t *const *p, uint32_t i, uint32_t end,
        const uint64_t *rm, const uint64_t *empty, uint64_t *any, int W)
{
	__m256i rv[BBVEC_MAX_WORDS], acc[BBVEC_MAX_WORDS], m[BBVEC_MAX_WORDS];
	for (int w = 0; w < W; w++) {
		rv[w] = _mm256_set1_epi64x((long long)rm[w]);
		acc[w] = _mm256_setzero_si256();
	}
	while (end - i >= 8) {
		/* the check every two blocks: it costs W reductions */
		for (int j = 0; j < 2; j++, i += 4) {
			for (int w = 0; w < W; w++)
				m[w] = _mm256_loadu_si256((const __m256i *)(p[w] + i));
			cover4w(acc, m, rv, W);
		}
		bool all = true;
		for (int w = 0; w < W && all; w++)
			all = (any[w] | or4(acc[w])) == empty[w];
		if (all) {
			for (int w = 0; w < W; w++)
				any[w] = empty[w];
			return true;
		}
	}
	/* 0..7 rows: two blocks, the lanes past the end load as 0 and add
	 * nothing */
	long long r = (long long)end - i;
	for (int j = 0; j < 2; j++, r -= 4) {
		for (int w = 0; w < W; w++)
			m[w] = load_after(p[w], i + 4 * (uint32_t)j, r);
		cover4w(acc, m, rv, W);
	}
	bool all = true;
	for (int w = 0; w < W; w++) {
		any[w] |= or4(acc[w]);
		all &= any[w] == empty[w];
	}
	return all;
}

BBVEC2 bool bbvec_avx2_coverw(const uint64_t *const *p, uint32_t i,
                              uint32_t end, const uint64_t *rm,
                              const uint64_t *empty, uint64_t *any, int W)
{
	switch (W) {
	case 2: return coverw4(p, i, end, rm, empty, any, 2);
	case 3: return coverw4(p, i, end, rm, empty, any, 3);
	case 4: return coverw4(p, i, end, rm, empty, any, 4);
	case 5: return coverw4(p, i, end, rm, empty, any, 5);
	case 6: return coverw4(p, i, end, rm, empty, any, 6);
	case 7: return coverw4(p, i, end, rm, empty, any, 7);
	case 8: return coverw4(p, i, end, rm, empty, any, 8);
	default: return coverw4(p, i, end, rm, empty, any, W);
	}
}

/* Add two blocks a and b to the counters c[0..5]: a full adder takes both
 * into the ones slice and gives one carry for the rest (carry-save, as
 * bbvec.c's count): seven instructions a block instead of ten. */
BBVEC2 static inline void count8(__m256i c[6], __m256i a, __m256i b)
{
	__m256i x = _mm256_xor_si256(a, b);
	__m256i k = _mm256_or_si256(_mm256_and_si256(a, b),
	                            _mm256_and_si256(c[0], x));
	c[0] = _mm256_xor_si256(c[0], x);
	__m256i l = _mm256_and_si256(c[1], k);
	c[1] = _mm256_xor_si256(c[1], k);
	k = _mm256_and_si256(c[2], l);
	c[2] = _mm256_xor_si256(c[2], l);
	l = _mm256_and_si256(c[3], k);
	c[3] = _mm256_xor_si256(c[3], k);
	c[5] = _mm256_or_si256(c[5], _mm256_and_si256(c[4], l));
	c[4] = _mm256_xor_si256(c[4], l);
}

BBVEC2 void bbvec_avx2_count(const uint64_t *lm, uint32_t n, uint64_t out[6])
{
	__m256i c[6];
	for (int j = 0; j < 6; j++)
		c[j] = _mm256_setzero_si256();
	uint32_t i = 0;
	for (; n - i >= 8; i += 8)
		count8(c, _mm256_loadu_si256((const __m256i *)(lm + i)),
		       _mm256_loadu_si256((const __m256i *)(lm + i + 4)));
	/* 0..7 rows: the lanes past the end load as 0 and count nothing */
	long long r = (long long)n - i;
	count8(c, load_first(lm + i, r), load_after(lm, i + 4, r - 4));
	/* Fold the four lanes' counters into one: add the upper half of the
	 * lanes to the lower (ripple carry over the five slices, saturating
	 * at 32), on ever narrower registers: a 128-bit extract and scalar
	 * words are cheaper than in-register shuffles. */
	__m128i e[6], cx = _mm_setzero_si128();
	for (int j = 0; j < 5; j++) {
		__m128i lo = _mm256_castsi256_si128(c[j]);
		__m128i hi = _mm256_extracti128_si256(c[j], 1);
		__m128i x = _mm_xor_si128(lo, hi);
		e[j] = _mm_xor_si128(x, cx);
		cx = _mm_or_si128(_mm_and_si128(lo, hi), _mm_and_si128(cx, x));
	}
	e[5] = _mm_or_si128(_mm_or_si128(_mm256_castsi256_si128(c[5]),
	                                 _mm256_extracti128_si256(c[5], 1)),
	                    cx);
	uint64_t lo[6], hi[6];
	for (int j = 0; j < 6; j++) {
		lo[j] = (uint64_t)_mm_cvtsi128_si64(e[j]);
		hi[j] = (uint64_t)_mm_extract_epi64(e[j], 1);
	}
	bbvec_add_counts(lo, hi, out);
}

/* One block of a gather: the indexes i + l of the lanes l of the rows 'm'
 * that have a cell of 'cv' go, in order, to sel + k (four lanes stored
 * whole). Returns how many. */
BBVEC2 static inline unsigned gather4(__m256i m, __m256i cv, uint32_t i,
                                      uint32_t *sel, unsigned k)
{
	unsigned hit = 15u ^ (unsigned)_mm256_movemask_pd(_mm256_castsi256_pd(
	    _mm256_cmpeq_epi64(_mm256_and_si256(m, cv),
	                       _mm256_setzero_si256())));
	__m128i q = _mm_load_si128((const __m128i *)lanes_of[hit]);
	_mm_storeu_si128((__m128i *)(sel + k),
	                 _mm_add_epi32(q, _mm_set1_epi32((int)i)));
	return (unsigned)__builtin_popcount(hit);
}

BBVEC2 unsigned bbvec_avx2_gather(const uint64_t *lm, uint32_t n,
                                  uint64_t cell, uint32_t *sel)
{
	__m256i cv = _mm256_set1_epi64x((long long)cell);
	unsigned k = 0;
	uint32_t i = 0;
	for (; n - i >= 4; i += 4)
		k += gather4(_mm256_loadu_si256((const __m256i *)(lm + i)), cv, i,
		             sel, k);
	/* 0..3 rows: the lanes past the end load as 0, never a hit */
	return k + gather4(load_first(lm + i, (long long)n - i), cv, i, sel, k);
}

BBVEC2 bool bbvec_avx2_types(const uint32_t *g, const unsigned *rem,
                             const unsigned *count, size_t T,
                             unsigned *tbest, size_t *bt)
{
	unsigned best = UINT32_MAX;
	size_t at = T;
	__m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
	__m256i none = _mm256_set1_epi32(-1);
	for (size_t t0 = 0; t0 < T; t0 += 8) {
		/* the types t0.. in eight 32-bit lanes, those past T as 0 */
		__m256i in = _mm256_cmpgt_epi32(
		    _mm256_set1_epi32((int)(T - t0 < 8 ? T - t0 : 8)),
		    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
		__m256i n = _mm256_sub_epi32(
		    _mm256_maskload_epi32((const int *)(g + t0 + 1), in),
		    _mm256_maskload_epi32((const int *)(g + t0), in));
		__m256i r = _mm256_maskload_epi32((const int *)(rem + t0), in);
		/* signed compares: rows and copies are below 2^31 */
		if (!_mm256_testz_si256(_mm256_cmpgt_epi32(r, n), none))
			return false;
		__m256i single = _mm256_andnot_si256(
		    _mm256_cmpeq_epi32(r, zero),
		    _mm256_and_si256(in, _mm256_cmpeq_epi32(
		        _mm256_maskload_epi32((const int *)(count + t0), in),
		        one)));
		__m256i v = _mm256_blendv_epi8(none, n, single);
		/* the least of the eight (unsigned: none is the most) */
		__m256i m = _mm256_min_epu32(v, _mm256_permute2x128_si256(v, v, 1));
		m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0x4e));
		m = _mm256_min_epu32(m, _mm256_shuffle_epi32(m, 0xb1));
		unsigned low = (unsigned)_mm256_cvtsi256_si32(m);
		if (low < best) {
			best = low;
			unsigned eq = (unsigned)_mm256_movemask_ps(
			    _mm256_castsi256_ps(_mm256_and_si256(
			        single, _mm256_cmpeq_epi32(v, m))));
			at = t0 + (size_t)__builtin_ctz(eq);
		}
	}
	*tbest = best;
	*bt = at;
	return true;
}

/* PEXT is fast on Intel and on AMD from Zen 3 (family 19h); on AMD's
 * families 15h to 17h it is microcode whose time grows with the mask's
 * bits (up to hundreds of cycles). */
bool bbvec_pext_usable(void)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("bmi2"))
		return false;
	if (!__builtin_cpu_is("amd") || __builtin_cpu_is("amdfam19h"))
		return true;
	if (__builtin_cpu_is("amdfam15h") || __builtin_cpu_is("amdfam17h"))
		return false;
	/* every AMD core with AVX-512 is Zen 4 or later (Zen 5 is a family
	 * gcc 12 does not name) */
	if (__builtin_cpu_supports("avx512f"))
		return true;
	/* a family this compiler does not name: ask the CPU (CPUID can trap
	 * to the hypervisor, microseconds, hence the cheap tests first) */
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return false;
	unsigned family = a >> 8 & 0xf;
	if (family == 0xf)
		family += a >> 20 & 0xff;
	return family >= 0x19;
}

__attribute__((target("bmi2,popcnt"))) void
bbvec_squeeze(uint64_t *const *lm, uint32_t n, const uint64_t *e, int W,
              int W2)
{
	if (W == 2 && W2 == 1) {
		/* the common case, a goal of 65 to 128 cells */
		uint64_t *restrict m0 = lm[0];
		const uint64_t *m1 = lm[1];
		unsigned r = (unsigned)__builtin_popcountll(e[0]);
		uint64_t e0 = e[0], e1 = e[1];
		if (r == 64)
			for (uint32_t i = 0; i < n; i++)
				m0[i] = _pext_u64(m0[i], e0);
		else
			for (uint32_t i = 0; i < n; i++)
				m0[i] = _pext_u64(m0[i], e0) |
				        _pext_u64(m1[i], e1) << r;
		return;
	}
	/* Each row's squeezed cells as a stream: word w's go in from bit
	 * r[w] of the word being made, and when that word is full (done[w])
	 * it is stored as word q[w] and the rest of w's begins the next,
	 * x >> (64 - r[w]) written x >> (63 - r[w]) >> 1 as a shift by 64
	 * (r[w] 0) is undefined in C. The word made stays in a register (an
	 * array indexed by q[w] made a chain of stores and loads a row);
	 * word q[w] <= w of the row is written only after word w is read. */
	unsigned r[BB_SQUEEZE_WORDS], q[BB_SQUEEZE_WORDS], base = 0;
	bool done[BB_SQUEEZE_WORDS];
	for (int w = 0; w < W; w++) {
		unsigned c = (unsigned)__builtin_popcountll(e[w]);
		q[w] = base / 64;
		r[w] = base % 64;
		done[w] = r[w] + c >= 64;
		base += c;
	}
	bool tail = base % 64 != 0; /* the last word, W2 - 1, not yet full */
	for (uint32_t i = 0; i < n; i++) {
		uint64_t acc = 0;
		for (int w = 0; w < W; w++) {
			uint64_t x = _pext_u64(lm[w][i], e[w]);
			acc |= x << r[w];
			if (done[w]) {
				lm[q[w]][i] = acc;
				acc = x >> (63 - r[w]) >> 1;
			}
		}
		if (tail)
			lm[W2 - 1][i] = acc;
	}
}

__attribute__((target("bmi2,popcnt"))) void
bbvec_unsqueeze_cells(uint64_t x, const uint64_t e[2], uint64_t out[2])
{
	unsigned r = (unsigned)__builtin_popcountll(e[0]);
	out[0] = _pdep_u64(x, e[0]);
	out[1] = r < 64 ? _pdep_u64(x >> r, e[1]) : 0;
}

__attribute__((target("bmi2,popcnt"))) void
bbvec_unsqueeze(uint64_t *m, uint32_t n, const uint64_t e[2], unsigned off)
{
	unsigned r = (unsigned)__builtin_popcountll(e[0]);
	uint64_t e0 = e[0], e1 = e[1];
	for (uint32_t i = 0; i < n; i++) {
		uint64_t x = m[i], w0 = _pdep_u64(x, e0),
		         w1 = r < 64 ? _pdep_u64(x >> r, e1) : 0;
		m[i] = off == 0 ? w0
		     : off < 64 ? w0 >> off | w1 << (64 - off)
		                : w1 >> (off - 64);
	}
}

#else /* no AVX2 kernels on this compiler or CPU: never called */

bool bbvec_avx2_usable(void)
{
	return false;
}

uint64_t bbvec_avx2_filter(const uint64_t *pm, const uint32_t *pi,
                           const uint32_t *g, const unsigned *rem, size_t T,
                           uint64_t rm, const struct bb_holes *h,
                           uint64_t *om, uint32_t *oi, uint32_t *og)
{
	(void)pm, (void)pi, (void)g, (void)rem, (void)T, (void)rm, (void)h;
	(void)om, (void)oi, (void)og;
	return 0;
}

bool bbvec_avx2_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                      uint64_t rm, uint64_t empty, uint64_t *any)
{
	(void)pm, (void)i, (void)end, (void)rm, (void)empty, (void)any;
	return true;
}

void bbvec_avx2_filterw(const uint64_t *const *p, const uint32_t *pi,
                        const uint32_t *g, const unsigned *rem, size_t T,
                        const uint64_t *rm, const struct bb_holes2 *h,
                        uint64_t *const *o, uint32_t *oi, uint32_t *og,
                        uint64_t *any, int W)
{
	(void)p, (void)pi, (void)g, (void)rem, (void)T, (void)rm, (void)h;
	(void)o, (void)oi, (void)og, (void)any, (void)W;
}

bool bbvec_avx2_coverw(const uint64_t *const *p, uint32_t i, uint32_t end,
                       const uint64_t *rm, const uint64_t *empty,
                       uint64_t *any, int W)
{
	(void)p, (void)i, (void)end, (void)rm, (void)empty, (void)any, (void)W;
	return true;
}

void bbvec_avx2_count(const uint64_t *lm, uint32_t n, uint64_t out[6])
{
	(void)lm, (void)n;
	for (int j = 0; j < 6; j++)
		out[j] = 0;
}

unsigned bbvec_avx2_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                           uint32_t *sel)
{
	(void)lm, (void)n, (void)cell, (void)sel;
	return 0;
}

bool bbvec_avx2_types(const uint32_t *g, const unsigned *rem,
                      const unsigned *count, size_t T, unsigned *tbest,
                      size_t *bt)
{
	(void)g, (void)rem, (void)count, (void)T;
	*tbest = 0;
	*bt = 0;
	return false;
}

bool bbvec_pext_usable(void)
{
	return false;
}

void bbvec_squeeze(uint64_t *const *lm, uint32_t n, const uint64_t *e, int W,
                   int W2)
{
	(void)lm, (void)n, (void)e, (void)W, (void)W2;
}

void bbvec_unsqueeze(uint64_t *m, uint32_t n, const uint64_t e[2], unsigned off)
{
	(void)m, (void)n, (void)e, (void)off;
}

void bbvec_unsqueeze_cells(uint64_t x, const uint64_t e[2], uint64_t out[2])
{
	(void)x, (void)e;
	out[0] = out[1] = 0;
}

#endif
