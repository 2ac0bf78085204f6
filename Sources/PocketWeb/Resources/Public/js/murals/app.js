/*
 * murals/app.js: the Murals app's map, live location and in-place favourites.
 *
 * pocket.js imports this module for every element with data-module and calls init(element):
 * #murals is the main screen (map + list), #mural a mural's page. Everything here enhances pages
 * that already work without JavaScript: the server orders the list by the last known position
 * (kept in the murals_at cookie), favourites are real form posts, the trail has its own page.
 *
 * Offline (issue #13): pins and list come from the page's own data (each cell's data-lat/lon),
 * so a saved copy of the page draws them with no server; stars go through the outbox
 * (murals/stars.js) and "Keep offline" saves every mural's page and pictures (murals/keep.js).
 *
 * The location (a GPS watch, or a simulated point or walk) lives at module level, so a walk
 * replay keeps going while the visitor looks at a mural and comes back.
 */

import { initKeep } from './keep.js';
import { initStars } from './stars.js';

const EARTH_RADIUS = 6371008.8; // metres, the same mean radius Pocket's server uses
const STREET_ZOOM = 17;
const VISIT_REPORT_MS = 4000;
const reduceMotion = matchMedia('(prefers-reduced-motion: reduce)');

/* ---------------------------------------------------------------- distances */

