// The Chkobba table: renders what chkobba.web (Python) returns and sends back
// action texts built from the player's pointing. No rules live here: the
// engine accepts an action or says why not, and nothing in this file knows
// which captures exist (so nothing can hint at a missed one).

const SAVE_KEY = "chkobba.save.v1";
const PACE_KEY = "chkobba.pace";
const PACE_MS = { slow: 1500, normal: 850, fast: 350, instant: 0 };
const HUMAN = 0;
const SUITS = {
  D: ["\u2666\uFE0E", "diamonds"], H: ["\u2665\uFE0E", "hearts"],
  S: ["\u2660\uFE0E", "spades"], C: ["\u2663\uFE0E", "clubs"],
};
const RANK_TEXT = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const RANK_NAME = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

const $ = (id) => document.getElementById(id);
const root = document.documentElement;
const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const app = {
  state: null,          // last state() from Python
  selectedHand: null,   // card code
  selectedTable: [],    // card codes, in the order picked
  generation: 0,        // bumps on every new/resumed game: stale computer moves are dropped
  busy: false,          // a computer move is being fetched/applied
  paused: false,        // the round summary is open
  shownRounds: 0,       // finished rounds already summarised
  ai: null,             // Promise of the PyScript worker
  pace: localStorage.getItem(PACE_KEY) || "normal",
  timings: [],          // [what, start ms, duration ms] of Python calls and renders
  workerChoices: 0,     // computer moves answered by the worker (the search never runs here)
  lostFocus: null,      // what had keyboard focus before a render removed it (see keepFocus)
  hint: null,           // {state, pending, items, error}: the coach's answer for that state only
  keyboard: false,      // the player's last input was a key (not a pointer): focus is managed
};
window.chkobbaApp = app; // for the e2e tests and for debugging

// ------------------------------------------------------------------ Python

// Everything the page does on its main thread in a round is timed here (the
// facade calls and the renders); the e2e tests check each stays under 50 ms.
function timed(what, fn) {
  const t0 = performance.now();
  const out = fn();
  app.timings.push([what, Math.round(t0), Math.round(performance.now() - t0)]);
  if (app.timings.length > 1000) app.timings.splice(0, 500);
  return out;
}

function py(name, args = {}) {
  const answer = timed(name, () => JSON.parse(window.chkobbaPy(name, JSON.stringify(args))));
  if ("error" in answer) throw new UserError(answer.error);
  return answer.ok;
}
class UserError extends Error {}

function startWorker() {
  if (!app.ai) {
    // The worker runs from a blob: URL, so every URL in its config must be
    // absolute, or PyScript falls back to its CDN defaults.
    const abs = (u) => new URL(u, location.href).href;
    app.ai = Promise.all([import("./pyscript/core.js"), fetch("./pyscript.json").then((r) => r.json())])
      .then(([{ PyWorker }, cfg]) => {
        cfg.interpreter = abs(cfg.interpreter);
        cfg.files = Object.fromEntries(Object.entries(cfg.files || {}).map(([k, v]) => [abs(k), v]));
        return PyWorker(abs("./ai.py"), { config: cfg, type: "pyodide", version: cfg.interpreter });
      })
      .then((worker) => { root.classList.add("ai-ready"); return worker; });
    app.ai.catch((err) => showMessage(`The computer players could not start: ${err}`));
  }
  return app.ai;
}

// ------------------------------------------------------------------ cards

function cardEl(code, { button = false, small = false } = {}) {
  const el = document.createElement(button ? "button" : "span");
  if (button) el.type = "button";
  el.className = small ? "card small" : "card";
  el.dataset.card = code;
  el.dataset.suit = code[1];
  const r = RANK_TEXT[code[0]] || code[0];
  const [glyph, suitName] = SUITS[code[1]];
  const rankName = RANK_NAME[code[0]] || code[0];
  el.setAttribute(button ? "aria-label" : "title", `${rankName} of ${suitName}`);
  if (!button) el.setAttribute("role", "img"), el.setAttribute("aria-label", `${rankName} of ${suitName}`);
  el.innerHTML =
    `<span class="corner" aria-hidden="true">${r}<span class="s">${glyph}</span></span>` +
    `<span class="pip" aria-hidden="true">${/[JQK]/.test(code[0]) ? `<span class="face-letter">${r}</span>` : glyph}</span>` +
    `<span class="corner br" aria-hidden="true">${r}<span class="s">${glyph}</span></span>`;
  return el;
}

function backs(n) {
  const frag = document.createDocumentFragment();
  for (let i = 0; i < n; i++) {
    const b = document.createElement("span");
    b.className = "card back";
    frag.append(b);
  }
  return frag;
}

