"""sql/reports.sql and the bundled large example (sql/example_large.sql).

Exact outputs of the reports on the small example are in docs/reports.md,
checked by test_docs.py; here the reports on the 116-player event are
checked against standings() itself, and the example file against its
generator.
"""
import re
import subprocess
import sys

import pytest

import sqlcases
from conftest import open_connection

REPO = sqlcases.REPO
EXT = sqlcases.default_ext()
BOX_ROW = re.compile(r"^│(.*)│$")


def reports(*params, example="sql/example_large.sql"):
    args = [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", ":memory:",
            f".load '{EXT}'", ".read sql/schema.sql", f".read {example}",
            *(f".parameter set {p}" for p in params), ".read sql/reports.sql"]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    return proc.stdout


def sections(out):
    """{title: [row cells]} of the box tables, titled by the line before each."""
    result, title, lines = {}, None, out.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("┌"):
            title = lines[i - 1]
            result[title] = []
        m = BOX_ROW.match(ln)
        if m and title and not lines[i + 1].startswith("├"):  # skip the header row
            result[title].append([c.strip() for c in m.group(1).split("│")])
    return result


@pytest.fixture(scope="module")
def large():
    conn = open_connection()
    for f in ("schema.sql", "example_large.sql"):
        conn.executescript((REPO / "sql" / f).read_text())
    yield conn
    conn.close()


def test_example_large_is_the_generators_output():
    out = subprocess.run([sys.executable, str(REPO / "sql" / "gen_example_large.py")],
                         capture_output=True, text=True, check=True).stdout
    assert out == (REPO / "sql" / "example_large.sql").read_text(), \
        "regenerate: sql/gen_example_large.py > sql/example_large.sql"


def test_example_large_is_a_realistic_event(large):
    (players, rounds, byes, ids, unfinished, dropped) = large.execute("""
        SELECT (SELECT count(*) FROM standings(2, 'mtg')), max(round),
               sum(player_b IS NULL), sum(draws = 3 AND a_wins + b_wins = 0),
               sum(draws = 1), (SELECT sum(dropped) FROM standings(2, 'mtg'))
        FROM matches WHERE event_id = 2""").fetchone()
    assert players >= 100 and rounds == 8
    assert byes and ids and unfinished and dropped


def test_all_reports(large):
    got = sections(reports())
    assert list(got) == ["Standings", "Top 8 cut", "Why is one player above the other",
                         "Rank after each round (Top 8)", "Players by name",
                         f"Matches of {got['Standings'][0][1]}"]
    want = large.execute("""
        SELECT rank, player, match_points, wins || '-' || losses || '-' || draws,
               printf('%.2f%%', 100 * omwp), printf('%.2f%%', 100 * gwp),
               printf('%.2f%%', 100 * ogwp), iif(dropped, 'dropped', '')
        FROM standings(2, 'mtg') ORDER BY rank, player""").fetchall()
    assert got["Standings"] == [[str(v) for v in row] for row in want]
    top = large.execute("SELECT player FROM standings(2, 'mtg') WHERE dropped = 0 "
                        "ORDER BY rank, player LIMIT 9").fetchall()
    cut = got["Top 8 cut"]
    assert [r[0] for r in cut] == ["1", "2", "3", "4", "5", "6", "7", "8", "out"]
    assert [r[1] for r in cut] == [p for (p,) in top]
    (why,) = got["Why is one player above the other"]
    assert why[0].startswith(top[7][0] + " (") and why[1].startswith(top[8][0] + " (")
    assert len(got["Players by name"]) == len(want)
    assert len(got[f"Matches of {top[0][0]}"]) == 8


def test_report_selection_and_parameters(large):
    out = reports("$report why", "$a 'Lena Haas'", "$b 'Nadia Haas'")
    assert list(sections(out)) == ["Why is one player above the other"]
    (row,) = sections(out)["Why is one player above the other"]
    a, b = large.execute("SELECT printf('%.2f%%', 100 * gwp) FROM standings(2, 'mtg') "
                         "WHERE player IN ('Lena Haas', 'Nadia Haas') ORDER BY rank").fetchall()
    assert row[2:4] == ["GW%", f"{a[0]} vs {b[0]}"]

    out = reports("$report player,top8", "$player 'Ben Haas'", "$round 4")
    assert list(sections(out)) == ["Top 8 cut", "Matches of Ben Haas"]
    assert out.startswith("Event 2: 116 players, standings after round 4 (policy mtg)\n")
    assert [r[0] for r in sections(out)["Matches of Ben Haas"]] == ["1", "2", "3", "4"]


def test_demo_command():
    """What `cmake --build build --target demo` runs (CMakeLists.txt)."""
    out = reports("$report standings,top8,why,progress,player")
    assert out.startswith("Event 2: 116 players, standings after round 8 (policy mtg)\n")
    assert "Players by name" not in out and "Top 8 cut" in out


def test_pokemon_reports_print_pokemons_columns(large):
    got = sections(reports("$policy pokemon", "$report standings,top8,why"))
    want = large.execute("""
        SELECT rank, player, wins || '-' || losses || '-' || draws, match_points,
               printf('%.2f%%', 100 * owp), printf('%.2f%%', 100 * oowp),
               iif(dropped, 'Dropped', '')
        FROM standings(2, 'pokemon') ORDER BY rank, player""").fetchall()
    assert got["Standings"] == [[str(v) for v in row] for row in want]
    labels = {row[-1] for row in got["Top 8 cut"]}
    assert labels <= {"Points", "OWP", "OOWP", "Head-to-head", "tied", ""}
    assert "OWP" in labels or "OOWP" in labels
    assert got["Why is one player above the other"][0][2] in {"Points", "OWP", "OOWP",
                                                              "Head-to-head"}


def test_crosstable_lines_up_names_of_any_script(tmp_path):
    """sql/crosstable.sql pads the name by characters: a name with letters
    outside ASCII (two bytes each in UTF-8) must not shift the columns after
    it.  Every line's rating column starts at the same character."""
    text = "\n".join([
        "001    1 m    Müller, Jörg                      2100 GER"
        + " " * 25 + "1.0    1     2 w 1",
        "001    2 m    Adams, Ann                        1900 ENG"
        + " " * 25 + "0.0    2     1 b 0",
        "001    3 m    Ødegård, Åse                      1800 NOR"
        + " " * 25 + "0.0    3     0 - Z"]) + "\n"
    trf = tmp_path / "u.trf"
    trf.write_text(text, encoding="utf-8")
    args = [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", ":memory:",
            f".load '{EXT}'",
            "CREATE TEMP VIEW matches AS SELECT 'u' AS event_id, * FROM "
            f"trf_matches(readfile('{trf}'));",
            "CREATE TEMP TABLE players AS SELECT 'u' AS event_id, player, name, rating "
            f"FROM trf_players(readfile('{trf}'));",
            ".read sql/crosstable.sql"]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    lines = proc.stdout.split("\nCrosstable\n", 1)[1].splitlines()
    assert len(lines) == 4 and "Müller, Jörg" in proc.stdout and "Ødegård, Åse" in proc.stdout
    # the ratings end where the header's "Rtg" ends, on every line
    ends = {lines[0].index("Rtg") + 3}
    ends |= {ln.index(r) + 4 for ln, r in zip(lines[1:], ("2100", "1900", "1800"))}
    assert len(ends) == 1, proc.stdout
