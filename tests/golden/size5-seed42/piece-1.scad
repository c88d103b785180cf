// cubegen 5x5x5 seed 42, piece 1
// Made by cubegen: a standalone, parametric OpenSCAD model. Change
// unit or clearance (Window > Customizer), render (F6), export STL.

/* [Size] */
// Edge of one cell, in mm
unit = 10; // [2:0.5:50]
// Gap between two pieces that touch, in mm (each face not glued to the same piece moves in by half of it)
clearance = 0.2; // [0:0.05:2]

/* [Hidden] */
// Cells merged into boxes [x, y, z, size x, size y, size z], in cells.
// Boxes may overlap; together they contain every block of 1 or 2 cells
// per axis of the piece, which makes the union of the shrunk boxes the
// whole piece shrunk by clearance/2 (see cubegen's mesh/scad.c).
piece = [
  [0, 0, 0, 1, 4, 1],
  [3, 0, 0, 1, 4, 1],
  [0, 1, 0, 5, 3, 1],
  [1, 1, 0, 2, 4, 1],
  [4, 1, 0, 1, 4, 1]
];

assert(unit > 0, "unit must be positive");
assert(clearance >= 0 && clearance < unit / 2, "clearance must be at least 0 and less than unit/2");

// A piece from its boxes: each box shrunk by clearance/2 on every
// side, all unioned. The lowest corner is at the origin, on z = 0.
module cubegen_piece(boxes) {
  for (b = boxes)
    translate([b[0], b[1], b[2]] * unit)
      cube([b[3], b[4], b[5]] * unit - [1, 1, 1] * clearance);
}

cubegen_piece(piece);
