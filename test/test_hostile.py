"""Hostile and unusual use of the SQL surface: recursion through views, joins of
standings() with itself, writes in the same transaction or statement, DROP TABLE and
VACUUM right after a query or an error, several threads with their own connections,
read-only and query-only databases, WAL snapshots, trusted_schema=OFF, table-name
arguments that try SQL injection, authorizers, interrupts and odd ids.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_hostile.py -q
"""
import json
import sqlite3
import threading
from pathlib import Path

import pytest

from conftest import EXT_PATH, open_connection

REPO = Path(__file__).resolve().parent.parent
SCHEMA = (REPO / "sql" / "schema.sql").read_text()
EXAMPLE = (REPO / "sql" / "example.sql").read_text()  # event 1: 24 players, 5 rounds
RECURSION = "recursive call: the tables it reads must not themselves use the tiebreak functions"
STANDINGS = "SELECT rank, player, match_points, omwp, gwp, ogwp, decided_by FROM standings(1, 'mtg')"

# A bigger event for the threads: 128 players, 7 rounds, player i meets i XOR r.
BIG_EVENT = """
WITH RECURSIVE p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < 127),
               r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 7)
INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, draws)
SELECT 'big', n, 'p' || i, 'p' || ((i | n) - (i & n)), (i * 7 + n) % 3, (i * 5 + n) % 3,
       (i + n) % 2
FROM p, r WHERE i < (i | n) - (i & n);
"""


def load(conn, big=False):
    conn.executescript(SCHEMA + EXAMPLE + (BIG_EVENT if big else ""))


@pytest.fixture
def db(connect):
    conn = connect(isolation_level=None)
    load(conn)
    return conn


@pytest.fixture(scope="module")
def baseline(connect):
    conn = connect()
    load(conn, big=True)
    return {
        "example": conn.execute(STANDINGS).fetchall(),
        "big": conn.execute("SELECT * FROM standings('big', 'mtg')").fetchall(),
        "big_third": conn.execute("SELECT * FROM standings('big', 'mtg', '1/3')").fetchall(),
        "omwp": conn.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')").fetchone(),
    }


def error_of(conn, sql, params=()):
    with pytest.raises(sqlite3.Error) as info:
        conn.execute(sql, params).fetchall()
    return str(info.value)


def tables(conn):
    return conn.execute("SELECT type, name FROM sqlite_schema ORDER BY name").fetchall()


# ------------------------------------------------------------------ recursion

@pytest.mark.parametrize("view_sql", [
    "SELECT 1 AS event_id, 1 AS round, player AS player_a, NULL AS player_b, "
    "0 AS a_wins, 0 AS b_wins, 0 AS draws FROM standings(1, 'mtg')",
    # another event, reached through a subquery
    "SELECT * FROM main.matches WHERE player_a IN (SELECT player FROM standings(2, 'mtg'))",
    "SELECT * FROM main.matches WHERE omwp(1, player_a) > 0",
    "SELECT * FROM main.matches WHERE ogwp(1, player_a, 'mtg(floor=1/3)') IS NOT NULL",
    "SELECT * FROM main.matches WHERE coalesce(mwp(1, player_a), gwp(1, player_a), 0) >= 0",
], ids=["standings", "standings_subquery", "omwp", "ogwp", "mwp_gwp"])
def test_recursion_through_temp_view_named_matches(db, view_sql, baseline):
    db.execute(f"CREATE TEMP VIEW matches AS {view_sql}")
    for sql, prefix in [("SELECT * FROM standings(1, 'mtg')", "standings(): "),
                        ("SELECT omwp(1, 'Hugo')", "omwp(): "),
                        ("SELECT gwp(1, 'Hugo')", "gwp(): ")]:
        msg = error_of(db, sql)
        # The inner call reports the recursion; an outer function adds its own name.
        assert msg.startswith(prefix) and msg.endswith(RECURSION), (sql, msg)
    # The guard is released: with the view gone, everything works again.
    db.execute("DROP VIEW temp.matches")
    assert db.execute(STANDINGS).fetchall() == baseline["example"]
    assert db.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')").fetchone() == baseline["omwp"]


