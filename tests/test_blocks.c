/*
 * test_blocks.c: the block generator (gen/blocks.h). Over many seeds and
 * sizes every rule of a block puzzle holds: the answer fills the goal with
 * face-connected pieces of the sizes asked for, no two congruent, each the
 * piece written turned; the puzzle is unique by engines that share no
 * code with the proofs (the brute force on 3 x 3 x 3 goals, dancing links
 * on 4 x 4 x 4) and comes apart by the independent disassembler
 * (tests/disref.c); the same seed gives the same puzzle; bad goals and
 * ranges are refused with their reason; every allocation failure is
 * reported, leaks nothing, and a retry gives the same puzzle.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failmalloc.h"
#include "gen/blocks.h"
#include "gen/gen.h"
#include "solver/poly.h"
#include "solver/solve.h"
#include "tests/brute.h"
#include "tests/disref.h"
#include "tests/testrand.h"

static void box_goal(struct grid *g, int x, int y, int z)
{
	assert_int_equal(puz_grid_init(g, x, y, z), PUZ_OK);
	memset(g->cells, PUZ_CELL, (size_t)x * y * z);
}

/* The cells of number k in 'answer' as a normalised grid shape. */
static void answer_shape(const struct grid *goal, const unsigned char *answer,
                         int k, struct shape *out)
{
	struct grid g;
	box_goal(&g, goal->nx, goal->ny, goal->nz);
	size_t total = (size_t)goal->nx * goal->ny * goal->nz;
	for (size_t i = 0; i < total; i++)
		g.cells[i] = answer[i] == k;
	assert_int_equal(poly_from_grid(&g, out), POLY_OK);
	puz_grid_clear(&g);
}

/* Whether the cells of number k are face-connected. */
static bool face_connected(const struct grid *g, const unsigned char *answer,
                           int k)
{
	size_t total = (size_t)g->nx * g->ny * g->nz;
	int stack[BLK_MAX_CELLS], top = 0, seen = 0, cells = 0;
	unsigned char mark[BLK_MAX_CELLS] = {0};
	for (size_t i = 0; i < total; i++)
		if (answer[i] == k) {
			if (cells++ == 0) {
				stack[top++] = (int)i;
				mark[i] = 1;
			}
		}
	while (top > 0) {
		int i = stack[--top];
		seen++;
		int p[3] = {i % g->nx, i / g->nx % g->ny, i / (g->nx * g->ny)};
		for (int d = 0; d < 6; d++) {
			int q[3] = {p[0], p[1], p[2]}, lim[3] = {g->nx, g->ny, g->nz};
			q[d / 2] += d % 2 ? -1 : 1;
			if (q[d / 2] < 0 || q[d / 2] >= lim[d / 2])
				continue;
			int j = (int)puz_grid_index(g, q[0], q[1], q[2]);
			if (answer[j] == k && !mark[j]) {
				mark[j] = 1;
				stack[top++] = j;
			}
		}
	}
	return seen == cells && cells > 0;
}

/* Whether cell i of 'g' is inner: its six face neighbours in the goal. */
static bool inner_cell(const struct grid *g, size_t i)
{
	int p[3] = {(int)(i % (size_t)g->nx), (int)(i / (size_t)g->nx % (size_t)g->ny),
	            (int)(i / ((size_t)g->nx * (size_t)g->ny))};
	int lim[3] = {g->nx, g->ny, g->nz};
	for (int d = 0; d < 6; d++) {
		int q[3] = {p[0], p[1], p[2]};
		q[d / 2] += d % 2 ? -1 : 1;
		if (q[d / 2] < 0 || q[d / 2] >= lim[d / 2] ||
		    !g->cells[puz_grid_index(g, q[0], q[1], q[2])])
			return false;
	}
	return true;
}

/* Every rule of blocks.h on one found puzzle. */
static void check_rules(const struct grid *goal, const struct blk_spec *s,
                        const struct blk_puzzle *b, bool brute)
{
	const struct puzzle *p = &b->puz;
	int k = (int)b->npieces;
	assert_int_equal(p->npieces, b->npieces);
	assert_true(k >= s->pieces_min && k <= s->pieces_max);
	size_t total = (size_t)goal->nx * goal->ny * goal->nz;
	bool hollows = s->level_min > 1;
	for (size_t i = 0; i < total; i++) {
		assert_int_equal(p->goal.cells[i] != 0, goal->cells[i] != 0);
		/* a level above 1: the inner cells optional, and only they
		 * may be hollow */
		bool opt = hollows && goal->cells[i] && inner_cell(goal, i);
		assert_int_equal(puz_cell_optional(p->goal.cells[i]), opt);
		if (!opt)
			assert_int_equal(b->answer[i] != 0, goal->cells[i] != 0);
		assert_true(b->answer[i] <= k);
	}
	struct shape canon[BLK_MAX_PIECES];
	for (int n = 1; n <= k; n++) {
		assert_true(face_connected(goal, b->answer, n));
		struct shape a, c, d, w;
		answer_shape(goal, b->answer, n, &a);
		assert_true((int)a.n >= s->cells_min && (int)a.n <= s->cells_max);
		/* the piece written is the answer's piece turned */
		assert_int_equal(poly_from_grid(&p->pieces[n - 1].shape, &w), POLY_OK);
		assert_int_equal(poly_canonical(&a, &c), POLY_OK);
		assert_int_equal(poly_canonical(&w, &d), POLY_OK);
		assert_true(poly_equal(&c, &d));
		assert_int_equal(p->pieces[n - 1].count, 1);
		for (int m = 1; m < n; m++)
			assert_false(poly_equal(&canon[m - 1], &c));
		canon[n - 1] = c;
		poly_shape_clear(&a);
		poly_shape_clear(&d);
		poly_shape_clear(&w);
	}
	for (int n = 0; n < k; n++)
		poly_shape_clear(&canon[n]);
	/* unique, by an engine that is not the bitboards */
	if (brute) {
		struct brute_result r;
		assert_int_equal(brute_count(p, &r), 0);
		assert_int_equal(r.solutions, 1);
	} else {
		struct solve_opts o = {.engine = SOLVE_DLX};
		struct solve_result r;
		assert_int_equal(solve_puzzle(p, &o, &r), SOLVE_OK);
		assert_true(r.complete);
		assert_int_equal(r.solutions, 1);
		solve_result_clear(&r);
	}
	/* comes apart, by the reference disassembler where it reaches */
	assert_int_equal(b->dis.verdict, DIS_APART);
	if (k <= DISREF_MAX_PIECES) {
		unsigned char lab[BLK_MAX_CELLS];
		for (size_t i = 0; i < total; i++)
			lab[i] = b->answer[i];
		int verdict, first;
		assert_int_equal(disref_solve(goal->nx, goal->ny, goal->nz, lab,
		                              (size_t)k, NULL, 0, &verdict, &first), 0);
		assert_int_equal(verdict, DIS_APART);
		assert_int_equal(first, b->dis.nlevel ? b->dis.level[0] : 1);
	}
	assert_true((b->dis.nlevel ? b->dis.level[0] : 1) >= s->level_min);
}

/* Whether 'goal' has at most 64 cells (cut by grown cuts, never grown
 * whole). */
