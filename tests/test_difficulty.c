/* test_difficulty.c: the difficulty measure (solver/difficulty.h).
 *
 * - DIFF_PLATES against tests/diffref.c's literal reference (3D cell sets,
 *   its own rotations and search, nothing of poly.c or shell.c) on the 19
 *   Happy Cube sets, random cube shells and random boxes; the study's
 *   figures for the seven sets of known family;
 * - presentation independence: hundreds of re-presentations (pieces
 *   reordered, renamed, turned, split, merged; goal turned) give the same
 *   result, field by field;
 * - diff_plates() equals diff_puzzle() on the generator's puzzles;
 * - DIFF_CELLS: wins > 0 exactly when the brute force finds an assembly,
 *   and wins equal the pinned count the reference derives from every
 *   assembly; budgets, scores, impossible puzzles;
 * - every allocation failing in turn; determinism.
 *
 * Run from the repository root (the data lives in tests/data). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/gen.h"
#include "solver/difficulty.h"
#include "solver/poly.h"
#include "solver/solve.h"
#include "tests/brute.h"
#include "tests/diffref.h"
#include "tests/failmalloc.h"
#include "tests/randpuz.h"
#include "tests/testload.h"
#include "tests/testrand.h"

#define DATA "tests/data/classic/"
#define HAPPY DATA "happycube/"

static struct diff_result measure(const struct puzzle *p, uint64_t max_nodes)
{
	struct diff_result r;
	memset(&r, 0, sizeof r);
	int rc = diff_puzzle(p, max_nodes, &r);
	if (rc != SOLVE_OK)
		fail_msg("%s: diff_puzzle returned %d", p->name, rc);
	return r;
}

static const char *method_str(enum diff_method m)
{
	return m == DIFF_PLATES ? "plates" : m == DIFF_CELLS ? "cells"
	       : m == DIFF_NONE ? "none" : "?";
}

/* Whether two results are the same in every field. */
static bool same(const struct diff_result *a, const struct diff_result *b)
{
	return a->method == b->method && a->complete == b->complete &&
	       a->dead == b->dead && a->wins == b->wins &&
	       a->nodes == b->nodes && a->orders == b->orders;
}

#define RES_FMT "%s%s dead %llu wins %llu nodes %llu orders %d"
#define RES_ARGS(r) method_str((r).method), (r).complete ? "" : " (incomplete)", \
	(unsigned long long)(r).dead, (unsigned long long)(r).wins,             \
	(unsigned long long)(r).nodes, (r).orders

/* ---- DIFF_PLATES against the literal reference ------------------------ */

/* diff_puzzle on a six-plate shell equals the reference in method, dead,
 * wins, orders and nodes; returns the reference's counts. */
static struct diffref_counts expect_reference(const struct puzzle *p)
{
	struct diffref_counts ref;
	int rc = diffref_plates(p, &ref);
	if (rc != 0)
		fail_msg("%s: the reference refused it (%d)", p->name, rc);
	struct diff_result r = measure(p, 0);
	if (r.method != DIFF_PLATES || !r.complete || r.dead != ref.dead ||
	    r.wins != ref.wins || r.orders != ref.orders)
		fail_msg("%s: product " RES_FMT "; reference dead %llu wins %llu "
		         "nodes %llu orders %d", p->name, RES_ARGS(r),
		         (unsigned long long)ref.dead, (unsigned long long)ref.wins,
		         (unsigned long long)ref.nodes, ref.orders);
	if (r.nodes != ref.nodes)
		fail_msg("%s: nodes %llu, reference %llu (dead and wins agree)",
		         p->name, (unsigned long long)r.nodes,
		         (unsigned long long)ref.nodes);
	return ref;
}

/* The figures of docs/difficulty-study.md for the seven sets of known
 * family, from the reference and from the product.
 *
 * Except f739452a's counts: the study gives dead 400, wins 96 (D 4.17).
 * Its plates are two types (P1, P2, P5, P6 congruent; P4 is P3 turned),
 * and its 2 solutions are 24 assemblies with the goal fixed, not 96 (the
 * brute force and solve_puzzle agree; test_difficulty_reference_wins_
 * are_assemblies checks wins = assemblies per order). difficulty.h's walk
 * (identical plates once), the reference and the product all give dead
 * 100, wins 24: the study's ratio, a quarter of its counts. */
static void test_difficulty_known_sets(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		uint64_t dead, wins;
	} known[] = {
		{"f739452a", 100, 24},  {"82af7031", 618, 48},
		{"936cda1c", 672, 48},  {"90fbdf4e", 704, 48},
		{"b95e3254", 1180, 48}, {"1324cd79", 1708, 48},
		{"e6166c21", 2960, 48},
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		char path[256];
		snprintf(path, sizeof path, HAPPY "%s.puz", known[i].file);
		struct puzzle p;
		test_load_puzzle(path, &p);
		struct diffref_counts ref;
		assert_int_equal(diffref_plates(&p, &ref), 0);
		if (ref.dead != known[i].dead || ref.wins != known[i].wins ||
		    ref.orders != 1)
			fail_msg("%s: reference dead %llu wins %llu orders %d, study "
			         "%llu %llu", known[i].file,
			         (unsigned long long)ref.dead,
			         (unsigned long long)ref.wins, ref.orders,
			         (unsigned long long)known[i].dead,
			         (unsigned long long)known[i].wins);
		struct diff_result r = measure(&p, 0);
		if (r.method != DIFF_PLATES || !r.complete || r.orders != 1 ||
		    r.dead != known[i].dead || r.wins != known[i].wins)
			fail_msg("%s: product " RES_FMT ", study dead %llu wins %llu",
			         known[i].file, RES_ARGS(r),
			         (unsigned long long)known[i].dead,
			         (unsigned long long)known[i].wins);
		double score = -1;
		assert_true(diff_score(&r, &score));
		assert_true(fabs(score - (double)known[i].dead /
		                         (double)known[i].wins) < 1e-12);
		puz_clear(&p);
	}
	struct puzzle p;
	test_load_puzzle(HAPPY "f739452a.puz", &p);
	struct diff_result r = measure(&p, 0);
	double score = 0;
	assert_true(diff_score(&r, &score));
	assert_true(fabs(score - 4.1667) < 5e-5);
	puz_clear(&p);
}

