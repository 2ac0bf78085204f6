// The browser converter's pure logic (js/converter/*.js) on a small catalog of the test's own, in
// the shape /converter/catalog.json has. The real catalog is checked against the Swift engine by
// Tests/ConverterTests/BrowserEngineCrossCheckTests.swift (1,650 random cases, via
// Tests/JavaScript/converter-crosscheck.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Engine, formatRounded, grouped } from '../../Sources/PocketWeb/Resources/Public/js/converter/engine.js';
import { displayText, EMPTY, entryText, inputValue, parseEntry, press } from '../../Sources/PocketWeb/Resources/Public/js/converter/keypad.js';
import { decimalValue, fractionString, parseDecimal, rational, rounded } from '../../Sources/PocketWeb/Resources/Public/js/converter/rational.js';
import { Converter, sizeClass } from '../../Sources/PocketWeb/Resources/Public/js/converter/state.js';

const f = (numerator, denominator = '1') => ({ numerator, denominator });
const unit = (id, symbol, scale, offset = f('0')) => ({ id, name: id[0].toUpperCase() + id.slice(1), plural: id + 's', symbol, scale, offset });
const byConvention = (list) => ({ binary: list, decimal: list, iec: list });
const catalog = {
  categories: [
    { id: 'data', name: 'Data', allowsNegative: false, negativeNotAllowed: "Data can't be negative",
      units: { binary: [unit('byte', 'B', f('1')), unit('kilobyte', 'KB', f('1024'))],
               decimal: [unit('byte', 'B', f('1')), unit('kilobyte', 'kB', f('1000'))],
               iec: [unit('byte', 'B', f('1')), unit('kibibyte', 'KiB', f('1024'))] },
      defaults: { binary: { from: 'kilobyte', to: 'byte' }, decimal: { from: 'kilobyte', to: 'byte' }, iec: { from: 'kibibyte', to: 'byte' } } },
    { id: 'temperature', name: 'Temperature', allowsNegative: true, negativeNotAllowed: "Temperature can't be negative",
      units: byConvention([unit('celsius', '°C', f('1'), f('27315', '100')), unit('fahrenheit', '°F', f('5', '9'), f('45967', '100')), unit('kelvin', 'K', f('1'))]),
      defaults: byConvention({ from: 'celsius', to: 'fahrenheit' }) },
    { id: 'speed', name: 'Speed', allowsNegative: false, negativeNotAllowed: "Speed can't be negative",
      units: byConvention([unit('metre-per-second', 'm/s', f('1')), unit('kilometre-per-hour', 'km/h', f('5', '18'))]),
      defaults: byConvention({ from: 'kilometre-per-hour', to: 'metre-per-second' }) },
  ],
  conventions: [{ id: 'binary', caption: '1 KB = 1,024 B' }, { id: 'decimal', caption: '1 kB = 1,000 B' }, { id: 'iec', caption: '1 KiB = 1,024 B' }],
  standardConvention: 'binary',
  dataFallback: ['iec', 'decimal'],
  firstLaunch: { category: 'data', convention: 'binary', from: 'byte', to: 'byte', input: '0', rememberedUnits: {} },
  formats: {
    display: { significantDigits: 12, groupingSeparator: ',', decimalSeparator: '.', minusSign: '−', exponentStyle: 'superscript' },
    plain: { significantDigits: 12, groupingSeparator: '', decimalSeparator: '.', minusSign: '-', exponentStyle: 'eNotation' },
  },
  smallestPositionalExponent: -6, maximumDigits: 15, maximumLength: 30,
  notices: { digitLimitReached: 'At most 15 digits', negativeNotAllowed: 'This category has no negative values' },
  belowAbsoluteZero: '{value} is below absolute zero ({minimum})',
  valueOutOfRange: 'The value is too large or too small to show',
};
const limits = { maximumDigits: 15, maximumLength: 30 };
const engine = new Engine(catalog);
const typed = (keys, allowsNegative = false) => keys.reduce((input, key) => press(input, key, allowsNegative, limits).input, EMPTY);

test('fractions stay exact and in lowest terms; zero has no sign', () => {
  assert.equal(fractionString(rational(10n, -4n)), '-5/2');
  assert.equal(fractionString(rational(0n, -4n)), '0');
  assert.equal(fractionString(parseDecimal('−12.50')), '-25/2');
  assert.equal(fractionString(parseDecimal('6.2e-07')), '31/50000000');
  assert.equal(parseDecimal('12abc'), null);
  assert.equal(parseDecimal('1e1001'), null);
});

test('rounding is half away from zero, once, and can carry into a new digit', () => {
  assert.deepEqual(rounded(rational(5n, 18n), 12), { neg: false, digits: '277777777778', exponent: -1, isExact: false });
  assert.deepEqual(rounded(parseDecimal('-2.5'), 1), { neg: true, digits: '3', exponent: 0, isExact: false });
  assert.deepEqual(rounded(parseDecimal('9.9999999999995'), 12), { neg: false, digits: '1', exponent: 1, isExact: false });
  assert.equal(decimalValue(parseDecimal('1e128')), null);
  assert.equal(decimalValue(parseDecimal('1e-129')), null);
});

