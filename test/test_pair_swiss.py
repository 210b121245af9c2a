"""pairings() with the Swiss systems 'mtg' and 'pokemon' (docs/pairing-swiss.md).

Random events built in SQL and paired round after round, with results inserted, drops and
late byes: every round seats each present player once, never a dropped one, gives the bye to
a player without one, repeats no pairing when the rules let it be avoided (more than twice
as many players as rounds always can), and pairing_check() finds only the repeats the round
flagged as unavoidable. Hand-made events
check the documented choices (bye to the lowest-ranked, groups by match points, pair-downs,
table order); errors by message. The optimum itself is checked in C against a brute force
(test_pair_swiss.c).

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_pair_swiss.py -q
"""
import random
import sqlite3

import pytest


def make_event(conn, n, event="e"):
    conn.executescript("""
        DROP TABLE IF EXISTS players; DROP TABLE IF EXISTS matches;
        CREATE TABLE players (event_id, player, name, status, dropped_after, division);
        CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, draws,
                              result);""")
    conn.executemany("INSERT INTO players (event_id, player, division) VALUES (?, ?, ?)",
                     [(event, f"p{i:03d}", ("junior", "senior")[i % 2]) for i in range(1, n + 1)])


def pair(conn, system, event="e"):
    return conn.execute(
        "SELECT table_number, player_a, player_b, score_a, score_b, rank_a, rank_b, why, round"
        " FROM pairings(?, ?)", (event, system)).fetchall()


def enter(conn, rows, rng, event="e"):
    for _t, a, b, *_rest, rnd in rows:
        if b is None:
            conn.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins,"
                         " b_wins, draws) VALUES (?, ?, ?, NULL, 2, 0, 0)", (event, rnd, a))
        else:
            w = rng.choice([(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (0, 0, 3)])
            conn.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins,"
                         " b_wins, draws) VALUES (?, ?, ?, ?, ?, ?, ?)", (event, rnd, a, b, *w))


def history(conn, event="e"):
    met, byes = set(), set()
    for a, b in conn.execute("SELECT player_a, player_b FROM matches WHERE event_id = ?",
                             (event,)):
        if b is None:
            byes.add(a)
        else:
            met.add(frozenset((a, b)))
    return met, byes


@pytest.mark.parametrize("system", ["mtg", "pokemon"])
@pytest.mark.parametrize("seed", range(12))
def test_round_loop_is_legal(connect, system, seed):
    conn = connect()
    rng = random.Random(seed)
    n = rng.choice([2, 3, 5, 8, 13, 21, 40, 77])
    rounds = 6
    make_event(conn, n)
    dropped = set()
    for r in range(1, rounds + 1):
        rows = pair(conn, f"{system}(seed={seed})")
        met, byes = history(conn)
        present = {f"p{i:03d}" for i in range(1, n + 1)} - dropped
        seated = [p for row in rows for p in (row[1], row[2]) if p is not None]
        assert sorted(seated) == sorted(present)
        assert all(row[8] == r for row in rows)
        bye_rows = [row for row in rows if row[2] is None]
        assert len(bye_rows) == len(present) % 2
        for row in bye_rows:
            assert row[1] not in byes or byes >= present
        repeats = [row for row in rows if row[2] is not None and frozenset(row[1:3]) in met]
        if len(present) > 2 * r + 2:
            assert repeats == []        # a pairing without one exists (Dirac)
        for row in repeats:
            assert row[7] == "rematch: no pairing avoids it"
        # tables by score: the higher score of each table does not increase
        highs = [row[3] for row in rows if row[2] is not None]
        assert highs == sorted(highs, reverse=True)
        assert all(row[3] >= row[4] for row in rows if row[2] is not None)
        enter(conn, rows, rng)
        if n > 4 and rng.random() < 0.5:
            victim = rng.choice(sorted(present))
            conn.execute("UPDATE players SET dropped_after = ? WHERE player = ?", (r, victim))
            dropped.add(victim)
        # pairing_check() reports exactly the unavoidable repeats the round flagged
        flagged = [row for row in rows if row[7] and row[7].startswith(("rematch", "bye: every"))]
        found = conn.execute("SELECT DISTINCT player_a, player_b FROM pairing_check('e', ?)"
                             " WHERE round = ?", (system, r)).fetchall()
        assert {frozenset(x) for x in found} == {frozenset(row[1:3]) for row in flagged}


