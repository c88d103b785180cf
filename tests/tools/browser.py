#!/usr/bin/env python3
"""browser.py: open pages in one headless Chromium, driven over the
DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ended
by a NUL byte, on file descriptors 3 and 4 of the browser), so that a test
of many pages starts the browser once instead of once a page.

    python3 browser.py JOBS BROWSER_LOG

JOBS holds one page a line, fields split by tabs:

    OUT  URL  [dark]  [until:EXPR]

Each page gets a tab of its own, laid out at 800x600 (device scale 1),
with the light colour scheme unless 'dark' is given. After its load
event the page runs until the JavaScript expression EXPR is true (by
default until <body> has data-drawn, which the viewer sets once its
picture settles) and half a second more. Then it writes:

    OUT.dom  the document (document.documentElement.outerHTML)
    OUT.png  a screenshot of the 800x600 page
    OUT.log  what the page logged, one message a line:
             "CONSOLE LEVEL: TEXT (URL:LINE)"
    OUT.ms   milliseconds from the navigation to EXPR being true

A page that does not load or get ready within 30 s gets only OUT.log
(the caller's checks then fail), and the next page is tried. The
browser's own output goes to BROWSER_LOG. Exit status 0 when the browser
ran every job, 1 when it could not be started, stopped answering, or a
file could not be read or written.
"""
import base64
import json
import os
import select
import signal
import subprocess
import sys
import time

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
PAGE_TIMEOUT = 30.0
WIDTH, HEIGHT = 800, 600
SETTLE = 0.5  # seconds a page runs on after it is ready
# what a page of the viewer sets once its picture settles
DRAWN = "document.body && document.body.hasAttribute('data-drawn')"


class Browser:
    def __init__(self, log):
        to_browser = os.pipe()
        from_browser = os.pipe()

        def child_fds():
            a, b = os.dup(to_browser[0]), os.dup(from_browser[1])
            os.dup2(a, 3)
            os.dup2(b, 4)

        logf = open(log, "w")
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--use-angle=swiftshader",
             "--enable-unsafe-swiftshader", "--disable-gpu-sandbox",
             "--window-size=%d,%d" % (WIDTH, HEIGHT),
             "--force-device-scale-factor=1", "--hide-scrollbars",
             "--no-first-run", "--user-data-dir=" + log + ".profile",
             "--remote-debugging-pipe", "about:blank"],
            preexec_fn=child_fds, close_fds=False, stdin=subprocess.DEVNULL,
            stdout=logf, stderr=subprocess.STDOUT)
        logf.close()  # the browser has its own copy
        os.close(to_browser[0])
        os.close(from_browser[1])
        self.w, self.r = to_browser[1], from_browser[0]
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.r], [], [], left)[0]:
                raise TimeoutError("no answer from the browser")
            data = os.read(self.r, 1 << 16)
            if not data:
                raise EOFError("the browser closed its pipe")
            self.buf += data
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None, timeout=PAGE_TIMEOUT):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, session, deadline):
        while True:
            for i, e in enumerate(self.events):
                if e.get("method") == method and e.get("sessionId") == session:
                    return self.events.pop(i)
            self.events.append(self._read(deadline))

    def close(self):
        try:
            self.call("Browser.close", timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def console_lines(events):
    out = []
    for e in events:
        p = e.get("params", {})
        if e.get("method") == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", "")))
                            for a in p.get("args", []))
            frames = p.get("stackTrace", {}).get("callFrames", [])
            where = "%s:%d" % (frames[0]["url"], frames[0]["lineNumber"] + 1) if frames else ""
            out.append("CONSOLE %s: %s (%s)" % (p.get("type", "log"), text, where))
        elif e.get("method") == "Runtime.exceptionThrown":
            d = p.get("exceptionDetails", {})
            text = d.get("exception", {}).get("description") or d.get("text", "")
            text = " ".join(text.split())
            out.append("CONSOLE exception: %s (%s:%d)" % (text, d.get("url", ""),
                                                       d.get("lineNumber", 0) + 1))
        elif e.get("method") == "Log.entryAdded":
            en = p.get("entry", {})
            out.append("CONSOLE %s: %s (%s:%d)" % (en.get("level", ""), en.get("text", ""),
                                                 en.get("url", ""), en.get("lineNumber", 0) + 1))
    return out


