// What a screen reader hears of the table: one polite live region says
// every move, whose turn it is, and the round's and the game's results.
// Methods of the table (mixed into web/table/core.js's TableView).

import { messageHtml } from "./messages.js";
import { t } from "../i18n/i18n.js";
import { humanSeat, sideOf } from "./state.js";

export const announceMethods = {
  // One polite live region (role=status) tells a screen reader what changed
  // on the table: every move (the computer's and yours) in the words of the
  // move log, whose turn it is, the round's result and the game's. The
  // texts are catalog keys (web/i18n/<lang>/a11y.json). The renderers' own
  // live marks (the score line, the status, Seven Diamonds' events, all of
  // them moves this region says) are dropped so that each change is spoken
  // once; only the refusals (role=alert) stay live on their own.
  buildLive() {
    for (const e of this.root.querySelectorAll("[aria-live]:not([role=alert])")) e.removeAttribute("aria-live");
    const live = document.createElement("div");
    live.className = "sr live";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    live.setAttribute("aria-label", t("a11y.live"));
    this.root.append(live);
    this.live = live;
    if (!this.announcements) this.announcements = [];   // every text said (for tests)
  },

  announce(text) {
    if (!text || !this.live) return;
    const p = document.createElement("p");
    p.textContent = text;
    this.live.replaceChildren(p);
    this.announcements.push(text);
    if (this.announcements.length > 200) this.announcements.shift();
  },

  announceChange(before, st) {
    if (!st || !this.renderer) return;
    const parts = [];
    // Many new moves at once is a new position (a replay's jump, a lesson's
    // step, a resumed game), not play: only its latest move is said.
    const fresh = newMoves(before, st);
    for (const m of fresh.length > 3 ? fresh.slice(-1) : fresh) {
      const text = speech(this.moveHtml(m, st));
      if (text) parts.push(this.renderer.spokenMove(m, text) ?? sentence(text));
    }
    const done = roundsOf(st);
    const roundEnded = !!(before && done > roundsOf(before));
    if (roundEnded) parts.push(this.roundResultText(st));
    const over = st.sheet.over;
    const wasOver = before && before.sheet.over;
    if (over && !wasOver && st.sheet.result) {
      parts.push(t("a11y.game.over", { text: speech(messageHtml(st.sheet.result, this.names(st))) }));
    } else if (!roundEnded && (parts.length || !before || before.to_act !== st.to_act)) {
      // (after a round, the turn is said when the table shows the next deal: endFrame)
      const turn = this.turnAnnouncement(st);
      if (turn) parts.push(turn);
    }
    if (parts.length) this.announce(parts.join(" "));
  },

  turnAnnouncement(st = this.state) {
    if (!st || st.to_act === null || st.to_act === undefined || this.config.viewOnly) return "";
    return st.to_act === humanSeat(st) ? t("a11y.turn.you") : t("a11y.turn.seat", { name: this.names(st).seat(st.to_act) });
  },

  /** The round just finished in words: its points and the score, your side first. */
  roundResultText(st) {
    const rounds = st.sheet.rounds;
    const last = rounds.length ? rounds[rounds.length - 1] : null;
    const points = last ? last.points : [0, 0];
    const score = last ? last.running : [0, 0];
    const a = sideOf(st, humanSeat(st)) ?? 0, b = 1 - a;
    const side = this.names(st).side;
    return t("a11y.round.result", {
      round: last ? last.round : 0,
      side_a: side(a), points_a: points[a], score_a: score[a],
      side_b: side(b), points_b: points[b], score_b: score[b],
    });
  },
};

// ---------------------------------------------------------------- helpers

/** Plain text of a move's HTML for speech: card symbols by their names. */
function speech(html) {
  const div = document.createElement("div");
  div.innerHTML = html;
  for (const e of div.querySelectorAll('[aria-hidden="true"]')) e.remove();
  for (const e of div.querySelectorAll("[role=img][aria-label]")) e.replaceWith(e.getAttribute("aria-label"));
  return div.textContent.replace(/\s+/g, " ").trim();
}

function sentence(text) {
  return /[.!?\u2026:\u061f]$/.test(text) ? text : `${text}.`;
}

function roundsOf(st) {
  return st.sheet.rounds.length;
}

/** The moves of `st` that `before` did not have (a new round starts its list afresh). */
function newMoves(before, st) {
  if (!before) return [];
  const old = before.moves, now = st.moves;
  const same = (a, b) => a && b && a.action === b.action && a.seat === b.seat && a.kind === b.kind && a.card === b.card;
  if (now.length >= old.length && (old.length === 0 || same(now[old.length - 1], old[old.length - 1]))) {
    return now.slice(old.length);
  }
  // stepped back in the same round (a replay): nothing new to say
  if (now.length && now.length < old.length && roundsOf(st) === roundsOf(before) && same(now[now.length - 1], old[now.length - 1])) return [];
  if (now.length < old.length || !same(now[0], old[0])) return now;   // a new round, or a new game
  return [];
}
