#!/usr/bin/python3
"""Time standings() against a raw scan, plain SQL and the per-player scalar.

    /usr/bin/python3 bench/run.py [S M L XL ...]     (default: S M L)

For each size (see gen.py) it times, side by side on the same file:

  scan       reading the event's rows:  SELECT count(*), max(player_a), ...
             FROM matches WHERE event_id = ?   (L: every event, no WHERE)
  standings  SELECT count(*) FROM standings(?, 'mtg')
             (L: FROM standings WHERE policy = 'mtg', all 1,000 events in one
             call, which reads the table in one pass)
  joined     L only: FROM events AS e, standings(e.id, 'mtg'), one call per
             event, each reading its event through the index
  pure SQL   bench/pure_sql.sql wrapped in SELECT count(*)  (L: once per event)
  omwp       SELECT count(omwp(?1, player)) FROM entries WHERE event_id = ?1
             (L: once per event)
  column     SELECT count(omwp(event_id, player)) FROM entries: the event from
             a column, every entry of every event in one statement
  policies   the same under five policies, the policy from a column too (one
             per entry in turn): each event computed once per policy

Each measurement runs in its own process (connect, load, one untimed run to
warm the caches, one timed run), the kinds interleaved round-robin so that
noise on a shared machine hits them alike; the table shows medians.  Memory is
the measuring process's peak RSS minus its peak before the first query.  Then
pure SQL and standings() are compared player by player (bench/README.md).

Nothing here asserts a time: the figures are for comparing, side by side.
"""
import argparse
import glob
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep the source tree free of __pycache__
import gen  # noqa: E402

KINDS = ("scan", "standings", "pure", "omwp", "joined", "column", "policies")

SCAN_SQL = ("SELECT count(*), max(player_a), max(player_b), "
            "sum(round + a_wins + b_wins + draws) FROM matches")
STANDINGS_SQL = "SELECT count(*) FROM standings(?1, 'mtg')"
STANDINGS_ALL_SQL = "SELECT count(*) FROM standings WHERE policy = 'mtg'"
JOINED_SQL = "SELECT count(*) FROM events AS e, standings(e.id, 'mtg')"
OMWP_SQL = "SELECT count(omwp(?1, player)) FROM entries WHERE event_id = ?1"
COLUMN_SQL = "SELECT count(omwp(event_id, player)) FROM entries"
POLICIES_SQL = ("SELECT count(omwp(event_id, player, CASE player % 5 WHEN 0 THEN 'mtg'"
                " WHEN 1 THEN 'melee' WHEN 2 THEN 'yugioh' WHEN 3 THEN 'battlefy'"
                " ELSE 'mtg(floor=0)' END)) FROM entries")


def pure_sql():
    with open(os.path.join(HERE, "pure_sql.sql")) as f:
        return f.read().strip().rstrip(";")


def connect(db, ext):
    import sqlite3
    conn = sqlite3.connect(db)
    conn.enable_load_extension(True)
    conn.load_extension(ext)
    conn.enable_load_extension(False)
    return conn


def query_runner(conn, kind, all_events):
    """A function running one measurement once; returns a checksum-like value."""
    if kind == "scan":
        sql = SCAN_SQL if all_events else SCAN_SQL + " WHERE event_id = ?1"
        params = () if all_events else (1,)
        return lambda: conn.execute(sql, params).fetchall()
    if kind == "standings" and all_events:
        return lambda: conn.execute(STANDINGS_ALL_SQL).fetchall()
    if kind == "joined":
        return lambda: conn.execute(JOINED_SQL).fetchall()
    if kind == "column":
        return lambda: conn.execute(COLUMN_SQL).fetchall()
    if kind == "policies":
        return lambda: conn.execute(POLICIES_SQL).fetchall()
    sql = {"standings": STANDINGS_SQL,
           "pure": "SELECT count(*) FROM (\n" + pure_sql() + "\n)",
           "omwp": OMWP_SQL}[kind]
    if not all_events:
        return lambda: conn.execute(sql, (1,)).fetchall()
    # Per event, as a user would loop over events with a bound parameter.
    events = [e for (e,) in conn.execute("SELECT id FROM events ORDER BY id")]
    return lambda: [conn.execute(sql, (e,)).fetchall() for e in events]


