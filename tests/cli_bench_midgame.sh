# `renversi bench midgame`: one line per built-in position, the summary line,
# both evaluations, a transcript file, and bad input -> exit 2.
. "$(dirname "$0")/lib.sh"
"$RENVERSI" bench midgame --depth 3 >"$tmp/m" 2>/dev/null
if [ "$(grep -Ec '^[0-9]+ [A-H][1-8] [+-][0-9]+\.[0-9]{2} [1-9][0-9]* [0-9]+\.[0-9]{3}$' "$tmp/m")" = 9 ]; then ok; else bad "position lines: $(cat "$tmp/m")"; fi
if tail -1 "$tmp/m" | grep -Eq '^midgame: [1-9][0-9]* nodes, [0-9]+\.[0-9]{3} s, [0-9]+ k nodes/s, [0-9]+\.[0-9]{3} s CPU$'; then ok; else bad "summary: $(tail -1 "$tmp/m")"; fi
# The two evaluations search differently (different node counts or scores).
"$RENVERSI" bench midgame --depth 3 --eval simple >"$tmp/s" 2>/dev/null
if [ "$(grep -c '^[0-9]' "$tmp/s")" = 9 ] && ! cmp -s "$tmp/m" "$tmp/s"; then ok; else bad "--eval simple: $(cat "$tmp/s")"; fi
printf '# two positions\nf5d6c3\n\nf5f6e6f4\n' >"$tmp/t.txt"
"$RENVERSI" bench midgame "$tmp/t.txt" --depth 2 >"$tmp/f" 2>/dev/null
if [ "$(grep -c '^[0-9]' "$tmp/f")" = 2 ]; then ok; else bad "file: $(cat "$tmp/f")"; fi
printf 'f5f5\n' >"$tmp/bad.txt"
expect_exit 2 "$RENVERSI" bench midgame "$tmp/bad.txt"
expect_exit 2 "$RENVERSI" bench midgame --depth 0
expect_exit 2 "$RENVERSI" bench midgame --eval nothing
expect_exit 0 "$RENVERSI" bench midgame --help
finish
