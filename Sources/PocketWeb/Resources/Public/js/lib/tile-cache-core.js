/*
 * tile-cache-core.js: the map tiles a person has viewed, kept on the phone so a walk keeps its
 * map where the signal drops (issue #31). The service worker answers every tile request through
 * createTileCache; the rules are here, apart from the worker, so node --test can check them.
 *
 * OpenStreetMap's tile usage policy is the contract: a tile is fetched only because the person's
 * map asked for it (no prefetch, no area download), with the page's origin as Referer, and the
 * host's cache headers are honoured (a fresh tile is never asked for again). What is kept is
 * bounded, least recently used first.
 */

/** At most this many bytes of tiles are kept. */
export const TILE_CACHE_BYTES = 50 * 1024 * 1024;
/** How long a tile may take before a kept copy (or the placeholder) is shown instead. */
export const TILE_WAIT_MS = 8000;

/**
 * A test for "is this address one of the map's tiles", from the URL templates the server names
 * ({s} a subdomain, {z}/{x}/{y} whole numbers, {r} an optional "@2x").
 */
export function tileMatcher(templates) {
  const patterns = (Array.isArray(templates) ? templates : []).filter((t) => typeof t === 'string' && t).map((template) => {
    const parts = template.split(/(\{[szxyr]\})/);
    const source = parts.map((part) => {
      if (part === '{s}') return '[a-z0-9-]+';
      if (part === '{r}') return '(?:@2x)?';
      if (part === '{z}' || part === '{x}' || part === '{y}') return '\\d+';
      return part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    }).join('');
    return new RegExp(`^${source}$`);
  });
  return (url) => typeof url === 'string' && patterns.some((re) => re.test(url));
}

function directives(headers) {
  const found = new Map();
  for (const item of (headers.get('cache-control') ?? '').toLowerCase().split(',')) {
    const [name, value] = item.trim().split('=');
    if (name) found.set(name, value?.replace(/^"|"$/g, '') ?? '');
  }
  return found;
}

/** Whether the host lets a tile be kept at all (`no-store` says no). */
export function keepable(headers) {
  return !directives(headers).has('no-store');
}

/**
 * Until when (ms since the epoch) a tile received at `receivedAt` is fresh: `max-age` less its
 * `Age`, else `Expires` less `Date`; a tile without either (or `no-cache`) is never fresh, so it
 * is asked for again whenever the network is there and shown from the phone only when it is not.
 */
export function freshUntil(headers, receivedAt) {
  const found = directives(headers);
  if (found.has('no-cache') || found.has('no-store')) return 0;
  const age = Math.max(0, Number(headers.get('age')) || 0);
  if (found.has('max-age')) {
    const seconds = Number(found.get('max-age'));
    return Number.isFinite(seconds) && seconds > age ? receivedAt + (seconds - age) * 1000 : 0;
  }
  const expires = Date.parse(headers.get('expires') ?? '');
  if (!Number.isFinite(expires)) return 0;
  const date = Date.parse(headers.get('date') ?? '');
  const lifetime = expires - (Number.isFinite(date) ? date : receivedAt);
  return lifetime > 0 ? receivedAt + lifetime : 0;
}

/** The addresses to drop so that what is kept fits in `cap` bytes: least recently used first. */
export function evictions(entries, cap) {
  let total = 0;
  for (const [, entry] of entries) total += entry.bytes;
  if (total <= cap) return [];
  const drop = [];
  for (const [url, entry] of [...entries].sort((a, b) => a[1].used - b[1].used)) {
    if (total <= cap) break;
    drop.push(url);
    total -= entry.bytes;
  }
  return drop;
}

/** A host's refusal (its usage policy, or too many requests): said once to the person. */
export function isRefusal(status) {
  return status === 403 || status === 429;
}

