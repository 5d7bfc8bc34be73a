// Player statistics (docs/stats.md): the shell records each
// finished match once, and the Statistics dialog shows one table per game,
// exports them to a file and imports a file (merged: every match counts once).
// Nothing is computed here: the facade (chkobba/web/statistics.py, chkobba/stats.py)
// checks the stored statistics, adds a match from its save, merges a file and
// answers the rows to show. This file only stores what it answers.
// The daily deal's results live in the same store (the file's "daily" key,
// docs/stats.md): web/shell/daily.js adds them through the facade, and the
// dialog shows their streaks and bests. An older page kept them apart
// (DAILY_OLD_KEY): they are moved in once, the old key removed only after
// the statistics holding them are stored.

import { openDialog, closeDialog, setupDialog } from "./dialogs.js";
import { FacadeError, timed } from "./py.js";
import { formatNumber, onLanguageChange, t } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { allGames, gameFacts } from "./games.js";

export const STATS_KEY = "chkobba.stats.v1";
export const STATS_DAMAGED_KEY = "chkobba.stats.damaged.v1";
export const DAILY_OLD_KEY = "chkobba.daily.results";
// Larger files are refused before they are read (the facade's own limit is
// 600,000 characters; a character is at least one byte).
const MAX_FILE_BYTES = 600_000;

const ctx = { py: null, before: () => null, dialog: null, button: null, damaged: null, lastError: null, texts: () => {} };

// ------------------------------------------------------------------ storage

function readStored() {
  try { return localStorage.getItem(STATS_KEY); } catch (e) { return null; }
}

function store(stats) {
  localStorage.setItem(STATS_KEY, JSON.stringify(stats));
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The daily results an older page kept apart, moved into the checked statistics (once). */
function moveOldDaily(answer) {
  let raw = null;
  try { raw = localStorage.getItem(DAILY_OLD_KEY); } catch (e) { return answer; }
  if (raw === null) return answer;
  let moved;
  try {
    moved = ctx.py("stats_daily_move", { stats: answer.stats, results: JSON.parse(raw), now: nowSeconds() });
    store(moved.stats);
  } catch (e) {
    return answer;   // unreadable, or not stored: the old key stays, nothing is lost
  }
  try { localStorage.removeItem(DAILY_OLD_KEY); } catch (e) { /* moved already: it adds nothing again */ }
  return moved;
}

/** The stored statistics, checked (null: none yet), for a facade call that adds to them. */
export function checkedStats() {
  return loadChecked().stats;
}

/** Store statistics a facade call answered (the daily deal's result). */
export function keepStats(stats) {
  try {
    store(stats);
  } catch (err) {
    ctx.lastError = t("stats.save_failed", { reason: err.message });
  }
  if (ctx.dialog && ctx.dialog.open) refresh();
}

/** Keep a damaged stored value aside (the newest one), clear it, and say so. */
function keepDamaged(raw, reason) {
  try {
    localStorage.setItem(STATS_DAMAGED_KEY, JSON.stringify({ at: new Date().toISOString(), text: raw, reason }));
  } catch (e) { /* storage full: the damaged text is still offered for download below */ }
  try { localStorage.removeItem(STATS_KEY); } catch (e) { /* nothing to do */ }
  ctx.damaged = raw;
  showNotice();
}

/**
 * The stored statistics checked by the facade: its answer {stats, rows}.
 * A value that cannot be read is kept aside and reported; counting starts again.
 */
function loadChecked() {
  const raw = readStored();
  let stats = null;
  if (raw !== null) {
    try {
      stats = JSON.parse(raw);
    } catch (e) {
      keepDamaged(raw, "not JSON");
      stats = null;
    }
  }
  let answer;
  try {
    answer = ctx.py("stats_view", { stats, now: nowSeconds() });
  } catch (err) {
    if (!(err instanceof FacadeError) || stats === null) throw err;
    keepDamaged(raw, err.message);
    answer = ctx.py("stats_view", { stats: null, now: nowSeconds() });
  }
  return moveOldDaily(answer);
}

// ------------------------------------------------------------------ recording

/**
 * Called by the shell with every state it commits: a finished match is
 * added once (the facade knows it by its record, so a reload at the end of
 * a match, which commits the same state again, changes nothing).
 */
export function recordMatch(state) {
  if (!ctx.py || !state || !state.save || !state.sheet || !state.sheet.over) return;
  // Just after the end of the match is drawn (replaying the match takes a
  // moment); if the page is closed first, the resumed finished game records it.
  setTimeout(async () => {
    const first = ctx.before(state.save);
    if (first) await first.catch(() => {});   // a refused check: stats_add refuses it again, in words
    timed("stats", () => record(state));
  }, 50);
}

function record(state) {
  try {
    const { stats } = loadChecked();
    const answer = ctx.py("stats_add", { stats, save: state.save, at: Date.now(), now: nowSeconds() });
    if (answer.added) store(answer.stats);
    if (ctx.dialog && ctx.dialog.open) draw(answer.rows, answer.daily);
  } catch (err) {
    // A statistics problem never stops the game: it is said in the dialog.
    ctx.lastError = err instanceof FacadeError ? messageText(err.msg) || err.message : String(err);
  }
}

// ------------------------------------------------------------------ the dialog

const COLUMNS = [
  ["matches", "stats.col.played"],
  ["wins", "stats.col.won"],
  ["rounds", "stats.col.rounds"],
  ["avg_points", "stats.col.avg"],
  ["chkobbas", "stats.col.chkobbas"],
  ["best_streak", "stats.col.best"],
  ["streak", "stats.col.streak"],
];

function el(tag, attrs = {}, text = null) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

function tableFor(game, rows, index) {
  const facts = gameFacts(game, ctx.py);
  const cols = COLUMNS.filter(([key]) => key !== "chkobbas" || (facts && facts.sweeps));   // chkobbas where the game counts them
  const captionId = `stats-caption-${index}`;
  const wrap = el("div", { class: "stats-scroll", role: "region", tabindex: "0", "aria-labelledby": captionId });
  const table = el("table", { class: "stats-table", "data-game": game });
  table.append(el("caption", { id: captionId }, messageText(rows[0].game_label)));
  const head = el("tr");
  head.append(el("th", { scope: "col" }, t("stats.col.table")));
  for (const [key, label] of cols) head.append(el("th", { scope: "col", "data-col": key }, t(label)));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const r of rows) {
    const tr = el("tr", { "data-level": r.level, "data-variant": JSON.stringify(r.variant) });
    const th = el("th", { scope: "row" });
    th.append(el("span", { class: "stats-variant" }, r.variant_labels.map(messageText).join(t("stats.list_separator"))));
    th.append(el("span", { class: "stats-level" }, messageText(r.level_label)));
    if (r.takeback_matches) {
      // games with take-backs, counted apart (they are in the row's numbers too)
      th.append(el("span", { class: "stats-takebacks", "data-played": String(r.takeback_matches),
        "data-won": String(r.takeback_wins) },
      t("stats.takebacks", { count: r.takeback_matches, played: formatNumber(r.takeback_matches),
        won: formatNumber(r.takeback_wins) })));
    }
    tr.append(th);
    for (const [key] of cols) {
      const v = r[key];
      tr.append(el("td", { "data-col": key, "data-value": v === null ? "" : String(v) },
        v === null ? "–" : formatNumber(v)));
    }
    tbody.append(tr);
  }
  table.append(thead, tbody);
  wrap.append(table);
  return wrap;
}

