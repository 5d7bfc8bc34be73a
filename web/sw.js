// Service worker: the whole site offline. scripts/build_site.py fills in the
// file list and the version (a hash of every file) when it builds the site;
// this template in web/ is never served as it is.
//
// Install precaches every file of the build into a cache named after that
// version, and every request of the site is then answered from it (cache
// first, the network only for what is not there). A new build is a new
// sw.js, so a new cache; the old one is deleted once no page uses it.

const VERSION = "__BUILD_VERSION__";
const FILES = /* __PRECACHE_FILES__ */ [];
const CACHE = `chkobba-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // `no-cache`: revalidate with the server, never take a stale copy from
      // the HTTP cache into the offline cache.
      cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" })))),
  );
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
