// The shell around the table component: boot (web/shell/py.js), the computer
// players (in the same interpreter, web/ai.py), storage, dialogs and the flow of a match. The table
// itself is web/table/core.js with one renderer per game; no rule, score or
// winner is computed here either: the facade (chkobba/web/) decides.

import { humanSeat, mount, sideOf } from "./table/core.js";
import { initI18n, mountLanguagePicker, t, translateDom } from "./i18n/i18n.js";
import { FacadeError, afterFrame, bootState, keepSnapshotForLater, nextTask, py, startPlayers, think, timed, timings } from "./shell/py.js";
import * as store from "./shell/storage.js";
import { closeDialog, isOpen, openDialog, setupDialog } from "./shell/dialogs.js";
import { StartForm, describeTables, fillTimersSelect, timersOf } from "./shell/startform.js";
import { renderSummary } from "./shell/sheet.js";
import { messageText } from "./table/messages.js";
import { PageTimer } from "./shell/timers.js";
import { Handoff } from "./shell/handoff.js";
import { appendRoundReplay, initShare } from "./shell/share.js";
import { initStats, openStats, recordMatch } from "./shell/stats.js";
import * as sound from "./shell/sound.js";
import * as daily from "./shell/daily.js";
import * as challenge from "./shell/challenge.js";

// How long each computer move stays on its own before the next one (ms).
const { PACE_MS } = store;   // (the online host's computer seats keep the same pace)
// How long the end of a round shows before its summary opens.
const ROUND_END_MS = { slow: 3000, normal: 2200, fast: 1200, instant: 0 };

const $ = (id) => document.getElementById(id);
const root = document.documentElement;

// Languages (web/i18n/): the catalogs load before anything is drawn; the
// picker reloads the page in the chosen language (the game in progress is
// saved after every move and resumes).
await initI18n();
translateDom();
mountLanguagePicker(document.querySelector(".bar-actions .lang-slot"), { reload: true });

const app = {
  state: null,          // last state from the facade
  table: null,          // the mounted table component
  generation: 0,        // bumps on every new/resumed game: stale computer moves are dropped
  busy: false,          // a computer move is being fetched/applied
  paused: false,        // the round end or its summary is showing
  shownRounds: 0,       // finished rounds already summarised
  ai: null,             // Promise of the computer players (web/ai.py)
  pace: store.loadPace(Object.keys(PACE_MS)),
  timings,              // [what, start ms, duration ms] of main-thread work
  workerChoices: 0,     // computer moves the players (web/ai.py) answered
  hint: null,           // {state, pending, items, error}: the coach's answer for that state only
  hintsAsked: 0,
  form: null,
  persistence: store.persistence,
  damagedText: null,    // the damaged save offered for download
};
window.chkobbaApp = app; // for the e2e tests and for debugging

function paceMs() {
  return PACE_MS[app.pace] ?? PACE_MS.normal;
}

function names() {
  return app.table.names(app.state);
}

// ------------------------------------------------------------------ table

function tableConfig() {
  const h = app.hint && app.hint.state === app.state ? app.hint : null;
  // the computer's thinking shows at its seat, except at the instant pace (it would only flicker)
  return { state: app.state, busy: app.busy, hint: h, thinking: app.busy && app.pace !== "instant" };
}

// `opts` as the table's set() takes them (a round's end: { roundEndFrom }).
function render(opts) {
  if (!app.state) return;
  timed("render", () => app.table.set(tableConfig(), opts));
  syncShell();
  syncTakeback();
  syncTimers();
}

// ---- timers changed during a match (chkobba/web/clock.py): the switch under the table
function syncTimers() {
  const box = $("timers-switch"), sel = $("timers-select");
  const tm = app.state && app.state.timers;
  box.hidden = !(tm && tm.changeable);
  if (box.hidden) return;
  const key = JSON.stringify(tm.value);
  if (sel.dataset.value !== key || sel.dataset.lang !== document.documentElement.lang) {
    fillTimersSelect(sel, tm.value);
    sel.dataset.value = key;
    sel.dataset.lang = document.documentElement.lang;
  }
}

