/*
 * gen.c: split the shell into six plates, scramble them, explain the answer.
 *
 * Invariant of a drawn struct gen_puzzle: owner[] is the true assembly
 * (every shell cell owned by one of the faces it lies on, inside cells
 * GEN_NONE), and for each piece i, carrying drawing cell (x, y) through
 * orient_map(orient[i]) and gen_face_cell(face[i]) lands on a cell owned by
 * face[i] exactly when piece[i][x + n*y] is 1. orient_map() is the only
 * place that knows what an orientation means; the drawings, the face views
 * and the answer text all go through it.
 *
 * Workload: one candidate per attempt, up to 1000 attempts of an n <= 64
 * cube; a draw is two passes over n^3 bytes, negligible beside the solver.
 */
#include "gen/gen.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "solver/poly.h"

const char *gen_strerror(int status)
{
	switch (status) {
	case GEN_OK: return "success";
	case GEN_ENOMEM: return "out of memory";
	case GEN_EIO: return "write failed";
	case GEN_EINVAL: return "bad goal or ranges";
	default: return "unknown error";
	}
}

const char *gen_face_name(int face)
{
	static const char *const names[6] = {
		"left", "right", "front", "back", "bottom", "top",
	};

	assert(face >= 0 && face < 6);
	return names[face];
}

static const char *face_axis(int face)
{
	static const char *const axes[6] = { "-X", "+X", "-Y", "+Y", "-Z", "+Z" };

	return axes[face];
}

bool gen_is_cube(const int dim[3])
{
	return dim[0] == dim[1] && dim[1] == dim[2];
}

void gen_face_dims(const int dim[3], int face, int *w, int *h)
{
	assert(face >= 0 && face < 6);
	/* ±X: Y x Z, ±Y: X x Z, ±Z: X x Y (gen.h) */
	*w = dim[face < 2 ? 1 : 0];
	*h = dim[face < 4 ? 2 : 1];
}

void gen_face_cell(const int dim[3], int face, int u, int v, int *x, int *y,
                   int *z)
{
	int mx = dim[0] - 1, my = dim[1] - 1, mz = dim[2] - 1;
	int w, h;

	gen_face_dims(dim, face, &w, &h);
	assert(u >= 0 && u < w && v >= 0 && v < h);
	switch (face) {
	case GEN_YMIN: *x = u;      *y = 0;      *z = mz - v; break;
	case GEN_XMAX: *x = mx;     *y = u;      *z = mz - v; break;
	case GEN_YMAX: *x = mx - u; *y = my;     *z = mz - v; break;
	case GEN_XMIN: *x = 0;      *y = my - u; *z = mz - v; break;
	case GEN_ZMAX: *x = u;      *y = my - v; *z = mz;     break;
	case GEN_ZMIN: *x = u;      *y = v;      *z = 0;      break;
	default: assert(!"bad face"); *x = *y = *z = 0; break;
	}
}

/*
 * Orientation t takes drawing cell (x, y) of a pw x ph drawing to
 * face-frame cell (u, v): first, if t & 4, the piece is turned over left to
 * right, then it is given t & 3 quarter turns clockwise as seen from
 * outside (gen.h): exactly the flat move t of poly_flat_apply(), the one
 * encoding the solver uses too.
 */
static void orient_map(int pw, int ph, int t, int x, int y, int *u, int *v)
{
	poly_flat_apply(t, pw, ph, x, y, u, v);
}

static size_t cell_index(const int dim[3], int x, int y, int z)
{
	return (size_t)x + (size_t)dim[0] * ((size_t)y + (size_t)dim[1] * (size_t)z);
}

/*
 * The faces cell (x, y, z) lies on, in increasing enum gen_face order (the
 * x face, then y, then z: the enum is 2 * axis + side). Returns how many.
 */
static int cell_faces(const int dim[3], int x, int y, int z, int f[3])
{
	int c[3] = { x, y, z };
	int k = 0;

	for (int axis = 0; axis < 3; axis++) {
		if (c[axis] == 0)
			f[k++] = 2 * axis;
		else if (c[axis] == dim[axis] - 1)
			f[k++] = 2 * axis + 1;
	}
	return k;
}

