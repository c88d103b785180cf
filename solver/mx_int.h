/*
 * mx_int.h: the matrix phase's pieces, shared by the 64-cell board's
 * (bbmx.c) and the wide board's on two words (bbwmx.c). Private to
 * solver/; included only where AVX-512 is compiled (MX_AVAILABLE).
 *
 * A subtree below a node of at most MX_ROWS rows works on that one list.
 * A node's rows are a bit set over it (struct rows: word w holds rows
 * 64w..64w+63), and each cell's rows are kept byte-sliced: for a word of
 * 64 cells, byte c of z[8w + R] has bit i set when row 64w + 8R + i covers
 * cell c. For all 64 cells of that word at once, then:
 *   - the rows left on each cell: the byte popcounts (VPOPCNTB) of
 *     z[8w + R] and byte R of live word w, added up (mx_counts);
 *   - the cells some row left still covers: the OR of the same bytes
 *     (mx_covered).
 * z is the list's bit matrix transposed (mx_load): VPERMB gathers every
 * 8 x 8 block of bits into one word, GF2P8AFFINEQB transposes each block.
 * A row of two words of cells has two such matrices, one per word.
 */
#ifndef CUBEGEN_MX_INT_H
#define CUBEGEN_MX_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MX_AVAILABLE 1

#include <immintrin.h>

#define MX __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi," \
                                 "avx512bitalg,avx512vpopcntdq,gfni,popcnt")))
#define MXI MX static inline __attribute__((always_inline))
/* The loops over a set's words are unrolled by pragma: left as loops, a
 * set went through the stack and its reload (two 8-byte stores read as one
 * 16-byte load) stalled on store forwarding (3 %). */

/* At most this many rows (two words of rows) and types. */
#define MX_ROWS 128
#define MX_TYPES 64
/* Types padded to whole vectors of eight. */
#define MX_TPAD (MX_TYPES + 8)

/* Whether this CPU has what the matrix phase needs (AVX-512 F, BW, VL,
 * VBMI, BITALG, VPOPCNTDQ and GFNI: Intel since Ice Lake, AMD since Zen
 * 4). */
static inline bool mx_usable(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512f") &&
	       __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl") &&
	       __builtin_cpu_supports("avx512vbmi") &&
	       __builtin_cpu_supports("avx512bitalg") &&
	       __builtin_cpu_supports("avx512vpopcntdq") &&
	       __builtin_cpu_supports("gfni") &&
	       __builtin_cpu_supports("popcnt");
}

/* A set of rows: word w holds rows 64w..64w+63. */
struct rows {
	uint64_t w[2];
};

/* The rows of a set of types, per type: word w of type t's rows in
 * tm[w][t] (0 past the types), and the types of one copy. */
struct mx_types {
	uint64_t tm[2][MX_TPAD];
	__mmask8 single[MX_TPAD / 8];
};

/* The rows whose cells l[0..8W) (one word of cells, eight rows a vector)
 * meet m; W words of rows (1 or 2, a constant where inlined). */
MXI struct rows mx_clash(const __m512i *l, uint64_t m, int W)
{
	__m512i mv = _mm512_set1_epi64((long long)m);
	struct rows k = {{0, 0}};
#pragma GCC unroll 2
	for (int w = 0; w < W; w++) {
		const __m512i *v = l + 8 * w;
		__mmask16 b0 = _mm512_kunpackb(_mm512_test_epi64_mask(v[1], mv),
		                               _mm512_test_epi64_mask(v[0], mv));
		__mmask16 b1 = _mm512_kunpackb(_mm512_test_epi64_mask(v[3], mv),
		                               _mm512_test_epi64_mask(v[2], mv));
		__mmask16 b2 = _mm512_kunpackb(_mm512_test_epi64_mask(v[5], mv),
		                               _mm512_test_epi64_mask(v[4], mv));
		__mmask16 b3 = _mm512_kunpackb(_mm512_test_epi64_mask(v[7], mv),
		                               _mm512_test_epi64_mask(v[6], mv));
		k.w[w] = _cvtmask64_u64(_mm512_kunpackd(_mm512_kunpackw(b3, b2),
		                                        _mm512_kunpackw(b1, b0)));
	}
	return k;
}

/* Byte R of 'word' in every byte of a vector, R = 0..7. */
MXI __m512i mx_byte_of(__m512i word, int R)
{
	return _mm512_shuffle_epi8(word, _mm512_set1_epi8((char)R));
}

/* The cells (of z's word) some row of 'live' covers. */
MXI uint64_t mx_covered(const __m512i *z, struct rows live, int W)
{
	__m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 2
	for (int w = 0; w < W; w++) {
		__m512i lw = _mm512_set1_epi64((long long)live.w[w]);
#pragma GCC unroll 8
		for (int R = 0; R < 8; R++)
			/* acc | (z & byte R) */
			acc = _mm512_ternarylogic_epi64(acc, z[8 * w + R],
			                                mx_byte_of(lw, R), 0xf8);
	}
	return _cvtmask64_u64(_mm512_test_epi8_mask(acc, acc));
}

