// Pass-and-play: between two human turns the page shows "pass the device to
// <player>" over the whole table. The facade hides the next player's hand
// (state.handoff) until that player taps; the page then asks `reveal`.

import { t } from "../i18n/i18n.js";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The name of a human seat for the hand-off screen: Player 1, Player 2 ... by seat order. */
export function playerName(st, seat) {
  const humans = Array.isArray(st.humans) ? st.humans : [seat];
  return t("handoff.player", { number: humans.indexOf(seat) + 1 });
}

export class Handoff {
  constructor({ onReveal, guarded }) {
    this.onReveal = onReveal;
    this.guarded = guarded;        // the elements made inert while the screen is up
    this.box = el("div", "handoff");
    this.box.hidden = true;
    this.box.setAttribute("role", "dialog");
    this.box.setAttribute("aria-modal", "true");
    this.box.setAttribute("aria-labelledby", "handoff-title");
    const inner = el("div", "handoff-box");
    this.title = el("h2", "handoff-title");
    this.title.id = "handoff-title";
    this.note = el("p", "handoff-note", t("handoff.note"));
    this.button = el("button", "btn primary handoff-go");
    this.button.type = "button";
    // Only a press of its own shows the hand: the second tap of a double tap
    // on the last move (landing where this button appears, click count 2), a
    // press begun before the screen was up, or a key held from the move
    // (auto-repeat) would otherwise show the next player's cards before they
    // hold the device.
    this.pressed = false;
    this.button.addEventListener("pointerdown", () => { this.pressed = this.open; });
    this.button.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") this.pressed = this.open && !e.repeat; });
    this.button.addEventListener("click", (e) => {
      const fresh = this.pressed && !(e.detail > 1);
      this.pressed = false;
      if (fresh) this.onReveal();
    });
    inner.append(this.title, this.note, this.button);
    this.box.append(inner);
    document.body.append(this.box);
  }

  get open() { return !this.box.hidden; }

  /** Show the screen for the state's hidden seat (state.handoff), or hide it. */
  sync(st, allowed) {
    const seat = st && st.handoff !== null && st.handoff !== undefined ? st.handoff : null;
    const show = seat !== null && allowed;
    const was = this.open;
    this.box.hidden = !show;
    for (const g of this.guarded()) if (g) g.inert = show;
    if (!show) return;
    if (!was) this.pressed = false;     // a press begun before the screen was up does not count
    const name = playerName(st, seat);
    this.title.textContent = t("handoff.title", { name });
    this.box.dataset.seat = String(seat);
    this.button.textContent = t("handoff.show", { name });
    if (!was) this.button.focus({ preventScroll: true });
  }
}
