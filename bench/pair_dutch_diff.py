"""Dutch system: the pairings of two builds side by side on generated events, round by round
(a differential check of a change that must keep every pairing).  Prints the first round that
differs, if any, and a count.

    /usr/bin/python3 bench/pair_dutch_diff.py OTHER_BUILD/tiebreak [--events 40] [--seed 1]
        [--sizes 20 300] [--rounds 7] [--players N ...]

Each event: N players (N drawn from --sizes, or each of --players), ratings drawn at random,
paired by pairings(1, 'dutch(rounds=R)') with both extensions; the round is entered from the
first build's pairing with results drawn at random (wins, draws, losses).
"""
import argparse
import random
import sqlite3
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def connect(ext):
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(ext)
    conn.enable_load_extension(False)
    conn.execute("CREATE TABLE players (event_id, player, rating)")
    conn.execute("CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, "
                 "draws, result)")
    return conn


def event(exts, n, rounds, rng):
    conns = [connect(e) for e in exts]
    ratings = [(i, rng.randint(1000, 2800)) for i in range(1, n + 1)]
    for c in conns:
        c.executemany("INSERT INTO players VALUES (1, ?, ?)", ratings)
    spec = f"dutch(rounds={rounds})"
    for r in range(1, rounds + 1):
        got = []
        for c in conns:
            try:
                got.append(c.execute("SELECT round, player_a, player_b FROM pairings(1, ?)",
                                     (spec,)).fetchall())
            except sqlite3.Error as e:
                got.append(str(e))
        if got[0] != got[1]:
            return r, got
        if isinstance(got[0], str):
            return None
        rows = []
        for rr, a, b in got[0]:
            if b is None:
                rows.append((rr, a, None, 1, 0, 0, "a"))
            else:
                x = rng.random()
                res = (1, 0, 0) if x < 0.4 else (0, 1, 0) if x < 0.75 else (0, 0, 1)
                rows.append((rr, a, b) + res + (None,))
        for c in conns:
            c.executemany("INSERT INTO matches VALUES (1, ?, ?, ?, ?, ?, ?, ?)", rows)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("other")
    ap.add_argument("--mine", default=str(REPO / "build" / "tiebreak"))
    ap.add_argument("--events", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sizes", type=int, nargs=2, default=[20, 300])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--players", type=int, nargs="*")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    sizes = args.players or [rng.randint(*args.sizes) for _ in range(args.events)]
    nRounds = nDiff = 0
    for n in sizes:
        d = event([args.mine, args.other], n, args.rounds, rng)
        nRounds += args.rounds
        if d:
            nDiff += 1
            print(f"{n} players: round {d[0]} differs", flush=True)
        else:
            print(f"{n} players: {args.rounds} rounds identical", flush=True)
    print(f"total: {len(sizes)} events, {nDiff} differ")
    sys.exit(1 if nDiff else 0)


if __name__ == "__main__":
    main()
