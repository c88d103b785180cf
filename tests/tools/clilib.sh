# clilib.sh: what the command-line tests share, sourced by tests/cli.sh
# and tests/disasm.sh (which set CUBEGEN, tmp and, under valgrind, WRAP):
# counters, and checks of one cubegen run each.
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# run EXPECTED_EXIT ARGS...: runs cubegen, keeps stdout/stderr in $out/$err
run() {
	local want=$1
	shift
	${WRAP:-} "$CUBEGEN" "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	if [ "$got" != "$want" ]; then
		bad "cubegen $* exited $got, expected $want; stderr: $err"
		return 1
	fi
	return 0
}

# usage_error ARGS...: exit 2, exactly one line on stderr starting "cubegen: "
usage_error() {
	if run 2 "$@"; then
		local lines
		lines=$(printf '%s\n' "$err" | wc -l)
		if [ "$lines" = 1 ] && [[ "$err" == "cubegen: "* ]] && [ -z "$out" ]; then
			ok
		else
			bad "cubegen $*: expected one error line, got: $err"
		fi
	fi
}

contains() { # contains TEXT NEEDLE WHAT
	if [[ "$1" == *"$2"* ]]; then ok; else bad "$3: no '$2' in: $1"; fi
}
