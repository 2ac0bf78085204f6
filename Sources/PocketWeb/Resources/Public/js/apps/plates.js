/*
 * plates.js: the license plate game offline. Spot, un-spot, Reset Game and New Trip change the
 * screen at once and go into the outbox (../outbox.js), which sends each to POST /plates/changes
 * when it can; the server applies each change once, by its merge rule (js/plates/game.js).
 *
 * pocket.js calls init(element) for the element with data-module on every Plates screen. The
 * forms stay the server's: this module only answers their submit first (preventDefault, so
 * nav/forms.js leaves them alone) and edits the page as the server would have rendered it. On
 * every load, fresh or from the offline copy, the changes still waiting are applied to the page.
 */
import { enqueue, onChange, pending } from '../outbox.js';
import { announce } from '../core/dom.js';
import { recentPosition } from '../nav/forms.js';
import { itemOf, navigate } from '../nav/navigation.js';
import { invokers } from '../ui/dialogs.js';
import { showNotice } from '../offline/status.js';
import {
  applyChanges, changeForAction, changesElsewhere, mapDetail, mapScore, scoreText, tripScore, tripsDetail,
} from '../plates/game.js';

/** How often an open Plates screen asks whether another device changed the game. */
const CHECK_EVERY_MS = 30000;

let refreshWhenSent = false;

/**
 * The game the page was rendered from, as the server says it on the module's element: its spotted
 * states, finished trips and how many states there are (the same on every Plates screen).
 */
function pageGame(element) {
  const spotted = new Set((element.dataset.spotted ?? '').split(' ').filter(Boolean));
  return { spotted, finished: Number(element.dataset.finished) || 0, total: Number(element.dataset.total) || 0 };
}

const make = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null) el.setAttribute(k, v);
  el.append(...children);
  return el;
};
const csrfToken = () => document.querySelector('meta[name="csrf-token"]')?.content ?? '';
const soundsOn = (screen) => !!screen.querySelector('[data-sound]') || screen.querySelector('#plates-sounds')?.checked;
const recordsWhere = (screen) => !!screen.querySelector('#plates-location')?.checked || !!screen.querySelector('form[data-geolocate]');

/** The un-spot alert of a state, made like the server's from the page's Reset Game alert. */
function unspotDialog(screen, code, name) {
  const id = `unspot-${code}`;
  const existing = document.getElementById(id);
  if (existing) return existing;
  const model = document.getElementById('reset-game');
  if (!model) return null;
  const dialog = model.cloneNode(true);
  dialog.id = id;
  dialog.setAttribute('aria-labelledby', `${id}-title`);
  dialog.setAttribute('aria-describedby', `${id}-message`);
  Object.assign(dialog.querySelector('.alert__title'), { id: `${id}-title`, textContent: `Reset ${name}?` });
  Object.assign(dialog.querySelector('.alert__message'), { id: `${id}-message`, textContent: `${name} goes back to white and your score goes down by one.` });
  dialog.querySelector('form').setAttribute('action', `/plates/states/${code}/unspot`);
  dialog.querySelector('.alert__button--cancel').setAttribute('commandfor', id);
  const confirm = dialog.querySelector('button[type="submit"]');
  confirm.textContent = 'Un-spot';
  if (confirm.hasAttribute('data-sound')) confirm.setAttribute('data-sound', '/plates/sounds/unspot.wav');
  model.after(dialog);
  return dialog;
}

/** Turns a list cell into its spotted or white form, as the server renders it. */
function setCell(screen, cell, spotted) {
  if (cell.classList.contains('cell--spotted') === spotted) return;
  const code = cell.dataset.state;
  const main = cell.querySelector('.cell__main, .cell__form');
  const name = cell.querySelector('.cell__title')?.textContent ?? code;
  const nickname = cell.querySelector('.cell__subtitle')?.textContent ?? '';
  const text = () => make('span', { class: 'cell__text' }, make('span', { class: 'cell__title' }, name), make('span', { class: 'cell__subtitle' }, nickname));
  cell.classList.toggle('cell--bg-green', spotted);
  cell.classList.toggle('cell--spotted', spotted);
  let replacement;
  if (spotted) {
    unspotDialog(screen, code, name);
    replacement = make('a', { class: 'cell__main', href: `/plates/states/${code}/unspot`, 'data-dialog': `unspot-${code}`, 'aria-label': `${name}, ${nickname}: spotted. Reset?` },
      text(), make('span', { class: 'cell__badge', 'aria-hidden': 'true' }));
  } else {
    replacement = make('form', { class: 'cell__form', method: 'post', action: `/plates/states/${code}/spot`, 'data-geolocate': recordsWhere(screen) ? '' : null },
      make('input', { type: 'hidden', name: '_csrf', value: csrfToken() }),
      make('button', { class: 'cell__main', type: 'submit', 'data-sound': soundsOn(screen) ? '/plates/sounds/spot.wav' : null, 'aria-label': `${name}, ${nickname}: mark spotted` }, text()));
  }
  main?.replaceWith(replacement);
}

