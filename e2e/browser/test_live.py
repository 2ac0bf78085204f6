"""Server-Sent Events: the style guide's clock is patched in place by the server."""


def test_live_clock_updates_without_reload(page):
    page.open("/design")
    token = page.mark()
    first = page.js("return document.getElementById('design-clock').textContent")
    page.wait(f"document.getElementById('design-clock').textContent !== {first!r}", 10,
              "the server's clock never updated the page")
    assert page.marker() == token, "the page reloaded instead of being patched"