def test_recursion_through_matches_table_argument(db):
    db.execute("CREATE VIEW rec AS SELECT 1 AS event_id, 1 AS round, player AS player_a, "
               "NULL AS player_b, 0 AS a_wins, 0 AS b_wins, 0 AS draws "
               "FROM standings(1, 'mtg', NULL, NULL, 'rec')")
    assert error_of(db, "SELECT * FROM standings(1, 'mtg', NULL, NULL, 'rec')") == \
        "standings(): " + RECURSION
    assert len(db.execute(STANDINGS).fetchall()) == 24


def test_recursion_through_games_table_argument(db):
    db.execute("CREATE TEMP VIEW g AS SELECT 1 AS event_id, 1 AS round, player AS player_a, "
               "1 AS game, NULL AS winner FROM standings(1, 'mtg')")
    assert error_of(db, "SELECT * FROM standings(1, 'mtg', NULL, NULL, NULL, 'g')") == \
        "standings(): " + RECURSION


# ------------------------------------------------------------- joins, nesting

def test_self_join(db, baseline):
    rows = db.execute("""
        SELECT a.player, a.rank, b.rank, a.omwp, b.omwp
        FROM standings(1, 'mtg') AS a JOIN standings(1, 'mtg', '1/3') AS b USING (player)
        ORDER BY a.rank, a.player""").fetchall()
    assert [(r[0], r[1]) for r in rows] == [(r[1], r[0]) for r in baseline["example"]]
    assert all(third >= tmr for *_, tmr, third in rows)  # a higher floor never lowers OMW%
    assert db.execute("SELECT count(*) FROM standings(1, 'mtg') AS a, "
                      "standings(1, 'mtg') AS b").fetchone() == (24 * 24,)


def test_nested_and_correlated_calls(db, baseline):
    # A second computation while the first one's rows are being read is not recursion.
    rows = db.execute("""
        SELECT s.player, s.rank,
               (SELECT t.rank FROM standings(1, 'mtg') AS t WHERE t.player = s.player),
               omwp(1, s.player) = s.omwp, ogwp(1, s.player) = s.ogwp
        FROM standings(1, 'mtg') AS s""").fetchall()
    assert all(r[1] == r[2] and r[3] == 1 and r[4] == 1 for r in rows)
    db.execute("CREATE TABLE events(id)")
    db.executemany("INSERT INTO events VALUES (?)", [(1,), (2,), (1,), ("1",)])
    counts = db.execute("SELECT e.id, (SELECT count(*) FROM standings(e.id, 'mtg')) "
                        "FROM events AS e ORDER BY rowid").fetchall()
    # the text '1' finds the integer id 1 (docs/standings.md#ids-given-as-text)
    assert counts == [(1, 24), (2, 0), (1, 24), ("1", 24)]
    after = db.execute("SELECT e.id, s.rank FROM events AS e, "
                       "standings(e.id, 'mtg', NULL, 5 - e.rowid) AS s WHERE s.player = 'Hugo'"
                       ).fetchall()
    assert [r[0] for r in after] == [1, 1, "1"]


# ------------------------------------------------------ writes, transactions

def test_uncommitted_rows_are_read_and_rollback_restores(db, baseline):
    db.execute("BEGIN")
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
               "VALUES (1, 6, 'Lena', NULL, 2)")
    lena = db.execute("SELECT rounds, byes, match_points FROM standings(1, 'mtg') "
                      "WHERE player = 'Lena'").fetchone()
    assert lena == (6, 1, 13)
    db.execute("SAVEPOINT s")
    db.execute("DELETE FROM matches WHERE event_id = 1 AND round > 1")
    assert db.execute("SELECT max(rounds) FROM standings(1, 'mtg')").fetchone() == (1,)
    db.execute("ROLLBACK TO s")
    db.execute("ROLLBACK")
    assert db.execute(STANDINGS).fetchall() == baseline["example"]


def test_writing_the_table_being_read_in_one_statement(db):
    # Rows are computed before the first one is returned: the insert cannot feed back.
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b) "
               "SELECT 1, 6, player, NULL FROM standings(1, 'mtg') WHERE rank <= 3")
    assert db.execute("SELECT count(*) FROM matches WHERE round = 6").fetchone() == (3,)
    db.execute("UPDATE matches SET draws = draws WHERE player_a IN "
               "(SELECT player FROM standings(1, 'mtg') WHERE dropped)")
    db.execute("DELETE FROM matches WHERE event_id = 1 AND round = 6 AND player_a IN "
               "(SELECT player FROM standings(1, 'mtg') WHERE rank = 1)")
    assert db.execute("SELECT count(*) FROM matches WHERE round = 6").fetchone() == (2,)