const DAILY_COLUMNS = [
  ["played", "stats.col.played"],
  ["streak", "stats.daily.col.streak"],
  ["best_streak", "stats.daily.col.best"],
  ["at_par", "stats.daily.col.at_par"],
  ["best_margin", "stats.daily.col.best_margin"],
];

/** The daily deal's results: per game played, days in a row, best, against par. */
function dailyTable(summary) {
  const games = allGames(ctx.py).filter((g) => g.daily).map((g) => g.game).filter((g) => summary[g] && summary[g].played);
  const wrap = el("div", { class: "stats-scroll stats-daily", role: "region", tabindex: "0",
    "aria-labelledby": "stats-daily-caption" });
  const table = el("table", { class: "stats-table", "data-daily": "1" });
  table.append(el("caption", { id: "stats-daily-caption" }, t("stats.daily.title")));
  const head = el("tr");
  head.append(el("th", { scope: "col" }, t("stats.col.table")));
  for (const [key, label] of DAILY_COLUMNS) head.append(el("th", { scope: "col", "data-col": key }, t(label)));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const g of games) {
    const tr = el("tr", { "data-game": g });
    tr.append(el("th", { scope: "row" }, t(`daily.start.${g}`)));
    for (const [key] of DAILY_COLUMNS) {
      const v = summary[g][key];
      const text = v === null ? "–" : key === "best_margin" && v > 0 ? `\u200e+${formatNumber(v)}` : formatNumber(v);
      tr.append(el("td", { "data-col": key, "data-value": v === null ? "" : String(v) }, text));
    }
    tbody.append(tr);
  }
  table.append(thead, tbody);
  wrap.append(table);
  return wrap;
}

