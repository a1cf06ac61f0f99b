#!/bin/bash
# Recalibrates the exact solver's ProbCut model (src/reversi/endgame_probcut.c,
# used by its selective passes) for the evaluation built into BUILD_DIR (see
# docs/engine-othello.md, "The exact solver").
#   1. rv-train eg-probcut-data: 400 positions of 12..22 empties for each of the
#      seeds 1..3, from games played from random openings, each solved exactly
#      and searched by the midgame search at depths 0..8 (about 3 core-minutes a
#      seed);
#   2. rv-train eg-probcut-fit: per depth, the mean and sd of exact - shallow.
# Deterministic: the seeds and counts are fixed, JOBS only sets how many run at
# once.  Run it after a refit of the evaluation (scripts/fit-weights.sh does),
# then rebuild.
# Usage: scripts/fit-eg-probcut.sh BUILD_DIR [JOBS]   (data in BUILD_DIR/eg-probcut)
set -euo pipefail
build=${1:?usage: scripts/fit-eg-probcut.sh BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
seeds="1 2 3"
per=400
train="$build/rv-train"
[ -x "$train" ] || { echo "fit-eg-probcut: $train not built (run make first)" >&2; exit 1; }
data="$build/eg-probcut"
mkdir -p "$data"
echo "fit-eg-probcut: seeds $seeds, $per positions of 12..22 empties each, $jobs at a time" >&2
printf '%s\n' $seeds | xargs -P "$jobs" -I{} sh -c '
  f="$1/eg-$2-$3.txt"
  [ -s "$f" ] && exit 0   # already solved (delete to redo)
  "$0" eg-probcut-data --positions "$3" --seed "$2" --min 12 --max 22 --out "$f.tmp" 2>"$1/eg-$2.log" &&
  mv "$f.tmp" "$f"' "$train" "$data" {} "$per"
"$train" eg-probcut-fit --out src/reversi/endgame_probcut.c $(for k in $seeds; do echo "$data/eg-$k-$per.txt"; done)
echo "fit-eg-probcut: wrote src/reversi/endgame_probcut.c; rebuild with make" >&2
