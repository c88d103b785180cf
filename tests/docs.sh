#!/usr/bin/env bash
# docs.sh: every command that README.md, docs/*.md and the manual page show
# is run, and what it prints is compared with the page (the rules are in
# tests/tools/docrun.py), so the documentation cannot drift from the
# program. Run by `make test` as: CUBEGEN=build/cubegen bash tests/docs.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
: "${CUBEGEN:?set CUBEGEN to the cubegen binary}"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fails=0

# The runner itself: a page whose output is wrong, or a block that does not
# say what it is, must fail.
mkdir -p "$scratch/self" "$scratch/run"
printf '# t\n\n```console\n$ cubegen --version\ncubegen 0.0.0-not-this\n```\n' >"$scratch/self/wrong.md"
printf '# t\n\n```\ncubegen --version\n```\n' >"$scratch/self/bare.md"
printf '# t\n\n```console\n$ cubegen solve examples/soma.puz\npuzzle: Soma cube\n...\ntime: 9.999999 s\n...\n```\n' >"$scratch/self/right.md"
printf '# t\n\n```console\n$ cubegen solve examples/soma.puz\npuzzle: Soma cube\n...\ntime: 0.002 s\n...\n```\n' >"$scratch/self/wrongtime.md"
printf '# t\n\n[a](#nowhere)\n' >"$scratch/self/link.md"
for p in wrong bare wrongtime link; do
	if python3 "$here/tools/docrun.py" "$scratch/run" "$scratch/self/$p.md" >/dev/null; then
		echo "FAIL docrun.py passed $p.md"; fails=$((fails + 1))
	fi
done
python3 "$here/tools/docrun.py" "$scratch/run" "$scratch/self/right.md" >/dev/null ||
	{ echo "FAIL docrun.py refused right.md"; fails=$((fails + 1)); }

python3 "$here/tools/docrun.py" "$scratch" "$root/README.md" "$root"/docs/*.md \
	"$root/examples/README.md" "$root/docs/cubegen.1" || fails=$((fails + 1))
# The pictures the README and docs/puzzles.md show are what generate
# writes for size 5, seed 42, byte for byte.
mkdir "$scratch/pictures"
(cd "$scratch/pictures" && ${WRAP:-} "$CUBEGEN" generate --size 5 --seed 42 >/dev/null) ||
	{ echo "FAIL generate --seed 42"; fails=$((fails + 1)); }
for f in preview solution; do
	cmp -s "$scratch/pictures/out/cube5-42/$f.png" "$root/docs/$f-size5-seed42.png" ||
		{ echo "FAIL docs/$f-size5-seed42.png is not what generate --seed 42 writes"; fails=$((fails + 1)); }
done
[ "$fails" = 0 ] && echo "docs: the pictures are generate's" || exit 1
