"""pairings() next to standings() on the same event: the cost of the state.

pairings() reads the event twice (every round, then as of the round before
for the standings) and lays out each player's rounds; bracket and berger add
O(players).  Printed as a ratio to standings() of the same event and policy.
Nothing here asserts a time.

    /usr/bin/python3 bench/pairings.py [PLAYERS [ROUNDS]]
"""
import random
import sqlite3
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def connect():
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(str(REPO / "build" / "tiebreak"))
    conn.enable_load_extension(False)
    conn.executescript((REPO / "sql" / "schema.sql").read_text())
    return conn


def swiss(conn, players, rounds, seed=7):
    """A Swiss-like event: each round pairs neighbours of a shuffled order."""
    rng = random.Random(seed)
    ids = list(range(1, players + 1))
    rows = []
    for r in range(1, rounds + 1):
        rng.shuffle(ids)
        for k in range(0, players - 1, 2):
            a, b = ids[k], ids[k + 1]
            rows.append((1, r, a, b, *rng.choice([(2, 0, 0), (0, 2, 0), (2, 1, 0), (1, 2, 0)])))
    conn.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins,"
                     " draws) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    return len(rows)


def best(conn, sql, reps=5):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        conn.execute(sql).fetchall()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    conn = connect()
    n = swiss(conn, players, rounds)
    base = best(conn, "SELECT count(*) FROM standings(1, 'mtg')")
    pair = best(conn, "SELECT count(*) FROM pairings(1, 'bracket(top=8)')")
    print(f"{players} players, {rounds} rounds, {n} rows")
    print(f"standings(1, 'mtg')                 {base * 1000:8.1f} ms  1.00")
    print(f"pairings(1, 'bracket(top=8)')       {pair * 1000:8.1f} ms  {pair / base:.2f}")


if __name__ == "__main__":
    main()
