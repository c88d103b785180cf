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
 * x), each coming down from above. Owns its arrays. */
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
