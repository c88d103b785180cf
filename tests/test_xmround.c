/*
 * test_xmround.c: .puz -> .xmpuzzle -> .puz round trips (issue 15).
 *
 * Every puzzle is written by xmp_write() (gzip and plain XML), read back
 * by xmp_read_mem(), written as .puz by puz_write() and read again by
 * puz_read_mem(); the solver must give the same solutions and assemblies
 * at every step. The puzzles: the classic files, generated shells of
 * sizes 3 to 5, random polycube puzzles (congruent pieces as counts and
 * as separate entries: the reader merges what BurrTools tells apart, so
 * the counts still agree) and random colour puzzles (colours, optional
 * cells plain and coloured, count ranges, match tables) with their distinct regions taken
 * out, which BurrTools cannot express.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/puz.h"
#include "solver/solve.h"
#include "tests/colref.h"
#include "tests/randpuz.h"
#include "tests/testload.h"

#define DATA "tests/data/classic/"

struct counts {
	uint64_t solutions, assemblies;
};

static struct counts count(const struct puzzle *p)
{
	struct solve_opts o = {0};
	struct solve_result r;
	assert_int_equal(solve_puzzle(p, &o, &r), SOLVE_OK);
	assert_true(r.complete);
	struct counts c = {r.solutions, r.assemblies};
	solve_result_clear(&r);
	return c;
}

/* The bytes 'write' puts into a temporary file, malloc'ed into *buf. */
static size_t slurp(FILE *fp, unsigned char **buf)
{
	long n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	*buf = malloc((size_t)n);
	assert_non_null(*buf);
	assert_int_equal(fread(*buf, 1, (size_t)n, fp), (size_t)n);
	return (size_t)n;
}

/* 'p' through .xmpuzzle (gzip or plain) into '*out'. */
static void via_xmpuzzle(const struct puzzle *p, bool gzip, struct puzzle *out)
{
	char why[200];
	assert_true(xmp_writable(p, false, why, sizeof why));
	FILE *fp = tmpfile();
	assert_non_null(fp);
	assert_int_equal(xmp_write(fp, p, NULL, gzip), PUZ_OK);
	unsigned char *buf;
	size_t n = slurp(fp, &buf);
	fclose(fp);
	if (gzip)
		assert_true(n > 2 && buf[0] == 0x1f && buf[1] == 0x8b);
	else
		assert_memory_equal(buf, "<?xml", 5);
	struct xmp_info info;
	struct puz_error e;
	int rc = xmp_read_mem(buf, n, 0, out, &info, &e);
	if (rc != PUZ_OK)
		fail_msg("reading back what xmp_write wrote: %d:%d: %s", e.line,
		         e.col, e.msg);
	assert_int_equal(info.nproblems, 1);
	free(buf);
}

/* 'p' through .puz text into '*out'. */
static void via_puz(const struct puzzle *p, struct puzzle *out)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	assert_int_equal(puz_write(fp, p), PUZ_OK);
	unsigned char *buf;
	size_t n = slurp(fp, &buf);
	fclose(fp);
	struct puz_error e;
	int rc = puz_read_mem((const char *)buf, n, out, &e);
	if (rc != PUZ_OK)
		fail_msg("reading back the .puz of an imported file: %d:%d: %s",
		         e.line, e.col, e.msg);
	free(buf);
}

/* The coloured optional cells of 'g'. */
static size_t coloured_optional(const struct grid *g)
{
	size_t n = (size_t)g->nx * g->ny * g->nz, k = 0;
	for (size_t i = 0; i < n; i++)
		k += puz_cell_optional(g->cells[i]) && puz_cell_colour(g->cells[i]);
	return k;
}

/* The whole round trip of 'p', both encodings; returns its counts. A
 * puzzle without pieces (every goal cell optional) cannot be a BurrTools
 * problem: that is checked, and its counts returned. */
static struct counts round_trip(const struct puzzle *p)
{
	struct counts want = count(p);
	char why[200];
	if (p->npieces == 0) {
		assert_false(xmp_writable(p, false, why, sizeof why));
		assert_string_equal(why, "a puzzle with no pieces cannot be written "
		                         "as a BurrTools problem");
		return want;
	}
	for (int gzip = 0; gzip <= 1; gzip++) {
		struct puzzle x, q;
		via_xmpuzzle(p, gzip, &x);
		/* colours may be renamed on the way (formats/xmbuild.c), never
		 * dropped */
		assert_int_equal(coloured_optional(&x.goal),
		                 coloured_optional(&p->goal));
		struct counts got = count(&x);
		assert_int_equal(got.solutions, want.solutions);
		assert_int_equal(got.assemblies, want.assemblies);
		via_puz(&x, &q);
		got = count(&q);
		assert_int_equal(got.solutions, want.solutions);
		assert_int_equal(got.assemblies, want.assemblies);
		assert_int_equal(q.npieces, x.npieces);
		assert_int_equal(coloured_optional(&q.goal),
		                 coloured_optional(&p->goal));
		puz_clear(&q);
		puz_clear(&x);
	}
	return want;
}

static void test_xmround_classic(void **state)
{
	(void)state;
	static const struct { const char *file; uint64_t solutions; } cases[] = {
		{DATA "soma.puz", 240},
		{DATA "pentacubes-2x3x10.puz", 12},
		{DATA "happycube-blue.puz", 0},
		{DATA "HC_BQ_001.hcq", 1},
		{DATA "colour-mix.puz", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct puzzle p;
		test_load_puzzle(cases[i].file, &p);
		/* BurrTools has no distinct regions: the puzzle without them */
		for (size_t k = 0; k < p.nregions; k++)
			p.regions[k].distinct = false;
		p.distinct_faces = false;
		struct counts c = round_trip(&p);
		if (cases[i].solutions)
			assert_int_equal(c.solutions, cases[i].solutions);
		else
			assert_true(c.solutions > 0);
		puz_clear(&p);
	}
}

static void test_xmround_shells(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 12; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_shell(seed, 3 + (int)(seed % 3), &p), 0);
		assert_true(round_trip(&p).solutions >= 1);
		puz_clear(&p);
	}
}

static void test_xmround_random(void **state)
{
	(void)state;
	size_t solvable = 0, coloured = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		solvable += round_trip(&p).solutions > 0;
		puz_clear(&p);
	}
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct puzzle p;
		assert_true(colref_random(seed, &p) >= 0);
		for (size_t k = 0; k < p.nregions; k++)
			p.regions[k].distinct = false;
		p.distinct_faces = false;
		struct counts c = round_trip(&p);
		solvable += c.solutions > 0;
		coloured += c.solutions > 0 && coloured_optional(&p.goal) > 0;
		puz_clear(&p);
	}
	/* the comparison means something: most of them have solutions, some
	 * with coloured optional cells */
	assert_true(solvable > 250);
	assert_true(coloured >= 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xmround_classic),
		cmocka_unit_test(test_xmround_shells),
		cmocka_unit_test(test_xmround_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
