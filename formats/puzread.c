/*
 * puzread.c: the .puz reader: the header lines, the goal and the pieces,
 * each shape as blocks of rows of cell characters, and the lines of
 * colour puzzles (colour, match, region, distinct). It walks the text with
 * the line lexer of lex.c, whose header states the workload and the text
 * rules both readers share.
 *
 * Rules where DESIGN.md §3 leaves room (docs/formats.md repeats them):
 *
 * - .puz comments: a line whose first byte is ';' is skipped wherever it
 *   is, and never counts as a row or a blank line. Tabs are allowed only
 *   in comments. Other lines may not start or end with a space; fields of
 *   a header line are separated by one or more spaces.
 * - .puz order: the first line that is not blank or a comment is exactly
 *   `puzzle v1`. Then `name TEXT`, `size N` (or `size X Y Z`) and
 *   `seed S`, each optional and at most once, in any order, all before
 *   the one `goal X Y Z`. Then
 *   one or more `piece NAME X Y Z [count K | count MIN..MAX] [weight W]
 *   [group G]` (the last two for the disassembler). Any number
 *   of blank lines (including none) may separate these sections; inside a
 *   shape, blocks are separated by exactly one blank line.
 * - .puz cells: '.' none, '#' a plain cell, 'a'..'z' a cell of that
 *   colour, and in the goal only '+' an optional plain cell and 'A'..'Z'
 *   an optional cell of colour 'a'..'z'.
 * - .puz colour lines, anywhere after `puzzle v1` between sections:
 *   `colour c RRGGBB` (a letter, six hex digits of either case; once per
 *   letter), `match P G` (piece colour P may lie on goal colour G; repeats
 *   are harmless; checked at the end of the file: some piece cell has
 *   colour P and some goal cell colour G), `region NAME` and blocks the
 *   size of the goal ('#' a member, which must be a goal cell, '.' not;
 *   after the goal; names as piece names, distinct, not `faces`), and
 *   `distinct NAME...` (regions defined on earlier lines, or `faces`).
 * - A row may spell a keyword ("seed" in a 4-wide shape): inside a shape,
 *   a line is a header only when it cannot be a row, that is when it has a
 *   space or is not X characters long.
 * - .puz limits: name TEXT at most PUZ_MAX_TITLE bytes; size N, X, Y, Z
 *   in 1..PUZ_MAX_DIM; seed S a decimal integer in 0..2^64-1 (leading zeros
 *   allowed, no sign); each dimension 1..PUZ_MAX_DIM; the goal box, and
 *   each piece box, at most PUZ_MAX_CELLS cells; count K >= 1, a range
 *   MIN..MAX with 0 <= MIN <= MAX and MAX >= 1 (MIN = MAX is exactly that
 *   many), and at most PUZ_MAX_PIECES pieces counted with multiplicity
 *   (a range at its most); piece names 1..PUZ_MAX_NAME bytes of printable
 *   ASCII other than space, all distinct; every shape has a cell; no
 *   piece has more cells than the goal; at most PUZ_MAX_REGIONS regions.
 */
#include "formats/fmt_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* .puz keywords                                                       */

enum kw {
	KW_NONE,
	KW_PUZZLE,
	KW_NAME,
	KW_SIZE,
	KW_SEED,
	KW_GOAL,
	KW_PIECE,
	KW_COLOUR,
	KW_MATCH,
	KW_REGION,
	KW_DISTINCT,
	KW_COUNT /* number of keywords, not one */
};

static const char *const kw_words[KW_COUNT] = {
	"",      "puzzle", "name",  "size",   "seed",     "goal",
	"piece", "colour", "match", "region", "distinct",
};

/* The first `match P G` line for one pair of colours (line 0 if none),
 * and the columns of P and G in it. */
struct match_pos {
	int line, pcol, gcol;
};

/* What the reader keeps beside the puzzle while it reads: where lines
 * were, for duplicates and for the match check at the end. On the stack
 * (about 14 KiB), so a plain file costs no allocation more than before. */
