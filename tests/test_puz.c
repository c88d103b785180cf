/*
 * test_puz.c: grids, the .puz reader and writer, the .hcq reader.
 *
 * Every bad input is checked for its status, the exact line and column,
 * and a key phrase of the message, and that the reader left '*out' alone.
 * Good inputs: the classic puzzle files (known sizes), random puzzles written
 * and read back, CRLF, comments and blank lines anywhere. Colour puzzles
 * (colour cells, optional cells, count ranges, colour, match, region and
 * distinct lines): each construct read into its fields, every error, and
 * random colour puzzles written, read back and written again.
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

#include "formats/fmt_int.h"
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

/* Every field, the colour puzzle ones too (display colours only where
 * set, as a reader leaves the others 0). */
static bool puz_equal(const struct puzzle *a, const struct puzzle *b)
{
	size_t i, n;
	int c;

	if (strcmp(a->name, b->name) != 0 || memcmp(a->size, b->size, sizeof a->size) != 0 ||
	    a->has_seed != b->has_seed ||
	    (a->has_seed && a->seed != b->seed) ||
	    !grid_equal(&a->goal, &b->goal) || a->npieces != b->npieces)
		return false;
	for (i = 0; i < a->npieces; i++)
		if (strcmp(a->pieces[i].name, b->pieces[i].name) != 0 ||
		    a->pieces[i].count != b->pieces[i].count ||
		    a->pieces[i].count_max != b->pieces[i].count_max ||
		    (a->pieces[i].weight > 1 ? a->pieces[i].weight : 1) !=
		    (b->pieces[i].weight > 1 ? b->pieces[i].weight : 1) ||
		    a->pieces[i].group != b->pieces[i].group ||
		    !grid_equal(&a->pieces[i].shape, &b->pieces[i].shape))
			return false;
	if (a->rgb_set != b->rgb_set || a->has_match != b->has_match ||
	    memcmp(a->match, b->match, sizeof(a->match)) != 0 ||
	    a->distinct_faces != b->distinct_faces ||
	    a->nregions != b->nregions)
		return false;
	for (c = 1; c <= PUZ_NCOLOURS; c++)
		if ((a->rgb_set >> c & 1) && a->rgb[c] != b->rgb[c])
			return false;
	n = (size_t)a->goal.nx * (size_t)a->goal.ny * (size_t)a->goal.nz;
	for (i = 0; i < a->nregions; i++)
		if (strcmp(a->regions[i].name, b->regions[i].name) != 0 ||
		    a->regions[i].distinct != b->regions[i].distinct ||
		    memcmp(a->regions[i].cells, b->regions[i].cells, n) != 0)
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

/* Every new line type once: colours on both sides, an optional goal
 * cell, ranges, display colours, a match table, regions, distinct. */
#define COLOUR_EXAMPLE                                                      \
	"puzzle v1\n"                                                       \
	"name colours\n"                                                    \
	"colour a FF0000\n"                                                 \
	"colour z 00ff7F\n"                                                 \
	"goal 3 2 2\n"                                                      \
	"ab#\n"                                                             \
	"#+z\n"                                                             \
	"\n"                                                                \
	"###\n"                                                             \
	"..#\n"                                                             \
	"piece A 2 1 1 count 0..3\n"                                        \
	"ab\n"                                                              \
	"piece B 1 1 2 count 2..2\n"                                        \
	"#\n"                                                               \
	"\n"                                                                \
	"z\n"                                                               \
	"piece C 1 1 1 count 1..4\n"                                        \
	"#\n"                                                               \
	"match a b\n"                                                       \
	"match b a\n"                                                       \
	"match z z\n"                                                       \
	"match a b\n"                                                       \
	"region top\n"                                                      \
	"..#\n"                                                             \
	"..#\n"                                                             \
	"\n"                                                                \
	"...\n"                                                             \
	"...\n"                                                             \
	"region bottom\n"                                                   \
	"###\n"                                                             \
	"#.#\n"                                                             \
	"\n"                                                                \
	"...\n"                                                             \
	"...\n"                                                             \
	"region side\n"                                                     \
	"#..\n"                                                             \
	"#..\n"                                                             \
	"\n"                                                                \
	"#..\n"                                                             \
	"...\n"                                                             \
	"distinct faces bottom\n"                                           \
	"distinct top bottom\n"

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
	PUZ_ERR("puzzle v1\ncolor a FF0000\ngoal 1 1 1\n#\n", 2, 1,
	        "unknown line 'color': the keyword is spelt 'colour'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\ncolor a 000000\n",
	        6, 1, "unknown line 'color': the keyword is spelt 'colour'");
	PUZ_ERR("puzzle v1\nbogus line\ngoal 1 1 1\n#\n", 2, 1,
	        "unknown line 'bogus': expected 'name', 'size', 'seed' or "
	        "'goal'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npeace A 1 1 1\n#\n", 4, 1,
	        "expected 'piece NAME X Y Z [count K] [weight W] [group G]'");
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
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n#*#\n", 3, 2,
	        "expected '#', '.', '+' or a colour a..z (A..Z optional), "
	        "found '*'");
	/* columns count characters, not bytes */
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n#.\xC3\xA9\n", 3, 3,
	        "expected '#', '.', '+' or a colour a..z (A..Z optional), "
	        "found '\xC3\xA9'");
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n@##\n", 3, 1,
	        "expected '#', '.', '+' or a colour a..z (A..Z optional), "
	        "found '@'");
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n###\npiece A 2 1 1\n#-\n", 5, 2,
	        "expected '#', '.' or a colour a..z, found '-'");
	PUZ_ERR("puzzle v1\ngoal 3 1 1\n###\npiece A 2 1 1\nA#\n", 5, 1,
	        "'A' (an optional cell of colour a) is allowed only in the "
	        "goal");
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
	        "expected 'piece NAME X Y Z [count K] [weight W] [group G]'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece\n#\n", 4, 6,
	        "expected 'piece NAME X Y Z [count K] [weight W] [group G]'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 cnt 2\n#\n", 4, 15,
	        "unexpected 'cnt': expected 'piece NAME X Y Z [count K] "
	        "[weight W] [group G]'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count\n#\n", 4, 20,
	        "expected a number after 'count'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 1 x\n#\n", 4,
	        23, "unexpected 'x': expected 'piece NAME");
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
		COLOUR_EXAMPLE,
		/* more regions than the first allocation holds */
		"puzzle v1\ncolour a 000000\ngoal 2 1 1\na+\nregion A\n#.\n"
		"region B\n.#\nregion C\n##\nregion D\n..\nregion E\n#.\n"
		"region F\n.#\npiece P 1 1 1 count 0..2\na\nmatch a a\n"
		"distinct F A faces\n",
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
/* .puz: colour puzzles (DESIGN.md §3)                                 */

