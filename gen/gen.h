/*
 * gen.h: the shell generator: split the hollow shell of an X*Y*Z box (a
 * cube when the sides are equal) into six flat pieces (DESIGN.md §1),
 * scramble them, and say how they go back.
 *
 * Cells. The box is dim = {X, Y, Z}, each side GEN_MIN_SIZE..GEN_MAX_SIZE.
 * Cell (x, y, z), 0 <= x < X etc., is stored at [x + X*(y + Y*z)]. The
 * shell is every cell with a coordinate on its minimum or maximum. The box
 * is held with the front (-Y) facing you and the top (+Z) up, so +X is to
 * your right and +Y away from you.
 *
 * The face frame. Each face is seen from OUTSIDE the box; (u, v), 0 <= u <
 * w, 0 <= v < h, is u to the right and v downward, exactly as the face
 * appears in this net (a cross; every face drawn as seen from outside once
 * folded):
 *
 *                 +------+
 *                 | top  |
 *          +------+------+------+------+
 *          | left |front |right | back |
 *          +------+------+------+------+
 *                 |bottom|
 *                 +------+
 *
 *     face          w x h    x        y        z
 *     front  -Y     X x Z    u        0        Z-1-v
 *     right  +X     Y x Z    X-1      u        Z-1-v
 *     back   +Y     X x Z    X-1-u    Y-1      Z-1-v
 *     left   -X     Y x Z    0        Y-1-u    Z-1-v
 *     top    +Z     X x Y    u        Y-1-v    Z-1     (row v = Y-1 meets front)
 *     bottom -Z     X x Y    u        v        0       (row v = 0 meets front)
 *
 * Drawings. A piece "as drawn" (puzzle.puz, preview.png, struct
 * gen_puzzle.piece) is a pw x ph bitmap [x + pw*y], x to the right, y
 * downward, as the rows of a .puz file show it. Orientation t, 0..7, takes
 * drawing cell (x, y) to face-frame cell (u, v) by the flat move t of
 * poly_flat_apply():
 *   1. if t & 4, turn the piece over, left to right (like a page):
 *      (x, y) -> (pw-1-x, y);
 *   2. then t & 3 times a quarter turn clockwise as seen from outside:
 *      (x, y) -> (ph-1-y, x), which swaps width and height.
 * So a piece on a w x h face is drawn w x h when t is even and h x w when
 * t is odd; t = 0 puts the drawing on the face as drawn, drawn side out. A
 * flat plate turned over is a rigid move, so all eight are legal.
 * Equivalently: the piece's face view at (u, v) equals the drawing at
 * (x, y).
 *
 * Generation (the stream order is part of the seed contract). From 'r':
 *   1. edge cells (on exactly two faces), visited x fastest, then y, then z
 *      (for a cube exactly the stream of the cube-only versions):
 *      rng_below(r, 2) picks one of the two faces, 0 = the one with the
 *      lower enum gen_face value;
 *   2. corner cells, same order: the distinct owners of its three
 *      neighbouring edge cells (one step inward along x, along y, along z),
 *      sorted by enum gen_face value, k of them; rng_below(r, k) picks one
 *      (always called, also when k = 1);
 *   3. face cells (on one face) go to their face, with no draw;
 *   4. the permutation: a[f] = f for f = 0..5; for i = 5 down to 1,
 *      j = rng_below(r, i + 1), swap a[i] and a[j]; piece i+1 goes on face
 *      a[i] (face[i] = a[i]);
 *   5. orient[i] = rng_below(r, 8) for i = 0..5, pieces 1..6 in order.
 *
 * Ownership: a struct gen_puzzle owns its buffers; gen_puzzle_clear() frees
 * them. Functions fill '*out' only on success. Nothing here prints, exits or
 * keeps global state; misuse (bad size, face, coordinates) is an assert.
 */
#ifndef CUBEGEN_GEN_H
#define CUBEGEN_GEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gen/rng.h"
#include "solver/puzzle.h"

#define GEN_MIN_SIZE 3
#define GEN_MAX_SIZE 64

enum gen_status {
	GEN_OK = 0,
	GEN_ENOMEM, /* out of memory */
	GEN_EIO,    /* a write failed */
	GEN_EINVAL, /* blk_check(): the goal or the ranges cannot make a puzzle */
};

enum gen_face { GEN_XMIN, GEN_XMAX, GEN_YMIN, GEN_YMAX, GEN_ZMIN, GEN_ZMAX }; /* -X +X -Y +Y -Z +Z */

#define GEN_NONE 255 /* owner of an inside cell */

