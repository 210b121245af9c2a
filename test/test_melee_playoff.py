"""One statement per Melee.gg file: melee_policy() picks the preset of the
file's date, melee_matches() marks the playoff rounds (named, or "Round N"
rounds that start a top cut), and the presets value the playoff as Melee
does (playoff_values).  Hand-built events with values computed by hand, and
the Top 8 file of ../shared/real/melee/ edited: its playoff renamed
"Round 6".."Round 8", a final without a winner, a row without names.
"""
import json
import os
import sqlite3
from pathlib import Path

import pytest

from test_melee import event as melee_event
from test_melee_files import compare as compare_values

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TIEBREAK_SHARED", REPO.parent / "shared"))
TOP8 = SHARED / "real" / "melee" / "playoff-dbox-irish-legacy-open-236010-2025-02-01.json"

ONE_STATEMENT = ("SELECT player, rank, match_points, wins, losses, draws, omwp, gwp, ogwp, dropped "
                 "FROM standings(?1, melee_policy(?1), NULL, NULL, 'melee_matches', '', "
                 "'melee_players')")


def event(rounds, date="2025-03-01T10:00:00"):
    return melee_event(rounds, (), date)


@pytest.fixture
def db(connect):
    return connect()


# 8 players, 3 Swiss rounds, then the top 4 (A 9 points, E, C, G 6) in
# "Round 4" (semifinals) and "Round 5" (the final), as some exports name them
SWISS = [("Round 1", [("A", "B", "2-0-0"), ("C", "D", "2-0-0"), ("E", "F", "2-0-0"),
                      ("G", "H", "2-0-0")]),
         ("Round 2", [("A", "C", "2-0-0"), ("E", "G", "2-1-0"), ("B", "D", "2-0-0"),
                      ("F", "H", "2-0-0")]),
         ("Round 3", [("A", "E", "2-1-0"), ("C", "B", "2-0-0"), ("G", "F", "2-0-0"),
                      ("D", "H", "2-0-0")])]
TOP4 = SWISS + [("Round 4", [("A", "G", "2-0-0"), ("E", "C", "2-0-0")]),
                ("Round 5", [("E", "A", "2-1-0")])]


def test_top_cut_named_round_n_is_the_playoff(db):
    assert db.execute("SELECT DISTINCT round, phase FROM melee_matches(?)",
                      (event(TOP4),)).fetchall() == [
        (1, None), (2, None), (3, None), (4, "playoff"), (5, "playoff")]


def test_top_cut_values_and_order_by_hand(db):
    """E won the final, A lost it, then the semifinal losers G and C, then
    the others in Swiss order (B, F, D, H by OMW%).  A (in the playoff): its
    opponents B 1-2, C 2-2, E 4-1 (met twice, once), G 2-2, all rounds:
    (1/3 + 1/2 + 4/5 + 1/2)/4 = 8/15.  C: D 1/3, A 4/5, B 1/3, E 4/5: 17/30.
    B (out of it): as of round 3, A 3-0, D 1-2, C 2-1: (1 + 1/3 + 2/3)/3 =
    2/3 (all rounds would give (4/5 + 1/3 + 1/2)/3 = 0.5444).  G above C:
    both 17/30, GW% 5/9 (5-4) against 1/2 (4-4)."""
    rows = db.execute(ONE_STATEMENT, (event(TOP4),)).fetchall()
    assert [(r[0], r[1]) for r in rows] == [
        ("E", 1), ("A", 2), ("G", 3), ("C", 4), ("B", 5), ("F", 6), ("D", 7), ("H", 8)]
    omwp = {r[0]: round(r[6], 6) for r in rows}
    assert (omwp["A"], omwp["C"], omwp["G"], omwp["B"]) == (
        round(8 / 15, 6), round(17 / 30, 6), round(17 / 30, 6), round(2 / 3, 6))
    assert {r[0]: r[2] for r in rows}["A"] == 12  # 4-1: the playoff counts
    assert [r[9] for r in rows] == [0] * 8  # eliminated or cut, not dropped


