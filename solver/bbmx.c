/*
 * bbmx.c: bb.c's matrix phase, on AVX-512 (bb_int.h).
 *
 * Workload: two thirds of Bedlam's 18.5 million nodes lie below a node
 * with at most 128 rows left in its list, and most of their placements
 * fail at once; there, copying a list per node (bb.c's filter) costs more
 * than the search it feeds.
 *
 * Below a node whose list has at most 128 rows, the whole subtree works
 * on that one list. A node's rows are a bit set over it ('live', one word
 * per 64 rows), and so are each cell's rows, kept byte-sliced: byte c of
 * z[8w + R] has bit i set when row 64w + 8R + i covers cell c. For all 64
 * cells at once, then:
 *   - the rows left on each cell: the byte popcounts (VPOPCNTB) of
 *     z[8w + R] and byte R of live word w, added up;
 *   - the cells some row left still covers: the OR of the same bytes.
 * Placing a row drops the rows that clash with it (VPTESTMQ on the list,
 * eight rows a test) and, when its type is used up, the type's rows: a
 * node is two words, not a list. z is the list's bit matrix transposed:
 * VPERMB gathers every 8 x 8 block of bits into one word, GF2P8AFFINEQB
 * transposes each block.
 *
 * The search is bb.c's step for step: the same cell or type branched on
 * (exact counts choose as bb.c's counters do: the fewest rows, ties to the
 * first cell in the fill order, a single-copy type when it has fewer),
 * the same rows in the same order, the same checks (a row placed must
 * leave every empty cell a row; a node, every type its copies), the same
 * nodes, dead ends and covers. So everything written is the same; the
 * tests compare it with the portable loops on every instance they solve.
 * Bedlam on one thread of an AMD Zen 4: 2.16 s instead of 2.58 (3x4x5
 * pentacubes 0.47 s instead of 0.59). Up to 64 rows take one word, up to
 * 128 two; three or four words, up to 254 rows, were slower than the
 * lists, and so was reading the rows from the list instead of a copy.
 *
 * bb.c calls bbmx_usable() and bbmx_node(); this file calls back
 * bb_spent() and bb_path_of() (bb_int.h), so the node budget and the
 * numbering of covers stay bb.c's alone. The loop is the simplest shape:
 * this file is only stubs where AVX-512 cannot be compiled, so those two
 * cannot move here.
 */
#include "solver/bb_int.h"

#include <assert.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>

#define MX __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi," \
                                 "avx512bitalg,avx512vpopcntdq,gfni,popcnt")))
#define MXI MX static inline __attribute__((always_inline))
/* The loops over a set's words below are unrolled by pragma: left as
 * loops, a set went through the stack and its reload (two 8-byte stores
 * read as one 16-byte load) stalled on store forwarding (3 %). */

bool bbmx_usable(void)
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

/* Types padded to whole vectors of eight. */
#define TPAD (BBMX_TYPES + 8)

/* One subtree's list, on the stack of bbmx_node(). */
struct mx {
	__m512i z[16];   /* byte-sliced cell -> rows (above) */
	__m512i l[16];   /* the rows' masks, eight a vector */
	uint64_t tm[2][TPAD]; /* word w of type t's rows; 0 past the types */
	const uint64_t *rows; /* the list (level d's, untouched below it) */
	const uint32_t *ids;  /* the rows' numbers when b->ids, else NULL */
	size_t ntypes;
	__mmask8 single[TPAD / 8]; /* types of one copy */
	uint8_t type[BBMX_ROWS];   /* each row's */
};

/* A set of rows: word w holds rows 64w..64w+63. */
struct rows {
	uint64_t w[2];
};

/* The rows of x that share a cell with m; W words (1 or 2, a constant
 * where inlined). */
