"""The standings page (web/) in headless Chromium: what it shows for the bundled
116-player event (sql/example_large.sql) opened as a SQLite file, checked
against the native module on the same file, and for the CSV and JSON exports
of docs/import.md.  Run by test/web/run.py (which builds the page and sets
CHROMIUM, CHROMEDRIVER, TIEBREAK_WEB, TIEBREAK_EXT)."""
import csv
import json
import os
import sqlite3
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
    assert [g[:3] for g in table_rows(b)[:4]] == EXAMPLE_TOP
    assert b.js("return document.getElementById('event-title').textContent").startswith("FNM")


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
    (b"not sqlite", "notes.txt", "notes.txt: not a SQLite database, .csv or .json file"),
    (b"{\"a\": 1}", "x.json", "JSON: expected an array of rows (objects) or {Rounds: [...]}"),
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
    """The page as docs/web.md shows it (saved where TIEBREAK_SCREENSHOT says)."""
    b = browser
    open_file(b, rcq)
    b.click("#standings tbody tr:nth-child(9)")
    b.wait_for("document.getElementById('player-name').textContent === 'Ines Novak'")
    out = Path(os.environ.get("TIEBREAK_SCREENSHOT") or tmp_path / "page.png")
    b.screenshot(out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


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
    assert status.startswith("standings(): player 'Ann' is paired twice in round 1"), status
