// Never a blank page (docs/boot.md): the table's frame and what is happening, in
// the reader's language, from the very first paint. A classic script in the
// page's <head> (modules run only once the whole page is parsed and their
// imports have arrived, catalogs included): it sets the page's language and
// direction at once, and fills the brand and the table's host the moment the
// parser adds them (a MutationObserver's callback runs before the browser can
// paint what was added). scripts/build_site.py fills WORDS from the catalogs
// (web/i18n/<lang>/ui.json); the language is chosen as web/i18n/i18n.js
// chooses it (?lang=, the reader's choice, the browser's languages, English).
// app.js then mounts the table over this frame and counts the download.
(function () {
  var WORDS = /* __FIRST_WORDS__ */ {};
  var candidates = [];
  try { candidates.push(new URLSearchParams(location.search).get("lang")); } catch (e) { /* no location */ }
  try { candidates.push(localStorage.getItem("chkobba.lang")); } catch (e) { /* sandboxed */ }
  candidates = candidates.concat(navigator.languages || [navigator.language]);
  var code = "en";
  for (var i = 0; i < candidates.length; i++) {
    var c = candidates[i];
    var base = typeof c === "string" ? c.trim().toLowerCase().split(/[-_]/)[0] : "";
    if (WORDS[base]) { code = base; break; }
  }
  var w = WORDS[code];
  if (!w) return;
  var root = document.documentElement;
  root.lang = code;
  root.dir = w.dir;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    e.className = cls;
    if (text) e.textContent = text;
    return e;
  }
  var done = false;
  function fill() {
    if (done) return;
    var brand = document.querySelector(".brand-text");
    if (brand && !brand.textContent) brand.textContent = w.brand;
    var title = document.querySelector("title");
    if (title && !title.textContent) title.textContent = w.title;
    var host = document.getElementById("table");
    if (!host) return;
    done = true;
    if (host.querySelector(".ck")) return;   // the table is already there
    var frame = el("div", "ck loading first-paint");
    var box = el("div", "loading-indicator");
    box.setAttribute("role", "progressbar");
    box.setAttribute("aria-label", w.label);
    var spinner = el("span", "spinner");
    spinner.setAttribute("aria-hidden", "true");
    box.appendChild(spinner);
    box.appendChild(el("span", "loading-text", w.text));
    frame.appendChild(el("div", "first-paint-felt"));
    frame.appendChild(box);
    host.replaceChildren(frame);
  }
  var watch = new MutationObserver(function () {
    fill();
    if (done) watch.disconnect();
  });
  watch.observe(document, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", function () { fill(); watch.disconnect(); });
})();
