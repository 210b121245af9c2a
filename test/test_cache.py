"""The table-reading scalars keep each event they compute for the rest of the
statement (docs/scalars.md): never a stale value.

Every case compares omwp()/ogwp() called with the event from a column against
standings() computed afresh, after the tables changed in every way a
connection can see: between two statements, within a transaction, between
two rows of one statement, by another connection, by DDL, through a TEMP view
that shadows the table, and within an UPDATE that calls the function.  Each
case runs with and without an index on event_id: without one, the first
event's read scans the table and every event is then computed in one pass.
"""
import sqlite3

import pytest

# Three events: 1 and 2 with text ids, 'x' with integer ids.
ROWS = [
    (1, 1, "A", "B", 2, 0, 0), (1, 1, "C", "D", 2, 1, 0),
    (1, 2, "A", "C", 2, 1, 0), (1, 2, "B", "D", 2, 0, 0),
    (2, 1, "E", "F", 2, 1, 0), (2, 1, "G", None, 2, 0, 0),
    (2, 2, "E", "G", 1, 2, 0), (2, 2, "F", None, 2, 0, 0),
    ("x", 1, 1, 2, 2, 0, 0), ("x", 1, 3, 4, 0, 2, 0), ("x", 2, 1, 4, 2, 1, 0),
    ("x", 2, 2, 3, 1, 1, 1),
]

# Every player of every event, rows of the events interleaved.
PLAYERS = """SELECT event_id, player FROM (
  SELECT event_id, player_a AS player FROM matches
  UNION SELECT event_id, player_b FROM matches WHERE player_b IS NOT NULL)
ORDER BY player, event_id"""

COLUMN_QUERY = f"SELECT p.event_id, p.player, omwp(p.event_id, p.player) FROM ({PLAYERS}) AS p"


def fresh(conn, policy="mtg"):
    """Each player's OMW% from standings(), one call per event."""
    return {(e, p): v for e, p, v in conn.execute(
        "SELECT e.event_id, s.player, s.omwp FROM (SELECT DISTINCT event_id FROM matches) AS e,"
        " standings(e.event_id, ?) AS s", (policy,))}


def by_column(conn, sql=COLUMN_QUERY):
    return {(e, p): v for e, p, v in conn.execute(sql)}


@pytest.fixture(params=["index", "no_index"])
def db(request, tmp_path, connect):
    path = str(tmp_path / "t.db")
    conn = connect(path, isolation_level=None)
    conn.execute("CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins,"
                 " draws, result TEXT, note)")
    if request.param == "index":
        conn.execute("CREATE INDEX m_event ON matches(event_id, round)")
    conn.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins,"
                     " draws) VALUES (?, ?, ?, ?, ?, ?, ?)", ROWS)
    return path, conn


def test_values_are_those_of_standings(db):
    _, conn = db
    assert by_column(conn) == fresh(conn)
    assert len(fresh(conn)) == 11


def test_two_policies_in_one_statement(db):
    _, conn = db
    rows = conn.execute(f"SELECT p.event_id, p.player, omwp(p.event_id, p.player, 'mtg(floor=0)'),"
                        f" ogwp(p.event_id, p.player), omwp(p.event_id, p.player) FROM ({PLAYERS}) AS p")
    floor0, mtg = fresh(conn, "mtg(floor=0)"), fresh(conn)
    ogwp = {(e, p): v for e, p, v in conn.execute(
        "SELECT e.event_id, s.player, s.ogwp FROM (SELECT DISTINCT event_id FROM matches) AS e,"
        " standings(e.event_id, 'mtg') AS s")}
    n = 0
    for e, p, a, b, c in rows:
        assert (a, b, c) == (floor0[e, p], ogwp[e, p], mtg[e, p])
        n += 1
    assert n == 11 and floor0 != mtg


def change(conn):
    """Reverse the result of B-D in event 1: OMW% of A, B, C and D change."""
    conn.execute("UPDATE matches SET a_wins = 0, b_wins = 2 WHERE player_a = 'B' AND player_b = 'D'")


def test_between_two_statements(db):
    _, conn = db
    before = by_column(conn)
    change(conn)
    after = by_column(conn)
    assert after == fresh(conn) and after != before


