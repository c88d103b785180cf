/*
 * test_xmread.c: the BurrTools .xmpuzzle reader (formats/xmread.c,
 * xmbuild.c).
 *
 * Known counts: BurrTools' own examples and random colour puzzles in
 * tests/data/burrtools/ (SOURCE.md: where each comes from and how its
 * count was established, by BurrTools' burrTxt), each also written as
 * .puz, read back and counted again. gzip and plain XML give the same
 * puzzle; truncated and corrupt gzip, a gzip bomb, malformed XML and every
 * refusal are checked for status, line, column and a key phrase, with
 * '*out' left alone. Colour pairs become the match table; congruent
 * shapes are reported. Every allocation failure (zlib's and expat's
 * included) returns PUZ_ENOMEM and leaks nothing (skipped under ASan).
 *
 * Runs from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats/puz.h"
#include "solver/solve.h"
#include "tests/failmalloc.h"

#define DIR "tests/data/burrtools/"

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	long n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	unsigned char *b = malloc((size_t)n);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return b;
}

/* 'in' as one gzip member. */
static unsigned char *gzip(const void *in, size_t n, size_t *len)
{
	z_stream zs = {0};
	assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 31, 8,
	                              Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = deflateBound(&zs, (uLong)n);
	unsigned char *out = malloc(cap);
	assert_non_null(out);
	zs.next_in = (Bytef *)(uintptr_t)in;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*len = cap - zs.avail_out;
	deflateEnd(&zs);
	return out;
}

/* 'in' (gzip) inflated. */
static char *gunzip(const unsigned char *in, size_t n, size_t *len)
{
	z_stream zs = {0};
	assert_int_equal(inflateInit2(&zs, 31), Z_OK);
	size_t cap = 1 << 20;
	char *out = malloc(cap);
	assert_non_null(out);
	zs.next_in = (Bytef *)(uintptr_t)in;
	zs.avail_in = (uInt)n;
	zs.next_out = (Bytef *)out;
	zs.avail_out = (uInt)cap;
	assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
	*len = cap - zs.avail_out;
	inflateEnd(&zs);
	return out;
}

static void same_grid(const struct grid *a, const struct grid *b)
{
	assert_int_equal(a->nx, b->nx);
	assert_int_equal(a->ny, b->ny);
	assert_int_equal(a->nz, b->nz);
	assert_memory_equal(a->cells, b->cells, (size_t)a->nx * a->ny * a->nz);
}

static void same_puzzle(const struct puzzle *p, const struct puzzle *q)
{
	assert_string_equal(p->name, q->name);
	same_grid(&p->goal, &q->goal);
	assert_int_equal(p->npieces, q->npieces);
	for (size_t i = 0; i < p->npieces; i++) {
		assert_string_equal(p->pieces[i].name, q->pieces[i].name);
		same_grid(&p->pieces[i].shape, &q->pieces[i].shape);
		assert_int_equal(p->pieces[i].count, q->pieces[i].count);
		assert_int_equal(p->pieces[i].count_max, q->pieces[i].count_max);
	}
	assert_int_equal(p->rgb_set, q->rgb_set);
	assert_memory_equal(p->rgb, q->rgb, sizeof p->rgb);
	assert_int_equal(p->has_match, q->has_match);
	assert_memory_equal(p->match, q->match, sizeof p->match);
}

/* solutions, assemblies of a complete count */
static uint64_t count(const struct puzzle *p, uint64_t *assemblies)
{
	struct solve_opts o = {0};
	struct solve_result r;
	assert_int_equal(solve_puzzle(p, &o, &r), SOLVE_OK);
	assert_true(r.complete);
	uint64_t s = r.solutions;
	if (assemblies)
		*assemblies = r.assemblies;
	solve_result_clear(&r);
	return s;
}

/* Read text in memory, problem k. */
static int rd(const char *text, size_t k, struct puzzle *p,
              struct xmp_info *xi, struct puz_error *e)
{
	return xmp_read_mem(text, strlen(text), k, p, xi, e);
}

/* ------------------------------------------------------------------ */
/* Known counts                                                        */

struct known {
	const char *file;
	size_t problem;
	size_t nproblems;
	uint64_t solutions;   /* cubegen's, = BurrTools' assemblies */
	int stored;           /* the file's own assemblies="..." or -1 */
};

static const struct known known[] = {
	{"AlPackino.xmpuzzle", 0, 1, 1, 1},
	{"CubeInCage.xmpuzzle", 0, 1, 96, 96},
	{"PelikanBurr.xmpuzzle", 0, 1, 12, 12},
	{"DemoPieceGenerator.xmpuzzle", 0, 1, 928, -1},
	{"DemoMirrorParadox.xmpuzzle", 0, 2, 1, -1},
	{"DemoMirrorParadox.xmpuzzle", 1, 2, 1, -1},
	{"DraculasDentalDesaster.xmpuzzle", 0, 1, 84, 84},
	{"colour-1.xmpuzzle", 0, 1, 44, -1},
	{"colour-2.xmpuzzle", 0, 1, 34, -1},
	{"colour-3.xmpuzzle", 0, 1, 6, -1},
	{"colour-4.xmpuzzle", 0, 1, 1576, -1},
	{"colour-5.xmpuzzle", 0, 1, 23, -1},
	{"colour-6.xmpuzzle", 0, 1, 584, -1},
	{"colour-7.xmpuzzle", 0, 1, 11, -1},
	{"colour-8.xmpuzzle", 0, 1, 134, -1},
	{"colour-9.xmpuzzle", 0, 1, 48, -1},
};

static void test_xmread_known_counts(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		const struct known *k = &known[i];
		char path[256];
		struct puzzle p, q;
		struct xmp_info xi;
		struct puz_error e;
		snprintf(path, sizeof path, DIR "%s", k->file);
		int rc = xmp_read_file(path, k->problem, &p, &xi, &e);
		if (rc != PUZ_OK)
			fail_msg("%s:%d:%d: %s", path, e.line, e.col, e.msg);
		assert_int_equal(xi.nproblems, k->nproblems);
		assert_false(xi.differs);
		assert_int_equal(xi.solved, k->stored >= 0);
		if (k->stored >= 0)
			assert_int_equal(xi.assemblies, (uint64_t)k->stored);
		uint64_t a1, a2;
		uint64_t s = count(&p, &a1);
		if (s != k->solutions)
			fail_msg("%s problem %zu: %llu solutions, expected %llu",
			         k->file, k->problem + 1, (unsigned long long)s,
			         (unsigned long long)k->solutions);
		/* as .puz and back: the same puzzle, the same count */
		char *text = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&text, &len);
		assert_non_null(fp);
		assert_int_equal(puz_write(fp, &p), PUZ_OK);
		assert_int_equal(fclose(fp), 0);
		rc = puz_read_mem(text, len, &q, &e);
		if (rc != PUZ_OK)
			fail_msg("%s as .puz:%d:%d: %s", k->file, e.line, e.col,
			         e.msg);
		same_puzzle(&p, &q);
		assert_int_equal(count(&q, &a2), s);
		assert_int_equal(a1, a2);
		free(text);
		puz_clear(&q);
		puz_clear(&p);
	}
}

