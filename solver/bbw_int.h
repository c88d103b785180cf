/*
 * bbw_int.h: the wide bitboard's state, shared by bbw.c (the engine and
 * its list passes) and bbwmx.c (its matrix phase on two words, AVX-512).
 * Private to solver/.
 *
 * The two call each other, as bb.c and bbmx.c do (bb_int.h): bbw.c calls
 * bbwmx_usable() and bbwmx_node(), bbwmx.c calls back bbw_spent().
 */
#ifndef CUBEGEN_BBW_INT_H
#define CUBEGEN_BBW_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/bbvec.h"
#include "solver/bbw.h"
#include "solver/drops.h"

#define MAXW BBW_MAX_WORDS

/* Adjacency gaps kept at most; beyond, no region pruning and no rule
 * against holes. */
#define MAX_GAPS BB_HOLES2_GAPS

struct brow {
	uint32_t type;
	uint32_t id;   /* row number as added */
};

struct gap {
	unsigned delta;     /* i and i + delta are neighbours ... */
	uint64_t src[MAXW]; /* ... for each i in this mask */
};

struct bbw {
	size_t ncells;
	int W;               /* words in use: (ncells + 63) / 64 */
	uint64_t full[MAXW]; /* every cell */
	uint64_t late[MAXW]; /* cells branched on last: the fillers' */
	bool has_late;
	size_t filler;       /* the fillers' type (bbw_add_filler), not
	                      * counted in nodes; ntypes if none */
	unsigned rank[BBW_MAX_CELLS];
	bool ranked;         /* rank[] is the identity: rows are kept as given */
	size_t ntypes;
	unsigned *rem;    /* copies left per type */
	unsigned *count;  /* copies per type */
	unsigned *vol;    /* cells per row of each type, 0 when they differ */
	/* Ranges (bbw_set_least): per type, the copies it may leave
	 * unplaced (count less least), and a node's scratch: the copies it
	 * must still place. NULL when every type is used up (no ranges). */
	unsigned *slack, *need;
	struct brow *rows;
	uint64_t *rowm;   /* row i's cells, renumbered: rowm[W * i ..] */
	bool shared_rows; /* rows and rowm are the original's (a clone's,
	                   * until it gets rows of its own: grow()) */
	size_t nrows, cap, stride;
	size_t first;     /* type placed at the root; ntypes if none */
	struct drops drops; /* rows left out below a root row */
	size_t depth;     /* pieces in a cover + 1: levels of lists */
	unsigned flags;   /* BBW_* prunings asked for */
	bool regions;     /* the regions pruning runs in this solve */
	bool holes;       /* the rule against holes runs in this solve */
	struct bb_holes2 hv; /* its gaps (two words); 'empty' set by filter() */
	enum bb_kernels kern; /* the list passes: BB_PORTABLE, BB_AVX2 or
	                       * BB_AVX512 (bbvec.h) */
	bool pext;        /* the CPU runs PEXT fast: asked once, with kern
	                   * (bbvec_pext_usable() may ask CPUID, which traps
	                   * to a hypervisor) */
	bool matrix;      /* the matrix phase below short lists (bbwmx.c):
	                   * asked for (BBW_MATRIX), kern BB_AVX512, and the
	                   * CPU has it */
	uint64_t mx_runs; /* subtrees the matrix phase searched */
	uint64_t mx1_runs; /* of them on one word of cells (a window's) */
	bool window;      /* the window runs in this solve (BBW_WINDOW, and
	                   * no regions) */
	bool squeeze;     /* and squeezes scattered empty cells (BBW_SQUEEZE,
	                   * a fast PEXT) */
	uint64_t win_runs; /* subtrees searched on fewer words */
	uint64_t sq_runs;  /* of them squeezed */
	/* BBW_HOLES_MORE: the rule against holes below lists of more than
	 * HOLES_MANY_ROWS rows at nodes of more than 64 empty cells, and of
	 * more than BBWMX_ROWS at nodes whose empty cells lie within 64
	 * cells in a row (filter(); 'hrule': three gaps at most). In
	 * a window shifted to one word it runs on 'wh' ('wholes'); a
	 * squeezed window (its cells 'sqcells') is shifted again where it
	 * must run (node(), reshift()). */
	bool hmore;        /* BBW_HOLES_MORE with 'holes' */
	bool hrule;
	bool wholes;
	struct bb_holes wh;
	bool squeezed;
	uint64_t sqcells[2];
	uint64_t rs_runs;  /* squeezed subtrees shifted again */
	struct gap gap[MAX_GAPS];
	size_t ngaps;
	bool gaps_overflow; /* more gaps than MAX_GAPS */

