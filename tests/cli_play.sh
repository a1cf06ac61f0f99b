#!/usr/bin/env bash
# `renversi play` driven through a pipe (plain text), and under tmux (ANSI colours).
. "$(dirname "$0")/lib.sh"

play() { printf '%s\n' "$1" | "$RENVERSI" play "${@:2}" 2>"$tmp/err"; }
has() { # has NAME TEXT: the last output contains TEXT
    if grep -qF -- "$2" "$tmp/out"; then ok; else bad "$1: output lacks '$2'"; sed 's/^/  | /' "$tmp/out" | tail -25 >&2; fi
}
hasnt() { if grep -qF -- "$2" "$tmp/out"; then bad "$1: output has '$2'"; else ok; fi; }

expect_exit 0 "$RENVERSI" play --help
expect_stdout_has "--ai" "$RENVERSI" play --help
expect_exit 2 "$RENVERSI" play chess
expect_exit 2 "$RENVERSI" play --ai purple
expect_exit 2 "$RENVERSI" play --level 0
expect_exit 2 "$RENVERSI" play --level 21
expect_exit 2 "$RENVERSI" play --size 4
expect_exit 2 "$RENVERSI" play reversi --size 10
expect_exit 2 "$RENVERSI" play --lang fr
expect_exit 2 "$RENVERSI" play --bogus

# Plain text through a pipe: no escape sequences; the last move in brackets at h8
# (column h = 8th, row 8 counted from the bottom of 15).
play 'h8' renju --ai none >"$tmp/out"
if grep -q $'\033' "$tmp/out"; then bad "escape sequences in piped output"; else ok; fi
has "last move" ' 8 . . . . . . .[X]. . . . . . . 8'
has "columns" '   a b c d e f g h i j k l m n o'
has "turn" 'white to move'

# Renju: h8 i8 + j9 j10 for black make j8 a double-three; it is marked # and refused.
play $'h8\na1\ni8\na3\nj9\na5\nj10\na7' renju --ai none >"$tmp/out"
has "forbidden mark" ' 8 . . . . . . . X X # . . . . . 8'
has "legend" '# forbidden for black'
play $'h8\na1\ni8\na3\nj9\na5\nj10\na7\nj8\nk8' renju --ai none >"$tmp/out"
has "refused" 'forbidden move j8: double-three'
has "goes on" ' 8 . . . . . . . X X .[X]. . . . 8'
# Freestyle has no forbidden points.
play $'h8\na1\ni8\na3\nj9\na5\nj10\na7\nj8' gomoku --ai none >"$tmp/out"
hasnt "freestyle" 'forbidden'

# A five wins and the result line uses the judge's words.
play $'h8\na1\ni8\na2\nj8\na3\nk8\na4\nl8' gomoku --ai none >"$tmp/out"
has "five" 'game over: black wins: five h8-l8'
play $'h8\na1\ni8\na2\nj8\na3\nk8\na4\nl8\nm8' gomoku --ai none >"$tmp/out"
has "after the end" 'the game is over'

# Bad input: the game goes on.
play $'h8\nh8\nz99\nhello\nsave\n\n# comment\ni9' renju --ai none >"$tmp/out"
has "occupied" 'illegal move h8: the point is taken'
has "off board" 'illegal move z99: off the board'
has "not a move" "'hello' is not a move or a command"
has "continues" ' 9 . . . . . . . .[O]. . . . . . 9'
head -c 1048576 /dev/zero | tr '\0' 'a' | "$RENVERSI" play --ai none >"$tmp/out" 2>&1
code=$?
[ "$code" = 0 ] && ok || bad "1 MB line: exit $code"

# undo, save/load (PSQ: 1-based x,y from the top-left, so h8 on 15x15 is 8,8).
play $'h8\ni9\nundo\nsave '"$tmp"$'/g.psq\nsave '"$tmp"$'/g.txt' renju --ai none >"$tmp/out"
has "undo" 'move taken back'
if grep -q '^Piskvorky 15x15' "$tmp/g.psq" && grep -q '^8,8' "$tmp/g.psq"; then ok; else bad "psq: $(cat "$tmp/g.psq")"; fi
[ "$(cat "$tmp/g.txt")" = "h8" ] && ok || bad "move list: $(cat "$tmp/g.txt")"
play $'load '"$tmp"$'/g.psq' renju --ai none >"$tmp/out"
has "loaded" ' 8 . . . . . . .[X]. . . . . . . 8'
printf 'h8 i9 j10\n' >"$tmp/m.txt"
play $'load '"$tmp"$'/m.txt' renju --ai none >"$tmp/out"
has "move list load" '10 . . . . . . . . .[X]. . . . . 10'
play $'load /nonexistent/x.psq' renju --ai none >"$tmp/out"
has "load failure" 'cannot load /nonexistent/x.psq'

