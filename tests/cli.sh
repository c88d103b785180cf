#!/usr/bin/env bash
# cli.sh: command-line tests for cubegen: help, version, every kind of bad
# argument, solve/check answers, golden outputs, and output folders that are
# never left half-written.
#
# Run by `make test` as: CUBEGEN=/abs/cubegen DATA=/abs/tests/data/classic bash tests/cli.sh
# With WRAP set (e.g. to a valgrind command line), every cubegen runs under it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
CUBEGEN=${CUBEGEN:?set CUBEGEN to the cubegen binary}
DATA=${DATA:?set DATA to tests/data/classic}
tmp=$(mktemp -d)
mounted=""
cleanup() {
	[ -n "$mounted" ] && umount "$mounted" 2>/dev/null
	chmod -R u+w "$tmp" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
. "$here/tools/clilib.sh"

# --- help and version -------------------------------------------------------
run 0 --help && contains "$out" "generate" "--help"
run 0 --version && contains "$out" "cubegen 0." "--version"
for c in generate solve check render verify print coupon merge; do
	run 0 "$c" --help && contains "$out" "usage: cubegen $c" "$c --help"
done
run 2 && contains "$err" "usage: cubegen" "no arguments"

# --- bad arguments ----------------------------------------------------------
usage_error frobnicate
usage_error generate --size
usage_error generate --size 2
usage_error generate --size 65
usage_error generate --size abc
usage_error generate --size 5x
for bad_size in 2x5x5 4x5 4x5x65 4x5x6x7 axbxc '' x4x5 4xx5 ' 5' 5x5x5x; do
	usage_error generate --size "$bad_size"
	contains "$err" "expected N or XxYxZ" "--size '$bad_size' says what a size may be"
done
usage_error generate --seed -1
usage_error generate --seed 18446744073709551616
usage_error generate --seed 99999999999999999999999
usage_error generate --seed ''
usage_error generate --max-attempts 0
usage_error generate --unit 0
usage_error generate --unit -3
usage_error generate --unit abc
usage_error generate --clearance 5
usage_error generate --clearance -0.1
usage_error generate --bogus
usage_error generate extra-argument
usage_error solve
usage_error solve --max 0 "$DATA/soma.puz"
usage_error solve --bogus "$DATA/soma.puz"
usage_error solve "$DATA/soma.puz" "$DATA/soma.puz"
usage_error check
usage_error solve "$tmp/does-not-exist.puz"
contains "$err" "does-not-exist.puz: No such file or directory" "missing file"
# a control character in a BurrTools voxel string is shown escaped: the
# error stays one line
gzip -dc "$here/data/burr/PelikanBurr.xmpuzzle" |
	python3 -c 'import sys; s=sys.stdin.read(); j=s.index(">", s.index("<voxel"))+1; sys.stdout.write(s[:j+5]+"\n"+s[j+6:])' \
	>"$tmp/nl.xmpuzzle"
usage_error solve "$tmp/nl.xmpuzzle" && contains "$err" "unexpected '\\n' at voxel" "a newline in a voxel string escaped"
printf 'puzzle v1\ngoal 2 1 1\n##\npiece A 1 1 1 count 0\n#\n' >"$tmp/bad.puz"
usage_error solve "$tmp/bad.puz"
contains "$err" "bad.puz:4:" "bad count names the line"
usage_error check "$tmp/bad.puz"
# Each kind of bad puzzle file: exit 2, one line "cubegen: FILE:LINE:COL: ..."
bad_puz() { # bad_puz NAME LINE CONTENT...
	local name=$1 line=$2
	shift 2
	printf "$@" >"$tmp/$name"
	usage_error solve "$tmp/$name"
	if [[ "$err" == "cubegen: $tmp/$name:$line:"[0-9]*": "* ]]; then ok; else
		bad "$name: expected an error at line $line, got: $err"
	fi
}
bad_puz header.puz 2 'puzzle v1\nbogus line\ngoal 1 1 1\n#\n'
bad_puz rowlen.puz 4 'puzzle v1\ngoal 2 2 1\n##\n#\n'
bad_puz char.puz 3 'puzzle v1\ngoal 2 1 1\n#?\npiece A 1 1 1\n#\n'
bad_puz dims.puz 2 'puzzle v1\ngoal 0 1 1\n'
bad_puz absurd.puz 2 'puzzle v1\ngoal 100000 1 1\n'
bad_puz extra.puz 6 'puzzle v1\ngoal 1 1 1\n#\npiece A 1 1 1\n#\ntrailing\n'
bad_puz toobig.puz 4 'puzzle v1\ngoal 1 1 1\n#\npiece A 2 1 1\n##\n'
bad_puz lonecr.puz 2 'puzzle v1\ngoal 1 1 1\r#\n'
printf '' >"$tmp/empty.puz"
usage_error solve "$tmp/empty.puz"
printf 'puzzle v1\0\001\002' >"$tmp/binary.puz"
usage_error solve "$tmp/binary.puz"
printf 'puzzle v1\r\ngoal 1 1 1\r\n#\r\npiece A 1 1 1\r\n#\r\n' >"$tmp/crlf.puz"
run 0 solve "$tmp/crlf.puz" && contains "$out" "solutions: 1" "CRLF accepted"
printf 'NAME: x\nNUM_TILES: 5\n' >"$tmp/bad.hcq"
usage_error solve "$tmp/bad.hcq"

# --- solve and check --------------------------------------------------------
run 0 solve "$DATA/soma.puz" && contains "$out" "solutions: 240" "soma" &&
	contains "$out" "assemblies: 11520" "soma assemblies"
run 0 solve "$DATA/soma.puz" --json
if [[ "$out" == "{"*"\"solutions\": 240"*"\"assemblies\": 11520"*"\"complete\": true"*"\"nodes\": "*"\"seconds\": "*"}" ]] &&
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ]; then ok; else bad "soma --json: $out"; fi
if command -v python3 >/dev/null; then
	if printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["solutions"]==240' 2>/dev/null; then ok; else bad "json does not parse: $out"; fi
fi
run 0 solve "$DATA/soma.puz" --max 3 && contains "$out" "solutions: at least" "--max lower bound"
run 0 solve "$DATA/soma.puz" --max 3 --json && contains "$out" '"complete": false' "--max json"
run 0 solve "$DATA/soma.puz" --print && contains "$out" "z = 2" "--print layers"

# examples/: every puzzle a user is pointed to counts as examples/README.md
# says (the ones that take seconds are left to make bench).
examples=$here/../examples
while IFS='|' read -r _ file _ sols asms time _; do
	file=$(echo "$file" | tr -d ' `')
	sols=$(echo "$sols" | tr -d ' ')
	asms=$(echo "$asms" | tr -d ' ')
	case "$file" in *.puz|*.hcq) ;; *) continue ;; esac
	[[ "$time" == *" s "* ]] && continue
	if run 0 solve "$examples/$file" --json &&
	   [[ "$out" == *"\"solutions\": $sols,"* ]] &&
	   [[ "$out" == *"\"assemblies\": $asms,"* ]]; then
		ok
	else
		bad "examples/$file: expected $sols solutions, $asms assemblies: $out"
	fi
done <"$examples/README.md"
[ "$(ls "$examples"/*.puz "$examples"/*.hcq | wc -l)" -ge 7 ] && ok || bad "examples missing"

# --print: every symbol drawn is explained, and every piece of the file is
# drawn (with its count of cells). legend_complete FILE
legend_complete() {
	run 0 solve "$1" --print || return
	if printf '%s\n' "$out" | python3 -c '
import re, sys
text = sys.stdin.read()
puz = open(sys.argv[1]).read().split("\n")
pieces = []  # (name, count, cells)
i = 0
while i < len(puz):
    f = puz[i].split()
    if f and f[0] == "piece":
        nx, ny, nz = int(f[2]), int(f[3]), int(f[4])
        count = int(f[6]) if len(f) > 6 else 1
        rows = [r for r in puz[i + 1:i + 1 + nz * (ny + 1)] if r and r[0] in "#."]
        pieces.append((f[1], count, sum(r.count("#") for r in rows[:ny * nz])))
    i += 1
drawing = text.split("first solution:\n", 1)[1]
lines = drawing.split("\n")
if lines[0].startswith("pieces:"):
    legend = {}
    for e in lines[0].split()[1:]:
        sym, name = e.split("=", 1)
        legend[sym] = re.sub(r"\(x\d+\)$", "", name)
    lines = lines[1:]
else:
    legend = {p[0]: p[0] for p in pieces}
cells = {}
for l in lines:
    if l.startswith("z = ") or not l:
        continue
    for ch in l:
        if ch != ".":
            cells[ch] = cells.get(ch, 0) + 1
for ch in cells:
    assert ch in legend, "symbol %r drawn but not explained" % ch
byname = {legend[ch]: n for ch, n in cells.items()}
for name, count, n in pieces:
    assert byname.get(name) == count * n, "piece %s: %s cells drawn, %d expected" % (name, byname.get(name), count * n)
' "$1"; then ok; else bad "--print legend of $1: $out"; fi
}
printf 'puzzle v1\ngoal 3 2 1\n###\n###\npiece Lone 2 2 1\n##\n#.\npiece Ltwo 2 2 1\n#.\n##\n' >"$tmp/twoL.puz"
printf 'puzzle v1\ngoal 4 2 1\n####\n####\npiece Ell 2 2 1 count 2\n##\n#.\npiece dom 2 1 1\n##\n' >"$tmp/count2.puz"
for f in "$tmp/twoL.puz" "$tmp/count2.puz" "$DATA/soma.puz" "$DATA/happycube-blue.puz" \
         "$DATA/HC_BQ_001.puz" "$DATA/pentacubes-2x3x10.puz"; do
	legend_complete "$f"
done
run 0 solve "$DATA/HC_BQ_001.hcq" && contains "$out" "solutions: 1" "hcq" &&
	contains "$out" "assemblies: 48" "hcq assemblies"
run 0 solve "$DATA/happycube-blue.puz" && contains "$out" "solutions: 3" "blue"
run 0 check "$DATA/HC_BQ_001.puz" && contains "$out" "unique" "check unique"
run 1 check "$DATA/happycube-blue.puz" && contains "$out" "not unique" "check blue"
printf 'puzzle v1\ngoal 3 1 1\n###\npiece A 2 1 1\n##\n' >"$tmp/short.puz"
run 0 solve "$tmp/short.puz" && contains "$out" "solutions: 0" "unsolvable" &&
	contains "$out" "2 cells, the goal 3" "unsolvable says why"
run 1 check "$tmp/short.puz" && contains "$out" "no solution" "check none"

# --- generate: files, determinism, golden bytes -----------------------------
run 0 generate --size 5 --seed 42 --out "$tmp/g1" && contains "$out" "seed: 42" "generate prints seed" &&
	contains "$out" "attempts: " "generate prints attempts"
for f in puzzle.puz puzzle.xmpuzzle solution.txt preview.png solution.png; do
	[ -s "$tmp/g1/$f" ] && ok || bad "generate did not write $f"
done
run 0 check "$tmp/g1/puzzle.puz" || true
# the viewer's pages (tests/viewer.sh opens them in a browser): the pieces
# page holds the six pieces and nothing of the answer; the answer page
# holds them placed, and the six steps of solution.txt in its words
for f in pieces.html solution.html; do
	[ -s "$tmp/g1/$f" ] && ok || bad "generate did not write $f"
done
grep -q '"page": "pieces"' "$tmp/g1/pieces.html" && ok || bad "pieces.html: not a pieces page"
grep -q '"steps"\|(-Z)\|piece 1\.' "$tmp/g1/pieces.html" && bad "pieces.html holds the answer" || ok
[ "$(grep -o '"name": "[0-9]*"' "$tmp/g1/pieces.html" | wc -l)" = 6 ] && ok || bad "pieces.html: not 6 pieces"
grep -q '"page": "solution"' "$tmp/g1/solution.html" && ok || bad "solution.html: not a solution page"
while IFS= read -r line; do
	grep -qF "$line" "$tmp/g1/solution.html" && ok || bad "solution.html lacks: $line"
