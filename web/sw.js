// Service worker: the whole site offline, and updates that never break a game.
// scripts/build_site.py fills in the file list and the version (a hash of
// every file and of the build id) when it builds the site; this template in
// web/ is never served as it is.
//
// Install precaches every file a page uses into a cache named after that
// version (the page registers the worker once its table and players are
// ready, so the files come from the HTTP cache). A file whose content hash did not change since the version this
// browser already has is copied from that version's cache (an update
// downloads only what changed); every other file is downloaded and checked
// against its hash, so a cache never mixes two builds. Each request of the
// site is then answered from this version's cache (the network only for what
// is not there).
//
// A new version installs in the background and then WAITS: the open page
// keeps running on the files it started with. The page (web/update.js) offers
// the new version between games and, when the player accepts, sends
// "skip-waiting"; the new worker then takes over, the old cache is deleted
// and the page reloads (the saved game resumes).

const VERSION = "__BUILD_VERSION__";
// [url, sha-256 prefix of the content (null: always download), immutable (1:
// its URL changes with its content, so the HTTP cache may serve it)]
const FILES = /* __PRECACHE_FILES__ */ [];
const CACHE = `chkobba-${VERSION}`;
// A synthetic entry of each version's cache: its FILES, so that the next
// version knows which files it can copy instead of downloading them.
const MANIFEST = "./__sw-files.json";

async function hex(buffer) {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}

// url -> [cache name, hash] for every file of the versions already cached.
async function cachedBefore() {
  const known = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith("chkobba-") || name === CACHE) continue;
    const res = await (await caches.open(name)).match(MANIFEST);
    if (!res) continue;
    try {
      for (const [url, hash] of await res.json()) if (hash) known.set(url, [name, hash]);
    } catch (e) { /* a damaged manifest: download everything */ }
  }
  return known;
}

async function precache() {
  // The template itself (a site being built in place, or served unbuilt)
  // is no version of the site: nothing to install.
  if (!FILES.length) throw new Error("sw.js lists no files: it was not filled by scripts/build_site.py");
  const cache = await caches.open(CACHE);
  const before = await cachedBefore();
  await Promise.all(FILES.map(async ([url, hash, immutable]) => {
    const prev = before.get(url);
    if (hash && prev && prev[1] === hash) {
      const hit = await (await caches.open(prev[0])).match(url);
      if (hit) return cache.put(url, hit);
    }
    // Every byte once: the page has just fetched these files, so they are
    // taken from the HTTP cache as they are (`force-cache`, no request, even
    // for the files the server says to revalidate); a copy that is not this
    // version's (its hash differs) is fetched again from the server
    // (`no-cache`). A file without a hash is always asked for.
    const matches = async (res) => !hash || (await hex(await res.clone().arrayBuffer())).slice(0, hash.length) === hash;
    let res = hash ? await fetch(new Request(url, { cache: immutable ? "default" : "force-cache" })) : null;
    if (!res || !res.ok || !(await matches(res))) {
      res = await fetch(new Request(url, { cache: immutable ? "default" : "no-cache" }));
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      // The server already has another build: this version cannot be
      // installed whole; the browser tries again at its next update check.
      if (!(await matches(res))) throw new Error(`${url} is not the file of version ${VERSION}`);
    }
    return cache.put(url, res);
  }));
  await cache.put(MANIFEST, new Response(JSON.stringify(FILES), {
    headers: { "Content-Type": "application/json" },
  }));
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().catch(async (err) => {
    await caches.delete(CACHE); // no half-filled cache is ever used
    throw err;
  }));
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("chkobba-") && key !== CACHE) await caches.delete(key);
    }
    // The first visit's page is served offline from now on too.
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Pages carry query strings (?seed=...): the page is the same file.
    const hit = await cache.match(req, { ignoreSearch: req.mode === "navigate" });
    return hit || fetch(req);
  })());
});