/* The problem's name is the puzzle's name; the examples' pieces. */
static void test_xmread_alpackino(void **state)
{
	(void)state;
	struct puzzle p;
	struct xmp_info xi;
	assert_int_equal(xmp_read_file(DIR "AlPackino.xmpuzzle", 0, &p, &xi,
	                               NULL), PUZ_OK);
	assert_string_equal(p.name, "Problem");
	assert_int_equal(p.npieces, 4);
	assert_string_equal(p.pieces[0].name, "Box");
	assert_string_equal(p.pieces[1].name, "S2");
	assert_int_equal(p.pieces[1].count, 4);
	assert_int_equal(p.pieces[1].count_max, 0);
	assert_int_equal(p.goal.nx * p.goal.ny * p.goal.nz, 180);
	assert_int_equal(puz_grid_volume(&p.goal), 180);
	assert_int_equal(xi.solutions, 0);
	puz_clear(&p);

	/* ranges and variable voxels */
	assert_int_equal(xmp_read_file(DIR "DemoPieceGenerator.xmpuzzle", 0, &p,
	                               &xi, NULL), PUZ_OK);
	assert_string_equal(p.name, "");
	assert_int_equal(p.npieces, 2);
	assert_int_equal(p.pieces[1].count, 0);
	assert_int_equal(p.pieces[1].count_max, 10);
	size_t opt = 0, n = (size_t)p.goal.nx * p.goal.ny * p.goal.nz;
	for (size_t i = 0; i < n; i++)
		opt += p.goal.cells[i] == PUZ_OPTIONAL;
	assert_int_equal(opt, 10);
	puz_clear(&p);
}

/* ------------------------------------------------------------------ */
/* gzip and plain                                                      */

static void test_xmread_gzip_and_plain(void **state)
{
	(void)state;
	size_t glen, tlen, g2len;
	unsigned char *gz = slurp(DIR "CubeInCage.xmpuzzle", &glen);
	assert_true(gz[0] == 0x1F && gz[1] == 0x8B);
	char *text = gunzip(gz, glen, &tlen);
	struct puzzle a, b, c;
	struct xmp_info xi;
	assert_int_equal(xmp_read_mem(gz, glen, 0, &a, &xi, NULL), PUZ_OK);
	assert_int_equal(xmp_read_mem(text, tlen, 0, &b, &xi, NULL), PUZ_OK);
	same_puzzle(&a, &b);
	/* two gzip members, as gzip(1) concatenates them */
	size_t half = tlen / 2, l1, l2;
	unsigned char *m1 = gzip(text, half, &l1);
	unsigned char *m2 = gzip(text + half, tlen - half, &l2);
	unsigned char *both = malloc(l1 + l2);
	assert_non_null(both);
	memcpy(both, m1, l1);
	memcpy(both + l1, m2, l2);
	assert_int_equal(xmp_read_mem(both, l1 + l2, 0, &c, &xi, NULL), PUZ_OK);
	same_puzzle(&a, &c);
	puz_clear(&c);
	/* a plain colour file gzipped reads the same */
	size_t plen;
	unsigned char *plain = slurp(DIR "colour-4.xmpuzzle", &plen);
	unsigned char *g2 = gzip(plain, plen, &g2len);
	puz_clear(&b);
	assert_int_equal(xmp_read_mem(plain, plen, 0, &b, &xi, NULL), PUZ_OK);
	assert_int_equal(xmp_read_mem(g2, g2len, 0, &c, &xi, NULL), PUZ_OK);
	same_puzzle(&b, &c);
	puz_clear(&a);
	puz_clear(&b);
	puz_clear(&c);
	free(gz);
	free(text);
	free(m1);
	free(m2);
	free(both);
	free(plain);
	free(g2);
}

static void test_xmread_bad_gzip(void **state)
{
	(void)state;
	size_t glen;
	unsigned char *gz = slurp(DIR "PelikanBurr.xmpuzzle", &glen);
	struct puzzle p, sentinel;
	struct puz_error e;
	memset(&sentinel, 0xA5, sizeof sentinel);
	/* every cut is an error, never a crash; without the 8-byte trailer
	 * the stream has not ended */
	for (size_t n = 2; n < glen; n++) {
		p = sentinel;
		int rc = xmp_read_mem(gz, n, 0, &p, NULL, &e);
		assert_int_equal(rc, PUZ_EPARSE);
		assert_memory_equal(&p, &sentinel, sizeof p);
		if (n >= glen - 8)
			assert_non_null(strstr(e.msg, "truncated gzip data"));
	}
	/* a wrong CRC */
	gz[glen - 6] ^= 0x55;
	assert_int_equal(xmp_read_mem(gz, glen, 0, &p, NULL, &e), PUZ_EPARSE);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, "corrupt gzip data: incorrect data check");
	gz[glen - 6] ^= 0x55;
	/* something after the gzip stream that is not another member */
	unsigned char *more = malloc(glen + 4);
	assert_non_null(more);
	memcpy(more, gz, glen);
	memcpy(more + glen, "junk", 4);
	assert_int_equal(xmp_read_mem(more, glen + 4, 0, &p, NULL, &e),
	                 PUZ_EPARSE);
	assert_non_null(strstr(e.msg, "corrupt gzip data"));
	free(more);
	free(gz);
}

/* A gzip bomb: 65 MiB of spaces in a few KiB stop at the cap. */
static void test_xmread_gzip_bomb(void **state)
{
	(void)state;
	z_stream zs = {0};
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 31, 9,
	                              Z_DEFAULT_STRATEGY), Z_OK);
	size_t cap = 1 << 20, len = 0;
	unsigned char *out = malloc(cap);
	char *sp = malloc(1 << 20);
	assert_true(out && sp);
	memset(sp, ' ', 1 << 20);
	static const char head[] = "<puzzle version=\"2\">";
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	zs.next_in = (Bytef *)(uintptr_t)head;
	zs.avail_in = sizeof head - 1;
	assert_int_equal(deflate(&zs, Z_NO_FLUSH), Z_OK);
	for (int i = 0; i < 65; i++) {
		zs.next_in = (Bytef *)sp;
		zs.avail_in = 1 << 20;
		assert_int_equal(deflate(&zs, i == 64 ? Z_FINISH : Z_NO_FLUSH),
		                 i == 64 ? Z_STREAM_END : Z_OK);
	}
	len = cap - zs.avail_out;
	deflateEnd(&zs);
	assert_true(len < 200000);
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(xmp_read_mem(out, len, 0, &p, NULL, &e), PUZ_EPARSE);
	assert_string_equal(e.msg, "the XML text is larger than 64 MiB");
	free(out);
	free(sp);
}

