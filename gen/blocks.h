/*
 * blocks.h: the block generator: cut a goal (a box, or any face-connected
 * set of cells) into solid pieces that fill it in exactly one way and come
 * apart by hand (DESIGN.md §1, block puzzles).
 *
 * The rules of a block puzzle: the goal's cells are split into
 * face-connected pieces, each of cells_min..cells_max cells; no two pieces
 * are congruent under rotation (mirror pairs are allowed); the pieces fill
 * the goal in exactly one way up to the goal's symmetries, counting every
 * assembly whether or not it comes apart (pieces never mirrored: what
 * `cubegen check` counts); and that assembly comes apart (disasm.h).
 *
 * Interlocking puzzles (level_min above 1): the answer's first level
 * number (disasm.h) is at least level_min. A goal with no empty cell
 * always comes apart at level 1 when every row of it along x, y and z
 * is one run of cells (lock.c says why), so inner cells (all six face
 * neighbours in the goal) may then stay empty: hollows, hidden once the
 * puzzle is together. The written goal has every inner cell optional,
 * and the one solution is counted so (whatever is inside); the pieces
 * still fill every other cell.
 *
 * The search, by splitting. Splitting a piece in two can only add
 * solutions, never remove one, so the generator refines a dissection step
 * by step: it starts from one piece, the whole goal, planned to become k
 * pieces, and while some piece is planned to become m > 1 pieces, it cuts
 * the one with the largest m (the first of them) into a part planned as
 * m/2 pieces and the rest planned as m - m/2, both face-connected and of
 * sizes that can still be cut into pieces of cells_min..cells_max. A cut
 * is kept when the parts that are final pieces are not congruent to
 * another final piece, can lie flat with no overhang (with support_free)
 * and pass the caller's piece_ok test, and, once the dissection has k - 1
 * or k pieces, when the solver proves it unique (prove.h, at most 2
 * solutions, within proof_nodes search nodes: a proof cut short keeps
 * nothing; the same count as solve_puzzle(), with the goal set up once
 * per search and a piece's placements kept while it is unchanged).
 * Coarser dissections are not proved: they are almost always unique, and
 * proving them cost more than the attempts it saved (3 x 3 x 3 in 6
 * pieces: 80 ms a puzzle proving every cut, 40 ms proving the last two;
 * make bench). The proof at k - 1 pieces is a scout: the last cut can
 * only add solutions, so a dissection that is not unique there is dropped
 * before its last cut is drawn; but a scout gets at most BLK_SCOUT_NODES
 * nodes, and one cut short passes, the proof of the last cut (with the
 * whole budget) deciding alone: a scout that long was as often of a
 * unique dissection, whose proof was then made twice (4 x 4 x 4 in 8 to
 * 12 pieces: a quarter fewer nodes). A cut that fails is drawn again, at
 * most BLK_TRIES times, and then the attempt is given up and a new one
 * starts from one piece. A search remembers the dissections it has
 * proved (at most BLK_MEMO_MAX), by the piece of every cell: one met
 * again, a small piece cut the same way once more, gets its answer
 * without a proof (blk_found.repeats; the same answer, so the same
 * puzzle; a scout's open answer is proved again when the same
 * dissection is a last cut). A finished dissection that does not come
 * apart is given up too.
 *
 * With level_min above 1 no cut is proved; the finished dissection is
 * reshaped by the climb of lock.c, a cell at a time: a cell goes to a
 * neighbouring piece or, when inner, is left hollow, keeping every piece
 * connected, of cells_min..cells_max cells and, with support_free, able
 * to lie flat. A change is kept when the
 * assembly still comes apart (within BLK_LOCK_NODES positions a part)
 * and is no worse: a higher first level is better; on level 1, a looser
 * assembly (lock.c's measure) is worse; otherwise the change is kept
 * when the disassembly visited as many positions, and one time in ten
 * when fewer. Each time a kept change reaches level_min, the rules are
 * checked (congruence, the caller's tests, uniqueness proved by
 * solve_puzzle() with the inner cells optional, within proof_nodes);
 * they end the search when kept. After BLK_LOCK_STEPS draws the attempt
 * is given up.
 *
 * The exhaustive route. When the pieces are small and few sets of
 * shapes could fill the goal (at most BLK_SETS_CELLS cells a piece, at
 * most BLK_SETS_MAX sets of pairwise non-congruent shapes that fit the
 * goal with a feasible count and the goal's cells in all, and, on a
 * goal of more than BLK_DRAW_CELLS cells, at most BLK_SETS_BOUND such
 * sets of every polycube of those sizes, the test made first; no
 * level_min above 1),
 * blk_find() tries every set instead of cutting (blkset.c): solved as
 * `cubegen check` solves it, a set with exactly one solution that comes
 * apart, and whose pieces pass support_free and piece_ok, is the puzzle,
 * its solution the answer. So a search there either finds a puzzle or
 * proves there is none (3 x 3 x 3 in seven pieces of Soma's sizes: none
 * of its 14 sets has one solution). Each set tried counts as an attempt
 * (blk_found.attempts), and every set is tried, whatever max_attempts.
 *
 * The drawn route. With pieces that small but too many sets to try
 * each, on a goal of at most BLK_DRAW_CELLS cells (no level_min above
 * 1), sets are drawn at random instead of dissections, each uniformly
 * among the sets of pairwise non-congruent shapes that fit the goal with
 * its piece count and the goal's cells in all, and counted by the prover
 * (prove_count_pieces(), at most 2, within proof_nodes); a set with
 * exactly one solution that comes apart, and whose pieces pass
 * support_free and piece_ok, is the puzzle. A dissection drawn by cuts
 * is unique far less often than a set drawn this way, because a set
 * with many solutions is the set of many dissections and so is met
 * that many times more often (3 x 3 x 3 in six pieces of 4 or 5 cells:
 * one dissection in about 70 is unique, one set in about 11; 4 x 4 x 4
 * in 13 pieces of 4 to 6 cells: no dissection in 1,000,000 attempts;
 * seed 1's 58,418th set, seed 2's 3,081st, none in seed 3's first
 * 100,000, seed 4's 98,448th). Each set drawn is an attempt, up to
 * max_attempts (and so is a draw of a piece count with no set, which
 * draws none; when no feasible count has a set, the exhaustive route
 * has already said that no puzzle exists).
 *
 * The grown route. With pieces of BLK_GROW_CELLS to BLK_GROW_CELLS_MAX
 * cells (cells_min at least the one, cells_max at most the other) on a
 * goal of more than 64 cells (no level_min above 1), an attempt grows the
 * whole dissection at once instead of cutting it (blkgrow.c): k seed
 * cells, then, one cell at a time, the smallest piece that can still grow
 * (below cells_max, a free cell next to it) takes a free neighbour, one
 * that touches the piece along as few faces as any (so pieces branch) and
 * along as many edges as any of those (so they curl round). A growth that
 * leaves a cell no piece can take, or a piece below cells_min, is tried
 * again, up to BLK_GROW_TRIES times an attempt. Every piece is then a
 * final piece (the rules of a cut's final pieces above), and the
 * dissection is proved unique once. With proof_nodes 0 the i-th proof of
 * a search may take BLK_GROW_PROOF_NODES times the i-th term of Luby's
 * sequence (1, 1, 2, 1, 1, 2, 4, 1, ...; at most BLK_GROW_PROOF_TIMES)
 * nodes (blk_grow_budget(); a proof whose answer is reused does not
 * count), else proof_nodes: most unique grown dissections are proved
 * within a few hundred thousand nodes, and the rare ones that need more
 * still get their budget as the search goes on. The piece count favours
 * the fewest pieces: each count one more is drawn an eighth as often
 * (BLK_GROW_MORE), since a dissection into one piece more is unique far
 * less often (5 x 5 x 5 in 6 to 8 cells, measured: 10 of 22 proofs of 16
 * pieces unique within 2,000,000 nodes, 0 of 32 of 17 to 20). Branched pieces
 * fit the goal in few ways: 5 x 5 x 5 in 16 pieces of 6 to 8 cells is
 * unique about two times in three this way, where the cuts made no
 * unique one in thousands of attempts (docs/puzzles.md). (Larger pieces
 * grown so interlock: 6 x 6 x 6 in 8 to 10 pieces of 6 to 27 cells grew
 * unique dissections that did not come apart, where cuts find a puzzle
 * in a few attempts.) The route runs on the caller's thread alone.
 *
 * The stream (part of the seed contract). Goal cells are numbered in
 * grid order (x fastest, then y, then z). On the exhaustive route, from
 * 'r': the sets (blkset.c's order) shuffled, a[i] = i, for i = n-1 down
 * to 1, j = rng_below(i + 1), swap a[i] and a[j]; tried in the order
 * a[0], a[1], ...; then steps 3 and 4 below, the pieces in the set's
 * order standing for the cut order. On the drawn route, per attempt,
 * from 'r': k as in step 1 below (an attempt with no set of k shapes
 * ends there); then, for each size from cells_min to cells_max, one
 * draw u = (rng_next() >> 11) / 2^53, and the number a of shapes of
 * that size taken is the first, from 0 up, whose weight (C(m, a) times
 * the sets of the larger sizes with the pieces and cells left, m the
 * shapes of this size; in doubles, IEEE-754, in that order, with no
 * fused multiply-add) exceeds what is left of u times the sum of the
 * weights (should rounding leave none, the last a with a weight); then
 * a partial Fisher-Yates over this size's shapes in canonical order:
 * for i = 0 to a-1, j = i + rng_below(m - i), swap, shape i taken. The
 * set's order (sizes ascending, each in its draw order) stands for the
 * cut order in steps 3 and 4, after the set's one filling is found.
 * Otherwise, per attempt, from 'r':
 *   1. k = the feasible piece counts (k in pieces_min..pieces_max with
 *      k * cells_min <= cells <= k * cells_max), ascending, one picked by
 *      rng_below(count); on the grown route the first, then, while a
 *      larger one is left, the next each time rng_below(BLK_GROW_MORE)
 *      is 0 (the first draw that is not ends it);
 *   2. per cut tried (lo..hi the part sizes that keep both sides
 *      feasible), on a goal of at most 64 cells (a grown cut):
 *      the part's size s1 = lo + rng_below(hi - lo + 1); its first
 *      cell, rng_below(s) among the piece's s cells in order; then
 *      s1 - 1 times, rng_below(f) among the f cells of the piece outside
 *      the part that touch it (a face in common), in order, joins the
 *      part. A cut that leaves the rest in pieces is a failed try.
 *      On a goal of more than 64 cells (a tree cut; a grown part there
 *      nearly always leaves the rest of a large piece in two): a
 *      random spanning tree of the piece's s cells by Wilson's
 *      algorithm: its root, rng_below(s) among them in order; then for
 *      each cell in order not yet in the tree, a walk from it until it
 *      meets the tree, each step rng_below(d) among the d face
 *      neighbours, in the piece, of the cell it is on (in the order +x,
 *      -x, +y, -y, +z, -z), each cell keeping only its last step (the
 *      walk with its loops erased), which joins the tree. Then the
 *      candidate parts, for each cell of the piece in order but the
 *      root: the cells below it in the tree (it and its descendants),
 *      then the others, each when its size is in lo..hi; the part is
 *      candidate rng_below(count). A tree with no candidate is a failed
 *      try. Both sides are face-connected (halves of a tree).
 *   2b. with level_min above 1, per draw of the climb: the cell,
 *      rng_below(n) among the goal's n cells; then rng_below(7): 0..5
 *      the neighbour (+x, -x, +y, -y, +z, -z) whose piece takes it, 6
 *      a hollow; a draw that cannot apply changes nothing and draws
 *      nothing more. A change to be kept for its positions alone (one
 *      time in ten) draws rng_below(10), kept on 0.
 *   2c. on the grown route, per growth tried: for i = 0..k-1, the seed
 *      of piece i, rng_below(f) among the f free cells in order; then
 *      per cell taken, the piece, rng_below(t) among the t pieces in
 *      order that can grow and are as small as any that can; its cell,
 *      rng_below(c) among the c free cells in order next to it that
 *      touch it along the fewest faces, and of those along the most
 *      edges (goal cells sharing an edge with it, not a face, counted
 *      whatever lies between). A failed growth is tried again, from new
 *      seeds.
 * After a dissection is found:
 *   3. the numbering: a[i] = i for i = 0..k-1; for i = k-1 down to 1,
 *      j = rng_below(i + 1), swap a[i] and a[j]; the piece cut as the
 *      i-th (in the order pieces came to exist, the whole goal 0; on
 *      the grown route, the order of the seeds) is numbered a[i] + 1;
 *   4. for pieces 1..k in order, rng_below(24): the rotation (the n-th
 *      proper symmetry of solver/poly.h) it is drawn in, moved to the
 *      origin.
 *
 * Ownership: a struct blk_puzzle owns its buffers (blk_puzzle_clear()).
 * Nothing here prints, exits or keeps global state.
 */
