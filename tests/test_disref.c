/*
 * test_disref.c: the brute-force reference disassembler (tests/disref.h)
 * on hand-made assemblies with answers worked out by hand, its move
 * checker accepting right disassemblies and rejecting wrong ones, and the
 * random assembly maker (shape, determinism, and that its draws give
 * stuck, apart and several-move cases).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tests/disref.h"
#include "tests/failmalloc.h"

/* ---- assemblies drawn in code ------------------------------------------- */

struct assembly {
	int nx, ny, nz;
	unsigned char labels[512];
	size_t npieces;
};

/* An assembly from a drawing: x along a row, rows (y = 0, 1, ...)
 * separated by '/', layers (z = 0, 1, ...) by '|'; '.' an empty cell, 'a'
 * piece 0, 'b' piece 1, ... */
static struct assembly draw(const char *s)
{
	struct assembly a;
	memset(&a, 0, sizeof a);
	int x = 0, y = 0, z = 0;
	a.nx = a.ny = a.nz = 1;
	for (const char *c = s; *c; c++) {
		if (*c == '/') {
			y++;
			x = 0;
			continue;
		}
		if (*c == '|') {
			z++;
			y = x = 0;
			continue;
		}
		x++;
		a.nx = x > a.nx ? x : a.nx;
		a.ny = y + 1 > a.ny ? y + 1 : a.ny;
		a.nz = z + 1;
	}
	assert_true(a.nx * a.ny * a.nz <= (int)sizeof a.labels);
	x = y = z = 0;
	for (const char *c = s; *c; c++) {
		if (*c == '/') {
			y++;
			x = 0;
		} else if (*c == '|') {
			z++;
			y = x = 0;
		} else {
			int l = *c == '.' ? 0 : *c - 'a' + 1;
			assert_true(l >= 0 && l <= DISREF_MAX_PIECES);
			a.labels[x + a.nx * (y + a.ny * z)] = (unsigned char)l;
			if ((size_t)l > a.npieces)
				a.npieces = (size_t)l;
			x++;
		}
	}
	return a;
}

/* A cube of 3 x 3 x 3: piece a a hollow shell, b the centre it locks in
 * on every side. Stuck: nothing can move at all. */
#define CAGE "aaa/aaa/aaa|aaa/aba/aaa|aaa/aaa/aaa"

/* 4 x 3 x 3, a everywhere but b at (1,1,1) and a channel (2,1,1),
 * (2,2,1) opening at the top face y = 2: b slides +x by 1 (one cell
 * only: (3,1,1) is a), then leaves along +y. Level 2. */
#define SLIDE "aaaa/aaaa/aaaa|aaaa/ab.a/aa.a|aaaa/aaaa/aaaa"

/* 4 x 4 x 3, the channel (2,1,1), (2,2,1), (2,2,2) opening at the face
 * z = 2: b goes +x 1, +y 1 (only: (2,3,1) is a), then out along +z.
 * Level 3. */
#define TURN "aaaa/aaaa/aaaa/aaaa|aaaa/ab.a/aa.a/aaaa|aaaa/aaaa/aa.a/aaaa"

/* SLIDE with a loose cube c two cells beyond it: c comes off first (one
 * move), then a and b take two. Level 1.2. */
#define SLIDE_AND_CUBE \
	"aaaa.c/aaaa../aaaa..|aaaa../ab.a../aa.a..|aaaa../aaaa../aaaa.."

/* CAGE with a loose cube c: c comes off, and the cage is stuck. */
#define CAGE_AND_CUBE \
	"aaa.c/aaa../aaa..|aaa../aba../aaa..|aaa../aaa../aaa.."

/* Two SLIDE pairs side by side, a around b and c around d. */
#define TWO_SLIDES \
	"aaaa.cccc/aaaa.cccc/aaaa.cccc|aaaa.cccc/ab.a.cd.c/aa.a.cc.c|" \
	"aaaa.cccc/aaaa.cccc/aaaa.cccc"

/* A CAGE pair (a, b) beside a SLIDE pair (c around d). */
#define CAGE_AND_SLIDE \
	"aaa.cccc/aaa.cccc/aaa.cccc|aaa.cccc/aba.cd.c/aaa.cc.c|" \
	"aaa.cccc/aaa.cccc/aaa.cccc"

