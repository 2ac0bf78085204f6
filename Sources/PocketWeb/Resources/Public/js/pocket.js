/*
 * pocket.js: the one progressive-enhancement module for Pocket.
 *
 * Every page works without this file: links navigate, forms post, dialogs open through invoker
 * commands. This module only makes that smoother (screen swaps with view transitions, history and
 * scroll bookkeeping, live updates over SSE, nicer controls). Whenever something here fails we fall
 * back to what the browser would have done anyway, so a bug can cost polish but never function.
 * Everything is delegated on `document` so it survives screen swaps; per-screen setup lives in
 * initScreen() and is undone through `teardown`.
 */

const root = document.documentElement;
root.classList.add('js');

const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');
const hasScrollEnd = 'onscrollend' in window;
const nativeCommands = 'command' in HTMLButtonElement.prototype;

const screenEl = () => document.querySelector('[data-screen]');
const scroller = () => screenEl()?.querySelector('.content');
// Like querySelectorAll, but also matches the scope itself (a patched fragment can *be* the control).
const $$ = (scope, sel) => [...(scope.matches?.(sel) ? [scope] : []), ...scope.querySelectorAll(sel)];
const withoutHash = (u) => { const x = new URL(u, location.href); x.hash = ''; return x.href; };
const fire = (el, ...types) => types.forEach((t) => el.dispatchEvent(new Event(t, { bubbles: true })));

let inflight = null;                   // AbortController of the swap in flight; a newer one aborts it
let index = history.state?.index ?? 0; // our position in history, to tell "back" from "forward"
let shownUrl = withoutHash(location.href); // the URL the visible screen was rendered for
let teardown = [];                     // cleanups for the current screen (EventSources, observers)
let stale = false;                     // server ships a newer pocket.js: stop swapping, let pages reload
let saveTimer, liveTimer;
let lastPosition = null;
let postQueue = Promise.resolve();      // in-place posts (data-autosubmit forms) run one after another              // the latest geolocation fix, for form[data-geolocate]
const invokers = new WeakMap();        // dialog -> button that opened it (focus goes back there)
const sounds = new Map();              // url -> HTMLAudioElement

/* ---------------------------------------------------------------- navigation & swapping */

/**
 * Fetch `url` and swap its [data-screen] in place of the current one.
 * Public options: transition ('push' | 'pop' | 'none'), replace (replaceState instead of push).
 * Internal ones: history ('none' for popstate/reload), scroll ('top' | 'keep' | saved object),
 * keepFocus / carryValue (live search, autosubmit), method/body/headers, fallback(response?).
 */
export async function navigate(url, opts = {}) {
  url = new URL(url, location.href);
  const fallback = opts.fallback ?? (() => location.assign(url));
  inflight?.abort();
  const ctrl = (inflight = new AbortController());
  const screen = screenEl();
  root.classList.add('is-loading');
  screen?.setAttribute('aria-busy', 'true');
  let res; // kept outside the try: a POST fallback must know whether the server already answered
  try {
    res = await fetch(url, {
      method: opts.method ?? 'GET', body: opts.body, signal: ctrl.signal,
      headers: { Accept: 'text/html', 'X-Pocket-Swap': '1', ...opts.headers },
    });
    // Error pages (404/500) are full HTML screens too, so status is deliberately not checked.
    const isHtml = /^text\/html/i.test(res.headers.get('content-type') ?? '');
    const doc = new DOMParser().parseFromString(isHtml ? await res.text() : '', 'text/html');
    const next = doc.querySelector('[data-screen]');
    if (!next || !screen) return fallback(res);

    // A deploy happened: keep this swap, but let later clicks load pages (and the new JS) natively.
    const src = doc.querySelector('script[type="module"][src]')?.getAttribute('src');
    if (src && new URL(src, location.href).href !== import.meta.url) stale = true;
    await addStyles(doc);
    if (ctrl.signal.aborted) return;

    const final = new URL(res.url || url);
    if (!final.hash) final.hash = url.hash;
    const sameUrl = final.href === location.href;
    // A POST that redirects back to the page it came from (tap a cell, toggle a switch) is an
    // update in place, not a new screen: replace the entry and keep the scroll position.
    const samePage = opts.method === 'POST' && withoutHash(final) === withoutHash(location.href);
    let mode = opts.history ?? (opts.replace ? 'replace' : 'push');
    if (opts.method === 'POST') mode = res.redirected ? (samePage ? 'replace' : 'push') : 'none'; // a POST result keeps the URL
    if (mode === 'push' && sameUrl) mode = 'replace';

    let transition = opts.transition ?? 'push';
    // From a split view's list: no slide when the detail already shows beside it (an iPad), a push when
    // the list is all there is (a phone).
    if (transition === 'split') {
      const detail = document.querySelector('.split__detail');
      transition = detail && getComputedStyle(detail).display !== 'none' && doc.querySelector('.split') ? 'none' : 'push';
    }
    // push/pop slide; an app may name its own animation (e.g. "flip") for its CSS to define.
    // Reduced motion: slides become instant, named animations become a gentle cross-fade.
    if (!/^[a-z][a-z-]*$/.test(transition)) transition = 'none';
    if (reduceMotion.matches && transition !== 'none') transition = ['push', 'pop'].includes(transition) ? 'none' : 'fade';

    clearTimeout(saveTimer);
    if (mode === 'push') { saveScroll(); history.pushState({ index: ++index }, '', final); }
    else if (mode === 'replace') history.replaceState({ index }, '', final);
    shownUrl = withoutHash(location.href);

    const scroll = opts.scroll ?? (sameUrl || samePage || mode === 'none' ? 'keep' : 'top');
    await swap(doc, next, { transition, scroll, keep: opts.keepFocus, carry: opts.carryValue, focused: opts.focused, item: opts.focusItem });
  } catch (err) {
    if (err?.name === 'AbortError') return;
    console.debug('Pocket: swap failed, falling back to a full navigation', err);
    fallback(res);
  } finally {
    if (inflight === ctrl) { // an aborted older swap must not clear the newer one's state
      inflight = null;
      root.classList.remove('is-loading');
      screen?.removeAttribute('aria-busy');
    }
  }
}

