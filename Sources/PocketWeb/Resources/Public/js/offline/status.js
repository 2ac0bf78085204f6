/*
 * status.js: whether Pocket's server can be reached, shown in a bar under the navigation bar:
 * "Offline — 2 changes waiting · saved 24 Nov 2026, 10:42". The service worker marks a page it
 * served from the phone's copy (data-offline-saved on <html>); a failed request or a dropped live
 * connection says the server is gone; a small request every few seconds finds out when it is back.
 * Then the waiting changes are sent, a saved copy is replaced by the live page, and controls that
 * need the server ([data-needs-server], the remotes) work again.
 */
import { announce, onScreen, root, route, screenEl } from '../core/dom.js';
import { barText, refusedText } from '../lib/offline-text.js';
import { discardSetAside, flush, onChange } from '../outbox.js';
import { refresh } from '../nav/navigation.js';

const PING_EVERY_MS = 5000;
const PING_TIMEOUT_MS = 4000;

let offline = root.hasAttribute('data-offline-saved') || navigator.onLine === false;
let waiting = 0;
let aside = 0;
let signedOut = false;
let notice = null; // what the bar says for a moment (a change the server refused)
let noticeTimer = null;
let pingTimer = null;
const NOTICE_MS = 8000;

/** Marks the server as unreachable (a failed request, a dropped live connection). */
export function unreachable() {
  if (!offline) {
    offline = true;
    announce('Offline');
    render();
  }
  schedulePing();
}

function schedulePing() {
  clearTimeout(pingTimer);
  pingTimer = setTimeout(ping, PING_EVERY_MS);
}

// The service worker never answers its own script from its caches, so this reaches the server or fails.
async function ping() {
  const address = route('serviceWorker');
  if (!address) return;
  try {
    const response = await fetch(address, { cache: 'no-store', signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
    if (response.ok) return reachable();
  } catch { /* still offline */ }
  schedulePing();
}

async function reachable() {
  clearTimeout(pingTimer);
  if (!offline) return;
  offline = false;
  render();
  await flush();
  // A saved copy or a disconnected remote: show the live page instead, in place.
  const screen = screenEl();
  if (root.hasAttribute('data-offline-saved') || screen?.querySelector('[data-needs-server], [data-offline-page]')) {
    refresh();
  }
}

function render() {
  const screen = screenEl();
  if (!screen) return;
  root.classList.toggle('is-offline', offline);
  let bar = screen.querySelector(':scope > .offline-bar');
  const text = notice ?? barText({ offline, waiting, saved: Number(root.dataset.offlineSaved) || 0, signedOut, aside });
  if (!text) { bar?.remove(); } else {
    if (!bar) {
      bar = Object.assign(document.createElement('p'), { className: 'offline-bar', id: 'pocket-offline' });
      bar.setAttribute('role', 'status');
      const navbar = screen.querySelector(':scope > .navbar');
      if (navbar) navbar.after(bar); else screen.prepend(bar);
    }
    bar.textContent = text;
    const signIn = route('signIn');
    if (!notice && !offline && signedOut && waiting && signIn && !screen.querySelector('#signin-form')) {
      bar.append(' ', action('a', 'Sign In', { href: `${signIn}?next=${encodeURIComponent(location.pathname + location.search)}` }));
    }
    if (!notice && aside) bar.append(' ', action('button', 'Discard', { type: 'button', onclick: () => discardSetAside() }));
  }
  for (const el of screen.querySelectorAll('[data-needs-server]')) disconnect(el, offline);
}

/** A link or button inside the bar. */
function action(tag, text, props) {
  const el = Object.assign(document.createElement(tag), { className: 'offline-bar__action', textContent: text });
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') el[name] = value; else el.setAttribute(name, value);
  }
  return el;
}

// A control panel that cannot work without the server (a remote): offline it says so and its
// controls are disabled (nothing is queued, nothing silently dropped); back online, the live page
// replaces it.
function disconnect(el, off) {
  let notice = el.querySelector(':scope > .needs-server__notice');
  if (off && !notice) {
    notice = Object.assign(document.createElement('p'), { className: 'needs-server__notice', textContent: el.dataset.needsServer });
    notice.setAttribute('role', 'alert');
    el.prepend(notice);
    for (const control of el.querySelectorAll('button, input, select, textarea')) {
      if (!control.disabled) { control.disabled = true; control.dataset.offlineDisabled = ''; }
    }
  } else if (!off && notice) {
    notice.remove();
    for (const control of el.querySelectorAll('[data-offline-disabled]')) { control.disabled = false; delete control.dataset.offlineDisabled; }
  }
  el.classList.toggle('is-disconnected', off);
}

onChange((count, info) => {
  waiting = count;
  aside = info?.aside ?? 0;
  signedOut = !!info?.signedOut;
  render();
});
/** Says `text` in the bar for a moment (and to screen readers): news the person should see. */
export function showNotice(text) {
  notice = text;
  announce(text);
  render();
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { notice = null; render(); }, NOTICE_MS);
}

// A change the server refused for good is dropped: say so, in its words, for a moment.
document.addEventListener('pocket:outbox-refused', (event) => showNotice(refusedText(event.detail?.message)));
onScreen((screen) => {
  if (root.hasAttribute('data-offline-saved') || screen.querySelector('[data-offline-page]')) unreachable();
  render();
});
document.addEventListener('pocket:unreachable', unreachable);
document.addEventListener('pocket:reachable', reachable);
addEventListener('offline', unreachable);
addEventListener('online', ping);
if (offline) schedulePing();
