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
"$RENVERSI" match --games 2 --concurrency 2 --rule renju --tc 200 --tolerance 1000 \
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
while read -r cmd rest; do case "$cmd" in go) echo "=== PA";; ping) echo "pong $rest";; quit) exit 0;; esac; done
SH
"$RENVERSI" match --game reversi --games 2 "nboard:sh $tmp/passer.sh" level:1 >"$tmp/n.out" 2>&1
grep -q '^illegal moves: 2, time losses: 0, crashes: 0$' "$tmp/n.out" && ok || bad "nboard passer: $(cat "$tmp/n.out")"
cat >"$tmp/sleeper.sh" <<'SH'
while read -r cmd rest; do case "$cmd" in go) sleep 5;; ping) echo "pong $rest";; quit) exit 0;; esac; done
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

# Bad brains (issue #10.10). `yes` answers START with endless 'y' lines: the wait is one
# deadline (at most 5 s here), not 30 s per line, so the match ends.
timeout 60 "$RENVERSI" match --games 1 --quiet --tc 500 "pbrain:yes" level:1 >"$tmp/y.out" 2>&1
grep -q 'crashes: 1$' "$tmp/y.out" && ok || bad "pbrain:yes: $(cat "$tmp/y.out")"
bad_engine="sh $RV_SOURCE_DIR/tests/bad_engine.sh"
# After a time loss the engine starts the next game as a new process: its late answer
# (an off-board 99,99 / an illegal A1) is never read as a move of the next game.
mark="rvlate$$"
timeout 120 "$RENVERSI" match --games 2 --quiet --tc 300 "pbrain:$bad_engine pbrain-late $mark" level:1 \
    >"$tmp/late.out" 2>&1
grep -q '^illegal moves: 0, time losses: 2, crashes: 0$' "$tmp/late.out" && ok || bad "late brain: $(cat "$tmp/late.out")"
timeout 120 "$RENVERSI" match --game reversi --games 2 --quiet --tc 300 "nboard:$bad_engine nboard-late $mark" \
    level:1 >"$tmp/late2.out" 2>&1
grep -q '^illegal moves: 0, time losses: 2, crashes: 0$' "$tmp/late2.out" && ok || bad "late nboard engine: $(cat "$tmp/late2.out")"
# A brain that leaves a looping child behind: after time losses and the match, its whole
# process group is gone.
mark="rvspawn$$"
timeout 120 "$RENVERSI" match --games 2 --quiet --tc 200 "pbrain:$bad_engine spawn $mark" level:1 >"$tmp/sp.out" 2>&1
grep -q 'time losses: 2' "$tmp/sp.out" && ok || bad "spawning brain: $(cat "$tmp/sp.out")"
sleep 0.5
if pgrep -f "$mark" >/dev/null; then bad "engine processes left: $(pgrep -af "$mark")"; pkill -9 -f "$mark"; else ok; fi
# ... and when the referee itself is stopped (SIGTERM) mid-game
"$RENVERSI" match --games 2 --quiet --tc 20000 "pbrain:$bad_engine spawn $mark" level:1 >/dev/null 2>&1 &
ref=$!
# (the engine's own command line starts with "sh"; the referee's names the mark too)
for _ in $(seq 100); do pgrep -f "^sh [^ ]*bad_engine.sh spawn $mark" >/dev/null && break; sleep 0.1; done
sleep 0.3
kill -TERM $ref
wait $ref 2>/dev/null
sleep 0.5
if pgrep -f "$mark" >/dev/null; then bad "engines outlive a killed referee: $(pgrep -af "$mark")"; pkill -9 -f "$mark"; else ok; fi

# --depth (issue #12.5): sent as `set depth N`; with a time control and no --depth, no depth.
"$RENVERSI" match --game reversi --games 1 --quiet --tc 500 --tolerance 2000 "nboard:tee -a $tmp/tc.log | $RENVERSI nboard" level:1 >"$tmp/d1.out" 2>&1
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/d1.out" && ok || bad "nboard with --tc: $(cat "$tmp/d1.out")"
grep -q '^set depth' "$tmp/tc.log" && bad "--tc sent a depth: $(grep '^set' "$tmp/tc.log" | sort -u)" || ok
grep -qx 'set time 500' "$tmp/tc.log" && ok || bad "--tc 500 sent no 'set time 500'"
"$RENVERSI" match --game reversi --games 1 --quiet --tc-game 20000 --depth 3 "nboard:tee -a $tmp/d.log | $RENVERSI nboard" level:1 >"$tmp/d2.out" 2>&1
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/d2.out" && ok || bad "nboard with --depth 3: $(cat "$tmp/d2.out")"
grep -qx 'set depth 3' "$tmp/d.log" && ok || bad "--depth 3 not sent: $(grep '^set depth' "$tmp/d.log" | sort -u)"
# the game clock travels in the GGF: TI[0:20] and each move's time
grep -q '^set game .*TI\[0:20\]' "$tmp/d.log" && ok || bad "no TI[0:20] in set game"
expect_exit 2 "$RENVERSI" match --depth 0 --game reversi level:1 level:1
expect_exit 2 "$RENVERSI" match --depth 5 level:1 level:1
# Othello is 8x8 with one rule: other sizes and rules are errors, not ignored
expect_exit 2 "$RENVERSI" match --game reversi --size 10 level:1 level:1
expect_stderr_has "8x8" "$RENVERSI" match --game reversi --size 10 level:1 level:1
expect_exit 2 "$RENVERSI" match --game reversi --rule renju level:1 level:1
expect_exit 0 "$RENVERSI" match --game reversi --size 8 --games 1 --quiet level:1 level:1
# --save into a directory that does not exist: an error before any game, exit 2
expect_exit 2 "$RENVERSI" match --games 1 --save "$tmp/no/such/dir/g" level:1 level:1
expect_stderr_has "cannot write" "$RENVERSI" match --games 1 --save "$tmp/no/such/dir/g" level:1 level:1
expect_exit 2 "$RENVERSI" match --game reversi --games 1 --save "$tmp/no/such/o" level:1 level:1
# the saved records carry rv_game's result: black's score, empties to the winner
"$RENVERSI" match --game reversi --games 2 --quiet --save "$tmp/res" level:3 level:1 >/dev/null 2>&1
[ "$(grep -Ec 'RE\[[-+][0-9]+\]' "$tmp/res.ggf")" = 2 ] && ok || bad "GGF results: $(grep -o 'RE\[[^]]*\]' "$tmp/res.ggf")"
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
