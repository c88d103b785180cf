/*
 * bench.c: cubegen's benchmark table (`make bench`). Not a test: it prints
 * figures, medians of repeated runs, for docs/figures.md to quote.
 *
 * Usage: bench [--quick | --solve | --disassemble | --blocks | --climb |
 *               --proofs | --wide]
 * (--quick skips the slowest solver rows; the others run one group's rows
 * alone: --solve the counts, on one core and on all of them)
 * Run from the repository root (it reads tests/data).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include "formats/puz.h"
#include "gen/gen.h"
#include "draw/draw.h"
#include "gen/blocks.h"
#include "mesh/mesh.h"
#include "solver/bb.h"
#include "solver/difficulty.h"
#include "solver/prove.h"
#include "solver/solve.h"

static double bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double bench_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void bench_row(const char *what, const char *figure, const char *note)
{
	printf("| %-50s | %18s | %-36s |\n", what, figure, note);
	fflush(stdout);
}

static void bench_time_row(const char *what, double secs, const char *note)
{
	char fig[64];
	if (secs < 1e-6)
		snprintf(fig, sizeof fig, "%.1f ns", secs * 1e9);
	else if (secs < 1e-3)
		snprintf(fig, sizeof fig, "%.2f µs", secs * 1e6);
	else if (secs < 1)
		snprintf(fig, sizeof fig, "%.2f ms", secs * 1e3);
	else
		snprintf(fig, sizeof fig, "%.2f s", secs);
	bench_row(what, fig, note);
}

static void bench_rng(void)
{
	struct rng r;
	rng_seed(&r, 1);
	double t[9];
	volatile uint64_t sink = 0; /* keeps the draws from being optimised out */
	for (int k = 0; k < 9; k++) {
		double t0 = bench_now();
		for (int i = 0; i < 1000000; i++)
			sink ^= rng_next(&r);
		t[k] = (bench_now() - t0) / 1e6;
	}
	(void)sink;
	bench_time_row("PRNG: one 64-bit draw", bench_median(t, 9),
	               "xoshiro256**, 9 runs of 10^6 draws");
}

/* "N = 5" for a cube, "4x5x6" for a box: the row labels. */
static void size_name(const int dim[3], char *buf, size_t len)
{
	if (gen_is_cube(dim))
		snprintf(buf, len, "N = %d", dim[0]);
	else
		snprintf(buf, len, "%dx%dx%d", dim[0], dim[1], dim[2]);
}

static void bench_generate_candidates(void)
{
	static const int sizes[] = {5, 20, 64};
	for (size_t s = 0; s < 3; s++) {
		int n = sizes[s], runs = n == 64 ? 31 : 201;
		double *t = malloc((size_t)runs * sizeof *t);
		struct rng r;
		rng_seed(&r, 7);
		for (int k = 0; k < runs; k++) {
			struct gen_puzzle g = {0};
			double t0 = bench_now();
			gen_draw(&r, (const int[3]){n, n, n}, &g);
			t[k] = bench_now() - t0;
			gen_puzzle_clear(&g);
		}
		char what[64];
		snprintf(what, sizeof what, "generator: one candidate, N = %d", n);
		bench_time_row(what, bench_median(t, (size_t)runs),
		               "rules of DESIGN §1 + scrambling");
		free(t);
	}
}

/* Uniqueness check of generated candidates: the path `generate` uses. */
static void bench_check(const int dim[3], int count, bool generic)
{
	double *t = malloc((size_t)count * sizeof *t);
	struct rng r;
	rng_seed(&r, 99);
	int done = 0;
	for (int k = 0; k < count; k++) {
		struct gen_puzzle g = {0};
		gen_draw(&r, dim, &g);
		struct solve_opts o = {.max_solutions = 2, .generic = generic};
		struct solve_result res;
		int rc;
		double t0 = bench_now();
		if (generic) {
			/* the general search alone, without building the puzzle */
			struct puzzle p;
			gen_to_puzzle(&g, 0, &p);
			t0 = bench_now();
			rc = solve_puzzle(&p, &o, &res);
			t[done] = bench_now() - t0;
			puz_clear(&p);
		} else {
			rc = gen_count(&g, &o, &res);
			t[done] = bench_now() - t0;
		}
		if (rc == SOLVE_OK) {
			done++;
			solve_result_clear(&res);
		}
		gen_puzzle_clear(&g);
	}
	char what[80], sz[32];
	size_name(dim, sz, sizeof sz);
	snprintf(what, sizeof what, "uniqueness check, %s%s", sz,
	         generic ? " (generic search)" : "");
	char note[80];
	snprintf(note, sizeof note, "median over %d candidates", done);
	bench_time_row(what, bench_median(t, (size_t)done), note);
	free(t);
}

/* Share of candidates that are unique, and unique puzzles per second
 * (drawing and checking, as `generate` does). */
static void bench_unique_share(const int dim[3], int count)
{
	struct rng r;
	rng_seed(&r, 2024);
	int unique = 0;
	double t0 = bench_now();
	for (int k = 0; k < count; k++) {
		struct gen_puzzle g = {0};
		gen_draw(&r, dim, &g);
		struct solve_opts o = {.max_solutions = 2};
		struct solve_result res;
		int rc = gen_count(&g, &o, &res);
		if (rc == SOLVE_OK) {
			unique += res.solutions == 1;
			solve_result_clear(&res);
		}
		gen_puzzle_clear(&g);
	}
	double secs = bench_now() - t0;
	char what[64], fig[64], note[64], sz[32];
	size_name(dim, sz, sizeof sz);
	snprintf(what, sizeof what, "unique candidates, %s", sz);
	snprintf(fig, sizeof fig, "%.1f %%", 100.0 * unique / count);
	snprintf(note, sizeof note, "%.0f unique puzzles/s (%d drawn)",
	         unique / secs, count);
	bench_row(what, fig, note);
}

static void bench_solve_with(const char *path, const char *label, int runs,
                             bool rename)
{
	struct puzzle p;
	struct puz_error e;
	if (puz_read_file(path, &p, &e) != PUZ_OK) {
		bench_row(label, "-", "file missing");
		return;
	}
	double t[15];
	struct solve_result r = {0};
	for (int k = 0; k < runs; k++) {
		struct solve_opts o = {.rename_colours = rename};
		double t0 = bench_now();
		solve_puzzle(&p, &o, &r);
		t[k] = bench_now() - t0;
		if (k + 1 < runs)
			solve_result_clear(&r);
	}
	char note[96];
	snprintf(note, sizeof note, "%llu solutions, %llu nodes%s",
	         (unsigned long long)r.solutions, (unsigned long long)r.nodes,
	         runs > 1 ? "" : " (1 run)");
	solve_result_clear(&r);
	bench_time_row(label, bench_median(t, (size_t)runs), note);
	puz_clear(&p);
}

