/*
 * saved-pages.js: which saved copy answers a page asked for away from the server, with no caches,
 * fetch or DOM, so Node can test it (Tests/JavaScript/saved-pages.test.mjs). The service worker looks its
 * saved and kept pages up through `findSaved`.
 *
 * A page is saved under the address it was asked by, but some query parameters only say how the
 * person got there: a talk's `from` names the list shown beside it and its back link (the
 * conference, a speaker, a verse, a search), never which talk it is. A conference kept offline
 * holds each talk under its list's address and its plain one (ConferencePages.keep), so a talk
 * reached from a search, a speaker or a verse's citations is the plain kept talk: the same talk
 * to read, beside its own conference's list, whose links all work offline too.
 */

/**
 * The query parameters that do not change the page, by path: the one place this is said. The
 * server writes them into its links and reads them back in one place each, named here.
 */
export const NAVIGATION_ONLY = Object.freeze([
  // Conference: ConferenceRoute.talk(_, from:) writes `from` (TalkListSource.token:
  // conference-12, speaker-369, verse-131-1-1, verse-131-1-all, search-…); ConferencePages.talk reads it.
  Object.freeze({ path: /^\/conference\/talks\/\d+$/, params: Object.freeze(['from']) }),
]);

/** The parameters of a page at `pathname` that only say how it was reached ([] for most pages). */
export function navigationOnlyParams(pathname, rules = NAVIGATION_ONLY) {
  return rules.find((rule) => rule.path.test(pathname))?.params ?? [];
}

/**
 * The addresses a saved copy of `url` may be under, best first: the address itself (a copy of
 * exactly that page, its list and back link included), then the same page without its
 * navigation-only parameters. Fragments are never part of a saved page's address.
 */
export function savedAddresses(url, base = undefined, rules = NAVIGATION_ONLY) {
  const asked = new URL(url, base);
  asked.hash = '';
  const addresses = [asked.href];
  const names = navigationOnlyParams(asked.pathname, rules).filter((name) => asked.searchParams.has(name));
  if (names.length) {
    const plain = new URL(asked.href);
    for (const name of names) plain.searchParams.delete(name);
    if (![...plain.searchParams.keys()].length) plain.search = '';
    addresses.push(plain.href);
  }
  return addresses;
}

/**
 * The first saved copy of `url` that `match(address)` (async: a response, or null/undefined)
 * finds, in `savedAddresses` order; null when none is saved.
 */
export async function findSaved(url, match, rules = NAVIGATION_ONLY) {
  for (const address of savedAddresses(url, undefined, rules)) {
    const found = await match(address);
    if (found) return found;
  }
  return null;
}
