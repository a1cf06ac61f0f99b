#!/usr/bin/env bash
# `renversi perft`: published counts (shared/spec/othello.md), both conventions,
# --board, every SIMD path this CPU has, and bad input.
. "$(dirname "$0")/lib.sh"
R=$RENVERSI

# Only the counts are compared; SECONDS varies.
counts() { "$@" 2>/dev/null | awk '{print $1" "$2}' | tr '\n' ' '; }
want9="1 4 2 12 3 56 4 244 5 1396 6 8200 7 55092 8 390216 9 3005288 "
got=$(counts "$R" perft 9)
[ "$got" = "$want9" ] && ok || bad "perft 9: $got"
for simd in plain avx2 avx512; do
    if "$R" perft 1 --simd $simd >/dev/null 2>&1; then
        got=$(counts "$R" perft 10 --simd $simd)
        [ "$got" = "${want9}10 24571284 " ] && ok || bad "perft 10 --simd $simd: $got"
        got=$(counts "$R" perft 10 --alive-only --simd $simd)
        [ "$got" = "${want9}10 24571056 " ] && ok || bad "perft 10 --alive-only --simd $simd: $got"
    fi
done
got=$(RV_REVERSI_SIMD=plain counts "$R" perft 6)
[ "$got" = "1 4 2 12 3 56 4 244 5 1396 6 8200 " ] && ok || bad "RV_REVERSI_SIMD=plain perft 6: $got"

# The line format: DEPTH NODES SECONDS with three decimals.
"$R" perft 3 >"$tmp/out"
grep -Eq '^3 56 [0-9]+\.[0-9]{3}$' "$tmp/out" && ok || bad "line format: $(cat "$tmp/out")"
[ "$(wc -l <"$tmp/out")" = 3 ] && ok || bad "perft 3 prints 3 lines"

# --board: the start position written out gives the same counts; white to
# move at the start is the mirror image (same counts).
start="---------------------------OX------XO--------------------------- X"
got=$(counts "$R" perft 5 --board "$start")
[ "$got" = "1 4 2 12 3 56 4 244 5 1396 " ] && ok || bad "--board start: $got"
got=$(counts "$R" perft 5 --board "---------------------------XO------OX--------------------------- O; ignored")
[ "$got" = "1 4 2 12 3 56 4 244 5 1396 " ] && ok || bad "--board colours swapped: $got"
# A finished game (full board): 1 leaf at every depth, 0 with --alive-only.
full="XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X"
expect_stdout "1 1" sh -c "'$R' perft 1 --board '$full' | cut -d' ' -f1,2"
expect_stdout "1 0" sh -c "'$R' perft 1 --alive-only --board '$full' | cut -d' ' -f1,2"
# One empty square, black cannot take it, white can: black passes (1 leaf),
# then white's move (1 leaf at depth 2).
# Row 1: a1 empty, b1 black, c1 white; everything else white -> black to move
# has no move; white plays a1? a1-b1(black)-c1(white): yes.
board="-XOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO X"
got=$(counts "$R" perft 3 --board "$board")
[ "$got" = "1 1 2 1 3 1 " ] && ok || bad "pass then last move: $got"
got=$(counts "$R" perft 3 --alive-only --board "$board")
[ "$got" = "1 1 2 1 3 0 " ] && ok || bad "pass then last move, alive-only: $got"

expect_exit 0 "$R" perft --help
expect_stdout_has "usage: renversi perft" "$R" perft --help
expect_exit 2 "$R" perft
expect_exit 2 "$R" perft 0
expect_exit 2 "$R" perft 61
expect_exit 2 "$R" perft x
expect_exit 2 "$R" perft 3 4
expect_exit 2 "$R" perft 3 --bogus
expect_exit 2 "$R" perft 3 --board
expect_exit 2 "$R" perft 3 --simd mmx
expect_stderr_has "bad --board: offset 3: board has only 3 of 64 squares" "$R" perft 3 --board "XO-"
expect_stderr_has "centre square d4 is empty" "$R" perft 3 --board "$(printf -- '-%.0s' $(seq 64)) X"
expect_stderr_has "bad side to move" "$R" perft 3 --board "${start% X} Z"
big=$(head -c 100000 /dev/zero | tr '\0' 'X')
expect_exit 2 "$R" perft 3 --board "$big"
finish
