/*
 * outbox-core.js: the outbox, the one place its rules live, used by pages (js/outbox.js) and by
 * the service worker (js/service-worker.js), and tested by Node (Tests/JavaScript/outbox.test.mjs).
 *
 * A change is recorded on the phone first, with its own id and time and bound to the device and
 * person that made it, then sent in order as `{ id, at, device, body }` (the server's `Outbox`
 * contract). The server applies each id once, so sending twice is harmless, and a change is only
 * forgotten once the server has answered for it. A change made by someone who is no longer the
 * one signed in here is never sent in another person's session: it is set aside, and sent again
 * only if that person signs in on this browser again.
 */

/** Answers after which a change is dropped: the server understood it and it can never apply. */
export const REFUSED = Object.freeze([400, 404, 410, 413, 422]);
/** The answer after which a change is set aside: another device (another person) made it. */
export const SET_ASIDE = Object.freeze([409]);
/** Answers that mean this browser is not signed in (any more): the change waits for a sign-in. */
export const SIGNED_OUT = Object.freeze([401, 403]);
/** How long one send may take before the change waits for the next try. */
export const SEND_TIMEOUT_MS = 8000;

/**
 * What to do with a change after one attempt to send it: 'done' (applied, or a resend of one
 * already applied), 'refused' (will never apply: drop it), 'aside' (another device's: set it
 * aside), 'signedOut' (keep it until someone signs in) or 'wait' (offline, timed out, the server
 * failing: keep it and stop sending for now, to keep the order).
 */
export function outcome(status) {
  if (status >= 200 && status < 300) return 'done';
  if (REFUSED.includes(status)) return 'refused';
  if (SET_ASIDE.includes(status)) return 'aside';
  if (SIGNED_OUT.includes(status)) return 'signedOut';
  return 'wait';
}

/** The JSON a change is sent as. */
export function envelope(change) {
  return { id: change.id, at: change.at, device: change.device, body: change.body };
}

/**
 * Whose a waiting change is, seen from `owner` (the device signed in here): 'mine' (send it),
 * 'rebind' (the same person made it on this browser before signing in again: send it bound to
 * this device) or 'aside' (someone else's, or from before changes were bound and not this
 * device's: never send it here).
 */
export function belonging(change, owner) {
  if (change.device === owner.device) return 'mine';
  if (change.person != null) return String(change.person) === String(owner.person) ? 'rebind' : 'aside';
  // Made before changes were bound: the device's CSRF token it was made with says whose it is.
  return change.csrf && change.csrf === owner.csrf ? 'rebind' : 'aside';
}

/**
 * An outbox over `store` ({ add(change), all(), remove(id) }, all async; all() oldest first).
 * `owner()` says who is signed in on this page ({ device, person, name, csrf }, or null on a page
 * for strangers); without an `owner` option (the service worker) changes are sent as they are
 * bound and the server sets aside any that are not the session's. `onEvent(name, detail)` hears
 * 'unreachable', 'refused' ({ change, status, message }), 'aside' and 'signedOut'.
 */