static unsigned char cell_at(const struct grid *g, int x, int y, int z)
{
	return g->cells[puz_grid_index(g, x, y, z)];
}

static void test_puz_read_colour_cells(void **state)
{
	struct puzzle p;
	const struct grid *g;

	(void)state;
	read_ok(COLOUR_EXAMPLE, &p);
	g = &p.goal;
	assert_int_equal(cell_at(g, 0, 0, 0), PUZ_CELL + 1);
	assert_int_equal(cell_at(g, 1, 0, 0), PUZ_CELL + 2);
	assert_int_equal(cell_at(g, 2, 0, 0), PUZ_CELL);
	assert_int_equal(cell_at(g, 0, 1, 0), PUZ_CELL);
	assert_int_equal(cell_at(g, 1, 1, 0), PUZ_OPTIONAL);
	assert_int_equal(cell_at(g, 2, 1, 0), PUZ_CELL + 26);
	assert_int_equal(cell_at(g, 0, 1, 1), 0);
	assert_int_equal(puz_cell_colour(cell_at(g, 2, 1, 0)), 26);
	assert_int_equal(puz_cell_colour(cell_at(g, 1, 1, 0)), 0);
	assert_int_equal(puz_grid_volume(g), 10);
	g = &p.pieces[0].shape;
	assert_int_equal(cell_at(g, 0, 0, 0), PUZ_CELL + 1);
	assert_int_equal(cell_at(g, 1, 0, 0), PUZ_CELL + 2);
	g = &p.pieces[1].shape;
	assert_int_equal(cell_at(g, 0, 0, 0), PUZ_CELL);
	assert_int_equal(cell_at(g, 0, 0, 1), PUZ_CELL + 26);
	assert_false(puz_plain(&p));
	puz_clear(&p);
	/* a goal of optional cells only has cells */
	read_ok("puzzle v1\ngoal 2 1 1\n++\npiece A 1 1 1\n#\n", &p);
	assert_int_equal(puz_grid_volume(&p.goal), 2);
	assert_false(puz_plain(&p));
	puz_clear(&p);
	/* every letter */
	read_ok("puzzle v1\ngoal 26 1 1\nabcdefghijklmnopqrstuvwxyz\n"
	        "piece A 26 1 1\nzyxwvutsrqponmlkjihgfedcba\n",
	        &p);
	for (int x = 0; x < 26; x++) {
		assert_int_equal(cell_at(&p.goal, x, 0, 0), PUZ_CELL + 1 + x);
		assert_int_equal(cell_at(&p.pieces[0].shape, x, 0, 0),
		                 PUZ_CELL + 26 - x);
	}
	puz_clear(&p);
	/* optional cells of every colour: the capitals, in the goal only */
	read_ok("puzzle v1\ngoal 26 1 2\nABCDEFGHIJKLMNOPQRSTUVWXYZ\n\n"
	        "a+#.......................\npiece A 1 1 1\nz\n",
	        &p);
	for (int x = 0; x < 26; x++) {
		unsigned char v = cell_at(&p.goal, x, 0, 0);

		assert_int_equal(v, PUZ_OPTIONAL + 1 + x);
		assert_true(puz_cell_optional(v));
		assert_int_equal(puz_cell_colour(v), 1 + x);
	}
	assert_false(puz_cell_optional(cell_at(&p.goal, 0, 0, 1)));
	assert_true(puz_cell_optional(cell_at(&p.goal, 1, 0, 1)));
	assert_false(puz_cell_optional(cell_at(&p.goal, 2, 0, 1)));
	assert_false(puz_cell_optional(cell_at(&p.goal, 3, 0, 1)));
	assert_int_equal(puz_cell_colour(cell_at(&p.goal, 1, 0, 1)), 0);
	assert_int_equal(puz_grid_volume(&p.goal), 29);
	assert_false(puz_plain(&p));
	puz_clear(&p);
}

static void test_puz_read_count_ranges(void **state)
{
	struct puzzle p;

	(void)state;
	read_ok(COLOUR_EXAMPLE, &p);
	assert_int_equal(p.npieces, 3);
	assert_int_equal(p.pieces[0].count, 0);
	assert_int_equal(p.pieces[0].count_max, 3);
	/* K..K is exactly K */
	assert_int_equal(p.pieces[1].count, 2);
	assert_int_equal(p.pieces[1].count_max, 0);
	assert_int_equal(p.pieces[2].count, 1);
	assert_int_equal(p.pieces[2].count_max, 4);
	assert_int_equal(puz_piece_max(&p.pieces[0]), 3);
	assert_int_equal(puz_piece_max(&p.pieces[1]), 2);
	puz_clear(&p);
	/* the limit counts each range at its most: 1000 + 24 fits */
	read_ok("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 0..1000\n#\n"
	        "piece B 1 1 1 count 23..24\n#\n",
	        &p);
	assert_int_equal(p.pieces[0].count_max, 1000);
	assert_int_equal(p.pieces[1].count, 23);
	puz_clear(&p);
	read_ok("puzzle v1\ngoal 1 1 1\n#\n"
	        "piece A 1 1 1 count 0001..01024\n#\n",
	        &p);
	assert_int_equal(p.pieces[0].count, 1);
	assert_int_equal(p.pieces[0].count_max, 1024);
	puz_clear(&p);
}

