/*
 * test_brute.c: known answers for the brute-force reference counter, and
 * sanity checks of the random puzzle makers it is paired with.
 * Run from the repository root (the data lives in tests/data/classic).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "tests/brute.h"
#include "tests/randpuz.h"

#define DATA "tests/data/classic/"

/* ---- building puzzles in code ------------------------------------- */

/* Fill g from a drawing: rows of '#'/'.' separated by '/', z layers
 * separated by '|', e.g. "##/#.|.#/.." (x fastest). */
static void draw(struct grid *g, const char *s)
{
	int nx = 0, ny = 0, nz = 1, x = 0, y = 0;
	for (const char *c = s; *c; c++) {
		if (*c == '/') {
			y++;
			x = 0;
		} else if (*c == '|') {
			nz++;
			y = 0;
			x = 0;
		} else {
			x++;
			if (x > nx)
				nx = x;
			if (y + 1 > ny)
				ny = y + 1;
		}
	}
	assert_int_equal(puz_grid_init(g, nx, ny, nz), PUZ_OK);
	int z = 0;
	x = y = 0;
	for (const char *c = s; *c; c++) {
		if (*c == '/') {
			y++;
			x = 0;
		} else if (*c == '|') {
			z++;
			y = 0;
			x = 0;
		} else {
			g->cells[puz_grid_index(g, x, y, z)] = *c == '#';
			x++;
		}
	}
}

/* A puzzle from a goal drawing and up to 8 (drawing, count) pairs,
 * terminated by NULL. */
static void make(struct puzzle *p, const char *goal, ...)
{
	memset(p, 0, sizeof *p);
	draw(&p->goal, goal);
	p->pieces = calloc(8, sizeof *p->pieces);
	assert_non_null(p->pieces);
	va_list ap;
	va_start(ap, goal);
	const char *s;
	while ((s = va_arg(ap, const char *)) != NULL) {
		assert_true(p->npieces < 8);
		struct puz_piece *pc = &p->pieces[p->npieces];
		draw(&pc->shape, s);
		pc->count = va_arg(ap, unsigned);
		pc->name[0] = (char)('a' + p->npieces);
		p->npieces++;
	}
	va_end(ap);
}

static void expect(const struct puzzle *p, uint64_t assemblies,
                   uint64_t solutions, int group, bool mirror)
{
	struct brute_result r;
	assert_int_equal(brute_count(p, &r), 0);
	assert_int_equal(r.assemblies, assemblies);
	assert_int_equal(r.solutions, solutions);
	assert_int_equal(r.group_order, group);
	assert_int_equal(r.mirror_closed, mirror);
}

static void expect_file(const char *path, uint64_t assemblies,
                        uint64_t solutions, int group, bool mirror)
{
	struct puzzle p;
	struct puz_error err;
	int rc = puz_read_file(path, &p, &err);
	if (rc != PUZ_OK)
		fail_msg("%s:%d:%d: %s", path, err.line, err.col, err.msg);
	expect(&p, assemblies, solutions, group, mirror);
	puz_clear(&p);
}

/* ---- known answers ------------------------------------------------ */

static void test_soma(void **state)
{
	(void)state;
	expect_file(DATA "soma.puz", 11520, 240, 48, true);
}

static void test_happycubes(void **state)
{
	(void)state;
	expect_file(DATA "HC_BQ_001.puz", 48, 1, 48, true);
	expect_file(DATA "happycube-blue.puz", 144, 3, 48, true);
}

/* DESIGN §3: two L trominoes in a 3x2x1 box. The L holding cell (0,0)
 * lies in columns 0-1 and misses (1,0), (1,1) or (0,1); the rest is an L
 * in the first two cases only: 2 assemblies, swapped by the half turn
 * about z, so 1 solution. The box has 4 proper symmetries, 8 with mirrors
 * (a flat L is its own mirror image). */
