/*
 * draw.h: PNG pictures of puzzles, drawn with libgd.
 *
 * Four pictures: the preview of flat plates a maker prints from
 * (draw_plates), the answer sheet of an X*Y*Z box shell puzzle
 * (draw_shell_solution), and for any polycube puzzle its pieces
 * (draw_pieces) and an assembled solution (draw_assembly). This header is
 * the only view of libgd the rest of cubegen gets: inputs are plain arrays,
 * outputs are PNG bytes.
 *
 * Coordinates. A cell array is x fastest: cell (x, y, z) of an nx*ny*nz
 * box is a[x + nx*(y + ny*z)], 0 <= x < nx etc. A flat plate or a face is
 * a w*h array [u + w*v], w wide and h high, drawn with u to the right and
 * v DOWN, exactly as the rows of a .puz file read. Isometric views look at
 * the box from the +X, +Y, +Z side: +Z is up, +X runs to the lower right,
 * +Y to the lower left, so the three visible sides are +Z (top, lightest),
 * +Y (left) and +X (right, darkest). Cells are drawn back to front
 * (painter's algorithm), only the faces no neighbour cell hides, each with
 * a thin dark outline.
 *
 * Colours. Piece number k (1..255) is drawn in draw_colour(k): k = 1..8 are
 * eight hues at least 14 degrees apart that stay distinct for colour-blind
 * readers (Okabe and Ito's orange, sky blue, bluish green, yellow,
 * vermillion and reddish purple, Paul Tol's indigo and green); k = 9..14
 * are Okabe and Ito's blue and five of Tol's "muted" colours (wine, olive,
 * rose, teal, sand); k = 15..28 repeat 1..14 paler, 29..42 darker, and so
 * on in a cycle of 42. Every picture uses the same colour
 * for the same number, so the preview, the answer sheet and render's
 * pictures agree.
 * Cell colours. Each picture also comes as a *_coloured() function that
 * takes, beside every array of cells, an optional array 'rgb' laid out
 * like it (same size, same index) that gives each cell its own display
 * colour 0xRRGGBB, read only where there is a cell: a colour puzzle's
 * coloured cells in their colours (the caller puts draw_colour(k) in the
 * entries of piece k's plain cells). A NULL rgb draws those cells in their
 * number's colour, and the function without rgb is the *_coloured() one
 * with every rgb NULL, byte for byte. Only the fill changes: outlines and
 * tags still follow the numbers, so a piece of several colours keeps one
 * outline. Swatches (the preview's label strip, the assembly's legend)
 * show a piece's colours as vertical stripes, at most DRAW_SWATCH_MAX of
 * them, in the order the cells are first met (x fastest, then y, then z;
 * plates u fastest, then v). The top side of an isometric cube is its
 * colour, the sides darker, as for numbers.
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
 * and carry no time stamp. Every picture is an indexed PNG (a palette of at
 * most 256 colours, which the drawing never outgrows: see draw_int.h).
 *
 * Errors. Misuse (NULL pointers, sizes or numbers out of the ranges stated
 * below, a plate byte other than 0 or 1) is caught by assert(). Failures a
 * caller cannot rule out are returned: DRAW_ENOMEM, DRAW_EPNG, and
 * DRAW_ETOOBIG when the picture would exceed DRAW_MAX_SIDE pixels a side
 * (many large pieces; draw_plates and draw_shell_solution never hit it for
 * count <= 6 and sides <= DRAW_MAX_N). Nothing here prints (libpng's
 * messages are caught), but when libgd cannot allocate a picture its
 * default handler may say so on stderr.
 */
#ifndef CUBEGEN_DRAW_H
#define CUBEGEN_DRAW_H

#include <stddef.h>
#include <stdint.h>

enum draw_status {
	DRAW_OK = 0,
	DRAW_ENOMEM,  /* out of memory: ours, libgd's, libpng's or zlib's
	                 while making or encoding the image */
	DRAW_EPNG,    /* libpng failed to encode the PNG, not for lack of memory */
	DRAW_ETOOBIG, /* the picture would be wider or taller than DRAW_MAX_SIDE */
};

