// The host's phone at the online table (docs/online.md): the set-up of its
// seats, one invitation card per friend's seat (link and QR code, the answer
// pasted back, the connection), and its table, refereed by
// chkobba.online.HostTable through the page's edge (chkobba/online/page.py):
// every friend's message, every move and every tick, then the save, then the
// drawing; the computer's seats thought about in slices.

import { t } from "../i18n/i18n.js";
import { FacadeError, SLICE_MS, nextTask, startPython } from "../shell/py.js";
import { PACE_MS, loadPace } from "../shell/storage.js";
import { gameFacts } from "../shell/games.js";
import { Peer } from "./peer.js";
import { $, CHANNEL, GIVE_UP_MS, HOST_KEY, STARTING_SILENT_MS, askConsent, cleanName, facadeMessage, hex, host, hostPy,
  iceServersOf, invite, online, readSettingsForm, relaysParam, root, showLink, signals, status, store } from "./common.js";
import { checkSummary, drawAnswer, drawPresence, hostAuditLine, newMatch, reactNote, seatLabel, seatNotes, setupReactions,
  showReaction, showTable, summary, syncRematchLine, view, withNames } from "./seats.js";

// The table chosen (web/online.html): its value is the game, with "-<n>" when
// the game is played at several counts (then its `players` option), and its
// data-players says how many sit down (the seats are drawn before Python starts).
function hostSettings() {
  const choice = $("setup-form").querySelector('input[name="table"]:checked');
  const [game, count] = choice.value.split(/-(?=\d+$)/);
  const players = Number(choice.dataset.players);
  return { game, options: count ? { players } : {}, players };
}

/** The online timers (docs/online.md, "Timers"): the game's own from `describe`, twice as long at "slow", none "off". */
function onlineTimers(game, pace) {
  const base = gameFacts(game).timers;
  return pace === "off" ? null : base.map((x) => (pace === "slow" ? 2 * x : x));
}

/** At four (Chkobba 2v2, Seven Diamonds) partners sit across: seats of one parity. Null at two. */
const partners = (players, a, b) => (players === 4 ? (a - b) % 2 === 0 : null);

