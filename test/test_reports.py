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


# ------------------------------------------------------------- files ($file)
#
# The reports on the example files of sql/, read by the file readers. The
# values below are checked by hand from the files (comments give the sums).

def file_reports(path, *params):
    args = [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", ":memory:",
            f".load '{EXT}'", f".parameter set $file {path}",
            *(f".parameter set {p}" for p in params), ".read sql/reports.sql"]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    return proc.stdout


def headers(out):
    """{title: header cells} of the box tables."""
    result, lines = {}, out.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("┌"):
            result[lines[i - 1]] = [c.strip() for c in lines[i + 1][1:-1].split("│")]
    return result


@pytest.mark.parametrize("source, last", [
    ("$policy mtg", "Dropped"), ("$policy pokemon", "Dropped"),
    ("$file sql/example.trf", "DE")])
def test_every_column_is_named(source, last):
    """Each family's reports, all of them: no header cell is blank (Magic's
    dropped mark is under "Dropped", as Pokemon's is; chess marks none)."""
    out = reports(source, "$report standings,top8,why,progress,alphabetical,player")
    got = headers(out)
    assert len(got) >= 4, out
    for title, cells in got.items():
        assert all(cells), (title, cells)
    assert got["Standings"][-1] == last
    assert got["Players by name"][-1] == "Dropped"


def test_a_dropped_player_is_marked_alike_in_every_report_of_a_tom_file():
    """Dev Quill dropped from the Masters of the League Cup: Pokemon's mark,
    "Dropped" as RK9 prints it, in the standings and in the list by name."""
    out = subprocess.run(
        [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", ":memory:",
         f".load '{EXT}'", f".parameter set $file {TOP_CUT}",
         ".parameter set $report standings,alphabetical", ".read sql/reports.sql"],
        capture_output=True, text=True, cwd=REPO, timeout=120, check=True).stdout
    got = sections(out)
    marks = {title: [(row[1 if title.startswith("Standings") else 0], row[-1])
                     for row in rows if row[-1]] for title, rows in got.items()}
    assert marks == {"Standings: Juniors": [], "Standings: Seniors": [],
                     "Standings: Masters": [("Dev Quill", "Dropped")],
                     "Players by name: Juniors": [], "Players by name: Seniors": [],
                     "Players by name: Masters": [("Dev Quill", "Dropped")]}


TOP_CUT = "sql/example_top_cut.tdf"


