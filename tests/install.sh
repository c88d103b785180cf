#!/usr/bin/env bash
# install.sh: `make install` into a staging folder (DESTDIR, PREFIX=/usr)
# gives a cubegen that runs, links no test library (nor libzip, opened
# only to write a 3MF: which it does), and a man page that
# `man` finds and that names every command and every option of every
# command's --help.
#
# Run by `make test` from the repository root as: bash tests/install.sh BUILD
# (MAKEFLAGS emptied: the make that runs the tests side by side must not
# hand its jobserver down to these)
set -u
build=${1:?give the build folder}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
fail=0
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

MAKEFLAGS= make -s install BUILD="$build" DESTDIR="$stage" PREFIX=/usr >/dev/null || bad "make install failed"
bin=$stage/usr/bin/cubegen
man1=$stage/usr/share/man/man1/cubegen.1
[ -x "$bin" ] || bad "no $bin"
[ -f "$man1" ] || bad "no $man1"
"$bin" --version | grep -q '^cubegen ' || bad "installed cubegen --version"
if ldd "$bin" | grep -q cmocka; then bad "cubegen links libcmocka"; fi
# libzip is opened when a 3MF is written (mesh/threemf.c), not at start
if ldd "$bin" | grep -q libzip; then bad "cubegen links libzip at start"; fi
"$bin" generate --seed 1 --out "$stage/puzzle" >/dev/null 2>&1 || bad "installed cubegen generate"
unzip -l "$stage/puzzle/plate.3mf" 2>/dev/null | grep -q 3D/3dmodel.model ||
	bad "installed cubegen wrote no 3MF package"

page=$(MANPATH="$stage/usr/share/man" MANWIDTH=100 man -P cat cubegen 2>/dev/null)
[[ "$page" == *"cubegen generate"* ]] || bad "man cubegen does not show the page"
for cmd in generate solve check render verify batch; do
	[[ "$page" == *"cubegen $cmd"* ]] || bad "man page lacks 'cubegen $cmd'"
	for opt in $("$bin" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		# man renders \- as '-' (or U+2010 in some locales): search plainly
		grep -q -- "$opt" <<<"$page" || bad "man page lacks $cmd $opt"
	done
done

MAKEFLAGS= make -s uninstall BUILD="$build" DESTDIR="$stage" PREFIX=/usr >/dev/null
[ -e "$bin" ] && bad "make uninstall left $bin"
if [ "$fail" -ne 0 ]; then
	echo "install.sh: $fail failures"
	exit 1
fi
echo "install.sh: all passed"
