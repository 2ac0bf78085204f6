/*
 * state.js: the converter screen's state and what the screen shows, ports of
 * Sources/Converter/ConverterState.swift, ConverterForm.apply and ConverterScreen.Model. States
 * are plain JSON in the server's own encoding ({ category, from, to, convention, input,
 * rememberedUnits }), so the phone can keep one in localStorage and send it to
 * POST /converter/state as it is. Pure: no DOM.
 */
import { ConversionError } from './engine.js';
import { displayText, EMPTY, entryText, inputValue, parseEntry, press } from './keypad.js';

const clone = (state) => ({ ...state, rememberedUnits: { ...state.rememberedUnits } });

/** The converter's state logic over one Engine. */
export class Converter {
  constructor(engine) {
    this.engine = engine;
    this.catalog = engine.catalog;
    this.limits = { maximumDigits: this.catalog.maximumDigits, maximumLength: this.catalog.maximumLength };
  }

  /** Whether the category/convention pickers offer `id`. */
  offers(state, id) {
    return this.engine.units(state.category, state.convention).some((u) => u.id === id);
  }

  /** The unit itself if offered, else the data unit in the same picker position, else null. */
  available(category, convention, id) {
    const offered = this.engine.units(category, convention);
    if (offered.some((u) => u.id === id)) return id;
    if (category !== 'data') return null;
    for (const other of this.catalog.conventions) {
      const position = this.engine.units('data', other.id).findIndex((u) => u.id === id);
      if (position >= 0 && position < offered.length) return offered[position].id;
    }
    return null;
  }

  /** `pair` with each unit made available in the category and convention (defaults otherwise). */
  repaired(category, convention, pair) {
    const defaults = this.engine.category(category).defaults[convention];
    if (!pair) return { ...defaults };
    return {
      from: this.available(category, convention, pair.from) ?? defaults.from,
      to: this.available(category, convention, pair.to) ?? defaults.to,
    };
  }

  /**
   * Reads a state as the server's decoder does, repairing units the catalog does not offer;
   * null if the category or the input cannot be read.
   */
  decode(json) {
    if (!json || typeof json !== 'object' || !this.engine.category(json.category)) return null;
    const convention = json.convention ?? this.catalog.standardConvention;
    if (!this.catalog.conventions.some((c) => c.id === convention)) return null;
    const input = json.input === undefined ? EMPTY : parseEntry(json.input, this.limits);
    if (!input) return null;
    const defaults = this.engine.category(json.category).defaults[convention];
    const units = this.repaired(json.category, convention, { from: json.from ?? defaults.from, to: json.to ?? defaults.to });
    const allowsNegative = this.engine.category(json.category).allowsNegative;
    return {
      category: json.category, from: units.from, to: units.to, convention,
      input: entryText(allowsNegative ? input : { ...input, neg: false }),
      rememberedUnits: { ...(json.rememberedUnits ?? {}) },
    };
  }

  /**
   * Applies one submission of the screen's form ({ category, convention, from, to, swap, key })
   * as `ConverterForm.apply` does. Returns { state, ignored } (`ignored`: why the key changed
   * nothing, or null); throws ConversionError for a wheel unit the category does not offer.
   */
  apply(state, form) {
    let next = clone(state);
    let movedOn = false;
    if (form.category && form.category !== next.category) {
      next = this.switchCategory(next, form.category);
      movedOn = true;
    }
    if (form.convention && form.convention !== next.convention) {
      next.convention = form.convention;
      const units = this.repaired(next.category, next.convention, { from: next.from, to: next.to });
      next.from = units.from; next.to = units.to;
      movedOn = true;
    }
    if (!movedOn) {
      for (const side of ['from', 'to']) {
        if (!form[side]) continue;
        if (!this.offers(next, form[side])) throw new ConversionError(`'${form[side]}' is not one of the ${this.engine.category(next.category).name} units`);
        next[side] = form[side];
      }
    }
    if (form.swap) [next.from, next.to] = [next.to, next.from];
    let ignored = null;
    if (form.key) {
      const allowsNegative = this.engine.category(next.category).allowsNegative;
      const result = press(parseEntry(next.input, this.limits) ?? EMPTY, form.key, allowsNegative, this.limits);
      next.input = entryText(result.input);
      ignored = result.ignored;
    }
    return { state: next, ignored };
  }

