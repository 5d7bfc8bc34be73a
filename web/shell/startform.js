// The start form, built from the facade's `describe`: which games exist,
// how many players, the computer levels and every table option with its
// allowed values and what it depends on. Nothing here lists a choice by hand;
// the words for a value come from the message templates when the facade has
// them, else from the small table of plain words below (wording only).

import { escapeHtml } from "../table/cards.js";
import { hasTemplate, messageText } from "../table/messages.js";

// Words for option values, used only when the facade has no message for them.
const VALUE_WORDS = {
  faces: { QJK: "Q = 8, J = 9, K = 10", JQK: "J = 8, Q = 9, K = 10" },
  capture: { optional: "Optional: you may lay a card that could take", compulsory: "Compulsory: if your card can take, it must" },
  match: { 1: "A single game", 3: "Best of 3 games", 5: "Best of 5 games" },
};
const NAME_WORDS = {
  faces: "Face card values", capture: "Capturing", missed_capture: "The next player may claim a missed capture",
  last_card_sweep: "A sweep with the last card of the round counts as a chkobba",
  redeal: "Re-deal may be proposed when 3 or 4 table cards have the same value",
  all_diamonds_wins: "Taking all ten diamonds in a round wins the game", target: "Points to win a game", match: "Match",
};
const GAME_WORDS = { chkobba: "Chkobba", seven_diamonds: "Seven Diamonds" };
const PLAYER_WORDS = {
  2: "You against the computer (1 v 1)",
  4: "You and a computer partner against two computers (2 v 2)",
};

function words(code, fallback) {
  return hasTemplate(code) ? messageText({ code, params: {} }) : fallback;
}

function optionLabel(opt) {
  return words(opt.code, NAME_WORDS[opt.name] || opt.name.replace(/_/g, " "));
}

function valueLabel(opt, value) {
  const own = VALUE_WORDS[opt.name] && VALUE_WORDS[opt.name][value];
  return words(opt.code ? `${opt.code}.${value}` : "", own || String(value));
}

// Seven Diamonds' timers (seconds to call, to lay a card). Off unless the
// player turns them on (WCAG 2.2.1); the engine's own default is the second.
const TIMER_CHOICES = [
  { label: "Off (no time limit)", value: false },
  { label: "10 s to call, 12 s to play", value: { call: 10, card: 12 } },
  { label: "20 s to call, 24 s to play", value: { call: 20, card: 24 } },
  { label: "30 s to call, 40 s to play", value: { call: 30, card: 40 } },
  { label: "1 minute each", value: { call: 60, card: 60 } },
  { label: "Short: 3 s each", value: { call: 3, card: 3 } },
];

function timersField(opt, value) {
  const label = document.createElement("label");
  label.className = "field";
  label.append("Timers ");
  const sel = document.createElement("select");
  sel.name = opt.name;
  TIMER_CHOICES.forEach((c, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = c.label;
    sel.append(o);
  });
  let i = TIMER_CHOICES.findIndex((c) => JSON.stringify(c.value) === JSON.stringify(value));
  if (i < 0 && value && typeof value === "object") {
    const o = document.createElement("option");
    o.value = String(TIMER_CHOICES.length);
    o.textContent = `${value.call} s to call, ${value.card} s to play`;
    TIMER_CHOICES.push({ label: o.textContent, value });
    sel.append(o);
    i = TIMER_CHOICES.length - 1;
  }
  sel.value = String(Math.max(i, 0));
  label.append(sel);
  return label;
}

/** The description to build from: `describe` when the facade has it, else its `defaults`. */
export function describeTables(py) {
  try {
    return py("describe", {});
  } catch (e) {
    const d = py("defaults", {});
    const opts = Object.entries(d.chkobba).map(([name, value]) => ({
      name, default: value, choices: typeof value === "boolean" ? null : [value], min: null, max: null, requires: null, code: null,
    }));
    return {
      games: [{ game: "chkobba", available: true, players: [2, 4], options: opts.filter((o) => o.name !== "players") }],
      levels: d.levels,
      seat_kinds: ["human", "computer"],
    };
  }
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
    return this.desc.games.find((g) => g.game === (name ? name.value : "chkobba")) || this.desc.games[0];
  }

  build() {
    const f = this.form;
    const games = f.querySelector(".games");
    games.querySelectorAll("label").forEach((l) => l.remove());
    for (const g of this.desc.games) {
      const label = document.createElement("label");
      label.className = "choice";
      label.innerHTML = `<input type="radio" name="game" value="${escapeHtml(g.game)}"${g.available ? "" : " disabled"}> ${escapeHtml(GAME_WORDS[g.game] || g.game)}${g.available ? "" : " <small>(coming soon)</small>"}`;
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
      label.innerHTML = `<input type="radio" name="players" value="${n}"> ${escapeHtml(PLAYER_WORDS[n] || `${n} players`)}`;
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
    if (legend) legend.textContent = "Seats (more than one person: pass the device between turns)";
    const players = this.players();
    const names = players === 2 ? { 0: "You", 1: "Opponent" }
      : { 0: "You", 1: "Opponent on your right", 2: "Your partner", 3: "Opponent on your left" };
    for (let seat = 0; seat < players; seat++) {
      const label = document.createElement("label");
      label.className = "field";
      label.append(`${names[seat] || `Seat ${seat + 1}`} `);
      const sel = document.createElement("select");
      sel.name = `level-${seat}`;
      const person = document.createElement("option");
      person.value = "human";
      person.textContent = seat === 0 ? "You (a person)" : "A person on this device";
      sel.append(person);
      for (const lvl of this.desc.levels) {
        const o = document.createElement("option");
        o.value = lvl;
        o.textContent = `Computer: ${lvl}`;
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
    if (opt.kind === "timers") return TIMER_CHOICES[Number(el.value)].value;
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
