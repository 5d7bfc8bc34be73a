// The table page's shared state (web/app.js and the web/shell/ modules of its
// match read and change it): the facade's last state, the mounted table and
// the flags of the match in progress, with the few questions asked of them
// in several places (the pace, the names, how many rounds are done, whether
// the game is over).

import { timings } from "./py.js";
import * as store from "./storage.js";

// How long each computer move stays on its own before the next one (ms).
const { PACE_MS } = store;   // (the online host's computer seats keep the same pace)

export const $ = (id) => document.getElementById(id);
export const root = document.documentElement;

export const app = {
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

export function paceMs() {
  return PACE_MS[app.pace] ?? PACE_MS.normal;
}

export function names() {
  return app.table.names(app.state);
}

export function roundsDone(st) {
  return st.sheet && Array.isArray(st.sheet.rounds) ? st.sheet.rounds.length : st.view.results.length;
}

export function gameOver() {
  const st = app.state;
  return !st || (st.sheet ? st.sheet.over : st.to_act === null);
}

/** A game to keep: not over, and not a daily deal whose one round is done. */
export function gameInProgress() {
  const st = app.state;
  return Boolean(st) && !gameOver() && !(st.save.daily && roundsDone(st));
}
