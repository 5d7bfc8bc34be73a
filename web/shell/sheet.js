// The end-of-round dialog: the round's breakdown (drawn by its game's
// renderer), the score sheet of every round with running totals, and the
// result in the facade's own words (game vs match is decided in Python).
// Nothing here adds up a score.

import { escapeHtml } from "../table/cards.js";
import { messageHtml } from "../table/messages.js";
import { DEFAULT_GAME, rendererOf } from "../table/core.js";
import { formatNumber, t, tHtml } from "../i18n/i18n.js";

const T = (key, params) => escapeHtml(t(key, params));

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

  // the round's own rows, as its game's renderer words them (web/table/<game>.js)
  let html = (rendererOf(st.game) || rendererOf(DEFAULT_GAME)).breakdown(st, { res, details, order, side, cell, last, names });

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
