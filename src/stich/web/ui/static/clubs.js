// stich clubs: make a club, join one from an invite link, start a table from a preset, take a seat at
// a club's table, and an admin's invite links, presets and members.  Each button posts JSON to the
// clubs' API (docs/web-protocol.md, "Clubs"); the player is the HttpOnly session cookie, never seen
// here.  Loaded by clubs.html, club.html and club_join.html only, as a file (no inline script).
const $ = (sel) => document.querySelector(sel);
const words = JSON.parse(($("#club-words") || {}).textContent || "{}");
const club = ($("#club") || $("#join-club") || { dataset: {} }).dataset.club;
const base = club ? `/api/clubs/${encodeURIComponent(club)}` : "/api/clubs";

// Not awaited here: a module that waits at its top level runs its handlers' wiring after the page's
// load event, and a form submitted before that went to the server as a plain GET.  The handlers are
// wired at once; each waits for the API module (the same fingerprint) when it is used.
const api = import(`./api.js${new URL(import.meta.url).search}`);
const send = async (...args) => (await api).send(...args);
const showError = async (message) => (await api).showError(words, message);

function on(sel, event, fn) {
  for (const el of document.querySelectorAll(sel)) {
    el.addEventListener(event, async (e) => {
      e.preventDefault();
      el.disabled = true;
      try { await fn(el); } catch (err) { showError(err.message); } finally { el.disabled = false; }
    });
  }
}

function go(url) { location.href = url; }

on("#new-club", "submit", async (form) => {
  const made = await send("/api/clubs", { name: form.elements.name.value.trim() });
  go(`/clubs/${encodeURIComponent(made.club)}`);
});

on("#join-club", "click", async () => {
  const token = decodeURIComponent(location.hash.slice(1));
  if (!token) { showError(words.no_token); return; }
  await send(`${base}/members`, { token });
  history.replaceState(null, "", location.pathname);   // the token leaves the address bar
  go(`/clubs/${encodeURIComponent(club)}`);
});

on("[data-start]", "click", async (btn) => {
  const made = await send(`${base}/presets/${btn.dataset.start}/start`);
  go(made.url);
});

on("[data-take]", "click", async (btn) => {
  const seat = await send(`${base}/tables/${encodeURIComponent(btn.dataset.take)}/join`);
  go(seat.url);
});

on("[data-delete-preset]", "click", async (btn) => {
  await send(`${base}/presets/${btn.dataset.deletePreset}`, undefined, "DELETE");
  location.reload();
});

on("[data-admin]", "click", async (btn) => {
  await send(`${base}/members/${encodeURIComponent(btn.dataset.admin)}`, { admin: btn.dataset.value === "true" });
  location.reload();
});

on("[data-remove]", "click", async (btn) => {
  await send(`${base}/members/${encodeURIComponent(btn.dataset.remove)}`, undefined, "DELETE");
  location.reload();
});

on("[data-leave]", "click", async (btn) => {
  await send(`${base}/members/${encodeURIComponent(btn.dataset.leave)}`, undefined, "DELETE");
  go("/clubs");
});

on("#new-invite", "click", async () => {
  const made = await send(`${base}/invites`);
  const url = new URL(made.url, location.origin).href;
  $("#invite-link").textContent = words.invite.replace("%(url)s", url);
  $("#invite-link").dataset.url = url;
});

on("[data-revoke]", "click", async (btn) => {
  await send(`${base}/invites/${encodeURIComponent(btn.dataset.revoke)}`, undefined, "DELETE");
  location.reload();
});

on("#new-preset", "submit", async (form) => {
  const option = form.elements.variant.selectedOptions[0];
  const [game, variant] = option.value.split("/");
  const n = +option.dataset.players;
  const bots = Math.min(+form.elements.bots.value, n - 1);
  const seats = Array.from({ length: n }, (_, i) => (i < n - bots ? "human" : `bot:${form.elements.level.value}`));
  const table = { game, variant, seats, timer: form.elements.timer.value, bot_delay: 1 };
  if (form.elements.rated.checked) table.rated = true;   // the server says why when seats do not fit
  await send(`${base}/presets`, { name: form.elements.name.value.trim(), table });
  location.reload();
});