MXI struct rows clash(const struct mx *x, uint64_t m, int W)
{
	__m512i mv = _mm512_set1_epi64((long long)m);
	struct rows k = {{0, 0}};
#pragma GCC unroll 2
	for (int w = 0; w < W; w++) {
		const __m512i *l = x->l + 8 * w;
		__mmask16 b0 = _mm512_kunpackb(_mm512_test_epi64_mask(l[1], mv),
		                               _mm512_test_epi64_mask(l[0], mv));
		__mmask16 b1 = _mm512_kunpackb(_mm512_test_epi64_mask(l[3], mv),
		                               _mm512_test_epi64_mask(l[2], mv));
		__mmask16 b2 = _mm512_kunpackb(_mm512_test_epi64_mask(l[5], mv),
		                               _mm512_test_epi64_mask(l[4], mv));
		__mmask16 b3 = _mm512_kunpackb(_mm512_test_epi64_mask(l[7], mv),
		                               _mm512_test_epi64_mask(l[6], mv));
		k.w[w] = _cvtmask64_u64(_mm512_kunpackd(_mm512_kunpackw(b3, b2),
		                                        _mm512_kunpackw(b1, b0)));
	}
	return k;
}

/* Byte R of 'word' in every byte of a vector, R = 0..7. */
MXI __m512i byte_of(__m512i word, int R)
{
	return _mm512_shuffle_epi8(word, _mm512_set1_epi8((char)R));
}

/* The cells some row of 'live' covers. */
MXI uint64_t covered_cells(const struct mx *x, struct rows live, int W)
{
	__m512i acc = _mm512_setzero_si512();
#pragma GCC unroll 2
	for (int w = 0; w < W; w++) {
		__m512i lw = _mm512_set1_epi64((long long)live.w[w]);
#pragma GCC unroll 8
		for (int R = 0; R < 8; R++)
			/* acc | (z & byte R) */
			acc = _mm512_ternarylogic_epi64(acc, x->z[8 * w + R],
			                                byte_of(lw, R), 0xf8);
	}
	return _cvtmask64_u64(_mm512_test_epi8_mask(acc, acc));
}

/* The rows of 'live' covering each cell, a byte per cell. */
MXI __m512i cell_counts(const struct mx *x, struct rows live, int W)
{
	__m512i n = _mm512_setzero_si512();
#pragma GCC unroll 2
	for (int w = 0; w < W; w++) {
		__m512i lw = _mm512_set1_epi64((long long)live.w[w]);
#pragma GCC unroll 8
		for (int R = 0; R < 8; R++)
			n = _mm512_add_epi8(n, _mm512_popcnt_epi8(_mm512_and_si512(
			                           x->z[8 * w + R], byte_of(lw, R))));
	}
	return n;
}

/* The least of 64 bytes. */
MXI unsigned min_byte(__m512i v)
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

static void node1(bb *b, const struct mx *x, size_t d, uint64_t filled,
                  struct rows live);
static void node2(bb *b, const struct mx *x, size_t d, uint64_t filled,
                  struct rows live);

/* f placements that failed their check: the nodes and dead ends bb_step()
 * and place() count one by one; false when the budget ran out first. */
static inline bool failed(bb *b, unsigned f)
{
	if (b->nodes + f <= b->limit) {
		b->nodes += f;
		b->dead += f;
		return true;
	}
	for (unsigned q = 0; q < f; q++) {
		if (b->nodes >= b->limit && bb_spent(b))
			return false;
		b->nodes++;
		b->dead++;
	}
	return true;
}

/* bb.c's place() on row i of type t, once its check has passed: 'next'
 * the rows that go with it. */
MXI void place_w(bb *b, const struct mx *x, size_t d, uint64_t filled,
                 struct rows next, uint32_t i, size_t t, int W)
{
	uint64_t m = x->rows[i];
	if (!bb_step(b, d, m, t, x->ids, i))
		return;
	uint64_t nf = filled | m;
	if (nf == b->full) {
		b->covers++;
		if (!b->visit(b->ctx, bb_path_of(b, d + 1), d + 1))
			b->stop = XC_VISITOR;
		return;
	}
	uint64_t before = b->covers;
	b->rem[t]--;
	if (W == 1)
		node1(b, x, d + 1, nf, next);
	else
		node2(b, x, d + 1, nf, next);
	b->rem[t]++;
	b->dead += b->covers == before;
}

