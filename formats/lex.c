/*
 * lex.c: what the .puz and .hcq readers share: error messages, UTF-8 and
 * columns, reading a whole file, the line lexer, space-separated tokens
 * and numbers, and the frame that checks a text, parses it into a scratch
 * puzzle and hands it over only when all went well.
 *
 * Workload: files written by hand or by the generator, a few KiB each.
 * Both readers take the whole text in memory (a file is read in full
 * first) and walk it one line at a time; clarity of the error message
 * matters more than speed. Text is capped at PUZ_TEXT_MAX bytes, which
 * also bounds memory: every cell of every shape costs a byte of text, so
 * no header can make the reader hold more than one grid it has not seen
 * rows for, and that grid is at most PUZ_MAX_CELLS bytes.
 *
 * Rules where DESIGN.md §3 leaves room (docs/formats.md repeats them; the .puz
 * rules are at the top of puzread.c, the .hcq rules at the top of hcq.c):
 *
 * - Text: UTF-8 without NUL bytes or control characters. A file with a
 *   NUL anywhere is "not a text file". Lines end in LF or CRLF (mixed is
 *   fine); a CR not followed by LF is an error; the last line may lack its
 *   line end. A UTF-8 byte-order mark at the very start is skipped.
 *
 * Line and column numbers in errors are 1-based; a column counts UTF-8
 * characters, not bytes. The end of the text is reported on the line
 * after the last line end (column 1), or after the last character when
 * the last line has no line end.
 */
#include "formats/fmt_int.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------ */
/* Errors and text helpers                                             */

int fmt_fail(struct puz_error *err, int line, int col, const char *fmt, ...)
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

int fmt_fail_nomem(struct puz_error *err)
{
	err->line = 0;
	err->col = 0;
	snprintf(err->msg, sizeof(err->msg), "out of memory");
	return PUZ_ENOMEM;
}

int fmt_fail_errno(struct puz_error *err, int e)
{
	if (e == ENOMEM)
		return fmt_fail_nomem(err);
	fmt_fail(err, 0, 0, "%s", strerror(e ? e : EIO));
	return PUZ_EIO;
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
const char *fmt_show(char buf[40], const char *s, size_t len)
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

/* Show the one character at s[0..n), n > 0: a control character as an
 * escape (\n, \t, \r, \xNN), so that an error stays one line. */
const char *fmt_show_char(char buf[40], const char *s, size_t n)
{
	uint32_t cp;
	unsigned char c = (unsigned char)s[0];
	size_t k = utf8_len((const unsigned char *)s, n, &cp);

	if (c < 0x20 || c == 0x7f) {
		if (c == '\n' || c == '\t' || c == '\r')
			snprintf(buf, 40, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else
			snprintf(buf, 40, "\\x%02x", c);
		return buf;
	}
	return fmt_show(buf, s, k > 0 ? k : 1);
}

/* ------------------------------------------------------------------ */
/* Reading a whole file                                                */

/* Read all of 'path' into a new buffer '*text' of '*len' bytes (NUL
 * added, not counted). PUZ_EIO with strerror text and line 0 when the
 * file cannot be opened or read (PUZ_ENOMEM when for want of memory);
 * PUZ_EPARSE when it is too large. */
static int slurp(const char *path, char **text, size_t *len,
                 struct puz_error *err)
{
	FILE *fp;
	struct stat st;
	char *buf = NULL, *nb;
	size_t cap = 0, n = 0, got;
	int rc = PUZ_OK;

	errno = 0;
	fp = fopen(path, "rb");
	if (fp == NULL)
		return fmt_fail_errno(err, errno);
	/* Refuse a large regular file before reading a byte of it; the read
	 * loop below still stops pipes and devices at the same size. */
	if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uintmax_t)st.st_size > (uintmax_t)PUZ_TEXT_MAX) {
		rc = fmt_fail(err, 0, 0, "file is larger than %zu MiB",
		              PUZ_TEXT_MAX >> 20);
		goto out;
	}
	for (;;) {
		if (n == cap) {
			size_t ncap = cap == 0 ? 65536 : cap * 2;

			if (ncap > PUZ_TEXT_MAX + 1)
				ncap = PUZ_TEXT_MAX + 1;
			if (ncap == cap) {
				rc = fmt_fail(err, 0, 0,
				              "file is larger than %zu MiB",
				              PUZ_TEXT_MAX >> 20);
				goto out;
			}
			nb = realloc(buf, ncap + 1);
			if (nb == NULL) {
				rc = fmt_fail_nomem(err);
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
				rc = fmt_fail_errno(err, errno);
				goto out;
			}
			break;
		}
	}
	if (n > PUZ_TEXT_MAX) {
		rc = fmt_fail(err, 0, 0, "file is larger than %zu MiB",
		              PUZ_TEXT_MAX >> 20);
		goto out;
	}
out:
	errno = 0;
	if (fclose(fp) != 0 && rc == PUZ_OK)
		rc = fmt_fail_errno(err, errno);
	if (rc != PUZ_OK) {
		free(buf);
		return rc;
	}
	if (buf == NULL) {
		/* Unreachable: the loop allocates before its first read. */
		return fmt_fail_nomem(err);
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return PUZ_OK;
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */

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
			return fmt_fail(err, ln->no, col_at(ln->s, i),
			                "invalid UTF-8 (byte 0x%02X)", s[i]);
		if (cp == '\r')
			return fmt_fail(err, ln->no, col_at(ln->s, i),
			                "carriage return (CR) not followed by "
			                "a line feed");
		if (cp == '\t' && !tab_ok)
			return fmt_fail(err, ln->no, col_at(ln->s, i),
			                "tab character: use spaces");
		if ((cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F))
			return fmt_fail(err, ln->no, col_at(ln->s, i),
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
int fmt_lx_next(struct lexer *lx, struct puz_error *err)
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
				return fmt_fail(err, ln->no, 1,
				                "line has only spaces: a blank "
				                "line must be empty");
			return fmt_fail(err, ln->no, 1,
			                "unexpected space at the start of the "
			                "line");
		}
		if (ln->len > 0 && ln->s[ln->len - 1] == ' ') {
			size_t i = ln->len;

			while (ln->s[i - 1] == ' ')
				i--;
			return fmt_fail(err, ln->no, col_at(ln->s, i),
			                "trailing space at the end of the "
			                "line");
		}
		return PUZ_OK;
	}
}

