/*
 * png.c: a finished canvas as PNG bytes in a malloc() buffer
 * (dr_finish()), encoded with libpng: the one file of cubegen that
 * includes <png.h>.
 *
 * Workload: one encoding per picture, about a million palette pixels in
 * long runs of a few colours (see canvas.c). The rows go to libpng as the
 * canvas holds them, a byte a pixel, unfiltered, at zlib's fastest level;
 * dr_finish() says what the other choices cost.
 */
#include "draw/draw_int.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>
#include <setjmp.h>

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
int dr_finish(gdImagePtr im, unsigned char **png, size_t *len)
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