/* ------------------------------------------------------------------ */
/* Errors                                                              */

#define HEAD "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n"
#define GRID " <gridType type=\"0\"/>\n"
#define SHAPES                                                             \
	" <shapes>\n"                                                      \
	"  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n"         \
	"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n"          \
	" </shapes>\n"
#define PROB(parts, result)                                                \
	" <problems>\n  <problem name=\"p\">\n   <shapes>\n" parts            \
	"   </shapes>\n" result "  </problem>\n </problems>\n"
#define PART1 "    <shape id=\"1\" count=\"2\"/>\n"
#define RES0 "   <result id=\"0\"/>\n"
#define TAIL "</puzzle>\n"
#define GOOD HEAD GRID SHAPES PROB(PART1, RES0) TAIL

struct bad {
	const char *text;
	size_t problem;
	int line, col;
	const char *phrase;
};

static const struct bad bad[] = {
	/* XML */
	{"", 0, 1, 1, "malformed XML: no element found"},
	{HEAD GRID " <shapes>\n" TAIL, 0, 5, 3, "malformed XML: mismatched tag"},
	{HEAD "<!-- x --" TAIL, 0, 3, 10, "malformed XML: not well-formed"},
	{"<?xml version=\"1.0\"?>\n<!DOCTYPE puzzle [<!ENTITY a \"b\">]>\n"
	 "<puzzle version=\"2\"/>\n", 0, 2, 18, "a DOCTYPE declaration"},
	{"<html/>\n", 0, 1, 1, "<html>: not a BurrTools file"},
	/* elements and attributes */
	{HEAD " <pieces/>\n" TAIL, 0, 3, 2,
	 "<pieces> in <puzzle>: an element cubegen does not know"},
	{HEAD GRID " <shapes>\n  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\" "
	 "colour=\"2\">#</voxel>\n </shapes>\n" TAIL, 0, 5, 3,
	 "<voxel colour=...>: an attribute cubegen does not know"},
	{HEAD GRID SHAPES " stray\n" TAIL, 0, 8, 1,
	 "<puzzle>: unexpected text 'stray'"},
	{"<puzzle/>", 0, 1, 1, "<puzzle> needs a 'version' attribute"},
	{"<puzzle version=\"3\"/>", 0, 1, 1, "version 1 or 2"},
	{"<puzzle version=\"two\"/>", 0, 1, 1,
	 "<puzzle version=\"two\">: expected a whole number"},
	{HEAD " <gridType type=\"2\"/>\n" TAIL, 0, 3, 2,
	 "a grid of spheres; cubegen solves cube grids (type 0) only"},
	{HEAD " <gridType type=\"9\"/>\n" TAIL, 0, 3, 2,
	 "a grid of an unknown kind"},
	{HEAD GRID GRID TAIL, 0, 4, 2, "only one grid type"},
	/* BurrTools of 2006: bricks other than cubes */
	{HEAD " <gridType type=\"0\" axy_ortho=\"\" x_differs_y=\"\"/>\n"
	 TAIL, 0, 3, 2,
	 "<gridType x_differs_y>: bricks whose sides or angles differ"},
	{HEAD " <gridType type=\"0\" axy_ortho=\"\" ayz_ortho=\"\"/>\n"
	 TAIL, 0, 3, 2, "<gridType>: bricks without a right angle"},
	{HEAD GRID SHAPES PROB(PART1, RES0 "   <blank><pair/></blank>\n") TAIL,
	 0, 14, 11, "<pair> in <blank>: an element cubegen does not know"},
	{HEAD GRID SHAPES PROB(PART1, RES0 "   <blank a=\"1\"/>\n") TAIL,
	 0, 14, 4, "<blank a=...>: an attribute cubegen does not know"},
	{HEAD GRID SHAPES PROB(PART1, RES0 "   <blank>x</blank>\n") TAIL,
	 0, 14, 11, "<blank>: unexpected text 'x'"},
	{HEAD SHAPES GRID TAIL, 0, 7, 2, "only one grid type, before the first"},
	{HEAD " <colors><color red=\"1\" green=\"2\"/></colors>\n" TAIL, 0, 3,
	 10, "<color> needs a 'blue' attribute"},
	{HEAD " <colors><color red=\"1\" green=\"2\" blue=\"256\"/></colors>\n"
	 TAIL, 0, 3, 10, "<color blue=\"256\">: out of range 0..255"},
	/* voxels */
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\">##</voxel></shapes>\n"
	 TAIL, 0, 3, 10, "<voxel> needs a 'type' attribute"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"1\">##</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 10, "unknown voxel type"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">###</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 44,
	 "more than the 2 x 1 x 1 = 2 voxels of its size"},
	{HEAD " <shapes><voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">##</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 10,
	 "2 voxels in the text, expected 3 x 1 x 1 = 3"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#x</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 44,
	 "unexpected 'x' at voxel 2, at (1, 0, 0): expected '_', '#', '+'"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#\n#"
	 "</voxel></shapes>\n" TAIL, 0, 3, 45, "unexpected '\\n'"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">1##</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 44, "colour digits before the first voxel"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#_1</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 44, "a colour on an empty voxel (voxel 2"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#64#</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 44, "colour index above 63 at voxel 1"},
	{HEAD " <shapes><voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#1#</voxel>"
	 "</shapes>\n" TAIL, 0, 3, 10,
	 "(shape S1): colour 1 at voxel 1, at (0, 0, 0), but the file has 0 "
	 "colours"},
	{HEAD " <shapes><voxel x=\"99999999999\" y=\"1\" z=\"1\" type=\"0\">#"
	 "</voxel></shapes>\n" TAIL, 0, 3, 10,
	 "<voxel x=\"99999999999\">: out of range 0..4294967295"},
	/* problems */
	{HEAD GRID SHAPES PROB("    <shape id=\"2\"/>\n", RES0) TAIL, 0, 11, 5,
	 "<shape id=\"2\">: no such shape (the file has 2, ids 0..1)"},
	{HEAD GRID SHAPES PROB(PART1, "   <result id=\"7\"/>\n") TAIL, 0, 13, 4,
	 "<result id=\"7\">: no such shape"},
	{HEAD GRID SHAPES PROB(PART1, "") TAIL, 0, 9, 3,
	 "<problem> (problem 1): no <result>"},
	{HEAD GRID SHAPES PROB(PART1, RES0 RES0) TAIL, 0, 14, 4,
	 "a second result in one problem (the first on line 13)"},
	{HEAD GRID SHAPES PROB("    <shape id=\"1\" count=\"1\" min=\"0\" "
	                       "max=\"2\"/>\n", RES0) TAIL, 0, 11, 5,
	 "'count' and 'min'/'max' together"},
	{HEAD GRID SHAPES PROB("    <shape id=\"1\" min=\"0\"/>\n", RES0) TAIL,
	 0, 11, 5, "'min' without 'max'"},
	{HEAD GRID SHAPES PROB("    <shape id=\"1\" min=\"3\" max=\"2\"/>\n",
	                       RES0) TAIL, 0, 11, 5,
	 "the least is more than the most"},
	{HEAD GRID SHAPES PROB("    <shape id=\"1\" count=\"-1\"/>\n", RES0) TAIL,
	 0, 11, 5, "<shape count=\"-1\">: expected a whole number"},
	{HEAD GRID SHAPES PROB("    <shape id=\"1\" count=\"99999999999999999999"
	                       "\"/>\n", RES0) TAIL, 0, 11, 5,
	 "out of range 0..18446744073709551615"},
	{HEAD GRID SHAPES PROB("    <shape id=\"1\" count=\"1025\"/>\n", RES0)
	 TAIL, 0, 11, 5, "more than 1024 pieces in problem 1"},
	{HEAD GRID SHAPES PROB("    <shape id=\"1\" count=\"0\"/>\n", RES0) TAIL,
	 0, 9, 3, "<problem> (problem 1): no pieces"},
	{HEAD GRID SHAPES PROB("    <shape id=\"0\"/>\n    <shape id=\"0\"/>\n",
	                       "   <result id=\"1\"/>\n") TAIL, 0, 11, 5,
	 "<shape id=\"0\">: 2 voxels, more than the result's 1"},
	{HEAD GRID SHAPES PROB(PART1, "   <result/>\n") TAIL, 0, 13, 4,
	 "<result> needs a 'id' attribute"},
	{HEAD GRID SHAPES PROB(PART1, RES0 "   <bitmap><pair piece=\"0\" "
	                       "result=\"0\"/></bitmap>\n") TAIL, 0, 14, 12,
	 "<pair>: colour 0 (counting from 0), but the file has 0 colours"},
	{HEAD GRID SHAPES PROB(PART1, RES0 "   <bitmap><pair piece=\"64\" "
	                       "result=\"0\"/></bitmap>\n") TAIL, 0, 14, 12,
	 "<pair piece=\"64\">: out of range 0..63"},
	{GOOD, 1, 0, 0, "problem 2: the file has 1 problem"},
	{HEAD GRID SHAPES TAIL, 0, 0, 0, "problem 1: the file has no problems"},
	/* what cubegen cannot represent */
	{HEAD GRID " <shapes>\n  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#+"
	 "</voxel>\n </shapes>\n" PROB("    <shape id=\"0\"/>\n", RES0) TAIL,
	 0, 5, 3, "(shape S1, a piece): a variable voxel at (1, 0, 0); cubegen reads "
	 "them in the result only (BurrTools' solver takes one in a piece as "
	 "empty)"},
	{HEAD GRID " <colors><color red=\"1\" green=\"2\" blue=\"3\"/></colors>\n"
	 " <shapes>\n  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#+1</voxel>\n"
	 "  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">+1</voxel>\n"
	 " </shapes>\n" PROB(PART1, RES0) TAIL, 0, 7, 3,
	 "(shape S2, a piece): a variable voxel at (0, 0, 0)"},
	{HEAD GRID " <shapes>\n  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">__"
	 "</voxel>\n  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n"
	 " </shapes>\n" PROB(PART1, RES0) TAIL, 0, 5, 3,
	 "(shape S1, the result): no filled or variable voxel"},
	{HEAD GRID " <shapes>\n  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##"
	 "</voxel>\n  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">_</voxel>\n"
	 " </shapes>\n" PROB(PART1, RES0) TAIL, 0, 6, 3,
	 "(shape S2, a piece): no filled voxel"},
	{HEAD GRID " <shapes>\n  <voxel x=\"129\" y=\"1\" z=\"1\" type=\"0\">"
	 "#</voxel>\n" TAIL, 0, 5, 3, "1 voxel in the text, expected 129 x 1 x 1 = 129"},
	{HEAD GRID " <shapes>\n  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">++"
	 "</voxel>\n  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n"
	 " </shapes>\n <problems>\n  <problem maxHoles=\"0\">\n   <shapes>\n"
	 "    <shape id=\"1\" min=\"0\" max=\"2\"/>\n   </shapes>\n" RES0
	 "  </problem>\n </problems>\n" TAIL, 0, 9, 3,
	 "<problem maxHoles=\"0\">: at most that many of the 2 variable voxels"},
};

static void test_xmread_errors(void **state)
{
	(void)state;
	/* the base case is good: 2 monocubes fill a domino */
	struct puzzle p, sentinel;
	struct xmp_info xi, xsent;
	struct puz_error e;
	assert_int_equal(rd(GOOD, 0, &p, &xi, &e), PUZ_OK);
	assert_int_equal(count(&p, NULL), 1);
	puz_clear(&p);
	/* as BurrTools wrote it in 2006: cubes as bricks with three right
	 * angles, an empty <blank/> in the problem */
	assert_int_equal(rd(HEAD " <gridType type=\"0\" axy_ortho=\"\" "
	                    "axz_ortho=\"\" ayz_ortho=\"\"/>\n" SHAPES
	                    PROB(PART1, RES0 "   <bitmap/>\n   <blank/>\n") TAIL,
	                    0, &p, &xi, &e), PUZ_OK);
	assert_int_equal(count(&p, NULL), 1);
	puz_clear(&p);
	memset(&sentinel, 0xA5, sizeof sentinel);
	memset(&xsent, 0x5A, sizeof xsent);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const struct bad *b = &bad[i];
		p = sentinel;
		xi = xsent;
		int rc = rd(b->text, b->problem, &p, &xi, &e);
		if (rc != PUZ_EPARSE || e.line != b->line || e.col != b->col ||
		    !strstr(e.msg, b->phrase))
			fail_msg("case %zu: rc %d at %d:%d: %s\nexpected %d:%d: "
			         "%s", i, rc, e.line, e.col, e.msg, b->line,
			         b->col, b->phrase);
		assert_memory_equal(&p, &sentinel, sizeof p);
		assert_memory_equal(&xi, &xsent, sizeof xi);
	}
	/* shapes past the limits when they are used, not when they are not */
	char *big = malloc(300000);
	assert_non_null(big);
	int n = snprintf(big, 300000, HEAD GRID " <shapes>\n  <voxel x=\"65\" "
	                 "y=\"65\" z=\"65\" type=\"0\">");
	for (int k = 0; k < 65 * 65 * 65; k++)
		big[n++] = k == 0 ? '#' : '_';
	snprintf(big + n, 300000 - (size_t)n, "</voxel>\n </shapes>\n" SHAPES "%s" TAIL,
	         PROB("    <shape id=\"2\" count=\"2\"/>\n",
	              "   <result id=\"1\"/>\n"));
	/* S1 unused: fine */
	assert_int_equal(rd(big, 0, &p, &xi, &e), PUZ_OK);
	assert_int_equal(count(&p, NULL), 1);
	puz_clear(&p);
	char *at = strstr(big, "<result id=\"1\"");
	assert_non_null(at);
	at[12] = '0';
	assert_int_equal(rd(big, 0, &p, &xi, &e), PUZ_EPARSE);
	assert_int_equal(e.line, 5);
	assert_non_null(strstr(e.msg, "(shape S1, the result): 65 x 65 x 65; "
	                              "cubegen takes 1..128 a side and 262144"));
	free(big);
	/* a missing file */
	assert_int_equal(xmp_read_file(DIR "no-such.xmpuzzle", 0, &p, NULL, &e),
	                 PUZ_EIO);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, "No such file or directory");
	assert_int_equal(xmp_read_file(DIR "Representation0.xmpuzzle", 0, &p,
	                               NULL, &e), PUZ_EPARSE);
	assert_string_equal(e.msg, "problem 1: the file has no problems");
}

