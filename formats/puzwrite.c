/*
 * puzwrite.c: the .puz writer: the text puzread.c reads back as the same
 * puzzle, LF line ends, one blank line between blocks and sections.
 */
#include "formats/fmt_int.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

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
		if (!fmt_name_char_ok(name[i]))
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