export function createOutbox({
  store, fetch: fetchImpl = (...args) => fetch(...args), owner, now = () => Date.now(),
  newID = () => crypto.randomUUID(), onEvent = () => {}, setTimer = setTimeout, clearTimer = clearTimeout,
}) {
  const listeners = new Set();
  let sending = null;
  let settleTimer = null;
  let signedOut = false;

  /** The changes that are the signed-in person's (or, in the worker, every bound one). */
  async function waiting() {
    const me = owner?.();
    const all = (await store.all()).filter((change) => !change.aside);
    if (owner === undefined) return all.filter((change) => change.device);
    if (!me) return [];
    return all.filter((change) => belonging(change, me) !== 'aside');
  }

  async function setAside() {
    return (await store.all()).filter((change) => change.aside || (owner?.() && belonging(change, owner()) === 'aside'));
  }

  async function notify() {
    let count, needsSignIn = signedOut;
    if (owner !== undefined && !owner()) {
      // A page for strangers (the sign-in page): what waits here waits for someone to sign in.
      count = (await store.all()).filter((change) => !change.aside).length;
      needsSignIn = count > 0;
    } else {
      count = (await waiting()).length;
    }
    const aside = (await setAside()).length;
    for (const listener of listeners) listener(count, { aside, signedOut: needsSignIn });
  }

  async function send(change) {
    const response = await fetchImpl(change.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-CSRF-Token': change.csrf ?? '' },
      body: JSON.stringify(envelope(change)),
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      credentials: 'same-origin',
      // A change sent as the page is left still arrives; its answer is then read by no one, so the
      // change is sent once more next time, which the server answers as a duplicate.
      keepalive: true,
    });
    let message = null;
    if (!response.ok) message = await response.json().then((answer) => answer?.error ?? null, () => null);
    return { status: response.status, message };
  }

  /** Binds this browser's earlier changes of the signed-in person to this device; sets the rest aside. */
  async function adopt(me) {
    let setAnyAside = false;
    for (const change of await store.all()) {
      if (change.aside) continue;
      const whose = belonging(change, me);
      if (whose === 'rebind') {
        await store.add({ ...change, device: me.device, person: me.person, name: me.name, csrf: me.csrf });
      } else if (whose === 'aside') {
        await store.add({ ...change, aside: true });
        setAnyAside = true;
      }
    }
    if (setAnyAside) onEvent('aside', {});
  }

  async function sendAll() {
    if (owner !== undefined) {
      const me = owner();
      if (!me) return false;
      await adopt(me);
    }
    for (const change of await waiting()) {
      let answer;
      try {
        answer = await send(change);
      } catch {
        onEvent('unreachable', {});
        return false;
      }
      const next = outcome(answer.status);
      if (next === 'signedOut') {
        signedOut = true;
        onEvent('signedOut', {});
        await notify();
        return false;
      }
      signedOut = false;
      if (next === 'wait') return false;
      if (next === 'aside') {
        await store.add({ ...change, aside: true });
        onEvent('aside', {});
      } else {
        if (next === 'refused') onEvent('refused', { change, status: answer.status, message: answer.message });
        await store.remove(change.id);
      }
      await notify();
    }
    return true;
  }

  return {
    /**
     * Records a change for `app` to POST to `url` with `body`, bound to the signed-in device, then
     * sends. With `coalesce`, it replaces the app's other waiting changes (a whole state, where only
     * the latest matters); with `settleMs`, sending waits until no change came for that long.
     */
    async enqueue(app, url, body, { coalesce = false, settleMs = 0 } = {}) {
      const me = owner?.();
      if (!me) throw new Error('Pocket: not signed in, so a change cannot be kept');
      const change = {
        id: newID(), app, url, body, at: now(), device: me.device, person: me.person, name: me.name, csrf: me.csrf,
      };
      if (coalesce) {
        for (const old of await waiting()) if (old.app === app && old.device === me.device) await store.remove(old.id);
      }
      await store.add(change);
      await notify();
      clearTimer(settleTimer);
      if (settleMs > 0) settleTimer = setTimer(() => this.flush(), settleMs);
      else this.flush();
      return change;
    },

    /** Sends the waiting changes in order; true when none is left. One flush runs at a time. */
    flush() {
      clearTimer(settleTimer);
      sending ??= sendAll().finally(() => { sending = null; });
      return sending;
    },

    /** The signed-in person's waiting changes, oldest first; only `app`'s when given. */
    async pending(app) {
      const all = await waiting();
      return app ? all.filter((change) => change.app === app) : all;
    },

    /** Changes set aside: made here by someone who is not signed in here now. */
    setAside,

    /** Forgets the changes set aside. */
    async discardSetAside() {
      for (const change of await setAside()) await store.remove(change.id);
      await notify();
    },

    /**
     * Calls `listener(count, { aside, signedOut })` whenever that may have changed (on a page for
     * strangers, `count` is what waits for a sign-in); returns an unsubscribe.
     */
    onChange(listener) {
      listeners.add(listener);
      notify();
      return () => listeners.delete(listener);
    },

    /** Tells the listeners again (after the signed-in person changed). */
    notify,
  };
}