/* bb.c's node() on the rows 'live'. */
MXI void node_w(bb *b, const struct mx *x, size_t d, uint64_t filled,
                struct rows live, int W)
{
	uint64_t empty = b->full & ~filled;
	size_t T = x->ntypes;
	/* a type with fewer rows than copies ends the branch; else the
	 * single-copy type with the fewest rows (the first of them) */
	size_t bt = T;
	unsigned tbest = UINT32_MAX;
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
		    _mm256_maskz_loadu_epi32(in, b->rem + t0));
		if (_mm512_cmplt_epu64_mask(n, r))
			return;
		__mmask8 single = _mm512_mask_cmpneq_epu64_mask(
		    x->single[t0 / 8], r, _mm512_setzero_si512());
		if (single) {
			__m512i v = _mm512_mask_mov_epi64(_mm512_set1_epi64(-1),
			                                  single, n);
			unsigned low = (unsigned)_mm512_reduce_min_epu64(v);
			if (low < tbest) {
				tbest = low;
				bt = t0 + (size_t)__builtin_ctz(_mm512_mask_cmpeq_epu64_mask(
				                single, v, _mm512_set1_epi64(low)));
			}
		}
	}
	/* the empty cells with the fewest rows (at most 128: a byte each),
	 * the first of them */
	__mmask64 em = _cvtu64_mask64(empty);
	__m512i n = _mm512_mask_blend_epi8(em, _mm512_set1_epi8((char)0xff),
	                                   cell_counts(x, live, W));
	unsigned best = min_byte(n);
	uint64_t least = _cvtmask64_u64(_mm512_mask_cmpeq_epi8_mask(
	    em, n, _mm512_set1_epi8((char)best)));
	struct rows sel;
	if (tbest < best) {
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			sel.w[w] = x->tm[w][bt] & live.w[w];
	} else {
		sel = clash(x, least & -least, W);
#pragma GCC unroll 2
		for (int w = 0; w < W; w++)
			sel.w[w] &= live.w[w];
	}
	/* Every branch's check first (bb.c's covered(): the rows that go
	 * with it leave every empty cell a row): they are independent, and
	 * in a loop without a branch on their outcome, which fails about
	 * half the time, they overlap (2 % on Bedlam). */
	struct rows pass = {{0, 0}}, fail;
	struct rows next[BBMX_ROWS];
	unsigned nb = 0;
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		for (uint64_t s = sel.w[w]; s; s &= s - 1, nb++) {
			uint32_t i = 64 * (uint32_t)w + (uint32_t)__builtin_ctzll(s);
			uint64_t m = x->rows[i];
			size_t t = x->type[i];
			/* its type's rows go too when this is its last copy */
			uint64_t last = -(uint64_t)(b->rem[t] == 1);
			struct rows k = clash(x, m, W);
#pragma GCC unroll 2
			for (int v = 0; v < W; v++)
				next[nb].w[v] = live.w[v] & ~k.w[v] &
				               ~(x->tm[v][t] & last);
			/* (a cover: nothing empty, it passes) */
			uint64_t left = b->full & ~(filled | m);
			uint64_t ok = (covered_cells(x, next[nb], W) & left) == left;
			pass.w[w] |= ok << (i & 63);
		}
	/* Then the branches in order, as bb.c takes them: a run of failed
	 * ones counts its nodes and dead ends at once. */
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		fail.w[w] = sel.w[w] & ~pass.w[w];
	unsigned j = 0; /* branches before the next */
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		for (uint64_t s = pass.w[w]; s; s &= s - 1) {
			uint64_t below = (s & -s) - 1;
			unsigned f = (unsigned)__builtin_popcountll(fail.w[w] & below);
			fail.w[w] &= ~below;
			if (w == 1) {
				f += (unsigned)__builtin_popcountll(fail.w[0]);
				fail.w[0] = 0;
			}
			if (f && !failed(b, f))
				return;
			j += f;
			uint32_t i = 64 * (uint32_t)w + (uint32_t)__builtin_ctzll(s);
			place_w(b, x, d, filled, next[j++], i, x->type[i], W);
			if (b->stop != XC_DONE)
				return;
		}
	unsigned f = 0;
#pragma GCC unroll 2
	for (int w = 0; w < W; w++)
		f += (unsigned)__builtin_popcountll(fail.w[w]);
	if (f)
		failed(b, f);
}

