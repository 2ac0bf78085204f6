/*
 * controls.js: the design system's controls: keypad shortcuts, copy buttons, sounds, steppers,
 * sliders, wheel pickers, popovers, sideways scrollers, and the bars' measured heights.
 */
import { $$, announce, fire, onScreen, reduceMotion, screenEl, teardown } from '../core/dom.js';

const hasScrollEnd = 'onscrollend' in window;
const sounds = new Map();              // url -> HTMLAudioElement

// Keyboard shortcuts for on-screen keypads: a key press clicks the visible, enabled button whose
// data-key lists it (e.g. data-key="5", data-key="Backspace Delete"), unless the user is typing.
document.addEventListener('keydown', (e) => {
  if (e.defaultPrevented || e.metaKey || e.ctrlKey || e.altKey || e.isComposing) return;
  // Typing into a field is typing, but a focused radio, checkbox or button still lets keys through.
  const typing = 'input:not([type=radio], [type=checkbox], [type=range], [type=button], [type=submit], [type=reset]), textarea, select, [contenteditable], dialog[open]';
  if (e.target.closest?.(typing)) return;
  const screen = screenEl();
  const button = screen && [...screen.querySelectorAll('button[data-key]')]
    .find((b) => !b.disabled && b.dataset.key.split(' ').includes(e.key));
  if (!button) return;
  e.preventDefault();
  button.classList.add('is-pressed'); // the same feedback a tap gives
  setTimeout(() => button.classList.remove('is-pressed'), 120);
  button.click();
});

// Copy buttons: data-copy holds the text; the result is announced for screen readers.
document.addEventListener('click', async (e) => {
  const btn = e.target.closest?.('[data-copy]');
  if (!btn) return;
  e.preventDefault();
  try {
    await navigator.clipboard.writeText(btn.dataset.copy);
    announce(btn.dataset.copied ?? 'Copied');
    btn.classList.add('is-copied');
    setTimeout(() => btn.classList.remove('is-copied'), 1200);
  } catch { announce('Copying is not allowed here'); }
});

/** Play a (short) sound; only call from a user gesture, autoplay rules apply. */
export function playSound(url) {
  const key = new URL(url, location.href).href;
  let audio = sounds.get(key);
  if (!audio) sounds.set(key, (audio = new Audio(key)));
  audio.currentTime = 0;
  return audio.play().catch(() => {}); // blocked or missing sound is not worth an error
}

document.addEventListener('click', (e) => {
  const el = e.target.closest?.('[data-sound]');
  if (el) playSound(el.dataset.sound);

  const step = e.target.closest?.('[data-stepper] [data-step]');
  const input = step?.closest('[data-stepper]').querySelector('input');
  if (input && !input.disabled && !input.readOnly) {
    const n = Number(step.dataset.step) || 0, before = input.value;
    try { n < 0 ? input.stepDown(-n) : input.stepUp(n); } catch { /* not a steppable input */ }
    if (input.value !== before) fire(input, 'input', 'change');
  }
});

function fill(range) {
  const min = Number(range.min) || 0, max = range.max === '' ? 100 : Number(range.max);
  const pct = max > min ? ((range.valueAsNumber - min) / (max - min)) * 100 : 0;
  range.style.setProperty('--fill', `${Math.round(pct * 100) / 100}%`); // CSSOM is allowed by the CSP
}

// Wheel picker: a scroll-snap list of radios; the item nearest the centre is the selection.
const items = (wheel) => [...wheel.querySelectorAll('.wheel__item')];
function centre(wheel, item, behavior) {
  if (!item || !wheel.clientHeight) return;
  const w = wheel.getBoundingClientRect(), r = item.getBoundingClientRect();
  const top = wheel.scrollTop + (r.top - w.top - wheel.clientTop) - (wheel.clientHeight - r.height) / 2;
  wheel.scrollTo({ top, behavior });
}
function markWheel(wheel) {
  for (const item of items(wheel)) item.classList.toggle('is-selected', !!item.querySelector('input:checked'));
}
function settleWheel(wheel) {
  if (!wheel.clientHeight) return;
  const w = wheel.getBoundingClientRect(), mid = w.top + w.height / 2;
  let best = null, dist = Infinity;
  for (const item of items(wheel)) {
    const r = item.getBoundingClientRect(), d = Math.abs(r.top + r.height / 2 - mid);
    if (d < dist) [best, dist] = [item, d];
  }
  const radio = best?.querySelector('input[type=radio]');
  if (radio && !radio.checked && !radio.disabled) { radio.checked = true; fire(radio, 'input', 'change'); }
  markWheel(wheel);
}
document.addEventListener('scrollend', (e) => { if (e.target.matches?.('[data-wheel]')) settleWheel(e.target); }, true);
// Browsers without scrollend (iOS 17): settle a wheel once its scrolling pauses.
document.addEventListener('scroll', (e) => {
  if (hasScrollEnd || !e.target.matches?.('[data-wheel]')) return;
  clearTimeout(e.target.settleTimer);
  e.target.settleTimer = setTimeout(() => settleWheel(e.target), 120);
}, { capture: true, passive: true });

