"""13. Converter: the assignment's screen sequence (keys, wheels, category switch), the decimal point
entered once, the 15-digit cap, keyboard input, copying, the same forms without JavaScript, and the
layout on phones (portrait and landscape) and iPads in light and dark mode.

The converter's state is server-side and shared by every browser (and every test of the session), so
each test starts from the assignment's first screen through the `converter` fixture: Data, Byte → Byte,
"0", binary convention, set over raw HTTP. Everything under test goes through the browser.
"""

import re

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.wheel_input import ScrollOrigin
from selenium.webdriver.common.keys import Keys

from pocket_helpers import CONTRAST_JS, SCHEMES, VIEWPORTS, Checks, format_contrast_failures, http_request

FROM, TO = "#converter-from", "#converter-to"
MESSAGE = "#converter-message"


# --------------------------------------------------------------------------- the converter over HTTP


class ConverterClient:
    """The owner's converter over raw HTTP, as another of the owner's devices would use it."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        res = http_request(base_url + "/converter")
        assert res.status == 200, f"GET /converter answered {res.status}"
        m = re.search(r'<meta name="csrf-token" content="([^"]+)"', res.text)
        assert m, "the converter page has no csrf-token meta tag"
        self.token = m.group(1)

    def post(self, data: dict):
        res = http_request(self.base_url + "/converter", "POST", {**data, "_csrf": self.token}, follow_redirects=False)
        assert res.status == 303, f"POST /converter {data} answered {res.status}, expected 303 See Other"
        assert res.headers["Location"] == "/converter"
        return res

    def reset(self):
        """The assignment's first screen: Data, Byte → Byte, 0, binary sizes."""
        self.post({"category": "data"})
        self.post({"category": "data", "convention": "binary"})
        self.post({"category": "data", "from": "byte", "to": "byte", "key": "clear"})

    def type(self, keys: str):
        for key in keys:
            self.post({"key": {"⌫": "delete", "±": "sign"}.get(key, key)})

    def screen(self) -> str:
        res = http_request(self.base_url + "/converter")
        assert res.status == 200
        return res.text


@pytest.fixture
def converter(server):
    c = ConverterClient(server.base_url)
    c.reset()
    html = c.screen()
    assert '<output class="converter__number converter__number--w3" id="converter-from">0</output>' in html, \
        "resetting the converter over HTTP did not bring back 0"
    return c


# --------------------------------------------------------------------------- page helpers


def labels(page):
    return page.text(FROM), page.text(TO)


def symbols(page):
    return page.text("#converter-from-symbol"), page.text("#converter-to-symbol")


def wait_labels(page, frm: str, to: str, what: str, timeout: float = 15):
    page.wait(f"""(() => {{
        const f = document.querySelector('{FROM}')?.textContent.trim(), t = document.querySelector('{TO}')?.textContent.trim();
        return f === {frm!r} && t === {to!r} && !document.documentElement.classList.contains('is-loading'); }})()""",
              timeout, f"{what}: expected the labels {frm!r} and {to!r}, the page shows {labels(page)!r}")


def press(page, key: str, frm: str, to: str):
    """Taps a keypad key and waits until both labels show what they should."""
    page.find(f"#converter-key-{key}").click()
    wait_labels(page, frm, to, f"after pressing {key}")


def checked(page, wheel: str) -> str | None:
    return page.js("return document.querySelector(arguments[0] + ' input:checked')?.value ?? null", wheel)


def spin(page, wheel: str, unit: str, frm: str, to: str):
    """Scrolls a wheel like a finger would, until `unit` is in the middle, and waits for the conversion."""
    rows = page.js("""const w = document.querySelector(arguments[0]);
        const items = [...w.querySelectorAll('.wheel__item')];
        const now = items.findIndex(i => i.querySelector('input').checked);
        const to = items.findIndex(i => i.querySelector('input').value === arguments[1]);
        return {delta: to - now, row: items[0].getBoundingClientRect().height};""", wheel, unit)
    assert rows["delta"] != 0, f"{wheel} already shows {unit}"
    ActionChains(page.driver).scroll_from_origin(ScrollOrigin.from_element(page.find(wheel)), 0,
                                                 int(round(rows["delta"] * rows["row"]))).perform()
    page.wait(f"document.querySelector('{wheel} input[value={unit}]')?.checked === true", 10,
              f"{wheel} did not settle on {unit}: {checked(page, wheel)!r} is checked")
    wait_labels(page, frm, to, f"after spinning {wheel} to {unit}")
    assert checked(page, wheel) == unit, f"after the swap {wheel} shows {checked(page, wheel)!r}, not {unit}"


