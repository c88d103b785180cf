/*
 * genblocks.c: 'cubegen generate --kind blocks': cut a box or a puzzle
 * file's goal into solid pieces with exactly one solution that comes
 * apart (gen/blocks.h), prove it again with another engine, and write
 * its files (blockfiles.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/blocksjob.h"
#include "cli/cli.h"
#include "cli/outputs.h"
#include "gen/blocks.h"
#include "gen/gen.h"
#include "mesh/mesh.h"
#include "solver/solve.h"

/* A final piece is kept only when it meshes at the size asked for. With
 * a clearance every piece does (mesh.h, "Notches"), so this is asked only
 * with clearance 0, where cells that touch along an edge do not. */
static int meshes(void *ctx, const unsigned char *cells, int nx, int ny, int nz)
{
	const struct blocks_job *mc = ctx;
	struct mesh *m = NULL;
	int rc = mesh_from_cells(cells, nx, ny, nz, mc->unit, mc->clearance, &m);
	mesh_free(m);
	return rc == MESH_OK ? 1 : rc == MESH_ENOMEM ? -1 : 0;
}

/* The goal: the box 'size', or the goal of 'file'. CLI_OK or the error
 * printed ("CMD: ...") and its code. */
static int read_goal(const char *cmd, const int size[3], const char *file,
                     struct grid *goal)
{
	if (!file) {
		if (puz_grid_init(goal, size[0], size[1], size[2]) != PUZ_OK) {
			cli_error("%s: out of memory", cmd);
			return CLI_FAIL;
		}
		memset(goal->cells, PUZ_CELL,
		       (size_t)goal->nx * (size_t)goal->ny * (size_t)goal->nz);
		return CLI_OK;
	}
	struct puzzle p;
	int rc = cli_read_goal(file, &p);
	if (rc != CLI_OK)
		return rc;
	*goal = p.goal;
	p.goal = (struct grid){0};
	puz_clear(&p);
	return CLI_OK;
}

/* The last check's progress on a terminal (confirm()): after a second,
 * about four times a second. */
static void show_confirm(void *ctx, const struct solve_progress *p)
{
	struct cli_status *line = ctx;
	double el;
	if (cli_status_due(line, &el))
		cli_status_show(line, "checking the puzzle again by dancing links: "
		                "%" PRIu64 " of %" PRIu64 " parts, %.1f s",
		                p->tasks_done, p->tasks, el);
}

/* Whether the written puzzle is unique by dancing links, which shares no
 * search code with the bitboard engines blk_find() proved it with, on
 * 'threads' threads (the same answer on any number; 5x5x5 in 16 pieces
 * of 6 to 8 cells takes it tens of seconds on one), its progress shown
 * on a terminal when 'show'. */
static int confirm(const struct puzzle *p, unsigned threads, bool show,
                   bool *unique)
{
	struct cli_status line = {.t0 = cli_now(), .after = 1.0, .every = 0.25};
	struct solve_opts o = {.max_solutions = 2, .engine = SOLVE_DLX,
	                       .threads = threads};
	if (show && isatty(STDERR_FILENO)) {
		o.progress = show_confirm;
		o.progress_ctx = &line;
	}
	struct solve_result r;
	int rc = solve_puzzle(p, &o, &r);
	cli_status_end(&line);
	if (rc == SOLVE_OK) {
		*unique = r.complete && r.solutions == 1;
		solve_result_clear(&r);
	}
	return rc;
}

/* --cells when not given: 4..8 (4..12 with a level above 1: pieces
 * shrink around the hollows and hook around each other), or when no
 * count of pieces A..B can fill the goal with those because the goal is
 * too big, widened until A pieces can: up to ceil(cells / A) cells (a bad
 * range, or too many pieces, is blk_check()'s to refuse). */
static void default_cells(const struct grid *goal, const int pieces[2],
                          int level, int cells[2])
{
	size_t total = (size_t)goal->nx * (size_t)goal->ny * (size_t)goal->nz;
	long n = 0;
	for (size_t i = 0; i < total; i++)
		n += goal->cells[i] != 0;
	cells[0] = 4;
	cells[1] = level > 1 ? 12 : 8;
	if (pieces[0] < 1 || pieces[0] > pieces[1])
		return;
	for (long k = pieces[0]; k <= pieces[1]; k++)
		if (k * cells[0] <= n && n <= k * cells[1])
			return;
	if (n > (long)pieces[1] * cells[1])
		cells[1] = (int)((n + pieces[0] - 1) / pieces[0]);
}

