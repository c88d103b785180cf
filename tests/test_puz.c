/*
 * test_puz.c: grids, the .puz reader and writer, the .hcq reader.
 *
 * Every bad input is checked for its status, the exact line and column,
 * and a key phrase of the message, and that the reader left '*out' alone.
 * Good inputs: the classic puzzle files (known sizes), random puzzles written
 * and read back, CRLF, comments and blank lines anywhere.
 *
 * Runs from the repository root: fixtures are under tests/data/puz/, the
 * classic puzzles under tests/data/classic/.
 *
 * Out-of-memory paths are tested by replacing malloc/calloc/realloc/free
 * for this program with glibc's own entry points behind a countdown (the
 * state is a file-scope static because malloc has no context argument).
 * Under ASan, which owns the allocator, that test is skipped.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "formats/puz.h"

#define DATA "tests/data/classic/"
#define FIX "tests/data/puz/"

/* ------------------------------------------------------------------ */
/* Allocation failure injection                                        */

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PUZ_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define PUZ_TEST_ASAN 1
#endif

#if defined(__GLIBC__) && !defined(PUZ_TEST_ASAN)
#define PUZ_TEST_FAULTS 1

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static struct {
	bool armed; /* count and fail only between arm and disarm */
	long left;  /* allocations to let through before failing one */
	bool fired; /* whether an allocation was failed */
	long live;  /* blocks allocated minus blocks freed while armed */
} faults;

static bool fault_now(void)
{
	if (!faults.armed || faults.fired)
		return false;
	if (faults.left-- > 0)
		return false;
	faults.fired = true;
	return true;
}

void *malloc(size_t n)
{
	void *p;

	if (fault_now())
		return NULL;
	p = __libc_malloc(n);
	if (p != NULL && faults.armed)
		faults.live++;
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p;

	if (fault_now())
		return NULL;
	p = __libc_calloc(n, size);
	if (p != NULL && faults.armed)
		faults.live++;
	return p;
}

void *realloc(void *old, size_t n)
{
	void *p;

	if (fault_now())
		return NULL;
	p = __libc_realloc(old, n);
	if (p != NULL && old == NULL && faults.armed)
		faults.live++;
	return p;
}

void free(void *p)
{
	if (p != NULL && faults.armed)
		faults.live--;
	__libc_free(p);
}

static void faults_arm(long left)
{
	faults.armed = true;
	faults.left = left;
	faults.fired = false;
	faults.live = 0;
}

static void faults_disarm(void)
{
	faults.armed = false;
}
#endif

/* ------------------------------------------------------------------ */
/* Helpers                                                             */

/* A sentinel-filled puzzle, to check that failing readers leave '*out'
 * untouched. */
static void poison(struct puzzle *p)
{
	memset(p, 0x5A, sizeof(*p));
}

static bool poisoned(const struct puzzle *p)
{
	struct puzzle q;

	poison(&q);
	return memcmp(p, &q, sizeof(q)) == 0;
}

static void check_error(int rc, const struct puz_error *e,
                        const struct puzzle *p, int want_rc, int line,
                        int col, const char *phrase, int at)
{
	if (rc != want_rc || e->line != line || e->col != col ||
	    strstr(e->msg, phrase) == NULL)
		fail_msg("case on line %d: got rc %d at %d:%d '%s'; want rc "
		         "%d at %d:%d with '%s'",
		         at, rc, e->line, e->col, e->msg, want_rc, line, col,
		         phrase);
	if (!poisoned(p))
		fail_msg("case on line %d: the reader wrote '*out' on failure",
		         at);
}

static void puz_err_at(const char *text, size_t len, int line, int col,
                       const char *phrase, int at)
{
	struct puzzle p;
	struct puz_error e;
	int rc;

	poison(&p);
	memset(&e, 0, sizeof(e));
	rc = puz_read_mem(text, len, &p, &e);
	check_error(rc, &e, &p, PUZ_EPARSE, line, col, phrase, at);
}

static void hcq_err_at(const char *text, size_t len, int line, int col,
                       const char *phrase, int at)
{
	struct puzzle p;
	struct puz_error e;
	int rc;

	poison(&p);
	memset(&e, 0, sizeof(e));
	rc = hcq_read_mem(text, len, &p, &e);
	check_error(rc, &e, &p, PUZ_EPARSE, line, col, phrase, at);
}

/* Literal texts (sizeof keeps embedded NULs). */
#define PUZ_ERR(text, line, col, phrase)                                    \
	puz_err_at(text, sizeof(text) - 1, line, col, phrase, __LINE__)
#define HCQ_ERR(text, line, col, phrase)                                    \
	hcq_err_at(text, sizeof(text) - 1, line, col, phrase, __LINE__)

static void read_ok(const char *text, struct puzzle *p)
{
	struct puz_error e;
	int rc;

	memset(&e, 0, sizeof(e));
	rc = puz_read_mem(text, strlen(text), p, &e);
	if (rc != PUZ_OK)
		fail_msg("unexpected error %d at %d:%d: %s", rc, e.line, e.col,
		         e.msg);
}

static void read_file_ok(const char *path, struct puzzle *p)
{
	struct puz_error e;
	int rc;

	memset(&e, 0, sizeof(e));
	rc = puz_read_file(path, p, &e);
	if (rc != PUZ_OK)
		fail_msg("%s:%d:%d: %s (rc %d)", path, e.line, e.col, e.msg,
		         rc);
}

static bool grid_equal(const struct grid *a, const struct grid *b)
{
	size_t n;

	if (a->nx != b->nx || a->ny != b->ny || a->nz != b->nz)
		return false;
	n = (size_t)a->nx * (size_t)a->ny * (size_t)a->nz;
	return memcmp(a->cells, b->cells, n) == 0;
}

static bool puz_equal(const struct puzzle *a, const struct puzzle *b)
{
	size_t i;

	if (strcmp(a->name, b->name) != 0 || memcmp(a->size, b->size, sizeof a->size) != 0 ||
	    a->has_seed != b->has_seed ||
	    (a->has_seed && a->seed != b->seed) ||
	    !grid_equal(&a->goal, &b->goal) || a->npieces != b->npieces)
		return false;
	for (i = 0; i < a->npieces; i++)
		if (strcmp(a->pieces[i].name, b->pieces[i].name) != 0 ||
		    a->pieces[i].count != b->pieces[i].count ||
		    !grid_equal(&a->pieces[i].shape, &b->pieces[i].shape))
			return false;
	return true;
}

/* puz_write into a new malloc'd buffer. */
static char *write_mem(const struct puzzle *p, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	assert_non_null(fp);
	assert_int_equal(puz_write(fp, p), PUZ_OK);
	assert_int_equal(fclose(fp), 0);
	*len = n;
	return buf;
}

/* Write, read back, compare; write again and compare the bytes. */
static void round_trip(const struct puzzle *p)
{
	struct puzzle q;
	struct puz_error e;
	size_t n1, n2;
	char *t1 = write_mem(p, &n1), *t2;
	int rc = puz_read_mem(t1, n1, &q, &e);

	if (rc != PUZ_OK)
		fail_msg("reading back: %d:%d: %s\n%s", e.line, e.col, e.msg,
		         t1);
	assert_true(puz_equal(p, &q));
	t2 = write_mem(&q, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(t1, t2, n1);
	/* LF only, one trailing line end, no blank line at the end */
	assert_null(memchr(t1, '\r', n1));
	assert_true(n1 >= 2 && t1[n1 - 1] == '\n' && t1[n1 - 2] != '\n');
	puz_clear(&q);
	free(t1);
	free(t2);
}

static size_t total_count(const struct puzzle *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->npieces; i++)
		n += p->pieces[i].count;
	return n;
}

static size_t total_volume(const struct puzzle *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->npieces; i++)
		n += p->pieces[i].count * puz_grid_volume(&p->pieces[i].shape);
	return n;
}