def centred(page, wheel: str) -> dict:
    """The wheel row nearest the wheel's middle, and how far from it."""
    return page.js("""const w = document.querySelector(arguments[0]), r = w.getBoundingClientRect(), mid = r.top + r.height / 2;
        let best = null, dist = Infinity;
        for (const item of w.querySelectorAll('.wheel__item')) {
          const b = item.getBoundingClientRect(), d = Math.abs(b.top + b.height / 2 - mid);
          if (d < dist) { best = item; dist = d; }
        }
        return {value: best.querySelector('input').value, offset: dist};""", wheel)


def choose_category(page, category: str):
    """A segment, or (for the less common categories) "More" and then the category in its menu."""
    label = f"label:has(> #converter-category-{category})"
    # The screen may be drawn again in place just as it is opened (the engine loaded, a waiting
    # state applied): a control found a moment before is then gone, so it is found again, as a
    # finger finds whatever is on screen when it lands.
    for attempt in range(3):
        try:
            if not page.find(label).is_displayed():
                page.find("#converter-more-toggle").click()
                page.wait(f"document.querySelector('{label}').getBoundingClientRect().height > 0", 10, "the More menu did not open")
            page.find(label).click()
            break
        except StaleElementReferenceException:
            if attempt == 2:
                raise
    page.wait(f"document.querySelector('#converter-category-{category}')?.checked && "
              f"!document.documentElement.classList.contains('is-loading')", 10, f"{category} was not chosen")


def focus_nothing(page):
    page.js("document.activeElement?.blur()")


# --------------------------------------------------------------------------- the assignment's sequence


def test_the_assignments_screen_sequence(page, converter):
    page.open("/converter")
    marker = page.mark()
    entries = page.js("return history.length")
    c = Checks()
    c.equal(page.h1(), "Converter", "title")
    c.equal(labels(page), ("0", "0"), "initial labels")
    c.equal(symbols(page), ("B", "B"), "initial units")
    c.equal((checked(page, "#converter-from-wheel"), checked(page, "#converter-to-wheel")), ("byte", "byte"), "initial wheels")
    c.that(page.js("return document.querySelector('#converter-category-data').checked"), "Data is not the chosen segment")
    for wheel in ("#converter-from-wheel", "#converter-to-wheel"):
        row = centred(page, wheel)
        c.that(row["value"] == "byte" and row["offset"] < 2, f"{wheel}: Byte should be centred, got {row}")
    c.done()

    press(page, "1", "1", "1")                       # After Pressing 1
    press(page, "2", "12", "12")                     # After Pressing 2
    spin(page, "#converter-from-wheel", "kilobyte", "12", "12,288")   # left wheel to Kilobyte
    assert symbols(page) == ("KB", "B")
    press(page, "point", "12.", "12,288")            # After Pressing .5
    press(page, "5", "12.5", "12,800")
    press(page, "delete", "12.", "12,288")           # After Pressing Delete Twice
    press(page, "delete", "12", "12,288")
    spin(page, "#converter-to-wheel", "megabyte", "12", "0.01171875")  # right wheel to Megabyte
    assert symbols(page) == ("KB", "MB")

    choose_category(page, "temperature")             # After Switching to Temperature: the value is kept
    wait_labels(page, "12", "53.6", "after switching to Temperature")
    assert symbols(page) == ("°C", "°F")
    names = page.js("return [...document.querySelectorAll('#converter-from-wheel .wheel__item')].map(i => i.textContent.trim())")
    assert names == ["Celsius", "Fahrenheit", "Kelvin", "Rankine"], names

    press(page, "delete", "1", "33.8")               # After Deleting and Re-Entering a New Value
    press(page, "delete", "0", "32")
    press(page, "1", "1", "33.8")
    press(page, "0", "10", "50")
    press(page, "0", "100", "212")
    spin(page, "#converter-from-wheel", "fahrenheit", "100", "100")        # left wheel to Fahrenheit
    spin(page, "#converter-to-wheel", "kelvin", "100", "310.927777778")    # right wheel to Kelvin
    assert symbols(page) == ("°F", "K")
    assert page.text("#converter-relation").startswith("≈"), "a rounded result must be marked ≈"

    # ± means something for temperatures.
    press(page, "sign", "−100", "199.816666667")
    assert page.marker() == marker, "the screen was reloaded instead of updated in place"
    assert page.path() == "/converter"
    # Every update replaced the history entry instead of stacking one: one Back leaves the converter.
    assert page.js("return history.length") == entries, "updates must not add history entries"


