/*
 * offline-text.js: what the offline bar says, without the DOM (tests/js/offline-text.test.mjs).
 */

/** "1 change", "3 changes". */
export function changes(count) {
  return `${count} ${count === 1 ? 'change' : 'changes'}`;
}

/**
 * The bar's text, or null when there is nothing to say (online, nothing waiting, a live page).
 * `saved` is when the shown page was saved (ms since epoch) if it came from the phone's copy.
 */
export function barText({ offline, waiting, saved, locale }) {
  const savedText = saved ? ` · saved ${new Date(saved).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}` : '';
  if (offline) return `Offline${waiting ? ` — ${changes(waiting)} waiting` : ''}${savedText}`;
  if (waiting) return `Sending ${changes(waiting)}…`;
  return null;
}