done < <(grep -E '^(bottom|top|front|back|left|right) \(' "$tmp/g1/solution.txt")
grep -q 'http:\|https:\|src=' "$tmp/g1/pieces.html" && bad "pieces.html loads something" || ok
run 0 generate --size 5 --seed 42 --out "$tmp/g2"
if diff -r "$tmp/g1" "$tmp/g2" >/dev/null; then ok; else bad "same seed, different files"; fi
# golden/sizeN-seedS[-OPTION...]: the files of generate --size N --seed S
# with --OPTION for each suffix (nolabels: --no-labels, wall3: --wall 3)
for golden in "$here"/golden/*; do
	name=$(basename "$golden")            # e.g. size5-seed42-wall3
	size=${name#size}; size=${size%%-*}
	seed=${name#*-seed}; seed=${seed%%-*}
	opts=()
	case $name in *-nolabels*) opts+=(--no-labels) ;; esac
	case $name in *-wall3*) opts+=(--wall 3) ;; esac
	run 0 generate --size "$size" --seed "$seed" "${opts[@]}" --out "$tmp/gold-$name" || continue
	for f in "$golden"/*; do
		if cmp -s "$f" "$tmp/gold-$name/$(basename "$f")"; then ok; else
			bad "golden $name/$(basename "$f") differs (the seed stream or a format changed)"
		fi
	done
done
# --- boxes ------------------------------------------------------------------
run 0 generate --size 5x5x5 --seed 42 --out "$tmp/g555"
if diff -r "$tmp/g1" "$tmp/g555" >/dev/null; then ok; else bad "--size 5x5x5 differs from --size 5"; fi
run 0 generate --size 4x5x6 --seed 3 --out "$tmp/box" && contains "$out" "size: 4x5x6" "box size printed"
for f in puzzle.puz solution.txt preview.png solution.png plate.stl puzzle.scad \
         piece-1.stl piece-6.stl piece-1.scad piece-6.scad; do
	[ -s "$tmp/box/$f" ] && ok || bad "box generate did not write $f"
done
grep -q '^size 4 5 6$' "$tmp/box/puzzle.puz" && ok || bad "box puzzle.puz lacks 'size 4 5 6'"
grep -q '^bottom (-Z, 4x5): piece ' "$tmp/box/solution.txt" && ok || bad "box answer names faces by size"
grep -q '^front (-Y, 4x6): piece ' "$tmp/box/solution.txt" && ok || bad "box answer: front 4x6"
grep -q '^left (-X, 5x6): piece ' "$tmp/box/solution.txt" && ok || bad "box answer: left 5x6"
run 0 generate --size 4x5x6 --seed 3 --out "$tmp/box2"
if diff -r "$tmp/box" "$tmp/box2" >/dev/null; then ok; else bad "box: same seed, different files"; fi
run 0 generate --size 6x5x4 --seed 3 --out "$tmp/box3"
if diff -q "$tmp/box/puzzle.puz" "$tmp/box3/puzzle.puz" >/dev/null; then bad "6x5x4 = 4x5x6"; else ok; fi
run 0 check "$tmp/box/puzzle.puz" && contains "$out" "unique" "box check"
run 0 solve "$tmp/box/puzzle.puz" --json && contains "$out" '"symmetries": 8,' "box group 8" &&
	contains "$out" '"solutions": 1,' "box unique"
run 0 generate --size 4x4x6 --seed 1 --out "$tmp/prism"
run 0 solve "$tmp/prism/puzzle.puz" --json && contains "$out" '"symmetries": 16,' "square prism group 16"
run 0 solve "$tmp/g1/puzzle.puz" --json && contains "$out" '"symmetries": 48,' "cube group 48"
run 0 generate --size 3x3x12 --seed 2 --out "$tmp/thin" --max-attempts 100000
run 0 render "$tmp/box/puzzle.puz" --out "$tmp/box-render"
[ -s "$tmp/box-render/solution.png" ] && ok || bad "render of a box puzzle"
# a file written before boxes existed ('size N') still reads
run 0 solve "$here/golden/size5-seed42/puzzle.puz" && contains "$out" "solutions: 1" "old size N file"

run 0 generate --size 3 --seed 1 --out "$tmp/small"
run 0 generate --size 12 --seed 5 --out "$tmp/big"
run 0 generate --out "$tmp/noseed" && contains "$out" "seed: " "seed drawn and printed"
seed=$(printf '%s\n' "$out" | sed -n 's/^seed: //p')
run 0 generate --seed "$seed" --out "$tmp/noseed2"
if diff -r "$tmp/noseed" "$tmp/noseed2" >/dev/null; then ok; else bad "printed seed does not reproduce"; fi
run 0 generate --seed 18446744073709551615 --out "$tmp/maxseed"
run 1 generate --size 3 --seed 7 --max-attempts 1 --out "$tmp/few" && contains "$err" "no unique puzzle" "attempts exhausted"
[ ! -e "$tmp/few" ] && ok || bad "failed generate left $tmp/few"

# --- walls, labels, 3MF ------------------------------------------------------
# verify_all DIR WHAT: every STL in DIR passes cubegen's own checks
verify_all() {
	if run 0 verify "$1"/*.stl; then ok; else bad "$2: an STL failed verify"; fi
}
# 3mf_objects FILE: the names of the objects in a 3MF (unzip + grep)
threemf_objects() {
	unzip -p "$1" 3D/3dmodel.model | grep -o '<object [^>]*name="[^"]*"' |
		sed 's/.*name="\([^"]*\)"/\1/' | tr '\n' ' '
}
for f in plate.3mf piece-1.stl piece-1.scad; do
	[ -s "$tmp/g1/$f" ] && ok || bad "generate did not write $f"
done
[ "$(threemf_objects "$tmp/g1/plate.3mf")" = "piece-1 piece-2 piece-3 piece-4 piece-5 piece-6 " ] &&
	ok || bad "plate.3mf objects: $(threemf_objects "$tmp/g1/plate.3mf")"
unzip -p "$tmp/g1/plate.3mf" 3D/3dmodel.model | grep -q 'unit="millimeter"' && ok || bad "3mf unit"
run 0 generate --size 5 --seed 42 --wall 3 --out "$tmp/w3" && verify_all "$tmp/w3" "--wall 3"
# plate.3mf read back by Python's zipfile and ElementTree: object K is
# exactly piece-K.stl, triangle for triangle
for d in g1 w3; do
	if python3 "$here/tools/same3mf.py" "$tmp/$d/plate.3mf" "$tmp/$d"/piece-{1,2,3,4,5,6}.stl >"$tmp/same3mf.out" 2>&1
	then ok; else bad "$d/plate.3mf differs from the STLs: $(cat "$tmp/same3mf.out")"; fi
done
python3 "$here/tools/same3mf.py" "$tmp/g1/plate.3mf" "$tmp/g1"/piece-{2,1,3,4,5,6}.stl >/dev/null 2>&1 &&
	bad "same3mf.py cannot fail" || ok
# 3 mm plates: the pieces are 2*3 + 3*10 - 0.2 = 35.8 mm wide and 2.8 mm thick
run 0 verify "$tmp/w3/piece-1.stl" && contains "$out" "ok" "wall 3 piece"
# files verify cannot check: one line each, as the other commands say it
usage_error verify "$tmp/no-such.stl" && contains "$err" "no-such.stl: No such file or directory" "verify: a missing file"
usage_error verify "$tmp/w3" && contains "$err" "w3: is a folder" "verify: a folder"
usage_error verify "$tmp/w3/plate.3mf" && contains "$err" "not an STL" "verify: a 3MF"
head -c 100 "$tmp/w3/piece-1.stl" >"$tmp/cut.stl"
run 1 verify "$tmp/cut.stl" && contains "$out" "cut.stl: FAILED: truncated" "verify: an STL cut short fails"
${WRAP:-} "$CUBEGEN" verify <(cat "$tmp/w3/piece-1.stl") >"$tmp/out" 2>&1 &&
	grep -q ": ok," "$tmp/out" && ok || bad "verify of an STL through a pipe: $(cat "$tmp/out")"
# solution.html places each printed piece in the box: along every axis
# its solid spans layer boundaries (3 mm walls, 10 mm inside) moved in by
# clearance/2 = 0.1, and all of them together the whole box
placed_ok() { # DIR X Y Z [WALL, default 3]
	python3 - "$@" <<'PY'
import json, re, sys
d, dims = sys.argv[1], [int(v) for v in sys.argv[2:5]]
wall = float(sys.argv[5]) if len(sys.argv) > 5 else 3
page = open(d + "/solution.html", encoding="utf-8").read()
data = json.loads(re.search(r'id="cubegen-data">(.*?)</script>', page, re.S).group(1))
bounds = []
for n in dims:
    b = [0.0]
    for k in range(n):
        b.append(b[-1] + (wall if k in (0, n - 1) else 10))
    bounds.append(b)
lo, hi = [1e9] * 3, [-1e9] * 3
for p in data["pieces"]:
    v = p["vertices"]
    for a in range(3):
        mn, mx = min(v[a::3]), max(v[a::3])
        if not any(abs(mn - (b + 0.1)) < 1e-3 for b in bounds[a]) or \
           not any(abs(mx - (b - 0.1)) < 1e-3 for b in bounds[a]):
            sys.exit("piece %s: axis %d spans %g..%g" % (p["name"], a, mn, mx))
        lo[a], hi[a] = min(lo[a], mn), max(hi[a], mx)
for a in range(3):
    if abs(lo[a] - 0.1) > 1e-3 or abs(hi[a] - (bounds[a][-1] - 0.1)) > 1e-3:
        sys.exit("axis %d: %g..%g" % (a, lo[a], hi[a]))
PY
}
placed_ok "$tmp/w3" 5 5 5 && ok || bad "solution.html --wall 3: a piece out of place"
# render's answer page: the Soma cube's pieces fill the 3x3x3 cube, and
# go in as the disassembler takes them out (reversed); Pelikan's burr
# needs sliding moves, so its pieces come in order only
run 0 render "$DATA/soma.puz" --out "$tmp/rsoma" &&
	{ placed_ok "$tmp/rsoma" 3 3 3 10 && ok || bad "render: solution.html: a piece out of place"; }
grep -q '"text": "Start with piece [0-9]\."' "$tmp/rsoma/solution.html" &&
	grep -q '"text": "Piece [0-9] goes in from the ' "$tmp/rsoma/solution.html" && ok ||
	bad "render soma.puz: solution.html's steps are not the disassembly reversed"
# steps_continuous DIR: solution.html's steps are one scene: each step
# starts where the one before left every piece shown (its "at", plus
# "from" for the pieces that move), no piece shown goes out of view, and
# the last step shows every piece in its place
steps_continuous() {
	python3 - "$1/solution.html" <<'PY'
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
d = json.loads(re.search(r'id="cubegen-data">(.*?)</script>', page, re.S).group(1))
st = d["steps"]
at = lambda s: {e[0]: e[1:] for e in s.get("at", [])}
for k in range(1, len(st)):
    a0, a1 = at(st[k - 1]), at(st[k])
    if not set(st[k - 1]["show"]) <= set(st[k]["show"]):
        sys.exit("step %d hides a piece" % k)
    for p in st[k - 1]["show"]:
        start = a1.get(p, [0, 0, 0])
        if p in st[k]["moving"]:
            start = [x + y for x, y in zip(start, st[k]["from"])]
        if any(abs(x - y) > 1e-6 for x, y in zip(a0.get(p, [0, 0, 0]), start)):
            sys.exit("step %d: piece %d jumps" % (k, p))
if st[-1].get("at") or sorted(st[-1]["show"]) != list(range(len(d["pieces"]))):
    sys.exit("the last step is not the finished puzzle")
PY
}
steps_continuous "$tmp/rsoma" && ok || bad "render soma.puz: solution.html's steps jump"
# Pelikan's burr: render shows the one solution that comes apart, its 98
# moves and more reversed, pieces sliding part way
run 0 render "$examples/PelikanBurr.xmpuzzle" --out "$tmp/rpelikan" &&
	{ grep -q '"text": "Slide pieces [0-9, and]* 1 cell ' "$tmp/rpelikan/solution.html" &&
	  [ "$(grep -c '^{"text": ' "$tmp/rpelikan/solution.html")" -gt 98 ] && ok ||
		bad "render PelikanBurr: solution.html's steps are not its moves reversed"; }
steps_continuous "$tmp/rpelikan" && ok || bad "render PelikanBurr: solution.html's steps jump"
run 0 render "$examples/CubeInCage.xmpuzzle" --out "$tmp/rcage" && steps_continuous "$tmp/rcage" &&
	ok || bad "render CubeInCage: solution.html's steps jump"
# its cage is one group (BurrTools' groups, as solve --disassemble takes
# them): the page shows how the cubes come out of it, not only an order
grep -q '"text": "Piece [0-9]* goes in from the ' "$tmp/rcage/solution.html" && ok ||
	bad "render CubeInCage: solution.html is no disassembly (the cage's group ignored)"
# the cage's three pieces (copies 1 to 3) go down together, in one step
[ "$(grep -c '"text": "Start with' "$tmp/rcage/solution.html")" = 1 ] &&
	grep -q '"text": "Start with pieces 1, 2 and 3\."' "$tmp/rcage/solution.html" && ok ||
	bad "render CubeInCage: the cage is not put down in one start step"
# print --wall solves the puzzle, so it has the answer's page too
run 0 print "$DATA/happycube-blue.puz" --wall 3 --out "$tmp/pw3" &&
	{ placed_ok "$tmp/pw3" 5 5 5 && ok || bad "print --wall 3: solution.html: a piece out of place"; }
run 0 generate --size 3x4x5 --seed 2 --wall 3 --out "$tmp/w3box" &&
	{ placed_ok "$tmp/w3box" 3 4 5 && ok || bad "solution.html 3x4x5 --wall 3: a piece out of place"; }
grep -q '^wall = 3;' "$tmp/w3/piece-1.scad" && ok || bad "piece-1.scad lacks 'wall = 3;'"
run 0 generate --size 5 --seed 42 --no-labels --out "$tmp/nolab"
cmp -s "$tmp/nolab/puzzle.puz" "$tmp/g1/puzzle.puz" && ok || bad "--no-labels changed the puzzle"
cmp -s "$tmp/nolab/piece-1.stl" "$tmp/g1/piece-1.stl" && bad "labels changed nothing" || ok
run 0 generate --size 4x5x6 --seed 3 --wall 2.5 --clearance 0.25 --out "$tmp/boxw" && verify_all "$tmp/boxw" "box wall"
run 0 generate --size 5 --seed 42 --wall 1 --no-labels --out "$tmp/w1"
usage_error generate --wall 0
contains "$err" "more than 0" "--wall 0 says what is allowed"
usage_error generate --wall -2
usage_error generate --wall abc
usage_error generate --wall ''
usage_error generate --wall 11
contains "$err" "at most the unit" "--wall above the unit"
usage_error generate --wall 1
contains "$err" "--no-labels" "a wall too thin for the numbers suggests --no-labels"
usage_error generate --wall 0.7 --no-labels
usage_error generate --wall 3 --clearance 1.5
contains "$err" "half the wall" "clearance against the wall"
usage_error generate --unit 5 --wall 6

# --- print ---------------------------------------------------------------------
for f in soma.puz bedlam.puz happycube-blue.puz HC_BQ_001.hcq pentacubes-2x3x10.puz; do
	if run 0 print "$DATA/$f" --out "$tmp/print-$f"; then
		verify_all "$tmp/print-$f" "print $f"
		for g in plate.stl plate.3mf puzzle.scad pieces.txt piece-1.stl piece-1.scad; do
			[ -s "$tmp/print-$f/$g" ] && ok || bad "print $f did not write $g"
		done
	fi
done
run 0 print "$DATA/soma.puz" --out "$tmp/print-soma2"
diff -r "$tmp/print-soma.puz" "$tmp/print-soma2" >/dev/null && ok || bad "print is not deterministic"
[ "$(grep -vc '^#' "$tmp/print-soma.puz/pieces.txt")" = 7 ] && ok || bad "soma pieces.txt"
[ "$(grep -vc '^#' "$tmp/print-bedlam.puz/pieces.txt")" = 13 ] && ok || bad "bedlam pieces.txt"
ls "$tmp/print-bedlam.puz"/piece-13.stl >/dev/null 2>&1 && ok || bad "bedlam piece-13.stl"
[ "$(threemf_objects "$tmp/print-bedlam.puz/plate.3mf" | wc -w)" = 13 ] && ok || bad "bedlam 3mf objects"
python3 "$here/tools/same3mf.py" "$tmp/print-bedlam.puz/plate.3mf" \
	$(for k in $(seq 1 13); do echo "$tmp/print-bedlam.puz/piece-$k.stl"; done) >/dev/null 2>&1 &&
	ok || bad "bedlam plate.3mf differs from its STLs"
# copies of one piece are printed one by one
run 0 print "$tmp/count2.puz" --out "$tmp/print-count2" && contains "$out" "pieces: 3" "count 2 printed twice"
# --wall solves first: the pieces as they lie in a solution
run 0 print "$DATA/happycube-blue.puz" --wall 3 --out "$tmp/print-blue3" && verify_all "$tmp/print-blue3" "print --wall"
run 0 print "$tmp/count2.puz" --wall 3 --out "$tmp/print-count2w" && verify_all "$tmp/print-count2w" "print --wall copies"
run 1 print "$tmp/short.puz" --wall 3 --out "$tmp/print-short" && contains "$err" "no solution" "print --wall unsolvable"
[ ! -e "$tmp/print-short" ] && ok || bad "failed print left a folder"
run 0 print "$tmp/short.puz" --out "$tmp/print-short2" &&
	contains "$out" "no solution.html: the puzzle has no solution" "print: unsolvable, no answer page"
[ -s "$tmp/print-short2/pieces.html" ] && [ ! -e "$tmp/print-short2/solution.html" ] && ok ||
	bad "print of an unsolvable puzzle: pieces.html only"
# without --wall, print solves the puzzle for solution.html too (its
# printed pieces stay as before: the same bytes as in a folder without it)
[ -s "$tmp/print-soma.puz/solution.html" ] && placed_ok "$tmp/print-soma.puz" 3 3 3 10 && ok ||
	bad "print soma.puz: solution.html: a piece out of place"
grep -q '"text": "Piece [0-9] goes in from the ' "$tmp/print-soma.puz/solution.html" && ok ||
	bad "print soma.puz: solution.html's steps are not the disassembly reversed"
[ -s "$tmp/print-bedlam.puz/solution.html" ] && placed_ok "$tmp/print-bedlam.puz" 4 4 4 10 && ok ||
	bad "print bedlam.puz: solution.html: a piece out of place"
run 1 print "$DATA/soma.puz" --out "$tmp/print-soma.puz" && contains "$err" "already exists" "print refuses"
# --force replaces a folder print or coupon wrote (they hold no puzzle.puz,
# but their pieces.txt and coupon.txt name cubegen), and no other
run 0 print "$DATA/soma.puz" --out "$tmp/print-soma.puz" --clearance 0.3 --force &&
	grep -q 'clearance = 0.3;' "$tmp/print-soma.puz/piece-1.scad" && ok || bad "print --force over print"
run 0 coupon --out "$tmp/coupon-again" && run 0 coupon --out "$tmp/coupon-again" --wall 3 --force &&
	grep -q 'wall 3 mm' "$tmp/coupon-again/coupon.txt" && ok || bad "coupon --force over coupon"
mkdir "$tmp/foreign" && echo "# my notes" >"$tmp/foreign/pieces.txt"
run 1 print "$DATA/soma.puz" --out "$tmp/foreign" --force && contains "$err" "refusing to replace" \
	"print --force refuses a folder cubegen did not write"
usage_error print
usage_error print "$DATA/soma.puz" --bogus
usage_error print "$DATA/soma.puz" --wall 0
usage_error print "$tmp/missing.puz"
# a piece whose cells do not all touch face to face solves, but cannot be
# meshed: said up front, as bad input, naming the file and the piece
printf 'puzzle v1\ngoal 3 1 1\n###\npiece a 3 1 1\n#.#\npiece b 1 1 1\n#\n' >"$tmp/apart.puz"
run 0 solve "$tmp/apart.puz" && contains "$out" "solutions: 1" "a piece in two parts solves"
for c in print render; do
	usage_error $c "$tmp/apart.puz" --out "$tmp/apart-$c"
	contains "$err" "apart.puz: piece a is not one solid" "$c names the piece that is not one solid"
	[ ! -e "$tmp/apart-$c" ] && ok || bad "$c of a piece in two parts left a folder"
done

# --- coupon ----------------------------------------------------------------------
run 0 coupon --out "$tmp/coupon" && contains "$out" "pairs: 5" "coupon pairs"
for f in coupon.stl coupon.3mf coupon.txt coupon-1.scad coupon-5.scad; do
	[ -s "$tmp/coupon/$f" ] && ok || bad "coupon did not write $f"
done
verify_all "$tmp/coupon" "coupon"
[ "$(grep -v '^#' "$tmp/coupon/coupon.txt" | tr '\n' ' ')" = "pair clearance_mm 1 0.1 2 0.15 3 0.2 4 0.25 5 0.3 " ] &&
	ok || bad "coupon.txt table: $(cat "$tmp/coupon/coupon.txt")"
[ "$(threemf_objects "$tmp/coupon/coupon.3mf")" = "pair-1-tab pair-1-slot pair-2-tab pair-2-slot pair-3-tab pair-3-slot pair-4-tab pair-4-slot pair-5-tab pair-5-slot " ] &&
	ok || bad "coupon.3mf objects"
run 0 coupon --clearances 0.05,0.4 --unit 8 --wall 3 --out "$tmp/coupon2" && contains "$out" "pairs: 2" "coupon list"
verify_all "$tmp/coupon2" "coupon --wall 3"
run 0 coupon --clearances 0.2 --no-labels --out "$tmp/coupon3"
for l in '' ',' '0.1,' ',0.1' '0.1,,0.2' '0.1,abc' '-0.1' '5' '0,1,2,3,4,5,6,7,8,9,10'; do
	usage_error coupon --clearances "$l"
done
usage_error coupon --wall 3 --clearances 0.2,1.5
usage_error coupon --clearance 0.2
usage_error coupon extra

# --- render -------------------------------------------------------------------
for f in soma.puz HC_BQ_001.hcq pentacubes-2x3x10.puz happycube-blue.puz happycube/f739452a.puz; do
	name=$(basename "$f")
	if run 0 render "$DATA/$f" --out "$tmp/render-$name"; then
		[ -s "$tmp/render-$name/pieces.png" ] && [ -s "$tmp/render-$name/solution.png" ] &&
			ok || bad "render $f did not write both pictures"
		[ -s "$tmp/render-$name/pieces.html" ] && [ -s "$tmp/render-$name/solution.html" ] &&
			ok || bad "render $f did not write both pages"
	fi
done
run 0 render "$tmp/short.puz" --out "$tmp/render-short" && contains "$out" "no solution" "render unsolvable"
[ -s "$tmp/render-short/pieces.png" ] && [ ! -e "$tmp/render-short/solution.png" ] && ok ||
	bad "render of an unsolvable puzzle"
[ -s "$tmp/render-short/pieces.html" ] && [ ! -e "$tmp/render-short/solution.html" ] && ok ||
	bad "render of an unsolvable puzzle: pieces.html only"
run 0 render "$DATA/soma.puz" --out "$tmp/render-again"
diff -r "$tmp/render-soma.puz" "$tmp/render-again" > /dev/null && ok ||
	bad "render is not deterministic"
run 0 render "$DATA/soma.puz" --out "$tmp/render-soma.puz" --force
run 1 render "$DATA/soma.puz" --out "$tmp/render-soma.puz" && contains "$err" "already exists" "render refuses"
usage_error render "$tmp/bad.puz"
usage_error render
usage_error render "$DATA/soma.puz" --bogus

# --- difficulty -----------------------------------------------------------------
# HC_BQ_001 is the Pro set 1324cd79: 1708 dead ends over 48 assemblies in
# the plate order (docs/difficulty-study.md).
run 0 solve "$DATA/HC_BQ_001.hcq" --json &&
	contains "$out" '"difficulty": 35.583333, "difficulty_method": "plates", "dead_ends": 1708' "HC_BQ_001 difficulty"
run 0 solve "$DATA/HC_BQ_001.puz" && contains "$out" "difficulty: 35.58 (1708 dead ends / 48 assemblies" "the .puz copy scores the same"
run 0 check "$DATA/HC_BQ_001.hcq" && contains "$out" "difficulty: 35.58" "check prints the difficulty"
run 0 solve "$DATA/soma.puz" --json && contains "$out" '"difficulty_method": "cells"' "soma: the cell search"
run 0 solve "$DATA/soma.puz" --max 3 --json && contains "$out" '"difficulty": null' "no difficulty for a partial count"
run 0 solve "$DATA/soma.puz" --max 3 && contains "$out" "difficulty: not measured: the count stopped early" "partial count says why"
run 0 solve "$DATA/soma.puz" --difficulty-nodes 100 && contains "$out" "over --difficulty-nodes 100 (0 lifts the limit)" "difficulty budget"
run 0 solve "$DATA/soma.puz" --difficulty-nodes 100 --json && contains "$out" '"difficulty": null' "difficulty budget json"
# A count of more than twice the budget skips the scoring search (the
# 2x3x10 pentacubes: 66665 count nodes, 140052 to score), which would
# pass it; just under, the search runs and passes the budget. Both say so
# alike; only the time differs.
run 0 solve "$DATA/pentacubes-2x3x10.puz" --difficulty-nodes 33000 &&
	contains "$out" "difficulty: not measured: over --difficulty-nodes 33000 (0 lifts the limit)" "difficulty skipped after a big count"
run 0 solve "$DATA/pentacubes-2x3x10.puz" --difficulty-nodes 34000 &&
	contains "$out" "difficulty: not measured: over --difficulty-nodes 34000 (0 lifts the limit)" "difficulty tried after a count under twice the budget"
run 0 solve "$DATA/pentacubes-2x3x10.puz" --difficulty-nodes 140052 --json &&
	contains "$out" '"difficulty": 5827.791667' "difficulty within the budget exactly"
for v in -1 abc '' 1.5; do
	usage_error solve "$DATA/soma.puz" --difficulty-nodes "$v"
done
for v in brutal '' Hard 'easy,hard' Expert extreme; do
	usage_error generate --difficulty "$v"
	contains "$err" "use easy, medium, hard or expert" "--difficulty '$v' lists the bands"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || bad "--difficulty '$v': not one line: $err"
done
usage_error generate --kind blocks --difficulty expert &&
	contains "$err" "--difficulty expert is for plate puzzles" "blocks have no expert band"
usage_error batch --kind blocks --seeds 1..2 --difficulty expert
usage_error generate --difficulty
# The band rule: same seed and band, same bytes; the score printed is the
# score of the puzzle written, and it lies in the band printed.
band_of() { sed -n 's/^band: \([a-z]*\) .*/\1/p' <<<"$1"; }
score_of() { sed -n 's/^difficulty: \([0-9.]*\).*/\1/p' <<<"$1"; }
for b in easy medium hard expert; do
	run 0 generate --seed 42 --difficulty "$b" --out "$tmp/d-$b" || continue
	first=$out
	run 0 generate --seed 42 --difficulty "$b" --out "$tmp/d-$b-again" &&
		{ diff -r "$tmp/d-$b" "$tmp/d-$b-again" >/dev/null && ok || bad "--difficulty $b: the same seed gave other bytes"; }
	[ "$(band_of "$first")" = "$b" ] && ok || bad "--difficulty $b: printed $first"
	s=$(score_of "$first")
	run 0 solve "$tmp/d-$b/puzzle.puz" && contains "$out" "difficulty: $s " "--difficulty $b: puzzle.puz scores the printed $s"
	lo=$(sed -n 's/^band: .*difficulty <= \([0-9.]*\).*/\1/p; s/^band: .*between \([0-9.]*\) and.*/\1/p' <<<"$first")
	hi=$(sed -n 's/^band: .*difficulty >= \([0-9.]*\).*/\1/p; s/^band: .*and \([0-9.]*\) at.*/\1/p' <<<"$first")
	case $b in
	easy) awk -v s="$s" -v e="$lo" 'BEGIN{exit !(s <= e)}' ;;
	medium) awk -v s="$s" -v e="$lo" -v h="$hi" 'BEGIN{exit !(s > e && s < h)}' ;;
	hard|expert) awk -v s="$s" -v h="$hi" 'BEGIN{exit !(s >= h)}' ;;
	esac && ok || bad "--difficulty $b: score $s outside the band: $first"
	run 0 check "$tmp/d-$b/puzzle.puz" && contains "$out" "unique: exactly 1 solution" "--difficulty $b: check proves it again"
