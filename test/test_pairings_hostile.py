"""pairings() and pairing_check() used as a demanding user would: arguments of every
type, rows that no tournament should have (a gap in the rounds, a player against
themself, ids in their other form), TRF records read line by line, a table that hides
a reader function, joins and nested loops, interrupts and the progress handler in the
middle of a pairing, and nothing written.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_pairings_hostile.py -q
"""
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from conftest import run_with_progress

REPO = Path(__file__).resolve().parent.parent
SCHEMA = (REPO / "sql" / "schema.sql").read_text()
SYSTEMS = ["mtg", "pokemon", "dutch", "berger", "bracket(top=4)"]


@pytest.fixture
def db(connect):
    conn = connect(isolation_level=None)
    conn.executescript(SCHEMA)
    return conn


def loose_matches(conn):
    """A matches table without the schema's NOT NULL constraints."""
    conn.execute("CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, "
                 "b_wins, draws, result)")


def error_of(conn, sql, params=()):
    with pytest.raises(sqlite3.Error) as info:
        conn.execute(sql, params).fetchall()
    return str(info.value)


def players(conn, n, event=1):
    conn.execute("CREATE TABLE IF NOT EXISTS players (event_id, player, rating)")
    conn.executemany("INSERT INTO players VALUES (?, ?, ?)",
                     [(event, i, 3000 - i) for i in range(1, n + 1)])


# ------------------------------------------------------------ arguments

@pytest.mark.parametrize("sql, message", [
    ("SELECT * FROM pairings(1, 'mtg', NULL, 'matches', 'players', 'x')",
     "too many arguments on pairings() - max 5"),
    ("SELECT * FROM pairing_check(1, 'mtg', 'matches', 'players', 'x')",
     "too many arguments on pairing_check() - max 4"),
    ("SELECT * FROM pairings(x'01', 'mtg')", "pairings(): event_id must be INTEGER or TEXT"),
    ("SELECT * FROM pairings(1, x'6d7467')", "pairings(): event 1: system must be text"),
    ("SELECT * FROM pairings(1, '')", "pairings(): event 1: unknown system ''"),
    ("SELECT * FROM pairings(1, 'mtg(seed=1, SEED=2)')",
     "pairings(): event 1: option seed is given twice in system 'mtg(seed=1, SEED=2)'"),
    ("SELECT * FROM pairings(1, 'mtg(seed=9223372036854775808)')",
     "pairings(): event 1: seed must be an integer from 0 to 9223372036854775807"),
    ("SELECT * FROM pairings(1, 'mtg(seed=NaN)')", "pairings(): event 1: seed must be an integer"),
    # contradictory options, whatever the rows (none here)
    ("SELECT * FROM pairings(9, 'dutch(rounds=2, accelerated=3)')",
     "pairings(): event 9: accelerated=3 is more rounds than rounds=2"),
    ("SELECT * FROM pairings(1, 'dutch(seed=1)')", "pairings(): event 1: unknown option 'seed'"),
    ("SELECT * FROM pairings(1, 'mtg' || char(0) || '(seed=1)')", "NUL byte"),
    ("SELECT * FROM pairings(1, 'berger', NULL, 'matches' || char(0) || 'x')",
     "pairings(): event 1: matches_table contains a NUL byte"),
    ("SELECT * FROM pairings(1, 'berger', NULL, NULL, x'00')",
     "pairings(): event 1: players_table must be text"),
    # a positive integer, but past any round: the message says how far rounds go
    ("SELECT * FROM pairings(1, 'berger', 9223372036854775807)",
     "pairings(): event 1: round must be a positive integer (1 to 1000000000)"),
    ("SELECT * FROM pairings(1, 'berger', 1e300)", "round must be a positive integer"),
    ("SELECT * FROM pairings(1, 'berger', ' 1')", "round must be a positive integer"),
])
def test_argument_errors(db, sql, message):
    players(db, 4)
    assert message in error_of(db, sql)


def test_whole_real_and_text_event_ids_pair_the_integer_event(db):
    players(db, 4)
    want = db.execute("SELECT * FROM pairings(1, 'berger')").fetchall()
    assert len(want) == 2
    for event in (1.0, "1"):
        assert db.execute("SELECT * FROM pairings(?, 'berger')", (event,)).fetchall() == want
    assert "event '01': no rows" in error_of(db, "SELECT * FROM pairings('01', 'berger')")


def test_a_whole_real_event_id_finds_the_text_event_as_standings_does(db):
    """Rows stored with the text id '1' (a table without affinity): pairings(1.0, ...)
    found no rows while pairings(1, ...) and pairings('1', ...) read them. Every
    function takes 1.0 as 1, and 1 finds '1' in its other form (tb_id_other_form)."""
    db.execute("CREATE TABLE players (event_id, player, rating, published_rank)")
    db.executemany("INSERT INTO players VALUES ('1', ?, ?, ?)",
                   [(i, 3000 - i, 9 if i == 4 else i) for i in range(1, 5)])
    want = db.execute("SELECT * FROM pairings('1', 'berger')").fetchall()
    assert [r[1:3] for r in want] == [(1, 4), (2, 3)]
    ranks = db.execute("SELECT player, rank FROM standings('1', 'fide')").fetchall()
    assert len(ranks) == 4
    for event in (1, 1.0):
        assert db.execute("SELECT * FROM pairings(?, 'berger')", (event,)).fetchall() == want
        assert db.execute("SELECT player, rank FROM standings(?, 'fide')",
                          (event,)).fetchall() == ranks
        assert db.execute("SELECT * FROM pairing_check(?, 'berger')", (event,)).fetchall() == []
        assert db.execute("SELECT player, what, published FROM standings_check(?, 'fide')",
                          (event,)).fetchall() == [(4, "rank", 9)]
    assert error_of(db, "SELECT * FROM pairings(1.5, 'berger')") == \
        "pairings(): event_id must be INTEGER or TEXT, got 1.5"


