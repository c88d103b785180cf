/*
 * test_xmwrite.c: the BurrTools writer and solutions as BurrTools
 * assemblies (formats/xmwrite.c, formats/xmsol.c).
 *
 * BurrTools' own definition of its cube rotations is transcribed below as
 * numbers (its lib/tabs_0/rotmatrix.inc, the 24 proper rows: a voxel (x,
 * y, z) goes to M (x, y, z), M row by row), and every check of a written
 * assembly goes through that table, not through cubegen's: a placement
 * (x, y, z, t) must put each cell c of the piece's grid on goal cell
 * M_t c + (x, y, z) (BurrTools' voxel_0_c::transform with the hotspot at
 * the origin), the pieces covering the goal exactly, colours allowed by
 * the match rule, each piece's copies within its range and the used ones
 * first. The solutions written must be as many as solve counts (and as
 * the independent colour reference, tests/colref.c, counts), and no two
 * may be symmetric images of each other (a canonical form computed here).
 *
 * Golden texts pin the bytes of two small files; the gzip stream is
 * inflated with zlib and must equal the plain text, twice the same bytes.
 * Allocation failures: every allocation of a write and of a solution
 * search fails in turn (tests/failmalloc.h), each returning ENOMEM and
 * leaking nothing. Runs from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "formats/puz.h"
#include "solver/poly.h"
#include "solver/solve.h"
#include "tests/colref.h"
#include "tests/failmalloc.h"
#include "tests/randpuz.h"
#include "tests/testload.h"

#define DATA "tests/data/classic/"

/* BurrTools lib/tabs_0/rotmatrix.inc, rows 0..23 (the proper rotations). */
static const int bt_rot[24][9] = {
	{1, 0, 0, 0, 1, 0, 0, 0, 1},
	{1, 0, 0, 0, 0, -1, 0, 1, 0},
	{1, 0, 0, 0, -1, 0, 0, 0, -1},
	{1, 0, 0, 0, 0, 1, 0, -1, 0},
	{0, 0, -1, 0, 1, 0, 1, 0, 0},
	{0, -1, 0, 0, 0, -1, 1, 0, 0},
	{0, 0, 1, 0, -1, 0, 1, 0, 0},
	{0, 1, 0, 0, 0, 1, 1, 0, 0},
	{-1, 0, 0, 0, 1, 0, 0, 0, -1},
	{-1, 0, 0, 0, 0, -1, 0, -1, 0},
	{-1, 0, 0, 0, -1, 0, 0, 0, 1},
	{-1, 0, 0, 0, 0, 1, 0, 1, 0},
	{0, 0, 1, 0, 1, 0, -1, 0, 0},
	{0, 1, 0, 0, 0, -1, -1, 0, 0},
	{0, 0, -1, 0, -1, 0, -1, 0, 0},
	{0, -1, 0, 0, 0, 1, -1, 0, 0},
	{0, -1, 0, 1, 0, 0, 0, 0, 1},
	{0, 0, 1, 1, 0, 0, 0, 1, 0},
	{0, 1, 0, 1, 0, 0, 0, 0, -1},
	{0, 0, -1, 1, 0, 0, 0, -1, 0},
	{0, 1, 0, -1, 0, 0, 0, 0, 1},
	{0, 0, -1, -1, 0, 0, 0, 1, 0},
	{0, -1, 0, -1, 0, 0, 0, 0, -1},
	{0, 0, 1, -1, 0, 0, 0, -1, 0},
};

static void bt_apply(int t, const int v[3], int out[3])
{
	const int *m = bt_rot[t];
	for (int r = 0; r < 3; r++)
		out[r] = m[3 * r] * v[0] + m[3 * r + 1] * v[1] + m[3 * r + 2] * v[2];
}

/* ---- helpers ----------------------------------------------------------- */

/* The bytes xmp_write gives, through a temporary file. */
static char *write_mem(const struct puzzle *p, const struct xmp_solutions *s,
                       bool gzip, size_t *len)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	assert_int_equal(xmp_write(fp, p, s, gzip), PUZ_OK);
	long n = ftell(fp);
	assert_true(n > 0);
	char *buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	rewind(fp);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	*len = (size_t)n;
	return buf;
}

