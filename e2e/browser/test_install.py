"""8. Installability: manifest, icons, service worker and offline use."""

import json
import re
import urllib.parse

import pytest

from pocket_helpers import ARTIFACTS, SW_READY_JS, PocketServer, http_request, parse_sizes, png_size



@pytest.fixture(scope="module")
def manifest(server):
    res = http_request(server.url("/manifest.webmanifest"))
    assert res.status == 200
    assert re.match(r"application/(manifest\+)?json", res.header("Content-Type") or ""), res.header("Content-Type")
    return json.loads(res.text)


def test_manifest_fields(manifest):
    assert manifest["name"] == "Pocket"
    assert manifest.get("short_name")
    assert manifest["display"] == "standalone"
    assert manifest.get("start_url") and manifest.get("scope")
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", manifest.get("theme_color", "")), manifest.get("theme_color")
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", manifest.get("background_color", "")), manifest.get("background_color")
    icons = manifest["icons"]
    pngs = [(parse_sizes(i.get("sizes")), i) for i in icons if i.get("type") == "image/png"]
    have = {s for sizes, _ in pngs for s in sizes}
    assert (192, 192) in have and (512, 512) in have, f"need 192 and 512 PNG icons, have {sorted(have)}"
    assert any("maskable" in (i.get("purpose") or "").split() for i in icons), "no maskable icon"


def test_manifest_icons_resolve(server, manifest):
    problems = []
    for icon in manifest["icons"]:
        url = urllib.parse.urljoin(server.url("/manifest.webmanifest"), icon["src"])
        res = http_request(url)
        if res.status != 200:
            problems.append(f"{icon['src']}: HTTP {res.status}")
            continue
        ctype = (res.header("Content-Type") or "").split(";")[0].strip()
        if ctype != icon.get("type"):
            problems.append(f"{icon['src']}: served as {ctype!r}, manifest says {icon.get('type')!r}")
        if icon.get("type") == "image/png":
            try:
                size = png_size(res.body)
            except AssertionError as err:
                problems.append(f"{icon['src']}: {err}")
                continue
            if size not in parse_sizes(icon.get("sizes")):
                problems.append(f"{icon['src']}: is {size[0]}x{size[1]}, manifest says {icon.get('sizes')}")
            if "maskable" in (icon.get("purpose") or "") and size[0] < 512:
                problems.append(f"{icon['src']}: maskable icon smaller than 512")
    assert not problems, "\n".join(problems)


def test_apple_touch_icon(page):
    page.open("/")
    href = page.js("return document.querySelector('link[rel=apple-touch-icon]')?.href")
    assert href, "no apple-touch-icon link"
    res = http_request(href)
    assert res.status == 200, f"{href}: HTTP {res.status}"
    assert (res.header("Content-Type") or "").startswith("image/png")
    assert png_size(res.body) == (180, 180), f"apple-touch-icon is {png_size(res.body)}, should be 180x180"


def test_service_worker_script(server):
    res = http_request(server.url("/sw.js"))
    assert res.status == 200
    assert re.match(r"(text|application)/javascript", res.header("Content-Type") or "")
    assert "{{" not in res.text, "unrendered Mustache in sw.js"


def test_service_worker_registers(page):
    page.open("/")
    reg = page.js_async(SW_READY_JS)
    assert "error" not in reg, reg["error"]
    assert reg["state"] == "activated" and reg["scope"].endswith("/") and "/sw.js" in reg["script"], reg


def test_works_offline(page, tmp_path):
    """DevTools' offline switch does not reach the service worker's own fetches, so this test runs
    its own server and really stops it (which also checks graceful shutdown once more)."""
    srv = PocketServer(log_path=ARTIFACTS / "server-offline.log", data_dir=tmp_path / "data").start()
    try:
        page.base_url = srv.base_url
        page.open("/")
        reg = page.js_async(SW_READY_JS)
        assert "error" not in reg, reg["error"]
        page.open("/")  # a visit under the worker's control puts the home screen in its cache
        assert page.js("return !!navigator.serviceWorker.controller"), "the service worker does not control the page"
    finally:
        code = srv.stop(timeout=10)
    assert code == 0, f"pocket serve exited with {code} after SIGTERM"

    page.driver.refresh()
    page.wait_ready()
    assert page.h1() == "Pocket", f"offline reload of / shows {page.h1()!r}"
    assert page.find("nav.springboard").is_displayed(), "springboard not shown offline"

    page.open("/design?planet=venus")  # never visited: the offline page stands in
    assert page.h1() == "Offline", f"an uncached page offline shows {page.h1()!r}"
    assert page.exists(".empty-state"), "the offline page lacks its empty state"