async function swap(doc, next, { transition, scroll, keep, carry, focused, item }) {
  const apply = () => {
    // Read focus/caret/scroll as late as possible: the user may have kept typing during the fetch.
    const snap = keep ? focusSnapshot(focused) : null;
    const kept = scroll === 'keep' ? readScroll() : null;
    const twin = snap && next.querySelector(snap.sel);
    if (carry && twin && snap.text) twin.value = snap.value; // don't lose keystrokes typed meanwhile
    for (const fn of teardown.splice(0)) fn();
    // Live regions in the new screen are new nodes, which screen readers don't announce: note what
    // they said before, and announce the ones whose text changed.
    const spoken = new Map([...screenEl().querySelectorAll('[aria-live][id]:not([aria-live=off])')].map((el) => [el.id, el.textContent.trim()]));
    screenEl().replaceWith(next);
    if (keep) {
      const changed = [...next.querySelectorAll('[aria-live][id]:not([aria-live=off])')]
        .filter((el) => spoken.has(el.id) && spoken.get(el.id) !== el.textContent.trim())
        .map((el) => el.textContent.trim()).filter(Boolean);
      if (changed.length) announce(changed.join('. '));
    }
    document.title = doc.title;
    for (const name of ['csrf-token', 'theme-color']) {
      const content = doc.querySelector(`meta[name="${name}"]`)?.content;
      const meta = document.querySelector(`meta[name="${name}"]`);
      if (meta && content != null) meta.content = content;
    }
    initScreen(next);
    if (kept) writeScroll(kept);
    else if (scroll !== 'top') writeScroll(scroll);
    else {
      writeScroll({ x: 0, y: 0, main: 0 });
      if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
    }
    if (!focusItem(next, item)) moveFocus(next, snap, keep);
  };
  root.dataset.transition = transition; // CSS picks the animation from this
  if (transition !== 'none' && document.startViewTransition) {
    const vt = document.startViewTransition(apply);
    vt.ready.catch(() => {});
    vt.finished.catch(() => {});
    await vt.updateCallbackDone; // rejects if apply() threw: navigate() then falls back
  } else apply();
  if (!keep && !item) announce(next.querySelector('.navbar__title')?.textContent.trim() || document.title);
}

// A list item changed in place (a state spotted from the keyboard): focus stays on that item, whose
// controls are new elements (a spot button became an un-spot link), instead of jumping to the title.
function focusItem(screen, sel) {
  const item = sel && screen.querySelector(sel);
  const target = item?.matches(FOCUSABLE) ? item : item?.querySelector(FOCUSABLE);
  target?.focus({ preventScroll: true });
  return !!target;
}
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled], [type=hidden]), select, textarea, [tabindex]:not([tabindex="-1"])';

