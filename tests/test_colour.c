/*
 * test_colour.c: colour puzzles (DESIGN.md §2, §3; issue 14). The solver
 * is compared with tests/colref.c, an independent brute force that knows
 * every colour feature of solver/puzzle.h, on hand-counted puzzles, on
 * hundreds of random colour puzzles and on the nine-colour cube, which is
 * also counted here by a third method of its own.
 *
 * The reference is checked first, without the solver: against
 * tests/brute.c on plain puzzles, against counts derived by hand, against
 * its own self-checks (no assembly twice, H acts on the assemblies, orbit
 * sizes add up), and the cover comparison is shown to be able to fail.
 * The tests that run the solver are separate (test_colour_solver_*).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/solve.h"
#include "tests/brute.h"
#include "tests/colref.h"
#include "tests/testload.h"
#include "tests/randpuz.h"

/* Random colour puzzles compared with the solver (seeds 1..N), and the
 * most assemblies one may have (more are skipped: a few dozen single
 * cells of several colours on a plain goal have hundreds of thousands). */
#define NRANDOM 400
#define RANDOM_LIMIT 20000u

/* ---- puzzles in memory --------------------------------------------------
 *
 * Written here rather than read: cell strings list x fastest, then y, then
 * z, with the characters of a .puz file ('.', '#', 'a'..'z', '+',
 * 'A'..'Z'). */

static void fill_grid(struct grid *g, int nx, int ny, int nz, const char *cells)
{
	assert_int_equal(puz_grid_init(g, nx, ny, nz), PUZ_OK);
	size_t n = (size_t)nx * ny * nz;
	assert_int_equal(strlen(cells), n);
	for (size_t i = 0; i < n; i++) {
		char c = cells[i];
		g->cells[i] = c == '.' ? 0 : c == '#' ? PUZ_CELL
		            : c == '+' ? PUZ_OPTIONAL
		            : c >= 'A' && c <= 'Z'
		            ? (unsigned char)(PUZ_OPTIONAL + 1 + (c - 'A'))
		            : (unsigned char)(PUZ_CELL + 1 + (c - 'a'));
	}
}

static void mk_goal(struct puzzle *p, int nx, int ny, int nz, const char *cells)
{
	memset(p, 0, sizeof *p);
	fill_grid(&p->goal, nx, ny, nz, cells);
}

/* A piece; count_max 0 for exactly 'count'. */
static void mk_piece(struct puzzle *p, const char *name, int nx, int ny, int nz,
                     const char *cells, unsigned count, unsigned count_max)
{
	struct puz_piece *np = realloc(p->pieces, (p->npieces + 1) * sizeof *np);
	assert_non_null(np);
	p->pieces = np;
	struct puz_piece *pc = &p->pieces[p->npieces];
	memset(pc, 0, sizeof *pc);
	snprintf(pc->name, sizeof pc->name, "%s", name);
	fill_grid(&pc->shape, nx, ny, nz, cells);
	pc->count = count;
	pc->count_max = count_max;
	p->npieces++;
}

/* A region over the goal grid: '#' a member. */
static void mk_region(struct puzzle *p, const char *name, const char *cells,
                      bool distinct)
{
	struct puz_region *nr = realloc(p->regions, (p->nregions + 1) * sizeof *nr);
	assert_non_null(nr);
	p->regions = nr;
	struct puz_region *r = &p->regions[p->nregions];
	memset(r, 0, sizeof *r);
	snprintf(r->name, sizeof r->name, "%s", name);
	size_t n = (size_t)p->goal.nx * p->goal.ny * p->goal.nz;
	assert_int_equal(strlen(cells), n);
	r->cells = calloc(n, 1);
	assert_non_null(r->cells);
	for (size_t i = 0; i < n; i++)
		r->cells[i] = cells[i] == '#';
	r->distinct = distinct;
	p->nregions++;
}

static void mk_match(struct puzzle *p, char pc, char gc)
{
	p->has_match = true;
	p->match[pc - 'a' + 1] |= 1u << (gc - 'a' + 1);
}

static char cell_char(unsigned char v)
{
	if (v == 0)
		return '.';
	if (v == PUZ_CELL)
		return '#';
	if (v == PUZ_OPTIONAL)
		return '+';
	if (v > PUZ_CELL && v <= PUZ_CELL + PUZ_NCOLOURS)
		return (char)('a' + (v - PUZ_CELL - 1));
	if (v > PUZ_OPTIONAL && v <= PUZ_OPTIONAL + PUZ_NCOLOURS)
		return (char)('A' + (v - PUZ_OPTIONAL - 1));
	return '?';
}

static void dump_grid(FILE *f, const struct grid *g, const unsigned char *cells)
{
	for (int z = 0; z < g->nz; z++) {
		if (z)
			fputc('\n', f);
		for (int y = 0; y < g->ny; y++) {
			for (int x = 0; x < g->nx; x++) {
				unsigned char v = cells[puz_grid_index(g, x, y, z)];
				fputc(cells == g->cells ? cell_char(v) : v ? '#' : '.', f);
			}
			fputc('\n', f);
		}
	}
}

/* 'p' as a .puz file, for reproducing a failure (formats/ may not write
 * every colour feature yet, so this is written here). */
static void dump_puzzle(FILE *f, const struct puzzle *p)
{
	fprintf(f, "puzzle v1\nname %s\ngoal %d %d %d\n", p->name, p->goal.nx,
	        p->goal.ny, p->goal.nz);
	dump_grid(f, &p->goal, p->goal.cells);
	for (size_t i = 0; i < p->npieces; i++) {
		const struct puz_piece *pc = &p->pieces[i];
		fprintf(f, "piece %s %d %d %d", pc->name, pc->shape.nx, pc->shape.ny,
		        pc->shape.nz);
		if (pc->count_max)
			fprintf(f, " count %u..%u\n", pc->count, pc->count_max);
		else
			fprintf(f, " count %u\n", pc->count);
		dump_grid(f, &pc->shape, pc->shape.cells);
	}
	if (p->has_match)
		for (int a = 1; a <= PUZ_NCOLOURS; a++)
			for (int b = 1; b <= PUZ_NCOLOURS; b++)
				if (p->match[a] >> b & 1u)
					fprintf(f, "match %c %c\n", 'a' + a - 1, 'a' + b - 1);
	for (size_t i = 0; i < p->nregions; i++) {
		fprintf(f, "region %s\n", p->regions[i].name);
		dump_grid(f, &p->goal, p->regions[i].cells);
	}
	for (size_t i = 0; i < p->nregions; i++)
		if (p->regions[i].distinct)
			fprintf(f, "distinct %s\n", p->regions[i].name);
	if (p->distinct_faces)
		fprintf(f, "distinct faces\n");
}

/* ---- the reference against tests/brute.c on plain puzzles ---------------- */

static void test_colour_ref_plain_matches_brute(void **state)
{
	(void)state;
	int solvable = 0, symmetric = 0, mirror = 0;
	for (uint64_t seed = 1; seed <= 300; seed++) {
		struct puzzle p;
		assert_true(randpuz_polycubes(seed, &p) >= 0);
		struct brute_result b;
		struct colref_result c;
		assert_int_equal(brute_count(&p, &b), 0);
		assert_int_equal(colref_count(&p, &c), 0);
		if (b.assemblies != c.assemblies || b.solutions != c.solutions ||
		    b.group_order != c.group_order || b.mirror_closed != c.mirror_closed) {
			dump_puzzle(stderr, &p);
			fail_msg("seed %llu: brute %llu/%llu |G| %d, colref %llu/%llu |G| %d",
			         (unsigned long long)seed,
			         (unsigned long long)b.assemblies,
			         (unsigned long long)b.solutions, b.group_order,
			         (unsigned long long)c.assemblies,
			         (unsigned long long)c.solutions, c.group_order);
		}
		/* no colours: renaming changes nothing */
		assert_int_equal(c.renamed, c.solutions);
		assert_int_equal(c.rename_order, c.group_order);
		solvable += c.assemblies > 0;
		symmetric += c.group_order > 1;
		mirror += c.mirror_closed;
		if (seed <= 60) {
			struct colref_sets s;
			assert_int_equal(colref_sets(&p, 0, &s), 0);
			assert_int_equal(s.counts.solutions, c.solutions);
			colref_sets_clear(&s);
		}
		puz_clear(&p);
	}
	assert_true(solvable >= 250 && symmetric >= 100 && mirror >= 100);
}

