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
[ "$fails" = 0 ] || exit 1
