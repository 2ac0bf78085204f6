/*
 * converter/app.js: the converter works on the phone. Every key, wheel, category, convention and
 * swap is applied at once by the browser's own engine (js/converter/*, exact BigInt arithmetic
 * from the catalog the server publishes), the screen is updated as the server would render it,
 * the state is kept in localStorage, and the whole state goes to POST /converter/state through
 * the outbox, which sends it when the server can be reached. Without the catalog (never loaded)
 * the form posts as usual; without JavaScript it is a plain form.
 */
import { Engine } from './engine.js';
import { Converter } from './state.js';
import { enqueue, flush, onChange, pending } from '../outbox.js';
import { refresh } from '../nav/navigation.js';

const APP = 'converter';
/** How long the keys must rest before the state is sent: only a settled state goes to the server. */
const SETTLE_MS = 1500;
const KEPT = 'pocket-kept';
const CATALOG_KEY = 'pocket.converter.catalog';
const stateKey = (owner) => `pocket.converter.state.${owner}`;
let loaded = null; // { url, converter }: the catalog is parsed once per page load

/** The catalog at its versioned URL: from memory, localStorage, the kept cache, or the network. */
async function loadConverter(url) {
  if (loaded?.url === url) return loaded.converter;
  let catalog = null;
  try {
    const saved = JSON.parse(localStorage.getItem(CATALOG_KEY) ?? 'null');
    if (saved?.url === url) catalog = saved.catalog;
  } catch { /* unreadable copy: fetch again */ }
  if (!catalog && 'caches' in window) {
    catalog = await caches.match(url, { cacheName: KEPT }).then((r) => r?.json()).catch(() => null);
  }
  if (!catalog) {
    const response = await fetch(url, { signal: AbortSignal.timeout(8000) });
    if (!response.ok) throw new Error(`catalog: ${response.status}`);
    if ('caches' in window) await caches.open(KEPT).then((c) => c.put(url, response.clone())).catch(() => {});
    catalog = await response.json();
  }
  try { localStorage.setItem(CATALOG_KEY, JSON.stringify({ url, catalog })); } catch { /* storage full */ }
  loaded = { url, converter: new Converter(new Engine(catalog)) };
  return loaded.converter;
}

const readLocal = (owner) => { try { return JSON.parse(localStorage.getItem(stateKey(owner)) ?? 'null'); } catch { return null; } };
const writeLocal = (owner, state) => { try { localStorage.setItem(stateKey(owner), JSON.stringify(state)); } catch { /* full */ } };

export function init(form) {
  const { owner, stateUrl } = form.dataset;
  let converter = null;
  let state = null;
  let reread = false; // re-read the page once the waiting changes are sent, so its saved copy is fresh
  let alive = true;

  const onSubmit = (event) => {
    if (!converter || !state || event.defaultPrevented) return;
    const fields = new FormData(form, event.submitter ?? undefined);
    const change = {
      category: fields.get('category'), convention: fields.get('convention'),
      from: fields.get('from'), to: fields.get('to'), swap: fields.has('swap'), key: fields.get('key'),
    };
    let result;
    try { result = converter.apply(state, change); } catch { return; } // a stale wheel: let the server answer
    event.preventDefault();
    form.querySelector('#converter-more')?.removeAttribute('open');
    const unitsChanged = result.state.category !== state.category || result.state.convention !== state.convention;
    state = result.state;
    writeLocal(owner, state);
    render(form, converter.screen(state, result.ignored), unitsChanged);
    if (result.ignored !== null) return; // a refused key changed nothing worth sending
    // The whole state replaces any still waiting: at most one converter change waits, however
    // many keys were pressed, and it is sent once the keys rest (or the page is left).
    enqueue(APP, stateUrl, { state }, { coalesce: true, settleMs: SETTLE_MS }).catch(() => {});
  };
  form.addEventListener('submit', onSubmit);
  // Leaving the page (or the app) sends the settled state now rather than after the rest.
  const onHide = () => { if (document.visibilityState === 'hidden') flush(); };
  document.addEventListener('visibilitychange', onHide);
  addEventListener('pagehide', flush);

  const onUnreachable = () => { reread = true; };
  document.addEventListener('pocket:unreachable', onUnreachable);
  const stopWatching = onChange(async () => {
    if (!reread || (await pending(APP)).length) return;
    reread = false;
    if (alive) refresh();
  });

  (async () => {
    converter = await loadConverter(new URL(form.dataset.catalog, location.href).href);
    const fromServer = converter.decode(JSON.parse(form.dataset.state));
    const local = converter.decode(readLocal(owner));
    const waiting = await pending(APP);
    const latest = Math.max(0, ...waiting.map((change) => change.at));
    // The phone's state is newer while it has changes waiting that were made after the server's
    // state was saved (the server would refuse the older ones), or when this page is a saved copy.
    const offlineCopy = document.documentElement.hasAttribute('data-offline-saved');
    if (local && (offlineCopy || latest > Number(form.dataset.savedAt || 0))) {
      reread = waiting.length > 0;
      state = local;
      if (alive) render(form, converter.screen(state), true);
    } else {
      state = fromServer;
      writeLocal(owner, state);
    }
    form.dataset.engine = 'ready'; // changes are now made on the phone
  })().catch((error) => console.debug('Pocket: the converter stays with the server', error));

  return () => {
    alive = false;
    form.removeEventListener('submit', onSubmit);
    document.removeEventListener('visibilitychange', onHide);
    removeEventListener('pagehide', flush);
    document.removeEventListener('pocket:unreachable', onUnreachable);
    stopWatching?.();
  };
}