/* ---- hand-counted puzzles -------------------------------------------------- */

struct known {
	const char *what;
	uint64_t assemblies, solutions, renamed;
	int group, rename_group; /* |G|, |H| */
};

/* Three dominoes coloured ab in a 3x2x1 box; 'split' gives them as two
 * entries, "ab" count 2 and "ba" turned, count 1 (one type of 3).
 *
 * Tilings of 3x2: T1 three vertical dominoes; T2 one vertical at x = 0
 * and two horizontal; T3 its mirror image. 8 orientations each: 24
 * assemblies. The box's 8 symmetries act on the flat picture as
 * {id, fx, fy, fxy} (z -> -z, allowed as dominoes are mirror-closed, acts
 * trivially). Burnside: fix(id) 24, fx 4 (T1 with c0 = c2), fy 0, fxy 0:
 * 28 / 4 = 7 solutions. Renaming a <-> b reverses every domino; with it
 * s, s.fx, s.fy, s.fxy fix 0, 0, 8 + 4 + 4, 4: (28 + 20) / 8 = 6. */
static void dominoes(struct puzzle *p, bool split)
{
	mk_goal(p, 3, 2, 1, "######");
	snprintf(p->name, sizeof p->name, "dominoes ab%s", split ? " split" : "");
	if (split) {
		mk_piece(p, "ab", 2, 1, 1, "ab", 2, 0);
		mk_piece(p, "ba", 1, 2, 1, "ba", 1, 0);
	} else {
		mk_piece(p, "ab", 2, 1, 1, "ab", 3, 0);
	}
}

/* The hand-counted puzzles, k = 0, 1, ...; false past the last. */
static bool known_puzzle(int k, struct puzzle *p, struct known *e)
{
	switch (k) {
	case 0:
	case 1:
		dominoes(p, k == 1);
		*e = (struct known){"dominoes ab", 24, 7, 6, 8, 16};
		return true;
	case 2:
		/* goal "ab", singles a and b: one assembly. A 2x1x1 box has 16
		 * symmetries (x stays x); 8 keep the colours (x not reversed),
		 * all allowed (single cells are mirror-closed). With a <-> b the
		 * 8 reversing x join: |H| = 16. */
		mk_goal(p, 2, 1, 1, "ab");
		mk_piece(p, "a", 1, 1, 1, "a", 1, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 1, 0);
		*e = (struct known){"goal ab", 1, 1, 1, 8, 16};
		return true;
	case 3:
		/* goal "aa", singles a and b, b may lie on a: ab and ba, one
		 * solution (x reversed); renaming would change the goal. */
		mk_goal(p, 2, 1, 1, "aa");
		mk_piece(p, "a", 1, 1, 1, "a", 1, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 1, 0);
		mk_match(p, 'a', 'a');
		mk_match(p, 'b', 'a');
		*e = (struct known){"match b on a", 2, 1, 1, 16, 16};
		return true;
	case 4:
		/* the same with only 'match a a': b meets only plain cells */
		mk_goal(p, 2, 1, 1, "aa");
		mk_piece(p, "a", 1, 1, 1, "a", 1, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 1, 0);
		mk_match(p, 'a', 'a');
		*e = (struct known){"match a a only", 0, 0, 0, 16, 16};
		return true;
	case 5:
		/* no table: each colour matches only itself */
		mk_goal(p, 2, 1, 1, "aa");
		mk_piece(p, "a", 1, 1, 1, "a", 1, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 1, 0);
		*e = (struct known){"no match table", 0, 0, 0, 16, 16};
		return true;
	case 6:
		/* "#+#", plain singles 2..3: the middle empty or not */
		mk_goal(p, 3, 1, 1, "#+#");
		mk_piece(p, "s", 1, 1, 1, "#", 2, 3);
		*e = (struct known){"optional middle", 2, 2, 2, 16, 16};
		return true;
	case 7:
		/* "#+#", a domino 0..1 and singles 1..2: two singles with the
		 * middle empty; or the domino on the left or the right (one
		 * solution); three singles are too many */
		mk_goal(p, 3, 1, 1, "#+#");
		mk_piece(p, "d", 2, 1, 1, "##", 0, 1);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 2);
		*e = (struct known){"optional and ranges", 3, 2, 2, 16, 16};
		return true;
	case 8:
		/* 2x2x1, two a and two b singles, the row y = 0 distinct: it
		 * holds ab or ba, the other row the rest: 4. Symmetries keeping
		 * that row: x and z signs free, y kept: 4 (2 proper; singles
		 * are mirror-closed). x reversed swaps ab/ab with ba/ba and
		 * ab/ba with ba/ab: 2 solutions; a <-> b does the same on these
		 * four, |H| = 8. */
		mk_goal(p, 2, 2, 1, "####");
		mk_piece(p, "a", 1, 1, 1, "a", 2, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 2, 0);
		mk_region(p, "row", "##..", true);
		*e = (struct known){"distinct row", 4, 2, 2, 4, 8};
		return true;
	case 9:
		/* the whole square distinct: two a in it, impossible; the
		 * group keeps the region, all 16 */
		mk_goal(p, 2, 2, 1, "####");
		mk_piece(p, "a", 1, 1, 1, "a", 2, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 2, 0);
		mk_region(p, "all", "####", true);
		*e = (struct known){"distinct square", 0, 0, 0, 16, 32};
		return true;
	case 10:
		/* a region that is not distinct changes nothing: as case 9
		 * without it, 6 assemblies (the two a cells), the square's
		 * colourings with two a: adjacent (4, one orbit) or diagonal
		 * (2, one orbit) */
		mk_goal(p, 2, 2, 1, "####");
		mk_piece(p, "a", 1, 1, 1, "a", 2, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 2, 0);
		mk_region(p, "row", "##..", false);
		*e = (struct known){"region not distinct", 6, 2, 2, 16, 32};
		return true;
	case 11:
		/* distinct faces on 2x1x1: the y and z layers hold both cells,
		 * so not aa: ab and ba (a 1..2, b 0..1), one solution; a <-> b
		 * is not allowed (ranges differ) */
		mk_goal(p, 2, 1, 1, "##");
		mk_piece(p, "a", 1, 1, 1, "a", 1, 2);
		mk_piece(p, "b", 1, 1, 1, "b", 0, 1);
		p->distinct_faces = true;
		*e = (struct known){"distinct faces 2x1x1", 2, 1, 1, 16, 16};
		return true;
	case 12:
		/* a 2x2x2 cube of four colours, two cells each, distinct faces:
		 * each colour meets every face once, so its two cells are
		 * opposite corners; the 4 colours on the 4 body diagonals: 24
		 * assemblies, which the rotations (S4 on the diagonals) permute
		 * simply transitively: 1 solution. |H| = 48 * 4!. */
		mk_goal(p, 2, 2, 2, "########");
		mk_piece(p, "a", 1, 1, 1, "a", 2, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 2, 0);
		mk_piece(p, "c", 1, 1, 1, "c", 2, 0);
		mk_piece(p, "d", 1, 1, 1, "d", 2, 0);
		p->distinct_faces = true;
		*e = (struct known){"four-colour 2x2x2", 24, 1, 1, 48, 1152};
		return true;
	case 13:
		/* plain pieces on a coloured goal: a plain cell matches
		 * anything; three plain singles on "abb": 1 assembly; |G| 8
		 * (x kept, the colours are not symmetric), no colour of a
		 * piece, so renaming a <-> b would have to keep the goal: no */
		mk_goal(p, 3, 1, 1, "abb");
		mk_piece(p, "s", 1, 1, 1, "#", 3, 0);
		*e = (struct known){"plain pieces, coloured goal", 1, 1, 1, 8, 8};
		return true;
	case 14:
		/* goal "a#b", a domino ab and a plain single: the domino on
		 * x = 0..1 with a on a, or on x = 1..2 with b on b; the single
		 * on the cell left. |G| 8 (x kept). Reversing x and swapping a
		 * and b keeps goal, pieces and (no) table and maps one onto the
		 * other: 2 solutions, 1 renamed. */
		mk_goal(p, 3, 1, 1, "a#b");
		mk_piece(p, "d", 2, 1, 1, "ab", 1, 0);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 0);
		*e = (struct known){"renamed across x", 2, 2, 1, 8, 16};
		return true;
	case 15:
		/* the same with 'match a a', 'match b b', 'match a b': also a
		 * on b, so the domino at x = 1..2 either way round: 3
		 * assemblies. The swap would turn 'a b' into 'b a', not in the
		 * table: no renaming, 3 and 3. */
		mk_goal(p, 3, 1, 1, "a#b");
		mk_piece(p, "d", 2, 1, 1, "ab", 1, 0);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 0);
		mk_match(p, 'a', 'a');
		mk_match(p, 'b', 'b');
		mk_match(p, 'a', 'b');
		*e = (struct known){"match table breaks renaming", 3, 3, 3, 8, 8};
		return true;
	case 16:
		/* and with 'match b a' too the table is symmetric: the domino
		 * either way round on either side, 4 assemblies, 4 solutions,
		 * 2 up to renaming */
		mk_goal(p, 3, 1, 1, "a#b");
		mk_piece(p, "d", 2, 1, 1, "ab", 1, 0);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 0);
		mk_match(p, 'a', 'a');
		mk_match(p, 'b', 'b');
		mk_match(p, 'a', 'b');
		mk_match(p, 'b', 'a');
		*e = (struct known){"symmetric match table", 4, 4, 2, 8, 16};
		return true;
	case 17:
		/* "++", plain singles 1..2: one on either cell (one solution)
		 * or two; never none */
		mk_goal(p, 2, 1, 1, "++");
		mk_piece(p, "s", 1, 1, 1, "#", 1, 2);
		*e = (struct known){"least count", 3, 2, 2, 16, 16};
		return true;
	case 18:
		/* case 12 in a 3x2x2 grid whose layer x = 0 is empty: the faces
		 * are those of the goal's own box (x = 1 is a face), so the
		 * same counts */
		mk_goal(p, 3, 2, 2, ".##.##.##.##");
		mk_piece(p, "a", 1, 1, 1, "a", 2, 0);
		mk_piece(p, "b", 1, 1, 1, "b", 2, 0);
		mk_piece(p, "c", 1, 1, 1, "c", 2, 0);
		mk_piece(p, "d", 1, 1, 1, "d", 2, 0);
		p->distinct_faces = true;
		*e = (struct known){"faces of the goal's box", 24, 1, 1, 48, 1152};
		return true;
	case 19:
		/* "A#A": optional ends of colour a, singles a 0..2 and plain
		 * 1..3. The middle a or plain, each end empty, a or plain: 18,
		 * less the 4 with no plain single (a, a, a has too many a):
		 * 14. x reversed (the box's 16 symmetries all keep the goal)
		 * pairs the ends: plain middle, 9 end pairs, 6 orbits; middle
		 * a, the 5 end pairs with a plain single, 3 orbits: 9. */
		mk_goal(p, 3, 1, 1, "A#A");
		mk_piece(p, "a", 1, 1, 1, "a", 0, 2);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 3);
		*e = (struct known){"optional ends of colour a", 14, 9, 9, 16, 16};
		return true;
	case 20:
		/* "A#B" and the same pieces: a may not lie on B, so that end is
		 * empty or plain. Plain middle 3 x 2; middle a, ends (plain,
		 * empty), (plain, plain), (empty, plain), (a, plain): 10. No
		 * symmetry reverses x (A <-> B, and renaming a <-> b would need
		 * a b single): |G| = |H| = 8. */
		mk_goal(p, 3, 1, 1, "A#B");
		mk_piece(p, "a", 1, 1, 1, "a", 0, 2);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 3);
		*e = (struct known){"optional a and b ends", 10, 10, 10, 8, 8};
		return true;
	case 21:
		/* "A#B", singles a 0..1, b 0..1 and exactly one plain. Plain
		 * middle: each end empty or its colour, 4; middle a: ends
		 * (plain, empty), (plain, b), (empty, plain): 3; middle b
		 * likewise: 10, one per orbit of G (8). x reversed with
		 * a <-> b keeps the puzzle (|H| = 16): the plain middle's 4
		 * make 3 orbits, the a and b middles' 6 make 3: 6. */
		mk_goal(p, 3, 1, 1, "A#B");
		mk_piece(p, "a", 1, 1, 1, "a", 0, 1);
		mk_piece(p, "b", 1, 1, 1, "b", 0, 1);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 0);
		*e = (struct known){"optional ends renamed", 10, 10, 6, 8, 16};
		return true;
	case 22:
		/* "#A", singles a 0..1, b 0..1, exactly one plain, and only
		 * 'match b a': a may not lie on A, b may. Plain first: then
		 * empty or b, 2; a or b first: plain on A, 2. |G| = |H| = 8. */
		mk_goal(p, 2, 1, 1, "#A");
		mk_piece(p, "a", 1, 1, 1, "a", 0, 1);
		mk_piece(p, "b", 1, 1, 1, "b", 0, 1);
		mk_piece(p, "s", 1, 1, 1, "#", 1, 0);
		mk_match(p, 'b', 'a');
		*e = (struct known){"match on an optional cell", 4, 4, 4, 8, 8};
		return true;
	default:
		return false;
	}
}

