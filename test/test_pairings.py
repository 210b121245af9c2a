"""pairings() and pairing_check(): the SQL surface of pairing, berger, bracket.

Berger rounds are checked against FIDE's published tables (test/pairing/
berger_tables.txt), brackets against hand-made seedings, errors by message.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_pairings.py -q
"""
import re
import sqlite3
import time
from pathlib import Path

import pytest

from conftest import interrupted_in_time

HERE = Path(__file__).resolve().parent
TABLES = HERE / "pairing" / "berger_tables.txt"


def published():
    """{(players, round): [(white, black), ...]} from the stored tables."""
    out = {}
    for line in TABLES.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        head, pairs = line.split(":")
        n, r = map(int, head.split())
        out[(n, r)] = [tuple(map(int, p.split("-"))) for p in pairs.split(",")]
    return out


def make_event(conn, n, event=1, ratings=True):
    """Players p01..pNN, rated so that pairing numbers follow their numbers."""
    conn.executescript("""
        DROP TABLE IF EXISTS players; DROP TABLE IF EXISTS matches;
        CREATE TABLE players (event_id, player, name, rating, status, dropped_after);
        CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, draws,
                              result, phase);""")
    conn.executemany("INSERT INTO players (event_id, player, name, rating) VALUES (?, ?, ?, ?)",
                     [(event, f"p{i:02d}", f"Player {i}", 3000 - i if ratings else None)
                      for i in range(1, n + 1)])


def number(player):
    return int(player[1:])


def pair_round(conn, system="berger", result="draw", event=1):
    """Pair the next round, enter every game with `result`; return the tables."""
    rows = conn.execute("SELECT round, player_a, player_b, result FROM pairings(?, ?)",
                        (event, system)).fetchall()
    conn.executemany("INSERT INTO matches (event_id, round, player_a, player_b, result) "
                     "VALUES (?, ?, ?, ?, ?)",
                     [(event, r, a, b, res if res else (result if b else None))
                      for r, a, b, res in rows])
    return rows


@pytest.fixture
def db(connect):
    return connect()


# ------------------------------------------------------------------ berger

@pytest.mark.parametrize("n", [4, 6, 8, 10, 12, 14])
def test_berger_matches_published_tables(db, n):
    tables = published()
    make_event(db, n)
    for r in range(1, n):
        rows = pair_round(db)
        got = [(number(a), number(b)) for _, a, b, _ in rows]
        if (n, r) in tables:
            assert got == tables[(n, r)], f"{n} players, round {r}"


@pytest.mark.parametrize("n", [3, 5, 7, 9, 11, 13])
def test_berger_odd_count_uses_next_table_with_a_free_round(db, n):
    """The table of n + 1: the player drawn against n + 1 is free (zero_bye, last)."""
    tables = published()
    make_event(db, n)
    for r in range(1, n + 1):
        rows = pair_round(db)
        want = tables.get((n + 1, r))
        if want is None:
            continue
        games = [(a, b) for a, b in want if n + 1 not in (a, b)]
        free = [a if b == n + 1 else b for a, b in want if n + 1 in (a, b)]
        assert [(number(a), number(b)) for _, a, b, _ in rows[:-1]] == games
        assert (number(rows[-1][1]), rows[-1][2], rows[-1][3]) == (free[0], None, "zero_bye")
    with pytest.raises(sqlite3.OperationalError, match=r"round %d is past the last round" % (n + 1)):
        db.execute("SELECT * FROM pairings(1, 'berger')").fetchall()


def test_berger_sixteen_players_every_pair_once_colours_balanced(db):
    """Past the stored tables: every two players meet once, whites differ by one at most."""
    make_event(db, 16)
    met, whites = set(), {}
    for r in range(1, 16):
        rows = pair_round(db)
        assert sorted(number(p) for _, a, b, _ in rows for p in (a, b)) == list(range(1, 17))
        for _, a, b, _ in rows:
            met.add(frozenset((a, b)))
            whites[a] = whites.get(a, 0) + 1
        if r == 1:
            assert [(number(a), number(b)) for _, a, b, _ in rows] == \
                [(1, 16), (2, 15), (3, 14), (4, 13), (5, 12), (6, 11), (7, 10), (8, 9)]
    assert len(met) == 16 * 15 // 2
    assert set(whites.values()) <= {7, 8}
    with pytest.raises(sqlite3.OperationalError, match="past the last round"):
        db.execute("SELECT * FROM pairings(1, 'berger')").fetchall()


def test_berger_fifteen_players_every_pair_once_one_free_round_each(db):
    make_event(db, 15)
    met, free = set(), []
    for _ in range(15):
        rows = pair_round(db)
        for _, a, b, res in rows:
            if b is None:
                assert res == "zero_bye"
                free.append(a)
            else:
                met.add(frozenset((a, b)))
    assert len(met) == 15 * 14 // 2 and sorted(free) == [f"p{i:02d}" for i in range(1, 16)]


