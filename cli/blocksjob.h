/*
 * blocksjob.h: finding block puzzles as 'generate --kind blocks' does
 * (genblocks.c), shared by generate and batch: the goal read and checked,
 * the generator's rules set, each seed's puzzle found and proved again.
 */
#ifndef CUBEGEN_BLOCKSJOB_H
#define CUBEGEN_BLOCKSJOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gen/blocks.h"
#include "gen/gen.h"

struct blocks_job {
	struct grid goal;
	struct blk_spec spec; /* its piece_ok context is the job: never move
	                       * a job once set up */
	double unit, clearance; /* the pieces must mesh at these */
	enum gen_band band;     /* asked for (GEN_BAND_ANY: none) */
	struct gen_bands bands; /* its limits, when one was asked for */
	bool from_file;
	int dim[3];
	char size[80]; /* "4", "3x3x4", or the goal file's name */
	bool show;     /* blocks_job_run() shows a long search's progress on
	                * stderr (set by the caller; only on a terminal) */
};

/* Read the goal (the box 'size', or the goal of 'goalfile') and check it
 * with the ranges; with a band, measure the bands (blk_bands(), a note on
 * stderr when it is a terminal). CLI_OK, or the error printed ("CMD:
 * ...") and its exit code; on CLI_OK the caller clears the job with
 * blocks_job_clear(). */
int blocks_job_init(struct blocks_job *j, const char *cmd, const int size[3],
                    const char *goalfile, const int pieces[2],
                    const int cells[2], bool support_free, int level,
                    uint64_t attempts, unsigned threads, double unit,
                    double clearance, int band);
void blocks_job_clear(struct blocks_job *j);

/* The puzzle of 'seed': blk_find_band() from the seed's own stream,
 * named and proved unique again by dancing links; with j->show and
 * stderr a terminal, a search past a second shows its attempts, proofs
 * and time there, rewritten in place and blanked at the end. CLI_OK with '*f'
 * written and, when f->found, '*b' (the caller clears it) and its
 * '*score'; else the error printed and CLI_FAIL. */
int blocks_job_run(struct blocks_job *j, const char *cmd, uint64_t seed,
                   struct blk_puzzle *b, struct blk_found *f, double *score);

/* "band: hard (difficulty >= 12.00 for these puzzles)" and the like, for
 * the job's band; "" without one. */
void blocks_band_text(const struct blocks_job *j, char *buf, size_t len);

/* A disassembly's level as text, "1" when it has no number ("98.2.4"). */
void blocks_level_text(const struct dis_result *d, char *buf, size_t len);

#endif
