"""pairings(..., 'dutch'): the FIDE Dutch system through SQL.

The states before rounds 1, 2 and 5 of a 16-player Swiss (TRF text, as an arbiter has it before
pairing: the round's H entry makes a player absent) and the pairing an endorsed engine made
for each round (test/data/pairing/dutch/examples); every round of three whole tournaments,
each state written as TRF text from the file; accelerated events (Baku) from their 250, XXA
or 192 records or the option; states in which no pairing meets the absolute criteria.  Every
round of 116 tournaments is checked by test_pair_dutch (ctest pair_dutch) on the C function
itself.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_pair_dutch_sql.py -q
"""
import re
import sqlite3
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


def test_dutch_says_why_a_table_floats_or_is_the_bye(db):
    """why: 'float: different scores' for a pair across score brackets, the bye's reason for
    the pairing-allocated bye, NULL for a pair within a bracket (no acceleration here)."""
    text = (EXAMPLES / f"{STEM}.before-round-5.trf").read_text()
    rows = db.execute("SELECT score_a, score_b, player_b, why FROM pairings(?, 'dutch', NULL, "
                      "'trf_matches', 'trf_players')", (text,)).fetchall()
    for a, b, player_b, why in rows:
        want = ("pairing-allocated bye" if player_b is None
                else "float: different scores" if a != b else None)
        assert why == want, (a, b, player_b, why)
    assert sum(why == "float: different scores" for *_, why in rows) >= 1
    assert sum(why is None for *_, why in rows) >= 1


def test_dutch_rejects_an_unknown_option(db):
    text = (EXAMPLES / f"{STEM}.before-round-5.trf").read_text()
    with pytest.raises(Exception, match="pairings\\(\\)"):
        db.execute("SELECT * FROM pairings(?, 'dutch(top=8)', NULL, 'trf_matches', "
                   "'trf_players')", (text,)).fetchall()


DATA = EXAMPLES.parent


