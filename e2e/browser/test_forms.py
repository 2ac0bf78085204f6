"""5. Forms and CSRF: with pocket.js, without JavaScript, and raw HTTP."""

import html
import re

from pocket_helpers import http_request


def test_post_form_submits_through_pocket_js(page):
    page.open("/design")
    token = page.mark()
    field = page.find("#design-message")
    page.js("arguments[0].scrollIntoView({block: 'center'})", field)
    field.send_keys("Hello from the browser")
    page.find("form[method=post] #design-message ~ button[type=submit]").click()
    page.wait("document.querySelector('#design-post-echo')?.textContent === 'Hello from the browser'", 10,
              f"the posted message was not echoed: {page.text('#design-post-echo')!r}")
    assert page.marker() == token, "the POST caused a full page load instead of a swap"
    assert page.h1() == "Design"


def test_get_search_form_with_pocket_js(page):
    page.open("/design")
    token = page.mark()
    field = page.find("#design-search")
    page.js("arguments[0].scrollIntoView({block: 'center'})", field)
    field.send_keys("tea & biscuits")
    page.find("form[role=search] button[type=submit]").click()
    page.wait("document.querySelector('#design-query-echo')?.textContent === 'tea & biscuits'", 10,
              f"the query was not echoed: {page.text('#design-query-echo')!r}")
    assert page.marker() == token, "the search caused a full page load instead of a swap"
    assert "q=tea+%26+biscuits" in page.driver.current_url or "q=tea%20%26%20biscuits" in page.driver.current_url


def test_forms_work_without_javascript(page):
    page.disable_scripts()
    page.open("/design")
    assert page.js("return !document.documentElement.classList.contains('js') && !window.Pocket"), "scripts still ran"
    page.find("#design-search").send_keys("no script here")
    page.find("form[role=search] button[type=submit]").click()
    page.wait("document.querySelector('#design-query-echo')?.textContent === 'no script here'", 10,
              "the GET search did not work without JavaScript")
    assert "/design?q=no+script+here" in page.driver.current_url

    page.find("#design-message").send_keys("posted natively")
    page.find("form[method=post] #design-message ~ button[type=submit]").click()
    page.wait("document.querySelector('#design-post-echo')?.textContent === 'posted natively'", 10,
              f"the POST did not work without JavaScript (page: {page.h1()!r})")
    # The stepper buttons need JS, so they hide and the number field remains usable.
    assert page.find("#copies").is_displayed()
    assert not page.find("[data-stepper] button[data-step='1']").is_displayed()


def _session(server):
    """A newly signed-in device: (its session cookie header, the csrf token from its page)."""
    cookie, _ = server.sign_in()
    res = http_request(server.url("/design"), headers={"Cookie": cookie})
    assert res.status == 200
    meta = re.search(r'<meta name="csrf-token" content="([^"]+)"', res.text)
    field = re.search(r'<input type="hidden" name="_csrf" value="([^"]+)"', res.text)
    assert meta and field, "page lacks the csrf meta tag or the hidden _csrf field"
    assert meta.group(1) == field.group(1)
    return cookie, field.group(1)


def test_post_without_token_is_refused(server):
    res = http_request(server.url("/design"), "POST", {"message": "forged"})
    assert res.status == 403, f"POST without a CSRF token answered {res.status}"
    assert "text/html" in (res.header("Content-Type") or "")
    assert "forged" not in res.text
    assert "empty-state" in res.text, "403 should be the friendly error page"


def test_post_with_wrong_or_foreign_token_is_refused(server):
    cookie, _ = _session(server)
    _, other_token = _session(server)
    res = http_request(server.url("/design"), "POST", {"message": "x", "_csrf": "not-the-token"}, {"Cookie": cookie})
    assert res.status == 403, f"a wrong token was accepted ({res.status})"
    res = http_request(server.url("/design"), "POST", {"message": "x", "_csrf": other_token}, {"Cookie": cookie})
    assert res.status == 403, f"another session's token was accepted ({res.status})"
    # token without the cookie
    res = http_request(server.url("/design"), "POST", {"message": "x", "_csrf": other_token})
    assert res.status == 403, f"a token without its cookie was accepted ({res.status})"


def test_post_with_token_is_accepted(server):
    cookie, token = _session(server)
    message = 'Fish & <chips> "quoted"'
    res = http_request(server.url("/design"), "POST", {"message": message, "_csrf": token}, {"Cookie": cookie})
    assert res.status == 200, f"a valid form post answered {res.status}"
    m = re.search(r'id="design-post-echo">(.*?)</span>', res.text, re.S)
    assert m, "no #design-post-echo in the response"
    assert html.unescape(m.group(1)) == message
    assert "<chips>" not in m.group(1), "the echo is not HTML-escaped"


def test_post_with_header_token_is_accepted(server):
    cookie, token = _session(server)
    res = http_request(server.url("/design"), "POST", {"message": "via header"},
                       {"Cookie": cookie, "X-CSRF-Token": token})
    assert res.status == 200 and 'id="design-post-echo">via header<' in res.text


def test_cross_site_post_is_refused(server):
    cookie, token = _session(server)
    res = http_request(server.url("/design"), "POST", {"message": "x", "_csrf": token},
                       {"Cookie": cookie, "Sec-Fetch-Site": "cross-site"})
    assert res.status == 403, f"a cross-site form post was accepted ({res.status})"


def test_a_post_from_another_origin_is_refused_without_sec_fetch_site(server):
    """Older browsers and other clients send no Sec-Fetch-Site: the Origin (or Referer) must be Pocket's."""
    cookie, token = _session(server)
    for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"},
                    {"Referer": "https://evil.example/form.html"},
                    {"Origin": server.base_url.replace("127.0.0.1", "localhost")}):
        res = http_request(server.url("/design"), "POST", {"message": "x", "_csrf": token}, {"Cookie": cookie, **headers})
        assert res.status == 403, f"a post with {headers} was accepted ({res.status})"
    for headers in ({"Origin": server.base_url}, {"Referer": server.url("/design")}, {}):
        res = http_request(server.url("/design"), "POST", {"message": "ok", "_csrf": token}, {"Cookie": cookie, **headers})
        assert res.status == 200, f"a same-origin post with {headers} was refused ({res.status})"