#define DRAW_MAX_N 128       /* largest n of a plate, a face or a box side */
#define DRAW_MAX_SIDE 2400   /* no picture is wider or taller, in pixels */
#define DRAW_MAX_PIECES 255  /* piece numbers are 1..DRAW_MAX_PIECES */
#define DRAW_PNG_LEVEL 1     /* zlib level: fixed, so the bytes are too;
                                the fastest (see png.c's dr_finish()) */
#define DRAW_BG 0xFFFFFF     /* background, 0xRRGGBB */
#define DRAW_EMPTY 0xE4E4E4  /* net cell of a neighbouring face's piece */
#define DRAW_SWATCH_MAX 8    /* colours one swatch shows, at most */

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
 * Preview of flat plates, numbered, no answer shown. plates[i] is a w*h
 * bitmap [u + w*v] of 0/1, w = dims[i][0] across and h = dims[i][1] down
 * (each 1..DRAW_MAX_N), drawn u right and v down. Plates may differ in
 * size: a box has three face sizes, and a plate turned a quarter swaps its
 * w and h. label[i] (1..DRAW_MAX_PIECES) is its number and picks its
 * colour. 1 <= count; title may be NULL.
 *
 * Layout, for Wmax and Hmax the largest w and h over all plates and one
 * cell size for all, c = clamp(384 / max(Wmax, Hmax), 2, 64) (integer
 * division):
 *   cols = min(count, 3), rows = ceil(count / cols)
 *   slot width  SW = max(Wmax*c + 1, 200) + 2*DRAW_MARGIN
 *   slot height SH = DRAW_LABEL_H + Hmax*c + 1 + DRAW_MARGIN
 *   width  = cols * SW
 *   height = T + rows * SH + DRAW_MARGIN, T = the title strip height
 * Plate i, w x h, sits in slot (i % cols, i / cols): its label strip spans
 * the slot width at y0 = T + row*SH with "Piece <label>" and a colour
 * swatch; the plate's top-left pixel is (col*SW + (SW - w*c - 1)/2,
 * y0 + DRAW_LABEL_H), centred across the slot and under the label, and
 * cell (u, v) covers c+1 pixels from there + (u*c, v*c), grid lines
 * included, so its centre is at + (u*c + c/2, v*c + c/2). A filled cell is
 * label[i]'s colour there; an empty cell is DRAW_BG, with a light grey
 * outline so the full w*h rectangle stays readable. Below a plate shorter
 * than Hmax the slot is background. (All plates n*n: c = clamp(384 / n,
 * 2, 64), SW = max(n*c + 1, 200) + 2*DRAW_MARGIN, and so on.)
 */
int draw_plates(const unsigned char *const *plates, const int (*dims)[2],
                size_t count, const int *label, const char *title,
                unsigned char **png, size_t *len);

/*
 * draw_plates() with cell colours (see the top of this file): rgb is NULL
 * or 'count' arrays, rgb[i] NULL or w*h colours [u + w*v] for plate i. A
 * plate with colours has them in its cells and as stripes in its swatch;
 * the layout is the same.
 */
int draw_plates_coloured(const unsigned char *const *plates,
                         const int (*dims)[2], size_t count, const int *label,
                         const uint32_t *const *rgb, const char *title,
                         unsigned char **png, size_t *len);

/*
 * Answer sheet of an X*Y*Z box shell puzzle, dim = {X, Y, Z}, each side
 * 3..DRAW_MAX_N (a cube when they are equal): the net with every piece in
 * place and numbered, an isometric view of the assembled box and an
 * exploded view, each with a caption.
 *
 * face_view[f], f = 0..5 for the faces -X, +X, -Y, +Y, -Z, +Z, is the face
 * seen from outside at its own size, w_f*h_f bytes [u + w_f*v], u right,
 * v down: -X and +X are Y wide and Z high, -Y and +Y are X wide and Z
 * high, -Z and +Z are X wide and Y high. Each byte is the number (1..6) of
 * the piece covering that cell, or 0 where the cell belongs to a
 * neighbouring face's piece. net_pos[f] = {col, row} places face f in a
 * 4-wide, 3-high grid of faces (distinct, 0 <= col < 4, 0 <= row < 3).
 * owner is X*Y*Z bytes [x + X*(y + Y*z)]: the piece number (1..6) of every
 * shell cell, 0 inside. piece_face[i] (0..5) is the face piece i+1 lies
 * on; the exploded view moves it g_a cells out along that face's normal,
 * a the normal's axis: with S_a the box's side along a and
 * L_a = max(S_a, the smaller of the other two sides),
 * g_a = max(2, (L_a + 3) / 4) + (L_a - S_a + 1) / 2, so that the two
 * plates across a never overlap on the picture, not even those of a flat
 * box (for a cube g = max(2, (n + 3) / 4)).
 * The exploded box is X + 2g_x by Y + 2g_y by Z + 2g_z. title may be NULL.
 *
 * Layout, for M = max(X, Y, Z) and net cell size c = clamp(240 / M, 2, 48)
 * (integer division):
 *   column k of the net is CW_k cells wide, the largest w_f of the faces
 *   in it, and row k is RH_k cells high, the largest h_f of the faces in
 *   it (a column or row with no face: M); they start at
 *   colx_k = CW_0 + ... + CW_(k-1) and rowy_k = RH_0 + ... + RH_(k-1)
 *   net width   NW = colx_4*c + 1,   net height NH = rowy_3*c + 1
 *   sheet width SW = 4*M*c + 1 (the net of an M-cube; NW <= SW),
 *   view box width B = SW / 2
 *   view height BH = min(max(V(X, Y, Z),
 *                            V(X + 2g_x, Y + 2g_y, Z + 2g_z)), 2*B),
 *                    V(a, b, h) = B*(a + b + 2*h) / (2*(a + b))
 *   width  = SW + 2*DRAW_MARGIN
 *   height = T + DRAW_CAPTION_H + NH + DRAW_MARGIN
 *              + DRAW_CAPTION_H + BH + DRAW_MARGIN
 * With the usual cross (left, front, right, back in row 1, top above and
 * bottom below the front) NW = 2*(X + Y)*c + 1 and NH = (2*Y + Z)*c + 1;
 * for a cube of side n, NW = SW = 4*n*c + 1, NH = 3*n*c + 1 and
 * BH = B = NW/2.
 * The net's top-left pixel is (nx0, ny0) = (DRAW_MARGIN + (SW - NW)/2,
 * T + DRAW_CAPTION_H). Face f at {col, row} has its top-left pixel at
 * (nx0 + colx_col*c, ny0 + rowy_row*c) (the top-left of its grid cell, if
 * smaller), so no two faces overlap; its cell (u, v) has its centre at
 * that + (u*c + c/2, v*c + c/2) and is draw_colour(number) or DRAW_EMPTY,
 * except under the number tags. Each face's tag is centred on the face's
 * centre, that + (w_f*c/2, h_f*c/2), and fits DRAW_TAG_SIDE square (but
 * may reach past a face narrower than that). Below, at y = ny0 + NH +
 * DRAW_MARGIN + DRAW_CAPTION_H, two B x BH boxes side by side from
 * x = DRAW_MARGIN hold the assembled and the exploded view, each centred
 * at the largest scale that fits, so both show the box's true proportions.
 */
