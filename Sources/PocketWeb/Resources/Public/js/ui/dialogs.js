/*
 * dialogs.js: native <dialog>s opened by invoker commands (with a polyfill where the browser has
 * none), focus back on the control that opened one, and light dismiss for action sheets.
 */
import { $$, onScreen } from '../core/dom.js';

/** dialog -> the control that opened it (focus goes back there; forms in it act for that item). */
export const invokers = new WeakMap();

const nativeCommands = 'command' in HTMLButtonElement.prototype;

document.addEventListener('click', (e) => {
  const btn = e.target.closest?.('button[commandfor]');
  const target = btn && !btn.disabled && document.getElementById(btn.getAttribute('commandfor'));
  if (!target) return;
  const cmd = (btn.getAttribute('command') ?? '').toLowerCase();
  if (cmd === 'show-modal') invokers.set(target, btn);
  if (nativeCommands) return;
  if (target instanceof HTMLDialogElement) { // polyfill for browsers without invoker commands
    if (cmd === 'show-modal' && !target.open) target.showModal();
    else if (cmd === 'close' && target.open) target.close(btn.value);
    else if (cmd === 'request-close' && target.open) target.requestClose ? target.requestClose(btn.value) : target.close(btn.value);
  } else if (cmd === 'toggle-popover' && target.hasAttribute('popover')) target.togglePopover();
});

// Native dialogs restore focus themselves, but Safari never focuses a clicked button, so the
// "previously focused element" is <body>. Put focus back on the invoker in that case.
document.addEventListener('close', (e) => {
  const inv = invokers.get(e.target), active = document.activeElement;
  if (inv?.isConnected && (!active || active === document.body || e.target.contains(active))) inv.focus({ preventScroll: true });
}, true);

// Light dismiss: a click whose target is the dialog itself but lies outside its content box hit the
// backdrop. Both pointerdown and click must be there, so a drag out of the sheet doesn't close it.
function onBackdrop(e) {
  const d = e.target;
  if (!(d instanceof HTMLDialogElement) || !d.open || !d.matches('.action-sheet, [data-light-dismiss]')) return false;
  const r = d.getBoundingClientRect(), cs = getComputedStyle(d), px = (p) => parseFloat(cs[p]) || 0;
  return e.clientX < r.left + px('borderLeftWidth') + px('paddingLeft') || e.clientX > r.right - px('borderRightWidth') - px('paddingRight')
    || e.clientY < r.top + px('borderTopWidth') + px('paddingTop') || e.clientY > r.bottom - px('borderBottomWidth') - px('paddingBottom');
}
let backdropDown = null;
document.addEventListener('pointerdown', (e) => { backdropDown = onBackdrop(e) ? e.target : null; });
document.addEventListener('click', (e) => {
  if (backdropDown && e.target === backdropDown && onBackdrop(e)) backdropDown.requestClose ? backdropDown.requestClose() : backdropDown.close();
  backdropDown = null;
});


// A dialog the server rendered open is non-modal; with JavaScript it becomes modal, so focus stays
// inside and Escape works. Escape then follows the dialog's own cancel link, which the server knows.
onScreen((screen) => {
  for (const d of $$(screen, 'dialog[open][data-modal]')) {
    d.close();
    d.showModal();
    d.addEventListener('cancel', (e) => {
      const cancel = d.querySelector('[data-dialog-cancel]');
      if (!cancel) return;
      e.preventDefault();
      cancel.click();
    });
  }
});
