// An invitation as a link and as a QR code (qrcode-generator, self-hosted:
// scripts/build_site.py copies it from node_modules to online/qrcode.mjs).
import qrcode from "./qrcode.mjs";

// The offer or answer travels in the link's fragment: never sent to any server.
// `extra`: the friend's seat and the table's id (which secret this phone keeps).
export function inviteLink(base, kind, text, extra = {}) {
  const url = new URL(base, location.href);
  url.hash = [`${kind}=${text}`, ...Object.entries(extra).map(([k, v]) => `${k}=${v}`)].join("&");
  return url.href;
}

export function readFragment(hash = location.hash) {
  // #room=CODE: over the internet (a room code; the relays' list follows when not the site's own)
  const m = /^#(offer|answer|room)=([A-Za-z0-9_-]+)(?:&seat=([0-9])&table=([0-9a-f]{16}))?(?:&relays=([A-Za-z0-9_-]{1,1400}))?$/.exec(hash);
  if (!m) return null;
  if (m[1] === "room" && !/^[A-Za-z0-9_-]{16}$/.test(m[2])) return null;
  const out = { kind: m[1], text: m[2] };
  if (m[3] !== undefined) Object.assign(out, { seat: Number(m[3]), table: m[4] });
  if (m[5] !== undefined) out.relays = m[5];
  return out;
}

// The QR code of a text as an SVG element (error correction L: the text is
// long; the codes stay readable on a phone's screen at 4 px a module).
export function qrSvg(text) {
  const qr = qrcode(0, "L");
  qr.addData(text, "Byte");
  qr.make();
  const doc = new DOMParser().parseFromString(qr.createSvgTag({ cellSize: 4, margin: 4, scalable: true }),
                                              "image/svg+xml");
  return { svg: document.importNode(doc.documentElement, true), modules: qr.getModuleCount() };
}