struct gen_puzzle {
	int dim[3];              /* the box X, Y, Z, each GEN_MIN_SIZE..GEN_MAX_SIZE */
	unsigned char *owner;    /* X*Y*Z bytes, [x + X*(y + Y*z)]: face (enum gen_face) whose piece owns that shell cell; GEN_NONE inside. The true assembly. */
	unsigned char *piece[6]; /* piece i+1 "as drawn" (as written to puzzle.puz and printed): pw[i]*ph[i] bytes, [x + pw*y], 0/1 */
	int pw[6], ph[6];        /* its width and height as drawn */
	int face[6];             /* piece i+1 goes on face face[i] */
	int orient[6];           /* 0..7: how piece i+1 is turned from the drawing to its place (see above) */
};

/* A static string describing 'status' ("unknown error" for others). */
const char *gen_strerror(int status);

/* Draw one candidate for the box 'dim' from 'r': generation then
 * scrambling, in the stream order above. Each side in GEN_MIN_SIZE..
 * GEN_MAX_SIZE is asserted. On success '*out' is overwritten (clear a
 * previous puzzle first) and owned by the caller; on GEN_ENOMEM '*out' and
 * 'r' are untouched (everything is allocated before the first draw). */
int gen_draw(struct rng *r, const int dim[3], struct gen_puzzle *out);

/* A puzzle of the box 'dim' whose true assembly is 'owner' (X*Y*Z bytes,
 * copied; a valid assembly as rules 1-3 make them), its pieces scrambled
 * by rules 4 and 5 drawn from 'r', or with r NULL piece i+1 on face i as
 * drawn (orientation 0). '*out' as gen_draw(); GEN_ENOMEM draws nothing. */
int gen_from_owner(struct rng *r, const int dim[3], const unsigned char *owner,
                   struct gen_puzzle *out);

/* Whether the box is a cube (all sides equal). */
bool gen_is_cube(const int dim[3]);

/* The width and height of 'face' in the face frame (table above). */
void gen_face_dims(const int dim[3], int face, int *w, int *h);

/* Free what 'g' owns and zero it. Accepts a zeroed or cleared struct. */
void gen_puzzle_clear(struct gen_puzzle *g);

/* The .puz puzzle of 'g': name "cubegen XxYxZ shell, seed S", goal the
 * X*Y*Z shell, pieces "1".."6" in piece order, each pw x ph x 1 with cell
 * (x, y, 0) = piece[i][x + pw*y], count 1, size X Y Z, seed 'seed'. On
 * success '*out' belongs to the caller (puz_clear()); GEN_ENOMEM leaves it
 * untouched. */
int gen_to_puzzle(const struct gen_puzzle *g, uint64_t seed, struct puzzle *out);

/* The cell (x, y, z) at (u, v) of 'face' in the face frame (table above). */
void gen_face_cell(const int dim[3], int face, int u, int v, int *x, int *y,
                   int *z);

/* The face as the answer's net draws it: out[u + w*v] (w*h bytes, the
 * face's size) is the
 * piece number 1..6 that sits on 'face' where that piece owns the cell,
 * else 0 (a cell of this face owned by a neighbouring face's piece). */
void gen_face_view(const struct gen_puzzle *g, int face, unsigned char *out);

/* Where 'face' sits in the net drawn above, as {column, row} of a grid 4
 * faces wide and 3 high (left (0,1), front (1,1), right (2,1), back (3,1),
 * top (1,0), bottom (1,2)). */
void gen_net_pos(int face, int pos[2]);

/* The piece numbers of the whole box: out[x + X*(y + Y*z)] (X*Y*Z bytes)
 * is gen_cell_piece(g, x, y, z). */
void gen_piece_grid(const struct gen_puzzle *g, unsigned char *out);

/* The piece number 1..6 owning cell (x, y, z), 0 for an inside cell. */
int gen_cell_piece(const struct gen_puzzle *g, int x, int y, int z);

/* The body of solution.txt: how to hold the cube (or box), then for each
 * face in the order bottom, top, front, back, left, right (named with its
 * size for a box): which piece goes there, which side faces out and how
 * many quarter turns, and pictures of the piece as drawn and as seen in
 * place from outside. GEN_EIO when a write fails
 * (errno as stdio left it); flushes 'fp' so a full disk shows. Never
 * closes 'fp'. */
int gen_write_answer(FILE *fp, const struct gen_puzzle *g);

/* The k-th face (0..5) in solution.txt's order: bottom, top, front, back,
 * left, right. */
int gen_answer_face(int k);

