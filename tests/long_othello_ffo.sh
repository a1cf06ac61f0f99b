# FFO #20-#39 solved to the file's stated best score (make test-long).
. "$(dirname "$0")/lib.sh"
ffo="$RV_TEST_DATA/othello/fforum-20-39.obf"
"$RENVERSI" solve --threads 2 "$ffo" >"$tmp/out" 2>/dev/null
cat "$tmp/out"
if [ "$(grep -c '^[0-9]' "$tmp/out")" = 20 ]; then ok; else bad "20 result lines expected"; fi
if tail -1 "$tmp/out" | grep -q '20/20 agree'; then ok; else bad "summary: $(tail -1 "$tmp/out")"; fi
i=0
while read -r board side rest; do
    i=$((i + 1))
    want=$(printf '%s\n' "$rest" | sed 's/^[ ;]*[A-H][1-8]:\([-+0-9]*\);.*/\1/; s/^+//')
    got=$(sed -n "${i}p" "$tmp/out" | awk '{print $3}' | sed 's/^+//')
    if [ "$got" = "$want" ]; then ok; else bad "FFO #$((i + 19)): $got, want $want"; fi
done <"$ffo"
finish