@pytest.mark.parametrize("n", [4, 5, 6, 9, 10])
def test_berger_first_colour_read_from_round_one(db, n):
    """Without XXC, berger reads number 1's colour from the first round played: a drawing
    of lots that gave number 1 Black (XXC black1) swaps every colour of the tables. A round
    1 played so checks clean, and the next rounds are the published tables reversed."""
    tables = published()
    make_event(db, n)
    size = n + (n & 1)
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, result) "
                   "VALUES (1, 1, ?, ?, 'draw')",
                   [(f"p{b:02d}", f"p{a:02d}") for a, b in tables[(size, 1)]
                    if a <= n and b <= n])
    assert db.execute("SELECT * FROM pairing_check(1, 'berger')").fetchall() == []
    for r in range(2, size):
        rows = pair_round(db)
        if (size, r) in tables:
            assert [(number(a), number(b)) for _, a, b, _ in rows if b] == [
                (b, a) for a, b in tables[(size, r)] if a <= n and b <= n], f"round {r}"

    assert db.execute("SELECT * FROM pairing_check(1, 'berger')").fetchall() == []


def test_berger_first_colour_a_table_swapped_is_one_difference(db):
    """Most games of round 1 as the tables give them: number 1 White, and the one table
    entered the other way round is the only difference reported; a tie keeps White."""
    make_event(db, 6)
    pair_round(db)                                   # 1-6 2-5 3-4
    db.execute("UPDATE matches SET player_a = 'p05', player_b = 'p02' WHERE player_a = 'p02'")
    assert db.execute("SELECT round, player_a, player_b FROM pairing_check(1, 'berger')"
                      ).fetchall() == [(1, "p02", "p05")]
    make_event(db, 4)
    pair_round(db)                                   # 1-4 2-3
    db.execute("UPDATE matches SET player_a = 'p04', player_b = 'p01' WHERE player_a = 'p01'")
    assert db.execute("SELECT round, player_a, player_b FROM pairing_check(1, 'berger')"
                      ).fetchall() == [(1, "p01", "p04")]


def test_berger_double_round_robin_reverses_colours(db):
    make_event(db, 4)
    first = [pair_round(db, "berger(rounds=6)") for _ in range(3)]
    second = [pair_round(db, "berger(rounds=6)") for _ in range(3)]
    for a, b in zip(first, second):
        assert [(y, x) for _, x, y, _ in a] == [(x, y) for _, x, y, _ in b]
    with pytest.raises(sqlite3.OperationalError, match="4 rounds scheduled"):
        db.execute("SELECT * FROM pairings(1, 'berger(rounds=4)')").fetchall()


@pytest.mark.parametrize("rounds", [1, 2])
def test_berger_fewer_rounds_than_a_round_robin_is_an_error(db, rounds):
    """The Berger tables (C.05 Annex 1) are a whole round robin: fewer rounds would leave
    pairs unplayed, which the tables do not choose; n - 1 rounds, or 2 (n - 1)."""
    make_event(db, 4)
    assert error(db, f"SELECT * FROM pairings(1, 'berger(rounds={rounds})')") == (
        f"pairings(): event 1: berger: {rounds} rounds scheduled, but a round robin of 4 "
        "players has 3 (or 6, played twice)")
    assert len(pair_round(db, "berger(rounds=3)")) == 2


def error(conn, sql):
    with pytest.raises(sqlite3.OperationalError) as info:
        conn.execute(sql).fetchall()
    return str(info.value)


def test_berger_continues_only_a_round_robin_of_its_table(db):
    """Rounds played that are not the Berger table's (a Swiss, a round entered by hand):
    berger pairs no next round from a table the event does not follow; the error names
    the first round and player that leave it. Colours swapped at a table, or a game
    without a row, are still the table's rounds."""
    make_event(db, 6)
    pair_round(db)                                   # 1-6 2-5 3-4
    db.execute("UPDATE matches SET player_a = player_b, player_b = player_a "
               "WHERE round = 1 AND player_a = 'p02'")
    db.execute("DELETE FROM matches WHERE round = 1 AND player_a = 'p03'")
    pair_round(db)                                   # 6-4 5-3 1-2
    # pairing_check() lists both as problems of round 1; pairings() goes on
    assert db.execute("SELECT * FROM pairing_check(1, 'berger')").fetchall() == [
        (1, "p02", "p05", "berger pairs them (player_a White) at table 2, the round played "
                          "does not"),
        (1, "p03", "p04", "berger pairs them (player_a White) at table 3, the round played "
                          "does not")]
    db.execute("UPDATE matches SET player_b = CASE player_b WHEN 'p03' THEN 'p02' "
               "ELSE 'p03' END WHERE round = 2 AND player_b IN ('p02', 'p03')")
    assert error(db, "SELECT * FROM pairings(1, 'berger')") == (
        "pairings(): event 1: berger: the event is not a round robin of its table: in round "
        "2 player 'p01' met 'p03', where the table pairs them with 'p02' (pairing numbers by "
        "rating, then id); pair a Swiss with mtg, pokemon or dutch")


