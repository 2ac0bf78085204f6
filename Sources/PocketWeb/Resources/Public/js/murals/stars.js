/*
 * murals/stars.js: favourite stars that work with no server. The stars are real form posts (they
 * work without JavaScript); here a tap toggles the star at once and the change goes into the
 * outbox (js/outbox.js), which sends it to POST /murals/changes when Pocket can be reached. The
 * server applies each change once and the latest per mural wins (ToggleChange).
 *
 * A page may be the phone's saved copy, older than changes still waiting, so those are applied
 * to the stars shown as the page opens. Once they have been sent, the saved copies of the pages
 * they touched are fetched again, so offline shows what the person last saw.
 */
import { navigate } from '../nav/navigation.js';
import { enqueue, flush, onChange, pending } from '../outbox.js';
import { KEPT_CACHE, OUTBOX_APP, muralOfForm, pendingStars, starChange } from './offline-core.js';

const STALE = 'pocket-murals-stale';
const REFRESH_AFTER_MS = 1500;

/** Shows `form`'s star as set (`on`) or not, and makes its next post the opposite. */
export function showStar(form, on) {
  const input = form.querySelector('input[name="favourite"]');
  const button = form.querySelector('button');
  if (input) input.value = on ? '0' : '1';
  if (!button) return;
  button.setAttribute('aria-pressed', String(on));
  const title = form.closest('[data-title]')?.dataset.title ?? document.querySelector('#mural-title')?.textContent ?? 'this mural';
  button.setAttribute('aria-label', on ? `Remove ${title} from favourites` : `Add ${title} to favourites`);
}

/**
 * Takes over the star forms inside `root`: `changed(form, on)` lets the screen follow (a list
 * cell, its map pin). The outbox's waiting changes are applied first. A screen that cannot show a
 * waiting change by itself (the Favourites list lacks the cell of a mural starred elsewhere) asks
 * for `reread`: once the waiting changes are sent, the screen is read again from the server.
 * Returns the cleanup.
 */
export function initStars(root, changed = () => {}, { reread = false } = {}) {
  const url = root.dataset.changes;
  if (!url) return () => {};
  let gone = false;
  const forms = () => [...root.querySelectorAll('form[data-favourite]')];

  pending(OUTBOX_APP).then((changes) => {
    if (gone) return;
    const stars = pendingStars(changes);
    if (!stars.size) return;
    for (const form of forms()) {
      const id = muralOfForm(form);
      if (id === null || !stars.has(id)) continue;
      const on = stars.get(id);
      if (form.querySelector('button')?.getAttribute('aria-pressed') === String(on)) continue;
      showStar(form, on);
      changed(form, on);
    }
    if (reread && changes.some((change) => change.app === OUTBOX_APP)) rereadWhenSent();
  });

  const rereadWhenSent = async () => {
    await flush();
    if (gone || (await pending(OUTBOX_APP)).length) return;
    navigate(location.href, { history: 'none', transition: 'none', scroll: 'keep', keepFocus: true });
  };

  const onSubmit = (e) => {
    const form = e.target.closest?.('form[data-favourite]');
    const id = form && muralOfForm(form);
    if (!form || id === null) return;
    e.preventDefault();
    const on = form.querySelector('input[name="favourite"]')?.value === '1';
    showStar(form, on);
    changed(form, on);
    markStale(pagesShowing(root, form));
    enqueue(OUTBOX_APP, url, starChange(id, on)).catch((err) => {
      // IndexedDB refused (a private window, storage full): post the form the ordinary way, which
      // pocket.js leaves alone when marked data-no-swap.
      console.debug('Murals: the outbox refused a star', err);
      showStar(form, !on);
      form.setAttribute('data-no-swap', '');
      form.requestSubmit(form.querySelector('button'));
    });
  };
  root.addEventListener('submit', onSubmit);
  return () => {
    gone = true;
    root.removeEventListener('submit', onSubmit);
  };
}

/* ---------------------------------------------------------------- saved copies after sending */

/** The pages whose saved copies are to be read again once the waiting stars are sent (full URLs). */
function stalePages() {
  try { return new Set(JSON.parse(localStorage.getItem(STALE) ?? '[]')); } catch { return new Set(); }
}

function markStale(pages) {
  const stale = stalePages();
  for (const page of pages) stale.add(new URL(page, location.href).href);
  try { localStorage.setItem(STALE, JSON.stringify([...stale])); } catch { /* nothing to refresh later */ }
}

/**
 * The pages whose saved copies show `form`'s star, as the server names them: the list screens
 * (`data-stale-pages` on the screen's root), the mural's own page (`data-page` on its form) and
 * the page it was tapped on.
 */
function pagesShowing(root, form) {
  return [...(root.dataset.stalePages ?? '').split(' '), form.dataset.page ?? '', location.pathname + location.search]
    .filter(Boolean);
}

// A swap-style request, which the service worker answers from the network and saves as the page's
// copy; a copy kept on purpose (pocket-kept) is replaced too.
async function refresh(url) {
  if (!(await caches.match(url, { ignoreVary: true }))) return;
  const response = await fetch(url, { headers: { Accept: 'text/html', 'X-Pocket-Swap': '1' }, credentials: 'same-origin' });
  if (!response.ok || response.redirected) return;
  const kept = await caches.open(KEPT_CACHE);
  if (await kept.match(url, { ignoreVary: true })) {
    const headers = new Headers(response.headers);
    headers.set('X-Pocket-Saved', String(Date.now()));
    headers.delete('Content-Length');
    await kept.put(url, new Response(await response.blob(), { status: 200, headers }));
  }
}

let refreshTimer = 0;

async function refreshIfSent() {
  const pages = stalePages();
  if (!pages.size || !('caches' in self)) return;
  if ((await pending(OUTBOX_APP)).length) return;
  try { localStorage.removeItem(STALE); } catch { /* refreshed again next time: harmless */ }
  for (const url of pages) {
    try { await refresh(url); } catch { markStale(pages); return; }
  }
}

// Whenever the outbox's count changes (a change sent), and once at start-up.
onChange(() => {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refreshIfSent, REFRESH_AFTER_MS);
});
refreshTimer = setTimeout(refreshIfSent, REFRESH_AFTER_MS);
