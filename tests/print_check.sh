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
# `cubegen print`: for soma.puz, happycube-blue.puz (also with --wall 3)
# and notched.puz (--clearance 2; its pieces have notched corners)
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
if [ -z "${DATA:-}" ] || [ ! -f "$DATA/soma.puz" ]; then
    bad "DATA is not set to tests/data/classic (got '${DATA:-}')"
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
out="" # the current puzzle's folder, set by generate(), print_puzzle(), coupon()

# Run a command with a time limit when coreutils' timeout is there.
limit() {
    if command -v timeout > /dev/null 2>&1; then timeout 300 "$@"; else "$@"; fi
}

# Run `cubegen CMD ARGS --out $tmp/NAME` and make that the current folder
# ($out); false (after reporting) if it fails or one of FILES is missing.
run_into() { # name "files" cmd args...
    local name="$1" files="$2" f
    shift 2
    out="$tmp/$name"
    if ! "$CUBEGEN" "$@" --out "$out" > "$tmp/cubegen.log" 2>&1; then
        sed 's/^/    /' "$tmp/cubegen.log"
        bad "cubegen $* failed"
        return 1
    fi
    for f in $files; do
        if [ ! -s "$out/$f" ]; then
            bad "cubegen $* wrote no $f"
            return 1
        fi
    done
}

# The files of N pieces: piece-1.stl piece-1.scad ... piece-N.scad.
piece_files() { # n
    local k
    for k in $(seq 1 "$1"); do printf 'piece-%s.stl piece-%s.scad ' "$k" "$k"; done
}

# Generate a puzzle into $tmp/NAME and make it the current one ($out).
generate() { # name args...
    local name="$1"
    shift
    run_into "$name" "$(piece_files 6) plate.stl plate.3mf puzzle.scad" generate "$@"
}

