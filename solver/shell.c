/*
 * shell.c: six plates into a cube shell, by their borders.
 *
 * Face f lies on axis a = f / 2 at coordinate 0 (f even) or n-1 (f odd).
 * Its frame (i, j) runs along the other two axes b < c in increasing order:
 * frame cell (i, j) is the 3D cell with coordinate a fixed, b = i, c = j.
 * A plate is placed by one of the 8 flat moves (poly_flat_apply), which
 * are all of the square's symmetries, so handedness of frames never
 * matters.
 *
 * Because frame coordinates are 3D coordinates, each side of a face frame
 * lies along a cube edge with positions equal to the edge's free
 * coordinate. A placed plate is four n-bit side masks (bit p = cell p of
 * side: side 0 is j = 0, side 1 is i = n-1, side 2 is j = n-1, side 3 is
 * i = 0). Edge interiors go into 12 edge masks, the 8 corners into a byte;
 * a placement is legal when it sets no bit twice, and an edge (corner) is
 * checked full once all its faces are placed.
 */
#include "solver/shell.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "solver/poly.h"

#define SH_MAXN 64

struct orient {
	uint64_t side[4];
};

#define SH_MAXPLACE 72 /* 8 turns times 9 shifts */

struct ptype {
	unsigned count;      /* copies left to place */
	int nor;             /* distinct placements on a face */
	struct orient o[SH_MAXPLACE];
	int ncopies;         /* plates of this type */
	int copy[6];         /* those plates, in plate order */
	int nrep;            /* placements up to the face's 8 symmetries */
	int rep[SH_MAXPLACE];   /* one placement per orbit */
	int orbit[SH_MAXPLACE]; /* its orbit's size (8 / its stabiliser) */
};

struct shell {
	int n;
	uint64_t inner;      /* bits 1..n-2 */
	int edge[6][4];      /* edge of each side of each face */
	int corner[6][4];    /* corner at frame (0,0), (n-1,0), (0,n-1), (n-1,n-1) */
	uint64_t cdone[6];   /* corners complete after step d */
	uint16_t edone[6];   /* edges complete after step d */
	struct ptype type[6];
	int ntypes;
	int pin;             /* pinned type */
	/* search state */
	uint64_t ecover[12];
	unsigned ccover;
	int ctype[6], corient[6]; /* per step */
	int pin_orbit;       /* orbit size of the pinned placement in use */
	uint64_t weighted;   /* |G| * solutions found so far */
	uint64_t assemblies, nodes;
	const struct solve_opts *o;
	bool stop_nodes, stop_sol;
	const int *plate_piece; /* plate -> label - 1 for 'first' */
	unsigned char *first;   /* n^3 labels or NULL */
	unsigned char *lab;     /* n^3: an assembly's labels (type + 1) */
	unsigned char *reg;     /* n^3: the face each cell's plate lies on */
	bool want_first, oom;
};

static const int order[6] = {4, 0, 2, 1, 3, 5}; /* -Z -X -Y +X +Y +Z */

static void face_cell(int n, int f, int i, int j, int c[3])
{
	int a = f / 2, b = a == 0 ? 1 : 0, cc = a == 2 ? 1 : 2;
	c[a] = f % 2 ? n - 1 : 0;
	c[b] = i;
	c[cc] = j;
}

static int corner_id(int n, const int c[3])
{
	return (c[0] == n - 1) | (c[1] == n - 1) << 1 | (c[2] == n - 1) << 2;
}

/* The edge through two cells that differ in one coordinate only. */
static int edge_id(int n, const int p[3], const int q[3])
{
	int e = p[0] != q[0] ? 0 : p[1] != q[1] ? 1 : 2;
	int u = e == 0 ? 1 : 0, v = e == 2 ? 1 : 2;
	return e * 4 + (p[u] == n - 1) + 2 * (p[v] == n - 1);
}

