/*
 * test_fault.c: every allocation failure gives an error, never a wrong
 * answer, a crash or a leak.
 *
 * Linked with the fault build of the libraries (fault.h): each
 * job below first runs with no failure to get its reference result, then
 * again with allocation k failed, for k = 0, 1, 2, ... until a run makes no
 * more allocations than k. Every run must either return the module's
 * out-of-memory status or the full reference result, byte for byte, and
 * free everything it allocated (fault_live() back where it was; ASan and
 * valgrind check the same with their own allocator).
 *
 * Jobs: read a .puz and a .hcq; solve Soma (bitboard, dancing links, with
 * the first solution kept); solve a Happy Cube set (shell fast path and the
 * generic search); check a generated size-5 cube and a 4x5x6 box as generate does; the
 * whole size-4 generate pipeline up to the bytes of puzzle.puz and
 * solution.txt; the meshes, STLs and OpenSCAD files of its pieces and the
 * STL check; the pictures; BurrTools files with their solutions; the block
 * generator's prover over a run of dissections.
 *
 * Runs from the repository root (reads tests/data/classic/).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen/gen.h"
#include "gen/rng.h"
#include "draw/draw.h"
#include "mesh/mesh.h"
#include "formats/puz.h"
#include "solver/prove.h"
#include "solver/solve.h"
#include "tests/fault/fault.h"

#define DATA "tests/data/classic/"

/* A job: run once; return true with its result checked against the
 * reference, or false when it returned the out-of-memory status (anything
 * else fails the test inside the job). 'ref' is true on the first, unarmed
 * run, which records the reference in 'ctx'. */
typedef bool (*job_fn)(void *ctx, bool ref);

/* Run 'job' with no failure, then with each of its allocations failed. */
static void every_fault(const char *name, job_fn job, void *ctx)
{
	long live = fault_live();
	assert_true(job(ctx, true));
	assert_int_equal(fault_live(), live);
	long k = 0, errors = 0;
	for (;; k++) {
		/* Debugging aid: FAULT_TRACE=1 names each run on stderr. */
		if (getenv("FAULT_TRACE"))
			fprintf(stderr, "%s: k = %ld\n", name, k);
		fault_arm(k);
		bool ok = job(ctx, false);
		bool fired = fault_fired();
		fault_disarm();
		assert_int_equal(fault_live(), live);
		if (!fired) {
			assert_true(ok);
			break;
		}
		errors += !ok;
	}
	printf("  %-28s %5ld allocations failed one at a time: %ld errors, "
	       "%ld full results\n", name, k, errors, k - errors);
}

/* ---- buffers ------------------------------------------------------------- */

struct bytes {
	unsigned char *data;
	size_t len;
};

static void bytes_clear(struct bytes *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

/* The whole file at 'path' (read with the fault counter disarmed). */
static struct bytes slurp(const char *path)
{
	FILE *fp = fopen(path, "rb");
	assert_non_null(fp);
	struct bytes b = {0};
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	long n = ftell(fp);
	assert_true(n > 0);
	rewind(fp);
	b.data = malloc((size_t)n);
	assert_non_null(b.data);
	assert_int_equal(fread(b.data, 1, (size_t)n, fp), (size_t)n);
	b.len = (size_t)n;
	fclose(fp);
	return b;
}

/* Record or compare: on the reference run keep 'got', else compare. */
static void same_bytes(bool ref, struct bytes *want, const void *got, size_t len)
{
	if (ref) {
		bytes_clear(want);
		want->data = malloc(len ? len : 1);
		assert_non_null(want->data);
		memcpy(want->data, got, len);
		want->len = len;
		return;
	}
	assert_int_equal(len, want->len);
	assert_memory_equal(got, want->data, len);
}

/* A stdio stream into memory; its buffer is libc's, not the modules'. */
struct memout {
	FILE *fp;
	char *buf;
	size_t len;
};

static void memout_open(struct memout *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	assert_non_null(m->fp);
}

static void memout_close(struct memout *m)
{
	assert_int_equal(fclose(m->fp), 0);
}

/* Write 'p' as .puz text, free it, and record or compare the text. */
static void same_puz_text(bool ref, struct bytes *want, struct puzzle *p)
{
	struct memout m;
	memout_open(&m);
	assert_int_equal(puz_write(m.fp, p), PUZ_OK);
	memout_close(&m);
	puz_clear(p);
	same_bytes(ref, want, m.buf, m.len);
	free(m.buf);
}

/* ---- reading ------------------------------------------------------------- */

struct read_job {
	struct bytes text;
	bool hcq;
	struct bytes want; /* the puzzle written back by puz_write */
};

static bool job_read(void *ctx, bool ref)
{
	struct read_job *j = ctx;
	struct puzzle p;
	struct puz_error e;
	int rc = j->hcq ? hcq_read_mem((const char *)j->text.data, j->text.len, &p, &e)
	                : puz_read_mem((const char *)j->text.data, j->text.len, &p, &e);
	if (rc != PUZ_OK) {
		assert_int_equal(rc, PUZ_ENOMEM);
		return false;
	}
	same_puz_text(ref, &j->want, &p);
	return true;
}

static void test_fault_read(void **state)
{
	(void)state;
	static const char *const files[] = {"soma.puz", "bedlam.puz",
	                                    "HC_BQ_001.hcq"};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		char path[128];
		snprintf(path, sizeof path, DATA "%s", files[i]);
		struct read_job j = {.text = slurp(path),
		                     .hcq = strstr(files[i], ".hcq") != NULL};
		every_fault(files[i], job_read, &j);
		bytes_clear(&j.text);
		bytes_clear(&j.want);
	}
}

