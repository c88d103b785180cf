/*
 * test_draw.c: the pictures of draw/draw.h, read back with libgd.
 *
 * Every PNG is decoded and checked against the layout draw.h documents:
 * the exact size; at the centre of every cell of every plate and net face
 * the piece's colour, or the background where the cell is missing; number
 * labels present; the same bytes on a second call. Pieces and assemblies
 * (a Soma set built here) must draw every piece's colour within the size
 * bounds. Cell colours (the *_coloured() calls): the same checks with each
 * cell's own colour where one is given (plates, net faces, the views), the
 * swatches striped with a piece's colours, and the same bytes as the call
 * without colours when every colour given is the piece's number colour. Misuse must trip an assert (checked in a child process), and
 * every allocation that can fail must turn into an error, not a crash
 * (checked by a malloc that fails on demand, off under AddressSanitizer,
 * which owns malloc there).
 *
 * The tests read PNGs with libgd, so this file includes <gd.h> too; the
 * product's code keeps it to draw/draw_int.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gd.h>

#include "draw/draw.h"

#include "tests/failmalloc.h"
#include "tests/testrand.h"

#define INK 0x202020 /* draw/'s text and outline colour */

/* ---- helpers ------------------------------------------------------------ */

static gdImagePtr load(const unsigned char *png, size_t len)
{
	assert_true(len > 8);
	assert_memory_equal(png, "\x89PNG\r\n\x1a\n", 8);
	gdImagePtr im = gdImageCreateFromPngPtr((int)len, (void *)png);
	assert_non_null(im);
	return im;
}

static uint32_t px(gdImagePtr im, int x, int y)
{
	assert_true(x >= 0 && x < gdImageSX(im) && y >= 0 && y < gdImageSY(im));
	return (uint32_t)gdImageGetTrueColorPixel(im, x, y) & 0xFFFFFF;
}

/* Pixels of colour rgb in the rectangle [x0, x1) x [y0, y1), clipped. */
static long count_colour(gdImagePtr im, int x0, int y0, int x1, int y1,
                         uint32_t rgb)
{
	long n = 0;
	for (int y = y0 < 0 ? 0 : y0; y < y1 && y < gdImageSY(im); y++)
		for (int x = x0 < 0 ? 0 : x0; x < x1 && x < gdImageSX(im); x++)
			n += px(im, x, y) == rgb;
	return n;
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}
static int max2(int a, int b) { return a > b ? a : b; }

static int title_h(const char *title)
{
	return title && title[0] ? DRAW_TITLE_H : DRAW_MARGIN;
}

/* ---- a shell puzzle, by DESIGN.md's rule -------------------------------- */

struct shell {
	int dim[3];             /* the box X, Y, Z */
	unsigned char *owner;   /* X*Y*Z, piece 1..6 of each shell cell */
	unsigned char *view[6]; /* face f seen from outside, [u + w*v] */
	int fdim[6][2];         /* face f's w and h */
	int net[6][2];          /* a cross */
	int piece_face[6];      /* face of piece i+1 */
	unsigned char *plate[6];/* piece i+1, turned and maybe flipped */
	int pdim[6][2];         /* its w and h as drawn */
	int label[6];
	uint32_t *owner_rgb;    /* NULL, or cell colours (shell_colour()) */
	uint32_t *view_rgb[6];  /* with them, face f's cells' colours */
};

/* Three colours no piece number has (test_draw_colour_coloured checks),
 * for the cells of colour tests. */
static const uint32_t cell_colours[3] = {0xC01020, 0x10A040, 0x2040C0};

/* Face f's size seen from outside: ±X are Y x Z, ±Y X x Z, ±Z X x Y. */
static void face_dims(const int d[3], int f, int *w, int *h)
{
	*w = f < 2 ? d[1] : d[0];
	*h = f < 4 ? d[2] : d[1];
}

/* The box cell under (u, v) of face f seen from outside, u right, v down;
 * faces -Y +X +Y -X form the cross's middle row, +Z above -Y, -Z below. */
static void face_cell(const int d[3], int f, int u, int v, int p[3])
{
	int X = d[0], Y = d[1], Z = d[2];
	switch (f) {
	case 0: p[0] = 0; p[1] = Y - 1 - u; p[2] = Z - 1 - v; break;
	case 1: p[0] = X - 1; p[1] = u; p[2] = Z - 1 - v; break;
	case 2: p[0] = u; p[1] = 0; p[2] = Z - 1 - v; break;
	case 3: p[0] = X - 1 - u; p[1] = Y - 1; p[2] = Z - 1 - v; break;
	case 4: p[0] = u; p[1] = v; p[2] = 0; break;
	default: p[0] = u; p[1] = Y - 1 - v; p[2] = Z - 1; break;
	}
}

/* A shell of the X*Y*Z box d by DESIGN.md's rule, its faces' views, and
 * its plates each turned one of 8 ways (a quarter turn swaps w and h). */
static void shell_make_box(struct shell *s, const int d[3], uint64_t seed)
{
	static const int net[6][2] = {{0, 1}, {2, 1}, {1, 1}, {3, 1}, {1, 2}, {1, 0}};
	const int X = d[0], Y = d[1], Z = d[2];
	size_t cells = (size_t)X * Y * Z;
	int perm[6] = {1, 2, 3, 4, 5, 6};

	memset(s, 0, sizeof *s);
	memcpy(s->dim, d, sizeof s->dim);
	s->owner = calloc(cells, 1);
	assert_non_null(s->owner);
	for (int i = 5; i > 0; i--) {
		int j = (int)(splitmix(&seed) % (uint64_t)(i + 1)), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (int f = 0; f < 6; f++)
		s->piece_face[perm[f] - 1] = f;
	/* Face cells to their face, edge cells to one of their two faces. */
	for (int z = 0; z < Z; z++)
		for (int y = 0; y < Y; y++)
			for (int x = 0; x < X; x++) {
				int p[3] = {x, y, z}, fs[3], nf = 0;
				for (int a = 0; a < 3; a++)
					if (p[a] == 0)
						fs[nf++] = 2 * a;
					else if (p[a] == d[a] - 1)
						fs[nf++] = 2 * a + 1;
				if (nf == 1 || nf == 2)
					s->owner[x + X * (y + Y * z)] =
						(unsigned char)perm[fs[nf == 1 ? 0 : splitmix(&seed) % 2]];
			}
	/* Corners to one of the pieces of their three neighbouring edges. */
	for (int z = 0; z < Z; z += Z - 1)
		for (int y = 0; y < Y; y += Y - 1)
			for (int x = 0; x < X; x += X - 1) {
				int p[3] = {x, y, z}, found[3], nf = 0;
				for (int a = 0; a < 3; a++) {
					int q[3] = {x, y, z}, dup = 0;
					q[a] += p[a] == 0 ? 1 : -1;
					int k = s->owner[q[0] + X * (q[1] + Y * q[2])];
					for (int i = 0; i < nf; i++)
						dup |= found[i] == k;
					if (!dup)
						found[nf++] = k;
				}
				s->owner[x + X * (y + Y * z)] =
					(unsigned char)found[splitmix(&seed) % (uint64_t)nf];
			}
	memcpy(s->net, net, sizeof net);
	for (int f = 0; f < 6; f++) {
		int w, h;
		face_dims(d, f, &w, &h);
		s->fdim[f][0] = w;
		s->fdim[f][1] = h;
		s->view[f] = calloc((size_t)w * h, 1);
		assert_non_null(s->view[f]);
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++) {
				int p[3];
				face_cell(d, f, u, v, p);
				int k = s->owner[p[0] + X * (p[1] + Y * p[2])];
				s->view[f][u + w * v] =
					s->piece_face[k - 1] == f ? (unsigned char)k : 0;
			}
	}
	for (int i = 0; i < 6; i++) {
		int f = s->piece_face[i], turn = (int)(splitmix(&seed) % 8);
		int w = s->fdim[f][0], h = s->fdim[f][1];
		/* Turned an odd number of quarters, the plate is h wide. */
		int pw = (turn & 1) ? h : w, ph = (turn & 1) ? w : h;
		s->plate[i] = calloc((size_t)w * h, 1);
		assert_non_null(s->plate[i]);
		s->pdim[i][0] = pw;
		s->pdim[i][1] = ph;
		s->label[i] = i + 1;
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++) {
				int a = u, b = v, cw = w, ch = h;
				if (turn & 4)
					a = cw - 1 - a;
				for (int r = 0; r < (turn & 3); r++) {
					int t = a;
					a = ch - 1 - b;
					b = t;
					t = cw;
					cw = ch;
					ch = t;
				}
				assert_true(cw == pw && ch == ph);
				s->plate[i][a + pw * b] = s->view[f][u + w * v] != 0;
			}
	}
}

static void shell_make(struct shell *s, int n, uint64_t seed)
{
	const int d[3] = {n, n, n};
	shell_make_box(s, d, seed);
}

/* Give the shell's cells colours: cell (x, y, z) cell_colours[(x + 2y +
 * z) % 3], and the net faces' cells those of the box cells they show; or
 * with 'numbers' every cell its number's colour (drawn as without
 * colours, even after fill_known_faces()). */
static void shell_colour(struct shell *s, int numbers)
{
	const int *d = s->dim;
	size_t cells = (size_t)d[0] * d[1] * d[2];
	s->owner_rgb = calloc(cells, sizeof *s->owner_rgb);
	assert_non_null(s->owner_rgb);
	for (int z = 0; z < d[2]; z++)
		for (int y = 0; y < d[1]; y++)
			for (int x = 0; x < d[0]; x++) {
				size_t i = (size_t)x + d[0] * ((size_t)y + d[1] * z);
				if (s->owner[i])
					s->owner_rgb[i] = numbers ? draw_colour(s->owner[i])
					                          : cell_colours[(x + 2 * y + z) % 3];
			}
	for (int f = 0; f < 6; f++) {
		int w = s->fdim[f][0], h = s->fdim[f][1];
		s->view_rgb[f] = calloc((size_t)w * h, sizeof *s->view_rgb[f]);
		assert_non_null(s->view_rgb[f]);
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++) {
				int p[3];
				face_cell(d, f, u, v, p);
				int k = s->view[f][u + w * v];
				if (k)
					s->view_rgb[f][u + w * v] = numbers ? draw_colour(k)
						: s->owner_rgb[p[0] + d[0] * (p[1] + d[1] * p[2])];
			}
	}
}

/* Take the colours away again. */
static void shell_uncolour(struct shell *s)
{
	free(s->owner_rgb);
	s->owner_rgb = NULL;
	for (int f = 0; f < 6; f++) {
		free(s->view_rgb[f]);
		s->view_rgb[f] = NULL;
	}
}

static void shell_free(struct shell *s)
{
	shell_uncolour(s);
	free(s->owner);
	for (int f = 0; f < 6; f++) {
		free(s->view[f]);
		free(s->plate[f]);
	}
}