/* Inflate a gzip stream (zlib, as BurrTools reads it). */
static char *gunzip(const char *gz, size_t len, size_t *out_len)
{
	size_t cap = 1 << 16, n = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	z_stream z;
	memset(&z, 0, sizeof z);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (Bytef *)(uintptr_t)gz;
	z.avail_in = (uInt)len;
	int rc;
	do {
		if (cap - n < 4096) {
			cap *= 2;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		z.next_out = (Bytef *)out + n;
		z.avail_out = (uInt)(cap - n - 1);
		rc = inflate(&z, Z_NO_FLUSH);
		assert_true(rc == Z_OK || rc == Z_STREAM_END);
		n = cap - 1 - z.avail_out;
	} while (rc != Z_STREAM_END);
	assert_int_equal(z.avail_in, 0);
	inflateEnd(&z);
	out[n] = '\0';
	*out_len = n;
	return out;
}

static void load_text(const char *text, struct puzzle *p)
{
	struct puz_error e;
	if (puz_read_mem(text, strlen(text), p, &e) != PUZ_OK)
		fail_msg("%d:%d: %s", e.line, e.col, e.msg);
}

static void expect_xml(const struct puzzle *p, const struct xmp_solutions *s,
                       const char *want)
{
	size_t len, glen, ulen;
	char *xml = write_mem(p, s, false, &len);
	if (strcmp(xml, want) != 0)
		fail_msg("written:\n%s\nexpected:\n%s", xml, want);
	char *gz = write_mem(p, s, true, &glen);
	char *un = gunzip(gz, glen, &ulen);
	assert_int_equal(ulen, len);
	assert_memory_equal(un, xml, len);
	free(un);
	free(gz);
	free(xml);
}

/* ---- checking written assemblies ----------------------------------------- */

/* The test's own view of a puzzle: each piece's type (its first congruent
 * piece), mirror types, mirror-closedness and the goal's group. */
struct view {
	const struct puzzle *p;
	size_t type[PUZ_MAX_PIECES], mirror[PUZ_MAX_PIECES];
	bool closed;
	int nsym, sym[48];
};

static void view_init(struct view *v, const struct puzzle *p)
{
	v->p = p;
	struct shape canon[64];
	assert_true(p->npieces <= 64);
	unsigned lo[64] = {0}, hi[64] = {0};
	for (size_t i = 0; i < p->npieces; i++) {
		struct shape sh;
		assert_int_equal(poly_from_grid(&p->pieces[i].shape, &sh), POLY_OK);
		assert_int_equal(poly_canonical(&sh, &canon[i]), POLY_OK);
		poly_shape_clear(&sh);
		size_t t = 0;
		while (!poly_equal(&canon[t], &canon[i]))
			t++;
		v->type[i] = t;
		lo[t] += p->pieces[i].count;
		hi[t] += puz_piece_max(&p->pieces[i]);
	}
	v->closed = true;
	for (size_t i = 0; i < p->npieces; i++) {
		if (v->type[i] != i)
			continue;
		struct shape m, mc;
		assert_int_equal(poly_transform(&canon[i], 1, &m), POLY_OK);
		assert_int_equal(poly_canonical(&m, &mc), POLY_OK);
		v->mirror[i] = p->npieces;
		for (size_t u = 0; u < p->npieces; u++)
			if (v->type[u] == u && poly_equal(&canon[u], &mc))
				v->mirror[i] = u;
		if (v->mirror[i] == p->npieces || lo[v->mirror[i]] != lo[i] ||
		    hi[v->mirror[i]] != hi[i])
			v->closed = false;
		poly_shape_clear(&m);
		poly_shape_clear(&mc);
	}
	for (size_t i = 0; i < p->npieces; i++)
		poly_shape_clear(&canon[i]);
	/* the group: symmetries taking the goal cells (re-anchored at their
	 * least corner) onto goal cells of the same value */
	const struct grid *g = &p->goal;
	v->nsym = 0;
	for (int s = 0; s < 48; s++) {
		if (!poly_sym_proper(s) && !v->closed)
			continue;
		int lo3[3] = {999, 999, 999}, mlo[3] = {999, 999, 999};
		for (int z = 0; z < g->nz; z++)
			for (int y = 0; y < g->ny; y++)
				for (int x = 0; x < g->nx; x++) {
					if (!g->cells[puz_grid_index(g, x, y, z)])
						continue;
					int c[3] = {x, y, z}, d[3];
					poly_sym_apply(s, c, d);
					for (int a = 0; a < 3; a++) {
						lo3[a] = c[a] < lo3[a] ? c[a] : lo3[a];
						mlo[a] = d[a] < mlo[a] ? d[a] : mlo[a];
					}
				}
		bool ok = true;
		for (int z = 0; z < g->nz && ok; z++)
			for (int y = 0; y < g->ny && ok; y++)
				for (int x = 0; x < g->nx && ok; x++) {
					unsigned char val = g->cells[puz_grid_index(g, x, y, z)];
					if (!val)
						continue;
					int c[3] = {x, y, z}, d[3];
					poly_sym_apply(s, c, d);
					for (int a = 0; a < 3; a++)
						d[a] += lo3[a] - mlo[a];
					ok = d[0] >= 0 && d[1] >= 0 && d[2] >= 0 && d[0] < g->nx &&
					     d[1] < g->ny && d[2] < g->nz &&
					     g->cells[puz_grid_index(g, d[0], d[1], d[2])] == val;
				}
		if (ok)
			v->sym[v->nsym++] = s;
	}
}

/* Check solution k of 's' through BurrTools' matrices: into 'slot' and
 * 'col' (goal-grid sized) the slot and piece colour on every cell. */
static void check_one(const struct puzzle *p, const struct xmp_solutions *s,
                      size_t k, int *slot, unsigned char *col)
{
	const struct grid *g = &p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz, at = 0;
	for (size_t i = 0; i < total; i++)
		slot[i] = -1;
	memset(col, 0, total);
	for (size_t i = 0; i < p->npieces; i++) {
		const struct puz_piece *pc = &p->pieces[i];
		unsigned used = 0;
		for (unsigned q = 0; q < puz_piece_max(pc); q++, at++) {
			const struct xmp_place *pl = &s->place[k * s->slots + at];
			if (pl->rot < 0)
				continue;
			if (used != q)
				fail_msg("solution %zu: piece %zu's copy %u placed after an "
				         "unused one", k, i, q);
			used++;
			assert_true(pl->rot < 24);
			const struct grid *sg = &pc->shape;
			for (int z = 0; z < sg->nz; z++)
				for (int y = 0; y < sg->ny; y++)
					for (int x = 0; x < sg->nx; x++) {
						unsigned char v = sg->cells[puz_grid_index(sg, x, y, z)];
						if (!v)
							continue;
						int c[3] = {x, y, z}, w[3];
						bt_apply(pl->rot, c, w);
						w[0] += pl->x;
						w[1] += pl->y;
						w[2] += pl->z;
						if (w[0] < 0 || w[1] < 0 || w[2] < 0 || w[0] >= g->nx ||
						    w[1] >= g->ny || w[2] >= g->nz)
							fail_msg("solution %zu: piece %zu leaves the grid", k, i);
						size_t gi = puz_grid_index(g, w[0], w[1], w[2]);
						if (!g->cells[gi] || slot[gi] >= 0)
							fail_msg("solution %zu: piece %zu off the goal or "
							         "overlapping", k, i);
						if (!puz_match(p, puz_cell_colour(v),
						               puz_cell_colour(g->cells[gi])))
							fail_msg("solution %zu: piece %zu's colour %d on %d",
							         k, i, puz_cell_colour(v),
							         puz_cell_colour(g->cells[gi]));
						slot[gi] = (int)at;
						col[gi] = (unsigned char)puz_cell_colour(v);
					}
		}
		if (used < pc->count)
			fail_msg("solution %zu: piece %zu used %u times, at least %u", k,
			         i, used, pc->count);
	}
	assert_int_equal(at, s->slots);
	for (size_t i = 0; i < total; i++)
		if (g->cells[i] && !puz_cell_optional(g->cells[i]) && slot[i] < 0)
			fail_msg("solution %zu: a goal cell is left empty", k);
}

/* The piece of slot 'sl'. */
static size_t slot_piece(const struct puzzle *p, int sl)
{
	size_t i = 0;
	while ((unsigned)sl >= puz_piece_max(&p->pieces[i]))
		sl -= (int)puz_piece_max(&p->pieces[i++]);
	return i;
}

/* The code of the assembly ('slot', 'col') under symmetry 'sym' (proper
 * or not): per goal cell in grid order, its block's rank by first
 * appearance, the block's type and the colour. */
static void code_of(const struct view *v, int sym, const int *slot,
                    const unsigned char *col, uint32_t *out)
{
	const struct grid *g = &v->p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	int lo[3] = {999, 999, 999}, mlo[3] = {999, 999, 999};
	for (size_t i = 0; i < total; i++) {
		if (!g->cells[i])
			continue;
		int c[3] = {(int)(i % g->nx), (int)(i / g->nx % g->ny),
		            (int)(i / g->nx / g->ny)}, d[3];
		poly_sym_apply(sym, c, d);
		for (int a = 0; a < 3; a++) {
			lo[a] = c[a] < lo[a] ? c[a] : lo[a];
			mlo[a] = d[a] < mlo[a] ? d[a] : mlo[a];
		}
	}
	int *img_slot = malloc(total * sizeof *img_slot);
	unsigned char *img_col = malloc(total);
	assert_non_null(img_slot);
	assert_non_null(img_col);
	for (size_t i = 0; i < total; i++)
		img_slot[i] = -1;
	for (size_t i = 0; i < total; i++) {
		if (!g->cells[i])
			continue;
		int c[3] = {(int)(i % g->nx), (int)(i / g->nx % g->ny),
		            (int)(i / g->nx / g->ny)}, d[3];
		poly_sym_apply(sym, c, d);
		for (int a = 0; a < 3; a++)
			d[a] += lo[a] - mlo[a];
		size_t j = puz_grid_index(g, d[0], d[1], d[2]);
		img_slot[j] = slot[i];
		img_col[j] = col[i];
	}
	int rank[PUZ_MAX_PIECES];
	memset(rank, 0, sizeof rank);
	int next = 0;
	for (size_t j = 0; j < total; j++) {
		if (img_slot[j] < 0) {
			out[j] = 0;
			continue;
		}
		if (!rank[img_slot[j]])
			rank[img_slot[j]] = ++next;
		size_t t = v->type[slot_piece(v->p, img_slot[j])];
		if (!poly_sym_proper(sym))
			t = v->mirror[t];
		out[j] = (uint32_t)rank[img_slot[j]] << 16 | (uint32_t)(t + 1) << 5 |
		         img_col[j];
	}
	free(img_slot);
	free(img_col);
}

static size_t g_total;
static int cmp_keys(const void *a, const void *b)
{
	return memcmp(a, b, g_total * sizeof(uint32_t));
}

/* Every solution of 's' is an assembly of 'p' (checked with BurrTools'
 * matrices) and no two are symmetric images of each other. */
static void check_solutions(const struct puzzle *p, const struct xmp_solutions *s)
{
	struct view v;
	view_init(&v, p);
	const struct grid *g = &p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	int *slot = malloc(total * sizeof *slot);
	unsigned char *col = malloc(total);
	uint32_t *keys = malloc((s->n ? s->n : 1) * total * sizeof *keys);
	uint32_t *code = malloc(total * sizeof *code);
	assert_true(slot && col && keys && code);
	for (size_t k = 0; k < s->n; k++) {
		check_one(p, s, k, slot, col);
		uint32_t *key = keys + k * total;
		for (int e = 0; e < v.nsym; e++) {
			code_of(&v, v.sym[e], slot, col, code);
			if (e == 0 || memcmp(code, key, total * sizeof *code) < 0)
				memcpy(key, code, total * sizeof *code);
		}
	}
	g_total = total;
	qsort(keys, s->n, total * sizeof *keys, cmp_keys);
	for (size_t k = 1; k < s->n; k++)
		if (memcmp(keys + (k - 1) * total, keys + k * total,
		           total * sizeof *keys) == 0)
			fail_msg("%s: two solutions written are the same solution",
			         p->name);
	free(slot);
	free(col);
	free(keys);
	free(code);
}

/* Find, check, and compare the number with solve's count. */
static void expect_solutions(const struct puzzle *p, uint64_t want)
{
	struct xmp_solutions s;
	assert_int_equal(xmp_find_solutions(p, 0, false, NULL, NULL, &s), SOLVE_OK);
	assert_true(s.complete);
	if (s.n != want || s.solutions != want)
		fail_msg("%s: %zu solutions written, %llu counted, %llu expected",
		         p->name, s.n, (unsigned long long)s.solutions,
		         (unsigned long long)want);
	check_solutions(p, &s);
	xmp_solutions_clear(&s);
}

/* ---- tests --------------------------------------------------------------- */

/* Index by index: xmp_rotation(t) is BurrTools' matrix t on every point,
 * and the 24 are the 24 proper rotations. */
static void test_xmwrite_rotation_table(void **state)
{
	(void)state;
	bool seen[48] = {false};
	for (int t = 0; t < 24; t++) {
		int s = xmp_rotation(t);
		assert_true(s >= 0 && s < 48);
		assert_true(poly_sym_proper(s));
		assert_false(seen[s]);
		seen[s] = true;
		for (int x = -2; x <= 2; x++)
			for (int y = -2; y <= 2; y++)
				for (int z = -2; z <= 2; z++) {
					int c[3] = {x, y, z}, a[3], b[3];
					poly_sym_apply(s, c, a);
					bt_apply(t, c, b);
					if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2])
						fail_msg("rotation %d: (%d,%d,%d) -> (%d,%d,%d), "
						         "BurrTools (%d,%d,%d)", t, x, y, z, a[0],
						         a[1], a[2], b[0], b[1], b[2]);
				}
	}
	/* rotation 0 is the identity */
	assert_int_equal(xmp_rotation(0), 0);
}