static bool goal_small(const struct grid *goal)
{
	size_t n = 0, total = (size_t)goal->nx * goal->ny * goal->nz;
	for (size_t i = 0; i < total; i++)
		n += goal->cells[i] != 0;
	return n <= 64;
}

/* Seeds 1..seeds on 'goal': each finds a puzzle, every rule checked.
 * Returns the cuts answered from the memo of proofs (blk_found.repeats);
 * '*open' (when not NULL) gets the scouts cut short. */
static uint64_t run_goal_seeds(const struct grid *goal, struct blk_spec s,
                               uint64_t seeds, bool brute, uint64_t *open)
{
	uint64_t repeats = 0, scouts = 0;
	char why[200];
	assert_int_equal(blk_check(goal, &s, why, sizeof why), GEN_OK);
	for (uint64_t seed = 1; seed <= seeds; seed++) {
		struct rng r;
		rng_seed(&r, seed);
		struct blk_puzzle b;
		struct blk_found f;
		assert_int_equal(blk_find(&r, goal, &s, &b, &f), GEN_OK);
		assert_true(f.found);
		/* the last two cuts at least were proved (perhaps the
		 * next-to-last in an earlier attempt); a grown dissection
		 * once */
		assert_true(f.attempts >= 1 && f.solver_calls >= 1 &&
		            (f.drawn || f.grown || f.solver_calls + f.repeats >= 2));
		assert_int_equal(f.grown, !goal_small(goal) && s.level_min <= 1 &&
		                          s.cells_min >= BLK_GROW_CELLS &&
		                          s.cells_max <= BLK_GROW_CELLS_MAX);
		repeats += f.repeats;
		scouts += f.scouts_open;
		check_rules(goal, &s, &b, brute);
		blk_puzzle_clear(&b);
	}
	if (open)
		*open = scouts;
	return repeats;
}

static uint64_t run_seeds(int x, int y, int z, struct blk_spec s,
                          uint64_t seeds, bool brute)
{
	struct grid goal;
	box_goal(&goal, x, y, z);
	uint64_t repeats = run_goal_seeds(&goal, s, seeds, brute, NULL);
	puz_grid_clear(&goal);
	return repeats;
}

static void test_blocks_three_cube(void **state)
{
	(void)state;
	/* some cuts are drawn again and answered from the memo; the brute
	 * force re-proves every puzzle (check_rules) */
	uint64_t again = run_seeds(3, 3, 3, (struct blk_spec){
		.pieces_min = 4, .pieces_max = 6, .cells_min = 4, .cells_max = 8,
		.max_attempts = 1000}, 12, true);
	assert_true(again > 0);
}

/* The drawn route (blocks.h): pieces of at most BLK_SETS_CELLS cells, too
 * many sets to try each, a goal of at most BLK_DRAW_CELLS cells. Sets
 * drawn at random are the attempts, each counted once; every puzzle keeps
 * the rules (re-proved by the brute force on 3x3x3, by dancing links on
 * 4x4x4), the same seed gives the same puzzle, and a search that runs
 * out of attempts finds nothing. */
static void test_blocks_drawn(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 3, 3, 3);
	struct blk_spec s = {.pieces_min = 6, .pieces_max = 6, .cells_min = 4,
	                     .cells_max = 5, .max_attempts = 1000};
	uint64_t calls = 0;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct rng r;
		rng_seed(&r, seed);
		struct blk_puzzle b, c;
		struct blk_found f, g;
		assert_int_equal(blk_find(&r, &goal, &s, &b, &f), GEN_OK);
		assert_true(f.found && f.drawn && !f.exhaustive);
		/* one piece count, always a set: each attempt a count */
		assert_int_equal(f.attempts, f.solver_calls);
		assert_int_equal(f.tries, 0);
		calls += f.solver_calls;
		check_rules(&goal, &s, &b, true);
		rng_seed(&r, seed);
		assert_int_equal(blk_find(&r, &goal, &s, &c, &g), GEN_OK);
		assert_true(g.found);
		assert_memory_equal(b.answer, c.answer, 27);
		assert_int_equal(f.attempts, g.attempts);
		blk_puzzle_clear(&b);
		blk_puzzle_clear(&c);
	}
	/* about one set in ten is a puzzle (a cut dissection: one in 70) */
	assert_true(calls >= 12 && calls < 12 * 40);
	puz_grid_clear(&goal);
	/* 4x4x4 in 11 or 12 pieces of 4 to 6 cells */
	box_goal(&goal, 4, 4, 4);
	s = (struct blk_spec){.pieces_min = 11, .pieces_max = 12,
	                      .cells_min = 4, .cells_max = 6, .max_attempts = 1000};
	for (uint64_t seed = 1; seed <= 2; seed++) {
		struct rng r;
		rng_seed(&r, seed);
		struct blk_puzzle b;
		struct blk_found f;
		assert_int_equal(blk_find(&r, &goal, &s, &b, &f), GEN_OK);
		assert_true(f.found && f.drawn);
		check_rules(&goal, &s, &b, false);
		blk_puzzle_clear(&b);
	}
	/* 13 pieces: puzzles are rare (one in tens of thousands of sets) */
	s.pieces_min = s.pieces_max = 13;
	s.max_attempts = 20;
	struct rng r;
	rng_seed(&r, 1);
	struct blk_puzzle b;
	struct blk_found f;
	assert_int_equal(blk_find(&r, &goal, &s, &b, &f), GEN_OK);
	assert_true(!f.found && f.drawn);
	assert_int_equal(f.attempts, 20);
	puz_grid_clear(&goal);
}

/* The drawn route on threads: the same puzzle, figures and stream
 * afterwards as on one (gen/blkdraw.c counts batches of sets side by
 * side after its first 32 alone, and walks them in the order drawn). */
static void test_blocks_drawn_threads(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 3, 3, 3);
	struct blk_spec s = {.pieces_min = 6, .pieces_max = 6, .cells_min = 4,
	                     .cells_max = 5, .max_attempts = 1000};
	int batched = 0;
	for (uint64_t seed = 1; seed <= 160; seed++) {
		struct blk_puzzle b[3];
		struct blk_found f[3];
		uint64_t next[3];
		for (int t = 0; t < 3; t++) {
			struct rng r;
			rng_seed(&r, seed);
			s.threads = (unsigned)t + 1;
			assert_int_equal(blk_find(&r, &goal, &s, &b[t], &f[t]), GEN_OK);
			assert_true(f[t].found && f[t].drawn);
			next[t] = rng_next(&r);
		}
		for (int t = 1; t < 3; t++) {
			assert_memory_equal(b[t].answer, b[0].answer, 27);
			assert_int_equal(f[t].attempts, f[0].attempts);
			assert_int_equal(f[t].solver_calls, f[0].solver_calls);
			assert_int_equal(f[t].nodes, f[0].nodes);
			assert_int_equal(next[t], next[0]);
		}
		batched += f[0].attempts > 32;
		for (int t = 0; t < 3; t++)
			blk_puzzle_clear(&b[t]);
	}
	assert_true(batched >= 2); /* some puzzles were found in a batch */
	puz_grid_clear(&goal);
	/* no puzzle within max_attempts: every batch walked to its end */
	box_goal(&goal, 4, 4, 4);
	s = (struct blk_spec){.pieces_min = 13, .pieces_max = 13, .cells_min = 4,
	                      .cells_max = 6, .max_attempts = 90};
	struct blk_found f[2];
	uint64_t next[2];
	for (int t = 0; t < 2; t++) {
		struct rng r;
		rng_seed(&r, 2);
		s.threads = t ? 4 : 1;
		struct blk_puzzle b;
		assert_int_equal(blk_find(&r, &goal, &s, &b, &f[t]), GEN_OK);
		assert_true(!f[t].found && f[t].drawn);
		next[t] = rng_next(&r);
	}
	assert_int_equal(f[1].attempts, 90);
	assert_int_equal(f[1].solver_calls, f[0].solver_calls);
	assert_int_equal(f[1].nodes, f[0].nodes);
	assert_int_equal(f[1].cut_short, f[0].cut_short);
	assert_int_equal(next[1], next[0]);
	puz_grid_clear(&goal);
}