def test_tom_file_names_divisions_and_the_playoff():
    """Ten players of three age divisions in one pod, three Swiss rounds,
    then a Top 4 of the Masters (Ben Oakes, 4th, beats Cara Pike, 1st, and
    Ada Moss in the final) and a Top 2 of the Seniors (Hana O'Dell beats Gus
    Trent); the Juniors have no cut (the file's <finalsoptions>), so no cut
    reports for them."""
    out = file_reports(TOP_CUT)
    assert out.startswith(f"{TOP_CUT}: 10 players in 3 divisions, standings after 3 Swiss "
                          "rounds and 2 playoff rounds (policy pokemon)\n")
    got = sections(out)
    assert list(got) == [
        "Standings: Juniors", "Standings: Seniors", "Standings: Masters",
        "Top 2 cut: Seniors", "Top 4 cut: Masters",
        "Why is one player above the other: Juniors",
        "Why is one player above the other: Seniors",
        "Why is one player above the other: Masters",
        "Rank after each round (Top 2): Seniors",
        "Rank after each round (Top 4): Masters",
        "Players by name: Juniors", "Players by name: Seniors", "Players by name: Masters",
        "Matches of Zoë Wells"]
    # names, never the POP ids (2000001 ...); no game column anywhere: TOM records none
    assert "200000" not in out
    assert not any("Games" in h or "GW%" in h for h in map(" ".join, headers(out).values()))
    # final places are the playoff's, Swiss the place before the cut; Swiss values:
    # Ben 1-0-2 (a tie with Cara, a win over Fay, a tie with Ivo): 5 points, OWP the
    # mean of Cara 2.5/3, Fay 0/3 raised to 25 %, Ivo 1.5/3: 52.78 %
    assert got["Standings: Masters"] == [
        ["1", "Ben Oakes", "4", "1-0-2", "5", "52.78%", "53.70%", ""],
        ["2", "Ada Moss", "2", "2-1-0", "6", "58.33%", "56.48%", ""],
        ["3", "Cara Pike", "1", "2-0-1", "7", "41.67%", "61.57%", ""],
        ["4", "Eli Rook", "3", "2-1-0", "6", "25.00%", "47.22%", ""],
        ["5", "Dev Quill", "5", "0-2-0", "0", "62.50%", "56.25%", "Dropped"]]
    assert headers(out)["Standings: Masters"] == [
        "#", "Player", "Swiss", "Record", "Points", "OWP", "OOWP", "Dropped"]
    # no playoff in the Juniors: no Swiss column
    assert got["Standings: Juniors"] == [
        ["1", "Zoë Wells", "3-0-0", "9", "50.00%", "63.89%", ""],
        ["2", "Ivo Vance", "1-1-1", "4", "52.78%", "57.87%", ""]]
    assert [r[:3] for r in got["Standings: Seniors"]] == [
        ["1", "Hana O'Dell", "2"], ["2", "Gus Trent", "1"], ["3", "Fay Sloan", "3"]]
    # seeds are the Swiss places: Cara 7 points, Ada and Eli 6 (OWP 58.33 % and 25 %),
    # Ben 5; the semifinals were 1-4 and 2-3
    assert got["Top 4 cut: Masters"] == [
        ["1", "Cara Pike", "2-0-1", "7", "41.67%", "61.57%", "Points", "3"],
        ["2", "Ada Moss", "2-1-0", "6", "58.33%", "56.48%", "OWP", "2"],
        ["3", "Eli Rook", "2-1-0", "6", "25.00%", "47.22%", "Points", "4"],
        ["4", "Ben Oakes", "1-0-2", "5", "52.78%", "53.70%", "", "1"]]
    assert headers(out)["Top 4 cut: Masters"][-2:] == ["Above the next by", "Final"]
    # Gus and Hana 3 points each, Gus's OWP (69.44 %) above Hana's (50 %)
    assert [[r[0], r[1], r[-2], r[-1]] for r in got["Top 2 cut: Seniors"]] == [
        ["1", "Gus Trent", "OWP", "2"], ["2", "Hana O'Dell", "Points", "1"],
        ["out", "Fay Sloan", "", "3"]]
    # the default 'why': the cut by the Swiss places
    assert got["Why is one player above the other: Seniors"] == [
        ["Hana O'Dell (Swiss 2)", "Fay Sloan (Swiss 3)", "Points", "3 vs 0", ""]]
    assert got["Rank after each round (Top 4): Masters"][0] == [
        "Ben Oakes", "2 > 2 > 4 > 2 > 1", "1 > 4 > 5 > 5 > 5"]
    assert [r[0] for r in got["Players by name: Masters"]] == [
        "Ada Moss", "Ben Oakes", "Cara Pike", "Dev Quill", "Eli Rook"]
    assert got["Matches of Zoë Wells"] == [
        ["1", "(bye)", "W", "3", ""], ["2", "Gus Trent", "W", "6", "1-2-0 (2)"],
        ["3", "Ada Moss", "W", "9", "2-1-0 (2)"]]


