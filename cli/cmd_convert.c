/*
 * cmd_convert.c: 'cubegen convert IN OUT': a puzzle file into another
 * format, by extension: .puz, .hcq (read only) and .xmpuzzle (BurrTools),
 * with the solutions as BurrTools assemblies when asked.
 *
 * OUT is written to a temporary file beside it, synced and renamed into
 * place, so it is never seen half-written; an existing OUT is replaced
 * only with --force, and never when it is IN itself.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "solver/solve.h"

static const char help[] =
	"usage: cubegen convert IN OUT [--solutions [--max K] [--disassemble]]\n"
	"                              [--force] [--problem K]\n"
	"\n"
	"Convert a puzzle file. The formats go by extension: IN is a .puz,\n"
	".hcq (Happy Cube) or .xmpuzzle (BurrTools) file (its first problem,\n"
	"or problem K), OUT a .puz or .xmpuzzle file. A .xmpuzzle is written\n"
	"gzip-compressed, as BurrTools 0.6 writes it: the goal is its first\n"
	"shape (its last when a piece has a group), the pieces follow with\n"
	"their names, in one problem with their counts; colours and the match\n"
	"table become BurrTools colours and colour constraints, optional goal\n"
	"cells variable voxels (of their colour, if any). Distinct regions have\n"
	"no BurrTools form and are refused.\n"
	"\n"
	"  --solutions  solve the puzzle and write its distinct solutions into\n"
	"               the .xmpuzzle as BurrTools assemblies (each solution\n"
	"               once, up to the goal's symmetries, as 'solve' counts\n"
	"               them), to step through in BurrTools' 3D viewer\n"
	"  --max K      write at most the first K solutions found\n"
	"  --disassemble  only the solutions that come apart (as 'solve\n"
	"               --disassemble' counts them), each with its moves as a\n"
	"               BurrTools <separation>, so BurrTools animates them\n"
	"  --force      replace OUT if it exists (never IN itself)\n"
	"  --problem K  the K-th problem of a BurrTools IN (default 1)\n"
	"\n"
	"A search for --solutions that takes more than a second shows its\n"
	"progress on stderr when that is a terminal. OUT is written beside its\n"
	"final name and renamed into place. Exit 0 when written, 1 when it\n"
	"could not be, 2 on bad usage or input.\n";

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The folder part of 'path' ("." when none) and the name, into bufs of
 * PATH_MAX; false when 'path' names no file. */
static bool split(const char *path, char *dir, char *base)
{
	size_t n = strlen(path);
	if (n == 0 || n >= PATH_MAX || path[n - 1] == '/')
		return false;
	const char *slash = strrchr(path, '/');
	if (!slash) {
		strcpy(dir, ".");
		strcpy(base, path);
	} else {
		size_t d = (size_t)(slash - path);
		memcpy(dir, path, d ? d : 1);
		dir[d ? d : 1] = '\0';
		strcpy(base, slash + 1);
	}
	return true;
}

/* What solve would say of 'p' written as a BurrTools file, into '*xi'
 * (whether BurrTools counts it differently): the problem written to
 * memory, without solutions, and read back. PUZ_OK, or PUZ_ENOMEM (also
 * when the memory stream could not grow). */
static int burrtools_view(const struct puzzle *p, struct xmp_info *xi)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	if (!fp)
		return PUZ_ENOMEM;
	int rc = xmp_write(fp, p, NULL, false);
	if (fclose(fp) != 0 && rc == PUZ_OK)
		rc = PUZ_ENOMEM;
	if (rc == PUZ_OK) {
		struct puzzle back;
		struct puz_error e;
		rc = xmp_read_mem(text, len, 0, &back, xi, &e);
		if (rc == PUZ_OK)
			puz_clear(&back);
	}
	free(text);
	/* (what xmp_write wrote reads back; were it ever refused, there is
	 * no note to make, and the file is written all the same) */
	if (rc != PUZ_OK && rc != PUZ_ENOMEM) {
		memset(xi, 0, sizeof *xi);
		rc = PUZ_OK;
	}
	return rc;
}

/* Write 'p' (and 'sols') to 'out' through a temporary file beside it. */
static int write_out(const char *out, const struct puzzle *p,
                     const struct xmp_solutions *sols, bool xmp)
{
	char dir[PATH_MAX], base[PATH_MAX], tmp[PATH_MAX];
	if (!split(out, dir, base) ||
	    (size_t)snprintf(tmp, sizeof tmp, "%s/.%s.tmp-XXXXXX", dir, base) >=
	    sizeof tmp) {
		cli_error("%s: not a file name", out);
		return CLI_USAGE;
	}
	int fd = mkstemp(tmp);
	if (fd < 0) {
		cli_error("%s: cannot write there: %s", out, strerror(errno));
		return CLI_FAIL;
	}
	/* mkstemp makes the file private; the result is an ordinary one */
	mode_t mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	FILE *fp = fdopen(fd, "wb");
	if (!fp) {
		close(fd);
		unlink(tmp);
		cli_error("%s: cannot write: %s", out, strerror(errno));
		return CLI_FAIL;
	}
	int rc = xmp ? xmp_write(fp, p, sols, true) : puz_write(fp, p);
	int err = errno;
	if (rc == PUZ_OK && (fflush(fp) != 0 || fsync(fileno(fp)) != 0)) {
		rc = PUZ_EIO;
		err = errno;
	}
	if (fclose(fp) != 0 && rc == PUZ_OK) {
		rc = PUZ_EIO;
		err = errno;
	}
	if (rc == PUZ_OK && rename(tmp, out) != 0) {
		rc = PUZ_EIO;
		err = errno;
	}
	if (rc != PUZ_OK) {
		unlink(tmp);
		cli_error("%s: cannot write: %s", out,
		          rc == PUZ_ENOMEM ? "out of memory" : strerror(err));
		return CLI_FAIL;
	}
	return CLI_OK;
}

