#!/bin/bash
# Rebuilds src/gomoku/eval_weights.c, the Gomoku/Renju evaluation tables, and
# src/gomoku/move_weights.c, the move scores, from nothing but this repository
# (`make weights-gomoku`, part of `make weights`; see docs/engine-gomoku.md):
#   1. self-play, round 1: ROUNDS rounds, each 250 freestyle, 250 Renju (and 150
#      exact-five when that rule is fitted) games (rv-gomoku-train selfplay, seed =
#      round, 10000 nodes a move, with the hand-set evaluation and the hand-set move
#      order, so that no fitted table goes into them), from the 26 classical openings
#      and random 3-6 stone ones; one game per line in DATA/RULE-ROUND.txt;
#   2. for the rules listed in SECOND: a first fit of those games (as in 3), then a
#      second round played with it: 300 games a rule (seed ROUNDS + 1, 20000 nodes a
#      move, wide openings: 3-8 random stones in the central 9x9) in
#      DATA/RULE-(ROUNDS+1).txt;
#   2b. for the rules listed in THIRD (none by default): the tables fitted from rounds 1
#      to ROUNDS + 1 (as in 3) play a third round, 300 games a rule (seed ROUNDS + 2, 30000
#      nodes a move, wide openings) in DATA/RULE-(ROUNDS+2).txt, and their final fit is
#      over all the rounds with the penalty L2_THIRD;
#   3. fit: per rule, logistic regression of the results blended half and half
#      with the self-play search's scores on the evaluation's features, over all
#      its games (rv-gomoku-train fit: BLEND, L2 penalty and Newton steps below). The
#      first fit (round 2's tables) pulls towards the hand-set values with L2; the final
#      one towards the tables kept in PRIOR (scripts/gomoku-prior: the eighth session's
#      fitted tables, each class of the 13 line kinds given the value of its class of the
#      10 base kinds) with L2_FINAL, Renju L2_RENJU2 (lower penalties ranked a four-three
#      above an open four, which tests/test_gomoku_eval.c refuses); a rule listed in HAND
#      keeps the hand-set tables (rv-gomoku-train prior): by default exact five, whose
#      fitted table did not win (BENCHMARKS.md); a rule listed in KEEP (by default
#      freestyle and Renju) plays no games and keeps PRIOR's tables as they are: the
#      refits of the ninth session did not measure better (BENCHMARKS.md; KEEP= runs
#      them);
#   3b. scale: a rule listed in SCALE as RULE:FACTOR:CLASSES[:ROLE[:FROM]] (by default
#      renju:0.5:space freestyle:0.5:space freestyle:0.5:twos renju:0.5:twos
#      freestyle:1:open-twos:both:hand; applied in that order) has its final table's values of
#      those classes multiplied by FACTOR (rv-gomoku-train scale --classes CLASSES --role ROLE,
#      both roles when no ROLE is given), or with FROM replaced by FROM's values times FACTOR
#      (scale --from FROM --keep-terms; hand: the hand-set values): Renju's "space" classes (the points with at most a
#      lone stone on each line) halved scored 53.5% over 1,600 games against the unscaled
#      table, freestyle's 55.1% (BENCHMARKS.md, eleventh session); the twos (the classes
#      whose strongest line is a two) halved after that, freestyle 54.4% over 1,600 games
#      against the table with only the space halved, Renju 59.7% (twelfth session,
#      BENCHMARKS.md); then freestyle's open twos (the classes whose strongest line is an
#      open two: fitted and halved, -21 to +3 a point, below a point of lone stones) take the
#      hand-set values (10-24) back: even in self-play, 50.6% over 800 games, and 75 of 152
#      against Rapfi at the node handicap where the table before scored 68 (fifteenth
#      session, BENCHMARKS.md); SCALE= keeps the tables as fitted;
#   3c. strong shapes: a rule listed in STRONG (none by default) takes the values of its
#      strong classes (a double-three, four-three or open-four point: scale's selection
#      "strong", both colours and roles) and its three threat terms from PRIOR/RULE-strong.fit
#      (rv-gomoku-train scale --factor 1 --classes strong --from), a table fitted with
#      `rv-gomoku-train fit --fit-classes strong` onto the table of 3b (the games and the
#      command are in BENCHMARKS.md, fourteenth session); the rest of 3b's table is kept;
#   3d. deep labels: a rule listed in DEEP (by default renju and freestyle) takes its whole
#      table from PRIOR/RULE-deep.fit instead: the seventeenth (Renju) and eighteenth
#      (freestyle) sessions' fits of deep labels (rv-gomoku-train fit --blend 0, --l2 1000 and
#      100: 2,400 self-play games at 20,000 nodes and the engine's games against Rapfi
#      relabelled at 20,000 nodes, onto the table of 3b with the open twos at the hand-set
#      values, then those open twos at the hand-set values again and the strong shapes put
#      in the order the tests ask; the commands are in BENCHMARKS.md, seventeenth and eighteenth sessions):
#      against Rapfi at the node handicap they scored better than the tables of 3b; since the
#      twentieth session Renju's is that table fitted again with --blend 0.5 (half the game's
#      result) with 2,482 of the engine's Renju games against Rapfi from random openings
#      added (the games: PRIOR/renju-rapfi-games.txt.xz; the commands in
#      docs/engine-gomoku.md), and since the twenty-first session freestyle's is fitted the
#      same way with 3,152 freestyle games (PRIOR/freestyle-rapfi-games.txt.xz) and --role-l2
#      100; DEEP= keeps
#      3c's table;
#   4. emit: the three tables as C into src/gomoku/eval_weights.c;
#   5. move scores: the rules listed in MOVEFIT (none by default) are fitted, a softmax of
#      the move each self-play search played over the candidate points, on the rule's
#      games of rounds 1 to ROUNDS + 1 (rv-gomoku-train movefit, L2 MOVE_L2, MOVE_ITERS
#      Newton steps); the others keep PRIOR's (the eighth session's, mapped the same way);
#      emitted as C into src/gomoku/move_weights.c (rv-gomoku-train emit-moves; exact five
#      takes freestyle's).
# Deterministic: the same commit and arguments give the same file. One core.
# Round 1 takes about 0.2 CPU-seconds a game at 10000 nodes on the project's machine
# (the 2000 games about 15 minutes of wall time at nice 5 on the shared machine, ninth
# session), round 2 about 0.5 CPU-seconds a game, the fits a few seconds each.
# Usage: scripts/fit-gomoku-weights.sh BUILD_DIR [DATA_DIR]
#   (DATA_DIR defaults to BUILD_DIR/gomoku-train; existing game files are kept:
#   delete them to replay)
set -euo pipefail
ROUNDS=${ROUNDS:-4}
L2=${L2:-300}
ITERS=${ITERS:-100}
BLEND=${BLEND:-0.5}
HAND=${HAND:-standard}
SECOND=${SECOND-freestyle renju}
THIRD=${THIRD-}
L2_THIRD=${L2_THIRD:-600}
L2_FINAL=${L2_FINAL:-1000}
L2_RENJU2=${L2_RENJU2:-1500}
PRIOR=${PRIOR-scripts/gomoku-prior}
KEEP=${KEEP-freestyle renju}
SCALE=${SCALE-renju:0.5:space freestyle:0.5:space freestyle:0.5:twos renju:0.5:twos freestyle:1:open-twos:both:hand}
STRONG=${STRONG-}
DEEP=${DEEP-renju freestyle}
MOVEFIT=${MOVEFIT-}
MOVE_L2=${MOVE_L2:-0.5}
MOVE_ITERS=${MOVE_ITERS:-60}
build=${1:?usage: scripts/fit-gomoku-weights.sh BUILD_DIR [DATA_DIR]}
data=${2:-$build/gomoku-train}
build=$(cd "$build" && pwd)
mkdir -p "$data"
data=$(cd "$data" && pwd)
cd "$(dirname "$0")/.."   # the repository root: the table is written there
train="$build/rv-gomoku-train"
[ -x "$train" ] || { echo "fit-gomoku-weights: $train not built (run make first)" >&2; exit 1; }
games() { case $1 in standard) echo 150 ;; *) echo 250 ;; esac; }
second_games() { echo 300; }
is_in() { case " $2 " in *" $1 "*) return 0 ;; esac; return 1; }
# fit RULE L2 PRIOR OUT ROUND...: the rule's tables from the games of the listed rounds,
# the penalty pulling towards PRIOR (hand, or table:FILE)
fit() {
    local rule=$1 l2=$2 prior=$3 out=$4; shift 4
    "$train" fit --rule "$rule" --l2 "$l2" --blend "$BLEND" --iters "$ITERS" --prior "$prior" --out "$out" \
        $(for k in "$@"; do echo "$data/$rule-$k.txt"; done) 2>"$out.log"
    echo "fit-gomoku-weights: $rule: $(tail -1 "$out.log")" >&2
}
for k in $(seq 1 "$ROUNDS"); do
    for rule in freestyle renju standard; do
        is_in "$rule" "$HAND $KEEP" && continue
        f="$data/$rule-$k.txt"
        [ -s "$f" ] && continue
        "$train" selfplay --rule "$rule" --games "$(games $rule)" --seed "$k" --nodes 10000 \
            --eval hand --moves hand --out "$f.tmp" 2>"$data/$rule-$k.log" && mv "$f.tmp" "$f"
        echo "fit-gomoku-weights: $rule round $k played" >&2
    done