# Reversi: the four legal moves of the start (d3 c4 f5 e6) marked *; a1 top-left.
play '' reversi --ai none >"$tmp/out"
has "start row 3" '3 . . . * . . . . 3'
has "start row 4" '4 . . * O X . . . 4'
has "start row 5" '5 . . . X O * . . 5'
has "counts" 'X 2  O 2'
play $'f5\nd6\na1\npass' reversi --ai none >"$tmp/out"
has "flip" '5 . . . X X[X]. . 5'
has "illegal" 'illegal move a1: it flips nothing'
has "no pass" 'you cannot pass'
play $'f5\nd6\nsave '"$tmp"$'/r.txt\nsave '"$tmp"$'/r.ggf' reversi --ai none >"$tmp/out"
[ "$(cat "$tmp/r.txt")" = "f5d6" ] && ok || bad "transcript: $(cat "$tmp/r.txt")"
grep -q 'B\[F5\]W\[D6\]' "$tmp/r.ggf" && ok || bad "ggf: $(cat "$tmp/r.ggf")"
play $'load '"$tmp"$'/r.ggf' reversi --ai none >"$tmp/out"
has "ggf load" '6 . . *[O]. . . . 6'

# A forced pass (a game the engine played): after black's 47th move white has none, so the
# pass is played at once; undo takes the pass back with the move before it.
g46='f5d6c4g5f6f4g6f3h5h6h7e7d3b4e6f7g4h4h3c2g3h2h1g7c6c5b5d7f2f1h8g8f8e8e3a5c7c3d8b6g1g2e1c8d2e2'
g47='f5d6c4g5f6f4g6f3h5h6h7e7d3b4e6f7g4h4h3c2g3h2h1g7c6c5b5d7f2f1h8g8f8e8e3a5c7c3d8b6g1g2e1c8d2e2b8'
moves() { echo "$1" | sed 's/../&\n/g'; }
moves "$g47" | "$RENVERSI" play reversi --ai none >"$tmp/out" 2>&1
has "forced pass" 'white has no move and passes'
tail -1 "$tmp/out" | grep -qF 'black to move' && ok || bad "after the pass: not black to move"
board() { grep -E '^[1-8] ' | tail -8; }
moves "$g46" | "$RENVERSI" play reversi --ai none | board >"$tmp/b46"
{ moves "$g47"; echo undo; } | "$RENVERSI" play reversi --ai none | board >"$tmp/b47u"
cmp -s "$tmp/b46" "$tmp/b47u" && ok || bad "undo over a pass does not give back the position before the move"
{ moves "$g47"; echo "save $tmp/p.txt"; } | "$RENVERSI" play reversi --ai none >/dev/null
[ "$(cat "$tmp/p.txt")" = "$g47" ] && ok || bad "transcript with an implied pass: $(cat "$tmp/p.txt")"
{ echo "load $tmp/p.txt"; } | "$RENVERSI" play reversi --ai none | board >"$tmp/bl"
moves "$g47" | "$RENVERSI" play reversi --ai none | board >"$tmp/b47"
cmp -s "$tmp/b47" "$tmp/bl" && ok || bad "loading the transcript back"

# Against the computer (level 1): it answers, hint suggests, undo takes back both.
play $'h8\nhint\nundo' renju --ai white --level 1 >"$tmp/out"
has "ai plays" 'white (computer) plays'
has "hint" 'hint: '
has "undo vs ai" 'move taken back'
tail -2 "$tmp/out" | grep -qF 'black to move' && ok || bad "undo vs ai: not black to move"
play '' gomoku --size 9 --ai black --level 1 >"$tmp/out"
has "ai opens" 'black (computer) plays'

# Chinese.
play $'h8\na1\ni8\na3\nj9\na5\nj10\na7\nj8\nhelp' renju --ai none --lang zh >"$tmp/out"
has "zh forbidden" 'j8 是禁手：三三禁手'
has "zh turn" '轮到黑方'
has "zh help" '悔棋'
LANG=zh_CN.UTF-8 "$RENVERSI" play reversi --ai none </dev/null >"$tmp/out"
has "zh from LANG" '黑白棋'

# Colours under a terminal (tmux): the same board with ANSI escapes.
if command -v tmux >/dev/null 2>&1; then
    sock="$tmp/tmux.sock"
    tmux -S "$sock" new-session -d -x 100 -y 40 "env -u NO_COLOR $RENVERSI play renju --ai none; sleep 5"
    sleep 0.5
    tmux -S "$sock" send-keys 'h8' Enter
    sleep 0.5
    tmux -S "$sock" capture-pane -p -e >"$tmp/out"
    if grep -q $'\033\\[' "$tmp/out"; then ok; else bad "tmux: no colours"; fi
    has "tmux prompt" 'white>'
    tmux -S "$sock" capture-pane -p >"$tmp/out"
    has "tmux board" ' 8 . . . . . . .[X]. . . . . . . 8'
    tmux -S "$sock" kill-server 2>/dev/null
else
    echo "tmux not installed: colour mode not tested" >&2
fi
finish
