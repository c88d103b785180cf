/*
 * blk_int.h: what the block generator's files share (blocks.c, lock.c);
 * not part of blocks.h's API.
 */
#ifndef CUBEGEN_BLK_INT_H
#define CUBEGEN_BLK_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "gen/blocks.h"
#include "solver/disasm.h"
#include "solver/prove.h"

/* The proofs a search has run (blocks.c), by the dissection's labels
 * (entry e: labels[e * n ...], a piece per goal cell) and their answers:
 * a cut drawn again (a small piece has few ways to be cut, and a failed
 * cut is drawn anew up to BLK_TRIES times) is answered without a
 * search. */
struct blk_memo {
	unsigned char *labels;
	uint64_t *hash;
	unsigned char *answer; /* unique() of entry e: 0 or 1, 2 a scout
	                        * cut short (blocks.h) */
	size_t len, cap;
	uint32_t *tab;         /* entry + 1, 0 empty; tmask + 1 slots */
	size_t tmask;
};

/* One search: the goal's cells and the dissection being refined. */
struct blk_work {
	const struct grid *goal;
	int n;        /* goal cells, numbered in grid order */
	size_t *at;   /* cell -> grid index */
	int (*nb)[6]; /* cell -> its face neighbours' numbers, -1 none */
	int (*eb)[12]; /* cell -> the goal cells sharing an edge with it, not
	                * a face (-1 none) */
	uint64_t *nbm; /* n <= 64: cell -> its face neighbours, a mask;
	                * else NULL (and cuts are tree_cut()s) */
	int *pc;      /* cell -> piece; -1 a hollow (lock.c) */
	int np;       /* pieces so far */
	int m[BLK_MAX_PIECES];    /* how many pieces each is planned to become */
	int size[BLK_MAX_PIECES]; /* cells */
	bool final[BLK_MAX_PIECES]; /* a piece that is not cut again */
	bool hollow;  /* inner cells may stay empty (level_min > 1): the
	               * written goal has them optional */
	int *list, *queue; /* scratch, n each */
	int *walk, *up;    /* scratch, n each: tree_cut()'s walks and tree */
	unsigned char *front; /* scratch, n */
	unsigned char *labels; /* scratch, goal-grid sized */
	disasm *dis;
	prove *pv; /* the uniqueness proofs, set up once for the goal */
	struct blk_memo memo;
	struct blk_found *info;
	uint64_t grown_proofs; /* proofs made on the grown route so far */
};

/* Whether the cells of piece i, of which 'start' is one, are
 * face-connected ('want' of them). */
bool blk_connected(struct blk_work *w, int i, int start, int want);

/* Piece i's cells turned by proper symmetry 'sym' and moved to the
 * origin, as a new grid. false: out of memory. */
bool blk_piece_grid(const struct blk_work *w, int i, int sym, struct grid *out);

/* The grown route's dissection (blkgrow.c, blocks.h's stream step 2c):
 * k pieces grown at once into w->pc, w->np = k, w->size and w->m set.
 * 1 made, 0 a failed try (a free cell no piece may take, or a piece
 * left smaller than cells_min). Uses w->list, w->queue and w->front. */
int blk_grow(struct blk_work *w, struct rng *r, const struct blk_spec *s,
             int k);

/* The exhaustive route (blkset.c, blocks.h), the feasible piece counts
 * ks[0..nk-1]: 1 taken (every set tried; w->info->found says whether a
 * puzzle was, its dissection then in w->pc and w->np and its disassembly
 * in '*d', which the caller owns), 0 not taken (too many shapes or sets;
 * nothing drawn from 'r'), -1 out of memory. */
int blk_sets(struct blk_work *w, struct rng *r, const struct blk_spec *s,
             const int *ks, int nk, struct dis_result *d);

/* The shapes of the exhaustive and drawn routes (blkset.c), by size:
 * cells_min..cells_max, each size's shapes in canonical order. */
struct blk_shapes {
	struct shape *s;
	size_t n, cap;
	/* shape i lies in the goal on the goal cells at[i * BLK_SETS_CELLS
	 * ...] (its first s[i].n of them) */
	int *at;
};

/* The set's one filling, in w->pc (k pieces, w->np == k): 1 when its
 * pieces pass the caller's tests and it comes apart ('*d' its
 * disassembly), 0 not, -1 out of memory (blkset.c). */
int blk_set_apart(struct blk_work *w, const struct blk_spec *s, int k,
                  struct dis_result *d);

/* The drawn route (blkdraw.c, blocks.h) over the shapes 'h', the feasible
 * piece counts ks[0..nk-1]: sets drawn from 'r' and counted until one is
 * a puzzle (w->info->found; its dissection in w->pc and w->np, its
 * disassembly in '*d') or s->max_attempts were drawn, on s->threads
 * threads. 1 done, -1 out of memory. */
int blk_draw_sets(struct blk_work *w, struct rng *r, const struct blk_spec *s,
                  const struct blk_shapes *h, const int *ks, int nk,
                  struct dis_result *d);

/* Whether goal cell c is inner: its six face neighbours are goal cells. */
bool blk_inner(const struct blk_work *w, int c);

/* A puzzle of the goal (with w->hollow its inner cells optional) and k
 * pieces "1".."k", one copy each, their grids empty for the caller to
 * fill (puz_clear() frees it whole at any point). false: out of memory. */
bool blk_puzzle_frame(const struct blk_work *w, int k, struct puzzle *out);

/* The dissection as a puzzle: piece i+1 is piece a[i] turned by the
 * rot[i]-th proper rotation (a, rot NULL: piece i unturned); with
 * w->hollow the goal's inner cells are optional. false: out of memory. */
bool blk_make_puzzle(const struct blk_work *w, const int *a, const int *rot,
                     struct puzzle *out);

/* Piece i, made final: whether it is congruent to no other final piece
 * (the prover's placements, which the next proof uses again) and passes
 * the caller's tests. 1 yes, 0 no, -1 out of memory. */
int blk_final_ok(struct blk_work *w, const struct blk_spec *s, int i);
/* Whether piece i has a rotation with no overhanging cell
 * (poly_overhangs()): 1 yes, 0 no, -1 out of memory. */
int blk_lies_flat(const struct blk_work *w, int i);
void blk_drop_final(struct blk_work *w, int i);

/* The interlocking climb (lock.c) from the dissection in 'w' (every
 * piece final): cells change hands, or inner cells are left hollow, while
 * the assembly still comes apart and its first level number does not
 * drop, until it reaches s->level_min with every rule of blocks.h kept
 * (uniqueness proved with the inner cells optional). 1 found, with '*d'
 * its disassembly (the caller clears it), 0 not within BLK_LOCK_STEPS
 * draws, -1 out of memory. */
int blk_lock(struct blk_work *w, struct rng *r, const struct blk_spec *s,
             struct dis_result *d);

#endif
