"""trf_matches() and trf_players(): FIDE TRF text as rows (ext/read/trf.c, docs/trf.md).

Hand-made TRF files, one per result code, checked against the rows the
matches table should hold; then inconsistent and hostile input.
"""
import sqlite3

import pytest


def record(start, name="", rating=0, points="", rank="", rounds=(), fed="NOR"):
    """A 001 record laid out by column (TRF-16 / TRF-2026): start 5-8, name
    15-47, rating 49-52, federation 54-56, points 81-84, rank 86-89, then
    per round opponent 92-95, colour 97, result 99."""
    line = list(" " * 89)

    def put(col, text):
        for k, ch in enumerate(text):
            line[col - 1 + k] = ch

    put(1, "001")
    put(5, f"{start:4d}")
    put(10, "m")
    put(15, name[:33])
    if rating:
        put(49, f"{rating:4d}")
    put(54, fed)
    put(81, f"{points:>4}")
    put(86, f"{rank:>4}")
    text = "".join(line)
    for opp, colour, result in rounds:
        text += "  " + (f"{opp:4d}" if opp is not None else "    ") + f" {colour} {result}"
    return text


def trf(*records):
    return "012 Test event\nXXR 3\n" + "\n".join(records) + "\n"


MATCH_COLS = "round, player_a, player_b, a_wins, b_wins, draws, result"


@pytest.fixture
def conn(connect):
    return connect()


def matches(conn, text):
    return conn.execute(f"SELECT {MATCH_COLS} FROM trf_matches(?) ORDER BY round, player_a",
                        (text,)).fetchall()


def error(conn, text, table="trf_matches"):
    with pytest.raises(sqlite3.Error) as e:
        conn.execute(f"SELECT * FROM {table}(?)", (text,)).fetchall()
    return str(e.value)


@pytest.mark.parametrize("white, black, row", [
    ("1", "0", (1, 1, 2, 1, 0, 0, None)),
    ("0", "1", (1, 1, 2, 0, 1, 0, None)),
    ("=", "=", (1, 1, 2, 0, 0, 1, None)),
    ("W", "L", (1, 1, 2, 1, 0, 0, None)),       # not rated, played: a game
    ("L", "W", (1, 1, 2, 0, 1, 0, None)),
    ("D", "D", (1, 1, 2, 0, 0, 1, None)),
    ("+", "-", (1, 1, 2, 0, 0, 0, "forfeit_a")),
    ("-", "+", (1, 1, 2, 0, 0, 0, "forfeit_b")),
    ("-", "-", (1, 1, 2, 0, 0, 0, "double_forfeit")),
    ("0", "0", (1, 1, 2, 0, 0, 0, "double_loss")),
])
def test_game_codes_read_once(conn, white, black, row):
    text = trf(record(1, "A", rounds=[(2, "w", white)]),
               record(2, "B", rounds=[(1, "b", black)]))
    assert matches(conn, text) == [row]


def test_game_from_black_line_first(conn):
    # Black's line comes first in the file: the game is still White's row.
    text = trf(record(2, "B", rounds=[(1, "w", "1")]),
               record(1, "A", rounds=[(2, "b", "0")]))
    assert matches(conn, text) == [(1, 2, 1, 1, 0, 0, None)]


def test_forfeit_without_colours_from_lower_number(conn):
    text = trf(record(1, "A", rounds=[(2, "-", "-")]),
               record(2, "B", rounds=[(1, "-", "+")]))
    assert matches(conn, text) == [(1, 1, 2, 0, 0, 0, "forfeit_b")]


@pytest.mark.parametrize("code, result", [
    ("U", None), ("F", None), ("H", "half_bye"), ("Z", "zero_bye"), ("-", "zero_bye"),
    ("u", None), ("h", "half_bye"),
])
def test_bye_codes(conn, code, result):
    text = trf(record(1, "A", rounds=[(0, "-", code)]))
    assert matches(conn, text) == [(1, 1, None, 0, 0, 0, result)]


def test_blank_round_has_no_row(conn):
    text = trf(record(1, "A", rounds=[(None, " ", " "), (2, "w", "1")]),
               record(2, "B", rounds=[(None, " ", " "), (1, "b", "0")]))
    assert matches(conn, text) == [(2, 1, 2, 1, 0, 0, None)]


def test_players(conn):
    text = trf(record(7, "Doe, Jane", 2105, "1.5", "2", rounds=[(0, "-", "H")], fed="ISL"),
               record(9, "Roe, Ann", 0, "", "", rounds=[]))
    rows = conn.execute("SELECT player, name, sex, rating, federation, points, rank, line "
                        "FROM trf_players(?) ORDER BY player", (text,)).fetchall()
    assert rows == [(7, "Doe, Jane", "m", 2105, "ISL", 1.5, 2, 3),
                    (9, "Roe, Ann", "m", None, "NOR", None, None, 4)]


