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
import { MODES, computerTurns, modeStatus, puzzleVerdict, replayIndex, viewOnly } from "../embed/modes.js";
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

/**
 * A live table in one of the embeds' modes (replay, play, puzzle) in
 * `element`: `first` is the facade's link_open answer, `call(name, json)`
 * makes the mode's facade calls (chkobba.page.Live.call). What each mode
 * does is embed/modes.js's, as in an embed frame. Returns its controller.
 */
function mountLive(element, firstJSON, call) {
  const first = JSON.parse(String(firstJSON));
  const mode = first.mode;
  scope(element);
  const root = el("div", `chkobba-page-table chkobba-page-${mode}`);
  const label = el("p", "chkobba-page-mode");
  label.textContent = MODES[mode] ? t(MODES[mode]) : "";
  const felt = el("div", "chkobba-page-felt");
  const verdict = el("p", "chkobba-page-verdict");
  verdict.setAttribute("role", "status");
  verdict.setAttribute("aria-live", "polite");
  verdict.hidden = true;
  root.append(label, felt);
  element.replaceChildren(root);
  element.dataset.chkobba = "ready";
  element.dataset.mode = mode;

  const ui = { info: first, solved: false, busy: false, verdicts: [], moves: [] };

  /** A facade call: its answer, or a rejection carrying the refusal's message. */
  function ask(name, args) {
    const a = JSON.parse(String(call(name, JSON.stringify(args))));
    if (a.error) throw Object.assign(new Error(a.error), { msg: { code: a.code, params: a.params, error: a.error } });
    return a.ok;
  }

  function say1(text, cls) {
    ui.verdicts.push({ cls, text });
    verdict.className = `chkobba-page-verdict ${cls}`;
    verdict.textContent = text;
    verdict.hidden = !text;
    element.dataset.verdict = cls;
  }

  function refused(err, prefix) {
    if (!err.msg) throw err;
    table.showMessage(err.msg, prefix);
    say1(`\u2717 ${t("embed.not_allowed", { reason: messageText(err.msg) })}`, "wrong");
  }

  function show(answer) {
    ui.info = answer;
    table.set({ state: answer.state, viewOnly: viewOnly(answer, ui.solved), busy: ui.busy });
    element.dataset.toAct = String(answer.state.to_act);
    element.dataset.index = String(answer.index);
    if (buttons) {
      for (const b of buttons.querySelectorAll("[data-go]")) {
        const go = b.dataset.go;
        b.disabled = go === "back" || go === "first" ? answer.index === 0 : answer.index >= answer.count - 1;
      }
      pos.textContent = t("embed.replay.position", { n: answer.index + 1, count: answer.count });
    }
  }

  function replayGo(go) {
    const to = replayIndex(go, ui.info.index, ui.info.count);
    if (to === ui.info.index) return;
    try { show(ask("link_step", { index: to })); } catch (err) { refused(err, ""); }
  }

  async function playAct(action) {
    if (ui.busy) return;
    let a;
    try { a = ask("link_act", { action }); } catch (err) { refused(err, t("app.not_allowed")); table.clearSelection(); return; }
    table.showMessage(null);
    verdict.hidden = true;
    show(a);
    try {
      await computerTurns(async (name, args) => {
        const b = ask(name, args);
        if (b.action) ui.moves.push(b.action);
        return b;
      }, () => ui.info, (answer, busy) => { ui.busy = busy; show(answer); });
    } catch (err) {
      ui.busy = false;
      refused(err, "");
      show(ui.info);
    }
  }

  function puzzleAct(action) {
    if (ui.solved) return;
    let r;
    try { r = ask("link_judge", { action }); } catch (err) { refused(err, ""); return; }
    const v = puzzleVerdict(r);
    if (v.kind === "illegal") {
      table.showMessage({ code: r.code, params: r.params, error: r.text }, t("app.not_allowed"));
      say1(`\u2717 ${v.text}`, "wrong");
      table.clearSelection();
      return;
    }
    table.showMessage(null);
    if (v.solved) {
      ui.solved = true;
      say1(`\u2713 ${v.text}`, "right");
      show(ui.info);
    } else {
      say1(`\u2717 ${v.text} ${v.again}`, "wrong");
      table.clearSelection();
    }
  }

  const onAction = mode === "play" ? playAct : mode === "puzzle" ? puzzleAct : null;
  const table = mountTable(felt, {
    state: null, logOpen: false, viewOnly: mode === "replay", onAction, markPlayable: mode === "play",
    turnText: (st, tbl) => modeStatus(ui.info, ui.solved, st, tbl),
  });

  let buttons = null;
  let pos = null;
  if (mode === "replay") {
    buttons = el("div", "chkobba-page-controls");
    for (const [go, glyph] of [["first", "\u00ab"], ["back", "\u2039"], ["forward", "\u203a"], ["last", "\u00bb"]]) {
      const b = el("button", "btn small");
      b.type = "button";
      b.dataset.go = go;
      b.textContent = glyph;
      b.setAttribute("aria-label", t(`embed.${go}`));
      b.title = t(`embed.${go}`);
      buttons.append(b);
    }
    pos = el("span", "chkobba-page-pos");
    pos.setAttribute("aria-live", "polite");
    buttons.append(pos);
    buttons.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-go]");
      if (b) replayGo(b.dataset.go);
    });
    root.append(buttons);
  }
  root.append(verdict);

  show(first);
  const controller = {
    element, table, mode,
    get state() { return ui.info.state; },
    get answer() { return ui.info; },
    get solved() { return ui.solved; },
    get busy() { return ui.busy; },
    get verdicts() { return ui.verdicts.slice(); },
    get moves() { return ui.moves.slice(); },
    act: (action) => (onAction ? onAction(action) : undefined),
    go: replayGo,
    destroy() { table.destroy(); element.replaceChildren(); },
  };
  tables.push(controller);
  if (mode === "play") {
    computerTurns(async (name, args) => ask(name, args), () => ui.info, (answer, busy) => { ui.busy = busy; show(answer); })
      .catch((err) => { ui.busy = false; refused(err, ""); });
  }
  return controller;
}

const tables = [];

const api = { mount, mountLive, fail, words, tables, language: () => language(), legalKey: "page.legal" };
globalThis.chkobbaPage = api;
export default api;