/** Great-circle distance in metres (haversine), as GeoCoordinate.distance(to:) computes it. */
export function distance(a, b) {
  const rad = Math.PI / 180;
  const dPhi = (b.lat - a.lat) * rad, dLambda = (b.lon - a.lon) * rad;
  const h = Math.sin(dPhi / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLambda / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** "120 m", "1.2 km", "12 km": the server's DistanceText rules. */
export function distanceText(metres) {
  if (!Number.isFinite(metres) || metres <= 0) return '0 m';
  const whole = Math.round(metres);
  if (whole < 1000) return `${whole} m`;
  const tenths = Math.round(metres / 100) / 10;
  if (tenths < 10) return `${tenths.toFixed(1)} km`;
  return `${Math.round(metres / 1000)} km`;
}

/* ---------------------------------------------------------------- location (module-wide) */

const loc = {
  mode: 'none',          // 'none' | 'gps' | 'fixed' | 'walk'
  position: null,        // { lat, lon }
  speed: 1,
  walkIndex: 0,
  timer: 0,
  watch: null,
  note: '',
  listeners: new Set(),
  trace: [],             // positions walked since the last visit report
  lastReported: null,
  reportTimer: 0,
  visited: null,         // Set of ids once the server has answered
  urls: { walk: null, visited: null },
};
let walkPoints = null;   // Promise of the bundled walk's points

function notify(kind) {
  for (const fn of [...loc.listeners]) {
    try { fn(kind); } catch (err) { console.debug('Murals: listener failed', err); }
  }
}

function setNote(text) {
  loc.note = text;
  notify('note');
}

function setPosition(p) {
  loc.position = { lat: p.lat, lon: p.lon };
  // The server orders the list by this on the next page load, even without JavaScript.
  // Only Murals' own pages get it (path), and over HTTPS never in the clear (Secure).
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `murals_at=${encodeURIComponent(`${p.lat.toFixed(6)},${p.lon.toFixed(6)}`)}; path=/murals; max-age=2592000; SameSite=Lax${secure}`;
  if (loc.mode === 'walk' || loc.mode === 'gps') {
    loc.trace.push(loc.position);
    if (!loc.reportTimer) loc.reportTimer = setTimeout(reportVisits, VISIT_REPORT_MS);
  }
  notify('position');
}

function stop() {
  clearTimeout(loc.timer);
  loc.timer = 0;
  if (loc.watch != null) navigator.geolocation?.clearWatch(loc.watch);
  loc.watch = null;
  if (loc.trace.length) reportVisits();
  loc.mode = 'none';
  remember();
}

// A simulated location survives a reload of the page, as the simulator's menu does.
function remember() {
  try {
    if (loc.mode === 'fixed' || loc.mode === 'walk') {
      sessionStorage.setItem('murals-location', JSON.stringify({ mode: loc.mode, speed: loc.speed, index: loc.walkIndex, position: loc.position }));
    } else sessionStorage.removeItem('murals-location');
  } catch { /* storage refused: nothing to remember */ }
}

function restore() {
  let saved = null;
  try { saved = JSON.parse(sessionStorage.getItem('murals-location') ?? 'null'); } catch { saved = null; }
  if (!saved || loc.mode !== 'none') return;
  if (saved.mode === 'fixed' && saved.position) simulateFixed(saved.position);
  else if (saved.mode === 'walk') simulateWalk(Number(saved.speed) || 1, Number(saved.index) || 0);
}

export function useGPS() {
  if (!window.isSecureContext || !navigator.geolocation) {
    setNote('Your location needs a secure connection (HTTPS, or Pocket on this device). Use Simulate to try New Brighton or the recorded walk.');
    return;
  }
  stop();
  loc.mode = 'gps';
  setNote('Finding your location…');
  loc.watch = navigator.geolocation.watchPosition(
    (fix) => {
      if (loc.mode !== 'gps') return;
      if (loc.note) setNote('');
      setPosition({ lat: fix.coords.latitude, lon: fix.coords.longitude });
    },
    (err) => {
      if (loc.mode !== 'gps') return;
      if (err.code === 1) {
        stop();
        setNote('Location access is off for this site. Allow it in the browser’s settings, or use Simulate.');
      } else {
        setNote('Your location isn’t available right now. Try again, or use Simulate.');
      }
    },
    { enableHighAccuracy: true, maximumAge: 10000, timeout: 30000 },
  );
}

export function simulateFixed(point) {
  stop();
  loc.mode = 'fixed';
  remember();
  setNote('Simulated location: New Brighton.');
  setPosition(point);
}

function loadWalk() {
  if (!walkPoints) {
    const walk = loc.urls.walk
      ? fetch(loc.urls.walk, { headers: { Accept: 'application/json' } })
      : Promise.reject(new Error('this page names no walk'));
    walkPoints = walk
      .then((res) => { if (!res.ok) throw new Error(`walk.json answered ${res.status}`); return res.json(); })
      .then((json) => json.points)
      .catch((err) => { walkPoints = null; throw err; });
  }
  return walkPoints;
}

export async function simulateWalk(speed, from = 0) {
  stop();
  loc.mode = 'walk';
  loc.speed = speed;
  setNote(`Simulated walk at ${speed}×.`);
  let points;
  try { points = await loadWalk(); } catch {
    if (loc.mode === 'walk') { loc.mode = 'none'; setNote('The recorded walk could not be loaded. Try again.'); }
    return;
  }
  if (loc.mode !== 'walk' || loc.speed !== speed) return; // another choice came in meanwhile
  const step = (i) => {
    loc.walkIndex = i;
    setPosition(points[i]);
    if (i % 10 === 0) remember();
    if (i + 1 >= points.length) {
      loc.timer = 0;
      loc.mode = 'fixed'; // the walker stays at the end point
      remember();
      reportVisits();
      setNote('Simulated walk finished.');
      return;
    }
    // The walk's own timestamps, sped up: 2 s between fixes is 100 ms at 20×.
    const gap = Math.max(0, points[i + 1].t - points[i].t);
    loc.timer = setTimeout(() => step(i + 1), (gap * 1000) / speed);
  };
  step(Math.min(Math.max(0, from), points.length - 1));
}

function csrf() {
  return document.querySelector('meta[name="csrf-token"]')?.content ?? '';
}

// Murals passed within 25 m are worked out by the server (TrailPlanner.visited) and kept.
async function reportVisits() {
  clearTimeout(loc.reportTimer);
  loc.reportTimer = 0;
  if (!loc.trace.length || !loc.urls.visited) return;
  const points = loc.lastReported ? [loc.lastReported, ...loc.trace] : [...loc.trace];
  loc.lastReported = loc.trace[loc.trace.length - 1];
  loc.trace = [];
  const body = new URLSearchParams({ path: points.map((p) => `${p.lat.toFixed(6)},${p.lon.toFixed(6)}`).join(';') });
  try {
    const res = await fetch(loc.urls.visited, {
      method: 'POST', body, headers: { 'X-CSRF-Token': csrf(), Accept: 'application/json' },
    });
    if (!res.ok) return;
    const json = await res.json();
    loc.visited = new Set((json.visited ?? []).map(String));
    notify('visited');
  } catch { /* offline: the next report carries the same stretch again */
    loc.trace = [...points, ...loc.trace];
  }
}

/* ---------------------------------------------------------------- Leaflet */

let leaflet = null; // Promise of window.L

function loadLeaflet(js, css) {
  if (window.L?.map) return Promise.resolve(window.L);
  if (!leaflet) {
    const styles = new Promise((resolve) => {
      const have = document.querySelector('link[data-leaflet]');
      if (have) return resolve();
      const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: css });
      link.dataset.leaflet = '';
      link.onload = link.onerror = () => resolve();
      document.head.append(link);
    });
    const script = new Promise((resolve, reject) => {
      const s = Object.assign(document.createElement('script'), { src: js, async: true });
      s.onload = () => (window.L?.map ? resolve(window.L) : reject(new Error('Leaflet did not define L')));
      s.onerror = () => reject(new Error('Leaflet could not be loaded'));
      document.head.append(s);
    });
    leaflet = Promise.all([styles, script]).then(([, L]) => L).catch((err) => { leaflet = null; throw err; });
  }
  return leaflet;
}

