// What the offline bar says (js/lib/offline-text.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { barText, changes } from '../../Sources/PocketWeb/Resources/Public/js/lib/offline-text.js';

test('counts changes in words', () => {
  assert.equal(changes(1), '1 change');
  assert.equal(changes(0), '0 changes');
  assert.equal(changes(12), '12 changes');
});

test('offline says so, with the changes waiting and when the page was saved', () => {
  assert.equal(barText({ offline: true, waiting: 0, saved: 0 }), 'Offline');
  assert.equal(barText({ offline: true, waiting: 3, saved: 0 }), 'Offline — 3 changes waiting');
  const saved = Date.UTC(2026, 10, 24, 10, 42);
  const text = barText({ offline: true, waiting: 1, saved, locale: 'en-GB' });
  assert.match(text, /^Offline — 1 change waiting · saved 24 Nov 2026, \d\d:42$/);
});

test('online, only changes still being sent are shown', () => {
  assert.equal(barText({ offline: false, waiting: 2, saved: 0 }), 'Sending 2 changes…');
  assert.equal(barText({ offline: false, waiting: 0, saved: 0 }), null);
  assert.equal(barText({ offline: false, waiting: 0, saved: 123 }), null);
});
