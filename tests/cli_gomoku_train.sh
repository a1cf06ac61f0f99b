# rv-gomoku-train, the tool behind the Gomoku/Renju evaluation tables: self-play
# output format, determinism and result labels, the hand-set tables' values for
# hand-checked shapes, a fit and an emitted table that compile, and clear errors
# on bad input.
. "$(dirname "$0")/lib.sh"
train="$RV_BUILD_DIR/rv-gomoku-train"

expect_exit 0 "$train" --help
expect_exit 2 "$train"
expect_exit 2 "$train" frobnicate
expect_exit 2 "$train" selfplay --games 2 --seed 1
expect_exit 2 "$train" selfplay --rule gomoku --games 2 --seed 1
expect_exit 2 "$train" selfplay --rule renju --games 0 --seed 1
expect_exit 2 "$train" selfplay --rule renju --games 2 --seed 1 --eval magic
expect_exit 2 "$train" selfplay --rule renju --games 2 --seed 1 --openings round
expect_exit 2 "$train" selfplay --rule renju --games 2 --seed 1 --bogus
grep -q "unknown option '--bogus'" "$tmp/err" && ok || bad "unknown option: $(cat "$tmp/err")"
expect_exit 2 "$train" selfplay --rule renju --games 2 --seed
grep -q -- "--seed needs a value" "$tmp/err" && ok || bad "missing value: $(cat "$tmp/err")"
expect_exit 2 "$train" fit --rule renju
expect_exit 2 "$train" fit --rule renju --blend 2 x.txt
expect_exit 2 "$train" emit --out "$tmp/x.c" a b

# Two runs with the same seed play the same games; another seed others.
for s in 5 5 6; do
    "$train" selfplay --rule renju --games 6 --seed $s --nodes 1500 --eval hand \
        --out "$tmp/r$s-$((n = ${n:-0} + 1)).txt" 2>/dev/null
done
if [ -s "$tmp/r5-1.txt" ] && cmp -s "$tmp/r5-1.txt" "$tmp/r5-2.txt"; then ok; else bad "selfplay is not deterministic"; fi
if ! cmp -s "$tmp/r5-1.txt" "$tmp/r6-3.txt"; then ok; else bad "another seed gave the same games"; fi
line='^-?[01] [0-9]+( [0-9]+,[0-9]+,-?[0-9]+)+$'
if grep -Evq "$line" "$tmp/r5-1.txt"; then bad "bad line: $(grep -Ev "$line" "$tmp/r5-1.txt" | head -1)"; else ok; fi
# a decided game was won by the side that moved last (black makes the odd moves)
while read -r result nopen moves; do
    n=$(printf '%s\n' $moves | wc -l)
    case $result in
    1) [ $((n % 2)) = 1 ] && ok || bad "black won but white moved last: $result $nopen $moves" ;;
    -1) [ $((n % 2)) = 0 ] && ok || bad "white won but black moved last: $result $nopen $moves" ;;
    esac
    [ "$nopen" -ge 3 ] && [ "$nopen" -le 6 ] && ok || bad "opening of $nopen stones"
done <"$tmp/r5-1.txt"

# Wide openings: 3-8 stones.
"$train" selfplay --rule freestyle --games 8 --seed 2 --nodes 500 --eval hand --openings wide \
    --out "$tmp/w8.txt" 2>/dev/null
[ "$(wc -l <"$tmp/w8.txt")" = 8 ] && ok || bad "wide: $(wc -l <"$tmp/w8.txt") games, want 8"
while read -r result nopen moves; do
    [ "$nopen" -ge 3 ] && [ "$nopen" -le 8 ] && ok || bad "wide opening of $nopen stones"
done <"$tmp/w8.txt"

