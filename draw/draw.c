/*
 * draw.c: the pictures of draw.h, and the one file of cubegen that sees
 * libgd and libpng.
 *
 * Workload: a few pictures per generated puzzle, each at most
 * DRAW_MAX_SIDE pixels a side, of boxes up to DRAW_MAX_N cells a side:
 * about a million pixels each, of a few dozen flat colours. What costs is
 * touching every pixel (drawing, encoding, and the memory itself), so the
 * pictures are palette images (a byte a pixel), rectangles are written
 * straight into the rows, and PNGs are encoded by libpng at zlib's fastest
 * level with no row filters (finish()); generate's two pictures take
 * about 10 ms, where a true-colour picture encoded by libgd took 100.
 *
 * Every picture is built in three steps: size it from the input (integer
 * formulas, documented in draw.h for the two fixed layouts), draw into a
 * gd image (canvas()), then encode it with libpng into a malloc() buffer
 * so callers never free libgd memory. Nothing here uses floating
 * point: an isometric view places lattice point (x, y, z) at
 *     X = ox + (x - y) * dx,   Y = oy + (x + y) * u - 2 * z * u,
 * with u and dx = u * sqrt(3) (rounded) in 1/16 pixel and floor division,
 * so neighbouring cubes share exact pixel corners and the bytes do not
 * depend on a platform's floating point.
 */
#include "draw/draw.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gd.h>
#include <png.h>
#include <setjmp.h>
#include <gdfontg.h>

#define INK 0x202020        /* text, tag borders, piece outlines */
#define INK_SOFT 0x555555   /* captions, face borders of the net */
#define GRID_EMPTY 0xC8C8C8 /* grid lines around cells with no piece */
#define WHITE 0xFFFFFF
#define BLACK 0x000000

/* libgd's Giant font: 9x15 pixels a character. */
#define FONT_W 9
#define FONT_H 15

#define FIT_SIDE 1600    /* draw_pieces/draw_assembly aim to stay within */
#define UQ_MIN 8         /* smallest isometric u, in 1/16 px: half a pixel */
#define UQ_PIECES 384    /* largest u for pieces and assemblies: 24 px */
#define UQ_SHELL 640     /* largest u in the answer sheet: 40 px */
#define NAME_H 40        /* name strip below a piece in draw_pieces */
#define LEGEND_ROW 26    /* one row of draw_assembly's legend */
#define LEGEND_CHARS 20  /* names in the legend are cut to this length */
#define TEXT_MAX 256     /* longest text drawn, in characters */
/* The exploded view of draw_assembly may use up to this many cells. */
/* Every picture is a palette image, which holds 256 colours. It never
 * needs more: draw_colour() has DRAW_CYCLE colours, and a picture draws
 * each in at most SHADES_PER_COLOUR shades (flat, its grid lines, and
 * shade_of()'s left, right and outline; the top is the flat colour), plus
 * FIXED_COLOURS others (DRAW_BG = WHITE, DRAW_EMPTY, INK, INK_SOFT,
 * GRID_EMPTY, and one to spare). */
#define DRAW_CYCLE 42 /* draw_colour(): 14 colours, plain, paler, darker */
#define SHADES_PER_COLOUR 5
#define FIXED_COLOURS 6
_Static_assert(DRAW_CYCLE * SHADES_PER_COLOUR + FIXED_COLOURS <= gdMaxColors,
               "the colours of a picture fit a palette");
