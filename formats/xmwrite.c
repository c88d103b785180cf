/*
 * xmwrite.c: the BurrTools writer: a puzzle (and solutions) as the XML
 * that BurrTools 0.6 writes and reads, gzip-compressed through zlib.
 *
 * What BurrTools reads, from its sources (lib/puzzle.cpp, problem.cpp,
 * voxel.cpp, assembly.cpp, solution.cpp): <puzzle version="2"> holding
 * <gridType type="0"/> (cubes), <colors> (one <color red green blue/> per
 * colour, numbered from 1), <shapes> (one <voxel x y z type="0"> per
 * shape, its cells x fastest, then y, then z: '_' empty, '#' filled, '+'
 * variable, a filled or variable cell followed by its colour number when
 * it has one), <problems> and <comment>. A <problem> lists its pieces as
 * <shape id count/> or <shape id min max/>, names the goal in
 * <result id/>, and lists the colour constraints in <bitmap> as
 * <pair piece result/>, colours numbered from 0 there: with any colour
 * defined, a coloured piece cell may lie on a coloured goal cell only when
 * their pair is listed (a plain cell on either side always fits). Saved
 * solutions are <solution><assembly>, one "x y z t" (or "x" for a copy
 * not used) per copy of each piece in problem order; BurrTools shows them
 * whatever the problem's state, so state="0" (not solved by BurrTools)
 * and no counts of its own are written.
 *
 * Layout follows BurrTools' xmlWriter: the declaration line, one element
 * per line, one space of indent per level, attributes in BurrTools' order.
 * The text is built in memory, then written or deflated: zlib's memory
 * goes through this file's malloc so allocation failures are testable,
 * and the gzip header has no time stamp or name, so the bytes depend only
 * on the puzzle (and zlib's deflate).
 */
#include "formats/fmt_int.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* BurrTools' cube rotations (its lib/tabs_0/rotmatrix.inc, rows 0..23)
 * as poly symmetries: rotation t maps (x, y, z) as symmetry
 * rot_sym[t] does. Found by comparing the images of the unit vectors;
 * tests/test_xmwrite.c holds BurrTools' matrices and checks every entry. */
static const unsigned char rot_sym[24] = {
	0, 10, 6, 12, 41, 27, 42, 24, 5, 15, 3, 9,
	44, 30, 47, 29, 17, 32, 20, 37, 18, 35, 23, 38,
};

int xmp_rotation(int t)
{
	assert(t >= 0 && t < 24);
	return rot_sym[t];
}

/* ---- what BurrTools can hold ------------------------------------------ */

/* Text BurrTools' parser reads back as it was: XML 1.0 allows no control
 * characters but tab, LF and CR. The .puz readers let none through; a
 * puzzle built another way is checked here. */
static bool text_ok(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
			return false;
	}
	return true;
}

bool xmp_writable(const struct puzzle *p, bool solutions, char *why,
                  size_t len)
{
	for (size_t r = 0; r < p->nregions; r++)
		if (p->regions[r].distinct) {
			snprintf(why, len, "BurrTools has no distinct regions "
			         "(region '%s' is distinct)", p->regions[r].name);
			return false;
		}
	if (p->distinct_faces) {
		snprintf(why, len, "BurrTools has no distinct regions "
		         "('distinct faces')");
		return false;
	}
	if (p->npieces == 0) { /* formats/xmbuild.c refuses such a problem */
		snprintf(why, len, "a puzzle with no pieces cannot be written as a "
		         "BurrTools problem");
		return false;
	}
	if (!text_ok(p->name)) {
		snprintf(why, len, "the puzzle's name has a control character");
		return false;
	}
	for (size_t i = 0; i < p->npieces; i++)
		if (!text_ok(p->pieces[i].name)) {
			snprintf(why, len, "piece %zu's name has a control character",
			         i + 1);
			return false;
		}
	/* the solver labels a cover's cells with 1 + the piece's index in a
	 * byte, 255 for all the pieces past 254 */
	if (solutions && p->npieces > 254) {
		snprintf(why, len, "solutions of puzzles with more than 254 pieces "
		         "cannot be written (this one has %zu)", p->npieces);
		return false;
	}
	return true;
}

/* ---- the text, in memory ------------------------------------------------ */

struct buf {
	char *s;
	size_t len, cap;
	bool oom; /* an allocation failed: the text is incomplete */
};

