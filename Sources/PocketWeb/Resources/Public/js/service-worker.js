/* global VERSION, PRECACHE, TILES, ROUTES */
/*
 * Pocket service worker, served at /sw.js as a module worker. The server puts two constants before
 * this file so that the cache version and the precache list always match the assets of the running
 * build: VERSION (a new build means a new version, so the old caches are dropped on activate),
 * PRECACHE (the shell's files and the offline page), TILES (the map's tile templates and the
 * placeholder tile) and ROUTES (the shell's addresses this worker treats apart, so it spells no
 * route itself); and it points the imports below at their versioned URLs. The outbox is the pages' own module (lib/outbox-core.js, offline/idb-store.js).
 *
 * Strategy: versioned /static/ assets cache-first; pages from the network when it answers within
 * a few seconds, else the phone's copy marked as saved (data-offline-saved on <html>, read by
 * js/offline/status.js; a link's navigation-only parameters such as a talk's `from` may be left out
 * to find it, lib/saved-pages.js), else the "not saved yet" page under the address asked for, so "Try
 * again" retries it. Pages people keep offline on purpose (a Conference, Murals pictures) live in
 * KEPT, which a new version does not drop. Map tiles the person viewed live in TILE_CACHE (bounded,
 * per the tile host's cache headers: lib/tile-cache-core.js), also kept across versions. Anything
 * else, SSE streams above all, passes through.
 */
import { createOutbox } from "./lib/outbox-core.js";
import { idbStore } from "./offline/idb-store.js";
import { createTileCache, tileMatcher } from "./lib/tile-cache-core.js";
import { findSaved } from "./lib/saved-pages.js";

const SHELL = `pocket-shell-${VERSION}`;
const PAGES = `pocket-pages-${VERSION}`;
const KEPT = "pocket-kept";
const TILE_CACHE = "pocket-tiles";
const OFFLINE = ROUTES.offline;
/** How long a page may take before the saved copy is shown instead. */
const NETWORK_WAIT_MS = 4000;

self.addEventListener("install", (event) => {
  // cache: "reload" so precaching doesn't pick up stale copies from the HTTP cache.
  event.waitUntil(
    caches.open(SHELL)
      .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Navigation preload: a page's request starts while this worker wakes, and its header tells the
    // server that the modules are here, so the page names none to preload (PageRenderer).
    await self.registration.navigationPreload?.enable();
    const keep = new Set([SHELL, PAGES, KEPT, TILE_CACHE]);
    for (const key of await caches.keys()) {
      if (key.startsWith("pocket-") && !keep.has(key)) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    // A form posted natively (sign-in, an upload): with no server, Pocket's own page, not the
    // browser's error page. What was posted was not sent, and the page says the server is away.
    if (request.mode === "navigate") event.respondWith(fetch(request).catch(() => notSaved()));
    return;
  }
  if (isTile(request.url)) {
    event.respondWith(tiles.respond(request.url));
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Never intercept ourselves, event streams (they'd be buffered/held open) or media range requests
  // (a cached 200 can't answer them, and 206 responses can't be cached).
  if (url.pathname === ROUTES.serviceWorker) return;
  if (request.headers.get("accept")?.includes("text/event-stream") || request.headers.has("range")) return;

  if (url.pathname.startsWith(ROUTES.assets)) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname === ROUTES.manifest) {
    event.respondWith(cacheThenUpdate(request, event));
  } else if (request.mode === "navigate" || request.headers.has("X-Pocket-Swap")) {
    event.respondWith(networkFirst(request, event));
  } else if (["image", "script", "style", "font"].includes(request.destination)) {
    event.respondWith(keptFirst(request));
  }
});

const isTile = tileMatcher(TILES.templates);

// A tile is asked for as the map's <img> asks (no cookies, CORS so its headers can be read), with
// only this origin as Referer: OpenStreetMap refuses tiles without one, and nothing else about the
// person (the page's path or query) goes to the tile host.
const tiles = createTileCache({
  open: () => caches.open(TILE_CACHE),
  fetchTile: (url) => fetch(url, { mode: "cors", credentials: "omit", referrerPolicy: "strict-origin-when-cross-origin" }),
  placeholder: async () => (await caches.match(TILES.placeholder, { cacheName: SHELL })) ?? fetch(TILES.placeholder).catch(() => Response.error()),
  // Each open map says it once (js/murals/app.js), however many tiles were refused.
  refused: (status) => {
    self.clients.matchAll({ type: "window" }).then((clients) => {
      for (const client of clients) client.postMessage({ type: "pocket-tiles-refused", status });
    });
  },
  indexKey: new URL("/pocket-tile-index", self.location.origin).href,
});

// Pictures and files kept offline on purpose (Murals' "Keep offline": thumbnails, pictures, the map
// library) answer from KEPT, with no wait for a server that may never answer; the rest from the
// network. A plain fetch() has no destination, so "Update Offline Copy" still reads the network.
// A versioned script or stylesheet (?v=HASH: the map library) is kept once used, like /static/, so
// a map opened once still draws where the signal drops.
async function keptFirst(request) {
  const kept = await caches.match(request, { cacheName: KEPT, ignoreVary: true });
  if (kept) return kept;
  const versioned = ["script", "style"].includes(request.destination) && new URL(request.url).searchParams.has("v");
  return versioned ? cacheFirst(request) : fetch(request);
}

// /static/ URLs carry ?v=HASH, so a cached copy is correct for as long as it is referenced.
async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(SHELL);
    await cache.put(request, response.clone());
  }
  return response;
}