def test_same_seed_same_round(connect):
    conn = connect()
    make_event(conn, 30)
    first = pair(conn, "mtg(seed=11)")
    assert pair(conn, "mtg(seed=11)") == first
    others = {tuple(pair(conn, f"mtg(seed={s})")) for s in range(5)}
    assert len(others) == 5                # round 1 is drawn at random from the seed


def lettered_event(connect, letters):
    """Event 'e' whose players are the given letters, no round played yet."""
    conn = connect()
    make_event(conn, len(letters))
    conn.execute("DELETE FROM players")
    conn.executemany("INSERT INTO players (event_id, player) VALUES ('e', ?)",
                     [(p,) for p in letters])
    return conn


def test_groups_pair_downs_and_the_bye(connect):
    conn = lettered_event(connect, "ABCDEFG")
    conn.executescript("""
        INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
          ('e', 1, 'A', 'B', 2, 0, 0), ('e', 1, 'C', 'D', 2, 1, 0), ('e', 1, 'E', 'F', 2, 0, 0),
          ('e', 1, 'G', NULL, 2, 0, 0);""")
    rows = pair(conn, "mtg(seed=1)")
    # 3 points: A, C, E, G (G by its bye); 0 points: B, D, F.  Seven players: the bye
    # goes to the lowest-ranked player without one, a 0-point player; the other two
    # 0-point players meet, the four 3-point players meet each other: no pair-down.
    standings = conn.execute("SELECT player FROM standings('e', 'mtg') ORDER BY rank DESC,"
                             " player DESC").fetchall()
    bye = [row[1] for row in rows if row[2] is None]
    assert bye == [standings[0][0]]
    assert all(row[7] is None for row in rows if row[2] is not None)
    assert [row[3] for row in rows] == [3, 3, 0, 0]
    assert {frozenset(row[1:3]) for row in rows[:2]} != {frozenset("AB")}


def test_odd_group_pairs_down_once(connect):
    conn = lettered_event(connect, "ABCDEF")
    conn.executescript("""
        INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws) VALUES
          ('e', 1, 'A', 'B', 2, 0, 0), ('e', 1, 'C', 'D', 2, 0, 0), ('e', 1, 'E', 'F', 1, 1, 1);""")
    rows = pair(conn, "mtg(seed=2)")
    # 3: A, C; 1: E, F; 0: B, D.  A-C, E-F, B-D would all be groups of two, but E-F is a
    # rematch, so E and F each pair with a neighbouring group: two pair-downs of 1 point
    # (A-E or C-E, ...), never the 3-point players with the 0-point ones.
    downs = [row for row in rows if row[7] == "pair-down"]
    assert len(downs) == 2
    assert all(row[3] - row[4] in (1, 2) for row in downs)
    assert all(frozenset(row[1:3]) != frozenset("EF") for row in rows)


def test_pokemon_pairs_across_divisions(connect):
    conn = connect()
    make_event(conn, 16)
    rows = pair(conn, "pokemon(seed=4)")
    div = dict(conn.execute("SELECT player, division FROM players").fetchall())
    assert any(div[a] != div[b] for _t, a, b, *_ in rows)


@pytest.mark.parametrize("system, message", [
    ("mtg(top=2)", "pairings(): event 'e': unknown option 'top' in system 'mtg(top=2)' "
                   "(its options: seed)"),
    ("pokemon(rounds=3)", "pairings(): event 'e': unknown option 'rounds' in system "
                          "'pokemon(rounds=3)' (its options: seed)"),
])
def test_errors(connect, system, message):
    conn = connect()
    make_event(conn, 4)
    with pytest.raises(sqlite3.OperationalError) as e:
        pair(conn, system)
    assert str(e.value) == message


def test_round_must_be_the_next(connect):
    conn = connect()
    make_event(conn, 4)
    with pytest.raises(sqlite3.OperationalError, match=r"^pairings\(\): "):
        conn.execute("SELECT * FROM pairings('e', 'mtg', 3)").fetchall()


def test_interrupt_stops_a_large_round(connect):
    conn = connect()
    make_event(conn, 3000)
    rng = random.Random(5)
    for _ in range(2):
        enter(conn, pair(conn, "mtg"), rng)
    calls = []

    def handler():
        calls.append(1)
        return 1 if len(calls) > 3 else 0      # stop at the fourth progress call
    conn.set_progress_handler(handler, 1000)
    with pytest.raises(sqlite3.OperationalError, match=r"interrupted"):
        pair(conn, "mtg")
    conn.set_progress_handler(None, 0)
    assert len(pair(conn, "mtg")) == 1500