def test_berger_on_a_magic_swiss_says_it_is_no_round_robin(db):
    """sql/example.sql's Friday Night Magic: its byes are 2-0-0, which the chess policy
    that berger reads with refuses; the round robin it is not is what stops berger."""
    db.executescript((HERE.parent / "sql" / "schema.sql").read_text())
    db.executescript((HERE.parent / "sql" / "example.sql").read_text())
    want = ("berger: the event is not a round robin of its table: in round 1 player 'Ada' "
            "met 'Greta', where the table pairs them with 'Yuki' (pairing numbers by rating, "
            "then id); pair a Swiss with mtg, pokemon or dutch")
    assert error(db, "SELECT * FROM pairings(1, 'berger')") == "pairings(): event 1: " + want
    assert error(db, "SELECT * FROM pairing_check(1, 'berger')") == (
        "pairing_check(): event 1: " + want)
    # the Swiss systems read it
    assert len(db.execute("SELECT * FROM pairings(1, 'mtg')").fetchall()) == 12


def test_pairing_numbers_by_rating_then_id(db):
    """Unrated players after the rated ones, then by id."""
    db.executescript("""
        CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, draws,
                              result);
        CREATE TABLE players (event_id, player, rating);
        INSERT INTO players VALUES (1, 'z', 1500), (1, 'y', NULL), (1, 'x', 2200),
                                   (1, 'w', NULL);""")
    rows = db.execute("SELECT player_a, number_a, player_b, number_b "
                      "FROM pairings(1, 'berger')").fetchall()
    # numbers: x 1, z 2, w 3, y 4; round 1: 1-4, 2-3
    assert rows == [("x", 1, "y", 4), ("z", 2, "w", 3)]


def test_arbiter_columns_after_a_round(db):
    make_event(db, 4)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES "
               "(1, 1, 'p01', 'p04', 'a'), (1, 1, 'p02', 'p03', 'draw')")
    rows = db.execute("SELECT table_number, player_a, player_b, score_a, score_b, rank_a, "
                      "rank_b, colours_a, colours_b, round, why FROM pairings(1, 'berger')"
                      ).fetchall()
    # round 2: 4-3, 1-2
    assert rows == [(1, "p04", "p03", 0.0, 0.5, 4, 2, "B", "B", 2, "Berger table"),
                    (2, "p01", "p02", 1.0, 0.5, 1, 3, "W", "W", 2, "Berger table")]


def test_insert_select_loop_with_standings(db):
    """The organizer's loop: pair, enter results, standings, pair again."""
    make_event(db, 6)
    for _ in range(5):
        db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) "
                   "SELECT 1, round, player_a, player_b, 'a' FROM pairings(1, 'berger')")
    assert db.execute("SELECT count(*), count(DISTINCT round) FROM matches").fetchone() == (15, 5)
    # with White always winning, the whites decide: 3 each for 1, 2, 3 (by the table)
    top = db.execute("SELECT player, points FROM standings(1, 'fide') ORDER BY rank LIMIT 1"
                     ).fetchone()
    assert top[1] == 3.0
    assert db.execute("SELECT count(*) FROM pairing_check(1, 'berger')").fetchone() == (0,)


def test_requested_bye_and_withdrawal_are_absent_for_swiss_checks(db):
    """The state marks them absent; berger pairs its schedule regardless."""
    make_event(db, 4)
    db.execute("UPDATE players SET status = 'dropped', dropped_after = 0 WHERE player = 'p04'")
    rows = db.execute("SELECT player_a, player_b FROM pairings(1, 'berger')").fetchall()
    assert rows == [("p01", "p04"), ("p02", "p03")]


# ------------------------------------------------------------------ bracket

def swiss_event(db, n):
    """n players after a Swiss whose standings are p01 first, p02 second, ..."""
    make_event(db, n)
    rows = []
    # round 1..3: each player beats every higher number once in a ladder: points differ
    for r in range(1, 4):
        for i in range(1, n + 1, 2):
            a, b = (i, i + 1)
            rows.append((1, r, f"p{a:02d}", f"p{b:02d}", None, None, None, "a", None))
    db.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)


