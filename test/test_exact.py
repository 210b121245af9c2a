"""Exact values of long events, and REAL columns that are correctly rounded doubles.

* Sums that outgrow 64 bits: game totals of huge matches, hct_t3 of losses in rounds
  near 10^9.
* Long events (200 players x 43 rounds, 60 rounds, a large case) rank without error
  under every policy, although their exact values need more than 128 bits.
* Every REAL column is float(Fraction) of its exact value, bit for bit: the values
  are computed here independently with Python's Fraction (for mtg by
  reference_mtg.py, in test_differential.py), for events where every player plays
  every round (no byes, no drops) so that the rules are plain means.
* Equal exact values are equal doubles, whatever order their sums were formed in:
  an event and its twin (other ids, rounds reversed) give identical REALs.

Run with Debian's interpreter: /usr/bin/python3 -m pytest test/test_exact.py -q
"""
import random
from fractions import Fraction
from itertools import permutations

import pytest

SCHEMA = """
CREATE TABLE matches (event_id NOT NULL, round INTEGER NOT NULL, player_a NOT NULL,
  player_b, a_wins INTEGER NOT NULL DEFAULT 0, b_wins INTEGER NOT NULL DEFAULT 0,
  draws INTEGER NOT NULL DEFAULT 0, result TEXT);
"""
BO3 = [(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0), (1, 1, 1), (0, 0, 3)]
CHESS = [(1, 0, 0), (0, 1, 0), (0, 0, 1)]


@pytest.fixture
def db(connect):
    conn = connect()
    conn.executescript(SCHEMA)
    return conn


