/*
 * solve_int.h: the solver's state, shared by solve.c (goal, types, rows,
 * search, counting) and recolour.c (counting up to renamings of colours).
 * Private to solver/.
 *
 * solve.c and recolour.c call each other: solve.c calls recolour_setup(),
 * recolour_stab() (per cover) and recolour_free(); recolour.c calls
 * solve_cell_map(), solve_keeps_regions(), solve_match_kept() and
 * solve_types_kept(), the tests solve.c builds G and the twin colours
 * with. The loop is the simplest shape: Γ is found with the same tests.
 */
#ifndef CUBEGEN_SOLVE_INT_H
#define CUBEGEN_SOLVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "solver/bb.h"
#include "solver/bbw.h"
#include "solver/poly.h"
#include "solver/solve.h"
#include "solver/xc.h"

/* solver.cell_orbit's mark for a row not on the pinned cell. */
#define PIN_OFF UINT32_MAX

struct type {
	struct shape shape; /* normalised, tags = colours */
	struct shape canon; /* poly_canonical(shape) */
	unsigned count;     /* copies at most */
	unsigned lo;        /* copies at least (== count unless a range) */
	uint32_t cmask;     /* bit c: the type has a cell of colour c */
	size_t piece;       /* first puzzle piece of this type */
	size_t mirror;      /* type of the mirror image; ntypes if none */
	size_t row0, nrows; /* its rows in the row table */
};

/* A form taken apart already (solvedis.c's memo). */
struct memo_ent {
	bool used;
	unsigned char verdict; /* enum dis_verdict */
	uint64_t hash;
	size_t off, len;       /* its key in sdis.forms */
	struct dis_result *apart; /* DIS_APART: the result, owned, with its
	                          * moves; else NULL */
};

/* solve --disassemble, per thread (solvedis.c). */
struct sdis {
	disasm *dis;
	int32_t *owner;       /* per goal cell: the cover's piece there, -1 */
	int32_t *best;        /* per goal cell: the least form's label */
	int32_t *rank;        /* per piece: its rank in the form being made */
	int32_t *best_rank;   /* and in the least form */
	size_t *btype;        /* per piece of the cover: its type (colours) */
	unsigned char *clabels; /* goal grid: the least form, for dis_run */
	unsigned char *key;   /* the memo's key of the cover at hand */
	int form_k;           /* the index in G of the last cover's form */
	unsigned char q_of[DIS_MAX_PIECES]; /* its ranks -> piece numbers */
	struct solve_moves cur; /* the last cover's disassembly */
	uint64_t stuck, undecided, below; /* numerators (solve.h) */
	uint64_t nodes;       /* positions the disassembler visited */
	uint64_t runs;        /* disassemblies run (not found in the memo) */
	uint64_t covers;      /* covers of two pieces or more met */
	uint64_t walks, walk_stuck; /* dis_never_free_shapes() tried, and
	                             * said stuck */
	/* per row: its disassembler shape, box corner, and 1 + the
	 * disassembler's shape epoch they are of (0: none yet); and room
	 * for one row's cells */
	uint32_t *rshape, *repoch;
	int16_t (*rlo)[3];
	int16_t (*rcell)[3];
	bool have_max;
	struct solve_moves max; /* the first of the highest level */
	uint64_t max_num;     /* numerator of the highest level */
	size_t max_task;      /* the task 'max' was found in */
	/* The memo: every form's result (a solution's covers share one). */
	struct memo_ent *memo;
	size_t memo_mask, memo_n;
	unsigned char *forms; /* the memo's keys */
	size_t forms_len, forms_cap;
	size_t memo_bytes;    /* what the memo holds, about (MEMO_BYTES) */
};

/* How a cover counts with --disassemble. */
enum { SDIS_COUNT, SDIS_STUCK, SDIS_UNDECIDED, SDIS_BELOW };

struct solver {
	const struct puzzle *p;
	const struct solve_opts *o;
	struct solve_result *res;