#ifndef CUBEGEN_BLOCKS_H
#define CUBEGEN_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/gen.h"
#include "gen/rng.h"
#include "solver/disasm.h"
#include "solver/puzzle.h"

#define BLK_MAX_PIECES 64   /* the disassembler's limit */
#define BLK_MAX_CELLS 512   /* goal cells, at most */
#define BLK_MAX_LEVEL 100   /* level_min, at most */
#define BLK_TRIES 10       /* cuts drawn per step before an attempt is given up */
#define BLK_MEMO_MAX 65536 /* proofs a search remembers, at most */
#define BLK_PROOF_NODES 2000000u /* search nodes a proof may take (the default) */
#define BLK_SCOUT_NODES 5000u   /* ... a proof of k - 1 pieces, at most */
#define BLK_LOCK_STEPS 20000 /* draws of an interlocking climb per attempt */
#define BLK_LOCK_NODES 2000u /* positions a climb's disassembly may keep */
/* The exhaustive route (blkset.c): pieces of at most BLK_SETS_CELLS cells,
 * past BLK_DRAW_CELLS goal cells at most BLK_SETS_BOUND sets of every
 * polycube of those sizes (the shapes are made only then), at most BLK_SETS_SHAPES shapes that fit the
 * goal, at most BLK_SETS_MAX sets of them, found within BLK_SETS_STEPS
 * steps of the walk. */