# The hand-set Renju tables (1820 classes: multisets of 13 line kinds): black's double
# three (class 294 = {open three, open three}, each with one open-four point; class 450:
# each with two) is worth nothing to black (forbidden), 40 + 40 + 120 to white, in both roles.
"$train" prior --rule renju --out "$tmp/prior.txt"
vals=$(tail -n +2 "$tmp/prior.txt" | tr -s ' \n' '\n\n')
at() { printf '%s\n' "$vals" | sed -n "$(($1 + 1))p"; }
[ "$(printf '%s\n' "$vals" | wc -l)" = 7288 ] && ok || bad "prior: $(printf '%s\n' "$vals" | wc -l) values, want 7288"
for k in 294 450; do
    [ "$(at $k)" = 0 ] && [ "$(at $((1820 + k)))" = 0 ] && ok || bad "black double three $k: $(at $k)"
    [ "$(at $((3640 + k)))" = 200 ] && [ "$(at $((5460 + k)))" = 200 ] && ok ||
        bad "white double three $k: $(at $((3640 + k)))"
done

# scale: the hand-set Renju table times 0.5: every value (--classes all: the tempo 10 and
# the four-three term 5000 too), or only the classes with no open three or more on a line (weak:
# {one} 2, {two} 10, {closed three} 8 halved; white's double three 200 and the terms kept),
# or only those with no two or more (space: {one} only).
expect_exit 2 "$train" scale --rule renju --factor 0.5
expect_exit 2 "$train" scale --rule renju "$tmp/prior.txt"
expect_exit 2 "$train" scale --rule renju --factor 0.5 --classes bogus "$tmp/prior.txt"
expect_exit 1 "$train" scale --rule renju --factor 0.5 "$tmp/missing.txt"
for c in all weak space; do
    "$train" scale --rule renju --factor 0.5 --classes $c --out "$tmp/s-$c.txt" "$tmp/prior.txt"
    svals=$(tail -n +2 "$tmp/s-$c.txt" | tr -s ' \n' '\n\n')
    sat() { printf '%s\n' "$svals" | sed -n "$(($1 + 1))p"; }
    got="$(sat 1) $(sat 15) $(sat 126) $(sat $((3640 + 294))) $(sat $((5460 + 294))) $(sat 7280) $(sat 7281)"
    case $c in
    all) want="1 5 4 100 100 5 2500" ;;
    weak) want="1 5 4 200 200 10 5000" ;;
    space) want="1 10 8 200 200 10 5000" ;;
    esac
    [ "$got" = "$want" ] && ok || bad "scale --classes $c: $got, want $want"
done

# --classes threats --role waiting: only the waiting side's open-four points (class 715,
# {open four}: 400) and four-three points (class 579, {four, open three}: 36 + 40 + 300),
# of either colour; the side to move's and the double three (class 294) kept.
expect_exit 2 "$train" scale --rule renju --factor 0.5 --role bogus "$tmp/prior.txt"
"$train" scale --rule renju --factor 0.5 --classes threats --role waiting --out "$tmp/s-tw.txt" \
    "$tmp/prior.txt"
svals=$(tail -n +2 "$tmp/s-tw.txt" | tr -s ' \n' '\n\n')
got=""
for i in 715 $((1820 + 715)) $((3640 + 715)) $((5460 + 715)) 579 $((1820 + 579)) $((5460 + 579)) \
    $((5460 + 294)) 7281; do got="$got $(sat $i)"; done
[ "$got" = " 400 200 400 200 376 188 188 200 5000" ] && ok || bad "scale --classes threats --role waiting:$got"

# The twos, the open-four points and the threat terms: class 5 is {closed two} (3), 15 {two}
# (10), 1 {one} (2), 126 {closed three} (8), 715 {open four} (400), 579 {four, open three}
# (376); 7280-7283 black's tempo and terms (10, 5000, 2000, 300). Halves round away from 0.
for c in twos closed-twos open-twos open-four terms strong; do
    "$train" scale --rule renju --factor 0.5 --classes $c --out "$tmp/s-$c.txt" "$tmp/prior.txt"
    svals=$(tail -n +2 "$tmp/s-$c.txt" | tr -s ' \n' '\n\n')
    got=""
    for i in 5 15 1 126 715 $((5460 + 715)) 579 7280 7281 7282 7283; do got="$got $(sat $i)"; done
    case $c in
    twos) want=" 2 5 2 8 400 400 376 10 5000 2000 300" ;;
    closed-twos) want=" 2 10 2 8 400 400 376 10 5000 2000 300" ;;
    open-twos) want=" 3 5 2 8 400 400 376 10 5000 2000 300" ;;
    open-four) want=" 3 10 2 8 200 200 376 10 5000 2000 300" ;;
    terms) want=" 3 10 2 8 400 400 376 10 2500 1000 150" ;;
    strong) want=" 3 10 2 8 200 200 188 10 5000 2000 300" ;;
    esac
    [ "$got" = "$want" ] && ok || bad "scale --classes $c:$got, want$want"