function mini(code) {
  const r = RANK_TEXT[code[0]] || code[0];
  return `<span class="mini" data-suit="${code[1]}" data-mini="${code}">${r}${SUITS[code[1]][0]}</span>`;
}

// ------------------------------------------------------------------ seats

function seatPos(seat, players) {
  const rel = (seat - HUMAN + players) % players;
  if (players === 2) return rel === 0 ? "bottom" : "top";
  return ["bottom", "right", "top", "left"][rel];
}

function seatName(seat, st = app.state) {
  if (seat === HUMAN) return "You";
  const players = st.view.players;
  const level = st.seats[seat].level;
  if (players === 2) return `Computer (${level})`;
  const pos = seatPos(seat, players);
  return pos === "top" ? `Partner (${level})` : `${pos === "right" ? "Right" : "Left"} opponent (${level})`;
}

function sideName(side, st = app.state) {
  if (st.view.players === 2) return side === 0 ? "You" : "Computer";
  return side === 0 ? "You & partner" : "Opponents";
}

// ------------------------------------------------------------------ render

function render() {
  const st = app.state;
  if (!st) return;
  timed("render", () => keepFocus(drawTable));
}

// render() rebuilds the cards and buttons, which would drop keyboard focus to
// <body> after every move. Remember what had focus by what it is (a hand or
// table card, a button) and focus it again, or the nearest useful thing: a
// decision button, else the first playable hand card. If nothing is
// focusable yet (the computer is moving), wait for a later render.
function focusKey(el) {
  if (!el || !el.closest) return null;
  if (el.closest("#hand")) return { where: "hand", card: el.dataset.card };
  if (el.closest("#table-cards")) return { where: "table", card: el.dataset.card };
  if (el.closest("#choices")) return { where: "choices", action: el.dataset.action };
  if (el.closest("#controls")) return { where: "controls", id: el.id };
  if (el.closest("#coach-slot")) return { where: "controls", id: "btn-hint" };
  return null;
}

function focusLost() {
  const a = document.activeElement;
  return !a || a === document.body || !a.isConnected || a.disabled || !!a.closest("[hidden]");
}

function keepFocus(draw) {
  const key = focusKey(document.activeElement) || app.lostFocus;
  draw();
  // Pointer players get no focus moves (and so no stray focus ring).
  if (!key || !app.keyboard || !focusLost()) return;
  const usable = (el) => el && !el.disabled && !el.closest("[hidden]") && el.offsetParent !== null;
  const exact =
    key.where === "hand" ? document.querySelector(`#hand .card[data-card="${key.card}"]`)
    : key.where === "table" ? document.querySelector(`#table-cards .card[data-card="${key.card}"]`)
    : key.where === "choices" ? document.querySelector(`#choices button[data-action="${key.action}"]`)
    : key.where === "controls" ? $(key.id) : null;
  const target = [exact, document.querySelector("#choices button"), ...document.querySelectorAll("#hand .card")]
    .find(usable);
  if (target) {
    target.focus({ preventScroll: true });
    app.lostFocus = null;
  } else {
    app.lostFocus = key;
  }
}