done
# At size 5 hard means a typical Pro set and expert Da Vinci (51 and 61.67).
run 0 generate --seed 7 --difficulty hard --out "$tmp/d-h7" &&
	contains "$out" "band: hard (difficulty >= 51.00 at this size)" "hard at size 5 is >= 51"
run 0 generate --seed 7 --difficulty expert --size 6 --out "$tmp/d-e7" &&
	contains "$out" "band: expert (difficulty >= 22.67 at this size)" "expert at size 6 is scaled"
run 0 generate --seed 42 --out "$tmp/d-any" && s=$(score_of "$out") &&
	run 0 solve "$tmp/d-any/puzzle.puz" && contains "$out" "difficulty: $s " "generate prints the score of its puzzle"
cmp -s "$tmp/d-any/puzzle.puz" "$tmp/g1/puzzle.puz" && ok || bad "without --difficulty the puzzle is the one it always was"
run 1 generate --seed 42 --difficulty medium --max-attempts 5 --out "$tmp/d-few" &&
	contains "$err" "no unique medium puzzle of size 5 in 5 attempts" "band not reached" &&
	contains "$err" "try more --max-attempts" "band not reached: the advice"
[ ! -e "$tmp/d-few" ] && ok || bad "band not reached: a folder was left"
# Hard not reached says how far the search got, in one line; size 3
# cannot reach hard (docs/puzzles.md).
run 1 generate --size 3 --seed 1 --difficulty hard --max-attempts 300 --out "$tmp/d-3" &&
	contains "$err" "no hard puzzle of size 3 (difficulty >= 566.47) in 300 attempts from seed 1; the search reached " "hard not reached" &&
	contains "$err" "may be out of reach at this size" "hard not reached: why"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || bad "hard not reached: not one line: $err"