// The item a form's result belongs to: the nearest element with an id inside [data-keep-focus], seen
// from the focused control or, for a form in a dialog, from the control that opened the dialog.
function itemOf(el) {
  const item = el?.closest?.('[data-keep-focus] [id]');
  return item ? `#${CSS.escape(item.id)}` : null;
}

// Per-page stylesheets (or new versions of them) must be in place before the swap, to avoid a flash.
function addStyles(doc) {
  const have = new Set([...document.querySelectorAll('link[rel~="stylesheet"]')].map((l) => l.href));
  return Promise.all([...doc.querySelectorAll('link[rel~="stylesheet"]')]
    .filter((l) => !have.has(new URL(l.getAttribute('href'), location.href).href))
    .map((l) => new Promise((done) => {
      const link = document.importNode(l, true);
      link.onload = link.onerror = done;
      setTimeout(done, 3000);
      document.head.append(link);
    })));
}

// Focus is matched by id, else by name (+ value for radios/checkboxes) since the DOM is all new.
// `fallback` is the element that had focus before a submit disabled it (focus then drops to <body>).
function focusSnapshot(fallback) {
  let el = document.activeElement;
  if ((!el || el === document.body) && fallback?.isConnected) el = fallback;
  if (!el || !screenEl()?.contains(el)) return null;
  let sel = el.id ? `#${CSS.escape(el.id)}` : el.name ? `[name="${CSS.escape(el.name)}"]` : null;
  if (!sel) return null;
  if (!el.id && /^(radio|checkbox)$/.test(el.type)) sel += `[value="${CSS.escape(el.value)}"]`;
  let start = null, end = null;
  try { start = el.selectionStart; end = el.selectionEnd; } catch { /* type without selection */ }
  return { sel, start, end, value: el.value, text: el.matches('textarea, input:not([type=radio], [type=checkbox], [type=range])') };
}

function moveFocus(screen, snap, keep) {
  if (keep) { // live search / autosubmit / reload: stay where the user is, never jump to the title
    const el = snap && screen.querySelector(snap.sel);
    el?.focus({ preventScroll: true });
    if (el && snap.start != null) try { el.setSelectionRange(snap.start, snap.end); } catch { /* ignore */ }
    return;
  }
  const auto = screen.querySelector('[data-autofocus]');
  const target = auto ?? screen.querySelector('h1.navbar__title') ?? screen.querySelector('#main');
  if (!auto && target) target.tabIndex = -1;
  target?.focus({ preventScroll: true });
}

function announce(text) {
  const live = liveRegion();
  live.textContent = ''; // clear first so the same title twice is still announced
  setTimeout(() => { live.textContent = text; }, 60);
}

function liveRegion() {
  let live = document.getElementById('pocket-live');
  if (!live) {
    live = Object.assign(document.createElement('div'), { id: 'pocket-live', className: 'visually-hidden' });
    live.setAttribute('aria-live', 'polite');
    document.body.append(live);
  }
  return live;
}

/* ---------------------------------------------------------------- history & scroll */

// A split view's list scrolls in its own pane ([data-keep-scroll] with an id), kept like the page.
function readScroll() {
  const panes = Object.fromEntries([...document.querySelectorAll('[data-keep-scroll][id]')].map((p) => [p.id, p.scrollTop]));
  return { x: scrollX, y: scrollY, main: scroller()?.scrollTop ?? 0, panes };
}
function writeScroll(s) {
  scrollTo({ left: s.x, top: s.y, behavior: 'instant' });
  scroller()?.scrollTo({ top: s.main, behavior: 'instant' });
  for (const [id, top] of Object.entries(s.panes ?? {})) document.getElementById(id)?.scrollTo({ top, behavior: 'instant' });
}
// Safari throttles replaceState (~100 per 30 s), hence the debounce and the try.
function saveScroll() {
  try { history.replaceState({ ...history.state, index, scroll: readScroll() }, ''); } catch { /* throttled */ }
}

history.scrollRestoration = 'manual'; // we restore per entry ourselves, including the inner scroller
if (history.state?.scroll) writeScroll(history.state.scroll); // full reload / non-bfcache back
else saveScroll();

addEventListener('popstate', (e) => {
  clearTimeout(saveTimer); // a pending save would now write into the *new* entry
  const state = e.state ?? {};
  if (withoutHash(location.href) === shownUrl) { index = state.index ?? index; return; } // hash move
  const back = (state.index ?? -Infinity) < index;
  index = state.index ?? index - 1;
  // Safari's edge-swipe already animated the page: don't animate twice.
  const transition = e.hasUAVisualTransition ? 'none' : back ? 'pop' : 'push';
  navigate(location.href, { history: 'none', transition, scroll: state.scroll ?? 'top' });
});

