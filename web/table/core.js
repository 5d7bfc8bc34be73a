// The shared table core: `mount(element, config)` draws one table into any
// element and returns a controller. Everything is found inside `element`
// (no page-wide ids), so several tables can live on one page. The core
// knows no rule of any game: it draws the state the facade sent through the
// game's renderer, turns the player's pointing into action texts, and hands
// them to `config.onAction`; the engine accepts them or says why not.
//
// config: {
//   state,            the facade's state (null while the engine loads)
//   viewOnly,         draw only: no pointing, no buttons
//   onAction(text),   the player's move (the shell sends it to the facade)
//   onHint(),         the player pressed Hint (tables with hints on)
//   busy,             a computer seat is moving
//   hint,             {pending, items, error} for this position, or null
//   loading,          text shown while the engine loads
//   logOpen,          whether the move log starts open (default: wide screens)
//   turnText(st, ui), the status line's text instead of the renderer's (optional)
//   markPlayable,     false: never mark the cards that may be laid (a puzzle or a lesson)
//   quickCapture,     true: a tap on a table card finishes a capture the
//                     player's pointing alone decides (the renderer's
//                     quickAction, from the facade's legal captures), and a
//                     hand card dragged onto a table card is picked, then
//                     that card tapped; keyboard picking stays as it was
//   thinking,         true: a sign (animated dots) at the seat to act while
//                     it thinks (a computer seat at a pace that is not instant)
// }

import { chkobba } from "./chkobba.js";
import { sevenDiamonds } from "./seven_diamonds.js";
import { messageHtml } from "./messages.js";
import { escapeHtml, mini, setHtml } from "./cards.js";
import { language, t } from "../i18n/i18n.js";

const RENDERERS = { chkobba, seven_diamonds: sevenDiamonds };

export function registerRenderer(game, renderer) {
  RENDERERS[game] = renderer;
}

export function mount(element, config = {}) {
  return new TableView(element, config);
}

const FLY_EASING = "cubic-bezier(.3,.7,.4,1)";

class TableView {
  constructor(element, config) {
    this.el = element;
    this.config = { viewOnly: false, busy: false, hint: null, loading: null, quickCapture: false, thinking: false, ...config };
    this.selectedHand = null;
    this.selectedTable = [];
    this.lostFocus = null;
    this.keyboard = false;
    this.flights = new Set();
    this.flightLog = [];        // the latest flights (for tests and debugging)
    this.flightCount = 0;       // every flight so far
    this.frame = null;          // a round-end frame being shown instead of the state
    this.renderer = null;
    this.reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
    // Wide screens show the move log as an open column beside the table;
    // narrower ones as a closed pill (web/css/layout.css). Unless the page
    // says (config.logOpen), the log follows when the window crosses over.
    this.wide = window.matchMedia("(min-width: 1200px)");
    this._onWide = () => {
      const log = this.$(".log");
      if (log && this.config.logOpen == null) log.open = this.wide.matches;
    };
    this.wide.addEventListener("change", this._onWide);
    this._onKeyCapture = () => { this.keyboard = true; };
    this._onPointerCapture = () => { this.keyboard = false; };
    this._onFocusIn = () => { this.lostFocus = null; };
    document.addEventListener("keydown", this._onKeyCapture, { capture: true });
    document.addEventListener("pointerdown", this._onPointerCapture, { capture: true });
    element.addEventListener("focusin", this._onFocusIn);
    this.root = document.createElement("div");
    this.root.className = "ck";
    element.replaceChildren(this.root);
    this.render();
  }

  get state() { return this.config.state; }

  /**
   * Change part of the config and redraw. With `roundEndFrom` (the state
   * before a round's last move), the table is drawn as that round ended
   * (showRoundEnd) instead of as the new state: one drawing, not two.
   */
  set(partial, { roundEndFrom = null } = {}) {
    const before = this.config.state;
    Object.assign(this.config, partial);
    if ("state" in partial) {
      this.frame = roundEndFrom ? this.roundEndFrame(roundEndFrom) : null;
      const v = this.state && this.state.view;
      if (v) {
        if (this.selectedHand && !v.hand.includes(this.selectedHand)) this.selectedHand = null;
        this.selectedTable = this.selectedTable.filter((c) => v.table.includes(c));
      }
    }
    this.render();
    if ("state" in partial && partial.state !== before) this.announceChange(before, this.state);
  }