/* A BurrTools file, gzip: zlib's and expat's allocations go through the
 * hook too (formats/xmread.c hands them its malloc). */
static bool job_xmread(void *ctx, bool ref)
{
	struct read_job *j = ctx;
	struct puzzle p;
	struct puz_error e;
	int rc = xmp_read_mem(j->text.data, j->text.len, 0, &p, NULL, &e);
	if (rc != PUZ_OK) {
		assert_int_equal(rc, PUZ_ENOMEM);
		return false;
	}
	same_puz_text(ref, &j->want, &p);
	return true;
}

static void test_fault_xmread(void **state)
{
	(void)state;
	struct read_job j = {.text = slurp("tests/data/burrtools/CubeInCage.xmpuzzle")};
	every_fault("CubeInCage.xmpuzzle", job_xmread, &j);
	bytes_clear(&j.text);
	bytes_clear(&j.want);
}

/* ---- solving ------------------------------------------------------------- */

struct solve_job {
	struct puzzle p;
	struct solve_opts o;
	uint64_t solutions, assemblies; /* the known answer */
	struct bytes first;             /* the first solution, when kept */
};

static bool job_solve(void *ctx, bool ref)
{
	struct solve_job *j = ctx;
	struct solve_result r;
	int rc = solve_puzzle(&j->p, &j->o, &r);
	if (rc != SOLVE_OK) {
		assert_int_equal(rc, SOLVE_ENOMEM);
		return false;
	}
	assert_true(r.complete);
	assert_int_equal(r.solutions, j->solutions);
	assert_int_equal(r.assemblies, j->assemblies);
	if (j->o.keep_first) {
		const struct grid *g = &j->p.goal;
		assert_non_null(r.first);
		same_bytes(ref, &j->first, r.first, (size_t)g->nx * g->ny * g->nz);
	}
	solve_result_clear(&r);
	return true;
}

static void solve_every_fault(const char *name, const char *file,
                              struct solve_opts o, uint64_t solutions,
                              uint64_t assemblies)
{
	struct solve_job j = {.o = o, .solutions = solutions,
	                      .assemblies = assemblies};
	struct puz_error e;
	int rc = strstr(file, ".hcq") ? hcq_read_file(file, &j.p, &e)
	                              : puz_read_file(file, &j.p, &e);
	assert_int_equal(rc, PUZ_OK);
	every_fault(name, job_solve, &j);
	puz_clear(&j.p);
	bytes_clear(&j.first);
}

