/*
 * draw_int.h: internals shared by the files of draw/: canvas.c (colours,
 * the canvas, drawing primitives, swatches), png.c (PNG encoding),
 * text.c (text, titles, number tags), iso.c (isometric views), plates.c
 * (draw_plates, draw_shell_solution) and solids.c (draw_pieces,
 * draw_assembly, draw_steps). Not part of the public API.
 *
 * Every picture is built in three steps: size it from the input (integer
 * formulas, documented in draw.h for the two fixed layouts), draw into a
 * gd image (dr_canvas()), then encode it with libpng into a malloc()
 * buffer (dr_finish()) so callers never free libgd memory.
 *
 * The one file of cubegen that includes <gd.h>, as the files of draw/
 * hand gd images to each other; png.c alone includes <png.h>.
 */
#ifndef CUBEGEN_DRAW_INT_H
#define CUBEGEN_DRAW_INT_H

#include <stddef.h>
#include <stdint.h>

#include <gd.h>

#include "draw/draw.h"

#define INK 0x202020        /* text, tag borders, piece outlines */
#define INK_SOFT 0x555555   /* captions, face borders of the net */
#define GRID_EMPTY 0xC8C8C8 /* grid lines around cells with no piece */
#define WHITE 0xFFFFFF
#define BLACK 0x000000

/* Every picture is a palette image, which holds 256 colours. It never
 * needs more: draw_colour() has DRAW_CYCLE colours, and a picture draws
 * each in at most SHADES_PER_COLOUR shades (flat, its grid lines, and
 * dr_shade_of()'s left, right and outline; the top is the flat colour),
 * plus FIXED_COLOURS others (DRAW_BG = WHITE, DRAW_EMPTY, INK, INK_SOFT,
 * GRID_EMPTY, and one to spare). */
#define DRAW_CYCLE 42 /* draw_colour(): 14 colours, plain, paler, darker */
#define SHADES_PER_COLOUR 5
#define FIXED_COLOURS 6
_Static_assert(DRAW_CYCLE * SHADES_PER_COLOUR + FIXED_COLOURS <= gdMaxColors,
               "the colours of a picture fit a palette");

/* libgd's Giant font: 9x15 pixels a character. */
#define FONT_W 9
#define FONT_H 15

#define UQ_MIN 8         /* smallest isometric u, in 1/16 px: half a pixel */
#define TEXT_MAX 256     /* longest text drawn, in characters */

/* Inline, as they were when static in one file: every file of draw/
 * needs them, and they are no external names. */
static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int iclamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

struct text {
	char s[TEXT_MAX]; /* printable ASCII, NUL-terminated */
	int len;          /* characters in s */
	int cut;          /* 1 when the source was longer */
};

/* The colours a swatch shows: distinct, in the order first met. */
struct swatch {
	int n;                       /* colours in c[] */
	uint32_t c[DRAW_SWATCH_MAX]; /* 0xRRGGBB */
};

/* Where lattice points land: see iso.c's header. Units of 1/16 pixel. */
struct iso {
	int ox, oy;  /* pixel of lattice point (0, 0, 0) */
	int64_t uq;  /* u: half the height of a cube's top, 1/16 px */
	int64_t dxq; /* dx = u * sqrt(3): half its width, 1/16 px */
};

struct shade {
	int top, left, right; /* gd colours of the three sides */
	int line;             /* outline colour, -1 for none */
};

/* ---- canvas.c ---------------------------------------------------------- */

/* t/256 of the way from colour a to colour b. */
uint32_t dr_mix(uint32_t a, uint32_t b, unsigned t);
/* The palette index of 'rgb' in 'im', allocated on first use. */
int dr_gdc(gdImagePtr im, uint32_t rgb);
/* A filled rectangle, corners included, clipped, written into the rows. */
void dr_rect(gdImagePtr im, int x0, int y0, int x1, int y1, uint32_t rgb);
/* A one-pixel rectangle outline, corners included. */
void dr_frame(gdImagePtr im, int x0, int y0, int x1, int y1, uint32_t rgb);
/* A white w x h palette canvas; NULL when out of memory. */
gdImagePtr dr_canvas(int w, int h);
/* Add a colour to a swatch, unless it has it or is full. */
void dr_swatch_add(struct swatch *w, uint32_t rgb);
/* [x0, x1] x [y0, y1] striped with the swatch's colours. */
void dr_swatch_draw(gdImagePtr im, int x0, int y0, int x1, int y1,
                    const struct swatch *w);

/* ---- png.c ------------------------------------------------------------- */

/* Encode 'im' as PNG into *png, *len (malloc()); always destroys 'im'. */
int dr_finish(gdImagePtr im, unsigned char **png, size_t *len);

/* ---- text.c ------------------------------------------------------------ */

/* 's' as printable ASCII in 't', cut to 'max' characters ending in "..". */
void dr_text_make(struct text *t, const char *s, int max);
/* Text with its top-left at (x, y), a font pixel scale x scale pixels. */
void dr_text_draw(gdImagePtr im, int x, int y, int scale,
                  const struct text *t, uint32_t rgb);
/* Text centred on cx, top at y, cut to fit 'width' pixels. */
void dr_text_centred(gdImagePtr im, int cx, int y, int width, int scale,
                     const char *s, uint32_t rgb);
/* The title strip's height: DRAW_TITLE_H, or DRAW_MARGIN with no title. */
int dr_title_height(const char *title);
/* The title, centred on the first DRAW_TITLE_H rows. */
void dr_title_draw(gdImagePtr im, int width, const char *title);
/* A number on a white tag with a dark border, centred on (cx, cy). */
void dr_tag_draw(gdImagePtr im, int cx, int cy, int number, int scale);

/* ---- iso.c ------------------------------------------------------------- */

/* Screen point of the lattice point (x2/2, y2/2, z2/2). */
gdPoint dr_iso_pt(const struct iso *v, int x2, int y2, int z2);
/* Pixel size of an nx*ny*nz box drawn at scale uq. */
void dr_iso_size(int64_t uq, int nx, int ny, int nz, int *w, int *h);
/* A view at scale uq of a box ny deep, nz high, its corner at (bx, by). */
struct iso dr_iso_place(int64_t uq, int ny, int nz, int bx, int by);
/* The largest scale up to uq_max that fits the box in w x h, or UQ_MIN. */
int64_t dr_iso_fit(int w, int h, int nx, int ny, int nz, int64_t uq_max);
/* The shades of the three sides and the outline of a cube of 'rgb'. */
struct shade dr_shade_of(gdImagePtr im, uint32_t rgb, int64_t uq);
/* The cells of 'lab' as shaded cubes, back to front. */
void dr_iso_draw(gdImagePtr im, const struct iso *v,
                 const unsigned char *lab, const uint32_t *rgb, int nx,
                 int ny, int nz, const struct shade *sh);

#endif