/** A state's own page (the detail pane): "Spotted …" and its Reset link, or the spot button. */
function setDetail(screen, spotted) {
  const list = screen.querySelector('#plates-detail section[aria-label="Spotting"] .list');
  const code = screen.querySelector('li.plates-cell--selected[data-state]')?.dataset.state;
  if (!list || !code || !list.querySelector('#plate-spotted')) return;
  const shownSpotted = !list.querySelector('form');
  if (shownSpotted === spotted.has(code)) return;
  const name = screen.querySelector('li.plates-cell--selected .cell__title')?.textContent ?? code;
  const back = `${location.pathname}${location.search}`;
  const title = (text) => make('span', { class: 'cell__text' }, make('span', { class: 'cell__title', id: 'plate-spotted' }, text));
  if (spotted.has(code)) {
    const time = new Date().toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
    unspotDialog(screen, code, name);
    list.replaceChildren(
      make('div', { class: 'cell cell--bg-green' }, make('div', { class: 'cell__main' }, title(`Spotted today at ${time}`))),
      make('div', { class: 'cell' }, make('a', { class: 'cell__main', href: `/plates/states/${code}/unspot?return=${encodeURIComponent(back)}`, 'data-dialog': `unspot-${code}` },
        make('span', { class: 'cell__text' }, make('span', { class: 'cell__title cell__title--destructive' }, `Reset ${name}…`)))));
  } else {
    list.replaceChildren(
      make('div', { class: 'cell' }, make('div', { class: 'cell__main' }, title('Not spotted on this trip yet'))),
      make('form', { class: 'cell', method: 'post', action: `/plates/states/${code}/spot`, 'data-geolocate': recordsWhere(screen) ? '' : null },
        make('input', { type: 'hidden', name: '_csrf', value: csrfToken() }), make('input', { type: 'hidden', name: 'return', value: back }),
        make('div', { class: 'cell__main' }, make('button', { class: 'button button--large', type: 'submit', 'data-sound': soundsOn(screen) ? '/plates/sounds/spot.wav' : null }, `I Spotted ${name}`))));
  }
}

/** Shows `game` on every part of the screen that shows the game. */
function show(screen, game, total) {
  const score = game.spotted.size;
  for (const cell of screen.querySelectorAll('li[data-state]')) setCell(screen, cell, game.spotted.has(cell.dataset.state));
  for (const tile of screen.querySelectorAll('.plates-map .tile')) {
    const spotted = game.spotted.has(tile.textContent.trim());
    tile.classList.toggle('tile--spotted', spotted);
    tile.setAttribute('aria-label', `${tile.title}, ${spotted ? 'spotted' : 'not spotted yet'}`);
  }
  setDetail(screen, game.spotted);
  const set = (sel, text) => { const el = document.querySelector(sel); if (el && el.textContent !== text) el.textContent = text; };
  set('#plates-score', scoreText(score, total));
  set('#plates-map-score', mapScore(score, total));
  // The trips page shows the current trip's score as every other screen does.
  const current = screen.querySelector('section[aria-labelledby="trips-current"] .cell__detail');
  if (current) current.textContent = tripScore(score, total);
  const map = screen.querySelector('a[href="/plates/map"] .cell__detail');
  if (map) map.textContent = mapDetail(score, total);
  const trips = screen.querySelector('a[href="/plates/trips"] .cell__detail');
  if (trips) trips.textContent = tripsDetail(game.finished);
}

/** The form's change with a place, if the form records one and a recent fix exists. */
function bodyFor(form, change) {
  const body = { ...change };
  const position = recentPosition();
  if (change.kind === 'spot' && form.matches('[data-geolocate]') && position) {
    body.location = { lat: position.coords.latitude, lon: position.coords.longitude, accuracy: position.coords.accuracy };
  }
  return body;
}