/* The design example: two L trominoes fill a 3x2 rectangle. */
#define EXAMPLE                                                             \
	"puzzle v1\n"                                                       \
	"name two L trominoes fill a 3x2 rectangle\n"                       \
	"goal 3 2 1\n"                                                      \
	"###\n"                                                             \
	"###\n"                                                             \
	"piece L 2 2 1 count 2\n"                                           \
	"##\n"                                                              \
	"#.\n"

/* ------------------------------------------------------------------ */
/* Grids                                                               */

static void test_grid_init_is_empty_and_clear_resets(void **state)
{
	struct grid g;

	(void)state;
	assert_int_equal(puz_grid_init(&g, 3, 4, 5), PUZ_OK);
	assert_int_equal(g.nx, 3);
	assert_int_equal(g.ny, 4);
	assert_int_equal(g.nz, 5);
	assert_int_equal(puz_grid_volume(&g), 0);
	g.cells[puz_grid_index(&g, 2, 3, 4)] = 1;
	g.cells[puz_grid_index(&g, 0, 0, 0)] = 1;
	assert_int_equal(puz_grid_index(&g, 2, 3, 4), 59);
	assert_int_equal(puz_grid_volume(&g), 2);
	puz_grid_clear(&g);
	assert_null(g.cells);
	assert_int_equal(g.nx, 0);
	assert_int_equal(puz_grid_volume(&g), 0);
	puz_grid_clear(&g); /* twice is fine */
}

static void test_grid_init_overflow_is_enomem(void **state)
{
	struct grid g;

	(void)state;
	memset(&g, 0x5A, sizeof(g));
	assert_int_equal(puz_grid_init(&g, INT_MAX, INT_MAX, INT_MAX), PUZ_ENOMEM);
	assert_int_equal(g.nx, 0x5A5A5A5A); /* untouched */
}

static void test_puz_clear_accepts_empty_and_null(void **state)
{
	struct puzzle p;

	(void)state;
	memset(&p, 0, sizeof(p));
	puz_clear(&p);
	puz_clear(NULL);
	read_ok(EXAMPLE, &p);
	puz_clear(&p);
	assert_int_equal(p.npieces, 0);
	assert_null(p.pieces);
	assert_null(p.goal.cells);
	assert_string_equal(p.name, "");
	puz_clear(&p);
}

/* ------------------------------------------------------------------ */
/* .puz: good input                                                    */

static void test_puz_read_design_example(void **state)
{
	struct puzzle p;

	(void)state;
	read_ok(EXAMPLE, &p);
	assert_string_equal(p.name, "two L trominoes fill a 3x2 rectangle");
	assert_int_equal(p.goal.nx, 3);
	assert_int_equal(p.goal.ny, 2);
	assert_int_equal(p.goal.nz, 1);
	assert_int_equal(puz_grid_volume(&p.goal), 6);
	assert_int_equal(p.npieces, 1);
	assert_string_equal(p.pieces[0].name, "L");
	assert_int_equal(p.pieces[0].count, 2);
	assert_int_equal(puz_grid_volume(&p.pieces[0].shape), 3);
	/* row y=1 is "#.": (0,1) set, (1,1) not */
	assert_int_equal(p.pieces[0].shape.cells[puz_grid_index(&p.pieces[0].shape,
	                                                    0, 1, 0)],
	                 1);
	assert_int_equal(p.pieces[0].shape.cells[puz_grid_index(&p.pieces[0].shape,
	                                                    1, 1, 0)],
	                 0);
	assert_int_equal(p.size[0], 0);
	assert_false(p.has_seed);
	puz_clear(&p);
}

static void test_puz_read_blocks_are_z_in_order(void **state)
{
	struct puzzle p;
	const struct grid *g;

	(void)state;
	read_ok("puzzle v1\ngoal 2 1 3\n#.\n\n.#\n\n##\n"
	        "piece A 1 1 1\n#\n",
	        &p);
	g = &p.goal;
	assert_int_equal(g->cells[puz_grid_index(g, 0, 0, 0)], 1);
	assert_int_equal(g->cells[puz_grid_index(g, 1, 0, 0)], 0);
	assert_int_equal(g->cells[puz_grid_index(g, 0, 0, 1)], 0);
	assert_int_equal(g->cells[puz_grid_index(g, 1, 0, 1)], 1);
	assert_int_equal(g->cells[puz_grid_index(g, 1, 0, 2)], 1);
	puz_clear(&p);
}

static void test_puz_read_crlf_file_accepted(void **state)
{
	struct puzzle a, b;

	(void)state;
	read_file_ok(FIX "crlf.puz", &a);
	read_ok(EXAMPLE, &b);
	assert_true(puz_equal(&a, &b));
	puz_clear(&a);
	puz_clear(&b);
}

static void test_puz_read_missing_final_newline_accepted(void **state)
{
	struct puzzle a, b;

	(void)state;
	read_ok("puzzle v1\ngoal 3 2 1\n###\n###\npiece L 2 2 1 count 2\n"
	        "##\n#.",
	        &a);
	read_ok("puzzle v1\r\ngoal 3 2 1\n###\n###\npiece L 2 2 1 count 2\n"
	        "##\r\n#.",
	        &b);
	assert_true(puz_equal(&a, &b));
	assert_int_equal(a.pieces[0].count, 2);
	puz_clear(&a);
	puz_clear(&b);
}

static void test_puz_read_comments_and_blank_lines_anywhere(void **state)
{
	struct puzzle a, b;

	(void)state;
	read_ok("; leading comment\n\n\npuzzle v1\n; c\n\nseed 7\n\n"
	        "goal 2 2 2\n; before a row\n##\n;between rows\n##\n"
	        "; before the separator\n\n; after it\n##\n#.\n;\n\n\n\n"
	        "piece A 2 2 1\n##\n##\n; c\t(tabs allowed in comments)\n"
	        "piece B 2 1 2\n#.\n\n#.\n;final",
	        &a);
	read_ok("puzzle v1\nseed 7\ngoal 2 2 2\n##\n##\n\n##\n#.\n"
	        "piece A 2 2 1\n##\n##\n\npiece B 2 1 2\n#.\n\n#.\n",
	        &b);
	assert_true(puz_equal(&a, &b));
	assert_int_equal(a.npieces, 2);
	puz_clear(&a);
	puz_clear(&b);
}

static void test_puz_read_name_size_seed_any_order(void **state)
{
	struct puzzle a, b;

	(void)state;
	read_ok("puzzle v1\nseed 18446744073709551615\nsize 5\nname x y\n"
	        "goal 1 1 1\n#\npiece A 1 1 1\n#\n",
	        &a);
	read_ok("puzzle v1\nname x y\nseed 018446744073709551615\nsize 5\n"
	        "goal  1  1 1\n#\npiece  A 1 1  1\n#\n",
	        &b);
	assert_true(puz_equal(&a, &b));
	assert_true(a.has_seed);
	assert_true(a.seed == UINT64_MAX);
	assert_int_equal(a.size[0], 5);
	assert_int_equal(a.size[2], 5);
	assert_string_equal(a.name, "x y");
	puz_clear(&a);
	puz_clear(&b);
}

static void test_puz_read_seed_zero_and_bom(void **state)
{
	struct puzzle p;

	(void)state;
	read_ok("\xEF\xBB\xBFpuzzle v1\nseed 0\ngoal 1 1 1\n#\n"
	        "piece A 1 1 1\n#\n",
	        &p);
	assert_true(p.has_seed);
	assert_true(p.seed == 0);
	puz_clear(&p);
}

