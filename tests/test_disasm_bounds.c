/* test_disasm_bounds.c: the disassembler and solve --disassemble with
 * their caches made tiny, so that what a long run does past its bounds
 * happens here in a second: the pair cache full and started again (and
 * its stamps wrapping, which empties its table), the shapes forgotten
 * between runs and in the middle of a cover's (solvedis.c then makes the
 * cover's shapes again), the memo of solutions started again, the
 * positions of stuck parts no longer remembered, the walk of a part
 * with no separation (never_free()) given up after a few positions, so
 * that the whole search finds such parts stuck. Every
 * answer must be the one the full caches give: against the brute force
 * of tests/disref.c on random assemblies, and BurrTools' own counts and
 * levels on designs of tests/data/burr. And with a bound on the
 * positions kept, a search it stops is undecided, never a wrong
 * verdict.
 *
 * This file compiles solver/disasm.c and solver/solvedis.c itself, with
 * the bounds below; the linker then takes neither from the library. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

/* 1 << 20 pair figures, 1 << 16 shapes, 1 << 16 stuck parts' positions
 * a run, 64 MB of memo in the product */
#define CACHE_MAX ((size_t)40)
#define SHAPES_MAX ((size_t)24)
#define BAD_MAX ((size_t)16)
#define MEMO_BYTES ((size_t)4096)
/* 1024 positions of a walk (never_free()) */
#define NEVER_MAX 4
#include "solver/disasm.c"
#include "solver/solvedis.c"

#include "formats/puz.h"
#include "tests/disref.h"

/* Random assemblies, one disassembler for all of them: the verdict and
 * the first number as the brute force finds them, every disassembly
 * valid by its checker; and the bounds were reached, again and again. */
static void test_bounds_against_brute_force(void **state)
{
	(void)state;
	uint64_t seed = 20261202;
	disasm *d = dis_new();
	assert_non_null(d);
	unsigned restarts = 0, wraps = 0, apart = 0, stuck = 0;
	for (int t = 0; t < 2000; t++) {
		int nx, ny, nz;
		size_t np;
		unsigned char lab[DISREF_RANDOM_CELLS];
		disref_random(&seed, &nx, &ny, &nz, lab, &np);
		uint32_t stamp = d->cache.stamp;
		struct dis_result r;
		assert_int_equal(dis_run(d, nx, ny, nz, lab, np, NULL, NULL, &r), DIS_OK);
		restarts += d->cache.stamp != stamp;
		wraps += d->cache.stamp < stamp;
		const char *why = disref_agrees(nx, ny, nz, lab, np, &r);
		if (why)
			fail_msg("assembly %d: %s", t, why);
		apart += r.verdict == DIS_APART;
		stuck += r.verdict == DIS_STUCK;
		dis_result_clear(&r);
	}
	print_message("    2000 assemblies: %u apart, %u stuck; shapes forgotten "
	              "%u times, the pair cache started again in %u runs, its "
	              "stamps wrapped %u times\n",
	              apart, stuck, (unsigned)d->epoch, restarts, wraps);
	assert_true(apart >= 400 && stuck >= 40);
	assert_true(d->epoch >= 40 && restarts >= d->epoch);
	assert_true(wraps >= 2);
	dis_free(d);
}

/* Searches stopped by a bound on the positions kept (1 to 400 on random
 * assemblies, 2 to 2,048 on Chocolate Dip): every verdict given is the
 * reference's without a bound (a first number too, and a disassembly
 * its checker accepts), or undecided; and both happen often. */