# ------------------------------------------------------- rows of the event

@pytest.mark.parametrize("system", SYSTEMS)
def test_a_gap_in_the_rounds_is_an_error_not_a_state_of_a_million_rounds(db, system):
    """One row of round 10^6 (a typo for round 2) made the state of round 10^6 + 1:
    every player absent in 999,998 rounds, players x rounds of memory, and
    pairing_check() built a state per round (quadratic: it did not end)."""
    db.execute("DROP TABLE matches")
    loose_matches(db)
    db.executemany("INSERT INTO matches VALUES (1, ?, ?, ?, 2, 0, 0, NULL)",
                   [(1, "a", "b"), (1, "c", "d"), (1000000, "a", "c")])
    assert error_of(db, f"SELECT * FROM pairings(1, '{system}')") == (
        "pairings(): event 1: rounds 2 to 999999 have no rows, round 1000000 has: "
        "rounds are numbered 1, 2, 3 ... without a gap")
    assert db.execute(f"SELECT * FROM pairing_check(1, '{system}')").fetchall() == [
        (2, None, None, "rounds 2 to 999999 have no rows, round 1000000 has: "
                        "rounds are numbered 1, 2, 3 ... without a gap")]


def test_every_gap_is_a_problem_of_pairing_check(db):
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
                   "VALUES (1, ?, 'a', 'b', 2)", [(1,), (3,), (4,), (7,)])
    assert db.execute("SELECT round, reason FROM pairing_check(1, 'mtg')").fetchall() == [
        (2, "round 2 has no rows, round 3 has: rounds are numbered 1, 2, 3 ... without a gap"),
        (5, "rounds 5 to 6 have no rows, round 7 has: rounds are numbered 1, 2, 3 ... "
            "without a gap")]
    assert "event 1: round 2 has no rows, round 3 has" in \
        error_of(db, "SELECT * FROM pairings(1, 'mtg')")


def test_rows_entered_ahead_of_the_round_to_pair_are_no_gap(db):
    """A bye requested for round 3 while round 2 is the round to pair."""
    players(db, 4)
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins, result) "
                   "VALUES (1, ?, ?, ?, ?, ?)",
                   [(1, 1, 2, 2, None), (1, 3, 4, 2, None), (3, 1, None, 0, "zero_bye")])
    rows = db.execute("SELECT round, player_a, player_b FROM pairings(1, 'mtg')").fetchall()
    assert {r[0] for r in rows} == {2} and len(rows) == 2
    assert db.execute("SELECT * FROM pairing_check(1, 'mtg')").fetchall() == []


def test_a_player_against_themself(db):
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
                   "VALUES (1, 1, ?, ?, 2)", [("a", "a"), ("b", "c")])
    assert error_of(db, "SELECT * FROM pairings(1, 'mtg')") == \
        "pairings(): event 1: player 'a' is paired with themself in round 1"
    assert db.execute("SELECT * FROM pairing_check(1, 'mtg')").fetchall() == [
        (1, "a", None, "paired with themself (player_a is player_b)")]


def test_pairing_check_finds_the_event_in_its_other_form(db):
    """Rows stored with the text id '1': pairings(1, ...) reads them (the other form);
    pairing_check(1, ...) failed on the reader's error instead of listing the problem."""
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
                   "VALUES ('1', 1, ?, ?, 2)", [("a", "b"), ("a", "c")])
    want = [(1, "a", None, "paired 2 times in the round")]
    assert db.execute("SELECT * FROM pairing_check('1', 'mtg')").fetchall() == want
    assert db.execute("SELECT * FROM pairing_check(1, 'mtg')").fetchall() == want
    # where both forms have rows, each finds its own
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
               "VALUES (1, 1, 'x', 'y', 2)")
    assert db.execute("SELECT * FROM pairing_check(1, 'mtg')").fetchall() == []
    # IS is =, as in standings(): the integer event alone, not also the text '1'
    one = db.execute("SELECT player_a, player_b FROM pairings(1, 'mtg')").fetchall()
    assert sorted(p for r in one for p in r) == ["x", "y"]
    assert db.execute("SELECT player_a, player_b FROM pairings WHERE event_id IS 1 "
                      "AND system IS 'mtg'").fetchall() == one


@pytest.mark.parametrize("system", SYSTEMS)
def test_null_and_blob_players_are_errors(db, system):
    db.execute("DROP TABLE matches")
    loose_matches(db)
    db.execute("INSERT INTO matches VALUES (1, 1, NULL, 'b', 2, 0, 0, NULL)")
    assert error_of(db, f"SELECT * FROM pairings(1, '{system}')") == \
        "pairings(): event 1: NULL player_a in round 1"
    db.execute("UPDATE matches SET player_a = x'00'")
    assert "event 1: player_a must be an INTEGER or TEXT id" in \
        error_of(db, f"SELECT * FROM pairing_check(1, '{system}')")