const OSM_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer">OpenStreetMap</a> contributors';

/**
 * The map's tiles. OpenStreetMap refuses a tile that comes with no Referer, and Pocket's pages send
 * none to other hosts (Referrer-Policy: same-origin), so the tiles alone carry the page's origin
 * (never its path or query). CORS lets the service worker read the host's cache headers and
 * refusals. Leaflet 1.6 (Debian's) has no referrerPolicy option, so the layer makes its own <img>,
 * with the policy set before its address. A tile that cannot be had shows `placeholder`.
 */
function tileLayer(L, template, placeholder) {
  const Layer = L.TileLayer.extend({
    createTile(coords, done) {
      const tile = document.createElement('img');
      L.DomEvent.on(tile, 'load', L.Util.bind(this._tileOnLoad, this, done, tile));
      L.DomEvent.on(tile, 'error', L.Util.bind(this._tileOnError, this, done, tile));
      tile.crossOrigin = 'anonymous';
      tile.referrerPolicy = 'strict-origin-when-cross-origin';
      tile.alt = '';
      tile.setAttribute('role', 'presentation');
      tile.src = this.getTileUrl(coords);
      return tile;
    },
  });
  return new Layer(template, { maxZoom: 19, attribution: OSM_ATTRIBUTION, errorTileUrl: placeholder });
}

function popupFor(cell) {
  const a = document.createElement('a');
  a.className = 'murals-popup';
  a.href = cell.dataset.href;
  for (const [cls, text] of [['murals-popup__title', cell.dataset.title], ['murals-popup__artist', cell.dataset.artist], ['murals-popup__more', 'Details ›']]) {
    const span = document.createElement('span');
    span.className = cls;
    span.textContent = text; // outside text: never as HTML
    a.append(span);
  }
  return a;
}

function pinClass(cell) {
  return ['murals-pin', cell.classList.contains('is-favourite') && 'is-favourite', cell.classList.contains('is-visited') && 'is-visited']
    .filter(Boolean).join(' ');
}

/* ---------------------------------------------------------------- main screen */

