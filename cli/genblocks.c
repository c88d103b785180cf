/*
 * genblocks.c: 'cubegen generate --kind blocks': cut a box or a puzzle
 * file's goal into solid pieces with exactly one solution that comes
 * apart (gen/blocks.h), prove it again with another engine, and write
 * its files (blockfiles.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/outputs.h"
#include "gen/blocks.h"
#include "gen/gen.h"
#include "mesh/mesh.h"
#include "solver/solve.h"

/* A final piece is kept only when it meshes at the size asked for
 * (mesh.h: some polycubes' solids are not manifolds). */
struct mesh_check {
	double unit, clearance;
};

static int meshes(void *ctx, const unsigned char *cells, int nx, int ny, int nz)
{
	const struct mesh_check *mc = ctx;
	struct mesh *m = NULL;
	int rc = mesh_from_cells(cells, nx, ny, nz, mc->unit, mc->clearance, &m);
	mesh_free(m);
	return rc == MESH_OK ? 1 : rc == MESH_ENOMEM ? -1 : 0;
}

/* The goal: a box of ga->size, or the goal of ga->goal. CLI_OK or the
 * error printed and its code. */
static int read_goal(const struct generate_args *ga, struct grid *goal)
{
	if (!ga->goal) {
		if (puz_grid_init(goal, ga->size[0], ga->size[1], ga->size[2]) != PUZ_OK) {
			cli_error("generate: out of memory");
			return CLI_FAIL;
		}
		memset(goal->cells, PUZ_CELL,
		       (size_t)goal->nx * (size_t)goal->ny * (size_t)goal->nz);
		return CLI_OK;
	}
	struct puzzle p;
	int rc = cli_read_goal(ga->goal, &p);
	if (rc != CLI_OK)
		return rc;
	*goal = p.goal;
	p.goal = (struct grid){0};
	puz_clear(&p);
	return CLI_OK;
}

/* Whether the written puzzle is unique by dancing links, which shares no
 * search code with the bitboard engines blk_find() proved it with. */
static int confirm(const struct puzzle *p, bool *unique)
{
	struct solve_opts o = {.max_solutions = 2, .engine = SOLVE_DLX};
	struct solve_result r;
	int rc = solve_puzzle(p, &o, &r);
	if (rc == SOLVE_OK) {
		*unique = r.complete && r.solutions == 1;
		solve_result_clear(&r);
	}
	return rc;
}

int generate_blocks(const struct generate_args *ga, uint64_t seed)
{
	struct grid goal;
	int code = read_goal(ga, &goal);
	if (code != CLI_OK)
		return code;
	struct mesh_check mc = {ga->print.unit, ga->print.clearance};
	struct blk_spec spec = {
		.pieces_min = ga->pieces[0], .pieces_max = ga->pieces[1],
		.cells_min = ga->cells[0], .cells_max = ga->cells[1],
		.max_attempts = ga->attempts, .support_free = ga->support_free,
		.piece_ok = meshes, .ctx = &mc};
	char why[200];
	int rc = blk_check(&goal, &spec, why, sizeof why);
	if (rc != GEN_OK) {
		if (rc == GEN_EINVAL)
			cli_error("generate: %s%s%s", ga->goal ? ga->goal : "",
			          ga->goal ? ": " : "", why);
		else
			cli_error("generate: out of memory");
		puz_grid_clear(&goal);
		return rc == GEN_EINVAL ? CLI_USAGE : CLI_FAIL;
	}
	/* "4x4x4" or the goal file's name */
	char size[80], defout[128];
	if (ga->goal) {
		/* the file's name without folders, up to its first dot */
		const char *base = strrchr(ga->goal, '/');
		base = base ? base + 1 : ga->goal;
		int n = (int)strcspn(base, ".");
		snprintf(size, sizeof size, "%.*s", n > 60 ? 60 : n ? n : 60, base);
		snprintf(defout, sizeof defout, "out/blocks-%s-%" PRIu64, size, seed);
	} else {
		if (gen_is_cube(ga->size))
			snprintf(size, sizeof size, "%d", ga->size[0]);
		else
			snprintf(size, sizeof size, "%dx%dx%d", ga->size[0], ga->size[1],
			         ga->size[2]);
		snprintf(defout, sizeof defout, "out/blocks%s-%" PRIu64, size, seed);
	}
	const char *out = ga->out ? ga->out : defout;
	struct outdir od;
	if (!outdir_begin(&od, out, ga->force)) {
		puz_grid_clear(&goal);
		return CLI_FAIL;
	}
	struct rng r;
	rng_seed(&r, seed);
	struct blk_puzzle b = {0};
	struct blk_found found;
	rc = blk_find(&r, &goal, &spec, &b, &found);
	puz_grid_clear(&goal);
	if (rc != GEN_OK) {
		cli_error("generate: out of memory");
		outdir_abort(&od);
		return CLI_FAIL;
	}
	if (!found.found) {
		cli_error("generate: no block puzzle of %s in %" PRIu64 " attempts "
		          "from seed %" PRIu64 " (%" PRIu64 " cuts proved; try another "
		          "seed, more --max-attempts or other --pieces and --cells)",
		          size, found.attempts, seed, found.solver_calls);
		outdir_abort(&od);
		return CLI_FAIL;
	}
	if (ga->goal)
		snprintf(b.puz.name, sizeof b.puz.name, "cubegen blocks from %s, seed "
		         "%" PRIu64, size, seed);
	else
		snprintf(b.puz.name, sizeof b.puz.name, "cubegen %dx%dx%d blocks, seed "
		         "%" PRIu64, ga->size[0], ga->size[1], ga->size[2], seed);
	b.puz.has_seed = true;
	b.puz.seed = seed;
	bool unique = false;
	rc = confirm(&b.puz, &unique);
	if (rc != SOLVE_OK || !unique) {
		if (rc != SOLVE_OK)
			cli_error("generate: %s", solve_strerror(rc));
		else
			cli_error("generate: internal error: the two searches disagree on "
			          "%s seed %" PRIu64 "; nothing written (please report "
			          "this seed)", size, seed);
		blk_puzzle_clear(&b);
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
	char level[DIS_LEVEL_TEXT] = "1";
	size_t at = 0;
	for (size_t i = 0; i < b.dis.nlevel; i++)
		at += (size_t)snprintf(level + at, sizeof level - at, "%s%d",
		                       i ? "." : "", b.dis.level[i]);
	printf("kind: blocks\nsize: %s\nseed: %" PRIu64 "\npieces: %zu\n"
	       "attempts: %" PRIu64 "\nproofs: %" PRIu64 "\nsolutions: 1\n"
	       "level: %s\nwrote: %s/\n", size, seed, b.npieces, found.attempts,
	       found.solver_calls, level, out);
	blk_puzzle_clear(&b);
	return CLI_OK;
}
