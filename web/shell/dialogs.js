// Modal dialogs (<dialog>.showModal()): the page behind is inert, Tab and
// Shift+Tab go round inside the dialog, and focus goes back where it was
// when the dialog closes.

const FOCUSABLE = "button, [href], input, select, textarea, summary, [tabindex]:not([tabindex='-1'])";

function focusables(dialog) {
  return [...dialog.querySelectorAll(FOCUSABLE)].filter(
    (el) => !el.disabled && !el.closest("[hidden]") && el.getClientRects().length > 0 &&
      !(el.closest("details:not([open])") && el.tagName !== "SUMMARY"));
}

const returnTo = new WeakMap();

export function setupDialog(dialog, { onCancel } = {}) {
  dialog.addEventListener("keydown", (e) => {
    if (e.key !== "Tab") return;
    const items = focusables(dialog);
    if (!items.length) { e.preventDefault(); return; }
    const first = items[0], last = items[items.length - 1];
    const inside = dialog.contains(document.activeElement);
    if (e.shiftKey && (document.activeElement === first || !inside)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
      e.preventDefault();
      first.focus();
    }
  });
  dialog.addEventListener("cancel", (e) => {
    // Escape: only dialogs that may be left without choosing close.
    e.preventDefault();
    if (onCancel) onCancel();
  });
}

/** Open `dialog` modally and focus `focus` (an element inside it). */
export function openDialog(dialog, focus = null, restore = undefined) {
  if (!dialog.open) {
    const from = restore === undefined ? document.activeElement : restore;
    returnTo.set(dialog, from && from !== document.body ? from : null);
    dialog.showModal();
    document.dispatchEvent(new CustomEvent("chkobba:dialog", { detail: { dialog, open: true } }));
  }
  const target = focus || focusables(dialog)[0];
  if (target) target.focus({ preventScroll: true });
  dialog.scrollTop = 0;
}

/** Close `dialog`; focus goes back to where it was, else `fallback()` places it. */
export function closeDialog(dialog, fallback = null) {
  if (!dialog.open) return;
  const back = returnTo.get(dialog);
  dialog.close();
  document.dispatchEvent(new CustomEvent("chkobba:dialog", { detail: { dialog, open: false } }));
  if (back && back.isConnected && !back.disabled && back.getClientRects().length) {
    back.focus({ preventScroll: true });
  } else if (fallback) {
    fallback();
  }
}

export function isOpen(dialog) {
  return !!dialog && dialog.open;
}
