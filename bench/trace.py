#!/usr/bin/env python3
"""Where the slow moves of a load test spent their time.

    bench/trace.py LOAD_TRACE_FILE SERVER_TRACE_FILE... [--slow MS]

Joins bench/load.c's record of each measured move (LOAD_TRACE: room, ply, first sending,
reading of the state with it) with the servers' RV_SERVE_TRACE lines (src/server/trace.c),
all on CLOCK_MONOTONIC, and splits each move's round trip into stages:

  in      sent by the client -> its message reaches the server's handler (client socket,
          relay thread, libwebsockets)
  wait    -> handed to the store worker (the message waited for the room's previous job)
  queue   -> the store worker sends the commit (its queue, a batch in progress)
  commit  -> the database answered (PostgreSQL: lock, check, write, NOTIFY, COMMIT)
  wake    -> the network thread has the answer
  out     -> the client read the state (building and queueing the state, libwebsockets'
          write, the relay thread, the client's socket)

It prints the stages' percentiles over all moves and their means over the slow ones
(round trip above --slow, default 50 ms), and when the slow moves happened (one line per
100 ms window holding any), which tells a stall of everything from a slow single path.
"""
import collections
import sys


def pctl(v, p):
    if not v:
        return 0.0
    v = sorted(v)
    return v[min(len(v) - 1, len(v) * p // 100)]


def main():
    args = sys.argv[1:]
    slow = 50.0
    if "--slow" in args:
        i = args.index("--slow")
        slow = float(args[i + 1])
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    moves = []
    with open(args[0]) as f:
        for line in f:
            w = line.split()
            if len(w) == 5:
                moves.append((w[0], int(w[1]), int(w[2]), int(w[3]), int(w[4])))
    sub = collections.defaultdict(list)   # (room, keep) -> [(t, rx, game)]
    c0, c1 = {}, {}                        # (game, keep) -> t (first)
    done = collections.defaultdict(list)  # (room, keep) -> [t]
    batch = {}
    for path in args[1:]:
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) < 3:
                    continue
                st, t = w[0], int(w[1])
                if st == "sub" and len(w) >= 6:
                    sub[(w[2], int(w[4]))].append((t, int(w[5]), w[3]))
                elif st == "c0" and len(w) >= 5:
                    c0.setdefault((w[2], int(w[3])), t)
                    batch.setdefault((w[2], int(w[3])), int(w[4]))
                elif st == "c1" and len(w) >= 4:
                    c1.setdefault((w[2], int(w[3])), t)
                elif st == "done" and len(w) >= 4:
                    done[(w[2], int(w[3]))].append(t)
    names = ["in", "wait", "queue", "commit", "wake", "out"]
    rows = []
    for room, ply, sent, read, resends in moves:
        cand = [x for x in sub.get((room, ply), []) if x[0] >= sent]
        if not cand:
            continue
        ts, rx, game = min(cand)
        a, b = c0.get((game, ply)), c1.get((game, ply))
        d = [x for x in done.get((room, ply), []) if x >= ts]
        if a is None or b is None or not d or not rx:
            continue
        st = [rx - sent, ts - rx, a - ts, b - a, min(d) - b, read - min(d)]
        rows.append(((read - sent) / 1e6, [x / 1e6 for x in st], sent, batch.get((game, ply), 1), resends))
    if not rows:
        sys.exit("trace.py: no move could be joined (were RV_SERVE_TRACE and LOAD_TRACE set?)")
    print(f"{len(rows)} of {len(moves)} moves joined")
    print("stage     p50 ms   p99 ms   max ms   mean over slow moves (> %.0f ms)" % slow)
    slow_rows = [r for r in rows if r[0] > slow]
    for k, name in enumerate(names):
        v = [r[1][k] for r in rows]
        m = sum(r[1][k] for r in slow_rows) / len(slow_rows) if slow_rows else 0
        print(f"{name:8} {pctl(v, 50):7.2f} {pctl(v, 99):8.2f} {max(v):8.2f}   {m:8.2f}")
    rt = [r[0] for r in rows]
    print(f"{'total':8} {pctl(rt, 50):7.2f} {pctl(rt, 99):8.2f} {max(rt):8.2f}   "
          f"{(sum(r[0] for r in slow_rows) / len(slow_rows)) if slow_rows else 0:8.2f}")
    print(f"{len(slow_rows)} slow moves ({100.0 * len(slow_rows) / len(rows):.2f}%); their largest stage: " +
          ", ".join(f"{n} {c}" for n, c in collections.Counter(
              names[max(range(6), key=lambda k: r[1][k])] for r in slow_rows).most_common()))
    if slow_rows:
        t0 = min(r[2] for r in rows)
        win = collections.Counter((r[2] - t0) // 100000000 for r in slow_rows)
        allw = collections.Counter((r[2] - t0) // 100000000 for r in rows)
        print("100 ms windows with slow moves (start s: slow/all moves sent in it):")
        print("  " + "  ".join(f"{w / 10:.1f}:{win[w]}/{allw[w]}" for w in sorted(win)))


if __name__ == "__main__":
    main()
