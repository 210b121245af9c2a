"""The players (registrations) table of standings(): players with no match rows,
name, division, rating, status and dropped_after (docs/registrations.md).

Every value below is computed by hand in the comments, from the match rows.
"""
import sqlite3

import pytest

MATCHES = "CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, draws, result)"

# Event 1, Magic (mtg), 3 rounds.  E drops after round 2, D is disqualified
# after the last round, F registered and never played.
#   R1: A-B 2-0, C-D 2-1, E bye      R2: A-C 2-1, D-E 2-0, B bye
#   R3: A-D 2-1, B-C 1-1-1
EVENT1 = [
    (1, 1, "A", "B", 2, 0, 0), (1, 1, "C", "D", 2, 1, 0), (1, 1, "E", None, 0, 0, 0),
    (1, 2, "A", "C", 2, 1, 0), (1, 2, "D", "E", 2, 0, 0), (1, 2, "B", None, 0, 0, 0),
    (1, 3, "A", "D", 2, 1, 0), (1, 3, "B", "C", 1, 1, 1),
]
PLAYERS1 = [
    (1, "A", "Ann", None, None), (1, "B", "Ben", "active", None), (1, "C", "Cleo", None, None),
    (1, "D", "Dan", "disqualified", None), (1, "E", "Eve", "dropped", 2),
    (1, "F", "Finn", None, None),
]


def load(db, matches, players=None, players_sql="CREATE TABLE players "
         "(event_id, player, name, status, dropped_after)"):
    db.execute(MATCHES)
    db.executemany("INSERT INTO matches (event_id, round, player_a, player_b, a_wins, b_wins, "
                   "draws) VALUES (?, ?, ?, ?, ?, ?, ?)", matches)
    if players is not None:
        db.execute(players_sql)
        marks = ", ".join("?" * len(players[0]))
        db.executemany(f"INSERT INTO players VALUES ({marks})", players)


def rows(db, sql, *args):
    return db.execute(sql, args).fetchall()


@pytest.fixture
def db(connect):
    return connect()


def test_no_show_drop_and_disqualified_player(db):
    load(db, EVENT1, PLAYERS1)
    got = rows(db, "SELECT rank, player, name, status, match_points, rounds, round(mwp, 6), "
                   "round(omwp, 6), round(gwp, 6), dropped, decided_by "
                   "FROM standings(1, 'mtg,mwp')")
    # MP: A 9; B bye + draw 4; C 3 + 1 = 4; D 3; E bye 3; F 0.
    # MWP: A 1, B 4/9, C 4/9, D 3/9 (above the 0.33 floor), E 3/6; F none.
    # OMW%: A (B 4/9 + C 4/9 + D 3/9) / 3 = 11/27; B (A 1 + C 4/9) / 2 = 13/18;
    #       C (D 3/9 + A 1 + B 4/9) / 3 = 16/27; D (C 4/9 + E 1/2 + A 1) / 3 = 35/54;
    #       E (D 1/3) = 1/3.
    # GW%: A 18/24; B 10/21; C 13/27; D 12/24; E 6/12.
    # D is disqualified: no place, listed last; E moves up to 4th (D would be
    # 4th above E on OMW% otherwise).  F, with no round, is last of the 0s.
    assert got == [
        (1, "A", "Ann", None, 9, 3, 1.0, 0.407407, 0.75, 0, None),
        (2, "B", "Ben", "active", 4, 3, 0.444444, 0.722222, 0.47619, 0, "match_points"),
        (3, "C", "Cleo", None, 4, 3, 0.444444, 0.592593, 0.481481, 0, "omwp"),
        (4, "E", "Eve", "dropped", 3, 2, 0.5, 0.333333, 0.5, 1, "match_points"),
        (5, "F", "Finn", None, 0, 0, None, None, None, 1, "match_points"),
        (None, "D", "Dan", "disqualified", 3, 3, 0.333333, 0.648148, 0.5, 0, None),
    ]


def test_disqualified_player_still_counts_for_opponents(db):
    load(db, EVENT1)
    without = rows(db, "SELECT player, rank, omwp, ogwp FROM standings(1, 'mtg') ORDER BY player")
    db.execute("CREATE TABLE players (event_id, player, name, status, dropped_after)")
    db.executemany("INSERT INTO players VALUES (?, ?, ?, ?, ?)", PLAYERS1)
    with_table = rows(db, "SELECT player, rank, omwp, ogwp FROM standings(1, 'mtg') "
                          "WHERE player <> 'F' ORDER BY player")
    # the same values; only the places change: D none, E 4th instead of 5th
    assert [r[2:] for r in with_table] == [r[2:] for r in without]
    assert [r[:2] for r in without] == [("A", 1), ("B", 2), ("C", 3), ("D", 4), ("E", 5)]
    assert [r[:2] for r in with_table] == [("A", 1), ("B", 2), ("C", 3), ("D", None), ("E", 4)]


