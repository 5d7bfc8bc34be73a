// Cards as the page draws them: full cards, backs, and small inline symbols
// (6♥) for text. Pure drawing: nothing here knows a rule of any game.
// Card names (for screen readers) come from the catalogs (web/i18n/).

import { cardName as i18nCardName, language, t } from "../i18n/i18n.js";

export const SUITS = {
  D: ["\u2666\uFE0E"], H: ["\u2665\uFE0E"],
  S: ["\u2660\uFE0E"], C: ["\u2663\uFE0E"],
};
const RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const CODE = /^[A2-9TJQK][DHSC]$/;

export function isCard(code) {
  return typeof code === "string" && CODE.test(code);
}

export function rankText(code) {
  return RANK_TEXT[code[0]] || code[0];
}

/** "queen of hearts", in the current language. */
export function cardName(code) {
  return i18nCardName(code);
}

/** "Q♥" as plain text. */
export function cardText(code) {
  return isCard(code) ? `${rankText(code)}${SUITS[code[1]][0]}` : String(code);
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** A card symbol inside text: <span class="mini">6♥</span>, named for screen readers. */
export function mini(code) {
  if (!isCard(code)) return escapeHtml(code);
  return `<span class="mini" data-suit="${code[1]}" data-mini="${code}" role="img" aria-label="${escapeHtml(cardName(code))}">` +
    `${rankText(code)}${SUITS[code[1]][0]}</span>`;
}

/** Several card symbols, in their order left to right in every language (Arabic: «7♦، 8♦»). */
export function minis(codes) {
  const list = (codes || []).map(mini);
  return list.length > 1 ? `<span class="minis">${list.join(escapeHtml(t("cards.separator")))}</span>` : list.join("");
}

/** Plain text in which card codes (6H, KD) become symbols; the rest escaped. */
export function symbolize(text) {
  return String(text).split(/\b([A2-9TJQK][DHSC])\b/).map((part, i) => (i % 2 ? mini(part) : escapeHtml(part))).join("");
}

export function cardEl(code, { button = false, small = false } = {}) {
  const el = document.createElement(button ? "button" : "span");
  if (button) el.type = "button";
  el.className = small ? "card small" : "card";
  el.dataset.card = code;
  el.dataset.suit = code[1];
  const r = rankText(code);
  const glyph = SUITS[code[1]][0];
  el.setAttribute("aria-label", cardName(code));
  if (!button) el.setAttribute("role", "img");
  // The face is a picture: its rank and suit are drawn by CSS (cards.css,
  // from data-r / data-s / data-p), not as text, so the card's name is only
  // its name (WCAG 2.5.3: no visible text the name would have to contain).
  const face = /[JQK]/.test(code[0]);
  el.innerHTML =
    `<span class="corner" aria-hidden="true" data-r="${r}" data-s="${glyph}"></span>` +
    `<span class="pip${face ? " face-letter" : ""}" aria-hidden="true" data-p="${face ? r : glyph}"></span>` +
    `<span class="corner br" aria-hidden="true" data-r="${r}" data-s="${glyph}"></span>`;
  return el;
}

export function backs(n) {
  const frag = document.createDocumentFragment();
  for (let i = 0; i < n; i++) {
    const b = document.createElement("span");
    b.className = "card back";
    frag.append(b);
  }
  return frag;
}

/**
 * Keep `container`'s cards those of `codes`, in that order, reusing the card
 * elements already there (a move changes one or two cards: the others are
 * neither rebuilt nor moved, so the browser restyles and lays out only what
 * changed). `make(code)` makes a missing card; `kind` tells cards of another
 * make apart (a card of another kind or language is made again).
 * Returns the elements, in order.
 */
export function keyedCards(container, codes, make, kind = "") {
  const key = `${kind}|${language()}`;
  const want = new Set(codes);
  const have = new Map();
  for (const el of [...container.children]) {
    const code = el.dataset.card;
    if (!want.has(code) || have.has(code) || el.ckKey !== key) el.remove();
    else have.set(code, el);
  }
  const out = [];
  let ref = container.firstChild;
  for (const code of codes) {
    let el = have.get(code);
    if (!el) {
      el = make(code);
      el.ckKey = key;
    }
    if (el === ref) ref = ref.nextSibling;
    else container.insertBefore(el, ref);
    out.push(el);
  }
  return out;
}

/**
 * `keyedCards` of full cards: buttons that call `pick(code)` when the cards
 * are `pointable` (a table being played), else pictures (a replay).
 */
export function keyedCardButtons(container, codes, pointable, pick) {
  return keyedCards(container, codes, (code) => {
    const c = cardEl(code, { button: pointable });
    if (pointable) c.addEventListener("click", () => pick(code));
    return c;
  }, pointable ? "button" : "card");
}

/** Set `el.innerHTML` to `html` only when it changed (no new nodes for the same text). */
export function setHtml(el, html) {
  if (el.ckHtml === html && el.childNodes.length) return false;
  el.innerHTML = html;
  el.ckHtml = html;
  return true;
}

/** Set an attribute only when its value changes (null: remove it). */
export function setAttr(e, name, value) {
  if (e.getAttribute(name) === value) return;
  if (value === null) e.removeAttribute(name);
  else e.setAttribute(name, value);
}
