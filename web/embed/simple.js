// A plain view of a position for games the table component cannot draw yet
// (Seven Diamonds, until its renderer is on this page): the layout on the
// table by suit, the reader's hand as buttons, and the words of the game.
// The engine judges whatever the reader picks.

import { cardEl, escapeHtml, minis } from "../table/cards.js";
import { t, tHtml } from "../i18n/i18n.js";
import { messageHtml } from "../table/messages.js";

const SUIT_KEYS = { D: "card.suit.D", H: "card.suit.H", S: "card.suit.S", C: "card.suit.C" };
// The calls, worded as the engine's own words (msg.word.*).
const WORDS = [["pass", "msg.word.call_pass"], ["double", "msg.word.double"], ["triple", "msg.word.triple"]];
const T = (key, params) => escapeHtml(t(key, params));

export function mountSimple(element, { state, onAction }) {
  const v = state.view;
  const box = document.createElement("div");
  box.className = "sd-simple ck";
  let html = `<div class="sd-table" role="group" aria-label="${T("table.cards")}">`;
  const table = v.table && typeof v.table === "object" && !Array.isArray(v.table) ? v.table : {};
  for (const suit of ["D", "H", "S", "C"]) {
    const cards = table[suit] || [];
    html += `<p class="sd-row" data-suit="${suit}">${tHtml("simple.row", {}, { suit: `<b>${T(SUIT_KEYS[suit])}</b>`, cards: cards.length ? minis(cards) : `<i>${T("simple.not_opened")}</i>` })}</p>`;
  }
  html += "</div>";
  if (typeof v.multiplier === "number" && v.multiplier > 1) html += `<p>${T("simple.stakes", { mult: v.multiplier })}</p>`;
  html += `<p class="sd-label">${T("simple.hand")}</p><div class="sd-hand hand-you" role="group" aria-label="${T("seat.your_cards")}"></div>`;
  html += '<div class="sd-words choices"></div><p class="message" role="alert"></p>';
  box.innerHTML = html;
  const hand = box.querySelector(".sd-hand");
  for (const code of v.hand || []) {
    const c = cardEl(code, { button: true });
    c.addEventListener("click", () => onAction && onAction(code));
    hand.append(c);
  }
  const words = box.querySelector(".sd-words");
  for (const [action, label] of WORDS) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn";
    b.dataset.action = action;
    b.textContent = t(label);
    b.addEventListener("click", () => onAction && onAction(action));
    words.append(b);
  }
  element.replaceChildren(box);
  return {
    showMessage(msg) {
      box.querySelector(".message").innerHTML = msg ? messageHtml(msg) : "";
    },
    destroy() { element.replaceChildren(); },
    set() {},
    names() { return { seat: (n) => t("start.seat.n", { number: n + 1 }), side: (n) => t("simple.side", { number: n + 1 }) }; },
  };
}