def peak_rss_kib():
    """The process's peak resident set, KiB.

    VmHWM rather than ru_maxrss: ru_maxrss survives exec, so a child started
    by a large parent would report the parent's peak.
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def worker(spec):
    """Run in a child process: one warm-up, one timed run; report JSON."""
    conn = connect(spec["db"], spec["ext"])
    run = query_runner(conn, spec["kind"], spec["all_events"])
    idle = peak_rss_kib()
    run()
    t0 = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - t0
    json.dump({"seconds": seconds, "rss_kib": peak_rss_kib(), "rss_idle_kib": idle,
               "result": result if not spec["all_events"] else len(result)}, sys.stdout)


def measure(spec):
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker",
                          json.dumps(spec)], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{spec['kind']} on {spec['db']} failed:\n{out.stderr}")
    return json.loads(out.stdout)


def describe(db):
    import sqlite3
    with sqlite3.connect(db) as conn:
        events, players = conn.execute("SELECT count(*), max(players) FROM events").fetchone()
        rows, = conn.execute("SELECT count(*) FROM matches").fetchone()
    return events, players, rows


def bench_size(size, args, ext):
    db = gen.ensure(size, args.cache_dir)
    events, players, rows = describe(db)
    all_events = events > 1
    kinds = [k for k in KINDS if not (k == "pure" and size in args.skip_pure)
             and (k != "joined" or all_events)]
    reps = args.reps if args.reps else (3 if size == "XL" else 5)
    samples = {k: [] for k in kinds}
    print(f"{size}: {events} event(s) x {players} players, {rows} rows; "
          f"{reps} runs of {', '.join(kinds)}", file=sys.stderr, flush=True)
    for _ in range(reps):
        for kind in kinds:
            samples[kind].append(measure({"db": db, "ext": ext, "kind": kind,
                                          "all_events": all_events}))
    med = {k: statistics.median(s["seconds"] for s in v) for k, v in samples.items()}
    mem = {k: max(s["rss_kib"] for s in v) / 1024 for k, v in samples.items()}
    idle = statistics.median(s["rss_idle_kib"] for v in samples.values() for s in v) / 1024
    return {"size": size, "events": events, "players": players, "rows": rows,
            "reps": reps, "median": med, "peak_mib": mem, "idle_mib": idle}


# ----------------------------------------------------------------- agreement

def competition_ranks(rows):
    """Competition ranks (1, 2, 2, 4) of rows already sorted by key."""
    ranks, prev = [], None
    for i, (key, _) in enumerate(rows):
        ranks.append(ranks[-1] if key == prev else i + 1)
        prev = key
    return ranks


def pure_ranks(conn, sql, e):
    """Pure SQL rows by player, and the ranks the unrounded doubles would give."""
    rows = conn.execute(sql, (e,)).fetchall()
    raw = sorted(((-r[2], -(r[3] or 0), -r[4], -(r[5] or 0)), r[1]) for r in rows)
    return {r[1]: r for r in rows}, dict(zip((p for _, p in raw), competition_ranks(raw)))


def compare(size, args, ext):
    """Pure SQL ranks against standings() ranks, player by player."""
    db = gen.db_path(size, args.cache_dir)
    conn = connect(db, ext)
    sql = pure_sql()
    events = [e for (e,) in conn.execute("SELECT id FROM events ORDER BY id")]
    c = {"size": size, "players": 0, "agree": 0, "agree_unrounded": 0, "max_diff": 0.0,
         "ties": 0, "min_gap": None, "merged": dict.fromkeys((6, 7, 8, 9), 0),
         "examples": [], "unrounded_examples": []}
    key_col = {"omwp": 3, "gwp": 4, "ogwp": 5}
    for e in events:
        ext_rows = conn.execute(
            "SELECT player, rank, match_points, omwp, gwp, ogwp, decided_by"
            " FROM standings(?1, 'mtg')", (e,)).fetchall()
        # Also ordered on the unrounded doubles: what the rounding is for.
        sql_by_player, raw_rank = pure_ranks(conn, sql, e)
        prev = None
        for row in ext_rows:
            player, rank = row[0], row[1]
            other = sql_by_player.get(player)
            c["players"] += 1
            if other and other[0] == rank:
                c["agree"] += 1
            elif len(c["examples"]) < 3:
                c["examples"].append((e, row, other))
            if raw_rank.get(player) == rank:
                c["agree_unrounded"] += 1
            elif len(c["unrounded_examples"]) < 3:
                c["unrounded_examples"].append((e, player, rank, raw_rank.get(player)))
            if other:
                for a, b in zip(row[3:6], other[3:6]):
                    if a is not None and b is not None:
                        c["max_diff"] = max(c["max_diff"], abs(a - b))
            if prev and row[6] is None:
                c["ties"] += 1
            elif prev and row[6] in key_col:
                # How close two players that the exact order separates can be.
                k = key_col[row[6]]
                gap = abs((prev[k] or 0) - (row[k] or 0))
                if c["min_gap"] is None or gap < c["min_gap"]:
                    c["min_gap"] = gap
                for d in c["merged"]:
                    if round(prev[k] or 0, d) == round(row[k] or 0, d):
                        c["merged"][d] += 1
            prev = row
    conn.close()
    return c


def explain_example(size, args, ext, e, lo, hi):
    """standings() rows ranked lo..hi beside the pure SQL's ranks and doubles."""
    conn = connect(gen.db_path(size, args.cache_dir), ext)
    sql_rows, raw_rank = pure_ranks(conn, pure_sql(), e)
    lines = [f"    {'rank':>5} {'SQL':>5} {'raw':>5} player  mp  omwp (SQL double)"
             f"             gwp                  decided_by"]
    for r in conn.execute("SELECT rank, player, match_points, decided_by"
                          " FROM standings(?1, 'mtg') WHERE rank BETWEEN ?2 AND ?3",
                          (e, lo, hi)):
        q = sql_rows.get(r[1])
        lines.append(f"    {r[0]:>5} {q[0] if q else '-':>5} {raw_rank.get(r[1], '-'):>5}"
                     f" {r[1]:>6} {r[2]:>3}  {format(q[3], '.17g') if q else '-':<29}"
                     f" {format(q[4], '.17g') if q else '-':<20} {r[3]}")
    conn.close()
    return lines


