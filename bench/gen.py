#!/usr/bin/python3
"""Generate realistic Magic Swiss events into a SQLite file for the benchmark.

    /usr/bin/python3 bench/gen.py S            # prints build/bench/events-S.db
    /usr/bin/python3 bench/gen.py XL --force   # regenerate even if cached

Sizes (events x players x rounds): S 1x256x8, M 1x10,000x15, L 1,000x128x7,
XL 1x100,000x17.  The tables are those of sql/schema.sql, filled the way
tournament software records an event:

  * pairings by score group: players sorted by match points (random order
    within a group), neighbours paired, a rematch avoided by looking a few
    seats down the group;
  * an odd player out gets a bye (2-0-0, player_b NULL): the lowest-ranked
    player who has not had one yet;
  * drops from round 3 on (about 1.5% of winning and 5% of losing players per
    round); a dropped player has no further rows;
  * best-of-3 matches decided game by game from hidden player strengths:
    2-0 and 2-1 mostly, 1-1-1 when time is called in game 3, rarely 1-0-1;
  * intentional draws 0-0-3 in the last two rounds between players at no
    more than one loss;
  * player ids are integers drawn from a larger id space (like membership
    numbers); the L events draw from one pool, so players recur across events.

Besides the schema, two tables a tournament tool keeps anyway, so the
benchmark can iterate over events and players without deriving them from
matches: events(id, players, rounds) and the registration list
entries(event_id, player); and bench_meta, the generator version of the file.

Everything derives from a fixed seed per size: the same file every time.
"""
import argparse
import collections
import math
import os
import random
import sqlite3
import sys
import time

SIZES = {
    # name: (events, players per event, rounds)
    "S": (1, 256, 8),
    "M": (1, 10_000, 15),
    "L": (1_000, 128, 7),
    "XL": (1, 100_000, 17),
}

# Bump when the generated data changes, so cached files are rebuilt.
GEN_VERSION = 1

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCHEMA = os.path.join(ROOT, "sql", "schema.sql")

# How far down the score-sorted list to look for an opponent not met before.
REMATCH_LOOKAHEAD = 6


def play_match(rng, p_a):
    """Best-of-3 game counts (a_wins, b_wins, draws); p_a: A's game-win chance."""
    a = b = d = 0
    for game in (1, 2, 3):
        if a == 2 or b == 2:
            break
        # Time runs out mostly in a third game, occasionally in the second.
        if (game == 3 and rng.random() < 0.05) or (game == 2 and rng.random() < 0.01):
            d += 1
            break
        if rng.random() < p_a:
            a += 1
        else:
            b += 1
    return a, b, d


def pair_round(rng, active, points, opponents, had_bye):
    """Score-group pairings for one round: list of (a, b), b None for a bye."""
    # Sort by points, random within a score group.
    order = sorted(active, key=lambda p: (-points[p], rng.random()))
    pairs = []
    if len(order) % 2:
        # Bye: lowest-ranked player without one yet (fall back to the last).
        k = len(order) - 1
        while k >= 0 and had_bye[order[k]]:
            k -= 1
        bye = order.pop(k if k >= 0 else len(order) - 1)
        pairs.append((bye, None))
    unpaired = collections.deque(order)
    while unpaired:
        a = unpaired.popleft()
        met = opponents[a]
        limit = min(REMATCH_LOOKAHEAD, len(unpaired))
        j = 0
        while j < limit and unpaired[j] in met:
            j += 1
        if j == limit:
            j = 0  # a rematch: cheap avoidance failed
        b = unpaired[j]
        del unpaired[j]
        pairs.append((a, b))
    return pairs


