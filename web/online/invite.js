// An invitation as a link and as a QR code (qrcode-generator, self-hosted:
// scripts/build_site.py copies it from node_modules to online/qrcode.mjs).
import qrcode from "./qrcode.mjs";

// The offer or answer travels in the link's fragment: never sent to any server.
export function inviteLink(base, kind, text) {
  const url = new URL(base, location.href);
  url.hash = `${kind}=${text}`;
  return url.href;
}

export function readFragment(hash = location.hash) {
  const m = /^#(offer|answer)=([A-Za-z0-9_-]+)$/.exec(hash);
  return m ? { kind: m[1], text: m[2] } : null;
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
