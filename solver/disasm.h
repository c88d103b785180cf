/*
 * disasm.h: can an assembly be taken apart by hand? BurrTools' disassembler
 * rules (DESIGN.md §2b), answered by breadth-first search.
 *
 * Input: an assembly as labels on a box of cells, x fastest:
 * labels[x + nx * (y + ny * z)] is 0 for an empty cell, else 1 + the index
 * of the piece there (pieces 0..npieces-1, npieces <= DIS_MAX_PIECES, each
 * piece's cells face-connected or not: only cells matter). Pieces never
 * turn; a move shifts a group of pieces (any subset) some whole number of
 * cells along +x, -x, +y, -y, +z or -z through no other piece. Space is
 * unbounded: the box only holds the start.
 *
 * The search, as BurrTools': positions are breadth-first searched from the
 * start (positions that differ by a shift of everything are one); the
 * first depth L at which some group can move arbitrarily far (a
 * separation) is the part's first number; that group ("removed") and the
 * rest ("left"), at their positions just before the last move, are taken
 * apart on their own. BurrTools stops at the first separation it finds at
 * depth L and calls the assembly stuck when one of its parts is; cubegen
 * tries every separation at depth L, in a fixed order, and takes the first
 * whose parts both come apart, so that the verdict does not hang on an
 * order (the two agree whenever all separations at depth L agree). An
 * assembly whose search finds no separation at all is stuck.
 *
 * The separations tried, in BurrTools' order: for each direction (+x, -x,
 * +y, -y, +z, -z) and each piece e of the part in turn, the smallest group
 * holding e that can move arbitrarily far along it, when that is e alone;
 * then the same for groups of 2 to k/2 of the part's k pieces. That group
 * is "removed", unless its heaviest piece outweighs the rest's (BurrTools'
 * weights): then the rest is removed the other way (the heaviest stays).
 * Other moves are shown moving the smaller side (on a tie the side
 * without the part's first piece), the heaviest piece staying.
 *
 * The level, BurrTools' text "a.b.c" as numbers: a part's number of moves
 * (the freeing move counted), then, in pre-order, the levels of its left
 * part and then of its removed part, each written only when some
 * separation inside it takes more than one move. So the level ends in 1
 * only when it is [1].
 *
 * Groups (BurrTools' piece groups, each piece in at most one): a part
 * all of whose pieces are in one group needs not come apart; it is taken
 * as done, with no moves and nothing in the level. The whole assembly is
 * always taken apart (as BurrTools does).
 *
 * Moves: the whole disassembly as a list, in that same order: the moves of
 * a part until its separation (the last, with dist 0 for "out", moves the
 * removed side), then the left part's moves, then the removed part's. A
 * part of one piece has none. 'group' holds the pieces that move (bit i:
 * piece i).
 *
 * The positions are met in BurrTools' order too (its movement
 * analysis): from each position, direction by direction, piece by piece
 * and 1, 2, ... cells, the least group holding the piece that can move
 * that far, and its unions with the groups found before; so the
 * separation met first, and with it the level's later numbers, are the
 * ones BurrTools finds on the same assembly with its pieces numbered
 * alike.
 *
 * Bounds: a part's search keeps at most max_nodes positions (0: the
 * default DIS_MAX_NODES), and from one position at most 4096 groups move
 * along one direction; a search stopped by either is DIS_BOUND, never
 * stuck. Pieces move at most DIS_MAX_SHIFT cells from where they started
 * (beyond that a piece is free anyway when the box is smaller).
 *
 * A part that does not come apart (stuck or bounded) is remembered for
 * the rest of the run by its pieces and their offsets from one another,
 * and not searched again when another order of separations reaches it:
 * the verdict of a part depends on nothing else. Without this, a stuck
 * part among m loose pieces was searched once per order of taking them
 * away (m! times; 8 loose cubes around a caged one: minutes, now 4,692
 * positions).
 *
 * Ownership: a disasm holds caches reused across calls (one per thread);
 * dis_result owns its move list (dis_result_clear). Errors: DIS_ENOMEM,
 * DIS_ETOOBIG (more than DIS_MAX_PIECES pieces, or a box side over
 * DIS_MAX_DIM); outputs are then left untouched.
 */
#ifndef CUBEGEN_DISASM_H
#define CUBEGEN_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dis_status { DIS_OK = 0, DIS_ENOMEM, DIS_ETOOBIG };