def test_extreme_integer_ids(db):
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
                   "VALUES (9223372036854775807, 1, ?, ?, 2)",
                   [(9223372036854775807, -9223372036854775808), ("x", "y")])
    rows = db.execute("SELECT player_a, player_b FROM pairings(9223372036854775807, "
                      "'mtg')").fetchall()
    assert sorted(p for r in rows for p in r if isinstance(p, int)) == \
        [-9223372036854775808, 9223372036854775807]
    assert db.execute("SELECT * FROM pairing_check(9223372036854775807, 'mtg')"
                      ).fetchall() == []


def test_everyone_met_everyone(db):
    """Four players after three rounds of a round robin: no pairing without a rematch.
    The match-point Swiss pairs the rematches it cannot avoid and says so; Dutch finds no
    pairing under its absolute criteria; berger's round robin is over."""
    players(db, 4)
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
                   "VALUES (1, ?, ?, ?, 2)",
                   [(1, 1, 4), (1, 2, 3), (2, 4, 3), (2, 1, 2), (3, 2, 4), (3, 3, 1)])
    for system in ("mtg", "pokemon"):
        rows = db.execute(f"SELECT player_a, player_b, why FROM pairings(1, '{system}')"
                          ).fetchall()
        assert len(rows) == 2 and {r[2] for r in rows} == {"rematch: no pairing avoids it"}
    assert "dutch: no pairing of round 4 meets the absolute criteria (C1-C3)" in \
        error_of(db, "SELECT * FROM pairings(1, 'dutch')")
    assert error_of(db, "SELECT * FROM pairings(1, 'berger')") == (
        "pairings(): event 1: berger: round 4 is past the last round (3) of a round robin "
        "of 4 players; rounds=N for a double round robin")
    for system in ("mtg", "pokemon", "berger"):
        assert db.execute(f"SELECT * FROM pairing_check(1, '{system}')").fetchall() == []


def test_everyone_dropped(db):
    """No one to pair in a Swiss; a round robin keeps its schedule (the arbiter enters
    the forfeits)."""
    db.execute("CREATE TABLE players (event_id, player, rating, status)")
    db.executemany("INSERT INTO players VALUES (1, ?, ?, 'dropped')",
                   [(i, 3000 - i) for i in range(1, 5)])
    for system in ("mtg", "pokemon", "dutch"):
        assert db.execute(f"SELECT * FROM pairings(1, '{system}')").fetchall() == []
    assert db.execute("SELECT player_a, player_b FROM pairings(1, 'berger')").fetchall() == \
        [(1, 4), (2, 3)]
    assert error_of(db, "SELECT * FROM pairings(1, 'bracket(top=4)')") == \
        "pairings(): event 1: bracket: top=4, but 0 players are present"
    db.execute("UPDATE players SET status = NULL WHERE player = 1")
    assert error_of(db, "SELECT * FROM pairings(1, 'bracket(top=4)')") == \
        "pairings(): event 1: bracket: top=4, but 1 player is present"


def test_views_and_missing_columns(db):
    players(db, 4)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
               "VALUES (1, 1, 1, 2, 2), (1, 1, 3, 4, 2)")
    db.execute("CREATE VIEW v AS SELECT * FROM matches")
    want = db.execute("SELECT * FROM pairings(1, 'mtg')").fetchall()
    assert db.execute("SELECT * FROM pairings(1, 'mtg', NULL, 'v')").fetchall() == want
    assert db.execute("SELECT * FROM pairing_check(1, 'mtg', 'v')").fetchall() == []
    db.execute("CREATE TABLE m2 (event_id, round, player_a)")
    assert error_of(db, "SELECT * FROM pairing_check(1, 'mtg', 'm2')") == \
        "pairing_check(): event 1: table m2 has no column player_b"


# --------------------------------------------------------------- TRF records

def trf_line(start, rating, rounds=()):
    line = ("001 %4d      %-33s %4d" % (start, "P%d" % start, rating)).ljust(89)
    for opp, col, res in rounds:
        line += "  %4s %s %s" % (opp, col, res)
    return line


TRF_TAIL = ", NULL, 'trf_matches', 'trf_players')"


def six_players(*records):
    return "\n".join(["012 Six"] + list(records) +
                     [trf_line(i, 2500 - i) for i in range(1, 7)]) + "\n"


@pytest.mark.parametrize("system", ["mtg", "dutch"])
def test_a_trf_record_ends_at_its_line(db, system):
    """240 H 001 2 (player 2 asked for a bye in round 1) followed by 260 001 003 5 6: the
    240 record read on into the next line, so 260, 1, 3, 5 and 6 were absent as well, and
    round 1 was player 4's bye alone."""
    text = six_players("240 H 001 2", "260 001 003 5 6")
    rows = db.execute(f"SELECT player_a, player_b FROM pairings(?, '{system}'{TRF_TAIL}",
                      (text,)).fetchall()
    paired = sorted(p for r in rows for p in r if p is not None)
    assert paired == [1, 3, 4, 5, 6]
    assert (5, 6) not in rows and (6, 5) not in rows