function draw(rows, daily = null) {
  const body = ctx.dialog.querySelector(".stats-body");
  body.replaceChildren();
  const days = daily && daily.any && daily.any.played;
  if (!rows.length && !days) {
    body.append(el("p", { class: "stats-empty" }, t("stats.empty")));
    return;
  }
  const games = [];
  for (const r of rows) if (!games.includes(r.game)) games.push(r.game);
  games.forEach((g, i) => body.append(tableFor(g, rows.filter((r) => r.game === g), i)));
  if (days) body.append(dailyTable(daily));
}

function say(text, isError = false) {
  const err = ctx.dialog.querySelector(".stats-error");
  const ok = ctx.dialog.querySelector(".stats-status");
  err.textContent = isError ? text : "";
  err.hidden = !isError;
  ok.textContent = isError ? "" : text;
}

function refresh() {
  const { rows, daily } = loadChecked();
  draw(rows, daily);
}

export function openStats() {
  if (!window.chkobbaPy) return;
  say("");
  if (ctx.damaged !== null) say(t("stats.damaged"), true);
  if (ctx.lastError) { say(ctx.lastError, true); ctx.lastError = null; }
  confirmReset(false);
  try {
    refresh();
  } catch (err) {
    say(err instanceof FacadeError ? messageText(err.msg) || err.message : String(err), true);
  }
  openDialog(ctx.dialog, ctx.dialog.querySelector(".stats-close"));
}

