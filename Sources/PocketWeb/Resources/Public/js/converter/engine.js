/*
 * engine.js: the converter's arithmetic and number formatting in the browser, a port of
 * Sources/Converter (ConversionEngine, ExactValue, NumberFormat) that gives the same digits: a
 * value x in a unit is (x + offset) × scale base units, all in exact BigInt fractions, rounded
 * once for display. Every factor, format and message comes from the catalog the server
 * publishes from the Swift catalog (/converter/catalog.json), so there is no second table here.
 * Pure: no DOM, importable by Node (Tests/JavaScript/converter-*.test.mjs and the Swift cross-check).
 */
import { add, decimalValue, div, fractionString, fromFraction, isZero, mul, neg, rounded, sub } from './rational.js';

/** Why a conversion has no result; `message` is the Swift engine's `ConverterError.description`. */
export class ConversionError extends Error {}

const SUPERSCRIPTS = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/** Integer digits with `separator` between groups of three, counted from the right. */
export function grouped(digits, separator) {
  if (!separator || digits.length <= 3) return digits;
  const groups = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  return groups.join(separator);
}

/** Writes rounded digits in a catalog format (`formats.display` or `formats.plain`). */
export function formatRounded(value, format, smallestPositionalExponent) {
  if (value.digits === '0') return '0';
  const sign = value.neg ? format.minusSign : '';
  const { digits, exponent } = value;
  if (!(exponent >= smallestPositionalExponent && exponent < format.significantDigits)) {
    const fraction = digits.slice(1);
    const mantissa = digits[0] + (fraction ? format.decimalSeparator + fraction : '');
    const power = format.exponentStyle === 'eNotation'
      ? (exponent < 0 ? 'e-' : 'e+') + Math.abs(exponent)
      : '×10' + (exponent < 0 ? '⁻' : '') + [...String(Math.abs(exponent))].map((d) => SUPERSCRIPTS[d]).join('');
    return sign + mantissa + power;
  }
  let integerDigits, fractionDigits;
  if (exponent >= 0) {
    const padded = digits + '0'.repeat(Math.max(0, exponent + 1 - digits.length));
    integerDigits = padded.slice(0, exponent + 1);
    fractionDigits = padded.slice(exponent + 1);
  } else {
    integerDigits = '0';
    fractionDigits = '0'.repeat(-exponent - 1) + digits;
  }
  return sign + grouped(integerDigits, format.groupingSeparator) + (fractionDigits ? format.decimalSeparator + fractionDigits : '');
}

/** The converter engine over one catalog (the parsed catalog.json). */
export class Engine {
  constructor(catalog) {
    this.catalog = catalog;
    this.categories = catalog.categories;
    this.byCategory = new Map(catalog.categories.map((c) => [c.id, c]));
    // Definitions with exact factors, per convention: id -> unit (+ category).
    this.definitions = new Map();
    for (const convention of catalog.conventions) {
      const index = new Map();
      for (const category of catalog.categories) {
        for (const unit of category.units[convention.id]) {
          index.set(unit.id, { ...unit, category: category.id, scaleR: fromFraction(unit.scale), offsetR: fromFraction(unit.offset) });
        }
      }
      this.definitions.set(convention.id, index);
    }
  }

  /** A category by id (undefined if there is none). */
  category(id) { return this.byCategory.get(id); }

  /** The units a category offers under a convention, in picker order. */
  units(categoryId, convention) { return this.byCategory.get(categoryId)?.units[convention] ?? []; }

  /**
   * The definition behind an id: the convention's own units first, then (for data ids it does
   * not list) the catalog's `dataFallback` conventions, as `UnitCatalog.definition(for:)`.
   */
  definition(id, convention) {
    for (const c of [convention, ...this.catalog.dataFallback]) {
      const unit = this.definitions.get(c)?.get(id);
      if (unit) return unit;
    }
    return undefined;
  }

  /** Rounded digits of a value at a format's precision, written in that format. */
  format(value, formatName = 'display') {
    const format = this.catalog.formats[formatName];
    return formatRounded(rounded(value, format.significantDigits), format, this.catalog.smallestPositionalExponent);
  }

  /**
   * Converts an exact value (a rational) between unit ids; throws ConversionError with the Swift
   * engine's message for a forbidden negative, a temperature below absolute zero or a result
   * out of range. Returns { value, fraction, display, plain, isShownExactly }.
   */
  convert(value, fromId, toId, convention) {
    const source = this.definition(fromId, convention);
    const target = this.definition(toId, convention);
    if (!source || !target) throw new ConversionError(`Unknown unit '${source ? toId : fromId}'.`);
    const category = this.byCategory.get(source.category);
    if (source.category !== target.category) {
      throw new ConversionError(`Can't convert ${category.name} to ${this.byCategory.get(target.category).name}`);
    }
    if (value.neg && !category.allowsNegative) throw new ConversionError(category.negativeNotAllowed);
    const base = mul(add(value, source.offsetR), source.scaleR);
    if (base.neg) {
      throw new ConversionError(this.catalog.belowAbsoluteZero
        .replace('{value}', `${this.format(value)} ${source.symbol}`)
        .replace('{minimum}', `${this.format(neg(source.offsetR))} ${source.symbol}`));
    }
    const result = sub(div(base, target.scaleR), target.offsetR);
    if (!decimalValue(result)) throw new ConversionError(this.catalog.valueOutOfRange);
    const display = this.catalog.formats.display.significantDigits;
    return {
      value: result,
      fraction: fractionString(result),
      display: this.format(result, 'display'),
      plain: this.format(result, 'plain'),
      isShownExactly: rounded(result, display).isExact,
      isZero: isZero(result),
    };
  }
}
