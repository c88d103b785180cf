/*
 * puz.c: grids, the .puz reader and writer, and the .hcq reader.
 *
 * Workload: files written by hand or by the generator, a few KiB each.
 * Both readers take the whole text in memory (a file is read in full
 * first) and walk it one line at a time; clarity of the error message
 * matters more than speed. Text is capped at PUZ_TEXT_MAX bytes, which
 * also bounds memory: every cell of every shape costs a byte of text, so
 * no header can make the reader hold more than one grid it has not seen
 * rows for, and that grid is at most PUZ_MAX_CELLS bytes.
 *
 * Rules where DESIGN.md §3 leaves room (the README repeats them):
 *
 * - Text: UTF-8 without NUL bytes or control characters. A file with a
 *   NUL anywhere is "not a text file". Lines end in LF or CRLF (mixed is
 *   fine); a CR not followed by LF is an error; the last line may lack its
 *   line end. A UTF-8 byte-order mark at the very start is skipped.
 * - .puz comments: a line whose first byte is ';' is skipped wherever it
 *   is, and never counts as a row or a blank line. Tabs are allowed only
 *   in comments. Other lines may not start or end with a space; fields of
 *   a header line are separated by one or more spaces.
 * - .puz order: the first line that is not blank or a comment is exactly
 *   `puzzle v1`. Then `name TEXT`, `size N` (or `size X Y Z`) and
 *   `seed S`, each optional and at most once, in any order, all before
 *   the one `goal X Y Z`. Then
 *   one or more `piece NAME X Y Z [count K]`. Any number of blank lines
 *   (including none) may separate these sections; inside a shape, blocks
 *   are separated by exactly one blank line.
 * - .puz limits: name TEXT at most PUZ_MAX_TITLE bytes; size N, X, Y, Z
 *   in 1..PUZ_MAX_DIM; seed S a decimal integer in 0..2^64-1 (leading zeros
 *   allowed, no sign); each dimension 1..PUZ_MAX_DIM; the goal box, and
 *   each piece box, at most PUZ_MAX_CELLS cells; count K >= 1 and at most
 *   PUZ_MAX_PIECES pieces counted with multiplicity; piece names 1..
 *   PUZ_MAX_NAME bytes of printable ASCII other than space, all distinct;
 *   every shape has a cell; no piece has more cells than the goal.
 * - .hcq: blank lines are skipped, spaces and tabs around fields are
 *   ignored. NAME:, TYPE:, COMMENT: and NUM_TILES: come in any order, each
 *   at most once, before TILE_ID_BORDER_PATTERN; NAME: is optional (the
 *   puzzle is then unnamed), NUM_TILES: is required and must be 6. Tile
 *   ids are 1..PUZ_MAX_NAME-1 bytes of printable ASCII and distinct, as the
 *   pieces are named "T<ID>". Nothing but blank lines may follow `EOF`.
 *
 * Line and column numbers in errors are 1-based; a column counts UTF-8
 * characters, not bytes. The end of the text is reported on the line
 * after the last line end (column 1), or after the last character when
 * the last line has no line end.
 */
#include "solver/puz.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* 64 MiB: a size-64 generated cube is under 1 MiB of text, so this only
 * stops a wrong file (a disk image, /dev/zero) before it eats memory. */
#define PUZ_TEXT_MAX ((size_t)64 << 20)

#if defined(__GNUC__)
#define PUZ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PUZ_PRINTF(f, a)
#endif

/* ------------------------------------------------------------------ */
/* Grids                                                               */

/* nx*ny*nz as a size_t, or false when it does not fit. */
static bool box_cells(int nx, int ny, int nz, size_t *n)
{
	size_t a = (size_t)nx, b = (size_t)ny, c = (size_t)nz;

	if (b != 0 && a > SIZE_MAX / b)
		return false;
	if (c != 0 && a * b > SIZE_MAX / c)
		return false;
	*n = a * b * c;
	return true;
}

int puz_grid_init(struct grid *g, int nx, int ny, int nz)
{
	size_t n;
	unsigned char *cells;

	assert(g != NULL);
	assert(nx >= 1 && ny >= 1 && nz >= 1);
	if (!box_cells(nx, ny, nz, &n))
		return PUZ_ENOMEM;
	cells = calloc(n, 1);
	if (cells == NULL)
		return PUZ_ENOMEM;
	g->nx = nx;
	g->ny = ny;
	g->nz = nz;
	g->cells = cells;
	return PUZ_OK;
}

void puz_grid_clear(struct grid *g)
{
	if (g == NULL)
		return;
	free(g->cells);
	g->cells = NULL;
	g->nx = g->ny = g->nz = 0;
}

size_t puz_grid_volume(const struct grid *g)
{
	size_t n, i, v = 0;

	if (g->cells == NULL || !box_cells(g->nx, g->ny, g->nz, &n))
		return 0;
	for (i = 0; i < n; i++)
		v += g->cells[i] != 0;
	return v;
}

void puz_clear(struct puzzle *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->npieces; i++)
		puz_grid_clear(&p->pieces[i].shape);
	free(p->pieces);
	puz_grid_clear(&p->goal);
	memset(p, 0, sizeof(*p));
}

/* ------------------------------------------------------------------ */
/* Errors and text helpers                                             */

static PUZ_PRINTF(4, 5) int fail(struct puz_error *err, int line, int col,
                                 const char *fmt, ...)
{
	va_list ap;

	err->line = line;
	err->col = col;
	va_start(ap, fmt);
	/* vsnprintf truncates a long message; a byte count is all it can
	 * fail on, and the message is still NUL-terminated. */
	(void)vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return PUZ_EPARSE;
}

static int fail_nomem(struct puz_error *err)
{
	err->line = 0;
	err->col = 0;
	snprintf(err->msg, sizeof(err->msg), "out of memory");
	return PUZ_ENOMEM;
}

static bool is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

/* Length of the valid UTF-8 sequence at s[0..n), 0 if invalid (overlong
 * forms, surrogates and code points above U+10FFFF are invalid). */
