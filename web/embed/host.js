// embed/host.js: the page-level host script for blogs with several tables.
// Include it once (a classic script, from the site):
//
//   <script src="https://SITE/embed/host.js" defer></script>
//   <div data-chkobba-embed="c1.AASFKQ..." data-title="The last trick"></div>
//
// Every element with `data-chkobba-embed` (a link, with or without its "#")
// becomes a lazy, sandboxed embed.html iframe that fits its own height (the
// frames' height messages), and the frames start Python ONE AT A TIME: a
// frame that comes on screen asks the host for its turn and boots when the
// frame before it has finished booting, so the first table is ready as fast
// as a lone embed and a page of ten does not start ten interpreters at once.
// Without this script (a plain <iframe> snippet), each frame boots on its own.
// docs/embeds.md "Many embeds on one page".
(function () {
  "use strict";
  if (window.chkobbaHost) return;
  var script = document.currentScript;
  var base = new URL("../", script && script.src ? script.src : location.href);
  var STALL_MS = 90000;            // a frame that never reports: let the next one go
  var queue = [];
  var running = null;
  var stall = null;
  var log = [];                    // [event, frame index]: the order frames were let go and started

  function frameOf(win) {
    var all = document.querySelectorAll("iframe[data-chkobba-frame]");
    for (var i = 0; i < all.length; i++) if (all[i].contentWindow === win) return all[i];
    return null;
  }

  function indexOf(win) {
    var all = document.querySelectorAll("iframe[data-chkobba-frame]");
    for (var i = 0; i < all.length; i++) if (all[i].contentWindow === win) return i;
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

  window.addEventListener("message", function (e) {
    var d = e.data;
    if (!d || typeof d.type !== "string") return;
    var f = frameOf(e.source);
    if (!f) return;
    if (d.type === "chkobba:height") {
      var h = Number(d.height);
      if (h > 0 && h < 20000) f.style.height = Math.ceil(h) + "px";
    } else if (d.type === "chkobba:waiting") {
      e.source.postMessage({ type: "chkobba:queued" }, "*");
      if (running !== e.source && queue.indexOf(e.source) < 0) queue.push(e.source);
      next();
    } else if (d.type === "chkobba:started") {
      log.push(["started", indexOf(e.source)]);
      var i = queue.indexOf(e.source);
      if (i >= 0) queue.splice(i, 1);
      if (running === e.source) { running = null; clearTimeout(stall); }
      next();
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
    }
  }

  window.chkobbaHost = { mount: mount, log: log };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { mount(); });
  else mount();
})();
