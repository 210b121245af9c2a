"""The standings page (web/) in headless Chromium: what it shows for the bundled
116-player event (sql/example_large.sql) opened as a SQLite file, checked
against the native module on the same file; a players table's names and
divisions; TOM, TRF and Melee.gg files read by the extension's readers; the
CSV and JSON exports of docs/import.md; the next round's pairings; the link
that reopens a view; the page on a 390 px phone and printed to PDF.  Run by
test/web/run.py (which builds the page and sets CHROMIUM, CHROMEDRIVER,
TIEBREAK_WEB, TIEBREAK_EXT and TIEBREAK_WEB_ARTIFACTS, the folder that keeps
the screenshots and the PDF)."""
import base64
import csv
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import sqlcases  # noqa: E402
from webdriver import Browser, StaticServer  # noqa: E402

REPO = sqlcases.REPO
READY = ("document.body.dataset.status === 'ready' || document.body.dataset.status === 'error'"
         " ? document.body.dataset.status : ''")
ROWS = ("return [...document.querySelectorAll('#standings tbody tr')]"
        ".map(tr => [...tr.cells].map(td => td.textContent))")


@pytest.fixture(scope="module")
def browser():
    server = StaticServer(os.environ["TIEBREAK_WEB"])
    b = Browser(os.environ["CHROMIUM"], os.environ["CHROMEDRIVER"])
    b.url = server.url + "index.html"
    yield b
    b.close()
    server.close()


@pytest.fixture(scope="module")
def rcq(tmp_path_factory):
    path = tmp_path_factory.mktemp("web") / "rcq.db"
    conn = sqlite3.connect(path)
    conn.executescript((REPO / "sql" / "schema.sql").read_text()
                       + (REPO / "sql" / "example_large.sql").read_text())
    conn.commit()
    conn.close()
    return path


def native(db, sql, *params):
    conn = sqlite3.connect(db)
    conn.enable_load_extension(True)
    conn.load_extension(sqlcases.default_ext())
    rows = conn.execute(sql, params).fetchall()
    conn.close()
    return rows


def native_text(text, sql, *params, setup=None):
    """sql on a connection with the module, ?1 bound to a file's text (setup: a statement
    run first)."""
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(sqlcases.default_ext())
    if setup:
        conn.execute(setup)
    rows = conn.execute(sql, (text, *params)).fetchall()
    conn.close()
    return rows


