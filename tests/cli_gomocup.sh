#!/usr/bin/env bash
# `renversi gomocup`: scripted protocol sessions (spec/gomocup.md), every reply checked.
# MESSAGE lines (search statistics) are dropped before comparing.
. "$(dirname "$0")/lib.sh"

brain() { "$RENVERSI" gomocup "$@" | grep -v '^MESSAGE'; }
crlf() { printf '%s\r\n' "$@"; }   # one argument per line, CR LF ends
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

expect_exit 0 "$RENVERSI" gomocup --help
expect_stdout_has "SWAP2BOARD" "$RENVERSI" gomocup --help
expect_exit 2 "$RENVERSI" gomocup --bogus

# START, BEGIN on an empty board (the centre), ABOUT, END; CR LF line ends
expect_stdout_stdin "OK
7,7" "$(crlf 'START 15' BEGIN)" brain
expect_stdout_stdin 'name="renversi", version="0.1.0", author="renversi developers", country="-", www="-"' \
    "$(crlf ABOUT)" brain
# LF-only and lone-CR line ends too
expect_stdout_stdin "OK
7,7" "$(printf 'START 15\rBEGIN\r')" brain
expect_stdout_stdin "OK
7,7" "$(printf 'start 15\nbegin\n')" brain

# sizes: 20 and rectangles work, 4 and 30 do not
expect_stdout_stdin "OK
10,10" "$(crlf 'START 20' BEGIN)" brain
expect_stdout_stdin "OK
10,7" "$(crlf 'RECTSTART 20,15' BEGIN)" brain
expect_stdout_has "ERROR" sh -c "printf 'START 4\r\n' | '$RENVERSI' gomocup"
expect_stdout_has "ERROR" sh -c "printf 'RECTSTART 30,30\r\n' | '$RENVERSI' gomocup"
expect_stdout_has "ERROR no board yet" sh -c "printf 'BEGIN\r\n' | '$RENVERSI' gomocup"
expect_stdout_has "UNKNOWN FROBNICATE" sh -c "printf 'START 15\r\nFROBNICATE 1\r\n' | '$RENVERSI' gomocup"

# BOARD in move order: the brain (white, F=1) must block the opponent's four 7..10,7
# (6,7 is its own stone) at 11,7
board_block=$(crlf 'START 15' 'INFO timeout_turn 2000' BOARD '7,7,2' '6,7,1' '8,7,2' '0,0,1' \
    '9,7,2' '0,2,1' '10,7,2' DONE)
expect_stdout_stdin "OK
11,7" "$board_block" brain
# its own four is completed: five beats blocking
board_five=$(crlf 'START 15' BOARD '7,7,1' '0,14,2' '8,7,1' '2,14,2' '9,7,1' '4,14,2' \
    '10,7,1' '6,7,2' DONE)
expect_stdout_stdin "OK
11,7" "$board_five" brain

# TURN: the opponent's point is taken; the reply is a free point in range
out=$(printf '%s\r\n' 'START 15' 'INFO timeout_turn 500' 'TURN 7,7' | brain)
reply=$(echo "$out" | sed -n 2p)
case "$reply" in
    7,7) bad "TURN reply on the opponent's stone" ;;
    [0-9]*,[0-9]*) ok ;;
    *) bad "TURN reply '$reply'" ;;
esac

# Renju (rule 4; also a lone 2): black's double four at h8 = 7,7 is forbidden; under
# freestyle the brain plays it. Black is the brain (F=1, equal counts), stones in order.
renju_board() {
    crlf 'START 15' "INFO rule $1" 'INFO timeout_turn 500' BOARD '4,7,1' '3,7,2' '5,7,1' '7,3,2' '6,7,1' '0,14,2' \
        '7,6,1' '14,14,2' '7,5,1' '0,0,2' '7,4,1' '14,0,2' DONE
}
expect_stdout_stdin "OK
7,7" "$(renju_board 0)" brain
for rule in 4 2; do
    out=$(renju_board $rule | brain | sed -n 2p)
    case "$out" in
        7,7) bad "renju (rule $rule): played the forbidden double four 7,7" ;;
        [0-9]*,[0-9]*) ok ;;
        *) bad "renju (rule $rule): reply '$out'" ;;
    esac
done