static void test_colour_ref_known(void **state)
{
	(void)state;
	struct puzzle p;
	struct known e;
	for (int k = 0; known_puzzle(k, &p, &e); k++) {
		struct colref_sets s;
		int rc = colref_sets(&p, 0, &s);
		if (rc != 0)
			fail_msg("%s: colref_sets %d", e.what, rc);
		const struct colref_result *c = &s.counts;
		if (c->assemblies != e.assemblies || c->solutions != e.solutions ||
		    c->renamed != e.renamed || c->group_order != e.group ||
		    c->rename_order != e.rename_group)
			fail_msg("%s: %llu assemblies %llu solutions %llu renamed "
			         "|G| %d |H| %d; by hand %llu %llu %llu %d %d", e.what,
			         (unsigned long long)c->assemblies,
			         (unsigned long long)c->solutions,
			         (unsigned long long)c->renamed, c->group_order,
			         c->rename_order, (unsigned long long)e.assemblies,
			         (unsigned long long)e.solutions,
			         (unsigned long long)e.renamed, e.group, e.rename_group);
		colref_sets_clear(&s);
		puz_clear(&p);
	}
}

/* ---- the reference on random colour puzzles -------------------------------- */

static void test_colour_ref_random_self_checks(void **state)
{
	(void)state;
	int solvable = 0, changed = 0, optional = 0, copt = 0, copt_match = 0,
	    copt_renamed = 0, ranged = 0,
	    matched = 0, regions = 0, faces = 0, renamed = 0, exact = 0,
	    several = 0, chiral = 0, counted = 0, skipped = 0;
	for (uint64_t seed = 1; seed <= 2 * NRANDOM; seed++) {
		struct puzzle p;
		int made = colref_random(seed, &p);
		assert_true(made >= 0);
		struct colref_sets s;
		int rc = colref_sets(&p, RANDOM_LIMIT, &s);
		if (rc == COLREF_TOO_MANY) {
			skipped++;
			puz_clear(&p);
			continue;
		}
		if (rc != 0) {
			dump_puzzle(stderr, &p);
			fail_msg("seed %llu: colref_sets %d", (unsigned long long)seed, rc);
		}
		const struct colref_result *c = &s.counts;
		if (made == 0 && c->assemblies == 0) {
			dump_puzzle(stderr, &p);
			fail_msg("seed %llu: the cut it was made from is no assembly",
			         (unsigned long long)seed);
		}
		solvable += c->assemblies > 0;
		changed += made == 1;
		several += c->solutions > 1;
		renamed += c->renamed < c->solutions;
		exact += c->exact && c->assemblies > 0;
		chiral += !c->mirror_closed;
		bool opt = false, col_opt = false, rng = false, cnt = false;
		size_t total = (size_t)p.goal.nx * p.goal.ny * p.goal.nz;
		for (size_t i = 0; i < total; i++) {
			opt |= puz_cell_optional(p.goal.cells[i]);
			col_opt |= puz_cell_optional(p.goal.cells[i]) &&
			           puz_cell_colour(p.goal.cells[i]) != 0;
		}
		for (size_t i = 0; i < p.npieces; i++) {
			rng |= p.pieces[i].count_max != 0;
			cnt |= p.pieces[i].count > 1;
		}
		optional += opt && c->assemblies > 0;
		copt += col_opt && c->assemblies > 0;
		copt_match += col_opt && p.has_match && c->assemblies > 0;
		copt_renamed += col_opt && c->renamed < c->solutions;
		ranged += rng && c->assemblies > 0;
		counted += cnt && c->assemblies > 0;
		matched += p.has_match && c->assemblies > 0;
		bool dist = false;
		for (size_t i = 0; i < p.nregions; i++)
			dist |= p.regions[i].distinct;
		regions += dist && c->assemblies > 0;
		faces += p.distinct_faces && c->assemblies > 0;
		colref_sets_clear(&s);
		puz_clear(&p);
	}
	print_message("    %d puzzles (%d more skipped, over %u assemblies): %d "
	              "solvable, %d changed after the cut, %d with several "
	              "solutions, %d where renaming merges some, %d exact; "
	              "solvable with optional cells %d (coloured %d: %d with a "
	              "match table, %d where renaming merges some), ranges "
	              "%d, counts %d, a match table %d, distinct regions %d, "
	              "faces %d; %d not mirror-closed\n", 2 * NRANDOM - skipped,
	              skipped, RANDOM_LIMIT, solvable, changed, several, renamed,
	              exact, optional, copt, copt_match, copt_renamed, ranged, counted, matched, regions,
	              faces, chiral);
	/* the sample keeps exercising every feature */
	assert_true(skipped <= 2 * NRANDOM / 20);
	assert_true(solvable >= 2 * NRANDOM * 3 / 4);
	assert_true(solvable < 2 * NRANDOM);
	assert_true(several >= 100 && renamed >= 30 && exact >= 200);
	assert_true(optional >= 100 && ranged >= 60 && counted >= 60);
	assert_true(copt >= 100 && copt_match >= 30 && copt_renamed >= 8);
	assert_true(matched >= 80 && regions >= 80 && faces >= 30);
	assert_true(chiral >= 10);
}

