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
