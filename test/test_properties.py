"""Properties every policy must have, checked on generated events.

For every policy listed by tiebreak_policies (so a new policy is covered the
day it is added):
* renaming the players (a bijection) and shuffling the rows changes nothing
  but the names;
* standings as of the last round equal the final standings;
* every event computed in one call (no event_id) equals each event computed
  alone;
* ranks form a competition ranking (1, 2, 2, 4) and decided_by is NULL
  exactly where a rank is shared;
* the columns a statement reads change nothing: a tiebreaker no column
  shows is computed only for the players it ranks, and the ranks, the
  decided_by and every value read are those of SELECT *.
"""
import random

import pytest

SCHEMA = """
CREATE TABLE matches (event_id NOT NULL, round INTEGER NOT NULL, player_a NOT NULL,
  player_b, a_wins INTEGER NOT NULL DEFAULT 0, b_wins INTEGER NOT NULL DEFAULT 0,
  draws INTEGER NOT NULL DEFAULT 0, result TEXT);
CREATE TABLE players (event_id, player, rating);
"""
# Outcomes that every policy reads: chess games and best-of-three matches.
RESULTS = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (2, 0, 0), (2, 1, 0), (1, 2, 0), (0, 2, 0),
           (1, 1, 1), (0, 0, 3)]


def generate(seed, n_events=4):
    """Swiss-like events: random pairings, a bye for the odd one, some drops."""
    rng = random.Random(seed)
    rows, ratings = [], []
    for event in range(1, n_events + 1):
        players = [f"p{event}_{i}" for i in range(rng.randint(3, 12))]
        for p in players:
            ratings.append((event, p, rng.randint(1000, 2400)))
        active = list(players)
        for rnd in range(1, rng.randint(2, 6) + 1):
            rng.shuffle(active)
            if len(active) % 2:
                rows.append((event, rnd, active[-1], None, 0, 0, 0, None))
            for a, b in zip(active[0::2], active[1::2]):
                rows.append((event, rnd, a, b) + rng.choice(RESULTS) + (None,))
            if rnd >= 2 and len(active) > 3 and rng.random() < 0.3:
                active.pop()  # a drop
    return rows, ratings


def load(connect, rows, ratings):
    db = connect()
    db.executescript(SCHEMA)
    db.executemany("INSERT INTO matches VALUES (?,?,?,?,?,?,?,?)", rows)
    db.executemany("INSERT INTO players VALUES (?,?,?)", ratings)
    return db


def standings(db, event, policy, extra=""):
    cur = db.execute(f"SELECT * FROM standings(?, ?) {extra}", (event, policy))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def by_player(rows, rename=None):
    """player -> every column but player and decided_by (ties list by id)."""
    out = {}
    for r in rows:
        key = rename[r["player"]] if rename else r["player"]
        out[key] = {k: v for k, v in r.items() if k not in ("player", "decided_by")}
    return out


def decided_by_rank(rows):
    out = {}
    for r in rows:
        out.setdefault(r["rank"], set()).add(r["decided_by"])
    return out


@pytest.fixture(scope="module")
def policies(connect):
    return [name for (name,) in connect().execute("SELECT name FROM tiebreak_policies")]


@pytest.mark.parametrize("seed", range(12))
def test_renaming_and_shuffling_change_nothing(connect, policies, seed):
    rows, ratings = generate(seed)
    rng = random.Random(1000 + seed)
    names = sorted({r[2] for r in rows} | {r[3] for r in rows if r[3]})
    shuffled_names = names[:]
    rng.shuffle(shuffled_names)
    rename = {old: "n_" + new for old, new in zip(names, shuffled_names)}
    renamed = [(e, r, rename[a], rename[b] if b else None, aw, bw, d, res)
               for (e, r, a, b, aw, bw, d, res) in rows]
    rng.shuffle(renamed)
    renamed_ratings = [(e, rename[p], x) for (e, p, x) in ratings]
    db1, db2 = load(connect, rows, ratings), load(connect, renamed, renamed_ratings)
    for policy in policies:
        for event in {r[0] for r in rows}:
            a = standings(db1, event, policy)
            b = standings(db2, event, policy)
            assert by_player(a, rename) == by_player(b), (policy, event)
            assert decided_by_rank(a) == decided_by_rank(b), (policy, event)


@pytest.mark.parametrize("seed", range(12))
def test_as_of_last_round_equals_final(connect, policies, seed):
    rows, ratings = generate(seed)
    db = load(connect, rows, ratings)
    for policy in policies:
        for event in {r[0] for r in rows}:
            last = max(r[1] for r in rows if r[0] == event)
            final = standings(db, event, policy)
            as_of = db.execute("SELECT * FROM standings(?, ?, NULL, ?)", (event, policy, last))
            names = [d[0] for d in as_of.description]
            as_of = [dict(zip(names, r)) for r in as_of.fetchall()]
            assert final == as_of, (policy, event)


