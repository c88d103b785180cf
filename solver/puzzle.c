/*
 * puzzle.c: grids and puzzles in memory (solver/puzzle.h): allocating,
 * measuring and freeing them. No files here: formats/ reads and writes
 * them.
 */
#include "solver/puzzle.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* nx*ny*nz as a size_t, or false when it does not fit. */
bool puz_box_cells(int nx, int ny, int nz, size_t *n)
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
	if (!puz_box_cells(nx, ny, nz, &n))
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

	if (g->cells == NULL || !puz_box_cells(g->nx, g->ny, g->nz, &n))
		return 0;
	for (i = 0; i < n; i++)
		v += g->cells[i] != 0;
	return v;
}

uint32_t puz_colour_rgb(const struct puzzle *p, int c)
{
	static const uint32_t fallback[PUZ_NCOLOURS] = {
		0xE6194B, 0x3CB44B, 0xFFE119, 0x4363D8, 0xF58231, 0x911EB4,
		0x42D4F4, 0xF032E6, 0xBFEF45, 0xFABED4, 0x469990, 0xDCBEFF,
		0x9A6324, 0xFFFAC8, 0x800000, 0xAAFFC3, 0x808000, 0xFFD8B1,
		0x000075, 0xA9A9A9, 0xFFFFFF, 0x000000, 0x5F9EA0, 0xD2691E,
		0x2E8B57, 0xB0C4DE,
	};

	assert(c >= 1 && c <= PUZ_NCOLOURS);
	if (p->rgb_set >> c & 1)
		return p->rgb[c];
	return fallback[c - 1];
}

static bool grid_plain(const struct grid *g)
{
	size_t n;

	if (g->cells == NULL || !puz_box_cells(g->nx, g->ny, g->nz, &n))
		return true;
	for (size_t i = 0; i < n; i++)
		if (g->cells[i] > PUZ_CELL)
			return false;
	return true;
}

bool puz_plain(const struct puzzle *p)
{
	if (!grid_plain(&p->goal) || p->distinct_faces)
		return false;
	for (size_t i = 0; i < p->nregions; i++)
		if (p->regions[i].distinct)
			return false;
	for (size_t i = 0; i < p->npieces; i++)
		if (p->pieces[i].count_max || !grid_plain(&p->pieces[i].shape))
			return false;
	return true;
}

void puz_clear(struct puzzle *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->npieces; i++)
		puz_grid_clear(&p->pieces[i].shape);
	free(p->pieces);
	for (i = 0; i < p->nregions; i++)
		free(p->regions[i].cells);
	free(p->regions);
	puz_grid_clear(&p->goal);
	memset(p, 0, sizeof(*p));
}