/* A 4 x 4 x 4 cage a with one hole, (1,1,3) in its top face, around b, a
 * vertical domino at (1,2,1)-(1,2,2), and c, a cube at (2,2,2). b leaves
 * in 2 moves (-y 1, then +z through the hole), so L = 2, and there are
 * two ways: b alone goes -y, leaving c 3 moves from the hole (-x, -y, +z;
 * 7 positions of depth < 3), or b and c go -y together, leaving c 2 moves
 * away (-x, +z; 4 positions). Both are separations at depth 2: the level
 * is 2.3 or 2.2, by the one taken. The top part keeps 5 positions (depth
 * 0, and 4 of depth 1: b -y, c -y, c -z, b and c -y). */
#define TWO_WAYS \
	"aaaa/aaaa/aaaa/aaaa|aaaa/a..a/ab.a/aaaa|aaaa/a..a/abca/aaaa|" \
	"aaaa/a.aa/aaaa/aaaa"

struct solved {
	int verdict, first;
};

static struct solved solve(const char *s, const int *weights, uint64_t max_nodes)
{
	struct assembly a = draw(s);
	struct solved r = {-1, -1};
	assert_int_equal(disref_solve(a.nx, a.ny, a.nz, a.labels, a.npieces,
	                              weights, max_nodes, &r.verdict, &r.first), 0);
	return r;
}

/* The reference's own disassembly of 's' must be 'verdict' with the
 * level 'level' (nlevel numbers), and pass disref_check(). */
static void expect_level(const char *s, int verdict, const int *level,
                         size_t nlevel)
{
	struct assembly a = draw(s);
	int v, lv[DISREF_MAX_PIECES];
	struct dis_move *m;
	size_t nm, nlv;
	assert_int_equal(disref_disassemble(a.nx, a.ny, a.nz, a.labels, a.npieces,
	                                    NULL, 0, &v, &m, &nm, lv, &nlv), 0);
	assert_int_equal(v, verdict);
	assert_int_equal(nlv, nlevel);
	if (nlevel)
		assert_memory_equal(lv, level, nlevel * sizeof *level);
	if (v == DIS_APART) {
		const char *e = disref_check(a.nx, a.ny, a.nz, a.labels, a.npieces,
		                             NULL, m, nm, lv, nlv);
		if (e)
			fail_msg("%s: the reference's own moves: %s", s, e);
	} else {
		assert_null(m);
		assert_int_equal(nm, 0);
	}
	free(m);
}

/* disref_check() on 's' with these moves and this level: NULL when 'ok',
 * else a message containing 'why'. */
static void check_moves(const char *s, const int *weights,
                         const struct dis_move *m, size_t nm,
                         const int *level, size_t nlevel, const char *why)
{
	struct assembly a = draw(s);
	const char *e = disref_check(a.nx, a.ny, a.nz, a.labels, a.npieces,
	                             weights, m, nm, level, nlevel);
	if (!why && e)
		fail_msg("%s: rejected: %s", s, e);
	if (why && !e)
		fail_msg("%s: accepted, expected '%s'", s, why);
	if (why && !strstr(e, why))
		fail_msg("%s: '%s', expected '%s'", s, e, why);
}

/* Groups: bit i for piece i ('a' is piece 0). */
#define PA 1u
#define PB 2u
#define PC 4u

/* ---- known answers ------------------------------------------------------ */

static void test_disref_loose_and_stacked(void **state)
{
	(void)state;
	static const int one[] = {1};
	struct solved r = solve("a.b", NULL, 0);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.first, 1);
	expect_level("a.b", DIS_APART, one, 1);
	expect_level("ab", DIS_APART, one, 1);
	expect_level("a|b", DIS_APART, one, 1);
	expect_level("ab/cd|ef/gh", DIS_APART, one, 1);
	/* one piece: nothing to do, no level */
	r = solve("aa/a.", NULL, 0);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.first, 0);
	expect_level("aa/a.", DIS_APART, NULL, 0);
}

