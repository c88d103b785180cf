/*
 * notchref.h: the notch rule of mesh.h, written again for the tests from
 * its words: a cell corner is notched when 6 of the 8 cells around it are
 * the piece's and the 2 missing ones lie on a diagonal of a face of that
 * 2 x 2 x 2 block (they differ along exactly two axes). 'cells8' has bit
 * dx + 2 dy + 4 dz set when the cell at offset (dx, dy, dz) from the
 * block's lowest cell is the piece's.
 */
#ifndef CUBEGEN_TESTS_NOTCHREF_H
#define CUBEGEN_TESTS_NOTCHREF_H

static inline int notchref(unsigned cells8)
{
	int gone[8], n = 0;
	for (int k = 0; k < 8; k++)
		if (!(cells8 >> k & 1u))
			gone[n++] = k;
	if (n != 2)
		return 0;
	int axes = 0;
	for (int a = 0; a < 3; a++)
		axes += (gone[0] >> a & 1) != (gone[1] >> a & 1);
	return axes == 2;
}

#endif