static bool buf_room(struct buf *b, size_t n)
{
	if (b->oom)
		return false;
	if (b->cap - b->len > n)
		return true;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap - b->len <= n) {
		if (cap > SIZE_MAX / 2) {
			b->oom = true;
			return false;
		}
		cap *= 2;
	}
	char *s = realloc(b->s, cap);
	if (!s) {
		b->oom = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (!buf_room(b, n))
		return;
	memcpy(b->s + b->len, s, n);
	b->len += n;
}

static void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

PUZ_PRINTF(2, 3)
static void buf_printf(struct buf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	/* only numbers and short words come through here */
	assert(n >= 0 && (size_t)n < sizeof tmp);
	buf_add(b, tmp, (size_t)n);
}

/* One space per level; a separation nests a level per part, so up to
 * about 5 + DIS_MAX_PIECES. */
static void indent(struct buf *b, int level)
{
	static const char spaces[] =
		"                                                                "
		"                ";
	assert(level >= 0 && (size_t)level < sizeof spaces);
	buf_add(b, spaces, (size_t)level);
}

/* 's' as XML attribute text: the five characters BurrTools' own writer
 * escapes by name, tab, LF and CR by number (an attribute would read them
 * as spaces). */
static void buf_escaped(struct buf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': buf_puts(b, "&lt;"); break;
		case '>': buf_puts(b, "&gt;"); break;
		case '&': buf_puts(b, "&amp;"); break;
		case '"': buf_puts(b, "&quot;"); break;
		case '\'': buf_puts(b, "&apos;"); break;
		case '\t': buf_puts(b, "&#9;"); break;
		case '\n': buf_puts(b, "&#10;"); break;
		case '\r': buf_puts(b, "&#13;"); break;
		default: buf_add(b, s, 1); break;
		}
	}
}

/* The colours a puzzle's cells use: 1..n, n the highest. */
static int colours_used(const struct puzzle *p)
{
	int n = 0;
	const struct grid *g = &p->goal;
	for (size_t i = 0; i <= p->npieces; i++) {
		if (i > 0)
			g = &p->pieces[i - 1].shape;
		size_t cells = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
		for (size_t k = 0; k < cells; k++)
			if (puz_cell_colour(g->cells[k]) > n)
				n = puz_cell_colour(g->cells[k]);
	}
	return n;
}

/* <voxel x y z [name] [weight] type="0">cells</voxel>, hotspot (0, 0, 0);
 * the weight when it is not BurrTools' default, 1. */
static void put_shape(struct buf *b, const struct grid *g, const char *name,
                      int weight)
{
	indent(b, 2);
	buf_printf(b, "<voxel x=\"%d\" y=\"%d\" z=\"%d\"", g->nx, g->ny, g->nz);
	if (name) {
		buf_puts(b, " name=\"");
		buf_escaped(b, name);
		buf_puts(b, "\"");
	}
	if (weight > 1)
		buf_printf(b, " weight=\"%d\"", weight);
	buf_puts(b, " type=\"0\">");
	size_t cells = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	for (size_t k = 0; k < cells; k++) {
		unsigned char v = g->cells[k];
		int c = puz_cell_colour(v);
		if (v == 0)
			buf_puts(b, "_");
		else if (puz_cell_optional(v) && c)
			buf_printf(b, "+%d", c);
		else if (v == PUZ_OPTIONAL)
			buf_puts(b, "+");
		else if (c)
			buf_printf(b, "#%d", c);
		else {
			assert(v == PUZ_CELL);
			buf_puts(b, "#");
		}
	}
	buf_puts(b, "</voxel>\n");
}

/* The index just past the moves of the part 'mask' whose moves start at
 * moves[i] (disasm.h's order: the part's own up to its freeing move,
 * then the left part's, then the removed part's). */
/* Whether the part 'mask' is taken apart (has moves): two pieces or
 * more, not all of one group (disasm.h). */
static bool split_part(uint64_t mask, const unsigned *grp)
{
	if (!(mask & (mask - 1)))
		return false;
	unsigned g = grp[__builtin_ctzll(mask)];
	for (uint64_t t = mask; t && g; t &= t - 1)
		if (grp[__builtin_ctzll(t)] != g)
			return true;
	return g == 0;
}