static void test_l_trominoes(void **state)
{
	(void)state;
	struct puzzle p;
	make(&p, "###/###", "##/#.", 2u, NULL);
	expect(&p, 2, 1, 8, true);
	puz_clear(&p);
	/* the same piece given twice, drawn differently: one type, count 2 */
	make(&p, "###/###", "##/#.", 1u, ".#/##", 1u, NULL);
	expect(&p, 2, 1, 8, true);
	puz_clear(&p);
	/* standing up in a 1x3x2 box */
	make(&p, "#/#/#|#/#/#", "##/#.", 2u, NULL);
	expect(&p, 2, 1, 8, true);
	puz_clear(&p);
}

static void test_monocubes(void **state)
{
	(void)state;
	struct puzzle p;
	/* 2x2x1: proper symmetries of a square plate: 8 (4 turns x flip) */
	make(&p, "##/##", "#", 4u, NULL);
	expect(&p, 1, 1, 16, true);
	puz_clear(&p);
	make(&p, "##/##", "#", 1u, "#", 1u, "#", 2u, NULL);
	expect(&p, 1, 1, 16, true);
	puz_clear(&p);
	/* a 1x1x3 bar: 8 proper symmetries, 16 with mirrors */
	make(&p, "#|#|#", "#", 3u, NULL);
	expect(&p, 1, 1, 16, true);
	puz_clear(&p);
	/* too few or too many cells: no assembly */
	make(&p, "#|#|#", "#", 2u, NULL);
	expect(&p, 0, 0, 16, true);
	puz_clear(&p);
	make(&p, "#|#|#", "#", 4u, NULL);
	expect(&p, 0, 0, 16, true);
	puz_clear(&p);
}

/* A monocube and a domino in a 1x3 bar: the domino at either end, two
 * assemblies related by the half turn. */
static void test_distinct_types(void **state)
{
	(void)state;
	struct puzzle p;
	make(&p, "###", "#", 1u, "##", 1u, NULL);
	expect(&p, 2, 1, 16, true);
	puz_clear(&p);
	/* an I tromino and a split tromino cannot fill a 3x2 box */
	make(&p, "###/###", "###", 1u, "#.#/.#.", 1u, NULL);
	expect(&p, 0, 0, 8, true);
	puz_clear(&p);
}

/* Soma's A and B are mirror images (each with a 2-fold axis, so 12
 * orientations); the rest of a 2x2x2 cube after placing one is congruent
 * to the same one, never to its mirror image. So {A, A} fills the cube in
 * 12 / 2 = 6 assemblies, all one solution (chiral: only 24 symmetries),
 * and {A, B} cannot fill it. In a 2x2x4 box the four pieces {A, A, B, B}
 * are mirror-closed (16 symmetries) while {A, A, A, A} are not (8). */
#define SOMA_A "##/#.|.#/.."
#define SOMA_B "##/#.|../#."
static void test_chiral(void **state)
{
	(void)state;
	struct puzzle p;
	struct brute_result ra, rb;

	make(&p, "##/##|##/##", SOMA_A, 2u, NULL);
	expect(&p, 6, 1, 24, false);
	puz_clear(&p);
	make(&p, "##/##|##/##", SOMA_B, 2u, NULL);
	expect(&p, 6, 1, 24, false);
	puz_clear(&p);
	make(&p, "##/##|##/##", SOMA_A, 1u, SOMA_B, 1u, NULL);
	expect(&p, 0, 0, 48, true);
	puz_clear(&p);

	/* the mirror-closed set: every assembly of {A,A,B,B} has a mirror
	 * image, which is again an assembly, so solutions count up to 48
	 * symmetries, not 24 */
	make(&p, "##/##|##/##|##/##|##/##", SOMA_A, 2u, SOMA_B, 2u, NULL);
	assert_int_equal(brute_count(&p, &ra), 0);
	puz_clear(&p);
	assert_true(ra.mirror_closed);
	assert_int_equal(ra.group_order, 16);
	assert_true(ra.assemblies >= 1);
	assert_true(ra.solutions * 16 >= ra.assemblies);
	make(&p, "##/##|##/##|##/##|##/##", SOMA_A, 4u, NULL);
	assert_int_equal(brute_count(&p, &rb), 0);
	puz_clear(&p);
	assert_false(rb.mirror_closed);
	assert_int_equal(rb.group_order, 8);
	/* two stacked {A,A} cubes; the same for B: mirror images */
	assert_true(rb.assemblies >= 36);
	/* {A,A,B,B} includes A-A cube + B-B cube, in both orders */
	assert_true(ra.assemblies >= 2 * 6 * 6);

	/* mirror-closure needs equal counts */
	make(&p, "##/##|##/##|##/##|##/##", SOMA_A, 3u, SOMA_B, 1u, NULL);
	assert_int_equal(brute_count(&p, &rb), 0);
	puz_clear(&p);
	assert_false(rb.mirror_closed);
	assert_int_equal(rb.group_order, 8);
}