test('numbers are written positionally or in scientific notation as Swift writes them', () => {
  const { display, plain } = catalog.formats;
  const write = (text, format) => formatRounded(rounded(parseDecimal(text), 12), format, -6);
  assert.equal(write('12288', display), '12,288');
  assert.equal(write('-459.67', display), '−459.67');
  assert.equal(write('1234567890123456', display), '1.23456789012×10¹⁵');
  assert.equal(write('0.00000123', display), '0.00000123');
  assert.equal(write('0.000000123', plain), '1.23e-7');
  assert.equal(write('100000000000', display), '100,000,000,000');
  assert.equal(grouped('1234567', ','), '1,234,567');
});

test('conversions go exactly through the base unit', () => {
  const c = (text, from, to, convention = 'binary') => engine.convert(parseDecimal(text), from, to, convention);
  assert.equal(c('98.6', 'fahrenheit', 'celsius').display, '37');
  assert.equal(c('98.6', 'fahrenheit', 'celsius').isShownExactly, true);
  assert.equal(c('1', 'kilometre-per-hour', 'metre-per-second').display, '0.277777777778');
  assert.equal(c('1', 'kilometre-per-hour', 'metre-per-second').fraction, '5/18');
  assert.equal(c('1', 'kilometre-per-hour', 'metre-per-second').isShownExactly, false);
  assert.equal(c('12', 'kilobyte', 'byte').plain, '12288');
  assert.equal(c('12', 'kilobyte', 'byte', 'decimal').plain, '12000');
  // An IEC id keeps its meaning under another convention (the dataFallback order).
  assert.equal(c('1', 'kibibyte', 'byte', 'decimal').plain, '1024');
  assert.throws(() => c('-500', 'fahrenheit', 'kelvin'), { message: '−500 °F is below absolute zero (−459.67 °F)' });
  assert.throws(() => c('-1', 'byte', 'byte'), { message: "Data can't be negative" });
});

test('the keypad follows the calculator rules', () => {
  assert.equal(entryText(typed(['0', '5'])), '5');
  assert.equal(entryText(typed(['.'])), '0.');
  assert.equal(press(typed(['1', '.']), '.', false, limits).ignored, 'decimalPointAlreadyEntered');
  assert.equal(press(EMPTY, 'sign', false, limits).ignored, 'negativeNotAllowed');
  assert.equal(press(EMPTY, 'sign', true, limits).ignored, 'zeroHasNoSign');
  assert.equal(entryText(typed(['.', '5', 'sign', 'delete'], true)), '0.');
  const fifteen = typed([...'123456789012345']);
  assert.equal(press(fifteen, '6', false, limits).ignored, 'digitLimitReached');
  const tiny = typed(['.', ...'0'.repeat(28), '1', '2']);
  assert.equal(entryText(tiny), '0.' + '0'.repeat(28) + '1');
  assert.equal(displayText(typed([...'12288', '.']), ','), '12,288.');
  assert.equal(fractionString(inputValue(typed(['1', '2', '.', '5', 'sign'], true))), '-25/2');
  assert.equal(parseEntry('-0', limits).neg, false);
  assert.equal(parseEntry('1.2.3', limits), null);
});

test('screen changes follow the server form: categories remember units, conventions keep positions', () => {
  const converter = new Converter(engine);
  let state = converter.decode(catalog.firstLaunch);
  state = converter.apply(state, { key: '1' }).state;
  state = converter.apply(state, { to: 'kilobyte' }).state;
  state = converter.apply(state, { category: 'temperature' }).state;
  assert.deepEqual([state.from, state.to, state.input], ['celsius', 'fahrenheit', '1']);
  state = converter.apply(state, { key: 'sign' }).state;
  assert.equal(converter.screen(state).to.text, '30.2');
  state = converter.apply(state, { category: 'data' }).state;
  assert.deepEqual([state.from, state.to, state.input], ['byte', 'kilobyte', '1']);
  state = converter.apply(state, { convention: 'iec' }).state;
  assert.deepEqual([state.from, state.to], ['byte', 'kibibyte']);
  const refused = converter.apply(state, { key: 'sign' });
  assert.equal(converter.screen(refused.state, refused.ignored).message, 'This category has no negative values');
  assert.throws(() => converter.apply(state, { from: 'celsius' }));
  assert.equal(converter.decode({ category: 'nope' }), null);
  assert.deepEqual(converter.decode({ category: 'speed', from: 'gone', input: '-3' }),
    { category: 'speed', from: 'kilometre-per-hour', to: 'metre-per-second', convention: 'binary', input: '3', rememberedUnits: {} });
});

test('size classes grow with the text as the server computes them', () => {
  assert.equal(sizeClass('0'), 'w3');
  assert.equal(sizeClass('12,288'), 'w4');
  assert.equal(sizeClass('1.23456789012×10¹⁵'), 'w11'); // 14 digits, ., × and ¹⁵: 8.96 + 0.35 + 0.84 + 0.84 = 10.99 ems
  assert.equal(sizeClass('0.01171875'), 'w7');
  assert.equal(sizeClass('−273.15'), 'w5'); // the minus sign is wide in DejaVu Sans
  assert.equal(sizeClass('999,999,999,999,999'), 'w11'); // exactly 11.00: no rounding drift
});