[ ! -e "$tmp/d-3" ] && ok || bad "hard not reached: a folder was left"
# A box's bands do not depend on the order of its sides.
run 0 generate --size 4x5x6 --seed 1 --difficulty easy --out "$tmp/d-box1" && b1=$(grep '^band' <<<"$out")
run 0 generate --size 6x5x4 --seed 1 --difficulty easy --out "$tmp/d-box2" && b2=$(grep '^band' <<<"$out")
[ -n "${b1:-}" ] && [ "${b1:-}" = "${b2:-}" ] && ok || bad "box bands differ: '${b1:-}' vs '${b2:-}'"

# --- batch ------------------------------------------------------------------
run 0 batch --help && contains "$out" "usage: cubegen batch" "batch --help"
usage_error batch
contains "$err" "which seeds?" "batch without --seeds asks for them"
for v in 9..3 x '' 5 1.. ..5 1...5 -1..3 1..x ' 1..2' 0..18446744073709551616 \
	99999999999999999999..99999999999999999999; do
	usage_error batch --seeds "$v"
done
usage_error batch --seeds 9..3 && contains "$err" "9..3 is empty" "--seeds 9..3 says why"
usage_error batch --seeds 0..18446744073709551615 && contains "$err" "2^64 seeds" "a range of 2^64 seeds overflows the count"
usage_error batch --seeds
usage_error batch --seeds 1..2 --size 2
usage_error batch --seeds 1..2 --difficulty brutal
usage_error batch --seeds 1..2 --max-attempts 0
usage_error batch --seeds 1..2 --out x
# One line per seed, each what generate reports for that seed: size,
# attempts, solutions and the score (generate rounds it to 2 decimals);
# nothing on stderr in a pipe, no files anywhere.
mkdir -p "$tmp/bcwd"
( cd "$tmp/bcwd" && ${WRAP:-} "$CUBEGEN" batch --seeds 40..47 >"$tmp/b-all" 2>"$tmp/b-err" ) && ok || bad "batch 40..47 failed: $(cat "$tmp/b-err")"
[ ! -s "$tmp/b-err" ] && ok || bad "batch wrote to stderr in a pipe: $(cat "$tmp/b-err")"
[ -z "$(ls -A "$tmp/bcwd")" ] && ok || bad "batch wrote files: $(ls -A "$tmp/bcwd")"
[ "$(wc -l <"$tmp/b-all")" = 8 ] && ok || bad "batch 40..47: not 8 lines: $(cat "$tmp/b-all")"
field() { sed -n "s/.*\"$1\": \([^,}]*\).*/\1/p" <<<"$2"; }
# batch_vs_generate LINES_FILE BAND_NAME ARGS...: every line against generate
batch_vs_generate() {
	local lines=$1 band=$2 line s
	shift 2
	while read -r line; do
		s=$(field seed "$line")
		run 0 generate --seed "$s" "$@" --out "$tmp/bg-$s-$band" || continue
		rm -rf "$tmp/bg-$s-$band"
		local want="size: $(field size "$line" | tr -d '"')
seed: $s
attempts: $(field attempts "$line")
solutions: $(field solutions "$line")
difficulty: $(LC_ALL=C printf '%.2f' "$(field difficulty "$line")")"
		contains "$out" "$want" "batch seed $s ($band) equals generate"
		if [ "$band" != any ]; then
			[ "$(field band "$line")" = "\"$band\"" ] && ok || bad "batch seed $s: band $(field band "$line")"
			contains "$out" "band: $band " "generate seed $s is $band"
		else
			[ "$(field band "$line")" = null ] && ok || bad "batch seed $s: a band without --difficulty"
		fi
		[ "$(field found "$line")" = true ] && ok || bad "batch seed $s: not found"
	done <"$lines"
}
batch_vs_generate "$tmp/b-all" any
run 0 batch --seeds 3..5 --difficulty hard && printf '%s\n' "$out" >"$tmp/b-hard" &&
	batch_vs_generate "$tmp/b-hard" hard --difficulty hard
run 0 batch --seeds 8..9 --difficulty expert && printf '%s\n' "$out" >"$tmp/b-expert" &&
	batch_vs_generate "$tmp/b-expert" expert --difficulty expert
run 0 batch --size 4x5x6 --seeds 1..2 --difficulty medium && printf '%s\n' "$out" >"$tmp/b-box" &&
	batch_vs_generate "$tmp/b-box" medium --size 4x5x6 --difficulty medium
# Determinism, and a range split in two concatenates to the whole
# (seconds aside).
noseconds() { sed 's/, "seconds": [0-9.]*}$/}/' "$@"; }
run 0 batch --seeds 40..47 && printf '%s\n' "$out" >"$tmp/b-again"
[ "$(noseconds "$tmp/b-all")" = "$(noseconds "$tmp/b-again")" ] && ok || bad "batch is not deterministic"
run 0 batch --seeds 40..43 && printf '%s\n' "$out" >"$tmp/b-lo"
run 0 batch --seeds 44..47 && printf '%s\n' "$out" >"$tmp/b-hi"
[ "$(noseconds "$tmp/b-lo" "$tmp/b-hi")" = "$(noseconds "$tmp/b-all")" ] && ok || bad "batch 40..43 + 44..47 differs from 40..47"
# A seed with no puzzle in its attempts is a line too, and not an error;
# generate fails on it.
run 0 batch --seeds 42..42 --difficulty hard --max-attempts 5 &&
	contains "$out" '"attempts": 5, "found": false, "solutions": null, "difficulty": null, "band": null' "batch: a seed with no puzzle"
run 1 generate --seed 42 --difficulty hard --max-attempts 5 --out "$tmp/bg-none"
# The last seed there is: the loop ends.
run 0 batch --seeds 18446744073709551615..18446744073709551615 --size 3 &&
	contains "$out" '{"seed": 18446744073709551615, "size": "3"' "batch at the last seed"
if command -v python3 >/dev/null; then
	python3 -c '
