#!/usr/bin/python3
"""The file readers on large generated files: growth and interrupt latency.

    /usr/bin/python3 bench/files.py [--build-dir build] [--before OLD_BUILD_DIR]

Growth: melee_matches() over one round of 2,000 to 32,000 matches (the
reproducer of a reader that read the whole round for each match), and over
5-round files of 10,000 and 100,000 players; each time beside the previous
size's, as a ratio (2.0 for linear when the size doubles).

Latency: a large TOM, TRF and Melee text is read once untimed to learn how
long it takes, then read again with sqlite3_interrupt() or a progress
handler that says stop at half that time; the time from the stop to the
error is printed (best and worst of a few runs).  On a loaded machine that
time includes waiting for a core; so the longest stretch of the reading
thread's CPU time between two calls of a progress handler called at every
instruction are printed too (the two longest): the latency the reading
itself adds.  With a TEXT argument the longest is SQLite's own: it copies
a bound text to NUL-terminate it when the reader first asks for it.  The readers step a probe
statement (TbProbe) while they parse, which is where SQLite answers both.

The generators are used by test/test_bounds.py and test/test_interrupt.py too.
"""
import argparse
import os
import sqlite3
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def melee_text(rounds, players, standings=0):
    """A Melee.gg file: `rounds` rounds of `players` players paired 0-1, 2-3 ...
    (shifted by two each round), Player1 winning 2-0; then `standings` entries
    of Standings[] with no record (nothing to infer from them)."""
    out = []
    for r in range(rounds):
        order = [(i + r * 2) % players for i in range(players)]
        matches = ",".join('{"Player1":"p%d","Player2":"p%d","Result":"2-0-0"}'
                           % (order[i], order[i + 1]) for i in range(0, players - 1, 2))
        out.append('{"RoundName":"Round %d","Matches":[%s]}' % (r + 1, matches))
    entries = ",".join('{"Player":"s%d","Rank":%d}' % (i, i + 1) for i in range(standings))
    return '{"Rounds":[%s],"Standings":[%s]}' % (",".join(out), entries)


