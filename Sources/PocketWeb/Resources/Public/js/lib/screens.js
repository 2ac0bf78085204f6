/*
 * screens.js: pure decisions about addresses and transitions, without the DOM, so Node's test
 * runner can check them (Tests/JavaScript/screens.test.mjs).
 */

/**
 * Whether `url` is one of Pocket's screens that can be swapped in: same origin, http(s), not a
 * static file (below `staticFolder`, as the server names it) or a non-HTML document.
 */
export function isScreenURL(url, origin, staticFolder) {
  if (!/^https?:$/.test(url.protocol) || url.origin !== origin) return false;
  if (staticFolder && url.pathname.startsWith(staticFolder)) return false;
  const ext = url.pathname.match(/\.([a-z0-9]+)$/i)?.[1];
  return !ext || /^html?$/i.test(ext); // .json, .png, .webmanifest… are not screens
}

/**
 * The animation a swap uses: push/pop slide; an app may name its own (e.g. "flip") for its CSS to
 * define; anything else is none. Reduced motion makes slides instant and named animations a fade.
 */
export function effectiveTransition(name, reducedMotion) {
  let transition = /^[a-z][a-z-]*$/.test(name ?? '') ? name : 'none';
  if (reducedMotion && transition !== 'none') transition = ['push', 'pop'].includes(transition) ? 'none' : 'fade';
  return transition;
}

/**
 * How a swap changes history: 'push', 'replace' or 'none'. A POST result keeps the URL unless it
 * redirected; a POST that redirects back to its own page is an update in place (replace).
 */
export function historyMode({ requested, method, redirected, samePage, sameUrl }) {
  let mode = requested;
  if (method === 'POST') mode = redirected ? (samePage ? 'replace' : 'push') : 'none';
  if (mode === 'push' && sameUrl) mode = 'replace';
  return mode;
}