static void test_difficulty_plates_happycube_sets(void **state)
{
	(void)state;
	DIR *d = opendir(HAPPY);
	assert_non_null(d);
	int sets = 0;
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		if (n < 5 || strcmp(de->d_name + n - 4, ".puz") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, HAPPY "%s", de->d_name);
		struct puzzle p;
		test_load_puzzle(path, &p);
		snprintf(p.name, sizeof p.name, "%.100s", de->d_name);
		struct diffref_counts ref = expect_reference(&p);
		assert_int_equal(ref.orders, 1);
		assert_true(ref.wins > 0);
		puz_clear(&p);
		sets++;
	}
	closedir(d);
	assert_int_equal(sets, 19);
	/* the two other shells in the data */
	static const char *more[] = {DATA "HC_BQ_001.hcq", DATA "HC_BQ_001.puz",
	                             DATA "happycube-blue.puz"};
	for (size_t i = 0; i < 3; i++) {
		struct puzzle p;
		test_load_puzzle(more[i], &p);
		expect_reference(&p);
		puz_clear(&p);
	}
}

/* The 126 regression shells (4 x 4 x 4; 57 of them with a plate of
 * count 2 or more). */
static void test_difficulty_plates_regress_shells(void **state)
{
	(void)state;
	int n = 0, counted = 0;
	for (int i = 1; i <= 200; i++) {
		char path[64];
		snprintf(path, sizeof path, "tests/data/regress/shell-%d.puz", i);
		FILE *fp = fopen(path, "r");
		if (!fp)
			continue;
		fclose(fp);
		struct puzzle p;
		test_load_puzzle(path, &p);
		snprintf(p.name, sizeof p.name, "%s", path);
		expect_reference(&p);
		for (size_t k = 0; k < p.npieces; k++)
			if (p.pieces[k].count > 1) {
				counted++;
				break;
			}
		puz_clear(&p);
		n++;
	}
	assert_int_equal(n, 126);
	assert_true(counted > 20);
}

/* Random cube shells cut by tests/randpuz.c: n = 4..6 always meet the
 * plate condition; at n = 3 a plate rarely holds a 2 x 2 block, and the
 * product must not take the plate search when one does not. */
static void test_difficulty_plates_random_shells(void **state)
{
	(void)state;
	int compared = 0, small = 0;
	for (uint64_t seed = 0; seed < 136; seed++) {
		int n = 3 + (int)(seed % 4);
		struct puzzle p;
		assert_int_equal(randpuz_shell(seed, n, &p), 0);
		struct diffref_counts ref;
		int rc = diffref_plates(&p, &ref);
		assert_true(rc == 0 || rc == DIFFREF_NOT_KIND);
		if (rc == 0) {
			expect_reference(&p);
			compared++;
			small += n == 3;
		} else {
			assert_int_equal(n, 3);
			struct diff_result r = measure(&p, 0);
			if (r.method == DIFF_PLATES)
				fail_msg("%s: plates without a 2 x 2 block each, "
				         "yet " RES_FMT, p.name, RES_ARGS(r));
		}
		puz_clear(&p);
	}
	/* every n >= 4 shell, and the 3 x 3 x 3 ones either way */
	if (compared - small != 102)
		fail_msg("%d compared, %d of them 3 x 3 x 3", compared, small);
}

/* A random X x Y x Z box, sides 4..6 (3..6 with 'three'), not all equal. */
static void random_dims(uint64_t *rs, int dim[3], bool three)
{
	do {
		for (int a = 0; a < 3; a++)
			dim[a] = (three ? 3 : 4) + rnd(rs, three ? 4 : 3);
	} while (dim[0] == dim[1] && dim[1] == dim[2]);
}

static void test_difficulty_plates_random_boxes(void **state)
{
	(void)state;
	uint64_t rs = 2026;
	int by_orders[7] = {0};
	for (uint64_t seed = 0; seed < 60; seed++) {
		int dim[3];
		random_dims(&rs, dim, false);
		struct puzzle p;
		assert_int_equal(diffref_box(seed, dim, &p), 0);
		struct diffref_counts ref = expect_reference(&p);
		bool two_equal = dim[0] == dim[1] || dim[1] == dim[2] ||
		                 dim[0] == dim[2];
		/* two equal sides: 3 orders; three different: 6 */
		assert_int_equal(ref.orders, two_equal ? 3 : 6);
		by_orders[ref.orders]++;
		assert_true(ref.wins > 0);
		puz_clear(&p);
	}
	assert_true(by_orders[3] > 5 && by_orders[6] > 5);
}

/* The reference itself against the solver: every order finds every
 * assembly once, so wins = assemblies (goal fixed) times orders. */
