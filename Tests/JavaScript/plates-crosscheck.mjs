// Evaluates Plates merge cases with the browser's rule for the Swift cross-check
// (Tests/PlatesTests/PlatesBrowserCrossCheckTests.swift): reads { cases } as JSON from the file
// named on the command line and prints one JSON result per case, in order.
//
// A case is either every change the server was sent, in the order they arrived (`arrivals`):
// the answer is each trip's spots, oldest trip first, as "code@time" sorted; or the game a page
// showed (`base`) and the changes a phone made after it (`waiting`): the answer is the game the
// phone shows, its spotted codes sorted and its finished trips.
import { readFileSync } from 'node:fs';
import { applyChanges, mergeTrips } from '../../Sources/PocketWeb/Resources/Public/js/plates/game.js';

const { cases } = JSON.parse(readFileSync(process.argv[2], 'utf8'));

function answer(c) {
  if (c.arrivals) {
    return { trips: mergeTrips(c.arrivals).map((trip) => [...trip].map(([code, at]) => `${code}@${at}`).sort()) };
  }
  const game = applyChanges({ spotted: new Set(c.base.spotted), finished: c.base.finished }, c.waiting);
  return { spotted: [...game.spotted].sort(), finished: game.finished };
}

process.stdout.write(JSON.stringify(cases.map(answer)));