done

# closed-threes: the classes whose strongest line is a closed three (126 {closed three}: 8);
# open-threes: one open three and no four (210 {open three} and 330, its other kind: 40; 212
# {open three, one, one}: 44); neither takes a two (15: 10), a four (495: 36) or white's
# double three (3640 + 294: 200).
for c in closed-threes open-threes; do
    "$train" scale --rule renju --factor 0.5 --classes $c --out "$tmp/s-$c.txt" "$tmp/prior.txt"
    svals=$(tail -n +2 "$tmp/s-$c.txt" | tr -s ' \n' '\n\n')
    got=""
    for i in 126 $((5460 + 126)) 210 330 $((3640 + 212)) 15 495 $((3640 + 294)) 7281; do got="$got $(sat $i)"; done
    case $c in
    closed-threes) want=" 4 4 40 40 44 10 36 200 5000" ;;
    open-threes) want=" 8 8 20 20 22 10 36 200 5000" ;;
    esac
    [ "$got" = "$want" ] && ok || bad "scale --classes $c:$got, want$want"
done

# --from hand: the selected classes take the hand-set values (times F), here onto the table
# halved everywhere (s-all: {two} 5, {closed two} 2, tempo 5, terms 2500 / 1000 / 150): the
# open twos back to 10, the rest as they were; the threat terms from the hand-set table too
# unless --keep-terms; "hand" is the table prior writes.
"$train" scale --rule renju --factor 1 --classes open-twos --from hand --keep-terms \
    --out "$tmp/s-oth.txt" "$tmp/s-all.txt"
svals=$(tail -n +2 "$tmp/s-oth.txt" | tr -s ' \n' '\n\n')
got=""
for i in 5 15 $((5460 + 15)) 1 7280 7281 7282 7283; do got="$got $(sat $i)"; done
[ "$got" = " 2 10 10 1 5 2500 1000 150" ] && ok || bad "scale --from hand --keep-terms:$got"
"$train" scale --rule renju --factor 1 --classes open-twos --from hand --out "$tmp/s-oth2.txt" \
    "$tmp/s-all.txt"
svals=$(tail -n +2 "$tmp/s-oth2.txt" | tr -s ' \n' '\n\n')
got=""
for i in 5 15 7280 7281 7282 7283; do got="$got $(sat $i)"; done
[ "$got" = " 2 10 5 5000 2000 300" ] && ok || bad "scale --from hand:$got"
"$train" scale --rule renju --factor 1 --classes open-twos --from "$tmp/prior.txt" \
    --out "$tmp/s-oth3.txt" "$tmp/s-all.txt"
cmp -s "$tmp/s-oth2.txt" "$tmp/s-oth3.txt" && ok || bad "scale --from hand is not prior's table"

# A table file as the evaluation: the hand-set one written by prior plays the same
# games as --eval hand.
"$train" selfplay --rule renju --games 6 --seed 5 --nodes 1500 --eval "table:$tmp/prior.txt" \
    --out "$tmp/rt.txt" 2>/dev/null
cmp -s "$tmp/r5-1.txt" "$tmp/rt.txt" && ok || bad "--eval table:prior differs from --eval hand"
expect_exit 1 "$train" selfplay --rule renju --games 1 --seed 5 --eval "table:$tmp/missing.txt"

# relabel: each position searched again; at the games' own nodes and tables the searches are
# the games' own (the same file back), deeper ones keep the moves and results and change
# the scores; a game with an occupied point is refused.
expect_exit 2 "$train" relabel --rule renju
"$train" relabel --rule renju --nodes 1500 --eval hand --out "$tmp/rl15.txt" "$tmp/r5-1.txt" 2>/dev/null
cmp -s "$tmp/r5-1.txt" "$tmp/rl15.txt" && ok || bad "relabel at the games' own nodes changed the file"
"$train" relabel --rule renju --nodes 6000 --eval hand --out "$tmp/rl60.txt" "$tmp/r5-1.txt" 2>/dev/null
nosc() { sed -E 's/(,-?[0-9]+),-?[0-9]+/\1/g' "$1"; }
[ -s "$tmp/rl60.txt" ] && [ "$(nosc "$tmp/rl60.txt")" = "$(nosc "$tmp/r5-1.txt")" ] && ok ||
    bad "relabel changed the moves or results"