static void test_puz_read_limits_accepted(void **state)
{
	/* 128 x 2 x 1 goal, a 63-byte piece name, count 1024 */
	char text[2048], *t = text;
	struct puzzle p;
	int i, y;

	(void)state;
	t += sprintf(t, "puzzle v1\nname ");
	for (i = 0; i < PUZ_MAX_TITLE; i++)
		*t++ = 'n';
	t += sprintf(t, "\ngoal 128 2 1\n");
	for (y = 0; y < 2; y++) {
		memset(t, '#', 128);
		t += 128;
		*t++ = '\n';
	}
	t += sprintf(t, "piece ");
	for (i = 0; i < PUZ_MAX_NAME; i++)
		*t++ = (char)('!' + i);
	t += sprintf(t, " 1 1 1 count 1024\n#\n");
	read_ok(text, &p);
	assert_int_equal(strlen(p.name), PUZ_MAX_TITLE);
	assert_int_equal(strlen(p.pieces[0].name), PUZ_MAX_NAME);
	assert_int_equal(total_count(&p), PUZ_MAX_PIECES);
	assert_int_equal(puz_grid_volume(&p.goal), 256);
	round_trip(&p);
	puz_clear(&p);
}

/* ------------------------------------------------------------------ */
/* .puz: bad input                                                     */

static void test_puz_read_unknown_header(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ncolour red\ngoal 1 1 1\n#\n", 2, 1,
	        "unknown line 'colour': expected 'name', 'size', 'seed' or "
	        "'goal'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npeace A 1 1 1\n#\n", 4, 1,
	        "expected 'piece NAME X Y Z [count K]'");
}

static void test_puz_read_first_line_not_magic(void **state)
{
	(void)state;
	PUZ_ERR("goal 1 1 1\n#\n", 1, 1, "expected 'puzzle v1'");
	PUZ_ERR("; c\n\npuzzle v2\n", 3, 8, "unsupported version 'v2'");
	PUZ_ERR("puzzle\n", 1, 7, "expected 'puzzle v1'");
	PUZ_ERR("puzzle v1 x\n", 1, 11, "unexpected 'x' after 'puzzle v1'");
	PUZ_ERR("; only\n\n; comments\n", 4, 1,
	        "expected 'puzzle v1', found end of file");
}

static void test_puz_read_wrong_row_length(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 2 1\n###\n##\n", 4, 3,
	        "row has 2 cells, expected 3");
	PUZ_ERR("puzzle v1\ngoal 3 2 1\n####\n###\n", 3, 4,
	        "row has 4 cells, expected 3");
	PUZ_ERR("puzzle v1\ngoal 5 1 1\n####\n", 3, 5,
	        "row has 4 cells, expected 5");
}

static void test_puz_read_bad_cell_character(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n#x#\n", 3, 2,
	        "expected '#' or '.', found 'x'");
	/* columns count characters, not bytes */
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n#.\xC3\xA9\n", 3, 3,
	        "expected '#' or '.', found '\xC3\xA9'");
	PUZ_ERR("puzzle v1\ngoal 3 1 1\nx##\n", 3, 1,
	        "expected '#' or '.', found 'x'");
}

static void test_puz_read_missing_row(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 2 1\n###\npiece A 1 1 1\n#\n", 4, 1,
	        "goal block 1 has 1 row, expected 2");
	PUZ_ERR("puzzle v1\ngoal 1 4 2\n#\n#\n#\n#\n\n#\n#\n#\n\n"
	        "piece A 1 1 1\n#\n",
	        11, 1, "goal block 2 has 3 rows, expected 4");
	PUZ_ERR("puzzle v1\ngoal 1 2 1\n#\n", 4, 1,
	        "goal block 1 has 1 row, expected 2");
	PUZ_ERR("puzzle v1\ngoal 1 2 1\n#", 3, 2,
	        "goal block 1 has 1 row, expected 2");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 2 2 1\n##\n\n", 6, 1,
	        "piece 'A' block 1 has 1 row, expected 2");
}

static void test_puz_read_extra_row(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 2 1\n###\n###\n###\n", 5, 1,
	        "goal block 1 has more than 2 rows, expected 2");
	PUZ_ERR("puzzle v1\ngoal 1 1 2\n#\n#\n\n#\n", 4, 1,
	        "goal block 1 has more than 1 row, expected 1");
}

static void test_puz_read_missing_block(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 1 1 3\n#\n\n#\npiece A 1 1 1\n#\n", 6, 1,
	        "goal has 2 blocks, expected 3");
	PUZ_ERR("puzzle v1\ngoal 1 1 2\n#\n\n\npiece A 1 1 1\n#\n", 6, 1,
	        "goal has 1 block, expected 2");
	PUZ_ERR("puzzle v1\ngoal 1 1 2\n#\n", 4, 1,
	        "goal has 1 block, expected 2");
}

static void test_puz_read_extra_block(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\n\n#\npiece A 1 1 1\n#\n", 5, 1,
	        "goal has more than 1 block, expected 1");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\n\n\n.\n", 8, 1,
	        "piece 'A' has more than 1 block, expected 1");
}

static void test_puz_read_blocks_need_one_blank_line(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 1 1 2\n#\n\n; c\n\n#\n", 6, 1,
	        "exactly one blank line, found 2");
	PUZ_ERR("puzzle v1\ngoal 1 1 2\n#\nhello\n", 4, 1,
	        "expected a blank line after goal block 1, found 'hello'");
}

static void test_puz_read_dimension_zero(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 0 2 1\n", 2, 6,
	        "goal X dimension 0 out of range 1..128");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece P 1 1 0\n", 4, 13,
	        "piece 'P' Z dimension 0 out of range 1..128");
}

static void test_puz_read_dimension_negative(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 -2 1\n", 2, 8,
	        "goal Y dimension -2 out of range 1..128");
}

static void test_puz_read_dimension_absurd(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 100000 2 1\n", 2, 6,
	        "dimension 100000 out of range 1..128");
	PUZ_ERR("puzzle v1\ngoal 3 99999999999999999999999 1\n", 2, 8,
	        "dimension 99999999999999999999999 out of range");
	PUZ_ERR("puzzle v1\ngoal 3 x 1\n", 2, 8,
	        "expected a number for the goal Y dimension, found 'x'");
	PUZ_ERR("puzzle v1\ngoal 128 128 128\n", 2, 6,
	        "goal is 128x128x128 = 2097152 cells, more than 262144");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece P 128 128 17\n", 4, 9,
	        "more than 262144");
}

static void test_puz_read_header_shape(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 2\n", 2, 9, "expected 'goal X Y Z'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1 1\n", 2, 12,
	        "unexpected '1' after 'goal X Y Z'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1\n#\n", 4, 12,
	        "expected 'piece NAME X Y Z [count K]'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece\n#\n", 4, 6,
	        "expected 'piece NAME X Y Z [count K]'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 cnt 2\n#\n", 4, 15,
	        "unexpected 'cnt': expected 'piece NAME X Y Z [count K]'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count\n#\n", 4, 20,
	        "expected a number after 'count'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 1 x\n#\n", 4,
	        23, "unexpected 'x' after the count");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count two\n#\n", 4,
	        21, "expected a number after 'count', found 'two'");
}

static void test_puz_read_count_zero(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 0\n#\n", 4, 21,
	        "count 0: must be at least 1");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count -3\n#\n", 4,
	        21, "count -3: must be at least 1");
}

static void test_puz_read_too_many_pieces(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 1025\n#\n", 4,
	        21, "more than 1024 pieces");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count "
	        "99999999999999999999999\n#\n",
	        4, 21, "more than 1024 pieces");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 1000\n#\n"
	        "piece B 1 1 1 count 24\n#\npiece C 1 1 1\n#\n",
	        8, 7, "more than 1024 pieces");
}

