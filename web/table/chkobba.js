// The Chkobba renderer on the shared table core: the seats around the
// table, the felt, the piles and your hand. It draws what the facade's state
// says; it never decides what is legal, who scores or who wins.

import { backs, cardEl, escapeHtml, mini, minis } from "./cards.js";

const POSITIONS = { 2: ["bottom", "top"], 4: ["bottom", "right", "top", "left"] };

function you(st) {
  return typeof st.human === "number" ? st.human : st.view.seat ?? 0;
}

function seatPos(st, seat) {
  const players = st.view.players;
  return POSITIONS[players][(seat - you(st) + players) % players];
}

function sameSide(st, a, b) {
  if (!Array.isArray(st.sides)) return null;
  return st.sides.some((members) => members.includes(a) && members.includes(b));
}

function seatName(st, seat, { short = false } = {}) {
  if (seat === you(st)) return "You";
  const level = st.seats && st.seats[seat] && st.seats[seat].level;
  const lv = level && !short ? ` (${level})` : "";
  if (st.view.players === 2) return `Computer${lv}`;
  const pos = seatPos(st, seat);
  const partner = sameSide(st, seat, you(st));
  if (partner === true) return `Partner${lv}`;
  const where = pos === "right" ? "Right" : pos === "left" ? "Left" : "Top";
  return partner === false ? `${where} opponent${lv}` : `${where} player${lv}`;
}

function sideName(st, side) {
  const mine = Array.isArray(st.sides) ? st.sides.findIndex((m) => m.includes(you(st))) : st.view.side;
  if (st.view.players === 2) return side === mine ? "You" : "Computer";
  return side === mine ? "You & partner" : "Opponents";
}

function el(tag, cls, html) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (html !== undefined) e.innerHTML = html;
  return e;
}

