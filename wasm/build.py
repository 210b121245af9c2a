#!/usr/bin/python3
"""Build SQLite with tiebreak built in for WebAssembly, and the standings page.

    /usr/bin/python3 wasm/build.py --build-dir build

Writes <build-dir>/wasm/tiebreak.js and tiebreak.wasm (the JS API of
docs/wasm.md around SQLite + tiebreak), and <build-dir>/web/, the standings
page of web/ with the two files and the example event beside it: static files
any web server, or a local one, can serve.

Inputs: Debian's emscripten (apt-get install emscripten) and the SQLite
amalgamation of an npm package (better-sqlite3's deps/sqlite3, the same one
test/newer_sqlite builds; fetched once into <build-dir>/newer-sqlite/npm).
About a minute of compiling the first time; later runs rebuild only what
changed.  Exit code 77 (test/fetch.py's skip) when emcc or npm is missing.

Emscripten's cache lives in <build-dir>/wasm/emcache, never in $HOME: it is
seeded from the system libraries Debian ships prebuilt (so nothing is built
from the libc sources, which takes minutes) and emcc fills in anything
missing offline.
"""
import argparse
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "test"))
import fetch  # noqa: E402

AMALGAMATION = "better-sqlite3@13.2.0"   # deps/sqlite3: SQLite 3.54.1

# SQLite as the browser needs it: one thread, no extension loading (tiebreak
# is registered for every connection instead), temporary tables in memory,
# double-quoted strings are identifiers (SQLite's recommendation).
SQLITE_FLAGS = [
    "-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION", "-DSQLITE_TEMP_STORE=3",
    "-DSQLITE_DQS=0", "-DSQLITE_DEFAULT_MEMSTATUS=0", "-DSQLITE_ENABLE_MATH_FUNCTIONS",
]
OPT = ["-O2"]
EXPORTED = [
    "malloc", "free", "sqlite3_free", "sqlite3_malloc", "tb_wasm_open", "sqlite3_close_v2",
    "sqlite3_errmsg", "sqlite3_errcode", "sqlite3_extended_errcode", "sqlite3_libversion",
    "sqlite3_prepare_v2", "sqlite3_finalize", "sqlite3_reset", "sqlite3_step",
    "sqlite3_column_count", "sqlite3_column_name", "sqlite3_column_type",
    "sqlite3_column_int64", "sqlite3_column_double", "sqlite3_column_text",
    "sqlite3_column_blob", "sqlite3_column_bytes", "sqlite3_bind_parameter_count",
    "sqlite3_bind_parameter_name", "sqlite3_bind_null", "sqlite3_bind_int64",
    "sqlite3_bind_double", "sqlite3_bind_text", "sqlite3_bind_blob", "sqlite3_changes",
    "tb_wasm_serialize",
]
# Prebuilt system libraries copied from Debian's cache (what a C program
# with SQLite links); any other is built by emcc into our cache.
SEED_LIBS = ["crt1.o", "libc.a", "libcompiler_rt.a", "libdlmalloc.a", "libstubs.a",
             "libnoexit.a", "libsockets.a", "libGL.a", "libal.a", "libhtml5.a",
             "libc++-noexcept.a", "libc++abi-noexcept.a", "struct_info.json"]


def emcc_path():
    path = shutil.which("emcc")
    if not path:
        fetch.skip("emcc not found (apt-get install emscripten)")
    return path


def emcc_env(cache):
    """emcc with a cache of its own in the build tree, and Debian's JS
    modules (acorn) visible to a node that is not Debian's own."""
    env = dict(os.environ, EM_CACHE=str(cache), EM_FROZEN_CACHE="")
    paths = [p for p in (env.get("NODE_PATH", ""), "/usr/share/nodejs") if p]
    env["NODE_PATH"] = os.pathsep.join(paths)
    return env


def seed_cache(emcc, cache):
    """Copy the distribution's prebuilt headers and libraries into cache."""
    stamp = cache / "seeded"
    if stamp.exists():
        return
    system = Path(os.path.realpath(emcc)).parent / "cache"
    if not (system / "sysroot" / "include").is_dir():
        return  # not Debian's layout: emcc builds the libraries into cache
    shutil.rmtree(cache, ignore_errors=True)
    (cache / "sysroot" / "lib" / "wasm32-emscripten").mkdir(parents=True)
    shutil.copytree(system / "sysroot" / "include", cache / "sysroot" / "include")
    for name in SEED_LIBS:
        src = system / "sysroot" / "lib" / "wasm32-emscripten" / name
        if src.exists():
            shutil.copy2(src, cache / "sysroot" / "lib" / "wasm32-emscripten" / name)
    if (system / "sysroot_install.stamp").exists():
        shutil.copy2(system / "sysroot_install.stamp", cache / "sysroot_install.stamp")
    stamp.write_text(str(system) + "\n")