static void test_disref_cage_is_stuck(void **state)
{
	(void)state;
	struct solved r = solve(CAGE, NULL, 0);
	assert_int_equal(r.verdict, DIS_STUCK);
	assert_int_equal(r.first, 0); /* no separation at all */
	expect_level(CAGE, DIS_STUCK, NULL, 0);
	/* A separation at depth 1 whose left side is the stuck cage. */
	r = solve(CAGE_AND_CUBE, NULL, 0);
	assert_int_equal(r.verdict, DIS_STUCK);
	assert_int_equal(r.first, 1);
	/* Open one face of the cage next to b: b leaves in one move. */
	static const int one[] = {1};
	expect_level("aaa/aaa/aaa|aaa/ab./aaa|aaa/aaa/aaa", DIS_APART, one, 1);
}

static void test_disref_several_moves(void **state)
{
	(void)state;
	static const int two[] = {2}, three[] = {3}, one_two[] = {1, 2},
	                 one_two_two[] = {1, 2, 2};
	struct solved r = solve(SLIDE, NULL, 0);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.first, 2);
	expect_level(SLIDE, DIS_APART, two, 1);
	r = solve(TURN, NULL, 0);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.first, 3);
	expect_level(TURN, DIS_APART, three, 1);
	r = solve(SLIDE_AND_CUBE, NULL, 0);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.first, 1);
	expect_level(SLIDE_AND_CUBE, DIS_APART, one_two, 2);
	/* {a,b} | {c,d}: as many pieces, so {c,d} (without a) is removed;
	 * then a's pair, then c's: 1.2.2. */
	expect_level(TWO_SLIDES, DIS_APART, one_two_two, 3);
}

/* max_nodes bounds the positions of depth < L a part's search keeps. */
static void test_disref_bound(void **state)
{
	(void)state;
	/* SLIDE keeps 2 positions: the start and b moved +x. */
	assert_int_equal(solve(SLIDE, NULL, 1).verdict, DIS_BOUND);
	assert_int_equal(solve(SLIDE, NULL, 2).verdict, DIS_APART);
	assert_int_equal(solve(TURN, NULL, 2).verdict, DIS_BOUND);
	assert_int_equal(solve(TURN, NULL, 3).verdict, DIS_APART);
	/* The top part separates at depth 1 (1 position); both pairs are
	 * bound at 1. */
	assert_int_equal(solve(TWO_SLIDES, NULL, 1).verdict, DIS_BOUND);
	assert_int_equal(solve(TWO_SLIDES, NULL, 2).verdict, DIS_APART);
	/* A stuck side decides the separation, whatever the other side. */
	struct solved r = solve(CAGE_AND_SLIDE, NULL, 1);
	assert_int_equal(r.verdict, DIS_STUCK);
	assert_int_equal(r.first, 1);
	assert_int_equal(solve(CAGE_AND_SLIDE, NULL, 0).verdict, DIS_STUCK);
	/* A stuck search is bound when it needs more positions than allowed:
	 * the cage's only position fits in 1. */
	assert_int_equal(solve(CAGE, NULL, 1).verdict, DIS_STUCK);
}

/* A separation whose side is bound decides nothing: another at the same
 * depth that comes apart within the limit makes the whole apart. */
