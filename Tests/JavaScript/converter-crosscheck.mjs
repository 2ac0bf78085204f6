// Evaluates converter cases with the browser engine for the Swift cross-check
// (Tests/ConverterTests/BrowserEngineCrossCheckTests.swift): reads { catalog, cases } as JSON from
// the file named on the command line and prints one JSON result per case, in order.
//
// A case types `keys` on the keypad in a category, then converts between two units under a
// convention; or (with `steps`) replays screen changes through the state logic.
import { readFileSync } from 'node:fs';
import { Engine } from '../../Sources/PocketWeb/Resources/Public/js/converter/engine.js';
import { EMPTY, entryText, inputValue, press } from '../../Sources/PocketWeb/Resources/Public/js/converter/keypad.js';
import { Converter } from '../../Sources/PocketWeb/Resources/Public/js/converter/state.js';

const { catalog, cases } = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const engine = new Engine(catalog);
const converter = new Converter(engine);
const limits = { maximumDigits: catalog.maximumDigits, maximumLength: catalog.maximumLength };

function conversion(c) {
  const allowsNegative = engine.category(c.category).allowsNegative;
  let input = EMPTY;
  const ignored = [];
  for (const key of c.keys) {
    const outcome = press(input, key, allowsNegative, limits);
    input = outcome.input;
    ignored.push(outcome.ignored ?? '');
  }
  const result = { entry: entryText(input), ignored };
  try {
    const r = engine.convert(inputValue(input), c.from, c.to, c.convention);
    Object.assign(result, { display: r.display, plain: r.plain, fraction: r.fraction, exact: r.isShownExactly });
  } catch (error) {
    result.error = error.message;
  }
  return result;
}

function replay(c) {
  let state = converter.decode(catalog.firstLaunch);
  const shown = [];
  for (const step of c.steps) {
    state = converter.apply(state, step).state;
    const screen = converter.screen(state);
    shown.push(`${screen.from.text} ${screen.from.symbol} ${screen.relation} ${screen.to.text} ${screen.to.symbol} ${screen.message ?? ''}`);
  }
  return { state, shown };
}

const results = cases.map((c) => (c.steps ? replay(c) : conversion(c)));
process.stdout.write(JSON.stringify(results));
