// The table's move log (web/table/core.js draws it on every render): the
// moves of the round, newest first, and the previous round's, kept item by
// item. Methods of the table (mixed into core.js's TableView).

import { language, t } from "../i18n/i18n.js";

export const logMethods = {
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
  },

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
  },

  /** What a log item's words depend on besides its move: the language and who sits where. */
  logContext(st) {
    return JSON.stringify([language(), st.human, !!st.spectator, st.table ?? null, st.seats ?? null, st.view.players, st.sides]);
  },

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
  },

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
  },
};
