#!/bin/bash
# Rebuilds src/reversi/eval_weights.bin, the Othello evaluation's weights,
# from nothing but this repository (`make weights`; see docs/engine-othello.md):
#   1. 12 x 5000 self-play games (rv-train selfplay, seeds 1..12) played with
#      the hand-weighted evaluation at depth 4 from random openings, every
#      position from 18 empties on solved exactly;
#   2. a least-squares fit of the pattern weights to those positions.
# The result is deterministic: the same commit gives the same file.
# Usage: scripts/fit-weights.sh BUILD_DIR [JOBS]   (data goes to BUILD_DIR/train)
set -euo pipefail
build=${1:?usage: scripts/fit-weights.sh BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
train="$build/rv-train"
[ -x "$train" ] || { echo "fit-weights: $train not built (run make first)" >&2; exit 1; }
data="$build/train"
mkdir -p "$data"
echo "fit-weights: self-play, 12 x 5000 games on $jobs cores (about 45 core-minutes)" >&2
seq 1 12 | xargs -P "$jobs" -I{} sh -c '
  f="$1/sp-$2.txt"
  [ -s "$f" ] && exit 0   # already played (delete to replay)
  "$0" selfplay --games 5000 --seed "$2" --depth 4 --solve 18 --eval simple --out "$f.tmp" 2>"$1/sp-$2.log" &&
  mv "$f.tmp" "$f" && echo "fit-weights: seed $2 done" >&2' "$train" "$data" {}
"$train" fit --out "$data/eval_weights.bin" "$data"/sp-{1..12}.txt
cp "$data/eval_weights.bin" src/reversi/eval_weights.bin
echo "fit-weights: wrote src/reversi/eval_weights.bin; rebuild with make" >&2