static int call_plates(const struct shell *s, const char *title,
                       unsigned char **png, size_t *len)
{
	return draw_plates((const unsigned char *const *)s->plate,
	                   (const int (*)[2])s->pdim, 6, s->label, title, png, len);
}

static int call_solution(const struct shell *s, const char *title,
                         unsigned char **png, size_t *len)
{
	if (s->owner_rgb)
		return draw_shell_solution_coloured(
			s->dim, (const unsigned char *const *)s->view,
			(const uint32_t *const *)s->view_rgb, (const int (*)[2])s->net,
			s->owner, s->owner_rgb, s->piece_face, title, png, len);
	return draw_shell_solution(s->dim, (const unsigned char *const *)s->view,
	                           (const int (*)[2])s->net, s->owner,
	                           s->piece_face, title, png, len);
}

/* ---- the Soma set -------------------------------------------------------- */

struct soma {
	unsigned char *shape[7];
	int dims[7][3];
};

static const char *const soma_names[7] = {"V", "L", "T", "Z", "A", "B", "P"};
/* One solution, x fastest, piece k = soma_names[k-1], found by search. */
static const char soma_solution[] = "255257277445311267344316366";

static void soma_make(struct soma *s)
{
	/* Cells of each piece; {-1} ends a three-cell piece. */
	static const int cells[7][4][3] = {
		{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {-1, 0, 0}},
		{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}},
		{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {1, 1, 0}},
		{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {2, 1, 0}},
		{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 1}},
		{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 1, 1}},
		{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
	};
	for (int i = 0; i < 7; i++) {
		int *d = s->dims[i];
		d[0] = d[1] = d[2] = 1;
		for (int j = 0; j < 4 && cells[i][j][0] >= 0; j++)
			for (int a = 0; a < 3; a++)
				d[a] = max2(d[a], cells[i][j][a] + 1);
		s->shape[i] = calloc((size_t)d[0] * d[1] * d[2], 1);
		assert_non_null(s->shape[i]);
		for (int j = 0; j < 4 && cells[i][j][0] >= 0; j++)
			s->shape[i][cells[i][j][0] +
			            d[0] * (cells[i][j][1] + d[1] * cells[i][j][2])] = 1;
	}
}

static void soma_free(struct soma *s)
{
	for (int i = 0; i < 7; i++)
		free(s->shape[i]);
}

/* ---- draw_strerror, draw_colour ----------------------------------------- */

static void test_draw_strerror_names_every_status(void **state)
{
	(void)state;
	const int st[] = {DRAW_OK, DRAW_ENOMEM, DRAW_EPNG, DRAW_ETOOBIG};
	for (size_t i = 0; i < 4; i++) {
		assert_non_null(draw_strerror(st[i]));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(draw_strerror(st[i]), draw_strerror(st[j]));
	}
	assert_non_null(draw_strerror(-1));
	assert_non_null(draw_strerror(99));
}

/* The hue of 0xRRGGBB in degrees, 0 to 360 (HSV); -1 for a grey. */
static double hue(uint32_t rgb)
{
	double r = (rgb >> 16) & 255, g = (rgb >> 8) & 255, b = rgb & 255;
	double hi = fmax(r, fmax(g, b)), lo = fmin(r, fmin(g, b));
	if (hi == lo)
		return -1;
	double h = hi == r ? (g - b) / (hi - lo) : hi == g ? 2 + (b - r) / (hi - lo)
	                                                   : 4 + (r - g) / (hi - lo);
	return fmod(h * 60 + 360, 360);
}

/* How far apart two colours' hues are, 0 to 180 degrees (0 for a grey). */
static double hue_apart(uint32_t a, uint32_t b)
{
	double ha = hue(a), hb = hue(b);
	if (ha < 0 || hb < 0)
		return 0;
	double d = fabs(ha - hb);
	return d > 180 ? 360 - d : d;
}

static void test_draw_colour_palette(void **state)
{
	(void)state;
	/* Okabe & Ito's first four, vermillion, reddish purple, then Tol's
	 * indigo and green. */
	static const uint32_t first[8] = {0xE69F00, 0x56B4E9, 0x009E73,
	                                  0xF0E442, 0xD55E00, 0xCC79A7,
	                                  0x332288, 0x117733};
	for (int k = 1; k <= 8; k++)
		assert_int_equal(draw_colour(k), first[k - 1]);
	/* Pieces 1 to 8 differ in hue, not only in brightness: every two at
	 * least 14 degrees apart on the colour wheel. */
	for (int k = 1; k <= 8; k++)
		for (int j = 1; j < k; j++)
			assert_true(hue_apart(draw_colour(k), draw_colour(j)) >= 14.0);
	for (int k = 1; k <= 42; k++) {
		assert_int_not_equal(draw_colour(k), DRAW_BG);
		assert_int_not_equal(draw_colour(k), DRAW_EMPTY);
		assert_int_not_equal(draw_colour(k), INK);
		for (int j = 1; j < k; j++)
			assert_int_not_equal(draw_colour(k), draw_colour(j));
	}
	assert_int_equal(draw_colour(43), draw_colour(1));
	assert_int_equal(draw_colour(DRAW_MAX_PIECES),
	                 draw_colour((DRAW_MAX_PIECES - 1) % 42 + 1));
}

/* ---- draw_plates --------------------------------------------------------- */

/*
 * The documented layout, cell by cell: every filled cell's centre is the
 * plate's colour (its own in rgb[i] when given: draw_plates_coloured()),
 * every missing cell's centre the background; the label strip holds the
 * colour swatch (a stripe of each of the plate's colours) and dark text.
 */
static void check_plates_rgb(const unsigned char *const *plates,
                             const int (*dims)[2], size_t count,
                             const int *label, const uint32_t *const *rgb,
                             const char *title)
{
	unsigned char *png = NULL;
	size_t len = 0;
	if (rgb)
		assert_int_equal(draw_plates_coloured(plates, dims, count, label, rgb,
		                                      title, &png, &len), DRAW_OK);
	else
		assert_int_equal(draw_plates(plates, dims, count, label, title, &png,
		                             &len), DRAW_OK);
	gdImagePtr im = load(png, len);

	int wmax = 0, hmax = 0;
	for (size_t i = 0; i < count; i++) {
		wmax = max2(wmax, dims[i][0]);
		hmax = max2(hmax, dims[i][1]);
	}
	int c = clamp(384 / max2(wmax, hmax), 2, 64);
	int sw = max2(wmax * c + 1, 200) + 2 * DRAW_MARGIN;
	int sh = DRAW_LABEL_H + hmax * c + 1 + DRAW_MARGIN;
	int cols = count < 3 ? (int)count : 3;
	int rows = ((int)count + cols - 1) / cols, th = title_h(title);
	assert_int_equal(gdImageSX(im), cols * sw);
	assert_int_equal(gdImageSY(im), th + rows * sh + DRAW_MARGIN);
	assert_true(gdImageSX(im) <= DRAW_MAX_SIDE && gdImageSY(im) <= DRAW_MAX_SIDE);

	for (size_t i = 0; i < count; i++) {
		int w = dims[i][0], h = dims[i][1];
		int col = (int)i % cols, row = (int)i / cols;
		int y0 = th + row * sh;
		int x0 = col * sw + (sw - w * c - 1) / 2, py = y0 + DRAW_LABEL_H;
		const uint32_t *cell = rgb ? rgb[i] : NULL;
		uint32_t number = draw_colour(label[i]);
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++)
				assert_int_equal(px(im, x0 + u * c + c / 2, py + v * c + c / 2),
				                 !plates[i][u + w * v] ? DRAW_BG
				                 : cell ? cell[u + w * v] : number);
		/* Beside and below the plate (past its outline) the slot is
		 * empty: no plate is drawn at another plate's size. */
		assert_int_equal(px(im, x0 + w * c + 3, py + c / 2), DRAW_BG);
		assert_int_equal(px(im, x0 - 3, py + c / 2), DRAW_BG);
		assert_int_equal(px(im, x0 + c / 2, py + h * c + 3), DRAW_BG);
		/* The label: a swatch of the plate's colours and "Piece k". */
		for (int j = 0; cell && j < w * h; j++)
			if (plates[i][j])
				assert_true(count_colour(im, col * sw, y0, (col + 1) * sw, py,
				                         cell[j]) > 60);
		if (!cell)
			assert_true(count_colour(im, col * sw, y0, (col + 1) * sw, py,
			                         number) > 200);
		assert_true(count_colour(im, col * sw, y0, (col + 1) * sw, py, INK) > 200);
	}
	gdImageDestroy(im);
	free(png);
}

static void check_plates_dims(const unsigned char *const *plates,
                              const int (*dims)[2], size_t count,
                              const int *label, const char *title)
{
	check_plates_rgb(plates, dims, count, label, NULL, title);
}

/* All plates n x n. */
static void check_plates(const unsigned char *const *plates, int n,
                         size_t count, const int *label, const char *title)
{
	int (*dims)[2] = malloc(count * sizeof *dims);
	assert_non_null(dims);
	for (size_t i = 0; i < count; i++)
		dims[i][0] = dims[i][1] = n;
	check_plates_dims(plates, (const int (*)[2])dims, count, label, title);
	free(dims);
}

static void check_shell_plates(int n, uint64_t seed)
{
	struct shell s;
	shell_make(&s, n, seed);
	check_plates((const unsigned char *const *)s.plate, n, 6, s.label,
	             "a title");
	shell_free(&s);
}

/* The six plates of a box: three sizes, some turned (w and h swapped). */
static void check_box_plates(int x, int y, int z, uint64_t seed)
{
	const int d[3] = {x, y, z};
	struct shell s;
	int turned = 0;
	shell_make_box(&s, d, seed);
	for (int i = 0; i < 6; i++)
		turned += s.pdim[i][0] != s.fdim[s.piece_face[i]][0];
	check_plates_dims((const unsigned char *const *)s.plate,
	                  (const int (*)[2])s.pdim, 6, s.label, "a box");
	shell_free(&s);
	/* The seeds below turn at least one plate of a non-cube. */
	assert_true(turned > 0 || (x == y && y == z));
}

static void test_draw_plates_box_3x4x5(void **state)
{
	(void)state;
	check_box_plates(3, 4, 5, 1);
	check_box_plates(5, 4, 3, 2);
}
static void test_draw_plates_box_4x4x6(void **state)
{
	(void)state;
	check_box_plates(4, 4, 6, 3);
}
static void test_draw_plates_box_3x3x10(void **state)
{
	(void)state;
	check_box_plates(3, 3, 10, 4);
	check_box_plates(64, 3, 17, 5);
}

/*
 * Mixed sizes, by hand: the largest side sets one cell size for all, the
 * widest and the tallest plate size the slots, thin plates included; a
 * side of DRAW_MAX_N still fits.
 */
