"""A minimal W3C WebDriver client (chromedriver) and a loopback static server,
for test_web.py: the standard library only."""
import base64
import functools
import http.server
import json
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

# Headless, and nothing that reaches the network or outlives the test.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--window-size=1440,1000",
                  "--force-device-scale-factor=1"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StaticServer:
    """The files of a directory over HTTP on 127.0.0.1 (a thread of this process)."""

    def __init__(self, root):
        handler = functools.partial(_QuietHandler, directory=str(root))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript"}

    def log_message(self, *args):
        pass


class WebDriverError(RuntimeError):
    pass


class Browser:
    """chromedriver on a free loopback port, one Chromium session."""

    def __init__(self, chromium, chromedriver):
        self.port = free_port()
        self.profile = tempfile.TemporaryDirectory(prefix="tiebreak-chromium-")
        self.driver = subprocess.Popen([chromedriver, f"--port={self.port}",
                                        "--allowed-ips=127.0.0.1"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        for _ in range(100):
            try:
                self._call("GET", "/status")
                break
            except (OSError, WebDriverError):
                time.sleep(0.1)
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium,
                "args": CHROMIUM_FLAGS + [f"--user-data-dir={self.profile.name}"]}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read())["value"]
        except urllib.error.HTTPError as e:
            raise WebDriverError(e.read().decode(errors="replace")[:2000]) from None

    def cmd(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def get(self, url):
        self.cmd("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        found = self.cmd("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(found.values()))

    def send_file(self, css, path):
        self.cmd("POST", f"/element/{self.find(css)}/value", {"text": str(path)})

    def click(self, css):
        self.cmd("POST", f"/element/{self.find(css)}/click", {})

    def wait_for(self, script, timeout=60):
        """Poll a JS expression until it is truthy; return its value."""
        end = time.monotonic() + timeout
        while True:
            value = self.js("return " + script)
            if value:
                return value
            if time.monotonic() > end:
                raise TimeoutError(f"waited {timeout} s for: {script}")
            time.sleep(0.1)

    def cdp(self, command, params=None):
        """A Chrome DevTools Protocol command through chromedriver."""
        return self.cmd("POST", "/goog/cdp/execute", {"cmd": command, "params": params or {}})

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.cmd("GET", "/screenshot")))

    def close(self):
        try:
            self.cmd("DELETE", "")
        finally:
            self.driver.terminate()
            self.driver.wait(timeout=30)
            self.profile.cleanup()