class PageFailed(Exception):
    """The page did not load or get ready in time: the next page may."""


def run_page(b, out, url, dark, until):
    target = None
    session = None
    try:
        target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = b.call("Target.attachToTarget",
                         {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            b.call(domain + ".enable", session=session)
        b.call("Emulation.setDeviceMetricsOverride",
               {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
               session=session)
        b.call("Emulation.setEmulatedMedia",
               {"features": [{"name": "prefers-color-scheme",
                              "value": "dark" if dark else "light"}]}, session=session)
        t0 = time.monotonic()
        deadline = t0 + PAGE_TIMEOUT
        nav = b.call("Page.navigate", {"url": url}, session=session)
        if nav.get("errorText"):
            raise PageFailed("not loaded: " + nav["errorText"])
        # the load, then until the page says it is ready (polled in it)
        poll = ("new Promise(function (done) { (function poll() {"
                " if (%s) done(true); else setTimeout(poll, 20); })(); })" % until)
        try:
            b.wait_event("Page.loadEventFired", session, deadline)
            ready = b.call("Runtime.evaluate", {"expression": poll, "awaitPromise": True},
                           session=session, timeout=max(deadline - time.monotonic(), 0.1))
        except TimeoutError:
            raise PageFailed("not ready within %d s" % PAGE_TIMEOUT)
        if "exceptionDetails" in ready:
            raise PageFailed("the test for ready threw: %s" % ready["exceptionDetails"].get("text"))
        ms = (time.monotonic() - t0) * 1000
        time.sleep(SETTLE)  # for anything the page does next (it logs nothing)
        dom = b.call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML",
                                          "returnByValue": True}, session=session)
        shot = b.call("Page.captureScreenshot", {"format": "png"}, session=session)
        with open(out + ".dom", "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html>\n" + dom["result"].get("value", ""))
        with open(out + ".png", "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        with open(out + ".ms", "w") as f:
            f.write("%d\n" % round(ms))
    finally:
        if target is not None:
            b.call("Target.closeTarget", {"targetId": target}, timeout=10)
        # what the page logged, up to its tab's closing (the browser
        # answers in order: every message of the page came first)
        mine = [e for e in b.events if session and e.get("sessionId") == session]
        b.events = [e for e in b.events if not (session and e.get("sessionId") == session)]
        with open(out + ".log", "w", encoding="utf-8") as f:
            f.writelines(line + "\n" for line in console_lines(mine))


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: browser.py JOBS BROWSER_LOG\n")
        return 2
    jobs = []
    try:
        with open(sys.argv[1], encoding="utf-8") as f:
            for line in f:
                fields = line.rstrip("\n").split("\t")
                if len(fields) >= 2:
                    until = [f[6:] for f in fields[2:] if f.startswith("until:")]
                    jobs.append((fields[0], fields[1], "dark" in fields[2:],
                                 until[0] if until else DRAWN))
    except OSError as e:
        sys.stderr.write("browser.py: %s\n" % e)
        return 1
    try:
        b = Browser(sys.argv[2])
    except OSError as e:
        sys.stderr.write("browser.py: cannot start %s: %s\n" % (CHROMIUM, e))
        return 1
    # killed (a test's timeout): close the browser all the same
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(1))
    status = 0
    try:
        b.call("Target.setDiscoverTargets", {"discover": False}, timeout=60)
        for out, url, dark, until in jobs:
            try:
                run_page(b, out, url, dark, until)
            except (PageFailed, RuntimeError) as e:
                # this page: the browser still answers
                sys.stderr.write("browser.py: %s: %s\n" % (url, e))
    except (EOFError, TimeoutError, OSError) as e:
        # the browser stopped answering: no page after this one
        sys.stderr.write("browser.py: %s\n" % e)
        status = 1
    finally:
        b.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
