/* test_solve.c: counting per DESIGN.md §2: known answers, every engine and
 * path against the others, and against the independent brute force in
 * tests/brute.c on hundreds of random puzzles. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/puz.h"
#include "gen/gen.h"
#include "solver/poly.h"
#include "solver/shell.h"
#include "solver/solve.h"
#include "tests/brute.h"
#include "tests/randpuz.h"
#include "tests/testload.h"

#define DATA "tests/data/classic/"

static struct solve_result run(const struct puzzle *p, struct solve_opts o)
{
	struct solve_result r;
	assert_int_equal(solve_puzzle(p, &o, &r), SOLVE_OK);
	return r;
}

/* Every way of solving: default, generic with each engine, and without
 * symmetry breaking; all must give 'sol' solutions and 'as' assemblies. */
static void expect_all_ways(const struct puzzle *p, uint64_t sol, uint64_t as)
{
	static const struct solve_opts ways[] = {
		{0},
		{.generic = true, .engine = SOLVE_DLX},
		{.generic = true, .engine = SOLVE_BITS},
		{.generic = true, .engine = SOLVE_DLX, .no_pin = true},
		{.generic = true, .engine = SOLVE_BITS, .no_pin = true},
	};
	for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		struct solve_result r = run(p, ways[i]);
		if (r.solutions != sol || r.assemblies != as || !r.complete)
			fail_msg("%s, way %zu: %llu solutions %llu assemblies, "
			         "expected %llu %llu", p->name, i,
			         (unsigned long long)r.solutions,
			         (unsigned long long)r.assemblies,
			         (unsigned long long)sol, (unsigned long long)as);
		solve_result_clear(&r);
	}
}

static void test_solve_soma(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	expect_all_ways(&p, 240, 11520);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.group_order, 48);
	assert_true(r.mirror_closed);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_solve_pentacubes_2x3x10(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "pentacubes-2x3x10.puz", &p);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.solutions, 12);
	assert_int_equal(r.assemblies, 96);
	assert_int_equal(r.group_order, 8);
	solve_result_clear(&r);
	r = run(&p, (struct solve_opts){.generic = true, .engine = SOLVE_DLX});
	assert_int_equal(r.solutions, 12);
	assert_int_equal(r.assemblies, 96);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_solve_happy_cubes(void **state)
{
	(void)state;
	struct puzzle p, q;
	test_load_puzzle(DATA "HC_BQ_001.hcq", &p);
	test_load_puzzle(DATA "HC_BQ_001.puz", &q);
	expect_all_ways(&p, 1, 48);
	expect_all_ways(&q, 1, 48);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_true(r.fast_path);
	solve_result_clear(&r);
	puz_clear(&p);
	puz_clear(&q);
	test_load_puzzle(DATA "happycube-blue.puz", &p);
	expect_all_ways(&p, 3, 144);
	puz_clear(&p);
}

/* The first solution is a real assembly: every goal cell labelled, and
 * each piece's labelled cells congruent to the piece. */
static void check_first(const struct puzzle *p, const unsigned char *lab)
{
	const struct grid *g = &p->goal;
	size_t total = (size_t)g->nx * g->ny * g->nz;
	for (size_t i = 0; i < total; i++)
		assert_int_equal(lab[i] != 0, g->cells[i] != 0);
	for (size_t k = 0; k < p->npieces; k++) {
		if (p->pieces[k].count != 1)
			continue;
		struct grid cells;
		assert_int_equal(puz_grid_init(&cells, g->nx, g->ny, g->nz), PUZ_OK);
		for (size_t i = 0; i < total; i++)
			cells.cells[i] = lab[i] == k + 1;
		struct shape a, b, ca, cb;
		assert_int_equal(poly_from_grid(&cells, &a), POLY_OK);
		assert_int_equal(poly_from_grid(&p->pieces[k].shape, &b), POLY_OK);
		assert_int_equal(poly_canonical(&a, &ca), POLY_OK);
		assert_int_equal(poly_canonical(&b, &cb), POLY_OK);
		assert_true(poly_equal(&ca, &cb));
		poly_shape_clear(&a);
		poly_shape_clear(&b);
		poly_shape_clear(&ca);
		poly_shape_clear(&cb);
		puz_grid_clear(&cells);
	}
}

static void test_solve_first_solution_is_geometric(void **state)
{
	(void)state;
	static const char *files[] = {DATA "soma.puz", DATA "HC_BQ_001.hcq",
	                              DATA "happycube-blue.puz",
	                              DATA "pentacubes-2x3x10.puz"};
	for (size_t i = 0; i < 4; i++)
		for (int generic = 0; generic < 2; generic++) {
			struct puzzle p;
			test_load_puzzle(files[i], &p);
			struct solve_result r =
				run(&p, (struct solve_opts){.keep_first = true,
				                            .generic = generic,
				                            .max_solutions = 1});
			assert_non_null(r.first);
			check_first(&p, r.first);
			solve_result_clear(&r);
			puz_clear(&p);
		}
}

