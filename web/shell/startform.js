// The start form, built from the facade's `describe`: which games exist,
// how many players, the computer levels and every table option with its
// allowed values and what it depends on. Nothing here lists a choice by hand;
// an option's name is its message code's text (msg.<code> in the catalogs),
// the words for a value come from the catalogs (web/i18n/), else the value.

import { escapeHtml } from "../table/cards.js";
import { hasTemplate, levelName, messageText } from "../table/messages.js";
import { formatNumber, has, t } from "../i18n/i18n.js";
import { DEFAULT_GAME } from "../table/core.js";

// Words for option values (catalog keys), where a value is not a plain number.
const VALUE_WORDS = {
  faces: { QJK: "start.value.faces.QJK", JQK: "start.value.faces.JQK" },
  capture: { optional: "start.value.capture.optional", compulsory: "start.value.capture.compulsory" },
  match: { 1: "start.value.match.1", 3: "start.value.match.3", 5: "start.value.match.5" },
};
const PLAYER_WORDS = { 2: "start.players.2", 4: "start.players.4" };

// A game's name in the page's language (start.game.<game>), else its name.
const gameLabel = (game) => (has(`start.game.${game}`) ? t(`start.game.${game}`) : game);

function optionLabel(opt) {
  return hasTemplate(opt.code) ? messageText({ code: opt.code, params: {} }) : opt.name.replace(/_/g, " ");
}

function valueLabel(opt, value) {
  const own = VALUE_WORDS[opt.name] && VALUE_WORDS[opt.name][value];
  if (own) return t(own);
  return typeof value === "number" ? formatNumber(value) : String(value);
}

// Seven Diamonds' timers (seconds to call, to lay a card). Off unless the
// player turns them on (WCAG 2.2.1); the engine's own default is the second.
const TIMER_CHOICES = [
  { label: () => t("start.timers.off"), value: false },
  { label: () => t("start.timers.seconds", { call: 10, card: 12 }), value: { call: 10, card: 12 } },
  { label: () => t("start.timers.seconds", { call: 20, card: 24 }), value: { call: 20, card: 24 } },
  { label: () => t("start.timers.seconds", { call: 30, card: 40 }), value: { call: 30, card: 40 } },
  { label: () => t("start.timers.minute"), value: { call: 60, card: 60 } },
  { label: () => t("start.timers.short"), value: { call: 3, card: 3 } },
];

/** Fill a timers <select> with the choices (and `value` if it is none of them), `value` selected. */
export function fillTimersSelect(sel, value) {
  sel.textContent = "";
  let i = TIMER_CHOICES.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(value));
  if (i < 0 && value && typeof value === "object") {
    TIMER_CHOICES.push({ label: () => t("start.timers.seconds", { call: value.call, card: value.card }), value });
    i = TIMER_CHOICES.length - 1;
  }
  TIMER_CHOICES.forEach((c, k) => {
    const o = document.createElement("option");
    o.value = String(k);
    o.textContent = c.label();
    sel.append(o);
  });
  sel.value = String(Math.max(i, 0));
}

/** The timers a timers <select> holds: false or {call, card}. */
export function timersOf(sel) {
  return TIMER_CHOICES[Number(sel.value)].value;
}

function timersField(opt, value) {
  const label = document.createElement("label");
  label.className = "field";
  label.append(`${t("start.timers")} `);
  const sel = document.createElement("select");
  sel.name = opt.name;
  fillTimersSelect(sel, value);
  label.append(sel);
  return label;
}

export class StartForm {
  constructor(form, desc) {
    this.form = form;
    this.desc = desc;
    this.build();
    form.addEventListener("change", (e) => {
      if (e.target.name === "game") this.fillPlayers(this.game().players.includes(this.players()) ? this.players() : null);
      if (e.target.name === "players" || e.target.name === "game") this.fillLevels(null);
      if (e.target.name === "game") this.fillRules(null);
      this.sync();
    });
  }

  game() {
    const name = this.form.querySelector('input[name="game"]:checked');
    return this.desc.games.find((g) => g.game === (name ? name.value : DEFAULT_GAME)) || this.desc.games[0];
  }

  build() {
    const f = this.form;
    const games = f.querySelector(".games");
    games.querySelectorAll("label").forEach((l) => l.remove());
    for (const g of this.desc.games) {
      const label = document.createElement("label");
      label.className = "choice";
      label.innerHTML = `<input type="radio" name="game" value="${escapeHtml(g.game)}"${g.available ? "" : " disabled"}> ${escapeHtml(gameLabel(g.game))}${g.available ? "" : ` <small>${escapeHtml(t("start.coming_soon"))}</small>`}`;
      games.append(label);
    }
    const first = this.desc.games.find((g) => g.available);
    f.querySelector(`input[name="game"][value="${first.game}"]`).checked = true;
    this.fillPlayers(null);
    this.fillLevels(null);
    this.fillRules(null);
    this.sync();
  }

  fillPlayers(value) {
    const box = this.form.querySelector(".players");
    box.querySelectorAll("label").forEach((l) => l.remove());
    const counts = this.game().players;
    for (const n of counts) {
      const label = document.createElement("label");
      label.className = "choice";
      label.innerHTML = `<input type="radio" name="players" value="${n}"> ${escapeHtml(PLAYER_WORDS[n] ? t(PLAYER_WORDS[n]) : t("start.players.n", { count: n }))}`;
      box.append(label);
    }
    const v = counts.includes(value) ? value : counts[0];
    this.form.querySelector(`input[name="players"][value="${v}"]`).checked = true;
  }