def test_a_prohibited_pairing_is_one_problem_however_many_records_say_it(db):
    body = [trf_line(1, 1500, [("4", "w", "1")]), trf_line(2, 2400, [("3", "w", "=")]),
            trf_line(3, 2300, [("2", "b", "=")]), trf_line(4, 2200, [("1", "b", "0")])]
    text = "\n".join(["012 X", "260 001 002 1 4", "260 001 009 4 1"] + body) + "\n"
    assert db.execute("SELECT * FROM pairing_check(?, 'mtg', 'trf_matches', 'trf_players')",
                      (text,)).fetchall() == [(1, 1, 4, "a prohibited pairing (TRF record 260)")]


@pytest.mark.parametrize("hide", ["CREATE TABLE trf_records (event_id, record, value)",
                                  "CREATE TEMP VIEW trf_records AS SELECT 1 AS x"])
def test_a_table_named_trf_records_is_an_error_not_records_ignored(db, hide):
    """The records are read with trf_records(); a table of that name hid the function
    and the 260 record went unread: the prohibited pairing was not reported."""
    body = [trf_line(1, 1500, [("2", "w", "1")]), trf_line(2, 2400, [("1", "b", "0")])]
    text = "\n".join(["012 X", "260 001 001 1 2"] + body) + "\n"
    sql = "SELECT reason FROM pairing_check(?, 'mtg', 'trf_matches', 'trf_players')"
    assert db.execute(sql, (text,)).fetchall() == [("a prohibited pairing (TRF record 260)",)]
    db.execute(hide)
    assert error_of(db, sql, (text,)) == (
        "pairing_check(): the event of the file: the file's records (XXR, XXC, 192, 240, 250, 260, XXA) "
        "cannot be read: 'trf_records' is not a function (is a table or view named "
        "trf_records hiding the function?)")


def test_a_table_of_ones_own_named_trf_matches_has_no_records(db):
    """A table named trf_matches hides the reader: its events are no file's text, so
    there are no records to read (trf_records() refuses them), and no error for that."""
    db.execute("CREATE TABLE trf_matches (event_id, round, player_a, player_b, a_wins, "
               "b_wins, draws, result)")
    db.execute("INSERT INTO trf_matches VALUES (1, 1, 1, 4, 0, 0, 0, 'a'), "
               "(1, 1, 2, 3, 0, 0, 0, 'b')")
    # start numbers are the ids, as a TRF file's: rounds 1 and 2 of four are 1-4, 2-3 and
    # 4-3, 1-2
    assert db.execute("SELECT player_a, player_b FROM pairings(1, 'berger', NULL, "
                      "'trf_matches')").fetchall() == [(4, 3), (1, 2)]


def test_malformed_trf_text_is_the_readers_error(db):
    for text, message in [("", "not a TRF file"), ("001 " + "x" * 200, "start number"),
                          (six_players() + "\x00", "NUL byte")]:
        assert message in error_of(db, f"SELECT * FROM pairings(?, 'dutch'{TRF_TAIL}",
                                   (text,))


# ------------------------------------------------------------ the SQL surface

def test_nested_loop_calls_xfilter_again_for_each_outer_row(db):
    players(db, 8, event=1)
    players(db, 6, event=2)
    alone = {e: db.execute("SELECT table_number, player_a, player_b FROM "
                           "pairings(?, 'berger')", (e,)).fetchall() for e in (1, 2)}
    rows = db.execute("WITH e(e) AS (VALUES (1), (2), (1), (2), (2)) "
                      "SELECT e.e, p.table_number, p.player_a, p.player_b "
                      "FROM e, pairings(e.e, 'berger') AS p").fetchall()
    assert rows == [(e, *r) for e in (1, 2, 1, 2, 2) for r in alone[e]]
    counts = db.execute("WITH v(s) AS (VALUES ('mtg'), ('berger'), ('dutch'), "
                        "('pokemon'), ('bracket(top=4)')) "
                        "SELECT s, count(*) FROM v JOIN pairings(1, v.s) GROUP BY s "
                        "ORDER BY s").fetchall()
    assert counts == [("berger", 4), ("bracket(top=4)", 2), ("dutch", 4), ("mtg", 4),
                      ("pokemon", 4)]


def test_two_cursors_at_once_and_constraints_in_any_order(db):
    players(db, 8, event=1)
    players(db, 6, event=2)
    one = db.execute("SELECT player_a FROM pairings(1, 'mtg')").fetchall()
    two = db.execute("SELECT player_a FROM pairings(2, 'mtg')").fetchall()
    c1 = db.execute("SELECT player_a FROM pairings(1, 'mtg')")
    c2 = db.execute("SELECT player_a FROM pairings(2, 'mtg')")
    got1, got2 = [c1.fetchone()], [c2.fetchone()]
    got1 += c1.fetchall()
    got2 += c2.fetchall()
    assert (got1, got2) == (one, two)
    named = db.execute("SELECT player_a FROM pairings WHERE round = 1 AND system = 'mtg' "
                       "AND players_table = 'players' AND event_id = 1").fetchall()
    assert named == one
    assert db.execute("SELECT player_a FROM pairings WHERE event_id IS 1 AND system IS "
                      "'mtg'").fetchall() == one
    assert db.execute("SELECT player_a FROM pairings(1, 'mtg') LIMIT 2 OFFSET 1"
                      ).fetchall() == one[1:3]
    assert db.execute("SELECT count(*) FROM pairings WHERE event_id IN (1, 2) AND "
                      "system = 'mtg'").fetchone() == (len(one) + len(two),)
    assert db.execute("SELECT count(*) FROM pairings(1, 'mtg') a, pairings(1, 'mtg') b"
                      ).fetchone() == (len(one) ** 2,)


