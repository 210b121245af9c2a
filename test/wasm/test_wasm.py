"""The WebAssembly build under Node: every SQL case of test/sql/*.sql with the
expectations the Python and CLI runs use, the example of docs/wasm.md, and
the standings of the bundled large event equal to the native build's.

Run by test/wasm/run.py, which builds it and sets TIEBREAK_WASM (the path of
tiebreak.js), NODE and TIEBREAK_EXT (the native module, for comparison).
"""
import base64
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import sqlcases  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = sqlcases.REPO
WASM = os.environ.get("TIEBREAK_WASM", str(REPO / "build" / "wasm" / "tiebreak.js"))
NODE = os.environ.get("NODE", "node")
CASES = sqlcases.load_all()


class WasmError(sqlite3.OperationalError):
    """An error reported by the WebAssembly build (SQLite's message)."""


class Node:
    """One Node process holding the WebAssembly build (test/wasm/server.cjs)."""

    def __init__(self):
        self.proc = subprocess.Popen([NODE, str(HERE / "server.cjs"), WASM],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def ask(self, **req):
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"node exited with {self.proc.wait()}")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def decode(v):
    """A value from server.cjs, with its SQLite type, as Python's sqlite3 gives it."""
    if isinstance(v, dict):
        if "i" in v:
            return int(v["i"])
        if "r" in v:
            return float(v["r"])
        return base64.b64decode(v["b"])
    return v


class Connection:
    """The part of a DB-API connection sqlcases.run_on_connection uses."""

    def __init__(self, node, file=None):
        self.node = node
        ans = node.ask(op="open", **({"file": str(file)} if file else {}))
        if "error" in ans:
            raise WasmError(ans["error"])
        self.sqlite_version = ans["sqlite"]

    def execute(self, sql, params=None):
        ans = self.node.ask(op="query", sql=sql, params=params)
        if "error" in ans:
            raise WasmError(ans["error"])
        rows = [tuple(decode(v) for v in row) for row in ans["rows"]]
        return type("Rows", (), {"fetchall": lambda self: rows})()

    def close(self):
        self.node.ask(op="close")


@pytest.fixture(scope="module")
def node():
    if not Path(WASM).exists():
        pytest.fail(f"{WASM} not built (test/wasm/run.py builds it)", pytrace=False)
    n = Node()
    yield n
    n.close()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_sql_case(node, case):
    conn = Connection(node)
    try:
        sqlcases.run_on_connection(case, conn, "wasm")
        problem = None
    except sqlcases.CaseFailure as e:
        problem = str(e)
    finally:
        conn.close()
    if problem:
        pytest.fail(problem, pytrace=False)


def test_runner_sees_wrong_expectations(node):
    """The same runner fails on a wrong row, a wrong type and a wrong error."""
    wrong = sqlcases.parse_text(
        "-- case: value\nSELECT tiebreak_version() = '0.0.0';\n-- expect:\n-- 1\n"
        "-- case: real_as_integer\nSELECT 2.0;\n-- expect:\n-- 2\n"
        "-- case: error_text\nSELECT * FROM standings(1, 'nope');\n-- error: no such table\n",
        "wrong.sql")
    for case in wrong:
        conn = Connection(node)
        with pytest.raises(sqlcases.CaseFailure):
            sqlcases.run_on_connection(case, conn, "wasm")
        conn.close()


def test_types_cross_as_sqlite_has_them(node):
    conn = Connection(node)
    row = conn.execute("SELECT 2, 2.0, 'x', NULL, x'00ff', 9223372036854775807, "
                       "1e300 * 1e300, -0.0").fetchall()[0]
    assert row == (2, 2.0, "x", None, b"\x00\xff", 9223372036854775807, float("inf"), 0.0)
    assert [type(v) for v in row[:2]] == [int, float]
    assert conn.sqlite_version >= "3.54"
    conn.close()


def native_standings(db, policy, as_of=None):
    conn = sqlite3.connect(db)
    conn.enable_load_extension(True)
    conn.load_extension(sqlcases.default_ext())
    rows = conn.execute("SELECT * FROM standings(2, ?, NULL, ?)", (policy, as_of)).fetchall()
    conn.close()
    return rows


@pytest.fixture(scope="module")
def large_db(tmp_path_factory):
    """A database file of the bundled 116-player event, written by Python."""
    path = tmp_path_factory.mktemp("wasm") / "rcq.db"
    conn = sqlite3.connect(path)
    conn.executescript((REPO / "sql" / "schema.sql").read_text()
                       + (REPO / "sql" / "example_large.sql").read_text())
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("policy,as_of", [("mtg", None), ("mtg", 3), ("mtg(floor=1/3)", None),
                                          ("battlefy", None), ("pokemon", None),
                                          ("yugioh", 5), ("hct", None)])
def test_standings_from_file_bytes_equal_native(node, large_db, policy, as_of):
    """open(bytes) of a file Python wrote: every column of every row as the
    native module computes it on the same file."""
    conn = Connection(node, large_db)
    got = conn.execute("SELECT * FROM standings(2, ?, NULL, ?)", [policy, as_of]).fetchall()
    conn.close()
    want = native_standings(large_db, policy, as_of)
    assert len(want) == 116
    assert got == want