/* ---- solution sets against the brute force -------------------------
 *
 * Every cover a solver run reports through on_cover is projected as
 * brute.h describes (pi: piece types, with the copies of an entry of
 * count K > 1 merged into one region per type; kappa: the least image of
 * pi under the goal's symmetries) and compared with the brute force,
 * which enumerates every assembly by itself:
 *
 * - the set of kappa equals the brute force's: every reported cover is,
 *   up to a symmetry of the goal, the projection of a true assembly, and
 *   every solution is reported at least once, projected;
 * - each cover as reported (pi, goal held fixed) is an assembly's
 *   projection; with no_pin, where every assembly is reported exactly
 *   once, the multiset of pi equals the brute force's exactly;
 * - the counts (solutions, assemblies, |G|, mirror-closure) are equal.
 *
 * When every type is separable (every entry has count 1, as in every
 * shell and wherever congruent pieces are separate entries) pi loses
 * nothing and this is equality of the solution sets themselves. Otherwise
 * it cannot tell apart two assemblies that differ only in how copies of
 * one entry tile their common union; the labels the solver reports do not
 * tell them apart either, so no check of its output can. The counts,
 * compared exactly, still see a solution missed that way. */

/* What one solver run reported, projected. */
struct seen {
	struct brute_canon *canon;
	struct brute_forms kappa; /* set */
	struct brute_forms pi;    /* multiset: one record per cover */
	uint32_t *form, *raw;     /* scratch records */
	uint64_t covers;          /* on_cover calls */
	uint64_t bad;             /* grids brute_canonical() refused, or OOM */
	/* when set, called on a copy of each grid before it is projected
	 * (the tests that the comparison can fail) */
	void (*tamper)(struct seen *s, unsigned char *labels);
	unsigned char *copy;      /* goal-grid sized, for 'tamper' */
	size_t total;             /* cells of the goal grid */
	int nx;                   /* its x extent */
};

static void seen_init(struct seen *s, const struct puzzle *p)
{
	memset(s, 0, sizeof *s);
	s->canon = brute_canon_new(p);
	assert_non_null(s->canon);
	size_t len = brute_canon_len(s->canon);
	brute_forms_init(&s->kappa, len, true);
	brute_forms_init(&s->pi, len, false);
	s->form = malloc(len * sizeof *s->form);
	s->raw = malloc(len * sizeof *s->raw);
	s->total = (size_t)p->goal.nx * p->goal.ny * p->goal.nz;
	s->nx = p->goal.nx;
	s->copy = malloc(s->total);
	assert_true(s->form && s->raw && s->copy);
}

static void seen_clear(struct seen *s)
{
	brute_canon_free(s->canon);
	brute_forms_clear(&s->kappa);
	brute_forms_clear(&s->pi);
	free(s->form);
	free(s->raw);
	free(s->copy);
	memset(s, 0, sizeof *s);
}

/* on_cover: no cmocka assert here, a longjmp would skip the solver's
 * cleanup; trouble is counted and reported after the run. */
static void seen_cover(void *ctx, const unsigned char *labels,
                       const unsigned char *colours)
{
	struct seen *s = ctx;
	(void)colours; /* plain puzzles: always NULL */
	s->covers++;
	if (s->tamper) {
		memcpy(s->copy, labels, s->total);
		s->tamper(s, s->copy);
		labels = s->copy;
	}
	if (brute_canonical(s->canon, labels, s->form, s->raw) != 0 ||
	    brute_forms_add(&s->kappa, s->form) != 0 ||
	    brute_forms_add(&s->pi, s->raw) != 0)
		s->bad++;
}

/* Run the solver on 'p' the way 'o' says, collecting into 's' (set up by
 * seen_init()); the result is returned for the counts. */
static struct solve_result collect(const struct puzzle *p, struct solve_opts o,
                                   struct seen *s)
{
	o.on_cover = seen_cover;
	o.ctx = s;
	struct solve_result r = run(p, o);
	brute_forms_sort(&s->kappa);
	brute_forms_sort(&s->pi);
	return r;
}

/* Compare a run ('r', 's', made with 'no_pin' or not) with the brute
 * force; true when everything agrees, else false with what differs in
 * 'why'. */