def bracket_round(db, system="bracket", lower_wins=False):
    rows = db.execute("SELECT round, player_a, player_b, phase FROM pairings(1, ?)",
                      (system,)).fetchall()
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, result, phase) "
                   "VALUES (1, ?, ?, ?, ?, ?)",
                   [(r, a, b, ("b" if lower_wins else "a") if b else None, ph)
                    for r, a, b, ph in rows])
    return [(a, b) for _, a, b, _ in rows]


def test_bracket_top8_standard_order_then_winners(db):
    swiss_event(db, 16)
    seeds = [p for (p,) in db.execute("SELECT player FROM standings(1, 'mtg') ORDER BY rank")]
    qf = bracket_round(db, "bracket(top=8)")
    s = lambda k: seeds[k - 1]
    assert qf == [(s(1), s(8)), (s(4), s(5)), (s(2), s(7)), (s(3), s(6))]
    sf = bracket_round(db)          # the better seed (player_a) won each
    assert sf == [(s(1), s(4)), (s(2), s(3))]
    final = bracket_round(db, lower_wins=True)
    assert final == [(s(1), s(2))]
    rank = db.execute("SELECT player FROM standings(1, 'mtg') WHERE rank = 1").fetchone()[0]
    assert rank == s(2)
    with pytest.raises(sqlite3.OperationalError, match="the playoff is over"):
        db.execute("SELECT * FROM pairings(1, 'bracket')").fetchall()
    assert db.execute("SELECT * FROM pairing_check(1, 'bracket')").fetchall() == []


def test_bracket_cut_of_six_gives_top_seeds_byes(db):
    swiss_event(db, 10)
    seeds = [p for (p,) in db.execute("SELECT player FROM standings(1, 'mtg') ORDER BY rank")]
    s = lambda k: seeds[k - 1]
    rows = db.execute("SELECT player_a, player_b, phase, why FROM pairings(1, 'bracket(top=6)')"
                      ).fetchall()
    assert [(a, b) for a, b, _, _ in rows] == [(s(1), None), (s(4), s(5)), (s(2), None),
                                               (s(3), s(6))]
    assert {ph for _, _, ph, _ in rows} == {"playoff"}
    bracket_round(db, "bracket(top=6)")
    assert bracket_round(db) == [(s(1), s(4)), (s(2), s(3))]


def test_bracket_bracket_order_for_sixteen(db):
    swiss_event(db, 16)
    seeds = [p for (p,) in db.execute("SELECT player FROM standings(1, 'mtg') ORDER BY rank")]
    got = [(seeds.index(a) + 1, seeds.index(b) + 1) for a, b in
           db.execute("SELECT player_a, player_b FROM pairings(1, 'bracket(top=16)')")]
    assert got == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]


def test_bracket_errors(db):
    swiss_event(db, 6)
    with pytest.raises(sqlite3.OperationalError, match=r"top=N is required"):
        db.execute("SELECT * FROM pairings(1, 'bracket')").fetchall()
    with pytest.raises(sqlite3.OperationalError, match=r"top=8, but 6 players are present"):
        db.execute("SELECT * FROM pairings(1, 'bracket(top=8)')").fetchall()
    with pytest.raises(sqlite3.OperationalError, match=r"top must be an integer from 2"):
        db.execute("SELECT * FROM pairings(1, 'bracket(top=1)')").fetchall()


# ------------------------------------------------------------- pairing_check

def test_check_reports_a_round_off_the_table(db):
    make_event(db, 4)
    pair_round(db)
    # round 2 should be 4-3, 1-2: entered as 1-3, 2-4
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES "
               "(1, 2, 'p01', 'p03', 'draw'), (1, 2, 'p02', 'p04', 'draw')")
    rows = db.execute("SELECT round, player_a, player_b, reason FROM pairing_check(1, 'berger')"
                      ).fetchall()
    assert [(r, a, b) for r, a, b, _ in rows] == [(2, "p04", "p03"), (2, "p01", "p02")]
    assert rows[0][3] == ("berger pairs them (player_a White) at table 1, the round played "
                          "does not")


def test_check_colours_count(db):
    make_event(db, 4)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES "
               "(1, 1, 'p04', 'p01', 'draw'), (1, 1, 'p02', 'p03', 'draw')")
    assert db.execute("SELECT round, player_a, player_b FROM pairing_check(1, 'berger')"
                      ).fetchall() == [(1, "p01", "p04")]


def test_check_player_twice_in_a_round(db):
    """The event cannot be read: the rows say who, and nothing else is checked."""
    make_event(db, 4)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES "
               "(1, 1, 'p01', 'p04', 'draw'), (1, 1, 'p01', 'p03', 'draw'), "
               "(1, 2, 'p02', NULL, NULL), (1, 2, 'p02', 'p01', 'a')")
    assert db.execute("SELECT * FROM pairing_check(1, 'berger')").fetchall() == [
        (1, "p01", None, "paired 2 times in the round"),
        (2, "p02", None, "paired 2 times in the round")]
    with pytest.raises(sqlite3.OperationalError,
                       match=r"pairings\(\): event 1: player 'p01' is paired twice in round 1"):
        db.execute("SELECT * FROM pairings(1, 'berger')").fetchall()


