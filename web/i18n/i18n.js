// Languages. Every string a page shows comes from a catalog: Arabic (right
// to left), French and English. The sources are web/i18n/<lang>/*.json (one
// file per area of the site: ui, messages, lessons, stats, ...; flat
// {"key": text}); the build merges each language into i18n/<lang>.js and
// adds the English templates of the engine's message codes ("msg.<code>")
// and the lessons' English texts ("lesson.<id>.<step>.text|hint").
//
// A text is a string with {name} placeholders, or an object of plural forms
// ({"zero", "one", "two", "few", "many", "other"}, chosen by the `count`
// parameter with Intl.PluralRules; "other" is required). Numbers in
// parameters are written the language's way. A key missing in the current
// language falls back to English; a key missing in English is a bug and is
// reported on the console (the e2e tests fail on it).

export const LANG_KEY = "chkobba.lang";

/** The languages, each with its own name, its direction and its locale. */
export const LANGUAGES = [
  { code: "ar", name: "العربية", dir: "rtl", locale: "ar-TN" },
  { code: "fr", name: "Français", dir: "ltr", locale: "fr-FR" },
  { code: "en", name: "English", dir: "ltr", locale: "en-GB" },
];
const BY_CODE = Object.fromEntries(LANGUAGES.map((l) => [l.code, l]));

let current = BY_CODE.en;
let catalog = {};
let english = {};
let plurals = new Intl.PluralRules(current.locale);
let numbers = new Intl.NumberFormat(current.locale);
const listeners = new Set();

function storedLanguage() {
  try { return localStorage.getItem(LANG_KEY); } catch (e) { return null; }
}

function known(code) {
  if (typeof code !== "string") return null;
  const base = code.trim().toLowerCase().split(/[-_]/)[0];
  return BY_CODE[base] ? base : null;
}

/**
 * The language to show: `?lang=` in the address (a link may ask for one),
 * then the reader's own choice (remembered), then the browser's languages,
 * else English.
 */
export function pickLanguage() {
  let fromUrl = null;
  try { fromUrl = new URLSearchParams(location.search).get("lang"); } catch (e) { /* no location */ }
  const candidates = [fromUrl, storedLanguage(), ...(navigator.languages || [navigator.language])];
  for (const c of candidates) {
    const k = known(c);
    if (k) return k;
  }
  return "en";
}

async function loadCatalog(code) {
  const mod = await import(new URL(`./${code}.js`, import.meta.url).href);
  return mod.default || {};
}

/** Load the catalogs of `code` (and English), set lang and dir on <html>. */
export async function initI18n(code = pickLanguage()) {
  const lang = BY_CODE[known(code) || "en"];
  english = await loadCatalog("en");
  catalog = lang.code === "en" ? english : await loadCatalog(lang.code);
  current = lang;
  plurals = new Intl.PluralRules(lang.locale);
  numbers = new Intl.NumberFormat(lang.locale);
  const root = document.documentElement;
  root.lang = lang.code;
  root.dir = lang.dir;
  setManifest(lang.code);
  for (const fn of listeners) fn(lang.code);
  return lang.code;
}

// The installable app in the reader's language: manifest-ar / manifest-fr
// (the default manifest.webmanifest names it in both scripts, "Chkobba ·
// شكبّة", for a browser that reads it before this runs). Same id and start
// page in each, so it is one app whatever the language.
export const MANIFESTS = { ar: "manifest-ar.webmanifest", fr: "manifest-fr.webmanifest", en: "manifest.webmanifest" };
function setManifest(code) {
  const link = typeof document !== "undefined" && document.querySelector('link[rel="manifest"]');
  if (link && MANIFESTS[code] && link.getAttribute("href") !== MANIFESTS[code]) link.setAttribute("href", MANIFESTS[code]);
}

/** Remember the reader's choice and switch to it. */
export async function setLanguage(code) {
  const k = known(code) || "en";
  try { localStorage.setItem(LANG_KEY, k); } catch (e) { /* sandboxed: not remembered */ }
  return initI18n(k);
}

export function language() { return current.code; }
export function direction() { return current.dir; }
export function locale() { return current.locale; }

