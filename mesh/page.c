/*
 * page.c: the viewer's HTML pages (mesh.h, DESIGN.md §3): the template of
 * web/page.html with its four markers replaced by the title, the style,
 * the puzzle's data as JSON and the script, all inline, so that the file
 * opens from disk with no network and no other file.
 *
 * The data (web/viewer.js reads it):
 *   {"page": "pieces"|"solution", "title": T,
 *    "pieces": [{"name": N, "colour": [r, g, b], "vertices": [x, y, z, ...],
 *                "triangles": [a, b, c, ...], "tricolours": [rgb, ...]}],
 *    "steps": [{"text": T, "show": [i, ...], "moving": [i, ...],
 *               "from": [x, y, z], "at": [[i, x, y, z], ...]}]}
 * "tricolours" (0xRRGGBB per triangle) only for an object whose triangles
 * have colours of their own; "at" only for a step that leaves a shown
 * piece away from where it is drawn (its entries those pieces); "steps"
 * only on a solution page, so a
 * pieces page holds nothing of the answer. Every '<' in a string is
 * written \u003c, so no "</script>" can end the data early.
 */
#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

struct pout {
	FILE *fp;
	int err;
};

static void put(struct pout *o, const char *s, size_t n)
{
	if (!o->err && n && fwrite(s, 1, n, o->fp) != n)
		o->err = 1;
}

static void puts_(struct pout *o, const char *s)
{
	put(o, s, strlen(s));
}

/* A millimetre figure to 4 decimals, without trailing zeros ("12.5",
 * "0", never "-0"). */
static void num(struct pout *o, double v)
{
	char b[48];
	if (!isfinite(v) || fabs(v) < 0.00005)
		v = 0;
	snprintf(b, sizeof b, "%.4f", v);
	char *e = b + strlen(b);
	while (e > b && e[-1] == '0')
		e--;
	if (e > b && e[-1] == '.')
		e--;
	*e = '\0';
	puts_(o, strcmp(b, "-0") == 0 ? "0" : b);
}

static void json_string(struct pout *o, const char *s)
{
	puts_(o, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char b[8];
		if (c == '"' || c == '\\') {
			b[0] = '\\';
			b[1] = (char)c;
			put(o, b, 2);
		} else if (c < 0x20 || c == '<') {
			snprintf(b, sizeof b, "\\u%04x", c);
			puts_(o, b);
		} else {
			put(o, (const char *)&c, 1);
		}
	}
	puts_(o, "\"");
}

static void html_text(struct pout *o, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': puts_(o, "&amp;"); break;
		case '<': puts_(o, "&lt;"); break;
		case '>': puts_(o, "&gt;"); break;
		case '"': puts_(o, "&quot;"); break;
		default: put(o, s, 1);
		}
}

static void index_list(struct pout *o, const size_t *v, size_t n)
{
	puts_(o, "[");
	for (size_t i = 0; i < n; i++) {
		char b[32];
		snprintf(b, sizeof b, "%s%zu", i ? ", " : "", v[i]);
		puts_(o, b);
	}
	puts_(o, "]");
}

static void piece_json(struct pout *o, const struct mesh_object *ob,
                       const uint32_t *tri)
{
	const struct mesh *m = ob->mesh;
	char b[64];
	puts_(o, "{\"name\": ");
	json_string(o, ob->name ? ob->name : "");
	snprintf(b, sizeof b, ", \"colour\": [%u, %u, %u],\n  \"vertices\": [",
	         (unsigned)(ob->rgb >> 16 & 255), (unsigned)(ob->rgb >> 8 & 255),
	         (unsigned)(ob->rgb & 255));
	puts_(o, b);
	for (size_t i = 0; i < m->nvertices; i++)
		for (int a = 0; a < 3; a++) {
			if (i || a)
				puts_(o, ",");
			num(o, (double)m->vertices[i][a] + ob->origin[a]);
		}
	puts_(o, "],\n  \"triangles\": [");
	for (size_t i = 0; i < m->ntriangles; i++) {
		snprintf(b, sizeof b, "%s%u,%u,%u", i ? "," : "",
		         (unsigned)m->triangles[i][0], (unsigned)m->triangles[i][1],
		         (unsigned)m->triangles[i][2]);
		puts_(o, b);
	}
	puts_(o, "]");
	/* triangle colours only where some differs from the object's */
	bool own = false;
	for (size_t i = 0; tri && i < m->ntriangles && !own; i++)
		own = tri[i] != ob->rgb;
	if (own) {
		puts_(o, ",\n  \"tricolours\": [");
		for (size_t i = 0; i < m->ntriangles; i++) {
			snprintf(b, sizeof b, "%s%lu", i ? "," : "", (unsigned long)tri[i]);
			puts_(o, b);
		}
		puts_(o, "]");
	}
	puts_(o, "}");
}