/* Rules 1 and 2 (and GEN_NONE inside): one pass, x fastest. */
static void assign_faces_and_edges(struct rng *r, const int dim[3],
                                   unsigned char *owner)
{
	for (int z = 0; z < dim[2]; z++)
		for (int y = 0; y < dim[1]; y++)
			for (int x = 0; x < dim[0]; x++) {
				int f[3];
				int k = cell_faces(dim, x, y, z, f);
				unsigned char o = GEN_NONE;

				if (k == 1)
					o = (unsigned char)f[0];
				else if (k == 2)
					o = (unsigned char)f[rng_below(r, 2)];
				owner[cell_index(dim, x, y, z)] = o;
			}
}

/* Rule 3, after every edge is settled: one pass, x fastest. */
static void assign_corners(struct rng *r, const int dim[3], unsigned char *owner)
{
	for (int z = 0; z < dim[2]; z += dim[2] - 1)
		for (int y = 0; y < dim[1]; y += dim[1] - 1)
			for (int x = 0; x < dim[0]; x += dim[0] - 1) {
				int dx = x == 0 ? 1 : -1;
				int dy = y == 0 ? 1 : -1;
				int dz = z == 0 ? 1 : -1;
				unsigned char nb[3] = {
					owner[cell_index(dim, x + dx, y, z)],
					owner[cell_index(dim, x, y + dy, z)],
					owner[cell_index(dim, x, y, z + dz)],
				};
				unsigned char d[3];
				int k = 0;

				/* The distinct neighbour owners, ascending. */
				for (int f = 0; f < 6; f++)
					if (nb[0] == f || nb[1] == f || nb[2] == f)
						d[k++] = (unsigned char)f;
				owner[cell_index(dim, x, y, z)] =
					d[rng_below(r, (uint64_t)k)];
			}
}

/* Piece 'i' as drawn, from the owner grid through its face and orientation. */
static void draw_piece(const struct gen_puzzle *g, int i, unsigned char *out)
{
	int pw = g->pw[i], ph = g->ph[i];

	for (int y = 0; y < ph; y++)
		for (int x = 0; x < pw; x++) {
			int u, v, cx, cy, cz;

			orient_map(pw, ph, g->orient[i], x, y, &u, &v);
			gen_face_cell(g->dim, g->face[i], u, v, &cx, &cy, &cz);
			out[x + pw * y] =
				g->owner[cell_index(g->dim, cx, cy, cz)] == g->face[i];
		}
}

/* Allocate the owner grid and the six drawings of a box (buffer f sized
 * for face f), nothing drawn yet. */
static int alloc_puzzle(const int dim[3], struct gen_puzzle *g)
{
	size_t cells;

	for (int k = 0; k < 3; k++)
		assert(dim[k] >= GEN_MIN_SIZE && dim[k] <= GEN_MAX_SIZE);
	/* Sides <= 64, so X*Y*Z <= 2^18: no product below can overflow. */
	cells = (size_t)dim[0] * (size_t)dim[1] * (size_t)dim[2];
	memset(g, 0, sizeof *g);
	memcpy(g->dim, dim, sizeof g->dim);
	g->owner = malloc(cells);
	if (!g->owner)
		goto nomem;
	for (int f = 0; f < 6; f++) {
		int w, h;

		gen_face_dims(dim, f, &w, &h);
		g->piece[f] = malloc((size_t)w * (size_t)h);
		if (!g->piece[f])
			goto nomem;
	}
	return GEN_OK;

nomem:
	gen_puzzle_clear(g);
	return GEN_ENOMEM;
}

/* Rules 4 and 5 from 'r' (or, with r NULL, piece i+1 on face i as drawn),
 * then the drawings. The buffers are still those of alloc_puzzle(). */
