// The outbox's rules (js/lib/outbox-core.js) over an in-memory store and a scripted server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { belonging, createOutbox, envelope, outcome } from '../../Sources/PocketWeb/Resources/Public/js/lib/outbox-core.js';

function memoryStore(initial = []) {
  const rows = new Map(initial.map((change) => [change.id, change]));
  return {
    rows,
    add: async (change) => { rows.set(change.id, change); },
    all: async () => [...rows.values()].sort((a, b) => a.at - b.at),
    remove: async (id) => { rows.delete(id); },
  };
}

const ann = { device: 'ann-phone', person: '1', name: 'ann', csrf: 'ann-token' };
const bea = { device: 'bea-phone', person: '2', name: 'bea', csrf: 'bea-token' };

/** An outbox whose server answers with `answers` in turn ('offline' for no answer, else a status). */
function harness(answers, { who = ann, store = memoryStore(), worker = false } = {}) {
  const sent = [];
  const events = [];
  let clock = 1000, next = 0;
  let me = who;
  const timers = [];
  const outbox = createOutbox({
    store,
    ...(worker ? {} : { owner: () => me }),
    now: () => clock++,
    newID: () => `id-${++next}`,
    onEvent: (name, detail) => events.push([name, detail]),
    setTimer: (fn) => { timers.push(fn); return timers.length; },
    clearTimer: () => {},
    fetch: async (url, init) => {
      sent.push({ url, headers: init.headers, body: JSON.parse(init.body) });
      const answer = answers.shift() ?? 200;
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      return { status: answer, ok: answer < 300, json: async () => ({ error: `refused with ${answer}` }) };
    },
  });
  return { store, sent, events, outbox, timers, signIn: (who) => { me = who; } };
}

test('answers: applied, refused for good, set aside, signed out, or wait', () => {
  for (const status of [200, 201, 204]) assert.equal(outcome(status), 'done');
  for (const status of [400, 404, 410, 413, 422]) assert.equal(outcome(status), 'refused');
  assert.equal(outcome(409), 'aside');
  for (const status of [401, 403]) assert.equal(outcome(status), 'signedOut');
  for (const status of [408, 429, 500, 502, 503]) assert.equal(outcome(status), 'wait');
});

test('a change is sent as the contract says: {id, at, device, body}, with its own device token', async () => {
  const { store, sent, outbox } = harness([200]);
  const change = await outbox.enqueue('plates', '/plates/changes', { kind: 'spot', state: 'AL' });
  assert.deepEqual([change.id, change.app, change.url, change.at, change.device, change.person], ['id-1', 'plates', '/plates/changes', 1000, 'ann-phone', '1']);
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent[0].body, { id: 'id-1', at: 1000, device: 'ann-phone', body: { kind: 'spot', state: 'AL' } });
  assert.deepEqual(sent[0].body, envelope(change));
  assert.equal(sent[0].headers['X-CSRF-Token'], 'ann-token');
  assert.equal(store.rows.size, 0);
});

test('offline, changes wait in order and are all sent once the server answers', async () => {
  const { store, sent, outbox, events } = harness(['offline', 'offline', 'offline', 200, 200, 200]);
  await outbox.enqueue('plates', '/p', { state: 'AL' });
  await outbox.flush();
  await outbox.enqueue('plates', '/p', { state: 'AK' });
  await outbox.flush();
  await outbox.enqueue('murals', '/m', { mural: 3 });
  await outbox.flush();
  assert.deepEqual((await outbox.pending()).map((c) => c.id), ['id-1', 'id-2', 'id-3']);
  assert.deepEqual((await outbox.pending('plates')).map((c) => c.id), ['id-1', 'id-2']);
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent.map((s) => s.body.id), ['id-1', 'id-1', 'id-1', 'id-1', 'id-2', 'id-3']);
  assert.equal(store.rows.size, 0);
  assert.ok(events.some(([name]) => name === 'unreachable'));
});

test('a server error stops the flush there, so later changes never overtake earlier ones', async () => {
  const { sent, outbox } = harness(['offline', 200, 503, 200, 200]);
  await outbox.enqueue('plates', '/p', { n: 1 });
  await outbox.flush();
  await outbox.enqueue('plates', '/p', { n: 2 });
  await outbox.flush(); // sends 1 (200), then 2 gets 503 and waits
  assert.deepEqual((await outbox.pending()).map((c) => c.id), ['id-2']);
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent.map((s) => s.body.id), ['id-1', 'id-1', 'id-2', 'id-2']);
});

test('a change refused for good is dropped, and the person hears why', async () => {
  const { outbox, events } = harness(['offline', 422, 200]);
  await outbox.enqueue('plates', '/p', { bad: true });
  await outbox.flush();
  await outbox.enqueue('plates', '/p', { good: true });
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(await outbox.pending(), []);
  const refused = events.find(([name]) => name === 'refused');
  assert.equal(refused[1].status, 422);
  assert.equal(refused[1].message, 'refused with 422');
});

test('signed out (401 or 403), changes wait and say they need a sign-in', async () => {
  const { outbox, events } = harness([401, 200]);
  const heard = [];
  outbox.onChange((count, info) => heard.push([count, info.signedOut]));
  await outbox.enqueue('plates', '/p', {});
  assert.equal(await outbox.flush(), false);
  assert.equal((await outbox.pending()).length, 1);
  assert.ok(events.some(([name]) => name === 'signedOut'));
  assert.deepEqual(heard.at(-1), [1, true]);
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(heard.at(-1), [0, false]);
});