/* Whether c->out may be written: not the input, not a folder, and new
 * unless --force; else one line and the exit code. */
static int output_free(const struct convert_args *c)
{
	struct stat si, so;
	bool exists = stat(c->out, &so) == 0;
	if (strcmp(c->in, c->out) == 0 ||
	    (exists && stat(c->in, &si) == 0 && si.st_dev == so.st_dev &&
	     si.st_ino == so.st_ino)) {
		cli_error("%s: the output is the input file", c->out);
		return CLI_USAGE;
	}
	if (!exists)
		return CLI_OK;
	if (S_ISDIR(so.st_mode)) {
		cli_error("%s: is a folder", c->out);
		return CLI_USAGE;
	}
	if (!c->force) {
		cli_error("%s already exists (use --force to replace it)", c->out);
		return CLI_FAIL;
	}
	return CLI_OK;
}

int cmd_convert(int argc, char **argv)
{
	struct convert_args c;
	switch (args_convert(argc, argv, &c)) {
	case ARGS_HELP:
		fputs(help, stdout);
		return CLI_OK;
	case ARGS_BAD:
		return CLI_USAGE;
	}
	if (!ends_with(c.in, ".puz") && !ends_with(c.in, ".hcq") &&
	    !ends_with(c.in, ".xmpuzzle")) {
		cli_error("%s: unknown input format (expected .puz, .hcq or "
		          ".xmpuzzle)", c.in);
		return CLI_USAGE;
	}
	bool xmp = ends_with(c.out, ".xmpuzzle");
	if (!xmp && !ends_with(c.out, ".puz")) {
		cli_error("%s: unknown output format (expected .puz or .xmpuzzle%s)",
		          c.out, ends_with(c.out, ".hcq") ? "; .hcq is read only" : "");
		return CLI_USAGE;
	}
	if (c.solutions && !xmp) {
		cli_error("--solutions: only a .xmpuzzle output holds solutions");
		return CLI_USAGE;
	}
	/* the input read first: what is wrong with it is said before
	 * anything of the output */
	struct puzzle p;
	struct xmp_info xi;
	int rc = cli_read_puzzle_dis(c.in, c.problem, c.disassemble, &p, &xi);
	if (rc != CLI_OK)
		return rc;
	rc = output_free(&c);
	if (rc != CLI_OK) {
		puz_clear(&p);
		return rc;
	}
	char why[160];
	if (xmp && !xmp_writable(&p, c.solutions, why, sizeof why)) {
		cli_error("%s: cannot be written as a BurrTools file: %s", c.in, why);
		puz_clear(&p);
		return CLI_USAGE;
	}
	struct xmp_info wi = {0};
	if (xmp && burrtools_view(&p, &wi) != PUZ_OK) {
		cli_error("%s: out of memory", c.in);
		puz_clear(&p);
		return CLI_FAIL;
	}
	struct xmp_solutions s = {0};
	if (c.solutions) {
		struct cli_progress prog;
		bool show = cli_progress_begin(&prog, "finding solutions", true);
		int src = xmp_find_solutions(&p, c.max, c.disassemble,
		                             show ? cli_progress_show : NULL, &prog,
		                             &s);
		cli_progress_end(&prog);
		if (src != SOLVE_OK) {
			cli_error("%s: %s", c.in, solve_strerror(src));
			puz_clear(&p);
			return CLI_FAIL;
		}
	}
	rc = write_out(c.out, &p, c.solutions ? &s : NULL, xmp);
	if (rc == CLI_OK) {
		printf("wrote: %s\n", c.out);
		if (c.solutions && (!s.complete || s.n < s.solutions))
			printf("solutions: the first %zu of %s%llu (--max %llu)\n", s.n,
			       s.complete ? "" : "at least ",
			       (unsigned long long)s.solutions,
			       (unsigned long long)c.max);
		else if (c.solutions)
			printf("solutions: %zu, all of them\n", s.n);
		/* what solve says of the file written: BurrTools' count may
		 * differ (congruent pieces, mirror images paired in order) */
		if (wi.differs)
			printf("note: BurrTools counts differently: %s\n", wi.why);
	}
	xmp_solutions_clear(&s);
	puz_clear(&p);
	return rc;
}