static void scramble(struct rng *r, struct gen_puzzle *g)
{
	int a[6];

	for (int f = 0; f < 6; f++)
		a[f] = f;
	for (int i = 5; r && i >= 1; i--) {
		int j = (int)rng_below(r, (uint64_t)i + 1);
		int t = a[i];

		a[i] = a[j];
		a[j] = t;
	}
	for (int i = 0; i < 6; i++)
		g->face[i] = a[i];
	for (int i = 0; i < 6; i++)
		g->orient[i] = r ? (int)rng_below(r, 8) : 0;

	/* Buffer f was sized for face f; piece i lies on face a[i]. */
	unsigned char *buf[6];
	memcpy(buf, g->piece, sizeof buf);
	for (int i = 0; i < 6; i++) {
		int w, h;

		g->piece[i] = buf[g->face[i]];
		gen_face_dims(g->dim, g->face[i], &w, &h);
		g->pw[i] = g->orient[i] & 1 ? h : w;
		g->ph[i] = g->orient[i] & 1 ? w : h;
		draw_piece(g, i, g->piece[i]);
	}
}

int gen_draw(struct rng *r, const int dim[3], struct gen_puzzle *out)
{
	struct gen_puzzle g;

	/* Allocate everything before the first draw, so a failure leaves the
	 * stream where it was. A piece's drawing has its face's cell count
	 * whichever way it is turned. */
	if (alloc_puzzle(dim, &g) != GEN_OK)
		return GEN_ENOMEM;
	assign_faces_and_edges(r, dim, g.owner);
	assign_corners(r, dim, g.owner);
	scramble(r, &g);
	*out = g;
	return GEN_OK;
}

int gen_from_owner(struct rng *r, const int dim[3], const unsigned char *owner,
                   struct gen_puzzle *out)
{
	struct gen_puzzle g;

	if (alloc_puzzle(dim, &g) != GEN_OK)
		return GEN_ENOMEM;
	memcpy(g.owner, owner, (size_t)dim[0] * (size_t)dim[1] * (size_t)dim[2]);
	scramble(r, &g);
	*out = g;
	return GEN_OK;
}

void gen_puzzle_clear(struct gen_puzzle *g)
{
	free(g->owner);
	for (int i = 0; i < 6; i++)
		free(g->piece[i]);
	memset(g, 0, sizeof *g);
}

/* The piece number (1..6) that goes on 'face'. */
static int piece_on(const struct gen_puzzle *g, int face)
{
	for (int i = 0; i < 6; i++)
		if (g->face[i] == face)
			return i + 1;
	assert(!"face[] is not a permutation");
	return 0;
}

void gen_face_view(const struct gen_puzzle *g, int face, unsigned char *out)
{
	int p = piece_on(g, face);
	int w, h;

	gen_face_dims(g->dim, face, &w, &h);
	for (int v = 0; v < h; v++)
		for (int u = 0; u < w; u++) {
			int x, y, z;

			gen_face_cell(g->dim, face, u, v, &x, &y, &z);
			out[u + w * v] = g->owner[cell_index(g->dim, x, y, z)] == face ?
				(unsigned char)p : 0;
		}
}

int gen_cell_piece(const struct gen_puzzle *g, int x, int y, int z)
{
	unsigned char o;

	assert(x >= 0 && x < g->dim[0] && y >= 0 && y < g->dim[1] &&
	       z >= 0 && z < g->dim[2]);
	o = g->owner[cell_index(g->dim, x, y, z)];
	return o == GEN_NONE ? 0 : piece_on(g, o);
}

