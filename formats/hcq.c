/*
 * hcq.c: the Happy Cube edge file (.hcq) reader: six 5x5 tiles, each a
 * solid 3x3 centre and a border of four 5-bit edges, read as the six
 * pieces of the 5x5x5 shell puzzle. It walks the text with the line lexer
 * of lex.c, whose header states the workload and the text rules both
 * readers share.
 *
 * Rules where DESIGN.md §3 leaves room (docs/formats.md repeats them):
 *
 * - .hcq: blank lines are skipped, spaces and tabs around fields are
 *   ignored. NAME:, TYPE:, COMMENT: and NUM_TILES: come in any order, each
 *   at most once, before TILE_ID_BORDER_PATTERN; NAME: is optional (the
 *   puzzle is then unnamed), NUM_TILES: is required and must be 6. Tile
 *   ids are 1..PUZ_MAX_NAME-1 bytes of printable ASCII and distinct, as the
 *   pieces are named "T<ID>". Nothing but blank lines may follow `EOF`.
 */
#include "formats/fmt_int.h"

#include <stdint.h>
#include <string.h>

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
		if (!fmt_name_char_ok(s[i]))
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "tile id must be printable ASCII, "
			                "found '%s'",
			                fmt_show_char(sb, s + i, e - i));
		i++;
	}
	idn = i - id0;
	if (idn == 0)
		return fmt_fail(err, ln->no, fmt_lcol(ln, i),
		                "expected 'ID [b,b,b,b,b; b,b,b,b,b; "
		                "b,b,b,b,b; b,b,b,b,b]'");
	if (idn > PUZ_MAX_NAME - 1)
		return fmt_fail(err, ln->no, fmt_lcol(ln, id0),
		                "tile id is %zu bytes long, at most %d", idn,
		                PUZ_MAX_NAME - 1);
	fmt_show(id, s + id0, idn);
	i = hcq_skip(s, i, e);
	if (i == e || s[i] != '[')
		return fmt_fail(err, ln->no, fmt_lcol(ln, i),
		                "tile %s: expected '[' after the tile id", id);
	i++;
	for (g = 0; g < 4; g++) {
		for (k = 0; k < 5; k++) {
			i = hcq_skip(s, i, e);
			if (k > 0 && i < e && (s[i] == ';' || s[i] == ']'))
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "tile %s: %s edge has %d "
				                "bit%s, expected 5",
				                id, hcq_edges[g], k,
				                fmt_plural(k));
			if (k > 0 && i < e && s[i] != ',')
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "tile %s: expected ',' between "
				                "bits, found '%s'",
				                id,
				                fmt_show_char(sb, s + i,
				                              e - i));
			if (k > 0 && i < e)
				i = hcq_skip(s, i + 1, e);
			if (i == e)
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "tile %s: line ends inside the "
				                "brackets",
				                id);
			for (n = 0; i + n < e && !hcq_space(s[i + n]) &&
			            s[i + n] != ',' && s[i + n] != ';' &&
			            s[i + n] != ']';
			     n++)
				;
			if (n != 1 || (s[i] != '0' && s[i] != '1'))
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "tile %s: expected a bit 0 or "
				                "1, found '%s'",
				                id,
				                n > 0 ? fmt_show(sb, s + i, n)
				                      : fmt_show_char(sb, s + i,
				                                      e - i));
			bits[g][k] = s[i] == '1';
			off[g][k] = i++;
		}
		/* After five bits: ';' between edges, ']' after the last. */
		i = hcq_skip(s, i, e);
		if (i == e)
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "tile %s: line ends inside the "
			                "brackets",
			                id);
		if (s[i] == ',')
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "tile %s: %s edge has more than 5 bits",
			                id, hcq_edges[g]);
		if (g < 3 && s[i] == ']')
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "tile %s has %d edge%s, expected 4 (20 "
			                "bits)",
			                id, g + 1, fmt_plural(g + 1));
		if (g == 3 && s[i] == ';')
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "tile %s has more than 4 edges (20 "
			                "bits)",
			                id);
		if (s[i] != (g < 3 ? ';' : ']'))
			return fmt_fail(err, ln->no, fmt_lcol(ln, i),
			                "tile %s: expected '%c' after the %s "
			                "edge",
			                id, g < 3 ? ';' : ']', hcq_edges[g]);
		i++;
	}
	i = hcq_skip(s, i, e);
	if (i != e)
		return fmt_fail(err, ln->no, fmt_lcol(ln, i),
		                "tile %s: unexpected text after ']'", id);
	/* Corner c is the last bit of edge c and the first of edge c+1. */
	for (g = 0; g < 4; g++)
		if (bits[g][4] != bits[(g + 1) % 4][0])
			return fmt_fail(err, ln->no,
			                fmt_lcol(ln, off[(g + 1) % 4][0]),
			                "tile %s: %s corner is %d on the %s "
			                "edge but %d on the %s edge",
			                id, corner[g], bits[g][4], hcq_edges[g],
			                bits[(g + 1) % 4][0],
			                hcq_edges[(g + 1) % 4]);

	rc = puz_grid_init(&pc->shape, 5, 5, 1);
	if (rc != PUZ_OK)
		return fmt_fail_nomem(err);
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
		rc = fmt_lx_next(lx, err);
		if (rc != PUZ_OK)
			return rc;
		if (ln->eof)
			break;
		hcq_trim(ln, &b, &e);
		if (b == e)
			continue;
		if (state == 2)
			return fmt_fail(err, ln->no, fmt_lcol(ln, b),
			                "unexpected text after 'EOF'");
		if (state == 1) {
			if (e - b == 3 && memcmp(ln->s + b, "EOF", 3) == 0) {
				if (ntiles != 6)
					return fmt_fail(err, ln->no,
					                fmt_lcol(ln, b),
					                "found %d tile%s, "
					                "expected 6",
					                ntiles,
					                fmt_plural(ntiles));
				state = 2;
				continue;
			}
			if (ntiles == 6)
				return fmt_fail(err, ln->no, fmt_lcol(ln, b),
				                "more than 6 tiles: expected "
				                "'EOF'");
			rc = fmt_pz_grow(z);
			if (rc != PUZ_OK)
				return fmt_fail_nomem(err);
			memset(&z->p.pieces[ntiles], 0, sizeof(struct puz_piece));
			rc = hcq_tile(ln, b, e, &z->p.pieces[ntiles], err);
			if (rc != PUZ_OK)
				return rc;
			z->p.npieces = (size_t)++ntiles;
			z->lines[ntiles - 1] = ln->no;
			for (k = 0; k < ntiles - 1; k++)
				if (strcmp(z->p.pieces[k].name,
				           z->p.pieces[ntiles - 1].name) == 0)
					return fmt_fail(err, ln->no,
					                fmt_lcol(ln, b),
					                "duplicate tile id "
					                "'%s' (first on line "
					                "%d)",
					                z->p.pieces[k].name + 1,
					                z->lines[k]);
			continue;
		}
		/* header */
		if (e - b == 22 &&
		    memcmp(ln->s + b, "TILE_ID_BORDER_PATTERN", 22) == 0) {
			if (!seen[3])
				return fmt_fail(err, ln->no, fmt_lcol(ln, b),
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
			return fmt_fail(err, ln->no, fmt_lcol(ln, b),
			                "unknown header '%s': expected NAME:, "
			                "TYPE:, COMMENT:, NUM_TILES: or "
			                "TILE_ID_BORDER_PATTERN",
			                fmt_show(sb, ln->s + b, i - b));
		}
		if (seen[k])
			return fmt_fail(err, ln->no, fmt_lcol(ln, b),
			                "duplicate '%s' line (first on line "
			                "%d)",
			                keys[k], seen[k]);
		seen[k] = ln->no;
		i = b + strlen(keys[k]);
		while (i < e && hcq_space(ln->s[i]))
			i++;
		if (k == 0) {
			size_t j;

			if (e - i > PUZ_MAX_TITLE)
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "name is %zu bytes long, at "
				                "most %d",
				                e - i, PUZ_MAX_TITLE);
			for (j = i; j < e; j++)
				if (ln->s[j] == '\t')
					return fmt_fail(err, ln->no,
					                fmt_lcol(ln, j),
					                "tab character in the "
					                "name");
			memcpy(z->p.name, ln->s + i, e - i);
			z->p.name[e - i] = '\0';
		} else if (k == 3) {
			uint64_t v;

			if (i == e)
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "expected a number after "
				                "'NUM_TILES:'");
			if (!fmt_parse_u64(ln->s + i, e - i, &v))
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "expected a number after "
				                "'NUM_TILES:', found '%s'",
				                fmt_show(sb, ln->s + i, e - i));
			if (v != 6)
				return fmt_fail(err, ln->no, fmt_lcol(ln, i),
				                "NUM_TILES is %s, expected 6 "
				                "(one tile per face of the "
				                "cube)",
				                fmt_show(sb, ln->s + i, e - i));
		}
	}
	if (state == 0)
		return fmt_fail(err, ln->no, ln->eof_col,
		                "missing 'TILE_ID_BORDER_PATTERN' line");
	if (state == 1) {
		if (ntiles != 6)
			return fmt_fail(err, ln->no, ln->eof_col,
			                "found %d tile%s, expected 6", ntiles,
			                fmt_plural(ntiles));
		return fmt_fail(err, ln->no, ln->eof_col, "missing 'EOF' line");
	}

	/* The 5x5x5 shell: cells with a coordinate 0 or 4. */
	if (puz_grid_init(&z->p.goal, 5, 5, 5) != PUZ_OK)
		return fmt_fail_nomem(err);
	for (k = 0; k < 5; k++)
		for (y = 0; y < 5; y++)
			for (x = 0; x < 5; x++)
				z->p.goal.cells[puz_grid_index(&z->p.goal, x, y, k)] =
					x == 0 || x == 4 || y == 0 || y == 4 ||
					k == 0 || k == 4;
	return PUZ_OK;
}

int hcq_read_mem(const char *text, size_t len, struct puzzle *out,
                 struct puz_error *err)
{
	return fmt_read_mem(text, len, true, parse_hcq, out, err);
}

int hcq_read_file(const char *path, struct puzzle *out, struct puz_error *err)
{
	return fmt_read_file(path, true, parse_hcq, out, err);
}
