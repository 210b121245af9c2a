"""melee_matches(): a Melee.gg event file (MTGODecklistCache JSON) as match rows.

Hand-built files: byes '-', a loss with no opponent, a drawn match listed from
both sides, playoff rounds, rounds the standings count but Rounds[] leaves
out, and every malformed input the reader must name.
"""
import json
import sqlite3

import pytest

ROWS = ("SELECT round, player_a, player_b, a_wins, b_wins, draws, result, round_name, phase, "
        "source FROM melee_matches(?)")


def event(rounds, standings=(), date=None):
    tournament = {"Name": "t", "Date": date} if date else {"Name": "t"}
    return json.dumps({"Tournament": tournament,
                       "Rounds": [{"RoundName": name, "Matches": [
                           {"Player1": a, "Player2": b, "Result": r} for a, b, r in matches]}
                           for name, matches in rounds],
                       "Standings": list(standings)})


@pytest.fixture
def db(connect):
    return connect()


def test_rows_byes_losses_mirrors_playoffs(db):
    text = event([("Round 1", [("A", "B", "2-1-0"), ("C", "-", "2-0-0"), ("D", "-", "0-2-0")]),
                  ("Round 2", [("A", "C", "1-1-1"), ("C", "A", "1-1-1"), ("B", "D", "0-2-0")]),
                  ("Finals", [("A", "D", "2-0")])])
    assert db.execute(ROWS, (text,)).fetchall() == [
        (1, "A", "B", 2, 1, 0, None, "Round 1", None, "rounds"),
        (1, "C", None, 2, 0, 0, None, "Round 1", None, "rounds"),
        (1, "D", None, 0, 2, 0, "loss", "Round 1", None, "rounds"),
        (2, "A", "C", 1, 1, 1, None, "Round 2", None, "rounds"),
        (2, "B", "D", 0, 2, 0, None, "Round 2", None, "rounds"),
        (3, "A", "D", 2, 0, 0, None, "Finals", "playoff", "rounds"),
    ]


def test_one_statement_to_standings(db):
    text = event([("Round 1", [("A", "B", "2-1-0"), ("C", "-", "2-0-0"), ("D", "-", "0-2-0")]),
                  ("Round 2", [("A", "C", "1-1-1"), ("C", "A", "1-1-1"), ("B", "D", "0-2-0")])])
    rows = db.execute("SELECT player, match_points, wins || '-' || losses || '-' || draws, byes, "
                      "round(omwp, 4) FROM standings(?, 'mtg(floor=1/3)', NULL, NULL, "
                      "'melee_matches', '') ORDER BY player", (text,)).fetchall()
    # D: a loss with no opponent (round 1), then a win over B: 3 points in 2 rounds
    # A: opponents B 0/6 -> 1/3 and C 4/6: 1/2; B: A 4/6 and D 3/6: 7/12
    assert rows == [("A", 4, "1-0-1", 0, 0.5), ("B", 0, "0-2-0", 0, 0.5833),
                    ("C", 4, "1-0-1", 1, 0.6667), ("D", 3, "1-1-0", 0, 0.3333)]


def test_top_cut_named_round_n_is_marked_by_swiss_rounds(db):
    """Some exports name a Top 4 "Round 3", "Round 4": the file cannot tell, so
    those rows have no phase and swiss_rounds=2 makes them the playoff.  B
    (tied 2nd with C after the Swiss) beats A and then D: B first, D second;
    A and C lost the semifinals: A (1st on the Swiss, 6 points) above C."""
    text = event([("Round 1", [("A", "B", "2-0-0"), ("C", "D", "2-1-0")]),
                  ("Round 2", [("A", "C", "2-0-0"), ("B", "D", "2-1-0")]),
                  ("Round 3", [("A", "B", "0-2-0"), ("D", "C", "2-1-0")]),
                  ("Round 4", [("B", "D", "2-0-0")])])
    assert {r[0] for r in db.execute("SELECT phase FROM melee_matches(?)", (text,))} == {None}
    rows = db.execute("SELECT rank, player, match_points, swiss_rank FROM standings(?, "
                      "'mtg(swiss_rounds=2)', NULL, NULL, 'melee_matches', '')",
                      (text,)).fetchall()
    assert rows == [(1, "B", 3, 2), (2, "D", 0, 4), (3, "A", 6, 1), (4, "C", 3, 2)]