static void test_difficulty_reference_wins_are_assemblies(void **state)
{
	(void)state;
	uint64_t rs = 77;
	for (int i = 0; i < 40; i++) {
		struct puzzle p;
		if (i < 7) {
			static const char *sets[] = {"f739452a", "b10801b1", "9eee9ee5",
			                             "3ad70224", "2912d4de", "e6166c21",
			                             "413671bb"};
			char path[256];
			snprintf(path, sizeof path, HAPPY "%s.puz", sets[i]);
			test_load_puzzle(path, &p);
		} else if (i < 25) {
			assert_int_equal(randpuz_shell((uint64_t)i, 4 + i % 3, &p), 0);
		} else {
			int dim[3];
			random_dims(&rs, dim, false);
			assert_int_equal(diffref_box((uint64_t)i, dim, &p), 0);
		}
		struct diffref_counts ref;
		assert_int_equal(diffref_plates(&p, &ref), 0);
		struct solve_result s;
		assert_int_equal(solve_puzzle(&p, &(struct solve_opts){0}, &s), SOLVE_OK);
		assert_true(s.complete);
		if (ref.wins != s.assemblies * (uint64_t)ref.orders)
			fail_msg("%s: reference wins %llu, solver %llu assemblies x %d "
			         "orders", p.name, (unsigned long long)ref.wins,
			         (unsigned long long)s.assemblies, ref.orders);
		solve_result_clear(&s);
		puz_clear(&p);
	}
}

/* ---- presentation independence ---------------------------------------- */

/* 'reps' re-presentations of 'p' measure exactly as 'p' does. */
static void expect_invariant(const struct puzzle *p, uint64_t seed0, int reps,
                             enum diff_method want)
{
	struct diff_result base = measure(p, 0);
	if (base.method != want || !base.complete)
		fail_msg("%s: " RES_FMT ", expected method %s", p->name,
		         RES_ARGS(base), method_str(want));
	for (int k = 0; k < reps; k++) {
		struct puzzle q;
		assert_int_equal(diffref_present(p, seed0 * 1000 + (uint64_t)k, &q), 0);
		struct diff_result r = measure(&q, 0);
		if (!same(&r, &base)) {
			bool counts = r.method == base.method && r.dead == base.dead &&
			              r.wins == base.wins && r.orders == base.orders &&
			              r.complete == base.complete;
			fail_msg("%s, presentation %llu: " RES_FMT ", as given " RES_FMT
			         "%s", p->name, (unsigned long long)(seed0 * 1000 + (uint64_t)k),
			         RES_ARGS(r), RES_ARGS(base),
			         counts ? " (only nodes differ)" : "");
		}
		puz_clear(&q);
	}
}

static void test_difficulty_presentation_invariance(void **state)
{
	(void)state;
	static const char *sets[] = {"f739452a", "82af7031", "e6166c21",
	                             "9eee9ee5", "2912d4de"};
	uint64_t s0 = 1;
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
		char path[256];
		snprintf(path, sizeof path, HAPPY "%s.puz", sets[i]);
		struct puzzle p;
		test_load_puzzle(path, &p);
		expect_invariant(&p, s0++, 12, DIFF_PLATES);
		puz_clear(&p);
	}
	static const char *files[] = {DATA "happycube-blue.puz",
	                              DATA "HC_BQ_001.hcq"};
	for (size_t i = 0; i < 2; i++) {
		struct puzzle p;
		test_load_puzzle(files[i], &p);
		expect_invariant(&p, s0++, 12, DIFF_PLATES);
		puz_clear(&p);
	}
	static const int counted[] = {1, 100, 102, 103, 108, 113};
	for (size_t i = 0; i < sizeof counted / sizeof counted[0]; i++) {
		/* plates of count 2 or more */
		char path[64];
		snprintf(path, sizeof path, "tests/data/regress/shell-%d.puz",
		         counted[i]);
		struct puzzle p;
		test_load_puzzle(path, &p);
		bool multi = false;
		for (size_t k = 0; k < p.npieces; k++)
			multi |= p.pieces[k].count > 1;
		assert_true(multi);
		expect_invariant(&p, s0++, 10, DIFF_PLATES);
		puz_clear(&p);
	}
	for (uint64_t seed = 0; seed < 8; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_shell(500 + seed, 4 + (int)(seed % 3), &p), 0);
		expect_invariant(&p, s0++, 10, DIFF_PLATES);
		puz_clear(&p);
	}
	uint64_t rs = 99;
	for (uint64_t seed = 0; seed < 8; seed++) {
		int dim[3];
		random_dims(&rs, dim, false);
		struct puzzle p;
		assert_int_equal(diffref_box(700 + seed, dim, &p), 0);
		expect_invariant(&p, s0++, 10, DIFF_PLATES);
		puz_clear(&p);
	}
	/* polycube puzzles with an assembly: DIFF_CELLS */
	int cells = 0;
	for (uint64_t seed = 0; cells < 30; seed++) {
		struct puzzle p;
		int rc = randpuz_polycubes(seed, &p);
		assert_true(rc >= 0);
		if (rc == 0) {
			expect_invariant(&p, s0++, 8, DIFF_CELLS);
			cells++;
		}
		puz_clear(&p);
	}
	static const char *other[] = {DATA "soma.puz"};
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		struct puzzle p;
		test_load_puzzle(other[i], &p);
		expect_invariant(&p, s0++, 12, DIFF_CELLS);
		puz_clear(&p);
	}
}

/* The re-presentations are really different: at least one changes the
 * listing, the drawing or the goal's orientation (else the invariance test
 * above would prove nothing). */