/* solve --disassemble on one design, one thread: the whole count and, in
 * the note, what the disassembly added to the plain count (the two run
 * alike but for it), per assembly found, and what it found. */
/* A puzzle file, ours or BurrTools' (its first problem). */
static int read_any(const char *path, struct puzzle *p)
{
	struct puz_error e;
	struct xmp_info xi;
	size_t n = strlen(path);
	return n > 9 && strcmp(path + n - 9, ".xmpuzzle") == 0
	       ? xmp_read_file(path, 0, p, &xi, &e)
	       : puz_read_file(path, p, &e);
}

static void bench_disassemble(const char *path, const char *label, int runs)
{
	struct puzzle p;
	int rc = read_any(path, &p);
	if (rc != PUZ_OK) {
		bench_row(label, "-", "file missing");
		return;
	}
	double plain[15], dis[15];
	struct solve_result r = {0};
	for (int k = 0; k < runs; k++) {
		struct solve_opts o = {0};
		double t0 = bench_now();
		solve_puzzle(&p, &o, &r);
		plain[k] = bench_now() - t0;
		solve_result_clear(&r);
		o.disassemble = true;
		t0 = bench_now();
		solve_puzzle(&p, &o, &r);
		dis[k] = bench_now() - t0;
		if (k + 1 < runs)
			solve_result_clear(&r);
	}
	double td = bench_median(dis, (size_t)runs),
	       tp = bench_median(plain, (size_t)runs);
	uint64_t all = r.solutions + r.stuck + r.undecided + r.below_min;
	char lv[64] = "none", note[160];
	size_t at = 0;
	for (size_t i = 0; i < r.hardest_moves.nlevel && at + 12 < sizeof lv; i++)
		at += (size_t)snprintf(lv + at, sizeof lv - at, "%s%d", i ? "." : "",
		                       r.hardest_moves.level[i]);
	/* two medians: a disassembly cheaper than the timer's noise can
	 * come out below the plain count */
	double extra = td > tp ? td - tp : 0;
	snprintf(note, sizeof note, "%llu of %llu come apart, level %s; "
	         "taking apart %.2f ms, %.1f µs each%s%s",
	         (unsigned long long)r.solutions, (unsigned long long)all, lv,
	         extra * 1e3, extra * 1e6 / (double)(all ? all : 1),
	         td > tp ? "" : " (within noise)", runs > 1 ? "" : " (1 run)");
	solve_result_clear(&r);
	bench_time_row(label, td, note);
	puz_clear(&p);
}

/* The instructions the bitboards' search runs on here (bb.h): the solver
 * rows depend on it. */
static const char *bench_kernels(void)
{
	unsigned rank = 0, count = 1;
	bb *b = bb_new(1, &rank, 1, &count);
	if (!b)
		return "unknown (out of memory)";
	enum bb_kernels k = bb_set_kernels(b, BB_MATRIX);
	bb_free(b);
	return k == BB_MATRIX ? "AVX-512, with the matrix phase"
	     : k == BB_AVX512 ? "AVX-512"
	     : k == BB_AVX2   ? "AVX2"
	                      : "portable loops";
}

/* One engine, without the shell path: the engines side by side. */
static void bench_solve_engine(const char *path, const char *label,
                               enum solve_engine engine)
{
	struct puzzle p;
	if (read_any(path, &p) != PUZ_OK) {
		bench_row(label, "-", "file missing");
		return;
	}
	struct solve_opts o = {.generic = true, .engine = engine};
	struct solve_result r = {0};
	double t0 = bench_now();
	int rc = solve_puzzle(&p, &o, &r);
	double t = bench_now() - t0;
	char note[96];
	snprintf(note, sizeof note, "%llu solutions, %llu nodes (1 run)",
	         (unsigned long long)r.solutions, (unsigned long long)r.nodes);
	if (rc == SOLVE_OK)
		bench_time_row(label, t, note);
	else
		bench_row(label, "-", solve_strerror(rc));
	solve_result_clear(&r);
	puz_clear(&p);
}

static void bench_solve(const char *path, const char *label, int runs)
{
	bench_solve_with(path, label, runs, false);
}

/* A split search (solve_opts.threads) on 1 to 'max' threads; each row's
 * note gives the speed-up over one thread of the same split search. */
static void bench_solve_threads(const char *path, const char *label,
                                int runs, unsigned max)
{
	struct puzzle p;
	struct puz_error e;
	if (puz_read_file(path, &p, &e) != PUZ_OK) {
		bench_row(label, "-", "file missing");
		return;
	}
	double one = 0;
	for (unsigned th = 1; th <= max; th *= 2) {
		double t[15];
		struct solve_result r = {0};
		for (int k = 0; k < runs; k++) {
			struct solve_opts o = {.threads = th};
			double t0 = bench_now();
			solve_puzzle(&p, &o, &r);
			t[k] = bench_now() - t0;
			if (k + 1 < runs)
				solve_result_clear(&r);
		}
		double med = bench_median(t, (size_t)runs);
		if (th == 1)
			one = med;
		char what[96], note[96];
		snprintf(what, sizeof what, "%s, %u thread%s", label, th,
		         th > 1 ? "s" : "");
		snprintf(note, sizeof note, "x%.2f, %llu tasks, %llu solutions%s",
		         one / med, (unsigned long long)r.tasks,
		         (unsigned long long)r.solutions, runs > 1 ? "" : " (1 run)");
		solve_result_clear(&r);
		bench_time_row(what, med, note);
	}
	puz_clear(&p);
}

/* The difficulty score of unique candidates (gen_difficulty), beside the
 * uniqueness check above; and the scores' distribution. */
static void bench_difficulty(const int dim[3], int want)
{
	double *t = malloc((size_t)want * sizeof *t);
	double *d = malloc((size_t)want * sizeof *d);
	struct rng r;
	rng_seed(&r, 2024);
	int n = 0;
	while (n < want) {
		struct gen_puzzle g = {0};
		gen_draw(&r, dim, &g);
		struct solve_opts o = {.max_solutions = 2};
		struct solve_result res;
		if (gen_count(&g, &o, &res) == SOLVE_OK) {
			if (res.complete && res.solutions == 1) {
				struct diff_result dr;
				double t0 = bench_now();
				int rc = gen_difficulty(&g, &dr);
				t[n] = bench_now() - t0;
				if (rc == SOLVE_OK && diff_score(&dr, &d[n]))
					n++;
			}
			solve_result_clear(&res);
		}
		gen_puzzle_clear(&g);
	}
	char what[80], sz[32], note[96], fig[32];
	size_name(dim, sz, sizeof sz);
	snprintf(what, sizeof what, "difficulty score, %s", sz);
	snprintf(note, sizeof note, "median over %d unique candidates", n);
	bench_time_row(what, bench_median(t, (size_t)n), note);
	qsort(d, (size_t)n, sizeof *d, cmp_double);
	static const int pc[] = {10, 25, 50, 75, 90, 95, 99};
	for (size_t k = 0; k < sizeof pc / sizeof *pc; k++) {
		snprintf(what, sizeof what, "difficulty of %d random unique %s: P%d", n,
		         sz, pc[k]);
		snprintf(fig, sizeof fig, "%.2f", d[(pc[k] * n + 99) / 100 - 1]);
		bench_row(what, fig, k == 0 ? "seed 2024 stream, not the bands' own" : "");
	}
	free(t);
	free(d);
}

