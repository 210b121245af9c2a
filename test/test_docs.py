"""Runs the examples of README.md and docs/*.md and compares what they print
with the output shown under them.

An example is a fenced ```sql block followed directly (blank lines only in
between) by a ```text block:

    ```sql
    SELECT rank, player FROM standings(1, 'mtg') LIMIT 2;
    ```
    ```text
    1|Hugo
    2|Cleo
    ```

It runs on a fresh in-memory database with the extension loaded and
sql/schema.sql + sql/example.sql read, in the repository directory. The text
is everything the statements print, as the sqlite3 shell prints it in its
default list mode; a statement that fails prints ``Error: MESSAGE`` and ends
the example. A ```python block followed by a ```text block is run the same
way with its stdout compared; it finds the example database as ``fnm.db``,
the extension as ``./build/tiebreak`` and the repository's ``sql/`` folder.

    <!-- example-setup: sql/schema.sql sql/example_large.sql -->

on a line before the sql block reads other files instead (``none``: nothing).
A block holding sqlite3 shell dot-commands (``.mode box``, ``.import``) runs
in the shell only; one with its own ``.load`` starts from an empty database.
sql blocks without an output block are illustrations and are not run, but
none may carry outputs in comments (``-- 1|Hugo|13``): shown output must be
checked output.

Environment: TIEBREAK_EXT, SQLITE3 as for sqlcases.py.
"""
from __future__ import annotations

import dataclasses
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sqlcases  # noqa: E402

REPO = sqlcases.REPO
DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
DEFAULT_SETUP = ("sql/schema.sql", "sql/example.sql")

_FENCE_RE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
_SETUP_RE = re.compile(r"^<!--\s*example-setup:\s*(.*?)\s*-->\s*$")
_LOAD_RE = re.compile(r"^\.load\s+(\S*tiebreak\S*)(\s+\S+)?\s*$", re.M)
# Commands whose output (box drawing, column widths) differs between shell
# versions, seen in the code or in the shown output (a .read script): such
# examples are compared with the system's shell only.
_VERSIONED_MODE_RE = re.compile(r"^\.mode\s+(box|table|column|markdown)\b", re.M)
# A comment in an sql block that shows a result row, e.g. "-- 1|Hugo|13".
_ROW_COMMENT_RE = re.compile(r"^\s*--\s+[^\s|]*\|")


@dataclasses.dataclass(frozen=True)
class Example:
    file: str          # path relative to the repository
    line: int          # line of the opening fence of the code block
    lang: str          # "sql" or "python"
    code: str
    expected: str
    setup: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def shell_only(self) -> bool:
        return self.lang == "sql" and any(
            ln.lstrip().startswith(".") for ln in self.code.splitlines())

    @property
    def loads_itself(self) -> bool:
        return bool(_LOAD_RE.search(self.code))

    @property
    def shell_version_specific(self) -> bool:
        return bool(_VERSIONED_MODE_RE.search(self.code)) or any(
            c in self.expected for c in "┌╭")


@dataclasses.dataclass(frozen=True)
class Block:
    line: int
    lang: str
    text: str
    setup: tuple[str, ...] | None  # from an example-setup comment above it
    end: int                       # line of the closing fence


def blocks(text: str) -> list[Block]:
    out, lines, i, setup = [], text.splitlines(), 0, None
    while i < len(lines):
        m = _SETUP_RE.match(lines[i])
        if m:
            words = m.group(1).split()
            setup = () if words == ["none"] else tuple(words)
            i += 1
            continue
        m = _FENCE_RE.match(lines[i])
        if not m:
            if lines[i].strip() and not lines[i].startswith("<!--"):
                setup = None  # prose between the comment and the block
            i += 1
            continue
        fence, lang, start = m.group(1), m.group(2), i
        i += 1
        body = []
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        out.append(Block(start + 1, lang, "\n".join(body) + "\n", setup, i + 1))
        setup = None
        i += 1
    return out


def examples_in(path: Path) -> list[Example]:
    return examples_in_text(path.read_text(encoding="utf-8"), str(path.relative_to(REPO)))


def examples_in_text(text: str, name: str) -> list[Example]:
    lines = text.splitlines()
    found = []
    bl = blocks(text)
    for a, b in zip(bl, bl[1:]):
        between = lines[a.end:b.line - 1]
        if a.lang in ("sql", "python") and b.lang == "text" and not any(s.strip() for s in between):
            found.append(Example(name, a.line, a.lang, a.text, b.text,
                                 a.setup if a.setup is not None else DEFAULT_SETUP))
    return found


