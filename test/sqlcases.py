"""SQL case files for the tiebreak extension and a runner that checks them
through two clients: Python's sqlite3 module and the sqlite3 CLI.

Case file format (test/sql/*.sql)
---------------------------------
Everything before the first ``-- case:`` line is the file's setup. Before each
case, a fresh in-memory database gets the extension loaded and the setup run.

    -- case: some_name
    SELECT ...;               -- one or more statements
    -- expect:
    -- 1|A|18
    -- 2|B|14

The rows of the *last* statement are compared with the ``-- expect:`` lines.
A row line is ``-- `` followed by the row; ``--`` alone is a row that prints
as the empty string (one NULL or ''). ``-- expect:`` with no row lines means
"no rows". Rows print like the sqlite3 CLI in list mode: ``|`` between values,
NULL as empty string, REAL as SQLite's ``%!.15g``. Round REALs in SQL
(``round(x, 6)``) so that both clients print the same text.

Instead of ``-- expect:`` a case may say

    -- error: exact message

meaning: every statement but the last succeeds and the last one fails with
exactly this message (Python: ``str(exception)``; CLI: the message appears in
stderr and the exit code is non-zero). ``-- error-match: GLOB`` does the same
with a shell-style pattern, for failures whose text the spec leaves open.
An error case may go on with

    -- then:
    SELECT ...;               -- run on the same database after the error
    -- expect:
    -- ...

to check the state the error left behind (e.g. the user's table unchanged).

Lines starting with ``--`` inside a case's SQL are ordinary SQL comments.

Environment: TIEBREAK_EXT = extension path without suffix (default
<repo>/build/tiebreak); SQLITE3 = CLI binary (default ``sqlite3``).
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import re
import sqlite3
import subprocess
from pathlib import Path

TEST_DIR = Path(__file__).resolve().parent
REPO = TEST_DIR.parent
SQL_DIR = TEST_DIR / "sql"
CLIENTS = ("python", "cli")

_NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+$")
# Anything that looks like a directive but is not one exactly (wrong case,
# missing colon or space) is rejected, so a typo cannot silently turn an
# expectation into a comment.
_DIRECTIVE_LIKE_RE = re.compile(r"^--\s*(case|expected?|errors?|error-match|then)\s*:", re.I)
_EXACT_DIRECTIVES = ("-- expect:", "-- error:", "-- error-match:", "-- then:")
# Marks in CLI stdout: everything before them ran without error.
_MARK = "@@sqlcases-mark@@"
_MARK_THEN = "@@sqlcases-mark-then@@"


class CaseFileError(ValueError):
    """A case file that does not follow the format."""


class CaseFailure(AssertionError):
    """A case whose outcome differs from its expectation."""


@dataclasses.dataclass(frozen=True)
class Case:
    file: str                      # file name, e.g. "events.sql"
    name: str
    line: int                      # line of "-- case:"
    setup: tuple[str, ...]         # the file's setup statements
    statements: tuple[str, ...]
    expect: tuple[str, ...] | None  # rows of the last statement (of `then` if present)
    error: str | None = None        # exact message of the last statement's error
    error_match: str | None = None  # glob for the error message
    then: tuple[str, ...] = ()      # statements run after the error

    @property
    def id(self) -> str:
        return f"{self.file}::{self.name}"

    @property
    def expects_error(self) -> bool:
        return self.error is not None or self.error_match is not None


# ---------------------------------------------------------------- parsing

def _is_comment_only(text: str) -> bool:
    return all(not ln.strip() or ln.strip().startswith("--") for ln in text.splitlines())


def split_statements(sql: str, where: str) -> list[str]:
    """Split SQL text into complete statements (semicolons inside strings
    and comments are handled by sqlite3.complete_statement)."""
    out, start = [], 0
    for i, ch in enumerate(sql):
        if ch == ";" and sqlite3.complete_statement(sql[start:i + 1]):
            stmt = sql[start:i + 1]
            if not _is_comment_only(stmt[:-1]):
                out.append(stmt.strip())
            start = i + 1
    rest = sql[start:]
    if not _is_comment_only(rest):
        raise CaseFileError(f"{where}: incomplete SQL statement (missing ';'?): {rest.strip()[:60]!r}")
    return out


def _row_of(line: str, where: str) -> str:
    if line == "--":
        return ""
    if line.startswith("-- "):
        return line[3:]
    raise CaseFileError(f"{where}: expected-row lines must start with '-- ': {line!r}")


def parse_text(text: str, filename: str) -> list[Case]:
    """Parse one case file; raise CaseFileError when it is malformed."""
    lines = text.splitlines()
    setup_lines: list[str] = []
    raw: list[dict] = []
    cur: dict | None = None
    # states: setup, sql, after_error, then_sql, expect
    state = "setup"

    def where(n: int) -> str:
        return f"{filename}:{n}"

    for n, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        stripped = line.strip()
        if line.startswith("-- case:"):
            name = line[len("-- case:"):].strip()
            if not _NAME_RE.match(name):
                raise CaseFileError(f"{where(n)}: bad case name {name!r}")
            if cur is not None and state in ("sql", "then_sql"):
                raise CaseFileError(f"{where(cur['line'])}: case {cur['name']!r} has no expectation")
            cur = {"name": name, "line": n, "sql": [], "then": [], "expect": None,
                   "error": None, "error_match": None, "then_seen": False}
            raw.append(cur)
            state = "sql"
            continue

        if state == "expect":
            if not stripped:
                continue
            if line.startswith(_EXACT_DIRECTIVES):
                raise CaseFileError(f"{where(n)}: {line.split(':')[0]!r} after '-- expect:'")
            if line.startswith("--"):
                cur["expect"].append(_row_of(line, where(n)))
                continue
            raise CaseFileError(f"{where(n)}: SQL after '-- expect:' in case {cur['name']!r}")

        if line.startswith("-- expect:"):
            if state not in ("sql", "then_sql") or line.strip() != "-- expect:":
                raise CaseFileError(f"{where(n)}: misplaced or malformed '-- expect:'")
            if state == "sql" and (cur["error"] is not None or cur["error_match"] is not None):
                raise CaseFileError(f"{where(n)}: case {cur['name']!r} has both error and expect")
            cur["expect"] = []
            state = "expect"
            continue
        if line.startswith("-- error:") or line.startswith("-- error-match:"):
            if state != "sql":
                raise CaseFileError(f"{where(n)}: misplaced '-- error'")
            key = "error_match" if line.startswith("-- error-match:") else "error"
            msg = line.split(":", 1)[1].strip()
            if not msg:
                raise CaseFileError(f"{where(n)}: empty error message")
            cur[key] = msg
            state = "after_error"
            continue
        if line.startswith("-- then:"):
            if state != "after_error" or stripped != "-- then:":
                raise CaseFileError(f"{where(n)}: '-- then:' must follow '-- error:'")
            cur["then_seen"] = True
            state = "then_sql"
            continue
        if _DIRECTIVE_LIKE_RE.match(stripped):
            raise CaseFileError(f"{where(n)}: malformed directive {line!r}")

        if state == "setup":
            setup_lines.append(line)
        elif state == "sql":
            cur["sql"].append(line)
        elif state == "then_sql":
            cur["then"].append(line)
        elif state == "after_error":
            if stripped:
                raise CaseFileError(f"{where(n)}: only '-- then:' may follow '-- error:'")

    if not raw:
        raise CaseFileError(f"{filename}: no '-- case:' found")
    if state in ("sql", "then_sql"):
        raise CaseFileError(f"{where(cur['line'])}: case {cur['name']!r} has no expectation")

    setup = tuple(split_statements("\n".join(setup_lines), f"{filename} setup"))
    cases, seen = [], set()
    for c in raw:
        if c["name"] in seen:
            raise CaseFileError(f"{where(c['line'])}: duplicate case name {c['name']!r}")
        seen.add(c["name"])
        stmts = split_statements("\n".join(c["sql"]), where(c["line"]))
        if not stmts:
            raise CaseFileError(f"{where(c['line'])}: case {c['name']!r} has no SQL")
        then = split_statements("\n".join(c["then"]), where(c["line"]))
        if c["then_seen"] and not then:
            raise CaseFileError(f"{where(c['line'])}: case {c['name']!r} has an empty '-- then:'")
        cases.append(Case(
            file=filename, name=c["name"], line=c["line"], setup=setup,
            statements=tuple(stmts),
            expect=None if c["expect"] is None else tuple(c["expect"]),
            error=c["error"], error_match=c["error_match"], then=tuple(then)))
    return cases


def parse_file(path: str | os.PathLike) -> list[Case]:
    path = Path(path)
    return parse_text(path.read_text(encoding="utf-8"), path.name)


def load_all(sql_dir: str | os.PathLike = SQL_DIR) -> list[Case]:
    cases = []
    for path in sorted(Path(sql_dir).glob("*.sql")):
        cases.extend(parse_file(path))
    return cases


# ---------------------------------------------------------------- printing

def format_value(v) -> str:
    """One value as the sqlite3 CLI prints it in list mode."""
    if v is None:
        return ""
    if isinstance(v, float):
        if v != v:  # SQLite turns NaN into NULL; kept only for completeness
            return ""
        if v in (float("inf"), float("-inf")):
            return "Inf" if v > 0 else "-Inf"
        if v == 0.0:
            v = 0.0  # SQLite prints -0.0 as 0.0
        s = "%.15g" % v
        # %!.15g: always a decimal point in the mantissa
        mant, e, exp = s.partition("e")
        if "." not in mant:
            mant += ".0"
        return mant + e + exp
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v)


def format_rows(rows) -> str:
    return "".join("|".join(format_value(v) for v in row) + "\n" for row in rows)


def _expected_text(rows) -> str:
    return "".join(r + "\n" for r in rows)


# ---------------------------------------------------------------- running

def default_ext() -> str:
    # An empty variable (e.g. an unset CMake cache entry) means the default.
    return os.environ.get("TIEBREAK_EXT") or str(REPO / "build" / "tiebreak")


def default_cli() -> str:
    return os.environ.get("SQLITE3") or "sqlite3"


def ext_exists(ext: str) -> bool:
    return any(os.path.exists(ext + sfx) for sfx in ("", ".so", ".dylib", ".dll"))


def _indent(text: str) -> str:
    return "".join("    " + ln + "\n" for ln in text.splitlines()) or "    (nothing)\n"


def _fail(case: Case, client: str, what: str, expected: str | None = None, got: str | None = None):
    msg = f"{case.id} [{client}] (test/sql/{case.file}:{case.line}): {what}\n"
    if expected is not None:
        msg += "expected:\n" + _indent(expected)
    if got is not None:
        msg += "got:\n" + _indent(got)
    raise CaseFailure(msg)


def _error_matches(case: Case, message: str) -> bool:
    if case.error is not None:
        return message == case.error
    return fnmatch.fnmatchcase(message, case.error_match)


def _expected_error_text(case: Case) -> str:
    return case.error if case.error is not None else f"(glob) {case.error_match}"


def run_python(case: Case, ext: str | None) -> None:
    """Run a case through Python's sqlite3 module; raise CaseFailure on mismatch."""
    conn = sqlite3.connect(":memory:", isolation_level=None)  # autocommit, like the CLI
    try:
        if ext is not None:
            conn.enable_load_extension(True)
            try:
                conn.load_extension(ext)
            except sqlite3.Error as e:
                _fail(case, "python", f"cannot load extension {ext}: {e}")
            conn.enable_load_extension(False)
        run_on_connection(case, conn, "python")
    finally:
        conn.close()


