/*
 * xmread.c: the BurrTools .xmpuzzle reader, XML half: bytes to the
 * document of xmread_int.h. gzip (what BurrTools writes) is told from
 * plain XML by its first two bytes (1F 8B) and inflated by zlib; the XML
 * is parsed by expat. Both stream: the input goes through in 64 KiB
 * chunks, so memory is the document, never the whole text. zlib and
 * expat allocate through this module's malloc, so their failures are
 * tested like ours.
 *
 * Workload: files of a few KiB to a few hundred KiB of XML (BurrTools'
 * largest examples are 160 KiB). The text is capped at PUZ_TEXT_MAX bytes
 * after inflating (a gzip bomb stops there with an error) and so is the
 * input; a voxel costs a byte of memory per character of text.
 *
 * What is read (BurrTools 0.6's lib/puzzle.cpp, problem.cpp, voxel.cpp):
 *
 *   <puzzle version="1|2">
 *     <gridType type="0"/>                  cube grid only; at most once,
 *                                           before the first shape
 *     <colors><color red= green= blue=/>    0..255 each; at most 26
 *     <shapes><voxel x= y= z= type="0" [name=] [weight=] [hx= hy= hz=]>
 *       the voxels, x fastest: '_' empty, '#' filled, '+' variable, each
 *       filled or variable one optionally followed by its colour index
 *       in decimal (0 neutral, else 1-based into <colors>)
 *     <problems><problem [name=] [state=] [assemblies=] [solutions=]
 *                        [time=] [maxHoles=]>
 *       <shapes><shape id= [count= | min= max=] [group=]>[<group/>]...
 *       <result id=/>                       exactly once
 *       <bitmap><pair piece= result=/>...   colour pairs, 0-based
 *
 * Also read, from files BurrTools wrote in 2006: the gridType attributes
 * axy_ortho, axz_ortho, ayz_ortho, all three (right angles: cubes; a
 * brick parameter that differs is refused), and an empty <blank/> in a
 * problem (no BurrTools source reads it; its solver ignores it).
 *
 * Skipped, with everything inside them, because they carry nothing for
 * counting: <comment> (the designer's note), <solutions> (stored
 * assemblies and disassembly moves), <assembler> (a paused solver's
 * state); and the attributes hx, hy, hz (the hotspot, for display) and
 * time. A voxel's weight (which side stays put when the disassembler
 * frees a group) and a problem shape's group (pieces that need not come
 * apart from each other: the group attribute, or <group> elements) are
 * read into struct puz_piece. state, assemblies and
 * solutions are reported (struct xmp_info), never used.
 *
 * Refused with PUZ_EPARSE, the line and column of the element (of the
 * inflated text, as expat counts them) and what is wrong: malformed XML,
 * a DOCTYPE (no DTD, so no entity can expand), any other element or
 * attribute, text where none belongs, numbers that are not plain
 * decimals or out of range, a missing required attribute, other grid
 * types, a voxel type other than 0, a voxel string of the wrong length or
 * with another character, a colour on an empty voxel or before the first
 * voxel, colour indices past <colors>, pair colours past <colors>, shape
 * ids past <shapes>, a second <result>, a problem index past the end.
 * xmbuild.c refuses what cubegen cannot represent.
 */
#include "formats/xmread_int.h"

#include <errno.h>
#include <expat.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZLIB_CONST
#include <zlib.h>

#include "formats/puz.h"

#define XMP_CHUNK 65536

/* ------------------------------------------------------------------ */
/* Elements                                                            */

enum el {
	EL_NONE,     /* not allowed here */
	EL_SKIP,     /* skipped with its subtree */
	EL_PUZZLE,
	EL_GRIDTYPE,
	EL_COLORS,
	EL_COLOR,
	EL_SHAPES,   /* <shapes> of the puzzle */
	EL_VOXEL,
	EL_PROBLEMS,
	EL_PROBLEM,
	EL_PSHAPES,  /* <shapes> of a problem */
	EL_PSHAPE,
	EL_GROUP,
	EL_RESULT,
	EL_BITMAP,
	EL_PAIR,
	EL_BLANK,    /* <blank/> in a problem: empty, read by no BurrTools */
	EL_DOC,      /* above the root element */
};

/* A child element allowed under a parent, and the attributes it may
 * have (NULL-terminated). */
struct elrule {
	enum el parent;
	const char *name;
	enum el el;
	const char *const *atts;
};

static const char *const no_atts[] = {NULL};
static const char *const puzzle_atts[] = {"version", NULL};
/* 'type', and BurrTools' brick parameters of 2006 (gone from its files
 * since January 2007, and from its reader): right angles between each
 * pair of axes (all three: cubes), sides or angles that differ */
static const char *const grid_atts[] = {
	"type", "axy_ortho", "axz_ortho", "ayz_ortho", "x_differs_y",
	"x_differs_z", "y_differs_z", "axy_differs_axz", "axy_differs_ayz",
	"axz_differs_ayz", NULL};
static const char *const color_atts[] = {"red", "green", "blue", NULL};
static const char *const voxel_atts[] = {"x",      "y",  "z",  "type", "name",
                                         "weight", "hx", "hy", "hz",   NULL};
static const char *const problem_atts[] = {"name",      "state",
                                           "assemblies", "solutions",
                                           "time",      "maxHoles", NULL};
