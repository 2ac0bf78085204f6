/*
 * live.js: what keeps a screen current without a reload: live updates over Server-Sent Events
 * (patch and reload events), timed refreshes, and each app's own module ([data-module]).
 */
import { $$, onScreen, teardown } from './core/dom.js';
import { initControls } from './ui/controls.js';
import { refresh } from './nav/navigation.js';

onScreen((screen) => {
  // An app's own ES module: [data-module="/static/js/<app>/app.js?v=…"] is imported (once per page,
  // the browser caches modules) and its init(element) called; what init returns runs at teardown.
  for (const el of $$(screen, '[data-module]')) {
    let cleanup = null, gone = false;
    teardown.push(() => { gone = true; if (typeof cleanup === 'function') cleanup(); });
    import(new URL(el.dataset.module, location.href).href)
      .then((m) => {
        if (gone) return;
        cleanup = m.init?.(el) ?? null;
        // Until now a tap on what the module enhances does nothing; tests wait for this mark.
        el.dataset.moduleReady = '';
      })
      .catch((err) => console.debug('Pocket: app module failed', err));
  }
  // Something the server will show differently after a while (the TV's lone first digit, which the
  // set drops after a few seconds): re-read the page then, as a live update would, without a reload.
  for (const el of $$(screen, '[data-refresh-after]')) {
    const timer = setTimeout(() => {
      refresh();
    }, Number(el.dataset.refreshAfter) || 0);
    teardown.push(() => clearTimeout(timer));
  }
  for (const el of $$(screen, '[data-sse]')) {
    const es = new EventSource(new URL(el.dataset.sse, location.href));
    es.addEventListener('patch', (e) => patch(e.data));
    // Don't let a background refresh abort a navigation the user started.
    es.addEventListener('reload', () => {
      refresh();
    });
    es.addEventListener('done', () => es.close());
    // A dropped connection the browser is retrying: the server may be gone (offline/status.js checks).
    es.addEventListener('error', () => {
      if (es.readyState !== EventSource.OPEN) document.dispatchEvent(new CustomEvent('pocket:unreachable'));
    });
    teardown.push(() => es.close());
  }
});

// SSE patch: every top-level element with an id replaces the element with that id.
function patch(html) {
  const tpl = document.createElement('template');
  tpl.innerHTML = html; // inert parse of a server-escaped fragment; nothing runs
  for (const node of [...tpl.content.children]) {
    const old = node.id && document.getElementById(node.id);
    if (!old) continue;
    const focusId = old.contains(document.activeElement) && document.activeElement.id;
    old.replaceWith(node);
    initControls(node);
    if (focusId) document.getElementById(focusId)?.focus({ preventScroll: true });
  }
}

