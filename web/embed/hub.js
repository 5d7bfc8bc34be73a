// hub.html: the one interpreter of a page of embeds (docs/embeds.md "Many
// embeds on one page"). embed/host.js adds this page as a hidden sandboxed
// frame when the first embed comes on screen; it boots Python once and
// answers the facade calls that host.js relays from the page's embed frames:
//
//   host -> hub  {type: "chkobba:call", id, frame, name, payload}
//   hub -> host  {type: "chkobba:answer", id, answer}     (the facade's JSON text)
//   hub -> host  {type: "chkobba:hub-ready"} once, or {type: "chkobba:hub-failed"}
//
// Only messages from its parent (the host page) are read. Each frame has one
// table, named by the frame's number (`f<frame>`): whatever table a payload
// names, a frame reaches only its own. Only the embed's calls are answered.

import { loadPython, runPython } from "./python.js";

/** The calls an embed makes (web/embed/embed.js); anything else is refused. */
const CALLS = new Set(["messages", "link_open", "link_step", "link_act", "link_computer", "link_judge"]);
/** Frames one hub serves (host.js: HUB_FRAMES); the facade keeps as many tables. */
export const HUB_FRAMES = 64;

const hub = { boots: 0, calls: 0, ignored: 0, refused: 0, ready: false, failed: false };
window.chkobbaHub = hub;      // for tests and the curious

const toParent = (m) => { try { window.parent.postMessage(m, "*"); } catch { /* no parent */ } };

/** The facade's own refusal of an unknown call, naming only the embed's calls. */
function refusal(name) {
  const params = { name: JSON.stringify(String(name).slice(0, 40)), known: [...CALLS].sort().join(", ") };
  return JSON.stringify({ error: `There is no call named ${params.name} (known: ${params.known})`, code: "web.unknown_call", params });
}

/** One relayed call: the facade's answer (a JSON text), never an exception. */
function answer(frame, name, payload) {
  if (!Number.isInteger(frame) || frame < 0 || frame >= HUB_FRAMES || typeof name !== "string" || !CALLS.has(name)) {
    hub.refused++;
    return refusal(name);
  }
  let args;
  try { args = JSON.parse(typeof payload === "string" ? payload : "{}"); } catch { args = null; }
  if (args && typeof args === "object" && !Array.isArray(args)) args.table = `f${frame}`;
  hub.calls++;
  return window.chkobbaPy(name, args && typeof args === "object" && !Array.isArray(args) ? JSON.stringify(args) : String(payload));
}

let started = null;

function start() {
  if (!started) {
    hub.boots++;
    started = loadPython().then(() => {
      // one table per frame it serves, never one dropped for another's
      runPython(`import chkobba.web\nchkobba.web.allow_tables(${HUB_FRAMES})`);
      hub.ready = true;
      toParent({ type: "chkobba:hub-ready" });
    }, (err) => {
      hub.failed = true;
      console.info("The hub could not start Python:", err);
      toParent({ type: "chkobba:hub-failed" });
    });
  }
  return started;
}

window.addEventListener("message", (e) => {
  if (e.source !== window.parent || window.parent === window) { hub.ignored++; return; }
  const d = e.data;
  if (!d || d.type !== "chkobba:call") return;
  start().then(() => {
    if (!hub.ready) return;
    toParent({ type: "chkobba:answer", id: d.id, answer: answer(d.frame, d.name, d.payload) });
  });
});

if (window.parent !== window) start();