static void test_draw_plates_mixed_sizes(void **state)
{
	(void)state;
	enum { BIG = DRAW_MAX_N * 3 };
	unsigned char a[12], b[1] = {1}, line[7], big[BIG];
	for (int j = 0; j < 12; j++)
		a[j] = (unsigned char)(j % 5 != 2);
	for (int j = 0; j < 7; j++)
		line[j] = (unsigned char)(j != 3);
	for (int j = 0; j < BIG; j++)
		big[j] = (unsigned char)(j % 4 != 0);
	const unsigned char *plates[5] = {a, b, line, a, big};
	const int dims[5][2] = {{3, 4}, {1, 1}, {1, 7}, {4, 3},
	                        {DRAW_MAX_N, 3}};
	const int label[5] = {3, 1, 4, 1, 5};
	check_plates_dims(plates, dims, 4, label, "mixed");
	check_plates_dims(plates, dims, 2, label, NULL);
	check_plates_dims(plates + 1, dims + 1, 2, label, "thin");
	check_plates_dims(plates, dims, 5, label, "a long one");
	check_plates_dims(plates + 4, dims + 4, 1, label, NULL);

	/* Sizes, by the documented formula: 3x4 and 1x7 plates: c = 384/7. */
	unsigned char *png;
	size_t len;
	const unsigned char *two[2] = {a, line};
	const int two_dims[2][2] = {{3, 4}, {1, 7}};
	assert_int_equal(draw_plates(two, two_dims, 2, label, NULL, &png, &len),
	                 DRAW_OK);
	gdImagePtr im = load(png, len);
	int c = 384 / 7;
	assert_int_equal(gdImageSX(im), 2 * (max2(3 * c + 1, 200) + 2 * DRAW_MARGIN));
	assert_int_equal(gdImageSY(im), DRAW_MARGIN + DRAW_LABEL_H + 7 * c + 1 +
	                 DRAW_MARGIN + DRAW_MARGIN);
	gdImageDestroy(im);
	free(png);
}

/*
 * A plate and the same plate turned a quarter (w and h swapped, drawn
 * transposed) look alike pixel for pixel, mirrored on the diagonal: the
 * cells, the grid lines and the outlines.
 */
static void test_draw_plates_turned_is_transposed(void **state)
{
	(void)state;
	enum { W = 3, H = 5 };
	/* An L with a hole, no symmetry. */
	static const unsigned char p[W * H] = {
		1, 1, 1,
		1, 0, 0,
		1, 1, 0,
		1, 0, 1,
		1, 1, 1,
	};
	unsigned char t[W * H];
	for (int v = 0; v < H; v++)
		for (int u = 0; u < W; u++)
			t[v + H * u] = p[u + W * v];
	const unsigned char *plates[2] = {p, t};
	const int dims[2][2] = {{W, H}, {H, W}};
	const int label[2] = {5, 5};
	unsigned char *png;
	size_t len;

	check_plates_dims(plates, dims, 2, label, NULL);
	assert_int_equal(draw_plates(plates, dims, 2, label, NULL, &png, &len),
	                 DRAW_OK);
	gdImagePtr im = load(png, len);
	int c = clamp(384 / H, 2, 64), sw = max2(H * c + 1, 200) + 2 * DRAW_MARGIN;
	int py = DRAW_MARGIN + DRAW_LABEL_H;
	int xa = (sw - W * c - 1) / 2, xb = sw + (sw - H * c - 1) / 2;
	long differ = 0, seen = 0;
	for (int dy = -4; dy <= H * c + 4; dy++)
		for (int dx = -4; dx <= W * c + 4; dx++) {
			differ += px(im, xa + dx, py + dy) != px(im, xb + dy, py + dx);
			seen += px(im, xa + dx, py + dy) == draw_colour(5);
		}
	assert_int_equal(differ, 0);
	assert_true(seen > 11 * (c - 4) * (c - 4));
	/* The turned plate is wide: its cell (4, 0) is p's (0, 4), filled;
	 * its cell (1, 1) is p's (1, 1), empty. */
	assert_int_equal(px(im, xb + 4 * c + c / 2, py + c / 2), draw_colour(5));
	assert_int_equal(px(im, xb + c + c / 2, py + c + c / 2), DRAW_BG);
	gdImageDestroy(im);
	free(png);
}

static void test_draw_plates_n3(void **state)
{
	(void)state;
	check_shell_plates(3, 1);
}
static void test_draw_plates_n5(void **state)
{
	(void)state;
	check_shell_plates(5, 2);
}
static void test_draw_plates_n20(void **state)
{
	(void)state;
	check_shell_plates(20, 3);
}
static void test_draw_plates_n64(void **state)
{
	(void)state;
	check_shell_plates(64, 4);
}

static void test_draw_plates_largest_n_fits(void **state)
{
	(void)state;
	unsigned char *p = calloc((size_t)DRAW_MAX_N * DRAW_MAX_N, 1);
	assert_non_null(p);
	for (int j = 0; j < DRAW_MAX_N * DRAW_MAX_N; j += 3)
		p[j] = 1;
	const unsigned char *plates[6] = {p, p, p, p, p, p};
	const int label[6] = {6, 5, 4, 3, 2, 1};
	check_plates(plates, DRAW_MAX_N, 6, label, NULL);
	free(p);
}

/* Grids of 1, 2, 4 and 7 plates, any labels, with and without a title. */
static void test_draw_plates_grid_layouts(void **state)
{
	(void)state;
	unsigned char full[16], ring[16];
	for (int j = 0; j < 16; j++) {
		full[j] = 1;
		ring[j] = !(j == 5 || j == 6 || j == 9 || j == 10);
	}
	const unsigned char *plates[7] = {full, ring, full, ring, full, ring, full};
	const int label[7] = {7, 1, 12, 200, 3, 4, 255};
	const size_t counts[] = {1, 2, 4, 7};
	for (size_t i = 0; i < 4; i++) {
		check_plates(plates, 4, counts[i], label, NULL);
		check_plates(plates, 4, counts[i], label, "");
		check_plates(plates, 4, counts[i], label, "plates");
	}
}

/* A long, non-ASCII title is cut to fit, not an error. */
static void test_draw_plates_long_title(void **state)
{
	(void)state;
	char title[400];
	memset(title, 'x', sizeof title - 1);
	title[sizeof title - 1] = '\0';
	memcpy(title, "caf\xc3\xa9 \xe2\x9c\x93 ", 10);
	struct shell s;
	shell_make(&s, 5, 9);
	check_plates((const unsigned char *const *)s.plate, 5, 6, s.label, title);
	shell_free(&s);
}

