// The end-of-round breakdown of Seven Diamonds: who went out and with which
// card, the cards left in the losing hands with their points, the bonus for
// a last 7, the multiplier and the round total. Every number comes from the
// facade (chkobba/web.py `seven.last_result`); nothing is added up here.

import { escapeHtml, mini } from "../table/cards.js";

const AR_DOUBLE = "\u062f\u0628\u0644", AR_TRIPLE = "\u062b\u0631\u064a";

export function sevenBreakdown(st, side, order, last) {
  const res = st.seven && st.seven.last_result;
  const sheet = st.sheet;
  if (!res) return "";
  const names = (seat) => escapeHtml(seatNameOf(st, seat));
  const w = res.winner_team;
  let html = `<p class="result-line sd-winner" data-winner="${w}">${side(w)} win the round: ${names(res.winner_seat)} went out with ${mini(res.last_card)}</p>`;
  html += `<table class="breakdown sd-breakdown"><caption>This round</caption><thead><tr><th scope="col">Seat</th><th scope="col">Cards left</th><th scope="col">Points</th></tr></thead><tbody>`;
  for (const h of res.hands) {
    if (!h.losing) continue;
    const cards = h.cards.length
      ? h.cards.map((c, i) => `${mini(c)}<small class="pt-card">${h.points[i]}</small>`).join(" ")
      : "\u2014";
    html += `<tr data-row="hand" data-seat="${h.seat}"><th scope="row">${names(h.seat)}</th><td>${cards}</td><td data-points="${h.total}">${h.total}</td></tr>`;
  }
  html += `</tbody><tfoot>`;
  html += `<tr data-row="cards"><th scope="row" colspan="2">Cards left (A 20, K Q J 10, others 0)</th><td data-points="${res.cards}">${res.cards}</td></tr>`;
  html += `<tr data-row="bonus"><th scope="row" colspan="2">Last card a 7${res.bonus ? ` (${mini(res.last_card)})` : ""}</th><td data-points="${res.bonus}">${res.bonus ? `+${res.bonus}` : "0"}</td></tr>`;
  const mword = res.multiplier === 3 ? ` triple <span class="ar" lang="ar" dir="rtl">${AR_TRIPLE}</span>` : res.multiplier === 2 ? ` double <span class="ar" lang="ar" dir="rtl">${AR_DOUBLE}</span>` : "";
  html += `<tr data-row="multiplier"><th scope="row" colspan="2">Multiplier${mword}</th><td data-mult="${res.multiplier}">\u00d7${res.multiplier}</td></tr>`;
  html += `<tr data-row="total"><th scope="row" colspan="2">Round total to ${side(w)}</th><td data-points="${res.points[w]}">${res.points[w]}</td></tr>`;
  const running = last ? last.running : st.view.score;
  html += `<tr data-row="score"><th scope="row" colspan="2">Score (to ${sheet ? sheet.target : st.view.target})</th><td>${order.map((s) => `<span data-side="${s}" data-score="${running[s]}">${side(s)} ${running[s]}</span>`).join(" \u2013 ")}</td></tr>`;
  html += `</tfoot></table>`;
  return html;
}

function seatNameOf(st, seat) {
  if (seat === (st.human ?? 0)) return "You";
  const rel = (seat - (st.human ?? 0) + 4) % 4;
  return rel === 2 ? "Partner" : rel === 1 ? "Right opponent" : "Left opponent";
}
