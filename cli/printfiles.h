/*
 * printfiles.h: the printable files of a set of pieces (DESIGN.md §3):
 * piece-K.stl and piece-K.scad for each, plate.stl, plate.3mf and
 * puzzle.scad for all of them on one bed. Shared by generate and print.
 */
#ifndef CUBEGEN_PRINTFILES_H
#define CUBEGEN_PRINTFILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/pagefiles.h"
#include "mesh/mesh.h"

/* Gap between pieces on a plate, mm. */
#define PLATE_GAP 5.0

/*
 * Write the files for pieces s[0..count-1] (piece K = s[K-1], coloured
 * as in the pictures) into 'od'. 'what' names the set in file headers
 * ("cubegen 5x5x5 seed 7"). Every STL is read back and checked (closed,
 * manifold, oriented, its exact volume) before it counts as written.
 * Prints an error and returns false on the first failure.
 *
 * Colours. rgb is NULL or 'count' arrays, rgb[i] NULL
 * (piece i in draw_colour(i + 1), as in the pictures) or the display
 * colours of piece i's cells, laid out like s[i].cells. A piece whose
 * cells all have one colour is an object of that colour, meshed as
 * without colours; a piece of several is an object of the colour most of
 * its cells have (ties: the one met first), coloured triangle by
 * triangle, and meshed for its STL and the plate too with
 * mesh_build_coloured() (the same solid, other triangles), so that
 * plate.3mf holds exactly the STLs' triangles. The .scad files never
 * change with colours.
 *
 * And the viewer's pages (pagefiles.h): pieces.html always, solution.html
 * when 'answer' is not NULL. With !printables only the pages are
 * written (render), of the same meshes.
 */
bool printfiles_write(struct outdir *od, const struct mesh_spec *s,
                      const uint32_t *const *rgb, size_t count,
                      const struct mesh_size *sz, const char *what,
                      const struct page_answer *answer, bool printables);

/* Write mesh 'm' as binary STL file 'name', then read it back and check it
 * with 'volume' as its exact volume. */
bool printfiles_stl(struct outdir *od, const char *name, const struct mesh *m,
                    const char *header, double volume);

#endif
