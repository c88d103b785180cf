#!/bin/sh
# Install the Debian packages cubegen needs, only when something is missing.
# Runs apt-get as root, or through sudo otherwise.
set -e
need=""
for p in build-essential pkg-config libgd-dev libadmesh-dev libcmocka-dev \
         openscad prusa-slicer; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || need="$need $p"
done
[ -z "$need" ] && exit 0
echo "installing:$need"
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends $need