/* The rows of 'live' covering each cell (of z's word), a byte per cell. */
MXI __m512i mx_counts(const __m512i *z, struct rows live, int W)
{
	__m512i n = _mm512_setzero_si512();
#pragma GCC unroll 2
	for (int w = 0; w < W; w++) {
		__m512i lw = _mm512_set1_epi64((long long)live.w[w]);
#pragma GCC unroll 8
		for (int R = 0; R < 8; R++)
			n = _mm512_add_epi8(n, _mm512_popcnt_epi8(_mm512_and_si512(
			                           z[8 * w + R], mx_byte_of(lw, R))));
	}
	return n;
}

/* The least of 64 bytes. */
MXI unsigned mx_min_byte(__m512i v)
{
	__m256i a = _mm256_min_epu8(_mm512_castsi512_si256(v),
	                            _mm512_extracti64x4_epi64(v, 1));
	__m128i b = _mm_min_epu8(_mm256_castsi256_si128(a),
	                         _mm256_extracti128_si256(a, 1));
	b = _mm_min_epu8(b, _mm_srli_si128(b, 8));
	b = _mm_min_epu8(b, _mm_srli_si128(b, 4));
	b = _mm_min_epu8(b, _mm_srli_si128(b, 2));
	b = _mm_min_epu8(b, _mm_srli_si128(b, 1));
	return (unsigned)_mm_cvtsi128_si32(b) & 0xff;
}

/* One word of cells of n rows (n <= 8W) into l[0..8W) and its transpose
 * into z[0..8W). Within each vector of eight rows, VPERMB makes word j the
 * 8 x 8 block of cells 8j..8j+7 (byte 7 - r of it: row r's byte j);
 * GF2P8AFFINEQB of the unit bytes by that block gives byte k = the eight
 * rows' bits of cell 8j + k (it reads the block's bytes from the last,
 * hence the reversal). Rows past n load as 0: no cell, no clash. */
MXI void mx_load(const uint64_t *lm, uint32_t n, int W, __m512i *l,
                 __m512i *z)
{
	static const uint8_t gather[64] = {
		56, 48, 40, 32, 24, 16, 8,  0, 57, 49, 41, 33, 25, 17, 9,  1,
		58, 50, 42, 34, 26, 18, 10, 2, 59, 51, 43, 35, 27, 19, 11, 3,
		60, 52, 44, 36, 28, 20, 12, 4, 61, 53, 45, 37, 29, 21, 13, 5,
		62, 54, 46, 38, 30, 22, 14, 6, 63, 55, 47, 39, 31, 23, 15, 7};
	__m512i idx = _mm512_loadu_si512(gather);
	__m512i unit = _mm512_set1_epi64(0x8040201008040201ll);
	__m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
	for (int R = 0; R < 8 * W; R++) {
		__mmask8 in = _mm512_cmplt_epi64_mask(
		    iota, _mm512_set1_epi64((long long)n - 8 * R));
		l[R] = _mm512_maskz_loadu_epi64(
		    in, (const void *)((uintptr_t)lm + 64 * (uintptr_t)R));
		z[R] = _mm512_gf2p8affine_epi64_epi8(
		    unit, _mm512_permutexvar_epi8(idx, l[R]), 0);
	}
}

/* The types of a list of T types with groups g (T + 1 offsets) and copies
 * count[], into '*x', and each row's type into type[0..128). */
MXI void mx_types_of(const uint32_t *g, size_t T, const unsigned *count,
                     struct mx_types *x, uint8_t *type)
{
	/* type t's rows [g[t], g[t + 1]) as bits of each word */
	__m512i ones = _mm512_set1_epi64(-1), zero = _mm512_setzero_si512();
	for (size_t t0 = 0; t0 < T; t0 += 8) {
		__mmask8 in = T - t0 >= 8 ? (__mmask8)0xff
		                          : (__mmask8)((1u << (T - t0)) - 1);
		__m512i lo = _mm512_cvtepu32_epi64(
		    _mm256_maskz_loadu_epi32(in, g + t0));
		__m512i hi = _mm512_cvtepu32_epi64(
		    _mm256_maskz_loadu_epi32(in, g + t0 + 1));
		for (int w = 0; w < 2; w++) {
			__m512i base = _mm512_set1_epi64(64 * w);
			__m512i a = _mm512_max_epi64(_mm512_sub_epi64(lo, base), zero);
			__m512i e = _mm512_max_epi64(_mm512_sub_epi64(hi, base), zero);
			/* bits a..e-1: shifts by 64 or more give 0 */
			_mm512_storeu_si512(
			    x->tm[w] + t0,
			    _mm512_maskz_andnot_epi64(in, _mm512_sllv_epi64(ones, e),
			                              _mm512_sllv_epi64(ones, a)));
		}
		x->single[t0 / 8] = _mm256_mask_cmpeq_epu32_mask(
		    in, _mm256_maskz_loadu_epi32(in, count + t0),
		    _mm256_set1_epi32(1));
	}
	/* each row's type: a masked store of t over its rows (a loop of
	 * byte stores became a call to memset per type, 2 % of Bedlam) */
	for (size_t t = 0; t < T; t++) {
		__m512i v = _mm512_set1_epi8((char)t);
		_mm512_mask_storeu_epi8(type, x->tm[0][t], v);
		_mm512_mask_storeu_epi8(type + 64, x->tm[1][t], v);
	}
}