	/* The goal: its cells numbered 0..ncells-1 in grid order. */
	size_t ncells;
	size_t *goal_cell;    /* goal cell -> grid index */
	int32_t *goal_index;  /* grid index -> goal cell, -1 outside the goal */
	size_t nopt;          /* optional goal cells (puz_cell_optional) */
	uint32_t goal_colours; /* bit c: some goal cell has colour c */
	/* Distinct regions (the file's and the six faces), as goal cells:
	 * region k's members are dreg[k * ncells + cell] != 0. */
	size_t ndreg;
	unsigned char *dreg;
	bool coloured;        /* some type has a coloured cell */
	int gmin[3];          /* goal bounding box, grid coordinates */
	int gmax[3];

	struct type *types;   /* distinct pieces up to rotation */
	size_t ntypes;
	size_t *piece_type;   /* puzzle piece -> its type */

	/* The symmetry group G: group[k] indexes poly's 48 symmetries. */
	int group[POLY_NSYM];
	int group_order;      /* |G| */
	int32_t *cellmap;     /* group_order * ncells: cell -> its image under
	                       * group[k], at [k * ncells + cell] */
	/* With ranges of copies and pieces that are not mirror-closed, an
	 * improper symmetry counts for the assemblies whose mirror image is
	 * an assembly too (solve_visit): those of the goal are msym[k], with
	 * their cell maps at mmap[k * ncells]; nmirror is 0 otherwise. */
	int msym[POLY_NSYM];
	int nmirror;
	int32_t *mmap;

	/* The row table: every placement of every type. */
	size_t nrows;
	size_t *rtype;        /* type of each row */
	size_t *roff;         /* nrows + 1 offsets into rcells */
	uint32_t *rcells;     /* goal cells, ascending within a row */
	unsigned char *rcol;  /* the piece cell's colour on each, parallel to
	                       * rcells; NULL when no type has a colour */
	size_t rcap, ccap;    /* capacities of rtype/roff and rcells */
	uint32_t *htab;       /* open addressing: row + 1, 0 empty */
	size_t hmask;

	/* Symmetry breaking (see the top of this file). */
	size_t pin;           /* pinned type P, ntypes if none */
	bool *keeps_pin;      /* per k: group[k] maps type P to itself (is in H) */
	int nkeep;            /* |H| */
	uint32_t *orbit;      /* per row of P: |H r| for representatives, else 0 */
	uint64_t *fixes;      /* per row of P: bit k set when group[k] fixes it */
	/* With no type to pin, a required goal cell C fixed by as much of G
	 * as any (the middle of an odd box: all of G) is pinned instead
	 * (choose_cell): every cover has one row on C, so those rows keep
	 * one per orbit of H, the elements of G fixing C. */
	uint32_t *cell_orbit; /* per row: PIN_OFF when not on C; else |H r|
	                       * for representatives, 0 for the others; NULL
	                       * when no cell is pinned */
	uint64_t *cell_fixes; /* per row on C: bit k set when group[k] fixes it */
	/* One level down (choose_second): below a representative r whose
	 * stabilizer S in H is more than {e}, one other single-copy type Q
	 * keeps one row per orbit of S' (the elements of S mapping Q to
	 * itself), when the engine can leave the others out (bb, bbw). */
	size_t *sec_type;     /* per row of P: Q, or ntypes for none */
	size_t *sec_off;      /* per row of P: its rows' entries in sec_orbit */
	uint32_t *sec_orbit;  /* per row q of Q: |S' q| for the rows kept,
	                       * 0 for those left out */
	bool sec_on;          /* the engine leaves them out */
	/* The same below a pinned cell C (choose_cell_second): below a
	 * representative r on C whose stabilizer S in H is more than {e}, a
	 * required cell C2 outside r keeps one row per orbit of S' (the
	 * elements of S fixing C2) among the rows on C2 that go with r, when
	 * the engine can leave the others out (bb, bbw); a cover whose root
	 * row is r stands for |S' q| times more, q its row on C2. */
	uint32_t *csec_cell;  /* per row: C2 below such an r, else
	                       * UINT32_MAX; NULL when no cell is pinned */
	size_t *csec_off;     /* per row, and one more: its entries in
	                       * csec_row and csec_orb */
	size_t *csec_row;     /* the rows on C2 that go with r, ascending */
	uint32_t *csec_orb;   /* |S' q| for the rows kept, 0 for the others */
	bool csec_on;         /* the engine leaves them out */
	size_t *table_row;    /* searched row number -> table row */
	size_t nsearched;     /* rows given to the engine */
	size_t *cover_rows;   /* a cover's table rows, one per piece */
	int32_t *cov_owner;   /* per goal cell: the row of the cover on it
	                       * (index in cover_rows), -1 between covers */

