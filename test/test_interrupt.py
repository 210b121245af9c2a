"""sqlite3_interrupt() and the progress handler stop a call while it ranks.

SQLite checks both only while a statement runs; scoring and ranking run none,
so the extension steps a probe statement every few thousand units of work
(TbProbe in ext/tiebreak_int.h).  Each case here times one uninterrupted run of
a big event, then runs it again and interrupts it halfway (past the reading of
the rows, which SQLite interrupts on its own): the call must fail with
SQLITE_INTERRUPT.  The latency (interrupt to error) is printed, not asserted:
bench/run.py --shapes measures it (bench/README.md).

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_interrupt.py -q -s
"""
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from conftest import interrupted, interrupted_in_time, run_with_progress

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.dont_write_bytecode = True
import chess  # noqa: E402
import shapes  # noqa: E402

SCHEMA = (REPO / "sql" / "schema.sql").read_text()

# name: (shape, scale, query); every event at once: 100 events of 3,000 byes
CASES = {
    "direct_encounter": ("fide_drawn", 10, "SELECT count(*) FROM standings(1, 'fide')"),
    "fide_byes": ("fide_byes", 3, "SELECT count(*) FROM standings(1, 'fide')"),
    "pokemon": ("pokemon_dense", 30, "SELECT count(*) FROM standings(1, 'pokemon')"),
    "omwp_scalar": ("mtg_hub", 100, "SELECT omwp(1, 0)"),
    "every_event": (None, 0, "SELECT count(*) FROM standings WHERE policy = 'fide'"),
    "exact_tie": ("mtg_exact_tie", 10, "SELECT count(*) FROM standings(1, 'mtg')"),
}
# The same event without OGW%: ranked alike, with no exact sum over 100,000 terms.
NO_OGW = "SELECT count(*) FROM standings(1, 'mp,omw,gw')"
# Ranked on points and start numbers alone: the rating columns are computed when read.
COLUMNS_ORDER = "PTS,TPN,ARO,TPR,PTP,APRO,APPO"
COLUMNS_READ = ("SELECT count(aro), count(ptp), count(apro), count(appo) "
                f"FROM standings('c', '{COLUMNS_ORDER}')")
RANKS_ONLY = f"SELECT count(*) FROM standings('c', '{COLUMNS_ORDER}')"
SMALL = "SELECT count(*) FROM standings(2, 'fide')"


@pytest.fixture(scope="module")
def dbs(connect, tmp_path_factory):
    """One file per case, built once."""
    out = {}
    for name, (shape, scale, _) in list(CASES.items()) + [("columns_read", ("chess", 0, ""))]:
        path = str(tmp_path_factory.mktemp("interrupt") / f"{name}.db")
        conn = connect(path)
        if shape == "chess":
            chess.generate(conn, 40_000, 11)  # with the schema
        elif shape:
            conn.executescript(SCHEMA)
            shapes.build(conn, shape, scale)
        else:
            conn.executescript(SCHEMA)
            conn.execute(shapes._seq(300_000) + " INSERT INTO matches (event_id, round, "
                         "player_a, player_b, a_wins, b_wins, draws) SELECT 1000 + i / "
                         "3000, 1, i, NULL, 0, 0, 0 FROM s")
        conn.execute("INSERT INTO matches (event_id, round, player_a, player_b, a_wins, "
                     "b_wins, draws) VALUES (2, 1, 'x', 'y', 1, 0, 0)")
        conn.commit()
        out[name] = path
    return out


def timed(conn, sql):
    t0 = time.perf_counter()
    conn.execute(sql).fetchall()
    return time.perf_counter() - t0


@pytest.mark.parametrize("case", list(CASES))
def test_interrupt_stops_ranking(connect, dbs, case):
    conn = connect(dbs[case])
    sql = CASES[case][2]
    full = timed(conn, sql)
    error, latency, when = interrupted_in_time(conn, sql, full, conn.interrupt)
    print(f"\n{case}: full run {full * 1000:.0f} ms, interrupted at "
          f"{when * 1000:.0f} ms, stopped {latency * 1000:.1f} ms later")
    assert error is not None, "the call finished despite the interrupt"
    assert str(error).endswith("interrupted")
    assert error.sqlite_errorcode == sqlite3.SQLITE_INTERRUPT
    # nothing left behind: the connection and the kept reader work on
    assert conn.execute(SMALL).fetchone() == (2,)


@pytest.mark.parametrize("case", ["direct_encounter", "every_event"])
def test_progress_handler_stops_ranking(connect, dbs, case):
    conn = connect(dbs[case])
    sql = CASES[case][2]
    full = timed(conn, sql)
    deadline = []

    def handler():
        return 1 if deadline and time.perf_counter() > deadline[0] else 0

    conn.set_progress_handler(handler, 1000)
    error, latency, when = interrupted_in_time(
        conn, sql, full, lambda: deadline.append(time.perf_counter()))
    conn.set_progress_handler(None, 0)
    print(f"\n{case}: full run {full * 1000:.0f} ms, progress handler says stop at "
          f"{when * 1000:.0f} ms, stopped {latency * 1000:.1f} ms later")
    assert error is not None, "the call finished despite the progress handler"
    assert str(error).endswith("interrupted")
    assert conn.execute(SMALL).fetchone() == (2,)


def counting_handler(calls, stop_at=None):
    """A progress handler that counts its calls, and says stop at the stop_at-th."""
    def handler():
        calls[0] += 1
        return 1 if stop_at is not None and calls[0] >= stop_at else 0
    return handler