def test_crlf_and_blob(conn):
    text = trf(record(1, "A", rounds=[(2, "w", "1")]), record(2, "B", rounds=[(1, "b", "0")]))
    blob = text.replace("\n", "\r\n").encode()
    assert conn.execute("SELECT count(*) FROM trf_matches(?)", (blob,)).fetchone() == (1,)


@pytest.mark.parametrize("white, black", [("1", "1"), ("=", "0"), ("+", "1"), ("W", "0")])
def test_sides_disagree(conn, white, black):
    text = trf(record(1, "A", rounds=[(2, "w", white)]),
               record(2, "B", rounds=[(1, "b", black)]))
    msg = error(conn, text)
    assert msg == (f"trf_matches(): line 3: round 1: player 1 has '2 w {white}' but "
                   f"player 2 (line 4) has '1 b {black}'")


def test_opponent_points_elsewhere(conn):
    text = trf(record(1, "A", rounds=[(2, "w", "1")]),
               record(2, "B", rounds=[(3, "b", "0")]),
               record(3, "C", rounds=[(2, "w", "1")]))
    assert "player 1 has '2 w 1' but player 2 (line 4) has '3 b 0'" in error(conn, text)


def test_same_colour_both_sides(conn):
    text = trf(record(1, "A", rounds=[(2, "w", "1")]), record(2, "B", rounds=[(1, "w", "0")]))
    assert "has '1 w 0'" in error(conn, text)


def test_missing_opponent_record(conn):
    text = trf(record(1, "A", rounds=[(5, "w", "1")]))
    assert error(conn, text) == ("trf_matches(): line 3: player 1's round 1 names opponent 5, "
                                 "who has no 001 record")


def test_opponent_side_truncated(conn):
    # B's line stops before round 1: the game is on one side only.
    text = trf(record(1, "A", rounds=[(2, "w", "1")]), record(2, "B"))
    assert "player 2 (line 4) has '0" in error(conn, text)


def test_bad_codes(conn):
    text = trf(record(1, "A", rounds=[(0, "-", "X")]))
    assert error(conn, text) == ("trf_matches(): line 3: player 1's round 1 has result 'X' "
                                 "and no opponent (a bye is U F H Z)")
    text = trf(record(1, "A", rounds=[(2, "w", "U")]), record(2, "B", rounds=[(1, "b", "U")]))
    assert "has result 'U' (a game is 1 0 = W D L + -)" in error(conn, text)


def test_duplicate_start_number(conn):
    text = trf(record(1, "A"), record(1, "B"))
    assert error(conn, text) == "trf_matches(): line 4: start number 1 is already used on line 3"


@pytest.mark.parametrize("text, message", [
    ("", "no player record"),
    ("012 only a header\n", "no player record"),
    ("001", "needs its start number"),
    ("001 abcd", "needs its start number"),
    ("001    0 zero", "needs its start number"),
    ("\x00\x01binary", "NUL byte"),
])
def test_hostile_text(conn, text, message):
    assert message in error(conn, text)
    assert message in error(conn, text, "trf_players")


def test_hostile_values(conn):
    for value in (None, 42, 4.5):
        msg = error(conn, value)
        assert msg.startswith("trf_matches(): the argument must be the text of a TRF file")
    with pytest.raises(sqlite3.Error, match="the TRF text is required"):
        conn.execute("SELECT * FROM trf_matches").fetchall()
    # a huge opponent number is 4 columns wide: cols 92-95 only
    text = trf(record(1, "A") + "  99999 w 1")
    assert "not a number" in error(conn, text) or "no 001 record" in error(conn, text)


def test_long_line_many_rounds(conn):
    # 500 rounds of half-point byes: one row each
    text = trf(record(1, "A", rounds=[(0, "-", "H")] * 500))
    assert conn.execute("SELECT count(*), max(round) FROM trf_matches(?)", (text,)).fetchone() == (500, 500)


def test_standings_from_trf(conn):
    text = trf(record(1, "A", 2000, "1.5", "1", rounds=[(2, "w", "1"), (0, "-", "H")]),
               record(2, "B", 1800, "1.0", "2", rounds=[(1, "b", "0"), (0, "-", "U")]))
    conn.execute("CREATE TEMP TABLE matches AS SELECT 'e' AS event_id, * FROM trf_matches(?)", (text,))
    rows = conn.execute("SELECT s.player, s.points, p.points FROM standings('e', 'fide') s "
                        "JOIN trf_players(?) p USING (player) ORDER BY s.rank", (text,)).fetchall()
    assert rows == [(1, 1.5, 1.5), (2, 1.0, 1.0)]