static bool sets_agree(const struct solve_result *r, const struct seen *s,
                       bool no_pin, const struct brute_solset *b,
                       char *why, size_t whylen)
{
	const struct brute_result *c = &b->counts;
	if (!r->complete || r->solutions != c->solutions ||
	    r->assemblies != c->assemblies || r->group_order != c->group_order ||
	    r->mirror_closed != c->mirror_closed) {
		snprintf(why, whylen, "counts: solver %llu solutions %llu assemblies "
		         "|G| %d, brute force %llu %llu |G| %d",
		         (unsigned long long)r->solutions,
		         (unsigned long long)r->assemblies, r->group_order,
		         (unsigned long long)c->solutions,
		         (unsigned long long)c->assemblies, c->group_order);
		return false;
	}
	if (s->bad) {
		snprintf(why, whylen, "%llu reported grids are not label grids of "
		         "the goal", (unsigned long long)s->bad);
		return false;
	}
	if (!brute_forms_equal(&s->kappa, &b->solutions)) {
		snprintf(why, whylen, "solution sets: solver %zu, brute force %zu; "
		         "%zu only the solver has, %zu only the brute force",
		         s->kappa.n, b->solutions.n,
		         brute_forms_missing(&s->kappa, &b->solutions),
		         brute_forms_missing(&b->solutions, &s->kappa));
		return false;
	}
	for (size_t i = 0; i < s->pi.n; i++)
		if (!brute_forms_has(&b->assemblies, &s->pi.rec[i * s->pi.len])) {
			snprintf(why, whylen, "cover %zu as reported is no assembly", i);
			return false;
		}
	if (no_pin && (s->covers != c->assemblies ||
	               !brute_forms_equal(&s->pi, &b->assemblies))) {
		snprintf(why, whylen, "no_pin: %llu covers, %zu of them not matched "
		         "one to one by the brute force's %llu assemblies",
		         (unsigned long long)s->covers,
		         brute_forms_missing(&s->pi, &b->assemblies),
		         (unsigned long long)c->assemblies);
		return false;
	}
	return true;
}

/* Solve 'p' (called 'what' in messages) every way in ways[0..n-1] and
 * compare each with 'b'; on a difference print the puzzle and fail.
 * 'fast', when not NULL, counts the runs the shell path answered. */
static void expect_sets(const struct puzzle *p, const char *what,
                        const struct solve_opts *ways, size_t n,
                        const struct brute_solset *b, int *fast)
{
	for (size_t w = 0; w < n; w++) {
		struct seen s;
		seen_init(&s, p);
		struct solve_result r = collect(p, ways[w], &s);
		char why[256];
		bool ok = sets_agree(&r, &s, ways[w].no_pin, b, why, sizeof why);
		if (fast)
			*fast += r.fast_path;
		solve_result_clear(&r);
		seen_clear(&s);
		if (!ok) {
			puz_write(stderr, p);
			fail_msg("%s, way %zu: %s", what, w, why);
		}
	}
}

/* Engines and paths for puzzles the shell path never takes. */
static const struct solve_opts poly_ways[] = {
	{0}, /* AUTO: the bitboard, every goal here has <= 30 cells */
	{.generic = true, .engine = SOLVE_DLX},
	{.generic = true, .engine = SOLVE_BITS},
	{.generic = true, .engine = SOLVE_DLX, .no_pin = true},
	{.generic = true, .engine = SOLVE_BITS, .no_pin = true},
};

/* And for six-plate shells: the shell path (n >= 4; AUTO for n = 3),
 * each engine without it (generic AUTO would repeat BITS: the bitboard up
 * to 64 cells, else DLX), and no_pin (the shell path always pins, so it
 * declines: AUTO). */
static const struct solve_opts shell_ways[] = {
	{0},
	{.generic = true, .engine = SOLVE_DLX},
	{.generic = true, .engine = SOLVE_BITS},
	{.no_pin = true},
	{.generic = true, .engine = SOLVE_DLX, .no_pin = true},
};
#define NWAYS(w) (sizeof (w) / sizeof (w)[0])

/* Whether the goal (cropped, as randpuz makes it) is a whole box with two
 * equal sides (a cube when all three are). */
static int box_equal_sides(const struct grid *g)
{
	if (puz_grid_volume(g) != (size_t)g->nx * g->ny * g->nz)
		return 0;
	if (g->nx == g->ny && g->ny == g->nz)
		return 3;
	return g->nx == g->ny || g->ny == g->nz || g->nx == g->nz ? 2 : 0;
}