static void test_puz_read_piece_larger_than_goal(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 2 1\n###\n###\npiece P 3 3 1\n###\n###\n"
	        "#..\n",
	        5, 7, "piece 'P' has 7 cells, more than the goal's 6");
	PUZ_ERR("puzzle v1\ngoal 3 3 3\n###\n###\n###\n\n###\n###\n###\n\n"
	        "###\n###\n###\npiece P 6 5 1\n######\n######\n######\n"
	        "######\n######\n",
	        14, 7, "piece 'P' has 30 cells, more than the goal's 27");
}

static void test_puz_read_trailing_garbage(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\nhello\n", 6, 1,
	        "unexpected text after the last block");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\n\n\nhello", 8, 1,
	        "unexpected text after the last block");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nname late\npiece A 1 1 1\n#\n", 4,
	        1, "'name' must come before 'goal'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\ngoal 1 1 1\n#\n", 4, 1,
	        "duplicate 'goal' line (first on line 2)");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npuzzle v1\n", 4, 1,
	        "duplicate 'puzzle' line (first on line 1)");
	PUZ_ERR("puzzle v1\n##\n", 2, 1, "rows before the 'goal' line");
}

static void test_puz_read_lone_cr_rejected(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n##\r#\n", 3, 3,
	        "carriage return (CR) not followed by a line feed");
	PUZ_ERR("puzzle v1\rgoal 1 1 1\n", 1, 10, "carriage return");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\r", 5, 2,
	        "carriage return");
	PUZ_ERR("puzzle v1\n; comment\r\xC3\xA9\n", 2, 10, "carriage return");
}

static void test_puz_read_spaces_rejected_with_column(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 3 1 1 \n", 2, 11,
	        "trailing space at the end of the line");
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n###  \n", 3, 4, "trailing space");
	/* a column counts characters: 'é' is one column */
	PUZ_ERR("puzzle v1\nname caf\xC3\xA9 \n", 2, 10, "trailing space");
	PUZ_ERR("puzzle v1\n goal 3 1 1\n", 2, 1,
	        "unexpected space at the start of the line");
	PUZ_ERR("puzzle v1\ngoal 1 1 2\n#\n  \n#\n", 4, 1,
	        "line has only spaces");
	PUZ_ERR("puzzle v1\ngoal\t1 1 1\n", 2, 5, "tab character");
}

static void test_puz_read_empty_file(void **state)
{
	FILE *fp;
	struct puzzle p;
	struct puz_error e;
	char path[] = "/tmp/test_puz_empty_XXXXXX";
	int fd;

	(void)state;
	PUZ_ERR("", 0, 0, "empty file");
	poison(&p);
	assert_int_equal(puz_read_mem(NULL, 0, &p, &e), PUZ_EPARSE);
	assert_string_equal(e.msg, "empty file");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(puz_read_file(path, &p, &e), PUZ_EPARSE);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, "empty file");
	assert_true(poisoned(&p));
	assert_int_equal(unlink(path), 0);
}

static void test_puz_read_binary_junk_rejected(void **state)
{
	struct puzzle p;
	struct puz_error e;

	(void)state;
	poison(&p);
	/* "\x89PNG\r\n" "\x1a\n" then NULs: line 3, column 1 */
	assert_int_equal(puz_read_file(FIX "binary.puz", &p, &e), PUZ_EPARSE);
	check_error(PUZ_EPARSE, &e, &p, PUZ_EPARSE, 3, 1,
	            "not a text file (NUL byte)", __LINE__);
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\0\n", 3, 2, "not a text file");
}

static void test_puz_read_bad_text_rejected(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\nname caf\xE9\n", 2, 9,
	        "invalid UTF-8 (byte 0xE9)");
	PUZ_ERR("puzzle v1\nname \xC0\xAF\n", 2, 6, "invalid UTF-8");
	PUZ_ERR("puzzle v1\nname \xED\xA0\x80\n", 2, 6, "invalid UTF-8");
	PUZ_ERR("puzzle v1\nname a\x01"
	        "b\n",
	        2, 7, "control character U+0001");
	PUZ_ERR("puzzle v1\nname a\xC2\x85\n", 2, 7,
	        "control character U+0085");
	PUZ_ERR("; \x7F\n", 1, 3, "control character U+007F");
}

static void test_puz_read_nonexistent_file_is_eio(void **state)
{
	struct puzzle p;
	struct puz_error e;

	(void)state;
	poison(&p);
	assert_int_equal(puz_read_file(FIX "no-such-file.puz", &p, &e),
	                 PUZ_EIO);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, "No such file or directory");
	assert_true(poisoned(&p));
	assert_int_equal(puz_read_file(FIX, &p, &e), PUZ_EIO);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, strerror(EISDIR));
	assert_true(poisoned(&p));
}

static void test_puz_read_huge_file_rejected_unread(void **state)
{
	char path[] = "/tmp/test_puz_huge_XXXXXX";
	struct puzzle p;
	struct puz_error e;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	/* sparse: 65 MiB of zeros that take no disk */
	assert_int_equal(ftruncate(fd, (off_t)65 << 20), 0);
	assert_int_equal(close(fd), 0);
	poison(&p);
	assert_int_equal(puz_read_file(path, &p, &e), PUZ_EPARSE);
	assert_int_equal(e.line, 0);
	assert_non_null(strstr(e.msg, "larger than 64 MiB"));
	assert_int_equal(hcq_read_file(path, &p, &e), PUZ_EPARSE);
	assert_non_null(strstr(e.msg, "larger than 64 MiB"));
	assert_true(poisoned(&p));
	assert_int_equal(unlink(path), 0);
}

static void test_puz_read_missing_sections(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\nname x\n", 3, 1, "missing 'goal' line");
	PUZ_ERR("puzzle v1\nname x", 2, 7, "missing 'goal' line");
	PUZ_ERR("puzzle v1\npiece A 1 1 1\n#\n", 2, 1,
	        "missing 'goal' line before the first piece");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\n", 4, 1, "no pieces");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\n\n; end\n", 6, 1, "no pieces");
}

static void test_puz_read_empty_shapes(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n..\npiece A 1 1 1\n#\n", 2, 1,
	        "goal has no cells");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n##\npiece X 1 1 2\n.\n\n.\n", 4, 7,
	        "piece 'X' has no cells");
}

static void test_puz_read_piece_names(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece L 1 1 1\n#\n"
	        "piece M 1 1 1\n#\npiece L 1 1 1\n#\n",
	        8, 7, "duplicate piece name 'L' (first on line 4)");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece \xC3\xA9t\xC3\xA9 1 1 1\n#\n",
	        4, 7, "printable ASCII without spaces, found '\xC3\xA9'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece "
	        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"
	        " 1 1 1\n#\n",
	        4, 7, "piece name is 64 bytes long, at most 63");
}

static void test_puz_read_meta_lines(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\nseed 18446744073709551616\n", 2, 6,
	        "seed 18446744073709551616 out of range "
	        "0..18446744073709551615");
	PUZ_ERR("puzzle v1\nseed -1\n", 2, 6, "seed -1 out of range");
	PUZ_ERR("puzzle v1\nseed +1\n", 2, 6,
	        "expected a number for the seed, found '+1'");
	PUZ_ERR("puzzle v1\nseed 0x10\n", 2, 6,
	        "expected a number for the seed");
	PUZ_ERR("puzzle v1\nseed\n", 2, 5, "expected 'seed S'");
	PUZ_ERR("puzzle v1\nseed 1 2\n", 2, 8, "unexpected '2' after 'seed S'");
	PUZ_ERR("puzzle v1\nsize 0\n", 2, 6, "size 0 out of range 1..128");
	PUZ_ERR("puzzle v1\nsize 129\n", 2, 6, "size 129 out of range");
	PUZ_ERR("puzzle v1\nsize 5\nname a\nsize 5\n", 4, 1,
	        "duplicate 'size' line (first on line 2)");
	PUZ_ERR("puzzle v1\nseed 1\nseed 1\n", 3, 1, "duplicate 'seed' line");
	PUZ_ERR("puzzle v1\nname a\nname b\n", 3, 1, "duplicate 'name' line");
	PUZ_ERR("puzzle v1\nname\n", 2, 5, "expected 'name TEXT'");
	/* boxes: size X Y Z */
	PUZ_ERR("puzzle v1\nsize\n", 2, 5, "expected 'size N' or 'size X Y Z'");
	PUZ_ERR("puzzle v1\nsize 4 5\n", 2, 9, "expected 'size N' or 'size X Y Z'");
	PUZ_ERR("puzzle v1\nsize 4 5 6 7\n", 2, 12,
	        "unexpected '7' after 'size N' or 'size X Y Z'");
	PUZ_ERR("puzzle v1\nsize 4 0 6\n", 2, 8, "size 0 out of range 1..128");
	PUZ_ERR("puzzle v1\nsize 4 5 x\n", 2, 10, "size");
}

