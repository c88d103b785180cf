#!/bin/sh
# Install the Debian packages cubegen needs, only when something is missing.
# Runs apt-get as root, or through sudo otherwise.
#   sh tools/deps.sh        what the build, tests, run and bench need
#   sh tools/deps.sh fuzz   also clang and its fuzzer runtime (make fuzz)
set -e
pkgs="build-essential pkg-config libgd-dev libpng-dev zlib1g-dev libadmesh-dev libzip-dev libexpat1-dev libjson-c-dev libcmocka-dev openscad prusa-slicer valgrind man-db unzip python3 chromium parallel"
[ "${1:-}" = fuzz ] && pkgs="$pkgs clang"
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
updated=""
install() {
	need=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
			|| need="$need $p"
	done
	[ -z "$need" ] && return 0
	echo "installing:$need"
	if [ -z "$updated" ]; then
		$sudo apt-get update -q
		updated=1
	fi
	$sudo apt-get install -y -q --no-install-recommends $need
}
install $pkgs
if [ "${1:-}" = fuzz ]; then
	# libFuzzer lives in the runtime package of clang's own version.
	v=$(clang -dumpversion | cut -d. -f1)
	install "libclang-rt-$v-dev"
fi