static void setup_geometry(struct shell *s)
{
	int n = s->n;
	s->inner = (n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1) &
	           ~(uint64_t)1 & ~((uint64_t)1 << (n - 1));
	/* side k: two cells of it, at positions 1 and 2 of the side */
	for (int f = 0; f < 6; f++) {
		int p[3], q[3];
		face_cell(n, f, 1, 0, p); face_cell(n, f, 2, 0, q);
		s->edge[f][0] = edge_id(n, p, q);
		face_cell(n, f, n - 1, 1, p); face_cell(n, f, n - 1, 2, q);
		s->edge[f][1] = edge_id(n, p, q);
		face_cell(n, f, 1, n - 1, p); face_cell(n, f, 2, n - 1, q);
		s->edge[f][2] = edge_id(n, p, q);
		face_cell(n, f, 0, 1, p); face_cell(n, f, 0, 2, q);
		s->edge[f][3] = edge_id(n, p, q);
		int ij[4][2] = {{0, 0}, {n - 1, 0}, {0, n - 1}, {n - 1, n - 1}};
		for (int k = 0; k < 4; k++) {
			face_cell(n, f, ij[k][0], ij[k][1], p);
			s->corner[f][k] = corner_id(n, p);
		}
	}
	int ecount[12] = {0}, ccount[8] = {0};
	for (int d = 0; d < 6; d++) {
		int f = order[d];
		s->edone[d] = 0;
		s->cdone[d] = 0;
		for (int k = 0; k < 4; k++) {
			if (++ecount[s->edge[f][k]] == 2)
				s->edone[d] |= (uint16_t)(1u << s->edge[f][k]);
			if (++ccount[s->corner[f][k]] == 3)
				s->cdone[d] |= 1u << s->corner[f][k];
		}
	}
}

static void add_cell(struct orient *o, int n, int i, int j)
{
	if (j == 0) o->side[0] |= (uint64_t)1 << i;
	if (i == n - 1) o->side[1] |= (uint64_t)1 << j;
	if (j == n - 1) o->side[2] |= (uint64_t)1 << i;
	if (i == 0) o->side[3] |= (uint64_t)1 << j;
}

static int orient_cmp(const struct orient *a, const struct orient *b)
{
	for (int k = 0; k < 4; k++)
		if (a->side[k] != b->side[k])
			return a->side[k] < b->side[k] ? -1 : 1;
	return 0;
}

static int orient_find(const struct orient *o, int count, const struct orient *q)
{
	for (int k = 0; k < count; k++)
		if (orient_cmp(&o[k], q) == 0)
			return k;
	return -1;
}

/* Every distinct placement of plate 'pl' on a face: a turn t and a shift
 * that keep it on the face and cover the face's centre (which only this
 * plate can cover). A plate whose cells reach all four sides has exactly
 * its unshifted turns; one with an empty side may also sit one cell over.
 * Returns the count, filling out[]. */
static int placements(int n, const unsigned char *pl, struct orient *out)
{
	int x0 = n, x1 = -1, y0 = n, y1 = -1;
	bool centre = true;
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++) {
			bool in = x > 0 && y > 0 && x < n - 1 && y < n - 1;
			if (!pl[x + n * y]) {
				centre &= !in;
				continue;
			}
			if (x < x0) x0 = x;
			if (x > x1) x1 = x;
			if (y < y0) y0 = y;
			if (y > y1) y1 = y;
		}
	int k = 0;
	for (int t = 0; t < 8; t++) {
		int a0, b0, a1, b1;
		poly_flat_apply(t, n, n, x0, y0, &a0, &b0);
		poly_flat_apply(t, n, n, x1, y1, &a1, &b1);
		int ilo = a0 < a1 ? a0 : a1, ihi = a0 < a1 ? a1 : a0;
		int jlo = b0 < b1 ? b0 : b1, jhi = b0 < b1 ? b1 : b0;
		for (int dy = -jlo; dy <= n - 1 - jhi; dy++)
			for (int dx = -ilo; dx <= n - 1 - ihi; dx++) {
				bool shifted = dx || dy, ok = true;
				/* Unshifted, the stored centre lands on the face's. */
				if (shifted || !centre)
					for (int j = 1; j < n - 1 && ok; j++)
						for (int i = 1; i < n - 1 && ok; i++) {
							int x, y;
							poly_flat_apply(poly_flat_inverse(t), n, n,
							                i - dx, j - dy, &x, &y);
							ok = x >= 0 && y >= 0 && x < n && y < n &&
							     pl[x + n * y];
						}
				if (!ok)
					continue;
				struct orient o;
				memset(&o, 0, sizeof o);
				for (int y = 0; y < n; y++)
					for (int x = 0; x < n; x++) {
						/* unshifted, only border cells reach the border */
						if (!shifted && y > 0 && y < n - 1 && x > 0 &&
						    x < n - 1)
							x = n - 1;
						if (!pl[x + n * y])
							continue;
						int i, j;
						poly_flat_apply(t, n, n, x, y, &i, &j);
						add_cell(&o, n, i + dx, j + dy);
					}
				if (orient_find(out, k, &o) < 0)
					out[k++] = o;
			}
	}
	return k;
}

