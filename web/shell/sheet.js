// The end-of-round dialog: the round's breakdown, the score sheet of every
// round with running totals, and the result in the facade's own words
// (game vs match is decided in Python). Nothing here adds up a score.

import { escapeHtml, minis } from "../table/cards.js";
import { messageHtml } from "../table/messages.js";
import { sevenBreakdown } from "./sheet_seven.js";
import { formatNumber, language, t, tHtml } from "../i18n/i18n.js";

const T = (key, params) => escapeHtml(t(key, params));

// Each scoring row: its name, the round result's key, and the counts behind it.
const ROWS = [
  ["sheet.row.karta", "karta", (d, s) => d.cards && T("sheet.count.cards", { count: d.cards[s] })],
  ["sheet.row.dinari", "dinari", (d, s) => d.diamonds && T("sheet.count.diamonds", { count: d.diamonds[s] })],
  ["sheet.row.barmila", "barmila", (d, s) => d.sevens && `${T("sheet.count.sevens", { count: d.sevens[s] })}${T("cards.separator")}${T("sheet.count.sixes", { count: d.sixes[s] })}`],
  ["sheet.row.haya", "haya", (d, s, res) => (res.haya[s] ? T("sheet.has_7d") : "\u2014")],
  ["sheet.row.chkobba", "chkobba", (d, s, res) => T("sheet.count.sweeps", { count: res.chkobba[s] })],
];

// The points a tie gives to nobody (RULES.md: a tie, *baji*): most cards,
// most diamonds, most sevens then sixes. Nobody scoring one of them means
// the sides were level.
const TIES = new Set(["karta", "dinari", "barmila"]);
const AR_BAJI = "\u0628\u0627\u062c\u064a";   // باجي

/** «باجي» on a tied row; in French and English the word with its Arabic beside it. */
export function bajiHtml() {
  const ar = language() === "ar" ? "" : ` <span class="ar" lang="ar" dir="rtl">${AR_BAJI}</span>`;
  return `<span class="baji">${T("sheet.baji")}${ar}</span>`;
}

/** A scoring row the sides tied: nobody got its point. */
export function isTie(key, points) {
  return TIES.has(key) && Array.isArray(points) && points.length === 2 && points.every((p) => p === 0);
}

/**
 * Fill `box` with the summary of the round just finished.
 * Returns {title, next: "round"|"game"|"over"}.
 */
