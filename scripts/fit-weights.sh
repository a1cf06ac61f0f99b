#!/bin/bash
# Rebuilds src/reversi/eval_weights.bin, the Othello evaluation's weights,
# from nothing but this repository (`make weights`; see docs/engine-othello.md).
# Two rounds, each self-play then a least-squares fit:
#   1. 12 x 5000 games (rv-train selfplay, seeds 1..12) played with the
#      hand-weighted evaluation at depth 4 from random openings, every position
#      from 18 empties on solved exactly; fit -> the round-1 weights, which are
#      built into rv-train;
#   2. 6 x 5000 more games (seeds 101..106) played the same way but with the
#      round-1 evaluation; fit of both rounds' positions -> the weights.
#   then scripts/fit-probcut.sh calibrates the search's ProbCut for it;
#   3. labelled games (rv-train label, seeds 1..LABEL_SEEDS, 200 games each):
#      the round-2 engine (its ProbCut) plays from random openings and every
#      position is labelled with a depth-8 search score, or exactly from 20
#      empties; a fit that starts from the round-2 weights gives the changes,
#      src/reversi/eval_weights_r3.delta, which the build applies.
# Then scripts/fit-probcut.sh recalibrates the search's ProbCut for the final
# evaluation (src/reversi/probcut_table.c).
# Rounds 1-2 and the labels are built without the deltas (cmake
# -DRV_EVAL_BASE_ONLY=ON), the end result with them.
# The result is deterministic: the same commit gives the same files.
# Usage: scripts/fit-weights.sh BUILD_DIR [JOBS]   (data goes to BUILD_DIR/train)
set -euo pipefail
build=${1:?usage: scripts/fit-weights.sh BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
train="$build/rv-train"
[ -x "$train" ] || { echo "fit-weights: $train not built (run make first)" >&2; exit 1; }
data="$build/train"
mkdir -p "$data"
label_seeds=${LABEL_SEEDS:-SEEDS_TODO}
# Rounds 1-2 and the labels: the base weights alone.
cmake -S . -B "$build" -DRV_EVAL_BASE_ONLY=ON >/dev/null
cmake --build "$build" --target rv-train

# selfplay EVAL SEED...: plays 5000 games per seed, $jobs at a time.
selfplay() {
    local eval=$1; shift
    printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh -c '
      f="$1/sp-$3.txt"
      [ -s "$f" ] && exit 0   # already played (delete to replay)
      "$0" selfplay --games 5000 --seed "$3" --depth 4 --solve 18 --eval "$2" --out "$f.tmp" 2>"$1/sp-$3.log" &&
      mv "$f.tmp" "$f" && echo "fit-weights: seed $3 done" >&2' "$train" "$data" "$eval" {}
}

round1=$(seq 1 12)
round2=$(seq 101 106)
echo "fit-weights: round 1, 12 x 5000 games on $jobs cores (about 45 core-minutes)" >&2
selfplay simple $round1
"$train" fit --out "$data/round1.bin" $(for k in $round1; do echo "$data/sp-$k.txt"; done)
cp "$data/round1.bin" src/reversi/eval_weights.bin
cmake --build "$build" --target rv-train
echo "fit-weights: round 2, 6 x 5000 games with the round-1 evaluation (about 30 core-minutes)" >&2
selfplay pattern $round2
"$train" fit --out "$data/eval_weights.bin" $(for k in $round1 $round2; do echo "$data/sp-$k.txt"; done)
cp "$data/eval_weights.bin" src/reversi/eval_weights.bin
echo "fit-weights: wrote src/reversi/eval_weights.bin" >&2
# The ProbCut calibration belongs to the evaluation: the round-2 one plays round 3.
cmake --build "$build" --target rv-train
rm -rf "$build/probcut"
"$(dirname "$0")/fit-probcut.sh" "$build" "$jobs"
cmake --build "$build" --target rv-train
echo "fit-weights: round 3, $label_seeds x 200 labelled games (depth 8, exact from 20 empties)" >&2
seq 1 "$label_seeds" | xargs -P "$jobs" -I{} sh -c '
  f="$1/lb-$2.txt"
  [ -s "$f" ] && exit 0   # already labelled (delete to redo)
  "$0" label --games 200 --seed "$2" --depth 8 --solve 20 --out "$f.tmp" 2>"$1/lb-$2.log" &&
  mv "$f.tmp" "$f" && echo "fit-weights: label seed $2 done" >&2' "$train" "$data" {}
"$train" fit --init src/reversi/eval_weights.bin FIT3_TODO --delta src/reversi/eval_weights_r3.delta \
  --out "$data/eval_weights_r3.bin" $(for k in $(seq 1 "$label_seeds"); do echo "$data/lb-$k.txt"; done)
echo "fit-weights: wrote src/reversi/eval_weights_r3.delta" >&2
# The final evaluation (with the deltas) and its ProbCut calibration.
cmake -S . -B "$build" -DRV_EVAL_BASE_ONLY=OFF >/dev/null
cmake --build "$build" --target rv-train
rm -rf "$build/probcut"
"$(dirname "$0")/fit-probcut.sh" "$build" "$jobs"
echo "fit-weights: done; rebuild with make" >&2
