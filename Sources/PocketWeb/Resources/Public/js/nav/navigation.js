/*
 * navigation.js: screen swaps. Links and forms fetch the next page and swap its [data-screen] in
 * place of the current one, with view transitions, history entries, scroll positions per entry
 * and focus kept or moved as a native page load would. Whenever something fails, the browser
 * does what it would have done without JavaScript (a full page load).
 */
import {
  announce, initScreen, reduceMotion, root, route, screenEl, scroller, tearDown, withoutHash,
} from '../core/dom.js';
import { effectiveTransition, historyMode, isScreenURL } from '../lib/screens.js';
import { invokers } from '../ui/dialogs.js';

let inflight = null;                   // AbortController of the swap in flight; a newer one aborts it
let index = history.state?.index ?? 0; // our position in history, to tell "back" from "forward"
let shownUrl = withoutHash(location.href); // the URL the visible screen was rendered for
let stale = false;                     // server ships a newer pocket.js: stop swapping, let pages reload
let saveTimer;
const waitingDialogs = new WeakSet(); // open dialogs a refresh waits for

/**
 * Reads the page shown again and swaps it in place (scroll and focus kept), for what changes a
 * page without the person asking: a change sent, news from another phone, the server back. It
 * never aborts a swap the person started: a tap on a link just before must still go where it
 * pointed, so then nothing is read (the page they go to is read fresh anyway).
 */
export function refresh(opts = {}) {
  if (inflight) return;
  // A dialog the person is answering (sign out with changes waiting, un-spot a plate) is never
  // drawn away under them: the page is read again once it closes.
  const dialog = document.querySelector('dialog[open]');
  if (dialog) {
    if (!waitingDialogs.has(dialog)) {
      waitingDialogs.add(dialog);
      dialog.addEventListener('close', () => { waitingDialogs.delete(dialog); refresh(opts); }, { once: true });
    }
    return;
  }
  return navigate(location.href, { history: 'none', transition: 'none', scroll: 'keep', keepFocus: true, ...opts });
}

/** Whether `url` can be swapped in (false once a newer pocket.js is deployed: pages then load natively). */
export function swappable(url) {
  return !stale && !!screenEl() && isScreenURL(url, location.origin, route('static'));
}

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
    const text = isHtml ? await res.text() : '';
    const doc = new DOMParser().parseFromString(text, 'text/html');
    const next = doc.querySelector('[data-screen]');
    if (!next || !screen) return fallback(res);

    // A deploy happened: keep this swap, but let later clicks load pages (and the new JS) natively.
    const src = doc.querySelector('script[type="module"][src]')?.getAttribute('src');
    const mine = document.querySelector('script[type="module"][src]')?.getAttribute('src');
    if (src && mine && new URL(src, location.href).href !== new URL(mine, location.href).href) stale = true;
    await addStyles(doc);
    if (ctrl.signal.aborted) return;

    const final = new URL(res.url || url);
    if (!final.hash) final.hash = url.hash;
    const sameUrl = final.href === location.href;
    // A POST that redirects back to the page it came from (tap a cell, toggle a switch) is an
    // update in place, not a new screen: replace the entry and keep the scroll position.
    const samePage = opts.method === 'POST' && withoutHash(final) === withoutHash(location.href);
    const mode = historyMode({ requested: opts.history ?? (opts.replace ? 'replace' : 'push'), method: opts.method, redirected: res.redirected, samePage, sameUrl });

    let transition = opts.transition ?? 'push';
    // From a split view's list: no slide when the detail already shows beside it (an iPad), a push when
    // the list is all there is (a phone).
    if (transition === 'split') {
      const detail = document.querySelector('.split__detail');
      transition = detail && getComputedStyle(detail).display !== 'none' && doc.querySelector('.split') ? 'none' : 'push';
    }
    transition = effectiveTransition(transition, reduceMotion.matches);

    clearTimeout(saveTimer);
    if (mode === 'push') { saveScroll(); history.pushState({ index: ++index }, '', final); }
    else if (mode === 'replace') history.replaceState({ index }, '', final);
    shownUrl = withoutHash(location.href);

    // The answer to a change made in place is the page as it now is: the service worker keeps it
    // as the saved copy of that page (it only sees GETs itself).
    if (opts.method === 'POST' && res.ok && res.redirected) {
      navigator.serviceWorker?.controller?.postMessage({ type: 'pocket-store', url: withoutHash(final), html: text });
    }
    const scroll = opts.scroll ?? (sameUrl || samePage || mode === 'none' ? 'keep' : 'top');
    await swap(doc, next, { transition, scroll, keep: opts.keepFocus, carry: opts.carryValue, focused: opts.focused, item: opts.focusItem });
  } catch (err) {
    if (err?.name === 'AbortError') return;
    if (!res && err instanceof TypeError) {
      // The server could not be reached. A page the service worker has no copy of still gets its
      // "not saved" screen from it, so only a post is left here: sending it natively would show
      // the browser's error page, so it is not sent, and the person is told.
      document.dispatchEvent(new CustomEvent('pocket:unreachable'));
      if (opts.method === 'POST') { announce('Not sent: Pocket can’t reach its server.'); return; }
    }
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
    tearDown();
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
    // The service worker marks a page it answered from the phone's copy (see offline/status.js).
    const saved = doc.documentElement.dataset.offlineSaved;
    if (saved) root.dataset.offlineSaved = saved; else delete root.dataset.offlineSaved;
    if (!saved && !next.querySelector('[data-offline-page]')) document.dispatchEvent(new CustomEvent('pocket:reachable'));
    for (const name of ['csrf-token', 'theme-color']) {
      const content = doc.querySelector(`meta[name="${name}"]`)?.content;
      const meta = document.querySelector(`meta[name="${name}"]`);
      if (meta && content != null) meta.content = content;
    }
    // Who is signed in may have changed (a sign-in, a sign-out): the outbox binds changes to it.
    const owner = doc.querySelector('meta[name="pocket-device"]');
    const current = document.querySelector('meta[name="pocket-device"]');
    if (!doc.documentElement.hasAttribute('data-offline-saved') && owner?.outerHTML !== current?.outerHTML) {
      if (owner) (current ?? document.head.appendChild(document.createElement('meta'))).replaceWith(document.importNode(owner));
      else current?.remove();
      document.dispatchEvent(new CustomEvent('pocket:owner'));
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
export function itemOf(el) {
  const item = el?.closest?.('[data-keep-focus] [id]');
  return item ? `#${CSS.escape(item.id)}` : null;
}

// Per-page stylesheets (or new versions of them) must be in place before the swap, to avoid a flash.
// A first visit's page carries its stylesheets inside itself, each <style> naming its URL (data-href).
function addStyles(doc) {
  const have = new Set([...document.querySelectorAll('link[rel~="stylesheet"]')].map((l) => l.href));
  for (const style of document.querySelectorAll('style[data-href]')) have.add(new URL(style.dataset.href, location.href).href);
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
document.addEventListener('scroll', () => {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveScroll, 250);
}, { capture: true, passive: true });

/* ---------------------------------------------------------------- links */

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