#define BLK_SETS_CELLS 6
#define BLK_SETS_BOUND 50000
#define BLK_SETS_SHAPES 1000 /* a safeguard: 6 cells make 207 shapes */
#define BLK_SETS_MAX 2000
#define BLK_SETS_STEPS 2000000u
#define BLK_DRAW_CELLS 64 /* the drawn route: goals of at most this many cells */
#define BLK_GROW_CELLS 6 /* the grown route: pieces of at least this many cells */
#define BLK_GROW_CELLS_MAX 8 /* ... and of at most this many */
#define BLK_GROW_TRIES 10000 /* ... its growths tried per attempt, at most */
#define BLK_GROW_MORE 8 /* ... a piece count one more drawn 1/8 as often */
#define BLK_GROW_PROOF_NODES 500000u /* ... the unit of its proofs' budgets */
#define BLK_GROW_PROOF_TIMES 64u     /* ... a budget at most this many units */

struct blk_found;

struct blk_spec {
	int pieces_min, pieces_max; /* 2..BLK_MAX_PIECES */
	int cells_min, cells_max;   /* 1..BLK_MAX_CELLS */
	uint64_t max_attempts;      /* >= 1 */
	uint64_t proof_nodes;       /* per proof; 0: BLK_PROOF_NODES (the
	                             * grown route: blk_grow_budget()) */
	bool support_free;          /* every piece has a way to lie on a print
	                             * bed with no overhanging cell
	                             * (poly_overhangs()) */
	int level_min;              /* the answer's first level number at
	                             * least this (0 or 1: any; above 1 the
	                             * interlocking climb of lock.c) */
	/* When set, a final piece is kept only when it returns 1 for the
	 * piece's cells (nx*ny*nz bytes, x fastest, 0/1, its bounding box),
	 * as they lie in the goal (the CLI: whether it meshes); 0 refuses
	 * it, -1 means out of memory (blk_find() then fails). */
	int (*piece_ok)(void *ctx, const unsigned char *cells, int nx, int ny,
	                int nz);
	void *ctx;
	/* When set, called with the search's figures so far (blk_found,
	 * 'found' false) after each attempt and each proof, for a caller
	 * that shows progress; it must not touch the search, which goes on
	 * the same with it or without it. */
	void (*progress)(void *progress_ctx, const struct blk_found *so_far);
	void *progress_ctx;
	/* Threads the drawn route counts its sets on (0 or 1: the caller's
	 * alone; at most SOLVE_MAX_THREADS used); the puzzle, the figures of
	 * blk_found and the stream's state after are the same whatever the
	 * number. piece_ok and progress are called on the caller's thread
	 * only. */
	unsigned threads;
};