def test_check_paired_while_absent_and_swiss_rules(db):
    """A requested bye and a game in one round is a player twice in it; a player
    disqualified is absent from the start, so a game of theirs is a problem."""
    make_event(db, 4)
    db.execute("UPDATE players SET status = 'disqualified' WHERE player = 'p04'")
    pair_round(db)
    rows = db.execute("SELECT round, player_a, player_b, reason FROM pairing_check(1, 'berger')"
                      ).fetchall()
    assert rows == [(1, "p04", "p01", "player paired while absent (a bye requested, dropped "
                                      "or disqualified)")]


def test_check_forfeit_is_not_a_meeting_for_dutch(db):
    """A game lost by forfeit is not a meeting in the Dutch system (C1 counts games
    played): pairing the two again is no rematch for pairing_check(), as dutch itself
    would pair them. For the match-point Swiss a forfeit is a match: a rematch."""
    make_event(db, 4)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES "
               "(1, 1, 'p01', 'p03', 'forfeit_a'), (1, 1, 'p04', 'p02', 'draw'), "
               "(1, 2, 'p03', 'p01', 'draw'), (1, 2, 'p02', 'p04', 'draw')")
    reasons = lambda system: [r for r in db.execute(
        "SELECT round, player_a, player_b, reason FROM pairing_check(1, ?)", (system,))
        if r[3].startswith("rematch")]
    played_again = (2, "p02", "p04", "rematch: they met in round 1")
    assert reasons("dutch") == [played_again]
    assert reasons("mtg") == [(2, "p01", "p03", "rematch: they met in round 1"), played_again]


def test_dutch_first_colour_read_from_round_one(db):
    """Without XXC, dutch reads the first colour from round 1 as played: colours alternate
    down the pairing numbers from number 1 (C.04.3), so a round 1 in which number 1 had
    Black is checked as Black's round 1, not reported table by table."""
    make_event(db, 6)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES "
               "(1, 1, 'p04', 'p01', 'draw'), (1, 1, 'p02', 'p05', 'draw'), "
               "(1, 1, 'p06', 'p03', 'draw')")
    assert db.execute("SELECT * FROM pairing_check(1, 'dutch')").fetchall() == []
    # number 2 Black as well: it should have had number 1's other colour
    db.execute("UPDATE matches SET player_a = 'p05', player_b = 'p02' WHERE player_a = 'p02'")
    assert db.execute("SELECT round, player_a, player_b FROM pairing_check(1, 'dutch')"
                      ).fetchall() == [(1, "p02", "p05")]


def test_dutch_first_colour_counts_only_the_players_paired(db):
    """Number 1 absent from round 1 (a half-point bye): number 2 is the first player paired
    and had the first colour; number 3, the second, the other."""
    make_event(db, 5)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) VALUES "
               "(1, 1, 'p01', NULL, 'half_bye'), (1, 1, 'p04', 'p02', 'draw'), "
               "(1, 1, 'p03', 'p05', 'draw')")
    assert db.execute("SELECT * FROM pairing_check(1, 'dutch')").fetchall() == []
    rows = db.execute("SELECT player_a, player_b FROM pairings(1, 'dutch')").fetchall()
    assert len(rows) == 3 and ("p01", None) not in rows


def test_dutch_first_colour_of_a_trf_file_xxc_first(db):
    """A stored file (every round an endorsed engine's) whose round 1 gave number 1 Black
    and that has no XXC: every round checks clean. XXC, when present, decides: white1
    makes every table of round 1 a difference; the later rounds, paired from the round 1
    played, agree."""
    text = (Path(__file__).parent / "data/pairing/dutch/gen-011p-05r-s7111.trf").read_text()
    check = ("SELECT round, count(*) FROM pairing_check(?, 'dutch', 'trf_matches', "
             "'trf_players') GROUP BY round")
    assert db.execute(check, (text,)).fetchall() == []
    assert db.execute(check, (text + "XXC black1\n",)).fetchall() == []
    assert db.execute(check, (text + "XXC white1\n",)).fetchall() == [(1, 5)]


