// The table page (index.html): the shell around the table component. Its
// boot and wiring are here; the rest of the shell is one module per job in
// web/shell/: the shared state (app-state.js), a match's moves and the
// computers' (moves.js), the controls under the table (controls.js), saves
// and resume (saves.js), the round summary (summary.js), the start screen
// (start.js), the daily deal's and challenges' glue (linked.js) and the
// offer of updates (update-offer.js). Pyodide boots in web/shell/py.js, the
// computer players run in the same interpreter (web/ai.py). The table itself
// is web/table/core.js with one renderer per game; no rule, score or winner
// is computed here either: the facade (chkobba/web/) decides.

import { DEFAULT_GAME, mount } from "./table/core.js";
import { initI18n, mountLanguagePicker, t, translateDom } from "./i18n/i18n.js";
import { bootState, keepSnapshotForLater, py, think } from "./shell/py.js";
import * as store from "./shell/storage.js";
import { closeDialog, setupDialog } from "./shell/dialogs.js";
import { StartForm } from "./shell/startform.js";
import { describeTables } from "./shell/games.js";
import { PageTimer } from "./shell/timers.js";
import { Handoff } from "./shell/handoff.js";
import { initShare } from "./shell/share.js";
import { initStats, openStats } from "./shell/stats.js";
import * as sound from "./shell/sound.js";
import * as daily from "./shell/daily.js";
import * as challenge from "./shell/challenge.js";
import { $, app, root } from "./shell/app-state.js";
import { ensureWorker, humanAct, requestHint, reveal } from "./shell/moves.js";
import { changeTimers, takeBack } from "./shell/controls.js";
import { downloadDamaged, resumeSaved, showNotice } from "./shell/saves.js";
import { closeSummary } from "./shell/summary.js";
import { hideStart, newGame, showStart, submitStart } from "./shell/start.js";
import { dropLinkFromAddress, openLinkedGame, startDaily } from "./shell/linked.js";
import { registerServiceWorker } from "./shell/update-offer.js";

export { wireUpdates } from "./shell/update-offer.js";

// Languages (web/i18n/): the catalogs load before anything is drawn; the
// picker reloads the page in the chosen language (the game in progress is
// saved after every move and resumes).
await initI18n();
translateDom();
mountLanguagePicker(document.querySelector(".bar-actions .lang-slot"), { reload: true });

window.chkobbaApp = app; // for the e2e tests and for debugging

// ------------------------------------------------------------------ boot

function wire() {
  $("new-game").addEventListener("click", showStart);
  $("takeback-button").addEventListener("click", takeBack);
  $("timers-select").addEventListener("change", changeTimers);
  $("start-cancel").addEventListener("click", hideStart);
  $("start-form").addEventListener("submit", (e) => { e.preventDefault(); submitStart(); });
  $("summary-next").addEventListener("click", closeSummary);
  $("summary-stats").addEventListener("click", openStats);
  $("summary-settings").addEventListener("click", () => {
    closeDialog($("summary"));
    showStart();
  });
  $("confirm-yes").addEventListener("click", () => {
    const s = app.pendingSettings, opened = app.pendingOpened;
    app.pendingOpened = null;
    closeDialog($("confirm"));
    if (s && newGame(s) && opened) opened();
  });
  $("confirm-no").addEventListener("click", () => closeDialog($("confirm")));
  setupDialog($("start"), { onCancel: hideStart });
  // Escape on the summary goes on as its button does (next round or game); at
  // the end of the match it only closes the summary, over the final table.
  setupDialog($("summary"), {
    onCancel: () => ($("summary-next").dataset.next === "over"
      ? closeDialog($("summary"), () => app.table.refocus()) : closeSummary()),
  });
  setupDialog($("confirm"), { onCancel: () => closeDialog($("confirm")) });
  $("notice").querySelector(".notice-dismiss").addEventListener("click", () => {
    showNotice("");
    app.table.refocus();
  });
  $("notice").querySelector(".notice-download").addEventListener("click", downloadDamaged);
  const pace = $("pace");
  pace.value = app.pace;
  pace.addEventListener("change", () => {
    app.pace = pace.value;
    store.writePace(app.pace);
  });
  sound.mountSoundSwitch(document.querySelector(".share-bar"), $("share-button"));   // under the table (the top bar is full on phones)
  sound.listenForGestures();
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, select, textarea, dialog") || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
    if (document.querySelector("dialog[open]") || !app.state || app.handoff.open) return;
    if (e.key.toLowerCase() === "h") { if (app.state.coach) requestHint(); return; }
    app.table.key(e.key);
  });
}

