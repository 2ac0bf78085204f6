/*
 * outbox.js: changes made on the phone that must reach the server, kept in IndexedDB until they
 * have. Apps enqueue a change and update their screen at once; the outbox sends the changes in
 * order when it can: at once, when the browser says it is back online, when Pocket starts, when
 * the offline bar's "Send now" is used, and when the service worker's background sync fires.
 *
 * A change is POSTed to its url as JSON `{ id, at, ...body }` with the device's CSRF token; the
 * server applies each id at most once. See lib/outbox-core.js for when a change is kept or dropped.
 */
import { createOutbox } from './lib/outbox-core.js';
import { idbStore } from './offline/idb-store.js';

/** How long one send may take before the change waits for the next try. */
const SEND_TIMEOUT_MS = 8000;

async function send(change) {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? change.csrf ?? '';
  try {
    const response = await fetch(change.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': csrf },
      body: JSON.stringify({ id: change.id, at: change.at, ...change.body }),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      credentials: 'same-origin',
    });
    return response.status;
  } catch (err) {
    // No answer: the offline bar says so, and finds out when the server is back.
    document.dispatchEvent(new CustomEvent('pocket:unreachable'));
    throw err;
  }
}

const outbox = createOutbox({ store: idbStore, send });

/** Records a change for `app` (POSTed to `url` with `body`) and tries to send; returns the change. */
export function enqueue(app, url, body) {
  const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
  const change = outbox.enqueue(app, url, body, { csrf });
  navigator.serviceWorker?.ready.then((reg) => reg.sync?.register('pocket-outbox')).catch(() => {});
  return change;
}

/** Sends every waiting change in order; resolves to true when none is left. */
export const flush = () => outbox.flush().catch(() => false);
/** The waiting changes (of `app` when given), oldest first. */
export const pending = (app) => outbox.pending(app).catch(() => []);
/** Calls `listener(count)` whenever the number of waiting changes changes. */
export const onChange = (listener) => outbox.onChange(listener);

addEventListener('online', flush);
navigator.serviceWorker?.addEventListener('message', (event) => { if (event.data === 'pocket-flush') flush(); });
flush();