import json, sys
want = ["seed", "size", "attempts", "found", "solutions", "difficulty", "band", "nodes", "seconds"]
for line in open(sys.argv[1]):
    d = json.loads(line)
    assert list(d) == want, d
    assert d["nodes"] > 0 and d["seconds"] >= 0, d
' "$tmp/b-all" && ok || bad "batch lines are not the JSON documented: $(head -2 "$tmp/b-all")"
fi

# --- colour puzzles ---------------------------------------------------------------
run 0 solve "$examples/ninecolour.puz" --rename-colours &&
	contains "$out" "solutions: 3" "nine-colour cube: 3 up to renaming" &&
	contains "$out" "renamings: 17418240" "nine-colour cube: 48 x 9! renamings"
run 0 solve "$examples/ninecolour.puz" --rename-colours --json &&
	contains "$out" '"solutions": 3, "assemblies": 14515200' "nine-colour json" &&
	contains "$out" '"rename_colours": true, "renamings": 17418240' "nine-colour json renamings"
run 0 solve "$examples/ninecolour.puz" --json && contains "$out" '"rename_colours": false' "json without renaming"
run 1 check "$examples/ninecolour.puz" --rename-colours && contains "$out" "not unique: at least 2 solutions" "check --rename-colours"
run 1 solve "$DATA/colour-ring.puz" --rename-colours &&
	contains "$err" "too many ways to rename colours" "--rename-colours refuses 12! look-alike orders"
run 0 solve "$examples/ninecolour.puz" --print &&
	contains "$out" "difficulty: not measured: over --difficulty-nodes 5000000 (0 lifts the limit)" "nine-colour: sure to pass the budget, not started" &&
	contains "$out" "ABC   abc" "--print draws the colours beside the pieces"
# every colour feature at once: no renaming keeps it, so the counts agree
run 0 solve "$DATA/colour-mix.puz" && contains "$out" "solutions: 74893" "colour mix" &&
	mix=$(grep '^solutions' <<<"$out")
run 0 solve "$DATA/colour-mix.puz" --rename-colours && contains "$out" "$mix" "colour mix: the same count up to renaming" &&
	contains "$out" "renamings: 1 " "colour mix: no renaming keeps it"
run 0 solve "$DATA/colour-mix.puz" --print && contains "$out" "C=I(x1..3)" "--print shows a range of copies"
run 0 solve "$DATA/colour-mix.puz" --json && contains "$out" '"difficulty": 0.014714, "difficulty_method": "cells", "dead_ends": 1102' "colour puzzles are scored"
# render and print take colour puzzles: pictures written, every STL
# closed and exact; a range of copies is printed at its most (L, P, 3 I,
# 2 dot, 2 dot2), and --wall, which prints copies as one solution lays
# them, refuses a range
run 0 render "$examples/ninecolour.puz" --out "$tmp/r9" && [ -s "$tmp/r9/pieces.png" ] && ok || bad "render of a colour puzzle"
run 0 print "$DATA/colour-mix.puz" --out "$tmp/pmix" && contains "$out" "pieces: 9" "print: a range at its most" &&
	run 0 verify "$tmp"/pmix/*.stl && ok || bad "print of a colour puzzle"
[ "$(grep -c ' I$' "$tmp/pmix/pieces.txt")" = 3 ] && ok || bad "print: pieces.txt lists I three times"
usage_error print "$DATA/colour-mix.puz" --wall 3 --out "$tmp/pmixw"
contains "$err" "--wall needs each piece's number of copies fixed, and piece I of $DATA/colour-mix.puz has a range (count 1..3)" "print --wall with a range"
[ ! -e "$tmp/pmixw" ] && ok || bad "print --wall with a range wrote a folder"
printf 'puzzle v1\nname mixed colours\ncolour a FF0000\ncolour b 00FF00\ngoal 4 2 1\naa#b\n#bba\npiece L 2 2 1\nab\nb.\npiece M 3 1 1\na#b\npiece P 1 1 1\n#\npiece Q 1 1 1\na\n' >"$tmp/mixed.puz"
# pngcount FILE RRGGBB...: for each colour, how many pixels of the PNG
# have it, read with Python's zlib alone (8-bit RGB or RGBA, or a palette
# of 1, 2, 4 or 8 bits a pixel); pngcolours FILE RRGGBB...: whether any
# does (1 or 0)
pngcount() {
	python3 - "$@" <<'PY'
import collections, struct, sys, zlib
d = open(sys.argv[1], "rb").read()
assert d[:8] == b"\x89PNG\r\n\x1a\n"
pos, idat, plte = 8, b"", None
while pos < len(d):
    n, kind = struct.unpack(">I4s", d[pos:pos + 8])
    body = d[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"PLTE":
        plte = [body[i:i + 3] for i in range(0, len(body), 3)]
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
if ctype == 3:
    assert depth in (1, 2, 4, 8) and plte
    bpp, stride = 1, (w * depth + 7) // 8
else:
    assert depth == 8 and ctype in (2, 6)
    bpp = 3 if ctype == 2 else 4
    stride = w * bpp
raw, prev, seen = zlib.decompress(idat), bytearray(stride), collections.Counter()
for y in range(h):
    f, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = row[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pr = a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c
        row[i] = (row[i] + (0, a, b, (a + b) // 2, pr)[f]) & 255
    if ctype == 3:
        per = 8 // depth
        for x in range(w):
            byte = row[x // per]
            seen[bytes(plte[(byte >> (8 - depth * (x % per + 1))) & ((1 << depth) - 1)])] += 1
    else:
        seen.update(bytes(row[i:i + 3]) for i in range(0, stride, bpp))
    prev = row
print(" ".join(str(seen[bytes.fromhex(c)]) for c in sys.argv[2:]))
PY
}
pngcolours() {
	local n r=""
	for n in $(pngcount "$@"); do
		r+="${r:+ }$((n > 0))"
	done
	echo "$r"
}
# An interlocked design whose pieces the spread from the centre cannot
# part: render's exploded view is where its disassembly leaves them, so
# the tops of p1 and p2, hidden in the box when assembled, show (their
# colours 56B4E9 and 009E73 had 544 pixels each before: the legend's
# swatches alone)
if run 0 render "$here/data/burr/closed-box-lohe.xmpuzzle" --out "$tmp/rbox"; then
	read -r n1 n2 <<<"$(pngcount "$tmp/rbox/solution.png" 56B4E9 009E73)"
	[ "$n1" -gt 2500 ] && [ "$n2" -gt 2500 ] && ok ||
		bad "render closed-box-lohe: the exploded view hides p1 and p2 ($n1, $n2 pixels)"
fi
# red FF0000 and green 00FF00 cells; plain cells in their piece's number
# colour (piece 2's middle 56B4E9, piece 3 009E73); pieces 1 and 4 have no
# plain cell, so their number colours E69F00 and F0E442 appear nowhere
if run 0 render "$tmp/mixed.puz" --out "$tmp/render-mixed"; then
	for f in pieces solution; do
		got=$(pngcolours "$tmp/render-mixed/$f.png" FF0000 00FF00 56B4E9 009E73 E69F00 F0E442)
		[ "$got" = "1 1 1 1 0 0" ] && ok || bad "render colours, $f.png: $got"
	done
fi
# colour3mf FILE: per object, the colours its triangles resolve to (a
# triangle's pid/p1, else the object's pid/pindex), sorted
colour3mf() {
	python3 - "$1" <<'PY'
import sys, zipfile, xml.etree.ElementTree as ET
NS = "{http://schemas.microsoft.com/3dmanufacturing/core/2015/02}"
res = ET.fromstring(zipfile.ZipFile(sys.argv[1]).read("3D/3dmodel.model")).find(NS + "resources")
groups = {g.get("id"): [b.get("displaycolor") for b in g] for g in res.findall(NS + "basematerials")}
for o in res.findall(NS + "object"):
    cols = set()
    for t in o.find(NS + "mesh").find(NS + "triangles"):
        assert t.get("p2") is None and t.get("p3") is None
        pid, p = (t.get("pid"), t.get("p1")) if t.get("p1") else (o.get("pid"), o.get("pindex"))
        cols.add(groups[pid][int(p)])
    print(o.get("name"), ",".join(sorted(cols)))
PY
}
want_colours='piece-1 #00FF00,#FF0000
piece-2 #00FF00,#56B4E9,#FF0000
piece-3 #009E73
piece-4 #FF0000'
for w in "" "--wall 3"; do
	d="$tmp/print-mixed${w:+-w}"
	if run 0 print "$tmp/mixed.puz" $w --out "$d"; then
		verify_all "$d" "print colours $w"
		got=$(colour3mf "$d/plate.3mf")
		[ "$got" = "$want_colours" ] && ok || bad "print colours $w: $got"
		# still exactly the STLs' triangles, only coloured
		python3 "$here/tools/same3mf.py" "$d/plate.3mf" "$d"/piece-{1,2,3,4}.stl >/dev/null 2>&1 &&
			ok || bad "print colours $w: plate.3mf differs from the STLs"
	fi
done
# a piece of one colour: that colour as the object's, no triangle colours
unzip -p "$tmp/print-mixed/plate.3mf" 3D/3dmodel.model | grep -q '<base name="piece-4" displaycolor="#FF0000"/>' &&
	ok || bad "print colours: piece-4 is not a red object"

# BurrTools files: counts as BurrTools' assemblies, --problem, the line for
# congruent shapes, refusals in one line at the element
bt="$here/data/burrtools"
run 0 solve "$bt/CubeInCage.xmpuzzle" && contains "$out" "solutions: 96" "xmpuzzle: Cube in Cage" &&
	[[ "$out" != *burrtools:* ]] && ok || bad "xmpuzzle: no 'counts differently' line for Cube in Cage"
run 0 solve "$bt/DemoMirrorParadox.xmpuzzle" --problem 2 --json &&
	contains "$out" '"solutions": 1, ' "xmpuzzle --problem 2" &&
	contains "$out" '"problem": 2, "problems": 2, "burrtools_differs": null' "xmpuzzle json"
run 0 check "$bt/AlPackino.xmpuzzle" && contains "$out" "unique: exactly 1 solution" "xmpuzzle check"
run 0 render "$bt/colour-3.xmpuzzle" --out "$tmp/rxm" && [ -s "$tmp/rxm/solution.png" ] &&
	grep -q '^goal 2 2 3' "$tmp/rxm/puzzle.puz" && ok || bad "xmpuzzle render"
usage_error solve "$bt/DemoMirrorParadox.xmpuzzle" --problem 3 &&
	contains "$err" "DemoMirrorParadox.xmpuzzle: problem 3: the file has 2 problems" "xmpuzzle --problem past the end"
printf '<puzzle version="2">\n<shapes>\n<voxel x="2" y="1" z="1" type="0">##</voxel>\n <voxel x="1" y="1" z="1" type="0">+</voxel>\n</shapes>\n<problems><problem><shapes><shape id="1" count="2"/></shapes><result id="0"/></problem></problems></puzzle>\n' >"$tmp/varpiece.xmpuzzle"
usage_error solve "$tmp/varpiece.xmpuzzle"
contains "$err" "varpiece.xmpuzzle:4:2: <voxel> (shape S2, a piece): a variable voxel" "xmpuzzle refusal at the element"
usage_error solve "$DATA/soma.puz" --problem 1
usage_error solve "$bt/CubeInCage.xmpuzzle" --problem 0
# convert and print take --problem as solve does: problem 2 converted
# counts as solve --problem 2 does; refusals in solve's words
run 0 convert "$bt/DemoMirrorParadox.xmpuzzle" "$tmp/dmp2.puz" --problem 2 &&
	run 0 solve "$tmp/dmp2.puz" && contains "$out" "assemblies: 48" "convert --problem 2"
run 0 convert "$bt/DemoMirrorParadox.xmpuzzle" "$tmp/dmp1.puz" &&
	run 0 solve "$tmp/dmp1.puz" && contains "$out" "assemblies: 2" "convert: the first problem"
usage_error convert "$bt/DemoMirrorParadox.xmpuzzle" "$tmp/dmp3.puz" --problem 3 &&
	contains "$err" "problem 3: the file has 2 problems" "convert --problem past the end" &&
	{ [ -e "$tmp/dmp3.puz" ] && bad "convert --problem 3 wrote its output" || ok; }
usage_error convert "$DATA/soma.puz" "$tmp/soma-p.puz" --problem 1 &&
	contains "$err" "is not a BurrTools file" "convert --problem of a .puz"
usage_error print "$bt/DemoMirrorParadox.xmpuzzle" --problem 3 --out "$tmp/pdmp3" &&
	contains "$err" "problem 3: the file has 2 problems" "print --problem past the end"
usage_error print "$bt/DemoMirrorParadox.xmpuzzle" --problem x --out "$tmp/pdmpx"
usage_error convert "$bt/DemoMirrorParadox.xmpuzzle" "$tmp/dmpx.puz" --problem
printf '<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">#</voxel><voxel x="1" y="1" z="1" type="0">#</voxel><voxel x="2" y="1" z="1" type="0">##</voxel></shapes><problems><problem><shapes><shape id="0"/><shape id="1"/></shapes><result id="2"/></problem></problems></puzzle>' >"$tmp/two.xmpuzzle"
run 0 solve "$tmp/two.xmpuzzle" && contains "$out" "burrtools: counts differently: shapes S1 and S2 are congruent" "xmpuzzle: congruent shapes"
# ranges: BurrTools pairs mirror images in the problem's order (docs/formats.md)
run 0 solve "$bt/mirror-order.xmpuzzle" && contains "$out" "burrtools: counts differently: BurrTools pairs mirror-image shapes in file order" "xmpuzzle: mirror pairing in order" &&
	contains "$out" "solutions: 1" "xmpuzzle: mirror pairing, cubegen's count"
run 0 solve "$bt/mirror-order.xmpuzzle" --problem 2 && { grep -q 'burrtools:' <<<"$out" && bad "xmpuzzle: mirror pairing complete is flagged" || ok; }
printf 'puzzle v1\ngoal 2 2 2\n##\n##\n\n##\n##\npiece P 3 2 2 count 0..1\n###\n..#\n\n...\n..#\npiece SL 2 2 2 count 0..2\n##\n.#\n\n..\n.#\npiece SR 2 2 2 count 0..2\n##\n#.\n\n..\n#.\n' >"$tmp/mo.puz"
run 0 convert "$tmp/mo.puz" "$tmp/mo.xmpuzzle" && contains "$out" "note: BurrTools counts differently: BurrTools pairs mirror-image shapes" "convert: mirror pairing note"
printf 'puzzle v1\ngoal 2 1 1\n##\npiece A 1 1 1\n#\npiece B 1 1 1\n#\n' >"$tmp/cg.puz"
run 0 convert "$tmp/cg.puz" "$tmp/cg.xmpuzzle" && contains "$out" "note: BurrTools counts differently: shapes S2 and S3 are congruent" "convert: congruent note"
run 0 convert "$DATA/soma.puz" "$tmp/soma-plain.xmpuzzle" && { grep -q 'note:' <<<"$out" && bad "convert: a note for soma" || ok; }
head -c 500 "$bt/PelikanBurr.xmpuzzle" >"$tmp/cut.xmpuzzle"
usage_error check "$tmp/cut.xmpuzzle" && contains "$err" "truncated gzip data" "xmpuzzle: truncated gzip"
# 26 monocubes of 26 colours: 26! assemblies do not fit in 64 bits
{ printf 'puzzle v1\ngoal 26 1 1\n##########################\n'
  for c in a b c d e f g h i j k l m n o p q r s t u v w x y z; do printf 'piece P%s 1 1 1\n%s\n' "$c" "$c"; done; } >"$tmp/many.puz"
run 1 solve "$tmp/many.puz" && contains "$err" "a count is larger than 18446744073709551615" "counts past 2^64 are refused"
# optional cells and ranges: two required cells and an optional one
printf 'puzzle v1\ngoal 3 1 1\n##+\npiece I2 2 1 1 count 0..1\n##\npiece I1 1 1 1 count 0..3\n#\n' >"$tmp/opt.puz"
run 0 solve "$tmp/opt.puz" && contains "$out" "solutions: 5" "optional cells and ranges: 5 solutions" &&
	contains "$out" "symmetries: 8" "the optional cell breaks the end-for-end symmetry"
# a coloured goal: the pieces' colours must match
printf 'puzzle v1\ngoal 2 1 1\nab\npiece D 2 1 1\nab\n' >"$tmp/match.puz"
run 0 solve "$tmp/match.puz" && contains "$out" "solutions: 1" "colours match: one way"
printf 'puzzle v1\ngoal 2 1 1\nab\npiece D 2 1 1\naa\nmatch a b\n' >"$tmp/match2.puz"
run 0 solve "$tmp/match2.puz" && contains "$out" "solutions: 0" "match table: a may not lie on a"
printf 'puzzle v1\ngoal 2 1 1\n#+\npiece D 1 1 1\n+\n' >"$tmp/badplus.puz"
usage_error solve "$tmp/badplus.puz" && contains "$err" "badplus.puz:5:1" "'+' in a piece names its place"
# coloured optional cells ('A'..'Z' in the goal): "A#B" with singles a
# and b 0..1 and one plain: 10 solutions, 6 up to renaming (test_colour.c)
printf 'puzzle v1\ngoal 3 1 1\nA#B\npiece a 1 1 1 count 0..1\na\npiece b 1 1 1 count 0..1\nb\npiece s 1 1 1\n#\n' >"$tmp/copt.puz"
run 0 solve "$tmp/copt.puz" && contains "$out" "solutions: 10" "coloured optional cells: 10 solutions"
run 0 solve "$tmp/copt.puz" --rename-colours && contains "$out" "solutions: 6" "coloured optional cells renamed: 6"
run 0 convert "$tmp/copt.puz" "$tmp/copt.xmpuzzle" &&
	run 0 convert "$tmp/copt.xmpuzzle" "$tmp/copt2.puz" &&
	contains "$(cat "$tmp/copt2.puz")" $'\nA#B\n' "coloured optional cells through BurrTools and back"
run 0 solve "$tmp/copt.xmpuzzle" && contains "$out" "solutions: 10" "coloured variable voxels: 10 solutions"
printf 'puzzle v1\ngoal 2 1 1\n#A\npiece D 2 1 1\naA\n' >"$tmp/badupper.puz"
usage_error solve "$tmp/badupper.puz" && contains "$err" "badupper.puz:5:2: 'A' (an optional cell of colour a) is allowed only in the goal" "a capital in a piece names its place"
run 0 solve "$bt/DraculasDentalDesaster.xmpuzzle" && contains "$out" "solutions: 84" "BurrTools' DraculasDentalDesaster: 84, as burrTxt"
usage_error solve "$examples/ninecolour.puz" --rename-colours=1

# --- threads, shards, merge --------------------------------------------------
# The text of a count without its time line (the only line that differs).
counts() { grep -v '^time: '; }
puzzles=("$DATA/soma.puz" "$DATA/pentacubes-2x3x10.puz" "$DATA/colour-mix.puz"
         "$DATA/HC_BQ_001.hcq" "$DATA/happycube-blue.puz" "$examples/ninecolour.puz")
# under valgrind (WRAP), two of them: the unit tests count the rest
[ -n "${WRAP:-}" ] && puzzles=("$DATA/soma.puz" "$DATA/happycube-blue.puz")
for f in "${puzzles[@]}"; do
	name=$(basename "$f")
	run 0 solve "$f" --threads 1 || continue
	whole=$(printf '%s\n' "$out" | counts)
	for t in 2 8; do
		run 0 solve "$f" --threads $t &&
		[ "$(printf '%s\n' "$out" | counts)" = "$whole" ] && ok ||
		bad "$name: --threads $t differs from --threads 1"
	done
	for k in 1 3 7; do
		rm -f "$tmp"/shard-*.json
		for i in $(seq 1 $k); do
			run 0 solve "$f" --shard "$i/$k" --json --threads $(( i % 3 + 1 )) &&
			printf '%s\n' "$out" >"$tmp/shard-$i.json"
		done
		run 0 merge "$tmp"/shard-*.json &&
		[ "$(printf '%s\n' "$out" | counts)" = "$whole" ] && ok ||
		bad "$name: merge of $k shards differs from one run: $out"
	done
done
# One thread walks the tree whole ("tasks": 0), unless --max, --max-nodes
# or a shard needs the tasks; taking apart gives the same on any threads.
run 0 solve "$DATA/soma.puz" --threads 1 --json &&
	contains "$out" '"threads": 1, "tasks": 0}' "one thread walks the tree whole"
for o in "--max 5" "--max-nodes 100000"; do
	# (word splitting of $o on purpose)
	# shellcheck disable=SC2086
	run 0 solve "$DATA/soma.puz" --threads 1 --json $o &&
	[ "$(printf '%s\n' "$out" | sed 's/.*"tasks": \([0-9]*\).*/\1/')" -gt 0 ] && ok ||
	bad "solve --threads 1 $o: not cut into tasks: $out"
