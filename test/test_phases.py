"""Playoffs and two-day events: the phase column, swiss_rounds=N and
cut_after=N (docs/standings.md#playoffs-and-two-day-events).

The small events are worked by hand (the expected orders and values are
written out below, with the reasoning); the corpus figures come from
../shared/real/ (TIEBREAK_SHARED overrides it; without it those cases skip).
"""
import json
import os
import sqlite3
from fractions import Fraction as F
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TIEBREAK_SHARED", REPO.parent / "shared"))

COLS = "event_id, round, player_a, player_b, a_wins, b_wins, draws, result, phase"

# Eight players, three Swiss rounds (every match 2-0 unless written):
#   R1 A>B, C>D, E>F 2-1, G>H 2-1;  R2 A>C 2-1, E>G, B>D, F>H;
#   R3 A>E, C>G 2-1, B>F 2-1, D>H.
# Swiss: A 9 points; C, E, B 6 (OMW% 5/9 each, then GW%: C 6/9... see
# SWISS below, computed by the extension and checked against the hand
# values of A, B and H); F, G, D 3; H 0.
SWISS_ROWS = [
    (1, "A", "B", 2, 0), (1, "C", "D", 2, 0), (1, "E", "F", 2, 1), (1, "G", "H", 2, 1),
    (2, "A", "C", 2, 1), (2, "E", "G", 2, 0), (2, "B", "D", 2, 0), (2, "F", "H", 2, 0),
    (3, "A", "E", 2, 0), (3, "C", "G", 2, 1), (3, "B", "F", 2, 1), (3, "D", "H", 2, 0),
]
SWISS = ["A", "C", "E", "B", "F", "G", "D", "H"]


def load(conn, rows, event="e", phase_col=True):
    cols = COLS if phase_col else COLS.rsplit(",", 1)[0]
    conn.execute(f"CREATE TABLE IF NOT EXISTS m ({cols})")
    for r in rows:
        rnd, a, b, aw, bw = r[:5]
        rest = list(r[5:]) + [None] * (2 - len(r[5:]))
        vals = [event, rnd, a, b, aw, bw, 0] + (rest if phase_col else rest[:1])
        conn.execute(f"INSERT INTO m VALUES ({','.join('?' * len(vals))})", vals)
    return conn


def standings(conn, policy="mtg", event="e", as_of=None, cols="rank, player, swiss_rank, decided_by, dropped"):
    return conn.execute(f"SELECT {cols} FROM standings(?, ?, NULL, ?, 'm', '')",
                        (event, policy, as_of)).fetchall()


def playoff(*rows):
    return [r + (None, "playoff") for r in rows]


def test_swiss_order_by_hand(connect):
    conn = load(connect(), SWISS_ROWS)
    rows = standings(conn, cols="player, match_points, omwp, gwp")
    assert [r[0] for r in rows] == SWISS
    got = {r[0]: r[1:] for r in rows}
    # A: opponents B, C, E all 2-1 -> OMW% 2/3; games 6-1 -> GW% 6/7
    assert got["A"] == (9, pytest.approx(float(F(2, 3)), abs=0), pytest.approx(6 / 7, abs=1e-15))
    # H: opponents G, F, D, each 1-2 -> OMW% 1/3 (above the 0.33 floor)
    assert got["H"][0] == 0 and got["H"][1] == pytest.approx(1 / 3, abs=1e-15)


