"""WebKit for Pocket's WebKit suite: Xvfb, the WebKitGTK driver, the page's console, and a Page that
does without Chromium's DevTools (WebKitGTK has none: no CDP, no WebDriver log, no BiDi here)."""

from __future__ import annotations

import os
import re
import select
import shutil
import socket
import subprocess
import time
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from pocket_helpers import SESSION_COOKIE, SESSIONS, VIEWPORTS, Page

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE / "artifacts"

WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER_BIN", "/usr/bin/WebKitWebDriver")
# The browser WebKitWebDriver starts: a bare WebKitGTK window (see its docstring for why not MiniBrowser).
BROWSER = HERE / "pocket_webkit_browser.py"
BROWSER_NAME = "PocketWebKit"  # what the browser tells the driver it is; the session must ask for it
# Line-buffers the stdout of the browser and its web processes (inherited through LD_PRELOAD), so a
# page's console line is in the log as soon as WebKit prints it, not when a 4 KB buffer fills.
STDBUF = Path("/usr/libexec/coreutils/libstdbuf.so")
PHONE = VIEWPORTS["iphone-portrait"][:2]  # 390 × 844


class Xvfb:
    """An X server of the suite's own on a display nobody uses (Xvfb picks it: -displayfd), so
    `python3 -m pytest e2e/webkit` needs no xvfb-run and never draws on someone's screen."""

    def __init__(self, log_path: Path):
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None
        self.display: str | None = None

    def start(self, timeout: float = 15) -> "Xvfb":
        binary = shutil.which("Xvfb")
        if binary is None:
            raise RuntimeError("Xvfb is not installed (apt-get install xvfb)")
        read_end, write_end = os.pipe()
        with open(self.log_path, "wb") as log:
            self.proc = subprocess.Popen([binary, "-displayfd", str(write_end), "-screen", "0", "1280x1024x24",
                                          "-nolisten", "tcp"], pass_fds=(write_end,), stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT)
        os.close(write_end)
        number = b""
        deadline = time.monotonic() + timeout
        try:
            while not number.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([read_end], [], [], left)[0]:
                    raise RuntimeError(f"Xvfb did not report a display within {timeout:.0f}s (log: {self.log_path})")
                chunk = os.read(read_end, 16)
                if not chunk:
                    raise RuntimeError(f"Xvfb exited with {self.proc.wait()} (log: {self.log_path})")
                number += chunk
        finally:
            os.close(read_end)
        self.display = ":" + number.decode().strip()
        return self

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


# "http://host/path:12:5: CONSOLE JS ERROR ReferenceError: …" — WebKit's console line on stdout: where,
# then CONSOLE, the message's source unless it came from the console API, and its level.
_CONSOLE_LINE = re.compile(r"^(?P<where>.*?:\d+:\d+): CONSOLE (?:(?P<source>[A-Z][A-Z-]*) )?"
                           r"(?P<level>LOG|INFO|WARN|WARNING|ERROR|DEBUG) (?P<message>.*)$")


class ConsoleLog:
    """Every console message of every page the browser shows, read as it is written to `path` (the
    driver's and the browser's stdout). Levels are named as Chromium's log names them (ERROR → SEVERE),
    so pocket_helpers.console_problems judges both browsers' messages by the same rule."""

    def __init__(self, path: Path):
        self.path = path
        self._offset = 0

    def read(self) -> list[dict]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self._offset)
                data = f.read()
        except FileNotFoundError:
            return []
        end = data.rfind(b"\n") + 1  # a line still being written is read next time
        self._offset += end
        entries: list[dict] = []
        for line in data[:end].decode("utf-8", errors="replace").splitlines():
            m = _CONSOLE_LINE.match(line)
            if m:
                level = "SEVERE" if m["level"] == "ERROR" else ("WARNING" if m["level"].startswith("WARN") else m["level"])
                entries.append({"level": level, "source": (m["source"] or "console-api").lower(),
                                "message": f"{m['where']} {m['message']}", "timestamp": int(time.time() * 1000)})
            elif entries and line and not line.startswith(("(", "WebKitWebDriver", "[")):
                entries[-1]["message"] += "\n" + line  # a message of several lines
        return entries


def make_webkit_driver(display: str, data_dir: Path, log_path: Path) -> webdriver.WebKitGTK:
    """WebKitGTK through WebKitWebDriver on `display`, its cookies, caches and service workers in
    `data_dir`, its window (the page's viewport: the window has no toolbar) phone-sized."""
    opts = Options()
    opts.binary_location = str(BROWSER)
    opts.add_argument("--automation")
    opts.set_capability("browserName", BROWSER_NAME)
    opts.set_capability("unhandledPromptBehavior", "ignore")
    control = data_dir / "control.sock"
    env = {**os.environ, "DISPLAY": display, "POCKET_WEBKIT_DATA": str(data_dir), "POCKET_WEBKIT_CONTROL": str(control),
           "GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"}
    if STDBUF.exists():
        env.update(LD_PRELOAD=str(STDBUF), _STDBUF_O="L")
    service = Service(executable_path=WEBKIT_DRIVER, log_output=str(log_path), env=env)
    driver = webdriver.WebKitGTK(service=service, options=opts)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(15)
    driver._pocket_console = ConsoleLog(log_path)
    driver._pocket_control = control
    driver.set_window_size(*PHONE)
    return driver


