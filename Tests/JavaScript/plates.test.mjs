// The Plates game's rules on the phone (js/plates/game.js): form actions to changes by the page's
// own addresses, the server's words filled with a number, applying waiting changes to a page's
// game, and the merge rule's mirror being order independent. The mirror is also held to the
// server's store by Tests/PlatesTests/PlatesBrowserCrossCheckTests.swift.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  SLOT, applyChanges, changeForAction, fillSlot, mergeSpots, mergeTrips,
} from '../../Sources/PocketWeb/Resources/Public/js/plates/game.js';

test('form actions become changes by the addresses the page names, other forms none', () => {
  // Deliberately not Pocket's own routes: the module must know none of them.
  const routes = {
    spot: new Map([['/game/al/see', 'AL'], ['/game/tx/see', 'TX']]),
    unspot: new Map([['/game/al/unsee', 'AL']]),
    reset: '/game/clear',
    newTrip: '/game/again',
  };
  assert.deepEqual(changeForAction('/game/al/see', routes), { kind: 'spot', state: 'AL' });
  assert.deepEqual(changeForAction('/game/tx/see', routes), { kind: 'spot', state: 'TX' });
  assert.deepEqual(changeForAction('/game/al/unsee', routes), { kind: 'unspot', state: 'AL' });
  assert.deepEqual(changeForAction('/game/clear', routes), { kind: 'reset' });
  assert.deepEqual(changeForAction('/game/again', routes), { kind: 'newTrip' });
  assert.equal(changeForAction('/plates/states/AL/spot', routes), null);
  assert.equal(changeForAction('/plates/settings', routes), null);
  // A page that names no reset or new-trip form (a trips page has no cells) matches nothing else.
  assert.equal(changeForAction('/game/clear', { spot: new Map(), unspot: new Map() }), null);
  assert.equal(changeForAction('', { spot: new Map(), unspot: new Map(), reset: '', newTrip: undefined }), null);
});

test("the server's words take the number in their slot, and nothing else", () => {
  assert.equal(SLOT, '{}');
  assert.equal(fillSlot('Score: {} / 50', 3), 'Score: 3 / 50');
  assert.equal(fillSlot('{} of 48 states', 0), '0 of 48 states');
  assert.equal(fillSlot('Spotted today at {}', '14:03'), 'Spotted today at 14:03');
  // A value is put in as it is: replacement patterns such as $& mean nothing.
  assert.equal(fillSlot('a {} b', '$&$1'), 'a $&$1 b');
  assert.equal(fillSlot('no slot', 4), 'no slot');
});

test('waiting changes apply on top of the page in time order', () => {
  const page = { spotted: new Set(['AL']), finished: 2 };
  const game = applyChanges(page, [
    { id: 'c', at: 30, kind: 'unspot', state: 'AL' },
    { id: 'a', at: 10, kind: 'spot', state: 'TX' },
    { id: 'b', at: 20, kind: 'spot', state: 'CA' },
  ]);
  assert.deepEqual([...game.spotted].sort(), ['CA', 'TX']);
  assert.equal(game.finished, 2);
  assert.deepEqual([...page.spotted], ['AL'], 'the page game is not changed');
});

test('a reset clears the states before it, a new trip keeps a non-empty trip', () => {
  const game = applyChanges({ spotted: new Set(), finished: 0 }, [
    { id: '1', at: 1, kind: 'spot', state: 'AL' },
    { id: '2', at: 2, kind: 'reset' },
    { id: '3', at: 3, kind: 'spot', state: 'NV' },
    { id: '4', at: 4, kind: 'newTrip' },
    { id: '5', at: 5, kind: 'newTrip' },
    { id: '6', at: 6, kind: 'spot', state: 'WA' },
  ]);
  assert.deepEqual([...game.spotted], ['WA']);
  assert.equal(game.finished, 1, 'the empty trip between the two new trips is not counted');
});

