// The Chkobba renderer on the shared table core: the seats around the
// table, the felt, the piles and your hand. It draws what the facade's state
// says; it never decides what is legal, who scores or who wins.

import { backs, cardEl, escapeHtml, keyedCardButtons, mini, minis, setAttr, setHtml } from "./cards.js";
import { formatNumber, language, t, tHtml } from "../i18n/i18n.js";
import { levelName, messageText } from "./messages.js";

// Texts as HTML: escaped, with <kbd> keys where the text says {tab}, {t} ...
const KBD = { tab: "Tab", enter: "Enter", space: "Space", esc: "Esc", t: "T", l: "L", c: "C", h: "H" };
function kbd(key) {
  const html = {};
  for (const [name, label] of Object.entries(KBD)) html[name] = `<kbd>${escapeHtml(name === "space" ? t("kbd.space") : name === "enter" ? t("kbd.enter") : name === "esc" ? t("kbd.esc") : label)}</kbd>`;
  return tHtml(key, {}, html);
}
const T = (key, params) => escapeHtml(t(key, params));
export { kbd as keysHtml, T as textHtml };


// The moves the renderer words itself (describeKnown), by kind or word.
const MOVE_KEYS = {
  lay: "move.lay", capture: "move.capture", claim: "move.claim", keep: "move.keep", table: "move.table",
  propose: "move.propose", pass: "move.pass", accept: "move.accept", refuse: "move.refuse",
};
// The same moves made by the reader ("You laid", «إنت حطّيت», «Toi, tu as posé»).
const MOVE_KEYS_YOU = {
  lay: "move.lay.you", capture: "move.capture.you", claim: "move.claim.you", keep: "move.keep.you", table: "move.table.you",
  propose: "move.propose.you", pass: "move.pass.you", accept: "move.accept.you", refuse: "move.refuse.you",
};

const POSITIONS = { 2: ["bottom", "top"], 4: ["bottom", "right", "top", "left"] };

function you(st) {
  return st.human;
}

function seatPos(st, seat) {
  const players = st.view.players;
  return POSITIONS[players][(seat - you(st) + players) % players];
}

function sameSide(st, a, b) {
  return st.sides.some((members) => members.includes(a) && members.includes(b));
}

const OPPONENT = { right: "seat.opponent_right", left: "seat.opponent_left", top: "seat.opponent_top" };
const PLAYER = { right: "seat.player_right", left: "seat.player_left", top: "seat.player_top", bottom: "seat.player_bottom" };

// Another phone's player's name (online: web/online/seats.js withNames): outside
// data, so isolated (FSI ... PDI) to read its own way in a page of either direction;
// every caller escapes the text it puts in HTML.
function playerName(st, seat) {
  const name = st.seats && st.seats[seat] && st.seats[seat].name;
  return typeof name === "string" && name ? `\u2068${name}\u2069` : null;
}

function seatName(st, seat, { short = false } = {}) {
  if (st.spectator) return t(PLAYER[seatPos(st, seat)]);   // a replay: nobody at the table is the reader
  if (seat === you(st)) return t("seat.you");
  const player = playerName(st, seat);
  if (player) return player;
  const level = st.seats && st.seats[seat] && st.seats[seat].level;
  const named = (name) => (level && !short ? t("seat.with_level", { name, level: levelName(level) }) : name);
  if (st.view.players === 2) return named(t(st.table === "online" ? "seat.opponent" : "seat.computer"));   // a friend's phone (web/online/)
  const pos = seatPos(st, seat);
  const partner = sameSide(st, seat, you(st));
  if (partner === true) return named(t("seat.partner"));
  const where = pos === "right" || pos === "left" ? pos : "top";
  return named(t(partner === false ? OPPONENT[where] : PLAYER[where]));
}

