/*
 * test_prove.c: the uniqueness prover of the block generator
 * (solver/prove.h). On hundreds of random dissections of random goals its
 * counts equal the brute force's (tests/brute.c, which shares no code with
 * it) and dancing links' (the general solver, which shares no set-up with
 * it), on each of its three searches (the 64-cell and wide bitboards,
 * the cell-by-cell search beyond); one prover asked again and again, its
 * placements kept between calls, answers as a new one does; proofs of
 * uniqueness long enough to use the dissection as a known filling answer
 * as the general solver does; the cap and the node budget stop it and say
 * so; bad input is refused; and every allocation failure is reported,
 * changes no answer and leaks nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "failmalloc.h"
#include "solver/poly.h"
#include "solver/prove.h"
#include "solver/solve.h"
#include "tests/brute.h"
#include "tests/testpart.h"
#include "tests/testrand.h"

/* A random goal: a box, or (every other time) a random face-connected
 * part of one of at least 'min' cells. */
static void random_goal(uint64_t *s, const int box[3], int min, struct grid *g)
{
	assert_int_equal(puz_grid_init(g, box[0], box[1], box[2]), PUZ_OK);
	int total = box[0] * box[1] * box[2];
	if (rnd(s, 2) == 0 || min >= total) {
		memset(g->cells, PUZ_CELL, (size_t)total);
		return;
	}
	int want = min + rnd(s, total - min + 1), have = 1;
	g->cells[rnd(s, total)] = PUZ_CELL;
	while (have < want) {
		int c = rnd(s, total);
		if (g->cells[c])
			continue;
		int p[3] = {c % box[0], c / box[0] % box[1], c / (box[0] * box[1])};
		for (int d = 0; d < 6; d++) {
			int q[3] = {p[0], p[1], p[2]};
			q[d / 2] += d % 2 ? -1 : 1;
			if (q[d / 2] < 0 || q[d / 2] >= box[d / 2])
				continue;
			if (g->cells[puz_grid_index(g, q[0], q[1], q[2])]) {
				g->cells[c] = PUZ_CELL;
				have++;
				break;
			}
		}
	}
}

/* The goal's cells in grid order: their grid indexes, how many. */
static int goal_cells(const struct grid *g, int *at)
{
	int n = 0, total = g->nx * g->ny * g->nz;
	for (int i = 0; i < total; i++)
		if (g->cells[i])
			at[n++] = i;
	return n;
}

/* A cut's start: the goal's cells numbered (at[] and num[]: cell ->
 * grid index -> cell, -1 off the goal), every cell free (piece -1) but
 * k random ones, the seeds of pieces 0..k-1. The goal's cells, how
 * many. */
static int seed_cut(uint64_t *s, const struct grid *g, int k, int *at,
                    int *num, int *piece)
{
	int n = goal_cells(g, at);
	assert_true(k <= n && k <= PROVE_MAX_PIECES);
	for (int i = 0; i < g->nx * g->ny * g->nz; i++)
		num[i] = -1;
	for (int c = 0; c < n; c++) {
		num[at[c]] = c;
		piece[c] = -1;
	}
	for (int i = 0; i < k; i++) {
		int c;
		do
			c = rnd(s, n);
		while (piece[c] >= 0);
		piece[c] = i;
	}
	return n;
}

/* The piece on the goal cell next to cell c in direction d (0..5): -1
 * when free, -2 when off the goal. */
static int piece_next(const struct grid *g, const int *at, const int *num,
                      const int *piece, int c, int d)
{
	int i = at[c];
	int q[3] = {i % g->nx, i / g->nx % g->ny, i / (g->nx * g->ny)};
	int lim[3] = {g->nx, g->ny, g->nz};
	q[d / 2] += d % 2 ? -1 : 1;
	if (q[d / 2] < 0 || q[d / 2] >= lim[d / 2])
		return -2;
	int e = num[puz_grid_index(g, q[0], q[1], q[2])];
	return e >= 0 ? piece[e] : -2;
}

/* Cut the goal into k face-connected pieces grown from random cells:
 * piece[c] for goal cell c (numbered in grid order). */
static void random_cut(uint64_t *s, const struct grid *g, int k, int *piece)
{
	int at[PROVE_MAX_CELLS], num[4096];
	int n = seed_cut(s, g, k, at, num, piece);
	for (int left = n - k; left > 0;) {
		int c = rnd(s, n);
		if (piece[c] >= 0)
			continue;
		int cand[6], nc = 0;
		for (int d = 0; d < 6; d++) {
			int i = piece_next(g, at, num, piece, c, d);
			if (i >= 0)
				cand[nc++] = i;
		}
		if (nc) {
			piece[c] = cand[rnd(s, nc)];
			left--;
		}
	}
}

/* Cut the goal into k face-connected pieces of nearly equal sizes: grown
 * from random cells, the smallest piece that can grow taking a random
 * free neighbour each time (as the block generator's pieces are, the
 * cuts most often unique). */
