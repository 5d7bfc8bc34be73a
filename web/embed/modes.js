// embed/modes.js: what a link's three modes do with a table, shared by the
// embed frame (embed/embed.js) and the live tables of a writer's page
// (page/bridge.js): replay (step through the record), play (the reader's
// seat against the computer) and puzzle (find the best move). The facade
// answers every step (chkobba/web/embeds.py: link_step, link_act,
// link_computer, link_judge); here are only which answer the table shows,
// when it may be pointed at, and its words (the catalogs' keys).

import { latestMove } from "../table/core.js";
import { messageText } from "../table/messages.js";
import { t } from "../i18n/i18n.js";

/** Each mode's label (the catalogs' keys). */
export const MODES = { replay: "embed.mode.replay", play: "embed.mode.play", puzzle: "embed.mode.puzzle" };

export const COMPUTER_MS = 700;   // the computer's pause before its move

/** Whether the reader may point at the table: never in a replay, until solved in a puzzle, on their turn in play. */
export function viewOnly(answer, solved) {
  const st = answer.state;
  const readerTurn = st.to_act !== null && st.to_act === answer.reader;
  const mode = answer.mode;
  return mode === "replay" || (mode === "puzzle" && solved) || (mode === "play" && !readerTurn);
}

/** The position a replay's button goes to (first, back, forward, last), kept in the record. */
export function replayIndex(go, index, count) {
  const to = { first: 0, back: index - 1, forward: index + 1, last: count - 1 }[go];
  return Math.max(0, Math.min(count - 1, to));
}

/**
 * The table's status line in a mode: a replay says which move is shown and
 * whose it was (never asks for one), play has the table's own words (your
 * turn / the computer's), a puzzle asks for the best move until solved.
 */
export function modeStatus(answer, solved, st, table) {
  const result = st.sheet && st.sheet.result && st.to_act === null ? st.sheet.result.text : "";
  if (!answer || answer.mode === "play") return table.renderer.turnText(st, table);
  if (answer.mode === "puzzle") {
    return solved ? t("embed.status.puzzle_solved") : t("embed.status.puzzle");
  }
  const [round, ply] = answer.at || [st.view.round_index + 1, 0];
  let text;
  if (ply === 0) {
    text = t("embed.status.replay_deal", { round });
  } else {
    const last = latestMove(st);
    const who = last && last.seat !== null && last.seat !== undefined ? table.names(st).seat(last.seat) : "";
    text = who ? t("embed.status.replay_move", { round, move: ply, moves: answer.plies, who })
      : t("embed.status.replay_move_nobody", { round, move: ply, moves: answer.plies });
  }
  return result ? `${text} \u00b7 ${result}` : text;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Play: the computer's moves until it is the reader's turn or the game is
 * over. `ask(name, args)` makes a facade call (a promise of its answer,
 * rejected on a refusal); `current()` is the answer the table shows;
 * `show(answer, busy)` draws one. Resolves with the last answer shown.
 */
export async function computerTurns(ask, current, show) {
  let answer = current();
  while (answer.state.to_act !== null && answer.state.to_act !== answer.reader) {
    show(answer, true);
    await sleep(COMPUTER_MS);
    answer = await ask("link_computer", {});
    show(answer, true);
  }
  show(answer, false);
  return answer;
}

/**
 * A puzzle's answer to a move (link_judge) as a verdict: `kind` is
 * "illegal", "right" or "wrong", `text` the sentence in the page's language
 * (the engine's reason for an illegal move), `solved` whether it ends the
 * puzzle.
 */
export function puzzleVerdict(r) {
  if (!r.legal) {
    const said = messageText({ code: r.code, params: r.params, error: r.text });
    return { kind: "illegal", solved: false, text: t("embed.not_allowed", { reason: said }) };
  }
  const text = t("embed.sentence", { text: messageText({ code: r.code, params: r.params, text: r.text }) });
  return r.right ? { kind: "right", solved: true, text } : { kind: "wrong", solved: false, text, again: t("embed.try_again") };
}