static void test_fault_solve(void **state)
{
	(void)state;
	solve_every_fault("solve Soma", DATA "soma.puz",
	                  (struct solve_opts){0}, 240, 11520);
	solve_every_fault("solve Soma, first kept", DATA "soma.puz",
	                  (struct solve_opts){.keep_first = true}, 240, 11520);
	solve_every_fault("solve Soma, dancing links", DATA "soma.puz",
	                  (struct solve_opts){.engine = SOLVE_DLX}, 240, 11520);
	solve_every_fault("solve blue, shell path", DATA "happycube-blue.puz",
	                  (struct solve_opts){.keep_first = true}, 3, 144);
	solve_every_fault("solve blue, generic", DATA "happycube-blue.puz",
	                  (struct solve_opts){.generic = true, .keep_first = true},
	                  3, 144);
	solve_every_fault("solve HC_BQ_001.hcq", DATA "HC_BQ_001.hcq",
	                  (struct solve_opts){0}, 1, 48);
	/* split searches: the tasks, each thread's state and engine, and
	 * (renamings) the threads' own allocations during the search */
	solve_every_fault("solve Soma, 3 threads", DATA "soma.puz",
	                  (struct solve_opts){.threads = 3, .keep_first = true},
	                  240, 11520);
	solve_every_fault("solve Soma, dancing links, 2 threads", DATA "soma.puz",
	                  (struct solve_opts){.threads = 2, .engine = SOLVE_DLX,
	                                      .generic = true}, 240, 11520);
	solve_every_fault("solve Soma, shard 2/3", DATA "soma.puz",
	                  (struct solve_opts){.threads = 2, .shard_index = 1,
	                                      .shard_count = 3}, 80, 3840);
	/* split by depth, as a tree past the round's budget is: the later
	 * rounds' tasks (Soma's trees fit the round, which the runs above
	 * take) */
	solve_every_fault("solve Soma, 2 threads, by depth", DATA "soma.puz",
	                  (struct solve_opts){.threads = 2, .keep_first = true,
	                                      .split_by_depth = true},
	                  240, 11520);
	solve_every_fault("solve Soma, dancing links, by depth", DATA "soma.puz",
	                  (struct solve_opts){.threads = 2, .engine = SOLVE_DLX,
	                                      .generic = true,
	                                      .split_by_depth = true},
	                  240, 11520);
	solve_every_fault("solve Soma, bbw, shard 2/3, by depth", DATA "soma.puz",
	                  (struct solve_opts){.threads = 2, .shard_index = 1,
	                                      .shard_count = 3, .generic = true,
	                                      .engine = SOLVE_WIDE,
	                                      .split_by_depth = true},
	                  80, 3840);
	/* ranges of copies on the wide board (bbw_set_least), alone and
	 * in each thread's clone */
	solve_every_fault("solve ranges", "tests/data/puz/ranges-3x3x2.puz",
	                  (struct solve_opts){.keep_first = true}, 734, 11488);
	solve_every_fault("solve ranges, 2 threads",
	                  "tests/data/puz/ranges-3x3x2.puz",
	                  (struct solve_opts){.threads = 2}, 734, 11488);
	/* the wide bitboard's split: its tasks and each thread's clone,
	 * on one word (Soma) and on two (a strip of 66 cells: its two
	 * squares and nine plates in any order, C(12, 3) assemblies) */
	solve_every_fault("solve Soma, bbw, 3 threads", DATA "soma.puz",
	                  (struct solve_opts){.threads = 3, .keep_first = true,
	                                      .generic = true,
	                                      .engine = SOLVE_WIDE},
	                  240, 11520);
	static const char strip[] = "puzzle v1\ngoal 33 2 1\n"
		"#################################\n"
		"#################################\n"
		"piece S 2 2 1 count 3\n##\n##\npiece P 3 2 1 count 9\n###\n###\n";
	struct solve_job js = {.o = {.threads = 2, .keep_first = true},
	                       .solutions = 110, .assemblies = 220};
	struct puz_error es;
	assert_int_equal(puz_read_mem(strip, strlen(strip), &js.p, &es), PUZ_OK);
	every_fault("solve 66-cell strip, 2 threads", job_solve, &js);
	bytes_clear(&js.first);
	js.o = (struct solve_opts){.threads = 2, .shard_index = 1,
	                           .shard_count = 3};
	js.solutions = 36;
	js.assemblies = 73;
	every_fault("solve 66-cell strip, shard 2/3", job_solve, &js);
	puz_clear(&js.p);
	/* three words and optional cells (the wide board's fillers): 130
	 * cells to fill and five columns that may stay empty, of which the
	 * 66 columns of pieces take one: C(23, 3) assemblies */
	static const char ostrip[] = "puzzle v1\ngoal 70 2 1\n"
		"#################################################################+++++\n"
		"#################################################################+++++\n"
		"piece S 2 2 1 count 3\n##\n##\npiece P 3 2 1 count 20\n###\n###\n";
	js = (struct solve_job){.o = {.threads = 2, .keep_first = true},
	                        .solutions = 1771, .assemblies = 1771};
	assert_int_equal(puz_read_mem(ostrip, strlen(ostrip), &js.p, &es), PUZ_OK);
	every_fault("solve 140-cell strip with optional cells, 2 threads",
	            job_solve, &js);
	bytes_clear(&js.first);
	puz_clear(&js.p);
	/* a renaming keeps this one (ab <-> cd): each thread works out the
	 * stabilisers of its covers, allocating as it goes */
	static const char rename[] = "puzzle v1\ngoal 2 2 1\n##\n##\n"
		"piece P 2 1 1\nab\npiece Q 2 1 1\ncd\n";
	struct solve_job j = {.o = {.threads = 2, .rename_colours = true},
	                      .solutions = 1, .assemblies = 16};
	struct puz_error e;
	assert_int_equal(puz_read_mem(rename, strlen(rename), &j.p, &e), PUZ_OK);
	every_fault("solve (ab, cd) renamed, 2 threads", job_solve, &j);
	puz_clear(&j.p);
}

/* The text of a puzzle: a 5x5x5 cube less a bent tunnel (cells (3, 2, z)
 * for z = 2..4), cut into a cube at (2, 2, 2) and the rest; with 'lid',
 * a sixth layer on top as a third piece. One assembly; it comes apart
 * at level 2 (1.2 with the lid); without the tunnel it is stuck. */
