/*
 * puzwrite.c: the .puz writer: the text puzread.c reads back as the same
 * puzzle, LF line ends, one blank line between blocks and sections. A
 * plain puzzle gives the bytes it gave before colour puzzles; the colour
 * lines appear only when used: `colour` lines before the goal, `match`
 * lines, regions and one `distinct` line after the pieces.
 */
#include "formats/fmt_int.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* .puz writer                                                         */

/* The character of cell value 'v' (puzread.c's cell_value() backwards).
 * A value no file can hold (an optional cell in a piece, anything else)
 * is the caller's error: asserted, and written as '?' so that without
 * asserts the text fails to read back rather than reading as another
 * puzzle. */
static char cell_char(unsigned char v, bool goal)
{
	int c = puz_cell_colour(v);

	if (v == 0)
		return '.';
	if (v == PUZ_CELL)
		return '#';
	if (puz_cell_optional(v)) {
		assert(goal);
		if (!goal)
			return '?';
		return c ? (char)('A' + c - 1) : '+';
	}
	if (c != 0)
		return (char)('a' + c - 1);
	assert(!"a cell value no file can hold");
	return '?';
}

/* The blocks of 'g'; 'goal' says whether optional cells ('+', 'A'..'Z')
 * may stand in it. A region
 * (cells 0 or 1) is written as a plain shape. */
static int write_shape(FILE *fp, const struct grid *g, bool goal)
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
				row[x] = cell_char(
					g->cells[puz_grid_index(g, x, y, z)],
					goal);
			row[g->nx] = '\n';
			if (fwrite(row, 1, (size_t)g->nx + 1, fp) !=
			    (size_t)g->nx + 1)
				return PUZ_EIO;
		}
	}
	return PUZ_OK;
}

#ifndef NDEBUG /* only asserts use these */
/* The colours the cells of 'g' use: bit c for colour c (bit 0 for plain
 * cells and none). */
static uint32_t colours_used(const struct grid *g)
{
	size_t i, n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz;
	uint32_t m = 0;

	for (i = 0; i < n; i++)
		m |= (uint32_t)1 << puz_cell_colour(g->cells[i]);
	return m;
}

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

/* A piece or region name: 1..PUZ_MAX_NAME bytes of printable ASCII. */
static bool piece_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (n == 0 || n > PUZ_MAX_NAME)
		return false;
	for (i = 0; i < n; i++)
		if (!fmt_name_char_ok(name[i]))
			return false;
	return true;
}

/* A region a reader could have produced: a name, members only on goal
 * cells, a name no other region has. */
static bool region_ok(const struct puzzle *p, size_t r)
{
	const struct puz_region *rg = &p->regions[r];
	size_t i, n = (size_t)p->goal.nx * (size_t)p->goal.ny *
	              (size_t)p->goal.nz;

	if (!piece_name_ok(rg->name) || strcmp(rg->name, "faces") == 0 ||
	    rg->cells == NULL)
		return false;
	for (i = 0; i < n; i++)
		if (rg->cells[i] > 1 || (rg->cells[i] && !p->goal.cells[i]))
			return false;
	for (i = 0; i < r; i++)
		if (strcmp(p->regions[i].name, rg->name) == 0)
			return false;
	return true;
}

/* A count a reader could have produced, and the sum of the maxima
 * within the limit. */
static bool counts_ok(const struct puzzle *p)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < p->npieces; i++) {
		const struct puz_piece *pc = &p->pieces[i];

		if (pc->count_max ? pc->count_max <= pc->count : pc->count < 1)
			return false;
		total += puz_piece_max(pc);
	}
	return total <= PUZ_MAX_PIECES;
}
#endif

/* `match P G` for every entry of the table, P then G in letter order.
 * A reader refuses a colour no cell of its side uses, so such an entry
 * (and a table with no entries) is the caller's error. */
static int write_matches(FILE *fp, const struct puzzle *p)
{
	int pc, gc;

	if (!p->has_match) {
		for (pc = 0; pc <= PUZ_NCOLOURS; pc++)
			assert(p->match[pc] == 0);
		return PUZ_OK;
	}
#ifndef NDEBUG
	{
		uint32_t pused = 0, gused = colours_used(&p->goal) & ~1u;
		uint32_t any = p->match[0];

		for (size_t i = 0; i < p->npieces; i++)
			pused |= colours_used(&p->pieces[i].shape);
		assert(p->match[0] == 0);
		for (pc = 1; pc <= PUZ_NCOLOURS; pc++) {
			assert(p->match[pc] == 0 || (pused >> pc & 1));
			assert((p->match[pc] & ~gused) == 0);
			any |= p->match[pc];
		}
		assert(any != 0);
	}
#endif
	if (fputc('\n', fp) == EOF)
		return PUZ_EIO;
	for (pc = 1; pc <= PUZ_NCOLOURS; pc++)
		for (gc = 1; gc <= PUZ_NCOLOURS; gc++)
			if ((p->match[pc] >> gc & 1) &&
			    fprintf(fp, "match %c %c\n", 'a' + pc - 1,
			            'a' + gc - 1) < 0)
				return PUZ_EIO;
	return PUZ_OK;
}

