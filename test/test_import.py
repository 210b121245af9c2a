"""The CSV recipes of sql/import/ (docs/import.md) through the sqlite3 shell:
each export shape of the example event, imported with .import and inserted
with sql/import/insert.sql, gives exactly the standings of event 1; broken
files are reported by import_problems. Also the adapter views of
sql/views.sql, which read such shapes in place.
"""
import subprocess

import pytest

import sqlcases

REPO = sqlcases.REPO
EXT = sqlcases.default_ext()
SHAPES = {  # staging table: the example file in that shape
    "import_matches": "sql/import/example_matches.csv",
    "import_results": "sql/import/example_results.csv",
    "import_player_rows": "sql/import/example_player_rows.csv",
}


def shell(*commands, database=":memory:"):
    """Run the sqlite3 shell in the repository directory with the extension,
    schema and example event loaded; return stdout (fails on any error)."""
    args = [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", database,
            f".load '{EXT}'", ".read sql/schema.sql", ".read sql/example.sql", *commands]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    return proc.stdout


def differing_rows(event):
    """Rows of standings(event) and standings(1) not in the other one."""
    return (f"SELECT count(*) FROM (SELECT * FROM standings(1, 'mtg') EXCEPT "
            f"SELECT * FROM standings({event}, 'mtg')) UNION ALL "
            f"SELECT count(*) FROM (SELECT * FROM standings({event}, 'mtg') EXCEPT "
            f"SELECT * FROM standings(1, 'mtg'))")


@pytest.mark.parametrize("table", sorted(SHAPES))
def test_each_shape_gives_the_example_standings(table):
    out = shell(".read sql/import/staging.sql",
                f".import --csv --skip 1 --schema temp {SHAPES[table]} {table}",
                "SELECT 'problems', count(*) FROM import_problems",
                ".parameter set $event 101",
                ".read sql/import/insert.sql",
                "SELECT 'rows', count(*) FROM matches WHERE event_id = 101",
                "SELECT 'staged', count(*) FROM temp.import_all",
                differing_rows(101))
    assert out == "problems|0\nrows|59\nstaged|0\n0\n0\n"


def test_rounds_from_separate_files(tmp_path):
    """A file per round, imported one after the other into one event."""
    lines = (REPO / SHAPES["import_matches"]).read_text().splitlines()
    commands = [".read sql/import/staging.sql"]
    for rnd in range(1, 6):
        f = tmp_path / f"round{rnd}.csv"
        f.write_text("\n".join([lines[0]] + [ln for ln in lines[1:]
                                             if ln.startswith(f"{rnd},")]) + "\n")
        commands.append(f".import --csv --skip 1 --schema temp '{f}' import_matches")
    out = shell(*commands, ".parameter set $event 7", ".read sql/import/insert.sql",
                differing_rows(7))
    assert out == "0\n0\n"


def test_problems_are_listed(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("Round,Table,Player,Opponent,Record\n"
                    "1,1,Ann,Bob,2-1-0\n"
                    "1,1,Bob,Ann,2-1-0\n"      # both claim the win
                    "1,2,Cat,Dan,2:0\n"        # not W-L-D
                    "1,2,Dan,Cat,0-2-0\n"
                    "1,3,Eve,Fay,2-0\n")       # Fay has no row
    matches = tmp_path / "matches.csv"
    matches.write_text("Round,Table,Player 1,Player 2,P1,P2,Draws\n1,1,Gus,Hal,two,0,0\n")
    out = shell(".read sql/import/staging.sql",
                f".import --csv --skip 1 --schema temp '{rows}' import_player_rows",
                f".import --csv --skip 1 --schema temp '{matches}' import_matches",
                "SELECT staging, round, player, problem FROM import_problems "
                "ORDER BY staging, player, problem")
    assert out.splitlines() == [
        "import_matches|1|Gus|score is not numbers: 'two', 0, 0",
        "import_player_rows|1|Ann|records disagree: 2-1-0 against Bob 2-1-0",
        "import_player_rows|1|Cat|record is not W-L-D: '2:0'",
        "import_player_rows|1|Eve|no row of the opponent Fay",
    ]


def test_nothing_inserted_without_event():
    out = shell(".read sql/import/staging.sql",
                f".import --csv --skip 1 --schema temp {SHAPES['import_matches']} import_matches",
                ".read sql/import/insert.sql",
                "SELECT count(*) FROM matches", "SELECT count(*) FROM temp.import_all")
    assert out == "59\n59\n"


def test_database_file_unchanged_by_staging(tmp_path):
    db = tmp_path / "events.db"
    shell(".read sql/import/staging.sql",
          f".import --csv --skip 1 --schema temp {SHAPES['import_results']} import_results",
          database=str(db))
    out = subprocess.run([sqlcases.default_cli(), "-batch", str(db),
                          "SELECT group_concat(name) FROM sqlite_schema WHERE name LIKE 'import%'"],
                         capture_output=True, text=True, check=True).stdout
    assert out == "\n"


def test_adapter_views_give_the_example_standings():
    """sql/views.sql ends each adapter with a check that prints 0 differing rows."""
    out = shell(".headers on", ".read sql/views.sql").splitlines()
    checks = [out[i + 1] for i, ln in enumerate(out) if ln == "differing_rows"]
    assert checks == ["0", "0", "0"], out
