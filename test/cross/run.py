#!/usr/bin/python3
"""Cross-built tiebreak on another platform, run on this machine.

    /usr/bin/python3 test/cross/run.py --target windows-x86_64 --build-dir build
    /usr/bin/python3 test/cross/run.py --target linux-aarch64 --build-dir build
    /usr/bin/python3 test/cross/run.py --release --build-dir build
    /usr/bin/python3 test/cross/run.py --reproducible build/elsewhere --build-dir build

Builds with tools/dist.py (the toolchain files in cmake/, SQLite's sources
from npm) the module and two sqlite3 shells of the target, one plain and one
with tiebreak built in, then runs them under wine (Windows) or qemu-user
(aarch64): the plain shell .loads the module and computes the example
event's standings, the built-in shell computes them without .load; both must
equal the standings of the native build in the system's sqlite3.  For
Windows the DLL's imports are checked too: only system DLLs (no
libgcc_s_seh-1.dll).

With --release it runs the `release` target's tools/dist.py and checks
build/release: nothing but the files SHA256SUMS lists, `sha256sum -c`, each
archive's files, the wheels' RECORD hashes and tags, the npm tarball's
modules; each archive (the WebAssembly one too) is unpacked into an empty
folder where every command its README.md gives is run (another platform's
programs under wine or qemu) and must print what the README shows; each
archive's sqlite3-tiebreak computes the standings on its platform, and the
linux-x86_64 module loads into the system's sqlite3.  With --reproducible
FOLDER it builds the release again in FOLDER and requires the same
checksums as build/release: the files do not depend on the build folder
(the linux-x86_64 files; every target with TIEBREAK_REPRODUCIBLE_ALL=1).
Exit code 77: skipped (tools or npm missing; a failure
under TIEBREAK_REQUIRE_ONLINE=1, see test/fetch.py).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import zipfile
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
    if target == "linux-x86_64":
        return [], str, dict(os.environ)
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


def run_program(cmd, env, cwd=None):
    """(returncode, stdout, stderr) of a program run here or under an emulator."""
    run = lambda: subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd,
                                 timeout=300)
    proc = run()
    if proc.returncode != 0 and not proc.stdout and not proc.stderr and "WINEPREFIX" in env:
        # a wine client that starts while the last one's wineserver is still
        # shutting down can exit 1 with nothing said: wait for it, once
        print(f"note: {Path(cmd[1]).name} under wine exited {proc.returncode} silently; "
              "retried once after wineserver -w")
        subprocess.run([shutil.which("wineserver") or "wineserver", "-w"], env=env, timeout=60)
        proc = run()
    return proc.returncode, proc.stdout.replace("\r\n", "\n"), proc.stderr.replace("\r\n", "\n")


def shell(prefix, env, exe, *args):
    return run_program([*prefix, str(exe), "-batch", ":memory:", *args], env)


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


def need_compiler(target):
    triple = dist.TARGETS[target]["triple"]
    if target != "linux-x86_64" and not shutil.which(f"{triple}-gcc"):
        pkg = {"windows-x86_64": "gcc-mingw-w64-x86-64",
               "linux-aarch64": "gcc-aarch64-linux-gnu"}[target]
        fetch.skip(f"{triple}-gcc not found (apt-get install {pkg})")


def native_standings(build):
    native = subprocess.run([os.environ.get("SQLITE3", "sqlite3"), "-batch", ":memory:",
                             f".load {build / 'tiebreak'}", *setup_args(str), QUERY],
                            capture_output=True, text=True, check=True).stdout
    assert native.count("\n") == 24 and native.startswith("1|Hugo|13|653333|"), native
    return native


def control_without_static_libgcc(prefix, path, env, built):
    """The same objects linked without -static-libgcc need libgcc_s_seh-1.dll,
    and the shell cannot load that DLL: what the flag prevents."""
    objdir = built["module"].parent / "CMakeFiles" / "tiebreak.dir"
    # objects of sources that still exist: a build folder may keep moved ones
    objs = sorted(str(p) for p in objdir.rglob("*.obj")
                  if (REPO / p.relative_to(objdir).with_suffix("")).exists())
    control = built["module"].parent / "control" / "tiebreak.dll"
    control.parent.mkdir(exist_ok=True)
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", str(control), *objs], check=True)
    out = subprocess.run([dist.objdump("x86_64-w64-mingw32"), "-p", str(control)],
                         capture_output=True, text=True, check=True).stdout
    rc, _, err = shell(prefix, env, built["shell"], f".load {path(control.with_suffix(''))}")
    ok = "libgcc_s_seh-1.dll" in out and rc != 0 and "Module not found" in err
    print(f"{'ok' if ok else 'FAILED'}: without -static-libgcc ({len(objs)} objects) the DLL "
          f"needs libgcc_s_seh-1.dll and .load says: {err.strip()}")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", choices=["windows-x86_64", "linux-aarch64"])
    ap.add_argument("--release", action="store_true")
    ap.add_argument("--reproducible", type=Path, metavar="FOLDER",
                    help="build the release again in FOLDER and compare with build/release")
    ap.add_argument("--build-dir", required=True, type=Path)
    args = ap.parse_args()
    build = args.build_dir.resolve()
    if args.release:
        return release(build)
    if args.reproducible:
        return reproducible(build, args.reproducible.resolve())
    need_compiler(args.target)
    triple = dist.TARGETS[args.target]["triple"]
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

    native = native_standings(build)
    failures = 0
    if args.target == "windows-x86_64":
        failures += not control_without_static_libgcc(prefix, path, env, built)
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
    total = 3 if args.target == "windows-x86_64" else 2
    print(f"{total - failures} passed, {failures} failed")
    return 1 if failures else 0


def need_release_tools():
    for target in dist.TARGETS:
        need_compiler(target)
    if not shutil.which("emcc"):
        fetch.skip("emcc not found (apt-get install emscripten): the release has the "
                   "WebAssembly build")
    fetch.npm()


def unpack(archive, dest):
    """Unpack a release archive into dest, an empty folder; its top folder."""
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zf:
            names = zf.namelist()
            zf.extractall(dest)
            for info in zf.infolist():  # zipfile drops the modes
                os.chmod(dest / info.filename, (info.external_attr >> 16) & 0o777)
    else:
        with tarfile.open(archive) as tar:
            names = tar.getnames()
            tar.extractall(dest)
    return dest / names[0].split("/")[0], names


def readme_blocks(text):
    """(commands, expected output) of each sh/bat block of a README and the
    text block after it."""
    blocks = re.findall(r"^```(\w*)\n(.*?)^```$", text, re.M | re.S)
    out = []
    for i, (lang, body) in enumerate(blocks):
        if lang in ("sh", "bat"):
            expected = blocks[i + 1][1] if i + 1 < len(blocks) and blocks[i + 1][0] == "text" \
                else None
            out.append((body.splitlines(), expected))
    return out


def readme_commands_ok(top, programs, check):
    """Run every command of top/README.md in top, as its reader would, with
    programs mapping a command's first word to the argv that runs it here
    (an emulator for another platform's programs); compare each block's
    output with the text block that follows it.  Returns the number run."""
    count = 0
    for lines, expected in readme_blocks((top / "README.md").read_text()):
        got = ""
        for line in lines:
            argv = shlex.split(line.replace(".\\", "./"))
            assert argv[0] in programs, f"{top.name}/README.md: no way to run {argv[0]}"
            prefix, env = programs[argv[0]]
            rc, stdout, stderr = run_program([*prefix, *argv[1:]], env, cwd=top)
            got += stdout
            check(f"{top.name}/README.md: {line}", rc == 0, f"rc={rc} {stderr.strip()}")
            count += 1
        if expected is not None:
            check(f"{top.name}/README.md: the output it shows", got == expected,
                  f"\n{got}---\n{expected}")
    return count


def release_programs(target, top, build, runners):
    """How to run the commands an archive's README gives: its shell, and the
    host's sqlite3 (for another platform, the plain shell built for it)."""
    if target == "wasm":
        return {"node": (["node"], dict(os.environ))}
    spec = dist.TARGETS[target]
    prefix, path, env = runners[target]
    shell = top / f"sqlite3-tiebreak{spec['exe']}"
    host_sqlite = ([os.environ.get("SQLITE3", "sqlite3")] if target == "linux-x86_64" else
                   [*prefix, str(build / "dist" / target / "shell" / f"sqlite3{spec['exe']}")])
    name = "./sqlite3-tiebreak" + spec["exe"]
    return {name: ([*prefix, str(shell)], env), "sqlite3" + spec["exe"]: (host_sqlite, env)}


def release(build):
    """The release target's output checked, unpacked and run."""
    need_release_tools()
    runners = {t: runner(t, build / "dist") for t in dist.TARGETS}
    native = native_standings(build)
    out = dist.release(build, list(dist.TARGETS))
    checks = []

    def check(name, ok, detail=""):
        checks.append(ok)
        print(f"{'ok' if ok else 'FAILED'}: {name}{': ' + detail if detail and not ok else ''}",
              flush=True)

    ver = dist.version()
    sums = (out / "SHA256SUMS").read_text()
    listed = sorted(line.split("  ", 1)[1] for line in sums.splitlines())
    check(f"build/release holds the {len(listed)} files of SHA256SUMS and nothing else",
          sorted(os.listdir(out)) == sorted(listed + ["SHA256SUMS"]), str(os.listdir(out)))
    proc = subprocess.run(["sha256sum", "-c", "SHA256SUMS"], cwd=out, capture_output=True,
                          text=True)
    check(f"sha256sum -c: {proc.stdout.count(': OK')} files", proc.returncode == 0
          and proc.stdout.count(": OK") == 8, proc.stdout + proc.stderr)

    for target, spec in [*dist.TARGETS.items(), ("wasm", None)]:
        name = f"tiebreak-{ver}-{target}" + (".tar.gz" if target.startswith("linux") else ".zip")
        # an empty folder of its own, as a user unpacks it
        top, names = unpack(out / name, build / "dist" / "release-check" / target)
        files = sorted(n.split("/", 1)[1] for n in names if not n.endswith("/"))
        if spec:
            want = sorted([spec["module"], f"sqlite3-tiebreak{spec['exe']}", "libtiebreak.a",
                           "tiebreak.h", "sql/schema.sql", "sql/example.sql", "LICENSE",
                           "README.md", "CHANGELOG.md"])
        else:
            want = sorted(["tiebreak.js", "tiebreak.wasm", "example.cjs", "sql/schema.sql",
                           "sql/example.sql", "LICENSE", "README.md", "CHANGELOG.md"] +
                          [f"web/{p.name}" for p in (build / "web").iterdir()])
        check(f"{name}: {len(files)} files", files == want, f"{files} != {want}")
        readme = (top / "README.md").read_text()
        missing = [link for link in re.findall(r"\]\(([^)#]+)[^)]*\)", readme)
                   if not link.startswith("http") and not (top / link).exists()]
        check(f"{name}: README.md links only files in the archive", not missing, str(missing))
        n = readme_commands_ok(top, release_programs(target, top, build, runners), check)
        check(f"{name}: README.md gives commands ({n})", n >= 1)
        if not spec:
            continue
        prefix, path, env = runners[target]
        exe = top / f"sqlite3-tiebreak{spec['exe']}"
        rc, stdout, err = shell(prefix, env, exe, *setup_args(path), QUERY)
        check(f"{name}: sqlite3-tiebreak computes the standings without .load",
              rc == 0 and stdout == native, f"rc={rc} {err}")
        if target != "windows-x86_64":
            need = dist.glibc_needed(exe, spec["triple"])
            check(f"{name}: README.md states the shell's glibc {need[0]}.{need[1]}",
                  f"`sqlite3-tiebreak` needs glibc {need[0]}.{need[1]} or later" in readme)
        if target == "linux-x86_64":
            sys_out = subprocess.run([os.environ.get("SQLITE3", "sqlite3"), "-batch",
                                      ":memory:", f".load {top / 'tiebreak'}",
                                      *setup_args(str), QUERY], capture_output=True,
                                     text=True).stdout
            check(f"{name}: its module in the system's sqlite3", sys_out == native)
        whl = out / f"sqlite_tiebreak-{ver}-py3-none-{spec['wheel']}.whl"
        check(f"{whl.name}: RECORD", wheel_record_ok(whl, spec))
    with tarfile.open(out / f"sqlite-tiebreak-{ver}.tgz") as tar:
        mods = sorted(n for n in tar.getnames() if n.startswith("package/lib/"))
    want = sorted(f"package/lib/{s['npm']}/{s['module']}" for s in dist.TARGETS.values())
    check("npm tarball: a module per platform", mods == want, str(mods))
    failed = checks.count(False)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0


def reproducible(build, elsewhere):
    """The release built in a second folder: every file byte-identical to
    build/release (the `release` test's), whatever the folder's path.  By
    default the linux-x86_64 files alone (its archive and wheel: the native
    module and shell, a few minutes); TIEBREAK_REPRODUCIBLE_ALL=1 builds
    every target again (the cross builds and WebAssembly: far longer)."""
    need_release_tools()
    first = build / "release"
    if not (first / "SHA256SUMS").exists():
        dist.release(build, list(dist.TARGETS))
    every = os.environ.get("TIEBREAK_REPRODUCIBLE_ALL") == "1"
    targets = list(dist.TARGETS) if every else ["linux-x86_64"]
    second = dist.release(elsewhere, targets, wasm=every)
    a = set((first / "SHA256SUMS").read_text().splitlines())
    b = set((second / "SHA256SUMS").read_text().splitlines())
    if not every:
        spec = dist.TARGETS["linux-x86_64"]
        b = {line for line in b if "linux-x86_64" in line or spec["wheel"] in line}
    differ = sorted(b - a) if not every else sorted(a ^ b)
    print(f"{build}/release and {second}: {len(b)} files of {', '.join(targets)} "
          f"compared; {'the same checksums' if b and not differ else 'DIFFERENT: ' + chr(10).join(differ)}")
    return 0 if b and not differ else 1


def wheel_record_ok(whl, spec):
    """Every file listed in RECORD with its sha256 and size, the module
    included, and the platform tags in WHEEL."""
    import base64
    import hashlib
    with zipfile.ZipFile(whl) as zf:
        names = set(zf.namelist())
        record = next(n for n in names if n.endswith(".dist-info/RECORD"))
        listed = set()
        for line in zf.read(record).decode().splitlines():
            name, digest, size = line.rsplit(",", 2)
            listed.add(name)
            if name == record:
                continue
            data = zf.read(name)
            h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            if digest != f"sha256={h}" or int(size) != len(data):
                return False
        tags = re.findall(r"^Tag: (\S+)$", zf.read(record.replace("RECORD", "WHEEL")).decode(),
                          re.M)
    return (listed == names and f"sqlite_tiebreak/{spec['module']}" in names
            and tags == [f"py3-none-{t}" for t in spec["wheel"].split(".")])


if __name__ == "__main__":
    sys.exit(main())
