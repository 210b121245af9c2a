#!/usr/bin/python3
"""Packages and release archives of tiebreak, built offline from a build tree.

    tools/dist.py wheel   --module build/tiebreak.so --target linux-x86_64 --out DIR
    tools/dist.py npm     --module linux-x64=build/tiebreak.so [...] --out DIR
    tools/dist.py cross   --target linux-aarch64 --build-dir build
    tools/dist.py release --build-dir build          # everything, into build/release

The version comes from one place, TIEBREAK_VERSION in ext/tiebreak_int.h.
Cross builds use the toolchain files in cmake/ and the SQLite amalgamation
and shell.c that npm packages ship (see test/sqlite_src.py); the release
needs npm (or its cache) for them, and emcc for the WebAssembly build
(wasm/build.py).  Release files do not depend on the build folder: objects
are compiled with -ffile-prefix-map, archives have fixed timestamps, owners
and order.  Each archive's README.md comes from packages/archive/.
"""
import argparse
import base64
import gzip
import hashlib
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "test"))
import sqlite_src  # noqa: E402

# Release targets: the CMake toolchain file, the compiler triple, the wheel's
# platform tags, the npm platform directory and the module's file name.
TARGETS = {
    "linux-x86_64": dict(toolchain=None, triple="x86_64-linux-gnu",
                         wheel="manylinux_2_17_x86_64.manylinux2014_x86_64",
                         npm="linux-x64", module="tiebreak.so", exe=""),
    "linux-aarch64": dict(toolchain="aarch64-linux-gnu.cmake", triple="aarch64-linux-gnu",
                          wheel="manylinux_2_17_aarch64.manylinux2014_aarch64",
                          npm="linux-arm64", module="tiebreak.so", exe=""),
    "windows-x86_64": dict(toolchain="mingw-w64-x86_64.cmake", triple="x86_64-w64-mingw32",
                           wheel="win_amd64", npm="win32-x64", module="tiebreak.dll",
                           exe=".exe"),
}
# manylinux2014 promises glibc 2.17 or later on the host.
MANYLINUX_GLIBC = (2, 17)
# Fixed timestamps make the archives reproducible (zip cannot go below 1980).
EPOCH = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))


def prefix_map(build):
    """Compiler flags that write the build folder and the source tree as
    fixed names into objects (__FILE__ of asserts, debug info): the same
    sources give the same files from any folder.  GCC applies the last map
    that matches: the build folder's comes last, as it may lie in the tree."""
    return [f"-ffile-prefix-map={REPO}=tiebreak",
            f"-ffile-prefix-map={Path(build).resolve()}=build"]


def version():
    text = (REPO / "ext" / "tiebreak_int.h").read_text()
    return re.search(r'#define TIEBREAK_VERSION "([^"]+)"', text).group(1)


def objdump(triple):
    for name in (f"{triple}-objdump", "objdump"):
        if shutil.which(name):
            return name
    raise SystemExit(f"objdump for {triple} not found (apt-get install binutils)")


def glibc_needed(module, triple):
    """The highest GLIBC_x.y symbol version the module imports."""
    out = subprocess.run([objdump(triple), "-T", str(module)], check=True,
                         capture_output=True, text=True).stdout
    found = {tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_([0-9.]+)", out)}
    return max(found) if found else (0, 0)


# ------------------------------------------------------------------ wheel

def _record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def _zip_write(zf, name, data, mode=0o644):
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)