function sideName(st, side) {
  const mine = st.sides.findIndex((m) => m.includes(you(st)));
  if (st.spectator) {
    if (st.view.players === 2) return seatName(st, st.sides[side][0]);
    return t(side === mine ? "side.bottom_top" : "side.left_right");
  }
  if (st.view.players === 2) {
    const other = playerName(st, st.sides[side][0]);
    return side === mine ? t("side.you") : other ?? t(st.table === "online" ? "seat.opponent" : "side.computer");
  }
  return side === mine ? t("side.you_partner") : t("side.opponents");
}

function el(tag, cls, html) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (html !== undefined) e.innerHTML = html;
  return e;
}

/**
 * The score line and the four seats around a table (the top seat named by
 * the catalog key `topKey`), as both renderers draw them.
 */
export function seatsHtml(topKey) {
  return `<p class="scoreline" aria-live="polite"></p>
      <section class="seat seat-top" data-pos="top" aria-label="${T(topKey)}"></section>
      <section class="seat seat-left" data-pos="left" aria-label="${T("seat.left_seat")}"></section>
      <section class="seat seat-right" data-pos="right" aria-label="${T("seat.right_seat")}"></section>
      <section class="seat seat-you" data-pos="bottom" aria-label="${T("seat.your_hand")}">
        <div class="you-row"><div class="hand hand-you" role="group" aria-label="${T("seat.your_cards")}"></div></div>
      </section>`;
}

/**
 * An opponent's seat `s` drawn again only when `key` (what it shows) changed:
 * null when it did not; else the seat is emptied and its name line (`full`
 * and `infoHtml`) returned, for the renderer to append with the rest.
 */
export function seatNameLine(s, st, seat, key, full, infoHtml) {
  if (s.ckKey === key && s.childNodes.length) return null;
  s.ckKey = key;
  s.replaceChildren();
  s.dataset.seat = seat;
  s.setAttribute("aria-label", seatName(st, seat));
  const name = el("div", "seat-name");
  name.append(el("span", "seat-title", escapeHtml(full)));
  name.title = full;
  name.append(el("span", "seat-info", infoHtml));
  return name;
}

// Each scoring row of the round's summary (breakdown): its name, the round
// result's key, and the counts behind it.
const ROWS = [
  ["sheet.row.karta", "karta", (d, s) => d.cards && T("sheet.count.cards", { count: d.cards[s] })],
  ["sheet.row.dinari", "dinari", (d, s) => d.diamonds && T("sheet.count.diamonds", { count: d.diamonds[s] })],
  ["sheet.row.barmila", "barmila", (d, s) => d.sevens && `${T("sheet.count.sevens", { count: d.sevens[s] })}${T("cards.separator")}${T("sheet.count.sixes", { count: d.sixes[s] })}`],
  ["sheet.row.haya", "haya", (d, s, res) => (res.haya[s] ? T("sheet.has_7d") : "\u2014")],
  ["sheet.row.chkobba", "chkobba", (d, s, res) => T("sheet.count.sweeps", { count: res.chkobba[s] })],
];

// The points a tie gives to nobody (RULES.md: a tie, *baji*): most cards,
// most diamonds, most sevens then sixes. Nobody scoring one of them means
// the sides were level.
const TIES = new Set(["karta", "dinari", "barmila"]);
const AR_BAJI = "\u0628\u0627\u062c\u064a";   // باجي

/** «باجي» on a tied row; in French and English the word with its Arabic beside it. */
function bajiHtml() {
  const ar = language() === "ar" ? "" : ` <span class="ar" lang="ar" dir="rtl">${AR_BAJI}</span>`;
  return `<span class="baji">${T("sheet.baji")}${ar}</span>`;
}

/** A scoring row the sides tied: nobody got its point. */
function isTie(key, points) {
  return TIES.has(key) && Array.isArray(points) && points.length === 2 && points.every((p) => p === 0);
}