static void balanced_cut(uint64_t *s, const struct grid *g, int k, int *piece)
{
	int at[PROVE_MAX_CELLS], num[4096], size[PROVE_MAX_PIECES];
	int n = seed_cut(s, g, k, at, num, piece);
	for (int i = 0; i < k; i++)
		size[i] = 1;
	bool stuck[PROVE_MAX_PIECES] = {false};
	for (int left = n - k; left > 0;) {
		int i = -1;
		for (int j = 0; j < k; j++)
			if (!stuck[j] && (i < 0 || size[j] < size[i]))
				i = j;
		assert_true(i >= 0);
		int cand[PROVE_MAX_CELLS], nc = 0;
		for (int c = 0; c < n; c++) {
			bool next = false;
			for (int d = 0; d < 6 && piece[c] < 0 && !next; d++)
				next = piece_next(g, at, num, piece, c, d) == i;
			if (next)
				cand[nc++] = c;
		}
		if (!nc) {
			stuck[i] = true;
			continue;
		}
		piece[cand[rnd(s, nc)]] = i;
		size[i]++;
		left--;
		for (int j = 0; j < k; j++)
			stuck[j] = false;
	}
}

/* The dissection as a puzzle: piece i is its cells as they lie, count 1
 * each (congruent pieces are separate entries: one type to the
 * solvers). */
static void as_puzzle(const struct grid *g, const int *piece, int k,
                      struct puzzle *p)
{
	memset(p, 0, sizeof *p);
	assert_int_equal(puz_grid_init(&p->goal, g->nx, g->ny, g->nz), PUZ_OK);
	memcpy(p->goal.cells, g->cells, (size_t)g->nx * g->ny * g->nz);
	p->pieces = calloc((size_t)k, sizeof *p->pieces);
	assert_non_null(p->pieces);
	p->npieces = (size_t)k;
	int at[PROVE_MAX_CELLS];
	int n = goal_cells(g, at);
	for (int i = 0; i < k; i++) {
		struct puz_piece *pc = &p->pieces[i];
		pc->name[0] = (char)('A' + i % 26);
		pc->count = 1;
		assert_int_equal(puz_grid_init(&pc->shape, g->nx, g->ny, g->nz),
		                 PUZ_OK);
		for (int c = 0; c < n; c++)
			if (piece[c] == i)
				pc->shape.cells[at[c]] = PUZ_CELL;
	}
}

/* Dancing links' count of the dissection, every solution. */
static uint64_t dlx_count(const struct grid *g, const int *piece, int k)
{
	struct puzzle p;
	as_puzzle(g, piece, k, &p);
	struct solve_opts o = {.engine = SOLVE_DLX};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	assert_true(r.complete);
	uint64_t n = r.solutions;
	solve_result_clear(&r);
	puz_clear(&p);
	return n;
}

static uint64_t brute_sols(const struct grid *g, const int *piece, int k)
{
	struct puzzle p;
	as_puzzle(g, piece, k, &p);
	struct brute_result r;
	assert_int_equal(brute_count(&p, &r), 0);
	puz_clear(&p);
	return r.solutions;
}

/* The prover's full count; with 'fresh', from a prover of its own. */
static uint64_t prove_all(prove *pv, const struct grid *g, const int *piece,
                          int k, bool fresh)
{
	prove *own = fresh ? prove_new(g) : NULL;
	struct prove_result r;
	assert_int_equal(prove_count(fresh ? own : pv, piece, k, PROVE_MAX_CAP, 0,
	                             &r),
	                 PROVE_OK);
	prove_free(own);
	assert_true(r.complete);
	assert_true(r.solutions >= 1); /* the dissection itself */
	return r.solutions;
}

/* The prover's count of the dissection, capped at 64. */
static uint64_t prove_all_capped(prove *pv, const struct grid *g,
                                 const int *piece, int k)
{
	(void)g;
	struct prove_result r;
	assert_int_equal(prove_count(pv, piece, k, 64, 0, &r), PROVE_OK);
	assert_true(r.complete || r.solutions == 64);
	return r.solutions;
}

/* Small goals: the brute force's counts, mirror-closed sets included
 * (pieces of up to 3 cells are their own mirror images). */
static void test_prove_brute(void **state)
{
	(void)state;
	uint64_t s = 11;
	int several = 0, closed = 0;
	for (int t = 0; t < 150; t++) {
		const int boxes[][3] = {{2, 2, 3}, {2, 3, 3}, {3, 3, 3}, {2, 2, 6},
		                        {2, 3, 4}, {1, 4, 5}, {2, 4, 4}};
		/* every third goal a small box cut into pieces of about three
		 * cells: mirror images of themselves, so the sets are
		 * mirror-closed and the goal's mirror symmetries count */
		bool small = t % 3 == 0;
		const int *box = boxes[small ? rnd(&s, 2) : rnd(&s, 7)];
		struct grid g;
		random_goal(&s, box, small ? 100 : 8, &g);
		int at[PROVE_MAX_CELLS];
		int n = goal_cells(&g, at);
		prove *pv = prove_new(&g);
		assert_non_null(pv);
		assert_int_equal(prove_cells(pv), n);
		/* several dissections on one prover: its kept placements */
		for (int d = 0; d < 4; d++) {
			int k = small ? n / 3 - rnd(&s, 2)
			              : 2 + rnd(&s, n / 3 < 6 ? n / 3 - 1 : 5);
			int piece[PROVE_MAX_CELLS];
			random_cut(&s, &g, k, piece);
			uint64_t want = brute_sols(&g, piece, k);
			assert_int_equal(prove_all(pv, &g, piece, k, false), want);
			assert_int_equal(prove_all(NULL, &g, piece, k, true), want);
			several += want > 1;
			struct puzzle p;
			as_puzzle(&g, piece, k, &p);
			struct brute_result br;
			assert_int_equal(brute_count(&p, &br), 0);
			closed += br.mirror_closed;
			puz_clear(&p);
			/* the cap of two: what the generator asks */
			struct prove_result r;
			assert_int_equal(prove_count(pv, piece, k, 2, 0, &r), PROVE_OK);
			assert_int_equal(r.solutions, want < 2 ? want : 2);
			assert_int_equal(r.complete, want < 2);
		}
		prove_free(pv);
		puz_grid_clear(&g);
	}
	/* the cases the comparison is about did occur */
	assert_true(several > 100);
	assert_true(closed > 50);
}

