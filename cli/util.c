/*
 * util.c: argument parsing, error lines, reading puzzles, and the output
 * folder that is never seen half-written.
 *
 * Output folders: everything is written into ".NAME.tmp-XXXXXX" beside
 * the target, each file synced, then the folder is renamed onto NAME. The
 * syncs wait for the commit: as each file is closed its writeback is only
 * started (sync_file_range on Linux), and outdir_commit() then fsyncs
 * them all, by when most of the data is on its way, so one journal commit
 * and one disk flush serve every file instead of one each (generate
 * writes twenty files; each fsync alone cost 1 to 5 ms of waiting). With
 * --force the new folder and an existing NAME swap names in one step
 * (renameat2's RENAME_EXCHANGE), and only then is the old one removed: a
 * crash at any moment leaves either the old or the new folder under NAME,
 * plus at most a hidden leftover beside it. Where the file system cannot
 * swap, NAME is first renamed to ".NAME.old-XXXXXX" and the new folder
 * takes its place, which leaves a moment with no NAME (tests/crash.sh
 * found it: one kill in a few hundred).
 */
#define _GNU_SOURCE /* sync_file_range() */
#include "cli/cli.h"
#include "gen/gen.h"
#include "solver/solve.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double cli_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

unsigned cli_cores(unsigned max)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > (long)max ? max : (unsigned)n;
}

bool cli_status_due(struct cli_status *s, double *elapsed)
{
	double t = cli_now();
	*elapsed = t - s->t0;
	if (*elapsed < s->after || t - s->last < s->every)
		return false;
	s->last = t;
	return true;
}

void cli_status_show(struct cli_status *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputc('\r', stderr);
	int n = vfprintf(stderr, fmt, ap);
	va_end(ap);
	/* blank what a longer line before left */
	if (n >= 0 && n < s->width)
		fprintf(stderr, "%*s", s->width - n, "");
	if (n > s->width)
		s->width = n;
	fflush(stderr);
}

void cli_status_end(struct cli_status *s)
{
	if (s->width)
		fprintf(stderr, "\r%*s\r", s->width, "");
	s->width = 0;
}

void cli_progress_show(void *ctx, const struct solve_progress *pr)
{
	struct cli_progress *pg = ctx;
	double el;
	if (!cli_status_due(&pg->line, &el))
		return;
	double share = pr->tasks ? (double)pr->tasks_done / (double)pr->tasks : 0;
	char left[48] = "";
	if (pr->tasks_done)
		snprintf(left, sizeof left, ", about %.0f s left",
		         el * (1 - share) / share);
	cli_status_show(&pg->line, "%s: %.1f %% of %llu tasks, %llu solutions "
	                "so far, %.1f s%s", pg->what, 100 * share,
	                (unsigned long long)pr->tasks,
	                (unsigned long long)pr->solutions, el, left);
}

bool cli_progress_begin(struct cli_progress *pg, const char *what, bool show)
{
	*pg = (struct cli_progress){
		.line = {.t0 = cli_now(), .after = 1.0, .every = 0.25},
		.what = what};
	return show && isatty(STDERR_FILENO);
}

void cli_progress_on(struct cli_progress *pg, const char *what, bool show,
                     struct solve_opts *o)
{
	/* a search under a node budget runs as tasks whether the line is
	 * shown or not: tasks spend their nodes in another order than one
	 * plain search, and the budget must run out at the same place on a
	 * terminal as in a pipe */
	if (o->max_nodes && !o->threads)
		o->threads = 1;
	if (cli_progress_begin(pg, what, show)) {
		o->progress = cli_progress_show;
		o->progress_ctx = pg;
		/* a plain search (threads 0) reports nothing; split into
		 * tasks on one thread it finds the same, in the same order,
		 * for a little more work, paid only where it is shown */
		if (!o->threads)
			o->threads = 1;
	}
}

