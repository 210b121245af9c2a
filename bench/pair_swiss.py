#!/usr/bin/python3
"""Time pairings() under 'mtg': rounds 1..8 of a 1,000- and a 10,000-player event.

    /usr/bin/python3 bench/pair_swiss.py [players ...]     (default: 1000 10000)

Each event is built in SQL (players p00001..), then paired round after round:
the round's tables go into matches with random results (2-0, 2-1, 1-2, 0-2, 1-1-1),
and the next round is paired from them.  For every round it prints the time of
pairings() alone (the SELECT that reads the state, pairs and returns the tables),
the matchings computed, and the peak RSS of the process; then the ratio of the
times, 10,000 against 1,000 players, round by round.  Last, the interrupt latency:
a 10,000-player round is interrupted 50 ms after it starts and the time until
the statement stops is printed.

Nothing here asserts a time: the figures are for comparing, side by side.
"""
import os
import random
import resource
import sqlite3
import sys
import threading
import time

EXT = os.environ.get("TIEBREAK_EXT", os.path.join(os.path.dirname(__file__), "..", "build", "tiebreak"))
ROUNDS = 8


def connect():
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(EXT)
    conn.enable_load_extension(False)
    return conn


def build(conn, n):
    conn.executescript("""
        CREATE TABLE players (event_id, player);
        CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, draws);
        CREATE INDEX matches_event ON matches (event_id, round);""")
    conn.executemany("INSERT INTO players VALUES (1, ?)", [(f"p{i:05d}",) for i in range(1, n + 1)])


def play_round(conn, n, rng):
    t0 = time.perf_counter()
    rows = conn.execute("SELECT round, player_a, player_b FROM pairings(1, 'mtg(seed=1)')").fetchall()
    dt = time.perf_counter() - t0
    results = [(2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0), (1, 1, 1)]
    with conn:
        conn.executemany(
            "INSERT INTO matches VALUES (1, ?, ?, ?, ?, ?, ?)",
            [(r, a, b, *(rng.choice(results) if b is not None else (2, 0, 0))) for r, a, b in rows])
    return dt, len(rows)


def event_times(n):
    conn = connect()
    build(conn, n)
    rng = random.Random(n)
    times = []
    for r in range(1, ROUNDS + 1):
        dt, tables = play_round(conn, n, rng)
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{n:>6} players  round {r}: {dt:7.3f} s  {tables} tables  peak RSS {rss:.0f} MiB",
              flush=True)
        times.append(dt)
    conn.close()
    return times


def interrupt_latency(n):
    conn = connect()
    build(conn, n)
    rng = random.Random(3)
    for _ in range(3):
        play_round(conn, n, rng)     # a round with score groups and pair-downs
    stopped = {}

    def fire():
        stopped["at"] = time.perf_counter()
        conn.interrupt()
    timer = threading.Timer(0.05, fire)
    t0 = time.perf_counter()
    timer.start()
    try:
        conn.execute("SELECT count(*) FROM pairings(1, 'mtg(seed=1)')").fetchall()
        outcome = "finished before the interrupt"
    except sqlite3.OperationalError as e:
        outcome = str(e)
    t1 = time.perf_counter()
    timer.cancel()
    if "at" in stopped and outcome != "finished before the interrupt":
        print(f"interrupt at {1000 * (stopped['at'] - t0):.0f} ms: stopped {1000 * (t1 - stopped['at']):.1f} ms later ({outcome})")
    else:
        print(f"interrupt: {outcome} ({1000 * (t1 - t0):.0f} ms)")


def main():
    sizes = [int(x) for x in sys.argv[1:]] or [1000, 10000]
    table = {n: event_times(n) for n in sizes}
    if len(sizes) >= 2:
        small, large = sizes[0], sizes[-1]
        print(f"\nround  {small:>6}  {large:>6}  ratio ({large // small}x players)")
        for r in range(ROUNDS):
            a, b = table[small][r], table[large][r]
            print(f"{r + 1:>5}  {a:6.3f}  {b:6.3f}  {b / a if a else float('nan'):5.1f}")
        print(f"total  {sum(table[small]):6.3f}  {sum(table[large]):6.3f}  "
              f"{sum(table[large]) / sum(table[small]):5.1f}")
    interrupt_latency(sizes[-1])


if __name__ == "__main__":
    main()