struct puzst {
	int colour_line[PUZ_NCOLOURS + 1]; /* line of `colour c`, 0 if none */
	struct match_pos match_at[PUZ_NCOLOURS][PUZ_NCOLOURS]; /* [P-1][G-1] */
	int region_line[PUZ_MAX_REGIONS]; /* line of each `region` */
	/* Region indexes sorted by name, so that `distinct` lines, which a
	 * file may repeat without end, look names up in log time. */
	uint16_t by_name[PUZ_MAX_REGIONS];
	size_t region_cap; /* entries allocated in p.regions */
	bool ranges;       /* whether a piece so far has a count range */
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
	return !ln->eof && ln->len > 0 &&
	       (ln->s[0] == '#' || ln->s[0] == '.' || ln->s[0] == '+');
}

/* Where the rows of a shape 'nx' wide cannot continue: a blank line, a
 * header, the end. A row of colours may spell a keyword ("seed" in a
 * 4-wide shape), and the writer writes such rows, so a line counts as a
 * header here only when it cannot be a row: when it has a space (every
 * header has fields) or is not 'nx' characters long. */
static bool ends_rows(const struct line *ln, int nx)
{
	if (ln->eof || ln->len == 0)
		return true;
	if (keyword_of(ln) == KW_NONE)
		return false;
	return ln->len != (size_t)nx || memchr(ln->s, ' ', ln->len) != NULL;
}

/* ------------------------------------------------------------------ */
/* .puz shapes                                                         */

/* Which shape read_shape() reads: the cell characters it takes. */
enum shape_kind {
	SHAPE_GOAL,   /* '.', '#', 'a'..'z', '+', 'A'..'Z' */
	SHAPE_PIECE,  /* '.', '#', 'a'..'z' */
	SHAPE_REGION, /* '.', '#' on a goal cell */
};

/* The cell value of character 'c' in a shape of 'kind', or -1 when the
 * character cannot stand there. */
static int cell_value(char c, enum shape_kind kind)
{
	if (c == '.')
		return 0;
	if (c == '#')
		return PUZ_CELL;
	if (kind == SHAPE_REGION)
		return -1;
	if (c >= 'a' && c <= 'z')
		return PUZ_CELL + 1 + (c - 'a');
	if (kind != SHAPE_GOAL)
		return -1;
	if (c == '+')
		return PUZ_OPTIONAL;
	if (c >= 'A' && c <= 'Z')
		return PUZ_OPTIONAL + 1 + (c - 'A');
	return -1;
}

/* One row of the current line into g at (., y, z). A region's members
 * must be cells of 'goal'; 'what' names the shape in messages. */
static int read_row(const struct line *ln, struct grid *g, int y, int z,
                    enum shape_kind kind, const struct grid *goal,
                    const char *what, struct puz_error *err)
{
	size_t i, nx = (size_t)g->nx;
	char b[40];

	for (i = 0; i < ln->len; i++) {
		char c = ln->s[i];

		if (cell_value(c, kind) >= 0)
			continue;
		if (c == '+' && kind == SHAPE_PIECE)
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "'+' (an optional cell) is allowed "
			                "only in the goal");
		if (c >= 'A' && c <= 'Z' && kind == SHAPE_PIECE)
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "'%c' (an optional cell of colour %c) "
			                "is allowed only in the goal",
			                c, c - 'A' + 'a');
		return fmt_fail(err, ln->no, fmt_lcol(ln, i),
		                kind == SHAPE_GOAL
		                        ? "expected '#', '.', '+' or a colour "
		                          "a..z (A..Z optional), found '%s'"
		                : kind == SHAPE_PIECE
		                        ? "expected '#', '.' or a colour a..z, "
		                          "found '%s'"
		                        : "expected '#' or '.', found '%s'",
		                fmt_show_char(b, ln->s + i, ln->len - i));
	}
	if (ln->len != nx)
		return fmt_fail(err, ln->no,
		                fmt_lcol(ln, ln->len < nx ? ln->len : nx),
		                "row has %zu cell%s, expected %d", ln->len,
		                ln->len == 1 ? "" : "s", g->nx);
	for (i = 0; i < nx; i++) {
		size_t at = puz_grid_index(g, (int)i, y, z);
		int v = cell_value(ln->s[i], kind);

		if (kind == SHAPE_REGION && v != 0 && goal->cells[at] == 0)
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "%s: '#' at (%zu, %d, %d) is not a "
			                "goal cell",
			                what, i, y, z);
		g->cells[at] = (unsigned char)v;
	}
	return PUZ_OK;
}