/* solution.txt's line for 'face' ("bottom (-Z): piece 1. Turn it over
 * (left to right); turn it a half turn."), without its newline, into
 * buf (len bytes, truncated); returns the piece number on that face. */
int gen_answer_line(const struct gen_puzzle *g, int face, char *buf, size_t len);

/* Count the solutions of candidate 'g' with the solver: the shell fast
 * path when it applies, else the generic search on gen_to_puzzle(g). A
 * SOLVE_* status: SOLVE_ENOMEM when any allocation failed (the solver's
 * or the puzzle's), never a partial count; '*out' is filled only on
 * SOLVE_OK (solve_result_clear()). */
struct solve_opts;
struct solve_result;
int gen_count(const struct gen_puzzle *g, const struct solve_opts *o,
              struct solve_result *out);

/*
 * Difficulty (solver/difficulty.h) and the search for a puzzle.
 *
 * Bands. The box's sides are sorted (a 6 x 5 x 4 box is a 4 x 5 x 6 one).
 * Draw n random unique puzzles of it from rng_seed(GEN_CALIB_SEED)
 * exactly as gen_find() draws them, at most 50 n draws, and sort their
 * scores s[0] <= ... <= s[m-1]: easy_max = s[ceil(0.947 m) - 1] and
 * hard_min = s[ceil(0.985 m) - 1] (about 94.7 % of random unique puzzles
 * are easy, 3.8 % medium), levels chosen so that at 5 x 5 x 5 they fall at
 * 14 and 19 (docs/puzzles.md: the commercial sets, and why). n is
 * GEN_CALIB_CUBES for cubes of side 3..8, whose bands are a table in
 * find.c (`make bands` prints it), else GEN_CALIB_SAMPLES, or a fifth
 * of it when the shell has more than 600 cells. With no sample at all,
 * every score is easy.
 *
 * A plate puzzle is easy when d <= easy_max, medium when easy_max < d <
 * hard_min (both drawn at random until one lands there); hard when d >=
 * pro_min and expert when d >= expert_min, both found by gen_climb().
 * pro_min and expert_min scale the Pro sets' levels by the box's random
 * top: pro_min = GEN_PRO_HARD * hard_min / h5 and expert_min =
 * GEN_PRO_EXPERT * hard_min / h5, h5 being hard_min of 5 x 5 x 5, so they
 * are 51 (about the median of the six Happy Cube Pro sets) and 61.67
 * (Da Vinci's own score) there. Scores between hard_min and pro_min are above medium and
 * below hard: a random draw is not medium there, and a climb not done.
 * Block puzzles (blocks.h) use easy_max and hard_min only: their hard is
 * d >= hard_min (gen_band_of()).
 *
 * The climb. gen_climb() searches for a plate puzzle scoring at least a
 * target instead of waiting for one: from 'r', in this order,
 *   1. a start: draw candidates until GEN_CLIMB_STARTS of them are unique
 *      (each counts as an attempt): each is gen_draw()'s owner grid (all
 *      five rules drawn), then for each of the 12 edge runs (the edge
 *      cells between two corners, runs numbered by their first cell in
 *      x-fastest order, cells in that order) that is flat (GEN_CLIMB_FLAT
 *      cells or more, all one owner), its cell rng_below(length) goes to
 *      its other face; then the corners are repaired (below). The
 *      current state is the best-scoring unique one (the first on ties).
 *   2. moves, until GEN_CLIMB_STALL attempts in a row have not raised the
 *      best score of this start; then back to 1. A move copies the
 *      current state and draws kind = rng_below(6):
 *        0: edge cell rng_below(E) (E edge cells, x-fastest order) goes
 *           to its other face;
 *        1: corner c = rng_below(8) (x-fastest order) takes another of
 *           its options (rule 2): rng_below(m) of the m others, in face
 *           order; none: draw the move again;
 *        2: edge cells a = rng_below(E) and b = rng_below(E - 1), b + 1
 *           when b >= a, flip;
 *        3: run q = rng_below(12): all its cells flip;
 *        4: run q = rng_below(12): cells i = rng_below(length - 1) and
 *           i + 1 flip (a run of one cell: draw the move again);
 *        5: edge cell e = rng_below(E) flips, then each corner next to
 *           it (in corner order) takes option rng_below(k);
 *      then every corner (in order) not owned by one of its options takes
 *      option rng_below(k). A move that changes nothing or leaves a flat
 *      run is drawn again. The moved state is an attempt; it replaces the
 *      current one when it is unique and scores no less.
 *   3. the first unique state scoring at least the target ends the search;
 *      its pieces are then scrambled by rules 4 and 5 drawn from 'r'.
 */
