# `renversi bench search` (Gomoku): one line per built-in position, the summary
# line, a move-list file with rules, the won-position set (--threats), and bad
# input -> exit 2.
. "$(dirname "$0")/lib.sh"
"$RENVERSI" bench search --depth 2 >"$tmp/s" 2>/dev/null
if [ "$(grep -Ec '^[0-9]+ (freestyle|renju) [a-o][0-9]+ -?[0-9]+ [0-9]+ [1-9][0-9]* [0-9]+\.[0-9]{3}$' "$tmp/s")" = 10 ]; then ok; else bad "position lines: $(cat "$tmp/s")"; fi
if tail -1 "$tmp/s" | grep -Eq '^search: [1-9][0-9]* nodes, [0-9]+\.[0-9]{3} s, [0-9]+ k nodes/s, depth [0-9]+\.[0-9]$'; then ok; else bad "summary: $(tail -1 "$tmp/s")"; fi
printf '# comment\nrenju: h8 h9 j8\n\nh8 i9\n' >"$tmp/p.txt"
"$RENVERSI" bench search "$tmp/p.txt" --depth 2 >"$tmp/f" 2>/dev/null
if [ "$(grep -c '^[0-9]' "$tmp/f")" = 2 ] && grep -q '^1 renju ' "$tmp/f" && grep -q '^2 freestyle ' "$tmp/f"; then ok; else bad "file: $(cat "$tmp/f")"; fi
# a fixed time: the depth reached is reported
"$RENVERSI" bench search "$tmp/p.txt" --time 50 >"$tmp/t" 2>/dev/null
if grep -Eq '^1 renju [a-o][0-9]+ -?[0-9]+ [1-9][0-9]* ' "$tmp/t"; then ok; else bad "time: $(cat "$tmp/t")"; fi
# a node budget: each think stays within it (polled every 256 nodes) and reaches a depth
"$RENVERSI" bench search "$tmp/p.txt" --nodes 5000 >"$tmp/n" 2>/dev/null
if [ "$(awk '/^[0-9]/ && $5 >= 1 && $6 > 0 && $6 <= 5256 {k++} END {print k}' "$tmp/n")" = 2 ]; then ok; else bad "nodes: $(cat "$tmp/n")"; fi
# won positions, both VCFs by a four-three at k8 / k9: black (h8-j8 blocked by g8, k9 k10)
# in freestyle; white (h9-j9 blocked by g9, k10 k11) under Renju
printf 'h8 a1 i8 c1 j8 e1 k9 g8 k10 o15\nrenju: a1 h9 c1 i9 e1 j9 g9 k10 o15 k11 a15\n' >"$tmp/w.txt"
"$RENVERSI" bench search --threats "$tmp/w.txt" --nodes 20000 >"$tmp/w" 2>/dev/null
if tail -1 "$tmp/w" | grep -Eq '^threats: 2 positions, VCF 2 \(100%\), engine 2 \(100%\), [0-9]+ nodes, [0-9.]+ s$'; then ok; else bad "threats: $(cat "$tmp/w")"; fi
printf '# nothing\n' >"$tmp/empty.txt"
expect_exit 2 "$RENVERSI" bench search "$tmp/empty.txt"
expect_exit 2 "$RENVERSI" bench search "$tmp/missing.txt"
printf 'gomoku-ish: h8\n' >"$tmp/rule.txt"
expect_exit 2 "$RENVERSI" bench search "$tmp/rule.txt"
expect_exit 2 "$RENVERSI" bench search --depth 0
expect_exit 2 "$RENVERSI" bench search --threats --nodes 5
finish