/* The score of a file, with its family when FAMILIES.md knows it. */
static void bench_difficulty_file(const char *path, const char *label)
{
	struct puzzle p;
	struct puz_error e;
	if (puz_read_file(path, &p, &e) != PUZ_OK) {
		bench_row(label, "-", "file missing");
		return;
	}
	double t[5], score = 0;
	struct diff_result r = {0};
	for (int k = 0; k < 5; k++) {
		double t0 = bench_now();
		diff_puzzle(&p, 0, &r);
		t[k] = bench_now() - t0;
	}
	bool has = diff_score(&r, &score);
	char fig[32], note[96];
	snprintf(fig, sizeof fig, has ? "%.2f" : "-", score);
	snprintf(note, sizeof note, "%s search, %.3g ms", diff_method_name(r.method),
	         1e3 * bench_median(t, 5));
	bench_row(label, fig, note);
	puz_clear(&p);
}

static void bench_commercial(void)
{
	static const char *const sets[][2] = {
		{"f739452a", "1 Little Genius"}, {"82af7031", "2 Original"},
		{"936cda1c", "2 Original"},      {"1324cd79", "3 Pro"},
		{"e6166c21", "3 Pro"},           {"b95e3254", "4 Marble"},
		{"90fbdf4e", "4 Marble"},
	};
	for (size_t k = 0; k < sizeof sets / sizeof *sets; k++) {
		char path[96], label[80];
		snprintf(path, sizeof path, "tests/data/classic/happycube/%s.puz",
		         sets[k][0]);
		snprintf(label, sizeof label, "difficulty: Happy Cube %s (%s)",
		         sets[k][0], sets[k][1]);
		bench_difficulty_file(path, label);
	}
}

/* Mesh and write all six STLs (to memory-backed /dev/null). */
static void bench_mesh(int n)
{
	struct rng r;
	rng_seed(&r, 11);
	struct gen_puzzle g = {0};
	gen_draw(&r, (const int[3]){n, n, n}, &g);
	FILE *null = fopen("/dev/null", "wb");
	double t[21];
	size_t tri = 0, cells = 0;
	for (int k = 0; k < 21; k++) {
		double t0 = bench_now();
		tri = 0;
		cells = 0;
		for (int i = 0; i < 6; i++) {
			struct mesh *m;
			mesh_from_cells(g.piece[i], n, n, 1, 10.0, 0.2, &m);
			mesh_write_stl(null, m, "bench");
			tri += mesh_triangles(m);
			for (int c = 0; c < n * n; c++)
				cells += g.piece[i][c];
			mesh_free(m);
		}
		fflush(null);
		t[k] = bench_now() - t0;
	}
	fclose(null);
	char what[64], note[96];
	snprintf(what, sizeof what, "mesh + write six STLs, N = %d", n);
	snprintf(note, sizeof note, "%zu triangles; naive cubes: %zu",
	         tri, 12 * cells);
	bench_time_row(what, bench_median(t, 21), note);
	gen_puzzle_clear(&g);
}

/* What labels and the 3MF add: the six pieces of an N = n puzzle with
 * 3 mm walls meshed without and with their numbers, and the 3MF package
 * of the labelled six. */
static void bench_labels_3mf(int n)
{
	struct rng r;
	rng_seed(&r, 11);
	struct gen_puzzle g = {0};
	gen_draw(&r, (const int[3]){n, n, n}, &g);
	unsigned char wall[64] = {0};
	static const unsigned char thick[1] = {1};
	wall[0] = wall[n - 1] = 1;
	static const char *const labels[6] = {"1", "2", "3", "4", "5", "6"};
	struct mesh_size sz = {10, 3, 0.2};
	double t[4][21];
	size_t bytes = 0, tri[2] = {0, 0};
	long page = 0;
	for (int k = 0; k < 21; k++) {
		struct mesh *m[6];
		for (int lab = 0; lab < 2; lab++) {
			double t0 = bench_now();
			tri[lab] = 0;
			for (int i = 0; i < 6; i++) {
				struct mesh_spec s = {g.piece[i], {n, n, 1}, {wall, wall, thick},
						      lab ? labels[i] : NULL};
				mesh_build(&s, &sz, &m[i]);
				tri[lab] += mesh_triangles(m[i]);
				if (!lab)
					mesh_free(m[i]);
			}
			t[lab][k] = bench_now() - t0;
		}
		struct mesh_object obj[6];
		for (int i = 0; i < 6; i++)
			obj[i] = (struct mesh_object){m[i], labels[i], 0x336699, {i * 60.0, 0, 0}};
		unsigned char *buf = NULL;
		double t0 = bench_now();
		int rc3 = mesh_3mf(obj, 6, "bench", &buf, &bytes);
		t[2][k] = bench_now() - t0;
		if (rc3 != MESH_OK) {
			fprintf(stderr, "bench: plate.3mf: %s\n", mesh_strerror(rc3));
			exit(1);
		}
		free(buf);
		/* both viewer pages: the pieces, and the answer's six steps */
		size_t order[6] = {0, 1, 2, 3, 4, 5};
		struct mesh_page_step st[6];
		for (int i = 0; i < 6; i++)
			st[i] = (struct mesh_page_step){"bottom (-Z): piece 1. Keep the drawn "
			                                "side out; do not turn it.", order,
			                                (size_t)i + 1, &order[i], 1, {0, 0, 90}, NULL};
		FILE *tmp = tmpfile(); /* not /dev/null: ftell() gives the size */
		t0 = bench_now();
		mesh_write_page(tmp, "bench", obj, NULL, 6, NULL, 0);
		page = ftell(tmp);
		mesh_write_page(tmp, "bench", obj, NULL, 6, st, 6);
		t[3][k] = bench_now() - t0;
		fclose(tmp);
		for (int i = 0; i < 6; i++)
			mesh_free(m[i]);
	}
	char what[64], note[96];
	snprintf(what, sizeof what, "mesh six pieces, N = %d, wall 3, no numbers", n);
	snprintf(note, sizeof note, "%zu triangles", tri[0]);
	bench_time_row(what, bench_median(t[0], 21), note);
	snprintf(what, sizeof what, "mesh six pieces, N = %d, wall 3, numbers", n);
	snprintf(note, sizeof note, "%zu triangles", tri[1]);
	bench_time_row(what, bench_median(t[1], 21), note);
	snprintf(what, sizeof what, "plate.3mf of those six, N = %d", n);
	snprintf(note, sizeof note, "%zu bytes (ZIP, deflate level 6)", bytes);
	bench_time_row(what, bench_median(t[2], 21), note);
	snprintf(what, sizeof what, "pieces.html + solution.html, N = %d", n);
	snprintf(note, sizeof note, "%ld bytes a page", page);
	bench_time_row(what, bench_median(t[3], 21), note);
	gen_puzzle_clear(&g);
}