/* Each region and its blocks, then one `distinct` line (faces first). */
static int write_regions(FILE *fp, const struct puzzle *p)
{
	bool any = p->distinct_faces;
	size_t i;

	assert(p->nregions <= PUZ_MAX_REGIONS);
	assert(p->nregions == 0 || p->regions != NULL);
	for (i = 0; i < p->nregions; i++) {
		struct grid g = p->goal;

		assert(region_ok(p, i));
		g.cells = p->regions[i].cells;
		if (fprintf(fp, "\nregion %s\n", p->regions[i].name) < 0 ||
		    write_shape(fp, &g, false) != PUZ_OK)
			return PUZ_EIO;
		any |= p->regions[i].distinct;
	}
	if (!any)
		return PUZ_OK;
	if (fputs("\ndistinct", fp) == EOF ||
	    (p->distinct_faces && fputs(" faces", fp) == EOF))
		return PUZ_EIO;
	for (i = 0; i < p->nregions; i++)
		if (p->regions[i].distinct &&
		    fprintf(fp, " %s", p->regions[i].name) < 0)
			return PUZ_EIO;
	if (fputc('\n', fp) == EOF)
		return PUZ_EIO;
	return PUZ_OK;
}

/*
 * Write 'p' as .puz text, LF only: `puzzle v1`, then `name`, `size` and
 * `seed` when set, `colour` lines in letter order, the goal ('+' for an
 * optional cell, 'A'..'Z' for one of a colour), and each piece (` count K` only when K > 1, ` count
 * MIN..MAX` for a range); then, when used, `match` lines (P then G in
 * letter order), each region and its blocks, and one `distinct` line
 * (`faces` first, then the distinct regions in order). One blank line
 * between blocks and between sections. The puzzle must be one a reader
 * could have produced (asserted where cheap): what the format cannot say
 * (an optional cell in a piece, a match entry for a colour no cell of
 * its side uses, a match table with no entries) is the caller's error. Flushes 'fp' so that a full disk shows up here; PUZ_EIO
 * with errno as stdio left it.
 */
int puz_write(FILE *fp, const struct puzzle *p)
{
	size_t i;
	int c;

	assert(fp != NULL && p != NULL);
	assert(title_ok(p->name));
	assert(counts_ok(p));
	for (int k = 0; k < 3; k++)
		assert(p->size[k] >= 0 && p->size[k] <= PUZ_MAX_DIM);
	assert((p->rgb_set & ~((uint32_t)0x3FFFFFF << 1)) == 0);
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
	for (c = 1; c <= PUZ_NCOLOURS; c++) {
		if (!(p->rgb_set >> c & 1))
			continue;
		assert(p->rgb[c] <= 0xFFFFFF);
		if (fprintf(fp, "colour %c %06" PRIX32 "\n", 'a' + c - 1,
		            p->rgb[c] & 0xFFFFFF) < 0)
			return PUZ_EIO;
	}
	if (fprintf(fp, "goal %d %d %d\n", p->goal.nx, p->goal.ny,
	            p->goal.nz) < 0)
		return PUZ_EIO;
	if (write_shape(fp, &p->goal, true) != PUZ_OK)
		return PUZ_EIO;
	for (i = 0; i < p->npieces; i++) {
		const struct puz_piece *pc = &p->pieces[i];

		assert(piece_name_ok(pc->name));
		if (fprintf(fp, "\npiece %s %d %d %d", pc->name, pc->shape.nx,
		            pc->shape.ny, pc->shape.nz) < 0)
			return PUZ_EIO;
		if (pc->count_max != 0) {
			if (fprintf(fp, " count %u..%u", pc->count,
			            pc->count_max) < 0)
				return PUZ_EIO;
		} else if (pc->count > 1 &&
		           fprintf(fp, " count %u", pc->count) < 0) {
			return PUZ_EIO;
		}
		if (pc->weight > 1 && fprintf(fp, " weight %d", pc->weight) < 0)
			return PUZ_EIO;
		if (pc->group && fprintf(fp, " group %u", pc->group) < 0)
			return PUZ_EIO;
		if (fputc('\n', fp) == EOF)
			return PUZ_EIO;
		if (write_shape(fp, &pc->shape, false) != PUZ_OK)
			return PUZ_EIO;
	}
	if (write_matches(fp, p) != PUZ_OK || write_regions(fp, p) != PUZ_OK)
		return PUZ_EIO;
	if (fflush(fp) == EOF)
		return PUZ_EIO;
	return PUZ_OK;
}