static void test_disref_bound_side_undecided(void **state)
{
	(void)state;
	struct solved r = solve(TWO_WAYS, NULL, 0);
	assert_int_equal(r.verdict, DIS_APART);
	assert_int_equal(r.first, 2);
	assert_int_equal(solve(TWO_WAYS, NULL, 4).verdict, DIS_BOUND); /* top */
	/* 5 and 6: the first way's side (7 positions) is bound, the
	 * second's (4) comes apart. */
	assert_int_equal(solve(TWO_WAYS, NULL, 5).verdict, DIS_APART);
	assert_int_equal(solve(TWO_WAYS, NULL, 6).verdict, DIS_APART);
	assert_int_equal(solve(TWO_WAYS, NULL, 7).verdict, DIS_APART);
	struct assembly a = draw(TWO_WAYS);
	int v, lv[DISREF_MAX_PIECES];
	struct dis_move *m;
	size_t nm, nlv;
	assert_int_equal(disref_disassemble(a.nx, a.ny, a.nz, a.labels, a.npieces,
	                                    NULL, 5, &v, &m, &nm, lv, &nlv), 0);
	assert_int_equal(v, DIS_APART);
	assert_int_equal(nlv, 2);
	assert_int_equal(lv[0], 2);
	assert_int_equal(lv[1], 2); /* the only way within 5 positions */
	free(m);
	/* Both ways obey the rules, with their own levels. */
	static const int two_three[] = {2, 3}, two_two[] = {2, 2};
	static const struct dis_move alone[] = {
		{PB, DIS_NY, 1}, {PB, DIS_PZ, 0},
		{PC, DIS_NX, 1}, {PC, DIS_NY, 1}, {PC, DIS_PZ, 0}};
	static const struct dis_move together[] = {
		{PB | PC, DIS_NY, 1}, {PB, DIS_PZ, 0}, {PC, DIS_NX, 1}, {PC, DIS_PZ, 0}};
	check_moves(TWO_WAYS, NULL, alone, 5, two_three, 2, NULL);
	check_moves(TWO_WAYS, NULL, together, 4, two_two, 2, NULL);
	check_moves(TWO_WAYS, NULL, alone, 5, two_two, 2,
	            "level: the moves give 2.3");
	check_moves(TWO_WAYS, NULL, together, 4, two_three, 2,
	            "level: the moves give 2.2");
}

/* ---- the checker -------------------------------------------------------- */

static void test_disref_check_accepts(void **state)
{
	(void)state;
	static const int one[] = {1}, two[] = {2}, three[] = {3},
	                 one_two[] = {1, 2};
	/* Two cubes: b is removed (as many pieces, b is not the first). */
	static const struct dis_move loose[] = {{PB, DIS_PX, 0}};
	check_moves("a.b", NULL, loose, 1, one, 1, NULL);
	static const struct dis_move loose_y[] = {{PB, DIS_NY, 0}};
	check_moves("a.b", NULL, loose_y, 1, one, 1, NULL);
	/* A full tie (one piece each, as heavy): either side may go, as
	 * disasm.h breaks it by BurrTools' order. */
	static const struct dis_move loose_a[] = {{PA, DIS_NX, 0}};
	check_moves("a.b", NULL, loose_a, 1, one, 1, NULL);
	/* b slides and leaves; or a slides the other way (the same
	 * position). */
	static const struct dis_move slide[] = {{PB, DIS_PX, 1}, {PB, DIS_PY, 0}};
	check_moves(SLIDE, NULL, slide, 2, two, 1, NULL);
	static const struct dis_move slide_a[] = {{PA, DIS_NX, 1}, {PB, DIS_PY, 0}};
	check_moves(SLIDE, NULL, slide_a, 2, two, 1, NULL);
	static const struct dis_move slide_out_a[] = {{PB, DIS_PX, 1},
	                                              {PA, DIS_NY, 0}};
	check_moves(SLIDE, NULL, slide_out_a, 2, two, 1, NULL);
	static const struct dis_move turn[] = {
		{PB, DIS_PX, 1}, {PB, DIS_PY, 1}, {PB, DIS_PZ, 0}};
	check_moves(TURN, NULL, turn, 3, three, 1, NULL);
	/* c first, then the pair: the left part's moves follow. */
	static const struct dis_move sc[] = {
		{PC, DIS_PX, 0}, {PB, DIS_PX, 1}, {PB, DIS_PY, 0}};
	check_moves(SLIDE_AND_CUBE, NULL, sc, 3, one_two, 2, NULL);
	/* A stack of three: {c} or {a} may go first (each alone against
	 * two); after a, the left {b,c} removes c. */
	static const struct dis_move stack1[] = {{PC, DIS_PZ, 0}, {PB, DIS_PZ, 0}};
	check_moves("a|b|c", NULL, stack1, 2, one, 1, NULL);
	static const struct dis_move stack2[] = {{PA, DIS_NZ, 0}, {PC, DIS_PZ, 0}};
	check_moves("a|b|c", NULL, stack2, 2, one, 1, NULL);
	/* One piece: no moves, no level. */
	check_moves("aa", NULL, NULL, 0, NULL, 0, NULL);
	/* The heaviest piece stays: with b heavier, a is removed, going -y. */
	static const int heavy_b[] = {1, 2};
	static const struct dis_move slide_w[] = {{PB, DIS_PX, 1}, {PA, DIS_NY, 0}};
	check_moves(SLIDE, heavy_b, slide_w, 2, two, 1, NULL);
}

