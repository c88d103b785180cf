/*
 * shell_int.h: the shell fast path's layout, shared by its two searches:
 * counting (shell.c) and the person's-order difficulty walk
 * (difficulty.c). Private to solver/.
 *
 * Geometry and layout are described at the top of shell.c. A struct
 * shell is set up by shell_setup_geometry() (from L), shell_make_types()
 * (from the plates) and shell_setup_order() (per search order); the
 * search state fields are the searches' own.
 */
#ifndef CUBEGEN_SHELL_INT_H
#define CUBEGEN_SHELL_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "solver/poly.h"
#include "solver/shell.h"

#define SH_MAXN 64
#define SH_MAXPLACE 72 /* 8 turns times 9 shifts */

/* A placement on a face: its border as four side masks (see the top),
 * and for the search the same split into edge interiors and corners. */
struct orient {
	uint64_t side[4];
	uint64_t edge[4];  /* side[q] without its two end cells */
	unsigned corners;  /* bit q: frame corner q ((0,0), (W-1,0), (0,H-1),
	                    * (W-1,H-1)) covered */
};

/* A plate's placements on the faces of one axis (all of them W x H). */
struct onaxis {
	int nor;                     /* distinct placements */
	struct orient o[SH_MAXPLACE];
};

struct ptype {
	unsigned count;        /* copies left to place */
	int ncopies;           /* plates of this type */
	int copy[6];           /* those plates, in plate order */
	struct onaxis *ax[3];  /* placements on the faces of axis 0, 1, 2
	                        * (into shell.place; axes whose faces have
	                        * the same shape share one table) */
};

/* The pinned plate on one representative face, up to Stab_G(face). */
struct pinface {
	int face;
	int nrep;
	int rep[SH_MAXPLACE];   /* placement indexes on that face's axis */
	int orbit[SH_MAXPLACE]; /* |G r| for each */
};

struct shell {
	int L[3];             /* the box */
	int fw[6], fh[6];     /* each face's frame, W x H */
	int edge[6][4];       /* edge of each side of each face */
	int corner[6][4];     /* corner at frame (0,0), (W-1,0), (0,H-1), (W-1,H-1) */
	uint8_t cmask[6][16]; /* face f's frame corners (orient.corners) as
	                       * the box's corner byte */
	uint64_t full[12];    /* each edge's interior, all set */
	int group[POLY_NSYM]; /* G: poly symmetries mapping the box onto itself */
	int order_g;          /* |G| */
	struct ptype type[6];
	int ntypes;
	struct pinface pinf[3]; /* the pinned type's representative faces */
	int npinf;
	/* search state, for the face order in use */
	int order[6];         /* faces in search order; order[0] holds P */
	uint64_t cdone[6];    /* corners complete after step d */
	uint16_t edone[6];    /* edges complete after step d */
	uint64_t ecover[12];
	unsigned ccover;
	int ctype[6], corient[6]; /* per step */
	uint64_t pin_orbit;   /* |G r| of the pinned placement in use */
	bool pin_free;        /* Stab_G(r) trivial: no stabiliser to test */
	uint64_t weighted;    /* |G| * solutions found so far */
	uint64_t assemblies, nodes;
	uint64_t dead;        /* the difficulty walk: dead ends */
	const struct solve_opts *o;
	bool stop_nodes, stop_sol;
	const int *plate_piece; /* plate -> label - 1 for 'first' */
	unsigned char *first;   /* X*Y*Z labels or NULL */
	unsigned char *lab;     /* X*Y*Z: an assembly's labels (type + 1) */
	unsigned char *reg;     /* X*Y*Z: the face each cell's plate lies on */
	bool want_first, oom;
	/* Last, and not zeroed (40 KiB: written before it is read): each
	 * plate's placements per axis. */
	struct onaxis place[6][3];
};

/* A plate as given: pw x ph cells [x + pw*y], 0/1. */
struct shell_plate {
	int pw, ph;
	const unsigned char *cells;
};

/* Put placement 'o' on step d's face: false, and nothing changed, when
 * it covers a cell twice; else true with it placed, and '*full' whether
 * every edge and corner complete after step d is covered. Both searches'
 * inner loop: four word tests, then a few more. */
static inline bool shell_put(struct shell *s, int d, const struct orient *o,
                             bool *full)
{
	int f = s->order[d];
	const int *edge = s->edge[f];
	if ((s->ecover[edge[0]] & o->edge[0]) | (s->ecover[edge[1]] & o->edge[1]) |
	    (s->ecover[edge[2]] & o->edge[2]) | (s->ecover[edge[3]] & o->edge[3]))
		return false;
	unsigned cm = s->cmask[f][o->corners];
	if (s->ccover & cm)
		return false;
	s->ccover |= cm;
	for (int q = 0; q < 4; q++)
		s->ecover[edge[q]] |= o->edge[q];
	bool ok = (s->ccover & s->cdone[d]) == s->cdone[d];
	for (int q = 0; q < 4 && ok; q++)
		if (s->edone[d] >> edge[q] & 1)
			ok = s->ecover[edge[q]] == s->full[edge[q]];
	*full = ok;
	return true;
}

/* Take back what shell_put() placed (no bit was set twice, so clearing
 * what it set undoes it). */
static inline void shell_take(struct shell *s, int d, const struct orient *o)
{
	int f = s->order[d];
	const int *edge = s->edge[f];
	for (int q = 0; q < 4; q++)
		s->ecover[edge[q]] &= ~o->edge[q];
	s->ccover &= ~(unsigned)s->cmask[f][o->corners];
}

/* Whether every side is 3..SH_MAXN. */
bool shell_box_ok(const int L[3]);
/* Whether each plate holds a full 2 x 2 block (shell.h's condition). */
bool shell_plates_ok(const struct shell_plate pl[6]);
/* The box and plates of puzzle 'p' (plate k is a copy of piece
 * piece_of[k]), 0; SHELL_NOT_SHELL when it is not a six-plate shell. The
 * plates point into 'p'. */
int shell_plates_of(const struct puzzle *p, int L[3],
                    struct shell_plate pl[6], int piece_of[6]);
/* The same from the generator's arrays (shell_count()'s arguments). */
int shell_plates_given(const int dim[3], const unsigned char *const plates[6],
                       const int (*pdims)[2], struct shell_plate pl[6]);
/* Faces, edges, corners and G of the box s->L. */
void shell_setup_geometry(struct shell *s);
/* Group the plates into types with their placements (s->ntypes == 0
 * before). */
void shell_make_types(struct shell *s, const struct shell_plate pl[6]);
/* Search order: face f0, then the four faces around it starting with
 * axis 'wall' (!= f0's axis) at coordinate 0, the other axis at 0, then
 * both at their maximum, then the face opposite f0; which edges and
 * corners are complete after each step. */
void shell_setup_order(struct shell *s, int f0, int wall);

#endif