/* Orbits of a type's placements under the face's 8 symmetries. */
static void orbits(int n, struct ptype *ty)
{
	bool seen[SH_MAXPLACE] = {false};
	ty->nrep = 0;
	for (int k = 0; k < ty->nor; k++) {
		if (seen[k])
			continue;
		int size = 0;
		for (int g = 0; g < 8; g++) {
			struct orient img;
			memset(&img, 0, sizeof img);
			for (int q = 0; q < 4; q++)
				for (int p = 0; p < n; p++) {
					if (!(ty->o[k].side[q] >> p & 1))
						continue;
					int i = q == 0 ? p : q == 1 ? n - 1 : q == 2 ? p : 0;
					int j = q == 0 ? 0 : q == 1 ? p : q == 2 ? n - 1 : p;
					int a, b;
					poly_flat_apply(g, n, n, i, j, &a, &b);
					add_cell(&img, n, a, b);
				}
			int m = orient_find(ty->o, ty->nor, &img);
			if (m >= 0 && !seen[m]) {
				seen[m] = true;
				size++;
			}
		}
		ty->rep[ty->nrep] = k;
		ty->orbit[ty->nrep++] = size;
	}
}

/* Group the plates into types (congruent plates: one type). Two plates
 * are congruent exactly when they share a placement (the same cells on a
 * face), so comparing their least placements decides it. */
static void make_types(struct shell *s, const unsigned char *const plates[6])
{
	struct orient least[6];
	for (int p = 0; p < 6; p++) {
		struct ptype *ty = &s->type[s->ntypes];
		ty->nor = placements(s->n, plates[p], ty->o);
		int m = 0;
		for (int k = 1; k < ty->nor; k++)
			if (orient_cmp(&ty->o[k], &ty->o[m]) < 0)
				m = k;
		if (ty->nor)
			least[s->ntypes] = ty->o[m];
		int k = 0;
		while (k < s->ntypes &&
		       !(s->type[k].nor == ty->nor &&
		         (!ty->nor || orient_cmp(&least[k], &least[s->ntypes]) == 0)))
			k++;
		if (k < s->ntypes) {
			s->type[k].count++;
			s->type[k].copy[s->type[k].ncopies++] = p;
			continue;
		}
		ty->count = 1;
		ty->ncopies = 1;
		ty->copy[0] = p;
		s->ntypes++;
	}
}

/* Whether cell (i, j) of a face frame is covered by orientation o. */
static bool covers(int n, const struct orient *o, int i, int j)
{
	if (j == 0) return o->side[0] >> i & 1;
	if (j == n - 1) return o->side[2] >> i & 1;
	if (i == 0) return o->side[3] >> j & 1;
	if (i == n - 1) return o->side[1] >> j & 1;
	return true;
}

/* Label the cube with the current assembly: lab = type + 1, or
 * step_label[d] for the plate placed at step d when given; reg = face. */
