// The controls under the table page's table besides Share: the switch of
// timers changed during a match and the take-back button (the facade says
// when each is offered and allowed).

import { t } from "../i18n/i18n.js";
import { FacadeError, py, timed } from "./py.js";
import { fillTimersSelect, timersOf } from "./startform.js";
import { $, app } from "./app-state.js";
import { commit, render } from "./moves.js";
import { save } from "./saves.js";

// ---- timers changed during a match (chkobba/web/clock.py): the switch under the table
export function syncTimers() {
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

export function changeTimers() {
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
export function syncTakeback() {
  const b = $("takeback-button");
  const tb = app.state && app.state.takeback;
  b.hidden = !(tb && tb.allowed);
  b.disabled = !(tb && tb.possible) || app.busy || app.paused;
}

export function takeBack() {
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