static void test_difficulty_presentations_differ(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(HAPPY "f739452a.puz", &p);
	int goal_turned = 0, counts_changed = 0, drawn_differently = 0;
	for (uint64_t k = 0; k < 40; k++) {
		struct puzzle q;
		assert_int_equal(diffref_present(&p, k, &q), 0);
		goal_turned += q.goal.nx != p.goal.nx || q.goal.ny != p.goal.ny ||
		               memcmp(q.goal.cells, p.goal.cells,
		                      (size_t)p.goal.nx * p.goal.ny * p.goal.nz) != 0;
		counts_changed += q.npieces != p.npieces;
		for (size_t i = 0; i < q.npieces && i < p.npieces; i++) {
			const struct grid *a = &q.pieces[i].shape, *b = &p.pieces[i].shape;
			if (a->nx != b->nx || a->ny != b->ny || a->nz != b->nz ||
			    memcmp(a->cells, b->cells, (size_t)a->nx * a->ny * a->nz) != 0) {
				drawn_differently++;
				break;
			}
		}
		puz_clear(&q);
	}
	/* a 5x5x5 shell is the same grid in every orientation; the pieces are
	 * not */
	assert_int_equal(goal_turned, 0);
	assert_true(counts_changed > 0);
	assert_true(drawn_differently > 30);
	puz_clear(&p);
	/* a 2 x 3 x 10 goal is turned */
	test_load_puzzle(DATA "pentacubes-2x3x10.puz", &p);
	goal_turned = 0;
	for (uint64_t k = 0; k < 20; k++) {
		struct puzzle q;
		assert_int_equal(diffref_present(&p, k, &q), 0);
		assert_int_equal(q.goal.nx * q.goal.ny * q.goal.nz, 60);
		goal_turned += q.goal.nx != p.goal.nx || q.goal.ny != p.goal.ny;
		puz_clear(&q);
	}
	assert_true(goal_turned > 5);
	puz_clear(&p);
}

/* 'g' grown by empty cells: 'lo' before and 'hi' after along each axis. */
static void pad(struct grid *g, const int lo[3], const int hi[3])
{
	struct grid n;
	assert_int_equal(puz_grid_init(&n, g->nx + lo[0] + hi[0],
	                               g->ny + lo[1] + hi[1],
	                               g->nz + lo[2] + hi[2]), PUZ_OK);
	for (int z = 0; z < g->nz; z++)
		for (int y = 0; y < g->ny; y++)
			for (int x = 0; x < g->nx; x++)
				n.cells[puz_grid_index(&n, x + lo[0], y + lo[1], z + lo[2])] =
					g->cells[puz_grid_index(g, x, y, z)];
	puz_grid_clear(g);
	*g = n;
}

/* Empty margins around the goal or a piece are drawing, not shape: a
 * .puz file may declare a goal 6 5 5 with an empty column, or a plate
 * 5 5 2 with an empty layer, and the reader takes both. */
static void test_difficulty_margins_do_not_matter(void **state)
{
	(void)state;
	static const char *files[] = {HAPPY "f739452a.puz", HAPPY "e6166c21.puz",
	                              "tests/data/regress/shell-1.puz",
	                              DATA "soma.puz"};
	static const int ways[][2][3] = {
		{{1, 0, 0}, {0, 0, 0}}, {{0, 0, 0}, {0, 0, 1}},
		{{0, 2, 0}, {1, 0, 1}},
	};
	for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
		for (int piece = -1; piece < 2; piece++)
			for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
				struct puzzle p;
				test_load_puzzle(files[f], &p);
				struct diff_result want = measure(&p, 0);
				pad(piece < 0 ? &p.goal : &p.pieces[piece].shape,
				    ways[w][0], ways[w][1]);
				struct diff_result r = measure(&p, 0);
				if (!same(&r, &want)) {
					const struct grid *g = piece < 0 ? &p.goal
					                       : &p.pieces[piece].shape;
					fail_msg("%s, %s%s drawn %dx%dx%d with empty margins: "
					         RES_FMT ", without " RES_FMT, files[f],
					         piece < 0 ? "goal" : "piece ",
					         piece < 0 ? "" : p.pieces[piece].name,
					         g->nx, g->ny, g->nz, RES_ARGS(r),
					         RES_ARGS(want));
				}
				puz_clear(&p);
			}
}

/* ---- diff_plates() ------------------------------------------------------ */

static int plates_of(const struct gen_puzzle *g, struct diff_result *r)
{
	const unsigned char *pl[6];
	int pd[6][2];
	for (int i = 0; i < 6; i++) {
		pl[i] = g->piece[i];
		pd[i][0] = g->pw[i];
		pd[i][1] = g->ph[i];
	}
	return diff_plates(g->dim, pl, (const int (*)[2])pd, r);
}

/* The generator's plates measure as the puzzle made of them, for cubes
 * and boxes; where a side is 3 and some plate has no 2 x 2 block,
 * diff_plates returns DIFF_NOT_PLATES with '*out' untouched and
 * diff_puzzle does not search plates. */
