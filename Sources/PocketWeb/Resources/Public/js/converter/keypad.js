/*
 * keypad.js: the "from" value as typed on the keypad, a port of Sources/Converter/KeypadInput.swift
 * with the same rules: "0" then "5" is "5"; "." first is "0."; one point; at most `maximumDigits`
 * significant digits and `maximumLength` digits in all; delete drops the rightmost character and
 * the sign with the last digit; zero has no sign. Entries are immutable { digits, neg } values.
 * Pure: no DOM.
 */
import { grouped } from './engine.js';
import { decimalValue, neg as negate, parseDecimal, ZERO } from './rational.js';

const digitCount = (text) => [...text].filter((c) => c !== '.').length;
const significantDigitCount = (text) => digitCount(text.replace(/^[0.]*/u, ''));
const isZeroText = (text) => /^[0.]*$/u.test(text);

/** An empty entry, showing "0". */
export const EMPTY = Object.freeze({ digits: '', neg: false });

/** Reads an entry ("-12.5", "0.", "−3"); null if the keypad could not have produced it. */
export function parseEntry(entry, limits) {
  let text = String(entry).trim();
  let negative = false;
  if (text.startsWith('-') || text.startsWith('−')) { negative = true; text = text.slice(1); }
  if (!/^[0-9.]*$/u.test(text) || (text.match(/\./gu) ?? []).length > 1) return null;
  let canonical = text.replace(/^0+/u, '');
  if (canonical.startsWith('.')) canonical = '0' + canonical;
  if (significantDigitCount(canonical) > limits.maximumDigits || digitCount(canonical) > limits.maximumLength) return null;
  return { digits: canonical, neg: negative && !isZeroText(canonical) };
}

/** The text `parseEntry` reads back, with an ASCII minus: "-12.5", "0.", "0". */
export const entryText = (input) => (input.neg ? '-' : '') + (input.digits || '0');

/** What the "from" label shows: "0", "0.", "12,288.5", "−12.5" (U+2212). */
export function displayText(input, groupingSeparator = '') {
  const shown = input.digits || '0';
  const point = shown.indexOf('.');
  const integerPart = point < 0 ? shown : shown.slice(0, point);
  const rest = point < 0 ? '' : shown.slice(point);
  return (input.neg ? '−' : '') + grouped(integerPart, groupingSeparator) + rest;
}

/** The entry's exact value as Swift's `KeypadInput.value` (a Decimal) holds it; "0." is 0. */
export function inputValue(input) {
  const nearest = decimalValue(parseDecimal(input.digits || '0') ?? ZERO);
  if (!nearest) return ZERO;
  return input.neg ? negate(nearest.value) : nearest.value;
}

/**
 * Applies one key ("0"…"9", ".", "delete", "sign", "clear") as `KeypadInput.press` does.
 * Returns { input, ignored } where `ignored` is the `IgnoredKeyReason` raw value of a refused
 * press (the input then unchanged) or null.
 */
export function press(input, key, allowsNegative, limits) {
  const refuse = (reason) => ({ input, ignored: reason });
  const { digits } = input;
  if (/^[0-9]$/u.test(key)) {
    if (!digits && key === '0') return refuse('redundantZero');
    if (significantDigitCount(digits) >= limits.maximumDigits) return refuse('digitLimitReached');
    if (digitCount(digits) >= limits.maximumLength) return refuse('tooSmall');
    return { input: { digits: digits + key, neg: input.neg }, ignored: null };
  }
  switch (key) {
    case '.':
      if (digits.includes('.')) return refuse('decimalPointAlreadyEntered');
      return { input: { digits: digits ? digits + '.' : '0.', neg: input.neg }, ignored: null };
    case 'delete': {
      if (!digits && !input.neg) return refuse('nothingToDelete');
      let next = digits.slice(0, -1);
      if (next === '0') next = '';
      return { input: { digits: next, neg: input.neg && !isZeroText(next) }, ignored: null };
    }
    case 'sign':
      if (!allowsNegative) return refuse('negativeNotAllowed');
      if (isZeroText(digits)) return refuse('zeroHasNoSign');
      return { input: { digits, neg: !input.neg }, ignored: null };
    case 'clear':
      if (!digits && !input.neg) return refuse('nothingToDelete');
      return { input: EMPTY, ignored: null };
    default:
      return refuse('notADigit');
  }
}
