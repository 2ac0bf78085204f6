/* global VERSION, PRECACHE */
/*
 * Pocket service worker, served at /sw.js. The server puts two constants before this file so that
 * the cache version and the precache list always match the assets of the running build:
 * VERSION (a new build means a new version, so the old caches are dropped on activate) and
 * PRECACHE (the shell's files and the offline page).
 *
 * Strategy: versioned /static/ assets cache-first; pages network-first with a cached copy (or
 * /offline) when the network is gone. Anything else, SSE streams above all, passes through.
 */
const SHELL = `pocket-shell-${VERSION}`;
const PAGES = `pocket-pages-${VERSION}`;
const OFFLINE = "/offline";

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
    const keep = new Set([SHELL, PAGES]);
    for (const key of await caches.keys()) {
      if (key.startsWith("pocket-") && !keep.has(key)) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  // Never intercept ourselves, event streams (they'd be buffered/held open) or media range requests
  // (a cached 200 can't answer them, and 206 responses can't be cached).
  if (url.pathname === "/sw.js" || request.url.includes("/events")) return;
  if (request.headers.get("accept")?.includes("text/event-stream") || request.headers.has("range")) return;

  if (url.pathname.startsWith("/static/")) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname === "/manifest.webmanifest") {
    event.respondWith(cacheThenUpdate(request, event));
  } else if (request.mode === "navigate" || request.headers.has("X-Pocket-Swap")) {
    event.respondWith(networkFirst(request, event));
  }
});

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
// same complete HTML document. ignoreVary for the same reason.
async function networkFirst(request, event) {
  try {
    const response = await fetch(request);
    const type = response.headers.get("content-type") ?? "";
    // Redirected responses are not stored: replaying one to a navigation is a network error.
    if (response.ok && !response.redirected && type.includes("text/html") && !request.url.includes("/events")) {
      const copy = response.clone();
      event.waitUntil(caches.open(PAGES).then((cache) => cache.put(request.url, copy)).catch(() => {}));
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request.url, { cacheName: PAGES, ignoreVary: true });
    return cached ?? (await caches.match(OFFLINE, { ignoreVary: true })) ?? Response.error();
  }
}
