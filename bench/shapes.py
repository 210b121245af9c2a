#!/usr/bin/python3
"""Event shapes that cost a quadratic or round-walking implementation minutes.

    /usr/bin/python3 bench/shapes.py                 # list the shapes
    /usr/bin/python3 bench/run.py --shapes           # time them at 1x and 10x

Each shape is one event (event_id 1) written into the tables of
sql/schema.sql by one INSERT ... SELECT over a recursive CTE, so even the 10x
sizes take a second or two to build.  At scale s (1 or 10) a shape has about
s times its base rows; a computation in O(rows log rows) takes about ten
times longer at 10x, a quadratic one a hundred times.  test/test_bounds.py
runs every shape at 1x as a test (a quadratic build would run into ctest's
timeout) and checks values it can work out by hand.
"""
import sqlite3
import sys

# Player ids and results derive from the numbers only, so every build of a
# shape is the same.  In the pokemon shapes a match's result is a hash of its
# players and round: (a * 7 + b * 13 + round * 3) % 5 -> 0, 1 a wins, 2, 3 b
# wins, 4 a draw.
RESULT = "((a * 7 + b * 13 + r * 3) % 5)"
A_WINS = f"CASE WHEN {RESULT} < 2 THEN 2 WHEN {RESULT} = 4 THEN 1 ELSE 0 END"
B_WINS = f"CASE WHEN {RESULT} IN (2, 3) THEN 2 WHEN {RESULT} = 4 THEN 1 ELSE 0 END"
DRAWS = f"CASE WHEN {RESULT} = 4 THEN 1 ELSE 0 END"

LAST_ROUND = 1_000_000_000


def _seq(n):
    return (f"WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s "
            f"WHERE i < {int(n) - 1})")


def fide_sparse(s):
    """10 x s games, each between two new players, in rounds spread up to
    10^9 (the last one in round 10^9): every player has one row and about
    10^9 absent rounds, each a zero-point bye (FIDE C.07 Art. 16)."""
    n = 10 * s
    return (_seq(n) + " INSERT INTO matches (event_id, round, player_a, player_b, "
            "a_wins, b_wins, draws) SELECT 1, "
            f"{LAST_ROUND} - i * 99991, 2 * i + 1, 2 * i + 2, 1, 0, 0 FROM s")


def fide_drawn(s):
    """20,000 x s players, one round, every game drawn: one tied group of
    everyone for direct encounter, in which nobody met more than one other."""
    n = 10_000 * s
    return (_seq(n) + " INSERT INTO matches (event_id, round, player_a, player_b, "
            "a_wins, b_wins, draws) SELECT 1, 1, 2 * i + 1, 2 * i + 2, 0, 0, 1 FROM s")


def fide_byes(s):
    """100,000 x s players with a pairing-allocated bye each and nothing
    else: one tied group of everyone, in which nobody met anybody."""
    n = 100_000 * s
    return (_seq(n) + " INSERT INTO matches (event_id, round, player_a, player_b, "
            "a_wins, b_wins, draws) SELECT 1, 1, i + 1, NULL, 0, 0, 0 FROM s")


def _round_robin(players, rounds, drop_every):
    """Circle-method pairings of `players` (even) over `rounds` rounds (cycling
    after players - 1); player p >= 1 with p % drop_every == 0 drops after
    round (p * 7) % rounds + 1.  Columns r, a, b."""
    m = players - 1
    return (f"WITH RECURSIVE r(r) AS (SELECT 1 UNION ALL SELECT r + 1 FROM r "
            f"WHERE r < {rounds}), "
            f"t(t) AS (SELECT 0 UNION ALL SELECT t + 1 FROM t WHERE t < {players // 2 - 1}), "
            # seat t of the circle: position 0 fixed, the others rotate
            f"g AS (SELECT r, "
            f"CASE WHEN t = 0 THEN 0 ELSE 1 + ((t - 1 + r) % {m}) END AS a, "
            f"1 + (({m} - 1 - t + r) % {m}) AS b FROM r, t), "
            f"k AS (SELECT r, a, b FROM g WHERE NOT ("
            f"(a > 0 AND a % {drop_every} = 0 AND r > (a * 7) % {rounds} + 1) OR "
            f"(b > 0 AND b % {drop_every} = 0 AND r > (b * 7) % {rounds} + 1)))")


