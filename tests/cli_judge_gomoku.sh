#!/usr/bin/env bash
# `renversi judge` for Gomoku: verdict lines, rule variants, exit codes, bad input.
. "$(dirname "$0")/lib.sh"
R=$RENVERSI

expect_exit 0 "$R" judge --help
expect_stdout_has "usage: renversi judge" "$R" judge --game gomoku --help

expect_stdout "white to move" "$R" judge h8
expect_stdout "black to move" "$R" judge "h8i9"
expect_stdout "black to move" "$R" judge --game gomoku --rule renju h8 i9
# a five on row 8 (freestyle is the default)
expect_stdout "black wins: five h8-l8" "$R" judge h8 h9 i8 i9 j8 j9 k8 k9 l8
expect_stdout "white wins: five a9-e9" "$R" judge h8 a9 i8 b9 j8 c9 k8 d9 m1 e9
# a diagonal and a column: ends printed by column, then row
expect_stdout "black wins: five d4-h8" "$R" judge h8 a1 g7 a2 f6 a3 e5 a4 d4
expect_stdout "black wins: five c3-c7" "$R" judge c3 a1 c4 a2 c5 a3 c6 a4 c7
expect_stdout "black wins: five c7-g3" "$R" judge g3 a1 f4 a2 e5 a3 d6 a4 c7

# six in a row: freestyle and caro win; standard (exactly five) plays on; renju: forbidden
six="c8 c1 d8 d1 e8 e1 g8 g1 h8 h1 f8"
expect_stdout "black wins: overline c8-h8" "$R" judge $six
expect_stdout "black wins: overline c8-h8" "$R" judge --rule caro $six
expect_stdout "white to move" "$R" judge --rule standard $six
expect_stdout "white wins: black's forbidden move f8 (overline)" "$R" judge --rule renju $six
expect_exit 0 "$R" judge --rule renju $six
expect_stdout "white wins: black's forbidden move f8 (overline)" "$R" judge --game renju $six
# white's six under renju wins
expect_stdout "white wins: overline c8-h8" "$R" judge --rule renju a1 c8 a3 d8 a5 e8 a7 g8 a9 h8 a11 f8
# renju double-three and double-four as the last move
expect_stdout "white wins: black's forbidden move h8 (double-three)" "$R" judge --rule renju f8 a1 g8 a2 h6 a3 h7 a4 h8
expect_stdout "white wins: black's forbidden move e8 (double-four)" "$R" judge --rule renju a8 o1 b8 o3 c8 o5 g8 o7 h8 o9 i8 n15 e8
# options may follow the moves
expect_stdout "white wins: black's forbidden move h8 (double-three)" "$R" judge f8 a1 g8 a2 h6 a3 h7 a4 h8 --rule renju
expect_stdout "white to move" "$R" judge --size 9 -- a1
# caro: a five blocked at both ends does not win; blocked at one end does
expect_stdout "white to move" "$R" judge --rule caro d8 c8 e8 i8 f8 a1 g8 a2 h8
expect_stdout "black wins: five d8-h8" "$R" judge --rule caro d8 c8 e8 a3 f8 a1 g8 a2 h8
expect_stdout "white to move" "$R" judge --rule standard-caro d8 c8 e8 i8 f8 a1 g8 a2 h8

# a draw on a full 5x5 board (no five anywhere: XXOOX / OOXXO / ...)
draw="a5 c5 b5 d5 e5 a4 c4 b4 d4 e4 a3 c3 b3 d3 e3 a2 c2 b2 d2 e2 a1 c1 b1 d1 e1"
expect_stdout "draw: board full" "$R" judge --size 5 $draw

# illegal moves: the verdict on stdout, one line on stderr, exit 2
expect_stdout "illegal move 3 (h8): occupied" "$R" judge h8 i9 h8
expect_exit 2 "$R" judge h8 i9 h8
expect_stderr_has "renversi judge: illegal move 3 (h8): occupied" "$R" judge h8 i9 h8
expect_stdout "illegal move 2 (p8): off the board" "$R" judge h8 p8
expect_stdout "illegal move 2 (h16): off the board" "$R" judge h8 h16
expect_stdout "illegal move 3 (f1): off the board" "$R" judge --size 5 a1 b1 f1
expect_stdout "illegal move 10 (a5): after the end" "$R" judge h8 h9 i8 i9 j8 j9 k8 k9 l8 a5
expect_stdout "illegal move 10 (a5): after the end" "$R" judge --rule renju f8 a1 g8 a2 h6 a3 h7 a4 h8 a5

# bad input
for args in "" "x0" "h8 x0" "h0" "--rule nope h8" "--rule" "--size 30 h8" "--size 4 h8" \
            "--bogus h8" "--game chess h8" "h8 ;"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$R" judge $args
done
expect_stderr_has "bad point 'x0' at offset 3" "$R" judge h8 x0
expect_stderr_has "unknown rule 'nope'" "$R" judge --rule nope h8
lines=$("$R" judge h8 "x0" 2>&1 | wc -l); [ "$lines" = 1 ] && ok || bad "error is $lines lines"
# a long argument (the kernel caps one argument near 128 KB): an error, quickly
big=$(yes "h8 i9" | head -c 100000 | tr '\n' ' ')
"$R" judge "$big" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q "more moves than the 15x15 board" "$tmp/err" && ok || bad "long argument: exit $rc"
finish
