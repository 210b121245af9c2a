"""standings() served by sqld (libSQL server) over its HTTP API (Hrana v2):
a primary, a replica that follows it, and the trusted.lst check.

Run by run.py, which sets SQLD (the binary), TIEBREAK_EXT and SQLD_WORK.
Servers listen on 127.0.0.1 only, are stopped at the end of the module (and
killed if they do not stop), and shut themselves down after 60 s without
requests should this process die first.
"""
import hashlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import conftest  # noqa: E402

REPO = Path(__file__).resolve().parent.parent.parent
SQLD = os.environ.get("SQLD")
EXT = os.environ.get("TIEBREAK_EXT", "")
WORK = Path(os.environ.get("SQLD_WORK", "/tmp")) / f"run-{os.getpid()}"
START_TIMEOUT = 30
QUERY = ("SELECT rank, player, match_points, round(omwp, 6), round(gwp, 6), "
         "round(ogwp, 6), decided_by FROM standings(?, 'mtg')")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def extension_dir(name, trusted=True):
    """A directory for sqld -e: the module and trusted.lst, the sha256 and
    file name of each library sqld may load."""
    d = WORK / name
    d.mkdir(parents=True)
    lib = Path(EXT + ".so")
    shutil.copy(lib, d / lib.name)
    digest = hashlib.sha256(lib.read_bytes()).hexdigest() if trusted else "0" * 64
    (d / "trusted.lst").write_text(f"{digest}  {lib.name}\n")
    return d


class Server:
    def __init__(self, name, ext_dir, *extra):
        self.port = free_port()
        self.log = WORK / f"{name}.log"
        self.proc = subprocess.Popen(
            [SQLD, "--no-welcome", "--db-path", str(WORK / f"{name}.sqld"),
             "--extensions-path", str(ext_dir),
             "--http-listen-addr", f"127.0.0.1:{self.port}",
             "--idle-shutdown-timeout-s", "60", "--initial-idle-shutdown-timeout-s", "60",
             *extra],
            stdout=self.log.open("w"), stderr=subprocess.STDOUT, start_new_session=True)

    def wait_ready(self):
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"sqld exited ({self.proc.returncode}):\n{self.output()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"sqld not ready after {START_TIMEOUT} s:\n{self.output()}")

    def pipeline(self, *requests):
        """POST /v2/pipeline; the results of the requests, in order."""
        body = json.dumps({"requests": [*requests, {"type": "close"}]}).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/v2/pipeline", body,
                                     {"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as resp:
            return json.load(resp)["results"][:-1]

    def query(self, sql, *args):
        (res,) = self.pipeline({"type": "execute", "stmt": {"sql": sql,
                                                            "args": [encode(a) for a in args]}})
        if res["type"] != "ok":
            raise RuntimeError(res["error"]["message"])
        return [tuple(decode(v) for v in row) for row in res["response"]["result"]["rows"]]

    def output(self):
        return self.log.read_text(errors="replace")[-3000:]

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)


def encode(v):
    if v is None:
        return {"type": "null"}
    if isinstance(v, int):
        return {"type": "integer", "value": str(v)}
    if isinstance(v, float):
        return {"type": "float", "value": v}
    return {"type": "text", "value": str(v)}


def decode(v):
    return {"null": lambda: None, "integer": lambda: int(v["value"]),
            "float": lambda: float(v["value"]), "text": lambda: v["value"]}[v["type"]]()


@pytest.fixture(scope="module")
def servers():
    if not SQLD or not EXT:
        pytest.fail("run through test/sqld/run.py (SQLD, TIEBREAK_EXT unset)", pytrace=False)
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    started = []
    try:
        grpc = free_port()
        primary = Server("primary", extension_dir("ext-primary"),
                         "--grpc-listen-addr", f"127.0.0.1:{grpc}")
        started.append(primary)
        primary.wait_ready()
        replica = Server("replica", extension_dir("ext-replica"),
                         "--primary-grpc-url", f"http://127.0.0.1:{grpc}")
        started.append(replica)
        replica.wait_ready()
        yield primary, replica
    finally:
        for s in started:
            s.stop()
    shutil.rmtree(WORK, ignore_errors=True)


@pytest.fixture(scope="module")
def expected():
    """The standings computed in-process, to compare the server's with."""
    conn = conftest.open_connection()
    for f in ("schema.sql", "example.sql"):
        conn.executescript((REPO / "sql" / f).read_text())
    rows = conn.execute(QUERY, (1,)).fetchall()
    conn.close()
    return rows


@pytest.fixture(scope="module")
def loaded(servers):
    primary, _ = servers
    results = primary.pipeline(
        *({"type": "sequence", "sql": (REPO / "sql" / f).read_text()}
          for f in ("schema.sql", "example.sql")))
    assert all(r["type"] == "ok" for r in results), results
    return servers


def test_every_connection_has_the_extension(servers):
    for server in servers:
        ((version, libsql),) = server.query("SELECT tiebreak_version(), sqlite_version()")
        assert version and libsql


def test_standings_over_http(loaded, expected):
    primary, _ = loaded
    assert primary.query(QUERY, 1) == expected
    assert len(expected) == 24


def test_replica_serves_the_same_standings(loaded, expected):
    _, replica = loaded
    deadline = time.monotonic() + 20
    while True:
        try:
            got = replica.query(QUERY, 1)
        except RuntimeError:  # the tables have not reached it yet
            got = None
        if got == expected or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert got == expected


def test_how_clients_send_event_ids(loaded, expected):
    """JSON clients send numbers as floats and form fields as text: a float
    1.0 is the event 1; the text '1' finds the INTEGER id 1 (no event has the
    text id '1'), as the query that casts it does."""
    primary, _ = loaded
    assert primary.query(QUERY, 1.0) == expected
    assert primary.query(QUERY, "1") == expected
    cast = QUERY.replace("standings(?", "standings(CAST(? AS INTEGER)")
    assert cast != QUERY and primary.query(cast, "1") == expected


def test_errors_reach_the_client(loaded):
    primary, _ = loaded
    with pytest.raises(RuntimeError, match=r"standings\(\): unknown policy 'nope'"):
        primary.query("SELECT * FROM standings(1, 'nope')")


def test_library_not_in_trusted_list_is_refused():
    WORK.mkdir(parents=True, exist_ok=True)
    server = Server("untrusted", extension_dir("ext-untrusted", trusted=False))
    try:
        server.proc.wait(START_TIMEOUT)
    except subprocess.TimeoutExpired:
        pass
    finally:
        server.stop()
    assert server.proc.returncode != 0
    assert "sha256 differs for tiebreak.so" in server.output()