static size_t part_end(const struct dis_move *m, size_t n, size_t i,
                       uint64_t mask, const unsigned *grp)
{
	while (i < n && m[i].dist != 0)
		i++;
	if (i == n)
		return n;
	uint64_t rem = m[i].group, left = mask & ~rem;
	i++;
	if (split_part(left, grp))
		i = part_end(m, n, i, left, grp);
	if (split_part(rem, grp))
		i = part_end(m, n, i, rem, grp);
	return i;
}

/* One state: the positions of the part's pieces (bits of 'mask'). */
static void put_state(struct buf *b, int depth, uint64_t mask,
                      const int (*pos)[3])
{
	static const char *const tag[3] = {"dx", "dy", "dz"};
	indent(b, depth);
	buf_puts(b, "<state>\n");
	for (int a = 0; a < 3; a++) {
		indent(b, depth + 1);
		buf_printf(b, "<%s>", tag[a]);
		bool first = true;
		for (uint64_t t = mask; t; t &= t - 1) {
			buf_printf(b, first ? "%d" : " %d", pos[__builtin_ctzll(t)][a]);
			first = false;
		}
		buf_printf(b, "</%s>\n", tag[a]);
	}
	indent(b, depth);
	buf_puts(b, "</state>\n");
}

/*
 * BurrTools' <separation> of the part 'mask' (bits: placed copies) whose
 * moves start at moves[i], its pieces at 'pos' (as BurrTools writes
 * them: the placements' translations, moved): the pieces (slot numbers),
 * a state per position from the start to the freeing move (whose
 * removed pieces stand 20000 cells away along it, as BurrTools marks
 * them), then the removed part's separation and the left part's, each
 * only when it has two pieces or more. 'type' 0 none, 1 left, 2 removed.
 */