def test_top4_with_an_upset(connect):
    # Top 4: semifinals A-B (B, 4th, wins) and C-E (C wins); final B beats C.
    rows = SWISS_ROWS + playoff((4, "A", "B", 0, 2), (4, "C", "E", 2, 1), (5, "B", "C", 2, 0))
    conn = load(connect(), rows)
    got = standings(conn)
    # winner B, finalist C, semifinal losers A (Swiss 1st) then E (3rd), then
    # the others in Swiss order; nobody dropped
    assert [r[1] for r in got] == ["B", "C", "A", "E", "F", "G", "D", "H"]
    assert [r[0] for r in got] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert [r[2] for r in got] == [4, 2, 1, 3, 5, 6, 7, 8]
    assert [r[3] for r in got] == [None, "playoff", "playoff", "match_points", "playoff",
                                   "gwp", "gwp", "match_points"]
    assert all(r[4] == 0 for r in got)
    # every value is the Swiss one: the same as as_of_round = 3 without the
    # playoff rows, and the same under swiss_rounds=3 without a phase column
    vals = "player, match_points, wins, losses, rounds, omwp, gwp, ogwp, mwp"
    swiss = {r[0]: r for r in standings(load(connect(), SWISS_ROWS), cols=vals)}
    assert {r[0]: r for r in standings(conn, cols=vals)} == swiss
    nophase = load(connect(), rows, phase_col=False)
    assert standings(nophase, "mtg(swiss_rounds=3)") == got
    assert standings(conn, "mtg(swiss_rounds=3)") == got
    # the scalars read the same Swiss values (from the default table matches)
    conn.execute("CREATE TABLE matches AS SELECT * FROM m")
    for p in "ABH":
        assert conn.execute("SELECT mwp('e', ?), gwp('e', ?), omwp('e', ?, 'mtg'), "
                            "ogwp('e', ?, 'mtg')", (p,) * 4).fetchone() == \
            (swiss[p][8], swiss[p][6], swiss[p][5], swiss[p][7])
    # as of the semifinals: B and C are still in, in Swiss order
    mid = standings(conn, as_of=4)
    assert [r[1] for r in mid[:4]] == ["C", "B", "A", "E"]
    assert [r[3] for r in mid[:4]] == [None, "gwp", "playoff", "match_points"]


def test_top8_every_round(connect):
    # Top 8 seeded 1-8 v 8-1 ... quarterfinals round 4: A-H (H wins), C-D,
    # E-G, B-F (F wins); semifinals H-C (C), E-F (F); final C-F (F).
    rows = SWISS_ROWS + playoff(
        (4, "A", "H", 1, 2), (4, "C", "D", 2, 0), (4, "E", "G", 2, 1), (4, "B", "F", 0, 2),
        (5, "H", "C", 0, 2), (5, "E", "F", 1, 2), (6, "C", "F", 0, 2))
    got = standings(load(connect(), rows))
    # F, C; semifinal losers E (Swiss 3rd) H (8th); quarterfinal losers in
    # Swiss order A, B, G, D
    assert [r[1] for r in got] == ["F", "C", "E", "H", "A", "B", "G", "D"]
    assert [r[2] for r in got] == [5, 2, 3, 8, 1, 4, 6, 7]
    assert [r[3] for r in got][:5] == [None, "playoff", "playoff", "match_points", "playoff"]


def test_playoff_byes(connect):
    # A Top 6: A and C (1st, 2nd) skip the quarterfinals, one with a bye
    # row, one with no row; E-F (E wins) and B-G (G wins) in round 4.
    rows = SWISS_ROWS + playoff(
        (4, "A", None, 0, 0), (4, "E", "F", 2, 0), (4, "B", "G", 1, 2),
        (5, "A", "G", 2, 0), (5, "C", "E", 0, 2), (6, "A", "E", 2, 1))
    got = standings(load(connect(), rows))
    assert [r[1] for r in got] == ["A", "E", "C", "G", "B", "F", "D", "H"]
    # C (6 points) above G (3), B (6) above F (3): the Swiss decides
    assert [r[3] for r in got][:6] == [None, "playoff", "playoff", "match_points", "playoff",
                                       "match_points"]


def test_players_out_of_the_playoff_are_not_dropped(connect):
    rows = SWISS_ROWS + [(3, "X", None, 2, 0)] + playoff((4, "A", "C", 2, 0))
    got = {r[1]: r for r in standings(load(connect(), rows))}
    assert got["A"][0] == 1 and got["C"][0] == 2
    assert [p for p, r in got.items() if r[4]] == []
    # X played only round 3 (a bye): entered late, not dropped; a real drop
    # (a player whose last round is before the last Swiss round) still is
    rows = SWISS_ROWS[:8] + [(3, "A", "C", 2, 0)] + playoff((4, "A", "C", 2, 0))
    got = {r[1]: r[4] for r in standings(load(connect(), rows, event="d"), event="d")}
    assert got["A"] == 0 and got["B"] == 1


def test_every_event_at_once_and_swiss_rank_without_playoff(connect):
    conn = load(connect(), SWISS_ROWS + playoff((4, "A", "B", 0, 2), (4, "C", "E", 2, 1),
                                                 (5, "B", "C", 2, 0)))
    load(conn, SWISS_ROWS, event="plain")
    one = {e: standings(conn, event=e) for e in ("e", "plain")}
    every = conn.execute("SELECT event_id, rank, player, swiss_rank, decided_by, dropped "
                         "FROM standings WHERE policy = 'mtg' AND matches_table = 'm' "
                         "AND games_table = ''").fetchall()
    assert [r[1:] for r in every if r[0] == "e"] == one["e"]
    assert [r[1:] for r in every if r[0] == "plain"] == one["plain"]
    assert all(r[0] == r[2] for r in one["plain"])


