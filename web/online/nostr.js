// The second kind of relay: Nostr relays (written `nostr+wss://...` in the
// relay list), used beside the trackers so that a room still connects when
// every tracker is down. Loaded by signal.js only when a Nostr relay is
// configured, after the player agreed (with its signing code, npm
// @noble/secp256k1, copied into the site as secp256k1.js).
//
// As in trystero's "nostr" strategy: each page makes a throwaway key, and
// publishes ephemeral events (kind 2xxxx: relays forward them, keep none)
// tagged with the room's topic ("x" tag); it subscribes to the same topic.
// The topic is derived from the room code and the seat (the relay sees
// neither), and an event's content is the same AES-GCM sealed set-up as on a
// tracker: { type: "offer" | "answer", id, sdp } sealed as a whole.

import { schnorr, utils } from "./secp256k1.js";

const enc = new TextEncoder();
const RETRY_MS = 3000;
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

/** The address a Nostr relay's socket opens: the list's entry without its `nostr+` prefix. */
export const socketUrl = (relay) => relay.replace(/^nostr\+/, "");

/** The room's topic tag and event kind (ephemeral: 20000-29999) from the room's hash. */
export function topicOf(hashBytes) {
  return { topic: hex(hashBytes), kind: 20000 + ((hashBytes[0] << 8 | hashBytes[1]) % 10000) };
}

export class NostrRelays {
  /** relays: `nostr+wss://` entries; room: { topic, kind }; onEvent(content, relay) for each event of the room not ours. */
  constructor(relays, room, onEvent, events) {
    this.room = room;
    this.onEvent = onEvent;
    this.events = events;
    this.secret = utils.randomSecretKey();
    this.pubkey = hex(schnorr.getPublicKey(this.secret));
    this.sub = hex(crypto.getRandomValues(new Uint8Array(8)));
    this.sockets = new Map();
    this.seen = new Set();
    this.closed = false;
    for (const url of relays) this._open(url);
  }

  _open(url) {
    if (this.closed) return;
    let ws;
    try { ws = new WebSocket(socketUrl(url)); } catch { return; }
    this.sockets.set(url, ws);
    ws.onopen = () => {
      this.events.push(`open ${url}`);
      ws.send(JSON.stringify(["REQ", this.sub, { kinds: [this.room.kind], "#x": [this.room.topic],
                                                 since: Math.floor(Date.now() / 1000) - 60 }]));
    };
    ws.onmessage = (e) => this._receive(url, e.data);
    ws.onerror = () => {};
    ws.onclose = () => {
      this.sockets.delete(url);
      if (!this.closed) setTimeout(() => this._open(url), RETRY_MS);
    };
  }

  _receive(url, data) {
    if (typeof data !== "string" || data.length > 16000) return;
    let msg;
    try { msg = JSON.parse(data); } catch { return; }
    if (!Array.isArray(msg) || msg[0] !== "EVENT" || msg[1] !== this.sub) return;
    const ev = msg[2];
    if (!ev || typeof ev.content !== "string" || ev.pubkey === this.pubkey || ev.kind !== this.room.kind) return;
    if (this.seen.has(ev.id)) return;   // the same event through another relay
    this.seen.add(ev.id);
    this.onEvent(ev.content, url);
  }

  /** Publish this (already sealed) content to every open relay, or only to `only`. */
  async publish(content, only = null) {
    const created_at = Math.floor(Date.now() / 1000);
    const tags = [["x", this.room.topic]];
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", enc.encode(
      JSON.stringify([0, this.pubkey, created_at, this.room.kind, tags, content]))));
    const id = hex(digest);
    const sig = hex(await schnorr.signAsync(digest, this.secret));
    const text = JSON.stringify(["EVENT", { id, pubkey: this.pubkey, created_at, kind: this.room.kind, tags, content, sig }]);
    let sent = false;
    for (const [url, ws] of this.sockets) {
      if ((only && url !== only) || ws.readyState !== WebSocket.OPEN) continue;
      ws.send(text);
      sent = true;
    }
    return sent;
  }

  close() {
    this.closed = true;
    for (const ws of this.sockets.values()) { try { ws.close(); } catch { /* closing */ } }
    this.sockets.clear();
  }
}
