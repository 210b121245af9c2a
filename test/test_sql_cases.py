"""Runs every case of test/sql/*.sql through Python's sqlite3 and the sqlite3
CLI, plus self-checks showing the runner rejects bad files and wrong results.

Run with Debian's interpreter (the only one here that can load extensions):
    /usr/bin/python3 -m pytest test/test_sql_cases.py -q
"""

import pytest

import sqlcases

CASES = sqlcases.load_all()
EXT = sqlcases.default_ext()


@pytest.mark.parametrize(
    "case,client",
    [(c, cl) for c in CASES for cl in sqlcases.CLIENTS],
    ids=[f"{c.id}[{cl}]" for c in CASES for cl in sqlcases.CLIENTS],
)
def test_sql_case(case, client):
    if not sqlcases.ext_exists(EXT):
        pytest.fail(f"extension not built: {EXT} (cmake -S . -B build && cmake --build build)",
                    pytrace=False)
    try:
        sqlcases.run_case(case, client, EXT)
        problem = None
    except sqlcases.CaseFailure as e:
        problem = str(e)
    if problem:  # failed outside the except block: no chained traceback noise
        pytest.fail(problem, pytrace=False)


# ------------------------------------------------------------ self-checks
# These use no extension, so they also guard the runner before a build.

def test_case_files_present():
    files = {c.file for c in CASES}
    assert {"mtr_examples.sql", "events.sql", "errors.sql", "api.sql"} <= files
    for f in files:
        assert sum(c.file == f for c in CASES) >= 3, f