def test_wheels_also_turn_by_tapping_a_row(page, converter):
    converter.type("3")
    page.open("/converter")
    page.find("#converter-to-wheel label.wheel__item:has(input[value=bit])").click()
    wait_labels(page, "3", "24", "after tapping Bit on the right wheel")
    page.wait("""(() => { const w = document.querySelector('#converter-to-wheel'), b = w.getBoundingClientRect();
        const i = w.querySelector('input:checked').closest('.wheel__item').getBoundingClientRect();
        return Math.abs(i.top + i.height / 2 - (b.top + b.height / 2)) < 2; })()""", 10,
              f"the chosen row is not centred after the update: {centred(page, '#converter-to-wheel')}")
    assert symbols(page) == ("B", "bit")


def test_the_decimal_point_goes_in_once(page, converter):
    page.open("/converter")
    press(page, "point", "0.", "0")
    assert page.text(MESSAGE) == ""
    page.find("#converter-key-point").click()
    page.wait(f"document.querySelector('{MESSAGE}')?.textContent.trim() === 'The number already has a decimal point'", 10,
              f"pressing '.' twice gave no visible feedback (message: {page.text(MESSAGE)!r})")
    assert labels(page) == ("0.", "0"), "the second '.' changed the number"
    assert page.find(MESSAGE).is_displayed()
    press(page, "5", "0.5", "0.5")
    assert page.text(MESSAGE) == "", "the message must go away with the next accepted key"
    page.find("#converter-key-point").click()
    page.wait(f"document.querySelector('{MESSAGE}')?.textContent.trim() === 'The number already has a decimal point'", 10,
              "'.' after '0.5' must be refused too")
    assert labels(page) == ("0.5", "0.5")


def test_fifteen_digits_at_most(page, converter):
    converter.type("12345678901234")
    page.open("/converter")
    press(page, "5", "123,456,789,012,345", "1.23456789012×10¹⁴")
    page.find("#converter-key-6").click()
    page.wait(f"document.querySelector('{MESSAGE}')?.textContent.trim() === 'At most 15 digits'", 10,
              f"the 16th digit gave no visible feedback (message: {page.text(MESSAGE)!r})")
    assert labels(page) == ("123,456,789,012,345", "1.23456789012×10¹⁴")
    # The long numbers still fit their columns.
    for sel in (FROM, TO):
        box = page.rect(sel)
        column = page.js("const r = document.querySelector(arguments[0]).parentElement.getBoundingClientRect(); return {left: r.left, right: r.right}", sel)
        assert box["left"] >= column["left"] - 1 and box["right"] <= column["right"] + 1, f"{sel} overflows its column: {box} in {column}"


def test_zero_has_no_sign_and_leading_zeros_are_not_significant(page, converter):
    converter.post({"category": "temperature"})
    converter.post({"category": "temperature", "from": "kelvin", "to": "celsius", "key": "clear"})
    page.open("/converter")
    wait_labels(page, "0", "−273.15", "Temperature from Kelvin")
    # C then ±: a minus on nothing would show "−0"; it is refused and says why.
    page.find("#converter-key-clear").click()
    page.wait(f"document.querySelector('{MESSAGE}')?.textContent.trim() === 'Nothing to delete'"
              " && !document.documentElement.classList.contains('is-loading')", 10, "C on 0 was not answered")
    page.find("#converter-key-sign").click()
    page.wait(f"document.querySelector('{MESSAGE}')?.textContent.trim() === 'Zero has no sign: type the number first'", 10,
              f"± on 0 gave no visible feedback (message: {page.text(MESSAGE)!r}, labels {labels(page)!r})")
    assert labels(page) == ("0", "−273.15"), "negative zero must show as 0"
    # 0.000000000000001: fifteen zeros say where the point is, only the 1 is a significant digit.
    converter.type("." + "0" * 13)
    page.open("/converter")
    wait_labels(page, "0.0000000000000", "−273.15", "after 0.0000000000000")
    press(page, "0", "0.00000000000000", "−273.15")
    page.find("#converter-key-1").click()
    page.wait(f"document.querySelector('{FROM}')?.textContent.trim() === '0.000000000000001'", 10,
              f"the 1 of 0.000000000000001 was refused (labels {labels(page)!r}, message {page.text(MESSAGE)!r})")


