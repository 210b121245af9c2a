#!/usr/bin/python3
"""The Python package, built and installed as a user would, offline.

    /usr/bin/python3 test/python/run.py --build-dir build
    /usr/bin/python3 test/python/run.py --build-dir build --no-extension-loading

Builds the wheel from <build-dir>/tiebreak.so with tools/dist.py, makes a
fresh venv with this Python (Debian's /usr/bin/python3, which can load
extensions), installs the wheel with `pip install --no-index`, and runs the
example event's standings through `sqlite_tiebreak.load(conn)` from another
directory.  With --no-extension-loading it looks for a Python on PATH whose
sqlite3 cannot load extensions (pyenv's, python.org's builds) and checks
that load() raises the package's clear error there; exit code 77 (skipped)
when every Python found can load extensions.
"""
import argparse
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tools"))
sys.path.insert(0, str(HERE.parent))
import dist  # noqa: E402
import fetch  # noqa: E402

SKIP = 77
# Runs inside the venv: the official example's top three (MTR Appendix C
# worked example, as in test/node) and the package's own surface.
CHECK = r"""
import importlib.metadata, os, sqlite3, sys
import sqlite_tiebreak
repo, version = sys.argv[1], sys.argv[2]
conn = sqlite3.connect(":memory:")
sqlite_tiebreak.load(conn)
for f in ("schema.sql", "example.sql"):
    conn.executescript(open(os.path.join(repo, "sql", f)).read())
top = conn.execute("SELECT rank, player, match_points, round(omwp, 4), decided_by "
                   "FROM standings(1, 'mtg') LIMIT 3").fetchall()
assert top == [(1, "Hugo", 13, 0.6533, None), (2, "Cleo", 13, 0.64, "omwp"),
               (3, "Sami", 12, 0.6433, "match_points")], top
assert conn.execute("SELECT count(*) FROM standings(1, 'mtg')").fetchone()[0] == 24
assert conn.execute("SELECT tiebreak_version()").fetchone()[0] == version
assert sqlite_tiebreak.__version__ == version
assert importlib.metadata.version("sqlite-tiebreak") == version
# load() leaves extension loading off for SQL when it was off.
try:
    conn.execute("SELECT load_extension('x')")
    raise AssertionError("load_extension() still enabled")
except sqlite3.OperationalError as e:
    assert "not authorized" in str(e), e
path = sqlite_tiebreak.loadable_path()
assert os.path.exists(path + ".so") and sys.prefix in path, path
# A caller who had extension loading on keeps it on: the next extension
# (the module again) loads.
conn2 = sqlite3.connect(":memory:")
conn2.enable_load_extension(True)
sqlite_tiebreak.load(conn2)
conn2.load_extension(path)
try:  # SQL's load_extension() is on too: it looks for the (missing) file
    conn2.execute("SELECT load_extension(?)", (path + "-missing",))
except sqlite3.OperationalError as e:
    assert "not authorized" not in str(e) and "-missing" in str(e), e
assert conn2.execute("SELECT count(*) FROM tiebreak_policies").fetchone()[0] > 0
conn2.enable_load_extension(False)
sqlite_tiebreak.load(conn2)
try:
    conn2.load_extension(path)
    raise AssertionError("load() switched extension loading on")
except sqlite3.OperationalError as e:
    assert "not authorized" in str(e), e
print("standings through the installed wheel:", top[0], "... from", path)
"""
NO_LOADING = r"""
import sqlite3, sys
sys.path.insert(0, sys.argv[1])
import sqlite_tiebreak
conn = sqlite3.connect(":memory:")
assert not hasattr(conn, "enable_load_extension")
try:
    sqlite_tiebreak.load(conn)
except sqlite_tiebreak.ExtensionLoadingUnavailable as e:
    msg = str(e)
    assert "cannot load extensions" in msg and "--enable-loadable-sqlite-extensions" in msg, msg
    print("clear error:", msg)
else:
    raise AssertionError("load() did not raise")
"""


def run(cmd, **kw):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        print(f"$ {' '.join(map(str, cmd))}\n{proc.stdout}{proc.stderr}")
        sys.exit(1)
    return proc.stdout


def wheel(build):
    whl = dist.build_wheel(build / "tiebreak.so", "linux-x86_64", build / "python" / "dist")
    with zipfile.ZipFile(whl) as zf:
        names = sorted(zf.namelist())
    need = dist.glibc_needed(build / "tiebreak.so", "x86_64-linux-gnu")
    print(f"{whl.name}: {whl.stat().st_size} bytes, {len(names)} files; the module needs "
          f"GLIBC {need[0]}.{need[1]} (manylinux2014: 2.17)", flush=True)
    return whl


def installed(build, whl):
    venv = build / "python" / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    proc = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        fetch.skip(f"{sys.executable} -m venv failed (apt-get install python3-venv):\n"
                   f"{proc.stderr.strip()[-500:]}")
    py = venv / "bin" / "python"
    print(run([py, "-m", "pip", "install", "--no-index", "--disable-pip-version-check",
               str(whl)]).strip().splitlines()[-1], flush=True)
    out = run([py, "-c", CHECK, REPO, dist.version()], cwd=build / "python")
    print(out.strip())
    return 0


def no_extension_loading(build, whl):
    """Pythons on PATH whose sqlite3 has no enable_load_extension."""
    seen, found = set(), []
    for d in os.environ.get("PATH", "").split(os.pathsep):
        exe = Path(d) / "python3"
        if exe.exists() and exe.resolve() not in seen:
            seen.add(exe.resolve())
            probe = subprocess.run([str(exe), "-c", "import sqlite3; print(hasattr("
                                    "sqlite3.connect(':memory:'), 'enable_load_extension'))"],
                                   capture_output=True, text=True)
            if probe.stdout.strip() == "False":
                found.append(exe)
    if not found:
        print("skipped: every python3 on PATH can load extensions")
        return SKIP
    unpacked = build / "python" / "unpacked"
    shutil.rmtree(unpacked, ignore_errors=True)
    with zipfile.ZipFile(whl) as zf:
        zf.extractall(unpacked)
    for exe in found:
        version = run([exe, "--version"]).strip()
        print(f"{exe} ({version}): {run([exe, '-c', NO_LOADING, unpacked]).strip()}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    ap.add_argument("--no-extension-loading", action="store_true")
    args = ap.parse_args()
    build = args.build_dir.resolve()
    whl = wheel(build)
    if args.no_extension_loading:
        return no_extension_loading(build, whl)
    return installed(build, whl)


if __name__ == "__main__":
    sys.exit(main())