function drawTable() {
  const st = app.state;
  const v = st.view;
  const table = $("table");
  table.classList.toggle("players-4", v.players === 4);
  table.classList.toggle("players-2", v.players === 2);
  const yourTurn = st.to_act === HUMAN;
  const playing = v.phase === "play" && yourTurn && !app.busy;

  // drop selections that no longer exist
  if (app.selectedHand && !v.hand.includes(app.selectedHand)) app.selectedHand = null;
  app.selectedTable = app.selectedTable.filter((c) => v.table.includes(c));
  if (!playing) { app.selectedHand = null; app.selectedTable = []; }

  // score line
  const [a, b] = v.score;
  let line = `${sideName(0)} ${a} \u2013 ${b} ${sideName(1)} \u00b7 to ${v.target}`;
  if (v.match > 1) line += ` \u00b7 games ${v.games[0]}\u2013${v.games[1]} (best of ${v.match})`;
  const score = $("scoreline");
  score.textContent = line;
  score.dataset.score = `${a},${b}`;
  score.dataset.games = `${v.games[0]},${v.games[1]}`;

  // other seats
  for (const pos of ["top", "left", "right"]) {
    const el = document.querySelector(`.seat[data-pos="${pos}"]`);
    el.replaceChildren();
    delete el.dataset.seat;
    el.classList.remove("to-act");
  }
  for (let seat = 0; seat < v.players; seat++) {
    if (seat === HUMAN) continue;
    const el = document.querySelector(`.seat[data-pos="${seatPos(seat, v.players)}"]`);
    el.dataset.seat = seat;
    el.setAttribute("aria-label", seatName(seat));
    el.classList.toggle("to-act", st.to_act === seat);
    const name = document.createElement("div");
    name.className = "seat-name";
    name.textContent = seatName(seat) + (v.dealer === seat ? " \u00b7 dealer" : "");
    const hand = document.createElement("div");
    hand.className = "hand backs";
    hand.setAttribute("aria-hidden", "true");
    hand.append(backs(v.hand_counts[seat]));
    const info = document.createElement("span");
    info.className = "seat-info";
    info.textContent = ` \u00b7 ${v.hand_counts[seat]} in hand`;
    name.append(info);
    el.append(name, hand);
  }
  document.querySelector(".seat-you").classList.toggle("to-act", yourTurn);
  document.querySelector(".seat-you").dataset.seat = HUMAN;

  // status: whose turn, last move
  const turn = $("turn");
  turn.classList.toggle("yours", yourTurn);
  turn.textContent = turnText(st);
  turn.dataset.toAct = st.to_act === null ? "" : String(st.to_act);
  $("last-move").innerHTML = lastMoveHtml(st);

  // deck and table
  $("deck-count").textContent = `${v.deck} left`;
  $("deck").dataset.count = v.deck;
  const tableCards = $("table-cards");
  tableCards.replaceChildren();
  const justLaid = st.view.last && st.view.last.kind === "lay" && !st.view.last.round_ended ? st.view.last.card : null;
  for (const code of v.table) {
    const el = cardEl(code, { button: true });
    el.disabled = !playing;
    el.setAttribute("aria-pressed", String(app.selectedTable.includes(code)));
    el.classList.toggle("selected", app.selectedTable.includes(code));
    if (code === justLaid) el.classList.add("just-laid");
    el.addEventListener("click", () => toggleTable(code));
    tableCards.append(el);
  }
  if (v.cut_visible && v.cut_card) {
    const cut = cardEl(v.cut_card);
    cut.classList.add("cut-card");
    cut.title = "The cut card (only you see it)";
    tableCards.append(cut);
  }

  // piles
  const piles = $("piles");
  piles.replaceChildren();
  for (const side of [0, 1]) {
    const pile = document.createElement("div");
    pile.className = "pile";
    pile.id = `pile-${side}`;
    pile.dataset.side = side;
    pile.dataset.count = v.piles[side];
    const stack = document.createElement("span");
    stack.className = "stack";
    stack.append(v.piles[side] ? backs(1) : document.createTextNode(""));
    const label = document.createElement("span");
    label.innerHTML = `${sideName(side)}: <span class="count">${v.piles[side]}</span> cards`;
    const sweeps = document.createElement("span");
    sweeps.className = "sweeps";
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
  const hand = $("hand");
  hand.replaceChildren();
  for (const code of v.hand) {
    const el = cardEl(code, { button: true });
    el.disabled = !playing;
    el.setAttribute("aria-pressed", String(app.selectedHand === code));
    el.classList.toggle("selected", app.selectedHand === code);
    el.addEventListener("click", () => toggleHand(code));
    hand.append(el);
  }

  renderControls();
}

function renderControls() {
  const st = app.state;
  const v = st.view;
  const playing = v.phase === "play" && st.to_act === HUMAN && !app.busy;
  const h = app.selectedHand, t = app.selectedTable;
  $("btn-take").disabled = !(playing && h && t.length);
  $("btn-lay").disabled = !(playing && h && !t.length);
  const claim = $("btn-claim");
  claim.hidden = !(playing && st.claim_window);
  claim.disabled = !(playing && st.claim_window && !h && t.length >= 2);
  $("btn-clear").disabled = !(h || t.length);
  const choices = $("choices");
  choices.replaceChildren();
  if (!app.busy) {
    for (const w of st.words) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn primary";
      b.dataset.action = w.action;
      b.textContent = w.label;
      b.addEventListener("click", () => humanAct(w.action));
      choices.append(b);
    }
  }
  $("controls").dataset.mode = st.words.length ? "words" : playing ? "play" : "wait";
  renderCoach();
}

// ------------------------------------------------------------------ coach (opt-in hints)

