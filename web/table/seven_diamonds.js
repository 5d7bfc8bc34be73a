// The Seven Diamonds renderer on the shared table core: four seats, the
// calls (double / triple / pass) with the multiplier, the four suits built up
// from the 7 in rows, your hand with the cards you may lay marked. It draws
// what the facade's state says: which cards are playable, which calls are
// legal, who won and the points all come from chkobba/web.py.

import { backs, cardEl, escapeHtml, mini, minis } from "./cards.js";
import { chkobba } from "./chkobba.js";

const SUIT_ORDER = ["D", "H", "S", "C"];
const SUIT_NAMES = { D: "Diamonds", H: "Hearts", S: "Spades", C: "Clubs" };
const BUILD = ["7", "8", "9", "T", "J", "Q", "K", "A"];
// The words of the Sahrat table, shown beside the English.
const AR = { double: "\u062f\u0628\u0644", triple: "\u062b\u0631\u064a", pass: "\u062c\u0644\u0651\u0629", last: "\u0622\u062e\u0631 \u0648\u0631\u0642\u0629" };
const SHOW_PLAYABLE_KEY = "chkobba.seven.showPlayable";

function arabic(word) {
  return `<span class="ar" lang="ar" dir="rtl">${word}</span>`;
}

function you(st) {
  return typeof st.human === "number" ? st.human : st.view.seat ?? 0;
}

function seatName(st, seat) {
  return chkobba.seatName(st, seat);
}

function sideName(st, side) {
  return chkobba.sideName(st, side);
}

function el(tag, cls, html) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (html !== undefined) e.innerHTML = html;
  return e;
}

/** The page-side table option "show my playable cards" (on by default). */
export function showPlayable() {
  try {
    return localStorage.getItem(SHOW_PLAYABLE_KEY) !== "off";
  } catch {
    return true;
  }
}

function setShowPlayable(on) {
  try {
    localStorage.setItem(SHOW_PLAYABLE_KEY, on ? "on" : "off");
  } catch { /* storage off: the choice lasts for this page */ }
}

function seven(st) {
  return st.seven || { playable: [], speaking_order: [], timer: null, last_result: null };
}