done
second=$((ROUNDS + 1))
for rule in freestyle renju standard; do
    is_in "$rule" "$HAND $KEEP" && continue
    is_in "$rule" "$SECOND" || continue
    f="$data/$rule-$second.txt"
    [ -s "$f" ] && continue
    fit "$rule" "$L2" hand "$data/$rule-first.fit" $(seq 1 "$ROUNDS")
    "$train" selfplay --rule "$rule" --games "$(second_games "$rule")" --seed "$second" --nodes 20000 \
        --openings wide --eval "table:$data/$rule-first.fit" --out "$f.tmp" \
        2>"$data/$rule-$second.log" && mv "$f.tmp" "$f"
    echo "fit-gomoku-weights: $rule round $second played" >&2
done
third=$((ROUNDS + 2))
# l2_of RULE: the final fit's penalty; prior_of RULE: what it pulls towards (the tables kept in
# PRIOR when there are some for the rule, else the hand-set values)
l2_of() {
    if [ "$1" = renju ] && is_in renju "$SECOND"; then echo "$L2_RENJU2";
    elif is_in "$1" "$SECOND"; then echo "$L2_FINAL"; else echo "$L2"; fi
}
prior_of() { if [ -n "$PRIOR" ] && [ -s "$PRIOR/$1.fit" ]; then echo "table:$PRIOR/$1.fit"; else echo hand; fi; }
for rule in freestyle renju standard; do
    is_in "$rule" "$HAND $KEEP" && continue
    is_in "$rule" "$SECOND" && is_in "$rule" "$THIRD" || continue
    f="$data/$rule-$third.txt"
    [ -s "$f" ] && continue
    fit "$rule" "$(l2_of "$rule")" "$(prior_of "$rule")" "$data/$rule-second.fit" $(seq 1 "$second")
    "$train" selfplay --rule "$rule" --games 300 --seed "$third" --nodes 30000 \
        --openings wide --eval "table:$data/$rule-second.fit" --out "$f.tmp" \
        2>"$data/$rule-$third.log" && mv "$f.tmp" "$f"
    echo "fit-gomoku-weights: $rule round $third played" >&2
