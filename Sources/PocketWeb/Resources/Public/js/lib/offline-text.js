/*
 * offline-text.js: what the offline bar says, without the DOM (Tests/JavaScript/offline-text.test.mjs).
 */

/** "1 change", "3 changes". */
export function changes(count) {
  return `${count} ${count === 1 ? 'change' : 'changes'}`;
}

/**
 * The bar's text, or null when there is nothing to say (online, nothing waiting, a live page).
 * `saved` is when the shown page was saved (ms since epoch) if it came from the phone's copy;
 * `signedOut` that the server no longer knows this browser, so waiting changes need a sign-in;
 * `aside` how many changes made here by someone no longer signed in were set aside.
 */
export function barText({ offline, waiting, saved, locale, signedOut = false, aside = 0 }) {
  const savedText = saved ? ` · saved ${new Date(saved).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' })}` : '';
  const asideText = aside ? `${offline || waiting ? ' · ' : ''}${changes(aside)} by someone else set aside` : '';
  if (offline) return `Offline${waiting ? ` — ${changes(waiting)} waiting` : ''}${savedText}${asideText}`;
  if (signedOut && waiting) return `Signed out — sign in again to send ${changes(waiting)}${asideText}`;
  if (waiting) return `Sending ${changes(waiting)}…${asideText}`;
  if (aside) return `${changes(aside)} made here by someone who is not signed in now: set aside, not sent`;
  return null;
}

/** What the bar says for a moment after the server refused a change for good. */
export function refusedText(message) {
  return `Pocket could not apply a change, so it was dropped: ${message ?? 'the server refused it.'}`;
}
