"""A phone reaching Pocket's own HTTPS (issue #24), in Chromium: the trust page on plain HTTP says
what to do while the browser does not trust Pocket; once its CA (fetched from that page) is in the
browser's NSS database, the QR code's link goes from the trust page to pairing on HTTPS by itself,
the service worker registers at https://NAME:PORT/, pages come over HTTP/2, and a spot made offline is applied once when
the server is back. The name resolves to 127.0.0.1 through Chromium's --host-resolver-rules, so all
traffic stays on loopback."""
from __future__ import annotations

import os
import re
import signal
import ssl
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from https_helpers import NAME, RESOLVE_NAME, trust_authority
from pocket_helpers import (ARTIFACTS, OWNER_NAME, OWNER_PASSWORD, Page, SW_READY_JS, free_port, make_driver, pocket_binary,
                            wait_for_binary)

WAIT_S = 20


class OwnHTTPSServer:
    """`pocket serve --https --name pocket.test` on free loopback ports, its owner added first
    (unless `owner=False`: then the server prints its one-time setup link)."""

    def __init__(self, data: Path, env: dict[str, str], owner: bool = True):
        self.data, self.env = data, env
        self.port, self.http_port = free_port(), free_port()
        self.log_path = ARTIFACTS / "server-trust.log"
        self.proc = None
        binary = wait_for_binary(pocket_binary())
        if owner:
            subprocess.run([str(binary), "users", "add", OWNER_NAME, "--owner", "--data-dir", str(data)],
                           input=OWNER_PASSWORD + "\n", text=True, capture_output=True, check=True, timeout=60)

    def start(self) -> "OwnHTTPSServer":
        binary = wait_for_binary(pocket_binary())
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        seen = len(self.log()) if self.log_path.exists() else 0
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--https", "--name", NAME, "--host", "127.0.0.1", "--port", str(self.port),
             "--http-port", str(self.http_port), "--data-dir", str(self.data)],
            stdout=open(self.log_path, "ab"), stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env={**os.environ, **self.env})
        deadline = time.monotonic() + 30
        while "SHA-256" not in self.log()[seen:]:
            assert self.proc.poll() is None, self.log()
            assert time.monotonic() < deadline, f"pocket serve did not start\n{self.log()}"
            time.sleep(0.1)
        return self

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(15)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    @property
    def https(self) -> str:
        return f"https://{NAME}:{self.port}"

    @property
    def trust_page(self) -> str:
        return f"http://{NAME}:{self.http_port}/trust"

    def fingerprint(self) -> str:
        return re.search(r"SHA-256 ((?:[0-9A-F]{2}:){31}[0-9A-F]{2})", self.log()).group(1)

    def spotted(self, cookie: str) -> set[str]:
        """The states the server's game has spotted, read over HTTPS from the server itself."""
        context = ssl.create_default_context(cafile=str(self.data / "tls" / "ca.pem"))
        req = urllib.request.Request(f"https://127.0.0.1:{self.port}/plates", headers={"Cookie": f"pocket_session={cookie}"})
        with urllib.request.build_opener(urllib.request.ProxyHandler({}), urllib.request.HTTPSHandler(context=context)).open(req, timeout=10) as res:
            html = res.read().decode()
        return set(re.findall(r'<li class="cell cell--bg-green cell--spotted[^"]*" id="state-[A-Z]{2}" data-state="([A-Z]{2})"', html))


@pytest.fixture(scope="module")
def own_https(tmp_path_factory, plate_images):
    srv = OwnHTTPSServer(tmp_path_factory.mktemp("trust-data"), {"POCKET_PLATES_IMAGE_BASE": plate_images.base_url,
                                                                 "POCKET_SCI_MANIFEST_URL": "http://127.0.0.1:9/sci-core.json",
                                                                 "POCKET_SCI_TALKS_URL": "http://127.0.0.1:9"}).start()
    yield srv
    if srv.proc.poll() is None:
        assert srv.stop() == 0


def phone(home: Path):
    """A Chromium whose NSS database lives in `home` and which finds pocket.test at 127.0.0.1."""
    return make_driver(extra_args=(RESOLVE_NAME,), env={"HOME": str(home)})


