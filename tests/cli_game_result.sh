#!/usr/bin/env bash
# One Reversi result everywhere (issue #11): `judge`, the terminal game driven through
# stdin, the records it saves (GGF, transcript) and `analyse` give the same score for a game that
# ends with empty squares after passes, and for a draw with empty squares. The scores
# are the tournament rule of shared/spec/othello.md (empties to the winner, shared in a
# draw), hand-checked from disc counts found with an independent move generator.
# (The server: tests/test_server.c, test_reversi_result.)
. "$(dirname "$0")/lib.sh"

# 48-14 on the board, 2 empty squares, white passed twice: black wins 50-14, GGF +36.
g1=e6f6c4c5b6e7f7b5b4f8g6a3e8a5a6c7a4g8f5f4c6h7g4d6h5h4h3h6h8g7c8b8g5a7d8b7d7e3f2d3f3g3e2d1e1c2h2a8d2b3c1c3b2a2g2f1g1h1
# 31-31 on the board, 2 empty squares: a draw, 32-32.
g2=f5f4f3d6c6b6b7b8d3g2d7e6c7c8d8e7a6b5e8f6a8c5c4d2a7f8g6b4g3h7e3f7c1c3c2a4g5g4h6d1h4h5e1h3e2g7a3f1f2b3g8g1a5b1a2b2h2h1

check() { # check NAME GAME RESULT GGF-RE
    local name=$1 game=$2 want=$3 re=$4
    expect_stdout "$want" "$RENVERSI" judge --game reversi "$game"
    # The terminal game, one move a line, then the records it saves.
    local input
    input=$(echo "$game" | sed 's/\(..\)/\1\n/g')
    printf '%s\nsave %s\nsave %s\nquit\n' "$input" "$tmp/$name.ggf" "$tmp/$name.txt" |
        "$RENVERSI" play reversi --ai none >"$tmp/out" 2>"$tmp/err"
    if grep -qxF "game over: $want" "$tmp/out"; then ok; else
        bad "$name: play says $(grep 'game over' "$tmp/out"), want '$want'"; fi
    if grep -qF "RE[$re]" "$tmp/$name.ggf"; then ok; else bad "$name: GGF $(cat "$tmp/$name.ggf")"; fi
    # The saved transcript and the GGF's moves judge to the same result.
    expect_stdout "$want" "$RENVERSI" judge --game reversi "$(cat "$tmp/$name.txt")"
    local moves
    moves=$(grep -o '[BW]\[[A-Z0-9]*' "$tmp/$name.ggf" | cut -c3- | tr -d '\n')
    expect_stdout "$want" "$RENVERSI" judge --game reversi "$moves"
    # Loading the GGF back into the terminal game shows the same result.
    printf 'load %s\nquit\n' "$tmp/$name.ggf" | "$RENVERSI" play reversi --ai none >"$tmp/out" 2>&1
    if grep -qxF "game over: $want" "$tmp/out"; then ok; else bad "$name: after load: $(tail -3 "$tmp/out")"; fi
    # analyse's summary line.
    "$RENVERSI" analyse --depth 1 "$game" 2>/dev/null | tail -1 >"$tmp/out"
    if grep -qF "# game over: $want (discs" "$tmp/out"; then ok; else bad "$name: analyse says $(cat "$tmp/out")"; fi
    # Chinese shows the same figures.
    printf '%s\nquit\n' "$input" | "$RENVERSI" play reversi --ai none --lang zh >"$tmp/out" 2>&1
    local figures=${want##* }
    if grep -qF "$figures" "$tmp/out"; then ok; else bad "$name: zh lacks $figures"; fi
}
check passes "$g1" "black wins 50-14" "+36"
check draw "$g2" "draw 32-32" "+0"
finish
