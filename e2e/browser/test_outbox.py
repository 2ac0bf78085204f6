"""The outbox as one contract, as a person meets it (issue #23): a change is bound to the device and
person that made it, so it is never applied to whoever signs in next on that browser (D3); signing out
with changes waiting says how many would be lost and offers to send them first; a phone whose devices
were signed out says it needs a sign-in instead of "Sending…" for good; and the converter keeps one
settled state waiting, not one change per key.

Each test runs its own server and really stops it (DevTools' offline switch does not reach the
service worker's own fetches)."""
from __future__ import annotations

import re
import time
import subprocess

import pytest

from pocket_helpers import (ARTIFACTS, OWNER_NAME, OWNER_PASSWORD, PocketServer, http_request, page_with_worker,
                            pocket_binary, wait_for_binary)

WAIT_S = 20
BEA_PASSWORD = "bea's own password"


@pytest.fixture
def own(driver, tmp_path, plate_images):
    """A server of this test's own with a second person, bea; the shared browser on it (signed in as
    the owner) with its service worker running."""
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data",
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url}).start()
    srv.add_person("bea", BEA_PASSWORD)
    page = page_with_worker(driver, srv)
    yield srv, page
    srv.stop()


def spotted(srv, cookie: str) -> set[str]:
    """The states a person's game has spotted, read from the server's own page for them."""
    html = http_request(srv.url("/plates"), headers={"Cookie": cookie}).text
    return set(re.findall(r'class="cell cell--bg-green cell--spotted[^"]*" id="state-[A-Z]{2}" data-state="([A-Z]{2})"', html))


