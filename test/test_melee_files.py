"""The raw Melee.gg files of ../shared/real/melee/, each loaded in one statement
(standings() over melee_matches()), against the values Melee published.

TIEBREAK_SHARED overrides the shared directory (default <repo>/../shared);
without it every case is skipped (ctest shows the suite as skipped).

A value matches within half a unit of the 8th decimal (Melee prints 8). Each
file's figures are asserted exactly, with what keeps the rest from matching:
the archive lacks matches that Melee's standings count, which no convention can
recover; test_missing_rows_explain_the_rest puts them back and matches all.
"""
import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TIEBREAK_SHARED", REPO.parent / "shared"))
MELEE = SHARED / "real" / "melee"

# The one statement for every file: the preset of the file's date, the
# playoff found by the reader (docs/melee.md)
ONE_STATEMENT = ("SELECT player, match_points, wins, losses, draws, omwp, gwp, ogwp, rank "
                 "FROM standings(?1, melee_policy(?1), NULL, ?2, 'melee_matches', '', "
                 "'melee_players')")

# file -> (values compared, matched, places matched) by the one statement,
# then (as_of_round, policy or None for melee_policy's, values matched) with
# what the file's rounds cannot say
FIGURES = {
    # every value and place
    "playoff-dbox-irish-legacy-open-236010-2025-02-01.json": ((182, 182, 26), None),
    # Melee's standings were published as of round 4 (records 4-0 at the
    # top); round 5, two matches among the four 4-0 players, came after
    "swiss-harlotte-friday-100-pm-228899-2025-03-07.json": ((420, 382, 36), (4, None, 420)),
    # the file lacks p30f95085e6's round-1 win over p9b8f1a4895 (the reader
    # counts it a bye): that win's two values and four of p9b8f1a4895 (no
    # match row) are off (test_missing_rows_explain_the_rest); the two
    # no-shows' GW% is printed -0.2, a mark standings() leaves NULL
    "swiss-portland-friday-100-pm-197796-2025-02-07.json": ((1099, 1091, 80), None),
    # one Swiss round, then single elimination, which Melee valued with a
    # cut after round 1; other events of that shape it values as Swiss
    # (docs/melee.md#playoff-rounds), so the cut needs its option; the file
    # also lacks two matches of p30bf94b38d (rounds 1 and 3)
    "swiss-ortland-friday-1200-pm-197805-2025-02-07.json":
        ((427, 365, 27), (None, "melee_2024(cut_after=1)", 419)),
}

QUERY = ("SELECT player, match_points, wins, losses, draws, omwp, gwp, ogwp "
         "FROM standings(?, ?, NULL, ?, ?, '', ?)")


def published(path):
    return {s["Player"]: s for s in json.loads(path.read_text())["Standings"]}


def compare(rows, pub):
    """(values compared, values matched[, places matched]) of standings rows
    against Melee's; a 9th column is the rank."""
    n = matched = placed = 0
    for row in rows:
        player, mp, w, l, d, omwp, gwp, ogwp = row[:8]
        s = pub[player]
        for got, want in ((mp, s["Points"]), (w, s["Wins"]), (l, s["Losses"]), (d, s["Draws"])):
            n += 1
            matched += got == want
        for got, want in ((omwp, s["OMWP"]), (gwp, s["GWP"]), (ogwp, s["OGWP"])):
            n += 1
            matched += got is not None and abs(got - want) <= 5e-9
        placed += len(row) > 8 and row[8] == s["Rank"]
    return (n, matched, placed) if rows and len(rows[0]) > 8 else (n, matched)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_published_values(connect, name):
    path = MELEE / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    one, more = FIGURES[name]
    pub = published(path)
    conn = connect()
    text = path.read_text()
    rows = conn.execute(ONE_STATEMENT, (text, None)).fetchall()
    assert len(rows) == len(pub)
    assert compare(rows, pub) == one
    assert conn.execute("SELECT count(*) FROM melee_problems(?)", (text,)).fetchone() == (0,)
    if more:
        as_of, policy, n_matched = more
        rows = conn.execute(QUERY, (text, policy or "melee_2024", as_of, "melee_matches",
                                    "melee_players")).fetchall()
        assert compare(rows, pub)[1] == n_matched


# The matches each file lacks, as its published standings prove them
# (docs/melee.md#figures-on-real-files): (round, winner, loser, a_wins,
# b_wins), each replacing the rows the reader inferred for those rounds.
MISSING = {
    "swiss-portland-friday-100-pm-197796-2025-02-07.json": [
        (1, "p30f95085e6", "p9b8f1a4895", 2, 0)],
    "swiss-ortland-friday-1200-pm-197805-2025-02-07.json": [
        (1, "p30bf94b38d", "p18a6530590", 2, 0),
        (3, "p30bf94b38d", "pf3c15c3e50", 2, 0)],
}


