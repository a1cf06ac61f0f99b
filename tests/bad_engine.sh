#!/bin/sh
# A misbehaving engine for tests/cli_match.sh (not a test itself).
#   bad_engine.sh pbrain-late MARK  Gomocup: OK to START; its first move comes after a second,
#                                   off the board (99,99), and it never answers again
#   bad_engine.sh nboard-late MARK  NBoard: answers ping; its first go is answered after a
#                                   second with A1 (never legal so early), later ones never
#   bad_engine.sh spawn MARK        Gomocup: leaves a looping child behind, says OK to
#                                   START and never moves
# MARK only tags the command line, so the test can look for processes left running.
mode=$1
first=1
if [ "$mode" = spawn ]; then
    (while :; do sleep 0.1; done) &
fi
while read -r cmd rest; do
    cmd=$(printf '%s' "$cmd" | tr -d '\r')
    case "$mode:$cmd" in
    pbrain-*:START | spawn:START) echo OK ;;
    pbrain-late:BEGIN | pbrain-late:DONE)
        if [ $first = 1 ]; then first=0; sleep 1; echo "99,99"; fi ;;
    nboard-late:ping) echo "pong $rest" ;;
    nboard-late:go)
        if [ $first = 1 ]; then first=0; sleep 1; echo "=== A1"; fi ;;
    *:END | *:quit) exit 0 ;;
    esac
done
