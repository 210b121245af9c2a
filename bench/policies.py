#!/usr/bin/python3
"""Every policy against the raw scan, and builds against each other.

    /usr/bin/python3 bench/policies.py M XL                 # this build
    /usr/bin/python3 bench/policies.py M XL --build-dir ../build-main --build-dir build
    /usr/bin/python3 bench/policies.py XL --memory --build-dir ../build-main --build-dir build
    /usr/bin/python3 bench/policies.py M XL --compare --build-dir ../build-main --build-dir build
    /usr/bin/python3 bench/policies.py M XL --cpu --build-dir ../build-main --build-dir build

On run.py's events (gen.py), in one process: each build loaded into its own
connection, then, round after round, the scan and `SELECT count(*) FROM
standings(1, policy)` for every policy and build taking turns, each warm
(one untimed run first).  Prints the median of each and its ratio to the
median scan.  The sizes' events have drops from round 3 on, which Pokemon's
frozen drops read.

--memory: each build and policy in its own fresh process, one query run
twice; the peak resident set (VmHWM) above the peak before the query, as
run.py measures it.

--compare: every column of every row of standings(1, policy), for every
policy, from each build; prints the rows where any column differs from the
first build's (0 when the builds agree).

Nothing here asserts a time: the figures are for comparing, side by side.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import gen  # noqa: E402
from run import SCAN_SQL, connect, peak_rss_kib  # noqa: E402

# fide refuses these events (a bye scored 2-0-0 in games): bench/chess.py times it
POLICIES = ("mtg", "melee", "battlefy", "hct", "pokemon", "yugioh")
SCAN = SCAN_SQL + " WHERE event_id = 1"


def standings_sql(policy):
    return f"SELECT count(*) FROM standings(1, '{policy}')"


def timed(conn, sql, clock=time.perf_counter):
    t0 = clock()
    conn.execute(sql).fetchall()
    return clock() - t0


def bench_time(size, args):
    db = gen.ensure(size, args.cache_dir)
    conns = [connect(db, ext) for ext in args.exts]
    queries = [("scan", None, SCAN)]
    for p in args.policies:
        for b in range(len(conns)):
            queries.append((p, b, standings_sql(p)))
    for _, b, sql in queries:
        conns[b or 0].execute(sql).fetchall()  # warm
    samples = {(k, b): [] for k, b, _ in queries}
    for _ in range(args.reps):
        for k, b, sql in queries:
            samples[(k, b)].append(timed(conns[b or 0], sql, args.clock))
    med = {k: statistics.median(v) for k, v in samples.items()}
    scan = med[("scan", None)]
    names = [os.path.basename(os.path.dirname(e)) for e in args.exts]
    kind = "CPU" if args.cpu else "wall"
    print(f"{size}: scan {scan * 1000:.1f} ms {kind} (median of {args.reps}); standings / scan:")
    print(f"  {'policy':<9}" + "".join(f" {n:>22}" for n in names))
    for p in args.policies:
        cells = [f"{med[(p, b)] * 1000:9.1f} ms {med[(p, b)] / scan:6.2f}x"
                 for b in range(len(conns))]
        print(f"  {p:<9}" + "".join(f" {c:>22}" for c in cells), flush=True)


def memory_worker(spec):
    conn = connect(spec["db"], spec["ext"])
    idle = peak_rss_kib()
    for _ in range(2):
        conn.execute(spec["sql"]).fetchall()
    json.dump({"idle": idle, "peak": peak_rss_kib()}, sys.stdout)


def bench_memory(size, args):
    db = gen.ensure(size, args.cache_dir)
    names = [os.path.basename(os.path.dirname(e)) for e in args.exts]
    print(f"{size}: peak memory above idle, MiB (VmHWM)")
    print(f"  {'query':<9}" + "".join(f" {n:>14}" for n in names))
    for p in ("scan",) + tuple(args.policies):
        sql = SCAN if p == "scan" else standings_sql(p)
        cells = []
        for ext in args.exts:
            spec = {"db": db, "ext": ext, "sql": sql}
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker",
                                  json.dumps(spec)], capture_output=True, text=True)
            if out.returncode:
                sys.exit(out.stderr)
            r = json.loads(out.stdout)
            cells.append(f"{(r['peak'] - r['idle']) / 1024:.1f}")
        print(f"  {p:<9}" + "".join(f" {c:>14}" for c in cells), flush=True)


def bench_compare(size, args):
    db = gen.ensure(size, args.cache_dir)
    conns = [connect(db, ext) for ext in args.exts]
    for p in args.policies:
        sql = f"SELECT * FROM standings(1, '{p}') ORDER BY rank, player"
        rows = [c.execute(sql).fetchall() for c in conns]
        diffs = [sum(a != b for a, b in zip(rows[0], r)) + abs(len(r) - len(rows[0]))
                 for r in rows[1:]]
        print(f"{size} {p}: {len(rows[0])} rows, {len(rows[0][0])} columns;"
              f" rows differing from the first build: {diffs}", flush=True)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        memory_worker(json.loads(sys.argv[2]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sizes", nargs="*", default=["M"], metavar="SIZE")
    ap.add_argument("--build-dir", action="append", metavar="DIR",
                    help="a build to load (repeatable; default: build)")
    ap.add_argument("--cache-dir", help="generated databases (default: build/bench)")
    ap.add_argument("--reps", type=int, default=5, help="timed runs of each query")
    ap.add_argument("--policy", action="append", help="only these policies")
    ap.add_argument("--cpu", action="store_true",
                    help="CPU time of the process instead of wall time (steadier on a "
                         "loaded machine: waiting for a core is left out, cache misses not)")
    ap.add_argument("--memory", action="store_true", help="peak memory instead")
    ap.add_argument("--compare", action="store_true", help="compare the builds' values")
    args = ap.parse_args()
    dirs = args.build_dir or [os.path.join(ROOT, "build")]
    args.exts = [os.path.join(os.path.abspath(d), "tiebreak") for d in dirs]
    args.cache_dir = args.cache_dir or os.path.join(ROOT, "build", "bench")
    args.policies = args.policy or POLICIES
    args.clock = time.process_time if args.cpu else time.perf_counter
    for size in args.sizes:
        if args.compare:
            bench_compare(size, args)
        elif args.memory:
            bench_memory(size, args)
        else:
            bench_time(size, args)


if __name__ == "__main__":
    main()
