// The Seven Diamonds renderer on the shared table core: four seats, the
// calls (double / triple / pass) with the multiplier, the four suits built up
// from the 7 in rows, your hand with the cards you may lay marked. It draws
// what the facade's state says: which cards are playable, which calls are
// legal, who won and the points all come from the facade (chkobba/web/).

import { backs, cardEl, cardName, escapeHtml, keyedCardButtons, mini, minis, setAttr, setHtml } from "./cards.js";
import { chkobba, keysHtml, seatNameLine, seatsHtml, textHtml as T } from "./chkobba.js";
import { formatNumber, language, t, tHtml } from "../i18n/i18n.js";
import { messageText } from "./messages.js";

const SUIT_ORDER = ["D", "H", "S", "C"];
const SUIT_KEYS = { D: "card.suit.D", H: "card.suit.H", S: "card.suit.S", C: "card.suit.C" };
const BUILD = ["7", "8", "9", "T", "J", "Q", "K", "A"];
// The words of the Sahrat table, shown beside the French or English (an
// Arabic page has them in its own words already).
const AR = { double: "\u062f\u0628\u0644", triple: "\u062b\u0631\u064a", pass: "\u062c\u0644\u0651\u0629", last: "\u0622\u062e\u0631 \u0648\u0631\u0642\u0629" };
const SHOW_PLAYABLE_KEY = "chkobba.seven.showPlayable";

function arabic(word) {
  if (language() === "ar") return "";
  return ` <span class="ar" lang="ar" dir="rtl">${word}</span>`;
}

function you(st) {
  return typeof st.human === "number" ? st.human : st.view.seat ?? 0;
}

