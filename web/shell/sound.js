// Sound and touch: short sounds made here with the Web Audio API (no audio
// files, nothing to download) and a short vibration on your turn where the
// phone has one (navigator.vibrate).
//
// - Quiet by default: sound is off until the player turns it on with the
//   switch under the table (beside Share); the choice is remembered across visits
//   (localStorage["chkobba.sound"] = "on" | "off", like "chkobba.pace").
// - Nothing before the page's first tap (autoplay rules): the AudioContext is
//   created, or resumed, only inside a user gesture (a tap, a click or a key
//   that the page receives), and only when sound is on.
// - Nothing while the page is hidden (another tab, the phone's screen off).
// - The sounds say what the table shows (`soundsFor`): a card laid, a
//   capture, a chkobba (its own, brighter), your turn, a call in Seven
//   Diamonds (double, triple), the last seconds of a timer, a round won or
//   lost. The page decides nothing here: every fact comes from the facade's
//   state (the last move, whose turn, the score sheet).

import { t } from "../i18n/i18n.js";

export const SOUND_KEY = "chkobba.sound";
const VOLUME = 0.18;          // quiet: the master gain of every sound
const VIBRATE_MS = 60;

/** Every sound played (names, newest last), for the tests and for debugging. */
export const log = [];

let ctx = null;
let master = null;
let on = readOn();

function readOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

export function soundOn() {
  return on;
}

/** Turn sound on or off (remembered). Called from the switch, inside a gesture. */
export function setSoundOn(value) {
  on = !!value;
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* storage off: this visit only */ }
  if (on) unlock();
  else if (ctx && ctx.state === "running") ctx.suspend().catch(() => {});
}

/** The AudioContext, made or resumed: only ever called from a user gesture. */
function unlock() {
  if (!on) return;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return;
  if (!ctx) {
    try {
      ctx = new AC();
    } catch {
      return;
    }
    master = ctx.createGain();
    master.gain.value = VOLUME;
    master.connect(ctx.destination);
  }
  if (ctx.state !== "running") ctx.resume().catch(() => {});
}

let listening = false;
/** Listen for the page's gestures (once per page): each may unlock the audio. */
export function listenForGestures(target = window) {
  if (listening) return;
  listening = true;
  for (const type of ["pointerdown", "keydown", "touchend"]) {
    target.addEventListener(type, (e) => { if (e.isTrusted) unlock(); }, { capture: true, passive: true });
  }
}

// ------------------------------------------------------------------ sounds

/** One note: an oscillator shaped by a short envelope, `at` seconds from now. */
function note(freq, at, dur, { type = "sine", gain = 1, glide = 0 } = {}) {
  const t0 = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const env = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t0);
  if (glide) osc.frequency.exponentialRampToValueAtTime(freq * glide, t0 + dur);
  env.gain.setValueAtTime(0.0001, t0);
  env.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
  env.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(env).connect(master);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

/** A soft filtered noise burst: a card put down on the cloth. */
function swish(at, dur, freq, gain) {
  const t0 = ctx.currentTime + at;
  const n = Math.max(1, Math.floor(ctx.sampleRate * dur));
  const buf = ctx.createBuffer(1, n, ctx.sampleRate);
  const data = buf.getChannelData(0);
  let seed = 12345;   // the same sound every time (no Math.random)
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = ((seed / 0x7fffffff) * 2 - 1) * (1 - i / n) ** 2;
  }
  const src = ctx.createBufferSource();
  src.buffer = buf;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = 0.8;
  const env = ctx.createGain();
  env.gain.value = gain;
  src.connect(filter).connect(env).connect(master);
  src.start(t0);
}

const SOUNDS = {
  card: () => swish(0, 0.09, 1800, 1.4),
  capture: () => { swish(0, 0.07, 1500, 1.1); note(660, 0.05, 0.12, { type: "triangle", gain: 0.5 }); note(880, 0.12, 0.16, { type: "triangle", gain: 0.5 }); },
  sweep: () => {   // a chkobba: the table swept
    swish(0, 0.07, 1500, 1.1);
    [523, 659, 784, 1047].forEach((f, i) => note(f, 0.05 + i * 0.07, 0.22, { type: "triangle", gain: 0.6 }));
    note(1568, 0.36, 0.35, { gain: 0.25 });
  },
  turn: () => note(988, 0, 0.25, { gain: 0.35 }),
  call: () => { note(392, 0, 0.16, { type: "square", gain: 0.12 }); note(523, 0.14, 0.24, { type: "square", gain: 0.12 }); },
  timer: () => note(1200, 0, 0.06, { type: "square", gain: 0.1 }),
  won: () => [523, 659, 784, 1047].forEach((f, i) => note(f, i * 0.11, 0.3, { type: "triangle", gain: 0.5 })),
  lost: () => { note(440, 0, 0.3, { type: "triangle", gain: 0.45 }); note(349, 0.22, 0.45, { type: "triangle", gain: 0.45, glide: 0.94 }); },
};

