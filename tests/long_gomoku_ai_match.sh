#!/usr/bin/env bash
# Long (make test-long): the issue-5 acceptance matches, scaled by RV_TEST_SCALE like the
# other long suites (2 x RV_TEST_SCALE games each, at least 2; make test-long's 50: 100).
#  - Renju games of the brain against itself through the Gomocup protocol at 100 ms a
#    move: no illegal move, no time loss, no crash;
#  - the default level against level 3, in freestyle and Renju: >= 90%.
. "$(dirname "$0")/lib.sh"

scale=${RV_TEST_SCALE:-1}
case $scale in '' | *[!0-9]*) scale=1 ;; esac # as test_scale(): not a positive number is 1
scale=$((10#$scale))
[ "$scale" -ge 1 ] || scale=1
games=$((2 * scale))
echo "RV_TEST_SCALE $scale: $games games a match"

"$RENVERSI" match --rule renju --games "$games" --tc 100 --concurrency 2 --quiet \
    "pbrain:'$RENVERSI' gomocup" "pbrain:'$RENVERSI' gomocup" >"$tmp/self.out"
cat "$tmp/self.out"
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/self.out" && ok || bad "self-match: $(cat "$tmp/self.out")"
grep -q ": $games games," "$tmp/self.out" && ok || bad "self-match: not $games games"

for rule in freestyle renju; do
    "$RENVERSI" match --rule "$rule" --games "$games" --concurrency 2 --quiet level:10 level:3 >"$tmp/$rule.out"
    cat "$tmp/$rule.out"
    score=$(sed -n 's/.*(\([0-9.]*\)%).*/\1/p' "$tmp/$rule.out" | head -1)
    awk -v s="$score" 'BEGIN {exit !(s >= 90)}' && ok || bad "$rule: level 10 scored $score% against level 3"
    grep -q ": $games games," "$tmp/$rule.out" && ok || bad "$rule: not $games games"
    grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/$rule.out" && ok || bad "$rule: rule breaks"
done
finish