MX static void node1(bb *b, const struct mx *x, size_t d, uint64_t filled,
                     struct rows live)
{
	node_w(b, x, d, filled, live, 1);
}

MX static void node2(bb *b, const struct mx *x, size_t d, uint64_t filled,
                     struct rows live)
{
	node_w(b, x, d, filled, live, 2);
}

MX void bbmx_node(bb *b, size_t d, uint64_t filled)
{
	struct mx x;
	size_t T = b->ntypes;
	const uint32_t *g = b->goff + d * (T + 1);
	const uint64_t *lm = b->lm + d * b->stride;
	uint32_t n = g[T];
	assert(d > 0 && n > 0 && n <= BBMX_ROWS && T > 0 && T <= BBMX_TYPES);
	int W = n <= 64 ? 1 : 2;
	x.ntypes = T;
	x.rows = lm;
	x.ids = b->ids ? b->li + d * b->stride : NULL;
	/* The transpose. Within each vector of eight rows, VPERMB makes word
	 * j the 8 x 8 block of cells 8j..8j+7 (byte 7 - r of it: row r's
	 * byte j); GF2P8AFFINEQB of the unit bytes by that block gives byte
	 * k = the eight rows' bits of cell 8j + k (it reads the block's bytes
	 * from the last, hence the reversal). */
	static const uint8_t gather[64] = {
		56, 48, 40, 32, 24, 16, 8,  0, 57, 49, 41, 33, 25, 17, 9,  1,
		58, 50, 42, 34, 26, 18, 10, 2, 59, 51, 43, 35, 27, 19, 11, 3,
		60, 52, 44, 36, 28, 20, 12, 4, 61, 53, 45, 37, 29, 21, 13, 5,
		62, 54, 46, 38, 30, 22, 14, 6, 63, 55, 47, 39, 31, 23, 15, 7};
	__m512i idx = _mm512_loadu_si512(gather);
	__m512i unit = _mm512_set1_epi64(0x8040201008040201ll);
	__m512i iota = _mm512_setr_epi64(0, 1, 2, 3, 4, 5, 6, 7);
	for (int R = 0; R < 8 * W; R++) {
		/* rows past n load as 0: no cell, no clash */
		__mmask8 in = _mm512_cmplt_epi64_mask(
		    iota, _mm512_set1_epi64((long long)n - 8 * R));
		x.l[R] = _mm512_maskz_loadu_epi64(
		    in, (const void *)((uintptr_t)lm + 64 * (uintptr_t)R));
		x.z[R] = _mm512_gf2p8affine_epi64_epi8(
		    unit, _mm512_permutexvar_epi8(idx, x.l[R]), 0);
	}
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
			    x.tm[w] + t0,
			    _mm512_maskz_andnot_epi64(in, _mm512_sllv_epi64(ones, e),
			                              _mm512_sllv_epi64(ones, a)));
		}
		x.single[t0 / 8] = _mm256_mask_cmpeq_epu32_mask(
		    in, _mm256_maskz_loadu_epi32(in, b->count + t0),
		    _mm256_set1_epi32(1));
	}
	/* each row's type: a masked store of t over its rows (a loop of
	 * byte stores became a call to memset per type, 2 % of Bedlam) */
	for (size_t t = 0; t < T; t++) {
		__m512i v = _mm512_set1_epi8((char)t);
		_mm512_mask_storeu_epi8(x.type, x.tm[0][t], v);
		_mm512_mask_storeu_epi8(x.type + 64, x.tm[1][t], v);
	}
	struct rows live = {{n >= 64 ? ~0ull : (1ull << n) - 1,
	                     n >= 128 ? ~0ull : n > 64 ? (1ull << (n - 64)) - 1 : 0}};
	if (W == 1)
		node1(b, &x, d, filled, live);
	else
		node2(b, &x, d, filled, live);
}

#else /* no matrix phase on this compiler or CPU: never called */

bool bbmx_usable(void)
{
	return false;
}

void bbmx_node(bb *b, size_t d, uint64_t filled)
{
	(void)b, (void)d, (void)filled;
}

#endif