def sign_out_everywhere(srv, name: str, password: str):
    """`pocket users passwd NAME` while the server is stopped: every device of NAME is signed out."""
    binary = wait_for_binary(pocket_binary())
    done = subprocess.run([str(binary), "users", "passwd", name, "--data-dir", str(srv.data_dir)],
                          input=password + "\n", capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def spot_offline(page, code: str):
    page.js("arguments[0].scrollIntoView({block: 'center'})", page.find(f"#state-{code} form button"))
    page.find(f"#state-{code} form button").click()
    page.wait(f"document.querySelector('#state-{code}').classList.contains('cell--spotted')", WAIT_S, f"{code} did not turn green")
    page.wait("/1 change waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S, "the spot is not waiting")


def bar(page) -> str:
    return page.js("return document.querySelector('#pocket-offline')?.textContent ?? ''")


def sign_in_with_form(page, name: str, password: str):
    page.open("/signin")
    page.find("#signin-name").send_keys(name)
    page.find("#signin-password").send_keys(password)
    page.find("#signin-button").click()
    page.wait("location.pathname === '/' && !!document.querySelector('meta[name=\"pocket-device\"]')", WAIT_S, f"{name} did not sign in")


def test_a_spot_made_offline_never_reaches_the_next_person_on_that_browser(own):
    srv, page = own
    page.open("/plates")
    assert srv.stop() == 0
    page.open("/plates")
    spot_offline(page, "UT")
    # The owner's devices are signed out while the phone is away (a lost phone, a new password).
    sign_out_everywhere(srv, OWNER_NAME, OWNER_PASSWORD + "!")
    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    # The change waits and the bar says why (not "Sending 1 change…" for good): the live page,
    # the sign-in page, says so above its form.
    page.wait("/Signed out — sign in again to send 1 change/.test(document.querySelector('#pocket-offline')?.textContent ?? '')",
              40, f"the bar does not ask for a sign-in: {bar(page)!r}")

    # bea signs in on the same browser: ann's spot is set aside, never sent in bea's session.
    page.driver.delete_all_cookies()
    sign_in_with_form(page, "bea", BEA_PASSWORD)
    page.open("/plates")
    page.wait("/1 change made here by someone who is not signed in now/.test(document.querySelector('#pocket-offline')?.textContent ?? '')",
              WAIT_S, f"the bar does not say a change was set aside: {bar(page)!r}")
    assert page.js("return document.querySelectorAll('li[data-state].cell--spotted').length") == 0, "bea's screen shows the owner's spot"
    bea_cookie, _ = srv.sign_in("bea", BEA_PASSWORD)
    assert spotted(srv, bea_cookie) == set(), "the owner's offline spot was applied to bea"
    assert "POST /plates/changes 200" not in srv.log_text()

    # bea discards it: nothing left, nothing sent.
    page.find("#pocket-offline button").click()
    page.wait("!document.querySelector('#pocket-offline')", WAIT_S, "the set-aside change was not discarded")
    owner_cookie, _ = srv.sign_in(OWNER_NAME, OWNER_PASSWORD + "!")
    assert spotted(srv, owner_cookie) == set()


def test_the_same_person_signing_in_again_sends_their_waiting_change(own):
    srv, page = own
    page.open("/plates")
    assert srv.stop() == 0
    page.open("/plates")
    spot_offline(page, "ID")
    sign_out_everywhere(srv, OWNER_NAME, OWNER_PASSWORD + "!")
    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    page.wait("/sign in again/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", 40, f"no sign-in prompt: {bar(page)!r}")
    page.driver.delete_all_cookies()
    sign_in_with_form(page, OWNER_NAME, OWNER_PASSWORD + "!")
    page.wait("!document.querySelector('#pocket-offline')", 40, f"the waiting change was not sent: {bar(page)!r}")
    owner_cookie, _ = srv.sign_in(OWNER_NAME, OWNER_PASSWORD + "!")
    assert spotted(srv, owner_cookie) == {"ID"}


def test_signing_out_with_changes_waiting_says_how_many_and_offers_to_send_them_first(own):
    srv, page = own
    page.open("/settings")
    page.open("/plates")
    assert srv.stop() == 0
    page.open("/plates")
    spot_offline(page, "NM")
    page.open("/settings")  # the saved copy
    page.find("#settings-signout-button").click()
    page.wait("document.querySelector('#signout-pending')?.open", WAIT_S, "signing out did not ask first")
    assert "1 change made on this device have not reached Pocket yet" in page.text("#signout-pending-message").replace("\n", " ")
    page.find("[data-signout-send]").click()
    page.wait("/could not be reached: 1 change still waits/.test(document.querySelector('#signout-pending-status').textContent)",
              WAIT_S, "sending with no server did not say so")
    assert page.js("return document.querySelector('#signout-pending').open")

    srv.resume()
    # The phone finds Pocket again on its own and sends the change; the question stays on screen,
    # not drawn away by the page being read again under the person answering it.
    page.js("window.dispatchEvent(new Event('online'))")
    owner_cookie, _ = srv.sign_in()
    deadline = time.monotonic() + 40
    while spotted(srv, owner_cookie) != {"NM"}:
        assert time.monotonic() < deadline, "the waiting change did not arrive once Pocket was back"
        time.sleep(0.2)
    time.sleep(1)  # the page is read again just after a flush: give it the chance to close the dialog
    assert page.js("return document.querySelector('#signout-pending').open"), "the sign-out question vanished"
    page.find("[data-signout-send]").click()
    page.wait("location.pathname === '/signin'", 40, "the device was not signed out")
    assert spotted(srv, owner_cookie) == {"NM"}


def test_signing_out_with_nothing_waiting_asks_nothing(own):
    srv, page = own
    page.open("/settings")
    page.find("#settings-signout-button").click()
    page.wait("location.pathname === '/signin'", WAIT_S, "the device was not signed out")


def test_the_converter_keeps_one_settled_state_waiting_not_one_change_per_key(own):
    srv, page = own
    page.open("/converter")
    page.wait("document.querySelector('#converter')?.dataset.engine === 'ready'", WAIT_S, "the converter's engine did not start")
    assert srv.stop() == 0
    page.open("/converter")
    page.wait("document.querySelector('#converter')?.dataset.engine === 'ready'", WAIT_S, "the saved converter did not start")
    for key in "12345.678":
        page.find(f"#converter-key-{'point' if key == '.' else key}").click()
    page.wait("document.querySelector('#converter-from').textContent === '12,345.678'", WAIT_S, "the keys did not convert on the phone")
    page.wait("/Offline — 1 change waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", WAIT_S,
              f"the converter's keys are not one waiting change: {bar(page)!r}")
    srv.resume()
    page.js("window.dispatchEvent(new Event('online'))")
    page.wait("!document.querySelector('#pocket-offline')", 40, "the converter's state was not sent")
    assert len(re.findall(r"POST /converter/state 200", srv.log_text())) == 1, re.findall(r"POST /converter/state \d+", srv.log_text())
    assert 'id="converter-from">12,345.678<' in http_request(srv.url("/converter")).text