# `cubegen print` a puzzle file of N pieces into $tmp/NAME ($out).
print_puzzle() { # name n args...
    local name="$1" n="$2"
    shift 2
    run_into "$name" "$(piece_files "$n") plate.stl plate.3mf puzzle.scad pieces.txt" print "$@" &&
        if [ -e "$out/piece-$((n + 1)).stl" ]; then
            bad "cubegen print $* wrote more than $n pieces"
            return 1
        fi
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

# OpenSCAD's render of SCAD (with OpenSCAD options such as -D x=1) to
# $tmp/render.stl, verified: its volume in $rendered_volume, or false
# after reporting.
rendered_volume=""
render() { # scad label openscad-options...
    local scad="$1" label="$2" rendered="$tmp/render.stl"
    shift 2
    rendered_volume=""
    rm -f "$rendered"
    if ! limit openscad -q "$@" --export-format binstl -o "$rendered" "$scad" \
            > "$tmp/openscad.log" 2>&1; then
        sed 's/^/    /' "$tmp/openscad.log"
        bad "$label: openscad cannot render ${scad##*/}"
        return 1
    fi
    if ! rendered_volume=$(verified_volume "$rendered") || [ -z "$rendered_volume" ]; then
        sed 's/^/    /' "$tmp/verify.log"
        bad "$label: OpenSCAD's render of ${scad##*/} fails cubegen verify"
        return 1
    fi
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
    render "$out/$scad" "$label" || return
    theirs="$rendered_volume"
    if [ -n "$ours" ] && same_volume "$ours" "$theirs"; then
        ok "$label: OpenSCAD renders $scad to the same volume ($theirs mm^3)"
    else
        bad "$label: OpenSCAD renders $scad to $theirs mm^3, $stl has ${ours:-?} mm^3"
    fi
}

# A .scad rendered with -D settings against the STL that cubegen writes
# with the matching options (both absolute paths).
scad_param() { # scad stl label openscad-options...
    local scad="$1" stl="$2" label="$3" ours theirs
    shift 3
    render "$scad" "$label" "$@" || return
    theirs="$rendered_volume"
    ours=$(verified_volume "$stl")
    if [ -n "$ours" ] && same_volume "$ours" "$theirs"; then
        ok "$label: the volume of that ${stl##*/} ($theirs mm^3)"
    else
        sed 's/^/    /' "$tmp/verify.log"
        bad "$label: $theirs mm^3, that ${stl##*/} has ${ours:-?} mm^3"
    fi
}

# A .scad whose -D settings break one of its asserts: OpenSCAD fails and
# says which (its message contains WHAT).
scad_assert() { # scad what label openscad-options...
    local scad="$1" what="$2" label="$3"
    shift 3
    rm -f "$tmp/assert.stl"
    if limit openscad -q "$@" --export-format binstl -o "$tmp/assert.stl" "$scad" \
            > "$tmp/openscad.log" 2>&1; then
        bad "$label: openscad renders it, no assert stops it"
    elif grep -q "Assertion .* failed: .*$what" "$tmp/openscad.log"; then
        ok "$label: openscad fails: $(sed -n 's/.*failed: "\([^"]*\)".*/\1/p' "$tmp/openscad.log" | head -n 1)"
    else
        sed 's/^/    /' "$tmp/openscad.log"
        bad "$label: openscad fails without the assert on '$what'"
    fi
}

# The counters of PrusaSlicer's repairs in an --info log, "name=value ...";
# empty when it repaired nothing.
repairs_in() { # info.log
    awk -F' *= *' '
        $1 ~ /^(open_edges|edges_fixed|degenerate_facets|facets_removed|facets_added|facets_reversed|backwards_edges|normals_fixed)$/ && $2 + 0 != 0 { printf "%s=%s ", $1, $2 }
        ' "$1"
}

# PrusaSlicer --info on the current folder's FILE into $tmp/info.log, or
# false after reporting.
prusa_info() { # file label
    if ! limit prusa-slicer --info "$out/$1" > "$tmp/info.log" 2> "$tmp/info.err"; then
        grep -v '\[trace\]' "$tmp/info.err" | sed 's/^/    /'
        bad "$2: prusa-slicer --info $1 failed"
        return 1
    fi
}

# PrusaSlicer --info on an STL: manifold, and none of its repairs.
info_stl() { # file label
    local f="$1" p="$2" repairs
    prusa_info "$f" "$p" || return
    repairs=$(repairs_in "$tmp/info.log")
    if grep -q '^manifold = yes$' "$tmp/info.log" && [ -z "$repairs" ]; then
        ok "$p: prusa-slicer --info $f: manifold = yes, no repairs"
    else
        sed 's/^/    /' "$tmp/info.log"
        bad "$p: prusa-slicer --info $f: not manifold or repaired (${repairs:-manifold = no})"
    fi
}

# PrusaSlicer --info on a 3MF: one "[FILE]" block per object, N of them,
# each manifold, none repaired. The log is kept as $tmp/NAME-FILE.info
# (NAME the current folder's).
info_3mf() { # file n label
    local f="$1" n="$2" p="$3" objects manifold repairs
    prusa_info "$f" "$p" || return
    cp "$tmp/info.log" "$tmp/${out##*/}-$f.info"
    objects=$(awk -v h="[$f]" '$0 == h { n++ } END { print n + 0 }' "$tmp/info.log")
    manifold=$(grep -c '^manifold = yes$' "$tmp/info.log")
    repairs=$(repairs_in "$tmp/info.log")
    if [ "$objects" -eq "$n" ] && [ "$manifold" -eq "$n" ] && [ -z "$repairs" ]; then
        ok "$p: prusa-slicer --info $f: $n objects, each manifold = yes, no repairs"
    else
        sed 's/^/    /' "$tmp/info.log"
        bad "$p: prusa-slicer --info $f: $objects objects ($n expected), $manifold manifold${repairs:+, repairs $repairs}"
    fi
}

# Every check but the bed and the slicing, on the current puzzle.
check_puzzle() { # label
    local p="$1" k f
    for k in 1 2 3 4 5 6; do
        scad_pair "piece-$k.stl" "piece-$k.scad" "$p: piece $k"
    done
    scad_pair plate.stl puzzle.scad "$p: plate"

    # PrusaSlicer --info: manifold, and none of the counters of its repairs.
    for f in piece-1.stl piece-2.stl piece-3.stl piece-4.stl piece-5.stl piece-6.stl plate.stl; do
        info_stl "$f" "$p"
        if [ "$f" = plate.stl ]; then
            cp "$tmp/info.log" "$tmp/plate.info"
        fi
    done
    info_3mf plate.3mf 6 "$p"
}

# The non-default puzzles first, so that plate.info is the size-5 one's.
if generate u8c03 --size 4 --seed 3 --unit 8 --clearance 0.3; then
    check_puzzle "size 4, unit 8, clearance 0.3"
fi
# A box: three plate sizes, turned pieces, a mixed plate.stl.
if generate box456 --size 4x5x6 --seed 3; then
    check_puzzle "box 4x5x6"
fi
# Thin plates: wall layers 3 mm, unit layers 10 mm, in three sizes of plate.
if generate box456w3 --size 4x5x6 --seed 3 --wall 3; then
    check_puzzle "box 4x5x6, wall 3"
fi
w3=""
if generate s5w3 --size 5 --seed 7 --wall 3; then
    w3="$out"
    check_puzzle "size 5, wall 3"
fi
generate s5 --size 5 --seed 7 || finish
check_puzzle "size 5"

# The .scad files are parametric: the size-5 ones rendered with unit 8 and
# clearance 0.3 set on OpenSCAD's command line give the solids that
# generate writes for the same puzzle with --unit 8 --clearance 0.3. The
# default wall is the unit, so it is set too.
s5="$out"
if generate s5u8c03 --size 5 --seed 7 --unit 8 --clearance 0.3; then
    for k in 1 2 3 4 5 6; do
        scad_param "$s5/piece-$k.scad" "$out/piece-$k.stl" \
            "size 5, piece-$k.scad with -D unit=8 -D wall=8 -D clearance=0.3" \
            -D unit=8 -D wall=8 -D clearance=0.3
    done
fi

# And the --wall 3 ones: unit and clearance, the wall, the labels.
if [ -n "$w3" ]; then
    if generate s5w3u8c03 --size 5 --seed 7 --wall 3 --unit 8 --clearance 0.3; then
        for k in 1 3 6; do
            scad_param "$w3/piece-$k.scad" "$out/piece-$k.stl" \
                "size 5, wall 3, piece-$k.scad with -D unit=8 -D clearance=0.3" \
                -D unit=8 -D clearance=0.3
        done
    fi
    for k in 1 3 6; do
        scad_param "$w3/piece-$k.scad" "$s5/piece-$k.stl" \
            "size 5, wall 3, piece-$k.scad with -D wall=10 (the default run's)" -D wall=10
    done
    if generate s5w3nl --size 5 --seed 7 --wall 3 --no-labels; then
        for k in 1 3 6; do
            scad_param "$w3/piece-$k.scad" "$out/piece-$k.stl" \
                "size 5, wall 3, piece-$k.scad with -D labels=false" -D labels=false
        done
    fi

    # The asserts: the 0.6 mm engraving needs wall - clearance > 0.6; the
    # clearance must stay under wall/2.
    scad_assert "$w3/piece-1.scad" "label_depth" \
        "size 5, wall 3, piece-1.scad with -D wall=0.7" -D wall=0.7
    scad_assert "$w3/piece-1.scad" "wall/2" \
        "size 5, wall 3, piece-1.scad with -D clearance=2" -D clearance=2
    if render "$w3/piece-1.scad" "size 5, wall 3, piece-1.scad with -D wall=0.7 -D labels=false" \
            -D wall=0.7 -D labels=false; then
        ok "size 5, wall 3, piece-1.scad with -D wall=0.7 -D labels=false: renders ($rendered_volume mm^3)"
    fi
fi

# `cubegen print`: the pieces of any puzzle file, with and without walls.
if print_puzzle soma 7 "$DATA/soma.puz"; then
    for k in 1 2 3 4 5 6 7; do
        scad_pair "piece-$k.stl" "piece-$k.scad" "print soma.puz: piece $k"
    done
fi
if print_puzzle blue 6 "$DATA/happycube-blue.puz"; then
    for k in 1 2 3 4 5 6; do
        scad_pair "piece-$k.stl" "piece-$k.scad" "print happycube-blue.puz: piece $k"
    done
fi
if print_puzzle blue3 6 "$DATA/happycube-blue.puz" --wall 3; then
    for k in 1 2 3 4 5 6; do
        scad_pair "piece-$k.stl" "piece-$k.scad" "print happycube-blue.puz --wall 3: piece $k"
    done
fi
# Pieces with a notched corner (mesh.h): with clearance 2 each notch
# takes 2 mm^3, far above same_volume()'s tolerance, so the .scad must cut
# the same notch as the STL.
if print_puzzle notched 2 "$DATA/notched.puz" --clearance 2; then
    info_3mf plate.3mf 2 "print notched.puz --clearance 2"
    for k in 1 2; do
        info_stl "piece-$k.stl" "print notched.puz --clearance 2"
        scad_pair "piece-$k.stl" "piece-$k.scad" "print notched.puz --clearance 2: piece $k"
    done
fi
if print_puzzle bedlam 13 "$DATA/bedlam.puz"; then
    info_3mf plate.3mf 13 "print bedlam.puz"
fi
# A colour puzzle: pieces of several colours are meshed by colour and
# carry per-triangle colours in plate.3mf, which PrusaSlicer must still
# read as 9 manifold objects without repairs; the .scad files stay plain.
if print_puzzle mix 9 "$DATA/colour-mix.puz"; then
    info_3mf plate.3mf 9 "print colour-mix.puz"
    for k in 1 2 3; do
        scad_pair "piece-$k.stl" "piece-$k.scad" "print colour-mix.puz: piece $k"
    done
fi

# `cubegen coupon --wall 3`: five pairs, each a tab and a slot.
coupon_files="coupon.stl coupon.3mf coupon.txt"
if run_into coupon "$coupon_files coupon-1.scad coupon-2.scad coupon-3.scad coupon-4.scad coupon-5.scad" \
        coupon --wall 3; then
    info_3mf coupon.3mf 10 "coupon --wall 3"
    coupons="$out"
    sum=0
    rendered=0
    for k in 1 2 3 4 5; do
        if render "$coupons/coupon-$k.scad" "coupon --wall 3: pair $k"; then
            ok "coupon --wall 3: OpenSCAD renders coupon-$k.scad to a verified solid ($rendered_volume mm^3)"
            sum=$(awk -v s="$sum" -v v="$rendered_volume" 'BEGIN { printf "%.3f", s + v }')
            rendered=$((rendered + 1))
        fi
    done
    [ "$rendered" -eq 5 ] || sum=""
    if all=$(verified_volume "$coupons/coupon.stl") && [ -n "$all" ] && [ -n "$sum" ] &&
        same_volume "$all" "$sum"; then
        ok "coupon --wall 3: coupon-1.scad ... coupon-5.scad render to the volume of coupon.stl ($all mm^3)"
    else
        bad "coupon --wall 3: coupon-1.scad ... coupon-5.scad render to ${sum:-?} mm^3 in all, coupon.stl has ${all:-?} mm^3"
    fi
    for k in 1 2 3 4 5; do
        c=$(awk -v k="$k" '$1 == k { print $2 }' "$coupons/coupon.txt")
        if [ -z "$c" ]; then
            bad "coupon --wall 3: coupon.txt has no clearance for pair $k"
            continue
        fi
        if run_into "coupon$k" "$coupon_files" coupon --wall 3 --no-labels --clearances "$c"; then
            scad_param "$coupons/coupon-$k.scad" "$out/coupon.stl" \
                "coupon --wall 3, coupon-$k.scad with -D labels=false (clearance $c)" -D labels=false
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
slice() { # path height label
    local f="$1" h="$2" p="$3" gcode="$tmp/plate.gcode" warnings top lh
    rm -f "$gcode"
    if limit prusa-slicer --export-gcode -o "$gcode" "$f" > "$tmp/slice.log" 2>&1 &&
        [ -s "$gcode" ]; then
        warnings=$(grep -v '\[trace\]\|\[debug\]' "$tmp/slice.log" | grep -i 'warn\|error')
        top=$(awk -F: '/^;Z:/ { z = $2 + 0 } END { print z + 0 }' "$gcode")
        lh=$(awk -F' *= *' '/^; layer_height =/ { print $2 + 0 }' "$gcode")
        if [ -n "$warnings" ]; then
            echo "$warnings" | sed 's/^/    /'
            bad "prusa-slicer --export-gcode $p warns"
        elif ! awk -v t="$top" -v h="${h:-0}" -v l="${lh:-0.3}" 'BEGIN { exit !(h > 0 && t >= h - l) }'; then
            bad "prusa-slicer --export-gcode $p: layers stop at z = $top, the plate is ${h:-?} mm high"
        else
            ok "prusa-slicer --export-gcode $p: sliced to z = $top mm without warnings"
        fi
    else
        grep -v '\[trace\]\|\[debug\]' "$tmp/slice.log" | sed 's/^/    /'
        bad "prusa-slicer --export-gcode $p failed"
    fi
}
slice "$out/plate.stl" "$sz" plate.stl
# The thin plates as plate.3mf: as high as its highest object.
if [ -n "$w3" ] && [ -f "$tmp/s5w3-plate.3mf.info" ]; then
    h=$(awk -F' *= *' '$1 == "max_z" && $2 + 0 > h { h = $2 + 0 } END { print h + 0 }' \
        "$tmp/s5w3-plate.3mf.info")
    slice "$w3/plate.3mf" "$h" "plate.3mf (size 5, wall 3)"
fi

finish
