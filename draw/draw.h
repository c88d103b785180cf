/*
 * draw.h: PNG pictures of puzzles, drawn with libgd.
 *
 * Four pictures: the preview of flat plates a maker prints from
 * (draw_plates), the answer sheet of an N-cube shell puzzle
 * (draw_shell_solution), and for any polycube puzzle its pieces
 * (draw_pieces) and an assembled solution (draw_assembly). This header is
 * the only view of libgd the rest of cubegen gets: inputs are plain arrays,
 * outputs are PNG bytes.
 *
 * Coordinates. A cell array is x fastest: cell (x, y, z) of an nx*ny*nz
 * box is a[x + nx*(y + ny*z)], 0 <= x < nx etc. A flat plate or a face is
 * an n*n array [u + n*v], drawn with u to the right and v DOWN, exactly as
 * the rows of a .puz file read. Isometric views look at the box from the
 * +X, +Y, +Z side: +Z is up, +X runs to the lower right, +Y to the lower
 * left, so the three visible sides are +Z (top, lightest), +Y (left) and
 * +X (right, darkest). Cells are drawn back to front (painter's algorithm),
 * only the faces no neighbour cell hides, each with a thin dark outline.
 *
 * Colours. Piece number k (1..255) is drawn in draw_colour(k): k = 1..7 are
 * the Okabe-Ito colours, chosen to stay distinct for colour-blind readers
 * (orange, sky blue, bluish green, yellow, blue, vermillion, reddish
 * purple); k = 8..14 are seven of Paul Tol's "muted" colours (indigo, wine,
 * olive, grey, rose, teal, sand); k = 15..28 repeat 1..14 paler, 29..42
 * darker, and so on in a cycle of 42. Every picture uses the same colour
 * for the same number, so the preview, the answer sheet and render's
 * pictures agree.
 * The background is white (DRAW_BG); in the net, cells of a face that
 * belong to a neighbouring face's piece are light grey (DRAW_EMPTY).
 *
 * Numbers and names are drawn with libgd's built-in bitmap fonts (Giant,
 * 9x15, scaled by whole pixels for titles and tags). Bytes outside
 * printable ASCII are drawn as '?'; a title or name too long for its place
 * is cut and ends in "..".
 *
 * Ownership. Every function returns the PNG in *png, a buffer of *len bytes
 * from malloc() that the caller releases with free(). Inputs are only read.
 * Out-parameters are written only on success; on failure nothing is
 * allocated.
 *
 * Determinism. The same input gives the same bytes: the geometry is integer
 * arithmetic only, PNGs are written at the fixed zlib level DRAW_PNG_LEVEL
 * and carry no time stamp.
 *
 * Errors. Misuse (NULL pointers, sizes or numbers out of the ranges stated
 * below, a plate byte other than 0 or 1) is caught by assert(). Failures a
 * caller cannot rule out are returned: DRAW_ENOMEM, DRAW_EPNG, and
 * DRAW_ETOOBIG when the picture would exceed DRAW_MAX_SIDE pixels a side
 * (many large pieces; draw_plates and draw_shell_solution never hit it for
 * count <= 6 and n <= DRAW_MAX_N). Nothing here prints, but when encoding
 * fails libgd's and libpng's default handlers may say so on stderr.
 */
#ifndef CUBEGEN_DRAW_H
#define CUBEGEN_DRAW_H

#include <stddef.h>
#include <stdint.h>

enum draw_status {
	DRAW_OK = 0,
	DRAW_ENOMEM,  /* out of memory: ours, or libgd's (or libpng's) while
	                 making or encoding the image */
	DRAW_EPNG,    /* libgd failed to encode the PNG, not for lack of memory */
	DRAW_ETOOBIG, /* the picture would be wider or taller than DRAW_MAX_SIDE */
};

#define DRAW_MAX_N 128       /* largest n of a plate, a face or a box side */
#define DRAW_MAX_SIDE 2400   /* no picture is wider or taller, in pixels */
#define DRAW_MAX_PIECES 255  /* piece numbers are 1..DRAW_MAX_PIECES */
#define DRAW_PNG_LEVEL 6     /* zlib level: fixed, so the bytes are too */
#define DRAW_BG 0xFFFFFF     /* background, 0xRRGGBB */
#define DRAW_EMPTY 0xE4E4E4  /* net cell of a neighbouring face's piece */

/*
 * Layout constants shared by the size formulas below (pixels).
 * DRAW_MARGIN: around and between parts. DRAW_TITLE_H: height of the title
 * strip, or DRAW_MARGIN when the title is NULL or empty. DRAW_LABEL_H: the
 * label strip above each plate of the preview. DRAW_CAPTION_H: the caption
 * strip above each part of the answer sheet. DRAW_TAG_SIDE: a number tag
 * (a white box with a dark border and the number in it) fits in a square
 * this wide, centred where the tag is put.
 */
#define DRAW_MARGIN 20
#define DRAW_TITLE_H 64
#define DRAW_LABEL_H 52
#define DRAW_CAPTION_H 30
#define DRAW_TAG_SIDE 44

/* A static English sentence for a status; never NULL. */
const char *draw_strerror(int status);

/* The colour of piece number k (1..DRAW_MAX_PIECES), as 0xRRGGBB: the flat
 * colour of plates and net cells, and the top side in isometric views. */
uint32_t draw_colour(int k);