/* `size N` reads as a cube, `size X Y Z` as a box; each is written back
 * the way it was read (a cube as `size N`, as before boxes existed). */
static void test_puz_read_write_box_size(void **state)
{
	struct puzzle p;
	size_t len;
	char *text;

	(void)state;
	read_ok("puzzle v1\nsize 4 5 6\ngoal 1 1 1\n#\npiece A 1 1 1\n#\n", &p);
	assert_int_equal(p.size[0], 4);
	assert_int_equal(p.size[1], 5);
	assert_int_equal(p.size[2], 6);
	text = write_mem(&p, &len);
	assert_non_null(strstr(text, "\nsize 4 5 6\n"));
	free(text);
	puz_clear(&p);
	read_ok("puzzle v1\nsize 7 7 7\ngoal 1 1 1\n#\npiece A 1 1 1\n#\n", &p);
	text = write_mem(&p, &len);
	assert_non_null(strstr(text, "\nsize 7\n"));
	free(text);
	puz_clear(&p);
	read_ok("puzzle v1\nsize 7\ngoal 1 1 1\n#\npiece A 1 1 1\n#\n", &p);
	assert_int_equal(p.size[0], 7);
	assert_int_equal(p.size[1], 7);
	assert_int_equal(p.size[2], 7);
	puz_clear(&p);
}

static void test_puz_read_title_too_long(void **state)
{
	char text[400];
	size_t n;

	(void)state;
	n = (size_t)sprintf(text, "puzzle v1\nname ");
	memset(text + n, 'a', PUZ_MAX_TITLE + 1);
	n += PUZ_MAX_TITLE + 1;
	n += (size_t)sprintf(text + n, "\n");
	puz_err_at(text, n, 2, 6, "name is 201 bytes long, at most 200",
	           __LINE__);
}

/* Every prefix of a good file is either good or an error with a line in
 * range; none crashes or leaks (ASan) or writes '*out' on failure. */
static void test_puz_read_every_prefix(void **state)
{
	static const char text[] =
		"; c\npuzzle v1\r\nname n\nsize 3\nseed 9\ngoal 2 2 2\n##\n#.\n\n"
		"##\n.#\npiece A 2 1 1 count 2\n##\n\npiece B 1 2 1\n#\n#\n";
	struct puzzle p;
	struct puz_error e;
	size_t n;
	int rc;

	(void)state;
	for (n = 0; n <= sizeof(text) - 1; n++) {
		poison(&p);
		rc = puz_read_mem(text, n, &p, &e);
		if (rc == PUZ_OK) {
			puz_clear(&p);
			continue;
		}
		assert_int_equal(rc, PUZ_EPARSE);
		assert_true(poisoned(&p));
		assert_true(e.line >= 0 && e.line <= 19);
		assert_true(e.msg[0] != '\0');
	}
	read_ok(text, &p);
	puz_clear(&p);
}

static void test_puz_read_enomem_paths(void **state)
{
#if defined(PUZ_TEST_FAULTS)
	static const char *const texts[] = {
		EXAMPLE,
		"puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\npiece B 1 1 1\n#\n"
		"piece C 1 1 1\n#\npiece D 1 1 1\n#\npiece E 1 1 1\n#\n"
		"piece F 1 1 1\n#\npiece G 1 1 1\n#\npiece H 1 1 1\n#\n"
		"piece I 1 1 1\n#\npiece J 1 1 1\n#\n",
	};
	struct puzzle p;
	struct puz_error e;
	size_t t;
	long k;
	int rc;

	(void)state;
	for (t = 0; t < sizeof(texts) / sizeof(texts[0]); t++) {
		for (k = 0;; k++) {
			poison(&p);
			faults_arm(k);
			rc = puz_read_mem(texts[t], strlen(texts[t]), &p, &e);
			if (rc == PUZ_OK)
				puz_clear(&p);
			faults_disarm();
			assert_int_equal(faults.live, 0);
			if (!faults.fired) {
				assert_int_equal(rc, PUZ_OK);
				break;
			}
			assert_int_equal(rc, PUZ_ENOMEM);
			assert_string_equal(e.msg, "out of memory");
			assert_true(poisoned(&p));
		}
		assert_true(k >= 3);
	}
	/* hcq too */
	for (k = 0;; k++) {
		poison(&p);
		faults_arm(k);
		rc = hcq_read_file(FIX "spacing.hcq", &p, &e);
		if (rc == PUZ_OK)
			puz_clear(&p);
		faults_disarm();
		assert_int_equal(faults.live, 0);
		if (!faults.fired) {
			assert_int_equal(rc, PUZ_OK);
			break;
		}
		/* stdio allocates too: a failed fopen is EIO, and a failed
		 * stream buffer only makes the stream unbuffered */
		if (rc == PUZ_OK)
			continue;
		if (rc != PUZ_ENOMEM && rc != PUZ_EIO)
			fail_msg("k=%ld: rc %d %d:%d %s", k, rc, e.line, e.col,
			         e.msg);
		assert_true(poisoned(&p));
	}
	assert_true(k >= 8);
#else
	(void)state;
	skip();
#endif
}

/* ------------------------------------------------------------------ */
/* Shared data files                                                   */

static void check_data(const char *path, size_t goal_cells, size_t npieces)
{
	struct puzzle p;
	size_t i;

	read_file_ok(path, &p);
	assert_int_equal(puz_grid_volume(&p.goal), goal_cells);
	assert_int_equal(p.npieces, npieces);
	for (i = 0; i < p.npieces; i++)
		assert_int_equal(p.pieces[i].count, 1);
	/* every set's pieces fill its goal exactly */
	assert_int_equal(total_volume(&p), goal_cells);
	round_trip(&p);
	puz_clear(&p);
}

static void test_puz_read_classic_soma(void **state)
{
	(void)state;
	check_data(DATA "soma.puz", 27, 7);
}

static void test_puz_read_classic_bedlam(void **state)
{
	(void)state;
	check_data(DATA "bedlam.puz", 64, 13);
}

static void test_puz_read_classic_pentacubes(void **state)
{
	struct puzzle p;

	(void)state;
	check_data(DATA "pentacubes-2x3x10.puz", 60, 12);
	read_file_ok(DATA "pentacubes-2x3x10.puz", &p);
	assert_int_equal(p.goal.nx, 10);
	assert_int_equal(p.goal.ny, 3);
	assert_int_equal(p.goal.nz, 2);
	assert_string_equal(p.pieces[11].name, "Z");
	puz_clear(&p);
}

