"""pytest harness for Pocket's WebKit smoke suite (issue #31): every iPhone browser is WebKit.

One real `pocket serve` (as e2e/browser's, with the same fixture hosts), one X server of its own (Xvfb)
and one WebKitGTK driven by WebKitWebDriver per session; every test gets the browser reset to a
signed-in, 390×844 `about:blank` (`page` fixture). A test fails when its page printed a console error
or a CSP violation; failures leave a screenshot, the page source and the console in ./artifacts.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from pocket_helpers import (MuralsServer, PlateImageServer, PocketServer, SCIManifestServer, TalkTextSite,
                            console_problems)
from webkit_helpers import ARTIFACTS, WebKitPage, Xvfb, make_webkit_driver, server_env


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "console_allow(*patterns): regexes of console errors this test expects (e.g. while offline)")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)


def pytest_sessionstart(session):
    for path in ARTIFACTS.glob("*"):  # stale artifacts would be misleading
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


@pytest.fixture(scope="session")
def plate_images():
    srv = PlateImageServer().start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def sci_manifest(tmp_path_factory):
    srv = SCIManifestServer(tmp_path_factory.mktemp("sci-manifest")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def murals_service():
    srv = MuralsServer().start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def talk_texts():
    site = TalkTextSite().start()
    yield site
    site.stop()


@pytest.fixture(scope="session")
def server(tmp_path_factory, plate_images, sci_manifest, murals_service, talk_texts):
    """The real server, its owner added and signed in. SIGTERM must end it with 0 within 10 s."""
    srv = PocketServer(log_path=ARTIFACTS / "server.log", data_dir=tmp_path_factory.mktemp("pocket-data"),
                       env=server_env(plate_images, sci_manifest, murals_service, talk_texts))
    srv.start(timeout=30)
    yield srv
    code = srv.stop(timeout=10)
    assert code == 0, f"pocket serve exited with code {code} after SIGTERM (expected 0); see {srv.log_path}"


@pytest.fixture(scope="session")
def display():
    xvfb = Xvfb(ARTIFACTS / "xvfb.log").start()
    yield xvfb.display
    xvfb.stop()


@pytest.fixture(scope="session")
def driver(display, tmp_path_factory):
    d = make_webkit_driver(display, tmp_path_factory.mktemp("webkit-profile"), ARTIFACTS / "webkit.log")
    yield d
    d.quit()


@pytest.fixture
def page(driver, server):
    """The shared WebKit, reset: 390×844, signed in as the owner, about:blank."""
    p = WebKitPage(driver, server.base_url)
    p.reset()
    yield p


def _pages(item) -> list[WebKitPage]:
    """Every WebKitPage a test used: the `page` fixture's, or the one a fixture of its own returned."""
    found = []
    for value in item.funcargs.values():
        for candidate in (value if isinstance(value, tuple) else (value,)):
            if isinstance(candidate, WebKitPage):
                found.append(candidate)
    return found


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield  # re-raises if the test itself failed
    allowed = [p for m in item.iter_markers("console_allow") for p in m.args]
    for page in _pages(item):
        page.pull_console()
        problems = console_problems(page.console, allowed)
        if problems:
            raise AssertionError("the page logged console errors / CSP violations:\n  " + "\n  ".join(problems))
    return result


def _safe_name(nodeid: str) -> str:
    return re.sub(r"[^\w.\-\[\]]+", "_", nodeid.split("::", 1)[-1])[:150]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and report.when in ("setup", "call"):
        for page in _pages(item)[:1]:
            base = ARTIFACTS / _safe_name(item.nodeid)
            try:
                page.driver.switch_to.alert.dismiss()
            except Exception:  # noqa: BLE001
                pass
            for what, save in (("png", lambda: page.driver.save_screenshot(str(base) + ".png")),
                               ("html", lambda: base.with_name(base.name + ".html").write_text(
                                   page.driver.page_source, encoding="utf-8"))):
                try:
                    save()
                except Exception as err:  # noqa: BLE001 - artifacts are best effort
                    report.sections.append(("artifacts", f"could not save {what}: {err}"))
            page.pull_console()
            base.with_name(base.name + ".console.json").write_text(json.dumps(page.console, indent=1))
            lines = [f"[{e.get('level')}] {e.get('message', '')}"[:300] for e in page.console[-20:]]
            if lines:
                report.sections.append(("console", "\n".join(lines)))
            report.sections.append(("artifacts", f"screenshot/source: {base}.png / .html"))
    return report