function initMain(root) {
  const screen = root.closest('[data-screen]') ?? document;
  const pane = root.querySelector('#murals-list-pane');
  const list = root.querySelector('#murals-list');
  const mapEl = root.querySelector('#murals-map');
  const note = root.querySelector('#murals-location-note');
  const caption = root.querySelector('#murals-distance-caption');
  const chip = root.querySelector('#murals-trail-summary');
  const trailButton = screen.querySelector('#murals-trail-button');
  const locate = screen.querySelector('#murals-locate');
  const [startLat, startLon] = (root.dataset.start ?? '').split(',').map(Number);
  const start = { lat: startLat, lon: startLon };
  loc.urls.walk = root.dataset.walk;
  loc.urls.visited = root.dataset.visited;
  if (!loc.position && root.dataset.at) {
    const [lat, lon] = root.dataset.at.split(',').map(Number);
    if (Number.isFinite(lat) && Number.isFinite(lon)) loc.position = { lat, lon };
  }

  let map = null, L = null, user = null, halo = null, trail = null, follow = true, gone = false;
  const markers = new Map();
  const cells = () => [...list.children];

  // Whatever changes inside the list pane, the cell at its top stays where the visitor sees it,
  // once they have scrolled into the list; above that, the pane simply grows or shrinks.
  const steady = (change) => {
    const paneTop = pane.getBoundingClientRect().top;
    let anchor = null, offset = 0;
    if (list.getBoundingClientRect().top < paneTop) {
      anchor = cells().find((li) => li.getBoundingClientRect().bottom > paneTop + 1) ?? null;
      if (anchor) offset = anchor.getBoundingClientRect().top - paneTop;
    }
    change();
    if (anchor?.isConnected) pane.scrollTop += anchor.getBoundingClientRect().top - paneTop - offset;
  };

  const showNote = () => {
    if (note.textContent === loc.note && note.hidden === !loc.note) return;
    steady(() => {
      note.textContent = loc.note;
      note.hidden = !loc.note;
    });
  };

  // Re-order by distance without moving what the visitor is reading: when they have scrolled into
  // the list, the cell at the top of the pane stays exactly where it was.
  const reorder = () => {
    const here = loc.position;
    if (!here) return;
    const items = cells();
    for (const li of items) {
      li.metres = distance(here, { lat: Number(li.dataset.lat), lon: Number(li.dataset.lon) });
      li.dataset.metres = String(Math.round(li.metres));
      const d = li.querySelector('[data-distance]');
      const text = distanceText(li.metres);
      if (d && d.textContent !== text) d.textContent = text;
    }
    const sorted = [...items].sort((a, b) => a.metres - b.metres || a.dataset.title.localeCompare(b.dataset.title));
    if (sorted.every((li, i) => li === items[i])) return;
    const focused = list.contains(document.activeElement) ? document.activeElement : null;
    steady(() => list.append(...sorted));
    focused?.focus({ preventScroll: true });
  };

  const placeUser = (first) => {
    if (!map || !loc.position) return;
    const at = [loc.position.lat, loc.position.lon];
    if (!user) {
      halo = L.circle(at, { radius: 20, className: 'murals-user-halo', interactive: false }).addTo(map);
      user = L.circleMarker(at, { radius: 8, className: 'murals-user', interactive: false }).addTo(map);
    } else {
      user.setLatLng(at);
      halo.setLatLng(at);
    }
    if (first) map.setView(at, STREET_ZOOM, { animate: false });
    else if (follow && !map.getBounds().pad(-0.2).contains(at)) map.panTo(at, { animate: !reduceMotion.matches });
  };

  const markVisited = () => {
    if (!loc.visited) return;
    for (const li of cells()) {
      const on = loc.visited.has(li.dataset.id);
      li.classList.toggle('is-visited', on);
      markers.get(li.dataset.id)?.getElement()?.classList.toggle('is-visited', on);
    }
  };

  let placed = false;
  const onChange = (kind) => {
    if (gone) return;
    if (kind === 'note') return showNote();
    if (kind === 'visited') return markVisited();
    const words = loc.mode === 'fixed' || loc.mode === 'walk' ? 'Distances from the simulated location' : 'Distances from you';
    if (caption.textContent !== words) steady(() => { caption.textContent = words; });
    reorder();
    placeUser(!placed && !!map);
    if (map) placed = true;
  };
  loc.listeners.add(onChange);
  showNote();
  if (loc.position && (loc.mode !== 'none' || root.dataset.at)) onChange('position');

  const buildMap = (lib) => {
    if (gone) return;
    L = lib;
    const [lat, lon] = (mapEl.dataset.centre ?? '').split(',').map(Number);
    const centre = loc.position ? [loc.position.lat, loc.position.lon] : [lat, lon];
    const animate = !reduceMotion.matches;
    map = L.map(mapEl, { zoomAnimation: animate, fadeAnimation: animate, markerZoomAnimation: animate }).setView(centre, STREET_ZOOM);
    tileLayer(L, mapEl.dataset.tiles, mapEl.dataset.tilePlaceholder).addTo(map);
    for (const li of cells()) {
      const marker = L.marker([Number(li.dataset.lat), Number(li.dataset.lon)], {
        icon: L.divIcon({ className: pinClass(li), iconSize: [44, 44], iconAnchor: [22, 37], popupAnchor: [0, -30] }), // a 44 pt target round the drawn pin
        title: li.dataset.title, alt: li.dataset.title, riseOnHover: true,
      }).addTo(map);
      marker.bindPopup(() => popupFor(li));
      marker.getElement()?.setAttribute('data-id', li.dataset.id);
      markers.set(li.dataset.id, marker);
    }
    map.on('dragstart', () => { follow = false; });
    placed = false;
    if (loc.position) { placeUser(true); placed = true; }
    markVisited();
  };
  if (mapEl.dataset.leafletJs) {
    loadLeaflet(mapEl.dataset.leafletJs, mapEl.dataset.leafletCss).then(buildMap).catch(() => {
      if (gone) return;
      const p = Object.assign(document.createElement('p'), { className: 'murals-map__note', id: 'murals-map-failed' });
      p.textContent = 'The map could not be loaded; the list below still works.';
      mapEl.replaceChildren(p);
    });
  }

  // The service worker tells of a tile the host refused (its usage policy, or too many requests):
  // said once, with what the owner can do (the words are the page's).
  const refusedNote = root.querySelector('#murals-map-refused');
  const onWorkerMessage = (event) => {
    if (event.data?.type !== 'pocket-tiles-refused' || !refusedNote?.hidden) return;
    const status = refusedNote.querySelector('[data-status]');
    if (status) status.textContent = String(Number(event.data.status) || '');
    refusedNote.hidden = false;
  };
  navigator.serviceWorker?.addEventListener('message', onWorkerMessage);

  const hideTrail = () => {
    trail?.remove();
    trail = null;
    chip.hidden = true;
    chip.textContent = '';
    trailButton?.setAttribute('aria-pressed', 'false');
    trailButton?.classList.remove('is-active');
  };
  const showTrail = async () => {
    const url = new URL(root.dataset.trail, location.href);
    url.searchParams.set('show', root.dataset.show || 'all');
    if (loc.position) url.searchParams.set('at', `${loc.position.lat.toFixed(6)},${loc.position.lon.toFixed(6)}`);
    let json;
    try {
      const res = await fetch(url, { headers: { Accept: 'application/json' } });
      if (!res.ok) throw new Error(String(res.status));
      json = await res.json();
    } catch {
      chip.textContent = 'The trail could not be planned right now.';
      chip.hidden = false;
      return;
    }
    if (gone || !map) return;
    hideTrail();
    chip.textContent = json.summary;
    chip.hidden = false;
    trailButton?.setAttribute('aria-pressed', 'true');
    trailButton?.classList.add('is-active');
    if (json.path.length > 1) {
      trail = L.polyline(json.path, { className: 'murals-trail-line', interactive: false }).addTo(map);
      follow = false;
      map.fitBounds(trail.getBounds(), { padding: [24, 24], animate: !reduceMotion.matches });
    }
  };

  const onClick = (e) => {
    const sim = e.target.closest?.('[data-simulate]');
    if (sim) {
      follow = true;
      if (sim.dataset.simulate === 'fixed') simulateFixed(start);
      else if (sim.dataset.simulate === 'walk') simulateWalk(Number(sim.dataset.speed) || 1);
      else { stop(); setNote(''); }
      return;
    }
    if (locate && e.target.closest?.('#murals-locate')) {
      follow = true;
      useGPS();
      if (map && loc.position) map.setView([loc.position.lat, loc.position.lon], STREET_ZOOM);
      return;
    }
    // With a map the trail is drawn on it; without one the link leads to the trail's own page.
    if (trailButton && map && e.target.closest?.('#murals-trail-button')) {
      e.preventDefault();
      if (trail || !chip.hidden) hideTrail();
      else showTrail();
    }
  };
  screen.addEventListener('click', onClick);

  // Offline copies are kept under the screens' plain addresses; the cookie carries the position.
  if (document.cookie.includes(`murals_at=`)) {
    root.querySelector('.murals-filter input[name="at"]')?.remove();
    if (trailButton) {
      const href = new URL(trailButton.href);
      href.searchParams.delete('at');
      trailButton.href = href.pathname + href.search;
    }
  }
  const stopKeep = initKeep(root);
  const stopStars = initStars(root, (form, on) => {
    const cell = form.closest('.murals-cell');
    if (!cell) return;
    cell.classList.toggle('is-favourite', on);
    markers.get(cell.dataset.id)?.getElement()?.classList.toggle('is-favourite', on);
    if (!on && root.dataset.show === 'favourites') {
      markers.get(cell.dataset.id)?.remove();
      markers.delete(cell.dataset.id);
      cell.remove();
      const n = cells().length;
      root.querySelector('#murals-count').textContent = n === 1 ? '1 mural' : `${n} murals`;
    }
  }, { reread: root.dataset.show === 'favourites' });

  // Someone who allowed location before gets it straight away, centred at street zoom.
  if (loc.mode === 'none') {
    restore();
    if (loc.mode === 'none') {
      if (!window.isSecureContext || !navigator.geolocation) {
        setNote('Your location needs a secure connection (HTTPS, or Pocket on this device). Use Simulate to try New Brighton or the recorded walk.');
      } else {
        navigator.permissions?.query({ name: 'geolocation' }).then((status) => {
          if (gone || loc.mode !== 'none') return;
          if (status.state === 'granted') useGPS();
          else if (status.state === 'denied') setNote('Location access is off for this site. Allow it in the browser’s settings, or use Simulate.');
        }).catch(() => {});
      }
    }
  }

  return () => {
    gone = true;
    loc.listeners.delete(onChange);
    navigator.serviceWorker?.removeEventListener('message', onWorkerMessage);
    screen.removeEventListener('click', onClick);
    stopKeep();
    stopStars();
    map?.remove();
  };
}

