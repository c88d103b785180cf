/*
 * testpart.h: a long test program in parts. With TEST_PART=i/n in the
 * environment, run_tests_part() runs only the group's tests i, i+n,
 * i+2n, ... (counting from 1), so that `make test` can run the n parts
 * side by side, one a core; without it, every test. A malformed TEST_PART
 * fails the program rather than run nothing or everything silently.
 * (cmocka_set_test_filter(), by name, still applies within a part.)
 */
#ifndef CUBEGEN_TESTS_TESTPART_H
#define CUBEGEN_TESTS_TESTPART_H

#include <stdio.h>
#include <stdlib.h>

static inline int run_tests_part(const char *name,
                                 const struct CMUnitTest *tests, size_t n)
{
	const char *env = getenv("TEST_PART");
	if (!env)
		return _cmocka_run_group_tests(name, tests, n, NULL, NULL);
	unsigned i = 0, parts = 0;
	char end;
	if (sscanf(env, "%u/%u%c", &i, &parts, &end) != 2 || i < 1 || i > parts) {
		fprintf(stderr, "%s: TEST_PART must be i/n with 1 <= i <= n, not '%s'\n",
		        name, env);
		return 1;
	}
	struct CMUnitTest *mine = malloc(n * sizeof *mine);
	if (!mine) {
		fprintf(stderr, "%s: out of memory\n", name);
		return 1;
	}
	size_t k = 0;
	for (size_t t = i - 1; t < n; t += parts)
		mine[k++] = tests[t];
	int failed = k ? _cmocka_run_group_tests(name, mine, k, NULL, NULL) : 0;
	free(mine);
	return failed;
}

/* run_tests_part() on an array: run_tests_parts(tests) */
#define run_tests_parts(group) \
	run_tests_part(#group, (group), sizeof(group) / sizeof((group)[0]))

#endif