@pytest.mark.parametrize("name", sorted(MISSING))
def test_missing_rows_explain_the_rest(connect, name):
    """With the lacking matches in place of what the reader inferred, every
    published value of every player with a row matches."""
    path = MELEE / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    policy = (FIGURES[name][1] or (None, None))[1] or "melee_2024"
    conn = connect()
    conn.execute("CREATE TEMP TABLE m AS SELECT ? AS event_id, * FROM melee_matches(?)",
                 ("e", path.read_text()))
    for rnd, a, b, wa, wb in MISSING[name]:
        gone = conn.execute("DELETE FROM m WHERE round = ? AND source = 'standings' "
                            "AND player_a IN (?, ?)", (rnd, a, b)).rowcount
        assert gone >= 1  # the reader had a bye or a lone loss there
        conn.execute("INSERT INTO m (event_id, round, player_a, player_b, a_wins, b_wins, draws)"
                     " VALUES ('e', ?, ?, ?, ?, ?, 0)", (rnd, a, b, wa, wb))
    pub = published(path)
    rows = conn.execute(QUERY, ("e", policy, None, "m", None)).fetchall()
    n, matched = compare(rows, pub)
    assert matched == n == 7 * len(rows)
    # left: the registered no-shows (Portland ReCQ: two, printed GW% -0.2)
    no_shows = [p for p in pub if p not in {r[0] for r in rows}]
    assert all(pub[p]["Wins"] + pub[p]["Losses"] + pub[p]["Draws"] == 0 for p in no_shows)
    assert len(no_shows) == (2 if "197796" in name else 0)


def test_players_are_the_published_standings(connect):
    path = MELEE / "swiss-portland-friday-100-pm-197796-2025-02-07.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    conn = connect()
    text = path.read_text()
    rows = conn.execute("SELECT player, name, division, rating, status, dropped_after, rank, "
                        "points, wins, losses, draws, omwp, gwp, ogwp FROM melee_players(?)",
                        (text,)).fetchall()
    want = [(s["Player"], s["Player"], None, None, None, None, s["Rank"], s["Points"],
             s["Wins"], s["Losses"], s["Draws"], s["OMWP"], s["GWP"], s["OGWP"])
            for s in json.loads(text)["Standings"]]
    assert rows == want and len(rows) == 157
    # the registered players without a match row: two no-shows, and the
    # player whose only match the file lacks
    no_rows = conn.execute(
        "SELECT player, points, omwp, gwp FROM melee_players(?1) WHERE player NOT IN "
        "(SELECT player_a FROM melee_matches(?1) UNION "
        " SELECT player_b FROM melee_matches(?1) WHERE player_b IS NOT NULL) ORDER BY rank",
        (text,)).fetchall()
    assert no_rows == [("p9b8f1a4895", 0, 0.66666667, 0.0),
                       ("pbe57ac6826", 0, 0.33333333, -0.2),
                       ("pfe794087e7", 0, 0.33333333, -0.2)]


# the final standings: the playoff rounds are marked by melee_matches' phase
FINAL_ORDER = ("SELECT player FROM standings(?1, 'mtg(floor=1/3, own_gwp_floor=0)', "
               "NULL, NULL, 'melee_matches', '')")


def test_top8_final_order(connect):
    path = MELEE / "playoff-dbox-irish-legacy-open-236010-2025-02-01.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    order = [r[0] for r in connect().execute(FINAL_ORDER, (path.read_text(),))]
    want = [p for p, _ in sorted(published(path).items(), key=lambda kv: kv[1]["Rank"])]
    assert order == want
    assert len(order) == 26


def preset_of(date):
    """The Melee preset of an event's date (docs/policy-mtg.md#melee-gg)."""
    return "melee_2023" if date < "2024-05-10" else ("melee_2024" if date < "2025-11-15" else "melee")


# The corpus events whose published values freeze the players who did not
# play after a round N (docs/policy-mtg.md#melee-gg): a playoff the export
# names "Round N" after N Swiss rounds (150 of the melee_2023 era), one Swiss
# round then single elimination, and 882; and the one best-of-one event,
# whose byes are 1-0.
EVENT_OPTIONS = {
    **{e: f"cut_after={n}" for e, n in {
        358: 5, 450: 6, 491: 5, 533: 8, 589: 1, 592: 1, 595: 7, 597: 8, 608: 3, 615: 4,
        627: 1, 650: 7, 689: 5, 709: 6, 720: 5, 820: 6, 861: 1, 882: 2, 905: 5, 1029: 5,
        1055: 1, 150: 5}.items()},
    1081: "best_of=1",
}