/* A goal drawn with empty margins counts the same. */
static void test_goal_margins(void **state)
{
	(void)state;
	struct puzzle p;
	make(&p, "..../.###/.###|..../..../....", "##/#.", 2u, NULL);
	expect(&p, 2, 1, 8, true);
	puz_clear(&p);
}

/* ---- random puzzles ----------------------------------------------- */

static void check_counts(const struct puzzle *p, bool solvable)
{
	struct brute_result r;
	assert_int_equal(brute_count(p, &r), 0);
	if (solvable)
		assert_true(r.assemblies >= 1);
	assert_true(r.assemblies >= r.solutions);
	assert_true(r.solutions * (uint64_t)r.group_order >= r.assemblies);
	assert_true(r.group_order >= 1 && r.group_order <= 48);
	assert_true(48 % r.group_order == 0);
}

static void test_randpuz_polycubes(void **state)
{
	(void)state;
	int altered = 0, dup = 0;
	for (uint64_t seed = 1; seed <= 400; seed++) {
		struct puzzle p, q;
		int rc = randpuz_polycubes(seed, &p);
		assert_true(rc == 0 || rc == 1);
		altered += rc == 1;
		size_t pv = 0;
		unsigned npieces = 0;
		for (size_t i = 0; i < p.npieces; i++) {
			pv += p.pieces[i].count * puz_grid_volume(&p.pieces[i].shape);
			npieces += p.pieces[i].count;
			dup += p.pieces[i].count > 1;
		}
		assert_int_equal(pv, puz_grid_volume(&p.goal));
		assert_true(pv <= 24);
		assert_true(npieces >= 2 && npieces <= 6);
		check_counts(&p, rc == 0);
		/* deterministic */
		assert_int_equal(randpuz_polycubes(seed, &q), rc);
		assert_int_equal(q.npieces, p.npieces);
		assert_int_equal(q.goal.nx * q.goal.ny * q.goal.nz,
		                 p.goal.nx * p.goal.ny * p.goal.nz);
		assert_memory_equal(q.goal.cells, p.goal.cells,
		                    (size_t)(p.goal.nx * p.goal.ny * p.goal.nz));
		puz_clear(&q);
		puz_clear(&p);
	}
	assert_true(altered > 10);
	assert_true(dup > 10);
}

static void test_randpuz_shell(void **state)
{
	(void)state;
	struct puzzle p;
	assert_int_equal(randpuz_shell(1, 2, &p), -1);
	for (int n = 3; n <= 5; n++) {
		for (uint64_t seed = 1; seed <= 12; seed++) {
			assert_int_equal(randpuz_shell(seed, n, &p), 0);
			assert_int_equal(p.npieces, 6);
			size_t pv = 0;
			for (size_t i = 0; i < 6; i++) {
				assert_int_equal(p.pieces[i].shape.nx, n);
				assert_int_equal(p.pieces[i].shape.ny, n);
				assert_int_equal(p.pieces[i].shape.nz, 1);
				assert_int_equal(p.pieces[i].count, 1);
				pv += puz_grid_volume(&p.pieces[i].shape);
			}
			size_t shell = (size_t)(n * n * n - (n - 2) * (n - 2) * (n - 2));
			assert_int_equal(puz_grid_volume(&p.goal), shell);
			assert_int_equal(pv, shell);
			struct brute_result r;
			assert_int_equal(brute_count(&p, &r), 0);
			assert_true(r.mirror_closed); /* flat plates */
			assert_int_equal(r.group_order, 48);
			assert_true(r.assemblies >= 1);
			assert_true(r.assemblies >= r.solutions);
			assert_true(r.solutions * 48 >= r.assemblies);
			puz_clear(&p);
		}
	}
}