def build_wheel(module, target, out):
    """sqlite_tiebreak-VERSION-py3-none-PLATFORM.whl: the Python package with
    the module beside it; any Python 3 on that platform (no compiled Python
    code).  Linux wheels are checked against manylinux2014's glibc."""
    spec = TARGETS[target]
    module = Path(module)
    if target.startswith("linux-"):
        need = glibc_needed(module, spec["triple"])
        if need > MANYLINUX_GLIBC:
            raise SystemExit(f"{module} needs GLIBC {need[0]}.{need[1]}, more than "
                             f"manylinux2014's 2.17: tag it for a newer glibc")
    ver = version()
    dist_info = f"sqlite_tiebreak-{ver}.dist-info"
    pkg = REPO / "packages" / "python" / "sqlite_tiebreak"
    files = [
        ("sqlite_tiebreak/__init__.py",
         (pkg / "__init__.py").read_text().replace("@TIEBREAK_VERSION@", ver).encode(), 0o644),
        (f"sqlite_tiebreak/{spec['module']}", module.read_bytes(), 0o755),
        (f"{dist_info}/METADATA", _metadata(ver, target).encode(), 0o644),
        (f"{dist_info}/WHEEL",
         ("Wheel-Version: 1.0\nGenerator: tiebreak tools/dist.py\nRoot-Is-Purelib: false\n" +
          "".join(f"Tag: py3-none-{t}\n" for t in spec["wheel"].split("."))).encode(), 0o644),
        (f"{dist_info}/LICENSE", (REPO / "LICENSE").read_bytes(), 0o644),
    ]
    record = [_record_line(n, d) for n, d, _ in files] + [f"{dist_info}/RECORD,,"]
    files.append((f"{dist_info}/RECORD", ("\n".join(record) + "\n").encode(), 0o644))
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    whl = out / f"sqlite_tiebreak-{ver}-py3-none-{spec['wheel']}.whl"
    with zipfile.ZipFile(whl, "w") as zf:
        for name, data, mode in files:
            _zip_write(zf, name, data, mode)
    return whl


# The operating system classifier of each target's wheel.
WHEEL_OS = {"linux": "Operating System :: POSIX :: Linux",
            "windows": "Operating System :: Microsoft :: Windows"}
SUMMARY = ("Swiss-tournament standings, tiebreakers and pairings inside SQLite: Magic, "
           "Pokemon, chess (FIDE), Yu-Gi-Oh!, Battlefy (loadable extension)")
KEYWORDS = ["sqlite", "sqlite-extension", "swiss", "tournament", "standings", "tiebreakers",
            "pairings", "mtg", "pokemon", "chess", "fide", "yugioh", "trf", "melee"]


def _metadata(ver, target):
    """The wheel's METADATA: no home page nor project URL (the project has
    none); packages/python/README.md is the long description."""
    classifiers = [
        "Development Status :: 4 - Beta",
        "Intended Audience :: Developers",
        "License :: OSI Approved :: MIT License",
        WHEEL_OS[target.split("-")[0]],
        "Programming Language :: C",
        "Programming Language :: Python :: 3",
        "Programming Language :: Python :: Implementation :: CPython",
        "Programming Language :: SQL",
        "Topic :: Database",
        "Topic :: Games/Entertainment",
        "Topic :: Games/Entertainment :: Board Games",
    ]
    head = [
        "Metadata-Version: 2.1",
        "Name: sqlite-tiebreak",
        f"Version: {ver}",
        f"Summary: {SUMMARY}",
        "Author: the tiebreak authors",
        "License: MIT",
        "License-File: LICENSE",
        f"Keywords: {','.join(KEYWORDS)}",
        *(f"Classifier: {c}" for c in classifiers),
        "Requires-Python: >=3.6",
        "Description-Content-Type: text/markdown; charset=UTF-8",
    ]
    readme = (REPO / "packages" / "python" / "README.md").read_text(encoding="utf-8")
    return "\n".join(head) + "\n\n" + readme


# -------------------------------------------------------------------- npm

