/*
 * bb_int.h: the 64-cell bitboard's state, shared by bb.c (the engine and
 * its list passes) and bbmx.c (its matrix phase, on AVX-512). Private to
 * solver/.
 *
 * The two call each other: bb.c calls bbmx_usable() and bbmx_node() (a
 * subtree of few rows); bbmx.c calls back bb_spent() (the node budget)
 * and bb_path_of() (a cover's rows by number). The loop is the simplest
 * shape: the matrix phase is a stretch of bb.c's own search, and bbmx.c
 * is only stubs where AVX-512 cannot be compiled, so those cannot move.
 */
#ifndef CUBEGEN_BB_INT_H
#define CUBEGEN_BB_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/bb.h"
#include "solver/bbvec.h"
#include "solver/drops.h"

struct brow {
	uint64_t mask; /* cells, renumbered */
	uint32_t type;
	uint32_t id;   /* row number as added */
};

struct bb {
	size_t ncells;
	uint64_t full;
	unsigned rank[64];
	bool ranked;   /* rank[] is the identity: rows need no renumbering */
	size_t ntypes;
	unsigned *rem;   /* copies left per type */
	unsigned *count; /* copies per type */
	struct brow *rows;
	size_t nrows, cap, stride;
	size_t first; /* type placed at the root; ntypes if none */
	struct drops drops; /* rows left out below a root row (bb_drop_below) */
	size_t depth; /* pieces in a cover + 1: levels of lists */
	size_t tcap, dcap, gcap; /* room in rem and count, in the arrays
	                          * of depth entries below, in goff
	                          * (bb_reset()) */
	size_t ldepth;     /* the depth lm and li were made for */
	enum bb_kernels kern; /* what the list passes run on (bbvec.h) */
	bool matrix;          /* the matrix phase below small lists (bbmx.c) */
	/* the rule against holes (bb_set_grid(), bbvec.h): 'grid' its
	 * geometry when 'gridded'; 'holes' when it applies, that is also
	 * when each cell of every row has a neighbour in the row (start()
	 * checks) */
	bool gridded, holes;
	bool vouched;  /* bb_rows_connected(): start() need not check rows */
	struct bb_holes grid;

	/* search: level d's list is lm/li[d * stride ..] (masks, row
	 * numbers), type t's group in it [goff[d * (ntypes + 1) + t],
	 * goff[d * (ntypes + 1) + t + 1]). The row numbers are kept only
	 * when 'ids': else a row is known by its type and mask, and numbered
	 * only where a cover or a task is handed out (by 'byk', the rows
	 * sorted by type and mask), which spares the filter a third of its
	 * stores (Bedlam up to 3 % faster). 'ids' is set when two rows of a
	 * type have one mask. */
	uint64_t *lm;
	uint32_t *li;
	uint32_t *goff;
	bool ids;
	struct brow *byk; /* the rows by type, then mask, then number */
	uint32_t *pos0;   /* row number -> its index in level 0 */
	size_t *path;     /* the rows placed, by number (bb_path_of()) */
	uint64_t *pmask;  /* ... by mask and type, as place() puts them */
	uint32_t *ptype;
	uint64_t nodes, max_nodes;
	uint64_t limit;     /* nodes allowed so far: max_nodes, raised by
	                     * poll; UINT64_MAX for no limit */
	uint64_t covers; /* covers visited */
	uint64_t dead;   /* rows placed that led to no cover */
	xc_visit visit;
	void *ctx;
	enum xc_stop stop;
	xc_poll poll;    /* more budget (bb_set_poll); NULL: none */
	void *pctx;

	/* splitting (bb_split): node() records the path to each node at
	 * level 'cut', and place() each cover above it, instead of going
	 * on; SIZE_MAX: off */
	size_t cut;
	size_t cut_hits; /* tasks recorded at level 'cut' */
	struct xc_tasks *tasks;
	bool split_oom;

	/* Replaying (bb_solve_task): consecutive tasks share the start of
	 * their paths, so the path replayed last is kept: levels 1..rlen
	 * hold its lists, 'rem' is counted down by its rows, and per step
	 * the cells filled, the union of the next level's rows and the row's
	 * type; level 0's first 'rbl' rows of the first type are blanked
	 * (the root's rule). Dropped by bb_solve and bb_split. */
	bool level0;     /* level 0 holds every row: start() need not sort */
	/* rows added by type, then mask, each greater than the last (both
	 * ascending, no mask twice in a type): level 0 is the rows as they
	 * are, with no sorting and no checks (the block generator's prover
	 * sets up a search for every proof) */
	bool inorder;
	size_t rlen;
	uint64_t *rfill, *rany;
	uint32_t *rtype;
	uint32_t rbl;
};

/* Whether the node budget is spent (as xc.c's); asks the poll function
 * for more first. */
bool bb_spent(bb *b);
/* The rows placed, path[0..len), by number. */
const size_t *bb_path_of(bb *b, size_t len);

/* The start of place() on row i of level d (mask m, type t; 'ids' the
 * level's row numbers when the lists keep them, else NULL), shared by
 * bb.c and bbmx.c: false when the type is used up (at the root a type
 * given count 0 still has its rows: test_bb's regression) or the node
 * budget is spent; else the node is counted and the row noted in the
 * path. */
static inline bool bb_step(bb *b, size_t d, uint64_t m, size_t t,
                           const uint32_t *ids, uint32_t i)
{
	if (!b->rem[t])
		return false;
	if (b->nodes >= b->limit && bb_spent(b))
		return false;
	b->nodes++;
	b->pmask[d] = m;
	b->ptype[d] = (uint32_t)t;
	if (ids)
		b->path[d] = ids[i];
	return true;
}

/* The matrix phase (bbmx.c) takes over below a node whose list has at
 * most BBMX_ROWS rows, of at most BBMX_TYPES types. */
#define BBMX_ROWS 128
#define BBMX_TYPES 64
/* Whether this CPU runs it (AVX-512 F, BW, VL, VBMI, BITALG, VPOPCNTDQ
 * and GFNI: Intel since Ice Lake, AMD since Zen 4). */
bool bbmx_usable(void);
/* Search the subtree of level d's node (below the root, the cut off, its
 * list within the limits above, 'filled' its cells filled) as bb.c's
 * node() would: the same nodes, checks and covers in the same order. */
void bbmx_node(bb *b, size_t d, uint64_t filled);

#endif