// Only at a table with hints on is there a Hint button at all, and the coach
// runs only when it is pressed. A hint belongs to the position it was asked
// in: once anything is played it is gone, so nothing is ever shown unasked.
function renderCoach() {
  const st = app.state;
  const box = $("coach");
  box.replaceChildren();
  $("coach-slot").replaceChildren();
  root.classList.toggle("coach-on", !!st.coach);
  if (!st.coach) return;
  const yourTurn = st.to_act === HUMAN && !app.busy && !app.paused;
  const h = app.hint && app.hint.state === st ? app.hint : null;
  const btn = document.createElement("button");
  btn.type = "button";
  btn.id = "btn-hint";
  btn.className = "btn ghost";
  btn.textContent = h && h.pending ? "Thinking…" : "Hint";
  btn.title = "Ask the coach for the best moves (H)";
  btn.setAttribute("aria-keyshortcuts", "H");
  btn.disabled = !yourTurn || !!(h && h.pending);
  btn.addEventListener("click", requestHint);
  $("coach-slot").append(btn);
  if (!h || h.pending) return;
  if (h.error) {
    const p = document.createElement("p");
    p.className = "hint-error";
    p.textContent = `No hint: ${h.error}`;
    box.append(p);
    return;
  }
  const list = document.createElement("ol");
  list.className = "hints";
  list.id = "hints";
  list.setAttribute("aria-label", "Coach's suggestions, best first");
  for (const item of h.items) {
    const li = document.createElement("li");
    li.dataset.action = item.action;
    li.innerHTML = `<span class="hint-move">${describeAction(item)}</span>` +
      (item.reason ? ` <span class="hint-why">${escapeHtml(item.reason)}</span>` : "");
    list.append(li);
  }
  box.append(list);
}

