#!/usr/bin/env bash
# disasm.sh: command-line tests of --disassemble (solve, check, merge,
# convert): BurrTools' counts and levels on its own files, the moves
# printed, threads and shards agreeing, bad input refused with one line.
#
# Run by `make test` as: CUBEGEN=/abs/cubegen DATA=/abs/tests/data/classic bash tests/disasm.sh
# With WRAP set (e.g. to a valgrind command line), every cubegen runs under it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
CUBEGEN=${CUBEGEN:?set CUBEGEN to the cubegen binary}
DATA=${DATA:?set DATA to tests/data/classic}
bt=$here/data/burrtools
burr=$here/data/burr
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/tools/clilib.sh"
counts() { grep -v '^time: '; }

# --- the README's example, run from the repository as it shows it: every
# line it prints but the time
root=$(cd "$here/.." && pwd)
want=$(sed -n '/^\$ cubegen solve examples\/PelikanBurr.xmpuzzle --disassemble$/,/^```$/p' \
	"$root/README.md" | sed '1d;$d' | grep -v '^time: ')
got=$(cd "$root" && ${WRAP:-} "$CUBEGEN" solve examples/PelikanBurr.xmpuzzle --disassemble |
	grep -v '^time: ')
[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "README's --disassemble example: got $got"
# and the man page's
(cd "$root" && ${WRAP:-} "$CUBEGEN" solve examples/PelikanBurr.xmpuzzle --disassemble --print \
	>"$tmp/man.out") && grep -q '^its moves (level 98.2.4):$' "$tmp/man.out" && ok ||
	bad "the man page's --disassemble --print example"

# --- Pelikan's burr: 12 assemblies up to symmetry, one comes apart, 98.2.4
f=$bt/PelikanBurr.xmpuzzle
run 0 solve "$f" --disassemble --threads 1 &&
	contains "$out" "solutions: 1 (come apart)" "Pelikan solutions" &&
	contains "$out" "stuck: 11 (solutions that do not come apart)" "Pelikan stuck" &&
	contains "$out" "level: 98.2.4 (the highest; 1 solution)" "Pelikan level"
whole=$(printf '%s\n' "$out" | counts)
run 0 solve "$f" && contains "$out" "solutions: 12" "Pelikan without --disassemble"
run 0 solve "$f" --disassemble --json &&
	contains "$out" '"disassembled": true, "stuck": 11, "undecided": 0' "Pelikan JSON" &&
	contains "$out" '"max_level": [98, 2, 4], "max_level_solutions": 1' "Pelikan JSON level" &&
	contains "$out" '"moves": ["' "Pelikan JSON moves"
# --print: the first solution, then its moves, one a line, ending in
# single pieces: 98 + 2 + 4 moves of the three parts that take more than
# one, and 3 single ones: 107 lines after the heading
run 0 solve "$f" --disassemble --print &&
	contains "$out" "its moves (level 98.2.4):" "Pelikan --print heading"
n=$(printf '%s\n' "$out" | sed -n '/^its moves/,$p' | tail -n +2 | wc -l)
[ "$n" -ge 107 ] && ok || bad "Pelikan --print: $n moves, expected 107 or more"
outs=$(printf '%s\n' "$out" | sed -n '/^its moves/,$p' | grep -c ' out$')
[ "$outs" = 6 ] && ok || bad "Pelikan --print: $outs pieces freed, expected 6"
printf '%s\n' "$out" | sed -n '/^its moves/,$p' | tail -n +2 |
	grep -qvE '^([A-Za-z0-9]+ )+[+-][xyz] ([0-9]+|out)$' &&
	bad "Pelikan --print: a move line of another form" || ok
# threads and shards count the same (not under valgrind: make tsan runs
# a threaded --disassemble, and the unit tests count them)
if [ -z "${WRAP:-}" ]; then
for t in 2 4; do
	run 0 solve "$f" --disassemble --threads $t &&
	[ "$(printf '%s\n' "$out" | counts)" = "$whole" ] && ok ||
	bad "Pelikan --disassemble --threads $t differs: $out"
done
rm -f "$tmp"/shard-*.json
for i in 1 2 3; do
	run 0 solve "$f" --disassemble --shard "$i/3" --json &&
	printf '%s\n' "$out" >"$tmp/shard-$i.json"
done
run 0 merge "$tmp"/shard-*.json &&
	[ "$(printf '%s\n' "$out" | counts)" = "$(printf '%s\n' "$whole" | grep -v '^problem')" ] && ok ||
	bad "Pelikan: merge of 3 --disassemble shards differs: $out"
run 0 merge --json "$tmp"/shard-*.json &&
	contains "$out" '"max_level": [98, 2, 4], "max_level_solutions": 1' "merge --json level"
# a plain shard and a --disassemble shard are not one search
run 0 solve "$f" --shard 2/3 --json && printf '%s\n' "$out" >"$tmp/shard-2.json"
usage_error merge "$tmp"/shard-*.json && contains "$err" "different searches" "mixed shards refused"
fi
# check: unique among the solutions that come apart
run 0 check "$f" --disassemble && contains "$out" "unique: exactly 1 solution that comes apart" "check --disassemble"
run 1 check "$f" && contains "$out" "not unique: at least 2 solutions" "check without --disassemble"
# --min-level
run 0 solve "$f" --disassemble --min-level 98 && contains "$out" "solutions: 1 (come apart, first level at least --min-level)" "--min-level 98"
run 0 solve "$f" --disassemble --min-level 99 && contains "$out" "solutions: 0" "--min-level 99" &&
	contains "$out" "below level 99: 1" "--min-level 99 says what it left out"
run 1 check "$f" --disassemble --min-level 99
for v in 0 -1 x 1.5 ""; do usage_error solve "$f" --disassemble --min-level "$v"; done
usage_error solve "$f" --min-level 3
usage_error check "$f" --min-level 3
usage_error solve "$f" --disassemble --disassemble-nodes 0
# a bound too small for the burr: undecided, never stuck
run 0 solve "$f" --disassemble --disassemble-nodes 50 &&
	contains "$out" "undecided: " "--disassemble-nodes 50" &&
	contains "$out" "solutions: 0" "--disassemble-nodes 50 counts nothing it could not decide"
run 1 check "$f" --disassemble --disassemble-nodes 50 && contains "$out" "undecided" "check with a small bound"

# --- groups and weights (BurrTools' CubeInCage: the frames are one group)
f=$bt/CubeInCage.xmpuzzle
run 0 solve "$f" --disassemble &&
	contains "$out" "solutions: 1 (come apart)" "CubeInCage: its frame is one group" &&
	contains "$out" "stuck: 95" "CubeInCage stuck" &&
	contains "$out" "level: 4.9.3 (the highest; 1 solution)" "CubeInCage level, as burrTxt" &&
	contains "$out" "burrtools: counts differently: BurrTools checks a stuck part's groups again by each piece's place, not its shape (S4, looked up as S3, passes for group 1)" \
	         "CubeInCage: BurrTools looks its groups up by place (the result is shape 0)"
run 0 solve "$f" && { printf '%s\n' "$out" | grep -q burrtools && bad "CubeInCage: a BurrTools note on a plain count" || ok; }
# the groups survive .puz and .xmpuzzle round trips, and so does the count
run 0 convert "$f" "$tmp/cage.puz" && grep -q '^piece Frame2 5 7 1 count 2 group 1$' "$tmp/cage.puz" &&
	ok || bad "convert to .puz: no 'group 1' on Frame2: $(grep '^piece' "$tmp/cage.puz")"
run 0 convert "$tmp/cage.puz" "$tmp/cage.xmpuzzle"
gzip -dc "$tmp/cage.xmpuzzle" | grep -q '<shape id="1" count="2" group="1"/>' && ok ||
	bad "convert to .xmpuzzle: no group attribute"
# with groups the goal is written last: each piece's place is its shape's
# number, and BurrTools finds the right groups
gzip -dc "$tmp/cage.xmpuzzle" | grep -q '<result id="5"/>' && ok ||
	bad "convert to .xmpuzzle with groups: the goal is not the last shape"
run 0 solve "$tmp/cage.xmpuzzle" --disassemble && contains "$out" "level: 4.9.3" "CubeInCage round trip" &&
	{ printf '%s\n' "$out" | grep -q burrtools && bad "CubeInCage written by cubegen: a BurrTools note" || ok; }
# the smallest case a random cross-check found: BurrTools (burrTxt -d)
# counts 1 solution with the result as shape 0, 0 with it last (SOURCE.md)
gl=$bt/group-lookup.xmpuzzle
run 0 solve "$gl" --disassemble &&
	contains "$out" "solutions: 0 (come apart)" "group-lookup solutions" &&
	contains "$out" "stuck: 1 (solutions" "group-lookup stuck" &&
	contains "$out" "(S4, looked up as S3, passes for group 1): an assembly stuck here may be a solution there" "group-lookup note"
run 0 solve "$gl" --disassemble --json && contains "$out" '"burrtools_differs": "BurrTools checks' "group-lookup JSON"
run 0 solve "$gl" --json && contains "$out" '"burrtools_differs": null' "group-lookup JSON, plain count"
run 1 check "$gl" --disassemble && contains "$out" "burrtools: counts differently: BurrTools checks" "group-lookup check"
run 0 convert "$gl" "$tmp/gl.xmpuzzle" && run 0 solve "$tmp/gl.xmpuzzle" --disassemble &&
	contains "$out" "solutions: 0 (come apart)" "group-lookup written by cubegen" &&
	{ printf '%s\n' "$out" | grep -q burrtools && bad "group-lookup written by cubegen: a BurrTools note" || ok; }
grep -v '^piece Frame' "$tmp/cage.puz" >/dev/null
sed 's/ group 1$//' "$tmp/cage.puz" >"$tmp/nogroup.puz"
run 0 solve "$tmp/nogroup.puz" --disassemble && contains "$out" "solutions: 0 (come apart)" "no group, stuck frames"
# with --solutions --disassemble, a grouped part has no separation of its own
run 0 convert "$f" "$tmp/cage-sep.xmpuzzle" --solutions --disassemble &&
	contains "$out" "solutions: 1, all of them" "CubeInCage convert --disassemble"
n=$(gzip -dc "$tmp/cage-sep.xmpuzzle" | grep -c '<separation')
[ "$n" = 3 ] && ok || bad "CubeInCage: $n separations, expected 3 (the frames stay together)"
# Pelikan's weights: the cage (weight 2 in the file) never moves out
run 0 convert "$bt/PelikanBurr.xmpuzzle" "$tmp/pel.puz" && grep -q 'weight' "$tmp/pel.puz" &&
	ok || bad "Pelikan's weights lost in .puz"
# copies of a piece split among groups: refused with --disassemble only
f=$bt/split-groups.xmpuzzle
run 0 solve "$f" && contains "$out" "solutions: 1" "split groups, plain count"
usage_error solve "$f" --disassemble && contains "$err" "split among BurrTools groups" "split groups refused"
usage_error check "$f" --disassemble
usage_error convert "$f" "$tmp/split.xmpuzzle" --solutions --disassemble
# weight and group on .puz piece lines: bad values are one line, exit 2
printf 'puzzle v1\ngoal 2 1 1\n##\npiece A 1 1 1 count 2 group 0\n#\n' >"$tmp/g0.puz"
usage_error solve "$tmp/g0.puz" && contains "$err" "group 0: expected a whole number from 1 to 65535" "group 0"
printf 'puzzle v1\ngoal 2 1 1\n##\npiece A 1 1 1 count 2 weight x\n#\n' >"$tmp/wx.puz"
usage_error solve "$tmp/wx.puz" && contains "$err" "weight x" "weight x"

# more than 64 pieces: not taken apart, so undecided, never stuck
{ printf 'puzzle v1\ngoal 65 1 1\n'; printf '#%.0s' $(seq 65); printf '\npiece c 1 1 1 count 65\n#\n'; } >"$tmp/many.puz"
run 0 solve "$tmp/many.puz" --disassemble && contains "$out" "undecided: 1 (not taken apart" "65 pieces: undecided" &&
	contains "$out" "stuck: 0" "65 pieces: not stuck"
run 1 check "$tmp/many.puz" --disassemble && contains "$out" "undecided: 1 solution(s) could not be taken apart (a search bound, see --disassemble-nodes, or more than 64 pieces)" "check, 65 pieces"

# --- every Soma solution comes apart, a piece lifting off at a time
run 0 solve "$DATA/soma.puz" --disassemble &&
	contains "$out" "solutions: 240 (come apart)" "Soma --disassemble" &&
	contains "$out" "stuck: 0" "Soma stuck" &&
	contains "$out" "level: 1 (the highest; 240 solutions)" "Soma level"
# a box of plates in shards: shard 1 answers for all, the others say
# nothing (no level, nothing at it), and merge adds them up
for i in 1 2 3; do
	run 0 solve "$DATA/HC_BQ_001.hcq" --disassemble --shard "$i/3" --json &&
		printf '%s\n' "$out" >"$tmp/hshard-$i.json"
done
grep -q '"max_level": \[\], "max_level_solutions": 0, "moves": \[\]' "$tmp/hshard-2.json" &&
	ok || bad "shell shard 2/3 claims a level: $(cat "$tmp/hshard-2.json")"
run 0 merge "$tmp"/hshard-*.json && contains "$out" "level: 1 (the highest; 1 solution)" "shell shards merged"
# a box of plates: decided without a search, every plate lifting off
run 0 solve "$DATA/HC_BQ_001.hcq" --disassemble --print &&
	contains "$out" "solutions: 1 (come apart)" "Happy Cube --disassemble" &&
	contains "$out" "its moves (level 1):" "Happy Cube moves"

# --- convert writes BurrTools' separations
f=$bt/PelikanBurr.xmpuzzle
run 0 convert "$f" "$tmp/pel.xmpuzzle" --solutions --disassemble &&
	contains "$out" "solutions: 1, all of them" "convert --disassemble"
n=$(gzip -dc "$tmp/pel.xmpuzzle" | grep -c '<separation')
[ "$n" = 6 ] && ok || bad "convert --disassemble: $n separations, expected 6"
# a state per position: 98 + 1 for the first part, at least 2 for each
# of the other five
n=$(gzip -dc "$tmp/pel.xmpuzzle" | grep -c '<state>')
[ "$n" -ge 109 ] && ok || bad "convert --disassemble: $n states, expected 109 or more"
run 0 solve "$tmp/pel.xmpuzzle" --disassemble &&
	contains "$out" "level: 98.2.4" "a file with separations reads back"
run 0 convert "$f" "$tmp/pel2.xmpuzzle" --solutions --disassemble
cmp -s "$tmp/pel.xmpuzzle" "$tmp/pel2.xmpuzzle" && ok || bad "convert --disassemble is not deterministic"
run 0 convert "$f" "$tmp/pel-all.xmpuzzle" --solutions && contains "$out" "solutions: 12, all of them" "convert without --disassemble"
gzip -dc "$tmp/pel-all.xmpuzzle" | grep -q '<separation' && bad "separations written unasked" || ok
usage_error convert "$f" "$tmp/x.xmpuzzle" --disassemble

echo "disasm: $pass passed, $fail failed"
[ "$fail" = 0 ]