static void bench_pictures(int n)
{
	struct rng r;
	rng_seed(&r, 11);
	struct gen_puzzle g = {0};
	gen_draw(&r, (const int[3]){n, n, n}, &g);
	const unsigned char *plates[6], *views[6];
	int label[6];
	size_t nn = (size_t)n * n;
	unsigned char *buf = malloc(6 * nn + nn * n);
	for (int i = 0; i < 6; i++) {
		plates[i] = g.piece[i];
		label[i] = i + 1;
		gen_face_view(&g, i, buf + i * nn);
		views[i] = buf + i * nn;
	}
	unsigned char *owner = buf + 6 * nn;
	gen_piece_grid(&g, owner);
	int net[6][2], dims[6][2];
	for (int f = 0; f < 6; f++) {
		gen_net_pos(f, net[f]);
		dims[f][0] = dims[f][1] = n;
	}
	const int dim[3] = {n, n, n};
	double t[9];
	for (int k = 0; k < 9; k++) {
		unsigned char *png;
		size_t len;
		double t0 = bench_now();
		draw_plates(plates, (const int (*)[2])dims, 6, label, "bench", &png,
		            &len);
		free(png);
		draw_shell_solution(dim, views, (const int (*)[2])net, owner, g.face,
		                    "bench", &png, &len);
		free(png);
		t[k] = bench_now() - t0;
	}
	char what[64];
	snprintf(what, sizeof what, "draw + encode both PNGs, N = %d", n);
	bench_time_row(what, bench_median(t, 9), "preview.png + solution.png");
	free(buf);
	gen_puzzle_clear(&g);
}

/* The whole command, as a user runs it (process start included). */
static void bench_generate_command(const char *size, const char *extra,
                                   const char *extra2, const char *cubegen)
{
	double t[7];
	int runs = 0;
	for (int k = 0; k < 7; k++) {
		char dir[64], seed[32];
		snprintf(dir, sizeof dir, "/tmp/cubegen-bench-%d-%d", (int)getpid(), k);
		snprintf(seed, sizeof seed, "%d", 100 + k);
		char *argv[] = {(char *)cubegen, "generate", "--size", (char *)size, "--seed",
		                seed, "--out", dir, (char *)extra, (char *)extra2, NULL};
		pid_t pid;
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		double t0 = bench_now();
		int rc = posix_spawn(&pid, cubegen, &fa, NULL, argv, NULL);
		posix_spawn_file_actions_destroy(&fa);
		if (rc != 0)
			break;
		int st;
		waitpid(pid, &st, 0);
		t[runs++] = bench_now() - t0;
		char rm[96];
		snprintf(rm, sizeof rm, "rm -rf %s", dir);
		if (system(rm) != 0)
			break;
	}
	char what[80];
	if (extra)
		snprintf(what, sizeof what, "generate, %s%s %s%s%s (whole command)",
		         strchr(size, 'x') ? "" : "N = ", size, extra,
		         extra2 ? " " : "", extra2 ? extra2 : "");
	else
		snprintf(what, sizeof what, "cubegen generate, %s%s (whole command)",
		         strchr(size, 'x') ? "" : "N = ", size);
	if (runs)
		bench_time_row(what, bench_median(t, (size_t)runs),
		               "all files written and checked");
}

/* Seconds one run of 'argv' takes as a whole process, its stdout thrown
 * away; a negative number when it cannot be started. */
static double bench_spawn(char *const *argv)
{
	pid_t pid;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	double t0 = bench_now();
	int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, NULL);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0)
		return -1;
	int st;
	waitpid(pid, &st, 0);
	return bench_now() - t0;
}

/* A command that does nothing: what every run pays to start. */
static void bench_startup(const char *cubegen)
{
	double t[21];
	int runs = 0;
	for (int k = 0; k < 21; k++) {
		char *argv[] = {(char *)cubegen, "--version", NULL};
		double s = bench_spawn(argv);
		if (s < 0)
			break;
		t[runs++] = s;
	}
	if (runs)
		bench_time_row("process start-up (cubegen --version)",
		               bench_median(t, (size_t)runs), "libgd linked from its archive");
}

/* batch over a range of seeds, per seed: generate's search without
 * files, and the process start-up spread over the range. */
static void bench_batch_command(const char *size, const char *seeds,
                                int nseeds, const char *band,
                                const char *cubegen)
{
	double t[5];
	int runs = 0;
	for (int k = 0; k < 5; k++) {
		char *argv[] = {(char *)cubegen, "batch", "--size", (char *)size,
		                "--seeds", (char *)seeds, band ? "--difficulty" : NULL,
		                (char *)band, NULL};
		double s = bench_spawn(argv);
		if (s < 0)
			break;
		t[runs++] = s / nseeds;
	}
	char what[80], note[64];
	snprintf(what, sizeof what, "batch, %s%s%s%s, per seed", strchr(size, 'x') ? "" : "N = ",
	         size, band ? " --difficulty " : "", band ? band : "");
	snprintf(note, sizeof note, "--seeds %s, whole command", seeds);
	if (runs)
		bench_time_row(what, bench_median(t, (size_t)runs), note);
}

/* Designs that BurrTools' disassembler spends its time on, public but
 * the last (tests/data/burr/, with BurrTools' own times in SOURCE.md). */
static const struct {
	const char *file, *what;
} burr[] = {
	{"eyckmans.gargamel.xmpuzzle", "Gargamel (Eyckmans), 62"},
	{"eyckmans.rhinoceros.xmpuzzle", "Rhinoceros (Eyckmans), 31"},
	{"greyhound-eyckmans.xmpuzzle", "Greyhound (Eyckmans), 32"},
	{"lohe.key-trap.xmpuzzle", "Key Trap (Lohe), 26"},
	{"chocolate-dip-cutler.xmpuzzle", "Chocolate Dip (Cutler), 13"},
	{"frames-burr-data.xmpuzzle", "three frames and sticks, 12"},
	{"SolidSixPieceBurrs.xmpuzzle", "SolidSixPieceBurrs (ranges), 1"},
	/* not public: a random six-piece burr of 2,289 quick assemblies */
	{"random-burr-8.xmpuzzle", "random six-piece burr, 5"},
};

/* The disassembler's rows (solver/disasm.h), on BurrTools' examples and
 * public designs (tests/data/burr/SOURCE.md has BurrTools' times). */