static void test_puz_read_colour_lines(void **state)
{
	struct puzzle p;

	(void)state;
	read_ok(COLOUR_EXAMPLE, &p);
	assert_int_equal(p.rgb_set, (1u << 1) | (1u << 26));
	assert_int_equal(p.rgb[1], 0xFF0000);
	assert_int_equal(p.rgb[26], 0x00FF7F);
	assert_int_equal(puz_colour_rgb(&p, 26), 0x00FF7F);
	for (int c = 2; c < 26; c++)
		assert_int_equal(p.rgb[c], 0);
	puz_clear(&p);
	read_ok("puzzle v1\ncolour q 000000\ngoal 1 1 1\nq\ncolour c aBcDeF\n"
	        "piece A 1 1 1\n#\ncolour d ffffff\n",
	        &p);
	assert_int_equal(p.rgb_set, (1u << 17) | (1u << 3) | (1u << 4));
	assert_int_equal(p.rgb[17], 0);
	assert_int_equal(p.rgb[3], 0xABCDEF);
	assert_int_equal(p.rgb[4], 0xFFFFFF);
	puz_clear(&p);
	/* display colours alone leave a puzzle plain */
	read_ok("puzzle v1\ncolour a 123456\ngoal 1 1 1\n#\npiece A 1 1 1\n#\n",
	        &p);
	assert_true(puz_plain(&p));
	puz_clear(&p);
}

static void test_puz_read_match_lines(void **state)
{
	struct puzzle p;

	(void)state;
	read_ok(COLOUR_EXAMPLE, &p);
	assert_true(p.has_match);
	assert_int_equal(p.match[1], 1u << 2);  /* a on b, twice: harmless */
	assert_int_equal(p.match[2], 1u << 1);  /* b on a */
	assert_int_equal(p.match[26], 1u << 26); /* z on z */
	for (int c = 3; c < 26; c++)
		assert_int_equal(p.match[c], 0);
	assert_int_equal(p.match[0], 0);
	assert_true(puz_match(&p, 1, 2));
	assert_false(puz_match(&p, 2, 2));
	assert_true(puz_match(&p, 0, 2));
	puz_clear(&p);
	/* before the goal, between the pieces, no table: has_match false */
	read_ok("puzzle v1\nmatch a b\ngoal 2 1 1\nbc\npiece A 1 1 1\na\n"
	        "match a c\npiece B 1 1 1\n#\n",
	        &p);
	assert_true(p.has_match);
	assert_int_equal(p.match[1], (1u << 2) | (1u << 3));
	puz_clear(&p);
	read_ok("puzzle v1\ngoal 1 1 1\nb\npiece A 1 1 1\nb\n", &p);
	assert_false(p.has_match);
	assert_int_equal(p.match[2], 0);
	puz_clear(&p);
}

static void test_puz_read_regions(void **state)
{
	struct puzzle p;
	size_t n;

	(void)state;
	read_ok(COLOUR_EXAMPLE, &p);
	assert_int_equal(p.nregions, 3);
	assert_string_equal(p.regions[0].name, "top");
	assert_string_equal(p.regions[1].name, "bottom");
	assert_string_equal(p.regions[2].name, "side");
	/* goal-grid sized, 1 for members */
	n = 12;
	{
		static const unsigned char top[12] = {0, 0, 1, 0, 0, 1,
		                                      0, 0, 0, 0, 0, 0};
		static const unsigned char bottom[12] = {1, 1, 1, 1, 0, 1,
		                                         0, 0, 0, 0, 0, 0};
		static const unsigned char side[12] = {1, 0, 0, 1, 0, 0,
		                                       1, 0, 0, 0, 0, 0};

		assert_memory_equal(p.regions[0].cells, top, n);
		assert_memory_equal(p.regions[1].cells, bottom, n);
		assert_memory_equal(p.regions[2].cells, side, n);
	}
	assert_true(p.regions[0].distinct);
	assert_true(p.regions[1].distinct);
	assert_false(p.regions[2].distinct);
	assert_true(p.distinct_faces);
	puz_clear(&p);
	/* a region without distinct, an empty region, a region after the
	 * last piece, and one named like a keyword */
	read_ok("puzzle v1\ngoal 2 1 1\n#+\nregion goal\n.#\nregion none\n..\n"
	        "piece A 1 1 1\n#\nregion r\n##\n",
	        &p);
	assert_int_equal(p.nregions, 3);
	assert_string_equal(p.regions[0].name, "goal");
	assert_int_equal(p.regions[0].cells[1], 1);
	assert_int_equal(p.regions[0].cells[0], 0);
	assert_int_equal(puz_grid_volume(&(struct grid){2, 1, 1,
	                                                 p.regions[1].cells}),
	                 0);
	assert_false(p.regions[0].distinct || p.regions[1].distinct ||
	             p.regions[2].distinct || p.distinct_faces);
	puz_clear(&p);
}

static void test_puz_read_distinct_lines(void **state)
{
	struct puzzle p;

	(void)state;
	/* faces alone, even before the goal; a name twice; faces mixed in */
	read_ok("puzzle v1\ndistinct faces\ngoal 1 1 1\n#\npiece A 1 1 1\n#\n",
	        &p);
	assert_true(p.distinct_faces);
	assert_int_equal(p.nregions, 0);
	assert_false(puz_plain(&p));
	puz_clear(&p);
	read_ok("puzzle v1\ngoal 1 1 1\n#\nregion R\n#\nregion S\n#\n"
	        "distinct  S R  S\nregion T\n#\npiece A 1 1 1\n#\n"
	        "distinct T faces\n",
	        &p);
	assert_true(p.regions[0].distinct);
	assert_true(p.regions[1].distinct);
	assert_true(p.regions[2].distinct);
	assert_true(p.distinct_faces);
	puz_clear(&p);
}

/* Colour lines stand anywhere after `puzzle v1`, with comments and blank
 * lines around them, and read as the file the writer makes. */
static void test_puz_read_colour_lines_anywhere(void **state)
{
	static const char want[] =
		"puzzle v1\nname n\nseed 3\ncolour a FF0000\ncolour b 0000FF\n"
		"goal 2 1 2\nb#\n\n+#\n\npiece P 1 1 1 count 1..2\na\n\n"
		"piece Q 1 1 1\n#\n\nmatch a b\n\nregion R\n.#\n\n.#\n\n"
		"distinct faces R\n";
	struct puzzle a, b;
	size_t n;
	char *t;

	(void)state;
	read_ok("; c\npuzzle v1\n\nmatch a b\n; c\ncolour b 0000FF\nseed 3\n"
	        "distinct faces\nname n\n\ngoal 2 1 2\nb#\n\n+#\n\n"
	        "colour a ff0000\n\nregion R\n.#\n; c\n\n.#\n"
	        "piece P 1 1 1 count 1..2\na\n\nmatch a b\n\ndistinct R\n"
	        "piece Q 1 1 1\n#\n; end\n\n",
	        &a);
	read_ok(want, &b);
	assert_true(puz_equal(&a, &b));
	round_trip(&a);
	/* the writer's order and spelling, exactly */
	t = write_mem(&a, &n);
	assert_int_equal(n, sizeof(want) - 1);
	assert_memory_equal(t, want, n);
	free(t);
	puz_clear(&a);
	puz_clear(&b);
}