PROBLEMS = "SELECT round, round_name, player1, player2, result, problem FROM melee_problems(?)"


def test_mirrored_rows_that_disagree_are_left_out_and_listed(db):
    """The file cannot tell which listing is right: both are left out, the
    other matches stay, and melee_problems() names the rows."""
    text = event([("Round 1", [("A", "B", "1-1-1"), ("B", "A", "2-1-0"), ("C", "D", "2-0-0")])])
    assert db.execute(ROWS, (text,)).fetchall() == [
        (1, "C", "D", 2, 0, 0, None, "Round 1", None, "rounds")]
    assert db.execute(PROBLEMS, (text,)).fetchall() == [
        (1, "Round 1", "A", "B", "1-1-1", "two listings of the pairing disagree"),
        (1, "Round 1", "B", "A", "2-1-0", "two listings of the pairing disagree")]


def test_three_listings_two_agreeing_are_all_left_out(db):
    text = event([("Round 1", [("A", "B", "1-1-1"), ("B", "A", "1-1-1"), ("A", "B", "2-0-0")])])
    assert db.execute(ROWS, (text,)).fetchall() == []
    assert [r[5] for r in db.execute(PROBLEMS, (text,))] == [
        "two listings of the pairing disagree"] * 3


def test_paired_twice_is_left_out_and_the_rest_ranked(db):
    """A in two matches of round 1, E against themself: those rows are left
    out; B, C and E then have no round 1, and round 2 ranks everyone."""
    text = event([("Round 1", [("A", "B", "2-0-0"), ("A", "C", "2-0-0"), ("D", "-", "2-0-0"),
                               ("E", "E", "2-0-0")]),
                  ("Round 2", [("A", "D", "2-1-0"), ("B", "C", "2-0-0")])])
    assert db.execute(PROBLEMS, (text,)).fetchall() == [
        (1, "Round 1", "A", "B", "2-0-0", "a player paired twice in the round"),
        (1, "Round 1", "A", "C", "2-0-0", "a player paired twice in the round"),
        (1, "Round 1", "E", "E", "2-0-0", "a player paired with themself")]
    rows = db.execute("SELECT player, match_points, rounds FROM standings(?, 'mtg', NULL, NULL, "
                      "'melee_matches', '') ORDER BY player", (text,)).fetchall()
    assert rows == [("A", 3, 1), ("B", 3, 1), ("C", 0, 1), ("D", 3, 2)]


def test_problem_rows_get_no_inferred_rounds(db):
    """B's published win is the left-out row's, not an unlisted bye: nothing
    is added for a player named in a problem row; C, with the same record
    and no problem, gets the bye of round 1 it counts."""
    text = event([("Round 1", [("A", "B", "0-2-x")]),
                  ("Round 2", [("A", "B", "2-0-0"), ("C", "D", "0-2-0")])],
                 [{"Player": "B", "Wins": 1, "Losses": 1, "Draws": 0},
                  {"Player": "C", "Wins": 1, "Losses": 1, "Draws": 0}])
    assert db.execute(ROWS, (text,)).fetchall() == [
        (2, "A", "B", 2, 0, 0, None, "Round 2", None, "rounds"),
        (2, "C", "D", 0, 2, 0, None, "Round 2", None, "rounds"),
        (1, "C", None, 2, 0, 0, None, "Round 1", None, "standings")]
    assert db.execute(PROBLEMS, (text,)).fetchall() == [
        (1, "Round 1", "A", "B", "0-2-x", "the result is not W-L-D")]


