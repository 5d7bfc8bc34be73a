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
//
// The table's jobs besides its drawing loop (here) are one module each,
// mixed into TableView: draw.js (the status, controls and coach), log.js
// (the move log), focus.js, input.js (pointing and keys), flights.js (the
// cards' flights) and announce.js (what a screen reader hears); state.js
// reads the facade's state (who you are, sides, the newest move).

import { chkobba } from "./chkobba.js";
import { sevenDiamonds } from "./seven_diamonds.js";
import { messageHtml } from "./messages.js";
import { escapeHtml, mini } from "./cards.js";
import { t } from "../i18n/i18n.js";
import { drawMethods } from "./draw.js";
import { logMethods } from "./log.js";
import { focusMethods } from "./focus.js";
import { inputMethods } from "./input.js";
import { flightMethods } from "./flights.js";
import { announceMethods } from "./announce.js";
import { humanSeat } from "./state.js";

// Each game's renderer by the game it draws (its `game`).
const RENDERERS = Object.fromEntries([chkobba, sevenDiamonds].map((r) => [r.game, r]));

/** The game a first visit deals, and a link, a save or a form that names none. */
export const DEFAULT_GAME = "chkobba";

/** The renderer of a game (null for a game without one). */
export const rendererOf = (game) => RENDERERS[game] || null;

export function registerRenderer(game, renderer) {
  RENDERERS[game] = renderer;
}

export function mount(element, config = {}) {
  return new TableView(element, config);
}

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
    const game = this.state ? this.state.game : DEFAULT_GAME;
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
   * A move in words. The engine's move templates are worded for the command
   * line ("seat 1 lays 6H"), so the renderer words the moves it knows from
   * the move's own fields (who, kind, cards); any other move is rendered from
   * its code and params.
   */
  moveHtml(move, st = this.state) {
    return this.renderer.describeMove(move, st) ?? messageHtml(move, this.names(st));
  }

  /** A message for the player: {code, params, error|text}, or null to clear. `prefix` is plain text. */
  showMessage(msg, prefix = "") {
    const box = this.$(".message");
    if (!box) return;
    box.innerHTML = msg ? escapeHtml(prefix) + messageHtml(msg, this.state ? this.names() : null) : "";
    if (msg && msg.code) box.dataset.code = msg.code; else delete box.dataset.code;
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
}

Object.assign(TableView.prototype, drawMethods, logMethods, focusMethods, inputMethods, flightMethods, announceMethods);

export { humanSeat, latestMove, sideOf } from "./state.js";
export { mini };