/* ------------------------------------------------------------------ */
/* Semantics                                                           */

#define COLS3                                                              \
	" <colors>\n  <color red=\"255\" green=\"0\" blue=\"0\"/>\n"        \
	"  <color red=\"0\" green=\"255\" blue=\"0\"/>\n"                  \
	"  <color red=\"0\" green=\"0\" blue=\"255\"/>\n </colors>\n"
/* a result '#1#2' and pieces '#1' and '#2' */
#define CSHAPES                                                            \
	" <shapes>\n"                                                      \
	"  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#1#2</voxel>\n"       \
	"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#1</voxel>\n"         \
	"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#2</voxel>\n"         \
	" </shapes>\n"
#define CPARTS "    <shape id=\"1\"/>\n    <shape id=\"2\"/>\n"
#define CDOC(pairs)                                                        \
	HEAD GRID COLS3 CSHAPES PROB(CPARTS, RES0 "   <bitmap>" pairs          \
	                             "</bitmap>\n") TAIL

static void test_xmread_colours(void **state)
{
	(void)state;
	struct puzzle p;
	struct xmp_info xi;
	struct puz_error e;

	/* each colour on itself: the table says so, 1 way */
	assert_int_equal(rd(CDOC("<pair piece=\"0\" result=\"0\"/>"
	                         "<pair piece=\"1\" result=\"1\"/>"
	                         "<pair piece=\"2\" result=\"2\"/>"),
	                    0, &p, &xi, &e), PUZ_OK);
	assert_true(p.has_match);
	assert_int_equal(p.match[1], 1u << 1);
	assert_int_equal(p.match[2], 1u << 2);
	assert_int_equal(p.match[3], 0); /* colour 3: no cell, dropped */
	assert_int_equal(p.rgb_set, 0xEu);
	assert_int_equal(p.rgb[1], 0xFF0000);
	assert_int_equal(p.rgb[3], 0x0000FF);
	assert_int_equal(count(&p, NULL), 1);
	puz_clear(&p);
	/* crossed: each on the other, 1 way (the other one) */
	assert_int_equal(rd(CDOC("<pair piece=\"0\" result=\"1\"/>"
	                         "<pair piece=\"1\" result=\"0\"/>"),
	                    0, &p, &xi, &e), PUZ_OK);
	assert_int_equal(p.match[1], 1u << 2);
	assert_int_equal(p.match[2], 1u << 1);
	assert_int_equal(count(&p, NULL), 1);
	puz_clear(&p);
	/* only one pair: colour 2 can go nowhere coloured: no way */
	assert_int_equal(rd(CDOC("<pair piece=\"0\" result=\"0\"/>"),
	                    0, &p, &xi, &e), PUZ_OK);
	assert_int_equal(count(&p, NULL), 0);
	puz_clear(&p);
	/* no pairs: no coloured piece voxel on a coloured result voxel: the
	 * goal's colours are renamed apart from the pieces' */
	assert_int_equal(rd(CDOC(""), 0, &p, &xi, &e), PUZ_OK);
	assert_false(p.has_match);
	assert_int_equal(p.pieces[0].shape.cells[0], PUZ_CELL + 1);
	assert_int_equal(p.pieces[1].shape.cells[0], PUZ_CELL + 2);
	assert_int_equal(p.goal.cells[0], PUZ_CELL + 3);
	assert_int_equal(p.goal.cells[1], PUZ_CELL + 4);
	assert_int_equal(p.rgb[4], 0x00FF00); /* the display colour follows */
	assert_int_equal(count(&p, NULL), 0);
	puz_clear(&p);
	/* plain pieces go anywhere */
	assert_int_equal(rd(HEAD GRID COLS3 " <shapes>\n  <voxel x=\"2\" y=\"1\""
	                    " z=\"1\" type=\"0\">#1#2</voxel>\n  <voxel x=\"1\""
	                    " y=\"1\" z=\"1\" type=\"0\">#</voxel>\n </shapes>\n"
	                    PROB(PART1, RES0) TAIL, 0, &p, &xi, &e), PUZ_OK);
	assert_false(p.has_match);
	assert_int_equal(count(&p, NULL), 1);
	puz_clear(&p);
	/* 27 colours */
	char doc[4096];
	int n = snprintf(doc, sizeof doc, HEAD " <colors>\n");
	for (int c = 0; c < 27; c++)
		n += snprintf(doc + n, sizeof doc - (size_t)n,
		              "  <color red=\"%d\" green=\"0\" blue=\"0\"/>\n", c);
	snprintf(doc + n, sizeof doc - (size_t)n, " </colors>\n" TAIL);
	assert_int_equal(rd(doc, 0, &p, &xi, &e), PUZ_EPARSE);
	assert_int_equal(e.line, 30);
	assert_int_equal(e.col, 3);
	assert_string_equal(e.msg, "<color>: more than 26 colours; cubegen has "
	                           "colours a..z");
}