static void test_disref_check_rejects(void **state)
{
	(void)state;
	static const int one[] = {1}, two[] = {2}, one_two[] = {1, 2};
	/* b cannot leave -x: a is in the way. */
	static const struct dis_move blocked[] = {{PB, DIS_NX, 0}};
	check_moves("a.b", NULL, blocked, 1, one, 1, "move 0: out, but");
	/* The removed side is the smaller: c, not a and b. */
	static const struct dis_move wrong_side[] = {{PA | PB, DIS_NX, 0}};
	check_moves(SLIDE_AND_CUBE, NULL, wrong_side, 1, one_two, 2,
	            "move 0: the out group");
	/* A free group moved a finite distance. */
	static const struct dis_move finite[] = {{PB, DIS_PX, 3}, {PB, DIS_PX, 0}};
	check_moves("a.b", NULL, finite, 2, one, 1, "move 0: a free group");
	/* The level of a one-move disassembly is 1. */
	check_moves("a.b", NULL, (const struct dis_move[]){{PB, DIS_PX, 0}}, 1,
	             two, 1, "level: the moves give 1");
	/* b out at once: blocked. */
	static const struct dis_move early[] = {{PB, DIS_PY, 0}};
	check_moves(SLIDE, NULL, early, 1, two, 1, "move 0: out, but");
	/* b slides 2: (3,1,1) is a. */
	static const struct dis_move far[] = {{PB, DIS_PX, 2}, {PB, DIS_PY, 0}};
	check_moves(SLIDE, NULL, far, 2, two, 1, "move 0: collides at step 2");
	/* With b heavier, b must stay. */
	static const int heavy_b[] = {1, 2};
	static const struct dis_move slide[] = {{PB, DIS_PX, 1}, {PB, DIS_PY, 0}};
	check_moves(SLIDE, heavy_b, slide, 2, two, 1, "move 1: the out group");
	/* Right moves, wrong level; missing and extra moves. */
	check_moves(SLIDE, NULL, slide, 2, one, 1, "level: the moves give 2");
	check_moves(SLIDE, NULL, slide, 1, two, 1, "move 1: the list ends");
	static const struct dis_move extra[] = {
		{PB, DIS_PX, 1}, {PB, DIS_PY, 0}, {PA, DIS_PX, 0}};
	check_moves(SLIDE, NULL, extra, 3, two, 1, "move 2: left over");
	/* A detour: a legal path of 3 moves where 2 do. */
	static const struct dis_move detour[] = {
		{PB, DIS_PX, 1}, {PB, DIS_NX, 1}, {PB, DIS_PX, 1}, {PB, DIS_PY, 0}};
	check_moves(SLIDE, NULL, detour, 4, two, 1, "move 3: its part comes "
	             "apart in 4 moves, the least is 2");
	/* The pair's moves before c's separation: the top part would take
	 * 3 moves where 1 does. */
	static const struct dis_move order[] = {
		{PB, DIS_PX, 1}, {PC, DIS_PX, 0}, {PB, DIS_PY, 0}};
	check_moves(SLIDE_AND_CUBE, NULL, order, 3, one_two, 2,
	             "move 1: its part comes apart in 2 moves");
	check_moves(SLIDE_AND_CUBE, NULL,
	             (const struct dis_move[]){{PC, DIS_PX, 0}, {PB, DIS_PX, 1},
	                                       {PB, DIS_PY, 0}},
	             3, one, 1, "level: the moves give 1.2");
	/* {b,c} leaving a stack of three: a alone is the removed side. */
	static const struct dis_move pair[] = {{PB | PC, DIS_PZ, 0}, {PC, DIS_PZ, 0}};
	check_moves("a|b|c", NULL, pair, 2, one, 1, "move 0: the out group");
	/* Groups: outside the part, empty, everything; bad direction. */
	static const struct dis_move outside[] = {{PC, DIS_PX, 0}, {PC, DIS_PX, 0}};
	check_moves("a.b", NULL, outside, 1, one, 1, "move 0: its group has");
	static const struct dis_move none[] = {{0, DIS_PX, 0}};
	check_moves("a.b", NULL, none, 1, one, 1, "move 0: its group is empty");
	static const struct dis_move all[] = {{PA | PB, DIS_PX, 0}};
	check_moves("a.b", NULL, all, 1, one, 1, "move 0: its group is empty");
	static const struct dis_move baddir[] = {{PB, 6, 0}};
	check_moves("a.b", NULL, baddir, 1, one, 1, "move 0: no such direction");
	/* A stuck assembly has no disassembly. */
	static const struct dis_move cage[] = {{PB, DIS_PX, 0}};
	check_moves(CAGE, NULL, cage, 1, one, 1, "move 0: out, but");
}

