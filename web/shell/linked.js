// The table page's glue to the daily deal (web/shell/daily.js) and to a
// friend's challenge (web/shell/challenge.js): the games their links open,
// the daily entries' start, and their parts of the round summary.

import { FacadeError, py, think } from "./py.js";
import * as daily from "./daily.js";
import * as challenge from "./challenge.js";
import { $, app, gameInProgress } from "./app-state.js";
import { askToStart, newGame, showFormError } from "./start.js";
import { playAgain } from "./summary.js";

// The daily deal's result (web/shell/daily.js): a facade call in the page's
// interpreter (par is thought before, in slices: web/ai.py's ParTask).
async function askPlayers(name, args) {
  return py(name, args);
}

// ---- the daily deal (web/shell/daily.js)
export function dailySummary(st) {
  daily.showResult($("summary-body"), st, askPlayers)
    .catch((err) => app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) }));
  return "over";
}

/** A daily or challenge link opened: its game, unless a game is in
 * progress, which is thrown away only when the player says so (the confirm
 * dialog); the same game already on the table just goes on. `opened()` runs
 * once the linked game is dealt (or already on the table). */
export function openLinkedGame(settings, same, opened = () => {}) {
  const st = app.state;
  if (st && same(st)) { opened(); return; }
  if (gameInProgress()) {
    askToStart(settings, opened);
  } else if (newGame(settings, { split: false, remember: false })) {
    opened();
  }
}

/** The link's own parameters leave the address (the language and the rest stay). */
export function dropLinkFromAddress() {
  const q = new URLSearchParams(location.search);
  for (const k of ["daily", "game", "vs", "challenge"]) q.delete(k);
  const rest = q.toString();
  history.replaceState(null, "", location.pathname + (rest ? `?${rest}` : "") + location.hash);
}

export function startDaily(game) {
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
export function challengeSummary(st, next) {
  const said = (err) => app.table.showMessage(err instanceof FacadeError ? err.msg : { error: String(err) });
  try {
    const done = challenge.onSummary($("summary-body"), st, next, { py, think, rematch: playAgain });
    if (done) done.catch(said);
  } catch (err) {
    said(err);
  }
}
// ---- end of challenges
