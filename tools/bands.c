/*
 * bands.c: print the cube band table of gen/find.c (`make bands`), with
 * GEN_CALIB_CUBES samples per side, as gen_bands() must return it. Takes
 * about a minute; test_genfind recomputes sides 6 to 8.
 */
#include <stdio.h>

#include "gen/gen.h"

int main(void)
{
	for (int side = 3; side <= 8; side++) {
		int dim[3] = {side, side, side};
		struct gen_bands b;
		if (gen_calibrate(dim, GEN_CALIB_CUBES, &b) != GEN_OK) {
			fprintf(stderr, "bands: out of memory\n");
			return 1;
		}
		if (printf("\t{.easy_max = %.17g, .hard_min = %.17g, .samples = %d,\n"
		           "\t .in_band = {0, %d, %d, %d}}, /* side %d */\n",
		           b.easy_max, b.hard_min, b.samples, b.in_band[GEN_BAND_EASY],
		           b.in_band[GEN_BAND_MEDIUM], b.in_band[GEN_BAND_HARD],
		           side) < 0)
			return 1;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
