// learn.html: the rule tutorial, built from lessons/*.json (data an author
// adds without code; docs/links.md). Each step is a position, a sentence and
// a question: make the move. A wrong move gets the engine's reason and the
// hint, a right one moves on. Progress is kept in storage when there is any
// (the page works the same without it). Each step is also an embed link.

import { loadPython, store } from "./python.js";
import { py, FacadeError } from "../shell/py.js";
import { mount } from "../table/core.js";
import { messageText } from "../table/messages.js";
import { has, initI18n, mountLanguagePicker, t, tHtml, translateDom } from "../i18n/i18n.js";
import { escapeHtml, mini } from "../table/cards.js";
import { iframeSnippet } from "../shell/share.js";

const PROGRESS_KEY = "chkobba.learn.v1";
const $ = (s) => document.querySelector(s);

const learn = { lessons: [], lesson: 0, step: 0, done: new Set(), view: null, solved: false };
window.chkobbaLearn = learn;      // for tests

function loadProgress() {
  try {
    const p = JSON.parse(store.get(PROGRESS_KEY) || "{}");
    if (Array.isArray(p.done)) learn.done = new Set(p.done.filter((x) => typeof x === "string"));
    return typeof p.at === "string" ? p.at : null;
  } catch {
    return null;
  }
}

function saveProgress() {
  const step = current();
  store.set(PROGRESS_KEY, JSON.stringify({ done: [...learn.done], at: step ? key(learn.lesson, learn.step) : null }));
}

function key(li, si) {
  const l = learn.lessons[li];
  return `${l.id}/${l.steps[si].id}`;
}

function current() {
  const l = learn.lessons[learn.lesson];
  return l ? l.steps[learn.step] : null;
}

// A lesson's texts in the page's language: its catalog key (lesson.<id>...),
// else the English the lesson file holds.
function said(key, english) {
  return typeof key === "string" && has(key) ? t(key) : english;
}

// A lesson sentence as players read it (HTML): authors write card codes (5H)
// and action texts (4Cx4H); readers see 5\u2665 and "4\u2663 takes 4\u2665",
// each card named for screen readers. (chkobba.links.lessons does the same
// for the English the facade sends.)
const CARD = "(?:10|[A2-9TJQK])[DHSC]";
// a claim ("claim 5Hx5S", in an isolate in Arabic) reads in the reader's words, isolate and all
const CAPTURE_TEXT = new RegExp(`(?:[\u2066-\u2068]?(claim) )?\\b(${CARD})x((?:${CARD})+)\\b`, "g");
const CARD_CODE = new RegExp(`\\b(${CARD})\\b`);   // split: odd parts are cards

function cardsHtml(text) {
  const code = (c) => (c.startsWith("10") ? `T${c[2]}` : c);
  const cards = (part) => part.split(CARD_CODE).map((p, i) => (i % 2 ? mini(code(p)) : escapeHtml(p))).join("");
  let out = "", at = 0;
  for (const m of text.matchAll(CAPTURE_TEXT)) {
    out += cards(text.slice(at, m.index));
    const taken = m[3].match(new RegExp(CARD, "g")).map((c) => mini(code(c))).join(" ");
    out += tHtml(m[1] ? "learn.claim" : "learn.capture", {}, { card: mini(code(m[2])), cards: taken });
    at = m.index + m[0].length;
    if (m[1] && /^[\u2066-\u2068]/.test(m[0]) && text[at] === "\u2069") at++;
  }
  return out + cards(text.slice(at));
}

