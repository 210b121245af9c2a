"""Reference MTG standings (MTR Appendix C) in exact rational arithmetic.

Deliberately simple and independent of the C extension: it is the oracle for
differential tests of the 'mtg' policy.

    standings(rows, floor=Fraction(33, 100), game_draw_points=1) -> {player: dict}

rows: iterable of (round, player_a, player_b, a_wins, b_wins, draws[, result]);
player_b None = bye for player_a; result None/'a'/'b'/'draw'/'double_loss'.
Each player's dict holds the standings() columns (Fractions for mwp, gwp, omwp,
ogwp; omwp/ogwp None without opponents) plus 'position', the 0-based row order.
"""
from fractions import Fraction

KEYS = ("match_points", "omwp", "gwp", "ogwp")


def parse_fraction(value):
    """'1/3', '0.33', 0.33 (as written, not the binary double), Fraction."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, float):
        value = repr(value)
    return Fraction(str(value).strip())


def sqlite_order_key(player):
    """SQLite collation of mixed ids: numbers before text, text by UTF-8 bytes."""
    if isinstance(player, (int, float)):
        return (0, player, b"")
    return (1, 0, str(player).encode("utf-8"))


def _outcome(rnd, a, aw, bw, result):
    """Match outcome for (A, B): each 'W', 'L' or 'D'."""
    if result is None:
        result = "a" if aw > bw else "b" if bw > aw else "draw"
    elif result == "a" and bw > aw or result == "b" and aw > bw:
        raise ValueError(f"result {result!r} contradicts {aw}-{bw} in round {rnd} of {a!r}")
    try:
        return {"a": "WL", "b": "LW", "draw": "DD", "double_loss": "LL"}[result]
    except KeyError:
        raise ValueError(f"unknown result {result!r} in round {rnd} of {a!r}") from None


def standings(rows, floor=Fraction(33, 100), game_draw_points=1, distinct_opponents=False,
              no_opponents=None, freeze_cut_after=None):
    """Options as the policy's (docs/policy-mtg.md): distinct_opponents counts a
    rematch once; no_opponents is the OMW%/OGW% of a player without opponents;
    freeze_cut_after=N values the OMW%/OGW% of players who played no round after N
    with their opponents' MWP/GWP as of round N (when the event went on)."""
    floor = parse_fraction(floor)
    gdp = parse_fraction(game_draw_points)
    stats = {}
    opponents = {}  # player -> list of opponents, one entry per match
    rounds_of = {}  # player -> set of rounds, to detect double pairings

    def rec(p):
        if p not in stats:
            stats[p] = dict(match_points=0, wins=0, losses=0, draws=0, byes=0,
                            rounds=0, game_wins=0, game_losses=0, game_draws=0,
                            last_round=0)
            opponents[p] = []
            rounds_of[p] = set()
        return stats[p]

    def play(p, rnd, outcome, gw, gl, gd):
        s = rec(p)
        if rnd in rounds_of[p]:
            raise ValueError(f"player {p!r} paired twice in round {rnd}")
        rounds_of[p].add(rnd)
        s["rounds"] += 1
        s["last_round"] = max(s["last_round"], rnd)
        s[{"W": "wins", "L": "losses", "D": "draws"}[outcome]] += 1
        s["match_points"] += {"W": 3, "L": 0, "D": 1}[outcome]
        s["game_wins"] += gw
        s["game_losses"] += gl
        s["game_draws"] += gd

    last_round = 0
    for row in rows:
        rnd, a, b, aw, bw, d = row[:6]
        result = row[6] if len(row) > 6 else None
        last_round = max(last_round, rnd)
        if b is None:
            # A bye is a 2-0 match win whatever the recorded counts (0-0-0 or 2-0-0).
            if (aw, bw, d) not in ((0, 0, 0), (2, 0, 0)):
                raise ValueError(f"bye of {a!r} in round {rnd} has counts {aw}-{bw}-{d}")
            play(a, rnd, "W", 2, 0, 0)
            rec(a)["byes"] += 1
            continue
        if a == b:
            raise ValueError(f"player {a!r} paired with themself in round {rnd}")
        if min(aw, bw, d) < 0:
            raise ValueError(f"negative game count in round {rnd} of {a!r}")
        oa, ob = _outcome(rnd, a, aw, bw, result)
        play(a, rnd, oa, aw, bw, d)
        play(b, rnd, ob, bw, aw, d)
        opponents[a].append(b)
        opponents[b].append(a)

    for s in stats.values():
        gp = 3 * s["game_wins"] + gdp * s["game_draws"]
        s["game_points"] = int(gp) if gp.denominator == 1 else gp
        s["games"] = s["game_wins"] + s["game_losses"] + s["game_draws"]
        s["mwp"] = max(Fraction(s["match_points"], 3 * s["rounds"]), floor)
        s["gwp"] = max(Fraction(s["game_points"]) / (3 * s["games"]), floor) if s["games"] else floor
    at_cut = None
    if freeze_cut_after is not None and last_round > freeze_cut_after:
        at_cut = standings([r for r in rows if r[0] <= freeze_cut_after], floor, game_draw_points)
    for p, s in stats.items():
        opps = opponents[p]
        if distinct_opponents:
            opps = list(dict.fromkeys(opps))
        src = at_cut if at_cut is not None and s["last_round"] <= freeze_cut_after else stats
        if not opps:
            s["omwp"] = s["ogwp"] = None if no_opponents is None else parse_fraction(no_opponents)
            continue
        s["omwp"] = sum((src[o]["mwp"] for o in opps), Fraction(0)) / len(opps)
        s["ogwp"] = sum((src[o]["gwp"] for o in opps), Fraction(0)) / len(opps)
    for s in stats.values():
        last = s.pop("last_round")
        # cut_after: a player whose last round is the cut was cut, not dropped
        s["dropped"] = int(last < last_round and last != freeze_cut_after)

    _rank(stats)
    return stats


def _sort_key(s):
    # NULL omwp/ogwp (only byes) rank as 0.
    return tuple(s[k] if s[k] is not None else 0 for k in KEYS)


def _rank(stats):
    order = sorted(stats, key=sqlite_order_key)
    order.sort(key=lambda p: _sort_key(stats[p]), reverse=True)  # stable: ties stay by id
    prev = None
    for i, p in enumerate(order):
        s = stats[p]
        key = _sort_key(s)
        if prev is not None and key == prev:
            s["rank"], s["decided_by"] = stats[order[i - 1]]["rank"], None
        else:
            s["rank"] = i + 1
            s["decided_by"] = None if prev is None else next(
                k for k, x, y in zip(KEYS, key, prev) if x != y)
        s["position"] = i  # row order of the standings output
        prev = key


def ordered(stats):
    """Players in standings row order (rank, then player id)."""
    return sorted(stats, key=lambda p: stats[p]["position"])
