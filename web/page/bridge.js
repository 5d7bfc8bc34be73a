// page/bridge.js: the live tables of a writer's page (docs/pyscript.md).
// PyScript loads it (page/pyscript.js names it in the config's js_modules,
// so it is here before any Python block runs); chkobba.page uses it from
// Python as globalThis.chkobbaPage (chkobba/page/browser.py).
//
// A table is the site's table component (table/core.js) in an element of
// the writer's page, styled by page/page.css (the site's table styles,
// scoped to the element: the writer's page keeps its own look). Python
// hands it the facade's state and a function that judges the reader's move
// (chkobba.page.Question.call), in the same JSON as the facade's calls.
// Every word comes from the site's catalogs in the page's language (the
// engine's message codes): no rule and no English here.

import { mount as mountTable } from "../table/core.js";
import { messageText } from "../table/messages.js";
import { direction, has, initI18n, language, t, translateDom } from "../i18n/i18n.js";

const LANGS = ["ar", "fr", "en"];
const SCOPE = "chkobba-page";     // the class page/page.css's rules are scoped to

function known(code) {
  const k = String(code || "").trim().toLowerCase().split(/[-_]/)[0];
  return LANGS.includes(k) ? k : null;
}

function askedLanguage() {
  try { return known(new URLSearchParams(location.search).get("lang")); } catch { return null; /* no address */ }
}

/** The page's language: ?lang= in its address, else its <html lang>, else the reader's own. */
function pageLanguage() {
  // undefined: i18n.js picks (the reader's choice, the browser's languages)
  return askedLanguage() || known(document.documentElement.getAttribute("lang")) || undefined;
}

/**
 * The catalogs in the page's language. i18n.js also sets <html lang/dir>
 * and the site's manifest: on a writer's page those are the writer's and
 * stay as they were, unless the address asked for a language (?lang=, as
 * the site's examples do); each table carries its own lang and dir.
 */
async function loadWords() {
  const html = document.documentElement;
  const before = { lang: html.getAttribute("lang"), dir: html.getAttribute("dir") };
  const manifest = document.querySelector('link[rel="manifest"]');
  const href = manifest && manifest.getAttribute("href");
  await initI18n(pageLanguage());
  if (manifest) manifest.setAttribute("href", href);
  if (askedLanguage()) return;
  for (const [name, value] of Object.entries(before)) {
    if (value === null) html.removeAttribute(name); else html.setAttribute(name, value);
  }
}

function addStyles() {
  const href = new URL("page.css", import.meta.url).href;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href === href)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

addStyles();
await loadWords();
translateDom(document);   // the page's own data-i18n texts, if it has any (the site's examples)

/** A message (code, params, English) in the page's language. */
function say(code, params, english) {
  if (has(`msg.${code}`)) return messageText({ code, params, text: english });
  if (code.startsWith("page.") && has(code)) return t(code, params);
  return english;
}

function words(code, paramsJSON, english) {
  let params = {};
  try { params = JSON.parse(paramsJSON || "{}") || {}; } catch { /* none */ }
  return say(String(code), params, String(english));
}

function el(tag, cls) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  return e;
}

function scope(element) {
  element.classList.add(SCOPE);
  element.lang = language();
  element.dir = direction();
}

/** One line instead of a table: why it could not be made (text, never markup). */
function fail(element, msgJSON) {
  const m = JSON.parse(String(msgJSON));
  const p = el("p", "chkobba-page-error");
  p.setAttribute("role", "alert");
  scope(element);
  p.textContent = t("page.error", { reason: say(m.code, m.params || {}, m.text || "") });
  element.dataset.chkobba = "error";
  element.replaceChildren(p);
}

/**
 * A live table in `element` asking for a move: `first` is {state, hint,
 * right} (chkobba.page.Question.first), `call("judge", json)` judges the
 * reader's move. Returns the table's controller.
 */
function mount(element, firstJSON, call) {
  const first = JSON.parse(String(firstJSON));
  scope(element);
  const root = el("div", "chkobba-page-table");
  const felt = el("div", "chkobba-page-felt");
  const verdict = el("p", "chkobba-page-verdict");
  verdict.setAttribute("role", "status");
  verdict.setAttribute("aria-live", "polite");
  verdict.hidden = true;
  root.append(felt, verdict);
  element.replaceChildren(root);
  element.dataset.chkobba = "ready";

  const ui = { state: first.state, solved: false, verdicts: [] };

  function show(text, cls) {
    ui.verdicts.push({ cls, text });
    verdict.className = `chkobba-page-verdict ${cls}`;
    verdict.textContent = text;
    verdict.hidden = !text;
    element.dataset.verdict = cls;
  }

  function wrongText(m, hint) {
    const line = `\u2717 ${t("learn.not_this", { reason: say(m.code, m.params || {}, m.text || "") })}`;
    return hint ? `${line} ${t("learn.hint", { hint })}` : line;
  }

  const table = mountTable(felt, {
    state: null, logOpen: false, markPlayable: false,
    onAction: (action) => act(action),
  });

  function draw() {
    table.set({ state: ui.state, viewOnly: ui.solved });
    element.dataset.toAct = String(ui.state.to_act);
  }

  function act(action) {
    if (ui.solved) return;
    const a = JSON.parse(String(call("judge", JSON.stringify({ action }))));
    const v = a.ok;
    if (a.error || !v.legal || v.right === false) {
      // the position stays; the reader picks again
      show(a.error ? wrongText({ code: a.code, params: a.params, text: a.error }, null) : wrongText(v, v.hint), "wrong");
      table.clearSelection();
      return;
    }
    if (v.state) ui.state = v.state;
    ui.solved = v.right === true;
    show(`\u2713 ${t("embed.sentence", { text: say(v.code, v.params, v.text) })}`, v.right ? "right" : "legal");
    draw();
  }

  draw();
  const controller = {
    element, table,
    get state() { return ui.state; },
    get solved() { return ui.solved; },
    get verdicts() { return ui.verdicts.slice(); },
    act,
    destroy() { table.destroy(); element.replaceChildren(); },
  };
  tables.push(controller);
  return controller;
}

const tables = [];

const api = { mount, fail, words, tables, language: () => language(), legalKey: "page.legal" };
globalThis.chkobbaPage = api;
export default api;