static const char two_l[] =
	"puzzle v1\n"
	"name two L trominoes fill a 3x2 rectangle\n"
	"goal 3 2 1\n"
	"###\n"
	"###\n"
	"piece L 2 2 1 count 2\n"
	"##\n"
	"#.\n";

/* The golden bytes of a small plain file, with its one solution: the L at
 * rotation 0 on the left, the other turned half round the z axis
 * (BurrTools' rotation 10) on the right. */
static void test_xmwrite_golden_plain(void **state)
{
	(void)state;
	struct puzzle p;
	load_text(two_l, &p);
	struct xmp_solutions s;
	assert_int_equal(xmp_find_solutions(&p, 0, false, NULL, NULL, &s), SOLVE_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.slots, 2);
	expect_xml(&p, &s,
		"<?xml version=\"1.0\"?>\n"
		"<puzzle version=\"2\">\n"
		" <gridType type=\"0\"/>\n"
		" <colors/>\n"
		" <shapes>\n"
		"  <voxel x=\"3\" y=\"2\" z=\"1\" name=\"goal\" type=\"0\">######</voxel>\n"
		"  <voxel x=\"2\" y=\"2\" z=\"1\" name=\"L\" type=\"0\">###_</voxel>\n"
		" </shapes>\n"
		" <problems>\n"
		"  <problem name=\"two L trominoes fill a 3x2 rectangle\" state=\"0\">\n"
		"   <shapes>\n"
		"    <shape id=\"1\" count=\"2\"/>\n"
		"   </shapes>\n"
		"   <result id=\"0\"/>\n"
		"   <bitmap/>\n"
		"   <solutions>\n"
		"    <solution>\n"
		"     <assembly>0 0 0 0 2 1 0 10</assembly>\n"
		"    </solution>\n"
		"   </solutions>\n"
		"  </problem>\n"
		" </problems>\n"
		" <comment/>\n"
		"</puzzle>\n");
	/* without solutions: no <solutions> element */
	size_t len;
	char *xml = write_mem(&p, NULL, false, &len);
	assert_null(strstr(xml, "solution"));
	free(xml);
	xmp_solutions_clear(&s);
	puz_clear(&p);
}