function changeTimers() {
  const sel = $("timers-select");
  let next;
  try {
    next = py("set_timers", { timers: timersOf(sel) });
  } catch (err) {
    sel.dataset.value = "";   // show the table's timers again
    syncTimers();
    app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) }, t("app.not_allowed"));
    return;
  }
  // the position is the same: no move to show and no computer to ask again
  app.state = next;
  timed("save", save);
  render();
}
// ---- end of timers

// ---- take-backs (chkobba/web/takebacks.py): the button under the table, against the computer only
function syncTakeback() {
  const b = $("takeback-button");
  const tb = app.state && app.state.takeback;
  b.hidden = !(tb && tb.allowed);
  b.disabled = !(tb && tb.possible) || app.busy || app.paused;
}

function takeBack() {
  const st = app.state;
  if (!st || !st.takeback || !st.takeback.possible || app.busy || app.paused) return;
  let next;
  try {
    next = py("take_back", {});
  } catch (err) {
    app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) }, t("app.not_allowed"));
    return;
  }
  app.generation += 1;   // a computer move asked before the take-back is dropped
  app.hint = null;
  app.table.showMessage(null);
  commit(next, null);
  app.table.refocus();
}
// ---- end of take-backs

// Pass-and-play hand-off screen and page-owned timers (web/shell/handoff.js, timers.js).
function syncShell() {
  const dialogOpen = !!document.querySelector("dialog[open]");
  app.handoff.sync(app.state, !app.paused && !dialogOpen);
  app.timer.sync(app.state, !app.busy && !app.paused && !app.handoff.open);
}

function reveal() {
  if (!app.state || app.state.handoff === null || app.state.handoff === undefined) return;
  let next;
  try {
    next = py("reveal", {});
  } catch (err) {
    app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) });
    return;
  }
  commit(next, null);
  app.table.refocus();
}

function ensureWorker() {
  if (!app.ai) {
    app.ai = startPlayers();
    app.ai.then(() => root.classList.add("ai-ready"), () => {});
    app.ai.catch((err) => app.table.showMessage({ error: t("app.error.worker", { error: String(err) }) }));
  }
  return app.ai;
}

// ------------------------------------------------------------------ moves

function humanAct(action) {
  const st = app.state;
  if (!st || st.to_act !== humanSeat(st) || app.busy || app.paused) return;
  let next;
  try {
    next = py("act", { action, seat: st.to_act });
  } catch (err) {
    if (err instanceof FacadeError) {
      app.table.showMessage(err.msg, t("app.not_allowed"));
      return;
    }
    throw err;
  }
  app.table.showMessage(null);
  commit(next, st);
}

function commit(next, before) {
  const rects = before ? app.table.cardRects() : null;
  app.state = next;
  sound.onChange(before, next, humanSeat(next), sideOf);   // web/shell/sound.js (off unless the player turns it on)
  saveSoon(next.save);
  recordMatch(next);   // a finished match, counted once (web/shell/stats.js)
  daily.startPar(next.save);   // a daily table: par thought in slices while the computers are idle
  const ended = roundEnded(next);
  if (ended && before) {
    // The last move and the cards left on the table show first; the
    // summary opens over them, never over the next deal.
    app.paused = true;
    const gen = app.generation;
    render({ roundEndFrom: before });   // the table as the round ended, drawn once
    // the summary's replay link, asked of the facade now, in a task of its own (showSummary)
    nextTask().then(() => { if (app.state === next) replayLinks(next); });
    const ms = ROUND_END_MS[app.pace] ?? ROUND_END_MS.normal;
    app.table.showRoundEnd(ms, rects, paceMs()).then(() => {
      if (gen === app.generation) checkRoundEnd();
    });
    return;
  }
  render();
  if (before && rects) timed("animate", () => app.table.animateMove(rects, paceMs()));
  checkRoundEnd();
  scheduleComputer();
}

function roundsDone(st) {
  return st.sheet && Array.isArray(st.sheet.rounds) ? st.sheet.rounds.length : st.view.results.length;
}

function roundEnded(st) {
  return roundsDone(st) > app.shownRounds;
}

// A move's save is a task of its own, right after the move is drawn (the
// save and the drawing in one task froze a slow phone: docs/main-thread.md).
// Saves are written in order, each once (the store keeps the one before as
// a fallback); leaving or hiding the page writes the waiting ones at once.
const unsaved = [];

function saveSoon(s) {
  unsaved.push(s);
  if (unsaved.length === 1) nextTask().then(saveNow);
}

