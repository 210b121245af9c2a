"""Conformance against real published standings (../shared/real/mtg_real_events.sql).

TIEBREAK_SHARED overrides the shared directory (default <repo>/../shared).

Corpus facts these tests rely on (checked with reference_mtg.py, exact fractions):
* Players published with an all-zero row but absent from every match (events 42 and
  126) cannot appear in standings computed from matches; they are checked to be absent.
* Published ranks are distinct (1..n): exact ties are ordered by the platform in a
  way unrelated to the pseudonymous ids, so only order *between* different keys is
  asserted; tied players must form a contiguous block of the published order.
* OWN_GWP_UNFLOORED events (labelled 'floor_1/3', Melee Nov 2024 - Nov 2025) print
  and rank by the player's own game-win % without the floor (0.0 for players with no
  game points, 0.3 for 9/30) while still flooring it inside OGWP. There the published
  GWP and order are compared with policy 'mtg(floor=1/3, own_gwp_floor=0)', and the
  labelled convention's gwp must still be the floored value.
* Tolerance is half a unit of the event's printing precision (the most decimals of
  any value it published): shortest float reprs drop trailing zeros (0.3 is
  0.3000000), so per-value precision would be far too lax.
"""
import os
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

import reference_mtg

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TIEBREAK_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "real" / "mtg_real_events.sql"

CONVENTION_SQL = {
    "floor_1/3": "SELECT * FROM standings(?, 'mtg', '1/3')",
    "third_drawgame0": "SELECT * FROM standings(?, 'mtg(floor=1/3, game_draw_points=0)')",
}
CONVENTION_REF = {
    "floor_1/3": dict(floor=Fraction(1, 3)),
    "third_drawgame0": dict(floor=Fraction(1, 3), game_draw_points=0),
}
OWN_GWP_SQL = "SELECT * FROM standings(?, 'mtg(floor=1/3, own_gwp_floor=0)')"
OWN_GWP_UNFLOORED = {362, 576, 581, 629, 630, 726, 769, 790, 878, 989, 1010, 1016, 1064, 1108}

COLUMNS = ("rank", "player", "match_points", "wins", "losses", "draws", "byes", "rounds",
           "game_wins", "game_losses", "game_draws", "game_points", "games", "mwp", "gwp",
           "omwp", "ogwp", "dropped", "decided_by")
REAL_COLUMNS = {"mwp", "gwp", "omwp", "ogwp"}
INTEGER_COLUMNS = {"rank", "match_points", "wins", "losses", "draws", "byes", "rounds", "game_wins",
                   "game_losses", "game_draws", "game_points", "games", "dropped"}
SELECT = f"SELECT {', '.join(COLUMNS)} FROM standings(?, 'mtg', ?)"
FLOAT_SLACK = Fraction(1, 10**12)  # REALs are the nearest doubles of exact rationals


def _corpus_events():
    """(event_id, conventions) pairs, read at collection time without the extension."""
    if not CORPUS.exists():
        return None
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(CORPUS.read_text())
        return conn.execute("SELECT event_id, conventions FROM events ORDER BY event_id").fetchall()
    finally:
        conn.close()


EVENTS = _corpus_events()
SKIP_REASON = f"real corpus not found: {CORPUS} (set TIEBREAK_SHARED)"
CONVENTION_EVENTS = ([pytest.param(e, c, id=f"event{e}") for e, c in EVENTS if c is not None]
                     if EVENTS is not None else [pytest.param(None, None, id="no-corpus")])


@pytest.fixture(scope="module")
def corpus(connect):
    if EVENTS is None:
        pytest.skip(SKIP_REASON)
    conn = connect()
    conn.executescript(CORPUS.read_text())
    return conn


def _decimals(x):
    text = repr(float(x))
    return len(text.split(".")[1]) if "." in text and "e" not in text else 0


def _close(got, expected, tol):
    return got is not None and abs(Fraction(got) - Fraction(expected)) <= tol + FLOAT_SLACK


def _raw_gwp(row):
    """Unfloored own GWP as those platforms printed it (0 without games)."""
    return Fraction(row["game_points"], 3 * row["games"]) if row["games"] else Fraction(0)


def _rows(cursor):
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, r)) for r in cursor.fetchall()]


