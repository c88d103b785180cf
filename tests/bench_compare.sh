#!/usr/bin/env bash
# bench_compare.sh: tools/bench-merge.awk, which puts the runs of two
# builds' bench side by side (least and greatest time, the speed-up, notes
# that differ other than in time), on canned runs; and the refusals of
# tools/bench-compare.sh (`make bench-compare`) before it builds anything.
# The whole comparison builds a second tree and runs benches for minutes:
# run by hand (docs/development.md), not here.
#
# Run by `make test` as: bash tests/bench_compare.sh (CUBEGEN, DATA unused)
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/tools/clilib.sh"

# --- two runs of each build: the header lines and rule of bench's table
# are skipped, times in four units, a share, a thread row whose speed-up
# differs (not a difference of search), nodes that differ (one), a row
# only base has and one only now has
cat >"$tmp/base.1" <<'T'
cubegen bench: 2 cores online; medians of repeated runs; list passes on AVX-512

| what                                               |             figure | note                                 |
|----------------------------------------------------|--------------------|--------------------------------------|
| solve: Tetris cube                                 |             2.40 s | 9839 solutions, 18311792 nodes (1 run) |
| solve: Soma cube, all solutions                    |          310.00 µs | 240 solutions, 3552 nodes            |
| unique share, 5x5x5                                |             41.2 % | 4000 candidates                      |
| solve: Bedlam cube, 2 threads                      |             1.20 s | x1.80, 300 tasks, 19186 solutions (1 run) |
| rng: one draw                                      |            12.0 ns | gone since                           |
T
cat >"$tmp/base.2" <<'T'
| solve: Tetris cube                                 |             2.10 s | 9839 solutions, 18311792 nodes (1 run) |
| solve: Soma cube, all solutions                    |          330.00 µs | 240 solutions, 3552 nodes            |
| unique share, 5x5x5                                |             41.2 % | 4000 candidates, 63981 unique puzzles/s |
| solve: Bedlam cube, 2 threads                      |             1.30 s | x1.70, 300 tasks, 19186 solutions (1 run) |
| rng: one draw                                      |            12.0 ns | gone since                           |
T
cat >"$tmp/now.1" <<'T'
| solve: Tetris cube                                 |             1.05 s | 9839 solutions, 9000000 nodes (1 run) |
| solve: Soma cube, all solutions                    |          310.00 µs | 240 solutions, 3552 nodes            |
| unique share, 5x5x5                                |             41.3 % | 4000 candidates                      |
| solve: Bedlam cube, 2 threads                      |             0.90 s | x1.95, 300 tasks, 19186 solutions (1 run) |
| solve: new row                                     |            5.00 ms | only in now                          |
T
cat >"$tmp/now.2" <<'T'
| solve: Tetris cube                                 |             1.20 s | 9839 solutions, 9000000 nodes (1 run) |
| solve: Soma cube, all solutions                    |          300.00 µs | 240 solutions, 3552 nodes            |
| unique share, 5x5x5                                |             41.3 % | 4000 candidates, 45564 unique puzzles/s |
| solve: Bedlam cube, 2 threads                      |          900.00 ms | x1.90, 300 tasks, 19186 solutions (1 run) |
| solve: new row                                     |            5.00 ms | only in now                          |
T
cat >"$tmp/want" <<'T'
base: abc (HEAD~1); now: def-dirty; 2 and 2 runs, in turn; each build's least and greatest time

| what                                               | base                     | now                      | speed-up | note (now) |
|----------------------------------------------------|--------------------------|--------------------------|----------|------------|
| solve: Tetris cube                                 | 2.10 s to 2.40 s         | 1.05 s to 1.20 s         | 2.00×    | 9839 solutions, 9000000 nodes (1 run) (base: 9839 solutions, 18311792 nodes (1 run)) |
| solve: Soma cube, all solutions                    | 310.00 µs to 330.00 µs   | 300.00 µs to 310.00 µs   | 1.03×    | 240 solutions, 3552 nodes |
| unique share, 5x5x5                                | 41.2 %                   | 41.3 %                   | -        | 4000 candidates, 45564 unique puzzles/s |
| solve: Bedlam cube, 2 threads                      | 1.20 s to 1.30 s         | 900.00 ms                | 1.33×    | x1.90, 300 tasks, 19186 solutions (1 run) |
| solve: new row                                     | -                        | 5.00 ms                  | -        | only in now |
| rng: one draw                                      | 12.0 ns                  | -                        | -        | (not in now) |
T
merge() { awk -v base="abc (HEAD~1)" -v now="def-dirty" -f "$root/tools/bench-merge.awk" "$@"; }
(cd "$tmp" && merge base.1 base.2 now.1 now.2) >"$tmp/got" 2>"$tmp/err"
if cmp -s "$tmp/want" "$tmp/got" && [ ! -s "$tmp/err" ]; then ok; else
	bad "bench-merge.awk: $(diff "$tmp/want" "$tmp/got") $(cat "$tmp/err")"
fi
# the order of the files does not matter
(cd "$tmp" && merge now.2 base.2 now.1 base.1) >"$tmp/got2"
cmp -s "$tmp/got" "$tmp/got2" && ok || bad "bench-merge.awk depends on the order of its files"

# refusals: a file of neither build, one build's runs alone
cp "$tmp/now.1" "$tmp/other.1"
(cd "$tmp" && merge base.1 other.1) >"$tmp/got" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q 'other.1: not named base.N or now.N' "$tmp/err" && ok ||
	bad "bench-merge.awk took other.1 (exit $rc): $(cat "$tmp/err")"
(cd "$tmp" && merge base.1 base.2) >"$tmp/got" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q 'need the runs of both builds' "$tmp/err" && ok ||
	bad "bench-merge.awk with base's runs alone exited $rc: $(cat "$tmp/err")"

# --- bench-compare.sh: bad usage is one line and exit 2, before any build
refuses() { # refuses NEEDLE ARGS...
	local needle=$1
	shift
	bash "$root/tools/bench-compare.sh" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
		grep -q -- "$needle" "$tmp/err"; then
		ok
	else
		bad "bench-compare.sh $*: exit $rc, stderr: $(cat "$tmp/err")"
	fi
}
refuses "--rounds wants a number from 1 to 99, not '0'" --rounds 0 HEAD
refuses "--rounds wants a number from 1 to 99, not 'x'" --rounds x
refuses "no-such-commit-here: no such commit here" no-such-commit-here
refuses "--fast: not a bench group" HEAD --fast
refuses "usage: tools/bench-compare.sh" HEAD --solve extra
[ ! -e "$root/build-bench-base/no-such-commit-here" ] && ok ||
	bad "bench-compare.sh made a folder for a commit that does not exist"

echo "bench_compare: $pass passed, $fail failed"
[ "$fail" = 0 ]
