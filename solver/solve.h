/*
 * solve.h: solve and count a polycube packing puzzle (DESIGN.md §2).
 *
 * An assembly places every piece (one of the 24 proper rotations plus a
 * translation) so the pieces cover the goal exactly; identical pieces are
 * interchangeable. 'assemblies' counts them with the goal held fixed.
 * 'solutions' counts them up to the goal's symmetry group G: the proper
 * rotations mapping the goal onto itself, plus the improper ones when the
 * piece multiset is mirror-closed. With ranges of copies and a multiset
 * that is not, an improper symmetry counts for each assembly whose mirror
 * image is an assembly too (mirror_some; solve.c says how).
 *
 * How: every placement of every piece type becomes a row of an exact cover
 * problem (xc.h). To avoid finding each solution |G| times, one piece type P
 * with a single copy is pinned: only one placement per orbit of P's
 * placements under H = {g in G : g maps type P to itself} is kept. A cover
 * y with P at representative r then stands for |H r| assemblies and adds
 * |H r| * |Stab_G(y)| / |G| solutions; summed over all covers found this is
 * exact (the proof is in solve.c). Six-plate cube shells take a faster
 * exact path (shell.c) with the same counts.
 *
 * Threads and shards (solver/tasks.c): with solve_opts.threads >= 1 the
 * search is split at its top into SOLVE_TASKS or more disjoint tasks, in
 * the engine's own order and the same for any thread count, that a pool
 * of threads (the caller's among them) takes in turn; each thread keeps
 * its own sums, added exactly at the end. A shard (shard_count K >= 1)
 * searches only the tasks t with t mod K == shard_index; its result
 * carries the un-divided 'numerator', so that K shards' numerators,
 * assemblies and nodes add up to one whole search's (cubegen merge).
 *
 * Ownership: solve_result owns 'first'; solve_result_clear() frees it.
 * Errors: SOLVE_ENOMEM, SOLVE_ETOOBIG (more rows or nodes than fit in
 * memory limits), SOLVE_EOVERFLOW, SOLVE_ERENAMES. A search stopped by
 * a limit is a result (complete == false), not an error.
 */
#ifndef CUBEGEN_SOLVE_H
#define CUBEGEN_SOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "solver/disasm.h"
#include "solver/puzzle.h"

enum solve_status { SOLVE_OK = 0, SOLVE_ENOMEM, SOLVE_ETOOBIG,
                    SOLVE_EOVERFLOW, /* a count exceeds 2^64 - 1 */
                    SOLVE_ERENAMES   /* rename_colours: more renamings
                                      * to try than SOLVE_MAX_RENAMES */ };

/* Placements in one exact cover problem, at most, and cells over all
 * placements: together they bound the solver's memory to about 1 GB
 * whatever a file asks (SOLVE_ETOOBIG beyond). */
#define SOLVE_MAX_ROWS 4000000u
#define SOLVE_MAX_ROW_CELLS 40000000u
/* With rename_colours, the steps of the search for the renamings of
 * colours that go with each symmetry, at most (SOLVE_ERENAMES beyond): a
 * puzzle of many colours that look alike could otherwise ask for up to
 * 26! of them (the nine-colour cube needs under 100,000). */
#define SOLVE_MAX_RENAMES 200000u

/* Tasks a split search is cut into, at least (when the tree has that
 * many nodes near its top): tens per core on machines of up to a hundred
 * cores, and enough to balance shards. Part of what a shard's result
 * means: changing it changes every task list. */
#define SOLVE_TASKS 1000u
/* A search of at most this many nodes is split in one round over its
 * whole tree, its covers the tasks (tasks.c); a larger one, once that
 * round stops, by depth. Splitting by depth repeats the top of the tree
 * once a depth until SOLVE_TASKS subtrees are open; a tree that never
 * opens that many was walked to its bottom that way, each round
 * repeating the nodes nearest the root, where the lists are longest (a
 * 216-cell block puzzle of 3,286 nodes: 0.75 s against 0.06 s in one
 * search). A larger tree wastes the round, at most this many nodes.
 * Part of what a shard's result means, as SOLVE_TASKS. */