def trust_status(driver) -> str:
    return driver.execute_script("return document.getElementById('trust-status')?.textContent ?? ''")


def wait(driver, script: str, what: str, timeout: float = WAIT_S):
    deadline = time.monotonic() + timeout
    while not driver.execute_script("return !!(" + script + ")"):
        assert time.monotonic() < deadline, f"{what} (at {driver.current_url})"
        time.sleep(0.1)


def test_untrusted_the_trust_page_still_loads_and_says_what_to_do(own_https, tmp_path):
    driver = phone(tmp_path)
    try:
        driver.get(own_https.trust_page)
        wait(driver, "document.documentElement.dataset.trusted === 'false'", "the page did not find out the browser does not trust Pocket")
        assert "does not trust Pocket yet" in trust_status(driver)
        assert driver.current_url.startswith(f"http://{NAME}:{own_https.http_port}/trust")
        # A computer: its steps open, with the PEM download; the fingerprint is the one the server printed.
        assert driver.execute_script("return document.getElementById('trust-other').open") is True
        assert driver.execute_script("return document.getElementById('trust-download-other').getAttribute('href')") == "/trust/Pocket-CA.pem"
        assert driver.find_element("id", "trust-fingerprint").text == own_https.fingerprint()
        assert driver.get_cookies() == [], "plain HTTP set a cookie"
    finally:
        driver.quit()


def trust_in(own_https, tmp_path):
    """Puts Pocket's CA (fetched from the trust page) in a throw-away NSS database under `tmp_path`:
    what "trust it once" does on a phone."""
    pem = tmp_path / "Pocket-CA.pem"
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
            f"http://127.0.0.1:{own_https.http_port}/trust/Pocket-CA.pem", timeout=10) as res:
        assert res.headers["Content-Type"] == "application/x-pem-file"
        pem.write_bytes(res.read())
    trust_authority(tmp_path, pem)


def trusting_phone(own_https, tmp_path):
    """A Chromium that trusts Pocket's CA, signed in as the owner by following a pairing QR code's
    link from the trust page to HTTPS."""
    trust_in(own_https, tmp_path)
    paired = subprocess.run([str(pocket_binary()), "pair", OWNER_NAME, "--https", "--name", NAME, "--port", str(own_https.port),
                             "--http-port", str(own_https.http_port), "--data-dir", str(own_https.data)],
                            capture_output=True, text=True, timeout=60)
    assert paired.returncode == 0, paired.stderr
    link = re.search(rf"(http://{re.escape(NAME)}:{own_https.http_port}/trust#/join/[A-Za-z0-9_-]{{43}})", paired.stdout).group(1)

    driver = phone(tmp_path)
    try:
        # The QR code's link: the trust page sees the browser trusts Pocket and carries on to HTTPS.
        driver.get(link)
        wait(driver, "location.protocol === 'https:' && !!document.querySelector('#join-button')", "the trust page did not continue to pairing")
        assert driver.current_url.startswith(f"{own_https.https}/join/")
        # Over Pocket's own HTTPS the browser speaks HTTP/2 (ALPN), one connection for the whole page. Asked
        # of this first page, which came from the network (later ones the service worker may answer).
        assert driver.execute_script("return performance.getEntriesByType('navigation')[0].nextHopProtocol") == "h2"
        assert "Continue as owner" in driver.find_element("id", "join-button").text
        driver.find_element("id", "join-button").click()
        wait(driver, "location.pathname === '/welcome' && !!document.querySelector('#welcome-open')", "pairing did not sign the phone in")
    except BaseException:
        driver.quit()
        raise
    return driver