def test_keyboard_input(page, converter):
    page.open("/converter")
    focus_nothing(page)
    steps = [("4", "4", "4"), ("2", "42", "42"), (".", "42.", "42"), ("5", "42.5", "42.5"),
             (Keys.BACKSPACE, "42.", "42"), (",", "42.", "42"), ("7", "42.7", "42.7")]
    for key, frm, to in steps:
        ActionChains(page.driver).send_keys(key).perform()
        if key == ",":  # a second decimal separator, from the keyboard
            page.wait(f"document.querySelector('{MESSAGE}')?.textContent.trim() === 'The number already has a decimal point'", 10,
                      "',' as a second decimal point was not refused visibly")
        wait_labels(page, frm, to, f"after typing {key!r}")
    ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
    wait_labels(page, "0", "0", "after Escape (clear)")
    # The wheels: arrow keys on a focused wheel pick the next unit and convert.
    ActionChains(page.driver).send_keys("8").perform()
    wait_labels(page, "8", "8", "after typing 8")
    page.js("document.querySelector('#converter-to-wheel input:checked').focus()")
    ActionChains(page.driver).send_keys(Keys.ARROW_UP).perform()
    wait_labels(page, "8", "64", "after ArrowUp on the right wheel (Byte → bit)")
    assert checked(page, "#converter-to-wheel") == "bit"
    assert page.js("return document.activeElement?.name") == "to", "focus must stay on the wheel after the update"


def test_copy_and_swap(page, converter):
    converter.type("2048")
    page.driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": page.base_url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    page.open("/converter")
    spin(page, "#converter-to-wheel", "kilobyte", "2,048", "2")
    copy = page.find("#converter-copy")
    assert copy.is_displayed() and copy.get_attribute("data-copy") == "2"
    page.find("#converter-swap").click()
    wait_labels(page, "2,048", "2,097,152", "after swapping the units")
    assert symbols(page) == ("KB", "B")
    assert page.find("#converter-copy").get_attribute("data-copy") == "2097152"
    page.find("#converter-copy").click()
    page.wait("document.getElementById('pocket-live')?.textContent.includes('Copied 2097152 B')", 10,
              "copying was not announced")
    assert page.js_async("navigator.clipboard.readText().then(arguments[0], () => arguments[0](null))") == "2097152"


def test_the_convention_is_remembered(page, converter):
    converter.type("1")
    converter.post({"category": "data", "from": "gigabyte", "to": "megabyte"})
    page.open("/converter")
    wait_labels(page, "1", "1,024", "1 GB in MB, binary")
    page.find("label.segmented__item:has(#converter-convention-decimal)").click()
    wait_labels(page, "1", "1,000", "after choosing decimal sizes")
    assert page.text("#converter-convention-caption") == "1 kB = 1,000 B"
    page.find("label.segmented__item:has(#converter-convention-iec)").click()
    wait_labels(page, "1", "1,024", "after choosing IEC sizes")
    assert symbols(page) == ("GiB", "MiB")
    # Another visit (a reload) shows the same convention.
    page.open("/converter")
    assert page.js("return document.querySelector('#converter-convention-iec').checked")
    assert symbols(page) == ("GiB", "MiB")
    # Other categories don't show the convention.
    choose_category(page, "length")
    assert not page.exists("#converter-conventions")