function onPythonReady() {
  // Messages are rendered from their codes in the page's language (the
  // catalogs' msg.<code>), so the facade's English templates are not fetched.
  app.form = new StartForm($("start-form"), describeTables(py));
  app.table.set({ loading: t("app.ready") });
  $("start-button").disabled = false;
  daily.mountEntries($("start-form"), startDaily, py);
  daily.whenIdle(() => !app.busy);
  const link = daily.linkedDeal();   // ?daily=YYYY-MM-DD&game=...: that date's deal (checked by the facade)
  const dare = link ? null : challenge.linkedChallenge();   // ?challenge=x1...: a friend's match (checked by the facade)
  if (link || dare !== null) dropLinkFromAddress();   // a reload resumes the deal, it does not deal it again
  const resumed = resumeSaved();
  if (link) openLinkedGame({ daily: link }, (st) => st.save.daily === link.date && st.game === link.game, () => daily.keepFriend(link));
  else if (dare !== null) openLinkedGame({ challenge: dare }, (st) => st.save.challenge === dare);
  if (app.state) {
    // the saved game, or the linked one
  } else if (resumed === null) {
    const last = store.loadSettings();
    if (!last || !newGame(last, { split: false })) newGame({ game: DEFAULT_GAME, options: { players: 2 }, seats: null }, { split: false, remember: false });
  } else if (!resumed) {
    showStart();
  }
  root.classList.remove("booting");
  root.classList.add("ready");
  performance.mark("chkobba:ready");
  // The computer players start once the table is usable; then the offline
  // copy of the site is made (see sw.js), then, when this visit had no
  // snapshot, one is made in the background for the next (docs/boot.md).
  setTimeout(() => ensureWorker().finally(registerServiceWorker).finally(keepSnapshotForLater), 0);
}

app.table = mount($("table"), { state: null, onAction: humanAct, onHint: requestHint, quickCapture: true });
// What the boot is doing, in the page's language, until the table is ready.
function showBoot(s) {
  if (app.state || root.classList.contains("ready")) return;
  const percent = s.total ? Math.min(100, Math.floor((100 * s.loaded) / s.total)) : 0;
  const text = s.phase === "download" ? t("boot.download", { percent }) : t("boot.start");
  app.table.set({ loading: text });
  root.dataset.boot = s.phase;
}
if (!window.chkobbaPy) {
  showBoot(bootState);
  window.addEventListener("chkobba:boot-progress", (e) => showBoot(e.detail));
}
app.handoff = new Handoff({ onReveal: reveal, guarded: () => [$("table"), document.querySelector("header.bar"), document.querySelector(".share-bar")] });
app.timer = new PageTimer({ onTimeout: () => humanAct("timeout"), display: () => $("table").querySelector(".sd-timer"), onSecond: sound.onTimerSecond });
app.sound = sound;   // for the e2e tests
app.daily = daily;   // for the e2e tests
initShare({ getState: () => app.state, py });   // the Share dialog (web/shell/share.js)
initStats({ py, before: (save) => (save.challenge ? challenge.checkMatch(save, think) : null) });   // the Statistics button and dialog (web/shell/stats.js, issue 12)
wire();
window.addEventListener("py:error", () => root.classList.add("failed"));
performance.mark("chkobba:page");   // the page's own modules are in (bench/boot.py)
if (window.chkobbaPy) onPythonReady();
else window.addEventListener("chkobba:python-ready", onPythonReady, { once: true });