READ_ACTIONS = (sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION,
                sqlite3.SQLITE_RECURSIVE, sqlite3.SQLITE_PRAGMA)


def test_nothing_is_written_and_no_file_is_opened(connect, tmp_path):
    """Every statement the functions run is a read (the authorizer sees them); the
    database file is unchanged and no other file appears beside it."""
    path = tmp_path / "event.db"
    conn = connect(str(path))
    conn.executescript(SCHEMA)
    players(conn, 6)
    conn.commit()
    before = path.read_bytes()
    writes = []

    def authorizer(action, arg1, arg2, dbname, source):
        # pragma_table_xinfo() (the columns of a table) reports its read of the schema
        # table as an UPDATE of sqlite_master's columns: SQLite's own, no write
        schema_read = action == sqlite3.SQLITE_UPDATE and arg1 == "sqlite_master"
        if action not in READ_ACTIONS and not schema_read:
            writes.append((action, arg1, arg2))
        return sqlite3.SQLITE_OK

    conn.set_authorizer(authorizer)
    for system in SYSTEMS:
        conn.execute(f"SELECT * FROM pairings(1, '{system}')").fetchall()
        conn.execute(f"SELECT * FROM pairing_check(1, '{system}')").fetchall()
    conn.set_authorizer(None)
    assert writes == []
    assert not conn.in_transaction
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["event.db"]


# --------------------------------------------------------------- interrupts

def swiss_event(conn, n, rounds):
    """n players paired by 'mtg' round after round; the lower id wins unless one in
    three, in a pattern."""
    conn.executemany("INSERT INTO players VALUES (1, ?, ?)", [(i, 1000 + i) for i in range(n)])
    for _ in range(rounds):
        rows = conn.execute("SELECT round, player_a, player_b FROM pairings(1, 'mtg')"
                            ).fetchall()
        conn.executemany(
            "INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins) "
            "VALUES (1, ?, ?, ?, ?, ?)",
            [(r, a, b, 0 if b is not None and (a * 7 + b + r) % 3 == 0 else 2,
              2 if b is not None and (a * 7 + b + r) % 3 == 0 else 0) for r, a, b in rows])
    conn.commit()


@pytest.fixture(scope="module")
def big(connect, tmp_path_factory):
    path = str(tmp_path_factory.mktemp("pairings") / "swiss.db")
    conn = connect(path)
    conn.executescript(SCHEMA)
    conn.execute("CREATE TABLE players (event_id, player, rating)")
    swiss_event(conn, 4000, 4)
    conn.close()
    return path


def progress_calls(conn, sql):
    """How many times the progress handler (every 1000 steps) runs during sql."""
    calls, error = run_with_progress(conn, sql)
    assert error is None, error
    return calls


@pytest.mark.parametrize("sql", ["SELECT count(*) FROM pairings(1, 'mtg')",
                                 "SELECT count(*) FROM pairings(1, 'pokemon')",
                                 "SELECT count(*) FROM pairing_check(1, 'berger')",
                                 "SELECT count(*) FROM pairing_check(1, 'mtg')"])
def test_interrupt_in_the_middle_of_a_pairing(connect, big, sql):
    """sqlite3_interrupt() from the progress handler's call halfway through the
    statement (a point in the work, not in time: the same on any machine)."""
    conn = connect(big)
    half = progress_calls(conn, sql) // 2
    assert half > 5
    calls, fired = [0], []

    def handler():
        calls[0] += 1
        if calls[0] == half:
            fired.append(time.perf_counter())
            conn.interrupt()
        return 0

    conn.set_progress_handler(handler, 1000)
    with pytest.raises(sqlite3.OperationalError, match="interrupted"):
        conn.execute(sql).fetchall()
    late = time.perf_counter() - fired[0]
    conn.set_progress_handler(None, 0)
    print(f"{sql}: stopped {late * 1000:.1f} ms after the interrupt")
    # the connection is still usable
    assert conn.execute("SELECT count(*) FROM players").fetchone() == (4000,)


def test_progress_handler_stops_a_pairing(connect, big):
    """A handler that says stop halfway: the pairing stops at that call, not later."""
    conn = connect(big)
    sql = "SELECT count(*) FROM pairings(1, 'mtg')"
    stop_at = progress_calls(conn, sql) // 2
    assert stop_at > 5
    calls, error = run_with_progress(conn, sql, stop_at=stop_at)
    assert str(error) == "pairings(): event 1: interrupted"
    assert calls == stop_at  # stopped at the first call that asked


@pytest.mark.parametrize("record", ["240 H 001 2 9", "260 001 003 5 9"])
@pytest.mark.parametrize("system", ["mtg", "dutch"])
def test_a_trf_record_naming_an_unknown_start_number_is_an_error(db, record, system):
    """A start number with no 001 record in a 240 or 260 record is a typo that would leave
    a requested bye or a prohibition unseen: an error naming the record, as for XXA."""
    text = six_players(record)
    assert error_of(db, f"SELECT * FROM pairings(?, '{system}'{TRF_TAIL}", (text,)) == (
        f"pairings(): the event of the file: record '{record}': "
        "start number 9 has no 001 record")