  players() {
    return Number(this.form.querySelector('input[name="players"]:checked').value);
  }

  fillLevels(seats) {
    // Every seat: a person on this device (pass-and-play) or a computer at a level.
    const box = this.form.querySelector(".levels");
    box.querySelectorAll("label").forEach((l) => l.remove());
    const legend = box.querySelector("legend");
    if (legend) legend.textContent = t("start.seats");
    const players = this.players();
    const names = players === 2 ? { 0: t("start.seat.you"), 1: t("start.seat.opponent") }
      : { 0: t("start.seat.you"), 1: t("start.seat.right"), 2: t("start.seat.partner"), 3: t("start.seat.left") };
    for (let seat = 0; seat < players; seat++) {
      const label = document.createElement("label");
      label.className = "field";
      label.append(`${names[seat] || t("start.seat.n", { number: seat + 1 })} `);
      const sel = document.createElement("select");
      sel.name = `level-${seat}`;
      const person = document.createElement("option");
      person.value = "human";
      person.textContent = seat === 0 ? t("start.person.you") : t("start.person.other");
      sel.append(person);
      for (const lvl of this.desc.levels) {
        const o = document.createElement("option");
        o.value = lvl;
        o.textContent = t("start.computer", { level: levelName(lvl) });
        sel.append(o);
      }
      const s = seats && seats[seat];
      const fallback = seat === 0 ? "human" : this.desc.levels.includes("medium") ? "medium" : this.desc.levels[0];
      const want = s ? (s.kind === "human" ? "human" : s.level) : fallback;
      sel.value = want === "human" || this.desc.levels.includes(want) ? want : fallback;
      label.append(sel);
      box.append(label);
    }
  }

  fillRules(options) {
    const box = this.form.querySelector(".rules");
    box.querySelectorAll(".field, .check:not(.coach-option)").forEach((l) => l.remove());
    this.options = this.game().options.filter((o) => o.name !== "players");
    for (const opt of this.options) {
      const value = options && opt.name in options ? options[opt.name] : opt.default;
      let label;
      if (opt.kind === "timers") {
        label = timersField(opt, options && opt.name in options ? value : false);
      } else if (typeof opt.default === "boolean") {
        label = document.createElement("label");
        label.className = "check";
        label.innerHTML = `<input type="checkbox" name="${escapeHtml(opt.name)}"> ${escapeHtml(optionLabel(opt))}`;
        label.querySelector("input").checked = !!value;
      } else if (Array.isArray(opt.choices)) {
        label = document.createElement("label");
        label.className = "field";
        label.append(`${optionLabel(opt)} `);
        const sel = document.createElement("select");
        sel.name = opt.name;
        opt.choices.forEach((c, i) => {
          const o = document.createElement("option");
          o.value = String(c);
          o.dataset.index = i;
          o.textContent = valueLabel(opt, c);
          sel.append(o);
        });
        sel.value = String(opt.choices.includes(value) ? value : opt.default);
        label.append(sel);
      } else {
        label = document.createElement("label");
        label.className = "field";
        label.append(`${optionLabel(opt)} `);
        const input = document.createElement("input");
        input.type = typeof opt.default === "number" ? "number" : "text";
        input.name = opt.name;
        if (opt.min !== null && opt.min !== undefined) input.min = opt.min;
        if (opt.max !== null && opt.max !== undefined) input.max = opt.max;
        input.value = value;
        label.append(input);
      }
      label.dataset.option = opt.name;
      box.insertBefore(label, box.querySelector(".coach-option"));
    }
  }

  /** The value of one option as the form holds it (typed like its default). */
  value(opt) {
    const el = this.form.elements[opt.name];
    if (opt.kind === "timers") return timersOf(el);
    if (typeof opt.default === "boolean") return el.checked;
    if (Array.isArray(opt.choices)) return opt.choices[Number(el.selectedOptions[0].dataset.index)];
    return typeof opt.default === "number" ? Number(el.value) : el.value;
  }

  /** Options whose `requires` (from Python) is not met are disabled and not sent. */
  sync() {
    for (const opt of this.options) {
      const req = opt.requires;
      const met = !req || Object.entries(req).every(([name, want]) => {
        const other = this.options.find((o) => o.name === name);
        return !other || this.value(other) === want;
      });
      const el = this.form.elements[opt.name];
      el.disabled = !met;
      el.closest("label").classList.toggle("unmet", !met);
    }
  }

  /** Put the settings of a game into the form. */
  load(settings) {
    if (!settings) return;
    const g = this.desc.games.find((x) => x.game === settings.game && x.available);
    if (g) this.form.querySelector(`input[name="game"][value="${g.game}"]`).checked = true;
    const o = settings.options || {};
    this.fillPlayers(o.players);
    this.fillLevels(settings.seats);
    this.fillRules(o);
    this.form.elements.coach.checked = settings.coach === true;
    this.sync();
  }

  read() {
    const players = this.players();
    const options = { players };
    for (const opt of this.options) {
      if (!this.form.elements[opt.name].disabled) options[opt.name] = this.value(opt);
    }
    const seats = [];
    for (let s = 0; s < players; s++) {
      const v = this.form.elements[`level-${s}`].value;
      seats.push(v === "human" ? { kind: "human" } : { kind: "computer", level: v });
    }
    return { game: this.game().game, options, seats, coach: this.form.elements.coach.checked };
  }
}
