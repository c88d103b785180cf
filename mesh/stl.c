/*
 * stl.c: binary STL out, binary or ASCII STL in.
 *
 * Binary STL: 80 header bytes, u32 facet count, then per facet 12 float32
 * (normal, three vertices) and a u16 attribute: 50 bytes, all
 * little-endian. Writing builds each byte explicitly, so the output is the
 * same on every host; reading decodes the same way. ASCII STL ("solid
 * name / facet normal ... / outer loop / vertex x y z x3 / endloop /
 * endfacet / endsolid") is read so that `cubegen verify` can check files
 * from other tools, such as OpenSCAD's default export.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

#define STL_HEADER 80
#define STL_FACET 50

static void put_u32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v & 0xff);
	p[1] = (unsigned char)(v >> 8 & 0xff);
	p[2] = (unsigned char)(v >> 16 & 0xff);
	p[3] = (unsigned char)(v >> 24 & 0xff);
}

static void put_f32(unsigned char *p, float f)
{
	uint32_t v;
	memcpy(&v, &f, sizeof v); /* float32 is IEEE 754 binary32 (C11 F.2) */
	put_u32(p, v);
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static float get_f32(const unsigned char *p)
{
	uint32_t v = get_u32(p);
	float f;
	memcpy(&f, &v, sizeof f);
	return f;
}

/* Whether 's' starts with "solid" in any case after blanks. */
static int starts_solid(const char *s, size_t n)
{
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	static const char w[] = "solid";
	for (size_t k = 0; k < 5; k++, i++)
		if (i >= n || tolower((unsigned char)s[i]) != w[k])
			return 0;
	return 1;
}

/* The unit normal of a triangle, +0.0 instead of -0.0. */
static void facet_normal(const float *a, const float *b, const float *c,
			 float n[3])
{
	double u[3], v[3], w[3];
	for (int k = 0; k < 3; k++) {
		u[k] = (double)b[k] - a[k];
		v[k] = (double)c[k] - a[k];
	}
	w[0] = u[1] * v[2] - u[2] * v[1];
	w[1] = u[2] * v[0] - u[0] * v[2];
	w[2] = u[0] * v[1] - u[1] * v[0];
	double len = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
	for (int k = 0; k < 3; k++) {
		n[k] = len > 0 ? (float)(w[k] / len) : 0.0f;
		if (n[k] == 0)
			n[k] = 0.0f; /* turns -0.0 into +0.0 */
	}
}

int mesh_write_stl(FILE *fp, const struct mesh *m, const char *header_text)
{
	assert(fp && m);
	if (m->ntriangles > UINT32_MAX)
		return MESH_ERANGE;
	unsigned char head[STL_HEADER + 4];
	memset(head, ' ', STL_HEADER);
	size_t n = 0;
	const char *t = header_text ? header_text : "";
	if (starts_solid(t, strlen(t))) {
		memcpy(head, "STL ", 4);
		n = 4;
	}
	for (; *t && n < STL_HEADER; t++, n++)
		head[n] = (unsigned char)(*t >= 0x20 && *t < 0x7f ? *t : '?');
	put_u32(head + STL_HEADER, (uint32_t)m->ntriangles);
	if (fwrite(head, 1, sizeof head, fp) != sizeof head)
		return MESH_EIO;

	/* 64 facets per fwrite: few calls, a small stack buffer */
	unsigned char buf[64 * STL_FACET];
	size_t used = 0;
	for (size_t i = 0; i < m->ntriangles; i++) {
		const uint32_t *tr = m->triangles[i];
		assert(tr[0] < m->nvertices && tr[1] < m->nvertices &&
		       tr[2] < m->nvertices);
		const float *v[3] = {m->vertices[tr[0]], m->vertices[tr[1]],
				     m->vertices[tr[2]]};
		float nrm[3];
		facet_normal(v[0], v[1], v[2], nrm);
		unsigned char *p = buf + used;
		for (int k = 0; k < 3; k++)
			put_f32(p + 4 * k, nrm[k]);
		for (int j = 0; j < 3; j++)
			for (int k = 0; k < 3; k++)
				put_f32(p + 12 + 12 * j + 4 * k, v[j][k]);
		p[48] = 0;
		p[49] = 0;
		used += STL_FACET;
		if (used == sizeof buf || i + 1 == m->ntriangles) {
			if (fwrite(buf, 1, used, fp) != used)
				return MESH_EIO;
			used = 0;
		}
	}
	if (fflush(fp) != 0)
		return MESH_EIO;
	return MESH_OK;
}