def test_tom_file_why_the_playoff_decided():
    def why(a, b):
        (title, rows), = sections(file_reports(TOP_CUT, "$report why", f"$a \"{a}\"",
                                               f"$b \"{b}\"")).items()
        return title, rows
    # Ada had more Swiss points (6 to 5): the final decided
    assert why("Ada Moss", "Ben Oakes") == ("Why is one player above the other: Masters", [
        ["Ben Oakes (1)", "Ada Moss (2)", "Playoff", "won the final vs lost the final", ""]])
    assert why("Cara Pike", "Ada Moss")[1] == [
        ["Ada Moss (2)", "Cara Pike (3)", "Playoff", "lost the final vs lost a semifinal", ""]]
    # both lost a semifinal: the Swiss order
    assert why("Eli Rook", "Cara Pike")[1] == [
        ["Cara Pike (3)", "Eli Rook (4)", "Points", "7 vs 6", ""]]
    assert why("2000004", "2000005")[1] == [
        ["Eli Rook (4)", "Dev Quill (5)", "the Top 4 cut", "Swiss places 3 vs 5", ""]]
    assert why("Gus Trent", "Hana O'Dell")[1] == [
        ["Hana O'Dell (1)", "Gus Trent (2)", "Playoff", "won the final vs lost the final", ""]]


def test_why_of_two_divisions_says_they_are_ranked_apart():
    """$a and $b of two divisions: no standings ranks them both. The report printed
    nothing; one line now says why, by name or id, in either order."""
    want = ("Ada Moss (Masters) and Gus Trent (Seniors) are ranked in separate divisions: "
            "no standings places one above the other")
    out = file_reports(TOP_CUT, "$report why", "$a 'Ada Moss'", "$b 'Gus Trent'")
    assert out.splitlines()[1:] == ["", "Why is one player above the other", want]
    out = file_reports(TOP_CUT, "$report why", "$a 2000007", "$b 'Ada Moss'")
    assert out.splitlines()[-1] == ("Gus Trent (Seniors) and Ada Moss (Masters) are ranked in "
                                    "separate divisions: no standings places one above the other")
    # one division: the table, no line
    assert "separate divisions" not in file_reports(TOP_CUT, "$report why", "$a 'Ada Moss'",
                                                    "$b 'Ben Oakes'")


def test_tom_file_player_report_names_the_playoff_rounds():
    got = sections(file_reports(TOP_CUT, "$report player", "$player 'Ben Oakes'"))
    assert got == {"Matches of Ben Oakes": [
        ["1", "Cara Pike", "T", "1", "2-0-1 (3)"],
        ["2", "Fay Sloan", "W", "4", "0-3-0 (3)"],
        ["3", "Ivo Vance", "T", "5", "1-1-1 (2)"],
        ["4 (semifinal)", "Cara Pike", "W", "", "2-0-1 (3)"],
        ["5 (final)", "Ada Moss", "W", "", "2-1-0 (2)"]]}


def test_trf_file_points_tie_breaks_and_crosstable():
    """sql/example.trf states its order (202: BH/C1,BH,SB,DE); the values are
    docs/trf.md's (Buchholz Cut-1 of player 1: opponents 2, 5, 3 with 1, 1,
    1: 3 - 1 + ... = 2.5)."""
    out = file_reports("sql/example.trf")
    assert out.startswith("sql/example.trf: 5 players, standings after round 3 "
                          "(policy PTS,BH/C1,BH,SB,DE)\n")
    got = sections(out)
    assert headers(out)["Standings"] == ["#", "Player", "Pts", "BH/C1", "BH", "SB", "DE"]
    assert got["Standings"] == [
        ["1", "Adams, Ann", "2.5", "2.5", "3.5", "3.0", "1"],
        ["2", "Davis, Dan", "2.0", "2.0", "3.5", "2.25", "1"],
        ["3", "Clark, Cleo", "1.0", "4.5", "5.5", "2.25", "1"],
        ["4", "Evans, Eve", "1.0", "4.5", "5.5", "1.0", "1"],
        ["5", "Brown, Bob", "1.0", "3.5", "4.5", "1.0", "1"]]
    assert "OMW%" not in out and "GW%" not in out and "Top 8 cut" not in out
    assert got["Why is one player above the other"] == [
        ["Adams, Ann (1)", "Davis, Dan (2)", "Pts", "2.5 vs 2.0", ""]]
    assert got["Matches of Adams, Ann"] == [
        ["1", "Brown, Bob", "w", "1", "1.0", "1.0 (5)"],
        ["2", "Evans, Eve", "b", "1", "2.0", "1.0 (4)"],
        ["3", "Clark, Cleo", "w", "½", "2.5", "1.0 (3)"]]
    table = out.split("\nCrosstable\n", 1)[1].splitlines()
    assert [ln.split() for ln in table] == [
        ["Rk", "SNo", "Name", "Rtg", "1", "2", "3", "Pts", "BH/C1", "BH", "SB", "DE"],
        ["1", "1", "Adams,", "Ann", "2100", "2w1", "5b1", "3w½", "2.5", "2.5", "3.5", "3.0", "1"],
        ["2", "4", "Davis,", "Dan", "1800", "3b½", "H", "5w1", "2.0", "2.0", "3.5", "2.25", "1"],
        ["3", "3", "Clark,", "Cleo", "1900", "4w½", "2-", "1b½", "1.0", "4.5", "5.5", "2.25",
         "1"],
        ["4", "5", "Evans,", "Eve", "+", "1w0", "4b0", "1.0", "4.5", "5.5", "1.0", "1"],
        ["5", "2", "Brown,", "Bob", "1950", "1b0", "3+", "-", "1.0", "3.5", "4.5", "1.0", "1"]]


