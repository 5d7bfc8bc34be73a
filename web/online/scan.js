// "Scan the answer": the host's camera reads the QR code on the friend's
// screen. Loaded only when the host taps Scan (web/online/host.js). The
// frames are decoded by the browser's BarcodeDetector where it reads QR
// codes, else by jsqr (npm, self-hosted: scripts/build_site.py writes
// online/jsqr.mjs; 33 KB brotli, fetched on this tap only, never precached).
// The text read goes back to the caller, which checks it as a pasted answer.
import { t } from "../i18n/i18n.js";

async function decoder() {
  if ("BarcodeDetector" in self) {
    try {
      if ((await self.BarcodeDetector.getSupportedFormats()).includes("qr_code")) {
        const bd = new self.BarcodeDetector({ formats: ["qr_code"] });
        return async (video) => { const [code] = await bd.detect(video); return code ? code.rawValue : null; };
      }
    } catch { /* no QR codes here: jsqr */ }
  }
  const jsQR = (await import("./jsqr.mjs")).default;
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    const w = video.videoWidth, h = video.videoHeight;
    if (!w || !h) return null;
    canvas.width = w;
    canvas.height = h;
    ctx.drawImage(video, 0, 0, w, h);
    const code = jsQR(ctx.getImageData(0, 0, w, h).data, w, h, { inversionAttempts: "dontInvert" });
    return code ? code.data : null;
  };
}

/**
 * Open the camera in a dialog until a QR code is read (resolves with its
 * text) or the player closes it (resolves with null). The camera stops
 * whenever the dialog closes.
 */
export function scanQr() {
  return new Promise((resolve) => {
    const dialog = document.createElement("dialog");
    dialog.className = "scan-dialog";
    dialog.innerHTML = `<h2 class="scan-title"></h2><video class="scan-video" muted playsinline autoplay></video>
      <p class="scan-text" role="status"></p><p class="form-actions"><button type="button" class="btn scan-close"></button></p>`;
    dialog.querySelector(".scan-title").textContent = t("online.scan_title");
    const say = (text) => { dialog.querySelector(".scan-text").textContent = text; };
    say(t("online.scan_starting"));
    dialog.querySelector(".scan-close").textContent = t("online.scan_close");
    dialog.querySelector(".scan-close").addEventListener("click", () => dialog.close());
    const video = dialog.querySelector(".scan-video");
    let stream = null;
    let found = null;
    let closed = false;
    dialog.addEventListener("close", () => {
      closed = true;
      if (stream) for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
      dialog.remove();
      resolve(found);
    });
    document.body.append(dialog);
    dialog.showModal();
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
      } catch {
        if (!closed) say(t("online.scan_no_camera"));
        return;
      }
      if (closed) { for (const track of stream.getTracks()) track.stop(); return; }
      video.srcObject = stream;
      let read;
      try {
        read = await decoder();
      } catch {
        if (!closed) say(t("online.scan_no_decoder"));
        return;
      }
      say(t("online.scan_hint"));
      while (!closed) {
        let text = null;
        try { text = await read(video); } catch { /* a frame not ready yet */ }
        if (closed) return;
        if (text) { found = text; dialog.close(); return; }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
  });
}