def simulate_event(rng, players, n_rounds):
    """Yield (round, player_a, player_b, a_wins, b_wins, draws) rows."""
    strength = {p: rng.gauss(0.0, 1.0) for p in players}
    points = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    had_bye = dict.fromkeys(players, False)
    opponents = {p: set() for p in players}
    active = list(players)
    for rnd in range(1, n_rounds + 1):
        if rnd >= 3:
            # Players with a losing record drop more often.
            active = [p for p in active
                      if rng.random() >= (0.05 if 2 * points[p] < 3 * played[p] else 0.015)]
        # "High points" for an intentional draw: at most one loss so far,
        # where a draw locks a top finish.
        id_chance = {n_rounds - 1: 0.4, n_rounds: 0.8}.get(rnd, 0.0)
        id_cut = 3 * (rnd - 1) - 3
        for a, b in pair_round(rng, active, points, opponents, had_bye):
            if b is None:
                had_bye[a] = True
                points[a] += 3
                played[a] += 1
                yield (rnd, a, None, 2, 0, 0)
                continue
            if (id_chance and points[a] >= id_cut and points[b] >= id_cut
                    and rng.random() < id_chance):
                aw, bw, d = 0, 0, 3
            else:
                p_a = 1.0 / (1.0 + math.exp(-0.6 * (strength[a] - strength[b])))
                aw, bw, d = play_match(rng, p_a)
            if rng.random() < 0.5:  # the table does not say who was seated first
                a, b, aw, bw = b, a, bw, aw
            opponents[a].add(b)
            opponents[b].add(a)
            played[a] += 1
            played[b] += 1
            if aw > bw:
                points[a] += 3
            elif bw > aw:
                points[b] += 3
            else:
                points[a] += 1
                points[b] += 1
            yield (rnd, a, b, aw, bw, d)


def db_path(size, out_dir):
    return os.path.join(out_dir, f"events-{size}.db")


def generate(size, path):
    n_events, n_players, n_rounds = SIZES[size]
    rng = random.Random(f"tiebreak-bench-{size}-v{GEN_VERSION}")
    tmp = path + ".tmp"
    if os.path.exists(tmp):
        os.remove(tmp)
    conn = sqlite3.connect(tmp)
    # A throwaway file until the rename below: no journal needed.
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    with open(SCHEMA) as f:
        conn.executescript(f.read())
    conn.executescript("""
        CREATE TABLE events (id INTEGER PRIMARY KEY, players INTEGER, rounds INTEGER);
        CREATE TABLE entries (event_id, player, PRIMARY KEY (event_id, player)) WITHOUT ROWID;
        CREATE TABLE bench_meta (key TEXT PRIMARY KEY, value);
    """)
    id_space = range(1, 10 * max(n_players, 2_000) + 1)
    pool = rng.sample(id_space, 20 * n_players) if n_events > 1 else None
    conn.execute("BEGIN")
    for event in range(1, n_events + 1):
        players = rng.sample(pool if pool else id_space, n_players)
        conn.execute("INSERT INTO events VALUES (?, ?, ?)", (event, n_players, n_rounds))
        conn.executemany("INSERT INTO entries VALUES (?, ?)",
                         ((event, p) for p in sorted(players)))
        conn.executemany(
            "INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            ((event,) + row for row in simulate_event(rng, players, n_rounds)))
    conn.executemany("INSERT INTO bench_meta VALUES (?, ?)",
                     [("size", size), ("gen_version", GEN_VERSION)])
    conn.execute("COMMIT")
    conn.close()
    os.replace(tmp, path)


def ensure(size, out_dir, force=False, log=sys.stderr):
    """Path of the cached file for a size, generated if missing or stale."""
    os.makedirs(out_dir, exist_ok=True)
    path = db_path(size, out_dir)
    if not force and os.path.exists(path):
        stale = max(os.path.getmtime(__file__), os.path.getmtime(SCHEMA)) > os.path.getmtime(path)
        if not stale:
            try:
                with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                    version = conn.execute(
                        "SELECT value FROM bench_meta WHERE key = 'gen_version'").fetchone()
                if version and version[0] == GEN_VERSION:
                    return path
            except sqlite3.Error:
                pass
    t0 = time.perf_counter()
    print(f"generating {size} into {path} ...", file=log, flush=True)
    generate(size, path)
    print(f"  {time.perf_counter() - t0:.1f} s", file=log, flush=True)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sizes", nargs="+", choices=sorted(SIZES))
    ap.add_argument("--out-dir", default=os.path.join(ROOT, "build", "bench"),
                    help="cache directory (default: build/bench)")
    ap.add_argument("--force", action="store_true", help="regenerate even if cached")
    args = ap.parse_args()
    for size in args.sizes:
        print(ensure(size, args.out_dir, args.force))


if __name__ == "__main__":
    main()
