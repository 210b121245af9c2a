#!/usr/bin/python3
"""Cross-built tiebreak on another platform, run on this machine.

    /usr/bin/python3 test/cross/run.py --target windows-x86_64 --build-dir build
    /usr/bin/python3 test/cross/run.py --target linux-aarch64 --build-dir build

Builds with tools/dist.py (the toolchain files in cmake/, SQLite's sources
from npm) the module and two sqlite3 shells of the target, one plain and one
with tiebreak built in, then runs them under wine (Windows) or qemu-user
(aarch64): the plain shell .loads the module and computes the example
event's standings, the built-in shell computes them without .load; both must
equal the standings of the native build in the system's sqlite3.  For
Windows the DLL's imports are checked too: only system DLLs (no
libgcc_s_seh-1.dll).  Exit code 77: skipped (tools or npm missing; a failure
under TIEBREAK_REQUIRE_ONLINE=1, see test/fetch.py).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(REPO / "tools"))
import fetch  # noqa: E402
import dist  # noqa: E402

# Whole standings, every column as integer or text, so shells of different
# versions print the same text.
QUERY = ("SELECT rank, player, match_points, CAST(round(omwp * 1e6) AS INTEGER), "
         "CAST(round(gwp * 1e6) AS INTEGER), CAST(round(ogwp * 1e6) AS INTEGER), "
         "ifnull(decided_by, '-') FROM standings(1, 'mtg');")
ERROR_QUERY = "SELECT * FROM standings(1, 'nope');"
# DLLs every Windows has; the C runtime is msvcrt (or the UCRT's api sets).
SYSTEM_DLLS = re.compile(r"^(kernel32|msvcrt|user32|advapi32|api-ms-win-.*)\.dll$", re.I)


def runner(target, work):
    """(command prefix, path mapper, environment) to run the target's
    programs here; skip when the emulator is missing."""
    if target == "windows-x86_64":
        wine = next((w for w in ("/usr/lib/wine/wine64", shutil.which("wine64"),
                                 shutil.which("wine")) if w and os.path.exists(w)), None)
        if not wine:
            fetch.skip("wine64 not found (apt-get install wine64)")
        env = dict(os.environ, WINEPREFIX=str(work / "wine"), WINEDEBUG="-all",
                   WINEDLLOVERRIDES="mscoree,mshtml=")
        return [wine], (lambda p: "Z:" + str(p)), env
    qemu = shutil.which("qemu-aarch64")
    if not qemu:
        fetch.skip("qemu-aarch64 not found (apt-get install qemu-user)")
    return [qemu, "-L", "/usr/aarch64-linux-gnu"], str, dict(os.environ)


def shell(prefix, env, exe, *args):
    proc = subprocess.run([*prefix, str(exe), "-batch", ":memory:", *args],
                          capture_output=True, text=True, env=env, timeout=300)
    return proc.returncode, proc.stdout.replace("\r\n", "\n"), proc.stderr.replace("\r\n", "\n")


def setup_args(path):
    return [f".read {path(REPO / 'sql' / 'schema.sql')}",
            f".read {path(REPO / 'sql' / 'example.sql')}"]


def check_dll_imports(module):
    out = subprocess.run([dist.objdump("x86_64-w64-mingw32"), "-p", str(module)],
                         capture_output=True, text=True, check=True).stdout
    dlls = re.findall(r"DLL Name: (\S+)", out)
    exports = re.findall(r"^\s*\[\s*\d+\]\s+(?:\+base\[\s*\d+\]\s+\w+\s+Export RVA\s*)?(\w+)$",
                         out.split("[Ordinal/Name Pointer] Table")[-1], re.M)
    print(f"imports: {', '.join(dlls)}; exports: {', '.join(exports)}")
    bad = [d for d in dlls if not SYSTEM_DLLS.match(d)]
    assert not bad, f"the DLL needs {bad}, which Windows does not have"
    assert exports == ["sqlite3_tiebreak_init"], exports


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", required=True, choices=["windows-x86_64", "linux-aarch64"])
    ap.add_argument("--build-dir", required=True, type=Path)
    args = ap.parse_args()
    build = args.build_dir.resolve()
    triple = dist.TARGETS[args.target]["triple"]
    if not shutil.which(f"{triple}-gcc"):
        pkg = {"windows-x86_64": "gcc-mingw-w64-x86-64",
               "linux-aarch64": "gcc-aarch64-linux-gnu"}[args.target]
        fetch.skip(f"{triple}-gcc not found (apt-get install {pkg})")
    prefix, path, env = runner(args.target, build / "dist")

    built = dist.cross(args.target, build)
    module = built["module"]
    print(f"{args.target}: {module} ({module.stat().st_size} bytes)", flush=True)
    if args.target == "windows-x86_64":
        check_dll_imports(module)
    else:
        need = dist.glibc_needed(module, triple)
        print(f"needs GLIBC {need[0]}.{need[1]}")
        assert need <= dist.MANYLINUX_GLIBC, need

    native = subprocess.run([os.environ.get("SQLITE3", "sqlite3"), "-batch", ":memory:",
                             f".load {build / 'tiebreak'}", *setup_args(str), QUERY],
                            capture_output=True, text=True, check=True).stdout
    assert native.count("\n") == 24 and native.startswith("1|Hugo|13|653333|"), native

    failures = 0
    for name, exe, load in (("module loaded by .load", built["shell"],
                             [f".load {path(module.with_suffix(''))}"]),
                            ("shell with tiebreak built in", built["shell_builtin"], [])):
        rc, out, err = shell(prefix, env, exe, *load, *setup_args(path),
                             "SELECT sqlite_version(), tiebreak_version();", QUERY)
        version, _, rows = out.partition("\n")
        ok = rc == 0 and rows == native
        rc_e, _, err_e = shell(prefix, env, exe, *load, *setup_args(path), ERROR_QUERY)
        ok_e = rc_e != 0 and "standings(): unknown policy 'nope'" in err_e
        print(f"{'ok' if ok and ok_e else 'FAILED'}: {name}: SQLite|tiebreak {version}, "
              f"{rows.count(chr(10))} standings rows "
              f"{'equal' if rows == native else 'DIFFER from'} the native build's; "
              f"unknown policy error {'reported' if ok_e else 'MISSING'}")
        if not ok:
            print(f"rc={rc}\n{out}\n{err}")
        if not ok_e:
            print(f"rc={rc_e}\n{err_e}")
        failures += not (ok and ok_e)
    print(f"{2 - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