function saveNow() {
  while (unsaved.length) {
    const s = unsaved.shift();
    timed("save", () => write(s));
  }
}

addEventListener("pagehide", saveNow);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") saveNow(); });
app.saveNow = saveNow;   // for the e2e tests: the saves not written yet, now

function save() {
  saveNow();
  write(app.state.save);
}

function write(s) {
  try {
    store.writeSave(s);
  } catch (err) {
    app.table.showMessage({ error: t("app.error.save", { error: err.message }) });
  }
}

function checkRoundEnd() {
  const st = app.state;
  const over = st.sheet ? st.sheet.over : st.to_act === null;
  if (roundsDone(st) > app.shownRounds || (over && !isOpen($("summary")) && roundsDone(st))) {
    app.shownRounds = roundsDone(st);
    timed("summary", showSummary);
  }
}

// The daily deal's result (web/shell/daily.js): a facade call in the page's
// interpreter (par is thought before, in slices: web/ai.py's ParTask).
async function askPlayers(name, args) {
  return py(name, args);
}

async function scheduleComputer() {
  const st = app.state;
  if (!st || st.to_act_kind !== "computer" || app.busy || app.paused) return;
  if (st.save.daily && roundsDone(st)) return;   // the daily deal is one round
  const gen = app.generation;
  const seat = st.to_act;
  app.busy = true;
  // The move just drawn (and its save) end their tasks first; the table
  // shows this computer thinking from the next task on (docs/main-thread.md).
  await nextTask();
  const began = performance.now();
  if (gen !== app.generation || app.state !== st) { app.busy = false; scheduleComputer(); return; }
  render();
  const t0 = performance.now();
  let action;
  try {
    // a daily deal's computers (web/shell/daily.js): a fixed budget, the same on every device
    // and a challenge's (web/shell/challenge.js): decided from the position and the seed
    const call = st.save.daily ? "daily_choose" : st.save.challenge ? "challenge_choose" : "choose";
    action = (await think(call, { save: st.save, seat })).action;
    app.workerChoices += 1;
  } catch (err) {
    app.busy = false;
    if (gen === app.generation) app.table.showMessage({ error: t("app.error.computer", { error: err.message || String(err) }) });
    render();
    return;
  }
  // Each computer move stays on the table for the chosen pace before the next.
  const wait = paceMs() - (performance.now() - t0);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  if (gen !== app.generation || app.state !== st || app.paused) { app.busy = false; scheduleComputer(); return; }
  let next;
  try {
    next = py("act", { action, seat });
  } catch (err) {
    app.busy = false;
    app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) }, t("app.computer_refused"));
    render();
    return;
  }
  // The facade's move and its drawing are tasks of their own (together they
  // made a computer move's longest task on a slow phone), and the drawing
  // comes after a frame: the places of the cards it reads first (the move's
  // flight) are then laid out already instead of forcing a layout of the
  // whole table in its task (docs/main-thread.md). The table
  // stays busy in between, so nothing else asks the facade.
  await afterFrame();
  app.busy = false;
  if (gen !== app.generation) return;
  // (a change of timers in between answered the table with this move in it)
  if (app.state !== st) { render(); scheduleComputer(); return; }
  commit(next, st);
  // for bench/main_thread.py: from the turn's first task to the move drawn
  timings.push(["computer move", Math.round(began), Math.round(performance.now() - began)]);
}

// ------------------------------------------------------------------ coach

async function requestHint() {
  const st = app.state;
  if (!st || !st.coach || st.to_act !== humanSeat(st) || app.busy || app.paused) return;
  if (app.hint && app.hint.state === st && app.hint.pending) return;
  app.hint = { state: st, pending: true, items: [] };
  app.hintsAsked += 1; // for the e2e tests: the coach runs only when asked
  render();
  let hint;
  try {
    const answer = await think("hint", { save: st.save, seat: humanSeat(st) });
    hint = { state: st, pending: false, items: answer.actions };
  } catch (err) {
    hint = { state: st, pending: false, items: [], error: err instanceof FacadeError ? err.msg : { error: String(err) } };
  }
  if (app.state !== st) return; // the position moved on: a stale hint is never shown
  app.hint = hint;
  render();
  const shown = $("table").querySelector(".hints, .coach");
  if (shown && shown.scrollIntoView) shown.scrollIntoView({ block: "nearest" });
}

