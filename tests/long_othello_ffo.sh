# FFO #20-#39 solved to the file's stated best score (make test-long).
. "$(dirname "$0")/lib.sh"
ffo="$RV_TEST_DATA/othello/fforum-20-39.obf"
"$RENVERSI" solve --threads 2 "$ffo" >"$tmp/out" 2>/dev/null
cat "$tmp/out"
if [ "$(grep -c '^[0-9]' "$tmp/out")" = 20 ]; then ok; else bad "20 result lines expected"; fi
if tail -1 "$tmp/out" | grep -q '20/20 agree'; then ok; else bad "summary: $(tail -1 "$tmp/out")"; fi
expect_ffo_scores "$ffo" "$tmp/out" 20
finish
