/*
 * text.c: words and numbers on a picture: text made printable ASCII and
 * cut to fit, drawn in libgd's Giant font at whole-pixel scales, the
 * title strip and the number tags.
 *
 * Workload: a title, a few captions and up to a few hundred names and
 * tags a picture, each of a few dozen characters at most; at scale 2 and
 * up every font pixel is a small rectangle (dr_rect()).
 */
#include "draw/draw_int.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gdfontg.h>

/* 's' as printable ASCII, cut to at most 'max' characters, a cut ending in
 * "..". A NULL 's' is empty. */
void dr_text_make(struct text *t, const char *s, int max)
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
void dr_text_draw(gdImagePtr im, int x, int y, int scale,
                  const struct text *t, uint32_t rgb)
{
	gdFontPtr f = gdFontGetGiant();
	int col = dr_gdc(im, rgb);

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
					dr_rect(im, x0, y0, x0 + scale - 1, y0 + scale - 1,
					        rgb);
				}
	}
}

/* Text centred horizontally on cx, top at y, cut to fit 'width' pixels. */
void dr_text_centred(gdImagePtr im, int cx, int y, int width, int scale,
                     const char *s, uint32_t rgb)
{
	struct text t;
	dr_text_make(&t, s, width / (FONT_W * scale));
	dr_text_draw(im, cx - t.len * FONT_W * scale / 2, y, scale, &t, rgb);
}

int dr_title_height(const char *title)
{
	return (title != NULL && title[0] != '\0') ? DRAW_TITLE_H : DRAW_MARGIN;
}

/* The title, centred on the first DRAW_TITLE_H rows: double size when it
 * fits, else single size, cut if need be. */
void dr_title_draw(gdImagePtr im, int width, const char *title)
{
	struct text t;
	int avail = width - 2 * DRAW_MARGIN, scale = 2;

	if (title == NULL || title[0] == '\0')
		return;
	dr_text_make(&t, title, avail / (2 * FONT_W));
	if (t.cut) {
		scale = 1;
		dr_text_make(&t, title, avail / FONT_W);
	}
	dr_text_draw(im, (width - t.len * FONT_W * scale) / 2,
	             (DRAW_TITLE_H - FONT_H * scale) / 2, scale, &t, INK);
}

/*
 * A number on a white tag with a dark border, centred on (cx, cy). Scale 2
 * holds one digit in 30x42 pixels; longer numbers drop to scale 1, so a tag
 * always fits in DRAW_TAG_SIDE x DRAW_TAG_SIDE.
 */
void dr_tag_draw(gdImagePtr im, int cx, int cy, int number, int scale)
{
	char buf[24];
	struct text t;

	snprintf(buf, sizeof buf, "%d", number);
	dr_text_make(&t, buf, 3);
	if (t.len > 1)
		scale = 1;
	int w = t.len * FONT_W * scale + 6 * scale;
	int h = FONT_H * scale + 6 * scale;
	int x0 = cx - w / 2, y0 = cy - h / 2;
	dr_rect(im, x0, y0, x0 + w - 1, y0 + h - 1, INK);
	dr_rect(im, x0 + scale, y0 + scale, x0 + w - 1 - scale, y0 + h - 1 - scale,
	        WHITE);
	dr_text_draw(im, x0 + 3 * scale, y0 + 3 * scale, scale, &t, INK);
}
