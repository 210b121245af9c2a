#!/usr/bin/python3
"""Run the SQL cases and the JS API tests on the WebAssembly build, under Node.

    /usr/bin/python3 test/wasm/run.py --build-dir build [pytest args]

Builds SQLite with tiebreak built in with emcc (wasm/build.py: about a minute
the first time, reused later), then runs test_wasm.py: every case of
test/sql/*.sql through the same expectations as the Python and CLI runs, the
example of docs/wasm.md, and standings equal to the native build's.  Exit
code 77 (skipped) without emcc, node or npm (see test/fetch.py).
"""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "wasm"))
sys.path.insert(0, str(HERE.parent))
import build  # noqa: E402
import fetch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    args, pytest_args = ap.parse_known_args()
    node = shutil.which("node")
    if not node:
        fetch.skip("node not found (apt-get install nodejs)")
    out = build.build(args.build_dir.resolve())
    env = dict(os.environ, TIEBREAK_WASM=str(out / "tiebreak.js"), NODE=node,
               TIEBREAK_EXT=str(args.build_dir.resolve() / "tiebreak"))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           str(HERE / "test_wasm.py"), *pytest_args]
    return subprocess.run(cmd, env=env, cwd=REPO).returncode


if __name__ == "__main__":
    sys.exit(main())
