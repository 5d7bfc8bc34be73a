// embed.html#<link>: one table made for an <iframe> (docs/embeds.md). The
// fragment is a link of chkobba.links (docs/links.md); its mode says what the
// frame does: replay (step through the record), play (the reader takes a seat
// at the position against the computer) or puzzle (find the best move).
// Nothing heavy loads before the frame is on screen; nothing is stored;
// anything wrong with the fragment is one line of text (never markup).

import { whenVisible } from "./python.js";
import { connect, EngineLost, FacadeError } from "./transport.js";
import { mount } from "../table/core.js";
import { messageHtml, messageText, setTemplates } from "../table/messages.js";
import { MODES, computerTurns as playOn, modeStatus as statusOf, puzzleVerdict, replayIndex, viewOnly } from "./modes.js";
import { initI18n, mountLanguagePicker, t, translateDom } from "../i18n/i18n.js";
import { renderSummary } from "../shell/sheet.js";

const MAX_LINK = 6000;         // as chkobba.links: longer is refused unread
const TABLE = "embed";
const STEP_MS = 900;           // replay's play button, one move per step

const $ = (s) => document.querySelector(s);
const ui = { table: null, info: null, timer: null, busy: false, error: null, solved: false, pending: 0, via: null };
window.chkobbaEmbed = ui;      // for tests and the curious

let engine = null;             // transport.js: the page's hub or the frame's own interpreter

/**
 * One facade call. While it is out the table waits: no move can be made,
 * the replay buttons are off and the status line ends in "…".
 */
async function ask(name, args) {
  ui.pending++;
  waiting();
  try {
    return await engine(name, args);
  } finally {
    ui.pending--;
    waiting();
  }
}

function waiting() {
  document.body.dataset.pending = String(ui.pending);
  if (!ui.table || !ui.info) return;
  ui.table.set({ busy: ui.busy || ui.pending > 0 });
  replayButtons();
}

/** A call that failed for want of an engine (not a refusal): one line, and stop. */
function lost(err) {
  if (!(err instanceof EngineLost)) console.error(err);
  stopTimer();
  fail(t("embed.error.engine"));
}

let lastHeight = 0;
function postHeight() {
  const h = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (h === lastHeight) return;
  lastHeight = h;
  if (window.parent !== window) {
    try { window.parent.postMessage({ type: "chkobba:height", height: h }, "*"); } catch { /* no parent */ }
  }
}

function fail(text) {
  ui.error = text;
  const m = $(".embed-msg");
  m.textContent = text;            // text, never markup
  m.hidden = false;
  $(".embed-wait").hidden = true;
  $(".embed-table").hidden = true;
  $(".embed-controls").hidden = true;
  document.body.dataset.state = "error";
  postHeight();
}

/** The fragment, or a one-line reason it cannot be a link (checked before any Python). */
function fragment() {
  let text = location.hash.slice(1);
  if (text.length > MAX_LINK) return { error: t("embed.error.too_long") };
  try { text = decodeURIComponent(text); } catch { return { error: t("embed.error.damaged") }; }
  if (!text) return { error: t("embed.error.empty") };
  if (!/^[A-Za-z0-9._-]+$/.test(text)) return { error: t("embed.error.characters") };
  return { text };
}