/* A row of colours may spell a keyword: inside a shape, a line is a
 * header only when it cannot be a row. */
static void test_puz_read_rows_that_spell_keywords(void **state)
{
	static const char *const words[] = {
		"puzzle", "name", "size", "seed",  "goal",
		"piece",  "colour", "match", "region", "distinct",
	};
	struct puzzle p;
	char text[400];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		int n = (int)strlen(words[i]);

		snprintf(text, sizeof(text),
		         "puzzle v1\ngoal %d 2 2\n%s\n%s\n\n%s\n%s\n"
		         "piece %s %d 1 1\n%s\nregion R\n",
		         n, words[i], words[i], words[i], words[i], words[i], n,
		         words[i]);
		for (int k = 0; k < 4; k++) {
			strcat(text, words[i]);
			strcat(text, k == 1 ? "\n\n" : "\n");
		}
		/* the region's rows are not '#'/'.': that it fails inside
		 * the region shows they were read as rows */
		puz_err_at(text, strlen(text), 11, 1, "expected '#' or '.'",
		           __LINE__);
		snprintf(text, sizeof(text),
		         "puzzle v1\ngoal %d 2 2\n%s\n%s\n\n%s\n%s\n"
		         "piece %s %d 1 1\n%s\n",
		         n, words[i], words[i], words[i], words[i], words[i], n,
		         words[i]);
		read_ok(text, &p);
		assert_int_equal(puz_grid_volume(&p.goal), 4 * (size_t)n);
		assert_int_equal(cell_at(&p.goal, 0, 1, 1),
		                 PUZ_CELL + 1 + words[i][0] - 'a');
		round_trip(&p);
		puz_clear(&p);
	}
	/* a bare keyword of another width still ends the rows */
	PUZ_ERR("puzzle v1\ngoal 3 2 1\nabc\nseed\n", 4, 1,
	        "goal block 1 has 1 row, expected 2");
	PUZ_ERR("puzzle v1\ngoal 4 2 1\nabcd\nseed 1\n", 4, 1,
	        "goal block 1 has 1 row, expected 2");
}

/* ------------------------------------------------------------------ */
/* .puz: bad colour puzzles                                            */

static void test_puz_read_bad_colour_cells(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n#+\npiece A 2 1 1\na+\n", 5, 2,
	        "'+' (an optional cell) is allowed only in the goal");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n#B\npiece A 2 1 1\naZ\n", 5, 2,
	        "'Z' (an optional cell of colour z) is allowed only in the "
	        "goal");
	PUZ_ERR("puzzle v1\ngoal 2 2 2\nB#\n##\n\n##\n#B\npiece A 1 1 2\n"
	        "b\n\nB\n", 11, 1,
	        "'B' (an optional cell of colour b) is allowed only in the "
	        "goal");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n#[\n", 3, 2,
	        "expected '#', '.', '+' or a colour a..z (A..Z optional), "
	        "found '['");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n#B\nregion R\n#B\n", 5, 2,
	        "expected '#' or '.', found 'B'");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n##\nregion R\n#a\n", 5, 2,
	        "expected '#' or '.', found 'a'");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n##\nregion R\n+.\n", 5, 1,
	        "expected '#' or '.', found '+'");
	/* the character check comes before the row length */
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n##\npiece A 2 1 1\n#a+\n", 5, 3,
	        "'+' (an optional cell)");
}

/* Weights and groups (for the disassembler): read in any order with the
 * count, written back when not the default, refused when bad. */
static void test_puz_weight_and_group(void **state)
{
	(void)state;
	static const char text[] =
		"puzzle v1\ngoal 3 1 1\n###\n"
		"piece A 1 1 1 group 3 weight 7 count 2\n#\n"
		"piece B 1 1 1 weight 1\n#\n";
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_mem(text, sizeof text - 1, &p, &e), PUZ_OK);
	assert_int_equal(p.pieces[0].weight, 7);
	assert_int_equal(p.pieces[0].group, 3);
	assert_int_equal(p.pieces[0].count, 2);
	assert_int_equal(p.pieces[1].weight, 1);
	assert_int_equal(p.pieces[1].group, 0);
	size_t n;
	char *t = write_mem(&p, &n);
	assert_non_null(strstr(t, "piece A 1 1 1 count 2 weight 7 group 3\n"));
	assert_non_null(strstr(t, "piece B 1 1 1\n"));
	free(t);
	round_trip(&p);
	puz_clear(&p);
#define PW(tail) "puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 " tail "\n#\n"
	PUZ_ERR(PW("weight 0"), 4, 22,
	        "weight 0: expected a whole number from 1 to 1000000000");
	PUZ_ERR(PW("weight -2"), 4, 22, "weight -2: expected a whole number");
	PUZ_ERR(PW("weight 1000000001"), 4, 22, "expected a whole number");
	PUZ_ERR(PW("group 0"), 4, 21,
	        "group 0: expected a whole number from 1 to 65535");
	PUZ_ERR(PW("group 65536"), 4, 21, "from 1 to 65535");
	PUZ_ERR(PW("group x"), 4, 21, "group x: expected a whole number");
	PUZ_ERR(PW("group"), 4, 20, "expected a number after 'group'");
	PUZ_ERR(PW("weight 2 weight 3"), 4, 24, "'weight' a second time");
	PUZ_ERR(PW("count 1 count 1"), 4, 23, "'count' a second time");
#undef PW
}