def run_on_connection(case: Case, conn, client: str) -> None:
    """Run a case on an open connection with the extension: anything whose
    execute(sql).fetchall() returns rows of Python values and raises
    sqlite3.Error with SQLite's message (Python's sqlite3, the WebAssembly
    build through test/wasm)."""
    def run(stmt: str, label: str):
        try:
            return conn.execute(stmt).fetchall()
        except sqlite3.Error as e:
            _fail(case, client, f"{label} failed: {e}\nstatement:\n{_indent(stmt)}")

    for stmt in case.setup:
        run(stmt, "setup statement")
    for stmt in case.statements[:-1]:
        run(stmt, "statement before the last")

    last = case.statements[-1]
    try:
        rows = conn.execute(last).fetchall()
        err = None
    except sqlite3.Error as e:
        rows, err = None, str(e)

    if case.expects_error:
        if err is None:
            _fail(case, client, "expected an error, the statement succeeded",
                  _expected_error_text(case), "rows:\n" + format_rows(rows))
        if not _error_matches(case, err):
            _fail(case, client, "wrong error message", _expected_error_text(case), err)
        if not case.then:
            return
        for stmt in case.then[:-1]:
            run(stmt, "'then' statement")
        last = case.then[-1]
        try:
            rows = conn.execute(last).fetchall()
        except sqlite3.Error as e:
            _fail(case, client, f"last 'then' statement failed: {e}")
    elif err is not None:
        _fail(case, client, "unexpected error", _expected_text(case.expect), "error: " + err)

    got = format_rows(rows)
    want = _expected_text(case.expect)
    if got != want:
        _fail(case, client, "rows differ", want, got)