def test_no_show_under_every_policy(db):
    load(db, EVENT1, [(1, "F", "Finn", None, None)])
    for (policy,) in rows(db, "SELECT name FROM tiebreak_policies"):
        got = rows(db, "SELECT player, rounds, match_points, wins + losses + draws + byes "
                       "FROM standings(1, ?) WHERE player = 'F'", policy)
        assert got == [("F", 0, 0, 0)], policy
        # 0 points and no opponents: never above a player with 0 points and rounds
        ranks = dict(rows(db, "SELECT player, rank FROM standings(1, ?)", policy))
        assert ranks["F"] == 6, policy


def test_pokemon_no_show_is_at_the_floor(db):
    # RK9 publishes a registered player who never played at 25 %: win %, OWP, OOWP
    load(db, EVENT1, [(1, "F", "Finn", None, None)])
    assert rows(db, "SELECT win_pct, owp, oowp, dropped FROM standings(1, 'pokemon') "
                    "WHERE player = 'F'") == [(0.25, 0.25, 0.25, 1)]
    assert rows(db, "SELECT win_pct, owp, oowp FROM standings(1, 'pokemon(floor=0.3)') "
                    "WHERE player = 'F'") == [(0.3, 0.3, 0.3)]


# Pokemon, 4 rounds: X's rows stop after round 2.
#   R1: X-Y, Z-W    R2: X-Z, Y-W    R3: Y-W, Z bye    R4: Z-Y, W bye
POKEMON = [
    ("pk", 1, "X", "Y", 1, 0, 0), ("pk", 1, "Z", "W", 1, 0, 0),
    ("pk", 2, "X", "Z", 1, 0, 0), ("pk", 2, "Y", "W", 1, 0, 0),
    ("pk", 3, "Y", "W", 1, 0, 0), ("pk", 3, "Z", None, 0, 0, 0),
    ("pk", 4, "Z", "Y", 1, 0, 0), ("pk", 4, "W", None, 0, 0, 0),
]


def test_dropped_after_feeds_pokemon_frozen_drops(db):
    load(db, POKEMON)
    q = "SELECT round(owp, 6), dropped FROM standings('pk', 'pokemon') WHERE player = 'X'"
    # frozen after round 2: Y (L, W) 1/2 and Z (W, L) 1/2: owp 1/2
    assert rows(db, q) == [(0.5, 1)]
    db.execute("CREATE TABLE players (event_id, player, status, dropped_after)")
    db.execute("INSERT INTO players VALUES ('pk', 'X', 'dropped', 3)")
    # dropped after round 3 (no row in round 3): frozen as of round 3,
    # Y (L, W, W) 2/3 and Z (W, L, bye left out) 1/2: owp 7/12
    assert rows(db, q) == [(0.583333, 1)]
    # after the last round: not a drop that the values see
    db.execute("UPDATE players SET dropped_after = 4")
    assert rows(db, "SELECT dropped, status FROM standings('pk', 'pokemon') "
                    "WHERE player = 'X'") == [(0, "dropped")]


def test_row_after_dropped_after_is_an_error(db):
    load(db, POKEMON, [("pk", "X", "dropped", 1)],
         "CREATE TABLE players (event_id, player, status, dropped_after)")
    with pytest.raises(sqlite3.OperationalError,
                       match=r"^standings\(\): event 'pk': player 'X' dropped after round 1 \(players table\) "
                             r"but has a match in round 2$"):
        rows(db, "SELECT * FROM standings('pk', 'pokemon')")
    # every event at once names the event too
    with pytest.raises(sqlite3.OperationalError,
                       match=r"^standings\(\): event 'pk': player 'X' dropped after round 1"):
        rows(db, "SELECT * FROM standings WHERE policy = 'pokemon'")