static void label_cube(const struct shell *s, const unsigned char *step_label,
                       unsigned char *lab, unsigned char *reg)
{
	int n = s->n;
	for (int d = 0; d < 6; d++) {
		int f = order[d];
		unsigned char l = step_label ? step_label[d]
		                             : (unsigned char)(s->ctype[d] + 1);
		const struct orient *o = &s->type[s->ctype[d]].o[s->corient[d]];
		for (int j = 0; j < n; j++)
			for (int i = 0; i < n; i++) {
				if (!covers(n, o, i, j))
					continue;
				int c[3];
				face_cell(n, f, i, j, c);
				size_t at = (size_t)c[0] + (size_t)n * (c[1] + (size_t)n * c[2]);
				lab[at] = l;
				if (reg)
					reg[at] = (unsigned char)f;
			}
	}
}

/* |Stab_G(y)| for the current assembly y, testing the symmetries that keep
 * the pinned face -Z in place (the only candidates: see solve.c). */
static uint64_t stabiliser(struct shell *s)
{
	int n = s->n;
	size_t cells = (size_t)n * n * n;
	unsigned char *lab = s->lab, *reg = s->reg;
	memset(lab, 0, cells);
	label_cube(s, NULL, lab, reg);
	uint64_t stab = 1;
	for (int g = 1; g < POLY_NSYM; g++) {
		int e[3] = {0, 0, 1}, ge[3];
		poly_sym_apply(g, e, ge);
		if (ge[0] != 0 || ge[1] != 0 || ge[2] != 1)
			continue;
		/* A negated axis maps coordinate c to n-1-c. Decide by the
		 * symmetry's sign, not the image's: c = 0 gives -0 = 0. */
		int one[3] = {1, 1, 1}, sign[3];
		poly_sym_apply(g, one, sign);
		int map[6] = {-1, -1, -1, -1, -1, -1};
		bool ok = true;
		for (size_t at = 0; at < cells && ok; at++) {
			if (!lab[at])
				continue;
			int c[3] = {(int)(at % n), (int)(at / n % n), (int)(at / n / n)};
			int d[3];
			poly_sym_apply(g, c, d);
			for (int k = 0; k < 3; k++)
				if (sign[k] < 0)
					d[k] += n - 1;
			size_t bt = (size_t)d[0] + (size_t)n * (d[1] + (size_t)n * d[2]);
			if (lab[bt] != lab[at]) {
				ok = false;
				break;
			}
			if (map[reg[at]] < 0)
				map[reg[at]] = reg[bt];
			else if (map[reg[at]] != reg[bt])
				ok = false;
		}
		stab += ok;
	}
	return stab;
}

static void found(struct shell *s)
{
	uint64_t orbit = 6 * (uint64_t)s->pin_orbit;
	uint64_t stab = s->pin_orbit == 8 ? 1 : stabiliser(s);
	s->assemblies += orbit;
	s->weighted += orbit * stab;
	if ((s->want_first && !s->first) || s->o->on_cover) {
		/* Each plate placed is labelled with its own puzzle piece: the
		 * k-th plate of a type placed gets that type's k-th copy. */
		unsigned char step_label[6];
		for (int d = 0; d < 6; d++) {
			int t = s->ctype[d], k = 0;
			for (int e = 0; e < d; e++)
				k += s->ctype[e] == t;
			step_label[d] = (unsigned char)(s->plate_piece[s->type[t].copy[k]] + 1);
		}
		size_t cells = (size_t)s->n * s->n * s->n;
		memset(s->lab, 0, cells);
		label_cube(s, step_label, s->lab, NULL);
		if (s->want_first && !s->first) {
			s->first = malloc(cells);
			if (!s->first) {
				s->oom = true;
				return;
			}
			memcpy(s->first, s->lab, cells);
		}
		if (s->o->on_cover)
			s->o->on_cover(s->o->ctx, s->lab);
	}
	if (s->o->max_solutions && s->weighted / 48 >= s->o->max_solutions)
		s->stop_sol = true;
}

