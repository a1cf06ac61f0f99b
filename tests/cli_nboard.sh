# `renversi nboard`: a scripted NBoard session (docs/protocol-nboard.md).
. "$(dirname "$0")/lib.sh"

# The opening of the protocol's own example: F5 F6 D3 C5 E6 F7 E7 F4, black to move.
start='---------------------------O*------*O--------------------------- *'
game="(;GM[Othello]PC[test]DT[2026]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 $start]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
# Black's legal moves there, computed by hand from the diagram:
legal=' B5 B6 C4 C6 D6 G3 G4 G5 G6 G7 G8 '

# nb_session OUT LINE...: an nboard session that sends the LINEs one at a time and, after
# each go or hint, waits for that search's own end ("status renversi is waiting") before
# sending the next line: ping, set, move and hint all stop a running search, so piping
# them in at once would let a search be cut short (its answer then depends on timing).
nb_session() {
    local out=$1 fifo="$tmp/nb_fifo" line waits=0 n pid
    shift
    rm -f "$fifo"
    mkfifo "$fifo"
    : >"$out"
    # shellcheck disable=SC2086 # NB_OPTS: options of the engine, word-split on purpose
    "$RENVERSI" nboard ${NB_OPTS:-} <"$fifo" >"$out" 2>>"$tmp/nb_err" &
    pid=$!
    exec 9>"$fifo"
    for line in "$@"; do
        printf '%s\n' "$line" >&9
        case "$line" in
        go | hint\ *)
            waits=$((waits + 1))
            n=0
            while [ "$(grep -c '^status renversi is waiting' "$out")" -lt "$waits" ] && [ $n -lt 600 ]; do
                sleep 0.1
                n=$((n + 1))
            done
            [ $n -lt 600 ] || bad "no end of search after '$line' in 60 s: $(cat "$out")"
            ;;
        esac
    done
    exec 9>&-
    wait "$pid"
}

nb_session "$tmp/s1" 'nboard 2' 'set depth 4' "set game $game" 'ping 1' go 'ping 2' 'hint 3' 'ping 3' \
    learn 'ping 4'
cat "$tmp/s1" >&2
# set myname after nboard and after set depth
if grep -qx 'set myname renversi4' "$tmp/s1"; then ok; else bad "no 'set myname renversi4'"; fi
# pongs in order, each once
if [ "$(grep '^pong' "$tmp/s1" | tr '\n' ' ')" = "pong 1 pong 2 pong 3 pong 4 " ]; then ok; else bad "pongs: $(grep '^pong' "$tmp/s1" | tr '\n' ' ')"; fi
# go: one answer "=== SQ/eval/seconds" between pong 1 and pong 2, a legal move
ans=$(sed -n '/^pong 1$/,/^pong 2$/p' "$tmp/s1" | grep '^=== ')
sq=$(printf '%s\n' "$ans" | sed 's/^=== \([A-H][1-8]\)\/.*/\1/')
case "$legal" in *" $sq "*) ok ;; *) bad "go answered '$ans' (not legal)" ;; esac
if printf '%s\n' "$ans" | grep -Eq '^=== [A-H][1-8]/-?[0-9]+\.[0-9]{2}/[0-9]+\.[0-9]{3}$'; then ok; else bad "go format '$ans'"; fi
if sed -n '/^pong 1$/,/^pong 2$/p' "$tmp/s1" | grep -Eq '^nodestats [0-9]+ [0-9]+\.[0-9]+$'; then ok; else bad "no nodestats"; fi
if grep -q '^status ' "$tmp/s1"; then ok; else bad "no status line"; fi
# hint 3: three search lines with legal, distinct moves, best first
hints=$(sed -n '/^pong 2$/,/^pong 3$/p' "$tmp/s1" | grep '^search ')
if [ "$(printf '%s\n' "$hints" | wc -l)" = 3 ]; then ok; else bad "hint 3 gave: $hints"; fi
for h in $(printf '%s\n' "$hints" | awk '{print $2}'); do
    case "$legal" in *" $h "*) ok ;; *) bad "hint move $h not legal" ;; esac
