/*
 * puzread.c: the .puz reader: the header lines, the goal and the pieces,
 * each shape as blocks of rows of '#' and '.'. It walks the text with the
 * line lexer of lex.c, whose header states the workload and the text rules
 * both readers share.
 *
 * Rules where DESIGN.md §3 leaves room (the README repeats them):
 *
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
 */
#include "formats/fmt_int.h"

#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* .puz keywords                                                       */

enum kw { KW_NONE, KW_PUZZLE, KW_NAME, KW_SIZE, KW_SEED, KW_GOAL, KW_PIECE };

static const char *const kw_words[] = {
	"", "puzzle", "name", "size", "seed", "goal", "piece",
};

/* The header keyword a line starts with, if any. */
static enum kw keyword_of(const struct line *ln)
{
	struct tok t = {0};
	size_t pos = 0, i;

	if (ln->eof || !fmt_tok_next(ln, &pos, &t))
		return KW_NONE;
	for (i = 1; i < sizeof(kw_words) / sizeof(kw_words[0]); i++)
		if (fmt_tok_is(&t, kw_words[i]))
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
		return fmt_fail(err, ln->no, fmt_lcol(ln, i),
		                "expected '#' or '.', found '%s'",
		                fmt_show_char(b, ln->s + i, ln->len - i));
	}
	if (ln->len != nx)
		return fmt_fail(err, ln->no,
		                fmt_lcol(ln, ln->len < nx ? ln->len : nx),
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
		rc = fmt_lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
		if (z > 0) {
			/* The line after block z's last row: one blank line,
			 * then the rows of block z+1. */
			if (is_rowish(ln))
				return fmt_fail(err, ln->no, 1,
				                "%s block %d has more than %d "
				                "row%s, expected %d (blocks "
				                "are separated by a blank "
				                "line)",
				                what, z, ny, fmt_plural(ny),
				                ny);
			if (ln->eof || keyword_of(ln) != KW_NONE)
				return fmt_fail(err, ln->no, fmt_lcol(ln, 0),
				                "%s has %d block%s, expected "
				                "%d",
				                what, z, fmt_plural(z), nz);
			if (!is_blank(ln))
				return fmt_fail(err, ln->no, 1,
				                "expected a blank line after "
				                "%s block %d, found '%s'",
				                what, z,
				                fmt_show(b, ln->s, ln->len));
			blanks = 1;
			second = 0;
			for (;;) {
				rc = fmt_lx_next(lx, err);
				if (rc != PUZ_OK)
					return rc;
				if (!is_blank(ln))
					break;
				if (blanks++ == 1)
					second = ln->no;
			}
			if (ends_rows(ln))
				return fmt_fail(err, ln->no, fmt_lcol(ln, 0),
				                "%s has %d block%s, expected "
				                "%d",
				                what, z, fmt_plural(z), nz);
			if (blanks > 1)
				return fmt_fail(err, second, 1,
				                "blocks are separated by "
				                "exactly one blank line, found "
				                "%d",
				                blanks);
		}
		for (y = 0; y < ny; y++) {
			if (y > 0) {
				rc = fmt_lx_next(lx, err);
				if (rc != PUZ_OK)
					return rc;
			}
			if (ends_rows(ln))
				return fmt_fail(err, ln->no, fmt_lcol(ln, 0),
				                "%s block %d has %d row%s, "
				                "expected %d",
				                what, z + 1, y, fmt_plural(y),
				                ny);
			rc = read_row(ln, g, y, z, err);
			if (rc != PUZ_OK)
				return rc;
		}
	}
	rc = fmt_lx_next(lx, err);
	if (rc != PUZ_OK)
		return rc;
	if (is_rowish(ln))
		return fmt_fail(err, ln->no, 1,
		                "%s block %d has more than %d row%s, expected "
		                "%d",
		                what, nz, ny, fmt_plural(ny), ny);
	while (is_blank(ln)) {
		rc = fmt_lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
	}
	if (is_rowish(ln))
		return fmt_fail(err, ln->no, 1,
		                "%s has more than %d block%s, expected %d",
		                what, nz, fmt_plural(nz), nz);
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
		if (!fmt_tok_next(ln, pos, &t))
			return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
			                "expected '%s'", usage);
		if (i == 0)
			first = t.off;
		snprintf(name, sizeof(name), "%s %c dimension", what, axes[i]);
		rc = fmt_parse_int_field(ln, &t, name, 1, PUZ_MAX_DIM, &d[i],
		                         err);
		if (rc != PUZ_OK)
			return rc;
	}
	/* Each factor is at most PUZ_MAX_DIM, so this cannot overflow;
	 * puz_box_cells checks anyway. */
	if (!puz_box_cells(d[0], d[1], d[2], &n) || n > PUZ_MAX_CELLS)
		return fmt_fail(err, ln->no, fmt_lcol(ln, first),
		                "%s is %dx%dx%d = %zu cells, more than %d",
		                what, d[0], d[1], d[2], n, PUZ_MAX_CELLS);
	return PUZ_OK;
}