int gen_to_puzzle(const struct gen_puzzle *g, uint64_t seed, struct puzzle *out)
{
	struct puzzle p;
	const int *dim = g->dim;
	int made = 0; /* piece grids initialised so far */

	memset(&p, 0, sizeof p);
	snprintf(p.name, sizeof p.name, "cubegen %dx%dx%d shell, seed %" PRIu64,
	         dim[0], dim[1], dim[2], seed);
	if (puz_grid_init(&p.goal, dim[0], dim[1], dim[2]) != PUZ_OK)
		return GEN_ENOMEM;
	for (int z = 0; z < dim[2]; z++)
		for (int y = 0; y < dim[1]; y++)
			for (int x = 0; x < dim[0]; x++)
				p.goal.cells[puz_grid_index(&p.goal, x, y, z)] =
					g->owner[cell_index(dim, x, y, z)] != GEN_NONE;

	p.pieces = calloc(6, sizeof *p.pieces);
	if (!p.pieces)
		goto nomem;
	for (; made < 6; made++) {
		struct puz_piece *pc = &p.pieces[made];

		snprintf(pc->name, sizeof pc->name, "%d", made + 1);
		pc->count = 1;
		if (puz_grid_init(&pc->shape, g->pw[made], g->ph[made], 1) != PUZ_OK)
			goto nomem;
		memcpy(pc->shape.cells, g->piece[made],
		       (size_t)g->pw[made] * (size_t)g->ph[made]);
	}
	p.npieces = 6;
	memcpy(p.size, dim, sizeof p.size);
	p.has_seed = true;
	p.seed = seed;
	*out = p;
	return GEN_OK;

nomem:
	for (int i = 0; i < made; i++)
		puz_grid_clear(&p.pieces[i].shape);
	free(p.pieces);
	puz_grid_clear(&p.goal);
	return GEN_ENOMEM;
}

/* Piece 'i' as it sits on its face, seen from outside: the drawing carried
 * through orient_map(), so the answer text follows from the one definition.
 * 'out' is the face's w x h. */
static void place_piece(const struct gen_puzzle *g, int i, unsigned char *out)
{
	int w, h;

	gen_face_dims(g->dim, g->face[i], &w, &h);
	for (int y = 0; y < g->ph[i]; y++)
		for (int x = 0; x < g->pw[i]; x++) {
			int u, v;

			orient_map(g->pw[i], g->ph[i], g->orient[i], x, y, &u, &v);
			out[u + w * v] = g->piece[i][x + g->pw[i] * y];
		}
}

static const char answer_intro[] =
	"How to put the cube together\n"
	"\n"
	"Hold the cube with the front towards you and the top up. Each face\n"
	"below is seen from outside, looking straight at it:\n"
	"  front, right, back, left: turn the whole cube about its upright axis\n"
	"    until that face is towards you, the top still up;\n"
	"  top: tip the cube towards you until the top faces you (the front\n"
	"    edge is then at the bottom);\n"
	"  bottom: tip the cube away from you until the bottom faces you (the\n"
	"    front edge is then at the top).\n"
	"Start from each piece as it is drawn (puzzle.puz, preview.png), the\n"
	"drawn side towards you. \"Turn it over\" means flip it left to right,\n"
	"like turning a page, so that its other side is towards you. Turns are\n"
	"clockwise or anticlockwise as you see them. Then press it onto the face\n"
	"with the side that is towards you facing out.\n"
	"In the pictures '#' is a cell of the piece; '.' in the \"in place\"\n"
	"picture is a cell of that face that a neighbouring piece covers.\n";

/* The intro with "cube" said as "box" for a box: one text for both. */
static int write_intro(FILE *fp, bool cube)
{
	const char *s = answer_intro;

	for (const char *c; (c = strstr(s, "cube")) != NULL; s = c + 4)
		if (fprintf(fp, "%.*s%s", (int)(c - s), s, cube ? "cube" : "box") < 0)
			return GEN_EIO;
	return fputs(s, fp) == EOF ? GEN_EIO : GEN_OK;
}

/* One row of a w-wide picture, '#' for a cell: 'row' NULL for none. */
static int write_row(FILE *fp, const unsigned char *row, int w)
{
	for (int x = 0; x < w && row; x++)
		if (fputc(row[x] ? '#' : '.', fp) == EOF)
			return GEN_EIO;
	return GEN_OK;
}

int gen_answer_face(int k)
{
	static const int order[6] = {
		GEN_ZMIN, GEN_ZMAX, GEN_YMIN, GEN_YMAX, GEN_XMIN, GEN_XMAX,
	};
	assert(k >= 0 && k < 6);
	return order[k];
}