/* ---- comparing reported covers with the reference ------------------------- */

/* What one run reported through on_cover, as forms of the reference. */
struct seen {
	struct colref *ref;
	struct brute_forms raw;     /* multiset: one per cover */
	struct brute_forms gf, hf;  /* sets of canonical forms (exact only) */
	uint32_t *r, *g, *h;         /* scratch */
	uint64_t covers, bad;
	bool nulls, colours;         /* colours == NULL seen, or not */
	bool tampered;               /* 'tamper' changed a cover */
	/* when set, applied to a copy of each cover (tests that can fail) */
	void (*tamper)(struct seen *s, unsigned char *labels,
	               unsigned char *colours);
	unsigned char *lab, *col;    /* goal-grid copies */
	size_t total;
};

static void seen_init(struct seen *s, const struct puzzle *p)
{
	memset(s, 0, sizeof *s);
	s->ref = colref_new(p);
	assert_non_null(s->ref);
	size_t len = colref_len(s->ref);
	brute_forms_init(&s->raw, len, false);
	brute_forms_init(&s->gf, len, true);
	brute_forms_init(&s->hf, len, true);
	s->r = malloc(len * sizeof *s->r);
	s->g = malloc(len * sizeof *s->g);
	s->h = malloc(len * sizeof *s->h);
	s->total = (size_t)p->goal.nx * p->goal.ny * p->goal.nz;
	s->lab = malloc(s->total);
	s->col = malloc(s->total);
	assert_true(s->r && s->g && s->h && s->lab && s->col);
}

static void seen_clear(struct seen *s)
{
	colref_free(s->ref);
	brute_forms_clear(&s->raw);
	brute_forms_clear(&s->gf);
	brute_forms_clear(&s->hf);
	free(s->r);
	free(s->g);
	free(s->h);
	free(s->lab);
	free(s->col);
	memset(s, 0, sizeof *s);
}

/* on_cover: no cmocka assert here (a longjmp would skip the solver's
 * cleanup); trouble is counted and reported after the run. */
static void seen_cover(void *ctx, const unsigned char *labels,
                       const unsigned char *colours)
{
	struct seen *s = ctx;
	s->covers++;
	s->nulls |= colours == NULL;
	s->colours |= colours != NULL;
	if (s->tamper) {
		memcpy(s->lab, labels, s->total);
		if (colours)
			memcpy(s->col, colours, s->total);
		else
			memset(s->col, 0, s->total);
		s->tamper(s, s->lab, s->col);
		labels = s->lab;
		colours = s->col;
	}
	bool exact = colref_exact(s->ref);
	if (colref_cover(s->ref, labels, colours, s->r, s->g, s->h) != 0 ||
	    brute_forms_add(&s->raw, s->r) != 0 ||
	    (exact && (brute_forms_add(&s->gf, s->g) != 0 ||
	               brute_forms_add(&s->hf, s->h) != 0)))
		s->bad++;
}

static void seen_sort(struct seen *s)
{
	brute_forms_sort(&s->raw);
	brute_forms_sort(&s->gf);
	brute_forms_sort(&s->hf);
}

/* Whether a piece of 'p' has a coloured cell. */
static bool pieces_coloured(const struct puzzle *p)
{
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *g = &p->pieces[i].shape;
		size_t n = (size_t)g->nx * g->ny * g->nz;
		if (puz_piece_max(&p->pieces[i]) == 0)
			continue;
		for (size_t k = 0; k < n; k++)
			if (g->cells[k] > PUZ_CELL)
				return true;
	}
	return false;
}

/*
 * Compare what a run reported ('s', covers made with 'no_pin') with the
 * reference 'b': every cover is an assembly (its raw form is one of the
 * reference's); with no_pin the covers are the assemblies, each exactly
 * once (multisets of raw forms equal); when the puzzle is exact, the
 * covers meet every orbit (below); 'colours' is NULL exactly when no
 * piece has a colour. True when all hold, else false with the first
 * difference in 'why'. (Whether the run counted up to renamings does not
 * change what it must report.)
 */
static bool covers_agree(const struct seen *s, const struct puzzle *p,
                         bool no_pin, const struct colref_sets *b,
                         char *why, size_t whylen)
{
	if (s->bad) {
		snprintf(why, whylen, "%llu reported covers are not label grids of "
		         "the goal", (unsigned long long)s->bad);
		return false;
	}
	bool coloured = pieces_coloured(p);
	if ((coloured && s->nulls) || (!coloured && s->colours)) {
		snprintf(why, whylen, "colours %s, but %s piece has a colour",
		         s->nulls ? "NULL" : "given", coloured ? "a" : "no");
		return false;
	}
	for (size_t i = 0; i < s->raw.n; i++)
		if (!brute_forms_has(&b->assemblies, &s->raw.rec[i * s->raw.len])) {
			snprintf(why, whylen, "cover %zu of %zu is no assembly", i,
			         s->raw.n);
			return false;
		}
	if (no_pin && (s->covers != b->counts.assemblies ||
	               !brute_forms_equal(&s->raw, &b->assemblies))) {
		snprintf(why, whylen, "no_pin: %llu covers for %llu assemblies, %zu "
		         "covers unmatched, %zu assemblies not reported",
		         (unsigned long long)s->covers,
		         (unsigned long long)b->counts.assemblies,
		         brute_forms_missing(&s->raw, &b->assemblies),
		         brute_forms_missing(&b->assemblies, &s->raw));
		return false;
	}
	/* The covers' orbits: a pinned search may report each solution in a
	 * renamed form only (it breaks renamings of interchangeable colours
	 * even when not counting up to them, solve.h), so there the orbits
	 * under H are compared; with no_pin, under G and H both. */
	for (int k = 0; k < 2 && b->counts.exact; k++) {
		bool under_h = k == 0;
		if (!under_h && !no_pin)
			continue;
		const struct brute_forms *got = under_h ? &s->hf : &s->gf;
		const struct brute_forms *want = under_h ? &b->renamed : &b->solutions;
		if (!brute_forms_equal(got, want)) {
			snprintf(why, whylen, "%s: the covers show %zu, the reference "
			         "has %zu; %zu missing", under_h ? "renamed solutions"
			         : "solutions", got->n, want->n,
			         brute_forms_missing(want, got));
			return false;
		}
	}
	return true;
}