def test_trigger_reading_standings_on_insert(db):
    db.execute("CREATE TABLE leader(event_id, round, player)")
    db.execute("""CREATE TEMP TRIGGER t AFTER INSERT ON matches BEGIN
                    INSERT INTO leader SELECT NEW.event_id, NEW.round, player
                    FROM standings(NEW.event_id, 'mtg') WHERE rank = 1;
                  END""")
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
               "VALUES (7, 1, 'X', 'Y', 2)")
    db.execute("INSERT INTO matches (event_id, round, player_a, player_b, b_wins) "
               "VALUES (7, 2, 'X', 'Y', 2)")
    assert db.execute("SELECT * FROM leader").fetchall() == [(7, 1, "X"), (7, 2, "X"), (7, 2, "Y")]


# ------------------------------------------------- nothing left open behind

ERROR_CASES = [
    ("SELECT * FROM standings(1, 'nope')", None),
    ("SELECT * FROM standings(99, 'mtg')", "INSERT INTO matches VALUES (99, 1, 'A', 'A', 2, 0, 0, NULL)"),
    ("SELECT * FROM standings(99, 'mtg')",
     "INSERT INTO matches VALUES (99, 1, 'A', 'B', 2, 0, 0, NULL), (99, 1, 'A', 'C', 2, 0, 0, NULL)"),
    ("SELECT * FROM standings(99, 'mtg')", "INSERT INTO matches VALUES (99, 0, 'A', 'B', 2, 0, 0, NULL)"),
    ("SELECT * FROM standings(99, 'mtg')",
     "INSERT INTO matches VALUES (99, 1, 'A', 'B', 0, 0, 0, NULL); "
     "INSERT INTO games VALUES (99, 1, 'A', 1, 'Q')"),
    ("SELECT omwp(99, 'A')", "INSERT INTO matches VALUES (99, 1, 'A', 'B', 2, 0, 0, 'x')"),
    ("SELECT * FROM standings(1, 'mtg', NULL, NULL, 'nosuch')", None),
]


@pytest.mark.parametrize("sql,setup", ERROR_CASES, ids=[
    "policy", "self_pairing", "paired_twice", "round_0", "games_winner", "scalar_result",
    "no_table"])
def test_vacuum_and_drop_after_an_error(tmp_path, connect, sql, setup):
    conn = connect(str(tmp_path / "t.db"), isolation_level=None)
    load(conn)
    if setup:
        conn.executescript(setup)
    with pytest.raises(sqlite3.Error):
        conn.execute(sql).fetchall()
    conn.execute("VACUUM")
    conn.execute("DROP TABLE games")
    conn.execute("DROP TABLE matches")
    assert tables(conn) == []


def test_vacuum_and_drop_right_after_queries(tmp_path, connect):
    conn = connect(str(tmp_path / "t.db"), isolation_level=None)
    load(conn)
    assert len(conn.execute(STANDINGS).fetchall()) == 24
    conn.execute("VACUUM")
    conn.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Hugo'), mwp(1, 'Hugo'), gwp(1, 'Hugo')").fetchall()
    conn.execute("VACUUM")
    # Only the first row read: the outer statement is done with the tables already.
    assert conn.execute(STANDINGS + " LIMIT 1").fetchall()[0][1] == "Hugo"
    conn.execute("DROP TABLE games")
    assert len(conn.execute(STANDINGS).fetchall()) == 24  # the default games table is optional
    conn.execute("DROP TABLE matches")
    assert error_of(conn, STANDINGS) == "standings(): no such table: matches"
    assert error_of(conn, "SELECT omwp(1, 'Hugo')") == "omwp(): no such table: matches"
    conn.execute("VACUUM")


def test_close_with_a_cursor_half_read(tmp_path):
    conn = open_connection(str(tmp_path / "t.db"))
    load(conn)
    cur = conn.execute(STANDINGS)
    assert cur.fetchone()[1] == "Hugo"
    conn.close()
    again = open_connection(str(tmp_path / "t.db"))
    try:
        assert len(again.execute(STANDINGS).fetchall()) == 24
    finally:
        again.close()


# -------------------------------------------------------------------- threads

