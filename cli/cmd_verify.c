/*
 * cmd_verify.c: 'cubegen verify': the checks cubegen runs on its own STL
 * files, on any STL.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mesh/mesh.h"

static const char help[] =
	"usage: cubegen verify FILE.stl...\n"
	"\n"
	"Check STL files (binary or ASCII) the way cubegen checks its own:\n"
	"every edge used by exactly two triangles in opposite directions,\n"
	"every vertex a single fan (no solids touching at an edge or a\n"
	"corner), no zero-area triangles, no NaN, infinity or -0.0, a positive\n"
	"volume; then admesh's checks (every facet connected on all three\n"
	"edges, nothing to repair).\n"
	"Prints one line per file. Exit 0 when every file passes, 1 when one\n"
	"does not, 2 when a file cannot be read.\n";

/* Whether 'path' is a file to check at all; else one line as the other
 * commands say it: missing, a folder, or a 3MF package (a zip). */
static bool readable_stl(const char *path)
{
	long long size = cli_input_size("", path);
	if (size < 0)
		return false;
	if (size == CLI_SIZE_UNKNOWN) /* a pipe: what is read is gone */
		return true;
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		cli_error("%s: %s", path, strerror(errno));
		return false;
	}
	unsigned char head[4] = {0};
	bool zip = fread(head, 1, 4, fp) == 4 && memcmp(head, "PK\3\4", 4) == 0;
	fclose(fp);
	if (zip) {
		cli_error("%s: a zip file (a 3MF package?), not an STL: verify "
		          "checks STL files", path);
		return false;
	}
	return true;
}

int cmd_verify(int argc, char **argv)
{
	int nfiles = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			fputs(help, stdout);
			return CLI_OK;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			cli_error("verify: unknown option '%s' (try 'cubegen verify --help')",
			          argv[i]);
			return CLI_USAGE;
		}
		nfiles++;
	}
	if (!nfiles) {
		cli_error("verify: which STL files? (try 'cubegen verify --help')");
		return CLI_USAGE;
	}
	int code = CLI_OK;
	for (int i = 1; i < argc; i++) {
		if (!readable_stl(argv[i])) {
			code = CLI_USAGE;
			continue;
		}
		struct mesh_report rep;
		int rc = mesh_verify_stl(argv[i], -1, &rep);
		if (rc == MESH_OK) {
			printf("%s: ok, %zu triangles, volume %.3f mm^3\n", argv[i],
			       rep.triangles, rep.volume);
		} else if (rc == MESH_EBADMESH) {
			printf("%s: FAILED: %s\n", argv[i], rep.problem);
			if (code == CLI_OK)
				code = CLI_FAIL;
		} else {
			cli_error("%s: %s%s%s", argv[i], mesh_strerror(rc),
			          rep.problem[0] ? ": " : "", rep.problem);
			code = CLI_USAGE;
		}
	}
	return code;
}
