"""npm packages fetched at test time into the build tree, never committed.

Tests that need them skip (exit code SKIP, ctest's SKIP_RETURN_CODE) when npm
or the registry is unavailable, so a machine without network passes; with
TIEBREAK_REQUIRE_ONLINE=1 (set by .ci/run) the same situation is a failure,
so CI cannot pass without running them.
"""
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

SKIP = 77


def skip(reason):
    """Skip the calling test, or fail it when online tests are required."""
    if os.environ.get("TIEBREAK_REQUIRE_ONLINE") == "1":
        print(f"FAILED (TIEBREAK_REQUIRE_ONLINE=1): {reason}", file=sys.stderr)
        sys.exit(1)
    print(f"skipped: {reason}")
    sys.exit(SKIP)


def npm():
    path = shutil.which("npm")
    if not path:
        skip("npm not found (apt-get install npm)")
    return path


def _run_npm(args, cwd, what):
    try:
        proc = subprocess.run([npm(), *args, "--no-audit", "--no-fund", "--loglevel=error"],
                              cwd=cwd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        skip(f"{what}: npm timed out")
    if proc.returncode != 0:
        skip(f"{what} failed:\n{proc.stderr.strip()[-2000:]}")
    return proc.stdout


def pack(spec, dest):
    """Download the tarball of an npm package (e.g. 'sqlite3@6.0.1') into
    dest and unpack it into dest/<name>-<version>/; return that directory.
    Reused when already there."""
    dest = Path(dest)
    name, _, version = spec.rpartition("@")
    out = dest / f"{name.replace('/', '-').lstrip('@')}-{version}"
    if (out / "package.json").exists():
        return out
    dest.mkdir(parents=True, exist_ok=True)
    tgz = _run_npm(["pack", spec], dest, f"npm pack {spec}").strip().splitlines()[-1]
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    with tarfile.open(dest / tgz) as tar:
        tar.extractall(tmp)  # npm tarballs hold one folder, package/
    (dest / tgz).unlink()
    shutil.rmtree(out, ignore_errors=True)
    (tmp / "package").rename(out)
    tmp.rmdir()
    return out


def install(specs, prefix):
    """npm install the packages into prefix/node_modules (reused when the
    same list was installed there before)."""
    prefix = Path(prefix)
    stamp = prefix / "installed.txt"
    want = "\n".join(specs) + "\n"
    if stamp.exists() and stamp.read_text() == want:
        return prefix / "node_modules"
    prefix.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    _run_npm(["install", "--no-save", "--prefix", str(prefix), *specs], prefix,
             "npm install " + " ".join(specs))
    stamp.write_text(want)
    return prefix / "node_modules"
