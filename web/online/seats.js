// What every phone at the online table shows around the cards (docs/online.md):
// who is at each seat (connected, thinking, gone, the computer) with its
// clock and its quick reactions, the round's summary and the rematch, the
// table itself, and the lines that say what happened to a seat.

import { mount } from "../table/core.js";
import { t } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { renderSummary } from "../shell/sheet.js";
import { closeDialog, openDialog, setupDialog } from "../shell/dialogs.js";
import { PACE_MS, loadPace } from "../shell/storage.js";
import { $, friend, guestPy, host, isolate, online } from "./common.js";
import { appendOnlineReplay, countMatch } from "./count.js";

// ---------------------------------------------------------------- presence

/** A seat in words: "You", its player's name (another phone's: isolated), else what sits there. */
export function seatLabel(seat, me, kind, name = "") {
  if (seat === me) return t("seat.you");
  if (name) return isolate(name);
  if (kind === "computer") return t("online.seat_computer", { n: seat + 1 });
  if (kind === "host") return t("online.seat_host", { n: seat + 1 });
  return t("online.seat_friend", { n: seat + 1 });
}

const PRESENCE = { here: "online.presence.here", thinking: "online.presence.thinking", gone: "online.presence.gone",
                   computer: "online.presence.computer" };

// Quick reactions (chkobba/online/wire.py REACTIONS: a fixed set, no free
// text), shown for a few seconds at the sender's seat on every phone.
const REACTION_WORDS = { well_played: "online.reaction.well_played", bravo: "online.reaction.bravo",
  oops: "online.reaction.oops", hurry: "online.reaction.hurry", thanks: "online.reaction.thanks",
  rematch: "online.reaction.rematch" };
const REACTIONS = Object.keys(REACTION_WORDS);
const REACTION_MS = 4000;
const bubbles = new Map();   // seat -> { reaction, until }
let presenceArgs = [null];

export function showReaction(seat, reaction) {
  if (!REACTIONS.includes(reaction)) return;
  bubbles.set(seat, { reaction, until: performance.now() + REACTION_MS });
  online.reactions.push([seat, reaction]);
  drawPresence(...presenceArgs);
  setTimeout(() => drawPresence(...presenceArgs), REACTION_MS + 50);
}

/** A quiet line by the reactions' button (a reaction over the allowance: "wait a moment"). */
export function reactNote(text) {
  const note = $("react").querySelector(".react-note");
  note.textContent = text;
  clearTimeout(reactNote.timer);
  reactNote.timer = setTimeout(() => { note.textContent = ""; }, 3000);
}

/** The reactions' button and its list, each sent with `send(reaction)`. */
export function setupReactions(send) {
  const box = $("react");
  if (!box.hidden) return;
  const list = $("react-list");
  const open = box.querySelector(".react-open");
  const toggle = (show) => {
    list.hidden = !show;
    open.setAttribute("aria-expanded", String(show));
  };
  list.replaceChildren(...REACTIONS.map((r) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn react-choice";
    b.dataset.reaction = r;
    b.textContent = t(REACTION_WORDS[r]);
    b.addEventListener("click", () => { toggle(false); send(r); open.focus(); });
    return b;
  }));
  open.addEventListener("click", () => toggle(list.hidden));
  list.addEventListener("keydown", (e) => { if (e.key === "Escape") { toggle(false); open.focus(); } });
  // the list lies over the table: a tap anywhere else closes it
  document.addEventListener("pointerdown", (e) => { if (!list.hidden && !box.contains(e.target)) toggle(false); });
  box.hidden = false;
}

