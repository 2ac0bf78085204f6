// The map tiles a phone keeps (js/lib/tile-cache-core.js): which addresses are tiles, the tile
// host's cache headers, least-recently-used eviction, and the answers the service worker gives,
// over an in-memory Cache and a scripted tile host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  createTileCache, evictions, freshUntil, isRefusal, keepable, tileMatcher,
} from '../../Sources/PocketWeb/Resources/Public/js/lib/tile-cache-core.js';

const OSM = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

test('tileMatcher knows the templates’ tiles and nothing else', () => {
  const isTile = tileMatcher([OSM, 'https://{s}.tiles.example/base/{z}/{x}/{y}{r}.png']);
  assert.equal(isTile('https://tile.openstreetmap.org/17/64980/42380.png'), true);
  assert.equal(isTile('https://b.tiles.example/base/3/1/2@2x.png'), true);
  assert.equal(isTile('https://b.tiles.example/base/3/1/2.png'), true);
  assert.equal(isTile('https://tile.openstreetmap.org/17/64980/42380.png?x=1'), false);
  assert.equal(isTile('https://tile.openstreetmap.org/a/b/c.png'), false);
  assert.equal(isTile('https://tileXopenstreetmap.org/1/1/1.png'), false, 'a dot is a dot');
  assert.equal(isTile('https://evil.example/https://tile.openstreetmap.org/1/1/1.png'), false);
  assert.equal(isTile(42), false);
  assert.equal(tileMatcher(null)('https://tile.openstreetmap.org/1/1/1.png'), false);
});

const headers = (fields) => new Headers(fields);

test('freshUntil follows max-age less Age, then Expires less Date; no-cache and no-store are never fresh', () => {
  const t = Date.parse('2026-11-27T10:00:00Z');
  assert.equal(freshUntil(headers({ 'Cache-Control': 'public, max-age=600' }), t), t + 600_000);
  assert.equal(freshUntil(headers({ 'Cache-Control': 'max-age=600', Age: '100' }), t), t + 500_000);
  assert.equal(freshUntil(headers({ 'Cache-Control': 'max-age=60', Age: '100' }), t), 0);
  assert.equal(freshUntil(headers({ Expires: 'Fri, 27 Nov 2026 11:00:00 GMT', Date: 'Fri, 27 Nov 2026 10:30:00 GMT' }), t), t + 1_800_000);
  assert.equal(freshUntil(headers({ Expires: 'Fri, 27 Nov 2026 11:00:00 GMT' }), t), t + 3_600_000);
  assert.equal(freshUntil(headers({ 'Cache-Control': 'no-cache, max-age=600' }), t), 0);
  assert.equal(freshUntil(headers({}), t), 0);
  assert.equal(freshUntil(headers({ Expires: 'soon' }), t), 0);
  assert.equal(keepable(headers({ 'Cache-Control': 'no-store' })), false);
  assert.equal(keepable(headers({ 'Cache-Control': 'max-age=1' })), true);
});

test('evictions drop the least recently used until what is kept fits', () => {
  const entries = new Map([
    ['a', { bytes: 40, used: 3 }], ['b', { bytes: 40, used: 1 }], ['c', { bytes: 40, used: 2 }],
  ]);
  assert.deepEqual(evictions(entries, 120), []);
  assert.deepEqual(evictions(entries, 100), ['b']);
  assert.deepEqual(evictions(entries, 40), ['b', 'c']);
});

test('only a policy refusal or too many requests counts as refused', () => {
  assert.equal(isRefusal(403), true);
  assert.equal(isRefusal(429), true);
  assert.equal(isRefusal(404), false);
  assert.equal(isRefusal(500), false);
});

/** The parts of the Cache API the tile cache uses, in memory. */
function memoryCache() {
  const rows = new Map();
  return {
    rows,
    match: async (url) => rows.get(url)?.clone(),
    put: async (url, response) => { rows.set(url, response); },
    delete: async (url) => rows.delete(url),
  };
}