#define EXPLODE_MAX_CELLS ((size_t)1 << 24)

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }
static int iclamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* floor(a / b) for b > 0; C's '/' truncates toward zero. */
static int64_t fdiv(int64_t a, int64_t b)
{
	int64_t q = a / b;
	return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* a / b rounded half away from zero, for b > 0. */
static int64_t rdiv(int64_t a, int64_t b)
{
	return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

/* t/256 of the way from colour a to colour b. */
static uint32_t mix(uint32_t a, uint32_t b, unsigned t)
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
static int gdc(gdImagePtr im, uint32_t rgb)
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
		return mix(base, WHITE, 128);
	case 2:
		return mix(base, BLACK, 96);
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
static void rect(gdImagePtr im, int x0, int y0, int x1, int y1, uint32_t rgb)
{
	int col = gdc(im, rgb);
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

static void frame(gdImagePtr im, int x0, int y0, int x1, int y1, uint32_t rgb)
{
	gdImageRectangle(im, x0, y0, x1, y1, gdc(im, rgb));
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
static gdImagePtr canvas(int w, int h)
{
	gdImagePtr im = gdImageCreate(w, h);
	if (im == NULL)
		return NULL;
	gdc(im, DRAW_BG); /* colour 0: every pixel so far */
	gdPoint off[4] = {{-16, -16}, {-16, -16}, {-16, -16}, {-16, -16}};
	gdImageFilledPolygon(im, off, 4, gdc(im, DRAW_BG));
	if (im->polyInts == NULL || im->polyAllocated < 4) {
		gdImageDestroy(im);
		return NULL;
	}
	return im;
}

/* ---- PNG encoding -------------------------------------------------------- */

/* The PNG being written, in a malloc() buffer that doubles as it grows. */
struct png_out {
	unsigned char *data;
	size_t len, cap;
	bool nomem; /* an allocation failed: ours or libpng's (or zlib's) */
};

static void png_fail(png_structp png, png_const_charp msg)
{
	(void)msg; /* libraries never print: the status says what failed */
	png_longjmp(png, 1);
}

static void png_quiet(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/* libpng's and zlib's memory comes from malloc() here, so a failure is
 * seen (and the fault build can inject one). */
static png_voidp png_get(png_structp png, png_alloc_size_t n)
{
	void *p = malloc(n);
	if (p == NULL)
		((struct png_out *)png_get_mem_ptr(png))->nomem = true;
	return p;
}

static void png_put(png_structp png, png_voidp p)
{
	(void)png;
	free(p);
}

static void png_append(png_structp png, png_bytep b, size_t n)
{
	struct png_out *o = png_get_io_ptr(png);
	if (n > o->cap - o->len) {
		size_t cap = o->cap ? o->cap : 8192;
		while (cap - o->len < n) {
			if (cap > SIZE_MAX / 2)
				png_error(png, "too big");
			cap *= 2;
		}
		unsigned char *d = realloc(o->data, cap);
		if (d == NULL) {
			o->nomem = true;
			png_error(png, "out of memory");
		}
		o->data = d;
		o->cap = cap;
	}
	memcpy(o->data + o->len, b, n);
	o->len += n;
}

static void png_noflush(png_structp png)
{
	(void)png;
}

/* The header and rows of the PNG of palette image 'im'. Any failure
 * jumps back to png_run(). */
static void png_write_all(png_structp png, png_infop info, gdImagePtr im)
{
	png_color pal[gdMaxColors];
	int n = gdImageColorsTotal(im);
	int depth = n <= 2 ? 1 : n <= 4 ? 2 : n <= 16 ? 4 : 8;
	for (int i = 0; i < n; i++)
		pal[i] = (png_color){(png_byte)im->red[i], (png_byte)im->green[i],
		                     (png_byte)im->blue[i]};
	png_set_write_fn(png, png_get_mem_ptr(png), png_append, png_noflush);
	png_set_compression_level(png, DRAW_PNG_LEVEL);
	png_set_IHDR(png, info, (png_uint_32)gdImageSX(im),
	             (png_uint_32)gdImageSY(im), depth, PNG_COLOR_TYPE_PALETTE,
	             PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
	             PNG_FILTER_TYPE_DEFAULT);
	png_set_PLTE(png, info, pal, n);
	png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_write_info(png, info);
	png_set_packing(png); /* a byte a pixel in, 1, 2 or 4 bits out */
	png_write_image(png, im->pixels);
	png_write_end(png, info);
}

/* libpng reports failures by longjmp(): this function holds the setjmp()
 * and changes no variable after it, so nothing is clobbered. */
static int png_run(struct png_out *o, gdImagePtr im)
{
	png_structp png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, o,
	                                            png_fail, png_quiet, o,
	                                            png_get, png_put);
	png_infop info = png ? png_create_info_struct(png) : NULL;
	if (info == NULL) {
		png_destroy_write_struct(&png, NULL);
		return DRAW_ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		return o->nomem ? DRAW_ENOMEM : DRAW_EPNG;
	}
	png_write_all(png, info, im);
	png_destroy_write_struct(&png, &info);
	return DRAW_OK;
}

/*
 * Encode and hand over: the PNG is in a malloc() buffer the caller frees.
 * Destroys 'im' in every case. The PNG has the canvas's palette, colours
 * in the order the drawing first asked for them, 4 bits a pixel when there are 16 or fewer, and no
 * row filter (filters do not help indexes). zlib's level is
 * DRAW_PNG_LEVEL, its fastest: these pictures are long runs of a few
 * colours, which level 1 already packs to a few dozen kB, where level 6
 * costs about twice the time for a third off the size. libgd's own writer
 * is not used: it cannot turn the filters off, and it prints its errors.
 */
static int finish(gdImagePtr im, unsigned char **png, size_t *len)
{
	struct png_out o = {0};
	int rc = png_run(&o, im);
	gdImageDestroy(im);
	if (rc != DRAW_OK) {
		free(o.data);
		return rc;
	}
	*png = o.data; /* up to twice the PNG's size: callers free it soon */
	*len = o.len;
	return DRAW_OK;
}

/* ---- text -------------------------------------------------------------- */

struct text {
	char s[TEXT_MAX]; /* printable ASCII, NUL-terminated */
	int len;          /* characters in s */
	int cut;          /* 1 when the source was longer */
};

/* 's' as printable ASCII, cut to at most 'max' characters, a cut ending in
 * "..". A NULL 's' is empty. */
static void text_make(struct text *t, const char *s, int max)
{
	size_t full = s ? strlen(s) : 0;
	int n;

	max = iclamp(max, 0, TEXT_MAX - 1);
	for (n = 0; n < max && (size_t)n < full; n++) {
		unsigned char ch = (unsigned char)s[n];
		t->s[n] = (ch >= 32 && ch < 127) ? (char)ch : '?';
	}
	t->cut = (size_t)n < full;
	if (t->cut && n >= 3) {
		t->s[n - 2] = '.';
		t->s[n - 1] = '.';
	}
	t->s[n] = '\0';
	t->len = n;
}

/* Giant-font text with its top-left at (x, y), each font pixel drawn as a
 * scale x scale block: bigger than any built-in font, and still libgd's. */
static void text_draw(gdImagePtr im, int x, int y, int scale,
                      const struct text *t, uint32_t rgb)
{
	gdFontPtr f = gdFontGetGiant();
	int col = gdc(im, rgb);

	assert(f->w == FONT_W && f->h == FONT_H);
	if (scale == 1) {
		gdImageString(im, f, x, y, (unsigned char *)t->s, col);
		return;
	}
	for (int i = 0; i < t->len; i++) {
		int ch = (unsigned char)t->s[i];
		if (ch < f->offset || ch >= f->offset + f->nchars)
			continue;
		const char *g = f->data + (size_t)(ch - f->offset) * FONT_W * FONT_H;
		for (int py = 0; py < FONT_H; py++)
			for (int px = 0; px < FONT_W; px++)
				if (g[py * FONT_W + px]) {
					int x0 = x + (i * FONT_W + px) * scale;
					int y0 = y + py * scale;
					rect(im, x0, y0, x0 + scale - 1, y0 + scale - 1,
					     rgb);
				}
	}
}

/* Text centred horizontally on cx, top at y, cut to fit 'width' pixels. */
static void text_centred(gdImagePtr im, int cx, int y, int width, int scale,
                         const char *s, uint32_t rgb)
{
	struct text t;
	text_make(&t, s, width / (FONT_W * scale));
	text_draw(im, cx - t.len * FONT_W * scale / 2, y, scale, &t, rgb);
}

static int title_height(const char *title)
{
	return (title != NULL && title[0] != '\0') ? DRAW_TITLE_H : DRAW_MARGIN;
}

/* The title, centred on the first DRAW_TITLE_H rows: double size when it
 * fits, else single size, cut if need be. */
static void title_draw(gdImagePtr im, int width, const char *title)
{
	struct text t;
	int avail = width - 2 * DRAW_MARGIN, scale = 2;

	if (title == NULL || title[0] == '\0')
		return;
	text_make(&t, title, avail / (2 * FONT_W));
	if (t.cut) {
		scale = 1;
		text_make(&t, title, avail / FONT_W);
	}
	text_draw(im, (width - t.len * FONT_W * scale) / 2,
	          (DRAW_TITLE_H - FONT_H * scale) / 2, scale, &t, INK);
}

/*
 * A number on a white tag with a dark border, centred on (cx, cy). Scale 2
 * holds one digit in 30x42 pixels; longer numbers drop to scale 1, so a tag
 * always fits in DRAW_TAG_SIDE x DRAW_TAG_SIDE.
 */
static void tag_draw(gdImagePtr im, int cx, int cy, int number, int scale)
{
	char buf[24];
	struct text t;

	snprintf(buf, sizeof buf, "%d", number);
	text_make(&t, buf, 3);
	if (t.len > 1)
		scale = 1;
	int w = t.len * FONT_W * scale + 6 * scale;
	int h = FONT_H * scale + 6 * scale;
	int x0 = cx - w / 2, y0 = cy - h / 2;
	rect(im, x0, y0, x0 + w - 1, y0 + h - 1, INK);
	rect(im, x0 + scale, y0 + scale, x0 + w - 1 - scale, y0 + h - 1 - scale,
	     WHITE);
	text_draw(im, x0 + 3 * scale, y0 + 3 * scale, scale, &t, INK);
}

/* ---- flat grids of cells ----------------------------------------------- */

/*
 * An outline 'thick' pixels wide along one side of the cell whose top-left
 * pixel is (x, y), centred on the cell's boundary line. side: 0 left,
 * 1 right, 2 top, 3 bottom.
 */
static void edge(gdImagePtr im, int x, int y, int c, int side, int thick)
{
	int a = thick / 2, b = (thick - 1) / 2;
	switch (side) {
	case 0:
		rect(im, x - a, y - a, x + b, y + c + b, INK);
		break;
	case 1:
		rect(im, x + c - a, y - a, x + c + b, y + c + b, INK);
		break;
	case 2:
		rect(im, x - a, y - a, x + c + b, y + b, INK);
		break;
	default:
		rect(im, x - a, y + c - a, x + c + b, y + c + b, INK);
		break;
	}
}

/* The colours a swatch shows: distinct, in the order first met. */
struct swatch {
	int n;                       /* colours in c[] */
	uint32_t c[DRAW_SWATCH_MAX]; /* 0xRRGGBB */
};

static void swatch_add(struct swatch *w, uint32_t rgb)
{
	for (int i = 0; i < w->n; i++)
		if (w->c[i] == rgb)
			return;
	if (w->n < DRAW_SWATCH_MAX)
		w->c[w->n++] = rgb;
}

/* [x0, x1] x [y0, y1] filled with the swatch's colours as vertical
 * stripes of nearly equal widths (at least one pixel each). */
static void swatch_draw(gdImagePtr im, int x0, int y0, int x1, int y1,
                        const struct swatch *w)
{
	int width = x1 - x0 + 1, n = imin(w->n, width);
	for (int i = 0; i < n; i++)
		rect(im, x0 + width * i / n, y0, x0 + width * (i + 1) / n - 1, y1,
		     w->c[i]);
}

static int outline_width(int c)
{
	return c >= 16 ? 3 : c >= 8 ? 2 : 1;
}

/*
 * One w*h grid of numbers [u + w*v] with its top-left pixel at (x0, y0),
 * c pixels a cell; phase 0 fills cells and draws their grid lines (0 cells
 * in 'empty', with a light grid; a cell numbered k in colour_of[k], or in
 * rgb[u + w*v] when rgb is not NULL), phase 1 outlines each region of equal
 * nonzero numbers, the rectangle's border included. Plates and net faces
 * both go through here, so they look alike.
 */
static void grid_draw(gdImagePtr im, int x0, int y0, const unsigned char *cells,
                      const int *colour_of, const uint32_t *cell_rgb, int w,
                      int h, int c, uint32_t empty, int phase)
{
	int thick = outline_width(c);

	for (int v = 0; v < h; v++)
		for (int u = 0; u < w; u++) {
			int k = cells[u + w * v], x = x0 + u * c, y = y0 + v * c;
			if (phase == 0) {
				uint32_t rgb = !k ? empty
				               : cell_rgb ? cell_rgb[u + w * v]
				                          : (uint32_t)colour_of[k];
				rect(im, x, y, x + c, y + c, rgb);
				/* Below 4 pixels a cell, grid lines would be half the
				 * picture; the outlines alone read better. */
				if (c >= 4)
					frame(im, x, y, x + c, y + c,
					      k ? mix(rgb, BLACK, 90) : GRID_EMPTY);
				continue;
			}
			if (k == 0)
				continue;
			if (u == 0 || cells[u - 1 + w * v] != k)
				edge(im, x, y, c, 0, thick);
			if (u == w - 1 || cells[u + 1 + w * v] != k)
				edge(im, x, y, c, 1, thick);
			if (v == 0 || cells[u + w * (v - 1)] != k)
				edge(im, x, y, c, 2, thick);
			if (v == h - 1 || cells[u + w * (v + 1)] != k)
				edge(im, x, y, c, 3, thick);
		}
}

/* ---- isometric views --------------------------------------------------- */

/* Where lattice points land: see the file header. Units of 1/16 pixel. */
struct iso {
	int ox, oy;  /* pixel of lattice point (0, 0, 0) */
	int64_t uq;  /* u: half the height of a cube's top, 1/16 px */
	int64_t dxq; /* dx = u * sqrt(3): half its width, 1/16 px */
};

static int64_t iso_dxq(int64_t uq)
{
	return (uq * 443 + 128) >> 8; /* 443 / 256 = 1.7305 ~ sqrt(3) */
}

/* Screen point of the lattice point (x2/2, y2/2, z2/2): doubled
 * coordinates, so centres of faces are lattice points too. */
static gdPoint iso_pt(const struct iso *v, int x2, int y2, int z2)
{
	gdPoint p;
	p.x = v->ox + (int)fdiv((int64_t)(x2 - y2) * v->dxq, 32);
	p.y = v->oy + (int)fdiv((int64_t)(x2 + y2) * v->uq -
	                        (int64_t)z2 * 2 * v->uq, 32);
	return p;
}

/* Pixel size of an nx*ny*nz box drawn at scale uq. */
static void iso_size(int64_t uq, int nx, int ny, int nz, int *w, int *h)
{
	struct iso v = {0, 0, uq, iso_dxq(uq)};
	gdPoint left = iso_pt(&v, 0, 2 * ny, 0), right = iso_pt(&v, 2 * nx, 0, 0);
	gdPoint top = iso_pt(&v, 0, 0, 2 * nz);
	gdPoint bottom = iso_pt(&v, 2 * nx, 2 * ny, 0);
	*w = right.x - left.x + 1;
	*h = bottom.y - top.y + 1;
}

/* A view of a box ny deep and nz high (its x side does not move the
 * origin) whose bounding box starts at pixel (bx, by). */
static struct iso iso_place(int64_t uq, int ny, int nz, int bx, int by)
{
	struct iso v = {0, 0, uq, iso_dxq(uq)};
	gdPoint left = iso_pt(&v, 0, 2 * ny, 0), top = iso_pt(&v, 0, 0, 2 * nz);
	v.ox = bx - left.x;
	v.oy = by - top.y;
	return v;
}

/* The largest scale in [UQ_MIN, uq_max] at which the box fits w x h
 * pixels, or UQ_MIN when none does. */
static int64_t iso_fit(int w, int h, int nx, int ny, int nz, int64_t uq_max)
{
	for (int64_t uq = uq_max; uq > UQ_MIN; uq--) {
		int bw, bh;
		iso_size(uq, nx, ny, nz, &bw, &bh);
		if (bw <= w && bh <= h)
			return uq;
	}
	return UQ_MIN;
}

struct shade {
	int top, left, right; /* gd colours of the three sides */
	int line;             /* outline colour, -1 for none */
};

/* Three shades of one colour: the top as drawn in flat pictures, the +Y
 * side darker, the +X side darker still, as if lit from above left; the
 * outline darker again. Below 3 pixels a cube, outlines would swamp the
 * colour and beat into moire patterns, so there are none. */
static struct shade shade_of(gdImagePtr im, uint32_t rgb, int64_t uq)
{
	struct shade s;
	s.top = gdc(im, rgb);
	s.left = gdc(im, mix(rgb, BLACK, 52));
	s.right = gdc(im, mix(rgb, BLACK, 100));
	s.line = uq >= 48 ? gdc(im, mix(rgb, BLACK, 176)) : -1;
	return s;
}

static void iso_face(gdImagePtr im, const struct iso *v, const int (*p)[3],
                     int fill, int line)
{
	gdPoint pt[4];
	for (int i = 0; i < 4; i++)
		pt[i] = iso_pt(v, 2 * p[i][0], 2 * p[i][1], 2 * p[i][2]);
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
static void iso_draw(gdImagePtr im, const struct iso *v,
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
						own = shade_of(im, own_rgb, v->uq);
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

/* ---- draw_plates ------------------------------------------------------- */

int draw_plates(const unsigned char *const *plates, const int (*dims)[2],
                size_t count, const int *label, const char *title,
                unsigned char **png, size_t *len)
{
	return draw_plates_coloured(plates, dims, count, label, NULL, title, png,
	                            len);
}

int draw_plates_coloured(const unsigned char *const *plates,
                         const int (*dims)[2], size_t count, const int *label,
                         const uint32_t *const *rgb, const char *title,
                         unsigned char **png, size_t *len)
{
	assert(plates != NULL && dims != NULL && label != NULL);
	assert(png != NULL && len != NULL && count >= 1);
	/* The widest and the tallest plate size the slots; the largest side
	 * sets the cell size, so every plate is drawn at one scale. */
	int wmax = 0, hmax = 0;
	for (size_t i = 0; i < count; i++) {
		assert(plates[i] != NULL);
		assert(label[i] >= 1 && label[i] <= DRAW_MAX_PIECES);
		assert(dims[i][0] >= 1 && dims[i][0] <= DRAW_MAX_N);
		assert(dims[i][1] >= 1 && dims[i][1] <= DRAW_MAX_N);
		for (int j = 0; j < dims[i][0] * dims[i][1]; j++)
			assert(plates[i][j] <= 1);
		wmax = imax(wmax, dims[i][0]);
		hmax = imax(hmax, dims[i][1]);
	}

	int c = iclamp(384 / imax(wmax, hmax), 2, 64);
	int sw = imax(wmax * c + 1, 200) + 2 * DRAW_MARGIN;
	int sh = DRAW_LABEL_H + hmax * c + 1 + DRAW_MARGIN;
	int th = title_height(title);
	size_t cols = count < 3 ? count : 3, rows = (count + cols - 1) / cols;
	if (rows > (size_t)(DRAW_MAX_SIDE / sh))
		return DRAW_ETOOBIG;
	int w = (int)cols * sw, h = th + (int)rows * sh + DRAW_MARGIN;
	if (w > DRAW_MAX_SIDE || h > DRAW_MAX_SIDE)
		return DRAW_ETOOBIG;

	gdImagePtr im = canvas(w, h);
	if (im == NULL)
		return DRAW_ENOMEM;
	title_draw(im, w, title);
	for (size_t i = 0; i < count; i++) {
		int pw = dims[i][0], ph = dims[i][1];
		int col = (int)(i % cols), row = (int)(i / cols);
		int sx = col * sw, y0 = th + row * sh;
		int x0 = sx + (sw - pw * c - 1) / 2, py = y0 + DRAW_LABEL_H;
		int colour_of[2] = {0, (int)draw_colour(label[i])};
		const uint32_t *cell_rgb = rgb ? rgb[i] : NULL;
		struct swatch sw_of = {1, {(uint32_t)colour_of[1]}};
		char buf[32];

		if (cell_rgb) {
			struct swatch cells = {0, {0}};
			for (int j = 0; j < pw * ph; j++)
				if (plates[i][j])
					swatch_add(&cells, cell_rgb[j]);
			if (cells.n > 0)
				sw_of = cells;
		}
		/* Label: a swatch of the colours, then "Piece k", centred. */
		snprintf(buf, sizeof buf, "Piece %d", label[i]);
		int tw = (int)strlen(buf) * FONT_W * 2, sq = FONT_H * 2;
		int lx = sx + (sw - (sq + 12 + tw)) / 2, ly = y0 + 6;
		rect(im, lx, ly, lx + sq - 1, ly + sq - 1, INK);
		swatch_draw(im, lx + 2, ly + 2, lx + sq - 3, ly + sq - 3, &sw_of);
		struct text t;
		text_make(&t, buf, 31);
		text_draw(im, lx + sq + 12, ly, 2, &t, INK);

		grid_draw(im, x0, py, plates[i], colour_of, cell_rgb, pw, ph, c,
		          DRAW_BG, 0);
		grid_draw(im, x0, py, plates[i], colour_of, cell_rgb, pw, ph, c,
		          DRAW_BG, 1);
	}
	return finish(im, png, len);
}

/* ---- draw_shell_solution ----------------------------------------------- */

/* Face f's size in the net, cells: w across, h down. The face frame puts
 * the lower of the face's two axes across and the higher down. */
static void face_size(const int dim[3], int f, int *w, int *h)
{
	*w = dim[f / 2 == 0 ? 1 : 0];
	*h = dim[f / 2 == 2 ? 1 : 2];
}

/*
 * The shell with every piece moved out along its face's normal, in an
 * ed[0]*ed[1]*ed[2] grid, ed[a] = dim[a] + 2*g[a]; cell (x, y, z) of the
 * box lands at (x + g[0], y + g[1], z + g[2]) plus g[a] times the normal,
 * a the normal's axis. With 'rgb' (the box's cell colours) the colours
 * move along into a new grid '*rgb_out' (else it is set to NULL). NULL
 * when out of memory, with nothing allocated.
 */
static unsigned char *shell_explode(const int dim[3], const int g[3],
                                    const int ed[3], const unsigned char *owner,
                                    const int *piece_face, const uint32_t *rgb,
                                    uint32_t **rgb_out)
{
	size_t sy = (size_t)ed[0], sz = sy * (size_t)ed[1];
	unsigned char *out = calloc(sz * (size_t)ed[2], 1);
	uint32_t *moved = rgb ? calloc(sz * (size_t)ed[2], sizeof *moved) : NULL;
	if (out == NULL || (rgb != NULL && moved == NULL)) {
		free(out);
		free(moved);
		return NULL;
	}
	*rgb_out = moved;
	for (int z = 0; z < dim[2]; z++)
		for (int y = 0; y < dim[1]; y++)
			for (int x = 0; x < dim[0]; x++) {
				int k = owner[x + dim[0] * (y + dim[1] * z)];
				if (k == 0)
					continue;
				int f = piece_face[k - 1], a = f / 2;
				int p[3] = {x + g[0], y + g[1], z + g[2]};
				p[a] += (f % 2) ? g[a] : -g[a];
				size_t j = (size_t)p[0] + sy * (size_t)p[1] + sz * (size_t)p[2];
				out[j] = (unsigned char)k;
				if (moved != NULL)
					moved[j] = rgb[x + dim[0] * (y + dim[1] * z)];
			}
	return out;
}

/* b * (sx + sy + 2*sz) / (2*(sx + sy)): the height of a view box b wide
 * that holds an sx*sy*sz box's isometric view as a b x b box holds a
 * cube's (a cube's view is (sx + sy) * sqrt(3) u wide and
 * (sx + sy + 2*sz) u high). */
static int view_height(int b, int sx, int sy, int sz)
{
	return (int)((int64_t)b * (sx + sy + 2 * sz) / (2 * (int64_t)(sx + sy)));
}

int draw_shell_solution(const int dim[3], const unsigned char *const *face_view,
                        const int (*net_pos)[2], const unsigned char *owner,
                        const int *piece_face, const char *title,
                        unsigned char **png, size_t *len)
{
	return draw_shell_solution_coloured(dim, face_view, NULL, net_pos, owner,
	                                    NULL, piece_face, title, png, len);
}

int draw_shell_solution_coloured(const int dim[3],
                                 const unsigned char *const *face_view,
                                 const uint32_t *const *face_rgb,
                                 const int (*net_pos)[2],
                                 const unsigned char *owner,
                                 const uint32_t *owner_rgb,
                                 const int *piece_face, const char *title,
                                 unsigned char **png, size_t *len)
{
	assert(dim != NULL && face_view != NULL && net_pos != NULL);
	assert(owner != NULL && piece_face != NULL && png != NULL && len != NULL);
	for (int a = 0; a < 3; a++)
		assert(dim[a] >= 3 && dim[a] <= DRAW_MAX_N);
	for (int f = 0; f < 6; f++) {
		int fw, fh;
		face_size(dim, f, &fw, &fh);
		assert(face_view[f] != NULL);
		assert(net_pos[f][0] >= 0 && net_pos[f][0] < 4);
		assert(net_pos[f][1] >= 0 && net_pos[f][1] < 3);
		for (int g = 0; g < f; g++)
			assert(net_pos[f][0] != net_pos[g][0] ||
			       net_pos[f][1] != net_pos[g][1]);
		assert(piece_face[f] >= 0 && piece_face[f] < 6);
		for (int j = 0; j < fw * fh; j++)
			assert(face_view[f][j] <= 6);
	}
	const int nx = dim[0], ny = dim[1], nz = dim[2];
	for (size_t j = 0; j < (size_t)nx * ny * nz; j++)
		assert(owner[j] <= 6);

	/* The net: a 4 x 3 grid of faces whose columns and rows are as wide
	 * and as high as the faces in them; an empty one keeps m cells, so a
	 * cube's net is a 4n x 3n grid whatever the layout. colx[k] and rowy[k]
	 * are in cells from the net's corner. */
	int m = imax(nx, imax(ny, nz));
	int c = iclamp(240 / m, 2, 48);
	int colw[4] = {0}, rowh[3] = {0}, colx[5] = {0}, rowy[4] = {0};
	for (int f = 0; f < 6; f++) {
		int fw, fh;
		face_size(dim, f, &fw, &fh);
		colw[net_pos[f][0]] = imax(colw[net_pos[f][0]], fw);
		rowh[net_pos[f][1]] = imax(rowh[net_pos[f][1]], fh);
	}
	for (int k = 0; k < 4; k++)
		colx[k + 1] = colx[k] + (colw[k] ? colw[k] : m);
	for (int k = 0; k < 3; k++)
		rowy[k + 1] = rowy[k] + (rowh[k] ? rowh[k] : m);

	int nw = colx[4] * c + 1, nh = rowy[3] * c + 1;
	/* As wide as the net of the M-cube: the views need room for the
	 * box's longest side even when its net is narrow. */
	int sw = 4 * m * c + 1, box = sw / 2;
	int g[3], ed[3];
	for (int a = 0; a < 3; a++) {
		/* Seen from the +X+Y+Z corner, the two plates across axis a
		 * overlap on screen unless they are at least the shorter of
		 * their own sides apart: a flat box's top would hide its
		 * bottom. So the gap is worked out for l >= that side. */
		int l = imax(dim[a], imin(dim[(a + 1) % 3], dim[(a + 2) % 3]));
		g[a] = imax(2, (l + 3) / 4) + (l - dim[a] + 1) / 2;
		ed[a] = dim[a] + 2 * g[a];
	}
	/* Views box wide and box_h high: tall enough for the assembled and the
	 * exploded box to fill them as a cube fills a square, up to 2 * box. */
	int box_h = imin(imax(view_height(box, nx, ny, nz),
	                      view_height(box, ed[0], ed[1], ed[2])), 2 * box);
	int th = title_height(title);
	int w = sw + 2 * DRAW_MARGIN;
	int net_x = DRAW_MARGIN + (sw - nw) / 2, net_y = th + DRAW_CAPTION_H;
	int iso_y = net_y + nh + DRAW_MARGIN + DRAW_CAPTION_H;
	int h = iso_y + box_h + DRAW_MARGIN;
	int colour_of[7] = {0};
	struct shade sh[7];

	/* Both stay within DRAW_MAX_SIDE for sides <= DRAW_MAX_N: c * m <= 256
	 * so sw <= 1025, nh <= 769, box_h <= 1024. */
	assert(w <= DRAW_MAX_SIDE && h <= DRAW_MAX_SIDE);
	uint32_t *exploded_rgb = NULL;
	unsigned char *exploded = shell_explode(dim, g, ed, owner, piece_face,
	                                        owner_rgb, &exploded_rgb);
	if (exploded == NULL)
		return DRAW_ENOMEM;
	gdImagePtr im = canvas(w, h);
	if (im == NULL) {
		free(exploded);
		free(exploded_rgb);
		return DRAW_ENOMEM;
	}
	for (int k = 1; k <= 6; k++)
		colour_of[k] = (int)draw_colour(k);

	title_draw(im, w, title);
	text_centred(im, w / 2, th + (DRAW_CAPTION_H - FONT_H) / 2, w, 1,
	             "Net: every face seen from outside, each piece in place",
	             INK_SOFT);
	/* In phases, so that no face paints over its neighbour's lines: cells,
	 * face borders, piece outlines, number tags. */
	for (int phase = 0; phase < 4; phase++)
		for (int f = 0; f < 6; f++) {
			int fw, fh;
			face_size(dim, f, &fw, &fh);
			int fx = net_x + colx[net_pos[f][0]] * c;
			int fy = net_y + rowy[net_pos[f][1]] * c;
			/* The face's own piece always holds its centre. */
			int k = face_view[f][fw / 2 + fw * (fh / 2)];
			if (phase == 0 || phase == 2)
				grid_draw(im, fx, fy, face_view[f], colour_of,
				          face_rgb ? face_rgb[f] : NULL, fw, fh, c,
				          DRAW_EMPTY, phase / 2);
			else if (phase == 1)
				frame(im, fx, fy, fx + fw * c, fy + fh * c, INK_SOFT);
			else if (k != 0)
				/* A face under 60 pixels across gets a small tag, as in
				 * the views below: a big one would hide most of it. */
				tag_draw(im, fx + fw * c / 2, fy + fh * c / 2, k,
				         imin(fw, fh) * c >= 60 ? 2 : 1);
		}

	/* Two box x box_h views side by side, each with a caption. */
	int pad = 8;
	const char *caption[2] = {"Assembled", "Exploded"};
	for (int view = 0; view < 2; view++) {
		int bx = DRAW_MARGIN + view * box, vw, vh;
		const int *vd = view ? ed : dim;
		const unsigned char *lab = view ? exploded : owner;
		const uint32_t *lab_rgb = view ? exploded_rgb : owner_rgb;
		int64_t uq = iso_fit(box - 2 * pad, box_h - 2 * pad, vd[0], vd[1],
		                     vd[2], UQ_SHELL);

		text_centred(im, bx + box / 2, iso_y - DRAW_CAPTION_H +
		             (DRAW_CAPTION_H - FONT_H) / 2, box, 1, caption[view],
		             INK_SOFT);
		for (int k = 1; k <= 6; k++)
			sh[k] = shade_of(im, (uint32_t)colour_of[k], uq);
		iso_size(uq, vd[0], vd[1], vd[2], &vw, &vh);
		/* B >= 2*M*c leaves room for 1.5*M + 3 cells a side at half a
		 * pixel per u, more than the exploded box needs. */
		assert(vw <= box && vh <= box_h);
		struct iso v = iso_place(uq, vd[1], vd[2], bx + (box - vw) / 2,
		                         iso_y + (box_h - vh) / 2);
		iso_draw(im, &v, lab, lab_rgb, vd[0], vd[1], vd[2], sh);

		/* Tag the plates: the assembled view's three visible faces, each
		 * at its centre; in the exploded view each plate at the centre of
		 * its +X, +Y or +Z side: the outer side for plates on those faces,
		 * the inner one (facing the eye across the gap) for the others. */
		for (int i = 0; i < (view ? 6 : 3); i++) {
			int f, k, q[3], fw, fh;
			if (view == 0) {
				static const int seen[3] = {5, 1, 3}; /* +Z, +X, +Y */
				int cell[3] = {nx / 2, ny / 2, nz / 2};
				f = seen[i];
				cell[f / 2] = dim[f / 2] - 1;
				k = owner[cell[0] + nx * (cell[1] + ny * cell[2])];
				for (int a = 0; a < 3; a++)
					q[a] = dim[a];
				q[f / 2] = 2 * dim[f / 2];
			} else {
				k = i + 1;
				f = piece_face[i];
				for (int a = 0; a < 3; a++)
					q[a] = 2 * g[a] + dim[a];
				q[f / 2] = (f % 2) ? 2 * ed[f / 2] : 2;
			}
			if (k == 0)
				continue;
			/* A plate under 60 pixels across gets a small tag, which
			 * hides less of it. */
			face_size(dim, f, &fw, &fh);
			gdPoint p = iso_pt(&v, q[0], q[1], q[2]);
			tag_draw(im, p.x, p.y, k,
			         (int64_t)imin(fw, fh) * uq >= 60 * 16 ? 2 : 1);
		}
	}
	free(exploded);
	free(exploded_rgb);
	return finish(im, png, len);
}

/* ---- draw_pieces ------------------------------------------------------- */

struct pieces_layout {
	int cols, rows;     /* grid of slots */
	int maxh;           /* tallest piece, pixels */
	int sw, sh;         /* slot size */
	int w, h;           /* picture size */
};

static void pieces_layout(struct pieces_layout *l, int64_t uq,
                          const int (*dims)[3], size_t count, int th)
{
	int maxw = 0;
	l->maxh = 0;
	for (size_t i = 0; i < count; i++) {
		int pw, ph;
		iso_size(uq, dims[i][0], dims[i][1], dims[i][2], &pw, &ph);
		maxw = imax(maxw, pw);
		l->maxh = imax(l->maxh, ph);
	}
	l->sw = imax(maxw + 2 * DRAW_MARGIN, 160);
	l->sh = l->maxh + NAME_H + DRAW_MARGIN;
	l->w = l->cols * l->sw;
	l->h = th + l->rows * l->sh + DRAW_MARGIN;
}

int draw_pieces(const unsigned char *const *shapes, const int (*dims)[3],
                size_t count, const char *const *names, const char *title,
                unsigned char **png, size_t *len)
{
	return draw_pieces_coloured(shapes, dims, count, NULL, names, title, png,
	                            len);
}

int draw_pieces_coloured(const unsigned char *const *shapes,
                         const int (*dims)[3], size_t count,
                         const uint32_t *const *rgb, const char *const *names,
                         const char *title, unsigned char **png, size_t *len)
{
	assert(shapes != NULL && dims != NULL && png != NULL && len != NULL);
	assert(count >= 1 && count <= DRAW_MAX_PIECES);
	for (size_t i = 0; i < count; i++) {
		assert(shapes[i] != NULL && (names == NULL || names[i] != NULL));
		for (int a = 0; a < 3; a++)
			assert(dims[i][a] >= 1 && dims[i][a] <= DRAW_MAX_N);
	}

	struct pieces_layout l;
	int th = title_height(title);
	l.cols = 1;
	while ((size_t)l.cols * (size_t)l.cols < count)
		l.cols++;
	l.rows = (int)((count + (size_t)l.cols - 1) / (size_t)l.cols);

	/* The largest scale that fits FIT_SIDE; else the smallest, if that
	 * fits DRAW_MAX_SIDE. */
	int64_t uq = UQ_PIECES;
	for (; uq >= UQ_MIN; uq--) {
		pieces_layout(&l, uq, dims, count, th);
		if (l.w <= FIT_SIDE && l.h <= FIT_SIDE)
			break;
	}
	if (uq < UQ_MIN) {
		uq = UQ_MIN;
		pieces_layout(&l, uq, dims, count, th);
		if (l.w > DRAW_MAX_SIDE || l.h > DRAW_MAX_SIDE)
			return DRAW_ETOOBIG;
	}
	/* Only now read every cell: a refused picture should cost nothing. */
	for (size_t i = 0; i < count; i++) {
		size_t cells = (size_t)dims[i][0] * (size_t)dims[i][1] * (size_t)dims[i][2];
		for (size_t j = 0; j < cells; j++)
			assert(shapes[i][j] <= 1);
		(void)cells;
	}

	gdImagePtr im = canvas(l.w, l.h);
	if (im == NULL)
		return DRAW_ENOMEM;
	title_draw(im, l.w, title);
	for (size_t i = 0; i < count; i++) {
		int col = (int)(i % (size_t)l.cols), row = (int)(i / (size_t)l.cols);
		int sx = col * l.sw, sy = th + row * l.sh, pw, ph;
		struct shade sh[2];
		char buf[24];

		sh[1] = shade_of(im, draw_colour((int)i + 1), uq);
		iso_size(uq, dims[i][0], dims[i][1], dims[i][2], &pw, &ph);
		/* Bottom-aligned, so the names of a row line up. */
		struct iso v = iso_place(uq, dims[i][1], dims[i][2],
		                         sx + (l.sw - pw) / 2, sy + l.maxh - ph);
		iso_draw(im, &v, shapes[i], rgb ? rgb[i] : NULL, dims[i][0],
		         dims[i][1], dims[i][2], sh);
		/* The name at double size when it fits the slot. */
		snprintf(buf, sizeof buf, "%zu", i + 1);
		const char *name = names ? names[i] : buf;
		int scale = strlen(name) * 2 * FONT_W <= (size_t)(l.sw - 8) ? 2 : 1;
		text_centred(im, sx + l.sw / 2,
		             sy + l.maxh + (NAME_H - FONT_H * scale) / 2 + 2, l.sw - 8,
		             scale, name, INK);
	}
	return finish(im, png, len);
}

/* ---- draw_assembly ----------------------------------------------------- */

struct part {
	size_t cells;    /* cells of this piece; 0: not in the assembly */
	int64_t sum[3];  /* sum of 2*coordinate + 1 - side: centroid offset x 2cells */
	int lo[3], hi[3]; /* bounding box, inclusive */
	int d[3];        /* displacement in the exploded view */
};

/*
 * Lay the pieces of 'lab' into a fresh grid, each moved by parts[k].d;
 * returns the grid (dims in ed[3]) or NULL, with *status DRAW_ENOMEM when
 * out of memory, else DRAW_OK and *fit: 2 when no two pieces overlap or
 * touch face to face, 1 when they only touch, 0 when they overlap (the grid
 * is then freed and NULL returned). With 'rgb' the cells' colours move
 * along into a grid '*rgb_out' of the same size, freed with the grid.
 */
static unsigned char *explode_try(const unsigned char *lab, const uint32_t *rgb,
                                  const int n[3], const struct part *parts,
                                  size_t np, int ed[3], int *fit, int *status,
                                  uint32_t **rgb_out)
{
	int lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, first = 1;

	*status = DRAW_OK;
	*fit = 0;
	for (size_t k = 1; k <= np; k++) {
		if (parts[k].cells == 0)
			continue;
		for (int a = 0; a < 3; a++) {
			int l = parts[k].lo[a] + parts[k].d[a], h = parts[k].hi[a] + parts[k].d[a];
			lo[a] = first ? l : imin(lo[a], l);
			hi[a] = first ? h : imax(hi[a], h);
		}
		first = 0;
	}
	for (int a = 0; a < 3; a++)
		ed[a] = hi[a] - lo[a] + 1;
	size_t total = (size_t)ed[0] * (size_t)ed[1] * (size_t)ed[2];
	if (ed[0] > 4 * DRAW_MAX_N || ed[1] > 4 * DRAW_MAX_N ||
	    ed[2] > 4 * DRAW_MAX_N || total > EXPLODE_MAX_CELLS)
		return NULL; /* fit 0: never chosen */

	unsigned char *out = calloc(total, 1);
	uint32_t *moved = rgb ? calloc(total, sizeof *moved) : NULL;
	if (out == NULL || (rgb != NULL && moved == NULL)) {
		free(out);
		free(moved);
		*status = DRAW_ENOMEM;
		return NULL;
	}
	size_t sy = (size_t)ed[0], sz = sy * (size_t)ed[1];
	for (int z = 0; z < n[2]; z++)
		for (int y = 0; y < n[1]; y++)
			for (int x = 0; x < n[0]; x++) {
				int k = lab[x + n[0] * (y + n[1] * z)];
				if (k == 0)
					continue;
				const int *d = parts[k].d;
				size_t j = (size_t)(x + d[0] - lo[0]) +
				           sy * (size_t)(y + d[1] - lo[1]) +
				           sz * (size_t)(z + d[2] - lo[2]);
				if (out[j] != 0) {
					free(out);
					free(moved);
					return NULL;
				}
				out[j] = (unsigned char)k;
				if (moved != NULL)
					moved[j] = rgb[x + n[0] * (y + n[1] * z)];
			}
	*rgb_out = moved;
	*fit = 2;
	for (int z = 0; z < ed[2]; z++)
		for (int y = 0; y < ed[1]; y++)
			for (int x = 0; x < ed[0]; x++) {
				size_t j = (size_t)x + sy * (size_t)y + sz * (size_t)z;
				int k = out[j];
				if (k == 0)
					continue;
				if ((x + 1 < ed[0] && out[j + 1] && out[j + 1] != k) ||
				    (y + 1 < ed[1] && out[j + sy] && out[j + sy] != k) ||
				    (z + 1 < ed[2] && out[j + sz] && out[j + sz] != k))
					*fit = 1;
			}
	return out;
}

/*
 * The exploded view: each piece moves by f times its centroid's offset
 * from the box centre (rounded to whole cells), for the smallest f of
 * 1, 1.5, 2, 3, 4 that leaves no two pieces touching; failing that the
 * smallest with no overlap; failing that (interlocked pieces) the
 * assembly itself. Returns the grid, dims in ed, or NULL when out of
 * memory. With 'rgb' the colours move along into '*rgb_out' (NULL
 * without), which the caller frees.
 */
static unsigned char *explode(const unsigned char *lab, const uint32_t *rgb,
                              int nx, int ny, int nz, size_t np, int ed[3],
                              uint32_t **rgb_out)
{
	static const int factor4[] = {4, 6, 8, 12, 16}; /* f times 4 */
	struct part parts[DRAW_MAX_PIECES + 1];
	const int n[3] = {nx, ny, nz};
	unsigned char *best = NULL;
	uint32_t *best_rgb = NULL;
	int best_ed[3] = {0, 0, 0}, status;

	memset(parts, 0, sizeof parts);
	for (int z = 0; z < nz; z++)
		for (int y = 0; y < ny; y++)
			for (int x = 0; x < nx; x++) {
				int k = lab[x + nx * (y + ny * z)], p[3] = {x, y, z};
				if (k == 0)
					continue;
				struct part *q = &parts[k];
				for (int a = 0; a < 3; a++) {
					q->sum[a] += 2 * p[a] + 1 - n[a];
					q->lo[a] = q->cells ? imin(q->lo[a], p[a]) : p[a];
					q->hi[a] = q->cells ? imax(q->hi[a], p[a]) : p[a];
				}
				q->cells++;
			}

	for (size_t i = 0; i < sizeof factor4 / sizeof factor4[0]; i++) {
		int fit, try_ed[3];
		for (size_t k = 1; k <= np; k++)
			for (int a = 0; a < 3; a++)
				if (parts[k].cells)
					/* centroid offset = sum / (2 cells); times f4 / 4 */
					parts[k].d[a] = (int)rdiv(factor4[i] * parts[k].sum[a],
					                          8 * (int64_t)parts[k].cells);
		uint32_t *g_rgb = NULL;
		unsigned char *g = explode_try(lab, rgb, n, parts, np, try_ed, &fit,
		                               &status, &g_rgb);
		if (status != DRAW_OK) {
			free(best);
			free(best_rgb);
			return NULL;
		}
		if (g == NULL)
			continue;
		if (fit == 2 || best == NULL) {
			free(best);
			free(best_rgb);
			best = g;
			best_rgb = g_rgb;
			memcpy(best_ed, try_ed, sizeof best_ed);
			if (fit == 2)
				break;
		} else {
			free(g);
			free(g_rgb);
		}
	}
	if (best == NULL) {
		size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
		best = malloc(total);
		if (best == NULL)
			return NULL;
		memcpy(best, lab, total);
		if (rgb != NULL) {
			best_rgb = malloc(total * sizeof *best_rgb);
			if (best_rgb == NULL) {
				free(best);
				return NULL;
			}
			memcpy(best_rgb, rgb, total * sizeof *best_rgb);
		}
		best_ed[0] = nx;
		best_ed[1] = ny;
		best_ed[2] = nz;
	}
	memcpy(ed, best_ed, sizeof best_ed);
	*rgb_out = best_rgb;
	return best;
}

struct assembly_layout {
	int aw, ah, ew, eh; /* the two views, pixels */
	int ew_entry;       /* legend entry width */
	int lcols, lrows;   /* legend grid */
	int w, h;           /* picture size */
};

static void assembly_layout(struct assembly_layout *l, int64_t uq,
                            const int n[3], const int ed[3], size_t np,
                            int th)
{
	iso_size(uq, n[0], n[1], n[2], &l->aw, &l->ah);
	iso_size(uq, ed[0], ed[1], ed[2], &l->ew, &l->eh);
	int views = l->aw + l->ew + 4 * DRAW_MARGIN;
	int legend_min = (int)(np < 4 ? np : 4) * l->ew_entry + 2 * DRAW_MARGIN;
	l->w = imax(imax(views, legend_min), 320);
	l->lcols = imax(1, (l->w - 2 * DRAW_MARGIN) / l->ew_entry);
	l->lrows = (int)((np + (size_t)l->lcols - 1) / (size_t)l->lcols);
	l->h = th + DRAW_CAPTION_H + imax(l->ah, l->eh) + DRAW_MARGIN +
	       l->lrows * LEGEND_ROW + DRAW_MARGIN;
}

int draw_assembly(const unsigned char *labels, int nx, int ny, int nz,
                  const char *const *names, size_t npieces, const char *title,
                  unsigned char **png, size_t *len)
{
	return draw_assembly_coloured(labels, NULL, nx, ny, nz, names, npieces,
	                              title, png, len);
}

int draw_assembly_coloured(const unsigned char *labels, const uint32_t *rgb,
                           int nx, int ny, int nz, const char *const *names,
                           size_t npieces, const char *title,
                           unsigned char **png, size_t *len)
{
	assert(labels != NULL && png != NULL && len != NULL);
	assert(nx >= 1 && nx <= DRAW_MAX_N && ny >= 1 && ny <= DRAW_MAX_N);
	assert(nz >= 1 && nz <= DRAW_MAX_N);
	assert(npieces >= 1 && npieces <= DRAW_MAX_PIECES);
	size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
	for (size_t j = 0; j < total; j++)
		assert(labels[j] <= npieces);
	for (size_t k = 0; names != NULL && k < npieces; k++)
		assert(names[k] != NULL);

	const int n[3] = {nx, ny, nz};
	int ed[3], th = title_height(title), longest = 3;
	struct assembly_layout l;

	for (size_t k = 0; names != NULL && k < npieces; k++)
		longest = imax(longest, (int)strnlen(names[k], LEGEND_CHARS));
	l.ew_entry = 2 * (FONT_H + 3) + 10 + longest * FONT_W + 2 * DRAW_MARGIN;

	/* Size first, so a hopeless picture costs no exploding. The exploded
	 * view is never smaller than the assembly, so sizing with the assembly
	 * twice is a lower bound. */
	assembly_layout(&l, UQ_MIN, n, n, npieces, th);
	if (l.w > DRAW_MAX_SIDE || l.h > DRAW_MAX_SIDE)
		return DRAW_ETOOBIG;

	uint32_t *ex_rgb = NULL;
	unsigned char *ex = explode(labels, rgb, nx, ny, nz, npieces, ed, &ex_rgb);
	if (ex == NULL)
		return DRAW_ENOMEM;
	int64_t uq = UQ_PIECES;
	for (; uq >= UQ_MIN; uq--) {
		assembly_layout(&l, uq, n, ed, npieces, th);
		if (l.w <= FIT_SIDE && l.h <= FIT_SIDE)
			break;
	}
	if (uq < UQ_MIN) {
		uq = UQ_MIN;
		assembly_layout(&l, uq, n, ed, npieces, th);
		if (l.w > DRAW_MAX_SIDE || l.h > DRAW_MAX_SIDE) {
			free(ex);
			free(ex_rgb);
			return DRAW_ETOOBIG;
		}
	}

	gdImagePtr im = canvas(l.w, l.h);
	if (im == NULL) {
		free(ex);
		free(ex_rgb);
		return DRAW_ENOMEM;
	}
	struct shade sh[DRAW_MAX_PIECES + 1];
	for (size_t k = 1; k <= npieces; k++)
		sh[k] = shade_of(im, draw_colour((int)k), uq);
	title_draw(im, l.w, title);

	/* The two views, centred as a pair, bottoms aligned. */
	int vh = imax(l.ah, l.eh), vy = th + DRAW_CAPTION_H;
	int x = (l.w - (l.aw + l.ew + 2 * DRAW_MARGIN)) / 2;
	int cy = th + (DRAW_CAPTION_H - FONT_H) / 2;
	struct iso v = iso_place(uq, ny, nz, x, vy + vh - l.ah);
	text_centred(im, x + l.aw / 2, cy, l.aw + 2 * DRAW_MARGIN, 1, "Assembled",
	             INK_SOFT);
	iso_draw(im, &v, labels, rgb, nx, ny, nz, sh);
	x += l.aw + 2 * DRAW_MARGIN;
	v = iso_place(uq, ed[1], ed[2], x, vy + vh - l.eh);
	text_centred(im, x + l.ew / 2, cy, l.ew + 2 * DRAW_MARGIN, 1, "Exploded",
	             INK_SOFT);
	iso_draw(im, &v, ex, ex_rgb, ed[0], ed[1], ed[2], sh);
	free(ex);
	free(ex_rgb);

	/* Legend: a swatch and the name of every piece, row by row; with
	 * colours, the swatch shows those of the piece's cells. */
	struct swatch swatches[DRAW_MAX_PIECES + 1];
	for (size_t k = 1; k <= npieces; k++)
		swatches[k] = (struct swatch){1, {draw_colour((int)k)}};
	if (rgb != NULL) {
		for (size_t k = 1; k <= npieces; k++)
			swatches[k].n = 0;
		for (size_t j = 0; j < total; j++)
			if (labels[j] != 0)
				swatch_add(&swatches[labels[j]], rgb[j]);
		for (size_t k = 1; k <= npieces; k++)
			if (swatches[k].n == 0) /* not in the assembly */
				swatches[k] = (struct swatch){1, {draw_colour((int)k)}};
	}
	int ly = vy + vh + DRAW_MARGIN, sq = FONT_H + 3;
	int used = imin(l.lcols, (int)npieces) * l.ew_entry - 2 * DRAW_MARGIN;
	int lx0 = (l.w - used) / 2;
	for (size_t k = 1; k <= npieces; k++) {
		int col = (int)((k - 1) % (size_t)l.lcols);
		int row = (int)((k - 1) / (size_t)l.lcols);
		int ex0 = lx0 + col * l.ew_entry, ey0 = ly + row * LEGEND_ROW;
		char buf[24];
		struct text t;

		rect(im, ex0, ey0, ex0 + 2 * sq - 1, ey0 + sq - 1, INK);
		swatch_draw(im, ex0 + 1, ey0 + 1, ex0 + 2 * sq - 2, ey0 + sq - 2,
		            &swatches[k]);
		snprintf(buf, sizeof buf, "%zu", k);
		text_make(&t, names ? names[k - 1] : buf, LEGEND_CHARS);
		text_draw(im, ex0 + 2 * sq + 10, ey0 + 2, 1, &t, INK);
	}
	return finish(im, png, len);
}

/* Layout of draw_steps(): 'cols' panels a row, each pw x ph pixels. */
static void steps_layout(int64_t uq, const int n[3], size_t nsteps, int th,
                         int *cols, int *pw, int *ph, int *w, int *h)
{
	int aw, ah;
	iso_size(uq, n[0], n[1], n[2], &aw, &ah);
	*cols = (int)(nsteps < 4 ? nsteps : 4);
	int rows = (int)((nsteps + (size_t)*cols - 1) / (size_t)*cols);
	*pw = imax(aw, 14 * FONT_W) + 2 * DRAW_MARGIN;
	*ph = DRAW_CAPTION_H + ah + DRAW_MARGIN;
	*w = imax(*cols * *pw + 2 * DRAW_MARGIN, 320);
	*h = th + rows * *ph + DRAW_MARGIN;
}

int draw_steps(const unsigned char *labels, int nx, int ny, int nz,
               size_t npieces, const uint64_t *shown,
               const char *const *captions, size_t nsteps, const char *title,
               unsigned char **png, size_t *len)
{
	assert(labels != NULL && shown != NULL && captions != NULL);
	assert(png != NULL && len != NULL);
	assert(nx >= 1 && nx <= DRAW_MAX_N && ny >= 1 && ny <= DRAW_MAX_N);
	assert(nz >= 1 && nz <= DRAW_MAX_N);
	assert(npieces >= 1 && npieces <= 64 && nsteps >= 1);
	size_t total = (size_t)nx * (size_t)ny * (size_t)nz;
	for (size_t j = 0; j < total; j++)
		assert(labels[j] <= npieces);
	if (nsteps > DRAW_MAX_STEPS)
		return DRAW_ETOOBIG;
	const int n[3] = {nx, ny, nz};
	int th = title_height(title), cols, pw, ph, w, h;
	int64_t uq = UQ_PIECES;
	for (; uq > UQ_MIN; uq--) {
		steps_layout(uq, n, nsteps, th, &cols, &pw, &ph, &w, &h);
		if (w <= FIT_SIDE && h <= FIT_SIDE)
			break;
	}
	steps_layout(uq, n, nsteps, th, &cols, &pw, &ph, &w, &h);
	if (w > DRAW_MAX_SIDE || h > DRAW_MAX_SIDE)
		return DRAW_ETOOBIG;
	unsigned char *part = malloc(total);
	if (part == NULL)
		return DRAW_ENOMEM;
	gdImagePtr im = canvas(w, h);
	if (im == NULL) {
		free(part);
		return DRAW_ENOMEM;
	}
	struct shade sh[65];
	for (size_t k = 1; k <= npieces; k++)
		sh[k] = shade_of(im, draw_colour((int)k), uq);
	title_draw(im, w, title);
	int aw, ah, x0 = (w - cols * pw) / 2;
	iso_size(uq, nx, ny, nz, &aw, &ah);
	for (size_t s = 0; s < nsteps; s++) {
		int col = (int)(s % (size_t)cols), row = (int)(s / (size_t)cols);
		int px = x0 + col * pw, py = th + row * ph;
		for (size_t j = 0; j < total; j++)
			part[j] = labels[j] && (shown[s] >> (labels[j] - 1) & 1)
			          ? labels[j] : 0;
		text_centred(im, px + pw / 2, py + (DRAW_CAPTION_H - FONT_H) / 2,
		             pw - DRAW_MARGIN, 1, captions[s], INK_SOFT);
		struct iso v = iso_place(uq, ny, nz, px + (pw - aw) / 2,
		                         py + DRAW_CAPTION_H);
		iso_draw(im, &v, part, NULL, nx, ny, nz, sh);
	}
	free(part);
	return finish(im, png, len);
}