static void test_blocks_four_cube(void **state)
{
	(void)state;
	run_seeds(4, 4, 4, (struct blk_spec){.pieces_min = 8, .pieces_max = 10,
	                                     .cells_min = 4, .cells_max = 8,
	                                     .max_attempts = 1000}, 12, false);
}

/* 4 x 4 x 4 in 8 to 12 pieces: some proofs of the dissection before its
 * last cut run past BLK_SCOUT_NODES and pass; the last cut's proof
 * decides, and dancing links proves every puzzle unique again
 * (check_rules). */
static void test_blocks_scouts(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 4, 4, 4);
	uint64_t open = 0;
	run_goal_seeds(&goal, (struct blk_spec){.pieces_min = 8, .pieces_max = 12,
	                                        .cells_min = 4, .cells_max = 8,
	                                        .max_attempts = 1000},
	               5, false, &open);
	assert_true(open > 0);
	puz_grid_clear(&goal);
}

static void test_blocks_box(void **state)
{
	(void)state;
	run_seeds(2, 3, 5, (struct blk_spec){.pieces_min = 4, .pieces_max = 5,
	                                     .cells_min = 5, .cells_max = 8,
	                                     .max_attempts = 1000}, 8, true);
}

/* Goals past 64 cells, where cuts follow random spanning trees (a grown
 * part leaves the rest of a large piece in two: before, no puzzle of
 * 6 x 6 x 6 in 1000 attempts of 20 seeds, and only 46 of 50 seeds of
 * 5 x 5 x 5), in the pieces and cells that generate uses by default for
 * each box (cli/genblocks.c's default_cells()). */
static void test_blocks_big_goals(void **state)
{
	(void)state;
	run_seeds(5, 5, 5, (struct blk_spec){.pieces_min = 8, .pieces_max = 10,
	                                     .cells_min = 4, .cells_max = 16,
	                                     .max_attempts = 1000}, 6, false);
	run_seeds(3, 5, 9, (struct blk_spec){.pieces_min = 8, .pieces_max = 10,
	                                     .cells_min = 4, .cells_max = 17,
	                                     .max_attempts = 1000}, 3, false);
	run_seeds(6, 6, 6, (struct blk_spec){.pieces_min = 8, .pieces_max = 10,
	                                     .cells_min = 4, .cells_max = 27,
	                                     .max_attempts = 1000}, 3, false);
	/* small pieces too: 5 x 5 x 5 in 12 to 14 of 6 to 12 cells */
	run_seeds(5, 5, 5, (struct blk_spec){.pieces_min = 12, .pieces_max = 14,
	                                     .cells_min = 6, .cells_max = 12,
	                                     .max_attempts = 1000}, 2, false);
	/* and a goal that is not a box: 5 x 5 x 5 with a tunnel through
	 * its middle along z (120 cells) */
	struct grid g;
	box_goal(&g, 5, 5, 5);
	for (int z = 0; z < 5; z++)
		g.cells[puz_grid_index(&g, 2, 2, z)] = 0;
	run_goal_seeds(&g, (struct blk_spec){.pieces_min = 8, .pieces_max = 10,
	                                     .cells_min = 4, .cells_max = 15,
	                                     .max_attempts = 1000}, 3, false, NULL);
	puz_grid_clear(&g);
}

/* The grown route's budgets (blocks.h): Luby's sequence times
 * BLK_GROW_PROOF_NODES, capped; and a search they decide: 5 x 5 x 5 in
 * 16 to 20 pieces of 6 to 8 cells, seed 4, takes four proofs of 0.5,
 * 0.5, 1 and 0.5 million nodes at most, the first three cut short
 * (before the squeeze past 512 rows, solver/bbw.c's rule_below(), the
 * last took 442,639 nodes; then with every budget 1 unit it took
 * 1,942,639 nodes in all, with 64 units 1,659,546). */
static void test_blocks_grown_budget(void **state)
{
	(void)state;
	static const unsigned terms[] = {1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1,
	                                 1, 2, 4, 8, 1};
	for (size_t i = 0; i < sizeof terms / sizeof *terms; i++)
		assert_true(blk_grow_budget(i + 1) ==
		            (uint64_t)terms[i] * BLK_GROW_PROOF_NODES);
	assert_true(blk_grow_budget(63) == 32 * (uint64_t)BLK_GROW_PROOF_NODES);
	assert_true(blk_grow_budget(127) ==
	            (uint64_t)BLK_GROW_PROOF_TIMES * BLK_GROW_PROOF_NODES);
	assert_true(blk_grow_budget(255) ==
	            (uint64_t)BLK_GROW_PROOF_TIMES * BLK_GROW_PROOF_NODES);
	assert_true(blk_grow_budget(128) == BLK_GROW_PROOF_NODES);
	struct grid goal;
	box_goal(&goal, 5, 5, 5);
	struct blk_spec s = {.pieces_min = 16, .pieces_max = 20, .cells_min = 6,
	                     .cells_max = 8, .max_attempts = 100};
	struct rng r;
	rng_seed(&r, 4);
	struct blk_puzzle b;
	struct blk_found f;
	assert_int_equal(blk_find(&r, &goal, &s, &b, &f), GEN_OK);
	assert_true(f.found && f.grown);
	assert_true(f.solver_calls == 4 && f.cut_short == 3);
	assert_true(f.nodes == 2443504);
	assert_int_equal((int)b.npieces, 16);
	blk_puzzle_clear(&b);
	puz_grid_clear(&goal);
}

/* The grown route (blocks.h): pieces of BLK_GROW_CELLS to
 * BLK_GROW_CELLS_MAX cells on a goal of more than 64 cells. 4 x 4 x 5 in
 * 10 to 12 pieces of 6 to 8 cells: every rule kept (uniqueness re-proved
 * by dancing links), at most one proof an attempt, also over many
 * attempts (proofs cut short at 300 nodes) and where most growths fail
 * (pieces of exactly 8 cells); with pieces of 5 cells allowed, or of 9,
 * the refinement's cuts run instead. */
