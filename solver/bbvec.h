/*
 * bbvec.h: the bitboards' list kernels (bb.c, bbw.c) on AVX-512, eight
 * rows at a time (bbvec_*, bbvec.c), and on AVX2, four at a time
 * (bbvec_avx2_*, bbvec2.c). Private to solver/.
 *
 * A level's list is an array of row masks (uint64_t, one bit per cell) and
 * a parallel array of row numbers (uint32_t), grouped by type: type t's
 * rows are [g[t], g[t + 1]). bbw.c's rows of W words are W such mask
 * arrays (structure of arrays): filter and cover have versions for two
 * words and for three to BBVEC_MAX_WORDS (each width compiled to eight,
 * past it one loop), count and gather run on one word's array at a
 * time. Every kernel gives
 * exactly what the engines' portable loops give, in the same order, so a
 * search visits the same nodes whichever runs; the engines take the
 * AVX-512 set when bbvec_usable() says the CPU has the instructions
 * (x86-64 with AVX-512 F and VL), else bb.c the AVX2 set when
 * bbvec_avx2_usable(), else their own loops.
 *
 * Inputs are read only up to their end (masked loads); outputs are written
 * in blocks (of eight on AVX-512, four on AVX2), so every output array
 * needs room for 8 entries past what is kept.
 */
#ifndef CUBEGEN_BBVEC_H
#define CUBEGEN_BBVEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Whether this CPU runs the kernels below: bbvec_usable() the AVX-512
 * ones, bbvec_avx2_usable() the AVX2 ones (asked once per call; cheap). */
bool bbvec_usable(void);
bool bbvec_avx2_usable(void);

/* The most words a row of bbw.c has (its BBW_MAX_WORDS). */
#define BBVEC_MAX_WORDS 16

/* bb.c's rule against holes: its cells, in fill order, are an X x Y x Z
 * box (cell (x, y, z) at (z * Y + y) * X + x), and no row kept may leave
 * a cell of 'empty' (the cells empty once the row placed is in) with no
 * empty face neighbour: each cell of every row has a neighbour in the
 * row, so no row could fill that cell. Along axis k (x, y, z) a cell's neighbours are
 * sh[k] bits up and down; lo[k] and hi[k] are the cells with no neighbour
 * below or above (an axis one cell long: every cell, and sh[k] 0). */
struct bb_holes {
	uint64_t empty;
	uint64_t lo[3], hi[3];
	unsigned sh[3];
};

/* The face neighbours of the cells x. */
static inline uint64_t bb_near(const struct bb_holes *h, uint64_t x)
{
	uint64_t n = 0;
	for (int k = 0; k < 3; k++)
		n |= (x & ~h->hi[k]) << h->sh[k] | (x & ~h->lo[k]) >> h->sh[k];
	return n;
}

/* Whether row m leaves a cell of h->empty with no empty neighbour. */
static inline bool bb_isolates(const struct bb_holes *h, uint64_t m)
{
	uint64_t e = h->empty & ~m;
	return (e & ~bb_near(h, e)) != 0;
}

/* The same test with the row shifted instead of the empty cells, fewer
 * steps a row: a cell of e = empty & ~m has an empty neighbour above it
 * along axis k when it is in bb_holes_up(h, k) and not in m << sh[k]
 * (the bits a shift brings in at the bottom are outside it anyway),
 * below it likewise; the row leaves a hole when some cell of e has
 * neither along any axis. Computed once per list. */
static inline uint64_t bb_holes_up(const struct bb_holes *h, int k)
{
	return (h->empty & ~h->hi[k]) << h->sh[k];
}

static inline uint64_t bb_holes_down(const struct bb_holes *h, int k)
{
	return (h->empty & ~h->lo[k]) >> h->sh[k];
}

/* The rows of pm/pi (T types, groups g) of types with rem[t] != 0 that do
 * not clash with 'rm' (nor, when h is not NULL, leave a hole by its rule),
 * in order, to om/oi with their groups in og[0..T]; returns the union of
 * the rows kept. pi and oi NULL: masks only (bb.c's lists without row
 * numbers). */
uint64_t bbvec_filter(const uint64_t *pm, const uint32_t *pi,
                      const uint32_t *g, const unsigned *rem, size_t T,
                      uint64_t rm, const struct bb_holes *h, uint64_t *om,
                      uint32_t *oi, uint32_t *og);
uint64_t bbvec_avx2_filter(const uint64_t *pm, const uint32_t *pi,
                           const uint32_t *g, const unsigned *rem, size_t T,
                           uint64_t rm, const struct bb_holes *h,
                           uint64_t *om, uint32_t *oi, uint32_t *og);

/* Whether the rows of pm[i..end) that do not clash with 'rm', with
 * '*any', cover 'empty'; '*any' collects their union. May stop as soon as
 * they do ('*any' is then 'empty'). */
bool bbvec_cover(const uint64_t *pm, uint32_t i, uint32_t end, uint64_t rm,
                 uint64_t empty, uint64_t *any);
bool bbvec_avx2_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                      uint64_t rm, uint64_t empty, uint64_t *any);

/* bbw.c's rule against holes, on boards of two words: the goal's face
 * neighbours are 'ngaps' gaps, cells i and i + delta[k] being neighbours
 * for every cell i of src[k] (a box in raster order has three: 1, X and
 * XY); no row kept may leave a cell of 'empty' with no empty neighbour. */
#define BB_HOLES2_GAPS 16
struct bb_holes2 {
	uint64_t empty[2];
	size_t ngaps;
	unsigned delta[BB_HOLES2_GAPS]; /* 1 to 127 */
	uint64_t src[BB_HOLES2_GAPS][2];
};