// MARK: Rendering, as ConverterScreen+View.swift writes the page

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== false && value != null) node.setAttribute(name, value === true ? '' : value);
  node.append(...children);
  return node;
};

function render(form, model, rebuild) {
  const $ = (selector) => form.querySelector(selector);
  // Categories, and the "More" menu's label when the chosen one is there.
  for (const input of form.querySelectorAll('input[name=category]')) input.checked = input.value === model.category;
  const more = $('#converter-more');
  const inMenu = more?.querySelector('input[name=category]:checked');
  if (more) {
    more.toggleAttribute('data-chosen', !!inMenu);
    const label = inMenu ? inMenu.nextElementSibling.textContent : 'More';
    more.querySelector('summary span').textContent = label;
    more.querySelector('summary').setAttribute('aria-label', 'More categories' + (inMenu ? `: ${label} chosen` : ''));
  }
  // The wheels.
  for (const side of ['from', 'to']) {
    const wheel = $(`#converter-${side}-wheel`);
    const chosen = side === 'from' ? model.fromUnit : model.toUnit;
    if (rebuild) {
      wheel.replaceChildren(...model.units.map((unit) => el('label', { class: 'wheel__item' + (unit.name.length > 13 ? ' converter__long' : '') },
        el('input', { type: 'radio', name: side, value: unit.id, checked: unit.id === chosen }), el('span', {}, unit.name))));
    }
    for (const input of wheel.querySelectorAll('input')) input.checked = input.value === chosen;
    for (const item of wheel.querySelectorAll('.wheel__item')) item.classList.toggle('is-selected', !!item.querySelector('input:checked'));
    const item = wheel.querySelector('input:checked')?.closest('.wheel__item');
    if (item && wheel.clientHeight) { // centred, as ui/controls.js centres a chosen row
      const w = wheel.getBoundingClientRect(), r = item.getBoundingClientRect();
      wheel.scrollTo({ top: wheel.scrollTop + (r.top - w.top - wheel.clientTop) - (wheel.clientHeight - r.height) / 2, behavior: 'instant' });
    }
  }
  // The two values and the relation between them.
  for (const side of ['from', 'to']) {
    const value = model[side];
    const output = $(`#converter-${side}`);
    output.textContent = value.text;
    output.className = `converter__number converter__number--${value.size}`;
    const symbol = $(`#converter-${side}-symbol`);
    symbol.textContent = value.symbol;
    if (symbol.nextElementSibling) symbol.nextElementSibling.textContent = ` ${value.unitName}`;
  }
  const relation = $('#converter-relation');
  relation.replaceChildren(el('span', { 'aria-hidden': 'true' }, model.relation), el('span', { class: 'visually-hidden' }, model.relationSpoken));
  const message = $('#converter-message');
  message.className = 'converter__message' + (model.message ? ` converter__message--${model.messageKind}` : '');
  message.textContent = model.message ?? '';
  const copy = document.getElementById('converter-copy');
  if (copy) {
    copy.hidden = model.copyText === null;
    if (model.copyText !== null) {
      copy.dataset.copy = model.copyText;
      copy.dataset.copied = model.copiedMessage;
      copy.setAttribute('aria-label', `Copy the result, ${model.copyText}`);
    }
  }
  // The data convention (Data only) and the ± key.
  renderConventions(form, model, message);
  const sign = $('#converter-key-sign');
  if (sign) {
    sign.disabled = model.signDisabledReason !== null;
    if (model.signDisabledReason) sign.title = model.signDisabledReason; else sign.removeAttribute('title');
  }
}

function renderConventions(form, model, message) {
  let block = form.querySelector('.converter__convention');
  if (!model.showsConventions) { block?.remove(); return; }
  if (!block) {
    const conventions = loaded.converter.catalog.conventions;
    block = el('div', { class: 'converter__convention' },
      el('fieldset', { class: 'segmented converter__conventions', id: 'converter-conventions', 'aria-describedby': 'converter-convention-caption' },
        el('legend', { class: 'visually-hidden' }, 'Data sizes'),
        ...conventions.map((c) => el('label', { class: 'segmented__item' },
          el('input', { type: 'radio', name: 'convention', value: c.id, id: `converter-convention-${c.id}` }), el('span', {}, c.shortName)))),
      el('p', { class: 'converter__caption', id: 'converter-convention-caption' }));
    message.after(block);
  }
  for (const input of block.querySelectorAll('input[name=convention]')) input.checked = input.value === model.convention;
  block.querySelector('#converter-convention-caption').textContent = model.caption;
}