# -------------------------------------------------------------------- report

def fmt_ms(seconds):
    ms = seconds * 1000
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 1 else f"{ms:.2f}"


def ratio(a, b):
    return f"{a / b:.1f}x" if a else "-"


def report(results, checks, ext):
    import sqlite3
    conn = connect(":memory:", ext)
    version, = conn.execute("SELECT tiebreak_version()").fetchone()
    conn.close()
    print(f"tiebreak {version}, SQLite {sqlite3.sqlite_version}, {os.cpu_count()} CPUs")
    print()
    print("Median wall time, ms (one query on a warm connection)")
    head = (f"{'size':<4} {'events x players':>17} {'rows':>8} {'scan':>7} {'standings':>9}"
            f" {'pure SQL':>8} {'omwp x n':>8} {'stand/scan':>10} {'pure/stand':>10}"
            f" {'omwp/player':>11} {'omwp/row':>8}")
    print(head)
    print("-" * len(head))
    for r in results:
        m = r["median"]
        n_players = r["events"] * r["players"]
        pure = m.get("pure")
        print(f"{r['size']:<4} {str(r['events']) + ' x ' + str(r['players']):>17} {r['rows']:>8}"
              f" {fmt_ms(m['scan']):>7} {fmt_ms(m['standings']):>9}"
              f" {fmt_ms(pure) if pure else 'skipped':>8} {fmt_ms(m['omwp']):>8}"
              f" {ratio(m['standings'], m['scan']):>10}"
              f" {ratio(pure, m['standings']):>10}"
              f" {m['omwp'] / n_players * 1e6:>8.2f} us"
              f" {m['omwp'] / r['rows'] * 1e6:>5.2f} us")
    for r in results:
        m = r["median"]
        if "joined" in m:
            print(f"{r['size']}: one standings() per event, joined to events:"
                  f" {fmt_ms(m['joined'])} ms, {ratio(m['joined'], m['scan'])} the scan")
    for r in results:
        m = r["median"]
        print(f"{r['size']}: omwp(event_id, player) for every entry, the event from a column:"
              f" {fmt_ms(m['column'])} ms, {ratio(m['column'], m['standings'])} standings")
    for r in results:
        m = r["median"]
        print(f"{r['size']}: the same under five policies in turn:"
              f" {fmt_ms(m['policies'])} ms, {ratio(m['policies'], m['column'])} one policy")
    print()
    print("Peak memory above the idle process, MiB (idle: Python + SQLite + tiebreak)")
    head = f"{'size':<4} {'idle':>6} {'scan':>7} {'standings':>9} {'pure SQL':>8} {'omwp x n':>8}"
    print(head)
    print("-" * len(head))
    for r in results:
        p, idle = r["peak_mib"], r["idle_mib"]
        cells = [f"{p[k] - idle:.1f}" if k in p else "skipped" for k in KINDS[:4]]
        print(f"{r['size']:<4} {idle:>6.1f} {cells[0]:>7} {cells[1]:>9} {cells[2]:>8}"
              f" {cells[3]:>8}")
    if checks:
        print()
        print("Pure SQL against standings(), player by player")
        head = (f"{'size':<4} {'same rank':>15} {'unrounded':>15} {'max |diff|':>10}"
                f" {'shared rank':>11} {'closest split':>13} {'tied at 6/7/8/9 dp':>18}")
        print(head)
        print("-" * len(head))
        for c, lines in checks:
            gap = f"{c['min_gap']:.1e}" if c["min_gap"] is not None else "-"
            print(f"{c['size']:<4} {c['agree']:>7}/{c['players']:<7}"
                  f" {c['agree_unrounded']:>7}/{c['players']:<7} {c['max_diff']:>10.1e}"
                  f" {c['ties']:>11} {gap:>13} {'/'.join(map(str, c['merged'].values())):>18}")
        for c, lines in checks:
            for line in lines:
                print(line)