#define SOLVE_SPLIT_WHOLE ((uint64_t)1 << 13)
/* Threads a search may run on, at most. */
#define SOLVE_MAX_THREADS 512u

/* What a split search has done so far (solve_opts.progress). */
struct solve_progress {
	uint64_t tasks_done; /* tasks finished */
	uint64_t tasks;      /* this run's tasks (a shard's own) */
	uint64_t solutions;  /* found so far: numerator / divisor (a shard's
	                      * share), a lower bound */
};

struct solve_opts {
	uint64_t max_solutions; /* stop once this many are found; 0: no limit */
	uint64_t max_nodes;     /* search nodes at most; 0: no limit */
	bool generic;           /* never take the shell fast path (tests) */
	enum solve_engine {
		SOLVE_AUTO,     /* bitboard up to 1024 goal cells (bb.h up
		                 * to 64, bbw.h beyond, and for optional
		                 * cells), else DLX */
		SOLVE_DLX,      /* dancing links always (tests) */
		SOLVE_BITS,     /* 64-cell bitboard when it fits, else DLX
		                 * (tests) */
		SOLVE_WIDE,     /* the wide bitboard (bbw.h) when it fits,
		                 * else DLX (tests) */
	} engine;
	bool keep_first;        /* fill solve_result.first */
	bool no_pin;            /* search every assembly, no symmetry breaking
	                         * of any kind (tests: the counts must not
	                         * change) */
	bool rename_colours;    /* 'solutions' counts up to the goal's
	                         * symmetries combined with renamings of the
	                         * colours (DESIGN.md §2) */
	/* When set, called with every cover the search finds, as labels on
	 * the goal grid like solve_result.first (valid during the call), and
	 * 'colours': goal-grid sized, the colour (1..26) of the piece cell on
	 * each goal cell, 0 for a plain piece cell or no piece; NULL when no
	 * piece has a coloured cell. Each cover stands for its orbit under
	 * the symmetries the search breaks (the pinned piece's, renamings of
	 * interchangeable colours), so every solution is reported at least
	 * once, perhaps in several of its symmetric forms; with no_pin every
	 * assembly exactly once. For tests that compare solution sets. */
	void (*on_cover)(void *ctx, const unsigned char *labels,
	                 const unsigned char *colours);
	void *ctx;              /* passed to on_cover */
	/* 0: one plain search in the caller's thread (the default, what
	 * generate's checks use). 1..SOLVE_MAX_THREADS: the search split
	 * into tasks (see the top), run by that many threads, the caller's
	 * among them. on_cover is then called from any of them, one call at
	 * a time. */
	unsigned threads;
	/* With shard_count >= 1: search only the tasks t with t mod
	 * shard_count == shard_index (0-based; threads 0 is taken as 1). */
	unsigned shard_index, shard_count;
	/* When set, a split search calls it about every 0.1 s, always from
	 * the caller's thread, with what has been done so far. */
	void (*progress)(void *ctx, const struct solve_progress *p);
	void *progress_ctx;
	/* Take every assembly apart (disasm.h, DESIGN.md §2b): 'solutions'
	 * then counts only those that come apart, with a first number of
	 * at least min_level; see solve_result's disassembly fields. A
	 * part's search keeps at most dis_max_nodes positions (0: the
	 * default, DIS_MAX_NODES). */
	bool disassemble;
	unsigned min_level;
	uint64_t dis_max_nodes;
	/* Tests: split every search by depth, small trees too (tasks.c). */
	bool split_by_depth;
};

/* A disassembly as the solver keeps it: BurrTools' level and the moves
 * (disasm.h), their groups' bits naming placed pieces, and which piece of
 * the puzzle each placed piece is. The moves are in the frame of the
 * assembly reported with them. */
struct solve_moves {
	int level[DIS_MAX_LEVEL];
	size_t nlevel;
	struct dis_move *moves;  /* owned */
	size_t nmoves;
	size_t npieces;          /* placed pieces */
	uint16_t piece[DIS_MAX_PIECES]; /* placed piece -> index in
	                                 * puzzle.pieces */
};

enum solve_stop {
	SOLVE_DONE,          /* the search is complete */
	SOLVE_MAX_SOLUTIONS, /* max_solutions were found */
	SOLVE_MAX_NODES,     /* the node budget ran out */
};