def test_check_bracket_that_left_the_bracket(db):
    swiss_event(db, 8)
    s = [p for (p,) in db.execute("SELECT player FROM standings(1, 'mtg') ORDER BY rank")]
    # semifinals of a top 4 should be 1-4, 2-3: entered as 1-2, 3-4
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, result, phase) "
                   "VALUES (1, 4, ?, ?, 'a', 'playoff')", [(s[0], s[1]), (s[2], s[3])])
    rows = db.execute("SELECT round, player_a, player_b FROM pairing_check(1, 'bracket')"
                      ).fetchall()
    assert rows == [(4, s[0], s[3]), (4, s[1], s[2])]
    rows = db.execute("SELECT round, player_a, player_b FROM pairing_check(1, 'bracket(top=4)')"
                      ).fetchall()
    assert rows == [(4, s[0], s[3]), (4, s[1], s[2])]


# ------------------------------------------------------------------- errors

@pytest.mark.parametrize("sql, message", [
    ("SELECT * FROM pairings", r"pairings\(\): the event_id and system arguments are required"),
    ("SELECT * FROM pairings(1)", r"the event_id and system arguments are required"),
    ("SELECT * FROM pairing_check", r"pairing_check\(\): the event_id and system"),
    ("SELECT * FROM pairings(NULL, 'berger')", r"^pairings\(\): event_id is NULL \(readfile\(\) gives NULL for a file it cannot read\)$"),
    ("SELECT * FROM pairings(1.5, 'berger')",
     r"^pairings\(\): event_id must be INTEGER or TEXT, got 1\.5$"),
    ("SELECT * FROM pairings(x'01', 'berger')",
     r"^pairings\(\): event_id must be INTEGER or TEXT, got a BLOB \(a file's text as the "
     r"event: CAST\(readfile\('f'\) AS TEXT\)\)$"),
    # from here on, every message names the event
    ("SELECT * FROM pairings(1, NULL)", r"^pairings\(\): event 1: system must be text"),
    ("SELECT * FROM pairings(1, 7)", r"^pairings\(\): event 1: system must be text"),
    ("SELECT * FROM pairings(1, 'swiss')",
     r"^pairings\(\): event 1: unknown system 'swiss' \(known: berger, bracket"),
    ("SELECT * FROM pairings(1, 'berger(')", r"^pairings\(\): event 1: cannot parse system 'berger\('"),
    ("SELECT * FROM pairings(1, 'berger x')", r"^pairings\(\): event 1: cannot parse system"),
    ("SELECT * FROM pairings(1, 'berger(top=8)')",
     r"^pairings\(\): event 1: unknown option 'top' in system 'berger\(top=8\)' "
     r"\(its options: rounds\)$"),
    ("SELECT * FROM pairings(1, 'berger(rounds=0)')",
     r"^pairings\(\): event 1: rounds must be an integer from 1"),
    ("SELECT * FROM pairings(1, 'berger(rounds=6, rounds=6)')",
     r"^pairings\(\): event 1: option rounds is given twice"),
    ("SELECT * FROM pairings(1, 'bracket(policy=nope)')",
     r"^pairings\(\): event 1: unknown policy 'nope'"),
    ("SELECT * FROM pairings(1, 'berger', 0)",
     r"^pairings\(\): event 1: round must be a positive integer \(1 to 1000000000\)$"),
    ("SELECT * FROM pairings('club', 'berger', 'x')",
     r"^pairings\(\): event 'club': round must be a positive integer \(1 to 1000000000\)$"),
    ("SELECT * FROM pairings(1, 'berger', 1)", r"^pairings\(\): event 1: round 1 was paired already"),
    ("SELECT * FROM pairings(1, 'berger', 3)",
     r"^pairings\(\): event 1: round 3 is beyond the next round \(2\)$"),
    ("SELECT * FROM pairings(9, 'berger')", r"^pairings\(\): event 9: no rows in matches nor in players$"),
    ("SELECT * FROM pairings(1, 'berger', NULL, 3)",
     r"^pairings\(\): event 1: matches_table must be text$"),
    ("SELECT * FROM pairings(1, 'berger', NULL, NULL, 3)",
     r"^pairings\(\): event 1: players_table must be text$"),
    ("SELECT * FROM pairings(1, 'berger', NULL, 'nope')", r"^pairings\(\): event 1: .*nope"),
    ("SELECT * FROM pairings(1, 'berger' || char(0) || '(rounds=9)')",
     r"^pairings\(\): event 1: .*NUL byte"),
    ("SELECT * FROM pairing_check(1, 'swiss')",
     r"^pairing_check\(\): event 1: unknown system 'swiss'"),
    ("SELECT * FROM pairing_check(2, 'berger', 7)",
     r"^pairing_check\(\): event 2: matches_table must be text$"),
])
def test_errors(db, sql, message):
    make_event(db, 4)
    pair_round(db)
    with pytest.raises(sqlite3.OperationalError, match=message):
        db.execute(sql).fetchall()


def test_text_round_and_named_arguments(db):
    make_event(db, 4)
    assert db.execute("SELECT count(*) FROM pairings WHERE event_id = 1 AND system = 'berger' "
                      "AND round = '1'").fetchone() == (2,)
    assert db.execute("SELECT count(*) FROM pairings('1', 'BERGER')").fetchone() == (2,)


