/*
 * fmt_int.h: internals shared by the files of formats/: lex.c (errors,
 * text, the line lexer, tokens, numbers, the reading frame), puzread.c,
 * hcq.c and puzwrite.c. Not part of the public API.
 */
#ifndef CUBEGEN_FMT_INT_H
#define CUBEGEN_FMT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/puz.h"

/* 64 MiB: a size-64 generated cube is under 1 MiB of text, so this only
 * stops a wrong file (a disk image, /dev/zero) before it eats memory. */
#define PUZ_TEXT_MAX ((size_t)64 << 20)

#if defined(__GNUC__)
#define PUZ_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define PUZ_PRINTF(f, a)
#endif

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

struct tok {
	const char *s; /* first byte */
	size_t len;    /* bytes */
	size_t off;    /* offset in the line */
};

/* A puzzle being read: the result, and where each piece was declared. */
struct pz {
	struct puzzle p; /* what has been read so far, owned */
	size_t cap;      /* entries allocated in p.pieces and lines */
	int *lines;      /* line of each piece header, for duplicate names */
	unsigned total;  /* pieces counted with multiplicity, a count range
	                  * at its most */
	bool goal_only;  /* a .puz file may have no piece (puz_read_goal_file) */
};

/* Errors: set '*err' and return PUZ_EPARSE (the message is cut to fit),
 * or set "out of memory" at line 0 and return PUZ_ENOMEM. */
PUZ_PRINTF(4, 5)
int fmt_fail(struct puz_error *err, int line, int col, const char *fmt, ...);
int fmt_fail_nomem(struct puz_error *err);
/* A file that could not be opened or read, errno 'e' (0: EIO): its text
 * at line 0 and PUZ_EIO, or, for ENOMEM, fmt_fail_nomem()'s (out of
 * memory is no fault of the file). */
int fmt_fail_errno(struct puz_error *err, int e);

/* s[0..len) for a message in 'buf', cut with "..." after 32 bytes; the
 * one character at s[0..n) of a checked line. Both return 'buf'. */
const char *fmt_show(char buf[40], const char *s, size_t len);
const char *fmt_show_char(char buf[40], const char *s, size_t n);

/* Lines: make the next line of 'lx' current (lx->cur; eof at the end);
 * the column to report an error at byte 'off' of a line. */
int fmt_lx_next(struct lexer *lx, struct puz_error *err);
int fmt_lcol(const struct line *ln, size_t off);

/* Tokens and numbers (.puz header lines, NUM_TILES:). */
bool fmt_tok_next(const struct line *ln, size_t *pos, struct tok *t);
bool fmt_tok_is(const struct tok *t, const char *word);
bool fmt_parse_u64(const char *s, size_t len, uint64_t *v);
bool fmt_looks_numeric(const char *s, size_t len);
int fmt_parse_int_field(const struct line *ln, const struct tok *t,
                        const char *what, int lo, int hi, int *out,
                        struct puz_error *err);

/* "" for 1, "s" otherwise. */
const char *fmt_plural(int n);
/* Whether 'c' may stand in a piece name or tile id: printable ASCII, not
 * a space. */
bool fmt_name_char_ok(char c);

/* Room for one more piece in z->p.pieces and z->lines. PUZ_ENOMEM. */
int fmt_pz_grow(struct pz *z);

/* A format's parser: reads the lines of 'lx' into 'z', which the caller
 * frees on failure. */
typedef int fmt_parser(struct lexer *lx, struct pz *z, struct puz_error *err);

/* Read 'text' (or the file 'path', read in full first) with 'parse',
 * lexing by .hcq rules when 'hcq'; '*out' as for puz_read_mem(). */
int fmt_read_mem(const char *text, size_t len, bool hcq, fmt_parser *parse,
                 struct puzzle *out, struct puz_error *err);
int fmt_read_file(const char *path, bool hcq, fmt_parser *parse,
                  struct puzzle *out, struct puz_error *err);

#endif
