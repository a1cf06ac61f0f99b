#!/usr/bin/env python3
"""A Gomocup match against a peer brain with the c-gomoku-cli referee (BENCHMARKS.md, "against Rapfi").

    gomocup_ref.py BRAIN PEER CLI --rule R --out PREFIX [--games N] [--tc SECONDS]

Plays BRAIN (a Gomocup brain's command, e.g. build/pbrain-renversi) against PEER (another
brain, e.g. ../peers/bin/pbrain-rapfi) with the referee CLI (c-gomoku-cli), as the issues'
figures were taken: 15x15, the 26 classical three-stone openings (bench/gomoku-openings26.txt)
in order, each with both colours (`-repeat`), a fixed time a move and no game clock
(`-each tc=0/SECONDS`), one game at a time, a draw after 225 moves. The referee's log goes to
PREFIX.log and the games to PREFIX.sgf; then, from the SGF records (which carry each move's
time), one summary line:

    BRAIN +W =D -L of N, P% (as black B of Nb, as white W of Nw); time a move BRAIN / PEER:
    mean A / A2 ms, on moves of 20 ms or more M / M2 ms, longest X / X2 ms

--summary PREFIX.sgf prints that line for an earlier run without playing. The peers are built
outside this repository for measurement only (../shared/peers.md describes how).
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RULES = {"freestyle": 0, "standard": 1, "renju": 4}


def games(path):
    """Yields (black name, white name, result 'B'/'W'/'D', [(colour, ms)...]) per SGF game."""
    text = open(path, encoding="utf-8", errors="replace").read()
    for g in re.split(r"\(;", text)[1:]:
        pb = re.search(r"PB\[([^\]]*)\]", g)
        pw = re.search(r"PW\[([^\]]*)\]", g)
        re_ = re.search(r"RE\[([^\]]*)\]", g)
        if not (pb and pw and re_):
            continue
        r = re_.group(1)
        res = "B" if r.startswith("B+") else "W" if r.startswith("W+") else "D"
        times = [(c, int(ms)) for c, ms in re.findall(r";([BW])\[[a-z]*\]C\[(\d+)ms\]", g)]
        yield pb.group(1), pw.group(1), res, times


def summary(path, name):
    w = d = l = bw = bn = ww = wn = 0
    mine, theirs = [], []
    for pb, pw, res, times in games(path):
        col = "B" if pb == name else "W" if pw == name else None
        if col is None:
            continue
        if col == "B":
            bn += 1
        else:
            wn += 1
        if res == "D":
            d += 1
        elif res == col:
            w += 1
            if col == "B":
                bw += 1
            else:
                ww += 1
        else:
            l += 1
        for c, ms in times:
            (mine if c == col else theirs).append(ms)
    n = w + d + l
    if n == 0:
        return "%s: no games of %s in %s" % (os.path.basename(sys.argv[0]), name, path)

    def st(t):
        big = [x for x in t if x >= 20]
        mean = sum(t) / len(t) if t else 0
        bmean = sum(big) / len(big) if big else 0
        return mean, bmean, max(t) if t else 0

    a, b = st(mine), st(theirs)
    return ("%s +%d =%d -%d of %d, %.1f%% (as black %d of %d, as white %d of %d); time a move "
            "%s / peer: mean %.0f / %.0f ms, on moves of 20 ms or more %.0f / %.0f ms, "
            "longest %d / %d ms" % (name, w, d, l, n, 100.0 * (w + 0.5 * d) / n, bw, bn, ww, wn,
                                     name, a[0], b[0], a[1], b[1], a[2], b[2]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("brain", nargs="?", help="the brain measured (a command)")
    ap.add_argument("peer", nargs="?", help="the peer brain (a command)")
    ap.add_argument("cli", nargs="?", help="the c-gomoku-cli referee")
    ap.add_argument("--rule", choices=sorted(RULES), default="freestyle")
    ap.add_argument("--out", help="PREFIX of PREFIX.log and PREFIX.sgf")
    ap.add_argument("--games", type=int, default=52, help="games (default 52: 26 openings x 2)")
    ap.add_argument("--tc", type=float, default=0.3, help="seconds a move (default 0.3)")
    ap.add_argument("--name", default="renversi", help="BRAIN's name in the records")
    ap.add_argument("--summary", metavar="SGF", help="only summarise an earlier run's records")
    a = ap.parse_args()
    if a.summary:
        if not os.path.isfile(a.summary):
            sys.exit("gomocup_ref.py: %s: no such file" % a.summary)
        print(summary(a.summary, a.name))
        return
    if not (a.brain and a.peer and a.cli and a.out):
        ap.error("BRAIN, PEER, CLI and --out are needed (or --summary SGF)")
    if a.games < 1 or a.tc <= 0:
        ap.error("--games must be at least 1 and --tc above 0")
    if not os.access(a.cli, os.X_OK):
        sys.exit("gomocup_ref.py: CLI %s is not an executable file" % a.cli)
    cmd = [os.path.abspath(a.cli), "-each", "tc=0/%g" % a.tc,
           "-engine", "name=%s" % a.name, "cmd=%s" % a.brain,
           "-engine", "name=peer", "cmd=%s" % a.peer,
           "-rule", str(RULES[a.rule]), "-boardsize", "15", "-games", str(a.games), "-repeat",
           "-drawafter", "225", "-sgf", os.path.abspath(a.out + ".sgf"),
           "-openings", "file=%s" % os.path.join(HERE, "gomoku-openings26.txt"),
           "order=sequential"]
    with open(a.out + ".log", "w") as log:
        rc = subprocess.call(cmd, stdout=log, stderr=subprocess.STDOUT)
    if rc != 0:
        sys.exit("gomocup_ref.py: the referee exited with status %d (see %s.log)" % (rc, a.out))
    print(summary(a.out + ".sgf", a.name))


if __name__ == "__main__":
    main()
