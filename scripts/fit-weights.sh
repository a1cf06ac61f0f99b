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
#   3. the games of the WTHOR database (the French Othello federation's record
#      of tournament games since 1977, not in this repository: set WTHOR=DIR,
#      see docs/engine-othello.md), every position labelled by rv-train games
#      (exact from 14 empties, earlier the game's exact value at 14 empties);
#      fit starting from the round-2 weights -> src/reversi/eval_weights_r3.delta,
#      the changes the build applies to them.  Without WTHOR the round is
#      skipped and the committed delta stays (it applies to the same file).
# The rounds play with the fitted weights as they are (cmake
# -DRV_EVAL_SMOOTH_FROM=OFF); the build then smooths them between stages as
# usual (RV_EVAL_SMOOTH_FROM=2, docs/engine-othello.md) and
# scripts/fit-probcut.sh recalibrates the search's ProbCut for that final
# evaluation (src/reversi/probcut_table.c), scripts/fit-eg-probcut.sh the exact
# solver's (src/reversi/endgame_probcut.c).
# The result is deterministic: the same commit gives the same file.
# Usage: scripts/fit-weights.sh BUILD_DIR [JOBS]   (data goes to BUILD_DIR/train)
set -euo pipefail
build=${1:?usage: scripts/fit-weights.sh BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
train="$build/rv-train"
[ -x "$train" ] || { echo "fit-weights: $train not built (run make first)" >&2; exit 1; }
data="$build/train"
mkdir -p "$data"
# Rounds 1-2 build their own weights alone: no smoothing, no later round's delta.
cmake -S . -B "$build" -DRV_EVAL_SMOOTH_FROM=OFF -DRV_EVAL_DELTAS= >/dev/null
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
if [ -n "${WTHOR:-}" ]; then
    echo "fit-weights: round 3, the WTHOR games in $WTHOR (about 20 core-minutes)" >&2
    found=0
    for f in "$WTHOR"/WTH_*.wtb "$WTHOR"/WTH_*.pgn; do
        [ -e "$f" ] || continue
        found=1
        # One file a year: a .pgn copy of a year already read as .wtb is skipped.
        out="$data/wthor-$(basename "${f%.*}").txt"
        if [ ! -s "$out" ]; then
            "$train" games --solve 14 --out "$out.tmp" "$f"
            mv "$out.tmp" "$out"
        fi
    done
    [ "$found" = 1 ] || { echo "fit-weights: no WTH_*.wtb or WTH_*.pgn in $WTHOR" >&2; exit 1; }
    "$train" fit --init src/reversi/eval_weights.bin --l2 16 --epochs 50 --quantum 8 \
        --delta src/reversi/eval_weights_r3.delta --out "$data/round3.bin" \
        $(ls "$data"/wthor-WTH_*.txt | sort)
else
    echo "fit-weights: round 3 skipped (WTHOR=DIR not set; the committed src/reversi/eval_weights_r3.delta stays)" >&2
fi
# The ProbCut calibration belongs to the evaluation: redo it with the new one,
# smoothed as the build smooths it.
cmake -S . -B "$build" -DRV_EVAL_SMOOTH_FROM=2 -DRV_EVAL_DELTAS="$PWD/src/reversi/eval_weights_r3.delta" >/dev/null
cmake --build "$build" --target rv-train
rm -rf "$build/probcut"
"$(dirname "$0")/fit-probcut.sh" "$build" "$jobs"
# So does the exact solver's (its selective passes): src/reversi/endgame_probcut.c.
rm -rf "$build/eg-probcut"
"$(dirname "$0")/fit-eg-probcut.sh" "$build" "$jobs"
echo "fit-weights: done; rebuild with make" >&2