! cmp -s "$tmp/r5-1.txt" "$tmp/rl60.txt" && ok || bad "relabel at 6000 nodes changed no score"
printf '1 3 7,7,0 7,7,0\n' >"$tmp/dup0.txt"
expect_exit 1 "$train" relabel --rule renju --out "$tmp/rlx.txt" "$tmp/dup0.txt"

# versus: the same tables on both sides play each opening's two games alike, so each
# side wins one of them: exactly 50%.
expect_exit 2 "$train" versus --rule renju --games 4 --seed 1
"$train" versus --rule renju --games 6 --seed 3 --nodes 800 --eval hand --against "table:$tmp/prior.txt" \
    >"$tmp/vs.txt" 2>/dev/null
grep -Eq '^versus: 6 games, \+[0-9]+ =[0-9]+ -[0-9]+, score 50\.0% ' "$tmp/vs.txt" && ok || bad "versus of equal tables: $(cat "$tmp/vs.txt")"

# A fit of those games, emitted with the prior for the other rules, compiles.
"$train" fit --rule renju --iters 5 --out "$tmp/renju.fit" "$tmp/r5-1.txt" "$tmp/r6-3.txt" 2>"$tmp/fit.log"
[ -s "$tmp/renju.fit" ] && grep -q "held out" "$tmp/fit.log" && ok || bad "fit: $(cat "$tmp/fit.log")"
# --blend-plies P: the blend only in the positions of fewer than P stones, the later ones'
# target the search's score: with P = 3 no position after a three-stone opening is blended
# (the fit of --blend 0), with 225 every one (the fit without the option); a cut inside the
# games fits something else.
for v in "b0 --blend 0" "p3 --blend 0.5 --blend-plies 3" "b5 --blend 0.5" \
    "p225 --blend 0.5 --blend-plies 225" "p12 --blend 0.5 --blend-plies 12"; do
    set -- $v
    tag=$1
    shift
    "$train" fit --rule renju --iters 3 "$@" --out "$tmp/bp-$tag.fit" "$tmp/r5-1.txt" 2>/dev/null
done
[ -s "$tmp/bp-b0.fit" ] && cmp -s "$tmp/bp-b0.fit" "$tmp/bp-p3.fit" && ok || bad "--blend-plies 3 is not --blend 0"
[ -s "$tmp/bp-b5.fit" ] && cmp -s "$tmp/bp-b5.fit" "$tmp/bp-p225.fit" && ok || bad "--blend-plies 225 is not the whole blend"
! cmp -s "$tmp/bp-p12.fit" "$tmp/bp-b0.fit" && ! cmp -s "$tmp/bp-p12.fit" "$tmp/bp-b5.fit" && ok ||
    bad "--blend-plies 12 fits the same as no blend or the whole blend"
expect_exit 2 "$train" fit --rule renju --blend-plies 226 "$tmp/r5-1.txt"
# --prior table:FILE is the penalty's centre and the fit's starting point: with no Newton
# step the fit writes the prior's values back (the table just fitted as the prior here);
# the default prior is the hand-set tables.
"$train" fit --rule renju --iters 0 --prior "table:$tmp/renju.fit" --out "$tmp/back.fit" \
    "$tmp/r5-1.txt" 2>/dev/null
[ "$(tail -n +2 "$tmp/back.fit")" = "$(tail -n +2 "$tmp/renju.fit")" ] && ok ||
    bad "fit --prior table: with no step the values moved"
"$train" fit --rule renju --iters 0 --out "$tmp/back2.fit" "$tmp/r5-1.txt" 2>/dev/null
[ "$(tail -n +2 "$tmp/back2.fit")" = "$(tail -n +2 "$tmp/prior.txt")" ] && ok ||
    bad "fit with no step is not the hand-set table"
