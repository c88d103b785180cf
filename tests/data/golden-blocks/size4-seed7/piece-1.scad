// cubegen 4x4x4 blocks, seed 7, piece 1
// Made by cubegen: a standalone, parametric OpenSCAD model. Change
// unit, clearance or labels (Window > Customizer), render (F6), export STL.

/* [Size] */
// Edge of one cell, in mm
unit = 10; // [2:0.5:50]
// Gap between two pieces that touch, in mm (each face not glued to the same piece moves in by half of it)
clearance = 0.2; // [0:0.05:2]

/* [Labels] */
// Engrave each piece's number in its top face, 0.6 mm deep
labels = true;

/* [Hidden] */
// The piece: each of its cells is a unit cube moved in by clearance/2 on
// every face not glued to a cell of the same piece, all unioned. Here the
// cells are merged into boxes [x, y, z, size x, size y, size z] (in
// cells) with inset flags [-x, +x, -y, +y, -z, +z]: 1 where the side moves
// in by clearance/2. Boxes may overlap; their union is the piece (see
// cubegen's mesh/scad.c).
// Its _label (engraved when labels is true; [] for none) is
// [[x0, x1, y0, y1, z1], turned, w, ylo, strokes]: centred on the top of
// the cells [x0, x1) x [y0, y1) of its top layer, z1 - 1, and reading
// along +y when turned is 1, the text spans [0, w] x [ylo, 10] in font
// units (a digit is 6 x 10) and is the union of the strokes
// [u0, v0, u1, v1] (font units). The size in mm is worked out below.
piece = [
  [0, 0, 0, 1, 1, 1, 1, 0, 1, 0, 1, 1],
  [1, 0, 0, 2, 1, 1, 0, 0, 1, 1, 1, 0],
  [2, 0, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0],
  [0, 0, 0, 4, 1, 1, 1, 1, 1, 1, 1, 1],
  [0, 0, 0, 1, 2, 1, 1, 1, 1, 1, 1, 1],
  [2, 0, 0, 1, 2, 1, 1, 1, 1, 1, 1, 1],
  [1, 0, 0, 2, 1, 2, 1, 1, 1, 1, 1, 1]
];
piece_label = [[1, 3, 0, 1, 2], 1, 6, 0, [ // "1"
  [4, 4, 6, 10], [4, 0, 6, 6]
]];

// The engraving, in mm: its depth, the margin between the text and
// the sides of the top face beyond clearance/2, and the least height
// of a digit (a piece with less room gets no label). A digit is 10
// font units tall.
label_depth = 0.6;
label_margin = 1;
label_min = 2;

assert(unit > 0, "unit must be positive");
assert(clearance >= 0 && clearance < unit / 2, "clearance must be at least 0 and less than unit/2");
assert(!labels || unit - clearance > label_depth, "with labels, unit - clearance must be more than label_depth");

// Where a box side lies along an axis: cell boundary k, moved by t
// half-clearances (t = 0, 1 or 2); the piece is moved by -clearance/2
// so that its lowest corner is at the origin, on z = 0.
function cubegen_at(k, t) = k * unit - t * (clearance / 2);

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
module cubegen_piece(boxes) {
  for (b = boxes)
    cubegen_box([for (a = [0 : 2]) cubegen_at(b[a], 1 - b[6 + 2 * a])],
                [for (a = [0 : 2]) cubegen_at(b[a] + b[3 + a], 1 + b[7 + 2 * a])]);
}

// A label's strokes, to cut out of the piece: the text scaled by s to
// fit the rectangle r = [x0, x1, y0, y1] (mm) less clearance/2 +
// label_margin on each side, centred, from label_depth below 'top' to
// 1 mm above it (so the cut is clean). Nothing when the digits would
// be under label_min tall.
module cubegen_label(r, top, label) {
  turned = label[1];
  w = label[2];
  ylo = label[3];
  m = clearance / 2 + label_margin;
  aw = r[1] - r[0] - 2 * m;
  ah = r[3] - r[2] - 2 * m;
  fh = 10 - ylo;
  s = turned ? min(aw / fh, ah / w) : min(aw / w, ah / fh);
  cx = (r[0] + r[1]) / 2;
  cy = (r[2] + r[3]) / 2;
  uc = w / 2;
  vc = (ylo + 10) / 2;
  if (s * 10 >= label_min)
    for (t = label[4])
      if (turned) // the text's u along +y, its v along -x
        cubegen_box([cx - (t[3] - vc) * s, cy + (t[0] - uc) * s, top - label_depth],
                    [cx - (t[1] - vc) * s, cy + (t[2] - uc) * s, top + 1]);
      else
        cubegen_box([cx + (t[0] - uc) * s, cy + (t[1] - vc) * s, top - label_depth],
                    [cx + (t[2] - uc) * s, cy + (t[3] - vc) * s, top + 1]);
}

// A piece with its label cut out of its top when labels is true: the
// rectangle's sides at cell boundaries (t = 1), the top face at t = 2.
module cubegen_part(boxes, label) {
  if (labels && len(label) > 0)
    difference() {
      cubegen_piece(boxes);
      cubegen_label([cubegen_at(label[0][0], 1), cubegen_at(label[0][1], 1),
                     cubegen_at(label[0][2], 1), cubegen_at(label[0][3], 1)],
                    cubegen_at(label[0][4], 2), label);
    }
  else
    cubegen_piece(boxes);
}

cubegen_part(piece, piece_label);