def corpus_figures(conn, options):
    """(events reproduced whole, values compared, values matched, whole per era)."""
    events = conn.execute("SELECT event_id, date FROM events WHERE platform = 'melee'").fetchall()
    assert len(events) == 188
    whole = values = matched = 0
    per_era = {}
    for event_id, date in events:
        pub = {r[0]: r[1:] for r in conn.execute(
            "SELECT player, points, omwp, gwp, ogwp FROM published WHERE event_id = ?", (event_id,))}
        era = preset_of(date)
        policy = f"{era}({options[event_id]})" if event_id in options else era
        bad = 0
        for p, mp, omwp, gwp, ogwp in conn.execute(
                "SELECT player, match_points, omwp, gwp, ogwp FROM standings(?, ?)",
                (event_id, policy)):
            s = pub.get(p)
            if s is None:  # a player the platform did not publish
                continue
            values += 4
            bad += mp != s[0]
            for got, want in ((omwp, s[1]), (gwp, s[2]), (ogwp, s[3])):
                bad += got is None or abs(got - want) > 5.1e-7  # 6 decimals published
        whole += bad == 0
        per_era[era] = per_era.get(era, 0) + (bad == 0)
        matched += bad
    return whole, values, values - matched, per_era


@pytest.fixture(scope="module")
def corpus(connect):
    path = SHARED / "real" / "mtg_real_events.sql"
    if not path.exists():
        pytest.skip(f"{path} not found")
    conn = connect()
    conn.executescript(path.read_text())
    return conn


def test_presets_by_era_on_the_corpus(corpus):
    figures = corpus_figures(corpus, {})
    assert figures == (161, 23024, 21398, {"melee_2023": 15, "melee_2024": 76, "melee": 70})


def test_presets_with_each_events_options(corpus):
    figures = corpus_figures(corpus, EVENT_OPTIONS)
    assert figures == (184, 23024, 22260, {"melee_2023": 16, "melee_2024": 98, "melee": 70})
    # without the option, none of the 23 reproduces
    for event_id, option in EVENT_OPTIONS.items():
        date = corpus.execute("SELECT date FROM events WHERE event_id = ?", (event_id,)).fetchone()[0]
        off = ""
        a = corpus.execute("SELECT player, gwp, omwp, ogwp FROM standings(?, ?)",
                           (event_id, f"{preset_of(date)}({option})")).fetchall()
        b = corpus.execute("SELECT player, gwp, omwp, ogwp FROM standings(?, ?)",
                           (event_id, f"{preset_of(date)}({off})")).fetchall()
        assert a != b, event_id


def as_file(conn, event_id, date):
    """A corpus event as the Melee file an archive keeps: rounds "Round N",
    byes "-", the published standings, the date."""
    rounds = {}
    for rnd, a, b, wa, wb, d in conn.execute(
            "SELECT round, player_a, player_b, a_wins, b_wins, draws FROM matches "
            "WHERE event_id = ? ORDER BY rowid", (event_id,)):
        rounds.setdefault(rnd, []).append(
            {"Player1": a, "Player2": "-" if b is None else b, "Result": f"{wa}-{wb}-{d}"})
    standings = [dict(zip(("Rank", "Player", "Points", "Wins", "Losses", "Draws", "OMWP", "GWP",
                           "OGWP"), r)) for r in conn.execute(
        "SELECT rank, player, points, wins, losses, draws, omwp, gwp, ogwp FROM published "
        "WHERE event_id = ? ORDER BY rank", (event_id,))]
    return json.dumps({"Tournament": {"Date": date},
                       "Rounds": [{"RoundName": f"Round {r}", "Matches": rounds[r]}
                                  for r in sorted(rounds)],
                       "Standings": standings})


def test_corpus_as_files_in_one_statement(corpus):
    """Each Melee event of the corpus, written as its file, through the one
    statement: 164 of 188 reproduce every published value (156 before the
    reader found playoffs and the presets valued them, measured with the
    preset of each date).  Those gained are the events with a top cut that
    the export names "Round N" (150, 358, 491, 533, 595, 689, 709, 820,
    905); 374, a 16-player event whose Top 8 Melee valued as Swiss rounds,
    was lost.  The rest: docs/melee.md#figures-on-real-files."""
    off = []
    for event_id, date in corpus.execute(
            "SELECT event_id, date FROM events WHERE platform = 'melee'").fetchall():
        text = as_file(corpus, event_id, date)
        pub = {r[0]: r[1:] for r in corpus.execute(
            "SELECT player, points, omwp, gwp, ogwp FROM published WHERE event_id = ?",
            (event_id,))}
        bad = 0
        for p, mp, omwp, gwp, ogwp in corpus.execute(
                "SELECT player, match_points, omwp, gwp, ogwp FROM standings(?1, "
                "melee_policy(?1), NULL, NULL, 'melee_matches', '', 'melee_players')", (text,)):
            s = pub.get(p)
            if s is None:  # a player the platform did not publish
                continue
            bad += mp != s[0]
            bad += sum(g is None or abs(g - w) > 5.1e-7 for g, w in zip((omwp, gwp, ogwp), s[1:]))
        if bad:
            off.append(event_id)
    assert len(off) == 188 - 164
    assert 374 in off and not {150, 358, 491, 533, 595, 689, 709, 820, 905} & set(off)
