# `renversi bench search` (Gomoku): one line per built-in position, the summary
# line, a move-list file with rules, and bad input -> exit 2.
. "$(dirname "$0")/lib.sh"
"$RENVERSI" bench search --depth 2 >"$tmp/s" 2>/dev/null
if [ "$(grep -Ec '^[0-9]+ (freestyle|renju) [a-o][0-9]+ -?[0-9]+ [1-9][0-9]* [0-9]+\.[0-9]{3}$' "$tmp/s")" = 10 ]; then ok; else bad "position lines: $(cat "$tmp/s")"; fi
if tail -1 "$tmp/s" | grep -Eq '^search: [1-9][0-9]* nodes, [0-9]+\.[0-9]{3} s, [0-9]+ k nodes/s$'; then ok; else bad "summary: $(tail -1 "$tmp/s")"; fi
printf '# comment\nrenju: h8 h9 j8\n\nh8 i9\n' >"$tmp/p.txt"
"$RENVERSI" bench search "$tmp/p.txt" --depth 2 >"$tmp/f" 2>/dev/null
if [ "$(grep -c '^[0-9]' "$tmp/f")" = 2 ] && grep -q '^1 renju ' "$tmp/f" && grep -q '^2 freestyle ' "$tmp/f"; then ok; else bad "file: $(cat "$tmp/f")"; fi
printf '# nothing\n' >"$tmp/empty.txt"
expect_exit 2 "$RENVERSI" bench search "$tmp/empty.txt"
expect_exit 2 "$RENVERSI" bench search "$tmp/missing.txt"
printf 'gomoku-ish: h8\n' >"$tmp/rule.txt"
expect_exit 2 "$RENVERSI" bench search "$tmp/rule.txt"
expect_exit 2 "$RENVERSI" bench search --depth 0
finish