static const char colour_text[] =
	"puzzle v1\n"
	"colour a CC3311\n"
	"colour b 0077BB\n"
	"goal 3 1 2\n"
	"aB+\n"
	"\n"
	"#b#\n"
	"piece L 2 1 2\n"
	"ab\n"
	"\n"
	"#.\n"
	"piece I 1 1 1 count 1..3\n"
	"c\n"
	"piece J 1 1 1 count 0..2\n"
	"#\n"
	"match a a\n"
	"match b b\n"
	"match c b\n"
	"match c a\n"
	"region r\n"
	"#..\n"
	"\n"
	"...\n";

/* Colours (display colours, the c used only by a piece gets its default),
 * coloured and optional goal cells (an optional one of colour b: "+2"), ranges, the match table as pairs in
 * BurrTools' order, no name, a region that is not distinct dropped. */
static void test_xmwrite_golden_colour(void **state)
{
	(void)state;
	struct puzzle p;
	load_text(colour_text, &p);
	uint32_t c = puz_colour_rgb(&p, 3);
	char want[2048];
	snprintf(want, sizeof want,
		"<?xml version=\"1.0\"?>\n"
		"<puzzle version=\"2\">\n"
		" <gridType type=\"0\"/>\n"
		" <colors>\n"
		"  <color red=\"204\" green=\"51\" blue=\"17\"/>\n"
		"  <color red=\"0\" green=\"119\" blue=\"187\"/>\n"
		"  <color red=\"%u\" green=\"%u\" blue=\"%u\"/>\n"
		" </colors>\n"
		" <shapes>\n"
		"  <voxel x=\"3\" y=\"1\" z=\"2\" name=\"goal\" type=\"0\">#1+2+##2#</voxel>\n"
		"  <voxel x=\"2\" y=\"1\" z=\"2\" name=\"L\" type=\"0\">#1#2#_</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"1\" name=\"I\" type=\"0\">#3</voxel>\n"
		"  <voxel x=\"1\" y=\"1\" z=\"1\" name=\"J\" type=\"0\">#</voxel>\n"
		" </shapes>\n"
		" <problems>\n"
		"  <problem state=\"0\">\n"
		"   <shapes>\n"
		"    <shape id=\"1\" count=\"1\"/>\n"
		"    <shape id=\"2\" min=\"1\" max=\"3\"/>\n"
		"    <shape id=\"3\" min=\"0\" max=\"2\"/>\n"
		"   </shapes>\n"
		"   <result id=\"0\"/>\n"
		"   <bitmap>\n"
		"    <pair piece=\"0\" result=\"0\"/>\n"
		"    <pair piece=\"1\" result=\"1\"/>\n"
		"    <pair piece=\"2\" result=\"0\"/>\n"
		"    <pair piece=\"2\" result=\"1\"/>\n"
		"   </bitmap>\n"
		"  </problem>\n"
		" </problems>\n"
		" <comment/>\n"
		"</puzzle>\n",
		(unsigned)(c >> 16), (unsigned)(c >> 8 & 0xff), (unsigned)(c & 0xff));
	expect_xml(&p, NULL, want);
	puz_clear(&p);
}

