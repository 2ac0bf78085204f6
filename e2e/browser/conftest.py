"""pytest harness for Pocket's browser tests.

One real `pocket serve` and one headless Chromium per session; every test gets a freshly reset page
(`page` fixture). Failures leave a screenshot, the page source and the console log in ./artifacts.
A test also fails when its page logged a SEVERE console error or a CSP violation.
With POCKET_E2E_HTTPS=1 every server speaks Pocket's own HTTPS and every browser trusts it (README.md).
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from pocket_helpers import (ARTIFACTS, HTTPS, MuralsServer, Page, PlateImageServer, PocketServer, SCIManifestServer,
                            TalkTextSite, console_problems, make_driver, wait_for_worker)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "console_allow(*patterns): regexes of SEVERE console messages this test expects (e.g. a 404)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)


def pytest_report_header(config):
    return ("pocket over its own HTTPS (POCKET_E2E_HTTPS): https://pocket.test, HTTP/2, a browser that trusts its CA"
            if HTTPS else "pocket over plain HTTP on 127.0.0.1 (POCKET_E2E_HTTPS=1 for its own HTTPS)")


def pytest_sessionstart(session):
    # Stale artifacts from an earlier run would be misleading.
    for path in ARTIFACTS.glob("*"):
        if path.name.startswith("."):
            continue
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def plate_images():
    """A local stand-in for the plate pictures' host (Pocket fetches them server-side): every state's
    picture path answers with fixtures/plate.jpg, except PLATE_PICTURES_MISSING (404)."""
    srv = PlateImageServer().start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def sci_manifest(tmp_path_factory):
    """A local stand-in for the Conference database's host: sci-core.json and a small full database's zip
    (built from Pocket's sample). Servers point at it with POCKET_SCI_MANIFEST_URL, never the internet."""
    srv = SCIManifestServer(tmp_path_factory.mktemp("sci-manifest")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def murals_service():
    """A local stand-in for the murals service, its pictures and the map tiles (POCKET_MURALS_URL,
    POCKET_MURALS_IMAGES_URL, POCKET_MURALS_TILES): 24 murals along the bundled walk; can be set failing."""
    srv = MuralsServer().start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def talk_texts():
    """A local stand-in for scriptures.byu.edu's talk texts (POCKET_SCI_TALKS_URL), never the internet."""
    site = TalkTextSite().start()
    yield site
    site.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory, plate_images, sci_manifest, murals_service, talk_texts):
    """The real server. Graceful shutdown is a requirement: SIGTERM must end it with 0 within 10 s.
    Plate pictures come from the `plate_images` fixture host (POCKET_PLATES_IMAGE_BASE), never the internet."""
    srv = PocketServer(log_path=ARTIFACTS / "server.log", data_dir=tmp_path_factory.mktemp("pocket-data"),
                       env={"POCKET_PLATES_IMAGE_BASE": plate_images.base_url,
                            "POCKET_SCI_MANIFEST_URL": sci_manifest.manifest_url,
                            "POCKET_SCI_TALKS_URL": talk_texts.base_url,
                            **murals_service.env()})
    srv.start(timeout=30)
    yield srv
    code = srv.stop(timeout=10)
    assert code == 0, f"pocket serve exited with code {code} after SIGTERM (expected 0); see {srv.log_path}"


@pytest.fixture(scope="session")
def driver():
    d = make_driver()
    yield d
    d.quit()


@pytest.fixture(scope="session", autouse=HTTPS)
def https_is_real(driver, server):
    """With POCKET_E2E_HTTPS=1, before any test: the browser reached the server over HTTPS by name, its
    first page (from the network, no worker yet) came over HTTP/2, and the service worker then runs.
    A server speaking only HTTP/1.1, a browser not trusting it, or a mode that quietly fell back to
    plain HTTP fails every test of the session here."""
    p = Page(driver, server.base_url)
    p.reset()
    p.open("/")
    assert p.js("return location.protocol") == "https:", f"not over HTTPS: {p.js('return location.href')}"
    assert not p.js("return !!navigator.serviceWorker.controller"), "the first page was the service worker's, not the network's"
    protocol = p.js("return performance.getEntriesByType('navigation')[0].nextHopProtocol")
    assert protocol == "h2", f"the first page came over {protocol!r}, not HTTP/2"
    wait_for_worker(p)
    p.open("/")
    assert p.js("return !!navigator.serviceWorker.controller"), "the service worker does not control the page over HTTPS"


@pytest.fixture
def page(driver, server):
    """The shared browser, reset: iPhone portrait, no emulated media, scripts on, about:blank."""
    p = Page(driver, server.base_url)
    p.reset()
    yield p


def _safe_name(nodeid: str) -> str:
    name = nodeid.split("::", 1)[-1]
    return re.sub(r"[^\w.\-\[\]]+", "_", name)[:150]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield  # re-raises if the test itself failed
    page = item.funcargs.get("page")
    if isinstance(page, Page):
        page.pull_console()
        allowed = [p for m in item.iter_markers("console_allow") for p in m.args]
        problems = console_problems(page.console, allowed)
        if problems:
            raise AssertionError("the page logged console errors / CSP violations:\n  " + "\n  ".join(problems))
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and report.when in ("setup", "call"):
        page = item.funcargs.get("page")
        if isinstance(page, Page):
            base = ARTIFACTS / _safe_name(item.nodeid)
            try:
                page.driver.switch_to.alert.dismiss()
            except Exception:  # noqa: BLE001
                pass
            for what, save in (("png", lambda: page.driver.save_screenshot(str(base) + ".png")),
                               ("html", lambda: (base.with_name(base.name + ".html")).write_text(
                                   page.driver.page_source, encoding="utf-8"))):
                try:
                    save()
                except Exception as err:  # noqa: BLE001 - artifacts are best effort
                    report.sections.append(("artifacts", f"could not save {what}: {err}"))
            try:
                page.pull_console()
                base.with_name(base.name + ".console.json").write_text(json.dumps(page.console, indent=1))
                # CI keeps only what the run prints, so the console's last words go in the report too.
                lines = [f"[{e.get('level')}] {e.get('message', '')}"[:300] for e in page.console[-20:]]
                if lines:
                    report.sections.append(("console", "\n".join(lines)))
            except Exception:  # noqa: BLE001
                pass
            report.sections.append(("artifacts", f"screenshot/source: {base}.png / .html"))
    return report