# TAKEBACK: removes the given stone, ERROR for an empty point
expect_stdout_stdin "OK
7,7
OK
ERROR TAKEBACK 3,3: no stone there
OK
7,7" "$(crlf 'START 15' BEGIN 'TAKEBACK 7,7' 'TAKEBACK 3,3' RESTART BEGIN)" brain
out=$(crlf 'START 15' 'INFO timeout_turn 300' 'TURN 7,7' 'TAKEBACK 7,7' 'TURN 0,0' | brain)
[ "$(echo "$out" | sed -n 3p)" = "ERROR TAKEBACK 7,7: no stone there" ] && bad "takeback of a present stone failed" || ok
[ "$(echo "$out" | sed -n 3p)" = "OK" ] && ok || bad "TAKEBACK 7,7 answered '$(echo "$out" | sed -n 3p)'"

# SWAP2BOARD (decided by the library's swap2 rule): 0 stones -> three moves; 3 stones -> SWAP,
# one move or two more stones; 5 stones -> SWAP or one move; 4 -> ERROR
out=$(crlf 'START 15' SWAP2BOARD DONE | brain | sed -n 2p)
echo "$out" | grep -Eq '^[0-9]+,[0-9]+ [0-9]+,[0-9]+ [0-9]+,[0-9]+$' && ok || bad "swap2 opening '$out'"
out=$(crlf 'START 15' 'INFO timeout_turn 1000' SWAP2BOARD 7,7 8,8 7,9 DONE | brain | sed -n 2p)
echo "$out" | grep -Eq '^(SWAP|[0-9]+,[0-9]+|[0-9]+,[0-9]+ [0-9]+,[0-9]+)$' && ok || bad "swap2 with 3 stones: '$out'"
out=$(crlf 'START 15' 'INFO timeout_turn 1000' SWAP2BOARD 7,7 8,8 7,9 9,9 6,8 DONE | brain | sed -n 2p)
echo "$out" | grep -Eq '^(SWAP|[0-9]+,[0-9]+)$' && ok || bad "swap2 with 5 stones: '$out'"
# after its three opening stones the brain holds black and answers the next TURN
out=$(crlf 'START 15' 'INFO timeout_turn 500' SWAP2BOARD DONE 'TURN 0,0' | brain | sed -n 3p)
echo "$out" | grep -Eq '^[0-9]+,[0-9]+$' && ok || bad "a move after the swap2 opening: '$out'"
expect_stdout_stdin "OK
ERROR SWAP2BOARD expects 0, 3 or 5 stones, got 4" \
    "$(crlf 'START 15' SWAP2BOARD 7,7 8,8 7,9 9,9 DONE)" brain

# unplayable boards: a five already on the board, a point given twice, off the board
expect_stdout_stdin "OK
ERROR cannot play this board: the game is over" \
    "$(crlf 'START 15' BOARD 0,0,2 9,9,1 1,0,2 9,11,1 2,0,2 9,13,1 3,0,2 11,9,1 4,0,2 DONE)" brain