static void test_difficulty_plates_given_equals_puzzle(void **state)
{
	(void)state;
	uint64_t rs = 4242;
	int plates = 0, none = 0;
	for (uint64_t seed = 0; seed < 80; seed++) {
		int dim[3];
		if (seed % 2)
			random_dims(&rs, dim, true);
		else
			dim[0] = dim[1] = dim[2] = 3 + (int)(seed / 2 % 4);
		struct rng r;
		rng_seed(&r, seed);
		struct gen_puzzle g = {0};
		assert_int_equal(gen_draw(&r, dim, &g), GEN_OK);
		struct puzzle p;
		assert_int_equal(gen_to_puzzle(&g, seed, &p), GEN_OK);
		struct diff_result a, b = measure(&p, 0), sentinel;
		memset(&sentinel, 0x5A, sizeof sentinel);
		memcpy(&a, &sentinel, sizeof a);
		int prc = plates_of(&g, &a);
		struct diffref_counts ref;
		int rc = diffref_plates(&p, &ref);
		if (rc == 0) {
			assert_int_equal(prc, SOLVE_OK);
			if (!same(&a, &b) || a.method != DIFF_PLATES)
				fail_msg("%s: diff_plates " RES_FMT ", diff_puzzle " RES_FMT,
				         p.name, RES_ARGS(a), RES_ARGS(b));
			expect_reference(&p);
			plates++;
		} else {
			assert_int_equal(rc, DIFFREF_NOT_KIND);
			if (prc != DIFF_NOT_PLATES || b.method == DIFF_PLATES)
				fail_msg("%s: no 2 x 2 block in some plate, yet diff_plates "
				         "returned %d, diff_puzzle " RES_FMT, p.name, prc,
				         RES_ARGS(b));
			assert_memory_equal(&a, &sentinel, sizeof a);
			none++;
		}
		puz_clear(&p);
		gen_puzzle_clear(&g);
	}
	if (plates < 40 || none < 10)
		fail_msg("%d plate puzzles, %d others", plates, none);
}

/* ---- DIFF_CELLS ---------------------------------------------------------- */

/* On random polycube puzzles: wins > 0 exactly when the brute force finds
 * an assembly; dead + wins <= nodes; the wins are the covers with the
 * pinned type at one placement per orbit, as the reference counts them
 * from every assembly. */
static void test_difficulty_cells_against_brute_force(void **state)
{
	(void)state;
	int solvable = 0, unsolvable = 0, pinned = 0, unpinned = 0;
	for (uint64_t seed = 1000; seed < 1200; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		struct brute_result b;
		assert_int_equal(brute_count(&p, &b), 0);
		struct diffref_cells c;
		assert_int_equal(diffref_cells(&p, &c), 0);
		assert_int_equal(c.assemblies, b.assemblies);
		struct diff_result r = measure(&p, 0);
		assert_true(r.complete);
		assert_true(r.dead + r.wins <= r.nodes);
		double score = -7;
		if (b.assemblies > 0) {
			solvable++;
			if (r.method != DIFF_CELLS || r.wins == 0)
				fail_msg("%s: %llu assemblies, yet " RES_FMT, p.name,
				         (unsigned long long)b.assemblies, RES_ARGS(r));
			assert_true(diff_score(&r, &score));
			assert_true(score == (double)r.dead / (double)r.wins);
		} else {
			unsolvable++;
			if (r.wins != 0)
				fail_msg("%s: no assembly, yet " RES_FMT, p.name, RES_ARGS(r));
			assert_false(diff_score(&r, &score));
			assert_true(score == -7);
		}
		if (r.method == DIFF_CELLS && r.wins != c.expect_wins) {
			char alt[200] = "";
			size_t used = 0;
			for (int t = 0; t < c.ntypes; t++)
				if (c.count[t] == 1)
					used += (size_t)snprintf(alt + used, sizeof alt - used,
					        " W(%d) = %llu (%d placements)", t,
					        (unsigned long long)c.w[t], c.nplace[t]);
			fail_msg("%s: wins %llu, expected %llu (pinned type %d; "
			         "assemblies %llu;%s)", p.name,
			         (unsigned long long)r.wins,
			         (unsigned long long)c.expect_wins, c.pinned,
			         (unsigned long long)c.assemblies, alt);
		}
		pinned += c.pinned >= 0 && c.nsym > 1;
		unpinned += c.pinned < 0 && b.assemblies > 0;
		puz_clear(&p);
	}
	assert_true(solvable > 100 && unsolvable > 5);
	assert_true(pinned > 20 && unpinned > 5);
}

/* Known puzzles through the cell search: wins as the reference derives
 * them (Soma: 11520 assemblies, 24 goal rotations). */
static void test_difficulty_cells_known(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	struct diffref_cells c;
	assert_int_equal(diffref_cells(&p, &c), 0);
	assert_int_equal(c.assemblies, 11520);
	assert_int_equal(c.nsym, 24);
	struct diff_result r = measure(&p, 0);
	assert_int_equal(r.method, DIFF_CELLS);
	assert_true(r.complete);
	assert_int_equal(r.orders, 0);
	if (r.wins != c.expect_wins)
		fail_msg("soma: wins %llu, reference %llu", (unsigned long long)r.wins,
		         (unsigned long long)c.expect_wins);
	assert_true(r.dead + r.wins <= r.nodes);
	puz_clear(&p);
}

/* Whether every piece of 'p' congruent to no other has 24 distinct
 * orientations (no rotation keeps it): then the piece difficulty.h pins
 * (one of them) has an orbit of |G| placements under a goal's rotations
 * for each placement. */
