/*
 * outputs.c: puzzle.puz, solution.txt, the pieces as STL and OpenSCAD, and
 * the pictures, for one generated puzzle.
 */
#include "cli/outputs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "draw/draw.h"
#include "mesh/mesh.h"
#include "solver/puz.h"

static bool write_puzzle(struct outdir *od, const struct gen_puzzle *g,
                         const struct output_opts *o)
{
	struct puzzle p;
	if (gen_to_puzzle(g, o->seed, &p) != GEN_OK) {
		cli_error("generate: out of memory");
		return false;
	}
	FILE *fp = outdir_fopen(od, "puzzle.puz");
	bool ok = fp != NULL;
	if (ok && puz_write(fp, &p) != PUZ_OK) {
		cli_error("%s/puzzle.puz: cannot write: %s", od->target, strerror(errno));
		fclose(fp);
		ok = false;
	} else if (ok) {
		ok = outdir_fclose(od, fp, "puzzle.puz");
	}
	puz_clear(&p);
	return ok;
}

static bool write_answer(struct outdir *od, const struct gen_puzzle *g)
{
	FILE *fp = outdir_fopen(od, "solution.txt");
	if (!fp)
		return false;
	if (gen_write_answer(fp, g) != GEN_OK) {
		cli_error("%s/solution.txt: cannot write: %s", od->target, strerror(errno));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, "solution.txt");
}

static bool write_png(struct outdir *od, const char *name, int rc,
                      unsigned char *png, size_t len)
{
	if (rc != DRAW_OK) {
		cli_error("%s: cannot draw: %s", name, draw_strerror(rc));
		return false;
	}
	bool ok = outdir_write(od, name, png, len);
	free(png);
	return ok;
}

/* preview.png: the pieces as drawn in puzzle.puz, numbered. */
static bool write_preview(struct outdir *od, const struct gen_puzzle *g,
                          const struct output_opts *o)
{
	const unsigned char *plates[6];
	int label[6], dims[6][2];
	for (int i = 0; i < 6; i++) {
		plates[i] = g->piece[i];
		label[i] = i + 1;
		dims[i][0] = g->pw[i];
		dims[i][1] = g->ph[i];
	}
	char title[96];
	snprintf(title, sizeof title, "cubegen %dx%dx%d seed %llu: the six pieces",
	         g->dim[0], g->dim[1], g->dim[2], (unsigned long long)o->seed);
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_plates(plates, (const int (*)[2])dims, 6, label, title,
	                     &png, &len);
	return write_png(od, "preview.png", rc, png, len);
}

/* solution.png: the net with every piece in place, assembled, exploded. */
static bool write_solution_png(struct outdir *od, const struct gen_puzzle *g,
                               const struct output_opts *o)
{
	const int *dim = g->dim;
	size_t faces = 0, cells = (size_t)dim[0] * dim[1] * dim[2];
	for (int f = 0; f < 6; f++) {
		int w, h;
		gen_face_dims(dim, f, &w, &h);
		faces += (size_t)w * h;
	}
	unsigned char *buf = malloc(faces + cells);
	if (!buf) {
		cli_error("solution.png: out of memory");
		return false;
	}
	const unsigned char *views[6];
	unsigned char *at = buf;
	for (int f = 0; f < 6; f++) {
		int w, h;
		gen_face_dims(dim, f, &w, &h);
		gen_face_view(g, f, at);
		views[f] = at;
		at += (size_t)w * h;
	}
	unsigned char *owner = at;
	gen_piece_grid(g, owner);
	int net[6][2];
	for (int f = 0; f < 6; f++)
		gen_net_pos(f, net[f]);
	char title[96];
	snprintf(title, sizeof title, "cubegen %dx%dx%d seed %llu: answer",
	         dim[0], dim[1], dim[2], (unsigned long long)o->seed);
	unsigned char *png = NULL;
	size_t len = 0;
	int rc = draw_shell_solution(dim, views, (const int (*)[2])net, owner, g->face,
	                             title, &png, &len);
	free(buf);
	return write_png(od, "solution.png", rc, png, len);
}

/* Gap between pieces on plate.stl and in puzzle.scad, mm. */
#define PLATE_GAP 5.0

/* Write mesh 'm' as binary STL file 'name', then read it back and check
 * it (closed, manifold, oriented, exact volume): a bad file is an error,
 * never a silent success. */
static bool write_stl(struct outdir *od, const char *name, const struct mesh *m,
                      const char *header, double volume)
{
	FILE *fp = outdir_fopen(od, name);
	if (!fp)
		return false;
	if (mesh_write_stl(fp, m, header) != MESH_OK) {
		cli_error("%s/%s: cannot write: %s", od->target, name, strerror(errno));
		fclose(fp);
		return false;
	}
	if (!outdir_fclose(od, fp, name))
		return false;
	char path[PATH_MAX];
	outdir_path(od, name, path, sizeof path);
	struct mesh_report rep;
	int rc = mesh_verify_stl(path, volume, &rep);
	if (rc != MESH_OK) {
		cli_error("%s: failed its own check: %s", name,
		          rc == MESH_EBADMESH ? rep.problem : mesh_strerror(rc));
		return false;
	}
	return true;
}

