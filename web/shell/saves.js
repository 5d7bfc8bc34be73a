// The table page's saves (web/shell/storage.js keeps them): each move's save
// written in a task of its own, and the saved game resumed at boot, or, when
// it is damaged, kept aside for download with a notice.

import { t } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { FacadeError, nextTask, py, timed } from "./py.js";
import * as store from "./storage.js";
import { $, app, roundsDone } from "./app-state.js";
import { commit } from "./moves.js";

// A move's save is a task of its own, right after the move is drawn (the
// save and the drawing in one task froze a slow phone: docs/main-thread.md).
// Saves are written in order, each once (the store keeps the one before as
// a fallback); leaving or hiding the page writes the waiting ones at once.
const unsaved = [];

export function saveSoon(s) {
  unsaved.push(s);
  if (unsaved.length === 1) nextTask().then(saveNow);
}

export function saveNow() {
  while (unsaved.length) {
    const s = unsaved.shift();
    timed("save", () => write(s));
  }
}

addEventListener("pagehide", saveNow);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "hidden") saveNow(); });
app.saveNow = saveNow;   // for the e2e tests: the saves not written yet, now

export function save() {
  saveNow();
  write(app.state.save);
}

function write(s) {
  try {
    store.writeSave(s);
  } catch (err) {
    app.table.showMessage({ error: t("app.error.save", { error: err.message }) });
  }
}

/** true: resumed; false: nothing saved; null: the save was damaged (kept aside). */
export function resumeSaved() {
  const raw = store.loadSaveText();
  if (raw === null) return false;
  const attempt = (text) => {
    try {
      return { st: py("resume", { save: JSON.parse(text) }) };
    } catch (err) {
      if (err instanceof SyntaxError) return { reason: t("app.save_unreadable") };
      if (err instanceof FacadeError) return { reason: messageText(err.msg) };
      throw err;
    }
  };
  let { st, reason } = attempt(raw);
  if (!st) {
    // Kept aside as before; then the save before it (a move earlier), if any.
    store.keepDamaged(raw, reason);
    app.damagedText = raw;
    const previous = store.loadPreviousSaveText();
    st = previous === null ? null : attempt(previous).st;
    if (!st) {
      store.clearSave();
      showNotice(t("app.save_damaged"), true);
      return null;
    }
    store.restorePrevious();
    showNotice(t("app.save_damaged_previous"), true);
  }
  app.generation++;
  const finishedChallenge = st.save.challenge && (st.sheet ? st.sheet.over : st.to_act === null);
  app.shownRounds = st.save.daily || finishedChallenge ? 0 : roundsDone(st);   // a finished daily deal or challenge shows its result again
  commit(st, null);
  return true;
}

export function showNotice(text, download = false) {
  const n = $("notice");
  n.querySelector(".notice-text").textContent = text;
  n.querySelector(".notice-download").hidden = !download;
  n.hidden = !text;
}

export function downloadDamaged() {
  if (!app.damagedText) return;
  const blob = new Blob([app.damagedText], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `chkobba-damaged-save-${new Date().toISOString().slice(0, 19).replace(/:/g, "-")}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
