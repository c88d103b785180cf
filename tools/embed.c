/*
 * embed.c: the build's tool that puts the viewer's source (web/) into the
 * binary: `embed OUT.c NAME=FILE...` writes OUT.c defining, per pair,
 * `const char NAME[]` holding FILE's bytes and a final 0, and
 * `const size_t NAME_len` its length. Run by the Makefile only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int emit(FILE *out, const char *name, const char *path)
{
	FILE *in = fopen(path, "rb");
	if (!in) {
		fprintf(stderr, "embed: %s: cannot open\n", path);
		return 0;
	}
	/* bytes, not a string literal: C11 compilers need not take a
	 * literal over 4095 characters (-Woverlength-strings) */
	fprintf(out, "const char %s[] = {", name);
	size_t n = 0;
	int c;
	while ((c = getc(in)) != EOF)
		fprintf(out, "%s%d,", n++ % 20 ? " " : "\n\t", c);
	fprintf(out, "\n\t0\n};\nconst size_t %s_len = %zu;\n\n", name, n);
	int bad = ferror(in);
	fclose(in);
	return !bad;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: embed OUT.c NAME=FILE...\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		fprintf(stderr, "embed: %s: cannot write\n", argv[1]);
		return 1;
	}
	fprintf(out, "/* Made by tools/embed.c from web/: do not edit. */\n"
	             "#include <stddef.h>\n\n");
	int ok = 1;
	for (int i = 2; i < argc && ok; i++) {
		char *eq = strchr(argv[i], '=');
		if (!eq) {
			fprintf(stderr, "embed: %s: expected NAME=FILE\n", argv[i]);
			ok = 0;
			break;
		}
		*eq = '\0';
		fprintf(out, "extern const char %s[];\nextern const size_t %s_len;\n",
		        argv[i], argv[i]);
		ok = emit(out, argv[i], eq + 1);
	}
	if (fclose(out) != 0)
		ok = 0;
	if (!ok)
		remove(argv[1]);
	return ok ? 0 : 1;
}