def run_threads(n, work):
    errors = []

    def guarded(i):
        try:
            work(i)
        except BaseException as e:  # reported by the main thread
            errors.append(f"thread {i}: {type(e).__name__}: {e}")

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "threads did not finish"
    assert not errors, "\n".join(errors)


def test_threads_each_with_own_connection_to_one_file(tmp_path, baseline):
    path = str(tmp_path / "t.db")
    setup = open_connection(path, isolation_level=None)
    setup.execute("PRAGMA journal_mode=WAL")
    load(setup, big=True)
    setup.close()
    stop = threading.Event()

    def reader(i):
        conn = open_connection(path, timeout=30, check_same_thread=True)
        try:
            for k in range(40):
                if (i + k) % 3 == 0:
                    assert conn.execute("SELECT * FROM standings('big', 'mtg', '1/3')"
                                        ).fetchall() == baseline["big_third"]
                elif (i + k) % 3 == 1:
                    assert conn.execute("SELECT * FROM standings('big', 'mtg')"
                                        ).fetchall() == baseline["big"]
                else:
                    assert conn.execute(STANDINGS).fetchall() == baseline["example"]
                    assert conn.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')"
                                        ).fetchone() == baseline["omwp"]
        finally:
            conn.close()

    def writer():
        conn = open_connection(path, isolation_level=None, timeout=30)
        try:
            r = 0
            while not stop.wait(0.002):
                r += 1
                conn.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
                             "VALUES ('other', ?, 'W', NULL, 2)", (r,))
        finally:
            conn.close()

    w = threading.Thread(target=writer)
    w.start()
    try:
        run_threads(8, reader)
    finally:
        stop.set()
        w.join(timeout=60)


def test_threads_each_with_own_memory_database(baseline):
    def work(i):
        conn = open_connection(":memory:")
        try:
            load(conn, big=True)
            for _ in range(25):
                assert conn.execute("SELECT * FROM standings('big', 'mtg')").fetchall() == baseline["big"]
                assert conn.execute(STANDINGS).fetchall() == baseline["example"]
        finally:
            conn.close()

    run_threads(8, work)


# ------------------------------------------ read-only, query-only, WAL, locks

def test_read_only_database(tmp_path, connect, baseline):
    path = tmp_path / "t.db"
    setup = open_connection(str(path))
    load(setup)
    setup.commit()
    setup.close()
    for uri in (f"file:{path}?mode=ro", f"file:{path}?immutable=1"):
        conn = connect(uri, uri=True)
        assert conn.execute(STANDINGS).fetchall() == baseline["example"]
        assert conn.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')").fetchone() == baseline["omwp"]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("INSERT INTO matches (event_id, round, player_a) VALUES (2, 1, 'A')")


def test_query_only(db, baseline):
    db.execute("PRAGMA query_only = 1")
    assert db.execute(STANDINGS).fetchall() == baseline["example"]
    assert db.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')").fetchone() == baseline["omwp"]
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.execute("DELETE FROM matches")


def test_wal_reader_keeps_its_snapshot(tmp_path, connect, baseline):
    path = str(tmp_path / "t.db")
    a = connect(path, isolation_level=None)
    a.execute("PRAGMA journal_mode=WAL")
    load(a)
    b = connect(path, isolation_level=None)
    a.execute("BEGIN")
    assert a.execute(STANDINGS).fetchall() == baseline["example"]
    b.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins) "
              "VALUES (1, 6, 'Lena', NULL, 2)")
    assert a.execute(STANDINGS).fetchall() == baseline["example"]
    assert a.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')").fetchone() == baseline["omwp"]
    a.execute("COMMIT")
    assert a.execute("SELECT rounds FROM standings(1, 'mtg') WHERE player = 'Lena'").fetchone() == (6,)


def test_locked_database_is_an_error_not_a_crash(tmp_path, connect, baseline):
    path = str(tmp_path / "t.db")
    a = connect(path, isolation_level=None, timeout=0)
    load(a)
    b = connect(path, isolation_level=None, timeout=0)
    b.execute("BEGIN EXCLUSIVE")
    for sql in (STANDINGS, "SELECT omwp(1, 'Hugo')"):
        assert "database is locked" in error_of(a, sql)
    b.execute("COMMIT")
    assert a.execute(STANDINGS).fetchall() == baseline["example"]