# ------------------------------------------------------------------ shapes

def shape_db(name, scale, cache_dir):
    """The shape's database, built now (bench/shapes.py: a second or two)."""
    import sqlite3
    import shapes
    os.makedirs(cache_dir, exist_ok=True)
    path = os.path.join(cache_dir, f"shape-{name}-{scale}x.db")
    if os.path.exists(path):
        os.remove(path)
    with sqlite3.connect(path) as conn:
        with open(gen.SCHEMA) as f:
            conn.executescript(f.read())
        shapes.build(conn, name, scale)
    conn.close()
    return path


def interrupt_latency(conn, sql, delay):
    """Seconds from conn.interrupt() (called after delay) to the error, or None
    if the call finished first."""
    import sqlite3
    import threading
    fired = []
    timer = threading.Timer(delay, lambda: (fired.append(time.perf_counter()),
                                            conn.interrupt()))
    timer.start()
    try:
        conn.execute(sql).fetchall()
        end = None
    except sqlite3.OperationalError:
        end = time.perf_counter()
    timer.join()
    return end - fired[0] if end is not None and fired else None


def bench_shapes(args, ext):
    """Each shape at 1x and 10x: median time of standings(), and at 10x the
    latency of an interrupt sent halfway through."""
    import shapes
    reps = args.reps or 3
    print("| shape | policy | rows 1x | 1x | rows 10x | 10x | 10x / 1x "
          "| interrupt latency at 10x (median, max) |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, (_, policy, _) in shapes.SHAPES.items():
        cells = []
        for scale in (1, 10):
            db = shape_db(name, scale, args.cache_dir)
            conn = connect(db, ext)
            sql = f"SELECT count(*) FROM standings(1, '{policy}')"
            rows, = conn.execute("SELECT count(*) FROM matches").fetchone()
            conn.execute(sql).fetchall()
            times = []
            for _ in range(reps):
                t0 = time.perf_counter()
                conn.execute(sql).fetchall()
                times.append(time.perf_counter() - t0)
            med = statistics.median(times)
            cells.append((rows, med))
            if scale == 10:
                lat = [interrupt_latency(conn, sql, med / 2) for _ in range(5)]
                lat = [x for x in lat if x is not None]
            conn.close()
            os.remove(db)
        (r1, t1), (r10, t10) = cells
        lat_txt = (f"{fmt_ms(statistics.median(lat))} ms, {fmt_ms(max(lat))} ms"
                   if lat else "finished first")
        print(f"| {name} | {policy} | {r1:,} | {fmt_ms(t1)} ms | {r10:,} | "
              f"{fmt_ms(t10)} ms | {t10 / t1:.1f} | {lat_txt} |", flush=True)


def bench_growth(args, ext):
    """One shape at growing scales, in one process: CPU time of the thread for
    one standings() (best of REPS after a warm-up), its ratio to the scale
    before, and the longest stretch of CPU time between two calls of a progress
    handler of N = 1000 (how long an interrupt can wait)."""
    import sqlite3
    import shapes
    _, policy, _ = shapes.SHAPES[args.growth]
    sql = f"SELECT count(*) FROM standings(1, '{policy}')"
    print(f"| {args.growth} | rows | CPU ms | x previous | longest handler gap, ms |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    last = None
    for scale in args.scales:
        conn = sqlite3.connect(":memory:")
        conn.enable_load_extension(True)
        conn.load_extension(ext)
        with open(gen.SCHEMA) as f:
            conn.executescript(f.read())
        shapes.build(conn, args.growth, scale)
        rows, = conn.execute("SELECT count(*) FROM matches").fetchone()
        conn.execute(sql).fetchall()
        times = []
        for _ in range(args.reps or 3):
            t0 = time.thread_time()
            conn.execute(sql).fetchall()
            times.append(time.thread_time() - t0)
        marks = []
        conn.set_progress_handler(lambda: marks.append(time.thread_time()) and 0, 1000)
        conn.execute(sql).fetchall()
        gap = max((b - a for a, b in zip(marks, marks[1:])), default=0.0)
        conn.close()
        best = min(times)
        ratio = f"{best / last:.2f}" if last else ""
        print(f"| s = {scale:g} | {rows:,} | {fmt_ms(best)} | {ratio} | {fmt_ms(gap)} |",
              flush=True)
        last = best


def stale_extension(ext_file):
    sources = glob.glob(os.path.join(ROOT, "ext", "**", "*.[ch]"), recursive=True)
    return sources and max(map(os.path.getmtime, sources)) > os.path.getmtime(ext_file)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        worker(json.loads(sys.argv[2]))
        return
    import sqlite3
    if (not hasattr(sqlite3.Connection, "enable_load_extension")
            and sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3")):
        # This Python cannot load extensions; Debian's can.
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sizes", nargs="*", default=["S", "M", "L"], metavar="SIZE",
                    help="S, M, L, XL (default: S M L)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                    help="where tiebreak.so is (default: build)")
    ap.add_argument("--cache-dir", help="generated databases (default: BUILD_DIR/bench)")
    ap.add_argument("--reps", type=int, help="timed runs per measurement (default 5, XL 3)")
    ap.add_argument("--skip-pure", action="append", default=[], metavar="SIZE",
                    help="skip the pure SQL query (and the comparison) for this size;"
                         " repeatable, e.g. --skip-pure XL")
    ap.add_argument("--no-check", action="store_true",
                    help="skip the rank comparison of pure SQL and standings()")
    ap.add_argument("--shapes", action="store_true",
                    help="time the shapes of bench/shapes.py at 1x and 10x instead,"
                         " with the latency of an interrupt")
    ap.add_argument("--growth", metavar="SHAPE",
                    help="time one shape of bench/shapes.py at --scales (CPU time, ratios),"
                         " e.g. --growth mtg_exact_tie")
    ap.add_argument("--scales", type=float, nargs="+", default=[1.6, 3.2, 6.4, 12.8],
                    help="scales for --growth (default 1.6 3.2 6.4 12.8)")
    ap.add_argument("--loop", choices=KINDS, metavar="KIND",
                    help="run one kind REPS times in this process and print each time,"
                         " for a profiler: perf record -g /usr/bin/python3 bench/run.py XL"
                         " --loop standings")
    args = ap.parse_args()
    for s in args.sizes + args.skip_pure:
        if s not in gen.SIZES:
            ap.error(f"unknown size {s!r} (known: {', '.join(gen.SIZES)})")
    args.cache_dir = args.cache_dir or os.path.join(args.build_dir, "bench")
    ext = os.path.join(os.path.abspath(args.build_dir), "tiebreak")
    if not os.path.exists(ext + ".so"):
        sys.exit(f"{ext}.so not found: cmake -S . -B build && cmake --build build")
    if stale_extension(ext + ".so"):
        print(f"warning: {ext}.so is older than ext/: rebuild with cmake --build build",
              file=sys.stderr)

    if args.shapes:
        bench_shapes(args, ext)
        return

    if args.growth:
        bench_growth(args, ext)
        return

    if args.loop:
        for size in args.sizes:
            db = gen.ensure(size, args.cache_dir)
            conn = connect(db, ext)
            run = query_runner(conn, args.loop, describe(db)[0] > 1)
            for _ in range(args.reps or 5):
                t0 = time.perf_counter()
                run()
                print(f"{size} {args.loop}: {fmt_ms(time.perf_counter() - t0)} ms")
        return

    results = [bench_size(size, args, ext) for size in args.sizes]
    checks = []
    if not args.no_check:
        for size in args.sizes:
            if size in args.skip_pure:
                continue
            print(f"{size}: comparing ranks", file=sys.stderr, flush=True)
            c = compare(size, args, ext)
            lines = []
            for e, row, other in c["examples"][:1]:
                lines.append(f"  {size}: event {e}: player {row[0]} is rank {row[1]} in"
                             f" standings(), {other[0] if other else 'missing'} in pure SQL")
                lo, hi = sorted((row[1], other[0] if other else row[1]))
                lines += explain_example(size, args, ext, e, lo - 1, hi + 1)
            for e, player, rank, raw in c["unrounded_examples"][:1]:
                lines.append(f"  {size}: ordered on unrounded doubles, event {e}: player"
                             f" {player} would be rank {raw}, standings() has {rank}")
                lo, hi = sorted((rank, raw))
                lines += explain_example(size, args, ext, e, lo - 1, hi + 1)
            checks.append((c, lines))
    report(results, checks, ext)


if __name__ == "__main__":
    main()
