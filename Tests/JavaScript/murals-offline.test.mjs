// The Murals app's offline rules (js/murals/offline-core.js): what "Keep offline" saves, its words,
// and how stars still waiting in the outbox change the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bytesText, keepPlan, keptText, muralOfForm, pendingStars, progressText, starChange,
} from '../../Sources/PocketWeb/Resources/Public/js/murals/offline-core.js';

const BASE = 'http://127.0.0.1:8080/murals';

test('keepPlan keeps same-origin addresses once, in order, with known sizes', () => {
  const plan = keepPlan({
    items: [
      { url: '/murals', bytes: null },
      { url: '/murals/mural/3/thumbnail', bytes: 2048 },
      { url: 'https://tile.openstreetmap.org/1/1/1.png', bytes: 10 },
      { url: '/murals#top', bytes: null },
      { url: '//evil.example/x', bytes: null },
      { url: 'javascript:alert(1)', bytes: null },
      { url: 42 },
      null,
      { url: '/murals/mural/3', bytes: 'big' },
    ],
  }, BASE);
  assert.deepEqual(plan, [
    { url: 'http://127.0.0.1:8080/murals', bytes: null },
    { url: 'http://127.0.0.1:8080/murals/mural/3/thumbnail', bytes: 2048 },
    { url: 'http://127.0.0.1:8080/murals/mural/3', bytes: null },
  ]);
});

test('keepPlan of something that is not a list is empty', () => {
  assert.deepEqual(keepPlan(null, BASE), []);
  assert.deepEqual(keepPlan({ items: 'x' }, BASE), []);
});

test('sizes read as people read them', () => {
  assert.equal(bytesText(0), '0 bytes');
  assert.equal(bytesText(-5), '0 bytes');
  assert.equal(bytesText(Number.NaN), '0 bytes');
  assert.equal(bytesText(999), '999 bytes');
  assert.equal(bytesText(1000), '1.0 KB');
  assert.equal(bytesText(12_345), '12 KB');
  assert.equal(bytesText(3_449_000), '3.4 MB');
  assert.equal(bytesText(1_200_000_000), '1.2 GB');
});

test('progress and kept lines', () => {
  assert.equal(progressText(12, 48), 'Saving 12 of 48…');
  assert.equal(keptText({ murals: 24, bytes: 3_400_000 }), 'Kept offline · 24 murals · 3.4 MB');
  assert.equal(keptText({ murals: 1, bytes: 500, failed: 2 }), 'Kept offline · 1 mural · 500 bytes · 2 not saved');
});

test('a star change is the body the server expects', () => {
  assert.deepEqual(starChange('12', true), { kind: 'favourite', mural: 12 });
  assert.deepEqual(starChange(7, false), { kind: 'unfavourite', mural: 7 });
});

test('the mural of a star form comes from its data-favourite, never its action', () => {
  assert.equal(muralOfForm({ dataset: { favourite: '12' } }), '12');
  assert.equal(muralOfForm({ dataset: { favourite: 'x' } }), null);
  assert.equal(muralOfForm({ dataset: { favourite: '' } }), null);
  assert.equal(muralOfForm({ getAttribute: () => '/murals/mural/12/favourite', dataset: {} }), null);
  assert.equal(muralOfForm(null), null);
});

const change = (id, at, kind, mural) => ({ id, at, app: 'murals', url: '/murals/changes', body: { kind, mural } });

test('waiting stars: the latest change per mural wins, whatever the order listed', () => {
  const changes = [
    change('b', 300, 'unfavourite', 1),
    change('a', 100, 'favourite', 1),
    change('c', 200, 'favourite', 2),
    change('d', 250, 'unfavourite', 3),
    change('e', 260, 'favourite', 3),
  ];
  assert.deepEqual([...pendingStars(changes)], [['1', false], ['2', true], ['3', true]]);
  assert.deepEqual([...pendingStars([...changes].reverse())].sort(), [['1', false], ['2', true], ['3', true]]);
});

test('waiting stars at the same time go to the larger id, as on the server', () => {
  const one = change('aaa', 500, 'favourite', 4);
  const two = change('bbb', 500, 'unfavourite', 4);
  assert.equal(pendingStars([one, two]).get('4'), false);
  assert.equal(pendingStars([two, one]).get('4'), false);
});

test('waiting changes that are not stars are ignored', () => {
  const odd = [
    { id: 'x', at: 1, body: { kind: 'spot', mural: 1 } },
    { id: 'y', at: 2, body: { kind: 'favourite', mural: '2' } },
    { id: 'z', at: 3 },
  ];
  assert.equal(pendingStars(odd).size, 0);
  assert.equal(pendingStars(undefined).size, 0);
});