// ------------------------------------------------------------------ round summary

// The round's replay link in the summary (web/shell/share.js) needs a facade
// call ("share"): it is made while the round's end shows, in a task of its
// own, so that the summary's task only draws (docs/main-thread.md).
let replayAsked = { save: null, links: null };

function replayLinks(st) {
  if (replayAsked.save !== st.save) {
    let links = null;
    try {
      links = py("share", { save: st.save, last_round: true });
    } catch {
      // no link, as appendRoundReplay does when the facade refuses
    }
    replayAsked = { save: st.save, links };
  }
  return replayAsked.links;
}

/** `py` for appendRoundReplay: its "share" answered from replayLinks. */
function replayPy(st) {
  return (name, args) => {
    if (name !== "share") return py(name, args);
    const links = replayLinks(st);
    if (!links) throw new Error("no replay link");
    return links;
  };
}

function showSummary() {
  const st = app.state;
  if (!roundsDone(st)) return;
  app.paused = true;
  app.table.cancelFlights();
  let { title, next } = renderSummary($("summary-body"), st, names());
  if (st.save.daily) next = dailySummary(st);   // the daily deal is one round: its result against par
  else challengeSummary(st, next);   // a challenge's comparison, or the offer to challenge a friend
  appendRoundReplay($("summary-body"), st, replayPy(st));   // issue 14: replay with every hand shown
  $("summary-title").textContent = title;
  const btn = $("summary-next");
  btn.textContent = next === "over" ? t("summary.play_again") : next === "game" ? t("summary.next_game") : t("summary.next_round");
  btn.dataset.next = next;
  $("summary-settings").hidden = next !== "over";
  $("summary-stats").hidden = next !== "over";   // the match just counted, over the summary
  $("summary").dataset.round = roundsDone(st);
  openDialog($("summary"), btn, null);
}

// ---- the daily deal (web/shell/daily.js)
function dailySummary(st) {
  daily.showResult($("summary-body"), st, askPlayers)
    .catch((err) => app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) }));
  return "over";
}

/** A daily or challenge link opened: its game, unless a game is in
 * progress, which is thrown away only when the player says so (the confirm
 * dialog); the same game already on the table just goes on. `opened()` runs
 * once the linked game is dealt (or already on the table). */
function openLinkedGame(settings, same, opened = () => {}) {
  const st = app.state;
  if (st && same(st)) { opened(); return; }
  if (gameInProgress()) {
    askToStart(settings, opened);
  } else if (newGame(settings, { split: false, remember: false })) {
    opened();
  }
}

/** The link's own parameters leave the address (the language and the rest stay). */
function dropLinkFromAddress() {
  const q = new URLSearchParams(location.search);
  for (const k of ["daily", "game", "vs", "challenge"]) q.delete(k);
  const rest = q.toString();
  history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
}

function startDaily(game) {
  let date;
  try {
    date = py("daily_today", { at: daily.nowSeconds() }).date;
  } catch (err) {
    if (err instanceof FacadeError) { showFormError(err); return; }
    throw err;
  }
  askToStart({ daily: { date, game } });
}
// ---- end of the daily deal

// ---- challenge a friend (web/shell/challenge.js)
function challengeSummary(st, next) {
  const said = (err) => app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) });
  try {
    const done = challenge.onSummary($("summary-body"), st, next, { py, think, rematch: playAgain });
    if (done) done.catch(said);
  } catch (err) {
    said(err);
  }
}
// ---- end of challenges

function closeSummary() {
  const next = $("summary-next").dataset.next;
  if (next === "over") { playAgain(); return; }
  closeDialog($("summary"), () => app.table.refocus());
  app.paused = false;

  app.table.endFrame();
  handOff();
  render();
  app.table.refocus();
  scheduleComputer();
}

// Pass-and-play: the round's end and its summary are read by whoever holds
// the device (the facade keeps their view after a round's last move); once
// the summary is closed the device goes to the next person to act, if that
// is someone else (the facade decides: `hand_off`).
function handOff() {
  const st = app.state;
  if (!st || st.handoff !== null || st.to_act === null || st.to_act_kind !== "human" || st.to_act === humanSeat(st)) return;
  try {
    app.state = py("hand_off", {});
  } catch (err) {
    app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) });
  }
}

