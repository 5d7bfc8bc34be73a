// Page-owned timers (Seven Diamonds): a countdown for the human seat to act,
// as long as the table's `seven.timer` says; when it runs out the engine's
// `timeout` action is played for the seat (the engine decides what that
// does). The countdown stops while the tab is hidden, while a dialog or the
// hand-off screen is up and while a computer moves; it survives a reload
// (the time left is kept per position in localStorage).

import { t } from "../i18n/i18n.js";

const KEY = "chkobba.timer.v1";
const TICK_MS = 200;

function positionKey(st) {
  const v = st.view;
  return `${st.save.seed}/${v.round_index}/${(v.history || []).length}/${st.to_act}`;
}

/** The time left kept for this position, for a countdown of `total` ms: the
 * time already spent still counts when the seconds changed since. */
function loadLeft(key, total) {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) || "null");
    if (!raw || raw.key !== key || !Number.isFinite(raw.left)) return null;
    const was = Number.isFinite(raw.total) ? raw.total : total;
    return was === total ? Math.min(raw.left, total) : Math.max(1000, total - (was - raw.left));
  } catch {
    return null;
  }
}

function storeLeft(key, left, total) {
  try { localStorage.setItem(KEY, JSON.stringify({ key, left: Math.max(0, Math.round(left)), total })); } catch { /* storage off */ }
}

export class PageTimer {
  /** onTimeout(): play the timeout; display(): the element that shows the countdown, or null. */
  constructor({ onTimeout, display, onSecond = null }) {
    this.onTimeout = onTimeout;
    this.onSecond = onSecond;   // (seconds left) once per second shown: the sounds of the last seconds
    this.display = display;
    this.key = null;
    this.left = 0;
    this.total = 0;
    this.last = 0;
    this.handle = null;
    this.fired = null;
    document.addEventListener("visibilitychange", () => { this.last = performance.now(); this.show(); });
  }

  /** Start, keep or stop the countdown for the state shown; `running` says nothing else holds the table. */
  sync(st, running) {
    const t = st && st.seven && st.seven.timer;
    const off = st && st.timers && st.timers.value === false;   // turned off during the match
    const on = !!(t && !off && st.seven.timeout && running && st.to_act !== null && st.to_act === st.human &&
      st.to_act_kind === "human" && st.handoff === null);
    if (!on) { this.stop(); return; }
    const key = positionKey(st);
    if (key !== this.key) {
      this.key = key;
      this.total = t.seconds * 1000;
      const kept = loadLeft(key, this.total);
      this.left = kept === null ? this.total : kept;
    } else if (t.seconds * 1000 !== this.total) {
      // the seconds changed during the turn: the time already spent still counts
      const spent = this.total - this.left;
      this.total = t.seconds * 1000;
      this.left = Math.max(1000, this.total - spent);
    }
    this.last = performance.now();
    if (!this.handle) this.handle = setInterval(() => this.tick(), TICK_MS);
    this.show();
  }

  tick() {
    const now = performance.now();
    const dt = now - this.last;
    this.last = now;
    // paused while the tab is hidden or a dialog (start, summary) is open
    if (document.hidden || document.querySelector("dialog[open]")) return;
    this.left -= dt;
    storeLeft(this.key, this.left, this.total);
    this.show();
    if (this.left <= 0 && this.fired !== this.key) {
      this.fired = this.key;
      this.stop();
      this.onTimeout();
    }
  }

  stop() {
    if (this.handle) clearInterval(this.handle);
    this.handle = null;
    const el = this.display();
    if (el) { el.hidden = true; el.textContent = ""; }
  }

  show() {
    const el = this.display();
    if (!el || !this.handle) return;
    const s = Math.max(0, Math.ceil(this.left / 1000));
    el.hidden = false;
    el.textContent = t(document.hidden ? "timer.left_paused" : "timer.left", { count: s });
    el.dataset.left = String(s);
    if (this.onSecond && !document.hidden && this.shown !== `${this.key}/${s}`) { this.shown = `${this.key}/${s}`; this.onSecond(s); }
    el.classList.toggle("low", s <= 3);
    el.setAttribute("aria-label", t("timer.label", { count: s }));
  }
}