# Callers tell these apart by their code: retry on SQLITE_BUSY, stop on SQLITE_INTERRUPT.
@pytest.mark.parametrize("what", ["interrupt_standings", "interrupt_omwp", "busy_omwp"])
def test_inner_result_codes_reach_the_caller(tmp_path, connect, what):
    path = str(tmp_path / "t.db")
    conn = connect(path, isolation_level=None, timeout=0)
    load(conn)
    if what.startswith("interrupt"):
        conn.set_progress_handler(lambda: 1, 100)
        expected = sqlite3.SQLITE_INTERRUPT
    else:
        other = connect(path, isolation_level=None, timeout=0)
        other.execute("BEGIN EXCLUSIVE")
        expected = sqlite3.SQLITE_BUSY
    sql = STANDINGS if what.endswith("standings") else "SELECT omwp(1, 'Hugo')"
    with pytest.raises(sqlite3.Error) as info:
        conn.execute(sql).fetchall()
    assert info.value.sqlite_errorcode == expected, str(info.value)


def test_interrupt_and_authorizer_give_clean_errors(db, baseline):
    db.set_progress_handler(lambda: 1, 100)
    assert error_of(db, STANDINGS) == "standings(): interrupted"
    assert error_of(db, "SELECT ogwp(1, 'Hugo')") == "ogwp(): interrupted"
    db.set_progress_handler(None, 0)
    assert db.execute(STANDINGS).fetchall() == baseline["example"]

    def deny_matches(action, arg1, arg2, dbname, source):
        if action == sqlite3.SQLITE_READ and arg1 == "matches":
            return sqlite3.SQLITE_DENY
        return sqlite3.SQLITE_OK

    db.set_authorizer(deny_matches)
    # The authorizer sees the extension's own reads: a sandbox stays a sandbox.
    assert error_of(db, STANDINGS).startswith("standings(): access to matches.")
    assert error_of(db, "SELECT omwp(1, 'Hugo')").startswith("omwp(): access to matches.")
    db.set_authorizer(None)
    assert db.execute(STANDINGS).fetchall() == baseline["example"]


# -------------------------------------------------------------- trusted_schema

def test_trusted_schema_off(tmp_path, connect, baseline):
    path = str(tmp_path / "t.db")
    setup = connect(path, isolation_level=None)
    load(setup)
    views = {
        "v_standings": "SELECT rank, player FROM standings(1, 'mtg')",
        "v_omwp": "SELECT omwp(1, 'Hugo') AS x",
        "v_ogwp": "SELECT ogwp(1, 'Hugo', 'mtg') AS x",
        "v_mwp_table": "SELECT mwp(1, 'Hugo') AS x",
        "v_gwp_table": "SELECT gwp(1, 'Hugo') AS x",
        "v_formula": "SELECT mwp(5, 2, 1) AS m, gwp(1, 2, 0, '1/3') AS g",
        "v_pairings": "SELECT * FROM pairings(1, 'bracket(top=8)')",
        "v_pairing_check": "SELECT * FROM pairing_check(1, 'bracket')",
    }
    for name, body in views.items():
        setup.execute(f"CREATE VIEW {name} AS {body}")
    setup.execute("CREATE TABLE records(w, l, d, m AS (mwp(w, l, d, '1/3')))")
    setup.execute("CREATE INDEX records_gwp ON records(gwp(w, l, d))")
    setup.execute("CREATE TABLE log(x)")
    setup.execute("CREATE TRIGGER on_record AFTER INSERT ON records BEGIN "
                  "INSERT INTO log VALUES (omwp(1, 'Hugo')); END")

    conn = connect(path, isolation_level=None)
    conn.execute("PRAGMA trusted_schema = OFF")
    unsafe = {
        "v_standings": 'unsafe use of virtual table "standings"',
        "v_omwp": "unsafe use of omwp()",
        "v_ogwp": "unsafe use of ogwp()",
        "v_mwp_table": "unsafe use of mwp()",
        "v_gwp_table": "unsafe use of gwp()",
        "v_pairings": 'unsafe use of virtual table "pairings"',
        "v_pairing_check": 'unsafe use of virtual table "pairing_check"',
    }
    for name, msg in unsafe.items():
        assert error_of(conn, f"SELECT * FROM {name}") == msg, name
    # Pure formulas are innocuous: in views, generated columns and indexes.
    assert conn.execute("SELECT * FROM v_formula").fetchone() == (16 / 24, 1 / 3)
    with pytest.raises(sqlite3.OperationalError, match="unsafe use of omwp"):
        conn.execute("INSERT INTO records(w, l, d) VALUES (2, 1, 0)")
    conn.execute("DROP TRIGGER on_record")
    conn.execute("INSERT INTO records(w, l, d) VALUES (2, 1, 0)")
    assert conn.execute("SELECT m FROM records").fetchone() == (2 / 3,)
    # Directly and through TEMP views, everything works.
    assert conn.execute(STANDINGS).fetchall() == baseline["example"]
    conn.execute("CREATE TEMP VIEW t_standings AS " + STANDINGS)
    assert conn.execute("SELECT * FROM t_standings").fetchall() == baseline["example"]
    conn.execute("CREATE TEMP VIEW t_omwp AS SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')")
    assert conn.execute("SELECT * FROM t_omwp").fetchone() == baseline["omwp"]
    # Trusted again: the persistent views work.
    conn.execute("PRAGMA trusted_schema = ON")
    assert len(conn.execute("SELECT * FROM v_standings").fetchall()) == 24
    assert len(conn.execute("SELECT * FROM v_pairings").fetchall()) == 4