function currentSettings() {
  const s = app.state && app.state.save;
  if (!s) return store.loadSettings();
  return { game: s.record.game || "chkobba", options: s.record.options, seats: s.seats, coach: s.coach === true };
}

function playAgain() {
  const settings = currentSettings();
  closeDialog($("summary"));
  app.paused = false;
  newGame(settings);
}

// ------------------------------------------------------------------ start screen

function showStart() {
  const settings = currentSettings();
  if (settings) app.form.load(settings);
  $("start-cancel").hidden = !app.state || gameOver();
  openDialog($("start"), $("start-button"));
}

function gameOver() {
  const st = app.state;
  return !st || (st.sheet ? st.sheet.over : st.to_act === null);
}

/** A game to keep: not over, and not a daily deal whose one round is done. */
function gameInProgress() {
  const st = app.state;
  return Boolean(st) && !gameOver() && !(st.save.daily && roundsDone(st));
}

function hideStart() {
  if (!app.state || gameOver()) return;
  closeDialog($("start"), () => app.table.refocus());
}

function submitStart() {
  askToStart(app.form.read());
}

function askToStart(settings, opened = null) {
  // A game in progress is only thrown away when the player says so.
  if (gameInProgress() && !isOpen($("summary"))) {
    app.pendingSettings = settings;
    app.pendingOpened = opened;   // what a linked game does once dealt (openLinkedGame)
    openDialog($("confirm"), $("confirm-no"));
    return;
  }
  if (newGame(settings) && opened) opened();
}

// The engine call and the first drawing of the new table run as two tasks,
// so neither holds the main thread for long. `split: false` at boot, where
// the table must be drawn before the page says it is ready.
function newGame(settings, { split = true, remember = true } = {}) {
  const seed = new URLSearchParams(location.search).get("seed");
  const seedNum = seed === null ? null : Number(seed);
  let st;
  try {
    st = settings.daily ? py("daily_start", daily.startArgs(settings.daily))
      : settings.challenge ? py("challenge_start", { link: settings.challenge })
        : py("start", { ...settings, seed: seed === null ? null : seedNum });
  } catch (err) {
    if (err instanceof FacadeError && (settings.daily || settings.challenge) && !isOpen($("start"))) {   // a daily or challenge link: one clear error
      const text = t(settings.daily ? "daily.bad_link" : "challenge.bad_link", { error: messageText(err.msg) });
      showNotice(text);
      formErrorText(text, true);   // seen over the start screen too, at its top
      return false;
    }
    if (err instanceof FacadeError) {
      if (isOpen($("start"))) showFormError(err);
      else app.table.showMessage(err.msg);
      return false;
    }
    throw err;
  }
  if (remember && !settings.daily && !settings.challenge) store.writeSettings(settings);
  // From here the facade plays the new game: moves of the old one are dropped.
  const gen = ++app.generation;
  const draw = () => {
    if (gen !== app.generation) return;
    app.busy = false;
    app.paused = false;
    app.shownRounds = 0;
    app.hint = null;
    for (const id of ["confirm", "start", "summary"]) closeDialog($(id));
    app.table.showMessage(null);
    app.table.endFrame();
    const intro = settings.challenge && st.sender;   // a challenge opens on who challenges you, before the cut
    if (intro) app.paused = true;
    commit(st, null);
    if (settings.daily && st.practice) showNotice(t("daily.practice"));   // the day's result is in already
    app.table.refocus();
    if (intro) challenge.showIntro(st, () => { app.paused = false; render(); });
  };
  if (split) setTimeout(draw, 0); else draw();
  return true;
}

function showFormError(err) {
  formErrorText(messageText(err.msg));
}

function formErrorText(text, top = false) {
  let p = $("start-form").querySelector(".form-error");
  if (!p) {
    p = document.createElement("p");
    p.className = "form-error";
    p.setAttribute("role", "alert");
    if (top) $("start-form").querySelector("h2").after(p);
    else $("start-form").querySelector(".form-actions").before(p);
  }
  p.textContent = text;
}

// ------------------------------------------------------------------ saves