static void test_puz_read_bad_count_ranges(void **state)
{
	(void)state;
#define PC(tail) "puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count " tail "\n#\n"
	PUZ_ERR(PC("3..1"), 4, 21,
	        "count 3..1: the least is more than the most");
	PUZ_ERR(PC("1..-3"), 4, 21,
	        "count 1..-3: the least is more than the most");
	PUZ_ERR(PC("0..0"), 4, 21,
	        "count 0..0: a piece that can never be used (the most must "
	        "be at least 1)");
	PUZ_ERR(PC("00..000"), 4, 21, "count 00..000: a piece that can never");
	PUZ_ERR(PC("-1..3"), 4, 21,
	        "count -1..3: the least must be at least 0");
	PUZ_ERR(PC("1..x"), 4, 21,
	        "expected a range MIN..MAX after 'count', found '1..x'");
	PUZ_ERR(PC("..3"), 4, 21,
	        "expected a range MIN..MAX after 'count', found '..3'");
	PUZ_ERR(PC("2.."), 4, 21,
	        "expected a range MIN..MAX after 'count', found '2..'");
	PUZ_ERR(PC("1...3"), 4, 21, "found '1...3'");
	PUZ_ERR(PC("1..2..3"), 4, 21, "found '1..2..3'");
	PUZ_ERR(PC("+1..3"), 4, 21, "found '+1..3'");
	PUZ_ERR(PC(".."), 4, 21, "found '..'");
	PUZ_ERR(PC("1.3"), 4, 21,
	        "expected a number after 'count', found '1.3'");
	PUZ_ERR(PC("1..3 x"), 4, 26, "unexpected 'x': expected");
	PUZ_ERR(PC("a"), 4, 21, "expected a number after 'count', found 'a'");
	/* the limit counts the most of a range, and sees through overflow */
	PUZ_ERR(PC("0..1025"), 4, 21,
	        "more than 1024 pieces (counting each copy, a range at its "
	        "most)");
	PUZ_ERR(PC("0..99999999999999999999999"), 4, 21,
	        "more than 1024 pieces");
	PUZ_ERR(PC("99999999999999999999..99999999999999999999999"), 4, 21,
	        "more than 1024 pieces");
	PUZ_ERR(PC("99999999999999999999999..1"), 4, 21,
	        "the least is more than the most");
	PUZ_ERR(PC("18446744073709551615..18446744073709551615"), 4, 21,
	        "more than 1024 pieces");
#undef PC
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 0..1000\n#\n"
	        "piece B 1 1 1 count 24\n#\npiece C 1 1 1 count 0..1\n#\n",
	        8, 21, "more than 1024 pieces (counting each copy, a range at "
	               "its most)");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 0..1000\n#\n"
	        "piece B 1 1 1 count 25\n#\n",
	        6, 21, "more than 1024 pieces (counting each copy, a range at "
	               "its most)");
	/* a range piece still needs a cell */
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count 0..2\n.\n", 4, 7,
	        "piece 'A' has no cells");
}

static void test_puz_read_bad_colour_line(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ncolour\n", 2, 7, "expected 'colour c RRGGBB'");
	PUZ_ERR("puzzle v1\ncolour a\n", 2, 9, "expected 'colour c RRGGBB'");
	PUZ_ERR("puzzle v1\ncolour red\n", 2, 8,
	        "expected a colour letter a..z, found 'red'");
	PUZ_ERR("puzzle v1\ncolour A FF0000\n", 2, 8,
	        "expected a colour letter a..z, found 'A'");
	PUZ_ERR("puzzle v1\ncolour # FF0000\n", 2, 8,
	        "expected a colour letter a..z, found '#'");
	PUZ_ERR("puzzle v1\ncolour 1 FF0000\n", 2, 8,
	        "expected a colour letter a..z, found '1'");
	PUZ_ERR("puzzle v1\ncolour a FF000\n", 2, 10,
	        "expected six hex digits RRGGBB, found 'FF000'");
	PUZ_ERR("puzzle v1\ncolour a FF00000\n", 2, 10,
	        "expected six hex digits RRGGBB, found 'FF00000'");
	PUZ_ERR("puzzle v1\ncolour a FG0000\n", 2, 10,
	        "expected six hex digits RRGGBB, found 'FG0000'");
	PUZ_ERR("puzzle v1\ncolour a #FF000\n", 2, 10,
	        "expected six hex digits RRGGBB, found '#FF000'");
	PUZ_ERR("puzzle v1\ncolour a 0xFF00\n", 2, 10, "found '0xFF00'");
	PUZ_ERR("puzzle v1\ncolour a FF0000 x\n", 2, 17,
	        "unexpected 'x' after 'colour c RRGGBB'");
	PUZ_ERR("puzzle v1\ncolour a FF0000\ngoal 1 1 1\n#\ncolour  a 00FF00\n",
	        5, 9, "duplicate 'colour a' line (first on line 2)");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\ncolour b 000000\n"
	        "colour b 000000\n",
	        7, 8, "duplicate 'colour b' line (first on line 6)");
}

static void test_puz_read_bad_match_line(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\nmatch\n", 2, 6, "expected 'match P G'");
	PUZ_ERR("puzzle v1\nmatch a\n", 2, 8, "expected 'match P G'");
	PUZ_ERR("puzzle v1\nmatch A b\n", 2, 7,
	        "expected a piece colour letter a..z, found 'A'");
	PUZ_ERR("puzzle v1\nmatch ab c\n", 2, 7,
	        "expected a piece colour letter a..z, found 'ab'");
	PUZ_ERR("puzzle v1\nmatch a #\n", 2, 9,
	        "expected a goal colour letter a..z, found '#'");
	PUZ_ERR("puzzle v1\nmatch a +\n", 2, 9,
	        "expected a goal colour letter a..z, found '+'");
	PUZ_ERR("puzzle v1\nmatch a b c\n", 2, 11,
	        "unexpected 'c' after 'match P G'");
	/* checked after the whole file: a colour no cell of its side has */
	PUZ_ERR("puzzle v1\nmatch c b\ngoal 2 1 1\nab\npiece A 1 1 1\na\n", 2,
	        7, "match c b: no piece cell has colour 'c'");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\nab\npiece A 1 1 1\na\nmatch a  c\n", 6,
	        10, "match a c: no goal cell has colour 'c'");
	/* a goal colour only pieces have, a piece colour only the goal has */
	PUZ_ERR("puzzle v1\ngoal 2 1 1\na#\npiece A 1 1 1\nb\nmatch b b\n",
	        6, 9, "match b b: no goal cell has colour 'b'");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\nab\npiece A 1 1 1\nb\nmatch a b\n",
	        6, 7, "match a b: no piece cell has colour 'a'");
	/* the first offending line, though a later pair sorts first; the
	 * piece letter before the goal letter */
	PUZ_ERR("puzzle v1\ngoal 2 1 1\nab\npiece A 1 1 1\nb\nmatch b a\n"
	        "match z y\nmatch a q\nmatch z y\n",
	        7, 7, "match z y: no piece cell has colour 'z'");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\nab\npiece A 1 1 1\nb\nmatch b a\n"
	        "match b q\nmatch a a\n",
	        7, 9, "match b q: no goal cell has colour 'q'");
	/* a match line after the last block with errors later still reads
	 * as what it is */
	PUZ_ERR("puzzle v1\ngoal 1 1 1\na\npiece A 1 1 1\na\nmatch a a\n"
	        "hello\n",
	        7, 1, "unexpected text after the last block");
}

