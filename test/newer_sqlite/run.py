#!/usr/bin/python3
"""Run the SQL tests in a newer SQLite than the system's.

    /usr/bin/python3 test/newer_sqlite/run.py --build-dir build [pytest args]

Fetches two npm packages into <build-dir>/newer-sqlite (reused on later
runs): better-sqlite3, whose deps/sqlite3 holds the newest amalgamation, and
sqlite3 (node-sqlite3), whose SQLite source tarball holds shell.c, the CLI.
Builds from them
  * a sqlite3 CLI: the newest amalgamation + shell.c, with SQLITE_DQS=0
    (double-quoted strings are identifiers, as SQLite recommends);
  * the extension compiled against the newest headers (tiebreak's own CMake
    build with SQLITE3EXT_INCLUDE_DIR pointing there);
then runs test_newer_cli.py: every SQL case and documentation example
through that CLI, with that extension and with the one of <build-dir>
(built on the system's headers).  Exit code 77: skipped (see test/fetch.py).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tarfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import fetch  # noqa: E402

AMALGAMATION = "better-sqlite3@13.2.0"   # deps/sqlite3: SQLite 3.54.1
SHELL = "sqlite3@6.0.1"                  # deps/sqlite-autoconf-3520000.tar.gz


def sqlite_version(header):
    m = re.search(r'#define SQLITE_VERSION\s+"([^"]+)"', header.read_text(errors="replace"))
    return m.group(1)


def extract_shell(pkg, dest):
    """shell.c from the package's SQLite tarball, alone in dest: next to the
    tarball's own sqlite3.h it would compile against that older header."""
    shell = dest / "shell.c"
    if shell.exists():
        return shell
    tgz = next((pkg / "deps").glob("sqlite-autoconf-*.tar.gz"))
    with tarfile.open(tgz) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/shell.c"))
        data = tar.extractfile(member).read()
    dest.mkdir(parents=True, exist_ok=True)
    shell.write_bytes(data)
    return shell


def build_cli(amalgamation, shell, out):
    """sqlite3 CLI; the two translation units compile in parallel (-O1: the
    amalgamation alone takes about 20 s at -O2)."""
    if out.exists():
        return out
    cc = os.environ.get("CC") or shutil.which("cc") or "gcc"
    objdir = out.parent / "obj"
    objdir.mkdir(parents=True, exist_ok=True)
    flags = ["-O1", "-DSQLITE_DQS=0", "-DSQLITE_THREADSAFE=0",
             "-DSQLITE_ENABLE_MATH_FUNCTIONS", f"-I{amalgamation}"]
    units = [amalgamation / "sqlite3.c", shell]

    def compile_one(src):
        obj = objdir / (src.stem + ".o")
        subprocess.run([cc, *flags, "-c", str(src), "-o", str(obj)], check=True)
        return obj

    with ThreadPoolExecutor(2) as pool:
        objs = list(pool.map(compile_one, units))
    tmp = out.with_suffix(".tmp")
    subprocess.run([cc, *map(str, objs), "-o", str(tmp), "-ldl", "-lm"], check=True)
    tmp.rename(out)
    return out


def build_extension(amalgamation, build):
    """The extension, built by tiebreak's CMakeLists against the given headers."""
    cmake = shutil.which("cmake") or "cmake"
    subprocess.run([cmake, "-S", str(REPO), "-B", str(build),
                    f"-DSQLITE3EXT_INCLUDE_DIR={amalgamation}",
                    "-DTIEBREAK_TESTS=OFF", "-DCMAKE_BUILD_TYPE=RelWithDebInfo"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([cmake, "--build", str(build), "--target", "tiebreak", "-j2"],
                   check=True, stdout=subprocess.DEVNULL)
    return build / "tiebreak"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path,
                    help="tiebreak's build directory (holds tiebreak.so)")
    args, pytest_args = ap.parse_known_args()
    work = args.build_dir.resolve() / "newer-sqlite"

    amalgamation = fetch.pack(AMALGAMATION, work / "npm") / "deps" / "sqlite3"
    shell = extract_shell(fetch.pack(SHELL, work / "npm"), work / "shell")
    version = sqlite_version(amalgamation / "sqlite3.h")
    cli = build_cli(amalgamation, shell, work / f"sqlite-{version}" / "sqlite3")
    ext_new = build_extension(amalgamation, work / f"tiebreak-{version}")
    print(f"SQLite {version}: {cli}\nextension on {version} headers: {ext_new}", flush=True)

    env = dict(os.environ,
               SQLITE3=str(cli),
               TIEBREAK_EXT=str(args.build_dir.resolve() / "tiebreak"),
               TIEBREAK_EXT_NEW=str(ext_new))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           str(HERE / "test_newer_cli.py"), *pytest_args]
    return subprocess.run(cmd, env=env, cwd=REPO).returncode


if __name__ == "__main__":
    sys.exit(main())