done
for f in "$bt/CubeInCage.xmpuzzle" "$bt/DraculasDentalDesaster.xmpuzzle"; do
	run 0 solve "$f" --disassemble --print --threads 1 --difficulty-nodes 1 || continue
	whole=$(printf '%s\n' "$out" | counts)
	run 0 solve "$f" --disassemble --print --threads 2 --difficulty-nodes 1 &&
	[ "$(printf '%s\n' "$out" | counts)" = "$whole" ] && ok ||
	bad "$(basename "$f") --disassemble: --threads 2 differs from --threads 1"
done
# 65 to 128 cells: the 128-bit board splits its search too. A 70-cell box
# of eight pentacubes and three slabs (155 solutions, 0.2 s) counted
# whole, the first solution included; the 70-cell pentacube box (7.7
# million nodes) under a node budget: one thread's lower bound is always
# the same, more threads stop within the budget. The difficulty (dancing
# links, seconds on these) is left out.
if [ -z "${WRAP:-}" ]; then
	f=$here/data/bench/slabs-2x5x7.puz
	run 0 solve "$f" --threads 1 --print --difficulty-nodes 1 &&
		contains "$out" "solutions: 155" "70-cell slabs box"
	whole=$(printf '%s\n' "$out" | counts)
	for t in 2 8; do
		run 0 solve "$f" --threads $t --print --difficulty-nodes 1 &&
		[ "$(printf '%s\n' "$out" | counts)" = "$whole" ] && ok ||
		bad "slabs-2x5x7: --threads $t differs from --threads 1: $out"
	done
	run 0 solve "$f" --threads 1 --difficulty-nodes 1
	whole=$(printf '%s\n' "$out" | counts)
	rm -f "$tmp"/shard-*.json
	for i in 1 2 3; do
		run 0 solve "$f" --shard "$i/3" --json --threads $(( i % 2 + 1 )) \
			--difficulty-nodes 1 && printf '%s\n' "$out" >"$tmp/shard-$i.json"
	done
	run 0 merge "$tmp"/shard-*.json &&
	[ "$(printf '%s\n' "$out" | counts)" = "$whole" ] && ok ||
	bad "slabs-2x5x7: merge of 3 shards differs from one run: $out"
	f=$here/data/bench/pentacubes-2x5x7.puz
	run 0 solve "$f" --threads 1 --max-nodes 300000 &&
		contains "$out" "nodes: 300000" "2x5x7: one thread spends the budget" &&
		contains "$out" "stopped: --max-nodes reached" "2x5x7: budget stop"
	once=$(printf '%s\n' "$out" | counts)
	run 0 solve "$f" --threads 1 --max-nodes 300000 &&
	[ "$(printf '%s\n' "$out" | counts)" = "$once" ] && ok ||
	bad "2x5x7: one thread's lower bound changed: $out"
	run 0 solve "$f" --threads 2 --max-nodes 300000 --json &&
		contains "$out" '"complete": false' "2x5x7: two threads stop" &&
		[ "$(printf '%s\n' "$out" | sed 's/.*"nodes": \([0-9]*\).*/\1/')" -le 300000 ] &&
		ok || bad "2x5x7: two threads passed the budget: $out"
	# a shard stopped by its budget is refused by merge
	rm -f "$tmp"/shard-*.json
	for i in 1 2 3; do
		run 0 solve "$f" --shard "$i/3" --json --max-nodes $(( i == 2 ? 300000 : 1 )) &&
			printf '%s\n' "$out" >"$tmp/shard-$i.json"
	done
	usage_error merge "$tmp"/shard-*.json &&
		contains "$err" "did not run to its end" "merge of stopped 70-cell shards"
