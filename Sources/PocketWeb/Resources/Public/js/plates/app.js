/*
 * plates/app.js: the license plate game offline. Spot, un-spot, Reset Game and New Trip change the
 * screen at once and go into the outbox (../outbox.js), which sends each to the address the module's
 * element names (data-changes) when it can; the server applies each change once, by its merge rule
 * (js/plates/game.js).
 *
 * pocket.js calls init(element) for the element with data-module on every Plates screen. The
 * forms stay the server's: this module only answers their submit first (preventDefault, so
 * nav/forms.js leaves them alone) and edits the page as the server would have rendered it. On
 * every load, fresh or from the offline copy, the changes still waiting are applied to the page.
 *
 * Everything it adds comes from the server: copies of the page's <template>s (a cell's two controls,
 * the un-spot alert, a state page's two spotting blocks), filled with what each cell carries in
 * data attributes (its addresses, name, labels and alert), and values from the page (a count, a
 * state's name, the phone's time) written into the server's own words where they carry a slot
 * (data-score-text, data-finished-text, the map's labels). No markup, text or route is written
 * here, so the page with JavaScript on shows exactly what the server renders with it off.
 */
import { enqueue, events as outboxEvents, onChange, pending } from '../outbox.js';
import { announce } from '../core/dom.js';
import { recentPosition } from '../nav/forms.js';
import { itemOf, navigate, refresh } from '../nav/navigation.js';
import { invokers } from '../ui/dialogs.js';
import { showNotice } from '../offline/status.js';
import { applyChanges, changeForAction, changesElsewhere, changesElsewhereAfterSending, fillSlot } from './game.js';

/** How often an open Plates screen asks whether another device changed the game. */
const CHECK_EVERY_MS = 30000;

let refreshWhenSent = false;

/**
 * The game the page was rendered from, as the server says it on the module's element: its spotted
 * states and finished trips (the same on every Plates screen).
 */
function pageGame(element) {
  const spotted = new Set((element.dataset.spotted ?? '').split(' ').filter(Boolean));
  return { spotted, finished: Number(element.dataset.finished) || 0 };
}

/** The addresses of the page's forms that change the game, as the server wrote them (game.js's changeForAction). */
function pageRoutes(element, screen) {
  const spot = new Map(), unspot = new Map();
  for (const cell of screen.querySelectorAll('li[data-state]')) {
    spot.set(cell.dataset.spot, cell.dataset.state);
    unspot.set(cell.dataset.unspot, cell.dataset.state);
  }
  return { spot, unspot, reset: element.dataset.reset, newTrip: element.dataset.newTrip };
}

/** A copy of the screen's <template id="…">'s contents, or null. */
const copy = (screen, id) => screen.querySelector(`template#${id}`)?.content.cloneNode(true) ?? null;

/**
 * The un-spot alert of a cell's state: the page's own, or a copy of the list's alert template
 * given the id, action and name the server put on the cell.
 */
function unspotDialog(screen, cell) {
  const { alert: id, unspot, name } = cell.dataset;
  const existing = document.getElementById(id);
  if (existing) return existing;
  const template = screen.querySelector('template#plates-unspot-alert');
  const dialog = template?.content.querySelector('dialog')?.cloneNode(true);
  if (!dialog) return null;
  // The template's alert and its parts are named after its own id; the copy's after the cell's.
  const from = dialog.id;
  for (const el of [dialog, ...dialog.querySelectorAll('[id], [aria-labelledby], [aria-describedby], [commandfor]')]) {
    for (const attribute of ['id', 'aria-labelledby', 'aria-describedby', 'commandfor']) {
      const value = el.getAttribute(attribute);
      if (value?.startsWith(from)) el.setAttribute(attribute, id + value.slice(from.length));
    }
  }
  for (const words of dialog.querySelectorAll('.alert__title, .alert__message')) words.textContent = fillSlot(words.textContent, name);
  dialog.querySelector('form').setAttribute('action', unspot);
  template.before(dialog);
  return dialog;
}

/** Turns a list cell into its spotted or white form: the list's template filled from the cell's data. */
function setCell(screen, cell, spotted) {
  if (cell.classList.contains('cell--spotted') === spotted) return;
  const data = cell.dataset;
  const control = copy(screen, spotted ? 'plates-cell-spotted' : 'plates-cell-white');
  if (!control) return;
  const main = control.querySelector('.cell__main');
  main.setAttribute('aria-label', spotted ? data.labelSpotted : data.labelWhite);
  control.querySelector('.cell__title').textContent = data.name;
  control.querySelector('.cell__subtitle').textContent = data.nickname;
  if (spotted) {
    main.setAttribute('href', data.unspot);
    main.setAttribute('data-dialog', data.alert);
    unspotDialog(screen, cell);
  } else {
    control.querySelector('form').setAttribute('action', data.spot);
  }
  cell.classList.toggle('cell--bg-green', spotted);
  cell.classList.toggle('cell--spotted', spotted);
  cell.querySelector('.cell__main, .cell__form')?.replaceWith(control);
}

/** A state's own page (the detail pane): "Spotted …" and its Reset link, or the spot button, from its templates. */
function setDetail(screen, spotted) {
  const list = screen.querySelector('#plate-spotting');
  const cell = screen.querySelector('li.plates-cell--selected[data-state]');
  if (!list || !cell) return;
  const isSpotted = spotted.has(cell.dataset.state);
  if (!list.querySelector('form') === isSpotted) return;
  const content = copy(screen, isSpotted ? 'plate-spotting-spotted' : 'plate-spotting-white');
  if (!content) return;
  const time = new Date().toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  for (const el of content.querySelectorAll('[data-time-text]')) {
    el.textContent = fillSlot(el.dataset.timeText, time);
    el.removeAttribute('data-time-text');
  }
  if (isSpotted) unspotDialog(screen, cell);
  list.replaceChildren(content);
}

