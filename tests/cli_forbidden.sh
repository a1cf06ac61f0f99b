#!/usr/bin/env bash
# `renversi forbidden`: output format, sort order, --explain, stone sets, --file, bad input.
. "$(dirname "$0")/lib.sh"
R=$RENVERSI

expect_exit 0 "$R" forbidden --help
expect_stdout_has "usage: renversi forbidden" "$R" forbidden --help

# a double-three at h8 (row f8 g8 and column h6 h7), written both ways
expect_stdout "h8" "$R" forbidden f8 a1 g8 a2 h6 a3 h7
expect_stdout "h8" "$R" forbidden "f8a1g8a2h6a3h7"
expect_stdout "h8:double-three" "$R" forbidden --explain f8 a1 g8 a2 h6 a3 h7
# options may follow the moves; "--" ends the options
expect_stdout "h8:double-three" "$R" forbidden f8 a1 g8 a2 --explain h6 a3 h7
expect_stdout "h8" "$R" forbidden -- f8 a1 g8 a2 h6 a3 h7
# nothing forbidden: exactly one empty line
expect_stdout "" "$R" forbidden h8
got=$("$R" forbidden h8 | wc -c); [ "$got" = 1 ] && ok || bad "empty answer is $got bytes, want 1"

# the spec's worked subtleties as stone sets (shared/spec/renju.md)
expect_stdout "h8:overline" "$R" forbidden --explain --black "d8 e8 f8 g8 i8" --white -
# with h4-h7 the same h8 makes an exact five: legal (g6 is a double-three: e8 . g6 h5, g6 h7 i8)
expect_stdout "g6:double-three" "$R" forbidden --explain --black "d8 e8 f8 g8 i8 h4 h5 h6 h7" --white "a1"
expect_stdout "e8:double-four" "$R" forbidden --explain --black "a8 b8 c8 g8 h8 i8" --white -

# sort order: by column letter, then row number numerically (g5 g10 h3, not g10 g5)
# overlines: g5 (g1-g6), g10 (g9-g14) and h3 (g3-m3; n3 is white so n3 is no overline)
stones="g1 g2 g3 g4 g6 g9 g11 g12 g13 g14 i3 j3 k3 l3 m3"
expect_stdout "g5 g10 h3" "$R" forbidden --black "$stones" --white n3
expect_stdout "g5:overline g10:overline h3:overline" "$R" forbidden --explain --black "$stones" --white n3

# every case of the public data, through --file, equals the expected ALL sets
data="$RV_TEST_DATA/renju/forbidden-cases-public.txt"
while IFS='|' read -r id black white exp; do
    case "$exp" in *ALL*) ;; *) continue ;; esac
    want=$(echo "$exp" | sed 's/^ *ALL *//; s/ *$//; s/^-$//' | tr ' ' '\n' | sed 's/:3$/:double-three/; s/:4$/:double-four/; s/:6$/:overline/' | sort -t: -k1.1,1.1 -k1.2n | tr '\n' ' ' | sed 's/ *$//')
    expect_stdout "$want" "$R" forbidden --explain --black "$black" --white "$white"
done <"$data"

# --file: one answer line per position; comments, blank lines and " | tails" skipped
printf '# positions\nf8 a1 g8 a2 h6 a3 h7 | a double three\n\n%% note\nh8\n' >"$tmp/in.txt"
"$R" forbidden --file "$tmp/in.txt" >"$tmp/out.txt"
printf 'h8\n\n' | cmp -s - "$tmp/out.txt" && ok || bad "--file output: $(od -c "$tmp/out.txt")"
"$R" forbidden --explain --file - <"$tmp/in.txt" >"$tmp/out.txt"
printf 'h8:double-three\n\n' | cmp -s - "$tmp/out.txt" && ok || bad "--file - output: $(od -c "$tmp/out.txt")"
# other sizes: a double-three at b4 on 7x7 (row b4 c4 d4, column b4 b5 b6 reaching the edge)
expect_stdout "b4:double-three" "$R" forbidden --explain --size 7 c4 g1 d4 g2 b5 g3 b6
# four-three is legal: row a4-d4 is a four, column b3-b5 a three
expect_stdout "" "$R" forbidden --size 7 "a4 g1 c4 g2 d4 g3 b5 g4 b3"

# bad input: one line on stderr, exit 2, never a crash
for args in "x0" "h8 h8" "h0" "p8" "h16" "8h" "h8 ;" "--size 4 h8" "--size 27 h8" "--size x h8" \
            "--bogus h8" "--black" "--file /nonexistent" "" "--black - --white -" "--size"; do
    # shellcheck disable=SC2086
    expect_exit 2 "$R" forbidden $args
done
expect_stderr_has "renversi forbidden: move 2 (h8): occupied" "$R" forbidden h8 h8
expect_stderr_has "move 1 (p8): off the 15x15 board" "$R" forbidden p8
expect_stderr_has "bad point 'x0' at offset 3" "$R" forbidden "h8 x0"
expect_stderr_has "line 2: bad point" "$R" forbidden --file <(printf 'h8\nh8 zz\n')
printf '\n# nothing\n' >"$tmp/empty.txt"
expect_exit 2 "$R" forbidden --file "$tmp/empty.txt"
lines=$("$R" forbidden "h8 h8" 2>&1 | wc -l); [ "$lines" = 1 ] && ok || bad "error is $lines lines"
# a 1 MB line: an error, quickly
head -c 1000000 /dev/zero | tr '\0' 'h' >"$tmp/big.txt"
expect_exit 2 "$R" forbidden --file "$tmp/big.txt"
yes "h8 i9" | head -c 1000000 | tr '\n' ' ' >"$tmp/big2.txt"
expect_stderr_has "more moves than the 15x15 board has points" "$R" forbidden --file "$tmp/big2.txt"
finish
