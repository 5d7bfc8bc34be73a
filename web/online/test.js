// The bench of e2e/test_online_pages.py: a Peer and what it received, on window.online.
import { Peer, decodeDescription } from "./peer.js";
import { inviteLink, qrSvg, readFragment } from "./invite.js";

const state = { peer: null, peers: new Map(), received: [], states: [] };

function make(options, id = 1) {
  const peer = new Peer(options);
  peer.onmessage = (msg) => {
    state.received.push(msg);
    if (msg && msg.type === "ping") peer.send({ type: "pong", n: msg.n });
    if (msg && msg.type === "pong" && state.waiting) state.waiting(msg.n);
  };
  peer.onstate = (s, why) => { state.states.push(why ? `${s}:${why}` : s); };
  state.peer = peer;
  state.peers.set(id, peer);
  return peer;
}

// ------------------------------------------------ a whole game across pages
// The host's page runs chkobba.online.HostTable, the friend's chkobba.online.Guest
// (through the page's edge, chkobba/online/page.py), each in its own Pyodide (started plainly: no snapshot, the lock's info from the table page), over the Peer above.

let pyodide = null;

async function python() {
  if (pyodide) return pyodide;
  const info = await (await fetch("../build-info.json")).json();
  const indexURL = new URL(`../${info.pyodide_dir}`, location.href).href;
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  // the site ships no pyodide-lock.json: the build writes its "info" into the
  // table page's boot meta (web/shell/py.js reads it there), so take it from that page
  const page = await (await fetch("../index.html")).text();
  const meta = page.match(/<meta name="chkobba-boot" content='([^']*)'>/);
  const lock = meta ? JSON.parse(meta[1]).lock : {};
  pyodide = await loadPyodide({ indexURL, lockFileContents: { info: lock || {}, packages: {} } });
  const zip = await (await fetch(`../${info.package_zip}`)).arrayBuffer();
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
  return pyodide;
}

// The page's edge (chkobba/online/page.py), as web/online/common.js calls it.
let edgeCall = null;
function edge(name, args = {}) {
  if (!edgeCall) edgeCall = pyodide.pyimport("chkobba.online.page").call;
  const answer = JSON.parse(edgeCall(name, JSON.stringify(name.startsWith("host_") ? { ...args, now: performance.now() / 1000 } : args)));
  if ("error" in answer) throw new Error(`${name}: ${answer.error}`);
  return answer.ok;
}
const pick = (list) => list[Math.floor(Math.random() * list.length)];
let role = null;

/** The host's own seat and the computer's (thought in slices, all at once here) until a friend is to act. */
function hostMoves() {
  const out = [];
  for (let n = 0; n < 1000; n += 1) {
    if (edge("host_computer_turn") != null) {
      let decided = edge("host_think", { ms: 50 });
      while (decided === false) decided = edge("host_think", { ms: 50 });
      if (decided === true) { out.push(...edge("host_computer_move")); continue; }
    }
    const legal = edge("host_state").legal;
    if (!legal.length) return out;
    out.push(...edge("host_act", { action: pick(legal) }));
  }
  return out;
}

async function runHost(game, options, kinds, saved = "") {
  await python();
  role = "host";
  if (saved) edge("host_resume", { save: JSON.parse(saved) });   // the page reloaded: the table from the host's save
  else edge("host_new", { game, options, seats: kinds.map((k) => [k, "easy"]), timers: null });
  for (const id of state.peers.keys()) edge("host_connect", { peer: id });
  const sendAll = (out) => {
    for (const [id, m] of out) { const p = state.peers.get(id); if (p) p.send(m); }
  };
  // the host's save, written after every change (the page may reload at any moment)
  const save = () => localStorage.setItem("online-host-save", JSON.stringify(edge("host_save")));
  state.wire = (id, peer) => {
    // saved before anything is sent: a friend never sees a move the save lacks
    peer.onmessage = (msg, raw) => {
      state.received.push(msg);
      const out = edge("host_receive", { peer: id, text: raw });
      out.push(...hostMoves());
      save();
      sendAll(out);
    };
    peer.onstate = (st, why) => {
      state.states.push(`${id}:${st}:${why}`);
      if (st === "closed") sendAll([...edge("host_disconnect", { peer: id }), ...hostMoves()]);
    };
  };
  for (const [id, peer] of state.peers) state.wire(id, peer);
}