ERRORS = [
    ([(1, "A", "B", 2, 0, None, "final")], "mtg",
     "phase must be 'swiss', 'playoff' or NULL, got 'final' in round 1"),
    ([(1, "A", "B", 2, 0, None, 7)], "mtg",
     "phase must be 'swiss', 'playoff' or NULL, got 7 in round 1"),
    ([(1, "A", "B", 2, 0), (2, "A", "B", 2, 0, None, "playoff")], "mtg(swiss_rounds=2)",
     "round 2 has phase 'playoff' but swiss_rounds=2"),
    ([(1, "A", "B", 2, 0), (2, "A", "B", 2, 0, None, "swiss")], "mtg(swiss_rounds=1)",
     "round 2 has phase 'swiss' but swiss_rounds=1"),
    ([(1, "A", "B", 2, 0, None, "playoff"), (2, "A", "B", 2, 0)], "mtg",
     "round 2 is a Swiss round and playoff round 1 comes before it"),
    ([(1, "A", "B", 2, 0), (1, "C", "D", 2, 0, None, "playoff")], "mtg",
     "round 1 is a Swiss round and playoff round 1 comes before it"),
    ([(1, "A", "B", 2, 0), (2, "A", "B", 1, 1, None, "playoff")], "mtg",
     "playoff match of player 'A' in round 2 has no winner (games 1-1)"),
    ([(1, "A", "B", 2, 0), (2, "A", "B", 2, 0, "draw", "playoff")], "mtg",
     "playoff match of player 'A' in round 2 has no winner (games 2-0)"),
    ([(1, "A", "B", 2, 0), (2, "A", "B", 0, 2, "a", "playoff")], "mtg",
     "playoff match of player 'A' in round 2 has no winner (games 0-2)"),
    ([(1, "A", "B", 2, 0), (1, "C", "D", 2, 0), (2, "A", "B", 2, 0, None, "playoff"),
      (3, "B", "C", 2, 0, None, "playoff")], "mtg",
     "player 'B' lost in playoff round 2 and plays again in round 3"),
    ([(1, "A", "B", 2, 0), (2, "A", "B", 2, 0, None, "playoff"),
      (2, "A", "C", 2, 0, None, "playoff")], "mtg",
     "player 'A' is paired twice in round 2"),
    ([(1, "A", "B", 2, 0), (2, "A", None, 0, 2, "draw", "playoff")], "mtg",
     "playoff match of player 'A' in round 2 has no winner (games 0-2)"),
]


@pytest.mark.parametrize("rows, policy, message", ERRORS)
def test_errors(connect, rows, policy, message):
    conn = load(connect(), rows)
    with pytest.raises(sqlite3.OperationalError) as e:
        standings(conn, policy)
    assert str(e.value).startswith("standings(): event 'e': " + message)
    # every event at once names the event too, and on_error='skip' skips it
    with pytest.raises(sqlite3.OperationalError) as e:
        conn.execute("SELECT * FROM standings WHERE policy = ? AND matches_table = 'm'",
                     (policy,)).fetchall()
    assert str(e.value).startswith("standings(): event 'e': " + message)
    skip = ("SELECT event_id, error FROM standings WHERE policy = ? AND "
            "matches_table = 'm' AND on_error = 'skip'")
    if message.startswith("phase must be"):  # a value that cannot be read stops the query
        with pytest.raises(sqlite3.OperationalError):
            conn.execute(skip, (policy,)).fetchall()
        return
    skipped = conn.execute(skip, (policy,)).fetchall()
    assert skipped[0][0] == "e" and skipped[0][1].startswith(message)


@pytest.mark.parametrize("value", ["-1", "x", "1.5", "1000000001", "99999999999999999999"])
def test_swiss_rounds_option_values(connect, value):
    conn = load(connect(), SWISS_ROWS)
    with pytest.raises(sqlite3.OperationalError) as e:
        standings(conn, f"mtg(swiss_rounds={value})")
    assert "swiss_rounds" in str(e.value)