# One pod, two divisions, Magic, 2 rounds:
#   R1: J1-M1 2-0, J2-J3 2-1, M2-M3 2-0     R2: J1-J2 2-1, M1-M2 2-1, J3-M3 2-0
POD = [
    ("pod", 1, "J1", "M1", 2, 0, 0), ("pod", 1, "J2", "J3", 2, 1, 0), ("pod", 1, "M2", "M3", 2, 0, 0),
    ("pod", 2, "J1", "J2", 2, 1, 0), ("pod", 2, "M1", "M2", 2, 1, 0), ("pod", 2, "J3", "M3", 2, 0, 0),
]
DIVISIONS = [("pod", p, "Masters" if p[0] == "M" else "Juniors") for p in
             ("M1", "M2", "M3", "J1", "J2", "J3")]


def test_two_divisions_in_one_pod(db):
    load(db, POD, DIVISIONS, "CREATE TABLE players (event_id, player, division)")
    got = rows(db, "SELECT division, rank, player, match_points, round(omwp, 4), round(gwp, 4), "
                   "decided_by FROM standings('pod', 'mtg')")
    # MWP: J1 1; J2, J3, M1, M2 1/2; M3 0 -> 0.33.  OMW% over the whole pod:
    # J1 (M1 .5 + J2 .5) / 2 = .5; J2 (J3 .5 + J1 1) / 2 = .75; J3 (J2 .5 + M3 .33) / 2
    # = .415; M1 (J1 1 + M2 .5) / 2 = .75; M2 (M3 .33 + M1 .5) / 2 = .415;
    # M3 (M2 .5 + J3 .5) / 2 = .5.  Ranks within each division, Juniors first
    # (divisions by name).
    assert got == [
        ("Juniors", 1, "J1", 6, 0.5, 0.8, None),
        ("Juniors", 2, "J2", 3, 0.75, 0.5, "match_points"),
        ("Juniors", 3, "J3", 3, 0.415, 0.6, "omwp"),
        ("Masters", 1, "M1", 3, 0.75, 0.4, None),
        ("Masters", 2, "M2", 3, 0.415, 0.6, "omwp"),
        ("Masters", 3, "M3", 0, 0.5, 0.33, "match_points"),
    ]


def test_division_head_to_head_stays_within_the_division(db):
    # Pokemon, 2 rounds: R1 J2-J1, M1-M2; R2 J1-M1, M2-J2 (player_a wins).
    # All four are 1-1: win % 1/2, owp and oowp 1/2.  Over the pod four are
    # tied, so head-to-head (exactly two tied) gives nothing: all share 1st,
    # listed by id.  Per division two are tied who met: J2 beat J1, M1 beat M2.
    matches = [("h", 1, "J2", "J1", 1, 0, 0), ("h", 1, "M1", "M2", 1, 0, 0),
               ("h", 2, "J1", "M1", 1, 0, 0), ("h", 2, "M2", "J2", 1, 0, 0)]
    load(db, matches)
    q = "SELECT division, rank, player, decided_by FROM standings('h', 'pokemon')"
    assert rows(db, q) == [(None, 1, "J1", None), (None, 1, "J2", None), (None, 1, "M1", None),
                           (None, 1, "M2", None)]
    db.execute("CREATE TABLE players (event_id, player, division)")
    db.executemany("INSERT INTO players VALUES ('h', ?, ?)",
                   [(p, "Juniors" if p[0] == "J" else "Masters") for p in ("J1", "J2", "M1", "M2")])
    assert rows(db, q) == [("Juniors", 1, "J2", None), ("Juniors", 2, "J1", "head_to_head"),
                           ("Masters", 1, "M1", None), ("Masters", 2, "M2", "head_to_head")]


def test_players_without_division_come_first(db):
    load(db, POD, DIVISIONS[:3], "CREATE TABLE players (event_id, player, division)")
    got = rows(db, "SELECT division, rank, player FROM standings('pod', 'mtg')")
    # J1 6 points; J2 .75; J3 .415 (no division); Masters: M1, M2, M3 as above
    assert got == [(None, 1, "J1"), (None, 2, "J2"), (None, 3, "J3"),
                   ("Masters", 1, "M1"), ("Masters", 2, "M2"), ("Masters", 3, "M3")]