def test_trf_file_under_another_policy():
    """$policy with a TRF file: the file's scoring and rule year, the given
    order; its tie-breaks are the columns."""
    out = file_reports("sql/example.trf", "$report standings", "$policy 'PTS,SB,WIN'")
    assert headers(out)["Standings"] == ["#", "Player", "Pts", "SB", "WIN"]
    assert sections(out)["Standings"][:2] == [
        ["1", "Adams, Ann", "2.5", "3.0", "2"], ["2", "Davis, Dan", "2.0", "2.25", "1"]]


def test_melee_file_seeds_are_swiss_places():
    """Eight players, three Swiss rounds, a Top 4 in Semifinals and Finals.
    After round 3 Ann Kim is 3-0; Eve Sato, Cy Park and Gus Ito 2-1, apart by
    OMW%: Eve's opponents Fox 1-2 (1/3), Gus 2-1, Ann 3-0: 66.67 %; Cy's Dee,
    Ann, Bo: 55.56 %; Gus's Hal (0-3, floor 1/3), Eve, Fox: 44.44 %. Eve beat
    Cy and Ann. melee_2024 counts the playoff in its players' values."""
    path = "sql/example_melee.json"
    out = file_reports(path)
    assert out.startswith(f"{path}: 8 players, standings after 3 Swiss rounds and 2 playoff "
                          "rounds (policy melee_2024)\n")
    got = sections(out)
    assert [r[:5] for r in got["Top 4 cut"]] == [
        ["1", "Ann Kim", "9", "3-0-0", "55.56%"], ["2", "Eve Sato", "6", "2-1-0", "66.67%"],
        ["3", "Cy Park", "6", "2-1-0", "55.56%"], ["4", "Gus Ito", "6", "2-1-0", "44.44%"],
        ["out", "Bo Lund", "3", "1-2-0", "66.67%"]]
    assert [r[-2:] for r in got["Top 4 cut"]] == [
        ["Points", "2"], ["OMW%", "1"], ["OMW%", "4"], ["Points", "3"], ["", "5"]]
    assert [r[:5] for r in got["Standings"][:2]] == [
        ["1", "Eve Sato", "2", "12", "4-1-0"], ["2", "Ann Kim", "1", "12", "4-1-0"]]
    assert got["Matches of Eve Sato"][3:] == [
        ["4 (semifinal)", "Cy Park", "W", "2-0-0", "", "2-2-0 (4)"],
        ["5 (final)", "Ann Kim", "W", "2-1-0", "", "4-1-0 (2)"]]
    (why,) = sections(file_reports(path, "$report why", "$a 'Ann Kim'", "$b 'Eve Sato'")).values()
    assert why == [["Eve Sato (1)", "Ann Kim (2)", "Playoff",
                    "won the final vs lost the final", ""]]