// Native fragment navigations create entries without state: number them so popstate can compare.
addEventListener('hashchange', () => { if (!history.state) history.replaceState({ index: ++index }, ''); });
addEventListener('pagehide', saveScroll);

// Element scroll events don't bubble, but they do pass through a capturing listener.
document.addEventListener('scroll', (e) => {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveScroll, 250);
  if (!hasScrollEnd && e.target.matches?.('[data-wheel]')) { // scrollend fallback (iOS 17)
    clearTimeout(e.target.settleTimer);
    e.target.settleTimer = setTimeout(() => settleWheel(e.target), 120);
  }
}, { capture: true, passive: true });

/* ---------------------------------------------------------------- links */

function swappable(url) {
  if (stale || !screenEl() || !/^https?:$/.test(url.protocol) || url.origin !== location.origin) return false;
  if (url.pathname.startsWith('/static/')) return false;
  const ext = url.pathname.match(/\.([a-z0-9]+)$/i)?.[1];
  return !ext || /^html?$/i.test(ext); // .json, .png, .webmanifest… are not screens
}

document.addEventListener('click', (e) => {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const a = e.target.closest?.('a[href]');
  const href = a?.getAttribute('href'); // getAttribute: also works for SVG <a>
  if (!a) return;
  // A link to a confirmation page can name a <dialog> on this page that asks the same question:
  // with JavaScript the dialog opens, without it the link leads to the page.
  const dialog = a.dataset.dialog && document.getElementById(a.dataset.dialog);
  if (dialog?.showModal && !dialog.open) {
    e.preventDefault();
    invokers.set(dialog, a);
    dialog.showModal();
    return;
  }
  if (href.startsWith('#') || a.hasAttribute('download') || a.closest('[data-no-swap]')) return;
  if (!['', '_self'].includes(a.getAttribute('target') ?? '')) return;
  const url = new URL(href, document.baseURI);
  if (!swappable(url) || (url.hash && withoutHash(url) === shownUrl)) return;
  e.preventDefault();
  a.closest('dialog[open]')?.close();
  const transition = a.dataset.transition ?? (a.dataset.nav === 'back' ? 'pop'
    : a.closest('.split__primary') ? 'split' : 'push');
  navigate(url, { transition });
});

/* ---------------------------------------------------------------- forms */

document.addEventListener('submit', (e) => {
  const form = e.target, sub = e.submitter;
  if (e.defaultPrevented) return;
  // Read attributes, not properties: an <input name="action"> would shadow form.action.
  const attr = (name) => (sub?.hasAttribute(`form${name}`) ? sub.getAttribute(`form${name}`) : form.getAttribute(name)) ?? '';
  const method = attr('method').toLowerCase();
  if (method === 'dialog' || form.closest('[data-no-swap]') || sub?.closest('[data-no-swap]')) return;
  if (!['', '_self'].includes(attr('target'))) return;
  const action = new URL(attr('action') || location.href, document.baseURI);
  if (!swappable(action)) return;
  e.preventDefault();
  clearTimeout(liveTimer);

  if (form.matches('[data-geolocate]')) addPosition(form);
  // File inputs become their file name, as a native urlencoded/GET submission does.
  const data = new FormData(form, sub);
  const params = new URLSearchParams();
  for (const [k, v] of data) params.append(k, typeof v === 'string' ? v : v.name);
  const keepFocus = form.matches('[data-autosubmit], [data-live-search]');

  if (method !== 'post') {
    action.search = params.toString();
    return navigate(action, { transition: form.dataset.transition ?? 'push', keepFocus, carryValue: keepFocus });
  }
  const multipart = attr('enctype').toLowerCase() === 'multipart/form-data';
  const fallback = (res) => {
    if (res?.redirected) return location.assign(res.url); // the POST went through; just show the result
    if (!form.isConnected) return location.reload();
    if (sub) sub.disabled = false;
    form.setAttribute('data-no-swap', ''); // the submit handler above now lets it through natively
    form.requestSubmit(sub ?? undefined);  // unlike form.submit(), keeps the submitter's name/value
  };
  const focused = document.activeElement; // disabling the submitter below would drop focus to <body>
  const item = itemOf(invokers.get(form.closest('dialog')) ?? focused);
  form.closest('dialog[open]')?.close();
  const send = () => navigate(action, {
    method: 'POST', body: multipart ? data : params, fallback, keepFocus, focused, focusItem: item,
    headers: { 'X-CSRF-Token': document.querySelector('meta[name="csrf-token"]')?.content ?? '' },
    transition: form.dataset.transition ?? 'none',
  });
  if (keepFocus) {
    // Keypads and switches: every press counts, in order. Queue the posts instead of disabling
    // the button (which would drop a quick second "5") or aborting the previous one.
    postQueue = postQueue.then(send, send);
    return;
  }
  if (sub) sub.disabled = true;
  send().finally(() => { if (sub?.isConnected && !form.hasAttribute('data-no-swap')) sub.disabled = false; });
});