/* ---- solution sets ------------------------------------------------- */

/* A record of 'len' words: the length, then the given words (len - 1). */
static void record(uint32_t *rec, size_t len, const uint32_t *words)
{
	rec[0] = (uint32_t)len;
	memcpy(rec + 1, words, (len - 1) * sizeof *rec);
}

static void test_forms(void **state)
{
	(void)state;
	struct brute_forms set, multi, other;
	uint32_t rec[3];
	brute_forms_init(&set, 3, true);
	brute_forms_init(&multi, 3, false);
	/* 0..199 twice each, in a scrambled order: the set keeps 200, the
	 * multiset 400, across growth and the set's dedupes when full */
	for (uint32_t i = 0; i < 400; i++) {
		uint32_t v = (i * 7919u) % 200u;
		record(rec, 3, (uint32_t[]){v / 10, v % 10});
		assert_int_equal(brute_forms_add(&set, rec), 0);
		assert_int_equal(brute_forms_add(&multi, rec), 0);
	}
	brute_forms_sort(&set);
	brute_forms_sort(&multi);
	assert_int_equal(set.n, 200);
	assert_int_equal(multi.n, 400);
	for (size_t i = 1; i < set.n; i++)
		assert_true(memcmp(&set.rec[(i - 1) * 3 + 1], &set.rec[i * 3 + 1],
		                   2 * sizeof *rec) != 0);
	record(rec, 3, (uint32_t[]){19, 9});
	assert_true(brute_forms_has(&set, rec));
	assert_true(brute_forms_has(&multi, rec));
	record(rec, 3, (uint32_t[]){20, 0});
	assert_false(brute_forms_has(&set, rec));
	/* one to one: each record of the multiset finds one partner in the
	 * set, the second copy none */
	assert_int_equal(brute_forms_missing(&set, &multi), 0);
	assert_int_equal(brute_forms_missing(&multi, &set), 200);
	assert_false(brute_forms_equal(&set, &multi));
	/* a set equals itself, and not after losing one record */
	brute_forms_init(&other, 3, true);
	for (size_t i = 0; i < set.n; i++)
		assert_int_equal(brute_forms_add(&other, &set.rec[i * 3]), 0);
	brute_forms_sort(&other);
	assert_true(brute_forms_equal(&set, &other));
	other.n--;
	assert_false(brute_forms_equal(&set, &other));
	assert_int_equal(brute_forms_missing(&set, &other), 1);
	assert_int_equal(brute_forms_missing(&other, &set), 0);
	/* records of another length never match */
	struct brute_forms longer;
	brute_forms_init(&longer, 5, true);
	assert_int_equal(brute_forms_missing(&set, &longer), 200);
	assert_false(brute_forms_equal(&set, &longer));
	brute_forms_clear(&set);
	brute_forms_clear(&multi);
	brute_forms_clear(&other);
	brute_forms_clear(&longer);
	assert_int_equal(set.n, 0);
	assert_null(set.rec);
}

/* Labels from a drawing like draw()'s with digits for labels and '.' for
 * 0, e.g. "112/122" (x fastest). */
static void labels(unsigned char *out, size_t n, const char *s)
{
	size_t k = 0;
	for (const char *c = s; *c; c++) {
		if (*c == '/' || *c == '|')
			continue;
		assert_true(k < n);
		out[k++] = *c == '.' ? 0 : (unsigned char)(*c - '0');
	}
	assert_int_equal(k, n);
}

/* kappa and pi of the label grid 's' (6 cells: a 3x2 goal). */
static void project(struct brute_canon *c, const char *s, uint32_t *form,
                    uint32_t *raw)
{
	unsigned char lab[6];
	labels(lab, 6, s);
	assert_int_equal(brute_canonical(c, lab, form, raw), 0);
}

