#!/usr/bin/python3
"""Go's database/sql with mattn/go-sqlite3 loads the module (main.go).

    /usr/bin/python3 test/go/run.py --build-dir build

Offline, from Debian's packages: golang-go and golang-github-mattn-go-sqlite3-dev
(GOPATH mode on /usr/share/gocode, built on the system's libsqlite3 with the
libsqlite3 tag).  Exit code 77: skipped when they are missing (a failure
under TIEBREAK_REQUIRE_ONLINE=1, as .ci/run installs them).
"""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import fetch  # noqa: E402

GOPATH = Path("/usr/share/gocode")
EXPECTED = """1 Hugo 13 0.6533
2 Cleo 13 0.6400
3 Sami 12 0.6433
standings(): unknown policy 'nope' (known: mtg, melee, melee_2024, melee_2023, battlefy, hct, pokemon, pokemon_2023, yugioh, fide, fide_rr)
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    args = ap.parse_args()
    build = args.build_dir.resolve()
    go = shutil.which("go")
    if not go:
        fetch.skip("go not found (apt-get install golang-go)")
    if not (GOPATH / "src/github.com/mattn/go-sqlite3").is_dir():
        fetch.skip("mattn/go-sqlite3 not found (apt-get install golang-github-mattn-go-sqlite3-dev)")
    work = build / "go"
    work.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, GO111MODULE="off", GOPATH=str(GOPATH), GOCACHE=str(work / "cache"),
               GOFLAGS="", CGO_ENABLED="1")
    version = subprocess.run([go, "version"], capture_output=True, text=True).stdout.strip()
    exe = work / "tiebreak-go"
    proc = subprocess.run([go, "build", "-tags", "libsqlite3", "-o", str(exe),
                           str(HERE / "main.go")], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        print(proc.stdout, proc.stderr)
        return 1
    out = subprocess.run([str(exe), str(build / "tiebreak"), str(REPO)], capture_output=True,
                         text=True)
    print(f"{version}\n{out.stdout}{out.stderr}")
    ok = out.returncode == 0 and out.stdout == EXPECTED
    print(f"{int(ok)} passed, {int(not ok)} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