/* Cut the goal into pieces of exactly 'size' cells, each grown from the
 * first free cell: how many, or 0 when a piece could not grow. */
static int cut_sizes(uint64_t *s, const struct grid *g, int size, int *piece)
{
	int at[PROVE_MAX_CELLS];
	int n = goal_cells(g, at), k = 0;
	for (int c = 0; c < n; c++)
		piece[c] = -1;
	for (int first = 0; first < n; first++) {
		if (piece[first] >= 0)
			continue;
		piece[first] = k;
		for (int got = 1; got < size; got++) {
			int front[PROVE_MAX_CELLS], f = 0;
			for (int c = 0; c < n; c++) {
				if (piece[c] >= 0)
					continue;
				for (int e = 0; e < n; e++) {
					int d = abs(at[c] % g->nx - at[e] % g->nx) +
					        abs(at[c] / g->nx % g->ny - at[e] / g->nx % g->ny) +
					        abs(at[c] / (g->nx * g->ny) - at[e] / (g->nx * g->ny));
					if (d == 1 && piece[e] == k) {
						front[f++] = c;
						break;
					}
				}
			}
			if (!f)
				return 0;
			piece[front[rnd(s, f)]] = k;
		}
		k++;
	}
	return k;
}

/* Whether piece i of the dissection is not its own mirror image. */
static bool chiral(const struct grid *g, const int *piece, int i)
{
	struct puzzle p;
	as_puzzle(g, piece, i + 1, &p);
	struct shape sh, m, a, b;
	assert_int_equal(poly_from_grid(&p.pieces[i].shape, &sh), POLY_OK);
	assert_int_equal(poly_transform(&sh, 1, &m), POLY_OK);
	assert_int_equal(poly_canonical(&sh, &a), POLY_OK);
	assert_int_equal(poly_canonical(&m, &b), POLY_OK);
	bool c = !poly_equal(&a, &b);
	poly_shape_clear(&sh);
	poly_shape_clear(&m);
	poly_shape_clear(&a);
	poly_shape_clear(&b);
	puz_clear(&p);
	return c;
}

/* Mirror-closed sets with a piece and its mirror image, one each: the
 * pinned piece may then be turned into the other by the goal's mirror
 * symmetries, and a class can be found twice. */
static void test_prove_mirror_pairs(void **state)
{
	(void)state;
	uint64_t s = 21;
	int cases = 0;
	for (int t = 0; t < 4000 && cases < 40; t++) {
		const int boxes[][3] = {{2, 2, 4}, {2, 2, 6}, {2, 3, 4}, {2, 4, 4}};
		struct grid g;
		random_goal(&s, boxes[rnd(&s, 4)], 100, &g);
		int at[PROVE_MAX_CELLS];
		int piece[PROVE_MAX_CELLS];
		(void)goal_cells(&g, at);
		int k = cut_sizes(&s, &g, 4, piece);
		bool fours = k > 0, pair = false;
		for (int i = 0; i < k && !pair; i++)
			pair = chiral(&g, piece, i);
		if (fours && pair) {
			struct puzzle p;
			as_puzzle(&g, piece, k, &p);
			struct brute_result br;
			assert_int_equal(brute_count(&p, &br), 0);
			if (br.mirror_closed) {
				cases++;
				assert_int_equal(prove_all(NULL, &g, piece, k, true),
				                 br.solutions);
			}
			puz_clear(&p);
		}
		puz_grid_clear(&g);
	}
	assert_true(cases >= 40);
}

/* Each search against dancing links: goals of at most 64 cells, of 65 to
 * 128, and beyond. */
