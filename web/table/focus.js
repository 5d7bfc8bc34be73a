// The table's keyboard focus kept across its drawings (web/table/core.js
// render). Methods of the table (mixed into core.js's TableView).

export const focusMethods = {
  // Drawing rebuilds the cards and buttons, which would drop keyboard focus
  // to <body> after every move. Remember what had focus by what it is and
  // focus it again, or the nearest useful thing.
  focusKey(el) {
    if (!el || !el.closest || !this.root.contains(el)) return null;
    if (el.closest(".hand-you")) return { where: "hand", card: el.dataset.card };
    if (el.closest(".table-cards")) return { where: "table", card: el.dataset.card };
    if (el.closest(".choices")) return { where: "choices", action: el.dataset.action };
    if (el.closest(".coach-slot")) return { where: "controls", act: "hint" };
    if (el.closest(".controls")) return { where: "controls", act: el.dataset.act };
    return null;
  },

  focusLost() {
    const a = document.activeElement;
    // (a button of a dialog just closed keeps the focus until the browser
    // notices it is no longer drawn: that focus is lost too)
    return !a || a === document.body || !a.isConnected || a.disabled || !!a.closest("[hidden], dialog:not([open])");
  },

  // Removing the focused element in the middle of a drawing makes the
  // browser restyle the whole half-drawn table at once (11-25 ms of a
  // person's move at 4x CPU, docs/main-thread.md, ninth pass). So when the
  // drawing of `next` will remove the table's focused card or button (a card
  // that leaves your hand or the table, a choice: the choices are made anew
  // each drawing), it is let go before anything is written, and given back
  // after the drawing if it is still there. A card or button that stays keeps
  // the focus throughout (a redraw each second, as a timer's, moves nothing).
  letGoFocus(next) {
    const a = document.activeElement;
    const key = this.focusKey(a);
    if (!key || !next) return null;   // (nothing is drawn without a state)
    const v = next.view || {};
    const stays = key.where === "hand" ? (v.hand || []).includes(key.card)
      : key.where === "table" ? Array.isArray(v.table) && v.table.includes(key.card)
      : key.where === "controls";
    if (stays) return null;
    a.blur();
    return a;
  },

  keepFocus(draw, held = null) {
    const key = this.focusKey(held || document.activeElement) || this.lostFocus;
    draw();
    if (held && held.isConnected && !held.disabled) held.focus({ preventScroll: true });
    if (!key || !this.keyboard || !this.focusLost()) return;
    if (document.querySelector("dialog[open]")) { this.lostFocus = key; return; }
    const usable = (el) => el && !el.disabled && !el.closest("[hidden]") && el.offsetParent !== null;
    const exact =
      key.where === "hand" ? this.$(`.hand-you .card[data-card="${key.card}"]`)
      : key.where === "table" ? this.$(`.table-cards .card[data-card="${key.card}"]`)
      : key.where === "choices" ? this.$(`.choices button[data-action="${key.action}"]`)
      : key.where === "controls" ? (key.act === "hint" ? this.$(".btn-hint") : this.$(`.controls [data-act="${key.act}"]`)) : null;
    const target = [exact, this.$(".choices button"), ...this.root.querySelectorAll(".hand-you .card")].find(usable);
    if (target) {
      target.focus({ preventScroll: true });
      this.lostFocus = null;
    } else {
      this.lostFocus = key;
    }
  },

  /** Focus comes back to the table (after a dialog closed). */
  refocus() {
    this.lostFocus = this.lostFocus || { where: "hand" };
    this.keepFocus(() => {});
  },
};
