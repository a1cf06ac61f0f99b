#!/bin/bash
# Recalibrates the midgame search's Multi-ProbCut (src/reversi/probcut_table.c)
# for the evaluation built into BUILD_DIR (see docs/engine-othello.md).
#   1. rv-train probcut-data: 300 positions for each of the seeds 1 and 2, from
#      games played from random openings, each searched with full windows and
#      no pruning to every depth 0..11 (about 0.5-1 core-second a position);
#   2. rv-train probcut-fit: per stage (empties / 4) and depth d, the regression
#      of the depth-d score on the shallow score (probcut.h, rv_pc_shallow).
# Deterministic: the seeds and counts are fixed, JOBS only sets how many run at
# once.  Run it after a refit of the evaluation (scripts/fit-weights.sh does),
# then rebuild.
# Usage: scripts/fit-probcut.sh BUILD_DIR [JOBS]   (data in BUILD_DIR/probcut)
set -euo pipefail
build=${1:?usage: scripts/fit-probcut.sh BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
seeds="1 2"
per=300
train="$build/rv-train"
[ -x "$train" ] || { echo "fit-probcut: $train not built (run make first)" >&2; exit 1; }
data="$build/probcut"
mkdir -p "$data"
echo "fit-probcut: seeds $seeds, $per positions each, depths 0..11, $jobs at a time" >&2
printf '%s\n' $seeds | xargs -P "$jobs" -I{} sh -c '
  f="$1/pc-$2-$3.txt"
  [ -s "$f" ] && exit 0   # already searched (delete to redo)
  "$0" probcut-data --positions "$3" --seed "$2" --out "$f.tmp" 2>"$1/pc-$2.log" && mv "$f.tmp" "$f"' \
  "$train" "$data" {} "$per"
"$train" probcut-fit --out src/reversi/probcut_table.c $(for k in $seeds; do echo "$data/pc-$k-$per.txt"; done)
echo "fit-probcut: wrote src/reversi/probcut_table.c; rebuild with make" >&2