def test_unlisted_rounds_from_the_published_record(db):
    # B's published 2-1 counts a round-1 bye and C's 0-2 a loss that Rounds[] leaves out
    text = event([("Round 1", [("A", "C", "2-0-0")]),
                  ("Round 2", [("A", "B", "0-2-0"), ("C", "-", "0-2-0")]),
                  ("Round 3", [("B", "A", "0-2-0")])],
                 [{"Player": "B", "Wins": 2, "Losses": 1, "Draws": 0},
                  {"Player": "C", "Wins": 0, "Losses": 2, "Draws": 0},
                  {"Player": "A", "Wins": 2, "Losses": 1, "Draws": 0},
                  {"Player": "Nobody", "Wins": 0, "Losses": 0, "Draws": 0}])
    assert db.execute(ROWS + " WHERE source = 'standings'", (text,)).fetchall() == [
        (1, "B", None, 2, 0, 0, None, "Round 1", None, "standings")]
    rows = db.execute("SELECT player, wins, losses, byes FROM standings(?, 'mtg', NULL, NULL, "
                      "'melee_matches', '') ORDER BY player", (text,)).fetchall()
    assert rows == [("A", 2, 1, 0), ("B", 2, 1, 1), ("C", 0, 2, 0)]


def test_inferred_rows_are_bounded(db):
    # 100 players each claiming 9 losses more than listed: rows added stop at
    # as many as were listed (60), whatever the records say
    rounds = [("Round 1", [("X%d" % i, "X%d" % (i + 1), "2-0-0") for i in range(0, 100, 2)])]
    rounds += [("Round %d" % r, [("C", "D", "2-0-0")]) for r in range(1, 11)]
    rounds[1] = ("Round 1", rounds[1][1])
    text = event([("Round 1", rounds[0][1] + [("C", "D", "2-0-0")])] + rounds[2:],
                 [{"Player": "X%d" % i, "Wins": 0, "Losses": 10**6, "Draws": 0}
                  for i in range(100)])
    assert db.execute("SELECT count(*), sum(source = 'standings') FROM melee_matches(?)",
                      (text,)).fetchone() == (120, 60)


@pytest.mark.parametrize("text, message", [
    ("{", "malformed JSON"),
    ("[]", "no Rounds array in the event's JSON"),
    ('{"Rounds": 3}', "no Rounds array in the event's JSON"),
    ('{"Rounds": {"0": {"RoundName": "Round 1", "Matches": []}}}',
     "no Rounds array in the event's JSON"),
])
def test_malformed_input_is_named(db, text, message):
    with pytest.raises(sqlite3.OperationalError) as e:
        db.execute(ROWS, (text,)).fetchall()
    assert str(e.value) == "melee_matches(): " + message


# rows that cannot be read are left out of melee_matches() and listed, with
# the file's own values, by melee_problems(); a good row of the round stays
@pytest.mark.parametrize("text, problem", [
    (event([("Round 1", [("A", "B", "2-x-0")])]), ("A", "B", "2-x-0", "the result is not W-L-D")),
    (event([("Round 1", [("A", "B", "2-1-0-0")])]),
     ("A", "B", "2-1-0-0", "the result is not W-L-D")),
    (event([("Round 1", [("A", "B", "99999-0-0")])]),
     ("A", "B", "99999-0-0", "the result is not W-L-D")),
    (event([("Round 1", [("-", "B", "2-0-0")])]),
     ("-", "B", "2-0-0", "a match without Player1 and Player2 names")),
    (event([("Round 1", [(None, None, "2-0-0")])]),
     (None, None, "2-0-0", "a match without Player1 and Player2 names")),
    ('{"Rounds": [{"RoundName": "Round 1", "Matches": [{"Player1": "A", "Player2": 7, '
     '"Result": "2-0-0"}]}]}', ("A", "7", "2-0-0", "a match without Player1 and Player2 names")),
    ('{"Rounds": [{"RoundName": "Round 1", "Matches": [{"Player1": "A", "Player2": "B"}]}]}',
     ("A", "B", None, "the result is not W-L-D")),
    # an element that is no object has no names
    ('{"Rounds": [{"RoundName": "Round 1", "Matches": ["A"]}]}',
     (None, None, None, "a match without Player1 and Player2 names")),
    ('{"Rounds": [{"RoundName": "Round 1", "Matches": {"0": {"Player1": "A"}}}]}',
     (None, None, None, "Matches is not an array")),
])
def test_unreadable_rows_are_listed(db, text, problem):
    good = json.loads(text)
    good["Rounds"].append({"RoundName": "Round 2", "Matches": [
        {"Player1": "C", "Player2": "D", "Result": "2-1-0"}]})
    text = json.dumps(good)
    assert db.execute("SELECT round, player_a, player_b FROM melee_matches(?)",
                      (text,)).fetchall() == [(2, "C", "D")]
    assert db.execute(PROBLEMS, (text,)).fetchall() == [(1, "Round 1") + problem]