static void check_happycube(const char *path)
{
	struct puzzle p;
	size_t i;

	read_file_ok(path, &p);
	assert_int_equal(p.goal.nx, 5);
	assert_int_equal(p.goal.ny, 5);
	assert_int_equal(p.goal.nz, 5);
	assert_int_equal(puz_grid_volume(&p.goal), 98);
	assert_int_equal(p.npieces, 6);
	for (i = 0; i < 6; i++) {
		assert_int_equal(p.pieces[i].shape.nx, 5);
		assert_int_equal(p.pieces[i].shape.ny, 5);
		assert_int_equal(p.pieces[i].shape.nz, 1);
		assert_int_equal(p.pieces[i].count, 1);
	}
	assert_int_equal(total_volume(&p), 98);
	round_trip(&p);
	puz_clear(&p);
}

static void test_puz_read_classic_happycubes(void **state)
{
	DIR *d;
	struct dirent *de;
	char path[512];
	int n = 0;

	(void)state;
	check_happycube(DATA "happycube-blue.puz");
	check_happycube(DATA "HC_BQ_001.puz");
	d = opendir(DATA "happycube");
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len < 5 || strcmp(de->d_name + len - 4, ".puz") != 0)
			continue;
		assert_true(len < sizeof(path) - sizeof(DATA "happycube/"));
		snprintf(path, sizeof(path), DATA "happycube/%s", de->d_name);
		check_happycube(path);
		n++;
	}
	assert_int_equal(closedir(d), 0);
	assert_int_equal(n, 19);
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

/* SplitMix64: a tiny deterministic stream for random puzzles. */
static uint64_t sm64(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15u);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

static int rnd(uint64_t *s, int lo, int hi)
{
	return lo + (int)(sm64(s) % (uint64_t)(hi - lo + 1));
}

static void random_grid(uint64_t *s, struct grid *g, int maxdim, int pct)
{
	size_t n, i;

	assert_int_equal(puz_grid_init(g, rnd(s, 1, maxdim), rnd(s, 1, maxdim),
	                           rnd(s, 1, maxdim)),
	                 PUZ_OK);
	/* sometimes one long axis, up to the limit */
	n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	for (i = 0; i < n; i++)
		g->cells[i] = rnd(s, 0, 99) < pct;
	g->cells[(size_t)rnd(s, 0, (int)n - 1)] = 1;
}

static void random_puzzle(uint64_t seed, struct puzzle *p)
{
	static const char *const bits[] = {"a", "Z", "9", " ", "#", ";",
	                                   "\xC3\xA9", "~", ".", "x"};
	uint64_t s = seed;
	size_t i, j, n, len, gv;

	memset(p, 0, sizeof(*p));
	/* title: empty or printable text without end spaces */
	len = 0;
	if (rnd(&s, 0, 3) > 0) {
		n = (size_t)rnd(&s, 1, 120);
		for (i = 0; i < n; i++) {
			const char *b = bits[rnd(&s, 0, 9)];

			if (len + strlen(b) > PUZ_MAX_TITLE)
				break;
			memcpy(p->name + len, b, strlen(b));
			len += strlen(b);
		}
		while (len > 0 && p->name[len - 1] == ' ')
			len--;
		p->name[len] = '\0';
		if (p->name[0] == ' ')
			p->name[0] = 'x';
	}
	/* none, a cube (written `size N`) or a box (`size X Y Z`) */
	switch (rnd(&s, 0, 2)) {
	case 0: memset(p->size, 0, sizeof p->size); break;
	case 1: p->size[0] = p->size[1] = p->size[2] = rnd(&s, 1, PUZ_MAX_DIM); break;
	default:
		for (int k = 0; k < 3; k++)
			p->size[k] = rnd(&s, 1, PUZ_MAX_DIM);
	}
	p->has_seed = rnd(&s, 0, 1);
	if (p->has_seed) {
		switch (rnd(&s, 0, 2)) {
		case 0: p->seed = UINT64_MAX; break;
		case 1: p->seed = 0; break;
		default: p->seed = sm64(&s); break;
		}
	}
	if (rnd(&s, 0, 9) == 0) {
		/* a long thin goal at the dimension limit */
		assert_int_equal(puz_grid_init(&p->goal, PUZ_MAX_DIM, 1, 2), PUZ_OK);
		memset(p->goal.cells, 1, 2 * PUZ_MAX_DIM);
	} else {
		random_grid(&s, &p->goal, 6, 70);
	}
	gv = puz_grid_volume(&p->goal);
	p->npieces = (size_t)rnd(&s, 1, 8);
	p->pieces = calloc(p->npieces, sizeof(*p->pieces));
	assert_non_null(p->pieces);
	for (i = 0; i < p->npieces; i++) {
		struct puz_piece *pc = &p->pieces[i];
		size_t nc, k;

		n = (size_t)rnd(&s, 0, 10);
		k = (size_t)sprintf(pc->name, "P%zu", i);
		for (j = 0; j < n; j++)
			pc->name[k++] = (char)rnd(&s, '!', '~');
		pc->name[k] = '\0';
		pc->count = rnd(&s, 0, 2) ? 1 : (unsigned)rnd(&s, 2, 100);
		random_grid(&s, &pc->shape, 4, 50);
		/* no more cells than the goal */
		nc = (size_t)pc->shape.nx * (size_t)pc->shape.ny *
		     (size_t)pc->shape.nz;
		for (k = 0; k < nc && puz_grid_volume(&pc->shape) > gv; k++)
			pc->shape.cells[k] = 0;
		if (puz_grid_volume(&pc->shape) == 0)
			pc->shape.cells[0] = 1;
	}
}

static void test_puz_write_round_trips_random_puzzles(void **state)
{
	struct puzzle p;
	uint64_t seed;
	int seen_max_seed = 0, seen_count = 0;

	(void)state;
	for (seed = 1; seed <= 300; seed++) {
		size_t i;

		random_puzzle(seed, &p);
		seen_max_seed += p.has_seed && p.seed == UINT64_MAX;
		for (i = 0; i < p.npieces; i++)
			seen_count += p.pieces[i].count > 1;
		round_trip(&p);
		puz_clear(&p);
	}
	/* the generator covers what it should */
	assert_true(seen_max_seed > 0);
	assert_true(seen_count > 0);
}

static void test_puz_write_exact_text(void **state)
{
	static const char want[] = "puzzle v1\n"
	                           "name two L trominoes fill a 3x2 rectangle\n"
	                           "size 3\n"
	                           "seed 18446744073709551615\n"
	                           "goal 3 2 2\n"
	                           "###\n"
	                           "###\n"
	                           "\n"
	                           "###\n"
	                           "#.#\n"
	                           "\n"
	                           "piece L 2 2 1 count 2\n"
	                           "##\n"
	                           "#.\n"
	                           "\n"
	                           "piece I 1 1 5\n"
	                           "#\n"
	                           "\n"
	                           "#\n"
	                           "\n"
	                           "#\n"
	                           "\n"
	                           "#\n"
	                           "\n"
	                           "#\n";
	struct puzzle p;
	char *t;
	size_t n;

	(void)state;
	read_ok("puzzle v1\nseed 18446744073709551615\nsize 3\n"
	        "name two L trominoes fill a 3x2 rectangle\ngoal 3 2 2\n###\n"
	        "###\n\n###\n#.#\npiece L 2 2 1 count 2\n##\n#.\n"
	        "piece I 1 1 5 count 1\n#\n\n#\n\n#\n\n#\n\n#\n",
	        &p);
	t = write_mem(&p, &n);
	assert_int_equal(n, sizeof(want) - 1);
	assert_memory_equal(t, want, n);
	free(t);
	puz_clear(&p);
}

static void test_puz_write_full_device_is_eio(void **state)
{
	struct puzzle p;
	FILE *fp;

	(void)state;
	read_ok(EXAMPLE, &p);
	fp = fopen("/dev/full", "w");
	if (fp == NULL)
		skip();
	assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
	assert_int_equal(puz_write(fp, &p), PUZ_EIO);
	assert_int_equal(errno, ENOSPC);
	assert_int_equal(fclose(fp), 0);
	/* buffered: the error shows at the final flush */
	fp = fopen("/dev/full", "w");
	assert_non_null(fp);
	errno = 0;
	assert_int_equal(puz_write(fp, &p), PUZ_EIO);
	assert_int_equal(errno, ENOSPC);
	/* Whether fclose reports the lost bytes again is the C library's
	 * choice (glibc drops them at the failed flush). */
	assert_true(fclose(fp) == 0 || errno == ENOSPC);
	puz_clear(&p);
}