def test_progress_handler_stops_columns_read(connect, dbs):
    """Halfway through computing the columns a statement reads, after the ranking: the
    progress handler's calls are counted (the same every run), so the stop lands there
    whatever the machine's load."""
    conn = connect(dbs["columns_read"])
    calls = [0]
    conn.set_progress_handler(counting_handler(calls), 100)
    conn.execute(RANKS_ONLY).fetchall()
    ranks, calls[0] = calls[0], 0
    assert conn.execute(COLUMNS_READ).fetchone()[0] == 40_000
    full, calls[0] = calls[0], 0
    # the probe steps while the columns are computed add calls past the ranking's
    assert full > ranks + 4, (ranks, full)
    stop_at = (ranks + full) // 2
    conn.set_progress_handler(counting_handler(calls, stop_at), 100)
    with pytest.raises(sqlite3.OperationalError, match="interrupted") as e:
        conn.execute(COLUMNS_READ).fetchall()
    conn.set_progress_handler(None, 0)
    print(f"\ncolumns_read: {ranks} progress calls to rank, {full} with the columns, "
          f"stopped at {stop_at}")
    assert e.value.sqlite_errorcode == sqlite3.SQLITE_INTERRUPT
    assert conn.execute(SMALL).fetchone() == (2,)


def test_progress_handler_stops_exact_tie(connect, dbs):
    """Two players tied on OGW%, a mean over 100,000 fractions of distinct
    denominators: the exact sums and their comparison poll the probe as they go
    (without that, they add no call to the handler's), and stop halfway when the
    handler says so.  Counted calls, not time: the stop lands in the same place on
    a loaded machine."""
    conn = connect(dbs["exact_tie"])
    calls = [0]
    conn.set_progress_handler(counting_handler(calls), 100)
    assert conn.execute(NO_OGW).fetchone() == (100_002,)
    plain, calls[0] = calls[0], 0
    assert conn.execute(CASES["exact_tie"][2]).fetchone() == (100_002,)
    full, calls[0] = calls[0], 0
    # OGW% in doubles adds about a dozen calls (26,144 and 26,156 when the exact
    # arithmetic did not poll); the exact sums and their comparison add hundreds
    assert full > plain + 200, (plain, full)
    stop_at = (plain + full) // 2
    conn.set_progress_handler(counting_handler(calls, stop_at), 100)
    with pytest.raises(sqlite3.OperationalError, match="interrupted") as e:
        conn.execute(CASES["exact_tie"][2]).fetchall()
    conn.set_progress_handler(None, 0)
    print(f"\nexact_tie: {plain} progress calls without OGW%, {full} with it, "
          f"stopped at {stop_at}")
    assert e.value.sqlite_errorcode == sqlite3.SQLITE_INTERRUPT
    assert conn.execute(SMALL).fetchone() == (2,)


# ------------------------------------------------------------- file readers

import files  # noqa: E402  (bench/files.py: the generators)

# Texts whose reading is nearly all parsing: few rows come out (2 players, 4
# matches), the rest is what the reader reads and skips (elements, records,
# Standings entries without a record).  Between the rows SQLite answers the
# handler itself; inside the parsing only the reader's probe steps reach it.
READERS = {
    "tom": ("SELECT count(*) FROM tom_matches(?)", files.tom_text(4, 2, notes=300_000)),
    "tom_policy": ("SELECT tom_policy(?)", files.tom_text(4, 2, notes=300_000)),
    "trf": ("SELECT count(*) FROM trf_matches(?)", files.trf_text(4, 2, records=300_000)),
    "trf_event": ("SELECT count(*) FROM trf_event(?)", files.trf_text(4, 2, records=300_000)),
    # a scalar: its pass over the records polls too
    "trf_policy": ("SELECT trf_policy(?, 'fide')", files.trf_text(4, 2, records=300_000)),
    "melee": ("SELECT count(*) FROM melee_matches(?)",
              files.melee_text(2, 4, standings=100_000)),
}


def progress_calls(conn, sql, text, stop_at=None, interrupt=False):
    """run_with_progress() every 100 VM steps, the text as the parameter."""
    return run_with_progress(conn, sql, (text,), 100, stop_at, interrupt)


@pytest.mark.parametrize("interrupt", [False, True], ids=["progress", "interrupt"])
@pytest.mark.parametrize("reader", list(READERS))
def test_file_readers_stop_while_parsing(connect, reader, interrupt):
    conn = connect()
    sql, text = READERS[reader]
    full, error = progress_calls(conn, sql, text)
    assert error is None
    # the handler is reached while the text is parsed, not only between rows
    assert full >= 50, full
    stop_at = full // 2
    calls, error = progress_calls(conn, sql, text, stop_at, interrupt)
    print(f"\n{reader}: {len(text) / 1e6:.1f} MB, {full} progress calls to read, "
          f"stopped at call {stop_at}")
    assert error is not None, "the reader finished despite the stop"
    assert str(error).endswith("interrupted")
    assert error.sqlite_errorcode == sqlite3.SQLITE_INTERRUPT
    assert calls <= stop_at + 1
    # nothing left behind: the connection reads the same text again
    assert conn.execute(sql, (text,)).fetchone()[0] == conn.execute(sql, (text,)).fetchone()[0]
    assert conn.execute(sql, (text,)).fetchone()[0]