def test_file_readers_are_innocuous(tmp_path, connect):
    """The file readers read nothing but their argument: a persistent view over each works
    under trusted_schema=OFF, where standings() (which reads tables) is refused."""
    trf = (REPO / "sql" / "example.trf").read_text()
    tdf = (REPO / "sql" / "example.tdf").read_text()
    melee = json.dumps({"Tournament": {"Name": "t"}, "Standings": [], "Rounds": [
        {"RoundName": "Round 1", "Matches": [{"Player1": "A", "Player2": "B", "Result": "2-1-0"}]}]})
    path = str(tmp_path / "r.db")
    setup = connect(path, isolation_level=None)
    setup.execute("CREATE TABLE files(kind, text)")
    setup.executemany("INSERT INTO files VALUES (?, ?)",
                      [("trf", trf), ("tdf", tdf), ("melee", melee)])
    views = {
        "v_trf": "SELECT count(*) FROM files, trf_matches(files.text) WHERE kind = 'trf'",
        "v_trf_players": "SELECT count(*) FROM files, trf_players(files.text) WHERE kind = 'trf'",
        "v_tom": "SELECT count(*) FROM files, tom_matches(files.text) WHERE kind = 'tdf'",
        "v_tom_players": "SELECT count(*) FROM files, tom_players(files.text) WHERE kind = 'tdf'",
        "v_melee": "SELECT count(*) FROM files, melee_matches(files.text) WHERE kind = 'melee'",
        "v_melee_players": "SELECT count(*) + 1 FROM files, melee_players(files.text) "
                           "WHERE kind = 'melee'",
    }
    for name, body in views.items():
        setup.execute(f"CREATE VIEW {name} AS {body}")
    want = {name: setup.execute(f"SELECT * FROM {name}").fetchone()[0] for name in views}
    assert all(n > 0 for n in want.values()), want
    conn = connect(path, isolation_level=None)
    conn.execute("PRAGMA trusted_schema = OFF")
    for name in views:
        assert conn.execute(f"SELECT * FROM {name}").fetchone()[0] == want[name], name


def test_table_reading_scalars_cannot_be_in_generated_columns(db):
    with pytest.raises(sqlite3.OperationalError, match="non-deterministic"):
        db.execute("CREATE TABLE bad(e, p, x AS (omwp(e, p)))")
        db.execute("INSERT INTO bad(e, p) VALUES (1, 'Hugo')")


# ---------------------------------------------------------- table-name args

