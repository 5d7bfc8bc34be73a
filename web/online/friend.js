// A friend's phone at the online table (docs/online.md): it answers the
// host's offer (a link and QR code to send back, or through the relays over
// the internet), sits down with chkobba.online.Guest through the page's edge
// (chkobba/online/page.py: its secret, its seeds, the audit of every round),
// draws what the host sends for its seat, and comes back by itself over the
// internet. Also the answer link opened on the host's own phone (relay).

import { t } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { FacadeError, startPython } from "../shell/py.js";
import { Peer } from "./peer.js";
import { $, CHANNEL, GIVE_UP_MS, HOST_KEY, STARTING_SILENT_MS, WAIT_FOR_HOST_MS, agreedKey, askConsent, facadeMessage, friend,
  guestKey, guestPy, iceServersOf, invite, load, netSettings, online, relaysOfLink, setupNameField, showLink, signals, status,
  store } from "./common.js";
import { checkSummary, drawAnswer, drawPresence, reactNote, seatLabel, seatNote, seatNotes, setupReactions,
  showReaction, showTable, summary, syncRematchLine, newMatch, view, withNames } from "./seats.js";

/** The seconds left at the seat to act, counted down from the host's clock (its "seats" message). */
function friendLeft() {
  const c = friend.clock;
  if (!c || !friend.position || c.round !== friend.position[0] || c.ply !== friend.position[1]) return null;
  return Math.max(0, c.left - Math.floor((performance.now() - c.at) / 1000));
}

function friendDraw() {
  const a = friend.answer ? withNames(friend.answer, friend.presence) : null;
  drawPresence(friend.presence, a ? a.to_act : null, friend.seat, friendLeft());
  if (a) {
    drawAnswer(friendAct, a);
    checkSummary(a);
  }
  const st = guestPy("status");
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
    p.send(guestPy("leave"));
    p.close("left");
  }
  online.events.push("friend:left");
  $("audit-banner").querySelector(".audit-leave").hidden = true;
  status(t("online.left_table"));
}
$("audit-banner").querySelector(".audit-leave").addEventListener("click", friendLeave);

export function friendAct(action) {
  if (!friend.peer || friend.peer.state !== "open") {
    view.showMessage({ error: t("online.host_gone") });
    return;
  }
  view.showMessage(null);
  friend.sentAt = performance.now();
  friend.peer.send(guestPy("act", { action }));
}

export function friendReact(reaction) {
  if (!friend.peer || friend.peer.state !== "open") {
    reactNote(t("online.host_gone"));
    return false;
  }
  friend.peer.send(guestPy("react", { reaction }));
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
  for (const text of guestPy("receive", { message: msg })) friend.peer.send(text);
  store(guestKey(friend.table, friend.seat), JSON.stringify(guestPy("save")));
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
    const nameOf = (n) => ((friend.presence || []).find((p) => p.seat === n) || {}).name;
    const names = (seats) => seats.map((n) => seatLabel(n, friend.seat, "remote", nameOf(n))).join(t("cards.separator"));
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
    friend.refused = guestPy("status").position;
    view.showMessage(facadeMessage(msg), t("app.not_allowed"));
  }
  friendDraw();
}

/** The join, with the player's name as typed (a name this page's Python refuses: none, its note says why). */
function joinText() {
  const name = friend.name ? friend.name() : "";
  if (name) {
    try { return guestPy("join", { name }); } catch (e) { if (!(e instanceof FacadeError)) throw e; }
  }
  return guestPy("join");
}

/** This phone's seat, with the secret and seeds it kept (a save it cannot read: a fresh start). */
function sit(seat, savedText) {
  let saved = null;
  try { saved = savedText ? JSON.parse(savedText) : null; } catch { saved = null; }
  try {
    guestPy("sit", saved ? { seat, saved } : { seat });
  } catch (e) {
    if (!(e instanceof FacadeError) || !saved) throw e;
    guestPy("sit", { seat });
  }
  friend.ready = true;
}

export async function join(frag) {
  online.role = "friend";
  friend.seat = frag.seat;
  friend.table = frag.table;
  $("join").hidden = false;
  // the player's name, kept on this phone, sent with the join (over the internet this panel shows only it)
  friend.name = setupNameField($("friend-name"), $("join").querySelector(".name-note"));
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
    $("join").querySelector(".join-step").hidden = true;
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
  sit(frag.seat, load(guestKey(frag.table, frag.seat)));
  store(guestKey(frag.table, frag.seat), JSON.stringify(guestPy("save")));
  peer.onmessage = friendReceive;
  peer.send(joinText());
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

export async function joinRoom(frag) {
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

export function relay(frag) {
  $("relay").hidden = false;
  const text = $("relay").querySelector(".relay-text");
  text.textContent = t("online.relay_sending");
  text.dataset.done = t("online.relay_done");
  if (!self.BroadcastChannel || frag.seat === undefined) {
    text.textContent = t("online.relay_paste");
    return;
  }
  // no table of this id kept in this browser: another browser app, a private tab, the messaging app's own browser
  const here = (() => { try { return JSON.parse(load(HOST_KEY)).id === frag.table; } catch { return false; } })();
  const none = here ? "online.relay_paste" : "online.relay_elsewhere";
  if (!here) text.textContent = t(none);
  const bc = new BroadcastChannel(CHANNEL);
  bc.onmessage = (e) => {
    if (e.data && e.data.type === "taken" && e.data.table === frag.table) text.textContent = t("online.relay_done");
  };
  bc.postMessage({ type: "answer", table: frag.table, seat: frag.seat, text: frag.text });
  setTimeout(() => {
    if (text.textContent === t("online.relay_sending")) text.textContent = t(none);
  }, 3000);
}
