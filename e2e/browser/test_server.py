"""Server basics the browser relies on: security headers, cookie, graceful shutdown."""

import re
import time

import pytest

from pocket_helpers import ARTIFACTS, PocketServer, http_request


@pytest.mark.parametrize("path", ["/", "/design", "/offline", "/no/such/page"])
def test_security_headers(server, path):
    res = http_request(server.url(path))
    assert res.status in (200, 404)
    csp = res.header("Content-Security-Policy") or ""
    assert csp, "no Content-Security-Policy"
    directives = {d.split()[0]: d.split()[1:] for d in (x.strip() for x in csp.split(";")) if d}
    scripts = directives.get("script-src", directives.get("default-src"))
    assert scripts is not None, f"CSP without script-src/default-src: {csp}"
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, f"scripts: {scripts}"
    assert "'none'" in directives.get("frame-ancestors", []) or res.header("X-Frame-Options") == "DENY"
    assert res.header("X-Content-Type-Options") == "nosniff"
    assert res.header("Referrer-Policy"), "no Referrer-Policy"
    assert res.header("X-Frame-Options") == "DENY"
    # A stranger's browser gets a token cookie for the sign-in form.
    anonymous = http_request(server.url("/signin"), anonymous=True)
    cookie = anonymous.cookies().get("pocket_csrf")
    assert cookie is not None and cookie.value, f"no pocket_csrf cookie: {anonymous.header_all('Set-Cookie')}"
    assert cookie["httponly"], "pocket_csrf should be HttpOnly"
    assert (cookie["samesite"] or "").lower() in ("lax", "strict"), f"pocket_csrf SameSite={cookie['samesite']!r}"


def test_static_assets_are_cacheable(server):
    home = http_request(server.url("/")).text
    for href in re.findall(r'(?:href|src)="(/static/[^"]+\?v=[^"]+)"', home):
        res = http_request(server.url(href.replace("&amp;", "&")))
        assert res.status == 200, f"{href}: {res.status}"
        assert "immutable" in (res.header("Cache-Control") or ""), f"{href}: Cache-Control {res.header('Cache-Control')}"
        assert res.header("X-Content-Type-Options") == "nosniff"


def test_graceful_shutdown(tmp_path):
    srv = PocketServer(log_path=ARTIFACTS / "server-shutdown.log", data_dir=tmp_path / "data").start()
    assert http_request(srv.url("/")).status == 200
    started = time.monotonic()
    code = srv.stop(timeout=10)
    assert code == 0, f"exit code {code} after SIGTERM\n{srv.log_text()[-2000:]}"
    assert time.monotonic() - started < 10