static void test_solve_sets_polycubes(void **state)
{
	(void)state;
	int compared = 0, solvable = 0, several = 0, symmetric = 0, boxes = 0,
	    cubes = 0, counted = 0, congruent = 0, lossy = 0;
	for (uint64_t seed = 1; seed <= 600; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		struct brute_solset b;
		assert_int_equal(brute_solutions(&p, &b), 0);
		expect_sets(&p, p.name, poly_ways, NWAYS(poly_ways), &b, NULL);
		const struct brute_result *c = &b.counts;
		compared++;
		solvable += c->assemblies > 0;
		several += c->solutions > 1;
		/* some solution has a symmetry of its own */
		symmetric += c->assemblies != c->solutions * (uint64_t)c->group_order;
		int eq = box_equal_sides(&p.goal);
		boxes += eq >= 2;
		cubes += eq == 3 && p.goal.nx > 1;
		size_t entries = 0;
		bool k2 = false;
		for (size_t i = 0; i < p.npieces; i++) {
			entries += p.pieces[i].count > 0;
			k2 |= p.pieces[i].count > 1;
		}
		counted += k2 && c->assemblies > 0;
		congruent += !k2 && (size_t)b.ntypes < entries && c->assemblies > 0;
		assert_true(b.solutions.n <= c->solutions);
		if (b.exact)
			assert_int_equal(b.solutions.n, c->solutions);
		lossy += b.solutions.n < c->solutions;
		brute_solset_clear(&b);
		puz_clear(&p);
	}
	print_message("    %d puzzles: %d solvable, %d with several solutions, "
	              "%d with symmetric solutions, %d boxes with equal sides "
	              "(%d cubes), %d solvable with a count-2 piece, %d with "
	              "congruent entries, %d where pi merges solutions\n",
	              compared, solvable, several, symmetric, boxes, cubes,
	              counted, congruent, lossy);
	/* The sample must keep exercising what matters (about half of what
	 * seeds 1..600 give): unsolvable puzzles, several solutions,
	 * solutions with symmetries of their own, goals with symmetries,
	 * identical pieces both ways, and projections that merge solutions
	 * (where only the counts see everything). */
	assert_true(solvable >= 500 && compared - solvable >= 10);
	assert_true(several >= 150 && symmetric >= 200);
	assert_true(boxes >= 100 && cubes >= 5);
	assert_true(counted >= 50 && congruent >= 150);
	assert_true(lossy >= 10);
}

/* Puzzles with no piece of one copy, on goals with cells that
 * symmetries fix: the solver pins such a cell (choose_cell in solve.c),
 * and the solution sets must still be the brute force's, on every
 * engine and without pinning. */
static void test_solve_sets_copies(void **state)
{
	(void)state;
	int solvable = 0, several = 0, symmetric = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_copies(seed, &p), 0);
		struct brute_solset b;
		assert_int_equal(brute_solutions(&p, &b), 0);
		expect_sets(&p, p.name, poly_ways, NWAYS(poly_ways), &b, NULL);
		const struct brute_result *c = &b.counts;
		solvable += c->assemblies > 0;
		several += c->solutions > 1;
		symmetric += c->assemblies != c->solutions * (uint64_t)c->group_order;
		brute_solset_clear(&b);
		puz_clear(&p);
	}
	print_message("    300 puzzles of copies: %d solvable, %d with several "
	              "solutions, %d with symmetric solutions\n", solvable,
	              several, symmetric);
	assert_true(solvable >= 100 && several >= 50 && symmetric >= 30);
}

/* The same on the wide board (65 to 125 cells): below a symmetric
 * representative on the pinned cell the solver keeps one row per orbit
 * on a second cell (choose_cell_second in solve.c), and the counts must
 * be dancing links' (which keeps every row) on one thread, on three and
 * summed over three shards. Dancing links is slow there: a puzzle
 * whose count it does not finish within the budget is left out. */
static void test_solve_copies_wide(void **state)
{
	(void)state;
	int compared = 0, solvable = 0, symmetric = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct puzzle p;
		assert_int_equal(randpuz_copies_wide(seed, &p), 0);
		struct solve_opts ref_o = {.engine = SOLVE_DLX, .max_nodes = 60000};
		struct solve_result ref;
		assert_int_equal(solve_puzzle(&p, &ref_o, &ref), SOLVE_OK);
		if (!ref.complete) {
			solve_result_clear(&ref);
			puz_clear(&p);
			continue;
		}
		const struct solve_opts ways[] = {
			{0},
			{.engine = SOLVE_WIDE, .threads = 3},
			{.engine = SOLVE_WIDE, .no_pin = true},
		};
		for (size_t w = 0; w < sizeof ways / sizeof *ways; w++) {
			struct solve_result r;
			assert_int_equal(solve_puzzle(&p, &ways[w], &r), SOLVE_OK);
			assert_true(r.complete);
			if (r.solutions != ref.solutions ||
			    r.assemblies != ref.assemblies)
				fail_msg("%s, way %zu: %llu solutions, %llu assemblies; "
				         "dancing links %llu, %llu", p.name, w,
				         (unsigned long long)r.solutions,
				         (unsigned long long)r.assemblies,
				         (unsigned long long)ref.solutions,
				         (unsigned long long)ref.assemblies);
			solve_result_clear(&r);
		}
		uint64_t num = 0, div = 0;
		for (unsigned k = 0; k < 3; k++) {
			struct solve_opts o = {.shard_index = k, .shard_count = 3};
			struct solve_result r;
			assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
			assert_true(r.complete);
			num += r.numerator;
			div = r.divisor;
			solve_result_clear(&r);
		}
		assert_true(div > 0 && num % div == 0);
		assert_int_equal(num / div, ref.solutions);
		compared++;
		solvable += ref.assemblies > 0;
		symmetric += ref.assemblies != ref.solutions * (uint64_t)ref.group_order;
		solve_result_clear(&ref);
		puz_clear(&p);
	}
	print_message("    %d wide puzzles of copies: %d solvable, %d with "
	              "symmetric solutions\n", compared, solvable, symmetric);
	assert_true(compared >= 20 && solvable >= 10 && symmetric >= 3);
}

