/*
 * trust.js: the trust page's only script (the page runs on plain HTTP, so Pocket's own client,
 * with its service worker and outbox, is not loaded). It opens the right device's steps, then
 * checks every few seconds, and whenever the person comes back from Settings, whether this
 * device can reach Pocket over HTTPS: a fetch there succeeds only once the phone trusts Pocket's
 * certificate authority. Then it carries on to HTTPS, with the path the link's fragment held.
 */
import { continueURL, platformOf } from './lib/trust-core.js';

const RETRY_MS = 3000;
// The status line carries where to continue: the HTTPS port and the file to probe there.
const anchor = document.querySelector('[data-trust]');
if (anchor) start(anchor);

function start(anchor) {
  const target = continueURL(location, anchor.dataset.httpsPort);
  const status = document.getElementById('trust-status');
  if (!target || !status) return;
  const probe = new URL(anchor.dataset.probe || '/', target).href;

  const mine = document.getElementById(`trust-${platformOf(navigator.userAgent, navigator.maxTouchPoints)}`);
  if (mine && !mine.open) {
    for (const section of document.querySelectorAll('details[data-platform]')) section.open = section === mine;
  }

  let timer = null, checking = false, toldUntrusted = false;
  const check = async () => {
    clearTimeout(timer);
    if (checking) return;
    checking = true;
    try {
      // An opaque answer is enough: any answer means the TLS handshake, and so the trust, succeeded.
      await fetch(probe, { mode: 'no-cors', cache: 'no-store', credentials: 'omit' });
      status.textContent = 'This phone trusts Pocket. Opening it…';
      document.documentElement.dataset.trusted = 'true';
      location.replace(target);
    } catch {
      if (!toldUntrusted) {
        status.textContent = 'This phone does not trust Pocket yet. Follow the steps below, then come back to this page.';
        document.documentElement.dataset.trusted = 'false';
        toldUntrusted = true;
      }
      timer = setTimeout(check, RETRY_MS);
    } finally {
      checking = false;
    }
  };
  status.textContent = 'Checking whether this phone trusts Pocket…';
  document.addEventListener('visibilitychange', () => { if (!document.hidden) check(); });
  check();
}