def _quote_dot_arg(arg: str) -> str:
    if "'" in arg:
        return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "'" + arg + "'"


def cli_script(case: Case, ext: str | None) -> str:
    """The CLI input for a case; only the compared rows reach stdout."""
    out = [".mode list", ".separator |", '.nullvalue ""', ".headers off", ".output /dev/null"]
    if ext is not None:
        out.append(".load " + _quote_dot_arg(ext))
    out += list(case.setup) + list(case.statements[:-1])
    out += [".output stdout", ".print " + _MARK]
    if case.expects_error:
        out.append(".output /dev/null")
        if case.then:
            # Keep going after the expected error to inspect the database;
            # "-bail" would exit here.
            out.append(".bail off")
        out.append(case.statements[-1])
        if case.then:
            out += list(case.then[:-1])
            out += [".output stdout", ".print " + _MARK_THEN, case.then[-1]]
    else:
        out.append(case.statements[-1])
    return "\n".join(out) + "\n"


_CLI_REPORT_RE = re.compile(r"^(?:Parse error|Runtime error|Error)(?: near line \d+)?: (.*?)(?: \(\d+\))?$")


def _cli_error_reports(stderr: str) -> list[str]:
    """Messages of the CLI's error lines, e.g. 'Runtime error near line 9: MSG'
    (a trailing ' (19)' extended result code is dropped)."""
    out = []
    for ln in stderr.splitlines():
        m = _CLI_REPORT_RE.match(ln)
        if m:
            out.append(m.group(1))
    return out