def test_within_a_transaction_and_after_rollback(db):
    _, conn = db
    before = by_column(conn)
    conn.execute("BEGIN")
    change(conn)
    assert by_column(conn) == fresh(conn) != before
    conn.execute("SAVEPOINT s")
    conn.execute("DELETE FROM matches WHERE event_id = 2")
    assert by_column(conn) == fresh(conn)
    conn.execute("ROLLBACK TO s")
    assert by_column(conn) == fresh(conn)
    conn.execute("ROLLBACK")
    assert by_column(conn) == before == fresh(conn)


def rows_around(conn, cursor, action):
    """The rows of cursor, with action run after the second: Python steps one
    row ahead, so the rows computed after it are those from the fourth on."""
    first = [cursor.fetchone(), cursor.fetchone()]
    action()
    first.append(cursor.fetchone())
    return first, cursor.fetchall()


def test_between_two_rows_of_one_statement(db):
    _, conn = db
    other = conn.cursor()
    cur = conn.execute(COLUMN_QUERY)
    _, later = rows_around(conn, cur, lambda: change(other))
    now = fresh(conn)
    assert len(later) == 8
    assert {(e, p): v for e, p, v in later} == {k: now[k] for k in ((e, p) for e, p, _ in later)}


def test_another_connection(db, connect):
    path, conn = db
    other = connect(path, isolation_level=None)
    before = by_column(conn)
    change(other)
    assert by_column(conn) == fresh(conn) != before
    # between two rows of a statement that holds no read transaction itself
    values = ", ".join(f"({e!r}, {p!r})" for e, p in sorted(before, key=str))
    cur = conn.execute(f"SELECT column1, column2, omwp(column1, column2) FROM (VALUES {values})")
    _, later = rows_around(conn, cur, lambda: other.execute(
        "UPDATE matches SET a_wins = 2, b_wins = 0 WHERE player_a = 'B' AND player_b = 'D'"))
    now = fresh(conn)
    assert now == before and len(later) == 8
    assert all(v == now[e, p] for e, p, v in later)


def test_ddl_and_a_temp_view_shadowing_the_table(db):
    _, conn = db
    before = by_column(conn)
    conn.execute("BEGIN")
    conn.execute("ALTER TABLE matches RENAME TO old")
    with pytest.raises(sqlite3.OperationalError, match="no such table: matches"):
        by_column(conn, "SELECT omwp(1, 'A')")
    conn.execute("CREATE TABLE matches AS SELECT * FROM old WHERE event_id <> 1")
    assert by_column(conn) == fresh(conn) and len(fresh(conn)) == 7
    conn.execute("DROP TABLE matches")
    conn.execute("ALTER TABLE old RENAME TO matches")
    conn.execute("COMMIT")
    assert by_column(conn) == before
    # a TEMP view of the same name hides the table, then stops hiding it
    conn.execute("CREATE TEMP VIEW matches AS SELECT event_id, round, player_b AS player_a,"
                 " player_a AS player_b, b_wins AS a_wins, a_wins AS b_wins, draws, result"
                 " FROM main.matches WHERE player_b IS NOT NULL")
    shadowed = by_column(conn)
    assert shadowed == fresh(conn) != before
    conn.execute("DROP VIEW temp.matches")
    assert by_column(conn) == before
    # between two rows of one statement
    cur = conn.execute(COLUMN_QUERY)
    _, later = rows_around(conn, cur, lambda: conn.execute(
        "CREATE TEMP VIEW matches AS SELECT * FROM main.matches WHERE event_id <> 'x'"))
    assert all(v is None for e, p, v in later if e == "x")
    assert all(v == before[e, p] for e, p, v in later if e != "x")


def test_update_that_calls_the_function(db):
    _, conn = db
    before = fresh(conn)
    conn.execute("UPDATE matches SET note = omwp(event_id, player_a)")
    notes = conn.execute("SELECT event_id, player_a, note FROM matches").fetchall()
    assert notes and all(n == before[e, p] for e, p, n in notes)
    # an UPDATE that reverses A-B, its first row, then calls on later rows:
    # values of the statement's start, as for a constant event; the next
    # statement sees the change
    conn.execute("UPDATE matches SET a_wins = iif(rowid = 1, 0, a_wins),"
                 " b_wins = iif(rowid = 1, 2, b_wins), note = omwp(event_id, player_a)"
                 " WHERE event_id = 1")
    notes = conn.execute("SELECT event_id, player_a, note FROM matches WHERE event_id = 1")
    assert all(n == before[e, p] for e, p, n in notes)
    assert by_column(conn) == fresh(conn) != before