/* Read the blocks that follow a goal, piece or region header (the
 * current line) into 'g', whose dimensions are set; a region's members
 * must be cells of 'goal' (NULL for the other kinds). 'what' names the
 * shape in messages ("goal", "piece 'L'", "region 'R'"); blocks are
 * numbered from 1 in messages, as a reader counts them. Leaves the first
 * non-blank line after the shape current. */
static int read_shape(struct lexer *lx, struct grid *g, enum shape_kind kind,
                      const struct grid *goal, const char *what,
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
			if (ends_rows(ln, g->nx))
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
			if (ends_rows(ln, g->nx))
				return fmt_fail(err, ln->no, fmt_lcol(ln, 0),
				                "%s block %d has %d row%s, "
				                "expected %d",
				                what, z + 1, y, fmt_plural(y),
				                ny);
			rc = read_row(ln, g, y, z, kind, goal, what, err);
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

#define PIECE_USAGE "piece NAME X Y Z [count K] [weight W] [group G]"

/* A piece or region name, the token 'nt', into 'out'; 'kind' is "piece"
 * or "region". */
static int read_name(const struct line *ln, const struct tok *nt,
                     const char *kind, char out[PUZ_MAX_NAME + 1],
                     struct puz_error *err)
{
	size_t i;
	char b[40];

	for (i = 0; i < nt->len; i++)
		if (!fmt_name_char_ok(nt->s[i]))
			return fmt_fail(err, ln->no, fmt_lcol(ln, nt->off + i),
			                "%s name must be printable ASCII "
			                "without spaces, found '%s'",
			                kind,
			                fmt_show_char(b, nt->s + i,
			                              nt->len - i));
	if (nt->len > PUZ_MAX_NAME)
		return fmt_fail(err, ln->no, fmt_lcol(ln, nt->off),
		                "%s name is %zu bytes long, at most %d", kind,
		                nt->len, PUZ_MAX_NAME);
	memcpy(out, nt->s, nt->len);
	out[nt->len] = '\0';
	return PUZ_OK;
}

/* s[0..len) as a count: its value, or UINT64_MAX when it does not fit
 * (more pieces than allowed, which the caller's limit then reports). */
static uint64_t count_value(const char *s, size_t len)
{
	uint64_t v;

	return fmt_parse_u64(s, len, &v) ? v : UINT64_MAX;
}

/* The field after `count`, 'kt': K into '*lo' with '*hi' = 0, or
 * MIN..MAX into '*lo' and '*hi' (MIN = MAX is exactly that many, so
 * '*hi' = 0 again). Messages are at the field's column. */
static int read_count(const struct line *ln, const struct tok *kt,
                      uint64_t *lo, uint64_t *hi, struct puz_error *err)
{
	int kcol = fmt_lcol(ln, kt->off);
	const char *hs = NULL;
	size_t i, nlo, nhi;
	uint64_t least, most;
	char b[40];

	for (i = 0; i + 1 < kt->len && hs == NULL; i++)
		if (kt->s[i] == '.' && kt->s[i + 1] == '.')
			hs = kt->s + i + 2;
	if (hs == NULL) {
		if (!fmt_looks_numeric(kt->s, kt->len))
			return fmt_fail(err, ln->no, kcol,
			                "expected a number after 'count', "
			                "found '%s'",
			                fmt_show(b, kt->s, kt->len));
		if (kt->s[0] == '-' || count_value(kt->s, kt->len) == 0)
			return fmt_fail(err, ln->no, kcol,
			                "count %s: must be at least 1",
			                fmt_show(b, kt->s, kt->len));
		*lo = count_value(kt->s, kt->len);
		*hi = 0;
		return PUZ_OK;
	}
	nlo = (size_t)(hs - 2 - kt->s);
	nhi = kt->len - nlo - 2;
	if (!fmt_looks_numeric(kt->s, nlo) || !fmt_looks_numeric(hs, nhi))
		return fmt_fail(err, ln->no, kcol,
		                "expected a range MIN..MAX after 'count', "
		                "found '%s'",
		                fmt_show(b, kt->s, kt->len));
	if (kt->s[0] == '-')
		return fmt_fail(err, ln->no, kcol,
		                "count %s: the least must be at least 0",
		                fmt_show(b, kt->s, kt->len));
	least = count_value(kt->s, nlo);
	most = count_value(hs, nhi);
	if (hs[0] == '-' || least > most)
		return fmt_fail(err, ln->no, kcol,
		                "count %s: the least is more than the most",
		                fmt_show(b, kt->s, kt->len));
	if (most == 0)
		return fmt_fail(err, ln->no, kcol,
		                "count %s: a piece that can never be used "
		                "(the most must be at least 1)",
		                fmt_show(b, kt->s, kt->len));
	*lo = least;
	*hi = least == most ? 0 : most;
	return PUZ_OK;
}

/* A `piece` header (the current line) and its shape, appended to 'z'. */
static int read_piece(struct lexer *lx, struct pz *z, struct puzst *st,
                      struct puz_error *err)
{
	const struct line *ln = &lx->cur;
	struct puz_piece pc;
	struct tok t = {0}, nt = {0}, kt = {0};
	size_t pos = 0, i, vol, gvol;
	uint64_t lo = 1, hi = 0, most;
	int line = ln->no, namecol, kcol, d[3], rc;
	char what[PUZ_MAX_NAME + 16], b[40];

	memset(&pc, 0, sizeof(pc));
	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &nt))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" PIECE_USAGE "'");
	namecol = kcol = fmt_lcol(ln, nt.off);
	rc = read_name(ln, &nt, "piece", pc.name, err);
	if (rc != PUZ_OK)
		return rc;
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
	/* count, weight and group, each at most once, in any order */
	bool seen[3] = {false, false, false};
	pc.weight = 1;
	while (fmt_tok_next(ln, &pos, &t)) {
		int which = fmt_tok_is(&t, "count") ? 0
		          : fmt_tok_is(&t, "weight") ? 1
		          : fmt_tok_is(&t, "group") ? 2 : -1;
		if (which < 0 || seen[which])
			return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
			                which < 0 ? "unexpected '%s': expected "
			                            "'" PIECE_USAGE "'"
			                          : "'%s' a second time",
			                fmt_show(b, t.s, t.len));
		seen[which] = true;
		static const char *const word[3] = {"count", "weight", "group"};
		if (!fmt_tok_next(ln, &pos, &kt))
			return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
			                "expected a number after '%s'",
			                word[which]);
		if (which == 0) {
			kcol = fmt_lcol(ln, kt.off);
			rc = read_count(ln, &kt, &lo, &hi, err);
			if (rc != PUZ_OK)
				return rc;
			continue;
		}
		uint64_t v = kt.s[0] == '-' ? UINT64_MAX
		           : count_value(kt.s, kt.len);
		uint64_t top = which == 1 ? PUZ_MAX_WEIGHT : PUZ_MAX_GROUP;
		if (v > top || v == 0)
			return fmt_fail(err, ln->no, fmt_lcol(ln, kt.off),
			                "%s %s: expected a whole number from 1 "
			                "to %llu", word[which],
			                fmt_show(b, kt.s, kt.len),
			                (unsigned long long)top);
		if (which == 1)
			pc.weight = (int)v;
		else
			pc.group = (unsigned)v;
	}
	st->ranges |= hi != 0;
	most = hi != 0 ? hi : lo;
	if (most > (uint64_t)(PUZ_MAX_PIECES - z->total))
		return fmt_fail(err, ln->no, kcol,
		                st->ranges ? "more than %d pieces (counting "
		                             "each copy, a range at its most)"
		                           : "more than %d pieces (counting "
		                             "each copy)",
		                PUZ_MAX_PIECES);
	pc.count = (unsigned)lo;
	pc.count_max = (unsigned)hi;
	if (puz_grid_init(&pc.shape, d[0], d[1], d[2]) != PUZ_OK)
		return fmt_fail_nomem(err);
	rc = read_shape(lx, &pc.shape, SHAPE_PIECE, NULL, what, err);
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
	z->total += (unsigned)most;
	return PUZ_OK;
}