# --prior fitted: the built-in tables, written back unchanged with no step: as the engine's
# evaluation they play the built-in tables' games.
"$train" fit --rule renju --iters 0 --prior fitted --out "$tmp/back3.fit" "$tmp/r5-1.txt" 2>/dev/null
"$train" selfplay --rule renju --games 4 --seed 7 --nodes 1500 --out "$tmp/rf.txt" 2>/dev/null
"$train" selfplay --rule renju --games 4 --seed 7 --nodes 1500 --eval "table:$tmp/back3.fit" \
    --out "$tmp/rf3.txt" 2>/dev/null
[ -s "$tmp/rf.txt" ] && cmp -s "$tmp/rf.txt" "$tmp/rf3.txt" && ok ||
    bad "fit --prior fitted with no step does not play as the built-in tables"
! cmp -s "$tmp/back3.fit" "$tmp/back2.fit" && ok || bad "fit --prior fitted gave the hand-set tables"
expect_exit 2 "$train" fit --rule renju --prior bogus "$tmp/r5-1.txt"
expect_exit 2 "$train" fit --rule renju --fit-classes bogus "$tmp/r5-1.txt"
# --fit-classes strong: only the strong classes and the threat terms move (the fitted table
# put on the prior by scale --from is the fitted table itself), some of them do move, and
# the open-four point (class 715) stays at least the four-three point (579) in each
# colour and role.
"$train" fit --rule renju --iters 5 --fit-classes strong --out "$tmp/strong.fit" "$tmp/r5-1.txt" \
    "$tmp/r6-3.txt" 2>/dev/null
"$train" scale --rule renju --factor 1 --classes strong --from "$tmp/strong.fit" \
    --out "$tmp/strong2.fit" "$tmp/prior.txt"
cmp -s "$tmp/strong.fit" "$tmp/strong2.fit" && ok || bad "fit --fit-classes strong moved other values"
! cmp -s "$tmp/strong.fit" "$tmp/prior.txt" && ok || bad "fit --fit-classes strong moved nothing"
svals=$(tail -n +2 "$tmp/strong.fit" | tr -s ' \n' '\n\n')
for b in 0 1820 3640 5460; do
    [ "$(sat $((b + 715)))" -ge "$(sat $((b + 579)))" ] && ok ||
        bad "fit --fit-classes strong: open four $(sat $((b + 715))) below four-three $(sat $((b + 579)))"
done
expect_exit 1 "$train" fit --rule renju --prior "table:$tmp/missing.txt" "$tmp/r5-1.txt"
"$train" prior --rule freestyle --out "$tmp/f.txt" && "$train" prior --rule standard --out "$tmp/s.txt"
expect_exit 0 "$train" emit --out "$tmp/w.c" "$tmp/f.txt" "$tmp/s.txt" "$tmp/renju.fit"
if "${CC:-cc}" -std=c11 -Wall -Werror -fsyntax-only -I"$RV_SOURCE_DIR/include" -I"$RV_SOURCE_DIR/src" "$tmp/w.c" 2>"$tmp/cc.err"; then ok; else bad "emitted table does not compile: $(head -3 "$tmp/cc.err")"; fi

# Bad input: a file that is not games, a table with a value missing.
printf 'hello\n' >"$tmp/bad.txt"
expect_exit 1 "$train" fit --rule renju "$tmp/bad.txt"
grep -q "bad.txt:1" "$tmp/err" && ok || bad "fit error does not name the line: $(cat "$tmp/err")"
printf '1 3 7,7,0 7,7,0\n' >"$tmp/dup.txt"
expect_exit 1 "$train" fit --rule renju "$tmp/dup.txt"
head -c 100 "$tmp/prior.txt" >"$tmp/short.txt"
expect_exit 1 "$train" emit --out "$tmp/w2.c" "$tmp/f.txt" "$tmp/s.txt" "$tmp/short.txt"
expect_exit 1 "$train" fit --rule renju "$tmp/missing.txt"