static void test_solve_sets_shells(void **state)
{
	(void)state;
	int compared = 0, unique = 0, congruent = 0, fast = 0, big = 0;
	for (int n = 3; n <= 5; n++)
		/* n = 4 most often has plates with an empty side, which may sit
		 * shifted on their face: compare more of those */
		for (uint64_t seed = 1; seed <= (n == 3 ? 25u : n == 4 ? 90u : 35u);
		     seed++) {
			struct puzzle p;
			assert_int_equal(randpuz_shell(seed * 7919 + (uint64_t)n, n, &p), 0);
			struct brute_solset b;
			assert_int_equal(brute_solutions(&p, &b), 0);
			assert_true(b.exact); /* six entries of count 1 */
			expect_sets(&p, p.name, shell_ways, NWAYS(shell_ways), &b, &fast);
			const struct brute_result *c = &b.counts;
			compared++;
			big += n >= 4;
			unique += c->solutions == 1;
			congruent += b.ntypes < 6;
			brute_solset_clear(&b);
			puz_clear(&p);
		}
	print_message("    %d shells: %d unique, %d with congruent plates, "
	              "%d runs on the shell path\n", compared, unique, congruent,
	              fast);
	assert_int_equal(compared, 150);
	assert_true(unique >= 60 && compared - unique >= 25);
	assert_true(congruent >= 10);
	assert_true(fast >= big * 9 / 10); /* way 0 on the n >= 4 shells */
}

/* The 19 commercial Happy Cube sets: every path and engine finds the
 * brute force's solutions, which knows nothing of either. */
static void test_solve_happycube_sets(void **state)
{
	(void)state;
	static const char *ids[] = {
		"050b7f1c", "1324cd79", "1cd8e63e", "2912d4de", "3ad70224",
		"3e7db9fa", "413671bb", "82af7031", "90fbdf4e", "936cda1c",
		"9eee9ee5", "a569529f", "ae37886c", "b10801b1", "b95e3254",
		"cfe252dc", "d4124011", "e6166c21", "f739452a"};
	for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
		char path[128];
		snprintf(path, sizeof path, DATA "happycube/%s.puz", ids[i]);
		struct puzzle p;
		test_load_puzzle(path, &p);
		struct brute_solset b;
		assert_int_equal(brute_solutions(&p, &b), 0);
		expect_sets(&p, path, shell_ways, NWAYS(shell_ways), &b, NULL);
		brute_solset_clear(&b);
		puz_clear(&p);
	}
}

/* Tampering for the tests below (struct seen's 'tamper'). */

/* In the first cover only: swap the labels of the first two neighbours
 * along x with different labels, so two pieces change shape. (Were there
 * none, nothing would change and the test expecting a difference fails.) */
static void swap_neighbours(struct seen *s, unsigned char *lab)
{
	if (s->covers != 1)
		return;
	for (size_t i = 0; i + 1 < s->total; i++)
		if ((int)(i % (size_t)s->nx) + 1 < s->nx && lab[i] && lab[i + 1] &&
		    lab[i] != lab[i + 1]) {
			unsigned char t = lab[i];
			lab[i] = lab[i + 1];
			lab[i + 1] = t;
			return;
		}
}

/* Swap labels 1 and 2 everywhere: right when entries 1 and 2 are
 * congruent (interchangeable), wrong otherwise. */
static void swap_entries(struct seen *s, unsigned char *lab)
{
	for (size_t i = 0; i < s->total; i++)
		lab[i] = lab[i] == 1 ? 2 : lab[i] == 2 ? 1 : lab[i];
}

/* Label the first row 1 and the rest 2: for a 3x2 goal, two I trominoes
 * where two L trominoes lay; the piece types per cell do not change. */
static void rows(struct seen *s, unsigned char *lab)
{
	for (size_t i = 0; i < s->total; i++)
		lab[i] = i < (size_t)s->nx ? 1 : 2;
}

