// Finding each other over the internet, strictly opt-in (docs/online.md,
// "Over the internet"). Nothing here runs before the player has agreed on
// the page: play.js creates a Signal only after its consent notice.
//
// The relays are WebSocket BitTorrent trackers (the WebTorrent protocol that
// trystero's "torrent" strategy also uses): a page announces itself under a
// 20-byte "info hash", and the tracker forwards an offer to the other pages
// under the same hash and the answer back. That is all they pass: the
// WebRTC set-up (offer and answer), never a card (cards travel only on the
// encrypted data channel between the phones).
//
// The room: the invitation link carries a room code (in its fragment, never
// sent anywhere); the hash the tracker sees and the key that seals the offer
// and the answer (AES-GCM) are both derived from the code and the seat, so a
// tracker sees neither the code nor the set-up's content (the phones' IP
// addresses it sees anyway: it is how the phones reach it).
//
// A second kind of relay, used at the same time: Nostr relays, written
// `nostr+wss://...` in the list (web/online/nostr.js, loaded only when one is
// listed). The same sealed offer and answer go through them, so a room
// connects while one kind of relay is down.

import { b64url, unb64url } from "./peer.js";

const enc = new TextEncoder();
const dec = new TextDecoder();
const ANNOUNCE_MS = 3000;   // the host's offer is announced again this often, until answered
const RETRY_MS = 3000;      // a relay that closed is opened again after this

const sha = async (text) => new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(text)));
const binary = (bytes) => String.fromCharCode(...bytes);   // the tracker protocol's 20-"byte" strings
const random20 = () => binary(crypto.getRandomValues(new Uint8Array(20)));

/** A new room code: 80 random bits, 16 characters for the link. */
export function newRoomCode() {
  return b64url(crypto.getRandomValues(new Uint8Array(12)));
}

export function validRoomCode(code) {
  return typeof code === "string" && /^[A-Za-z0-9_-]{16}$/.test(code);
}

const NOSTR = "nostr+";
export const isNostr = (relay) => relay.startsWith(NOSTR);

/**
 * Relay addresses as the player typed them: one `wss://` (or local `ws://`)
 * address a line, a tracker; the same with `nostr+` before it, a Nostr relay.
 */
export function parseRelays(text) {
  const out = [];
  for (const line of String(text || "").split(/[\s,]+/)) {
    if (!line) continue;
    const nostr = line.toLowerCase().startsWith(NOSTR);
    let url;
    try { url = new URL(nostr ? line.slice(NOSTR.length) : line); } catch { throw new Error(line); }
    const local = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    if (!(url.protocol === "wss:" || (url.protocol === "ws:" && local))) throw new Error(line);
    if (url.username || url.password) throw new Error(line);
    out.push((nostr ? NOSTR : "") + url.href);
  }
  return out;
}

async function roomOf(code, seat) {
  const digest = (await sha(`chkobba-online/1/room/${code}/${seat}`)).slice(0, 20);
  const hash = binary(digest);
  const key = await crypto.subtle.importKey("raw", await sha(`chkobba-online/1/key/${code}/${seat}`),
                                            "AES-GCM", false, ["encrypt", "decrypt"]);
  return { hash, key, digest };
}

async function seal(key, text) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const body = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, enc.encode(text)));
  const out = new Uint8Array(iv.length + body.length);
  out.set(iv);
  out.set(body, iv.length);
  return b64url(out);
}

async function unseal(key, text) {
  if (typeof text !== "string" || text.length > 8000) throw new Error("not ours");
  const bytes = unb64url(text);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, key, bytes.slice(12));
  return dec.decode(plain);
}

/**
 * Narrow the page's Content-Security-Policy to exactly these relays before any
 * is contacted: a second policy added by the page's own script (policies
 * intersect, so it can only narrow the static one of online.html). Once added
 * it stays for the page's life; other relays need a reload (the settings do it).
 */