def test_three_column_players_table_still_gives_ratings(db):
    # the table of the chess ratings, as before: player, rating
    load(db, [("c", 1, "A", "B", 1, 0, 0), ("c", 2, "A", "C", 0, 0, 1)],
         [("c", "A", 2000), ("c", "B", 1800), ("c", "C", 1900), ("c", "D", 1700)],
         "CREATE TABLE players (event_id, player, rating)")
    got = rows(db, "SELECT player, points, aro, name, division, status FROM standings('c', 'fide,ARO') "
                   "ORDER BY player")
    # ARO: A (1800 + 1900) / 2 = 1850; B 2000; C 2000; D, registered with no
    # game, now appears (0 points, no opponent)
    assert got == [("A", 1.5, 1850, None, None, None), ("B", 0.0, 2000, None, None, None),
                   ("C", 0.5, 2000, None, None, None), ("D", 0.0, None, None, None, None)]


def test_players_table_of_another_shape_is_left_alone(db):
    load(db, EVENT1)
    db.execute("CREATE TABLE players (id INTEGER PRIMARY KEY, full_name TEXT)")
    db.execute("INSERT INTO players VALUES (1, 'Ann')")
    assert len(rows(db, "SELECT * FROM standings(1, 'mtg')")) == 5
    # named, it must have event_id and player
    with pytest.raises(sqlite3.OperationalError,
                       match=r"^standings\(\): table players has no column event_id$"):
        rows(db, "SELECT * FROM standings(1, 'mtg', NULL, NULL, NULL, NULL, 'players')")
    with pytest.raises(sqlite3.OperationalError,
                       match=r"^standings\(\): no such table: regs$"):
        rows(db, "SELECT * FROM standings WHERE event_id = 1 AND policy = 'mtg' "
                 "AND players_table = 'regs'")


def test_named_players_table_and_its_view(db):
    load(db, EVENT1)
    db.execute("CREATE TABLE regs (event_id, player, name)")
    db.execute("INSERT INTO regs VALUES (1, 'F', 'Finn'), (1, 'A', 'Ann')")
    db.execute("CREATE VIEW \"my regs\" AS SELECT * FROM regs")
    for table in ("regs", "my regs"):
        assert rows(db, "SELECT player, name, rank FROM standings WHERE event_id = 1 "
                        "AND policy = 'mtg' AND players_table = ? AND name IS NOT NULL",
                    table) == [("A", "Ann", 1), ("F", "Finn", 6)]


def test_text_id_finds_integer_id(db):
    load(db, [(5, 1, 7, 8, 2, 0, 0)], [(5, "7", "Seven"), (5, 9, "Nine"), (5, "10", "Ten")],
         "CREATE TABLE players (event_id, player, name)")
    got = rows(db, "SELECT player, typeof(player), name, rounds FROM standings(5, 'mtg') "
                   "ORDER BY rank, player")
    # '7' is the integer 7 of the matches; 9 and '10' have no rows: added as given
    assert got == [(7, "integer", "Seven", 1), (8, "integer", None, 1), (9, "integer", "Nine", 0),
                   ("10", "text", "Ten", 0)]
    db.execute("INSERT INTO players VALUES (5, 7, 'Again')")
    with pytest.raises(sqlite3.OperationalError,
                       match=r"^standings\(\): event 5: players table: player 7 is registered twice$"):
        rows(db, "SELECT * FROM standings(5, 'mtg')")


def test_event_with_registrations_only(db):
    load(db, [(1, 1, "A", "B", 2, 0, 0)], [(2, "Z", "Zoe", None, None)])
    assert rows(db, "SELECT rank, player, name, rounds, dropped FROM standings(2, 'mtg')") == [
        (1, "Z", "Zoe", 0, 0)]
    # every event at once lists the events of the matches table
    assert rows(db, "SELECT DISTINCT event_id FROM standings WHERE policy = 'mtg'") == [(1,)]


def test_status_case_and_names(db):
    load(db, EVENT1, [(1, "A", "Ann", "DROPPED", None), (1, "B", "", "Active", None)])
    assert rows(db, "SELECT player, name, status FROM standings(1, 'mtg') WHERE player IN ('A', 'B') "
                    "ORDER BY player") == [("A", "Ann", "dropped"), ("B", "", "active")]


def test_dropped_after_without_status_means_dropped(db):
    load(db, EVENT1, [(1, "E", None, None, 2)])
    assert rows(db, "SELECT status, dropped FROM standings(1, 'mtg') WHERE player = 'E'") == [
        ("dropped", 1)]