/* Without a match table each colour may lie only on itself: one pair per
 * colour. */
static void test_xmwrite_colours_without_match_table(void **state)
{
	(void)state;
	struct puzzle p;
	load_text("puzzle v1\ngoal 2 1 1\nab\npiece A 1 1 1\nb\n"
	          "piece B 1 1 1\na\n", &p);
	size_t len;
	char *xml = write_mem(&p, NULL, false, &len);
	assert_non_null(strstr(xml,
		"   <bitmap>\n"
		"    <pair piece=\"0\" result=\"0\"/>\n"
		"    <pair piece=\"1\" result=\"1\"/>\n"
		"   </bitmap>\n"));
	free(xml);
	puz_clear(&p);
}

/* Same puzzle, same bytes; a gzip header with no name and no time. */
static void test_xmwrite_deterministic_gzip(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	struct xmp_solutions s;
	assert_int_equal(xmp_find_solutions(&p, 0, false, NULL, NULL, &s), SOLVE_OK);
	size_t a, b;
	char *x = write_mem(&p, &s, true, &a);
	char *y = write_mem(&p, &s, true, &b);
	assert_int_equal(a, b);
	assert_memory_equal(x, y, a);
	const unsigned char *h = (const unsigned char *)x;
	assert_int_equal(h[0], 0x1f);
	assert_int_equal(h[1], 0x8b);
	assert_int_equal(h[2], 8);    /* deflate */
	assert_int_equal(h[3], 0);    /* no name, no comment, no extra */
	assert_int_equal(h[4] | h[5] | h[6] | h[7], 0); /* no time stamp */
	assert_int_equal(h[9], 3);    /* Unix */
	free(x);
	free(y);
	xmp_solutions_clear(&s);
	puz_clear(&p);
}