/** Puts `count` into every element carrying a pattern in `attribute` (the server's words for it). */
function showCount(screen, attribute, count) {
  for (const el of screen.querySelectorAll(`[${attribute}]`)) {
    const text = fillSlot(el.getAttribute(attribute), count);
    if (el.textContent !== text) el.textContent = text;
  }
}

/** Shows `game` on every part of the screen that shows the game. */
function show(screen, game) {
  for (const cell of screen.querySelectorAll('li[data-state]')) setCell(screen, cell, game.spotted.has(cell.dataset.state));
  for (const map of screen.querySelectorAll('.plates-map[data-label-white]')) {
    for (const tile of map.querySelectorAll('.tile')) {
      const spotted = game.spotted.has(tile.textContent.trim());
      tile.classList.toggle('tile--spotted', spotted);
      tile.setAttribute('aria-label', fillSlot(spotted ? map.dataset.labelSpotted : map.dataset.labelWhite, tile.title));
    }
  }
  setDetail(screen, game.spotted);
  showCount(screen, 'data-score-text', game.spotted.size);
  showCount(screen, 'data-finished-text', game.finished);
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
  const routes = pageRoutes(element, screen);
  const changes = element.dataset.changes;
  let applied = [];
  const render = () => show(screen, applyChanges(base, applied));

  // What the person did and the server has not heard of yet shows at once.
  pending('plates').then((waiting) => {
    if (!screen.isConnected) return;
    applied = waiting.map((c) => ({ ...c.body, id: c.id, at: c.at, outbox: c.id }));
    if (applied.length) { render(); refreshWhenSent = true; }
  });

  const onSubmit = (e) => {
    const form = e.target;
    const action = new URL(form.getAttribute('action') ?? '', location.href);
    const change = action.origin === location.origin ? changeForAction(action.pathname, routes) : null;
    if (!change || !changes || e.defaultPrevented || (form.getAttribute('method') ?? '').toLowerCase() !== 'post') return;
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
    enqueue('plates', changes, bodyFor(form, change))
      .then((kept) => { local.outbox = kept.id; })
      .catch((err) => console.debug('Plates: change not kept', err));
    // A New Trip from its alert on the trips page goes back to the game, as the server's redirect would.
    if (change.kind === 'newTrip' && !screen.querySelector('li[data-state]') && element.dataset.list) {
      navigate(element.dataset.list, { transition: 'none' });
    }
  };
  screen.addEventListener('submit', onSubmit);

  // Another phone of the person may change the game. The states' names, for saying what it changed.
  const names = (code) => screen.querySelector(`li[data-state="${CSS.escape(code)}"]`)?.dataset.name
    ?? [...screen.querySelectorAll('.plates-map .tile')].find((tile) => tile.textContent.trim() === code)?.title ?? code;

  /** The game as the server renders this screen now (read the way a swap reads it); null when unreadable. */
  const serverGame = async () => {
    let text;
    try {
      const response = await fetch(location.href, { headers: { Accept: 'text/html', 'X-Pocket-Swap': '1' }, credentials: 'same-origin', cache: 'no-store' });
      if (!response.ok) return null;
      text = await response.text();
    } catch { return null; }
    const fresh = new DOMParser().parseFromString(text, 'text/html').querySelector('[data-module][data-spotted]');
    return fresh ? pageGame(fresh) : null;
  };

  // Changes of the phone's own the server refused for good never applied: they are not its news.
  const refused = new Set();
  const onRefused = (event) => { if (event.detail?.change?.id) refused.add(event.detail.change.id); };
  document.addEventListener(outboxEvents.refused, onRefused);

  // Positions come from nav/forms.js, which watches them on every screen with a data-geolocate form.
  // Once every Plates change has reached the server, read the page again once, so the copy
  // kept for offline use is the server's and shows the merged game. What the merge changed beyond
  // the phone's own changes came from another device, and is said as the periodic check says it.
  const stop = onChange(async (count) => {
    if (count > 0 || !refreshWhenSent || !screen.isConnected) return;
    if ((await pending('plates')).length) return;
    refreshWhenSent = false;
    const fresh = await serverGame();
    // A tap made while the game was read is not in it yet: its own round says what changed.
    if (fresh && !(await pending('plates')).length) {
      const news = changesElsewhereAfterSending(base, applied, fresh, names, refused);
      if (news) showNotice(news);
    }
    // Focus stays on the state being played with (its controls are new elements after the read).
    if (screen.isConnected) refresh({ focusItem: itemOf(document.activeElement) });
  });

  // When this screen is looked at again, and every so often while it is, read the game from the
  // server; if it changed, say what changed (by name) and show the server's page.
  const check = async () => {
    if (document.hidden || !screen.isConnected || (await pending('plates')).length) return;
    const fresh = await serverGame();
    if (!fresh || !screen.isConnected) return;
    const news = changesElsewhere(applyChanges(base, applied), fresh, names);
    if (!news) return;
    showNotice(news);
    refresh({ focusItem: itemOf(document.activeElement) });
  };
  const onVisible = () => { if (!document.hidden) check(); };
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(check, CHECK_EVERY_MS);

  return () => {
    screen.removeEventListener('submit', onSubmit);
    document.removeEventListener('visibilitychange', onVisible);
    document.removeEventListener(outboxEvents.refused, onRefused);
    clearInterval(timer);
    stop?.();
  };
}