fi
# renamings too, and merge --json reads like solve --json
f="$examples/ninecolour.puz"
run 0 solve "$f" --rename-colours --json
want=$(printf '%s\n' "$out" | sed 's/"seconds": [0-9.]*, //; s/, "threads": [0-9]*//')
rm -f "$tmp"/shard-*.json
for i in 1 2 3; do
	run 0 solve "$f" --rename-colours --shard "$i/3" --json && printf '%s\n' "$out" >"$tmp/shard-$i.json"
done
run 0 merge --json "$tmp"/shard-*.json &&
[ "$(printf '%s\n' "$out" | sed 's/"seconds": [0-9.]*, //; s/, "shards": 3//')" = "$want" ] && ok ||
	bad "merge --json: $out, not $want"
run 0 solve "$DATA/soma.puz" --shard 2/3 && contains "$out" "shard: 2/3 of" "shard text says what it is"
# a shard's count is a part: the JSON carries what merge needs
run 0 solve "$DATA/soma.puz" --shard 1/3 --json && contains "$out" '"numerator": ' "shard numerator" &&
	contains "$out" '"fingerprint": "' "shard fingerprint"
run 0 solve "$DATA/soma.puz" --print --threads 8 && contains "$out" "first solution:" "--print with threads"
# progress goes to a terminal only: nothing on stderr in a pipe
run 0 solve "$DATA/pentacubes-2x3x10.puz" && [ -z "$err" ] && ok || bad "progress in a pipe: $err"
# On a terminal (script(1) gives the command one), a search past a second
# shows its progress on one line rewritten in place, blanked before what
# follows: a solve of the Bedlam cube on one thread, and a block search
# that finds nothing (4x4x4 in 13 pieces of 4 to 6 cells from seed 3, on
# one thread: sets drawn at random, a puzzle among thousands of them
# (docs/puzzles.md), and 5000 of them, none a puzzle, take 4 s on the
# machine of docs/figures.md). A few seconds each: not under valgrind.
if [ -z "${WRAP:-}" ] && command -v script >/dev/null; then
	tty_run() { # tty_run ARGS...: the terminal's transcript in $tty, exit in $tty_rc
		local cmd
		cmd=$(printf '%q ' "$CUBEGEN" "$@")
		script -qec "$cmd" /dev/null </dev/null >"$tmp/tty"
		tty_rc=$?
		tty=$(tr '\r' '\n' <"$tmp/tty")
	}
	tty_run solve "$DATA/bedlam.puz" --threads 1 --difficulty-nodes 1
	contains "$tty" "solving: " "solve shows progress on a terminal"
	[ "$tty_rc" = 0 ] && printf '%s\n' "$tty" | grep -q '^solutions: 19186' && ok ||
		bad "solve on a terminal (exit $tty_rc): no line of its own for the count: $tty"
	# the difficulty search's own line (Bedlam's passes 20 million
	# placements in about 2 s on the machine of docs/figures.md), blanked
	# before the verdict and the difficulty's line
	tty_run check "$DATA/bedlam.puz" --difficulty-nodes 20000000
	contains "$tty" "measuring the difficulty: " "the difficulty search shows progress on a terminal"
	contains "$tty" " of at most 20.0 million placements, " "the difficulty line gives the budget"
	printf '%s\n' "$tty" | grep -q '^difficulty: not measured: over --difficulty-nodes 20000000' &&
		ok || bad "no difficulty line of its own after the progress: $tty"
	run 1 check "$DATA/bedlam.puz" --difficulty-nodes 20000000 && [ -z "$err" ] && ok ||
		bad "difficulty progress in a pipe: $err"
	blocks_slow=(generate --kind blocks --size 4 --pieces 13..13 --cells 4..6 --seed 3
		--max-attempts 5000 --threads 1 --out "$tmp/slow-blocks")
	tty_run "${blocks_slow[@]}"
	[ "$tty_rc" = 1 ] && ok || bad "a block search that finds nothing exited $tty_rc on a terminal"
	contains "$tty" "searching: " "generate --kind blocks shows progress on a terminal"
	contains "$tty" " of 5000 attempts, " "the progress line counts attempts"
	contains "$tty" "at most about " "the progress line bounds the time left"
	# the error line starts a line of its own, after the blanked progress
	printf '%s\n' "$tty" | grep -q '^cubegen: generate: no block puzzle of 4x4x4 in 5000 attempts' &&
		ok || bad "no error line of its own after the progress: $tty"
	[ ! -e "$tmp/slow-blocks" ] && ok || bad "a failed block search left a folder"
	run 1 "${blocks_slow[@]}" && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] &&
		[[ "$err" != *searching* ]] && ok || bad "block search progress in a pipe: $err"
	# convert --solutions: the Bedlam cube's first 10,000 solutions (3 s
	# on the machine of docs/figures.md), its progress then what it wrote
	tty_run convert "$DATA/bedlam.puz" "$tmp/bedlam-tty.xmpuzzle" --solutions --max 10000
	contains "$tty" "finding solutions: " "convert --solutions shows progress on a terminal"
	[ "$tty_rc" = 0 ] && printf '%s\n' "$tty" | grep -q '^wrote: ' && ok ||
		bad "convert on a terminal (exit $tty_rc): no line of its own for what it wrote: $tty"
fi

for v in 0 513 -1 abc 1x ""; do usage_error solve "$DATA/soma.puz" --threads "$v"; done
for v in 0/4 5/4 a/b 1/0 0/0 1/ /4 1/4x 4 1//4 -1/4 1/1000001; do
	usage_error solve "$DATA/soma.puz" --shard "$v"
done
usage_error check "$DATA/soma.puz" --threads 2
usage_error merge
usage_error merge --frob "$tmp/shard-1.json"
usage_error merge "$tmp/no-such.json" && contains "$err" "no-such.json: No such file or directory" "merge of a missing file"
usage_error merge "$tmp" && contains "$err" "is a folder" "merge of a folder"
: >"$tmp/empty.json"
usage_error merge "$tmp/empty.json" && contains "$err" "the file is empty" "merge of an empty file"
printf 'not json' >"$tmp/bad.json"
usage_error merge "$tmp/bad.json" && contains "$err" "not JSON, or cut short" "merge of a file cut short"
# shards through pipes: no size to look at, read all the same
run 0 solve "$DATA/soma.puz" --shard 1/2 --json && printf '%s\n' "$out" >"$tmp/pipe-1.json"
run 0 solve "$DATA/soma.puz" --shard 2/2 --json && printf '%s\n' "$out" >"$tmp/pipe-2.json"
${WRAP:-} "$CUBEGEN" merge <(cat "$tmp/pipe-1.json") "$tmp/pipe-2.json" >"$tmp/out" 2>&1 &&
	grep -q "solutions: 240" "$tmp/out" && ok || bad "merge of a shard through a pipe: $(cat "$tmp/out")"
[[ "$err" != *json_* ]] && ok || bad "merge names json-c's functions: $err"
printf '[1, 2]' >"$tmp/bad.json"
usage_error merge "$tmp/bad.json"
run 0 solve "$DATA/soma.puz" --json && printf '%s\n' "$out" >"$tmp/plain.json"
usage_error merge "$tmp/plain.json" && contains "$err" "shard_index" "merge of a plain solve"
for i in 1 2 3; do
	run 0 solve "$DATA/soma.puz" --shard "$i/3" --json && printf '%s\n' "$out" >"$tmp/soma-$i.json"
	run 0 solve "$DATA/pentacubes-2x3x10.puz" --shard "$i/3" --json && printf '%s\n' "$out" >"$tmp/penta-$i.json"
	run 0 solve "$DATA/soma.puz" --shard "$i/3" --json --rename-colours && printf '%s\n' "$out" >"$tmp/somarc-$i.json"
done
run 0 solve "$DATA/soma.puz" --shard 2/4 --json && printf '%s\n' "$out" >"$tmp/soma-2of4.json"
run 0 solve "$DATA/soma.puz" --shard 3/3 --json --max-nodes 10 && printf '%s\n' "$out" >"$tmp/soma-3max.json"
run 0 merge "$tmp"/soma-[123].json && contains "$out" "solutions: 240" "merge of soma's three"
usage_error merge "$tmp/soma-1.json" "$tmp/soma-2.json" && contains "$err" "missing, shard 3/3 first" "incomplete set"
usage_error merge "$tmp/soma-1.json" "$tmp/soma-2.json" "$tmp/soma-2.json" "$tmp/soma-3.json" &&
	contains "$err" "both shard 2/3" "duplicate shard"
usage_error merge "$tmp/soma-1.json" "$tmp/penta-2.json" "$tmp/soma-3.json" &&
	contains "$err" "different searches" "mixed puzzles"
usage_error merge "$tmp/soma-1.json" "$tmp/somarc-2.json" "$tmp/soma-3.json" &&
	contains "$err" "different searches" "mixed options"
usage_error merge "$tmp/soma-1.json" "$tmp/soma-2of4.json" "$tmp/soma-3.json" &&
	contains "$err" "same K" "mixed K"
# the same puzzle and options split otherwise: shards of two builds
sed 's/"tasks": \([0-9]*\)/"tasks": 1\1/' "$tmp/soma-2.json" >"$tmp/soma-2t.json"
usage_error merge "$tmp/soma-1.json" "$tmp/soma-2t.json" "$tmp/soma-3.json" &&
	contains "$err" "two builds of cubegen" "shards of two builds"
usage_error merge "$tmp/soma-1.json" "$tmp/soma-2.json" "$tmp/soma-3max.json" &&
	contains "$err" "did not run to its end" "incomplete shard"
sed 's/"numerator": [0-9]*/"numerator": 1/' "$tmp/soma-2.json" >"$tmp/soma-2x.json"
usage_error merge "$tmp/soma-1.json" "$tmp/soma-2x.json" "$tmp/soma-3.json" &&
	contains "$err" "do not add up" "a changed numerator"
sed 's/"numerator": [0-9]*/"numerator": -5/' "$tmp/soma-2.json" >"$tmp/soma-2x.json"
usage_error merge "$tmp/soma-1.json" "$tmp/soma-2x.json" "$tmp/soma-3.json"

# --- output folders ----------------------------------------------------------
# default folders, in a folder of their own: a band asked for is in the
# name; render and print name a generated puzzle.puz by its folder, any
# other file by its name less its extension
mkdir -p "$tmp/dcwd"
(
	cd "$tmp/dcwd" || exit 1
	w=${WRAP:-}
	$w "$CUBEGEN" generate --size 3 --seed 1 &&
		$w "$CUBEGEN" generate --size 3 --seed 1 --difficulty easy &&
		$w "$CUBEGEN" render out/cube3-1/puzzle.puz &&
		$w "$CUBEGEN" print out/cube3-1-easy/puzzle.puz &&
		$w "$CUBEGEN" render "$here/data/burr/lohe.key-trap.xmpuzzle" &&
		$w "$CUBEGEN" print "$DATA/soma.puz" &&
		$w "$CUBEGEN" render "$here/data/burrtools/DemoMirrorParadox.xmpuzzle" --problem 2 &&
		$w "$CUBEGEN" print "$here/data/burrtools/DemoMirrorParadox.xmpuzzle" --problem 2 &&
		$w "$CUBEGEN" print "$here/data/burrtools/DemoMirrorParadox.xmpuzzle" --problem 1
) >/dev/null 2>"$tmp/d-err" && ok || bad "default folders: $(cat "$tmp/d-err")"
got=$(cd "$tmp/dcwd/out" && ls | tr '\n' ' ')
[ "$got" = "cube3-1 cube3-1-easy print-DemoMirrorParadox print-DemoMirrorParadox-problem2 print-cube3-1-easy print-soma render-DemoMirrorParadox-problem2 render-cube3-1 render-lohe.key-trap " ] && ok ||
	bad "default folders: $got"
# print --problem K prints problem K's pieces (pieces.txt names them)
diff -q "$tmp/dcwd/out/print-DemoMirrorParadox/pieces.txt" \
	"$tmp/dcwd/out/print-DemoMirrorParadox-problem2/pieces.txt" >/dev/null &&
	bad "print --problem 2: the pieces of problem 1" || ok