static const char *const pshape_atts[] = {"id",  "count", "min",
                                          "max", "group", NULL};
static const char *const group_atts[] = {"group", "count", NULL};
static const char *const result_atts[] = {"id", NULL};
static const char *const pair_atts[] = {"piece", "result", NULL};

static const struct elrule rules[] = {
	{EL_DOC, "puzzle", EL_PUZZLE, puzzle_atts},
	{EL_PUZZLE, "gridType", EL_GRIDTYPE, grid_atts},
	{EL_PUZZLE, "colors", EL_COLORS, no_atts},
	{EL_PUZZLE, "shapes", EL_SHAPES, no_atts},
	{EL_PUZZLE, "problems", EL_PROBLEMS, no_atts},
	{EL_PUZZLE, "comment", EL_SKIP, NULL},
	{EL_COLORS, "color", EL_COLOR, color_atts},
	{EL_SHAPES, "voxel", EL_VOXEL, voxel_atts},
	{EL_PROBLEMS, "problem", EL_PROBLEM, problem_atts},
	{EL_PROBLEM, "shapes", EL_PSHAPES, no_atts},
	{EL_PROBLEM, "result", EL_RESULT, result_atts},
	{EL_PROBLEM, "bitmap", EL_BITMAP, no_atts},
	{EL_PROBLEM, "blank", EL_BLANK, no_atts},
	{EL_PROBLEM, "solutions", EL_SKIP, NULL},
	{EL_PROBLEM, "assembler", EL_SKIP, NULL},
	{EL_PSHAPES, "shape", EL_PSHAPE, pshape_atts},
	{EL_PSHAPE, "group", EL_GROUP, group_atts},
	{EL_BITMAP, "pair", EL_PAIR, pair_atts},
};

/* The deepest nesting the rules allow: puzzle, problems, problem, shapes,
 * shape, group. */
#define XMP_DEPTH 6

/* ------------------------------------------------------------------ */
/* The parse                                                           */

struct xparse {
	XML_Parser xp;
	struct xdoc *d;
	struct puz_error *err;
	int rc;                  /* the first error, PUZ_OK until then */
	enum el stack[XMP_DEPTH]; /* open elements */
	const char *names[XMP_DEPTH]; /* their names, as in the rules */
	int depth;
	unsigned long skip;      /* depth inside a skipped subtree */
	bool grid_seen;          /* a <gridType> was read */
	unsigned colour;         /* the colour index being read in a voxel */
};

static int here_line(const struct xparse *x)
{
	XML_Size l = XML_GetCurrentLineNumber(x->xp);

	return l > INT_MAX ? INT_MAX : (int)l;
}

static int here_col(const struct xparse *x)
{
	XML_Size c = XML_GetCurrentColumnNumber(x->xp);

	return c >= INT_MAX ? INT_MAX : (int)c + 1;
}

/* Record the first error and stop expat. */
PUZ_PRINTF(4, 5)
static void fail_at(struct xparse *x, int line, int col, const char *fmt, ...)
{
	va_list ap;

	if (x->rc != PUZ_OK)
		return;
	x->err->line = line;
	x->err->col = col;
	va_start(ap, fmt);
	(void)vsnprintf(x->err->msg, sizeof(x->err->msg), fmt, ap);
	va_end(ap);
	x->rc = PUZ_EPARSE;
	XML_StopParser(x->xp, XML_FALSE);
}

#define FAIL(x, ...) fail_at((x), here_line(x), here_col(x), __VA_ARGS__)

static void fail_nomem(struct xparse *x)
{
	if (x->rc != PUZ_OK)
		return;
	x->rc = fmt_fail_nomem(x->err);
	XML_StopParser(x->xp, XML_FALSE);
}

/* The value of attribute 'name', or NULL. */
static const char *att(const XML_Char **atts, const char *name)
{
	for (size_t i = 0; atts[i] != NULL; i += 2)
		if (strcmp(atts[i], name) == 0)
			return atts[i + 1];
	return NULL;
}

/* Attribute 'name' of element 'el' as a decimal number 0..max (digits
 * only, as BurrTools writes them). 'need': missing is an error; else a
 * missing one leaves '*v' and gives false. */
static bool num(struct xparse *x, const XML_Char **atts, const char *el,
                const char *name, uint64_t max, bool need, uint64_t *v)
{
	const char *s = att(atts, name);
	char b[40];
	uint64_t r;

	if (s == NULL) {
		if (need)
			FAIL(x, "<%s> needs a '%s' attribute", el, name);
		return false;
	}
	if (!fmt_parse_u64(s, strlen(s), &r)) {
		if (fmt_looks_numeric(s, strlen(s)) && s[0] != '-')
			FAIL(x, "<%s %s=\"%s\">: out of range 0..%llu", el,
			     name, fmt_show(b, s, strlen(s)),
			     (unsigned long long)max);
		else
			FAIL(x, "<%s %s=\"%s\">: expected a whole number", el,
			     name, fmt_show(b, s, strlen(s)));
		return false;
	}
	if (r > max) {
		FAIL(x, "<%s %s=\"%s\">: out of range 0..%llu", el, name,
		     fmt_show(b, s, strlen(s)), (unsigned long long)max);
		return false;
	}
	*v = r;
	return true;
}

