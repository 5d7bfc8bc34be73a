// embed/host.js: the page-level host script for blogs with several tables.
// Include it once (a classic script, from the site):
//
//   <script src="https://SITE/embed/host.js" defer></script>
//   <div data-chkobba-embed="c1.AASFKQ..." data-title="The last trick"></div>
//
// Every element with `data-chkobba-embed` (a link, with or without its "#")
// becomes a lazy, sandboxed embed.html iframe that fits its own height (the
// frames' height messages), and the page's frames share ONE interpreter:
// when the first frame comes on screen, the host adds one hidden sandboxed
// frame, hub.html, that starts Python once and answers the calls of every
// frame (relayed here: a frame's calls go to the hub, the hub's answer goes
// back to that frame only; the hub gives each frame its own table). If the
// hub cannot start or does not answer within `data-hub-wait` ms (default
// 60000), the frames start their own interpreters ONE AT A TIME instead.
// Without this script (a plain <iframe> snippet), each frame boots on its own.
// docs/embeds.md "Many embeds on one page"; the messages: web/embed/transport.js.
(function () {
  "use strict";
  if (window.chkobbaHost) return;
  var script = document.currentScript;
  var base = new URL("../", script && script.src ? script.src : location.href);
  var STALL_MS = 90000;            // a frame that never reports: let the next one go
  var HUB_FRAMES = 64;             // frames one hub serves (web/embed/hub.js); more boot their own
  var HUB_WAIT = Number(script && script.getAttribute("data-hub-wait")) || 60000;
  var frames = [];                 // the iframes mounted, in order: a frame's number is its index
  var queue = [];
  var running = null;
  var stall = null;
  var log = [];                    // [event, frame index]: the hub, and the order frames were let go and started

  // the hub: null until the first frame asks; then "booting", "ready" or "failed"
  var hub = { frame: null, state: null, waiting: [], calls: {}, seq: 0, timer: null };

  function indexOf(win) {
    if (!win) return -1;
    for (var i = 0; i < frames.length; i++) if (frames[i].contentWindow === win) return i;
    return -1;
  }

  function next() {
    if (running || !queue.length) return;
    running = queue.shift();
    clearTimeout(stall);
    stall = setTimeout(function () { running = null; next(); }, STALL_MS);
    log.push(["go", indexOf(running)]);
    running.postMessage({ type: "chkobba:go" }, "*");
  }

  function startHub() {
    if (hub.state) return;
    hub.state = "booting";
    var f = document.createElement("iframe");
    f.src = new URL("hub.html", base).href;
    f.setAttribute("sandbox", "allow-scripts");
    f.setAttribute("aria-hidden", "true");
    f.setAttribute("tabindex", "-1");
    f.setAttribute("data-chkobba-hub", "");
    f.title = "";
    f.style.cssText = "position:absolute;width:0;height:0;border:0;visibility:hidden";
    hub.frame = f;
    hub.timer = setTimeout(hubFailed, HUB_WAIT);
    log.push(["hub", -1]);
    document.body.appendChild(f);
  }

  function hubReady() {
    if (hub.state !== "booting") return;
    clearTimeout(hub.timer);
    hub.state = "ready";
    log.push(["hub-ready", -1]);
    var w = hub.waiting;
    hub.waiting = [];
    for (var i = 0; i < w.length; i++) useHub(w[i]);
  }

  /** No hub: the frames waiting for it start their own, one at a time. */
  function hubFailed() {
    if (hub.state !== "booting") return;
    clearTimeout(hub.timer);
    hub.state = "failed";
    log.push(["hub-failed", -1]);
    if (hub.frame) hub.frame.remove();
    hub.frame = null;
    var w = hub.waiting;
    hub.waiting = [];
    for (var i = 0; i < w.length; i++) if (queue.indexOf(w[i]) < 0) queue.push(w[i]);
    next();
  }

  function useHub(win) {
    log.push(["hub-frame", indexOf(win)]);
    win.postMessage({ type: "chkobba:hub" }, "*");
  }

  function fromHub(d) {
    if (d.type === "chkobba:hub-ready") hubReady();
    else if (d.type === "chkobba:hub-failed") hubFailed();
    else if (d.type === "chkobba:answer") {
      var c = hub.calls[d.id];
      if (!c) return;
      delete hub.calls[d.id];
      // to the frame that asked, only
      if (c.frame.contentWindow) c.frame.contentWindow.postMessage({ type: "chkobba:answer", id: c.id, answer: String(d.answer) }, "*");
    }
  }

  window.addEventListener("message", function (e) {
    var d = e.data;
    if (!d || typeof d.type !== "string") return;
    if (hub.frame && e.source === hub.frame.contentWindow) { fromHub(d); return; }
    var k = indexOf(e.source);
    if (k < 0) return;             // only the frames this script mounted
    var f = frames[k];
    if (d.type === "chkobba:height") {
      var h = Number(d.height);
      if (h > 0 && h < 20000) f.style.height = Math.ceil(h) + "px";
    } else if (d.type === "chkobba:waiting") {
      e.source.postMessage({ type: "chkobba:queued" }, "*");
      if (k < HUB_FRAMES && hub.state !== "failed") {
        startHub();
        if (hub.state === "ready") useHub(e.source);
        else if (hub.waiting.indexOf(e.source) < 0) hub.waiting.push(e.source);
        return;
      }
      if (running !== e.source && queue.indexOf(e.source) < 0) queue.push(e.source);
      next();
    } else if (d.type === "chkobba:started") {
      log.push(["started", k]);
      var i = queue.indexOf(e.source);
      if (i >= 0) queue.splice(i, 1);
      if (running === e.source) { running = null; clearTimeout(stall); }
      next();
    } else if (d.type === "chkobba:call") {
      if (hub.state !== "ready" || k >= HUB_FRAMES) return;
      var id = ++hub.seq;
      hub.calls[id] = { frame: f, id: d.id };
      hub.frame.contentWindow.postMessage({ type: "chkobba:call", id: id, frame: k, name: String(d.name),
        payload: typeof d.payload === "string" ? d.payload : "{}" }, "*");
    }
  });

  function mount(root) {
    var els = (root || document).querySelectorAll("[data-chkobba-embed]:not([data-chkobba-mounted])");
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var link = String(el.getAttribute("data-chkobba-embed") || "").replace(/^#/, "");
      var f = document.createElement("iframe");
      // the link is only ever read by the frame, which checks it (never markup)
      f.src = new URL("embed.html", base).href + "?host=1#" + encodeURIComponent(link);
      f.title = el.getAttribute("data-title") || "Chkobba";
      f.setAttribute("sandbox", "allow-scripts");
      f.setAttribute("loading", "lazy");
      f.setAttribute("data-chkobba-frame", "");
      f.style.cssText = "display:block;width:100%;max-width:640px;height:560px;border:0";
      el.setAttribute("data-chkobba-mounted", "");
      el.replaceChildren(f);
      frames.push(f);
    }
  }

  window.chkobbaHost = { mount: mount, log: log, hub: hub };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { mount(); });
  else mount();
})();
