"""Events whose cost is not bounded by their rows in a naive implementation.

Each shape of bench/shapes.py, at its 1x size: sparse round numbers up to 10^9
(FIDE counts every round from 1), one tied group of 20,000 or 100,000 players
(direct encounter), long events and one player met by thousands (opponents'
opponents' averages), rows in reverse round order.  An implementation that
walks rounds or pairs takes minutes on these and runs into ctest's timeout;
nothing here times anything.  The values are checked against hand-computed
figures or against small references written from the docs/ definitions.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_bounds.py -q
"""
import math
import sys
from fractions import Fraction
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))
sys.dont_write_bytecode = True
import files  # noqa: E402
import shapes  # noqa: E402

SCHEMA = (REPO / "sql" / "schema.sql").read_text()


@pytest.fixture
def db(connect):
    conn = connect()
    conn.executescript(SCHEMA)
    return conn


def rows_of(db, sql, params=()):
    cur = db.execute(sql, params)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def matches(db):
    return db.execute("SELECT round, player_a, player_b, a_wins, b_wins, draws "
                      "FROM matches").fetchall()


# ------------------------------------------------------------------- FIDE

@pytest.mark.parametrize("rules", [2024, 2026])
def test_fide_sparse_rounds_are_counted_not_walked(db, rules):
    shapes.build(db, "fide_sparse", 1)
    last = shapes.LAST_ROUND
    got = {r["player"]: r for r in rows_of(
        db, "SELECT * FROM standings(1, ?)", (f"fide(rules={rules})",))}
    assert len(got) == 20
    for i in range(10):
        r = last - i * 99991
        win, loss = got[2 * i + 1], got[2 * i + 2]
        # Art. 16: the loser's adjusted score counts its last - r absent
        # rounds after its last game as draws; each of the winner's last - 1
        # absent rounds meets a dummy scoring as the winner (1 point, under
        # the 2026 cap of half the rounds).
        assert win["points"] == 1 and loss["points"] == 0
        assert win["buchholz"] == (last - r) / 2 + (last - 1)
        assert loss["buchholz"] == 1 + (last - r) / 2
        # the cut removes a VUR first: an absent round (1 point) for the
        # winner, and for the loser one worth 0
        assert win["buchholz_cut1"] == win["buchholz"] - 1
        assert loss["buchholz_cut1"] == loss["buchholz"]
        assert win["sonneborn_berger"] == (last - r) / 2
        assert loss["sonneborn_berger"] == 0
        assert win["progressive"] == last - r + 1
    # winners first, the later their game the lower their Buchholz cut 1
    order = [p for p, in db.execute("SELECT player FROM standings(1, 'fide')")]
    assert order[:10] == [2 * i + 1 for i in reversed(range(10))]


def test_fide_one_drawn_round_is_one_group(db):
    shapes.build(db, "fide_drawn", 1)
    got = rows_of(db, "SELECT rank, player, points, buchholz, direct_encounter, "
                      "black_games, decided_by FROM standings(1, 'fide')")
    assert len(got) == 20_000
    assert {r["points"] for r in got} == {0.5}
    assert {r["buchholz"] for r in got} == {0.5}
    # 20,000 tied, each met one other: nobody is alone on top (Art. 6.3)
    assert {r["direct_encounter"] for r in got} == {1}
    # player_b had Black, which ranks higher (7.3)
    assert {r["rank"] for r in got if r["player"] % 2 == 0} == {1}
    assert {r["rank"] for r in got if r["player"] % 2 == 1} == {10_001}
    assert {r["decided_by"] for r in got if r["rank"] == 10_001} == {None, "black_games"}


def test_fide_group_of_byes(db):
    shapes.build(db, "fide_byes", 1)
    got = db.execute("SELECT count(*), min(rank), max(rank), min(direct_encounter), "
                     "max(direct_encounter), min(points), max(points) "
                     "FROM standings(1, 'fide')").fetchone()
    assert got == (100_000, 1, 1, 1, 1, 1, 1)


