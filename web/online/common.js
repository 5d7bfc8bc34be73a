// What every part of the online page shares (design in docs/online.md): its
// elements, storage, the settings and consent of play over the internet, the
// links and their QR codes, the state of the host and of the friend, and the
// one way to the page's Python (chkobba.online.page, a checked edge: JSON in,
// JSON out, a refusal as FacadeError).

import { t } from "../i18n/i18n.js";
import { FacadeError, pyImport, timed } from "../shell/py.js";
import { DEFAULT_RELAYS, DEFAULT_STUN } from "./relays.js";


export const $ = (id) => document.getElementById(id);
export const root = document.documentElement;
export const GIVE_UP_MS = 20_000;          // from the answer's use to an open channel
export const WAIT_FOR_HOST_MS = 300_000;   // a friend's answer waits this long for the host to open it
// Until a friend sits, its page may be busy starting its Python (long tasks on a
// slow phone, no heartbeat meanwhile): neither side counts the other gone before this.
export const STARTING_SILENT_MS = 60_000;
export const HOST_KEY = "chkobba.online.host";
export const guestKey = (table, seat) => `chkobba.online.guest.${table}.${seat}`;
export const CHANNEL = "chkobba-online";
const SETTINGS_KEY = "chkobba.online.settings";
export const agreedKey = (table, seat) => `chkobba.online.agreed.${table}.${seat}`;   // sessionStorage: a reload asks no more
let signalModule = null;
export const signals = () => { if (!signalModule) signalModule = import("./signal.js"); return signalModule; };

// For the e2e tests and the curious: what this page did and received.
export const online = { role: null, received: [], events: [], peers: new Map(), table: null, latencies: [], refusals: 0,
                 reactions: [], summaries: [], computerMoves: [], saves: 0, draws: 0, notes: [], got: 0 };   // [slices, ms] of each computer move the host's page thought
window.chkobbaOnline = online;

export function status(text) {
  const p = $("online-status");
  p.textContent = text || "";
  p.hidden = !text;
}