int blocks_job_init(struct blocks_job *j, const char *cmd, const int size[3],
                    const char *goalfile, const int pieces[2],
                    const int cells[2], bool support_free, int level,
                    uint64_t attempts, unsigned threads, double unit,
                    double clearance, int band)
{
	memset(j, 0, sizeof *j);
	int code = read_goal(cmd, size, goalfile, &j->goal);
	if (code != CLI_OK)
		return code;
	j->unit = unit;
	j->clearance = clearance;
	int cl[2] = {cells[0], cells[1]};
	if (cl[0] < 0)
		default_cells(&j->goal, pieces, level, cl);
	j->spec = (struct blk_spec){
		.pieces_min = pieces[0], .pieces_max = pieces[1],
		.cells_min = cl[0], .cells_max = cl[1],
		.max_attempts = attempts, .support_free = support_free,
		.level_min = level,
		.piece_ok = clearance > 0 ? NULL : meshes, .ctx = j,
		.threads = threads ? threads : cli_cores(SOLVE_MAX_THREADS)};
	char why[200];
	int rc = blk_check(&j->goal, &j->spec, why, sizeof why);
	if (rc != GEN_OK) {
		if (rc == GEN_EINVAL)
			cli_error("%s: %s%s%s", cmd, goalfile ? goalfile : "",
			          goalfile ? ": " : "", why);
		else
			cli_error("%s: out of memory", cmd);
		puz_grid_clear(&j->goal);
		return rc == GEN_EINVAL ? CLI_USAGE : CLI_FAIL;
	}
	/* "4", "3x3x4" or the goal file's name without folders and without
	 * its last dot's extension ("my.box.puz" is "my.box") */
	j->from_file = goalfile != NULL;
	if (goalfile) {
		const char *base = strrchr(goalfile, '/');
		base = base ? base + 1 : goalfile;
		const char *dot = strrchr(base, '.');
		int n = dot && dot > base ? (int)(dot - base) : (int)strlen(base);
		snprintf(j->size, sizeof j->size, "%.*s", n > 60 ? 60 : n, base);
	} else if (gen_is_cube(size)) {
		snprintf(j->size, sizeof j->size, "%d", size[0]);
	} else {
		snprintf(j->size, sizeof j->size, "%dx%dx%d", size[0], size[1], size[2]);
	}
	memcpy(j->dim, size, sizeof j->dim);
	j->band = (enum gen_band)band;
	if (j->band != GEN_BAND_ANY) {
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "measuring the difficulty bands of these block "
			        "puzzles (%d of them)...\n", BLK_CALIB_SAMPLES);
		if (blk_bands(&j->goal, &j->spec, BLK_CALIB_SAMPLES, &j->bands) !=
		    GEN_OK) {
			cli_error("%s: out of memory", cmd);
			puz_grid_clear(&j->goal);
			return CLI_FAIL;
		}
	}
	return CLI_OK;
}

void blocks_band_text(const struct blocks_job *j, char *buf, size_t len)
{
	const struct gen_bands *b = &j->bands;
	if (j->band == GEN_BAND_EASY)
		snprintf(buf, len, "band: easy (difficulty <= %.2f for these "
		         "puzzles)", b->easy_max);
	else if (j->band == GEN_BAND_MEDIUM)
		snprintf(buf, len, "band: medium (between %.2f and %.2f for these "
		         "puzzles)", b->easy_max, b->hard_min);
	else if (j->band == GEN_BAND_HARD && b->hard_min > b->easy_max)
		snprintf(buf, len, "band: hard (difficulty >= %.2f for these "
		         "puzzles)", b->hard_min);
	else if (j->band == GEN_BAND_HARD)
		snprintf(buf, len, "band: hard (difficulty > %.2f for these "
		         "puzzles)", b->easy_max);
	else
		snprintf(buf, len, "%s", "");
}

void blocks_job_clear(struct blocks_job *j)
{
	puz_grid_clear(&j->goal);
}

/* A long search's progress (blocks_job.show): after a second, about four
 * times a second. With no puzzle found, the attempts left take about as
 * long as those made, which bounds the time still to wait. */
struct search_status {
	struct cli_status line;
	uint64_t max_attempts;
};

static void show_search(void *ctx, const struct blk_found *f)
{
	struct search_status *g = ctx;
	double el;
	if (!cli_status_due(&g->line, &el))
		return;
	if (f->exhaustive) { /* blocks.h: every set is solved */
		cli_status_show(&g->line, "searching: %" PRIu64 " of %" PRIu64
		                " sets of pieces solved, %.1f s", f->attempts, f->sets,
		                el);
		return;
	}
	char left[64] = "";
	if (f->attempts && f->attempts < g->max_attempts) {
		double more = el * (double)(g->max_attempts - f->attempts) /
		              (double)f->attempts;
		if (more < 120)
			snprintf(left, sizeof left, ", at most about %.0f s more", more);
		else if (more < 7200)
			snprintf(left, sizeof left, ", at most about %.0f min more",
			         more / 60);
		else
			snprintf(left, sizeof left, ", at most about %.0f h more",
			         more / 3600);
	}
	cli_status_show(&g->line, "searching: %" PRIu64 " of %" PRIu64
	                " attempts, %" PRIu64 " proofs, %.1f s%s", f->attempts,
	                g->max_attempts, f->solver_calls, el, left);
}