static void test_prove_engines(void **state)
{
	(void)state;
	uint64_t s = 5;
	const struct {
		int box[3], min, kmin, kmax, tries;
	} cases[] = {
		{{4, 4, 4}, 40, 6, 9, 30},   /* bb.h */
		{{3, 4, 5}, 40, 5, 8, 30},
		{{4, 4, 6}, 70, 4, 6, 20},   /* bbw.h */
		{{5, 5, 5}, 90, 4, 5, 12},
		{{4, 5, 8}, 140, 3, 4, 8},  /* cell by cell, four words */
		{{3, 3, 30}, 200, 3, 3, 4}, /* eight words */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (int t = 0; t < cases[i].tries; t++) {
			struct grid g;
			random_goal(&s, cases[i].box, cases[i].min, &g);
			int k = cases[i].kmin + rnd(&s, cases[i].kmax - cases[i].kmin + 1);
			int piece[PROVE_MAX_CELLS];
			random_cut(&s, &g, k, piece);
			assert_int_equal(prove_all(NULL, &g, piece, k, true),
			                 dlx_count(&g, piece, k));
			puz_grid_clear(&g);
		}
}

/* The general solver's answer (solve.h: its own engines and set-up) to
 * "one filling, or more?": the count, or 2 for two or more. */
static uint64_t solver_two(const struct grid *g, const int *piece, int k)
{
	struct puzzle p;
	as_puzzle(g, piece, k, &p);
	struct solve_opts o = {.max_solutions = 2};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	uint64_t n = r.solutions;
	assert_true(r.complete || n >= 2);
	solve_result_clear(&r);
	puz_clear(&p);
	return n < 2 ? n : 2;
}

/* The puzzle of pieces given by goal cells (cells[i][0..size[i]), each
 * as it lies; they may overlap): count 1 each. */
static void cells_puzzle(const struct grid *g, const int *const *cells,
                         const int *size, int k, struct puzzle *p)
{
	memset(p, 0, sizeof *p);
	assert_int_equal(puz_grid_init(&p->goal, g->nx, g->ny, g->nz), PUZ_OK);
	memcpy(p->goal.cells, g->cells, (size_t)g->nx * g->ny * g->nz);
	p->pieces = calloc((size_t)k, sizeof *p->pieces);
	assert_non_null(p->pieces);
	p->npieces = (size_t)k;
	int at[PROVE_MAX_CELLS];
	goal_cells(g, at);
	for (int i = 0; i < k; i++) {
		struct puz_piece *pc = &p->pieces[i];
		pc->name[0] = (char)('A' + i % 26);
		pc->count = 1;
		assert_int_equal(puz_grid_init(&pc->shape, g->nx, g->ny, g->nz),
		                 PUZ_OK);
		for (int j = 0; j < size[i]; j++)
			pc->shape.cells[at[cells[i][j]]] = PUZ_CELL;
	}
}

/* The canonical shape of the goal cells 'cells' (n of them). */
static void cells_shape(const struct grid *g, const int *cells, int n,
                        struct shape *out)
{
	int at[PROVE_MAX_CELLS];
	goal_cells(g, at);
	struct grid t;
	assert_int_equal(puz_grid_init(&t, g->nx, g->ny, g->nz), PUZ_OK);
	for (int j = 0; j < n; j++)
		t.cells[at[cells[j]]] = PUZ_CELL;
	struct shape raw;
	assert_int_equal(poly_from_grid(&t, &raw), POLY_OK);
	assert_int_equal(poly_canonical(&raw, out), POLY_OK);
	poly_shape_clear(&raw);
	puz_grid_clear(&t);
}

/* The cells of piece j of 'piece' (a labelling of the box g), turned
 * half a turn about axis 'turn' (0 to 2; 3: as it lies), so that they
 * still lie in the box: into out[], their number returned. */
static int half_turned(const struct grid *g, const int *piece, int j,
                       int turn, int *out)
{
	const int box[3] = {g->nx, g->ny, g->nz};
	int m = 0;
	for (int c = 0; c < g->nx * g->ny * g->nz; c++) {
		if (piece[c] != j)
			continue;
		int q[3] = {c % g->nx, c / g->nx % g->ny, c / (g->nx * g->ny)};
		for (int u = 0; u < 3; u++)
			if (u != turn && turn < 3)
				q[u] = box[u] - 1 - q[u];
		out[m++] = q[0] + g->nx * (q[1] + g->ny * q[2]);
	}
	return m;
}

/* Sets of shapes rather than dissections (prove_count_pieces()): the
 * pieces of a random dissection of a box, each given turned half a turn
 * about an axis at random (still in the box), or pieces of equal size
 * taken from two dissections (so that they may overlap as given and fill
 * the box in no way): capped counts against dancing links and the
 * general solver, and the first filling found is one (each piece's
 * cells congruent to it). */
static void test_prove_pieces(void **state)
{
	(void)state;
	uint64_t s = 17;
	int seen[3] = {0, 0, 0};
	const int boxes[][3] = {{2, 3, 4}, {3, 3, 3}, {2, 4, 4}, {3, 3, 4},
	                        {3, 4, 6}}; /* (the last on bbw.h) */
	for (int t = 0; t < 300; t++) {
		const int *box = boxes[t % 5];
		struct grid g;
		random_goal(&s, box, 1000, &g);
		int n = g.nx * g.ny * g.nz;
		int a[PROVE_MAX_CELLS], b[PROVE_MAX_CELLS], k;
		bool mixed = t % 3 == 2;
		if (mixed) {
			int sz = t % 5 == 4 ? 6 : 4;
			k = cut_sizes(&s, &g, sz, a);
			if (!k || !cut_sizes(&s, &g, sz, b)) {
				puz_grid_clear(&g);
				continue;
			}
		} else {
			k = 3 + rnd(&s, t % 5 == 4 ? 6 : 4);
			random_cut(&s, &g, k, a);
		}
		static int buf[PROVE_MAX_PIECES][PROVE_MAX_CELLS];
		const int *cells[PROVE_MAX_PIECES];
		int size[PROVE_MAX_PIECES];
		for (int j = 0; j < k; j++) {
			const int *src = mixed && rnd(&s, 2) ? b : a;
			int turn = mixed ? 3 : rnd(&s, 4); /* 3: as it lies */
			cells[j] = buf[j];
			size[j] = half_turned(&g, src, j, turn, buf[j]);
		}
		prove *pv = prove_new(&g);
		assert_non_null(pv);
		struct prove_result r;
		int first[PROVE_MAX_CELLS];
		assert_int_equal(prove_count_pieces(pv, cells, size, k, 64, 0, &r,
		                                    first),
		                 PROVE_OK);
		assert_true(r.complete || r.solutions == 64);
		if (!mixed) /* the dissection's own count */
			assert_int_equal(r.solutions, prove_all_capped(pv, &g, a, k));
		struct puzzle p;
		cells_puzzle(&g, cells, size, k, &p);
		struct solve_opts o = {.engine = SOLVE_DLX, .max_solutions = 64};
		struct solve_result sr;
		assert_int_equal(solve_puzzle(&p, &o, &sr), SOLVE_OK);
		assert_int_equal(r.solutions, sr.solutions);
		solve_result_clear(&sr);
		o = (struct solve_opts){.max_solutions = 2};
		assert_int_equal(solve_puzzle(&p, &o, &sr), SOLVE_OK);
		struct prove_result r2;
		assert_int_equal(prove_count_pieces(pv, cells, size, k, 2, 0, &r2,
		                                    NULL),
		                 PROVE_OK);
		assert_int_equal(r2.solutions, sr.solutions < 2 ? sr.solutions : 2);
		solve_result_clear(&sr);
		puz_clear(&p);
		seen[r.solutions < 2 ? r.solutions : 2]++;
		for (int j = 0; j < k && r.solutions; j++) {
			int got[PROVE_MAX_CELLS], m = 0;
			for (int c = 0; c < n; c++)
				if (first[c] == j)
					got[m++] = c;
			assert_int_equal(m, size[j]);
			struct shape x, y;
			cells_shape(&g, got, m, &x);
			cells_shape(&g, cells[j], size[j], &y);
			assert_true(poly_equal(&x, &y));
			poly_shape_clear(&x);
			poly_shape_clear(&y);
		}
		prove_free(pv);
		puz_grid_clear(&g);
	}
	/* every kind of answer met */
	assert_true(seen[0] > 0 && seen[1] > 50 && seen[2] > 50);
	/* refused: a cell out of range, a cell twice, no cell */
	struct grid g;
	assert_int_equal(puz_grid_init(&g, 2, 2, 2), PUZ_OK);
	memset(g.cells, PUZ_CELL, 8);
	prove *pv = prove_new(&g);
	assert_non_null(pv);
	int c0[] = {0, 1, 2, 3}, c1[] = {4, 5, 6, 8}, c2[] = {4, 4, 5, 6};
	const int *cells[2] = {c0, c1};
	int size[2] = {4, 4};
	struct prove_result r;
	assert_int_equal(prove_count_pieces(pv, cells, size, 2, 2, 0, &r, NULL),
	                 PROVE_EINVAL);
	cells[1] = c2;
	assert_int_equal(prove_count_pieces(pv, cells, size, 2, 2, 0, &r, NULL),
	                 PROVE_EINVAL);
	size[1] = 0;
	assert_int_equal(prove_count_pieces(pv, cells, size, 2, 2, 0, &r, NULL),
	                 PROVE_EINVAL);
	/* volumes that differ: no filling, at once */
	cells[1] = c1;
	size[1] = 3;
	assert_int_equal(prove_count_pieces(pv, cells, size, 2, 2, 0, &r, NULL),
	                 PROVE_OK);
	assert_true(r.complete && r.solutions == 0);
	prove_free(pv);
	puz_grid_clear(&g);
	/* the chessboard: in a 4 x 2 box (four cells of each colour) a T
	 * (three of one colour, one of the other) and a square cannot make
	 * it, decided with no search; an L and a square cannot either, but
	 * only the search says so; two straight pieces can */
	assert_int_equal(puz_grid_init(&g, 4, 2, 1), PUZ_OK);
	memset(g.cells, PUZ_CELL, 8);
	pv = prove_new(&g);
	assert_non_null(pv);
	int t[] = {0, 1, 2, 5}, o[] = {0, 1, 4, 5}, l[] = {0, 1, 2, 4},
	    i0[] = {0, 1, 2, 3}, i1[] = {4, 5, 6, 7};
	const int *sets[3][2] = {{t, o}, {l, o}, {i0, i1}};
	const uint64_t want[3] = {0, 0, 1};
	for (int j = 0; j < 3; j++) {
		size[0] = size[1] = 4;
		assert_int_equal(prove_count_pieces(pv, sets[j], size, 2, 2, 0, &r,
		                                    NULL),
		                 PROVE_OK);
		assert_true(r.complete);
		assert_int_equal(r.solutions, want[j]);
		if (j == 0)
			assert_int_equal(r.nodes, 0);
		else
			assert_true(r.nodes > 0);
		struct puzzle q;
		cells_puzzle(&g, sets[j], size, 2, &q);
		struct solve_opts so = {.engine = SOLVE_DLX, .max_solutions = 4};
		struct solve_result sr;
		assert_int_equal(solve_puzzle(&q, &so, &sr), SOLVE_OK);
		assert_int_equal(sr.solutions, want[j]);
		solve_result_clear(&sr);
		puz_clear(&q);
	}
	prove_free(pv);
	puz_grid_clear(&g);
}

/* Proofs long enough to use the dissection as a known filling (prove.c:
 * after 500 nodes its class is counted and groups of its pieces are
 * filled again): the cap of two answers as the general solver does,
 * unique or not, on each search, and a node budget still stops the
 * search where it says. The cases are counted so that each kind of
 * answer did come from a long proof. */
static void test_prove_known(void **state)
{
	(void)state;
	uint64_t s = 41;
	const struct {
		int box[3], kmin, kmax, tries, min_one, min_two;
	} cases[] = {
		{{4, 4, 4}, 9, 11, 400, 60, 100}, /* bb.h */
		{{4, 4, 5}, 10, 12, 60, 15, 8},  /* bbw.h */
		{{3, 5, 9}, 9, 12, 300, 50, 1}, /* cell by cell */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct grid g;
		random_goal(&s, cases[i].box, 1000, &g);
		prove *pv = prove_new(&g);
		assert_non_null(pv);
		int one = 0, two = 0;
		bool budget = false;
		for (int t = 0; t < cases[i].tries; t++) {
			int k = cases[i].kmin + rnd(&s, cases[i].kmax - cases[i].kmin + 1);
			int piece[PROVE_MAX_CELLS];
			balanced_cut(&s, &g, k, piece);
			struct prove_result r;
			assert_int_equal(prove_count(pv, piece, k, 2, 0, &r), PROVE_OK);
			uint64_t want = solver_two(&g, piece, k);
			assert_int_equal(r.solutions, want);
			assert_int_equal(r.complete, want < 2);
			if (r.nodes <= 500)
				continue;
			one += want == 1;
			two += want == 2;
			if (want == 1 && !budget) {
				/* the least budget that lets the search end (the
				 * refills are not counted against it): past the
				 * first 500 nodes, one less stops it */
				uint64_t lo = 1, hi = r.nodes;
				struct prove_result q;
				while (lo < hi) {
					uint64_t mid = lo + (hi - lo) / 2;
					assert_int_equal(prove_count(pv, piece, k, 2, mid, &q),
					                 PROVE_OK);
					assert_int_equal(q.solutions, 1);
					if (q.complete)
						hi = mid;
					else
						lo = mid + 1;
				}
				if (lo > 500) {
					assert_int_equal(prove_count(pv, piece, k, 2, lo - 1, &q),
					                 PROVE_OK);
					assert_false(q.complete);
					assert_int_equal(prove_count(pv, piece, k, 2, lo, &q),
					                 PROVE_OK);
					assert_true(q.complete);
					budget = true;
				}
			}
		}
		print_message("    case %zu: %d unique and %d not, past 500 "
		              "nodes\n", i, one, two);
		assert_true(one >= cases[i].min_one);
		assert_true(two >= cases[i].min_two);
		assert_true(budget);
		prove_free(pv);
		puz_grid_clear(&g);
	}
}

/* A unique dissection by itself: 3 x 3 x 3 into bars and an L (found by
 * the counts above; checked here by the brute force). */
static void unique_cut(struct grid *g, int *piece)
{
	assert_int_equal(puz_grid_init(g, 3, 3, 3), PUZ_OK);
	memset(g->cells, PUZ_CELL, 27);
	uint64_t s = 3;
	for (;;) {
		random_cut(&s, g, 5, piece);
		if (brute_sols(g, piece, 5) == 1)
			return;
	}
}

/* prove_count_pieces() as the drawn route calls it: one prover for one
 * goal and many sets of pieces (a dissection's pieces, each turned by
 * one of the box's half turns, so most fill it in several ways), capped
 * at 2, with and without a budget. A count that ends is the solver's,
 * capped; a count stopped by the budget is never complete; and a first
 * filling found is scouted for a second one nearby (a few pieces trading
 * places) when the search stops, by its budget here or every 1,000 nodes
 * (prove.c's SCOUT_EVERY), which must never count a class twice (a
 * refill that took its own class for another fails this test). */
static void test_prove_pieces_reused(void **state)
{
	(void)state;
	uint64_t s = 29;
	const int box[3] = {3, 3, 4};
	struct grid g;
	random_goal(&s, box, 36, &g); /* the full box */
	int n = g.nx * g.ny * g.nz;
	prove *pv = prove_new(&g);
	assert_non_null(pv);
	int seen[3] = {0, 0, 0}, stopped = 0;
	for (int t = 0; t < 400; t++) {
		int a[PROVE_MAX_CELLS], k = 4 + rnd(&s, 4);
		random_cut(&s, &g, k, a);
		static int buf[PROVE_MAX_PIECES][PROVE_MAX_CELLS];
		const int *cells[PROVE_MAX_PIECES];
		int size[PROVE_MAX_PIECES];
		for (int j = 0; j < k; j++) {
			int turn = rnd(&s, 4); /* 3: as it lies */
			cells[j] = buf[j];
			size[j] = half_turned(&g, a, j, turn, buf[j]);
		}
		struct puzzle p;
		cells_puzzle(&g, cells, size, k, &p);
		struct solve_opts o = {.engine = SOLVE_DLX, .max_solutions = 2};
		struct solve_result sr;
		assert_int_equal(solve_puzzle(&p, &o, &sr), SOLVE_OK);
		uint64_t want = sr.solutions < 2 ? sr.solutions : 2;
		solve_result_clear(&sr);
		puz_clear(&p);
		uint64_t budget = t % 2 ? 1 + (uint64_t)rnd(&s, 200) : 0;
		struct prove_result r;
		int first[PROVE_MAX_CELLS];
		assert_int_equal(prove_count_pieces(pv, cells, size, k, 2, budget,
		                                    &r, first),
		                 PROVE_OK);
		if (r.complete) {
			assert_int_equal(r.solutions, want);
			assert_true(r.solutions < 2);
		} else if (r.solutions < 2) { /* the budget, not the cap */
			assert_true(budget > 0);
			assert_true(r.solutions <= want);
			stopped++;
		} else {
			assert_int_equal(want, 2);
		}
		/* a prover of its own answers the same, nodes and first
		 * filling too (generate's threads count sets on provers of
		 * their own) */
		prove *own = prove_new(&g);
		assert_non_null(own);
		struct prove_result r2;
		int first2[PROVE_MAX_CELLS];
		assert_int_equal(prove_count_pieces(own, cells, size, k, 2, budget,
		                                    &r2, first2),
		                 PROVE_OK);
		prove_free(own);
		assert_int_equal(r2.solutions, r.solutions);
		assert_int_equal(r2.complete, r.complete);
		assert_int_equal(r2.nodes, r.nodes);
		if (r.solutions)
			assert_memory_equal(first2, first, (size_t)n * sizeof *first);
		if (r.complete || r.solutions == 2)
			seen[r.solutions]++;
	}
	/* both answers met (the pieces fill the goal: each is turned by
	 * one of its symmetries), and the budget cut some counts short */
	assert_true(seen[1] > 10 && seen[2] > 100);
	assert_true(stopped > 0);
	prove_free(pv);
	puz_grid_clear(&g);
}

static void test_prove_stops(void **state)
{
	(void)state;
	struct grid g;
	int piece[27];
	unique_cut(&g, piece);
	prove *pv = prove_new(&g);
	assert_non_null(pv);
	struct prove_result r;
	assert_int_equal(prove_count(pv, piece, 5, 2, 0, &r), PROVE_OK);
	assert_true(r.complete);
	assert_int_equal(r.solutions, 1);
	uint64_t all = r.nodes;
	assert_true(all > 1);
	/* the budget: stopped, and not a count */
	assert_int_equal(prove_count(pv, piece, 5, 2, all - 1, &r), PROVE_OK);
	assert_false(r.complete);
	assert_int_equal(prove_count(pv, piece, 5, 2, all, &r), PROVE_OK);
	assert_true(r.complete);
	/* the cap */
	assert_int_equal(prove_count(pv, piece, 5, 1, 0, &r), PROVE_OK);
	assert_int_equal(r.solutions, 1);
	assert_false(r.complete);
	prove_free(pv);
	puz_grid_clear(&g);
}

static void test_prove_refused(void **state)
{
	(void)state;
	struct grid g;
	int piece[27];
	unique_cut(&g, piece);
	prove *pv = prove_new(&g);
	assert_non_null(pv);
	struct prove_result r = {7, 7, true};
	assert_int_equal(prove_count(pv, piece, 0, 2, 0, &r), PROVE_EINVAL);
	assert_int_equal(prove_count(pv, piece, PROVE_MAX_PIECES + 1, 2, 0, &r),
	                 PROVE_EINVAL);
	assert_int_equal(prove_count(pv, piece, 5, 0, 0, &r), PROVE_EINVAL);
	assert_int_equal(prove_count(pv, piece, 5, PROVE_MAX_CAP + 1, 0, &r),
	                 PROVE_EINVAL);
	assert_int_equal(prove_count(pv, piece, 4, 2, 0, &r), PROVE_EINVAL);
	assert_int_equal(prove_count(pv, piece, 6, 2, 0, &r), PROVE_EINVAL);
	piece[0] = -1;
	assert_int_equal(prove_count(pv, piece, 5, 2, 0, &r), PROVE_EINVAL);
	assert_int_equal(r.solutions, 7); /* untouched */
	prove_free(pv);
	/* goals with no cell or too many */
	memset(g.cells, 0, 27);
	assert_null(prove_new(&g));
	puz_grid_clear(&g);
	assert_int_equal(puz_grid_init(&g, 8, 8, 9), PUZ_OK);
	memset(g.cells, PUZ_CELL, 576);
	assert_null(prove_new(&g));
	g.cells[0] = g.cells[1] = 0;
	for (int i = 2; i < 576 - PROVE_MAX_CELLS; i++)
		g.cells[i] = 0;
	prove *big = prove_new(&g);
	assert_non_null(big);
	assert_int_equal(prove_cells(big), PROVE_MAX_CELLS);
	prove_free(big);
	puz_grid_clear(&g);
}

/* Thousands of dissections of a 4 x 4 x 4 on one prover: the placements
 * it keeps by shape (and forgets when full, some thousand shapes and
 * orientations later) never change an answer. Most counts stop at once
 * (one node: the placements are made all the same); every 25th
 * counts to 64 and must equal a fresh prover's, whose placements are
 * all made anew. */
static void test_prove_kept_shapes(void **state)
{
	(void)state;
	uint64_t s = 17;
	const int box[3] = {4, 4, 4};
	struct grid g;
	random_goal(&s, box, 64, &g);
	prove *pv = prove_new(&g);
	assert_non_null(pv);
	int several = 0;
	for (int t = 0; t < 2000; t++) {
		int k = 9 + rnd(&s, 4), piece[PROVE_MAX_CELLS];
		random_cut(&s, &g, k, piece);
		struct prove_result r;
		bool whole = t % 25 == 0;
		assert_int_equal(prove_count(pv, piece, k, whole ? 64 : 1,
		                             whole ? 0 : 1, &r), PROVE_OK);
		if (!whole)
			continue;
		prove *fresh = prove_new(&g);
		assert_non_null(fresh);
		struct prove_result q;
		assert_int_equal(prove_count(fresh, piece, k, 64, 0, &q), PROVE_OK);
		prove_free(fresh);
		assert_int_equal(r.complete, q.complete);
		assert_int_equal(r.solutions, q.solutions);
		several += r.complete && r.solutions > 1;
	}
	assert_true(several > 10);
	prove_free(pv);
	puz_grid_clear(&g);
}

#ifndef HAVE_ASAN
/* A prover made with allocations failing from the f-th on (and still
 * failing after), or NULL, then with none failing. */
static prove *failing_prover(const struct grid *g, long f)
{
	fail_after = f;
	prove *pv = prove_new(g);
	if (!pv)
		fail_after = -1;
	return pv;
}

/* prove_count() with the cap 'cap' of a dissection of 'want' classes:
 * true with the right answer, false when out of memory. */
static bool count_or_enomem(prove *pv, const int *piece, int k, uint64_t cap,
                            uint64_t want)
{
	struct prove_result r;
	int rc = prove_count(pv, piece, k, cap, 0, &r);
	if (rc != PROVE_OK) {
		assert_int_equal(rc, PROVE_ENOMEM);
		return false;
	}
	assert_int_equal(r.solutions, want < cap ? want : cap);
	assert_int_equal(r.complete, want < cap);
	return true;
}
#endif

static void test_prove_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	if (!failmalloc_active())
		skip(); /* valgrind owns malloc */
	long before = live;
	uint64_t s = 9;
	for (int t = 0; t < 6; t++) {
		struct grid g;
		const int box[3] = {t < 3 ? 3 : 4, 4, t < 3 ? 3 : 5};
		random_goal(&s, box, 20, &g);
		int at[PROVE_MAX_CELLS];
		int n = goal_cells(&g, at), a[PROVE_MAX_CELLS], b[PROVE_MAX_CELLS];
		int k = 3 + rnd(&s, 3);
		random_cut(&s, &g, k, a);
		random_cut(&s, &g, k, b);
		assert_true(n > 0);
		uint64_t wa = prove_all(NULL, &g, a, k, true);
		uint64_t wb = prove_all(NULL, &g, b, k, true);
		for (long f = 0;; f++) {
			prove *pv = failing_prover(&g, f);
			if (!pv)
				continue;
			bool done = count_or_enomem(pv, a, k, PROVE_MAX_CAP, wa);
			done &= count_or_enomem(pv, b, k, PROVE_MAX_CAP, wb);
			/* after a failure, the same prover answers right */
			fail_after = -1;
			assert_true(count_or_enomem(pv, a, k, PROVE_MAX_CAP, wa));
			prove_free(pv);
			if (done)
				break;
		}
		puz_grid_clear(&g);
	}
	/* a proof past the known filling's steps (test_prove_known) */
	struct grid g;
	const int box[3] = {4, 4, 4};
	random_goal(&s, box, 1000, &g);
	int piece[PROVE_MAX_CELLS];
	uint64_t want = 0;
	for (;;) {
		balanced_cut(&s, &g, 10, piece);
		prove *pv = prove_new(&g);
		assert_non_null(pv);
		struct prove_result r;
		assert_int_equal(prove_count(pv, piece, 10, 2, 0, &r), PROVE_OK);
		prove_free(pv);
		want = r.solutions;
		if (r.nodes > 6000)
			break;
	}
	for (long f = 0;; f++) {
		prove *pv = failing_prover(&g, f);
		if (!pv)
			continue;
		bool done = count_or_enomem(pv, piece, 10, 2, want);
		fail_after = -1;
		assert_true(count_or_enomem(pv, piece, 10, 2, want));
		prove_free(pv);
		if (done)
			break;
	}
	/* the same pieces as a set (prove_count_pieces()): a search of more
	 * than 6,000 nodes, its first filling scouted */
	static int buf[10][PROVE_MAX_CELLS];
	const int *cells[10];
	int size[10] = {0};
	for (int c = 0; c < 64; c++)
		buf[piece[c]][size[piece[c]]++] = c;
	for (int j = 0; j < 10; j++)
		cells[j] = buf[j];
	for (long f = 0;; f++) {
		prove *pv = failing_prover(&g, f);
		if (!pv)
			continue;
		struct prove_result r;
		int first[PROVE_MAX_CELLS];
		int rc = prove_count_pieces(pv, cells, size, 10, 2, 0, &r, first);
		fail_after = -1;
		if (rc == PROVE_OK)
			assert_int_equal(r.solutions, want);
		else
			assert_int_equal(rc, PROVE_ENOMEM);
		assert_int_equal(prove_count_pieces(pv, cells, size, 10, 2, 0, &r,
		                                    first),
		                 PROVE_OK);
		assert_int_equal(r.solutions, want);
		prove_free(pv);
		if (rc == PROVE_OK)
			break;
	}
	puz_grid_clear(&g);
	assert_int_equal(live, before);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prove_brute),
		cmocka_unit_test(test_prove_mirror_pairs),
		cmocka_unit_test(test_prove_engines),
		cmocka_unit_test(test_prove_known),
		cmocka_unit_test(test_prove_pieces),
		cmocka_unit_test(test_prove_pieces_reused),
		cmocka_unit_test(test_prove_stops),
		cmocka_unit_test(test_prove_refused),
		cmocka_unit_test(test_prove_kept_shapes),
		cmocka_unit_test(test_prove_out_of_memory),
	};
	return run_tests_parts(tests);
}
