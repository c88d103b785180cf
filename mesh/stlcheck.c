/*
 * stlcheck.c: the product's STL checks: exact ones of our own, then
 * libadmesh's. The only file that includes admesh's <stl.h>, which
 * defines unprefixed macros (ABS, STL_MAX, HEADER_SIZE...) and the
 * enumerators binary/ascii/inmemory.
 *
 * Why both. admesh matches edges by exact float equality but pairs them
 * greedily, so it reports an edge used by four triangles as two clean
 * pairs; it compares vertices bit by bit, so -0.0 and +0.0 are different
 * vertices to it (and to some slicers) while equal to others. PrusaSlicer
 * silently "repairs" open or T-junctioned meshes into different solids and
 * crashes on NaN. So the exact checks run first, on the coordinates as
 * stored: vertices are identified by value (after refusing NaN, infinity
 * and -0.0, value equality is bit equality), edges are counted, not
 * paired, and the triangles around each vertex must form one fan. Then
 * admesh, given the very same facets in memory (not re-reading the file:
 * its ASCII/binary guess looks for bytes > 127 and would misread small
 * files with zero normals, and it prints to stderr on errors), must agree:
 * every facet connected on all 3 edges, nothing to fix, same volume.
 *
 * Workload: a handful of files of up to ~10^5 facets per run; sorting
 * (O(n log n)) keeps every check fast without hash tables.
 */
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

#include <admesh/stl.h>