static void test_puz_read_bad_region(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\nregion R\n#\ngoal 1 1 1\n#\n", 2, 1,
	        "'region' must come after 'goal': the goal must come first");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion\n#\n", 4, 7,
	        "expected 'region NAME'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion R S\n#\n", 4, 10,
	        "unexpected 'S' after 'region NAME'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion \xC3\xA9t\xC3\xA9\n#\n", 4, 8,
	        "region name must be printable ASCII without spaces, found "
	        "'\xC3\xA9'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion "
	        "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijkl"
	        "\n#\n",
	        4, 8, "region name is 64 bytes long, at most 63");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion faces\n#\n", 4, 8,
	        "region name 'faces' is reserved: 'distinct faces' means the "
	        "six outer layers of the goal");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion R\n#\nregion S\n.\n"
	        "piece A 1 1 1\n#\nregion R\n.\n",
	        10, 8, "duplicate region name 'R' (first on line 4)");
	/* a member that is not a goal cell, at its character */
	PUZ_ERR("puzzle v1\ngoal 3 1 2\n#.#\n\n###\nregion R\n#.#\n\n.#.\n"
	        "region S\n###\n\n###\n",
	        11, 2, "region 'S': '#' at (1, 0, 0) is not a goal cell");
	/* blocks of the wrong size */
	PUZ_ERR("puzzle v1\ngoal 2 2 2\n##\n##\n\n##\n##\nregion R\n##\n#\n",
	        10, 2, "row has 1 cell, expected 2");
	PUZ_ERR("puzzle v1\ngoal 2 2 2\n##\n##\n\n##\n##\nregion R\n##\n###\n",
	        10, 3, "row has 3 cells, expected 2");
	PUZ_ERR("puzzle v1\ngoal 2 2 2\n##\n##\n\n##\n##\nregion R\n##\n##\n",
	        11, 1, "region 'R' has 1 block, expected 2");
	PUZ_ERR("puzzle v1\ngoal 2 2 2\n##\n##\n\n##\n##\nregion R\n##\n\n##\n",
	        10, 1, "region 'R' block 1 has 1 row, expected 2");
	PUZ_ERR("puzzle v1\ngoal 2 1 1\n##\nregion R\n##\n#.\n", 6, 1,
	        "region 'R' block 1 has more than 1 row, expected 1");
	PUZ_ERR("puzzle v1\ngoal 2 2 2\n##\n##\n\n##\n##\nregion R\n##\n##\n\n"
	        "##\n##\n\n##\n##\n",
	        15, 1, "region 'R' has more than 2 blocks, expected 2");
	PUZ_ERR("puzzle v1\ngoal 2 2 1\n##\n##\nregion R\n##\npiece A 1 1 1\n"
	        "#\n",
	        7, 1, "region 'R' block 1 has 1 row, expected 2");
	PUZ_ERR("puzzle v1\ngoal 1 1 2\n#\n\n#\nregion R\n#\n\n\n#\n", 9, 1,
	        "exactly one blank line, found 2");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion R\n", 5, 1,
	        "region 'R' block 1 has 0 rows, expected 1");
	/* no pieces after regions is still no pieces */
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion R\n#\n", 6, 1, "no pieces");
}

static void test_puz_read_too_many_regions(void **state)
{
	size_t cap = 32 + 16 * (PUZ_MAX_REGIONS + 1) + 40, n;
	char *text = malloc(cap);
	struct puzzle p;
	int i;

	(void)state;
	assert_non_null(text);
	n = (size_t)sprintf(text, "puzzle v1\ngoal 1 1 1\n#\n");
	for (i = 0; i < PUZ_MAX_REGIONS; i++)
		n += (size_t)sprintf(text + n, "region r%d\n#\n", i);
	n += (size_t)sprintf(text + n, "piece A 1 1 1\n#\ndistinct r1023 r0\n");
	read_ok(text, &p);
	assert_int_equal(p.nregions, PUZ_MAX_REGIONS);
	assert_true(p.regions[0].distinct && p.regions[1023].distinct);
	assert_false(p.regions[1].distinct);
	round_trip(&p);
	puz_clear(&p);
	n += (size_t)sprintf(text + n, "region last\n#\n");
	puz_err_at(text, n, 3 + 2 * PUZ_MAX_REGIONS + 3 + 1, 8,
	           "more than 1024 regions", __LINE__);
	free(text);
}

static void test_puz_read_bad_distinct(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ndistinct\n", 2, 9, "expected 'distinct NAME...'");
	PUZ_ERR("puzzle v1\ndistinct R\n", 2, 10,
	        "undefined region 'R': a 'region' line must define it before "
	        "'distinct' names it");
	/* defined on a later line is too late */
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion R\n#\ndistinct faces  R S\n"
	        "region S\n#\n",
	        6, 19, "undefined region 'S'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\nregion R\n#\ndistinct r\n", 6, 10,
	        "undefined region 'r'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\ndistinct \xC3\xA9\n", 4, 10,
	        "undefined region '\xC3\xA9'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\ndistinct Faces\n", 4, 10,
	        "undefined region 'Faces'");
}

/* Colour letters where numbers belong are not numbers. */
static void test_puz_read_colour_letters_in_headers(void **state)
{
	(void)state;
	PUZ_ERR("puzzle v1\ngoal a 1 1\n", 2, 6,
	        "expected a number for the goal X dimension, found 'a'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 b 1\nb\n", 4, 11,
	        "expected a number for the piece 'A' Y dimension, found 'b'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1e\n", 2, 10,
	        "expected a number for the goal Z dimension, found '1e'");
	PUZ_ERR("puzzle v1\nsize c\n", 2, 6,
	        "expected a number for the size, found 'c'");
	PUZ_ERR("puzzle v1\nseed f\n", 2, 6,
	        "expected a number for the seed, found 'f'");
	PUZ_ERR("puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1 count a..b\n#\n", 4,
	        21, "expected a range MIN..MAX after 'count', found 'a..b'");
}