def test_the_owners_one_time_setup_on_a_phone_ends_with_the_home_screen_guidance(tmp_path, plate_images):
    """The owner's phone, like a paired one, is shown how to put Pocket on its Home Screen."""
    srv = OwnHTTPSServer(tmp_path / "setup-data", {"POCKET_PLATES_IMAGE_BASE": plate_images.base_url,
                                                   "POCKET_SCI_MANIFEST_URL": "http://127.0.0.1:9/sci-core.json",
                                                   "POCKET_SCI_TALKS_URL": "http://127.0.0.1:9"}, owner=False).start()
    driver = None
    try:
        links = re.findall(rf"http://{re.escape(NAME)}:{srv.http_port}/trust#/setup/[A-Za-z0-9_-]{{43}}", srv.log())
        assert links, srv.log()
        trust_in(srv, tmp_path)
        driver = phone(tmp_path)
        driver.get(links[-1])
        wait(driver, "location.protocol === 'https:' && !!document.querySelector('#setup-form')", "the trust page did not continue to setup")
        driver.find_element("id", "setup-name").send_keys(OWNER_NAME)
        driver.find_element("id", "setup-password").send_keys(OWNER_PASSWORD)
        driver.find_element("id", "setup-confirm").send_keys(OWNER_PASSWORD)
        driver.find_element("id", "setup-button").click()
        wait(driver, "location.pathname === '/welcome' && !!document.querySelector('#welcome-open')", "setup did not end on the welcome page")
        assert driver.find_element("id", "welcome-steps").text.strip(), "no Home Screen steps"
        assert f"signed in as {OWNER_NAME}".lower() in driver.find_element("id", "welcome-h").text.lower()
    finally:
        if driver:
            driver.quit()
        assert srv.stop() == 0


def test_a_trusting_phone_follows_the_qr_link_to_pairing_on_https_and_its_offline_spot_is_applied_once(own_https, tmp_path):
    driver = trusting_phone(own_https, tmp_path)
    try:
        # A later QR code (the trust page again, after HTTPS was visited) still opens and carries on.
        driver.get(own_https.trust_page + "#/settings")
        wait(driver, f"location.href === {own_https.https + '/settings'!r} && !!document.querySelector('#settings-devices')",
             "the trust page did not carry on to HTTPS for a phone that had visited it before")

        page = Page(driver, own_https.https)
        page._signed_in_to = page.base_url  # signed in by pairing, not by a test cookie
        reg = page.js_async(SW_READY_JS)
        assert reg.get("scope") == own_https.https + "/", reg
        page.open("/")
        assert page.js("return !!navigator.serviceWorker.controller"), "the service worker does not control the page"
        page.open("/plates")
        page.wait("!!document.querySelector('li[data-state]')", WAIT_S, "no plates list")
        cookie = next(c["value"] for c in driver.get_cookies() if c["name"] == "pocket_session")
        assert own_https.spotted(cookie) == set()

        assert own_https.stop() == 0
        page.open("/plates")  # the saved copy
        page.js("arguments[0].scrollIntoView({block: 'center'})", page.find("#state-AL form button"))
        page.find("#state-AL form button").click()
        page.wait("document.querySelector('#state-AL').classList.contains('cell--spotted')", WAIT_S, "AL did not turn green at once")

        own_https.start()
        page.js("window.dispatchEvent(new Event('online'))")
        page.wait("!document.querySelector('#pocket-offline')", 40, "the outbox was not sent")
        assert own_https.spotted(cookie) == {"AL"}
        page.open("/plates")
        page.wait("document.querySelectorAll('li[data-state].cell--spotted').length === 1", WAIT_S, "the spot was not kept")
        assert "Score: 1 / 50" in page.text("#plates-score")
    finally:
        driver.quit()


def test_the_murals_position_cookie_is_secure_and_only_for_murals_on_https(own_https, tmp_path):
    """The last position (murals_at) is never sent in the clear, nor to any page but Murals'."""
    driver = trusting_phone(own_https, tmp_path)
    try:
        page = Page(driver, own_https.https)
        page._signed_in_to = page.base_url  # signed in by pairing, not by a test cookie
        page.open("/murals")
        page.wait("!!document.querySelector('#murals[data-module-ready]')", WAIT_S, "the Murals module did not start")
        page.js("document.querySelector('#murals-simulate [data-simulate=\"fixed\"]').click()")
        page.wait(lambda d: any(c["name"] == "murals_at" for c in d.get_cookies()), WAIT_S, "no murals_at cookie was set")
        cookie = next(c for c in driver.get_cookies() if c["name"] == "murals_at")
        assert cookie.get("secure") is True, cookie
        assert cookie.get("path") == "/murals", cookie
        page.open("/plates")
        assert "murals_at" not in page.js("return document.cookie"), "murals_at reaches pages outside /murals"
    finally:
        driver.quit()
