/*
 * canvas.c: the colours of draw.h (draw_colour(), and draw_strerror()),
 * the palette canvas every picture is drawn on, the drawing primitives
 * and the colour swatches beside names.
 *
 * Workload: a few pictures per generated puzzle, each at most
 * DRAW_MAX_SIDE pixels a side, of boxes up to DRAW_MAX_N cells a side:
 * about a million pixels each, of a few dozen flat colours. What costs is
 * touching every pixel (drawing, encoding, and the memory itself), so the
 * pictures are palette images (a byte a pixel), rectangles are written
 * straight into the rows, and PNGs are encoded by libpng at zlib's fastest
 * level with no row filters (png.c's dr_finish()); generate's two pictures
 * take about 10 ms, where a true-colour picture encoded by libgd took 100.
 */
#include "draw/draw_int.h"

#include <assert.h>
#include <stdint.h>
#include <string.h>

/* t/256 of the way from colour a to colour b. */
uint32_t dr_mix(uint32_t a, uint32_t b, unsigned t)
{
	uint32_t out = 0;
	for (int sh = 0; sh <= 16; sh += 8) {
		unsigned ca = (a >> sh) & 255, cb = (b >> sh) & 255;
		out |= (uint32_t)((ca * (256 - t) + cb * t + 128) >> 8) << sh;
	}
	return out;
}

/* The palette index of 'rgb' in 'im', allocated on first use. Numbers'
 * colours alone never fill the palette (see DRAW_CYCLE); a colour
 * puzzle's own colours (up to 26, in their shades) beside them can, and
 * then the nearest colour already in the palette stands in. */
int dr_gdc(gdImagePtr im, uint32_t rgb)
{
	int r = (int)(rgb >> 16) & 255, g = (int)(rgb >> 8) & 255, b = (int)rgb & 255;
	int c = gdImageColorExact(im, r, g, b);
	if (c < 0)
		c = gdImageColorAllocate(im, r, g, b);
	if (c < 0)
		c = gdImageColorClosest(im, r, g, b);
	assert(c >= 0);
	return c;
}

const char *draw_strerror(int status)
{
	switch (status) {
	case DRAW_OK:
		return "success";
	case DRAW_ENOMEM:
		return "out of memory while drawing a picture";
	case DRAW_EPNG:
		return "libpng could not encode the PNG";
	case DRAW_ETOOBIG:
		return "too many or too large pieces to fit in one picture";
	}
	return "unknown drawing error";
}

/*
 * Pieces of one puzzle must differ in hue, not only in brightness, and
 * stay apart for colour-blind readers. Okabe & Ito's palette (2008) is the
 * usual choice for the second, but its sky blue and blue share one hue
 * (202 degrees), so blue moves to ninth and the seventh and eighth are
 * Paul Tol's indigo and green (his "muted" scheme): the first eight are
 * then eight hues at least 14 degrees apart (orange 41, sky blue 202,
 * bluish green 164, yellow 56, vermillion 26, reddish purple 327, indigo
 * 250, green 140; test_draw checks the spacing). The last six repeat
 * nearby hues at other lightness; beyond 14 the cycle repeats paler, then
 * darker; names and numbers carry the rest.
 */
static const uint32_t palette[14] = {
	0xE69F00, /* orange */
	0x56B4E9, /* sky blue */
	0x009E73, /* bluish green */
	0xF0E442, /* yellow */
	0xD55E00, /* vermillion */
	0xCC79A7, /* reddish purple */
	0x332288, /* indigo */
	0x117733, /* green */
	0x0072B2, /* blue */
	0x882255, /* wine */
	0x999933, /* olive */
	0xCC6677, /* rose */
	0x44AA99, /* teal */
	0xDDCC77, /* sand */
};

uint32_t draw_colour(int k)
{
	assert(k >= 1 && k <= DRAW_MAX_PIECES);
	uint32_t base = palette[(k - 1) % 14];
	switch (((k - 1) / 14) % 3) {
	case 1:
		return dr_mix(base, WHITE, 128);
	case 2:
		return dr_mix(base, BLACK, 96);
	}
	return base;
}

/* ---- drawing primitives ------------------------------------------------ */

/*
 * The filled rectangle with corners (x0, y0) and (x1, y1), both included,
 * clipped to the image: what gdImageFilledRectangle() paints on our
 * canvases (opaque colours, no blending, no clip rectangle), written into
 * the rows directly because libgd goes through gdImageSetPixel() for
 * every pixel, and the canvases are a million pixels of mostly
 * rectangles.
 */
void dr_rect(gdImagePtr im, int x0, int y0, int x1, int y1, uint32_t rgb)
{
	int col = dr_gdc(im, rgb);
	if (x0 > x1) {
		int t = x0;
		x0 = x1;
		x1 = t;
	}
	if (y0 > y1) {
		int t = y0;
		y0 = y1;
		y1 = t;
	}
	x0 = imax(x0, 0);
	y0 = imax(y0, 0);
	x1 = imin(x1, gdImageSX(im) - 1);
	y1 = imin(y1, gdImageSY(im) - 1);
	for (int y = y0; y <= y1; y++)
		memset(im->pixels[y] + x0, col, (size_t)(x1 - x0 + 1));
}

void dr_frame(gdImagePtr im, int x0, int y0, int x1, int y1, uint32_t rgb)
{
	gdImageRectangle(im, x0, y0, x1, y1, dr_gdc(im, rgb));
}

/*
 * A white canvas; NULL when libgd cannot allocate it. A palette image:
 * its background is colour 0, so the zeroed rows libgd allocates are
 * already white, it takes a quarter of the memory of true colour, and
 * its rows are what the PNG encoder writes.
 *
 * gdImageFilledPolygon() mallocs its scratch row on first use and, when
 * that fails, returns having drawn nothing: the picture would silently
 * lack faces. So the canvas makes it allocate now, with a 4-point polygon
 * wholly off the image (it paints no pixel), and counts a failure there as
 * the canvas's. Every polygon drawn later also has 4 points, so the
 * scratch never needs to grow.
 */
gdImagePtr dr_canvas(int w, int h)
{
	gdImagePtr im = gdImageCreate(w, h);
	if (im == NULL)
		return NULL;
	dr_gdc(im, DRAW_BG); /* colour 0: every pixel so far */
	gdPoint off[4] = {{-16, -16}, {-16, -16}, {-16, -16}, {-16, -16}};
	gdImageFilledPolygon(im, off, 4, dr_gdc(im, DRAW_BG));
	if (im->polyInts == NULL || im->polyAllocated < 4) {
		gdImageDestroy(im);
		return NULL;
	}
	return im;
}

/* ---- swatches ---------------------------------------------------------- */

void dr_swatch_add(struct swatch *w, uint32_t rgb)
{
	for (int i = 0; i < w->n; i++)
		if (w->c[i] == rgb)
			return;
	if (w->n < DRAW_SWATCH_MAX)
		w->c[w->n++] = rgb;
}

/* [x0, x1] x [y0, y1] filled with the swatch's colours as vertical
 * stripes of nearly equal widths (at least one pixel each). */
void dr_swatch_draw(gdImagePtr im, int x0, int y0, int x1, int y1,
                    const struct swatch *w)
{
	int width = x1 - x0 + 1, n = imin(w->n, width);
	for (int i = 0; i < n; i++)
		dr_rect(im, x0 + width * i / n, y0, x0 + width * (i + 1) / n - 1, y1,
		        w->c[i]);
}