static void put_separation(struct buf *b, int depth, const struct xmp_sep *e,
                           const size_t *slot, const unsigned *grp, size_t i,
                           uint64_t mask, int (*pos)[3], int type)
{
	static const int unit[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0},
	                               {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
	indent(b, depth);
	buf_printf(b, "<separation%s>\n", type == 1 ? " type=\"left\""
	                                : type == 2 ? " type=\"removed\"" : "");
	indent(b, depth + 1);
	buf_printf(b, "<pieces count=\"%d\">", __builtin_popcountll(mask));
	for (uint64_t t = mask; t; t &= t - 1)
		buf_printf(b, t == mask ? "%zu" : " %zu", slot[__builtin_ctzll(t)]);
	buf_puts(b, "</pieces>\n");
	put_state(b, depth + 1, mask, (const int (*)[3])pos);
	for (; i < e->nmoves && e->moves[i].dist != 0; i++) {
		const struct dis_move *m = &e->moves[i];
		for (uint64_t t = m->group; t; t &= t - 1)
			for (int a = 0; a < 3; a++)
				pos[__builtin_ctzll(t)][a] += unit[m->dir][a] * m->dist;
		put_state(b, depth + 1, mask, (const int (*)[3])pos);
	}
	assert(i < e->nmoves);
	const struct dis_move *out = &e->moves[i];
	uint64_t rem = out->group, left = mask & ~rem;
	int far[DIS_MAX_PIECES][3];
	memcpy(far, pos, sizeof far);
	for (uint64_t t = rem; t; t &= t - 1)
		for (int a = 0; a < 3; a++)
			far[__builtin_ctzll(t)][a] += 20000 * unit[out->dir][a];
	put_state(b, depth + 1, mask, (const int (*)[3])far);
	size_t li = i + 1;
	size_t ri = split_part(left, grp)
	          ? part_end(e->moves, e->nmoves, li, left, grp) : li;
	/* each part from the positions before the freeing move; a part of
	 * one piece, or of one group, has none (as BurrTools writes it) */
	if (split_part(rem, grp)) {
		int sub[DIS_MAX_PIECES][3];
		memcpy(sub, pos, sizeof sub);
		put_separation(b, depth + 1, e, slot, grp, ri, rem, sub, 2);
	}
	if (split_part(left, grp))
		put_separation(b, depth + 1, e, slot, grp, li, left, pos, 1);
	indent(b, depth);
	buf_puts(b, "</separation>\n");
}

static void put_solutions(struct buf *b, const struct puzzle *p,
                          const struct xmp_solutions *s)
{
	indent(b, 3);
	buf_puts(b, "<solutions>\n");
	for (size_t i = 0; i < s->n && !b->oom; i++) {
		/* BurrTools numbers assemblies from 0 and leaves out a 0 */
		indent(b, 4);
		if (i)
			buf_printf(b, "<solution asmNum=\"%zu\">\n", i);
		else
			buf_puts(b, "<solution>\n");
		indent(b, 5);
		buf_puts(b, "<assembly>");
		for (size_t k = 0; k < s->slots; k++) {
			const struct xmp_place *q = &s->place[i * s->slots + k];
			if (k)
				buf_puts(b, " ");
			if (q->rot < 0)
				buf_puts(b, "x");
			else
				buf_printf(b, "%d %d %d %d", q->x, q->y, q->z, q->rot);
		}
		buf_puts(b, "</assembly>\n");
		if (s->sep) {
			/* the placed copies in slot order, as the moves name them */
			size_t slot[DIS_MAX_PIECES];
			unsigned grp[DIS_MAX_PIECES];
			int pos[DIS_MAX_PIECES][3];
			size_t np = 0, piece = 0, end = puz_piece_max(&p->pieces[0]);
			for (size_t k = 0; k < s->slots && np < DIS_MAX_PIECES; k++) {
				while (k >= end && piece + 1 < p->npieces)
					end += puz_piece_max(&p->pieces[++piece]);
				const struct xmp_place *q = &s->place[i * s->slots + k];
				if (q->rot < 0)
					continue;
				slot[np] = k;
				grp[np] = p->pieces[piece].group;
				pos[np][0] = q->x;
				pos[np][1] = q->y;
				pos[np][2] = q->z;
				np++;
			}
			uint64_t all = np == 64 ? ~(uint64_t)0 : ((uint64_t)1 << np) - 1;
			if (np > 1)
				put_separation(b, 5, &s->sep[i], slot, grp, 0, all, pos, 0);
		}
		indent(b, 4);
		buf_puts(b, "</solution>\n");
	}
	indent(b, 3);
	buf_puts(b, "</solutions>\n");
}

static void put_puzzle(struct buf *b, const struct puzzle *p,
                       const struct xmp_solutions *sols)
{
	int ncol = colours_used(p);
	buf_puts(b, "<?xml version=\"1.0\"?>\n<puzzle version=\"2\">\n");
	indent(b, 1);
	buf_puts(b, "<gridType type=\"0\"/>\n");
	indent(b, 1);
	if (ncol == 0) {
		buf_puts(b, "<colors/>\n");
	} else {
		buf_puts(b, "<colors>\n");
		for (int c = 1; c <= ncol; c++) {
			uint32_t rgb = puz_colour_rgb(p, c);
			indent(b, 2);
			buf_printf(b, "<color red=\"%u\" green=\"%u\" blue=\"%u\"/>\n",
			           (unsigned)(rgb >> 16 & 0xff),
			           (unsigned)(rgb >> 8 & 0xff), (unsigned)(rgb & 0xff));
		}
		indent(b, 1);
		buf_puts(b, "</colors>\n");
	}
	/* the goal first, or last when a piece has a group (puz.h) */
	bool last = false;
	for (size_t i = 0; i < p->npieces; i++)
		last |= p->pieces[i].group != 0;
	size_t first = last ? 0 : 1; /* the first piece's shape number */
	indent(b, 1);
	buf_puts(b, "<shapes>\n");
	if (!last)
		put_shape(b, &p->goal, "goal", 1);
	for (size_t i = 0; i < p->npieces; i++)
		put_shape(b, &p->pieces[i].shape, p->pieces[i].name,
		          p->pieces[i].weight);
	if (last)
		put_shape(b, &p->goal, "goal", 1);
	indent(b, 1);
	buf_puts(b, "</shapes>\n");
	indent(b, 1);
	buf_puts(b, "<problems>\n");
	indent(b, 2);
	buf_puts(b, "<problem");
	if (p->name[0]) {
		buf_puts(b, " name=\"");
		buf_escaped(b, p->name);
		buf_puts(b, "\"");
	}
	buf_puts(b, " state=\"0\">\n");
	indent(b, 3);
	buf_puts(b, "<shapes>\n");
	for (size_t i = 0; i < p->npieces; i++) {
		const struct puz_piece *pc = &p->pieces[i];
		indent(b, 4);
		if (pc->count_max)
			buf_printf(b, "<shape id=\"%zu\" min=\"%u\" max=\"%u\"",
			           first + i, pc->count, pc->count_max);
		else
			buf_printf(b, "<shape id=\"%zu\" count=\"%u\"",
			           first + i, pc->count);
		if (pc->group)
			buf_printf(b, " group=\"%u\"", pc->group);
		buf_puts(b, "/>\n");
	}
	indent(b, 3);
	buf_puts(b, "</shapes>\n");
	indent(b, 3);
	buf_printf(b, "<result id=\"%zu\"/>\n", last ? p->npieces : (size_t)0);
	/* The pairs in BurrTools' order (its std::set of piece << 16 |
	 * result): by piece colour, then goal colour. */
	bool any = false;
	for (int pc = 1; pc <= ncol; pc++)
		for (int gc = 1; gc <= ncol; gc++) {
			if (!(p->has_match ? (p->match[pc] >> gc & 1) : pc == gc))
				continue;
			if (!any) {
				indent(b, 3);
				buf_puts(b, "<bitmap>\n");
				any = true;
			}
			indent(b, 4);
			buf_printf(b, "<pair piece=\"%d\" result=\"%d\"/>\n", pc - 1,
			           gc - 1);
		}
	indent(b, 3);
	buf_puts(b, any ? "</bitmap>\n" : "<bitmap/>\n");
	if (sols && sols->n)
		put_solutions(b, p, sols);
	indent(b, 2);
	buf_puts(b, "</problem>\n");
	indent(b, 1);
	buf_puts(b, "</problems>\n");
	indent(b, 1);
	buf_puts(b, "<comment/>\n</puzzle>\n");
}

/* ---- gzip ----------------------------------------------------------------- */

static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	return calloc(items, size);
}

