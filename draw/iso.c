/*
 * iso.c: isometric views (draw.h's coordinates): where lattice points
 * land, the size of a box's view and the largest scale that fits it in
 * a place, the shades of a colour, and cells drawn as cubes back to
 * front.
 *
 * Workload: views of up to DRAW_MAX_N cells a side; of each cell only the
 * sides no neighbour hides are drawn, each a 4-point polygon. Nothing in
 * draw/ uses floating point: an isometric view places lattice point
 * (x, y, z) at
 *     X = ox + (x - y) * dx,   Y = oy + (x + y) * u - 2 * z * u,
 * with u and dx = u * sqrt(3) (rounded) in 1/16 pixel and floor division,
 * so neighbouring cubes share exact pixel corners and the bytes do not
 * depend on a platform's floating point.
 */
#include "draw/draw_int.h"

#include <stddef.h>
#include <stdint.h>

/* floor(a / b) for b > 0; C's '/' truncates toward zero. */
static int64_t fdiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int64_t iso_dxq(int64_t uq)
{
	return (uq * 443 + 128) >> 8; /* 443 / 256 = 1.7305 ~ sqrt(3) */
}

/* Screen point of the lattice point (x2/2, y2/2, z2/2): doubled
 * coordinates, so centres of faces are lattice points too. */
gdPoint dr_iso_pt(const struct iso *v, int x2, int y2, int z2)
{
	gdPoint p;
	p.x = v->ox + (int)fdiv((int64_t)(x2 - y2) * v->dxq, 32);
	p.y = v->oy + (int)fdiv((int64_t)(x2 + y2) * v->uq -
	                        (int64_t)z2 * 2 * v->uq, 32);
	return p;
}

/* Pixel size of an nx*ny*nz box drawn at scale uq. */
void dr_iso_size(int64_t uq, int nx, int ny, int nz, int *w, int *h)
{
	struct iso v = {0, 0, uq, iso_dxq(uq)};
	gdPoint left = dr_iso_pt(&v, 0, 2 * ny, 0), right = dr_iso_pt(&v, 2 * nx, 0, 0);
	gdPoint top = dr_iso_pt(&v, 0, 0, 2 * nz);
	gdPoint bottom = dr_iso_pt(&v, 2 * nx, 2 * ny, 0);
	*w = right.x - left.x + 1;
	*h = bottom.y - top.y + 1;
}

/* A view of a box ny deep and nz high (its x side does not move the
 * origin) whose bounding box starts at pixel (bx, by). */
struct iso dr_iso_place(int64_t uq, int ny, int nz, int bx, int by)
{
	struct iso v = {0, 0, uq, iso_dxq(uq)};
	gdPoint left = dr_iso_pt(&v, 0, 2 * ny, 0), top = dr_iso_pt(&v, 0, 0, 2 * nz);
	v.ox = bx - left.x;
	v.oy = by - top.y;
	return v;
}

/* The largest scale in [UQ_MIN, uq_max] at which the box fits w x h
 * pixels, or UQ_MIN when none does. */
int64_t dr_iso_fit(int w, int h, int nx, int ny, int nz, int64_t uq_max)
{
	for (int64_t uq = uq_max; uq > UQ_MIN; uq--) {
		int bw, bh;
		dr_iso_size(uq, nx, ny, nz, &bw, &bh);
		if (bw <= w && bh <= h)
			return uq;
	}
	return UQ_MIN;
}

/* Three shades of one colour: the top as drawn in flat pictures, the +Y
 * side darker, the +X side darker still, as if lit from above left; the
 * outline darker again. Below 3 pixels a cube, outlines would swamp the
 * colour and beat into moire patterns, so there are none. */
struct shade dr_shade_of(gdImagePtr im, uint32_t rgb, int64_t uq)
{
	struct shade s;
	s.top = dr_gdc(im, rgb);
	s.left = dr_gdc(im, dr_mix(rgb, BLACK, 52));
	s.right = dr_gdc(im, dr_mix(rgb, BLACK, 100));
	s.line = uq >= 48 ? dr_gdc(im, dr_mix(rgb, BLACK, 176)) : -1;
	return s;
}

static void iso_face(gdImagePtr im, const struct iso *v, const int (*p)[3],
                     int fill, int line)
{
	gdPoint pt[4];
	for (int i = 0; i < 4; i++)
		pt[i] = dr_iso_pt(v, 2 * p[i][0], 2 * p[i][1], 2 * p[i][2]);
	gdImageFilledPolygon(im, pt, 4, fill);
	if (line >= 0)
		gdImagePolygon(im, pt, 4, line);
}

/*
 * The cells of 'lab' (nx*ny*nz, 0 empty, else an index into 'sh') as
 * shaded cubes; when 'rgb' is not NULL each cell is shaded from its own
 * colour there instead. Painter's algorithm: with the eye on the +X+Y+Z
 * diagonal a cube can only hide cubes of smaller x+y+z, and cubes with the
 * same sum never overlap on screen, so drawing by increasing x+y+z is back
 * to front. Only sides with no cell beyond them are drawn.
 */
void dr_iso_draw(gdImagePtr im, const struct iso *v,
                 const unsigned char *lab, const uint32_t *rgb, int nx,
                 int ny, int nz, const struct shade *sh)
{
	size_t sy = (size_t)nx, sz = (size_t)nx * (size_t)ny;
	int dmax = (nx - 1) + (ny - 1) + (nz - 1);
	/* Neighbouring cells mostly share a colour: shade each run once. */
	struct shade own = {0, 0, 0, -1};
	uint32_t own_rgb = 0;
	int have_own = 0;

	for (int d = 0; d <= dmax; d++)
		for (int z = imax(0, d - (nx - 1) - (ny - 1)); z <= imin(nz - 1, d); z++)
			for (int y = imax(0, d - z - (nx - 1)); y <= imin(ny - 1, d - z); y++) {
				int x = d - z - y;
				size_t i = (size_t)x + sy * (size_t)y + sz * (size_t)z;
				int k = lab[i];
				if (k == 0)
					continue;
				const struct shade *s = &sh[k];
				if (rgb != NULL) {
					if (!have_own || rgb[i] != own_rgb) {
						own_rgb = rgb[i];
						own = dr_shade_of(im, own_rgb, v->uq);
						have_own = 1;
					}
					s = &own;
				}
				if (z == nz - 1 || lab[i + sz] == 0) {
					const int q[4][3] = {{x, y, z + 1}, {x + 1, y, z + 1},
					                     {x + 1, y + 1, z + 1}, {x, y + 1, z + 1}};
					iso_face(im, v, q, s->top, s->line);
				}
				if (y == ny - 1 || lab[i + sy] == 0) {
					const int q[4][3] = {{x, y + 1, z}, {x + 1, y + 1, z},
					                     {x + 1, y + 1, z + 1}, {x, y + 1, z + 1}};
					iso_face(im, v, q, s->left, s->line);
				}
				if (x == nx - 1 || lab[i + 1] == 0) {
					const int q[4][3] = {{x + 1, y, z}, {x + 1, y + 1, z},
					                     {x + 1, y + 1, z + 1}, {x + 1, y, z + 1}};
					iso_face(im, v, q, s->right, s->line);
				}
			}
}
