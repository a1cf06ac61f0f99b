# rv-train, the tool behind the Othello evaluation weights: self-play output
# format and determinism, exact labels checked against `renversi solve`, a fit
# the build-time generator accepts, and clear errors on bad input.
. "$(dirname "$0")/lib.sh"
train="$RV_BUILD_DIR/rv-train"
gen="$RV_BUILD_DIR/rv_gen_eval_tables"

expect_exit 0 "$train" --help
expect_exit 2 "$train"
expect_exit 2 "$train" frobnicate
expect_exit 2 "$train" selfplay --games 2
expect_exit 2 "$train" selfplay --games 0 --seed 1
expect_exit 2 "$train" selfplay --games 2 --seed 1 --eval magic

# Two runs with the same seed write the same positions.
"$train" selfplay --games 4 --seed 7 --depth 2 --solve 10 --eval simple --out "$tmp/a.txt" 2>/dev/null
"$train" selfplay --games 4 --seed 7 --depth 2 --solve 10 --eval simple --out "$tmp/b.txt" 2>/dev/null
if [ -s "$tmp/a.txt" ] && cmp -s "$tmp/a.txt" "$tmp/b.txt"; then ok; else bad "selfplay is not deterministic"; fi
"$train" selfplay --games 4 --seed 8 --depth 2 --solve 10 --eval simple --out "$tmp/c.txt" 2>/dev/null
if ! cmp -s "$tmp/a.txt" "$tmp/c.txt"; then ok; else bad "another seed gave the same games"; fi
if grep -Evq '^[0-9a-f]{16} [0-9a-f]{16} -?[0-9]+$' "$tmp/a.txt"; then bad "bad line: $(grep -Ev '^[0-9a-f]{16} [0-9a-f]{16} -?[0-9]+$' "$tmp/a.txt" | head -1)"; else ok; fi