/* A copy of 's' (NULL stays NULL). */
static bool dup_str(struct xparse *x, const char *s, char **out)
{
	size_t n;

	*out = NULL;
	if (s == NULL)
		return true;
	n = strlen(s);
	*out = malloc(n + 1);
	if (*out == NULL) {
		fail_nomem(x);
		return false;
	}
	memcpy(*out, s, n + 1);
	return true;
}

/* Room for one more entry in an array of 'size'-byte entries. */
static bool grow(struct xparse *x, void **arr, size_t n, size_t *cap,
                 size_t size)
{
	size_t ncap;
	void *na;

	if (n < *cap)
		return true;
	ncap = *cap == 0 ? 8 : *cap * 2;
	/* Entries come from text of at most PUZ_TEXT_MAX bytes, each of
	 * more than one byte: the product cannot overflow. */
	na = realloc(*arr, ncap * size);
	if (na == NULL) {
		fail_nomem(x);
		return false;
	}
	*arr = na;
	*cap = ncap;
	return true;
}

static const char *const grid_names[] = {
	"cubes", "triangular prisms", "spheres", "rhombic dodecahedra",
	"tetrahedra and octahedra",
};

static void start_gridtype(struct xparse *x, const XML_Char **atts)
{
	uint64_t t;

	if (x->grid_seen || x->d->nshapes > 0) {
		FAIL(x, "<gridType>: only one grid type, before the first "
		        "shape");
		return;
	}
	x->grid_seen = true;
	if (!num(x, atts, "gridType", "type", UINT64_MAX, true, &t))
		return;
	/* BurrTools of 2006 wrote its grid of bricks (type 0) with these:
	 * cubes have all three right angles and nothing that differs */
	int ortho = 0;
	for (const XML_Char **a = atts; t == 0 && *a; a += 2) {
		if (strstr(*a, "_differs_")) {
			FAIL(x, "<gridType %s>: bricks whose sides or angles "
			        "differ (BurrTools of 2006); cubegen solves "
			        "cubes only", *a);
			return;
		}
		ortho += strstr(*a, "_ortho") != NULL;
	}
	if (ortho && ortho < 3) {
		FAIL(x, "<gridType>: bricks without a right angle between each "
		        "pair of axes (axy_ortho, axz_ortho, ayz_ortho: BurrTools "
		        "of 2006); cubegen solves cubes only");
		return;
	}
	if (t != 0)
		FAIL(x, "<gridType type=\"%llu\">: a grid of %s; cubegen "
		        "solves cube grids (type 0) only",
		     (unsigned long long)t,
		     t < sizeof(grid_names) / sizeof(grid_names[0])
		             ? grid_names[t]
		             : "an unknown kind");
}

static void start_color(struct xparse *x, const XML_Char **atts)
{
	static const char *const ch[3] = {"red", "green", "blue"};
	uint64_t v[3];
	struct xdoc *d = x->d;

	for (int i = 0; i < 3; i++)
		if (!num(x, atts, "color", ch[i], 255, true, &v[i]))
			return;
	if (d->ncolours == PUZ_NCOLOURS) {
		FAIL(x, "<color>: more than %d colours; cubegen has colours "
		        "a..z",
		     PUZ_NCOLOURS);
		return;
	}
	d->ncolours++;
	d->rgb[d->ncolours] = (uint32_t)(v[0] << 16 | v[1] << 8 | v[2]);
}

static void start_voxel(struct xparse *x, const XML_Char **atts)
{
	struct xdoc *d = x->d;
	struct xshape *s;
	uint64_t t;

	if (!grow(x, (void **)&d->shapes, d->nshapes, &d->shcap,
	          sizeof(*d->shapes)))
		return;
	s = &d->shapes[d->nshapes];
	memset(s, 0, sizeof(*s));
	s->line = here_line(x);
	s->col = here_col(x);
	if (!num(x, atts, "voxel", "x", UINT32_MAX, true, &s->dim[0]) ||
	    !num(x, atts, "voxel", "y", UINT32_MAX, true, &s->dim[1]) ||
	    !num(x, atts, "voxel", "z", UINT32_MAX, true, &s->dim[2]) ||
	    !num(x, atts, "voxel", "type", UINT64_MAX, true, &t))
		return;
	if (t != 0) {
		FAIL(x, "<voxel type=\"%llu\">: unknown voxel type (BurrTools "
		        "writes 0)",
		     (unsigned long long)t);
		return;
	}
	if (!dup_str(x, att(atts, "name"), &s->name))
		return;
	s->weight = 1;
	const char *w = att(atts, "weight");
	if (w) {
		/* BurrTools reads it with atoi(): a whole number, maybe
		 * negative; cubegen takes 0..PUZ_MAX_WEIGHT */
		uint64_t v;
		char b[40];
		if (!fmt_parse_u64(w, strlen(w), &v) || v > PUZ_MAX_WEIGHT) {
			FAIL(x, "<voxel weight=\"%s\">: expected a whole number "
			        "from 0 to %d",
			     fmt_show(b, w, strlen(w)), PUZ_MAX_WEIGHT);
			free(s->name);
			s->name = NULL;
			return;
		}
		s->weight = v ? (int)v : 1; /* 0: as light as cubegen goes */
	}
	/* Counted only now, so the document frees what was made. */
	d->nshapes++;
	x->colour = 0;
}