test('the merge rule gives one game for two phones in any order', () => {
  const phoneA = [
    { id: 'a1', at: 100, kind: 'spot', state: 'AL' }, { id: 'a2', at: 200, kind: 'spot', state: 'TX' },
    { id: 'a3', at: 450, kind: 'reset' }, { id: 'a4', at: 500, kind: 'spot', state: 'NV' },
    { id: 'a5', at: 700, kind: 'unspot', state: 'NV' },
  ];
  const phoneB = [
    { id: 'b1', at: 150, kind: 'spot', state: 'AL' }, { id: 'b2', at: 300, kind: 'spot', state: 'CA' },
    { id: 'b3', at: 600, kind: 'spot', state: 'OR' }, { id: 'b4', at: 650, kind: 'spot', state: 'NV' },
    { id: 'b5', at: 900, kind: 'spot', state: 'OR' },
  ];
  const expected = [['OR', 600]];
  const all = [...phoneA, ...phoneB];
  let seed = 13;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let round = 0; round < 20; round++) {
    const shuffled = [...all];
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    assert.deepEqual([...mergeSpots(shuffled)], expected);
  }
  // Equal times: the id decides, whichever arrives first.
  const tie = [{ id: 'x', at: 5, kind: 'spot', state: 'CO' }, { id: 'y', at: 5, kind: 'unspot', state: 'CO' }];
  assert.deepEqual([...mergeSpots(tie)], []);
  assert.deepEqual([...mergeSpots([...tie].reverse())], []);
});

test('a change made at the time of a New Trip counts on the trip it starts, whatever its id', () => {
  // The server starts the new trip at the New Trip's time; the phone must show the same.
  const changes = [
    { id: 'a', at: 5, kind: 'spot', state: 'AL' },
    { id: 'z', at: 5, kind: 'newTrip' },
    { id: 'b', at: 4, kind: 'spot', state: 'TX' },
  ];
  const game = applyChanges({ spotted: new Set(), finished: 0 }, changes);
  assert.deepEqual([...game.spotted], ['AL']);
  assert.equal(game.finished, 1);
  assert.deepEqual(mergeTrips(changes).map((trip) => [...trip]), [[['TX', 4]], [['AL', 5]]]);
});

test('the whole rule: ids count once, New Trips cut time, each trip merges on its own', () => {
  const trips = mergeTrips([
    { id: 'p1', at: 10, kind: 'spot', state: 'OR' },
    { id: 'n1', at: 30, kind: 'newTrip' },
    { id: 'p2', at: 40, kind: 'spot', state: 'WA' },
    // Resent, and another change under a used id: neither counts again.
    { id: 'p1', at: 10, kind: 'spot', state: 'OR' },
    { id: 'p2', at: 50, kind: 'unspot', state: 'WA' },
    // Arriving late, made before the New Trip: it belongs to the first trip.
    { id: 'q1', at: 20, kind: 'spot', state: 'ID' },
    { id: 'q2', at: 25, kind: 'reset' },
    { id: 'q3', at: 26, kind: 'spot', state: 'ID' },
    // Two New Trips at one time make one cut; a New Trip before everything leaves the first trip empty.
    { id: 'n2', at: 30, kind: 'newTrip' },
    { id: 'n0', at: 1, kind: 'newTrip' },
  ]);
  assert.deepEqual(trips.map((trip) => [...trip].sort()), [[], [['ID', 26]], [['WA', 40]]]);
  assert.deepEqual(mergeTrips([]).map((trip) => [...trip]), [[]]);
});

