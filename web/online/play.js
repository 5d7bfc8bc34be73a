// Playing friends on their own phones (issue 24; design in docs/online.md).
//
// One page, three roles, chosen by the address:
// - no fragment: the HOST chooses the game and each seat, then its page runs
//   chkobba.online.HostTable in its Python (web/shell/py.js) with one Peer
//   (web/online/peer.js) per friend, and draws its own seat's answer;
// - #offer=...&seat=N&table=ID: a FRIEND's phone answers the host's offer,
//   shows its answer (link and QR code) to send back, then sits down: it
//   draws only what the host sends for its seat (chkobba.online.Guest keeps
//   its secret and seeds and audits every round, in this page's Python);
// - #answer=...: the friend's answer opened on the host's own phone: handed
//   to the host's tab (BroadcastChannel, same phone only), nothing else.
// No rule, score or winner here: the answers come from the facade's builder.
// No request leaves the origin unless the player chose "over the internet"
// and agreed to the notice naming each server (then web/online/signal.js,
// WebSocket trackers, passes the set-up; #room=CODE&seat=N&table=ID links).

import { mount } from "../table/core.js";
import { initI18n, mountLanguagePicker, t, translateDom } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { renderSummary } from "../shell/sheet.js";
import { closeDialog, isOpen, openDialog, setupDialog } from "../shell/dialogs.js";
import { SLICE_MS, nextTask, runPython, startPython } from "../shell/py.js";
import { PACE_MS, loadPace, writePace } from "../shell/storage.js";
import { Peer } from "./peer.js";
import { DEFAULT_RELAYS, DEFAULT_STUN } from "./relays.js";

await initI18n();
translateDom();
mountLanguagePicker(document.querySelector(".bar-actions .lang-slot"), { reload: true });

const $ = (id) => document.getElementById(id);
const root = document.documentElement;
const GIVE_UP_MS = 20_000;          // from the answer's use to an open channel
const WAIT_FOR_HOST_MS = 300_000;   // a friend's answer waits this long for the host to open it
// Until a friend sits, its page may be busy starting its Python (long tasks on a
// slow phone, no heartbeat meanwhile): neither side counts the other gone before this.
const STARTING_SILENT_MS = 60_000;
const HOST_KEY = "chkobba.online.host";
const guestKey = (table, seat) => `chkobba.online.guest.${table}.${seat}`;
const CHANNEL = "chkobba-online";
const SETTINGS_KEY = "chkobba.online.settings";
const agreedKey = (table, seat) => `chkobba.online.agreed.${table}.${seat}`;   // sessionStorage: a reload asks no more
let signalModule = null;
const signals = () => { if (!signalModule) signalModule = import("./signal.js"); return signalModule; };

// For the e2e tests and the curious: what this page did and received.
const online = { role: null, received: [], events: [], peers: new Map(), table: null, latencies: [], refusals: 0,
                 reactions: [], summaries: [], computerMoves: [], saves: 0, draws: 0, notes: [], got: 0 };   // [slices, ms] of each computer move the host's page thought
window.chkobbaOnline = online;

function status(text) {
  const p = $("online-status");
  p.textContent = text || "";
  p.hidden = !text;
}

function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
  } catch { /* private mode: nothing kept */ }
}
function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function hex(bytes) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------- over the internet: settings, consent

/** The player's relays, STUN servers and own TURN server (the site's defaults until changed). */
function netSettings() {
  let saved = {};
  try { saved = JSON.parse(load(SETTINGS_KEY)) || {}; } catch { saved = {}; }
  return { relays: Array.isArray(saved.relays) ? saved.relays : DEFAULT_RELAYS,
           stun: Array.isArray(saved.stun) ? saved.stun : DEFAULT_STUN,
           turn: saved.turn && saved.turn.urls ? saved.turn : null };
}

function iceServersOf(net) {
  const out = [];
  if (net.stun.length) out.push({ urls: net.stun });
  if (net.turn) out.push({ urls: net.turn.urls, username: net.turn.username || undefined, credential: net.turn.credential || undefined });
  return out;
}

function fillSettingsForm() {
  const f = $("setup-form").elements;
  const net = netSettings();
  f.relays.value = net.relays.join("\n");
  f.stun.value = net.stun.join("\n");
  f.turn.value = net.turn ? net.turn.urls : "";
  f.turn_user.value = net.turn ? net.turn.username || "" : "";
  f.turn_pass.value = net.turn ? net.turn.credential || "" : "";
}

/** The settings as typed: kept, or one plain error (and nothing kept). */
async function readSettingsForm() {
  const f = $("setup-form").elements;
  const { parseRelays } = await signals();
  const note = $("setup-form").querySelector(".settings-note");
  try {
    const relays = parseRelays(f.relays.value);
    const stun = f.stun.value.split(/[\s,]+/).filter(Boolean);
    const bad = stun.find((u) => !/^stuns?:[^\s]+$/.test(u));
    if (bad) throw new Error(bad);
    const turnUrl = f.turn.value.trim();
    if (turnUrl && !/^turns?:[^\s]+$/.test(turnUrl)) throw new Error(turnUrl);
    if (!relays.length) throw new Error("-");
    const turn = turnUrl ? { urls: turnUrl, username: f.turn_user.value, credential: f.turn_pass.value } : null;
    store(SETTINGS_KEY, JSON.stringify({ relays, stun, turn }));
    note.textContent = "";
    return { relays, stun, turn };
  } catch (e) {
    note.textContent = t("online.settings.bad", { text: e.message });
    $("setup-form").querySelector(".net-settings").open = true;
    return null;
  }
}

/** The notice before the first request leaves this page's origin: each server and what it sees. */
function askConsent(relays, net) {
  const list = $("consent").querySelector(".consent-list");
  list.replaceChildren();
  const item = (key, url) => {
    const li = document.createElement("li");
    let name = url;
    try { name = new URL(url).host || url; } catch { /* stun:host:port */ }
    li.textContent = t(key, { host: name.replace(/^(stuns?|turns?):/, "") });
    list.append(li);
  };
  for (const r of relays) item("online.consent.relay", r);
  for (const u of net.stun) item("online.consent.stun", u);
  if (net.turn) item("online.consent.turn", net.turn.urls);
  const shown = ["setup", "resume", "finished", "join"].filter((id) => !$(id).hidden);
  for (const id of shown) $(id).hidden = true;
  $("consent").hidden = false;
  online.consent = "asked";
  return new Promise((resolve) => {
    const done = (yes) => {
      $("consent").hidden = true;
      $("consent-yes").onclick = null;
      $("consent-no").onclick = null;
      online.consent = yes ? "agreed" : "declined";
      if (!yes) for (const id of shown) $(id).hidden = false;
      resolve(yes);
    };
    $("consent-yes").onclick = () => done(true);
    $("consent-no").onclick = () => done(false);
    $("consent-yes").focus();
  });
}

