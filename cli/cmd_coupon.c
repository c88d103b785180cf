/*
 * cmd_coupon.c: 'cubegen coupon': a small test print that finds the
 * clearance a printer needs (DESIGN.md §3, "Clearance test coupon").
 *
 * One pair per clearance: a "tab" piece, two rows of three cells with a
 * finger in the middle of a third row, and a "slot" piece, the same with
 * the middle of its first row missing, so the two fit together into a
 * 3 x 3 square the way two pieces of a puzzle meet along an edge: the
 * finger is a unit wide and a wall deep (its row is a wall layer), the
 * plates a wall thick. Each piece is engraved with the pair's number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/printfiles.h"
#include "draw/draw.h"
#include "mesh/mesh.h"

static const char help[] =
	"usage: cubegen coupon [--clearances LIST] [--unit MM] [--wall MM]\n"
	"                      [--no-labels] [--out DIR] [--force]\n"
	"\n"
	"Write a small test print with one tab-and-slot pair per clearance to\n"
	"try, each piece engraved with its pair's number: coupon.stl and\n"
	"coupon.3mf (all pairs on one bed), coupon-K.scad (pair K), and\n"
	"coupon.txt (number -> clearance). Print it once, try each tab in its\n"
	"slot, and pass the clearance of the pair that slides together snugly\n"
	"as --clearance to 'cubegen generate' and 'cubegen print'.\n"
	"\n"
	"  --clearances LIST  1 to 10 values in mm, comma-separated (default\n"
	"                     0.1,0.15,0.2,0.25,0.3); each below wall/2\n"
	"  --unit MM          width of the finger and the cells (default 10)\n"
	"  --wall MM          thickness of the plates and depth of the finger,\n"
	"                     0 < wall <= unit (default: the unit); use the\n"
	"                     values you will print the puzzle with\n"
	"  --no-labels        do not engrave the numbers\n"
	"  --out DIR          output folder (default out/coupon)\n"
	"  --force            replace DIR if it exists\n"
	"\n"
	"Exit 0 when the files were written, 1 when they could not be, 2 on bad\n"
	"usage.\n";

/* The two pieces of a pair, 3 x 3 cells, x fastest, row y = 0 first. */
static const unsigned char tab_cells[9] = {1, 1, 1, 1, 1, 1, 0, 1, 0};
static const unsigned char slot_cells[9] = {1, 0, 1, 1, 1, 1, 1, 1, 1};
static const unsigned char no_wall[3] = {0, 0, 0};
static const unsigned char tab_rows[3] = {0, 0, 1}, slot_rows[3] = {1, 0, 0};
static const unsigned char thick[1] = {1};

/* Pairs per row of the bed. */
#define COUPON_COLS 5

static bool write_table(struct outdir *od, const struct coupon_args *c)
{
	FILE *fp = outdir_fopen(od, "coupon.txt");
	if (!fp)
		return false;
	fprintf(fp,
	        "# cubegen coupon: unit %g mm, wall %g mm\n"
	        "# Print coupon.stl or coupon.3mf once. Each pair is a tab and a\n"
	        "# slot engraved with the pair's number: try each tab in its slot.\n"
	        "# Pass the clearance of the pair that slides together snugly, with\n"
	        "# no force and no play, as --clearance to generate and print.\n"
	        "pair clearance_mm\n",
	        c->print.unit, c->print.wall);
	for (size_t i = 0; i < c->count; i++)
		fprintf(fp, "%zu %g\n", i + 1, c->clearance[i]);
	return outdir_fclose(od, fp, "coupon.txt");
}

/* coupon-K.scad: pair K alone, parametric like every .scad. */
static bool write_scad(struct outdir *od, const struct mesh_spec *pair,
                       const struct mesh_size *sz, size_t k)
{
	char name[48], title[64];
	snprintf(name, sizeof name, "coupon-%zu.scad", k);
	snprintf(title, sizeof title, "cubegen coupon, pair %zu", k);
	FILE *fp = outdir_fopen(od, name);
	if (!fp)
		return false;
	int rc = mesh_write_scad_plate_spec(fp, pair, 2, sz, PLATE_GAP, title);
	if (rc != MESH_OK) {
		cli_error("%s/%s: cannot write: %s", od->target, name, mesh_strerror(rc));
		fclose(fp);
		return false;
	}
	return outdir_fclose(od, fp, name);
}