/* a result '#1+2' (the second voxel variable, of colour 2), one '#1' and
 * at most one '#2' */
#define VDOC(pairs)                                                        \
	HEAD GRID COLS3 " <shapes>\n"                                      \
	"  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">#1+2</voxel>\n"       \
	"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#1</voxel>\n"         \
	"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#2</voxel>\n"         \
	" </shapes>\n"                                                     \
	PROB("    <shape id=\"1\"/>\n    <shape id=\"2\" min=\"0\" "       \
	     "max=\"1\"/>\n", RES0 "   <bitmap>" pairs "</bitmap>\n") TAIL

/* Coloured variable voxels are optional cells of their colour: a piece
 * voxel on one must match it, as on a filled voxel (BurrTools'
 * assembler_1_c::canPlace checks the colours whatever the state). */
static void test_xmread_coloured_variable(void **state)
{
	(void)state;
	struct puzzle p;
	struct xmp_info xi;
	struct puz_error e;

	/* each colour on itself: '#2' on the variable voxel or left out */
	assert_int_equal(rd(VDOC("<pair piece=\"0\" result=\"0\"/>"
	                         "<pair piece=\"1\" result=\"1\"/>"),
	                    0, &p, &xi, &e), PUZ_OK);
	assert_int_equal(p.goal.cells[0], PUZ_CELL + 1);
	assert_int_equal(p.goal.cells[1], PUZ_OPTIONAL + 2);
	assert_int_equal(count(&p, NULL), 2);
	puz_clear(&p);
	/* '#2' may not lie on colour 2: it stays out */
	assert_int_equal(rd(VDOC("<pair piece=\"0\" result=\"0\"/>"),
	                    0, &p, &xi, &e), PUZ_OK);
	assert_int_equal(p.goal.cells[1], PUZ_OPTIONAL + 2);
	assert_int_equal(count(&p, NULL), 1);
	puz_clear(&p);
	/* no pairs: the result's colours are renamed apart from the pieces',
	 * the variable voxel's too, and it stays optional */
	assert_int_equal(rd(VDOC(""), 0, &p, &xi, &e), PUZ_OK);
	assert_false(p.has_match);
	assert_int_equal(p.goal.cells[0], PUZ_CELL + 3);
	assert_int_equal(p.goal.cells[1], PUZ_OPTIONAL + 4);
	assert_int_equal(count(&p, NULL), 0); /* '#1' fits nowhere */
	puz_clear(&p);

	/* BurrTools' own example: 468 variable voxels of each colour */
	assert_int_equal(xmp_read_file(DIR "DraculasDentalDesaster.xmpuzzle", 0,
	                               &p, &xi, &e), PUZ_OK);
	size_t n = (size_t)p.goal.nx * p.goal.ny * p.goal.nz, opt[3] = {0};
	for (size_t i = 0; i < n; i++)
		if (puz_cell_optional(p.goal.cells[i]))
			opt[puz_cell_colour(p.goal.cells[i])]++;
	assert_int_equal(opt[0], 0);
	assert_int_equal(opt[1], 468);
	assert_int_equal(opt[2], 468);
	assert_int_equal(puz_grid_volume(&p.goal), 468 * 2 + 360 * 2);
	puz_clear(&p);
}

