// The embed's way to the facade (docs/embeds.md "Many embeds on one page"):
// the page's hub when embed/host.js offers one, else an interpreter of the
// frame's own (a plain <iframe> snippet, or a hub that failed). Either way a
// call is `await call(name, args)`: the facade's `ok`, or a FacadeError with
// its one-line refusal, as py() gives on the page's own interpreter.
//
// The conversation with host.js (frames it mounted carry ?host=1):
//   frame -> host  chkobba:waiting            (the frame is on screen)
//   host -> frame  chkobba:queued             (a host is here: wait for it)
//   host -> frame  chkobba:hub                (use the page's hub), or
//   host -> frame  chkobba:go                 (boot your own, your turn)
//   frame -> host  chkobba:started            (own interpreter booted or failed)
//   frame -> host  chkobba:call {id, name, payload}; host -> frame chkobba:answer {id, answer}
// A host that does not answer "queued" within 2 s (no host.js) is not waited for.

import { loadPython } from "./python.js";
import { py, FacadeError } from "../shell/py.js";

const HOST_MS = 2000;          // no "queued" by then: there is no host script
const CALL_MS = 180000;        // a hub call not answered by then: the engine is gone

export const HOSTED = new URLSearchParams(location.search).has("host") && window.parent !== window;

function toHost(message) {
  if (!HOSTED) return;
  try { window.parent.postMessage(message, "*"); } catch { /* no parent */ }
}

/** Ask the host how to get an interpreter: "hub", "go" (own, its turn) or "none". */
function askHost() {
  if (!HOSTED) return Promise.resolve("none");
  return new Promise((resolve) => {
    let queued = false;
    const done = (how) => { window.removeEventListener("message", onMessage); resolve(how); };
    const onMessage = (e) => {
      if (e.source !== window.parent || !e.data) return;
      if (e.data.type === "chkobba:queued") queued = true;
      else if (e.data.type === "chkobba:hub") done("hub");
      else if (e.data.type === "chkobba:go") done("go");
    };
    window.addEventListener("message", onMessage);
    toHost({ type: "chkobba:waiting" });
    setTimeout(() => { if (!queued) done("none"); }, HOST_MS);
  });
}

/** A hub call that got no answer in time: the page's engine is gone (not a refusal). */
export class EngineLost extends Error {}

function parse(text) {
  const answer = JSON.parse(text);
  if ("error" in answer) throw new FacadeError(answer);
  return answer.ok;
}

/** Calls relayed by the host page to its hub frame. */
function hubCaller() {
  const pending = new Map();
  // ids start at random: an answer meant for this frame's document before a
  // reload (same window, same host) never matches a call of the new one
  let seq = Math.floor(Math.random() * 2 ** 40);
  window.addEventListener("message", (e) => {
    const d = e.data;
    if (e.source !== window.parent || !d || d.type !== "chkobba:answer") return;
    const p = pending.get(d.id);
    if (!p) return;
    pending.delete(d.id);
    clearTimeout(p.timer);
    p.resolve(String(d.answer));
  });
  return (name, args = {}) => new Promise((resolve, reject) => {
    const id = ++seq;
    const timer = setTimeout(() => { pending.delete(id); reject(new EngineLost(`${name}: no answer from the page's engine`)); }, CALL_MS);
    pending.set(id, { resolve, timer });
    toHost({ type: "chkobba:call", id, name, payload: JSON.stringify(args) });
  }).then(parse);
}

/**
 * The frame's engine: `{ call, via }`, via "hub" or "own". Rejects if the
 * frame's own interpreter cannot start.
 */
export async function connect() {
  const how = await askHost();
  if (how === "hub") return { call: hubCaller(), via: "hub" };
  try {
    await loadPython();
  } finally {
    if (how === "go") toHost({ type: "chkobba:started" });
  }
  return { call: async (name, args = {}) => py(name, args), via: "own" };
}

export { FacadeError };