/* ------------------------------------------------------------------ */
/* .puz colour puzzle lines                                            */

#define COLOUR_USAGE "colour c RRGGBB"
#define MATCH_USAGE "match P G"
#define REGION_USAGE "region NAME"
#define DISTINCT_USAGE "distinct NAME..."

/* The colour 1..26 a token names ("a".."z"), or 0. */
static int colour_of(const struct tok *t)
{
	return t->len == 1 && t->s[0] >= 'a' && t->s[0] <= 'z'
	               ? t->s[0] - 'a' + 1
	               : 0;
}

/* The value of a hex digit, or -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* `colour c RRGGBB`: the display colour of 'c', once per letter. */
static int read_colour(const struct line *ln, struct pz *z, struct puzst *st,
                       struct puz_error *err)
{
	struct tok t = {0}, ct = {0}, ht = {0};
	size_t pos = 0, i;
	uint32_t v = 0;
	int c;
	char b[40];

	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &ct))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" COLOUR_USAGE "'");
	c = colour_of(&ct);
	if (c == 0)
		return fmt_fail(err, ln->no, fmt_lcol(ln, ct.off),
		                "expected a colour letter a..z, found '%s'",
		                fmt_show(b, ct.s, ct.len));
	if (!fmt_tok_next(ln, &pos, &ht))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" COLOUR_USAGE "'");
	for (i = 0; i < ht.len && ht.len == 6; i++) {
		int d = hex_digit(ht.s[i]);

		if (d < 0)
			break;
		v = v << 4 | (uint32_t)d;
	}
	if (ht.len != 6 || i != 6)
		return fmt_fail(err, ln->no, fmt_lcol(ln, ht.off),
		                "expected six hex digits RRGGBB, found '%s'",
		                fmt_show(b, ht.s, ht.len));
	if (fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
		                "unexpected '%s' after '" COLOUR_USAGE "'",
		                fmt_show(b, t.s, t.len));
	if (st->colour_line[c] != 0)
		return fmt_fail(err, ln->no, fmt_lcol(ln, ct.off),
		                "duplicate 'colour %c' line (first on line %d)",
		                ct.s[0], st->colour_line[c]);
	st->colour_line[c] = ln->no;
	z->p.rgb[c] = v;
	z->p.rgb_set |= (uint32_t)1 << c;
	return PUZ_OK;
}