/** Play a named sound now (`card`, `capture`, `sweep`, `turn`, `call`,
 * `timer`, `won`, `lost`), unless sound is off, the page is hidden or no
 * gesture has unlocked the audio yet. */
export function play(name) {
  if (!on || document.hidden || !ctx || ctx.state !== "running" || !SOUNDS[name]) return false;
  SOUNDS[name]();
  log.push(name);
  if (log.length > 100) log.shift();
  return true;
}

/** A short vibration (your turn), where the phone has one and sound is on. */
export function vibrate() {
  if (!on || document.hidden || typeof navigator.vibrate !== "function") return;
  try { navigator.vibrate(VIBRATE_MS); } catch { /* not allowed: nothing */ }
}

// ------------------------------------------------------- what the table says

function moveKey(st) {
  const v = st && st.view;
  return v ? `${v.round_index}/${Array.isArray(v.history) ? v.history.length : ""}/${v.last ? `${v.last.seat}/${v.last.action}` : ""}` : null;
}

function roundsOf(st) {
  if (st.sheet && Array.isArray(st.sheet.rounds)) return st.sheet.rounds.length;
  return st.view && Array.isArray(st.view.results) ? st.view.results.length : 0;
}

/**
 * The sounds a change of the table calls for, in order: the move just made
 * (from the facade's `view.last`), the round's end for your side, your turn.
 * `me` is your seat, `side(st, seat)` the side a seat plays for.
 */
export function soundsFor(before, st, me, side) {
  if (!before || !before.view || !st || !st.view) return [];
  const out = [];
  const last = st.view.last;
  if (last && moveKey(st) !== moveKey(before)) {
    if (last.chkobba) out.push("sweep");
    else if (last.kind === "capture" || last.kind === "claim") out.push("capture");
    else if (last.kind === "lay" || last.kind === "timeout") out.push("card");
    else if (last.kind === "double" || last.kind === "triple") out.push("call");
  }
  if (roundsOf(st) > roundsOf(before) && st.sheet && Array.isArray(st.sheet.rounds)) {
    const r = st.sheet.rounds[st.sheet.rounds.length - 1];
    const mine = side(st, me);
    if (r && Array.isArray(r.points) && mine !== null && mine !== undefined) {
      const other = r.points.length - 1 - mine;
      if (r.points[mine] > r.points[other]) out.push("won");
      else if (r.points[mine] < r.points[other]) out.push("lost");
    }
  } else if (st.to_act === me && st.to_act_kind !== "computer" && before.to_act !== me) {
    out.push("turn");
  }
  return out;
}

/** Play what a change of the table calls for (web/shell/moves.js calls this on every commit). */
export function onChange(before, st, me, side) {
  soundsFor(before, st, me, side).forEach((name, i) => {
    const go = () => { play(name); if (name === "turn") vibrate(); };
    if (i === 0) go(); else setTimeout(go, 220 * i);
  });
}

/** The last seconds of a timer (3, 2, 1): one tick each. */
export function onTimerSecond(left) {
  if (left > 0 && left <= 3) play("timer");
}

// ------------------------------------------------------------------ switch

const ICON_ON = '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M4 9v6h4l5 4V5L8 9H4z" fill="currentColor"/><path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';
const ICON_OFF = '<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path d="M4 9v6h4l5 4V5L8 9H4z" fill="currentColor"/><path d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>';

/** The sound switch: a toggle button (aria-pressed) put before `before`, or at the end of `parent`. */
export function mountSoundSwitch(parent, before = null) {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "sound";
  button.className = "btn small ghost sound-switch";
  const show = () => {
    button.setAttribute("aria-pressed", String(on));
    button.innerHTML = on ? ICON_ON : ICON_OFF;
    button.setAttribute("aria-label", t("sound.label"));
    button.title = t(on ? "sound.on" : "sound.off");
  };
  button.addEventListener("click", () => {
    setSoundOn(!on);
    show();
    if (on) setTimeout(() => play("turn"), 30);   // what it sounds like, at its volume
  });
  show();
  parent.insertBefore(button, before);
  return button;
}
