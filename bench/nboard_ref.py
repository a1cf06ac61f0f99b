#!/usr/bin/env python3
"""An NBoard referee for Othello engines, charging CPU time (BENCHMARKS.md, "against NTest").

    nboard_ref.py OPENINGS NAME_A SETTING_A CMD_A NAME_B SETTING_B CMD_B [options]

Each opening (a line of moves such as f5d6c3d3, '#' starts a comment) is played twice, engine A
taking black in the first game and white in the second. One engine thinks at a time: for every
move the referee sends the whole game so far with `set game`, then `ping`/`pong`, then `go`, and
charges the engine with the CPU time its process used between `go` and `===` (utime+stime from
/proc/PID/stat, all threads), so a busy machine slows both sides alike without changing what
each side gets. Passes are played by the referee.

SETTING is `N` (1..60: `set depth N` once, at start) or `cS` (a game clock of S seconds of CPU:
every `set game` carries `TI[S]` and this engine's earlier moves with their CPU times,
`B[F5//0.35]`, so an engine such as `renversi nboard --cpu-time` plans its time against the CPU
it really used), or `tMS` (`set time MS` per move, wall clock, once at start).

Results: one line per game on standard output, then the score of engine A with its 95% margin
(1.96 standard deviations of the per-game points over the square root of the games), the average
disc difference, and the CPU seconds of each side with their ratio. An illegal move, a crash, or
no answer within --move-timeout seconds loses the game (the engine is restarted). A clock engine
that used more than its clock is reported as an overrun; with --forfeit it loses that game.
"""
import argparse
import math
import os
import select
import shlex
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def sq_name(i):
    return "ABCDEFGH"[i % 8] + str(i // 8 + 1)


def sq_parse(s):
    s = s.strip().upper()
    if len(s) != 2 or s[0] not in "ABCDEFGH" or s[1] not in "12345678":
        raise ValueError("bad square '%s'" % s)
    return (int(s[1]) - 1) * 8 + "ABCDEFGH".index(s[0])


def flips(board, me, sq):
    """Squares flipped by `me` (1 black, 2 white) playing sq; [] if illegal."""
    if board[sq]:
        return []
    out = []
    r0, c0 = divmod(sq, 8)
    for dr, dc in DIRS:
        r, c, run = r0 + dr, c0 + dc, []
        while 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == 3 - me:
            run.append(r * 8 + c)
            r, c = r + dr, c + dc
        if run and 0 <= r < 8 and 0 <= c < 8 and board[r * 8 + c] == me:
            out += run
    return out


def legal(board, me):
    return [s for s in range(64) if flips(board, me, s)]


def start_board():
    b = [0] * 64
    b[27] = b[36] = 2
    b[28] = b[35] = 1
    return b


class Engine:
    def __init__(self, name, setting, cmd, log):
        self.name, self.cmd, self.log = name, cmd, log
        self.depth = self.clock = self.ms = None
        if setting.startswith("c"):
            self.clock = float(setting[1:])
            if not self.clock > 0:
                raise ValueError("clock must be > 0 seconds")
        elif setting.startswith("t"):
            self.ms = int(setting[1:])
        else:
            self.depth = int(setting)
            if not 1 <= self.depth <= 60:
                raise ValueError("depth must be 1..60")
        self.proc = None
        self.pingno = 0
        self.cpu_total = 0.0
        self.moves = 0

    def start(self):
        self.proc = subprocess.Popen(shlex.split(self.cmd), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.buf = ""
        self.send("nboard 2")
        if self.depth:
            self.send("set depth %d" % self.depth)
        if self.ms is not None:
            self.send("set time %d" % self.ms)

    def stop(self):
        if self.proc:
            try:
                self.proc.kill()
                self.proc.wait(5)
            except Exception:
                pass
            self.proc = None

    def restart(self):
        self.stop()
        self.start()

    def send(self, line):
        if self.log:
            self.log.write("%s < %s\n" % (self.name, line))
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def readline(self, deadline):
        fd = self.proc.stdout.fileno()
        while "\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer in time")
            r, _, _ = select.select([fd], [], [], left)
            if r:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise EOFError("engine closed its output")
                self.buf += chunk.decode("utf-8", "replace")
        line, self.buf = self.buf.split("\n", 1)
        if self.log:
            self.log.write("%s > %s\n" % (self.name, line))
        return line.strip()

    def cpu(self):
        with open("/proc/%d/stat" % self.proc.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime

    def think(self, ggf, timeout):
        """Sends the game, returns (move text, eval text, cpu seconds, wall seconds)."""
        self.send("set game " + ggf)
        self.pingno += 1
        self.send("ping %d" % self.pingno)
        deadline = time.monotonic() + timeout
        while self.readline(deadline) != "pong %d" % self.pingno:
            pass
        c0, w0 = self.cpu(), time.monotonic()
        self.send("go")
        deadline = time.monotonic() + timeout
        while True:
            line = self.readline(deadline)
            if line.startswith("==="):
                break
        c1, w1 = self.cpu(), time.monotonic()
        parts = line[3:].strip().split("/")
        return parts[0], parts[1] if len(parts) > 1 and parts[1] else "?", c1 - c0, w1 - w0


def ggf_of(names, clocks, moves):
    """moves: (colour 1/2, square or None for a pass, seconds or None)."""
    head = "(;GM[Othello]PC[nboard_ref]PB[%s]PW[%s]" % names
    if clocks:
        head += "TI[%g]" % clocks
    head += "TY[8]BO[8 ---------------------------O*------*O--------------------------- *]"
    parts = []
    for colour, sq, secs in moves:
        mv = "PA" if sq is None else sq_name(sq)
        if secs is not None:
            mv += "//%.3f" % secs
        parts.append("%s[%s]" % ("B" if colour == 1 else "W", mv))
    return head + "".join(parts) + ";)"


def play(black, white, opening, args, movelog, gameno):
    board, me, moves = start_board(), 1, []
    for sq in opening:
        if not legal(board, me):
            moves.append((me, None, None))
            me = 3 - me
        f = flips(board, me, sq)
        if not f:
            raise ValueError("opening move %s is illegal" % sq_name(sq))
        for s in f + [sq]:
            board[s] = me
        moves.append((me, sq, None))
        me = 3 - me
    eng = {1: black, 2: white}
    used = {1: 0.0, 2: 0.0}
    clock = black.clock or white.clock
    forfeit, note = None, ""
    while True:
        mine = legal(board, me)
        if not mine:
            if not legal(board, 3 - me):
                break
            moves.append((me, None, None))
            me = 3 - me
            continue
        e = eng[me]
        ggf = ggf_of((black.name, white.name), clock,
                     [(c, s, t if eng[c].clock else None) for c, s, t in moves])
        try:
            text, ev, cpu, wall = e.think(ggf, args.move_timeout)
            sq = sq_parse(text)
            if sq not in mine:
                raise ValueError("illegal move %s" % text)
        except (TimeoutError, EOFError, ValueError, OSError) as err:
            forfeit, note = me, "%s: %s" % (e.name, err)
            e.restart()
            break
        e.cpu_total += cpu
        e.moves += 1
        used[me] += cpu
        if movelog:
            movelog.write("%d %d %s %s %.3f %.3f %d %s\n" %
                          (gameno, len(moves) + 1, e.name, sq_name(sq), cpu, wall,
                           board.count(0), ev))
        for s in flips(board, me, sq) + [sq]:
            board[s] = me
        moves.append((me, sq, cpu))
        me = 3 - me
    over = [c for c in (1, 2) if eng[c].clock and used[c] > eng[c].clock]
    if over and not forfeit:
        note = "overrun: " + ", ".join("%s %.2f s of %g" % (eng[c].name, used[c], eng[c].clock)
                                        for c in over)
        if args.forfeit:
            forfeit = over[0]
    nb, nw = board.count(1), board.count(2)
    empty = 64 - nb - nw
    diff = nb - nw + (empty if nb > nw else -empty if nw > nb else 0)
    if forfeit:
        diff = -64 if forfeit == 1 else 64
    final = ggf_of((black.name, white.name), clock, moves)
    return diff, used, note, final


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("openings")
    for who in ("a", "b"):
        ap.add_argument("name_" + who, metavar="NAME_" + who.upper())
        ap.add_argument("setting_" + who, metavar="SETTING_" + who.upper(),
                        help="N (depth), cS (CPU clock, seconds a game) or tMS (ms a move)")
        ap.add_argument("cmd_" + who, metavar="CMD_" + who.upper(),
                        help="the engine's command line, one argument")
    ap.add_argument("--first", type=int, default=0, help="play only the first K openings")
    ap.add_argument("--skip", type=int, default=0, help="skip the first K openings")
    ap.add_argument("--move-timeout", type=float, default=300.0,
                    help="wall seconds a move may take before it loses the game (300)")
    ap.add_argument("--forfeit", action="store_true",
                    help="a clock engine that used more than its clock loses the game")
    ap.add_argument("--log", help="write the protocol traffic here")
    ap.add_argument("--movelog", help="one line per move: game ply engine move cpu wall empties eval")
    ap.add_argument("--ggf", help="append every finished game here as GGF")
    args = ap.parse_args()

    openings = []
    with open(args.openings) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip().replace(" ", "")
            if not line:
                continue
            if len(line) % 2:
                sys.exit("%s:%d: a move list has pairs like f5d6, got '%s'" % (args.openings, n,
                                                                               line))
            try:
                openings.append([sq_parse(line[i:i + 2]) for i in range(0, len(line), 2)])
            except ValueError as err:
                sys.exit("%s:%d: %s" % (args.openings, n, err))
    openings = openings[args.skip:]
    if args.first:
        openings = openings[:args.first]
    if not openings:
        sys.exit("no openings to play")

    log = open(args.log, "w", buffering=1) if args.log else None
    movelog = open(args.movelog, "w", buffering=1) if args.movelog else None
    ggfout = open(args.ggf, "a", buffering=1) if args.ggf else None
    try:
        a = Engine(args.name_a, args.setting_a, args.cmd_a, log)
        b = Engine(args.name_b, args.setting_b, args.cmd_b, log)
    except ValueError as err:
        sys.exit("bad engine setting (want N for a depth 1..60, cS or tMS): %s" % err)
    try:
        a.start()
        b.start()
    except OSError as err:
        sys.exit("cannot start an engine: %s" % err)
    points, discs, wins, draws, losses = [], [], 0, 0, 0
    gameno = 0
    try:
        for k, op in enumerate(openings):
            for a_black in (True, False):
                gameno += 1
                black, white = (a, b) if a_black else (b, a)
                diff, used, note, final = play(black, white, op, args, movelog, gameno)
                d = diff if a_black else -diff
                p = 1.0 if d > 0 else 0.5 if d == 0 else 0.0
                wins += d > 0
                draws += d == 0
                losses += d < 0
                points.append(p)
                discs.append(d)
                if ggfout:
                    ggfout.write(final + "\n")
                print("game %d opening %d %s black: %s %+d  cpu %s %.2f s, %s %.2f s%s" %
                      (gameno, k + 1 + args.skip, black.name, a.name, d, black.name, used[1],
                       white.name, used[2], "  (" + note + ")" if note else ""), flush=True)
    finally:
        a.stop()
        b.stop()
    n = len(points)
    mean = sum(points) / n
    sd = math.sqrt(sum((p - mean) ** 2 for p in points) / (n - 1)) if n > 1 else 0.0
    ratio = a.cpu_total / b.cpu_total if b.cpu_total > 0 else float("inf")
    print("%s vs %s: +%d =%d -%d, %.1f%% +- %.1f (%d games), discs %+.1f a game" %
          (a.name, b.name, wins, draws, losses, 100 * mean, 196 * sd / math.sqrt(n), n,
           sum(discs) / n))
    print("cpu s %s : %s = %.1f : %.1f (%.2f), per move %.3f : %.3f" %
          (a.name, b.name, a.cpu_total, b.cpu_total, ratio, a.cpu_total / max(a.moves, 1),
           b.cpu_total / max(b.moves, 1)))


if __name__ == "__main__":
    main()