/** A tile host: each tile's body names it; `answers` may script a status or 'offline' per call. */
function harness({ cap, maxAge = 600, answers = [] } = {}) {
  const cache = memoryCache();
  const asked = [];
  const refused = [];
  let clock = Date.parse('2026-11-27T10:00:00Z');
  const tiles = createTileCache({
    open: async () => cache,
    fetchTile: async (url) => {
      asked.push(url);
      const answer = answers.shift() ?? 200;
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      if (answer === 'hang') return new Promise(() => {});
      const body = answer === 200 ? `tile ${url}` : `refused ${answer}`;
      return new Response(body, { status: answer, headers: { 'Cache-Control': `max-age=${maxAge}`, 'Content-Type': 'image/png' } });
    },
    placeholder: async () => new Response('placeholder', { headers: { 'Content-Type': 'image/svg+xml' } }),
    refused: (status) => refused.push(status),
    indexKey: 'https://pocket.test/pocket-tile-index',
    now: () => clock,
    ...(cap ? { cap } : {}),
    waitMs: 50,
  });
  return { tiles, cache, asked, refused, tick: (ms) => { clock += ms; } };
}

const tile = (n) => `https://tile.openstreetmap.org/17/${n}/1.png`;

test('a fresh tile is answered from the phone: the host sees it once', async () => {
  const h = harness();
  assert.equal(await (await h.tiles.respond(tile(1))).text(), `tile ${tile(1)}`);
  h.tick(599_000);
  assert.equal(await (await h.tiles.respond(tile(1))).text(), `tile ${tile(1)}`);
  assert.deepEqual(h.asked, [tile(1)]);
});

test('tiles asked for at once go to the host once', async () => {
  const h = harness();
  const answers = await Promise.all([1, 1, 1, 2].map((n) => h.tiles.respond(tile(n))));
  assert.deepEqual(await Promise.all(answers.map((r) => r.text())), [1, 1, 1, 2].map((n) => `tile ${tile(n)}`));
  assert.deepEqual(h.asked, [tile(1), tile(2)]);
});

test('a stale tile is asked for again; with no network the kept copy is shown', async () => {
  const h = harness({ answers: [200, 'offline'] });
  await h.tiles.respond(tile(1));
  h.tick(601_000);
  const response = await h.tiles.respond(tile(1));
  assert.equal(await response.text(), `tile ${tile(1)}`);
  assert.deepEqual(h.asked, [tile(1), tile(1)]);
});

test('a tile never viewed, with no network, is the placeholder; so is one that never answers', async () => {
  const h = harness({ answers: ['offline', 'hang'] });
  assert.equal(await (await h.tiles.respond(tile(1))).text(), 'placeholder');
  assert.equal(await (await h.tiles.respond(tile(2))).text(), 'placeholder');
});

test('a refused tile is told once per refusal and never kept; the kept copy or the placeholder shows', async () => {
  const h = harness({ answers: [200, 403, 429] });
  await h.tiles.respond(tile(1));
  h.tick(601_000);
  assert.equal(await (await h.tiles.respond(tile(1))).text(), `tile ${tile(1)}`, 'the kept copy, not the blocked image');
  assert.equal(await (await h.tiles.respond(tile(2))).text(), 'placeholder');
  assert.deepEqual(h.refused, [403, 429]);
  assert.equal(h.cache.rows.has(tile(2)), false);
});

test('a tile off the map (404) is passed on as it is', async () => {
  const h = harness({ answers: [404] });
  assert.equal((await h.tiles.respond(tile(1))).status, 404);
  assert.deepEqual(h.refused, []);
});

test('what is kept stays within the cap, least recently used dropped first', async () => {
  const size = `tile ${tile(1)}`.length;
  const h = harness({ cap: size * 3 });
  for (const n of [1, 2, 3]) { await h.tiles.respond(tile(n)); h.tick(1000); }
  await h.tiles.respond(tile(1)); // used again: now the most recent
  h.tick(1000);
  await h.tiles.respond(tile(4));
  assert.deepEqual([...h.cache.rows.keys()].filter((k) => k.startsWith('https://tile')).sort(), [tile(1), tile(3), tile(4)]);
  assert.equal(await h.tiles.keptBytes(), size * 3);
});

test('no-store tiles are shown but not kept', async () => {
  const cache = memoryCache();
  const tiles = createTileCache({
    open: async () => cache,
    fetchTile: async () => new Response('x', { headers: { 'Cache-Control': 'no-store' } }),
    placeholder: async () => new Response('placeholder'),
    indexKey: 'https://pocket.test/pocket-tile-index',
  });
  assert.equal(await (await tiles.respond(tile(1))).text(), 'x');
  assert.equal(cache.rows.size, 0);
});
