# `renversi solve`: the output contract of shared/DESIGN.md on FFO positions
# (published scores) and hand-made positions, and bad input -> exit 2.
. "$(dirname "$0")/lib.sh"
ffo="$RV_TEST_DATA/othello/fforum-1-19.obf"

# FFO #1: G8 is the only best move, +18 (the file's first pair).
line1=$(head -1 "$ffo")
out=$(printf '%s\n' "$line1" | "$RENVERSI" solve - 2>/dev/null)
first=$(printf '%s\n' "$out" | head -1)
case "$first" in
"1 G8 +18 "*) ok ;;
*) bad "FFO #1: got '$first'" ;;
esac
# Fields: INDEX MOVE SCORE NODES SECONDS (three decimals), then a '#' summary.
if printf '%s\n' "$first" | grep -Eq '^1 [A-H][1-8] [+-]?[0-9]+ [0-9]+ [0-9]+\.[0-9]{3}$'; then ok; else bad "format: '$first'"; fi
if [ "$(printf '%s\n' "$out" | wc -l)" = 2 ] && printf '%s\n' "$out" | tail -1 | grep -q '^# '; then ok; else bad "summary: '$out'"; fi

# All of #1-#19: scores equal the file's best score; the summary says so.
"$RENVERSI" solve "$ffo" >"$tmp/all" 2>/dev/null
if [ "$(grep -c '^[0-9]' "$tmp/all")" = 19 ]; then ok; else bad "19 result lines expected"; fi
if tail -1 "$tmp/all" | grep -q '19/19 agree'; then ok; else bad "summary: $(tail -1 "$tmp/all")"; fi
expect_ffo_scores "$ffo" "$tmp/all" 1

# --wld: +1/0/-1; FFO #4 is a draw (H8:+0), #9 a loss (-8).
"$RENVERSI" solve --wld "$ffo" >"$tmp/wld" 2>/dev/null
if [ "$(sed -n 4p "$tmp/wld" | awk '{print $3}')" = 0 ]; then ok; else bad "wld #4: $(sed -n 4p "$tmp/wld")"; fi
if [ "$(sed -n 9p "$tmp/wld" | awk '{print $3}')" = -1 ]; then ok; else bad "wld #9: $(sed -n 9p "$tmp/wld")"; fi
if [ "$(sed -n 1p "$tmp/wld" | awk '{print $3}')" = +1 ]; then ok; else bad "wld #1: $(sed -n 1p "$tmp/wld")"; fi

# --threads 2 gives the same moves and scores in the same order.
"$RENVERSI" solve --threads 2 "$ffo" >"$tmp/t2" 2>/dev/null
if [ "$(awk '/^[0-9]/{print $1,$2,$3}' "$tmp/t2")" = "$(awk '/^[0-9]/{print $1,$2,$3}' "$tmp/all")" ]; then ok; else bad "--threads 2 differs"; fi

full_black_h8_empty="$(printf 'X%.0s' $(seq 63))- X"
out=$(printf '%s\n' "$full_black_h8_empty" | "$RENVERSI" solve 2>/dev/null | head -1 | awk '{print $1,$2,$3}')
if [ "$out" = "1 -- +64" ]; then ok; else bad "game over: '$out'"; fi
# White to move with no white disc... O has no move, X has none either: over, -64 for O.
out=$(printf '%s\n' "$(printf 'X%.0s' $(seq 63))- O" | "$RENVERSI" solve 2>/dev/null | head -1 | awk '{print $1,$2,$3}')
if [ "$out" = "1 -- -64" ]; then ok; else bad "game over (O): '$out'"; fi
# Must pass: a1 empty, b1 O, c1..h8 X, O to move: O cannot move (a1 flips nothing for O),
# X can (a1 flips b1), so O passes and loses 0-64.
pass_pos="-O$(printf 'X%.0s' $(seq 62)) O"
out=$(printf '%s\n' "$pass_pos" | "$RENVERSI" solve 2>/dev/null | head -1 | awk '{print $1,$2,$3}')
if [ "$out" = "1 PA -64" ]; then ok; else bad "pass: '$out'"; fi

# Comments and blank lines are skipped and not counted.
out=$(printf '# c\n\n%% x\n%s\n' "$line1" | "$RENVERSI" solve 2>/dev/null | head -1 | cut -d' ' -f1-3)
if [ "$out" = "1 G8 +18" ]; then ok; else bad "comments: '$out'"; fi

# Bad input: exit 2 with a one-line message; nothing on stdout.
printf 'XXXX X;\n' >"$tmp/bad.obf"
expect_exit 2 "$RENVERSI" solve "$tmp/bad.obf"
expect_stderr_has "renversi solve:" "$RENVERSI" solve "$tmp/bad.obf"
printf '%s\nnot an obf line\n' "$line1" >"$tmp/bad2.obf"
expect_exit 2 "$RENVERSI" solve "$tmp/bad2.obf"
expect_stderr_has ":2:" "$RENVERSI" solve "$tmp/bad2.obf"
expect_stdout "" "$RENVERSI" solve "$tmp/bad2.obf"
head -c 1100000 /dev/zero | tr '\0' 'X' >"$tmp/huge.obf"
expect_exit 2 "$RENVERSI" solve "$tmp/huge.obf"
expect_exit 2 "$RENVERSI" solve /nonexistent/file.obf
expect_exit 2 "$RENVERSI" solve --threads 0 "$ffo"
expect_exit 2 "$RENVERSI" solve --bogus "$ffo"
expect_exit 2 "$RENVERSI" solve "$ffo" "$ffo"
# Empty input is refused, as by every command that reads positions (issue #10).
out=$(printf '# only a comment\n\n' | "$RENVERSI" solve - 2>&1)
code=$?
if [ "$code" = 2 ] && [ "$out" = "renversi solve: no positions in stdin" ]; then ok; else bad "empty: exit $code, '$out'"; fi
expect_exit 0 "$RENVERSI" solve --help
expect_stdout_has "usage: renversi solve" "$RENVERSI" solve --help
finish
