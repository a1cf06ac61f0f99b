# Helpers for tests/cli_*.sh (not a test itself): run $RENVERSI and compare exit codes and output.
# Each test script sources this, calls expect_* and ends with `finish`.
set -u
: "${RENVERSI:?RENVERSI must name the renversi binary}"
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }

# expect_exit CODE CMD...: the command exits with CODE.
expect_exit() {
    local want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; local got=$?
    if [ "$got" = "$want" ]; then ok; else bad "exit $got, want $want: $*"; sed 's/^/  stderr: /' "$tmp/err" >&2; fi
}

# expect_stdout STRING CMD...: stdout is exactly STRING (plus a final newline).
expect_stdout() {
    local want=$1; shift
    local got; got=$("$@" 2>"$tmp/err" </dev/null)
    if [ "$got" = "$want" ]; then ok; else bad "stdout '$got', want '$want': $*"; fi
}

# expect_stdout_stdin STRING INPUT CMD...: like expect_stdout, with INPUT on stdin.
expect_stdout_stdin() {
    local want=$1 input=$2; shift 2
    local got; got=$(printf '%s' "$input" | "$@" 2>"$tmp/err")
    if [ "$got" = "$want" ]; then ok; else bad "stdout '$got', want '$want': $*"; fi
}

# expect_stdout_has SUBSTRING CMD...: stdout contains SUBSTRING.
expect_stdout_has() {
    local want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    if grep -qF -- "$want" "$tmp/out"; then ok; else bad "stdout lacks '$want': $*"; fi
}

# expect_stderr_has SUBSTRING CMD...: stderr contains SUBSTRING.
expect_stderr_has() {
    local want=$1; shift
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    if grep -qF -- "$want" "$tmp/err"; then ok; else bad "stderr lacks '$want': $*"; cat "$tmp/err" >&2; fi
}

# expect_ffo_scores OBF OUT FIRST: line i of OUT (`renversi solve` output) has the best
# score OBF states for its position i (the first listed MOVE:SCORE); FIRST numbers the
# positions in messages (FFO #FIRST, ...).
expect_ffo_scores() {
    local obf=$1 out=$2 first=$3 i=0 board side rest want got
    while read -r board side rest; do
        i=$((i + 1))
        want=$(printf '%s\n' "$rest" | sed 's/^[ ;]*[A-H][1-8]:\([-+0-9]*\);.*/\1/; s/^+//')
        got=$(sed -n "${i}p" "$out" | awk '{print $3}' | sed 's/^+//')
        if [ "$got" = "$want" ]; then ok; else bad "FFO #$((i + first - 1)): $got, want $want"; fi
    done <"$obf"
}

finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" = 0 ]
    exit $?
}