/* The same two on rows of two words (bbw.c: 65 to 128 cells), a list
 * per word: p0/p1 word 0 and 1 of each row, o0/o1 likewise. A row clashes
 * when either word does; 'any' has a word each. The filter drops rows
 * that leave a hole by h's rule too, when h is not NULL. */
void bbvec_filter2(const uint64_t *p0, const uint64_t *p1, const uint32_t *pi,
                   const uint32_t *g, const unsigned *rem, size_t T,
                   const uint64_t rm[2], const struct bb_holes2 *h,
                   uint64_t *o0, uint64_t *o1, uint32_t *oi, uint32_t *og,
                   uint64_t any[2]);
bool bbvec_cover2(const uint64_t *p0, const uint64_t *p1, uint32_t i,
                  uint32_t end, const uint64_t rm[2], const uint64_t empty[2],
                  uint64_t any[2]);

/* The filter and the cover check on rows of W words (bbw.c: 3 to 16,
 * goals of 129 to 1024 cells), a list per word: p[w] word w of each row, o[w]
 * likewise; 'rm', 'empty' and 'any' have W words. No rule against holes
 * at these widths. */
void bbvec_filterw(const uint64_t *const *p, const uint32_t *pi,
                   const uint32_t *g, const unsigned *rem, size_t T,
                   const uint64_t *rm, uint64_t *const *o, uint32_t *oi,
                   uint32_t *og, uint64_t *any, int W);
bool bbvec_coverw(const uint64_t *const *p, uint32_t i, uint32_t end,
                  const uint64_t *rm, const uint64_t *empty, uint64_t *any,
                  int W);

/* The filter and the cover check of bbw.c on AVX2, rows of W words (2 to
 * 8), as bbvec_filter2/bbvec_filterw and bbvec_cover2/bbvec_coverw: the
 * rule against holes (h not NULL) on two words only. */
void bbvec_avx2_filterw(const uint64_t *const *p, const uint32_t *pi,
                        const uint32_t *g, const unsigned *rem, size_t T,
                        const uint64_t *rm, const struct bb_holes2 *h,
                        uint64_t *const *o, uint32_t *oi, uint32_t *og,
                        uint64_t *any, int W);
bool bbvec_avx2_coverw(const uint64_t *const *p, uint32_t i, uint32_t end,
                       const uint64_t *rm, const uint64_t *empty,
                       uint64_t *any, int W);

/* Per-cell row counts of lm[0..n), bit-sliced: bit c of out[j] is bit j
 * of cell c's count (j = 0..4), out[5] bit c set when the count is 32 or
 * more. */
void bbvec_count(const uint64_t *lm, uint32_t n, uint64_t out[6]);
void bbvec_avx2_count(const uint64_t *lm, uint32_t n, uint64_t out[6]);

/* a + b of two such counts, saturating at 32: the last step of both
 * counts' folds (ripple carry over the five slices). */
static inline void bbvec_add_counts(const uint64_t a[6], const uint64_t b[6],
                                    uint64_t out[6])
{
	uint64_t carry = 0;
	for (int j = 0; j < 5; j++) {
		uint64_t h = a[j] ^ b[j];
		out[j] = h ^ carry;
		carry = (a[j] & b[j]) | (carry & h);
	}
	out[5] = a[5] | b[5] | carry;
}

/* The indexes i < n with lm[i] & cell, in order, to sel; returns how many. */
unsigned bbvec_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                      uint32_t *sel);
unsigned bbvec_avx2_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                           uint32_t *sel);

/* Of T types with groups g (T + 1 offsets), rem[t] copies left of
 * count[t]: false when some type has fewer rows than copies left; else
 * '*bt' is the first type with one copy, left, and the fewest rows of
 * those, '*tbest' its rows (T and UINT32_MAX when there is none). */
bool bbvec_types(const uint32_t *g, const unsigned *rem,
                 const unsigned *count, size_t T, unsigned *tbest,
                 size_t *bt);
bool bbvec_avx2_types(const uint32_t *g, const unsigned *rem,
                      const unsigned *count, size_t T, unsigned *tbest,
                      size_t *bt);

/* Whether this CPU has a fast PEXT (BMI2; not AMD before Zen 3, where it
 * is microcode taking tens to hundreds of cycles): bbvec_squeeze() runs
 * only then. */
bool bbvec_pext_usable(void);
#define BB_SQUEEZE_WORDS BBVEC_MAX_WORDS /* W at most */
/* Rows i < n of W words (word w of row i at lm[w][i]), each of them
 * within the cells e (W words), renumbered as the cells of e in order
 * (e's first cell becomes cell 0), in place: word v < W2 of each row
 * takes the result, W2 = (cells of e + 63) / 64. */
void bbvec_squeeze(uint64_t *const *lm, uint32_t n, const uint64_t *e,
                   int W, int W2);
/* The way back for rows of one word squeezed from two (bbvec_squeeze()
 * with W 2, W2 1, cells e), and on to a shift: each row's cells put back
 * where they were among e's, then shifted down by 'off' (0 to 127), in
 * place; every row must lie within cells off to off + 63. */
void bbvec_unsqueeze(uint64_t *m, uint32_t n, const uint64_t e[2],
                     unsigned off);
/* One set of cells x so squeezed, put back among e's: two words. */
void bbvec_unsqueeze_cells(uint64_t x, const uint64_t e[2], uint64_t out[2]);

#endif