/* `match P G`: piece colour P may lie on goal colour G. Whether some
 * cell uses each colour is checked at the end of the file. */
static int read_match(const struct line *ln, struct pz *z, struct puzst *st,
                      struct puz_error *err)
{
	struct tok t = {0}, pt = {0}, gt = {0};
	size_t pos = 0;
	int pc, gc;
	char b[40];

	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &pt))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" MATCH_USAGE "'");
	pc = colour_of(&pt);
	if (pc == 0)
		return fmt_fail(err, ln->no, fmt_lcol(ln, pt.off),
		                "expected a piece colour letter a..z, found "
		                "'%s'",
		                fmt_show(b, pt.s, pt.len));
	if (!fmt_tok_next(ln, &pos, &gt))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" MATCH_USAGE "'");
	gc = colour_of(&gt);
	if (gc == 0)
		return fmt_fail(err, ln->no, fmt_lcol(ln, gt.off),
		                "expected a goal colour letter a..z, found "
		                "'%s'",
		                fmt_show(b, gt.s, gt.len));
	if (fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
		                "unexpected '%s' after '" MATCH_USAGE "'",
		                fmt_show(b, t.s, t.len));
	if (st->match_at[pc - 1][gc - 1].line == 0) {
		st->match_at[pc - 1][gc - 1].line = ln->no;
		st->match_at[pc - 1][gc - 1].pcol = fmt_lcol(ln, pt.off);
		st->match_at[pc - 1][gc - 1].gcol = fmt_lcol(ln, gt.off);
	}
	z->p.has_match = true;
	z->p.match[pc] |= (uint32_t)1 << gc;
	return PUZ_OK;
}

