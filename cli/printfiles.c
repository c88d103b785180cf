/*
 * printfiles.c: piece-K.stl/.scad, plate.stl, plate.3mf and puzzle.scad.
 *
 * Cell colours reach plate.3mf, and the triangles: a piece of several
 * colours is meshed with mesh_build_coloured() (the same solid, faces
 * merged only within a colour, so each triangle has one colour), and
 * that one mesh is its STL, its part of plate.stl and its 3MF object, so
 * the 3MF still holds exactly the STLs' triangles. A piece of one colour
 * is meshed as without colours, byte for byte. The .scad files are made
 * from the cells alone.
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

/*
 * The colour of piece 'i' for its 3MF object into '*colour': the one most
 * of its cells have (ties: the one met first in cell order); *several
 * says whether its cells have more than one. Without rgb, draw_colour(),
 * as the pictures. false when out of memory.
 */
static bool piece_colour(const struct mesh_spec *s, const uint32_t *rgb,
                         size_t i, uint32_t *colour, bool *several)
{
	*several = false;
	if (!rgb) {
		*colour = draw_colour((int)((i % DRAW_MAX_PIECES) + 1));
		return true;
	}
	size_t n = (size_t)s->dims[0] * s->dims[1] * s->dims[2], first = n;
	for (size_t j = 0; j < n; j++)
		if (s->cells[j]) {
			if (first == n)
				first = j;
			else if (rgb[j] != rgb[first])
				*several = true;
		}
	*colour = first < n ? rgb[first] : 0;
	if (!*several)
		return true;
	/* The distinct colours in the order met, each with its count: a
	 * piece has few (a puzzle has 26 and its pieces' numbers). */
	struct tally { uint32_t rgb; size_t n; } *t = malloc(n * sizeof *t);
	size_t nt = 0, best = 0;
	if (!t)
		return false;
	for (size_t j = first; j < n; j++) {
		if (!s->cells[j])
			continue;
		size_t k = 0;
		while (k < nt && t[k].rgb != rgb[j])
			k++;
		if (k == nt)
			t[nt++] = (struct tally){rgb[j], 0};
		t[k].n++;
	}
	for (size_t k = 1; k < nt; k++)
		if (t[k].n > t[best].n)
			best = k;
	*colour = t[best].rgb;
	free(t);
	return true;
}

/* plate.3mf: the pieces as separate named, coloured objects where
 * plate.stl has them: m[i] the meshes of the STLs, colour[i] their
 * objects' colours, tri[i] NULL or their triangles' colours. */
static bool write_3mf(struct outdir *od, struct mesh *const *m,
                      const uint32_t *colour, const uint32_t *const *tri,
                      size_t count, const double (*origin)[3], const char *what)
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
			obj[i].rgb = colour[i];
			memcpy(obj[i].origin, origin[i], sizeof obj[i].origin);
		}
		rc = tri ? mesh_3mf_coloured(obj, tri, count, what, &buf, &len)
		         : mesh_3mf(obj, count, what, &buf, &len);
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

/* What printfiles_write() keeps per piece. */
struct pieces {
	struct mesh **m;         /* the meshes */
	double (*origin)[3];     /* where the plate put them */
	uint32_t *colour;        /* their objects' colours */
	const uint32_t **several; /* rgb[i] for a piece of several colours,
	                           * else NULL (NULL without colours) */
	uint32_t **tri;          /* its triangles' colours, likewise */
};

static void pieces_free(struct pieces *p, size_t count)
{
	for (size_t i = 0; p->m && i < count; i++)
		mesh_free(p->m[i]);
	for (size_t i = 0; p->tri && i < count; i++)
		free(p->tri[i]);
	free(p->m);
	free(p->origin);
	free(p->colour);
	free((void *)p->several);
	free(p->tri);
}

bool printfiles_write(struct outdir *od, const struct mesh_spec *s,
                      const uint32_t *const *rgb, size_t count,
                      const struct mesh_size *sz, const char *what,
                      const struct page_answer *answer, bool printables)
{
	struct pieces p = {
		.m = calloc(count, sizeof *p.m),
		.origin = calloc(count, sizeof *p.origin),
		.colour = calloc(count, sizeof *p.colour),
		.several = rgb ? calloc(count, sizeof *p.several) : NULL,
		.tri = rgb ? calloc(count, sizeof *p.tri) : NULL,
	};
	if (!p.m || !p.origin || !p.colour || (rgb && (!p.several || !p.tri))) {
		pieces_free(&p, count);
		cli_error("%s: out of memory", what);
		return false;
	}
	double volume = 0;
	bool ok = true;
	for (size_t i = 0; i < count && ok; i++) {
		char name[40], header[160], title[160];
		double v = mesh_spec_volume(&s[i], sz);
		bool several;
		volume += v;
		int rc = piece_colour(&s[i], rgb ? rgb[i] : NULL, i, &p.colour[i],
		                      &several) ? MESH_OK : MESH_ENOMEM;
		if (rc == MESH_OK && several) {
			/* faces merged only within a colour, in the STL too, so
			 * that it holds the 3MF object's triangles */
			p.several[i] = rgb[i];
			rc = mesh_build_coloured(&s[i], rgb[i], sz, &p.m[i], &p.tri[i]);
		} else if (rc == MESH_OK) {
			rc = mesh_build(&s[i], sz, &p.m[i]);
		}
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
		ok = !printables || printfiles_stl(od, name, p.m[i], header, v);
		snprintf(name, sizeof name, "piece-%zu.scad", i + 1);
		ok = ok && (!printables || write_scad(od, name, title, &s[i], 1, sz));
	}
	if (ok) {
		struct mesh *plate;
		int rc = mesh_build_plate_coloured(s, p.several, count, sz, PLATE_GAP,
		                                   &plate, p.origin);
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
			ok = (!printables ||
			      (printfiles_stl(od, "plate.stl", plate, header, volume) &&
			       write_3mf(od, p.m, p.colour, (const uint32_t *const *)p.tri,
			                 count, (const double (*)[3])p.origin, what) &&
			       write_scad(od, "puzzle.scad", title, s, count, sz))) &&
			     pagefiles_write(od, what, s, sz, p.m,
			                     (const double (*)[3])p.origin, p.colour,
			                     (const uint32_t *const *)p.tri, count, answer);
			mesh_free(plate);
		}
	}
	pieces_free(&p, count);
	return ok;
}
