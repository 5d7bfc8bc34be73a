// A match on the table page: the table drawn from the facade's state, the
// player's moves and the computers' (each at the chosen pace), the coach's
// hint, the hand-off screen and the page's timers kept in step. No rule is
// decided here: the facade (chkobba/web/) answers every move.

import { humanSeat, sideOf } from "../table/core.js";
import { t } from "../i18n/i18n.js";
import { FacadeError, afterFrame, nextTask, py, startPlayers, think, timed, timings } from "./py.js";
import { recordMatch } from "./stats.js";
import * as sound from "./sound.js";
import * as daily from "./daily.js";
import { $, app, paceMs, root, roundsDone } from "./app-state.js";
import { syncTakeback, syncTimers } from "./controls.js";
import { saveSoon } from "./saves.js";
import { checkRoundEnd, replayLinks } from "./summary.js";

// How long the end of a round shows before its summary opens.
const ROUND_END_MS = { slow: 3000, normal: 2200, fast: 1200, instant: 0 };

function tableConfig() {
  const h = app.hint && app.hint.state === app.state ? app.hint : null;
  // the computer's thinking shows at its seat, except at the instant pace (it would only flicker)
  return { state: app.state, busy: app.busy, hint: h, thinking: app.busy && app.pace !== "instant" };
}

// `opts` as the table's set() takes them (a round's end: { roundEndFrom }).
export function render(opts) {
  if (!app.state) return;
  timed("render", () => app.table.set(tableConfig(), opts));
  syncShell();
  syncTakeback();
  syncTimers();
}

// Pass-and-play hand-off screen and page-owned timers (web/shell/handoff.js, timers.js).
export function syncShell() {
  const dialogOpen = !!document.querySelector("dialog[open]");
  app.handoff.sync(app.state, !app.paused && !dialogOpen);
  app.timer.sync(app.state, !app.busy && !app.paused && !app.handoff.open);
}

export function reveal() {
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

export function ensureWorker() {
  if (!app.ai) {
    app.ai = startPlayers();
    app.ai.then(() => root.classList.add("ai-ready"), () => {});
    app.ai.catch((err) => app.table.showMessage({ error: t("app.error.worker", { error: String(err) }) }));
  }
  return app.ai;
}

export function humanAct(action) {
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

export function commit(next, before) {
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

function roundEnded(st) {
  return roundsDone(st) > app.shownRounds;
}

export async function scheduleComputer() {
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

export async function requestHint() {
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