static void search(struct shell *s, int d)
{
	if (d == 6) {
		found(s);
		return;
	}
	int f = order[d];
	const int *edge = s->edge[f], *corner = s->corner[f];
	int n = s->n;
	for (int t = 0; t < s->ntypes; t++) {
		struct ptype *ty = &s->type[t];
		if (!ty->count)
			continue;
		/* The pinned type goes first, at one placement per orbit. */
		int nor = (d == 0) ? ty->nrep : ty->nor;
		for (int kk = 0; kk < nor; kk++) {
			int k = kk;
			if (d == 0) {
				k = ty->rep[kk];
				s->pin_orbit = ty->orbit[kk];
			}
			if (s->o->max_nodes && s->nodes >= s->o->max_nodes) {
				s->stop_nodes = true;
				return;
			}
			s->nodes++;
			const struct orient *o = &ty->o[k];
			uint64_t old[4];
			bool ok = true;
			for (int q = 0; q < 4 && ok; q++) {
				uint64_t m = o->side[q] & s->inner;
				old[q] = s->ecover[edge[q]];
				ok = !(old[q] & m);
			}
			if (!ok)
				continue;
			unsigned cm = (unsigned)((o->side[0] & 1) << corner[0] |
			              (o->side[0] >> (n - 1) & 1) << corner[1] |
			              (o->side[2] & 1) << corner[2] |
			              (o->side[2] >> (n - 1) & 1) << corner[3]);
			if (s->ccover & cm)
				continue;
			unsigned oldc = s->ccover;
			s->ccover |= cm;
			for (int q = 0; q < 4; q++)
				s->ecover[edge[q]] |= o->side[q] & s->inner;
			ok = (s->ccover & s->cdone[d]) == s->cdone[d];
			for (int q = 0; q < 4 && ok; q++)
				if (s->edone[d] >> edge[q] & 1)
					ok = s->ecover[edge[q]] == s->inner;
			if (ok) {
				ty->count--;
				s->ctype[d] = t;
				s->corient[d] = k;
				search(s, d + 1);
				ty->count++;
			}
			for (int q = 3; q >= 0; q--)
				s->ecover[edge[q]] = old[q];
			s->ccover = oldc;
			if (s->stop_nodes || s->stop_sol || s->oom)
				return;
		}
		if (d == 0)
			break; /* only the pinned type goes first */
	}
}

static void shell_free(struct shell *s)
{
	free(s->lab);
	free(s->reg);
	free(s);
}

static int run(int n, const unsigned char *const plates[6], const int *plate_piece,
               const struct solve_opts *o, struct solve_result *out)
{
	if (o->no_pin)
		return SHELL_NOT_SHELL; /* this path always pins a plate */
	struct shell *s = calloc(1, sizeof *s);
	size_t cells = (size_t)n * n * n;
	unsigned char *lab = malloc(cells), *reg = malloc(cells);
	if (!s || !lab || !reg) {
		free(s);
		free(lab);
		free(reg);
		return SOLVE_ENOMEM;
	}
	s->lab = lab;
	s->reg = reg;
	s->n = n;
	s->o = o;
	s->plate_piece = plate_piece;
	s->want_first = o->keep_first;
	setup_geometry(s);
	make_types(s, plates);
	/* Pin the single-copy plate with the most placements: its orbits are
	 * the largest (8 for a plate with no symmetry of its own). */
	s->pin = -1;
	for (int t = 0; t < s->ntypes; t++)
		if (s->type[t].count == 1 && s->type[t].nor > 0 &&
		    (s->pin < 0 || s->type[t].nor > s->type[s->pin].nor))
			s->pin = t;
	if (s->pin >= 0)
		orbits(n, &s->type[s->pin]);
	if (s->pin < 0) {
		shell_free(s);
		return SHELL_NOT_SHELL;
	}
	/* The pinned type is tried first at step 0. */
	struct ptype tmp = s->type[0];
	s->type[0] = s->type[s->pin];
	s->type[s->pin] = tmp;
	s->pin = 0;
	search(s, 0);
	if (s->oom) {
		free(s->first);
		shell_free(s);
		return SOLVE_ENOMEM;
	}
	/* Each orbit of assemblies adds exactly 48 to weighted once it is complete:
	 * anything else is a counting bug, never a result. */
	assert(s->stop_nodes || s->stop_sol || s->weighted % 48 == 0);
	struct solve_result r = {
		.solutions = s->weighted / 48,
		.assemblies = s->assemblies,
		.nodes = s->nodes,
		.complete = !s->stop_nodes && !s->stop_sol,
		.stop = s->stop_nodes ? SOLVE_MAX_NODES
		      : s->stop_sol ? SOLVE_MAX_SOLUTIONS : SOLVE_DONE,
		.group_order = 48,
		.mirror_closed = true,
		.fast_path = true,
		.first = s->first,
	};
	*out = r;
	shell_free(s);
	return SOLVE_OK;
}