def test_swiss_rounds_zero_and_past_the_end(connect):
    conn = load(connect(), SWISS_ROWS)
    plain = standings(conn)
    assert standings(conn, "mtg(swiss_rounds=0)") == plain
    assert standings(conn, "mtg(swiss_rounds=1000000000)") == plain
    assert standings(conn, "pokemon(swiss_rounds=3)", cols="player, rank")


# ---------------------------------------------------------------- day-2 cut

WEEKEND = [
    (1, "A", "B", 2, 0), (1, "C", "D", 2, 0), (1, "E", "F", 2, 0), (1, "G", "H", 2, 0),
    (2, "A", "C", 2, 0), (2, "E", "G", 2, 0), (2, "B", "D", 2, 0), (2, "F", "H", 2, 0),
    (3, "A", "E", 2, 0), (3, "C", "G", 2, 0), (4, "A", "G", 2, 0), (4, "E", "C", 2, 0),
]


def test_cut_players_keep_values_as_of_the_cut(connect):
    conn = load(connect(), WEEKEND)
    cols = "player, omwp, ogwp, dropped"
    cut = {r[0]: r[1:] for r in standings(conn, "mtg(cut_after=2)", cols=cols)}
    plain = {r[0]: r[1:] for r in standings(conn, cols=cols)}
    at2 = {r[0]: r[1:] for r in standings(conn, as_of=2, cols=cols)}
    # F: opponents E (2-0 after round 2, 3-1 at the end) and H (0-2):
    # (1 + 0.33) / 2 with the cut, (3/4 + 0.33) / 2 without
    assert cut["F"][0] == pytest.approx(float((1 + F(33, 100)) / 2), abs=1e-15)
    assert plain["F"][0] == pytest.approx(float((F(3, 4) + F(33, 100)) / 2), abs=1e-15)
    for p in "BDFH":  # cut: exactly their values after round 2, not dropped
        assert cut[p][:2] == at2[p][:2] and cut[p][2] == 0 and plain[p][2] == 1
    for p in "ACEG":  # went on: unchanged
        assert cut[p] == plain[p]
    # the scalars agree with standings()
    conn.execute("CREATE TABLE matches AS SELECT * FROM m")
    for p in "BFH":
        assert conn.execute("SELECT omwp('e', ?, 'mtg(cut_after=2)'), ogwp('e', ?, "
                            "'mtg(cut_after=2)')", (p, p)).fetchone() == cut[p][:2]


def test_cut_with_a_playoff(connect):
    rows = WEEKEND + playoff((5, "A", "E", 0, 2))
    conn = load(connect(), rows)
    got = standings(conn, "mtg(cut_after=2, swiss_rounds=4)", cols="player, swiss_rank, dropped, omwp")
    assert [r[0] for r in got[:2]] == ["E", "A"]
    cut = {r[0]: r[3] for r in standings(load(connect(), WEEKEND, event="w"), "mtg(cut_after=2)",
                                         event="w", cols="player, rank, dropped, omwp")}
    assert {r[0]: r[3] for r in got} == cut
    assert all(r[2] == 0 for r in got)


# ------------------------------------------------------------------ corpus

def preset_of(date):
    return "melee_2023" if date < "2024-05" else ("melee_2024" if date < "2025-11-15" else "melee")


def corpus_cuts(conn):
    """Events where at least a quarter of the players stop after one round R
    >= 3 while others play two or more rounds more: (event, date, R)."""
    return conn.execute("""
        WITH seat AS (SELECT event_id, player_a AS player, round FROM matches
                      UNION ALL SELECT event_id, player_b, round FROM matches
                      WHERE player_b IS NOT NULL),
        last AS (SELECT event_id, player, max(round) AS r FROM seat GROUP BY event_id, player),
        ev AS (SELECT event_id, max(r) AS mr, count(*) AS n FROM last GROUP BY event_id),
        stop AS (SELECT event_id, r, count(*) AS c FROM last JOIN ev USING (event_id)
                 WHERE r < mr GROUP BY event_id, r)
        SELECT event_id, date, r FROM stop JOIN ev USING (event_id) JOIN events USING (event_id)
        WHERE c * 4 >= n AND mr - r >= 2 AND r >= 3 ORDER BY event_id, r""").fetchall()