def test_direct_encounter_separates_within_large_groups(db):
    # Event 1: player 0 beats 5,000 players, one a round, who play nobody
    # else; ranked by direct encounter alone, all 5,001 are one group.  Not
    # everyone met (6.3): player 0's lowest possible score (5,000 wins) is
    # above anyone's highest (4,999 missing games won), so 0 is placed
    # first; among the others nobody is alone on top.
    db.execute(shapes._seq(5000) + " INSERT INTO matches (event_id, round, player_a, "
               "player_b, a_wins, b_wins, draws) SELECT 1, i + 1, 0, i + 1, 1, 0, 0 FROM s")
    # Event 2: a round robin of 100 in which the lower id always wins: all
    # met (6.2), so the separate standings order them by id.
    db.execute("WITH RECURSIVE p(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM p "
               "WHERE i < 100) INSERT INTO matches (event_id, round, player_a, "
               "player_b, a_wins, b_wins, draws) SELECT 2, x.i * 100 + y.i, x.i, y.i, 1, 0, 0 "
               "FROM p AS x, p AS y WHERE x.i < y.i")
    got = db.execute("SELECT player, direct_encounter, rank FROM standings(1, "
                     "'direct_encounter') ORDER BY player").fetchall()
    assert got == [(0, 1, 1)] + [(p, 2, 2) for p in range(1, 5001)]
    got = db.execute("SELECT player, direct_encounter, rank FROM standings(2, "
                     "'direct_encounter') ORDER BY player").fetchall()
    assert got == [(p, p, p) for p in range(1, 101)]


# ----------------------------------------------------------------- Pokemon

def pokemon_reference(rows, tie=Fraction(1, 2), floor=Fraction(1, 4), cap=Fraction(3, 4),
                      freeze=True):
    """win %, owp, oowp as docs/policy-pokemon.md defines them, computed the
    slow way: every value recomputed from the seats for the round asked."""
    seats = {}
    for rnd, a, b, aw, bw, d in rows:
        out_a = "w" if aw > bw else "l" if bw > aw else "d"
        seats.setdefault(a, []).append((rnd, b, out_a))
        if b is not None:
            out_b = {"w": "l", "l": "w", "d": "d"}[out_a]
            seats.setdefault(b, []).append((rnd, a, out_b))
    last_event = max(r[0] for r in rows)
    last = {p: max(s[0] for s in v) for p, v in seats.items()}

    def wp(x, upto):
        played = [s for s in seats[x] if s[0] <= upto and s[1] is not None]
        v = Fraction(sum(1 for s in played if s[2] == "w")
                     + tie * sum(1 for s in played if s[2] == "d"), len(played))
        v = max(v, floor)
        return min(v, cap) if last[x] < upto else v

    def frozen(x, upto):
        return last[x] if freeze and last[x] < upto else upto

    def owp(x, upto):
        terms = [wp(o, upto) for r, o, _ in seats[x] if r <= upto and o is not None]
        return sum(terms) / len(terms) if terms else None

    out = {}
    for p in seats:
        upto = frozen(p, last_event)
        opps = [o for r, o, _ in seats[p] if r <= upto and o is not None]
        terms = [owp(o, frozen(o, upto)) or 0 for o in opps]
        out[p] = (owp(p, upto), sum(terms) / len(terms) if terms else None)
    return out


def assert_pokemon(db, policy, freeze):
    ref = pokemon_reference(matches(db), freeze=freeze)
    got = {r["player"]: r for r in rows_of(db, "SELECT player, owp, oowp FROM "
                                                "standings(1, ?)", (policy,))}
    assert got.keys() == ref.keys()
    for p, (owp, oowp) in ref.items():
        assert got[p]["owp"] == pytest.approx(float(owp), rel=1e-12, abs=1e-15), p
        assert got[p]["oowp"] == pytest.approx(float(oowp), rel=1e-12, abs=1e-15), p


@pytest.mark.parametrize("freeze", [1, 0])
def test_pokemon_one_player_met_by_hundreds(db, freeze):
    shapes.build(db, "pokemon_hub", 0.15)   # 300 opponents: the reference is slow
    assert_pokemon(db, f"pokemon(freeze_drops={freeze})", freeze)


@pytest.mark.parametrize("freeze", [1, 0])
def test_pokemon_long_event_with_drops(db, freeze):
    db.execute(shapes._round_robin(20, 30, 3) +
               " INSERT INTO matches (event_id, round, player_a, player_b, a_wins, "
               f"b_wins, draws) SELECT 1, r, a, b, {shapes.A_WINS}, {shapes.B_WINS}, "
               f"{shapes.DRAWS} FROM k")
    assert_pokemon(db, f"pokemon(freeze_drops={freeze})", freeze)