  destroy() {
    this.cancelFlights();
    this.wide.removeEventListener("change", this._onWide);
    document.removeEventListener("keydown", this._onKeyCapture, { capture: true });
    document.removeEventListener("pointerdown", this._onPointerCapture, { capture: true });
    this.el.removeEventListener("focusin", this._onFocusIn);
    this.el.replaceChildren();
  }

  $(sel) { return this.root.querySelector(sel); }

  // ---------------------------------------------------------------- drawing

  ensureRenderer() {
    const game = this.state ? this.state.game : "chkobba";
    const r = RENDERERS[game];
    if (!r) throw new Error(`no renderer for ${game}`);
    if (this.renderer !== r) {
      this.renderer = r;
      this.root.className = "ck";   // the renderer before may have left its classes
      this.root.replaceChildren();
      r.build(this.root, this);
      // On a table page a refusal floats over the status line (whose turn it
      // is) at the top of the centre, never over the score line or a seat's
      // last move (web/css/layout.css); an embed keeps it under its buttons.
      const message = this.$(".message"), center = this.$(".center");
      if (this.el.classList.contains("table-host") && message && center) center.prepend(message);
      this.buildLive();
      this.wire();
      const log = this.$(".log");
      if (log) log.open = this.config.logOpen ?? this.wide.matches;
    }
    return r;
  }

  wire() {
    const controls = this.$(".controls");
    if (controls) {
      controls.addEventListener("click", (e) => {
        const b = e.target.closest("button[data-act]");
        if (b && !b.disabled) this.control(b.dataset.act);
      });
    }
    // A refusal floats over the top of the table, the coach's moves too on
    // a phone: a tap on it puts it away (the cards chosen stay chosen).
    const message = this.$(".message");
    if (message) message.addEventListener("click", () => this.showMessage(null));
    this.wireDrag();
  }

