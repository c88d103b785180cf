/*
 * gen_int.h: what the plate generator's files share (count.c, find.c,
 * climb.c); not part of gen.h's API.
 */
#ifndef CUBEGEN_GEN_INT_H
#define CUBEGEN_GEN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "gen/gen.h"

/* Whether 'g' has exactly one solution: a complete search that found one
 * (it stops at a second, enough for "no"). Adds its nodes to '*nodes'. A
 * SOLVE_* status; '*yes' written on SOLVE_OK. */
int gen_unique(const struct gen_puzzle *g, bool *yes, uint64_t *nodes);

/* The score of a unique candidate 'g' (its plate walk is complete and finds
 * the assembly, so there always is one). A SOLVE_* status. */
int gen_score(const struct gen_puzzle *g, double *d);

#endif