/**
 * The worker's tile answers, over the parts it is given (so node can run it):
 * `open()` the Cache that keeps tiles, `fetchTile(url)` the network, `placeholder()` the quiet
 * "the map needs the network here" tile, `refused(status)` to tell the pages, `indexKey` the
 * address the index of sizes and last uses is kept under, `now()` the clock.
 */
export function createTileCache({ open, fetchTile, placeholder, refused = () => {}, indexKey, now = Date.now, cap = TILE_CACHE_BYTES, waitMs = TILE_WAIT_MS }) {
  let index = null;      // Promise of Map url → { bytes, used, fresh }
  let saveTimer = null;
  const inflight = new Map();

  const loadIndex = () => {
    if (!index) {
      index = (async () => {
        const cache = await open();
        const saved = await cache.match(indexKey);
        const entries = new Map();
        if (saved) {
          try {
            for (const [url, e] of Object.entries(await saved.json())) {
              if (Number.isFinite(e?.bytes) && Number.isFinite(e?.used)) entries.set(url, { bytes: e.bytes, used: e.used, fresh: Number(e.fresh) || 0 });
            }
          } catch { /* an unreadable index: start a new one; the tiles are found again as they are used */ }
        }
        return entries;
      })().catch((err) => { index = null; throw err; });
    }
    return index;
  };

  const save = () => {
    if (saveTimer) return;
    saveTimer = setTimeout(async () => {
      saveTimer = null;
      try {
        const entries = await loadIndex();
        const cache = await open();
        await cache.put(indexKey, new Response(JSON.stringify(Object.fromEntries(entries)), { headers: { 'Content-Type': 'application/json' } }));
      } catch { /* kept tiles still answer; only their order of use is lost */ }
    }, 500);
  };

  const keep = async (url, body, headers) => {
    if (!keepable(headers)) return;
    const cache = await open();
    const stored = new Headers(headers);
    await cache.put(url, new Response(body, { status: 200, headers: stored }));
    const entries = await loadIndex();
    const at = now();
    entries.set(url, { bytes: body.byteLength, used: at, fresh: freshUntil(headers, at) });
    for (const old of evictions(entries, cap)) {
      entries.delete(old);
      await cache.delete(old);
    }
    save();
  };

  const network = (url) => {
    let pending = inflight.get(url);
    if (!pending) {
      pending = (async () => {
        let timer;
        const timeout = new Promise((resolve) => { timer = setTimeout(resolve, waitMs, null); });
        const answer = fetchTile(url).then(async (response) => {
          if (!response.ok) return { status: response.status, response };
          const body = await response.arrayBuffer();
          await keep(url, body, response.headers).catch(() => {});
          return { status: response.status, body, headers: response.headers };
        });
        try {
          return await Promise.race([answer, timeout]);
        } catch {
          return null;
        } finally {
          clearTimeout(timer);
        }
      })().finally(() => inflight.delete(url));
      inflight.set(url, pending);
    }
    return pending;
  };

  const fromPhone = async (url) => {
    const cache = await open();
    const kept = await cache.match(url);
    if (!kept) return null;
    const entries = await loadIndex();
    const entry = entries.get(url);
    if (entry) { entry.used = now(); save(); }
    return { kept, fresh: (entry?.fresh ?? 0) > now() };
  };

  return {
    /** The answer to one tile request: fresh from the phone, else the network, else what the phone kept, else the placeholder. */
    async respond(url) {
      const phone = await fromPhone(url).catch(() => null);
      if (phone?.fresh) return phone.kept;
      const got = await network(url);
      if (got?.body) return new Response(got.body, { status: 200, headers: got.headers });
      if (got && isRefusal(got.status)) refused(got.status);
      if (got && got.status === 404) return got.response.clone();
      return phone?.kept ?? placeholder();
    },
    /** How many bytes are kept, for tests and the settings a person may one day see. */
    async keptBytes() {
      let total = 0;
      for (const [, e] of await loadIndex()) total += e.bytes;
      return total;
    },
  };
}
