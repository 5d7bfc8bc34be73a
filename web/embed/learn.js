// learn.html: the rule tutorial, built from lessons/*.json (data an author
// adds without code; docs/links.md). Each step is a position, a sentence and
// a question: make the move. A wrong move gets the engine's reason and the
// hint, a right one moves on. Progress is kept in storage when there is any
// (the page works the same without it). Each step is also an embed link.

import { loadPython, store } from "./python.js";
import { py, FacadeError } from "../shell/py.js";
import { mount } from "../table/core.js";
import { setTemplates } from "../table/messages.js";
import { iframeSnippet } from "../shell/share.js";
import { initI18n } from "../i18n/i18n.js";

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

function drawNav() {
  const ol = $(".learn-lessons");
  ol.replaceChildren();
  learn.lessons.forEach((l, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn small";
    const done = l.steps.filter((s) => learn.done.has(`${l.id}/${s.id}`)).length;
    b.textContent = `${l.title} (${done}/${l.steps.length})`;
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
  $(".learn-title").textContent = lesson.title;
  $(".learn-progress").textContent =
    `Step ${si + 1} of ${lesson.steps.length} \u00b7 ${learn.done.size} of ${total()} steps done`;
  $(".learn-step-text").textContent = step.text;
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
  $(".learn-embed").value = iframeSnippet(url, `Chkobba lesson: ${lesson.title}`);
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
    if (err instanceof FacadeError) { verdict(`\u2717 ${esc(err.message)}`, "wrong"); return; }
    throw err;
  }
  if (r.right) {
    learn.solved = true;
    learn.done.add(key(learn.lesson, learn.step));
    saveProgress();
    drawNav();
    verdict(`\u2713 ${esc(r.text)}. <button type="button" class="btn small primary" id="learn-on">Next step</button>`, "right");
    $("#learn-on").addEventListener("click", next);
    $("#learn-on").focus();
    $(".learn-progress").textContent =
      `Step ${learn.step + 1} of ${lesson.steps.length} \u00b7 ${learn.done.size} of ${total()} steps done`;
    if (learn.view && learn.view.showMessage) learn.view.showMessage(null);
  } else {
    const hint = r.hint ? `<span class="why">Hint: ${esc(r.hint)}</span>` : "";
    verdict(`\u2717 Not this one: ${esc(r.text)}.${hint}`, "wrong");
  }
}

function next() {
  const l = learn.lessons[learn.lesson];
  if (learn.step + 1 < l.steps.length) show(learn.lesson, learn.step + 1);
  else if (learn.lesson + 1 < learn.lessons.length) show(learn.lesson + 1, 0);
  else verdict("That was the last step: you know the rules. <a href=\"./\">Play a game</a>.", "right");
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

function goTo(want) {
  let li = 0, si = 0;
  learn.lessons.forEach((l, i) => l.steps.forEach((s, j) => { if (`${l.id}/${s.id}` === want) { li = i; si = j; } }));
  if (learn.lessons.length) show(li, si);
}

async function boot() {
  await initI18n();   // the catalogs before any text is drawn (card names, announcements)
  $("#learn-next").addEventListener("click", next);
  $("#learn-prev").addEventListener("click", prev);
  $("#learn-hint").addEventListener("click", () => {
    const s = current();
    if (s) verdict(`Hint: ${esc(s.hint)}`, "hint");
  });
  const at = loadProgress();
  const index = await (await fetch("lessons/index.json")).json();
  const files = await Promise.all(index.lessons.map((f) => fetch(`lessons/${encodeURIComponent(f)}`).then((r) => r.json())));
  await loadPython();
  setTemplates(py("messages").messages);
  for (const data of files) {
    try {
      learn.lessons.push(py("lesson_open", { lesson: data }));
    } catch (err) {
      const m = $(".embed-msg");
      m.textContent = `A lesson could not be read: ${err.message}`;
      m.hidden = false;
    }
  }
  goTo(wanted() || at);
  window.addEventListener("hashchange", () => goTo(wanted()));
  document.body.dataset.state = "ready";
}

boot().catch(() => {
  const m = $(".embed-msg");
  m.textContent = "The lessons could not be loaded.";
  m.hidden = false;
  document.body.dataset.state = "error";
});