static void test_blocks_grown(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 4, 4, 5);
	struct blk_spec s = {.pieces_min = 10, .pieces_max = 12, .cells_min = 6,
	                     .cells_max = 8, .max_attempts = 1000};
	run_goal_seeds(&goal, s, 4, false, NULL);
	const struct blk_spec many[] = {
	    {.pieces_min = 10, .pieces_max = 12, .cells_min = 6, .cells_max = 8,
	     .max_attempts = 30, .proof_nodes = 300},
	    {.pieces_min = 10, .pieces_max = 10, .cells_min = 8, .cells_max = 8,
	     .max_attempts = 6}};
	for (size_t m = 0; m < sizeof many / sizeof *many; m++) {
		struct rng q;
		rng_seed(&q, 1 + (uint64_t)m);
		struct blk_puzzle c;
		struct blk_found g;
		assert_int_equal(blk_find(&q, &goal, &many[m], &c, &g), GEN_OK);
		assert_true(g.grown && g.tries >= g.attempts);
		assert_true(g.solver_calls + g.repeats <= g.attempts);
		assert_true(g.found || g.attempts == many[m].max_attempts);
		/* seed 1: 13 attempts, 12 proofs cut short, then one found */
		if (m == 0)
			assert_true(g.found && g.attempts > 10 && g.cut_short > 5);
		if (g.found) {
			check_rules(&goal, &many[m], &c, false);
			blk_puzzle_clear(&c);
		}
	}
	s.threads = 0;
	struct rng r;
	struct blk_puzzle b;
	struct blk_found f;
	for (int other = 0; other < 2; other++) {
		struct blk_spec o = s;
		if (other)
			o.cells_max = 9;
		else
			o.cells_min = 5;
		rng_seed(&r, 1);
		assert_int_equal(blk_find(&r, &goal, &o, &b, &f), GEN_OK);
		assert_false(f.grown);
		assert_true(f.tries > 0 && f.solver_calls + f.repeats >= 2);
		if (f.found)
			blk_puzzle_clear(&b);
	}
	puz_grid_clear(&goal);
}

/* A goal that is not a box: a staircase of 3 x 3 x 3 less a corner
 * column and a top row. */
static void test_blocks_any_goal(void **state)
{
	(void)state;
	struct grid g;
	box_goal(&g, 3, 3, 3);
	for (int z = 0; z < 3; z++)
		for (int x = 0; x < 3; x++)
			if (x + z >= 3)
				g.cells[puz_grid_index(&g, x, 2, z)] = 0;
	run_goal_seeds(&g, (struct blk_spec){.pieces_min = 4, .pieces_max = 5,
	                                     .cells_min = 4, .cells_max = 6,
	                                     .max_attempts = 1000}, 6, true, NULL);
	puz_grid_clear(&g);
}

/* The same seed, the same puzzle, bytes and moves; another seed, another. */
static void test_blocks_deterministic(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 4, 4, 4);
	struct blk_spec s = {.pieces_min = 8, .pieces_max = 10, .cells_min = 4,
	                     .cells_max = 8, .max_attempts = 1000};
	struct blk_puzzle b[3];
	struct blk_found f[3];
	uint64_t seeds[3] = {5, 5, 6};
	for (int i = 0; i < 3; i++) {
		struct rng r;
		rng_seed(&r, seeds[i]);
		assert_int_equal(blk_find(&r, &goal, &s, &b[i], &f[i]), GEN_OK);
		assert_true(f[i].found);
	}
	assert_memory_equal(b[0].answer, b[1].answer, 64);
	assert_int_equal(b[0].npieces, b[1].npieces);
	for (size_t i = 0; i < b[0].npieces; i++) {
		const struct grid *x = &b[0].puz.pieces[i].shape, *y = &b[1].puz.pieces[i].shape;
		assert_true(x->nx == y->nx && x->ny == y->ny && x->nz == y->nz);
		assert_memory_equal(x->cells, y->cells, (size_t)x->nx * x->ny * x->nz);
	}
	assert_int_equal(b[0].dis.nmoves, b[1].dis.nmoves);
	assert_memory_equal(b[0].dis.moves, b[1].dis.moves,
	                    b[0].dis.nmoves * sizeof *b[0].dis.moves);
	assert_int_equal(f[0].solver_calls, f[1].solver_calls);
	assert_true(memcmp(b[0].answer, b[2].answer, 64) != 0);
	for (int i = 0; i < 3; i++)
		blk_puzzle_clear(&b[i]);
	puz_grid_clear(&goal);
}

/* The exhaustive route (blocks.h): 3x3x3 in seven pieces of 3 to 5
 * cells has 889 sets of shapes, few of them puzzles. A puzzle found there
 * keeps every rule, the same seed gives the same puzzle, and the sets
 * tried are the attempts. */
static void test_blocks_exhaustive(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 3, 3, 3);
	struct blk_spec s = {.pieces_min = 7, .pieces_max = 7, .cells_min = 3,
	                     .cells_max = 5, .max_attempts = 1};
	struct blk_puzzle b[2];
	struct blk_found f[2];
	for (int i = 0; i < 2; i++) {
		struct rng r;
		rng_seed(&r, 3);
		assert_int_equal(blk_find(&r, &goal, &s, &b[i], &f[i]), GEN_OK);
		assert_true(f[i].found);
		assert_true(f[i].exhaustive);
		assert_int_equal(f[i].sets, 889);
		assert_true(f[i].attempts >= 1 && f[i].attempts <= 889);
		assert_int_equal(f[i].attempts, f[i].solver_calls);
	}
	check_rules(&goal, &s, &b[0], true);
	assert_memory_equal(b[0].answer, b[1].answer, 27);
	assert_int_equal(f[0].attempts, f[1].attempts);
	for (size_t i = 0; i < b[0].npieces; i++) {
		const struct grid *x = &b[0].puz.pieces[i].shape;
		const struct grid *y = &b[1].puz.pieces[i].shape;
		assert_true(x->nx == y->nx && x->ny == y->ny && x->nz == y->nz);
		assert_memory_equal(x->cells, y->cells, (size_t)x->nx * x->ny * x->nz);
	}
	/* other seeds, other orders: still puzzles */
	for (uint64_t seed = 4; seed <= 6; seed++) {
		struct rng r;
		rng_seed(&r, seed);
		struct blk_puzzle c;
		struct blk_found g;
		assert_int_equal(blk_find(&r, &goal, &s, &c, &g), GEN_OK);
		assert_true(g.found && g.exhaustive);
		check_rules(&goal, &s, &c, true);
		blk_puzzle_clear(&c);
	}
	/* 16 pieces of four cells in 4x4x4: only 8 tetracubes, no set */
	struct grid big;
	box_goal(&big, 4, 4, 4);
	struct blk_spec t = {.pieces_min = 16, .pieces_max = 16, .cells_min = 4,
	                     .cells_max = 4, .max_attempts = 10};
	struct rng r;
	rng_seed(&r, 1);
	struct blk_puzzle c;
	struct blk_found g;
	assert_int_equal(blk_find(&r, &big, &t, &c, &g), GEN_OK);
	assert_true(g.exhaustive && !g.found);
	assert_int_equal(g.sets, 0);
	assert_int_equal(g.attempts, 0);
	puz_grid_clear(&big);
	for (int i = 0; i < 2; i++)
		blk_puzzle_clear(&b[i]);
	puz_grid_clear(&goal);
}