/** true: resumed; false: nothing saved; null: the save was damaged (kept aside). */
function resumeSaved() {
  const raw = store.loadSaveText();
  if (raw === null) return false;
  const attempt = (text) => {
    try {
      return { st: py("resume", { save: JSON.parse(text) }) };
    } catch (err) {
      if (err instanceof SyntaxError) return { reason: t("app.save_unreadable") };
      if (err instanceof FacadeError) return { reason: messageText(err.msg) };
      throw err;
    }
  };
  let { st, reason } = attempt(raw);
  if (!st) {
    // Kept aside as before; then the save before it (a move earlier), if any.
    store.keepDamaged(raw, reason);
    app.damagedText = raw;
    const previous = store.loadPreviousSaveText();
    st = previous === null ? null : attempt(previous).st;
    if (!st) {
      store.clearSave();
      showNotice(t("app.save_damaged"), true);
      return null;
    }
    store.restorePrevious();
    showNotice(t("app.save_damaged_previous"), true);
  }
  app.generation++;
  const finishedChallenge = st.save.challenge && (st.sheet ? st.sheet.over : st.to_act === null);
  app.shownRounds = st.save.daily || finishedChallenge ? 0 : roundsDone(st);   // a finished daily deal or challenge shows its result again
  commit(st, null);
  return true;
}

function showNotice(text, download = false) {
  const n = $("notice");
  n.querySelector(".notice-text").textContent = text;
  n.querySelector(".notice-download").hidden = !download;
  n.hidden = !text;
}