document.addEventListener('change', (e) => {
  const t = e.target;
  if (!t.matches?.('[data-wheel] input[type=radio]')) return;
  const wheel = t.closest('[data-wheel]');
  centre(wheel, t.closest('.wheel__item'), reduceMotion.matches ? 'instant' : 'smooth');
  markWheel(wheel);
});

document.addEventListener('input', (e) => {
  const t = e.target;
  if (t.type !== 'range') return;
  fill(t);
  const outputs = t.id ? document.querySelectorAll(`output[for~="${CSS.escape(t.id)}"]`) : [];
  for (const o of outputs) o.value = t.value + (o.dataset.unit ?? ''); // data-unit: optional suffix
});

// Popovers (<details data-popover>: the section index, the converter's "More" categories): choosing
// an item inside closes it (the link jumps, the radio submits); so do Escape and a tap elsewhere.
document.addEventListener('click', (e) => {
  for (const pop of document.querySelectorAll('details[data-popover][open]')) {
    if (!pop.contains(e.target) || e.target.closest('a[href], input')) pop.open = false;
  }
  // A letter scrolls its section to the top of the list's own scroller (a split view's pane, the design
  // page's demo), not the whole page, which is what following the #fragment would do.
  const letter = e.target.closest?.('.section-index__letters a[href^="#"]');
  const section = letter && document.getElementById(decodeURIComponent(letter.hash.slice(1)));
  if (!section) return;
  e.preventDefault();
  section.scrollIntoView({ block: 'start', behavior: reduceMotion.matches ? 'instant' : 'smooth', container: 'nearest' });
});
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape') return;
  const pop = e.target.closest?.('details[data-popover][open]');
  if (!pop) return;
  e.stopImmediatePropagation(); // Escape closes the popover only (not also the converter's Clear key)
  e.preventDefault();
  pop.open = false;
  pop.querySelector('summary')?.focus();
}, true);

// A sideways scroller ([data-scroll-edges]) says which of its edges hide more (its CSS fades those).
function markEdges(el) {
  const max = el.scrollWidth - el.clientWidth;
  el.classList.toggle('is-scrollable', max > 1);
  el.classList.toggle('is-at-start', el.scrollLeft <= 1);
  el.classList.toggle('is-at-end', el.scrollLeft >= max - 1);
}

/** Sets up the controls inside `scope` (a screen, or a fragment a live update patched in). */
export function initControls(scope) {
  for (const range of $$(scope, 'input[type=range]')) fill(range);
  for (const el of $$(scope, '[data-scroll-edges]')) {
    markEdges(el);
    el.addEventListener('scroll', () => markEdges(el), { passive: true });
    const ro = new ResizeObserver(() => markEdges(el));
    ro.observe(el);
    teardown.push(() => ro.disconnect());
  }
  const wheels = $$(scope, '[data-wheel]');
  if (!wheels.length) return;
  // Centre the checked item whenever the wheel gets a size: at init, and when a closed
  // dialog or hidden panel containing it is shown later.
  const ro = new ResizeObserver((entries) => {
    for (const { target, contentRect } of entries) {
      if (!contentRect.height) continue;
      centre(target, target.querySelector('input:checked')?.closest('.wheel__item'), 'instant');
      markWheel(target);
    }
  });
  wheels.forEach((w) => ro.observe(w));
  teardown.push(() => ro.disconnect());
}

// The bars' real heights (they grow with the text size and a large title) as --navbar-height and
// --toolbar-height on the screen, so sticky and floating things stay clear of them.
function measureBars(screen) {
  const ro = new ResizeObserver(() => {
    const nav = screen.querySelector(':scope > .navbar'), bar = screen.querySelector(':scope > .toolbar, :scope > footer.toolbar');
    screen.style.setProperty('--navbar-height', `${nav ? nav.getBoundingClientRect().height : 0}px`);
    screen.style.setProperty('--toolbar-height', `${bar ? bar.getBoundingClientRect().height : 0}px`);
  });
  for (const el of screen.querySelectorAll(':scope > .navbar, :scope > .toolbar')) ro.observe(el);
  teardown.push(() => ro.disconnect());
}

onScreen(measureBars);
onScreen(initControls);