static bool single_pieces_asymmetric(const struct puzzle *p)
{
	size_t n = p->npieces;
	struct shape *canon = calloc(n, sizeof *canon);
	size_t *norient = calloc(n, sizeof *norient);
	assert_non_null(canon);
	assert_non_null(norient);
	for (size_t k = 0; k < n; k++) {
		struct shape sh, *or;
		assert_int_equal(poly_from_grid(&p->pieces[k].shape, &sh), POLY_OK);
		assert_int_equal(poly_canonical(&sh, &canon[k]), POLY_OK);
		assert_int_equal(poly_orientations(&sh, &or, &norient[k]), POLY_OK);
		poly_shapes_free(or, norient[k]);
		poly_shape_clear(&sh);
	}
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		bool single = p->pieces[k].count == 1;
		for (size_t j = 0; j < n && single; j++)
			single = j == k || !poly_equal(&canon[j], &canon[k]);
		ok = !single || norient[k] == 24;
	}
	for (size_t k = 0; k < n; k++)
		poly_shape_clear(&canon[k]);
	free(canon);
	free(norient);
	return ok;
}

/* Goals of 129 to 1024 plain cells are measured on the wide bitboard, as
 * goals of 65 to 128 are (dancing links, with no branching on pieces, had
 * not finished the 600-cell box after 100,000 placements and 99 s; its
 * whole tree here is 324 placements). Random boxes of 129 to 300 cells: the
 * search completes, finds every assembly once per orbit of the pinned
 * piece's placements (the solver's own count, with another pinning, over
 * the goal's rotations), and measures every presentation alike; the
 * 600-cell box of the bench completes within the command's default
 * budget. */
static void test_difficulty_cells_wide(void **state)
{
	(void)state;
	int checked = 0;
	for (uint64_t seed = 0; seed < 60; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_box_sized(4100 + seed, 129, 300, false, &p), 0);
		struct diff_result r = measure(&p, 0);
		if (r.method != DIFF_CELLS || !r.complete || r.wins == 0)
			fail_msg("%s: " RES_FMT, p.name, RES_ARGS(r));
		struct solve_result s;
		assert_int_equal(solve_puzzle(&p, &(struct solve_opts){.max_nodes = 0}, &s),
		                 SOLVE_OK);
		assert_true(s.complete && s.assemblies > 0);
		uint64_t proper = (uint64_t)s.group_order / (s.mirror_closed ? 2 : 1);
		if (single_pieces_asymmetric(&p)) {
			if (r.wins * proper != s.assemblies)
				fail_msg("%s: wins %llu x %llu rotations, but %llu assemblies",
				         p.name, (unsigned long long)r.wins,
				         (unsigned long long)proper,
				         (unsigned long long)s.assemblies);
			checked++;
		}
		if (seed < 6)
			expect_invariant(&p, 9100 + seed, 4, DIFF_CELLS);
		solve_result_clear(&s);
		puz_clear(&p);
	}
	assert_true(checked >= 10);
	struct puzzle p;
	test_load_puzzle("tests/data/bench/box-600.puz", &p);
	struct diff_result r = measure(&p, 5000000);
	if (r.method != DIFF_CELLS || !r.complete || r.wins == 0)
		fail_msg("%s: " RES_FMT, p.name, RES_ARGS(r));
	puz_clear(&p);
}

/* ---- budgets, scores, impossible puzzles ------------------------------ */

static void expect_budget(const struct puzzle *p)
{
	struct diff_result full = measure(p, 0);
	assert_true(full.complete && full.wins > 0 && full.nodes > 20);
	static const uint64_t tiny[] = {1, 2, 5, 10};
	for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++) {
		struct diff_result r = measure(p, tiny[i]);
		if (r.complete || r.nodes > tiny[i])
			fail_msg("%s, budget %llu: " RES_FMT, p->name,
			         (unsigned long long)tiny[i], RES_ARGS(r));
		double score = 123;
		assert_false(diff_score(&r, &score));
		assert_true(score == 123);
	}
	struct diff_result r = measure(p, full.nodes - 1);
	if (r.complete)
		fail_msg("%s, budget %llu = nodes - 1: " RES_FMT, p->name,
		         (unsigned long long)(full.nodes - 1), RES_ARGS(r));
	r = measure(p, full.nodes + 1);
	if (!same(&r, &full))
		fail_msg("%s, budget %llu = nodes + 1: " RES_FMT, p->name,
		         (unsigned long long)(full.nodes + 1), RES_ARGS(r));
	r = measure(p, full.nodes);
	if (!same(&r, &full))
		fail_msg("%s, budget %llu = nodes (at most that many tried): "
		         RES_FMT, p->name, (unsigned long long)full.nodes,
		         RES_ARGS(r));
}

static void test_difficulty_budget_stops_incomplete(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(HAPPY "e6166c21.puz", &p);
	expect_budget(&p);
	puz_clear(&p);
	test_load_puzzle(DATA "soma.puz", &p);
	expect_budget(&p);
	puz_clear(&p);
}

/* ---- a watched measure ------------------------------------------------ */

struct seen {
	uint64_t calls, last, budget;
	bool bad_budget, not_rising;
};

static void seen_fn(void *ctx, uint64_t nodes, uint64_t max_nodes)
{
	struct seen *s = ctx;
	s->not_rising |= s->calls && nodes <= s->last;
	s->bad_budget |= max_nodes != s->budget ||
	                 (max_nodes && nodes > max_nodes);
	s->calls++;
	s->last = nodes;
}

/* diff_puzzle_watched() gives what diff_puzzle() gives, budget or not, its
 * allowances of any size, and calls its watcher as often as it says. */