def test_without_the_playoff_rounds_the_event_is_swiss(db):
    """The Swiss rounds alone are no playoff; as of round 3 the values are
    the Swiss ones: B's 2/3 as above."""
    rows = db.execute(ONE_STATEMENT, (event(SWISS),)).fetchall()
    assert db.execute("SELECT count(phase) FROM melee_matches(?)", (event(SWISS),)).fetchone() == (0,)
    assert round({r[0]: r[6] for r in rows}["B"], 6) == round(2 / 3, 6)


@pytest.mark.parametrize("rounds, why", [
    # every player of round 4 and of round 3 won the round before: players
    # who leave after a loss (a qualifier), which Melee values as Swiss
    ([("Round 1", [("A", "B", "2-0-0"), ("C", "D", "2-0-0"), ("E", "F", "2-0-0"),
                   ("G", "H", "2-0-0"), ("I", "J", "2-0-0"), ("K", "L", "2-0-0"),
                   ("M", "N", "2-0-0"), ("O", "P", "2-0-0")]),
      ("Round 2", [("A", "C", "2-0-0"), ("E", "G", "2-0-0"), ("I", "K", "2-0-0"),
                   ("M", "O", "2-0-0")]),
      ("Round 3", [("A", "E", "2-0-0"), ("I", "M", "2-0-0")]),
      ("Round 4", [("A", "I", "2-0-0")])], "elimination from round 1"),
    # the last round has 4 of 8 players, but not the top: F (3 points) plays
    # while C (6) does not
    (SWISS + [("Round 4", [("A", "F", "2-0-0"), ("E", "G", "2-0-0")])], "not the top"),
    # a draw: a playoff match has a winner
    (SWISS + [("Round 4", [("A", "G", "2-0-0"), ("E", "C", "1-1-0")])], "a draw"),
    # 6 players: no bracket
    (SWISS + [("Round 4", [("A", "G", "2-0-0"), ("E", "C", "2-0-0"), ("B", "F", "2-0-0")])],
     "6 players"),
])
def test_rounds_that_are_no_playoff(db, rounds, why):
    assert db.execute("SELECT count(phase) FROM melee_matches(?)",
                      (event(rounds),)).fetchone() == (0,), why


def published(text):
    return {s["Player"]: s for s in json.loads(text)["Standings"]}


def compare(rows, pub):
    """(values compared, values matched, places matched)."""
    return compare_values([(r[0], *r[2:9], r[1]) for r in rows], pub)


def top8(edit=None):
    if not TOP8.exists():
        pytest.skip(f"{TOP8} not found")
    doc = json.loads(TOP8.read_text())
    if edit:
        edit(doc)
    return json.dumps(doc)


def test_top8_file_in_one_statement(db):
    text = top8()
    assert db.execute("SELECT melee_policy(?)", (text,)).fetchone() == ("melee_2024",)
    assert compare(db.execute(ONE_STATEMENT, (text,)).fetchall(), published(text)) == (182, 182, 26)


def rename_playoff(doc):
    for k, r in enumerate(doc["Rounds"]):
        r["RoundName"] = "Round %d" % (k + 1)


def test_top8_named_round_n_in_one_statement(db):
    """The same file with its playoff named "Round 6".."Round 8": the top cut
    is found, and every value and place is Melee's."""
    text = top8(rename_playoff)
    assert [r[0] for r in db.execute("SELECT DISTINCT phase FROM melee_matches(?)", (text,))] == [
        None, "playoff"]
    assert compare(db.execute(ONE_STATEMENT, (text,)).fetchall(), published(text)) == (182, 182, 26)


def test_top8_final_without_a_winner(db):
    """The final recorded 0-0-0 is left out and listed; the standings come:
    the two finalists share the reach of the final (Swiss order), the 18
    players out of the Top 8 keep every published value and place."""
    def edit(doc):
        doc["Rounds"][-1]["Matches"][0]["Result"] = "0-0-0"
    text = top8(edit)
    problems = db.execute("SELECT round, round_name, result, problem FROM melee_problems(?)",
                          (text,)).fetchall()
    assert problems == [(8, "Finals", "0-0-0", "a playoff match without a winner")]
    rows = db.execute(ONE_STATEMENT, (text,)).fetchall()
    pub = published(text)
    out = [r for r in rows if pub[r[0]]["Rank"] > 8]
    assert compare(out, pub) == (126, 126, 18)
    assert sorted(pub[r[0]]["Rank"] for r in rows[:2]) == [1, 2]