/* "A" when lo == hi, else "A..B". */
static void range_text(char *buf, size_t len, int lo, int hi)
{
	if (lo == hi)
		snprintf(buf, len, "%d", lo);
	else
		snprintf(buf, len, "%d..%d", lo, hi);
}

int blocks_job_run(struct blocks_job *j, const char *cmd, uint64_t seed,
                   struct blk_puzzle *b, struct blk_found *f, double *score)
{
	struct rng r;
	rng_seed(&r, seed);
	struct search_status st = {
	    {.t0 = cli_now(), .after = 1.0, .every = 0.25},
	    j->spec.max_attempts};
	struct blk_spec s = j->spec;
	if (j->show && isatty(STDERR_FILENO)) {
		s.progress = show_search;
		s.progress_ctx = &st;
	}
	int grc = blk_find_band(&r, &j->goal, &s, j->band, &j->bands, b, f,
	                        score);
	cli_status_end(&st.line);
	if (grc != GEN_OK) {
		cli_error("%s: out of memory", cmd);
		return CLI_FAIL;
	}
	if (!f->found)
		return CLI_OK;
	if (j->from_file)
		snprintf(b->puz.name, sizeof b->puz.name, "cubegen blocks from %s, "
		         "seed %" PRIu64, j->size, seed);
	else
		snprintf(b->puz.name, sizeof b->puz.name, "cubegen %dx%dx%d blocks, "
		         "seed %" PRIu64, j->dim[0], j->dim[1], j->dim[2], seed);
	b->puz.has_seed = true;
	b->puz.seed = seed;
	bool unique = false;
	int rc = confirm(&b->puz, j->spec.threads, j->show, &unique);
	if (rc == SOLVE_OK && unique)
		return CLI_OK;
	if (rc != SOLVE_OK)
		cli_error("%s: %s", cmd, solve_strerror(rc));
	else
		cli_error("%s: internal error: the two searches disagree on %s seed "
		          "%" PRIu64 "; nothing written (please report this seed)",
		          cmd, j->size, seed);
	blk_puzzle_clear(b);
	return CLI_FAIL;
}

void blocks_level_text(const struct dis_result *d, char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "%s", d->nlevel ? "" : "1");
	for (size_t i = 0; i < d->nlevel && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%d", i ? "." : "",
		                       d->level[i]);
}