/* Names with XML's special characters are escaped; the text reads back. */
static void test_xmwrite_escapes_names(void **state)
{
	(void)state;
	struct puzzle p;
	load_text("puzzle v1\nname <a> & \"b\" 'c'\ngoal 1 1 1\n#\n"
	          "piece x<&>\"'y 1 1 1\n#\n", &p);
	size_t len;
	char *xml = write_mem(&p, NULL, false, &len);
	assert_non_null(strstr(xml,
		"<problem name=\"&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;\""));
	assert_non_null(strstr(xml, "name=\"x&lt;&amp;&gt;&quot;&apos;y\""));
	free(xml);
	/* tab, LF and CR by number, as an attribute would lose them */
	strcpy(p.name, "a\tb\nc\rd");
	xml = write_mem(&p, NULL, false, &len);
	assert_non_null(strstr(xml, "name=\"a&#9;b&#10;c&#13;d\""));
	free(xml);
	puz_clear(&p);
}

/* What BurrTools cannot hold is refused with a reason. */
static void test_xmwrite_refusals(void **state)
{
	(void)state;
	char why[160];
	struct puzzle p;
	test_load_puzzle(DATA "colour-mix.puz", &p);
	assert_false(xmp_writable(&p, false, why, sizeof why));
	assert_non_null(strstr(why, "distinct regions"));
	assert_non_null(strstr(why, "'top'"));
	p.regions[0].distinct = false;
	assert_true(xmp_writable(&p, true, why, sizeof why));
	p.distinct_faces = true;
	assert_false(xmp_writable(&p, false, why, sizeof why));
	assert_non_null(strstr(why, "distinct faces"));
	p.distinct_faces = false;
	strcpy(p.name, "bell\a");
	assert_false(xmp_writable(&p, false, why, sizeof why));
	assert_non_null(strstr(why, "name"));
	strcpy(p.name, "ok");
	p.pieces[1].name[0] = '\x01';
	assert_false(xmp_writable(&p, false, why, sizeof why));
	assert_non_null(strstr(why, "piece 2"));
	puz_clear(&p);

	/* 255 pieces: the file, yes; its solutions, no (labels are bytes) */
	char *text = malloc(255 * 40 + 100);
	assert_non_null(text);
	size_t n = (size_t)sprintf(text, "puzzle v1\ngoal 15 17 1\n");
	for (int y = 0; y < 17; y++) {
		memset(text + n, '#', 15);
		n += 15;
		text[n++] = '\n';
	}
	for (int i = 0; i < 255; i++)
		n += (size_t)sprintf(text + n, "piece p%d 1 1 1\n#\n", i);
	load_text(text, &p);
	free(text);
	assert_true(xmp_writable(&p, false, why, sizeof why));
	assert_false(xmp_writable(&p, true, why, sizeof why));
	assert_non_null(strstr(why, "254"));
	puz_clear(&p);
}