function setVerdict(html, cls) {
  const v = $(".embed-verdict");
  v.className = `embed-verdict ${cls || ""}`;
  v.innerHTML = html;
  v.hidden = !html;
  postHeight();
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function show(answer) {
  ui.info = answer;
  const st = answer.state;
  const mode = answer.mode;
  ui.table.set({
    state: st,
    viewOnly: viewOnly(answer, ui.solved),
    busy: ui.busy || ui.pending > 0,
  });
  document.body.dataset.state = "ready";
  document.body.dataset.index = answer.index;
  const pos = $(".embed-pos");
  if (pos && mode === "replay") {
    pos.textContent = t("embed.replay.position", { n: answer.index + 1, count: answer.count });
  }
  replayButtons();
  // play: whose turn it is is the table's own status line (no second line here)
  const rounds = st.sheet && st.sheet.rounds;
  const box = $(".embed-rounds");
  if (rounds && rounds.length) {
    renderSummary($(".embed-rounds-body"), st, ui.table.names(st));
    box.hidden = false;
  } else {
    box.hidden = true;
  }
  postHeight();
}

/** The replay's buttons: off at the ends, and while a call is out (but pause). */
function replayButtons() {
  const answer = ui.info;
  if (!answer || answer.mode !== "replay") return;
  for (const b of document.querySelectorAll(".embed-controls [data-go]")) {
    const go = b.dataset.go;
    b.disabled = (go === "play" && ui.timer) ? false : ui.pending > 0 ||
      ((go === "first" || go === "back") ? answer.index === 0 : (go === "forward" || go === "last" || go === "play") && answer.index >= answer.count - 1 && !ui.timer);
  }
}

/**
 * The status line of the table, for each mode. A replay is watched, not
 * played: it says which move is shown and whose it was, never asks for one.
 * Play uses the table's own words (your turn / the computer's); a puzzle
 * asks for the best move until it is solved.
 */
function statusText(st, table) {
  const text = modeStatus(st, table);
  return ui.pending > 0 && !text.endsWith("\u2026") ? `${text} \u2026` : text;
}

function modeStatus(st, table) {
  return statusOf(ui.info, ui.solved, st, table);
}

// ------------------------------------------------------------------ replay

function replayControls() {
  const c = $(".embed-controls");
  const a = (key) => esc(t(key));
  c.innerHTML = `
    <button type="button" class="btn small" data-go="first" aria-label="${a("embed.first")}" title="${a("embed.first_title")}">&laquo;</button>
    <button type="button" class="btn small" data-go="back" aria-label="${a("embed.back")}" title="${a("embed.back_title")}">&lsaquo;</button>
    <button type="button" class="btn small primary" data-go="play" title="${a("embed.play_title")}">${a("embed.play")}</button>
    <button type="button" class="btn small" data-go="forward" aria-label="${a("embed.forward")}" title="${a("embed.forward_title")}">&rsaquo;</button>
    <button type="button" class="btn small" data-go="last" aria-label="${a("embed.last")}" title="${a("embed.last_title")}">&raquo;</button>
    <span class="embed-pos" aria-live="polite"></span>`;
  c.hidden = false;
  c.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-go]");
    if (b) replayGo(b.dataset.go);
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last", " ": "play" };
    const go = keys[e.key];
    if (!go) return;
    if (go === "play" && e.target.closest && e.target.closest("button, summary, a")) return;
    e.preventDefault();
    replayGo(go);
  });
}

function stopTimer() {
  if (!ui.timer) return;
  clearInterval(ui.timer);
  ui.timer = null;
  const b = $('[data-go="play"]');
  b.textContent = t("embed.play");
}

function replayGo(go) {
  const info = ui.info;
  if (!info) return;
  if (go === "play") {
    if (ui.timer) { stopTimer(); show(info); return; }
    if (info.index >= info.count - 1) return;
    const b = $('[data-go="play"]');
    b.textContent = t("embed.pause");
    ui.timer = setInterval(() => {
      if (ui.pending) return;           // the move before is still on its way
      if (ui.info.index >= ui.info.count - 1) { stopTimer(); show(ui.info); return; }
      step(ui.info.index + 1);
    }, STEP_MS);
    return;
  }
  stopTimer();
  if (ui.pending) return;               // one step at a time
  step(replayIndex(go, info.index, info.count));
}

async function step(index) {
  if (index === ui.info.index) return show(ui.info);
  let answer;
  try {
    answer = await ask("link_step", { table: TABLE, index });
  } catch (err) {
    if (err instanceof FacadeError) { ui.table.showMessage(err.msg, ""); return; }
    return lost(err);
  }
  show(answer);
}

// -------------------------------------------------------------------- play

async function computerTurns() {
  try {
    await playOn((name, args) => ask(name, { table: TABLE, ...args }), () => ui.info,
      (answer, busy) => { ui.busy = busy; show(answer); });
  } catch (err) {
    ui.busy = false;
    if (err instanceof FacadeError) { ui.table.showMessage(err.msg, ""); show(ui.info); return; }
    return lost(err);
  }
}