/* The number of voxels the dimensions of 's' make, saturated at
 * SIZE_MAX (such a shape cannot have that many in its text). */
static size_t box_voxels(const struct xshape *s)
{
	uint64_t n = s->dim[0];

	for (int i = 1; i < 3; i++) {
		if (s->dim[i] != 0 && n > SIZE_MAX / s->dim[i])
			return SIZE_MAX;
		n *= s->dim[i];
	}
	return n > SIZE_MAX ? SIZE_MAX : (size_t)n;
}

/* "S3": shapes are named as BurrTools shows them, from 1. */
#define SHAPE_ID(i) ((unsigned long long)(i) + 1)

/* Where voxel 'i' of 's' is, for a message. */
static void voxel_xyz(const struct xshape *s, size_t i, char *buf, size_t len)
{
	uint64_t nx = s->dim[0], ny = s->dim[1];

	if (nx == 0 || ny == 0) {
		snprintf(buf, len, "voxel %zu", i + 1);
		return;
	}
	snprintf(buf, len, "voxel %zu, at (%llu, %llu, %llu)", i + 1,
	         (unsigned long long)(i % nx),
	         (unsigned long long)(i / nx % ny),
	         (unsigned long long)(i / nx / ny));
}

/* The text of the shape being read: voxels and their colours. */
static void voxel_text(struct xparse *x, const char *s, size_t len)
{
	struct xshape *sh = &x->d->shapes[x->d->nshapes - 1];
	size_t total = box_voxels(sh);
	char where[112], b[40];

	for (size_t i = 0; i < len && x->rc == PUZ_OK; i++) {
		char c = s[i];
		int st;

		if (c >= '0' && c <= '9') {
			if (sh->n == 0) {
				FAIL(x, "<voxel> (shape S%llu): colour digits "
				        "before the first voxel",
				     SHAPE_ID(x->d->nshapes - 1));
				return;
			}
			x->colour = x->colour * 10 + (unsigned)(c - '0');
			if (x->colour > XMP_MAX_INDEX) {
				voxel_xyz(sh, sh->n - 1, where, sizeof(where));
				FAIL(x, "<voxel> (shape S%llu): colour index "
				        "above %d at %s",
				     SHAPE_ID(x->d->nshapes - 1),
				     XMP_MAX_INDEX, where);
				return;
			}
			if (x->colour != 0 &&
			    XV_STATE(sh->v[sh->n - 1]) == XV_EMPTY) {
				voxel_xyz(sh, sh->n - 1, where, sizeof(where));
				FAIL(x, "<voxel> (shape S%llu): a colour on "
				        "an empty voxel (%s)",
				     SHAPE_ID(x->d->nshapes - 1), where);
				return;
			}
			sh->v[sh->n - 1] = (unsigned char)(XV_STATE(
				sh->v[sh->n - 1]) | x->colour << 2);
			if ((int)x->colour > sh->maxcolour) {
				sh->maxcolour = (int)x->colour;
				sh->maxat = sh->n - 1;
			}
			continue;
		}
		if (c == '_')
			st = XV_EMPTY;
		else if (c == '#')
			st = XV_FILLED;
		else if (c == '+')
			st = XV_VARIABLE;
		else {
			voxel_xyz(sh, sh->n, where, sizeof(where));
			FAIL(x, "<voxel> (shape S%llu): unexpected '%s' at "
			        "%s: expected '_', '#', '+' or a colour index",
			     SHAPE_ID(x->d->nshapes - 1),
			     fmt_show_char(b, s + i, len - i), where);
			return;
		}
		if (sh->n == total) {
			FAIL(x, "<voxel> (shape S%llu): more than the %llu x "
			        "%llu x %llu = %zu voxels of its size",
			     SHAPE_ID(x->d->nshapes - 1),
			     (unsigned long long)sh->dim[0],
			     (unsigned long long)sh->dim[1],
			     (unsigned long long)sh->dim[2], total);
			return;
		}
		if (sh->n == sh->cap) {
			/* Grown with the text, never from the attributes,
			 * so a size no text fills costs nothing. */
			size_t ncap = sh->cap == 0 ? 256 : sh->cap * 2;
			unsigned char *nv;

			if (ncap > total)
				ncap = total;
			nv = realloc(sh->v, ncap);
			if (nv == NULL) {
				fail_nomem(x);
				return;
			}
			sh->v = nv;
			sh->cap = ncap;
		}
		sh->v[sh->n++] = (unsigned char)st;
		x->colour = 0;
	}
}

static void end_voxel(struct xparse *x)
{
	struct xshape *sh = &x->d->shapes[x->d->nshapes - 1];
	size_t total = box_voxels(sh);

	if (sh->n != total)
		fail_at(x, sh->line, sh->col,
		        "<voxel> (shape S%llu): %zu voxel%s in the text, "
		        "expected %llu x %llu x %llu = %zu",
		        SHAPE_ID(x->d->nshapes - 1), sh->n,
		        sh->n == 1 ? "" : "s", (unsigned long long)sh->dim[0],
		        (unsigned long long)sh->dim[1],
		        (unsigned long long)sh->dim[2], total);
}

