"""tiebreak: Swiss-tournament standings and tiebreakers inside SQLite.

    import sqlite3, sqlite_tiebreak
    conn = sqlite3.connect("events.db")
    sqlite_tiebreak.load(conn)
    conn.execute("SELECT rank, player FROM standings(1, 'mtg')").fetchall()

The wheel carries the loadable module next to this file.
"""
import os

__version__ = "@TIEBREAK_VERSION@"

__all__ = ["load", "loadable_path", "ExtensionLoadingUnavailable"]


class ExtensionLoadingUnavailable(RuntimeError):
    """This Python's sqlite3 module cannot load extensions."""


def loadable_path():
    """The module's path without its suffix (SQLite adds .so or .dll),
    for conn.load_extension() or the sqlite3 shell's .load."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "tiebreak")


def load(conn):
    """Load tiebreak into a sqlite3 connection; extension loading is left
    off again afterwards, so SQL cannot load further modules."""
    if not hasattr(conn, "enable_load_extension"):
        # CPython's sqlite3 lacks the method when built without
        # --enable-loadable-sqlite-extensions (pyenv and python.org builds).
        raise ExtensionLoadingUnavailable(
            "sqlite_tiebreak.load(): this Python's sqlite3 cannot load extensions "
            "(built without --enable-loadable-sqlite-extensions; "
            "%s has no enable_load_extension). Use a Python built with it, such as "
            "Debian's /usr/bin/python3, or the sqlite3 shell: .load %s"
            % (type(conn).__name__, loadable_path()))
    conn.enable_load_extension(True)
    try:
        conn.load_extension(loadable_path())
    finally:
        conn.enable_load_extension(False)
