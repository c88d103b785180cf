#!/usr/bin/env bash
# crash.sh: kill `cubegen generate` with SIGKILL at random moments; the
# target folder must then be absent or complete, never half-written, and
# with --force it must hold either the whole old puzzle or the whole new one.
#
# Run by `make test` as: CUBEGEN=/abs/cubegen DATA=/abs/tests/data/classic bash tests/crash.sh
set -u
CUBEGEN=${CUBEGEN:?set CUBEGEN to the cubegen binary}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

files="puzzle.puz solution.txt solution.png preview.png plate.stl puzzle.scad
piece-1.stl piece-2.stl piece-3.stl piece-4.stl piece-5.stl piece-6.stl
piece-1.scad piece-2.scad piece-3.scad piece-4.scad piece-5.scad piece-6.scad"

# complete DIR SEED: every file there, and the puzzle is the one of SEED
complete() {
	for f in $files; do
		[ -s "$1/$f" ] || return 1
	done
	grep -qx "seed $2" "$1/puzzle.puz" || return 1
	"$CUBEGEN" check "$1/puzzle.puz" >/dev/null 2>&1 || return 1
	"$CUBEGEN" verify "$1"/*.stl >/dev/null 2>&1 || return 1
}

# Deterministic "random" delays (microseconds) from a fixed LCG: a failure
# can be replayed.
r=12345
next_delay() { r=$(((r * 1103515245 + 12345) % 2147483648)); delay=$((r % 160000)); }

killed=0
for i in $(seq 1 30); do
	next_delay
	"$CUBEGEN" generate --size 24 --seed "$i" --out "$tmp/new$i" >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '0.%06d' "$delay")"
	kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
	wait "$pid" 2>/dev/null
	if [ -e "$tmp/new$i" ] && ! complete "$tmp/new$i" "$i"; then
		bad "killed after ${delay} us: $tmp/new$i is half-written"
	else
		pass=$((pass + 1))
	fi
done
# Most runs must really have been killed midway, or this tests nothing.
[ "$killed" -ge 15 ] && pass=$((pass + 1)) || bad "only $killed of 30 runs were killed"

# --force: the old folder stays whole until the new one is complete.
"$CUBEGEN" generate --size 24 --seed 1000 --out "$tmp/keep" >/dev/null || bad "first generate failed"
for i in $(seq 1 20); do
	next_delay
	"$CUBEGEN" generate --size 24 --seed "$((2000 + i))" --out "$tmp/keep" --force >/dev/null 2>&1 &
	pid=$!
	sleep "$(printf '0.%06d' "$delay")"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	seed=$(sed -n 's/^seed //p' "$tmp/keep/puzzle.puz" 2>/dev/null)
	if [ -z "$seed" ] || ! complete "$tmp/keep" "$seed"; then
		bad "--force killed after ${delay} us: $tmp/keep is not a whole puzzle"
		break
	fi
	pass=$((pass + 1))
done

echo "crash: $pass passed, $fail failed"
[ "$fail" = 0 ]