/* ---- out of memory ------------------------------------------------------ */

/* Every allocation failing in turn: -1, outputs untouched, nothing
 * leaked; once none fails, the normal answer. (Skipped where failmalloc
 * is not the program's malloc: ASan, valgrind.) */
static void test_disref_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	if (!failmalloc_active())
		skip();
	struct assembly a = draw(TWO_SLIDES);
	for (long k = 0;; k++) {
		int v = -7, f = -7;
		long before = live;
		fail_after = k;
		int rc = disref_solve(a.nx, a.ny, a.nz, a.labels, a.npieces, NULL, 0,
		                      &v, &f);
		fail_after = -1;
		assert_int_equal(live, before);
		if (rc == 0) {
			assert_int_equal(v, DIS_APART);
			assert_int_equal(f, 1);
			break;
		}
		assert_int_equal(rc, -1);
		assert_int_equal(v, -7);
		assert_int_equal(f, -7);
		assert_true(k < 10000);
	}
	for (long k = 0;; k++) {
		int v = -7, lv[DISREF_MAX_PIECES] = {-7};
		struct dis_move sentinel, *m = &sentinel;
		size_t nm = 77, nlv = 77;
		long before = live;
		fail_after = k;
		int rc = disref_disassemble(a.nx, a.ny, a.nz, a.labels, a.npieces,
		                            NULL, 0, &v, &m, &nm, lv, &nlv);
		fail_after = -1;
		if (rc == 0) {
			assert_int_equal(v, DIS_APART);
			assert_int_equal(nlv, 3);
			assert_int_equal(nm, 5);
			free(m);
			assert_int_equal(live, before);
			break;
		}
		assert_int_equal(live, before);
		assert_int_equal(rc, -1);
		assert_int_equal(v, -7);
		assert_true(m == &sentinel);
		assert_int_equal(nm, 77);
		assert_int_equal(nlv, 77);
		assert_int_equal(lv[0], -7);
		assert_true(k < 10000);
	}
#endif
}

/* ---- random assemblies -------------------------------------------------- */

/* Whether every piece 1..n of 'a' has a cell and its cells are face
 * connected. */
static bool pieces_connected(const struct assembly *a)
{
	int n = a->nx * a->ny * a->nz;
	for (size_t p = 1; p <= a->npieces; p++) {
		int stack[DISREF_RANDOM_CELLS], top = 0, seen = 0, cells = 0;
		bool mark[DISREF_RANDOM_CELLS] = {false};
		for (int c = 0; c < n; c++)
			if (a->labels[c] == p) {
				if (!cells++) {
					mark[c] = true;
					stack[top++] = c;
				}
			}
		if (!cells)
			return false;
		while (top) {
			int c = stack[--top];
			seen++;
			int x = c % a->nx, y = c / a->nx % a->ny, z = c / (a->nx * a->ny);
			int nb[6][3] = {{x + 1, y, z}, {x - 1, y, z}, {x, y + 1, z},
			                {x, y - 1, z}, {x, y, z + 1}, {x, y, z - 1}};
			for (int i = 0; i < 6; i++) {
				int u = nb[i][0], v = nb[i][1], w = nb[i][2];
				if (u < 0 || v < 0 || w < 0 || u >= a->nx || v >= a->ny ||
				    w >= a->nz)
					continue;
				int e = u + a->nx * (v + a->ny * w);
				if (a->labels[e] == p && !mark[e]) {
					mark[e] = true;
					stack[top++] = e;
				}
			}
		}
		if (seen != cells)
			return false;
	}
	return true;
}