  /** Another category, keeping the typed value (unsigned where negatives mean nothing). */
  switchCategory(state, category) {
    const next = clone(state);
    next.rememberedUnits[state.category] = { from: state.from, to: state.to };
    next.category = category;
    const units = this.repaired(category, next.convention, next.rememberedUnits[category]);
    next.from = units.from; next.to = units.to;
    if (!this.engine.category(category).allowsNegative) next.input = next.input.replace(/^-/u, '');
    return next;
  }

  /**
   * The typed value converted: { from, to, result } with `result` from Engine.convert, or
   * { error } with the Swift engine's message.
   */
  convert(state) {
    const input = parseEntry(state.input, this.limits) ?? EMPTY;
    try {
      return { input, result: this.engine.convert(inputValue(input), state.from, state.to, state.convention) };
    } catch (error) {
      if (error instanceof ConversionError) return { input, error: error.message };
      throw error;
    }
  }

  /** Everything the screen shows for a state, as `ConverterScreen.Model` works it out. */
  screen(state, ignored = null) {
    const engine = this.engine;
    const category = engine.category(state.category);
    const info = (id) => engine.definition(id, state.convention);
    const fromInfo = info(state.from), toInfo = info(state.to);
    const { input, result, error } = this.convert(state);
    const fromText = displayText(input, this.catalog.formats.display.groupingSeparator);
    const spoken = (unit, plural) => (unit ? (plural ? unit.plural : unit.name) : '');
    const model = {
      category: state.category,
      convention: state.convention,
      units: engine.units(state.category, state.convention),
      fromUnit: state.from,
      toUnit: state.to,
      from: { text: fromText, symbol: fromInfo?.symbol ?? '', unitName: spoken(fromInfo, fromText !== '1'), size: sizeClass(fromText) },
      signDisabledReason: category.allowsNegative ? null : category.negativeNotAllowed,
      showsConventions: state.category === 'data',
      caption: this.catalog.conventions.find((c) => c.id === state.convention)?.caption ?? '',
    };
    if (result) {
      Object.assign(model, {
        to: { text: result.display, symbol: toInfo?.symbol ?? '', unitName: spoken(toInfo, result.display !== '1'), size: sizeClass(result.display) },
        relation: result.isShownExactly ? '=' : '≈',
        relationSpoken: result.isShownExactly ? 'equals' : 'equals about',
        copyText: result.plain,
        copiedMessage: `Copied ${result.plain} ${toInfo?.symbol ?? ''}`,
      });
    } else {
      Object.assign(model, {
        to: { text: '—', symbol: toInfo?.symbol ?? '', unitName: spoken(toInfo, true), size: sizeClass('—') },
        relation: '≠', relationSpoken: 'has no value in', copyText: null, copiedMessage: '',
      });
    }
    if (ignored) { model.message = this.catalog.notices[ignored] ?? ''; model.messageKind = 'notice'; }
    else { model.message = error ?? null; model.messageKind = error ? 'error' : ''; }
    return model;
  }
}

/** `w3` … `w12`: the text's width in ems, as `ConverterScreen.Model.size(of:)` (in hundredths, so both agree exactly). */
export function sizeClass(text) {
  let hundredths = 0;
  for (const c of text) {
    if (c === ',' || c === '.' || c === ' ') hundredths += 35;
    else if ('⁰¹²³⁴⁵⁶⁷⁸⁹⁻'.includes(c)) hundredths += 42;
    else if (c === '—') hundredths += 100;
    else if ('−-+×'.includes(c)) hundredths += 84;
    else hundredths += 64;
  }
  return 'w' + Math.min(Math.max(Math.ceil(hundredths / 100), 3), 12);
}