static void bench_disassembler(void)
{
	bench_disassemble("examples/PelikanBurr.xmpuzzle",
	                  "solve --disassemble: Pelikan's burr, 98", 5);
	bench_disassemble("examples/CubeInCage.xmpuzzle",
	                  "solve --disassemble: cube in a cage, 4", 5);
	bench_disassemble("tests/data/burrtools/DraculasDentalDesaster.xmpuzzle",
	                  "solve --disassemble: Dracula's dental disaster", 5);
	bench_disassemble("tests/data/burrtools/AlPackino.xmpuzzle",
	                  "solve --disassemble: Al Packino (box and lid)", 5);
	bench_disassemble("examples/soma.puz",
	                  "solve --disassemble: Soma cube", 5);
	for (size_t i = 0; i < sizeof burr / sizeof burr[0]; i++) {
		char path[160], label[80];
		snprintf(path, sizeof path, "tests/data/burr/%s", burr[i].file);
		snprintf(label, sizeof label, "solve --disassemble: %s",
		         burr[i].what);
		bench_disassemble(path, label, 5);
	}
}

/* Block puzzles (gen/blocks.h), in-process on one core: per seed
 * 1..seeds the time to find one puzzle, median and P99 (the slowest
 * but one in a hundred), with the attempts and uniqueness proofs it took
 * on average; seeds with no puzzle within max_attempts are counted. */
static void bench_blocks(const int dim[3], int pmin, int pmax, int cmin,
                         int cmax, int level, uint64_t max_attempts, int seeds,
                         const char *what)
{
	struct grid goal;
	if (puz_grid_init(&goal, dim[0], dim[1], dim[2]) != PUZ_OK)
		return;
	memset(goal.cells, PUZ_CELL, (size_t)dim[0] * dim[1] * dim[2]);
	struct blk_spec s = {.pieces_min = pmin, .pieces_max = pmax,
	                     .cells_min = cmin, .cells_max = cmax,
	                     .max_attempts = max_attempts, .level_min = level};
	double *t = malloc((size_t)seeds * sizeof *t);
	double *nodes = malloc((size_t)seeds * sizeof *nodes);
	uint64_t attempts = 0, proofs = 0, repeats = 0, open = 0, sets = 0,
	         sets_open = 0;
	int found = 0;
	bool exhaustive = false;
	for (int i = 0; t && nodes && i < seeds; i++) {
		struct rng r;
		rng_seed(&r, (uint64_t)i + 1);
		struct blk_puzzle b;
		struct blk_found f;
		double t0 = bench_now();
		if (blk_find(&r, &goal, &s, &b, &f) != GEN_OK)
			break;
		t[i] = bench_now() - t0;
		nodes[i] = (double)f.nodes;
		attempts += f.attempts;
		proofs += f.solver_calls;
		repeats += f.repeats;
		open += f.scouts_open;
		exhaustive = f.exhaustive;
		sets = f.sets;
		sets_open += f.sets_open;
		if (f.found) {
			found++;
			blk_puzzle_clear(&b);
		}
	}
	if (t && nodes) {
		char label[120], note[120];
		snprintf(label, sizeof label, "%s, median", what);
		qsort(t, (size_t)seeds, sizeof *t, cmp_double);
		qsort(nodes, (size_t)seeds, sizeof *nodes, cmp_double);
		if (exhaustive) /* blocks.h: every set solved, in seed order */
			snprintf(note, sizeof note, found ? "%d of %d seeds; %.0f of %"
			         PRIu64 " sets solved to a puzzle" : "%d of %d seeds; "
			         "%.0f of %" PRIu64 " sets solved: %s", found, seeds,
			         (double)attempts / seeds, sets, sets_open
			         ? "some undecided" : "none exists");
		else
			snprintf(note, sizeof note, "%d of %d seeds; %.0f attempts, "
			         "%.0f proofs (+%.1f again, %.1f open)", found, seeds,
			         (double)attempts / seeds, (double)proofs / seeds,
			         (double)repeats / seeds, (double)open / seeds);
		bench_time_row(label, seeds % 2 ? t[seeds / 2]
		                                : (t[seeds / 2 - 1] + t[seeds / 2]) / 2,
		               note);
		/* the proofs' nodes do not wander with the machine's speed */
		snprintf(label, sizeof label, "%s, P99", what);
		snprintf(note, sizeof note, "proof nodes: median %.0f, P99 %.0f",
		         nodes[seeds / 2], nodes[(size_t)((seeds - 1) * 0.99)]);
		bench_time_row(label, t[(size_t)((seeds - 1) * 0.99)], note);
	}
	free(t);
	free(nodes);
	puz_grid_clear(&goal);
}

/* A random dissection of the X x Y x Z box into k face-connected pieces
 * grown from k random cells (piece[c] for cell c in grid order). */
static void random_dissection(struct rng *r, const int dim[3], int k, int *piece)
{
	int n = dim[0] * dim[1] * dim[2];
	for (int c = 0; c < n; c++)
		piece[c] = -1;
	for (int i = 0; i < k; i++) {
		int c;
		do
			c = (int)rng_below(r, (uint64_t)n);
		while (piece[c] >= 0);
		piece[c] = i;
	}
	for (int left = n - k; left > 0;) {
		int c = (int)rng_below(r, (uint64_t)n);
		if (piece[c] >= 0)
			continue;
		int p[3] = {c % dim[0], c / dim[0] % dim[1], c / (dim[0] * dim[1])};
		int cand[6], nc = 0;
		for (int d = 0; d < 6; d++) {
			int q[3] = {p[0], p[1], p[2]};
			q[d / 2] += d % 2 ? -1 : 1;
			if (q[d / 2] < 0 || q[d / 2] >= dim[d / 2])
				continue;
			int e = piece[q[0] + dim[0] * (q[1] + dim[1] * q[2])];
			if (e >= 0)
				cand[nc++] = e;
		}
		if (nc) {
			piece[c] = cand[rng_below(r, (uint64_t)nc)];
			left--;
		}
	}
}

/* Proving random dissections unique (issue 32's rows): per dissection,
 * solve_puzzle() with at most two solutions (what `check` runs) and the
 * block generator's prover (prove.h, a new one each time, set-up
 * included), median and P90 over 'count' dissections, with the share
 * that is unique and the proofs cut short by 'budget' nodes; with 'dlx',
 * the check on dancing links too (the engine before the wide board). */
