"""Every SQL function and table-valued function of the extension, called with
every number of arguments from none to a few more than it takes, each
argument drawn from hostile values (NULL, extreme integers and doubles, empty
and odd text, blobs): the host process must never crash, and every call ends
in rows or in an error message that names the function.

The surface is found at run time (pragma_function_list and pragma_module_list
before and after loading), so whatever is added later is covered too.  Calls
run in the sqlite3 CLI, one process per function, so that a crash is seen as
a signal with the calls that caused it, not as a dead test runner.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_surface.py -q
"""
import itertools
import os
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from conftest import EXT_PATH

REPO = Path(__file__).resolve().parent.parent
SQLITE3 = os.environ.get("SQLITE3") or shutil.which("sqlite3")
SETUP = (REPO / "sql" / "schema.sql").read_text() + (REPO / "sql" / "example.sql").read_text()

# Values an argument may take, as SQL literals.
HOSTILE = [
    "NULL", "0", "1", "-1", "2", "9223372036854775807", "-9223372036854775808",
    "1000000000", "1e308", "-1e308", "0.5", "1.0", "'nan'", "''", "'x'", "'1'", "'-'",
    "'mtg'", "'fide'", "'pokemon(tie_credit=1/2)'", "'mtg(floor='", "'matches'", "'games'",
    "'players'", "'\"; DROP TABLE matches; --'", "X''", "X'00ff'", "zeroblob(100000)",
    "char(0)", "'" + "(" * 200 + "'", "printf('%.*c', 100000, 'a')",
]
MAX_EXTRA_ARGS = 3


def surface():
    """(functions {name: set of nArg}, modules) that loading the extension adds."""
    def listing(load):
        conn = sqlite3.connect(":memory:")
        if load:
            conn.enable_load_extension(True)
            conn.load_extension(EXT_PATH)
        funcs = {}
        for name, narg in conn.execute("SELECT name, narg FROM pragma_function_list"):
            funcs.setdefault(name, set()).add(narg)
        mods = {m for (m,) in conn.execute("SELECT name FROM pragma_module_list")}
        conn.close()
        return funcs, mods

    before_f, before_m = listing(False)
    after_f, after_m = listing(True)
    funcs = {n: a for n, a in after_f.items() if n not in before_f}
    return funcs, sorted(after_m - before_m)


def hidden_arity(module):
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(EXT_PATH)
    n = sum(1 for row in conn.execute(f"SELECT * FROM pragma_table_xinfo('{module}')") if row[-1])
    conn.close()
    return n


def argument_lists(max_args, rng):
    """Every arity up to max_args: each value alone in every position, plus a
    seeded sample of mixed tuples."""
    for k in range(max_args + 1):
        if k == 0:
            yield []
            continue
        for v in HOSTILE:
            yield [v] * k
        for pos in range(k):
            for v in HOSTILE:
                args = ["1"] * k
                args[pos] = v
                yield args
        for _ in range(40):
            yield [rng.choice(HOSTILE) for _ in range(k)]


def run_cli(statements):
    script = SETUP + "\n" + "\n".join(statements) + "\n"
    return subprocess.run(
        [SQLITE3, "-bail", ":memory:", "-cmd", ".bail off", "-cmd", f".load {EXT_PATH}"],
        input=script, capture_output=True, text=True, timeout=600)


def check(statements, what):
    proc = run_cli(statements)
    assert proc.returncode >= 0, (
        f"{what}: the sqlite3 process died with signal {-proc.returncode}\n"
        + proc.stderr[-3000:])
    # Under the sanitizers (.ci/run preloads them) a fault is a report, not a signal.
    for report in ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer"):
        assert report not in proc.stderr, f"{what}: {report}\n" + proc.stderr[-3000:]
    # Every error is a message, not a bare code or an empty text.
    for line in proc.stderr.splitlines():
        if line.startswith(("Error:", "Parse error", "Runtime error")):
            assert line.split(":", 1)[1].strip(), f"{what}: empty error message: {line}"


FUNCS, MODULES = (surface() if SQLITE3 and Path(EXT_PATH + ".so").exists() else ({}, []))


@pytest.mark.skipif(not SQLITE3, reason="no sqlite3 CLI")
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_function_any_arguments(name):
    rng = random.Random(name)
    nmax = max(a for a in FUNCS[name] if a >= 0) if any(a >= 0 for a in FUNCS[name]) else 9
    statements = []
    for args in argument_lists(nmax + MAX_EXTRA_ARGS if nmax < 9 else 9, rng):
        call = f"{name}({', '.join(args)})"
        statements.append(f"SELECT typeof({call});")
        if args:
            statements.append(f"SELECT {call} FROM matches LIMIT 3;")
    check(statements, f"{name}()")


@pytest.mark.skipif(not SQLITE3, reason="no sqlite3 CLI")
@pytest.mark.parametrize("module", MODULES)
def test_table_function_any_arguments(module):
    rng = random.Random(module)
    hidden = hidden_arity(module)
    statements = [f"SELECT count(*) FROM {module};"]
    for args in argument_lists(hidden + 1, rng):
        statements.append(f"SELECT count(*) FROM {module}({', '.join(args)});")
    # Arguments as constraints, and fed from another table (join plans).
    for v in HOSTILE:
        statements.append(f"SELECT count(*) FROM {module} WHERE rowid = {v};")
        statements.append(
            f"SELECT count(*) FROM (SELECT {v} AS a) t, {module}(t.a, 'mtg') s;")
    check(statements, f"{module}()")


def test_surface_is_found():
    """The listing above must see the extension's surface, or the two tests
    above would pass by testing nothing."""
    if not SQLITE3:
        pytest.skip("no sqlite3 CLI")
    assert {"mwp", "gwp", "omwp", "ogwp", "tiebreak_rows", "tiebreak_version"} <= set(FUNCS)
    assert {"standings", "pairings", "pairing_check"} <= set(MODULES)