def test_tables_with_a_players_table_print_names_by_division(tmp_path):
    """The tables of sql/schema.sql with a players table: its names, each
    division a section, Players by name sorted by name, not by id. Dee beat
    Cy and lost to Bob (3 points); Ann beat Bob and Cy (6), Bob beat Dee (3)."""
    db = tmp_path / "cup.db"
    conn = open_connection(str(db))
    conn.executescript((REPO / "sql" / "schema.sql").read_text())
    conn.executescript("""
        CREATE TABLE players (event_id, player, name, division);
        INSERT INTO players VALUES (7, 30, 'Ann Zeller', 'Masters'), (7, 4, 'Bob Young', 'Masters'),
                                   (7, 12, 'Cy Xu', 'Juniors'), (7, 2, 'Dee Wong', 'Juniors');
        INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins) VALUES
          (7, 1, 30, 4, 2, 0), (7, 1, 12, 2, 0, 2), (7, 2, 30, 12, 2, 1), (7, 2, 4, 2, 2, 1);""")
    conn.commit()
    conn.close()
    args = [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", str(db),
            f".load '{EXT}'", ".parameter set $report standings,alphabetical",
            ".read sql/reports.sql"]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    got = sections(proc.stdout)
    assert list(got) == ["Standings: Juniors", "Standings: Masters",
                         "Players by name: Juniors", "Players by name: Masters"]
    assert [r[:3] for r in got["Standings: Juniors"]] == [["1", "Dee Wong", "3"],
                                                          ["2", "Cy Xu", "0"]]
    assert [r[:3] for r in got["Standings: Masters"]] == [["1", "Ann Zeller", "6"],
                                                          ["2", "Bob Young", "3"]]
    assert [r[0] for r in got["Players by name: Juniors"]] == ["Cy Xu", "Dee Wong"]


def test_a_file_that_cannot_be_read_is_named():
    args = [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", ":memory:",
            f".load '{EXT}'", ".parameter set $file sql/no_such_file.tdf",
            ".read sql/reports.sql"]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode != 0
    assert "reports.sql: $file names no file that can be read" in proc.stderr


@pytest.mark.parametrize("text,message", [
    ("<tournament><bad", "tom_policy(): line 1: the text ends inside the tag <bad: truncated"),
    ('{"Rounds": [', "melee_policy(): malformed JSON"),
])
def test_a_file_its_reader_refuses_stops_with_the_readers_message(tmp_path, text, message):
    """The message is the reader's, without the file's path: SQL on SQLite before
    3.47 cannot put a value into an error it raises (docs/reports.md)."""
    path = tmp_path / "event.txt"
    path.write_text(text)
    args = [sqlcases.default_cli(), "-init", "/dev/null", "-batch", "-bail", ":memory:",
            f".load '{EXT}'", f".parameter set $file {path}", ".read sql/reports.sql"]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=REPO, timeout=120)
    assert proc.returncode != 0
    assert proc.stderr.strip().splitlines()[-1].endswith(message), proc.stderr
    assert str(path) not in proc.stderr


def test_tom_file_during_the_playoff():
    """After the semifinals ($round 4): one playoff round so far; Ada Moss
    won hers, Cara Pike lost hers to Ben Oakes."""
    out = file_reports(TOP_CUT, "$round 4", "$report standings,why", "$a 'Cara Pike'",
                       "$b 'Ada Moss'")
    assert out.startswith(f"{TOP_CUT}: 10 players in 3 divisions, standings after 3 Swiss "
                          "rounds and 1 playoff round (policy pokemon)\n")
    got = sections(out)
    assert [r[:3] for r in got["Standings: Masters"]] == [
        ["1", "Ada Moss", "2"], ["2", "Ben Oakes", "4"], ["3", "Cara Pike", "1"],
        ["4", "Eli Rook", "3"], ["5", "Dev Quill", "5"]]
    assert got["Why is one player above the other: Masters"] == [
        ["Ada Moss (1)", "Cara Pike (3)", "Playoff", "still playing vs lost a semifinal", ""]]
