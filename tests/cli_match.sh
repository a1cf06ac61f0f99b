#!/usr/bin/env bash
# `renversi match`: a few short games between levels and through the Gomocup protocol.
. "$(dirname "$0")/lib.sh"

expect_exit 0 "$RENVERSI" match --help
expect_stdout_has "level:N" "$RENVERSI" match --help
# two quick games between internal levels: W/D/L adds up, no rule breaks, PSQ saved
"$RENVERSI" match --games 2 --save "$tmp/g" level:2 level:1 >"$tmp/m.out" 2>"$tmp/m.err"
[ $? = 0 ] && ok || bad "match level:2 level:1 failed"
grep -Eq '^level:2 vs level:1: 2 games, \+[0-9]+ =[0-9]+ -[0-9]+, score ' "$tmp/m.out" && ok || bad "summary: $(cat "$tmp/m.out")"
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/m.out" && ok || bad "rule breaks: $(cat "$tmp/m.out")"
grep -q '^elo: ' "$tmp/m.out" && ok || bad "no elo line"
[ "$(grep -c '^game ' "$tmp/m.err")" = 2 ] && ok || bad "progress lines: $(cat "$tmp/m.err")"
head -1 "$tmp/g001.psq" | grep -q '^Piskvorky 15x15' && ok || bad "PSQ header"
# the opening (8,8 = h8 first) is in the record; the PSQ replays under the rules (judge-free check:
# each x,y is 1..15 and no point repeats)
awk -F, 'NR>1 && NF==3 {k=$1","$2; if ($1<1||$1>15||$2<1||$2>15||seen[k]++) bad=1} END {exit bad}' \
    "$tmp/g001.psq" && ok || bad "PSQ moves"
sed -n 2p "$tmp/g001.psq" | grep -q '^8,8,' && ok || bad "PSQ first move $(sed -n 2p "$tmp/g001.psq")"
# through the Gomocup protocol, Renju, a per-move time control, two games at once
"$RENVERSI" match --games 2 --concurrency 2 --rule renju --tc 200 \
    "pbrain:'$RENVERSI' gomocup" level:2 >"$tmp/p.out" 2>"$tmp/p.err"
[ $? = 0 ] && ok || bad "pbrain match failed: $(cat "$tmp/p.err")"
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/p.out" && ok || bad "pbrain: $(cat "$tmp/p.out" "$tmp/p.err")"
# an opening file; a broken brain loses by crash, not the match
printf '# two openings\nh8 h9\n\nh8 i9 j10\n' >"$tmp/open.txt"
expect_stdout_has "2 games" "$RENVERSI" match --games 2 --openings "$tmp/open.txt" level:1 level:1
"$RENVERSI" match --games 2 "pbrain:echo nonsense" level:1 >"$tmp/c.out" 2>&1
grep -q 'crashes: 2' "$tmp/c.out" && ok || bad "crashing brain: $(cat "$tmp/c.out")"
grep -q '+0 =0 -2' "$tmp/c.out" && ok || bad "crashing brain result: $(cat "$tmp/c.out")"
# Othello: internal levels, GGF saved; an NBoard engine that passes illegally loses by an
# illegal move, one that never answers loses on time
"$RENVERSI" match --game reversi --games 2 --save "$tmp/o" level:2 level:1 >"$tmp/o.out" 2>"$tmp/o.err"
[ $? = 0 ] && ok || bad "othello match failed: $(cat "$tmp/o.err")"
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/o.out" && ok || bad "othello: $(cat "$tmp/o.out")"
[ "$(grep -c '^(;GM\[Othello\]' "$tmp/o.ggf")" = 2 ] && ok || bad "GGF games: $(cat "$tmp/o.ggf")"
grep -q 'B\[F5' "$tmp/o.ggf" && ok || bad "GGF opening"
# two games at once: every game lands in the GGF file
"$RENVERSI" match --game reversi --games 4 --concurrency 2 --quiet --save "$tmp/o2" level:1 level:1 >/dev/null
[ "$(grep -c '^(;GM\[Othello\]' "$tmp/o2.ggf")" = 4 ] && ok || bad "GGF with concurrency: $(wc -l <"$tmp/o2.ggf") lines"
cat >"$tmp/passer.sh" <<'SH'
while read -r cmd rest; do case "$cmd" in go) echo "=== PA";; quit) exit 0;; esac; done
SH
"$RENVERSI" match --game reversi --games 2 "nboard:sh $tmp/passer.sh" level:1 >"$tmp/n.out" 2>&1
grep -q '^illegal moves: 2, time losses: 0, crashes: 0$' "$tmp/n.out" && ok || bad "nboard passer: $(cat "$tmp/n.out")"
cat >"$tmp/sleeper.sh" <<'SH'
while read -r cmd rest; do case "$cmd" in go) sleep 5;; quit) exit 0;; esac; done
SH
"$RENVERSI" match --game reversi --games 1 --tc 200 "nboard:sh $tmp/sleeper.sh" level:1 >"$tmp/s.out" 2>&1
grep -q 'time losses: 1' "$tmp/s.out" && ok || bad "nboard sleeper: $(cat "$tmp/s.out")"
expect_exit 2 "$RENVERSI" match --game reversi "pbrain:x" level:1
# Two wrapped NBoard engines: after the match no wrapper is left running (each engine's
# pipes must not leak into the other, or its wrapper never sees end of input).
mark="rvmark$$"
"$RENVERSI" match --game reversi --games 2 --concurrency 2 --quiet \
    "nboard:sed -u 's/^set depth 12\$/set depth 2/;s/$mark//' | $RENVERSI nboard" \
    "nboard:sed -u 's/^set depth 12\$/set depth 1/;s/$mark//' | $RENVERSI nboard" >"$tmp/w.out" 2>&1
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/w.out" && ok || bad "wrapped nboard: $(cat "$tmp/w.out")"
sleep 1
if pgrep -f "$mark" >/dev/null; then bad "wrapped engines left running: $(pgrep -af "$mark")"; pkill -f "$mark"; else ok; fi
expect_exit 2 "$RENVERSI" match "nboard:x" level:1
printf 'f5 d6\nf5 a1\n' >"$tmp/badoth.txt"
expect_stderr_has "bad opening" "$RENVERSI" match --game reversi --openings "$tmp/badoth.txt" level:1 level:1
# bad input
expect_exit 2 "$RENVERSI" match level:1
expect_exit 2 "$RENVERSI" match level:0 level:1
expect_exit 2 "$RENVERSI" match --games 0 level:1 level:1
expect_exit 2 "$RENVERSI" match --concurrency 3 level:1 level:1
expect_exit 2 "$RENVERSI" match --game chess level:1 level:1
expect_exit 2 "$RENVERSI" match --openings /nonexistent level:1 level:1
printf 'h8 h8\n' >"$tmp/badopen.txt"
expect_stderr_has "bad opening" "$RENVERSI" match --openings "$tmp/badopen.txt" level:1 level:1
finish
