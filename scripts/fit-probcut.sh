#!/bin/bash
# Recalibrates the midgame search's Multi-ProbCut (src/reversi/probcut_table.c)
# for the evaluation built into BUILD_DIR (see docs/engine-othello.md).
#   1. rv-train probcut-data: JOBS x POSITIONS positions (seeds 1..JOBS) from games
#      played from random openings, each searched with full windows and no
#      pruning to every depth 0..11;
#   2. rv-train probcut-fit: per stage (empties / 4) and depth d, the regression
#      of the depth-d score on the shallow score (probcut.h, rv_pc_shallow).
# Deterministic for given arguments.  Run it after a refit of the evaluation
# (scripts/fit-weights.sh does), then rebuild.
# Usage: scripts/fit-probcut.sh BUILD_DIR [JOBS] [POSITIONS]   (data in BUILD_DIR/probcut)
set -euo pipefail
build=${1:?usage: scripts/fit-probcut.sh BUILD_DIR [JOBS] [POSITIONS]}
jobs=${2:-$(nproc)}
per=${3:-$(( (1200 + jobs - 1) / jobs ))}
train="$build/rv-train"
[ -x "$train" ] || { echo "fit-probcut: $train not built (run make first)" >&2; exit 1; }
data="$build/probcut"
mkdir -p "$data"
echo "fit-probcut: $jobs x $per positions, depths 0..11 (about 0.5 core-seconds each)" >&2
seq 1 "$jobs" | xargs -P "$jobs" -I{} sh -c '
  f="$1/pc-$2-$3.txt"
  [ -s "$f" ] && exit 0   # already searched (delete to redo)
  "$0" probcut-data --positions "$3" --seed "$2" --out "$f.tmp" 2>"$1/pc-$2.log" && mv "$f.tmp" "$f"' \
  "$train" "$data" {} "$per"
"$train" probcut-fit --out src/reversi/probcut_table.c $(for k in $(seq 1 "$jobs"); do echo "$data/pc-$k-$per.txt"; done)
echo "fit-probcut: wrote src/reversi/probcut_table.c; rebuild with make" >&2