export function store(key, value) {
  try {
    if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
  } catch { /* private mode: nothing kept */ }
}
export function load(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

// ---------------------------------------------------------------- the player's name

// A short name, kept on this phone and shown at its seat on every phone. The
// same rule as chkobba/online/wire.py valid_name (the host checks it again):
// at most 16 letters of any script (with their marks), digits, spaces or
// - ' . _ ; so no control, bidi, zero-width or markup character. "" is none.
const NAME_KEY = "chkobba.online.name";
export const MAX_NAME = 16;
const NAME_CHARS = /^[\p{L}\p{Mn}\p{Mc}\p{Nd} '._-]*$/u;

/** The name as typed, spaces trimmed and runs of them made one; null when the table would refuse it. */
export function cleanName(text) {
  const name = String(text ?? "").replace(/\s+/gu, " ").trim();
  return [...name].length <= MAX_NAME && NAME_CHARS.test(name) ? name : null;
}

/** A name from outside (another phone's), isolated so that it reads its own way in any page: FSI ... PDI. */
export const isolate = (name) => `\u2068${name}\u2069`;

/** This phone's kept name ("" for none, or for a kept one the rule refuses). */
export function loadName() {
  return cleanName(load(NAME_KEY)) ?? "";
}

/** A name field: filled with the kept name; each change checked and kept, or its note says why not. */
export function setupNameField(input, note) {
  input.value = loadName();
  input.maxLength = 4 * MAX_NAME;   // pasted spaces are trimmed before the rule counts
  const check = () => {
    const name = cleanName(input.value);
    note.textContent = name === null ? t("online.name_bad") : "";
    note.hidden = name !== null;
    input.setAttribute("aria-invalid", String(name === null));
    if (name !== null) store(NAME_KEY, name || null);
    return name;
  };
  input.addEventListener("input", check);
  input.addEventListener("change", () => { const name = check(); if (name) input.value = name; });
  return check;
}

export function hex(bytes) {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------- over the internet: settings, consent

/** The player's relays, STUN servers and own TURN server (the site's defaults until changed). */
export function netSettings() {
  let saved = {};
  try { saved = JSON.parse(load(SETTINGS_KEY)) || {}; } catch { saved = {}; }
  return { relays: Array.isArray(saved.relays) ? saved.relays : DEFAULT_RELAYS,
           stun: Array.isArray(saved.stun) ? saved.stun : DEFAULT_STUN,
           turn: saved.turn && saved.turn.urls ? saved.turn : null };
}

export function iceServersOf(net) {
  const out = [];
  if (net.stun.length) out.push({ urls: net.stun });
  if (net.turn) out.push({ urls: net.turn.urls, username: net.turn.username || undefined, credential: net.turn.credential || undefined });
  return out;
}

export function fillSettingsForm() {
  const f = $("setup-form").elements;
  const net = netSettings();
  f.relays.value = net.relays.join("\n");
  f.stun.value = net.stun.join("\n");
  f.turn.value = net.turn ? net.turn.urls : "";
  f.turn_user.value = net.turn ? net.turn.username || "" : "";
  f.turn_pass.value = net.turn ? net.turn.credential || "" : "";
}

/** The settings as typed: kept, or one plain error (and nothing kept). */
export async function readSettingsForm() {
  const f = $("setup-form").elements;
  const { parseRelays } = await signals();
  const note = $("setup-form").querySelector(".settings-note");
  try {
    const relays = parseRelays(f.relays.value);
    const stun = f.stun.value.split(/[\s,]+/).filter(Boolean);
    const bad = stun.find((u) => !/^stuns?:[^\s]+$/.test(u));
    if (bad) throw new Error(bad);
    const turnUrl = f.turn.value.trim();
    if (turnUrl && !/^turns?:[^\s]+$/.test(turnUrl)) throw new Error(turnUrl);
    if (!relays.length) throw new Error("-");
    const turn = turnUrl ? { urls: turnUrl, username: f.turn_user.value, credential: f.turn_pass.value } : null;
    store(SETTINGS_KEY, JSON.stringify({ relays, stun, turn }));
    note.textContent = "";
    return { relays, stun, turn };
  } catch (e) {
    note.textContent = t("online.settings.bad", { text: e.message });
    $("setup-form").querySelector(".net-settings").open = true;
    return null;
  }
}

/** The notice before the first request leaves this page's origin: each server and what it sees. */
export function askConsent(relays, net) {
  const list = $("consent").querySelector(".consent-list");
  list.replaceChildren();
  const item = (key, url) => {
    const li = document.createElement("li");
    let name = url;
    try { name = new URL(url).host || url; } catch { /* stun:host:port */ }
    li.textContent = t(key, { host: name.replace(/^(stuns?|turns?):/, "") });
    list.append(li);
  };
  for (const r of relays) item("online.consent.relay", r);
  for (const u of net.stun) item("online.consent.stun", u);
  if (net.turn) item("online.consent.turn", net.turn.urls);
  const shown = ["setup", "resume", "finished", "join"].filter((id) => !$(id).hidden);
  for (const id of shown) $(id).hidden = true;
  $("consent").hidden = false;
  online.consent = "asked";
  return new Promise((resolve) => {
    const done = (yes) => {
      $("consent").hidden = true;
      $("consent-yes").onclick = null;
      $("consent-no").onclick = null;
      online.consent = yes ? "agreed" : "declined";
      if (!yes) for (const id of shown) $(id).hidden = false;
      resolve(yes);
    };
    $("consent-yes").onclick = () => done(true);
    $("consent-no").onclick = () => done(false);
    $("consent-yes").focus();
  });
}

export function relaysParam(relays) {
  const same = relays.length === DEFAULT_RELAYS.length && relays.every((r, i) => r === DEFAULT_RELAYS[i]);
  if (same) return {};
  const bytes = new TextEncoder().encode(JSON.stringify(relays));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return { relays: btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") };
}

export async function relaysOfLink(text) {
  if (!text) return DEFAULT_RELAYS;
  const { parseRelays } = await signals();
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const list = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  if (!Array.isArray(list) || !list.length || list.length > 8) throw new Error("relays");
  return parseRelays(list.join("\n"));
}

// The invite module with its QR encoder: loaded only here, when an
// invitation is shown (never on the table page's first visit).
let inviteModule = null;
export function invite() {
  if (!inviteModule) inviteModule = import("./invite.js");
  return inviteModule;
}

/** A link to send: the system's share sheet where there is one, else copy; and its QR code. */
export async function showLink(box, link, { label }) {
  const { qrSvg } = await invite();
  box.replaceChildren();
  const field = document.createElement("input");
  field.type = "text";
  field.readOnly = true;
  field.value = link;
  field.className = "invite-link";
  field.setAttribute("aria-label", label);
  const row = document.createElement("p");
  row.className = "invite-actions";
  const send = document.createElement("button");
  send.type = "button";
  send.className = "btn primary invite-send";
  send.textContent = navigator.share ? t("online.share") : t("online.copy");
  send.addEventListener("click", async () => {
    if (navigator.share) {
      try { await navigator.share({ url: link }); return; } catch { /* cancelled: copy instead */ }
    }
    try {
      await navigator.clipboard.writeText(link);
      send.textContent = t("online.copied");
    } catch {
      field.select();
    }
  });
  row.append(send);
  const figure = document.createElement("figure");
  figure.className = "invite-qr";
  const { svg } = qrSvg(link);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("online.qr_label"));
  figure.append(svg);
  box.append(field, row, figure);
}

export function facadeMessage(msg) {
  return { code: msg.code || null, params: msg.params || {}, error: msg.error || "" };
}

// ---------------------------------------------------------------- the page's Python

let edgeCall = null;

/**
 * One call of the online page's edge (chkobba/online/page.py): its answer,
 * or a FacadeError in the engine's words. Python must be started.
 */
export function py(name, args = {}) {
  if (!edgeCall) edgeCall = pyImport("chkobba.online.page").call;
  const answer = timed(name, () => JSON.parse(edgeCall(name, JSON.stringify(args))));
  if ("error" in answer) throw new FacadeError(answer);
  return answer.ok;
}

/** A host's call: its clock is the page's (seconds). */
export const hostPy = (name, args = {}) => py(`host_${name}`, { ...args, now: performance.now() / 1000 });
/** A friend's call. */
export const guestPy = (name, args = {}) => py(`guest_${name}`, args);

// ---------------------------------------------------------------- the host's and the friend's state

export const host = { ready: false, id: null, seats: null, invites: new Map(), nextPeer: 1, last: null, net: null, reacted: null,
                      thinking: false };
export const friend = { ready: false, peer: null, seat: null, table: null, presence: null, answer: null, net: null, signal: null };