export function renderSummary(box, st, names) {
  const v = st.view;
  const sheet = st.sheet || null;
  const rounds = sheet ? sheet.rounds : null;
  const last = rounds && rounds.length ? rounds[rounds.length - 1] : null;
  const res = last ? last.breakdown : v.results[v.results.length - 1];
  // The counts behind each point (cards, diamonds, ...) from the view's results.
  const details = v.results[(rounds ? rounds.length : v.results.length) - 1] || {};
  const mine = Array.isArray(st.sides) ? st.sides.findIndex((m) => m.includes(st.human ?? 0)) : (v.side ?? 0);
  const order = [mine, 1 - mine];
  const side = (s) => escapeHtml(names.side(s));
  const cell = (pts, why) => `${pts ? `<span class="pt">+${formatNumber(pts)}</span>` : `<span class="pt zero">${formatNumber(0)}</span>`}${why ? `<span class="why">${why}</span>` : ""}`;

  let html = "";
  if (st.game === "seven_diamonds") html = sevenBreakdown(st, side, order, last, names);
  else {
    html = `<table class="breakdown"><caption>${T("sheet.this_round")}</caption><thead><tr><th scope="col"><span class="sr">${T("sheet.points")}</span></th>${order.map((s) => `<th scope="col">${side(s)}</th>`).join("")}</tr></thead><tbody>`;
    for (const [label, key, why] of ROWS) {
      if (!res[key]) continue;
      const tie = isTie(key, res[key]);
      html += `<tr data-row="${key}"${tie ? ' data-baji="true"' : ""}><th scope="row">${T(label)}${tie ? ` ${bajiHtml()}` : ""}</th>${order.map((s) => `<td data-side="${s}" data-points="${res[key][s]}">${cell(res[key][s], why(details, s, res))}</td>`).join("")}</tr>`;
    }
    html += `</tbody><tfoot><tr data-row="points"><th scope="row">${T("sheet.round_points")}</th>${order.map((s) => `<td data-side="${s}">${res.points[s]}</td>`).join("")}</tr>`;
    const running = last ? last.running : v.score;
    const target = sheet ? sheet.target : v.target;
    html += `<tr data-row="score"><th scope="row">${T("sheet.score_to", { target })}</th>${order.map((s) => `<td data-side="${s}">${running[s]}</td>`).join("")}</tr></tfoot></table>`;

    const left = details.leftovers || res.leftovers;
    if (left && left.length) {
      const to = details.leftovers_to ?? res.leftovers_to;
      html += `<p class="note">${to === null || to === undefined ? tHtml("sheet.leftovers_nobody", {}, { cards: minis(left) }) : tHtml("sheet.leftovers_to", {}, { side: side(to), cards: minis(left) })}</p>`;
    }
    const allD = details.all_diamonds ?? res.all_diamonds;
    if (allD !== null && allD !== undefined) html += `<p class="result-line">${tHtml("sheet.all_diamonds", {}, { side: side(allD) })}</p>`;
  }

  if (rounds && rounds.length) {
    const match = sheet.match > 1;
    html += `<table class="sheet"><caption>${T("sheet.caption")}</caption><thead><tr>${match ? `<th scope="col">${T("sheet.game")}</th>` : ""}<th scope="col">${T("sheet.round")}</th>` +
      order.map((s) => `<th scope="col">${side(s)}</th>`).join("") + "</tr></thead><tbody>";
    let prevGame = null;
    for (const r of rounds) {
      const startsGame = r.game !== prevGame;
      prevGame = r.game;
      html += `<tr data-round="${r.round}" data-game="${r.game}"${startsGame && r !== rounds[0] ? ' class="new-game"' : ""}>` +
        (match ? `<td>${r.game}</td>` : "") + `<th scope="row">${r.round}</th>` +
        order.map((s) => `<td data-side="${s}"><span class="pts">+${r.points[s]}</span> <span class="run" data-running="${r.running[s]}">${r.running[s]}</span></td>`).join("") +
        "</tr>";
    }
    html += "</tbody></table>";
    if (match) html += `<p class="games">${tHtml("sheet.games_won", { match: sheet.match }, { games: order.map((s) => `${side(s)} ${formatNumber(sheet.games[s])}`).join(T("cards.separator")) })}</p>`;
  }

  let next = "round";
  let title = t("sheet.title.round", { round: last ? last.round : v.results.length });
  if (sheet && sheet.result) {
    // the result first: it is what a player looks for at the end of a game
    html = `<p class="result-line result" data-code="${escapeHtml(sheet.result.code || "")}"${sheet.winner !== null && sheet.winner !== undefined ? ` data-winner="${sheet.winner}"` : ""}>${messageHtml(sheet.result, names)}</p>` + html;
  }
  if (sheet ? sheet.over : v.winner !== null && v.winner !== undefined) {
    next = "over";
    title = (sheet ? sheet.match : v.match) > 1 ? t("sheet.title.match") : t("sheet.title.game");
  } else if (sheet && (last && last.game_over !== undefined ? last.game_over : sheet.result)) {
    next = "game";
    title = last && sheet.match > 1 ? t("sheet.title.game_n", { game: last.game }) : t("sheet.title.game");
  } else if (!sheet && v.game_index > res.game) {
    next = "game";
    title = t("sheet.title.game");
  }
  box.innerHTML = html;
  return { title, next };
}