def source_id():
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=REPO,
                             capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        out = ""
    return out or "unknown"


def digest(paths, flags):
    h = hashlib.sha256("\0".join(flags).encode())
    for p in paths:
        h.update(str(p).encode() + b"\0" + Path(p).read_bytes())
    return h.hexdigest()[:16]


def compile_if_changed(emcc, env, sources, flags, obj, deps=()):
    """One object from sources (emcc -c, or a partial link of several),
    rebuilt when a source, a header it depends on or a flag changed."""
    key = digest([*sources, *deps], flags)
    stamp = obj.with_suffix(".key")
    if obj.exists() and stamp.exists() and stamp.read_text() == key:
        return obj
    if len(sources) == 1:
        cmd = [emcc, *flags, "-c", str(sources[0]), "-o", str(obj)]
    else:
        cmd = [emcc, *flags, "-r", *map(str, sources), "-o", str(obj)]
    subprocess.run(cmd, check=True, env=env)
    stamp.write_text(key)
    return obj


def build(build_dir):
    emcc = emcc_path()
    out = build_dir / "wasm"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "build.lock", "w") as lock:
        # The wasm test and the page test may build at the same time.
        fcntl.flock(lock, fcntl.LOCK_EX)
        amalgamation = fetch.pack(AMALGAMATION, build_dir / "newer-sqlite" / "npm") \
            / "deps" / "sqlite3"
        cache = out / "emcache"
        seed_cache(emcc, cache)
        env = emcc_env(cache)
        ext_sources = sorted((REPO / "ext").rglob("*.c")) + [HERE / "tiebreak_wasm.c"]
        headers = sorted((REPO / "ext").rglob("*.h")) + [amalgamation / "sqlite3.h"]
        # the build folder and the tree as fixed names in the objects (the
        # release's files do not depend on where they were built)
        inc = [f"-I{amalgamation}", f"-I{REPO / 'ext'}", f"-ffile-prefix-map={REPO}=tiebreak",
               f"-ffile-prefix-map={build_dir}=build"]
        sqlite_flags = OPT + SQLITE_FLAGS + inc
        ext_flags = OPT + SQLITE_FLAGS + inc + [
            "-DSQLITE_CORE", f'-DTIEBREAK_SOURCE_ID="{source_id()}"',
            "-Wall", "-Wextra", "-Wno-unused-parameter"]
        with ThreadPoolExecutor(2) as pool:
            sqlite_obj = pool.submit(compile_if_changed, emcc, env, [amalgamation / "sqlite3.c"],
                                     sqlite_flags, out / "sqlite3.o")
            ext_objs = list(pool.map(
                lambda src: compile_if_changed(emcc, env, [src], ext_flags,
                                               out / (src.stem + ".o"), headers),
                ext_sources))
            objs = [sqlite_obj.result(), *ext_objs]
        api = HERE / "api.js"
        link_flags = OPT + [
            "-sMODULARIZE=1", "-sEXPORT_NAME=TiebreakSQLite", "-sWASM_BIGINT=1",
            "-sALLOW_MEMORY_GROWTH=1", "-sENVIRONMENT=web,node",
            "-sEXPORTED_FUNCTIONS=" + ",".join("_" + f for f in EXPORTED),
            "-sEXPORTED_RUNTIME_METHODS=UTF8ToString,stringToUTF8,lengthBytesUTF8",
            "--extern-post-js", str(api)]
        key = digest([*objs, api], link_flags)
        js = out / "tiebreak.js"
        stamp = out / "tiebreak.js.key"
        if not (js.exists() and stamp.exists() and stamp.read_text() == key):
            subprocess.run([emcc, *map(str, objs), *link_flags, "-o", str(js)],
                           check=True, env=env)
            stamp.write_text(key)
        site(build_dir, out)
    return out


def site(build_dir, wasm):
    """<build-dir>/web: the page, the build, the example event's SQL."""
    web = build_dir / "web"
    web.mkdir(exist_ok=True)
    files = [*sorted((REPO / "web").glob("*.*")), wasm / "tiebreak.js", wasm / "tiebreak.wasm",
             REPO / "sql" / "schema.sql", REPO / "sql" / "example_large.sql",
             REPO / "sql" / "import" / "staging.sql", REPO / "sql" / "import" / "insert.sql"]
    for f in files:
        if f.suffix in (".py",):
            continue
        shutil.copy2(f, web / f.name)
    return web


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    args = ap.parse_args()
    out = build(args.build_dir.resolve())
    print(f"{out / 'tiebreak.js'}\n{args.build_dir.resolve() / 'web' / 'index.html'}")


if __name__ == "__main__":
    main()