/* ------------------------------------------------------------------ */
/* .hcq                                                                */

#define HCQ_HEAD                                                            \
	"NAME: t\nTYPE: HC_BQ_INSTANCE\nCOMMENT: c\nNUM_TILES: 6\n"           \
	"TILE_ID_BORDER_PATTERN\n"
#define TILE(id) id " [0, 1, 0, 1, 0; 0, 0, 1, 0, 0; 0, 1, 0, 1, 0; 0, 0, 1, 0, 0]\n"
#define SIX TILE("1") TILE("2") TILE("3") TILE("4") TILE("5") TILE("6")

static void test_hcq_read_matches_puz_file(void **state)
{
	struct puzzle h, p;
	struct puz_error e;
	size_t i;
	int rc;

	(void)state;
	rc = hcq_read_file(DATA "HC_BQ_001.hcq", &h, &e);
	if (rc != PUZ_OK)
		fail_msg("%d:%d: %s", e.line, e.col, e.msg);
	read_file_ok(DATA "HC_BQ_001.puz", &p);
	assert_string_equal(h.name, "HC_BQ_001");
	assert_true(grid_equal(&h.goal, &p.goal));
	assert_int_equal(puz_grid_volume(&h.goal), 98);
	assert_int_equal(h.npieces, 6);
	assert_int_equal(p.npieces, 6);
	for (i = 0; i < 6; i++) {
		char want[8];

		snprintf(want, sizeof(want), "T%zu", i + 1);
		assert_string_equal(h.pieces[i].name, want);
		assert_int_equal(h.pieces[i].count, 1);
		assert_true(grid_equal(&h.pieces[i].shape, &p.pieces[i].shape));
	}
	assert_int_equal(h.size[0], 0);
	assert_false(h.has_seed);
	round_trip(&h);
	puz_clear(&h);
	puz_clear(&p);
}

static void test_hcq_read_spacing_crlf_and_tabs(void **state)
{
	struct puzzle a, b;
	struct puz_error e;
	int rc;

	(void)state;
	rc = hcq_read_file(FIX "spacing.hcq", &a, &e);
	if (rc != PUZ_OK)
		fail_msg("%d:%d: %s", e.line, e.col, e.msg);
	assert_int_equal(hcq_read_file(DATA "HC_BQ_001.hcq", &b, &e), PUZ_OK);
	assert_true(puz_equal(&a, &b));
	puz_clear(&a);
	puz_clear(&b);
}

static void test_hcq_read_tile_layout(void **state)
{
	/* Only the top-left corner set: cells (0,0) only on the border. */
	static const char text[] =
		"NUM_TILES: 6\nTILE_ID_BORDER_PATTERN\n"
		"a [1,0,0,0,0; 0,0,0,0,0; 0,0,0,0,0; 0,0,0,0,1]\n"
		"b [0,0,0,0,1; 1,0,0,0,0; 0,0,0,0,0; 0,0,0,0,0]\n"
		"c [0,0,0,0,0; 0,0,0,0,1; 1,0,0,0,0; 0,0,0,0,0]\n"
		"d [0,0,0,0,0; 0,0,0,0,0; 0,0,0,0,1; 1,0,0,0,0]\n"
		"e [0,1,0,0,0; 0,0,1,0,0; 0,0,0,1,0; 0,0,0,0,0]\n"
		"f [0,0,0,0,0; 0,0,0,0,0; 0,0,0,0,0; 0,1,0,0,0]\n"
		"EOF\n";
	static const int corner[4][2] = {{0, 0}, {4, 0}, {4, 4}, {0, 4}};
	struct puzzle p;
	struct puz_error e;
	const struct grid *g;
	int t, x, y;

	(void)state;
	assert_int_equal(hcq_read_mem(text, sizeof(text) - 1, &p, &e), PUZ_OK);
	assert_string_equal(p.name, "");
	for (t = 0; t < 4; t++) {
		g = &p.pieces[t].shape;
		assert_int_equal(puz_grid_volume(g), 10);
		for (y = 1; y < 4; y++)
			for (x = 1; x < 4; x++)
				assert_int_equal(g->cells[puz_grid_index(g, x, y, 0)], 1);
		assert_int_equal(
			g->cells[puz_grid_index(g, corner[t][0], corner[t][1], 0)], 1);
	}
	/* e: top bit 1 -> (1,0); right bit 2 -> (4,2); bottom bit 3 ->
	 * (1,4); f: left bit 1 -> (0,3) */
	g = &p.pieces[4].shape;
	assert_int_equal(puz_grid_volume(g), 12);
	assert_int_equal(g->cells[puz_grid_index(g, 1, 0, 0)], 1);
	assert_int_equal(g->cells[puz_grid_index(g, 4, 2, 0)], 1);
	assert_int_equal(g->cells[puz_grid_index(g, 1, 4, 0)], 1);
	g = &p.pieces[5].shape;
	assert_int_equal(puz_grid_volume(g), 10);
	assert_int_equal(g->cells[puz_grid_index(g, 0, 3, 0)], 1);
	assert_string_equal(p.pieces[5].name, "Tf");
	puz_clear(&p);
}

static void test_hcq_read_wrong_bit_count(void **state)
{
	(void)state;
	HCQ_ERR(HCQ_HEAD "1 [0, 1, 0, 1; 0, 0, 1, 0, 0; 0, 1, 0, 1, 0; 0, 0, "
	                 "1, 0, 0]\n",
	        6, 14, "tile 1: top edge has 4 bits, expected 5");
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,1,0,0,1; 0,1,0,1,0; 0,0,1,0,0]\n",
	        6, 24, "tile 1: right edge has more than 5 bits");
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0]\n", 6, 35,
	        "tile 1 has 3 edges, expected 4 (20 bits)");
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,0; "
	                 "0,0,0,0,0]\n",
	        6, 46, "tile 1 has more than 4 edges");
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,0\n", 6,
	        46, "line ends inside the brackets");
	HCQ_ERR(HCQ_HEAD "1 0,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,0]\n", 6,
	        3, "tile 1: expected '[' after the tile id");
	HCQ_ERR(HCQ_HEAD "10,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,0]\n", 6,
	        3, "tile 10: expected '[' after the tile id");
	HCQ_ERR(HCQ_HEAD "[0,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,0]\n", 6,
	        1, "expected 'ID [b,b,b,b,b; b,b,b,b,b; b,b,b,b,b; b,b,b,b,b]'");
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,0] x\n",
	        6, 48, "tile 1: unexpected text after ']'");
}

static void test_hcq_read_bit_not_binary(void **state)
{
	(void)state;
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,2,0,0; 0,1,0,1,0; 0,0,1,0,0]\n", 6,
	        19, "tile 1: expected a bit 0 or 1, found '2'");
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,10,0,0; 0,1,0,1,0; 0,0,1,0,0]\n",
	        6, 19, "found '10'");
	HCQ_ERR(HCQ_HEAD "1 [0,1,0,1,0; 0,0,,0,0; 0,1,0,1,0; 0,0,1,0,0]\n", 6,
	        19, "found ','");
}

