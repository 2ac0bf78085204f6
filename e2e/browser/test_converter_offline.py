"""The converter away from its server (issue #13): keys, wheels, categories and swap convert on the
phone with the browser's engine, the screen shows what the server would, and once the server is back
the person's saved converter state is what the phone shows.

Each test runs its own server and really stops it (or answers nothing): DevTools' offline switch does
not reach the service worker's own fetches."""
from __future__ import annotations

import html
import re

import pytest

from pocket_helpers import ARTIFACTS, Blackhole, PocketServer, http_request, page_with_worker
from test_converter import FROM, TO, choose_category, labels, press, spin, symbols, wait_labels

READY = "document.querySelector('#converter')?.dataset.engine === 'ready'"


@pytest.fixture
def own(driver, tmp_path):
    """A server of this test's own, and the shared browser pointed at it with its service worker running."""
    srv = PocketServer(log_path=ARTIFACTS / f"server-{tmp_path.name}.log", data_dir=tmp_path / "data").start()
    page = page_with_worker(driver, srv)
    yield srv, page
    srv.stop()


def shown(page) -> dict:
    """What the phone shows: both values with their units, the relation, the checked category and wheels."""
    return {
        "values": labels(page), "symbols": symbols(page),
        "relation": page.js("return document.querySelector('#converter-relation span').textContent"),
        "category": page.js("return document.querySelector('input[name=category]:checked')?.value"),
        "wheels": page.js("return ['from', 'to'].map(s => document.querySelector(`#converter-${s}-wheel input:checked`)?.value)"),
    }


def served(srv) -> dict:
    """The same, from the page the server renders for the person (its saved state)."""
    res = http_request(srv.url("/converter"))
    assert res.status == 200, res.status
    text = res.text

    def field(pattern):
        m = re.search(pattern, text, re.S)
        assert m, f"{pattern!r} not on the server's page"
        return html.unescape(m.group(1))

    return {
        "values": (field(r'id="converter-from">([^<]*)<'), field(r'id="converter-to"[^>]*>([^<]*)<')),
        "symbols": (field(r'id="converter-from-symbol"[^>]*>([^<]*)<'), field(r'id="converter-to-symbol"[^>]*>([^<]*)<')),
        "relation": field(r'id="converter-relation"><span aria-hidden="true">([^<]*)<'),
        "category": field(r'name="category" value="(\w+)" id="[^"]*" checked'),
        "wheels": [field(r'name="from" value="([\w-]+)" checked'), field(r'name="to" value="([\w-]+)" checked')],
    }


def convert_offline(page):
    """Keys, a wheel, a category and swap, with no server; each result as the units define it."""
    press(page, "1", "1", "1")
    press(page, "2", "12", "12")
    spin(page, "#converter-from-wheel", "kilobyte", "12", "12,288")      # 12 KB = 12 × 1024 B
    choose_category(page, "temperature")                                   # °C → °F by default
    wait_labels(page, "12", "53.6", "after choosing Temperature")          # 12 × 9/5 + 32
    press(page, "sign", "−12", "10.4")
    page.find("#converter-swap").click()                                   # −12 °F in °C
    wait_labels(page, "−12", "−24.4444444444", "after swapping")          # (−12 − 32) × 5/9
    assert page.js("return document.querySelector('#converter-relation span').textContent") == "≈"
    assert symbols(page) == ("°F", "°C"), symbols(page)
    assert page.js("return document.querySelector('#converter-key-sign').disabled") is False
    choose_category(page, "length")                                        # the sign goes; km → mi
    wait_labels(page, "12", "7.45645430685", "after choosing Length")     # 12 000 / 1609.344
    assert page.js("return document.querySelector('#converter-key-sign').disabled") is True
    assert page.js("return !!document.querySelector('[data-screen]')"), "the browser's error page replaced Pocket"


def test_the_converter_converts_offline_and_the_server_keeps_what_the_phone_shows(own):
    srv, page = own
    page.open("/converter")
    page.wait(READY, 20, "the converter's engine did not load")
    assert srv.stop() == 0

    convert_offline(page)
    phone = shown(page)
    page.wait("/waiting/.test(document.querySelector('#pocket-offline')?.textContent ?? '')", 15,
              "the offline bar does not count the converter's waiting changes")

    # Reopened while still offline: the saved page shows the phone's state, not the older copy.
    page.open("/converter")
    page.wait(READY, 20, "the converter's engine did not load from the phone's copy")
    wait_labels(page, "12", "7.45645430685", "the reopened offline page")
    assert shown(page) == phone

    srv.resume()
    page.wait("!document.querySelector('#pocket-offline')", 30, "the waiting changes were not sent")
    assert served(srv) == phone, "the person's saved state is not what the phone showed"
    page.open("/converter")
    page.wait(READY, 20, "the converter's engine did not load")
    assert shown(page) == phone


def test_a_server_that_never_answers_still_converts_at_once(own):
    srv, page = own
    page.open("/converter")
    page.wait(READY, 20, "the converter's engine did not load")
    port = srv.port
    assert srv.stop() == 0
    hole = Blackhole(port).start()
    try:
        convert_offline(page)
        phone = shown(page)
    finally:
        hole.stop()
    srv.resume()
    page.wait("!document.querySelector('#pocket-offline')", 40, "the waiting changes were not sent")
    assert served(srv) == phone, "the person's saved state is not what the phone showed"