def insert(db, event, rows):
    db.executemany("INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                   [(event,) + tuple(r) for r in rows])


def standings(db, event, policy):
    cur = db.execute("SELECT * FROM standings(?, ?)", (event, policy))
    names = [d[0] for d in cur.description]
    return {r[names.index("player")]: dict(zip(names, r)) for r in cur}


def round_robinish(seed, n_players, n_rounds, outcomes):
    """Random pairings, every player every round (n_players even)."""
    rng = random.Random(seed)
    rows = []
    for rnd in range(1, n_rounds + 1):
        order = list(range(n_players))
        rng.shuffle(order)
        for i in range(0, n_players, 2):
            rows.append((rnd, order[i], order[i + 1]) + rng.choice(outcomes))
    return rows


def twin(rows, n_rounds, offset=10 ** 6):
    """The same event with other ids and the rounds reversed."""
    return [(n_rounds + 1 - r[0], r[1] + offset, r[2] + offset) + tuple(r[3:]) for r in rows]


# ------------------------------------------------------------ the reference

def records(rows):
    """Per player: list of (round, opponent, outcome W/D/L), from game counts."""
    rec = {}
    for rnd, a, b, aw, bw, d in rows:
        oa = "W" if aw > bw else "L" if aw < bw else "D"
        ob = {"W": "L", "L": "W", "D": "D"}[oa]
        rec.setdefault(a, []).append((rnd, b, oa))
        rec.setdefault(b, []).append((rnd, a, ob))
    return rec


def mean(xs):
    return sum(xs, Fraction(0)) / len(xs)


def reference(rows, policy):
    """Exact values of the REAL and INTEGER tiebreakers of a policy, per player."""
    rec = records(rows)
    pts = {p: sum({"W": 3, "D": 1, "L": 0}[o] for _, _, o in s) for p, s in rec.items()}
    out = {p: {} for p in rec}
    if policy in ("battlefy", "yugioh"):
        floor = Fraction(33, 100) if policy == "battlefy" else Fraction(0)
        mwp = {p: max(Fraction(pts[p], 3 * len(s)), floor) for p, s in rec.items()}
        omwp = {p: mean([mwp[o] for _, o, _ in s]) for p, s in rec.items()}
        oomwp = {p: mean([omwp[o] for _, o, _ in s]) for p, s in rec.items()}
        for p in rec:
            out[p].update(omwp=omwp[p], oomwp=oomwp[p])
            if policy == "yugioh":
                def mille(x):
                    return min(999, (2000 * x.numerator + x.denominator) // (2 * x.denominator))
                out[p]["kts"] = pts[p] * 10 ** 6 + mille(omwp[p]) * 1000 + mille(oomwp[p])
    elif policy == "pokemon":
        # a tie counts 1/2 of a win by default (docs/policy-pokemon.md)
        wp = {p: max((sum(o == "W" for _, _, o in s) + Fraction(1, 2) * sum(o == "D" for _, _, o in s))
                     / len(s), Fraction(1, 4)) for p, s in rec.items()}
        owp = {p: mean([wp[o] for _, o, _ in s]) for p, s in rec.items()}
        oowp = {p: mean([owp[o] for _, o, _ in s]) for p, s in rec.items()}
        for p in rec:
            out[p].update(win_pct=wp[p], owp=owp[p], oowp=oowp[p])
    elif policy == "hct":
        wl = {p: sum(o == "W" for _, _, o in s) - sum(o == "L" for _, _, o in s) for p, s in rec.items()}
        t1 = {p: sum(max(wl[o], -3) for _, o, _ in s) for p, s in rec.items()}
        for p, s in rec.items():
            out[p].update(hct_t1=t1[p], hct_t2=sum(t1[o] for _, o, _ in s),
                          hct_t3=sum(r * r for r, _, o in s if o == "L"))
    elif policy == "fide":
        score = {p: sum({"W": 1, "D": Fraction(1, 2), "L": 0}[o] for _, _, o in s)
                 for p, s in rec.items()}
        for p, s in rec.items():
            out[p].update(
                buchholz=sum((score[o] for _, o, _ in s), Fraction(0)),
                sonneborn_berger=sum((score[o] * {"W": 1, "D": Fraction(1, 2), "L": 0}[r]
                                      for _, o, r in s), Fraction(0)))
    return out


def assert_exact(got, want, what):
    """Each value equal to the exact one: INTEGER as is, REAL the correctly rounded
    double of the fraction (float(Fraction) rounds correctly), bit for bit."""
    for p, cols in want.items():
        for c, v in cols.items():
            g = got[p][c]
            if isinstance(v, Fraction) and v.denominator != 1:
                assert isinstance(g, float) and g == float(v), (what, p, c, g, v, float(v))
            else:
                assert g == v, (what, p, c, g, v)


# ------------------------------------------------------------------ overflows

def test_game_totals_past_32_bits(db):
    # 716 rounds of 1000000-1000000-1000000: 2148000000 games, past 2^31
    insert(db, 1, [(r, "P", "Q", 10 ** 6, 10 ** 6, 10 ** 6) for r in range(1, 717)])
    got = standings(db, 1, "mtg")
    for p in "PQ":
        assert got[p]["games"] == 2148000000
        assert got[p]["game_wins"] == got[p]["game_losses"] == got[p]["game_draws"] == 716000000
        assert got[p]["game_points"] == 4 * 716000000
        assert got[p]["gwp"] == float(Fraction(4, 9))
        assert got[p]["ogwp"] == float(Fraction(4, 9))


def test_game_counts_past_32_bits(db):
    # 2148 rounds of 1000000-1000000-1000000: each player's games won, lost and
    # drawn pass 2^31 (2147483647), where a player's counts are first summed
    wins = 2148 * 10 ** 6
    assert wins > 2 ** 31
    insert(db, 1, [(r, "P", "Q", 10 ** 6, 10 ** 6, 10 ** 6) for r in range(1, 2149)]
           + [(r, "R", None, 2, 0, 0) for r in range(1, 2149)])
    got = standings(db, 1, "mtg")
    for p in "PQ":
        assert got[p]["game_wins"] == got[p]["game_losses"] == got[p]["game_draws"] == wins
        assert got[p]["games"] == 3 * wins
        assert got[p]["gwp"] == float(Fraction(4, 9))
    assert got["R"]["game_wins"] == 2 * 2148 and got["R"]["byes"] == 2148


def test_hct_t3_past_64_bits(db):
    # ten losses in rounds near 10^9: the sum of squares passes 2^63
    insert(db, 1, [(10 ** 9 - k, "A", "B", 0, 2, 0) for k in range(10)])
    got = standings(db, 1, "hct")
    t3 = sum((10 ** 9 - k) ** 2 for k in range(10))
    assert t3 > 2 ** 63
    assert got["A"]["hct_t3"] == float(t3) and isinstance(got["A"]["hct_t3"], float)
    assert got["B"]["hct_t3"] == 0
    # below 2^53 it is an exact INTEGER
    insert(db, 2, [(10 ** 6 - k, "A", "B", 0, 2, 0) for k in range(10)])
    assert standings(db, 2, "hct")["A"]["hct_t3"] == sum((10 ** 6 - k) ** 2 for k in range(10))


def test_hct_t3_orders_sums_past_2_to_53_exactly(db):
    # 2^53 + 1 and 2^53 + 2 are the same double: the ranking must tell them apart
    # (A: losses in rounds r1, r2 with squares summing one more than B's)
    a = [94906265, 3]      # 94906265^2 + 9  = 9007199136250234
    b = [94906264, 434]    # different sum, same magnitude
    sa, sb = sum(r * r for r in a), sum(r * r for r in b)
    rows = [(a[0], "A", "X1", 0, 2, 0), (a[1], "A", "X2", 0, 2, 0),
            (b[0], "B", "X3", 0, 2, 0), (b[1], "B", "X4", 0, 2, 0)]
    insert(db, 1, rows)
    got = standings(db, 1, "hct")
    assert got["A"]["hct_t3"] == sa and got["B"]["hct_t3"] == sb
    assert (got["A"]["rank"] < got["B"]["rank"]) == (sa > sb)


def test_count_and_round_ranges_in_messages(db):
    import sqlite3
    insert(db, 1, [(1, "A", "B", 1000001, 0, 0)])
    with pytest.raises(sqlite3.OperationalError, match="0 to 1000000"):
        standings(db, 1, "mtg")
    insert(db, 2, [(1000000001, "A", "B", 2, 0, 0)])
    with pytest.raises(sqlite3.OperationalError, match="1 to 1000000000"):
        standings(db, 2, "mtg")
    with pytest.raises(sqlite3.OperationalError, match="0 to 1000000000"):
        db.execute("SELECT mwp(1000000001, 0, 0)").fetchall()
    assert db.execute("SELECT mwp(1000000000, 1000000000, 1000000000)").fetchone()[0] == \
        float(Fraction(4, 9))


# ------------------------------------------------------- correctly rounded REALs

def test_equal_omwp_are_equal_doubles(db):
    """X and Y meet opponents of MWP 1/3, 1/10, 1/5, 7/10, 2/3 in another order
    (floor 0): both OMW% are exactly 2/5, so both are the double 0.4 and tie."""
    targets = [(1, 3), (1, 10), (1, 5), (7, 10), (4, 6)]  # wins, rounds of each opponent

    def naive(order):
        s = 0.0
        for i in order:
            s += targets[i][0] / targets[i][1]
        return s / 5
    x_order = (0, 1, 2, 3, 4)
    # a Y order meeting a different opponent in every round, whose naive double sum
    # differs from X's: the case where summing doubles split the tie
    y_order = next(p for p in permutations(range(5))
                   if all(p[i] != x_order[i] for i in range(5)) and naive(p) != naive(x_order))
    rows, filler = [], 0
    for rnd in range(5):
        rows.append((rnd + 1, "X", f"O{x_order[rnd]}", 2, 0, 0))
        rows.append((rnd + 1, "Y", f"O{y_order[rnd]}", 2, 0, 0))
    for i, (wins, n) in enumerate(targets):
        # two losses to X and Y, then wins and losses against fresh fillers
        for k in range(n - 2):
            filler += 1
            res = (2, 0, 0) if k < wins else (0, 2, 0)
            rows.append((10 + k, f"O{i}", f"F{filler}", *res))
    insert(db, 1, rows)
    got = {r[0]: r[1:] for r in db.execute(
        "SELECT player, omwp, rank FROM standings(1, 'mtg', 0)")}
    assert got["X"][0] == got["Y"][0] == 0.4
    assert got["X"][1] == got["Y"][1]
    assert db.execute("SELECT omwp(1, 'X', 'mtg(floor=0)') = omwp(1, 'Y', 'mtg(floor=0)')").fetchone()[0] == 1


POLICY_OUTCOMES = [("mtg", BO3), ("battlefy", BO3), ("yugioh", BO3), ("pokemon", BO3),
                   ("hct", [(2, 0, 0), (2, 1, 0), (0, 2, 0), (1, 2, 0)]), ("fide", CHESS)]


@pytest.mark.parametrize("policy,outcomes", POLICY_OUTCOMES)
@pytest.mark.parametrize("seed", range(8))
def test_values_are_exact_and_twins_identical(db, policy, outcomes, seed):
    rng = random.Random(seed)
    n_players, n_rounds = rng.choice([4, 6, 10, 16, 30]), rng.randint(1, 12)
    rows = round_robinish(seed, n_players, n_rounds, outcomes)
    insert(db, 1, rows + twin(rows, n_rounds))
    got = standings(db, 1, policy)
    want = reference(rows + twin(rows, n_rounds), policy)
    assert_exact(got, want, f"{policy} seed {seed}")
    # the twin listed second is tied; hct_t3 and chess's progressive scores depend
    # on the order of the rounds, which the twin reverses
    cols = [c for c in got[0] if c not in ("player", "decided_by")]
    if policy in ("hct", "fide"):
        cols = [c for c in want[0] if c != "hct_t3"]
    for p in range(n_players):
        a, b = got[p], got[p + 10 ** 6]
        assert [a[c] for c in cols] == [b[c] for c in cols], (policy, seed, p)


# ----------------------------------------------------------------- long events

@pytest.mark.parametrize("policy,outcomes", POLICY_OUTCOMES)
def test_200_players_43_rounds(db, policy, outcomes):
    rows = round_robinish(43, 200, 43, outcomes)
    insert(db, 1, rows + twin(rows, 43))
    got = standings(db, 1, policy)
    assert len(got) == 400
    assert_exact(got, reference(rows + twin(rows, 43), policy), policy)
    if policy not in ("hct", "fide"):  # their last keys depend on the round order
        for p in range(200):
            assert got[p]["rank"] == got[p + 10 ** 6]["rank"]


@pytest.mark.parametrize("policy,outcomes", POLICY_OUTCOMES)
def test_100_rounds(db, policy, outcomes):
    rows = round_robinish(100, 120, 100, outcomes)
    insert(db, 1, rows)
    got = standings(db, 1, policy)
    assert_exact(got, reference(rows, policy), policy)


# ------------------------------------------------- exact values of any size

def test_direct_encounter_scores_past_128_bits(db):
    """FIDE 6.1 averages the points scored against each member met several
    times: X meets Y_p p times for each prime p up to 113 and wins all but one,
    so X's score is 1/2 + sum((p - 1)/p), whose denominator (the product of the
    primes, 155 bits) no 128-bit value holds.  Everyone met (6.2): X scores
    28.65..., just above Z's 28.5, and each Y_p scores 14.5 + 1/p, plus 1 for
    the two Y_p that beat Z.  The places are checked against Fraction."""
    primes = [p for p in range(2, 114) if all(p % d for d in range(2, p))]
    assert len(primes) == 30
    games = [("X", "Z", 0, 0, 1)]
    for p in primes:
        games += [("X", f"Y{p}", 1, 0, 0)] * (p - 1) + [("X", f"Y{p}", 0, 1, 0)]
        games.append(("Z", f"Y{p}", 0, 1, 0) if p in (2, 3) else ("Z", f"Y{p}", 1, 0, 0))
    for i, p in enumerate(primes):
        games += [(f"Y{p}", f"Y{q}", 0, 0, 1) for q in primes[i + 1:]]
    insert(db, 1, [(r + 1, a, b, aw, bw, d) for r, (a, b, aw, bw, d) in enumerate(games)])
    # the separate standings by hand: each opponent's games averaged
    per = {}
    for a, b, aw, bw, d in games:
        for me, opp, pts in ((a, b, aw + Fraction(d, 2)), (b, a, bw + Fraction(d, 2))):
            per.setdefault(me, {}).setdefault(opp, []).append(pts)
    score = {me: sum(sum(v) / len(v) for v in opps.values()) for me, opps in per.items()}
    assert score["X"].denominator.bit_length() > 128
    assert Fraction(57, 2) < score["X"] < Fraction(29)
    want = {p: 1 + sum(s > score[p] for s in score.values()) for p in score}
    assert want["X"] == 1 and want["Z"] == 2 and len(set(want.values())) == 32
    got = {p: (de, rank) for p, de, rank in db.execute(
        "SELECT player, direct_encounter, rank FROM standings(1, 'direct_encounter')")}
    assert got == {p: (w, w) for p, w in want.items()}


def test_pokemon_tie_credit_of_64_bit_parts(db):
    """A tie credit's parts go up to 10^15: with 1/10^15, a win % of 10,000 wins
    has the numerator 10,000 x 10^15, past 2^63.  E: 10,000 wins, a tie, a
    loss; H: 10,000 wins, two losses, so E's win % is above H's by 10^-15 /
    10,002, and both round to the same double.  P beat E and Q beat H in the
    last round: equal owp doubles, ordered exactly (P first)."""
    n = 10_000
    rows = [(r, "E", "G", 1, 0, 0) for r in range(1, n + 1)]
    rows += [(r, "H", "I", 1, 0, 0) for r in range(1, n + 1)]
    rows += [(n + 1, "E", "F", 0, 0, 1), (n + 1, "H", "J", 0, 1, 0),
             (n + 2, "P", "E", 1, 0, 0), (n + 2, "Q", "H", 1, 0, 0)]
    insert(db, 1, rows)
    got = standings(db, 1, f"pokemon(tie_credit=1/{10 ** 15})")
    e = (n + Fraction(1, 10 ** 15)) / (n + 2)
    h = Fraction(n, n + 2)
    assert n * 10 ** 15 > 2 ** 63 and e > h and float(e) == float(h)
    assert got["E"]["win_pct"] == float(e)
    assert got["H"]["win_pct"] == float(h)
    assert got["P"]["owp"] == got["Q"]["owp"] == float(h)
    assert got["P"]["match_points"] == got["Q"]["match_points"]
    assert got["P"]["rank"] + 1 == got["Q"]["rank"]
    # with the default tie credit, 1/2
    assert standings(db, 1, "pokemon")["E"]["win_pct"] == float((n + Fraction(1, 2)) / (n + 2))


def shortest_places(x):
    """Decimal places of repr(x), Python's shortest round-trip form."""
    mantissa, _, exponent = repr(x).partition("e")
    digits = mantissa.split(".")[1].rstrip("0") if "." in mantissa else ""
    return len(digits) - int(exponent or 0)


def test_real_floor_is_its_shortest_decimal(db):
    # A REAL floor is the fraction of its shortest round-trip decimal: mwp() of a loss,
    # floored, is that fraction correctly rounded, i.e. the very double passed; one with
    # more than 18 decimal places cannot be held in 64-bit terms and is refused as such.
    rng = random.Random(18)
    floors = [0.1 + 0.2, 0.4999999999999999, 1 / 3, 2 / 3, 0.33, 5e-18, 0.1 ** 17]
    floors += [rng.random() * 10 ** -rng.randint(0, 2) for _ in range(2500)]
    floors += [rng.random() * 10 ** -rng.randint(3, 19) for _ in range(500)]
    held = refused = 0
    for x in floors:
        if shortest_places(x) <= 18:
            got = db.execute("SELECT mwp(0, 1, 0, ?), gwp(0, 3, 0, ?)", (x, x)).fetchone()
            assert got == (x, x), (repr(x), got)
            ogwp = db.execute("SELECT mwp(1, 2, 0, ?)", (x,)).fetchone()[0]
            assert ogwp == float(max(Fraction(3, 9), Fraction(repr(x))))
            held += 1
        else:
            with pytest.raises(Exception, match=r"more than 18 decimal places"):
                db.execute("SELECT mwp(0, 1, 0, ?)", (x,)).fetchone()
            refused += 1
    assert held > 1000 and refused > 100


@pytest.mark.parametrize("seed", range(6))
def test_pokemon_late_losses_exact(db, seed):
    """Late losses as RK9 publishes them: a round lost in the player's own win %, an
    opponent at 1/4 in the owp and oowp.  Both players of some round-1 matches enter
    late instead (a 'loss' row each); the reference adds them by hand, and the twin
    (rounds reversed: the late losses in the last round) gives identical REALs."""
    rng = random.Random(seed)
    n_players, n_rounds = rng.choice([6, 10, 16]), rng.randint(2, 9)
    rows = round_robinish(seed, n_players, n_rounds, BO3)
    late = [r for r in rows if r[0] == 1][: rng.randint(1, n_players // 4 + 1)]
    rows = [r for r in rows if r not in late]
    late_players = [p for r in late for p in r[1:3]]
    insert(db, 1, rows + twin(rows, n_rounds))
    late_rows = [(1, p) for p in late_players] + [(n_rounds, p + 10 ** 6) for p in late_players]
    db.executemany("INSERT INTO matches VALUES (1, ?, ?, NULL, 0, 0, 0, 'loss')", late_rows)
    rec = records(rows + twin(rows, n_rounds))
    n_late = {p: 0 for p in rec}
    for _, p in late_rows:
        n_late[p] = n_late.get(p, 0) + 1
        rec.setdefault(p, [])
    q = Fraction(1, 4)
    wp = {p: max((sum(o == "W" for _, _, o in s) + Fraction(1, 2) * sum(o == "D" for _, _, o in s))
                 / (len(s) + n_late[p]), q) for p, s in rec.items()}
    owp = {p: mean([wp[o] for _, o, _ in s] + [q] * n_late[p]) for p, s in rec.items()}
    oowp = {p: mean([owp[o] for _, o, _ in s] + [q] * n_late[p]) for p, s in rec.items()}
    got = standings(db, 1, "pokemon")
    assert_exact(got, {p: dict(win_pct=wp[p], owp=owp[p], oowp=oowp[p]) for p in rec},
                 f"late seed {seed}")
    for p in range(n_players):
        a, b = got[p], got[p + 10 ** 6]
        assert [a[c] for c in ("win_pct", "owp", "oowp")] == \
            [b[c] for c in ("win_pct", "owp", "oowp")], (seed, p)


def swiss_with_drops(seed, n_players, n_rounds):
    """Random pairings of the players still in, a bye (2-0-0) for the odd one out;
    from round 2 on, each player still in drops with probability 1/8.  Rows as
    round_robinish's, a bye with opponent None."""
    rng = random.Random(seed)
    active = list(range(n_players))
    rows = []
    for rnd in range(1, n_rounds + 1):
        rng.shuffle(active)
        for i in range(0, len(active) - 1, 2):
            rows.append((rnd, active[i], active[i + 1]) + rng.choice(BO3))
        if len(active) % 2:
            rows.append((rnd, active[-1], None, 2, 0, 0))
        if rnd >= 2 and rnd < n_rounds:
            active = [p for p in active if rng.random() >= 1 / 8 or len(active) <= 4]
    return rows


def pokemon_frozen_reference(rows):
    """Pokemon's win %, owp and oowp with frozen drops (docs/policy-pokemon.md):
    a player who left after round L is valued as in the standings after round L;
    a win % as of round R counts the rounds up to R against an opponent (byes
    out), at least 1/4, and at most 3/4 for a player gone before R."""
    last_round = max(r[0] for r in rows)
    last, games = {}, {}
    for rnd, a, b, aw, bw, _ in rows:
        for p in (a, b):
            if p is not None:
                last[p] = max(last.get(p, 0), rnd)
        if b is not None:
            oa = "W" if aw > bw else "L" if aw < bw else "D"
            games.setdefault(a, []).append((rnd, b, oa))
            games.setdefault(b, []).append((rnd, a, {"W": "L", "L": "W", "D": "D"}[oa]))

    def frozen(p, rnd):
        return min(last[p], rnd)

    def win_pct(p, rnd):
        s = [o for r, _, o in games[p] if r <= rnd]
        v = max((s.count("W") + Fraction(1, 2) * s.count("D")) / len(s), Fraction(1, 4))
        return min(v, Fraction(3, 4)) if last[p] < rnd else v

    def owp(p, rnd):
        return mean([win_pct(x, rnd) for r, x, _ in games[p] if r <= rnd])

    out = {}
    for p in last:
        own = frozen(p, last_round)
        out[p] = dict(win_pct=win_pct(p, last_round), owp=owp(p, own),
                      oowp=mean([owp(x, frozen(x, own)) for r, x, _ in games[p] if r <= own]))
    return out


def hub_with_drops(seed, n_rounds):
    """Player 0 against a new player every round, each gone after it, beside six
    players paired among themselves every round."""
    rng = random.Random(seed)
    rows = [(r, 0, 100 + r) + rng.choice(BO3) for r in range(1, n_rounds + 1)]
    for r in range(1, n_rounds + 1):
        six = list(range(1, 7))
        rng.shuffle(six)
        rows += [(r, six[i], six[i + 1]) + rng.choice(BO3) for i in (0, 2, 4)]
    return rows


@pytest.mark.parametrize("shape,n_players,n_rounds", [
    ("swiss", 40, 12), ("swiss", 24, 48), ("hub", 0, 30)])
@pytest.mark.parametrize("seed", range(4))
def test_pokemon_frozen_drops_exact(db, shape, n_players, n_rounds, seed):
    """Drops frozen at their round, byes, against the reference above.  The owps
    as of a drop round are sums of whole numbers over a common denominator of
    every win % when there is one small enough (12 and 30 rounds), computed by a
    pass over the players at each drop round (swiss) or, where passes would cost
    more than the seats (a player met by one new player a round), opponent by
    opponent; kept as fractions when there is none (48 rounds: lcm(1..48) x 2 is
    past 2^64).  All exact."""
    if shape == "hub":
        rows = hub_with_drops(seed, n_rounds)
    else:
        rows = swiss_with_drops(seed, n_players, n_rounds)
    insert(db, 1, rows)
    assert_exact(standings(db, 1, "pokemon"), pokemon_frozen_reference(rows),
                 f"pokemon drops seed {seed}")


# ------------------------------------------- sums multiplied by transforms


def exact_sum(fracs):
    """Sum of (num, den) pairs as a Fraction, in a balanced tree of plain
    integers (Fraction's sum reduces at every step: quadratic at this size)."""
    parts = list(fracs)
    while len(parts) > 1:
        parts = [(a * d + c * b, b * d) if i + 1 < len(parts) else (a, b)
                 for i, ((a, b), (c, d)) in enumerate(
                     zip(parts[::2], parts[1::2] + [(0, 1)]))]
    return Fraction(*parts[0])


@pytest.mark.parametrize("shift", [0, 1, -1])
def test_ogwp_tie_over_transform_sized_sums(db, shift):
    """X and Y beat the same 33,000 opponents, opponent i by (m+1)-m games for
    m = 500,000 + i, except that Y's j-th is another player q, who also loses
    m-(m+1+shift) to Z: q's GW% is 2m/(4m+2+shift), m/(2m+1) when shift is 0 (a
    tie over other denominators).  X and Y tie on everything before OGW%, whose
    sums have denominators of about 650,000 bits, whose halves are multiplied by
    transforms (32,768 terms of 20 bits make 5,120 limbs of 64 bits a side); the
    order and the REAL values are Fraction's."""
    k, base = 33_000, 500_000
    j = random.Random(shift).randrange(k // 2, k)
    rows = [(i, "X", f"o{i}", base + i + 1, base + i, 0) for i in range(1, k + 1)]
    rows += [(k + i, "Y", f"o{i}" if i != j else "q", base + i + 1, base + i, 0)
             for i in range(1, k + 1)]
    rows.append((2 * k + 1, "Z", "q", base + j + 1 + shift, base + j, 0))
    insert(db, 1, rows)
    got = standings(db, 1, "mtg")
    ogw_x = exact_sum((base + i, 2 * (base + i) + 1) for i in range(1, k + 1)) / k
    m = base + j
    ogw_y = ogw_x + (Fraction(2 * m, 4 * m + 2 + shift) - Fraction(m, 2 * m + 1)) / k
    assert abs(float(ogw_x) - float(ogw_y)) < 1e-9 * float(ogw_x)
    assert got["X"]["ogwp"] == float(ogw_x) and got["Y"]["ogwp"] == float(ogw_y)
    for p in "XY":
        assert (got[p]["match_points"], got[p]["omwp"]) == (3 * k, 0.33)  # mtg's floor
    assert got["X"]["gwp"] == got["Y"]["gwp"]
    order = (ogw_x < ogw_y) - (ogw_x > ogw_y)  # > 0: X ranks below Y
    assert (got["X"]["rank"] > got["Y"]["rank"]) - (got["X"]["rank"] < got["Y"]["rank"]) == order