function today() {
  const d = new Date();
  const p = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function download(text, name) {
  const blob = new Blob([text], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

function exportFile() {
  try {
    const { stats } = loadChecked();
    const { text } = ctx.py("stats_export", { stats });
    const name = `chkobba-stats-${today()}.json`;
    download(text, name);
    say(t("stats.exported", { name }));
  } catch (err) {
    say(err instanceof FacadeError ? messageText(err.msg) || err.message : String(err), true);
  }
}

function importError(err) {
  // One plain error; what was stored is left as it was.
  if (err instanceof FacadeError && err.code === "stats.file") return messageText(err.msg);
  return t("stats.import.bad");
}

async function importFile(file) {
  if (!file) return;
  if (file.size > MAX_FILE_BYTES) {
    say(messageText({ code: "stats.file", params: { reason: { code: "stats.file.size",
      params: { size: file.size, limit: MAX_FILE_BYTES } } } }), true);
    return;
  }
  let answer;
  try {
    const text = await file.text();
    const { stats } = loadChecked();
    answer = ctx.py("stats_import", { stats, text, now: nowSeconds() });
  } catch (err) {
    say(importError(err), true);
    return;
  }
  try {
    store(answer.stats);
  } catch (err) {
    say(t("stats.save_failed", { reason: err.message }), true);
    return;
  }
  draw(answer.rows, answer.daily);
  say(t("stats.imported", { count: answer.added })
    + (answer.added_days ? ` ${t("stats.imported_days", { count: answer.added_days })}` : ""));
}

function confirmReset(show) {
  const box = ctx.dialog.querySelector(".stats-confirm");
  box.hidden = !show;
  ctx.dialog.querySelector(".stats-actions").hidden = show;
  if (show) box.querySelector(".stats-reset-no").focus();
}

function reset() {
  try { localStorage.removeItem(STATS_KEY); } catch (e) { /* nothing stored */ }
  confirmReset(false);
  draw([]);
  say(t("stats.reset.done"));
  ctx.dialog.querySelector(".stats-reset").focus();
}

// ------------------------------------------------------------------ the notice

function showNotice() {
  const n = document.getElementById("stats-notice");
  if (!n || ctx.damaged === null) return;
  n.querySelector(".notice-text").textContent = t("stats.damaged");
  n.hidden = false;
}

function makeNotice() {
  const n = el("div", { id: "stats-notice", class: "notice", role: "status" });
  n.hidden = true;
  n.append(el("p", { class: "notice-text" }));
  const actions = el("div", { class: "notice-actions" });
  const dl = el("button", { type: "button", class: "btn small" }, t("stats.damaged.download"));
  const dismiss = el("button", { type: "button", class: "btn small ghost" }, t("stats.dismiss"));
  dl.addEventListener("click", () => {
    if (ctx.damaged !== null) download(ctx.damaged, `chkobba-stats-damaged-${today()}.json`);
  });
  dismiss.addEventListener("click", () => { n.hidden = true; });
  actions.append(dl, dismiss);
  n.append(actions);
  const after = document.getElementById("notice");
  if (after) after.after(n); else document.body.prepend(n);
  showNotice();
  return n;
}

function makeDialog() {
  const d = el("dialog", { id: "stats", class: "panel stats", "aria-labelledby": "stats-title" });
  d.innerHTML = `
    <div class="summary-box">
      <h2 id="stats-title"></h2>
      <p class="stats-intro"></p>
      <p class="stats-error notice" role="alert" hidden></p>
      <div class="stats-body"></div>
      <p class="stats-status" role="status" aria-live="polite"></p>
      <div class="stats-confirm" hidden>
        <p class="stats-confirm-text"></p>
        <div class="form-actions">
          <button type="button" class="btn ghost stats-reset-no"></button>
          <button type="button" class="btn primary danger stats-reset-yes"></button>
        </div>
      </div>
      <div class="form-actions stats-actions">
        <button type="button" class="btn ghost stats-reset"></button>
        <label class="btn stats-import"><span></span><input type="file" accept=".json,application/json" class="stats-file"></label>
        <button type="button" class="btn stats-export"></button>
        <button type="button" class="btn primary stats-close"></button>
      </div>
    </div>`;
  ctx.texts = () => {
    const text = (sel, key) => { d.querySelector(sel).textContent = t(key); };
    text("#stats-title", "stats.title");
    text(".stats-intro", "stats.intro");
    text(".stats-confirm-text", "stats.reset.question");
    text(".stats-reset-no", "stats.reset.no");
    text(".stats-reset-yes", "stats.reset.yes");
    text(".stats-reset", "stats.reset");
    text(".stats-import span", "stats.import");
    text(".stats-export", "stats.export");
    text(".stats-close", "stats.close");
    d.querySelector(".stats-file").setAttribute("aria-label", t("stats.import.label"));
  };
  ctx.texts();
  document.body.append(d);
  const close = () => closeDialog(d);
  setupDialog(d, { onCancel: close });
  d.querySelector(".stats-close").addEventListener("click", close);
  d.querySelector(".stats-export").addEventListener("click", exportFile);
  const input = d.querySelector(".stats-file");
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    await importFile(file);
    input.value = "";
  });
  d.querySelector(".stats-reset").addEventListener("click", () => confirmReset(true));
  d.querySelector(".stats-reset-no").addEventListener("click", () => {
    confirmReset(false);
    d.querySelector(".stats-reset").focus();
  });
  d.querySelector(".stats-reset-yes").addEventListener("click", reset);
  return d;
}

const ICON = `<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
  <path fill="currentColor" d="M4 20h16v-2H4zm1-4h3V9H5zm5.5 0h3V4h-3zm5.5 0h3v-5h-3z"/></svg>`;

/**
 * Add the Statistics buttons (below the table, and on the start screen) and dialog.
 * `py` is the facade call; the button is usable once Python is ready.
 */
export async function initStats({ py, before = () => null }) {
  ctx.py = py;          // called only once Python is ready (recordMatch, the button)
  ctx.before = before;  // a promise a save's check is waited for first (a challenge's, thought in slices), or null
  // (the page loaded the catalogs before calling this: web/app.js)
  // Below the table, beside "Share this game" (the top bar is full on a 360 px phone).
  const button = el("button", { type: "button", id: "stats-button", class: "btn small ghost icon-btn" });
  button.innerHTML = ICON;
  button.append(el("span", {}, t("stats.button")));
  button.title = t("stats.button");   // (on a phone the dock shows the icon only: css/layout.css)
  button.disabled = true;
  let bar = document.querySelector(".share-bar");
  if (!bar) {
    bar = el("p", { class: "share-bar" });
    document.getElementById("table").after(bar);
  }
  bar.prepend(button);
  ctx.button = button;
  // The start screen (shown first on a new phone) offers them too, to import a file.
  const startActions = document.querySelector("#start-form .form-actions");
  const fromStart = el("button", { type: "button", id: "stats-from-start", class: "btn ghost" }, t("stats.button"));
  fromStart.disabled = true;
  if (startActions) startActions.prepend(fromStart);
  makeNotice();
  ctx.dialog = makeDialog();
  button.addEventListener("click", openStats);
  fromStart.addEventListener("click", openStats);
  // Another language picked: the buttons and the dialog say it in that one.
  onLanguageChange(() => {
    button.querySelector("span").textContent = t("stats.button");
    button.title = t("stats.button");
    fromStart.textContent = t("stats.button");
    ctx.texts();
    if (ctx.dialog.open) refresh();
  });
  const ready = () => {
    button.disabled = false;
    fromStart.disabled = false;
    document.documentElement.classList.add("stats-ready");
    // A damaged stored value is found (and reported) at start, not only at a match's end.
    try { loadChecked(); } catch (e) { /* said when the dialog opens */ }
  };
  if (window.chkobbaPy) ready();
  else window.addEventListener("chkobba:python-ready", ready, { once: true });
}
