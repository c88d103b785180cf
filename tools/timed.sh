#!/usr/bin/env bash
# timed.sh NAME COMMAND...: run COMMAND, then print how long it took under
# NAME, so that the log of `make test` and `.ci/run` shows where the time
# goes. The exit status is COMMAND's.
name=$1
shift
t0=$(date +%s%N)
"$@"
rc=$?
t1=$(date +%s%N)
awk -v n="$name" -v ns=$((t1 - t0)) -v rc=$rc 'BEGIN {
	printf "== %s: %.1f s%s\n", n, ns / 1e9, rc ? " (failed)" : "" }'
exit $rc