def pokemon_dense(s):
    """200 players, 50 x s rounds of round-robin pairings (players meet again
    and again), every tenth player dropping at some round: opponents'
    opponents' win % as of the round each dropped player left."""
    return (_round_robin(200, 50 * s, 10) +
            " INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, "
            f"draws) SELECT 1, r, a, b, {A_WINS}, {B_WINS}, {DRAWS} FROM k")


def hub(s):
    """One player (0) against 2,000 x s others, one per round, each of whom
    plays only that round (so has dropped after it); rows in reverse round
    order.  The opponents' averages all go through the one player."""
    n = 2_000 * s
    return (_seq(n) + ", k AS (SELECT i + 1 AS r, 0 AS a, i + 1 AS b FROM s) "
            "INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, "
            f"draws) SELECT 1, r, a, b, {A_WINS}, {B_WINS}, {DRAWS} FROM k ORDER BY r DESC")


def exact_tie(s):
    """Two players, X and Y, against the same 10,000 x s opponents, opponent
    i (from 1) losing (i+1)-i to each, X's matches first: X and Y tie on
    everything, and their OGW% are means of i/(2i+1), fractions of distinct
    denominators, too close as doubles to order, so compared exactly."""
    n = int(10_000 * s)  # s = 1.6: k = 16,000 (run.py --growth)
    return (_seq(n) + " INSERT INTO matches (event_id, round, player_a, player_b, "
            "a_wins, b_wins, draws) SELECT 1, i + 1, 'X', 'o' || (i + 1), i + 2, "
            f"i + 1, 0 FROM s UNION ALL SELECT 1, {n} + i + 1, 'Y', 'o' || (i + 1), "
            "i + 2, i + 1, 0 FROM s")


# name: (generator, policy, what the shape stresses)
SHAPES = {
    "fide_sparse": (fide_sparse, "fide", "rounds up to 10^9: absent rounds counted, not walked"),
    "fide_drawn": (fide_drawn, "fide", "direct encounter, one tied group of every player"),
    "fide_byes": (fide_byes, "fide", "direct encounter, a group of bye-only players"),
    "pokemon_dense": (pokemon_dense, "pokemon", "OOWP with frozen drops, long event"),
    "pokemon_hub": (hub, "pokemon", "OOWP through one player with many opponents"),
    "hct_hub": (hub, "hct", "T1/T2 through one player with many opponents"),
    "yugioh_hub": (hub, "yugioh", "OOMW% and KTS through one player"),
    "battlefy_hub": (hub, "battlefy", "OOMW% through one player"),
    "mtg_hub": (hub, "mtg", "OMW% through one player, rows in reverse round order"),
    "mtg_exact_tie": (exact_tie, "mtg", "an exact OGW% tie over opponents of distinct game counts"),
}


def build(conn, shape, scale):
    """Fill conn's matches table (sql/schema.sql) with the shape at scale."""
    conn.execute("DELETE FROM matches")
    conn.execute(SHAPES[shape][0](scale))
    conn.commit()


def main():
    for name, (fn, policy, what) in SHAPES.items():
        conn = sqlite3.connect(":memory:")
        with open(__file__.replace("bench/shapes.py", "sql/schema.sql")) as f:
            conn.executescript(f.read())
        build(conn, name, 1)
        rows, = conn.execute("SELECT count(*) FROM matches").fetchone()
        print(f"{name:14} {policy:9} {rows:>7} rows at 1x  {what}")


if __name__ == "__main__":
    sys.exit(main())