# Move scores: a fit of the same games with its held-out hit rates, emitted for all three
# rules, compiles; the engine takes the table (and the hand-set order) with --moves.
expect_exit 2 "$train" movefit --rule renju
expect_exit 2 "$train" emit-moves --out "$tmp/m.c" a b
"$train" movefit --rule renju --iters 3 --out "$tmp/renju.moves" "$tmp/r5-1.txt" "$tmp/r6-3.txt" 2>"$tmp/mfit.log"
[ -s "$tmp/renju.moves" ] && grep -Eq "played move in the first 1/3/6/12: [0-9.]+/" "$tmp/mfit.log" && ok || bad "movefit: $(cat "$tmp/mfit.log")"
[ "$(tail -n +2 "$tmp/renju.moves" | wc -w)" = $((4 * 1820 + 2 * 49)) ] && ok || bad "movefit: $(tail -n +2 "$tmp/renju.moves" | wc -w) values"
expect_exit 0 "$train" emit-moves --out "$tmp/m.c" "$tmp/renju.moves" "$tmp/renju.moves" "$tmp/renju.moves"
if "${CC:-cc}" -std=c11 -Wall -Werror -fsyntax-only -I"$RV_SOURCE_DIR/include" -I"$RV_SOURCE_DIR/src" "$tmp/m.c" 2>"$tmp/cc.err"; then ok; else bad "emitted move scores do not compile: $(head -3 "$tmp/cc.err")"; fi
expect_exit 2 "$train" selfplay --rule renju --games 1 --seed 5 --moves magic
expect_exit 1 "$train" selfplay --rule renju --games 1 --seed 5 --moves "table:$tmp/missing.txt"
"$train" selfplay --rule renju --games 2 --seed 5 --nodes 1500 --moves "table:$tmp/renju.moves" \
    --out "$tmp/rm.txt" 2>/dev/null
[ "$(wc -l <"$tmp/rm.txt")" = 2 ] && ok || bad "selfplay --moves table: $(wc -l <"$tmp/rm.txt") games"


# --role-l2: the two roles of a class fitted as their mean and their difference. With no
# step the prior comes back unchanged; with a mean penalty that holds the means (--l2 1e9)
# every class keeps the sum of its two roles' values (to rounding), the classes outside
# --role-classes quiet keep both values (the open four, class 715; white's double three,
# 3640 + 294), and some quiet class's roles move apart.
expect_exit 2 "$train" fit --rule renju --role-l2 1 --role-classes bogus "$tmp/r5-1.txt"
"$train" fit --rule renju --iters 0 --role-l2 1 --prior "table:$tmp/renju.fit" --out "$tmp/rl0.fit" \
    "$tmp/r5-1.txt" 2>/dev/null
[ "$(tail -n +2 "$tmp/rl0.fit")" = "$(tail -n +2 "$tmp/renju.fit")" ] && ok ||
    bad "fit --role-l2 with no step: the values moved"
"$train" fit --rule renju --iters 5 --l2 1e9 --role-l2 0.1 --role-classes quiet --prior "table:$tmp/prior.txt" \
    --out "$tmp/rl.fit" "$tmp/r5-1.txt" "$tmp/r6-3.txt" 2>/dev/null
rvals=$(tail -n +2 "$tmp/rl.fit" | tr -s ' \n' '\n\n')
printf '%s\n' "$vals" >"$tmp/pv.txt"
printf '%s\n' "$rvals" >"$tmp/rv.txt"
paste "$tmp/pv.txt" "$tmp/rv.txt" | awk -v n=1820 '
    { p[NR - 1] = $1; r[NR - 1] = $2 }
    END {
        bad = 0; moved = 0
        for (c = 0; c < 2; c++) for (k = 0; k < n; k++) {
            a = (2 * c) * n + k; b = a + n
            d = (r[a] + r[b]) - (p[a] + p[b]); if (d < -1 || d > 1) bad++
            if (r[a] - r[b] != p[a] - p[b]) moved++
        }
        for (i = 0; i < 4; i++) if (r[i * n + 715] != p[i * n + 715]) bad++
        if (r[3640 + 294] != p[3640 + 294] || r[5460 + 294] != p[5460 + 294]) bad++
        print bad, moved
    }' >"$tmp/rl.chk"
read -r nbad nmoved <"$tmp/rl.chk"
[ "$nbad" = 0 ] && [ "$nmoved" -gt 0 ] && ok || bad "fit --role-l2: $nbad values off, $nmoved classes' roles moved"
finish