done
if [ "$(printf '%s\n' "$hints" | awk '{print $2}' | sort -u | wc -l)" = 3 ]; then ok; else bad "hint moves repeat"; fi
if [ "$(printf '%s\n' "$hints" | awk '{print $3}' | sort -g -r | tr '\n' ' ')" = "$(printf '%s\n' "$hints" | awk '{print $3}' | tr '\n' ' ')" ]; then ok; else bad "hints not best first"; fi
# hint ends with the node count and time of its search
if sed -n '/^pong 2$/,/^pong 3$/p' "$tmp/s1" | grep -v '^status' | tail -2 | head -1 | grep -Eq '^nodestats [1-9][0-9]* [0-9]+\.[0-9]+$'; then ok; else bad "hint sent no nodestats"; fi
# the best hint has the same score as go's answer (same depth, same engine)
if [ "$(printf '%s\n' "$hints" | head -1 | awk '{print $3}')" = "$(printf '%s\n' "$ans" | cut -d/ -f2)" ]; then ok; else bad "hint/go disagree: $hints / $ans"; fi
if grep -qx 'learned' "$tmp/s1"; then ok; else bad "no 'learned'"; fi

# go never plays its move: asking twice gives the same answer (same position).
nb_session "$tmp/s2" 'set depth 3' "set game $game" go 'ping 1' go 'ping 2'
if [ "$(grep -c '^=== ' "$tmp/s2")" = 2 ] && [ "$(grep '^=== ' "$tmp/s2" | cut -d/ -f1 | sort -u | wc -l)" = 1 ]; then ok; else bad "go twice: $(grep '^===' "$tmp/s2")"; fi

# GUI moves: legal ones are played, illegal ones get a status line and are ignored.
nb_session "$tmp/s3" 'set depth 2' "set game $game" 'move A1' 'move z9' 'move C6/0.50/1.2' 'ping 1' \
    go 'ping 2'
if grep -q '^status illegal move from GUI: A1' "$tmp/s3"; then ok; else bad "A1 not rejected"; fi
if grep -q "^status illegal move from GUI: 'z9'" "$tmp/s3"; then ok; else bad "z9 not rejected"; fi
# After C6 (black), white is to move: its answer must be a legal white move
# (hand-checked list for the position after ...F4 C6).
ans=$(grep '^=== ' "$tmp/s3" | cut -c5-6)
case ' C2 C3 C4 C7 D6 D7 D8 E3 ' in *" $ans "*) ok ;; *) bad "white answer '$ans'" ;; esac

# Pass: O to move with no move (a1 empty, b1 O, everything else X): go -> PA,
# then after "move PA" X plays a1.
passbo="BO[8 -O$(printf '*%.0s' $(seq 62)) O]"
nb_session "$tmp/s4" 'set depth 2' "set game (;GM[Othello]TY[8]$passbo;)" go 'ping 1' 'move PA' go \
    'ping 2'
if [ "$(grep '^=== ' "$tmp/s4" | cut -d/ -f1 | tr '\n' ' ')" = "=== PA === A1 " ]; then ok; else bad "pass: $(grep '^===' "$tmp/s4" | tr '\n' ' ')"; fi

# The pass has a value: searched after the pass, not a static guess. After O passes,
# X plays a1 and flips b1: 64-0, so O's exact value is -64 (hand-checked).
if grep -q '^=== PA/-64.00/' "$tmp/s4"; then ok; else bad "pass value: $(grep '^===' "$tmp/s4" | head -1)"; fi
if sed -n '1,/^=== PA/p' "$tmp/s4" | grep -Eq '^nodestats [1-9][0-9]* '; then ok; else bad "pass searched no node"; fi
nb_session "$tmp/s4h" 'set depth 2' "set game (;GM[Othello]TY[8]$passbo;)" 'hint 3' 'ping 1'
if [ "$(grep '^search ' "$tmp/s4h")" = "search PA -64.00 0 100%" ]; then ok; else bad "pass hint: $(grep '^search' "$tmp/s4h")"; fi