static void bench_dissections(const int dim[3], int kmin, int kmax, int count,
                              uint64_t budget, bool dlx, const char *what)
{
	int n = dim[0] * dim[1] * dim[2];
	struct grid goal;
	if (puz_grid_init(&goal, dim[0], dim[1], dim[2]) != PUZ_OK)
		return;
	memset(goal.cells, PUZ_CELL, (size_t)n);
	double *ts = malloc((size_t)count * sizeof *ts);
	double *tp = malloc((size_t)count * sizeof *tp);
	double *tx = malloc((size_t)count * sizeof *tx);
	int *piece = malloc((size_t)n * sizeof *piece);
	int unique = 0, done = 0, cut = 0;
	uint64_t nodes = 0;
	struct rng r;
	rng_seed(&r, 32);
	for (int t = 0; ts && tp && tx && piece && t < count; t++) {
		int k = kmin + (int)rng_below(&r, (uint64_t)(kmax - kmin + 1));
		random_dissection(&r, dim, k, piece);
		struct puzzle p = {0};
		if (puz_grid_init(&p.goal, dim[0], dim[1], dim[2]) != PUZ_OK ||
		    !(p.pieces = calloc((size_t)k, sizeof *p.pieces))) {
			puz_clear(&p);
			break;
		}
		memset(p.goal.cells, PUZ_CELL, (size_t)n);
		p.npieces = (size_t)k;
		bool ok = true;
		for (int i = 0; i < k && ok; i++) {
			snprintf(p.pieces[i].name, sizeof p.pieces[i].name, "%d", i + 1);
			p.pieces[i].count = 1;
			ok = puz_grid_init(&p.pieces[i].shape, dim[0], dim[1], dim[2]) ==
			     PUZ_OK;
			for (int c = 0; c < n && ok; c++)
				p.pieces[i].shape.cells[c] = piece[c] == i ? PUZ_CELL : 0;
		}
		struct solve_opts o = {.max_solutions = 2, .max_nodes = budget};
		struct solve_result sr;
		double t0 = bench_now();
		if (!ok || solve_puzzle(&p, &o, &sr) != SOLVE_OK) {
			puz_clear(&p);
			break;
		}
		ts[t] = bench_now() - t0;
		unique += sr.complete && sr.solutions == 1;
		cut += sr.stop == SOLVE_MAX_NODES;
		nodes += sr.nodes;
		solve_result_clear(&sr);
		if (dlx) {
			o.engine = SOLVE_DLX;
			t0 = bench_now();
			if (solve_puzzle(&p, &o, &sr) != SOLVE_OK) {
				puz_clear(&p);
				break;
			}
			tx[t] = bench_now() - t0;
			solve_result_clear(&sr);
		}
		puz_clear(&p);
		t0 = bench_now();
		prove *pv = prove_new(&goal);
		struct prove_result pr;
		if (!pv || prove_count(pv, piece, k, 2, budget, &pr) !=
		               PROVE_OK) {
			prove_free(pv);
			break;
		}
		prove_free(pv);
		tp[t] = bench_now() - t0;
		done++;
	}
	if (done == count) {
		char label[120], note[120];
		snprintf(label, sizeof label, "%s: check, median", what);
		snprintf(note, sizeof note, "%d of %d unique, %d cut short; %.0f nodes "
		         "mean", unique, count, cut, (double)nodes / count);
		qsort(ts, (size_t)count, sizeof *ts, cmp_double);
		qsort(tp, (size_t)count, sizeof *tp, cmp_double);
		bench_time_row(label, bench_median(ts, (size_t)count), note);
		snprintf(label, sizeof label, "%s: check, P90", what);
		bench_time_row(label, ts[(size_t)((count - 1) * 0.9)], "");
		if (dlx) {
			qsort(tx, (size_t)count, sizeof *tx, cmp_double);
			snprintf(label, sizeof label, "%s: dancing links, median",
			         what);
			bench_time_row(label, bench_median(tx, (size_t)count),
			               "the same check on dancing links");
		}
		snprintf(label, sizeof label, "%s: prover, median", what);
		bench_time_row(label, bench_median(tp, (size_t)count),
		               "prove.h, set-up included");
		snprintf(label, sizeof label, "%s: prover, P90", what);
		bench_time_row(label, tp[(size_t)((count - 1) * 0.9)], "");
	}
	free(ts);
	free(tp);
	free(tx);
	free(piece);
	puz_grid_clear(&goal);
}

static void bench_block_puzzles(void)
{
	bench_blocks((const int[3]){3, 3, 3}, 6, 6, 4, 5, 1, 1000, 100,
	             "blocks: 3x3x3, 6 pieces of 4-5 cells");
	bench_blocks((const int[3]){4, 4, 4}, 8, 10, 4, 8, 1, 1000, 100,
	             "blocks: 4x4x4, 8-10 pieces of 4-8 (default)");
	bench_blocks((const int[3]){4, 4, 4}, 8, 12, 4, 8, 1, 1000, 100,
	             "blocks: 4x4x4, 8-12 pieces of 4-8 cells");
	bench_blocks((const int[3]){4, 4, 4}, 11, 12, 4, 6, 1, 1000, 20,
	             "blocks: 4x4x4, 11-12 pieces of 4-6 cells");
	bench_blocks((const int[3]){5, 5, 5}, 8, 10, 4, 16, 1, 1000, 50,
	             "blocks: 5x5x5, 8-10 pieces of 4-16 (default)");
	bench_blocks((const int[3]){6, 6, 6}, 8, 10, 4, 27, 1, 1000, 20,
	             "blocks: 6x6x6, 8-10 pieces of 4-27 (default)");
	/* the grown route (a second or two a seed; 40 seeds, so that the
	 * tail shows) */
	bench_blocks((const int[3]){5, 5, 5}, 16, 20, 6, 8, 1, 1000, 40,
	             "blocks: 5x5x5, 16-20 pieces of 6-8 (grown)");
	/* the moonshot: the drawn route, seed 1 (tens of seconds) */
	bench_blocks((const int[3]){4, 4, 4}, 13, 13, 4, 6, 1, 100000, 1,
	             "blocks: 4x4x4, 13 pieces of 4-6 (Bedlam's sizes)");
	bench_blocks((const int[3]){3, 3, 3}, 7, 7, 3, 4, 1, 1000, 3,
	             "blocks: 3x3x3, Soma's sizes (exhaustive)");
	bench_blocks((const int[3]){3, 3, 3}, 7, 7, 3, 5, 1, 1000, 20,
	             "blocks: 3x3x3, 7 pieces of 3-5 (exhaustive)");
	bench_blocks((const int[3]){4, 4, 4}, 4, 4, 4, 16, 6, 1000, 20,
	             "blocks: 4x4x4, --level 6, 4 pieces");
	bench_blocks((const int[3]){4, 4, 4}, 8, 10, 4, 12, 2, 1000, 20,
	             "blocks: 4x4x4, --level 2, 8-10 pieces");
}

/* The search for hard and expert plate puzzles (gen_climb through
 * gen_find, as generate runs it): per seed, one core. */