/* A step's "at": the shown pieces it leaves away from where they are
 * drawn, nothing when there are none. */
static void at_json(struct pout *o, const struct mesh_page_step *s)
{
	bool any = false;
	for (size_t i = 0; s->at && i < s->nshow; i++) {
		const double *v = s->at[s->show[i]];
		if (v[0] == 0 && v[1] == 0 && v[2] == 0)
			continue;
		char b[48];
		snprintf(b, sizeof b, "%s%zu", any ? ", [" : ", \"at\": [[", s->show[i]);
		puts_(o, b);
		any = true;
		for (int a = 0; a < 3; a++) {
			puts_(o, ", ");
			num(o, v[a]);
		}
		puts_(o, "]");
	}
	if (any)
		puts_(o, "]");
}

static void data_json(struct pout *o, const char *title,
                      const struct mesh_object *obj,
                      const uint32_t *const *tri_rgb, size_t count,
                      const struct mesh_page_step *steps, size_t nsteps)
{
	puts_(o, "{\"page\": ");
	puts_(o, nsteps ? "\"solution\"" : "\"pieces\"");
	puts_(o, ", \"title\": ");
	json_string(o, title);
	puts_(o, ",\n\"pieces\": [\n");
	for (size_t i = 0; i < count; i++) {
		piece_json(o, &obj[i], tri_rgb ? tri_rgb[i] : NULL);
		puts_(o, i + 1 < count ? ",\n" : "\n");
	}
	puts_(o, "]");
	if (nsteps) {
		puts_(o, ",\n\"steps\": [\n");
		for (size_t i = 0; i < nsteps; i++) {
			const struct mesh_page_step *s = &steps[i];
			puts_(o, "{\"text\": ");
			json_string(o, s->text ? s->text : "");
			puts_(o, ", \"show\": ");
			index_list(o, s->show, s->nshow);
			puts_(o, ", \"moving\": ");
			index_list(o, s->moving, s->nmoving);
			puts_(o, ", \"from\": [");
			for (int a = 0; a < 3; a++) {
				num(o, s->from[a]);
				if (a < 2)
					puts_(o, ", ");
			}
			puts_(o, "]");
			at_json(o, s);
			puts_(o, i + 1 < nsteps ? "},\n" : "}\n");
		}
		puts_(o, "]");
	}
	puts_(o, "}");
}

static bool valid(const struct mesh_object *obj, const uint32_t *const *tri_rgb,
                  size_t count, const struct mesh_page_step *steps,
                  size_t nsteps)
{
	if (count == 0)
		return false;
	for (size_t i = 0; i < count; i++) {
		if (!obj[i].mesh || obj[i].rgb > 0xFFFFFFu)
			return false;
		for (size_t t = 0; tri_rgb && tri_rgb[i] && t < obj[i].mesh->ntriangles; t++)
			if (tri_rgb[i][t] > 0xFFFFFFu)
				return false;
	}
	for (size_t k = 0; k < nsteps; k++) {
		for (size_t i = 0; i < steps[k].nshow; i++)
			if (steps[k].show[i] >= count)
				return false;
		for (size_t i = 0; i < steps[k].nmoving; i++)
			if (steps[k].moving[i] >= count)
				return false;
	}
	return true;
}

int mesh_write_page(FILE *fp, const char *title, const struct mesh_object *obj,
		    const uint32_t *const *tri_rgb, size_t count,
		    const struct mesh_page_step *steps, size_t nsteps)
{
	assert(fp && title && (obj || count == 0));
	if (!valid(obj, tri_rgb, count, steps, nsteps))
		return MESH_EINVAL;
	static const char *const marker[4] = {
		"<!--CUBEGEN-TITLE-->", "<!--CUBEGEN-CSS-->",
		"<!--CUBEGEN-DATA-->", "<!--CUBEGEN-JS-->"};
	struct pout o = {fp, 0};
	const char *at = cubegen_web_page, *end = at + cubegen_web_page_len;
	while (at < end) {
		/* the next marker of any kind */
		const char *next = end;
		int which = -1;
		for (int k = 0; k < 4; k++) {
			const char *m = strstr(at, marker[k]);
			if (m && m < next) {
				next = m;
				which = k;
			}
		}
		put(&o, at, (size_t)(next - at));
		if (which < 0)
			break;
		at = next + strlen(marker[which]);
		switch (which) {
		case 0: html_text(&o, title); break;
		case 1: put(&o, cubegen_web_css, cubegen_web_css_len); break;
		case 2: data_json(&o, title, obj, tri_rgb, count, steps, nsteps); break;
		case 3: put(&o, cubegen_web_js, cubegen_web_js_len); break;
		}
	}
	if (!o.err && fflush(fp) != 0)
		o.err = 1;
	return o.err ? MESH_EIO : MESH_OK;
}