function downloadDamaged() {
  if (!app.damagedText) return;
  const blob = new Blob([app.damagedText], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `chkobba-damaged-save-${new Date().toISOString().slice(0, 19).replace(/:/g, "-")}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

// ------------------------------------------------------------------ boot

function wire() {
  $("new-game").addEventListener("click", showStart);
  $("takeback-button").addEventListener("click", takeBack);
  $("timers-select").addEventListener("change", changeTimers);
  $("start-cancel").addEventListener("click", hideStart);
  $("start-form").addEventListener("submit", (e) => { e.preventDefault(); submitStart(); });
  $("summary-next").addEventListener("click", closeSummary);
  $("summary-stats").addEventListener("click", openStats);
  $("summary-settings").addEventListener("click", () => {
    closeDialog($("summary"));
    showStart();
  });
  $("confirm-yes").addEventListener("click", () => {
    const s = app.pendingSettings, opened = app.pendingOpened;
    app.pendingOpened = null;
    closeDialog($("confirm"));
    if (s && newGame(s) && opened) opened();
  });
  $("confirm-no").addEventListener("click", () => closeDialog($("confirm")));
  setupDialog($("start"), { onCancel: hideStart });
  // Escape on the summary goes on as its button does (next round or game); at
  // the end of the match it only closes the summary, over the final table.
  setupDialog($("summary"), {
    onCancel: () => ($("summary-next").dataset.next === "over"
      ? closeDialog($("summary"), () => app.table.refocus()) : closeSummary()),
  });
  setupDialog($("confirm"), { onCancel: () => closeDialog($("confirm")) });
  $("notice").querySelector(".notice-dismiss").addEventListener("click", () => {
    showNotice("");
    app.table.refocus();
  });
  $("notice").querySelector(".notice-download").addEventListener("click", downloadDamaged);
  const pace = $("pace");
  pace.value = app.pace;
  pace.addEventListener("change", () => {
    app.pace = pace.value;
    store.writePace(app.pace);
  });
  sound.mountSoundSwitch(document.querySelector(".share-bar"), $("share-button"));   // under the table (the top bar is full on phones)
  sound.listenForGestures();
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea, dialog") || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (document.querySelector("dialog[open]") || !app.state || app.handoff.open) return;
    if (e.key.toLowerCase() === "h") { if (app.state.coach) requestHint(); return; }
    app.table.key(e.key);
  });
}

function onPythonReady() {
  // Messages are rendered from their codes in the page's language (the
  // catalogs' msg.<code>), so the facade's English templates are not fetched.
  app.form = new StartForm($("start-form"), describeTables(py));
  app.table.set({ loading: t("app.ready") });
  $("start-button").disabled = false;
  daily.mountEntries($("start-form"), startDaily, py);
  daily.whenIdle(() => !app.busy);
  const link = daily.linkedDeal();   // ?daily=YYYY-MM-DD&game=...: that date's deal (checked by the facade)
  const dare = link ? null : challenge.linkedChallenge();   // ?challenge=x1...: a friend's match (checked by the facade)
  if (link || dare !== null) dropLinkFromAddress();   // a reload resumes the deal, it does not deal it again
  const resumed = resumeSaved();
  if (link) openLinkedGame({ daily: link }, (st) => st.save.daily === link.date && st.game === link.game, () => daily.keepFriend(link));
  else if (dare !== null) openLinkedGame({ challenge: dare }, (st) => st.save.challenge === dare);
  if (app.state) {
    // the saved game, or the linked one
  } else if (resumed === null) {
    const last = store.loadSettings();
    if (!last || !newGame(last, { split: false })) newGame({ game: "chkobba", options: { players: 2 }, seats: null }, { split: false, remember: false });
  } else if (!resumed) {
    showStart();
  }
  root.classList.remove("booting");
  root.classList.add("ready");
  performance.mark("chkobba:ready");
  // The computer players start once the table is usable; then the offline
  // copy of the site is made (see sw.js), then, when this visit had no
  // snapshot, one is made in the background for the next (docs/boot.md).
  setTimeout(() => ensureWorker().finally(registerServiceWorker).finally(keepSnapshotForLater), 0);
}

// Updates that never break a game (web/update.js): registerServiceWorker()
// calls wireUpdates(initUpdates) once after boot. A new version is offered only while no round is
// in progress (no game, a round summary, or the end of the match).
function canReloadNow() {
  return !app.state || app.paused || gameOver();
}

function offerUpdate(apply) {
  const bar = $("update");
  bar.hidden = !apply;
  root.classList.toggle("update-offered", !!apply);
  $("update-reload").onclick = apply || null;
  placeUpdateOffer();
}

// A modal dialog makes the page behind it inert: the offer lives inside the
// open dialog, and moves whenever a dialog opens or closes.
function placeUpdateOffer() {
  const bar = $("update");
  if (bar.hidden) return;
  const open = [...document.querySelectorAll("dialog[open]")].pop();
  const home = open ? open.querySelector(".summary-box, .start-form") || open : document.body;
  if (bar.parentElement !== home) home.append(bar);
}
document.addEventListener("chkobba:dialog", placeUpdateOffer);

export function wireUpdates(initUpdates) {
  return initUpdates({ canReloadNow, onUpdateReady: offerUpdate })
    .then((u) => { if (u) root.classList.add("sw-registered"); return u; });
}
app.wireUpdates = wireUpdates;

// Offline play and updates (web/update.js registers the service worker only on
// https or on this machine, and offers a new version between rounds).
function registerServiceWorker() {
  return import("./update.js").then(({ initUpdates }) => wireUpdates(initUpdates));
}

app.table = mount($("table"), { state: null, onAction: humanAct, onHint: requestHint, quickCapture: true });
// What the boot is doing, in the page's language, until the table is ready.
function showBoot(s) {
  if (app.state || root.classList.contains("ready")) return;
  const percent = s.total ? Math.min(100, Math.floor((100 * s.loaded) / s.total)) : 0;
  const text = s.phase === "download" ? t("boot.download", { percent }) : t("boot.start");
  app.table.set({ loading: text });
  root.dataset.boot = s.phase;
}
if (!window.chkobbaPy) {
  showBoot(bootState);
  window.addEventListener("chkobba:boot-progress", (e) => showBoot(e.detail));
}
app.handoff = new Handoff({ onReveal: reveal, guarded: () => [$("table"), document.querySelector("header.bar"), document.querySelector(".share-bar")] });
app.timer = new PageTimer({ onTimeout: () => humanAct("timeout"), display: () => $("table").querySelector(".sd-timer"), onSecond: sound.onTimerSecond });
app.sound = sound;   // for the e2e tests
app.daily = daily;   // for the e2e tests
initShare({ getState: () => app.state, py });   // the Share dialog (web/shell/share.js)
initStats({ py, before: (save) => (save.challenge ? challenge.checkMatch(save, think) : null) });   // the Statistics button and dialog (web/shell/stats.js, issue 12)
wire();
window.addEventListener("py:error", () => root.classList.add("failed"));
performance.mark("chkobba:page");   // the page's own modules are in (bench/boot.py)
if (window.chkobbaPy) onPythonReady();
else window.addEventListener("chkobba:python-ready", onPythonReady, { once: true });