/* Two L trominoes in a 3x2 box: 2 assemblies, 1 solution. As one entry
 * with count 2 the projection merges the two pieces, so both assemblies
 * look alike (and two I trominoes would too); as two congruent entries
 * each is a piece of its own and the projection is exact. */
static void test_solution_sets_l_trominoes(void **state)
{
	(void)state;
	struct puzzle p;
	struct brute_solset s;
	uint32_t f1[13], r1[13], f2[13], r2[13];

	make(&p, "###/###", "##/#.", 2u, NULL);
	assert_int_equal(brute_solutions(&p, &s), 0);
	assert_int_equal(s.counts.assemblies, 2);
	assert_int_equal(s.counts.solutions, 1);
	assert_int_equal(s.ntypes, 1);
	assert_false(s.exact);
	assert_int_equal(s.solutions.len, 13); /* 1 + 2 * 6 cells */
	assert_int_equal(s.solutions.n, 1);
	assert_int_equal(s.assemblies.n, 2);
	assert_memory_equal(s.assemblies.rec, s.assemblies.rec + 13, 13 * 4);
	struct brute_canon *c = brute_canon_new(&p);
	assert_non_null(c);
	assert_int_equal(brute_canon_len(c), 13);
	project(c, "111/111", f1, r1);
	assert_true(brute_forms_has(&s.solutions, f1));
	assert_true(brute_forms_has(&s.assemblies, r1));
	brute_canon_free(c);
	brute_solset_clear(&s);
	puz_clear(&p);

	make(&p, "###/###", "##/#.", 1u, ".#/##", 1u, NULL);
	assert_int_equal(brute_solutions(&p, &s), 0);
	assert_int_equal(s.counts.assemblies, 2);
	assert_int_equal(s.counts.solutions, 1);
	assert_true(s.exact);
	assert_int_equal(s.solutions.n, 1);
	assert_int_equal(s.assemblies.n, 2);
	assert_memory_not_equal(s.assemblies.rec, s.assemblies.rec + 13, 13 * 4);
	c = brute_canon_new(&p);
	assert_non_null(c);
	/* the two assemblies: one solution, two forms with the goal fixed */
	project(c, "112/122", f1, r1);
	project(c, "122/112", f2, r2);
	assert_true(brute_forms_has(&s.solutions, f1));
	assert_memory_equal(f1, f2, sizeof f1);
	assert_true(brute_forms_has(&s.assemblies, r1));
	assert_true(brute_forms_has(&s.assemblies, r2));
	assert_memory_not_equal(r1, r2, sizeof r1);
	/* which congruent entry lies where does not matter */
	project(c, "221/211", f2, r2);
	assert_memory_equal(f1, f2, sizeof f1);
	assert_memory_equal(r1, r2, sizeof r1);
	/* two I trominoes: the same types per cell, but no assembly */
	project(c, "111/222", f2, r2);
	assert_false(brute_forms_has(&s.solutions, f2));
	assert_false(brute_forms_has(&s.assemblies, r2));
	/* not label grids of the goal: refused */
	unsigned char lab[6];
	labels(lab, 6, "113/122");
	assert_int_equal(brute_canonical(c, lab, f2, NULL), -1);
	labels(lab, 6, "110/122");
	assert_int_equal(brute_canonical(c, lab, f2, NULL), -1);
	brute_canon_free(c);
	brute_solset_clear(&s);
	puz_clear(&p);
}