// A friend's reconnection and the host page's reload, for end-to-end tests of
// them (they stall in some runs on a loaded machine, so
// e2e/test_online_pages.py does not use them; docs/online.md).
// host: a friend reconnects on a new channel (after runHost)
async function hostAgain(id) {
  const offer = await make({}, id).offer();
  edge("host_connect", { peer: Number(id) });
  state.wire(id, state.peers.get(id));
  return offer;
}

let acted = null;

// friend: a new channel to the host; the same Guest (and secret) sits down again
async function rejoin(offer) {
  const old = state.peer;
  old.onstate = () => {};
  const answer = await make({}).answer(offer);
  state.rejoined = state.peer.opened.then(() => {
    state.peer.onmessage = old.onmessage;
    // a move sent as the old channel closed may be lost: act again on the next view
    acted = null;
    state.peer.send(edge("guest_join"));
  });
  return answer;
}

async function runGuest(seat) {
  await python();
  role = "guest";
  edge("guest_sit", { seat });
  state.peer.onmessage = (msg) => {
    state.received.push(msg);
    const replies = edge("guest_receive", { message: msg });
    if (msg && msg.type === "error") {
      // refused (too fast for the host's rate limit): try again on the next heartbeat
      if (msg.answers === "act" || msg.answers === "?") acted = null;
    } else {
      const st = edge("guest_status");
      const at = JSON.stringify(st.position);
      if (st.legal.length && acted !== at) {
        acted = at;
        replies.push(edge("guest_act", { action: pick(st.legal) }));
      }
    }
    for (const text of replies) state.peer.send(text);  // state.peer: the current channel
  };
  state.peer.send(edge("guest_join"));
}

window.online = {
  state,
  async host(options = {}, id = 1) { return make(options, id).offer(); },
  async join(offer, options = {}) { return make(options).answer(offer); },
  async accept(answer, id = null) { await (id === null ? state.peer : state.peers.get(id)).accept(answer); },
  opened(id = null) { return (id === null ? state.peer : state.peers.get(id)).opened.then(() => true); },
  send(msg) { return state.peer.send(msg); },
  route() { return state.peer.route(); },
  close() { state.peer.close("left"); },
  // n round trips of a small message; the median in milliseconds
  async pingpong(n) {
    const times = [];
    for (let i = 0; i < n; i += 1) {
      const t0 = performance.now();
      await new Promise((resolve) => { state.waiting = (k) => { if (k === i) resolve(); }; state.peer.send({ type: "ping", n: i }); });
      times.push(performance.now() - t0);
    }
    state.waiting = null;
    times.sort((a, b) => a - b);
    return times[Math.floor(n / 2)];
  },
  // stop answering and sending (a phone whose page froze): the other side's heartbeat notices
  freeze() { clearInterval(state.peer._timer); state.peer.channel.onmessage = null; },
  python: () => python().then(() => true),
  runHost, runGuest, hostAgain, rejoin,
  savedHost: () => localStorage.getItem("online-host-save"),
  rejoined: () => state.rejoined.then(() => true),
  pyStatus: () => (role === "host" ? edge("host_state") : edge("guest_status")),
  decode(text) { return decodeDescription(text); },
  link(kind, text) { return inviteLink("./test.html", kind, text); },
  fragment(hash) { return readFragment(hash); },
  qr(text) {
    const { svg, modules } = qrSvg(text);
    document.getElementById("qr").replaceChildren(svg);
    return modules;
  },
};
document.documentElement.classList.add("ready");