export const sevenDiamonds = {
  game: "seven_diamonds",

  build(root, ui) {
    root.classList.add("ck-seven", "players-4");
    root.setAttribute("aria-label", "Seven Diamonds table");
    root.innerHTML = `
      <p class="scoreline" aria-live="polite"></p>
      <section class="seat seat-top" data-pos="top" aria-label="Partner"></section>
      <section class="seat seat-left" data-pos="left" aria-label="Left seat"></section>
      <section class="seat seat-right" data-pos="right" aria-label="Right seat"></section>
      <section class="seat seat-you" data-pos="bottom" aria-label="Your hand">
        <div class="you-row"><div class="hand hand-you" role="group" aria-label="Your cards"></div></div>
      </section>
      <section class="center">
        <div class="status" aria-live="polite"><span class="turn">Shuffling\u2026</span> <span class="last-move"></span></div>
        <div class="sd-bar">
          <span class="sd-mult" data-mult="1" title="The multiplier of this round">\u00d71</span>
          <span class="sd-calls" aria-label="Calls this round"></span>
          <span class="sd-timer" hidden aria-hidden="true"></span>
        </div>
        <p class="sd-calls-note">After the calls, the 7\u2666\uFE0E opens: the suits are built up from the 7 (7 8 9 10 J Q K A).</p>
        <div class="felt sd-felt">
          <div class="table-cards sd-rows" role="group" aria-label="The four suits on the table"></div>
        </div>
        <p class="sd-announce" aria-live="assertive"></p>
      </section>
      <section class="actions" aria-label="Your move">
        <div class="controls">
          <button type="button" class="btn primary" data-act="take" hidden disabled>Take</button>
          <button type="button" class="btn" data-act="lay" hidden disabled>Lay</button>
          <button type="button" class="btn" data-act="claim" hidden disabled>Claim</button>
          <button type="button" class="btn ghost" data-act="clear" hidden disabled>Clear</button>
          <span class="choices"></span>
          <span class="coach-slot"></span>
        </div>
        <div class="coach"></div>
        <p class="message" role="alert" aria-live="assertive"></p>
        <label class="check sd-show-playable"><input type="checkbox" name="sd-show-playable"> Show the cards I may lay</label>
        <p class="keys">Keys: <kbd>Tab</kbd> to a card, <kbd>Enter</kbd> or <kbd>Space</kbd> to lay it.</p>
      </section>
      <details class="log">
        <summary><span class="log-title">Moves this round</span> <span class="log-count"></span></summary>
        <ol class="log-moves" reversed aria-label="Moves of this round, newest first"></ol>
        <div class="log-previous" hidden>
          <h3>Previous round</h3>
          <ol class="log-previous-moves" reversed aria-label="Moves of the previous round, newest first"></ol>
        </div>
      </details>
      <div class="loading-indicator" role="progressbar" aria-label="Loading the card engine">
        <span class="spinner" aria-hidden="true"></span><span class="loading-text">Loading the card engine\u2026</span>
      </div>`;
    const box = root.querySelector('input[name="sd-show-playable"]');
    box.checked = showPlayable();
    box.addEventListener("change", () => { setShowPlayable(box.checked); ui.render(); });
  },

  names(st) {
    return { seat: (s) => seatName(st, s), side: (s) => sideName(st, s) };
  },

  seatName,
  sideName,

  draw(root, st, ui) {
    const v = st.view;
    const me = you(st);
    const sd = seven(st);
    const q = (s) => root.querySelector(s);
    const frame = !!ui.frame;
    root.dataset.phase = v.phase;

    // score line
    const sheet = st.sheet;
    const score = sheet ? sheet.score : v.score;
    const target = sheet ? sheet.target : v.target;
    const mine = Array.isArray(st.sides) ? st.sides.findIndex((m) => m.includes(me)) : v.side;
    const other = 1 - mine;
    const sl = q(".scoreline");
    sl.innerHTML = `<span class="score-side">${escapeHtml(sideName(st, mine))} <b>${score[mine]}</b></span> \u2013 ` +
      `<span class="score-side"><b>${score[other]}</b> ${escapeHtml(sideName(st, other))}</span> <span class="score-to">to ${target}</span>`;
    sl.dataset.score = `${score[0]},${score[1]}`;

    // calls and multiplier
    const mult = q(".sd-mult");
    mult.textContent = `\u00d7${v.multiplier}`;
    mult.dataset.mult = v.multiplier;
    mult.setAttribute("aria-label", `Multiplier: times ${v.multiplier}`);
    const calls = q(".sd-calls");
    calls.replaceChildren();
    const said = new Map((v.calls || []).map(([seat, word]) => [seat, word]));
    const order = sd.speaking_order && sd.speaking_order.length ? sd.speaking_order : (v.calls || []).map(([s]) => s);
    calls.hidden = !order.length;
    for (const seat of order) {
      const w = said.get(seat);
      const chip = el("span", "sd-call");
      chip.dataset.seat = seat;
      chip.dataset.call = w || "";
      if (v.phase === "calls" && st.to_act === seat) chip.classList.add("speaking");
      const who = seat === me ? "You" : seatName(st, seat).replace(/ \(.*\)$/, "");
      chip.innerHTML = `${escapeHtml(who)}: ${w ? callWord(w) : v.phase === "calls" ? (st.to_act === seat ? "speaking\u2026" : "\u2026") : "\u2014"}`;
      calls.append(chip);
    }

    // seats
    const lastBySeat = new Map();
    for (const m of Array.isArray(st.moves) ? st.moves : []) {
      if (m.seat !== null && m.seat !== undefined && !m.round_ended) lastBySeat.set(m.seat, m);
    }
    for (let seat = 0; seat < 4; seat++) {
      if (seat === me) continue;
      const pos = ["bottom", "right", "top", "left"][(seat - me + 4) % 4];
      const s = q(`.seat[data-pos="${pos}"]`);
      s.replaceChildren();
      s.dataset.seat = seat;
      s.setAttribute("aria-label", seatName(st, seat));
      s.classList.toggle("to-act", st.to_act === seat && !frame);
      const count = v.hand_counts[seat];
      s.classList.toggle("last-card", count === 1);
      const name = el("div", "seat-name");
      const full = seatName(st, seat) + (v.dealer === seat ? " \u00b7 dealer" : "");
      name.append(el("span", "seat-title", escapeHtml(full)));
      name.title = full;
      const info = el("span", "seat-info", ` \u00b7 <span class="sd-count" data-count="${count}">${count}</span> in hand`);
      name.append(info);
      // Every hand shown (an embed's replay, view.hands): face up, never pointable.
      const open = Array.isArray(v.hands) && Array.isArray(v.hands[seat]);
      const hand = el("div", open ? "hand open-hand" : "hand backs");
      if (open) {
        hand.setAttribute("aria-label", `${seatName(st, seat)}: ${v.hands[seat].length} cards`);
        for (const code of v.hands[seat]) hand.append(cardEl(code, { small: true }));
      } else {
        hand.setAttribute("aria-hidden", "true");
        hand.append(backs(Math.min(count, 8)));
      }
      const move = el("div", "seat-move");
      const m = lastBySeat.get(seat);
      if (count === 1 && !frame) move.innerHTML = `<strong class="sd-last">Last card ${arabic(AR.last)}</strong>`;
      else if (m && !frame) move.innerHTML = sevenDiamonds.describeMove(m, st, { who: false }) ?? "";
      if (m) move.dataset.kind = m.kind;
      s.append(name, hand, move);
    }
    const ys = q(".seat-you");
    ys.classList.toggle("to-act", st.to_act === me && !frame);
    ys.dataset.seat = me;

    // the four rows, built up from the 7
    const rows = q(".sd-rows");
    rows.replaceChildren();
    const lastMove = frame ? null : latest(st);
    const justLaid = lastMove && lastMove.kind === "lay" ? lastMove.card : null;
    for (const suit of SUIT_ORDER) {
      const row = el("div", "sd-row");
      row.dataset.suit = suit;
      const laid = (v.table && v.table[suit]) || [];
      row.setAttribute("role", "group");   // (aria-label needs a role)
      row.setAttribute("aria-label", laid.length ? `${SUIT_NAMES[suit]}: ${laid.length} laid` : `${SUIT_NAMES[suit]}: not opened`);
      for (const r of BUILD) {
        const code = `${r}${suit}`;
        if (laid.includes(code)) {
          const c = cardEl(code);
          if (code === justLaid) c.classList.add("just-laid");
          row.append(c);
        } else {
          const slot = el("span", "sd-slot");
          slot.setAttribute("aria-hidden", "true");
          slot.dataset.slot = code;
          row.append(slot);
        }
      }
      rows.append(row);
    }

    // announcements: last card, forced pass, out
    const ann = q(".sd-announce");
    const recent = frame ? [] : recentEvents(st);
    const text = recent.map((m) => sevenDiamonds.describeMove(m, st)).filter(Boolean).join(" \u00b7 ");
    if (ann.dataset.text !== text) {
      ann.innerHTML = text;
      ann.dataset.text = text;
    }

    // your hand: tap a playable card to lay it
    const playing = ui.playing();
    const marked = ui.config.markPlayable !== false && showPlayable();
    q('input[name="sd-show-playable"]').checked = marked;
    const playable = new Set(sd.playable || []);
    const hand = q(".hand-you");
    hand.replaceChildren();
    hand.classList.toggle("mark-playable", marked && playing);
    for (const code of v.hand) {
      const c = cardEl(code, { button: !ui.config.viewOnly });
      const ok = playable.has(code);
      if (!ui.config.viewOnly) {
        c.disabled = !playing;
        c.dataset.playable = ok ? "yes" : "no";
        if (playing) c.setAttribute("aria-label", `${c.getAttribute("aria-label")}${marked ? (ok ? ", playable" : ", cannot be laid now") : ""}`);
        c.addEventListener("click", () => { if (ui.playing()) ui.act(code); });
      }
      hand.append(c);
    }
    if (v.hand_counts[me] === 1 && !frame) ys.classList.add("last-card"); else ys.classList.remove("last-card");
  },

  turnText(st, ui) {
    const v = st.view;
    const sheet = st.sheet;
    if (sheet && sheet.over && sheet.result) return sheet.result.text;
    if (st.to_act === null || st.to_act === undefined) return sheet && sheet.result ? sheet.result.text : "";
    const mine = st.to_act === you(st);
    const name = mine ? "You" : seatName(st, st.to_act);
    if (v.phase === "calls") return mine ? `Your call: ${(st.words || []).map((w) => w.action).join(" or ")}` : `${name} is calling${ui.config.busy ? " \u2026" : ""}`;
    if (mine) return "Your turn: lay a card";
    return `${name}'s turn${ui.config.busy ? " \u2026" : ""}`;
  },

  describeMove(m, st, { who: named = true } = {}) {
    const who = !named || m.seat === null || m.seat === undefined ? "" : escapeHtml(seatName(st, m.seat));
    const pre = who ? `${who} ` : "";
    const yours = m.seat === you(st);
    const verb = (he, youForm) => (who ? (yours ? youForm : he) : he[0].toUpperCase() + he.slice(1));
    let html;
    switch (m.kind) {
      case "lay": html = `${pre}${who ? "laid" : "Laid"} ${mini(m.card)}`; break;
      case "forced_pass": html = `${pre}${verb("passes", "pass")} (no card to lay) ${arabic(AR.pass)}`; break;
      case "last_card": html = `${pre}${verb("has", "have")} one card left: last card ${arabic(AR.last)}`; break;
      case "out": html = `${pre}${verb("is", "are")} out`; break;
      case "timeout": html = `${pre}${who ? "ran" : "Ran"} out of time`; break;
      case "pass": html = `${pre}${verb("passes", "pass")} (no call)`; break;
      case "call": html = `${pre}${callWord(m.action || (m.code === "move.triple" ? "triple" : "double"))}`; break;
      default: return null;
    }
    return html.trim();
  },

  describeAction(a, item) {
    if (/^[2-9AJQKT][DHSC]$/.test(a)) return `Lay ${mini(a)}`;
    return escapeHtml((item && item.label) || a);
  },

  pointedAction() {
    return null;
  },

  flyingCard(code) {
    return cardEl(code);
  },

  /** The table as the round ended (the last card laid), before the summary. */
  roundEndState(st, before) {
    if (!before || !Array.isArray(st.moves) || !st.moves.length) return null;
    const bv = before.view;
    const table = {};
    for (const s of SUIT_ORDER) table[s] = [...((bv.table && bv.table[s]) || [])];
    for (const m of st.moves) {
      if (m.kind === "lay" && m.card && !table[m.card[1]].includes(m.card)) table[m.card[1]].push(m.card);
    }
    const hand = bv.hand.filter((c) => !st.moves.some((m) => m.kind === "lay" && m.card === c));
    const res = seven(st).last_result;
    const counts = res ? res.left.map((l) => l.length) : bv.hand_counts;
    return { ...before, view: { ...bv, phase: "over", table, hand, hand_counts: counts }, moves: st.moves, words: [], to_act: null,
      seven: { ...seven(before), playable: [], speaking_order: [] } };
  },
};

function callWord(w) {
  if (w === "double") return `double ${arabic(AR.double)}`;
  if (w === "triple") return `triple ${arabic(AR.triple)}`;
  if (w === "pass") return "pass";
  return escapeHtml(w);
}

function latest(st) {
  if (Array.isArray(st.moves) && st.moves.length) return st.moves[st.moves.length - 1];
  return st.view.last;
}

/** The forced passes, last cards and outs since the newest card laid. */
function recentEvents(st) {
  const moves = Array.isArray(st.moves) ? st.moves : [];
  const out = [];
  for (let i = moves.length - 1; i >= 0; i--) {
    const m = moves[i];
    if (m.kind === "lay" || m.kind === "call" || m.kind === "pass") break;
    if (m.kind === "forced_pass" || m.kind === "last_card" || m.kind === "out") out.unshift(m);
  }
  return out;
}

export { minis };