/* What a progress function saw: its calls, and the figures of the last. */
struct seen {
	int calls;
	bool monotone;
	struct blk_found last;
};

static void note_progress(void *ctx, const struct blk_found *f)
{
	struct seen *v = ctx;
	if (v->calls)
		v->monotone &= f->attempts >= v->last.attempts &&
		               f->solver_calls >= v->last.solver_calls &&
		               f->nodes >= v->last.nodes && !f->found;
	v->last = *f;
	v->calls++;
}

/* A progress function sees the search's figures grow, from attempt to
 * attempt and proof to proof, summed over the puzzles of a band search,
 * and the search finds the same puzzle with it as without it: 4x4x4 in
 * 8 to 12 pieces (proofs, scouts), in the medium band (several finds
 * summed), and interlocking at level 2 (the climb's proofs). */
static void test_blocks_progress(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 4, 4, 4);
	struct blk_spec plain = {.pieces_min = 8, .pieces_max = 12, .cells_min = 4,
	                         .cells_max = 8, .max_attempts = 1000};
	struct gen_bands bands;
	assert_int_equal(blk_bands(&goal, &plain, 40, &bands), GEN_OK);
	struct blk_spec lock = plain;
	lock.pieces_max = 10;
	lock.cells_max = 12;
	lock.level_min = 2;
	const struct {
		const struct blk_spec *s;
		enum gen_band band;
	} runs[] = {{&plain, GEN_BAND_ANY}, {&plain, GEN_BAND_MEDIUM},
	            {&lock, GEN_BAND_ANY}};
	for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct blk_puzzle b[2];
			struct blk_found f[2];
			double d[2];
			struct seen v = {0, true, {0}};
			for (int with = 0; with < 2; with++) {
				struct blk_spec s = *runs[k].s;
				if (with) {
					s.progress = note_progress;
					s.progress_ctx = &v;
				}
				struct rng r;
				rng_seed(&r, seed);
				assert_int_equal(blk_find_band(&r, &goal, &s, runs[k].band,
				                               &bands, &b[with], &f[with],
				                               &d[with]), GEN_OK);
				assert_true(f[with].found);
			}
			assert_memory_equal(b[0].answer, b[1].answer, 64);
			assert_memory_equal(&f[0], &f[1], sizeof f[0]);
			assert_true(d[0] == d[1]);
			/* a call per proof at least, figures that only grow, the
			 * last no further than the end */
			assert_true(v.calls >= (int)f[1].solver_calls && v.calls > 0);
			assert_true(v.monotone);
			assert_true(v.last.attempts <= f[1].attempts &&
			            v.last.solver_calls <= f[1].solver_calls &&
			            v.last.nodes <= f[1].nodes);
			if (runs[k].band == GEN_BAND_MEDIUM)
				assert_true(v.last.attempts > 0);
			blk_puzzle_clear(&b[0]);
			blk_puzzle_clear(&b[1]);
		}
	puz_grid_clear(&goal);
}

/* Interlocking puzzles: four pieces whose first needs 5 moves, and
 * eight whose first needs 2, every rule checked (uniqueness by dancing
 * links with the inner cells optional, the level by the reference
 * disassembler); the same seed, the same puzzle. */
static void test_blocks_interlocking(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 4, 4, 4);
	struct blk_spec s4 = {.pieces_min = 4, .pieces_max = 4, .cells_min = 4,
	                      .cells_max = 16, .max_attempts = 1000,
	                      .level_min = 5};
	struct blk_spec s8 = {.pieces_min = 8, .pieces_max = 8, .cells_min = 4,
	                      .cells_max = 12, .max_attempts = 1000,
	                      .level_min = 2};
	int hollow = 0;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		const struct blk_spec *s = seed <= 5 ? &s4 : &s8;
		char why[200];
		assert_int_equal(blk_check(&goal, s, why, sizeof why), GEN_OK);
		struct blk_puzzle b, again;
		struct blk_found f;
		for (int t = 0; t < 2; t++) {
			struct rng r;
			rng_seed(&r, seed);
			assert_int_equal(blk_find(&r, &goal, s, t ? &again : &b, &f),
			                 GEN_OK);
			assert_true(f.found);
		}
		check_rules(&goal, s, &b, false);
		assert_memory_equal(b.answer, again.answer, 64);
		for (int i = 0; i < 64; i++)
			hollow += !b.answer[i];
		blk_puzzle_clear(&b);
		blk_puzzle_clear(&again);
	}
	assert_true(hollow > 0); /* a solid box could not lock (lock.c) */
	puz_grid_clear(&goal);
}

/* The reason hollows are needed (lock.c): a box filled solid, cut at
 * random into pieces, comes apart at level 1 whenever it comes apart. */
static void test_blocks_solid_box_is_level_1(void **state)
{
	(void)state;
	uint64_t st = 29;
	disasm *d = dis_new();
	assert_non_null(d);
	int apart = 0;
	for (int t = 0; t < 300; t++) {
		int nx = 2 + rnd(&st, 3), ny = 2 + rnd(&st, 3), nz = 2 + rnd(&st, 3);
		int n = nx * ny * nz, k = 2 + rnd(&st, 5);
		unsigned char lab[64] = {0};
		for (int i = 0; i < k; i++) {
			int c;
			do
				c = rnd(&st, n);
			while (lab[c]);
			lab[c] = (unsigned char)(i + 1);
		}
		/* grow the pieces at random until every cell is taken */
		for (int left = n - k; left > 0;) {
			int c = rnd(&st, n), dir = rnd(&st, 6);
			int p[3] = {c % nx, c / nx % ny, c / (nx * ny)};
			int lim[3] = {nx, ny, nz};
			p[dir / 2] += dir % 2 ? -1 : 1;
			if (lab[c] || p[dir / 2] < 0 || p[dir / 2] >= lim[dir / 2])
				continue;
			int e = p[0] + nx * (p[1] + ny * p[2]);
			if (lab[e]) {
				lab[c] = lab[e];
				left--;
			}
		}
		struct dis_result r;
		assert_int_equal(dis_run(d, nx, ny, nz, lab, (size_t)k, NULL, NULL, &r),
		                 DIS_OK);
		if (r.verdict == DIS_APART) {
			apart++;
			int first = r.nlevel ? r.level[0] : 1;
			assert_int_equal(first, 1);
		}
		dis_result_clear(&r);
	}
	assert_true(apart > 100);
	dis_free(d);
}

static void expect_refused(const struct grid *g, struct blk_spec s,
                           const char *reason)
{
	char why[200] = "";
	assert_int_equal(blk_check(g, &s, why, sizeof why), GEN_EINVAL);
	assert_non_null(strstr(why, reason));
}

