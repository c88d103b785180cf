#!/usr/bin/env bash
# fault/cli.sh: out of memory as a user meets it. The fault-built cubegen
# (tests/fault/fault.h) fails allocation k of its run when
# CUBEGEN_FAULT_AT=k, and counts its allocations with CUBEGEN_FAULT_COUNT.
# For the k below that count (every k for small counts; for large ones the
# first 100, every 17th and the last 60, since test_fault already fails
# every allocation of the same jobs in-process) each run must either do the whole job (the
# same output as a run with no failure, the same files byte for byte) or
# exit 1 with exactly one line on stderr saying "out of memory", leaving
# no folder and no temporary folder behind. Never a crash, a wrong count or
# another exit code.
#
# Run by `make test` as:
#   CUBEGEN=/abs/build/fault/cubegen DATA=/abs/tests/data/classic bash tests/fault/cli.sh
# With PART=i/n it runs only every n-th of those k, from the i-th (1 to
# n): `make test` runs the parts side by side, one a core.
set -u
CUBEGEN=${CUBEGEN:?set CUBEGEN to the fault-built cubegen}
DATA=${DATA:?set DATA to tests/data/classic}
part=${PART:-1/1}
part_i=${part%/*} part_n=${part#*/}
if ! [[ "$part_i" =~ ^[0-9]+$ && "$part_n" =~ ^[0-9]+$ ]] ||
   ((part_i < 1 || part_i > part_n)); then
	echo "fault/cli.sh: PART must be i/n with 1 <= i <= n, not '$part'"
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a glob that matches nothing is empty; * takes in dot files too
shopt -s nullglob dotglob
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# Output without the lines that differ from run to run.
steady() { grep -v -e '^time:' "$1" | sed 's/, "seconds": [0-9.]*}$/}/'; }

