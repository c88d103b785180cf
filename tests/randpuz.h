/*
 * randpuz.h: random test puzzles for differential tests, from a tiny
 * self-contained SplitMix64 stream (not the product's gen/). The same seed
 * gives the same puzzle on every machine.
 *
 * The puzzles are allocated with puz_grid_init() like the readers' output;
 * free them with puz_clear(). On failure '*out' is left empty (zeroed).
 */
#ifndef CUBEGEN_TESTS_RANDPUZ_H
#define CUBEGEN_TESTS_RANDPUZ_H

#include <stdbool.h>
#include <stdint.h>

#include "solver/puzzle.h"

/* A random small packing puzzle: a goal (a box of volume <= 24, or a random
 * connected subset of a box of at most 30 cells), cut into 2..6 random
 * connected pieces grown from random seeds, each piece written in a random
 * proper rotation. About 1 in 4 puzzles is built as a half cut into pieces
 * plus a translated copy of it, so every piece appears twice: either as one
 * entry with count 2 or as two congruent entries drawn in different
 * rotations. About 1 in 8 has one piece changed (one cell moved, volume
 * kept), which usually makes it unsolvable.
 *
 * Returns 0 when the puzzle has at least one assembly by construction,
 * 1 when a piece was changed (it may or may not be solvable), -1 when out
 * of memory. */
int randpuz_polycubes(uint64_t seed, struct puzzle *out);

/* A random n x n x n shell puzzle (3 <= n <= 64) cut into six plates by
 * the rules of DESIGN.md §1 (face cells to their face, edge cells to a
 * random one of their two faces, each corner to the piece of a random one
 * of the distinct pieces among its neighbouring edge cells). The plates
 * are written as n x n x 1 grids in a random one of their 8 flat
 * orientations, in random order, named "1".."6". The puzzle always has at
 * least one assembly; it may or may not be unique. Returns 0, or -1 on a
 * bad n or when out of memory. */
int randpuz_shell(uint64_t seed, int n, struct puzzle *out);

/* A random puzzle of 65 to 128 cells, for the 128-cell bitboard: a box
 * of sides 2 to 6 (sometimes less up to three cells, never below 65),
 * cut into connected pieces grown from random seeds, each written as it
 * lies, count 1 (congruent pieces are then interchangeable). Always has
 * an assembly. Returns 0, or -1 when out of memory. */
int randpuz_box(uint64_t seed, struct puzzle *out);
/* The same with a volume of vmin to vmax cells (8 <= vmin <= vmax <=
 * 1024; sides 2 to 8 past 128 cells, 2 to 10 past 512). With 'optional', one or two of the pieces
 * are left out and their cells made optional, and up to three cells of
 * the others too: more goal cells than the pieces have, still an
 * assembly; but a goal that grew a single piece gets no optional cell
 * (seeds the tests use do not meet that). randpuz_box() is (65, 128,
 * false). */
int randpuz_box_sized(uint64_t seed, int vmin, int vmax, bool optional,
                      struct puzzle *out);

/* A box with a cell that symmetries fix (3x3x3, 1x3x5, 2x3x3, ...: the
 * solver pins that cell when no piece has one copy) filled by copies of
 * one or two random shapes of 3 to 5 cells, at least two of each, the
 * volume exact. Often unsolvable. Returns 0, or -1 when out of memory. */
int randpuz_copies(uint64_t seed, struct puzzle *out);
/* The same on boxes of 65 to 125 cells (the wide board's), with shapes
 * of 4 to 6 cells. */
int randpuz_copies_wide(uint64_t seed, struct puzzle *out);

#endif
