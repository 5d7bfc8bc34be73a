// The bench of e2e/test_online.py: a Peer and what it received, on window.online.
import { Peer, decodeDescription } from "./peer.js";
import { inviteLink, qrSvg, readFragment } from "./invite.js";

const state = { peer: null, received: [], states: [] };

function make(options) {
  const peer = new Peer(options);
  peer.onmessage = (msg) => {
    state.received.push(msg);
    if (msg && msg.type === "ping") peer.send({ type: "pong", n: msg.n });
    if (msg && msg.type === "pong" && state.waiting) state.waiting(msg.n);
  };
  peer.onstate = (s, why) => { state.states.push(why ? `${s}:${why}` : s); };
  state.peer = peer;
  return peer;
}

window.online = {
  state,
  async host(options = {}) { return make(options).offer(); },
  async join(offer, options = {}) { return make(options).answer(offer); },
  async accept(answer) { await state.peer.accept(answer); },
  opened() { return state.peer.opened.then(() => true); },
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