def test_an_event_in_error_among_good_ones(db):
    _, conn = db
    before = fresh(conn)
    conn.execute("INSERT INTO matches (event_id, round, player_a, player_b) VALUES"
                 " (3, 1, 'P', 'Q'), (3, 1, 'P', 'R')")
    assert by_column(conn, COLUMN_QUERY + " WHERE p.event_id <> 3") == before
    with pytest.raises(sqlite3.OperationalError, match="player 'P' is paired twice in round 1"):
        by_column(conn)


# ------------------------------------------------ many policies in one statement

def xor_event(conn, players, rounds):
    """Event 1: in round r player j meets j XOR r (a perfect pairing)."""
    conn.execute("CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)")
    conn.executemany("INSERT INTO matches VALUES (1, ?, ?, ?, 2, ?, ?)",
                     [(r, j, j ^ r, (j * r) % 2, (j + r) % 2)
                      for r in range(1, rounds + 1) for j in range(players) if j < j ^ r])
    conn.execute("CREATE INDEX m_event ON matches(event_id, round)")


FIVE = ["mtg", "melee", "yugioh", "battlefy", "mtg(floor=0)"]


def cycling(policies, calls, players):
    """omwp() of one event, call i under policies[i % len(policies)]."""
    case = " ".join(f"WHEN {i} THEN '{p}'" for i, p in enumerate(policies))
    return (f"SELECT count(omwp(1, value % {players}, CASE value % {len(policies)} {case} END))"
            f" FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s"
            f" WHERE value < {calls}) SELECT value FROM s)")


def test_five_policies_over_a_large_event(connect):
    # 60,000 calls cycling through five policies: when the cache held four, every call
    # computed the 10-round, 2048-player event again (5.8 ms each here, about 350 s in all:
    # past ctest's 300 s timeout); each policy is now computed once.
    conn = connect()
    xor_event(conn, 2048, 10)
    assert conn.execute(cycling(FIVE, 60000, 2048)).fetchone() == (60000,)


def counting_view(conn):
    """A TEMP view over matches that counts the rows the extension reads."""
    seen = []
    conn.create_function("counted", 1, lambda x: seen.append(1) or x)
    conn.execute("CREATE TEMP VIEW matches AS SELECT event_id, round, player_a, player_b,"
                 " a_wins, b_wins, counted(draws) AS draws FROM main.matches")
    return seen


def test_each_policy_computed_once_whatever_its_spelling(connect):
    conn = connect()
    xor_event(conn, 64, 5)
    rows = conn.execute("SELECT count(*) FROM main.matches").fetchone()[0]
    seen = counting_view(conn)
    # 9 spellings of 4 policies: case, spaces and a default written out are the same rules
    spellings = ["mtg", "MTG", " mtg ", "mtg(floor=0.33)", "melee", "Melee", "mtg(floor=0)",
                 "mtg( floor = 0 )", "yugioh"]
    values = conn.execute(
        "SELECT value % 64, p.column1, omwp(1, value % 64, p.column1) FROM"
        " (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 640)"
        "  SELECT value FROM s), (VALUES " + ", ".join(f"('{p}')" for p in spellings) + ") AS p"
        " ORDER BY value").fetchall()
    assert len(values) == 640 * len(spellings)
    assert len(seen) == 4 * rows
    # and every value is the policy's own
    seen.clear()
    for spelling in spellings:
        fresh_values = {p: v for p, v in conn.execute(
            "SELECT player, omwp FROM standings(1, ?)", (spelling.strip(),))}
        assert all(v == fresh_values[p] for p, s, v in values if s == spelling)
    assert fresh_values != {p: v for p, v in conn.execute("SELECT player, omwp FROM standings(1, 'mtg')")}


def test_policies_past_the_memory_bound(connect):
    # 12,000 distinct policies in one statement hold more than the cache keeps (each parsed
    # policy takes 6 KiB): the least recently used go, and each value is still its own.
    conn = connect()
    xor_event(conn, 8, 3)
    got = conn.execute(
        "SELECT value, omwp(1, 0, 'mtg(floor=' || value || '/12000)') FROM"
        " (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 12000)"
        "  SELECT value FROM s)").fetchall()
    expected = {k: v for k, v in conn.execute(
        "SELECT value, (SELECT omwp FROM standings(1, 'mtg(floor=' || value || '/12000)') WHERE player = 0)"
        " FROM (WITH RECURSIVE s(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM s WHERE value < 12000)"
        "  SELECT value FROM s)")}
    assert len(got) == 12000 and all(v == expected[k] for k, v in got)
    assert len(set(expected.values())) > 100