def before_round(lines, k):
    """The TRF text before round k, as README of the data describes it: rounds 1..k-1 kept,
    points recomputed, a round-k entry that is not a game kept (an absence), XXC in round 1."""
    out, first = [], None
    for line in lines:
        if not line.startswith("001"):
            if not line.startswith("XXC"):
                out.append(line)
            continue
        entries = [line[89 + 10 * r: 99 + 10 * r] for r in range((len(line) - 89 + 9) // 10)]
        kept = entries[:k - 1]
        pts = sum({"1": 2, "+": 2, "W": 2, "U": 2, "F": 2, "=": 1, "D": 1, "H": 1}.get(e[9:10], 0)
                  for e in kept)
        if len(entries) >= k and entries[k - 1][2:6].strip() in ("0000", "0", ""):
            if entries[k - 1][9:10] != "U":
                kept.append(entries[k - 1])
        head = line[:80] + f"{pts / 2:4.1f}" + line[84:89]
        out.append(head + "".join(kept))
    if k == 1:
        pos = 0
        for line in lines:
            if line.startswith("001") and len(line) >= 99:
                e = line[89:99]
                if e[2:6].strip() not in ("0000", "0"):
                    c = e[7]
                    first = c if pos % 2 == 0 else {"w": "b", "b": "w"}[c]
                    break
                if e[9] == "U":
                    pos += 1
        out.append("XXC " + ("white1" if first == "w" else "black1"))
    return "\n".join(out) + "\n"


def engine_round(lines, k):
    pairs, bye = set(), None
    for line in lines:
        if line.startswith("001") and len(line) >= 99 + 10 * (k - 1):
            n = int(line[4:8])
            e = line[89 + 10 * (k - 1): 99 + 10 * (k - 1)]
            if e[9] == "U":
                bye = n
            elif e[2:6].strip() not in ("0000", "0", "") and e[7] == "w":
                pairs.add((n, int(e[2:6])))
    return pairs, bye


@pytest.mark.parametrize("name, k", [("gen-006p-05r-s30018", 5), ("gen-010p-09r-s30036", 8),
                                     ("gen-019p-18r-s30058", 16)])
def test_dutch_a_round_no_pairing_can_meet_is_an_error_as_the_engine_says(db, name, k):
    """States the endorsed engine's generator stopped at: 'No valid pairing exists for round k'
    (C1-C3 cannot all hold). Every round played checks clean; round k is a clear error."""
    text = (DATA / "impossible" / f"{name}.trf").read_text()
    assert db.execute("SELECT max(round) FROM trf_matches(?)", (text,)).fetchone() == (k - 1,)
    assert db.execute("SELECT count(*) FROM pairing_check(?, 'dutch', 'trf_matches', "
                      "'trf_players')", (text,)).fetchone() == (0,)
    with pytest.raises(sqlite3.OperationalError) as e:
        db.execute("SELECT * FROM pairings(?, 'dutch', NULL, 'trf_matches', 'trf_players')",
                   (text,)).fetchall()
    assert str(e.value) == ("pairings(): the event of the file: dutch: no pairing of round "
                            f"{k} meets the absolute criteria (C1-C3)")


@pytest.mark.parametrize("name", ["rtg-009p-05r-s1", "rtg-016p-07r-s14", "rtg-021p-09r-s3"])
def test_dutch_every_round_of_a_tournament_through_sql(db, name):
    lines = (DATA / f"{name}.trf").read_text().split("\n")
    rounds = int(name.split("-")[2].rstrip("r"))
    for k in range(1, rounds + 1):
        rows = db.execute("SELECT number_a, number_b FROM pairings(?, 'dutch', NULL, "
                          "'trf_matches', 'trf_players')", (before_round(lines, k),)).fetchall()
        pairs, bye = engine_round(lines, k)
        assert rows and pairs
        assert ({(a, b) for a, b in rows if b is not None},
                [a for a, b in rows if b is None]) == (pairs, [bye] if bye else []), f"round {k}"


# Accelerated events (Baku, C.04.5.1): files that bbpPairings paired with TRF-2026 250 records
# giving the virtual points.  baku-022p-09r-s9003: 22 players, 9 rounds, group A the first 12
# (2 * ceil(22 / 4); half of 22 rounded up, 11, pairs otherwise), one virtual point before
# rounds 1-3, half a point before rounds 4-5.
BAKU = "baku-022p-09r-s9003"
# Record 192 naming Baku acceleration (the code FIDE_DUTCH_2025_BAKU): the rule's rounds,
# ceil(rounds / 2), and group A.  baku192-027p-08r-s9102: 27 players (the engine's group A,
# half of them rounded up, is the rule's 2 * ceil(27 / 4) = 14), 8 rounds: 4 accelerated.
BAKU192 = "baku192-027p-08r-s9102"


def trf_lines(name, without=None):
    """The lines of a test file, those of the record `without` left out."""
    return [line for line in (DATA / f"{name}.trf").read_text().split("\n")
            if without is None or not line.startswith(without)]


def pairing_error(db, text, system="dutch"):
    """The error of pairings() on a file's text."""
    with pytest.raises(sqlite3.OperationalError) as info:
        db.execute("SELECT * FROM pairings(?, ?, NULL, 'trf_matches', 'trf_players')",
                   (text, system)).fetchall()
    return str(info.value)


def pair_every_round(db, lines, rounds, system="dutch"):
    for k in range(1, rounds + 1):
        rows = db.execute(f"SELECT number_a, number_b FROM pairings(?, '{system}', NULL, "
                          "'trf_matches', 'trf_players')", (before_round(lines, k),)).fetchall()
        pairs, bye = engine_round(lines, k)
        assert rows and pairs
        assert ({(a, b) for a, b in rows if b is not None},
                [a for a, b in rows if b is None]) == (pairs, [bye] if bye else []), f"round {k}"


def test_dutch_accelerated_by_the_files_250_records(db):
    lines = trf_lines(BAKU)
    assert sum(line.startswith("250") for line in lines) == 2
    pair_every_round(db, lines, 9)


def test_dutch_accelerated_by_the_option_as_the_rule_has_it(db):
    lines = trf_lines(BAKU, "250")
    pair_every_round(db, lines, 9, "dutch(accelerated=5)")


def test_dutch_without_the_acceleration_pairs_otherwise(db):
    lines = trf_lines(BAKU, "250")
    with pytest.raises(AssertionError, match="round 1"):
        pair_every_round(db, lines, 1)


def xxa_lines(players, group_a):
    """The same virtual points as the file's 250 records, as XXA lines (rounds 1-5)."""
    return [f"XXA {p:04d}" + "".join(f" {v:4.1f}" for v in (1, 1, 1, 0.5, 0.5))
            for p in range(1, group_a + 1)]


def test_dutch_accelerated_by_xxa_records(db):
    lines = trf_lines(BAKU, "250")
    pair_every_round(db, lines + xxa_lines(22, 12), 9)


def test_dutch_reads_xxa_by_its_columns_a_blank_field_is_a_round_without_points(db):
    """XXA fields are fixed columns (10-13, 15-18, ...): a blank field is a round without
    virtual points and the later rounds keep theirs. Read as words, the blank shifted
    round 3's point into round 2."""
    plain = trf_lines(BAKU, "250")
    blank = [f"XXA {p:04d}  1.0       1.0" for p in range(1, 13)]
    assert blank[0][9:13] == " 1.0" and blank[0][14:18] == "    " and blank[0][19:23] == " 1.0"
    same = ["250       1.0 001 001 0001 0012", "250       1.0 003 003 0001 0012"]
    shifted = ["250       1.0 001 002 0001 0012"]
    query = ("SELECT number_a, number_b FROM pairings(?, 'dutch', NULL, 'trf_matches', "
             "'trf_players')")
    for k in (2, 3):
        got = db.execute(query, (before_round(plain + blank, k),)).fetchall()
        assert got == db.execute(query, (before_round(plain + same, k),)).fetchall()
        assert got != db.execute(query, (before_round(plain + shifted, k),)).fetchall()


def test_dutch_reads_the_team_form_of_record_250(db):
    """Six fields: match points (teams) first; the game points are the virtual points."""
    lines = [line.replace("250       ", "250 00.0  ") if line.startswith("250") else line
             for line in trf_lines(BAKU)]
    assert lines.count("250 00.0  1.0 001 003 0001 0012") == 1
    pair_every_round(db, lines, 3)


@pytest.mark.parametrize("name, k, option, what", [
    (BAKU, 2, "accelerated=5", "the file's virtual points (records 250 or XXA)"),
    (BAKU192, 1, "accelerated=4", "the file's record 192 (Baku acceleration)")])
def test_dutch_option_and_file_both_accelerating_is_an_error(db, name, k, option, what):
    assert pairing_error(db, before_round(trf_lines(name), k), f"dutch({option})").startswith(
        f"pairings(): the event of the file: {option} and {what} both accelerate the event")


@pytest.mark.parametrize("record, why", [
    ("250       1.0 003 001 0001 0012", "a range of rounds or players is empty"),
    ("250       x.5 001 003 0001 0012", "not points such as 1.0"),
    ("250       1.0 001 003 0001", "not the fields of record 250"),
    ("XXA 0001  1.0  one", "not points such as 1.0"),
    ("XXA 00011.0", "a field out of its columns"),
    ("XXA 0001  1.00.5", "a field out of its columns"),
    ("XXA 00x1  1.0", "no start number in columns 5-8"),
    ("XXA0001  1.0", "no start number in columns 5-8"),
    ("XXA 9999  1.0", "start number 9999 has no 001 record"),
    # digits past column 8: not start number 9999
    ("XXA 99999999999999999999", "a field out of its columns (the start number in columns 5-8)"),
    ("XXA 00991.0", "a field out of its columns (the start number in columns 5-8)"),
])
def test_dutch_bad_virtual_points_record(db, record, why):
    lines = trf_lines(BAKU, "250")
    text = before_round(lines + [record], 2)
    shown = record[:4] + record[4:].strip()   # the record's code and its value
    assert pairing_error(db, text).startswith(
        f"pairings(): the event of the file: record '{shown}': {why}")


def test_dutch_accelerated_by_record_192(db):
    lines = trf_lines(BAKU192)
    assert "192 FIDE_DUTCH_2025_BAKU" in lines
    pair_every_round(db, lines, 8)


def test_dutch_record_192_needs_the_rounds(db):
    lines = trf_lines(BAKU192, "XXR")
    text = before_round(lines, 1)
    assert "record 192 names Baku acceleration, which needs the rounds scheduled" in \
        pairing_error(db, text)
    rows = db.execute("SELECT number_a, number_b FROM pairings(?, 'dutch(rounds=8)', NULL, "
                      "'trf_matches', 'trf_players')", (text,)).fetchall()
    assert rows and engine_round(lines, 1)[0] == {(a, b) for a, b in rows if b is not None}


def test_dutch_xxa_records_set_record_192_aside(db):
    """TRF-2026: with virtual points given by records, 192's acceleration method is
    disregarded: here an XXA record of no points, so the round pairs as without acceleration."""
    plain = trf_lines(BAKU, "250")
    query = ("SELECT number_a, number_b FROM pairings(?, 'dutch', NULL, 'trf_matches', "
             "'trf_players')")
    with_192 = db.execute(query, (before_round(plain + ["192 FIDE_DUTCH_2025_BAKU"], 1),)).fetchall()
    with_both = db.execute(query, (before_round(plain + ["192 FIDE_DUTCH_2025_BAKU",
                                                         "XXA 0001  0.0"], 1),)).fetchall()
    without = db.execute(query, (before_round(plain, 1),)).fetchall()
    assert with_both == without != with_192


# Options that contradict the rounds scheduled: each error names both.
def test_dutch_accelerating_more_rounds_than_scheduled_is_an_error(db):
    plain = trf_lines(BAKU, "250")
    text = before_round(plain, 1)           # XXR 9
    query = "SELECT * FROM pairings(?, ?, NULL, 'trf_matches', 'trf_players')"
    assert pairing_error(db, text, "dutch(accelerated=3, rounds=2)") == (
        "pairings(): the event of the file: accelerated=3 is more rounds than rounds=2: Baku "
        "acceleration accelerates ceil(rounds / 2) of the rounds scheduled (1)")
    assert pairing_error(db, text, "dutch(accelerated=10)").endswith(
        "accelerated=10 is more rounds than the 9 rounds the file schedules (XXR or 142): Baku "
        "acceleration accelerates ceil(rounds / 2) of the rounds scheduled (5)")
    # as many as scheduled is the arbiter's choice, not a contradiction
    assert db.execute(query, (text, "dutch(accelerated=2, rounds=2)")).fetchall()
    assert db.execute(query, (text, "dutch(accelerated=9)")).fetchall()


def test_a_round_past_the_rounds_option_is_an_error(db):
    """'dutch(rounds=2)' asked to pair round 3 contradicts itself, and so does a file
    whose XXR (or 142) is 2: the criteria of the last round would pair the wrong one.
    rounds=N given decides over the file (the arbiter adds a round)."""
    text = before_round(trf_lines(BAKU, "250"), 3)          # rounds 1-2 played, XXR 9
    assert pairing_error(db, text, "dutch(rounds=2)") == (
        "pairings(): the event of the file: round 3 is past the rounds scheduled "
        "(rounds=2); rounds=N schedules more")
    query = "SELECT * FROM pairings(?, ?, NULL, 'trf_matches', 'trf_players')"
    assert db.execute(query, (text, "dutch(rounds=3)")).fetchall()
    text = "\n".join(line.replace("XXR 9", "XXR 2") for line in text.split("\n"))
    assert pairing_error(db, text, "dutch") == (
        "pairings(): the event of the file: round 3 is past the 2 rounds the file schedules "
        "(XXR or 142); rounds=N schedules more")
    assert len(db.execute(query, (text, "dutch(rounds=3)")).fetchall()) == 11


@pytest.mark.parametrize("n", [3001, 10000])
def test_dutch_past_its_player_limit_is_an_error_before_the_weights(db, n):
    """Past 3,000 players (rounds 1 and 2 of 3,000 took 3.7 and 8.2 s, growing as n^3 at
    worst) the round is refused before anything is allocated, naming the event, the
    players and the limit. (The pairs' keys are made when read, not kept: the limit is the
    time's, not the memory's; 10,000 players once failed with a bare out of memory.)"""
    db.execute("CREATE TABLE players (event_id, player, rating)")
    db.execute("CREATE TABLE matches (event_id, round, player_a, player_b, a_wins, b_wins, "
               "draws)")
    db.executemany("INSERT INTO players VALUES ('open', ?, ?)",
                   [(i, 3000 - i % 2000) for i in range(1, n + 1)])
    with pytest.raises(Exception, match=re.escape(
            f"pairings(): event 'open': dutch: {n} players to pair, more than the 3000 it pairs "
            f"(a round's time grows as the cube of the players at worst)")):
        db.execute("SELECT * FROM pairings('open', 'dutch')").fetchall()
