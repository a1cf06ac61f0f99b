#!/bin/bash
# Rebuilds src/gomoku/eval_weights.c, the Gomoku/Renju evaluation tables, from
# nothing but this repository (`make weights`; see docs/engine-gomoku.md):
#   1. self-play: 10 rounds, each 250 freestyle, 250 Renju and 150 exact-five
#      games (rv-gomoku-train selfplay, seed = round, 10000 nodes a move, with the
#      evaluation built in), from the 26 classical openings and random 3-6 stone
#      ones; one game per line in DATA/RULE-ROUND.txt;
#   2. fit: per rule, logistic regression of the results on the evaluation's
#      features (rv-gomoku-train fit, L2 20, 60 Newton steps);
#   3. emit: the three tables as C into src/gomoku/eval_weights.c.
# Deterministic: the same commit and arguments give the same file. One core;
# about 40 CPU-minutes of self-play and 2 of fitting on the project's machine.
# Usage: scripts/fit-gomoku-weights.sh BUILD_DIR [DATA_DIR] [ROUNDS]
#   (DATA_DIR defaults to BUILD_DIR/gomoku-train; existing game files are kept:
#   delete them to replay)
set -euo pipefail
build=${1:?usage: scripts/fit-gomoku-weights.sh BUILD_DIR [DATA_DIR] [ROUNDS]}
data=${2:-$build/gomoku-train}
rounds=${3:-10}
build=$(cd "$build" && pwd)
mkdir -p "$data"
data=$(cd "$data" && pwd)
cd "$(dirname "$0")/.."   # the repository root: the table is written there
train="$build/rv-gomoku-train"
[ -x "$train" ] || { echo "fit-gomoku-weights: $train not built (run make first)" >&2; exit 1; }
games() { case $1 in standard) echo 150 ;; *) echo 250 ;; esac; }
for k in $(seq 1 "$rounds"); do
    for rule in freestyle renju standard; do
        f="$data/$rule-$k.txt"
        [ -s "$f" ] && continue
        "$train" selfplay --rule "$rule" --games "$(games $rule)" --seed "$k" --nodes 10000 \
            --out "$f.tmp" 2>"$data/$rule-$k.log" && mv "$f.tmp" "$f"
        echo "fit-gomoku-weights: $rule round $k played" >&2
    done
done
for rule in freestyle standard renju; do
    "$train" fit --rule "$rule" --l2 20 --iters 60 --out "$data/$rule.fit" \
        $(for k in $(seq 1 "$rounds"); do echo "$data/$rule-$k.txt"; done) 2>"$data/$rule.fit.log"
    tail -1 "$data/$rule.fit.log" >&2
done
"$train" emit --out src/gomoku/eval_weights.c \
    "$data/freestyle.fit" "$data/standard.fit" "$data/renju.fit"
echo "fit-gomoku-weights: wrote src/gomoku/eval_weights.c; rebuild with make" >&2