static void tunnel_text(char *buf, size_t len, bool tunnel, bool lid)
{
	int nz = lid ? 6 : 5;
	size_t at = 0;
	for (int part = 0; part < 4; part++) {
		if (part == 0)
			at += (size_t)snprintf(buf + at, len - at,
			                       "puzzle v1\ngoal 5 5 %d\n", nz);
		else if (part == 1)
			at += (size_t)snprintf(buf + at, len - at,
			                       "piece A 5 5 5\n");
		else if (part == 2)
			at += (size_t)snprintf(buf + at, len - at,
			                       "piece B 1 1 1\n#\n");
		else if (lid)
			at += (size_t)snprintf(buf + at, len - at,
			                       "piece C 5 5 1\n");
		if (part == 2)
			continue;
		int z0 = part == 3 ? 5 : 0, z1 = part == 0 ? nz : part == 3 ? 6 : 5;
		if (part == 3 && !lid)
			break;
		for (int z = z0; z < z1; z++) {
			for (int y = 0; y < 5; y++) {
				for (int x = 0; x < 5; x++) {
					bool hole = tunnel && x == 3 && y == 2 && z >= 2 &&
					            z <= 4;
					bool b = x == 2 && y == 2 && z == 2;
					char c = hole || (part == 1 && b) ? '.' : '#';
					buf[at++] = c;
				}
				buf[at++] = '\n';
			}
			if (z + 1 < z1)
				buf[at++] = '\n';
		}
		buf[at] = '\0';
	}
	assert_true(at < len);
}

struct dis_job {
	struct puzzle p;
	struct solve_opts o;
	uint64_t solutions, stuck; /* the known answer */
	int level[3];
	size_t nlevel;
	struct bytes moves;        /* the hardest's moves, as found */
};

static bool job_disassemble(void *ctx, bool ref)
{
	struct dis_job *j = ctx;
	struct solve_result r;
	int rc = solve_puzzle(&j->p, &j->o, &r);
	if (rc != SOLVE_OK) {
		assert_int_equal(rc, SOLVE_ENOMEM);
		return false;
	}
	assert_true(r.complete && r.disassembled);
	assert_int_equal(r.solutions, j->solutions);
	assert_int_equal(r.stuck, j->stuck);
	assert_int_equal(r.undecided, 0);
	assert_int_equal(r.hardest_moves.nlevel, j->nlevel);
	for (size_t i = 0; i < j->nlevel; i++)
		assert_int_equal(r.hardest_moves.level[i], j->level[i]);
	const void *mv = r.hardest_moves.moves;
	same_bytes(ref, &j->moves, mv ? mv : "",
	           r.hardest_moves.nmoves * sizeof *r.hardest_moves.moves);
	solve_result_clear(&r);
	return true;
}

static void test_fault_disassemble(void **state)
{
	(void)state;
	char text[2048];
	struct puz_error e;
	struct dis_job j = {.o = {.disassemble = true, .keep_first = true},
	                    .solutions = 1, .level = {1, 2}, .nlevel = 2};
	tunnel_text(text, sizeof text, true, true);
	assert_int_equal(puz_read_mem(text, strlen(text), &j.p, &e), PUZ_OK);
	every_fault("disassemble lid and tunnel", job_disassemble, &j);
	bytes_clear(&j.moves);
	j.o.threads = 2;
	every_fault("disassemble lid and tunnel, 2 threads", job_disassemble, &j);
	bytes_clear(&j.moves);
	puz_clear(&j.p);
	j = (struct dis_job){.o = {.disassemble = true}, .stuck = 1};
	tunnel_text(text, sizeof text, false, false);
	assert_int_equal(puz_read_mem(text, strlen(text), &j.p, &e), PUZ_OK);
	every_fault("disassemble a cage", job_disassemble, &j);
	bytes_clear(&j.moves);
	puz_clear(&j.p);
	j = (struct dis_job){.o = {.disassemble = true, .threads = 2},
	                     .solutions = 240, .level = {1}, .nlevel = 1};
	assert_int_equal(puz_read_file(DATA "soma.puz", &j.p, &e), PUZ_OK);
	every_fault("disassemble Soma, 2 threads", job_disassemble, &j);
	bytes_clear(&j.moves);
	puz_clear(&j.p);
}

/* ---- generating ---------------------------------------------------------- */

/* The candidate 'seed' draws first for the box 'dim'. */
static bool draw_first(const int dim[3], uint64_t seed, struct gen_puzzle *g)
{
	struct rng r;
	rng_seed(&r, seed);
	int rc = gen_draw(&r, dim, g);
	if (rc != GEN_OK) {
		assert_int_equal(rc, GEN_ENOMEM);
		return false;
	}
	return true;
}

/* A candidate to check: its box and seed. */
struct check_job {
	int dim[3];
	uint64_t seed;
};

/* What generate does to accept a candidate: the fast count, then the
 * generic search on the puzzle as written. */