MALFORMED = {
    "no_cases": "CREATE TABLE t(x);\n",
    "no_expectation": "-- case: a\nSELECT 1;\n",
    "no_expectation_mid_file": "-- case: a\nSELECT 1;\n-- case: b\nSELECT 1;\n-- expect:\n-- 1\n",
    "no_sql": "-- case: a\n-- expect:\n-- 1\n",
    "duplicate_name": "-- case: a\nSELECT 1;\n-- expect:\n-- 1\n-- case: a\nSELECT 1;\n-- expect:\n-- 1\n",
    "bad_name": "-- case: a b\nSELECT 1;\n-- expect:\n-- 1\n",
    "error_and_expect": "-- case: a\nSELECT 1;\n-- error: x\n-- expect:\n-- 1\n",
    "empty_error": "-- case: a\nSELECT 1;\n-- error:\n",
    "sql_after_expect": "-- case: a\nSELECT 1;\n-- expect:\n-- 1\nSELECT 2;\n",
    "sql_after_error": "-- case: a\nSELECT 1;\n-- error: x\nSELECT 2;\n",
    "missing_semicolon": "-- case: a\nSELECT 1\n-- expect:\n-- 1\n",
    "typo_directive": "-- case: a\nSELECT 1;\n-- Expect:\n-- 1\n",
    "directive_without_space": "-- case: a\nSELECT 1;\n--expect:\n-- 1\n",
    "row_without_space": "-- case: a\nSELECT 1;\n-- expect:\n--1\n",
    "expect_in_setup": "-- expect:\n-- 1\n-- case: a\nSELECT 1;\n-- expect:\n-- 1\n",
    "then_without_error": "-- case: a\nSELECT 1;\n-- then:\nSELECT 1;\n-- expect:\n-- 1\n",
    "then_without_expect": "-- case: a\nSELECT x;\n-- error: no such column: x\n-- then:\nSELECT 1;\n",
    "error_inside_expect": "-- case: a\nSELECT 1;\n-- expect:\n-- 1\n-- error: x\n",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_case_file_rejected(name):
    with pytest.raises(sqlcases.CaseFileError):
        sqlcases.parse_text(MALFORMED[name], f"{name}.sql")


SELF = """\
CREATE TABLE t(id INTEGER, name TEXT, score REAL);
INSERT INTO t VALUES (1, 'a', 2.0), (2, 'b', NULL), (3, 'c|d', 0.125);

-- case: right_rows
SELECT id, name, score FROM t ORDER BY id;
-- expect:
-- 1|a|2.0
-- 2|b|
-- 3|c|d|0.125

-- case: right_rows_last_statement_only
SELECT 42;
DELETE FROM t WHERE id = 2;
SELECT count(*) FROM t;
-- expect:
-- 2

-- case: right_no_rows
SELECT * FROM t WHERE id > 10;
-- expect:

-- case: right_error
SELECT nosuch FROM t;
-- error: no such column: nosuch

-- case: right_error_glob
SELECT nosuch FROM t;
-- error-match: no such column: *

-- case: right_then
INSERT INTO t VALUES (4, 'x', 1.0);
INSERT INTO t VALUES (5, 'y', 1.0, 'too many');
-- error: table t has 3 columns but 4 values were supplied
-- then:
SELECT count(*) FROM t;
-- expect:
-- 4

-- case: wrong_value
SELECT id FROM t WHERE id = 1;
-- expect:
-- 2

-- case: wrong_real_format
SELECT score FROM t WHERE id = 1;
-- expect:
-- 2

-- case: wrong_null_vs_text
SELECT score FROM t WHERE id = 2;
-- expect:
-- NULL

-- case: wrong_row_count
SELECT id FROM t ORDER BY id;
-- expect:
-- 1
-- 2

-- case: wrong_no_rows
SELECT id FROM t WHERE id = 1;
-- expect:

-- case: wrong_error_text
SELECT nosuch FROM t;
-- error: no such column: other

-- case: wrong_error_text_prefix_only
SELECT nosuch FROM t;
-- error: no such column

-- case: wrong_error_not_raised
SELECT 1;
-- error: no such column: nosuch

-- case: wrong_unexpected_error
SELECT nosuch FROM t;
-- expect:
-- 1

-- case: wrong_error_in_earlier_statement
SELECT nosuch FROM t;
SELECT nosuch2 FROM t;
-- error: no such column: nosuch

-- case: wrong_then_rows
INSERT INTO t VALUES (5, 'y', 1.0, 'too many');
-- error: table t has 3 columns but 4 values were supplied
-- then:
SELECT count(*) FROM t;
-- expect:
-- 4

-- case: wrong_then_error
INSERT INTO t VALUES (5, 'y', 1.0, 'too many');
-- error: table t has 3 columns but 4 values were supplied
-- then:
SELECT nosuch FROM t;
SELECT count(*) FROM t;
-- expect:
-- 3
"""
SELF_CASES = {c.name: c for c in sqlcases.parse_text(SELF, "self.sql")}


@pytest.mark.parametrize("client", sqlcases.CLIENTS)
@pytest.mark.parametrize("name", sorted(n for n in SELF_CASES if n.startswith("right_")))
def test_runner_accepts_right_expectation(name, client):
    sqlcases.run_case(SELF_CASES[name], client, ext=None)


@pytest.mark.parametrize("client", sqlcases.CLIENTS)
@pytest.mark.parametrize("name", sorted(n for n in SELF_CASES if n.startswith("wrong_")))
def test_runner_rejects_wrong_expectation(name, client):
    with pytest.raises(sqlcases.CaseFailure):
        sqlcases.run_case(SELF_CASES[name], client, ext=None)


def test_runner_rejects_missing_extension(tmp_path):
    case = SELF_CASES["right_rows"]
    for client in sqlcases.CLIENTS:
        with pytest.raises(sqlcases.CaseFailure):
            sqlcases.run_case(case, client, ext=str(tmp_path / "nosuch_ext"))


@pytest.mark.parametrize("value,text", [
    (None, ""), (3, "3"), (-7, "-7"), ("x|y", "x|y"), (2.0, "2.0"), (0.5, "0.5"),
    (1 / 3, "0.333333333333333"), (1e15, "1.0e+15"), (1.5e-7, "1.5e-07"),
    (-0.0, "0.0"), (float("inf"), "Inf"), (round(2 / 3, 6), "0.666667"),
])
def test_format_value_like_cli(value, text):
    assert sqlcases.format_value(value) == text


@pytest.mark.parametrize("expr", [
    "2.0", "0.1", "1.0/3", "1e15", "1.5e-7", "-0.0 * 1", "123456789012345678.0",
    "round(0.6164, 2)", "round(2.0/3, 6)", "1e300*1e300", "NULL", "''", "-5",
])
def test_format_matches_cli(expr):
    """The Python side prints values exactly as the CLI does."""
    case = sqlcases.Case(file="fmt.sql", name="fmt", line=1, setup=(),
                         statements=(f"SELECT {expr};",), expect=None)
    import sqlite3
    import subprocess
    (value,) = sqlite3.connect(":memory:").execute(f"SELECT {expr}").fetchone()
    out = subprocess.run([sqlcases.default_cli(), "-init", "/dev/null", "-batch", ":memory:"],
                         input=sqlcases.cli_script(case, None), capture_output=True,
                         text=True, check=True).stdout
    assert out.split("\n", 1)[1] == sqlcases.format_value(value) + "\n"