async function cacheThenUpdate(request, event) {
  const cache = await caches.open(SHELL);
  const cached = await cache.match(request, { ignoreSearch: true });
  const update = fetch(request).then((response) => {
    if (response.ok) return cache.put(request, response.clone()).then(() => response);
    return response;
  });
  if (!cached) return update;
  event.waitUntil(update.catch(() => {}));
  return cached;
}

// Full navigations and pocket.js swaps (X-Pocket-Swap) share one cache entry per URL: both get the
// same complete HTML document. ignoreVary for the same reason. The network keeps going after the
// saved copy was shown, so the copy is fresh for next time.
async function networkFirst(request, event) {
  const network = fromNetwork(request, event).then((response) => {
    const type = response.headers.get("content-type") ?? "";
    // Redirected responses are not stored: replaying one to a navigation is a network error.
    if (response.ok && !response.redirected && type.includes("text/html")) {
      event.waitUntil(store(request.url, response.clone()).catch(() => {}));
    }
    return response;
  });
  event.waitUntil(network.catch(() => {}));
  const timeout = new Promise((resolve) => setTimeout(resolve, NETWORK_WAIT_MS, "timeout"));
  const first = await Promise.race([network, timeout]).catch(() => "failed");
  if (first instanceof Response) return first;
  return (await savedCopy(request.url)) ?? (await notSaved());
}

/** A navigation's preloaded answer (asked for while the worker woke), else the network's. */
async function fromNetwork(request, event) {
  return (await event.preloadResponse) ?? fetch(request);
}

/** Keeps a page, with the time it was saved, for when the network is gone. */
async function store(url, response) {
  const headers = new Headers(response.headers);
  headers.set("X-Pocket-Saved", String(Date.now()));
  const copy = new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers });
  const cache = await caches.open(PAGES);
  await cache.put(url, copy);
}

/**
 * The saved copy of a page, its <html> marked with when it was saved. A new Response (not the
 * cached one) so that the page keeps the address it asked for. A talk opened from a search, a
 * speaker or a verse is the copy saved under that address if there is one, else the talk kept
 * under its plain address (lib/saved-pages.js says which parameters may be left out).
 */
async function savedCopy(url) {
  const cached = await findSaved(url, async (address) => (await caches.match(address, { cacheName: PAGES, ignoreVary: true }))
    ?? (await caches.match(address, { cacheName: KEPT, ignoreVary: true })));
  if (!cached) return null;
  const saved = cached.headers.get("X-Pocket-Saved") ?? String(Date.parse(cached.headers.get("date") ?? "") || Date.now());
  const html = (await cached.text()).replace(/<html\b/i, `<html data-offline-saved="${Number(saved) || Date.now()}"`);
  return new Response(html, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

/** The "not saved yet" page, under the address asked for (a new Response keeps it); a 200, since it
 * is a page Pocket meant to show (it marks itself with data-offline-page for js/offline/status.js). */
async function notSaved() {
  const page = await caches.match(OFFLINE, { ignoreVary: true });
  if (!page) return Response.error();
  return new Response(await page.text(), { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// pocket.js sends a page it got back from an in-place change (a spot, a star, a key), so the saved
// copy shows what the person last saw; the outbox asks for a flush on background sync.
self.addEventListener("message", (event) => {
  const data = event.data;
  if (data?.type === "pocket-store" && typeof data.url === "string" && typeof data.html === "string") {
    const url = new URL(data.url, self.location.origin);
    if (url.origin !== self.location.origin) return;
    url.hash = "";
    event.waitUntil(store(url.href, new Response(data.html, { headers: { "Content-Type": "text/html; charset=utf-8" } })).catch(() => {}));
  }
});

// Background sync (where the browser has it): an open Pocket page sends its own outbox (it knows
// who is signed in); with none open, the worker sends each change as it was bound, and the server
// sets aside any that is not the session's device's. A rejected wait makes the browser try the
// sync again later.
self.addEventListener("sync", (event) => {
  if (event.tag !== "pocket-outbox") return;
  event.waitUntil(self.clients.matchAll({ type: "window" }).then(async (clients) => {
    if (clients.length) {
      for (const client of clients) client.postMessage("pocket-flush");
      return;
    }
    if (!(await createOutbox({ store: idbStore }).flush())) throw new Error("Pocket: changes still waiting");
  }));
});