done
for rule in freestyle standard renju; do
    if is_in "$rule" "$HAND"; then
        "$train" prior --rule "$rule" --out "$data/$rule.fit"
    elif is_in "$rule" "$KEEP"; then
        cp "$PRIOR/$rule.fit" "$data/$rule.fit"
        echo "fit-gomoku-weights: $rule: kept ($PRIOR/$rule.fit)" >&2
    elif is_in "$rule" "$SECOND" && is_in "$rule" "$THIRD"; then
        fit "$rule" "$L2_THIRD" "$(prior_of "$rule")" "$data/$rule.fit" $(seq 1 "$third")
    elif is_in "$rule" "$SECOND"; then
        fit "$rule" "$(l2_of "$rule")" "$(prior_of "$rule")" "$data/$rule.fit" $(seq 1 "$second")
    else
        fit "$rule" "$L2" "$(prior_of "$rule")" "$data/$rule.fit" $(seq 1 "$ROUNDS")
    fi
done
for spec in $SCALE; do
    IFS=: read -r rule factor classes role from <<<"$spec"
    mv "$data/$rule.fit" "$data/$rule-unscaled.fit"
    "$train" scale --rule "$rule" --factor "$factor" --classes "$classes" --role "${role:-both}" \
        ${from:+--from "$from" --keep-terms} --out "$data/$rule.fit" "$data/$rule-unscaled.fit"
    echo "fit-gomoku-weights: $rule: the $classes classes times $factor (${role:-both} roles${from:+, from $from})" >&2
done
for rule in $STRONG; do
    mv "$data/$rule.fit" "$data/$rule-before-strong.fit"
    "$train" scale --rule "$rule" --factor 1 --classes strong --from "$PRIOR/$rule-strong.fit" \
        --out "$data/$rule.fit" "$data/$rule-before-strong.fit"
    echo "fit-gomoku-weights: $rule: the strong classes and threat terms of $PRIOR/$rule-strong.fit" >&2
done
for rule in $DEEP; do
    mv "$data/$rule.fit" "$data/$rule-before-deep.fit"
    cp "$PRIOR/$rule-deep.fit" "$data/$rule.fit"
    echo "fit-gomoku-weights: $rule: the deep-label table $PRIOR/$rule-deep.fit" >&2
done
"$train" emit --out src/gomoku/eval_weights.c \
    "$data/freestyle.fit" "$data/standard.fit" "$data/renju.fit"
for rule in freestyle renju; do
    if ! is_in "$rule" "$MOVEFIT"; then
        cp "$PRIOR/$rule.moves" "$data/$rule.moves"
        echo "fit-gomoku-weights: $rule moves: kept ($PRIOR/$rule.moves)" >&2
        continue
    fi
    "$train" movefit --rule "$rule" --l2 "$MOVE_L2" --iters "$MOVE_ITERS" --out "$data/$rule.moves" \
        $(for k in $(seq 1 "$second"); do [ -s "$data/$rule-$k.txt" ] && echo "$data/$rule-$k.txt"; done) \
        2>"$data/$rule.moves.log"
    echo "fit-gomoku-weights: $rule moves: $(tail -1 "$data/$rule.moves.log")" >&2
done
"$train" emit-moves --out src/gomoku/move_weights.c \
    "$data/freestyle.moves" "$data/freestyle.moves" "$data/renju.moves"
echo "fit-gomoku-weights: wrote src/gomoku/eval_weights.c and move_weights.c; rebuild with make" >&2