/** Connected / thinking / gone at each seat (presence: HostTable.presence()). */
export function drawPresence(presence, toAct, me, left = null) {
  presenceArgs = [presence, toAct, me, left];
  const ul = $("presence");
  ul.hidden = !presence;
  if (!presence) return;
  const now = performance.now();
  ul.replaceChildren(...presence.map((p) => {
    const li = document.createElement("li");
    const state = p.kind === "remote" && !p.present ? (p.computer ? "computer" : "gone")
      : p.seat === toAct ? "thinking" : "here";
    li.className = `presence-seat presence-${state}${p.seat === me ? " presence-you" : ""}`;
    li.dataset.seat = p.seat;
    li.dataset.state = state;
    // a computer's seat is never "connected": only its turn is said; "connected"
    // is the green dot on screen (the words stay for screen readers), so four
    // seats fit two lines on a 320 px phone
    const label = document.createElement("span");
    label.className = "presence-name";
    label.textContent = seatLabel(p.seat, me, p.kind, p.name);
    li.append(label);
    if (!(p.kind === "computer" && state === "here")) {
      const word = document.createElement("span");
      word.textContent = ` · ${t(PRESENCE[state])}`;
      if (state === "here") word.className = "sr";
      li.append(word);
    }
    if (state === "thinking" && left !== null && left !== undefined) {
      li.append(` · ${t("online.seconds_left", { n: left })}`);   // the online timer (the host's clock)
      li.dataset.left = left;
    }
    const said = bubbles.get(p.seat);
    if (said && said.until > now) {
      const b = document.createElement("span");
      b.className = "react-bubble";
      b.dataset.reaction = said.reaction;
      b.textContent = t(REACTION_WORDS[said.reaction]);
      li.append(" ", b);
    }
    return li;
  }));
}

// ---------------------------------------------------------------- the round's summary, the rematch

// Between rounds every phone shows the round's summary as the table does
// (web/shell/sheet.js, from its seat's answer: nothing is computed here) with
// the round's replay link (count.js), and counts a finished match once; at
// the match's end, the result and "Rematch": the host's starts a new match at
// the same seats, a friend's asks the host for one (the reaction "rematch").
export const summary = { shown: null, onNext: null, replay: null };

export function checkSummary(answer) {
  if (!answer || !answer.sheet) return;
  countMatch(answer);   // a finished match, once, in this phone's statistics (count.js)
  const done = answer.sheet.rounds.length;
  // the first answer seen: rounds already played are not shown again, a finished match shows its result
  if (summary.shown === null) summary.shown = answer.sheet.over ? Math.max(0, done - 1) : done;
  if (done < summary.shown) summary.shown = done;   // a new match
  if (done > summary.shown) {
    summary.shown = done;
    openSummary(answer);
  } else if (summary.replay === done && $("summary").open) {
    // a friend's audit of the round came after its summary opened: its replay link now
    if (appendOnlineReplay($("summary-body"), done)) summary.replay = null;
  }
}

function openSummary(st) {
  const { title, next } = renderSummary($("summary-body"), st, view.names(st));
  // the round's replay with every hand shown, as at the table (a friend's once its audit came)
  summary.replay = appendOnlineReplay($("summary-body"), st.sheet.rounds.length) ? null : st.sheet.rounds.length;
  $("summary-title").textContent = title;
  const btn = $("summary-next");
  btn.dataset.next = next;
  btn.disabled = false;
  btn.textContent = next === "over" ? t("online.rematch") : next === "game" ? t("summary.next_game") : t("summary.next_round");
  $("summary-close").hidden = next !== "over";
  $("summary").dataset.round = st.sheet.rounds.length;
  const auditLine = $("summary").querySelector(".audit-summary");
  const audit = online.role === "friend" && friend.ready ? guestPy("status") : null;
  const bad = audit ? audit.failed.find((f) => f.match === audit.match && f.round <= st.sheet.rounds.length) : null;
  auditLine.hidden = !bad;
  auditLine.textContent = bad ? t("online.audit_summary", { round: bad.round, reason: messageText({ code: bad.code, params: bad.params }) }) : "";
  $("summary").dataset.next = next;
  online.summaries.push([st.sheet.rounds.length, next]);
  syncRematchLine();
  openDialog($("summary"), btn, null);
}

/** Who asked for a rematch (the host's page), or that this phone asked (a friend's). */
export function syncRematchLine(text = null) {
  const line = $("summary").querySelector(".rematch-line");
  let say = text;
  if (say === null && online.role === "host" && host.last) {
    const asked = host.last.presence.filter((p) => p.rematch).map((p) => seatLabel(p.seat, host.last.seat, p.kind, p.name));
    say = asked.length ? t("online.rematch_wants", { who: asked.join(t("cards.separator")) }) : "";
  }
  if (say === null) return;
  line.textContent = say;
  line.hidden = !say;
}