static bool job_check(void *ctx, bool ref)
{
	(void)ref;
	const struct check_job *j = ctx;
	struct gen_puzzle g = {0};
	if (!draw_first(j->dim, j->seed, &g))
		return false;
	struct solve_opts o = {.max_solutions = 2};
	struct solve_result res;
	int rc = gen_count(&g, &o, &res);
	if (rc != SOLVE_OK) {
		assert_int_equal(rc, SOLVE_ENOMEM);
		gen_puzzle_clear(&g);
		return false;
	}
	assert_true(res.complete && res.solutions == 1 && res.fast_path);
	solve_result_clear(&res);
	struct puzzle p;
	rc = gen_to_puzzle(&g, j->seed, &p);
	gen_puzzle_clear(&g);
	if (rc != GEN_OK) {
		assert_int_equal(rc, GEN_ENOMEM);
		return false;
	}
	o.generic = true;
	rc = solve_puzzle(&p, &o, &res);
	puz_clear(&p);
	if (rc != SOLVE_OK) {
		assert_int_equal(rc, SOLVE_ENOMEM);
		return false;
	}
	assert_true(res.complete && res.solutions == 1 && !res.fast_path);
	solve_result_clear(&res);
	return true;
}

static void test_fault_check_generated(void **state)
{
	(void)state;
	struct check_job cube = {{5, 5, 5}, 42}, box = {{4, 5, 6}, 3};
	every_fault("check size 5, seed 42", job_check, &cube);
	every_fault("check 4x5x6, seed 3", job_check, &box);
}

struct gen_job {
	struct bytes puz, answer; /* puzzle.puz and solution.txt */
	uint64_t attempts;
};

/* generate --size 4 --seed 7, up to the text files it writes. */
static bool job_generate4(void *ctx, bool ref)
{
	struct gen_job *j = ctx;
	struct rng r;
	rng_seed(&r, 7);
	struct gen_puzzle g = {0};
	uint64_t tried = 0;
	for (;;) {
		gen_puzzle_clear(&g);
		int rc = gen_draw(&r, (const int[3]){4, 4, 4}, &g);
		if (rc != GEN_OK) {
			assert_int_equal(rc, GEN_ENOMEM);
			return false;
		}
		tried++;
		assert_true(tried <= 1000);
		struct solve_opts o = {.max_solutions = 2};
		struct solve_result res;
		rc = gen_count(&g, &o, &res);
		if (rc != SOLVE_OK) {
			assert_int_equal(rc, SOLVE_ENOMEM);
			gen_puzzle_clear(&g);
			return false;
		}
		bool unique = res.complete && res.solutions == 1;
		solve_result_clear(&res);
		if (unique)
			break;
	}
	if (ref)
		j->attempts = tried;
	assert_int_equal(tried, j->attempts);
	struct puzzle p;
	int rc = gen_to_puzzle(&g, 7, &p);
	if (rc != GEN_OK) {
		assert_int_equal(rc, GEN_ENOMEM);
		gen_puzzle_clear(&g);
		return false;
	}
	same_puz_text(ref, &j->puz, &p);
	struct memout m;
	memout_open(&m);
	assert_int_equal(gen_write_answer(m.fp, &g), GEN_OK);
	memout_close(&m);
	same_bytes(ref, &j->answer, m.buf, m.len);
	free(m.buf);
	gen_puzzle_clear(&g);
	return true;
}

static void test_fault_generate(void **state)
{
	(void)state;
	struct gen_job j = {0};
	every_fault("generate size 4, seed 7", job_generate4, &j);
	assert_true(j.attempts >= 1);
	bytes_clear(&j.puz);
	bytes_clear(&j.answer);
}

/* ---- meshes -------------------------------------------------------------- */

struct mesh_job {
	struct gen_puzzle g;
	char stl_path[64];   /* a temporary STL of piece 1 */
	double volume;       /* its exact volume */
	struct bytes out[4]; /* piece STL, plate STL, piece SCAD, plate SCAD */
};

static bool mesh_failed(int rc)
{
	assert_int_equal(rc, MESH_ENOMEM);
	return false;
}

static bool job_mesh(void *ctx, bool ref)
{
	struct mesh_job *j = ctx;
	int n = j->g.dim[0];
	const unsigned char *cells[6];
	int dims[6][3];
	for (int i = 0; i < 6; i++) {
		cells[i] = j->g.piece[i];
		dims[i][0] = dims[i][1] = n;
		dims[i][2] = 1;
	}
	struct mesh *m;
	int rc = mesh_from_cells(cells[0], n, n, 1, 10, 0.2, &m);
	if (rc != MESH_OK)
		return mesh_failed(rc);
	struct memout mo;
	memout_open(&mo);
	assert_int_equal(mesh_write_stl(mo.fp, m, "piece"), MESH_OK);
	memout_close(&mo);
	mesh_free(m);
	same_bytes(ref, &j->out[0], mo.buf, mo.len);
	free(mo.buf);

	rc = mesh_plate(cells, (const int (*)[3])dims, 6, 10, 0.2, 5, &m);
	if (rc != MESH_OK)
		return mesh_failed(rc);
	memout_open(&mo);
	assert_int_equal(mesh_write_stl(mo.fp, m, "plate"), MESH_OK);
	memout_close(&mo);
	mesh_free(m);
	same_bytes(ref, &j->out[1], mo.buf, mo.len);
	free(mo.buf);

	memout_open(&mo);
	rc = mesh_write_scad(mo.fp, cells[0], n, n, 1, 10, 0.2, "piece");
	memout_close(&mo);
	if (rc != MESH_OK) {
		free(mo.buf);
		return mesh_failed(rc);
	}
	same_bytes(ref, &j->out[2], mo.buf, mo.len);
	free(mo.buf);

	memout_open(&mo);
	rc = mesh_write_scad_plate(mo.fp, cells, (const int (*)[3])dims, 6, 10,
	                           0.2, 5, "plate");
	memout_close(&mo);
	if (rc != MESH_OK) {
		free(mo.buf);
		return mesh_failed(rc);
	}
	same_bytes(ref, &j->out[3], mo.buf, mo.len);
	free(mo.buf);

	struct mesh_report rep;
	rc = mesh_verify_stl(j->stl_path, j->volume, &rep);
	if (rc != MESH_OK)
		return mesh_failed(rc);
	return true;
}