void cli_progress_end(struct cli_progress *pg)
{
	cli_status_end(&pg->line);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("cubegen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static bool opt_match(struct cli_args *a, const char *name, const char **eq)
{
	const char *arg = a->argv[a->i];
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0)
		return false;
	if (arg[n] == '\0') {
		*eq = NULL;
		return true;
	}
	if (arg[n] == '=') {
		*eq = arg + n + 1;
		return true;
	}
	return false;
}

bool cli_opt_value(struct cli_args *a, const char *name)
{
	const char *eq;
	if (a->i >= a->argc || !opt_match(a, name, &eq))
		return false;
	if (eq) {
		a->value = eq;
		a->i++;
		return true;
	}
	if (a->i + 1 >= a->argc) {
		cli_error("%s needs a value", name);
		a->bad = true;
		a->i++;
		return true;
	}
	a->value = a->argv[a->i + 1];
	a->i += 2;
	return true;
}

bool cli_opt_flag(struct cli_args *a, const char *name)
{
	if (a->i >= a->argc || strcmp(a->argv[a->i], name) != 0)
		return false;
	a->i++;
	return true;
}

bool cli_parse_u64(const char *what, const char *s, uint64_t lo, uint64_t hi,
                   uint64_t *out)
{
	uint64_t v = 0;
	bool ok = *s != '\0';
	for (const char *p = s; *p && ok; p++) {
		if (*p < '0' || *p > '9' || v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			ok = false;
		else
			v = v * 10 + (uint64_t)(*p - '0');
	}
	if (!ok || v < lo || v > hi) {
		cli_error("%s: expected a whole number from %llu to %llu, got '%s'",
		          what, (unsigned long long)lo, (unsigned long long)hi, s);
		return false;
	}
	*out = v;
	return true;
}

bool cli_parse_double(const char *what, const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno || v != v || v > 1e6 || v < -1e6) {
		cli_error("%s: expected a number in millimetres, got '%s'", what, s);
		return false;
	}
	*out = v;
	return true;
}

void cli_default_out(const char *prefix, const char *file, uint64_t problem,
                     char *buf, size_t len)
{
	const char *base = strrchr(file, '/');
	base = base ? base + 1 : file;
	size_t n = strlen(base);
	static const char *const ext[] = {".xmpuzzle", ".puz", ".hcq"};
	bool cut = false;
	for (size_t i = 0; i < sizeof ext / sizeof ext[0] && !cut; i++) {
		size_t k = strlen(ext[i]);
		if (n > k && strcmp(base + n - k, ext[i]) == 0) {
			n -= k;
			cut = true;
		}
	}
	const char *dot = strrchr(base, '.');
	if (!cut && dot && dot > base)
		n = (size_t)(dot - base);
	/* generate's puzzle.puz: named by its folder (out/cube5-42) */
	if (strcmp(base, "puzzle.puz") == 0 && base > file) {
		const char *end = base - 1, *start;
		while (end > file && end[-1] == '/') /* a//puzzle.puz */
			end--;
		start = end;
		while (start > file && start[-1] != '/')
			start--;
		size_t m = (size_t)(end - start);
		if (m && !(m == 1 && start[0] == '.') &&
		    !(m == 2 && start[0] == '.' && start[1] == '.')) {
			base = start;
			n = m;
		}
	}
	if (problem >= 2)
		snprintf(buf, len, "out/%s-%.*s-problem%llu", prefix, (int)n, base,
		         (unsigned long long)problem);
	else
		snprintf(buf, len, "out/%s-%.*s", prefix, (int)n, base);
}

void cli_generate_out(const char *kind, const char *size, uint64_t seed,
                      int band, char *buf, size_t len)
{
	bool banded = band != GEN_BAND_ANY;
	snprintf(buf, len, "out/%s%s-%llu%s%s", kind, size,
	         (unsigned long long)seed, banded ? "-" : "",
	         banded ? gen_band_name((enum gen_band)band) : "");
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int cli_read_puzzle(const char *path, struct puzzle *out)
{
	return cli_read_puzzle_at(path, 0, out, NULL);
}

static int read_puzzle(const char *path, uint64_t problem, bool goal_only,
                       struct puzzle *out, struct xmp_info *xi)
{
	struct puz_error e;
	struct xmp_info dummy;
	bool xm = ends_with(path, ".xmpuzzle");
	if (!xi)
		xi = &dummy;
	memset(xi, 0, sizeof *xi);
	if (problem && !xm) {
		cli_error("--problem: %s is not a BurrTools file (.xmpuzzle)", path);
		return CLI_USAGE;
	}
	int rc = xm ? xmp_read_file(path, problem ? (size_t)problem - 1 : 0, out,
	                            xi, &e)
	       : ends_with(path, ".hcq") ? hcq_read_file(path, out, &e)
	       : goal_only ? puz_read_goal_file(path, out, &e)
	                   : puz_read_file(path, out, &e);
	if (rc == PUZ_OK)
		return CLI_OK;
	if (rc == PUZ_ENOMEM) {
		cli_error("%s: out of memory", path);
		return CLI_FAIL;
	}
	if (e.line > 0)
		cli_error("%s:%d:%d: %s", path, e.line, e.col, e.msg);
	else
		cli_error("%s: %s", path, e.msg);
	return CLI_USAGE;
}

int cli_read_puzzle_at(const char *path, uint64_t problem, struct puzzle *out,
                       struct xmp_info *xi)
{
	return read_puzzle(path, problem, false, out, xi);
}

int cli_read_puzzle_dis(const char *path, uint64_t problem, bool disassemble,
                        struct puzzle *out, struct xmp_info *xi)
{
	struct xmp_info local;
	if (!xi)
		xi = &local;
	int rc = read_puzzle(path, problem, false, out, xi);
	if (rc != CLI_OK || !disassemble || !xi->groups_split)
		return rc;
	cli_error("%s: --disassemble: %s; cubegen takes each piece in one "
	          "group or none", path, xi->groups_why);
	puz_clear(out);
	return CLI_USAGE;
}

int cli_read_goal(const char *path, struct puzzle *out)
{
	return read_puzzle(path, 0, true, out, NULL);
}

/* ---- output folders ----------------------------------------------------- */

static bool split_path(const char *path, char *dir, char *base, size_t len)
{
	char tmp[PATH_MAX];
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	if (n == 0 || n >= sizeof tmp)
		return false;
	memcpy(tmp, path, n);
	tmp[n] = '\0';
	char *slash = strrchr(tmp, '/');
	const char *b = slash ? slash + 1 : tmp;
	if (!*b || strcmp(b, ".") == 0 || strcmp(b, "..") == 0)
		return false;
	if (slash == tmp)
		snprintf(dir, len, "/");
	else if (slash) {
		*slash = '\0';
		snprintf(dir, len, "%s", tmp);
	} else
		snprintf(dir, len, ".");
	snprintf(base, len, "%s", b);
	return true;
}

long long cli_input_size(const char *prefix, const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		cli_error("%s%s: %s", prefix, path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		cli_error("%s%s: is a folder", prefix, path);
		return -1;
	}
	return S_ISREG(st.st_mode) ? (long long)st.st_size : CLI_SIZE_UNKNOWN;
}

bool cli_folder_name_ok(const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX];
	return split_path(path, dir, base, sizeof dir);
}

int cli_dirlen(const char *path)
{
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	return n > INT_MAX ? INT_MAX : (int)n;
}

/* Remove 'path' and everything below it, never following links. */
static int remove_tree(const char *path)
{
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int rc = 0;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char sub[PATH_MAX];
		if ((size_t)snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) >= sizeof sub)
			rc = -1;
		else if (remove_tree(sub) != 0)
			rc = -1;
	}
	closedir(d);
	return rmdir(path) == 0 ? rc : -1;
}