export function drawSeatRows() {
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
    const side = partners(players, seat, 0);
    span.textContent = t(side === null ? "online.seat_n" : side ? "online.seat_partner" : "online.seat_opponent", { n: seat + 1 });
    label.dataset.partner = side === null ? "" : String(side);
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

function hostSend(out) {
  for (const [peerId, msg] of out) {
    const p = online.peers.get(peerId);
    if (p) p.send(msg);
  }
}

/**
 * After every message or move: the host's save first (a friend never sees a
 * move the save lacks), then draw; both only when the table changed
 * (HostTable.version: a refused or dropped message costs no save, no redraw).
 */
export function hostChanged(out = []) {
  const version = hostPy("version");
  const changed = version !== host.version;
  if (changed) {
    host.version = version;
    store(HOST_KEY, JSON.stringify({ id: host.id, net: host.net, save: hostPy("save") }));
    online.saves += 1;
  }
  hostSend(out);
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
      if (hostPy("computer_turn") == null) return;
      hostPy("tidy");
      await nextTask();
      let decided = hostPy("think", { ms: SLICE_MS });
      let slices = 1;
      while (decided === false) {
        await nextTask();
        decided = hostPy("think", { ms: SLICE_MS });
        slices += 1;
      }
      if (decided !== true) return;   // no computer is to act
      online.computerMoves.push([slices, Math.round(performance.now() - began)]);
      const wait = PACE_MS[loadPace()] - (performance.now() - began);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await nextTask();
      hostChanged(hostPy("computer_move"));   // nothing when the table moved on meanwhile
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
  const st = hostPy("state");
  const text = JSON.stringify(st);
  if (host.last && text === host.lastText) return;
  online.draws += 1;
  seatNotes(host.last ? host.last.presence : null, st.presence, st.seat);
  host.last = st;
  host.lastText = text;
  online.table = st;
  hostAuditLine(st.presence);
  drawTeams(st);
  const answer = st.answer ? withNames(st.answer, st.presence) : null;
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

/** At four, who partners whom, with each player's name once seated (over the invitations). */
function drawTeams(st) {
  const line = $("invites").querySelector(".teams-line");
  const players = st.presence.length;
  line.hidden = players !== 4;
  if (players !== 4) return;
  const who = (p) => seatLabel(p.seat, st.seat, p.kind, p.name);
  const side = (mine) => {
    const [a, b] = st.presence.filter((p) => partners(players, p.seat, st.seat) === mine).map(who);
    return t("online.pair", { a, b });
  };
  line.textContent = t("online.teams", { mine: side(true), them: side(false) });
}

export function hostReact(reaction) {
  let out;
  try {
    out = hostPy("react", { reaction });
  } catch (e) {
    if (!(e instanceof FacadeError)) throw e;
    reactNote(t("online.react_wait"));   // over the allowance: quietly, not an error
    return;
  }
  hostChanged(out);
}

/** The host's "Rematch": a new match at the same seats (fresh seeds from every phone). */
function hostRematch() {
  newMatch();
  hostChanged(hostPy("rematch"));
}

export function hostAct(action) {
  let out;
  try {
    out = hostPy("act", { action });
  } catch (e) {
    if (!(e instanceof FacadeError)) throw e;
    view.showMessage(facadeMessage(e.msg), t("app.not_allowed"));
    return;
  }
  view.showMessage(null);
  hostChanged(out);
}

// A camera to read the friend's answer (web/online/scan.js, loaded on a tap); none on a page not served over https.
const canScan = () => Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);

/** One friend's seat: its invitation (link + QR), the answer pasted back, the connection. */
class InviteCard {
  constructor(seat, partner) {
    this.seat = seat;
    this.partner = partner;   // at four: this seat partners the host's (true) or plays against it (false)
    this.peer = null;
    this.peerId = null;
    this.present = false;
    this.el = document.createElement("article");
    this.el.className = "invite-card";
    this.el.dataset.seat = seat;
    this.el.innerHTML = `<h3></h3><p class="invite-state"></p><div class="invite-box"></div>
      <label class="field answer-field"><span></span><input type="text" class="answer-input" autocomplete="off" spellcheck="false"></label>
      <p class="invite-actions"><button type="button" class="btn answer-use"></button>
        <button type="button" class="btn answer-scan" hidden></button></p>
      <p class="invite-actions reissue-row"><button type="button" class="btn ghost reissue"></button></p>
      <p class="reissue-note"></p>`;
    this.title("");
    this.el.querySelector(".answer-field span").textContent = t("online.paste_answer");
    this.el.querySelector(".answer-use").textContent = t("online.use_answer");
    this.el.querySelector(".answer-use").addEventListener("click", () => this.accept(this.el.querySelector(".answer-input").value));
    // in the same place: the host's camera reads the answer's QR code on the friend's screen
    this.el.querySelector(".answer-scan").textContent = t("online.scan_answer");
    this.el.querySelector(".answer-scan").addEventListener("click", () => this.scan());
    // a friend on a new browser or phone (its secret lost): the seat's old secret is retired, the waiting phone sits
    const reissue = this.el.querySelector(".reissue");
    reissue.textContent = t("online.reissue");
    this.el.querySelector(".reissue-note").textContent = t("online.reissue_note");
    reissue.addEventListener("click", () => {
      online.events.push(`host:${this.seat}:reissue`);
      this.el.dataset.reissued = String(Number(this.el.dataset.reissued || 0) + 1);
      hostChanged(hostPy("reissue", { seat: this.seat }));
    });
    $("invites").querySelector(".invite-list").append(this.el);
  }

  say(text) { this.el.querySelector(".invite-state").textContent = text; }

  /** "Friend, seat 3", or its player's name once one sat there; at four, "· your partner" or "· opponent". */
  title(name) {
    const who = seatLabel(this.seat, null, "remote", name);
    this.el.querySelector("h3").textContent = this.partner === null ? who
      : t(this.partner ? "online.invite_partner" : "online.invite_opponent", { who });
    this.el.dataset.partner = this.partner === null ? "" : String(this.partner);
  }

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
        hostPy("connect", { peer: id, seat: this.seat });   // this invitation's seat, and no other
        this.el.dataset.state = "open";
        this.say(t("online.connected"));
      }
      if (state === "closed") {
        clearTimeout(this.giveUp);
        online.peers.delete(id);
        if (this.peer !== peer) return;
        hostChanged(hostPy("disconnect", { peer: id }));
        if (this.el.dataset.state === "connecting") this.fail();   // it never opened: say so, with the fallbacks
        else if (this.el.dataset.state !== "failed") this.offer();   // a friend who left: a new invitation for this seat
      }
    };
    peer.onmessage = (msg, raw) => {
      if (this.peer !== peer) return;
      online.got += 1;
      online.received.push(msg);
      if (online.received.length > 2000) online.received.splice(0, 1000);   // a flood keeps no memory
      hostChanged(hostPy("receive", { peer: id, text: raw }));
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
    this.el.querySelector(".answer-scan").hidden = Boolean(host.net) || !canScan();
    await showLink(this.el.querySelector(".invite-box"), this.link, { label: t("online.invite_link") });
  }

  /** The friend's answer read by the camera: checked exactly as a pasted one. */
  async scan() {
    const { scanQr } = await import("./scan.js");
    const text = await scanQr();
    online.events.push(`host:${this.seat}:scanned:${text === null ? "none" : "text"}`);
    if (text !== null) await this.accept(text, { scanned: true });
  }

  /** The friend's answer: a pasted link, or its text alone. */
  async accept(pasted, { scanned = false } = {}) {
    const text = String(pasted || "").trim();
    const m = /answer=([A-Za-z0-9_-]+)/.exec(text);
    const answer = m ? m[1] : text;
    const peer = this.peer;
    if (!peer || peer.state !== "connecting") return false;
    try {
      await peer.accept(answer);
    } catch {
      this.say(t(scanned ? "online.bad_scan" : "online.bad_answer"));
      return false;
    }
    this.el.dataset.state = "connecting";
    this.say(t("online.connecting"));
    this.el.querySelector(".invite-box").replaceChildren();
    this.el.querySelector(".answer-field").hidden = true;
    this.el.querySelector(".answer-use").hidden = true;
    this.el.querySelector(".answer-scan").hidden = true;
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
    this.title(p.name);
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
  make();
  host.ready = true;
  status("");
  const st = hostPy("state");
  $("invites").hidden = false;
  for (const p of st.presence) {
    if (p.kind !== "remote") continue;
    const card = new InviteCard(p.seat, partners(st.presence.length, p.seat, st.seat));
    host.invites.set(p.seat, card);
    card.offer();
  }
  hostChanged();
  // time passes: silent friends are noticed, the computer takes an absent friend's seat after the grace period
  setInterval(() => {
    const out = hostPy("tick");
    if (out.length) hostChanged(out);
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

export async function hostNew(e) {
  e.preventDefault();
  const { game, options, players } = hostSettings();
  const form = $("setup-form");
  const name = cleanName(form.elements.player_name.value);
  if (name === null) {
    form.elements.player_name.focus();
    return;   // its note says why
  }
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
  host.id = hex(8);
  online.role = "host";
  startHosting(() => hostPy("new", { game, options, seats, timers: onlineTimers(game, pace), name }));
}

export async function hostResume(saved, rematch = false) {
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
    hostPy("resume", { save: saved.save });
    if (rematch) hostPy("rematch");   // a finished table: a new match at its seats (the friends sit down again)
  });
}
