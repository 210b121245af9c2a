#!/usr/bin/python3
"""The longest stretches of CPU time between two progress-handler calls.

    /usr/bin/python3 bench/gaps.py [--build-dir DIR] [policy ...]

One event of 2,500,040 rows (250,000 players, 20 rounds, round r pairing
player i with i XOR r), written once into build/bench/gaps.db.  A progress
handler of N = 1000 records the thread's CPU time at each call while
standings(1, policy) runs; the three largest gaps bound how long an
interrupt or a handler's stop can wait for the extension, whatever else the
machine is doing (wall-clock latency on a shared machine mostly measures the
wait for a core).
"""
import argparse
import os
import sqlite3
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLICIES = ["mtg", "melee", "battlefy", "hct", "yugioh", "pokemon", "fide"]


def event_db(path):
    if os.path.exists(path):
        return path
    os.makedirs(os.path.dirname(path), exist_ok=True)
    conn = sqlite3.connect(path + ".tmp")
    conn.execute("CREATE TABLE matches(event_id, round, player_a, player_b, "
                 "a_wins, b_wins, draws)")
    conn.execute("""
        WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 20),
        p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < 249999)
        INSERT INTO matches SELECT 1, x, i, (i | x) - (i & x), 2, (i + x) % 2, 0
        FROM r, p WHERE i < (i | x) - (i & x)""")
    conn.commit()
    conn.close()
    os.rename(path + ".tmp", path)
    return path


def gaps(ext, db, policy):
    conn = sqlite3.connect(db)
    conn.enable_load_extension(True)
    conn.load_extension(ext)
    found, last = [], [None]

    def handler():
        now = time.thread_time()
        if last[0] is not None:
            found.append(now - last[0])
        last[0] = now
        return 0

    conn.set_progress_handler(handler, 1000)
    conn.execute("SELECT count(*) FROM standings(1, ?)", (policy,)).fetchone()
    conn.close()
    return sorted(found)[-3:][::-1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("policies", nargs="*", default=POLICIES)
    args = ap.parse_args()
    db = event_db(os.path.join(ROOT, "build", "bench", "gaps.db"))
    ext = os.path.join(os.path.abspath(args.build_dir), "tiebreak")
    for policy in args.policies:
        print(f"{policy:10} largest gaps, ms of CPU: "
              + ", ".join(f"{g * 1000:.0f}" for g in gaps(ext, db, policy)))


if __name__ == "__main__":
    main()
