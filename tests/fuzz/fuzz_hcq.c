/*
 * fuzz_hcq.c: libFuzzer target for the Happy Cube (.hcq) reader: no crash,
 * leak or undefined behaviour; what reads is a 5x5x5 shell puzzle of six
 * plates, and it solves (the shell fast path) without trouble, to the
 * counts of every engine's general search (samecounts.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "formats/puz.h"
#include "solver/solve.h"
#include "tests/fuzz/samecounts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct puzzle p;
	struct puz_error e;
	if (hcq_read_mem((const char *)data, size, &p, &e) != PUZ_OK)
		return 0;
	if (p.npieces != 6 || puz_grid_volume(&p.goal) != 98)
		abort();
	struct solve_opts o = {.max_nodes = 100000};
	struct solve_result r;
	if (solve_puzzle(&p, &o, &r) == SOLVE_OK) {
		if (r.complete)
			same_counts(&p, o.max_nodes, r.solutions, r.assemblies);
		solve_result_clear(&r);
	}
	puz_clear(&p);
	return 0;
}
