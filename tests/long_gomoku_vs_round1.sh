#!/usr/bin/env bash
# Long (make test-long), issue 13: the default level against round 1's default level.
#
# Round 1's engine is pinned as main at 339b64a (2026-11-21), the build every "before"
# figure of issue 13 in BENCHMARKS.md was measured with. The test builds that commit from
# the repository's own history (git archive, Release, no server; about a minute), or
# takes a ready binary from RV_ROUND1_RENVERSI (RV_ROUND1_GAMES: games a rule). Both play as Gomocup brains at the
# default level (10: 300 ms a move) through `renversi match`, 100 games a rule
# (the 26 classical openings, colours alternating), freestyle and Renju.
#
# Checks: no illegal move, time loss or crash; the current default scores more than 55%.
# The issue's target is 90%; the score is printed so the distance to it is visible
# (BENCHMARKS.md records the runs).
. "$(dirname "$0")/lib.sh"

ROUND1=339b64a
games=${RV_ROUND1_GAMES:-100} # fewer for a quick check of the test itself
old=${RV_ROUND1_RENVERSI:-}
if [ -z "$old" ]; then
    src=${RV_SOURCE_DIR:?RV_SOURCE_DIR must name the source tree}
    if ! git -C "$src" cat-file -e "$ROUND1^{commit}" 2>/dev/null; then
        bad "round 1's commit $ROUND1 is not in $src's git history (a shallow clone?): fetch it, or set RV_ROUND1_RENVERSI to a build of it"
        finish
    fi
    mkdir -p "$tmp/r1"
    git -C "$src" archive "$ROUND1" | tar -x -C "$tmp/r1" || { bad "git archive $ROUND1 failed"; finish; }
    if ! { cmake -S "$tmp/r1" -B "$tmp/r1/build" -DCMAKE_BUILD_TYPE=Release -DRV_SERVER=OFF &&
        cmake --build "$tmp/r1/build" --target renversi -j 2; } >"$tmp/r1.log" 2>&1; then
        tail -20 "$tmp/r1.log" >&2
        bad "building round 1 ($ROUND1) failed"
        finish
    fi
    old=$tmp/r1/build/renversi
fi

for rule in freestyle renju; do
    "$RENVERSI" match --rule "$rule" --games "$games" --concurrency 2 --quiet \
        "pbrain:'$RENVERSI' gomocup --level 10" "pbrain:'$old' gomocup --level 10" >"$tmp/$rule.out"
    echo "$rule, default level against round 1's ($ROUND1), issue target 90%:"
    cat "$tmp/$rule.out"
    score=$(sed -n 's/.*(\([0-9.]*\)%).*/\1/p' "$tmp/$rule.out" | head -1)
    awk -v s="$score" 'BEGIN {exit !(s > 55)}' && ok || bad "$rule: the default level scored $score% against round 1's"
    grep -q '^illegal moves: 0, time losses: 0, crashes: 0$' "$tmp/$rule.out" && ok || bad "$rule: rule breaks"
done
finish
