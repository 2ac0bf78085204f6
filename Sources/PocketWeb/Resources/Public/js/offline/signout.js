/*
 * signout.js: signing this device out clears what the browser keeps of Pocket (the server sends
 * Clear-Site-Data), waiting changes included. So while changes made here have not reached Pocket,
 * a sign-out form (form[data-signout]) first asks, in the page's own alert (#signout-pending):
 * send them first, sign out and lose them, or cancel.
 */
import { flush, pending } from '../outbox.js';
import { changes } from '../lib/offline-text.js';

let confirmed = null; // the form the person chose to sign out with anyway

document.addEventListener('submit', async (event) => {
  const form = event.target.closest?.('form[data-signout]');
  const dialog = document.getElementById('signout-pending');
  if (!form || !dialog || confirmed === form) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  const waiting = (await pending()).length;
  if (!waiting) { submit(form); return; }
  dialog.querySelector('[data-count]').textContent = changes(waiting);
  dialog.querySelector('#signout-pending-status').textContent = '';
  dialog.querySelector('[data-signout-send]').onclick = async () => {
    const status = dialog.querySelector('#signout-pending-status');
    status.textContent = 'Sending…';
    if (await flush()) { dialog.close(); submit(form); return; }
    const left = (await pending()).length;
    status.textContent = `Pocket could not be reached: ${changes(left)} still ${left === 1 ? 'waits' : 'wait'}.`;
  };
  dialog.querySelector('[data-signout-anyway]').onclick = () => { dialog.close(); submit(form); };
  dialog.showModal();
}, true);

/** Sends the sign-out form as it is, this time without asking. */
function submit(form) {
  confirmed = form;
  form.requestSubmit();
  confirmed = null;
}