static void test_bounds_never_wrong(void **state)
{
	(void)state;
	uint64_t seed = 20261207;
	disasm *d = dis_new();
	assert_non_null(d);
	unsigned decided = 0, bound = 0, bound_apart = 0;
	for (int t = 0; t < 1500; t++) {
		int nx, ny, nz;
		size_t np;
		unsigned char lab[DISREF_RANDOM_CELLS];
		disref_random(&seed, &nx, &ny, &nz, lab, &np);
		int verdict, first;
		assert_int_equal(disref_solve(nx, ny, nz, lab, np, NULL, 0,
		                              &verdict, &first), 0);
		static const uint64_t limits[] = {1, 2, 3, 5, 9, 17, 40, 400};
		for (size_t b = 0; b < sizeof limits / sizeof limits[0]; b++) {
			dis_set_max_nodes(d, limits[b]);
			struct dis_result r;
			assert_int_equal(dis_run(d, nx, ny, nz, lab, np, NULL, NULL,
			                         &r), DIS_OK);
			if (r.verdict == DIS_BOUND) {
				bound++;
				bound_apart += verdict == DIS_APART;
				dis_result_clear(&r);
				continue;
			}
			decided++;
			if ((int)r.verdict != verdict)
				fail_msg("assembly %d, %llu positions: verdict %d, "
				         "the reference's %d", t,
				         (unsigned long long)limits[b], (int)r.verdict,
				         verdict);
			if (r.verdict == DIS_APART && np >= 2) {
				if (r.nlevel && r.level[0] != first)
					fail_msg("assembly %d, %llu positions: level "
					         "%d, the reference's %d", t,
					         (unsigned long long)limits[b],
					         r.level[0], first);
				const char *why = disref_check(nx, ny, nz, lab, np,
				                               NULL, r.moves,
				                               r.nmoves, r.level,
				                               r.nlevel);
				if (why)
					fail_msg("assembly %d, %llu positions: %s", t,
					         (unsigned long long)limits[b], why);
			}
			dis_result_clear(&r);
		}
	}
	print_message("    1500 assemblies under 8 bounds: %u decided, %u "
	              "undecided (%u of them come apart)\n", decided, bound,
	              bound_apart);
	assert_true(decided >= 10000 && bound >= 300 && bound_apart >= 250);
	dis_free(d);

	/* a design: undecided below what its searches need, never stuck;
	 * decided as BurrTools does with room */
	struct puzzle p;
	struct puz_error e;
	struct xmp_info xi;
	const char *path = "tests/data/burr/chocolate-dip-cutler.xmpuzzle";
	if (xmp_read_file(path, 0, &p, &xi, &e) != PUZ_OK)
		fail_msg("%s:%d:%d: %s", path, e.line, e.col, e.msg);
	uint64_t was = UINT64_MAX;
	for (unsigned nodes = 2; nodes <= 2048; nodes *= 4) {
		struct solve_opts o = {.disassemble = true, .dis_max_nodes = nodes};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		/* BurrTools: 960 assemblies, 21 come apart */
		assert_int_equal(r.solutions + r.stuck + r.undecided, 960);
		assert_true(r.solutions <= 21 && r.stuck <= 960 - 21);
		assert_true(r.undecided <= was);
		was = r.undecided;
		if (nodes == 2)
			assert_true(r.undecided > 0);
		if (nodes == 2048)
			assert_true(r.undecided == 0 && r.solutions == 21);
		solve_result_clear(&r);
	}
	puz_clear(&p);
}

/* BurrTools' counts and levels (tests/data/burr/SOURCE.md), on one
 * thread and on two: thousands of covers through a memo of 4 KB, covers
 * whose shapes are forgotten while solvedis.c makes them (it makes them
 * all again), and walks that fill the pair cache (past 2,048 figures:
 * it grows from 4,096 slots, half full at most). */
static void test_bounds_burrtools_designs(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		size_t problem;
		uint64_t assemblies, solutions, at_max;
		int level[8];
		size_t nlevel;
	} want[] = {
		{"eyckmans.gargamel", 0, 7680, 1, 1, {62, 3, 2, 2, 3, 2, 3}, 7},
		{"chocolate-dip-cutler", 0, 960, 21, 1, {13, 1, 2, 2, 3}, 5},
		{"lohe.misused-key", 1, 470, 8, 4, {7, 21, 8, 2, 5, 2}, 6},
		{"PelikanBurr", 0, 12, 1, 1, {98, 2, 4}, 3},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		for (unsigned threads = 0; threads <= 2; threads += 2) {
			char path[128];
			snprintf(path, sizeof path, "tests/data/burr/%s.xmpuzzle",
			         want[i].file);
			struct puzzle p;
			struct puz_error e;
			struct xmp_info xi;
			if (xmp_read_file(path, want[i].problem, &p, &xi, &e) != PUZ_OK)
				fail_msg("%s:%d:%d: %s", path, e.line, e.col, e.msg);
			struct solve_opts o = {.disassemble = true, .threads = threads};
			struct solve_result r;
			assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
			if (r.solutions + r.stuck != want[i].assemblies ||
			    r.solutions != want[i].solutions || r.undecided ||
			    r.max_level_solutions != want[i].at_max ||
			    r.hardest_moves.nlevel != want[i].nlevel ||
			    memcmp(r.hardest_moves.level, want[i].level,
			           want[i].nlevel * sizeof *want[i].level) != 0)
				fail_msg("%s problem %zu, %u threads: %llu solutions, "
				         "%llu stuck, %llu undecided, %llu at the "
				         "highest level, or another level",
				         want[i].file, want[i].problem + 1, threads,
				         (unsigned long long)r.solutions,
				         (unsigned long long)r.stuck,
				         (unsigned long long)r.undecided,
				         (unsigned long long)r.max_level_solutions);
			solve_result_clear(&r);
			puz_clear(&p);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bounds_against_brute_force),
		cmocka_unit_test(test_bounds_burrtools_designs),
		cmocka_unit_test(test_bounds_never_wrong),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