export const chkobba = {
  game: "chkobba",

  build(root) {
    root.classList.add("ck-chkobba", "players-2");
    root.setAttribute("aria-label", t("table.label"));
    root.innerHTML = `
      ${seatsHtml("seat.opponent")}
      <section class="center">
        <div class="status" aria-live="polite"><span class="turn">${T("turn.shuffling")}</span> <span class="last-move"></span></div>
        <div class="felt">
          <div class="deck" aria-label="${T("table.deck")}"><span class="card back"></span><span class="deck-count"></span></div>
          <div class="table-cards" role="group" aria-label="${T("table.cards")}"></div>
          <figure class="cut" hidden><figcaption class="cut-label">${T("table.cut_card")}<span class="cut-note"> ${T("table.cut_note")}</span></figcaption></figure>
        </div>
        <p class="leftover-note" hidden></p>
        <div class="piles"></div>
      </section>
      <section class="actions" aria-label="${T("controls.label")}">
        <div class="controls">
          <button type="button" class="btn primary" data-act="take" aria-keyshortcuts="T" title="${T("controls.take_title")}" disabled>${T("controls.take")}</button>
          <button type="button" class="btn" data-act="lay" aria-keyshortcuts="L" title="${T("controls.lay_title")}" disabled>${T("controls.lay")}</button>
          <button type="button" class="btn" data-act="claim" aria-keyshortcuts="C" title="${T("controls.claim_title")}" hidden disabled>${T("controls.claim")}</button>
          <button type="button" class="btn ghost" data-act="clear" aria-keyshortcuts="Escape" title="${T("controls.clear_title")}" disabled>${T("controls.clear")}</button>
          <span class="choices"></span>
          <span class="coach-slot"></span>
        </div>
        <div class="coach"></div>
        <p class="message" role="alert" aria-live="assertive"></p>
        <p class="keys">${kbd("controls.keys")}<span class="keys-hint">${kbd("controls.keys_hint")}</span>${T("controls.keys_end")}</p>
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
  },

  names(st) {
    return { seat: (s) => seatName(st, s), side: (s) => sideName(st, s) };
  },

  seatName,
  sideName,

  draw(root, st, ui) {
    const v = st.view;
    root.classList.toggle("players-4", v.players === 4);
    root.classList.toggle("players-2", v.players === 2);
    const me = you(st);
    const playing = ui.playing();
    const q = (s) => root.querySelector(s);

    // score line (numbers as the facade sent them)
    const sheet = st.sheet;
    const score = sheet ? sheet.score : v.score;
    const games = sheet ? sheet.games : v.games;
    const target = sheet ? sheet.target : v.target;
    const match = sheet ? sheet.match : v.match;
    const mine = Array.isArray(st.sides) ? st.sides.findIndex((m) => m.includes(me)) : v.side;
    const other = 1 - mine;
    let line = `<span class="score-side">${escapeHtml(sideName(st, mine))} <b>${formatNumber(score[mine])}</b></span> \u2013 ` +
      `<span class="score-side"><b>${formatNumber(score[other])}</b> ${escapeHtml(sideName(st, other))}</span> <span class="score-to">${T("score.to", { target })}</span>`;
    if (match > 1) line += ` <span class="score-games">${T("score.games", { mine: games[mine], other: games[other], match })}</span>`;
    const sl = q(".scoreline");
    setHtml(sl, line);
    sl.dataset.score = `${score[0]},${score[1]}`;
    sl.dataset.games = `${games[0]},${games[1]}`;

    // the other seats, each with its newest move of the round
    const lastBySeat = new Map();
    for (const m of Array.isArray(st.moves) ? st.moves : v.last ? [v.last] : []) {
      if (m.seat !== null && m.seat !== undefined) lastBySeat.set(m.seat, m);
    }
    // (a seat is drawn again only when what it shows changed: its key)
    const drawn = new Set();
    for (let seat = 0; seat < v.players; seat++) {
      if (seat === me) continue;
      const pos = seatPos(st, seat);
      drawn.add(pos);
      const s = q(`.seat[data-pos="${pos}"]`);
      s.classList.toggle("to-act", st.to_act === seat && !ui.frame);
      const open = Array.isArray(v.hands) && Array.isArray(v.hands[seat]);
      const m = lastBySeat.get(seat);
      const call = m && !ui.frame ? chkobba.callout(m) : null;
      const said = m && !ui.frame ? (chkobba.describeMove(m, st, { who: false }) ?? ui.moveHtml(m, st)) + (call ? ` \u2014 ${call}` : "") : null;
      const full = v.dealer === seat ? t("seat.dealer", { name: seatName(st, seat) }) : seatName(st, seat);
      const key = JSON.stringify([seat, seatName(st, seat), full, v.hand_counts[seat], open ? v.hands[seat] : null,
        said, m && !ui.frame ? m.action ?? "" : null, T("seat.in_hand", { count: v.hand_counts[seat] })]);
      const name = seatNameLine(s, st, seat, key, full, ` \u00b7 ${T("seat.in_hand", { count: v.hand_counts[seat] })}`);
      if (!name) continue;
      // Every hand shown (an embed's replay, view.hands): face up, never pointable.
      const hand = el("div", open ? "hand open-hand" : "hand backs");
      if (open) {
        hand.setAttribute("role", "group");
        hand.setAttribute("aria-label", t("seat.cards_of", { name: seatName(st, seat) }));
        for (const code of v.hands[seat]) hand.append(cardEl(code, { small: true }));
      } else {
        hand.setAttribute("aria-hidden", "true");
        hand.append(backs(v.hand_counts[seat]));
      }
      const saidEl = el("div", "seat-move");
      if (said !== null) {
        saidEl.innerHTML = said;
        saidEl.dataset.action = m.action ?? "";
      }
      s.append(name, hand, saidEl);
    }
    for (const pos of ["top", "left", "right"]) {
      if (drawn.has(pos)) continue;
      const s = q(`.seat[data-pos="${pos}"]`);
      s.replaceChildren();
      s.ckKey = null;
      delete s.dataset.seat;
      s.classList.remove("to-act");
    }
    const ys = q(".seat-you");
    ys.classList.toggle("to-act", st.to_act === me && !ui.frame);
    ys.dataset.seat = me;

    // deck and table
    q(".deck-count").textContent = t("table.deck_left", { count: v.deck });
    q(".deck").dataset.count = v.deck;
    q(".deck").setAttribute("aria-label", t("table.deck_label", { count: v.deck }));
    // the cards already drawn stay (keyedCards): only what changed is written
    const tableCards = q(".table-cards");
    tableCards.classList.toggle("leftovers", !!st.leftoverTo);
    const lastMove = ui.frame ? null : latest(st);
    const justLaid = lastMove && lastMove.kind === "lay" && !lastMove.round_ended ? lastMove.card : null;
    const pointable = !ui.config.viewOnly;
    const tableEls = keyedCardButtons(tableCards, v.table, pointable, (code) => ui.toggleTable(code));
    v.table.forEach((code, i) => {
      const c = tableEls[i];
      const picked = ui.selectedTable.includes(code);
      if (pointable) {
        if (c.disabled !== !playing) c.disabled = !playing;
        setAttr(c, "aria-pressed", String(picked));
      }
      c.classList.toggle("selected", picked);
      c.classList.toggle("just-laid", code === justLaid);
      if (code === justLaid) {
        const said = t("table.just_laid");
        if (c.dataset.justLaid !== said) c.dataset.justLaid = said;
      } else if ("justLaid" in c.dataset) {
        delete c.dataset.justLaid;
      }
    });
    tableCards.dataset.empty = v.table.length ? "" : t("table.empty");
    const cut = q(".cut");
    const cutHidden = !(v.cut_visible && v.cut_card);
    if (cut.hidden !== cutHidden) cut.hidden = cutHidden;
    const cutNote = q(".cut-note");
    if (cutNote.hidden !== !!st.spectator) cutNote.hidden = !!st.spectator;   // a replay is watched: nobody there is "you"
    const shown = [...cut.querySelectorAll(".card")];
    const same = !cutHidden && shown.length === 1 && shown[0].dataset.card === v.cut_card && shown[0].ckKey === language();
    if (!same) {
      shown.forEach((c) => c.remove());
      if (!cutHidden) {
        const c = cardEl(v.cut_card);
        c.classList.add("cut-card");
        c.ckKey = language();
        cut.prepend(c);
      }
    }
    const note = q(".leftover-note");
    if (note.hidden !== !st.leftoverTo) note.hidden = !st.leftoverTo;
    if (st.leftoverTo) setHtml(note, st.leftoverTo);

    // piles
    const piles = q(".piles");
    const pileKey = JSON.stringify([language(), mine, v.piles, v.chkobba_cards, sideName(st, mine), sideName(st, other)]);
    if (piles.ckKey !== pileKey || !piles.childNodes.length) {
    piles.ckKey = pileKey;
    piles.replaceChildren();
    for (const side of [mine, other]) {
      const pile = el("div", "pile");
      pile.dataset.side = side;
      pile.dataset.count = v.piles[side];
      const stack = el("span", "stack");
      if (v.piles[side]) stack.append(backs(1));
      const label = el("span", "pile-label", tHtml("pile.cards", { side: sideName(st, side), count: v.piles[side] },
        { count: `<span class="count">${v.piles[side]}</span>` }));
      const sweeps = el("span", "sweeps");
      sweeps.setAttribute("role", "group");   // (aria-label needs a role)
      sweeps.setAttribute("aria-label", t("pile.sweeps", { count: v.chkobba_cards[side].length }));
      for (const c of v.chkobba_cards[side]) {
        const s = cardEl(c, { small: true });
        s.classList.add("sweep");
        sweeps.append(s);
      }
      pile.append(stack, label, sweeps);
      piles.append(pile);
    }
    }

    // your hand
    const hand = q(".hand-you");
    const handEls = keyedCardButtons(hand, v.hand, pointable, (code) => ui.toggleHand(code));
    v.hand.forEach((code, i) => {
      const c = handEls[i];
      if (pointable) {
        if (c.disabled !== !playing) c.disabled = !playing;
        setAttr(c, "aria-pressed", String(ui.selectedHand === code));
      }
      c.classList.toggle("selected", ui.selectedHand === code);
    });
  },

  turnText(st, ui) {
    const v = st.view;
    const sheet = st.sheet;
    const result = () => messageText(sheet.result, chkobba.names(st));
    if (sheet && sheet.over && sheet.result) return result();
    if (st.to_act === null || st.to_act === undefined) return sheet && sheet.result ? result() : "";
    const me = you(st);
    const mine = st.to_act === me;
    // (the seat's level is beside the seat: the status line says only who)
    const name = mine ? t("seat.you") : seatName(st, st.to_act, { short: true });
    switch (v.phase) {
      case "cut": return mine ? t("turn.you_cut") : t("turn.cutting", { name });
      case "redeal": return mine ? t("turn.you_redeal") : t("turn.redeal", { name });
      case "answer": return mine ? t("turn.you_answer") : t("turn.answer", { name });
      default:
        if (mine) {
          return ui.playing() && st.claim ? t("turn.yours_claim") : t("turn.yours");
        }
        return t("turn.theirs", { name }) + (ui.config.busy ? " \u2026" : "");
    }
  },

  /** A move in words when the facade sent no message code for it. */
  describeMove(m, st, { who: named = true } = {}) {
    const who = !named ? "" : escapeHtml(m.seat === null || m.seat === undefined ? "" : seatName(st, m.seat));
    const taken = m.cards || m.take || [];
    const words = ["keep", "table", "propose", "pass", "accept", "refuse"];
    const mine = !st.spectator && m.seat !== null && m.seat !== undefined && m.seat === you(st);
    const html = this.describeKnown(m, who, taken, words.includes(m.action) ? m.action : m.kind, mine);
    if (html === null) return m.code ? null : `${who}: ${escapeHtml(m.action ?? m.kind ?? "")}`;
    return named ? html : html.trim().replace(/^[,،]\s*/, "");   // «, tu as posé» beside your seat: «tu as posé»
  },

  describeKnown(m, who, taken, what, mine = false) {
    // who is HTML already (escaped), as are the card symbols
    const key = (mine ? MOVE_KEYS_YOU : MOVE_KEYS)[what];
    if (!key) return null;
    const html = { who, card: m.card ? mini(m.card) : "", cards: minis(taken) };
    return tHtml(key, {}, html);
  },

  /** A hint's action in words and symbols (the action text's own format, RECORDS.md). */
  describeAction(a, item) {
    const cards = (s) => minis(s.match(/../g) || []);
    if (/^claim /.test(a)) { const [c, tk] = a.slice(6).split("x"); return tHtml("action.claim", {}, { card: mini(c), cards: cards(tk) }); }
    if (a.includes("x")) { const [c, tk] = a.split("x"); return tHtml("action.take", {}, { card: mini(c), cards: cards(tk) }); }
    if (/^[2-7AJQKT][DHSC]$/.test(a)) return tHtml("action.lay", {}, { card: mini(a) });
    return escapeHtml((item && item.label) || a);
  },

  /** The call a move earns at the table ("Chkobba!" for a sweep), as HTML, or null. */
  callout(move) {
    return move.chkobba ? `<strong class="chkobba-call">${escapeHtml(t("table.chkobba_call"))}</strong>` : null;
  },

  /** A move said to a screen reader when it is more than its sentence (a sweep), or null. */
  spokenMove(move, text) {
    return move.chkobba ? t("a11y.move.chkobba", { text }) : null;
  },

  /** Chkobba's own controls: take, lay, claim (only while a claim may be made) and clear. */
  drawControls(root, st, ui, playing) {
    const h = ui.selectedHand, picked = ui.selectedTable;
    const by = (act) => root.querySelector(`.controls [data-act="${act}"]`);
    const claim = st.claim;
    by("take").disabled = !(playing && h && picked.length);
    by("lay").disabled = !(playing && h && !picked.length);
    const cb = by("claim");
    cb.hidden = !(playing && claim);
    // The engine judges a claim; the button only needs something picked.
    cb.disabled = !(playing && claim && !h && picked.length);
    by("clear").disabled = !(h || picked.length);
  },

  /** Chkobba's keys (the core handles Escape and H): T take, L lay, C claim. */
  key(key, ui) {
    const act = { t: "take", l: "lay", c: "claim" }[key];
    if (act) ui.control(act);
  },

  /** The action text of the player's pointing (RECORDS.md), or null. */
  pointedAction(kind, ui) {
    const h = ui.selectedHand, t = ui.selectedTable;
    if (kind === "lay" && h && !t.length) return h;
    if (kind === "take" && h && t.length) return `${h}x${t.join("")}`;
    if (kind === "claim" && !h && t.length) {
      // The claimed card is the one just laid if the player picked it, else
      // the first card picked; the engine judges the claim either way.
      const st = ui.state;
      const w = st.claim;
      const laid = w && w.card;
      const card = t.includes(laid) ? laid : t[0];
      return `claim ${card}x${t.filter((c) => c !== card).join("")}`;
    }
    return null;
  },

  /**
   * The capture a tap finishes (config.quickCapture), or null: the one
   * legal capture (the facade's `captures`) of the picked hand card whose
   * taken cards include every table card picked. Two or more such captures,
   * or none: nothing is taken, the player goes on pointing (or Take).
   */
  quickAction(ui) {
    const h = ui.selectedHand, picked = ui.selectedTable;
    const captures = ui.state && ui.state.captures;
    if (!h || !picked.length || !Array.isArray(captures)) return null;
    const fits = captures.filter((a) => {
      const [card, taken] = a.split("x");
      const cards = taken ? taken.match(/../g) || [] : [];
      return card === h && picked.every((c) => cards.includes(c));
    });
    return fits.length === 1 ? fits[0] : null;
  },

  flyingCard(code) {
    return cardEl(code);
  },

  /**
   * The round's breakdown on the summary (web/shell/sheet.js): a row per
   * point of the round's result, with the counts behind it, the round's points
   * and the score; the cards left and the win by all the diamonds below.
   * Given the round's result (`res`), its counts (`details`), the sides in
   * order, their names (`side`), a cell's HTML (`cell`) and the sheet's last round.
   */
  breakdown(st, { res, details, order, side, cell, last }) {
    let html = `<table class="breakdown"><caption>${T("sheet.this_round")}</caption><thead><tr><th scope="col"><span class="sr">${T("sheet.points")}</span></th>${order.map((s) => `<th scope="col">${side(s)}</th>`).join("")}</tr></thead><tbody>`;
    for (const [label, key, why] of ROWS) {
      if (!res[key]) continue;
      const tie = isTie(key, res[key]);
      html += `<tr data-row="${key}"${tie ? ' data-baji="true"' : ""}><th scope="row">${T(label)}${tie ? ` ${bajiHtml()}` : ""}</th>${order.map((s) => `<td data-side="${s}" data-points="${res[key][s]}">${cell(res[key][s], why(details, s, res))}</td>`).join("")}</tr>`;
    }
    html += `</tbody><tfoot><tr data-row="points"><th scope="row">${T("sheet.round_points")}</th>${order.map((s) => `<td data-side="${s}">${res.points[s]}</td>`).join("")}</tr>`;
    const running = last ? last.running : st.view.score;
    const target = st.sheet ? st.sheet.target : st.view.target;
    html += `<tr data-row="score"><th scope="row">${T("sheet.score_to", { target })}</th>${order.map((s) => `<td data-side="${s}">${running[s]}</td>`).join("")}</tr></tfoot></table>`;

    const left = details.leftovers || res.leftovers;
    if (left && left.length) {
      const to = details.leftovers_to ?? res.leftovers_to;
      html += `<p class="note">${to === null || to === undefined ? tHtml("sheet.leftovers_nobody", {}, { cards: minis(left) }) : tHtml("sheet.leftovers_to", {}, { side: side(to), cards: minis(left) })}</p>`;
    }
    const allD = details.all_diamonds ?? res.all_diamonds;
    if (allD !== null && allD !== undefined) html += `<p class="result-line">${tHtml("sheet.all_diamonds", {}, { side: side(allD) })}</p>`;
    return html;
  },

  /**
   * The table as the round ended, before the summary: every hand played
   * out, and the cards left on the table (the round result's leftovers)
   * with who they go to. Null when there is no result to show.
   */
  roundEndState(st, before) {
    // the view's round results carry the leftovers and who took them
    const results = st.view.results;
    const res = results && results[results.length - 1];
    if (!res || !before) return null;
    const bv = before.view;
    const leftovers = res.leftovers || [];
    const to = res.leftovers_to;
    let note = "";
    if (leftovers.length) {
      note = to === null || to === undefined
        ? tHtml("table.leftovers_nobody", {}, { cards: minis(leftovers) })
        : tHtml("table.leftovers_to", { side: sideName(st, to) }, { cards: minis(leftovers) });
    }
    const view = {
      ...bv,
      phase: "over",
      hand: [],
      hand_counts: bv.hand_counts.map(() => 0),
      table: leftovers,
      deck: 0,
      cut_visible: false,
    };
    return { ...before, view, moves: st.moves, last_round_moves: before.last_round_moves, words: [], leftoverTo: note || null, to_act: null };
  },
};

function latest(st) {
  if (Array.isArray(st.moves) && st.moves.length) return st.moves[st.moves.length - 1];
  return st.view.last;
}