static size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	unsigned char lo = 0x80, hi = 0xBF;
	size_t len, i;
	uint32_t v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		v = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		v = c & 0x0F;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		v = c & 0x07;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 1; i < len; i++) {
		if (!is_cont(s[i]))
			return 0;
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

/* 1-based column of byte 'off' in a line whose first 'off' bytes are
 * valid UTF-8: one column per character. */
static int col_at(const char *s, size_t off)
{
	size_t i;
	int col = 1;

	for (i = 0; i < off; i++)
		col += !is_cont((unsigned char)s[i]);
	return col;
}

/* Copy s[0..len) for a message, cut at a character boundary with "..."
 * when longer than 32 bytes. Returns 'buf'. */
static const char *show(char buf[40], const char *s, size_t len)
{
	size_t n = len;

	if (n > 32) {
		n = 32;
		while (n > 0 && is_cont((unsigned char)s[n]))
			n--;
	}
	memcpy(buf, s, n);
	if (n < len)
		memcpy(buf + n, "...", 4);
	else
		buf[n] = '\0';
	return buf;
}

/* Show the one character at s[0..n), n > 0, of a checked line. */
static const char *show_char(char buf[40], const char *s, size_t n)
{
	uint32_t cp;
	size_t k = utf8_len((const unsigned char *)s, n, &cp);

	return show(buf, s, k > 0 ? k : 1);
}

/* ------------------------------------------------------------------ */
/* Reading a whole file                                                */

/* Read all of 'path' into a new buffer '*text' of '*len' bytes (NUL
 * added, not counted). PUZ_EIO with strerror text and line 0 when the
 * file cannot be opened or read; PUZ_EPARSE when it is too large. */
static int slurp(const char *path, char **text, size_t *len,
                 struct puz_error *err)
{
	FILE *fp;
	struct stat st;
	char *buf = NULL, *nb;
	size_t cap = 0, n = 0, got;
	int rc = PUZ_OK, e;

	errno = 0;
	fp = fopen(path, "rb");
	if (fp == NULL) {
		e = errno;
		fail(err, 0, 0, "%s", strerror(e ? e : EIO));
		return PUZ_EIO;
	}
	/* Refuse a large regular file before reading a byte of it; the read
	 * loop below still stops pipes and devices at the same size. */
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > (uintmax_t)PUZ_TEXT_MAX) {
		rc = fail(err, 0, 0, "file is larger than %zu MiB",
		          PUZ_TEXT_MAX >> 20);
		goto out;
	}
	for (;;) {
		if (n == cap) {
			size_t ncap = cap == 0 ? 65536 : cap * 2;

			if (ncap > PUZ_TEXT_MAX + 1)
				ncap = PUZ_TEXT_MAX + 1;
			if (ncap == cap) {
				rc = fail(err, 0, 0,
				          "file is larger than %zu MiB",
				          PUZ_TEXT_MAX >> 20);
				goto out;
			}
			nb = realloc(buf, ncap + 1);
			if (nb == NULL) {
				rc = fail_nomem(err);
				goto out;
			}
			buf = nb;
			cap = ncap;
		}
		errno = 0;
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (n < cap) {
			/* A short read is the end of the file or an error. */
			if (ferror(fp)) {
				e = errno;
				fail(err, 0, 0, "%s", strerror(e ? e : EIO));
				rc = PUZ_EIO;
				goto out;
			}
			break;
		}
	}
	if (n > PUZ_TEXT_MAX) {
		rc = fail(err, 0, 0, "file is larger than %zu MiB",
		          PUZ_TEXT_MAX >> 20);
		goto out;
	}
out:
	errno = 0;
	if (fclose(fp) != 0 && rc == PUZ_OK) {
		e = errno;
		fail(err, 0, 0, "%s", strerror(e ? e : EIO));
		rc = PUZ_EIO;
	}
	if (rc != PUZ_OK) {
		free(buf);
		return rc;
	}
	if (buf == NULL) {
		/* Unreachable: the loop allocates before its first read. */
		return fail_nomem(err);
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return PUZ_OK;
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */

struct line {
	const char *s; /* first byte of the line, without line end */
	size_t len;    /* bytes in the line, without LF or CRLF */
	int no;        /* 1-based line number */
	int eof_col;   /* when eof: the column to report the end at */
	bool eof;      /* no line left: s and len mean nothing */
};

struct lexer {
	const char *p, *end; /* text not yet split into lines */
	int no;              /* number of the last line split off */
	bool last_nl;        /* whether that line ended in a line end */
	int last_cols;       /* its length in characters */
	bool hcq;            /* .hcq rules: no comments, lenient white space */
	struct line cur;     /* the current line */
};

/* Check that a line is text: valid UTF-8, no control characters (tab
 * only where 'tab_ok'), no CR (a CR before the LF was already cut). */
static int check_text(const struct line *ln, bool tab_ok,
                      struct puz_error *err)
{
	const unsigned char *s = (const unsigned char *)ln->s;
	size_t i = 0, k;
	uint32_t cp;

	while (i < ln->len) {
		k = utf8_len(s + i, ln->len - i, &cp);
		if (k == 0)
			return fail(err, ln->no, col_at(ln->s, i),
			            "invalid UTF-8 (byte 0x%02X)", s[i]);
		if (cp == '\r')
			return fail(err, ln->no, col_at(ln->s, i),
			            "carriage return (CR) not followed by a "
			            "line feed");
		if (cp == '\t' && !tab_ok)
			return fail(err, ln->no, col_at(ln->s, i),
			            "tab character: use spaces");
		if ((cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F))
			return fail(err, ln->no, col_at(ln->s, i),
			            "control character U+%04" PRIX32
			            " in text",
			            cp);
		i += k;
	}
	return PUZ_OK;
}

static void lx_init(struct lexer *lx, const char *text, size_t len, bool hcq)
{
	memset(lx, 0, sizeof(*lx));
	lx->p = text;
	lx->end = text + len;
	lx->hcq = hcq;
	lx->last_nl = true;
	/* Skip a UTF-8 byte-order mark, as Windows editors write one. */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		lx->p += 3;
}

/* Make the next line current. For .puz, comment lines are checked and
 * skipped, and other lines may not start or end with a space. */
static int lx_next(struct lexer *lx, struct puz_error *err)
{
	struct line *ln = &lx->cur;
	const char *nl;
	bool comment;
	int rc;

	for (;;) {
		if (lx->p == lx->end) {
			ln->s = lx->end;
			ln->len = 0;
			ln->eof = true;
			ln->no = lx->last_nl ? lx->no + 1 : lx->no;
			ln->eof_col = lx->last_nl ? 1 : lx->last_cols + 1;
			return PUZ_OK;
		}
		nl = memchr(lx->p, '\n', (size_t)(lx->end - lx->p));
		ln->s = lx->p;
		ln->len = (size_t)((nl ? nl : lx->end) - lx->p);
		ln->eof = false;
		ln->no = ++lx->no;
		lx->p = nl ? nl + 1 : lx->end;
		lx->last_nl = nl != NULL;
		if (nl != NULL && ln->len > 0 && ln->s[ln->len - 1] == '\r')
			ln->len--;
		comment = !lx->hcq && ln->len > 0 && ln->s[0] == ';';
		rc = check_text(ln, lx->hcq || comment, err);
		if (rc != PUZ_OK)
			return rc;
		lx->last_cols = col_at(ln->s, ln->len) - 1;
		if (lx->hcq)
			return PUZ_OK;
		if (comment)
			continue;
		if (ln->len > 0 && ln->s[0] == ' ') {
			size_t i = 0;

			while (i < ln->len && ln->s[i] == ' ')
				i++;
			if (i == ln->len)
				return fail(err, ln->no, 1,
				            "line has only spaces: a blank "
				            "line must be empty");
			return fail(err, ln->no, 1,
			            "unexpected space at the start of the "
			            "line");
		}
		if (ln->len > 0 && ln->s[ln->len - 1] == ' ') {
			size_t i = ln->len;

			while (ln->s[i - 1] == ' ')
				i--;
			return fail(err, ln->no, col_at(ln->s, i),
			            "trailing space at the end of the line");
		}
		return PUZ_OK;
	}
}

/* Where to report the first error in the current line at byte 'off'. */
static int lcol(const struct line *ln, size_t off)
{
	return ln->eof ? ln->eof_col : col_at(ln->s, off);
}

/* Whole text checks shared by both readers: not empty, not too large,
 * no NUL (checked before anything else, so binary junk gets a message
 * that says what it is rather than complaining about its first byte). */
static int check_whole(const char *text, size_t len, struct puz_error *err)
{
	const char *z;
	const char *s, *ls;
	int no = 1;

	if (len == 0)
		return fail(err, 0, 0, "empty file");
	if (len > PUZ_TEXT_MAX)
		return fail(err, 0, 0, "text is larger than %zu MiB",
		            PUZ_TEXT_MAX >> 20);
	z = memchr(text, '\0', len);
	if (z == NULL)
		return PUZ_OK;
	ls = text;
	for (s = text; s < z; s++) {
		if (*s == '\n') {
			no++;
			ls = s + 1;
		}
	}
	/* Count bytes, not characters: before the NUL may be anything. */
	return fail(err, no, (int)(z - ls) + 1, "not a text file (NUL byte)");
}

/* ------------------------------------------------------------------ */
/* .puz tokens                                                         */

struct tok {
	const char *s; /* first byte */
	size_t len;    /* bytes */
	size_t off;    /* offset in the line */
};

/* Next space-separated field of 'ln' from '*pos'; false at the end. */
static bool tok_next(const struct line *ln, size_t *pos, struct tok *t)
{
	size_t i = *pos, j;

	while (i < ln->len && ln->s[i] == ' ')
		i++;
	if (i == ln->len) {
		*pos = i;
		return false;
	}
	j = i;
	while (j < ln->len && ln->s[j] != ' ')
		j++;
	t->s = ln->s + i;
	t->len = j - i;
	t->off = i;
	*pos = j;
	return true;
}

static bool tok_is(const struct tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->len == n && memcmp(t->s, word, n) == 0;
}

/* Decimal digits only, no sign, value fits in 64 bits. */
static bool parse_u64(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (len == 0)
		return false;
	for (i = 0; i < len; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return false;
		d = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

/* Whether s[0..len) is an optional '-' then one or more digits: a number
 * a reader reports as out of range rather than as not a number. */
static bool looks_numeric(const char *s, size_t len)
{
	size_t i = 0;

	if (len > 0 && s[0] == '-')
		i = 1;
	if (i == len)
		return false;
	for (; i < len; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

/* An integer field in lo..hi. 'what' names it in messages ("goal X
 * dimension", "size"). */
static int parse_int_field(const struct line *ln, const struct tok *t,
                           const char *what, int lo, int hi, int *out,
                           struct puz_error *err)
{
	uint64_t v;
	char b[40];

	if (parse_u64(t->s, t->len, &v) && v >= (uint64_t)lo &&
	    v <= (uint64_t)hi) {
		*out = (int)v;
		return PUZ_OK;
	}
	if (looks_numeric(t->s, t->len))
		return fail(err, ln->no, lcol(ln, t->off),
		            "%s %s out of range %d..%d", what,
		            show(b, t->s, t->len), lo, hi);
	return fail(err, ln->no, lcol(ln, t->off),
	            "expected a number for the %s, found '%s'", what,
	            show(b, t->s, t->len));
}

enum kw { KW_NONE, KW_PUZZLE, KW_NAME, KW_SIZE, KW_SEED, KW_GOAL, KW_PIECE };

static const char *const kw_words[] = {
	"", "puzzle", "name", "size", "seed", "goal", "piece",
};

/* The header keyword a line starts with, if any. */
static enum kw keyword_of(const struct line *ln)
{
	struct tok t = {0};
	size_t pos = 0, i;

	if (ln->eof || !tok_next(ln, &pos, &t))
		return KW_NONE;
	for (i = 1; i < sizeof(kw_words) / sizeof(kw_words[0]); i++)
		if (tok_is(&t, kw_words[i]))
			return (enum kw)i;
	return KW_NONE;
}

static bool is_blank(const struct line *ln)
{
	return !ln->eof && ln->len == 0;
}

/* A line that can only be meant as a row of cells. */
static bool is_rowish(const struct line *ln)
{
	return !ln->eof && ln->len > 0 && (ln->s[0] == '#' || ln->s[0] == '.');
}

/* Where a shape's rows cannot continue: a blank line, a header, the end. */
static bool ends_rows(const struct line *ln)
{
	return ln->eof || ln->len == 0 || keyword_of(ln) != KW_NONE;
}

static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* ------------------------------------------------------------------ */
/* .puz shapes                                                         */

/* One row of the current line into g at (., y, z). */
static int read_row(const struct line *ln, struct grid *g, int y, int z,
                    struct puz_error *err)
{
	size_t i, nx = (size_t)g->nx;
	char b[40];

	for (i = 0; i < ln->len; i++) {
		char c = ln->s[i];

		if (c == '#' || c == '.')
			continue;
		return fail(err, ln->no, lcol(ln, i),
		            "expected '#' or '.', found '%s'",
		            show_char(b, ln->s + i, ln->len - i));
	}
	if (ln->len != nx)
		return fail(err, ln->no, lcol(ln, ln->len < nx ? ln->len : nx),
		            "row has %zu cell%s, expected %d", ln->len,
		            ln->len == 1 ? "" : "s", g->nx);
	for (i = 0; i < nx; i++)
		g->cells[puz_grid_index(g, (int)i, y, z)] = ln->s[i] == '#';
	return PUZ_OK;
}

/* Read the blocks that follow a goal or piece header (the current line)
 * into 'g', whose dimensions are set. 'what' names the shape in messages
 * ("goal", "piece 'L'"); blocks are numbered from 1 in messages, as a
 * reader counts them. Leaves the first non-blank line after the shape
 * current. */
static int read_shape(struct lexer *lx, struct grid *g, const char *what,
                      struct puz_error *err)
{
	const struct line *ln = &lx->cur;
	int ny = g->ny, nz = g->nz;
	int y, z, rc, blanks, second;
	char b[40];

	for (z = 0; z < nz; z++) {
		rc = lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
		if (z > 0) {
			/* The line after block z's last row: one blank line,
			 * then the rows of block z+1. */
			if (is_rowish(ln))
				return fail(err, ln->no, 1,
				            "%s block %d has more than %d "
				            "row%s, expected %d (blocks are "
				            "separated by a blank line)",
				            what, z, ny, plural(ny), ny);
			if (ln->eof || keyword_of(ln) != KW_NONE)
				return fail(err, ln->no, lcol(ln, 0),
				            "%s has %d block%s, expected %d",
				            what, z, plural(z), nz);
			if (!is_blank(ln))
				return fail(err, ln->no, 1,
				            "expected a blank line after %s "
				            "block %d, found '%s'",
				            what, z, show(b, ln->s, ln->len));
			blanks = 1;
			second = 0;
			for (;;) {
				rc = lx_next(lx, err);
				if (rc != PUZ_OK)
					return rc;
				if (!is_blank(ln))
					break;
				if (blanks++ == 1)
					second = ln->no;
			}
			if (ends_rows(ln))
				return fail(err, ln->no, lcol(ln, 0),
				            "%s has %d block%s, expected %d",
				            what, z, plural(z), nz);
			if (blanks > 1)
				return fail(err, second, 1,
				            "blocks are separated by exactly "
				            "one blank line, found %d",
				            blanks);
		}
		for (y = 0; y < ny; y++) {
			if (y > 0) {
				rc = lx_next(lx, err);
				if (rc != PUZ_OK)
					return rc;
			}
			if (ends_rows(ln))
				return fail(err, ln->no, lcol(ln, 0),
				            "%s block %d has %d row%s, "
				            "expected %d",
				            what, z + 1, y, plural(y), ny);
			rc = read_row(ln, g, y, z, err);
			if (rc != PUZ_OK)
				return rc;
		}
	}
	rc = lx_next(lx, err);
	if (rc != PUZ_OK)
		return rc;
	if (is_rowish(ln))
		return fail(err, ln->no, 1,
		            "%s block %d has more than %d row%s, expected %d",
		            what, nz, ny, plural(ny), ny);
	while (is_blank(ln)) {
		rc = lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
	}
	if (is_rowish(ln))
		return fail(err, ln->no, 1,
		            "%s has more than %d block%s, expected %d", what,
		            nz, plural(nz), nz);
	return PUZ_OK;
}

/* The three dimensions of a header from '*pos' into d[], each in
 * 1..PUZ_MAX_DIM and together at most PUZ_MAX_CELLS cells. 'what' is
 * "goal" or "piece 'L'"; 'usage' is the header's syntax. */
static int read_dims(const struct line *ln, size_t *pos, const char *what,
                     const char *usage, int d[3], struct puz_error *err)
{
	static const char axes[3] = {'X', 'Y', 'Z'};
	struct tok t = {0};
	size_t first = 0, n = 0;
	char name[PUZ_MAX_NAME + 40];
	int i, rc;

	for (i = 0; i < 3; i++) {
		if (!tok_next(ln, pos, &t))
			return fail(err, ln->no, lcol(ln, ln->len),
			            "expected '%s'", usage);
		if (i == 0)
			first = t.off;
		snprintf(name, sizeof(name), "%s %c dimension", what, axes[i]);
		rc = parse_int_field(ln, &t, name, 1, PUZ_MAX_DIM, &d[i], err);
		if (rc != PUZ_OK)
			return rc;
	}
	/* Each factor is at most PUZ_MAX_DIM, so this cannot overflow;
	 * box_cells checks anyway. */
	if (!box_cells(d[0], d[1], d[2], &n) || n > PUZ_MAX_CELLS)
		return fail(err, ln->no, lcol(ln, first),
		            "%s is %dx%dx%d = %zu cells, more than %d", what,
		            d[0], d[1], d[2], n, PUZ_MAX_CELLS);
	return PUZ_OK;
}

static bool name_char_ok(char c)
{
	return c > ' ' && c <= '~';
}

/* ------------------------------------------------------------------ */
/* .puz reader                                                         */

/* A puzzle being read: the result, and where each piece was declared. */
struct pz {
	struct puzzle p; /* what has been read so far, owned */
	size_t cap;      /* entries allocated in p.pieces and lines */
	int *lines;      /* line of each piece header, for duplicate names */
	unsigned total;  /* pieces counted with multiplicity */
};

static void pz_free(struct pz *z)
{
	puz_clear(&z->p);
	free(z->lines);
	z->lines = NULL;
	z->cap = 0;
}

/* Room for one more piece. */
static int pz_grow(struct pz *z)
{
	size_t ncap;
	struct puz_piece *np;
	int *nl;

	if (z->p.npieces < z->cap)
		return PUZ_OK;
	ncap = z->cap == 0 ? 8 : z->cap * 2;
	/* At most PUZ_MAX_PIECES entries, so neither product overflows. */
	np = realloc(z->p.pieces, ncap * sizeof(*np));
	if (np == NULL)
		return PUZ_ENOMEM;
	z->p.pieces = np;
	nl = realloc(z->lines, ncap * sizeof(*nl));
	if (nl == NULL)
		return PUZ_ENOMEM;
	z->lines = nl;
	z->cap = ncap;
	return PUZ_OK;
}

/* `name TEXT`: the rest of the line after 'name' and its spaces. */
static int read_title(const struct line *ln, struct puzzle *p,
                      struct puz_error *err)
{
	size_t i = 4;

	while (i < ln->len && ln->s[i] == ' ')
		i++;
	if (i == ln->len)
		return fail(err, ln->no, lcol(ln, ln->len),
		            "expected 'name TEXT'");
	if (ln->len - i > PUZ_MAX_TITLE)
		return fail(err, ln->no, lcol(ln, i),
		            "name is %zu bytes long, at most %d",
		            ln->len - i, PUZ_MAX_TITLE);
	memcpy(p->name, ln->s + i, ln->len - i);
	p->name[ln->len - i] = '\0';
	return PUZ_OK;
}

/* `size N` (a cube) or `size X Y Z` (a box). */
static int read_size(const struct line *ln, struct puzzle *p,
                     struct puz_error *err)
{
	static const char usage[] = "size N' or 'size X Y Z";
	struct tok t[4] = {{0}};
	size_t pos = 0, n = 0;
	int d[3];
	char b[40];

	(void)tok_next(ln, &pos, &t[0]);
	while (n < 4 && tok_next(ln, &pos, &t[n]))
		n++;
	if (n == 0 || n == 2)
		return fail(err, ln->no, lcol(ln, ln->len), "expected '%s'",
		            usage);
	if (n == 4)
		return fail(err, ln->no, lcol(ln, t[3].off),
		            "unexpected '%s' after '%s'",
		            show(b, t[3].s, t[3].len), usage);
	for (size_t i = 0; i < n; i++) {
		int rc = parse_int_field(ln, &t[i], "size", 1, PUZ_MAX_DIM,
		                         &d[i], err);
		if (rc != PUZ_OK)
			return rc;
	}
	for (size_t i = 0; i < 3; i++)
		p->size[i] = d[n == 1 ? 0 : i];
	return PUZ_OK;
}

/* `size ...` or `seed S`. */
static int read_meta(const struct line *ln, enum kw kw, struct puzzle *p,
                     struct puz_error *err)
{
	const char *usage = "seed S";
	struct tok t = {0}, extra = {0};
	size_t pos = 0;
	uint64_t v;
	char b[40];

	if (kw == KW_SIZE)
		return read_size(ln, p, err);
	(void)tok_next(ln, &pos, &t);
	if (!tok_next(ln, &pos, &t))
		return fail(err, ln->no, lcol(ln, ln->len), "expected '%s'",
		            usage);
	if (tok_next(ln, &pos, &extra))
		return fail(err, ln->no, lcol(ln, extra.off),
		            "unexpected '%s' after '%s'",
		            show(b, extra.s, extra.len), usage);
	if (parse_u64(t.s, t.len, &v)) {
		p->seed = v;
		p->has_seed = true;
		return PUZ_OK;
	}
	if (looks_numeric(t.s, t.len))
		return fail(err, ln->no, lcol(ln, t.off),
		            "seed %s out of range 0..%" PRIu64,
		            show(b, t.s, t.len), UINT64_MAX);
	return fail(err, ln->no, lcol(ln, t.off),
	            "expected a number for the seed, found '%s'",
	            show(b, t.s, t.len));
}

#define PIECE_USAGE "piece NAME X Y Z [count K]"

/* A `piece` header (the current line) and its shape, appended to 'z'. */
static int read_piece(struct lexer *lx, struct pz *z, struct puz_error *err)
{
	const struct line *ln = &lx->cur;
	struct puz_piece pc;
	struct tok t = {0}, nt = {0}, kt = {0};
	size_t pos = 0, i, vol, gvol;
	uint64_t k = 1;
	int line = ln->no, namecol, kcol, d[3], rc;
	char what[PUZ_MAX_NAME + 16], b[40];

	memset(&pc, 0, sizeof(pc));
	(void)tok_next(ln, &pos, &t);
	if (!tok_next(ln, &pos, &nt))
		return fail(err, ln->no, lcol(ln, ln->len),
		            "expected '" PIECE_USAGE "'");
	namecol = kcol = lcol(ln, nt.off);
	for (i = 0; i < nt.len; i++)
		if (!name_char_ok(nt.s[i]))
			return fail(err, ln->no, lcol(ln, nt.off + i),
			            "piece name must be printable ASCII "
			            "without spaces, found '%s'",
			            show_char(b, nt.s + i, nt.len - i));
	if (nt.len > PUZ_MAX_NAME)
		return fail(err, ln->no, namecol,
		            "piece name is %zu bytes long, at most %d", nt.len,
		            PUZ_MAX_NAME);
	memcpy(pc.name, nt.s, nt.len);
	pc.name[nt.len] = '\0';
	for (i = 0; i < z->p.npieces; i++)
		if (strcmp(z->p.pieces[i].name, pc.name) == 0)
			return fail(err, ln->no, namecol,
			            "duplicate piece name '%s' (first on line "
			            "%d)",
			            pc.name, z->lines[i]);
	snprintf(what, sizeof(what), "piece '%s'", pc.name);
	rc = read_dims(ln, &pos, what, PIECE_USAGE, d, err);
	if (rc != PUZ_OK)
		return rc;
	if (tok_next(ln, &pos, &t)) {
		if (!tok_is(&t, "count"))
			return fail(err, ln->no, lcol(ln, t.off),
			            "unexpected '%s': expected '" PIECE_USAGE
			            "'",
			            show(b, t.s, t.len));
		if (!tok_next(ln, &pos, &kt))
			return fail(err, ln->no, lcol(ln, ln->len),
			            "expected a number after 'count'");
		kcol = lcol(ln, kt.off);
		if (!looks_numeric(kt.s, kt.len))
			return fail(err, ln->no, kcol,
			            "expected a number after 'count', found "
			            "'%s'",
			            show(b, kt.s, kt.len));
		if (kt.s[0] == '-' ||
		    (parse_u64(kt.s, kt.len, &k) && k == 0))
			return fail(err, ln->no, kcol,
			            "count %s: must be at least 1",
			            show(b, kt.s, kt.len));
		if (!parse_u64(kt.s, kt.len, &k))
			k = UINT64_MAX; /* too many pieces, said below */
		if (tok_next(ln, &pos, &t))
			return fail(err, ln->no, lcol(ln, t.off),
			            "unexpected '%s' after the count: "
			            "expected '" PIECE_USAGE "'",
			            show(b, t.s, t.len));
	}
	if (k > (uint64_t)(PUZ_MAX_PIECES - z->total))
		return fail(err, ln->no, kcol,
		            "more than %d pieces (counting each copy)",
		            PUZ_MAX_PIECES);
	pc.count = (unsigned)k;
	if (puz_grid_init(&pc.shape, d[0], d[1], d[2]) != PUZ_OK)
		return fail_nomem(err);
	rc = read_shape(lx, &pc.shape, what, err);
	if (rc == PUZ_OK) {
		vol = puz_grid_volume(&pc.shape);
		gvol = puz_grid_volume(&z->p.goal);
		if (vol == 0)
			rc = fail(err, line, namecol, "%s has no cells", what);
		else if (vol > gvol)
			rc = fail(err, line, namecol,
			          "%s has %zu cells, more than the goal's %zu",
			          what, vol, gvol);
	}
	if (rc == PUZ_OK && pz_grow(z) != PUZ_OK)
		rc = fail_nomem(err);
	if (rc != PUZ_OK) {
		puz_grid_clear(&pc.shape);
		return rc;
	}
	z->lines[z->p.npieces] = line;
	z->p.pieces[z->p.npieces++] = pc;
	z->total += pc.count;
	return PUZ_OK;
}

/* The error for a line that is not a piece header where one may be. */
static int misplaced(const struct line *ln, enum kw kw, const int seen[],
                     struct puz_error *err)
{
	switch (kw) {
	case KW_PUZZLE:
	case KW_GOAL:
		return fail(err, ln->no, 1,
		            "duplicate '%s' line (first on line %d)",
		            kw_words[kw], seen[kw]);
	case KW_NAME:
	case KW_SIZE:
	case KW_SEED:
		return fail(err, ln->no, 1, "'%s' must come before 'goal'",
		            kw_words[kw]);
	default:
		return fail(err, ln->no, 1,
		            "unexpected text after the last block: expected '"
		            PIECE_USAGE "' or end of file");
	}
}

/* `puzzle v1`: the first line that is not blank or a comment. */
static int read_magic(struct lexer *lx, struct puz_error *err)
{
	const struct line *ln = &lx->cur;
	struct tok t = {0};
	size_t pos = 0;
	char b[40];
	int rc;

	do {
		rc = lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
	} while (is_blank(ln));
	if (ln->eof)
		return fail(err, ln->no, ln->eof_col,
		            "expected 'puzzle v1', found end of file");
	if (keyword_of(ln) != KW_PUZZLE)
		return fail(err, ln->no, 1,
		            "expected 'puzzle v1' as the first line");
	(void)tok_next(ln, &pos, &t);
	if (!tok_next(ln, &pos, &t))
		return fail(err, ln->no, lcol(ln, ln->len),
		            "expected 'puzzle v1'");
	if (!tok_is(&t, "v1"))
		return fail(err, ln->no, lcol(ln, t.off),
		            "unsupported version '%s': expected 'puzzle v1'",
		            show(b, t.s, t.len));
	if (tok_next(ln, &pos, &t))
		return fail(err, ln->no, lcol(ln, t.off),
		            "unexpected '%s' after 'puzzle v1'",
		            show(b, t.s, t.len));
	return PUZ_OK;
}

static int parse_puz(struct lexer *lx, struct pz *z, struct puz_error *err)
{
	const struct line *ln = &lx->cur;
	int seen[KW_PIECE + 1] = {0}, gline, d[3], rc;
	struct tok t = {0};
	size_t pos;
	enum kw kw;
	char b[40];

	rc = read_magic(lx, err);
	if (rc != PUZ_OK)
		return rc;
	seen[KW_PUZZLE] = ln->no;

	/* name, size, seed in any order, then goal */
	for (;;) {
		do {
			rc = lx_next(lx, err);
			if (rc != PUZ_OK)
				return rc;
		} while (is_blank(ln));
		if (ln->eof)
			return fail(err, ln->no, ln->eof_col,
			            "missing 'goal' line");
		kw = keyword_of(ln);
		if (kw == KW_GOAL)
			break;
		switch (kw) {
		case KW_NAME:
		case KW_SIZE:
		case KW_SEED:
			if (seen[kw])
				return fail(err, ln->no, 1,
				            "duplicate '%s' line (first on "
				            "line %d)",
				            kw_words[kw], seen[kw]);
			seen[kw] = ln->no;
			rc = kw == KW_NAME ? read_title(ln, &z->p, err)
			                   : read_meta(ln, kw, &z->p, err);
			if (rc != PUZ_OK)
				return rc;
			break;
		case KW_PIECE:
			return fail(err, ln->no, 1,
			            "missing 'goal' line before the first "
			            "piece");
		case KW_PUZZLE:
			return misplaced(ln, kw, seen, err);
		default:
			if (is_rowish(ln))
				return fail(err, ln->no, 1,
				            "rows before the 'goal' line: "
				            "expected 'goal X Y Z'");
			pos = 0;
			(void)tok_next(ln, &pos, &t);
			return fail(err, ln->no, 1,
			            "unknown line '%s': expected 'name', "
			            "'size', 'seed' or 'goal'",
			            show(b, t.s, t.len));
		}
	}

	/* goal X Y Z and its blocks */
	gline = seen[KW_GOAL] = ln->no;
	pos = 0;
	(void)tok_next(ln, &pos, &t);
	rc = read_dims(ln, &pos, "goal", "goal X Y Z", d, err);
	if (rc != PUZ_OK)
		return rc;
	if (tok_next(ln, &pos, &t))
		return fail(err, ln->no, lcol(ln, t.off),
		            "unexpected '%s' after 'goal X Y Z'",
		            show(b, t.s, t.len));
	if (puz_grid_init(&z->p.goal, d[0], d[1], d[2]) != PUZ_OK)
		return fail_nomem(err);
	rc = read_shape(lx, &z->p.goal, "goal", err);
	if (rc != PUZ_OK)
		return rc;
	if (puz_grid_volume(&z->p.goal) == 0)
		return fail(err, gline, 1, "goal has no cells");

	/* pieces, up to the end */
	while (!ln->eof) {
		kw = keyword_of(ln);
		if (kw != KW_PIECE)
			return misplaced(ln, kw, seen, err);
		rc = read_piece(lx, z, err);
		if (rc != PUZ_OK)
			return rc;
	}
	if (z->p.npieces == 0)
		return fail(err, ln->no, ln->eof_col,
		            "no pieces: expected '" PIECE_USAGE "'");
	return PUZ_OK;
}

static int read_text(const char *text, size_t len, bool hcq,
                     struct puzzle *out, struct puz_error *err);

int puz_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err)
{
	return read_text(text, len, false, out, err);
}

int hcq_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err)
{
	return read_text(text, len, true, out, err);
}

static int read_file(const char *path, bool hcq, struct puzzle *out,
                     struct puz_error *err)
{
	struct puz_error dummy;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (err == NULL)
		err = &dummy;
	rc = slurp(path, &text, &len, err);
	if (rc != PUZ_OK)
		return rc;
	rc = read_text(text, len, hcq, out, err);
	free(text);
	return rc;
}

int puz_read_file(const char *path, struct puzzle *out, struct puz_error *err)
{
	return read_file(path, false, out, err);
}

int hcq_read_file(const char *path, struct puzzle *out, struct puz_error *err)
{
	return read_file(path, true, out, err);
}

/* ------------------------------------------------------------------ */
/* .hcq reader                                                         */

/* The current .hcq line with surrounding spaces and tabs cut off:
 * bytes [*b, *e) of ln->s. */
static void hcq_trim(const struct line *ln, size_t *b, size_t *e)
{
	size_t i = 0, j = ln->len;

	while (i < j && (ln->s[i] == ' ' || ln->s[i] == '\t'))
		i++;
	while (j > i && (ln->s[j - 1] == ' ' || ln->s[j - 1] == '\t'))
		j--;
	*b = i;
	*e = j;
}

static bool hcq_space(char c)
{
	return c == ' ' || c == '\t';
}

static const char *const hcq_edges[4] = {"top", "right", "bottom", "left"};

/* Cell (x, y) of the 5x5 tile for bit i of edge e, clockwise from the
 * top-left corner (DESIGN.md §3), y = 0 the top row. */
static void hcq_cell(int e, int i, int *x, int *y)
{
	switch (e) {
	case 0: *x = i, *y = 0; break;
	case 1: *x = 4, *y = i; break;
	case 2: *x = 4 - i, *y = 4; break;
	default: *x = 0, *y = 4 - i; break;
	}
}

static size_t hcq_skip(const char *s, size_t i, size_t e)
{
	while (i < e && hcq_space(s[i]))
		i++;
	return i;
}

/* A tile line `ID [b,b,b,b,b; ...]` (the current line, trimmed to
 * [b, e)) into piece 'pc'. */
static int hcq_tile(const struct line *ln, size_t b, size_t e,
                    struct puz_piece *pc, struct puz_error *err)
{
	static const char *const corner[4] = {
		"top-right", "bottom-right", "bottom-left", "top-left",
	};
	const char *s = ln->s;
	size_t i = b, id0, idn, n, off[4][5];
	int bits[4][5], g, k, x, y, rc;
	char id[40], sb[40];

	id0 = i;
	while (i < e && !hcq_space(s[i]) && strchr("[],;", s[i]) == NULL) {
		if (!name_char_ok(s[i]))
			return fail(err, ln->no, lcol(ln, i),
			            "tile id must be printable ASCII, found "
			            "'%s'",
			            show_char(sb, s + i, e - i));
		i++;
	}
	idn = i - id0;
	if (idn == 0)
		return fail(err, ln->no, lcol(ln, i),
		            "expected 'ID [b,b,b,b,b; b,b,b,b,b; b,b,b,b,b; "
		            "b,b,b,b,b]'");
	if (idn > PUZ_MAX_NAME - 1)
		return fail(err, ln->no, lcol(ln, id0),
		            "tile id is %zu bytes long, at most %d", idn,
		            PUZ_MAX_NAME - 1);
	show(id, s + id0, idn);
	i = hcq_skip(s, i, e);
	if (i == e || s[i] != '[')
		return fail(err, ln->no, lcol(ln, i),
		            "tile %s: expected '[' after the tile id", id);
	i++;
	for (g = 0; g < 4; g++) {
		for (k = 0; k < 5; k++) {
			i = hcq_skip(s, i, e);
			if (k > 0 && i < e && (s[i] == ';' || s[i] == ']'))
				return fail(err, ln->no, lcol(ln, i),
				            "tile %s: %s edge has %d bit%s, "
				            "expected 5",
				            id, hcq_edges[g], k, plural(k));
			if (k > 0 && i < e && s[i] != ',')
				return fail(err, ln->no, lcol(ln, i),
				            "tile %s: expected ',' between bits, "
				            "found '%s'",
				            id, show_char(sb, s + i, e - i));
			if (k > 0 && i < e)
				i = hcq_skip(s, i + 1, e);
			if (i == e)
				return fail(err, ln->no, lcol(ln, i),
				            "tile %s: line ends inside the "
				            "brackets",
				            id);
			for (n = 0; i + n < e && !hcq_space(s[i + n]) &&
			            s[i + n] != ',' && s[i + n] != ';' &&
			            s[i + n] != ']';
			     n++)
				;
			if (n != 1 || (s[i] != '0' && s[i] != '1'))
				return fail(err, ln->no, lcol(ln, i),
				            "tile %s: expected a bit 0 or 1, "
				            "found '%s'",
				            id,
				            n > 0 ? show(sb, s + i, n)
				                  : show_char(sb, s + i, e - i));
			bits[g][k] = s[i] == '1';
			off[g][k] = i++;
		}
		/* After five bits: ';' between edges, ']' after the last. */
		i = hcq_skip(s, i, e);
		if (i == e)
			return fail(err, ln->no, lcol(ln, i),
			            "tile %s: line ends inside the brackets",
			            id);
		if (s[i] == ',')
			return fail(err, ln->no, lcol(ln, i),
			            "tile %s: %s edge has more than 5 bits", id,
			            hcq_edges[g]);
		if (g < 3 && s[i] == ']')
			return fail(err, ln->no, lcol(ln, i),
			            "tile %s has %d edge%s, expected 4 (20 "
			            "bits)",
			            id, g + 1, plural(g + 1));
		if (g == 3 && s[i] == ';')
			return fail(err, ln->no, lcol(ln, i),
			            "tile %s has more than 4 edges (20 bits)",
			            id);
		if (s[i] != (g < 3 ? ';' : ']'))
			return fail(err, ln->no, lcol(ln, i),
			            "tile %s: expected '%c' after the %s edge",
			            id, g < 3 ? ';' : ']', hcq_edges[g]);
		i++;
	}
	i = hcq_skip(s, i, e);
	if (i != e)
		return fail(err, ln->no, lcol(ln, i),
		            "tile %s: unexpected text after ']'", id);
	/* Corner c is the last bit of edge c and the first of edge c+1. */
	for (g = 0; g < 4; g++)
		if (bits[g][4] != bits[(g + 1) % 4][0])
			return fail(err, ln->no, lcol(ln, off[(g + 1) % 4][0]),
			            "tile %s: %s corner is %d on the %s edge "
			            "but %d on the %s edge",
			            id, corner[g], bits[g][4], hcq_edges[g],
			            bits[(g + 1) % 4][0],
			            hcq_edges[(g + 1) % 4]);

	rc = puz_grid_init(&pc->shape, 5, 5, 1);
	if (rc != PUZ_OK)
		return fail_nomem(err);
	for (y = 1; y < 4; y++)
		for (x = 1; x < 4; x++)
			pc->shape.cells[puz_grid_index(&pc->shape, x, y, 0)] = 1;
	for (g = 0; g < 4; g++)
		for (k = 0; k < 5; k++) {
			hcq_cell(g, k, &x, &y);
			pc->shape.cells[puz_grid_index(&pc->shape, x, y, 0)] =
				(unsigned char)bits[g][k];
		}
	pc->name[0] = 'T';
	memcpy(pc->name + 1, s + id0, idn);
	pc->name[idn + 1] = '\0';
	pc->count = 1;
	return PUZ_OK;
}

/* Does trimmed line [b, e) start with header 'key' (e.g. "NAME:")? */
static bool hcq_key(const struct line *ln, size_t b, size_t e,
                    const char *key)
{
	size_t n = strlen(key);

	return e - b >= n && memcmp(ln->s + b, key, n) == 0;
}

static int parse_hcq(struct lexer *lx, struct pz *z, struct puz_error *err)
{
	static const char *const keys[4] = {"NAME:", "TYPE:", "COMMENT:",
	                                    "NUM_TILES:"};
	const struct line *ln = &lx->cur;
	int seen[4] = {0}, state = 0, ntiles = 0, x, y, k, rc;
	size_t b, e, i;
	char sb[40];

	for (;;) {
		rc = lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
		if (ln->eof)
			break;
		hcq_trim(ln, &b, &e);
		if (b == e)
			continue;
		if (state == 2)
			return fail(err, ln->no, lcol(ln, b),
			            "unexpected text after 'EOF'");
		if (state == 1) {
			if (e - b == 3 && memcmp(ln->s + b, "EOF", 3) == 0) {
				if (ntiles != 6)
					return fail(err, ln->no, lcol(ln, b),
					            "found %d tile%s, expected "
					            "6",
					            ntiles, plural(ntiles));
				state = 2;
				continue;
			}
			if (ntiles == 6)
				return fail(err, ln->no, lcol(ln, b),
				            "more than 6 tiles: expected 'EOF'");
			rc = pz_grow(z);
			if (rc != PUZ_OK)
				return fail_nomem(err);
			memset(&z->p.pieces[ntiles], 0, sizeof(struct puz_piece));
			rc = hcq_tile(ln, b, e, &z->p.pieces[ntiles], err);
			if (rc != PUZ_OK)
				return rc;
			z->p.npieces = (size_t)++ntiles;
			z->lines[ntiles - 1] = ln->no;
			for (k = 0; k < ntiles - 1; k++)
				if (strcmp(z->p.pieces[k].name,
				           z->p.pieces[ntiles - 1].name) == 0)
					return fail(err, ln->no, lcol(ln, b),
					            "duplicate tile id '%s' "
					            "(first on line %d)",
					            z->p.pieces[k].name + 1,
					            z->lines[k]);
			continue;
		}
		/* header */
		if (e - b == 22 &&
		    memcmp(ln->s + b, "TILE_ID_BORDER_PATTERN", 22) == 0) {
			if (!seen[3])
				return fail(err, ln->no, lcol(ln, b),
				            "missing 'NUM_TILES: 6' before "
				            "TILE_ID_BORDER_PATTERN");
			state = 1;
			continue;
		}
		for (k = 0; k < 4; k++)
			if (hcq_key(ln, b, e, keys[k]))
				break;
		if (k == 4) {
			i = b;
			while (i < e && !hcq_space(ln->s[i]))
				i++;
			return fail(err, ln->no, lcol(ln, b),
			            "unknown header '%s': expected NAME:, "
			            "TYPE:, COMMENT:, NUM_TILES: or "
			            "TILE_ID_BORDER_PATTERN",
			            show(sb, ln->s + b, i - b));
		}
		if (seen[k])
			return fail(err, ln->no, lcol(ln, b),
			            "duplicate '%s' line (first on line %d)",
			            keys[k], seen[k]);
		seen[k] = ln->no;
		i = b + strlen(keys[k]);
		while (i < e && hcq_space(ln->s[i]))
			i++;
		if (k == 0) {
			size_t j;

			if (e - i > PUZ_MAX_TITLE)
				return fail(err, ln->no, lcol(ln, i),
				            "name is %zu bytes long, at most %d",
				            e - i, PUZ_MAX_TITLE);
			for (j = i; j < e; j++)
				if (ln->s[j] == '\t')
					return fail(err, ln->no, lcol(ln, j),
					            "tab character in the name");
			memcpy(z->p.name, ln->s + i, e - i);
			z->p.name[e - i] = '\0';
		} else if (k == 3) {
			uint64_t v;

			if (i == e)
				return fail(err, ln->no, lcol(ln, i),
				            "expected a number after "
				            "'NUM_TILES:'");
			if (!parse_u64(ln->s + i, e - i, &v))
				return fail(err, ln->no, lcol(ln, i),
				            "expected a number after "
				            "'NUM_TILES:', found '%s'",
				            show(sb, ln->s + i, e - i));
			if (v != 6)
				return fail(err, ln->no, lcol(ln, i),
				            "NUM_TILES is %s, expected 6 (one "
				            "tile per face of the cube)",
				            show(sb, ln->s + i, e - i));
		}
	}
	if (state == 0)
		return fail(err, ln->no, ln->eof_col,
		            "missing 'TILE_ID_BORDER_PATTERN' line");
	if (state == 1) {
		if (ntiles != 6)
			return fail(err, ln->no, ln->eof_col,
			            "found %d tile%s, expected 6", ntiles,
			            plural(ntiles));
		return fail(err, ln->no, ln->eof_col, "missing 'EOF' line");
	}

	/* The 5x5x5 shell: cells with a coordinate 0 or 4. */
	if (puz_grid_init(&z->p.goal, 5, 5, 5) != PUZ_OK)
		return fail_nomem(err);
	for (k = 0; k < 5; k++)
		for (y = 0; y < 5; y++)
			for (x = 0; x < 5; x++)
				z->p.goal.cells[puz_grid_index(&z->p.goal, x, y, k)] =
					x == 0 || x == 4 || y == 0 || y == 4 ||
					k == 0 || k == 4;
	return PUZ_OK;
}

/* Both readers: check the text, parse into a scratch puzzle, hand it
 * over only when all went well. */
static int read_text(const char *text, size_t len, bool hcq,
                     struct puzzle *out, struct puz_error *err)
{
	struct puz_error dummy;
	struct lexer lx;
	struct pz z;
	int rc;

	assert(out != NULL);
	assert(text != NULL || len == 0);
	if (err == NULL)
		err = &dummy;
	rc = check_whole(text, len, err);
	if (rc != PUZ_OK)
		return rc;
	memset(&z, 0, sizeof(z));
	lx_init(&lx, text, len, hcq);
	rc = hcq ? parse_hcq(&lx, &z, err) : parse_puz(&lx, &z, err);
	if (rc != PUZ_OK) {
		pz_free(&z);
		return rc;
	}
	free(z.lines);
	*out = z.p;
	return PUZ_OK;
}

/* ------------------------------------------------------------------ */
/* .puz writer                                                         */

static int write_shape(FILE *fp, const struct grid *g)
{
	char row[PUZ_MAX_DIM + 1];
	int x, y, z;

	assert(g->nx >= 1 && g->nx <= PUZ_MAX_DIM && g->ny >= 1 &&
	       g->nz >= 1 && g->cells != NULL);
	for (z = 0; z < g->nz; z++) {
		if (z > 0 && fputc('\n', fp) == EOF)
			return PUZ_EIO;
		for (y = 0; y < g->ny; y++) {
			for (x = 0; x < g->nx; x++)
				row[x] = g->cells[puz_grid_index(g, x, y, z)] ? '#'
				                                          : '.';
			row[g->nx] = '\n';
			if (fwrite(row, 1, (size_t)g->nx + 1, fp) !=
			    (size_t)g->nx + 1)
				return PUZ_EIO;
		}
	}
	return PUZ_OK;
}

#ifndef NDEBUG /* only asserts use these */
/* Whether a title can be written so that it reads back the same: it is
 * kept whole as the rest of the `name` line. (UTF-8 validity is the
 * caller's business; this catches what would break the line.) */
static bool title_ok(const char *t)
{
	size_t i, n = strlen(t);

	if (n > PUZ_MAX_TITLE || (n > 0 && (t[0] == ' ' || t[n - 1] == ' ')))
		return false;
	for (i = 0; i < n; i++)
		if ((unsigned char)t[i] < 0x20 || t[i] == 0x7F)
			return false;
	return true;
}

static bool piece_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > PUZ_MAX_NAME)
		return false;
	for (i = 0; i < n; i++)
		if (!name_char_ok(name[i]))
			return false;
	return true;
}
#endif

/*
 * Write 'p' as .puz text, LF only: `puzzle v1`, then `name`, `size` and
 * `seed` when set, the goal, and each piece (` count K` only when K > 1),
 * one blank line between blocks and between sections. The puzzle must be
 * one a reader could have produced (asserted where cheap). Flushes 'fp' so
 * that a full disk shows up here; PUZ_EIO with errno as stdio left it.
 */
int puz_write(FILE *fp, const struct puzzle *p)
{
	size_t i;

	assert(fp != NULL && p != NULL);
	assert(title_ok(p->name));
	for (int k = 0; k < 3; k++)
		assert(p->size[k] >= 0 && p->size[k] <= PUZ_MAX_DIM);
	if (fputs("puzzle v1\n", fp) == EOF)
		return PUZ_EIO;
	if (p->name[0] != '\0' && fprintf(fp, "name %s\n", p->name) < 0)
		return PUZ_EIO;
	if (p->size[0] != 0 && p->size[0] == p->size[1] &&
	    p->size[1] == p->size[2]) {
		if (fprintf(fp, "size %d\n", p->size[0]) < 0)
			return PUZ_EIO;
	} else if (p->size[0] != 0 &&
	           fprintf(fp, "size %d %d %d\n", p->size[0], p->size[1],
	                   p->size[2]) < 0) {
		return PUZ_EIO;
	}
	if (p->has_seed && fprintf(fp, "seed %" PRIu64 "\n", p->seed) < 0)
		return PUZ_EIO;
	if (fprintf(fp, "goal %d %d %d\n", p->goal.nx, p->goal.ny,
	            p->goal.nz) < 0)
		return PUZ_EIO;
	if (write_shape(fp, &p->goal) != PUZ_OK)
		return PUZ_EIO;
	for (i = 0; i < p->npieces; i++) {
		const struct puz_piece *pc = &p->pieces[i];

		assert(pc->count >= 1 && piece_name_ok(pc->name));
		if (fprintf(fp, "\npiece %s %d %d %d", pc->name, pc->shape.nx,
		            pc->shape.ny, pc->shape.nz) < 0)
			return PUZ_EIO;
		if (pc->count > 1 && fprintf(fp, " count %u", pc->count) < 0)
			return PUZ_EIO;
		if (fputc('\n', fp) == EOF)
			return PUZ_EIO;
		if (write_shape(fp, &pc->shape) != PUZ_OK)
			return PUZ_EIO;
	}
	if (fflush(fp) == EOF)
		return PUZ_EIO;
	return PUZ_OK;
}