static void test_xmread_differs(void **state)
{
	(void)state;
	struct puzzle p;
	struct xmp_info xi;
	struct puz_error e;
	/* a domino from two congruent monocubes S2 and S3 */
	static const char two[] = HEAD GRID " <shapes>\n"
		"  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"2\" type=\"0\">_#</voxel>\n"
		" </shapes>\n" PROB("    <shape id=\"1\"/>\n    <shape id=\"2\"/>\n",
		                    RES0) TAIL;
	assert_int_equal(rd(two, 0, &p, &xi, &e), PUZ_OK);
	assert_true(xi.differs);
	assert_string_equal(xi.why, "shapes S2 and S3 are congruent: BurrTools "
	                            "counts assemblies that swap them as "
	                            "different, cubegen as one");
	assert_int_equal(count(&p, NULL), 1); /* BurrTools: 2 */
	puz_clear(&p);
	/* one shape listed twice */
	assert_int_equal(rd(HEAD GRID SHAPES PROB("    <shape id=\"1\"/>\n"
	                                          "    <shape id=\"1\"/>\n", RES0)
	                    TAIL, 0, &p, &xi, &e), PUZ_OK);
	assert_true(xi.differs);
	assert_non_null(strstr(xi.why, "shape S2 is listed twice"));
	assert_string_equal(p.pieces[0].name, "S2");
	assert_string_equal(p.pieces[1].name, "S2_2");
	puz_clear(&p);
	/* colours tell shapes apart */
	assert_int_equal(rd(CDOC("<pair piece=\"0\" result=\"0\"/>"), 0, &p, &xi,
	                    &e), PUZ_OK);
	assert_false(xi.differs);
	puz_clear(&p);
	/* copies of one part are alike in both tools */
	assert_int_equal(rd(GOOD, 0, &p, &xi, &e), PUZ_OK);
	assert_false(xi.differs);
	assert_string_equal(xi.why, "");
	puz_clear(&p);
}

/* Ranges and mirror images (docs/formats.md, DESIGN.md §2): four
 * L-trominoes fill a 3x2x2 box, and a chiral tetracube allowed 0..1 times
 * never fits. An improper symmetry counts for an assembly whose mirror
 * image is an assembly too, so with the unused chiral spare (the set is
 * not mirror-closed) every assembly still meets its mirror image: 6, as
 * burrTxt counts; without the spare the set is mirror-closed: 6 too.
 * Before this rule cubegen counted 9 for the first (rotations only);
 * the five problems of mirror-ranges-set agree with burrTxt likewise. */
static void test_xmread_mirror_ranges(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		size_t problem;
		uint64_t solutions, assemblies; /* BurrTools: the solutions */
		bool closed, some;
	} files[] = {
		{"mirror-range.xmpuzzle", 0, 6, 44, false, true},
		{"mirror-range-closed.xmpuzzle", 0, 6, 44, true, false},
		/* tests/data/burrtools/SOURCE.md: chiral S and R in ranges */
		{"mirror-ranges-set.xmpuzzle", 0, 61, 732, false, true},
		{"mirror-ranges-set.xmpuzzle", 1, 18, 248, false, true},
		{"mirror-ranges-set.xmpuzzle", 2, 24, 360, false, true},
		{"mirror-ranges-set.xmpuzzle", 3, 1751, 11768, false, true},
		{"mirror-ranges-set.xmpuzzle", 4, 1191, 9528, true, false},
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[256];
		struct puzzle p;
		struct xmp_info xi;
		struct puz_error e;
		snprintf(path, sizeof path, DIR "%s", files[i].file);
		assert_int_equal(xmp_read_file(path, files[i].problem, &p, &xi, &e),
		                 PUZ_OK);
		assert_false(xi.differs);
		uint64_t a;
		assert_int_equal(count(&p, &a), files[i].solutions);
		assert_int_equal(a, files[i].assemblies);
		struct solve_opts o = {0};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_int_equal(r.mirror_closed, files[i].closed);
		assert_int_equal(r.mirror_some, files[i].some);
		assert_int_equal(r.divisor, (uint64_t)r.group_order *
		                            (files[i].some ? 2 : 1));
		solve_result_clear(&r);
		/* the solutions written for BurrTools: one per solution */
		struct xmp_solutions xs;
		assert_int_equal(xmp_find_solutions(&p, 0, false, NULL, NULL, &xs), SOLVE_OK);
		assert_int_equal(xs.n, files[i].solutions);
		xmp_solutions_clear(&xs);
		puz_clear(&p);
	}
}