	/* search: level d's list is lm[w][lbase[d] ..] (word w of the
	 * masks) and li[lbase[d] ..] (row numbers); type t's group in it
	 * is [goff[d * (ntypes + 1) + t], goff[d * (ntypes + 1) + t + 1]).
	 * Level 0 starts at 0, and each level right after the one it is
	 * filtered from, room for that one's rows and LIST_SPARE more:
	 * the lists of a path lie one after the other, and a level touches
	 * memory for the rows it has, not for every row there is (a page
	 * first written costs more than a short list's whole pass). Levels
	 * are allocated 'stride' entries each. */
	uint64_t *lm[MAXW];
	uint32_t *li;
	size_t *lbase;    /* depth + 1 levels */
	uint32_t *goff;
	size_t *path;
	uint64_t nodes, max_nodes;
	uint64_t limit;   /* nodes allowed so far: max_nodes, raised by
	                   * poll; UINT64_MAX for no limit */
	uint64_t covers;  /* covers visited */
	uint64_t dead;    /* rows placed that led to no cover */
	xc_visit visit;
	void *ctx;
	enum xc_stop stop;
	xc_poll poll;     /* more budget (bbw_set_poll); NULL: none */
	void *pctx;

	/* Splitting (bbw_split), as bb.c: node() records the path to each
	 * node at level 'cut', and place() each cover above it, instead of
	 * going on; SIZE_MAX: off. */
	size_t cut;
	size_t cut_hits;  /* tasks recorded at level 'cut' */
	struct xc_tasks *tasks;
	bool split_oom;

	/* Replaying (bbw_solve_task), as bb.c: consecutive tasks share the
	 * start of their paths, so the path replayed last is kept: levels
	 * 1..rlen hold its lists, 'rem' is counted down by its rows, and per
	 * step the cells filled and the union of the next level's rows (W
	 * words each: rfill/rany[W * step + w]) and the row's type; level
	 * 0's first 'rbl' rows of the first type are blanked (the root's
	 * rule). Dropped by bbw_solve, bbw_split and whatever changes the
	 * rows, edges, flags or first type. */
	bool level0;      /* level 0 holds every row and 'regions' is set:
	                   * start() need not redo them */
	size_t rlen;
	uint64_t *rfill, *rany;
	uint32_t *rtype;
	uint32_t rbl;
	bool rspoilt;     /* level rlen's list was shifted by a window */
};

/* Whether the node budget is spent: more from poll, if any (xc.h). */
bool bbw_spent(bbw *b);

/* The matrix phase (bbwmx.c) takes over below a node of a two-word board,
 * or of a window of one word on it, whose list has at most BBWMX_ROWS
 * rows, of at most BBWMX_TYPES types, on plain goals (no fillers, no
 * regions pruning). */
#define BBWMX_ROWS 128
#define BBWMX_TYPES 64
/* Whether this CPU runs it (as bbmx_usable()). */
bool bbwmx_usable(void);
/* Search the subtree of level d's node (below the root, the cut off, on
 * b->W words of cells, one or two, its list within the limits above,
 * 'filled' its cells filled) as
 * bbw.c's node() would: the same nodes, checks and covers in the same
 * order. */
void bbwmx_node(bbw *b, size_t d, const uint64_t *filled);

#endif
