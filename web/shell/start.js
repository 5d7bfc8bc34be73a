// The table page's start screen and the dealing of a new game (the facade
// deals: a game of the chosen settings, a daily deal or a challenge), with
// the confirmation before a game in progress is thrown away.

import { t } from "../i18n/i18n.js";
import { FacadeError, py } from "./py.js";
import * as store from "./storage.js";
import { closeDialog, isOpen, openDialog } from "./dialogs.js";
import { messageText } from "../table/messages.js";
import { DEFAULT_GAME } from "../table/core.js";
import * as daily from "./daily.js";
import * as challenge from "./challenge.js";
import { $, app, gameInProgress, gameOver } from "./app-state.js";
import { commit, render } from "./moves.js";
import { showNotice } from "./saves.js";

export function currentSettings() {
  const s = app.state && app.state.save;
  if (!s) return store.loadSettings();
  return { game: s.record.game || DEFAULT_GAME, options: s.record.options, seats: s.seats, coach: s.coach === true };
}

// ------------------------------------------------------------------ start screen

export function showStart() {
  const settings = currentSettings();
  if (settings) app.form.load(settings);
  $("start-cancel").hidden = !app.state || gameOver();
  openDialog($("start"), $("start-button"));
}

export function hideStart() {
  if (!app.state || gameOver()) return;
  closeDialog($("start"), () => app.table.refocus());
}

export function submitStart() {
  askToStart(app.form.read());
}

export function askToStart(settings, opened = null) {
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
export function newGame(settings, { split = true, remember = true } = {}) {
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

export function showFormError(err) {
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