static void test_blocks_refused(void **state)
{
	(void)state;
	struct grid g;
	box_goal(&g, 4, 4, 4);
	struct blk_spec ok = {.pieces_min = 8, .pieces_max = 10, .cells_min = 4,
	                      .cells_max = 8, .max_attempts = 1};
	char why[200];
	assert_int_equal(blk_check(&g, &ok, why, sizeof why), GEN_OK);
	struct blk_spec s = ok;
	s.pieces_min = 1;
	expect_refused(&g, s, "2 <= A <= B <= 64");
	s = ok;
	s.pieces_max = 65;
	expect_refused(&g, s, "2 <= A <= B <= 64");
	s = ok;
	s.pieces_min = 9;
	s.pieces_max = 4;
	expect_refused(&g, s, "2 <= A <= B");
	s = ok;
	s.cells_min = 0;
	expect_refused(&g, s, "cells must be a range");
	s = ok;
	s.pieces_min = s.pieces_max = 20; /* 20 x 4 > 64 */
	expect_refused(&g, s, "64 goal cells cannot be cut into 20..20 pieces of "
	               "4..8 cells (--pieces 8..16 would fit)");
	s = ok;
	s.pieces_min = s.pieces_max = 2; /* 2 x 8 < 64 */
	expect_refused(&g, s, "cannot be cut");
	/* two parts: a layer of x = 0 and one of x = 2 */
	struct grid h;
	box_goal(&h, 3, 4, 4);
	for (int z = 0; z < 4; z++)
		for (int y = 0; y < 4; y++)
			h.cells[puz_grid_index(&h, 1, y, z)] = 0;
	s = ok;
	s.pieces_min = 2;
	s.pieces_max = 4;
	expect_refused(&h, s, "the goal is not face-connected");
	/* an optional cell */
	g.cells[5] = PUZ_OPTIONAL;
	expect_refused(&g, ok, "optional cells");
	g.cells[5] = PUZ_CELL;
	/* levels: out of range; above 1 in a slab with no inner cell and
	 * no dent (it always comes apart at level 1); a dent is enough */
	s = ok;
	s.level_min = BLK_MAX_LEVEL + 1;
	expect_refused(&g, s, "level must be 1 to 100");
	struct grid slab;
	box_goal(&slab, 4, 4, 2);
	s = ok;
	s.pieces_min = s.pieces_max = 3;
	s.cells_max = 16;
	s.level_min = 2;
	expect_refused(&slab, s, "a level above 1 needs room");
	slab.cells[puz_grid_index(&slab, 1, 1, 1)] = 0;
	char dent[200];
	assert_int_equal(blk_check(&slab, &s, dent, sizeof dent), GEN_OK);
	puz_grid_clear(&slab);
	memset(g.cells, 0, 64);
	expect_refused(&g, ok, "the goal has 0 cells");
	puz_grid_clear(&g);
	puz_grid_clear(&h);
}

/* No puzzle within the attempts: found false, nothing to clear. */
static void test_blocks_attempts_run_out(void **state)
{
	(void)state;
	struct grid g;
	box_goal(&g, 4, 4, 4);
	/* 4x4x4 in 13 pieces of the Bedlam cube's sizes: a unique set is
	 * rare, and too many sets for the exhaustive route */
	struct blk_spec s = {.pieces_min = 13, .pieces_max = 13, .cells_min = 4,
	                     .cells_max = 6, .max_attempts = 3};
	struct rng r;
	rng_seed(&r, 1);
	struct blk_puzzle b;
	struct blk_found f;
	assert_int_equal(blk_find(&r, &g, &s, &b, &f), GEN_OK);
	assert_false(f.found);
	assert_false(f.exhaustive);
	assert_int_equal(f.attempts, 3);
	puz_grid_clear(&g);
}

/* Whether some 2 x 2 square of cells lies in the piece, in any plane. */
static bool has_square(const unsigned char *cells, int nx, int ny, int nz)
{
	int n[3] = {nx, ny, nz};
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++)
				for (int a = 0; a < 3; a++) {
					int b = (a + 1) % 3, c[3] = {x, y, z};
					if (c[a] + 1 >= n[a] || c[b] + 1 >= n[b])
						continue;
					bool all = true;
					for (int k = 0; k < 4 && all; k++) {
						int q[3] = {x, y, z};
						q[a] += k & 1;
						q[b] += k >> 1;
						all = cells[q[0] + nx * (q[1] + ny * q[2])];
					}
					if (all)
						return true;
				}
	return false;
}

/* A piece_ok test that refuses every piece with a 2 x 2 square: none is
 * written, and the answer keeps every other rule. */
static int no_square(void *ctx, const unsigned char *cells, int nx, int ny,
                     int nz)
{
	int *calls = ctx;
	++*calls;
	return !has_square(cells, nx, ny, nz);
}

static void test_blocks_piece_ok(void **state)
{
	(void)state;
	struct grid g;
	box_goal(&g, 3, 3, 3);
	int calls = 0;
	struct blk_spec s = {.pieces_min = 5, .pieces_max = 6, .cells_min = 4,
	                     .cells_max = 6, .max_attempts = 1000,
	                     .piece_ok = no_square, .ctx = &calls};
	int squares = 0;
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct rng r;
		rng_seed(&r, seed);
		struct blk_puzzle b;
		struct blk_found f;
		assert_int_equal(blk_find(&r, &g, &s, &b, &f), GEN_OK);
		assert_true(f.found);
		for (size_t i = 0; i < b.npieces; i++) {
			const struct grid *p = &b.puz.pieces[i].shape;
			assert_false(has_square(p->cells, p->nx, p->ny, p->nz));
		}
		check_rules(&g, &s, &b, true);
		blk_puzzle_clear(&b);
		/* without the test, squares are common */
		struct blk_spec t = s;
		t.piece_ok = NULL;
		rng_seed(&r, seed);
		assert_int_equal(blk_find(&r, &g, &t, &b, &f), GEN_OK);
		for (size_t i = 0; i < b.npieces; i++) {
			const struct grid *p = &b.puz.pieces[i].shape;
			squares += has_square(p->cells, p->nx, p->ny, p->nz);
		}
		blk_puzzle_clear(&b);
	}
	assert_true(calls > 0);
	assert_true(squares > 0);
	puz_grid_clear(&g);
}

/* Overhanging cells of n cells, by plain search: cells above z = 0 with
 * no cell right below. */
static int plain_overhangs(const int (*c)[3], int n)
{
	int count = 0;
	for (int i = 0; i < n; i++) {
		if (c[i][2] == 0)
			continue;
		bool below = false;
		for (int j = 0; j < n && !below; j++)
			below = c[j][0] == c[i][0] && c[j][1] == c[i][1] &&
			        c[j][2] == c[i][2] - 1;
		count += !below;
	}
	return count;
}

/* The least overhang of grid 'g' over its 24 rotations, plainly. */
static int least_overhang(const struct grid *g)
{
	int cells[BLK_MAX_CELLS][3], n = 0, best = 1 << 30;
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++)
				if (g->cells[puz_grid_index(g, x, y, z)]) {
					cells[n][0] = x;
					cells[n][1] = y;
					cells[n][2] = z;
					n++;
				}
	for (int s = 0; s < POLY_NSYM; s++) {
		if (!poly_sym_proper(s))
			continue;
		int t[BLK_MAX_CELLS][3], lo = 1 << 20;
		for (int i = 0; i < n; i++) {
			poly_sym_apply(s, cells[i], t[i]);
			lo = t[i][2] < lo ? t[i][2] : lo;
		}
		for (int i = 0; i < n; i++)
			t[i][2] -= lo;
		int o = plain_overhangs((const int (*)[3])t, n);
		best = o < best ? o : best;
	}
	return best;
}

