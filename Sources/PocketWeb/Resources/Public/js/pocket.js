/*
 * pocket.js: Pocket's client, the one script every page loads. It only imports the modules, each
 * with one concern, and starts them:
 *   core/dom.js         the current screen, DOM helpers, per-screen setup/teardown, announcements
 *   nav/navigation.js   screen swaps for links, history, scroll and focus
 *   nav/forms.js        form posts as swaps, autosubmit queues, live search, positions
 *   ui/controls.js      keypads, copy, sounds, steppers, sliders, wheels, popovers, bars
 *   ui/dialogs.js       invoker commands, focus return, light dismiss
 *   live.js             Server-Sent Events, timed refreshes, apps' own modules
 *   offline/status.js   the offline bar and the changes waiting to be sent
 *   offline/signout.js  asks before signing out while changes made here wait
 *
 * Every page works without any of it: links navigate, forms post, dialogs open through invoker
 * commands. The modules only make that smoother, and whenever something fails they fall back to
 * what the browser would have done anyway, so a bug can cost polish but never function.
 * Everything is delegated on `document` so it survives screen swaps.
 */
import { initScreen, liveRegion, root, route, screenEl } from './core/dom.js';
import { navigate } from './nav/navigation.js';
import './nav/forms.js';
import { playSound } from './ui/controls.js';
import './ui/dialogs.js';
import './live.js';
import './offline/status.js';
import './offline/signout.js';

export { navigate, playSound };

root.classList.add('js');
liveRegion(); // must exist before the first announcement to be reliably read out
if (screenEl()) initScreen(screenEl());

const serviceWorker = route('serviceWorker');
if (serviceWorker && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register(serviceWorker, { scope: '/', type: 'module' })
    .catch((err) => console.debug('Pocket: service worker registration failed', err));
}

window.Pocket = { navigate, playSound };
