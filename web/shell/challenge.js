// Challenge a friend (docs/links.md, "Challenge and result links"): at the end
// of a match against the computer, a link (?challenge=x3....) with the same
// decks, options and computers, the player's result and moves (the facade
// replays them: the result is shown "checked"); the friend's table plays that
// match and its summary shows both results side by side. Also the side-by-side table of a daily deal opened from a friend's
// link (web/shell/daily.js). No rule here: the facade (chkobba/web/challenge.py)
// deals, decides, scores and compares.

import { t } from "../i18n/i18n.js";
import { messageText } from "../table/messages.js";
import { closeDialog, openDialog } from "./dialogs.js";
import { FacadeError } from "./py.js";

/** The challenge a link asks for (its x3. text; x1. and x2. are read too), unchecked (the facade checks it), or null. */
export function linkedChallenge(search = location.search) {
  const q = new URLSearchParams(search);
  return q.has("challenge") ? q.get("challenge") : null;
}

/** The page's address that opens a challenge. */
export function challengeUrl(link) {
  const u = new URL(location.href);
  u.search = "";
  u.hash = "";
  u.searchParams.set("challenge", link);
  return u.href;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const pair = (p) => `${p[0]}–${p[1]}`;

/** One result in words: won or lost, and the last game's score. */
export function resultText(res) {
  return t("challenge.result_line", { outcome: t(res.won ? "challenge.won" : "challenge.lost"), score: pair(res.score) });
}

/** A challenge's first screen, before the cut: who challenges you (a friend:
 * the link carries no name), the game and its rules, the computers' levels,
 * the score to beat and how many moves the sender took back; Play closes it
 * and `play()` lets the table go on. `st` is challenge_start's answer. */
export function showIntro(st, play) {
  const sender = st.sender;
  const opts = st.view.options;
  const levels = [...new Set(st.seats.filter((s) => s.kind === "computer").map((s) => t(`level.${s.level}`)))];
  const dialog = el("dialog", "panel challenge-intro");
  dialog.id = "challenge-intro";
  dialog.setAttribute("aria-labelledby", "challenge-intro-title");
  const title = el("h2", "challenge-intro-title", t("challenge.intro.title"));
  title.id = "challenge-intro-title";
  const rules = t("challenge.intro.rules", { game: t(`start.game.${st.game}`), match: t(`start.value.match.${opts.match || 1}`),
    target: t("score.to", { target: opts.target }) });
  const taken = sender.takebacks === null || sender.takebacks === undefined
    ? t("challenge.intro.takebacks_unknown") : t("challenge.intro.takebacks", { count: sender.takebacks });
  const btn = el("button", "btn", t("challenge.intro.play"));
  btn.type = "button";
  btn.id = "challenge-intro-play";
  const box = el("div", "summary-box challenge-intro-box");
  box.append(title,
    el("p", "challenge-intro-game", rules),
    el("p", "challenge-intro-against", t("challenge.intro.against", { levels: levels.join(", ") })),
    el("p", "challenge-intro-beat", t("challenge.intro.beat", { result: resultText(sender.result) })),
    el("p", "challenge-intro-takebacks", taken),
    checkedLine(sender.checked));
  const actions = el("p", "form-actions");
  actions.append(btn);
  box.append(actions);
  dialog.append(box);
  document.body.append(dialog);
  btn.addEventListener("click", () => {
    closeDialog(dialog);
    dialog.remove();
    play();
  });
  dialog.addEventListener("cancel", (e) => e.preventDefault());   // Play is the way on
  openDialog(dialog, btn);
}

/** A table of results side by side: columns (their headings), rows [heading, cells]. */
export function sideBySide(cls, columns, rows) {
  const table = el("table", `side-by-side ${cls}`);
  const head = el("tr");
  head.append(el("td"));
  for (const c of columns) head.append(el("th", "", c));
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const [name, cells] of rows) {
    const tr = el("tr");
    const th = el("th", "", name);
    th.scope = "row";
    tr.append(th);
    for (const c of cells) tr.append(el("td", "", String(c)));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  return table;
}

/** `btn` shares `text` and `url` (the system's share sheet, else a copy; the daily result's button too). */
export function copyOrShare(btn, text, url) {
  btn.addEventListener("click", async () => {
    if (typeof navigator.share === "function") {
      navigator.share({ text, url }).catch(() => {});
      return;
    }
    try {
      await navigator.clipboard.writeText(`${text}\n${url}`);
      btn.textContent = t("daily.copied");
    } catch {
      btn.textContent = t("daily.copy_failed");
    }
  });
}

/** The end of a match against the computer: "Challenge a friend". */
function offer(body, st, py) {
  const box = el("section", "challenge-offer");
  const btn = el("button", "btn small", t("challenge.button"));
  btn.type = "button";
  btn.id = "challenge-button";
  box.append(el("p", "challenge-about", t("challenge.about")), btn);
  btn.addEventListener("click", () => {
    let made;
    try {
      made = py("challenge_link", { save: st.save });
    } catch (err) {
      box.append(el("p", "form-error", err && err.msg ? messageText(err.msg) : String(err)));
      return;
    }
    const url = challengeUrl(made.link);
    const text = t("challenge.share_text", { result: resultText(made.result) });
    const share = el("button", "btn small", t("daily.share"));
    share.type = "button";
    share.id = "challenge-share";
    copyOrShare(share, text, url);
    const a = el("a", "", t("challenge.link"));
    a.id = "challenge-link";
    a.href = url;
    const actions = el("p", "challenge-actions");
    actions.append(share, " ", a);
    box.replaceChildren(el("p", "challenge-share-text", text), actions);
    box.dataset.ready = "1";
    share.focus();
  });
  body.append(box);
}

let checking = null;   // [record, promise]: the last challenge's check, thought once

/**
 * A finished challenge, checked by the facade: its match replayed from the
 * link's seed, every computer move thought again in slices (web/ai.py's
 * `challenge_check_step`, so a reload at the end never freezes the page),
 * then `challenge_result`'s answer. Thought once per match: the statistics
 * (`stats_add`) wait for it and then find the check done.
 */
export function checkMatch(save, think) {
  const key = JSON.stringify(save.record);
  if (!checking || checking[0] !== key) checking = [key, think("challenge_result", { save })];
  return checking[1];
}

/** The end of a challenge: both results side by side, who did better, and a rematch. */
async function compare(body, st, think, rematch) {
  const box = el("section", "challenge-result");
  box.setAttribute("aria-live", "polite");
  box.append(el("p", "challenge-wait", t("challenge.checking")));
  body.prepend(box);   // first: the match's own summary follows
  let out;
  try {
    out = await checkMatch(st.save, think);
  } catch (err) {
    if (!(err instanceof FacadeError)) throw err;
    box.replaceChildren(el("p", "challenge-refused", messageText(err.msg) || err.message));   // counts nowhere
    box.dataset.ready = "1";
    return null;
  }
  const { yours, theirs } = out;
  const rows = [
    [t("challenge.row.result"), [t(yours.won ? "challenge.won" : "challenge.lost"), t(theirs.won ? "challenge.won" : "challenge.lost")]],
    [t("challenge.row.score"), [pair(yours.score), pair(theirs.score)]],
  ];
  if (yours.games[0] + yours.games[1] > 1 || theirs.games[0] + theirs.games[1] > 1) {
    rows.push([t("challenge.row.games"), [pair(yours.games), pair(theirs.games)]]);
  }
  rows.push([t("challenge.row.rounds"), [yours.rounds, theirs.rounds]]);
  if ("chkobbas" in yours) rows.push([t("challenge.row.chkobbas"), [yours.chkobbas, theirs.chkobbas]]);
  // like with like: you could not take back; what the sender took back is said (unknown for an old link)
  rows.push([t("challenge.row.takebacks"), [0, out.sender_takebacks === null ? "?" : out.sender_takebacks]]);
  const verdict = out.verdict > 0 ? "challenge.verdict.ahead" : out.verdict < 0 ? "challenge.verdict.behind" : "challenge.verdict.level";
  // a rematch: new cards, the same rules and computers; its end offers to challenge them back
  const again = el("button", "btn small", t("challenge.rematch"));
  again.type = "button";
  again.id = "challenge-rematch";
  again.addEventListener("click", rematch);
  const actions = el("p", "challenge-actions");
  actions.append(again);
  box.replaceChildren(el("p", "challenge-title", t("challenge.title")),
    sideBySide("challenge-table", [t("challenge.you"), t("challenge.friend")], rows),
    checkedLine(out.sender_checked),
    el("p", "challenge-verdict", t(verdict)),
    el("p", "challenge-rematch-about", t("challenge.rematch_about")),
    actions);
  box.dataset.ready = "1";
  return out;
}

/** At a summary: the comparison at a challenge's end (a promise); the offer at
 * the end of a match against the computer (the only tables where take-backs
 * are allowed). `rematch` starts a new match with the same rules and computers. */
export function onSummary(body, st, next, { py, think, rematch }) {
  if (next !== "over") return null;
  if (st.save.challenge) return compare(body, st, think, rematch);
  if (st.takeback && st.takeback.allowed) offer(body, st, py);
  return null;
}

/** A daily deal opened from a friend's link: you, your friend and par side by side. */
/** Whether the friend's result was checked: the link carried their moves and
 * the facade replayed them (an older link, without them, is shown not checked). */
function checkedLine(checked) {
  const p = el("p", "result-checked", t(checked ? "challenge.checked" : "challenge.not_checked"));
  p.dataset.checked = checked ? "1" : "0";
  return p;
}

export function dailySideBySide(res, friend, checked = false) {
  const you = res.you;
  const par = res.par;
  const rows = [[t("challenge.row.points"), [you.points, friend.points, par.points]]];
  if ("chkobbas" in you) {
    rows.push([t("challenge.row.categories"), [you.categories.length, friend.categories.length, par.categories.length]]);
    rows.push([t("challenge.row.chkobbas"), [you.chkobbas, friend.chkobbas, par.chkobbas]]);
  } else {
    const out = (r) => t(r.won ? "challenge.yes" : "challenge.no");
    rows.push([t("challenge.row.out_first"), [out(you), out(friend), out(par)]]);
  }
  const box = el("div", "daily-friend");
  box.append(el("p", "daily-friend-title", t("daily.friend_title")),
    sideBySide("daily-friend-table", [t("challenge.you"), t("challenge.friend"), t("challenge.par")], rows),
    checkedLine(checked));
  return box;
}
