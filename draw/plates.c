/*
 * plates.c: the flat pictures of draw.h: the preview of plates
 * (draw_plates) and the answer sheet of a box shell puzzle
 * (draw_shell_solution), whose net is drawn like the plates and whose
 * assembled and exploded views come from iso.c.
 *
 * Workload: up to six plates or faces of at most DRAW_MAX_N x DRAW_MAX_N
 * cells, a rectangle and its grid lines per cell, laid out by the integer
 * formulas of draw.h; the sheet's two views draw at most
 * (DRAW_MAX_N + 2g)^3 cells, mostly hidden.
 */
#include "draw/draw_int.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UQ_SHELL 640     /* largest u in the answer sheet: 40 px */

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
		dr_rect(im, x - a, y - a, x + b, y + c + b, INK);
		break;
	case 1:
		dr_rect(im, x + c - a, y - a, x + c + b, y + c + b, INK);
		break;
	case 2:
		dr_rect(im, x - a, y - a, x + c + b, y + b, INK);
		break;
	default:
		dr_rect(im, x - a, y + c - a, x + c + b, y + c + b, INK);
		break;
	}
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
				dr_rect(im, x, y, x + c, y + c, rgb);
				/* Below 4 pixels a cell, grid lines would be half the
				 * picture; the outlines alone read better. */
				if (c >= 4)
					dr_frame(im, x, y, x + c, y + c,
					         k ? dr_mix(rgb, BLACK, 90) : GRID_EMPTY);
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
	int th = dr_title_height(title);
	size_t cols = count < 3 ? count : 3, rows = (count + cols - 1) / cols;
	if (rows > (size_t)(DRAW_MAX_SIDE / sh))
		return DRAW_ETOOBIG;
	int w = (int)cols * sw, h = th + (int)rows * sh + DRAW_MARGIN;
	if (w > DRAW_MAX_SIDE || h > DRAW_MAX_SIDE)
		return DRAW_ETOOBIG;

	gdImagePtr im = dr_canvas(w, h);
	if (im == NULL)
		return DRAW_ENOMEM;
	dr_title_draw(im, w, title);
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
					dr_swatch_add(&cells, cell_rgb[j]);
			if (cells.n > 0)
				sw_of = cells;
		}
		/* Label: a swatch of the colours, then "Piece k", centred. */
		snprintf(buf, sizeof buf, "Piece %d", label[i]);
		int tw = (int)strlen(buf) * FONT_W * 2, sq = FONT_H * 2;
		int lx = sx + (sw - (sq + 12 + tw)) / 2, ly = y0 + 6;
		dr_rect(im, lx, ly, lx + sq - 1, ly + sq - 1, INK);
		dr_swatch_draw(im, lx + 2, ly + 2, lx + sq - 3, ly + sq - 3, &sw_of);
		struct text t;
		dr_text_make(&t, buf, 31);
		dr_text_draw(im, lx + sq + 12, ly, 2, &t, INK);

		grid_draw(im, x0, py, plates[i], colour_of, cell_rgb, pw, ph, c,
		          DRAW_BG, 0);
		grid_draw(im, x0, py, plates[i], colour_of, cell_rgb, pw, ph, c,
		          DRAW_BG, 1);
	}
	return dr_finish(im, png, len);
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
	int th = dr_title_height(title);
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
	gdImagePtr im = dr_canvas(w, h);
	if (im == NULL) {
		free(exploded);
		free(exploded_rgb);
		return DRAW_ENOMEM;
	}
	for (int k = 1; k <= 6; k++)
		colour_of[k] = (int)draw_colour(k);

	dr_title_draw(im, w, title);
	dr_text_centred(im, w / 2, th + (DRAW_CAPTION_H - FONT_H) / 2, w, 1,
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
				dr_frame(im, fx, fy, fx + fw * c, fy + fh * c, INK_SOFT);
			else if (k != 0)
				/* A face under 60 pixels across gets a small tag, as in
				 * the views below: a big one would hide most of it. */
				dr_tag_draw(im, fx + fw * c / 2, fy + fh * c / 2, k,
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
		int64_t uq = dr_iso_fit(box - 2 * pad, box_h - 2 * pad, vd[0], vd[1],
		                        vd[2], UQ_SHELL);

		dr_text_centred(im, bx + box / 2, iso_y - DRAW_CAPTION_H +
		                (DRAW_CAPTION_H - FONT_H) / 2, box, 1, caption[view],
		                INK_SOFT);
		for (int k = 1; k <= 6; k++)
			sh[k] = dr_shade_of(im, (uint32_t)colour_of[k], uq);
		dr_iso_size(uq, vd[0], vd[1], vd[2], &vw, &vh);
		/* B >= 2*M*c leaves room for 1.5*M + 3 cells a side at half a
		 * pixel per u, more than the exploded box needs. */
		assert(vw <= box && vh <= box_h);
		struct iso v = dr_iso_place(uq, vd[1], vd[2], bx + (box - vw) / 2,
		                            iso_y + (box_h - vh) / 2);
		dr_iso_draw(im, &v, lab, lab_rgb, vd[0], vd[1], vd[2], sh);

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
			gdPoint p = dr_iso_pt(&v, q[0], q[1], q[2]);
			dr_tag_draw(im, p.x, p.y, k,
			            (int64_t)imin(fw, fh) * uq >= 60 * 16 ? 2 : 1);
		}
	}
	free(exploded);
	free(exploded_rgb);
	return dr_finish(im, png, len);
}