static void test_fault_mesh(void **state)
{
	(void)state;
	struct mesh_job j = {0};
	assert_true(draw_first((const int[3]){4, 4, 4}, 7, &j.g));
	int n = j.g.dim[0];
	struct mesh *m;
	assert_int_equal(mesh_from_cells(j.g.piece[0], n, n, 1, 10, 0.2, &m), MESH_OK);
	strcpy(j.stl_path, "/tmp/cubegen-fault-XXXXXX");
	int fd = mkstemp(j.stl_path);
	assert_true(fd >= 0);
	FILE *fp = fdopen(fd, "wb");
	assert_non_null(fp);
	assert_int_equal(mesh_write_stl(fp, m, "piece"), MESH_OK);
	assert_int_equal(fclose(fp), 0);
	mesh_free(m);
	j.volume = mesh_expected_volume(j.g.piece[0], n, n, 1, 10, 0.2);
	every_fault("meshes, STL, SCAD, check", job_mesh, &j);
	unlink(j.stl_path);
	for (int i = 0; i < 4; i++)
		bytes_clear(&j.out[i]);
	gen_puzzle_clear(&j.g);
}

/* Walls, engraved labels and the 3MF package: a plate of the puzzle's six
 * pieces with 3 mm walls and numbers, meshed one by one and as a plate,
 * with their volumes and the 3MF bytes. */
struct print_job {
	struct gen_puzzle g;
	struct bytes out[2]; /* plate STL, 3MF */
	double volume;
};

static bool job_print(void *ctx, bool ref)
{
	struct print_job *j = ctx;
	int n = j->g.dim[0];
	unsigned char wall[64] = {0};
	static const unsigned char thick[1] = {1};
	wall[0] = wall[n - 1] = 1;
	static const char *const labels[6] = {"1", "2", "3", "4", "5", "69"};
	struct mesh_spec s[6];
	for (int i = 0; i < 6; i++)
		s[i] = (struct mesh_spec){j->g.piece[i], {n, n, 1},
					  {wall, wall, thick}, labels[i]};
	struct mesh_size sz = {10, 3, 0.2};
	double v = 0;
	for (int i = 0; i < 6; i++)
		v += mesh_spec_volume(&s[i], &sz); /* -1 when out of memory */
	if (ref)
		j->volume = v;
	else if (v != j->volume)
		return false; /* a volume computed without memory is never used */
	struct mesh *m[6] = {NULL}, *plate = NULL;
	double origin[6][3];
	int rc = MESH_OK;
	for (int i = 0; i < 6 && rc == MESH_OK; i++)
		rc = mesh_build(&s[i], &sz, &m[i]);
	if (rc == MESH_OK)
		rc = mesh_build_plate(s, 6, &sz, 5, &plate, origin);
	unsigned char *buf = NULL;
	size_t len = 0;
	if (rc == MESH_OK) {
		struct mesh_object obj[6];
		for (int i = 0; i < 6; i++) {
			obj[i] = (struct mesh_object){m[i], labels[i], 0x112233u * (unsigned)i,
						      {origin[i][0], origin[i][1], 0}};
		}
		rc = mesh_3mf(obj, 6, "fault", &buf, &len);
	}
	if (rc == MESH_OK) {
		struct memout mo;
		memout_open(&mo);
		assert_int_equal(mesh_write_stl(mo.fp, plate, "plate"), MESH_OK);
		memout_close(&mo);
		same_bytes(ref, &j->out[0], mo.buf, mo.len);
		free(mo.buf);
		same_bytes(ref, &j->out[1], buf, len);
	}
	fault_free(buf); /* the module allocated it */
	mesh_free(plate);
	for (int i = 0; i < 6; i++)
		mesh_free(m[i]);
	return rc == MESH_OK ? true : mesh_failed(rc);
}

static void test_fault_print(void **state)
{
	(void)state;
	struct print_job j = {0};
	assert_true(draw_first((const int[3]){4, 4, 4}, 7, &j.g));
	every_fault("walls, labels, 3MF", job_print, &j);
	assert_true(j.volume > 0);
	for (int i = 0; i < 2; i++)
		bytes_clear(&j.out[i]);
	gen_puzzle_clear(&j.g);
}