int generate_blocks(const struct generate_args *ga, uint64_t seed)
{
	struct blocks_job job;
	int code = blocks_job_init(&job, "generate", ga->size, ga->goal,
	                           ga->pieces, ga->cells, ga->support_free, ga->level,
	                           ga->attempts, ga->threads, ga->print.unit,
	                           ga->print.clearance, ga->band);
	if (code != CLI_OK)
		return code;
	char defout[128];
	cli_generate_out(job.from_file ? "blocks-" : "blocks", job.size, seed,
	                 ga->band, defout, sizeof defout);
	const char *size = job.size;
	const char *out = ga->out ? ga->out : defout;
	struct outdir od;
	if (!outdir_begin(&od, out, ga->force)) {
		blocks_job_clear(&job);
		return CLI_FAIL;
	}
	struct blk_puzzle b = {0};
	struct blk_found found;
	double score = 0;
	job.show = true;
	code = blocks_job_run(&job, "generate", seed, &b, &found, &score);
	char band[160];
	blocks_band_text(&job, band, sizeof band);
	size_t cells = 0, total = (size_t)job.goal.nx * job.goal.ny * job.goal.nz;
	for (size_t i = 0; i < total; i++)
		cells += job.goal.cells[i] != 0;
	blocks_job_clear(&job);
	if (code != CLI_OK) {
		outdir_abort(&od);
		return code;
	}
	if (!found.found) {
		const struct blk_spec *sp = &job.spec;
		char box[96], pcs[32], cls[32];
		range_text(pcs, sizeof pcs, sp->pieces_min, sp->pieces_max);
		range_text(cls, sizeof cls, sp->cells_min, sp->cells_max);
		if (job.from_file)
			snprintf(box, sizeof box, "%s", size);
		else
			snprintf(box, sizeof box, "%dx%dx%d", job.dim[0], job.dim[1],
			         job.dim[2]);
		/* the exhaustive route's proof (blocks.h); with a band, when no
		 * puzzle at all was found to calibrate it with */
		bool proof = found.exhaustive && !found.sets_open &&
		             (job.band == GEN_BAND_ANY || job.bands.samples == 0);
		if (proof && !found.sets)
			cli_error("generate: no block puzzle of %s in %s pieces of %s "
			          "cells exists: no set of that many pieces, no two "
			          "congruent, has its %zu cells", box, pcs, cls, cells);
		else if (proof)
			cli_error("generate: no block puzzle of %s in %s pieces of %s "
			          "cells exists: every one of the %" PRIu64 " sets of "
			          "pieces that could fill it was solved, and none has "
			          "exactly one solution that comes apart%s%s",
			          box, pcs, cls, found.sets,
			          sp->support_free ? " with pieces that lie flat" : "",
			          ga->print.clearance <= 0
			          ? " and pieces that mesh at --clearance 0" : "");
		else if (found.exhaustive && job.band == GEN_BAND_ANY)
			cli_error("generate: no block puzzle of %s in %s pieces of %s "
			          "cells found: of the %" PRIu64 " sets of pieces that "
			          "could fill it, %" PRIu64 " were cut short by the "
			          "search's budget and the others have no one solution "
			          "that comes apart", box, pcs, cls, found.sets,
			          found.sets_open);
		else if (job.band == GEN_BAND_ANY && job.spec.level_min > 1)
			cli_error("generate: no block puzzle of %s at level %d in %" PRIu64
			          " attempts from seed %" PRIu64 " (%" PRIu64 " reached "
			          "it and were proved; try another seed, more "
			          "--max-attempts, a lower --level or fewer --pieces)",
			          box, job.spec.level_min, found.attempts, seed,
			          found.solver_calls);
		else if (job.band == GEN_BAND_ANY && found.drawn) {
			char shortc[80] = "";
			if (found.cut_short)
				snprintf(shortc, sizeof shortc, ", %" PRIu64 " of them cut "
				         "short by the search's budget", found.cut_short);
			cli_error("generate: no block puzzle of %s in %" PRIu64 " attempts "
			          "from seed %" PRIu64 " (sets of pieces drawn at random "
			          "and solved%s; try another seed, more --max-attempts "
			          "or other --pieces and --cells)", box, found.attempts,
			          seed, shortc);
		}
		else if (job.band == GEN_BAND_ANY && found.grown)
			cli_error("generate: no block puzzle of %s in %" PRIu64 " attempts "
			          "from seed %" PRIu64 " (%" PRIu64 " dissections grown "
			          "whole and proved, %" PRIu64 " of them cut short by the "
			          "search's budget; try another seed, more --max-attempts "
			          "or other --pieces and --cells)", box, found.attempts,
			          seed, found.solver_calls, found.cut_short);
		else if (job.band == GEN_BAND_ANY)
			cli_error("generate: no block puzzle of %s in %" PRIu64 " attempts "
			          "from seed %" PRIu64 " (%" PRIu64 " cuts proved; try "
			          "another seed, more --max-attempts or other --pieces and "
			          "--cells)", box, found.attempts, seed,
			          found.solver_calls);
		else
			cli_error("generate: no %s block puzzle of %s in %" PRIu64
			          " attempts from seed %" PRIu64 " (%d of %d such puzzles "
			          "were %s; try more --max-attempts)",
			          gen_band_name(job.band), box, found.attempts, seed,
			          job.bands.in_band[job.band], job.bands.samples,
			          gen_band_name(job.band));
		outdir_abort(&od);
		return CLI_FAIL;
	}
	struct output_opts oo = {.unit = ga->print.unit, .wall = ga->print.unit,
	                         .clearance = ga->print.clearance,
	                         .labels = ga->print.labels, .seed = seed};
	bool ok = outputs_write_blocks(&od, &b, &oo) && outdir_commit(&od);
	if (!ok) {
		outdir_abort(&od);
		blk_puzzle_clear(&b);
		return CLI_FAIL;
	}
	char level[DIS_LEVEL_TEXT];
	blocks_level_text(&b.dis, level, sizeof level);
	printf("kind: blocks\nsize: %s\nseed: %" PRIu64 "\npieces: %zu\n"
	       "attempts: %" PRIu64 "\nproofs: %" PRIu64 "\nsolutions: 1\n"
	       "level: %s\ndifficulty: %.2f\n%s%swrote: %.*s/\n", size, seed,
	       b.npieces, found.attempts, found.solver_calls, level, score, band,
	       *band ? "\n" : "", cli_dirlen(out), out);
	blk_puzzle_clear(&b);
	return CLI_OK;
}