/* Every prefix of a colour file: good or an error in range, '*out'
 * untouched on failure (and no leak under ASan). */
static void test_puz_read_every_colour_prefix(void **state)
{
	static const char text[] = COLOUR_EXAMPLE;
	struct puzzle p;
	struct puz_error e;
	size_t n;
	int rc, ok = 0;

	(void)state;
	for (n = 0; n <= sizeof(text) - 1; n++) {
		poison(&p);
		rc = puz_read_mem(text, n, &p, &e);
		if (rc == PUZ_OK) {
			puz_clear(&p);
			ok++;
			continue;
		}
		assert_int_equal(rc, PUZ_EPARSE);
		assert_true(poisoned(&p));
		assert_true(e.line >= 0 && e.line <= 43);
		assert_true(e.msg[0] != '\0');
	}
	assert_true(ok > 0);
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

/* random_puzzle() with every colour puzzle feature added, each often but
 * not always: colours on both sides, optional goal cells, count ranges,
 * display colours, a match table over the colours the cells use,
 * regions (some distinct), distinct faces, and now and then a row that
 * spells a keyword. '*seen' counts which features appeared. */
struct colour_seen {
	int colours, optional, coloured_optional, ranges, rgb, match, regions,
	        distinct, faces, keyword_rows;
};

static void random_colour_puzzle(uint64_t seed, struct puzzle *p,
                                 struct colour_seen *seen)
{
	static const char *const words[] = {"seed", "size", "goal", "name",
	                                    "piece", "match", "colour",
	                                    "region", "puzzle", "distinct"};
	uint64_t s = seed ^ 0xC0105C0105ull;
	uint32_t pused = 0, gused = 0;
	size_t i, j, n, gn;
	int ncol, c;

	random_puzzle(seed, p);
	ncol = rnd(&s, 1, PUZ_NCOLOURS);
	gn = (size_t)p->goal.nx * (size_t)p->goal.ny * (size_t)p->goal.nz;
	if (rnd(&s, 0, 3) == 0 && p->goal.nx >= 4 && p->goal.nx <= 8) {
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (strlen(words[i]) == (size_t)p->goal.nx)
				break;
		if (i < sizeof(words) / sizeof(words[0])) {
			for (j = 0; j < (size_t)p->goal.nx; j++)
				p->goal.cells[j] =
					(unsigned char)(PUZ_CELL + 1 +
					                words[i][j] - 'a');
			seen->keyword_rows++;
		}
	}
	for (i = 0; i < gn; i++) {
		int r = rnd(&s, 0, 9);

		if (p->goal.cells[i] != PUZ_CELL)
			continue;
		if (r >= 4 && r <= 7)
			p->goal.cells[i] =
				(unsigned char)(PUZ_CELL + rnd(&s, 1, ncol));
		else if (r == 8)
			p->goal.cells[i] = (unsigned char)(
				PUZ_OPTIONAL + (rnd(&s, 0, 1) ? rnd(&s, 1, ncol) : 0));
	}
	for (i = 0; i < p->npieces; i++) {
		struct puz_piece *pc = &p->pieces[i];
		struct grid *g = &pc->shape;

		n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
		for (j = 0; j < n; j++)
			if (g->cells[j] && rnd(&s, 0, 1))
				g->cells[j] = (unsigned char)(PUZ_CELL +
				                              rnd(&s, 1, ncol));
		if (rnd(&s, 0, 2) == 0) {
			/* at most 8 pieces of at most 120: under the limit */
			pc->count_max = pc->count + (unsigned)rnd(&s, 1, 20);
			pc->count = (unsigned)rnd(&s, 0, (int)pc->count);
			seen->ranges++;
		}
		for (j = 0; j < n; j++)
			pused |= 1u << puz_cell_colour(g->cells[j]);
	}
	for (i = 0; i < gn; i++) {
		gused |= 1u << puz_cell_colour(p->goal.cells[i]);
		seen->optional += p->goal.cells[i] == PUZ_OPTIONAL;
		seen->coloured_optional += p->goal.cells[i] > PUZ_OPTIONAL;
	}
	pused &= ~1u;
	gused &= ~1u;
	seen->colours += pused != 0 && gused != 0;
	for (c = 1; c <= PUZ_NCOLOURS; c++) {
		if (rnd(&s, 0, 3) != 0)
			continue;
		p->rgb_set |= 1u << c;
		switch (rnd(&s, 0, 2)) {
		case 0: p->rgb[c] = 0; break;
		case 1: p->rgb[c] = 0xFFFFFF; break;
		default: p->rgb[c] = (uint32_t)(sm64(&s) & 0xFFFFFF); break;
		}
	}
	seen->rgb += p->rgb_set != 0;
	if (pused != 0 && gused != 0 && rnd(&s, 0, 1)) {
		int k = rnd(&s, 1, 12);

		p->has_match = true;
		while (k-- > 0) {
			int pc, gc;

			do
				pc = rnd(&s, 1, PUZ_NCOLOURS);
			while (!(pused >> pc & 1));
			do
				gc = rnd(&s, 1, PUZ_NCOLOURS);
			while (!(gused >> gc & 1));
			p->match[pc] |= 1u << gc;
		}
		seen->match++;
	}
	p->nregions = (size_t)rnd(&s, 0, 5);
	if (p->nregions > 0) {
		p->regions = calloc(p->nregions, sizeof(*p->regions));
		assert_non_null(p->regions);
	}
	for (i = 0; i < p->nregions; i++) {
		struct puz_region *r = &p->regions[i];
		size_t k = (size_t)sprintf(r->name, "R%zu", i);

		n = (size_t)rnd(&s, 0, 8);
		for (j = 0; j < n; j++)
			r->name[k++] = (char)rnd(&s, '!', '~');
		r->name[k] = '\0';
		r->cells = calloc(gn, 1);
		assert_non_null(r->cells);
		for (j = 0; j < gn; j++)
			r->cells[j] = p->goal.cells[j] && rnd(&s, 0, 2) == 0;
		r->distinct = rnd(&s, 0, 1);
		seen->distinct += r->distinct;
	}
	seen->regions += p->nregions > 0;
	p->distinct_faces = rnd(&s, 0, 3) == 0;
	seen->faces += p->distinct_faces;
}

static void test_puz_write_round_trips_random_colour_puzzles(void **state)
{
	struct colour_seen seen;
	struct puzzle p;
	uint64_t seed;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	for (seed = 1; seed <= 1500; seed++) {
		random_colour_puzzle(seed, &p, &seen);
		round_trip(&p);
		puz_clear(&p);
	}
	/* the generator covers what it should */
	assert_true(seen.colours > 100);
	assert_true(seen.optional > 100);
	assert_true(seen.coloured_optional > 100);
	assert_true(seen.ranges > 100);
	assert_true(seen.rgb > 100);
	assert_true(seen.match > 100);
	assert_true(seen.regions > 100);
	assert_true(seen.distinct > 100);
	assert_true(seen.faces > 100);
	assert_true(seen.keyword_rows > 5);
}

/* The comparison in round_trip() can fail: each colour field matters. */
static void test_puz_equal_sees_colour_fields(void **state)
{
	struct puzzle a, b;
	int k;

	(void)state;
	for (k = 0; k < 9; k++) {
		read_ok(COLOUR_EXAMPLE, &a);
		read_ok(COLOUR_EXAMPLE, &b);
		assert_true(puz_equal(&a, &b));
		switch (k) {
		case 0: b.pieces[0].count_max++; break;
		case 1: b.rgb[1]++; break;
		case 2: b.rgb_set |= 1u << 5; break;
		case 3: b.match[3] = 1; break;
		case 4: b.has_match = false; break;
		case 5: b.regions[2].distinct = true; break;
		case 6: b.regions[1].cells[11] = 1; break;
		case 7: b.distinct_faces = false; break;
		default: b.regions[0].name[0] = 'T'; break;
		}
		assert_false(puz_equal(&a, &b));
		puz_clear(&a);
		puz_clear(&b);
	}
}

static void test_puz_write_colour_exact_text(void **state)
{
	static const char want[] = "puzzle v1\n"
	                           "name colours\n"
	                           "colour a FF0000\n"
	                           "colour z 00FF7F\n"
	                           "goal 3 2 2\n"
	                           "ab#\n"
	                           "#+z\n"
	                           "\n"
	                           "###\n"
	                           "..#\n"
	                           "\n"
	                           "piece A 2 1 1 count 0..3\n"
	                           "ab\n"
	                           "\n"
	                           "piece B 1 1 2 count 2\n"
	                           "#\n"
	                           "\n"
	                           "z\n"
	                           "\n"
	                           "piece C 1 1 1 count 1..4\n"
	                           "#\n"
	                           "\n"
	                           "match a b\n"
	                           "match b a\n"
	                           "match z z\n"
	                           "\n"
	                           "region top\n"
	                           "..#\n"
	                           "..#\n"
	                           "\n"
	                           "...\n"
	                           "...\n"
	                           "\n"
	                           "region bottom\n"
	                           "###\n"
	                           "#.#\n"
	                           "\n"
	                           "...\n"
	                           "...\n"
	                           "\n"
	                           "region side\n"
	                           "#..\n"
	                           "#..\n"
	                           "\n"
	                           "#..\n"
	                           "...\n"
	                           "\n"
	                           "distinct faces top bottom\n";
	struct puzzle p;
	char *t;
	size_t n;

	(void)state;
	read_ok(COLOUR_EXAMPLE, &p);
	t = write_mem(&p, &n);
	assert_int_equal(n, sizeof(want) - 1);
	assert_memory_equal(t, want, n);
	free(t);
	round_trip(&p);
	puz_clear(&p);
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

/* A file that cannot be opened or read: its errno's text and PUZ_EIO,
 * but out of memory for ENOMEM (fopen() allocates), no fault of the
 * file's (the command then exits 1, not 2). */
static void test_fail_errno(void **state)
{
	struct puz_error e;

	(void)state;
	assert_int_equal(fmt_fail_errno(&e, ENOENT), PUZ_EIO);
	assert_int_equal(e.line, 0);
	assert_string_equal(e.msg, "No such file or directory");
	assert_int_equal(fmt_fail_errno(&e, 0), PUZ_EIO);
	assert_string_equal(e.msg, strerror(EIO));
	assert_int_equal(fmt_fail_errno(&e, ENOMEM), PUZ_ENOMEM);
	assert_string_equal(e.msg, "out of memory");
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
		cmocka_unit_test(test_puz_read_colour_cells),
		cmocka_unit_test(test_puz_read_count_ranges),
		cmocka_unit_test(test_puz_read_colour_lines),
		cmocka_unit_test(test_puz_read_match_lines),
		cmocka_unit_test(test_puz_read_regions),
		cmocka_unit_test(test_puz_read_distinct_lines),
		cmocka_unit_test(test_puz_read_colour_lines_anywhere),
		cmocka_unit_test(test_puz_read_rows_that_spell_keywords),
		cmocka_unit_test(test_puz_read_bad_colour_cells),
		cmocka_unit_test(test_puz_read_bad_count_ranges),
		cmocka_unit_test(test_puz_weight_and_group),
		cmocka_unit_test(test_puz_read_bad_colour_line),
		cmocka_unit_test(test_puz_read_bad_match_line),
		cmocka_unit_test(test_puz_read_bad_region),
		cmocka_unit_test(test_puz_read_too_many_regions),
		cmocka_unit_test(test_puz_read_bad_distinct),
		cmocka_unit_test(test_puz_read_colour_letters_in_headers),
		cmocka_unit_test(test_puz_read_every_colour_prefix),
		cmocka_unit_test(test_puz_read_classic_soma),
		cmocka_unit_test(test_puz_read_classic_bedlam),
		cmocka_unit_test(test_puz_read_classic_pentacubes),
		cmocka_unit_test(test_puz_read_classic_happycubes),
		cmocka_unit_test(test_puz_write_round_trips_random_puzzles),
		cmocka_unit_test(test_puz_write_round_trips_random_colour_puzzles),
		cmocka_unit_test(test_puz_equal_sees_colour_fields),
		cmocka_unit_test(test_puz_write_exact_text),
		cmocka_unit_test(test_puz_write_colour_exact_text),
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
		cmocka_unit_test(test_fail_errno),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
