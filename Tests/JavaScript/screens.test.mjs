// The navigation's pure decisions (js/lib/screens.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { effectiveTransition, historyMode, isScreenURL } from '../../Sources/PocketWeb/Resources/Public/js/lib/screens.js';

const origin = 'https://pocket.example';

test('only same-origin pages are screens, not static files or other documents', () => {
  const screen = (path) => isScreenURL(new URL(path, origin), origin, '/static/');
  assert.equal(screen('/plates'), true);
  assert.equal(screen('/plates/index.html'), true);
  assert.equal(screen('/conference/talks/12?from=x'), true);
  assert.equal(screen('https://other.example/plates'), false);
  assert.equal(screen('/static/css/pocket.css'), false);
  assert.equal(screen('/manifest.webmanifest'), false);
  assert.equal(screen('/converter/catalog.json'), false);
  assert.equal(screen('mailto:someone@pocket.example'), false);
});

test('the static folder is the one the server names', () => {
  assert.equal(isScreenURL(new URL('/assets/app', origin), origin, '/assets/'), false);
  assert.equal(isScreenURL(new URL('/static/app', origin), origin, '/assets/'), true);
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
