// What the page knows of each game, learnt from the facade's `describe`
// (chkobba/web/tables.py), never from a table of its own: its name, seats and
// options, whether it has a daily deal (`daily`), whether its statistics
// count chkobbas (`sweeps`) and its online turn timers (`timers`: seconds to
// call, to play). Only a game's renderer (web/table/<game>.js) names it.

import { py as facade } from "./py.js";
import { DEFAULT_GAME } from "../table/core.js";

let described = null;

/** The facade's `describe` (asked once: it does not change while the page lives);
 * from its `defaults` when the facade has no `describe`. Python must be ready. */
export function describeTables(py = facade) {
  if (described) return described;
  try {
    described = py("describe", {});
  } catch (e) {
    const d = py("defaults", {});
    const opts = Object.entries(d[DEFAULT_GAME]).map(([name, value]) => ({
      name, default: value, choices: typeof value === "boolean" ? null : [value], min: null, max: null, requires: null, code: null,
    }));
    described = {
      games: [{ game: DEFAULT_GAME, available: true, players: [2, 4], options: opts.filter((o) => o.name !== "players") }],
      levels: d.levels,
      seat_kinds: ["human", "computer"],
    };
  }
  return described;
}

/** Every game `describe` lists, in its order. */
export const allGames = (py = facade) => describeTables(py).games;

/** One game's facts from `describe`, or null for a game it does not list. */
export const gameFacts = (game, py = facade) => allGames(py).find((g) => g.game === game) || null;
