// The trust page's decisions (js/lib/trust-core.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { continueURL, platformOf, safePath } from '../../Sources/PocketWeb/Resources/Public/js/lib/trust-core.js';

test('the fragment a pairing or setup link carries is handed on to HTTPS', () => {
  const code = 'Ab_9-'.repeat(8) + 'xyz';
  assert.equal(continueURL({ hostname: 'laptop.local', hash: `#/join/${code}` }, '8443'), `https://laptop.local:8443/join/${code}`);
  assert.equal(continueURL({ hostname: '192.168.1.20', hash: '#/setup/abc' }, 8443), 'https://192.168.1.20:8443/setup/abc');
  assert.equal(continueURL({ hostname: '[fd00::5]', hash: '' }, 8443), 'https://[fd00::5]:8443/');
});

test('anything but a plain path of Pocket goes to the home screen', () => {
  for (const hash of ['', '#', '#join/x', '#//evil.example/x', '#/../x', '#/a/./b', '#/a?x=1', '#/a b', '#javascript:alert(1)',
    '#/join/%2F%2Fevil', '#https://evil.example']) {
    assert.equal(safePath(hash), '/', hash);
  }
  assert.equal(safePath('#/plates'), '/plates');
});

test('a port that is not a port gives no address at all', () => {
  for (const port of ['', 'x', '0', '70000', '84.5', undefined]) {
    assert.equal(continueURL({ hostname: 'laptop.local', hash: '' }, port), null, String(port));
  }
});

test('the device decides which steps open first, an iPad that says Mac included', () => {
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1';
  const ipad = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
  const android = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0 Mobile Safari/537.36';
  assert.equal(platformOf(iphone, 5), 'apple');
  assert.equal(platformOf(ipad, 5), 'apple');
  assert.equal(platformOf(ipad, 0), 'other', 'a Mac has no touch screen');
  assert.equal(platformOf(android, 5), 'android');
  assert.equal(platformOf('Mozilla/5.0 (X11; Linux x86_64) Chrome/125.0', 0), 'other');
  assert.equal(platformOf(undefined, undefined), 'other');
});
