#!/usr/bin/env bash
# blocks.sh: command-line tests of generate --kind blocks: the files a
# maker gets, proved again by check and solve --disassemble, every STL
# clean, the same seed giving the same bytes, any goal from a file, and
# bad input refused with one line (exit 2), no puzzle found with one line
# (exit 1) and no folder.
#
# Run by `make test` as: CUBEGEN=/abs/cubegen DATA=/abs/tests/data/classic bash tests/blocks.sh
# With WRAP set (e.g. to a valgrind command line), every cubegen runs under it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
CUBEGEN=${CUBEGEN:?set CUBEGEN to the cubegen binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/tools/clilib.sh"

# --- the plain command: a 4 x 4 x 4 cube, 8 to 10 pieces of 4 to 8 cells
d=$tmp/b7
if run 0 generate --kind blocks --seed 7 --out "$d"; then
	contains "$out" "kind: blocks" "blocks: kind"
	contains "$out" "size: 4" "blocks: default size"
	contains "$out" "solutions: 1" "blocks: unique"
	contains "$out" "wrote: $d/" "blocks: folder"
	k=$(printf '%s\n' "$out" | sed -n 's/^pieces: //p')
	[[ "$k" =~ ^(8|9|10)$ ]] && ok || bad "blocks: $k pieces, expected 8..10"
	for f in puzzle.puz puzzle.xmpuzzle plate.stl plate.3mf puzzle.scad \
		preview.png solution.png solution.txt pieces.txt pieces.html solution.html; do
		[ -s "$d/$f" ] && ok || bad "blocks: no $f"
	done
	# the answer page: a step per line of the guide, in its words
	grep -q '"steps"' "$d/pieces.html" && bad "blocks: pieces.html holds steps" || ok
	while IFS= read -r line; do
		grep -qF "\"text\": \"${line#*. }\"" "$d/solution.html" && ok ||
			bad "blocks: solution.html lacks the step: $line"
	done < <(grep -E '^ *[0-9]+\. ' "$d/solution.txt")
	for ((i = 1; i <= k; i++)); do
		[ -s "$d/piece-$i.stl" ] && [ -s "$d/piece-$i.scad" ] && ok ||
			bad "blocks: no piece-$i.stl or .scad"
	done
	[ -e "$d/piece-$((k + 1)).stl" ] && bad "blocks: a piece too many" || ok
	# proved again by the commands a maker has
	run 0 check "$d/puzzle.puz" &&
		contains "$out" "unique: exactly 1 solution" "blocks: check"
	run 0 solve "$d/puzzle.puz" --disassemble &&
		contains "$out" "solutions: 1 (come apart)" "blocks: comes apart"
	run 0 solve "$d/puzzle.xmpuzzle" --disassemble &&
		contains "$out" "solutions: 1 (come apart)" "blocks: the BurrTools file"
	gzip -dc "$d/puzzle.xmpuzzle" >"$tmp/x.xml"
	grep -q '<separation' "$tmp/x.xml" && ok ||
		bad "blocks: puzzle.xmpuzzle has no separation"
	run 0 verify "$d"/*.stl && ok || bad "blocks: an STL failed verify"
	# the guide: one start, then one line per piece that goes in
	sol=$(cat "$d/solution.txt")
	contains "$sol" "layer 1 (bottom)" "blocks: layer map"
	contains "$sol" "layer 4 (top)" "blocks: layer map top"
	n=$(grep -c '^ *[0-9]*\. Start with piece' "$d/solution.txt")
	[ "$n" = 1 ] && ok || bad "blocks: $n start lines"
	n=$(grep -c ' in from the ' "$d/solution.txt")
	[ "$n" = $((k - 1)) ] && ok || bad "blocks: $n pieces go in, expected $((k - 1))"
	# every piece of the map is a piece of the file
	for ((i = 1; i <= k; i++)); do
		grep -qE "(^| )$i( |$)" <(sed -n '/^layer/,/^How/p' "$d/solution.txt") && ok ||
			bad "blocks: piece $i not in the map"
	done
	# golden bytes (tests/data/golden-blocks): a change of the seed's
	# stream or of a format shows here, and belongs in the changelog
	for f in "$here"/data/golden-blocks/size4-seed7/*; do
		cmp -s "$f" "$d/$(basename "$f")" && ok ||
			bad "golden blocks $(basename "$f") differs (the stream or a format changed)"
	done
	# more streams, locked by their puzzle.puz (golden-blocks/streams.txt)
	while read -r sum args; do
		case "$sum" in '#'*) continue ;; esac
		# shellcheck disable=SC2086 # the options, word by word
		"$CUBEGEN" generate --kind blocks $args --out "$tmp/stream" >/dev/null 2>&1
		got=$(sha256sum <"$tmp/stream/puzzle.puz" 2>/dev/null | cut -d' ' -f1)
		[ "$got" = "$sum" ] && ok ||
			bad "golden blocks: generate --kind blocks $args gives another puzzle"
		rm -rf "$tmp/stream"
	done <"$here/data/golden-blocks/streams.txt"
	# the same seed, the same bytes; another seed, another puzzle
	run 0 generate --kind blocks --seed 7 --out "$tmp/b7again"
	diff -r "$d" "$tmp/b7again" >/dev/null && ok || bad "blocks: seed 7 twice differs"
	run 0 generate --kind blocks --seed 8 --out "$tmp/b8"
	cmp -s "$d/puzzle.puz" "$tmp/b8/puzzle.puz" && bad "blocks: seeds 7 and 8 alike" || ok
fi

# --- the README's example, run as it shows it: every line it prints
root=$(cd "$here/.." && pwd)
want=$(sed -n '/^\$ cubegen generate --kind blocks --seed 7$/,/^```$/p' \
	"$root/README.md" | sed '1d;$d')
mkdir "$tmp/readme"
got=$(cd "$tmp/readme" && ${WRAP:-} "$CUBEGEN" generate --kind blocks --seed 7)
[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "README's blocks example: got $got"
steps=$(sed -n '/^  1\. Start with piece 5\.$/,/^```$/p' "$root/docs/puzzles.md" | sed '$d')
[ -n "$steps" ] && grep -qF "$steps" "$tmp/readme/out/blocks4-7/solution.txt" && ok ||
	bad "docs/puzzles.md's solution.txt lines"

want=$(sed -n '/^\$ cubegen batch --kind blocks --seeds 7..7$/{n;p}' "$root/docs/scale.md" |
	sed 's/, "seconds": [0-9.]*}$/}/')
got=$(${WRAP:-} "$CUBEGEN" batch --kind blocks --seeds 7..7 | sed 's/, "seconds": [0-9.]*}$/}/')
[ -n "$want" ] && [ "$got" = "$want" ] && ok || bad "docs/scale.md's batch --kind blocks example: got $got"

# --- the default folder
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && ${WRAP:-} "$CUBEGEN" generate --kind blocks --seed 3 >/dev/null) &&
	[ -s "$tmp/cwd/out/blocks4-3/puzzle.puz" ] && ok || bad "blocks: default folder out/blocks4-3"

# --- other sizes and ranges
run 0 generate --kind blocks --size 3 --pieces 6 --cells 4..5 --seed 1 --out "$tmp/m" &&
	contains "$out" "pieces: 6" "blocks: 3x3x3 in 6" &&
	run 0 check "$tmp/m/puzzle.puz" && contains "$out" "unique" "blocks: 3x3x3 check"
run 0 generate --kind blocks --size 3x3x4 --pieces 5 --seed 2 --out "$tmp/box" &&
	contains "$out" "size: 3x3x4" "blocks: a box" &&
	grep -q '^goal 3 3 4$' "$tmp/box/puzzle.puz" && ok || bad "blocks: the box's goal"

# --- support: pieces.txt says which pieces need it; --support-free
# pieces all lie flat (so none needs it), and print lays pieces alike
grep -q '^# \(every piece prints without support\|pieces that need support: [0-9]* of [0-9]*\)$' \
	"$d/pieces.txt" && ok || bad "blocks: pieces.txt's support line"
if run 0 generate --kind blocks --seed 2 --support-free --out "$tmp/sf"; then
	tail -1 "$tmp/sf/pieces.txt" | grep -qx '# every piece prints without support' && ok ||
		bad "blocks --support-free: $(tail -1 "$tmp/sf/pieces.txt")"
	grep -v '^#' "$tmp/sf/pieces.txt" | grep -q ' support ' && bad "blocks --support-free: a piece needs support" || ok
	run 0 check "$tmp/sf/puzzle.puz" && contains "$out" "unique" "blocks --support-free: check"
fi
run 0 print "$DATA/bedlam.puz" --out "$tmp/pbed" &&
	grep -qx '2 P2 support 1' "$tmp/pbed/pieces.txt" && ok ||
	bad "print: Bedlam's P2 needs support under one cell"
usage_error generate --support-free
contains "$err" "--support-free is for block puzzles" "--support-free with plates"

# --- interlocking: --level, four pieces whose first needs 6 moves, proved
# again by check (unique with the inner cells optional) and by
# solve --disassemble (the level); the hollows shown in the guide's map
if run 0 generate --kind blocks --level 6 --pieces 4..4 --seed 3 --out "$tmp/lk"; then
	contains "$out" "pieces: 4" "blocks --level: pieces"
	lv=$(printf '%s\n' "$out" | sed -n 's/^level: \([0-9]*\).*/\1/p')
	[ -n "$lv" ] && [ "$lv" -ge 6 ] && ok || bad "blocks --level 6: level $lv"
	run 0 check "$tmp/lk/puzzle.puz" && contains "$out" "unique: exactly 1 solution" "blocks --level: check"
	run 0 solve "$tmp/lk/puzzle.puz" --disassemble --json &&
		printf '%s\n' "$out" | grep -q "\"max_level\": \[$lv[],]" && ok ||
		bad "blocks --level: solve --disassemble does not find level $lv"
	grep -q '^#++#$' "$tmp/lk/puzzle.puz" && ok || bad "blocks --level: inner cells not optional"
	contains "$(cat "$tmp/lk/solution.txt")" "o a hollow" "blocks --level: hollows in the map"
	run 0 verify "$tmp/lk"/*.stl && ok || bad "blocks --level: an STL failed verify"
fi
run 0 batch --kind blocks --level 2 --pieces 4..4 --seeds 1..2 &&
	[ "$(printf '%s\n' "$out" | grep -c '"found": true')" = 2 ] && ok ||
	bad "batch --level: $out"
usage_error generate --kind blocks --level 0
contains "$err" "--level: expected a whole number from 1 to 100" "blocks: --level 0"
usage_error generate --kind blocks --level x
for v in 0 513 x; do usage_error generate --kind blocks --threads "$v"; done
contains "$err" "--threads: expected a whole number from 1 to 512" "blocks: --threads x"
usage_error generate --threads 2
contains "$err" "--threads is for block puzzles" "--threads with plates"
usage_error batch --threads 2 --seeds 1..2
usage_error generate --level 3
contains "$err" "--level is for block puzzles" "--level with plates"
printf 'puzzle v1\ngoal 4 4 2\n####\n####\n####\n####\n\n####\n####\n####\n####\n' >"$tmp/slab.puz"
usage_error generate --kind blocks --goal "$tmp/slab.puz" --level 2 --pieces 3
contains "$err" "a level above 1 needs room to move inside the goal" "blocks: --level in a slab"

# --- any goal: a staircase in a file with no pieces
printf 'puzzle v1\nname stairs\ngoal 3 3 3\n###\n###\n###\n\n###\n###\n##.\n\n###\n##.\n#..\n' \
	>"$tmp/stairs.puz"
cp "$tmp/stairs.puz" "$tmp/my.stairs.puz"
if run 0 generate --kind blocks --goal "$tmp/my.stairs.puz" --pieces 4..5 --cells 4..6 \
	--seed 1 --out "$tmp/st"; then
	# the name is cut at the last dot only
	contains "$out" "size: my.stairs" "blocks: goal name"
	run 0 check "$tmp/st/puzzle.puz" && contains "$out" "unique" "blocks: staircase check"
	# the goal written is the staircase
	sed -n '/^goal/,/^piece/p' "$tmp/st/puzzle.puz" | grep -c '\.' | grep -qx 3 && ok ||
		bad "blocks: the staircase goal"
fi

# --- bad input: one line, exit 2
usage_error generate --kind blocks --pieces 0..3
contains "$err" "2 <= A <= B <= 64" "blocks: --pieces 0..3"
usage_error generate --kind blocks --pieces 1..3
contains "$err" "2 <= A <= B <= 64" "blocks: --pieces 1..3"
usage_error generate --kind blocks --pieces 9..4
usage_error generate --kind blocks --cells 1..0
usage_error generate --kind blocks --cells 0..3
contains "$err" "cells must be a range A..B with 1 <= A <= B <= 512" "blocks: --cells 0..3"
usage_error generate --kind blocks --size 9
contains "$err" "the goal has 729 cells; a block puzzle needs 1 to 512" "blocks: too big"
usage_error generate --kind blocks --cells x
usage_error generate --kind blocks --pieces 20
contains "$err" "64 goal cells cannot be cut into 20..20 pieces of 4..8 cells" "blocks: too many"
usage_error generate --kind cubes
contains "$err" "use plates or blocks" "blocks: --kind cubes"
usage_error generate --pieces 8
contains "$err" "--pieces is for block puzzles" "blocks: --pieces with plates"
usage_error generate --kind blocks --wall 3
usage_error generate --kind blocks --difficulty pro
usage_error generate --kind blocks --size 4 --goal "$tmp/stairs.puz"
printf 'puzzle v1\ngoal 3 1 1\n#.#\n' >"$tmp/two.puz"
usage_error generate --kind blocks --goal "$tmp/two.puz" --pieces 2 --cells 1
contains "$err" "not face-connected" "blocks: disconnected goal"
usage_error generate --kind blocks --goal "$tmp/none.puz"
[ ! -e out/blocks-none-1 ] && ok || bad "blocks: a folder for a missing goal"

# --- nothing found: exit 1, one line, no folder
if run 1 generate --kind blocks --size 4 --pieces 13 --cells 4..6 --seed 1 \
	--max-attempts 2 --out "$tmp/none"; then
	contains "$err" "no block puzzle of 4x4x4 in 2 attempts from seed 1 (sets of pieces drawn at random and solved; try another seed" "blocks: none found"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || bad "blocks: none found, $err"
	[ ! -e "$tmp/none" ] && ok || bad "blocks: a folder when none was found"
fi
# the grown route (pieces of 6 to 8 cells, goals past 64): seed 11's one
# dissection is not a puzzle
if run 1 generate --kind blocks --size 4x4x5 --pieces 10..12 --cells 6..8 --seed 11 \
	--max-attempts 1 --out "$tmp/nogrown"; then
	contains "$err" "no block puzzle of 4x4x5 in 1 attempts from seed 11 (1 dissections grown whole and proved, 0 of them cut short" "blocks: none grown"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || bad "blocks: none grown, $err"
	[ ! -e "$tmp/nogrown" ] && ok || bad "blocks: a folder when none was grown"
fi
# --- none exists (Gardner's question, Soma's sizes): every set of pieces
# tried, whatever the seed and --max-attempts
for seed in 1 2; do
	if run 1 generate --kind blocks --size 3 --pieces 7 --cells 3..4 --seed $seed \
		--max-attempts 1 --out "$tmp/soma7"; then
		contains "$err" "no block puzzle of 3x3x3 in 7 pieces of 3..4 cells exists: every one of the 14 sets of pieces that could fill it was solved, and none has exactly one solution that comes apart" \
			"blocks: none exists"
		[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || bad "blocks: none exists, $err"
		[ ! -e "$tmp/soma7" ] && ok || bad "blocks: a folder when none exists"
	fi
done
# no set at all: 36 cells cannot be 13 pieces of 2 or 3 cells, no two
# congruent (there are 3 such shapes)
run 1 generate --kind blocks --size 3x3x4 --pieces 13 --cells 2..3 --out "$tmp/none13" &&
	contains "$err" "no block puzzle of 3x3x4 in 13 pieces of 2..3 cells exists: no set of that many pieces, no two congruent, has its 36 cells" \
		"blocks: no set at all"
[ ! -e "$tmp/none13" ] && ok || bad "blocks: a folder with no set at all"
# --- the drawn route's moonshot (examples/README.md): 4x4x4 in 13 pieces
# of 4 to 6 cells, unique
run 0 check "$here/../examples/cube13.puz" && contains "$out" "unique: exactly 1 solution" \
	"blocks: examples/cube13.puz unique"
# --- the exhaustive route finds one: proved again by check
if run 0 generate --kind blocks --size 3 --pieces 7 --cells 3..5 --seed 13 \
	--out "$tmp/ex13"; then
	contains "$out" "attempts: 28" "blocks: exhaustive route, sets tried"
	run 0 check "$tmp/ex13/puzzle.puz" && contains "$out" "unique" "blocks: exhaustive route, unique"
fi

# --- difficulty: the score check gives; bands measured on such puzzles
dscore() { printf '%s\n' "$1" | sed -n 's/^difficulty: \([0-9.]*\).*/\1/p'; }
run 0 generate --kind blocks --seed 7 --out "$tmp/d7" && g=$(dscore "$out") &&
	run 0 check "$tmp/d7/puzzle.puz" && [ -n "$g" ] && [ "$(dscore "$out")" = "$g" ] &&
	ok || bad "blocks: generate's difficulty is not check's ($g)"
for band in easy medium hard; do
	run 0 generate --kind blocks --size 3 --pieces 4 --cells 5..8 --seed 1 \
		--difficulty $band --out "$tmp/band-$band" || continue
	g=$(dscore "$out")
	line=$(printf '%s\n' "$out" | grep '^band: ')
	contains "$line" "band: $band (" "blocks --difficulty $band"
	lim=$(printf '%s\n' "$line" | grep -o '[0-9][0-9.]*' | head -1)
	lim2=$(printf '%s\n' "$line" | grep -o '[0-9][0-9.]*' | sed -n 2p)
	case $band in
	easy) awk -v d="$g" -v l="$lim" 'BEGIN { exit !(d <= l) }' ;;
	medium) awk -v d="$g" -v l="$lim" -v h="$lim2" 'BEGIN { exit !(d > l && d < h) }' ;;
	hard) awk -v d="$g" -v l="$lim" 'BEGIN { exit !(d >= l) }' ;;
	esac && ok || bad "blocks --difficulty $band: $g outside $line"
	run 0 check "$tmp/band-$band/puzzle.puz" && [ "$(dscore "$out")" = "$g" ] && ok ||
		bad "blocks --difficulty $band: check scores it otherwise"
	run 0 batch --kind blocks --size 3 --pieces 4 --cells 5..8 --seeds 1..1 --difficulty $band
	contains "$out" "\"band\": \"$band\"" "batch blocks --difficulty $band"
	contains "$out" "\"difficulty\": $g" "batch blocks --difficulty $band score"