# Stop requests cannot be lost (issue #10.8): a stop that arrives before the worker has
# begun its search still stops it. Each of these hung for ever before.
for i in 1 2 3 4 5; do
    printf 'nboard 2\nset depth 40\ngo\nping 6\n' | timeout 60 "$RENVERSI" nboard >"$tmp/r$i"
    if grep -qx 'pong 6' "$tmp/r$i"; then ok; else bad "set depth 40, go, ping: no pong (run $i)"; fi
done
printf 'nboard 2\nset depth 60\ngo\nping 1\n' | timeout 60 "$RENVERSI" nboard >"$tmp/r6"
if grep -qx 'pong 1' "$tmp/r6" && [ "$(grep -c '^=== ' "$tmp/r6")" = 1 ]; then ok; else bad "depth 60 go/ping: $(cat "$tmp/r6")"; fi
printf 'nboard 2\nset depth 40\nhint 5\nset game %s\nping 2\n' "$game" | timeout 60 "$RENVERSI" nboard >"$tmp/r7"
if grep -qx 'pong 2' "$tmp/r7"; then ok; else bad "hint then set game: no pong"; fi

# hint wants a count of 1..64: anything else is an error and starts no search.
printf 'set depth 2\nhint 0\nhint -1\nhint abc\nhint\nping 1\n' | "$RENVERSI" nboard >"$tmp/h0"
if [ "$(grep -c '^status error: hint wants' "$tmp/h0")" = 4 ]; then ok; else bad "bad hints: $(cat "$tmp/h0")"; fi
if grep -q '^search ' "$tmp/h0"; then bad "a bad hint searched"; else ok; fi

# Time control (issue #12.4). set time MS bounds a search that depth alone would not
# (depth 60 from the start never ends): go answers by itself, before end of input.
printf 'set depth 60\nset time 300\ngo\n' | timeout 60 "$RENVERSI" nboard >"$tmp/t1"
if grep -Eq '^=== [A-H][1-8]/' "$tmp/t1"; then ok; else bad "set time 300 + depth 60: $(cat "$tmp/t1")"; fi
# ... and so does the GGF clock: two seconds for the whole game.
printf 'set depth 60\nset game (;GM[Othello]TI[0:02]TY[8];)\ngo\n' | timeout 60 "$RENVERSI" nboard >"$tmp/t2"
if grep -Eq '^=== [A-H][1-8]/' "$tmp/t2"; then ok; else bad "TI[0:02] + depth 60: $(cat "$tmp/t2")"; fi
# TB[]/TW[] and the moves' own times count: black used its 20 minutes, 1 s is left.
printf 'set depth 60\nset game (;GM[Othello]TB[20:01]TW[1:00:00]TY[8]B[F5//1200]W[D6//1];)\ngo\n' |
    timeout 60 "$RENVERSI" nboard >"$tmp/t3"