@pytest.mark.parametrize("seed", range(6))
def test_every_event_in_one_call(connect, policies, seed):
    rows, ratings = generate(seed)
    db = load(connect, rows, ratings)
    for policy in policies:
        cur = db.execute("SELECT *, event_id FROM standings WHERE policy = ?", (policy,))
        names = [d[0] for d in cur.description]
        together = [dict(zip(names, r)) for r in cur.fetchall()]
        events = sorted({r[0] for r in rows})
        assert sorted({r["event_id"] for r in together}) == events
        for event in events:
            alone = standings(db, event, policy)
            mine = [{k: v for k, v in r.items() if k != "event_id"}
                    for r in together if r["event_id"] == event]
            assert mine == alone, (policy, event)


@pytest.mark.parametrize("seed", range(12))
def test_competition_ranking(connect, policies, seed):
    rows, ratings = generate(seed)
    db = load(connect, rows, ratings)
    for policy in policies:
        for event in {r[0] for r in rows}:
            got = standings(db, event, policy)
            for i, r in enumerate(got):
                if i == 0:
                    assert r["rank"] == 1 and r["decided_by"] is None
                elif r["rank"] == got[i - 1]["rank"]:
                    assert r["decided_by"] is None, (policy, event, r)
                else:
                    assert r["rank"] == i + 1 and r["decided_by"] is not None, (policy, event, r)


# The longest C.07 order, a policy whose tiebreakers' columns lie past the
# 64th (SQLite's colUsed gives one bit to all of those).
LONG_FIDE = "PTS,BH/C1,BH,SB,DE,WIN,WON,BPG,BWG,REP,AOB,FB,ARO/C1,TPR,APRO,PTP"


@pytest.mark.parametrize("seed", range(8))
def test_columns_read_change_nothing(connect, policies, seed):
    rows, ratings = generate(seed)
    db = load(connect, rows, ratings)
    columns = [d[0] for d in db.execute("SELECT * FROM standings(1, 'fide') LIMIT 0").description]
    for policy in policies + [LONG_FIDE, "points,ptp,appo"]:
        for event in sorted({r[0] for r in rows}):
            full = standings(db, event, policy)
            order = [(r["player"], r["rank"], r["decided_by"]) for r in full]
            assert db.execute("SELECT player, rank, decided_by FROM standings(?, ?)",
                              (event, policy)).fetchall() == order, (policy, event)
            # one column at a time, a late one alone, in WHERE and ORDER BY
            for col in columns:
                got = db.execute(f'SELECT player, "{col}" FROM standings(?, ?)',
                                 (event, policy)).fetchall()
                assert got == [(r["player"], r[col]) for r in full], (policy, event, col)
            last = columns[-1]
            got = db.execute(f'SELECT player FROM standings(?, ?) WHERE "{last}" IS NOT NULL '
                             f'ORDER BY "{last}", rank, player', (event, policy)).fetchall()
            want = sorted((r for r in full if r[last] is not None),
                          key=lambda r: (r[last], r["rank"], r["player"]))
            assert got == [(r["player"],) for r in want], (policy, event)


@pytest.mark.parametrize("seed", range(8))
def test_values_read_later_equal_values_ranked_on(connect, seed):
    """A value computed when its column is read (no comparison needed it) equals the
    value of the same tiebreaker ranked on first, which every player's comparison needs."""
    rows, ratings = generate(seed)
    db = load(connect, rows, ratings)
    per_player = {n for (n,) in db.execute(
        "SELECT name FROM tiebreakers WHERE family = 'fide' AND NOT among_tied")}
    for policy in ["fide", LONG_FIDE, "points,ptp,appo"]:
        row = db.execute("SELECT tiebreakers || ',' || also_shown FROM tiebreak_policies"
                         " WHERE name = ?", (policy,)).fetchone()
        codes = row[0].split(",") if row else policy.split(",")
        names = [db.execute("SELECT name FROM tiebreakers WHERE name = lower(?) OR "
                            "upper(code) = upper(?)", (c, c)).fetchone()[0] for c in codes]
        for event in sorted({r[0] for r in rows}):
            for name in names:
                if name not in per_player:
                    continue
                later = dict(db.execute(f'SELECT player, "{name}" FROM standings(?, ?)',
                                        (event, policy)).fetchall())
                first = dict(db.execute(f'SELECT player, "{name}" FROM standings(?, ?)',
                                        (event, name)).fetchall())
                assert later == first, (policy, event, name)
