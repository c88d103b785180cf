/*
 * pngpick.c: a tool of tests/viewer.sh: the colours of some pixels of a
 * PNG (a browser's screenshot).
 *
 *   pngpick FILE.png X Y [X Y ...]
 *
 * prints one line "R G B" (0..255) per point, in the order given. Exit 0;
 * 2 on bad usage, an unreadable or undecodable file, or a point that is
 * not a whole number inside the picture (nothing is printed then).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <gd.h>

static int usage(void)
{
	fprintf(stderr, "usage: pngpick FILE.png X Y [X Y ...]\n");
	return 2;
}

/* A whole number in [0, limit), or -1. */
static long coord(const char *s, long limit)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v >= limit)
		return -1;
	return v;
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc % 2 != 0)
		return usage();
	FILE *fp = fopen(argv[1], "rb");
	if (!fp) {
		fprintf(stderr, "pngpick: %s: cannot open\n", argv[1]);
		return 2;
	}
	gdImagePtr im = gdImageCreateFromPng(fp);
	fclose(fp);
	if (!im) {
		fprintf(stderr, "pngpick: %s: not a PNG libgd can read\n", argv[1]);
		return 2;
	}
	int w = gdImageSX(im), h = gdImageSY(im);
	/* check every point first, so a bad one prints nothing at all */
	for (int i = 2; i < argc; i += 2)
		if (coord(argv[i], w) < 0 || coord(argv[i + 1], h) < 0) {
			fprintf(stderr, "pngpick: point %s %s is not inside the %dx%d picture\n",
			        argv[i], argv[i + 1], w, h);
			gdImageDestroy(im);
			return 2;
		}
	for (int i = 2; i < argc; i += 2) {
		int x = (int)coord(argv[i], w), y = (int)coord(argv[i + 1], h);
		int c = gdImageGetTrueColorPixel(im, x, y);
		printf("%d %d %d\n", gdTrueColorGetRed(c), gdTrueColorGetGreen(c),
		       gdTrueColorGetBlue(c));
	}
	gdImageDestroy(im);
	return 0;
}