# ---------------------------------------------------------------- TRF files

def trf_line(start, name, rating, rounds):
    line = "001 %4d      %-33s %4d" % (start, name, rating)
    line = line.ljust(89)
    for opp, col, res in rounds:
        line += "  %4s %s %s" % (opp, col, res)
    return line


def test_trf_file_read_directly(db):
    """Start numbers are the pairing numbers; XXR 6 makes it a double round robin."""
    text = "\n".join([
        "012 Example", "XXR 6",
        trf_line(1, "A", 1500, [("4", "w", "1")]),
        trf_line(2, "B", 2400, [("3", "w", "=")]),
        trf_line(3, "C", 2300, [("2", "b", "=")]),
        trf_line(4, "D", 2200, [("1", "b", "0")]),
    ]) + "\n"
    rows = db.execute("SELECT round, player_a, player_b FROM pairings(?, 'berger', NULL, "
                      "'trf_matches', 'trf_players')", (text,)).fetchall()
    assert rows == [(2, 4, 3), (2, 1, 2)]
    rows = db.execute("SELECT round, player_a, player_b FROM pairing_check(?, 'berger', "
                      "'trf_matches', 'trf_players')", (text,)).fetchall()
    assert rows == []
    with pytest.raises(sqlite3.OperationalError, match="the event of the file: berger: 7 rounds"):
        db.execute("SELECT * FROM pairings(?, 'berger(rounds=7)', NULL, 'trf_matches', "
                   "'trf_players')", (text,)).fetchall()


def test_trf_2026_records_prohibited_pairs_requested_byes_first_colour(db):
    """260: 1 and 4 may not meet in rounds 1-2; 240: 2 asked for a bye in round 3 (a
    bye of a round played whose player played it is an error: test_pairings_hostile.py);
    152 B: pairing number 1 starts with Black (berger reverses every colour)."""
    text = "\n".join([
        "012 Example", "152 B", "260 001 002    1    4", "240 H 003    2",
        trf_line(1, "A", 1500, [("4", "b", "1")]),
        trf_line(2, "B", 2400, [("3", "b", "=")]),
        trf_line(3, "C", 2300, [("2", "w", "=")]),
        trf_line(4, "D", 2200, [("1", "w", "0")]),
    ]) + "\n"
    rows = db.execute("SELECT round, player_a, player_b, reason FROM pairing_check(?, 'berger', "
                      "'trf_matches', 'trf_players')", (text,)).fetchall()
    assert rows == [(1, 1, 4, "a prohibited pairing (TRF record 260)")]
    # round 2 of 4 players is 4-3, 1-2: reversed
    assert db.execute("SELECT player_a, player_b FROM pairings(?, 'berger', NULL, "
                      "'trf_matches', 'trf_players')", (text,)).fetchall() == [(3, 4), (2, 1)]


def test_trf_entries_for_the_round_to_pair_are_absences(db):
    """A TRF file before round 2: 3 entered F (a full-point bye, a bye row) and 4 H.
    Round 2 is still the round to pair; the bracket leaves them out of its cut."""
    text = "\n".join([
        trf_line(1, "A", 2400, [("4", "w", "1"), ("0000", "-", " ")]),
        trf_line(2, "B", 2300, [("3", "w", "1")]),
        trf_line(3, "C", 2200, [("2", "b", "0"), ("0000", "-", "F")]),
        trf_line(4, "D", 2100, [("1", "b", "0"), ("0000", "-", "H")]),
    ]) + "\n"
    rows = db.execute("SELECT round, player_a, player_b FROM pairings(?, "
                      "'bracket(top=2, policy=fide)', NULL, 'trf_matches', 'trf_players')",
                      (text,)).fetchall()
    assert rows == [(2, 1, 2)]
    with pytest.raises(sqlite3.OperationalError, match="top=3, but 2 players are present"):
        db.execute("SELECT * FROM pairings(?, 'bracket(top=3, policy=fide)', NULL, "
                   "'trf_matches', 'trf_players')", (text,)).fetchall()


