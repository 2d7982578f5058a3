// stich /me: become a player, sign in, play again with someone, take a seat kept for you, a one-time
// code, a password, sign out, delete.  Each form
// posts JSON to the players' API (docs/web-protocol.md, "Players"); the session is an HttpOnly
// cookie the server sets, never seen here.  Loaded by me.html only, as a file (no inline script).
const $ = (sel) => document.querySelector(sel);
const words = JSON.parse(($("#me-words") || {}).textContent || "{}");

// Not awaited here: a module that waits at its top level runs its handlers' wiring after the page's
// load event, and a form submitted before that went to the server as a plain GET.  The handlers are
// wired at once; each waits for the API module (the same fingerprint) when it is used.
const api = import(`./api.js${new URL(import.meta.url).search}`);
const send = async (...args) => (await api).send(...args);
const showError = async (message) => (await api).showError(words, message);

function on(id, event, fn) {
  const el = $(id);
  if (!el) return;
  el.addEventListener(event, async (e) => {
    e.preventDefault();
    try { await fn(el); } catch (err) { showError(err.message); }
  });
}

on("#become", "submit", async (form) => {
  await send("/api/players", { name: form.elements.name.value.trim() });
  location.reload();
});

on("#signin", "submit", async (form) => {
  const body = { name: form.elements.name.value.trim() };
  const code = form.elements.code.value.trim();
  if (code) body.code = code; else body.password = form.elements.password.value;
  await send("/api/players/signin", body);
  location.reload();
});

on("#show-code", "click", async () => {
  const data = await send("/api/me/code");
  $("#code").textContent = words.code.replace("%(code)s", data.code);
  $("#code").dataset.code = data.code;
});

on("#password-form", "submit", async (form) => {
  const body = { password: form.elements.password.value };
  if (form.elements.current.value) body.current = form.elements.current.value;
  await send("/api/me/password", body);
  form.reset();
  $("#password-done").hidden = false;
});

on("#sign-out", "click", async () => {
  await send("/api/me/signout");
  location.reload();
});

on("#delete-form", "submit", async (form) => {
  const input = form.elements.confirm;
  if (input.value.trim() !== input.dataset.name) { input.focus(); return; }
  await send("/api/me", undefined, "DELETE");
  location.href = "/";
});

for (const btn of document.querySelectorAll("[data-again]")) {
  btn.addEventListener("click", async () => {
    try { location.href = (await send("/api/me/again", { player: btn.dataset.again })).url; } catch (err) { showError(err.message); }
  });
}

for (const btn of document.querySelectorAll("[data-invitation]")) {
  btn.addEventListener("click", async () => {
    try { location.href = (await send(`/api/me/invitations/${encodeURIComponent(btn.dataset.invitation)}`)).url; } catch (err) { showError(err.message); }
  });
}