function seatName(st, seat, opts) {
  return chkobba.seatName(st, seat, opts);
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
    root.setAttribute("aria-label", t("seven.table_label"));
    root.innerHTML = `
      ${seatsHtml("seat.partner")}
      <section class="center">
        <div class="status" aria-live="polite"><span class="turn">${T("turn.shuffling")}</span> <span class="last-move"></span></div>
        <div class="sd-bar">
          <span class="sd-mult" data-mult="1" title="${T("seven.mult_title")}">\u00d71</span>
          <span class="sd-calls" aria-label="${T("seven.calls_label")}"></span>
          <span class="sd-timer" hidden aria-hidden="true"></span>
        </div>
        <p class="sd-calls-note">${T("seven.calls_note")}</p>
        <div class="felt sd-felt">
          <div class="table-cards sd-rows" role="group" aria-label="${T("seven.rows_label")}"></div>
        </div>
        <p class="sd-announce" aria-live="assertive"></p>
      </section>
      <section class="actions" aria-label="${T("controls.label")}">
        <div class="controls">
          <span class="choices"></span>
          <span class="coach-slot"></span>
        </div>
        <div class="coach"></div>
        <p class="message" role="alert" aria-live="assertive"></p>
        <label class="check sd-show-playable"><input type="checkbox" name="sd-show-playable"> ${T("seven.show_playable")}</label>
        <p class="keys">${keysHtml("seven.keys")}</p>
      </section>
      <details class="log">
        <summary><span class="log-title">${T("log.this_round")}</span> <span class="log-count"></span></summary>
        <ol class="log-moves" reversed aria-label="${T("log.moves_label")}"></ol>
        <div class="log-previous" hidden>
          <h3>${T("log.previous_round")}</h3>
          <ol class="log-previous-moves" reversed aria-label="${T("log.previous_label")}"></ol>
        </div>
      </details>
      <div class="loading-indicator" role="progressbar" aria-label="${T("table.loading")}">
        <span class="spinner" aria-hidden="true"></span><span class="loading-text">${T("table.loading_text")}</span>
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
    // (each part is drawn again only when what it shows changed: a move
    // changes a seat, a row and your hand, not the whole table)
    const sl = q(".scoreline");
    setHtml(sl, `<span class="score-side">${escapeHtml(sideName(st, mine))} <b>${formatNumber(score[mine])}</b></span> \u2013 ` +
      `<span class="score-side"><b>${formatNumber(score[other])}</b> ${escapeHtml(sideName(st, other))}</span> <span class="score-to">${T("score.to", { target })}</span>`);
    sl.dataset.score = `${score[0]},${score[1]}`;

    // calls and multiplier
    const mult = q(".sd-mult");
    const times = `\u00d7${v.multiplier}`;
    if (mult.textContent !== times) mult.textContent = times;
    mult.dataset.mult = v.multiplier;
    setAttr(mult, "aria-label", t("seven.mult_label", { mult: v.multiplier }));
    const calls = q(".sd-calls");
    const said = new Map((v.calls || []).map(([seat, word]) => [seat, word]));
    const order = sd.speaking_order && sd.speaking_order.length ? sd.speaking_order : (v.calls || []).map(([s]) => s);
    calls.hidden = !order.length;
    const chips = order.map((seat) => {
      const w = said.get(seat);
      const who = seatName(st, seat, { short: true });
      const what = w ? callWord(w) : v.phase === "calls" ? (st.to_act === seat ? T("seven.speaking") : "\u2026") : "\u2014";
      return [seat, w || "", v.phase === "calls" && st.to_act === seat, tHtml("seven.chip", { who }, { call: what })];
    });
    const callsKey = JSON.stringify(chips);
    if (calls.ckKey !== callsKey) {
      calls.ckKey = callsKey;
      calls.replaceChildren();
      for (const [seat, w, speaking, html] of chips) {
        const chip = el("span", "sd-call");
        chip.dataset.seat = seat;
        chip.dataset.call = w;
        if (speaking) chip.classList.add("speaking");
        chip.innerHTML = html;
        calls.append(chip);
      }
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
      s.classList.toggle("to-act", st.to_act === seat && !frame);
      const count = v.hand_counts[seat];
      s.classList.toggle("last-card", count === 1);
      const full = v.dealer === seat ? t("seat.dealer", { name: seatName(st, seat) }) : seatName(st, seat);
      // Every hand shown (an embed's replay, view.hands): face up, never pointable.
      const open = Array.isArray(v.hands) && Array.isArray(v.hands[seat]);
      const m = lastBySeat.get(seat);
      const moveHtml = count === 1 && !frame ? `<strong class="sd-last">${T("seven.last_card")}${arabic(AR.last)}</strong>`
        : m && !frame ? sevenDiamonds.describeMove(m, st, { who: false }) ?? "" : "";
      const info = ` \u00b7 ${tHtml("seat.in_hand", { count }, { count: `<span class="sd-count" data-count="${count}">${formatNumber(count)}</span>` })}`;
      const key = JSON.stringify([seat, seatName(st, seat), full, info, open ? v.hands[seat] : null, open ? t("pile.cards", { side: seatName(st, seat), count: v.hands[seat].length }) : null,
        moveHtml, m ? m.kind : null]);
      const name = seatNameLine(s, st, seat, key, full, info);
      if (!name) continue;
      const hand = el("div", open ? "hand open-hand" : "hand backs");
      if (open) {
        hand.setAttribute("aria-label", t("pile.cards", { side: seatName(st, seat), count: v.hands[seat].length }));
        for (const code of v.hands[seat]) hand.append(cardEl(code, { small: true }));
      } else {
        hand.setAttribute("aria-hidden", "true");
        hand.append(backs(Math.min(count, 8)));
      }
      const move = el("div", "seat-move");
      if (moveHtml) move.innerHTML = moveHtml;
      if (m) move.dataset.kind = m.kind;
      s.append(name, hand, move);
    }
    const ys = q(".seat-you");
    ys.classList.toggle("to-act", st.to_act === me && !frame);
    ys.dataset.seat = me;

    // the four rows, built up from the 7 (a row is drawn again when its cards change)
    const rows = q(".sd-rows");
    if (rows.children.length !== SUIT_ORDER.length) {
      rows.replaceChildren(...SUIT_ORDER.map((suit) => {
        const row = el("div", "sd-row");
        row.dataset.suit = suit;
        row.setAttribute("role", "group");   // (aria-label needs a role)
        return row;
      }));
    }
    const lastMove = frame ? null : latest(st);
    const justLaid = lastMove && lastMove.kind === "lay" ? lastMove.card : null;
    SUIT_ORDER.forEach((suit, i) => {
      const row = rows.children[i];
      const laid = (v.table && v.table[suit]) || [];
      const suitName = t(SUIT_KEYS[suit]);
      const label = laid.length ? t("seven.row_laid", { suit: suitName, count: laid.length }) : t("seven.row_closed", { suit: suitName });
      const just = laid.includes(justLaid) ? justLaid : null;
      const key = JSON.stringify([laid, just, label, just ? t("table.just_laid") : null]);
      if (row.ckKey === key) return;
      row.ckKey = key;
      row.setAttribute("aria-label", label);
      // a move lays one card: the row's other cards and slots stay the same
      // elements (not made again), so the browser restyles only what changed
      const lang = language();
      const have = new Map();
      for (const c of row.children) if (c.ckLang === lang) have.set(c.dataset.card || `slot ${c.dataset.slot}`, c);
      BUILD.forEach((r, i) => {
        const code = `${r}${suit}`;
        let c;
        if (laid.includes(code)) {
          c = have.get(code) || cardEl(code);
          c.classList.toggle("just-laid", code === justLaid);
          setAttr(c, "data-just-laid", code === justLaid ? t("table.just_laid") : null);
        } else {
          c = have.get(`slot ${code}`);
          if (!c) {
            c = el("span", "sd-slot");
            c.setAttribute("aria-hidden", "true");
            c.dataset.slot = code;
          }
        }
        c.ckLang = lang;
        if (row.children[i] !== c) row.insertBefore(c, row.children[i] || null);
      });
      while (row.children.length > BUILD.length) row.lastElementChild.remove();
    });

    // announcements: last card, forced pass, out
    const ann = q(".sd-announce");
    const recent = frame ? [] : recentEvents(st);
    const text = recent.map((m) => sevenDiamonds.describeMove(m, st)).filter(Boolean).join(" \u00b7 ");
    if (ann.dataset.text !== text) {
      ann.innerHTML = text;
      ann.dataset.text = text;
      ann.title = ann.textContent;   // a phone shows one line of it (css/seven.css)
    }

    // your hand: tap a playable card to lay it
    const playing = ui.playing();
    const marked = ui.config.markPlayable !== false && showPlayable();
    q('input[name="sd-show-playable"]').checked = marked;
    const playable = new Set(sd.playable || []);
    const hand = q(".hand-you");
    hand.classList.toggle("mark-playable", marked && playing);
    // the cards already drawn stay (keyedCards): only what changed is written
    const pointable = !ui.config.viewOnly;
    const cards = keyedCardButtons(hand, v.hand, pointable, (code) => { if (ui.playing()) ui.act(code); });
    v.hand.forEach((code, i) => {
      if (!pointable) return;
      const c = cards[i];
      const ok = playable.has(code);
      if (c.disabled !== !playing) c.disabled = !playing;
      c.dataset.playable = ok ? "yes" : "no";
      const name = cardName(code);
      setAttr(c, "aria-label", playing && marked ? t(ok ? "seven.card_playable" : "seven.card_not_now", { card: name }) : name);
    });
    if (v.hand_counts[me] === 1 && !frame) ys.classList.add("last-card"); else ys.classList.remove("last-card");
  },

  turnText(st, ui) {
    const v = st.view;
    const sheet = st.sheet;
    const result = () => messageText(sheet.result, sevenDiamonds.names(st));
    if (sheet && sheet.over && sheet.result) return result();
    if (st.to_act === null || st.to_act === undefined) return sheet && sheet.result ? result() : "";
    const mine = st.to_act === you(st);
    const name = mine ? t("seat.you") : seatName(st, st.to_act, { short: true });
    const busy = ui.config.busy ? " \u2026" : "";
    if (v.phase === "calls") {
      const words = (st.words || []).map((w) => messageText({ code: w.code, params: w.params || {}, text: w.label || w.action }));
      return mine ? t("seven.your_call", { calls: words.join(t("seven.or")) }) : t("seven.calling", { name }) + busy;
    }
    if (mine) return t("seven.your_turn");
    return t("turn.theirs", { name }) + busy;
  },

  describeMove(m, st, { who: named = true } = {}) {
    const who = !named || m.seat === null || m.seat === undefined ? "" : escapeHtml(seatName(st, m.seat));
    const yours = !st.spectator && m.seat === you(st);   // a replay has no "you"
    // three forms: "Left opponent passes", "You pass", "Passes" (beside the seat)
    const form = !who ? "alone" : yours ? "you" : "other";
    const html = { who, card: m.card ? mini(m.card) : "" };
    switch (m.kind) {
      case "lay": return tHtml(SEVEN_MOVES.lay[form], {}, html).trim();
      case "forced_pass": return (tHtml(SEVEN_MOVES.forced_pass[form], {}, html) + arabic(AR.pass)).trim();
      case "last_card": return (tHtml(SEVEN_MOVES.last_card[form], {}, html) + arabic(AR.last)).trim();
      case "out": return tHtml(SEVEN_MOVES.out[form], {}, html).trim();
      case "timeout": return tHtml(SEVEN_MOVES.timeout[form], {}, html).trim();
      case "pass": return tHtml(SEVEN_MOVES.pass[form], {}, html).trim();
      case "call": return `${who ? `${who} ` : ""}${callWord(m.action || (m.code === "move.triple" ? "triple" : "double"))}`.trim();
      default: return null;
    }
  },

  describeAction(a, item) {
    if (/^[2-9AJQKT][DHSC]$/.test(a)) return tHtml("action.lay", {}, { card: mini(a) });
    return escapeHtml((item && item.label) || a);
  },

  /** No move earns a call of its own at this table. */
  callout() {
    return null;
  },

  spokenMove() {
    return null;
  },

  /** Seven Diamonds has no controls of its own: a card is laid by tapping it, a call by its word. */
  drawControls() {},

  key() {},

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

  /**
   * The round's breakdown on the summary (web/shell/sheet.js): who went out
   * and with which card, the cards left in the losing hands with their
   * points, the bonus for a last 7, the multiplier and the round total, every
   * number from the facade (its answer's `seven.last_result`). `names.seat(i)`
   * names seat i as the table does.
   */
  breakdown(st, { side, order, last, names: seatNames }) {
    const res = st.seven && st.seven.last_result;
    const sheet = st.sheet;
    if (!res) return "";
    const names = (seat) => escapeHtml(seatNames.seat(seat));
    const w = res.winner_team;
    let html = `<p class="result-line sd-winner" data-winner="${w}">${tHtml("sheet.seven.winner", {}, { side: side(w), seat: names(res.winner_seat), card: mini(res.last_card) })}</p>`;
    html += `<table class="breakdown sd-breakdown"><caption>${T("sheet.this_round")}</caption><thead><tr><th scope="col">${T("sheet.seven.seat")}</th><th scope="col">${T("sheet.seven.cards_left")}</th><th scope="col">${T("sheet.points")}</th></tr></thead><tbody>`;
    for (const h of res.hands) {
      if (!h.losing) continue;
      const cards = h.cards.length
        ? h.cards.map((c, i) => `${mini(c)}<small class="pt-card">${h.points[i]}</small>`).join(" ")
        : "\u2014";
      html += `<tr data-row="hand" data-seat="${h.seat}"><th scope="row">${names(h.seat)}</th><td>${cards}</td><td data-points="${h.total}">${h.total}</td></tr>`;
    }
    html += `</tbody><tfoot>`;
    html += `<tr data-row="cards"><th scope="row" colspan="2">${T("sheet.seven.cards_row")}</th><td data-points="${res.cards}">${res.cards}</td></tr>`;
    html += `<tr data-row="bonus"><th scope="row" colspan="2">${T("sheet.seven.bonus_row")}${res.bonus ? ` (${mini(res.last_card)})` : ""}</th><td data-points="${res.bonus}">${res.bonus ? `+${res.bonus}` : "0"}</td></tr>`;
    const ar = (word) => (language() === "ar" ? "" : ` <span class="ar" lang="ar" dir="rtl">${word}</span>`);
    const mword = res.multiplier === 3 ? ` ${T("seven.call.triple")}${ar(AR.triple)}` : res.multiplier === 2 ? ` ${T("seven.call.double")}${ar(AR.double)}` : "";
    html += `<tr data-row="multiplier"><th scope="row" colspan="2">${T("sheet.seven.multiplier")}${mword}</th><td data-mult="${res.multiplier}">\u00d7${res.multiplier}</td></tr>`;
    html += `<tr data-row="total"><th scope="row" colspan="2">${tHtml("sheet.seven.total_to", {}, { side: side(w) })}</th><td data-points="${res.points[w]}">${res.points[w]}</td></tr>`;
    const running = last ? last.running : st.view.score;
    html += `<tr data-row="score"><th scope="row" colspan="2">${T("sheet.score_to", { target: sheet ? sheet.target : st.view.target })}</th><td>${order.map((s) => `<span data-side="${s}" data-score="${running[s]}">${side(s)} ${running[s]}</span>`).join(" \u2013 ")}</td></tr>`;
    html += `</tfoot></table>`;
    return html;
  },
};

function callWord(w) {
  if (w === "double") return `${T("seven.call.double")}${arabic(AR.double)}`;
  if (w === "triple") return `${T("seven.call.triple")}${arabic(AR.triple)}`;
  if (w === "pass") return T("seven.call.pass");
  return escapeHtml(w);
}

// Each move of Seven Diamonds in its three forms: after another seat's name,
// after "You", and alone beside the seat that made it.
const SEVEN_MOVES = {
  lay: { other: "seven.move.lay.other", you: "seven.move.lay.you", alone: "seven.move.lay.alone" },
  forced_pass: { other: "seven.move.forced_pass.other", you: "seven.move.forced_pass.you", alone: "seven.move.forced_pass.alone" },
  last_card: { other: "seven.move.last_card.other", you: "seven.move.last_card.you", alone: "seven.move.last_card.alone" },
  out: { other: "seven.move.out.other", you: "seven.move.out.you", alone: "seven.move.out.alone" },
  timeout: { other: "seven.move.timeout.other", you: "seven.move.timeout.you", alone: "seven.move.timeout.alone" },
  pass: { other: "seven.move.pass.other", you: "seven.move.pass.you", alone: "seven.move.pass.alone" },
};

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