/* The cells of grid g reached face to face from its first cell. */
static size_t reached(const struct grid *g, size_t *queue)
{
	size_t n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz, first = 0;
	while (first < n && !g->cells[first])
		first++;
	if (first == n)
		return 0;
	unsigned char *seen = (unsigned char *)(queue + n);
	memset(seen, 0, n);
	size_t head = 0, tail = 0;
	queue[tail++] = first;
	seen[first] = 1;
	const size_t step[3] = {1, (size_t)g->nx, (size_t)g->nx * (size_t)g->ny};
	const int dim[3] = {g->nx, g->ny, g->nz};
	while (head < tail) {
		size_t c = queue[head++];
		int at[3] = {(int)(c % step[1]), (int)(c / step[1] % (size_t)g->ny),
		             (int)(c / step[2])};
		for (int a = 0; a < 3; a++)
			for (int s = -1; s <= 1; s += 2) {
				int v = at[a] + s;
				if (v < 0 || v >= dim[a])
					continue;
				size_t d = s < 0 ? c - step[a] : c + step[a];
				if (g->cells[d] && !seen[d]) {
					seen[d] = 1;
					queue[tail++] = d;
				}
			}
	}
	return tail;
}

int cli_pieces_solid(const char *file, const struct puzzle *p)
{
	for (size_t i = 0; i < p->npieces; i++) {
		const struct grid *g = &p->pieces[i].shape;
		size_t n = (size_t)g->nx * (size_t)g->ny * (size_t)g->nz, cells = 0;
		for (size_t c = 0; c < n; c++)
			cells += g->cells[c] != 0;
		size_t *queue = malloc(n * (sizeof *queue + 1));
		if (!queue) {
			cli_error("%s: out of memory", file);
			return CLI_FAIL;
		}
		size_t got = reached(g, queue);
		free(queue);
		if (got != cells) {
			cli_error("%s: piece %s is not one solid (its cells are not "
			          "all joined face to face), so it cannot be printed "
			          "or drawn", file, p->pieces[i].name);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

/* Whether file 'name' in folder 'path' starts with 'head'. */
static bool starts_with(const char *path, const char *name, const char *head)
{
	char f[PATH_MAX], got[64];
	size_t n = strlen(head);
	assert(n < sizeof got);
	if ((size_t)snprintf(f, sizeof f, "%s/%s", path, name) >= sizeof f)
		return false;
	FILE *fp = fopen(f, "r");
	if (!fp)
		return false;
	bool same = fread(got, 1, n, fp) == n && memcmp(got, head, n) == 0;
	fclose(fp);
	return same;
}

/* Whether 'name' is a file cubegen writes into an output folder
 * (generate, render, print, coupon). */
static bool ours(const char *name)
{
	static const char *const fixed[] = {
		"coupon.3mf",  "coupon.stl",      "coupon.txt",    "pieces.html",
		"pieces.png",  "pieces.txt",      "plate.3mf",     "plate.stl",
		"preview.png", "puzzle.puz",      "puzzle.scad",   "puzzle.xmpuzzle",
		"solution.html", "solution.png", "solution.txt",
	};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strcmp(name, fixed[i]) == 0)
			return true;
	/* piece-N.stl, piece-N.scad, coupon-N.scad */
	const char *p = strncmp(name, "piece-", 6) == 0    ? name + 6
	                : strncmp(name, "coupon-", 7) == 0 ? name + 7
	                                                   : NULL;
	if (!p || *p < '1' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return strcmp(p, ".scad") == 0 ||
	       (strcmp(p, ".stl") == 0 && name[1] == 'i');
}

/* Whether folder 'path' may be replaced: it is empty, or it was written
 * by cubegen (it holds a puzzle.puz, or print's pieces.txt or coupon's
 * coupon.txt, which name cubegen on their first line) and holds nothing
 * else than files cubegen writes. Else false with the reason in 'why':
 * the first of its entries cubegen did not write, by name. */
static bool replaceable(const char *path, char *why, size_t len)
{
	char f[PATH_MAX];
	struct stat ms;
	bool marked =
	    (size_t)snprintf(f, sizeof f, "%s/puzzle.puz", path) < sizeof f &&
	    ((lstat(f, &ms) == 0 && S_ISREG(ms.st_mode)) ||
	     starts_with(path, "pieces.txt", "# cubegen print ") ||
	     starts_with(path, "coupon.txt", "# cubegen coupon:"));
	DIR *d = opendir(path);
	if (!d) {
		snprintf(why, len, "cannot read it: %s", strerror(errno));
		return false;
	}
	struct dirent *e;
	bool empty = true;
	char first[256] = "";
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		empty = false;
		/* cubegen's: a plain file of one of its names (a folder or a
		 * link of such a name is not) */
		struct stat st;
		bool mine = ours(e->d_name) &&
		            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		            S_ISREG(st.st_mode);
		if (!mine && (!first[0] || strcmp(e->d_name, first) < 0))
			snprintf(first, sizeof first, "%s", e->d_name);
	}
	closedir(d);
	if (empty)
		return true;
	if (!marked) {
		snprintf(why, len, "not a folder cubegen wrote (no puzzle.puz, "
		         "nor print's pieces.txt or coupon's coupon.txt, in it)");
		return false;
	}
	if (first[0]) {
		snprintf(why, len, "it holds '%s', which cubegen did not write "
		         "(move it away first, or choose another --out)", first);
		return false;
	}
	return true;
}

bool outdir_begin(struct outdir *o, const char *target, bool force)
{
	char dir[PATH_MAX], base[PATH_MAX];
	memset(o, 0, sizeof *o);
	if (!split_path(target, dir, base, sizeof dir)) {
		cli_error("--out: '%s' is not a folder name", target);
		return false;
	}
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		/* Make a missing parent (one level), such as out/ in a fresh
		 * checkout. */
		if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
			cli_error("%s: cannot create the folder: %s", dir, strerror(errno));
			return false;
		}
	}
	if ((size_t)snprintf(o->target, sizeof o->target, "%s/%s", dir, base) >=
	    sizeof o->target ||
	    (size_t)snprintf(o->tmp, sizeof o->tmp, "%s/.%s.tmp-XXXXXX", dir,
	                     base) >= sizeof o->tmp ||
	    (size_t)snprintf(o->old, sizeof o->old, "%s/.%s.old-XXXXXX", dir,
	                     base) >= sizeof o->old) {
		cli_error("%s: path too long", target);
		return false;
	}
	if (lstat(o->target, &st) == 0) {
		char why[400];
		if (!S_ISDIR(st.st_mode)) {
			cli_error("%s already exists and is not a folder", target);
			return false;
		}
		if (!replaceable(o->target, why, sizeof why)) {
			cli_error("%s: refusing to replace it: %s", target, why);
			return false;
		}
		if (!force) {
			cli_error("%s already exists (use --force to replace it)", target);
			return false;
		}
		o->replace = true;
	}
	if (!mkdtemp(o->tmp)) {
		/* ENOENT from a folder that exists: a file system that takes
		 * no new folders (/proc, /sys) */
		int e = errno;
		if (e == ENOENT && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			cli_error("%s: cannot create a folder there (a file system "
			          "that takes none)", dir);
		else
			cli_error("%s: cannot create a folder there: %s", dir,
			          strerror(e));
		return false;
	}
	o->dir = opendir(o->tmp);
	if (!o->dir) {
		int e = errno;
		rmdir(o->tmp);
		o->tmp[0] = '\0';
		if (e == ENOMEM)
			cli_error("%s: out of memory", target);
		else
			cli_error("%s: cannot read the folder made there: %s", dir,
			          strerror(e));
		return false;
	}
	/* mkdtemp makes the folder private; the result is an ordinary one. */
	mode_t mask = umask(0);
	umask(mask);
	chmod(o->tmp, 0777 & ~mask);
	return true;
}

void outdir_path(const struct outdir *o, const char *name, char *buf, size_t len)
{
	/* tmp is at most PATH_MAX - 1 and names are short: a path that does
	 * not fit is cut, and then fails to open with a clear message. */
	int n = snprintf(buf, len, "%s/", o->tmp);
	if (n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "%s", name);
}

FILE *outdir_fopen(struct outdir *o, const char *name)
{
	char path[PATH_MAX];
	outdir_path(o, name, path, sizeof path);
	FILE *fp = fopen(path, "wb");
	if (!fp)
		cli_error("%s/%s: cannot write: %s", o->target, name, strerror(errno));
	return fp;
}

/* Keep a descriptor of file 'fd' to sync at commit, its writeback
 * started; when none is left to keep, sync it now. */
static bool sync_later(struct outdir *o, int fd)
{
	int keep = o->nsync < OUTDIR_SYNC_MAX ? dup(fd) : -1;
	if (keep < 0)
		return fsync(fd) == 0;
#ifdef SYNC_FILE_RANGE_WRITE
	sync_file_range(keep, 0, 0, SYNC_FILE_RANGE_WRITE); /* only a hint */
#endif
	o->sync[o->nsync++] = keep;
	return true;
}

/* Close the kept descriptors, syncing them when 'sync'; false (errno
 * set) when a sync failed. */
static bool sync_all(struct outdir *o, bool sync)
{
	bool ok = true;
	int err = 0;
	for (size_t i = 0; i < o->nsync; i++) {
		if (sync && ok && fsync(o->sync[i]) != 0) {
			ok = false;
			err = errno;
		}
		close(o->sync[i]);
	}
	o->nsync = 0;
	errno = err;
	return ok;
}

bool outdir_fclose(struct outdir *o, FILE *fp, const char *name)
{
	bool ok = fflush(fp) == 0 && sync_later(o, fileno(fp));
	int err = errno;
	if (fclose(fp) != 0 && ok) {
		ok = false;
		err = errno;
	}
	if (!ok)
		cli_error("%s/%s: cannot write: %s", o->target, name, strerror(err));
	return ok;
}

bool outdir_write(struct outdir *o, const char *name, const void *data,
                  size_t len)
{
	FILE *fp = outdir_fopen(o, name);
	if (!fp)
		return false;
	if (len && fwrite(data, 1, len, fp) != len) {
		cli_error("%s/%s: cannot write: %s", o->target, name, strerror(errno));
		fclose(fp);
		return false;
	}
	return outdir_fclose(o, fp, name);
}

static void sync_dir(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

bool outdir_commit(struct outdir *o)
{
	if (!sync_all(o, true)) {
		cli_error("%s: cannot write: %s", o->target, strerror(errno));
		outdir_abort(o);
		return false;
	}
	sync_dir(o->tmp);
	/* what was put into the old folder while the command worked is not
	 * ours to delete either */
	char why[400];
	if (o->replace && !replaceable(o->target, why, sizeof why)) {
		cli_error("%s: refusing to replace it: %s", o->target, why);
		outdir_abort(o);
		return false;
	}
	/* (kept open until here: an abort above empties the folder through
	 * it, with no allocation) */
	if (o->dir) {
		closedir(o->dir);
		o->dir = NULL;
	}
	char *old = o->old;
#ifdef RENAME_EXCHANGE
	/* Swap the new folder and the old one in one step, so that the
	 * target holds one whole puzzle or the other at every moment, when
	 * the process is killed too; the old one, now under the temporary
	 * name, goes after. Two renames (below) leave a moment with no
	 * target: kept for file systems and kernels without the exchange. */
	if (o->replace && renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->target,
	                            RENAME_EXCHANGE) == 0) {
		if (remove_tree(o->tmp) != 0)
			cli_error("warning: could not remove the old folder %s",
			          o->tmp);
		o->tmp[0] = '\0';
		return true;
	}
#endif
	if (o->replace) {
		/* mkdtemp reserves a unique name; rename replaces that empty
		 * folder atomically. */
		if (!mkdtemp(old) || rename(o->target, old) != 0) {
			cli_error("%s: cannot move the old folder aside: %s", o->target,
			          strerror(errno));
			outdir_abort(o);
			return false;
		}
	}
	if (rename(o->tmp, o->target) != 0) {
		cli_error("%s: cannot rename into place: %s", o->target, strerror(errno));
		if (o->replace)
			rename(old, o->target);
		outdir_abort(o);
		return false;
	}
	if (o->replace && remove_tree(old) != 0)
		cli_error("warning: could not remove the old folder %s", old);
	return true;
}

void outdir_abort(struct outdir *o)
{
	sync_all(o, false);
	if (o->dir && o->tmp[0]) {
		/* the folder holds files only: removed through the stream
		 * opened at the start, with no allocation */
		rewinddir(o->dir);
		struct dirent *e;
		while ((e = readdir(o->dir)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(o->dir), e->d_name, 0);
	}
	if (o->dir) {
		closedir(o->dir);
		o->dir = NULL;
	}
	if (o->tmp[0] && rmdir(o->tmp) != 0)
		remove_tree(o->tmp);
	o->tmp[0] = '\0';
}
