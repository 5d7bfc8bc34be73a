// The end-of-round dialog: the round's breakdown, the score sheet of every
// round with running totals, and the result in the facade's own words
// (game vs match is decided in Python). Nothing here adds up a score.

import { escapeHtml, minis } from "../table/cards.js";
import { messageHtml } from "../table/messages.js";
import { sevenBreakdown } from "./sheet_seven.js";

function plural(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

const ROWS = [
  ["Karta (most cards)", "karta", (d, s) => d.cards && plural(d.cards[s], "card")],
  ["Dinari (most diamonds)", "dinari", (d, s) => d.diamonds && plural(d.diamonds[s], "diamond")],
  ["Barmila (most sevens, then sixes)", "barmila", (d, s) => d.sevens && `${plural(d.sevens[s], "seven")}, ${plural(d.sixes[s], "six", "sixes")}`],
  ["Sab\u2018a l-hayya (7\u2666\uFE0E)", "haya", (d, s, res) => (res.haya[s] ? "has the 7\u2666\uFE0E" : "\u2014")],
  ["Chkobba (sweeps)", "chkobba", (d, s, res) => plural(res.chkobba[s], "sweep")],
];

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
  const cell = (pts, why) => `${pts ? `<span class="pt">+${pts}</span>` : '<span class="pt zero">0</span>'}${why ? `<span class="why">${why}</span>` : ""}`;

  let html = "";
  if (st.game === "seven_diamonds") html = sevenBreakdown(st, side, order, last);
  else {
    html = `<table class="breakdown"><caption>This round</caption><thead><tr><th scope="col"><span class="sr">Points</span></th>${order.map((s) => `<th scope="col">${side(s)}</th>`).join("")}</tr></thead><tbody>`;
    for (const [label, key, why] of ROWS) {
      if (!res[key]) continue;
      html += `<tr data-row="${key}"><th scope="row">${label}</th>${order.map((s) => `<td data-side="${s}" data-points="${res[key][s]}">${cell(res[key][s], why(details, s, res))}</td>`).join("")}</tr>`;
    }
    html += `</tbody><tfoot><tr data-row="points"><th scope="row">Round points</th>${order.map((s) => `<td data-side="${s}">${res.points[s]}</td>`).join("")}</tr>`;
    const running = last ? last.running : v.score;
    const target = sheet ? sheet.target : v.target;
    html += `<tr data-row="score"><th scope="row">Score (to ${target})</th>${order.map((s) => `<td data-side="${s}">${running[s]}</td>`).join("")}</tr></tfoot></table>`;

    const left = details.leftovers || res.leftovers;
    if (left && left.length) {
      const to = details.leftovers_to ?? res.leftovers_to;
      html += `<p class="note">Cards left on the table went to ${to === null || to === undefined ? "nobody (no capture this round)" : side(to)}: ${minis(left)}</p>`;
    }
    const allD = details.all_diamonds ?? res.all_diamonds;
    if (allD !== null && allD !== undefined) html += `<p class="result-line">${side(allD)}: all ten diamonds!</p>`;
  }

  if (rounds && rounds.length) {
    const match = sheet.match > 1;
    html += `<table class="sheet"><caption>Score sheet</caption><thead><tr>${match ? '<th scope="col">Game</th>' : ""}<th scope="col">Round</th>` +
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
    if (match) html += `<p class="games">Games won: ${order.map((s) => `${side(s)} ${sheet.games[s]}`).join(", ")} (best of ${sheet.match})</p>`;
  }

  let next = "round";
  let title = `End of round ${last ? last.round : v.results.length}`;
  if (sheet && sheet.result) {
    // the result first: it is what a player looks for at the end of a game
    html = `<p class="result-line result" data-code="${escapeHtml(sheet.result.code || "")}"${sheet.winner !== null && sheet.winner !== undefined ? ` data-winner="${sheet.winner}"` : ""}>${messageHtml(sheet.result, names)}</p>` + html;
  }
  if (sheet ? sheet.over : v.winner !== null && v.winner !== undefined) {
    next = "over";
    title = (sheet ? sheet.match : v.match) > 1 ? "End of the match" : "End of the game";
  } else if (sheet && (last && last.game_over !== undefined ? last.game_over : sheet.result)) {
    next = "game";
    title = last && sheet.match > 1 ? `End of game ${last.game}` : "End of the game";
  } else if (!sheet && v.game_index > res.game) {
    next = "game";
    title = "End of the game";
  }
  box.innerHTML = html;
  return { title, next };
}
