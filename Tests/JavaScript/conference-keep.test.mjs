// "Keep Offline" for a conference (js/conference/app.js): sizes, and keeping every listed address
// in the "pocket-kept" cache, against an in-memory stand-in for fetch and Cache Storage.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEPT_CACHE, keepConference, keptState, keptText, sizeText } from '../../Sources/PocketWeb/Resources/Public/js/conference/app.js';

const BASE = 'http://pocket.test/conference/conferences/1';

function fakeCaches() {
  const stores = new Map();
  return {
    stores,
    async has(name) { return stores.has(name); },
    async open(name) {
      if (!stores.has(name)) stores.set(name, new Map());
      const store = stores.get(name);
      return {
        async put(url, response) { store.set(url, response); },
        async match(url) { return store.get(url)?.clone(); },
      };
    },
  };
}

function fakeFetch(routes, seen = []) {
  return async (url) => {
    seen.push(url);
    const body = routes[new URL(url).pathname + new URL(url).search];
    if (body === undefined) return new Response('missing', { status: 404 });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { headers: { 'Content-Type': 'text/html' } });
  };
}

test('sizes read as iOS shows them', () => {
  assert.equal(sizeText(0), '0 bytes');
  assert.equal(sizeText(1), '1 byte');
  assert.equal(sizeText(999), '999 bytes');
  assert.equal(sizeText(380_400), '380 KB');
  assert.equal(sizeText(2_449_000), '2.4 MB');
  assert.equal(keptText(2_449_000), 'Kept offline · 2.4 MB');
  assert.equal(keptText(1500, 2), 'Kept offline · 2 KB · 2 talk texts could not be fetched');
});

test('keeping puts every listed address and the list into pocket-kept, with progress and size', async () => {
  const list = {
    conference: 1, title: 'April', missing: [],
    items: [
      { url: '/conference/conferences/1', kind: 'list' },
      { url: '/conference/talks/5?from=conference-1', kind: 'talk' },
      { url: '/conference/talks/5/text', kind: 'text', size: 11 },
    ],
  };
  const routes = {
    '/conference/conferences/1/keep': list,
    '/conference/conferences/1': 'list page',
    '/conference/talks/5?from=conference-1': 'talk page',
    '/conference/talks/5/text': '<p>text</p>',
  };
  const caches = fakeCaches();
  const progress = [];
  const result = await keepConference('/conference/conferences/1/keep', { fetch: fakeFetch(routes), caches, base: BASE }, (d, t) => progress.push([d, t]));
  const store = caches.stores.get(KEPT_CACHE);
  assert.deepEqual([...store.keys()].sort(), [
    'http://pocket.test/conference/conferences/1',
    'http://pocket.test/conference/conferences/1/keep',
    'http://pocket.test/conference/talks/5/text',
    'http://pocket.test/conference/talks/5?from=conference-1',
  ]);
  assert.equal(await store.get('http://pocket.test/conference/talks/5/text').clone().text(), '<p>text</p>');
  assert.equal(result.bytes, 'list page'.length + 'talk page'.length + '<p>text</p>'.length);
  assert.deepEqual(progress.at(0), [0, 3]);
  assert.deepEqual(progress.at(-1), [3, 3]);
  assert.deepEqual(await keptState('/conference/conferences/1/keep', '/conference/conferences/1', { caches, base: BASE }), { bytes: result.bytes, missing: 0 });
});

test('a conference never kept, or a failed address, is not reported as kept', async () => {
  const caches = fakeCaches();
  assert.equal(await keptState('/conference/conferences/1/keep', '/conference/conferences/1', { caches, base: BASE }), null);
  const routes = { '/conference/conferences/1/keep': { items: [{ url: '/conference/talks/9/text' }], missing: [] } };
  await assert.rejects(keepConference('/conference/conferences/1/keep', { fetch: fakeFetch(routes), caches, base: BASE }),
    /\/conference\/talks\/9\/text could not be kept \(the server answered 404\)/);
  assert.equal(await keptState('/conference/conferences/1/keep', '/conference/conferences/1', { caches, base: BASE }), null);
});

test('a bookmark form names its talk, and the latest waiting change per talk says what to show', async () => {
  const { talkOfForm, pendingBookmark } = await import('../../Sources/PocketWeb/Resources/Public/js/conference/app.js');
  assert.equal(talkOfForm({ dataset: { talk: '8803' } }), 8803);
  assert.equal(talkOfForm({ dataset: { talk: 'x' } }), null);
  assert.equal(talkOfForm({ dataset: {} }), null);
  assert.equal(talkOfForm(null), null);
  const change = (id, at, kind, talk) => ({ id, at, body: { kind, talk } });
  const waiting = [change('b', 20, 'unbookmark', 8803), change('a', 10, 'bookmark', 8803), change('c', 30, 'bookmark', 8804)];
  assert.equal(pendingBookmark(waiting, 8803), false);
  assert.equal(pendingBookmark(waiting, 8804), true);
  assert.equal(pendingBookmark(waiting, 1), null);
  assert.equal(pendingBookmark([change('z', 5, 'bookmark', 7), change('y', 5, 'unbookmark', 7)], 7), true, 'equal times: the larger id');
});
