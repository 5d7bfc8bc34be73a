// The player's pointing and keys on the table: the controls' clicks, a hand
// card dragged onto a table card (the quicker capture), the cards picked and
// the action texts handed to config.onAction (web/table/core.js). Methods of
// the table (mixed into core.js's TableView).

export const inputMethods = {
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
  },

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
  },

  toggleHand(code) {
    if (!this.playing()) return;
    this.selectedHand = this.selectedHand === code ? null : code;
    this.showMessage(null);
    this.render();
  },

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
  },

  clearSelection() {
    this.selectedHand = null;
    this.selectedTable = [];
    this.showMessage(null);
    this.render();
  },

  control(kind) {
    if (kind === "clear") return this.clearSelection();
    if (kind === "hint") return this.config.onHint && this.config.onHint();
    if (!this.playing()) return;
    const action = this.renderer.pointedAction(kind, this);
    if (action) this.act(action);
  },

  act(action) {
    if (this.config.viewOnly || !this.config.onAction) return;
    this.config.onAction(action);
  },

  /** A key from the shell's keyboard handler: Escape, H, and the game's own (Chkobba's T, L, C). */
  key(k) {
    const key = k.toLowerCase();
    if (key === "escape") this.clearSelection();
    else if (key === "h" && this.state && this.state.coach) this.control("hint");
    else this.renderer.key(key, this);
  },
};
