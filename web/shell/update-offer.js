// The offer of a new version on the table page (web/update.js finds it).

import { $, app, gameOver, root } from "./app-state.js";

// Updates that never break a game (web/update.js): registerServiceWorker()
// calls wireUpdates(initUpdates) once after boot. A new version is offered only while no round is
// in progress (no game, a round summary, or the end of the match).
function canReloadNow() {
  return !app.state || app.paused || gameOver();
}

function offerUpdate(apply) {
  const bar = $("update");
  bar.hidden = !apply;
  root.classList.toggle("update-offered", !!apply);
  $("update-reload").onclick = apply || null;
  placeUpdateOffer();
}

// A modal dialog makes the page behind it inert: the offer lives inside the
// open dialog, and moves whenever a dialog opens or closes.
function placeUpdateOffer() {
  const bar = $("update");
  if (bar.hidden) return;
  const open = [...document.querySelectorAll("dialog[open]")].pop();
  const home = open ? open.querySelector(".summary-box, .start-form") || open : document.body;
  if (bar.parentElement !== home) home.append(bar);
}
document.addEventListener("chkobba:dialog", placeUpdateOffer);

export function wireUpdates(initUpdates) {
  return initUpdates({ canReloadNow, onUpdateReady: offerUpdate })
    .then((u) => { if (u) root.classList.add("sw-registered"); return u; });
}
app.wireUpdates = wireUpdates;

// Offline play and updates (web/update.js registers the service worker only on
// https or on this machine, and offers a new version between rounds).
export function registerServiceWorker() {
  return import("../update.js").then(({ initUpdates }) => wireUpdates(initUpdates));
}