static void start_problem(struct xparse *x, const XML_Char **atts)
{
	struct xdoc *d = x->d;
	struct xproblem *p;
	uint64_t state = 0, v;

	if (!grow(x, (void **)&d->problems, d->nproblems, &d->prcap,
	          sizeof(*d->problems)))
		return;
	p = &d->problems[d->nproblems];
	memset(p, 0, sizeof(*p));
	p->line = here_line(x);
	p->col = here_col(x);
	p->maxpair = -1;
	if (!dup_str(x, att(atts, "name"), &p->name))
		return;
	d->nproblems++;
	(void)num(x, atts, "problem", "state", 3, false, &state);
	if (num(x, atts, "problem", "maxHoles", UINT64_MAX, false,
	        &p->maxholes))
		p->has_maxholes = true;
	(void)num(x, atts, "problem", "time", UINT64_MAX, false, &v);
	p->solved = state == 2;
	if (!num(x, atts, "problem", "assemblies", UINT64_MAX, false,
	          &p->assemblies))
		p->solved = false;
	(void)num(x, atts, "problem", "solutions", UINT64_MAX, false,
	          &p->solutions);
}

static void start_pshape(struct xparse *x, const XML_Char **atts)
{
	struct xproblem *p = &x->d->problems[x->d->nproblems - 1];
	struct xpart *pt;
	const char *cnt = att(atts, "count"), *mn = att(atts, "min"),
	           *mx = att(atts, "max");

	if (!grow(x, (void **)&p->parts, p->nparts, &p->cap,
	          sizeof(*p->parts)))
		return;
	pt = &p->parts[p->nparts];
	memset(pt, 0, sizeof(*pt));
	pt->line = here_line(x);
	pt->col = here_col(x);
	if (!num(x, atts, "shape", "id", UINT64_MAX, true, &pt->id))
		return;
	if (cnt != NULL && (mn != NULL || mx != NULL)) {
		FAIL(x, "<shape>: 'count' and 'min'/'max' together");
		return;
	}
	if ((mn == NULL) != (mx == NULL)) {
		FAIL(x, "<shape>: '%s' without '%s'", mn ? "min" : "max",
		     mn ? "max" : "min");
		return;
	}
	if (cnt != NULL) {
		if (!num(x, atts, "shape", "count", UINT64_MAX, true, &pt->min))
			return;
		pt->max = pt->min;
	} else if (mn != NULL) {
		if (!num(x, atts, "shape", "min", UINT64_MAX, true, &pt->min) ||
		    !num(x, atts, "shape", "max", UINT64_MAX, true, &pt->max))
			return;
		if (pt->min > pt->max) {
			FAIL(x, "<shape min=\"%llu\" max=\"%llu\">: the "
			        "least is more than the most",
			     (unsigned long long)pt->min,
			     (unsigned long long)pt->max);
			return;
		}
	} else {
		pt->min = pt->max = 1;
	}
	if (att(atts, "group") &&
	    !num(x, atts, "shape", "group", PUZ_MAX_GROUP, true, &pt->group))
		return;
	p->nparts++;
}

static void start_result(struct xparse *x, const XML_Char **atts)
{
	struct xproblem *p = &x->d->problems[x->d->nproblems - 1];

	if (p->has_result) {
		FAIL(x, "<result>: a second result in one problem (the first "
		        "on line %d)",
		     p->rline);
		return;
	}
	p->rline = here_line(x);
	p->rcol = here_col(x);
	if (num(x, atts, "result", "id", UINT64_MAX, true, &p->result))
		p->has_result = true;
}

static void start_pair(struct xparse *x, const XML_Char **atts)
{
	struct xproblem *p = &x->d->problems[x->d->nproblems - 1];
	uint64_t pc, rc;

	if (!num(x, atts, "pair", "piece", XMP_MAX_INDEX, true, &pc) ||
	    !num(x, atts, "pair", "result", XMP_MAX_INDEX, true, &rc))
		return;
	p->allow[pc] |= (uint64_t)1 << rc;
	if ((int)(pc > rc ? pc : rc) > p->maxpair) {
		p->maxpair = (int)(pc > rc ? pc : rc);
		p->pline = here_line(x);
		p->pcol = here_col(x);
	}
}

/* A <group group= count=> inside a problem's <shape>: some of its copies
 * in a group (problem.cpp). One such element for all of the copies is
 * the same as the group attribute; anything else splits the copies.
 * Beside a group attribute other than 0 the elements are not read at
 * all, as BurrTools reads them. */
static void start_group(struct xparse *x, const XML_Char **atts)
{
	struct xproblem *p = &x->d->problems[x->d->nproblems - 1];
	uint64_t g, c;

	if (p->nparts == 0)
		return; /* its <shape> was refused */
	struct xpart *pt = &p->parts[p->nparts - 1];
	if (pt->group && !pt->ngroups)
		return; /* the attribute's (an element's comes with ngroups) */

	if (!num(x, atts, "group", "group", PUZ_MAX_GROUP, true, &g) ||
	    !num(x, atts, "group", "count", UINT64_MAX, true, &c))
		return;
	if (g == 0)
		return;
	if (pt->ngroups++ == 0 && pt->group == 0) {
		pt->group = g;
		pt->gcount = c;
	} else {
		pt->mixed = true;
	}
}