/* Collect a run of 'p' with 'tamper' and compare it with 'b'. */
static bool tampered_agree(const struct puzzle *p, struct solve_opts o,
                           void (*tamper)(struct seen *, unsigned char *),
                           const struct brute_solset *b)
{
	struct seen s;
	seen_init(&s, p);
	s.tamper = tamper;
	struct solve_result r = collect(p, o, &s);
	char why[256];
	bool ok = sets_agree(&r, &s, o.no_pin, b, why, sizeof why);
	solve_result_clear(&r);
	seen_clear(&s);
	return ok;
}

/* The comparison itself can fail: a wrong count, a solution missing on
 * either side, a cell changed in one reported grid, an assembly reported
 * twice and another never (no_pin), and a piece split differently within
 * the same cells of one type; while swapping congruent entries, which the
 * solver may do at will, is accepted. */
static void test_solve_sets_can_fail(void **state)
{
	(void)state;
	char why[256];
	struct puzzle p;
	test_load_puzzle(DATA "happycube-blue.puz", &p);
	struct brute_solset b;
	assert_int_equal(brute_solutions(&p, &b), 0);
	assert_int_equal(b.solutions.n, 3);

	struct seen s;
	seen_init(&s, &p);
	struct solve_result r = collect(&p, (struct solve_opts){0}, &s);
	assert_true(sets_agree(&r, &s, false, &b, why, sizeof why));
	/* a wrong count */
	b.counts.solutions++;
	assert_false(sets_agree(&r, &s, false, &b, why, sizeof why));
	b.counts.solutions--;
	b.counts.assemblies++;
	assert_false(sets_agree(&r, &s, false, &b, why, sizeof why));
	b.counts.assemblies--;
	/* the solver's set or the brute force's one short: drop the last */
	s.kappa.n--;
	assert_false(sets_agree(&r, &s, false, &b, why, sizeof why));
	assert_non_null(strstr(why, "solution sets"));
	s.kappa.n++;
	b.solutions.n--;
	assert_false(sets_agree(&r, &s, false, &b, why, sizeof why));
	b.solutions.n++;
	assert_true(sets_agree(&r, &s, false, &b, why, sizeof why));
	solve_result_clear(&r);
	seen_clear(&s);

	/* one cell changed in one grid, on the shell path and off it */
	assert_false(tampered_agree(&p, (struct solve_opts){0}, swap_neighbours, &b));
	assert_false(tampered_agree(&p, (struct solve_opts){.generic = true,
	                            .no_pin = true}, swap_neighbours, &b));
	/* two plates that are not congruent exchanged everywhere */
	assert_false(tampered_agree(&p, (struct solve_opts){.generic = true},
	                            swap_entries, &b));

	/* no_pin: the first assembly reported twice and the second never;
	 * the set of solutions and the counts stay right */
	seen_init(&s, &p);
	r = collect(&p, (struct solve_opts){.generic = true, .no_pin = true}, &s);
	assert_true(sets_agree(&r, &s, true, &b, why, sizeof why));
	assert_true(s.pi.n >= 2);
	memcpy(&s.pi.rec[s.pi.len], s.pi.rec, s.pi.len * sizeof *s.pi.rec);
	assert_true(sets_agree(&r, &s, false, &b, why, sizeof why));
	assert_false(sets_agree(&r, &s, true, &b, why, sizeof why));
	assert_non_null(strstr(why, "no_pin"));
	solve_result_clear(&r);
	seen_clear(&s);
	brute_solset_clear(&b);
	puz_clear(&p);

	/* Two congruent L trominoes given as separate entries fill a 3x2
	 * box; labelling them as two I trominoes keeps every cell's type, and
	 * is caught because each entry is a piece of its own. Swapping the
	 * two entries is no change. */
	static const char apart[] = "puzzle v1\ngoal 3 2 1\n###\n###\n"
	                            "piece L 2 2 1\n##\n#.\n"
	                            "piece M 2 2 1\n.#\n##\n";
	struct puz_error e;
	assert_int_equal(puz_read_mem(apart, sizeof apart - 1, &p, &e), PUZ_OK);
	assert_int_equal(brute_solutions(&p, &b), 0);
	assert_true(b.exact);
	for (size_t w = 0; w < NWAYS(poly_ways); w++) {
		assert_true(tampered_agree(&p, poly_ways[w], NULL, &b));
		assert_true(tampered_agree(&p, poly_ways[w], swap_entries, &b));
		assert_false(tampered_agree(&p, poly_ways[w], rows, &b));
	}
	brute_solset_clear(&b);
	puz_clear(&p);
}

/* Generated puzzles: the shell fast path and the generic search agree on
 * every count, for many seeds and sizes. */
