/*
 * xmread_int.h: the BurrTools reader's two halves. xmread.c turns bytes
 * (gzip or plain XML) into the document below, checking the XML and
 * every element and attribute; xmbuild.c turns one problem of that
 * document into a struct puzzle with cubegen's semantics. Not part of
 * the public API.
 */
#ifndef CUBEGEN_XMREAD_INT_H
#define CUBEGEN_XMREAD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "formats/fmt_int.h"

/* Voxel states as BurrTools writes them: '_', '#', '+'. A voxel is kept
 * as one byte: state | colour << 2 (colour 0..XMP_MAX_INDEX). */
enum { XV_EMPTY = 0, XV_FILLED = 1, XV_VARIABLE = 2 };
#define XV_STATE(v) ((v) & 3)
#define XV_COLOUR(v) ((v) >> 2)
/* BurrTools' own limit on a colour index (voxel.cpp: "> 63"). */
#define XMP_MAX_INDEX 63

/* A <voxel> of <shapes>: one shape, as read. */
struct xshape {
	unsigned char *v; /* voxels in file order (x fastest), owned */
	size_t n, cap;    /* voxels read, bytes allocated */
	uint64_t dim[3];  /* the x, y, z attributes */
	char *name;       /* the name attribute, NULL if none, owned */
	int line, col;    /* where the element starts */
	int maxcolour;    /* the largest colour index a voxel has */
	size_t maxat;     /* the first voxel with it */
	int weight;       /* the weight attribute, 1 if none */
};

/* A <shape> of a problem's <shapes>: a piece and its count. */
struct xpart {
	uint64_t id;       /* shape id, 0-based */
	uint64_t min, max; /* count range; min == max for a plain count */
	int line, col;
	/* BurrTools groups: the group attribute, or the <group> elements
	 * inside (group, count each); 'group' is the one group all copies
	 * are in (0 none), 'mixed' when they are split among several */
	uint64_t group;
	size_t ngroups;    /* <group> elements with a group other than 0 */
	uint64_t gcount;   /* the count of the last of them */
	bool mixed;
};

/* A <problem>. */
struct xproblem {
	char *name;          /* the name attribute, NULL if none, owned */
	int line, col;
	struct xpart *parts; /* nparts entries, owned */
	size_t nparts, cap;
	bool has_result;     /* a <result> was read */
	uint64_t result;     /* its id */
	int rline, rcol;
	uint64_t allow[XMP_MAX_INDEX + 1]; /* <pair piece=P result=R>: bit R
	                                    * of allow[P], 0-based colours */
	int maxpair;         /* the largest colour index a pair names, -1 */
	int pline, pcol;     /* where that pair is */
	bool has_maxholes;   /* a maxHoles attribute */
	uint64_t maxholes;
	bool solved;         /* state="2": the counts below are BurrTools' */
	uint64_t assemblies, solutions;
};

/* The whole file. */
struct xdoc {
	uint32_t rgb[PUZ_NCOLOURS + 1]; /* colour c (1-based) as 0xRRGGBB */
	size_t ncolours;
	struct xshape *shapes;
	size_t nshapes, shcap;
	struct xproblem *problems;
	size_t nproblems, prcap;
};

void xmp_doc_free(struct xdoc *d);

/* One problem of 'd' into the empty puzzle 'p' (the caller frees it
 * either way) and '*info'. PUZ_EPARSE with '*err' set for what cubegen
 * cannot represent; PUZ_ENOMEM. */
struct xmp_info;
int xmp_build(const struct xdoc *d, size_t k, struct puzzle *p,
              struct xmp_info *info, struct puz_error *err);

#endif