def stage_npm(modules, stage):
    """The npm package's folder: packages/npm with the version and the
    platforms (os, cpu) filled in and each module under
    lib/<platform>-<arch>/, for `npm pack`."""
    src = REPO / "packages" / "npm"
    stage.mkdir(parents=True)
    for name in ("index.cjs", "index.mjs", "index.d.ts", "README.md"):
        shutil.copy2(src / name, stage / name)
    shutil.copy2(REPO / "LICENSE", stage / "LICENSE")
    meta = json.loads((src / "package.json").read_text())
    meta["version"] = version()
    # the platforms packed, so that npm refuses a host with no module
    meta["os"] = sorted({p.split("-")[0] for p in modules})
    meta["cpu"] = sorted({p.split("-")[1] for p in modules})
    (stage / "package.json").write_text(json.dumps(meta, indent=2) + "\n")
    for platform, module in modules.items():
        (stage / "lib" / platform).mkdir(parents=True)
        shutil.copy2(module, stage / "lib" / platform / module.name)


def npm_pack(modules, out):
    """sqlite-tiebreak-VERSION.tgz in out.  Paths are resolved first: npm
    runs in a staging folder of its own, removed afterwards."""
    modules = {platform: Path(m).resolve() for platform, m in modules.items()}
    missing = [str(m) for m in modules.values() if not m.is_file()]
    if missing:
        raise SystemExit(f"dist.py npm: no module at {', '.join(missing)}")
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm") or sys.exit("npm not found (apt-get install npm)")
    with tempfile.TemporaryDirectory(prefix="sqlite-tiebreak-npm-") as tmp:
        stage = Path(tmp) / "sqlite-tiebreak"
        stage_npm(modules, stage)
        proc = subprocess.run([npm, "pack", "--loglevel=error", "--pack-destination", str(out)],
                              cwd=stage, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"dist.py npm: npm pack failed (exit {proc.returncode}):\n"
                         f"{proc.stderr.strip() or proc.stdout.strip()}")
    return out / proc.stdout.strip().splitlines()[-1]


# ------------------------------------------------------------ cross builds

def cmake_build(target, build, include_dir):
    """tiebreak's own CMake build for a target, against the given SQLite
    headers; returns its directory (tiebreak.so/.dll and libtiebreak.a)."""
    spec = TARGETS[target]
    out = Path(build) / "dist" / target / "cmake"
    args = ["cmake", "-S", str(REPO), "-B", str(out), "-DTIEBREAK_TESTS=OFF",
            "-DCMAKE_BUILD_TYPE=Release", f"-DSQLITE3EXT_INCLUDE_DIR={include_dir}",
            "-DCMAKE_C_FLAGS=" + " ".join(prefix_map(build))]
    if spec["toolchain"]:
        args.append(f"-DCMAKE_TOOLCHAIN_FILE={REPO / 'cmake' / spec['toolchain']}")
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(out), "-j2", "--target", "tiebreak",
                    "tiebreak_static"], check=True, stdout=subprocess.DEVNULL)
    return out


def compiler(target):
    triple = TARGETS[target]["triple"]
    if target == "linux-x86_64" and not shutil.which(f"{triple}-gcc"):
        return os.environ.get("CC") or "cc"
    cc = f"{triple}-gcc"
    if not shutil.which(cc):
        raise FileNotFoundError(cc)
    return cc


def _compile(cc, flags, src, obj):
    """One object, rebuilt when older than its source or compiled with
    other flags (kept beside it in a .cmd file)."""
    cmd = [cc, *flags, "-c", str(src), "-o", str(obj)]
    stamp = obj.with_suffix(".cmd")
    if (not obj.exists() or obj.stat().st_mtime < Path(src).stat().st_mtime
            or not stamp.exists() or stamp.read_text() != "\n".join(cmd)):
        obj.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(cmd, check=True)
        stamp.write_text("\n".join(cmd))
    return str(obj)