int gen_answer_line(const struct gen_puzzle *g, int face, char *buf, size_t len)
{
	static const char *const turns[4] = {
		"do not turn it",
		"turn it a quarter turn clockwise",
		"turn it a half turn",
		"turn it a quarter turn anticlockwise",
	};
	int p = piece_on(g, face);
	int t = g->orient[p - 1], w, h;
	char size[32] = "";

	gen_face_dims(g->dim, face, &w, &h);
	/* A box's faces differ: name each by its size as seen from outside. */
	if (!gen_is_cube(g->dim))
		snprintf(size, sizeof size, ", %dx%d", w, h);
	snprintf(buf, len, "%s (%s%s): piece %d. %s; %s.", gen_face_name(face),
	         face_axis(face), size, p,
	         t & 4 ? "Turn it over (left to right)" : "Keep the drawn side out",
	         turns[t & 3]);
	return p;
}

static int write_face(FILE *fp, const struct gen_puzzle *g, int face,
                      unsigned char *placed)
{
	char line[200];
	int p = gen_answer_line(g, face, line, sizeof line);
	const unsigned char *drawn = g->piece[p - 1];
	int pw = g->pw[p - 1], ph = g->ph[p - 1], w, h;

	gen_face_dims(g->dim, face, &w, &h);
	place_piece(g, p - 1, placed);
	if (fprintf(fp, "\n%s\n", line) < 0)
		return GEN_EIO;
	if (fprintf(fp, "  %-*s   in place\n", pw < 8 ? 8 : pw, "as drawn") < 0)
		return GEN_EIO;
	for (int y = 0; y < ph || y < h; y++) {
		if (fputs("  ", fp) == EOF ||
		    write_row(fp, y < ph ? drawn + (size_t)pw * y : NULL, pw) != GEN_OK)
			return GEN_EIO;
		if (y < h) {
			if (fprintf(fp, "%*s   ", (y < ph ? 0 : pw) + (pw < 8 ? 8 - pw : 0),
			            "") < 0 ||
			    write_row(fp, placed + (size_t)w * y, w) != GEN_OK)
				return GEN_EIO;
		}
		if (fputc('\n', fp) == EOF)
			return GEN_EIO;
	}
	return GEN_OK;
}

int gen_write_answer(FILE *fp, const struct gen_puzzle *g)
{
	unsigned char placed[GEN_MAX_SIZE * GEN_MAX_SIZE];
	int st;

	for (int k = 0; k < 3; k++)
		assert(g->dim[k] >= GEN_MIN_SIZE && g->dim[k] <= GEN_MAX_SIZE);
	if (write_intro(fp, gen_is_cube(g->dim)) != GEN_OK)
		return GEN_EIO;
	for (int k = 0; k < 6; k++) {
		st = write_face(fp, g, gen_answer_face(k), placed);
		if (st != GEN_OK)
			return st;
	}
	/* A buffered stream reports a full disk only when flushed. */
	if (fflush(fp) != 0 || ferror(fp))
		return GEN_EIO;
	return GEN_OK;
}

void gen_net_pos(int face, int pos[2])
{
	static const int net[6][2] = {
		[GEN_XMIN] = {0, 1}, [GEN_XMAX] = {2, 1}, [GEN_YMIN] = {1, 1},
		[GEN_YMAX] = {3, 1}, [GEN_ZMIN] = {1, 2}, [GEN_ZMAX] = {1, 0},
	};
	assert(face >= 0 && face < 6);
	pos[0] = net[face][0];
	pos[1] = net[face][1];
}

void gen_piece_grid(const struct gen_puzzle *g, unsigned char *out)
{
	for (int z = 0; z < g->dim[2]; z++)
		for (int y = 0; y < g->dim[1]; y++)
			for (int x = 0; x < g->dim[0]; x++)
				out[cell_index(g->dim, x, y, z)] =
					(unsigned char)gen_cell_piece(g, x, y, z);
}
