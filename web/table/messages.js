// Messages from codes: the engine and the facade describe every move and
// every refusal as {code, params}; the page renders them from the catalog
// text "msg.<code>" of the current language (web/i18n/: English from the
// engine's registry, French and Arabic translated). Cards are drawn as
// symbols (6♥) named for screen readers, seats and sides by the renderer's
// names, numbers the language's way, lists joined with ", ". Only a code
// no catalog has falls back to the English text the facade sent.

import { escapeHtml, mini, minis, symbolize } from "./cards.js";
import { formatNumber, has, t, template } from "../i18n/i18n.js";

/**
 * Kept for pages that still pass the facade's English templates (`messages`
 * call): the catalogs are the source now, so these are not used.
 */
export function setTemplates() {}

export function hasTemplate(code) {
  return typeof code === "string" && code !== "" && has(`msg.${code}`);
}

function isMessage(v) {
  return v && typeof v === "object" && !Array.isArray(v) && typeof v.code === "string";
}

function param(name, value, names) {
  // nested messages (a coach reason's parts): each rendered, joined with the language's comma («، » in Arabic)
  if (isMessage(value)) return messageHtml(value, names);
  if (Array.isArray(value) && value.length && value.every(isMessage)) return value.map((m) => messageHtml(m, names)).join(escapeHtml(t("cards.separator")));
  if (name === "card" || name.endsWith("_card")) return mini(value);
  if (name === "cards" || name.endsWith("_cards")) return Array.isArray(value) ? minis(value) : mini(value);
  if ((name === "seat" || name.endsWith("_seat")) && typeof value === "number" && names && names.seat) {
    return escapeHtml(names.seat(value));
  }
  if ((name === "side" || name.endsWith("_side")) && typeof value === "number" && names && names.side) {
    return escapeHtml(names.side(value));
  }
  if (Array.isArray(value)) return escapeHtml(value.join(t("cards.separator")));
  // English text from the engine passed through (web.engine's {text}, a
  // reason): its card codes become symbols too.
  if ((name === "text" || name === "reason") && typeof value === "string") return symbolize(value);
  if (typeof value === "number") return escapeHtml(formatNumber(value));
  return escapeHtml(value);
}

/**
 * HTML for a message: `msg` has `code` and `params` (and the English `text`
 * or `error` as the fallback). `names.seat(i)` / `names.side(i)` name seats.
 */
export function messageHtml(msg, names = null) {
  if (!msg) return "";
  const params = msg.params && typeof msg.params === "object" ? msg.params : {};
  if (hasTemplate(msg.code)) {
    let ok = true;
    const html = template(`msg.${msg.code}`, params).split(/(\{[a-z_][a-z0-9_]*\})/i).map((part) => {
      const m = /^\{([a-z_][a-z0-9_]*)\}$/i.exec(part);
      if (!m) return escapeHtml(part);
      if (!(m[1] in params)) { ok = false; return ""; }
      return param(m[1], params[m[1]], names);
    }).join("");
    if (ok) return html;
  }
  const text = msg.text ?? msg.error ?? msg.label ?? "";
  return symbolize(text);
}

/** The same message as plain text (for titles and aria labels). */
export function messageText(msg, names = null) {
  const div = document.createElement("div");
  div.innerHTML = messageHtml(msg, names);
  return div.textContent;
}

// The computer levels' names (the facade's level codes): for every renderer and the start form.
const LEVELS = { easy: "level.easy", medium: "level.medium", hard: "level.hard" };
export function levelName(level) {
  return LEVELS[level] ? t(LEVELS[level]) : String(level);
}