/* Feed the reference's own assemblies to 's' as a solver would report
 * them (exact puzzles): every assembly once, in the raw forms' order. */
static void report_reference(struct seen *s, const struct colref_sets *b,
                             bool null_colours)
{
	const struct brute_forms *a = &b->assemblies;
	unsigned char *lab = malloc(s->total), *col = malloc(s->total);
	assert_true(lab && col);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(colref_labels(s->ref, &a->rec[i * a->len], lab, col), 0);
		seen_cover(s, lab, null_colours ? NULL : col);
	}
	free(lab);
	free(col);
	seen_sort(s);
}

/* Tampering for test_colour_compare_can_fail. */

/* In the first cover with a coloured cell, the first such cell takes the
 * next colour. */
static void recolour_first(struct seen *s, unsigned char *lab, unsigned char *col)
{
	(void)lab;
	for (size_t i = 0; i < s->total && !s->tampered; i++)
		if (col[i]) {
			col[i] = (unsigned char)(col[i] % PUZ_NCOLOURS + 1);
			s->tampered = true;
		}
}

static void test_colour_compare_can_fail(void **state)
{
	(void)state;
	char why[256];
	int exact_seen = 0, coloured = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct puzzle p;
		assert_true(colref_random(seed, &p) >= 0);
		struct colref_sets b;
		int rc = colref_sets(&p, RANDOM_LIMIT, &b);
		assert_true(rc == 0 || rc == COLREF_TOO_MANY);
		if (rc != 0 || !b.counts.exact || b.counts.assemblies < 2) {
			colref_sets_clear(&b);
			puz_clear(&p);
			continue;
		}
		exact_seen++;
		bool pc = pieces_coloured(&p);
		/* the reference's own covers agree, pinned or not, either way */
		struct seen s;
		seen_init(&s, &p);
		report_reference(&s, &b, !pc);
		for (int nopin = 0; nopin < 2; nopin++)
			if (!covers_agree(&s, &p, nopin, &b, why, sizeof why)) {
				dump_puzzle(stderr, &p);
				fail_msg("seed %llu: %s", (unsigned long long)seed, why);
			}
		/* one cover lost: caught with no_pin; the last raw dropped */
		s.raw.n--;
		assert_false(covers_agree(&s, &p, true, &b, why, sizeof why));
		s.raw.n++;
		/* one cover twice, another never */
		memcpy(&s.raw.rec[s.raw.len], s.raw.rec, s.raw.len * sizeof *s.raw.rec);
		assert_false(covers_agree(&s, &p, true, &b, why, sizeof why));
		seen_clear(&s);
		/* a cell changes colour: not an assembly */
		if (pc) {
			coloured++;
			seen_init(&s, &p);
			s.tamper = recolour_first;
			report_reference(&s, &b, false);
			if (s.tampered)
				assert_false(covers_agree(&s, &p, false, &b, why,
				                          sizeof why));
			seen_clear(&s);
			/* colours withheld although a piece has some */
			seen_init(&s, &p);
			report_reference(&s, &b, true);
			assert_false(covers_agree(&s, &p, false, &b, why, sizeof why));
			seen_clear(&s);
		}
		/* a solution short on the reference's side */
		seen_init(&s, &p);
		report_reference(&s, &b, !pc);
		b.solutions.n--;
		assert_false(covers_agree(&s, &p, true, &b, why, sizeof why));
		b.solutions.n++;
		b.renamed.n--;
		assert_false(covers_agree(&s, &p, false, &b, why, sizeof why));
		b.renamed.n++;
		seen_clear(&s);
		colref_sets_clear(&b);
		puz_clear(&p);
	}
	assert_true(exact_seen >= 50 && coloured >= 30);
}

/* ---- the nine-colour cube, counted independently ------------------------- */

/*
 * An n x n x n cube (n = 2 or 3) of single cells, k colours of n cells
 * each (k = n^3 / n), with distinct faces: each face has n^2 = k cells,
 * so it shows every colour exactly once, and a colour's n cells meet
 * every face exactly once between them (their face sets are disjoint and
 * cover all six). The cells of one colour are a "class"; an assembly is
 * a partition into such classes with the k colours given to them (k!
 * ways each: pieces of one colour are interchangeable), so
 *   assemblies = partitions * k!;
 *   solutions (the 48 symmetries; single cells are mirror-closed) by
 *   Burnside: g fixes a colouring iff it maps each class onto itself, so
 *   solutions = k! * sum_g P_g / 48, P_g the partitions g fixes class by
 *   class;
 *   renamed solutions = orbits of the partitions under the 48, counted
 *   both by canonical forms and by Burnside (Q_g: partitions g maps onto
 *   themselves as a set of classes).
 */
struct cube_count {
	uint64_t partitions, assemblies, solutions, renamed, renamed_burnside;
};

#define CUBE_MAX 27

struct cube {
	int n, ncell, k;
	int mask[CUBE_MAX];          /* faces of each cell, bits 0..5 */
	int sym[48][CUBE_MAX];       /* cell -> image under symmetry g */
	unsigned char *parts;        /* partitions, ncell class ids each */
	size_t nparts, cap;
	int cls[CUBE_MAX];
};

static void cube_partitions(struct cube *c, int next_class)
{
	int i = 0;
	while (i < c->ncell && c->cls[i] >= 0)
		i++;
	if (i == c->ncell) {
		if (c->nparts == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 64;
			c->parts = realloc(c->parts, c->cap * (size_t)c->ncell);
			assert_non_null(c->parts);
		}
		for (int j = 0; j < c->ncell; j++)
			c->parts[c->nparts * (size_t)c->ncell + (size_t)j] =
				(unsigned char)c->cls[j];
		c->nparts++;
		return;
	}
	/* the class of cell i: i and n - 1 later free cells, face sets
	 * disjoint and covering all six */
	c->cls[i] = next_class;
	if (c->n == 2) {
		for (int j = i + 1; j < c->ncell; j++)
			if (c->cls[j] < 0 && (c->mask[i] | c->mask[j]) == 63 &&
			    !(c->mask[i] & c->mask[j])) {
				c->cls[j] = next_class;
				cube_partitions(c, next_class + 1);
				c->cls[j] = -1;
			}
	} else {
		for (int j = i + 1; j < c->ncell; j++) {
			if (c->cls[j] >= 0 || (c->mask[i] & c->mask[j]))
				continue;
			for (int l = j + 1; l < c->ncell; l++) {
				int m = c->mask[i] | c->mask[j];
				if (c->cls[l] >= 0 || (m & c->mask[l]) || (m | c->mask[l]) != 63)
					continue;
				c->cls[j] = c->cls[l] = next_class;
				cube_partitions(c, next_class + 1);
				c->cls[j] = c->cls[l] = -1;
			}
		}
	}
	c->cls[i] = -1;
}

/* The partition 'part' moved by g, its classes renumbered by first
 * appearance, into 'out'. */
static void cube_image(const struct cube *c, int g, const unsigned char *part,
                       unsigned char *out)
{
	unsigned char moved[CUBE_MAX], id[CUBE_MAX];
	for (int i = 0; i < c->ncell; i++)
		moved[c->sym[g][i]] = part[i];
	memset(id, 0xff, sizeof id);
	unsigned char next = 0;
	for (int i = 0; i < c->ncell; i++) {
		if (id[moved[i]] == 0xff)
			id[moved[i]] = next++;
		out[i] = id[moved[i]];
	}
}

static int cmp_part27(const void *a, const void *b)
{
	return memcmp(a, b, CUBE_MAX);
}