export function limitConnections(relays) {
  const key = JSON.stringify(relays);
  const have = document.querySelector('meta[data-relays]');
  if (have) return have.dataset.relays === key;
  const sources = relays.map((r) => r.replace(/^nostr\+/, "").replace(/[;,\s']/g, ""));
  const meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = `connect-src 'self' ${sources.join(" ")}`;
  meta.dataset.relays = key;
  document.head.append(meta);
  return true;
}

/**
 * One seat's room on a list of relays. The host calls offer(text, onAnswer)
 * (again with each new offer: a friend that left gets the new one); the
 * friend calls nextOffer() and then answer(text). close() ends every socket.
 */
export class Signal {
  constructor({ relays, code, seat }) {
    this.relays = relays;
    this.code = code;
    this.seat = seat;
    this.peerId = random20();
    this.sockets = new Map();
    this.closed = false;
    this.events = [];            // for the tests and the figures: what went to and came from the relays
    this.room = roomOf(code, seat);
    this._offer = null;          // host: { id, sealed, onAnswer }
    this._waiting = null;        // friend: resolve of nextOffer()
    this._seen = new Set();      // friend: offer ids already answered
    this._timer = null;
    this.nostr = null;           // the Nostr relays, once their module is loaded
    limitConnections(relays);
    for (const url of relays) if (!isNostr(url)) this._open(url);
    const nostr = relays.filter(isNostr);
    this._nostrReady = nostr.length ? this._openNostr(nostr) : Promise.resolve();
  }

  async _openNostr(relays) {
    const [{ NostrRelays, topicOf }, { digest }] = await Promise.all([import("./nostr.js"), this.room]);
    if (this.closed) return;
    this.nostr = new NostrRelays(relays, topicOf(digest), (content, url) => this._receiveNostr(content, url), this.events);
  }

  async _receiveNostr(content, url) {
    const { key } = await this.room;
    let msg;
    try { msg = JSON.parse(await unseal(key, content)); } catch { return; }   // not this room's: ignored
    if (!msg || typeof msg.id !== "string" || typeof msg.sdp !== "string") return;
    if (msg.type === "answer" && this._offer && msg.id === this._offer.id) {
      this.events.push("answer");
      const offer = this._offer;
      this._offer = null;
      clearInterval(this._timer);
      offer.onAnswer(msg.sdp);
    } else if (msg.type === "offer" && this._waiting && !this._seen.has(msg.id)) {
      this._seen.add(msg.id);
      this.events.push("offer");
      const resolve = this._waiting;
      this._waiting = null;
      resolve({ text: msg.sdp, at: performance.now(), reply: { nostr: url, id: msg.id } });
    }
  }

  async _publishNostr(msg, only = null) {
    await this._nostrReady;
    if (!this.nostr) return false;
    const { key } = await this.room;
    return this.nostr.publish(await seal(key, JSON.stringify(msg)), only);
  }

  _open(url) {
    if (this.closed) return;
    let ws;
    try { ws = new WebSocket(url); } catch { return; }
    this.sockets.set(url, ws);
    ws.onopen = () => { this.events.push(`open ${url}`); this._announce(ws); };
    ws.onmessage = (e) => this._receive(ws, e.data);
    ws.onerror = () => {};
    ws.onclose = () => {
      this.sockets.delete(url);
      if (!this.closed) setTimeout(() => this._open(url), RETRY_MS);
    };
  }

  async _announce(ws) {
    const { hash } = await this.room;
    if (ws.readyState !== WebSocket.OPEN) return;
    const msg = { action: "announce", info_hash: hash, peer_id: this.peerId, numwant: 0,
                  uploaded: 0, downloaded: 0, left: 1 };
    if (this._offer) {
      msg.numwant = 1;
      msg.offers = [{ offer_id: this._offer.id, offer: { type: "offer", sdp: this._offer.sealed } }];
    }
    ws.send(JSON.stringify(msg));
  }

  _announceAll() {
    for (const ws of this.sockets.values()) this._announce(ws);
    if (this._offer) this._publishNostr({ type: "offer", id: this._offer.id, sdp: this._offer.text });
  }

  async _receive(ws, data) {
    let msg;
    try { msg = JSON.parse(data); } catch { return; }
    if (!msg || msg.action !== "announce" || typeof msg.peer_id !== "string") return;
    const { hash, key } = await this.room;
    if (msg.info_hash !== hash) return;
    try {
      if (msg.answer && this._offer && msg.offer_id === this._offer.id) {
        const text = await unseal(key, msg.answer.sdp);
        this.events.push("answer");
        const offer = this._offer;
        this._offer = null;   // one answer per offer
        clearInterval(this._timer);
        offer.onAnswer(text);
      } else if (msg.offer && this._waiting && typeof msg.offer_id === "string" && !this._seen.has(msg.offer_id)) {
        const text = await unseal(key, msg.offer.sdp);
        this._seen.add(msg.offer_id);
        this.events.push("offer");
        const resolve = this._waiting;
        this._waiting = null;
        resolve({ text, at: performance.now(), reply: { ws, to: msg.peer_id, id: msg.offer_id } });
      }
    } catch {
      // not sealed with this room's key: someone else's, or forged; ignored
    }
  }

  /** Host: announce this offer until a friend answers it. */
  async offer(text, onAnswer) {
    const { key } = await this.room;
    const id = Array.from(crypto.getRandomValues(new Uint8Array(10)), (b) => b.toString(16).padStart(2, "0")).join("");
    this._offer = { id, text, sealed: await seal(key, text), onAnswer };
    clearInterval(this._timer);
    this._announceAll();
    this._timer = setInterval(() => this._announceAll(), ANNOUNCE_MS);
  }

  /** Friend: the next offer the host announces in this room. */
  nextOffer() {
    return new Promise((resolve) => {
      this._waiting = resolve;
      this._announceAll();
    });
  }

  /** Friend: the answer to an offer, sent back through the relay it came by. */
  async answer(got, text) {
    const { hash, key } = await this.room;
    if (got.reply.nostr) {
      const sent = await this._publishNostr({ type: "answer", id: got.reply.id, sdp: text }, got.reply.nostr);
      if (sent) this.events.push("answered");
      return sent;
    }
    const { ws, to, id } = got.reply;
    if (ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify({ action: "announce", info_hash: hash, peer_id: this.peerId, to_peer_id: to,
                             offer_id: id, answer: { type: "answer", sdp: await seal(key, text) },
                             numwant: 0, uploaded: 0, downloaded: 0, left: 1 }));
    this.events.push("answered");
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this._timer);
    for (const ws of this.sockets.values()) { try { ws.close(); } catch { /* closing */ } }
    this.sockets.clear();
    if (this.nostr) this.nostr.close();
  }
}