/* A stream that cannot be written is PUZ_EIO, gzip or not. */
static void test_xmwrite_write_error(void **state)
{
	(void)state;
	struct puzzle p;
	load_text(two_l, &p);
	FILE *fp = fopen("/dev/null", "r");
	assert_non_null(fp);
	assert_int_equal(xmp_write(fp, &p, NULL, false), PUZ_EIO);
	assert_int_equal(xmp_write(fp, &p, NULL, true), PUZ_EIO);
	fclose(fp);
	puz_clear(&p);
}

/* Known counts; every solution written is an assembly by BurrTools'
 * matrices, and none is a symmetric image of another. */
static void test_xmwrite_solutions_classic(void **state)
{
	(void)state;
	static const struct { const char *file; uint64_t n; } known[] = {
		{DATA "soma.puz", 240},
		{DATA "pentacubes-2x3x10.puz", 12},
		{DATA "happycube-blue.puz", 3},
		{DATA "HC_BQ_001.hcq", 1},
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		struct puzzle p;
		test_load_puzzle(known[i].file, &p);
		expect_solutions(&p, known[i].n);
		puz_clear(&p);
	}
}

/* Copies that share a label and cut two ways (dominoes in a cube: 2
 * solutions, BurrTools finds 2 too), ranges and optional cells. */
static void test_xmwrite_solutions_copies(void **state)
{
	(void)state;
	static const struct { const char *text; uint64_t n; } cases[] = {
		{"puzzle v1\ngoal 2 2 2\n##\n##\n\n##\n##\npiece D 2 1 1 count 4\n##\n", 2},
		{"puzzle v1\ngoal 4 3 1\n####\n####\n####\npiece D 2 1 1 count 3\n##\n"
		 "piece L 2 2 1 count 2\n##\n#.\n", 12},
		{"puzzle v1\ngoal 3 2 1\n##+\n###\npiece A 1 1 1 count 2..5\n#\n"
		 "piece B 2 1 1 count 0..2\n##\n", 24},
		{"puzzle v1\ngoal 4 1 1\n####\npiece A 2 1 1\n##\npiece B 2 1 1\n##\n", 1},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct puzzle p;
		load_text(cases[i].text, &p);
		expect_solutions(&p, cases[i].n);
		puz_clear(&p);
	}
}

/* Random polycube puzzles (congruent pieces as counts and as separate
 * entries) and random colour puzzles with their distinct regions taken
 * out: as many written as solve counts (and the colour reference), each
 * an assembly, none twice. */