/* Region name 'name' against s[0..len), in byte order. */
static int name_cmp(const char *name, const char *s, size_t len)
{
	size_t n = strlen(name);
	int c = memcmp(name, s, n < len ? n : len);

	if (c != 0)
		return c;
	return (n > len) - (n < len);
}

/* The index in z->p.regions of the region named s[0..len), or -1; '*at'
 * is where that name is, or would go, in st->by_name. */
static long region_find(const struct pz *z, const struct puzst *st,
                        const char *s, size_t len, size_t *at)
{
	size_t lo = 0, hi = z->p.nregions;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = name_cmp(z->p.regions[st->by_name[mid]].name, s, len);

		if (c == 0) {
			*at = mid;
			return st->by_name[mid];
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return -1;
}

/* A `region` header (the current line, after the goal) and its blocks,
 * appended to z->p.regions. */
static int read_region(struct lexer *lx, struct pz *z, struct puzst *st,
                       struct puz_error *err)
{
	const struct line *ln = &lx->cur;
	struct puz_region r;
	struct grid g;
	struct tok t = {0}, nt = {0};
	size_t pos = 0, at;
	long dup;
	int line = ln->no, namecol, rc;
	char what[PUZ_MAX_NAME + 16], b[40];

	memset(&r, 0, sizeof(r));
	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &nt))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" REGION_USAGE "'");
	namecol = fmt_lcol(ln, nt.off);
	rc = read_name(ln, &nt, "region", r.name, err);
	if (rc != PUZ_OK)
		return rc;
	if (fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
		                "unexpected '%s' after '" REGION_USAGE "'",
		                fmt_show(b, t.s, t.len));
	if (strcmp(r.name, "faces") == 0)
		return fmt_fail(err, ln->no, namecol,
		                "region name 'faces' is reserved: 'distinct "
		                "faces' means the six outer layers of the "
		                "goal");
	dup = region_find(z, st, nt.s, nt.len, &at);
	if (dup >= 0)
		return fmt_fail(err, ln->no, namecol,
		                "duplicate region name '%s' (first on line %d)",
		                r.name, st->region_line[dup]);
	if (z->p.nregions == PUZ_MAX_REGIONS)
		return fmt_fail(err, ln->no, namecol, "more than %d regions",
		                PUZ_MAX_REGIONS);
	if (z->p.nregions == st->region_cap) {
		/* At most PUZ_MAX_REGIONS entries: the product fits. */
		size_t ncap = st->region_cap == 0 ? 4 : st->region_cap * 2;
		struct puz_region *nr;

		if (ncap > PUZ_MAX_REGIONS)
			ncap = PUZ_MAX_REGIONS;
		nr = realloc(z->p.regions, ncap * sizeof(*nr));
		if (nr == NULL)
			return fmt_fail_nomem(err);
		z->p.regions = nr;
		st->region_cap = ncap;
	}
	snprintf(what, sizeof(what), "region '%s'", r.name);
	if (puz_grid_init(&g, z->p.goal.nx, z->p.goal.ny, z->p.goal.nz) !=
	    PUZ_OK)
		return fmt_fail_nomem(err);
	rc = read_shape(lx, &g, SHAPE_REGION, &z->p.goal, what, err);
	if (rc != PUZ_OK) {
		puz_grid_clear(&g);
		return rc;
	}
	r.cells = g.cells;
	memmove(st->by_name + at + 1, st->by_name + at,
	        (z->p.nregions - at) * sizeof(st->by_name[0]));
	st->by_name[at] = (uint16_t)z->p.nregions;
	st->region_line[z->p.nregions] = line;
	z->p.regions[z->p.nregions++] = r;
	return PUZ_OK;
}

