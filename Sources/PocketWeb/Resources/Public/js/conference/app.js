/*
 * conference/app.js: "Keep Offline" for a conference, and search that says when it needs the server.
 *
 * live.js imports this module for #conference-list (data-module) and calls init(element). On a
 * conference's talk list, #conference-keep holds the button: it asks the server for the addresses
 * to keep (GET /conference/conferences/:id/keep, which also makes the server store any talk text
 * it lacks), fetches each one and puts it into the Cache Storage cache "pocket-kept", which the
 * service worker answers from when Pocket's server cannot be reached. The list itself is kept too,
 * with the bytes measured, so a later visit can say "Kept offline · 2.4 MB" from the cache alone.
 *
 * Search needs the server: its box carries data-needs-server (offline/status.js shows the notice
 * and disables it), and a search tried while the browser knows it is offline says so at once.
 *
 * Bookmark and Remove Bookmark change the button at once and go into the outbox (../outbox.js),
 * which sends each to POST /conference/bookmarks/changes when it can; per talk the latest change
 * wins. A page opened with changes still waiting shows them.
 *
 * Nothing here touches the document at import time, so Node's test runner can import the logic.
 */

/** The Cache Storage cache the service worker answers from offline; never versioned, never dropped. */
export const KEPT_CACHE = 'pocket-kept';
const PARALLEL = 4;

/** "12 bytes", "380 KB", "2.4 MB": the space kept, in the units iOS shows. */
export function sizeText(bytes) {
  const n = Math.max(0, Math.round(Number(bytes) || 0));
  if (n < 1000) return `${n} byte${n === 1 ? '' : 's'}`;
  if (n < 1000 * 1000) return `${Math.round(n / 1000)} KB`;
  if (n < 1000 * 1000 * 1000) return `${(n / 1e6).toFixed(1)} MB`;
  return `${(n / 1e9).toFixed(1)} GB`;
}

/** The line shown once a conference is kept: its size, and any texts the source did not give. */
export function keptText(bytes, missing = 0) {
  const gap = missing > 0 ? ` · ${missing} talk text${missing === 1 ? '' : 's'} could not be fetched` : '';
  return `Kept offline · ${sizeText(bytes)}${gap}`;
}

/** The line shown while keeping. */
export function progressText(done, total) {
  return `Keeping ${done} of ${total}…`;
}

/**
 * Keeps every address of the list at `listURL` in the "pocket-kept" cache.
 * `env` gives fetch, caches and base (the page's address, for relative URLs); `onProgress(done,
 * total)` follows it. Resolves to { bytes, count, missing }; rejects with a readable Error.
 */
export async function keepConference(listURL, env, onProgress = () => {}) {
  const { fetch, caches, base } = env;
  const absolute = (url) => new URL(url, base).href;
  const answer = await fetch(absolute(listURL), { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!answer.ok) throw new Error(`the list of pages to keep could not be fetched (the server answered ${answer.status})`);
  const list = await answer.json();
  const items = Array.isArray(list.items) ? list.items : [];
  const cache = await caches.open(KEPT_CACHE);
  let done = 0, bytes = 0, next = 0;
  onProgress(0, items.length);

  async function keepOne(item) {
    // X-Pocket-Keep: keeping a talk is not opening it, so it does not join "Recently opened".
    const response = await fetch(absolute(item.url), { credentials: 'same-origin', cache: 'no-store', headers: { 'X-Pocket-Keep': '1' } });
    if (!response.ok) throw new Error(`${item.url} could not be kept (the server answered ${response.status})`);
    const body = await response.blob();
    // A fresh response: no "redirected" flag, which a service worker may not answer a page with.
    await cache.put(absolute(item.url), new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers }));
    bytes += body.size;
    done += 1;
    onProgress(done, items.length);
  }
  async function worker() {
    while (next < items.length) await keepOne(items[next++]);
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, worker));

  const missing = Array.isArray(list.missing) ? list.missing.length : 0;
  const record = { ...list, bytes, keptAt: Date.now() };
  await cache.put(absolute(listURL), new Response(JSON.stringify(record), { headers: { 'Content-Type': 'application/json' } }));
  return { bytes, count: items.length, missing };
}

/** What the cache says about a conference: { bytes, missing } when it was kept whole, else null. */
export async function keptState(listURL, pageURL, env) {
  const { caches, base } = env;
  if (!(await caches.has(KEPT_CACHE))) return null;
  const cache = await caches.open(KEPT_CACHE);
  const [record, page] = await Promise.all([cache.match(new URL(listURL, base).href), cache.match(new URL(pageURL, base).href)]);
  if (!record || !page) return null;
  try {
    const kept = await record.json();
    return { bytes: Number(kept.bytes) || 0, missing: Array.isArray(kept.missing) ? kept.missing.length : 0 };
  } catch {
    return null;
  }
}

/* ---------------------------------------------------------------- the page */

