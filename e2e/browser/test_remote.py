"""13. Remote: the TV and DVR remotes, the DVR's action sheet and alert, the flip between the remotes, the
favourites editor, and the Screen page that a second browser watches live.

The simulated TV and DVR live on the server and are shared by every browser (and by every test of the session),
so each test starts from factory-fresh devices through the `devices` fixture (Reset over raw HTTP). Setup that is
not under test (switching a device on first) also goes over HTTP; everything under test goes through the browser.
"""

import itertools
import re

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from pocket_helpers import (CONTRAST_JS, SCHEMES, VIEWPORTS, Checks, Page, format_contrast_failures, http_request,
                            make_driver)
from test_accessibility import A11Y_JS

# --------------------------------------------------------------------------- the devices over HTTP


class Devices:
    """One more remote for the (household-wide) devices, over raw HTTP: another of the owner's devices."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        res = http_request(base_url + "/remote/screen")
        assert res.status == 200, f"GET /remote/screen answered {res.status}"
        m = re.search(r'<meta name="csrf-token" content="([^"]+)"', res.text)
        assert m, "the Screen page has no csrf-token meta tag"
        self.token = m.group(1)

    def post(self, path: str, data: dict | None = None):
        res = http_request(self.base_url + path, "POST", {**(data or {}), "_csrf": self.token}, follow_redirects=False)
        assert res.status == 303, f"POST {path} answered {res.status}, expected 303 See Other"
        return res

    def reset(self):
        self.post("/remote/reset")

    def tv_on(self):
        self.post("/remote/tv/power", {"power": "on"})

    def digits(self, text: str):
        for digit in text:
            self.post(f"/remote/tv/digit/{digit}")

    def channel(self) -> int:
        """The channel the shared TV is on, as the Screen shows it."""
        m = re.search(r'id="screen-channel">(\d+)<', self.page("/remote/screen"))
        assert m, "the Screen shows no channel"
        return int(m.group(1))

    def dvr_on(self):
        self.post("/remote/dvr/power", {"power": "on"})

    def press(self, button: str):
        return self.post(f"/remote/dvr/press/{button}")

    def page(self, path: str) -> str:
        res = http_request(self.base_url + path)
        assert res.status == 200, f"GET {path} answered {res.status}"
        return res.text


@pytest.fixture
def devices(server):
    """Factory-fresh devices: both off, channel 01, volume 50, the default favourites, nothing recorded."""
    d = Devices(server.base_url)
    d.reset()
    assert '<p class="picture__no-signal" id="screen-no-signal"' in d.page("/remote/screen"), "Reset left the TV on"
    return d


@pytest.fixture
def second(server):
    """A second browser (another phone, or the TV's own browser), signed in as its own device."""
    driver = make_driver()
    cookie, _ = server.sign_in()
    p = Page(driver, server.base_url, cookie=cookie.split("=", 1)[1])
    p.reset()
    yield p
    driver.quit()


# --------------------------------------------------------------------------- page helpers


def click(page, css: str):
    # A button in a sheet or alert is clicked only once the dialog has finished sliding in: a click
    # while it moves can land on whatever is still under the pointer.
    dialog = page.js("const d = document.querySelector(arguments[0])?.closest('dialog[id]'); return d ? d.id : null", css)
    if dialog:
        page.settle(f"#{dialog}")
    page.js("document.querySelector(arguments[0]).scrollIntoView({block: 'center', behavior: 'instant'})", css)
    page.find(css).click()


def wait_text(page, css: str, text: str, timeout: float = 15):
    page.wait(f"document.querySelector({css!r})?.textContent.trim() === {text!r}", timeout,
              f"{css} should read {text!r}, reads {page.text(css)!r} (path {page.path()!r})")


def wait_title(page, title: str, timeout: float = 15):
    page.wait(f"document.querySelector('[data-screen] h1.navbar__title')?.textContent.trim() === {title!r}", timeout,
              f"the screen should be {title!r}, is {page.h1()!r} (path {page.path()!r})")


def channel(page) -> str | None:
    return page.text("#tv-channel")


def press_keys(page, keys: str):
    for key in keys:
        before = page.js("return document.querySelector('[data-screen]')")
        click(page, f"#tv-key-{key}")
        # Each press is a POST whose answer replaces the screen; wait for it before the next one.
        page.wait(lambda d: d.execute_script("return document.querySelector('[data-screen]')") != before, 10,
                  f"pressing {key} did not update the remote")


def set_field(page, css: str, value: str):
    el = page.find(css)
    el.clear()
    el.send_keys(value)


def controls_state(page) -> dict:
    """Every control on the remote (but power) and whether it is disabled."""
    return page.js("""return Object.fromEntries([...document.querySelectorAll('.remote button, .remote input:not([type=hidden])')]
        .filter(el => !el.matches('.js-hidden, .remote__apply, [role=switch]')).map(el => [el.id, el.disabled]));""")


# --------------------------------------------------------------------------- 1. the TV remote


def test_keypad_enters_channels_and_00_is_not_one(page, devices):
    devices.tv_on()
    page.open("/remote/tv")
    marker = page.mark()
    c = Checks()
    c.equal(channel(page), "01", "channel of a fresh set")
    press_keys(page, "4")
    c.equal(channel(page), "4-", "the first digit is shown while waiting for the second")
    c.equal(page.text("#tv-pending"), "Enter the second digit", "pending hint")
    press_keys(page, "2")
    c.equal(channel(page), "42", "two presses tune")
    c.that(not page.exists("#tv-pending"), "the pending hint should go once the channel is entered")
    press_keys(page, "00")
    c.equal(channel(page), "42", "00 leaves the channel unchanged")
    c.equal(page.text("#tv-notice"), "00 is not a channel", "00's hint")
    press_keys(page, "7")
    c.that(not page.exists("#tv-notice"), "the hint goes with the next press")
    c.equal(channel(page), "7-", "after the hint, a new channel starts")
    c.equal(page.path(), "/remote/tv", "presses keep the URL")
    c.equal(page.marker(), marker, "presses swap the screen in place (no full page load)")
    c.done()


def test_a_lone_first_digit_is_dropped_after_a_few_seconds(page, devices):
    devices.tv_on()
    page.open("/remote/tv")
    marker = page.mark()
    press_keys(page, "4")
    assert channel(page) == "4-"
    # Like a real set, the remote gives up on the second digit: the "4-" goes without a reload.
    wait_text(page, "#tv-channel", "01", 15)
    c = Checks()
    c.that(not page.exists("#tv-pending"), "the pending hint should go with the digit")
    c.equal(page.marker(), marker, "the digit went without a full page load")
    c.done()
    # The server agrees: a reload shows no digit, and the next digit starts a new channel.
    page.open("/remote/tv")
    wait_text(page, "#tv-channel", "01")
    press_keys(page, "2")
    assert channel(page) == "2-", f"the next digit should start a new channel, the display reads {channel(page)!r}"


def test_keyboard_digits_press_the_tv_keypad(page, devices):
    devices.tv_on()
    page.open("/remote/tv")
    page.js("document.activeElement?.blur()")
    ActionChains(page.driver).send_keys("4").perform()
    wait_text(page, "#tv-channel", "4-")
    ActionChains(page.driver).send_keys("2").perform()
    wait_text(page, "#tv-channel", "42")
    # Typing digits into a text field is typing, not pressing the keypad.
    page.js("""const i = Object.assign(document.createElement('input'), {type: 'text', id: 'typing-test'});
        document.querySelector('#remote-tv').prepend(i); i.focus();""")
    ActionChains(page.driver).send_keys("7").perform()
    page.wait("document.querySelector('#typing-test')?.value === '7'", 10, "the digit did not reach the text field")
    assert devices.channel() == 42, "a digit typed into a text field pressed the keypad"
    assert channel(page) == "42"


def test_channel_up_and_down_wrap_around(page, devices):
    devices.tv_on()
    devices.digits("99")
    page.open("/remote/tv")
    wait_text(page, "#tv-channel", "99")
    click(page, "#tv-channel-up")
    wait_text(page, "#tv-channel", "01")
    click(page, "#tv-channel-down")
    wait_text(page, "#tv-channel", "99")
    click(page, "#tv-channel-down")
    wait_text(page, "#tv-channel", "98")


def test_power_off_disables_every_other_control(page, devices):
    page.open("/remote/tv")
    c = Checks()
    off = controls_state(page)
    c.that(len(off) >= 17, f"expected keypad, rocker, presets and slider, found {sorted(off)}")
    c.that(all(off.values()), f"with the TV off these should be disabled: {sorted(k for k, v in off.items() if not v)}")
    c.equal(page.text("#tv-power-state"), "Off", "status")
    c.equal(page.js("return document.querySelector('#tv-edit-favourites').getAttribute('aria-disabled')"), "true",
            "the favourites editor is unavailable while off")
    c.that(float(page.js("return getComputedStyle(document.querySelector('.remote__pad')).opacity")) < 0.6,
           "disabled keys should look disabled")
    click(page, "#tv-power")
    wait_text(page, "#tv-power-state", "On")
    on = controls_state(page)
    c.that(not any(on.values()), f"with the TV on these should be enabled: {sorted(k for k, v in on.items() if v)}")
    c.equal(page.js("return document.activeElement?.id"), "tv-power", "focus stays on the switch")
    click(page, "#tv-power")
    wait_text(page, "#tv-power-state", "Off")
    c.done()


def test_volume_slider_and_presets(page, devices):
    devices.tv_on()
    page.open("/remote/tv")
    page.js("""const s = document.querySelector('#tv-volume'); s.value = 80;
               s.dispatchEvent(new Event('input', {bubbles: true})); s.dispatchEvent(new Event('change', {bubbles: true}));""")
    wait_text(page, "#tv-volume-state", "80")
    click(page, "#tv-preset-2")
    wait_text(page, "#tv-channel", "11")
    c = Checks()
    c.equal(page.js("return document.querySelector('#tv-preset-2').getAttribute('aria-pressed')"), "true", "FOX is on")
    c.equal(page.js("return document.querySelector('#tv-preset-0').getAttribute('aria-pressed')"), "false", "ABC is not")
    c.equal(page.text("#tv-preset-2"), "FOX", "preset label")
    c.done()


# --------------------------------------------------------------------------- 2. favourites


def test_favourites_save_a_valid_edit(page, devices):
    devices.tv_on()
    page.open("/remote/tv")
    click(page, "#tv-edit-favourites")
    wait_title(page, "Favourites")
    set_field(page, "#favourite-label-0", "hbo")
    click(page, "#favourite-channel-0 + .stepper__button")  # 07 -> 08
    assert page.js("return document.querySelector('#favourite-channel-0').value") == "8"
    click(page, "#favourites-save")
    wait_title(page, "My TV")
    c = Checks()
    c.equal(page.path(), "/remote/tv", "Save returns to the remote")
    c.equal(page.text("#tv-preset-0"), "HBO", "the new label, in capitals")
    click(page, "#tv-preset-0")
    wait_text(page, "#tv-channel", "08")
    c.done()


def test_favourites_invalid_label_alerts_and_saves_nothing(page, devices):
    devices.tv_on()
    page.open("/remote/tv/favourites")
    c = Checks()
    for bad in ("B4D", "", "NEWS5"):
        set_field(page, "#favourite-label-1", bad)
        set_field(page, "#favourite-label-3", "PBS")  # a valid change in the same save must not land either
        click(page, "#favourites-save")
        page.wait("document.getElementById('favourites-alert')?.open === true", 10, f"no alert for label {bad!r}")
        c.equal(page.text("#favourites-alert-title"), "Invalid Label", f"alert title for {bad!r}")
        c.equal(page.text("#favourites-alert-message"), "Favourite 2: Label must be 1 to 4 letters.", f"alert for {bad!r}")
        c.equal(page.js("return document.activeElement?.id"), "favourites-alert-ok", "OK has the focus")
        c.equal(page.js("return document.querySelector('#favourite-label-1').value"), bad, "the typed text is kept")
        click(page, "#favourites-alert-ok")
        page.wait("!document.getElementById('favourites-alert')?.open", 10, "OK should close the alert")
    html = devices.page("/remote/tv")
    c.that('aria-label="CBS, channel 02"' in html and 'aria-label="NBC, channel 04"' in html,
           "nothing may be saved after an invalid label")
    # Cancel leaves without saving.
    page.open("/remote/tv/favourites")
    set_field(page, "#favourite-label-0", "ZZZ")
    click(page, "#favourites-cancel")
    wait_title(page, "My TV")
    c.equal(page.text("#tv-preset-0"), "ABC", "Cancel saves nothing")
    c.done()


# --------------------------------------------------------------------------- 3. the DVR: action sheet and alert


def open_dvr_playing(page, devices):
    """The DVR remote, on and playing, so Record is refused with the action sheet."""
    devices.dvr_on()
    devices.press("play")
    page.open("/remote/dvr")
    wait_text(page, "#dvr-state", "Playing")


def test_refused_press_offers_cancel_or_force(page, devices):
    open_dvr_playing(page, devices)
    c = Checks()
    # Refused: the action sheet explains why.
    click(page, "#dvr-record")
    page.wait("document.getElementById('dvr-sheet')?.open === true", 10, "Record while playing should open the sheet")
    page.settle("#dvr-sheet")
    c.equal(page.text("#dvr-sheet-message"), "Can't record while playing. Stop playing and record?", "warning")
    c.equal(page.text("#dvr-sheet-force"), "Stop Playing and Record", "force button")
    c.equal(page.text("#dvr-sheet-cancel"), "Cancel", "cancel button")
    c.equal(page.js("return document.activeElement?.id"), "dvr-sheet-cancel", "Cancel has the focus")
    c.that(page.js("return document.querySelector('#remote-dvr').inert"), "the remote behind the sheet is inert")
    sheet = page.rect("#dvr-sheet")
    c.that(sheet and sheet["bottom"] <= page.viewport[1] + 1 and sheet["top"] > page.viewport[1] / 3,
           f"the sheet should sit at the bottom of the screen: {sheet}")
    # Cancel: nothing changes.
    click(page, "#dvr-sheet-cancel")
    page.wait("!document.getElementById('dvr-sheet')", 10, "Cancel should close the sheet")
    c.equal(page.text("#dvr-state"), "Playing", "state after Cancel")
    # Force: stop first, then the alert, then the new state.
    click(page, "#dvr-record")
    page.wait("document.getElementById('dvr-sheet')?.open === true", 10, "the sheet should open again")
    click(page, "#dvr-sheet-force")
    page.wait("document.getElementById('dvr-alert')?.open === true", 10, "forcing should confirm with an alert")
    c.equal(page.text("#dvr-alert-title"), "Operation Stopped", "alert title")
    c.equal(page.text("#dvr-alert-message"), "Playing was stopped. Now recording.", "alert message")
    c.equal(page.text("#dvr-state"), "Recording", "state behind the alert")
    click(page, "#dvr-alert-ok")
    page.wait("!document.getElementById('dvr-alert')", 10, "OK should close the alert")
    c.equal(page.text("#dvr-state"), "Recording", "state after OK")
    c.equal(page.js("return document.querySelector('#dvr-record').getAttribute('aria-pressed')"), "true", "Record is lit")
    c.done()


def test_pressing_the_button_of_a_refused_state_again_asks_too(page, devices):
    devices.dvr_on()
    devices.press("play")
    devices.press("pause")
    page.open("/remote/dvr")
    wait_text(page, "#dvr-state", "Paused")
    c = Checks()
    # Pause while paused: refused like any other press the rules refuse, never silently ignored.
    click(page, "#dvr-pause")
    page.wait("document.getElementById('dvr-sheet')?.open === true", 10, "Pause while paused should open the sheet")
    page.settle("#dvr-sheet")
    c.equal(page.text("#dvr-sheet-message"), "Can't pause while paused. Stop pausing and pause?", "warning")
    c.equal(page.text("#dvr-sheet-force"), "Stop Pausing and Pause", "force button")
    click(page, "#dvr-sheet-cancel")
    page.wait("!document.getElementById('dvr-sheet')", 10, "Cancel should close the sheet")
    c.equal(page.text("#dvr-state"), "Paused", "state after Cancel")
    # Forcing stops pausing and pauses again.
    click(page, "#dvr-pause")
    page.wait("document.getElementById('dvr-sheet')?.open === true", 10, "the sheet should open again")
    click(page, "#dvr-sheet-force")
    page.wait("document.getElementById('dvr-alert')?.open === true", 10, "forcing should confirm with an alert")
    c.equal(page.text("#dvr-alert-message"), "Pausing was stopped. Now paused.", "alert message")
    click(page, "#dvr-alert-ok")
    page.wait("!document.getElementById('dvr-alert')", 10, "OK should close the alert")
    c.equal(page.text("#dvr-state"), "Paused", "state after forcing")
    c.done()


def test_escape_cancels_the_sheet_and_dismisses_the_alert(page, devices):
    open_dvr_playing(page, devices)
    c = Checks()
    click(page, "#dvr-record")
    page.wait("document.getElementById('dvr-sheet')?.matches(':modal') === true", 10, "the sheet should open as a modal dialog")
    ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
    page.wait("!document.getElementById('dvr-sheet')", 10, "Escape should cancel the sheet")
    c.equal(page.text("#dvr-state"), "Playing", "state after Escape")
    click(page, "#dvr-record")
    page.wait("document.getElementById('dvr-sheet')?.open === true", 10, "the sheet should open again")
    click(page, "#dvr-sheet-force")
    page.wait("document.getElementById('dvr-alert')?.matches(':modal') === true", 10, "the alert should be modal")
    ActionChains(page.driver).send_keys(Keys.ESCAPE).perform()
    page.wait("!document.getElementById('dvr-alert')", 10, "Escape should dismiss the alert like OK")
    c.equal(page.text("#dvr-state"), "Recording", "state after the alert")
    c.done()


def test_refused_press_without_javascript(page, devices):
    devices.dvr_on()
    devices.press("play")
    devices.press("pause")
    page.disable_scripts()
    page.open("/remote/dvr")
    c = Checks()
    c.equal(page.text("#dvr-state"), "Paused", "state")
    click(page, "#dvr-fast-forward")
    page.wait("location.search === '?confirm=fast-forward' && document.readyState === 'complete'", 10,
              "a refused press should lead to the sheet's page")
    c.equal(page.text("#dvr-sheet-message"), "Can't fast forward while paused. Stop pausing and fast forward?", "warning")
    c.that(page.find("#dvr-sheet").is_displayed(), "the sheet is shown without JavaScript")
    page.settle("#dvr-sheet")  # it slides up from below the screen: click once it has arrived
    click(page, "#dvr-sheet-cancel")
    page.wait("location.pathname === '/remote/dvr' && location.search === '' && document.readyState === 'complete'", 10,
              "Cancel leads back to the remote")
    c.equal(page.text("#dvr-state"), "Paused", "Cancel changes nothing")
    click(page, "#dvr-fast-forward")
    page.wait("location.search === '?confirm=fast-forward' && document.readyState === 'complete'", 10, "sheet again")
    page.settle("#dvr-sheet")
    click(page, "#dvr-sheet-force")
    page.wait("location.search.startsWith('?forced=') && document.readyState === 'complete'", 10,
              "forcing should lead to the alert's page")
    c.equal(page.text("#dvr-alert-message"), "Pausing was stopped. Now fast forwarding.", "alert")
    c.equal(page.text("#dvr-state"), "Fast forwarding", "state")
    click(page, "#dvr-alert-ok")
    page.wait("location.search === '' && document.readyState === 'complete'", 10, "OK leads back to the remote")
    c.that(not page.exists("dialog"), "no dialog after OK")
    c.done()


def test_dvr_power_switch_starts_stopped(page, devices):
    page.open("/remote/dvr")
    c = Checks()
    c.that(all(controls_state(page).values()), "every transport button is disabled while off")
    c.equal(page.text("#dvr-state"), "Off", "state while off")
    click(page, "#dvr-power")
    wait_text(page, "#dvr-state", "Stopped")
    c.that(not any(controls_state(page).values()), "transport enabled once on")
    c.equal(page.js("return document.querySelector('#dvr-stop').getAttribute('aria-pressed')"), "true", "Stop is lit")
    click(page, "#dvr-play")
    wait_text(page, "#dvr-state", "Playing")
    c.done()


# --------------------------------------------------------------------------- 4. switching remotes


FLIPPED_JS = """const r = document.querySelector('.remote');
return document.documentElement.dataset.transition === 'flip' || (r && getComputedStyle(r).animationName);"""


def test_toolbar_switch_flips_and_names_the_other_remote(page, devices):
    page.open("/remote/tv")
    c = Checks()
    c.equal(page.text("#remote-switch-label"), "DVR", "on the TV remote the switch names the DVR")
    c.equal(page.js("return document.querySelector('#remote-switch').textContent.replace(/\\s+/g, ' ').trim()"),
            "Switch to the DVR remote", "accessible name")
    click(page, "#remote-switch")
    wait_title(page, "My DVR")
    flip = page.js(FLIPPED_JS)
    c.that(flip is True or flip == "remote-flip-in", f"switching should flip the remote (got {flip!r})")
    c.equal(page.text("#remote-switch-label"), "TV", "on the DVR remote the switch names the TV")
    c.equal(page.path(), "/remote/dvr", "URL")
    click(page, "#remote-switch")
    wait_title(page, "My TV")
    c.equal(page.text("#remote-switch-label"), "DVR", "and back")
    # /remote reopens the remote used last.
    page.open("/remote/dvr")
    page.open("/remote")
    c.equal(page.path(), "/remote/dvr", "/remote opens the last remote")
    c.done()


def test_switch_cross_fades_with_reduced_motion(page, devices):
    page.emulate_media(prefers_reduced_motion="reduce")
    page.open("/remote/tv")
    click(page, "#remote-switch")
    wait_title(page, "My DVR")
    c = Checks()
    name = page.js("const r = document.querySelector('.remote'); return getComputedStyle(r).animationName")
    transition = page.js("return document.documentElement.dataset.transition")
    c.that(name == "remote-fade-in" or transition == "fade", f"reduced motion should cross-fade, got {name!r}/{transition!r}")
    c.done()


# --------------------------------------------------------------------------- 5. live updates across browsers


def test_screen_in_a_second_browser_follows_the_remotes(page, devices, second):
    second.set_viewport(1024, 768, mobile=False, reload=False)
    second.open("/remote/screen")
    c = Checks()
    c.that(second.exists("#screen-no-signal"), "the TV starts off: No signal")
    c.equal(second.text("#screen-dvr-state"), "Off", "the DVR starts off")
    page.open("/remote/tv")
    click(page, "#tv-power")
    wait_text(second, "#screen-channel", "01", timeout=10)
    press_keys(page, "07")
    wait_text(second, "#screen-channel", "07", timeout=10)
    c.equal(second.text("#screen-favourite"), "ABC", "channel 7 is a favourite: its name shows")
    click(page, "#tv-channel-up")
    wait_text(second, "#screen-channel", "08", timeout=10)
    c.that(not second.exists("#screen-favourite"), "channel 8 is no favourite")
    page.js("""const s = document.querySelector('#tv-volume'); s.value = 30;
               s.dispatchEvent(new Event('change', {bubbles: true}));""")
    second.wait("!!document.querySelector('#screen-volume')", 10, "a volume change should flash the volume bar")
    c.equal(second.js("return document.querySelector('#screen-volume progress').value"), 30, "volume bar")
    # The DVR: state and a running counter.
    click(page, "#remote-switch")
    wait_title(page, "My DVR")
    click(page, "#dvr-power")
    wait_text(second, "#screen-dvr-state", "Stopped", timeout=10)
    click(page, "#dvr-play")
    wait_text(second, "#screen-dvr-state", "Playing", timeout=10)
    first = second.text("#screen-dvr-clock-position")
    second.wait(f"document.querySelector('#screen-dvr-clock-position')?.textContent.trim() !== {first!r}", 10,
                "the playback position should tick while playing")
    click(page, "#dvr-record")
    page.wait("document.getElementById('dvr-sheet')?.open === true", 10, "Record while playing asks first")
    click(page, "#dvr-sheet-force")
    wait_text(second, "#screen-dvr-state", "Recording", timeout=10)
    c.that(second.exists("#screen-dvr-clock-recording"), "recording length shows")
    problems = [e["message"] for e in second.pull_console() if e.get("level") == "SEVERE"]
    c.that(not problems, f"the Screen logged errors: {problems}")
    c.done()


def test_two_remotes_stay_in_step(page, devices, second):
    devices.tv_on()
    second.open("/remote/tv")
    marker = second.mark()
    page.open("/remote/tv")
    press_keys(page, "12")
    wait_text(second, "#tv-channel", "12", timeout=10)
    c = Checks()
    c.equal(second.marker(), marker, "the other remote re-renders in place (no full page load)")
    click(page, "#tv-power")
    second.wait("document.querySelector('#tv-key-1')?.disabled === true", 10, "the other remote should show the TV off")
    c.done()


def test_two_phones_typing_digits_at_once_each_tune_what_they_typed(page, devices, second):
    """Each browser is its own signed-in device: a first digit waits on the phone that typed it."""
    devices.tv_on()
    page.open("/remote/tv")
    second.open("/remote/tv")
    # Quickly, as people type: a lone first digit is dropped after 3 seconds.
    press_keys(page, "4")
    press_keys(second, "7")
    c = Checks()
    c.equal(channel(second), "7-", "the second phone's pending digit")
    press_keys(page, "2")
    wait_text(page, "#tv-channel", "42")
    c.equal(devices.channel(), 42, "the first phone tuned 42 (not 47)")
    # The other phone still waits for its second digit, even after hearing of the change.
    second.wait("document.querySelector('#tv-channel')?.textContent.trim() === '7-'", 10, "the second phone lost its digit")
    press_keys(second, "5")
    wait_text(second, "#tv-channel", "75")
    c.equal(devices.channel(), 75, "the second phone tuned 75")
    wait_text(page, "#tv-channel", "75", timeout=10)
    c.done()


# --------------------------------------------------------------------------- 6. layout, contrast, accessibility


LAYOUT_JS = """
const r = (s) => { const e = document.querySelector(s); if (!e) return null; const b = e.getBoundingClientRect();
  return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width, height: b.height}; };
const keys = [...document.querySelectorAll('.key, .rocker, .transport__disc')].map(k => k.getBoundingClientRect());
return {remote: r('.remote'), column: r('.remote__column'), pad: r('.remote__pad') || r('.transport'),
        keys: keys.map(k => ({w: k.width, h: k.height, left: k.left, right: k.right}))};
"""


@pytest.mark.parametrize("viewport,scheme", list(itertools.product(VIEWPORTS, SCHEMES)))
@pytest.mark.parametrize("path", ["/remote/tv", "/remote/dvr"])
def test_remote_fits_every_screen(page, devices, path, viewport, scheme):
    devices.tv_on()
    devices.dvr_on()
    page.set_viewport(*VIEWPORTS[viewport], reload=False)
    page.set_scheme(scheme)
    page.open(path)
    c = Checks()
    ok, message = page.no_horizontal_overflow()
    c.that(ok, message)
    layout = page.js(LAYOUT_JS)
    width = page.viewport[0]
    for k in layout["keys"]:
        c.that(k["w"] >= 44 and k["h"] >= 44, f"touch target below 44 px: {k}")
        c.that(k["left"] >= 0 and k["right"] <= width, f"key outside the screen: {k}")
    if viewport == "iphone-landscape":
        c.that(layout["pad"]["left"] >= layout["column"]["right"] - 1,
               f"landscape should put the keys beside the display: {layout}")
    else:
        c.that(layout["pad"]["top"] >= layout["column"]["bottom"] - 1, f"portrait stacks the keys below: {layout}")
    result = page.js(CONTRAST_JS, ".navbar, .toolbar, .lcd, .remote")
    c.that(not result["failures"], format_contrast_failures(result))
    c.done()


@pytest.mark.parametrize("path", ["/remote/tv", "/remote/dvr", "/remote/dvr?confirm=record", "/remote/tv/favourites",
                                  "/remote/screen"])
def test_remote_pages_are_accessible(page, devices, path):
    devices.tv_on()
    devices.dvr_on()
    devices.press("play")
    page.open(path)
    problems = page.js(A11Y_JS)
    unnamed = page.js("""return [...document.querySelectorAll('.remote button')].filter(b => !(b.getAttribute('aria-label')
        || b.textContent.trim())).map(b => b.outerHTML.slice(0, 80));""")
    assert not problems and not unnamed, f"{path}:\n  " + "\n  ".join(problems + unnamed)


def test_sheet_and_alert_contrast_in_both_schemes(page, devices):
    devices.dvr_on()
    devices.press("play")
    c = Checks()
    for scheme in SCHEMES:
        page.set_scheme(scheme)
        page.open("/remote/dvr?confirm=record")
        page.settle("#dvr-sheet")
        result = page.js(CONTRAST_JS, "#dvr-sheet")
        c.that(result["checked"] > 0 and not result["failures"], format_contrast_failures(result))
    # The alert after a force.
    devices.post("/remote/dvr/force/record")
    for scheme in SCHEMES:
        page.set_scheme(scheme)
        page.open("/remote/dvr?forced=record&from=playing")
        page.settle("#dvr-alert")
        result = page.js(CONTRAST_JS, "#dvr-alert")
        c.that(result["checked"] > 0 and not result["failures"], format_contrast_failures(result))
    c.done()


def test_screen_states_fit_a_laptop_and_a_phone(page, devices):
    c = Checks()
    for viewport in ("ipad", "iphone-portrait", "iphone-landscape"):
        page.set_viewport(*VIEWPORTS[viewport], reload=False)
        page.open("/remote/screen")
        ok, message = page.no_horizontal_overflow()
        c.that(ok, f"{viewport}: {message}")
        tv = page.rect("#screen-tv")
        c.that(tv and abs(tv["width"] / tv["height"] - 16 / 9) < 0.05, f"{viewport}: the picture should be 16:9: {tv}")
        c.that(tv and tv["bottom"] <= page.viewport[1], f"{viewport}: the whole picture should be on screen: {tv}")
    devices.tv_on()
    page.open("/remote/screen")
    c.that(page.exists("#screen-channel"), "a TV that is on shows its channel")
    result = page.js(CONTRAST_JS, ".stb, .set__title, .toolbar")
    c.that(not result["failures"], format_contrast_failures(result))
    c.done()


def test_tv_remote_without_javascript(page, devices):
    page.disable_scripts()
    page.open("/remote/tv")
    c = Checks()
    apply = page.find(".remote__row:has(#tv-power) .remote__apply")
    c.that(apply.is_displayed(), "without JavaScript the switch has a visible Apply button")
    page.find("#tv-power").click()
    apply.click()
    page.wait("document.readyState === 'complete' && document.querySelector('#tv-power-state')?.textContent === 'On'", 10,
              "Apply should switch the TV on")
    click(page, "#tv-key-5")
    wait_text(page, "#tv-channel", "5-")
    click(page, "#tv-key-5")
    wait_text(page, "#tv-channel", "55")
    page.js("document.querySelector('#tv-volume').value = 20")
    click(page, "#tv-volume ~ .remote__apply")
    page.wait("document.querySelector('#tv-volume-state')?.textContent === '20'", 10, "Set should change the volume")
    c.equal(page.path(), "/remote/tv", "every press comes back to the remote")
    c.done()


def test_screen_reset_asks_first(page, devices):
    devices.tv_on()
    page.open("/remote/screen")
    click(page, "#screen-reset")
    page.wait("document.getElementById('remote-reset')?.open === true", 10, "Reset should ask first")
    c = Checks()
    c.equal(page.text("#remote-reset-title"), "Reset Both Devices?", "question")
    c.that(page.js("return document.getElementById('remote-reset').matches(':modal')"), "the question is modal")
    page.find("#remote-reset .alert__button--destructive").click()
    page.wait("!!document.querySelector('#screen-no-signal')", 10, "after Reset the TV is off")
    c.done()
