// The daily deal in the page (docs/daily.md): the start screen's entries, the
// link that opens a date's deal (?daily=YYYY-MM-DD&game=...), par kept per
// date and game, and the result against par at the round's end, with the
// share text in the page's language and the daily results (streak, best).
// No rule here: the facade (chkobba/web/daily.py) deals, decides and scores.

import { t } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { dailySideBySide } from "./challenge.js";

export const DAILY_GAMES = ["chkobba", "seven_diamonds"];
const ENTRY_KEYS = { chkobba: "daily.start.chkobba", seven_diamonds: "daily.start.seven_diamonds" };
const RESULTS_KEY = "chkobba.daily.results";
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
  const deal = { date: q.get("daily"), game: q.has("game") ? q.get("game") : "chkobba" };
  if (q.has("vs")) deal.vs = q.get("vs");   // the friend's result (an r1. text)
  return deal;
}

/** A deal opened from a link (checked by the facade): its friend's result is kept for the end. */
export function keepFriend(deal) {
  if (deal && deal.vs) writeJson(friendKey(deal.date, deal.game), deal.vs);
}

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

/** The start screen's entries: one button per daily game. */
export function mountEntries(form, onPick) {
  const box = document.createElement("fieldset");
  box.className = "daily-entries";
  const legend = document.createElement("legend");
  legend.textContent = t("daily.entry_title");
  box.append(legend);
  for (const game of DAILY_GAMES) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn ghost";
    b.id = `daily-${game}`;
    b.textContent = t(ENTRY_KEYS[game]);
    b.addEventListener("click", () => onPick(game));
    box.append(b);
  }
  form.querySelector(".games").before(box);
}

/** Par of a deal, computed once in the worker and kept with its date. */
export async function keepPar(askWorker, date, game) {
  const kept = readJson(parKey(date, game));
  if (kept && kept.date === date && kept.game === game) return kept;
  const par = await askWorker("daily_par", { date, game });
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
  const args = { save: st.save, results: readJson(RESULTS_KEY), at: nowSeconds() };
  const vs = readJson(friendKey(date, game));
  let out;
  try {
    out = await askWorker("daily_result", vs ? { ...args, vs } : args);
  } catch (err) {
    if (!vs) throw err;
    out = await askWorker("daily_result", args);   // a kept friend's result that no longer reads: yours alone
  }
  writeJson(RESULTS_KEY, out.results);
  const res = out.result;
  const share = messageText(out.share);
  const url = dealUrl(date, game, out.vs);
  const mine = out.summary[game];
  box.replaceChildren(
    line("daily-title", t("daily.result_title", { date })),
    line("daily-vs-par", t("daily.vs_par", { points: res.points, par: res.par_points, margin: messageText(out.share.params.margin) })),
    line("daily-streak", t("daily.streak", { streak: mine.streak, best: mine.best_streak, best_points: mine.best_points })),
    line("daily-share-text", share));
  if (out.friend) box.append(dailySideBySide(res, out.friend));   // a friend's link: both results and par
  const actions = document.createElement("p");
  actions.className = "daily-actions";
  const btn = document.createElement("button");
  btn.type = "button";
  btn.className = "btn small";
  btn.id = "daily-share";
  btn.textContent = t("daily.share");
  btn.addEventListener("click", async () => {
    if (typeof navigator.share === "function") {
      navigator.share({ text: share, url }).catch(() => {});
      return;
    }
    try {
      await navigator.clipboard.writeText(`${share}\n${url}`);
      btn.textContent = t("daily.copied");
    } catch {
      btn.textContent = t("daily.copy_failed");
    }
  });
  const a = document.createElement("a");
  a.id = "daily-link";
  a.href = url;
  a.textContent = t("daily.link");
  actions.append(btn, " ", a);
  box.append(actions);
  box.dataset.ready = "1";
  return out;
}