/** Sets a Plates screen up; returns its teardown. */
export function init(element) {
  const screen = element.closest('[data-screen]') ?? document.body;
  const base = pageGame(element);
  let applied = [];
  const render = () => show(screen, applyChanges(base, applied), base.total);

  // What the person did and the server has not heard of yet shows at once.
  pending('plates').then((waiting) => {
    if (!screen.isConnected) return;
    applied = waiting.map((c) => ({ ...c.body, id: c.id, at: c.at }));
    if (applied.length) { render(); refreshWhenSent = true; }
  });

  const onSubmit = (e) => {
    const form = e.target;
    const action = new URL(form.getAttribute('action') ?? '', location.href);
    const change = action.origin === location.origin ? changeForAction(action.pathname) : null;
    if (!change || e.defaultPrevented || (form.getAttribute('method') ?? '').toLowerCase() !== 'post') return;
    e.preventDefault();
    // The state acted on: the cell holding the form, or the one whose link opened the un-spot alert.
    // Its controls are replaced below, so focus goes to the new ones, as after a server swap.
    const dialog = form.closest('dialog');
    const from = (dialog && invokers.get(dialog)) || document.activeElement;
    const cell = from?.closest?.('li[data-state]') ?? form.closest('li[data-state]')
      ?? (change.state ? screen.querySelector(`li[data-state="${CSS.escape(change.state)}"]`) : null);
    const hadFocus = !!cell && (cell.contains(document.activeElement) || !!dialog);
    dialog?.open && dialog.close();
    const local = { ...change, id: `local-${Date.now()}-${applied.length}`, at: Date.now() };
    applied.push(local);
    render();
    if (hadFocus && cell.isConnected) cell.querySelector('.cell__main')?.focus({ preventScroll: true });
    if (change.kind === 'newTrip' || change.kind === 'reset') announce(change.kind === 'newTrip' ? 'New trip started' : 'Game reset');
    refreshWhenSent = true;
    enqueue('plates', '/plates/changes', bodyFor(form, change)).catch((err) => console.debug('Plates: change not kept', err));
    // A New Trip from its alert on the trips page goes back to the game, as the server's redirect would.
    if (change.kind === 'newTrip' && !screen.querySelector('li[data-state]')) navigate('/plates', { transition: 'none' });
  };
  screen.addEventListener('submit', onSubmit);

  // Positions come from nav/forms.js, which watches them on every screen with a data-geolocate form.
  // Once every Plates change has reached the server, read the page again once, so the copy
  // kept for offline use is the server's and shows the merged game.
  const stop = onChange(async (count) => {
    if (count > 0 || !refreshWhenSent || !screen.isConnected) return;
    if ((await pending('plates')).length) return;
    refreshWhenSent = false;
    // Focus stays on the state being played with (its controls are new elements after the read).
    navigate(location.href, { history: 'none', transition: 'none', scroll: 'keep', keepFocus: true, focusItem: itemOf(document.activeElement) });
  });

  // Another phone of the person may change the game: when this screen is looked at again, and
  // every so often while it is, read the game from the server; if it changed, say what changed
  // (by name) and show the server's page.
  const names = (code) => screen.querySelector(`#state-${CSS.escape(code)} .cell__title`)?.textContent
    ?? [...screen.querySelectorAll('.plates-map .tile')].find((tile) => tile.textContent.trim() === code)?.title ?? code;
  const check = async () => {
    if (document.hidden || !screen.isConnected || (await pending('plates')).length) return;
    let text;
    try {
      const response = await fetch(location.href, { headers: { Accept: 'text/html', 'X-Pocket-Swap': '1' }, credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok) return;
      text = await response.text();
    } catch { return; }
    const fresh = new DOMParser().parseFromString(text, 'text/html').querySelector('[data-module][data-spotted]');
    if (!fresh || !screen.isConnected) return;
    const shown = applyChanges(base, applied);
    const news = changesElsewhere(shown, pageGame(fresh), names);
    if (!news) return;
    showNotice(news);
    navigate(location.href, { history: 'none', transition: 'none', scroll: 'keep', keepFocus: true, focusItem: itemOf(document.activeElement) });
  };
  const onVisible = () => { if (!document.hidden) check(); };
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(check, CHECK_EVERY_MS);

  return () => {
    screen.removeEventListener('submit', onSubmit);
    document.removeEventListener('visibilitychange', onVisible);
    clearInterval(timer);
    stop?.();
  };
}