@pytest.mark.parametrize("freeze", [1, 0])
def test_pokemon_drops_at_sparse_rounds_out_of_order(db, freeze):
    # the owps as of each drop round come from a sweep of the rounds in order:
    # round numbers up to 9 x 10^8 (three passes of its radix sort), rows
    # neither in round order nor grouped by player
    db.execute(shapes._round_robin(20, 30, 3) +
               " INSERT INTO matches (event_id, round, player_a, player_b, a_wins, "
               f"b_wins, draws) SELECT 1, r * 30000000 + (r * 7919) % 1000, a, b, "
               f"{shapes.A_WINS}, {shapes.B_WINS}, {shapes.DRAWS} FROM k "
               "ORDER BY (a * 7 + r * 13) % 17, r DESC")
    assert db.execute("SELECT max(round) FROM matches").fetchone()[0] > 1 << 22
    assert_pokemon(db, f"pokemon(freeze_drops={freeze})", freeze)


def test_pokemon_dense_shape(db):
    shapes.build(db, "pokemon_dense", 10)
    # every player met someone: an owp of floored win %s, and an oowp
    got = db.execute("SELECT count(*), count(oowp), min(owp) >= 0.25, max(owp) <= 1, "
                     "min(oowp) >= 0.25, max(oowp) <= 1 FROM standings(1, 'pokemon')"
                     ).fetchone()
    assert got == (200, 200, 1, 1, 1, 1)


# ------------------------------------------------------ TCG and HCT hubs

def mtg_reference(rows, floor=Fraction(33, 100)):
    """mwp, omwp, oomwp (docs/policy-mtg.md, policy-battlefy.md), and the HCT
    sums (docs/policy-hct.md), from the rows."""
    rec, opps = {}, {}
    for rnd, a, b, aw, bw, d in rows:
        for p, o, w, l in ((a, b, aw, bw), (b, a, bw, aw)):
            if p is None:
                continue
            r = rec.setdefault(p, [0, 0, 0])  # wins, losses, draws
            r[0 if w > l else 1 if l > w else 2] += 1
            opps.setdefault(p, [])
            if o is not None:
                opps[p].append(o)
    mwp = {p: max(Fraction(3 * w + d, 3 * (w + l + d)), floor) for p, (w, l, d) in rec.items()}
    omwp = {p: sum(mwp[o] for o in os) / len(os) for p, os in opps.items() if os}
    oomwp = {p: sum(omwp[o] for o in os) / len(os) for p, os in opps.items() if os}
    t1 = {p: sum(max(rec[o][0] - rec[o][1], -3) for o in os) for p, os in opps.items()}
    t2 = {p: sum(t1[o] for o in os) for p, os in opps.items()}
    return omwp, oomwp, t1, t2


def test_hubs_of_every_opponents_average(db):
    shapes.build(db, "battlefy_hub", 0.5)
    for policy, floor in (("battlefy", Fraction(33, 100)), ("yugioh", Fraction(0))):
        omwp, oomwp, t1, t2 = mtg_reference(matches(db), floor)
        got = rows_of(db, "SELECT * FROM standings(1, ?)", (policy,))
        assert len(got) == 1001
        for r in got:
            p = r["player"]
            assert r["omwp"] == pytest.approx(float(omwp[p]), rel=1e-12)
            assert r["oomwp"] == pytest.approx(float(oomwp[p]), rel=1e-12)
            if policy == "yugioh":
                # per mille, half up (docs/policy-yugioh.md)
                mille = [int(v * 1000 + Fraction(1, 2)) for v in (omwp[p], oomwp[p])]
                assert r["kts"] == r["match_points"] * 10**6 + mille[0] * 1000 + mille[1]
    omwp, oomwp, t1, t2 = mtg_reference(matches(db))
    got = rows_of(db, "SELECT player, hct_t1, hct_t2 FROM standings(1, 'hct')")
    assert {r["player"]: (r["hct_t1"], r["hct_t2"]) for r in got} == \
        {p: (t1[p], t2[p]) for p in t1}
    # rows in reverse round order: the hub's seats are sorted, not rejected
    hub = db.execute("SELECT omwp, rounds FROM standings(1, 'mtg') WHERE player = 0"
                     ).fetchone()
    assert hub == (pytest.approx(float(omwp[0]), rel=1e-12), 1000)