struct blk_puzzle {
	/* The puzzle as written: the goal (plain cells), pieces "1".."k"
	 * turned and moved as drawn (step 4 above), count 1 each; its name
	 * and seed are the caller's to set. */
	struct puzzle puz;
	/* The answer: goal-grid sized, 0 outside the goal, else the number
	 * (1..k) of the piece on that cell. */
	unsigned char *answer;
	size_t npieces;
	/* How the answer comes apart (disasm.h): level and moves, groups'
	 * bit i naming piece i+1. Owned. */
	struct dis_result dis;
};

struct blk_found {
	bool found;
	uint64_t attempts;     /* attempts started */
	uint64_t solver_calls; /* uniqueness proofs run (cuts tested) */
	uint64_t repeats;      /* cuts tested again: a dissection proved
	                        * before in this search, its answer reused */
	uint64_t cut_short;    /* of them, stopped by their node budget */
	uint64_t scouts_open;  /* of them, proofs of k - 1 pieces stopped by
	                        * BLK_SCOUT_NODES (passed) */
	uint64_t nodes;        /* their search nodes */
	uint64_t tries;        /* cuts drawn (growths on the grown route) */
	/* The exhaustive route (above): taken, the sets of shapes there
	 * were (solved in turn until a puzzle is found, each an attempt),
	 * and of them those left undecided (a count that proof_nodes cut
	 * short, a disassembly stopped by its bound), so that 'found' false
	 * is a proof that no puzzle exists only when this is 0. */
	bool exhaustive;
	uint64_t sets;
	uint64_t sets_open;
	/* The drawn route (above) taken: each attempt a set of shapes drawn
	 * and counted (solver_calls, nodes and cut_short count those). */
	bool drawn;
	/* The grown route (above) taken: each attempt one dissection grown
	 * at once (its growths tried counted in 'tries'), proved once. */
	bool grown;
};