static void test_xmwrite_solutions_random(void **state)
{
	(void)state;
	size_t with = 0, compared = 0;
	for (uint64_t seed = 1; seed <= 150; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		struct solve_opts o = {0};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		expect_solutions(&p, r.solutions);
		with += r.solutions > 0;
		solve_result_clear(&r);
		puz_clear(&p);
	}
	for (uint64_t seed = 1; seed <= 150; seed++) {
		struct puzzle p;
		assert_true(colref_random(seed, &p) >= 0);
		for (size_t k = 0; k < p.nregions; k++)
			p.regions[k].distinct = false;
		p.distinct_faces = false;
		struct colref_result ref;
		if (colref_count(&p, &ref) != 0) { /* over the reference's limits */
			puz_clear(&p);
			continue;
		}
		struct solve_opts o = {0};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_int_equal(r.solutions, ref.solutions);
		solve_result_clear(&r);
		expect_solutions(&p, ref.solutions);
		with += ref.solutions > 0;
		compared++;
		puz_clear(&p);
	}
	/* the check can fail: most puzzles have solutions, and the
	 * reference counts most colour puzzles */
	assert_true(with > 200);
	assert_true(compared > 120);
}

/* --max: the first K, marked incomplete; a cap above the count changes
 * nothing. */
static void test_xmwrite_solutions_max(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	struct xmp_solutions s;
	assert_int_equal(xmp_find_solutions(&p, 10, false, NULL, NULL, &s), SOLVE_OK);
	assert_int_equal(s.n, 10);
	assert_false(s.complete);
	assert_true(s.solutions >= 10);
	check_solutions(&p, &s);
	xmp_solutions_clear(&s);
	assert_int_equal(xmp_find_solutions(&p, 1000, false, NULL, NULL, &s), SOLVE_OK);
	assert_int_equal(s.n, 240);
	assert_true(s.complete);
	xmp_solutions_clear(&s);
	puz_clear(&p);
}

/* Every allocation of a write and of a search fails in turn: ENOMEM,
 * nothing leaked, outputs untouched; then the whole job succeeds. */
static void test_xmwrite_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	struct puzzle p;
	load_text("puzzle v1\ngoal 4 3 1\n####\n####\n####\n"
	          "piece D 2 1 1 count 3\n##\npiece L 2 2 1 count 2\n##\n#.\n", &p);
	FILE *fp = tmpfile();
	assert_non_null(fp);
	assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);

	long before = live;
	struct xmp_solutions s = {.n = 77};
	long k = 0;
	for (;; k++) {
		fail_after = k;
		int rc = xmp_find_solutions(&p, 0, false, NULL, NULL, &s);
		fail_after = -1;
		if (rc == SOLVE_OK)
			break;
		assert_int_equal(rc, SOLVE_ENOMEM);
		assert_int_equal(s.n, 77);
		if (live != before)
			fail_msg("search, allocation %ld failed: %ld blocks leaked", k,
			         live - before);
	}
	assert_true(k > 5);
	assert_int_equal(s.n, 12);
	long after_search = live;
	for (k = 0;; k++) {
		fail_after = k;
		int rc = xmp_write(fp, &p, &s, true);
		fail_after = -1;
		if (rc == PUZ_OK)
			break;
		assert_int_equal(rc, PUZ_ENOMEM);
		if (live != after_search)
			fail_msg("write, allocation %ld failed: %ld blocks leaked", k,
			         live - after_search);
	}
	assert_true(k >= 2); /* the text, and zlib's state */
	fclose(fp);
	xmp_solutions_clear(&s);
	puz_clear(&p);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xmwrite_rotation_table),
		cmocka_unit_test(test_xmwrite_golden_plain),
		cmocka_unit_test(test_xmwrite_golden_colour),
		cmocka_unit_test(test_xmwrite_colours_without_match_table),
		cmocka_unit_test(test_xmwrite_deterministic_gzip),
		cmocka_unit_test(test_xmwrite_escapes_names),
		cmocka_unit_test(test_xmwrite_refusals),
		cmocka_unit_test(test_xmwrite_write_error),
		cmocka_unit_test(test_xmwrite_solutions_classic),
		cmocka_unit_test(test_xmwrite_solutions_copies),
		cmocka_unit_test(test_xmwrite_solutions_random),
		cmocka_unit_test(test_xmwrite_solutions_max),
		cmocka_unit_test(test_xmwrite_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
