#!/usr/bin/python3
"""standings() in WebAssembly against the native module, side by side.

    /usr/bin/python3 bench/wasm.py [S M ...]      (default: S M)

The same generated events as bench/run.py (gen.py), the same query,
SELECT count(*) FROM standings(1, 'mtg'), on a warm connection: natively in
Debian's Python with build/tiebreak.so, and in Node with the WebAssembly build
(build/wasm, `cmake --build build --target wasm`) opening the same file from
its bytes, i.e. in memory (the native side reads the file through the OS
cache, warm too).  Each side runs REPS times in one process after one
untimed run, the sides alternate ROUNDS times, and the medians of all runs
are printed with their ratio.  Nothing asserts a time.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import gen  # noqa: E402

SQL = "SELECT count(*) FROM standings(?1, 'mtg')"


def native_worker(db, ext, reps):
    import sqlite3
    conn = sqlite3.connect(db)
    conn.enable_load_extension(True)
    conn.load_extension(ext)
    rows = conn.execute(SQL, (1,)).fetchone()[0]
    seconds = []
    for _ in range(reps):
        t0 = time.perf_counter()
        conn.execute(SQL, (1,)).fetchall()
        seconds.append(time.perf_counter() - t0)
    json.dump({"seconds": seconds, "rows": rows}, sys.stdout)


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{out.stderr}")
    return json.loads(out.stdout)


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--native-worker":
        native_worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sizes", nargs="*", default=["S", "M"], metavar="SIZE")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cache-dir", help="generated databases (default: BUILD_DIR/bench)")
    ap.add_argument("--reps", type=int, default=5, help="timed runs per process (default 5)")
    ap.add_argument("--rounds", type=int, default=3, help="processes per side (default 3)")
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    ext = os.path.join(build, "tiebreak")
    js = os.path.join(build, "wasm", "tiebreak.js")
    node = shutil.which("node")
    for path, hint in ((ext + ".so", "cmake --build build"),
                       (js, "cmake --build build --target wasm")):
        if not os.path.exists(path):
            sys.exit(f"{path} not found: {hint}")
    if not node:
        sys.exit("node not found")
    cache = args.cache_dir or os.path.join(build, "bench")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"standings(1, 'mtg'), median ms of {args.rounds} x {args.reps} warm runs;"
          f" native: Python {sys.version.split()[0]} + tiebreak.so,"
          f" WebAssembly: Node {version}")
    head = f"{'size':<4} {'players':>8} {'rows':>7} {'native':>8} {'wasm':>8} {'wasm/native':>11}"
    print(head)
    print("-" * len(head))
    for size in args.sizes:
        db = gen.ensure(size, cache)
        nat, was = [], []
        for _ in range(args.rounds):
            n = run([sys.executable, os.path.abspath(__file__), "--native-worker", db, ext,
                     str(args.reps)])
            w = run([node, os.path.join(HERE, "wasm_worker.cjs"), js, db, str(args.reps)])
            if n["rows"] != w["rows"]:
                sys.exit(f"{size}: native {n['rows']} rows, wasm {w['rows']}")
            nat += n["seconds"]
            was += w["seconds"]
        import sqlite3
        with sqlite3.connect(db) as conn:
            rows = conn.execute("SELECT count(*) FROM matches").fetchone()[0]
        mn, mw = statistics.median(nat) * 1000, statistics.median(was) * 1000
        print(f"{size:<4} {n['rows']:>8} {rows:>7} {mn:>8.2f} {mw:>8.2f} {mw / mn:>10.2f}x")


if __name__ == "__main__":
    main()
