// A WebRTC data channel between two phones, set up by hand ("same place"):
// the host's offer and the friend's answer travel as short texts (a link's
// fragment or a QR code), so nothing but the two pages takes part. No request
// leaves the origin: ICE servers are empty unless the player supplies some
// (a STUN or TURN server, opted into in the settings).
//
// One ordered, reliable channel (negotiated, id 0) carries the game's JSON
// messages; our own heartbeats tell a peer that left from a quiet one.

const CHANNEL = { negotiated: true, id: 0, ordered: true };
const FORMAT = 1; // version of the compact description below

// ---------------------------------------------------------------- encoding

export function b64url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function unb64url(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

// What of a data-channel-only SDP the other side needs: ICE credentials, the
// DTLS fingerprint and role, the candidates (UDP; the relay's when opted in).
export function compact(desc) {
  const lines = desc.sdp.split(/\r?\n/);
  const get = (p) => (lines.find((l) => l.startsWith(p)) || "").slice(p.length);
  const fp = get("a=fingerprint:sha-256 ").replace(/:/g, "");
  return {
    f: FORMAT,
    t: desc.type === "offer" ? "o" : "a",
    u: get("a=ice-ufrag:"),
    p: get("a=ice-pwd:"),
    h: b64url(Uint8Array.from(fp.match(/../g) || [], (x) => parseInt(x, 16))),
    s: get("a=setup:"),
    m: Number(get("a=max-message-size:")) || 65536,
    c: lines.filter((l) => l.startsWith("a=candidate:") && / udp /i.test(l)).map((l) => l.slice(12)),
  };
}

export function expand(c) {
  if (!c || c.f !== FORMAT || !/^[oa]$/.test(c.t)) throw new Error("not an invitation of this version");
  const fp = Array.from(unb64url(c.h), (b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
  const sdp = [
    "v=0", `o=- ${Date.now()} 2 IN IP4 127.0.0.1`, "s=-", "t=0 0", "a=group:BUNDLE 0",
    "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0",
    ...c.c.map((x) => `a=candidate:${x}`),
    `a=ice-ufrag:${c.u}`, `a=ice-pwd:${c.p}`, `a=fingerprint:sha-256 ${fp}`,
    `a=setup:${c.s}`, "a=mid:0", "a=sctp-port:5000", `a=max-message-size:${c.m}`, "",
  ].join("\r\n");
  return { type: c.t === "o" ? "offer" : "answer", sdp };
}

// A description as the text of an invite: compact JSON, deflated, base64url.
export async function encodeDescription(desc) {
  const json = new TextEncoder().encode(JSON.stringify(compact(desc)));
  return b64url(await pipe(json, new CompressionStream("deflate-raw")));
}

export async function decodeDescription(text) {
  if (typeof text !== "string" || text.length > 4000 || !/^[A-Za-z0-9_-]+$/.test(text)) {
    throw new Error("not an invitation");
  }
  const bytes = await pipe(unb64url(text), new DecompressionStream("deflate-raw"));
  if (bytes.length > 8000) throw new Error("not an invitation");
  return expand(JSON.parse(new TextDecoder().decode(bytes)));
}

// --------------------------------------------------------------- the peer

function gathered(pc, ms) {
  // every candidate found (no trickle: the exchange is by hand), or the time is up
  if (pc.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => { clearTimeout(timer); pc.removeEventListener("icegatheringstatechange", check); resolve(); };
    const check = () => { if (pc.iceGatheringState === "complete") done(); };
    const timer = setTimeout(done, ms);
    pc.addEventListener("icegatheringstatechange", check);
  });
}

export class Peer {
  // options: iceServers (default none: no request leaves the origin),
  // iceTransportPolicy ("all" or "relay"), heartbeatMs, silentMs, gatherMs
  constructor(options = {}) {
    this.options = { iceServers: [], iceTransportPolicy: "all", heartbeatMs: 2000, silentMs: 10000,
                     gatherMs: 5000, ...options };
    this.pc = new RTCPeerConnection({ iceServers: this.options.iceServers,
                                      iceTransportPolicy: this.options.iceTransportPolicy });
    this.channel = this.pc.createDataChannel("chkobba.table", CHANNEL);
    this.lastSeen = 0;
    this.state = "new"; // new -> connecting -> open -> closed
    this.onmessage = () => {};
    this.onstate = () => {};
    this._timer = null;
    this.opened = new Promise((resolve, reject) => {
      this.channel.onopen = () => { this._open(); resolve(); };
      this._reject = reject;
    });
    this.opened.catch(() => {}); // a peer that never opens says so through onstate

    this.channel.onmessage = (e) => {
      this.lastSeen = performance.now();
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      this.onmessage(msg, e.data);
    };
    this.channel.onclose = () => this.close("closed");
    this.pc.onconnectionstatechange = () => {
      if (this.pc.connectionState === "failed") this.close("failed");
    };
  }

  _set(state, why) {
    if (this.state === state) return;
    this.state = state;
    this.onstate(state, why);
  }

  _open() {
    this.lastSeen = performance.now();
    this._set("open");
    this._timer = setInterval(() => {
      if (performance.now() - this.lastSeen > this.options.silentMs) { this.close("silent"); return; }
      this.send({ v: 1, type: "heartbeat", t: Math.floor(Date.now()) });
    }, this.options.heartbeatMs);
  }

  // host: the offer's text, for the friend's link or QR code
  async offer() {
    this._set("connecting");
    await this.pc.setLocalDescription(await this.pc.createOffer());
    await gathered(this.pc, this.options.gatherMs);
    return encodeDescription(this.pc.localDescription);
  }

  // friend: reads the host's offer, returns the answer's text for the host
  async answer(offerText) {
    this._set("connecting");
    await this.pc.setRemoteDescription(await decodeDescription(offerText));
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    await gathered(this.pc, this.options.gatherMs);
    return encodeDescription(this.pc.localDescription);
  }

  // host: reads the friend's answer; the channel opens soon after
  async accept(answerText) {
    await this.pc.setRemoteDescription(await decodeDescription(answerText));
  }

  send(msg) {
    if (this.channel.readyState !== "open") return false;
    this.channel.send(typeof msg === "string" ? msg : JSON.stringify(msg));
    return true;
  }

  // the candidate pair in use: "host", "srflx" or "relay" (local side)
  async route() {
    const stats = await this.pc.getStats();
    let pair = null;
    stats.forEach((s) => {
      if (s.type === "transport" && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId);
    });
    const local = pair ? stats.get(pair.localCandidateId) : null;
    return local ? local.candidateType : null;
  }

  close(why = "closed") {
    if (this.state === "closed") return;
    clearInterval(this._timer);
    this._set("closed", why);
    this._reject(new Error(why));
    try { this.channel.close(); } catch { /* already closed */ }
    this.pc.close();
  }
}