static void expect_watched_same(const struct puzzle *p)
{
	struct diff_result full = measure(p, 0);
	assert_true(full.complete && full.nodes > 8);
	const uint64_t budgets[] = {0, 1, full.nodes / 2, full.nodes - 1,
	                            full.nodes, full.nodes + 1};
	const uint64_t every[] = {1, 3, 64, 0};
	for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
		struct diff_result want = measure(p, budgets[i]);
		for (size_t k = 0; k < sizeof every / sizeof every[0]; k++) {
			struct seen s = {.budget = budgets[i]};
			struct diff_watch w = {.fn = seen_fn, .ctx = &s,
			                       .every = every[k]};
			struct diff_result got;
			assert_int_equal(diff_puzzle_watched(p, budgets[i], 0, 0, &w,
			                                     &got),
			                 SOLVE_OK);
			if (!same(&got, &want))
				fail_msg("%s, budget %llu, every %llu: " RES_FMT
				         "; unwatched " RES_FMT, p->name,
				         (unsigned long long)budgets[i],
				         (unsigned long long)every[k], RES_ARGS(got),
				         RES_ARGS(want));
			uint64_t step = every[k] ? every[k] : DIFF_POLL_NODES;
			/* a call at the end of each allowance the search used up */
			uint64_t used = got.nodes / step;
			if (s.bad_budget || s.not_rising ||
			    s.calls < (used ? used - 1 : 0) || s.calls > used + 1)
				fail_msg("%s, budget %llu, every %llu: %llu calls for %llu "
				         "nodes%s%s", p->name, (unsigned long long)budgets[i],
				         (unsigned long long)every[k],
				         (unsigned long long)s.calls,
				         (unsigned long long)got.nodes,
				         s.bad_budget ? ", a wrong budget" : "",
				         s.not_rising ? ", nodes not rising" : "");
		}
	}
}

/* Every engine the cell search runs on: the 64-cell board (Soma), the
 * wide board (a random box past 128 cells; BurrTools designs with
 * optional cells, with fillers; ranges with each type's least) and
 * dancing links' phased search (ranges with optional cells). */
static void test_difficulty_watched(void **state)
{
	(void)state;
	const char *files[] = {DATA "soma.puz", "examples/CubeInCage.xmpuzzle",
	                       "examples/PelikanBurr.xmpuzzle",
	                       "tests/data/puz/ranges-pinned-3x3x2.puz"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct puzzle p;
		if (strstr(files[i], ".xmpuzzle")) {
			struct xmp_info xi;
			struct puz_error e;
			assert_int_equal(xmp_read_file(files[i], 0, &p, &xi, &e), PUZ_OK);
		} else {
			test_load_puzzle(files[i], &p);
		}
		expect_watched_same(&p);
		puz_clear(&p);
	}
	struct puzzle p;
	assert_int_equal(randpuz_box_sized(4100, 129, 300, false, &p), 0);
	expect_watched_same(&p);
	puz_clear(&p);
	static const char text[] =
		"puzzle v1\n"
		"goal 4 3 1\n##++\n####\n+###\n"
		"piece L 3 2 1 count 0..2\n###\n#..\n"
		"piece I 2 1 1 count 1..3\n##\n"
		"piece T 3 2 1 count 0..2\n###\n.#.\n";
	struct puz_error err;
	assert_int_equal(puz_read_mem(text, sizeof text - 1, &p, &err), PUZ_OK);
	expect_watched_same(&p);
	puz_clear(&p);
}

static void test_difficulty_score(void **state)
{
	(void)state;
	double score = 5;
	struct diff_result r = {DIFF_PLATES, true, 10, 4, 100, 1};
	assert_true(diff_score(&r, &score));
	assert_true(score == 2.5);
	r = (struct diff_result){DIFF_CELLS, true, 0, 3, 3, 0};
	assert_true(diff_score(&r, &score));
	assert_true(score == 0);
	score = 5;
	r = (struct diff_result){DIFF_CELLS, true, 17, 0, 40, 0};
	assert_false(diff_score(&r, &score));
	r = (struct diff_result){DIFF_PLATES, false, 17, 2, 40, 1};
	assert_false(diff_score(&r, &score));
	r = (struct diff_result){DIFF_NONE, true, 0, 0, 0, 0};
	assert_false(diff_score(&r, &score));
	assert_true(score == 5);
}

static void test_difficulty_method_names(void **state)
{
	(void)state;
	assert_string_equal(diff_method_name(DIFF_PLATES), "plates");
	assert_string_equal(diff_method_name(DIFF_CELLS), "cells");
	assert_string_equal(diff_method_name(DIFF_NONE), "none");
}

/* Without an assembly there is no score: volume off by a piece, five of
 * six plates, and six plates that do not close (one plate of another
 * set in place of one). */
static void expect_no_score(const struct puzzle *p)
{
	struct diff_result r = measure(p, 0);
	if (r.method != DIFF_NONE && r.wins != 0)
		fail_msg("%s: no assembly, yet " RES_FMT, p->name, RES_ARGS(r));
	double score = 9;
	assert_false(diff_score(&r, &score));
	assert_true(score == 9);
}

static void test_difficulty_impossible_puzzles(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	p.npieces--; /* the last piece is still freed: puz_clear frees all */
	struct puz_piece last = p.pieces[p.npieces];
	expect_no_score(&p);
	p.pieces[p.npieces - 1].count = 3; /* too much volume */
	expect_no_score(&p);
	p.pieces[p.npieces - 1].count = 1;
	p.pieces[p.npieces++] = last;
	puz_clear(&p);

	test_load_puzzle(HAPPY "f739452a.puz", &p);
	p.npieces--;
	last = p.pieces[p.npieces];
	expect_no_score(&p);
	p.pieces[p.npieces++] = last;
	struct puzzle q;
	test_load_puzzle(HAPPY "e6166c21.puz", &q);
	struct grid keep = p.pieces[2].shape;
	p.pieces[2].shape = q.pieces[2].shape;
	struct diffref_counts ref;
	assert_int_equal(diffref_plates(&p, &ref), 0);
	assert_int_equal(ref.wins, 0);
	struct diff_result r = measure(&p, 0);
	if (r.method != DIFF_PLATES || r.wins != 0 || r.dead != ref.dead)
		fail_msg("mixed set: " RES_FMT ", reference dead %llu wins 0",
		         RES_ARGS(r), (unsigned long long)ref.dead);
	expect_no_score(&p);
	p.pieces[2].shape = keep;
	puz_clear(&p);
	puz_clear(&q);
}