function titleOf(l) {
  return said(l.title_key, l.title);
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function verdict(html, cls) {
  const v = $(".learn-verdict");
  v.className = `learn-verdict ${cls || ""}`;
  v.innerHTML = html;
  v.hidden = !html;
  document.body.dataset.verdict = cls || "";
}

function total() {
  return learn.lessons.reduce((n, l) => n + l.steps.length, 0);
}

// "12 of 22 steps done": the plural form follows the total (Arabic: «من 22 خطوة», «من 5 خطوات»).
function stepsDone() {
  return t("learn.steps_done", { done: learn.done.size, count: total() });
}

function drawNav() {
  const ol = $(".learn-lessons");
  ol.replaceChildren();
  learn.lessons.forEach((l, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small";
    const done = l.steps.filter((s) => learn.done.has(`${l.id}/${s.id}`)).length;
    b.textContent = t("learn.nav_item", { title: titleOf(l), done, count: l.steps.length });
    b.dir = "auto";   // a lesson not yet translated shows its English, left to right
    b.dataset.lesson = l.id;
    if (i === learn.lesson) b.setAttribute("aria-current", "true");
    b.addEventListener("click", () => show(i, 0));
    li.append(b);
    ol.append(li);
  });
}

function show(li, si) {
  learn.lesson = li;
  learn.step = si;
  learn.solved = false;
  const lesson = learn.lessons[li];
  const step = lesson.steps[si];
  if (learn.view) learn.view.destroy();
  drawNav();
  $(".learn-title").textContent = titleOf(lesson);
  $(".learn-progress").textContent =
    t("learn.progress", { step: si + 1, count: lesson.steps.length, done: stepsDone() });
  $(".learn-step-text").innerHTML = cardsHtml(said(step.text_key, step.text));
  verdict("", "");
  document.body.dataset.lesson = lesson.id;
  document.body.dataset.step = step.id;
  const el = $(".learn-table");
  const onAction = (action) => judge(action);
  learn.view = null;
  // Both games on the table component (each with its own renderer); the
  // cards that may be laid are not marked: finding them is the lesson.
  const table = mount(el, { state: null, onAction, logOpen: false, markPlayable: false });
  table.set({ state: step.state });
  learn.view = table;
  const url = new URL(`embed.html#${step.link}`, location.href).href;
  const a = $(".learn-embed-link");
  a.href = url;
  $(".learn-embed").value = iframeSnippet(url, t("learn.iframe_title", { title: titleOf(lesson) }));
  $("#learn-prev").disabled = li === 0 && si === 0;
  saveProgress();
}

function judge(action) {
  if (learn.solved) return;
  const lesson = learn.lessons[learn.lesson];
  const step = current();
  let r;
  try {
    r = py("lesson_judge", { lesson: lesson.id, step: step.id, move: action });
  } catch (err) {
    if (err instanceof FacadeError) { verdict(`\u2717 ${esc(messageText(err.msg))}`, "wrong"); return; }
    throw err;
  }
  if (r.right) {
    learn.solved = true;
    learn.done.add(key(learn.lesson, learn.step));
    saveProgress();
    drawNav();
    const text = messageText({ code: r.code, params: r.params, text: r.text });
    verdict(`\u2713 ${esc(t("embed.sentence", { text }))} <button type="button" class="btn small primary" id="learn-on">${esc(t("learn.next"))}</button>`, "right");
    $("#learn-on").addEventListener("click", next);
    $("#learn-on").focus();
    $(".learn-progress").textContent =
      t("learn.progress", { step: learn.step + 1, count: lesson.steps.length, done: stepsDone() });
    if (learn.view && learn.view.showMessage) learn.view.showMessage(null);
  } else {
    const hint = r.hint ? `<span class="why">${tHtml("learn.hint", {}, { hint: cardsHtml(said(step.hint_key, r.hint)) })}</span>` : "";
    verdict(`\u2717 ${esc(t("learn.not_this", { reason: messageText({ code: r.code, params: r.params, text: r.text }) }))}${hint}`, "wrong");
  }
}

function next() {
  const l = learn.lessons[learn.lesson];
  if (learn.step + 1 < l.steps.length) show(learn.lesson, learn.step + 1);
  else if (learn.lesson + 1 < learn.lessons.length) show(learn.lesson + 1, 0);
  else verdict(`${esc(t("learn.last_step"))} <a href="./">${esc(t("learn.play_game"))}</a>`, "right");
}

function prev() {
  if (learn.step > 0) show(learn.lesson, learn.step - 1);
  else if (learn.lesson > 0) show(learn.lesson - 1, learn.lessons[learn.lesson - 1].steps.length - 1);
}

/** "lesson/step" from the address (learn.html#captures/by_sum), else null. */
function wanted() {
  let hash = "";
  try { hash = decodeURIComponent(location.hash.slice(1)); } catch { return null; }
  return /^[\w-]+\/[\w-]+$/.test(hash) ? hash : null;
}

/**
 * Where a returning reader starts: the step they were on if they had not
 * finished it, else the next step not done yet (after it, then from the
 * start); the step itself when every step is done.
 */
export function resumeStep(steps, done, at) {
  const i = steps.indexOf(at);
  if (i < 0) return steps.find((s) => !done.has(s)) ?? at;
  if (!done.has(at)) return at;
  for (let k = 1; k < steps.length; k++) {
    const s = steps[(i + k) % steps.length];
    if (!done.has(s)) return s;
  }
  return at;
}

function goTo(want) {
  let li = 0, si = 0;
  learn.lessons.forEach((l, i) => l.steps.forEach((s, j) => { if (`${l.id}/${s.id}` === want) { li = i; si = j; } }));
  if (learn.lessons.length) show(li, si);
}

async function boot() {
  await initI18n();
  translateDom();
  mountLanguagePicker($(".bar-actions .lang-slot"), { reload: true });
  $("#learn-next").addEventListener("click", next);
  $("#learn-prev").addEventListener("click", prev);
  $("#learn-hint").addEventListener("click", () => {
    const s = current();
    if (s) verdict(tHtml("learn.hint", {}, { hint: cardsHtml(said(s.hint_key, s.hint)) }), "hint");
  });
  const at = loadProgress();
  const index = await (await fetch("lessons/index.json")).json();
  const files = await Promise.all(index.lessons.map((f) => fetch(`lessons/${encodeURIComponent(f)}`).then((r) => r.json())));
  await loadPython();
  for (const data of files) {
    try {
      learn.lessons.push(py("lesson_open", { lesson: data }));
    } catch (err) {
      const m = $(".embed-msg");
      m.textContent = t("learn.error.lesson", { reason: err.msg ? messageText(err.msg) : err.message });
      m.hidden = false;
    }
  }
  const all = learn.lessons.flatMap((l) => l.steps.map((s) => `${l.id}/${s.id}`));
  goTo(wanted() || resumeStep(all, learn.done, at));
  window.addEventListener("hashchange", () => goTo(wanted()));
  document.body.dataset.state = "ready";
}

boot().catch(() => {
  const m = $(".embed-msg");
  m.textContent = t("learn.error.load");
  m.hidden = false;
  document.body.dataset.state = "error";
});
