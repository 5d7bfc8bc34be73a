// Updates that never break a game, and offline play (the service worker,
// sw.js). The shell calls initUpdates() once after boot:
//
//   initUpdates({ canReloadNow: () => boolean, onUpdateReady: (apply) => void })
//
// - registers ./sw.js (only on https, or on this machine: service workers need
//   a secure context; http://127.0.0.1 and localhost count as one);
// - looks for a new version of the site in the background: at boot, when the
//   page becomes visible again and every 30 minutes. A new version installs
//   beside the running one and waits; the page keeps the files it started with;
// - once a new version is waiting AND canReloadNow() says no round is in
//   progress, calls onUpdateReady(apply). The shell shows "A new version is
//   ready: reload to update" and calls apply() when the player accepts: the
//   new version takes over and the page reloads (the saved game resumes).
//   If a round starts again before the player accepted, onUpdateReady(null)
//   withdraws the offer (and a later onUpdateReady(apply) renews it);
// - once a game is saved (`saveKey` in localStorage), asks once for
//   persistent storage (navigator.storage.persist()), so the browser does not
//   evict the saved game and the offline copy under storage pressure.
//
// Resolves to a small controller ({ registration, check(), apply() }), or to
// null when service workers are unavailable or blocked (the site then works
// online as before, with no update offers).

const CHECK_EVERY_MS = 30 * 60 * 1000;
const PERSIST_ASKED = "chkobba.persist-asked";

export async function initUpdates({
  canReloadNow,
  onUpdateReady,
  swUrl = "./sw.js",
  saveKey = "chkobba.save.v1",
  pollMs = 500,
} = {}) {
  askPersistenceOnceSaved(saveKey, pollMs * 4);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  if (!("serviceWorker" in navigator) || !(location.protocol === "https:" || local)) return null;
  const sw = navigator.serviceWorker;
  let registration;
  try {
    registration = await sw.register(swUrl);
  } catch (err) {
    registration = null;
  }
  if (!registration) return null; // blocked (private mode, a test's context)

  let waiting = null;   // the installed new version
  let offered = false;  // onUpdateReady(apply) was called and not withdrawn
  let applying = false;

  function apply() {
    const w = waiting || registration.waiting;
    if (!w) return false;
    applying = true;
    w.postMessage({ type: "skip-waiting" });
    return true;
  }
  sw.addEventListener("controllerchange", () => {
    if (applying) location.reload();
  });

  // Only a version that replaces one in control is an update; the very
  // first install simply takes over (nothing to offer).
  function found(worker) {
    if (!sw.controller || !worker) return;
    waiting = worker;
    tick();
    // A marker for tests and debugging: a new version is waiting (and the
    // offer was decided for the current moment, above).
    document.documentElement.classList.add("update-waiting");
  }
  function watch(worker) {
    if (!worker) return;
    if (worker.state === "installed") found(worker);
    else worker.addEventListener("statechange", () => { if (worker.state === "installed") found(worker); });
  }
  function tick() {
    if (!waiting || applying) return;
    if (waiting.state === "redundant") { waiting = null; return; }
    let now = false;
    try { now = !!canReloadNow(); } catch (e) { now = false; }
    if (now === offered) return;
    offered = now;
    // Lets the page make room for the offer (html.update-offered).
    document.documentElement.classList.toggle("update-offered", offered);
    onUpdateReady(offered ? apply : null);
  }

  watch(registration.waiting);
  watch(registration.installing);
  registration.addEventListener("updatefound", () => watch(registration.installing));
  setInterval(tick, pollMs);

  const check = () => registration.update().catch(() => {}); // offline: try later
  setInterval(check, CHECK_EVERY_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") check();
  });
  check();
  return { registration, check, apply };
}

// Ask once, after the first save: a browser may grant it silently (Chromium,
// by engagement) or ask the player (Firefox); either answer is kept.
function askPersistenceOnceSaved(saveKey, everyMs) {
  if (!(navigator.storage && navigator.storage.persist)) return;
  const ask = () => {
    try {
      if (localStorage.getItem(PERSIST_ASKED)) return true;
      if (localStorage.getItem(saveKey) === null) return false;
      localStorage.setItem(PERSIST_ASKED, "1");
    } catch (e) {
      return true; // no storage at all: nothing to keep
    }
    navigator.storage.persisted()
      .then((already) => already || navigator.storage.persist())
      .catch(() => {});
    return true;
  };
  if (ask()) return;
  const timer = setInterval(() => { if (ask()) clearInterval(timer); }, everyMs);
}