function closeSummary() {
  closeDialog($("summary"), () => { if (view) view.refocus(); });
}

function summaryNext() {
  const btn = $("summary-next");
  if (btn.dataset.next !== "over") { closeSummary(); return; }
  if (summary.onNext) summary.onNext(btn);
}

/** A new match began (this phone's rematch, or the host's): the summary of the last one closes. */
export function newMatch() {
  summary.shown = 0;
  $("summary").dataset.next = "";
  closeSummary();
}

setupDialog($("summary"), { onCancel: closeSummary });
$("summary-next").addEventListener("click", summaryNext);
$("summary-close").addEventListener("click", closeSummary);

// ---------------------------------------------------------------- the table

export let view = null;
export function showTable(onAction) {
  $("table").hidden = false;
  if (!view) view = mount($("table"), { state: null, onAction, logOpen: false });
  online.tableView = view;
  return view;
}

/**
 * The answer with each seat's player's name from the presence (the host's
 * "seats"), for the renderers' seatName: the same object while neither changed.
 */
let named = { answer: null, key: "", out: null };
export function withNames(answer, presence) {
  const names = answer.seats.map((_, i) => ((presence || []).find((p) => p.seat === i) || {}).name || "");
  const key = JSON.stringify(names);
  if (named.answer !== answer || named.key !== key) {
    named = { answer, key, out: { ...answer, seats: answer.seats.map((s, i) => (names[i] ? { ...s, name: names[i] } : s)) } };
  }
  return named.out;
}

/** Where an answer is in the match: a new move or round changes it. */
const movedTo = (a) => `${a.moves.length}:${(a.last_round_moves || []).length}:${JSON.stringify(a.moves[a.moves.length - 1] || null)}`;

/**
 * Draw `answer` on the table. A new move's cards fly from where they were,
 * at this phone's pace setting, as on the table page (web/table/core.js
 * animateMove: none at the instant pace or with reduced motion); the same
 * position drawn again (a clock tick, someone's presence) flies nothing.
 */
export function drawAnswer(onAction, answer) {
  const table = showTable(onAction);
  const before = table.state;
  const moved = before && movedTo(before) !== movedTo(answer);
  const rects = moved ? table.cardRects() : null;
  table.set({ state: answer });
  if (rects) table.animateMove(rects, PACE_MS[loadPace()]);
}

// ---------------------------------------------------------------- what every phone is told

/**
 * The computer took a friend's seat over, or its friend took it back: a
 * line on every phone (the presence says it too, as "computer").
 */
export function seatNotes(before, now, me) {
  if (!before || !now) return;
  for (const p of now) {
    const was = before.find((q) => q.seat === p.seat);
    if (!was || p.kind !== "remote" || p.seat === me) continue;
    const who = seatLabel(p.seat, me, p.kind, p.name);
    if (!was.computer && p.computer) seatNote("computer", p.seat, t("online.note.computer", { who }));
    else if (was.computer && !p.computer && p.present) seatNote("back", p.seat, t("online.note.back", { who }));
  }
}

export function seatNote(kind, seat, text) {
  const line = $("seat-note");
  online.notes.push([kind, seat]);
  line.textContent = text;
  line.dataset.kind = kind;
  line.dataset.seat = seat;
  line.hidden = false;
  clearTimeout(seatNote.timer);
  seatNote.timer = setTimeout(() => { line.hidden = true; }, 8000);
}

/** The host's page: which phone's audit failed (it says so itself, audit_failed). */
export function hostAuditLine(presence) {
  const failed = presence.filter((p) => p.audit_failed);
  const line = $("audit-line");
  if (!failed.length) return;
  line.hidden = false;
  line.className = "audit-line audit-failed";
  line.dataset.seats = failed.map((p) => p.seat).join(",");
  line.textContent = failed.map((p) => t("online.audit_failed_host",
    { who: seatLabel(p.seat, null, p.kind, p.name), round: p.audit_failed.round })).join(" ");
}
