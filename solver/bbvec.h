/*
 * bbvec.h: the 64-cell bitboard's list kernels (bb.c) on AVX-512, eight
 * rows at a time (bbvec.c), and on AVX2, four at a time (bbvec2.c).
 * Private to solver/.
 *
 * A level's list is an array of row masks (uint64_t, one bit per cell) and
 * a parallel array of row numbers (uint32_t), grouped by type: type t's
 * rows are [g[t], g[t + 1]). Every kernel gives exactly what bb.c's
 * portable loop gives, in the same order, so a search visits the same
 * nodes whichever runs; bb.c takes the AVX-512 set when
 * bbvec_avx512_usable() says the CPU has the instructions (x86-64 with
 * AVX-512 F and VL), else the AVX2 set when bbvec_avx2_usable(), else its
 * own loops.
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

/* Whether this CPU runs the kernels below (asked once per call; cheap). */
bool bbvec_avx512_usable(void);
bool bbvec_avx2_usable(void);

/* The rows of pm/pi (T types, groups g) of types with rem[t] != 0 that do
 * not clash with 'rm', in order, to om/oi with their groups in og[0..T];
 * returns the union of the rows kept. */
uint64_t bbvec_avx512_filter(const uint64_t *pm, const uint32_t *pi,
                             const uint32_t *g, const unsigned *rem,
                             size_t T, uint64_t rm, uint64_t *om,
                             uint32_t *oi, uint32_t *og);
uint64_t bbvec_avx2_filter(const uint64_t *pm, const uint32_t *pi,
                           const uint32_t *g, const unsigned *rem, size_t T,
                           uint64_t rm, uint64_t *om, uint32_t *oi,
                           uint32_t *og);

/* Whether the rows of pm[i..end) that do not clash with 'rm', with
 * '*any', cover 'empty'; '*any' collects their union. May stop as soon as
 * they do ('*any' is then 'empty'). */
bool bbvec_avx512_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                        uint64_t rm, uint64_t empty, uint64_t *any);
bool bbvec_avx2_cover(const uint64_t *pm, uint32_t i, uint32_t end,
                      uint64_t rm, uint64_t empty, uint64_t *any);

/* Per-cell row counts of lm[0..n), bit-sliced: bit c of out[j] is bit j
 * of cell c's count (j = 0..4), out[5] bit c set when the count is 32 or
 * more. */
void bbvec_avx512_count(const uint64_t *lm, uint32_t n, uint64_t out[6]);
void bbvec_avx2_count(const uint64_t *lm, uint32_t n, uint64_t out[6]);

/* The indexes i < n with lm[i] & cell, in order, to sel; returns how many. */
unsigned bbvec_avx512_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                             uint32_t *sel);
unsigned bbvec_avx2_gather(const uint64_t *lm, uint32_t n, uint64_t cell,
                           uint32_t *sel);

#endif