/** Call `fn(code)` after every language change; returns a function to stop. */
export function onLanguageChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function has(key) {
  return key in catalog || key in english;
}

function pick(entry, params) {
  if (typeof entry === "string") return entry;
  if (entry && typeof entry === "object") {
    const n = params && typeof params.count === "number" ? params.count : NaN;
    const form = Number.isFinite(n) ? plurals.select(n) : "other";
    return entry[form] ?? entry.other ?? "";
  }
  return "";
}

/**
 * The raw text of `key` (the plural form for params.count), placeholders
 * left in: for callers that fill them with markup (web/table/messages.js).
 * Undefined when no catalog has the key (no console error: the caller has a
 * fallback).
 */
export function template(key, params = {}) {
  let entry = catalog[key];
  if (entry === undefined) entry = english[key];
  if (entry === undefined) return undefined;
  return pick(entry, params);
}

/** Format a number the current language's way. */
export function formatNumber(n) {
  return numbers.format(n);
}

/**
 * The text of `key` in the current language with {name} replaced by
 * params[name] (numbers formatted). Plain text: escape it before using it
 * as HTML (or set textContent).
 */
export function t(key, params = {}) {
  let entry = catalog[key];
  if (entry === undefined) entry = english[key];
  if (entry === undefined) {
    console.error(`i18n: no text for "${key}"`);
    return key;
  }
  return pick(entry, params).replace(/\{([a-z_][a-z0-9_]*)\}/gi, (whole, name) => {
    if (!params || !(name in params)) return whole;
    const v = params[name];
    return typeof v === "number" ? formatNumber(v) : String(v);
  });
}

/**
 * The text of `key` as HTML: the text escaped, {name} filled with
 * html[name] as markup (a card symbol, <kbd>) or params[name] as text.
 */
export function tHtml(key, params = {}, html = {}) {
  const text = template(key, params);
  if (text === undefined) return escapeText(t(key, params));
  return text.split(/(\{[a-z_][a-z0-9_]*\})/i).map((part) => {
    const m = /^\{([a-z_][a-z0-9_]*)\}$/i.exec(part);
    if (!m) return escapeText(part);
    if (html && m[1] in html) return String(html[m[1]]);
    if (params && m[1] in params) {
      const v = params[m[1]];
      return escapeText(typeof v === "number" ? formatNumber(v) : String(v));
    }
    return escapeText(part);
  }).join("");
}

function escapeText(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** A card's name for screen readers and titles: "seven of diamonds". */
export function cardName(code) {
  if (typeof code !== "string" || code.length !== 2) return String(code);
  return t("card.name", { rank: t(`card.rank.${code[0]}`), suit: t(`card.suit.${code[1]}`) });
}

/**
 * Fill the markup's texts: data-i18n="key" sets textContent;
 * data-i18n-attr="aria-label:key; title:key2" sets attributes.
 */
export function translateDom(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
}

/**
 * A language picker (<select>, each language in its own name) in `element`.
 * With `reload`, a change reloads the page in the new language (a game in
 * progress is in storage and resumes); where the choice cannot be stored (a
 * sandboxed frame) or the address already says ?lang=, the address carries it.
 */
export function mountLanguagePicker(element, { reload = false } = {}) {
  const select = document.createElement("select");
  select.className = "lang-picker";
  select.setAttribute("aria-label", t("lang.label"));
  for (const l of LANGUAGES) {
    const o = document.createElement("option");
    o.value = l.code;
    o.lang = l.code;
    o.dir = l.dir;
    o.textContent = l.name;
    select.append(o);
  }
  select.value = current.code;
  select.addEventListener("change", async () => {
    const code = select.value;
    await setLanguage(code);
    if (!reload) return;
    const url = new URL(location.href);
    if (url.searchParams.has("lang") || storedLanguage() !== code) {
      url.searchParams.set("lang", code);
      location.replace(url.href);
    } else {
      location.reload();
    }
  });
  onLanguageChange((code) => { select.value = code; select.setAttribute("aria-label", t("lang.label")); });
  element.append(select);
  return select;
}
