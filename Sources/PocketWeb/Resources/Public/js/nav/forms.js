/*
 * forms.js: form submissions as screen swaps. GET forms navigate; POST forms post with fetch and
 * swap the answer in; keypads and switches (data-autosubmit) post every change in order; live
 * search (data-live-search) re-reads its results as the person types. Forms that record where
 * something happened (data-geolocate) carry a recent position.
 */
import { onScreen, teardown } from '../core/dom.js';
import { invokers } from '../ui/dialogs.js';
import { itemOf, navigate, swappable } from './navigation.js';

let liveTimer;
let lastPosition = null;               // the latest geolocation fix, for form[data-geolocate]
let postQueue = Promise.resolve();     // in-place posts (data-autosubmit forms) run one after another

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
  e.target.closest?.('form[data-autosubmit]')?.requestSubmit();
});

document.addEventListener('input', (e) => {
  const t = e.target;
  const form = t.closest?.('form[data-live-search]');
  if (!form || e.isComposing) return;
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => {
    const url = new URL(form.getAttribute('action') || location.href, document.baseURI);
    url.search = new URLSearchParams(new FormData(form)).toString();
    if (swappable(url)) navigate(url, { replace: true, transition: 'none', scroll: 'keep', keepFocus: true, carryValue: true });
  }, 200);
});

// Forms that record where something happened keep a recent position ready, so a tap never
// waits for a GPS fix. The browser asks the user first; a refusal just leaves no position.
onScreen((screen) => {
  if (!screen.querySelector('form[data-geolocate]') || !navigator.geolocation) return;
  const watch = navigator.geolocation.watchPosition((p) => { lastPosition = p; }, () => {}, { maximumAge: 120000 });
  teardown.push(() => navigator.geolocation.clearWatch(watch));
});

/** The latest location fix if it is under 10 minutes old, else null: for forms[data-geolocate]
 * and for app modules that send such a form's change themselves (Plates' outbox). */
export function recentPosition() {
  return lastPosition && Date.now() - lastPosition.timestamp <= 600000 ? lastPosition : null;
}

function addPosition(form) {
  if (!recentPosition()) return;
  for (const [name, value] of [['latitude', lastPosition.coords.latitude], ['longitude', lastPosition.coords.longitude]]) {
    let input = form.querySelector(`input[name="${name}"]`);
    if (!input) form.append(input = Object.assign(document.createElement('input'), { type: 'hidden', name }));
    input.value = String(value);
  }
}
