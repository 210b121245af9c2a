"""The SQL cases (test/sql) and the documentation's examples through a newer
sqlite3 CLI, with the extension built on the system's headers (TIEBREAK_EXT)
and with the one built on the newer headers (TIEBREAK_EXT_NEW).

Run by run.py, which builds the CLI and sets SQLITE3 and both variables.

Newer shells print a REAL with up to 17 significant digits, where 3.40 prints
15 (``0.38888888888888884`` for ``0.388888888888889``): a row that differs
only so is accepted. Examples printed in box or table mode are only required
to run, since newer shells draw those differently.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import sqlcases  # noqa: E402
import test_docs  # noqa: E402

CLI = os.environ.get("SQLITE3")
EXTS = {"system_headers": os.environ.get("TIEBREAK_EXT"),
        "new_headers": os.environ.get("TIEBREAK_EXT_NEW")}


def same_at_15_digits(got: str, want: str) -> bool:
    got_lines, want_lines = got.splitlines(), want.splitlines()
    if len(got_lines) != len(want_lines):
        return False
    for g, w in zip(got_lines, want_lines):
        gf, wf = g.split("|"), w.split("|")
        if len(gf) != len(wf):
            return False
        for a, b in zip(gf, wf):
            if a == b:
                continue
            try:
                if "." not in a or sqlcases.format_value(float(a)) != b:
                    return False
            except ValueError:
                return False
    return True


def run_case(case, ext):
    try:
        sqlcases.run_cli(case, ext, CLI)
        return
    except sqlcases.CaseFailure as e:
        if case.expects_error or "rows differ" not in str(e):
            raise
        failure = e
    # Compare again, accepting longer REALs.
    proc = subprocess.run([CLI, "-init", "/dev/null", "-batch", "-bail", ":memory:"],
                          input=sqlcases.cli_script(case, ext), capture_output=True,
                          text=True, timeout=120)
    out = proc.stdout.split("\n", 1)[1] if "\n" in proc.stdout else ""
    if proc.returncode != 0 or not same_at_15_digits(out, "".join(r + "\n" for r in case.expect)):
        raise failure


def check_example(ex, ext):
    if ex.shell_version_specific:
        test_docs.check(ex, "cli", ext, CLI, compare=False)
        return
    got = test_docs.run_cli(ex, ext, CLI)
    want = test_docs.normalize(ex.expected)
    if test_docs.normalize(got) != want and not same_at_15_digits(test_docs.normalize(got), want):
        raise AssertionError(f"{ex.id}: output differs\n--- shown\n{want}--- printed\n{got}")


CASES = sqlcases.load_all()
EXAMPLES = [ex for ex in test_docs.all_examples() if ex.lang == "sql"]


@pytest.fixture(scope="module", autouse=True)
def environment():
    if not CLI or not all(EXTS.values()):
        pytest.fail("run through test/newer_sqlite/run.py (SQLITE3, TIEBREAK_EXT, "
                    "TIEBREAK_EXT_NEW unset)", pytrace=False)


def test_cli_is_newer():
    version = subprocess.run([CLI, "-batch", ":memory:", "SELECT sqlite_version()"],
                             capture_output=True, text=True, check=True).stdout.strip()
    system = subprocess.run(["sqlite3", "-batch", ":memory:", "SELECT sqlite_version()"],
                            capture_output=True, text=True).stdout.strip() or "3.40.1"
    as_tuple = lambda v: tuple(int(x) for x in v.split("."))  # noqa: E731
    assert as_tuple(version) > as_tuple(system), (version, system)


@pytest.mark.parametrize("which", sorted(EXTS))
def test_debug_names_the_running_sqlite(which):
    out = subprocess.run([CLI, "-batch", ":memory:", f".load '{EXTS[which]}'",
                          "SELECT sqlite_version(), tiebreak_debug()"],
                         capture_output=True, text=True, check=True).stdout
    version = out.split("|", 1)[0]
    assert version in out.split("|", 1)[1], out


@pytest.mark.parametrize("which", sorted(EXTS))
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_sql_case(case, which):
    try:
        run_case(case, EXTS[which])
        problem = None
    except sqlcases.CaseFailure as e:
        problem = str(e)
    if problem:
        pytest.fail(problem, pytrace=False)


@pytest.mark.parametrize("which", sorted(EXTS))
@pytest.mark.parametrize("ex", EXAMPLES, ids=[ex.id for ex in EXAMPLES])
def test_doc_example(ex, which):
    try:
        check_example(ex, EXTS[which])
        problem = None
    except AssertionError as e:
        problem = str(e)
    if problem:
        pytest.fail(problem, pytrace=False)


def test_tolerance_is_narrow():
    assert same_at_15_digits("1|0.38888888888888884|x\n", "1|0.388888888888889|x\n")
    assert not same_at_15_digits("1|0.3888888888888|x\n", "1|0.388888888888889|x\n")
    assert not same_at_15_digits("2|0.5\n", "1|0.5\n")
