/*
 * printfiles.c: piece-K.stl/.scad, plate.stl, plate.3mf and puzzle.scad.
 */
#include "cli/printfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw/draw.h"

bool printfiles_stl(struct outdir *od, const char *name, const struct mesh *m,
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

/* A .scad of one piece (count 1) or of the plate. */
static bool write_scad(struct outdir *od, const char *name, const char *title,
                       const struct mesh_spec *s, size_t count,
                       const struct mesh_size *sz)
{
	FILE *fp = outdir_fopen(od, name);
	if (!fp)
		return false;
	int rc = count == 1 ? mesh_write_scad_spec(fp, s, sz, title)
	                    : mesh_write_scad_plate_spec(fp, s, count, sz,
	                                                 PLATE_GAP, title);
	if (rc != MESH_OK) {
		cli_error("%s/%s: cannot write: %s", od->target, name,
		          rc == MESH_EIO ? strerror(errno) : mesh_strerror(rc));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, name);
}

/* plate.3mf: the pieces as separate named, coloured objects where
 * plate.stl has them. */
static bool write_3mf(struct outdir *od, struct mesh *const *m, size_t count,
                      const double (*origin)[3], const char *what)
{
	struct mesh_object *obj = calloc(count, sizeof *obj);
	char (*names)[48] = calloc(count, sizeof *names);
	bool ok = obj && names;
	unsigned char *buf = NULL;
	size_t len = 0;
	int rc = MESH_ENOMEM;
	if (ok) {
		for (size_t i = 0; i < count; i++) {
			snprintf(names[i], sizeof names[i], "piece-%zu", i + 1);
			obj[i].mesh = m[i];
			obj[i].name = names[i];
			obj[i].rgb = draw_colour((int)((i % DRAW_MAX_PIECES) + 1));
			memcpy(obj[i].origin, origin[i], sizeof obj[i].origin);
		}
		rc = mesh_3mf(obj, count, what, &buf, &len);
		ok = rc == MESH_OK;
	}
	if (!ok)
		cli_error("plate.3mf: cannot write: %s", mesh_strerror(rc));
	else
		ok = outdir_write(od, "plate.3mf", buf, len);
	free(buf);
	free(obj);
	free(names);
	return ok;
}

bool printfiles_write(struct outdir *od, const struct mesh_spec *s,
                      size_t count, const struct mesh_size *sz,
                      const char *what)
{
	struct mesh **m = calloc(count, sizeof *m);
	double (*origin)[3] = calloc(count, sizeof *origin);
	if (!m || !origin) {
		free(m);
		free(origin);
		cli_error("%s: out of memory", what);
		return false;
	}
	double volume = 0;
	bool ok = true;
	for (size_t i = 0; i < count && ok; i++) {
		char name[40], header[160], title[160];
		double v = mesh_spec_volume(&s[i], sz);
		volume += v;
		int rc = mesh_build(&s[i], sz, &m[i]);
		if (rc == MESH_OK && v < 0) /* valid, so out of memory */
			rc = MESH_ENOMEM;
		if (rc != MESH_OK) {
			cli_error("piece %zu: cannot mesh: %s", i + 1, mesh_strerror(rc));
			ok = false;
			break;
		}
		snprintf(header, sizeof header, "%s piece %zu", what, i + 1);
		snprintf(title, sizeof title, "%s, piece %zu", what, i + 1);
		snprintf(name, sizeof name, "piece-%zu.stl", i + 1);
		ok = printfiles_stl(od, name, m[i], header, v);
		snprintf(name, sizeof name, "piece-%zu.scad", i + 1);
		ok = ok && write_scad(od, name, title, &s[i], 1, sz);
	}
	if (ok) {
		struct mesh *plate;
		int rc = mesh_build_plate(s, count, sz, PLATE_GAP, &plate, origin);
		if (rc != MESH_OK) {
			cli_error("plate.stl: cannot mesh: %s", mesh_strerror(rc));
			ok = false;
		} else {
			char header[160], title[160];
			snprintf(header, sizeof header, "%s plate", what);
			if (count == 6)
				snprintf(title, sizeof title, "%s, all six pieces", what);
			else
				snprintf(title, sizeof title, "%s, all %zu pieces", what, count);
			ok = printfiles_stl(od, "plate.stl", plate, header, volume) &&
			     write_3mf(od, m, count, (const double (*)[3])origin, what) &&
			     write_scad(od, "puzzle.scad", title, s, count, sz);
			mesh_free(plate);
		}
	}
	for (size_t i = 0; i < count; i++)
		mesh_free(m[i]);
	free(m);
	free(origin);
	return ok;
}