def clear_http_cache(driver: webdriver.WebKitGTK, timeout: float = 15) -> None:
    """Empties the browser's HTTP cache (disk and memory), as Chromium's tests do with DevTools'
    Network.clearBrowserCache: a test that must see what a fresh phone asks of a host (the map's
    tiles) cannot have the answers of an earlier test's page served from it. The service workers and
    their Cache Storage are left alone. The browser shell does it (pocket_webkit_browser.py)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(timeout)
        conn.connect(str(driver._pocket_control))
        conn.sendall(b"clear-http-cache\n")
        reply = b""
        while not reply.endswith(b"\n"):
            chunk = conn.recv(256)
            if not chunk:
                break
            reply += chunk
    if reply.strip() != b"ok":
        raise RuntimeError(f"the WebKit shell did not empty its HTTP cache: {reply.decode(errors='replace').strip()!r}")


class WebKitPage(Page):
    """pocket_helpers.Page on WebKitGTK: what Page does with DevTools is done here with WebDriver
    itself (window size, cookies) or is not offered (emulated media, scripts off)."""

    def reset(self):
        d = self.driver
        try:
            d.switch_to.alert.dismiss()
        except NoAlertPresentException:
            pass
        d.get("about:blank")
        self.set_viewport(*PHONE, reload=False)
        self.scripts = True
        self._signed_in_to = None
        self.sign_in_browser()
        self.pull_console()
        self.console.clear()  # what the previous test and this set-up printed

    def _on_origin(self):
        """WebDriver sets cookies for the page being shown: show a public address of `base_url` first.

        Not a Pocket page: each of those registers the service worker, and the test's own first page
        follows at once. WebKit (2.50) leaves a worker stuck `installing` or `activating` while it
        shows the next page when the page that registered it is left just after the worker's scripts
        were fetched (seen in about 1 in 10 runs of a fresh origin, and every time when the page is
        left right then); it goes on only once that next page is left too. /healthz has no scripts,
        so the first page a test opens registers the worker and stays, as on a phone."""
        if not self.driver.current_url.startswith(self.base_url + "/"):
            self.driver.get(self.url("/healthz"))

    def sign_in_browser(self, cookie: str | None = None):
        """Puts this page's (or the server owner's) session cookie in the browser, as the signed-in
        phone has it; cookies ignore the port, so every test server on 127.0.0.1 shares the one."""
        value = cookie or self.cookie or SESSIONS.get(self.base_url)
        self._on_origin()
        self.driver.delete_cookie(SESSION_COOKIE)
        if value is not None:
            self.driver.add_cookie({"name": SESSION_COOKIE, "value": value, "path": "/", "httpOnly": True,
                                    "sameSite": "Lax", "expiry": int(time.time()) + 3600})
        self._signed_in_to = self.base_url

    def sign_out_browser(self):
        """No session at all: a phone that has never signed in."""
        self._on_origin()
        self.driver.delete_all_cookies()
        self._signed_in_to = self.base_url

    def set_viewport(self, width, height, mobile=True, reload=True):
        self.viewport = (width, height)
        self.driver.set_window_size(width, height)
        self.wait(f"window.innerWidth === {width} && window.innerHeight === {height}", 5,
                  f"the window did not become {width}×{height}")
        if reload and self.driver.current_url.startswith("http"):
            self.driver.refresh()

    def _unsupported(self, *_args, **_kwargs):
        raise NotImplementedError("WebKitGTK's WebDriver cannot emulate media features or turn scripts off")

    set_scheme = emulate_media = disable_scripts = _unsupported

    def pull_console(self) -> list[dict]:
        entries = self.driver._pocket_console.read()
        self.console.extend(entries)
        return entries


def server_env(plate_images, sci_manifest=None, murals_service=None, talk_texts=None) -> dict[str, str]:
    """Where a test server finds the outside hosts: the fixture hosts, never the internet."""
    env = {"POCKET_PLATES_IMAGE_BASE": plate_images.base_url}
    if sci_manifest:
        env["POCKET_SCI_MANIFEST_URL"] = sci_manifest.manifest_url
    if talk_texts:
        env["POCKET_SCI_TALKS_URL"] = talk_texts.base_url
    if murals_service:
        env.update(murals_service.env())
    return env