def test_state_of_a_dutch_event_before_round_5():
    """A Swiss of 100 players paired by an endorsed engine, before round 5: player 19
    asked for a half-point bye in it (H), the other 99 were paired.  The state has
    round 5 to pair, 99 present players, the scores of rounds 1-4, and XXR 7."""
    conn = sqlite3.connect(":memory:")
    from conftest import EXT_PATH
    conn.enable_load_extension(True)
    conn.load_extension(EXT_PATH)
    text = (HERE / "pairing" / "rtg-100p-07r-s9.before-round-5.trf").read_text()
    args = (text,)
    tail = ", NULL, 'trf_matches', 'trf_players')"
    with pytest.raises(sqlite3.OperationalError,
                       match=r"the event of the file: bracket: top=100, but 99 players are present"):
        conn.execute("SELECT * FROM pairings(?, 'bracket(top=100, policy=fide)'" + tail,
                     args).fetchall()
    rows = conn.execute("SELECT round, player_a, score_a, rank_a, colours_a FROM pairings(?, "
                        "'bracket(top=99, policy=fide)'" + tail, args).fetchall()
    assert {r[0] for r in rows} == {5} and 19 not in {r[1] for r in rows}
    points = dict(conn.execute("SELECT player, points FROM standings(?, 'fide', NULL, NULL, "
                               "'trf_matches', '', 'trf_players')", args).fetchall())
    # player 19 stands with the half point of round 5 in standings(); the state does not
    # count round 5: its score is that of rounds 1-4
    assert all(points[p] == score for _, p, score, _, _ in rows)
    assert all(len(colours) == 4 for *_, colours in rows)
    # a Swiss is no round robin: berger does not continue it
    with pytest.raises(sqlite3.OperationalError,
                       match=r"the event of the file: berger: the event is not a round robin of "
                             r"its table: in round 1 player 1 met 51, where the table pairs them "
                             r"with 100 \(pairing numbers the file's start numbers\)"):
        conn.execute("SELECT count(*) FROM pairings(?, 'berger(rounds=99)'" + tail, args)
    conn.close()


# ---------------------------------------------------------------- interrupts

def test_interrupt_stops_pairing_check(connect, tmp_path):
    """A round robin of 200 players, 100 rounds entered: the check builds 100 states."""
    conn = connect(str(tmp_path / "rr.db"))
    make_event(conn, 200)
    conn.execute("UPDATE players SET player = 'q' || substr('000' || rowid, -3)")
    rows = []
    n, m = 200, 199
    for r in range(1, 101):
        a = next(x for x in range(1, m + 1) if (2 * x) % m == (r + 1) % m)
        pairs = [(a, n) if r % 2 else (n, a)]
        for k in range(1, n // 2):
            pairs.append(((a - 1 + k) % m + 1, (a - 1 - k) % m + 1))
        rows += [(1, r, f"q{x:03d}", f"q{y:03d}", "draw") for x, y in pairs]
    conn.executemany("INSERT INTO matches (event_id, round, player_a, player_b, result) "
                     "VALUES (?, ?, ?, ?, ?)", rows)
    conn.commit()
    query = "SELECT count(*) FROM pairing_check(1, 'berger')"
    t0 = time.perf_counter()
    assert conn.execute(query).fetchone() == (0,)
    full = time.perf_counter() - t0
    # at half the measured time, earlier again if a run ends first (a loaded machine)
    error, latency, when = interrupted_in_time(conn, query, full, conn.interrupt)
    assert error is not None and "interrupted" in str(error), error
    print(f"pairing_check: {full:.3f} s whole, interrupted at {when:.3f} s, stopped "
          f"{latency:.4f} s after")
    # the connection is still usable
    assert conn.execute("SELECT count(*) FROM pairings(1, 'berger')").fetchone() == (100,)


def test_errors_of_the_systems_name_the_event(db):
    """The systems' own messages (dutch's, berger's) come after the event,
    for pairings() and as pairing_check() reasons alike."""
    make_event(db, 2, event="open")
    pair_round(db, "dutch", event="open")
    with pytest.raises(sqlite3.OperationalError) as e:
        db.execute("SELECT * FROM pairings('open', 'dutch')").fetchall()
    assert str(e.value) == ("pairings(): event 'open': dutch: no pairing of round 2 meets the "
                            "absolute criteria (C1-C3)")
    with pytest.raises(sqlite3.OperationalError) as e:
        db.execute("SELECT * FROM pairings('open', 'berger')").fetchall()
    assert str(e.value) == ("pairings(): event 'open': berger: round 2 is past the last round (1) "
                            "of a round robin of 2 players; rounds=N for a double round robin")


def test_a_file_as_the_event_is_named_as_such(db):
    """A TOM file's text as the event is not pasted into the message."""
    tdf = ('<tournament><players><player userid="1"/><player userid="2"/></players>'
           '<pods><pod category="2"><rounds><round number="1" type="3"><matches>'
           '<match outcome="1"><player1 userid="1"/><player2 userid="2"/></match>'
           '</matches></round></rounds></pod></pods></tournament>')
    with pytest.raises(sqlite3.OperationalError) as e:
        db.execute("SELECT * FROM pairings(?, 'mtg', 0, 'tom_matches')", (tdf,)).fetchall()
    assert str(e.value) == ("pairings(): the event of the file: round must be a positive "
                            "integer (1 to 1000000000)")
