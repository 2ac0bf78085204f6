/*
 * murals/offline-core.js: the Murals app's offline rules, with no DOM, caches or fetch, so Node can
 * test them (Tests/JavaScript/murals-offline.test.mjs): which addresses "Keep offline" saves, the words
 * it shows while saving and afterwards, and how stars still waiting in the outbox change the page.
 */

/** The Cache Storage cache the service worker answers kept pages and pictures from. */
export const KEPT_CACHE = 'pocket-kept';

/** The outbox's name for the Murals app's changes. */
export const OUTBOX_APP = 'murals';

/**
 * The absolute addresses to keep from the server's list (`{ items: [{ url, bytes }] }`): only
 * same-origin http(s) ones (anything else could not be answered by the service worker), each once,
 * in the list's order.
 */
export function keepPlan(list, base) {
  const origin = new URL(base).origin;
  const seen = new Set();
  const plan = [];
  for (const item of Array.isArray(list?.items) ? list.items : []) {
    if (typeof item?.url !== 'string') continue;
    let url;
    try { url = new URL(item.url, base); } catch { continue; }
    if (url.origin !== origin || !/^https?:$/.test(url.protocol)) continue;
    url.hash = '';
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    plan.push({ url: url.href, bytes: Number.isFinite(item.bytes) ? item.bytes : null });
  }
  return plan;
}

/** "820 bytes", "12 KB", "3.4 MB", "1.2 GB": sizes as the person reads them (1 KB = 1,000 bytes). */
export function bytesText(bytes) {
  const n = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  if (n < 1000) return `${Math.round(n)} bytes`;
  for (const [unit, size] of [['GB', 1e9], ['MB', 1e6], ['KB', 1e3]]) {
    if (n >= size) {
      const value = n / size;
      return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${unit}`;
    }
  }
  return `${n} bytes`;
}

/** "Saving 12 of 48…" while "Keep offline" runs. */
export function progressText(done, total) {
  return `Saving ${done} of ${total}…`;
}

/**
 * What the kept copy holds, for the line beside the button: "Kept offline · 24 murals · 3.4 MB",
 * with "· 2 not saved" when some addresses could not be fetched.
 */
export function keptText({ murals, bytes, failed = 0 }) {
  const count = murals === 1 ? '1 mural' : `${murals} murals`;
  return `Kept offline · ${count} · ${bytesText(bytes)}${failed > 0 ? ` · ${failed} not saved` : ''}`;
}

/** The outbox body for a star set (`on`) or cleared on mural `id`. */
export function starChange(id, on) {
  return { kind: on ? 'favourite' : 'unfavourite', mural: Number(id) };
}

/** The mural id a star form is for (its `data-favourite`, which the server writes), or null. */
export function muralOfForm(form) {
  const id = form?.dataset?.favourite;
  return id && /^\d+$/.test(id) ? id : null;
}

/**
 * The stars the outbox's waiting Murals changes ask for: mural id (a string, as in the page's
 * data-id) → true (favourite) or false. The server's rule applied on the phone: per mural the
 * latest `at` wins, equal times going to the larger id, whatever order the changes are listed in.
 */
export function pendingStars(changes) {
  const latest = new Map();
  for (const change of changes ?? []) {
    const kind = change?.body?.kind;
    const mural = change?.body?.mural;
    if ((kind !== 'favourite' && kind !== 'unfavourite') || !Number.isInteger(mural)) continue;
    const key = String(mural);
    const before = latest.get(key);
    const newer = !before || (change.at !== before.at ? change.at > before.at : String(change.id) > String(before.id));
    if (newer) latest.set(key, { at: change.at, id: change.id, on: kind === 'favourite' });
  }
  return new Map([...latest].map(([key, value]) => [key, value.on]));
}