if grep -Eq '^=== [A-H][1-8]/' "$tmp/t3"; then ok; else bad "TB/TW clock: $(cat "$tmp/t3")"; fi
# Without a time control set depth keeps its meaning: the same depth-3 answer twice.
nb_session "$tmp/t4" 'set depth 3' "set game $game" go 'set time 0' go 'ping 1'
if [ "$(grep -c '^=== ' "$tmp/t4")" = 2 ] && [ "$(grep '^=== ' "$tmp/t4" | cut -d/ -f1-2 | sort -u | wc -l)" = 1 ]; then ok; else bad "set time 0: $(grep '^===' "$tmp/t4")"; fi
# --cpu-time: the limits count CPU time; set time still ends a depth-60 search.
printf 'set depth 60\nset time 300\ngo\n' | timeout 60 "$RENVERSI" nboard --cpu-time >"$tmp/t6"
if grep -Eq '^=== [A-H][1-8]/' "$tmp/t6"; then ok; else bad "--cpu-time + set time 300: $(cat "$tmp/t6")"; fi
expect_exit 2 "$RENVERSI" nboard --cpu
# --nodes: every search gets that many nodes whatever set time and the GGF clock say (1 ms
# here, and the game's 15 minutes), so two sessions answer alike, node for node.
NB_OPTS='--nodes 300000' nb_session "$tmp/n1" 'set time 1' "set game $game" go 'hint 2' 'ping 1'
NB_OPTS='--nodes 300000' nb_session "$tmp/n2" 'set time 1' "set game $game" go 'hint 2' 'ping 1'
cat "$tmp/n1" >&2
sq=$(grep '^=== ' "$tmp/n1" | sed 's/^=== \([A-H][1-8]\)\/.*/\1/')
case "$legal" in *" $sq "*) ok ;; *) bad "--nodes: go answered '$sq' (not legal)" ;; esac
# the answers without their seconds
nb_answers() { grep -E '^(=== |search |nodestats )' "$1" | sed -E 's/^(nodestats [0-9]+) .*/\1/; s#^(=== [^/]*/[^/]*)/.*#\1#'; }
if [ "$(nb_answers "$tmp/n1")" = "$(nb_answers "$tmp/n2")" ]; then ok; else bad "--nodes: two sessions differ"; fi
n=$(grep '^nodestats' "$tmp/n1" | head -1 | cut -d' ' -f2)
if [ "$n" -gt 30000 ] && [ "$n" -le 300064 ]; then ok; else bad "--nodes 300000: go searched $n nodes"; fi
expect_exit 2 "$RENVERSI" nboard --nodes 0
expect_exit 2 "$RENVERSI" nboard --nodes 12x
expect_exit 2 "$RENVERSI" nboard --nodes 1125899906842625
expect_exit 2 "$RENVERSI" nboard --nodes 99999999999999999999
# Bad time controls: one clear line each, and the engine goes on.
printf 'set time abc\nset time -5\nset time 99999999999\nset time\nset game (;GM[Othello]TI[soon]TY[8];)\nset game (;GM[Othello]TI[0]TY[8];)\nset depth 0\nset depth 61\nset depth 1e9\nping 3\n' |
    "$RENVERSI" nboard >"$tmp/t5"
if [ "$(grep -c '^status error: set time wants' "$tmp/t5")" = 4 ]; then ok; else bad "bad set time: $(cat "$tmp/t5")"; fi
if grep -q '^status error: set game: TI\[soon\] is not a clock' "$tmp/t5"; then ok; else bad "bad TI: $(cat "$tmp/t5")"; fi
if grep -q '^status error: set game: TI\[0\] gives no time' "$tmp/t5"; then ok; else bad "TI[0]: $(cat "$tmp/t5")"; fi
if [ "$(grep -c '^status error: set depth wants' "$tmp/t5")" = 3 ]; then ok; else bad "bad depths: $(cat "$tmp/t5")"; fi
if grep -qx 'pong 3' "$tmp/t5"; then ok; else bad "no pong after bad time controls"; fi

# Bad GGF: an error status, the old game stays, the engine keeps answering.
printf 'set depth 2\nset game (;GM[Chess];)\nset game garbage\nset game\nbogus command\nset depth 99\nping 7\n' |
    "$RENVERSI" nboard >"$tmp/s5" 2>&1
if [ "$(grep -c '^status error' "$tmp/s5")" -ge 4 ]; then ok; else bad "bad GGF/depth statuses: $(cat "$tmp/s5")"; fi
if grep -qx 'pong 7' "$tmp/s5"; then ok; else bad "no pong after errors"; fi
# A 1 MB line is ignored without a crash.
{ head -c 1100000 /dev/zero | tr '\0' 'x'; printf '\nping 9\n'; } | "$RENVERSI" nboard >"$tmp/s6"
if grep -qx 'pong 9' "$tmp/s6"; then ok; else bad "no pong after a huge line"; fi
# Empty input: exits 0.
expect_exit 0 "$RENVERSI" nboard
expect_stdout_has "usage: renversi nboard" "$RENVERSI" nboard --help
finish
