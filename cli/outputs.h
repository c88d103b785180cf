/*
 * outputs.h: the files 'generate' writes for one unique puzzle (DESIGN.md
 * §3), into an output folder that is renamed into place afterwards.
 */
#ifndef CUBEGEN_OUTPUTS_H
#define CUBEGEN_OUTPUTS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "gen/blocks.h"
#include "gen/gen.h"

struct output_opts {
	double unit;      /* cell edge, mm */
	double wall;      /* thickness of the box's outer layers, mm */
	double clearance; /* gap between pieces, mm */
	bool labels;      /* engrave the pieces' numbers */
	uint64_t seed;
};

/* Write every file for 'g' into 'od'; prints an error and returns false
 * on the first failure (the caller aborts the folder). */
bool outputs_write(struct outdir *od, const struct gen_puzzle *g,
                   const struct output_opts *o);

/* puzzle.puz and puzzle.xmpuzzle of 'p', the latter with the solutions
 * 'sols' (NULL: none); an error printed and false on failure. */
struct xmp_solutions;
bool outputs_puzzle_files(struct outdir *od, const struct puzzle *p,
                          const struct xmp_solutions *sols);

/* Write picture 'name' drawn with status 'rc' (draw.h) and free 'png';
 * an error printed and false when drawing or writing failed. */
bool outputs_png(struct outdir *od, const char *name, int rc,
                 unsigned char *png, size_t len);

/* Every file for block puzzle 'b' into 'od' (its puzzle's name is the
 * files' title; o->wall is not used: pieces are solid); prints an error
 * and returns false on the first failure. */
bool outputs_write_blocks(struct outdir *od, const struct blk_puzzle *b,
                          const struct output_opts *o);

#endif
