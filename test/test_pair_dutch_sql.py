"""pairings(..., 'dutch'): the FIDE Dutch system through SQL.

The states before rounds 1, 2 and 5 of a 16-player Swiss (TRF text, as an arbiter has it before
pairing: the round's H entry makes a player absent) and the pairing an endorsed engine made
for each round (test/data/pairing/dutch/examples).  Every round of 78 whole tournaments is
checked by test_pair_dutch (ctest pair_dutch) on the C function itself.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_pair_dutch_sql.py -q
"""
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent / "data" / "pairing" / "dutch" / "examples"
STEM = "rtg-016p-07r-s2"


@pytest.fixture
def db(connect):
    con = connect()
    yield con
    con.close()


def expected(k):
    """{(white, black)} and the bye's player (or None) of the engine's round k."""
    pairs, bye = set(), None
    for line in (EXAMPLES / f"{STEM}.round-{k}.txt").read_text().split("\n"):
        if not line.strip():
            continue
        a, b = map(int, line.split())
        if b == 0:
            bye = a
        else:
            pairs.add((a, b))
    return pairs, bye


@pytest.mark.parametrize("k", [1, 2, 5])
def test_dutch_round_from_trf_text_as_the_engine_paired_it(db, k):
    text = (EXAMPLES / f"{STEM}.before-round-{k}.trf").read_text()
    rows = db.execute("SELECT table_number, number_a, number_b FROM pairings(?, 'dutch', NULL, "
                      "'trf_matches', 'trf_players')", (text,)).fetchall()
    want_pairs, want_bye = expected(k)
    assert {(a, b) for _, a, b in rows if b is not None} == want_pairs
    assert [a for _, a, b in rows if b is None] == ([want_bye] if want_bye else [])
    assert [t for t, _, _ in rows] == list(range(1, len(rows) + 1))


def test_dutch_tables_in_order_of_scores(db):
    text = (EXAMPLES / f"{STEM}.before-round-5.trf").read_text()
    rows = db.execute("SELECT score_a, score_b, player_b FROM pairings(?, 'dutch', NULL, "
                      "'trf_matches', 'trf_players') ORDER BY table_number", (text,)).fetchall()
    games = [(max(a, b), min(a, b)) for a, b, p in rows if p is not None]
    assert games == sorted(games, reverse=True)


def test_dutch_rejects_an_unknown_option(db):
    text = (EXAMPLES / f"{STEM}.before-round-5.trf").read_text()
    with pytest.raises(Exception, match="pairings\\(\\)"):
        db.execute("SELECT * FROM pairings(?, 'dutch(top=8)', NULL, 'trf_matches', "
                   "'trf_players')", (text,)).fetchall()