function describeAction(item) {
  const a = item.action;
  const cards = (s) => (s.match(/../g) || []).map(mini).join(" ");
  if (/^claim /.test(a)) { const [c, t] = a.slice(6).split("x"); return `Claim ${mini(c)} with ${cards(t)}`; }
  if (a.includes("x")) { const [c, t] = a.split("x"); return `Take ${cards(t)} with ${mini(c)}`; }
  if (/^[2-7AJQKT][DHSC]$/.test(a)) return `Lay ${mini(a)}`;
  return escapeHtml(item.label || a);
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

async function requestHint() {
  const st = app.state;
  if (!st || !st.coach || st.to_act !== HUMAN || app.busy || app.paused) return;
  if (app.hint && app.hint.state === st && app.hint.pending) return;
  app.hint = { state: st, pending: true, items: [] };
  app.hintsAsked = (app.hintsAsked || 0) + 1; // for the e2e tests: the coach runs only when asked
  render();
  let hint;
  try {
    const worker = await startWorker();
    const answer = JSON.parse(await worker.sync.hint(JSON.stringify({ save: st.save, seat: HUMAN })));
    if ("error" in answer) throw new Error(answer.error);
    hint = { state: st, pending: false, items: answer.ok.actions };
  } catch (err) {
    hint = { state: st, pending: false, items: [], error: err.message || String(err) };
  }
  if (app.state !== st) return; // the position moved on: a stale hint is never shown
  app.hint = hint;
  render();
  // Asked for, so bring it into view (on a phone it is below the hand).
  const shown = $("hints") || $("coach");
  if (shown.scrollIntoView) shown.scrollIntoView({ block: "nearest", behavior: reduceMotion.matches ? "auto" : "smooth" });
}

function turnText(st) {
  const v = st.view;
  if (v.winner !== null && v.winner !== undefined) return `${sideName(v.winner)} won the match`;
  if (st.to_act === null) return "";
  const who = st.to_act === HUMAN ? "Your" : `${seatName(st.to_act)}'s`;
  const name = st.to_act === HUMAN ? "You" : seatName(st.to_act);
  switch (v.phase) {
    case "cut": return st.to_act === HUMAN ? "You cut: keep the cut card or put it on the table" : `${name} is cutting`;
    case "redeal": return st.to_act === HUMAN ? "Three or more table cards match: propose a re-deal?" : `${name} may propose a re-deal`;
    case "answer": return st.to_act === HUMAN ? "A re-deal is proposed: accept or refuse?" : `${name} is answering the re-deal proposal`;
    default:
      if (st.to_act === HUMAN) {
        return st.claim_window ? "Your turn: pick a card (or claim first, if you saw a missed capture)" : "Your turn: pick a card";
      }
      return `${who} turn${app.busy ? " \u2026" : ""}`;
  }
}

function lastMoveHtml(st) {
  const last = st.view.last;
  if (!last) return "";
  const who = last.seat === HUMAN ? "You" : seatName(last.seat);
  let text;
  switch (last.kind) {
    case "lay": text = `${who} laid ${mini(last.card)}`; break;
    case "capture": text = `${who} took ${last.take.map(mini).join(" ")} with ${mini(last.card)}`; break;
    case "claim": text = `${who} claimed ${mini(last.card)} ${last.take.map(mini).join(" ")} (missed capture)`; break;
    case "keep": text = `${who} kept the cut card`; break;
    case "table": text = `${who} put the cut card on the table`; break;
    case "propose": text = `${who} proposed a re-deal`; break;
    case "pass": text = `${who} played on`; break;
    case "accept": text = `${who} accepted the re-deal`; break;
    case "refuse": text = `${who} refused the re-deal`; break;
    default: text = `${who}: ${last.action}`;
  }
  if (last.chkobba) text += ` \u2014 <strong class="chkobba-call">Chkobba!</strong>`;
  return `<span class="label">Last move:</span> <span data-last-action="${last.action}">${text}</span>`;
}

// ------------------------------------------------------------------ pointing

function toggleHand(code) {
  app.selectedHand = app.selectedHand === code ? null : code;
  showMessage("");
  render();
}

function toggleTable(code) {
  const i = app.selectedTable.indexOf(code);
  if (i >= 0) app.selectedTable.splice(i, 1); else app.selectedTable.push(code);
  showMessage("");
  render();
}

function clearSelection() {
  app.selectedHand = null;
  app.selectedTable = [];
  showMessage("");
  render();
}

function pointedAction(kind) {
  const h = app.selectedHand, t = app.selectedTable;
  if (kind === "lay" && h) return h;
  if (kind === "take" && h && t.length) return `${h}x${t.join("")}`;
  if (kind === "claim" && !h && t.length) {
    // The claimed card is the one just laid if the player picked it, else
    // the first card picked; the engine judges the claim either way.
    const laid = app.state.claim_window && app.state.claim_window.card;
    const card = t.includes(laid) ? laid : t[0];
    return `claim ${card}x${t.filter((c) => c !== card).join("")}`;
  }
  return null;
}

function onControl(kind) {
  if (kind === "clear") return clearSelection();
  const action = pointedAction(kind);
  if (action) humanAct(action);
}

function humanAct(action) {
  if (!app.state || app.state.to_act !== HUMAN || app.busy) return;
  const before = app.state;
  let next;
  try {
    next = py("act", { action, seat: HUMAN });
  } catch (err) {
    if (err instanceof UserError) { showMessage(err.message); return; }
    throw err;
  }
  app.selectedHand = null;
  app.selectedTable = [];
  showMessage("");
  commit(next, before);
}

function showMessage(text) {
  $("message").textContent = text;
}

// ------------------------------------------------------------------ game flow

function commit(next, before) {
  const rects = before ? cardRects() : null;
  app.state = next;
  timed("save", save);
  render();
  if (before && rects) timed("animate", () => animateMove(before, next, rects));
  checkRoundEnd();
  scheduleComputer();
}

function save() {
  try {
    localStorage.setItem(SAVE_KEY, JSON.stringify(app.state.save));
  } catch (err) {
    showMessage(`The game could not be saved in this browser: ${err.message}`);
  }
}

function checkRoundEnd() {
  const v = app.state.view;
  if (v.results.length > app.shownRounds) {
    app.shownRounds = v.results.length;
    timed("summary", () => showSummary(v.results[v.results.length - 1], v));
  } else if (v.winner !== null && v.winner !== undefined && $("summary").hidden) {
    timed("summary", () => showSummary(v.results[v.results.length - 1], v));
  }
}

async function scheduleComputer() {
  const st = app.state;
  if (!st || st.to_act_kind !== "computer" || app.busy || app.paused) return;
  const gen = app.generation;
  const seat = st.to_act;
  app.busy = true;
  render();
  const t0 = performance.now();
  let action;
  try {
    const worker = await startWorker();
    const answer = JSON.parse(await worker.sync.choose(JSON.stringify({ save: st.save, seat })));
    if ("error" in answer) throw new Error(answer.error);
    action = answer.ok.action;
    app.workerChoices += 1;
  } catch (err) {
    app.busy = false;
    if (gen === app.generation) showMessage(`The computer could not move: ${err.message || err}`);
    render();
    return;
  }
  const wait = PACE_MS[app.pace] - (performance.now() - t0);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  app.busy = false;
  if (gen !== app.generation || app.state !== st) { scheduleComputer(); return; }
  let next;
  try {
    next = py("act", { action, seat });
  } catch (err) {
    showMessage(`The computer's move was refused: ${err.message}`);
    render();
    return;
  }
  commit(next, st);
}

// ------------------------------------------------------------------ animation

function cardRects() {
  const out = new Map();
  for (const el of document.querySelectorAll("#table-cards .card, #hand .card")) {
    out.set(el.dataset.card, el.getBoundingClientRect());
  }
  return out;
}

function animateMove(before, after, rects) {
  const last = after.view.last;
  if (!last || !last.card || reduceMotion.matches || app.pace === "instant") return;
  const ms = Math.min(600, Math.max(220, PACE_MS[app.pace] * 0.5 || 220));
  const seatEl = last.seat === HUMAN ? $("hand") : document.querySelector(`.seat[data-seat="${last.seat}"] .hand`);
  const from = (code) => rects.get(code) || (seatEl ? seatEl.getBoundingClientRect() : null);
  if (last.kind === "lay") {
    const target = document.querySelector(`#table-cards .card[data-card="${last.card}"]`);
    if (target && !rects.has(last.card)) fly(last.card, from(last.card), target.getBoundingClientRect(), ms, target);
    else if (target && last.seat === HUMAN) fly(last.card, rects.get(last.card), target.getBoundingClientRect(), ms, target);
    return;
  }
  if (last.kind === "capture" || last.kind === "claim") {
    const side = last.seat % 2;
    const pile = $(`pile-${side}`);
    if (!pile) return;
    const to = pile.querySelector(".stack").getBoundingClientRect();
    for (const code of [last.card, ...last.take]) {
      const r = from(code);
      if (r) fly(code, r, to, ms);
    }
  }
}

function fly(code, from, to, ms, hideTarget) {
  if (!from || !to) return;
  const el = cardEl(code);
  el.classList.add("flying");
  el.style.left = `${from.left}px`;
  el.style.top = `${from.top}px`;
  el.style.width = `${from.width}px`;
  el.style.height = `${from.height}px`;
  document.body.append(el);
  if (hideTarget) hideTarget.style.visibility = "hidden";
  const dx = to.left - from.left, dy = to.top - from.top;
  const scale = Math.max(0.3, to.width / from.width);
  const anim = el.animate(
    [{ transform: "translate(0,0) scale(1)" }, { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: hideTarget ? 1 : 0.6 }],
    { duration: ms, easing: "cubic-bezier(.3,.7,.4,1)" },
  );
  anim.onfinish = anim.oncancel = () => {
    el.remove();
    if (hideTarget) hideTarget.style.visibility = "";
  };
}

// ------------------------------------------------------------------ round summary

function showSummary(res, v) {
  if (!res) return;
  app.paused = true;
  const sides = [0, 1];
  const cell = (pts, count) => {
    const p = pts ? `<span class="pt">+${pts}</span>` : `<span class="pt zero">0</span>`;
    return `${p}<span class="why">${count}</span>`;
  };
  const rows = [
    ["Karta (most cards)", "karta", (s) => plural(res.cards[s], "card")],
    ["Dinari (most diamonds)", "dinari", (s) => plural(res.diamonds[s], "diamond")],
    ["Barmila (most sevens, then sixes)", "barmila", (s) => `${plural(res.sevens[s], "seven")}, ${plural(res.sixes[s], "six", "sixes")}`],
    ["Sab\u2018a l-hayya (7\u2666)", "haya", (s) => (res.haya[s] ? "has the 7\u2666" : "\u2014")],
    ["Chkobba (sweeps)", "chkobba", (s) => plural(res.chkobba[s], "sweep")],
  ];
  const gameScore = sides.map((s) => v.results.filter((r) => r.game === res.game).reduce((t, r) => t + r.points[s], 0));
  let html = `<table class="breakdown" id="breakdown"><thead><tr><th></th>${sides.map((s) => `<th>${sideName(s)}</th>`).join("")}</tr></thead><tbody>`;
  for (const [label, key, why] of rows) {
    html += `<tr data-row="${key}"><td>${label}</td>${sides.map((s) => `<td data-side="${s}" data-points="${res[key][s]}">${cell(res[key][s], why(s))}</td>`).join("")}</tr>`;
  }
  html += `</tbody><tfoot><tr data-row="points"><td>Round points</td>${sides.map((s) => `<td data-side="${s}">${res.points[s]}</td>`).join("")}</tr>`;
  html += `<tr data-row="score"><td>Score (to ${v.target})</td>${sides.map((s) => `<td data-side="${s}">${gameScore[s]}</td>`).join("")}</tr></tfoot></table>`;
  if (res.leftovers && res.leftovers.length) {
    const to = res.leftovers_to === null || res.leftovers_to === undefined ? "nobody (no capture this round)" : sideName(res.leftovers_to);
    html += `<p class="note">Cards left on the table went to ${to}: ${res.leftovers.map(mini).join(" ")}</p>`;
  }
  if (res.all_diamonds !== null && res.all_diamonds !== undefined) {
    html += `<p class="result-line">${sideName(res.all_diamonds)} took all ten diamonds!</p>`;
  }
  const gameOver = v.game_index > res.game || (v.winner !== null && v.winner !== undefined);
  const next = $("summary-next");
  next.onclick = closeSummary;
  if (v.winner !== null && v.winner !== undefined) {
    const w = v.winner;
    html += `<p class="result-line" id="match-result" data-winner="${w}">${w === 0 ? (v.players === 2 ? "You win" : "You and your partner win") : `${sideName(w)} win`}${v.match > 1 ? ` the match ${v.games[0]}\u2013${v.games[1]}` : ` ${gameScore[0]}\u2013${gameScore[1]}`}!</p>`;
    next.textContent = "Play again";
    next.onclick = playAgain;
    $("summary-title").textContent = v.match > 1 ? "End of the match" : "End of the game";
  } else if (gameOver) {
    const w = gameScore[0] > gameScore[1] ? 0 : 1;
    html += `<p class="result-line">${sideName(w)} ${w === 0 && v.players === 2 ? "win" : "wins"} game ${res.game + 1} ${gameScore[w]}\u2013${gameScore[1 - w]}. Games: ${v.games[0]}\u2013${v.games[1]}</p>`;
    next.textContent = "Next game";
    $("summary-title").textContent = "End of the game";
  } else {
    next.textContent = "Next round";
    $("summary-title").textContent = `End of round ${v.results.filter((r) => r.game === res.game).length}`;
  }
  $("summary-body").innerHTML = html;
  $("summary").hidden = false;
  $("summary").dataset.round = v.results.length;
  next.focus();
}

function plural(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

function closeSummary() {
  if ($("summary").contains(document.activeElement)) app.lostFocus = { where: "hand" };
  $("summary").hidden = true;
  app.paused = false;
  render();
  scheduleComputer();
}

function playAgain() {
  const last = app.state.save;
  $("summary").hidden = true;
  app.paused = false;
  newGame({ options: last.record.options, seats: last.seats, coach: last.coach === true });
}

// ------------------------------------------------------------------ start screen

function fillLevels(players, seats) {
  const box = $("levels");
  box.querySelectorAll("label").forEach((l) => l.remove());
  const names = players === 2 ? { 1: "Opponent" } : { 1: "Opponent on your right", 2: "Your partner", 3: "Opponent on your left" };
  for (const [seat, name] of Object.entries(names)) {
    const label = document.createElement("label");
    label.className = "field";
    label.textContent = name + " ";
    const sel = document.createElement("select");
    sel.name = `level-${seat}`;
    for (const lvl of ["easy", "medium", "hard"]) {
      const o = document.createElement("option");
      o.value = lvl;
      o.textContent = lvl[0].toUpperCase() + lvl.slice(1);
      sel.append(o);
    }
    sel.value = (seats && seats[seat] && seats[seat].level) || "medium";
    label.append(sel);
    box.append(label);
  }
}

function showStart() {
  const form = $("start-form");
  const prev = app.state && app.state.save;
  if (prev) {
    const o = prev.record.options;
    form.players.value = String(o.players);
    for (const k of ["faces", "capture"]) form[k].value = o[k];
    for (const k of ["target", "match"]) form[k].value = String(o[k]);
    for (const k of ["missed_capture", "last_card_sweep", "redeal", "all_diamonds_wins"]) form[k].checked = !!o[k];
    form.coach.checked = prev.coach === true;
  }
  fillLevels(Number(form.players.value), prev && prev.seats);
  syncForm();
  $("start-cancel").hidden = !app.state;
  $("start").hidden = false;
  $("start").scrollTop = 0;
  $("start-button").focus({ preventScroll: true });
}

function hideStart() {
  if ($("start").contains(document.activeElement)) app.lostFocus = { where: "hand" };
  $("start").hidden = true;
  keepFocus(() => {});
}

function syncForm() {
  const form = $("start-form");
  form.missed_capture.disabled = form.capture.value === "compulsory";
}

function readForm() {
  const form = $("start-form");
  const players = Number(form.players.value);
  const options = {
    players,
    faces: form.faces.value,
    capture: form.capture.value,
    missed_capture: form.missed_capture.checked,
    last_card_sweep: form.last_card_sweep.checked,
    redeal: form.redeal.checked,
    target: Number(form.target.value),
    match: Number(form.match.value),
    all_diamonds_wins: form.all_diamonds_wins.checked,
  };
  const seats = [{ kind: "human" }];
  for (let s = 1; s < players; s++) seats.push({ kind: "computer", level: form[`level-${s}`].value });
  return { game: form.game.value, options, seats, coach: form.coach.checked };
}

// The engine call and the first drawing of the new table run as two tasks,
// so neither holds the main thread for long (the computer players'
// interpreter may be booting at the same time). `split: false` at boot, where
// the table must be drawn before the page says it is ready.
function newGame(settings, { split = true } = {}) {
  const seed = new URLSearchParams(location.search).get("seed");
  let st;
  try {
    st = py("start", { ...settings, seed: seed === null ? null : Number(seed) });
  } catch (err) {
    if (err instanceof UserError) { showMessage(err.message); return false; }
    throw err;
  }
  // From here the facade plays the new game: moves of the old one are dropped.
  const gen = ++app.generation;
  const draw = () => {
    if (gen !== app.generation) return;
    app.busy = false;
    app.paused = false;
    app.shownRounds = 0;
    app.selectedHand = null;
    app.selectedTable = [];
    if ($("start").contains(document.activeElement) || $("summary").contains(document.activeElement)) {
      app.lostFocus = { where: "hand" };
    }
    $("start").hidden = true;
    $("summary").hidden = true;
    showMessage("");
    commit(st, null);
  };
  if (split) setTimeout(draw, 0); else draw();
  return true;
}

function resumeSaved() {
  const raw = localStorage.getItem(SAVE_KEY);
  if (raw === null) return false;
  let st;
  try {
    st = py("resume", { save: JSON.parse(raw) });
  } catch (err) {
    const reason = err instanceof SyntaxError ? "the saved game could not be read (not valid JSON)" : err.message;
    // Nothing is thrown away: the unreadable save is kept aside for recovery.
    try { localStorage.setItem(SAVE_KEY + ".damaged", raw); } catch (e) { /* storage full */ }
    localStorage.removeItem(SAVE_KEY);
    showNotice(`Your saved game was damaged and could not be resumed (${reason}); a new game has started.`);
    return null;
  }
  app.generation++;
  app.shownRounds = st.view.results.length;
  commit(st, null);
  return true;
}

function showNotice(text) {
  const n = $("notice");
  n.textContent = text;
  n.hidden = !text;
}

// ------------------------------------------------------------------ boot

function wire() {
  $("controls").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-act]");
    if (b && !b.disabled) onControl(b.dataset.act);
  });
  $("new-game").addEventListener("click", showStart);
  $("start-cancel").addEventListener("click", hideStart);
  const form = $("start-form");
  form.addEventListener("change", (e) => {
    if (e.target.name === "players") fillLevels(Number(form.players.value), null);
    syncForm();
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    newGame(readForm());
  });
  const pace = $("pace");
  pace.value = app.pace in PACE_MS ? app.pace : "normal";
  pace.addEventListener("change", () => {
    app.pace = pace.value;
    localStorage.setItem(PACE_KEY, app.pace);
  });
  // Focus moved by the player (Tab, a click) wins over a pending restore.
  document.addEventListener("focusin", () => { app.lostFocus = null; });
  document.addEventListener("keydown", () => { app.keyboard = true; }, { capture: true });
  document.addEventListener("pointerdown", () => { app.keyboard = false; }, { capture: true });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (!$("start").hidden || !$("summary").hidden) {
      if (e.key === "Escape" && !$("start").hidden && app.state) hideStart();
      return;
    }
    const key = e.key.toLowerCase();
    if (key === "escape") clearSelection();
    else if (key === "t") onControl("take");
    else if (key === "l") onControl("lay");
    else if (key === "c") onControl("claim");
    else if (key === "h" && app.state && app.state.coach) requestHint();
  });
}

