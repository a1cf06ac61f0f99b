# `renversi nboard`: a scripted NBoard session (docs/protocol-nboard.md).
. "$(dirname "$0")/lib.sh"

# The opening of the protocol's own example: F5 F6 D3 C5 E6 F7 E7 F4, black to move.
start='---------------------------O*------*O--------------------------- *'
game="(;GM[Othello]PC[test]DT[2026]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 $start]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)"
# Black's legal moves there, computed by hand from the diagram:
legal=' B5 B6 C4 C6 D6 G3 G4 G5 G6 G7 G8 '

printf 'nboard 2\nset depth 4\nset game %s\nping 1\ngo\nping 2\nhint 3\nping 3\nlearn\nping 4\n' "$game" |
    "$RENVERSI" nboard >"$tmp/s1" 2>"$tmp/e1"
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
printf 'set depth 3\nset game %s\ngo\nping 1\ngo\nping 2\n' "$game" | "$RENVERSI" nboard >"$tmp/s2"
if [ "$(grep -c '^=== ' "$tmp/s2")" = 2 ] && [ "$(grep '^=== ' "$tmp/s2" | cut -d/ -f1 | sort -u | wc -l)" = 1 ]; then ok; else bad "go twice: $(grep '^===' "$tmp/s2")"; fi

# GUI moves: legal ones are played, illegal ones get a status line and are ignored.
printf 'set depth 2\nset game %s\nmove A1\nmove z9\nmove C6/0.50/1.2\nping 1\ngo\nping 2\n' "$game" |
    "$RENVERSI" nboard >"$tmp/s3"
if grep -q '^status illegal move from GUI: A1' "$tmp/s3"; then ok; else bad "A1 not rejected"; fi
if grep -q "^status illegal move from GUI: 'z9'" "$tmp/s3"; then ok; else bad "z9 not rejected"; fi
# After C6 (black), white is to move: its answer must be a legal white move
# (hand-checked list for the position after ...F4 C6).
ans=$(grep '^=== ' "$tmp/s3" | cut -c5-6)
case ' C2 C3 C4 C7 D6 D7 D8 E3 ' in *" $ans "*) ok ;; *) bad "white answer '$ans'" ;; esac

# Pass: O to move with no move (a1 empty, b1 O, everything else X): go -> PA,
# then after "move PA" X plays a1.
passbo="BO[8 -O$(printf '*%.0s' $(seq 62)) O]"
printf 'set depth 2\nset game (;GM[Othello]TY[8]%s;)\ngo\nping 1\nmove PA\ngo\nping 2\n' "$passbo" |
    "$RENVERSI" nboard >"$tmp/s4"
if [ "$(grep '^=== ' "$tmp/s4" | cut -d/ -f1 | tr '\n' ' ')" = "=== PA === A1 " ]; then ok; else bad "pass: $(grep '^===' "$tmp/s4" | tr '\n' ' ')"; fi

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
