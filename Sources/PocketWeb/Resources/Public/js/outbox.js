/*
 * outbox.js: the page's outbox (the rules are in lib/outbox-core.js, shared with the service
 * worker). Apps enqueue a change and update their screen at once; the outbox sends the changes in
 * order when it can: at once, when the browser says it is back online, when Pocket starts, when
 * the offline bar finds the server again, and when the service worker's background sync fires.
 *
 * Each change is bound to the device and person signed in on this page (the `pocket-device` meta
 * tag): a change made by someone else on this browser is set aside, never sent in this session.
 */
import { createOutbox } from './lib/outbox-core.js';
import { idbStore } from './offline/idb-store.js';

/** Who is signed in on this page, from its meta tags; null on a page for strangers. */
function owner() {
  const meta = document.querySelector('meta[name="pocket-device"]');
  if (!meta?.content) return null;
  return {
    device: meta.content,
    person: meta.dataset.person,
    name: meta.dataset.name ?? '',
    csrf: document.querySelector('meta[name="csrf-token"]')?.content ?? '',
  };
}

/** The events the outbox tells the page by, for the screens that listen (e.g. plates/app.js). */
export const events = {
  // No answer: the offline bar says so, and finds out when the server is back.
  unreachable: 'pocket:unreachable',
  refused: 'pocket:outbox-refused',
  aside: 'pocket:outbox-aside',
  signedOut: 'pocket:signed-out',
};

const outbox = createOutbox({
  store: idbStore,
  owner,
  onEvent: (name, detail) => document.dispatchEvent(new CustomEvent(events[name], { detail })),
});

/**
 * Records a change for `app` (POSTed to `url` with `body`) and tries to send; returns the change.
 * `options`: { coalesce, settleMs } (see lib/outbox-core.js).
 */
export function enqueue(app, url, body, options) {
  const change = outbox.enqueue(app, url, body, options);
  navigator.serviceWorker?.ready.then((reg) => reg.sync?.register('pocket-outbox')).catch(() => {});
  return change;
}

/** Sends every waiting change in order; resolves to true when none is left. */
export const flush = () => outbox.flush().catch(() => false);
/** The signed-in person's waiting changes (of `app` when given), oldest first. */
export const pending = (app) => outbox.pending(app).catch(() => []);
/** Changes made here by someone not signed in here now. */
export const setAside = () => outbox.setAside().catch(() => []);
/** Forgets the changes set aside. */
export const discardSetAside = () => outbox.discardSetAside().catch(() => {});
/** Calls `listener(count, { aside, signedOut })` whenever the changes waiting may have changed. */
export const onChange = (listener) => outbox.onChange(listener);

addEventListener('online', flush);
// A screen swap may have signed someone else in (or out): their changes are theirs to send.
document.addEventListener('pocket:owner', () => { outbox.notify(); flush(); });
navigator.serviceWorker?.addEventListener('message', (event) => { if (event.data === 'pocket-flush') flush(); });
flush();
