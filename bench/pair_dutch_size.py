"""Dutch system through pairings(): CPU seconds and peak memory of the first rounds of a
generated event as the players grow, to set the largest round it takes (DUTCH_MAX_PLAYERS in
ext/pair/dutch.c).  Nothing asserts a time.

    /usr/bin/python3 bench/pair_dutch_size.py 1000 2000 3000 [--rounds 2]

Players 1..N, rated by number; each round paired by pairings(1, 'dutch(rounds=9)') and
entered (the lower sum of ids and round modulo 3 loses, a pattern).  Times are the process's
CPU seconds of the pairings() call (wall time on a shared machine counts the other work);
peak is the process's maximum resident memory after the round.
"""
import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "test"))
from conftest import open_connection  # noqa: E402


def measure(n, rounds):
    conn = open_connection()
    conn.execute("CREATE TABLE players (event_id, player, rating)")
    conn.execute("CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, "
                 "draws, result)")
    conn.executemany("INSERT INTO players VALUES (1, ?, ?)",
                     [(i, 3000 - i) for i in range(1, n + 1)])
    for r in range(1, rounds + 1):
        t0 = time.process_time()
        rows = conn.execute("SELECT round, player_a, player_b FROM pairings(1, "
                            "'dutch(rounds=9)')").fetchall()
        cpu = time.process_time() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"{n:>6} players  round {r}  {cpu:7.2f} s  peak {peak} MiB", flush=True)
        conn.executemany(
            "INSERT INTO matches VALUES (1, ?, ?, ?, ?, ?, 0, ?)",
            [(rr, a, b, 1 if b is not None and (a + b + rr) % 3 else 0,
              0 if b is None or (a + b + rr) % 3 else 1, None if b else "a")
             for rr, a, b in rows])
    conn.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("players", type=int, nargs="+")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    for n in args.players:
        measure(n, args.rounds)


if __name__ == "__main__":
    main()
