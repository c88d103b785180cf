// cubegen 5x5x5 seed 42, piece 1
// Made by cubegen: a standalone, parametric OpenSCAD model. Change
// unit, wall or clearance (Window > Customizer), render (F6), export STL.

/* [Size] */
// Edge of one cell, in mm
unit = 10; // [2:0.5:50]
// Width of a wall layer (the outer layers of the puzzle's box), in mm
wall = 10; // [1:0.5:50]
// Gap between two pieces that touch, in mm (each face not glued to the same piece moves in by half of it)
clearance = 0.2; // [0:0.05:2]

/* [Hidden] */
// The piece: each of its cells is a box as wide as its layer along each
// axis (unit, or wall for a wall layer), moved in by clearance/2 on every
// face not glued to a cell of the same piece, all unioned. Here the cells
// are merged into boxes [x, y, z, size x, size y, size z] (in cells) with
// inset flags [-x, +x, -y, +y, -z, +z]: 1 where the side moves in by
// clearance/2. Boxes may overlap; their union is the piece (see
// cubegen's mesh/scad.c). Its _walls are, per axis x, y, z, a flag for
// each layer of its cells: 1 for a wall layer, 0 for a unit layer.
piece = [
  [0, 0, 0, 1, 4, 1, 1, 1, 1, 1, 1, 1],
  [3, 0, 0, 1, 4, 1, 1, 1, 1, 1, 1, 1],
  [0, 1, 0, 1, 3, 1, 1, 0, 0, 1, 1, 1],
  [3, 1, 0, 1, 3, 1, 0, 0, 0, 1, 1, 1],
  [1, 1, 0, 2, 3, 1, 0, 0, 1, 0, 1, 1],
  [4, 1, 0, 1, 3, 1, 0, 1, 1, 0, 1, 1],
  [1, 1, 0, 2, 4, 1, 1, 1, 1, 1, 1, 1],
  [4, 1, 0, 1, 4, 1, 1, 1, 1, 1, 1, 1]
];
piece_walls = [[1, 0, 0, 0, 1], [1, 0, 0, 0, 1], [1]];

assert(unit > 0, "unit must be positive");
assert(clearance >= 0 && clearance < unit / 2, "clearance must be at least 0 and less than unit/2");
assert(wall > 0, "wall must be positive");
assert(clearance < wall / 2, "clearance must be less than wall/2");

// Where a box side lies along an axis whose layers have the wall
// flags f: layer boundary k is at nw * wall + nu * unit, nw and nu
// the numbers of wall and unit layers before it, moved by t
// half-clearances (t = 0, 1 or 2); the piece is moved by
// -clearance/2 so that its lowest corner is at the origin, on z = 0.
function cubegen_walls(f, k) = k == 0 ? 0 : f[k - 1] + cubegen_walls(f, k - 1);
function cubegen_at(f, k, t) = let (nw = cubegen_walls(f, k))
  nw * wall + (k - nw) * unit - t * (clearance / 2);

// A box from two corners, as a polyhedron: its corners are exactly the
// cubegen_at() values, so boxes that meet share faces exactly (a
// translated cube() would round its far corner box by box).
module cubegen_box(lo, hi) {
  polyhedron(
    points = [for (i = [0 : 7]) [i % 2 < 1 ? lo[0] : hi[0],
                                 i % 4 < 2 ? lo[1] : hi[1],
                                 i < 4 ? lo[2] : hi[2]]],
    faces = [[0, 1, 3, 2], [4, 6, 7, 5], [0, 4, 5, 1], [2, 3, 7, 6],
             [0, 2, 6, 4], [1, 5, 7, 3]]);
}

// A piece from its boxes, all unioned: box [x, y, z, sx, sy, sz, ...] is
// the cells [x, x + sx) x [y, y + sy) x [z, z + sz), each side moved in
// by clearance/2 where its flag (-x, +x, -y, +y, -z, +z) is 1.
module cubegen_piece(boxes, walls) {
  for (b = boxes)
    cubegen_box([for (a = [0 : 2]) cubegen_at(walls[a], b[a], 1 - b[6 + 2 * a])],
                [for (a = [0 : 2]) cubegen_at(walls[a], b[a] + b[3 + a], 1 + b[7 + 2 * a])]);
}

cubegen_piece(piece, piece_walls);
