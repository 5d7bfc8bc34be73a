// The daily deal in the page (docs/daily.md): the start screen's entries, the
// link that opens a date's deal (?daily=YYYY-MM-DD&game=...), par kept per
// date and game, and the result against par at the round's end, with the
// share text in the page's language and the daily results (streak, best),
// kept in the statistics (web/shell/stats.js: export and import carry them).
// Par is thought in slices in the page's interpreter (web/ai.py, ParTask)
// from the moment a daily table is ready, while the computers are idle, so
// the summary never waits on a long task; yesterday's deal is replayed with
// every hand shown once the day is over (the facade checks the date).
// No rule here: the facade (chkobba/web/daily.py) deals, decides and scores.

import { t } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { copyOrShare, dailySideBySide } from "./challenge.js";
import { FacadeError, SLICE_MS, nextTask, startPlayers, timed } from "./py.js";
import { checkedStats, keepStats } from "./stats.js";
import { allGames } from "./games.js";
import { DEFAULT_GAME } from "../table/core.js";

/** The games with a daily deal, in `describe`'s order (each says so: `daily`). */
export const dailyGames = (py) => allGames(py || undefined).filter((g) => g.daily).map((g) => g.game);
const parKey = (date, game) => `chkobba.daily.par.${game}.${date}`;
const friendKey = (date, game) => `chkobba.daily.vs.${game}.${date}`;   // a friend's result from their link

function readJson(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch { /* storage full or off: the result still shows */ }
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The deal a link asks for ({date, game}), unchecked (the facade checks it), or null. */
export function linkedDeal(search = location.search) {
  const q = new URLSearchParams(search);
  if (!q.has("daily")) return null;
  const deal = { date: q.get("daily"), game: q.has("game") ? q.get("game") : DEFAULT_GAME };
  if (q.has("vs")) deal.vs = q.get("vs");   // the friend's result (an r2. text with their moves; r1. without)
  return deal;
}

/** A deal opened from a link (checked by the facade): its friend's result is kept for the end. */
export function keepFriend(deal) {
  if (deal && deal.vs) writeJson(friendKey(deal.date, deal.game), deal.vs);
}

/** daily_start's arguments: the deal and the stored statistics, so the
 * engine says whether the day's result is in (then the round is practice). */
export function startArgs(deal) { return { ...deal, stats: checkedStats() }; }

/** The link that opens the same deal for a friend, with your result (`vs`) when given. */
export function dealUrl(date, game, vs) {
  const u = new URL(location.href);
  u.search = "";
  u.hash = "";
  u.searchParams.set("daily", date);
  u.searchParams.set("game", game);
  if (vs) u.searchParams.set("vs", vs);
  return u.href;
}

// ------------------------------------------------------------------ par in slices

let idle = () => true;   // whether the computers are idle (web/app.js says)
const parTasks = new Map();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A par call (`daily_par`, `daily_replay`) thought in slices of SLICE_MS in
 * the page's interpreter (web/ai.py ParTask), each slice only while the
 * computers are idle; answers like py(), asynchronously.
 */
async function thinkPar(name, args) {
  const ai = await startPlayers();
  const task = timed("par", () => ai.start(name, JSON.stringify(args)));
  try {
    let out = task.answer;
    while (out == null) {
      await nextTask();
      while (!idle()) await sleep(30);
      out = timed("par", () => task.step(SLICE_MS));
    }
    const answer = JSON.parse(out);
    if ("error" in answer) throw new FacadeError(answer);
    return answer.ok;
  } finally {
    task.destroy();
  }
}

const parLocks = new Map();

/**
 * Par of a deal (`daily_par`) or a past day's replay (`daily_replay`),
 * thought once per call, date and game; the tasks of one date and game run
 * one after the other, never together: two tasks stepping the same par run
 * would hand each other's searches over (web/ai.py).
 */
function parOf(name, date, game, extra = {}) {
  const key = `${name}/${game}/${date}`;
  if (!parTasks.has(key)) {
    const lock = `${game}/${date}`;
    const before = parLocks.get(lock) || Promise.resolve();
    const p = before.then(() => thinkPar(name, { date, game, ...extra }));
    p.catch(() => parTasks.delete(key));
    parLocks.set(lock, p.catch(() => {}));
    parTasks.set(key, p);
  }
  return parTasks.get(key);
}

/**
 * The re-derivation of a finished daily round (the facade replays the save
 * from the day's seed, every computer move thought again by the daily
 * computer): `daily_par` with the save, thought in slices like par, after
 * par and under the same lock. A save that differs is refused in words
 * (one `web.check.*` error, a FacadeError). Given a friend's result (`vs`),
 * its moves are re-derived in the same slices (daily_result says if they
 * were not the day's computers').
 */
function checkOf(date, game, save, vs = null) {
  const lock = `${game}/${date}`;
  const before = parLocks.get(lock) || Promise.resolve();
  const p = before.then(() => thinkPar("daily_par", vs ? { date, game, save, vs } : { date, game, save }));
  parLocks.set(lock, p.catch(() => {}));
  return p;
}

/** Set what tells the computers are idle (par thinks only then). */
export function whenIdle(fn) { idle = fn; }

/** Start par of a daily table's deal early (web/shell/moves.js, on every change of the table). */
export function startPar(save) {
  if (!save || !save.daily) return;
  keepPar(null, save.daily, save.game).catch(() => { /* said when the result asks for it */ });
}

/** The start screen's entries: one button per daily game, and yesterday's deals. */
export function mountEntries(form, onPick, py = null) {
  const box = document.createElement("fieldset");
  box.className = "daily-entries";
  const legend = document.createElement("legend");
  legend.textContent = t("daily.entry_title");
  box.append(legend);
  const games = dailyGames(py);
  for (const game of games) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small ghost";
    b.id = `daily-${game}`;
    // the game's name on the button (the box's title says "daily deal"), its full name for screen readers
    b.textContent = t(`start.game.${game}`);
    b.setAttribute("aria-label", t(`daily.start.${game}`));
    b.addEventListener("click", () => onPick(game));
    box.append(b);
  }
  if (py) {
    // folded under one line (the start screen is long on a phone)
    const past = document.createElement("details");
    past.className = "daily-yesterday";
    const title = document.createElement("summary");
    title.textContent = t("daily.yesterday_title");
    past.append(title);
    for (const game of games) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn small ghost";
      b.id = `daily-yesterday-${game}`;
      b.textContent = t(`daily.yesterday.${game}`);
      b.addEventListener("click", () => replayDay(py, game).catch(() => {}));
      past.append(b, " ");
    }
    const status = document.createElement("span");
    status.className = "daily-yesterday-status";
    status.setAttribute("role", "status");
    past.append(status);
    box.append(past);
  }
  form.querySelector(".games").before(box);
}

