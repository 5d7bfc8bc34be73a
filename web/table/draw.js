// The table's lines drawn on every render besides the renderer's own
// (web/table/core.js calls them): the thinking sign at a seat, the status
// line and the last move, the choices and controls, and the coach's hint.
// Methods of the table (mixed into core.js's TableView: `this` is the table).

import { messageHtml } from "./messages.js";
import { escapeHtml, setHtml } from "./cards.js";
import { language, t } from "../i18n/i18n.js";
import { humanSeat, latestMove } from "./state.js";

export const drawMethods = {
  /**
   * The thinking sign: three dots on the name line of the seat to act while
   * it thinks (config.thinking), named for a screen reader ("The computer
   * is thinking"); gone from every other seat. (A seat's name line is drawn
   * anew when what it shows changes: the sign is put back then.)
   */
  drawThinking(st) {
    const who = this.config.thinking && !this.frame && st.to_act !== null && st.to_act !== undefined
      && st.to_act !== humanSeat(st) ? st.to_act : null;
    for (const seat of this.root.querySelectorAll(".seat[data-seat]")) {
      const line = seat.querySelector(".seat-name");
      const sign = seat.querySelector(".thinking");
      if (who === null || Number(seat.dataset.seat) !== who || !line) {
        if (sign) sign.remove();
        continue;
      }
      const label = t("table.thinking", { name: this.names(st).seat(who) });
      if (sign && sign.parentNode === line && sign.getAttribute("aria-label") === label) continue;
      if (sign) sign.remove();
      const dots = document.createElement("span");
      dots.className = "thinking";
      dots.setAttribute("role", "img");
      dots.setAttribute("aria-label", label);
      dots.title = label;
      for (let i = 0; i < 3; i++) dots.append(document.createElement("i"));
      const title = line.querySelector(".seat-title");   // on the name's own line, never a line of its own
      if (title) title.after(dots); else line.append(dots);
    }
  },

  drawStatus() {
    const st = this.state;
    const turn = this.$(".turn");
    const you = humanSeat(st);
    turn.classList.toggle("yours", st.to_act === you && !this.frame);
    // config.turnText(st, ui): a page's own status line (an embed's replay describes the move, never asks for one)
    const text = this.frame ? this.frame.title
      : this.config.turnText ? this.config.turnText(st, this) : this.renderer.turnText(st, this);
    if (turn.textContent !== text) turn.textContent = text;
    turn.dataset.toAct = st.to_act === null || st.to_act === undefined ? "" : String(st.to_act);
    const last = latestMove(st, this.frame);
    const lm = this.$(".last-move");
    if (!last) { setHtml(lm, ""); return; }
    // another seat's move is shown under that seat too (the renderers' .seat-move):
    // a table page says it there only (web/css/layout.css)
    const atSeat = !this.frame && last.seat !== null && last.seat !== undefined && last.seat !== humanSeat(st);
    if (lm.dataset.atSeat !== String(atSeat)) lm.dataset.atSeat = String(atSeat);
    const call = this.renderer.callout(last);
    setHtml(lm, `<span class="label">${escapeHtml(t("table.last_move"))}</span> <span data-last-action="${escapeHtml(last.action ?? "")}">${this.moveHtml(last)}${call ? ` \u2014 ${call}` : ""}</span>`);
  },

  drawControls() {
    const st = this.state;
    const playing = this.playing();
    // the game's own controls (Chkobba's take, lay, claim and clear)
    this.renderer.drawControls(this.root, st, this, playing);
    const choices = this.$(".choices");
    choices.replaceChildren();
    const showWords = !this.config.busy && !this.config.viewOnly && !this.frame && st.to_act === humanSeat(st);
    if (showWords) {
      for (const w of st.words || []) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "btn primary";
        b.dataset.action = w.action;
        b.innerHTML = messageHtml({ code: w.code, params: w.params || {}, text: w.label }) +
          (w.arabic && language() !== "ar" ? ` <span class="ar" lang="ar" dir="rtl">${escapeHtml(w.arabic)}</span>` : "");
        b.addEventListener("click", () => this.act(w.action));
        choices.append(b);
      }
    }
    const mode = this.config.viewOnly ? "view" : showWords && (st.words || []).length ? "words" : playing ? "play" : "wait";
    this.$(".controls").dataset.mode = mode;
    this.root.dataset.mode = mode;
  },

  drawCoach() {
    const st = this.state;
    const box = this.$(".coach");
    const slot = this.$(".coach-slot");
    box.replaceChildren();
    slot.replaceChildren();
    this.root.classList.toggle("coach-on", !!st.coach);
    if (!st.coach || this.config.viewOnly) return;
    const h = this.config.hint;
    const yourTurn = st.to_act === humanSeat(st) && !this.config.busy && !this.frame;
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "btn ghost btn-hint";
    btn.textContent = h && h.pending ? t("coach.thinking") : t("coach.hint");
    btn.title = t("coach.hint_title");
    btn.setAttribute("aria-keyshortcuts", "H");
    btn.disabled = !yourTurn || !!(h && h.pending);
    btn.addEventListener("click", () => this.config.onHint && this.config.onHint());
    slot.append(btn);
    if (!h || h.pending) return;
    if (h.error) {
      const p = document.createElement("p");
      p.className = "hint-error";
      p.innerHTML = `${escapeHtml(t("coach.no_hint"))} ${messageHtml(h.error)}`;
      box.append(p);
      return;
    }
    const list = document.createElement("ol");
    list.className = "hints";
    list.setAttribute("aria-label", t("coach.suggestions"));
    for (const item of h.items) {
      const li = document.createElement("li");
      li.dataset.action = item.action;
      li.innerHTML = `<span class="hint-move">${this.renderer.describeAction(item.action, item)}</span>` +
        (item.reason || item.code ? ` <span class="hint-why">${item.code ? messageHtml({ code: item.code, params: item.params, text: item.reason }) : escapeHtml(item.reason)}</span>` : "");
      list.append(li);
    }
    box.append(list);
  },

};
