/*
 * samecounts.h: the fuzz targets' cross-check of the solver. Every
 * engine, the search without symmetry breaking and the search split into
 * tasks give the counts of a complete plain solve wherever they end too;
 * a shard of a split search runs without trouble.
 */
#ifndef CUBEGEN_TESTS_FUZZ_SAMECOUNTS_H
#define CUBEGEN_TESTS_FUZZ_SAMECOUNTS_H

#include <stdint.h>
#include <stdlib.h>

#include "solver/solve.h"

/* abort() when a search of 'p' within 'max_nodes' that ends counts
 * otherwise than 'solutions' and 'assemblies' (a complete plain solve's). */
static inline void same_counts(const struct puzzle *p, uint64_t max_nodes,
                               uint64_t solutions, uint64_t assemblies)
{
	static const struct solve_opts other[] = {
		{.engine = SOLVE_DLX},  {.engine = SOLVE_WIDE},
		{.engine = SOLVE_BITS}, {.generic = true},
		{.no_pin = true},       {.threads = 2},
		{.threads = 1, .shard_index = 1, .shard_count = 2},
	};
	for (size_t k = 0; k < sizeof other / sizeof other[0]; k++) {
		struct solve_opts o = other[k];
		o.max_nodes = max_nodes;
		struct solve_result r;
		if (solve_puzzle(p, &o, &r) != SOLVE_OK)
			continue;
		if (r.complete && !o.shard_count &&
		    (r.solutions != solutions || r.assemblies != assemblies))
			abort();
		solve_result_clear(&r);
	}
}

#endif
