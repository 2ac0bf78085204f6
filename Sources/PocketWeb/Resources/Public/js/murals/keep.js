/*
 * murals/keep.js: "Keep offline" on the Murals screen. Asks Pocket for the addresses the person
 * needs to browse every mural with no server (GET /murals/offline.json: the screens, each mural's
 * page, thumbnail and pictures, the map library, the walk), fetches them a few at a time with
 * "Saving 12 of 48…" on the way, and puts them in the `pocket-kept` cache, which the service
 * worker answers from offline and never drops on an update. What was kept, and its size, is
 * remembered in localStorage so later visits say so.
 */
import { KEPT_CACHE, keepPlan, keptText, progressText } from './offline-core.js';

const RECORD = 'pocket-murals-kept';
const AT_ONCE = 4;
const FETCH_TIMEOUT_MS = 20000;

/** What was kept last time ({ at, murals, bytes, failed, main }), if it is still in the cache. */
export async function keptRecord() {
  let record = null;
  try { record = JSON.parse(localStorage.getItem(RECORD) ?? 'null'); } catch { record = null; }
  if (!record?.main || !('caches' in self)) return null;
  const cache = await caches.open(KEPT_CACHE);
  return (await cache.match(record.main)) ? record : null;
}

/** The line shown for a kept copy. */
export function recordText(record) {
  return keptText(record);
}

async function keepOne(cache, url) {
  const response = await fetch(url, {
    credentials: 'same-origin', cache: 'no-store', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok || response.redirected) throw new Error(`${url} answered ${response.status}`);
  const body = await response.blob();
  // Saved like the worker's own page copies, so an offline page can say when it was saved.
  const headers = new Headers(response.headers);
  headers.set('X-Pocket-Saved', String(Date.now()));
  headers.delete('Content-Length');
  await cache.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers }));
  return body.size;
}

/**
 * Keeps everything `listURL` names; calls `progress(done, total)` as items finish. Resolves to the
 * record kept ({ murals, bytes, failed, ... }); rejects when the list itself cannot be fetched.
 */
export async function keepOffline(listURL, progress = () => {}) {
  const response = await fetch(listURL, {
    headers: { Accept: 'application/json' }, credentials: 'same-origin', cache: 'no-store',
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`the list answered ${response.status}`);
  const list = await response.json();
  const plan = keepPlan(list, location.href);
  navigator.storage?.persist?.().catch(() => {});
  const cache = await caches.open(KEPT_CACHE);
  let done = 0, bytes = 0, failed = 0, next = 0;
  progress(0, plan.length);
  const worker = async () => {
    while (next < plan.length) {
      const item = plan[next++];
      try { bytes += await keepOne(cache, item.url); } catch (err) {
        failed += 1;
        console.debug('Murals: could not keep', item.url, err);
      }
      done += 1;
      progress(done, plan.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, plan.length) }, worker));
  const record = { at: Date.now(), murals: Number(list.murals) || 0, bytes, failed, count: plan.length, main: plan[0]?.url ?? null };
  try { localStorage.setItem(RECORD, JSON.stringify(record)); } catch { /* storage refused: only the note is lost */ }
  return record;
}

/** Wires the Keep Offline button and its status line inside `root` (the Murals screen). */
export function initKeep(root) {
  const button = root.querySelector('#murals-keep-button');
  const status = root.querySelector('#murals-keep-status');
  if (!button || !status || !root.dataset.keep || !('caches' in self)) {
    root.querySelector('#murals-keep')?.setAttribute('hidden', '');
    return () => {};
  }
  let gone = false;
  const show = (record) => {
    if (gone) return;
    root.classList.toggle('is-kept', !!record);
    status.textContent = record ? recordText(record) : '';
    button.textContent = record ? 'Update Offline Copy' : 'Keep Offline';
  };
  keptRecord().then(show).catch(() => {});
  const onClick = async () => {
    button.disabled = true;
    status.textContent = 'Saving…';
    try {
      const record = await keepOffline(root.dataset.keep, (done, total) => {
        if (!gone) status.textContent = progressText(done, total);
      });
      show(record);
    } catch (err) {
      console.debug('Murals: keep offline failed', err);
      if (!gone) status.textContent = 'Keeping the murals offline needs Pocket’s server; try again when it can be reached.';
      // Only a network failure means the server is gone (an error answer came from it).
      if (err?.name === 'TypeError' || err?.name === 'TimeoutError') document.dispatchEvent(new CustomEvent('pocket:unreachable'));
    } finally {
      button.disabled = false;
    }
  };
  button.addEventListener('click', onClick);
  return () => {
    gone = true;
    button.removeEventListener('click', onClick);
  };
}