/* `distinct NAME...`: regions defined on earlier lines, or `faces`. */
static int read_distinct(const struct line *ln, struct pz *z,
                         const struct puzst *st, struct puz_error *err)
{
	struct tok t = {0};
	size_t pos = 0, at;
	long i;
	char b[40];

	(void)fmt_tok_next(ln, &pos, &t);
	if (!fmt_tok_next(ln, &pos, &t))
		return fmt_fail(err, ln->no, fmt_lcol(ln, ln->len),
		                "expected '" DISTINCT_USAGE "'");
	do {
		if (fmt_tok_is(&t, "faces")) {
			z->p.distinct_faces = true;
			continue;
		}
		i = region_find(z, st, t.s, t.len, &at);
		if (i < 0)
			return fmt_fail(err, ln->no, fmt_lcol(ln, t.off),
			                "undefined region '%s': a 'region' "
			                "line must define it before 'distinct' "
			                "names it",
			                fmt_show(b, t.s, t.len));
		z->p.regions[i].distinct = true;
	} while (fmt_tok_next(ln, &pos, &t));
	return PUZ_OK;
}

/* The colour-puzzle lines that stand alone (no blocks follow), allowed
 * anywhere after `puzzle v1`: `colour`, `match`, `distinct`. */
static int read_colour_line(const struct line *ln, enum kw kw, struct pz *z,
                            struct puzst *st, struct puz_error *err)
{
	if (kw == KW_COLOUR)
		return read_colour(ln, z, st, err);
	if (kw == KW_MATCH)
		return read_match(ln, z, st, err);
	return read_distinct(ln, z, st, err);
}

/* After the whole file: every `match P G` names a colour P some piece cell
 * has and a colour G some goal cell has. The first offending line in the
 * file is reported, at the offending letter. */
static int check_matches(const struct pz *z, const struct puzst *st,
                         struct puz_error *err)
{
	const struct puzzle *p = &z->p;
	uint32_t pused = 0, gused = 0;
	size_t i, j, n;
	int line = 0, col = 0, pc, gc, bp = 0, bg = 0;
	bool piece = false;

	if (!p->has_match)
		return PUZ_OK;
	for (i = 0; i < p->npieces; i++) {
		const struct grid *g = &p->pieces[i].shape;

		n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
		for (j = 0; j < n; j++)
			pused |= (uint32_t)1 << puz_cell_colour(g->cells[j]);
	}
	n = (size_t)p->goal.nx * (size_t)p->goal.ny * (size_t)p->goal.nz;
	for (j = 0; j < n; j++)
		gused |= (uint32_t)1 << puz_cell_colour(p->goal.cells[j]);
	for (pc = 1; pc <= PUZ_NCOLOURS; pc++) {
		for (gc = 1; gc <= PUZ_NCOLOURS; gc++) {
			const struct match_pos *m =
				&st->match_at[pc - 1][gc - 1];
			bool pbad = !(pused >> pc & 1);

			if (m->line == 0 || (line != 0 && m->line >= line) ||
			    (!pbad && (gused >> gc & 1)))
				continue;
			line = m->line;
			col = pbad ? m->pcol : m->gcol;
			piece = pbad;
			bp = pc;
			bg = gc;
		}
	}
	if (line == 0)
		return PUZ_OK;
	return fmt_fail(err, line, col,
	                "match %c %c: no %s cell has colour '%c'",
	                'a' + bp - 1, 'a' + bg - 1, piece ? "piece" : "goal",
	                'a' + (piece ? bp : bg) - 1);
}

