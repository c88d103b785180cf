/*
 * pagefiles.h: pieces.html and solution.html (DESIGN.md §3), the 3D
 * viewer's pages, from the meshes the printable files are made of.
 */
#ifndef CUBEGEN_PAGEFILES_H
#define CUBEGEN_PAGEFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "mesh/mesh.h"

/* The answer, for solution.html: where each piece lies in the finished
 * puzzle, and the steps to show. */
struct page_answer {
	const unsigned char *owner; /* dim[0]*dim[1]*dim[2], x fastest: 0, or
	                             * the number 1..count of the piece there */
	int dim[3];
	const unsigned char *wall[3]; /* per axis dim[a] flags, 1 for a wall
	                               * layer (mesh_spec), or NULL: none */
	const struct mesh_page_step *steps; /* indexes: piece number - 1 */
	size_t nsteps;                      /* >= 1 */
};

/* solution.html's answer for any puzzle: its copies where a solution has
 * them, one step each, lowest first (by its lowest cell: z, then y, then
 * x), each shown coming down from above ("Put piece 3 (L) in place.":
 * an order, not a move checked by the disassembler). Owns its arrays. */
struct lowest_answer {
	struct page_answer a;   /* a.nsteps 0: none (more than 255 copies) */
	unsigned char *owner;   /* goal cells: 0 or the copy's number */
	struct mesh_page_step *step;
	size_t *order;          /* copies (their number - 1), lowest first */
	char (*text)[120];
};

/* The steps of 'la' (its owner filled for the goal 'g', 'count' copies,
 * names[i] copy i's piece name). false when out of memory. */
struct grid;
bool lowest_answer_steps(struct lowest_answer *la, const struct grid *g,
                         size_t count, const char *const *names);
void lowest_answer_clear(struct lowest_answer *la);

/* One step of an assembly guide: a disassembly (disasm.h) reversed. A
 * start step puts 'group' (one piece) down; a move brings 'group' in from
 * the side 'dir' points to (dist 0), or slides it dist cells against
 * 'dir'. 'text' is the line for it ("Piece 4 goes in from the back,
 * moving toward you."), pieces numbered from 1. */
struct guide_step {
	char text[480];
	uint64_t group;
	int dir, dist;
	bool start;
};

/* The steps of disassembly 'd' of n pieces into st (room for n +
 * d->nmoves): first the pieces no separation removes, in one start step
 * (one piece, or the pieces of a group, which need not come apart),
 * then the moves from the last to the first. Returns their count. */
struct dis_result;
size_t guide_steps(const struct dis_result *d, size_t n, struct guide_step *st);

/* The side a direction (enum dis_dir) points to, as the guide names it:
 * "right", "left", "back", "front", "top", "bottom". */
const char *guide_side_name(int dir);

/* solution.html's answer from a guide: the pieces where 'owner' (dim
 * cells: 0 or the piece's number) has them, a step per guide step, each
 * group coming in from its side (or sliding its cells of 'unit' mm).
 * Owns its arrays (guide_answer_clear()). */
struct guide_answer {
	struct page_answer a;
	struct guide_step *st;
	struct mesh_page_step *step;
	size_t *shown;  /* per step, the pieces shown: n per step */
	size_t *moving;
	double (*at)[3]; /* where each piece is, per move (guide_places()) */
	int (*apart)[3]; /* where each piece waits once all is apart, whole
	                  * cells from its place (render's exploded picture:
	                  * guide_apart()) */
	size_t npieces;  /* the pieces (a.owner's numbers 1..npieces) */
};

/* false when out of memory (then cleared). */
bool guide_answer_init(struct guide_answer *ga, const struct dis_result *d,
                       size_t n, const unsigned char *owner, const int dim[3],
                       double unit);
void guide_answer_clear(struct guide_answer *ga);

/* The steps solution.html shows for a solution of n copies ('la': its
 * copies lowest first): when it comes apart (disasm.h), the disassembly
 * reversed, set up in 'ga' (slides of 'unit' mm) as generate's block
 * puzzles have it, each group sliding in, part way through a burr's
 * slides where it has them; else la's order. The disassembler keeps at
 * most max_nodes positions: past them, the order only. With 'p' (may be
 * NULL), the puzzle whose copies la numbers in its pieces' order (as
 * printcopies_solved() does), the pieces' weights and groups count as
 * in 'solve --disassemble': a cage of one group need not come apart, the
 * heaviest side stays. *out: the answer to use, NULL when la has none.
 * false when out of memory. */
struct puzzle;
bool page_answer_pick(const struct lowest_answer *la, size_t n,
                      const struct puzzle *p, unsigned max_nodes, double unit,
                      struct guide_answer *ga,
                      const struct page_answer **out);

/* The search that finds the solution the answer pages (and render's
 * solution.png) show: the first that comes apart (solve_opts.disassemble)
 * when one is found within PAGES_APART_NODES search nodes and each part's
 * disassembly within PAGES_DIS_NODES positions; else the first solution
 * found within max_nodes (0: no bound), its progress shown on a terminal
 * ("solving: ..."). solve_puzzle()'s status; r->first NULL when there is
 * none. */
#define PAGES_APART_NODES 5000000u
#define PAGES_DIS_NODES 100000u
struct solve_result;
int pages_solution(const struct puzzle *p, uint64_t max_nodes,
                   struct solve_result *r);

/*
 * pieces.html: the objects of plate.3mf as the plate lays them (m[i] at
 * origin[i], in colour[i], tri[i] NULL or its triangles' colours), titled
 * 'title'. And, when 'a' is not NULL, solution.html: each piece's printed
 * mesh (the solid of spec s[i] at size sz) turned and moved to where the
 * answer puts it, with a's steps. Prints an error and returns false on
 * failure (a piece that no rotation lays on its cells of the answer is
 * the caller's bug and fails too).
 */
bool pagefiles_write(struct outdir *od, const char *title,
                     const struct mesh_spec *s, const struct mesh_size *sz,
                     struct mesh *const *m, const double (*origin)[3],
                     const uint32_t *colour, const uint32_t *const *tri,
                     size_t count, const struct page_answer *a);

#endif
