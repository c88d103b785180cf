#!/usr/bin/env bash
# print_check.sh: the printable outputs of `cubegen generate`, `print` and
# `coupon`, checked by the tools a maker uses (DESIGN.md §6, issue 4).
#
#   CUBEGEN=/abs/path/cubegen DATA=/abs/path/tests/data/classic bash tests/print_check.sh
#
# Generates a size-5 puzzle (seed 7, the default unit and clearance), a
# size-4 one with --unit 8 --clearance 0.3 (so the .scad parameters are
# not just the defaults), a 4x5x6 box, and the size-5 puzzle and the box
# again with --wall 3 (thin plates, fingers one wall deep), then for each:
#  - every piece-K.stl and plate.stl passes `cubegen verify`;
#  - OpenSCAD renders every piece-K.scad (and puzzle.scad) to an STL that
#    also passes `cubegen verify` and has the same volume as piece-K.stl
#    (plate.stl), within 1e-6 relative: float32 rounding of the two meshes
#    differs by ~1e-7, while the corner square of clearance/2 x
#    clearance/2 x unit kept at one concave corner (DESIGN.md §3) is ~5e-6
#    of a size-5 piece and >= 3e-5 of a size-4 one with unit 8, clearance 0.3;
#  - PrusaSlicer's `--info` says `manifold = yes` and reports no repairs for
#    every piece and plate.stl, and finds in plate.3mf six objects, each
#    `manifold = yes`, none repaired.
# The .scad files are parametric (unit, wall, clearance, labels): rendered
# with -D settings they give the solids that generate writes with the
# matching options:
#  - the size-5 piece-K.scad, all six, with -D unit=8 -D wall=8
#    -D clearance=0.3: generate --unit 8 --clearance 0.3 (whose wall is its
#    unit, 8; the file's wall stays 10 unless set);
#  - the size-5 --wall 3 ones with -D unit=8 -D clearance=0.3: generate
#    --wall 3 --unit 8 --clearance 0.3; with -D wall=10: the default
#    (solid) run; with -D labels=false: generate --wall 3 --no-labels.
#    Pieces 1, 3 and 6 only (each -D takes the same path through every
#    file; the six pieces are covered by the renders above).
# Their asserts: the --wall 3 piece-1.scad with -D wall=0.7 (no room for
# the 0.6 mm engraving) and with -D clearance=2 (more than wall/2) makes
# OpenSCAD fail with that assertion's message; -D wall=0.7 -D labels=false
# still renders a verified solid.
# `cubegen print`: for soma.puz and happycube-blue.puz (also with --wall 3)
# every piece-K.scad renders to the volume of piece-K.stl (puzzle.scad is
# left out: it is the pieces laid out, as checked for generate); for
# bedlam.puz PrusaSlicer finds 13 objects in plate.3mf, each manifold and
# not repaired.
# `cubegen coupon --wall 3`: coupon.3mf holds 10 such objects; each
# coupon-K.scad renders to a verified solid, the five of them to the volume
# of coupon.stl together; and with -D labels=false each to the volume of
# coupon.stl of `coupon --wall 3 --no-labels --clearances C`, C pair K's
# clearance (one pair is that pair; with labels its number would differ).
# And for the size-5 puzzle: plate.stl fits PrusaSlicer's default
# 200 x 200 mm bed, and its `--export-gcode` slices plate.stl, and the
# --wall 3 plate.3mf, without warnings, up to the top of the pieces (a mesh
# it had to "repair" can come out short).
# A missing tool is a failure, never a skip. Prints one line per check and
# `print_check: P passed, F failed`; exits 1 if anything failed.
set -u

pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
finish() {
    echo "print_check: $pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}

if [ -z "${CUBEGEN:-}" ] || [ ! -x "$CUBEGEN" ]; then
    bad "CUBEGEN is not set to an executable cubegen (got '${CUBEGEN:-}')"
    finish
fi
missing=0
for tool in openscad prusa-slicer awk; do
    if ! command -v "$tool" > /dev/null 2>&1; then
        bad "$tool not found: install it (make deps), this test does not skip"
        missing=1
    fi
done
[ "$missing" -eq 0 ] || finish

tmp=$(mktemp -d "${TMPDIR:-/tmp}/print_check.XXXXXX") || { bad "mktemp"; finish; }
trap 'rm -rf "$tmp"' EXIT
out="" # the current puzzle's folder, set by generate()

# Run a command with a time limit when coreutils' timeout is there.
limit() {
    if command -v timeout > /dev/null 2>&1; then timeout 300 "$@"; else "$@"; fi
}

# Generate a puzzle into $tmp/NAME and make it the current one ($out);
# false (after reporting) if that fails or a file is missing.
generate() { # name args...
    local name="$1"
    shift
    out="$tmp/$name"
    if ! "$CUBEGEN" generate "$@" --out "$out" > "$tmp/generate.log" 2>&1; then
        sed 's/^/    /' "$tmp/generate.log"
        bad "cubegen generate $* failed"
        return 1
    fi
    local f
    for f in piece-1.stl piece-2.stl piece-3.stl piece-4.stl piece-5.stl piece-6.stl \
             piece-1.scad piece-2.scad piece-3.scad piece-4.scad piece-5.scad \
             piece-6.scad plate.stl puzzle.scad; do
        if [ ! -s "$out/$f" ]; then
            bad "cubegen generate $* wrote no $f"
            return 1
        fi
    done
}

# The volume `cubegen verify` reports for one file; empty unless it passes.
# Its line reads "FILE: ok, 236 triangles, volume 15966.123 mm^3".
verified_volume() {
    "$CUBEGEN" verify "$1" > "$tmp/verify.log" 2>&1 || return 1
    awk '/: ok, / { for (i = 1; i < NF; i++) if ($i == "volume") { print $(i + 1); exit } }' \
        "$tmp/verify.log"
}

same_volume() { # a b: within 1e-6 relative (+ the 0.001 of printing)
    awk -v a="$1" -v b="$2" 'BEGIN {
        d = a - b; if (d < 0) d = -d
        m = a > b ? a : b
        exit !(a > 0 && b > 0 && d <= 1e-6 * m + 0.001)
    }'
}

# STL from cubegen, and OpenSCAD's render of the matching .scad.
scad_pair() { # name.stl name.scad label
    local stl="$1" scad="$2" label="$3" ours theirs
    if ours=$(verified_volume "$out/$stl") && [ -n "$ours" ]; then
        ok "$label: $stl passes cubegen verify (volume $ours mm^3)"
    else
        sed 's/^/    /' "$tmp/verify.log"
        bad "$label: $stl fails cubegen verify"
        ours=""
    fi
    local rendered="$tmp/${scad%.scad}.openscad.stl"
    if ! limit openscad -q --export-format binstl -o "$rendered" "$out/$scad" \
            > "$tmp/openscad.log" 2>&1; then
        sed 's/^/    /' "$tmp/openscad.log"
        bad "$label: openscad cannot render $scad"
        return
    fi
    if ! theirs=$(verified_volume "$rendered") || [ -z "$theirs" ]; then
        sed 's/^/    /' "$tmp/verify.log"
        bad "$label: OpenSCAD's render of $scad fails cubegen verify"
        return
    fi
    if [ -n "$ours" ] && same_volume "$ours" "$theirs"; then
        ok "$label: OpenSCAD renders $scad to the same volume ($theirs mm^3)"
    else
        bad "$label: OpenSCAD renders $scad to $theirs mm^3, $stl has ${ours:-?} mm^3"
    fi
}