	/* Search state. A split search (tasks.c) gives each thread a copy
	 * of this struct with its own search state, from here to the end
	 * (tasks.c: worker_init); the fields above are built before the
	 * search and only read during it. */
	uint32_t *stamp;      /* per table row: == stamp_now when in the cover */
	uint32_t stamp_now;
	uint32_t *image;      /* a row's image cells (row_image) */
	unsigned char *image_col; /* and their colours */
	size_t image_cap;
	uint64_t *image_bits; /* ncells bits, all 0 between row_image()s;
	                       * made on first use (NULL: sort_cells()) */
	unsigned char *labels; /* goal-grid labels of a cover (visitor) */
	unsigned char *colours; /* goal-grid colours of a cover, with rcol */
	xc *dlx;              /* the engine searching, when dancing links */
	uint32_t piece_colours; /* bit c: some type has colour c */
	uint32_t twin_colours; /* colours in classes of two or more
	                        * interchangeable colours (colour breaking) */
	uint32_t twin_class[PUZ_NCOLOURS + 1]; /* colour -> its class mask */
	bool overflow;        /* a count passed 2^64 - 1 */

	/* Counting up to renamings (rename_colours; recolour.c). */
	uint32_t all_colours; /* colours in pieces or goal */
	bool geo_ok[POLY_NSYM];  /* g maps the goal's cells, optional marks
	                          * and distinct regions onto themselves */
	int32_t *geo_map;     /* POLY_NSYM * ncells: g's cell map */
	unsigned char goal_force[POLY_NSYM][PUZ_NCOLOURS + 1]; /* π forced by
	                       * the goal's colours; 0xff unforced */
	uint64_t sig[2][PUZ_NCOLOURS + 1]; /* colour invariants, proper and
	                                    * mirrored, that π must keep */
	uint64_t gamma_order; /* |Γ| */
	uint64_t weighted_rc; /* sum of assemblies * |Stab_Γ|: |Γ| * solutions */
	int32_t *owner;       /* per goal cell: its piece in the cover, -1 */
	unsigned char *pcol;  /* per goal cell: the piece cell's colour */
	unsigned *copies_used; /* per type: copies labelled so far (visitor) */
	uint64_t weighted;    /* sum of |H r| * |Stab_G(y)|: |G| * solutions */
	uint64_t assemblies;
	bool oom;             /* an allocation failed inside the visitor */

	/* --disassemble (solvedis.c): group_inv[k] is the index in G of
	 * group[k]'s inverse (read only); sd is the thread's own. */
	int group_inv[POLY_NSYM];
	bool dis_traits;      /* some piece has a group, or weights differ */
	struct sdis sd;

	/* A split search's thread (tasks.c); pool NULL in a plain one. */
	struct pool *pool;
	size_t task;          /* the task being searched */
	bool task_found;      /* it has had a cover */
};

/* solve.c: the puzzle piece that is copy k of type t (copies numbered
 * through the type's pieces in file order). */
size_t solve_copy_piece(const struct solver *s, size_t t, unsigned k);

/* solvedis.c: --disassemble. sdis_prepare fills group_inv once;
 * sdis_thread_init/free a thread's own state (s->sd); sdis_cover takes
 * the cover 'rows' apart into s->sd.cur and says how it counts (SDIS_*);
 * sdis_tally adds its numerator share 'num' (false: overflow or out of
 * memory, flagged in s); sdis_add adds a thread's sums into s's (false:
 * overflow); sdis_result moves the sums into res, divided by
 * res->divisor. */