function relaysParam(relays) {
  const same = relays.length === DEFAULT_RELAYS.length && relays.every((r, i) => r === DEFAULT_RELAYS[i]);
  if (same) return {};
  const bytes = new TextEncoder().encode(JSON.stringify(relays));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return { relays: btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") };
}

async function relaysOfLink(text) {
  if (!text) return DEFAULT_RELAYS;
  const { parseRelays } = await signals();
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const list = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  if (!Array.isArray(list) || !list.length || list.length > 8) throw new Error("relays");
  return parseRelays(list.join("\n"));
}

// The invite module with its QR encoder: loaded only here, when an
// invitation is shown (never on the table page's first visit).
let inviteModule = null;
function invite() {
  if (!inviteModule) inviteModule = import("./invite.js");
  return inviteModule;
}

/** A link to send: the system's share sheet where there is one, else copy; and its QR code. */
async function showLink(box, link, { label }) {
  const { qrSvg } = await invite();
  box.replaceChildren();
  const field = document.createElement("input");
  field.type = "text";
  field.readOnly = true;
  field.value = link;
  field.className = "invite-link";
  field.setAttribute("aria-label", label);
  const row = document.createElement("p");
  row.className = "invite-actions";
  const send = document.createElement("button");
  send.type = "button";
  send.className = "btn primary invite-send";
  send.textContent = navigator.share ? t("online.share") : t("online.copy");
  send.addEventListener("click", async () => {
    if (navigator.share) {
      try { await navigator.share({ url: link }); return; } catch { /* cancelled: copy instead */ }
    }
    try {
      await navigator.clipboard.writeText(link);
      send.textContent = t("online.copied");
    } catch {
      field.select();
    }
  });
  row.append(send);
  const figure = document.createElement("figure");
  figure.className = "invite-qr";
  const { svg } = qrSvg(link);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("online.qr_label"));
  figure.append(svg);
  box.append(field, row, figure);
}

function facadeMessage(msg) {
  return { code: msg.code || null, params: msg.params || {}, error: msg.error || "" };
}

// ---------------------------------------------------------------- presence