@pytest.mark.parametrize("size", [(390, 844), (375, 667), (1024, 1366)], ids=["390x844", "375x667", "ipad"])
def test_three_category_segments_and_more(page, converter, size):
    """Apple keeps a phone's segmented control to about five segments: three categories and "More" (the
    other seven) fit without sideways scrolling, and every category is one or two taps away."""
    page.set_viewport(*size, mobile=size[0] < 800, reload=False)
    page.open("/converter")
    seg = ".converter__categories"
    widths = page.js("const s = document.querySelector(arguments[0]); return [s.scrollWidth, s.clientWidth]", seg)
    assert widths[0] <= widths[1], f"the category control scrolls sideways: {widths}"
    shown = page.js("""return [...document.querySelectorAll('.converter__categories > label, #converter-more-toggle')]
        .filter(l => l.getBoundingClientRect().height > 0).map(l => l.textContent.trim())""")
    assert shown == ["Data", "Temperature", "Length", "More"], shown
    page.find("#converter-more-toggle").click()
    menu = page.js("""return [...document.querySelectorAll('#converter-more-menu label')]
        .filter(l => { const r = l.getBoundingClientRect(); return r.height >= 44 && r.bottom <= innerHeight && r.right <= innerWidth; })
        .map(l => l.textContent.trim())""")
    assert menu == ["Mass", "Volume", "Area", "Speed", "Time", "Energy", "Pressure"], f"the More menu shows {menu}"
    page.find("label:has(> #converter-category-pressure)").click()
    page.wait("document.querySelector('#converter-category-pressure')?.checked && "
              "!document.documentElement.classList.contains('is-loading')", 10, "Pressure was not chosen")
    assert symbols(page) == ("bar", "psi")
    # The chosen category's name takes the place of "More", which looks chosen.
    assert page.text("#converter-more-toggle") == "Pressure"
    assert page.js("return document.querySelector('#converter-more').hasAttribute('data-chosen')")
    assert not page.js("return document.querySelector('#converter-more').open"), "the menu stays open after choosing"
    # Escape closes the menu and gives focus back to "More".
    page.find("#converter-more-toggle").click()
    page.wait("document.querySelector('#converter-more').open", 10, "More did not open again")
    page.js("document.querySelector('#converter-category-mass').focus()")
    page.driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    page.wait("!document.querySelector('#converter-more').open && document.activeElement?.id === 'converter-more-toggle'", 10,
              "Escape did not close the menu")
    choose_category(page, "data")


# Portrait phones from the smallest Pocket supports to the largest: iPhone SE, 13 mini's CSS size
# aside, iPhone 14/15, 14 Plus, 15 Pro Max.
PHONES = [(375, 667), (390, 844), (393, 852), (414, 896), (430, 932)]


@pytest.mark.parametrize("width, height", PHONES)
@pytest.mark.parametrize("category", ["data", "temperature", "pressure", "energy"])
def test_the_whole_converter_fits_every_phone(page, converter, category, width, height):
    page.set_viewport(width, height, reload=False)
    page.open("/converter")
    choose_category(page, category)
    # A category changed on the phone lays the screen out again in place: let that settle first.
    try:
        page.wait("document.scrollingElement.scrollHeight <= innerHeight + 1", 10, "")
    except AssertionError:
        pass  # reported below, with the sizes
    c = Checks()
    # One reading for the check and its message, so the message shows the height that failed.
    scroll_height, inner_height = page.js("return [document.scrollingElement.scrollHeight, innerHeight]")
    c.that(scroll_height <= inner_height + 1, f"{category}: the page scrolls ({scroll_height} px in {inner_height})")
    for sel in (".converter__categories", ".converter__display", ".converter__keypad", "#converter-key-0", "#converter-key-point"):
        r = page.rect(sel)
        c.that(r["bottom"] <= height + 0.5 and r["top"] >= 0, f"{category}: {sel} is at {r['top']:.0f}..{r['bottom']:.0f}, off the {height} px screen")
    c.done()
    choose_category(page, "data")


@pytest.mark.parametrize("width, height", [(375, 667), (667, 375)])
def test_a_long_result_stays_on_one_line_on_a_small_phone(page, converter, width, height):
    # Short screens lower the numbers' largest size; that must not undo the size that fits a long number.
    page.set_viewport(width, height, reload=False)
    page.open("/converter")
    choose_category(page, "temperature")
    # Whichever units earlier tests left chosen: the typed side is what matters, and both sides are checked.
    # The typed value outlives a category change (the run before this one leaves 273.15), so clear it first.
    for key, frm in (("clear", "0"), ("2", "2"), ("7", "27"), ("3", "273"), ("point", "273."), ("1", "273.1"), ("5", "273.15"), ("sign", "−273.15")):
        page.find(f"#converter-key-{key}").click()
        page.wait(f"document.querySelector('{FROM}')?.textContent.trim() === {frm!r} && "
                  "!document.documentElement.classList.contains('is-loading')", 10, f"after pressing {key}: {labels(page)!r}")
    lines = page.js("""return [...document.querySelectorAll('.converter__number')].map(e => {
        const lineHeight = parseFloat(getComputedStyle(e).lineHeight);
        return [e.textContent.trim(), Math.round(e.getBoundingClientRect().height / lineHeight * 100) / 100];
    })""")
    assert all(height_in_lines < 1.5 for _, height_in_lines in lines), f"at {width}x{height} a number wraps (text, height in lines): {lines}"
    if height > width:
        assert page.js("return document.scrollingElement.scrollHeight <= innerHeight + 1"), \
            f"the page scrolls ({page.js('return document.scrollingElement.scrollHeight')} px in {height})"
    choose_category(page, "data")