static void start_puzzle(struct xparse *x, const XML_Char **atts)
{
	uint64_t v;

	if (num(x, atts, "puzzle", "version", UINT64_MAX, true, &v) &&
	    v != 1 && v != 2)
		FAIL(x, "<puzzle version=\"%llu\">: BurrTools files are "
		        "version 1 or 2",
		     (unsigned long long)v);
}

static void XMLCALL on_start(void *ud, const XML_Char *name,
                             const XML_Char **atts)
{
	struct xparse *x = ud;
	enum el parent = x->depth > 0 ? x->stack[x->depth - 1] : EL_DOC;
	const struct elrule *r = NULL;
	char b[40];

	if (x->rc != PUZ_OK)
		return;
	if (x->skip > 0) {
		x->skip++;
		return;
	}
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].parent == parent &&
		    strcmp(rules[i].name, name) == 0)
			r = &rules[i];
	if (r == NULL) {
		if (parent == EL_DOC)
			FAIL(x, "<%s>: not a BurrTools file (expected "
			        "<puzzle>)",
			     fmt_show(b, name, strlen(name)));
		else
			FAIL(x, "<%s> in <%s>: an element cubegen does not "
			        "know",
			     fmt_show(b, name, strlen(name)),
			     x->names[x->depth - 1]);
		return;
	}
	if (r->el == EL_SKIP) {
		x->skip = 1;
		return;
	}
	for (size_t i = 0; atts[i] != NULL; i += 2) {
		size_t k = 0;

		while (r->atts[k] != NULL && strcmp(r->atts[k], atts[i]) != 0)
			k++;
		if (r->atts[k] == NULL) {
			FAIL(x, "<%s %s=...>: an attribute cubegen does not "
			        "know",
			     r->name, fmt_show(b, atts[i], strlen(atts[i])));
			return;
		}
	}
	/* The rules nest at most XMP_DEPTH deep. */
	x->stack[x->depth] = r->el;
	x->names[x->depth] = r->name;
	x->depth++;
	switch (r->el) {
	case EL_PUZZLE: start_puzzle(x, atts); break;
	case EL_GRIDTYPE: start_gridtype(x, atts); break;
	case EL_COLOR: start_color(x, atts); break;
	case EL_VOXEL: start_voxel(x, atts); break;
	case EL_PROBLEM: start_problem(x, atts); break;
	case EL_PSHAPE: start_pshape(x, atts); break;
	case EL_GROUP: start_group(x, atts); break;
	case EL_RESULT: start_result(x, atts); break;
	case EL_PAIR: start_pair(x, atts); break;
	default: break;
	}
}

static void XMLCALL on_end(void *ud, const XML_Char *name)
{
	struct xparse *x = ud;

	(void)name; /* expat checks that tags match */
	if (x->rc != PUZ_OK)
		return;
	if (x->skip > 0) {
		x->skip--;
		return;
	}
	x->depth--;
	if (x->stack[x->depth] == EL_VOXEL)
		end_voxel(x);
}

static void XMLCALL on_text(void *ud, const XML_Char *s, int len)
{
	struct xparse *x = ud;
	char b[40];

	if (x->rc != PUZ_OK || x->skip > 0 || len <= 0 || x->depth == 0)
		return;
	if (x->depth > 0 && x->stack[x->depth - 1] == EL_VOXEL) {
		voxel_text(x, s, (size_t)len);
		return;
	}
	for (int i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' &&
		    s[i] != '\r') {
			FAIL(x, "<%s>: unexpected text '%s'",
			     x->names[x->depth - 1],
			     fmt_show(b, s + i, (size_t)(len - i)));
			return;
		}
}

static void XMLCALL on_doctype(void *ud, const XML_Char *name,
                               const XML_Char *sysid, const XML_Char *pubid,
                               int has_internal_subset)
{
	(void)name;
	(void)sysid;
	(void)pubid;
	(void)has_internal_subset;
	FAIL((struct xparse *)ud, "a DOCTYPE declaration: BurrTools files "
	                          "have none");
}