def test_arguments(db):
    with pytest.raises(sqlite3.OperationalError,
                       match=r"melee_problems\(\): the event's JSON text is required"):
        db.execute("SELECT * FROM melee_problems").fetchall()
    with pytest.raises(sqlite3.OperationalError,
                       match=r"melee_matches\(\): the event's JSON text is required"):
        db.execute("SELECT * FROM melee_matches").fetchall()
    with pytest.raises(sqlite3.OperationalError,
                       match=r"^melee_matches\(\): the argument must be the event's JSON "
                             r"text, e.g. readfile\('event.json'\), got a number$"):
        db.execute("SELECT * FROM melee_matches(1)").fetchall()
    blob = event([("Round 1", [("A", "B", "2-0-0")])]).encode()
    assert db.execute("SELECT count(*) FROM melee_matches(?)", (blob,)).fetchone() == (1,)
    assert db.execute("SELECT count(*) FROM melee_matches(?)",
                      ('{"Rounds": []}',)).fetchone() == (0,)
    with pytest.raises(sqlite3.OperationalError, match=r"the event's JSON text is required"):
        db.execute("SELECT * FROM standings WHERE policy = 'mtg' AND "
                   "matches_table = 'melee_matches'").fetchall()


def test_large_event_is_one_pass(db):
    n = 4000
    rounds = [("Round %d" % r, [("p%d" % i, "p%d" % ((i + r) % n), "2-1-0") for i in range(0, n, 2)])
              for r in (1,)]
    text = event(rounds)
    assert db.execute("SELECT count(*) FROM melee_matches(?)", (text,)).fetchone() == (n // 2,)


@pytest.mark.parametrize("schema", ["main", "temp"])
def test_tables_named_like_json_functions_change_nothing(db, schema):
    """A database may hold tables named json_each, json_tree, json_extract ...:
    the readers give the same rows and standings as without them."""
    text = event([("Round 1", [("A", "B", "2-1-0"), ("C", "-", "2-0-0")]),
                  ("Round 2", [("A", "C", "1-1-1"), ("C", "A", "1-1-1")])],
                 [{"Player": p, "Rank": i + 1, "Wins": 1, "Losses": 0}
                  for i, p in enumerate("ACB")])
    queries = [ROWS, "SELECT * FROM melee_players(?)",
               "SELECT rank, player, match_points FROM standings(?, 'mtg', NULL, NULL, "
               "'melee_matches', '', 'melee_players')"]
    before = [db.execute(q, (text,)).fetchall() for q in queries]
    for name in ("json_each", "json_tree", "json_extract", "json_type", "json"):
        db.execute(f"CREATE {'TEMP ' if schema == 'temp' else ''}TABLE {name}(x)")
    assert [db.execute(q, (text,)).fetchall() for q in queries] == before
    assert len(before[0]) == 4 and len(before[1]) == 3 and len(before[2]) == 3


def test_strings_with_brackets_and_escapes(db):
    """Elements are split outside strings: commas, brackets, escaped quotes and
    backslashes stay in the names; escapes are decoded (\\u00e9 is e acute)."""
    names = ['a,"b"]', "c}{[", "d\\", "\u00e9\\\"", "e"]
    text = event([("Round 1", [(names[0], names[1], "2-0-0"), (names[2], names[3], "0-2-0")]),
                  ("Round 2", [(names[4], names[0], "1-0-0")])])
    assert "\\u00e9" in text
    assert db.execute("SELECT round, player_a, player_b FROM melee_matches(?)",
                      (text,)).fetchall() == [
        (1, names[0], names[1]), (1, names[2], names[3]), (2, names[4], names[0])]


# The reader checks the text by the grammar SQLite's json functions read
# (RFC 8259, at most 2,000 nested containers, up to a NUL), in one pass that
# answers interrupts; these were checked against json_valid() of SQLite 3.40.
@pytest.mark.parametrize("value, valid", [
    ("-0", True), ("1.5e3", True), ("1E+5", True), ("[0.0e-0]", True), ("1e9999", True),
    ('"\\/\\u00e9\\n"', True), ('"a\x7fb"', True), ("[true,false,null]", True),
    ('{"a" : 1 , "b":[ ]}', True), ("[" * 1999 + "]" * 1999, True),
    ("01", False), ("-", False), ("1.", False), ("1e", False), ("1e+", False), ("-01", False),
    ("1.2.3", False), ("[1,]", False), ('{"a":1,}', False), ('"a\tb"', False), ('"\\x"', False),
    ('"\\u12G4"', False), ("[1\f]", False), ("nullx", False), ("{1:2}", False),
    ("[" * 2000 + "]" * 2000, False), ("", False), ("tru", False), ('"open', False),
])
def test_json_grammar(db, value, valid):
    text = '{"Rounds": [], "x": %s}' % value  # 1 + 1,999 containers deep at most
    try:
        db.execute(ROWS, (text,)).fetchall()
        ok = True
    except sqlite3.OperationalError as e:
        assert str(e) == "melee_matches(): malformed JSON"
        ok = False
    assert ok == valid, text[:60]


def test_json_ends_at_a_nul(db):
    """SQLite's json functions read text up to a NUL; so does the reader."""
    text = event([("Round 1", [("A", "B", "2-0-0")])]) + "\x00 trailing bytes"
    assert len(db.execute(ROWS, (text,)).fetchall()) == 1
    with pytest.raises(sqlite3.OperationalError, match="melee_matches\\(\\): malformed JSON$"):
        db.execute(ROWS, ("\x00" + text,)).fetchall()


PLAYERS = "SELECT player, rank, points, omwp FROM melee_players(?)"


@pytest.mark.parametrize("entry, problem", [
    ({"Rank": 2, "Points": 3}, (None, "Standings entry 2 has no Player name")),
    ({"Rank": 2, "Player": "", "Points": 3}, (None, "Standings entry 2 has no Player name")),
    ({"Rank": 2, "Player": 7, "Points": 3}, (None, "Standings entry 2 has no Player name")),
    ("B", (None, "Standings entry 2 has no Player name")),
    ({"Rank": "2", "Player": "B"}, ("B", "Standings entry 2 (B): Rank is not an integer")),
    ({"Player": "B", "Points": 1.5}, ("B", "Standings entry 2 (B): Points is not an integer")),
    ({"Player": "B", "Draws": [0]}, ("B", "Standings entry 2 (B): Draws is not an integer")),
    ({"Player": "B", "OGWP": "0.5"}, ("B", "Standings entry 2 (B): OGWP is not a number")),
])
def test_unreadable_standings_entries_are_listed(db, entry, problem):
    """An entry melee_players() cannot read is left out, the entries around
    it are read, and melee_problems() names it (no round: it is no match)."""
    text = event([("Round 1", [("A", "B", "2-0-0"), ("C", "-", "2-0-0")])],
                 [{"Rank": 1, "Player": "A", "Points": 3, "OMWP": 0.33333333},
                  entry,
                  {"Rank": 3, "Player": "C", "Points": 3, "OMWP": 0.0}])
    assert db.execute(PLAYERS, (text,)).fetchall() == [
        ("A", 1, 3, 0.33333333), ("C", 3, 3, 0.0)]
    assert db.execute("SELECT rowid, player FROM melee_players(?)", (text,)).fetchall() == [
        (1, "A"), (2, "C")]
    assert db.execute(PROBLEMS, (text,)).fetchall() == [(None, None) + problem[:1] +
                                                        (None, None) + problem[1:]]
    # the matches are all read; the standings rank the left-out player from them
    rows = db.execute("SELECT player, match_points FROM standings(?, 'mtg', NULL, NULL, "
                      "'melee_matches', '', 'melee_players') ORDER BY player",
                      (text,)).fetchall()
    assert rows == [("A", 3), ("B", 0), ("C", 3)]


def test_unreadable_entry_gets_no_inferred_rounds(db):
    """A record beside a figure of the wrong type is not trusted: C's entry
    claims a win Rounds[] does not list, but is left out, so no bye is added;
    D, with the same claim and a readable entry, gets it."""
    text = event([("Round 1", [("A", "B", "2-0-0")]), ("Round 2", [("C", "D", "0-2-0")])],
                 [{"Player": "C", "Wins": 1, "Losses": 1, "OMWP": "high"},
                  {"Player": "D", "Wins": 2, "Losses": 0}])
    assert db.execute(ROWS + " WHERE source = 'standings'", (text,)).fetchall() == [
        (1, "D", None, 2, 0, 0, None, "Round 1", None, "standings")]
    assert db.execute(PROBLEMS, (text,)).fetchall() == [
        (None, None, "C", None, None, "Standings entry 1 (C): OMWP is not a number")]


def test_entries_all_unreadable_and_standings_not_an_array(db):
    text = event([("Round 1", [("A", "B", "2-0-0")])], [{"Points": 1}, {"Points": 2}])
    assert db.execute(PLAYERS, (text,)).fetchall() == []
    assert [r[-1] for r in db.execute(PROBLEMS, (text,))] == [
        "Standings entry 1 has no Player name", "Standings entry 2 has no Player name"]
    with pytest.raises(sqlite3.OperationalError) as e:
        db.execute(PLAYERS, ('{"Standings": {"Player": "A"}}',)).fetchall()
    assert str(e.value) == "melee_players(): Standings is not an array"


READERS = [("melee_matches", "the event's JSON text, e.g. readfile('event.json')"),
           ("melee_players", "the event's JSON text, e.g. readfile('event.json')"),
           ("melee_problems", "the event's JSON text, e.g. readfile('event.json')"),
           ("tom_matches", "the text of a TOM file, e.g. readfile('event.tdf')"),
           ("tom_players", "the text of a TOM file, e.g. readfile('event.tdf')"),
           ("trf_matches", "the text of a TRF file, e.g. readfile('event.trf')"),
           ("trf_players", "the text of a TRF file, e.g. readfile('event.trf')"),
           ("trf_records", "the text of a TRF file, e.g. readfile('event.trf')"),
           ("trf_event", "the text of a TRF file, e.g. readfile('event.trf')")]


@pytest.mark.parametrize("reader,expected", READERS + [
    ("melee_policy", READERS[0][1]), ("tom_policy", READERS[3][1]),
    ("trf_policy", READERS[5][1])])
def test_every_reader_refuses_null_as_readfile_of_a_missing_file(db, reader, expected):
    """readfile() of a path that cannot be read is NULL: an error saying so, never no
    rows (melee's readers gave none)."""
    sql = (f"SELECT {reader}(?)" if reader.endswith("_policy")
           else f"SELECT count(*) FROM {reader}(?)")
    for value, got in ((None, "NULL (readfile() gives NULL for a file it cannot read)"),
                       (7, "a number")):
        with pytest.raises(sqlite3.OperationalError) as e:
            db.execute(sql, (value,)).fetchall()
        assert str(e.value) == f"{reader}(): the argument must be {expected}, got {got}"
