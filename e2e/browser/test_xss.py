"""6. Text from outside is shown as text, never run."""

import urllib.parse

import pytest

PAYLOADS = [
    "<script>window.__xss=1</script>",
    '"><img src=x onerror="window.__xss=2">',
    "<svg onload=window.__xss=3>",
    "'><script>alert(document.domain)</script>",
    "</title><iframe srcdoc=\"<script>parent.__xss=5</script>\"></iframe>",
    "{{chrome.csrfToken}} javascript:alert(6)",
]

INJECTED = "#demo-form img, #demo-form svg, #demo-form script, #demo-form iframe, [data-screen] iframe"


def assert_inert(page, echo_selector, payload):
    assert not page.alert_present(), "an alert() dialog appeared"
    assert page.js("return typeof window.__xss") == "undefined", f"payload ran: window.__xss = {page.js('return window.__xss')}"
    assert page.js("return document.querySelector(arguments[0])?.textContent", echo_selector) == payload, \
        f"{echo_selector} does not show the payload verbatim: {page.text(echo_selector)!r}"
    injected = page.js("return [...document.querySelectorAll(arguments[0])].map(e => e.outerHTML)", INJECTED)
    assert not injected, f"markup from the payload became elements: {injected}"


@pytest.mark.parametrize("payload", PAYLOADS, ids=[f"payload{i}" for i in range(len(PAYLOADS))])
def test_query_echo_is_escaped(page, payload):
    page.open("/design?q=" + urllib.parse.quote(payload, safe=""))
    assert_inert(page, "#design-query-echo", payload)
    assert page.js("return document.querySelector('#design-search').value") == payload
    assert page.driver.title.startswith("Design"), f"document title was altered: {page.driver.title!r}"


@pytest.mark.parametrize("payload", PAYLOADS[:3], ids=["payload0", "payload1", "payload2"])
def test_posted_message_is_escaped(page, payload):
    page.open("/design")
    field = page.find("#design-message")
    page.js("arguments[0].scrollIntoView({block: 'center'})", field)
    field.send_keys(payload)
    page.find("form[method=post] #design-message ~ button[type=submit]").click()
    page.wait("document.querySelector('#design-post-echo')", 10, "the message was not echoed")
    assert_inert(page, "#design-post-echo", payload)


def test_posted_message_is_escaped_without_js(page):
    payload = PAYLOADS[1]
    page.disable_scripts()
    page.open("/design")
    page.find("#design-message").send_keys(payload)
    page.find("form[method=post] #design-message ~ button[type=submit]").click()
    page.wait("document.querySelector('#design-post-echo')", 10, "the message was not echoed")
    assert_inert(page, "#design-post-echo", payload)