static void cube_count(int n, struct cube_count *out)
{
	struct cube c;
	memset(&c, 0, sizeof c);
	c.n = n;
	c.ncell = n * n * n;
	c.k = c.ncell / n;
	for (int z = 0; z < n; z++)
		for (int y = 0; y < n; y++)
			for (int x = 0; x < n; x++) {
				int v[3] = {x, y, z}, m = 0;
				for (int a = 0; a < 3; a++)
					m |= (v[a] == 0) << (2 * a) | (v[a] == n - 1) << (2 * a + 1);
				c.mask[x + n * (y + n * z)] = m;
			}
	/* the 48 symmetries of the cube as cell maps: coordinate a of the
	 * image is coordinate perm[a] of the cell, reversed when flip bit a */
	static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
	                                {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	for (int g = 0; g < 48; g++)
		for (int i = 0; i < c.ncell; i++) {
			int v[3] = {i % n, i / n % n, i / (n * n)}, w[3];
			for (int a = 0; a < 3; a++) {
				w[a] = v[perms[g / 8][a]];
				if (g >> a & 1)
					w[a] = n - 1 - w[a];
			}
			c.sym[g][i] = w[0] + n * (w[1] + n * w[2]);
		}
	for (int i = 0; i < c.ncell; i++)
		c.cls[i] = -1;
	cube_partitions(&c, 0);

	uint64_t kf = 1;
	for (int i = 2; i <= c.k; i++)
		kf *= (uint64_t)i;
	uint64_t sum_p = 0, sum_q = 0;
	unsigned char *canon = calloc(c.nparts ? c.nparts : 1, CUBE_MAX);
	assert_non_null(canon);
	for (size_t q = 0; q < c.nparts; q++) {
		const unsigned char *part = &c.parts[q * (size_t)c.ncell];
		unsigned char img[CUBE_MAX], *best = &canon[q * CUBE_MAX];
		for (int g = 0; g < 48; g++) {
			/* P_g: every class onto itself (same class id per cell) */
			bool each = true, same;
			for (int i = 0; i < c.ncell && each; i++)
				each = part[c.sym[g][i]] == part[i];
			sum_p += each;
			cube_image(&c, g, part, img);
			same = memcmp(img, part, (size_t)c.ncell) == 0;
			sum_q += same; /* part is renumbered by first appearance */
			if (g == 0 || memcmp(img, best, (size_t)c.ncell) < 0)
				memcpy(best, img, (size_t)c.ncell);
		}
	}
	qsort(canon, c.nparts, CUBE_MAX, cmp_part27);
	uint64_t orbits = 0;
	for (size_t q = 0; q < c.nparts; q++)
		orbits += q == 0 || memcmp(&canon[q * CUBE_MAX],
		                           &canon[(q - 1) * CUBE_MAX], CUBE_MAX) != 0;
	out->partitions = c.nparts;
	out->assemblies = c.nparts * kf;
	assert_int_equal(kf * sum_p % 48, 0);
	out->solutions = kf * sum_p / 48;
	out->renamed = orbits;
	assert_int_equal(sum_q % 48, 0);
	out->renamed_burnside = sum_q / 48;
	free(canon);
	free(c.parts);
}

/* The nine-colour cube: goal a plain 3x3x3 cube with distinct faces,
 * pieces 'a'..'i', single cells of that colour, 3 each (n = 3), or the
 * four-colour 2x2x2 cube (n = 2: 'a'..'d', 2 each). */
static void colour_cube(int n, struct puzzle *p)
{
	char goal[28];
	memset(goal, '#', sizeof goal);
	goal[n * n * n] = '\0';
	mk_goal(p, n, n, n, goal);
	snprintf(p->name, sizeof p->name, "%d-colour cube", n * n);
	for (int c = 0; c < n * n; c++) {
		char name[2] = {(char)('a' + c), '\0'};
		mk_piece(p, name, 1, 1, 1, name, (unsigned)n, 0);
	}
	p->distinct_faces = true;
}

/*
 * The literals below were computed by cube_count() and, separately, by a
 * throwaway Python script (the same enumeration of classes, Burnside over
 * the 48 symmetries for the solutions, canonical forms for the orbits of
 * partitions): 40 partitions of the 27 cells into nine classes (a corner,
 * its opposite corner and the centre; a corner, an edge and a face centre
 * meeting the other faces; three edges), 40 * 9! = 14515200 assemblies;
 * only the identity fixes a partition class by class, so 40 * 9! / 48 =
 * 302400 solutions; 3 up to renaming the colours. The 2x2x2 analogue
 * (also in the hand-counted list, for the reference) has 1 partition
 * (the four body diagonals), 24 assemblies, 1 solution.
 */
static void test_colour_nine_colour_cube_reference(void **state)
{
	(void)state;
	struct cube_count c3, c2;
	cube_count(3, &c3);
	assert_int_equal(c3.partitions, 40);
	assert_int_equal(c3.assemblies, 14515200);
	assert_int_equal(c3.solutions, 302400);
	assert_int_equal(c3.renamed, 3);
	assert_int_equal(c3.renamed_burnside, 3);
	cube_count(2, &c2);
	assert_int_equal(c2.partitions, 1);
	assert_int_equal(c2.assemblies, 24);
	assert_int_equal(c2.solutions, 1);
	assert_int_equal(c2.renamed, 1);
	assert_int_equal(c2.renamed_burnside, 1);
	/* and the 2x2x2 one by the reference, a third method */
	struct puzzle p;
	colour_cube(2, &p);
	struct colref_sets s;
	assert_int_equal(colref_sets(&p, 0, &s), 0);
	assert_int_equal(s.counts.assemblies, c2.assemblies);
	assert_int_equal(s.counts.solutions, c2.solutions);
	assert_int_equal(s.counts.renamed, c2.renamed);
	assert_int_equal(s.counts.group_order, 48);
	colref_sets_clear(&s);
	puz_clear(&p);
}

/* ---- the solver --------------------------------------------------------- */

static const char *way_name(const struct solve_opts *o, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s", o->engine == SOLVE_DLX ? "dlx"
	         : o->engine == SOLVE_BITS ? "bits" : "auto",
	         o->generic ? " generic" : "", o->no_pin ? " no_pin" : "",
	         o->rename_colours ? " rename_colours" : "");
	return buf;
}

/* Solve 'p' with 'o' collecting covers into 's' (set up); false with
 * 'why' when the counts differ from 'b' or the run fails. */
static bool run_agrees(const struct puzzle *p, struct solve_opts o,
                       struct seen *s, const struct colref_sets *b,
                       char *why, size_t whylen)
{
	o.on_cover = seen_cover;
	o.ctx = s;
	struct solve_result r;
	int rc = solve_puzzle(p, &o, &r);
	if (rc != SOLVE_OK) {
		snprintf(why, whylen, "solve_puzzle: %s", solve_strerror(rc));
		return false;
	}
	seen_sort(s);
	const struct colref_result *c = &b->counts;
	uint64_t want = o.rename_colours ? c->renamed : c->solutions;
	bool ok = r.complete && r.assemblies == c->assemblies &&
	          r.solutions == want &&
	          (o.rename_colours || (r.group_order == c->group_order &&
	                                r.mirror_closed == c->mirror_closed));
	if (!ok)
		snprintf(why, whylen, "solver %llu assemblies %llu solutions |G| %d "
		         "mirror %d%s; reference %llu %llu |G| %d mirror %d",
		         (unsigned long long)r.assemblies,
		         (unsigned long long)r.solutions, r.group_order,
		         r.mirror_closed, r.complete ? "" : " (incomplete)",
		         (unsigned long long)c->assemblies, (unsigned long long)want,
		         c->group_order, c->mirror_closed);
	solve_result_clear(&r);
	return ok;
}

/* Run every way in ways[0..n-1] on random colour puzzles (seeds
 * from..to, those 'only' accepts when it is not NULL) and compare counts
 * and, when 'covers', the reported covers. Every puzzle is tried; the
 * first disagreement is printed and the test fails with how many
 * disagreed. Returns how many were compared. */
static int compare_made(const struct solve_opts *ways, size_t n, bool covers,
                        uint64_t from, uint64_t to,
                        int (*make)(uint64_t, struct puzzle *),
                        bool (*only)(const struct puzzle *));

static int compare_seeds(const struct solve_opts *ways, size_t n, bool covers,
                         uint64_t from, uint64_t to,
                         bool (*only)(const struct puzzle *))
{
	return compare_made(ways, n, covers, from, to, colref_random, only);
}