function seatLabel(seat, me, kind) {
  if (seat === me) return t("seat.you");
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

function showReaction(seat, reaction) {
  if (!REACTIONS.includes(reaction)) return;
  bubbles.set(seat, { reaction, until: performance.now() + REACTION_MS });
  online.reactions.push([seat, reaction]);
  drawPresence(...presenceArgs);
  setTimeout(() => drawPresence(...presenceArgs), REACTION_MS + 50);
}

/** A quiet line by the reactions' button (a reaction over the allowance: "wait a moment"). */
function reactNote(text) {
  const note = $("react").querySelector(".react-note");
  note.textContent = text;
  clearTimeout(reactNote.timer);
  reactNote.timer = setTimeout(() => { note.textContent = ""; }, 3000);
}

/** The reactions' button and its list, each sent with `send(reaction)`. */
function setupReactions(send) {
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
function drawPresence(presence, toAct, me, left = null) {
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
    li.textContent = seatLabel(p.seat, me, p.kind);
    if (!(p.kind === "computer" && state === "here")) {
      const word = document.createElement("span");
      word.textContent = ` · ${t(PRESENCE[state])}`;
      if (state === "here") word.className = "sr";
      li.append(word);
    }
    if (state === "thinking" && left !== null && left !== undefined) {
      li.textContent += ` · ${t("online.seconds_left", { n: left })}`;   // the online timer (the host's clock)
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
// (web/shell/sheet.js, from its seat's answer: nothing is counted here); at
// the match's end, the result and "Rematch": the host's starts a new match at
// the same seats, a friend's asks the host for one (the reaction "rematch").
const summary = { shown: null, onNext: null };

function checkSummary(answer) {
  if (!answer || !answer.sheet) return;
  const done = answer.sheet.rounds.length;
  // the first answer seen: rounds already played are not shown again, a finished match shows its result
  if (summary.shown === null) summary.shown = answer.sheet.over ? Math.max(0, done - 1) : done;
  if (done < summary.shown) summary.shown = done;   // a new match
  if (done > summary.shown) {
    summary.shown = done;
    openSummary(answer);
  }
}

function openSummary(st) {
  const { title, next } = renderSummary($("summary-body"), st, view.names(st));
  $("summary-title").textContent = title;
  const btn = $("summary-next");
  btn.dataset.next = next;
  btn.disabled = false;
  btn.textContent = next === "over" ? t("online.rematch") : next === "game" ? t("summary.next_game") : t("summary.next_round");
  $("summary-close").hidden = next !== "over";
  $("summary").dataset.round = st.sheet.rounds.length;
  const auditLine = $("summary").querySelector(".audit-summary");
  const audit = online.role === "friend" && friend.py ? JSON.parse(friend.py.status()) : null;
  const bad = audit ? audit.failed.find((f) => f.match === audit.match && f.round <= st.sheet.rounds.length) : null;
  auditLine.hidden = !bad;
  auditLine.textContent = bad ? t("online.audit_summary", { round: bad.round, reason: messageText({ code: bad.code, params: bad.params }) }) : "";
  $("summary").dataset.next = next;
  online.summaries.push([st.sheet.rounds.length, next]);
  syncRematchLine();
  openDialog($("summary"), btn, null);
}

/** Who asked for a rematch (the host's page), or that this phone asked (a friend's). */
function syncRematchLine(text = null) {
  const line = $("summary").querySelector(".rematch-line");
  let say = text;
  if (say === null && online.role === "host" && host.last) {
    const asked = host.last.presence.filter((p) => p.rematch).map((p) => seatLabel(p.seat, host.last.seat, p.kind));
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
function newMatch() {
  summary.shown = 0;
  $("summary").dataset.next = "";
  closeSummary();
}

setupDialog($("summary"), { onCancel: closeSummary });
$("summary-next").addEventListener("click", summaryNext);
$("summary-close").addEventListener("click", closeSummary);

// ---------------------------------------------------------------- the table

let view = null;
function showTable(onAction) {
  $("table").hidden = false;
  if (!view) view = mount($("table"), { state: null, onAction, logOpen: false });
  online.tableView = view;
  return view;
}

/** Where an answer is in the match: a new move or round changes it. */
const movedTo = (a) => `${a.moves.length}:${(a.last_round_moves || []).length}:${JSON.stringify(a.moves[a.moves.length - 1] || null)}`;

/**
 * Draw `answer` on the table. A new move's cards fly from where they were,
 * at this phone's pace setting, as on the table page (web/table/core.js
 * animateMove: none at the instant pace or with reduced motion); the same
 * position drawn again (a clock tick, someone's presence) flies nothing.
 */
function drawAnswer(onAction, answer) {
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
function seatNotes(before, now, me) {
  if (!before || !now) return;
  for (const p of now) {
    const was = before.find((q) => q.seat === p.seat);
    if (!was || p.kind !== "remote" || p.seat === me) continue;
    const who = seatLabel(p.seat, me, p.kind);
    if (!was.computer && p.computer) seatNote("computer", p.seat, t("online.note.computer", { who }));
    else if (was.computer && !p.computer && p.present) seatNote("back", p.seat, t("online.note.back", { who }));
  }
}

function seatNote(kind, seat, text) {
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
function hostAuditLine(presence) {
  const failed = presence.filter((p) => p.audit_failed);
  const line = $("audit-line");
  if (!failed.length) return;
  line.hidden = false;
  line.className = "audit-line audit-failed";
  line.dataset.seats = failed.map((p) => p.seat).join(",");
  line.textContent = failed.map((p) => t("online.audit_failed_host",
    { who: seatLabel(p.seat, null, p.kind), round: p.audit_failed.round })).join(" ");
}

// ================================================================= HOST

const HOST_PY = `
import gc
import json
from js import performance
from chkobba.errors import ChkobbaError
from chkobba.online.host import HostTable, SeatSpec

def _clock():
    return performance.now() / 1000

class _Page:
    table = None

    def new(self, game, options, seats, timers):
        timers = json.loads(timers)
        self.table = HostTable(game, json.loads(options), [SeatSpec(k, l) for k, l in json.loads(seats)], _clock,
                               timers=tuple(timers) if timers else None, sliced=True)

    def resume(self, saved):
        self.table = HostTable.resume(json.loads(saved), _clock, sliced=True)

    def connect(self, peer, seat):
        self.table.connect(peer, seat)  # the invitation's seat: the only one this connection may take

    def version(self):
        return self.table.version  # grows only when a message (or time) changed the table

    def reissue(self, seat):
        return json.dumps(self.table.reissue(seat) + self.table.tick())

    def receive(self, peer, text):
        t = self.table
        out = t.receive(peer, text)
        if not t.started and all(s.peer is not None for s in t.seats if s.spec.kind == "remote"):
            out += t.start()  # every friend sits: ask for round 1's seeds
        return json.dumps(out + t.tick())

    def start(self):
        return json.dumps(self.table.start() + self.table.tick())

    def disconnect(self, peer):
        return json.dumps(self.table.disconnect(peer) + self.table.tick())

    def tick(self):
        return json.dumps(self.table.tick())

    def tidy(self):
        # what the last decision left, collected before the next one (as web/ai.py's tidy):
        # a collection would otherwise land in the middle of a slice
        gc.collect()
        gc.freeze()

    def think(self, ms):
        return self.table.think(ms)

    def computer_turn(self):
        return self.table.computer_turn()

    def computer_move(self):
        return json.dumps(self.table.computer_move())

    def act(self, action):
        try:
            out = self.table.host_act(action) + self.table.tick()
        except ChkobbaError as e:
            return json.dumps({"error": str(e), "code": e.code, "params": e.params})
        return json.dumps({"out": out})

    def react(self, reaction):
        try:
            out = self.table.host_react(reaction)
        except ChkobbaError as e:
            return json.dumps({"error": str(e), "code": e.code, "params": e.params})
        return json.dumps({"out": out})

    def rematch(self):
        return json.dumps(self.table.rematch() + self.table.tick())

    def state(self):
        t = self.table
        s = t.session
        legal = s.legal() if s is not None and not s.is_over and s.to_act() == t.host_seat else []
        return json.dumps({"answer": t.host_view(), "presence": t.presence(), "started": t.started, "legal": legal,
                           "position": t.position(), "seat": t.host_seat,
                           "time_left": None if t.time_left() is None else int(t.time_left() + 0.999),
                           "over": t.over, "match": t.match, "reactions": [[n, seat, r] for n, (_, seat, r) in
                                                                       enumerate(t.reactions, t.reacted - len(t.reactions))]})

    def save(self):
        return json.dumps(self.table.save())

    def record(self):
        s = self.table.session
        return s.record_json() if s is not None else None

_Page()
`;

const host = { py: null, id: null, seats: null, invites: new Map(), nextPeer: 1, last: null, net: null, reacted: null,
               thinking: false };

function hostSettings() {
  const form = $("setup-form");
  const choice = form.elements.table.value;
  const game = choice === "seven_diamonds" ? "seven_diamonds" : "chkobba";
  const options = game === "chkobba" ? { players: Number(choice.split("-")[1]) } : {};
  return { game, options, players: game === "seven_diamonds" ? 4 : options.players };
}

function drawSeatRows() {
  const { players } = hostSettings();
  const rows = $("setup-form").querySelector(".seat-rows");
  const before = [...rows.querySelectorAll("select")].map((s) => s.value);
  rows.replaceChildren();
  const you = document.createElement("p");
  you.className = "seat-row";
  you.textContent = `${t("online.seat_n", { n: 1 })}: ${t("seat.you")}`;
  rows.append(you);
  for (let seat = 1; seat < players; seat += 1) {
    const label = document.createElement("label");
    label.className = "field seat-row";
    const span = document.createElement("span");
    span.textContent = t("online.seat_n", { n: seat + 1 });
    const select = document.createElement("select");
    select.name = `seat${seat}`;
    for (const [value, key, params] of [["friend", "online.kind.friend"], ["easy", "online.kind.computer", { level: t("level.easy") }],
      ["medium", "online.kind.computer", { level: t("level.medium") }], ["hard", "online.kind.computer", { level: t("level.hard") }]]) {
      const o = document.createElement("option");
      o.value = value;
      o.textContent = t(key, params || {});
      select.append(o);
    }
    select.value = before[seat - 1] || (seat === 1 ? "friend" : "medium");
    label.append(span, select);
    rows.append(label);
  }
}

function hostSend(outText) {
  for (const [peerId, msg] of JSON.parse(outText)) {
    const p = online.peers.get(peerId);
    if (p) p.send(msg);
  }
}

/**
 * After every message or move: the host's save first (a friend never sees a
 * move the save lacks), then draw; both only when the table changed
 * (HostTable.version: a refused or dropped message costs no save, no redraw).
 */
function hostChanged(outText = "[]") {
  const version = host.py.version();
  const changed = version !== host.version;
  if (changed) {
    host.version = version;
    store(HOST_KEY, JSON.stringify({ id: host.id, net: host.net, save: JSON.parse(host.py.save()) }));
    online.saves += 1;
  }
  hostSend(outText);
  if (!changed) return;
  hostDraw();
  hostComputers();
}

/**
 * The computer's seats (and a gone friend's after the grace period) on the
 * host's phone: each move is thought about in slices of SLICE_MS (the hard
 * player's search), between which the page draws and answers its friends,
 * then stays on the table for the host's pace before the next, as on the
 * table page (docs/online.md, "The computer's seats"). One at a time.
 */
async function hostComputers() {
  if (host.thinking) return;
  host.thinking = true;
  try {
    for (;;) {
      await nextTask();
      const began = performance.now();
      if (host.py.computer_turn() == null) return;
      host.py.tidy();
      await nextTask();
      let decided = host.py.think(SLICE_MS);
      let slices = 1;
      while (decided === false) {
        await nextTask();
        decided = host.py.think(SLICE_MS);
        slices += 1;
      }
      if (decided !== true) return;   // no computer is to act
      online.computerMoves.push([slices, Math.round(performance.now() - began)]);
      const wait = PACE_MS[loadPace()] - (performance.now() - began);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await nextTask();
      hostChanged(host.py.computer_move());   // nothing when the table moved on meanwhile
    }
  } finally {
    host.thinking = false;
  }
}

/** During play the invitations lie over the table: shown when a friend's
 * seat needs one (a friend who left), hidden by the host to play on, and
 * shown again from the bar's button while one waits. */
function invitesInPlay(started) {
  const box = $("invites");
  const waiting = [...host.invites.values()].some((c) => !c.el.hidden);
  const wasWaiting = box.dataset.waiting === "1";
  box.dataset.waiting = waiting ? "1" : "";
  box.classList.toggle("in-play", started);
  if (started && waiting && !wasWaiting) box.classList.remove("closed");   // a new invitation: show it once
  const toggle = $("invites-toggle");
  toggle.hidden = !(started && waiting);
  toggle.setAttribute("aria-expanded", String(started && waiting && !box.classList.contains("closed")));
  if (!invitesInPlay.ready) {
    invitesInPlay.ready = true;
    const show = (open) => { box.classList.toggle("closed", !open); invitesInPlay(host.last ? host.last.started : false); };
    toggle.addEventListener("click", () => show(box.classList.contains("closed")));
    box.querySelector(".invites-close").addEventListener("click", () => { show(false); toggle.focus(); });
  }
}

function hostDraw() {
  const text = host.py.state();
  if (host.last && text === host.lastText) return;
  const st = JSON.parse(text);
  online.draws += 1;
  seatNotes(host.last ? host.last.presence : null, st.presence, st.seat);
  host.last = st;
  host.lastText = text;
  online.table = st;
  hostAuditLine(st.presence);
  const answer = st.answer;
  drawPresence(st.started ? st.presence : null, answer ? answer.to_act : null, st.seat, st.time_left);
  for (const p of st.presence) {
    const card = host.invites.get(p.seat);
    if (card) card.sync(p);
  }
  $("start-now").hidden = st.started;
  invitesInPlay(st.started);
  // the reactions sent since the last drawing (a friend's, or this phone's own), at their seats
  const fresh = st.reactions.filter(([n]) => host.reacted !== null && n > host.reacted);
  if (st.reactions.length) host.reacted = Math.max(host.reacted ?? -1, ...st.reactions.map(([n]) => n));
  else if (host.reacted === null) host.reacted = -1;
  for (const [, seat, r] of fresh) showReaction(seat, r);
  if (st.started) setupReactions(hostReact);
  if (answer) {
    drawAnswer(hostAct, answer);
    checkSummary(answer);
  } else if (st.started) {
    showTable(hostAct).set({ loading: t("online.waiting_seeds") });
  }
  syncRematchLine();
}

function hostReact(reaction) {
  const got = JSON.parse(host.py.react(reaction));
  if (got.error !== undefined) {
    reactNote(t("online.react_wait"));   // over the allowance: quietly, not an error
    return;
  }
  hostChanged(JSON.stringify(got.out));
}

/** The host's "Rematch": a new match at the same seats (fresh seeds from every phone). */
function hostRematch() {
  newMatch();
  hostChanged(host.py.rematch());
}

function hostAct(action) {
  const got = JSON.parse(host.py.act(action));
  if (got.error !== undefined) {
    view.showMessage(facadeMessage(got), t("app.not_allowed"));
    return;
  }
  view.showMessage(null);
  hostChanged(JSON.stringify(got.out));
}

/** One friend's seat: its invitation (link + QR), the answer pasted back, the connection. */
class InviteCard {
  constructor(seat) {
    this.seat = seat;
    this.peer = null;
    this.peerId = null;
    this.present = false;
    this.el = document.createElement("article");
    this.el.className = "invite-card";
    this.el.dataset.seat = seat;
    this.el.innerHTML = `<h3></h3><p class="invite-state"></p><div class="invite-box"></div>
      <label class="field answer-field"><span></span><input type="text" class="answer-input" autocomplete="off" spellcheck="false"></label>
      <p class="invite-actions"><button type="button" class="btn answer-use"></button></p>
      <p class="invite-actions reissue-row"><button type="button" class="btn ghost reissue"></button></p>
      <p class="reissue-note"></p>`;
    this.el.querySelector("h3").textContent = t("online.seat_friend", { n: seat + 1 });
    this.el.querySelector(".answer-field span").textContent = t("online.paste_answer");
    this.el.querySelector(".answer-use").textContent = t("online.use_answer");
    this.el.querySelector(".answer-use").addEventListener("click", () => this.accept(this.el.querySelector(".answer-input").value));
    // a friend on a new browser or phone (its secret lost): the seat's old secret is retired, the waiting phone sits
    const reissue = this.el.querySelector(".reissue");
    reissue.textContent = t("online.reissue");
    this.el.querySelector(".reissue-note").textContent = t("online.reissue_note");
    reissue.addEventListener("click", () => {
      online.events.push(`host:${this.seat}:reissue`);
      this.el.dataset.reissued = String(Number(this.el.dataset.reissued || 0) + 1);
      hostChanged(host.py.reissue(this.seat));
    });
    $("invites").querySelector(".invite-list").append(this.el);
  }

  say(text) { this.el.querySelector(".invite-state").textContent = text; }

  async offer() {
    this.el.hidden = false;
    if (host.last) invitesInPlay(host.last.started);   // during play: over the table, shown once
    this.el.dataset.state = "preparing";
    this.say(t("online.preparing_invite"));
    const id = host.nextPeer++;
    const peer = new Peer(host.net ? { iceServers: iceServersOf(host.net) } : {});
    this.silentMs = peer.options.silentMs;   // once the friend sits
    peer.options.silentMs = STARTING_SILENT_MS;
    this.peer = peer;
    this.peerId = id;
    online.peers.set(id, peer);
    peer.onstate = (state, why) => {
      online.events.push(`host:${this.seat}:${state}${why ? `:${why}` : ""}`);
      if (state === "open") {
        clearTimeout(this.giveUp);
        if (this.signal) { this.signal.close(); this.signal = null; }   // the relays are needed no more
        host.py.connect(id, this.seat);   // this invitation's seat, and no other
        this.el.dataset.state = "open";
        this.say(t("online.connected"));
      }
      if (state === "closed") {
        clearTimeout(this.giveUp);
        online.peers.delete(id);
        if (this.peer !== peer) return;
        hostChanged(host.py.disconnect(id));
        if (this.el.dataset.state === "connecting") this.fail();   // it never opened: say so, with the fallbacks
        else if (this.el.dataset.state !== "failed") this.offer();   // a friend who left: a new invitation for this seat
      }
    };
    peer.onmessage = (msg, raw) => {
      if (this.peer !== peer) return;
      online.got += 1;
      online.received.push(msg);
      if (online.received.length > 2000) online.received.splice(0, 1000);   // a flood keeps no memory
      hostChanged(host.py.receive(id, raw));
    };
    const text = await peer.offer();
    if (this.peer !== peer) return;
    const { inviteLink } = await invite();
    if (host.net) {
      // over the internet: a short link (the room's code); the offer goes through the relays, sealed
      const { Signal } = await signals();
      if (!this.signal) this.signal = new Signal({ relays: host.net.relays, code: host.net.code, seat: this.seat });
      online.signals = online.signals || new Map();
      online.signals.set(this.seat, this.signal);
      this.signal.offer(text, (answer) => { if (this.peer === peer) this.accept(answer); });
      this.link = inviteLink("./online.html", "room", host.net.code,
                             { seat: this.seat, table: host.id, ...relaysParam(host.net.relays) });
    } else {
      this.link = inviteLink("./online.html", "offer", text, { seat: this.seat, table: host.id });
    }
    this.el.dataset.state = "inviting";
    this.el.dataset.link = this.link;
    this.say(t(host.net ? "online.relay_invite" : "online.send_invite"));
    this.el.querySelector(".answer-input").value = "";
    this.el.querySelector(".answer-field").hidden = Boolean(host.net);
    this.el.querySelector(".answer-use").hidden = Boolean(host.net);
    await showLink(this.el.querySelector(".invite-box"), this.link, { label: t("online.invite_link") });
  }

  /** The friend's answer: a pasted link, or its text alone. */
  async accept(pasted) {
    const text = String(pasted || "").trim();
    const m = /answer=([A-Za-z0-9_-]+)/.exec(text);
    const answer = m ? m[1] : text;
    const peer = this.peer;
    if (!peer || peer.state !== "connecting") return false;
    try {
      await peer.accept(answer);
    } catch {
      this.say(t("online.bad_answer"));
      return false;
    }
    this.el.dataset.state = "connecting";
    this.say(t("online.connecting"));
    this.el.querySelector(".invite-box").replaceChildren();
    this.el.querySelector(".answer-field").hidden = true;
    this.el.querySelector(".answer-use").hidden = true;
    this.giveUp = setTimeout(() => {
      if (peer.state === "open" || peer.channel.readyState === "open" || peer.pc.connectionState === "connected") return;
      this.fail();
      peer.close("gave-up");
    }, GIVE_UP_MS);
    return true;
  }

  /** The phones could not reach each other: say so, name the fallbacks, offer a new invitation. */
  fail() {
    this.el.dataset.state = "failed";
    this.say(t("online.gave_up"));
    const again = document.createElement("button");
    again.type = "button";
    again.className = "btn";
    again.textContent = t("online.try_again");
    again.addEventListener("click", () => { again.remove(); this.offer(); });
    this.el.querySelector(".invite-box").replaceChildren(again);
  }

  sync(p) {
    // a seat a phone sat at: the host can give it a fresh invitation (retiring that phone's secret)
    this.el.querySelector(".reissue-row").hidden = !p.claimed;
    this.el.querySelector(".reissue-note").hidden = !p.claimed;
    const wasPresent = this.present;
    this.present = p.present;
    if (p.present && this.peer) this.peer.options.silentMs = this.silentMs;
    if (p.present && this.el.dataset.state !== "seated") {
      this.el.dataset.state = "seated";
      this.say(t("online.seated"));
      this.el.querySelector(".invite-box").replaceChildren();
    }
    this.el.classList.toggle("seated", p.present);
    this.el.hidden = p.present;   // the presence line says it from now on
    if (wasPresent && !p.present && p.computer) this.say(t("online.computer_plays"));
  }
}

async function startHosting(make) {
  $("setup").hidden = true;
  $("resume").hidden = true;
  $("finished").hidden = true;
  summary.onNext = hostRematch;
  status(t("online.starting_python"));
  await startPython();
  host.py = runPython(HOST_PY);
  make();
  status("");
  const st = JSON.parse(host.py.state());
  $("invites").hidden = false;
  for (const p of st.presence) {
    if (p.kind !== "remote") continue;
    const card = new InviteCard(p.seat);
    host.invites.set(p.seat, card);
    card.offer();
  }
  hostChanged();
  // time passes: silent friends are noticed, the computer takes an absent friend's seat after the grace period
  setInterval(() => {
    const out = host.py.tick();
    if (out !== "[]") hostChanged(out);
    else {
      hostDraw();
      hostComputers();   // a gone friend's seat the computer takes now
    }
  }, 1000);
  // an answer link opened on this phone, in another tab
  if (self.BroadcastChannel) {
    const bc = new BroadcastChannel(CHANNEL);
    bc.onmessage = async (e) => {
      const d = e.data || {};
      if (d.type !== "answer" || d.table !== host.id) return;
      const card = host.invites.get(d.seat);
      if (card && await card.accept(d.text)) bc.postMessage({ type: "taken", table: d.table, seat: d.seat });
    };
  }
  root.classList.add("hosting");
}

async function hostNew(e) {
  e.preventDefault();
  const { game, options, players } = hostSettings();
  const form = $("setup-form");
  const seats = [["host", "medium"]];
  for (let seat = 1; seat < players; seat += 1) {
    const v = form.elements[`seat${seat}`].value;
    seats.push(v === "friend" ? ["remote", "medium"] : ["computer", v]);
  }
  if (!seats.some(([k]) => k === "remote")) {
    status(t("online.no_friend"));
    return;
  }
  host.net = null;
  if (form.elements.via.value === "internet") {
    const net = await readSettingsForm();
    if (!net) return;
    if (!await askConsent(net.relays, net)) {
      status(t("online.declined"));
      return;
    }
    const { newRoomCode } = await signals();
    host.net = { ...net, code: newRoomCode() };
  }
  // the online timers (docs/online.md, "Timers"): on by default, adjustable by the host
  const pace = form.elements.timer.value;
  const base = game === "seven_diamonds" ? [10, 12] : [30, 30];
  const timers = pace === "off" ? null : base.map((x) => (pace === "slow" ? 2 * x : x));
  host.id = hex(8);
  online.role = "host";
  startHosting(() => host.py.new(game, JSON.stringify(options), JSON.stringify(seats), JSON.stringify(timers)));
}

async function hostResume(saved, rematch = false) {
  if (saved.net) {
    // the table was over the internet: agree again before the relays are contacted
    if (!await askConsent(saved.net.relays, saved.net)) {
      status(t("online.declined"));
      return;
    }
    host.net = saved.net;
  }
  host.id = saved.id;
  online.role = "host";
  startHosting(() => {
    host.py.resume(JSON.stringify(saved.save));
    if (rematch) host.py.rematch();   // a finished table: a new match at its seats (the friends sit down again)
  });
}

// ================================================================= FRIEND

const GUEST_PY = `
import json
from chkobba.online.guest import Guest

class _Friend:
    guest = None

    def sit(self, seat, saved):
        self.guest = Guest.resume(json.loads(saved)) if saved else Guest(seat)

    def join(self):
        return self.guest.join()

    def act(self, action):
        return self.guest.act(action)

    def react(self, reaction):
        return self.guest.react(reaction)

    def receive(self, text):
        return json.dumps(self.guest.receive(json.loads(text)))

    def save(self):
        return json.dumps(self.guest.save())

    def status(self):
        return json.dumps(self.guest.status())

    def leave(self):
        from chkobba.online import wire
        return wire.encode(wire.Leave())

_Friend()
`;

const friend = { py: null, peer: null, seat: null, table: null, presence: null, answer: null, net: null, signal: null };

/** The seconds left at the seat to act, counted down from the host's clock (its "seats" message). */
function friendLeft() {
  const c = friend.clock;
  if (!c || !friend.position || c.round !== friend.position[0] || c.ply !== friend.position[1]) return null;
  return Math.max(0, c.left - Math.floor((performance.now() - c.at) / 1000));
}

function friendDraw() {
  const a = friend.answer;
  drawPresence(friend.presence, a ? a.to_act : null, friend.seat, friendLeft());
  if (a) {
    drawAnswer(friendAct, a);
    checkSummary(a);
  }
  const st = JSON.parse(friend.py.status());
  online.friend = st;
  const line = $("audit-line");
  const failed = st.failed.filter((f) => f.match === st.match);
  $("audit-banner").hidden = !failed.length;
  if (failed.length) {
    // unmissable: a banner in words at the table, with the way out
    const f = failed[0];
    line.hidden = false;
    line.className = "audit-line audit-failed";
    line.textContent = t("online.audit_failed", { round: f.round });
    const banner = $("audit-banner");
    banner.hidden = false;
    banner.dataset.round = f.round;
    banner.dataset.code = f.code;
    banner.querySelector(".audit-banner-text").textContent = t("online.audit_banner",
      { round: f.round, reason: messageText({ code: f.code, params: f.params }) });
  } else if (st.audited.length) {
    line.hidden = false;
    line.className = "audit-line";
    line.textContent = t("online.audited", { round: st.audited[st.audited.length - 1] });
  }
}

/** The friend leaves a table whose audit failed: the host is told, the connection closes. */
function friendLeave() {
  const p = friend.peer;
  friend.left = true;
  if (p && p.state === "open") {
    p.send(friend.py.leave());
    p.close("left");
  }
  online.events.push("friend:left");
  $("audit-banner").querySelector(".audit-leave").hidden = true;
  status(t("online.left_table"));
}
$("audit-banner").querySelector(".audit-leave").addEventListener("click", friendLeave);

function friendAct(action) {
  if (!friend.peer || friend.peer.state !== "open") {
    view.showMessage({ error: t("online.host_gone") });
    return;
  }
  view.showMessage(null);
  friend.sentAt = performance.now();
  friend.peer.send(friend.py.act(action));
}

function friendReact(reaction) {
  if (!friend.peer || friend.peer.state !== "open") {
    reactNote(t("online.host_gone"));
    return false;
  }
  friend.peer.send(friend.py.react(reaction));
  return true;
}

/** A friend's "Rematch": asks the host (the reaction "rematch"); only the host starts one. */
function friendAskRematch(btn) {
  if (!friendReact("rematch")) {
    syncRematchLine(t("online.host_gone"));
    return;
  }
  btn.disabled = true;
  syncRematchLine(t("online.rematch_asked"));
}

function friendReceive(msg, raw) {
  online.received.push(raw);
  if (msg.type === "heartbeat") return;
  if (msg.type === "rematch") {
    newMatch();
    friend.answer = null;
    $("audit-line").hidden = true;
    showTable(friendAct).set({ loading: t("online.waiting_seeds") });
  }
  for (const text of JSON.parse(friend.py.receive(raw))) friend.peer.send(text);
  store(guestKey(friend.table, friend.seat), friend.py.save());
  if (msg.type === "view") {
    // a refusal is about the position it answered: a new position clears it
    if (view && friend.refused && (friend.refused[0] !== msg.round || friend.refused[1] !== msg.ply)) view.showMessage(null);
    friend.answer = msg.answer;
    friend.position = [msg.round, msg.ply];
    if (online.timing && !online.timing.view) online.timing.view = performance.now();
    if (friend.sentAt !== null && friend.sentAt !== undefined) {
      // a move's latency: sent, refereed by the host's engine, this seat's next view back
      online.latencies.push(performance.now() - friend.sentAt);
      friend.sentAt = null;
    }
  }
  if (msg.type === "welcome" || msg.type === "seats") {
    seatNotes(friend.presence, msg.seats, friend.seat);
    friend.presence = msg.seats;
  }
  if (msg.type === "welcome") status("");
  // a restart of a round's seeds, as it happens: its count and the reason the host gave
  if (msg.type === "commit_request" && Number(msg.restart) > 0) {
    const r = msg.reason || {};
    const names = (seats) => seats.map((n) => seatLabel(n, friend.seat, "remote")).join(t("cards.separator"));
    const why = (r.left || []).length ? t("online.restart.left", { who: names(r.left) })
      : (r.late || []).length ? t("online.restart.late", { who: names(r.late) }) : t("online.restart.none");
    seatNote("restart", "", t("online.note.restart", { count: msg.restart, why }));
  }
  // a seat refused: say what this phone waits for and what the player can do
  const waits = { "online.seat_taken": "online.wait.seat_taken", "online.seat_retired": "online.wait.seat_retired",
                  "online.wrong_seat": "online.wait.wrong_seat" };
  if (msg.type === "error" && waits[msg.code]) status(t(waits[msg.code]));
  if (msg.type === "seats" || msg.type === "welcome") friend.clock = msg.clock ? { ...msg.clock, at: performance.now() } : null;
  if (msg.type === "reaction") showReaction(msg.seat, msg.reaction);
  if (msg.type === "error" && msg.answers === "reaction") reactNote(t("online.react_wait"));   // quietly: wait a moment
  // a refusal answers the type it refused (a rate refusal too): the player's own move or seat
  const ours = msg.answers === "act" || msg.answers === "join";
  if (msg.type === "error" && view && ours) {
    friend.sentAt = null;
    online.refusals += 1;
    // the player's own move (or seat) refused, in the engine's words; a refused heartbeat is nobody's business
    friend.refused = JSON.parse(friend.py.status()).position;
    view.showMessage(facadeMessage(msg), t("app.not_allowed"));
  }
  friendDraw();
}

async function join(frag) {
  online.role = "friend";
  friend.seat = frag.seat;
  friend.table = frag.table;
  $("join").hidden = false;
  status(t("online.preparing_answer"));
  const python = startPython();   // for the seeds and the audit, while the answer is made
  python.catch(() => status(t("online.no_python")));
  const net = frag.net || null;
  const peer = new Peer(net ? { iceServers: iceServersOf(net) } : {});
  const silentMs = peer.options.silentMs;   // once seated
  peer.options.silentMs = STARTING_SILENT_MS;
  friend.peer = peer;
  let answer;
  let giveUp;
  if (net) {
    // over the internet (agreed): the host's offer comes through the relays, our answer goes back the same way
    $("join").hidden = true;
    status(t("online.finding_host"));
    const { Signal } = await signals();
    const agreedAt = performance.now();
    const signal = new Signal({ relays: net.relays, code: frag.text, seat: frag.seat });
    friend.signal = signal;
    online.signal = signal;
    const got = await Promise.race([signal.nextOffer(), new Promise((r) => setTimeout(() => r(null), WAIT_FOR_HOST_MS))]);
    if (!got) {
      signal.close();
      status(t("online.relay_gave_up"));
      return;
    }
    try {
      answer = await peer.answer(got.text);
    } catch {
      signal.close();
      status(t("online.bad_invite"));
      return;
    }
    online.timing = { agreed: agreedAt, offer: got.at, answer: performance.now() };
    await signal.answer(got, answer);
    status(t("online.connecting"));
    giveUp = setTimeout(() => failed(), GIVE_UP_MS);
  } else {
    try {
      answer = await peer.answer(frag.text);
    } catch {
      status(t("online.bad_invite"));
      $("join").hidden = true;
      return;
    }
    const { inviteLink } = await invite();
    const link = inviteLink("./online.html", "answer", answer, { seat: frag.seat, table: frag.table });
    $("join").dataset.link = link;
    online.timing = { answer: performance.now() };   // ms since this page opened
    await showLink($("join").querySelector(".invite-box"), link, { label: t("online.answer_link") });
    status(t("online.waiting_host"));
    giveUp = setTimeout(() => failed(), WAIT_FOR_HOST_MS);
  }
  // a channel whose open event waits behind a busy page (Python starting) is not given up
  const reached = () => peer.state === "open" || peer.channel.readyState === "open" || peer.pc.connectionState === "connected";
  const failed = () => {
    if (reached()) return;
    peer.close("gave-up");
    if (friend.signal) { friend.signal.close(); friend.signal = null; }
    status(t("online.gave_up"));
  };
  peer.pc.addEventListener("iceconnectionstatechange", () => {
    if (peer.pc.iceConnectionState === "checking" && !net) {
      status(t("online.connecting"));
      clearTimeout(giveUp);
      giveUp = setTimeout(failed, GIVE_UP_MS);   // the host opened our answer: bounded from here
    }
  });
  peer.onstate = (state, why) => {
    online.events.push(`friend:${state}${why ? `:${why}` : ""}`);
    if (friend.left) return;   // this phone left the table (its audit failed): it stays out
    if (state === "closed" && why !== "gave-up") {
      if (net && online.timing && online.timing.open) {
        // over the internet: sit down again by ourselves, through the same room, as soon as the page is seen
        status(t("online.rejoining"));
        rejoinWhenSeen();
        return;
      }
      status(t(online.timing && online.timing.open ? "online.host_gone" : "online.gave_up"));   // never opened: the fallbacks
      drawPresence(null);
    }
  };
  try {
    await peer.opened;
  } catch {
    return;
  }
  clearTimeout(giveUp);
  if (friend.signal) { friend.signal.close(); friend.signal = null; }   // the relays are needed no more
  online.timing.open = performance.now();
  $("join").hidden = true;
  status(t("online.sitting_down"));
  await python;
  friend.py = runPython(GUEST_PY);
  friend.py.sit(frag.seat, load(guestKey(frag.table, frag.seat)) || "");
  store(guestKey(frag.table, frag.seat), friend.py.save());
  peer.onmessage = friendReceive;
  peer.send(friend.py.join());
  peer.options.silentMs = silentMs;
  status("");
  showTable(friendAct).set({ loading: t("online.waiting_seeds") });
  summary.onNext = friendAskRematch;
  setupReactions(friendReact);
  // the host's clock counts down here too (its "seats" message says the seconds left when a turn starts)
  setInterval(() => { if (friend.clock) drawPresence(friend.presence, friend.answer ? friend.answer.to_act : null, friend.seat, friendLeft()); }, 1000);
}

// A friend's page that comes back to the foreground (or whose connection
// closed) rebuilds it: the host offers anew in the same room as soon as its
// side of the channel closes, and this page, reloaded, finds that offer and
// sits down again with the secret it keeps (the consent of this tab holds).
let rejoining = false;
function rejoinWhenSeen() {
  if (rejoining) return;
  if (document.visibilityState === "hidden") return;   // the visibilitychange below does it
  rejoining = true;
  online.events.push("friend:rejoin");
  setTimeout(() => location.reload(), 500);
}

function stale() {
  const p = friend.peer;
  if (!p || p.state === "closed") return true;
  // a connection that stalled in the background: no heartbeat for longer than the peer's own limit
  return p.state === "open" && performance.now() - p.lastSeen > p.options.silentMs;
}

function onForeground() {
  if (online.role !== "friend" || !friend.net || document.visibilityState !== "visible") return;
  if (!online.timing || !online.timing.open) return;
  if (stale()) {
    if (friend.peer && friend.peer.state !== "closed") friend.peer.close("stale");
    rejoinWhenSeen();
  }
}
document.addEventListener("visibilitychange", onForeground);
window.addEventListener("pageshow", (e) => { if (e.persisted) onForeground(); });

async function joinRoom(frag) {
  online.role = "friend";
  let relays;
  try {
    relays = await relaysOfLink(frag.relays);
  } catch {
    status(t("online.bad_invite"));
    return;
  }
  const net = { ...netSettings(), relays };
  const key = agreedKey(frag.table, frag.seat);
  let agreed = false;
  try { agreed = sessionStorage.getItem(key) === "1"; } catch { agreed = false; }
  if (!agreed && !await askConsent(relays, net)) {
    status(t("online.declined_friend"));
    return;
  }
  try { sessionStorage.setItem(key, "1"); } catch { /* private mode: asked again after a reload */ }
  friend.net = net;
  join({ ...frag, net });
}

// ================================================================= an answer opened on the host's phone

function relay(frag) {
  $("relay").hidden = false;
  const text = $("relay").querySelector(".relay-text");
  text.textContent = t("online.relay_sending");
  text.dataset.done = t("online.relay_done");
  if (!self.BroadcastChannel || frag.seat === undefined) {
    text.textContent = t("online.relay_paste");
    return;
  }
  const bc = new BroadcastChannel(CHANNEL);
  bc.onmessage = (e) => {
    if (e.data && e.data.type === "taken" && e.data.table === frag.table) text.textContent = t("online.relay_done");
  };
  bc.postMessage({ type: "answer", table: frag.table, seat: frag.seat, text: frag.text });
  setTimeout(() => {
    if (text.textContent === t("online.relay_sending")) text.textContent = t("online.relay_paste");
  }, 3000);
}

// ================================================================= start

// The player's moves as the table sends them (for the e2e tests: the same path as a tap).
online.legal = () => (online.role === "host" ? JSON.parse(host.py.state()).legal
  : online.role === "friend" && friend.py ? JSON.parse(friend.py.status()).legal : []);
online.act = (action) => (online.role === "host" ? hostAct(action) : friendAct(action));
online.react = (reaction) => (online.role === "host" ? hostReact(reaction) : friendReact(reaction));
online.record = () => (host.py ? host.py.record() : null);
online.friendPeer = () => friend.peer;

const { readFragment } = await invite();
const frag = readFragment(location.hash);
if (frag && frag.kind === "offer" && frag.seat !== undefined) {
  join(frag);
} else if (frag && frag.kind === "room" && frag.seat !== undefined) {
  joinRoom(frag);
} else if (frag && frag.kind === "answer") {
  relay(frag);
} else {
  if (location.hash) status(t("online.bad_invite"));
  const saved = (() => { try { return JSON.parse(load(HOST_KEY)); } catch { return null; } })();
  if (saved && saved.id && saved.save && saved.save.over) {
    // the match this phone hosted is over: no game to resume, a rematch at its seats or a new table
    $("finished").hidden = false;
    $("finished-rematch").addEventListener("click", () => hostResume(saved, true));
    $("finished-new").addEventListener("click", () => {
      store(HOST_KEY, null);
      $("finished").hidden = true;
      $("setup").hidden = false;
    });
  } else if (saved && saved.id && saved.save) {
    $("resume").hidden = false;
    $("resume-go").addEventListener("click", () => hostResume(saved));
    $("resume-end").addEventListener("click", () => {
      store(HOST_KEY, null);
      $("resume").hidden = true;
      $("setup").hidden = false;
    });
  } else {
    $("setup").hidden = false;
  }
  drawSeatRows();
  fillSettingsForm();
  $("start-now").addEventListener("click", () => hostChanged(host.py.start()));
  // the computer's pace: the table page's own setting, read again before each computer move (hostComputers)
  const pace = $("setup-form").elements.pace;
  pace.value = loadPace();
  pace.addEventListener("change", () => writePace(pace.value));
  $("setup-form").addEventListener("change", (e) => { if (e.target.name === "table") drawSeatRows(); });
  $("setup-form").addEventListener("submit", hostNew);
}
// a new invitation opened in this tab (only the fragment changes): start again from it
window.addEventListener("hashchange", () => location.reload());
root.classList.add("ready");