expect_stdout_has "ERROR 7,7 is occupied" sh -c "printf 'START 15\r\nBOARD\r\n7,7,1\r\n7,7,2\r\nDONE\r\n' | '$RENVERSI' gomocup"
expect_stdout_has "ERROR 15,3 is off the board" sh -c "printf 'START 15\r\nTURN 15,3\r\n' | '$RENVERSI' gomocup"
expect_stdout_has "ERROR bad BOARD line" sh -c "printf 'START 15\r\nBOARD\r\nseven\r\nDONE\r\n' | '$RENVERSI' gomocup"
expect_stdout_has "ERROR INFO timeout_turn" sh -c "printf 'START 15\r\nINFO timeout_turn fast\r\n' | '$RENVERSI' gomocup"
# a 1 MB line is refused, the session goes on
long=$(head -c 1000000 /dev/zero | tr '\0' 'x')
out=$(printf 'START 15\r\n%s\r\nBEGIN\r\n' "$long" | brain)
[ "$out" = "OK
ERROR line too long
7,7" ] && ok || bad "1 MB line: '$(echo "$out" | head -c 200)'"
# end of input without END: exits cleanly
expect_exit 0 sh -c "printf 'START 15\r\n' | '$RENVERSI' gomocup"

# time limits: timeout_turn 300 ms, a short time_left and timeout_turn 0 are kept. The brain's
# own report (MESSAGE ... nodes N time S) says how long it thought and how much: process
# start-up (slow under ASan on a busy machine) stays outside it, and a loaded machine only
# lowers the node count. The wall clock around the session is a hang guard, not a measure.
midgame=$(crlf 'START 15' BOARD 7,7,2 8,8,1 7,8,2 6,6,1 8,7,2 9,6,1 6,9,2 DONE)
think_report() { # think_report INFO-LINE...: the last MESSAGE's "MS NODES", or "none" without a move
    local out
    out=$(printf '%s\r\n' "$@" "$midgame" | timeout 120 "$RENVERSI" gomocup)
    if echo "$out" | tail -1 | grep -Eq '^[0-9]+,[0-9]+$'; then
        echo "$out" | awk '/^MESSAGE/ { for (i = 2; i < NF; i++) { if ($i == "time") t = $(i + 1)
            if ($i == "nodes") n = $(i + 1) } } END { printf "%d %d\n", t * 1000, n }'
    else
        echo none
    fi
}
# think_within NAME MS NODES INFO-LINE...: answered, thought under MS ms and under NODES nodes
# (this position's unlimited think passes 2.6 M nodes in 10 s and keeps going)
think_within() {
    local name=$1 ms=$2 nodes=$3 r
    shift 3
    r=$(think_report "$@")
    set -- $r
    [ "$1" != none ] && [ "$1" -lt "$ms" ] && [ "$2" -lt "$nodes" ] && ok ||
        bad "$name: thought '$r' (ms nodes), expected under $ms ms and $nodes nodes"
}
think_within 'timeout_turn 300' 1000 2000000 'INFO timeout_turn 300'
think_within 'time_left 400' 800 1000000 'INFO timeout_turn 30000' 'INFO timeout_match 100000' 'INFO time_left 400'
# timeout_turn 0 means "as fast as possible" (a 100 ms budget: on a quiet machine the brain
# searched 0.8-1.3 M nodes a second here (d35d266), so the node bound leaves room for 3 times that)
think_within 'timeout_turn 0' 500 400000 'INFO timeout_turn 0'
# negative time_left still gets an answer at once
out=$(printf '%s\r\n%s\r\n%s\r\n' 'INFO timeout_match 1000' 'INFO time_left -50' "$midgame" | brain | tail -1)
echo "$out" | grep -Eq '^[0-9]+,[0-9]+$' && ok || bad "negative time_left: '$out'"

# INFO values are range-checked (issue #10.11): 2^32 is not rule 0, 2^32+4 is not Renju
for kv in 'rule 4294967296' 'rule 4294967300' 'rule 16' 'rule -1' 'timeout_turn -1' \
    'timeout_turn 99999999999' 'timeout_match 2147483648' 'time_left -2147483648' \
    'max_memory -5' 'game_type 4' 'rule 4x' 'time_left 1e3'; do
    out=$(crlf 'START 15' "INFO $kv" | brain | sed -n 2p)
    case "$out" in "ERROR INFO ${kv%% *}: expected a whole number"*) ok ;; *) bad "INFO $kv: '$out'" ;; esac
done
# ... and a refused rule leaves the old one: still Renju, the double four stays forbidden
out=$(crlf 'START 15' 'INFO rule 4' 'INFO rule 4294967296' 'INFO timeout_turn 500' BOARD '4,7,1' '3,7,2' \
    '5,7,1' '7,3,2' '6,7,1' '0,14,2' '7,6,1' '14,14,2' '7,5,1' '0,0,2' '7,4,1' '14,0,2' DONE | brain | tail -1)
case "$out" in 7,7) bad "a refused INFO rule changed the rule" ;; [0-9]*,[0-9]*) ok ;; *) bad "after refused rule: '$out'" ;; esac
# a huge timeout_turn is still bounded by timeout_match (no time_left sent): an answer
# within the match's 3 s (it used to think for 90% of 24 days)
think_within 'huge timeout_turn + timeout_match 3000' 3000 10000000 \
    'INFO timeout_turn 2147483647' 'INFO timeout_match 3000'
