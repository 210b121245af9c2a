"""Dutch system through pairings(): CPU seconds and peak memory of the first rounds of a
generated event as the players grow, to set the largest round it takes (DUTCH_MAX_PLAYERS in
ext/pair/dutch.c).  Nothing asserts a time.

    /usr/bin/python3 bench/pair_dutch_size.py 1000 2000 3000 [--rounds 2]

    /usr/bin/python3 bench/pair_dutch_size.py 1000 --rounds 9 --drawn 1

Players 1..N, rated by number; each round paired by pairings(1, 'dutch(rounds=9)') and
entered (the lower sum of ids and round modulo 3 loses, a pattern: no draws).  --drawn SEED
draws the results instead, as a chess event has them: ratings from 2700 down to 1200 with a
little noise, the expected score by the Elo formula, 30 % draws (more score groups, wider
weights).  Times are the process's CPU seconds of the pairings() call (wall time on a shared
machine counts the other work); peak is the process's maximum resident memory after the round.
"""
import argparse
import os
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True
from run import connect  # noqa: E402

# TIEBREAK_EXT overrides the extension, as in the tests (no suffix)
EXT = os.environ.get("TIEBREAK_EXT",
                     str(Path(__file__).resolve().parent.parent / "build" / "tiebreak"))


def open_connection():
    return connect(":memory:", EXT)


def drawn_result(rng, rating, r, a, b):
    """A row of round r for a drawn game of a (White) and b, or a's bye."""
    if b is None:
        return (r, a, None, 0, 0, 0, "a")
    expected = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
    x = rng.random()
    if x < expected - 0.15:
        return (r, a, b, 1, 0, 0, None)
    if x < expected + 0.15:
        return (r, a, b, 0, 0, 1, None)
    return (r, a, b, 0, 1, 0, None)


def pattern_result(r, a, b):
    """The pattern's row: the lower sum of ids and round modulo 3 loses."""
    return (r, a, b, 1 if b is not None and (a + b + r) % 3 else 0,
            0 if b is None or (a + b + r) % 3 else 1, 0, None if b else "a")


def measure(n, rounds, drawn=None):
    conn = open_connection()
    rng = random.Random(drawn)
    conn.execute("CREATE TABLE players (event_id, player, rating)")
    conn.execute("CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, "
                 "draws, result)")
    if drawn is None:
        rating = {i: 3000 - i for i in range(1, n + 1)}
    else:
        rating = {i: 2700 - i * 1500 // n + rng.randint(-30, 30) for i in range(1, n + 1)}
    conn.executemany("INSERT INTO players VALUES (1, ?, ?)", list(rating.items()))
    for r in range(1, rounds + 1):
        t0 = time.process_time()
        rows = conn.execute("SELECT round, player_a, player_b FROM pairings(1, "
                            "'dutch(rounds=9)')").fetchall()
        cpu = time.process_time() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"{n:>6} players  round {r}  {cpu:7.2f} s  peak {peak} MiB", flush=True)
        conn.executemany(
            "INSERT INTO matches VALUES (1, ?, ?, ?, ?, ?, ?, ?)",
            [pattern_result(rr, a, b) if drawn is None else drawn_result(rng, rating, rr, a, b)
             for rr, a, b in rows])
    conn.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("players", type=int, nargs="+")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--drawn", type=int, metavar="SEED",
                    help="results drawn from the ratings (30 %% draws), repeatably")
    args = ap.parse_args()
    for n in args.players:
        measure(n, args.rounds, args.drawn)


if __name__ == "__main__":
    main()