struct solve_result {
	uint64_t solutions;  /* distinct solutions (a lower bound if !complete);
	                      * with rename_colours, up to renamings too */
	uint64_t assemblies; /* assemblies with the goal fixed (likewise) */
	uint64_t nodes;      /* search nodes: placements tried */
	bool complete;       /* the search finished */
	enum solve_stop stop;
	char why[160];       /* when no search was needed: why no solution */
	int group_order;     /* |G| */
	uint64_t rename_order; /* with rename_colours: |Γ|, the pairs of a
	                        * symmetry and a renaming of colours that map
	                        * the puzzle onto itself; else 0 */
	bool mirror_closed;  /* whether improper symmetries count */
	bool mirror_some;    /* not mirror-closed, but with ranges of copies
	                      * they count for the assemblies whose mirror
	                      * image is an assembly too (divisor 2|G|) */
	bool fast_path;      /* whether the shell path answered */
	uint64_t rows;       /* placements given to the search */
	/* 'solutions' before the one division: the sum over the covers found
	 * of their weights, = solutions * divisor. Exact for a shard's share
	 * of the search, whose 'solutions' alone is only its floor. */
	uint64_t numerator;
	uint64_t divisor;    /* |G| (2|G| with mirror_some), or |Γ| with
	                      * rename_colours */
	uint64_t split_nodes; /* of 'nodes', those tried above the tasks
	                       * (by every shard: count them once) */
	uint64_t tasks;      /* tasks the search was split into (all shards'),
	                      * 0 when it was not split (threads 0, or no
	                      * search needed); the shell path is one task */
	/* The first assembly found: goal-grid sized (nx*ny*nz), 0 outside the
	 * goal, else 1 + the index in puzzle.pieces of the piece there. Every
	 * piece of the file appears (a piece with count K on K regions);
	 * identical pieces are interchangeable, so which of them lies where is
	 * one valid choice. NULL unless keep_first and a solution was found.
	 * Owned. */
	unsigned char *first;
	/* With 'first', when some piece has a coloured cell: the colour of
	 * the piece cell on each goal cell (as on_cover's colours). Owned. */
	unsigned char *first_colours;

	/* With solve_opts.disassemble ('disassembled' true). Each count is
	 * of solutions up to the symmetries, like 'solutions' (lower bounds
	 * when !complete), with its numerator for shards as 'numerator'.
	 * solutions + stuck + undecided + below_min is the plain count.
	 * A solution's level is computed on one fixed form of its orbit
	 * (solvedis.c), so all its assemblies share it. */
	bool disassembled;
	uint64_t stuck, stuck_num;         /* do not come apart */
	uint64_t undecided, undecided_num; /* a search bound stopped it, or
	                                    * more than DIS_MAX_PIECES pieces */
	uint64_t below_min, below_num;     /* come apart, first number below
	                                    * min_level */
	uint64_t dis_runs;  /* disassemblies run (a solution's assemblies
	                     * share one: solvedis.c), */
	uint64_t dis_nodes; /* and the positions they visited */
	/* The highest level among 'solutions' (nlevel 0 when none, or when
	 * the only ones are of one piece), how many solutions have it, and
	 * the disassembly of the first assembly found with it, whose labels
	 * are in 'hardest' (goal grid, as 'first'; NULL when none). Owned. */
	struct solve_moves hardest_moves;
	uint64_t max_level_solutions, max_level_num;
	uint64_t max_level_task; /* the task it was found in (shards) */
	unsigned char *hardest;
	/* With 'first': the disassembly of the first solution. Owned. */
	struct solve_moves first_moves;
};

/* Copy 'src' into '*dst' (which owns nothing yet). SOLVE_ENOMEM, '*dst'
 * untouched, on failure. */
int solve_moves_copy(struct solve_moves *dst, const struct solve_moves *src);
void solve_moves_clear(struct solve_moves *m);

/* Solve 'p'. '*out' is filled on success (SOLVE_OK). */
int solve_puzzle(const struct puzzle *p, const struct solve_opts *o,
                 struct solve_result *out);
void solve_result_clear(struct solve_result *r);
const char *solve_strerror(int status);

#endif
