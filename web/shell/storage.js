// What the page keeps in the browser: the save of the game in progress, the
// last settings the player chose (kept apart from the save, so a damaged
// save never loses them), the last few damaged saves, and the pace.

export const SAVE_KEY = "chkobba.save.v1";
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

// Shared with web/update.js (branch site), which asks the same once: the
// first to ask marks it, the other then leaves it.
export const PERSIST_ASKED = "chkobba.persist-asked";
export const persistence = { asked: false, granted: null };

/** Write the save; once a game is saved, ask (once) that the browser keeps our storage. */
export function writeSave(save) {
  set(SAVE_KEY, JSON.stringify(save));
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

export function loadPace(valid) {
  const p = get(PACE_KEY);
  return valid.includes(p) ? p : "normal";
}

export function writePace(p) {
  try { set(PACE_KEY, p); } catch (e) { /* not fatal */ }
}
