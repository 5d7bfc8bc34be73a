// What the page keeps in the browser: the save of the game in progress and
// the one before it (the same game one move earlier: a damaged latest save
// resumes from it), the last settings the player chose (kept apart from the
// save, so a damaged save never loses them), the last few damaged saves, and
// the pace.

export const SAVE_KEY = "chkobba.save.v1";
export const PREVIOUS_KEY = "chkobba.save.previous.v1";
export const SETTINGS_KEY = "chkobba.settings.v1";
export const DAMAGED_KEY = "chkobba.damaged.v1";
export const PACE_KEY = "chkobba.pace";
export const DAMAGED_KEEP = 3;

function get(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }
}

function set(key, value) {
  localStorage.setItem(key, value);
}

export function loadSaveText() {
  return get(SAVE_KEY);
}

/** The save before the latest one (the same game, a move earlier), or null. */
export function loadPreviousSaveText() {
  return get(PREVIOUS_KEY);
}

function parsed(text) {
  try {
    const v = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch (e) {
    return null;
  }
}

/** Two saves of one game: the same game, seed and seats (only the record grows). */
export function sameGame(a, b) {
  if (!a || !b) return false;
  const game = (s) => (s.record && typeof s.record === "object" ? s.record.game : undefined);
  return a.seed === b.seed && game(a) === game(b) && JSON.stringify(a.seats) === JSON.stringify(b.seats);
}

/**
 * The latest save becomes the previous one if it is a readable save of the
 * same game as `save` (else there is no previous: a new game starts afresh).
 */
function keepPrevious(save) {
  const text = get(SAVE_KEY);
  const old = text === null ? null : parsed(text);
  try {
    if (old && sameGame(old, save)) set(PREVIOUS_KEY, text);
    else localStorage.removeItem(PREVIOUS_KEY);
  } catch (e) { /* storage full: the latest save matters more */ }
}

/** The previous save becomes the latest (after the latest was found damaged). */
export function restorePrevious() {
  const text = get(PREVIOUS_KEY);
  if (text === null) return;
  set(SAVE_KEY, text);
  try { localStorage.removeItem(PREVIOUS_KEY); } catch (e) { /* nothing to do */ }
}

// Shared with web/update.js (branch site), which asks the same once: the
// first to ask marks it, the other then leaves it.
export const PERSIST_ASKED = "chkobba.persist-asked";
export const persistence = { asked: false, granted: null };

/** Write the save; once a game is saved, ask (once) that the browser keeps our storage. */
export function writeSave(save) {
  const text = JSON.stringify(save);
  if (get(SAVE_KEY) !== text) keepPrevious(save);
  set(SAVE_KEY, text);
  if (persistence.asked || !(navigator.storage && navigator.storage.persist)) return;
  persistence.asked = true;
  try {
    if (get(PERSIST_ASKED)) return;
    set(PERSIST_ASKED, "1");
  } catch (e) {
    return;
  }
  navigator.storage.persist().then((g) => { persistence.granted = g; }, () => { persistence.granted = false; });
}

export function clearSave() {
  try { localStorage.removeItem(SAVE_KEY); } catch (e) { /* nothing to do */ }
  try { localStorage.removeItem(PREVIOUS_KEY); } catch (e) { /* nothing to do */ }
}

export function loadSettings() {
  try {
    const s = JSON.parse(get(SETTINGS_KEY));
    return s && typeof s === "object" && !Array.isArray(s) ? s : null;
  } catch (e) {
    return null;
  }
}

export function writeSettings(settings) {
  try { set(SETTINGS_KEY, JSON.stringify(settings)); } catch (e) { /* storage full: not fatal */ }
}

/** The damaged saves kept, oldest first: [{at, text, reason}]. */
export function damagedSaves() {
  try {
    const list = JSON.parse(get(DAMAGED_KEY));
    return Array.isArray(list) ? list : [];
  } catch (e) {
    return [];
  }
}

/** Keep a damaged save aside (the last DAMAGED_KEEP of them). */
export function keepDamaged(text, reason) {
  const list = damagedSaves();
  list.push({ at: new Date().toISOString(), text, reason });
  while (list.length > DAMAGED_KEEP) list.shift();
  try {
    set(DAMAGED_KEY, JSON.stringify(list));
  } catch (e) {
    // Storage full: keep at least the newest.
    try { set(DAMAGED_KEY, JSON.stringify(list.slice(-1))); } catch (e2) { /* give up quietly */ }
  }
  return list;
}

/** How long each computer move stays on the table before the next, by the chosen pace. */
export const PACE_MS = { slow: 2600, normal: 1500, fast: 700, instant: 0 };

export function loadPace(valid = Object.keys(PACE_MS)) {
  const p = get(PACE_KEY);
  return valid.includes(p) ? p : "normal";
}

export function writePace(p) {
  try { set(PACE_KEY, p); } catch (e) { /* not fatal */ }
}
