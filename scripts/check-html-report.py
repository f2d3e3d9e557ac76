#!/usr/bin/env python3
"""Opens an HTML report in headless Chromium (Debian's `chromium`) through the DevTools
protocol and prints, as JSON, what a test asserts about it:

- console_errors: console.error/assert calls, uncaught exceptions and browser log entries of
  level "error" (a blocked load, a Content-Security-Policy violation, a script error);
- requests: every URL the page requested other than the page itself, and failed loads;
- tables: for each `--click HEADER` of table `--table ID`, the table's body rows (cell texts)
  before the first click and after each real mouse click on the header (Input.dispatchMouseEvent);
- screenshot: the PNG written to `--screenshot` (the top of the page, 1280 CSS pixels wide) and its size.

    .venv/bin/python scripts/check-html-report.py reports/examples/basicmotions-sweep/report.html \
        --table leaderboard --click "test accuracy" --click "test accuracy" --screenshot shot.png

Needs `chromium` (Debian package, or $CHROMIUM) and the `websockets` package. Runs with
--no-sandbox (tests run as root in CI) and a throw-away profile; nothing leaves the machine.
"""
import argparse
import base64
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

from websockets.sync.client import connect

TIMEOUT = 30.0


class Session:
    """One page target over the browser's DevTools websocket (flattened sessions)."""

    def __init__(self, socket):
        self.socket = socket
        self.next_id = 0
        self.session = None
        self.events = []

    def call(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        self.socket.send(json.dumps(message))
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = json.loads(self.socket.recv(timeout=max(0.1, deadline - time.monotonic())))
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method):
        deadline = time.monotonic() + TIMEOUT
        while True:
            for event in self.events:
                if event.get("method") == method:
                    return event
            self.events.append(json.loads(self.socket.recv(timeout=max(0.1, deadline - time.monotonic()))))

    def drain(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.events.append(json.loads(self.socket.recv(timeout=max(0.01, deadline - time.monotonic()))))
            except TimeoutError:
                break

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"evaluating {expression!r}: {result['exceptionDetails']}")
        return result["result"].get("value")


def rows_script(table):
    return ("Array.from(document.querySelectorAll(%s)).map(r => Array.from(r.cells).map(c => c.textContent.trim()))"
            % json.dumps(f"table#{table} tbody tr"))


def header_center(session, table, title):
    return session.evaluate(
        "(() => { const h = Array.from(document.querySelectorAll(%s)).find(h => h.textContent.trim() === %s);"
        " if (!h) return null; h.scrollIntoView({block: 'center'}); const r = h.getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
        % (json.dumps(f"table#{table} thead th"), json.dumps(title)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("page")
    parser.add_argument("--table", default="leaderboard")
    parser.add_argument("--click", action="append", default=[], help="a header's text; repeat to click again")
    parser.add_argument("--screenshot")
    arguments = parser.parse_args()
    page = pathlib.Path(arguments.page).resolve()
    url = page.as_uri()
    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("check-html-report: no chromium on PATH (apt-get install chromium, or set CHROMIUM)")
    profile = tempfile.mkdtemp(prefix="actionlab-chromium-")
    browser = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0", f"--user-data-dir={profile}",
         "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--window-size=1280,1000", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = pathlib.Path(profile, "DevToolsActivePort")
        deadline = time.monotonic() + TIMEOUT
        while not (port_file.exists() and len(port_file.read_text().split("\n")) >= 2):
            if browser.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"check-html-report: {chromium} did not open its DevTools port (exit status {browser.poll()})")
            time.sleep(0.05)
        port, path = port_file.read_text().split("\n")[:2]
        with connect(f"ws://127.0.0.1:{port}{path}", max_size=None) as socket:
            session = Session(socket)
            target = session.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
            session.session = session.call("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
            for domain in ("Page", "Runtime", "Log", "Network"):
                session.call(f"{domain}.enable")
            session.call("Emulation.setDeviceMetricsOverride", {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
            session.call("Page.navigate", {"url": url})
            session.wait_for("Page.loadEventFired")
            session.drain(0.3)
            tables = [session.evaluate(rows_script(arguments.table))]
            clicks = []
            for title in arguments.click:
                center = header_center(session, arguments.table, title)
                if center is None:
                    sys.exit(f"check-html-report: table #{arguments.table} has no header {title!r}")
                for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
                    session.call("Input.dispatchMouseEvent",
                                 {"type": kind, "x": center[0], "y": center[1], "button": "left", "clickCount": 1})
                tables.append(session.evaluate(rows_script(arguments.table)))
                clicks.append(session.evaluate(
                    "Array.from(document.querySelectorAll(%s)).map(h => h.getAttribute('aria-sort'))"
                    % json.dumps(f"table#{arguments.table} thead th")))
            headers = session.evaluate(
                "Array.from(document.querySelectorAll(%s)).map(h => h.textContent.trim())" % json.dumps(f"table#{arguments.table} thead th"))
            shot = None
            if arguments.screenshot:
                session.evaluate("window.scrollTo(0, 0)")
                data = session.call("Page.captureScreenshot", {"format": "png"})["data"]
                png = base64.b64decode(data)
                temporary = arguments.screenshot + ".tmp"
                pathlib.Path(temporary).write_bytes(png)
                os.replace(temporary, arguments.screenshot)
                shot = {"path": arguments.screenshot, "bytes": len(png)}
            session.drain(0.2)
            errors, requests = [], []
            for event in session.events:
                method, params = event.get("method"), event.get("params", {})
                if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                    errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
                elif method == "Runtime.exceptionThrown":
                    errors.append(params.get("exceptionDetails", {}).get("text", "exception"))
                elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                    errors.append(params["entry"].get("text", ""))
                elif method == "Network.requestWillBeSent" and params.get("request", {}).get("url") != url:
                    requests.append(params["request"]["url"])
                elif method == "Network.loadingFailed":
                    requests.append(f"failed: {params.get('errorText')} {params.get('blockedReason', '')}".strip())
            json.dump({"url": url, "console_errors": errors, "requests": requests, "headers": headers, "tables": tables,
                       "aria_sort": clicks, "screenshot": shot}, sys.stdout)
            print()
    finally:
        browser.terminate()
        try:
            browser.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main()