/* poly_overhangs() against the plain count, and --support-free's pieces
 * all lie flat somehow (without it, some do not). */
static void test_blocks_support_free(void **state)
{
	(void)state;
	/* a T of four standing on its stem: the bar's two ends overhang */
	int tee[4][3] = {{1, 0, 0}, {0, 0, 1}, {1, 0, 1}, {2, 0, 1}};
	struct grid g;
	assert_int_equal(puz_grid_init(&g, 3, 1, 2), PUZ_OK);
	for (int i = 0; i < 4; i++)
		g.cells[puz_grid_index(&g, tee[i][0], tee[i][1], tee[i][2])] = 1;
	struct shape sh;
	assert_int_equal(poly_from_grid(&g, &sh), POLY_OK);
	assert_int_equal(poly_overhangs(&sh), 2);
	assert_int_equal(plain_overhangs((const int (*)[3])tee, 4), 2);
	assert_int_equal(least_overhang(&g), 0);
	for (int s = 0; s < POLY_NSYM; s++) {
		struct shape t;
		assert_int_equal(poly_transform(&sh, s, &t), POLY_OK);
		int c[4][3];
		for (size_t i = 0; i < t.n; i++) {
			c[i][0] = poly_x(t.cells[i]);
			c[i][1] = poly_y(t.cells[i]);
			c[i][2] = poly_z(t.cells[i]);
		}
		assert_int_equal(poly_overhangs(&t), plain_overhangs((const int (*)[3])c, 4));
		poly_shape_clear(&t);
	}
	poly_shape_clear(&sh);
	puz_grid_clear(&g);

	struct grid goal;
	box_goal(&goal, 4, 4, 4);
	struct blk_spec s = {.pieces_min = 8, .pieces_max = 10, .cells_min = 4,
	                     .cells_max = 8, .max_attempts = 1000,
	                     .support_free = true};
	int needing = 0;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		for (int free_ = 1; free_ >= 0; free_--) {
			s.support_free = free_;
			struct rng r;
			rng_seed(&r, seed);
			struct blk_puzzle b;
			struct blk_found f;
			assert_int_equal(blk_find(&r, &goal, &s, &b, &f), GEN_OK);
			assert_true(f.found);
			for (size_t i = 0; i < b.npieces; i++) {
				int o = least_overhang(&b.puz.pieces[i].shape);
				if (free_)
					assert_int_equal(o, 0);
				else
					needing += o > 0;
			}
			if (free_)
				check_rules(&goal, &s, &b, false);
			blk_puzzle_clear(&b);
		}
	}
	assert_true(needing > 0);
	puz_grid_clear(&goal);
}

/* The connected n-cell pieces that fit a 3 x 3 x 3 box, one per class
 * under rotation, as canonical shapes into out[] (their number). */
static int classes_in_cube(int n, struct shape *out)
{
	int count = 0, pick[4];
	for (pick[0] = 0; pick[0] < 27; pick[0]++)
		for (pick[1] = pick[0] + 1; pick[1] < 27; pick[1]++)
			for (pick[2] = pick[1] + 1; pick[2] < 27; pick[2]++)
				for (pick[3] = n == 4 ? pick[2] + 1 : 27;
				     pick[3] < 28 && (n == 3 || pick[3] < 27); pick[3]++) {
					unsigned char cells[27] = {0};
					for (int i = 0; i < n; i++)
						cells[pick[i]] = 1;
					struct grid g = {3, 3, 3, cells};
					if (!face_connected(&g, cells, 1))
						continue;
					struct shape sh, c;
					assert_int_equal(poly_from_grid(&g, &sh), POLY_OK);
					assert_int_equal(poly_canonical(&sh, &c), POLY_OK);
					poly_shape_clear(&sh);
					bool seen = false;
					for (int k = 0; k < count && !seen; k++)
						seen = poly_equal(&out[k], &c);
					if (seen)
						poly_shape_clear(&c);
					else
						out[count++] = c;
					if (n == 3)
						break;
				}
	return count;
}

/* Martin Gardner's question, answered: seven pieces of the Soma cube's
 * sizes (one of 3 cells, six of 4), no two congruent under rotation,
 * never fill the 3 x 3 x 3 cube in exactly one way. Every such set is
 * counted: 2 tricubes and the 7 tetracubes that fit (the straight one
 * does not), 6 of them in 7 ways; the Soma cube itself is one (240). */
static void test_blocks_soma_sizes_never_unique(void **state)
{
	(void)state;
	struct shape tri[8], tet[16];
	assert_int_equal(classes_in_cube(3, tri), 2);
	assert_int_equal(classes_in_cube(4, tet), 7);
	uint64_t seen_240 = 0, least = UINT64_MAX;
	for (int t = 0; t < 2; t++)
		for (int drop = 0; drop < 7; drop++) {
			struct puzzle p;
			memset(&p, 0, sizeof p);
			box_goal(&p.goal, 3, 3, 3);
			assert_non_null(p.pieces = calloc(7, sizeof *p.pieces));
			int at = 0;
			for (int k = -1; k < 7; k++) {
				if (k == drop)
					continue;
				const struct shape *sh = k < 0 ? &tri[t] : &tet[k];
				struct puz_piece *pc = &p.pieces[at++];
				snprintf(pc->name, sizeof pc->name, "p%d", at);
				pc->count = 1;
				assert_int_equal(puz_grid_init(&pc->shape, 3, 3, 3), PUZ_OK);
				for (size_t i = 0; i < sh->n; i++)
					pc->shape.cells[puz_grid_index(&pc->shape, poly_x(sh->cells[i]),
					                               poly_y(sh->cells[i]),
					                               poly_z(sh->cells[i]))] = 1;
			}
			p.npieces = 7;
			struct solve_opts o = {0};
			struct solve_result r;
			assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
			assert_true(r.complete);
			assert_int_not_equal(r.solutions, 1);
			/* and the brute force, which shares no code with it */
			struct brute_result br;
			assert_int_equal(brute_count(&p, &br), 0);
			assert_int_equal(br.solutions, r.solutions);
			assert_int_equal(br.assemblies, r.assemblies);
			if (r.solutions && r.solutions < least)
				least = r.solutions;
			seen_240 += r.solutions == 240;
			solve_result_clear(&r);
			puz_clear(&p);
		}
	assert_true(seen_240 >= 1); /* the Soma cube */
	assert_int_equal(least, 27);
	/* the generator answers it every time: the exhaustive route solves
	 * the same 14 sets and says that none is a puzzle */
	struct grid goal;
	box_goal(&goal, 3, 3, 3);
	struct blk_spec s = {.pieces_min = 7, .pieces_max = 7, .cells_min = 3,
	                     .cells_max = 4, .max_attempts = 3};
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct rng rg;
		rng_seed(&rg, seed);
		struct blk_puzzle b;
		struct blk_found f;
		assert_int_equal(blk_find(&rg, &goal, &s, &b, &f), GEN_OK);
		assert_false(f.found);
		assert_true(f.exhaustive);
		assert_int_equal(f.sets, 14);
		assert_int_equal(f.attempts, 14); /* whatever max_attempts */
		assert_int_equal(f.solver_calls, 14);
		assert_int_equal(f.sets_open, 0);
	}
	puz_grid_clear(&goal);
	for (int i = 0; i < 2; i++)
		poly_shape_clear(&tri[i]);
	for (int i = 0; i < 7; i++)
		poly_shape_clear(&tet[i]);
}