document.addEventListener('change', (e) => {
  const t = e.target;
  if (t.matches?.('[data-wheel] input[type=radio]')) {
    const wheel = t.closest('[data-wheel]');
    centre(wheel, t.closest('.wheel__item'), reduceMotion.matches ? 'instant' : 'smooth');
    markWheel(wheel);
  }
  t.closest?.('form[data-autosubmit]')?.requestSubmit();
});

document.addEventListener('input', (e) => {
  const t = e.target;
  if (t.type === 'range') {
    fill(t);
    const outputs = t.id ? document.querySelectorAll(`output[for~="${CSS.escape(t.id)}"]`) : [];
    for (const o of outputs) o.value = t.value + (o.dataset.unit ?? ''); // data-unit: optional suffix
  }
  const form = t.closest?.('form[data-live-search]');
  if (!form || e.isComposing) return;
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => {
    const url = new URL(form.getAttribute('action') || location.href, document.baseURI);
    url.search = new URLSearchParams(new FormData(form)).toString();
    if (swappable(url)) navigate(url, { replace: true, transition: 'none', scroll: 'keep', keepFocus: true, carryValue: true });
  }, 200);
});

/* ---------------------------------------------------------------- keys & clipboard */

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

/* ---------------------------------------------------------------- dialogs */

document.addEventListener('click', (e) => {
  const btn = e.target.closest?.('button[commandfor]');
  const target = btn && !btn.disabled && document.getElementById(btn.getAttribute('commandfor'));
  if (!target) return;
  const cmd = (btn.getAttribute('command') ?? '').toLowerCase();
  if (cmd === 'show-modal') invokers.set(target, btn);
  if (nativeCommands) return;
  if (target instanceof HTMLDialogElement) { // polyfill for browsers without invoker commands
    if (cmd === 'show-modal' && !target.open) target.showModal();
    else if (cmd === 'close' && target.open) target.close(btn.value);
    else if (cmd === 'request-close' && target.open) target.requestClose ? target.requestClose(btn.value) : target.close(btn.value);
  } else if (cmd === 'toggle-popover' && target.hasAttribute('popover')) target.togglePopover();
});

// Native dialogs restore focus themselves, but Safari never focuses a clicked button, so the
// "previously focused element" is <body>. Put focus back on the invoker in that case.
document.addEventListener('close', (e) => {
  const inv = invokers.get(e.target), active = document.activeElement;
  if (inv?.isConnected && (!active || active === document.body || e.target.contains(active))) inv.focus({ preventScroll: true });
}, true);

// Light dismiss: a click whose target is the dialog itself but lies outside its content box hit the
// backdrop. Both pointerdown and click must be there, so a drag out of the sheet doesn't close it.
function onBackdrop(e) {
  const d = e.target;
  if (!(d instanceof HTMLDialogElement) || !d.open || !d.matches('.action-sheet, [data-light-dismiss]')) return false;
  const r = d.getBoundingClientRect(), cs = getComputedStyle(d), px = (p) => parseFloat(cs[p]) || 0;
  return e.clientX < r.left + px('borderLeftWidth') + px('paddingLeft') || e.clientX > r.right - px('borderRightWidth') - px('paddingRight')
    || e.clientY < r.top + px('borderTopWidth') + px('paddingTop') || e.clientY > r.bottom - px('borderBottomWidth') - px('paddingBottom');
}
let backdropDown = null;
document.addEventListener('pointerdown', (e) => { backdropDown = onBackdrop(e) ? e.target : null; });
document.addEventListener('click', (e) => {
  if (backdropDown && e.target === backdropDown && onBackdrop(e)) backdropDown.requestClose ? backdropDown.requestClose() : backdropDown.close();
  backdropDown = null;
});

/* ---------------------------------------------------------------- sound & controls */

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