/* The engines' type check on the rows 'live' (rem[t] copies left of
 * type t): false when some type has fewer rows than copies; else '*bt'
 * the single-copy type with copies left and the fewest rows (the first
 * of them), '*tbest' its rows, or T and UINT32_MAX when there is none. */
MXI bool mx_check_types(const struct mx_types *x, const unsigned *rem,
                        size_t T, struct rows live, int W, unsigned *tbest,
                        size_t *bt)
{
	*bt = T;
	*tbest = UINT32_MAX;
	for (size_t t0 = 0; t0 < T; t0 += 8) {
		__m512i n = _mm512_setzero_si512();
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			n = _mm512_add_epi64(n, _mm512_popcnt_epi64(_mm512_and_si512(
			        _mm512_loadu_si512(x->tm[w] + t0),
			        _mm512_set1_epi64((long long)live.w[w]))));
		__mmask8 in = T - t0 >= 8 ? (__mmask8)0xff
		                          : (__mmask8)((1u << (T - t0)) - 1);
		__m512i r = _mm512_cvtepu32_epi64(
		    _mm256_maskz_loadu_epi32(in, rem + t0));
		if (_mm512_cmplt_epu64_mask(n, r))
			return false;
		__mmask8 single = _mm512_mask_cmpneq_epu64_mask(
		    x->single[t0 / 8], r, _mm512_setzero_si512());
		if (single) {
			__m512i v = _mm512_mask_mov_epi64(_mm512_set1_epi64(-1),
			                                  single, n);
			unsigned low = (unsigned)_mm512_reduce_min_epu64(v);
			if (low < *tbest) {
				*tbest = low;
				*bt = t0 + (size_t)__builtin_ctz(_mm512_mask_cmpeq_epu64_mask(
				                single, v, _mm512_set1_epi64(low)));
			}
		}
	}
	return true;
}

/* The rows that go with row i (type t, cells 'k' the rows it clashes
 * with) among 'live': its type's rows go too when this is its last copy. */
MXI struct rows mx_next(const struct mx_types *x, struct rows live,
                        struct rows k, size_t t, bool last, int W)
{
	struct rows n = {{0, 0}};
	uint64_t drop = -(uint64_t)last;
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		n.w[w] = live.w[w] & ~k.w[w] & ~(x->tm[w][t] & drop);
	return n;
}

/* The branches of a node in order, once each branch's check is known:
 * the engines place those that passed, and count the failed ones
 * before each at once (mx_walk_next()). */
struct mx_walk {
	struct rows pass, fail; /* left to walk */
	unsigned j;             /* branches walked */
};

MXI struct mx_walk mx_walk_of(struct rows sel, struct rows pass, int W)
{
	struct mx_walk k = {pass, {{0, 0}}, 0};
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		k.fail.w[w] = sel.w[w] & ~pass.w[w];
	return k;
}

/* The next branch that passed: '*i' its row, '*j' its place among the
 * branches, '*f' the failed ones since the one before. false when none is
 * left; '*f' is then the failed ones after the last. */
MXI bool mx_walk_next(struct mx_walk *k, int W, uint32_t *i, unsigned *j,
                      unsigned *f)
{
	unsigned n = 0;
#pragma GCC unroll 2
	for (int w = 0; w < W; w++) {
		uint64_t s = k->pass.w[w];
		if (!s) {
			/* no branch of this word left to take: its failed ones
			 * come before any of the next word's */
			n += (unsigned)__builtin_popcountll(k->fail.w[w]);
			k->fail.w[w] = 0;
			continue;
		}
		uint64_t below = (s & -s) - 1;
		n += (unsigned)__builtin_popcountll(k->fail.w[w] & below);
		k->fail.w[w] &= ~below;
		k->pass.w[w] = s & (s - 1);
		*i = 64 * (uint32_t)w + (uint32_t)__builtin_ctzll(s);
		*f = n;
		*j = k->j + n;
		k->j += n + 1;
		return true;
	}
	*f = n;
	return false;
}

/* All the rows of a list of n (<= 128). */
static inline struct rows mx_all(uint32_t n)
{
	struct rows r = {{n >= 64 ? ~0ull : (1ull << n) - 1,
	                  n >= 128 ? ~0ull : n > 64 ? (1ull << (n - 64)) - 1 : 0}};
	return r;
}

#endif /* x86-64 with GCC or Clang */

#endif