def test_large_event_known_values(node, large_db):
    """The bundled event's Top 8 cut as the native build and sql/reports.sql
    print it: 8th is above 9th on OMW%."""
    conn = Connection(node, large_db)
    rows = conn.execute("SELECT rank, player, match_points, printf('%.2f%%', 100 * omwp), "
                        "decided_by FROM standings(2, 'mtg') WHERE rank IN (1, 8, 9)").fetchall()
    conn.close()
    assert rows == [(1, "Uma Rossi", 22, "64.24%", None),
                    (8, "Ivan Novak", 18, "62.98%", "omwp"),
                    (9, "Ines Novak", 18, "60.42%", "omwp")]


def test_not_a_database(node, tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"Round,Table,Player 1\n" * 50)
    with pytest.raises(WasmError, match="^file is not a database$"):
        Connection(node, junk)


def doc_example():
    """The ```js block of docs/wasm.md and the ```text block after it."""
    text = (REPO / "docs" / "wasm.md").read_text()
    m = re.search(r"```js\n(.*?)```\n\s*```text\n(.*?)```", text, re.S)
    assert m, "docs/wasm.md has no ```js example followed by its ```text output"
    return m.group(1), m.group(2)


def test_docs_example(tmp_path):
    """docs/wasm.md's example, run as written (the build path adjusted)."""
    code, want = doc_example()
    build_dir = str(Path(WASM).parent.parent)
    code = code.replace('"./build/', json.dumps(build_dir + "/")[:-1])
    script = tmp_path / "example.cjs"
    script.write_text(code)
    proc = subprocess.run([NODE, str(script)], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == want


HOSTILE = r"""
const initTiebreak = require(process.argv[2]);
initTiebreak().then((tb) => {
  const tries = {
    open_string: () => tb.open("x.db"),
    open_number: () => tb.open(12),
    open_zero_bytes: () => tb.open(new Uint8Array(0)).query("SELECT count(*) AS n FROM sqlite_schema")[0].n,
    open_junk: () => tb.open(new Uint8Array(4096).fill(7)),
    query_nothing: () => tb.open().query(),
    query_null: () => tb.open().query(null),
    query_number: () => tb.open().query(42),
    query_empty: () => tb.open().query(" -- nothing\n"),
    query_two: () => tb.open().query("SELECT 1; SELECT 2"),
    params_string: () => tb.open().query("SELECT ?", "x"),
    param_object: () => tb.open().query("SELECT ?", [{}]),
    param_missing: () => tb.open().query("SELECT ?2 IS NULL AS n", [1])[0].n,
    named: () => tb.open().query("SELECT $a || :b AS n", { a: "x", ":b": "y" })[0].n,
    huge: () => tb.open().query("SELECT ? AS n", [2n ** 63n - 1n])[0].n.toString(),
    too_huge: () => tb.open().query("SELECT ? AS n", [2n ** 64n]),
    exec_array: () => tb.open().exec("SELECT ?", [1]),
    standings_no_args: () => tb.open().query("SELECT * FROM standings()"),
    closed: () => { const d = tb.open(); d.close(); d.close(); return d.query("SELECT 1"); },
  };
  const out = {};
  for (const [k, f] of Object.entries(tries)) {
    try { out[k] = "ok " + String(f()); } catch (e) { out[k] = e.name + ": " + e.message; }
  }
  console.log(JSON.stringify(out));
});
"""


def test_js_api_bad_arguments(tmp_path):
    """Wrong arguments to every call give a clear exception, never a crash."""
    script = tmp_path / "hostile.cjs"
    script.write_text(HOSTILE)
    proc = subprocess.run([NODE, str(script), WASM], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert got == {
        "open_string": "TypeError: open(): a database file's bytes (Uint8Array or ArrayBuffer)",
        "open_number": "TypeError: open(): a database file's bytes (Uint8Array or ArrayBuffer)",
        "open_zero_bytes": "ok 0",
        "open_junk": "SQLiteError: file is not a database",
        "query_nothing": "TypeError: SQL must be a string, not undefined",
        "query_null": "TypeError: SQL must be a string, not object",
        "query_number": "TypeError: SQL must be a string, not number",
        "query_empty": "Error: query(): no SQL statement",
        "query_two": "Error: query() runs one statement; exec() runs several",
        "params_string": "TypeError: parameters must be an array or an object, not a string",
        "param_object": "TypeError: cannot bind a object to parameter 1"
                        " (null, number, bigint, boolean, string or Uint8Array)",
        "param_missing": "ok 1",
        "named": "ok xy",
        "huge": "ok 9223372036854775807",
        "too_huge": "RangeError: parameter 1 is outside SQLite's 64-bit integers:"
                    " 18446744073709551616",
        "exec_array": "Error: exec() takes named parameters (an object), not an array",
        "standings_no_args": "SQLiteError: standings(): the policy argument is required,"
                             " e.g. standings(1, 'mtg') or WHERE policy = 'mtg' for every event",
        "closed": "Error: the database is closed",
    }


def test_wal_mode_file(node, tmp_path):
    """A database file in WAL mode (its header says so) opens from its bytes."""
    path = tmp_path / "wal.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript((REPO / "sql" / "schema.sql").read_text()
                       + (REPO / "sql" / "example.sql").read_text())
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert path.read_bytes()[18:20] == b"\x02\x02"
    wasm = Connection(node, path)
    rows = wasm.execute("SELECT rank, player FROM standings(1, 'mtg') LIMIT 2").fetchall()
    wasm.close()
    assert rows == [(1, "Hugo"), (2, "Cleo")]
