/*
 * testload.h: read a puzzle file in a cmocka test (.hcq by its name, else
 * .puz), failing the test with the reader's file:line:column message.
 * Include after <cmocka.h>.
 */
#ifndef CUBEGEN_TESTS_TESTLOAD_H
#define CUBEGEN_TESTS_TESTLOAD_H

#include <string.h>

#include "formats/puz.h"

static inline void test_load_puzzle(const char *path, struct puzzle *p)
{
	struct puz_error e;
	size_t n = strlen(path);
	int rc = n > 4 && strcmp(path + n - 4, ".hcq") == 0
	         ? hcq_read_file(path, p, &e) : puz_read_file(path, p, &e);
	if (rc != PUZ_OK)
		fail_msg("%s:%d:%d: %s", path, e.line, e.col, e.msg);
}

#endif