#define GEN_CALIB_CUBES 10000
#define GEN_CALIB_SEED 0x6375626567656e31u /* "cubegen1" */
#define GEN_CALIB_SAMPLES 1000
#define GEN_PRO_HARD 51.0
#define GEN_PRO_EXPERT (2960.0 / 48) /* Da Vinci: 2960 dead ends / 48 assemblies */
#define GEN_CLIMB_STARTS 20
#define GEN_CLIMB_STALL 100
#define GEN_CLIMB_FLAT 3
#define GEN_CLIMB_ATTEMPTS 20000 /* generate's and batch's default budget */

enum gen_band { GEN_BAND_ANY, GEN_BAND_EASY, GEN_BAND_MEDIUM, GEN_BAND_HARD,
                GEN_BAND_EXPERT };

struct gen_bands {
	double easy_max;   /* scores up to this are easy */
	double hard_min;   /* random draws' top 1.5 %: medium is below it */
	int samples;       /* unique puzzles the bands come from */
	int in_band[4];    /* of those, how many fell in each band of
	                    * gen_band_of() (by enum gen_band; [GEN_BAND_ANY]
	                    * is 0): on big boxes most scores are 0 and "hard"
	                    * can be rare */
	double pro_min;    /* plate puzzles from this are hard */
	double expert_min; /* plate puzzles from this are expert */
};

struct diff_result;
/* The difficulty of candidate 'g': the plate walk when its plates meet
 * the condition, else the cell search on gen_to_puzzle(g), with no node
 * budget. A SOLVE_* status; '*out' written on SOLVE_OK. */
int gen_difficulty(const struct gen_puzzle *g, struct diff_result *out);

/* The bands of the box 'dim' as above: a table lookup for cubes of side
 * 3..8, else a calibration of about GEN_CALIB_SAMPLES unique candidates
 * (0.1 to a few seconds: make bench). GEN_OK or GEN_ENOMEM ('*out'
 * untouched). */
int gen_bands(const int dim[3], struct gen_bands *out);
/* The calibration itself with 'n' samples wanted (tests, tools/bands). */
int gen_calibrate(const int dim[3], int n, struct gen_bands *out);

/* The bands of the n scores s[] (sorted here) as above: easy_max and
 * hard_min at ceil(0.947 n) - 1 and ceil(0.985 n) - 1, and how many fell
 * in each. Shared by the block puzzles' bands (blocks.h). */
void gen_bands_of_scores(double *s, int n, struct gen_bands *out);

/* The band of score 'd' among random draws: easy, medium, or hard from
 * hard_min (block puzzles; gen_find()'s random bands). */
enum gen_band gen_band_of(const struct gen_bands *b, double d);
/* "easy", "medium", "hard", "expert" ("any" for GEN_BAND_ANY). */
const char *gen_band_name(enum gen_band band);

struct gen_found {
	bool found;        /* a unique puzzle in the band was drawn */
	uint64_t attempts; /* candidates drawn */
	double difficulty; /* the found puzzle's score */
	uint64_t nodes;    /* search nodes of the uniqueness checks of all
	                    * 'attempts' candidates (the work done) */
};

/* Draw candidates from 'r' (at most 'max_attempts') until one is unique
 * and, unless band is GEN_BAND_ANY, in 'band' of 'bands'; hard and expert
 * are gen_climb() to pro_min and expert_min. Every unique candidate is
 * scored. On GEN_OK '*info' is written and, when found, '*out' holds the
 * puzzle (caller clears it); GEN_ENOMEM writes neither. */
int gen_find(struct rng *r, const int dim[3], uint64_t max_attempts,
             enum gen_band band, const struct gen_bands *bands,
             struct gen_puzzle *out, struct gen_found *info);

/* The climb above to a score of at least 'target', at most 'max_attempts'
 * candidates. As gen_find(), and when nothing is found info->difficulty
 * is the best score reached (-1 when no candidate was unique). */
int gen_climb(struct rng *r, const int dim[3], uint64_t max_attempts,
              double target, struct gen_puzzle *out, struct gen_found *info);

/* The found puzzle 'g' proved unique again by the general search (exact
 * cover over every placement), which shares no code with the shell fast
 * path gen_find() used: both must agree before a puzzle is written or
 * reported. '*unique' is written on SOLVE_OK; SOLVE_ENOMEM otherwise.
 * About 0.5 ms at size 5 and 0.2 s at size 64. */
int gen_confirm(const struct gen_puzzle *g, bool *unique);

/* "left", "right", "front", "back", "bottom", "top" for GEN_XMIN..GEN_ZMAX. */
const char *gen_face_name(int face);

#endif