/* ---- pictures ------------------------------------------------------------ */

struct draw_job {
	struct gen_puzzle g;
	struct bytes png[3];
};

static bool draw_failed(int rc)
{
	assert_int_equal(rc, DRAW_ENOMEM);
	return false;
}

static bool job_draw(void *ctx, bool ref)
{
	struct draw_job *j = ctx;
	const struct gen_puzzle *g = &j->g;
	int n = g->dim[0];
	const unsigned char *plates[6];
	int label[6], dims[6][2];
	for (int i = 0; i < 6; i++) {
		plates[i] = g->piece[i];
		label[i] = i + 1;
		dims[i][0] = dims[i][1] = n;
	}
	unsigned char *png;
	size_t len;
	int rc = draw_plates(plates, (const int (*)[2])dims, 6, label, "t", &png,
	                     &len);
	if (rc != DRAW_OK)
		return draw_failed(rc);
	same_bytes(ref, &j->png[0], png, len);
	fault_free(png); /* the module allocated it */

	unsigned char views[6][16], owner[64];
	const unsigned char *view[6];
	int net[6][2];
	for (int f = 0; f < 6; f++) {
		gen_face_view(g, f, views[f]);
		view[f] = views[f];
		gen_net_pos(f, net[f]);
	}
	gen_piece_grid(g, owner);
	const int dim[3] = {n, n, n};
	rc = draw_shell_solution(dim, view, (const int (*)[2])net, owner, g->face,
	                         "t", &png, &len);
	if (rc != DRAW_OK)
		return draw_failed(rc);
	same_bytes(ref, &j->png[1], png, len);
	fault_free(png); /* the module allocated it */

	rc = draw_assembly(owner, n, n, n, NULL, 6, "t", &png, &len);
	if (rc != DRAW_OK)
		return draw_failed(rc);
	same_bytes(ref, &j->png[2], png, len);
	fault_free(png); /* the module allocated it */
	return true;
}

static void test_fault_draw(void **state)
{
	(void)state;
	struct draw_job j = {0};
	assert_true(draw_first((const int[3]){4, 4, 4}, 7, &j.g));
	every_fault("pictures", job_draw, &j);
	for (int i = 0; i < 3; i++)
		bytes_clear(&j.png[i]);
	gen_puzzle_clear(&j.g);
}

/* The harness itself: a job that ignores a failed allocation is caught. */
static bool job_careless(void *ctx, bool ref)
{
	(void)ctx;
	(void)ref;
	void *p = fault_malloc(16);
	fault_free(p);
	return true; /* claims success even when p was NULL */
}

static void test_fault_harness_sees_failures(void **state)
{
	(void)state;
	fault_arm(0);
	assert_null(fault_malloc(1));
	assert_true(fault_fired());
	void *p = fault_malloc(1); /* only one failure per run */
	assert_non_null(p);
	fault_free(p);
	assert_int_equal(fault_disarm(), 2);
	/* A careless job "succeeds" when its allocation failed; every_fault
	 * accepts that only because it cannot see the result was wrong, so
	 * jobs must check their results: here the failed run is visible. */
	fault_arm(0);
	assert_true(job_careless(NULL, false));
	assert_true(fault_fired());
	fault_disarm();
}

/* ---- BurrTools files --------------------------------------------------- */

struct xmp_job {
	struct puzzle p;
	struct bytes want; /* the .xmpuzzle with its solutions */
};

/* Find the solutions as BurrTools assemblies and write the file. */
static bool job_xmp(void *ctx, bool ref)
{
	struct xmp_job *j = ctx;
	struct xmp_solutions s;
	int rc = xmp_find_solutions(&j->p, 0, false, NULL, NULL, &s);
	if (rc != SOLVE_OK) {
		assert_int_equal(rc, SOLVE_ENOMEM);
		return false;
	}
	assert_true(s.complete);
	struct memout m;
	memout_open(&m);
	rc = xmp_write(m.fp, &j->p, &s, true);
	memout_close(&m);
	xmp_solutions_clear(&s);
	if (rc != PUZ_OK) {
		assert_int_equal(rc, PUZ_ENOMEM);
		free(m.buf);
		return false;
	}
	same_bytes(ref, &j->want, m.buf, m.len);
	free(m.buf);
	return true;
}