HOSTILE_NAMES = [
    "matches; DROP TABLE games",
    "matches\"; DROP TABLE games; --",
    "matches'; DROP TABLE games; --",
    "main.matches",
    "temp.matches",
    "\"matches\"",
    "[matches]",
    "`matches`",
    "matches WHERE 1 --",
    "(SELECT * FROM matches)",
    "",
    " matches",
    "MATCHES_",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_table_name_injection_is_no_such_table(db, name):
    before = (tables(db), db.execute("SELECT count(*) FROM matches").fetchone(),
              db.execute("SELECT count(*) FROM games").fetchone())
    want = f"standings(): no such table: {name}"
    assert error_of(db, "SELECT * FROM standings(1, 'mtg', NULL, NULL, ?)", (name,)) == want
    if name:  # games_table '' means: read no games
        assert error_of(db, "SELECT * FROM standings(1, 'mtg', NULL, NULL, NULL, ?)",
                        (name,)) == want
    assert error_of(db, "SELECT * FROM standings WHERE event_id = 1 AND policy = 'mtg' "
                    "AND matches_table = ?", (name,)) == want
    after = (tables(db), db.execute("SELECT count(*) FROM matches").fetchone(),
             db.execute("SELECT count(*) FROM games").fetchone())
    assert after == before


def test_hostile_but_real_table_names_are_read_as_identifiers(db, baseline):
    for name in ['x"; DROP TABLE matches; --', "main.matches", "My Results", "ma'tches", "名前"]:
        quoted = '"' + name.replace('"', '""') + '"'
        db.execute(f"CREATE TABLE {quoted} AS SELECT * FROM matches")
        rows = db.execute("SELECT rank, player, match_points, omwp, gwp, ogwp, decided_by "
                          "FROM standings(1, 'mtg', NULL, NULL, ?)", (name,)).fetchall()
        assert rows == baseline["example"], name
        db.execute(f"DROP TABLE {quoted}")
    assert ("table", "matches") in tables(db)


def test_temp_table_shadows_main(db):
    db.execute("CREATE TEMP TABLE matches AS SELECT * FROM main.matches WHERE round = 1")
    assert db.execute("SELECT max(rounds) FROM standings(1, 'mtg')").fetchone() == (1,)
    db.execute("DROP TABLE temp.matches")
    assert db.execute("SELECT max(rounds) FROM standings(1, 'mtg')").fetchone() == (5,)


# ----------------------------------------------------------------- odd values

def test_odd_player_ids(db):
    rows = [
        ("nul", 1, "a\0b", "a\0c", 2, 0, 0),
        ("nul", 2, "a\0b", "a", 0, 2, 0),
        ("long", 1, "x" * 1_000_000, "y" * 1_000_000, 2, 1, 0),
        ("ints", 1, -2**63, 2**63 - 1, 0, 2, 0),
        ("ints", 2, -2**63, 0, 1, 1, 1),
        ("mixed", 1, 1, "1", 2, 0, 0),
    ]
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, "
                   "draws) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    got = db.execute("SELECT player, match_points FROM standings('nul', 'mtg')").fetchall()
    # a\0b beat a\0c (MWP floored to 0.33) and lost to a: OMW% 0.665 beats a's 0.5
    assert got == [("a\0b", 3), ("a", 3), ("a\0c", 0)]
    assert db.execute("SELECT omwp('nul', ?)", ("a\0c",)).fetchone() == (0.5,)
    got = db.execute("SELECT length(player), rank FROM standings('long', 'mtg')").fetchall()
    assert got == [(1_000_000, 1), (1_000_000, 2)]
    got = db.execute("SELECT player, match_points FROM standings('ints', 'mtg')").fetchall()
    assert got == [(2**63 - 1, 3), (-2**63, 1), (0, 1)]
    got = db.execute("SELECT player, typeof(player), rank FROM standings('mixed', 'mtg')").fetchall()
    assert got == [(1, "integer", 1), ("1", "text", 2)]


def test_blob_and_real_ids_are_errors(db):
    db.execute("INSERT INTO matches VALUES ('blob', 1, x'00ff', 'B', 2, 0, 0, NULL)")
    assert error_of(db, "SELECT * FROM standings('blob', 'mtg')") == \
        "standings(): event 'blob': player_a must be an INTEGER or TEXT id, got a blob in round 1"
    db.execute("INSERT INTO matches VALUES ('real', 1, 'A', 2.5, 2, 0, 0, NULL)")
    assert error_of(db, "SELECT * FROM standings('real', 'mtg')") == \
        "standings(): event 'real': player_b must be an INTEGER or TEXT id, got 2.5 in round 1"
    assert error_of(db, "SELECT * FROM standings(?, 'mtg')", (1.5,)) == \
        "standings(): event_id must be INTEGER or TEXT, got 1.5"
    # readfile() gives a BLOB: the message says how to pass a file's text
    assert error_of(db, "SELECT * FROM standings(?, 'mtg')", (b"\x01",)) == \
        ("standings(): event_id must be INTEGER or TEXT, got a BLOB (a file's text as the "
         "event: CAST(readfile('f') AS TEXT))")


def test_loading_twice_on_one_connection(db, baseline):
    db.enable_load_extension(True)
    try:
        db.load_extension(EXT_PATH)
    finally:
        db.enable_load_extension(False)
    assert db.execute(STANDINGS).fetchall() == baseline["example"]
    assert db.execute("SELECT omwp(1, 'Hugo'), ogwp(1, 'Lena')").fetchone() == baseline["omwp"]


def test_internal_row_reader_redefined_by_the_application(db, baseline):
    """standings() reads rows through its aggregate tiebreak_rows(); an application
    that defines a function of that name must get an error, not empty standings."""
    class Taker:
        def step(self, *args):
            pass

        def finalize(self):
            return None

    db.create_aggregate("tiebreak_rows", -1, Taker)
    message = "standings(): tiebreak_rows() is not tiebreak's: was the function defined again?"
    # met while reading event 1's rows: the event is named, as every fault met there
    assert error_of(db, STANDINGS) == message.replace("(): ", "(): event 1: ")
    assert error_of(db, "SELECT * FROM standings WHERE policy = 'mtg'") == message
    assert error_of(db, "SELECT omwp(1, 'Hugo')").endswith(
        "tiebreak_rows() is not tiebreak's: was the function defined again?")


# ------------------------------------------------------------------ pairings

PAIRINGS = "SELECT table_number, player_a, player_b FROM pairings(1, 'bracket(top=8)')"


def test_pairings_recursion_through_temp_view_named_matches(db):
    want = db.execute(PAIRINGS).fetchall()
    db.execute("CREATE TEMP VIEW matches AS SELECT 1 AS event_id, 6 AS round, player_a, "
               "player_b, 0 AS a_wins, 0 AS b_wins, 0 AS draws, NULL AS result "
               "FROM pairings(1, 'bracket(top=8)')")
    assert error_of(db, PAIRINGS) == "pairings(): event 1: " + RECURSION
    assert error_of(db, "SELECT * FROM pairing_check(1, 'bracket')") == \
        "pairing_check(): pairings(): event 1: " + RECURSION
    db.execute("DROP VIEW temp.matches")
    assert db.execute(PAIRINGS).fetchall() == want and len(want) == 4


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_pairings_table_names_are_identifiers(db, name):
    before = (tables(db), db.execute("SELECT count(*) FROM matches").fetchone())
    assert error_of(db, "SELECT * FROM pairings(1, 'bracket(top=8)', NULL, ?)", (name,)) == \
        f"pairings(): event 1: no such table: {name}"
    assert error_of(db, "SELECT * FROM pairing_check(1, 'bracket', ?)", (name,)) == \
        f"pairing_check(): event 1: no such table: {name}"
    assert (tables(db), db.execute("SELECT count(*) FROM matches").fetchone()) == before


@pytest.mark.parametrize("row,fault", [
    ((7, 1, "A", "A", 2, 0, 0, None), "player 'A' is paired with themself in round 1"),
    ((7, 1, "A", "B", -1, 0, 0, None), "negative game count in round 1 match of player 'A'"),
    (("t7", 1, "A", "B", 0, 2, 0, "a"),
     "result 'a' contradicts game counts 0-2-0 in round 1 match of player 'A'"),
])
def test_a_bad_event_is_named_by_every_function(db, row, fault):
    """One event's bad rows: standings() of that event says which event, as every
    event at once, pairings() and the scalars do."""
    db.execute("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
    event = "event 7" if row[0] == 7 else "event 't7'"
    ev = row[0]
    for sql, prefix in [("SELECT * FROM standings(?, 'mtg')", "standings()"),
                        ("SELECT omwp(?, 'A')", "omwp()"),
                        ("SELECT mwp(?, 'A')", "mwp()"),
                        ("SELECT * FROM pairings(?, 'mtg')", "pairings()")]:
        assert error_of(db, sql, (ev,)) == f"{prefix}: {event}: {fault}"
    assert error_of(db, "SELECT * FROM standings WHERE policy = 'mtg'") == \
        f"standings(): {event}: {fault}"
