/*
 * rational.js: exact signed fractions in BigInt and their rounding to significant digits, a port
 * of Sources/Converter/Rational.swift and RoundedDigits.swift. Fractions stay in lowest terms and
 * zero has no sign, so values compare by their parts. Pure: no DOM, importable by Node.
 */

const gcd = (a, b) => { while (b) [a, b] = [b, a % b]; return a; };
const abs = (n) => (n < 0n ? -n : n);
const TEN = 10n;
const pow10 = (n) => TEN ** BigInt(n);

/** The fraction numerator/denominator (BigInt, any signs) in lowest terms; a zero denominator is zero. */
export function rational(numerator, denominator = 1n) {
  let n = BigInt(numerator), d = BigInt(denominator);
  if (n === 0n || d === 0n) return { neg: false, num: 0n, den: 1n };
  const neg = (n < 0n) !== (d < 0n);
  n = abs(n); d = abs(d);
  const g = d === 1n ? 1n : gcd(n, d);
  return { neg, num: n / g, den: d / g };
}

export const ZERO = rational(0n);
export const isZero = (r) => r.num === 0n;
export const neg = (r) => rational(r.neg ? r.num : -r.num, r.den);
const signed = (r) => (r.neg ? -r.num : r.num);
export const add = (a, b) => rational(signed(a) * b.den + signed(b) * a.den, a.den * b.den);
export const sub = (a, b) => add(a, neg(b));
export const mul = (a, b) => rational(signed(a) * signed(b), a.den * b.den);
/** The quotient; dividing by zero yields zero, as in Swift (only positive unit factors divide). */
export const div = (a, b) => (b.num === 0n ? ZERO : rational(signed(a) * b.den, a.den * signed(b)));
export const equals = (a, b) => a.neg === b.neg && a.num === b.num && a.den === b.den;

/** A {numerator, denominator} pair of decimal strings, as catalog.json writes factors. */
export const fromFraction = (f) => rational(BigInt(f.numerator), BigInt(f.denominator));

/**
 * Parses `[+|-|−] digits [. digits] [(e|E) [+|-] digits]` exactly; null if malformed or the
 * exponent is beyond ±1000 (as `Rational(parsing:)`).
 */
export function parseDecimal(text) {
  const m = /^([+\-−]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?)(\d+))?$/u.exec(String(text));
  if (!m) return null;
  const [, sign, int = '', frac = '', expSign, expDigits] = m;
  if (!int && !frac) return null;
  let exponent = 0;
  if (expDigits !== undefined) {
    const magnitude = expDigits.length > 7 ? 1000000 : Math.min(Number(expDigits), 1000000);
    exponent = expSign === '-' ? -magnitude : magnitude;
  }
  exponent -= frac.length;
  if (Math.abs(exponent) > 1000) return null;
  const digits = BigInt((int + frac) || '0');
  const negative = sign === '-' || sign === '−';
  const n = negative ? -digits : digits;
  return exponent >= 0 ? rational(n * pow10(exponent)) : rational(n, pow10(-exponent));
}

/** The exponent e with 10^e ≤ |r| < 10^(e+1); r must not be zero. */
export function decimalExponent(r) {
  let e = r.num.toString().length - r.den.toString().length;
  const below = (k) => (k >= 0 ? r.num < r.den * pow10(k) : r.num * pow10(-k) < r.den);
  while (below(e)) e -= 1;
  while (!below(e + 1)) e += 1;
  return e;
}

/**
 * Rounds half away from zero to `significantDigits`: { neg, digits (no trailing zeros, "0" for
 * zero), exponent (of the first digit), isExact }.
 */
export function rounded(r, significantDigits) {
  if (isZero(r)) return { neg: false, digits: '0', exponent: 0, isExact: true };
  const precision = Math.max(significantDigits, 1);
  let exponent = decimalExponent(r);
  const shift = precision - 1 - exponent;
  let dividend = r.num, divisor = r.den;
  if (shift >= 0) dividend *= pow10(shift); else divisor *= pow10(-shift);
  let quotient = dividend / divisor;
  const remainder = dividend % divisor;
  const isExact = remainder === 0n;
  if (!(remainder + remainder < divisor)) {
    quotient += 1n;
    // 9.99…95 can round up to 10.00…0, one digit more than asked for.
    if (quotient === pow10(precision)) { quotient = pow10(precision - 1); exponent += 1; }
  }
  const digits = quotient.toString().replace(/(?<=.)0+$/u, '');
  return { neg: r.neg, digits, exponent, isExact };
}

/**
 * The nearest `Decimal` as Swift's Foundation holds it (38 digits, fewer below about 1e-90):
 * { value (a rational), isExact }, or null unless 1e-128 ≤ |r| < 1e128 (or r is zero).
 */
export function decimalValue(r) {
  if (isZero(r)) return { value: ZERO, isExact: true };
  const precision = Math.min(38, decimalExponent(r) + 129);
  if (precision < 1) return null;
  const round = rounded(r, precision);
  const mantissaExponent = round.exponent - (round.digits.length - 1);
  if (round.exponent > 127 || mantissaExponent < -128) return null;
  const digits = BigInt(round.digits) * (round.neg ? -1n : 1n);
  const value = mantissaExponent >= 0 ? rational(digits * pow10(mantissaExponent)) : rational(digits, pow10(-mantissaExponent));
  return { value, isExact: round.isExact };
}

/** "numerator/denominator" in lowest terms, or an integer ("-5/18", "12288"), as `ExactValue.fraction`. */
export function fractionString(r) {
  const sign = r.neg ? '-' : '';
  return r.den === 1n ? sign + r.num : `${sign}${r.num}/${r.den}`;
}
