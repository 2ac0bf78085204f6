// The navigation's pure decisions (js/lib/screens.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveTransition, historyMode, isScreenURL } from '../../Sources/PocketWeb/Resources/Public/js/lib/screens.js';

const origin = 'https://pocket.example';

test('only same-origin pages are screens, not static files or other documents', () => {
  assert.equal(isScreenURL(new URL('/plates', origin), origin), true);
  assert.equal(isScreenURL(new URL('/plates/index.html', origin), origin), true);
  assert.equal(isScreenURL(new URL('/conference/talks/12?from=x', origin), origin), true);
  assert.equal(isScreenURL(new URL('https://other.example/plates'), origin), false);
  assert.equal(isScreenURL(new URL('/static/css/pocket.css', origin), origin), false);
  assert.equal(isScreenURL(new URL('/manifest.webmanifest', origin), origin), false);
  assert.equal(isScreenURL(new URL('/converter/catalog.json', origin), origin), false);
  assert.equal(isScreenURL(new URL('mailto:someone@pocket.example'), origin), false);
});

test('transitions are named animations, and reduced motion tones them down', () => {
  assert.equal(effectiveTransition('push', false), 'push');
  assert.equal(effectiveTransition('flip', false), 'flip');
  assert.equal(effectiveTransition('Not A Name!', false), 'none');
  assert.equal(effectiveTransition(undefined, false), 'none');
  assert.equal(effectiveTransition('push', true), 'none');
  assert.equal(effectiveTransition('pop', true), 'none');
  assert.equal(effectiveTransition('flip', true), 'fade');
  assert.equal(effectiveTransition('none', true), 'none');
});

test('a post keeps the address unless it redirects, and one back to its own page replaces the entry', () => {
  assert.equal(historyMode({ requested: 'push', method: 'GET', redirected: false, samePage: false, sameUrl: false }), 'push');
  assert.equal(historyMode({ requested: 'push', method: 'GET', redirected: false, samePage: false, sameUrl: true }), 'replace');
  assert.equal(historyMode({ requested: 'none', method: 'GET', redirected: false, samePage: false, sameUrl: false }), 'none');
  assert.equal(historyMode({ requested: 'push', method: 'POST', redirected: false, samePage: false, sameUrl: false }), 'none');
  assert.equal(historyMode({ requested: 'push', method: 'POST', redirected: true, samePage: true, sameUrl: true }), 'replace');
  assert.equal(historyMode({ requested: 'push', method: 'POST', redirected: true, samePage: false, sameUrl: false }), 'push');
});
