"""10. prefers-reduced-motion turns animations off."""

DURATIONS_JS = """
const cs = getComputedStyle(document.querySelector(arguments[0]), arguments[1] || null);
const secs = (v) => v.split(',').map(s => s.trim()).map(s => s.endsWith('ms') ? parseFloat(s) / 1000 : parseFloat(s));
return {transition: secs(cs.transitionDuration), animation: secs(cs.animationDuration)};
"""


def test_switch_transition_without_reduced_motion(page):
    page.open("/design")
    d = page.js(DURATIONS_JS, "input.switch")
    assert max(d["transition"]) >= 0.1, f"the switch should animate normally, transition-duration {d}"


def test_reduced_motion(page):
    page.emulate_media(prefers_reduced_motion="reduce")
    page.open("/design")
    assert page.js("return matchMedia('(prefers-reduced-motion: reduce)').matches")
    for sel, pseudo in (("input.switch", None), ("input.switch", "::before"), (".segmented__item span", None)):
        d = page.js(DURATIONS_JS, sel, pseudo)
        assert max(d["transition"]) <= 0.0001, f"{sel}{pseudo or ''}: transition-duration {d['transition']} s with reduced motion"
    page.js("document.querySelector('#demo-alert').showModal()")
    d = page.js(DURATIONS_JS, "#demo-alert")
    assert max(d["animation"]) <= 0.0001, f"the alert still animates with reduced motion: {d['animation']} s"
    page.js("document.querySelector('#demo-alert').close()")

    # Screen swaps skip their slide animation.
    page.open("/")
    page.find("p.springboard__footer a").click()
    page.wait("document.querySelector('[data-screen] h1')?.textContent.trim() === 'Design'", 10)
    assert page.js("return document.documentElement.dataset.transition") == "none"