def artifact(name, tmp_path):
    """Where a screenshot or PDF is kept: TIEBREAK_WEB_ARTIFACTS, else tmp."""
    folder = Path(os.environ.get("TIEBREAK_WEB_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def open_file(b, path):
    b.get(b.url)
    b.wait_for("document.body.dataset.status === 'empty'")
    b.send_file("#file", path)
    assert b.wait_for(READY) == "ready", b.js("return document.getElementById('status').textContent")


def choose(b, select, value):
    b.js(f"const s = document.getElementById('{select}'); s.value = arguments[0];"
         " s.dispatchEvent(new Event('change'));", value)
    assert b.wait_for(READY) == "ready"


def table_rows(b):
    return b.js(ROWS)


def pct(column):
    """SQL for a percentage as the page and sql/reports.sql print it."""
    return f"iif({column} IS NULL, '–', printf('%.2f%%', 100 * {column}))"


def test_standings_of_a_sqlite_file(browser, rcq):
    b = browser
    open_file(b, rcq)
    want = native(rcq, f"SELECT rank, player, match_points, {pct('omwp')}, {pct('gwp')},"
                       f" {pct('ogwp')}, wins, losses, draws, dropped FROM standings(2, 'mtg')")
    got = table_rows(b)
    assert len(got) == len(want) == 116
    for g, w in zip(got, want):
        assert g[:6] == [str(w[0]), w[1], str(w[2]), w[3], w[4], w[5]]
        assert g[6] == f"{w[6]}-{w[7]}-{w[8]}"
        assert g[8] == ("dropped" if w[9] else "")
    # Known values of the bundled event (docs/reports.md's demo).
    assert got[0][:7] == ["1", "Uma Rossi", "22", "64.24%", "88.24%", "55.35%", "7-0-1"]
    assert got[7][:4] == ["8", "Ivan Novak", "18", "62.98%"]
    assert got[8][:4] == ["9", "Ines Novak", "18", "60.42%"]
    assert b.js("return document.getElementById('event-title').textContent") == "rcq.db"
    note = b.js("return document.getElementById('standings-note').textContent")
    assert note == "116 players · event 2 · mtg · after round 8"


def test_why_one_player_is_above_another(browser, rcq):
    b = browser
    open_file(b, rcq)
    # Default: the last player of the Top 8 and the first one out.
    assert b.js("return document.getElementById('why').textContent") == (
        "Ivan Novak (8th) is above Ines Novak (9th) on OMW%: 62.98% vs 60.42%."
        " Equal before that: Points 18.")
    # Lena Haas (4th) and Nadia Haas (5th): equal points and OMW%, GW% decides.
    choose(b, "why-a", "3")
    choose(b, "why-b", "4")
    assert b.js("return document.getElementById('why').textContent") == (
        "Lena Haas (4th) is above Nadia Haas (5th) on GW%: 65.00% vs 61.67%."
        " Equal before that: Points 19, OMW% 61.94%.")
    # Picked the other way round, and far apart: the earliest key wins.
    choose(b, "why-a", "19")
    choose(b, "why-b", "0")
    assert b.js("return document.getElementById('why').textContent").startswith(
        "Uma Rossi (1st) is above Elif Sato (20th) on Points: 22 vs 15.")


def test_a_players_matches(browser, rcq):
    b = browser
    open_file(b, rcq)
    b.click("#standings tbody tr:nth-child(9)")
    assert b.wait_for("document.getElementById('player-name').textContent") == "Ines Novak"
    got = b.js("return [...document.querySelectorAll('#matches tbody tr')]"
               ".map(tr => [...tr.cells].map(td => td.textContent))")
    want = native(rcq, "SELECT round, coalesce(iif(player_a = 'Ines Novak', player_b, player_a),"
                       " '(bye)'), iif(player_a = 'Ines Novak', a_wins || '-' || b_wins,"
                       " b_wins || '-' || a_wins) || '-' || draws FROM matches WHERE event_id = 2"
                       " AND 'Ines Novak' IN (player_a, player_b) ORDER BY round")
    assert [(int(g[0]), g[1], g[3]) for g in got] == want
    results = "".join(g[2][0] for g in got)
    assert results.count("W") == 6 and results.count("L") == 2  # her 6-2-0
    ranks = dict(native(rcq, "SELECT player, wins || '-' || losses || '-' || draws"
                             " || ' (' || rank || ')' FROM standings(2, 'mtg')"))
    assert all(g[4] == ranks[g[1]] for g in got)


def test_chart_of_ranks_round_by_round(browser, rcq):
    b = browser
    open_file(b, rcq)
    b.click("#standings tbody tr:nth-child(12)")  # Yuki Ito, outside the Top 8
    b.wait_for("document.getElementById('player-name').textContent === 'Yuki Ito'")
    series = b.js("return [...document.querySelectorAll('#chart polyline')].map(p =>"
                  " [p.dataset.player, p.getAttribute('points').split(' ').length])")
    top8 = [p for (p,) in native(rcq, "SELECT player FROM standings(2, 'mtg') WHERE dropped = 0"
                                      " LIMIT 8")]
    assert [p for p, _ in series] == top8 + ["Yuki Ito"]
    assert all(n == 8 for _, n in series)
    # The points' heights follow the ranks: Yuki's rank after each round.
    want = [native(rcq, "SELECT rank FROM standings(2, 'mtg', NULL, ?) WHERE player = 'Yuki Ito'",
                   n)[0][0] for n in range(1, 9)]
    tips = b.js("return [...document.querySelectorAll('#chart circle title')]"
                ".map(t => t.textContent).filter(t => t.startsWith('Yuki Ito:'))")
    assert tips == [f"Yuki Ito: {r} after round {n}" for n, r in enumerate(want, 1)]


def test_round_and_policy(browser, rcq):
    b = browser
    open_file(b, rcq)
    choose(b, "round", "3")
    want = native(rcq, f"SELECT rank, player, match_points, {pct('omwp')}"
                       " FROM standings(2, 'mtg', NULL, 3)")
    got = table_rows(b)
    assert [g[:4] for g in got] == [[str(r), p, str(m), o] for r, p, m, o in want]
    assert len(b.js("return [...document.querySelectorAll('#chart polyline')]")) >= 8
    choose(b, "policy", "pokemon")
    heads = b.js("return [...document.querySelectorAll('#standings thead th')]"
                 ".map(th => th.textContent)")
    assert heads[:6] == ["#", "Player", "Points", "OWP", "OOWP", "H2H"]
    # the last column marks a dropped player, headed as sql/reports.sql heads it
    assert heads[-2:] == ["Above the next by", "Dropped"]
    want = native(rcq, f"SELECT rank, player, {pct('owp')} FROM standings(2, 'pokemon', NULL, 3)")
    assert [(g[0], g[1], g[3]) for g in table_rows(b)] == [(str(r), p, o) for r, p, o in want]


EXAMPLE_TOP = [["1", "Hugo", "13"], ["2", "Cleo", "13"], ["3", "Sami", "12"], ["4", "Ben", "12"]]


@pytest.mark.parametrize("name", ["example_results.csv", "example_matches.csv",
                                  "example_player_rows.csv"])
def test_csv_exports(browser, name):
    """The three CSV shapes of docs/import.md: the example event's standings."""
    b = browser
    open_file(b, REPO / "sql" / "import" / name)
    got = table_rows(b)
    assert len(got) == 24
    assert [g[:3] for g in got[:4]] == EXAMPLE_TOP
    assert b.js("return document.getElementById('problems').hidden") is True


@pytest.mark.parametrize("name", ["example.sql", "schema_and_example.sql"])
def test_sql_script(browser, tmp_path, name):
    """A SQL script: run after sql/schema.sql, or alone when it creates matches."""
    b = browser
    path = tmp_path / name
    script = (REPO / "sql" / "example.sql").read_text()
    if name == "schema_and_example.sql":
        script = (REPO / "sql" / "schema.sql").read_text() + script
    path.write_text(script)
    open_file(b, path)
    got = table_rows(b)
    assert len(got) == 24 and [g[:3] for g in got[:4]] == EXAMPLE_TOP
    assert b.js("return document.getElementById('event-title').textContent") == name


def test_json_export(browser, tmp_path):
    """A JSON array of rows with the CSV's column names, and a Melee-style file."""
    b = browser
    with open(REPO / "sql" / "import" / "example_results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    path = tmp_path / "fnm.json"
    path.write_text(json.dumps(rows))
    open_file(b, path)
    assert [g[:3] for g in table_rows(b)[:4]] == EXAMPLE_TOP
    rounds = {}
    for r in rows:
        rounds.setdefault(r["Round"], []).append(
            {"Player1": r["Player 1"], "Player2": r["Player 2"] or "-",
             "Result": r["Result"] or "2-0-0"})
    melee = {"Tournament": {"Name": "FNM"},
             "Rounds": [{"RoundName": f"Round {n}", "Matches": m} for n, m in rounds.items()]
             + [{"RoundName": "Finals", "Matches": [{"Player1": "Hugo", "Player2": "Cleo",
                                                      "Result": "2-0-0"}]}]}
    path = tmp_path / "melee.json"
    path.write_text(json.dumps(melee))
    open_file(b, path)
    # Melee.gg's files go through melee_matches(): the final counts, and a
    # file without a date (no era for melee_policy()) is ranked by 'melee'.
    want = native_text(json.dumps(melee), "SELECT rank, player, match_points FROM standings("
                       "?1, 'melee', NULL, NULL, 'melee_matches', '', 'melee_players')")
    got = table_rows(b)
    assert [g[:3] for g in got] == [[str(r), p, str(m)] for r, p, m in want]
    assert [g[1] for g in got[:2]] == ["Hugo", "Cleo"]  # the final: Hugo beat Cleo
    assert b.js("return document.getElementById('event-title').textContent") == "FNM"
    assert b.js("return document.getElementById('policy').value") == "melee"


def test_import_problems_are_shown(browser, tmp_path):
    b = browser
    path = tmp_path / "rows.csv"
    path.write_text("Round,Table,Player,Opponent,Record\n1,1,Ann,Bob,2-1-0\n1,1,Bob,Ann,2-1-0\n")
    open_file(b, path)
    assert b.js("return document.getElementById('problems').textContent") == (
        "1 row(s) need fixing (import_problems):"
        "round 1, Ann: records disagree: 2-1-0 against Bob 2-1-0")


@pytest.mark.parametrize("content,name,message", [
    (b"Round,Table,Player 1,Player 2,Result\n", "empty.csv", "empty.csv: no rows below the header line"),
    (b"not sqlite", "notes.txt",
     "notes.txt: not a SQLite database, SQL script, TOM (.tdf), TRF, Melee.gg JSON, CSV or"
     " JSON rows"),
    (b"{\"a\": 1}", "x.json",
     "JSON: expected an array of rows (objects) or a Melee.gg file ({Rounds: [...]})"),
    (b"<tournament><players>", "cut.tdf",
     "tom_matches(): line 1: the text ends inside <players>: truncated"),
])
def test_bad_files_say_what_is_wrong(browser, tmp_path, content, name, message):
    b = browser
    path = tmp_path / name
    path.write_bytes(content)
    b.get(b.url)
    b.wait_for("document.body.dataset.status === 'empty'")
    b.send_file("#file", path)
    assert b.wait_for(READY) == "error"
    assert b.js("return document.getElementById('status').textContent") == message


def test_database_without_matches(browser, tmp_path):
    b = browser
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE results(x)")
    conn.commit()
    conn.close()
    b.get(b.url)
    b.wait_for("document.body.dataset.status === 'empty'")
    b.send_file("#file", path)
    assert b.wait_for(READY) == "error"
    assert b.js("return document.getElementById('status').textContent") == (
        "this database has no table named matches (the tables of sql/schema.sql)")


def test_screenshot(browser, rcq, tmp_path):
    """The page as docs/web.md shows it (TIEBREAK_SCREENSHOT), kept as desktop.png."""
    b = browser
    open_file(b, rcq)
    b.click("#standings tbody tr:nth-child(9)")
    b.wait_for("document.getElementById('player-name').textContent === 'Ines Novak'")
    out = artifact("desktop.png", tmp_path)
    b.screenshot(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("TIEBREAK_SCREENSHOT"):
        shutil.copyfile(out, os.environ["TIEBREAK_SCREENSHOT"])
    # The standings run at full length: no box of their own scrolls them.
    assert b.js("""let n = document.querySelector('#standings table');
        const boxes = [];
        for (; n; n = n.parentElement) {
          const s = getComputedStyle(n);
          if (/auto|scroll/.test(s.overflowY) && n !== document.documentElement
              && n !== document.body) boxes.push(n.tagName);
        }
        return boxes""") == []


def test_example_event_button(browser):
    b = browser
    b.get(b.url)
    b.wait_for("document.body.dataset.status === 'empty'")
    b.click("#example")
    assert b.wait_for(READY) == "ready"
    got = table_rows(b)
    assert len(got) == 116 and got[0][:3] == ["1", "Uma Rossi", "22"]


def test_names_are_text_not_markup(browser, tmp_path):
    """Player names from a file are shown as they are, never run as HTML."""
    b = browser
    evil = '<img src=x onerror="document.body.dataset.owned=1">"\'&'
    path = tmp_path / "evil.csv"
    path.write_text("Round,Table,Player 1,Player 2,Result\n"
                    f"1,1,\"{evil.replace(chr(34), chr(34) * 2)}\",Bob,2-0-0\n"
                    f"2,1,\"{evil.replace(chr(34), chr(34) * 2)}\",Cat,2-1-0\n")
    open_file(b, path)
    assert table_rows(b)[0][1] == evil
    assert b.js("return document.querySelectorAll('img').length") == 0
    assert evil in b.js("return [...document.querySelectorAll('#chart polyline')]"
                        ".map(p => p.dataset.player)")
    assert b.js("return document.body.dataset.owned") is None


def test_extension_errors_are_shown(browser, tmp_path):
    b = browser
    path = tmp_path / "twice.csv"
    path.write_text("Round,Table,Player 1,Player 2,Result\n1,1,Ann,Bob,2-0\n1,2,Ann,Cat,2-0\n")
    b.get(b.url)
    b.wait_for("document.body.dataset.status === 'empty'")
    b.send_file("#file", path)
    assert b.wait_for(READY) == "error"
    status = b.js("return document.getElementById('status').textContent")
    assert status.startswith("standings(): event 'twice': player 'Ann' is paired twice in "
                             "round 1"), status


# ------------------------------------------------------ names and divisions

DIVISION_ORDER = "CASE division WHEN 'Juniors' THEN 1 WHEN 'Seniors' THEN 2 ELSE 3 END"
SECTIONS = """return [...document.querySelectorAll('#standings section.division')].map(s => [
    s.querySelector('h3') ? s.querySelector('h3').firstChild.textContent : null,
    [...s.querySelectorAll('tbody tr')].map(tr => [...tr.cells].map(td => td.textContent))])"""


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    """sql/example.sql with the players stored as ids 101, 102, ... and a
    players table of their names and divisions (Juniors, Seniors, Masters)."""
    path = tmp_path_factory.mktemp("web") / "league.db"
    conn = sqlite3.connect(path)
    conn.executescript((REPO / "sql" / "schema.sql").read_text()
                       + (REPO / "sql" / "example.sql").read_text())
    names = [p for (p,) in conn.execute("SELECT player_a FROM matches UNION"
                                        " SELECT player_b FROM matches WHERE player_b NOTNULL")]
    ids = {n: 101 + i for i, n in enumerate(sorted(names))}
    conn.execute("CREATE TEMP TABLE ids (name, id)")
    conn.executemany("INSERT INTO ids VALUES (?, ?)", ids.items())
    conn.execute("UPDATE matches SET player_a = (SELECT id FROM ids WHERE name = player_a),"
                 " player_b = (SELECT id FROM ids WHERE name = player_b)")
    conn.execute("CREATE TABLE players (event_id, player, name, division)")
    conn.executemany("INSERT INTO players VALUES (1, ?, ?, ?)",
                     [(i, n, ["Juniors", "Seniors", "Masters", "Masters"][i % 4])
                      for n, i in ids.items()])
    conn.commit()
    conn.close()
    return path


def by_column(rows, label):
    """'Above the next by' as the page writes it from native rows
    (division, ..., decided_by last): the next row's key within the division."""
    out = []
    for row, nxt in zip(rows, rows[1:] + [None]):
        if nxt is None or nxt[0] != row[0]:
            out.append("")
        else:
            out.append(label.get(nxt[-1], nxt[-1]) if nxt[-1] else "tied")
    return out


def test_names_and_divisions_of_a_players_table(browser, league):
    b = browser
    open_file(b, league)
    want = native(league, "SELECT division, rank, name, match_points, decided_by"
                          f" FROM standings(1, 'mtg') ORDER BY {DIVISION_ORDER}, rank")
    sections = b.js(SECTIONS)
    # One table per division, in Play! Pokemon's age order (standings() gives
    # them by name: Juniors, Masters, Seniors).
    assert [d for d, _ in sections] == ["Juniors", "Seniors", "Masters"]
    got = [(d, *row) for d, rows in sections for row in rows]
    assert [(g[0], g[1], g[2], g[3]) for g in got] == [(d, str(r), n, str(m))
                                                      for d, r, n, m, _ in want]
    assert not any(re.fullmatch(r"1\d\d", g[2]) for g in got)  # names, never the ids
    by = [g[8] for g in got]
    assert by == by_column(want, {"match_points": "Points", "omwp": "OMW%", "gwp": "GW%",
                                  "ogwp": "OGW%"})
    # Never 'tied' across divisions: each division's last row compares with no one.
    assert [rows[-1][7] for _, rows in sections] == ["", "", ""]
    heads = b.js("return [...document.querySelectorAll('#standings h3')].map(h => h.textContent)")
    assert heads == [f"{d} {sum(1 for w in want if w[0] == d)} players"
                     for d in ("Juniors", "Seniors", "Masters")]
    # A player's matches name the opponents; the line gives the division.
    first_masters = next(w for w in want if w[0] == "Masters")[2]
    b.js("[...document.querySelectorAll('#standings tbody tr')].find(tr =>"
         " tr.cells[1].textContent === arguments[0]).click()", first_masters)
    b.wait_for(f"document.getElementById('player-name').textContent === {json.dumps(first_masters)}")
    opponents = b.js("return [...document.querySelectorAll('#matches tbody tr')]"
                     ".map(tr => tr.cells[1].textContent)")
    want_opp = native(league, "SELECT coalesce(o.name, '(bye)') FROM matches AS m"
                      " JOIN players AS p ON p.player = ?1"
                      " LEFT JOIN players AS o ON o.player = iif(m.player_a = p.player,"
                      " m.player_b, m.player_a)"
                      " WHERE p.player IN (m.player_a, m.player_b) ORDER BY m.round",
                      next(i for i, in native(league, "SELECT player FROM players"
                                                      " WHERE name = ?", first_masters)))
    assert opponents == [o for (o,) in want_opp]
    assert b.js("return document.getElementById('player-line').textContent").startswith(
        "1st in Masters · Points ")
    # Two players of different divisions: no comparison.
    choose(b, "why-a", "0")
    choose(b, "why-b", str(len(want) - 1))
    assert b.js("return document.getElementById('why').textContent").endswith(
        "in Masters: each division is placed on its own.")


def open_example_file(b, name, title, policy):
    """Open sql/NAME; the page's title and policy for it; the file's text."""
    path = REPO / "sql" / name
    open_file(b, path)
    assert b.js("return document.getElementById('event-title').textContent") == title
    assert b.js("return document.getElementById('policy').value") == policy
    return path.read_text()


def test_tom_file(browser):
    """sql/example.tdf: three divisions in one pod, read by tom_matches and
    tom_players (docs/tom.md's statement), and the next round as TOM pairs it."""
    b = browser
    text = open_example_file(b, "example.tdf", "Example League Cup", "file")
    want = native_text(text, "SELECT division, rank, name, match_points, "
                       f"{pct('owp')}, {pct('oowp')}, wins || '-' || losses || '-' || draws,"
                       " dropped FROM standings(?1, 'pokemon', NULL, NULL, 'tom_matches', '',"
                       f" 'tom_players') ORDER BY {DIVISION_ORDER}, rank")
    sections = b.js(SECTIONS)
    assert [d for d, _ in sections] == ["Juniors", "Seniors", "Masters"]
    got = [(d, *row) for d, rows in sections for row in rows]
    assert [(g[0], g[1], g[2], g[3], g[4], g[5], g[8], g[10]) for g in got] == [
        (d, str(r), n, str(m), o, oo, wld, "dropped" if dr else "")
        for d, r, n, m, o, oo, wld, dr in want]
    assert got[0][2] == "Zoë Wells" and "Hana O'Dell" in [g[2] for g in got]
    # Eli Rook's late entry: a round lost with no opponent.
    b.js("[...document.querySelectorAll('#standings tbody tr')].find(tr =>"
         " tr.cells[1].textContent === 'Eli Rook').click()")
    b.wait_for("document.getElementById('player-name').textContent === 'Eli Rook'")
    assert b.js("return document.querySelector('#matches tbody tr').cells[2].textContent") == (
        "L (no opponent)")
    b.click("#tab-pairings")
    assert b.js("return document.getElementById('system').value") == "pokemon"
    assert pairing_rows(b) == native_pairings(text, "pokemon", "'tom_matches', 'tom_players'")


def pairing_rows(b):
    return b.js("return [...document.querySelectorAll('#pairings tbody tr')]"
                ".map(tr => [...tr.cells].slice(0, 5).map(td => td.textContent))")


def native_pairings(text, system, tables, setup=None, sql_names="name"):
    """pairings() with names from the players table, as the page prints them (setup: a
    statement run first, e.g. a view of the rounds played so far)."""
    players = tables.split(",")[1].strip().strip("'")
    rows = native_text(text, "SELECT p.table_number, a." + sql_names + ", p.score_a,"
                       " coalesce(b." + sql_names + ", '(bye)'), p.score_b FROM pairings(?1, ?2,"
                       f" NULL, {tables}) AS p JOIN {players} AS a ON a.event_id = ?1 AND"
                       f" a.player = p.player_a LEFT JOIN {players} AS b ON b.event_id = ?1"
                       " AND b.player = p.player_b ORDER BY p.table_number", system,
                       setup=setup)
    return [[str(t), a, num(sa), bb, num(sb)] for t, a, sa, bb, sb in rows]


def num(v):
    """A number as JavaScript prints it (2.0 is 2)."""
    if v is None:
        return ""
    return str(int(v)) if float(v).is_integer() else str(v)


def test_trf_file(browser):
    """sql/example.trf through trf_matches and trf_players, ranked by the
    file's own tie-break order (trf_policy), and its next round by Dutch."""
    b = browser
    text = open_example_file(b, "example.trf", "Example Open (five players, three rounds)",
                             "file")
    heads = b.js("return [...document.querySelectorAll('#standings thead th')]"
                 ".map(th => th.textContent)")
    assert heads[:7] == ["#", "Player", "Points", "BH-C1", "BH", "SB", "DE"]
    assert heads[-1] == "Dropped"
    want = native_text(text, "SELECT rank, name, points, buchholz_cut1, sonneborn_berger"
                       " FROM standings(?1, trf_policy(?1), NULL, NULL, 'trf_matches', '',"
                       " 'trf_players')")
    assert [(g[0], g[1], g[2], g[3], g[5]) for g in table_rows(b)] == [
        (str(r), n, num(p), num(bh), num(sb)) for r, n, p, bh, sb in want]
    assert want[0][1] == "Adams, Ann"
    b.click("#tab-pairings")
    assert b.js("return document.getElementById('system').value") == "dutch"
    # The file's three rounds (XXR 3) are played: no round 4 to pair, and the page says so,
    # as a note, not as a fault of the file.
    assert pairing_rows(b) == []
    assert b.js("return document.getElementById('pairings-note').textContent") == (
        "All 3 rounds the file schedules are played: the event is finished. "
        "pairings(): the event of the file: round 4 is past the 3 rounds the file schedules"
        " (XXR or 142); rounds=N schedules more")
    assert b.js("return document.getElementById('pairings-note').className") == "note"
    # From rounds 1 and 2 only: round 3 as the Dutch system pairs it.
    choose(b, "round", "2")
    want = native_pairings(text, "dutch", "'played_so_far', 'trf_players'",
                           "CREATE TEMP VIEW played_so_far AS SELECT event_id, * FROM"
                           " trf_matches WHERE round <= 2")
    assert pairing_rows(b) == want and len(want) == 3
    heads = b.js("return [...document.querySelectorAll('#pairings thead th')]"
                 ".map(th => th.textContent)")
    assert heads == ["Table", "White", "Score", "Black", "Score", "Why"]


def test_melee_file(browser, tmp_path):
    """A Melee.gg file with a date: melee_matches and melee_players, the
    preset of its era (melee_policy), rows it gets wrong listed and left out."""
    b = browser
    with open(REPO / "sql" / "import" / "example_results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    rounds = {}
    for r in rows:
        rounds.setdefault(r["Round"], []).append(
            {"Player1": r["Player 1"], "Player2": r["Player 2"] or "-",
             "Result": r["Result"] or "2-0-0"})
    rounds["5"].append({"Player1": "Nobody", "Player2": "Ghost", "Result": "2-x"})
    melee = {"Tournament": {"Name": "Friday Modern", "Date": "2024-08-02T18:00:00"},
             "Rounds": [{"RoundName": f"Round {n}", "Matches": m} for n, m in rounds.items()]}
    text = json.dumps(melee)
    path = tmp_path / "melee.json"
    path.write_text(text)
    open_file(b, path)
    assert native_text(text, "SELECT melee_policy(?1)") == [("melee_2024",)]
    assert b.js("return document.getElementById('policy').selectedOptions[0].textContent") == (
        "the file's: melee_2024")
    want = native_text(text, f"SELECT rank, player, match_points, {pct('omwp')}, {pct('gwp')}"
                       " FROM standings(?1, melee_policy(?1), NULL, NULL, 'melee_matches', '',"
                       " 'melee_players')")
    assert [g[:5] for g in table_rows(b)] == [[str(r), p, str(m), o, g] for r, p, m, o, g in want]
    assert b.js("return document.getElementById('problems').textContent") == (
        "1 row(s) need fixing (melee_problems, left out):"
        "Round 5, Nobody - Ghost: the result is not W-L-D")


# --------------------------------------------------------------- pairings

def test_pairings_of_the_next_round(browser, rcq):
    b = browser
    open_file(b, rcq)
    assert b.js("return document.getElementById('tab-pairings').textContent") == (
        "Pairings of round 9")
    b.click("#tab-pairings")
    assert b.js("return document.getElementById('standings-view').hidden") is True
    want = native(rcq, "SELECT table_number, player_a, score_a, coalesce(player_b, '(bye)'),"
                       " score_b FROM pairings(2, 'mtg') ORDER BY table_number")
    assert pairing_rows(b) == [[str(t), a, num(sa), bb, num(sb)] for t, a, sa, bb, sb in want]
    assert len(want) == 58
    # After round 3: round 4 as mtg pairs it from rounds 1-3.
    choose(b, "round", "3")
    conn = sqlite3.connect(rcq)
    conn.enable_load_extension(True)
    conn.load_extension(sqlcases.default_ext())
    conn.execute("CREATE TEMP VIEW upto3 AS SELECT * FROM matches WHERE round <= 3")
    want = conn.execute("SELECT table_number, player_a, score_a, coalesce(player_b, '(bye)'),"
                        " score_b, round FROM pairings(2, 'mtg', NULL, 'upto3')"
                        " ORDER BY table_number").fetchall()
    conn.close()
    assert {w[5] for w in want} == {4}
    assert pairing_rows(b) == [[str(t), a, num(sa), bb, num(sb)] for t, a, sa, bb, sb, _ in want]
    assert b.js("return document.querySelector('#pairings-view h2').textContent").startswith(
        "Pairings of round 4")
    # A system that cannot pair the event says why; the standings stay.
    choose(b, "system", "berger")
    note = b.js("return document.getElementById('pairings-note').textContent")
    # a Magic Swiss is no round robin: the round and the player that leave the table
    assert note.startswith("pairings(): event 2: berger: the event is not a round robin of "
                           "its table: in round 1 player "), note
    assert b.js("return document.querySelectorAll('#pairings tbody tr').length") == 0
    assert b.js("return document.body.dataset.status") == "ready"


# ----------------------------------------------------------- the view's link

def view_state(b):
    return b.js("""return {
        policy: document.getElementById('policy').value,
        round: document.getElementById('round').value,
        system: document.getElementById('system').value,
        pairings: !document.getElementById('pairings-view').hidden,
        player: document.getElementById('player-name').textContent,
        rows: [...document.querySelectorAll('#standings tbody tr')]
          .map(tr => [...tr.cells].map(td => td.textContent).join('|')),
        tables: [...document.querySelectorAll('#pairings tbody tr')]
          .map(tr => [...tr.cells].map(td => td.textContent).join('|'))}""")


def open_link(b, url):
    """A fresh page at url (not a jump within the page already open)."""
    b.get("about:blank")
    b.get(url)
    assert b.wait_for(READY) == "ready"


def test_link_reopens_the_example_view(browser, rcq):
    b = browser
    open_link(b, b.url + "#src=example")
    choose(b, "policy", "pokemon")
    choose(b, "round", "3")
    b.click("#standings tbody tr:nth-child(12)")
    b.click("#tab-pairings")
    before = view_state(b)
    link = b.js("return document.getElementById('link').href")
    assert link == b.js("return location.href")
    assert "policy=pokemon" in link and "round=3" in link and "view=pairings" in link
    open_link(b, link)
    after = view_state(b)
    assert after == before
    assert after["round"] == "3" and after["pairings"] and len(after["rows"]) == 116
    want = native(rcq, "SELECT rank, player FROM standings(2, 'pokemon', NULL, 3)")
    assert [r.split("|")[:2] for r in after["rows"]] == [[str(r), p] for r, p in want]
    assert after["player"] == want[11][1]
    # A link pasted into the same tab changes only the hash: the view follows.
    b.js("location.hash = '#src=example&event=2&policy=mtg&round=2'")
    b.wait_for("document.getElementById('round').value === '2'")
    assert b.wait_for(READY) == "ready"
    want = native(rcq, "SELECT rank, player FROM standings(2, 'mtg', NULL, 2)")
    assert [g[:2] for g in table_rows(b)] == [[str(r), p] for r, p in want]
    assert b.js("return document.getElementById('standings-view').hidden") is False


@pytest.fixture(scope="module")
def two_events(tmp_path_factory, rcq):
    """rcq.db with the 24-player event 1 of sql/example.sql beside event 2."""
    path = tmp_path_factory.mktemp("web") / "two.db"
    shutil.copyfile(rcq, path)
    conn = sqlite3.connect(path)
    conn.executescript((REPO / "sql" / "example.sql").read_text())
    conn.commit()
    conn.close()
    return path


def test_link_to_a_file_asks_for_the_file(browser, two_events):
    b = browser
    open_file(b, two_events)
    assert b.js("return [...document.getElementById('event').options].map(o => o.text)") == [
        "1 (59 matches)", "2 (434 matches)"]
    assert b.js("return document.getElementById('event').value") == "1"  # the last: event 2
    choose(b, "event", "0")
    choose(b, "round", "4")
    b.click("#standings tbody tr:nth-child(3)")
    before = view_state(b)
    link = b.js("return document.getElementById('link').href")
    assert "file=two.db" in link and "event=1" in link and "round=4" in link
    assert b.js("return document.getElementById('link-note').textContent") == (
        "(with two.db opened again: a page cannot open files by itself)")
    b.get("about:blank")
    b.get(link)
    b.wait_for("document.body.dataset.status === 'empty'")
    assert b.js("return document.getElementById('reopen').hidden") is False
    assert b.js("return document.getElementById('reopen').textContent") == (
        "This link shows two.db (event 1, policy mtg, after round 4). A page cannot open"
        " files by itself: open that file again with Open file… to see the view.")
    b.send_file("#file", two_events)
    assert b.wait_for(READY) == "ready"
    assert view_state(b) == before
    assert b.js("return document.getElementById('reopen').hidden") is True
    want = native(two_events, "SELECT rank, player FROM standings(1, 'mtg', NULL, 4)")
    assert [r.split("|")[:2] for r in before["rows"]] == [[str(r), p] for r, p in want]
    assert before["player"] == want[2][1]


# ---------------------------------------------------------------- a phone

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
OVERFLOW = """return [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
    .map(e => e.tagName + (e.id ? '#' + e.id : ''))"""
VISIBLE_HEADS = ("return [...document.querySelectorAll(arguments[0] + ' thead th')]"
                 ".filter(th => th.offsetParent !== null).map(th => th.textContent)")


def phone_shot(b, path):
    path.write_bytes(base64.b64decode(b.cdp("Page.captureScreenshot", {"format": "png"})["data"]))


def test_phone_layout(browser, tmp_path):
    """390x844 (an iPhone's viewport): no horizontal scrolling, the tables keep
    rank, player, the first two keys and the record."""
    b = browser
    b.cdp("Emulation.setDeviceMetricsOverride", PHONE)
    try:
        open_link(b, b.url + "#src=example")
        assert b.js("return innerWidth") == 390
        assert b.js("return document.documentElement.scrollWidth") <= 390
        assert b.js(OVERFLOW) == []
        assert b.js(VISIBLE_HEADS, "#standings") == ["#", "Player", "Points", "OMW%", "W-L-D"]
        names = b.js("return [...document.querySelectorAll('#standings td.player')]"
                     ".filter(td => td.offsetParent !== null).map(td => td.textContent)")
        assert len(names) == 116 and names[0] == "Uma Rossi"
        # What the table leaves out is in the selected player's line.
        assert b.js("return document.getElementById('player-line').textContent") == (
            "1st · Points 22 · OMW% 64.24% · GW% 88.24% · OGW% 55.35% · 7-0-1")
        phone_shot(b, artifact("phone.png", tmp_path))
        b.click("#tab-pairings")
        assert b.js("return document.documentElement.scrollWidth") <= 390
        assert b.js(OVERFLOW) == []
        assert b.js(VISIBLE_HEADS, "#pairings") == ["Table", "Player", "Score", "Opponent",
                                                    "Score"]
        phone_shot(b, artifact("phone-pairings.png", tmp_path))
        # Divisions and long names (a TOM file) fit too.
        b.get(b.url)
        b.wait_for("document.body.dataset.status === 'empty'")
        b.send_file("#file", REPO / "sql" / "example.tdf")
        assert b.wait_for(READY) == "ready"
        assert b.js("return document.documentElement.scrollWidth") <= 390
        assert b.js(OVERFLOW) == []
        phone_shot(b, artifact("phone-divisions.png", tmp_path))
    finally:
        b.cdp("Emulation.clearDeviceMetricsOverride")


# ------------------------------------------------------------------ print

CONTROLS = ["Open file", "Example event", "Event", "Policy", "After round", "Link to this view",
            "Why is one player", "Matches of", "Rank after each round", "System", "Ready"]


def print_pdf(b, name, tmp_path):
    """The page printed by Chromium on A4 (narrower than Letter), kept as
    NAME.pdf and NAME-1.png (page 1); returns the PDF's path."""
    if not shutil.which("pdftotext") or not shutil.which("pdftoppm"):
        pytest.skip("pdftotext not found (apt-get install poppler-utils)")
    pdf = artifact(f"{name}.pdf", tmp_path)
    data = b.cdp("Page.printToPDF", {"paperWidth": 210 / 25.4, "paperHeight": 297 / 25.4})["data"]
    pdf.write_bytes(base64.b64decode(data))
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile",
                    str(pdf), str(pdf.with_name(f"{name}-1"))], check=True)
    return pdf


def pdf_pages(pdf):
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                         capture_output=True, text=True).stdout
    return [p for p in out.split("\f") if p.strip()]


def pdf_words_outside(pdf):
    """Words that do not fit their page (a cut column would)."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True,
                         capture_output=True, text=True).stdout
    outside = []
    for page in re.findall(r'<page width="([\d.]+)" height="[\d.]+">(.*?)</page>', out, re.S):
        width = float(page[0])
        for x_max, word in re.findall(r'xMax="([\d.]+)"[^>]*>([^<]*)<', page[1]):
            if float(x_max) > width:
                outside.append(word)
    return outside


def test_print_every_player_and_no_controls(browser, rcq, tmp_path):
    b = browser
    open_file(b, rcq)
    pdf = print_pdf(b, "print", tmp_path)
    pages = pdf_pages(pdf)
    text = "\n".join(pages)
    names = [p for (p,) in native(rcq, "SELECT player FROM standings(2, 'mtg')")]
    assert len(names) == 116
    assert [n for n in names if n not in text] == []
    assert [c for c in CONTROLS if c in text] == []
    # Every page repeats the table's header; every column is on the page.
    assert len(pages) >= 2
    assert all("ABOVE THE NEXT BY" in p and "OGW%" in p for p in pages)
    assert pdf_words_outside(pdf) == []
    assert "116 players · event 2 · mtg · after round 8" in text


def test_print_divisions_and_pairings(browser, league, tmp_path):
    b = browser
    open_file(b, league)
    text = "\n".join(pdf_pages(print_pdf(b, "print-divisions", tmp_path)))
    names = [n for (n,) in native(league, "SELECT name FROM players")]
    assert [n for n in names if n not in text] == []
    heads = [line.strip() for line in text.splitlines()
             if re.fullmatch(r"\s*(Juniors|Seniors|Masters) \d+ players\s*", line)]
    assert [h.split()[0] for h in heads] == ["Juniors", "Seniors", "Masters"]
    # The pairings tab prints the pairings.
    b.click("#tab-pairings")
    pages = pdf_pages(print_pdf(b, "print-pairings", tmp_path))
    text = "\n".join(pages)
    assert "Pairings of round 6" in text
    tables = native(league, "SELECT a.name, b.name FROM pairings(1, 'mtg') AS p"
                            " JOIN players AS a ON a.player = p.player_a"
                            " LEFT JOIN players AS b ON b.player = p.player_b")
    assert all(a in text and (bb is None or bb in text) for a, bb in tables)
    assert [c for c in CONTROLS if c in text] == []
