/*
 * plates/game.js: the Plates game's rules on the phone, with no DOM, so Node can test them.
 *
 * The server's merge rule (Sources/Plates/PlateChange.swift, PlatesMerge) decides the game from
 * every change: each id counts once; changes ordered by time (`at`), ties by id; a New Trip splits
 * time into trips; within a trip the latest change of a state wins and a Reset Game clears what
 * came before it. The phone only needs to show what the person did since the page was rendered,
 * so it applies its waiting changes, in that order, on top of the page's game (`applyChanges`).
 * `mergeTrips` is the rule in full, which a Swift test runs against the server's store
 * (Tests/PlatesTests/PlatesBrowserCrossCheckTests.swift).
 *
 * Words and addresses come from the page: this module holds no text, route or number of states.
 */

/** Where a pattern from the server takes its number (the server's `CountText.slot`). */
export const SLOT = '{}';

/** The server's words `pattern` with `value` in its slot: a count, or the time of a spot. */
export const fillSlot = (pattern, value) => pattern.replace(SLOT, () => String(value));

/**
 * The change a Plates form posts, from its action's path and the page's own addresses, `routes`:
 * { spot, unspot: Maps of a state's address to its code, reset, newTrip: addresses }, as the
 * server wrote them into the page. Null for any other form.
 */
export function changeForAction(path, routes) {
  if (routes.spot?.has(path)) return { kind: 'spot', state: routes.spot.get(path) };
  if (routes.unspot?.has(path)) return { kind: 'unspot', state: routes.unspot.get(path) };
  if (routes.reset && path === routes.reset) return { kind: 'reset' };
  if (routes.newTrip && path === routes.newTrip) return { kind: 'newTrip' };
  return null;
}

/** Orders changes as the server does: by time, then by id (code units compare like UTF-8 bytes for ASCII ids). */
export function byTime(a, b) {
  if (a.at !== b.at) return a.at - b.at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Orders changes into trips as the server does: a New Trip before the other changes made at its
 * time, since the trip it starts holds them, then by time and id.
 */
function byTrip(a, b) {
  if (a.at !== b.at) return a.at - b.at;
  return Number(b.kind === 'newTrip') - Number(a.kind === 'newTrip') || byTime(a, b);
}

/**
 * The game after `changes`, applied in time order on top of `game`
 * ({ spotted: Set of codes, finished: number of finished trips with a plate }).
 * Returns a new game; `game` is not changed.
 */
export function applyChanges(game, changes) {
  const spotted = new Set(game.spotted);
  let finished = game.finished;
  for (const change of [...changes].sort(byTrip)) {
    switch (change.kind) {
      case 'spot': spotted.add(change.state); break;
      case 'unspot': spotted.delete(change.state); break;
      case 'reset': spotted.clear(); break;
      case 'newTrip':
        if (spotted.size > 0) finished += 1; // an empty trip is not kept in the history
        spotted.clear();
        break;
      default: break;
    }
  }
  return { spotted, finished };
}

/**
 * The merge rule itself, for a trip's changes from any number of phones: the spotted states and
 * when each was first spotted since it was last cleared. The same set of changes gives the same
 * answer in any order (the server's PlatesMerge.spots).
 */
export function mergeSpots(changes) {
  const spotted = new Map();
  for (const change of [...changes].sort(byTime)) {
    if (change.kind === 'spot' && !spotted.has(change.state)) spotted.set(change.state, change.at);
    else if (change.kind === 'unspot') spotted.delete(change.state);
    else if (change.kind === 'reset') spotted.clear();
  }
  return spotted;
}

/**
 * The whole rule, from every change the server was sent, in the order they arrived: a change
 * whose id arrived before is a resend and counts not at all, even with other contents; New Trips
 * cut time into trips at their times (a change made at a New Trip's time or later counts on the
 * trip it starts); each trip's spots are `mergeSpots` of its changes. Returns the trips, oldest
 * first (the first holds everything before the first New Trip), each a Map of state code to the
 * time it was first spotted.
 */
export function mergeTrips(arrivals) {
  const ids = new Set();
  const changes = [];
  for (const change of arrivals) {
    if (ids.has(change.id)) continue;
    ids.add(change.id);
    changes.push(change);
  }
  const bounds = [...new Set(changes.filter((c) => c.kind === 'newTrip').map((c) => c.at))].sort((a, b) => a - b);
  const trips = [[], ...bounds.map(() => [])];
  for (const change of changes) {
    if (change.kind === 'newTrip') continue;
    trips[bounds.filter((at) => at <= change.at).length].push(change);
  }
  return trips.map(mergeSpots);
}

/**
 * What another device changed, in words, from the game `shown` to the server's `fresh` one (each
 * { spotted: Set, finished }), naming states with `nameOf(code)`; null when nothing changed.
 */
export function changesElsewhere(shown, fresh, nameOf = (code) => code) {
  const added = [...fresh.spotted].filter((code) => !shown.spotted.has(code)).sort();
  const removed = [...shown.spotted].filter((code) => !fresh.spotted.has(code)).sort();
  if (fresh.finished !== shown.finished) return 'A new trip was started on another device.';
  const count = added.length + removed.length;
  if (count === 0) return null;
  if (count > 2) return `${count} states changed on another device.`;
  const parts = [
    ...added.map((code) => `${nameOf(code)} was spotted`),
    ...removed.map((code) => `${nameOf(code)} was un-spotted`),
  ];
  return `${parts.join(' and ')} on another device.`;
}

/**
 * What another device changed, in the same words, once this phone's own waiting changes have
 * reached the server: the page's game `base` with the phone's own changes `mine` applied is what
 * the phone would show from them alone, so whatever the server's `fresh` game differs by was
 * changed elsewhere. A change of the phone's own the server refused for good (its outbox id, the
 * change's `outbox`, is in `refused`) never applied, so it is not counted as the phone's.
 */
export function changesElsewhereAfterSending(base, mine, fresh, nameOf, refused = new Set()) {
  const kept = mine.filter((change) => !refused.has(change.outbox));
  return changesElsewhere(applyChanges(base, kept), fresh, nameOf);
}
