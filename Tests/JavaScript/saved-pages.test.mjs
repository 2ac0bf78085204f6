// Which saved copy answers a page asked for offline (js/lib/saved-pages.js, used by the service
// worker): a kept talk opens from every kind of link to it, whatever `from` the link carries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NAVIGATION_ONLY, findSaved, navigationOnlyParams, savedAddresses } from '../../Sources/PocketWeb/Resources/Public/js/lib/saved-pages.js';

const ORIGIN = 'http://pocket.test';
const at = (path) => ORIGIN + path;

// What "Keep Offline" on April 2025 puts in pocket-kept for talk 8802 (ConferencePages.keep): its
// list, the talk under its list's address and its plain one, and its text.
function keptConference() {
  return new Map([
    [at('/conference/conferences/202504'), 'the list'],
    [at('/conference/talks/8802?from=conference-202504'), 'talk 8802 beside April 2025'],
    [at('/conference/talks/8802'), 'talk 8802'],
    [at('/conference/talks/8802/text'), 'the text of talk 8802'],
  ]);
}

// Every link Pocket's pages make to a talk, as the server writes it (ConferenceRoute.talk and
// TalkListSource.token), and the kept copy each must open offline.
const LINKS = [
  ['a conference’s list', '/conference/talks/8802?from=conference-202504', 'talk 8802 beside April 2025'],
  ['previous or next within its conference', '/conference/talks/8802?from=conference-202504', 'talk 8802 beside April 2025'],
  ['Recently Opened', '/conference/talks/8802', 'talk 8802'],
  ['Bookmarks', '/conference/talks/8802', 'talk 8802'],
  ['previous or next from another list', '/conference/talks/8802', 'talk 8802'],
  ['a search result', '/conference/talks/8802?from=search-faith', 'talk 8802'],
  ['a search result with spaces and accents', '/conference/talks/8802?from=search-f%C3%A9%20and%20hope', 'talk 8802'],
  ['a search result with a plus', '/conference/talks/8802?from=search-faith+hope', 'talk 8802'],
  ['a speaker’s talks', '/conference/talks/8802?from=speaker-369', 'talk 8802'],
  ['a verse’s citations', '/conference/talks/8802?from=verse-131-1-1', 'talk 8802'],
  ['a chapter’s citations', '/conference/talks/8802?from=verse-131-1-all', 'talk 8802'],
  ['another conference’s list', '/conference/talks/8802?from=conference-202510', 'talk 8802'],
  ['a link with a fragment', '/conference/talks/8802?from=speaker-369#conference-talk-frame', 'talk 8802'],
  ['a from the server no longer reads', '/conference/talks/8802?from=nonsense', 'talk 8802'],
];

test('a kept talk opens from every kind of link to it', async () => {
  const kept = keptConference();
  for (const [kind, link, page] of LINKS) {
    const found = await findSaved(at(link), async (address) => kept.get(address) ?? null);
    assert.equal(found, page, `${kind}: ${link}`);
  }
});

test('the copy saved under the very address comes first, so its list and back link are the ones asked for', async () => {
  const saved = new Map([
    ...keptConference(),
    [at('/conference/talks/8802?from=speaker-369'), 'talk 8802 beside the speaker’s talks'],
  ]);
  const asked = [];
  const found = await findSaved(at('/conference/talks/8802?from=speaker-369'), async (address) => { asked.push(address); return saved.get(address); });
  assert.equal(found, 'talk 8802 beside the speaker’s talks');
  assert.deepEqual(asked, [at('/conference/talks/8802?from=speaker-369')]);
});

test('a talk not kept is not found under any address', async () => {
  const kept = keptConference();
  for (const link of ['/conference/talks/900?from=search-faith', '/conference/talks/900', '/conference/talks/11?from=speaker-369']) {
    assert.equal(await findSaved(at(link), async (address) => kept.get(address) ?? null), null, link);
  }
});

test('the addresses tried are the one asked, then the talk without from', () => {
  assert.deepEqual(savedAddresses(at('/conference/talks/8802?from=verse-131-1-1')),
    [at('/conference/talks/8802?from=verse-131-1-1'), at('/conference/talks/8802')]);
  assert.deepEqual(savedAddresses('/conference/talks/8802?from=speaker-369#top', ORIGIN),
    [at('/conference/talks/8802?from=speaker-369'), at('/conference/talks/8802')]);
  assert.deepEqual(savedAddresses(at('/conference/talks/8802')), [at('/conference/talks/8802')]);
  // Any other parameter stays: only `from` is known not to change the page.
  assert.deepEqual(savedAddresses(at('/conference/talks/8802?from=speaker-369&lang=eng')),
    [at('/conference/talks/8802?from=speaker-369&lang=eng'), at('/conference/talks/8802?lang=eng')]);
});

test('other pages are found only under their own address', () => {
  for (const path of [
    '/conference/search?q=faith', // the query is the page
    '/conference/talks/8802/text', // a talk's text, not its page
    '/conference/speakers/369',
    '/conference/citations/131/1/1',
    '/plates/states/UT?from=map',
    '/remote/dvr?forced=record&from=playing',
  ]) {
    assert.deepEqual(savedAddresses(at(path)), [at(path)], path);
  }
});

test('the rule says once which parameters only say how a page was reached', () => {
  assert.deepEqual(navigationOnlyParams('/conference/talks/8802'), ['from']);
  assert.deepEqual(navigationOnlyParams('/conference/talks/8802/text'), []);
  assert.deepEqual(navigationOnlyParams('/conference/search'), []);
  assert.ok(Object.isFrozen(NAVIGATION_ONLY));
});