function onPythonReady() {
  $("loading-text").textContent = "Ready";
  $("start-button").disabled = false;
  let resumed;
  try {
    resumed = resumeSaved();
  } catch (err) {
    resumed = null;
    showNotice(`Your saved game could not be resumed (${err.message}); a new game has started.`);
  }
  if (resumed === null) newGame({ game: "chkobba", options: { players: 2 }, seats: null }, { split: false });
  else if (!resumed) showStart();
  root.classList.remove("booting");
  root.classList.add("ready");
  // The computer players' interpreter boots once the table is usable; then
  // the offline copy of the site is made (see sw.js).
  setTimeout(() => startWorker().finally(registerServiceWorker), 0);
}

// Offline play and updates (web/update.js): a new version is offered only
// when no round is in progress (a round summary or the end of the match is
// shown), never mid-round.
function registerServiceWorker() {
  import("./update.js").then(({ initUpdates }) => initUpdates({
    canReloadNow: () => !app.state || app.paused || app.state.to_act === null,
    onUpdateReady: (apply) => { $("update").hidden = !apply; $("update-reload").onclick = apply; },
  })).then((u) => { if (u) root.classList.add("sw-registered"); });
}

wire();
fillLevels(2, null);
window.addEventListener("py:error", () => root.classList.add("failed"));
if (window.chkobbaPy) onPythonReady();
else window.addEventListener("chkobba:python-ready", onPythonReady, { once: true });