int draw_shell_solution(const int dim[3], const unsigned char *const *face_view,
                        const int (*net_pos)[2], const unsigned char *owner,
                        const int *piece_face, const char *title,
                        unsigned char **png, size_t *len);

/*
 * draw_shell_solution() with cell colours: face_rgb is NULL or 6 arrays,
 * face_rgb[f] NULL or w_f*h_f colours laid out like face_view[f] (read
 * where face_view[f] is not 0); owner_rgb is NULL or X*Y*Z colours laid
 * out like owner, for the two views. The layout is the same.
 */
int draw_shell_solution_coloured(const int dim[3],
                                 const unsigned char *const *face_view,
                                 const uint32_t *const *face_rgb,
                                 const int (*net_pos)[2],
                                 const unsigned char *owner,
                                 const uint32_t *owner_rgb,
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

/* draw_pieces() with cell colours: rgb is NULL or 'count' arrays, rgb[i]
 * NULL or colours laid out like shapes[i]. The layout is the same. */
int draw_pieces_coloured(const unsigned char *const *shapes,
                         const int (*dims)[3], size_t count,
                         const uint32_t *const *rgb, const char *const *names,
                         const char *title, unsigned char **png, size_t *len);

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

/*
 * draw_assembly() with cell colours: rgb NULL or nx*ny*nz colours laid
 * out like labels (the colour of the piece cell on each cell), in both
 * views; the legend's swatch of piece k shows the colours of its cells.
 * The layout is the same.
 */
int draw_assembly_coloured(const unsigned char *labels, const uint32_t *rgb,
                           int nx, int ny, int nz, const char *const *names,
                           size_t npieces, const char *title,
                           unsigned char **png, size_t *len);

/*
 * draw_assembly_coloured() with a second way to explode, for interlocked
 * pieces (a burr, a box with a lid) that the spread from the centre
 * leaves touching or on one another at every spread tried, where the
 * exploded view would show little more than the assembly: the cells of
 * part j (part: nx*ny*nz, 0 or 1..nparts, the pieces that move together,
 * such as one copy of a piece) moved by shift[j - 1] cells, part 0
 * staying (say, where a disassembly leaves its parts). When that puts
 * two cells on one, the spread as draw_assembly_coloured() has it. part
 * NULL: draw_assembly_coloured().
 */
int draw_assembly_apart(const unsigned char *labels, const uint32_t *rgb,
                        int nx, int ny, int nz, const char *const *names,
                        size_t npieces, const char *title,
                        const unsigned char *part, const int (*shift)[3],
                        size_t nparts, unsigned char **png, size_t *len);

/*
 * How a puzzle goes together, a picture per step: step s shows the cells
 * of 'labels' (as draw_assembly()'s, 1 <= npieces <= 64) whose piece k has
 * bit k-1 set in shown[s], in place, isometric, under captions[s] (cut to
 * fit), four steps a row, all at one scale (the largest up to
 * draw_assembly()'s that keeps the picture within 1600 pixels, else
 * smaller). DRAW_ETOOBIG for more than DRAW_MAX_STEPS steps or a picture
 * past DRAW_MAX_SIDE. title may be NULL.
 */
#define DRAW_MAX_STEPS 256
int draw_steps(const unsigned char *labels, int nx, int ny, int nz,
               size_t npieces, const uint64_t *shown,
               const char *const *captions, size_t nsteps, const char *title,
               unsigned char **png, size_t *len);

#endif