static void bench_climb(const int dim[3], enum gen_band band, int seeds)
{
	struct gen_bands b;
	if (gen_bands(dim, &b) != GEN_OK)
		return;
	double *t = malloc((size_t)seeds * sizeof *t);
	double *a = malloc((size_t)seeds * sizeof *a);
	double *d = malloc((size_t)seeds * sizeof *d);
	int found = 0;
	for (int i = 0; i < seeds; i++) {
		struct rng r;
		rng_seed(&r, (uint64_t)i + 1);
		struct gen_puzzle g = {0};
		struct gen_found f = {0};
		double t0 = bench_now();
		if (gen_find(&r, dim, GEN_CLIMB_ATTEMPTS, band, &b, &g, &f) != GEN_OK)
			f.found = false;
		t[i] = bench_now() - t0;
		a[i] = (double)f.attempts;
		d[i] = f.difficulty;
		found += f.found;
		gen_puzzle_clear(&g);
	}
	char what[80], sz[32], note[96], fig[32];
	size_name(dim, sz, sizeof sz);
	qsort(t, (size_t)seeds, sizeof *t, cmp_double);
	qsort(a, (size_t)seeds, sizeof *a, cmp_double);
	qsort(d, (size_t)seeds, sizeof *d, cmp_double);
	int p90 = (9 * seeds + 9) / 10 - 1;
	snprintf(note, sizeof note, "seeds 1..%d, %d found; >= %.2f", seeds,
	         found, band == GEN_BAND_HARD ? b.pro_min : b.expert_min);
	snprintf(what, sizeof what, "climb to %s, %s: median", gen_band_name(band), sz);
	bench_time_row(what, bench_median(t, (size_t)seeds), note);
	snprintf(what, sizeof what, "climb to %s, %s: P90", gen_band_name(band), sz);
	bench_time_row(what, t[p90], "");
	snprintf(what, sizeof what, "climb to %s, %s: attempts median / P90",
	         gen_band_name(band), sz);
	snprintf(fig, sizeof fig, "%.0f / %.0f", a[(seeds - 1) / 2], a[p90]);
	bench_row(what, fig, "uniqueness checks (+ scores)");
	snprintf(what, sizeof what, "climb to %s, %s: score median", gen_band_name(band), sz);
	snprintf(fig, sizeof fig, "%.2f", d[(seeds - 1) / 2]);
	bench_row(what, fig, "of the puzzles found");
	free(t);
	free(a);
	free(d);
}

static void bench_climbs(void)
{
	bench_climb((const int[3]){5, 5, 5}, GEN_BAND_HARD, 100);
	bench_climb((const int[3]){5, 5, 5}, GEN_BAND_EXPERT, 100);
	bench_climb((const int[3]){4, 4, 4}, GEN_BAND_EXPERT, 20);
	bench_climb((const int[3]){8, 8, 8}, GEN_BAND_EXPERT, 20);
	bench_climb((const int[3]){4, 5, 6}, GEN_BAND_EXPERT, 20);
}

/* Goals past 128 cells (the wide board, bbw.h, three to eight words)
 * beside dancing links, the engine they had before: BurrTools' designs
 * with optional cells, and random dissections proved unique. */
static void bench_wide(void)
{
	bench_solve_engine("tests/data/burr/greyhound-eyckmans.xmpuzzle",
	                   "solve: Greyhound (408 cells, 140 optional)", SOLVE_AUTO);
	bench_solve_engine("tests/data/burr/greyhound-eyckmans.xmpuzzle",
	                   "solve: Greyhound, dancing links", SOLVE_DLX);
	bench_solve_engine("tests/data/burr/eyckmans.gargamel.xmpuzzle",
	                   "solve: Gargamel (216 cells, 64 optional)", SOLVE_AUTO);
	bench_solve_engine("tests/data/burr/eyckmans.gargamel.xmpuzzle",
	                   "solve: Gargamel, dancing links", SOLVE_DLX);
	/* ranges of copies, every cell required (bbw_set_least) */
	bench_solve_engine("tests/data/burr/SolidSixPieceBurrs.xmpuzzle",
	                   "solve: SolidSixPieceBurrs (25 sticks, 0..6 each)",
	                   SOLVE_AUTO);
	bench_solve_engine("tests/data/burr/SolidSixPieceBurrs.xmpuzzle",
	                   "solve: SolidSixPieceBurrs, dancing links", SOLVE_DLX);
	bench_dissections((const int[3]){6, 6, 6}, 24, 28, 5, 200000, true,
	                  "6x6x6 cut into 24-28");
	/* past 512 cells: ten words */
	bench_solve_engine("tests/data/bench/box-600.puz",
	                   "solve: 600-cell box in 20 pieces (10 words)",
	                   SOLVE_AUTO);
	bench_solve_engine("tests/data/bench/box-600.puz",
	                   "solve: 600-cell box, dancing links", SOLVE_DLX);
}

/* The solver's counts on one core, each puzzle a row (quick: not the
 * ones of a second or more). */
static void bench_counts(bool quick)
{
	bench_solve("tests/data/classic/soma.puz", "solve: Soma cube, all solutions", 15);
	bench_solve("tests/data/classic/pentacubes-2x3x10.puz",
	            "solve: 12 pentacubes in 2x3x10", 5);
	bench_solve("tests/data/bench/pentacubes-2x5x6.puz",
	            "solve: 12 pentacubes in 2x5x6", 3);
	bench_solve("tests/data/classic/HC_BQ_001.puz", "solve: Happy Cube HC_BQ_001", 15);
	bench_solve("tests/data/classic/happycube-blue.puz",
	            "solve: Happy Cube blue (3 solutions)", 15);
	bench_solve("examples/ninecolour.puz",
	            "solve: nine-colour cube, all solutions", 15);
	bench_solve_with("examples/ninecolour.puz",
	                 "solve: nine-colour cube, --rename-colours", 15, true);
	if (!quick) {
		bench_solve("tests/data/bench/pentacubes-3x4x5.puz",
		            "solve: 12 pentacubes in 3x4x5", 1);
		bench_solve("tests/data/classic/bedlam.puz", "solve: Bedlam cube", 1);
		/* the wide board (bbw.h) beside bb.h and dancing links */
		bench_solve_engine("tests/data/bench/pentacubes-3x4x5.puz",
		                   "solve: 3x4x5 pentacubes, wide board", SOLVE_WIDE);
		bench_solve_engine("tests/data/classic/bedlam.puz",
		                   "solve: Bedlam cube, wide board", SOLVE_WIDE);
		bench_solve("tests/data/bench/pentacubes-2x5x7.puz",
		            "solve: 70-cell pentacube box (wide)", 1);
		bench_solve_engine("tests/data/bench/pentacubes-2x5x7.puz",
		                   "solve: 70-cell pentacube box, dancing links",
		                   SOLVE_DLX);
		/* issue 32's yardsticks: a big count on 64 cells, and many
		 * identical pieces on 125 */
		bench_solve("tests/data/bench/tetris-cube.puz",
		            "solve: Tetris cube", 1);
		bench_solve("tests/data/bench/y-pentacubes-5x5x5.puz",
		            "solve: 25 Y-pentacubes in 5x5x5", 1);
	}
}

