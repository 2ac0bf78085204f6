/*
 * outbox-core.js: the outbox's rules, without IndexedDB or fetch, so Node can test them
 * (tests/js/outbox.test.mjs). A change is recorded on the phone first, with its own id and time,
 * and sent later, in order; the server applies each id once, so sending twice is harmless and a
 * change is only forgotten once the server has answered for it.
 */

/** Answers after which a change is dropped: the server understood it and refused it for good. */
const REFUSED = new Set([400, 404, 409, 410, 413, 422]);

/**
 * What to do with a change after one attempt to send it: 'done' (applied, or a resend of one
 * already applied), 'refused' (will never apply: drop it), or 'wait' (offline, timed out, the server
 * failing, or the person signed out: keep it and stop sending for now, to keep the order).
 */
export function outcome(status) {
  if (status >= 200 && status < 300) return 'done';
  if (REFUSED.has(status)) return 'refused';
  return 'wait';
}

/**
 * An outbox over `store` ({ add(change), all(), remove(id) }, all async; all() oldest first) that
 * sends with `send(change)` (async; resolves to an HTTP status, rejects when the network fails).
 */
export function createOutbox({ store, send, now = () => Date.now(), newID = () => crypto.randomUUID() }) {
  const listeners = new Set();
  let sending = null;

  async function notify() {
    const count = (await store.all()).length;
    for (const listener of listeners) listener(count);
  }

  async function sendAll() {
    for (const change of await store.all()) {
      let status;
      try { status = await send(change); } catch { return false; }
      const next = outcome(status);
      if (next === 'wait') return false;
      if (next === 'refused') console.debug('Pocket: the server refused a waiting change', change, status);
      await store.remove(change.id);
      await notify();
    }
    return true;
  }

  return {
    /** Records a change for `app` to POST to `url` with `body`, then tries to send everything. */
    async enqueue(app, url, body, extra = {}) {
      const change = { id: newID(), app, url, body, at: now(), ...extra };
      await store.add(change);
      await notify();
      this.flush();
      return change;
    },

    /** Sends the waiting changes in order; true when none is left. One flush runs at a time. */
    flush() {
      sending ??= sendAll().finally(() => { sending = null; });
      return sending;
    },

    /** The waiting changes, oldest first; only `app`'s when given. */
    async pending(app) {
      const all = await store.all();
      return app ? all.filter((change) => change.app === app) : all;
    },

    /** Calls `listener(count)` whenever the number of waiting changes changes; returns an unsubscribe. */
    onChange(listener) {
      listeners.add(listener);
      notify();
      return () => listeners.delete(listener);
    },
  };
}
