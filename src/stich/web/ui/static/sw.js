// stich's service worker: the static files (CSS, scripts, icons: their URLs carry a fingerprint) from a
// cache named after that fingerprint, so a visit or the installed app starts without the network for
// them; pages, the JSON API and the table's socket always go to the server (they are live).
const VERSION = new URL(self.location.href).searchParams.get("v") || "dev";
const CACHE = `stich-static-${VERSION}`;
const ASSETS = ["stich.css", "stich.js", "attention.js", "install.js", "icon.svg", "icon-turn.svg", "suits.svg",
  "icon-192.png", "icon-512.png"].map((f) => `/static/${f}?v=${VERSION}`);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  // an older release's cache goes; this worker takes the open pages at once
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("stich-static-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !url.pathname.startsWith("/static/")) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const hit = await cache.match(event.request);
    if (hit) return hit;
    const res = await fetch(event.request);
    if (res.ok) cache.put(event.request, res.clone());
    return res;
  }));
});