def tom_text(players, rounds, notes=0):
    """A TOM file: `players` players in one Masters pod, `rounds` rounds of
    pairings (i, i + r); then `notes` elements the reader skips."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<tournament type="3" stage="5">\n'
           '<data><startdate>03/14/2026</startdate>']
    out.extend("<note>%d</note>\n" % i for i in range(notes))
    out.append("</data>\n<players>\n")
    out.extend('<player userid="%d"><firstname>P%d</firstname><lastname>L</lastname>'
               '</player>\n' % (i, i) for i in range(players))
    out.append('</players>\n<pods><pod category="2" stage="5"><rounds>\n')
    for r in range(1, rounds + 1):
        out.append('<round number="%d" type="3" stage="4"><matches>\n' % r)
        shift = 2 * r - 1  # odd: pairs an even seat with an odd one, never twice
        out.extend('<match outcome="%d"><player1 userid="%d"/><player2 userid="%d"/>'
                   '</match>\n' % (1 + (i + r) % 3, i, (i + shift) % players)
                   for i in range(0, players, 2) if shift < players)
        out.append("</matches></round>\n")
    out.append("</rounds></pod></pods>\n</tournament>\n")
    return "".join(out)


def trf_text(players, rounds, records=0):
    """A TRF-16 file: `players` 001 records over `rounds` rounds, players 2k and
    2k+1 meeting in round 1, the pairs shifted by two seats each round (White
    wins); then `records` comment lines (code ###) that no reader turns into rows."""
    opp = {}
    for r in range(rounds):
        for k in range(0, players, 2):
            a, b = (k + 2 * r) % players, (k + 1) % players
            opp[a, r], opp[b, r] = (b + 1, "w", "1"), (a + 1, "b", "0")
    lines = ["012 Generated event", "XXR %d" % rounds]
    for i in range(players):
        line = "001 %4d m    %-33s %4d %3s %11d %10s %4.1f %4d" % (
            i + 1, "Player %d" % i, 2000, "NOR", 0, "", 0.0, i + 1)
        line = line.ljust(89)
        for r in range(rounds):
            o, c, res = opp.get((i, r), (None, "-", "-"))
            line += "  %4s %s %s" % (o if o else "", c, res)
        lines.append(line)
    lines.extend("### note %d" % i for i in range(records))
    return "\n".join(lines) + "\n"


def connect(build_dir):
    conn = sqlite3.connect(":memory:")
    conn.enable_load_extension(True)
    conn.load_extension(os.path.join(build_dir, "tiebreak"))
    conn.enable_load_extension(False)
    return conn


def timed(conn, sql, arg):
    t0 = time.perf_counter()
    row = conn.execute(sql, (arg,)).fetchone()
    return time.perf_counter() - t0, row


def growth(conns, sizes):
    """conns: {label: connection}, timed side by side, each size in turn."""
    print("melee_matches(), one round of n matches (seconds; ratio to the size before)")
    prev = {}
    for n in sizes:
        text = melee_text(1, 2 * n)
        cells = []
        for label, conn in conns.items():
            t, row = timed(conn, "SELECT count(*) FROM melee_matches(?)", text)
            assert row == (n,)
            cells.append(f"{label} {t:7.3f} s" + (f" x{t / prev[label]:5.2f}" if label in prev
                                                   else "       "))
            prev[label] = t
        print(f"  {n:6d} matches  " + "   ".join(cells))
    print("melee_matches() and standings(), 5 rounds of p players")
    for p in (10_000, 100_000):
        text = melee_text(5, p)
        for label, conn in conns.items():
            if p > 10_000 and len(conns) > 1 and label != "after":
                continue  # minutes on a quadratic reader
            t, row = timed(conn, "SELECT count(*) FROM melee_matches(?)", text)
            t2, _ = timed(conn, "SELECT count(*) FROM standings(?, 'mtg', NULL, NULL, "
                          "'melee_matches', '')", text)
            print(f"  {p:7d} players ({len(text) / 1e6:.1f} MB)  {label}: reader {t:.3f} s, "
                  f"standings {t2:.3f} s")


def stop_latency(conn, sql, arg, delay, how):
    """Run sql; after delay seconds interrupt (how='interrupt') or make the
    progress handler say stop: the seconds from then to the error, or None."""
    fired = []
    if how == "progress":
        conn.set_progress_handler(lambda: 1 if fired else 0, 1000)

    def fire():
        fired.append(time.perf_counter())
        if how == "interrupt":
            conn.interrupt()

    timer = threading.Timer(delay, fire)
    timer.start()
    try:
        conn.execute(sql, (arg,)).fetchall()
        end = None
    except sqlite3.OperationalError as e:
        assert "interrupted" in str(e), e
        end = time.perf_counter()
    timer.join()
    conn.set_progress_handler(None, 0)
    return end - fired[0] if end and fired else None


def largest_gaps(conn, sql, arg):
    """The two longest stretches of this thread's CPU time between two calls of
    a progress handler called at every VM instruction, from the statement's
    first instruction on (binding the text comes before): how late a stop can
    be, whatever else the machine runs (a loaded machine only adds waiting)."""
    stamps = []

    def handler():
        stamps.append(time.thread_time())
        return 0

    conn.set_progress_handler(handler, 1)
    conn.execute(sql, (arg,)).fetchall()
    conn.set_progress_handler(None, 0)
    gaps = sorted((b - a for a, b in zip(stamps, stamps[1:])), reverse=True)
    return gaps[:2]


def latency(conn, reps):
    cases = [
        ("TOM", "SELECT count(*) FROM tom_matches(?)", tom_text(200_000, 8, notes=400_000)),
        ("TRF", "SELECT count(*) FROM trf_records(?)", trf_text(2_000, 40, records=1_000_000)),
        ("Melee", "SELECT count(*) FROM melee_matches(?)",
         melee_text(5, 100_000, standings=200_000)),
    ]
    print("stop latency while a reader parses (ms from the stop to the error; "
          f"best / worst of {reps})")
    for name, sql, text in cases:
        full, _ = timed(conn, sql, text)
        gaps = largest_gaps(conn, sql, text)
        print(f"  {name:5s} {len(text) / 1e6:6.1f} MB, longest CPU times between two "
              f"progress calls: {gaps[0] * 1000:.1f}, {gaps[1] * 1000:.1f} ms")
        for how in ("interrupt", "progress"):
            got = [stop_latency(conn, sql, text, full / 2, how) for _ in range(reps)]
            got = [g * 1000 for g in got if g is not None]
            shown = f"{min(got):6.1f} / {max(got):6.1f}" if got else "finished first"
            print(f"  {name:5s} {len(text) / 1e6:6.1f} MB, full read {full * 1000:6.0f} ms, "
                  f"{how:9s}: {shown}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--only", choices=["growth", "latency"])
    ap.add_argument("--before", metavar="BUILD_DIR",
                    help="an earlier build, timed beside this one (growth only)")
    ap.add_argument("--sizes", default="2000,4000,8000,16000,32000",
                    help="matches in the one round (default %(default)s)")
    args = ap.parse_args()
    conn = connect(args.build_dir)
    if args.only != "latency":
        conns = {"before": connect(args.before), "after": conn} if args.before else {"": conn}
        growth(conns, [int(n) for n in args.sizes.split(",")])
    if args.only != "growth":
        latency(conn, args.reps)


if __name__ == "__main__":
    sys.exit(main())