def build_shell(target, build, builtin_lib=None):
    """sqlite3 shell from the npm amalgamation and shell.c for a target.
    With builtin_lib (a libtiebreak.a built on the same headers), tiebreak is
    registered in every connection (tools/builtin.c through shell.c's
    SQLITE_SHELL_INIT_PROC), for hosts whose sqlite3 cannot .load.  The
    amalgamation's object is shared by both shells and reused."""
    amalgamation, shell_c = sqlite_src.sources(build)
    spec = TARGETS[target]
    kind = "sqlite3-tiebreak" if builtin_lib else "sqlite3"
    out = Path(build) / "dist" / target / "shell" / (kind + spec["exe"])
    cc = compiler(target)
    obj = out.parent / "obj"
    flags = ["-O2", "-DSQLITE_DQS=0", "-DSQLITE_THREADSAFE=0",
             "-DSQLITE_ENABLE_MATH_FUNCTIONS", "-DSQLITE_ENABLE_FTS5", f"-I{amalgamation}",
             *prefix_map(build)]
    units = [(flags, amalgamation / "sqlite3.c", obj / "sqlite3.o")]
    if builtin_lib:
        units += [(flags + ["-DSQLITE_SHELL_INIT_PROC=tiebreak_shell_init"], shell_c,
                   obj / "shell-tiebreak.o"),
                  (flags + [f"-I{REPO / 'ext'}"], REPO / "tools" / "builtin.c",
                   obj / "builtin.o")]
    else:
        units.append((flags, shell_c, obj / "shell.o"))
    with ThreadPoolExecutor(2) as pool:
        objs = list(pool.map(lambda u: _compile(cc, *u), units))
    libs = [str(builtin_lib)] if builtin_lib else []
    if target.startswith("windows"):
        # shell.c has wmain(); no link time in the PE header (reproducible).
        libs += ["-static-libgcc", "-municode", "-Wl,--no-insert-timestamp"]
    else:
        libs += ["-ldl", "-lm"]
    tmp = out.with_name(out.name + ".tmp")
    subprocess.run([cc, *objs, *libs, "-o", str(tmp)], check=True)
    tmp.replace(out)
    return out


def cross(target, build):
    """The module, the static library and the two shells of a target."""
    amalgamation, _ = sqlite_src.sources(build)
    cm = cmake_build(target, build, amalgamation)
    module = cm / TARGETS[target]["module"]
    static = cm / "libtiebreak.a"
    return dict(module=module, static=static, shell=build_shell(target, build),
                shell_builtin=build_shell(target, build, static))


# ----------------------------------------------------------------- release

def _tar_add(tar, name, data, mode):
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = len(data), mode, EPOCH
    info.uname = info.gname = "root"
    tar.addfile(info, io.BytesIO(data))


def archive(target, files, out):
    """tiebreak-VERSION-TARGET.tar.gz (.zip for Windows and the WebAssembly
    build) with one top folder; files are (name, bytes, mode)."""
    top = f"tiebreak-{version()}-{target}"
    entries = [(f"{top}/{name}", data, mode) for name, data, mode in files]
    if target.startswith("windows") or target == "wasm":
        path = Path(out) / f"{top}.zip"
        with zipfile.ZipFile(path, "w") as zf:
            for name, data, mode in entries:
                _zip_write(zf, name, data, mode)
    else:
        path = Path(out) / f"{top}.tar.gz"
        raw = io.BytesIO()
        with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
            for name, data, mode in entries:
                _tar_add(tar, name, data, mode)
        with open(path, "wb") as f, gzip.GzipFile(fileobj=f, mode="wb", mtime=EPOCH,
                                                   filename="") as gz:
            gz.write(raw.getvalue())
    return path


# glibc of long-lived distributions, to say in an archive's README where its
# programs run.
GLIBC_OF = [((2, 17), "RHEL 7"), ((2, 28), "RHEL 8"), ((2, 31), "Debian 11, Ubuntu 20.04"),
            ((2, 34), "RHEL 9"), ((2, 35), "Ubuntu 22.04"), ((2, 36), "Debian 12")]
ARCHIVE_SQL = ("schema.sql", "example.sql")


def sqlite_version(build):
    amalgamation, _ = sqlite_src.sources(build)
    text = (amalgamation / "sqlite3.h").read_text()
    return re.search(r'#define SQLITE_VERSION\s+"([^"]+)"', text).group(1)


