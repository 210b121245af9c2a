#!/usr/bin/python3
"""Test the standings page (web/) in headless Chromium.

    /usr/bin/python3 test/web/run.py --build-dir build [pytest args]

Builds the WebAssembly build and the page (wasm/build.py, into
<build-dir>/web), then runs test_web.py: the page is served by a static
server on 127.0.0.1 started by the test and driven through chromedriver (W3C
WebDriver over HTTP on 127.0.0.1, no other client library; DevTools commands
through it emulate a phone and print to PDF).  Exit code 77 (skipped) without
chromium, chromedriver, emcc or npm; the print tests are skipped without
pdftotext and pdftoppm (poppler-utils).  The screenshots (desktop, phone) and
the printed PDFs are kept in <build-dir>/web-artifacts; with
TIEBREAK_SCREENSHOT=PATH the desktop screenshot is also copied there.
"""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "wasm"))
sys.path.insert(0, str(HERE.parent))
import build  # noqa: E402
import fetch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True, type=Path)
    args, pytest_args = ap.parse_known_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        fetch.skip("chromium or chromedriver not found (apt-get install chromium chromium-driver)")
    build.build(args.build_dir.resolve())
    env = dict(os.environ, CHROMIUM=chromium, CHROMEDRIVER=driver,
               TIEBREAK_WEB=str(args.build_dir.resolve() / "web"),
               TIEBREAK_EXT=str(args.build_dir.resolve() / "tiebreak"),
               TIEBREAK_WEB_ARTIFACTS=str(args.build_dir.resolve() / "web-artifacts"))
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           str(HERE / "test_web.py"), *pytest_args]
    return subprocess.run(cmd, env=env, cwd=REPO).returncode


if __name__ == "__main__":
    sys.exit(main())