int sdis_prepare(struct solver *s);
int sdis_thread_init(struct solver *s);
void sdis_thread_free(struct solver *s);
int sdis_cover(struct solver *s, const size_t *rows, size_t n, int *kind);
bool sdis_tally(struct solver *s, int kind, uint64_t num);
bool sdis_add(struct solver *s, struct solver *w);
/* solvedis.c: the last cover taken apart, as its form: 'labels' (goal
 * grid, 1 + puzzle piece as solve_result.first) and 'colours' (NULL: none)
 * are rewritten from the cover's frame into the form's. */
void sdis_show(struct solver *s, unsigned char *labels, unsigned char *colours);
void sdis_result(struct solver *s, struct solve_result *res);

/* solve.c: the visitor of both engines: weighs and counts a cover. */
bool solve_visit(void *ctx, const size_t *xrows, size_t n);
/* solve.c: what the sum of the covers' weights (weighted) is divided by:
 * |G|, twice that when improper symmetries count for some assemblies. */
uint64_t solve_divisor(const struct solver *s);

/* The engine a search runs on, one of three (solve.c builds it; the
 * engine_* calls, tasks.c, pick the engine's own function once per
 * search or task, never inside its loops). The pointer may be NULL. */
enum engine_kind { ENGINE_BB, ENGINE_BBW, ENGINE_XC };
struct engine {
	enum engine_kind kind;
	union {
		bb *b;
		bbw *bw;
		xc *x;
	};
};

/* tasks.c: one whole search (bb_solve, bbw_solve, xc_solve); free the
 * engine. */
enum xc_stop tasks_engine_solve(struct engine e, uint64_t max_nodes,
                                xc_visit visit, void *ctx, uint64_t *nodes);
void tasks_engine_free(struct engine e);

/* tasks.c: run the search of 's' on engine 'e', split into tasks, as
 * s->o asks (threads, shard); fills s->res's nodes, stop, tasks and s's
 * sums. SOLVE_OK, SOLVE_ENOMEM or SOLVE_EOVERFLOW. */
int tasks_run(struct solver *s, struct engine e);
/* For solve_visit in a thread: whether this cover may be the first
 * (first cover of its task, and no lower task has one yet); keep the
 * labels as the first; call on_cover (serialised); count 'num' (the
 * cover's share of the numerator) and say whether to go on. */
bool tasks_first_wanted(struct solver *s);
void tasks_keep_first(struct solver *s);
void tasks_on_cover(struct solver *s);
bool tasks_count(struct solver *s, uint64_t num);

/* solve.c: the type that type t becomes with its colours renamed by
 * 'perm' (perm[0] = 0) and, if 'mirror', mirrored, into '*u' (ntypes when
 * none); and whether such a renaming keeps the multiset of types with
 * their ranges of copies. SOLVE_OK or SOLVE_ENOMEM. */
int solve_renamed_type(const struct solver *s, size_t t,
                       const unsigned char *perm, bool mirror, size_t *u);
int solve_types_kept(const struct solver *s, const unsigned char *perm,
                     bool mirror, bool *kept);

/* solve.c: whether renaming colours by 'perm' keeps the match table:
 * every entry between colours the puzzle uses (all_colours). */
bool solve_match_kept(const struct solver *s, const unsigned char *perm);

/* solve.c: the image of each goal cell under symmetry 'sym' into 'map'
 * (ncells entries), the goal's bounding box mapped onto itself; false
 * when the goal's cells do not map onto goal cells (colours ignored). */
bool solve_cell_map(const struct solver *s, int sym, int32_t *map);

/* solve.c: whether cell map 'map' takes the set of distinct regions onto
 * itself ('mark': ncells bytes of scratch, left zero). */
bool solve_keeps_regions(const struct solver *s, const int32_t *map,
                         unsigned char *mark);

/* recolour.c: find Γ, the pairs (g, π) of a symmetry of the goal's cells
 * and a renaming of colours that map the puzzle onto itself, and its
 * order into s->gamma_order. */
int recolour_setup(struct solver *s);
/* |Stab_Γ(y)| of the cover y made of table rows 'rows' into '*stab'. */
int recolour_stab(struct solver *s, const size_t *rows, size_t n,
                  uint64_t *stab);
void recolour_free(struct solver *s);

#endif
