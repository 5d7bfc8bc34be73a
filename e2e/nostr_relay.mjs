// A small Nostr relay for the e2e tests (NIP-01, on npm's `ws`), on this
// machine only: it checks each event's id and schnorr signature as a public
// relay does, forwards it to the subscriptions whose filter it matches (kinds
// and "#x" tags, what web/online/nostr.js asks for), keeps none, and logs
// every message it is sent ("MSG <json>") for the tests to read.
// Usage: node e2e/nostr_relay.mjs  (prints "PORT <n>" once listening)

import { createHash } from "node:crypto";
import { WebSocketServer } from "ws";
import { schnorr } from "@noble/secp256k1";

const unhex = (h) => Uint8Array.from(h.match(/../g) || [], (b) => parseInt(b, 16));
const subs = new Map();   // socket -> Map(subscription id -> filters)

async function valid(ev) {
  if (!ev || typeof ev.id !== "string" || typeof ev.pubkey !== "string" || typeof ev.sig !== "string") return false;
  const id = createHash("sha256").update(JSON.stringify([0, ev.pubkey, ev.created_at, ev.kind, ev.tags, ev.content])).digest("hex");
  if (id !== ev.id) return false;
  try { return await schnorr.verifyAsync(unhex(ev.sig), unhex(ev.id), unhex(ev.pubkey)); } catch { return false; }
}

const matches = (f, ev) =>
  (!f.kinds || f.kinds.includes(ev.kind)) &&
  (!f["#x"] || ev.tags.some((t) => t[0] === "x" && f["#x"].includes(t[1]))) &&
  (!f.since || ev.created_at >= f.since);

const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
server.on("listening", () => console.log("PORT " + server.address().port));
server.on("connection", (socket) => {
  subs.set(socket, new Map());
  socket.on("close", () => subs.delete(socket));
  socket.on("message", async (data) => {
    const text = String(data);
    console.log("MSG " + text);
    let msg;
    try { msg = JSON.parse(text); } catch { return; }
    if (!Array.isArray(msg)) return;
    if (msg[0] === "REQ") {
      subs.get(socket).set(msg[1], msg.slice(2));
      socket.send(JSON.stringify(["EOSE", msg[1]]));
    } else if (msg[0] === "CLOSE") {
      subs.get(socket).delete(msg[1]);
    } else if (msg[0] === "EVENT") {
      const ev = msg[1];
      const ok = await valid(ev);
      if (!ok) console.log("ERROR invalid event");
      socket.send(JSON.stringify(["OK", ev && ev.id, ok, ok ? "" : "invalid: bad id or signature"]));
      if (!ok) return;
      for (const [other, theirs] of subs) {
        for (const [sub, filters] of theirs) {
          if (filters.some((f) => matches(f, ev))) other.send(JSON.stringify(["EVENT", sub, ev]));
        }
      }
    }
  });
});
