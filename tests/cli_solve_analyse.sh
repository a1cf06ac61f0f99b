# `renversi analyse`: every move of a game evaluated; the exact endgame
# scores must agree with the game's real final result (counted by the core).
. "$(dirname "$0")/lib.sh"
game=d3c5e6d2c6f5c4b4e3f4c3b3c2d6f6b5b6c1a5a7a2e7a4a3a6a1a8f7b2c7b7d8c8b8f8d7g8g7e8g3g5h8h7g6h2h6g4b1e1e2g2f2f1h4h3g1d1h5f3h1
"$RENVERSI" analyse --depth 6 "$game" >"$tmp/a" 2>"$tmp/e"
rc=$?
if [ $rc = 0 ]; then ok; else bad "exit $rc: $(cat "$tmp/e")"; fi
# 60 moves and 9 passes (pa lines), then the summary.
if [ "$(grep -c '^[0-9]' "$tmp/a")" = 69 ]; then ok; else bad "ply lines: $(grep -c '^[0-9]' "$tmp/a")"; fi
if [ "$(grep -c '^[0-9]* pa ' "$tmp/a")" = 9 ]; then ok; else bad "pass lines"; fi
if tail -1 "$tmp/a" | grep -q '^# game over: black wins 60-4 (discs 60-4);'; then ok; else bad "summary: $(tail -1 "$tmp/a")"; fi
# Black won 60-4 (+56): after black's last mistake (ply 53, b1 instead of e1,
# which the solver scores 2 discs worse), every exact score is +56 for black
# and -56 for white.
sed -n '/^53 /p' "$tmp/a" | grep -q '^53 b1 black +56.00 [a-h][1-8] +58.00 2.00 ? exact$' && ok || bad "ply 53: $(sed -n '/^53 /p' "$tmp/a")"
awk '$1 > 53 && $2 != "pa" { if (!($NF == "exact" && (($3 == "black" && $4 == "+56.00") || ($3 == "white" && $4 == "-56.00")))) print }' "$tmp/a" >"$tmp/badlines"
if [ ! -s "$tmp/badlines" ]; then ok; else bad "inconsistent exact lines: $(cat "$tmp/badlines")"; fi
# Transcript on stdin.
out=$(printf 'f5d6\n' | "$RENVERSI" analyse --depth 2 - 2>/dev/null | grep -c '^[0-9]')
if [ "$out" = 2 ]; then ok; else bad "stdin: $out lines"; fi
# Bad input: exit 2 with the move's number.
expect_exit 2 "$RENVERSI" analyse f5f5
expect_stderr_has "illegal move 2 (f5)" "$RENVERSI" analyse f5f5
expect_exit 2 "$RENVERSI" analyse zz
expect_exit 2 "$RENVERSI" analyse
expect_exit 2 "$RENVERSI" analyse f5 --depth 0
expect_exit 0 "$RENVERSI" analyse --help
finish