/* ---------------------------------------------------------------- a mural's page */

/**
 * The directions link for the maps app of this phone, decided from its own user agent by the
 * words the server gives (a request from the service worker may carry another agent).
 */
function chooseDirections(root) {
  const link = root.querySelector('#mural-directions');
  if (!link) return;
  const apple = (link.dataset.appleAgents ?? '').split(' ').filter(Boolean).some((word) => navigator.userAgent.includes(word));
  const side = apple ? 'apple' : 'other';
  const href = link.dataset[`${side}Href`], label = link.dataset[`${side}Label`];
  if (href) link.href = href;
  const title = link.querySelector('.cell__title');
  if (label && title) title.textContent = label;
}

function initDetail(root) {
  chooseDirections(root);
  const out = root.querySelector('#mural-distance');
  const caption = root.querySelector('#mural-distance-caption');
  const here = { lat: Number(root.dataset.lat), lon: Number(root.dataset.lon) };
  const onChange = (kind) => {
    if (kind !== 'position' || !loc.position) return;
    out.textContent = distanceText(distance(loc.position, here));
    caption.textContent = loc.mode === 'fixed' || loc.mode === 'walk' ? 'from the simulated location' : 'from you';
  };
  loc.listeners.add(onChange);
  if (loc.mode !== 'none') onChange('position');
  const stopStars = initStars(root);
  return () => {
    loc.listeners.delete(onChange);
    stopStars();
  };
}

/* ---------------------------------------------------------------- entry point */

/** Called by pocket.js for each [data-module] element of a new screen; returns its cleanup. */
export function init(el) {
  if (el.id === 'murals') return initMain(el);
  if (el.id === 'mural') return initDetail(el);
  return null;
}