# ------------------------------------------------------------ exact ties

def exact_tie_rows(db):
    return rows_of(db, "SELECT rank, player, match_points, omwp, gwp, ogwp "
                       "FROM standings(1, 'mtg') LIMIT 3")


def test_exact_tie_values(db):
    """X and Y meet the same k opponents with the same results: equal on every
    tiebreaker, so they share rank 1.  Opponent i lost (i+1)-i to each, so OGW%
    is the mean of i/(2i+1) (all above the 0.33 floor), GW% is
    sum(i+1) / sum(2i+1) = (k+3) / (2(k+2)), OMW% the floor: every value
    the correctly rounded double of the fraction."""
    shapes.build(db, "mtg_exact_tie", 0.1)
    k = 1000
    ogwp = sum(Fraction(i, 2 * i + 1) for i in range(1, k + 1)) / k
    x, y, third = exact_tie_rows(db)
    expected = dict(rank=1, match_points=3 * k, omwp=0.33,
                    gwp=float(Fraction(k + 3, 2 * (k + 2))), ogwp=float(ogwp))
    assert x == dict(expected, player="X") and y == dict(expected, player="Y")
    # the opponents, 0 points each, the last of them ranked first by GW%
    assert (third["rank"], third["player"]) == (3, f"o{k}")


def test_exact_tie_over_many_opponents(db):
    """400,000 shared opponents: the OGW% sums reach millions of bits (their
    denominators the products of distinct game counts), and are equal.  Added
    term by term that took minutes (0.21 s at k = 10,000, 16.7 s at 100,000)."""
    shapes.build(db, "mtg_exact_tie", 40)
    k = 400_000
    x, y, third = exact_tie_rows(db)
    # sum i/(2i+1) = k/2 - sum 1/(2(2i+1))
    ogwp = (k / 2 - math.fsum(1 / (4 * i + 2) for i in range(1, k + 1))) / k
    assert x["ogwp"] == pytest.approx(ogwp, rel=1e-12)
    assert x["gwp"] == float(Fraction(k + 3, 2 * (k + 2)))
    assert (x["rank"], x["player"], y["rank"], y["player"]) == (1, "X", 1, "Y")
    assert {key: x[key] for key in x if key != "player"} == \
        {key: y[key] for key in y if key != "player"}
    assert (third["rank"], third["player"]) == (3, f"o{k}")


# Sizes at which walking pairs takes minutes: 60,000 opponents of one player
# (200,000 for the seat order), 200,000 players in one tied group.
@pytest.mark.parametrize("shape, scale", [
    ("pokemon_hub", 30), ("hct_hub", 30), ("yugioh_hub", 30), ("battlefy_hub", 30),
    ("mtg_hub", 100), ("fide_drawn", 10)])
def test_large_shapes(db, shape, scale):
    shapes.build(db, shape, scale)
    policy = shapes.SHAPES[shape][1]
    n_rows, = db.execute("SELECT count(*) FROM matches").fetchone()
    players, matches_of_hub, ranks = db.execute(
        "SELECT count(*), max(rounds), count(DISTINCT rank) FROM standings(1, ?)",
        (policy,)).fetchone()
    if shape == "fide_drawn":
        assert (players, matches_of_hub, ranks) == (2 * n_rows, 1, 2)
    else:
        # the hub and its opponents, who won, drew or lost against it
        assert players == n_rows + 1 and matches_of_hub == n_rows
        assert ranks >= 3


# The Melee reader once read a round's whole text for each of its matches:
# one round of 100,000 matches took minutes (16,000 took 16 s), a 5-round
# file of 100,000 players too.
@pytest.mark.parametrize("rounds, players", [(1, 200_000), (5, 100_000)])
def test_melee_rounds_of_many_matches(db, rounds, players):
    text = files.melee_text(rounds, players)
    n_matches = rounds * (players // 2)
    assert db.execute("SELECT count(*), count(DISTINCT round), sum(a_wins) FROM "
                      "melee_matches(?)", (text,)).fetchone() == (n_matches, rounds,
                                                                  2 * n_matches)
    assert db.execute("SELECT count(*), max(match_points) FROM standings(?, 'mtg', NULL, "
                      "NULL, 'melee_matches', '')", (text,)).fetchone()[0] == players