/* After the whole file: the references between its parts. */
static void check_refs(struct xparse *x)
{
	const struct xdoc *d = x->d;

	for (size_t i = 0; i < d->nshapes; i++) {
		const struct xshape *s = &d->shapes[i];
		char where[112];

		if ((size_t)s->maxcolour <= d->ncolours)
			continue;
		voxel_xyz(s, s->maxat, where, sizeof(where));
		fail_at(x, s->line, s->col,
		        "<voxel> (shape S%zu): colour %d at %s, but the file "
		        "has %zu colour%s",
		        i + 1, s->maxcolour, where, d->ncolours,
		        d->ncolours == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < d->nproblems; i++) {
		const struct xproblem *p = &d->problems[i];

		if (p->maxpair >= 0 && (size_t)p->maxpair >= d->ncolours) {
			fail_at(x, p->pline, p->pcol,
			        "<pair>: colour %d (counting from 0), but the "
			        "file has %zu colour%s",
			        p->maxpair, d->ncolours,
			        d->ncolours == 1 ? "" : "s");
			return;
		}
		for (size_t j = 0; j < p->nparts; j++)
			if (p->parts[j].id >= d->nshapes) {
				fail_at(x, p->parts[j].line, p->parts[j].col,
				        "<shape id=\"%llu\">: no such shape "
				        "(the file has %zu, ids 0..%zu)",
				        (unsigned long long)p->parts[j].id,
				        d->nshapes,
				        d->nshapes ? d->nshapes - 1 : 0);
				return;
			}
		if (p->has_result && p->result >= d->nshapes) {
			fail_at(x, p->rline, p->rcol,
			        "<result id=\"%llu\">: no such shape (the file "
			        "has %zu, ids 0..%zu)",
			        (unsigned long long)p->result, d->nshapes,
			        d->nshapes ? d->nshapes - 1 : 0);
			return;
		}
	}
}

void xmp_doc_free(struct xdoc *d)
{
	for (size_t i = 0; i < d->nshapes; i++) {
		free(d->shapes[i].v);
		free(d->shapes[i].name);
	}
	free(d->shapes);
	for (size_t i = 0; i < d->nproblems; i++) {
		free(d->problems[i].name);
		free(d->problems[i].parts);
	}
	free(d->problems);
	memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------------------------ */
/* Bytes in: gzip or not, then expat                                   */

/* Allocators handed to zlib and expat: this module's malloc, so the
 * tests' fault injection reaches their allocations too. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size)
{
	(void)opaque;
	if (size != 0 && items > SIZE_MAX / size)
		return Z_NULL;
	return malloc((size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p)
{
	(void)opaque;
	free(p);
}

static void *x_malloc(size_t n)
{
	return malloc(n);
}

static void *x_realloc(void *p, size_t n)
{
	return realloc(p, n);
}

static void x_free(void *p)
{
	free(p);
}

struct reader {
	struct xparse x;
	bool started;  /* the first bytes have been seen */
	bool gz;       /* they were gzip's magic */
	bool zinit;    /* zs needs inflateEnd */
	bool zend;     /* the last gzip member ended */
	z_stream zs;
	size_t in, out; /* bytes taken and handed to expat */
	unsigned char buf[XMP_CHUNK];
};

/* Hand XML text to expat. */
static int rd_xml(struct reader *r, const void *s, size_t n, bool final)
{
	struct xparse *x = &r->x;

	if (n > PUZ_TEXT_MAX - r->out)
		return fmt_fail(x->err, 0, 0,
		                "the XML text is larger than %zu MiB",
		                PUZ_TEXT_MAX >> 20);
	r->out += n;
	if (XML_Parse(x->xp, s, (int)n, final) == XML_STATUS_OK)
		return x->rc;
	if (x->rc != PUZ_OK)
		return x->rc;
	if (XML_GetErrorCode(x->xp) == XML_ERROR_NO_MEMORY)
		return fmt_fail_nomem(x->err);
	return fmt_fail(x->err, here_line(x), here_col(x), "malformed XML: %s",
	                XML_ErrorString(XML_GetErrorCode(x->xp)));
}

/* Inflate what zs holds and pass it on. */
static int rd_inflate(struct reader *r)
{
	z_stream *zs = &r->zs;
	int rc;

	for (;;) {
		int zr;

		if (r->zend) {
			if (zs->avail_in == 0)
				return PUZ_OK;
			/* Another gzip member follows: gzip(1) allows them. */
			if (inflateReset(zs) != Z_OK)
				return fmt_fail(r->x.err, 0, 0,
				                "gzip: cannot restart");
			r->zend = false;
		}
		zs->next_out = r->buf;
		zs->avail_out = XMP_CHUNK;
		zr = inflate(zs, Z_NO_FLUSH);
		if (zr == Z_MEM_ERROR)
			return fmt_fail_nomem(r->x.err);
		if (zr == Z_DATA_ERROR || zr == Z_NEED_DICT ||
		    zr == Z_STREAM_ERROR)
			return fmt_fail(r->x.err, 0, 0,
			                "corrupt gzip data: %s",
			                zs->msg ? zs->msg : "bad stream");
		rc = rd_xml(r, r->buf, XMP_CHUNK - zs->avail_out, false);
		if (rc != PUZ_OK)
			return rc;
		if (zr == Z_STREAM_END)
			r->zend = true;
		else if (zs->avail_out != 0 || zr == Z_BUF_ERROR)
			return PUZ_OK; /* all input taken: wait for more */
	}
}

/* Take the next 'n' bytes of the file. */
static int rd_put(struct reader *r, const unsigned char *s, size_t n)
{
	const unsigned char *p = s;

	if (n > PUZ_TEXT_MAX - r->in)
		return fmt_fail(r->x.err, 0, 0, "file is larger than %zu MiB",
		                PUZ_TEXT_MAX >> 20);
	r->in += n;
	if (!r->started && n > 0) {
		r->started = true;
		r->gz = n >= 2 && s[0] == 0x1F && s[1] == 0x8B;
		if (r->gz) {
			r->zs.zalloc = z_alloc;
			r->zs.zfree = z_free;
			r->zs.opaque = Z_NULL;
			/* 16 + 15: a gzip header, the largest window. */
			int zr = inflateInit2(&r->zs, 16 + MAX_WBITS);
			if (zr == Z_MEM_ERROR)
				return fmt_fail_nomem(r->x.err);
			if (zr != Z_OK)
				return fmt_fail(r->x.err, 0, 0,
				                "gzip: cannot start zlib");
			r->zinit = true;
		}
	}
	while (n > 0) {
		size_t k = n < XMP_CHUNK ? n : XMP_CHUNK;
		int rc;

		if (r->gz) {
			r->zs.next_in = p;
			r->zs.avail_in = (uInt)k;
			rc = rd_inflate(r);
		} else {
			rc = rd_xml(r, p, k, false);
		}
		if (rc != PUZ_OK)
			return rc;
		p += k;
		n -= k;
	}
	return PUZ_OK;
}

static int rd_finish(struct reader *r)
{
	int rc;

	if (r->gz && !r->zend)
		return fmt_fail(r->x.err, 0, 0,
		                "truncated gzip data: the file ends inside "
		                "the compressed stream");
	rc = rd_xml(r, NULL, 0, true);
	if (rc != PUZ_OK)
		return rc;
	check_refs(&r->x);
	return r->x.rc;
}

static int rd_begin(struct reader *r, struct xdoc *d, struct puz_error *err)
{
	static const XML_Memory_Handling_Suite ms = {x_malloc, x_realloc,
	                                             x_free};

	memset(r, 0, offsetof(struct reader, buf));
	memset(d, 0, sizeof(*d));
	r->x.d = d;
	r->x.err = err;
	r->x.xp = XML_ParserCreate_MM(NULL, &ms, NULL);
	if (r->x.xp == NULL)
		return fmt_fail_nomem(err);
	XML_SetUserData(r->x.xp, &r->x);
	XML_SetElementHandler(r->x.xp, on_start, on_end);
	XML_SetCharacterDataHandler(r->x.xp, on_text);
	XML_SetStartDoctypeDeclHandler(r->x.xp, on_doctype);
	return PUZ_OK;
}

static void rd_end(struct reader *r)
{
	if (r->x.xp != NULL)
		XML_ParserFree(r->x.xp);
	if (r->zinit)
		inflateEnd(&r->zs);
}

/* The document read, problem 'k' built into '*out'. */
static int finish(struct reader *r, struct xdoc *d, size_t k,
                  struct puzzle *out, struct xmp_info *info,
                  struct puz_error *err)
{
	struct puzzle p;
	struct xmp_info in;
	int rc = rd_finish(r);

	rd_end(r);
	if (rc == PUZ_OK && k >= d->nproblems) {
		if (d->nproblems == 0)
			rc = fmt_fail(err, 0, 0,
			              "problem %zu: the file has no problems",
			              k + 1);
		else
			rc = fmt_fail(err, 0, 0,
			              "problem %zu: the file has %zu problem%s",
			              k + 1, d->nproblems,
			              d->nproblems == 1 ? "" : "s");
	}
	if (rc == PUZ_OK) {
		memset(&p, 0, sizeof(p));
		memset(&in, 0, sizeof(in));
		rc = xmp_build(d, k, &p, &in, err);
		if (rc == PUZ_OK) {
			*out = p;
			if (info != NULL)
				*info = in;
		} else {
			puz_clear(&p);
		}
	}
	xmp_doc_free(d);
	return rc;
}

/* After the last bytes: the puzzle when reading went well, else the
 * reader's state freed; 'r' is freed either way. */
static int read_end(struct reader *r, struct xdoc *d, int rc, size_t problem,
                    struct puzzle *out, struct xmp_info *info,
                    struct puz_error *err)
{
	if (rc == PUZ_OK) {
		rc = finish(r, d, problem, out, info, err);
	} else {
		rd_end(r);
		xmp_doc_free(d);
	}
	free(r);
	return rc;
}

int xmp_read_mem(const void *data, size_t len, size_t problem,
                 struct puzzle *out, struct xmp_info *info,
                 struct puz_error *err)
{
	struct puz_error dummy;
	struct reader *r;
	struct xdoc d;
	int rc;

	if (err == NULL)
		err = &dummy;
	r = malloc(sizeof(*r));
	if (r == NULL)
		return fmt_fail_nomem(err);
	rc = rd_begin(r, &d, err);
	if (rc == PUZ_OK)
		rc = rd_put(r, data, len);
	return read_end(r, &d, rc, problem, out, info, err);
}

int xmp_read_file(const char *path, size_t problem, struct puzzle *out,
                  struct xmp_info *info, struct puz_error *err)
{
	struct puz_error dummy;
	struct reader *r;
	unsigned char *chunk;
	struct xdoc d;
	FILE *fp;
	size_t n;
	int rc;

	if (err == NULL)
		err = &dummy;
	errno = 0;
	fp = fopen(path, "rb");
	if (fp == NULL)
		return fmt_fail_errno(err, errno);
	r = malloc(sizeof(*r));
	chunk = malloc(XMP_CHUNK);
	if (r == NULL || chunk == NULL) {
		free(r);
		free(chunk);
		fclose(fp);
		return fmt_fail_nomem(err);
	}
	rc = rd_begin(r, &d, err);
	while (rc == PUZ_OK) {
		errno = 0;
		n = fread(chunk, 1, XMP_CHUNK, fp);
		if (n > 0)
			rc = rd_put(r, chunk, n);
		if (n < XMP_CHUNK) {
			if (rc == PUZ_OK && ferror(fp))
				rc = fmt_fail_errno(err, errno);
			break;
		}
	}
	fclose(fp); /* read only: nothing to lose on close */
	free(chunk);
	return read_end(r, &d, rc, problem, out, info, err);
}