/* compare_seeds() on the puzzles 'make' makes from the seeds. */
static int compare_made(const struct solve_opts *ways, size_t n, bool covers,
                        uint64_t from, uint64_t to,
                        int (*make)(uint64_t, struct puzzle *),
                        bool (*only)(const struct puzzle *))
{
	int bad = 0, tried = 0;
	char first[512] = "";
	for (uint64_t seed = from; seed <= to; seed++) {
		struct puzzle p;
		assert_true(make(seed, &p) >= 0);
		if (only && !only(&p)) {
			puz_clear(&p);
			continue;
		}
		struct colref_sets b;
		int rc = colref_sets(&p, RANDOM_LIMIT, &b);
		assert_true(rc == 0 || rc == COLREF_TOO_MANY);
		if (rc != 0) {
			puz_clear(&p);
			continue;
		}
		bool ok = true;
		char why[256], wn[64];
		for (size_t w = 0; w < n && ok; w++) {
			struct seen s;
			seen_init(&s, &p);
			ok = run_agrees(&p, ways[w], &s, &b, why, sizeof why) &&
			     (!covers || covers_agree(&s, &p, ways[w].no_pin, &b, why,
			                              sizeof why));
			seen_clear(&s);
			if (!ok && !bad) {
				snprintf(first, sizeof first, "seed %llu, %s: %s",
				         (unsigned long long)seed,
				         way_name(&ways[w], wn, sizeof wn), why);
				dump_puzzle(stderr, &p);
			}
		}
		bad += !ok;
		tried++;
		colref_sets_clear(&b);
		puz_clear(&p);
	}
	if (bad)
		fail_msg("%d of %d random colour puzzles disagree; first: %s", bad,
		         tried, first);
	return tried;
}

static void compare_many(const struct solve_opts *ways, size_t n, bool covers,
                         int count)
{
	compare_seeds(ways, n, covers, 1, (uint64_t)count, NULL);
}

static void test_colour_solver_counts(void **state)
{
	(void)state;
	static const struct solve_opts ways[] = {
		{0},
		{.generic = true, .engine = SOLVE_DLX},
		{.generic = true, .engine = SOLVE_BITS},
		{.rename_colours = true},
		{.generic = true, .engine = SOLVE_DLX, .rename_colours = true},
	};
	compare_many(ways, sizeof ways / sizeof ways[0], false, NRANDOM);
}

static void test_colour_solver_covers_no_pin(void **state)
{
	(void)state;
	static const struct solve_opts ways[] = {
		{.no_pin = true},
		{.generic = true, .engine = SOLVE_DLX, .no_pin = true},
		{.no_pin = true, .rename_colours = true},
	};
	compare_many(ways, sizeof ways / sizeof ways[0], true, NRANDOM);
}

static void test_colour_solver_covers_pinned(void **state)
{
	(void)state;
	static const struct solve_opts ways[] = {
		{0},
		{.generic = true, .engine = SOLVE_DLX},
		{.rename_colours = true},
	};
	compare_many(ways, sizeof ways / sizeof ways[0], true, NRANDOM);
}

static bool has_coloured_optional(const struct puzzle *p)
{
	size_t n = (size_t)p->goal.nx * p->goal.ny * p->goal.nz;
	for (size_t i = 0; i < n; i++)
		if (puz_cell_optional(p->goal.cells[i]) &&
		    puz_cell_colour(p->goal.cells[i]) != 0)
			return true;
	return false;
}

/* ---- mirror images with ranges of copies ------------------------------ */

static uint64_t mix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9u;
	z = (z ^ z >> 27) * 0x94d049bb133111ebu;
	return z ^ z >> 31;
}

/* Append a piece of 'n' cells at 'xyz' in a 2x2x2 grid or the mirror
 * image (x reversed) of piece 'of' when n == 0, copies lo..hi. */
static int add_piece(struct puzzle *p, const int (*xyz)[3], int n, size_t of,
                     unsigned lo, unsigned hi, const char *name)
{
	struct puz_piece *pc = realloc(p->pieces, (p->npieces + 1) * sizeof *pc);
	if (!pc)
		return -1;
	p->pieces = pc;
	pc = &p->pieces[p->npieces];
	memset(pc, 0, sizeof *pc);
	snprintf(pc->name, sizeof pc->name, "%s", name);
	const struct grid *src = n ? NULL : &p->pieces[of].shape;
	if (puz_grid_init(&pc->shape, src ? src->nx : 2, src ? src->ny : 2,
	                  src ? src->nz : 2) != 0)
		return -1;
	p->npieces++;
	for (int i = 0; i < n; i++)
		pc->shape.cells[puz_grid_index(&pc->shape, xyz[i][0], xyz[i][1],
		                               xyz[i][2])] = PUZ_CELL;
	for (int z = 0; src && z < src->nz; z++)
		for (int y = 0; y < src->ny; y++)
			for (int x = 0; x < src->nx; x++)
				pc->shape.cells[puz_grid_index(&pc->shape, src->nx - 1 - x,
				                               y, z)] =
					src->cells[puz_grid_index(src, x, y, z)];
	pc->count = lo;
	pc->count_max = hi > lo ? hi : 0;
	return 0;
}

/* A plain random puzzle (randpuz_polycubes) given ranges of copies and
 * chiral spares, so that its pieces are often not mirror-closed: a piece
 * now and then allowed one copy more, a chiral tetracube (or its mirror
 * image) allowed 0..1 or 0..2 times, and now and then the mirror image of
 * one of the pieces 0..1 times. */
static int add_spares(uint64_t seed, struct puzzle *p);

static int mirror_ranged_random(uint64_t seed, struct puzzle *p)
{
	int rc = randpuz_polycubes(seed, p);
	return rc < 0 ? rc : add_spares(seed, p);
}

/* The same on a random colour puzzle (colref_random): the spares plain,
 * the mirror image of a piece with its colours. */
static int mirror_ranged_colour(uint64_t seed, struct puzzle *p)
{
	int rc = colref_random(seed, p);
	return rc < 0 ? rc : add_spares(seed, p);
}

static int add_spares(uint64_t seed, struct puzzle *p)
{
	uint64_t st = seed * 0x2545f4914f6cdd1du + 7;
	for (size_t i = 0; i < p->npieces; i++)
		if (mix64(&st) % 3 == 0)
			p->pieces[i].count_max = p->pieces[i].count + 1;
	static const int screw[2][4][3] = {
		{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 1}},
		{{1, 0, 0}, {0, 0, 0}, {1, 1, 0}, {0, 0, 1}},
	};
	uint64_t r = mix64(&st);
	if (r % 4 != 0 &&
	    add_piece(p, screw[r / 4 % 2], 4, 0, 0, 1 + (unsigned)(r / 8 % 2),
	              "screw") != 0)
		return -1;
	if (mix64(&st) % 2 == 0 && p->npieces &&
	    add_piece(p, NULL, 0, (size_t)(mix64(&st) % p->npieces), 0, 1,
	              "mirror") != 0)
		return -1;
	return 0;
}

/* Whether the solver counts improper symmetries for some assemblies of
 * 'p' only (solve_result.mirror_some), with at least one assembly. */
static bool mirror_some(const struct puzzle *p)
{
	struct solve_opts o = {0};
	struct solve_result r;
	if (solve_puzzle(p, &o, &r) != SOLVE_OK)
		return false;
	bool some = r.mirror_some && r.assemblies > 0;
	solve_result_clear(&r);
	return some;
}

/* With ranges of copies and pieces that are not mirror-closed, an
 * improper symmetry counts for an assembly whose mirror image is an
 * assembly too (DESIGN.md §2): the solver (which keeps those symmetries
 * aside from its group and adds them per cover) against the reference
 * (which finds the mirror image's pieces its own way), solution sets
 * included, every engine, pinned or not. */
static void test_colour_mirror_ranges(void **state)
{
	(void)state;
	static const struct solve_opts ways[] = {
		{0},
		{.no_pin = true},
		{.generic = true, .engine = SOLVE_DLX},
		{.generic = true, .engine = SOLVE_BITS},
		{.threads = 2},
	};
	int tried = compare_made(ways, sizeof ways / sizeof ways[0], true, 1,
	                         NRANDOM, mirror_ranged_random, mirror_some);
	print_message("    %d random puzzles whose mirror images count for some "
	              "assemblies only\n", tried);
	assert_true(tried >= 100);
	/* and colour puzzles (the cover's colours go with its mirror image) */
	tried = compare_made(ways, sizeof ways / sizeof ways[0], true, 1,
	                     NRANDOM, mirror_ranged_colour, mirror_some);
	print_message("    %d random colour puzzles likewise\n", tried);
	assert_true(tried >= 20);
}