/* Bands from the puzzles themselves, and a search for each band: the
 * puzzle found scores in its band, and with no band it is blk_find()'s. */
static void test_blocks_bands(void **state)
{
	(void)state;
	struct grid goal;
	box_goal(&goal, 3, 3, 3);
	struct blk_spec s = {.pieces_min = 4, .pieces_max = 4, .cells_min = 5,
	                     .cells_max = 8, .max_attempts = 1000};
	struct gen_bands b;
	assert_int_equal(blk_bands(&goal, &s, 60, &b), GEN_OK);
	assert_int_equal(b.samples, 60);
	assert_true(b.easy_max <= b.hard_min);
	assert_int_equal(b.in_band[GEN_BAND_EASY] + b.in_band[GEN_BAND_MEDIUM] +
	                 b.in_band[GEN_BAND_HARD], 60);
	assert_true(b.in_band[GEN_BAND_EASY] >= 56); /* ceil(0.947 * 60) */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		for (int band = GEN_BAND_ANY; band <= GEN_BAND_HARD; band++) {
			struct rng r;
			rng_seed(&r, seed);
			struct blk_puzzle p;
			struct blk_found f;
			double d = -1;
			assert_int_equal(blk_find_band(&r, &goal, &s, (enum gen_band)band,
			                               &b, &p, &f, &d), GEN_OK);
			if (!f.found)
				continue;
			if (band != GEN_BAND_ANY)
				assert_int_equal(gen_band_of(&b, d), band);
			double e;
			assert_int_equal(blk_score(&p, &e), GEN_OK);
			assert_true(d == e && d > 0);
			check_rules(&goal, &s, &p, true);
			if (band == GEN_BAND_ANY) {
				struct rng q;
				rng_seed(&q, seed);
				struct blk_puzzle o;
				struct blk_found g;
				assert_int_equal(blk_find(&q, &goal, &s, &o, &g), GEN_OK);
				assert_true(g.found && g.attempts == f.attempts);
				assert_memory_equal(o.answer, p.answer, 27);
				blk_puzzle_clear(&o);
			}
			blk_puzzle_clear(&p);
		}
	}
	puz_grid_clear(&goal);
}

#ifndef HAVE_ASAN
/* Every allocation failure of one search (every one for a short
 * search, then more sparsely) is reported, leaks nothing, and a retry
 * gives the same puzzle. */
static void oom_search(const struct grid *g, const struct blk_spec *s,
                       uint64_t seed)
{
	if (s->threads > 1) {
		/* glibc keeps a joined thread's stack and its TLS block (made
		 * with our calloc) for the next thread: a first search on
		 * threads, before the count starts */
		struct rng r;
		rng_seed(&r, seed);
		struct blk_puzzle b;
		struct blk_found f;
		assert_int_equal(blk_find(&r, g, s, &b, &f), GEN_OK);
		if (f.found)
			blk_puzzle_clear(&b);
	}
	long before = live;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	struct rng r;
	rng_seed(&r, seed);
	struct blk_puzzle ref;
	struct blk_found fref;
	alloc_calls = 0;
	assert_int_equal(blk_find(&r, g, s, &ref, &fref), GEN_OK);
	assert_true(fref.found);
	long calls = alloc_calls;
	for (long k = 0; k < calls; k += 1 + k / 50) {
		rng_seed(&r, seed);
		struct blk_puzzle b;
		struct blk_found f;
		fail_after = k;
		int rc = blk_find(&r, g, s, &b, &f);
		fail_after = -1;
		if (rc == GEN_OK) {
			assert_true(f.found);
			assert_memory_equal(b.answer, ref.answer, total);
			blk_puzzle_clear(&b);
		} else {
			assert_int_equal(rc, GEN_ENOMEM);
		}
	}
	blk_puzzle_clear(&ref);
	assert_int_equal(live, before);
}
#endif

static void test_blocks_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	if (!failmalloc_active())
		skip(); /* valgrind owns malloc */
	struct grid g;
	box_goal(&g, 3, 3, 3);
	struct blk_spec s = {.pieces_min = 4, .pieces_max = 4, .cells_min = 5,
	                     .cells_max = 8, .max_attempts = 100};
	oom_search(&g, &s, 2);
	/* the exhaustive route: seed 13 finds a puzzle in the 28th set */
	s = (struct blk_spec){.pieces_min = 7, .pieces_max = 7, .cells_min = 3,
	                      .cells_max = 5, .max_attempts = 1};
	oom_search(&g, &s, 13);
	/* the drawn route, and on threads (seed 37: 50 sets, batches past
	 * the first 32; a worker's allocation failing is the search's) */
	s = (struct blk_spec){.pieces_min = 6, .pieces_max = 6, .cells_min = 4,
	                      .cells_max = 5, .max_attempts = 1000};
	oom_search(&g, &s, 1);
	s.threads = 3;
	oom_search(&g, &s, 37);
	puz_grid_clear(&g);
	/* the grown route */
	box_goal(&g, 4, 4, 5);
	s = (struct blk_spec){.pieces_min = 10, .pieces_max = 12, .cells_min = 6,
	                      .cells_max = 8, .max_attempts = 100};
	oom_search(&g, &s, 1);
	puz_grid_clear(&g);
	/* the interlocking climb and its proofs */
	box_goal(&g, 4, 4, 4);
	s = (struct blk_spec){.pieces_min = 4, .pieces_max = 4, .cells_min = 4,
	                      .cells_max = 16, .max_attempts = 100,
	                      .level_min = 3};
	oom_search(&g, &s, 3);
	puz_grid_clear(&g);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_blocks_three_cube),
		cmocka_unit_test(test_blocks_drawn),
		cmocka_unit_test(test_blocks_drawn_threads),
		cmocka_unit_test(test_blocks_four_cube),
		cmocka_unit_test(test_blocks_scouts),
		cmocka_unit_test(test_blocks_box),
		cmocka_unit_test(test_blocks_big_goals),
		cmocka_unit_test(test_blocks_grown),
		cmocka_unit_test(test_blocks_grown_budget),
		cmocka_unit_test(test_blocks_any_goal),
		cmocka_unit_test(test_blocks_deterministic),
		cmocka_unit_test(test_blocks_progress),
		cmocka_unit_test(test_blocks_interlocking),
		cmocka_unit_test(test_blocks_solid_box_is_level_1),
		cmocka_unit_test(test_blocks_refused),
		cmocka_unit_test(test_blocks_attempts_run_out),
		cmocka_unit_test(test_blocks_piece_ok),
		cmocka_unit_test(test_blocks_support_free),
		cmocka_unit_test(test_blocks_soma_sizes_never_unique),
		cmocka_unit_test(test_blocks_exhaustive),
		cmocka_unit_test(test_blocks_bands),
		cmocka_unit_test(test_blocks_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
