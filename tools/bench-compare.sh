#!/usr/bin/env bash
# bench-compare.sh [--rounds N] [BASE [GROUP]]: `make bench`'s rows for
# the build of commit BASE (default HEAD) and for this tree as it is (with
# its changes), side by side. This machine's speed wanders (by a quarter
# within an hour, docs/figures.md), so only builds run in turn compare:
# the two benches run one after the other, N rounds (default 3), and each
# row shows each build's least and greatest time and the speed-up on the
# least. GROUP is a bench option (default --solve: the counts on one core
# and on all; --quick, --wide, --proofs, --disassemble, --blocks, --climb,
# or "" for every row). Run by `make bench-compare BASE=... GROUP=...
# ROUNDS=...`.
#
# BASE is built once from its own files (git archive) in
# build-bench-base/COMMIT/ and kept there; this tree in build-bench/. The
# runs' outputs and the table go to build-bench/compare/. Exit 2 on bad
# usage (one line), 1 when a build or a bench fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
rounds=3
if [ "${1:-}" = "--rounds" ]; then
	rounds=${2:-}
	shift 2 || true
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]?$ ]]; then
	echo "bench-compare: --rounds wants a number from 1 to 99, not '$rounds'" >&2
	exit 2
fi
base=${1:-HEAD}
group=${2---solve}
if [ $# -gt 2 ]; then
	echo "usage: tools/bench-compare.sh [--rounds N] [BASE [GROUP]]" >&2
	exit 2
fi
case "$group" in
"" | --quick | --solve | --wide | --proofs | --disassemble | --blocks | --climb) ;;
*)
	echo "bench-compare: $group: not a bench group (--solve, --quick, --wide, --proofs, --disassemble, --blocks, --climb or \"\")" >&2
	exit 2
	;;
esac
if ! sha=$(git rev-parse --verify --quiet "$base^{commit}"); then
	echo "bench-compare: $base: no such commit here" >&2
	exit 2
fi
short=$(git rev-parse --short "$sha")
now=$(git describe --always --dirty 2>/dev/null || echo "this tree")
opt="-O2 -g -DNDEBUG"
jobs=$(nproc 2>/dev/null || echo 2)

dir=build-bench-base/$sha
if [ ! -x "$dir/build-bench/bench/bench" ]; then
	echo "bench-compare: building $short in $dir" >&2
	rm -rf "$dir" "$dir.part"
	mkdir -p "$dir.part"
	git archive "$sha" | tar -x -C "$dir.part"
	make -s -C "$dir.part" -j"$jobs" OPT="$opt" BUILD=build-bench \
	    build-bench/bench/bench build-bench/cubegen >&2 ||
		{ echo "bench-compare: $short does not build" >&2; exit 1; }
	mv "$dir.part" "$dir"
fi
echo "bench-compare: building this tree in build-bench" >&2
make -s -j"$jobs" OPT="$opt" BUILD=build-bench build-bench/bench/bench \
    build-bench/cubegen >&2 || { echo "bench-compare: this tree does not build" >&2; exit 1; }

out=build-bench/compare
rm -rf "$out"
mkdir -p "$out"
# run WHO R: one run of that build's bench, from its own tree (the bench
# reads tests/data and runs build-bench/cubegen relative to it)
run() {
	local at=. rc=0
	[ "$1" = base ] && at=$dir
	echo "bench-compare: round $2 of $rounds: $1" >&2
	(cd "$at" && ./build-bench/bench/bench ${group:+"$group"}) >"$out/$1.$2" || rc=$?
	if [ "$rc" != 0 ]; then
		echo "bench-compare: $1's bench failed (exit $rc; does it know '$group'? benches before --solve know --quick, --wide, --proofs, --disassemble, --blocks, --climb and \"\")" >&2
		exit 1
	fi
}
for r in $(seq 1 "$rounds"); do
	# the order changes every round, so that neither build always runs
	# on the heels of the other
	if [ $((r % 2)) = 1 ]; then
		run base "$r"; run now "$r"
	else
		run now "$r"; run base "$r"
	fi
done
awk -v base="$short ($base)" -v now="$now" -f tools/bench-merge.awk \
    "$out"/base.* "$out"/now.* | tee "$out/table.md"