def test_top8_named_round_n_final_not_reported(db):
    """Named "Round 8", the final recorded 0-0-0 (no result reported) does
    not hide the top cut: it is found, and the final is left out and listed."""
    def edit(doc):
        rename_playoff(doc)
        doc["Rounds"][-1]["Matches"][0]["Result"] = "0-0-0"
    text = top8(edit)
    assert db.execute("SELECT round, round_name, problem FROM melee_problems(?)",
                      (text,)).fetchall() == [(8, "Round 8", "a playoff match without a winner")]
    assert db.execute("SELECT min(round) FROM melee_matches(?) WHERE phase = 'playoff'",
                      (text,)).fetchone() == (6,)


def test_top8_row_without_names(db):
    """A round-5 match without Player2 is left out and listed; the rest of
    the event is ranked."""
    def edit(doc):
        del doc["Rounds"][4]["Matches"][0]["Player2"]
    text = top8(edit)
    assert [r[0] for r in db.execute("SELECT problem FROM melee_problems(?)", (text,))] == [
        "a match without Player1 and Player2 names"]
    assert len(db.execute(ONE_STATEMENT, (text,)).fetchall()) == 26


@pytest.mark.parametrize("date, preset", [
    ("2024-01-20T10:00:00", "melee_2023"), ("2024-05-09", "melee_2023"),
    ("2024-05-10", "melee_2024"), ("2025-11-14T23:00:00", "melee_2024"),
    ("2025-11-15", "melee"), ("2026-08-01T09:30:00", "melee"),
])
def test_policy_by_date(db, date, preset):
    assert db.execute("SELECT melee_policy(?)", (event(SWISS, date),)).fetchone() == (preset,)


@pytest.mark.parametrize("text, message", [
    (json.dumps({"Rounds": []}), "the event has no Tournament.Date (YYYY-MM-DD), which tells "
                                 "the era of Melee's conventions"),
    (json.dumps({"Tournament": {"Date": "01/02/2025"}}), "the event has no Tournament.Date "
     "(YYYY-MM-DD), which tells the era of Melee's conventions"),
    ("{", "malformed JSON"),
])
def test_policy_errors(db, text, message):
    with pytest.raises(sqlite3.OperationalError) as e:
        db.execute("SELECT melee_policy(?)", (text,)).fetchone()
    assert str(e.value) == "melee_policy(): " + message


def test_policy_argument(db):
    with pytest.raises(sqlite3.OperationalError, match=r"^melee_policy\(\): the argument must be"):
        db.execute("SELECT melee_policy(1)").fetchone()
    with pytest.raises(sqlite3.OperationalError, match=r"^melee_policy\(\): the argument must be"):
        db.execute("SELECT melee_policy(NULL)").fetchone()


def test_playoff_values_option(db):
    """playoff_values on a table with a phase column: values over every
    round for the playoff's players, as of the last Swiss round for the
    others; plain mtg counts the Swiss alone."""
    db.execute("CREATE TABLE m AS SELECT 'e' AS event_id, * FROM melee_matches(?)", (event(TOP4),))
    q = ("SELECT player, round(omwp, 6) FROM standings('e', ?, NULL, NULL, 'm') "
         "WHERE player IN ('A', 'B') ORDER BY player")
    assert db.execute(q, ("mtg(floor=1/3, distinct_opponents=1, playoff_values=1)",)).fetchall() == [
        ("A", round(8 / 15, 6)), ("B", round(2 / 3, 6))]
    # the Swiss alone: A's opponents B 1-2, C 2-1, E 2-1: (1/3 + 2/3 + 2/3)/3
    assert db.execute(q, ("mtg(floor=1/3, distinct_opponents=1)",)).fetchall() == [
        ("A", round(5 / 9, 6)), ("B", round(2 / 3, 6))]
