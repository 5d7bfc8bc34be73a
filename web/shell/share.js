// The Share dialog of the main table (issue 14): a link to the game so far
// (a replay), a link to the current position (play from here), and the
// <iframe> snippet of each; the system share sheet where there is one
// (phones). After each round, the summary offers "replay this round with
// every hand shown". The links are made by the facade (`share`, chkobba.links).

import { openDialog, closeDialog, setupDialog } from "./dialogs.js";
import { t } from "../i18n/i18n.js";
import { escapeHtml } from "../table/cards.js";
import { messageText } from "../table/messages.js";

const EMBED = "embed.html";

function embedUrl(link) {
  return new URL(`${EMBED}#${link}`, location.href).href;
}

// The frame fits its content at any width (issue 22): the embed posts its
// page's height ("chkobba:height", web/embed/embed.js) after every change, and
// the few words of script after the frame set the frame's height from it (only
// from that frame). Where a host strips scripts the frame keeps a height that
// shows a replay whole at 640 px wide; embed/host.js (docs/embeds.md) does the
// same fitting for pages with several tables.
export function iframeSnippet(url, title = t("share.iframe_title")) {
  return `<iframe src="${url}" title="${escapeHtml(title)}" sandbox="allow-scripts" loading="lazy" width="100%" height="800" style="display:block;border:0;max-width:640px"></iframe>` +
    `<script>(function(f){addEventListener("message",function(e){var d=e.data;` +
    `if(e.source===f.contentWindow&&d&&d.type==="chkobba:height"&&d.height>0&&d.height<20000)f.style.height=Math.ceil(d.height)+"px"})})(document.currentScript.previousElementSibling)</script>`;
}

function makeDialog() {
  const d = document.createElement("dialog");
  d.id = "share";
  d.className = "panel share";
  d.setAttribute("aria-labelledby", "share-title");
  d.innerHTML = `
    <div class="summary-box">
      <h2 id="share-title">${escapeHtml(t("share.button"))}</h2>
      <p class="share-error notice" role="alert" hidden></p>
      <div class="share-items"></div>
      <div class="form-actions">
        <button type="button" class="btn" id="share-system" hidden>${escapeHtml(t("share.system"))}</button>
        <button type="button" class="btn primary" id="share-close">${escapeHtml(t("share.close"))}</button>
      </div>
      <p class="share-copied" role="status" aria-live="polite"></p>
    </div>`;
  document.body.append(d);
  return d;
}

function item(label, value, key) {
  const row = document.createElement("div");
  row.className = "share-item";
  row.dataset.key = key;
  const id = `share-${key}`;
  row.innerHTML = `<label for="${id}"></label>
    <div class="share-row"><input id="${id}" readonly spellcheck="false">
    <button type="button" class="btn small" data-copy="${key}">${escapeHtml(t("share.copy"))}</button></div>`;
  row.querySelector("label").textContent = label;
  row.querySelector("input").value = value;
  return row;
}

async function copy(input, status) {
  input.select();
  let ok = false;
  try {
    await navigator.clipboard.writeText(input.value);
    ok = true;
  } catch {
    try { ok = document.execCommand("copy"); } catch { ok = false; }
  }
  status.textContent = ok ? t("share.copied") : t("share.copy_by_hand");
}

/** Wire the Share button (#share-button) of the main page. */
export function initShare({ getState, py }) {
  const button = document.getElementById("share-button");
  if (!button) return null;
  const dialog = makeDialog();
  const close = () => closeDialog(dialog);
  setupDialog(dialog, { onCancel: close });
  dialog.querySelector("#share-close").addEventListener("click", close);
  const status = dialog.querySelector(".share-copied");
  dialog.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-copy]");
    if (b) copy(dialog.querySelector(`#share-${b.dataset.copy}`), status);
  });
  let gameUrl = null;
  const system = dialog.querySelector("#share-system");
  system.addEventListener("click", () => {
    navigator.share({ title: t("share.system_title"), url: gameUrl }).catch(() => {});
  });
  button.addEventListener("click", () => {
    const st = getState();
    const items = dialog.querySelector(".share-items");
    const err = dialog.querySelector(".share-error");
    items.replaceChildren();
    status.textContent = "";
    err.hidden = true;
    if (!st || !st.save) return;
    let links;
    try {
      // only the game and the position are shown: last_round spares the
      // facade encoding the whole record once per round (issue 21, finding 1)
      links = py("share", { save: st.save, last_round: true });
    } catch (e) {
      err.textContent = t("share.error", { reason: e.msg ? messageText(e.msg) : e.message });
      err.hidden = false;
      openDialog(dialog, dialog.querySelector("#share-close"));
      return;
    }
    gameUrl = embedUrl(links.game);
    const posUrl = embedUrl(links.position);
    items.append(
      item(t("share.game"), gameUrl, "game"),
      item(t("share.position"), posUrl, "position"),
      item(t("share.iframe"), iframeSnippet(gameUrl), "iframe"),
    );
    system.hidden = typeof navigator.share !== "function";
    openDialog(dialog, dialog.querySelector('[data-copy="game"]'));
  });
  button.hidden = false;
  return dialog;
}

/** In the round summary: "Replay this round with every hand shown". */
export function appendRoundReplay(box, st, py) {
  if (!st || !st.save) return;
  let links;
  try {
    links = py("share", { save: st.save, last_round: true });
  } catch {
    return;
  }
  const link = links.rounds[links.rounds.length - 1];
  if (link) appendReplayLink(box, link);
}

/** The summary's replay link of a round (`link`: the facade's text), and its note. */
export function appendReplayLink(box, link, note = "share.round_replay_note") {
  const p = document.createElement("p");
  p.className = "note replay-round";
  const a = document.createElement("a");
  a.href = embedUrl(link);
  a.target = "_blank";
  a.rel = "noopener";
  a.textContent = t("share.round_replay");
  p.append(a, " ", t(note));
  box.append(p);
}