/* ---- reading -------------------------------------------------------------- */

/* Write a sentence into 'problem' (may be NULL). */
static void say(char *problem, size_t psize, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(char *problem, size_t psize, const char *fmt, ...)
{
	if (!problem || psize == 0)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(problem, psize, fmt, ap);
	va_end(ap);
}

/* Read all of 'path' into a NUL-terminated buffer. */
static int slurp(const char *path, unsigned char **data, size_t *size,
		 char *problem, size_t psize)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		int err = errno; /* strerror() and say() may change errno */
		say(problem, psize, "cannot open: %s", strerror(err));
		return err == ENOMEM ? MESH_ENOMEM : MESH_EIO;
	}
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	int rc = buf ? MESH_OK : MESH_ENOMEM;
	while (rc == MESH_OK) {
		if (cap - n < 2) {
			if (cap > SIZE_MAX / 2) {
				rc = MESH_ENOMEM;
				break;
			}
			unsigned char *nb = realloc(buf, cap * 2);
			if (!nb) {
				rc = MESH_ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (got == 0) {
			if (ferror(fp)) {
				say(problem, psize, "cannot read: %s", strerror(errno));
				rc = MESH_EIO;
			}
			break;
		}
	}
	if (fclose(fp) != 0 && rc == MESH_OK) {
		say(problem, psize, "cannot read: %s", strerror(errno));
		rc = MESH_EIO;
	}
	if (rc != MESH_OK) {
		if (rc == MESH_ENOMEM)
			say(problem, psize, "out of memory reading the file");
		free(buf);
		return rc;
	}
	buf[n] = 0;
	*data = buf;
	*size = n;
	return MESH_OK;
}

/* ASCII tokenizer over a NUL-terminated buffer. */
struct lex {
	const char *p;
	size_t line;
};

/* Next white-space separated token into tok (truncated at 63 chars);
 * 0 at the end of the text. */
static int next_token(struct lex *lx, char tok[64])
{
	while (*lx->p && isspace((unsigned char)*lx->p)) {
		if (*lx->p == '\n')
			lx->line++;
		lx->p++;
	}
	if (!*lx->p)
		return 0;
	size_t n = 0;
	while (*lx->p && !isspace((unsigned char)*lx->p)) {
		if (n < 63)
			tok[n++] = *lx->p;
		lx->p++;
	}
	tok[n] = 0;
	return 1;
}

static void skip_line(struct lex *lx)
{
	while (*lx->p && *lx->p != '\n')
		lx->p++;
}

static int word_is(const char *tok, const char *w)
{
	for (; *tok && *w; tok++, w++)
		if (tolower((unsigned char)*tok) != *w)
			return 0;
	return *tok == 0 && *w == 0;
}

static int parse_ascii(const char *text, struct mesh_stl *out, char *problem,
		       size_t psize)
{
	struct lex lx = {text, 1};
	char tok[64];
	float (*f)[12] = NULL;
	size_t n = 0, cap = 0;
	if (!next_token(&lx, tok) || !word_is(tok, "solid"))
		goto bad;
	skip_line(&lx); /* the solid's name */
	for (;;) {
		if (!next_token(&lx, tok))
			goto bad;
		if (word_is(tok, "endsolid"))
			break;
		if (!word_is(tok, "facet") || !next_token(&lx, tok) ||
		    !word_is(tok, "normal"))
			goto bad;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			if (ncap > SIZE_MAX / sizeof *f) {
				free(f);
				say(problem, psize, "out of memory reading the file");
				return MESH_ENOMEM;
			}
			void *nf = realloc(f, ncap * sizeof *f);
			if (!nf) {
				free(f);
				say(problem, psize, "out of memory reading the file");
				return MESH_ENOMEM;
			}
			f = nf;
			cap = ncap;
		}
		for (int k = 0; k < 12; k++) {
			if (k == 3) {
				if (!next_token(&lx, tok) || !word_is(tok, "outer") ||
				    !next_token(&lx, tok) || !word_is(tok, "loop"))
					goto bad;
			}
			if (k >= 3 && k % 3 == 0)
				if (!next_token(&lx, tok) || !word_is(tok, "vertex"))
					goto bad;
			if (!next_token(&lx, tok))
				goto bad;
			char *end;
			f[n][k] = strtof(tok, &end);
			if (end == tok || *end)
				goto bad;
		}
		if (!next_token(&lx, tok) || !word_is(tok, "endloop") ||
		    !next_token(&lx, tok) || !word_is(tok, "endfacet"))
			goto bad;
		n++;
	}
	skip_line(&lx); /* the name after endsolid */
	if (next_token(&lx, tok))
		goto bad;
	out->nfacets = n;
	out->facets = f;
	out->is_binary = 0;
	out->header[0] = 0;
	return MESH_OK;
bad:
	free(f);
	say(problem, psize, "ASCII STL syntax error on line %zu", lx.line);
	return MESH_EBADMESH;
}