def _glibc_phrase(need):
    """'glibc 2.34 or later (RHEL 9, ...; not RHEL 8, ...)' for a measured need."""
    newer = [d for v, d in GLIBC_OF if v >= need]
    older = [d for v, d in GLIBC_OF if v < need]
    runs = ", ".join(newer) if len(newer) <= 3 else f"{newer[0]} and later"
    return (f"glibc {need[0]}.{need[1]} or later ({runs}" +
            (f"; not {', '.join(older)}" if older else "") + ")")


def _fill(template, values):
    for key, value in values.items():
        template = template.replace(f"@{key}@", value)
    return template


def archive_readme(target, built, build):
    """The archive's README.md: packages/archive/README.md filled in for the
    target, with the glibc its programs import (objdump -T, measured here)."""
    spec = TARGETS[target]
    if target.startswith("windows"):
        run = r".\sqlite3-tiebreak.exe"
        requirements = (
            "For 64-bit Windows: `sqlite3-tiebreak.exe` and `tiebreak.dll` import only system "
            "DLLs (`KERNEL32.dll`, `msvcrt.dll`). The commands below work in PowerShell and "
            "`cmd`, in this folder.")
        editing = ""
        load = ("With a 64-bit `sqlite3.exe` (3.31 or later) on `PATH`:\n\n"
                "```bat\n"
                "sqlite3.exe events.db \".load ./tiebreak\" "
                "\"SELECT count(*) FROM standings(1, 'mtg')\"\n```\n```text\n24\n```")
    else:
        arch = target.split("-", 1)[1]
        shell_need = glibc_needed(built["shell_builtin"], spec["triple"])
        module_need = glibc_needed(built["module"], spec["triple"])
        run = "./sqlite3-tiebreak"
        requirements = (
            f"For Linux {arch}. `sqlite3-tiebreak` needs {_glibc_phrase(shell_need)}; the "
            f"module needs {_glibc_phrase(module_need)} and a SQLite 3.31 or later that loads "
            "extensions. `ldd --version` prints the system's glibc. On a system older than "
            "the shell needs, load the module into the system's `sqlite3` (below).")
        editing = ("The shell has no line editing (arrow keys, history): it would need "
                   "libreadline or libedit, whose library names differ between distributions. "
                   f"`rlwrap {run} events.db` adds it (`apt-get install rlwrap`), or use the "
                   "system's `sqlite3` with `.load ./tiebreak`.")
        load = ("The system's `sqlite3` (3.31 or later; `apt-get install sqlite3`):\n\n"
                "```sh\n"
                "sqlite3 events.db \".load ./tiebreak\" "
                "\"SELECT count(*) FROM standings(1, 'mtg')\"\n```\n```text\n24\n```")
    load += ("\n\n`.load` needs the `./` (without a slash the system's library path is "
             "searched). Elsewhere: `SELECT load_extension('./tiebreak')` once the program has "
             "enabled extension loading, `conn.enable_load_extension(True)` then "
             "`conn.load_extension('./tiebreak')` in Python. SQLite finds the entry point "
             "`sqlite3_tiebreak_init` from the file name: keep the name `tiebreak`.")
    block = "bat" if target.startswith("windows") else "sh"
    text = (REPO / "packages" / "archive" / "README.md").read_text()
    return _fill(text.replace("```sh\n@RUN@", f"```{block}\n@RUN@"), {
        "VERSION": version(), "TARGET": target, "SQLITE": sqlite_version(build),
        "SHELL": f"sqlite3-tiebreak{spec['exe']}", "MODULE": spec["module"], "RUN": run,
        "REQUIREMENTS": requirements, "EDITING": editing, "LOAD": load}).replace(" \n", "\n")


