#!/usr/bin/env bash
# Long (make test-long): the issue-5 acceptance matches.
#  - 100 Renju games of the brain against itself through the Gomocup protocol at 100 ms a
#    move: no illegal move, no time loss, no crash;
#  - the default level against level 3, 100 games each in freestyle and Renju: >= 90%.
. "$(dirname "$0")/lib.sh"

"$RENVERSI" match --rule renju --games 100 --tc 100 --concurrency 2 --quiet \
    "pbrain:'$RENVERSI' gomocup" "pbrain:'$RENVERSI' gomocup" >"$tmp/self.out"
cat "$tmp/self.out"
grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/self.out" && ok || bad "self-match: $(cat "$tmp/self.out")"

for rule in freestyle renju; do
    "$RENVERSI" match --rule "$rule" --games 100 --concurrency 2 --quiet level:10 level:3 >"$tmp/$rule.out"
    cat "$tmp/$rule.out"
    score=$(sed -n 's/.*(\([0-9.]*\)%).*/\1/p' "$tmp/$rule.out" | head -1)
    awk -v s="$score" 'BEGIN {exit !(s >= 90)}' && ok || bad "$rule: level 10 scored $score% against level 3"
    grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/$rule.out" && ok || bad "$rule: rule breaks"
done
finish
