/*
 * polyo.h: a polyomino's cells turned and flipped, for the boards that
 * test_bb.c and test_bbw.c tile with pieces of every orientation.
 */
#ifndef CUBEGEN_TESTS_POLYO_H
#define CUBEGEN_TESTS_POLYO_H

#include <stddef.h>

/* The k cells c[i] = (x, y) in orientation o (0..7: a flip of x when
 * o & 4, then o & 3 quarter turns), moved so that their least x and y
 * are 0, to p; '*w' and '*h' get their width and height. */
static inline void polyo_orient(int (*c)[2], size_t k, int o,
                                int (*p)[2], int *w, int *h)
{
	int minx = 0, miny = 0, maxx = 0, maxy = 0;
	for (size_t i = 0; i < k; i++) {
		int x = o & 4 ? -c[i][0] : c[i][0], y = c[i][1];
		for (int r = 0; r < (o & 3); r++) {
			int x0 = x;
			x = -y;
			y = x0;
		}
		p[i][0] = x;
		p[i][1] = y;
		if (i == 0 || x < minx)
			minx = x;
		if (i == 0 || y < miny)
			miny = y;
		if (i == 0 || x > maxx)
			maxx = x;
		if (i == 0 || y > maxy)
			maxy = y;
	}
	for (size_t i = 0; i < k; i++) {
		p[i][0] -= minx;
		p[i][1] -= miny;
	}
	*w = maxx - minx + 1;
	*h = maxy - miny + 1;
}

#endif