# every_fault NAME DIR ARGS...: the reference run, then every k. DIR is
# the folder the command writes into (an empty parent folder of its own;
# "" for a command that writes nothing).
every_fault() {
	local name=$1 dir=$2
	shift 2
	CUBEGEN_FAULT_COUNT=1 "$CUBEGEN" "$@" >"$tmp/ref.out" 2>"$tmp/ref.err"
	local rc=$?
	local allocs
	allocs=$(sed -n 's/^fault: allocations: //p' "$tmp/ref.err")
	if [ "$rc" != 0 ] || [ -z "$allocs" ]; then
		bad "$name: reference run exited $rc: $(cat "$tmp/ref.err")"
		return
	fi
	[ -n "$dir" ] && mv "$dir" "$tmp/ref.dir"
	local k errors=0 full=0
	local runs=0 picked=0
	for ((k = 0; k < allocs; k++)); do
		if ((k >= 100 && k < allocs - 60 && k % 17 != 0)); then
			continue
		fi
		picked=$((picked + 1))
		if (((picked - 1) % part_n != part_i - 1)); then
			continue
		fi
		runs=$((runs + 1))
		CUBEGEN_FAULT_AT=$k "$CUBEGEN" "$@" >"$tmp/out" 2>"$tmp/err"
		rc=$?
		# what the run left in its folder's parent (builtins only: a
		# process started costs more than most runs here)
		left=()
		[ -n "$dir" ] && left=("${dir%/*}"/*)
		if [ "$rc" = 0 ]; then
			full=$((full + 1))
			diff <(steady "$tmp/out") <(steady "$tmp/ref.out") >/dev/null ||
				bad "$name: k=$k: exit 0 with different output"
			if [ -n "$dir" ]; then
				diff -r "$dir" "$tmp/ref.dir" >/dev/null ||
					bad "$name: k=$k: exit 0 with different files"
			fi
		elif [ "$rc" = 1 ]; then
			errors=$((errors + 1))
			errtext=""
			# read succeeds only when it stops at a NUL byte
			IFS= read -r -d '' errtext <"$tmp/err" && errtext+=" (and a NUL byte)"
			# exactly one line, "cubegen: ... out of memory ..."
			if [[ $errtext != "cubegen: "*"out of memory"*$'\n' ||
			      ${errtext%$'\n'} == *$'\n'* ]]; then
				bad "$name: k=$k: exit 1 without one 'out of memory' line: $errtext"
			fi
			if ((${#left[@]})); then
				bad "$name: k=$k: left behind: ${left[*]##*/}"
			fi
		else
			bad "$name: k=$k: exit $rc: $(head -c 300 "$tmp/err")"
		fi
		if ((${#left[@]})); then
			rm -rf "${dir%/*}" && mkdir -p "${dir%/*}"
		fi
	done
	rm -rf "$tmp/ref.dir"
	echo "  $name: $runs of $allocs allocations failed one at a time (part $part): $errors errors, $full full results"
}

every_fault "solve Soma" "" solve "$DATA/soma.puz"
every_fault "solve Soma --print" "" solve "$DATA/soma.puz" --print
every_fault "solve blue" "" solve "$DATA/happycube-blue.puz" --print
every_fault "check HC_BQ_001.hcq" "" check "$DATA/HC_BQ_001.hcq"
# a BurrTools file: zlib's and expat's allocations fail too
every_fault "solve DemoMirrorParadox.xmpuzzle" "" solve "$DATA/../burrtools/DemoMirrorParadox.xmpuzzle" --problem 2
mkdir -p "$tmp/gen"
every_fault "generate --size 4" "$tmp/gen/out" generate --size 4 --seed 7 --out "$tmp/gen/out"
mkdir -p "$tmp/blocks"
every_fault "generate --kind blocks" "$tmp/blocks/out" generate --kind blocks --size 3 --pieces 4 --cells 5..8 --seed 1 --out "$tmp/blocks/out"
mkdir -p "$tmp/lock"
every_fault "generate --kind blocks --level 2" "$tmp/lock/out" generate --kind blocks --size 3 --pieces 2 --level 2 --seed 1 --out "$tmp/lock/out"
mkdir -p "$tmp/band"
every_fault "generate --difficulty hard" "$tmp/band/out" generate --seed 42 --difficulty hard --out "$tmp/band/out"
every_fault "solve 2x3x10 --difficulty-nodes 20000" "" solve "$DATA/pentacubes-2x3x10.puz" --difficulty-nodes 20000
every_fault "solve colour-mix --print" "" solve "$DATA/colour-mix.puz" --print
every_fault "solve colour-mix --rename-colours" "" solve "$DATA/colour-mix.puz" --rename-colours
every_fault "solve ninecolour --print" "" solve "$DATA/../../../examples/ninecolour.puz" --print
# a renaming that keeps the puzzle (ab <-> cd): the per-cover stabilisers
printf 'puzzle v1\ngoal 2 2 1\n##\n##\npiece P 2 1 1\nab\npiece Q 2 1 1\ncd\n' >"$tmp/rename.puz"
every_fault "solve --rename-colours (ab, cd)" "" solve "$tmp/rename.puz" --rename-colours
every_fault "batch --size 4 --difficulty medium" "" batch --size 4 --seeds 6..7 --difficulty medium
mkdir -p "$tmp/render"
every_fault "render Soma" "$tmp/render/out" render "$DATA/soma.puz" --out "$tmp/render/out"
mkdir -p "$tmp/print"
every_fault "print Soma --wall 3" "$tmp/print/out" print "$DATA/soma.puz" --wall 3 --out "$tmp/print/out"
# a small colour puzzle with pieces of several colours: coloured
# pictures, meshes split by colour, per-triangle colours in plate.3mf
printf 'puzzle v1\nname mixed colours\ncolour a FF0000\ncolour b 00FF00\ngoal 4 2 1\naa#b\n#bba\npiece L 2 2 1\nab\nb.\npiece M 3 1 1\na#b\npiece P 1 1 1\n#\npiece Q 1 1 1\na\n' >"$tmp/mixed.puz"
mkdir -p "$tmp/rmix" "$tmp/pmix"
every_fault "render mixed colours" "$tmp/rmix/out" render "$tmp/mixed.puz" --out "$tmp/rmix/out"
every_fault "print mixed colours --wall 3" "$tmp/pmix/out" print "$tmp/mixed.puz" --wall 3 --out "$tmp/pmix/out"
# without --wall: solved for solution.html all the same
mkdir -p "$tmp/pmix2"
every_fault "print mixed colours" "$tmp/pmix2/out" print "$tmp/mixed.puz" --out "$tmp/pmix2/out"
mkdir -p "$tmp/coupon"
every_fault "coupon" "$tmp/coupon/out" coupon --clearances 0.1,0.2 --wall 3 --out "$tmp/coupon/out"
mkdir -p "$tmp/convert"
# (Soma's solutions as BurrTools assemblies: test_fault, in-process)
printf 'puzzle v1\ngoal 3 2 1\nab+\n###\npiece L 2 2 1\nab\n#.\npiece D 1 1 1 count 1..3\n#\npiece E 1 1 1\n#\n' >"$tmp/conv.puz"
every_fault "convert colours --solutions" "$tmp/convert/c.xmpuzzle" convert "$tmp/conv.puz" "$tmp/convert/c.xmpuzzle" --solutions
# optional cells of colours a and b, and a renaming (a <-> b) that moves them
printf 'puzzle v1\ngoal 3 1 1\nA#B\npiece a 1 1 1 count 0..1\na\npiece b 1 1 1 count 0..1\nb\npiece s 1 1 1\n#\n' >"$tmp/copt.puz"
every_fault "solve coloured optional --rename-colours" "" solve "$tmp/copt.puz" --rename-colours

if [ "$fail" -ne 0 ]; then
	echo "fault/cli.sh (part $part): $fail failures"
	exit 1
fi
echo "fault/cli.sh (part $part): all passed"