static bool write_coupon(struct outdir *od, const struct coupon_args *c)
{
	size_t n = 2 * c->count;
	struct mesh **m = calloc(n, sizeof *m);
	struct mesh_object *obj = calloc(n, sizeof *obj);
	double (*origin)[3] = calloc(n, sizeof *origin);
	char (*names)[48] = calloc(n, sizeof *names);
	char (*labels)[24] = calloc(c->count, sizeof *labels);
	bool ok = m && obj && origin && names && labels;
	if (!ok)
		cli_error("coupon: out of memory");
	double u = c->print.unit, w = c->print.wall, volume = 0;
	/* a pair is 3u wide and two pieces of 2u + w deep, gaps between */
	double pitch_x = 3 * u + PLATE_GAP, piece_y = 2 * u + w + PLATE_GAP;
	for (size_t i = 0; i < c->count && ok; i++) {
		snprintf(labels[i], sizeof labels[i], "%zu", i + 1);
		struct mesh_size sz = {u, w, c->clearance[i]};
		struct mesh_spec pair[2] = {
			{tab_cells, {3, 3, 1}, {no_wall, tab_rows, thick}, NULL},
			{slot_cells, {3, 3, 1}, {no_wall, slot_rows, thick}, NULL},
		};
		for (int k = 0; k < 2 && ok; k++) {
			size_t j = 2 * i + (size_t)k;
			pair[k].label = c->print.labels ? labels[i] : NULL;
			double v = mesh_spec_volume(&pair[k], &sz);
			int rc = mesh_build(&pair[k], &sz, &m[j]);
			if (rc == MESH_OK && v < 0) /* valid, so out of memory */
				rc = MESH_ENOMEM;
			if (rc != MESH_OK) {
				cli_error("coupon: cannot mesh pair %zu: %s", i + 1,
				          mesh_strerror(rc));
				ok = false;
				break;
			}
			volume += v;
			origin[j][0] = (double)(i % COUPON_COLS) * pitch_x;
			origin[j][1] = (double)(i / COUPON_COLS) * 2 * piece_y + k * piece_y;
			snprintf(names[j], sizeof names[j], "pair-%zu-%s", i + 1,
			         k ? "slot" : "tab");
			obj[j] = (struct mesh_object){
				.mesh = m[j], .name = names[j],
				.rgb = draw_colour((int)(i % DRAW_MAX_PIECES) + 1)};
			memcpy(obj[j].origin, origin[j], sizeof obj[j].origin);
		}
		ok = ok && write_scad(od, pair, &sz, i + 1);
	}
	struct mesh *all = NULL;
	if (ok) {
		int rc = mesh_join((const struct mesh *const *)m,
		                   (const double (*)[3])origin, n, &all);
		if (rc != MESH_OK) {
			cli_error("coupon.stl: cannot mesh: %s", mesh_strerror(rc));
			ok = false;
		}
	}
	ok = ok && printfiles_stl(od, "coupon.stl", all, "cubegen coupon", volume);
	if (ok) {
		unsigned char *buf = NULL;
		size_t len = 0;
		int rc = mesh_3mf(obj, n, "cubegen coupon", &buf, &len);
		if (rc != MESH_OK) {
			cli_error("coupon.3mf: cannot write: %s", mesh_strerror(rc));
			ok = false;
		} else {
			ok = outdir_write(od, "coupon.3mf", buf, len);
		}
		free(buf);
	}
	ok = ok && write_table(od, c);
	mesh_free(all);
	for (size_t j = 0; m && j < n; j++)
		mesh_free(m[j]);
	free(m);
	free(obj);
	free(origin);
	free(names);
	free(labels);
	return ok;
}

int cmd_coupon(int argc, char **argv)
{
	struct coupon_args ca;
	switch (args_coupon(argc, argv, &ca)) {
	case ARGS_HELP:
		fputs(help, stdout);
		return CLI_OK;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	const char *out = ca.out ? ca.out : "out/coupon";
	struct outdir od;
	if (!outdir_begin(&od, out, ca.force))
		return CLI_FAIL;
	if (!write_coupon(&od, &ca) || !outdir_commit(&od)) {
		outdir_abort(&od);
		return CLI_FAIL;
	}
	printf("pairs: %zu\nwrote: %.*s/\n", ca.count, cli_dirlen(out), out);
	return CLI_OK;
}