/* Whether 'goal' (its nonzero cells) and the ranges of 's' can make a
 * puzzle: GEN_OK; GEN_EINVAL with one line in 'why' saying why not;
 * GEN_ENOMEM. Checks: 1 to BLK_MAX_CELLS cells, face-connected, no
 * optional cell, ranges in bounds and ordered, some piece count in range
 * that can fill it. */
int blk_check(const struct grid *goal, const struct blk_spec *s, char *why,
              size_t len);

/* Search for a puzzle as above (the goal must pass blk_check()). GEN_OK
 * or GEN_ENOMEM (gen.h); on GEN_OK '*info' is written and, when found,
 * '*out' is the puzzle (the caller clears it with blk_puzzle_clear()). */
int blk_find(struct rng *r, const struct grid *goal, const struct blk_spec *s,
             struct blk_puzzle *out, struct blk_found *info);

/* The node budget of the grown route's i-th proof run (i >= 1; a
 * dissection proved before, its answer reused, does not count) when
 * proof_nodes is 0: BLK_GROW_PROOF_NODES times the i-th term of Luby's
 * sequence, at most BLK_GROW_PROOF_TIMES times. */
uint64_t blk_grow_budget(uint64_t i);

void blk_puzzle_clear(struct blk_puzzle *b);

/*
 * Difficulty (blkband.c). A block puzzle's score is the cell search's of
 * solver/difficulty.h (dead ends per cover, the same for any way the file
 * is written). Bands as the plates' (gen.h), from the puzzles of the goal
 * and ranges themselves: 'want' puzzles found in turn from
 * rng_seed(GEN_CALIB_SEED) with 's' (a search that finds none counts
 * against at most 2 want), scored and sorted, s[0] <= ... <= s[m-1]:
 * easy_max = s[ceil(0.947 m) - 1], hard_min = s[ceil(0.985 m) - 1].
 */
#define BLK_CALIB_SAMPLES 200

/* The score of 'b' into '*score'. GEN_OK or GEN_ENOMEM. */
int blk_score(const struct blk_puzzle *b, double *score);

/* The bands of 'goal' with 's', from 'want' puzzles (BLK_CALIB_SAMPLES
 * for generate). GEN_OK or GEN_ENOMEM ('*out' untouched). */
int blk_bands(const struct grid *goal, const struct blk_spec *s, int want,
              struct gen_bands *out);

/* Puzzles found in turn from 'r' (blk_find(), s->max_attempts attempts
 * in all, but a search on the exhaustive route always tries every set)
 * until one's score is in 'band' of 'bands' (GEN_BAND_ANY: the first);
 * a search that finds none ends it. On GEN_OK '*info' sums the searches and, when found, '*out'
 * and '*score' are the puzzle and its score; GEN_ENOMEM otherwise. */
int blk_find_band(struct rng *r, const struct grid *goal,
                  const struct blk_spec *s, enum gen_band band,
                  const struct gen_bands *bands, struct blk_puzzle *out,
                  struct blk_found *info, double *score);

#endif