/**
 * The replay of a past day's deal (default: yesterday, from the facade's
 * daily_today) with every hand shown: par's round, the daily computers in
 * every seat, as a link to the replay viewer (embed.html). Refused by the
 * facade, in words, for today's deal or a later one.
 */
export async function replayDay(py, game, date = null) {
  const status = document.querySelector(".daily-yesterday-status");
  const say = (...nodes) => { if (status) status.replaceChildren(...nodes); };
  const at = nowSeconds();
  try {
    const day = date ?? py("daily_today", { at }).yesterday;
    say(t("daily.yesterday_wait"));
    const out = await parOf("daily_replay", day, game, { at });
    const a = document.createElement("a");
    a.id = "daily-yesterday-link";
    a.href = new URL(`embed.html#${out.link}`, location.href).href;
    a.target = "_blank";
    a.rel = "noopener";
    a.textContent = t("daily.yesterday_open", { date: out.date });
    say(a);
    return out;
  } catch (err) {
    const text = err instanceof FacadeError ? messageText(err.msg) || err.message : String(err);
    say(text);
    if (status) status.dataset.error = "1";
    throw err;
  }
}

/** Par of a deal, thought once in slices and kept with its date. */
export async function keepPar(askWorker, date, game) {
  const par = await parOf("daily_par", date, game);
  writeJson(parKey(date, game), par);
  return par;
}

function line(cls, text) {
  const p = document.createElement("p");
  p.className = cls;
  p.textContent = text;
  return p;
}

/** At the daily round's end: the result against par, streak and best, the
 * share text and the link, appended to the summary's body. */
export async function showResult(body, st, askWorker) {
  const { daily: date, game } = st.save;
  const box = document.createElement("section");
  box.className = "daily-result";
  box.setAttribute("aria-live", "polite");
  box.append(line("daily-wait", t("daily.par_wait")));
  body.prepend(box);   // first: the summary's table follows
  await keepPar(askWorker, date, game);
  let vs = readJson(friendKey(date, game));
  try {
    // the round re-derived, and a friend's moves, in slices: daily_result then finds both done
    await checkOf(date, game, st.save, vs).catch((err) => {
      if (!vs || !(err instanceof FacadeError) || !String(err.code).startsWith("link.")) throw err;
      vs = null;   // a kept friend's result that no longer reads: yours alone
      return checkOf(date, game, st.save);
    });
  } catch (err) {
    if (!(err instanceof FacadeError)) throw err;
    box.replaceChildren(line("daily-refused", messageText(err.msg) || err.message));   // counts nowhere, no link
    box.dataset.ready = "1";
    return null;
  }
  // the daily results live in the statistics (their "daily" key)
  const args = { save: st.save, stats: checkedStats(), at: nowSeconds() };
  let out;
  try {
    out = await askWorker("daily_result", vs ? { ...args, vs } : args);
  } catch (err) {
    if (!vs) throw err;
    out = await askWorker("daily_result", args);   // a kept friend's result that no longer reads: yours alone
  }
  keepStats(out.stats);
  const res = out.result;
  const share = messageText(out.share);
  const url = dealUrl(date, game, out.vs);
  const mine = out.summary[game];
  box.replaceChildren(
    line("daily-title", t("daily.result_title", { date })),
    line("daily-vs-par", t("daily.vs_par", { points: res.points, par: res.par_points, margin: messageText(out.share.params.margin) })),
    line("daily-streak", t("daily.streak", { streak: mine.streak, best: mine.best_streak, best_points: mine.best_points })),
    line("daily-share-text", share));
  if (out.practice) box.append(line("daily-practice", t("daily.practice_end")));   // the day's result was in: this counts nowhere
  if (out.friend) box.append(dailySideBySide(res, out.friend, out.friend_checked));   // a friend's link: both results and par
  // a friend's link whose moves are not the day's computers': said, never shown as theirs
  if (out.friend_refused) box.append(line("daily-friend-refused", t("daily.friend_refused", { reason: messageText(out.friend_refused) })));
  const actions = document.createElement("p");
  actions.className = "daily-actions";
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "btn small";
  btn.id = "daily-share";
  btn.textContent = t("daily.share");
  copyOrShare(btn, share, url);
  const a = document.createElement("a");
  a.id = "daily-link";
  a.href = url;
  a.textContent = t("daily.link");
  actions.append(btn, " ", a);
  box.append(actions);
  box.dataset.ready = "1";
  return out;
}