static void test_solve_generated_fast_path_matches(void **state)
{
	(void)state;
	int fast = 0;
	for (int n = 3; n <= 8; n++)
		for (uint64_t seed = 0; seed < (n <= 5 ? 120u : 30u); seed++) {
			struct rng r;
			rng_seed(&r, seed);
			struct gen_puzzle g = {0};
			int dim[3] = {n, n, n};
			assert_int_equal(gen_draw(&r, dim, &g), GEN_OK);
			struct puzzle p;
			assert_int_equal(gen_to_puzzle(&g, seed, &p), GEN_OK);
			struct solve_result a = run(&p, (struct solve_opts){0});
			struct solve_result b = run(&p, (struct solve_opts){.generic = true});
			assert_int_equal(a.solutions, b.solutions);
			assert_int_equal(a.assemblies, b.assemblies);
			assert_true(a.solutions >= 1);
			fast += a.fast_path;
			const unsigned char *pl[6];
			int pd[6][2];
			for (int i = 0; i < 6; i++) {
				pl[i] = g.piece[i];
				pd[i][0] = g.pw[i];
				pd[i][1] = g.ph[i];
			}
			struct solve_result c;
			int rc = shell_count(dim, pl, (const int (*)[2])pd,
			                     &(struct solve_opts){0}, &c);
			if (rc == SOLVE_OK) {
				assert_int_equal(c.solutions, a.solutions);
				assert_int_equal(c.assemblies, a.assemblies);
				solve_result_clear(&c);
			} else {
				assert_int_equal(rc, SHELL_NOT_SHELL);
			}
			solve_result_clear(&a);
			solve_result_clear(&b);
			puz_clear(&p);
			gen_puzzle_clear(&g);
		}
	assert_true(fast > 300);
}

static void test_solve_limits(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle(DATA "soma.puz", &p);
	struct solve_result r = run(&p, (struct solve_opts){.max_solutions = 5});
	assert_false(r.complete);
	assert_int_equal(r.stop, SOLVE_MAX_SOLUTIONS);
	assert_true(r.solutions >= 5 && r.solutions < 240);
	solve_result_clear(&r);
	r = run(&p, (struct solve_opts){.max_nodes = 100});
	assert_false(r.complete);
	assert_int_equal(r.stop, SOLVE_MAX_NODES);
	assert_true(r.nodes <= 100);
	solve_result_clear(&r);
	r = run(&p, (struct solve_opts){.max_nodes = 100, .generic = true,
	                                .engine = SOLVE_DLX});
	assert_int_equal(r.stop, SOLVE_MAX_NODES);
	solve_result_clear(&r);
	puz_clear(&p);
}

static void test_solve_unsolvable_says_why(void **state)
{
	(void)state;
	static const char vol[] = "puzzle v1\ngoal 2 2 1\n##\n##\n"
	                          "piece L 2 2 1\n##\n#.\n";
	static const char nowhere[] = "puzzle v1\ngoal 4 1 1\n####\n"
	                              "piece L 2 2 1\n##\n#.\n"
	                              "piece I 1 1 1\n#\n";
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_mem(vol, sizeof vol - 1, &p, &e), PUZ_OK);
	struct solve_result r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.solutions, 0);
	assert_true(r.complete);
	assert_non_null(strstr(r.why, "3 cells, the goal 4"));
	assert_int_equal(r.nodes, 0);
	solve_result_clear(&r);
	puz_clear(&p);
	assert_int_equal(puz_read_mem(nowhere, sizeof nowhere - 1, &p, &e), PUZ_OK);
	r = run(&p, (struct solve_opts){0});
	assert_int_equal(r.solutions, 0);
	assert_non_null(strstr(r.why, "'L' fits nowhere"));
	solve_result_clear(&r);
	puz_clear(&p);
	/* A range that fits nowhere is no reason by itself: the search
	 * runs with no rows at all, a cell pinned (the middle of the line)
	 * and nothing below it (choose_cell_second once read the rows'
	 * cells of a table never made: found by fuzz_xmpuzzle). */
	static const char norows[] = "puzzle v1\ngoal 1 1 3\n#\n\n#\n\n#\n"
	                             "piece L 2 2 1 count 0..2\n##\n#.\n";
	assert_int_equal(puz_read_mem(norows, sizeof norows - 1, &p, &e), PUZ_OK);
	r = run(&p, (struct solve_opts){0});
	assert_true(r.complete);
	assert_int_equal(r.solutions, 0);
	assert_int_equal(r.assemblies, 0);
	solve_result_clear(&r);
	puz_clear(&p);
}

/* Identical pieces given as separate entries or as a count are the same
 * puzzle: two L trominoes in a 3x2 rectangle, 2 assemblies, 1 solution. */