@pytest.mark.parametrize("event_id, convention", CONVENTION_EVENTS)
def test_published_standings(corpus, event_id, convention):
    ours = {r["player"]: r for r in _rows(corpus.execute(CONVENTION_SQL[convention], (event_id,)))}
    as_printed = ours
    if event_id in OWN_GWP_UNFLOORED:
        as_printed = {r["player"]: r for r in _rows(corpus.execute(OWN_GWP_SQL, (event_id,)))}
    published = _rows(corpus.execute(
        "SELECT rank, player, points, wins, losses, draws, omwp, gwp, ogwp "
        "FROM published WHERE event_id = ? ORDER BY rank", (event_id,)))
    in_matches = {p for (p,) in corpus.execute(
        "SELECT player_a FROM matches WHERE event_id = ?1 UNION "
        "SELECT player_b FROM matches WHERE event_id = ?1 AND player_b IS NOT NULL", (event_id,))}
    floor = CONVENTION_REF[convention]["floor"]
    tol = Fraction(1, 2 * 10 ** max(_decimals(r[c]) for r in published for c in ("omwp", "gwp", "ogwp")))

    errors = []
    ranked = []  # published rows we can place, in published order
    for pub in published:
        p = pub["player"]
        if p not in in_matches:
            # Registered but never paired: the platform prints zeros.
            if p in ours or (pub["points"], pub["omwp"], pub["gwp"], pub["ogwp"]) != (0, 0, 0, 0):
                errors.append(f"{p}: unpaired published player, ours={ours.get(p)} published={pub}")
            continue
        if p not in ours:
            errors.append(f"{p}: missing from standings")
            continue
        row = ours[p]
        ranked.append(pub)
        if row["match_points"] != pub["points"]:
            errors.append(f"{p}: match_points expected {pub['points']} got {row['match_points']}")
        if (pub["wins"], pub["losses"], pub["draws"]) != (0, 0, 0):  # 0-0-0 = not published
            if (row["wins"], row["losses"], row["draws"]) != (pub["wins"], pub["losses"], pub["draws"]):
                errors.append(f"{p}: record expected {pub['wins']}-{pub['losses']}-{pub['draws']} "
                              f"got {row['wins']}-{row['losses']}-{row['draws']}")
        published_gwp = as_printed[p]["gwp"]
        if event_id in OWN_GWP_UNFLOORED:
            raw = _raw_gwp(row)
            if not _close(row["gwp"], max(raw, floor), 0):
                errors.append(f"{p}: gwp expected {float(max(raw, floor))} got {row['gwp']}")
            if not _close(published_gwp, raw, 0):
                errors.append(f"{p}: unfloored gwp expected {float(raw)} got {published_gwp}")
        for col, got in (("omwp", row["omwp"]), ("gwp", published_gwp), ("ogwp", row["ogwp"])):
            if not _close(got, pub[col], tol):
                errors.append(f"{p}: {col} expected {pub[col]} got {None if got is None else float(got)}")
    extra_players = set(ours) - in_matches
    if extra_players:
        errors.append(f"players not in matches: {sorted(extra_players)}")
    if set(ours) - {r["player"] for r in published}:
        errors.append(f"players not published: {sorted(set(ours) - {r['player'] for r in published})}")

    # Published order must be non-increasing in our key; exact ties may be in any order.
    def key(pub):
        return (-as_printed[pub["player"]]["rank"],)
    for above, below in zip(ranked, ranked[1:]):
        if key(above) < key(below):
            ra, rb = as_printed[above["player"]], as_printed[below["player"]]
            errors.append(f"order: published rank {above['rank']} {above['player']} (our rank {ra['rank']}) "
                          f"above rank {below['rank']} {below['player']} (our rank {rb['rank']})")
    assert not errors, f"event {event_id} ({convention}), {len(errors)} problems:\n" + "\n".join(errors[:30])


def _reference_row(stats, player):
    s = stats[player]
    return {c: (player if c == "player" else s[c]) for c in COLUMNS}


@pytest.mark.parametrize("floor_arg, floor", [("1/3", Fraction(1, 3)), ("33/100", Fraction(33, 100)),
                                              (None, Fraction(33, 100))],
                         ids=["floor=1/3", "floor=33/100", "floor=default"])
def test_reference_agrees_on_whole_corpus(corpus, floor_arg, floor):
    """Extension == exact reference on every event, NULL-conventions ones included."""
    errors = []
    events = [e for (e,) in corpus.execute("SELECT event_id FROM events ORDER BY event_id")]
    for event_id in events:
        matches = corpus.execute(
            "SELECT round, player_a, player_b, a_wins, b_wins, draws FROM matches WHERE event_id = ?",
            (event_id,)).fetchall()
        stats = reference_mtg.standings(matches, floor=floor)
        got = _rows(corpus.execute(SELECT, (event_id, floor_arg)))
        expected_order = reference_mtg.ordered(stats)
        got_order = [r["player"] for r in got]
        if got_order != expected_order:
            first = next((i for i, (a, b) in enumerate(zip(got_order, expected_order)) if a != b),
                         min(len(got_order), len(expected_order)))
            errors.append(f"event {event_id}: row order differs from row {first} "
                          f"({len(got_order)} rows, expected {len(expected_order)})")
        for row in got:
            if row["player"] not in stats:
                continue
            exp = _reference_row(stats, row["player"])
            for col in COLUMNS:
                g, x = row[col], exp[col]
                if col in REAL_COLUMNS and x is not None:
                    ok = isinstance(g, float) and abs(Fraction(g) - x) <= FLOAT_SLACK
                elif col in INTEGER_COLUMNS:
                    ok = type(g) is int and g == x
                else:
                    ok = g == x
                if not ok:
                    errors.append(f"event {event_id} {row['player']}: {col} expected "
                                  f"{float(x) if isinstance(x, Fraction) else x} got {g}")
    assert not errors, f"{len(errors)} differences:\n" + "\n".join(errors[:50])