int mesh_read_stl(const char *path, struct mesh_stl *out, char *problem,
		  size_t psize)
{
	assert(path && out);
	unsigned char *data = NULL;
	size_t size = 0;
	int rc = slurp(path, &data, &size, problem, psize);
	if (rc != MESH_OK)
		return rc;
	struct mesh_stl s = {0};
	uint64_t count = size >= STL_HEADER + 4 ? get_u32(data + STL_HEADER) : 0;
	if (size >= STL_HEADER + 4 &&
	    (uint64_t)size == STL_HEADER + 4 + count * STL_FACET) {
		s.is_binary = 1;
		memcpy(s.header, data, STL_HEADER);
		s.header[STL_HEADER] = 0;
		s.nfacets = (size_t)count;
		s.facets = malloc((s.nfacets ? s.nfacets : 1) * sizeof *s.facets);
		if (!s.facets) {
			free(data);
			say(problem, psize, "out of memory reading the file");
			return MESH_ENOMEM;
		}
		for (size_t i = 0; i < s.nfacets; i++)
			for (int k = 0; k < 12; k++)
				s.facets[i][k] = get_f32(data + STL_HEADER + 4 +
							 i * STL_FACET + 4 * (size_t)k);
	} else if (starts_solid((const char *)data, size) &&
		   memchr(data, 0, size) == NULL) {
		rc = parse_ascii((const char *)data, &s, problem, psize);
	} else if (size < STL_HEADER + 4) {
		say(problem, psize, "too short for an STL: %zu bytes", size);
		rc = MESH_EBADMESH;
	} else {
		say(problem, psize,
		    "truncated or padded binary STL: %zu bytes, but %llu facets "
		    "need %llu", size, (unsigned long long)count,
		    (unsigned long long)(STL_HEADER + 4 + count * STL_FACET));
		rc = MESH_EBADMESH;
	}
	free(data);
	if (rc == MESH_OK)
		*out = s;
	return rc;
}

void mesh_stl_clear(struct mesh_stl *s)
{
	if (!s)
		return;
	free(s->facets);
	s->facets = NULL;
	s->nfacets = 0;
}
