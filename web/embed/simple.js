// A plain view of a position for games the table component cannot draw yet
// (Seven Diamonds, until its renderer is on this page): the layout on the
// table by suit, the reader's hand as buttons, and the words of the game.
// The engine judges whatever the reader picks.

import { cardEl, escapeHtml, minis } from "../table/cards.js";

const SUIT_NAMES = { D: "Diamonds", H: "Hearts", S: "Spades", C: "Clubs" };
const WORDS = [["pass", "Pass"], ["double", "Double"], ["triple", "Triple"]];

export function mountSimple(element, { state, onAction }) {
  const v = state.view;
  const box = document.createElement("div");
  box.className = "sd-simple ck";
  let html = '<div class="sd-table" role="group" aria-label="Cards on the table">';
  const table = v.table && typeof v.table === "object" && !Array.isArray(v.table) ? v.table : {};
  for (const suit of ["D", "H", "S", "C"]) {
    const cards = table[suit] || [];
    html += `<p class="sd-row" data-suit="${suit}"><b>${SUIT_NAMES[suit]}:</b> ${cards.length ? minis(cards) : "<i>not opened</i>"}</p>`;
  }
  html += "</div>";
  if (typeof v.multiplier === "number" && v.multiplier > 1) html += `<p>Stakes: &times;${v.multiplier}</p>`;
  html += '<p class="sd-label">Your hand:</p><div class="sd-hand hand-you" role="group" aria-label="Your cards"></div>';
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
    b.textContent = label;
    b.addEventListener("click", () => onAction && onAction(action));
    words.append(b);
  }
  element.replaceChildren(box);
  return {
    showMessage(msg) {
      box.querySelector(".message").innerHTML = msg ? escapeHtml(msg.error || "") : "";
    },
    destroy() { element.replaceChildren(); },
    set() {},
    names() { return { seat: (n) => `Seat ${n + 1}`, side: (n) => `Side ${n + 1}` }; },
  };
}