/* BurrTools pairs mirror images with ranges in the problem's order and
 * stops at the first chiral copy without one (formats/xmbuild.c): in
 * mirror-order.xmpuzzle a chiral pentacube P (0..1, never fits) listed
 * before the screw tetracubes SL and SR (0..2 each) in a 2x2x2 box leaves
 * them unpaired there, so burrTxt counts SL+SL and SR+SR apart (2), and
 * 1 with P listed after SL (problems 2 and 3). cubegen counts 1 in every
 * order and flags the first only; not when the goal has no mirror
 * symmetry (6) or when what was paired is all the ranges allow (4, 5).
 * burrTxt -d counts in tests/data/burrtools/SOURCE.md. */
static void test_xmread_mirror_order(void **state)
{
	(void)state;
	static const struct {
		uint64_t burrtools, solutions, assemblies;
		bool differs;
	} pr[] = {
		{2, 1, 12, true}, {1, 1, 12, false}, {1, 1, 12, false},
		{1, 1, 6, false}, {1, 1, 6, false}, {1, 1, 1, false},
	};
	for (size_t i = 0; i < sizeof pr / sizeof pr[0]; i++) {
		struct puzzle p;
		struct xmp_info xi;
		struct puz_error e;
		assert_int_equal(xmp_read_file(DIR "mirror-order.xmpuzzle", i, &p,
		                               &xi, &e), PUZ_OK);
		assert_int_equal(xi.differs, pr[i].differs);
		if (pr[i].differs)
			assert_non_null(strstr(xi.why, "using S2 may count apart"));
		else
			assert_string_equal(xi.why, "");
		uint64_t a;
		assert_int_equal(count(&p, &a), pr[i].solutions);
		assert_int_equal(a, pr[i].assemblies);
		/* where not flagged, the counts are BurrTools' */
		assert_true(pr[i].differs || pr[i].solutions == pr[i].burrtools);
		puz_clear(&p);
	}
}

/* BurrTools' second check of a stuck part's groups looks a piece up by
 * its place in the problem as a shape number (xmbuild.c): flagged with
 * dis_differs where that puts a piece in a group it is not in and the
 * group then holds two pieces; never for plain counts (differs). */
static void test_xmread_group_lookup(void **state)
{
	(void)state;
	/* a 3 x 3 square and four pieces no two congruent (a cube, a domino,
	 * a line and an L of three), the square first or last; the parts'
	 * shape ids and groups given per case */
#define RESULT "  <voxel x=\"3\" y=\"3\" z=\"1\" type=\"0\">#########</voxel>\n"
#define PIECES                                                             \
	"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n"              \
	"  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n"             \
	"  <voxel x=\"3\" y=\"1\" z=\"1\" type=\"0\">###</voxel>\n"            \
	"  <voxel x=\"2\" y=\"2\" z=\"1\" type=\"0\">###_</voxel>\n"
	static const char shapes_first[] =
		" <shapes>\n" RESULT PIECES " </shapes>\n";
	static const char shapes_last[] =
		" <shapes>\n" PIECES RESULT " </shapes>\n";
	static const struct {
		bool last;         /* the result last (shapes_last) */
		const char *parts; /* the problem's <shape>s */
		bool flag;
		const char *why;
		bool split;        /* groups_split */
	} cs[] = {
		/* S4 (no group) looked up as S3, of group 1 with S2: flagged */
		{false, "<shape id=\"1\" group=\"1\"/><shape id=\"2\" group=\"1\"/>"
		        "<shape id=\"3\"/><shape id=\"4\" group=\"1\"/>",
		 true, "(S4, looked up as S3, passes for group 1)", false},
		/* the same with the result last: each place its own shape */
		{true, "<shape id=\"0\" group=\"1\"/><shape id=\"1\" group=\"1\"/>"
		       "<shape id=\"2\"/><shape id=\"3\" group=\"1\"/>",
		 false, NULL, false},
		/* S4 looked up as S3, whose group then takes that piece alone:
		 * no set of two */
		{false, "<shape id=\"1\"/><shape id=\"2\" group=\"1\"/>"
		        "<shape id=\"3\"/><shape id=\"4\"/>",
		 false, NULL, false},
		/* a <group> element for every copy is the attribute; the two
		 * copies of S4, second in the list, looked up as S2, make its
		 * group take two */
		{false, "<shape id=\"1\" count=\"2\"><group group=\"2\" count=\"2\"/>"
		        "</shape><shape id=\"3\" count=\"2\"/>",
		 true, "(S4, looked up as S2, passes for group 2)", false},
		/* the two copies of S3, of group 2, looked up as S2, of group
		 * 1: one group of their own all the same (the first check
		 * passes them) */
		{false, "<shape id=\"1\" count=\"2\" group=\"1\"/>"
		        "<shape id=\"2\" count=\"2\" group=\"2\"/>",
		 false, NULL, false},
		/* S5 looked up as S2, of group 1 but never used (count 0):
		 * group 1 takes only the two copies of S3, its own */
		{false, "<shape id=\"1\" count=\"0\" group=\"1\"/><shape id=\"4\"/>"
		        "<shape id=\"2\" count=\"2\" group=\"1\"/>",
		 false, NULL, false},
		/* copies split among groups: refused with --disassemble
		 * (groups_split), not flagged */
		{false, "<shape id=\"1\" count=\"2\"><group group=\"1\" count=\"1\"/>"
		        "</shape><shape id=\"2\" group=\"1\"/>",
		 false, NULL, true},
		/* a group attribute beside <group> elements: BurrTools reads
		 * the attribute alone (problem.cpp skips the elements, even
		 * ones it would refuse), so this is the fourth case */
		{false, "<shape id=\"1\" count=\"2\" group=\"2\">"
		        "<group group=\"1\" count=\"1\"/><group/></shape>"
		        "<shape id=\"3\" count=\"2\"/>",
		 true, "(S4, looked up as S2, passes for group 2)", false},
		/* group="0" reads the elements */
		{false, "<shape id=\"1\" count=\"2\" group=\"0\">"
		        "<group group=\"1\" count=\"1\"/></shape>"
		        "<shape id=\"2\" group=\"1\"/>",
		 false, NULL, true},
	};
	for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		char doc[2048];
		snprintf(doc, sizeof doc,
		         HEAD GRID "%s <problems>\n  <problem>\n   <shapes>%s"
		         "</shapes>\n   <result id=\"%d\"/>\n  </problem>\n"
		         " </problems>\n" TAIL,
		         cs[i].last ? shapes_last : shapes_first, cs[i].parts,
		         cs[i].last ? 4 : 0);
		struct puzzle p;
		struct xmp_info xi;
		struct puz_error e;
		assert_int_equal(rd(doc, 0, &p, &xi, &e), PUZ_OK);
		assert_false(xi.differs); /* plain counts agree */
		assert_int_equal(xi.dis_differs, cs[i].flag);
		if (cs[i].flag)
			assert_non_null(strstr(xi.dis_why, cs[i].why));
		else
			assert_string_equal(xi.dis_why, "");
		assert_int_equal(xi.groups_split, cs[i].split);
		if (i == 7)
			assert_int_equal(p.pieces[0].group, 2);
		puz_clear(&p);
	}