async function playAct(action) {
  if (ui.busy || ui.pending) return;
  let a;
  try {
    a = await ask("link_act", { table: TABLE, action });
  } catch (err) {
    if (err instanceof FacadeError) { ui.table.showMessage(err.msg, t("app.not_allowed")); return; }
    return lost(err);
  }
  ui.table.showMessage(null);
  show(a);
  computerTurns();
}

// ------------------------------------------------------------------ puzzle

async function puzzleAct(action) {
  if (ui.solved || ui.pending) return;
  let r;
  try {
    r = await ask("link_judge", { table: TABLE, action });
  } catch (err) {
    if (err instanceof FacadeError) { ui.table.showMessage(err.msg, ""); return; }
    return lost(err);
  }
  const v = puzzleVerdict(r);
  if (v.kind === "illegal") {
    ui.table.showMessage({ code: r.code, params: r.params, error: r.text }, t("app.not_allowed"));
    setVerdict(`<span class="mark" aria-hidden="true">\u2717</span> ${esc(v.text)}`, "wrong");
    document.body.dataset.verdict = "illegal";
    return;
  }
  ui.table.showMessage(null);
  // The coach's reasons as messages, worded in the page's language.
  const reasonHtml = (msg, text) => (msg ? messageHtml({ ...msg, text }) : esc(text));
  const why = r.reason ? ` <span class="why">${reasonHtml(r.reason_message, r.reason)}</span>` : "";
  if (v.solved) {
    ui.solved = true;
    const best = r.best && r.best.reason ? ` <span class="why">${reasonHtml(r.best.message, r.best.reason)}</span>` : why;
    setVerdict(`<span class="mark" aria-hidden="true">\u2713</span> ${esc(v.text)}${best}`, "right");
    document.body.dataset.verdict = "right";
    show(ui.info);
  } else {
    setVerdict(`<span class="mark" aria-hidden="true">\u2717</span> ${esc(v.text)}${why} ${esc(v.again)}`, "wrong");
    document.body.dataset.verdict = "wrong";
  }
}

// -------------------------------------------------------------------- boot

async function boot() {
  await initI18n();
  translateDom();
  mountLanguagePicker($(".embed-bar .lang-slot"), { reload: true });
  new ResizeObserver(postHeight).observe(document.documentElement);
  postHeight();
  const frag = fragment();
  if (frag.error) return fail(frag.error);
  await whenVisible($("#embed"));
  // the page's hub (under embed/host.js) or an interpreter of the frame's own
  try {
    const got = await connect();
    engine = got.call;
    ui.via = got.via;
    document.body.dataset.via = got.via;
  } catch {
    return fail(t("embed.error.engine"));
  }
  let answer;
  try {
    setTemplates((await ask("messages", {})).messages);
    answer = await ask("link_open", { table: TABLE, link: frag.text });
  } catch (err) {
    if (err instanceof FacadeError) return fail(t("embed.error.link", { reason: messageText(err.msg) }));
    if (err instanceof EngineLost) return fail(t("embed.error.engine"));
    return fail(t("embed.error.link_plain"));
  }
  $(".embed-wait").hidden = true;
  $(".embed-mode").textContent = MODES[answer.mode] ? t(MODES[answer.mode]) : "";
  document.body.dataset.mode = answer.mode;
  const onAction = answer.mode === "play" ? playAct : answer.mode === "puzzle" ? puzzleAct : null;
  document.body.dataset.game = answer.state.game;
  // Both games on the table component with their own renderer (the main
  // table's look). The status line is the embed's own (statusText): a replay
  // describes the move shown, a puzzle asks for the best move.
  ui.table = mount($(".embed-table"), {
    state: null, viewOnly: answer.mode === "replay", onAction, logOpen: false,
    turnText: statusText, markPlayable: answer.mode === "play",
  });
  ui.table.set({ state: answer.state });
  if (answer.mode === "replay") replayControls();
  else {
    const c = $(".embed-controls");
    c.innerHTML = '<span class="embed-pos" aria-live="polite"></span>';
    c.hidden = false;
  }
  // A puzzle's question is the table's status line (statusText).
  show(answer);
  if (answer.mode === "play") computerTurns();
}

window.addEventListener("hashchange", () => location.reload());
boot().catch(() => fail(t("embed.error.other")));