def test_records_and_order_as_policy(conn):
    text = ("012 Test event\n202 BH/C1,BH\n"
            + record(1, "A", 2000, "1.0", "1", rounds=[(2, "w", "1")]) + "\n"
            + record(2, "B", 1800, "0.0", "2", rounds=[(1, "b", "0")]) + "\n")
    assert conn.execute("SELECT record, value, line FROM trf_records(?)", (text,)).fetchall() == [
        ("012", "Test event", 1), ("202", "BH/C1,BH", 2)]
    conn.execute("CREATE TEMP TABLE matches AS SELECT 'e' AS event_id, * FROM trf_matches(?)", (text,))
    rows = conn.execute("SELECT player, buchholz_cut1 FROM standings('e', "
                        "(SELECT 'PTS,' || value FROM trf_records(?) WHERE record = '202'))",
                        (text,)).fetchall()
    assert rows == [(1, 0.0), (2, 0.0)]
    assert "no player record" in error(conn, "012 x\n", "trf_records")


@pytest.mark.parametrize("records, policy", [
    ("202 BH/C1,BH,SB,DE", "PTS,BH/C1,BH,SB,DE"),        # 202: the points first
    ("202 BH/C1 BH  SB\tDE", "PTS,BH/C1,BH,SB,DE"),      # blanks separate too
    ("202 PTS, BH/C1", "PTS,BH/C1"),                      # PTS not repeated
    ("212 PTS BH/C1 KS/L-2", "PTS,BH/C1,KS/L-2"),         # 212: the whole order
    ("202 SB\n212 PTS,BH", "PTS,BH"),                     # 212 wins over 202
    ("202", "PTS"),                                       # no tie-break: points alone
    ("212 ", None),                                       # an empty order
    ("012 no order", None),
])
def test_trf_policy(conn, records, policy):
    text = records + "\r\n" + record(1, "A", 2000, "1.0", "1", rounds=[(2, "w", "1")]) + "\n"
    assert conn.execute("SELECT trf_policy(?)", (text,)).fetchone()[0] == policy
    assert conn.execute("SELECT trf_policy(?)", (text.encode(),)).fetchone()[0] == policy


def test_trf_policy_ranks_as_the_file_says(conn):
    text = ("012 Test event\n202 BH/C1 BH\n"
            + record(1, "A", 2000, "1.0", "1", rounds=[(2, "w", "1")]) + "\n"
            + record(2, "B", 1800, "0.0", "2", rounds=[(1, "b", "0")]) + "\n")
    conn.execute("CREATE TEMP TABLE matches AS SELECT 'e' AS event_id, * FROM trf_matches(?)", (text,))
    rows = conn.execute("SELECT rank, player, buchholz_cut1 FROM standings('e', trf_policy(?))",
                        (text,)).fetchall()
    assert rows == [(1, 1, 0.0), (2, 2, 0.0)]


@pytest.mark.parametrize("value", [None, 5, 2.5])
def test_trf_policy_not_text(conn, value):
    with pytest.raises(sqlite3.Error, match=r"trf_policy\(\): the argument must be the text"):
        conn.execute("SELECT trf_policy(?)", (value,)).fetchone()


def test_columns_are_characters_not_bytes(conn):
    """TRF columns count characters: in UTF-8 'Müller, Jörg' takes 14 bytes
    for 12 columns, and the rating, points and rounds after it stay where
    the columns put them.  A one-byte encoding (Latin-1, as a BLOB) reads
    byte by byte, and a stray byte that starts no UTF-8 character is one
    column."""
    text = trf(record(1, "Müller, Jörg", 2100, "1.0", "1", rounds=[(2, "w", "1")]),
               record(2, "Ødegård, Åse", 1900, "0.0", "2", rounds=[(1, "b", "0")]))
    assert conn.execute("SELECT player, name, rating, points, rank FROM trf_players(?)",
                        (text,)).fetchall() == [(1, "Müller, Jörg", 2100, 1.0, 1),
                                                (2, "Ødegård, Åse", 1900, 0.0, 2)]
    assert matches(conn, text) == [(1, 1, 2, 1, 0, 0, None)]
    latin1 = text.encode("latin-1")
    assert conn.execute("SELECT player, rating FROM trf_players(?)", (latin1,)).fetchall() == [
        (1, 2100), (2, 1900)]
    assert matches(conn, latin1) == [(1, 1, 2, 1, 0, 0, None)]
    four_byte = trf(record(1, "Ann \U0001F600", 2000, "1.0", "1", rounds=[(2, "w", "1")]),
                    record(2, "Bob", 1800, "0.0", "2", rounds=[(1, "b", "0")]))
    assert conn.execute("SELECT name, rating FROM trf_players(?) WHERE player = 1",
                        (four_byte,)).fetchall() == [("Ann \U0001F600", 2000)]