def test_a_trf_record_of_another_round_is_checked_too(db):
    """The typo is found whichever round the record is for."""
    text = six_players("240 H 005 9")
    assert error_of(db, f"SELECT * FROM pairings(?, 'mtg'{TRF_TAIL}", (text,)) == (
        "pairings(): the event of the file: record '240 H 005 9': "
        "start number 9 has no 001 record")


BYE_FIELDS = "not the fields of record 240 (the bye's type F, H or Z, the round, start numbers)"
BAN_FIELDS = "not the fields of record 260 (first and last round, two or more start numbers)"


@pytest.mark.parametrize("record, why", [
    # a field that is no number: the record was cut short there, or skipped whole
    ("240 H 005 2 abc 3", "'abc' is not a start number"),
    ("260 x y 1 2", "'x' is not a round (a number from 1 to 99999)"),
    ("260 1 3 -5 6", "'-5' is not a start number"),
    ("260 0 3 1 2", "'0' is not a round (a number from 1 to 99999)"),
    # past 2^63: strtol gave 9223372036854775807, shown as the number written
    ("240 H 2 99999999999999999999", "start number 99999999999999999999 has no 001 record"),
    ("240 H 99999999999999999999 2",
     "'99999999999999999999' is not a round (a number from 1 to 99999)"),
    ("240 H 2 0009", "start number 9 has no 001 record"),
    # fields missing, or the bye's type: '240 12 3' read as round 2, player 3
    ("240", BYE_FIELDS), ("240 H", BYE_FIELDS), ("240 H 1", BYE_FIELDS),
    ("240 12 3", BYE_FIELDS), ("240 Q 1 2", BYE_FIELDS),
    ("260", BAN_FIELDS), ("260 1 3 5", BAN_FIELDS),
    ("260 3 1 5 6", "rounds 3 to 1: the range is empty"),
    ("250 1.0 1 3 1 99999999999999999999",
     "'99999999999999999999' is not a round or start number (a number from 1 to 99999)"),
    # the rounds scheduled: a typo paired as if the last round were not
    ("XXR abc", "'abc' is not a number of rounds (1 to 99999)"),
    ("XXR 0", "'0' is not a number of rounds (1 to 99999)"),
    ("142 9x", "'9x' is not a number of rounds (1 to 99999)"),
    # the initial colour: another letter read as W
    ("152 X", "'X' is not a colour (W or B)"),
    ("152 white", "'white' is not a colour (W or B)"),
    # a player listed twice: a typo for another player, whose bye or prohibition was lost
    # (and '260 1 9 2 2' prohibited nothing)
    ("260 1 9 2 2", "start number 2 is listed twice"),
    ("260 1 3 5 6 005", "start number 5 is listed twice"),
    ("240 H 3 4 4", "start number 4 is listed twice"),
    # XXC: white1 or black1 (the engines' words); another was read as white1
    ("XXC blak1", "'blak1' is not a setting (white1 or black1)"),
    ("XXC white", "'white' is not a setting (white1 or black1)"),
    ("XXC black1 x", "'x' is not a setting (white1 or black1)"),
    ("XXC white1 black1", "both white1 and black1"),
    ("XXC rank", "'rank' (pairing numbers in the order of the 001 records) is not read: "
                 "pairing numbers are the start numbers"),
])
@pytest.mark.parametrize("function", ["pairings(?, 'mtg', NULL, 'trf_matches', 'trf_players')",
                                      "pairing_check(?, 'dutch', 'trf_matches', 'trf_players')"])
def test_a_malformed_record_that_pairing_reads_is_an_error_naming_it(db, record, why, function):
    """Each was skipped or read in part: a requested bye, a prohibition or the rounds
    scheduled lost without a word. pairing_check() of an event not begun reads the
    records too."""
    prefix = function.split("(")[0]
    shown = record[:4] + record[4:].strip() if len(record) > 3 else record + " "
    assert error_of(db, f"SELECT * FROM {function}", (six_players(record),)) == (
        f"{prefix}(): the event of the file: record '{shown}': {why}")


def test_well_formed_240_and_260_records_still_pair(db):
    """The strict reading keeps what the records say: 240 h (either case) 001 2 keeps
    player 2 out of round 1; 260 1 1 1 5 6 keeps 1, 5 and 6 apart."""
    text = six_players("240 h 001 2", "260 1 1 1 5 6")
    rows = db.execute(f"SELECT player_a, player_b FROM pairings(?, 'mtg'{TRF_TAIL}",
                      (text,)).fetchall()
    paired = sorted(p for r in rows for p in r if p is not None)
    assert paired == [1, 3, 4, 5, 6]
    pairs = {frozenset(r) for r in rows}
    assert not pairs & {frozenset((1, 5)), frozenset((1, 6)), frozenset((5, 6))}


