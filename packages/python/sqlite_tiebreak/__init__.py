"""tiebreak: Swiss-tournament standings and tiebreakers inside SQLite.

    import sqlite3, sqlite_tiebreak
    conn = sqlite3.connect("events.db")
    sqlite_tiebreak.load(conn)
    conn.execute("SELECT rank, player FROM standings(1, 'mtg')").fetchall()

The wheel carries the loadable module next to this file.
"""
import os
import sqlite3

__version__ = "@TIEBREAK_VERSION@"

__all__ = ["load", "loadable_path", "ExtensionLoadingUnavailable"]


class ExtensionLoadingUnavailable(RuntimeError):
    """This Python's sqlite3 module cannot load extensions."""


def loadable_path():
    """The module's path without its suffix (SQLite adds .so or .dll),
    for conn.load_extension() or the sqlite3 shell's .load."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiebreak")


def load(conn):
    """Load tiebreak into a sqlite3 connection.  Extension loading is left
    as the caller had it: off stays off (SQL cannot load further modules),
    on stays on (the caller's next load_extension() still works)."""
    if not hasattr(conn, "enable_load_extension"):
        # CPython's sqlite3 lacks the method when built without
        # --enable-loadable-sqlite-extensions (pyenv and python.org builds).
        raise ExtensionLoadingUnavailable(
            "sqlite_tiebreak.load(): this Python's sqlite3 cannot load extensions "
            "(built without --enable-loadable-sqlite-extensions; "
            "%s has no enable_load_extension). Use a Python built with it, such as "
            "Debian's /usr/bin/python3, or the sqlite3 shell: .load %s"
            % (type(conn).__name__, loadable_path()))
    was_on = _loading_enabled(conn)
    conn.enable_load_extension(True)
    try:
        conn.load_extension(loadable_path())
    finally:
        conn.enable_load_extension(was_on)


def _loading_enabled(conn):
    """Whether extension loading is on: sqlite3 has no getter for it, so ask
    SQL's load_extension() for a file that does not exist.  Switched off,
    SQLite refuses with "not authorized" before looking for the file; on,
    the load fails on the missing file, which loads nothing."""
    probe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "no-such-module")
    try:
        conn.execute("SELECT load_extension(?)", (probe,))
    except sqlite3.OperationalError as e:
        return "not authorized" not in str(e)
    return True