static bool write_scad(struct outdir *od, const char *name, const char *title,
                       const unsigned char *const *cells, const int (*dims)[3],
                       size_t count, const struct output_opts *o)
{
	FILE *fp = outdir_fopen(od, name);
	if (!fp)
		return false;
	int rc = count == 1
	         ? mesh_write_scad(fp, cells[0], dims[0][0], dims[0][1], dims[0][2],
	                           o->unit, o->clearance, title)
	         : mesh_write_scad_plate(fp, cells, dims, count, o->unit,
	                                 o->clearance, PLATE_GAP, title);
	if (rc != MESH_OK) {
		cli_error("%s/%s: cannot write: %s", od->target, name,
		          rc == MESH_EIO ? strerror(errno) : mesh_strerror(rc));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, name);
}

/* piece-K.stl/.scad, plate.stl, puzzle.scad. Each piece lies on z = 0 as
 * drawn: seen from above (+Z, the way a slicer shows the bed, y up) it
 * looks like its drawing, so drawing row y becomes y = ph-1-y. */
static bool write_pieces(struct outdir *od, const struct gen_puzzle *g,
                         const struct output_opts *o)
{
	const int *dim = g->dim;
	size_t nn = 0; /* the largest piece */
	for (int i = 0; i < 6; i++)
		if ((size_t)g->pw[i] * g->ph[i] > nn)
			nn = (size_t)g->pw[i] * g->ph[i];
	unsigned char *buf = malloc(6 * nn);
	if (!buf) {
		cli_error("generate: out of memory");
		return false;
	}
	const unsigned char *cells[6];
	int dims[6][3];
	double volume = 0;
	bool ok = true;
	for (int i = 0; i < 6 && ok; i++) {
		unsigned char *c = buf + i * nn;
		int pw = g->pw[i], ph = g->ph[i];
		for (int y = 0; y < ph; y++)
			memcpy(c + (size_t)(ph - 1 - y) * pw, g->piece[i] + (size_t)y * pw,
			       (size_t)pw);
		cells[i] = c;
		dims[i][0] = pw;
		dims[i][1] = ph;
		dims[i][2] = 1;
		double v = mesh_expected_volume(c, pw, ph, 1, o->unit, o->clearance);
		volume += v;
		struct mesh *m;
		int rc = mesh_from_cells(c, pw, ph, 1, o->unit, o->clearance, &m);
		if (rc != MESH_OK) {
			cli_error("piece %d: cannot mesh: %s", i + 1, mesh_strerror(rc));
			ok = false;
			break;
		}
		char name[32], header[96], title[96];
		snprintf(header, sizeof header, "cubegen %dx%dx%d seed %llu piece %d",
		         dim[0], dim[1], dim[2], (unsigned long long)o->seed, i + 1);
		snprintf(title, sizeof title, "cubegen %dx%dx%d seed %llu, piece %d",
		         dim[0], dim[1], dim[2], (unsigned long long)o->seed, i + 1);
		snprintf(name, sizeof name, "piece-%d.stl", i + 1);
		ok = write_stl(od, name, m, header, v);
		mesh_free(m);
		snprintf(name, sizeof name, "piece-%d.scad", i + 1);
		ok = ok && write_scad(od, name, title, &cells[i],
		                      (const int (*)[3])&dims[i], 1, o);
	}
	if (ok) {
		struct mesh *m;
		int rc = mesh_plate(cells, (const int (*)[3])dims, 6, o->unit,
		                    o->clearance, PLATE_GAP, &m);
		if (rc != MESH_OK) {
			cli_error("plate.stl: cannot mesh: %s", mesh_strerror(rc));
			ok = false;
		} else {
			char header[96], title[96];
			snprintf(header, sizeof header, "cubegen %dx%dx%d seed %llu plate",
			         dim[0], dim[1], dim[2], (unsigned long long)o->seed);
			snprintf(title, sizeof title,
			         "cubegen %dx%dx%d seed %llu, all six pieces", dim[0],
			         dim[1], dim[2], (unsigned long long)o->seed);
			ok = write_stl(od, "plate.stl", m, header, volume) &&
			     write_scad(od, "puzzle.scad", title, cells,
			                (const int (*)[3])dims, 6, o);
			mesh_free(m);
		}
	}
	free(buf);
	return ok;
}

bool outputs_write(struct outdir *od, const struct gen_puzzle *g,
                   const struct output_opts *o)
{
	return write_puzzle(od, g, o) && write_answer(od, g) &&
	       write_pieces(od, g, o) && write_preview(od, g, o) &&
	       write_solution_png(od, g, o);
}