def test_rounds_scheduled_twice_must_agree(db):
    """XXR and 142 that disagree leave the last round in doubt (C.04.3 pairs it
    differently); equal ones, or rounds=N given, pair."""
    sql = f"SELECT count(*) FROM pairings(?, 'dutch'{TRF_TAIL}"
    assert error_of(db, sql.replace("count(*)", "*"), (six_players("142 9", "XXR 7"),)) == (
        "pairings(): the event of the file: record 'XXR 7': "
        "7 rounds, where an earlier record schedules 9")
    assert db.execute(sql, (six_players("142 7", "XXR 7"),)).fetchone() == (3,)
    given = "SELECT count(*) FROM pairings(?, 'dutch(rounds=5)', NULL, 'trf_matches', 'trf_players')"
    assert db.execute(given, (six_players("142 9", "XXR 7"),)).fetchone() == (3,)


def test_record_152_reads_b_as_b(db):
    """'152 b' was read as W: in round 1 every player got the other colour."""
    sql = f"SELECT player_a, player_b FROM pairings(?, 'dutch'{TRF_TAIL}"
    black, white = (db.execute(sql, (six_players(r),)).fetchall() for r in ("152 B", "152 W"))
    assert black == [(4, 1), (2, 5), (6, 3)] and white == [(1, 4), (5, 2), (3, 6)]
    assert db.execute(sql, (six_players("152 b"),)).fetchall() == black


def test_xxc_settings_read_in_either_case_and_alone(db):
    """XXC black1 (any case, repeated, between blanks) reverses round 1's colours; XXC
    white1 and an XXC without a setting keep them."""
    sql = f"SELECT player_a, player_b FROM pairings(?, 'dutch'{TRF_TAIL}"
    white = [(1, 4), (5, 2), (3, 6)]
    black = [(4, 1), (2, 5), (6, 3)]
    for record, want in [("XXC black1", black), ("XXC BLACK1", black),
                         ("XXC  black1\tblack1", black), ("XXC white1", white),
                         ("XXC White1", white), ("XXC", white)]:
        assert db.execute(sql, (six_players(record),)).fetchall() == want, record


# round 1 of six_players(): 1-4 1-0, 5-2 =, 3-6 1-0
ROUND_1 = {1: [(4, "w", "1")], 4: [(1, "b", "0")], 5: [(2, "w", "=")], 2: [(5, "b", "=")],
           3: [(6, "w", "1")], 6: [(3, "b", "0")]}


def six_played(*records, rounds=ROUND_1):
    return "\n".join(["012 Six"] + list(records) +
                     [trf_line(i, 2500 - i, rounds.get(i, ())) for i in range(1, 7)]) + "\n"


@pytest.mark.parametrize("function", ["pairings(?, 'dutch', NULL, 'trf_matches', 'trf_players')",
                                      "pairing_check(?, 'dutch', 'trf_matches', 'trf_players')"])
def test_a_requested_bye_for_a_round_its_player_played_is_an_error(db, function):
    """240 H 001 2 after round 1, where 2 played 5: the bye was read as nothing (pairings()
    paired round 2 without a word); it asked for another round or another player."""
    prefix = function.split("(")[0]
    assert error_of(db, f"SELECT * FROM {function}", (six_played("240 H 001 2"),)) == (
        f"{prefix}(): the event of the file: record '240 H 001 2': round 1 is paired already, "
        "and start number 2 has an opponent in it: a bye is requested before its round is "
        "paired")


def test_a_requested_bye_kept_in_the_file_of_its_round_still_reads(db):
    """A file of rounds played keeps its 240 records: 2 took the half-point bye of round 1
    (0000 - H), as 240 H 001 2 says; round 2 pairs, and pairing_check() finds no player
    paired while absent (mtg: no system's round to compare with)."""
    rounds = dict(ROUND_1)
    rounds.update({2: [("0000", "-", "H")], 5: [("0000", "-", "U")]})
    text = six_played("240 H 001 2", rounds=rounds)
    rows = db.execute(f"SELECT player_a, player_b FROM pairings(?, 'dutch'{TRF_TAIL}",
                      (text,)).fetchall()
    assert sorted(p for r in rows for p in r if p is not None) == [1, 2, 3, 4, 5, 6]
    assert db.execute("SELECT * FROM pairing_check(?, 'mtg', 'trf_matches', 'trf_players')",
                      (text,)).fetchall() == []


@pytest.mark.parametrize("system, tail", [("dutch", "rounds=N schedules more"),
                                          ("mtg", "a larger XXR or 142 schedules more")])
@pytest.mark.parametrize("record", ["XXR 1", "142 1"])
def test_a_round_past_the_files_schedule_is_an_error(db, system, tail, record):
    """XXR 1 with round 1 played: pairings() paired a round 2 (the Dutch criteria of the
    last round applied to the wrong round). rounds=N given decides over the file."""
    text = six_played(record)
    assert error_of(db, f"SELECT * FROM pairings(?, '{system}'{TRF_TAIL}", (text,)) == (
        "pairings(): the event of the file: round 2 is past the 1 round the file schedules "
        f"(XXR or 142); {tail}")
    assert len(db.execute(f"SELECT * FROM pairings(?, 'dutch(rounds=2)'{TRF_TAIL}",
                          (text,)).fetchall()) == 3