static void test_hcq_read_corner_disagreement(void **state)
{
	(void)state;
	/* top ends in 1 (top-right), right starts with 0 */
	HCQ_ERR(HCQ_HEAD "7 [0,1,0,1,1; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,0]\n", 6,
	        15,
	        "tile 7: top-right corner is 1 on the top edge but 0 on the "
	        "right edge");
	/* left ends in 1 (top-left), top starts with 0 */
	HCQ_ERR(HCQ_HEAD "7 [0,1,0,1,0; 0,0,1,0,0; 0,1,0,1,0; 0,0,1,0,1]\n", 6,
	        4, "tile 7: top-left corner is 1 on the left edge but 0 on the "
	           "top edge");
}

static void test_hcq_read_tile_counts(void **state)
{
	(void)state;
	HCQ_ERR("NAME: t\nNUM_TILES: 5\n", 2, 12,
	        "NUM_TILES is 5, expected 6");
	HCQ_ERR("NUM_TILES: six\n", 1, 12,
	        "expected a number after 'NUM_TILES:', found 'six'");
	HCQ_ERR("NUM_TILES:\n", 1, 11, "expected a number after 'NUM_TILES:'");
	HCQ_ERR(HCQ_HEAD TILE("1") TILE("2") TILE("3") TILE("4") TILE("5")
	        "EOF\n",
	        11, 1, "found 5 tiles, expected 6");
	HCQ_ERR(HCQ_HEAD SIX TILE("7") "EOF\n", 12, 1,
	        "more than 6 tiles: expected 'EOF'");
	HCQ_ERR(HCQ_HEAD TILE("1") TILE("2"), 8, 1,
	        "found 2 tiles, expected 6");
	HCQ_ERR(HCQ_HEAD SIX, 12, 1, "missing 'EOF' line");
	HCQ_ERR(HCQ_HEAD TILE("1") TILE("2") TILE("3") TILE("1"), 9, 1,
	        "duplicate tile id '1' (first on line 6)");
	HCQ_ERR("NAME: t\nTILE_ID_BORDER_PATTERN\n", 2, 1,
	        "missing 'NUM_TILES: 6' before TILE_ID_BORDER_PATTERN");
	HCQ_ERR("NAME: t\n", 2, 1, "missing 'TILE_ID_BORDER_PATTERN' line");
}

static void test_hcq_read_headers(void **state)
{
	(void)state;
	HCQ_ERR("NAME: t\nSIZE: 5\n", 2, 1,
	        "unknown header 'SIZE:': expected NAME:, TYPE:, COMMENT:, "
	        "NUM_TILES: or TILE_ID_BORDER_PATTERN");
	HCQ_ERR("NAME: t\nNAME: u\n", 2, 1,
	        "duplicate 'NAME:' line (first on line 1)");
	HCQ_ERR(HCQ_HEAD SIX "EOF\nmore\n", 13, 1,
	        "unexpected text after 'EOF'");
	HCQ_ERR("NAME: a\tb\n", 1, 8, "tab character in the name");
	HCQ_ERR("", 0, 0, "empty file");
	HCQ_ERR("NAME: \0\n", 1, 7, "not a text file (NUL byte)");
	HCQ_ERR("NAME: t\rx\n", 1, 8, "carriage return");
}

static void test_hcq_read_accepts_after_eof_blank_lines(void **state)
{
	struct puzzle p;
	struct puz_error e;
	static const char text[] = "\n" HCQ_HEAD SIX "EOF\n\n  \n";

	(void)state;
	assert_int_equal(hcq_read_mem(text, sizeof(text) - 1, &p, &e), PUZ_OK);
	assert_string_equal(p.name, "t");
	assert_int_equal(p.npieces, 6);
	puz_clear(&p);
}

static void test_hcq_read_nonexistent_file_is_eio(void **state)
{
	struct puzzle p;
	struct puz_error e;

	(void)state;
	poison(&p);
	assert_int_equal(hcq_read_file(FIX "no-such-file.hcq", &p, &e),
	                 PUZ_EIO);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, "No such file or directory");
	assert_true(poisoned(&p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_init_is_empty_and_clear_resets),
		cmocka_unit_test(test_grid_init_overflow_is_enomem),
		cmocka_unit_test(test_puz_clear_accepts_empty_and_null),
		cmocka_unit_test(test_puz_read_design_example),
		cmocka_unit_test(test_puz_read_blocks_are_z_in_order),
		cmocka_unit_test(test_puz_read_crlf_file_accepted),
		cmocka_unit_test(test_puz_read_missing_final_newline_accepted),
		cmocka_unit_test(test_puz_read_comments_and_blank_lines_anywhere),
		cmocka_unit_test(test_puz_read_name_size_seed_any_order),
		cmocka_unit_test(test_puz_read_seed_zero_and_bom),
		cmocka_unit_test(test_puz_read_limits_accepted),
		cmocka_unit_test(test_puz_read_unknown_header),
		cmocka_unit_test(test_puz_read_first_line_not_magic),
		cmocka_unit_test(test_puz_read_wrong_row_length),
		cmocka_unit_test(test_puz_read_bad_cell_character),
		cmocka_unit_test(test_puz_read_missing_row),
		cmocka_unit_test(test_puz_read_extra_row),
		cmocka_unit_test(test_puz_read_missing_block),
		cmocka_unit_test(test_puz_read_extra_block),
		cmocka_unit_test(test_puz_read_blocks_need_one_blank_line),
		cmocka_unit_test(test_puz_read_dimension_zero),
		cmocka_unit_test(test_puz_read_dimension_negative),
		cmocka_unit_test(test_puz_read_dimension_absurd),
		cmocka_unit_test(test_puz_read_header_shape),
		cmocka_unit_test(test_puz_read_count_zero),
		cmocka_unit_test(test_puz_read_too_many_pieces),
		cmocka_unit_test(test_puz_read_piece_larger_than_goal),
		cmocka_unit_test(test_puz_read_trailing_garbage),
		cmocka_unit_test(test_puz_read_lone_cr_rejected),
		cmocka_unit_test(test_puz_read_spaces_rejected_with_column),
		cmocka_unit_test(test_puz_read_empty_file),
		cmocka_unit_test(test_puz_read_binary_junk_rejected),
		cmocka_unit_test(test_puz_read_bad_text_rejected),
		cmocka_unit_test(test_puz_read_nonexistent_file_is_eio),
		cmocka_unit_test(test_puz_read_huge_file_rejected_unread),
		cmocka_unit_test(test_puz_read_missing_sections),
		cmocka_unit_test(test_puz_read_empty_shapes),
		cmocka_unit_test(test_puz_read_piece_names),
		cmocka_unit_test(test_puz_read_meta_lines),
		cmocka_unit_test(test_puz_read_write_box_size),
		cmocka_unit_test(test_puz_read_title_too_long),
		cmocka_unit_test(test_puz_read_every_prefix),
		cmocka_unit_test(test_puz_read_enomem_paths),
		cmocka_unit_test(test_puz_read_classic_soma),
		cmocka_unit_test(test_puz_read_classic_bedlam),
		cmocka_unit_test(test_puz_read_classic_pentacubes),
		cmocka_unit_test(test_puz_read_classic_happycubes),
		cmocka_unit_test(test_puz_write_round_trips_random_puzzles),
		cmocka_unit_test(test_puz_write_exact_text),
		cmocka_unit_test(test_puz_write_full_device_is_eio),
		cmocka_unit_test(test_hcq_read_matches_puz_file),
		cmocka_unit_test(test_hcq_read_spacing_crlf_and_tabs),
		cmocka_unit_test(test_hcq_read_tile_layout),
		cmocka_unit_test(test_hcq_read_wrong_bit_count),
		cmocka_unit_test(test_hcq_read_bit_not_binary),
		cmocka_unit_test(test_hcq_read_corner_disagreement),
		cmocka_unit_test(test_hcq_read_tile_counts),
		cmocka_unit_test(test_hcq_read_headers),
		cmocka_unit_test(test_hcq_read_accepts_after_eof_blank_lines),
		cmocka_unit_test(test_hcq_read_nonexistent_file_is_eio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