test('what another device changed is said by name, briefly', async () => {
  const { changesElsewhere } = await import('../../Sources/PocketWeb/Resources/Public/js/plates/game.js');
  const names = { OH: 'Ohio', UT: 'Utah', WA: 'Washington' };
  const game = (codes, finished = 0) => ({ spotted: new Set(codes), finished });
  assert.equal(changesElsewhere(game(['OH', 'TX']), game(['TX']), (c) => names[c]), 'Ohio was un-spotted on another device.');
  assert.equal(changesElsewhere(game(['TX']), game(['TX', 'UT']), (c) => names[c]), 'Utah was spotted on another device.');
  assert.equal(changesElsewhere(game(['OH']), game(['UT']), (c) => names[c]), 'Utah was spotted and Ohio was un-spotted on another device.');
  assert.equal(changesElsewhere(game([]), game(['OH', 'UT', 'WA'])), '3 states changed on another device.');
  assert.equal(changesElsewhere(game(['OH'], 1), game([], 2)), 'A new trip was started on another device.');
  assert.equal(changesElsewhere(game(['OH', 'TX']), game(['TX', 'OH'])), null);
});

test('once the phone\'s waiting changes are sent, only what another device changed is said', async () => {
  const { changesElsewhereAfterSending } = await import('../../Sources/PocketWeb/Resources/Public/js/plates/game.js');
  const names = { OH: 'Ohio', AL: 'Alabama', TX: 'Texas', OR: 'Oregon' };
  const nameOf = (c) => names[c];
  const game = (codes, finished = 0) => ({ spotted: new Set(codes), finished });
  const mine = ['AL', 'TX', 'OR'].map((state, i) => ({ kind: 'spot', state, id: `local-${i}`, at: 10 + i, outbox: `o${i}` }));
  // The page had Ohio; the phone spotted three offline; another device un-spotted Ohio meanwhile.
  assert.equal(changesElsewhereAfterSending(game(['OH']), mine, game(['AL', 'TX', 'OR']), nameOf),
    'Ohio was un-spotted on another device.');
  // Nothing changed elsewhere: the phone's own spots are not news.
  assert.equal(changesElsewhereAfterSending(game(['OH']), mine, game(['OH', 'AL', 'TX', 'OR']), nameOf), null);
  // The phone's own un-spot is not news either; another device's spot of it after is.
  const unspot = [{ kind: 'unspot', state: 'OH', id: 'local-9', at: 20, outbox: 'o9' }];
  assert.equal(changesElsewhereAfterSending(game(['OH']), unspot, game([]), nameOf), null);
  assert.equal(changesElsewhereAfterSending(game(['OH']), unspot, game(['OH']), nameOf), 'Ohio was spotted on another device.');
  // A change the server refused for good never applied: its absence is not another device's doing.
  assert.equal(changesElsewhereAfterSending(game([]), mine, game(['AL', 'OR']), nameOf, new Set(['o1'])), null);
  assert.equal(changesElsewhereAfterSending(game([]), mine, game(['AL', 'OR']), nameOf), 'Texas was un-spotted on another device.');
  // The words are the periodic check's, for many changes and a new trip too.
  assert.equal(changesElsewhereAfterSending(game(['OH']), mine, game([]), nameOf), '4 states changed on another device.');
  assert.equal(changesElsewhereAfterSending(game(['OH']), mine, game([], 1), nameOf), 'A new trip was started on another device.');
});

test('the Plates scripts write no route, markup, state text or number of states of their own', async () => {
  const { readFile } = await import('node:fs/promises');
  const root = new URL('../../Sources/PocketWeb/Resources/Public/js/', import.meta.url);
  for (const file of ['plates/app.js', 'plates/game.js']) {
    const code = (await readFile(new URL(file, root), 'utf8')).replace(/^\s*(\/\/|\*|\/\*).*$/gm, '');
    // Every address comes from the page, every element from its templates.
    assert.doesNotMatch(code, /['"`]\/plates/, `${file} writes a Plates address`);
    assert.doesNotMatch(code, /createElement|innerHTML|insertAdjacentHTML|outerHTML/, `${file} builds markup`);
    assert.doesNotMatch(code, /\b50\b/, `${file} knows how many states there are`);
    assert.doesNotMatch(code, /mark spotted|Reset \$\{|I Spotted|not spotted yet|Score: | of \$\{|finished`|Spotted today/,
      `${file} words a state or a count the server words`);
  }
});