#undef RESULT
#undef PIECES
}

static void test_xmread_names(void **state)
{
	(void)state;
	struct puzzle p;
	struct puz_error e;
	static const char doc[] = HEAD GRID " <shapes>\n"
		"  <voxel x=\"4\" y=\"1\" z=\"1\" type=\"0\">####</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"1\" name=\"my piece\" "
		"type=\"0\">#</voxel>\n"
		"  <voxel x=\"2\" y=\"1\" z=\"1\" name=\"my_piece\" "
		"type=\"0\">##</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"3\" name=\"W\xc3\xbcrfel\" "
		"type=\"0\">__#</voxel>\n"
		" </shapes>\n"
		" <problems>\n  <problem name=\" two&#9;lines&#10;here \">\n"
		"   <shapes>\n    <shape id=\"1\"/>\n    <shape id=\"2\"/>\n"
		"    <shape id=\"3\"/>\n   </shapes>\n" RES0
		"   <solutions><anything at=\"all\"/></solutions>\n"
		"   <assembler version=\"1\">state</assembler>\n"
		"  </problem>\n </problems>\n"
		" <comment popup=\"\">a <b>note</b></comment>\n" TAIL;
	assert_int_equal(rd(doc, 0, &p, NULL, &e), PUZ_OK);
	assert_string_equal(p.name, "two lines here");
	assert_string_equal(p.pieces[0].name, "my_piece");
	assert_string_equal(p.pieces[1].name, "S3");
	assert_string_equal(p.pieces[2].name, "W_rfel");
	/* cut to the voxels */
	assert_int_equal(p.pieces[2].shape.nz, 1);
	assert_int_equal(count(&p, NULL), 2); /* the domino at an end or not */
	puz_clear(&p);
}

static void test_xmread_problems(void **state)
{
	(void)state;
	struct puzzle p;
	struct xmp_info xi;
	/* the second problem of the mirror paradox demo */
	assert_int_equal(xmp_read_file(DIR "DemoMirrorParadox.xmpuzzle", 1, &p,
	                               &xi, NULL), PUZ_OK);
	assert_string_equal(p.name, "Another Example");
	assert_int_equal(xi.nproblems, 2);
	assert_int_equal(p.npieces, 3);
	assert_int_equal(p.pieces[2].count, 3);
	puz_clear(&p);
}

/* ------------------------------------------------------------------ */
/* Out of memory                                                       */

#ifndef HAVE_ASAN
static void oom(const void *data, size_t len, size_t k)
{
	struct puzzle p, ref, sentinel;
	struct puz_error e;
	memset(&sentinel, 0xA5, sizeof sentinel);
	alloc_calls = 0;
	assert_int_equal(xmp_read_mem(data, len, k, &ref, NULL, &e), PUZ_OK);
	long total = alloc_calls;
	assert_true(total > 3);
	for (long n = 0; n < total; n++) {
		long before = live;
		p = sentinel;
		fail_after = n;
		int rc = xmp_read_mem(data, len, k, &p, NULL, &e);
		fail_after = -1;
		if (rc == PUZ_OK) {
			/* a failure some library recovered from */
			same_puzzle(&ref, &p);
			puz_clear(&p);
		} else {
			if (rc != PUZ_ENOMEM)
				fail_msg("allocation %ld: %d %s", n, rc, e.msg);
			assert_memory_equal(&p, &sentinel, sizeof p);
		}
		assert_int_equal(live, before);
	}
	puz_clear(&ref);
}
#endif

static void test_xmread_oom(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip(); /* ASan owns malloc */
#else
	if (!failmalloc_active())
		skip(); /* valgrind owns malloc */
	size_t n;
	unsigned char *gz = slurp(DIR "CubeInCage.xmpuzzle", &n);
	oom(gz, n, 0);
	free(gz);
	unsigned char *plain = slurp(DIR "colour-2.xmpuzzle", &n);
	oom(plain, n, 0);
	free(plain);
	plain = slurp(DIR "colour-8.xmpuzzle", &n); /* coloured variable voxels */
	oom(plain, n, 0);
	free(plain);
	plain = slurp(DIR "group-lookup.xmpuzzle", &n); /* groups looked up */
	oom(plain, n, 0);
	free(plain);
	plain = slurp(DIR "mirror-order.xmpuzzle", &n); /* mirror pairing */
	oom(plain, n, 0);
	oom(plain, n, 5);
	free(plain);
	static const char two[] = HEAD GRID " <shapes>\n"
		"  <voxel x=\"2\" y=\"1\" z=\"1\" type=\"0\">##</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"1\" type=\"0\">#</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"2\" type=\"0\">_#</voxel>\n"
		" </shapes>\n" PROB("    <shape id=\"1\"/>\n    <shape id=\"2\"/>\n",
		                    RES0) TAIL;
	oom(two, strlen(two), 0);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xmread_known_counts),
		cmocka_unit_test(test_xmread_alpackino),
		cmocka_unit_test(test_xmread_gzip_and_plain),
		cmocka_unit_test(test_xmread_bad_gzip),
		cmocka_unit_test(test_xmread_gzip_bomb),
		cmocka_unit_test(test_xmread_errors),
		cmocka_unit_test(test_xmread_colours),
		cmocka_unit_test(test_xmread_coloured_variable),
		cmocka_unit_test(test_xmread_differs),
		cmocka_unit_test(test_xmread_mirror_ranges),
		cmocka_unit_test(test_xmread_mirror_order),
		cmocka_unit_test(test_xmread_group_lookup),
		cmocka_unit_test(test_xmread_names),
		cmocka_unit_test(test_xmread_problems),
		cmocka_unit_test(test_xmread_oom),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