static void report(struct mesh_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void report(struct mesh_report *rep, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(rep->problem, sizeof rep->problem, fmt, ap);
	va_end(ap);
}

/* ---- sorting helpers ------------------------------------------------------ */

struct corner {
	uint32_t key[3]; /* float bits of x, y, z */
	size_t at;       /* facet * 3 + corner */
};

static int corner_cmp(const void *pa, const void *pb)
{
	const struct corner *a = pa, *b = pb;
	for (int k = 0; k < 3; k++)
		if (a->key[k] != b->key[k])
			return a->key[k] < b->key[k] ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

struct edge {
	uint32_t lo, hi; /* vertex ids, lo < hi */
	uint32_t from;   /* the direction used: from -> other */
	size_t facet;
};

static int edge_cmp(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return (a->facet > b->facet) - (a->facet < b->facet);
}

/* The corner of a triangle at vertex v: it turns from 'from' to 'to'. */
struct wedge {
	uint32_t v, from, to;
};

static int wedge_cmp(const void *pa, const void *pb)
{
	const struct wedge *a = pa, *b = pb;
	if (a->v != b->v)
		return a->v < b->v ? -1 : 1;
	return (a->from > b->from) - (a->from < b->from);
}

/* ---- exact checks ------------------------------------------------------------ */

struct exact {
	const struct mesh_stl *s;
	uint32_t (*tri)[3];  /* vertex ids per facet */
	float (*pos)[3];     /* per vertex id */
	size_t nverts;
	double area, rmax;   /* surface area, largest |coordinate| */
};

static const float *vtx(const struct mesh_stl *s, size_t f, int j)
{
	return &s->facets[f][3 + 3 * j];
}

static void cross3(const double u[3], const double v[3], double w[3])
{
	w[0] = u[1] * v[2] - u[2] * v[1];
	w[1] = u[2] * v[0] - u[0] * v[2];
	w[2] = u[0] * v[1] - u[1] * v[0];
}

static double norm3(const double v[3])
{
	return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

#define P3(p) (double)(p)[0], (double)(p)[1], (double)(p)[2]

/* Values: finite, no -0.0 coordinates; normals finite. */
static int check_values(const struct mesh_stl *s, struct mesh_report *rep)
{
	for (size_t f = 0; f < s->nfacets; f++)
		for (int k = 0; k < 12; k++) {
			float x = s->facets[f][k];
			const char *what = k < 3 ? "normal" : "vertex";
			if (isnan(x)) {
				report(rep, "facet %zu: NaN in its %s", f + 1, what);
				return MESH_EBADMESH;
			}
			if (isinf(x)) {
				report(rep, "facet %zu: infinity in its %s", f + 1, what);
				return MESH_EBADMESH;
			}
			if (k >= 3 && x == 0 && signbit(x)) {
				report(rep, "facet %zu: vertex coordinate -0.0 (a different "
					    "vertex than 0.0 to some tools)", f + 1);
				return MESH_EBADMESH;
			}
		}
	return MESH_OK;
}

/* Identify vertices by value. */
static int number_vertices(struct exact *e)
{
	const struct mesh_stl *s = e->s;
	size_t n = s->nfacets * 3;
	struct corner *c = malloc(n * sizeof *c);
	e->tri = malloc(s->nfacets * sizeof *e->tri);
	if (!c || !e->tri) {
		free(c);
		return MESH_ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		memcpy(c[i].key, vtx(s, i / 3, (int)(i % 3)), sizeof c[i].key);
		c[i].at = i;
	}
	qsort(c, n, sizeof *c, corner_cmp);
	size_t id = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && memcmp(c[i].key, c[i - 1].key, sizeof c[i].key) != 0)
			id++;
		e->tri[c[i].at / 3][c[i].at % 3] = (uint32_t)id;
	}
	e->nverts = n ? id + 1 : 0;
	e->pos = malloc((e->nverts ? e->nverts : 1) * sizeof *e->pos);
	if (!e->pos) {
		free(c);
		return MESH_ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		memcpy(e->pos[e->tri[c[i].at / 3][c[i].at % 3]],
		       vtx(s, c[i].at / 3, (int)(c[i].at % 3)), sizeof *e->pos);
	free(c);
	return MESH_OK;
}

/* No zero-area triangle; stored normals not against the vertex order.
 * Also sums the area and finds the largest coordinate. A triangle counts
 * as zero-area when |cross| <= 1e-12 |e1| |e2|: that is collinear up to
 * the rounding of the double arithmetic (~1e-16), while any float triangle
 * of a real part is many orders above it. */
static int check_facets(struct exact *e, struct mesh_report *rep)
{
	const struct mesh_stl *s = e->s;
	e->area = 0;
	e->rmax = 0;
	for (size_t f = 0; f < s->nfacets; f++) {
		const uint32_t *t = e->tri[f];
		if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) {
			report(rep, "facet %zu: two of its vertices are the same point "
				    "(zero area)", f + 1);
			return MESH_EBADMESH;
		}
		double u[3], v[3], w[3];
		for (int k = 0; k < 3; k++) {
			u[k] = (double)vtx(s, f, 1)[k] - vtx(s, f, 0)[k];
			v[k] = (double)vtx(s, f, 2)[k] - vtx(s, f, 0)[k];
			for (int j = 0; j < 3; j++)
				if (fabs(vtx(s, f, j)[k]) > e->rmax)
					e->rmax = fabs(vtx(s, f, j)[k]);
		}
		cross3(u, v, w);
		double len = norm3(w);
		if (!(len > 1e-12 * norm3(u) * norm3(v))) {
			report(rep, "facet %zu: zero area (its vertices are collinear), "
				    "at (%.6g, %.6g, %.6g)", f + 1, P3(vtx(s, f, 0)));
			return MESH_EBADMESH;
		}
		e->area += len / 2;
		const float *n = s->facets[f];
		if (n[0] * w[0] + n[1] * w[1] + n[2] * w[2] < 0) {
			report(rep, "facet %zu: its stored normal points against its "
				    "vertex order", f + 1);
			return MESH_EBADMESH;
		}
	}
	return MESH_OK;
}

/* If some vertex lies strictly inside edge a-b, report the T-junction. */
static int t_junction(const struct exact *e, uint32_t a, uint32_t b,
		      struct mesh_report *rep)
{
	const float *p = e->pos[a], *q = e->pos[b];
	double d[3], dd = 0;
	for (int k = 0; k < 3; k++) {
		d[k] = (double)q[k] - p[k];
		dd += d[k] * d[k];
	}
	for (size_t v = 0; v < e->nverts; v++) {
		if (v == a || v == b)
			continue;
		double w[3], c[3], t = 0;
		for (int k = 0; k < 3; k++) {
			w[k] = (double)e->pos[v][k] - p[k];
			t += w[k] * d[k];
		}
		cross3(d, w, c);
		if (t > 0 && t < dd && norm3(c) <= 1e-12 * sqrt(dd) * norm3(w)) {
			report(rep, "T-junction: vertex (%.6g, %.6g, %.6g) lies inside "
				    "edge (%.6g, %.6g, %.6g)-(%.6g, %.6g, %.6g)",
			       P3(e->pos[v]), P3(p), P3(q));
			return 1;
		}
	}
	return 0;
}

/* Every edge used by exactly two triangles, in opposite directions. An
 * edge used once is a hole, or a T-junction when a vertex lies inside it
 * (up to 1000 open edges are searched for one, which bounds the time
 * spent on badly broken files). */
static int check_edges(const struct exact *e, struct mesh_report *rep)
{
	size_t n = e->s->nfacets * 3;
	struct edge *ed = malloc(n * sizeof *ed);
	if (!ed)
		return MESH_ENOMEM;
	for (size_t f = 0; f < e->s->nfacets; f++)
		for (int j = 0; j < 3; j++) {
			uint32_t a = e->tri[f][j], b = e->tri[f][(j + 1) % 3];
			ed[3 * f + (size_t)j] = (struct edge){
				a < b ? a : b, a < b ? b : a, a, f};
		}
	qsort(ed, n, sizeof *ed, edge_cmp);
	int rc = MESH_OK;
	size_t first_open = SIZE_MAX, searched = 0;
	for (size_t i = 0; i < n && rc == MESH_OK;) {
		size_t j = i + 1;
		while (j < n && ed[j].lo == ed[i].lo && ed[j].hi == ed[i].hi)
			j++;
		const float *p = e->pos[ed[i].lo], *q = e->pos[ed[i].hi];
		if (j - i == 1) {
			if (first_open == SIZE_MAX)
				first_open = i;
			if (searched++ < 1000 && t_junction(e, ed[i].lo, ed[i].hi, rep))
				rc = MESH_EBADMESH;
		} else if (j - i > 2) {
			report(rep, "edge (%.6g, %.6g, %.6g)-(%.6g, %.6g, %.6g) is shared by "
				    "%zu triangles (solids touching along an edge?)",
			       P3(p), P3(q), j - i);
			rc = MESH_EBADMESH;
		} else if (ed[i].from == ed[i + 1].from) {
			report(rep, "facets %zu and %zu use edge (%.6g, %.6g, %.6g)-(%.6g, "
				    "%.6g, %.6g) in the same direction: inconsistent "
				    "orientation (a flipped triangle?)",
			       ed[i].facet + 1, ed[i + 1].facet + 1, P3(p), P3(q));
			rc = MESH_EBADMESH;
		}
		i = j;
	}
	if (rc == MESH_OK && first_open != SIZE_MAX) {
		report(rep, "open edge (%.6g, %.6g, %.6g)-(%.6g, %.6g, %.6g): used by "
			    "one triangle, the mesh has a hole",
		       P3(e->pos[ed[first_open].lo]), P3(e->pos[ed[first_open].hi]));
		rc = MESH_EBADMESH;
	}
	free(ed);
	return rc;
}

/* At every vertex the triangles form a single fan. Given check_edges(),
 * at a vertex v each neighbour is the 'from' of exactly one wedge and the
 * 'to' of exactly one, so following from -> to walks closed cycles; more
 * than one cycle means solids (or sheets) meeting only at v. */
static int check_fans(const struct exact *e, struct mesh_report *rep)
{
	size_t n = e->s->nfacets * 3;
	struct wedge *w = malloc(n * sizeof *w);
	unsigned char *seen = calloc(n ? n : 1, 1);
	if (!w || !seen) {
		free(w);
		free(seen);
		return MESH_ENOMEM;
	}
	for (size_t f = 0; f < e->s->nfacets; f++)
		for (int j = 0; j < 3; j++)
			w[3 * f + (size_t)j] = (struct wedge){
				e->tri[f][j], e->tri[f][(j + 1) % 3], e->tri[f][(j + 2) % 3]};
	qsort(w, n, sizeof *w, wedge_cmp);
	int rc = MESH_OK;
	for (size_t i = 0; i < n && rc == MESH_OK;) {
		size_t j = i + 1;
		while (j < n && w[j].v == w[i].v)
			j++;
		size_t cycles = 0;
		for (size_t k = i; k < j && rc == MESH_OK; k++) {
			if (seen[k])
				continue;
			cycles++;
			size_t cur = k;
			while (!seen[cur]) {
				seen[cur] = 1;
				struct wedge key = {w[i].v, w[cur].to, 0};
				const struct wedge *nx = bsearch(&key, w + i, j - i, sizeof *w,
								 wedge_cmp);
				if (!nx) { /* unreachable after check_edges() */
					rc = MESH_EBADMESH;
					break;
				}
				cur = (size_t)(nx - w);
			}
		}
		if (rc == MESH_OK && cycles > 1)
			rc = MESH_EBADMESH;
		if (rc != MESH_OK)
			report(rep, "vertex (%.6g, %.6g, %.6g): its triangles form %zu "
				    "separate fans (solids touching at a corner?)",
			       P3(e->pos[w[i].v]), cycles);
		i = j;
	}
	free(w);
	free(seen);
	return rc;
}

/* Signed volume by the divergence theorem, relative to the first vertex
 * to keep the terms small. Float products are exact in double, so the
 * only error is the double rounding of the sums. */
static double volume(const struct mesh_stl *s)
{
	if (s->nfacets == 0)
		return 0;
	const float *o = vtx(s, 0, 0);
	double sum = 0;
	for (size_t f = 0; f < s->nfacets; f++) {
		double a[3], b[3], c[3], w[3];
		for (int k = 0; k < 3; k++) {
			a[k] = (double)vtx(s, f, 0)[k] - o[k];
			b[k] = (double)vtx(s, f, 1)[k] - o[k];
			c[k] = (double)vtx(s, f, 2)[k] - o[k];
		}
		cross3(b, c, w);
		sum += a[0] * w[0] + a[1] * w[1] + a[2] * w[2];
	}
	return sum / 6;
}

/* ---- admesh ------------------------------------------------------------------- */

/*
 * How far admesh's volume may be from ours: a first-order bound on the
 * float32 rounding in admesh's own arithmetic (get_volume() in util.c),
 * from the actual operands. Per facet admesh computes, in float,
 *   area = n . (v0 x v1 + v1 x v2 + v2 x v0) / 2   (absolute coordinates)
 *   h    = n . (v0 - p0)                            (p0: facet 0's vertex)
 *   volume += area * h / 3.
 * Each rounding is at most eps/2 of its result (eps = FLT_EPSILON), and a
 * result is at most the sum of the absolute values of its operands; so
 * the area is off by at most ~3 eps * Aabs (Aabs: the area computed with
 * all products in absolute value), h by ~3 eps * Habs, the term by
 * (3 eps Aabs |h| + 3 eps |area| Habs)/3 + eps |term|, and each addition
 * by eps/2 of the running sum. The normals admesh uses are recomputed
 * unit vectors, off by a few eps, which the same factors cover. We allow
 * twice the sum of these bounds (about 5e-5 of the volume for an N = 5
 * plate, 1e-3 at N = 64); measured errors stay under 1% of it.
 */
static double admesh_tolerance(const struct mesh_stl *s)
{
	if (s->nfacets == 0)
		return 0;
	const float *o = vtx(s, 0, 0);
	double bound = 0, run = 0;
	for (size_t f = 0; f < s->nfacets; f++) {
		double u[3], v[3], w[3];
		for (int k = 0; k < 3; k++) {
			u[k] = (double)vtx(s, f, 1)[k] - vtx(s, f, 0)[k];
			v[k] = (double)vtx(s, f, 2)[k] - vtx(s, f, 0)[k];
		}
		cross3(u, v, w);
		double len = norm3(w);
		if (!(len > 0))
			continue;
		double n[3] = {w[0] / len, w[1] / len, w[2] / len};
		double area = len / 2, aabs = 0, h = 0, habs = 0;
		for (int k = 0; k < 3; k++) {
			int a = (k + 1) % 3, b = (k + 2) % 3;
			double sum = 0;
			for (int i = 0; i < 3; i++) {
				const float *p = vtx(s, f, i), *q = vtx(s, f, (i + 1) % 3);
				sum += fabs((double)p[a] * q[b]) + fabs((double)p[b] * q[a]);
			}
			aabs += fabs(n[k]) * sum / 2;
			h += n[k] * ((double)vtx(s, f, 0)[k] - o[k]);
			habs += fabs(n[k]) * (fabs(vtx(s, f, 0)[k]) + fabs(o[k]));
		}
		double term = area * h / 3;
		run += term;
		bound += FLT_EPSILON * ((3 * aabs * fabs(h) + 3 * area * habs) / 3 +
					fabs(term) + fabs(run) / 2);
	}
	return 2 * bound;
}

static int admesh_checks(const struct mesh_stl *s, double vol,
			 struct mesh_report *rep)
{
	if (s->nfacets > INT_MAX) {
		report(rep, "too many facets for admesh (%zu)", s->nfacets);
		return MESH_EBADMESH;
	}
	int n = (int)s->nfacets;
	stl_file st;
	memset(&st, 0, sizeof st);
	stl_initialize(&st);
	/* Load the facets the way stl_open() would (count, allocate, read,
	 * per-facet stats), from memory. */
	st.stats.type = inmemory;
	st.stats.number_of_facets = n;
	st.stats.original_num_facets = n;
	st.facet_start = calloc((size_t)n, sizeof *st.facet_start);
	st.neighbors_start = calloc((size_t)n, sizeof *st.neighbors_start);
	st.stats.facets_malloced = n;
	int rc = MESH_OK;
	if (!st.facet_start || !st.neighbors_start) {
		rc = MESH_ENOMEM;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		const float *f = s->facets[i];
		stl_facet *d = &st.facet_start[i];
		d->normal.x = f[0];
		d->normal.y = f[1];
		d->normal.z = f[2];
		for (int j = 0; j < 3; j++) {
			d->vertex[j].x = f[3 + 3 * j];
			d->vertex[j].y = f[4 + 3 * j];
			d->vertex[j].z = f[5 + 3 * j];
		}
		d->extra[0] = d->extra[1] = 0;
		stl_facet_stats(&st, *d, i == 0);
	}

	/* libadmesh 0.98.4 allocates its edge hash here and its normals list
	 * in stl_fix_normal_directions() with unchecked malloc() (perror,
	 * then a NULL dereference): out of memory inside admesh cannot be
	 * returned as MESH_ENOMEM from here. */
	stl_check_facets_exact(&st);
	if (st.error) {
		report(rep, "admesh failed checking the facets");
		rc = MESH_EBADMESH;
		goto out;
	}
	if (st.stats.degenerate_facets != 0) {
		report(rep, "admesh: %d degenerate facets", st.stats.degenerate_facets);
		rc = MESH_EBADMESH;
		goto out;
	}
	if (st.stats.connected_facets_3_edge != st.stats.number_of_facets) {
		report(rep, "admesh: %d of %d facets are not connected on all 3 edges",
		       st.stats.number_of_facets - st.stats.connected_facets_3_edge,
		       st.stats.number_of_facets);
		rc = MESH_EBADMESH;
		goto out;
	}
	/* All connected exactly, so admesh's repair would stop here: its
	 * "nearby" pass and hole filling have nothing to do. */
	stl_fix_normal_directions(&st);
	stl_fix_normal_values(&st); /* recompute normals for the volume */
	stl_verify_neighbors(&st);
	if (st.stats.edges_fixed || st.stats.facets_added ||
	    st.stats.facets_removed || st.stats.facets_reversed ||
	    st.stats.backwards_edges) {
		report(rep, "admesh: %d edges fixed, %d facets added, %d removed, "
			    "%d reversed, %d backwards edges",
		       st.stats.edges_fixed, st.stats.facets_added,
		       st.stats.facets_removed, st.stats.facets_reversed,
		       st.stats.backwards_edges);
		rc = MESH_EBADMESH;
		goto out;
	}
	stl_calculate_volume(&st);
	double tol = admesh_tolerance(s);
	if (!(fabs(st.stats.volume - vol) <= tol)) {
		report(rep, "admesh: volume %.9g mm^3, ours %.9g mm^3 (allowed "
			    "difference %.3g)", (double)st.stats.volume, vol, tol);
		rc = MESH_EBADMESH;
	}
out:
	/* stl_close() frees nothing once st.error is set: free by hand. */
	free(st.facet_start);
	free(st.neighbors_start);
	free(st.v_indices);
	free(st.v_shared);
	return rc;
}

/* ---- the check --------------------------------------------------------------- */

int mesh_verify_stl(const char *path, double expected_volume,
		    struct mesh_report *rep)
{
	assert(path && rep);
	memset(rep, 0, sizeof *rep);
	struct mesh_stl s;
	int rc = mesh_read_stl(path, &s, rep->problem, sizeof rep->problem);
	if (rc != MESH_OK)
		return rc;
	rep->triangles = s.nfacets;

	struct exact e = {.s = &s};
	if (s.nfacets < 4) {
		report(rep, "%zu facets: too few for a closed solid", s.nfacets);
		rc = MESH_EBADMESH;
		goto out;
	}
	if (s.is_binary && strncmp(s.header, "solid", 5) == 0) {
		report(rep, "binary STL whose header starts with \"solid\": some "
			    "readers take it for ASCII");
		rc = MESH_EBADMESH;
		goto out;
	}
	/* Three corners, edges and wedges per facet (24 bytes at most each):
	 * their array sizes must fit in size_t. */
	if (s.nfacets > SIZE_MAX / 3 / sizeof(struct corner) ||
	    s.nfacets > SIZE_MAX / 3 / sizeof(struct edge)) {
		rc = MESH_ENOMEM;
		goto out;
	}
	rc = check_values(&s, rep);
	if (rc != MESH_OK)
		goto out;
	rep->volume = volume(&s);
	if ((rc = number_vertices(&e)) != MESH_OK ||
	    (rc = check_facets(&e, rep)) != MESH_OK ||
	    (rc = check_edges(&e, rep)) != MESH_OK ||
	    (rc = check_fans(&e, rep)) != MESH_OK)
		goto out;
	if (!(rep->volume > 0)) {
		report(rep, "volume %.9g mm^3 is not positive: the mesh is inside out",
		       rep->volume);
		rc = MESH_EBADMESH;
		goto out;
	}
	if (expected_volume >= 0) {
		/* Every coordinate is the float nearest the exact one, off by at
		 * most 2^-24 R; moving faces of total area A that far changes
		 * the volume by at most A R 2^-24 (plus second-order terms);
		 * twice that covers those and the double arithmetic. */
		double tol = e.area * e.rmax * ldexp(1, -23) + 1e-12 * expected_volume;
		if (!(fabs(rep->volume - expected_volume) <= tol)) {
			report(rep, "volume %.9g mm^3, expected %.9g mm^3 (allowed "
				    "difference %.3g)", rep->volume, expected_volume, tol);
			rc = MESH_EBADMESH;
			goto out;
		}
	}
	rc = admesh_checks(&s, rep->volume, rep);
out:
	if (rc == MESH_ENOMEM)
		report(rep, "out of memory checking the file");
	free(e.tri);
	free(e.pos);
	mesh_stl_clear(&s);
	return rc;
}
