"""9. Accessibility basics on every page, and the shared markup contract."""

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

PAGES = ["/", "/design", "/design?planet=mars#split", "/offline", "/no/such/page"]
IDS = ["home", "design", "design-split", "offline", "not-found"]

A11Y_JS = r"""
const problems = [];
const name = (el) => {
  const label = el.getAttribute('aria-label');
  if (label && label.trim()) return label.trim();
  const by = el.getAttribute('aria-labelledby');
  if (by) return by.split(/\s+/).map(id => document.getElementById(id)?.textContent.trim() ?? '').join(' ').trim();
  if (el.labels && el.labels.length) return [...el.labels].map(l => l.textContent.trim()).join(' ').trim();
  if (el.localName === 'button') return el.textContent.trim();
  if (el.localName === 'input' && ['submit', 'reset', 'button'].includes(el.type)) return el.value.trim();
  return (el.getAttribute('title') ?? '').trim();
};
const where = (el) => el.outerHTML.slice(0, 120);
const h1s = document.querySelectorAll('h1');
if (h1s.length !== 1) problems.push(`${h1s.length} h1 elements (expected exactly one)`);
const mains = document.querySelectorAll('main, [role=main]');
if (mains.length !== 1) problems.push(`${mains.length} main landmarks (expected one)`);
if (!document.documentElement.lang) problems.push('html has no lang');
if (!document.title.trim()) problems.push('empty document title');
for (const img of document.querySelectorAll('img')) if (!img.hasAttribute('alt')) problems.push('img without alt: ' + where(img));
for (const el of document.querySelectorAll('input:not([type=hidden]), select, textarea, button, [role=switch], [role=slider]'))
  if (!name(el)) problems.push('control without an accessible name: ' + where(el));
for (const a of document.querySelectorAll('a[href]'))
  if (!(a.getAttribute('aria-label') || a.textContent.trim() || a.querySelector('img[alt]:not([alt=""])')))
    problems.push('link without text: ' + where(a));
for (const el of document.querySelectorAll('[aria-labelledby]'))
  for (const id of el.getAttribute('aria-labelledby').split(/\s+/))
    if (!document.getElementById(id)) problems.push(`aria-labelledby points to missing #${id}`);
const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
if (dup.length) problems.push('duplicate ids: ' + [...new Set(dup)].join(', '));
return problems;
"""

CONTRACT_JS = r"""
const q = (s) => document.querySelector(s);
const problems = [];
const need = (cond, what) => { if (!cond) problems.push(what); };
need(document.documentElement.lang === 'en', 'html[lang=en]');
need(document.documentElement.classList.contains('js'), 'html.js (pocket.js ran)');
need(q('meta[name=csrf-token]')?.content, 'meta[name=csrf-token] with a value');
need(q('link[rel=manifest][href="/manifest.webmanifest"]'), 'link[rel=manifest]');
need(q('link[rel=apple-touch-icon]'), 'link[rel=apple-touch-icon]');
need(q('meta[name=apple-mobile-web-app-capable]'), 'meta[name=apple-mobile-web-app-capable]');
need(/viewport-fit=cover/.test(q('meta[name=viewport]')?.content ?? ''), 'viewport meta with viewport-fit=cover');
need(q('a.skip-link[href="#main"]'), 'a.skip-link[href="#main"]');
need(q('div.screen[data-screen] > header.navbar h1.navbar__title'), 'div.screen[data-screen] > header.navbar h1.navbar__title');
need(q('[data-screen] header.navbar .navbar__actions'), '.navbar__actions');
need(q('[data-screen] main#main.content'), 'main#main.content inside the screen');
return problems;
"""


@pytest.mark.console_allow(r"status of 404")
@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_accessibility_basics(page, path):
    page.open(path)
    problems = page.js(A11Y_JS)
    assert not problems, f"{path}:\n  " + "\n  ".join(problems)


@pytest.mark.console_allow(r"status of 404")
@pytest.mark.parametrize("path", PAGES, ids=IDS)
def test_markup_contract(page, path):
    page.open(path)
    problems = page.js(CONTRACT_JS)
    assert not problems, f"{path} lacks: " + ", ".join(problems)


@pytest.mark.parametrize("path", ["/", "/design"])
def test_skip_link(page, path):
    page.open(path)
    ActionChains(page.driver).send_keys(Keys.TAB).perform()
    active = page.js("return document.activeElement?.matches('a.skip-link') ? 'skip' : document.activeElement?.outerHTML.slice(0, 100)")
    assert active == "skip", f"the first Tab should reach the skip link, reached {active!r}"
    box = page.rect("a.skip-link")
    assert box["top"] >= 0 and box["bottom"] <= page.js("return innerHeight") and box["width"] > 0, \
        f"the focused skip link must be visible on screen: {box}"
    token = page.mark()
    ActionChains(page.driver).send_keys(Keys.ENTER).perform()
    page.wait("document.activeElement?.id === 'main'", 10,
              f"activating the skip link should focus #main, focus is on {page.js('return document.activeElement?.outerHTML.slice(0, 80)')}")
    assert page.marker() == token
