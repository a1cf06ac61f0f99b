#!/bin/bash
# Rebuilds src/gomoku/eval_weights.c, the Gomoku/Renju evaluation tables, from
# nothing but this repository (`make weights-gomoku`, part of `make weights`;
# see docs/engine-gomoku.md):
#   1. self-play: ROUNDS rounds, each 250 freestyle, 250 Renju (and 150 exact-five
#      when that rule is fitted) games (rv-gomoku-train selfplay, seed = round,
#      10000 nodes a move, with the hand-set evaluation), from the 26 classical
#      openings and random 3-6 stone ones; one game per line in DATA/RULE-ROUND.txt;
#   2. fit: per rule, logistic regression of the results blended half and half
#      with the self-play search's scores on the evaluation's features
#      (rv-gomoku-train fit: BLEND, L2 penalty and Newton steps below); a rule
#      listed in HAND keeps the hand-set tables (rv-gomoku-train prior): by
#      default exact five, whose fitted table did not win (BENCHMARKS.md);
#   3. emit: the three tables as C into src/gomoku/eval_weights.c.
# Deterministic: the same commit and arguments give the same file. One core.
# Self-play takes about 0.4 CPU-seconds a game on the project's machine (a round
# about 4 CPU-minutes; the 2 rounds took 45 minutes of wall time at nice 10 on the
# shared, loaded machine), the fits a few seconds each.
# Usage: scripts/fit-gomoku-weights.sh BUILD_DIR [DATA_DIR]
#   (DATA_DIR defaults to BUILD_DIR/gomoku-train; existing game files are kept:
#   delete them to replay)
set -euo pipefail
ROUNDS=${ROUNDS:-2}
L2=${L2:-300}
ITERS=${ITERS:-100}
BLEND=${BLEND:-0.5}
HAND=${HAND:-standard}
build=${1:?usage: scripts/fit-gomoku-weights.sh BUILD_DIR [DATA_DIR]}
data=${2:-$build/gomoku-train}
build=$(cd "$build" && pwd)
mkdir -p "$data"
data=$(cd "$data" && pwd)
cd "$(dirname "$0")/.."   # the repository root: the table is written there
train="$build/rv-gomoku-train"
[ -x "$train" ] || { echo "fit-gomoku-weights: $train not built (run make first)" >&2; exit 1; }
games() { case $1 in standard) echo 150 ;; *) echo 250 ;; esac; }
for k in $(seq 1 "$ROUNDS"); do
    for rule in freestyle renju standard; do
        case " $HAND " in *" $rule "*) continue ;; esac
        f="$data/$rule-$k.txt"
        [ -s "$f" ] && continue
        "$train" selfplay --rule "$rule" --games "$(games $rule)" --seed "$k" --nodes 10000 \
            --eval hand --out "$f.tmp" 2>"$data/$rule-$k.log" && mv "$f.tmp" "$f"
        echo "fit-gomoku-weights: $rule round $k played" >&2
    done
done
for rule in freestyle standard renju; do
    case " $HAND " in
    *" $rule "*) "$train" prior --rule "$rule" --out "$data/$rule.fit" ;;
    *) "$train" fit --rule "$rule" --l2 "$L2" --blend "$BLEND" --iters "$ITERS" --out "$data/$rule.fit" \
           $(for k in $(seq 1 "$ROUNDS"); do echo "$data/$rule-$k.txt"; done) 2>"$data/$rule.fit.log"
       echo "fit-gomoku-weights: $rule: $(tail -1 "$data/$rule.fit.log")" >&2 ;;
    esac
done
"$train" emit --out src/gomoku/eval_weights.c \
    "$data/freestyle.fit" "$data/standard.fit" "$data/renju.fit"
echo "fit-gomoku-weights: wrote src/gomoku/eval_weights.c; rebuild with make" >&2