def all_examples() -> list[Example]:
    return [ex for path in DOC_FILES for ex in examples_in(path)]


def normalize(text: str) -> str:
    return "\n".join(ln.rstrip() for ln in text.rstrip("\n").splitlines()) + "\n"


# ---------------------------------------------------------------- runners

def run_python_sql(ex: Example, ext: str) -> str:
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.enable_load_extension(True)
        conn.load_extension(ext)
        conn.enable_load_extension(False)
        for f in ex.setup:
            conn.executescript((REPO / f).read_text(encoding="utf-8"))
        out = []
        for stmt in sqlcases.split_statements(ex.code, ex.id):
            try:
                out.append(sqlcases.format_rows(conn.execute(stmt).fetchall()))
            except sqlite3.Error as e:
                out.append(f"Error: {e}\n")
                break
        return "".join(out)
    finally:
        conn.close()


def _dot_arg(path: str) -> str:
    return "'" + path + "'" if "'" not in path else '"' + path + '"'


def cli_script(ex: Example, ext: str) -> str:
    code = _LOAD_RE.sub(lambda m: ".load " + _dot_arg(ext) + (m.group(2) or ""), ex.code)
    if ex.loads_itself:
        return code
    head = [".output /dev/null", ".load " + _dot_arg(ext)]
    head += [".read " + _dot_arg(str(REPO / f)) for f in ex.setup]
    head.append(".output stdout")
    return "\n".join(head) + "\n" + code


def run_cli(ex: Example, ext: str, cli: str) -> str:
    proc = subprocess.run([cli, "-init", "/dev/null", "-batch", "-bail", ":memory:"],
                          input=cli_script(ex, ext), capture_output=True, text=True,
                          encoding="utf-8", errors="replace", cwd=REPO, timeout=120)
    out = proc.stdout
    if proc.returncode != 0 or proc.stderr:
        reports = sqlcases._cli_error_reports(proc.stderr)
        out += f"Error: {reports[0]}\n" if reports else proc.stderr
    return out


def run_python_code(ex: Example, ext: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        conn = sqlite3.connect(os.path.join(tmp, "fnm.db"))
        for f in ex.setup:
            conn.executescript((REPO / f).read_text(encoding="utf-8"))
        conn.close()
        os.symlink(REPO / "sql", os.path.join(tmp, "sql"))
        code = ex.code.replace("./build/tiebreak", ext)
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              cwd=tmp, timeout=120)
        return proc.stdout + proc.stderr


def check(ex: Example, client: str, ext: str, cli: str | None = None,
          compare: bool = True) -> None:
    """Run one example; raise AssertionError with a readable diff on mismatch.
    compare=False only requires that it runs without error."""
    if client == "python":
        got = run_python_code(ex, ext) if ex.lang == "python" else run_python_sql(ex, ext)
    else:
        got = run_cli(ex, ext, cli or sqlcases.default_cli())
    if not compare:
        if "Error: " in got and "Error: " not in ex.expected:
            raise AssertionError(f"{ex.id} [{client}]: failed:\n{got}")
        return
    if normalize(got) != normalize(ex.expected):
        raise AssertionError(f"{ex.id} [{client}]: output differs\n"
                             f"--- shown in {ex.file}\n{normalize(ex.expected)}"
                             f"--- printed\n{normalize(got)}")


def clients(ex: Example) -> list[str]:
    if ex.lang == "python" or not ex.shell_only:
        return ["python", "cli"] if ex.lang == "sql" else ["python"]
    return ["cli"]


# ---------------------------------------------------------------- tests

EXAMPLES = all_examples()
EXT = sqlcases.default_ext()


@pytest.mark.parametrize(
    "ex,client",
    [(ex, c) for ex in EXAMPLES for c in clients(ex)],
    ids=[f"{ex.id}[{c}]" for ex in EXAMPLES for c in clients(ex)])
def test_example(ex, client):
    if not sqlcases.ext_exists(EXT):
        pytest.fail(f"extension not built: {EXT}", pytrace=False)
    try:
        check(ex, client, EXT)
        problem = None
    except AssertionError as e:
        problem = str(e)
    if problem:
        pytest.fail(problem, pytrace=False)


