// The end-of-round breakdown of Seven Diamonds: who went out and with which
// card, the cards left in the losing hands with their points, the bonus for
// a last 7, the multiplier and the round total. Every number comes from the
// facade (chkobba/web/, its answer's `seven.last_result`); nothing is added up here.

import { escapeHtml, mini } from "../table/cards.js";
import { language, t, tHtml } from "../i18n/i18n.js";

const AR_DOUBLE = "\u062f\u0628\u0644", AR_TRIPLE = "\u062b\u0631\u064a";
const T = (key, params) => escapeHtml(t(key, params));

/** `seatNames.seat(i)` names seat i as the table does (web/table/chkobba.js seatName). */
export function sevenBreakdown(st, side, order, last, seatNames) {
  const res = st.seven && st.seven.last_result;
  const sheet = st.sheet;
  if (!res) return "";
  const names = (seat) => escapeHtml(seatNames.seat(seat));
  const w = res.winner_team;
  let html = `<p class="result-line sd-winner" data-winner="${w}">${tHtml("sheet.seven.winner", {}, { side: side(w), seat: names(res.winner_seat), card: mini(res.last_card) })}</p>`;
  html += `<table class="breakdown sd-breakdown"><caption>${T("sheet.this_round")}</caption><thead><tr><th scope="col">${T("sheet.seven.seat")}</th><th scope="col">${T("sheet.seven.cards_left")}</th><th scope="col">${T("sheet.points")}</th></tr></thead><tbody>`;
  for (const h of res.hands) {
    if (!h.losing) continue;
    const cards = h.cards.length
      ? h.cards.map((c, i) => `${mini(c)}<small class="pt-card">${h.points[i]}</small>`).join(" ")
      : "\u2014";
    html += `<tr data-row="hand" data-seat="${h.seat}"><th scope="row">${names(h.seat)}</th><td>${cards}</td><td data-points="${h.total}">${h.total}</td></tr>`;
  }
  html += `</tbody><tfoot>`;
  html += `<tr data-row="cards"><th scope="row" colspan="2">${T("sheet.seven.cards_row")}</th><td data-points="${res.cards}">${res.cards}</td></tr>`;
  html += `<tr data-row="bonus"><th scope="row" colspan="2">${T("sheet.seven.bonus_row")}${res.bonus ? ` (${mini(res.last_card)})` : ""}</th><td data-points="${res.bonus}">${res.bonus ? `+${res.bonus}` : "0"}</td></tr>`;
  const ar = (word) => (language() === "ar" ? "" : ` <span class="ar" lang="ar" dir="rtl">${word}</span>`);
  const mword = res.multiplier === 3 ? ` ${T("seven.call.triple")}${ar(AR_TRIPLE)}` : res.multiplier === 2 ? ` ${T("seven.call.double")}${ar(AR_DOUBLE)}` : "";
  html += `<tr data-row="multiplier"><th scope="row" colspan="2">${T("sheet.seven.multiplier")}${mword}</th><td data-mult="${res.multiplier}">\u00d7${res.multiplier}</td></tr>`;
  html += `<tr data-row="total"><th scope="row" colspan="2">${tHtml("sheet.seven.total_to", {}, { side: side(w) })}</th><td data-points="${res.points[w]}">${res.points[w]}</td></tr>`;
  const running = last ? last.running : st.view.score;
  html += `<tr data-row="score"><th scope="row" colspan="2">${T("sheet.score_to", { target: sheet ? sheet.target : st.view.target })}</th><td>${order.map((s) => `<span data-side="${s}" data-score="${running[s]}">${side(s)} ${running[s]}</span>`).join(" \u2013 ")}</td></tr>`;
  html += `</tfoot></table>`;
  return html;
}