def archive_files(target, built, build):
    """(name in the archive, bytes, mode) of a target's archive."""
    spec = TARGETS[target]
    read = lambda p: Path(p).read_bytes()
    return [(spec["module"], read(built["module"]), 0o755),
            (f"sqlite3-tiebreak{spec['exe']}", read(built["shell_builtin"]), 0o755),
            ("libtiebreak.a", read(built["static"]), 0o644),
            ("tiebreak.h", read(REPO / "ext" / "tiebreak.h"), 0o644),
            *[(f"sql/{n}", read(REPO / "sql" / n), 0o644) for n in ARCHIVE_SQL],
            ("README.md", archive_readme(target, built, build).encode(), 0o644),
            ("CHANGELOG.md", read(REPO / "CHANGELOG.md"), 0o644),
            ("LICENSE", read(REPO / "LICENSE"), 0o644)]


def wasm_files(build):
    """The WebAssembly build (wasm/build.py) and its standings page, with a
    README whose commands run in the unpacked folder under Node."""
    spec = importlib.util.spec_from_file_location("wasm_build", REPO / "wasm" / "build.py")
    wasm_build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(wasm_build)
    out = wasm_build.build(Path(build))
    web = Path(build) / "web"
    read = lambda p: Path(p).read_bytes()
    readme = _fill((REPO / "packages" / "archive" / "README-wasm.md").read_text(),
                   {"VERSION": version(), "SQLITE": sqlite_version(build)})
    return [("tiebreak.js", read(out / "tiebreak.js"), 0o644),
            ("tiebreak.wasm", read(out / "tiebreak.wasm"), 0o644),
            ("example.cjs", read(REPO / "packages" / "archive" / "example.cjs"), 0o644),
            *[(f"sql/{n}", read(REPO / "sql" / n), 0o644) for n in ARCHIVE_SQL],
            *[(f"web/{p.name}", read(p), 0o644) for p in sorted(web.iterdir()) if p.is_file()],
            ("README.md", readme.encode(), 0o644),
            ("CHANGELOG.md", read(REPO / "CHANGELOG.md"), 0o644),
            ("LICENSE", read(REPO / "LICENSE"), 0o644)]


def release(build, targets, wasm=True):
    """Archives, wheels and the npm package of every target, the WebAssembly
    build's archive, and SHA256SUMS, into <build>/release."""
    out = Path(build) / "release"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    made, npm_modules = [], {}
    for target in targets:
        spec = TARGETS[target]
        built = cross(target, build)
        made.append(archive(target, archive_files(target, built, build), out))
        made.append(build_wheel(built["module"], target, out))
        npm_modules[spec["npm"]] = built["module"]
    if wasm:
        made.append(archive("wasm", wasm_files(build), out))
    made.append(npm_pack(npm_modules, out))
    sums = "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n"
                   for p in sorted(made))
    (out / "SHA256SUMS").write_text(sums)
    for p in sorted(made):
        print(f"{p.stat().st_size:>10}  {p.name}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("wheel")
    w.add_argument("--module", required=True)
    w.add_argument("--target", default="linux-x86_64", choices=TARGETS)
    w.add_argument("--out", required=True)
    n = sub.add_parser("npm")
    n.add_argument("--module", action="append", required=True, help="PLATFORM-ARCH=PATH")
    n.add_argument("--out", required=True)
    c = sub.add_parser("cross")
    c.add_argument("--target", required=True, choices=TARGETS)
    c.add_argument("--build-dir", required=True)
    r = sub.add_parser("release")
    r.add_argument("--build-dir", required=True)
    r.add_argument("--target", action="append", choices=TARGETS)
    a = ap.parse_args()
    if a.cmd == "wheel":
        print(build_wheel(a.module, a.target, a.out))
    elif a.cmd == "npm":
        print(npm_pack(dict(m.split("=", 1) for m in a.module), a.out))
    elif a.cmd == "cross":
        for k, v in cross(a.target, Path(a.build_dir).resolve()).items():
            print(f"{k}: {v}")
    else:
        print(release(Path(a.build_dir).resolve(), a.target or list(TARGETS)))


if __name__ == "__main__":
    main()