/* Label grids are read in the puzzle's goal grid, margins included. */
static void test_solution_sets_goal_margins(void **state)
{
	(void)state;
	struct puzzle p;
	struct brute_solset s;
	make(&p, "..../.###/.###|..../..../....", "##/#.", 1u, ".#/##", 1u, NULL);
	assert_int_equal(brute_solutions(&p, &s), 0);
	assert_int_equal(s.solutions.n, 1);
	struct brute_canon *c = brute_canon_new(&p);
	assert_non_null(c);
	unsigned char lab[24];
	uint32_t form[13], raw[13];
	labels(lab, 24, "..../.112/.122|..../..../....");
	assert_int_equal(brute_canonical(c, lab, form, raw), 0);
	assert_true(brute_forms_has(&s.solutions, form));
	assert_true(brute_forms_has(&s.assemblies, raw));
	labels(lab, 24, "1.../.112/.122|..../..../....");
	assert_int_equal(brute_canonical(c, lab, form, raw), -1);
	brute_canon_free(c);
	brute_solset_clear(&s);
	puz_clear(&p);
}

/* Separability does not depend on handedness: Soma's A once and its
 * mirror image B twice are both merged, so an improper symmetry maps
 * projections to projections. */
static void test_solution_sets_chiral(void **state)
{
	(void)state;
	struct puzzle p;
	struct brute_solset s;
	make(&p, "##/##|##/##|##/##|##/##", SOMA_A, 2u, SOMA_B, 2u, NULL);
	assert_int_equal(brute_solutions(&p, &s), 0);
	assert_true(s.counts.mirror_closed);
	assert_false(s.exact);
	assert_true(s.solutions.n >= 1 && s.solutions.n <= s.counts.solutions);
	assert_int_equal(s.assemblies.n, s.counts.assemblies);
	brute_solset_clear(&s);
	puz_clear(&p);
	make(&p, "##/##|##/##|##/##|##/##", SOMA_A, 1u, SOMA_A, 1u, SOMA_B, 1u,
	     SOMA_B, 1u, NULL);
	assert_int_equal(brute_solutions(&p, &s), 0);
	assert_true(s.exact);
	assert_int_equal(s.ntypes, 2);
	assert_int_equal(s.solutions.n, s.counts.solutions);
	brute_solset_clear(&s);
	puz_clear(&p);
	make(&p, "##/##|##/##|##/##|##/##", SOMA_A, 1u, SOMA_A, 1u, SOMA_B, 2u,
	     NULL);
	assert_int_equal(brute_solutions(&p, &s), 0);
	assert_false(s.exact); /* A's mirror type B has an entry of count 2 */
	brute_solset_clear(&s);
	puz_clear(&p);
}

/* On random puzzles the sets agree with the counts: one form with the
 * goal fixed per assembly, at most one kappa per solution, exactly one
 * when the projection is exact, and then at most |G| assemblies per
 * solution. */
static void test_solution_sets_random(void **state)
{
	(void)state;
	int exact = 0, merged = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		struct brute_result r;
		struct brute_solset s;
		assert_int_equal(brute_count(&p, &r), 0);
		assert_int_equal(brute_solutions(&p, &s), 0);
		assert_int_equal(s.counts.assemblies, r.assemblies);
		assert_int_equal(s.counts.solutions, r.solutions);
		assert_int_equal(s.counts.group_order, r.group_order);
		assert_int_equal(s.assemblies.n, r.assemblies);
		assert_true(s.solutions.n <= r.solutions);
		if (s.exact) {
			assert_int_equal(s.solutions.n, r.solutions);
			assert_true(s.solutions.n * (uint64_t)r.group_order >=
			            s.assemblies.n);
		}
		exact += s.exact && r.assemblies > 0;
		merged += s.solutions.n < r.solutions;
		brute_solset_clear(&s);
		puz_clear(&p);
	}
	assert_true(exact >= 100);
	assert_true(merged >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_l_trominoes),
		cmocka_unit_test(test_monocubes),
		cmocka_unit_test(test_distinct_types),
		cmocka_unit_test(test_chiral),
		cmocka_unit_test(test_goal_margins),
		cmocka_unit_test(test_happycubes),
		cmocka_unit_test(test_soma),
		cmocka_unit_test(test_randpuz_polycubes),
		cmocka_unit_test(test_randpuz_shell),
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_solution_sets_l_trominoes),
		cmocka_unit_test(test_solution_sets_goal_margins),
		cmocka_unit_test(test_solution_sets_chiral),
		cmocka_unit_test(test_solution_sets_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