/* ---- out of memory, determinism ------------------------------------------ */

/* Every allocation failing in turn: SOLVE_ENOMEM, '*out' untouched,
 * nothing leaked; once none fails, the result of a normal run. */
#ifndef HAVE_ASAN
static void expect_enomem(const struct puzzle *p, const struct gen_puzzle *g)
{
	struct diff_result want;
	if (g)
		assert_int_equal(plates_of(g, &want), SOLVE_OK);
	else
		want = measure(p, 0);
	for (long k = 0;; k++) {
		struct diff_result r, sentinel;
		memset(&sentinel, 0xA5, sizeof sentinel);
		memcpy(&r, &sentinel, sizeof r);
		long before = live;
		fail_after = k;
		int rc = g ? plates_of(g, &r) : diff_puzzle(p, 0, &r);
		fail_after = -1;
		if (live != before)
			fail_msg("%s: allocation %ld failing: %ld blocks leaked",
			         p->name, k, live - before);
		if (rc == SOLVE_OK) {
			if (!same(&r, &want))
				fail_msg("%s: after %ld allocations " RES_FMT ", normally "
				         RES_FMT, p->name, k, RES_ARGS(r), RES_ARGS(want));
			break;
		}
		if (rc != SOLVE_ENOMEM)
			fail_msg("%s: allocation %ld failing: returned %d", p->name, k, rc);
		if (memcmp(&r, &sentinel, sizeof r) != 0)
			fail_msg("%s: allocation %ld failing: *out written", p->name, k);
		assert_true(k < 100000);
	}
}
#endif

static void test_difficulty_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	struct puzzle p;
	test_load_puzzle(HAPPY "f739452a.puz", &p);
	expect_enomem(&p, NULL);
	puz_clear(&p);
	uint64_t rs = 5;
	int dim[3];
	random_dims(&rs, dim, false);
	assert_int_equal(diffref_box(3, dim, &p), 0);
	expect_enomem(&p, NULL);
	puz_clear(&p);
	test_load_puzzle(DATA "soma.puz", &p);
	expect_enomem(&p, NULL);
	puz_clear(&p);
	test_load_puzzle(DATA "colour-mix.puz", &p); /* the colour puzzles' path */
	expect_enomem(&p, NULL);
	puz_clear(&p);
	assert_true(randpuz_polycubes(11, &p) >= 0);
	expect_enomem(&p, NULL);
	puz_clear(&p);
	struct rng r;
	rng_seed(&r, 8);
	struct gen_puzzle g = {0};
	int d5[3] = {5, 4, 6};
	assert_int_equal(gen_draw(&r, d5, &g), GEN_OK);
	assert_int_equal(gen_to_puzzle(&g, 8, &p), GEN_OK);
	expect_enomem(&p, &g);
	puz_clear(&p);
	gen_puzzle_clear(&g);
#endif
}

static void test_difficulty_deterministic(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++) {
		struct puzzle p;
		if (i == 0)
			test_load_puzzle(HAPPY "1324cd79.puz", &p);
		else if (i == 1)
			test_load_puzzle(DATA "soma.puz", &p);
		else if (i == 2)
			assert_int_equal(randpuz_shell(9, 6, &p), 0);
		else
			assert_true(randpuz_polycubes(3, &p) >= 0);
		struct diff_result a = measure(&p, 0), b = measure(&p, 0);
		if (!same(&a, &b))
			fail_msg("%s: " RES_FMT ", then " RES_FMT, p.name, RES_ARGS(a),
			         RES_ARGS(b));
		a = measure(&p, 50);
		b = measure(&p, 50);
		assert_true(same(&a, &b));
		puz_clear(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_difficulty_known_sets),
		cmocka_unit_test(test_difficulty_plates_happycube_sets),
		cmocka_unit_test(test_difficulty_plates_regress_shells),
		cmocka_unit_test(test_difficulty_plates_random_shells),
		cmocka_unit_test(test_difficulty_plates_random_boxes),
		cmocka_unit_test(test_difficulty_reference_wins_are_assemblies),
		cmocka_unit_test(test_difficulty_presentation_invariance),
		cmocka_unit_test(test_difficulty_presentations_differ),
		cmocka_unit_test(test_difficulty_margins_do_not_matter),
		cmocka_unit_test(test_difficulty_plates_given_equals_puzzle),
		cmocka_unit_test(test_difficulty_cells_against_brute_force),
		cmocka_unit_test(test_difficulty_cells_known),
		cmocka_unit_test(test_difficulty_cells_wide),
		cmocka_unit_test(test_difficulty_budget_stops_incomplete),
		cmocka_unit_test(test_difficulty_watched),
		cmocka_unit_test(test_difficulty_score),
		cmocka_unit_test(test_difficulty_method_names),
		cmocka_unit_test(test_difficulty_impossible_puzzles),
		cmocka_unit_test(test_difficulty_out_of_memory),
		cmocka_unit_test(test_difficulty_deterministic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
