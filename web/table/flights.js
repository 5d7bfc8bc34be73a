// The table's card flights: the cards of the newest move fly from where
// they were (cardRects, taken by the page before the redraw) to where they
// land. Methods of the table (mixed into web/table/core.js's TableView).

import { latestMove, sideOf } from "./state.js";

const FLY_EASING = "cubic-bezier(.3,.7,.4,1)";

export const flightMethods = {
  cardRects() {
    const out = new Map();
    for (const el of this.root.querySelectorAll(".table-cards .card, .hand-you .card")) {
      out.set(el.dataset.card, el.getBoundingClientRect());
    }
    const seats = new Map();
    for (const el of this.root.querySelectorAll(".seat[data-seat]")) {
      const back = [...el.querySelectorAll(".hand .card.back")].pop();
      if (back) seats.set(Number(el.dataset.seat), back.getBoundingClientRect());
    }
    return { cards: out, seats };
  },

  /** Fly the newest move's cards from where they were (rects taken before the redraw). */
  animateMove(rects, pace) {
    const st = this.state;
    const move = latestMove(st, this.frame);
    if (!move || !move.card || !rects || this.reduceMotion.matches || pace === 0) return;
    if (document.querySelector("dialog[open]")) return;
    const ms = Math.min(600, Math.max(220, pace * 0.4));
    const fromSeat = rects.seats.get(move.seat);
    const from = (code) => rects.cards.get(code) || fromSeat || null;
    const origin = (code) => (rects.cards.has(code) ? "card" : "seat");
    const taken = move.cards || move.take || [];
    if (move.kind === "lay" || (!taken.length && move.kind !== "capture" && move.kind !== "claim")) {
      const target = this.$(`.table-cards .card[data-card="${move.card}"]`);
      if (target) this.fly(move.card, from(move.card), target.getBoundingClientRect(), ms, target, origin(move.card));
      return;
    }
    const side = sideOf(st, move.seat);
    const pile = side === null ? null : this.$(`.pile[data-side="${side}"] .stack`);
    if (!pile) return;
    const to = pile.getBoundingClientRect();
    for (const code of [move.card, ...taken]) this.fly(code, from(code), to, ms, null, origin(code));
  },

  fly(code, from, to, ms, hideTarget, origin = "card") {
    const good = (r) => r && [r.left, r.top, r.width, r.height].every(Number.isFinite) && r.width > 0 && r.height > 0;
    if (!good(from) || !good(to)) return;
    this.flightLog.push({ code, origin, from: [from.width, from.height], to: [to.width, to.height] });
    this.flightCount += 1;
    if (this.flightLog.length > 50) this.flightLog.shift();
    const el = document.createElement("span");
    el.className = "flying";
    el.setAttribute("aria-hidden", "true");
    const card = this.renderer.flyingCard(code);
    el.append(card);
    // Drawn at the size it lands at; it starts at the size it left from
    // (a card back in an opponent's hand is small, never oversized).
    Object.assign(el.style, { transformOrigin: "0 0", left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
    card.style.setProperty("--card-w", `${to.width}px`);
    this.root.append(el);
    if (hideTarget) hideTarget.style.visibility = "hidden";
    const sx = from.width / to.width, sy = from.height / to.height;
    const dx = from.left - to.left, dy = from.top - to.top;
    const anim = el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
       { transform: "translate(0px, 0px) scale(1, 1)", opacity: hideTarget ? 1 : 0.5 }],
      { duration: ms, easing: FLY_EASING },
    );
    const done = () => {
      el.remove();
      if (hideTarget) hideTarget.style.visibility = "";
      this.flights.delete(anim);
    };
    this.flights.add(anim);
    anim.onfinish = done;
    anim.oncancel = done;
  },

  cancelFlights() {
    for (const a of [...this.flights]) a.cancel();
  },
};
