// The outbox's rules (js/lib/outbox-core.js) over an in-memory store and a scripted server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOutbox, outcome } from '../../Sources/PocketWeb/Resources/Public/js/lib/outbox-core.js';

function memoryStore() {
  const rows = new Map();
  return {
    rows,
    add: async (change) => { rows.set(change.id, change); },
    all: async () => [...rows.values()].sort((a, b) => a.at - b.at),
    remove: async (id) => { rows.delete(id); },
  };
}

function harness(answers) {
  const store = memoryStore();
  const sent = [];
  let clock = 1000, next = 0;
  const outbox = createOutbox({
    store,
    now: () => clock++,
    newID: () => `id-${++next}`,
    send: async (change) => {
      sent.push(change.id);
      const answer = answers.shift() ?? 200;
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      return answer;
    },
  });
  return { store, sent, outbox };
}

test('answers: applied, refused for good, or wait', () => {
  for (const status of [200, 201, 204]) assert.equal(outcome(status), 'done');
  for (const status of [400, 404, 409, 422]) assert.equal(outcome(status), 'refused');
  for (const status of [401, 403, 408, 429, 500, 502, 503]) assert.equal(outcome(status), 'wait');
});

test('a change gets its own id and time, and is sent at once', async () => {
  const { store, sent, outbox } = harness([200]);
  const change = await outbox.enqueue('plates', '/plates/changes', { kind: 'spot', state: 'AL' });
  assert.deepEqual([change.id, change.app, change.url, change.at], ['id-1', 'plates', '/plates/changes', 1000]);
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent, ['id-1']);
  assert.equal(store.rows.size, 0);
});

test('offline, changes wait in order and are all sent once the server answers', async () => {
  const { store, sent, outbox } = harness(['offline', 'offline', 'offline', 200, 200, 200]);
  await outbox.enqueue('plates', '/p', { state: 'AL' });
  await outbox.flush();
  await outbox.enqueue('plates', '/p', { state: 'AK' });
  await outbox.flush();
  await outbox.enqueue('murals', '/m', { mural: 3 });
  await outbox.flush();
  assert.deepEqual((await outbox.pending()).map((c) => c.id), ['id-1', 'id-2', 'id-3']);
  assert.deepEqual((await outbox.pending('plates')).map((c) => c.id), ['id-1', 'id-2']);
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent, ['id-1', 'id-1', 'id-1', 'id-1', 'id-2', 'id-3']);
  assert.equal(store.rows.size, 0);
});

test('a server error stops the flush there, so later changes never overtake earlier ones', async () => {
  const { sent, outbox } = harness(['offline', 200, 503, 200, 200]);
  await outbox.enqueue('plates', '/p', { n: 1 });
  await outbox.flush();
  await outbox.enqueue('plates', '/p', { n: 2 });
  await outbox.flush(); // sends 1 (200), then 2 gets 503 and waits
  assert.deepEqual((await outbox.pending()).map((c) => c.id), ['id-2']);
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(sent, ['id-1', 'id-1', 'id-2', 'id-2']);
});

test('a change the server refuses for good is dropped instead of blocking the rest', async () => {
  const { outbox } = harness(['offline', 422, 200]);
  await outbox.enqueue('plates', '/p', { bad: true });
  await outbox.flush();
  await outbox.enqueue('plates', '/p', { good: true });
  assert.equal(await outbox.flush(), true);
  assert.deepEqual(await outbox.pending(), []);
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
  assert.deepEqual(sent, ['id-1', 'id-1']);
});