  /**
   * A hand card dragged (mouse, pen or finger: pointer events) and dropped
   * on a table card is picked, then that table card tapped (toggleTable,
   * which may finish the capture: quickAction). Dropped anywhere else, the
   * drag changes nothing. Only with config.quickCapture, while playing.
   */
  wireDrag() {
    const SLOP = 8;   // px a press moves before it is a drag, not a tap
    let drag = null;
    const end = () => {
      if (!drag) return;
      if (drag.ghost) drag.ghost.remove();
      if (drag.over) drag.over.classList.remove("drop-target");
      this.root.classList.remove("dragging");
      drag = null;
    };
    const tableCardAt = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      const c = hit && hit.closest(".table-cards .card[data-card]");
      return c && this.root.contains(c) ? c : null;
    };
    this.root.addEventListener("pointerdown", (e) => {
      if (!this.config.quickCapture || !e.isPrimary || e.button !== 0) return;
      const card = e.target.closest(".hand-you .card[data-card]");
      if (!card || card.disabled || !this.playing()) return;
      end();
      drag = { id: e.pointerId, code: card.dataset.card, card, x: e.clientX, y: e.clientY, ghost: null, over: null };
    });
    this.root.addEventListener("pointermove", (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      if (!drag.ghost) {
        if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < SLOP) return;
        const r = drag.card.getBoundingClientRect();
        const ghost = drag.card.cloneNode(true);
        ghost.removeAttribute("id");
        ghost.className = `${drag.card.className} drag-ghost`;
        ghost.setAttribute("aria-hidden", "true");
        ghost.tabIndex = -1;
        Object.assign(ghost.style, { width: `${r.width}px`, height: `${r.height}px`, left: `${r.left}px`, top: `${r.top}px` });
        drag.dx = drag.x - r.left;
        drag.dy = drag.y - r.top;
        this.root.append(ghost);
        this.root.classList.add("dragging");
        drag.ghost = ghost;
      }
      drag.ghost.style.left = `${e.clientX - drag.dx}px`;
      drag.ghost.style.top = `${e.clientY - drag.dy}px`;
      const over = tableCardAt(e.clientX, e.clientY);
      if (over !== drag.over) {
        if (drag.over) drag.over.classList.remove("drop-target");
        if (over) over.classList.add("drop-target");
        drag.over = over;
      }
    });
    this.root.addEventListener("pointerup", (e) => {
      if (!drag || e.pointerId !== drag.id) return;
      const { code, ghost } = drag;
      const target = ghost ? tableCardAt(e.clientX, e.clientY) : null;
      end();
      if (!ghost) return;   // a tap: the card's click picks it
      // the click that ends a drag is not a tap on the card it ended on
      const swallow = (ev) => { ev.stopPropagation(); ev.preventDefault(); };
      this.root.addEventListener("click", swallow, { capture: true, once: true });
      setTimeout(() => this.root.removeEventListener("click", swallow, { capture: true }), 0);
      if (!target || !this.playing()) return;
      this.selectedHand = code;
      this.toggleTable(target.dataset.card, { pointer: true });
    });
    this.root.addEventListener("pointercancel", end);
  }

  playing() {
    const st = this.state;
    if (!st || this.config.viewOnly || this.config.busy || this.frame) return false;
    return st.view.phase === "play" && st.to_act === humanSeat(st);
  }

  render() {
    const drawn = this.frame ? this.frame.state : this.state;
    const held = this.letGoFocus(drawn);
    const r = this.ensureRenderer();
    this.root.classList.toggle("loading", !this.state);
    this.root.classList.toggle("view-only", !!this.config.viewOnly);
    this.root.classList.toggle("round-end", !!this.frame);
    this.root.classList.toggle("quick", !!this.config.quickCapture && !this.config.viewOnly);
    const load = this.$(".loading-indicator");
    if (load) {
      load.hidden = !!this.state;
      if (this.config.loading) load.querySelector(".loading-text").textContent = this.config.loading;
    }
    if (!this.state) return;
    if (!this.playing()) { this.selectedHand = null; this.selectedTable = []; }
    this.keepFocus(() => {
      r.draw(this.root, drawn, this);
      this.drawThinking(drawn);
      this.drawStatus();
      this.drawControls();
      this.drawCoach();
      this.drawLogSoon();
    }, held);
  }

  names(st = this.state) {
    return this.renderer.names(st);
  }

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
  }

  /**
   * A move in words. The engine's move templates are worded for the command
   * line ("seat 1 lays 6H"), so the renderer words the moves it knows from
   * the move's own fields (who, kind, cards); any other move is rendered from
   * its code and params.
   */
  moveHtml(move, st = this.state) {
    return this.renderer.describeMove(move, st) ?? messageHtml(move, this.names(st));
  }

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
  }

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
  }

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
  }

  /**
   * The move log, drawn in the frame after the table's when it is open: on
   * a wide screen it is a column of every move, newest first, and a new
   * move moves every item down; drawn with the table it was about a quarter
   * of the browser's work in that frame (docs/main-thread.md, eighth pass). A
   * closed log (a phone's pill) is drawn at once: only its count shows.
   */
  drawLogSoon() {
    const log = this.$(".log");
    if (!log) return;
    // (a log never drawn, as a new renderer's, is drawn at once: syncLog keeps its keys)
    if (!log.open || !log.querySelector(".log-moves").ckKeys) {
      this.drawLog();
      return;
    }
    if (this.logPending) return;
    this.logPending = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.logPending = false;
      if (this.state && this.root.isConnected) this.drawLog();
    }, 0));
  }

  /** The move log: every move of the round, newest first; the previous round below. */
  drawLog() {
    const st = this.state;
    const log = this.$(".log");
    if (!log) return;
    const moves = st.moves;
    const list = log.querySelector(".log-moves");
    const prev = log.querySelector(".log-previous");
    const count = log.querySelector(".log-count");
    const context = this.logContext(st);
    this.syncLog(list, moves, context);
    // Until the new round has a move, the facade lists the round just finished.
    const finished = moves.length && moves[moves.length - 1].round_ended;
    const title = finished ? t("log.last_round") : t("log.this_round");
    log.querySelector(".log-title").textContent = title;
    log.dataset.title = title;   // the open panel's heading on a phone, where the title is the dock's pill (css/layout.css)
    log.dataset.round = finished ? "finished" : "current";
    list.dataset.count = moves.length;
    count.textContent = String(moves.length);
    const before = st.last_round_moves;
    prev.hidden = !before.length;
    const plist = prev.querySelector(".log-previous-moves");
    this.syncLog(plist, before, context);
    plist.dataset.count = before.length;
  }

  /** What a log item's words depend on besides its move: the language and who sits where. */
  logContext(st) {
    return JSON.stringify([language(), st.human, !!st.spectator, st.table ?? null, st.seats ?? null, st.view.players, st.sides]);
  }

  /**
   * The log's items for `moves` (newest first), keeping the items of the
   * moves already listed: a move adds one item instead of the whole list
   * being made again.
   */
  syncLog(list, moves, context) {
    const keys = moves.map((m) => JSON.stringify(m));
    const old = list.ckContext === context && list.ckKeys && list.children.length === list.ckKeys.length ? list.ckKeys : [];
    let same = 0;
    while (same < old.length && same < keys.length && old[same] === keys[same]) same++;
    // the items are newest first: the moves after the common start are the first children
    if (!old.length) list.replaceChildren();
    for (let k = old.length; k > same; k--) list.firstElementChild.remove();
    const fresh = [];
    for (let i = same; i < moves.length; i++) fresh.push(this.logItem(moves[i], i));
    if (fresh.length) list.prepend(...fresh.reverse());
    list.ckKeys = keys;
    list.ckContext = context;
  }

  logItem(move, i) {
    const li = document.createElement("li");
    li.className = "log-item";
    li.value = i + 1;
    li.dataset.kind = move.kind || "";
    li.dataset.action = move.action ?? "";
    if (move.seat !== null && move.seat !== undefined) li.dataset.seat = move.seat;
    let html = this.moveHtml(move);
    const call = this.renderer.callout(move);
    if (call) html += ` ${call}`;
    li.innerHTML = html;
    return li;
  }

  // ----------------------------------------------------------------- focus

  // Drawing rebuilds the cards and buttons, which would drop keyboard focus
  // to <body> after every move. Remember what had focus by what it is and
  // focus it again, or the nearest useful thing.
  focusKey(el) {
    if (!el || !el.closest || !this.root.contains(el)) return null;
    if (el.closest(".hand-you")) return { where: "hand", card: el.dataset.card };
    if (el.closest(".table-cards")) return { where: "table", card: el.dataset.card };
    if (el.closest(".choices")) return { where: "choices", action: el.dataset.action };
    if (el.closest(".coach-slot")) return { where: "controls", act: "hint" };
    if (el.closest(".controls")) return { where: "controls", act: el.dataset.act };
    return null;
  }

  focusLost() {
    const a = document.activeElement;
    // (a button of a dialog just closed keeps the focus until the browser
    // notices it is no longer drawn: that focus is lost too)
    return !a || a === document.body || !a.isConnected || a.disabled || !!a.closest("[hidden], dialog:not([open])");
  }

  // Removing the focused element in the middle of a drawing makes the
  // browser restyle the whole half-drawn table at once (11-25 ms of a
  // person's move at 4x CPU, docs/main-thread.md, ninth pass). So when the
  // drawing of `next` will remove the table's focused card or button (a card
  // that leaves your hand or the table, a choice: the choices are made anew
  // each drawing), it is let go before anything is written, and given back
  // after the drawing if it is still there. A card or button that stays keeps
  // the focus throughout (a redraw each second, as a timer's, moves nothing).
  letGoFocus(next) {
    const a = document.activeElement;
    const key = this.focusKey(a);
    if (!key || !next) return null;   // (nothing is drawn without a state)
    const v = next.view || {};
    const stays = key.where === "hand" ? (v.hand || []).includes(key.card)
      : key.where === "table" ? Array.isArray(v.table) && v.table.includes(key.card)
      : key.where === "controls";
    if (stays) return null;
    a.blur();
    return a;
  }

  keepFocus(draw, held = null) {
    const key = this.focusKey(held || document.activeElement) || this.lostFocus;
    draw();
    if (held && held.isConnected && !held.disabled) held.focus({ preventScroll: true });
    if (!key || !this.keyboard || !this.focusLost()) return;
    if (document.querySelector("dialog[open]")) { this.lostFocus = key; return; }
    const usable = (el) => el && !el.disabled && !el.closest("[hidden]") && el.offsetParent !== null;
    const exact =
      key.where === "hand" ? this.$(`.hand-you .card[data-card="${key.card}"]`)
      : key.where === "table" ? this.$(`.table-cards .card[data-card="${key.card}"]`)
      : key.where === "choices" ? this.$(`.choices button[data-action="${key.action}"]`)
      : key.where === "controls" ? (key.act === "hint" ? this.$(".btn-hint") : this.$(`.controls [data-act="${key.act}"]`)) : null;
    const target = [exact, this.$(".choices button"), ...this.root.querySelectorAll(".hand-you .card")].find(usable);
    if (target) {
      target.focus({ preventScroll: true });
      this.lostFocus = null;
    } else {
      this.lostFocus = key;
    }
  }

  /** Focus comes back to the table (after a dialog closed). */
  refocus() {
    this.lostFocus = this.lostFocus || { where: "hand" };
    this.keepFocus(() => {});
  }

  // --------------------------------------------------------------- pointing

  toggleHand(code) {
    if (!this.playing()) return;
    this.selectedHand = this.selectedHand === code ? null : code;
    this.showMessage(null);
    this.render();
  }

  toggleTable(code, { pointer = !this.keyboard } = {}) {
    if (!this.playing()) return;
    const i = this.selectedTable.indexOf(code);
    if (i >= 0) this.selectedTable.splice(i, 1); else this.selectedTable.push(code);
    this.showMessage(null);
    this.render();
    // A card tapped (never picked with the keys) that leaves one legal
    // capture containing what is picked takes it at once.
    if (i < 0 && pointer && this.config.quickCapture && this.renderer.quickAction) {
      const action = this.renderer.quickAction(this);
      if (action) this.act(action);
    }
  }

  clearSelection() {
    this.selectedHand = null;
    this.selectedTable = [];
    this.showMessage(null);
    this.render();
  }

  control(kind) {
    if (kind === "clear") return this.clearSelection();
    if (kind === "hint") return this.config.onHint && this.config.onHint();
    if (!this.playing()) return;
    const action = this.renderer.pointedAction(kind, this);
    if (action) this.act(action);
  }

  act(action) {
    if (this.config.viewOnly || !this.config.onAction) return;
    this.config.onAction(action);
  }

  /** A key from the shell's keyboard handler: Escape, H, and the game's own (Chkobba's T, L, C). */
  key(k) {
    const key = k.toLowerCase();
    if (key === "escape") this.clearSelection();
    else if (key === "h" && this.state && this.state.coach) this.control("hint");
    else this.renderer.key(key, this);
  }

  /** A message for the player: {code, params, error|text}, or null to clear. `prefix` is plain text. */
  showMessage(msg, prefix = "") {
    const box = this.$(".message");
    if (!box) return;
    box.innerHTML = msg ? escapeHtml(prefix) + messageHtml(msg, this.state ? this.names() : null) : "";
    if (msg && msg.code) box.dataset.code = msg.code; else delete box.dataset.code;
  }

  // -------------------------------------------------------------- animation

  cardRects() {
    const out = new Map();
    for (const el of this.root.querySelectorAll(".table-cards .card, .hand-you .card")) {
      out.set(el.dataset.card, el.getBoundingClientRect());
    }
    const seats = new Map();
    for (const el of this.root.querySelectorAll(".seat[data-seat]")) {
      const back = [...el.querySelectorAll(".hand .card.back")].pop();
      if (back) seats.set(Number(el.dataset.seat), back.getBoundingClientRect());
    }
    return { cards: out, seats };
  }

  /** Fly the newest move's cards from where they were (rects taken before the redraw). */
  animateMove(rects, pace) {
    const st = this.state;
    const move = latestMove(st, this.frame);
    if (!move || !move.card || !rects || this.reduceMotion.matches || pace === 0) return;
    if (document.querySelector("dialog[open]")) return;
    const ms = Math.min(600, Math.max(220, pace * 0.4));
    const fromSeat = rects.seats.get(move.seat);
    const from = (code) => rects.cards.get(code) || fromSeat || null;
    const origin = (code) => (rects.cards.has(code) ? "card" : "seat");
    const taken = move.cards || move.take || [];
    if (move.kind === "lay" || (!taken.length && move.kind !== "capture" && move.kind !== "claim")) {
      const target = this.$(`.table-cards .card[data-card="${move.card}"]`);
      if (target) this.fly(move.card, from(move.card), target.getBoundingClientRect(), ms, target, origin(move.card));
      return;
    }
    const side = sideOf(st, move.seat);
    const pile = side === null ? null : this.$(`.pile[data-side="${side}"] .stack`);
    if (!pile) return;
    const to = pile.getBoundingClientRect();
    for (const code of [move.card, ...taken]) this.fly(code, from(code), to, ms, null, origin(code));
  }

  fly(code, from, to, ms, hideTarget, origin = "card") {
    const good = (r) => r && [r.left, r.top, r.width, r.height].every(Number.isFinite) && r.width > 0 && r.height > 0;
    if (!good(from) || !good(to)) return;
    this.flightLog.push({ code, origin, from: [from.width, from.height], to: [to.width, to.height] });
    this.flightCount += 1;
    if (this.flightLog.length > 50) this.flightLog.shift();
    const el = document.createElement("span");
    el.className = "flying";
    el.setAttribute("aria-hidden", "true");
    const card = this.renderer.flyingCard(code);
    el.append(card);
    // Drawn at the size it lands at; it starts at the size it left from
    // (a card back in an opponent's hand is small, never oversized).
    Object.assign(el.style, { transformOrigin: "0 0", left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
    card.style.setProperty("--card-w", `${to.width}px`);
    this.root.append(el);
    if (hideTarget) hideTarget.style.visibility = "hidden";
    const sx = from.width / to.width, sy = from.height / to.height;
    const dx = from.left - to.left, dy = from.top - to.top;
    const anim = el.animate(
      [{ transform: `translate(${dx}px, ${dy}px) scale(${sx}, ${sy})` },
       { transform: "translate(0px, 0px) scale(1, 1)", opacity: hideTarget ? 1 : 0.5 }],
      { duration: ms, easing: FLY_EASING },
    );
    const done = () => {
      el.remove();
      if (hideTarget) hideTarget.style.visibility = "";
      this.flights.delete(anim);
    };
    this.flights.add(anim);
    anim.onfinish = done;
    anim.oncancel = done;
  }

  cancelFlights() {
    for (const a of [...this.flights]) a.cancel();
  }

  // ------------------------------------------------------------ round end

  /**
   * How the round ended, shown before the summary opens: the last move and
   * the cards left on the table, with who they go to (all from the
   * facade's round result). Null when there is nothing to show.
   */
  roundEndFrame(before) {
    this.ensureRenderer();
    const st = this.state;
    const drawn = this.renderer.roundEndState(st, before);
    if (!drawn) return null;
    // the score with the round just finished counted (the new state's), not the one before it
    const frameState = { ...drawn, sheet: st.sheet, view: { ...drawn.view, score: st.view.score, games: st.view.games } };
    return { state: frameState, title: t("table.round_end") };
  }

  /**
   * The round's end, drawn by `set(..., { roundEndFrom })`: its last move
   * flies in, and this resolves after `ms` (at once when there was nothing
   * to show).
   */
  showRoundEnd(ms, rects, pace) {
    if (!this.frame) return Promise.resolve();
    this.animateMove(rects, pace);
    return new Promise((resolve) => setTimeout(resolve, ms));
  }

  endFrame() {
    if (!this.frame) return;
    this.cancelFlights();
    this.frame = null;
    this.render();
    this.announce(this.turnAnnouncement());
  }

  // ---------------------------------------------------------- announcements

  // One polite live region (role=status) tells a screen reader what changed
  // on the table: every move (the computer's and yours) in the words of the
  // move log, whose turn it is, the round's result and the game's. The
  // texts are catalog keys (web/i18n/<lang>/a11y.json). The renderers' own
  // live marks (the score line, the status, Seven Diamonds' events, all of
  // them moves this region says) are dropped so that each change is spoken
  // once; only the refusals (role=alert) stay live on their own.
  buildLive() {
    for (const e of this.root.querySelectorAll("[aria-live]:not([role=alert])")) e.removeAttribute("aria-live");
    const live = document.createElement("div");
    live.className = "sr live";
    live.setAttribute("role", "status");
    live.setAttribute("aria-live", "polite");
    live.setAttribute("aria-atomic", "true");
    live.setAttribute("aria-label", t("a11y.live"));
    this.root.append(live);
    this.live = live;
    if (!this.announcements) this.announcements = [];   // every text said (for tests)
  }

  announce(text) {
    if (!text || !this.live) return;
    const p = document.createElement("p");
    p.textContent = text;
    this.live.replaceChildren(p);
    this.announcements.push(text);
    if (this.announcements.length > 200) this.announcements.shift();
  }

  announceChange(before, st) {
    if (!st || !this.renderer) return;
    const parts = [];
    // Many new moves at once is a new position (a replay's jump, a lesson's
    // step, a resumed game), not play: only its latest move is said.
    const fresh = newMoves(before, st);
    for (const m of fresh.length > 3 ? fresh.slice(-1) : fresh) {
      const text = speech(this.moveHtml(m, st));
      if (text) parts.push(this.renderer.spokenMove(m, text) ?? sentence(text));
    }
    const done = roundsOf(st);
    const roundEnded = !!(before && done > roundsOf(before));
    if (roundEnded) parts.push(this.roundResultText(st));
    const over = st.sheet.over;
    const wasOver = before && before.sheet.over;
    if (over && !wasOver && st.sheet.result) {
      parts.push(t("a11y.game.over", { text: speech(messageHtml(st.sheet.result, this.names(st))) }));
    } else if (!roundEnded && (parts.length || !before || before.to_act !== st.to_act)) {
      // (after a round, the turn is said when the table shows the next deal: endFrame)
      const turn = this.turnAnnouncement(st);
      if (turn) parts.push(turn);
    }
    if (parts.length) this.announce(parts.join(" "));
  }

  turnAnnouncement(st = this.state) {
    if (!st || st.to_act === null || st.to_act === undefined || this.config.viewOnly) return "";
    return st.to_act === humanSeat(st) ? t("a11y.turn.you") : t("a11y.turn.seat", { name: this.names(st).seat(st.to_act) });
  }

  /** The round just finished in words: its points and the score, your side first. */
  roundResultText(st) {
    const rounds = st.sheet.rounds;
    const last = rounds.length ? rounds[rounds.length - 1] : null;
    const points = last ? last.points : [0, 0];
    const score = last ? last.running : [0, 0];
    const a = sideOf(st, humanSeat(st)) ?? 0, b = 1 - a;
    const side = this.names(st).side;
    return t("a11y.round.result", {
      round: last ? last.round : 0,
      side_a: side(a), points_a: points[a], score_a: score[a],
      side_b: side(b), points_b: points[b], score_b: score[b],
    });
  }
}

// ---------------------------------------------------------------- helpers

/** Plain text of a move's HTML for speech: card symbols by their names. */
function speech(html) {
  const div = document.createElement("div");
  div.innerHTML = html;
  for (const e of div.querySelectorAll('[aria-hidden="true"]')) e.remove();
  for (const e of div.querySelectorAll("[role=img][aria-label]")) e.replaceWith(e.getAttribute("aria-label"));
  return div.textContent.replace(/\s+/g, " ").trim();
}

function sentence(text) {
  return /[.!?\u2026:\u061f]$/.test(text) ? text : `${text}.`;
}

function roundsOf(st) {
  return st.sheet.rounds.length;
}

/** The moves of `st` that `before` did not have (a new round starts its list afresh). */
function newMoves(before, st) {
  if (!before) return [];
  const old = before.moves, now = st.moves;
  const same = (a, b) => a && b && a.action === b.action && a.seat === b.seat && a.kind === b.kind && a.card === b.card;
  if (now.length >= old.length && (old.length === 0 || same(now[old.length - 1], old[old.length - 1]))) {
    return now.slice(old.length);
  }
  // stepped back in the same round (a replay): nothing new to say
  if (now.length && now.length < old.length && roundsOf(st) === roundsOf(before) && same(now[now.length - 1], old[now.length - 1])) return [];
  if (now.length < old.length || !same(now[0], old[0])) return now;   // a new round, or a new game
  return [];
}

export function humanSeat(st) {
  return st ? st.human : 0;
}

/** The side a seat plays for, as the facade says (`sides`); null if unknown. */
export function sideOf(st, seat) {
  if (!st || seat === null || seat === undefined) return null;
  const i = st.sides.findIndex((members) => members.includes(seat));
  return i >= 0 ? i : null;
}

/** The newest move to show: a round-end frame's, else the last of the facade's move list. */
export function latestMove(st, frame = null) {
  if (frame && frame.move) return frame.move;
  return st.moves.length ? st.moves[st.moves.length - 1] : null;
}

export { mini };