def matched(conn, event, policy, cut_round):
    """(values matched, values, of them the cut players')."""
    pub = {r[0]: r[1:] for r in conn.execute(
        "SELECT player, points, omwp, gwp, ogwp FROM published WHERE event_id = ?", (event,))}
    good = n = good_cut = n_cut = 0
    for p, mp, omwp, gwp, ogwp, last in conn.execute(
            "SELECT s.player, match_points, omwp, gwp, ogwp, "
            "(SELECT max(round) FROM matches WHERE event_id = ?1 AND s.player IN (player_a, player_b)) "
            "FROM standings(?1, ?2) AS s", (event, policy)):
        s = pub.get(p)
        if s is None:
            continue
        ok = (mp == s[0]) + sum(got is not None and abs(got - want) <= 5.1e-7
                                for got, want in ((omwp, s[1]), (gwp, s[2]), (ogwp, s[3])))
        good += ok
        n += 4
        if last == cut_round:
            good_cut += ok
            n_cut += 4
    return good, n, good_cut, n_cut


@pytest.fixture(scope="module")
def corpus(connect):
    path = SHARED / "real" / "mtg_real_events.sql"
    if not path.exists():
        pytest.skip(f"{path} not found")
    conn = connect()
    conn.executescript(path.read_text())
    return conn


def test_corpus_day2_cuts(corpus):
    cuts = corpus_cuts(corpus)
    before = [0] * 4
    after = [0] * 4
    whole_cut = 0
    for event, date, r in cuts:
        pol = preset_of(date)
        b = matched(corpus, event, pol, r)
        a = matched(corpus, event, f"{pol}(cut_after={r})", r)
        before = [x + y for x, y in zip(before, b)]
        after = [x + y for x, y in zip(after, a)]
        whole_cut += a[2] == a[3]
    assert len(cuts) == 21
    # every value, then the values of the players whose last round is R
    assert before == [4771, 6108, 2257, 2944]
    assert after == [5558, 6108, 2878, 2944]
    # every value of every cut player in 15 of the 21; of the other six, 150
    # gains, and 374 (two rounds), 527, 765 and 1047 are small events that
    # were not cut: there the option loses values, as the docs warn
    assert whole_cut == 15
    # the event: all 157 players cut after round 9 match
    assert matched(corpus, 1115, "melee_2024(cut_after=9)", 9)[2:] == (628, 628)
    assert matched(corpus, 1062, "melee_2024(cut_after=6)", 6)[2:] == (360, 360)


def test_corpus_top8_final_order(corpus):
    """Events with a Top 8 after the Swiss (8 players play the last three
    rounds): the published order against rank with swiss_rounds=R.  The
    Melee presets count the playoff in its players' values (playoff_values),
    which orders the losers of one playoff round as Melee does: all 104
    (102 by Swiss values: event 374's quarterfinal losers)."""
    placed = total = 0
    for event, date, r in corpus_cuts(corpus):
        if corpus.execute("SELECT count(*) FROM matches WHERE event_id = ? AND round > ?",
                          (event, r)).fetchone()[0] != 7:
            continue
        pub = dict(corpus.execute("SELECT player, rank FROM published WHERE event_id = ?", (event,)))
        ours = [p for (p,) in corpus.execute(
            "SELECT player FROM standings(?, ?)", (event, f"{preset_of(date)}(swiss_rounds={r})"))
            if p in pub][:8]
        theirs = sorted(ours, key=pub.get)
        placed += sum(x == y for x, y in zip(ours, theirs))
        total += len(ours)
    assert (placed, total) == (104, 104)


def test_melee_file_top8(connect):
    path = SHARED / "real" / "melee" / "playoff-dbox-irish-legacy-open-236010-2025-02-01.json"
    if not path.exists():
        pytest.skip(f"{path} not found")
    text = path.read_text()
    conn = connect()
    rows = conn.execute("SELECT player, rank, dropped, omwp FROM standings(?, 'melee_2024', NULL, "
                        "NULL, 'melee_matches', '')", (text,)).fetchall()
    pub = sorted(json.loads(text)["Standings"], key=lambda s: s["Rank"])
    assert [r[0] for r in rows] == [s["Player"] for s in pub]
    assert [r[1] for r in rows] == list(range(1, 27))
    # one player dropped during the Swiss; none of those left out of the Top 8
    # nor those eliminated in it
    assert sum(r[2] for r in rows) == 1
    # the 18 players out of the Top 8 keep their values as of round 5; the
    # Top 8's count the playoff (as Melee published them)
    swiss = dict(conn.execute("SELECT player, omwp FROM standings(?, 'melee_2024', NULL, 5, "
                              "'melee_matches', '')", (text,)).fetchall())
    assert [r[0] for r in rows if r[3] != swiss[r[0]]] == [s["Player"] for s in pub[:8]]
    assert all(abs(r[3] - s["OMWP"]) < 5e-9 for r, s in zip(rows, pub))