static void test_draw_plates_deterministic(void **state)
{
	(void)state;
	struct shell s;
	unsigned char *a, *b;
	size_t la, lb;
	shell_make(&s, 7, 5);
	assert_int_equal(call_plates(&s, "same", &a, &la), DRAW_OK);
	assert_int_equal(call_plates(&s, "same", &b, &lb), DRAW_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
	shell_free(&s);
}

static void test_draw_plates_too_many(void **state)
{
	(void)state;
	enum { COUNT = 100 };
	unsigned char p[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
	const unsigned char *plates[COUNT];
	int label[COUNT], dims[COUNT][2];
	unsigned char sentinel, *png = &sentinel;
	size_t len = 77;
	for (int i = 0; i < COUNT; i++) {
		plates[i] = p;
		label[i] = i + 1;
		dims[i][0] = i % 2 ? 1 : 3;
		dims[i][1] = i % 2 ? 9 : 3;
	}
	assert_int_equal(draw_plates(plates, (const int (*)[2])dims, COUNT, label,
	                             NULL, &png, &len), DRAW_ETOOBIG);
	assert_ptr_equal(png, &sentinel);
	assert_int_equal(len, 77);
}

/* ---- draw_shell_solution ------------------------------------------------- */

/* Whether pixel (x, y) may lie under one of the six tags centred at
 * (tx[f], ty[f]). */
static int under_tag(const int tx[6], const int ty[6], int x, int y)
{
	for (int f = 0; f < 6; f++)
		if (abs(x - tx[f]) <= DRAW_TAG_SIDE / 2 &&
		    abs(y - ty[f]) <= DRAW_TAG_SIDE / 2)
			return 1;
	return 0;
}

/*
 * The answer sheet of shell 's' against draw.h's layout: the exact size;
 * the faces of the net where the column and row sums put them, never
 * overlapping; every cell centre the piece's colour or DRAW_EMPTY, except
 * under the number tags; empty grid cells and the sides of the net
 * background; the two views in their boxes, the assembled one in the
 * box's true proportions.
 */
static void check_sheet(const struct shell *s, const char *title)
{
	unsigned char *png = NULL;
	size_t len = 0;
	const int *d = s->dim;

	assert_int_equal(call_solution(s, title, &png, &len), DRAW_OK);
	gdImagePtr im = load(png, len);

	int m = max2(d[0], max2(d[1], d[2])), c = clamp(240 / m, 2, 48);
	int colw[4] = {0}, rowh[3] = {0}, colx[5] = {0}, rowy[4] = {0};
	for (int f = 0; f < 6; f++) {
		int col = s->net[f][0], row = s->net[f][1];
		colw[col] = max2(colw[col], s->fdim[f][0]);
		rowh[row] = max2(rowh[row], s->fdim[f][1]);
	}
	for (int k = 0; k < 4; k++)
		colx[k + 1] = colx[k] + (colw[k] ? colw[k] : m);
	for (int k = 0; k < 3; k++)
		rowy[k + 1] = rowy[k] + (rowh[k] ? rowh[k] : m);
	int nw = colx[4] * c + 1, nh = rowy[3] * c + 1;
	int sw = 4 * m * c + 1, b = sw / 2, e[3], v[2];
	for (int a = 0; a < 3; a++) {
		int o1 = d[(a + 1) % 3], o2 = d[(a + 2) % 3];
		int l = max2(d[a], o1 < o2 ? o1 : o2);
		e[a] = d[a] + 2 * (max2(2, (l + 3) / 4) + (l - d[a] + 1) / 2);
	}
	v[0] = b * (d[0] + d[1] + 2 * d[2]) / (2 * (d[0] + d[1]));
	v[1] = b * (e[0] + e[1] + 2 * e[2]) / (2 * (e[0] + e[1]));
	int bh = max2(v[0], v[1]);
	bh = bh < 2 * b ? bh : 2 * b;
	int th = title_h(title);
	int nx0 = DRAW_MARGIN + (sw - nw) / 2, ny0 = th + DRAW_CAPTION_H;
	int iso_y = ny0 + nh + DRAW_MARGIN + DRAW_CAPTION_H;
	assert_int_equal(gdImageSX(im), sw + 2 * DRAW_MARGIN);
	assert_int_equal(gdImageSY(im), iso_y + bh + DRAW_MARGIN);
	assert_true(gdImageSX(im) <= DRAW_MAX_SIDE && gdImageSY(im) <= DRAW_MAX_SIDE);

	/* Where the faces are, and where their tags are. */
	int fx[6], fy[6], tx[6], ty[6], used[3][4] = {{0}};
	for (int f = 0; f < 6; f++) {
		fx[f] = nx0 + colx[s->net[f][0]] * c;
		fy[f] = ny0 + rowy[s->net[f][1]] * c;
		tx[f] = fx[f] + s->fdim[f][0] * c / 2;
		ty[f] = fy[f] + s->fdim[f][1] * c / 2;
		used[s->net[f][1]][s->net[f][0]] = 1;
		/* Inside the net, and no two faces share a pixel's area. */
		assert_true(fx[f] >= nx0 && fx[f] + s->fdim[f][0] * c < nx0 + nw);
		assert_true(fy[f] >= ny0 && fy[f] + s->fdim[f][1] * c < ny0 + nh);
		for (int g = 0; g < f; g++)
			assert_true(fx[f] >= fx[g] + s->fdim[g][0] * c ||
			            fx[g] >= fx[f] + s->fdim[f][0] * c ||
			            fy[f] >= fy[g] + s->fdim[g][1] * c ||
			            fy[g] >= fy[f] + s->fdim[f][1] * c);
	}
	int r = DRAW_TAG_SIDE / 2;

	/* The net, cell by cell, except under the number tags. */
	for (int f = 0; f < 6; f++) {
		int w = s->fdim[f][0], h = s->fdim[f][1], seen = 0;
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++) {
				int cx = fx[f] + x * c + c / 2, cy = fy[f] + y * c + c / 2;
				int k = s->view[f][x + w * y];
				if (under_tag(tx, ty, cx, cy))
					continue;
				uint32_t want = !k ? DRAW_EMPTY
				                : s->view_rgb[f] ? s->view_rgb[f][x + w * y]
				                                 : draw_colour(k);
				assert_int_equal(px(im, cx, cy), want);
				seen++;
			}
		assert_true(seen > 0 || w * c <= DRAW_TAG_SIDE ||
		            h * c <= DRAW_TAG_SIDE);
		/* The tag: white paper and dark digits. */
		assert_true(count_colour(im, tx[f] - r, ty[f] - r, tx[f] + r + 1,
		                         ty[f] + r + 1, 0xFFFFFF) > 100);
		assert_true(count_colour(im, tx[f] - r, ty[f] - r, tx[f] + r + 1,
		                         ty[f] + r + 1, INK) > 40);
	}
	/* Empty grid cells, and beside the net (centred when narrow). */
	for (int row = 0; row < 3; row++)
		for (int col = 0; col < 4; col++) {
			int cx = nx0 + (colx[col] + colx[col + 1]) * c / 2;
			int cy = ny0 + (rowy[row] + rowy[row + 1]) * c / 2;
			if (!used[row][col] && !under_tag(tx, ty, cx, cy))
				assert_int_equal(px(im, cx, cy), DRAW_BG);
		}
	for (int y = ny0; y < ny0 + nh; y++) {
		if (!under_tag(tx, ty, nx0 - 3, y))
			assert_int_equal(px(im, nx0 - 3, y), DRAW_BG);
		if (!under_tag(tx, ty, nx0 + nw + 2, y))
			assert_int_equal(px(im, nx0 + nw + 2, y), DRAW_BG);
	}

	/* The assembled view: the +Z piece on top, in the box's proportions
	 * (an isometric box is (X + Y) sqrt(3) u wide and (X + Y + 2Z) u
	 * high), as large as its box allows; the exploded view: a side of
	 * every piece. */
	size_t top_cell = (size_t)(d[0] / 2 + d[0] * (d[1] / 2 + d[1] * (d[2] - 1)));
	int top = s->owner[top_cell];
	assert_true(count_colour(im, DRAW_MARGIN, iso_y, DRAW_MARGIN + b, iso_y + bh,
	                         s->owner_rgb ? s->owner_rgb[top_cell]
	                                      : draw_colour(top)) > 20);
	/* The bounding box of the cubes: tags (white and INK) can reach past
	 * a small face. */
	int x0 = DRAW_MARGIN + b, x1 = -1, y0 = iso_y + bh, y1 = -1;
	for (int y = iso_y; y < iso_y + bh; y++)
		for (int x = DRAW_MARGIN; x < DRAW_MARGIN + b; x++)
			if (px(im, x, y) != DRAW_BG && px(im, x, y) != INK) {
				x0 = x < x0 ? x : x0;
				x1 = x > x1 ? x : x1;
				y0 = y < y0 ? y : y0;
				y1 = y > y1 ? y : y1;
			}
	double vw = x1 - x0 + 1, vh = y1 - y0 + 1;
	double uu = vh / (d[0] + d[1] + 2 * d[2]);
	double want = (d[0] + d[1]) * uu * 1.7320508;
	assert_true(vw > 0.96 * want - 3 && vw < 1.04 * want + 3);
	assert_true(vw >= b - 16 - 0.1 * vw - 3 || vh >= bh - 16 - 0.1 * vh - 3);
	/* Centred in its box. */
	assert_true(abs((x0 + x1) / 2 - (DRAW_MARGIN + b / 2)) <= 2);
	assert_true(abs((y0 + y1) / 2 - (iso_y + bh / 2)) <= 2);
	for (int k = 1; k <= 6 && !s->owner_rgb; k++) {
		/* A plate far thinner than the box (3 x 3 ends of a 3 x 3 x 64
		 * rod) is a few pixels across: its tag may cover it, or only its
		 * shaded sides show. */
		const int *fd = s->fdim[s->piece_face[k - 1]];
		if ((fd[0] < fd[1] ? fd[0] : fd[1]) * 8 < m)
			continue;
		assert_true(count_colour(im, DRAW_MARGIN + b, iso_y,
		                         DRAW_MARGIN + 2 * b, iso_y + bh,
		                         draw_colour(k)) > 0);
	}
	/* With cell colours, both views show every one of them (on top sides
	 * unshaded) and no number colour. */
	for (int i = 0; i < 3 && s->owner_rgb; i++)
		for (int view = 0; view < 2; view++) {
			int vx = DRAW_MARGIN + view * b;
			assert_true(count_colour(im, vx, iso_y, vx + b, iso_y + bh,
			                         cell_colours[i]) > 0);
			for (int k = 1; k <= 6; k++)
				assert_int_equal(count_colour(im, vx, iso_y, vx + b,
				                              iso_y + bh, draw_colour(k)), 0);
		}
	gdImageDestroy(im);
	free(png);
}

static void check_solution(int n, uint64_t seed, const char *title)
{
	struct shell s;
	shell_make(&s, n, seed);
	check_sheet(&s, title);
	shell_free(&s);
}

static void check_box_solution(int x, int y, int z, uint64_t seed,
                               const char *title)
{
	const int d[3] = {x, y, z};
	struct shell s;
	shell_make_box(&s, d, seed);
	check_sheet(&s, title);
	shell_free(&s);
}

static void test_draw_shell_solution_n3(void **state)
{
	(void)state;
	check_solution(3, 11, "answer");
}
static void test_draw_shell_solution_n5(void **state)
{
	(void)state;
	check_solution(5, 12, "answer");
}
static void test_draw_shell_solution_n20(void **state)
{
	(void)state;
	check_solution(20, 13, NULL);
}
static void test_draw_shell_solution_n64(void **state)
{
	(void)state;
	check_solution(64, 14, "answer");
}

static void test_draw_shell_solution_many_seeds(void **state)
{
	(void)state;
	for (uint64_t seed = 100; seed < 105; seed++)
		check_solution(4 + (int)(seed % 4), seed, "answer");
}

static void test_draw_shell_solution_deterministic(void **state)
{
	(void)state;
	struct shell s;
	unsigned char *a, *b;
	size_t la, lb;
	shell_make(&s, 6, 21);
	assert_int_equal(call_solution(&s, "same", &a, &la), DRAW_OK);
	assert_int_equal(call_solution(&s, "same", &b, &lb), DRAW_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
	shell_free(&s);
}

/* Boxes, in every order of their sides, so each face size meets each
 * place in the net. */
static void test_draw_shell_solution_box_3x4x5(void **state)
{
	(void)state;
	const int perm[6][3] = {{3, 4, 5}, {3, 5, 4}, {4, 3, 5},
	                        {4, 5, 3}, {5, 3, 4}, {5, 4, 3}};
	for (int i = 0; i < 6; i++)
		check_box_solution(perm[i][0], perm[i][1], perm[i][2],
		                   50 + (uint64_t)i, i % 2 ? "answer" : NULL);
}
static void test_draw_shell_solution_box_4x4x6(void **state)
{
	(void)state;
	check_box_solution(4, 4, 6, 60, "answer");
	check_box_solution(6, 4, 4, 61, "answer");
	check_box_solution(4, 6, 4, 62, NULL);
}
static void test_draw_shell_solution_box_3x3x10(void **state)
{
	(void)state;
	check_box_solution(3, 3, 10, 70, "answer");
	check_box_solution(10, 3, 3, 71, "answer");
	check_box_solution(3, 10, 3, 72, "answer");
}

/* Thin and flat extremes still fit DRAW_MAX_SIDE and keep their shape. */
static void test_draw_shell_solution_box_extremes(void **state)
{
	(void)state;
	check_box_solution(3, 3, 64, 80, "answer");
	check_box_solution(64, 64, 3, 81, "answer");
	check_box_solution(3, 64, 3, 82, NULL);
	check_box_solution(DRAW_MAX_N, 3, DRAW_MAX_N, 83, "answer");
	check_box_solution(3, 3, DRAW_MAX_N, 84, "answer");
}

/* Face f of 's' holds f + 1 with holes in a pattern no turn or mirror
 * maps onto itself (its centre, where the tag goes, is never a hole). */
static void fill_known_faces(struct shell *s)
{
	for (int f = 0; f < 6; f++) {
		int w = s->fdim[f][0], h = s->fdim[f][1];
		for (int v = 0; v < h; v++)
			for (int u = 0; u < w; u++)
				s->view[f][u + w * v] =
					(u + 2 * v) % 4 == 1 && (u != w / 2 || v != h / 2)
						? 0 : (unsigned char)(f + 1);
	}
}

/*
 * A 3x4x5 box whose faces hold known numbers, probed at centres worked
 * out by hand from draw.h: M = 5, c = 48; columns 4, 3, 4, 3 cells wide
 * (x = 0, 4, 7, 11), rows 4, 5, 4 high (y = 0, 4, 9); NW = 673,
 * NH = 625, SW = 961, so the net starts at x = 20 + 144; B = 480;
 * g = (2 + 1, 2, 2), the exploded box 9 x 8 x 9;
 * BH = max(480*17/14, 480*35/34) = 582.
 */
static void test_draw_shell_solution_box_known_faces(void **state)
{
	(void)state;
	const int d[3] = {3, 4, 5};
	struct shell s;
	unsigned char *png;
	size_t len;

	shell_make_box(&s, d, 90);
	fill_known_faces(&s);
	check_sheet(&s, "answer");
	assert_int_equal(call_solution(&s, "answer", &png, &len), DRAW_OK);
	gdImagePtr im = load(png, len);
	int x0 = DRAW_MARGIN + 144, y0 = DRAW_TITLE_H + DRAW_CAPTION_H;
	assert_int_equal(gdImageSX(im), 961 + 2 * DRAW_MARGIN);
	assert_int_equal(gdImageSY(im), y0 + 625 + DRAW_MARGIN + DRAW_CAPTION_H +
	                 582 + DRAW_MARGIN);
	/* {face, cell u, v, net x, y in cells, number or 0} */
	static const int probe[][6] = {
		{2, 0, 0, 4, 4, 3}, /* front (-Y) at (1, 1), X x Z */
		{2, 1, 0, 4, 4, 0},
		{1, 1, 0, 7, 4, 0}, /* right (+X) at (2, 1), Y x Z */
		{1, 3, 4, 7, 4, 2},
		{5, 2, 3, 4, 0, 6}, /* top (+Z) at (1, 0), X x Y */
		{4, 0, 3, 4, 9, 5}, /* bottom (-Z) at (1, 2) */
		{4, 1, 0, 4, 9, 0},
		{0, 3, 4, 0, 4, 1}, /* left (-X) at (0, 1) */
		{3, 2, 4, 11, 4, 4}, /* back (+Y) at (3, 1) */
	};
	for (size_t i = 0; i < sizeof probe / sizeof probe[0]; i++) {
		const int *p = probe[i];
		int x = x0 + (p[3] + p[1]) * 48 + 24, y = y0 + (p[4] + p[2]) * 48 + 24;
		assert_int_equal(s.view[p[0]][p[1] + s.fdim[p[0]][0] * p[2]], p[5]);
		assert_int_equal(px(im, x, y), p[5] ? draw_colour(p[5]) : DRAW_EMPTY);
	}
	/* Grid cell (0, 0) is empty: 4 x 4 cells of background. */
	assert_int_equal(px(im, x0 + 2 * 48, y0 + 2 * 48), DRAW_BG);
	gdImageDestroy(im);
	free(png);
	shell_free(&s);
}

/* Not the cross: columns and rows take the widest and tallest of their
 * faces, a face narrower than its column sits at its left, and an empty
 * column or row is M cells. */
static void test_draw_shell_solution_box_other_net(void **state)
{
	(void)state;
	static const int net[6][2] = {{0, 0}, {1, 0}, {2, 0},
	                              {0, 1}, {1, 1}, {2, 1}};
	const int boxes[3][3] = {{3, 4, 5}, {6, 3, 4}, {3, 3, 10}};
	for (int i = 0; i < 3; i++) {
		struct shell s;
		shell_make_box(&s, boxes[i], 91 + (uint64_t)i);
		memcpy(s.net, net, sizeof net);
		fill_known_faces(&s);
		check_sheet(&s, "other net");
		shell_free(&s);
	}
}

static void test_draw_shell_solution_box_deterministic(void **state)
{
	(void)state;
	const int d[3] = {5, 3, 7};
	struct shell s;
	unsigned char *a, *b;
	size_t la, lb;
	shell_make_box(&s, d, 22);
	assert_int_equal(call_solution(&s, "same", &a, &la), DRAW_OK);
	assert_int_equal(call_solution(&s, "same", &b, &lb), DRAW_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
	shell_free(&s);
}

/* ---- draw_pieces ------------------------------------------------------- */

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* Fits max_side; shows the colour of every piece 1..npieces and dark
 * text or outlines. One pass over the pixels, a binary search each. */
static void check_colours(const unsigned char *png, size_t len, int npieces,
                          int max_side)
{
	uint32_t want[DRAW_MAX_PIECES + 1];
	long found[DRAW_MAX_PIECES + 1] = {0};
	gdImagePtr im = load(png, len);

	assert_true(gdImageSX(im) <= max_side && gdImageSY(im) <= max_side);
	for (int k = 1; k <= npieces; k++)
		want[k - 1] = draw_colour(k);
	want[npieces] = INK;
	qsort(want, (size_t)npieces + 1, sizeof want[0], cmp_u32);
	for (int y = 0; y < gdImageSY(im); y++)
		for (int x = 0; x < gdImageSX(im); x++) {
			uint32_t c = px(im, x, y);
			const uint32_t *hit = bsearch(&c, want, (size_t)npieces + 1,
			                              sizeof want[0], cmp_u32);
			if (hit != NULL)
				found[hit - want]++;
		}
	for (int i = 0; i <= npieces; i++)
		assert_true(found[i] > (want[i] == INK ? 50 : 0));
	gdImageDestroy(im);
}

static void test_draw_pieces_soma(void **state)
{
	(void)state;
	struct soma s;
	unsigned char *a, *b;
	size_t la, lb;
	soma_make(&s);
	assert_int_equal(draw_pieces((const unsigned char *const *)s.shape,
	                             (const int (*)[3])s.dims, 7, soma_names,
	                             "Soma", &a, &la), DRAW_OK);
	check_colours(a, la, 7, 1600);
	assert_int_equal(draw_pieces((const unsigned char *const *)s.shape,
	                             (const int (*)[3])s.dims, 7, soma_names,
	                             "Soma", &b, &lb), DRAW_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
	/* Unnamed pieces are numbered; no title. */
	assert_int_equal(draw_pieces((const unsigned char *const *)s.shape,
	                             (const int (*)[3])s.dims, 7, NULL, NULL, &a,
	                             &la), DRAW_OK);
	check_colours(a, la, 7, 1600);
	free(a);
	soma_free(&s);
}

/* Many big pieces shrink to fit; far too many are refused. */
static void test_draw_pieces_scale_and_limit(void **state)
{
	(void)state;
	enum { SIDE = 10, MANY = 20 };
	unsigned char *cube = malloc(SIDE * SIDE * SIDE);
	int w, h;
	const unsigned char *shapes[DRAW_MAX_PIECES];
	int dims[DRAW_MAX_PIECES][3];
	unsigned char *png, sentinel, *keep = &sentinel;
	size_t len, keep_len = 5;

	assert_non_null(cube);
	for (int j = 0; j < SIDE * SIDE * SIDE; j++)
		cube[j] = (unsigned char)(j % 7 != 0);
	for (int i = 0; i < MANY; i++) {
		shapes[i] = cube;
		dims[i][0] = dims[i][1] = dims[i][2] = SIDE;
	}
	assert_int_equal(draw_pieces(shapes, (const int (*)[3])dims, MANY, NULL,
	                             "forty", &png, &len), DRAW_OK);
	check_colours(png, len, MANY, 1600);
	/* Shrunk (at full scale they would be 4350 wide), but no more than
	 * needed. */
	gdImagePtr im = load(png, len);
	w = gdImageSX(im);
	h = gdImageSY(im);
	assert_true(w > 1200 || h > 1200);
	gdImageDestroy(im);
	free(png);
	free(cube);

	unsigned char *big = calloc((size_t)DRAW_MAX_N * DRAW_MAX_N * DRAW_MAX_N, 1);
	assert_non_null(big);
	for (int i = 0; i < DRAW_MAX_PIECES; i++) {
		shapes[i] = big;
		dims[i][0] = dims[i][1] = dims[i][2] = DRAW_MAX_N;
	}
	big[0] = 1;
	assert_int_equal(draw_pieces(shapes, (const int (*)[3])dims,
	                             DRAW_MAX_PIECES, NULL, NULL, &keep, &keep_len),
	                 DRAW_ETOOBIG);
	assert_ptr_equal(keep, &sentinel);
	assert_int_equal(keep_len, 5);
	free(big);
}

/* Bytes 24 and 25 of a PNG: the bit depth and colour type of its IHDR. */
static void png_kind(const unsigned char *png, size_t len, int *depth,
                     int *type)
{
	assert_true(len > 26);
	assert_memory_equal(png + 12, "IHDR", 4);
	*depth = png[24];
	*type = png[25];
}

/* Every picture is an indexed PNG, even with every piece colour there is
 * (42 colours, each in all its shades: 42 pieces, then 255 in an
 * assembly), and still shows them. */
static void test_draw_every_colour_in_one_palette(void **state)
{
	(void)state;
	static const unsigned char cell[8] = {1, 1, 1, 1, 1, 1, 1, 1};
	const unsigned char *shapes[DRAW_MAX_PIECES];
	int dims[DRAW_MAX_PIECES][3];
	unsigned char *png;
	size_t len;
	int depth, type;

	for (int i = 0; i < 42; i++) {
		shapes[i] = cell;
		dims[i][0] = dims[i][1] = dims[i][2] = 2;
	}
	assert_int_equal(draw_pieces(shapes, (const int (*)[3])dims, 42, NULL,
	                             "all", &png, &len), DRAW_OK);
	png_kind(png, len, &depth, &type);
	assert_int_equal(type, 3);
	assert_int_equal(depth, 8);
	check_colours(png, len, 42, DRAW_MAX_SIDE);
	free(png);

	/* 255 one-cell pieces side by side, 15 x 17 x 1 */
	unsigned char labels[DRAW_MAX_PIECES];
	for (int i = 0; i < DRAW_MAX_PIECES; i++)
		labels[i] = (unsigned char)(i + 1);
	assert_int_equal(draw_assembly(labels, 15, 17, 1, NULL, DRAW_MAX_PIECES,
	                               "all", &png, &len), DRAW_OK);
	png_kind(png, len, &depth, &type);
	assert_int_equal(type, 3);
	check_colours(png, len, 42, DRAW_MAX_SIDE); /* 43.. repeat 1.. */
	free(png);

	/* generate's preview: white, ink, grey grid lines and two shades of
	 * six colours fit 4 bits a pixel; the answer sheet needs 8 */
	struct shell sh;
	shell_make(&sh, 5, 42);
	assert_int_equal(call_plates(&sh, "t", &png, &len), DRAW_OK);
	png_kind(png, len, &depth, &type);
	assert_int_equal(type, 3);
	assert_int_equal(depth, 4);
	free(png);
	assert_int_equal(call_solution(&sh, "t", &png, &len), DRAW_OK);
	png_kind(png, len, &depth, &type);
	assert_int_equal(type, 3);
	assert_int_equal(depth, 8);
	free(png);
	shell_free(&sh);
}

/* ---- draw_assembly ------------------------------------------------------ */

static void test_draw_assembly_soma(void **state)
{
	(void)state;
	unsigned char lab[27], *a, *b;
	size_t la, lb;
	for (int i = 0; i < 27; i++)
		lab[i] = (unsigned char)(soma_solution[i] - '0');
	assert_int_equal(draw_assembly(lab, 3, 3, 3, soma_names, 7, "Soma", &a,
	                               &la), DRAW_OK);
	check_colours(a, la, 7, 1600);
	assert_int_equal(draw_assembly(lab, 3, 3, 3, soma_names, 7, "Soma", &b,
	                               &lb), DRAW_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
}

/* Twelve pieces in a 2x3x10 box, one piece, and a box with holes. */
static void test_draw_assembly_shapes(void **state)
{
	(void)state;
	unsigned char lab[60], *png;
	size_t len;
	const char *names[12] = {"F", "I", "L", "N", "P", "T",
	                         "U", "V", "W", "X", "Y", "Z"};
	for (int i = 0; i < 60; i++)
		lab[i] = (unsigned char)(i / 5 + 1);
	assert_int_equal(draw_assembly(lab, 2, 3, 10, names, 12, "box", &png, &len),
	                 DRAW_OK);
	check_colours(png, len, 12, 1600);
	free(png);

	unsigned char one[8] = {1, 1, 1, 0, 1, 0, 0, 0};
	assert_int_equal(draw_assembly(one, 2, 2, 2, NULL, 1, NULL, &png, &len),
	                 DRAW_OK);
	check_colours(png, len, 1, 1600);
	free(png);

	for (int i = 0; i < 60; i++)
		lab[i] = (unsigned char)(i % 4 == 0 ? 0 : i % 3 + 1);
	assert_int_equal(draw_assembly(lab, 5, 4, 3, NULL, 3, "holes", &png, &len),
	                 DRAW_OK);
	check_colours(png, len, 3, 1600);
	free(png);
}

/* A cube caged in the other 26 cells of a 3x3x3 box: the spread from
 * the centre moves neither (both centred), so without parts the exploded
 * view is the assembly and the cube is never seen but in the legend. */
static void caged_cube(unsigned char lab[27])
{
	for (int i = 0; i < 27; i++)
		lab[i] = 1;
	lab[1 + 3 * (1 + 3 * 1)] = 2;
}

/* draw_assembly_apart(): interlocked pieces exploded by the parts given
 * (the cube shown beside its cage), the same bytes twice; parts that
 * would put two cells on one, or none, leave draw_assembly_coloured()'s
 * picture, byte for byte. */
static void test_draw_assembly_apart(void **state)
{
	(void)state;
	static const char *const names[2] = {"cage", "cube"};
	unsigned char lab[27], *plain, *a, *b, *c;
	size_t lp, la, lb, lc;
	caged_cube(lab);
	assert_int_equal(draw_assembly_coloured(lab, NULL, 3, 3, 3, names, 2, "t",
	                                        &plain, &lp), DRAW_OK);
	const int up[2][3] = {{0, 0, 0}, {0, 0, 5}};
	assert_int_equal(draw_assembly_apart(lab, NULL, 3, 3, 3, names, 2, "t", lab,
	                                     up, 2, &a, &la), DRAW_OK);
	assert_int_equal(draw_assembly_apart(lab, NULL, 3, 3, 3, names, 2, "t", lab,
	                                     up, 2, &b, &lb), DRAW_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	gdImagePtr ip = load(plain, lp), ia = load(a, la);
	/* the cube's top, a flat square of its colour: only the legend's
	 * swatch before, the cube beside it now */
	long cube_plain = count_colour(ip, 0, 0, gdImageSX(ip), gdImageSY(ip),
	                               draw_colour(2));
	long cube_apart = count_colour(ia, 0, 0, gdImageSX(ia), gdImageSY(ia),
	                               draw_colour(2));
	assert_true(cube_plain > 0);
	assert_true(cube_apart > cube_plain + 200);
	gdImageDestroy(ip);
	gdImageDestroy(ia);
	free(a);
	free(b);
	/* one cell to the side: onto the cage; and no parts at all */
	const int side[2][3] = {{0, 0, 0}, {1, 0, 0}};
	assert_int_equal(draw_assembly_apart(lab, NULL, 3, 3, 3, names, 2, "t", lab,
	                                     side, 2, &c, &lc), DRAW_OK);
	assert_int_equal(lc, lp);
	assert_memory_equal(c, plain, lp);
	free(c);
	assert_int_equal(draw_assembly_apart(lab, NULL, 3, 3, 3, names, 2, "t",
	                                     NULL, NULL, 0, &c, &lc), DRAW_OK);
	assert_int_equal(lc, lp);
	assert_memory_equal(c, plain, lp);
	free(c);
	free(plain);
}

/* A generated shell as a general assembly: 64^3 stays within bounds. */
static void test_draw_assembly_large_shell(void **state)
{
	(void)state;
	struct shell s;
	unsigned char *png;
	size_t len;
	const char *names[6] = {"1", "2", "3", "4", "5", "6"};
	shell_make(&s, 64, 31);
	assert_int_equal(draw_assembly(s.owner, 64, 64, 64, names, 6, "n=64",
	                               &png, &len), DRAW_OK);
	check_colours(png, len, 6, DRAW_MAX_SIDE);
	free(png);
	shell_free(&s);
}

/* ---- cell colours ------------------------------------------------------- */

/* The test colours are no piece number's, nor the fixed colours. */
static void test_draw_colour_coloured(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		for (int k = 1; k <= 42; k++)
			assert_int_not_equal(cell_colours[i], draw_colour(k));
		assert_int_not_equal(cell_colours[i], DRAW_BG);
		assert_int_not_equal(cell_colours[i], DRAW_EMPTY);
		assert_int_not_equal(cell_colours[i], INK);
	}
}

/* Same bytes from two calls' outputs; frees both. */
static void assert_same_png(unsigned char *a, size_t la, unsigned char *b,
                            size_t lb)
{
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(a);
	free(b);
}

/* Plates with cell colours: each cell in its own, one plate (rgb[i] NULL)
 * in its number's; the swatch striped with the first DRAW_SWATCH_MAX;
 * every cell in its number's colour, or rgb NULL, is draw_plates(). */
static void test_draw_plates_coloured(void **state)
{
	(void)state;
	struct shell s;
	uint32_t *rgb[6];
	shell_make(&s, 5, 7);
	for (int i = 0; i < 6; i++) {
		rgb[i] = malloc(25 * sizeof *rgb[i]);
		assert_non_null(rgb[i]);
		for (int j = 0; j < 25; j++)
			rgb[i][j] = cell_colours[(j + i) % 3];
	}
	const uint32_t *some[6] = {rgb[0], rgb[1], NULL, rgb[3], rgb[4], rgb[5]};
	check_plates_rgb((const unsigned char *const *)s.plate,
	                 (const int (*)[2])s.pdim, 6, s.label, some, "coloured");
	/* two colours only, and one */
	for (int j = 0; j < 25; j++) {
		rgb[0][j] = cell_colours[j % 2];
		rgb[1][j] = cell_colours[2];
	}
	check_plates_rgb((const unsigned char *const *)s.plate,
	                 (const int (*)[2])s.pdim, 2, s.label, some, NULL);

	unsigned char *a, *b;
	size_t la, lb;
	for (int i = 0; i < 6; i++)
		for (int j = 0; j < 25; j++)
			rgb[i][j] = draw_colour(s.label[i]);
	assert_int_equal(draw_plates((const unsigned char *const *)s.plate,
	                             (const int (*)[2])s.pdim, 6, s.label, "t",
	                             &a, &la), DRAW_OK);
	assert_int_equal(draw_plates_coloured((const unsigned char *const *)s.plate,
	                                      (const int (*)[2])s.pdim, 6, s.label,
	                                      (const uint32_t *const *)rgb, "t",
	                                      &b, &lb), DRAW_OK);
	assert_same_png(a, la, b, lb);
	assert_int_equal(draw_plates((const unsigned char *const *)s.plate,
	                             (const int (*)[2])s.pdim, 6, s.label, "t",
	                             &a, &la), DRAW_OK);
	assert_int_equal(draw_plates_coloured((const unsigned char *const *)s.plate,
	                                      (const int (*)[2])s.pdim, 6, s.label,
	                                      NULL, "t", &b, &lb), DRAW_OK);
	assert_same_png(a, la, b, lb);

	/* Ten colours in a 10 x 1 plate: the swatch shows the first eight. */
	enum { N = 10 };
	unsigned char row[N];
	uint32_t many[N];
	for (int j = 0; j < N; j++) {
		row[j] = 1;
		many[j] = 0x400000 + 0x001400 * (uint32_t)j + 0x10;
	}
	const unsigned char *one[1] = {row};
	const uint32_t *one_rgb[1] = {many};
	const int dims[1][2] = {{N, 1}};
	const int label[1] = {1};
	assert_int_equal(draw_plates_coloured(one, dims, 1, label, one_rgb, NULL,
	                                      &a, &la), DRAW_OK);
	gdImagePtr im = load(a, la);
	int c = 384 / N, py = DRAW_MARGIN + DRAW_LABEL_H;
	int sw = max2(N * c + 1, 200) + 2 * DRAW_MARGIN, x0 = (sw - N * c - 1) / 2;
	for (int j = 0; j < N; j++) {
		assert_int_equal(px(im, x0 + j * c + c / 2, py + c / 2), many[j]);
		long n = count_colour(im, 0, DRAW_MARGIN, sw, py, many[j]);
		if (j < DRAW_SWATCH_MAX)
			assert_true(n > 26);
		else
			assert_int_equal(n, 0);
	}
	gdImageDestroy(im);
	free(a);
	for (int i = 0; i < 6; i++)
		free(rgb[i]);
	shell_free(&s);
}

/* The answer sheet with cell colours: net cells in them, both views; in
 * the number colours it is draw_shell_solution(). */
static void test_draw_shell_solution_coloured(void **state)
{
	(void)state;
	const int d[3] = {3, 4, 5};
	struct shell s;
	unsigned char *a, *b;
	size_t la, lb;

	shell_make(&s, 5, 12);
	shell_colour(&s, 0);
	check_sheet(&s, "coloured");
	shell_free(&s);
	shell_make_box(&s, d, 13);
	shell_colour(&s, 0);
	check_sheet(&s, NULL);
	fill_known_faces(&s);
	shell_uncolour(&s);
	shell_colour(&s, 0);
	check_sheet(&s, "known");

	assert_int_equal(call_solution(&s, "t", &a, &la), DRAW_OK);
	shell_uncolour(&s);
	shell_colour(&s, 1);
	assert_int_equal(call_solution(&s, "t", &b, &lb), DRAW_OK);
	assert_true(la != lb || memcmp(a, b, la) != 0); /* the test can fail */
	free(a);
	shell_uncolour(&s);
	assert_int_equal(call_solution(&s, "t", &a, &la), DRAW_OK);
	assert_same_png(a, la, b, lb);
	/* No face colours: the net in number colours, the views coloured. */
	shell_colour(&s, 0);
	for (int f = 0; f < 6; f++) {
		free(s.view_rgb[f]);
		s.view_rgb[f] = NULL;
	}
	check_sheet(&s, "views only");
	shell_free(&s);
}

/* Distinct colours 'want' (n of them) all present, and dark ink. */
static void check_colour_list(const unsigned char *png, size_t len,
                              const uint32_t *want, int n)
{
	gdImagePtr im = load(png, len);
	int w = gdImageSX(im), h = gdImageSY(im);
	for (int i = 0; i < n; i++)
		assert_true(count_colour(im, 0, 0, w, h, want[i]) > 0);
	assert_true(count_colour(im, 0, 0, w, h, INK) > 50);
	gdImageDestroy(im);
}

/* Soma pieces with cell colours, one (the second) in its number's. */
static void test_draw_pieces_coloured(void **state)
{
	(void)state;
	struct soma s;
	uint32_t *rgb[7];
	unsigned char *a, *b;
	size_t la, lb;
	soma_make(&s);
	for (int i = 0; i < 7; i++) {
		size_t n = (size_t)s.dims[i][0] * s.dims[i][1] * s.dims[i][2];
		rgb[i] = malloc(n * sizeof *rgb[i]);
		assert_non_null(rgb[i]);
		for (size_t j = 0; j < n; j++)
			rgb[i][j] = cell_colours[j % 3];
	}
	const uint32_t *some[7] = {rgb[0], NULL, rgb[2], rgb[3], rgb[4], rgb[5],
	                           rgb[6]};
	assert_int_equal(draw_pieces_coloured((const unsigned char *const *)s.shape,
	                                      (const int (*)[3])s.dims, 7, some,
	                                      soma_names, "Soma", &a, &la), DRAW_OK);
	const uint32_t want[4] = {cell_colours[0], cell_colours[1], cell_colours[2],
	                          draw_colour(2)};
	check_colour_list(a, la, want, 4);
	/* the others' number colours are gone */
	gdImagePtr im = load(a, la);
	for (int k = 1; k <= 7; k++)
		if (k != 2)
			assert_int_equal(count_colour(im, 0, 0, gdImageSX(im),
			                              gdImageSY(im), draw_colour(k)), 0);
	gdImageDestroy(im);
	free(a);

	for (int i = 0; i < 7; i++) {
		size_t n = (size_t)s.dims[i][0] * s.dims[i][1] * s.dims[i][2];
		for (size_t j = 0; j < n; j++)
			rgb[i][j] = draw_colour(i + 1);
	}
	assert_int_equal(draw_pieces((const unsigned char *const *)s.shape,
	                             (const int (*)[3])s.dims, 7, soma_names, "t",
	                             &a, &la), DRAW_OK);
	assert_int_equal(draw_pieces_coloured((const unsigned char *const *)s.shape,
	                                      (const int (*)[3])s.dims, 7,
	                                      (const uint32_t *const *)rgb,
	                                      soma_names, "t", &b, &lb), DRAW_OK);
	assert_same_png(a, la, b, lb);
	for (int i = 0; i < 7; i++)
		free(rgb[i]);
	soma_free(&s);
}

/* An assembly with cell colours: both views and the legend's stripes. */
/* Count the pixels of colour rgb. */
static long count_px(gdImagePtr im, uint32_t rgb)
{
	long n = 0;
	for (int y = 0; y < gdImageSY(im); y++)
		for (int x = 0; x < gdImageSX(im); x++)
			n += px(im, x, y) == rgb;
	return n;
}

/* The steps of the Soma cube: a piece more at each step, every piece's
 * colour in the picture, four steps a row, the same bytes twice; a piece
 * that no step shows is not drawn; too many steps are refused. */
static void test_draw_steps_soma(void **state)
{
	(void)state;
	unsigned char lab[27], *a, *b;
	size_t la, lb;
	for (int i = 0; i < 27; i++)
		lab[i] = (unsigned char)(soma_solution[i] - '0');
	uint64_t shown[7];
	const char *cap[7] = {"1. V", "2. L", "3. T", "4. Z", "5. A", "6. B",
	                      "7. P"};
	for (int s = 0; s < 7; s++)
		shown[s] = ((uint64_t)1 << (s + 1)) - 1;
	assert_int_equal(draw_steps(lab, 3, 3, 3, 7, shown, cap, 7, "Soma", &a,
	                            &la), DRAW_OK);
	assert_int_equal(draw_steps(lab, 3, 3, 3, 7, shown, cap, 7, "Soma", &b,
	                            &lb), DRAW_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(a, b, la);
	free(b);
	gdImagePtr im = load(a, la);
	assert_true(gdImageSX(im) <= 1600 && gdImageSY(im) <= 1600);
	assert_true(gdImageSX(im) > gdImageSY(im)); /* 4 + 3 panels */
	/* piece 1 alone in the first step: its top in its flat colour */
	assert_true(count_px(im, draw_colour(1)) > 0);
	long ink = gdImageSX(im) * (long)gdImageSY(im) - count_px(im, DRAW_BG);
	gdImageDestroy(im);
	/* without piece 7 in the last step, less is drawn */
	shown[6] &= ~((uint64_t)1 << 6);
	assert_int_equal(draw_steps(lab, 3, 3, 3, 7, shown, cap, 7, "Soma", &b,
	                            &lb), DRAW_OK);
	im = load(b, lb);
	assert_true(gdImageSX(im) * (long)gdImageSY(im) - count_px(im, DRAW_BG) < ink);
	gdImageDestroy(im);
	free(a);
	free(b);
	uint64_t many[DRAW_MAX_STEPS + 1] = {0};
	const char *caps[DRAW_MAX_STEPS + 1];
	for (int s = 0; s <= DRAW_MAX_STEPS; s++)
		caps[s] = "x";
	assert_int_equal(draw_steps(lab, 3, 3, 3, 7, many, caps, DRAW_MAX_STEPS + 1,
	                            NULL, &a, &la), DRAW_ETOOBIG);
}

static void test_draw_assembly_coloured(void **state)
{
	(void)state;
	unsigned char lab[27], *a, *b;
	uint32_t rgb[27];
	size_t la, lb;
	for (int i = 0; i < 27; i++) {
		lab[i] = (unsigned char)(soma_solution[i] - '0');
		rgb[i] = lab[i] == 7 ? draw_colour(7) : cell_colours[i % 3];
	}
	assert_int_equal(draw_assembly_coloured(lab, rgb, 3, 3, 3, soma_names, 7,
	                                        "Soma", &a, &la), DRAW_OK);
	const uint32_t want[4] = {cell_colours[0], cell_colours[1], cell_colours[2],
	                          draw_colour(7)};
	check_colour_list(a, la, want, 4);
	free(a);
	for (int i = 0; i < 27; i++)
		rgb[i] = draw_colour(lab[i]);
	assert_int_equal(draw_assembly(lab, 3, 3, 3, soma_names, 7, "t", &a, &la),
	                 DRAW_OK);
	assert_int_equal(draw_assembly_coloured(lab, rgb, 3, 3, 3, soma_names, 7,
	                                        "t", &b, &lb), DRAW_OK);
	assert_same_png(a, la, b, lb);
	assert_int_equal(draw_assembly_coloured(lab, NULL, 3, 3, 3, soma_names, 7,
	                                        "t", &b, &lb), DRAW_OK);
	assert_int_equal(draw_assembly(lab, 3, 3, 3, soma_names, 7, "t", &a, &la),
	                 DRAW_OK);
	assert_same_png(a, la, b, lb);

	/* A bar of two pieces, 1 1 2: one legend row at the bottom (below
	 * the views: DRAW_MARGIN, a LEGEND_ROW of 26 pixels, DRAW_MARGIN),
	 * piece 1's swatch striped in its two colours, piece 2's in its one,
	 * and the number colours nowhere. */
	const unsigned char bar[3] = {1, 1, 2};
	const uint32_t bar_rgb[3] = {cell_colours[0], cell_colours[1],
	                             cell_colours[2]};
	assert_int_equal(draw_assembly_coloured(bar, bar_rgb, 3, 1, 1, NULL, 2,
	                                        NULL, &a, &la), DRAW_OK);
	gdImagePtr im = load(a, la);
	int w = gdImageSX(im), h = gdImageSY(im);
	for (int i = 0; i < 3; i++) {
		assert_true(count_colour(im, 0, h - DRAW_MARGIN - 26, w, h - DRAW_MARGIN,
		                         cell_colours[i]) > 50);
		assert_true(count_colour(im, 0, 0, w, h - DRAW_MARGIN - 26,
		                         cell_colours[i]) > 50);
	}
	for (int k = 1; k <= 2; k++)
		assert_int_equal(count_colour(im, 0, 0, w, h, draw_colour(k)), 0);
	gdImageDestroy(im);
	free(a);
}

/* ---- misuse is an assert ------------------------------------------------- */

static unsigned char *g_png;
static size_t g_len;

static const int one_by_one[1][2] = {{1, 1}};

static void misuse_plates_n0(void)
{
	unsigned char p[1] = {1};
	const unsigned char *pl[1] = {p};
	int lab[1] = {1};
	const int dims[1][2] = {{1, 0}};
	draw_plates(pl, dims, 1, lab, NULL, &g_png, &g_len);
}

static void misuse_plates_too_wide(void)
{
	unsigned char p[1] = {1};
	const unsigned char *pl[1] = {p};
	int lab[1] = {1};
	const int dims[1][2] = {{DRAW_MAX_N + 1, 1}};
	draw_plates(pl, dims, 1, lab, NULL, &g_png, &g_len);
}

static void misuse_plates_null_dims(void)
{
	unsigned char p[1] = {1};
	const unsigned char *pl[1] = {p};
	int lab[1] = {1};
	draw_plates(pl, NULL, 1, lab, NULL, &g_png, &g_len);
}

static void misuse_plates_null_out(void)
{
	unsigned char p[1] = {1};
	const unsigned char *pl[1] = {p};
	int lab[1] = {1};
	draw_plates(pl, one_by_one, 1, lab, NULL, NULL, &g_len);
}

static void misuse_plates_label0(void)
{
	unsigned char p[1] = {1};
	const unsigned char *pl[1] = {p};
	int lab[1] = {0};
	draw_plates(pl, one_by_one, 1, lab, NULL, &g_png, &g_len);
}

static void misuse_plates_byte2(void)
{
	unsigned char p[1] = {2};
	const unsigned char *pl[1] = {p};
	int lab[1] = {1};
	draw_plates(pl, one_by_one, 1, lab, NULL, &g_png, &g_len);
}

static void misuse_solution_n2(void)
{
	struct shell s;
	shell_make(&s, 3, 1);
	s.dim[0] = s.dim[1] = s.dim[2] = 2;
	call_solution(&s, NULL, &g_png, &g_len);
}

static void misuse_solution_side2(void)
{
	const int d[3] = {3, 4, 5};
	struct shell s;
	shell_make_box(&s, d, 1);
	s.dim[1] = 2;
	call_solution(&s, NULL, &g_png, &g_len);
}

static void misuse_solution_side_too_big(void)
{
	struct shell s;
	shell_make(&s, 3, 1);
	s.dim[2] = DRAW_MAX_N + 1;
	call_solution(&s, NULL, &g_png, &g_len);
}

static void misuse_solution_net_overlap(void)
{
	struct shell s;
	shell_make(&s, 3, 1);
	s.net[5][0] = s.net[4][0];
	s.net[5][1] = s.net[4][1];
	call_solution(&s, NULL, &g_png, &g_len);
}

static void misuse_pieces_none(void)
{
	unsigned char p[1] = {1};
	const unsigned char *sh[1] = {p};
	int dims[1][3] = {{1, 1, 1}};
	draw_pieces(sh, (const int (*)[3])dims, 0, NULL, NULL, &g_png, &g_len);
}

static void misuse_assembly_label_too_big(void)
{
	unsigned char lab[2] = {1, 3};
	draw_assembly(lab, 2, 1, 1, NULL, 2, NULL, &g_png, &g_len);
}

/* Runs fn in a child with stderr silenced: did it abort? */
static int aborts(void (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (fd >= 0)
			dup2(fd, 2);
		fn();
		_exit(0);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

static void test_draw_misuse_asserts(void **state)
{
	void (*const cases[])(void) = {
		misuse_plates_n0, misuse_plates_too_wide, misuse_plates_null_dims,
		misuse_plates_null_out, misuse_plates_label0, misuse_plates_byte2,
		misuse_solution_n2, misuse_solution_side2,
		misuse_solution_side_too_big, misuse_solution_net_overlap,
		misuse_pieces_none, misuse_assembly_label_too_big,
	};
	(void)state;
#ifdef NDEBUG
	/* Built without asserts: misuse goes unchecked by design. */
	(void)cases;
	(void)aborts;
	skip();
#else
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		assert_true(aborts(cases[i]));
#endif
}

/* ---- out of memory ----------------------------------------------------- */

#ifndef HAVE_ASAN
static void quiet(int priority, const char *format, va_list args)
{
	(void)priority;
	(void)format;
	(void)args;
}

/*
 * Fails the k-th allocation of one call, for about 'samples' values of k
 * spread over all the allocations the call makes, and for each of the last
 * 16 (encoding and hand-over): each failure must be reported as
 * DRAW_ENOMEM or DRAW_EPNG with the out-parameters untouched. A first call
 * with nothing failing counts the allocations.
 */
static void check_oom(int (*call)(const void *, unsigned char **, size_t *),
                      const void *arg, long samples)
{
	unsigned char *png, sentinel;
	size_t len;

	/* libgd and libpng report the failures on stderr: silence them. */
	gdSetErrorMethod(quiet);
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	assert_true(saved >= 0 && null >= 0);
	dup2(null, 2);
	alloc_calls = 0;
	assert_int_equal(call(arg, &png, &len), DRAW_OK);
	free(png);
	long total = alloc_calls, stride = total / samples + 1;
	assert_true(total > 0);
	for (long k = 0; k < total; k += (k + stride >= total - 16) ? 1 : stride) {
		png = &sentinel;
		len = 99;
		fail_after = k;
		int rc = call(arg, &png, &len);
		fail_after = -1;
		assert_true(rc == DRAW_ENOMEM || rc == DRAW_EPNG);
		assert_ptr_equal(png, &sentinel);
		assert_int_equal(len, 99);
	}
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	gdClearErrorMethod();
}

static int oom_plates(const void *arg, unsigned char **png, size_t *len)
{
	const struct shell *s = arg;
	const unsigned char one[1] = {1};
	const unsigned char *plates[1] = {one};
	(void)arg;
	return draw_plates(plates, one_by_one, 1, s->label, "t", png, len);
}

/* Plates of three sizes, some turned. */
static int oom_box_plates(const void *arg, unsigned char **png, size_t *len)
{
	return call_plates(arg, "t", png, len);
}

static int oom_solution(const void *arg, unsigned char **png, size_t *len)
{
	return call_solution(arg, "t", png, len);
}

static int oom_pieces(const void *arg, unsigned char **png, size_t *len)
{
	const struct soma *s = arg;
	return draw_pieces((const unsigned char *const *)s->shape,
	                   (const int (*)[3])s->dims, 7, soma_names, "t", png, len);
}

static int oom_assembly(const void *arg, unsigned char **png, size_t *len)
{
	const unsigned char *lab = arg;
	return draw_assembly(lab, 3, 3, 3, soma_names, 7, "t", png, len);
}

/* The coloured calls: the colours' own copies (exploded views) too. */
static int oom_plates_coloured(const void *arg, unsigned char **png, size_t *len)
{
	const struct shell *s = arg;
	return draw_plates_coloured((const unsigned char *const *)s->plate,
	                            (const int (*)[2])s->pdim, 6, s->label,
	                            (const uint32_t *const *)s->view_rgb, "t", png,
	                            len);
}

static int oom_assembly_coloured(const void *arg, unsigned char **png,
                                 size_t *len)
{
	const unsigned char *lab = arg;
	uint32_t rgb[27];
	for (int i = 0; i < 27; i++)
		rgb[i] = cell_colours[i % 3];
	return draw_assembly_coloured(lab, rgb, 3, 3, 3, soma_names, 7, "t", png,
	                              len);
}

/* The caged cube exploded by its parts, in colours. */
static int oom_assembly_apart(const void *arg, unsigned char **png, size_t *len)
{
	const unsigned char *lab = arg;
	static const int up[2][3] = {{0, 0, 0}, {0, 0, 5}};
	uint32_t rgb[27];
	for (int i = 0; i < 27; i++)
		rgb[i] = cell_colours[i % 3];
	return draw_assembly_apart(lab, rgb, 3, 3, 3, soma_names, 2, "t", lab, up,
	                           2, png, len);
}

static int oom_pieces_coloured(const void *arg, unsigned char **png, size_t *len)
{
	const struct soma *s = arg;
	static const uint32_t rgb[8] = {0xC01020, 0x10A040, 0x2040C0, 0xC01020,
	                                0x10A040, 0x2040C0, 0xC01020, 0x10A040};
	const uint32_t *all[7] = {rgb, rgb, rgb, rgb, rgb, rgb, rgb};
	return draw_pieces_coloured((const unsigned char *const *)s->shape,
	                            (const int (*)[3])s->dims, 7, all, soma_names,
	                            "t", png, len);
}
#endif

static void test_draw_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	if (!failmalloc_active())
		skip(); /* valgrind owns malloc */
	struct shell s, box;
	struct soma soma;
	unsigned char lab[27];
	const int d[3] = {3, 4, 5};

	shell_make(&s, 3, 41);
	shell_make_box(&box, d, 42);
	soma_make(&soma);
	for (int i = 0; i < 27; i++)
		lab[i] = (unsigned char)(soma_solution[i] - '0');
	check_oom(oom_plates, &s, 1000); /* every allocation */
	check_oom(oom_box_plates, &box, 40);
	check_oom(oom_solution, &s, 40);
	check_oom(oom_solution, &box, 40);
	check_oom(oom_pieces, &soma, 40);
	check_oom(oom_assembly, lab, 40);
	check_oom(oom_assembly_coloured, lab, 40);
	check_oom(oom_pieces_coloured, &soma, 40);
	unsigned char caged[27];
	caged_cube(caged);
	check_oom(oom_assembly_apart, caged, 40);
	shell_colour(&s, 0);
	shell_colour(&box, 0);
	check_oom(oom_solution, &s, 40);
	check_oom(oom_solution, &box, 40);
	soma_free(&soma);
	shell_free(&box);
	/* Plates in the net faces' colours (the plates are 3x3, as the faces). */
	check_oom(oom_plates_coloured, &s, 40);
	shell_free(&s);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_draw_strerror_names_every_status),
		cmocka_unit_test(test_draw_colour_palette),
		cmocka_unit_test(test_draw_plates_n3),
		cmocka_unit_test(test_draw_plates_n5),
		cmocka_unit_test(test_draw_plates_n20),
		cmocka_unit_test(test_draw_plates_n64),
		cmocka_unit_test(test_draw_plates_largest_n_fits),
		cmocka_unit_test(test_draw_plates_grid_layouts),
		cmocka_unit_test(test_draw_plates_long_title),
		cmocka_unit_test(test_draw_plates_deterministic),
		cmocka_unit_test(test_draw_plates_too_many),
		cmocka_unit_test(test_draw_plates_box_3x4x5),
		cmocka_unit_test(test_draw_plates_box_4x4x6),
		cmocka_unit_test(test_draw_plates_box_3x3x10),
		cmocka_unit_test(test_draw_plates_mixed_sizes),
		cmocka_unit_test(test_draw_plates_turned_is_transposed),
		cmocka_unit_test(test_draw_shell_solution_n3),
		cmocka_unit_test(test_draw_shell_solution_n5),
		cmocka_unit_test(test_draw_shell_solution_n20),
		cmocka_unit_test(test_draw_shell_solution_n64),
		cmocka_unit_test(test_draw_shell_solution_many_seeds),
		cmocka_unit_test(test_draw_shell_solution_deterministic),
		cmocka_unit_test(test_draw_shell_solution_box_3x4x5),
		cmocka_unit_test(test_draw_shell_solution_box_4x4x6),
		cmocka_unit_test(test_draw_shell_solution_box_3x3x10),
		cmocka_unit_test(test_draw_shell_solution_box_extremes),
		cmocka_unit_test(test_draw_shell_solution_box_known_faces),
		cmocka_unit_test(test_draw_shell_solution_box_other_net),
		cmocka_unit_test(test_draw_shell_solution_box_deterministic),
		cmocka_unit_test(test_draw_pieces_soma),
		cmocka_unit_test(test_draw_pieces_scale_and_limit),
		cmocka_unit_test(test_draw_every_colour_in_one_palette),
		cmocka_unit_test(test_draw_assembly_soma),
		cmocka_unit_test(test_draw_assembly_shapes),
		cmocka_unit_test(test_draw_assembly_large_shell),
		cmocka_unit_test(test_draw_assembly_apart),
		cmocka_unit_test(test_draw_colour_coloured),
		cmocka_unit_test(test_draw_plates_coloured),
		cmocka_unit_test(test_draw_shell_solution_coloured),
		cmocka_unit_test(test_draw_pieces_coloured),
		cmocka_unit_test(test_draw_assembly_coloured),
		cmocka_unit_test(test_draw_steps_soma),
		cmocka_unit_test(test_draw_misuse_asserts),
		cmocka_unit_test(test_draw_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
