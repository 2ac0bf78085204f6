/*
 * trust-core.js: the trust page's decisions, without the DOM, so Node's test runner can check them
 * (Tests/JavaScript/trust.test.mjs).
 */

/**
 * The path a trust-page link carried in its fragment (`#/join/CODE`, which the browser never sent
 * over plain HTTP), if it is a plain path of Pocket's: letters, digits, `/`, `_`, `-`, `.`, no `..`
 * segment and no `//` (which would name another host). Anything else is Pocket's home, `/`.
 */
export function safePath(fragment) {
  const path = String(fragment ?? '').replace(/^#/, '');
  if (!/^\/[A-Za-z0-9/_.-]*$/.test(path) || path.startsWith('//')) return '/';
  if (path.split('/').some((segment) => segment === '..' || segment === '.')) return '/';
  return path;
}

/** Where the trust page goes once the phone trusts Pocket: the same host name on Pocket's HTTPS port, at the fragment's path. */
export function continueURL(location, httpsPort) {
  const port = Number(httpsPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return `https://${location.hostname}:${port}${safePath(location.hash)}`;
}

/** 'apple', 'android' or 'other': which download and which Settings screens fit this device. An iPad asks for desktop pages as a Mac, but has a touch screen. */
export function platformOf(userAgent, maxTouchPoints) {
  const agent = String(userAgent ?? '');
  if (/iPhone|iPad|iPod/.test(agent)) return 'apple';
  if (/Macintosh/.test(agent) && Number(maxTouchPoints) > 1) return 'apple';
  if (/Android/.test(agent)) return 'android';
  return 'other';
}