/* Whether six n x n plates meet the conditions in shell.h: each holds a
 * full (n-2) x (n-2) block somewhere, so it can only lie on a face. */
static bool plates_ok(int n, const unsigned char *const plates[6])
{
	if (n < 4 || n > SH_MAXN)
		return false;
	for (int p = 0; p < 6; p++) {
		bool found = false;
		for (int oy = 0; oy <= 2 && !found; oy++)
			for (int ox = 0; ox <= 2 && !found; ox++) {
				bool full = true;
				for (int y = oy; y < oy + n - 2 && full; y++)
					for (int x = ox; x < ox + n - 2 && full; x++)
						full = plates[p][x + n * y];
				found = full;
			}
		if (!found)
			return false;
	}
	return true;
}

int shell_count(int n, const unsigned char *const plates[6],
                const struct solve_opts *o, struct solve_result *out)
{
	if (!plates_ok(n, plates))
		return SHELL_NOT_SHELL;
	int ident[6] = {0, 1, 2, 3, 4, 5};
	return run(n, plates, ident, o, out);
}

int shell_solve(const struct puzzle *p, const struct solve_opts *o,
                struct solve_result *out)
{
	const struct grid *g = &p->goal;
	int n = g->nx;
	if (n < 4 || n > SH_MAXN || g->ny != n || g->nz != n)
		return SHELL_NOT_SHELL;
	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				bool sh = x == 0 || y == 0 || z == 0 || x == n - 1 ||
				          y == n - 1 || z == n - 1;
				if (g->cells[grid_index(g, x, y, z)] != sh)
					return SHELL_NOT_SHELL;
			}
	unsigned total = 0;
	for (size_t i = 0; i < p->npieces; i++) {
		total += p->pieces[i].count;
		if (total > 6)
			return SHELL_NOT_SHELL;
	}
	if (total != 6)
		return SHELL_NOT_SHELL;
	unsigned char *buf = malloc((size_t)6 * n * n);
	if (!buf)
		return SOLVE_ENOMEM;
	const unsigned char *plates[6];
	int piece_of[6], k = 0;
	int rc = SOLVE_OK;
	for (size_t i = 0; i < p->npieces && rc == SOLVE_OK; i++) {
		const struct grid *s = &p->pieces[i].shape;
		/* a flat piece: one axis of length 1, the other two (u < v) at
		 * most n long, embedded in an n x n bitmap at the origin */
		int d[3] = {s->nx, s->ny, s->nz}, flat = -1;
		for (int a = 2; a >= 0; a--)
			if (d[a] == 1)
				flat = a;
		int u = flat == 0 ? 1 : 0, v = flat == 2 ? 1 : 2;
		if (flat < 0 || d[u] > n || d[v] > n) {
			rc = SHELL_NOT_SHELL;
			break;
		}
		unsigned char *pl = buf + (size_t)k * n * n;
		memset(pl, 0, (size_t)n * n);
		for (int b = 0; b < d[v]; b++)
			for (int a = 0; a < d[u]; a++) {
				int c[3] = {0, 0, 0};
				c[u] = a;
				c[v] = b;
				pl[a + n * b] = s->cells[grid_index(s, c[0], c[1], c[2])];
			}
		for (unsigned cpy = 0; cpy < p->pieces[i].count; cpy++) {
			plates[k] = pl;
			piece_of[k++] = (int)i;
		}
	}
	if (rc == SOLVE_OK) {
		rc = plates_ok(n, plates) ? run(n, plates, piece_of, o, out)
		                          : SHELL_NOT_SHELL;
	}
	free(buf);
	return rc;
}