static struct assembly random_assembly(uint64_t *rs)
{
	struct assembly a;
	memset(&a, 0, sizeof a);
	disref_random(rs, &a.nx, &a.ny, &a.nz, a.labels, &a.npieces);
	return a;
}

static void test_disref_random_shapes(void **state)
{
	(void)state;
	uint64_t rs = 1, again = 1;
	for (int i = 0; i < 300; i++) {
		struct assembly a = random_assembly(&rs);
		struct assembly b = random_assembly(&again);
		assert_memory_equal(&a, &b, sizeof a); /* deterministic */
		assert_in_range(a.nx, 2, 4);
		assert_in_range(a.ny, 2, 4);
		assert_in_range(a.nz, 2, 4);
		assert_in_range(a.npieces, 2, 7);
		for (int c = 0; c < a.nx * a.ny * a.nz; c++)
			assert_true(a.labels[c] <= a.npieces);
		assert_true(pieces_connected(&a));
	}
	assert_true(rs == again);
}

/*
 * 300 draws: the verdict is the same twice and by both entry points; an
 * apart one's own disassembly passes the checker with its level starting
 * at 'first', and fails it with a move dropped or the level changed (so
 * the comparison can fail). The draws must show stuck, apart, a first
 * number above 1 and a level other than 1.
 */
static void test_disref_random_verdicts(void **state)
{
	(void)state;
	uint64_t rs = 1;
	int apart = 0, stuck = 0, bound = 0, first_big = 0, deep = 0;
	for (int i = 0; i < 300; i++) {
		struct assembly a = random_assembly(&rs);
		int v, f, v2, f2, v3, lv[DISREF_MAX_PIECES];
		struct dis_move *m;
		size_t nm, nlv;
		assert_int_equal(disref_solve(a.nx, a.ny, a.nz, a.labels, a.npieces,
		                              NULL, 0, &v, &f), 0);
		assert_int_equal(disref_solve(a.nx, a.ny, a.nz, a.labels, a.npieces,
		                              NULL, 0, &v2, &f2), 0);
		assert_int_equal(v, v2);
		assert_int_equal(f, f2);
		assert_int_equal(disref_disassemble(a.nx, a.ny, a.nz, a.labels,
		                                    a.npieces, NULL, 0, &v3, &m, &nm,
		                                    lv, &nlv), 0);
		assert_int_equal(v3, v);
		apart += v == DIS_APART;
		stuck += v == DIS_STUCK;
		bound += v == DIS_BOUND;
		if (v == DIS_APART) {
			first_big += f > 1;
			deep += nlv > 1 || lv[0] > 1;
			assert_true(nlv >= 1 && lv[0] == f);
			const char *e = disref_check(a.nx, a.ny, a.nz, a.labels,
			                             a.npieces, NULL, m, nm, lv, nlv);
			if (e)
				fail_msg("draw %d: the reference's own moves: %s", i, e);
			assert_non_null(disref_check(a.nx, a.ny, a.nz, a.labels,
			                             a.npieces, NULL, m, nm - 1, lv, nlv));
			lv[nlv - 1]++;
			assert_non_null(disref_check(a.nx, a.ny, a.nz, a.labels,
			                             a.npieces, NULL, m, nm, lv, nlv));
		}
		free(m);
	}
	print_message("300 draws: %d apart (%d first > 1, %d level > 1), "
	              "%d stuck, %d bound\n", apart, first_big, deep, stuck, bound);
	assert_int_equal(bound, 0);
	assert_true(stuck >= 1);
	assert_true(apart >= 1);
	assert_true(first_big >= 1);
	assert_true(deep >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disref_loose_and_stacked),
		cmocka_unit_test(test_disref_cage_is_stuck),
		cmocka_unit_test(test_disref_several_moves),
		cmocka_unit_test(test_disref_bound),
		cmocka_unit_test(test_disref_bound_side_undecided),
		cmocka_unit_test(test_disref_check_accepts),
		cmocka_unit_test(test_disref_check_rejects),
		cmocka_unit_test(test_disref_out_of_memory),
		cmocka_unit_test(test_disref_random_shapes),
		cmocka_unit_test(test_disref_random_verdicts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
