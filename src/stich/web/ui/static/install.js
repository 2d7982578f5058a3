// Installable: the service worker (served at /sw.js, scope "/") keeps the static files for the next
// visit and for the app installed to a home screen. Its URL carries the static files' fingerprint, so a
// new release installs a new worker with a new cache.
if ("serviceWorker" in navigator) {
  const version = new URL(import.meta.url).searchParams.get("v");   // this module's own ?v= fingerprint
  navigator.serviceWorker.register(`/sw.js?v=${encodeURIComponent(version || "")}`, { scope: "/" }).catch(() => {
    // no worker (a private window, a browser that refuses): the pages work as before, only uncached
  });
}