done

# --- batch --kind blocks: a line per seed, equal to what generate says
if run 0 batch --kind blocks --seeds 6..8; then
	lines=$out
	[ "$(printf '%s\n' "$lines" | wc -l)" = 3 ] && ok || bad "batch blocks: $lines"
	for s in 6 7 8; do
		line=$(printf '%s\n' "$lines" | grep "^{\"seed\": $s, ")
		run 0 generate --kind blocks --seed $s --out "$tmp/bat$s" || continue
		for f in attempts pieces proofs; do
			v=$(printf '%s\n' "$out" | sed -n "s/^$f: //p")
			contains "$line" "\"$f\": $v," "batch blocks seed $s $f"
		done
		v=$(printf '%s\n' "$out" | sed -n 's/^level: //p')
		contains "$line" "\"level\": \"$v\"" "batch blocks seed $s level"
		contains "$line" '"kind": "blocks", "size": "4"' "batch blocks seed $s size"
	done
	run 0 batch --kind blocks --seeds 7..7
	strip() { sed 's/, "seconds": [0-9.]*}$/}/'; }
	[ "$(printf '%s\n' "$out" | strip)" = "$(printf '%s\n' "$lines" | sed -n 2p | strip)" ] &&
		ok || bad "batch blocks: seed 7 alone differs"
fi
run 0 batch --kind blocks --size 3 --pieces 7 --cells 3..4 --seeds 1..1 --max-attempts 1 &&
	contains "$out" '"found": false, "solutions": null, "pieces": null, "level": null, "difficulty": null, "band": null' \
		"batch blocks: none found"
usage_error batch --kind blocks --seeds 1..2 --difficulty expert
usage_error batch --pieces 8 --seeds 1..2
contains "$err" "batch: --pieces is for block puzzles" "batch: --pieces with plates"

# --- plates stay the default, byte for byte
run 0 generate --size 4 --seed 3 --out "$tmp/p1"
run 0 generate --kind plates --size 4 --seed 3 --out "$tmp/p2"
diff -r "$tmp/p1" "$tmp/p2" >/dev/null && ok || bad "--kind plates differs from the default"

echo "blocks.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