test("someone else signing in on this browser never sends the first person's changes (D3)", async () => {
  const { outbox, sent, signIn, events } = harness(['offline', 200]);
  await outbox.enqueue('plates', '/plates/changes', { kind: 'spot', state: 'UT' });
  await outbox.flush(); // ann is offline: the spot waits
  signIn(bea);
  assert.deepEqual(await outbox.pending(), [], "bea's pages do not show ann's spot");
  assert.equal(await outbox.flush(), true);
  assert.equal(sent.length, 1, 'only the offline attempt was ever sent');
  assert.equal((await outbox.setAside()).length, 1);
  assert.ok(events.some(([name]) => name === 'aside'));
  // ann signs in again on this browser (a new device): her change is hers again and goes out.
  signIn({ ...ann, device: 'ann-phone-2', csrf: 'ann-token-2' });
  assert.equal((await outbox.setAside()).length, 1, 'set aside stays set aside until sent by its person');
  await outbox.discardSetAside();
  assert.equal((await outbox.setAside()).length, 0);
});

test('the same person signing in again (a new device) sends their waiting changes bound to it', async () => {
  const { outbox, sent, signIn } = harness(['offline', 200]);
  await outbox.enqueue('plates', '/p', { kind: 'reset' });
  await outbox.flush();
  signIn({ ...ann, device: 'ann-phone-2', csrf: 'ann-token-2' });
  assert.equal(await outbox.flush(), true);
  assert.equal(sent[1].body.device, 'ann-phone-2');
  assert.equal(sent[1].headers['X-CSRF-Token'], 'ann-token-2');
});

test('a change the server sets aside (409) is kept aside, not dropped, and the rest go on', async () => {
  const { outbox, sent } = harness(['offline', 409, 200]);
  await outbox.enqueue('plates', '/p', { n: 1 });
  await outbox.flush();
  await outbox.enqueue('plates', '/p', { n: 2 });
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent.map((s) => s.body.id), ['id-1', 'id-1', 'id-2']);
  assert.deepEqual((await outbox.setAside()).map((c) => c.id), ['id-1']);
});

test('changes from before changes were bound belong to the device whose token made them', async () => {
  const store = memoryStore([
    { id: 'old-1', app: 'plates', url: '/p', body: {}, at: 1, csrf: 'ann-token' },
    { id: 'old-2', app: 'plates', url: '/p', body: {}, at: 2, csrf: 'someone-else' },
  ]);
  assert.equal(belonging(store.rows.get('old-1'), ann), 'rebind');
  assert.equal(belonging(store.rows.get('old-2'), ann), 'aside');
  const { outbox, sent } = harness([200], { store });
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent.map((s) => [s.body.id, s.body.device]), [['old-1', 'ann-phone']]);
  assert.deepEqual((await outbox.setAside()).map((c) => c.id), ['old-2']);
});

test('a page for strangers keeps changes and sends none', async () => {
  const store = memoryStore([{ id: 'w', app: 'plates', url: '/p', body: {}, at: 1, device: 'ann-phone', person: '1', csrf: 'ann-token' }]);
  const { outbox, sent } = harness([200], { store, who: null });
  assert.equal(await outbox.flush(), false);
  assert.equal(sent.length, 0);
  await assert.rejects(outbox.enqueue('plates', '/p', {}), /not signed in/);
});

test('the service worker sends each change as it was bound and leaves unbound ones to a page', async () => {
  const store = memoryStore([
    { id: 'a', app: 'plates', url: '/p', body: {}, at: 1, device: 'ann-phone', person: '1', csrf: 'ann-token' },
    { id: 'b', app: 'plates', url: '/p', body: {}, at: 2, csrf: 'legacy' },
  ]);
  const { outbox, sent } = harness([200], { store, worker: true });
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent.map((s) => [s.body.id, s.headers['X-CSRF-Token']]), [['a', 'ann-token']]);
  assert.deepEqual([...store.rows.keys()], ['b']);
});

test('a coalescing app keeps one waiting change, sent once the keys rest', async () => {
  const { outbox, sent, timers } = harness(['offline', 200]);
  for (let key = 0; key < 23; key += 1) await outbox.enqueue('converter', '/converter/state', { state: { input: String(key) } }, { coalesce: true, settleMs: 1500 });
  assert.equal(sent.length, 0, 'nothing is sent while the keys are being pressed');
  const waiting = await outbox.pending('converter');
  assert.equal(waiting.length, 1);
  assert.equal(waiting[0].body.state.input, '22');
  await timers.at(-1)(); // the keys rested
  await outbox.flush();
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent.map((s) => s.body.body.state.input), ['22', '22']);
});

test('listeners hear the number waiting', async () => {
  const { outbox } = harness(['offline', 200]);
  const heard = [];
  outbox.onChange((count) => heard.push(count));
  await outbox.enqueue('plates', '/p', {});
  await outbox.flush();
  await outbox.flush();
  assert.equal(heard.at(-1), 0);
  assert.ok(heard.includes(1));
});

test('only one flush runs at a time, so a change is never sent twice at once', async () => {
  const { sent, outbox } = harness(['offline']);
  await outbox.enqueue('plates', '/p', {});
  await outbox.flush();
  const [a, b] = [outbox.flush(), outbox.flush()];
  assert.equal(a, b);
  await a;
  assert.equal(sent.length, 2);
});