/* Counts on one core and on all of them, side by side. */
static void bench_counts_threads(bool quick)
{
	bench_solve_threads("tests/data/bench/pentacubes-2x5x6.puz",
	                    "solve: 2x5x6 pentacubes", 3, 2);
	/* a small tree of long lists: split in one round (tasks.c) */
	bench_solve("tests/data/bench/blocks-6x6x6.puz",
	            "solve: 6x6x6 cut into 15, one plain search", 5);
	bench_solve_threads("tests/data/bench/blocks-6x6x6.puz",
	                    "solve: 6x6x6 cut into 15", 5, 2);
	if (!quick) {
		bench_solve_threads("tests/data/bench/pentacubes-3x4x5.puz",
		                    "solve: 3x4x5 pentacubes", 1, 2);
		bench_solve_threads("tests/data/classic/bedlam.puz",
		                    "solve: Bedlam cube", 1, 2);
		bench_solve_threads("tests/data/bench/pentacubes-2x5x7.puz",
		                    "solve: 70-cell pentacube box (wide)", 1, 2);
	}
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	/* --disassemble: the disassembler's rows alone */
	bool dis_only = argc > 1 && strcmp(argv[1], "--disassemble") == 0;
	/* --climb: the hard and expert search's rows alone */
	bool climb_only = argc > 1 && strcmp(argv[1], "--climb") == 0;
	/* --proofs: the rows of random dissections proved unique alone */
	bool proofs_only = argc > 1 && strcmp(argv[1], "--proofs") == 0;
	/* --wide: the rows of goals past 128 cells alone */
	bool wide_only = argc > 1 && strcmp(argv[1], "--wide") == 0;
	/* --blocks: the block generator's rows alone */
	bool blocks_only = argc > 1 && strcmp(argv[1], "--blocks") == 0;
	/* --solve: the counts alone (tools/bench-compare.sh's default) */
	bool solve_only = argc > 1 && strcmp(argv[1], "--solve") == 0;
	if (argc > 2 || (argc == 2 && !quick && !dis_only && !climb_only &&
	                 !proofs_only && !wide_only && !blocks_only &&
	                 !solve_only)) {
		fprintf(stderr, "usage: bench [--quick | --solve | --disassemble | "
		                "--climb | --proofs | --wide | --blocks]\n");
		return 2;
	}
	printf("cubegen bench: %ld cores online; medians of repeated runs; "
	       "list passes on %s\n\n", sysconf(_SC_NPROCESSORS_ONLN),
	       bench_kernels());
	printf("| %-50s | %18s | %-36s |\n", "what", "figure", "note");
	printf("|%s|%s|%s|\n", "----------------------------------------------------",
	       "--------------------", "--------------------------------------");
	if (dis_only) {
		bench_disassembler();
		return 0;
	}
	if (blocks_only) {
		bench_block_puzzles();
		return 0;
	}
	if (wide_only) {
		bench_wide();
		return 0;
	}
	if (proofs_only) {
		bench_dissections((const int[3]){4, 4, 4}, 10, 13, 100, 0, false,
		                  "4x4x4 cut into 10-13");
		bench_dissections((const int[3]){5, 5, 5}, 19, 21, 10, 2000000, false,
		                  "5x5x5 cut into 19-21");
		return 0;
	}
	if (climb_only) {
		bench_climbs();
		return 0;
	}
	if (solve_only) {
		bench_counts(false);
		bench_counts_threads(false);
		return 0;
	}
	bench_rng();
	bench_generate_candidates();
	bench_check((const int[3]){3, 3, 3}, 201, false);
	bench_check((const int[3]){5, 5, 5}, 1001, false);
	bench_check((const int[3]){5, 5, 5}, 201, true);
	bench_check((const int[3]){8, 8, 8}, 501, false);
	bench_check((const int[3]){12, 12, 12}, 501, false);
	bench_check((const int[3]){20, 20, 20}, 201, false);
	bench_check((const int[3]){4, 5, 6}, 1001, false);
	bench_check((const int[3]){3, 3, 64}, 101, false);
	bench_check((const int[3]){64, 64, 64}, 21, false);
	for (int n = 3; n <= 10; n++)
		bench_unique_share((const int[3]){n, n, n}, n <= 5 ? 4000 : 1000);
	static const int boxes[][3] = {
		{3, 3, 4}, {3, 4, 5}, {4, 4, 6}, {4, 5, 6}, {3, 5, 7}, {5, 6, 8},
		{3, 3, 10}, {4, 4, 10},
	};
	for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++)
		bench_unique_share(boxes[b], 2000);
	bench_counts(quick);
	bench_wide();
	bench_dissections((const int[3]){4, 4, 4}, 10, 13, 100, 0, false,
	                  "4x4x4 cut into 10-13");
	if (!quick)
		bench_dissections((const int[3]){5, 5, 5}, 19, 21, 10, 2000000, false,
		                  "5x5x5 cut into 19-21");
	bench_counts_threads(quick);
	bench_disassembler();
	bench_difficulty((const int[3]){5, 5, 5}, 1000);
	bench_difficulty((const int[3]){8, 8, 8}, 200);
	bench_difficulty((const int[3]){4, 5, 6}, 200);
	bench_commercial();
	bench_climbs();
	bench_difficulty_file("tests/data/classic/soma.puz", "difficulty: Soma cube");
	bench_difficulty_file("tests/data/classic/pentacubes-2x3x10.puz",
	                      "difficulty: 12 pentacubes in 2x3x10");
	bench_difficulty_file("tests/data/bench/box-600.puz",
	                      "difficulty: 600-cell box, 20 pieces");
	bench_mesh(5);
	bench_mesh(20);
	bench_labels_3mf(5);
	bench_pictures(5);
	bench_pictures(20);
	bench_block_puzzles();
	bench_generate_command("5", NULL, NULL, "build-bench/cubegen");
	bench_generate_command("5", "--no-labels", NULL, "build-bench/cubegen");
	bench_generate_command("5", "--difficulty", "hard", "build-bench/cubegen");
	bench_generate_command("4x5x6", "--difficulty", "hard", "build-bench/cubegen");
	bench_generate_command("20", NULL, NULL, "build-bench/cubegen");
	bench_generate_command("4x5x6", NULL, NULL, "build-bench/cubegen");
	bench_generate_command("3x3x64", NULL, NULL, "build-bench/cubegen");
	bench_generate_command("64", NULL, NULL, "build-bench/cubegen");
	bench_startup("build-bench/cubegen");
	bench_batch_command("5", "1..1000", 1000, NULL, "build-bench/cubegen");
	bench_batch_command("5", "1..200", 200, "hard", "build-bench/cubegen");
	bench_batch_command("20", "1..100", 100, NULL, "build-bench/cubegen");
	return 0;
}