static void test_fault_xmpuzzle(void **state)
{
	(void)state;
	/* Soma (the pinned search), and a colour puzzle with ranges, an
	 * optional cell and two copies that share a label (no_pin) */
	static const char colours[] =
		"puzzle v1\ngoal 3 2 1\nab+\n###\npiece L 2 2 1\nab\n#.\n"
		"piece D 1 1 1 count 1..3\n#\n";
	struct xmp_job j = {0};
	struct puz_error e;
	assert_int_equal(puz_read_file(DATA "soma.puz", &j.p, &e), PUZ_OK);
	every_fault("xmpuzzle Soma --solutions", job_xmp, &j);
	puz_clear(&j.p);
	bytes_clear(&j.want);
	assert_int_equal(puz_read_mem(colours, sizeof colours - 1, &j.p, &e),
	                 PUZ_OK);
	every_fault("xmpuzzle colours --solutions", job_xmp, &j);
	puz_clear(&j.p);
	bytes_clear(&j.want);
	/* optional cells of colours a and b (variable voxels "+1", "+2") */
	static const char copt[] =
		"puzzle v1\ngoal 3 1 1\nA#B\npiece a 1 1 1 count 0..1\na\n"
		"piece b 1 1 1 count 0..1\nb\npiece s 1 1 1\n#\n";
	assert_int_equal(puz_read_mem(copt, sizeof copt - 1, &j.p, &e), PUZ_OK);
	every_fault("xmpuzzle coloured optional --solutions", job_xmp, &j);
	puz_clear(&j.p);
	bytes_clear(&j.want);
}

/* ---- the block generator's prover --------------------------------------- */

#define PROVE_RUN 6

/* A dissection of the 4 x 4 x 4 box into k face-connected pieces grown
 * from k random cells. */
static void dissect(struct rng *r, int k, int *piece)
{
	for (int c = 0; c < 64; c++)
		piece[c] = -1;
	for (int i = 0; i < k; i++) {
		int c;
		do
			c = (int)rng_below(r, 64);
		while (piece[c] >= 0);
		piece[c] = i;
	}
	for (int left = 64 - k; left > 0;) {
		int c = (int)rng_below(r, 64), cand[6], nc = 0;
		if (piece[c] >= 0)
			continue;
		int p[3] = {c % 4, c / 4 % 4, c / 16};
		for (int d = 0; d < 6; d++) {
			int q[3] = {p[0], p[1], p[2]};
			q[d / 2] += d % 2 ? -1 : 1;
			if (q[d / 2] >= 0 && q[d / 2] < 4 &&
			    piece[q[0] + 4 * (q[1] + 4 * q[2])] >= 0)
				cand[nc++] = piece[q[0] + 4 * (q[1] + 4 * q[2])];
		}
		if (nc) {
			piece[c] = cand[rng_below(r, (uint64_t)nc)];
			left--;
		}
	}
}

struct prove_job {
	struct grid goal;
	int k[PROVE_RUN];
	int piece[PROVE_RUN][64];
	struct prove_result want[PROVE_RUN];
};

/* One prover for a run of dissections, their piece counts (so the levels
 * of its engine, which it empties for each proof) going up and down: a
 * proof out of memory says so, and every later one still gives the
 * reference answer. */
static bool job_prove(void *ctx, bool ref)
{
	struct prove_job *j = ctx;
	prove *p = prove_new(&j->goal);
	if (!p)
		return false;
	bool whole = true;
	for (int t = 0; t < PROVE_RUN; t++) {
		struct prove_result got;
		int rc = prove_count(p, j->piece[t], j->k[t], 2, 0, &got);
		if (rc != PROVE_OK) {
			assert_int_equal(rc, PROVE_ENOMEM);
			whole = false;
			continue;
		}
		if (ref) {
			j->want[t] = got;
			continue;
		}
		assert_int_equal(got.solutions, j->want[t].solutions);
		assert_int_equal(got.nodes, j->want[t].nodes);
		assert_int_equal(got.complete, j->want[t].complete);
	}
	prove_free(p);
	return whole;
}

static void test_fault_prove(void **state)
{
	(void)state;
	struct prove_job j = {0};
	assert_int_equal(puz_grid_init(&j.goal, 4, 4, 4), PUZ_OK);
	memset(j.goal.cells, PUZ_CELL, 64);
	static const int ks[PROVE_RUN] = {5, 9, 4, 12, 7, 10};
	struct rng r;
	rng_seed(&r, 29);
	for (int t = 0; t < PROVE_RUN; t++) {
		j.k[t] = ks[t];
		dissect(&r, ks[t], j.piece[t]);
	}
	every_fault("prove a run of dissections", job_prove, &j);
	int unique = 0;
	for (int t = 0; t < PROVE_RUN; t++)
		unique += j.want[t].complete && j.want[t].solutions == 1;
	/* unique ones, proved to the end, and others */
	assert_true(unique >= 1 && unique < PROVE_RUN);
	puz_grid_clear(&j.goal);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fault_harness_sees_failures),
		cmocka_unit_test(test_fault_read),
		cmocka_unit_test(test_fault_xmread),
		cmocka_unit_test(test_fault_solve),
		cmocka_unit_test(test_fault_disassemble),
		cmocka_unit_test(test_fault_check_generated),
		cmocka_unit_test(test_fault_generate),
		cmocka_unit_test(test_fault_mesh),
		cmocka_unit_test(test_fault_print),
		cmocka_unit_test(test_fault_draw),
		cmocka_unit_test(test_fault_xmpuzzle),
		cmocka_unit_test(test_fault_prove),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