/* ---------------------------------------------------------------- per-screen setup */

// A sideways scroller ([data-scroll-edges]) says which of its edges hide more (its CSS fades those).
function markEdges(el) {
  const max = el.scrollWidth - el.clientWidth;
  el.classList.toggle('is-scrollable', max > 1);
  el.classList.toggle('is-at-start', el.scrollLeft <= 1);
  el.classList.toggle('is-at-end', el.scrollLeft >= max - 1);
}

function initControls(scope) {
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

function initScreen(screen) {
  measureBars(screen);
  initControls(screen);
  // A dialog the server rendered open is non-modal; with JavaScript it becomes modal, so focus stays
  // inside and Escape works. Escape then follows the dialog's own cancel link, which the server knows.
  for (const d of $$(screen, 'dialog[open][data-modal]')) {
    d.close();
    d.showModal();
    d.addEventListener('cancel', (e) => {
      const cancel = d.querySelector('[data-dialog-cancel]');
      if (!cancel) return;
      e.preventDefault();
      cancel.click();
    });
  }
  // Forms that record where something happened keep a recent position ready, so a tap never
  // waits for a GPS fix. The browser asks the user first; a refusal just leaves no position.
  if (screen.querySelector('form[data-geolocate]') && navigator.geolocation) {
    const watch = navigator.geolocation.watchPosition((p) => { lastPosition = p; }, () => {}, { maximumAge: 120000 });
    teardown.push(() => navigator.geolocation.clearWatch(watch));
  }
  // An app's own ES module: [data-module="/static/js/apps/x.js?v=…"] is imported (once per page,
  // the browser caches modules) and its init(element) called; what init returns runs at teardown.
  for (const el of $$(screen, '[data-module]')) {
    let cleanup = null, gone = false;
    teardown.push(() => { gone = true; if (typeof cleanup === 'function') cleanup(); });
    import(new URL(el.dataset.module, location.href).href)
      .then((m) => { if (!gone) cleanup = m.init?.(el) ?? null; })
      .catch((err) => console.debug('Pocket: app module failed', err));
  }
  // Something the server will show differently after a while (the TV's lone first digit, which the
  // set drops after a few seconds): re-read the page then, as a live update would, without a reload.
  for (const el of $$(screen, '[data-refresh-after]')) {
    const timer = setTimeout(() => {
      if (!inflight) navigate(location.href, { history: 'none', transition: 'none', scroll: 'keep', keepFocus: true });
    }, Number(el.dataset.refreshAfter) || 0);
    teardown.push(() => clearTimeout(timer));
  }
  for (const el of $$(screen, '[data-sse]')) {
    const es = new EventSource(new URL(el.dataset.sse, location.href));
    es.addEventListener('patch', (e) => patch(e.data));
    // Don't let a background refresh abort a navigation the user started.
    es.addEventListener('reload', () => {
      if (!inflight) navigate(location.href, { history: 'none', transition: 'none', scroll: 'keep', keepFocus: true });
    });
    es.addEventListener('done', () => es.close());
    teardown.push(() => es.close());
  }
}

function addPosition(form) {
  if (!lastPosition || Date.now() - lastPosition.timestamp > 600000) return;
  for (const [name, value] of [['latitude', lastPosition.coords.latitude], ['longitude', lastPosition.coords.longitude]]) {
    let input = form.querySelector(`input[name="${name}"]`);
    if (!input) form.append(input = Object.assign(document.createElement('input'), { type: 'hidden', name }));
    input.value = String(value);
  }
}

// SSE patch: every top-level element with an id replaces the element with that id.
function patch(html) {
  const tpl = document.createElement('template');
  tpl.innerHTML = html; // inert parse of a server-escaped fragment; nothing runs
  for (const node of [...tpl.content.children]) {
    const old = node.id && document.getElementById(node.id);
    if (!old) continue;
    const focusId = old.contains(document.activeElement) && document.activeElement.id;
    old.replaceWith(node);
    initControls(node);
    if (focusId) document.getElementById(focusId)?.focus({ preventScroll: true });
  }
}

/* ---------------------------------------------------------------- start */

liveRegion(); // must exist before the first announcement to be reliably read out
if (screenEl()) initScreen(screenEl());

const swMeta = document.querySelector('meta[name="pocket-sw"]');
if (swMeta && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register(swMeta.content, { scope: '/' })
    .catch((err) => console.debug('Pocket: service worker registration failed', err));
}

window.Pocket = { navigate, playSound };