def test_without_javascript_the_same_forms_convert(page, converter):
    page.disable_scripts()
    page.open("/converter")
    assert page.find("#converter-apply").is_displayed(), "without JavaScript the Convert button must show"
    # The chosen units start in the middle of their wheels even without pocket.js (CSS scroll-initial-target).
    for wheel in ("#converter-from-wheel", "#converter-to-wheel"):
        row = centred(page, wheel)
        assert row["value"] == "byte" and row["offset"] < 2, f"{wheel}: Byte should be centred without JavaScript, got {row}"
    page.find("#converter-key-7").click()
    page.wait(f"document.querySelector('{FROM}')?.textContent.trim() === '7'", 10, "the 7 key did not post")
    assert labels(page) == ("7", "7")
    # Pick a unit on the right wheel, then Convert.
    page.find("#converter-to-wheel label.wheel__item:has(input[value=bit])").click()
    page.find("#converter-apply").click()
    page.wait(f"document.querySelector('{TO}')?.textContent.trim() === '56'", 10, f"Convert did not apply the wheel: {labels(page)}")
    # A wheel change and a key in one submission.
    page.find("#converter-from-wheel label.wheel__item:has(input[value=kilobyte])").click()
    page.find("#converter-key-point").click()
    page.wait(f"document.querySelector('{FROM}')?.textContent.trim() === '7.'", 10, "the '.' key did not post")
    assert labels(page) == ("7.", "57,344")
    assert not page.exists("#converter-copy") or not page.find("#converter-copy").is_displayed()


def test_errors_are_friendly_pages(page, converter):
    res = http_request(page.url("/converter"), "POST", {"_csrf": converter.token, "from": "furlong"}, follow_redirects=False)
    assert res.status == 400 and "There is no unit “furlong”." in res.text
    res = http_request(page.url("/converter"), "POST", {"key": "5"}, follow_redirects=False)
    assert res.status == 403


# --------------------------------------------------------------------------- layout


@pytest.mark.parametrize("viewport", ["iphone-portrait", "iphone-landscape", "ipad"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_layout_and_contrast(page, converter, viewport, scheme):
    converter.post({"category": "temperature"})
    converter.post({"category": "temperature", "from": "celsius", "to": "fahrenheit"})
    converter.type("36.6")
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.set_scheme(scheme)
    page.open("/converter")
    c = Checks()
    ok, why = page.no_horizontal_overflow()
    c.that(ok, why)
    keys = page.js("""return [...document.querySelectorAll('.converter__key')].map(k => {
        const r = k.getBoundingClientRect(); return {id: k.id, w: r.width, h: r.height, bottom: r.bottom, dataKey: k.dataset.key}; })""")
    c.equal(len(keys), 14, "keypad keys")
    for k in keys:
        c.that(k["w"] >= 44 and k["h"] >= 44, f"{k['id']} is {k['w']:.0f}×{k['h']:.0f}, smaller than 44×44")
        c.that(k["dataKey"], f"{k['id']} has no keyboard shortcut")
    height = page.js("return innerHeight")
    keypad = page.rect(".converter__keypad")
    display = page.rect(".converter__display")
    c.that(keypad["bottom"] <= height + 1, f"the keypad ends at {keypad['bottom']:.0f}, below the screen ({height})")
    c.that(display["bottom"] <= height + 1, f"the wheels and values end at {display['bottom']:.0f}, below the screen ({height})")
    if viewport == "iphone-landscape":
        c.that(keypad["left"] >= display["right"], f"landscape: keypad {keypad} should sit beside the wheels {display}")
    else:
        c.that(keypad["top"] >= display["bottom"], f"portrait: keypad {keypad} should sit below the wheels {display}")
    # Values are right-aligned under their wheels.
    for sel in (FROM, TO):
        edge = page.js("""const o = document.querySelector(arguments[0]), p = o.parentElement.getBoundingClientRect(), r = o.getBoundingClientRect();
            return p.right - r.right;""", sel)
        c.that(abs(edge) < 2, f"{sel} is not right-aligned ({edge:.1f}px from its column's edge)")
    c.equal(labels(page), ("36.6", "97.88"), "labels")
    result = page.js(CONTRAST_JS, "[data-screen]")
    c.that(not result["failures"], format_contrast_failures(result))
    c.done()