export const chkobba = {
  game: "chkobba",

  build(root) {
    root.classList.add("ck-chkobba", "players-2");
    root.setAttribute("aria-label", "Card table");
    root.innerHTML = `
      <p class="scoreline" aria-live="polite"></p>
      <section class="seat seat-top" data-pos="top" aria-label="Opponent"></section>
      <section class="seat seat-left" data-pos="left" aria-label="Left seat"></section>
      <section class="seat seat-right" data-pos="right" aria-label="Right seat"></section>
      <section class="seat seat-you" data-pos="bottom" aria-label="Your hand">
        <div class="you-row"><div class="hand hand-you" role="group" aria-label="Your cards"></div></div>
      </section>
      <section class="center">
        <div class="status" aria-live="polite"><span class="turn">Shuffling\u2026</span> <span class="last-move"></span></div>
        <div class="felt">
          <div class="deck" aria-label="Deck"><span class="card back"></span><span class="deck-count"></span></div>
          <div class="table-cards" role="group" aria-label="Cards on the table"></div>
          <figure class="cut" hidden><figcaption class="cut-label">Cut card<span class="cut-note"> (only you see it)</span></figcaption></figure>
        </div>
        <p class="leftover-note" hidden></p>
        <div class="piles"></div>
      </section>
      <section class="actions" aria-label="Your move">
        <div class="controls">
          <button type="button" class="btn primary" data-act="take" aria-keyshortcuts="T" title="Take the picked table cards (T)" disabled>Take</button>
          <button type="button" class="btn" data-act="lay" aria-keyshortcuts="L" title="Lay the picked card on the table (L)" disabled>Lay on table</button>
          <button type="button" class="btn" data-act="claim" aria-keyshortcuts="C" title="Claim the missed capture of the card just laid (C)" hidden disabled>Claim missed capture</button>
          <button type="button" class="btn ghost" data-act="clear" aria-keyshortcuts="Escape" title="Clear the picked cards (Esc)" disabled>Clear</button>
          <span class="choices"></span>
          <span class="coach-slot"></span>
        </div>
        <div class="coach"></div>
        <p class="message" role="alert" aria-live="assertive"></p>
        <p class="keys">Keys: <kbd>Tab</kbd> to a card, <kbd>Enter</kbd> or <kbd>Space</kbd> to pick it;
          <kbd>T</kbd> take, <kbd>L</kbd> lay, <kbd>C</kbd> claim, <kbd>Esc</kbd> clear<span class="keys-hint">, <kbd>H</kbd> hint</span>.</p>
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
    let line = `<span class="score-side">${escapeHtml(sideName(st, mine))} <b>${score[mine]}</b></span> \u2013 ` +
      `<span class="score-side"><b>${score[other]}</b> ${escapeHtml(sideName(st, other))}</span> <span class="score-to">to ${target}</span>`;
    if (match > 1) line += ` <span class="score-games">games ${games[mine]}\u2013${games[other]} (best of ${match})</span>`;
    const sl = q(".scoreline");
    sl.innerHTML = line;
    sl.dataset.score = `${score[0]},${score[1]}`;
    sl.dataset.games = `${games[0]},${games[1]}`;

    // the other seats, each with its newest move of the round
    const lastBySeat = new Map();
    for (const m of Array.isArray(st.moves) ? st.moves : v.last ? [v.last] : []) {
      if (m.seat !== null && m.seat !== undefined) lastBySeat.set(m.seat, m);
    }
    for (const pos of ["top", "left", "right"]) {
      const s = q(`.seat[data-pos="${pos}"]`);
      s.replaceChildren();
      delete s.dataset.seat;
      s.classList.remove("to-act");
    }
    for (let seat = 0; seat < v.players; seat++) {
      if (seat === me) continue;
      const s = q(`.seat[data-pos="${seatPos(st, seat)}"]`);
      s.dataset.seat = seat;
      s.setAttribute("aria-label", seatName(st, seat));
      s.classList.toggle("to-act", st.to_act === seat && !ui.frame);
      const name = el("div", "seat-name");
      const full = seatName(st, seat) + (v.dealer === seat ? " \u00b7 dealer" : "");
      name.append(el("span", "seat-title", escapeHtml(full)));
      name.title = full;
      name.append(el("span", "seat-info", ` \u00b7 ${v.hand_counts[seat]} in hand`));
      // Every hand shown (an embed's replay, view.hands): face up, never pointable.
      const open = Array.isArray(v.hands) && Array.isArray(v.hands[seat]);
      const hand = el("div", open ? "hand open-hand" : "hand backs");
      if (open) {
        hand.setAttribute("role", "group");
        hand.setAttribute("aria-label", `${seatName(st, seat)}'s cards`);
        for (const code of v.hands[seat]) hand.append(cardEl(code, { small: true }));
      } else {
        hand.setAttribute("aria-hidden", "true");
        hand.append(backs(v.hand_counts[seat]));
      }
      const said = el("div", "seat-move");
      const m = lastBySeat.get(seat);
      if (m && !ui.frame) {
        said.innerHTML = chkobba.describeMove(m, st, { who: false }) ?? ui.moveHtml(m, st);
        said.dataset.action = m.action ?? "";
      }
      s.append(name, hand, said);
    }
    const ys = q(".seat-you");
    ys.classList.toggle("to-act", st.to_act === me && !ui.frame);
    ys.dataset.seat = me;

    // deck and table
    q(".deck-count").textContent = `${v.deck} left`;
    q(".deck").dataset.count = v.deck;
    q(".deck").setAttribute("aria-label", `Deck: ${v.deck} cards left`);
    const tableCards = q(".table-cards");
    tableCards.replaceChildren();
    tableCards.classList.toggle("leftovers", !!st.leftoverTo);
    const lastMove = ui.frame ? null : latest(st);
    const justLaid = lastMove && lastMove.kind === "lay" && !lastMove.round_ended ? lastMove.card : null;
    for (const code of v.table) {
      const c = cardEl(code, { button: !ui.config.viewOnly });
      if (!ui.config.viewOnly) {
        c.disabled = !playing;
        c.setAttribute("aria-pressed", String(ui.selectedTable.includes(code)));
        c.addEventListener("click", () => ui.toggleTable(code));
      }
      c.classList.toggle("selected", ui.selectedTable.includes(code));
      if (code === justLaid) c.classList.add("just-laid");
      tableCards.append(c);
    }
    tableCards.dataset.empty = v.table.length ? "" : "The table is empty";
    const cut = q(".cut");
    cut.querySelectorAll(".card").forEach((c) => c.remove());
    cut.hidden = !(v.cut_visible && v.cut_card);
    if (!cut.hidden) {
      const c = cardEl(v.cut_card);
      c.classList.add("cut-card");
      cut.prepend(c);
    }
    const note = q(".leftover-note");
    note.hidden = !st.leftoverTo;
    if (st.leftoverTo) note.innerHTML = st.leftoverTo;

    // piles
    const piles = q(".piles");
    piles.replaceChildren();
    for (const side of [mine, other]) {
      const pile = el("div", "pile");
      pile.dataset.side = side;
      pile.dataset.count = v.piles[side];
      const stack = el("span", "stack");
      if (v.piles[side]) stack.append(backs(1));
      const label = el("span", "pile-label", `${escapeHtml(sideName(st, side))}: <span class="count">${v.piles[side]}</span> cards`);
      const sweeps = el("span", "sweeps");
      sweeps.setAttribute("role", "group");   // (aria-label needs a role)
      sweeps.setAttribute("aria-label", `${v.chkobba_cards[side].length} chkobba`);
      for (const c of v.chkobba_cards[side]) {
        const s = cardEl(c, { small: true });
        s.classList.add("sweep");
        sweeps.append(s);
      }
      pile.append(stack, label, sweeps);
      piles.append(pile);
    }

    // your hand
    const hand = q(".hand-you");
    hand.replaceChildren();
    for (const code of v.hand) {
      const c = cardEl(code, { button: !ui.config.viewOnly });
      if (!ui.config.viewOnly) {
        c.disabled = !playing;
        c.setAttribute("aria-pressed", String(ui.selectedHand === code));
        c.addEventListener("click", () => ui.toggleHand(code));
      }
      c.classList.toggle("selected", ui.selectedHand === code);
      hand.append(c);
    }
  },

  turnText(st, ui) {
    const v = st.view;
    const sheet = st.sheet;
    if (sheet && sheet.over && sheet.result) return sheet.result.text;
    if (st.to_act === null || st.to_act === undefined) return sheet && sheet.result ? sheet.result.text : "";
    const me = you(st);
    const mine = st.to_act === me;
    const name = mine ? "You" : seatName(st, st.to_act);
    switch (v.phase) {
      case "cut": return mine ? "You cut: keep the cut card or put it on the table" : `${name} is cutting`;
      case "redeal": return mine ? "Three or more table cards match: propose a re-deal?" : `${name} may propose a re-deal`;
      case "answer": return mine ? "A re-deal is proposed: accept or refuse?" : `${name} is answering the re-deal proposal`;
      default:
        if (mine) {
          return ui.playing() && st.claim
            ? "Your turn: pick a card (or claim first, if you saw a missed capture)" : "Your turn: pick a card";
        }
        return `${name}'s turn${ui.config.busy ? " \u2026" : ""}`;
    }
  },

  /** A move in words when the facade sent no message code for it. */
  describeMove(m, st, { who: named = true } = {}) {
    const who = !named ? "" : escapeHtml(m.seat === null || m.seat === undefined ? "" : seatName(st, m.seat));
    const taken = m.cards || m.take || [];
    const words = ["keep", "table", "propose", "pass", "accept", "refuse"];
    const html = this.describeKnown(m, who, taken, words.includes(m.action) ? m.action : m.kind);
    if (html === null) return m.code ? null : `${who}: ${escapeHtml(m.action ?? m.kind ?? "")}`;
    return named ? html : html.trim();
  },

  describeKnown(m, who, taken, what) {
    switch (what) {
      case "lay": return `${who} laid ${mini(m.card)}`;
      case "capture": return `${who} took ${minis(taken)} with ${mini(m.card)}`;
      case "claim": return `${who} claimed ${minis(taken)} with ${mini(m.card)} (a missed capture)`;
      case "keep": return `${who} kept the cut card`;
      case "table": return `${who} put the cut card on the table`;
      case "propose": return `${who} proposed a re-deal`;
      case "pass": return `${who} played on`;
      case "accept": return `${who} accepted the re-deal`;
      case "refuse": return `${who} refused the re-deal`;
      default: return null;
    }
  },

  /** A hint's action in words and symbols (the action text's own format, RECORDS.md). */
  describeAction(a, item) {
    const cards = (s) => minis(s.match(/../g) || []);
    if (/^claim /.test(a)) { const [c, t] = a.slice(6).split("x"); return `Claim ${mini(c)} with ${cards(t)}`; }
    if (a.includes("x")) { const [c, t] = a.split("x"); return `Take ${cards(t)} with ${mini(c)}`; }
    if (/^[2-7AJQKT][DHSC]$/.test(a)) return `Lay ${mini(a)}`;
    return escapeHtml((item && item.label) || a);
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

  flyingCard(code) {
    return cardEl(code);
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
        ? `Left on the table: ${minis(leftovers)} (nobody captured this round: they go to nobody)`
        : `Left on the table: ${minis(leftovers)} \u2014 they go to ${escapeHtml(sideName(st, to))}, who took last`;
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
