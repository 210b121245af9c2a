"""Chess: standings() by the FIDE policy and by the longest C.07 order, next to reading the
same rows.  A Swiss event generated with a fixed seed (pairings within score groups, a
pairing-allocated bye for the odd player, half-point byes, forfeits, withdrawals), ratings in
a players table; each query timed warm, median of --reps runs.  Nothing asserts a time.

Each order is timed twice: "ranks" reads the ranks alone (count(*)), so a tiebreaker is
computed only for the players still tied when it is reached; "columns" reads the column of
every tiebreaker of the order too (total() of each), so every value is computed for every
player, and SQLite's total() adds its own cost per value.

    /usr/bin/python3 bench/chess.py                 # 2,000 players x 11 rounds
    /usr/bin/python3 bench/chess.py --players 20000 --rounds 13
"""
import argparse
import random
import sqlite3
import statistics
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCAN = ("SELECT count(*), max(player_a), max(player_b), sum(round + a_wins + b_wins + draws) "
        "FROM matches WHERE event_id = ?")
ORDERS = {
    "fide": "fide",
    "longest (16)": "PTS,BH/C1,BH,SB,DE,WIN,WON,BPG,BWG,REP,AOB,FB,ARO/C1,TPR,APRO,PTP",
    "ratings": "PTS,ARO,TPR,PTP,APRO,APPO",
}


def generate(conn, n_players, n_rounds, seed=20260301):
    rng = random.Random(seed)
    rating = {p: rng.randint(1200, 2700) for p in range(1, n_players + 1)}
    score = {p: 0.0 for p in rating}
    active = set(rating)
    rows = []
    for r in range(1, n_rounds + 1):
        if r >= 3:
            for p in list(active):
                if rng.random() < 0.01:
                    active.discard(p)  # withdrawn: no row from now on
        order = sorted(active, key=lambda p: (-score[p], -rating[p]))
        playing = []
        for p in order:
            if rng.random() < 0.02:
                rows.append((r, p, None, 0, 0, 0, "half_bye"))
                score[p] += 0.5
            else:
                playing.append(p)
        if len(playing) % 2:
            p = playing.pop()
            rows.append((r, p, None, 0, 0, 0, None))
            score[p] += 1
        for a, b in zip(playing[::2], playing[1::2]):
            if rng.random() < 0.5:
                a, b = b, a
            if rng.random() < 0.01:
                rows.append((r, a, b, 0, 0, 0, "forfeit_a"))
                score[a] += 1
                continue
            e = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
            x = rng.random()
            if x < e * 0.8:
                rows.append((r, a, b, 1, 0, 0, None)); score[a] += 1
            elif x < e * 0.8 + 0.2:
                rows.append((r, a, b, 0, 0, 1, None)); score[a] += .5; score[b] += .5
            else:
                rows.append((r, a, b, 0, 1, 0, None)); score[b] += 1
    conn.executescript((REPO / "sql" / "schema.sql").read_text())
    conn.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, "
                     "draws, result) VALUES ('c', ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.execute("CREATE TABLE players (event_id, player, rating)")
    conn.executemany("INSERT INTO players VALUES ('c', ?, ?)", rating.items())
    conn.commit()
    return len(rows)


def timed(conn, sql, args, reps):
    conn.execute(sql, args).fetchall()  # warm
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        conn.execute(sql, args).fetchall()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def columns_sql(conn, order):
    """A query that reads the column of each tiebreaker of the order (a policy: its
    own and those it also shows), as an arbiter's crosstable does."""
    row = conn.execute("SELECT tiebreakers || ',' || also_shown FROM tiebreak_policies"
                       " WHERE name = ?", (order,)).fetchone()
    names = row[0].split(",") if row else [
        conn.execute("SELECT name FROM tiebreakers WHERE upper(code) = upper(?)",
                     (code,)).fetchone()[0] for code in order.split(",")]
    sums = "".join(f', total("{n}")' for n in names if n != "points")
    return f"SELECT count(*){sums} FROM standings('c', ?)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(str(REPO / "build" / "tiebreak"))
    n_rows = generate(conn, args.players, args.rounds)
    scan = timed(conn, SCAN, ("c",), args.reps)
    print(f"chess event: {args.players} players x {args.rounds} rounds, {n_rows} rows of matches")
    print(f"{'query':<16} {'ranks ms':>9} {'/scan':>7} {'columns ms':>11} {'/scan':>7}")
    print(f"{'scan':<16} {scan * 1000:9.2f} {1:7.2f}")
    for name, order in ORDERS.items():
        t = timed(conn, "SELECT count(*) FROM standings('c', ?)", (order,), args.reps)
        u = timed(conn, columns_sql(conn, order), (order,), args.reps)
        print(f"{name:<16} {t * 1000:9.2f} {t / scan:7.2f} {u * 1000:11.2f} {u / scan:7.2f}")


if __name__ == "__main__":
    main()