def test_as_of_round_keeps_the_registrations(db):
    load(db, EVENT1, PLAYERS1)
    got = rows(db, "SELECT rank, player, status, rounds, dropped FROM standings(1, 'mtg', NULL, 1)")
    # after round 1: A, C, E (bye) 3 points; B, D 0; F none.  E dropped after
    # round 2, which is not yet past; D has no place
    assert [r[1] for r in got] == ["A", "C", "E", "B", "F", "D"]
    assert got[-1] == (None, "D", "disqualified", 1, 0)
    assert got[2] == (3, "E", "dropped", 1, 0)


@pytest.mark.parametrize("columns,row,message", [
    ("status", "'gone'", "players table: player 'A' has status 'gone' (expected NULL, 'active', "
                         "'dropped' or 'disqualified')"),
    ("status", "3", "players table: player 'A' has status 3 (expected NULL, 'active', 'dropped' "
                    "or 'disqualified')"),
    ("rating", "'high'", "players table: player 'A' has rating 'high'"
     " (expected an integer from -4611686018427387904 to 4611686018427387904)"),
    ("rating", "1800.5", "players table: player 'A' has rating 1800.5"
     " (expected an integer from -4611686018427387904 to 4611686018427387904)"),
    # an integer, out of range: the message names the range
    ("rating", "9223372036854775807", "players table: player 'A' has rating 9223372036854775807"
     " (expected an integer from -4611686018427387904 to 4611686018427387904)"),
    ("dropped_after", "-1", "players table: player 'A' has dropped_after -1 (expected a round from 0 "
                            "to 1000000000)"),
    ("dropped_after", "1000000001", "players table: player 'A' has dropped_after 1000000001 "
                                    "(expected a round from 0 to 1000000000)"),
    ("dropped_after", "'2'", "players table: player 'A' has dropped_after '2' (expected a round "
                             "from 0 to 1000000000)"),
    ("name", "x'00'", "players table: player 'A' has name a blob (expected TEXT or NULL)"),
    ("division", "3", "players table: player 'A' has division 3 (expected TEXT or NULL)"),
    ("status, dropped_after", "'active', 2", "players table: player 'A' has status 'active' and "
                                             "dropped_after 2"),
])
def test_bad_registrations(db, columns, row, message):
    load(db, EVENT1)
    db.execute(f"CREATE TABLE players (event_id, player, {columns})")
    db.execute(f"INSERT INTO players VALUES (1, 'A', {row})")
    with pytest.raises(sqlite3.OperationalError) as e:
        rows(db, "SELECT * FROM standings(1, 'mtg')")
    assert str(e.value) == "standings(): event 1: " + message


@pytest.mark.parametrize("player,shown", [("NULL", "NULL"), ("1.5", "1.5"), ("x'01'", "a blob")])
def test_bad_player_ids(db, player, shown):
    load(db, EVENT1)
    db.execute("CREATE TABLE players (event_id, player)")
    db.execute(f"INSERT INTO players VALUES (1, {player})")
    with pytest.raises(sqlite3.OperationalError) as e:
        rows(db, "SELECT * FROM standings(1, 'mtg')")
    assert str(e.value) == ("standings(): event 1: players table: player must be an INTEGER or "
                            "TEXT id, "
                            f"got {shown}")


def test_every_event_skips_a_bad_registration(db):
    load(db, EVENT1 + [(2, 1, "P", "Q", 2, 0, 0)], PLAYERS1 + [(2, "P", None, "left", None)])
    got = rows(db, "SELECT event_id, player, error FROM standings "
                   "WHERE policy = 'mtg' AND on_error = 'skip' AND (error IS NOT NULL OR rank = 1)")
    assert got == [(1, "A", None),
                   (2, None, "player 'P' has status 'left' (expected NULL, 'active', 'dropped' or "
                             "'disqualified')".join(["players table: ", ""]))]


def test_scalars_see_the_registrations(db):
    load(db, EVENT1, PLAYERS1)
    # a no-show has no opponents; D's matches still count for A
    assert rows(db, "SELECT omwp(1, 'F'), round(omwp(1, 'A'), 6)") == [(None, 0.407407)]


def test_hostile_arguments(db):
    load(db, EVENT1, PLAYERS1)
    for value in (None, 0, 1.5, b"x", "x" * 10000, "players\"; DROP TABLE matches; --"):
        try:
            rows(db, "SELECT count(*) FROM standings WHERE event_id = 1 AND policy = 'mtg' "
                     "AND players_table = ?", value)
        except sqlite3.OperationalError as e:
            assert str(e).startswith("standings(): "), e
    assert rows(db, "SELECT count(*) FROM matches") == [(8,)]
