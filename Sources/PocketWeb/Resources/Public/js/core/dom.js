/*
 * dom.js: the pieces every client module shares: the current screen, small DOM helpers, the
 * per-screen setup and teardown registry, and the screen-reader announcer.
 *
 * A screen is the server-rendered [data-screen] element that navigation swaps. Modules register
 * what they set up on each screen with onScreen(); what they must undo goes into teardown, which
 * runs just before the next swap.
 */

export const root = document.documentElement;
export const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

export const screenEl = () => document.querySelector('[data-screen]');
export const scroller = () => screenEl()?.querySelector('.content');
/** Like querySelectorAll, but also matches the scope itself (a patched fragment can *be* the control). */
export const $$ = (scope, sel) => [...(scope.matches?.(sel) ? [scope] : []), ...scope.querySelectorAll(sel)];
export const withoutHash = (u) => { const x = new URL(u, location.href); x.hash = ''; return x.href; };
export const fire = (el, ...types) => types.forEach((t) => el.dispatchEvent(new Event(t, { bubbles: true })));
/**
 * An address the server names for Pocket's own scripts in the head (`<meta name="pocket-routes">`:
 * `serviceWorker`, `static`, `signIn`), so no script spells a route; undefined on a page without it.
 */
export const route = (name) => document.querySelector('meta[name="pocket-routes"]')?.dataset[name];

/** Cleanups for the current screen (EventSources, observers), run before the next swap. */
export const teardown = [];
const hooks = [];

/** Runs `setup(screen)` on the first screen and on every screen swapped in after it. */
export function onScreen(setup) {
  hooks.push(setup);
}

/** Sets a new screen up: every registered hook, in registration order. */
export function initScreen(screen) {
  for (const setup of hooks) {
    try { setup(screen); } catch (err) { console.debug('Pocket: screen setup failed', err); }
  }
}

/** Runs and forgets the current screen's cleanups. */
export function tearDown() {
  for (const fn of teardown.splice(0)) fn();
}

/** Says `text` through the polite live region. */
export function announce(text) {
  const live = liveRegion();
  live.textContent = ''; // clear first so the same title twice is still announced
  setTimeout(() => { live.textContent = text; }, 60);
}

/** The page's polite live region, made if the page has none. */
export function liveRegion() {
  let live = document.getElementById('pocket-live');
  if (!live) {
    live = Object.assign(document.createElement('div'), { id: 'pocket-live', className: 'visually-hidden' });
    live.setAttribute('aria-live', 'polite');
    document.body.append(live);
  }
  return live;
}