static void test_solve_identical_pieces(void **state)
{
	(void)state;
	static const char counted[] = "puzzle v1\ngoal 3 2 1\n###\n###\n"
	                              "piece L 2 2 1 count 2\n##\n#.\n";
	static const char apart[] = "puzzle v1\ngoal 3 2 1\n###\n###\n"
	                            "piece L 2 2 1\n##\n#.\n"
	                            "piece M 2 2 1\n.#\n##\n";
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_mem(counted, sizeof counted - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 1, 2);
	puz_clear(&p);
	assert_int_equal(puz_read_mem(apart, sizeof apart - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 1, 2);
	puz_clear(&p);
}

/* The only single-copy pieces are chiral (Soma's A and B, mirror images of
 * each other) in a mirror-closed set: the pinned piece's group H is the
 * rotations only, index 2 in G, and some solutions have symmetries of
 * their own. Counts from the brute force, checked by hand for the first. */
static void test_solve_chiral_pin(void **state)
{
	(void)state;
	static const char ab_l[] =
		"puzzle v1\ngoal 4 2 2\n####\n####\n\n####\n####\n"
		"piece A 2 2 2\n##\n#.\n\n.#\n..\n"
		"piece B 2 2 2\n##\n#.\n\n..\n#.\n"
		"piece L 3 2 1 count 2\n###\n#..\n";
	static const char ab_i[] =
		"puzzle v1\ngoal 3 2 2\n###\n###\n\n###\n###\n"
		"piece A 2 2 2\n##\n#.\n\n.#\n..\n"
		"piece B 2 2 2\n##\n#.\n\n..\n#.\n"
		"piece I 2 1 1 count 2\n##\n";
	struct puzzle p;
	struct puz_error e;
	assert_int_equal(puz_read_mem(ab_l, sizeof ab_l - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 1, 8);
	struct brute_result b;
	assert_int_equal(brute_count(&p, &b), 0);
	assert_int_equal(b.solutions, 1);
	assert_int_equal(b.group_order, 16);
	puz_clear(&p);
	assert_int_equal(puz_read_mem(ab_i, sizeof ab_i - 1, &p, &e), PUZ_OK);
	expect_all_ways(&p, 3, 32);
	assert_int_equal(brute_count(&p, &b), 0);
	assert_int_equal(b.solutions, 3);
	assert_int_equal(b.assemblies, 32);
	puz_clear(&p);
}

/* Regression: shells whose only single-copy plates have symmetries of
 * their own, so the fast path's stabiliser test decides the count. A
 * negated axis was once re-anchored by the image's sign (c = 0 gives -0,
 * never shifted), so such puzzles were miscounted, one with two solutions
 * as unique. Found by an adversarial review; its 126 puzzles live in
 * tests/data/regress/ and must all agree with the brute force. */
static void test_solve_regress_symmetric_pinned_plates(void **state)
{
	(void)state;
	static const struct solve_opts ways[] = {
		{0},
		{.generic = true, .engine = SOLVE_DLX},
	};
	DIR *d = opendir("tests/data/regress");
	assert_non_null(d);
	struct dirent *e;
	int checked = 0, fast = 0, symmetric = 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 5 || strcmp(e->d_name + len - 4, ".puz") != 0)
			continue;
		char path[512];
		snprintf(path, sizeof path, "tests/data/regress/%s", e->d_name);
		struct puzzle p;
		test_load_puzzle(path, &p);
		struct brute_solset b;
		assert_int_equal(brute_solutions(&p, &b), 0);
		expect_sets(&p, path, ways, NWAYS(ways), &b, &fast);
		const struct brute_result *c = &b.counts;
		symmetric += c->assemblies != c->solutions * (uint64_t)c->group_order;
		brute_solset_clear(&b);
		puz_clear(&p);
		checked++;
	}
	closedir(d);
	assert_true(checked >= 100);
	assert_true(fast >= checked / 2); /* the path under test was taken */
	assert_true(symmetric >= checked / 2); /* and so were the stabilisers */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_solve_soma),
		cmocka_unit_test(test_solve_pentacubes_2x3x10),
		cmocka_unit_test(test_solve_happy_cubes),
		cmocka_unit_test(test_solve_first_solution_is_geometric),
		cmocka_unit_test(test_solve_happycube_sets),
		cmocka_unit_test(test_solve_sets_polycubes),
		cmocka_unit_test(test_solve_sets_copies),
		cmocka_unit_test(test_solve_copies_wide),
		cmocka_unit_test(test_solve_sets_shells),
		cmocka_unit_test(test_solve_sets_can_fail),
		cmocka_unit_test(test_solve_generated_fast_path_matches),
		cmocka_unit_test(test_solve_limits),
		cmocka_unit_test(test_solve_unsolvable_says_why),
		cmocka_unit_test(test_solve_identical_pieces),
		cmocka_unit_test(test_solve_chiral_pin),
		cmocka_unit_test(test_solve_regress_symmetric_pinned_plates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