def test_pairing_check_shows_a_round_played_past_the_files_schedule(db):
    """Round 2 played with XXR 1: a problem row at round 2 (the first round past it);
    with rounds=2 given, none."""
    rounds = {k: v + [w] for (k, v), w in zip(sorted(ROUND_1.items()), [
        (2, "b", "1"), (1, "w", "0"), (4, "b", "="), (3, "w", "="), (6, "b", "1"),
        (5, "w", "0")])}
    text = six_played("XXR 1", rounds=rounds)
    sql = "SELECT round, player_a, reason FROM pairing_check(?, ?, 'trf_matches', 'trf_players')"
    rows = db.execute(sql, (text, "mtg")).fetchall()
    assert rows == [(2, None, "round 2 is past the 1 round the file schedules (XXR or 142); "
                              "a larger XXR or 142 schedules more")]
    assert [r for r in db.execute(sql, (text, "dutch(rounds=2)")).fetchall()
            if "past" in r[2]] == []


@pytest.mark.parametrize("function", ["pairings(?, 'dutch', NULL, 'trf_matches', 'trf_players')",
                                      "pairing_check(?, 'dutch', 'trf_matches', 'trf_players')",
                                      "standings(?, 'fide', NULL, NULL, 'trf_matches')"])
def test_a_readers_error_names_the_event_of_the_file(db, function):
    """A malformed 001 record: the reader's message came without the event that every
    other error of the functions names (and quoted the next line's bytes)."""
    prefix = function.split("(")[0]
    assert error_of(db, f"SELECT * FROM {function}", ("012 x\n001 abc\n001    1\n",)) == (
        f"{prefix}(): the event of the file: trf_matches(): line 2: a 001 record needs its "
        "start number in columns 5-8, got 'abc'")


@pytest.mark.parametrize("function", ["pairings(?, 'dutch')", "pairing_check(?, 'dutch')",
                                      "standings(?, 'fide')"])
def test_a_blob_event_id_is_refused_alike(db, function):
    """readfile() gives a BLOB: the file readers read it as its text, but an event id is
    INTEGER or TEXT in standings(), pairings() and pairing_check() alike, with the cast
    to use."""
    prefix = function.split("(")[0]
    assert error_of(db, f"SELECT * FROM {function}", (six_players().encode(),)) == (
        f"{prefix}(): event_id must be INTEGER or TEXT, got a BLOB (a file's text as the "
        "event: CAST(readfile('f') AS TEXT))")


def open_round(db, system):
    players(db, 6)
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, result) "
               f"SELECT 1, round, player_a, player_b, result FROM pairings(1, '{system}')")
    return db.execute("SELECT player_a, player_b FROM matches WHERE round = 1 ORDER BY rowid"
                      ).fetchall()


@pytest.mark.parametrize("system", ["berger", "dutch"])
def test_a_chess_game_without_a_result_stops_the_next_pairing(db, system):
    """Round 1 inserted from the pairings, results not entered (0-0-0, result NULL): the
    next round was paired as if every game were drawn. A result entered for all but one
    game names that one; a draw entered as 'draw' pairs."""
    first = open_round(db, system)
    a, b = first[0]
    assert error_of(db, f"SELECT * FROM pairings(1, '{system}')") == (
        f"pairings(): event 1: round 1 has 3 games without a result (game counts 0-0-0, "
        f"result NULL), the first {a} against {b}; enter its results (a draw as result "
        "'draw') before pairing round 2")
    assert db.execute(f"SELECT round, player_a, player_b, reason FROM pairing_check(1, "
                      f"'{system}')").fetchall() == [
        (1, a, b, "no result (game counts 0-0-0, result NULL), nor have 2 other games of the "
                  "round: read as draws until entered (a draw as result 'draw')")]
    db.execute("UPDATE matches SET result = 'a' WHERE round = 1 AND player_a <> ?", (first[1][0],))
    a, b = first[1]
    assert error_of(db, f"SELECT * FROM pairings(1, '{system}')") == (
        f"pairings(): event 1: round 1 has a game without a result (game counts 0-0-0, "
        f"result NULL): {a} against {b}; enter its results (a draw as result 'draw') before "
        "pairing round 2")
    db.execute("UPDATE matches SET result = 'draw' WHERE result IS NULL")
    assert len(db.execute(f"SELECT * FROM pairings(1, '{system}')").fetchall()) == 3
    assert db.execute(f"SELECT count(*) FROM pairing_check(1, '{system}')").fetchone() == (0,)


def test_a_chess_game_with_its_games_row_or_counts_has_a_result(db):
    """Counts 0-0-1 (a draw by counts) or a games table row giving them: a result."""
    first = open_round(db, "dutch")
    db.execute("UPDATE matches SET draws = 1 WHERE round = 1 AND player_a <> ?", (first[0][0],))
    db.execute("INSERT INTO games VALUES (1, 1, ?, 1, ?)", first[0])
    assert len(db.execute("SELECT * FROM pairings(1, 'dutch')").fetchall()) == 3


@pytest.mark.parametrize("system", ["mtg", "pokemon"])
def test_a_magic_match_of_0_0_0_is_still_a_draw(db, system):
    """Magic's older intentional-draw form is 0-0-0 (sql/schema.sql, policy-mtg.md): the
    Swiss systems for match points read it as the draw it is documented to be."""
    open_round(db, system)
    assert len(db.execute(f"SELECT * FROM pairings(1, '{system}')").fetchall()) == 3
