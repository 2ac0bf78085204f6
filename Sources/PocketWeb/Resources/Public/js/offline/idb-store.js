/*
 * idb-store.js: the outbox's storage in IndexedDB (database "pocket", object store "outbox",
 * keyed by change id, ordered by time), so waiting changes survive a closed browser. The one
 * definition of that schema: pages and the service worker both import it.
 */

const DB = 'pocket';
const STORE = 'outbox';
let opening = null;

function open() {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => {
      const store = request.result.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex('at', 'at');
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => { opening = null; reject(request.error); };
  });
  return opening;
}

function run(mode, work) {
  return open().then((db) => new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const result = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(result.result);
    tx.onerror = tx.onabort = () => reject(tx.error);
  }));
}

/** The outbox's store: add (or replace, by id), all (oldest first), remove. */
export const idbStore = {
  add: (change) => run('readwrite', (store) => store.put(change)),
  all: () => run('readonly', (store) => store.index('at').getAll()),
  remove: (id) => run('readwrite', (store) => store.delete(id)),
};
