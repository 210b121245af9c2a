"""The metadata the Python wheel and the npm package carry, as tools/dist.py
writes it: what a package index shows (name, version, summary, license,
keywords, classifiers, Python and Node versions, the README as the long
description), and no home page or repository URL, which the project does not
have.  Built in memory or in a temporary folder: no wheel, no npm.

Run with Debian's interpreter:  /usr/bin/python3 -m pytest test/test_package_metadata.py -q
"""
import email.parser
import json
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
import dist  # noqa: E402

URL_FIELDS = {"home-page", "project-url", "download-url"}


@pytest.mark.parametrize("target", sorted(dist.TARGETS))
def test_wheel_metadata(target):
    text = dist._metadata(dist.version(), target)
    msg = email.parser.Parser().parsestr(text)
    assert msg["Metadata-Version"] == "2.1"
    assert msg["Name"] == "sqlite-tiebreak"
    assert msg["Version"] == dist.version()
    assert msg["License"] == "MIT" and msg["License-File"] == "LICENSE"
    assert msg["Requires-Python"] == ">=3.6"
    assert msg["Description-Content-Type"].startswith("text/markdown")
    for word in ("Magic", "Pokemon", "chess", "Yu-Gi-Oh!", "Battlefy"):
        assert word in msg["Summary"]
    keywords = msg["Keywords"].split(",")
    assert {"sqlite", "mtg", "pokemon", "chess", "yugioh", "pairings"} <= set(keywords)
    classifiers = msg.get_all("Classifier")
    assert "License :: OSI Approved :: MIT License" in classifiers
    assert ("Operating System :: Microsoft :: Windows" if target.startswith("windows")
            else "Operating System :: POSIX :: Linux") in classifiers
    assert len([c for c in classifiers if c.startswith("Operating System")]) == 1
    assert not URL_FIELDS & {k.lower() for k in msg.keys()}
    # the long description is the package's README, whole
    readme = (REPO / "packages" / "python" / "README.md").read_text(encoding="utf-8")
    assert msg.get_payload() == readme
    assert "sqlite_tiebreak.load(conn)" in readme


def test_npm_package_json(tmp_path):
    modules = {}
    for platform in ("linux-x64", "win32-x64", "linux-arm64"):
        module = tmp_path / platform / ("tiebreak.dll" if platform.startswith("win") else
                                        "tiebreak.so")
        module.parent.mkdir()
        module.write_bytes(b"\0")
        modules[platform] = module
    stage = tmp_path / "stage"
    dist.stage_npm(modules, stage)
    meta = json.loads((stage / "package.json").read_text())
    assert meta["name"] == "sqlite-tiebreak" and meta["version"] == dist.version()
    assert meta["license"] == "MIT" and (stage / "LICENSE").is_file()
    assert meta["engines"] == {"node": ">=18"}
    assert meta["os"] == ["linux", "win32"] and meta["cpu"] == ["arm64", "x64"]
    for word in ("Magic", "Pokemon", "chess", "Yu-Gi-Oh!", "Battlefy"):
        assert word in meta["description"]
    assert {"sqlite", "mtg", "pokemon", "chess", "yugioh", "pairings"} <= set(meta["keywords"])
    assert not {"homepage", "repository", "bugs"} & set(meta)
    assert set(meta["files"]) >= {"README.md", "LICENSE", "lib/"}
    assert (stage / "README.md").read_text(encoding="utf-8").startswith("# sqlite-tiebreak")
    # a package of one platform claims that one only
    one = tmp_path / "one"
    dist.stage_npm({"linux-x64": modules["linux-x64"]}, one)
    meta = json.loads((one / "package.json").read_text())
    assert meta["os"] == ["linux"] and meta["cpu"] == ["x64"]
