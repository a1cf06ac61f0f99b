#!/usr/bin/env bash
# Every reader bounded, every write checked, empty input refused (issue #10, items 12-14).
. "$(dirname "$0")/lib.sh"

# Runs a command with its memory capped where the sanitizers allow it (they reserve
# terabytes of address space), so a reader that keeps an endless line fails fast
# instead of eating the machine; the fixed readers stop after 1 MB.
capped() {
    if [ -n "${RV_SANITIZED:-}" ]; then timeout 60 "$@"; else (ulimit -v 400000; timeout 60 "$@"); fi
}
# expect_refused NAME INPUT CMD...: reading INPUT (a file) exits 2 naming the limit.
expect_refused() {
    local name=$1 input=$2; shift 2
    capped "$@" <"$input" >"$tmp/out" 2>"$tmp/err"
    local code=$?
    if [ "$code" = 2 ] && grep -q "line 1: longer than 1048576 bytes" "$tmp/err"; then ok; else
        bad "$name: exit $code, stderr: $(head -c 300 "$tmp/err")"; fi
}

# ---- 12: one line reader with a limit, used by every command that reads lines
expect_refused "forbidden --file /dev/zero" /dev/null "$RENVERSI" forbidden --file /dev/zero
expect_refused "forbidden --file -" /dev/zero "$RENVERSI" forbidden --file -
expect_refused "analyse -" /dev/zero "$RENVERSI" analyse -
expect_refused "solve -" /dev/zero "$RENVERSI" solve -
expect_refused "match --openings" /dev/zero "$RENVERSI" match --games 1 --openings /dev/stdin level:1 level:1
expect_refused "bench forbidden" /dev/null "$RENVERSI" bench forbidden /dev/zero
# nboard ignores a line over the limit without keeping it, and goes on.
{ head -c 300000000 /dev/zero; printf '\nnboard 2\nping 3\n'; } >"$tmp/nb.in" 2>/dev/null &&
    capped "$RENVERSI" nboard --hash 1 <"$tmp/nb.in" >"$tmp/out" 2>"$tmp/err"
grep -qx "pong 3" "$tmp/out" && ok || bad "nboard after a 300 MB line: $(head -c 200 "$tmp/out" "$tmp/err")"
rm -f "$tmp/nb.in"
# The terminal game says so and goes on.
{ head -c 100000 /dev/zero | tr '\0' 'a'; printf '\nh8\n'; } | "$RENVERSI" play --ai none >"$tmp/out" 2>&1
grep -q "'...' is not a move" "$tmp/out" && grep -q '\[X\]' "$tmp/out" && ok || bad "play long line"

# ---- 13: write errors are reported, with a non-zero exit
expect_write_error() { # CMD...: with stdout on /dev/full, and with stdout closed
    local code
    "$@" >/dev/full 2>"$tmp/err" </dev/null
    code=$?
    if [ "$code" != 0 ] && grep -q "write error" "$tmp/err"; then ok; else bad "exit $code to /dev/full: $*"; fi
    "$@" >&- 2>"$tmp/err" </dev/null
    code=$?
    if [ "$code" != 0 ] && grep -q "write error" "$tmp/err"; then ok; else bad "exit $code, stdout closed: $*"; fi
}
expect_write_error "$RENVERSI" judge h8
expect_write_error "$RENVERSI" judge --game reversi f5
expect_write_error "$RENVERSI" judge --help
expect_write_error "$RENVERSI" --help
expect_write_error "$RENVERSI" --version
expect_write_error "$RENVERSI" forbidden h8 i9 h10
expect_write_error "$RENVERSI" perft 2
expect_write_error "$RENVERSI" vcf h8
expect_write_error "$RENVERSI" analyse --depth 1 f5d6
echo "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X" >"$tmp/p.obf"
expect_write_error "$RENVERSI" solve "$tmp/p.obf"
for proto in gomocup nboard; do
    input=$([ $proto = gomocup ] && echo ABOUT || printf 'nboard 2\nping 1')
    printf '%s\n' "$input" | "$RENVERSI" $proto >/dev/full 2>"$tmp/err"
    code=$?
    [ "$code" != 0 ] && grep -q "write error" "$tmp/err" && ok || bad "$proto to /dev/full: exit $code"
done
# Nothing written and stdout closed: nothing lost, exit 0 (as coreutils).
"$RENVERSI" judge h8 >/dev/null && ok || bad "judge to /dev/null"

# ---- 14: play's load never replaces the game with a broken one; empty input is refused
mkdir -p "$tmp/dir"
printf 'h8\nload %s\nload /dev/null\nload %s/missing\nsave %s/g.txt\n' "$tmp/dir" "$tmp" "$tmp" |
    "$RENVERSI" play --ai none >"$tmp/out" 2>&1
grep -q "cannot load $tmp/dir: Is a directory" "$tmp/out" && ok || bad "load of a directory: $(grep load "$tmp/out")"
grep -q "cannot load /dev/null: the record is empty" "$tmp/out" && ok || bad "load of /dev/null: $(grep load "$tmp/out")"
grep -q "cannot load $tmp/missing: No such file" "$tmp/out" && ok || bad "load of a missing file"
[ "$(cat "$tmp/g.txt")" = "h8" ] && ok || bad "the game after failed loads: $(cat "$tmp/g.txt")"
head -c 1048577 /dev/zero | tr '\0' ' ' >"$tmp/big.txt"
printf 'h8\nload %s\nsave %s/g.txt\n' "$tmp/big.txt" "$tmp" | "$RENVERSI" play --ai none >"$tmp/out" 2>&1
grep -q "longer than 1048576 bytes" "$tmp/out" && [ "$(cat "$tmp/g.txt")" = "h8" ] && ok || bad "load of a 1 MB+ file"

expect_empty() { # MESSAGE CMD...: exit 2 with MESSAGE
    local want=$1; shift
    expect_exit 2 "$@"
    expect_stderr_has "$want" "$@"
}
expect_empty "empty move list" "$RENVERSI" judge ""
expect_empty "empty transcript" "$RENVERSI" judge --game reversi ""
expect_empty "empty transcript" "$RENVERSI" judge --game reversi " "
expect_empty "empty move list" "$RENVERSI" vcf ""
expect_empty "empty transcript" "$RENVERSI" analyse ""
expect_empty "empty move list" "$RENVERSI" forbidden ""
expect_empty "no positions in /dev/null" "$RENVERSI" solve /dev/null
expect_empty "no positions in /dev/null" "$RENVERSI" forbidden --file /dev/null

# solve refuses more empty squares than --max-empties (default 36) before solving anything.
echo "---------------------------OX------XO--------------------------- X" >"$tmp/start.obf"
expect_exit 2 timeout 60 "$RENVERSI" solve "$tmp/start.obf"
expect_stderr_has "60 empty squares, more than --max-empties 36" timeout 60 "$RENVERSI" solve "$tmp/start.obf"
expect_exit 2 "$RENVERSI" solve --max-empties 19 "$tmp/p.obf"      # 20 empties
expect_stdout_has "1 A2 +38" "$RENVERSI" solve --max-empties 20 "$tmp/p.obf"
expect_exit 2 "$RENVERSI" solve --max-empties 61 "$tmp/p.obf"
finish
