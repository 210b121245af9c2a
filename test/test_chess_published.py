"""The FIDE tie-break exercise (../shared/chess), reproduced from its TRF files.

Every value of held_published.json -- the published answers of IA Mario
Held's "Exercises in Tie-Breaking" (rules of 2024, keys '/V1' or none), the
2026-rule values derived from them ('/V2'), and the Direct Encounter ranks --
computed from the TRF text through trf_matches() and trf_players() and
standings() with the C.07 code as the policy, and compared as the exercise
prints it (its decimals, rounded half up).  Without the shared folder
(TIEBREAK_SHARED) the suite exits 77: ctest reports it skipped.
"""
import json
import os
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TIEBREAK_SHARED", REPO.parent / "shared"))
PUBLISHED = SHARED / "chess" / "held_published.json"

DATA = json.loads(PUBLISHED.read_text()) if PUBLISHED.exists() else {}
# The standings() column of each C.07 code.
COLUMN = {"BH": "buchholz", "BH/C1": "buchholz_cut1", "AOB": "aob", "FB": "fore_buchholz",
          "SB": "sonneborn_berger", "SB/C1": "sonneborn_berger_cut1", "ARO": "aro",
          "ARO/C1": "aro_cut1", "TPR": "tpr", "APRO": "apro", "PTP": "ptp", "WIN": "rounds_won",
          "WON": "games_won", "BPG": "black_games", "BWG": "black_wins", "GE": "rounds_elected",
          "PS": "progressive", "PS/C1": "progressive_cut1"}
RULES = {"V1": "2024", "V2": "2026"}


@pytest.fixture(scope="module", autouse=True)
def exercise():
    if not DATA:
        pytest.exit(f"FIDE exercise not found: {PUBLISHED} (set TIEBREAK_SHARED)", returncode=77)


def cases():
    for event in ("swiss_5", "swiss_9") if DATA else ():
        for section in ("published", "derived_2026"):
            for key, values in DATA[event].get(section, {}).items():
                if isinstance(values, dict):
                    yield pytest.param(event, key, values, id=f"{event}-{key}")


@pytest.fixture(scope="module")
def conn(connect):
    conn = connect()
    for event in ("swiss_5", "swiss_9"):
        text = (SHARED / "chess" / DATA[event]["file"]).read_text()
        conn.execute("INSERT INTO matches SELECT ?, * FROM trf_matches(?)", (event, text)) \
            if conn.execute("SELECT 1 FROM sqlite_temp_master WHERE name = 'matches'").fetchone() \
            else conn.execute("CREATE TEMP TABLE matches AS SELECT ? AS event_id, * FROM trf_matches(?)",
                              (event, text))
        if conn.execute("SELECT 1 FROM sqlite_temp_master WHERE name = 'players'").fetchone():
            conn.execute("INSERT INTO players SELECT ?, player, rating FROM trf_players(?)", (event, text))
        else:
            conn.execute("CREATE TEMP TABLE players AS SELECT ? AS event_id, player, rating "
                         "FROM trf_players(?)", (event, text))
    return conn


def as_printed(value, like):
    decimals = len(like.split(".")[1]) if "." in like else 0
    return str(Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), ROUND_HALF_UP))


@pytest.mark.parametrize("event, key, values", list(cases()))
def test_published_values(conn, event, key, values):
    parts = key.split("/")
    rules = RULES[parts.pop()] if parts[-1] in RULES else "2024"
    code = "/".join(parts)
    # the rule year only where the tiebreaker reads it: elsewhere it would be an error
    (options,) = conn.execute("SELECT options FROM tiebreakers WHERE code = ? OR ? = 'GE' AND code = 'REP'",
                              (code, code)).fetchone()
    spec = f"PTS,{code}(rules={rules})" if "rules" in options else f"PTS,{code}"
    got = dict(conn.execute(f"SELECT player, {COLUMN[code]} FROM standings(?, '{spec}')",
                            (event,)).fetchall())
    for player, want in values.items():
        have = got[int(player)]
        if want is None:
            assert have is None, (player, have)
        else:
            assert have is not None and as_printed(have, want) == want, (player, want, have)


@pytest.mark.parametrize("event", ["swiss_5", "swiss_9"] if DATA else [])
def test_direct_encounter_ranks(conn, event):
    (ranks,) = DATA[event]["published_rank"].values()
    got = dict(conn.execute("SELECT player, rank FROM standings(?, 'PTS,DE')", (event,)).fetchall())
    assert {int(p): got[int(p)] for p in ranks} == {int(p): r for p, r in ranks.items()}


def test_every_value_compared():
    n = sum(len(v) for _, _, v in (c.values for c in cases()))
    n += sum(len(next(iter(DATA[e]["published_rank"].values()))) for e in ("swiss_5", "swiss_9"))
    assert n == 358


def test_file_points_and_ranks(conn):
    # check mode: the points each TRF records equal the computed ones
    for event in ("swiss_5", "swiss_9"):
        text = (SHARED / "chess" / DATA[event]["file"]).read_text()
        diff = conn.execute("SELECT count(*) FROM standings(?, 'fide') s JOIN trf_players(?) p "
                            "USING (player) WHERE s.points <> p.points", (event, text)).fetchone()
        assert diff == (0,)