#define DIS_MAX_PIECES 64
#define DIS_MAX_DIM 128
#define DIS_MAX_SHIFT 2000
#define DIS_MAX_NODES 4000000u
/* Numbers in a level, at most: one per part with more than one piece. */
#define DIS_MAX_LEVEL (DIS_MAX_PIECES - 1)

/* Room for a level as text ("98.2.4"), the terminating zero included. */
#define DIS_LEVEL_TEXT (DIS_MAX_LEVEL * 11 + 1)

/* Directions: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z. */
enum dis_dir { DIS_PX, DIS_NX, DIS_PY, DIS_NY, DIS_PZ, DIS_NZ };

enum dis_verdict {
	DIS_APART,  /* comes apart into single pieces */
	DIS_STUCK,  /* does not: the search ran to its end */
	DIS_BOUND,  /* undecided: a search reached max_nodes */
};

struct dis_move {
	uint64_t group; /* bit i: piece i moves */
	int dir;        /* enum dis_dir */
	int dist;       /* cells, >= 1; 0: out (the group comes free) */
};

struct dis_result {
	enum dis_verdict verdict;
	int level[DIS_MAX_LEVEL]; /* DIS_APART only */
	size_t nlevel;
	struct dis_move *moves;   /* DIS_APART only; owned */
	size_t nmoves;
	uint64_t nodes;           /* positions visited, over every part */
};

typedef struct disasm disasm;

/* A new disassembler, or NULL when out of memory. */
disasm *dis_new(void);
void dis_free(disasm *d);
/* Positions a part's search keeps, at most (0: DIS_MAX_NODES). */
void dis_set_max_nodes(disasm *d, uint64_t max_nodes);

/* Take apart the assembly 'labels' of 'npieces' pieces (see the top;
 * every piece 0..npieces-1 has a cell), 'weights' their BurrTools weights
 * (NULL: all equal), 'groups' their BurrTools groups (NULL: none; 0 none).
 * Fills '*out' on DIS_OK. */
int dis_run(disasm *d, int nx, int ny, int nz, const unsigned char *labels,
            size_t npieces, const int *weights, const unsigned *groups,
            struct dis_result *out);
void dis_result_clear(struct dis_result *r);

/* Whether an assembly has no separation at any position it can reach,
 * found by a walk over those positions that gives up past a thousand or
 * so: *stuck true when it has none (dis_run() would say DIS_STUCK,
 * having visited *nodes positions), false when not known this way. Its
 * answer is the same for every image of the assembly under a rotation
 * or a reflection, and weights and groups do not change it. When it is
 * no, the next dis_run() skips that walk (it is meant for an image of
 * the same assembly; on another it only costs the walk's saving, never
 * a result).
 *
 * The pieces are given by their shapes, for a caller that meets the
 * same pieces again and again (the covers of a search): dis_shape()
 * gives the number of the shape of n cells (x, y, z, none negative, at
 * least one 0 on each axis, in the order of a box's cells: x fastest,
 * then y, then z, as labels list them; in another order the same cells
 * are another shape, which only costs the pair cache), and such numbers
 * hold while dis_shape_epoch() gives the same (past 65,536 shapes they
 * are all forgotten). Piece i of the assembly is shape[i] with its box
 * corner at lo[i]. */
int dis_shape(disasm *d, const int16_t (*cells)[3], size_t n, uint32_t *shape);
uint32_t dis_shape_epoch(const disasm *d);
int dis_never_free_shapes(disasm *d, size_t npieces, const uint32_t *shape,
                          const int16_t (*lo)[3], bool *stuck,
                          uint64_t *nodes);
/* dis_run() of the assembly whose piece i is shape[i] with its box
 * corner at lo[i] (as dis_never_free_shapes() takes it): the same
 * result as dis_run() on labels that hold those pieces, without a look
 * at every cell of the labels' box. */
int dis_run_shapes(disasm *d, size_t npieces, const uint32_t *shape,
                   const int16_t (*lo)[3], const int *weights,
                   const unsigned *groups, struct dis_result *out);

/* Compare levels lexicographically, a prefix lower: <0, 0, >0. */
int dis_level_cmp(const int *a, size_t na, const int *b, size_t nb);
const char *dis_strerror(int status);

#endif