function initKeep(box) {
  const button = box.querySelector('#conference-keep-button');
  const progress = box.querySelector('#conference-keep-progress');
  const status = box.querySelector('#conference-keep-status');
  if (!button || !progress || !status || !('caches' in window)) return null;
  const env = { fetch: window.fetch.bind(window), caches: window.caches, base: location.href };
  const listURL = box.dataset.keepList, pageURL = box.dataset.keepPage;
  let gone = false;

  const showKept = (state) => {
    box.classList.add('is-kept');
    status.textContent = keptText(state.bytes, state.missing);
    button.textContent = 'Update Offline Copy';
  };
  keptState(listURL, pageURL, env).then((state) => { if (state && !gone) showKept(state); }).catch(() => {});
  button.hidden = false;

  const onClick = async () => {
    button.disabled = true;
    progress.hidden = false;
    progress.value = 0;
    status.textContent = 'Getting the list of talks…';
    try {
      const result = await keepConference(listURL, env, (done, total) => {
        progress.max = Math.max(1, total);
        progress.value = done;
        status.textContent = progressText(done, total);
      });
      if (!gone) showKept(result);
    } catch (error) {
      if (error instanceof TypeError) document.dispatchEvent(new CustomEvent('pocket:unreachable'));
      if (!gone) status.textContent = `Couldn’t keep this conference offline: ${error instanceof TypeError ? 'Pocket’s server can’t be reached' : error.message}. Try again later.`;
    } finally {
      progress.hidden = true;
      button.disabled = false;
    }
  };
  button.addEventListener('click', onClick);
  return () => { gone = true; button.removeEventListener('click', onClick); };
}

// Search needs the server: offline a search is not sent, and the box says why.
function initSearch(box) {
  const form = box.querySelector('form');
  if (!form) return null;
  const onSubmit = (event) => {
    if (navigator.onLine !== false) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    document.dispatchEvent(new CustomEvent('pocket:unreachable'));
  };
  form.addEventListener('submit', onSubmit, true);
  return () => form.removeEventListener('submit', onSubmit, true);
}

/* ---------------------------------------------------------------- bookmarks */

/** The talk a bookmark form is for (its `data-talk`, which the server writes), or null. */
export function talkOfForm(form) {
  const talk = form?.dataset?.talk;
  return talk && /^\d+$/.test(talk) ? Number(talk) : null;
}

/** Whether the waiting changes leave `talk` bookmarked (true/false), or null when none is about it. */
export function pendingBookmark(changes, talk) {
  let latest = null;
  for (const change of changes ?? []) {
    if (change?.body?.talk !== talk) continue;
    if (!latest || (change.at !== latest.at ? change.at > latest.at : String(change.id) > String(latest.id))) latest = change;
  }
  return latest ? latest.body.kind === 'bookmark' : null;
}

/** Shows the form's button as bookmarked (`on`) or not, and makes its next post the opposite. */
function showBookmark(form, on) {
  const button = form.querySelector('button');
  const value = form.querySelector('input[name="bookmark"]');
  if (value) value.value = on ? '0' : '1';
  if (!button) return;
  button.setAttribute('aria-pressed', String(on));
  button.textContent = on ? button.dataset.onLabel : button.dataset.offLabel;
}

function initBookmark(form, outbox) {
  const talk = talkOfForm(form);
  const url = form.dataset.changes;
  const button = form.querySelector('button');
  if (talk === null || !url || !button?.dataset.onLabel) return null;
  let gone = false, sent = false;
  outbox.pending('conference').then((changes) => {
    const on = pendingBookmark(changes, talk);
    if (!gone && on !== null) showBookmark(form, on);
  });
  const onSubmit = (event) => {
    if (event.defaultPrevented) return;
    event.preventDefault();
    const on = form.querySelector('input[name="bookmark"]')?.value === '1';
    showBookmark(form, on);
    sent = true;
    outbox.enqueue('conference', url, { kind: on ? 'bookmark' : 'unbookmark', talk }).catch(() => {
      // IndexedDB refused (a private window): post the form the ordinary way.
      showBookmark(form, !on);
      form.setAttribute('data-no-swap', '');
      form.requestSubmit();
    });
  };
  form.addEventListener('submit', onSubmit);
  // Once the change has reached the server, read the page again, so its saved copy shows it.
  const stop = outbox.onChange(async (count) => {
    if (!sent || count > 0 || gone || (await outbox.pending('conference')).length) return;
    sent = false;
    outbox.refresh();
  });
  return () => { gone = true; form.removeEventListener('submit', onSubmit); stop?.(); };
}

/** Called for #conference-list on every screen; returns its cleanup. */
export function init(el) {
  const cleanups = [];
  let gone = false;
  const bookmark = (el.closest('[data-screen]') ?? document).querySelector('form.conference-bookmark[data-changes]');
  if (bookmark) {
    // The outbox and navigation are loaded only here: Node's tests import this file without a DOM.
    Promise.all([import('../outbox.js'), import('../nav/navigation.js')]).then(([{ enqueue, onChange, pending }, { refresh }]) => {
      if (!gone) cleanups.push(initBookmark(bookmark, { enqueue, onChange, pending, refresh }));
    }).catch((error) => console.debug('Pocket: bookmarks stay with the server', error));
  }
  const keepBox = el.querySelector('#conference-keep');
  if (keepBox) cleanups.push(initKeep(keepBox));
  const searchBox = el.querySelector('#conference-search-box');
  if (searchBox) cleanups.push(initSearch(searchBox));
  return () => { gone = true; for (const cleanup of cleanups) cleanup?.(); };
}