for o in '' . .. / ./ a/..; do
	for c in "generate" "coupon" "render $DATA/soma.puz" "print $DATA/soma.puz"; do
		usage_error $c --out "$o"
	done
done
run 0 generate --seed 1 --out "$tmp/slash/" && contains "$out" "wrote: $tmp/slash/" "a trailing slash is not doubled"
[[ "$out" != *"//"* ]] && ok || bad "wrote a doubled slash: $out"
run 2 generate --unit 1 && contains "$err" "cubegen: --unit: 1 mm less the 0.2 mm clearance" \
	"a unit too small for the plates is named as --unit"
run 1 generate --seed 1 --out "$tmp/g1" && contains "$err" "already exists" "existing folder refused"
# a file system that takes no folders says so, not "No such file"
if [ -d /proc/self ]; then
	run 1 generate --seed 1 --out /proc/cubegen-test &&
		contains "$err" "/proc: cannot create a folder there (a file system that takes none)" \
			"/proc refused in its own words"
fi
cmp -s "$tmp/g1/puzzle.puz" "$tmp/g2/puzzle.puz" && ok || bad "refused folder was changed"
run 0 generate --seed 1 --out "$tmp/g1" --force
cmp -s "$tmp/g1/puzzle.puz" "$tmp/g2/puzzle.puz" && bad "--force did not replace" || ok
mkdir -p "$tmp/precious" && echo keep >"$tmp/precious/notes.txt"
run 1 generate --seed 1 --out "$tmp/precious" --force && contains "$err" "refusing to replace" "foreign folder kept"
[ -f "$tmp/precious/notes.txt" ] && ok || bad "--force destroyed a foreign folder"
# a folder cubegen wrote, with a file and a folder of the user's put in it
echo mine >"$tmp/g1/my-project.3mf"
cp "$tmp/g1/puzzle.puz" "$tmp/g1-before.puz"
run 1 generate --seed 2 --out "$tmp/g1" --force &&
	contains "$err" "it holds 'my-project.3mf', which cubegen did not write" "a user's file named"
[ -f "$tmp/g1/my-project.3mf" ] && cmp -s "$tmp/g1/puzzle.puz" "$tmp/g1-before.puz" && ok ||
	bad "--force replaced a folder holding a file of the user's"
rm "$tmp/g1/my-project.3mf" && mkdir "$tmp/g1/photos"
run 1 generate --seed 2 --out "$tmp/g1" --force && contains "$err" "it holds 'photos'" "a user's folder named"
rmdir "$tmp/g1/photos"
# a folder of the user's that bears a name cubegen writes is not cubegen's
mkdir -p "$tmp/trap/puzzle.puz" && echo keep >"$tmp/trap/puzzle.puz/thesis.tex"
run 1 coupon --out "$tmp/trap" --force && contains "$err" "refusing to replace" "a folder named puzzle.puz is no marker"
[ -f "$tmp/trap/puzzle.puz/thesis.tex" ] && ok || bad "--force deleted a folder named like a file cubegen writes"
echo x >"$tmp/afile"
run 1 generate --seed 1 --out "$tmp/afile" --force &&
	contains "$err" "already exists and is not a folder" "a file is not offered --force"
# what goes to standard output must get there: a full device is a failure
if [ -w /dev/full ]; then
	for args in "solve $DATA/soma.puz" "solve --json $DATA/soma.puz" "--help" "merge --help"; do
		${WRAP:-} "$CUBEGEN" $args >/dev/full 2>"$tmp/err"
		got=$?
		slurp err "$tmp/err"
		[ "$got" = 1 ] && [[ "$err" == "cubegen: "*"cannot write to standard output: No space left on device" ]] && ok ||
			bad "cubegen $args >/dev/full: exit $got, stderr: $err"
	done
fi
leftovers=$(find "$tmp" -maxdepth 1 -name '.*tmp-*' -o -maxdepth 1 -name '.*old-*' | wc -l)
[ "$leftovers" = 0 ] && ok || bad "temporary folders left behind: $leftovers"

# Memory running out at every point from the start to the last file: no
# hidden temporary folder is left (its removal allocates nothing). Not
# under a wrapper or the sanitizers, which need more address space. The
# limits go up from where the program starts at all until a run gets
# through; at least one run must fail in cubegen's own words (exit 1 and
# a "cubegen:" line), past the loader, or the limits test nothing here.
mkdir -p "$tmp/lowmem"
# (the probes in a subshell of their own, whose stderr takes bash's word
# of a child killed, as ASan's is at a limit)
if [ -z "${WRAP:-}" ] && ( (ulimit -v 64000 && "$CUBEGEN" --version) >/dev/null 2>&1; exit $?) 2>/dev/null; then
	failed=0 passed=0
	for kb in $(seq 3000 500 64000); do
		( (ulimit -v $kb && "$CUBEGEN" --version) >/dev/null 2>&1; exit $?) 2>/dev/null || continue
		for c in "generate --size 5 --seed 1" "coupon"; do
			( (ulimit -v $kb && exec "$CUBEGEN" $c --out "$tmp/lowmem/o$kb") >/dev/null 2>"$tmp/lm-err"; exit $?) 2>/dev/null
			rc=$?
			if [ $rc = 0 ]; then
				passed=$((passed + 1))
			elif [ $rc = 1 ] && grep -q '^cubegen: ' "$tmp/lm-err"; then
				failed=$((failed + 1))
			fi
			rm -rf "$tmp/lowmem/o$kb"
		done
		[ $passed -ge 2 ] && break
	done
	[ "$failed" -gt 0 ] && ok || bad "no run under a memory limit failed in cubegen's words: the limits test nothing"
	[ -z "$(ls -A "$tmp/lowmem")" ] && ok || bad "out of memory left: $(ls -A "$tmp/lowmem")"
fi

# A parent that cannot be written: a read-only mount when we may mount
# (root), else a folder without write permission.
mkdir -p "$tmp/ro"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o ro,size=64k tmpfs "$tmp/ro" 2>/dev/null; then
	mounted="$tmp/ro"
else
	chmod 555 "$tmp/ro"
fi
if [ "$(id -u)" = 0 ] && [ -z "$mounted" ]; then
	bad "cannot make a read-only folder to test with (no mount as root)"
else
	run 1 generate --seed 3 --out "$tmp/ro/puzzle" && contains "$err" "cannot create a folder there" "read-only parent"
	[ -z "$(ls -A "$tmp/ro")" ] && ok || bad "read-only parent: something was left: $(ls -A "$tmp/ro")"
fi
[ -n "$mounted" ] && umount "$mounted" && mounted=""

# A disk that fills up halfway: nothing half-written under the target.
mkdir -p "$tmp/full"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=12k tmpfs "$tmp/full" 2>/dev/null; then
	mounted="$tmp/full"
	run 1 generate --size 40 --seed 3 --out "$tmp/full/puzzle" && contains "$err" "cannot write" "full disk"
	[ -z "$(ls -A "$tmp/full")" ] && ok || bad "full disk: something was left: $(ls -A "$tmp/full")"
	umount "$mounted" && mounted=""
fi

# --- convert ------------------------------------------------------------------
run 0 convert --help && contains "$out" "usage: cubegen convert" "convert --help"
usage_error convert
usage_error convert "$DATA/soma.puz"
usage_error convert "$DATA/soma.puz" "$tmp/a.puz" "$tmp/b.puz"
usage_error convert --bogus "$DATA/soma.puz" "$tmp/a.puz"
usage_error convert "$DATA/soma.puz" "$tmp/a.xmpuzzle" --max 3
contains "$err" "only with --solutions" "--max needs --solutions"
usage_error convert "$DATA/soma.puz" "$tmp/a.puz" --solutions
contains "$err" "only a .xmpuzzle" "--solutions needs a .xmpuzzle"
usage_error convert "$DATA/soma.puz" "$tmp/a.txt"
contains "$err" "unknown output format" "output extension"
usage_error convert "$DATA/soma.puz" "$tmp/a.hcq"
contains "$err" "read only" ".hcq is read only"
cp "$DATA/soma.puz" "$tmp/soma.txt"
usage_error convert "$tmp/soma.txt" "$tmp/a.puz"
contains "$err" "unknown input format" "input extension"
usage_error convert "$DATA/soma.puz" "$DATA/soma.puz"
contains "$err" "the output is the input" "same file"
usage_error convert "$DATA/soma.puz" "$DATA/../classic/soma.puz" --force
contains "$err" "the output is the input" "same file by another name"
usage_error convert "$DATA/colour-mix.puz" "$tmp/mix.xmpuzzle"
contains "$err" "no distinct regions" "distinct regions refused"
[ ! -e "$tmp/mix.xmpuzzle" ] && ok || bad "a refused convert left a file"
usage_error convert "$tmp/does-not-exist.puz" "$tmp/a.xmpuzzle"
# a puzzle, and its solutions, as BurrTools files
run 0 convert "$DATA/soma.puz" "$tmp/soma.xmpuzzle" --solutions &&
	contains "$out" "solutions: 240, all of them" "convert soma solutions"
[ "$(head -c 2 "$tmp/soma.xmpuzzle" | od -An -tx1 | tr -d ' ')" = 1f8b ] && ok ||
	bad "a .xmpuzzle is gzip-compressed"
n=$(gzip -dc "$tmp/soma.xmpuzzle" | grep -c '<assembly>')
[ "$n" = 240 ] && ok || bad "soma.xmpuzzle holds $n assemblies, expected 240"
run 1 convert "$DATA/soma.puz" "$tmp/soma.xmpuzzle" &&
	contains "$err" "already exists (use --force" "existing output refused"
usage_error convert "$tmp/does-not-exist.puz" "$tmp/soma.xmpuzzle"
contains "$err" "does-not-exist.puz: No such file or directory" "a missing input is said before an existing output"
run 0 convert "$DATA/soma.puz" "$tmp/soma.xmpuzzle" --solutions --force
run 0 convert "$DATA/soma.puz" "$tmp/soma2.xmpuzzle" --solutions
cmp -s "$tmp/soma.xmpuzzle" "$tmp/soma2.xmpuzzle" && ok || bad "convert is not deterministic"
run 0 convert "$DATA/soma.puz" "$tmp/soma-max.xmpuzzle" --solutions --max 5 &&
	contains "$out" "the first 5 of" "--max caps the solutions"
n=$(gzip -dc "$tmp/soma-max.xmpuzzle" | grep -c '<assembly>')
[ "$n" = 5 ] && ok || bad "--max 5 wrote $n assemblies"
run 0 convert "$DATA/soma.puz" "$tmp/plain.xmpuzzle"
gzip -dc "$tmp/plain.xmpuzzle" | grep -q '<solutions>' && bad "solutions written unasked" || ok
# .puz and .hcq into .puz: the same puzzle
run 0 convert "$DATA/HC_BQ_001.hcq" "$tmp/hc.puz"
run 0 solve "$tmp/hc.puz" && contains "$out" "solutions: 1" "hcq converted to puz"
run 0 convert "$DATA/colour-mix.puz" "$tmp/mix.puz"
run 0 solve "$tmp/mix.puz" && contains "$out" "solutions: 74893" "puz converted to puz"
leftovers=$(find "$tmp" -maxdepth 1 -name '.*.tmp-*' | wc -l)
[ "$leftovers" = 0 ] && ok || bad "convert left temporary files: $leftovers"
run 1 convert "$DATA/soma.puz" "$tmp/no/such/folder/soma.puz" && contains "$err" "cannot write" "convert into a missing folder"
mkdir -p "$tmp/cfull"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=12k tmpfs "$tmp/cfull" 2>/dev/null; then
	mounted="$tmp/cfull"
	grep -v '^distinct' "$DATA/colour-mix.puz" >"$tmp/mix-nd.puz"
	run 1 convert "$tmp/mix-nd.puz" "$tmp/cfull/b.xmpuzzle" --solutions --max 3000 &&
		contains "$err" "cannot write" "convert onto a full disk"
	[ -z "$(ls -A "$tmp/cfull")" ] && ok || bad "full disk: convert left: $(ls -A "$tmp/cfull")"
	umount "$mounted" && mounted=""
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" = 0 ]
