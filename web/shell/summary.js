// The round summary of the table page (drawn by web/shell/sheet.js): when
// it opens, what it shows (the replay link, a daily deal's result, a
// challenge's comparison) and what its buttons do (the next round with the
// device handed on in pass-and-play, or a new game).

import { humanSeat } from "../table/core.js";
import { t } from "../i18n/i18n.js";
import { FacadeError, py, timed } from "./py.js";
import { closeDialog, isOpen, openDialog } from "./dialogs.js";
import { renderSummary } from "./sheet.js";
import { appendRoundReplay } from "./share.js";
import { $, app, names, roundsDone } from "./app-state.js";
import { render, scheduleComputer } from "./moves.js";
import { challengeSummary, dailySummary } from "./linked.js";
import { currentSettings, newGame } from "./start.js";

export function checkRoundEnd() {
  const st = app.state;
  const over = st.sheet ? st.sheet.over : st.to_act === null;
  if (roundsDone(st) > app.shownRounds || (over && !isOpen($("summary")) && roundsDone(st))) {
    app.shownRounds = roundsDone(st);
    timed("summary", showSummary);
  }
}

// The round's replay link in the summary (web/shell/share.js) needs a facade
// call ("share"): it is made while the round's end shows, in a task of its
// own, so that the summary's task only draws (docs/main-thread.md).
let replayAsked = { save: null, links: null };

export function replayLinks(st) {
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

export function closeSummary() {
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

export function playAgain() {
  const settings = currentSettings();
  closeDialog($("summary"));
  app.paused = false;
  newGame(settings);
}