# a node limit (--nodes, INFO max_node) replaces the clock: the think never passes the count
# by more than a poll (every 256 nodes) and may stop well before it when the next iteration is
# predicted not to fit (where depends on the evaluation), and the same count gives the same
# move and the same node count whatever the machine's load
msg_nodes() { sed -n 's/^MESSAGE depth [0-9]* eval -*[0-9]* nodes \([0-9]*\) .*/\1/p'; }
n=$(printf '%s\r\n' "$midgame" | "$RENVERSI" gomocup --nodes 3000 | msg_nodes)
[ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 3300 ] && ok || bad "--nodes 3000 searched '$n' nodes"
a=$(printf '%s\r\n' "$midgame" | "$RENVERSI" gomocup --nodes 20000 | sed 's/ time .*//')
b=$(printf '%s\r\n%s\r\n' 'INFO max_node 20000' "$midgame" | "$RENVERSI" gomocup | sed 's/ time .*//')
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "--nodes 20000 '$a' and INFO max_node 20000 '$b' differ"
n=$(printf '%s\r\n%s\r\n' 'INFO max_node 5000' "$midgame" | "$RENVERSI" gomocup | msg_nodes)
[ -n "$n" ] && [ "$n" -le 5300 ] && ok || bad "INFO max_node 5000 searched '$n' nodes"
expect_exit 2 "$RENVERSI" gomocup --nodes 0
expect_exit 2 "$RENVERSI" gomocup --nodes 12x
expect_exit 2 "$RENVERSI" gomocup --nodes 1125899906842625
expect_exit 2 "$RENVERSI" gomocup --nodes 99999999999999999999
expect_stdout_has "ERROR INFO max_node: expected a whole number" sh -c "printf 'START 15\r\nINFO max_node -3\r\n' | '$RENVERSI' gomocup"
# before START, unknown commands are UNKNOWN (board commands say START first)
expect_stdout_stdin "UNKNOWN FROBNICATE 1
ERROR no board yet: send START first" "$(crlf 'FROBNICATE 1' 'TURN 7,7')" brain

# A responsive brain (issue #13.3): it reads commands while it thinks. The brain runs on a
# FIFO the test keeps open, thinking under a 20 s timeout_turn.
mkfifo "$tmp/fifo"
think_then() { # think_then CMD: sends a long think, CMD after 0.5 s; prints ms until exit
    "$RENVERSI" gomocup <"$tmp/fifo" >"$tmp/resp" &
    local pid=$! t0 t1
    exec 3>"$tmp/fifo"
    crlf 'START 15' 'INFO timeout_turn 20000' 'TURN 7,7' >&3
    sleep 0.5
    t0=$(now_ms)
    crlf "$@" >&3
    # wait up to 10 s for the answer (YXSTOP) or the exit (END), keeping the input open
    for _ in $(seq 100); do
        kill -0 $pid 2>/dev/null || break
        grep -Eq '^[0-9]+,[0-9]+$' "$tmp/resp" && break
        sleep 0.1
    done
    t1=$(now_ms)
    exec 3>&-
    wait $pid
    echo $((t1 - t0))
}
# YXSTOP: the move found so far comes at once (not after 18 s), then ABOUT is answered
ms=$(think_then YXSTOP ABOUT)
[ "$ms" -lt 5000 ] && ok || bad "YXSTOP answered after $ms ms"
grep -Eq '^[0-9]+,[0-9]+$' "$tmp/resp" && ok || bad "YXSTOP: no move: $(cat "$tmp/resp")"
grep -q '^name="renversi"' "$tmp/resp" && ok || bad "no ABOUT after YXSTOP"
# END mid-think: the brain exits at once, without a move nobody wants
ms=$(think_then END)
[ "$ms" -lt 5000 ] && ok || bad "END mid-think: exit after $ms ms"
grep -Eq '^[0-9]+,[0-9]+$' "$tmp/resp" && bad "END mid-think still answered a move" || ok
# INFO during a think is taken (an error for a bad value comes at once)
ms=$(think_then 'INFO rule 99' YXSTOP)
grep -q '^ERROR INFO rule' "$tmp/resp" && ok || bad "INFO during a think: $(cat "$tmp/resp")"
# end of input while thinking: the move is still answered
out=$(crlf 'START 15' 'INFO timeout_turn 300' 'TURN 7,7' | brain | tail -1)
echo "$out" | grep -Eq '^[0-9]+,[0-9]+$' && ok || bad "end of input mid-think: '$out'"

# invoked as pbrain-renversi
ln -s "$RENVERSI" "$tmp/pbrain-renversi"
expect_stdout_stdin "OK
7,7" "$(crlf 'START 15' BEGIN)" sh -c "'$tmp/pbrain-renversi' | grep -v '^MESSAGE'"
finish