/* Where to report the first error in the current line at byte 'off'. */
int fmt_lcol(const struct line *ln, size_t off)
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
		return fmt_fail(err, 0, 0, "empty file");
	if (len > PUZ_TEXT_MAX)
		return fmt_fail(err, 0, 0, "text is larger than %zu MiB",
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
	return fmt_fail(err, no, (int)(z - ls) + 1,
	                "not a text file (NUL byte)");
}

/* ------------------------------------------------------------------ */
/* Tokens, numbers and names                                           */

/* Next space-separated field of 'ln' from '*pos'; false at the end. */
bool fmt_tok_next(const struct line *ln, size_t *pos, struct tok *t)
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

bool fmt_tok_is(const struct tok *t, const char *word)
{
	size_t n = strlen(word);

	return t->len == n && memcmp(t->s, word, n) == 0;
}

/* Decimal digits only, no sign, value fits in 64 bits. */
bool fmt_parse_u64(const char *s, size_t len, uint64_t *v)
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
bool fmt_looks_numeric(const char *s, size_t len)
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
int fmt_parse_int_field(const struct line *ln, const struct tok *t,
                        const char *what, int lo, int hi, int *out,
                        struct puz_error *err)
{
	uint64_t v;
	char b[40];

	if (fmt_parse_u64(t->s, t->len, &v) && v >= (uint64_t)lo &&
	    v <= (uint64_t)hi) {
		*out = (int)v;
		return PUZ_OK;
	}
	if (fmt_looks_numeric(t->s, t->len))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t->off),
		                "%s %s out of range %d..%d", what,
		                fmt_show(b, t->s, t->len), lo, hi);
	return fmt_fail(err, ln->no, fmt_lcol(ln, t->off),
	                "expected a number for the %s, found '%s'", what,
	                fmt_show(b, t->s, t->len));
}

const char *fmt_plural(int n)
{
	return n == 1 ? "" : "s";
}

bool fmt_name_char_ok(char c)
{
	return c > ' ' && c <= '~';
}

/* ------------------------------------------------------------------ */
/* Reading into a scratch puzzle                                       */

static void pz_free(struct pz *z)
{
	puz_clear(&z->p);
	free(z->lines);
	z->lines = NULL;
	z->cap = 0;
}

/* Room for one more piece. */
int fmt_pz_grow(struct pz *z)
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

/* Both readers: check the text, parse into a scratch puzzle, hand it
 * over only when all went well. */
int fmt_read_mem(const char *text, size_t len, bool hcq, fmt_parser *parse,
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
	rc = parse(&lx, &z, err);
	if (rc != PUZ_OK) {
		pz_free(&z);
		return rc;
	}
	free(z.lines);
	*out = z.p;
	return PUZ_OK;
}

int fmt_read_file(const char *path, bool hcq, fmt_parser *parse,
                  struct puzzle *out, struct puz_error *err)
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
	rc = fmt_read_mem(text, len, hcq, parse, out, err);
	free(text);
	return rc;
}
