// The rules page: the page chrome comes from the catalogs (rules.* keys in
// web/i18n/<lang>/rules.json) and the rules themselves from one HTML
// fragment per language (web/i18n/<lang>/rules.html: our own files, the
// same sections and ids in each). A card in a fragment is written
// <span class="c" data-card="7D"></span>; it is drawn here (7♦, always left
// to right) and named in the reader's language for screen readers.

import { cardName, initI18n, mountLanguagePicker, onLanguageChange, t, translateDom } from "./i18n/i18n.js";

const SUITS = { D: "\u2666\uFE0E", H: "\u2665\uFE0E", S: "\u2660\uFE0E", C: "\u2663\uFE0E" };
const RANKS = { T: "10" };
const CARD = /^[A2-9TJQK][DHSC]$/;

function drawCards(root) {
  for (const el of root.querySelectorAll(".c[data-card]")) {
    const code = el.dataset.card;
    if (!CARD.test(code)) continue;
    el.dataset.suit = code[1];
    el.textContent = (RANKS[code[0]] || code[0]) + SUITS[code[1]];
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(code));
    el.dir = "ltr";
  }
}

function chrome() {
  translateDom(document);
  document.title = t("rules.title");
  const meta = document.querySelector('meta[name="description"]');
  if (meta) meta.setAttribute("content", t("rules.description"));
}

function toAnchor() {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (target) target.scrollIntoView();
}

let shown = 0;

async function show(code) {
  const ticket = ++shown;
  chrome();
  const main = document.getElementById("rules");
  main.setAttribute("aria-busy", "true");
  let html = null;
  try {
    const res = await fetch(new URL(`i18n/${code}/rules.html`, location.href));
    if (res.ok) html = await res.text();
  } catch (e) { /* offline and not cached: said below */ }
  if (ticket !== shown) return; // the reader picked another language meanwhile
  if (html === null) {
    const p = document.createElement("p");
    p.className = "rules-error";
    p.setAttribute("role", "alert");
    p.textContent = t("rules.unavailable");
    main.replaceChildren(p);
  } else {
    main.innerHTML = html;
    drawCards(main);
  }
  main.removeAttribute("aria-busy");
  document.documentElement.dataset.rulesLang = html === null ? "" : code;
  toAnchor();
}

async function start() {
  const code = await initI18n();
  mountLanguagePicker(document.querySelector(".lang-slot"));
  onLanguageChange((c) => { show(c); });
  await show(code);
}

start().catch((e) => console.error("rules page:", e));