def test_every_page_has_checked_examples():
    pages = {ex.file for ex in EXAMPLES}
    for path in DOC_FILES:
        rel = str(path.relative_to(REPO))
        if "```sql" in path.read_text(encoding="utf-8"):
            assert rel in pages, f"{rel} has sql blocks but no checked example"


@pytest.mark.parametrize("path", DOC_FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_unchecked_output(path):
    """Results written as comments in an sql block would go stale unnoticed."""
    bad = []
    for b in blocks(path.read_text(encoding="utf-8")):
        if b.lang != "sql":
            continue
        for k, ln in enumerate(b.text.splitlines(), b.line + 1):
            if _ROW_COMMENT_RE.match(ln):
                bad.append(f"{path.name}:{k}: {ln.strip()}")
    assert not bad, "move these outputs into a ```text block:\n" + "\n".join(bad)


# The README's opening shows one statement per kind of source without output
# (a first screen); each must still run and give rows, ?1 bound to the text of
# a file of the reader it names.
MELEE_SAMPLE = ('{"Tournament": {"Date": "2025-03-01"}, "Rounds": [{"RoundName": "Round 1", '
                '"Matches": [{"Player1": "Ann", "Player2": "Bob", "Result": "2-1-0"}]}], '
                '"Standings": [{"Rank": 1, "Player": "Ann"}, {"Rank": 2, "Player": "Bob"}]}')
OPENING_FILES = {"melee_": MELEE_SAMPLE,
                 "tom_": (REPO / "sql" / "example.tdf").read_text(encoding="utf-8"),
                 "trf_": (REPO / "sql" / "example.trf").read_text(encoding="utf-8")}


def test_readme_opening_statements_run():
    if not sqlcases.ext_exists(EXT):
        pytest.fail(f"extension not built: {EXT}", pytrace=False)
    first = next(b for b in blocks((REPO / "README.md").read_text(encoding="utf-8"))
                 if b.lang == "sql")
    statements = sqlcases.split_statements(first.text, "README.md")
    readers = [next((k for k in OPENING_FILES if k in stmt), None) for stmt in statements]
    assert sorted(filter(None, readers)) == sorted(OPENING_FILES) and None in readers
    conn = sqlite3.connect(":memory:")
    try:
        conn.enable_load_extension(True)
        conn.load_extension(EXT)
        for f in DEFAULT_SETUP:
            conn.executescript((REPO / f).read_text(encoding="utf-8"))
        for stmt, reader in zip(statements, readers):
            args = (OPENING_FILES[reader],) if reader else ()
            assert conn.execute(stmt, args).fetchall(), stmt
        # the family table's count of tiebreakers is the loaded build's
        shown = re.search(r"any order of the (\d+) tiebreakers",
                          (REPO / "README.md").read_text(encoding="utf-8"))
        assert shown and int(shown.group(1)) == conn.execute(
            "SELECT count(*) FROM tiebreakers").fetchone()[0]
    finally:
        conn.close()


def test_setup_files_exist():
    for ex in EXAMPLES:
        for f in ex.setup:
            assert (REPO / f).is_file(), f"{ex.id}: example-setup names missing {f}"


# Self-checks of the extraction, independent of the extension.

SAMPLE = """\
Intro.

```sql
SELECT 1;
```

```text
1
```

<!-- example-setup: none -->
```sql
SELECT 2;
```
```text
2
```

```sql
SELECT 3;  -- illustration: no output block
```

Text between.

```text
not an output: prose came between
```
"""


def test_extraction():
    exs = examples_in_text(SAMPLE, "sample.md")
    assert [(e.line, e.code, e.expected, e.setup) for e in exs] == [
        (3, "SELECT 1;\n", "1\n", DEFAULT_SETUP),
        (12, "SELECT 2;\n", "2\n", ()),
    ]


def test_wrong_output_is_reported():
    ex = Example("x.md", 1, "sql", "SELECT 1 + 1;\n", "3\n", ())
    for client in ("python", "cli"):
        with pytest.raises(AssertionError):
            check(ex, client, EXT)


def test_error_form_same_in_both_clients():
    ex = Example("x.md", 1, "sql", "SELECT 1;\nSELECT * FROM nosuch;\nSELECT 2;\n",
                 "1\nError: no such table: nosuch\n", ())
    for client in ("python", "cli"):
        check(ex, client, EXT)
