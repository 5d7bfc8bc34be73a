// Playing friends on their own phones (design in docs/online.md).
//
// One page, three roles, chosen by the address:
// - no fragment: the HOST chooses the game and each seat, then its page runs
//   chkobba.online.HostTable in its Python (web/shell/py.js) with one Peer
//   (web/online/peer.js) per friend, and draws its own seat's answer;
// - #offer=...&seat=N&table=ID: a FRIEND's phone answers the host's offer,
//   shows its answer (link and QR code) to send back, then sits down: it
//   draws only what the host sends for its seat (chkobba.online.Guest keeps
//   its secret and seeds and audits every round, in this page's Python);
// - #answer=...: the friend's answer opened on the host's own phone: handed
//   to the host's tab (BroadcastChannel, same phone only), nothing else.
// No rule, score or winner here: the answers come from the facade's builder.
// No request leaves the origin unless the player chose "over the internet"
// and agreed to the notice naming each server (then web/online/signal.js,
// WebSocket trackers, passes the set-up; #room=CODE&seat=N&table=ID links).
// The page's parts: common.js (what they share, the settings and consent of
// play over the internet, the edge to chkobba/online/page.py), seats.js
// (presence, reactions, the summary, the table), host.js, friend.js.

import { initI18n, mountLanguagePicker, t, translateDom } from "../i18n/i18n.js";
import { loadPace, writePace } from "../shell/storage.js";
import { $, HOST_KEY, fillSettingsForm, friend, guestPy, host, hostPy, invite, load, online, root, setupNameField,
  status, store } from "./common.js";
import { drawSeatRows, hostAct, hostChanged, hostNew, hostReact, hostResume } from "./host.js";
import { friendAct, friendReact, join, joinRoom, relay } from "./friend.js";

await initI18n();
translateDom();
mountLanguagePicker(document.querySelector(".bar-actions .lang-slot"), { reload: true });

// ================================================================= start

// The player's moves as the table sends them (for the e2e tests: the same path as a tap).
online.legal = () => (online.role === "host" ? hostPy("state").legal
  : online.role === "friend" && friend.ready ? guestPy("status").legal : []);
online.act = (action) => (online.role === "host" ? hostAct(action) : friendAct(action));
online.react = (reaction) => (online.role === "host" ? hostReact(reaction) : friendReact(reaction));
online.record = () => (host.ready ? hostPy("record") : null);
online.friendPeer = () => friend.peer;

const { readFragment } = await invite();
const frag = readFragment(location.hash);
if (frag && frag.kind === "offer" && frag.seat !== undefined) {
  join(frag);
} else if (frag && frag.kind === "room" && frag.seat !== undefined) {
  joinRoom(frag);
} else if (frag && frag.kind === "answer") {
  relay(frag);
} else {
  if (location.hash) status(t("online.bad_invite"));
  const saved = (() => { try { return JSON.parse(load(HOST_KEY)); } catch { return null; } })();
  if (saved && saved.id && saved.save && saved.save.over) {
    // the match this phone hosted is over: no game to resume, a rematch at its seats or a new table
    $("finished").hidden = false;
    $("finished-rematch").addEventListener("click", () => hostResume(saved, true));
    $("finished-new").addEventListener("click", () => {
      store(HOST_KEY, null);
      $("finished").hidden = true;
      $("setup").hidden = false;
    });
  } else if (saved && saved.id && saved.save) {
    $("resume").hidden = false;
    $("resume-go").addEventListener("click", () => hostResume(saved));
    $("resume-end").addEventListener("click", () => {
      store(HOST_KEY, null);
      $("resume").hidden = true;
      $("setup").hidden = false;
    });
  } else {
    $("setup").hidden = false;
  }
  drawSeatRows();
  fillSettingsForm();
  setupNameField($("setup-form").elements.player_name, $("setup-form").querySelector(".name-note"));
  $("start-now").addEventListener("click", () => hostChanged(hostPy("start")));
  // the computer's pace: the table page's own setting, read again before each computer move (hostComputers)
  const pace = $("setup-form").elements.pace;
  pace.value = loadPace();
  pace.addEventListener("change", () => writePace(pace.value));
  $("setup-form").addEventListener("change", (e) => { if (e.target.name === "table") drawSeatRows(); });
  $("setup-form").addEventListener("submit", hostNew);
}
// a new invitation opened in this tab (only the fragment changes): start again from it
window.addEventListener("hashchange", () => location.reload());
root.classList.add("ready");