# Every check but the bed and the slicing, on the current puzzle.
check_puzzle() { # label
    local p="$1" k f repairs
    for k in 1 2 3 4 5 6; do
        scad_pair "piece-$k.stl" "piece-$k.scad" "$p: piece $k"
    done
    scad_pair plate.stl puzzle.scad "$p: plate"

    # PrusaSlicer --info: manifold, and none of the counters of its repairs.
    for f in piece-1.stl piece-2.stl piece-3.stl piece-4.stl piece-5.stl piece-6.stl plate.stl; do
        if ! limit prusa-slicer --info "$out/$f" > "$tmp/info.log" 2> "$tmp/info.err"; then
            grep -v '\[trace\]' "$tmp/info.err" | sed 's/^/    /'
            bad "$p: prusa-slicer --info $f failed"
            continue
        fi
        repairs=$(awk -F' *= *' '
            $1 ~ /^(open_edges|edges_fixed|degenerate_facets|facets_removed|facets_added|facets_reversed|backwards_edges|normals_fixed)$/ && $2 + 0 != 0 { printf "%s=%s ", $1, $2 }
            ' "$tmp/info.log")
        if grep -q '^manifold = yes$' "$tmp/info.log" && [ -z "$repairs" ]; then
            ok "$p: prusa-slicer --info $f: manifold = yes, no repairs"
        else
            sed 's/^/    /' "$tmp/info.log"
            bad "$p: prusa-slicer --info $f: not manifold or repaired (${repairs:-manifold = no})"
        fi
        if [ "$f" = plate.stl ]; then
            cp "$tmp/info.log" "$tmp/plate.info"
        fi
    done
}

# The non-default puzzle first, so that plate.info is the size-5 one's.
if generate u8c03 --size 4 --seed 3 --unit 8 --clearance 0.3; then
    check_puzzle "size 4, unit 8, clearance 0.3"
fi
# A box: three plate sizes, turned pieces, a mixed plate.stl.
if generate box456 --size 4x5x6 --seed 3; then
    check_puzzle "box 4x5x6"
fi
generate s5 --size 5 --seed 7 || finish
check_puzzle "size 5"

# The .scad files are parametric: the size-5 ones rendered with unit 8 and
# clearance 0.3 set on OpenSCAD's command line give the solids that
# generate writes for the same puzzle with --unit 8 --clearance 0.3.
s5="$out"
if generate s5u8c03 --size 5 --seed 7 --unit 8 --clearance 0.3; then
    for k in 1 2 3 4 5 6; do
        label="size 5, piece-$k.scad with -D unit=8 -D clearance=0.3"
        rendered="$tmp/param-$k.stl"
        if ! limit openscad -q -D unit=8 -D clearance=0.3 --export-format binstl \
                -o "$rendered" "$s5/piece-$k.scad" > "$tmp/openscad.log" 2>&1; then
            sed 's/^/    /' "$tmp/openscad.log"
            bad "$label: openscad cannot render it"
            continue
        fi
        theirs=$(verified_volume "$rendered")
        ours=$(verified_volume "$out/piece-$k.stl")
        if [ -n "$theirs" ] && [ -n "$ours" ] && same_volume "$ours" "$theirs"; then
            ok "$label: the volume of that piece-$k.stl ($theirs mm^3)"
        else
            sed 's/^/    /' "$tmp/verify.log"
            bad "$label: ${theirs:-?} mm^3, that piece-$k.stl has ${ours:-?} mm^3"
        fi
    done
fi
out="$s5"

# The plate on PrusaSlicer's default 200 x 200 mm bed.
size() { awk -F' *= *' -v k="$1" '$1 == k { print $2 + 0 }' "$tmp/plate.info" 2> /dev/null; }
sx=$(size size_x)
sy=$(size size_y)
sz=$(size size_z)
if [ -n "$sx" ] && [ -n "$sy" ] && awk -v x="$sx" -v y="$sy" 'BEGIN { exit !(x > 0 && y > 0 && x <= 200 && y <= 200) }'; then
    ok "plate.stl is $sx x $sy mm: fits a 200 x 200 mm bed"
else
    bad "plate.stl is ${sx:-?} x ${sy:-?} mm: does not fit a 200 x 200 mm bed"
fi

# Slice it: success, no warnings, and layers up to the top of the pieces.
gcode="$tmp/plate.gcode"
if limit prusa-slicer --export-gcode -o "$gcode" "$out/plate.stl" > "$tmp/slice.log" 2>&1 &&
    [ -s "$gcode" ]; then
    warnings=$(grep -v '\[trace\]\|\[debug\]' "$tmp/slice.log" | grep -i 'warn\|error')
    top=$(awk -F: '/^;Z:/ { z = $2 + 0 } END { print z + 0 }' "$gcode")
    lh=$(awk -F' *= *' '/^; layer_height =/ { print $2 + 0 }' "$gcode")
    if [ -n "$warnings" ]; then
        echo "$warnings" | sed 's/^/    /'
        bad "prusa-slicer --export-gcode plate.stl warns"
    elif ! awk -v t="$top" -v h="${sz:-0}" -v l="${lh:-0.3}" 'BEGIN { exit !(h > 0 && t >= h - l) }'; then
        bad "prusa-slicer --export-gcode plate.stl: layers stop at z = $top, the plate is ${sz:-?} mm high"
    else
        ok "prusa-slicer --export-gcode plate.stl: sliced to z = $top mm without warnings"
    fi
else
    grep -v '\[trace\]\|\[debug\]' "$tmp/slice.log" | sed 's/^/    /'
    bad "prusa-slicer --export-gcode plate.stl failed"
fi

finish