/* ------------------------------------------------------------------ */
/* .puz reader                                                         */

/* `name TEXT`: the rest of the line after 'name' and its spaces. */
static int read_title(const struct line *ln, struct puzzle *p,
                      struct puz_error *err)
{
	size_t i = 4;

	while (i < ln->len && ln->s[i] == ' ')
		i++;
	if (i == ln->len)
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected 'name TEXT'");
	if (ln->len - i > PUZ_MAX_TITLE)
		return fmt_fail(err, ln->no, fmt_lcol(ln, i),
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

	(void)fmt_tok_next(ln, &pos, &t[0]);
	while (n < 4 && fmt_tok_next(ln, &pos, &t[n]))
		n++;
	if (n == 0 || n == 2)
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '%s'", usage);
	if (n == 4)
		return fmt_fail(err, ln->no, fmt_lcol(ln, t[3].off),
		                "unexpected '%s' after '%s'",
		                fmt_show(b, t[3].s, t[3].len), usage);
	for (size_t i = 0; i < n; i++) {
		int rc = fmt_parse_int_field(ln, &t[i], "size", 1, PUZ_MAX_DIM,
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
	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '%s'", usage);
	if (fmt_tok_next(ln, &pos, &extra))
		return fmt_fail(err, ln->no, fmt_lcol(ln, extra.off),
		                "unexpected '%s' after '%s'",
		                fmt_show(b, extra.s, extra.len), usage);
	if (fmt_parse_u64(t.s, t.len, &v)) {
		p->seed = v;
		p->has_seed = true;
		return PUZ_OK;
	}
	if (fmt_looks_numeric(t.s, t.len))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
		                "seed %s out of range 0..%" PRIu64,
		                fmt_show(b, t.s, t.len), UINT64_MAX);
	return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
	                "expected a number for the seed, found '%s'",
	                fmt_show(b, t.s, t.len));
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
	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &nt))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" PIECE_USAGE "'");
	namecol = kcol = fmt_lcol(ln, nt.off);
	for (i = 0; i < nt.len; i++)
		if (!fmt_name_char_ok(nt.s[i]))
			return fmt_fail(err, ln->no, fmt_lcol(ln, nt.off + i),
			                "piece name must be printable ASCII "
			                "without spaces, found '%s'",
			                fmt_show_char(b, nt.s + i, nt.len - i));
	if (nt.len > PUZ_MAX_NAME)
		return fmt_fail(err, ln->no, namecol,
		                "piece name is %zu bytes long, at most %d",
		                nt.len, PUZ_MAX_NAME);
	memcpy(pc.name, nt.s, nt.len);
	pc.name[nt.len] = '\0';
	for (i = 0; i < z->p.npieces; i++)
		if (strcmp(z->p.pieces[i].name, pc.name) == 0)
			return fmt_fail(err, ln->no, namecol,
			                "duplicate piece name '%s' (first on "
			                "line %d)",
			                pc.name, z->lines[i]);
	snprintf(what, sizeof(what), "piece '%s'", pc.name);
	rc = read_dims(ln, &pos, what, PIECE_USAGE, d, err);
	if (rc != PUZ_OK)
		return rc;
	if (fmt_tok_next(ln, &pos, &t)) {
		if (!fmt_tok_is(&t, "count"))
			return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
			                "unexpected '%s': expected "
			                "'" PIECE_USAGE "'",
			                fmt_show(b, t.s, t.len));
		if (!fmt_tok_next(ln, &pos, &kt))
			return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
			                "expected a number after 'count'");
		kcol = fmt_lcol(ln, kt.off);
		if (!fmt_looks_numeric(kt.s, kt.len))
			return fmt_fail(err, ln->no, kcol,
			                "expected a number after 'count', "
			                "found '%s'",
			                fmt_show(b, kt.s, kt.len));
		if (kt.s[0] == '-' ||
		    (fmt_parse_u64(kt.s, kt.len, &k) && k == 0))
			return fmt_fail(err, ln->no, kcol,
			                "count %s: must be at least 1",
			                fmt_show(b, kt.s, kt.len));
		if (!fmt_parse_u64(kt.s, kt.len, &k))
			k = UINT64_MAX; /* too many pieces, said below */
		if (fmt_tok_next(ln, &pos, &t))
			return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
			                "unexpected '%s' after the count: "
			                "expected '" PIECE_USAGE "'",
			                fmt_show(b, t.s, t.len));
	}
	if (k > (uint64_t)(PUZ_MAX_PIECES - z->total))
		return fmt_fail(err, ln->no, kcol,
		                "more than %d pieces (counting each copy)",
		                PUZ_MAX_PIECES);
	pc.count = (unsigned)k;
	if (puz_grid_init(&pc.shape, d[0], d[1], d[2]) != PUZ_OK)
		return fmt_fail_nomem(err);
	rc = read_shape(lx, &pc.shape, what, err);
	if (rc == PUZ_OK) {
		vol = puz_grid_volume(&pc.shape);
		gvol = puz_grid_volume(&z->p.goal);
		if (vol == 0)
			rc = fmt_fail(err, line, namecol, "%s has no cells",
			              what);
		else if (vol > gvol)
			rc = fmt_fail(err, line, namecol,
			              "%s has %zu cells, more than the goal's "
			              "%zu",
			              what, vol, gvol);
	}
	if (rc == PUZ_OK && fmt_pz_grow(z) != PUZ_OK)
		rc = fmt_fail_nomem(err);
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
		return fmt_fail(err, ln->no, 1,
		                "duplicate '%s' line (first on line %d)",
		                kw_words[kw], seen[kw]);
	case KW_NAME:
	case KW_SIZE:
	case KW_SEED:
		return fmt_fail(err, ln->no, 1, "'%s' must come before 'goal'",
		                kw_words[kw]);
	default:
		return fmt_fail(err, ln->no, 1,
		                "unexpected text after the last block: "
		                "expected '" PIECE_USAGE "' or end of file");
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
		rc = fmt_lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
	} while (is_blank(ln));
	if (ln->eof)
		return fmt_fail(err, ln->no, ln->eof_col,
		                "expected 'puzzle v1', found end of file");
	if (keyword_of(ln) != KW_PUZZLE)
		return fmt_fail(err, ln->no, 1,
		                "expected 'puzzle v1' as the first line");
	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected 'puzzle v1'");
	if (!fmt_tok_is(&t, "v1"))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
		                "unsupported version '%s': expected 'puzzle "
		                "v1'",
		                fmt_show(b, t.s, t.len));
	if (fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
		                "unexpected '%s' after 'puzzle v1'",
		                fmt_show(b, t.s, t.len));
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
			rc = fmt_lx_next(lx, err);
			if (rc != PUZ_OK)
				return rc;
		} while (is_blank(ln));
		if (ln->eof)
			return fmt_fail(err, ln->no, ln->eof_col,
			                "missing 'goal' line");
		kw = keyword_of(ln);
		if (kw == KW_GOAL)
			break;
		switch (kw) {
		case KW_NAME:
		case KW_SIZE:
		case KW_SEED:
			if (seen[kw])
				return fmt_fail(err, ln->no, 1,
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
			return fmt_fail(err, ln->no, 1,
			                "missing 'goal' line before the first "
			                "piece");
		case KW_PUZZLE:
			return misplaced(ln, kw, seen, err);
		default:
			if (is_rowish(ln))
				return fmt_fail(err, ln->no, 1,
				                "rows before the 'goal' line: "
				                "expected 'goal X Y Z'");
			pos = 0;
			(void)fmt_tok_next(ln, &pos, &t);
			return fmt_fail(err, ln->no, 1,
			                "unknown line '%s': expected 'name', "
			                "'size', 'seed' or 'goal'",
			                fmt_show(b, t.s, t.len));
		}
	}

	/* goal X Y Z and its blocks */
	gline = seen[KW_GOAL] = ln->no;
	pos = 0;
	(void)fmt_tok_next(ln, &pos, &t);
	rc = read_dims(ln, &pos, "goal", "goal X Y Z", d, err);
	if (rc != PUZ_OK)
		return rc;
	if (fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
		                "unexpected '%s' after 'goal X Y Z'",
		                fmt_show(b, t.s, t.len));
	if (puz_grid_init(&z->p.goal, d[0], d[1], d[2]) != PUZ_OK)
		return fmt_fail_nomem(err);
	rc = read_shape(lx, &z->p.goal, "goal", err);
	if (rc != PUZ_OK)
		return rc;
	if (puz_grid_volume(&z->p.goal) == 0)
		return fmt_fail(err, gline, 1, "goal has no cells");

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
		return fmt_fail(err, ln->no, ln->eof_col,
		                "no pieces: expected '" PIECE_USAGE "'");
	return PUZ_OK;
}

int puz_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err)
{
	return fmt_read_mem(text, len, false, parse_puz, out, err);
}

int puz_read_file(const char *path, struct puzzle *out, struct puz_error *err)
{
	return fmt_read_file(path, false, parse_puz, out, err);
}