def run_cli(case: Case, ext: str | None, cli: str | None = None) -> None:
    """Run a case through `sqlite3 -batch -bail :memory:`; raise CaseFailure on mismatch."""
    cli = cli or default_cli()
    script = cli_script(case, ext)
    try:
        proc = subprocess.run([cli, "-init", "/dev/null", "-batch", "-bail", ":memory:"],
                              input=script, capture_output=True, text=True,
                              encoding="utf-8", errors="replace", timeout=120)
    except FileNotFoundError:
        _fail(case, "cli", f"sqlite3 CLI not found: {cli} (set SQLITE3)")
    out, err, rc = proc.stdout, proc.stderr, proc.returncode

    head = _MARK + "\n"
    if not out.startswith(head):
        _fail(case, "cli", "setup, .load or a statement before the last failed "
              f"(exit code {rc})", None, "stdout:\n" + out + "stderr:\n" + err)
    out = out[len(head):]

    if case.expects_error:
        if rc == 0:
            _fail(case, "cli", "expected an error, exit code was 0",
                  _expected_error_text(case), "stdout:\n" + out + "stderr:\n" + err)
        reports = _cli_error_reports(err)
        if not any(_error_matches(case, msg) for msg in reports):
            _fail(case, "cli", "expected error message not in stderr",
                  _expected_error_text(case), err)
        if not case.then:
            if out:
                _fail(case, "cli", "unexpected output from the failing statement", "", out)
            return
        if len(reports) != 1:
            _fail(case, "cli", "expected exactly one error report in stderr", None, err)
        head = _MARK_THEN + "\n"
        if not out.startswith(head):
            _fail(case, "cli", "'then' statements did not run cleanly", None,
                  "stdout:\n" + out + "stderr:\n" + err)
        out = out[len(head):]
    elif rc != 0 or err:
        _fail(case, "cli", f"unexpected error (exit code {rc})",
              _expected_text(case.expect), "stdout:\n" + out + "stderr:\n" + err)

    want = _expected_text(case.expect)
    if out != want:
        _fail(case, "cli", "rows differ", want, out)


def run_case(case: Case, client: str, ext: str | None = None, cli: str | None = None) -> None:
    if client == "python":
        run_python(case, ext)
    elif client == "cli":
        run_cli(case, ext, cli)
    else:
        raise ValueError(f"unknown client {client!r}")