static void z_free(voidpf opaque, voidpf address)
{
	(void)opaque;
	free(address);
}

/* Deflate 'len' bytes of 's' into a gzip stream on 'fp'. */
static int write_gzip(FILE *fp, const char *s, size_t len)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	z.zalloc = z_alloc;
	z.zfree = z_free;
	/* 15 + 16: a gzip wrapper around a 32 KiB window; level 9 as
	 * the files are small and written once */
	if (deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return PUZ_ENOMEM;
	/* no name, no time stamp; the OS byte says Unix on every host */
	gz_header h;
	memset(&h, 0, sizeof h);
	h.os = 3;
	int rc = deflateSetHeader(&z, &h) == Z_OK ? PUZ_OK : PUZ_ENOMEM;
	unsigned char out[16384];
	z.next_in = (Bytef *)(uintptr_t)s;
	bool done = false;
	while (rc == PUZ_OK && !done) {
		/* uInt may be narrower than size_t: feed at most 1 GiB a time */
		if (z.avail_in == 0 && len > 0) {
			size_t n = len < ((size_t)1 << 30) ? len : (size_t)1 << 30;
			z.avail_in = (uInt)n;
			len -= n;
		}
		z.next_out = out;
		z.avail_out = sizeof out;
		int zr = deflate(&z, len == 0 ? Z_FINISH : Z_NO_FLUSH);
		if (zr == Z_STREAM_END)
			done = true;
		else if (zr != Z_OK && zr != Z_BUF_ERROR)
			rc = PUZ_ENOMEM;
		size_t have = sizeof out - z.avail_out;
		if (rc == PUZ_OK && have && fwrite(out, 1, have, fp) != have)
			rc = PUZ_EIO;
	}
	deflateEnd(&z);
	return rc;
}

int xmp_write(FILE *fp, const struct puzzle *p,
              const struct xmp_solutions *sols, bool gzip)
{
#ifndef NDEBUG
	char why[160];
	assert(xmp_writable(p, sols != NULL, why, sizeof why));
#endif
	struct buf b = {NULL, 0, 0, false};
	put_puzzle(&b, p, sols);
	int rc = PUZ_ENOMEM;
	if (!b.oom) {
		if (gzip)
			rc = write_gzip(fp, b.s, b.len);
		else
			rc = fwrite(b.s, 1, b.len, fp) == b.len ? PUZ_OK : PUZ_EIO;
	}
	free(b.s);
	return rc;
}
