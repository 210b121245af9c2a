"""The raw Melee.gg files of ../shared/real/melee/, each loaded in one statement
(standings() over melee_matches()), against the values Melee published.

TIEBREAK_SHARED overrides the shared directory (default <repo>/../shared);
without it every case is skipped (ctest shows the suite as skipped).

A value matches within half a unit of the 8th decimal (Melee prints 8). Each
file's figures are asserted exactly, with what keeps the rest from matching:
the archive lacks rows that Melee's standings count, which no convention can
recover.
"""
import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TIEBREAK_SHARED", REPO.parent / "shared"))
MELEE = SHARED / "real" / "melee"

# Melee 2025: floor 1/3, the player's own GW% printed without it
POLICY = "mtg(floor=1/3, own_gwp_floor=0)"

# file -> (as_of_round, values compared, values matched, published players absent)
FIGURES = {
    # every value; the published records count rounds 1-4 (round 5 is the
    # final of this single-elimination qualifier)
    "swiss-harlotte-friday-100-pm-228899-2025-03-07.json": (4, 420, 420, 0),
    # two no-shows and a player without any row are not in the rows; one
    # OMW% and one OGW% differ, cause not found
    "swiss-portland-friday-100-pm-197796-2025-02-07.json": (5, 1078, 1076, 3),
    # round 3 lists 7 matches where the records count 8: the missing match
    # moves its players' opponents' values (58 OMW%/OGW%)
    "swiss-ortland-friday-1200-pm-197805-2025-02-07.json": (5, 420, 362, 1),
    # Melee's standings include the Top 8 matches: records and GW% match
    # over every round; OMW%/OGW% of 17 players follow a rule not found
    "playoff-dbox-irish-legacy-open-236010-2025-02-01.json": (8, 182, 148, 0),
}

QUERY = ("SELECT player, match_points, wins, losses, draws, omwp, gwp, ogwp "
         "FROM standings(?, ?, NULL, ?, 'every_round', '')")

# Melee's published values count the playoff rounds (the Top 8 event): the
# rows without their phase, so that every round is read as Swiss
EVERY_ROUND = ("CREATE TEMP VIEW every_round AS SELECT event_id, round, player_a, "
               "player_b, a_wins, b_wins, draws, result FROM melee_matches")


def published(path):
    return {s["Player"]: s for s in json.loads(path.read_text())["Standings"]}


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_published_values(connect, name):
    path = MELEE / name
    if not path.exists():
        pytest.skip(f"{path} not found")
    as_of, n_values, n_matched, n_absent = FIGURES[name]
    pub = published(path)
    conn = connect()
    conn.execute(EVERY_ROUND)
    rows = conn.execute(QUERY, (path.read_text(), POLICY, as_of)).fetchall()
    n = matched = 0
    for player, mp, w, l, d, omwp, gwp, ogwp in rows:
        s = pub[player]
        for got, want in ((mp, s["Points"]), (w, s["Wins"]), (l, s["Losses"]), (d, s["Draws"])):
            n += 1
            matched += got == want
        for got, want in ((omwp, s["OMWP"]), (gwp, s["GWP"]), (ogwp, s["OGWP"])):
            n += 1
            matched += got is not None and abs(got - want) <= 5e-9
    assert (n, matched, len(pub) - len(rows)) == (n_values, n_matched, n_absent)


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
    return "melee_2023" if date < "2024-05" else ("melee_2024" if date < "2025-11-15" else "melee")


def test_presets_by_era_on_the_corpus(connect):
    corpus = SHARED / "real" / "mtg_real_events.sql"
    if not corpus.exists():
        pytest.skip(f"{corpus} not found")
    conn = connect()
    conn.executescript(corpus.read_text())
    events = conn.execute("SELECT event_id, date FROM events WHERE platform = 'melee'").fetchall()
    whole = values = matched = 0
    per_era = {}
    for event_id, date in events:
        pub = {r[0]: r[1:] for r in conn.execute(
            "SELECT player, points, omwp, gwp, ogwp FROM published WHERE event_id = ?", (event_id,))}
        bad = 0
        for p, mp, omwp, gwp, ogwp in conn.execute(
                "SELECT player, match_points, omwp, gwp, ogwp FROM standings(?, ?)",
                (event_id, preset_of(date))):
            s = pub.get(p)
            if s is None:  # a player the platform did not publish
                continue
            values += 4
            bad += mp != s[0]
            for got, want in ((omwp, s[1]), (gwp, s[2]), (ogwp, s[3])):
                bad += got is None or abs(got - want) > 5.1e-7  # 6 decimals published
        whole += bad == 0
        era = preset_of(date)
        per_era[era] = per_era.get(era, 0) + (bad == 0)
        matched -= bad
    matched += values  # every value compared, less the mismatches
    assert len(events) == 188
    assert (whole, values, matched) == (157, 23024, 21252)
    assert per_era == {"melee_2023": 15, "melee_2024": 73, "melee": 69}