/*
 * Preview of flat plates, numbered, no answer shown. plates[i] is an n*n
 * bitmap [u + n*v] of 0/1 (1 <= n <= DRAW_MAX_N), drawn u right and v down;
 * label[i] (1..DRAW_MAX_PIECES) is its number and picks its colour.
 * 1 <= count; title may be NULL.
 *
 * Layout, for cell size c = clamp(384 / n, 2, 64) (integer division):
 *   cols = min(count, 3), rows = ceil(count / cols)
 *   slot width  SW = max(n*c + 1, 200) + 2*DRAW_MARGIN
 *   slot height SH = DRAW_LABEL_H + n*c + 1 + DRAW_MARGIN
 *   width  = cols * SW
 *   height = T + rows * SH + DRAW_MARGIN, T = the title strip height
 * Plate i sits in slot (i % cols, i / cols): its label strip spans the slot
 * width at y0 = T + row*SH with "Piece <label>" and a colour swatch; the
 * plate's top-left pixel is (col*SW + (SW - n*c - 1)/2, y0 + DRAW_LABEL_H),
 * and cell (u, v) covers c+1 pixels from there + (u*c, v*c), grid lines
 * included, so its centre is at + (u*c + c/2, v*c + c/2). A filled cell is
 * label[i]'s colour there; an empty cell is DRAW_BG, with a light grey
 * outline so the full n*n square stays readable.
 */
int draw_plates(const unsigned char *const *plates, int n, size_t count,
                const int *label, const char *title, unsigned char **png,
                size_t *len);

/*
 * Answer sheet of an n-cube shell puzzle (3 <= n <= DRAW_MAX_N): the net
 * with every piece in place and numbered, an isometric view of the
 * assembled cube and an exploded view, each with a caption.
 *
 * face_view[f], f = 0..5 for the faces -X, +X, -Y, +Y, -Z, +Z, is n*n bytes
 * [u + n*v]: the face seen from outside, u right, v down; each byte is the
 * number (1..6) of the piece covering that cell, or 0 where the cell
 * belongs to a neighbouring face's piece. net_pos[f] = {col, row} places
 * face f in a 4-wide, 3-high grid of faces (distinct, 0 <= col < 4,
 * 0 <= row < 3). owner is n*n*n bytes [x + n*(y + n*z)]: the piece number
 * (1..6) of every shell cell, 0 inside. piece_face[i] (0..5) is the face
 * piece i+1 lies on; the exploded view moves it g = max(2, (n + 3) / 4)
 * cells out along that face's normal. title may be NULL.
 *
 * Layout, for net cell size c = clamp(240 / n, 2, 48):
 *   net width NW = 4*n*c + 1, iso box side B = NW / 2
 *   width  = NW + 2*DRAW_MARGIN
 *   height = T + DRAW_CAPTION_H + 3*n*c + 1 + DRAW_MARGIN
 *              + DRAW_CAPTION_H + B + DRAW_MARGIN
 * The net's top-left pixel is (DRAW_MARGIN, T + DRAW_CAPTION_H); cell
 * (u, v) of face f has its centre at that + (col*n*c + u*c + c/2,
 * row*n*c + v*c + c/2) and is draw_colour(number) or DRAW_EMPTY, except
 * under the face's number tag, centred on the face's centre. Below, two
 * B*B boxes side by side hold the assembled and the exploded view.
 */
int draw_shell_solution(int n, const unsigned char *const *face_view,
                        const int (*net_pos)[2], const unsigned char *owner,
                        const int *piece_face, const char *title,
                        unsigned char **png, size_t *len);

/*
 * The pieces of any polycube puzzle as shaded isometric blocks, each with
 * its name below, in a grid of ceil(sqrt(count)) columns. shapes[i] is
 * dims[i][0]*dims[i][1]*dims[i][2] bytes [x + nx*(y + ny*z)], 0 or 1, each
 * dimension 1..DRAW_MAX_N; piece i is drawn in draw_colour(i + 1).
 * names may be NULL (pieces are then named 1, 2, ...), else names[i] is
 * not NULL. 1 <= count <= DRAW_MAX_PIECES; title may be NULL.
 * All pieces share one scale, the largest (up to 24 px per cube edge
 * step) that keeps the picture within 1600x1600 pixels; failing that the
 * smallest (half a pixel), if that fits DRAW_MAX_SIDE; else DRAW_ETOOBIG.
 */
int draw_pieces(const unsigned char *const *shapes, const int (*dims)[3],
                size_t count, const char *const *names, const char *title,
                unsigned char **png, size_t *len);

/*
 * An assembled solution: labels is nx*ny*nz bytes [x + nx*(y + ny*z)],
 * 0 = empty, k = piece k (1..npieces), drawn in draw_colour(k); each side
 * 1..DRAW_MAX_N, 1 <= npieces <= DRAW_MAX_PIECES. Draws an isometric view
 * and beside it an exploded view, and below them a legend of colour and
 * names[k-1] (names may be NULL: numbers; names are cut to 20 characters).
 * In the exploded view every piece moves f times its centroid's offset from
 * the box centre, rounded to whole cells, for the smallest f of 1, 1.5, 2,
 * 3, 4 that leaves no two pieces touching face to face; failing that the
 * smallest that leaves none overlapping; failing that (interlocked pieces)
 * the view shows the assembly again. title may be NULL. Same scale and
 * size rule as draw_pieces, one scale for both views.
 */
int draw_assembly(const unsigned char *labels, int nx, int ny, int nz,
                  const char *const *names, size_t npieces, const char *title,
                  unsigned char **png, size_t *len);

#endif