/* Coloured optional cells: the random puzzles that have them (seeds past
 * those the tests above use too), every way, covers included. That the
 * comparison can fail here: on many of them the reference's count
 * changes when the optional cells lose their colours, so a solver that
 * ignored those colours would disagree. */
static void test_colour_solver_coloured_optional(void **state)
{
	(void)state;
	/* (optional cells keep the bitboards out: every engine is DLX) */
	static const struct solve_opts ways[] = {
		{0},
		{.no_pin = true},
		{.rename_colours = true},
		{.no_pin = true, .rename_colours = true},
	};
	int tried = compare_seeds(ways, sizeof ways / sizeof ways[0], true, 1,
	                          2 * NRANDOM, has_coloured_optional);
	assert_true(tried >= 150);
	int differ = 0, renamed_differ = 0, distinct = 0, matched = 0;
	for (uint64_t seed = 1; seed <= 2 * NRANDOM; seed++) {
		struct puzzle p;
		assert_true(colref_random(seed, &p) >= 0);
		struct colref_result a, b;
		if (!has_coloured_optional(&p) || colref_count(&p, &a) != 0) {
			puz_clear(&p);
			continue;
		}
		bool dist = p.distinct_faces;
		for (size_t i = 0; i < p.nregions; i++)
			dist |= p.regions[i].distinct;
		distinct += dist && a.assemblies > 0;
		matched += p.has_match && a.assemblies > 0;
		size_t n = (size_t)p.goal.nx * p.goal.ny * p.goal.nz;
		for (size_t i = 0; i < n; i++)
			if (puz_cell_optional(p.goal.cells[i]))
				p.goal.cells[i] = PUZ_OPTIONAL;
		assert_int_equal(colref_count(&p, &b), 0);
		differ += a.assemblies != b.assemblies;
		renamed_differ += a.renamed != b.renamed;
		puz_clear(&p);
	}
	print_message("    %d puzzles with coloured optional cells (solvable: %d "
	              "with distinct regions, %d with a match table); plain "
	              "optional cells change %d counts (%d renamed)\n", tried,
	              distinct, matched, differ, renamed_differ);
	assert_true(differ >= 40 && renamed_differ >= 40);
	assert_true(distinct >= 30 && matched >= 30);
}

static void test_colour_solver_known(void **state)
{
	(void)state;
	static const struct solve_opts ways[] = {
		{0},
		{.generic = true, .engine = SOLVE_DLX},
		{.no_pin = true},
		{.rename_colours = true},
		{.generic = true, .engine = SOLVE_DLX, .rename_colours = true},
	};
	struct puzzle p;
	struct known e;
	for (int k = 0; known_puzzle(k, &p, &e); k++) {
		for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
			struct solve_result r;
			char wn[64];
			assert_int_equal(solve_puzzle(&p, &ways[w], &r), SOLVE_OK);
			uint64_t want = ways[w].rename_colours ? e.renamed : e.solutions;
			if (!r.complete || r.assemblies != e.assemblies ||
			    r.solutions != want ||
			    (!ways[w].rename_colours && r.group_order != e.group))
				fail_msg("%s, %s: %llu assemblies %llu solutions |G| %d; "
				         "expected %llu %llu |G| %d", e.what,
				         way_name(&ways[w], wn, sizeof wn),
				         (unsigned long long)r.assemblies,
				         (unsigned long long)r.solutions, r.group_order,
				         (unsigned long long)e.assemblies,
				         (unsigned long long)want, e.group);
			solve_result_clear(&r);
		}
		puz_clear(&p);
	}
}

/* A match table with an entry no cell can meet (the reader refuses it,
 * an importer might not): the whole table must be kept by a renaming, so
 * d and e cannot swap. Once an assertion: the invariants that prune
 * renamings saw the entry and the full check did not. Assemblies: empty,
 * or the de domino either way round; solutions: the two ways are turned
 * into each other, so 2. */
static void test_colour_solver_match_entry_no_cell_meets(void **state)
{
	(void)state;
	struct puzzle p = {.npieces = 1};
	assert_int_equal(puz_grid_init(&p.goal, 2, 1, 1), PUZ_OK);
	p.goal.cells[0] = p.goal.cells[1] = PUZ_OPTIONAL;
	p.pieces = calloc(1, sizeof *p.pieces);
	assert_non_null(p.pieces);
	strcpy(p.pieces[0].name, "D");
	assert_int_equal(puz_grid_init(&p.pieces[0].shape, 1, 1, 2), PUZ_OK);
	p.pieces[0].shape.cells[0] = PUZ_CELL + 4;
	p.pieces[0].shape.cells[1] = PUZ_CELL + 5;
	p.pieces[0].count = 0;
	p.pieces[0].count_max = 1;
	p.has_match = true;
	p.match[4] = 1u << 5;
	for (int rename = 0; rename < 2; rename++) {
		struct solve_opts o = {.rename_colours = rename};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_true(r.complete);
		assert_int_equal(r.assemblies, 3);
		assert_int_equal(r.solutions, 2);
		solve_result_clear(&r);
	}
	puz_clear(&p);
}

/* tests/data/classic/colour-mix.puz, every feature at once (the fault
 * injection runs and cli.sh use it): the solver, with and without
 * renaming, equals the reference. */
static void test_colour_solver_colour_mix_file(void **state)
{
	(void)state;
	struct puzzle p;
	test_load_puzzle("tests/data/classic/colour-mix.puz", &p);
	struct colref_result want;
	assert_int_equal(colref_count(&p, &want), 0);
	assert_int_equal(want.assemblies, 74893);
	for (int rename = 0; rename < 2; rename++) {
		struct solve_opts o = {.rename_colours = rename};
		struct solve_result r;
		assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
		assert_int_equal(r.assemblies, want.assemblies);
		assert_int_equal(r.solutions, rename ? want.renamed : want.solutions);
		solve_result_clear(&r);
	}
	puz_clear(&p);
}

static void test_colour_solver_nine_colour_cube(void **state)
{
	(void)state;
	struct cube_count c;
	cube_count(3, &c);
	struct puzzle p;
	colour_cube(3, &p);
	/* a budget, so a solver that enumerates all 14.5 million assemblies
	 * one by one fails here instead of hanging */
	struct solve_opts o = {.max_nodes = 2000000000u};
	struct solve_result r;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	if (!r.complete || r.assemblies != c.assemblies ||
	    r.solutions != c.solutions || r.group_order != 48)
		fail_msg("nine-colour cube: %llu assemblies %llu solutions |G| %d "
		         "complete %d; expected %llu %llu 48",
		         (unsigned long long)r.assemblies,
		         (unsigned long long)r.solutions, r.group_order, r.complete,
		         (unsigned long long)c.assemblies,
		         (unsigned long long)c.solutions);
	solve_result_clear(&r);
	o.rename_colours = true;
	assert_int_equal(solve_puzzle(&p, &o, &r), SOLVE_OK);
	if (!r.complete || r.assemblies != c.assemblies || r.solutions != c.renamed)
		fail_msg("nine-colour cube, rename_colours: %llu assemblies %llu "
		         "solutions complete %d; expected %llu %llu",
		         (unsigned long long)r.assemblies,
		         (unsigned long long)r.solutions, r.complete,
		         (unsigned long long)c.assemblies,
		         (unsigned long long)c.renamed);
	solve_result_clear(&r);
	puz_clear(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* the reference, on its own */
		cmocka_unit_test(test_colour_ref_plain_matches_brute),
		cmocka_unit_test(test_colour_ref_known),
		cmocka_unit_test(test_colour_ref_random_self_checks),
		cmocka_unit_test(test_colour_compare_can_fail),
		cmocka_unit_test(test_colour_nine_colour_cube_reference),
		/* the solver against it */
		cmocka_unit_test(test_colour_solver_known),
		cmocka_unit_test(test_colour_solver_counts),
		cmocka_unit_test(test_colour_solver_covers_no_pin),
		cmocka_unit_test(test_colour_solver_covers_pinned),
		cmocka_unit_test(test_colour_solver_coloured_optional),
		cmocka_unit_test(test_colour_mirror_ranges),
		cmocka_unit_test(test_colour_solver_match_entry_no_cell_meets),
		cmocka_unit_test(test_colour_solver_colour_mix_file),
		cmocka_unit_test(test_colour_solver_nine_colour_cube),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