def test_swiss_rank_of_a_disqualified_player_is_null_as_rank(connect):
    """A disqualified player takes no place: rank and swiss_rank are both NULL (swiss_rank
    was 0 with a playoff), and the places after close up in both."""
    conn = load(connect(), SWISS_ROWS + playoff((4, "A", "B", 0, 2), (4, "C", "E", 2, 1),
                                                (5, "B", "C", 2, 0)))
    conn.execute("CREATE TABLE pl (event_id, player, status)")
    conn.execute("INSERT INTO pl VALUES ('e', 'G', 'disqualified')")
    rows = conn.execute("SELECT player, rank, swiss_rank FROM standings('e', 'mtg', NULL, NULL, "
                        "'m', '', 'pl')").fetchall()
    # Swiss without G: A C E B F D H; the Top 4 A C E B, B won, C the final
    assert rows == [("B", 1, 4), ("C", 2, 2), ("A", 3, 1), ("E", 4, 3), ("F", 5, 5),
                    ("D", 6, 6), ("H", 7, 7), ("G", None, None)]


def division_table(conn):
    conn.execute("CREATE TABLE pl (event_id, player, division)")
    conn.executemany("INSERT INTO pl VALUES ('e', ?, ?)", [(p, "Masters" if p < "E" else "Seniors")
                                                          for p in "ABCDEFGH"])


def by_division(conn, as_of=None):
    return conn.execute("SELECT division, rank, player, swiss_rank, decided_by FROM standings "
                        "WHERE event_id = 'e' AND policy = 'mtg' AND matches_table = 'm' AND "
                        "games_table = '' AND players_table = 'pl' AND as_of_round IS ?",
                        (as_of,)).fetchall()


def test_playoff_per_division(connect):
    # Masters A-D, Seniors E-H: the Swiss order within each is A C B D and E F G H.
    # Each division cuts to its top 2: C beats A, F beats E in round 4.
    conn = load(connect(), SWISS_ROWS + playoff((4, "A", "C", 0, 2), (4, "E", "F", 1, 2)))
    division_table(conn)
    swiss = by_division(conn, 3)
    assert [r[2] for r in swiss] == ["A", "C", "B", "D", "E", "F", "G", "H"]
    assert all(r[1] == r[3] for r in swiss)
    assert by_division(conn) == [
        ("Masters", 1, "C", 2, None), ("Masters", 2, "A", 1, "playoff"),
        ("Masters", 3, "B", 3, "playoff"), ("Masters", 4, "D", 4, "match_points"),
        ("Seniors", 1, "F", 2, None), ("Seniors", 2, "E", 1, "playoff"),
        ("Seniors", 3, "G", 3, "playoff"), ("Seniors", 4, "H", 4, "match_points"),
    ]


def test_playoff_per_division_swiss_lengths(connect):
    # the Seniors play a fourth Swiss round while the Masters play their final:
    # each division's Swiss ends before its own playoff
    conn = load(connect(), SWISS_ROWS + playoff((4, "A", "C", 0, 2)) +
                [(4, "E", "F", 2, 0), (4, "G", "H", 2, 0)])
    division_table(conn)
    rows = by_division(conn)
    assert [r[2] for r in rows[:4]] == ["C", "A", "B", "D"]
    assert [r[4] for r in rows[:2]] == [None, "playoff"]
    # the Seniors' places are their Swiss ranks after round 4 (no playoff)
    assert all(r[1] == r[3] for r in rows[4:])
    # the Masters' Swiss ended after round 3, their division's last Swiss round: not dropped
    dropped = conn.execute("SELECT player, dropped FROM standings WHERE event_id = 'e' AND "
                           "policy = 'mtg' AND matches_table = 'm' AND games_table = '' AND "
                           "players_table = 'pl'").fetchall()
    assert dropped == [(p, 0) for p in ["C", "A", "B", "D"] + [r[2] for r in rows[4:]]]


def test_playoff_across_divisions_is_refused(connect):
    conn = load(connect(), SWISS_ROWS + playoff((4, "A", "E", 2, 0)))
    division_table(conn)
    with pytest.raises(sqlite3.OperationalError) as e:
        by_division(conn)
    assert ("playoff round 4 pairs player 'A' (division 'Masters') with player 'E' "
            "(division 'Seniors'): each division has its own playoff") in str(e.value)
