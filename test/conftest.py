"""Shared fixtures: sqlite3 connections with the tiebreak extension loaded.

Run with Debian's /usr/bin/python3: other interpreters here are built without
loadable-extension support. TIEBREAK_EXT overrides the extension path
(default <repo>/build/tiebreak, the suffix is added by SQLite).
"""
import os
import sqlite3
import threading
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXT_PATH = os.environ.get("TIEBREAK_EXT", str(REPO / "build" / "tiebreak"))


def open_connection(database=":memory:", **kwargs):
    conn = sqlite3.connect(database, **kwargs)
    if not hasattr(conn, "enable_load_extension"):
        conn.close()
        raise RuntimeError("this Python's sqlite3 cannot load extensions; run /usr/bin/python3 -m pytest")
    conn.enable_load_extension(True)
    try:
        conn.load_extension(EXT_PATH)
    except sqlite3.OperationalError as e:
        conn.close()
        raise RuntimeError(f"cannot load extension {EXT_PATH!r} (build it or set TIEBREAK_EXT): {e}") from e
    # Keep load_extension() unavailable to SQL run by the tests.
    conn.enable_load_extension(False)
    return conn


@pytest.fixture(scope="session")
def connect():
    """Factory: connect(database=':memory:', **sqlite3_kwargs) -> connection with the
    extension loaded. Session-scoped so module fixtures can use it; every connection it
    opened is closed at the end of the session."""
    opened = []

    def factory(database=":memory:", **kwargs):
        conn = open_connection(database, **kwargs)
        opened.append(conn)
        return conn

    yield factory
    for conn in opened:
        conn.close()


def run_with_progress(conn, sql, params=(), every=1000, stop_at=None, interrupt=False):
    """Run sql with a progress handler every `every` VM steps that counts its calls; at
    call stop_at it says stop (or, with interrupt, calls sqlite3_interrupt() and lets the
    call go on). Counted calls, not time: the stop lands in the same place on a loaded
    machine. Returns the calls and the error, or None."""
    calls = [0]

    def handler():
        calls[0] += 1
        if stop_at is not None and calls[0] >= stop_at:
            if not interrupt:
                return 1
            conn.interrupt()
        return 0

    conn.set_progress_handler(handler, every)
    try:
        conn.execute(sql, params).fetchall()
        error = None
    except sqlite3.OperationalError as e:
        error = e
    conn.set_progress_handler(None, 0)
    return calls[0], error


SKIPPED_EXIT = 77  # ctest's SKIP_RETURN_CODE for every suite (test/CMakeLists.txt)


def interrupted(conn, sql, delay, stop):
    """Run sql, calling stop() after delay seconds: (error or None, latency)."""
    fired = []

    def fire():
        fired.append(time.perf_counter())
        stop()

    timer = threading.Timer(delay, fire)
    timer.start()
    try:
        conn.execute(sql).fetchall()
        error = None
    except sqlite3.OperationalError as e:
        error = e
    end = time.perf_counter()
    timer.cancel()
    timer.join()
    return error, (end - fired[0]) if fired else None


def interrupted_in_time(conn, sql, full, stop):
    """interrupted() at half the measured time; on a loaded machine a run can
    end before that (the measured one was slow), then again, earlier each time:
    (error, latency, delay) of the first run the stop reached."""
    delay = full / 2
    for _ in range(6):
        error, latency = interrupted(conn, sql, delay, stop)
        if latency is not None:
            break
        delay /= 4
    return error, latency, delay


def pytest_sessionfinish(session, exitstatus):
    """A suite that skipped every case and passed none exits 77, so that ctest
    reports it as Skipped instead of Passed (pytest itself exits 0)."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None or exitstatus != 0:
        return
    stats = reporter.stats
    if stats.get("skipped") and not stats.get("passed"):
        session.exitstatus = SKIPPED_EXIT
