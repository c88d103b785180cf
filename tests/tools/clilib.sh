# clilib.sh: what the command-line tests share, sourced by tests/cli.sh
# and tests/disasm.sh (which set CUBEGEN, tmp and, under valgrind, WRAP):
# counters, and checks of one cubegen run each.
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# slurp VAR FILE: VAR set to the file's text less its trailing newlines,
# as $(cat FILE) would, without starting a process (a process costs tens
# of milliseconds on some machines, more than most runs here)
slurp() {
	local text=""
	if IFS= read -r -d '' text <"$2"; then
		text=$(cat "$2") # it holds a NUL byte: as $(cat) has it
	fi
	printf -v "$1" '%s' "${text%"${text##*[!$'\n']}"}"
}

# run EXPECTED_EXIT ARGS...: runs cubegen, keeps stdout/stderr in $out/$err
run() {
	local want=$1
	shift
	${WRAP:-} "$CUBEGEN" "$@" >"$tmp/out" 2>"$tmp/err"
	local got=$?
	slurp out "$tmp/out"
	slurp err "$tmp/err"
	if [ "$got" != "$want" ]; then
		bad "cubegen $* exited $got, expected $want; stderr: $err"
		return 1
	fi
	return 0
}

# usage_error ARGS...: exit 2, exactly one line on stderr starting "cubegen: "
usage_error() {
	if run 2 "$@"; then
		if [[ "$err" != *$'\n'* && "$err" == "cubegen: "* ]] && [ -z "$out" ]; then
			ok
		else
			bad "cubegen $*: expected one error line, got: $err"
		fi
	fi
}

contains() { # contains TEXT NEEDLE WHAT
	if [[ "$1" == *"$2"* ]]; then ok; else bad "$3: no '$2' in: $1"; fi
}