# Every position with at most 10 empties is labelled with its exact score:
# the same as `renversi solve` (side to move written as X).
to_obf() { # PLAYER_HEX OPPONENT_HEX -> OBF line, X to move
    local p=$((16#$1)) o=$((16#$2)) s="" i
    for i in $(seq 0 63); do
        if (( (p >> i) & 1 )); then s+="X"; elif (( (o >> i) & 1 )); then s+="O"; else s+="-"; fi
    done
    printf '%s X;\n' "$s"
}
# check_labels FILE MOST WHAT [SUFFIX]: the labels of the first MOST positions of FILE with at
# most 10 empties are `renversi solve`'s scores written with SUFFIX (".00" for label's
# two decimals); sets checked to how many were compared.
check_labels() {
    local file=$1 most=$2 what=$3 suffix=${4:-} p o score obf empties got
    checked=0
    while read -r p o score; do
        obf=$(to_obf "$p" "$o")
        empties=$(printf '%s' "${obf%% *}" | tr -cd '-' | wc -c)
        [ "$empties" -le 10 ] || continue
        got=$(printf '%s\n' "$obf" | "$RENVERSI" solve - 2>/dev/null | head -1 | awk '{print $3}')
        if [ "$((got))$suffix" = "$score" ]; then ok; else bad "$what: label $score, solve says $got: $obf"; fi
        checked=$((checked + 1))
        [ "$checked" -ge "$most" ] && break
    done <"$file"
}
check_labels "$tmp/a.txt" 12 selfplay
if [ "$checked" -ge 12 ]; then ok; else bad "only $checked exact positions checked"; fi

# A fit of those positions is accepted by the build-time generator.
cat "$tmp/a.txt" "$tmp/c.txt" >"$tmp/all.txt"
expect_exit 0 "$train" fit --epochs 3 --out "$tmp/w.bin" "$tmp/all.txt"
expect_exit 0 "$gen" "$tmp/w.bin" "$tmp/w.c"
if grep -q 'rv_pat_weight_bytes' "$tmp/w.c"; then ok; else bad "no weights in generated C"; fi
# A damaged weights file is refused (one byte changed: checksum).
cp "$tmp/w.bin" "$tmp/bad.bin"
printf '\x01' | dd of="$tmp/bad.bin" bs=1 seek=1000 conv=notrunc 2>/dev/null
expect_exit 1 "$gen" "$tmp/bad.bin" "$tmp/bad.c"
head -c 100 "$tmp/w.bin" >"$tmp/short.bin"
expect_exit 1 "$gen" "$tmp/short.bin" "$tmp/short.c"

# label: deterministic, one 'PLAYER OPPONENT SCORE' line per position with the
# score in discs (two decimals), exact (as `renversi solve`) from --solve empties.
expect_exit 2 "$train" label --games 2
expect_exit 2 "$train" label --games 2 --seed 1 --random 1
"$train" label --games 3 --seed 5 --depth 2 --solve 10 --out "$tmp/l1.txt" 2>/dev/null
"$train" label --games 3 --seed 5 --depth 2 --solve 10 --out "$tmp/l2.txt" 2>/dev/null
if [ -s "$tmp/l1.txt" ] && cmp -s "$tmp/l1.txt" "$tmp/l2.txt"; then ok; else bad "label is not deterministic"; fi
lre='^[0-9a-f]{16} [0-9a-f]{16} -?[0-9]+\.[0-9]{2}$'
if grep -Evq "$lre" "$tmp/l1.txt"; then bad "bad label line: $(grep -Ev "$lre" "$tmp/l1.txt" | head -1)"; else ok; fi
check_labels "$tmp/l1.txt" 6 label .00
if [ "$checked" -ge 6 ]; then ok; else bad "only $checked exact label positions checked"; fi
# The same games with other weights loaded (--weights) are other games.
"$train" label --games 3 --seed 5 --depth 2 --solve 10 --weights "$tmp/w.bin" --out "$tmp/l3.txt" 2>/dev/null
if [ -s "$tmp/l3.txt" ] && ! cmp -s "$tmp/l1.txt" "$tmp/l3.txt"; then ok; else bad "--weights changed nothing"; fi
expect_exit 1 "$train" label --games 1 --seed 1 --weights "$tmp/short.bin" --out "$tmp/l4.txt"

# A refit from given weights (--init) written as a delta: the generator
# applied to the base and the delta gives the same tables as the whole refit;
# on another base, or cut short, the delta is refused.
expect_exit 2 "$train" fit --epochs 1 --delta "$tmp/d.delta" "$tmp/l1.txt"
expect_exit 0 "$train" fit --epochs 3 --init "$tmp/w.bin" --quantum 4 --delta "$tmp/d.delta" \
    --out "$tmp/w2.bin" "$tmp/l1.txt"
expect_exit 0 "$gen" "$tmp/w.bin" "$tmp/d.delta" "$tmp/wd.c"
expect_exit 0 "$gen" "$tmp/w2.bin" "$tmp/w2.c"
if cmp -s "$tmp/wd.c" "$tmp/w2.c"; then ok; else bad "base + delta differs from the refit"; fi
if ! cmp -s "$tmp/w.c" "$tmp/w2.c"; then ok; else bad "the refit changed nothing"; fi
expect_exit 1 "$gen" "$tmp/w2.bin" "$tmp/d.delta" "$tmp/x.c"
head -c 40 "$tmp/d.delta" >"$tmp/cut.delta"
expect_exit 1 "$gen" "$tmp/w.bin" "$tmp/cut.delta" "$tmp/x.c"
expect_exit 1 "$train" fit --epochs 1 --init "$tmp/short.bin" --out "$tmp/x.bin" "$tmp/l1.txt"
# --first-stage/--last-stage: only stage 3 is refitted; every other byte but
# the header's checksum stays that of --init (a stage is 167338 int16 weights).
expect_exit 0 "$train" fit --epochs 3 --init "$tmp/w.bin" --first-stage 3 --last-stage 3 \
    --out "$tmp/w3.bin" "$tmp/l1.txt"
outside=$(cmp -l "$tmp/w.bin" "$tmp/w3.bin" | awk -v lo=$((20 + 3 * 334676)) -v hi=$((20 + 4 * 334676)) \
    '$1 > 20 && ($1 <= lo || $1 > hi) { n++ } $1 > lo && $1 <= hi { in_ = 1 } END { print n + 0, in_ + 0 }')
if [ "$outside" = "0 1" ]; then ok; else bad "--first-stage 3 --last-stage 3: changes outside/inside stage 3: $outside"; fi
expect_exit 2 "$train" fit --epochs 1 --init "$tmp/w.bin" --first-stage 4 --last-stage 3 --out "$tmp/x.bin" "$tmp/l1.txt"
expect_exit 2 "$train" fit --epochs 1 --first-stage 1 --out "$tmp/x.bin" "$tmp/l1.txt"
expect_exit 2 "$train" fit --epochs 1 --init "$tmp/w.bin" --last-stage 15 --out "$tmp/x.bin" "$tmp/l1.txt"
# Smoothing between stages (as the build does) changes the tables; a bad stage is refused.
expect_exit 0 "$gen" --smooth 2 "$tmp/w.bin" "$tmp/ws.c"
if ! cmp -s "$tmp/w.c" "$tmp/ws.c"; then ok; else bad "--smooth changed nothing"; fi
expect_exit 2 "$gen" --smooth 15 "$tmp/w.bin" "$tmp/x.c"
expect_exit 2 "$gen" --smooth x "$tmp/w.bin" "$tmp/x.c"

# games: recorded games (WTHOR as PGN or .wtb) replayed and labelled; a real
# 60-move game (Antwerpen Open 2010, 39-25) gives one line per move, starting
# with the initial position, exact (as `renversi solve`) from --solve empties;
# a game with an illegal move is skipped and counted; the same game as a
# .wtb record gives the same lines.
game="F5 D6 C3 D3 C4 F4 E3 F3 E6 F6 G4 G3 G5 H5 H4 H3 G6 H6 C7 C5 C6 B4 B5 F2 A3 D7 D8 A5 B6 A4
A6 E7 B3 D2 E1 C1 G2 C2 D1 E2 B1 B8 C8 E8 F1 H1 B2 A1 G1 A2 F8 G8 F7 A7 H2 B7 G7 H8 H7 A8"
{
    printf '[Event "x"]\n[Result "39-25"]\n'
    n=0
    for m in $game; do n=$((n + 1)); [ $((n % 2)) = 1 ] && printf '%d. %s' $(((n + 1) / 2)) "$m" || printf ' %s\n' "$m"; done
    printf '[Event "illegal"]\n1. F5 F5\n'
} >"$tmp/g.pgn"
expect_exit 0 "$train" games --solve 10 --out "$tmp/g.txt" "$tmp/g.pgn"
if grep -q '2 games so far, 60 positions, 1 with an illegal move' "$tmp/err"; then ok; else bad "games: $(cat "$tmp/err")"; fi
if [ "$(wc -l <"$tmp/g.txt")" = 60 ]; then ok; else bad "games: $(wc -l <"$tmp/g.txt") lines, want 60"; fi
if [ "$(head -1 "$tmp/g.txt" | cut -d' ' -f1-2)" = "0000000810000000 0000001008000000" ]; then ok; else bad "games: first line $(head -1 "$tmp/g.txt")"; fi
if grep -Evq '^[0-9a-f]{16} [0-9a-f]{16} -?[0-9]+$' "$tmp/g.txt"; then bad "games: bad line"; else ok; fi
check_labels "$tmp/g.txt" 1000 games
if [ "$checked" = 10 ]; then ok; else bad "games: $checked positions with <= 10 empties, want 10"; fi
# The positions before 10 empties carry the value of the one at 10 (sign by side to move).
if [ "$(awk 'NR <= 50 { print ($3 < 0 ? -$3 : $3) }' "$tmp/g.txt" | sort -u | wc -l)" = 1 ]; then ok; else bad "games: early labels differ"; fi
{
    printf '\024\012\001\001\001\000\000\000\000\000\332\007\010\000\026\000' # header: 1 game of 2010, 8x8
    printf '\000\000\000\000\000\000\047\047'                                 # tournament, players, scores
    for m in $game; do
        c=$(printf '%d' "'$m"); v=$(( (${m#?}) * 10 + c - 64 ))
        printf "\\$(printf '%03o' "$v")"
    done
} >"$tmp/g.wtb"
expect_exit 0 "$train" games --solve 10 --out "$tmp/gw.txt" "$tmp/g.wtb"
if cmp -s "$tmp/g.txt" "$tmp/gw.txt"; then ok; else bad "games: .wtb and PGN differ"; fi
printf '\024\012\001\001\001\000\000\000\000\000\332\007\012\000\026\000' >"$tmp/big.wtb"
expect_exit 1 "$train" games --out "$tmp/x.txt" "$tmp/big.wtb"
expect_exit 2 "$train" games --out "$tmp/x.txt"
expect_exit 1 "$train" games --out "$tmp/x.txt" "$tmp/missing.pgn"

# relabel: the game's positions labelled again, deterministically; exact (as
# `renversi solve`) from --solve empties; --blend 0 keeps the old labels of the
# positions it does not solve, --blend 50 is halfway between them and the
# search's (--blend 100); --every K keeps a subset, labelled the same.
expect_exit 0 "$train" relabel --depth 2 --solve 12 --out "$tmp/r1.txt" "$tmp/g.txt"
expect_exit 0 "$train" relabel --depth 2 --solve 12 --out "$tmp/r2.txt" "$tmp/g.txt"
if [ -s "$tmp/r1.txt" ] && cmp -s "$tmp/r1.txt" "$tmp/r2.txt"; then ok; else bad "relabel is not deterministic"; fi
if [ "$(wc -l <"$tmp/r1.txt")" = 60 ]; then ok; else bad "relabel: $(wc -l <"$tmp/r1.txt") lines, want 60"; fi
if grep -Evq "$lre" "$tmp/r1.txt"; then bad "relabel: bad line $(grep -Ev "$lre" "$tmp/r1.txt" | head -1)"; else ok; fi
if [ "$(cut -d' ' -f1-2 "$tmp/r1.txt")" = "$(cut -d' ' -f1-2 "$tmp/g.txt")" ]; then ok; else bad "relabel: other positions"; fi
check_labels "$tmp/r1.txt" 1000 relabel .00
if [ "$checked" = 10 ]; then ok; else bad "relabel: $checked positions with <= 10 empties, want 10"; fi
expect_exit 0 "$train" relabel --depth 2 --solve 12 --blend 0 --out "$tmp/r0.txt" "$tmp/g.txt"
expect_exit 0 "$train" relabel --depth 2 --solve 12 --blend 50 --out "$tmp/r50.txt" "$tmp/g.txt"
# Lines 1-48 have 13 or more empties: searched, not solved.
if [ "$(head -48 "$tmp/r0.txt" | awk '{ printf "%.2f\n", $3 }')" = "$(head -48 "$tmp/g.txt" | awk '{ printf "%.2f\n", $3 }')" ]; then ok; else bad "relabel --blend 0 changed a label"; fi
if ! cmp -s "$tmp/r0.txt" "$tmp/r1.txt"; then ok; else bad "relabel: the search changed no label"; fi
mid=$(paste -d' ' "$tmp/r0.txt" "$tmp/r1.txt" "$tmp/r50.txt" | head -48 |
    awk '{ d = ($3 + $6) / 2 - $9; if (d < -0.011 || d > 0.011) n++ } END { print n + 0 }')
if [ "$mid" = 0 ]; then ok; else bad "relabel --blend 50: $mid labels not halfway"; fi
expect_exit 0 "$train" relabel --depth 2 --solve 12 --every 3 --out "$tmp/r3.txt" "$tmp/g.txt"
n3=$(wc -l <"$tmp/r3.txt")
if [ "$n3" -gt 0 ] && [ "$n3" -lt 60 ]; then ok; else bad "relabel --every 3 kept $n3 of 60"; fi
if [ "$(grep -cFxf "$tmp/r1.txt" "$tmp/r3.txt")" = "$n3" ]; then ok; else bad "relabel --every 3: labels differ from --every 1"; fi
expect_exit 2 "$train" relabel --depth 2
expect_exit 2 "$train" relabel --blend 101 "$tmp/g.txt"
expect_exit 1 "$train" relabel --out "$tmp/x.txt" "$tmp/missing.txt"

# Bad data: the file and line are named.
printf '0000000810000000 0000001008000000 0\nnot a position\n' >"$tmp/bad.txt"
expect_exit 1 "$train" fit --epochs 1 --out "$tmp/x.bin" "$tmp/bad.txt"
if grep -q 'bad.txt:2' "$tmp/err"; then ok; else bad "error does not name bad.txt:2: $(cat "$tmp/err")"; fi
expect_exit 1 "$train" relabel --out "$tmp/x.txt" "$tmp/bad.txt"
if grep -q 'bad.txt:2' "$tmp/err"; then ok; else bad "relabel: error does not name bad.txt:2: $(cat "$tmp/err")"; fi
expect_exit 1 "$train" fit --out "$tmp/x.bin" "$tmp/missing.txt"
expect_exit 2 "$train" fit --epochs 0 "$tmp/all.txt"
# eg-probcut-data: deterministic 'PLAYER OPPONENT EMPTIES EXACT S0 .. S8' lines, EMPTIES
# the position's empty squares in --min..--max, EXACT what `renversi solve` says.
expect_exit 2 "$train" eg-probcut-data --positions 2
expect_exit 2 "$train" eg-probcut-data --positions 2 --seed 1 --min 14 --max 12
expect_exit 2 "$train" eg-probcut-data --positions 2 --seed 1 --min 5
"$train" eg-probcut-data --positions 6 --seed 3 --min 10 --max 12 --out "$tmp/e1.txt" 2>/dev/null
"$train" eg-probcut-data --positions 6 --seed 3 --min 10 --max 12 --out "$tmp/e2.txt" 2>/dev/null
if [ "$(wc -l <"$tmp/e1.txt")" = 6 ] && cmp -s "$tmp/e1.txt" "$tmp/e2.txt"; then ok; else bad "eg-probcut-data: not 6 lines or not deterministic"; fi
ere='^[0-9a-f]{16} [0-9a-f]{16} 1[0-2] -?[0-9]+( -?[0-9]+){9}$'
if grep -Evq "$ere" "$tmp/e1.txt"; then bad "eg-probcut-data: bad line $(grep -Ev "$ere" "$tmp/e1.txt" | head -1)"; else ok; fi
while read -r p o e exact rest; do
    obf=$(to_obf "$p" "$o")
    empties=$(printf '%s' "${obf%% *}" | tr -cd '-' | wc -c)
    got=$(printf '%s\n' "$obf" | "$RENVERSI" solve - 2>/dev/null | head -1 | awk '{print $3}')
    if [ "$empties" = "$e" ] && [ "$((got))" = "$exact" ]; then ok; else bad "eg-probcut-data: $e empties, exact $exact; solve says $got with $empties: $obf"; fi
done <"$tmp/e1.txt"
# eg-probcut-fit: per depth, bias = mean and sigma = sd of 100 * EXACT - Sd. Depth d of the
# two positions below: residuals 100 and 300 (mean 200, sd 100) at depth 0, 0 and 0 at
# depth 1, -50 and 50 at depths 2..8 (mean 0, sd 50).
printf '%s\n' '# two hand-made positions, 48 empties' \
    '000000ff00000000 00000000ff000000 48 10 900 1000 1050 1050 1050 1050 1050 1050 1050' \
    '000000ff00000000 00000000ff000000 48 -2 -500 -200 -250 -250 -250 -250 -250 -250 -250' >"$tmp/ef.txt"
expect_exit 0 "$train" eg-probcut-fit --out "$tmp/ef.c" "$tmp/ef.txt"
if grep -q 'rv_eg_pc_bias\[RV_EG_PC_DEPTHS\] = {200, 0, 0, 0, 0, 0, 0, 0, 0};' "$tmp/ef.c" &&
   grep -q 'rv_eg_pc_sigma\[RV_EG_PC_DEPTHS\] = {100, 0, 50, 50, 50, 50, 50, 50, 50};' "$tmp/ef.c"; then ok
else bad "eg-probcut-fit: $(grep rv_eg_pc "$tmp/ef.c")"; fi
# The data from eg-probcut-data is accepted; bad lines are refused with file and line.
expect_exit 0 "$train" eg-probcut-fit --out "$tmp/ef2.c" "$tmp/e1.txt"
printf '000000ff00000000 00000000ff000000 47 10 1 2 3 4 5 6 7 8 9\n' >"$tmp/eb.txt"
expect_exit 1 "$train" eg-probcut-fit --out "$tmp/x.c" "$tmp/eb.txt"
if grep -q 'eb.txt:1' "$tmp/err"; then ok; else bad "eg-probcut-fit: error does not name eb.txt:1: $(cat "$tmp/err")"; fi
printf '000000ff00000000 00000000ff000000 48 10 1 2 3 4 5 6 7 8\n' >"$tmp/eb.txt"
expect_exit 1 "$train" eg-probcut-fit --out "$tmp/x.c" "$tmp/eb.txt"
printf '000000ff00000000 00000000ff000000 48 10 1 2 3 4 5 6 7 8 9 10\n' >"$tmp/eb.txt"
expect_exit 1 "$train" eg-probcut-fit --out "$tmp/x.c" "$tmp/eb.txt"
expect_exit 2 "$train" eg-probcut-fit --out "$tmp/x.c"
expect_exit 1 "$train" eg-probcut-fit --out "$tmp/x.c" "$tmp/missing.txt"
finish
