#!/usr/bin/env bash
# bench/gomocup_ref.py, the referee wrapper of the matches against Rapfi (BENCHMARKS.md):
#  - its openings file (c-gomoku-cli's offsets from the centre) holds the same 26 classical
#    openings, in the same order, as `renversi match`'s built-in set;
#  - its summary of a hand-written pair of SGF games (one win as black, one loss as white).
. "$(dirname "$0")/lib.sh"

src=${RV_SOURCE_DIR:?}
file=$src/bench/gomoku-openings26.txt
[ "$(grep -c . "$file")" = 26 ] && ok || bad "$file: not 26 lines"

# opening k is `renversi match`'s game 2k - 1 (colours alternate on each opening)
"$RENVERSI" match --games 52 --quiet --save "$tmp/g" level:1 level:1 >/dev/null && ok || bad "match --save"
k=0
while IFS= read -r line; do
    k=$((k + 1))
    want=$(printf '%s\n' "$line" | tr -d ' ' | awk -F, '{for (i = 1; i < NF; i += 2) printf "%d,%d\n", $i + 8, $(i + 1) + 8}')
    got=$(sed -n '2,4p' "$tmp/g$(printf '%03d' $((2 * k - 1))).psq" | cut -d, -f1,2)
    [ "$got" = "$want" ] && ok || bad "opening $k: file '$line', renversi match's '$(echo $got)'"
done <"$file"

if command -v python3 >/dev/null; then
    cat >"$tmp/two.sgf" <<'SGF'
(;FF[4]GM[4]RU[4]SZ[15]PB[renversi]PW[peer]RE[B+1]
;B[hh]C[opening move];W[hg]C[opening move];B[hf]C[opening move]
;W[ig]C[200ms];B[gg]C[250ms];W[ff]C[300ms];B[fh]C[10ms])

(;FF[4]GM[4]RU[4]SZ[15]PB[peer]PW[renversi]RE[B+1]
;B[hh]C[opening move];W[hg]C[opening move];B[hf]C[opening move]
;W[ig]C[100ms];B[gg]C[280ms])
SGF
    expect_stdout "renversi +1 =0 -1 of 2, 50.0% (as black 1 of 1, as white 0 of 1); time a move renversi / peer: mean 120 / 260 ms, on moves of 20 ms or more 175 / 260 ms, longest 250 / 300 ms" \
        python3 "$src/bench/gomocup_ref.py" --summary "$tmp/two.sgf"
    expect_exit 2 python3 "$src/bench/gomocup_ref.py" renversi
else
    echo "python3 not found: the summary checks are skipped"
fi
finish