/* ------------------------------------------------------------------ */
/* .puz order                                                          */

/* The first line at or after the current one that is not blank. */
static int skip_blank(struct lexer *lx, struct puz_error *err)
{
	int rc;

	do {
		rc = fmt_lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
	} while (is_blank(&lx->cur));
	return PUZ_OK;
}

#define COLOR_MSG "unknown line 'color': the keyword is spelt 'colour'"

/* Whether the line starts with the American spelling of `colour`. */
static bool is_color(const struct line *ln)
{
	struct tok t = {0};
	size_t pos = 0;

	return !ln->eof && fmt_tok_next(ln, &pos, &t) &&
	       fmt_tok_is(&t, "color");
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
		if (is_color(ln))
			return fmt_fail(err, ln->no, 1, COLOR_MSG);
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
	int seen[KW_COUNT] = {0}, gline, d[3], rc;
	struct puzst st;
	struct tok t = {0};
	size_t pos;
	enum kw kw;
	char b[40];

	memset(&st, 0, sizeof(st));
	rc = read_magic(lx, err);
	if (rc != PUZ_OK)
		return rc;
	seen[KW_PUZZLE] = ln->no;

	/* name, size, seed in any order, then goal; colour lines anywhere */
	for (;;) {
		rc = skip_blank(lx, err);
		if (rc != PUZ_OK)
			return rc;
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
		case KW_COLOUR:
		case KW_MATCH:
		case KW_DISTINCT:
			rc = read_colour_line(ln, kw, z, &st, err);
			if (rc != PUZ_OK)
				return rc;
			break;
		case KW_REGION:
			return fmt_fail(err, ln->no, 1,
			                "'region' must come after 'goal': the "
			                "goal must come first");
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
			if (is_color(ln))
				return fmt_fail(err, ln->no, 1, COLOR_MSG);
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
	rc = read_shape(lx, &z->p.goal, SHAPE_GOAL, NULL, "goal", err);
	if (rc != PUZ_OK)
		return rc;
	if (puz_grid_volume(&z->p.goal) == 0)
		return fmt_fail(err, gline, 1, "goal has no cells");

	/* pieces and regions, colour lines between them, up to the end */
	while (!ln->eof) {
		kw = keyword_of(ln);
		switch (kw) {
		case KW_PIECE:
			rc = read_piece(lx, z, &st, err);
			break;
		case KW_REGION:
			rc = read_region(lx, z, &st, err);
			break;
		case KW_COLOUR:
		case KW_MATCH:
		case KW_DISTINCT:
			rc = read_colour_line(ln, kw, z, &st, err);
			if (rc == PUZ_OK)
				rc = skip_blank(lx, err);
			break;
		default:
			return misplaced(ln, kw, seen, err);
		}
		if (rc != PUZ_OK)
			return rc;
	}
	if (z->p.npieces == 0 && !z->goal_only)
		return fmt_fail(err, ln->no, ln->eof_col,
		                "no pieces: expected '" PIECE_USAGE "'");
	return check_matches(z, &st, err);
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

static int parse_puz_goal(struct lexer *lx, struct pz *z, struct puz_error *err)
{
	z->goal_only = true;
	return parse_puz(lx, z, err);
}

int puz_read_goal_file(const char *path, struct puzzle *out,
                       struct puz_error *err)
{
	return fmt_read_file(path, false, parse_puz_goal, out, err);
}
