// A friends' evening, the browser's part (the fragment's _evening.html; the server's stich.web.table.evening):
// the name asked once, "start now with bots", the countdown before a bot takes a seat, the rematch;
// on the home page, the create form's signals field follows the variant chosen.
// The socket is stich.js's: a message for it goes out as a "stich:send" event on the document.
const $ = (sel, root = document) => root.querySelector(sel);
const NAME_KEY = "stich.name";                       // stich.js sends it as {"type": "name"} on connect
const seatKey = (id) => `stich.seat.${id}`;          // the seat's token, kept by stich.js per table
const laterKey = (id) => `stich.name-later.${id}`;   // "later": not asked again at this table in this tab
const send = (msg) => document.dispatchEvent(new CustomEvent("stich:send", { detail: msg }));
const watching = () => new URLSearchParams(location.search).has("watch");

function showError(message) {
  const box = $("#errors");
  if (box) { box.textContent = ""; const p = document.createElement("p"); p.textContent = message; box.append(p); }
}

// --- the table page --------------------------------------------------------------------------------
function askName(ev) {
  // once per person: a browser that knows a name has sent it already, and the next frame shows it
  const id = ev.dataset.table;
  const form = $("#ask-name");
  if (!ev.dataset.askName || localStorage.getItem(NAME_KEY) || sessionStorage.getItem(laterKey(id))) {
    form?.remove();
    return;
  }
  if (form) return;   // outside the fragment: what the person types survives every new frame
  const f = document.createElement("form");
  f.id = "ask-name"; f.className = "ask-name row";
  const label = document.createElement("label"); label.htmlFor = "ask-name-input"; label.textContent = ev.dataset.askName;
  const input = document.createElement("input");
  Object.assign(input, { id: "ask-name-input", maxLength: 40, autocomplete: "nickname", required: true });
  input.setAttribute("aria-describedby", "ask-name-help");
  const save = document.createElement("button"); save.type = "submit"; save.textContent = ev.dataset.askSave;
  const later = document.createElement("button"); later.type = "button"; later.className = "quiet"; later.textContent = ev.dataset.askLater;
  const help = document.createElement("p"); help.id = "ask-name-help"; help.className = "help"; help.textContent = ev.dataset.askHelp;
  f.append(label, input, save, later, help);
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    localStorage.setItem(NAME_KEY, name);
    send({ type: "name", name });
    f.remove();
  });
  later.addEventListener("click", () => { sessionStorage.setItem(laterKey(id), "1"); f.remove(); });
  $("#table").before(f);
}

const ends = new WeakMap();   // a countdown's element -> when it reaches 0 (ms)
function tick() {
  document.querySelectorAll("#table [data-grace]").forEach((el) => {
    if (!ends.has(el)) ends.set(el, Date.now() + Number(el.dataset.grace) * 1000);
    const left = Math.max(0, Math.round((ends.get(el) - Date.now()) / 1000));
    el.textContent = el.dataset.graceText.replace("%(s)s", left);
  });
}

async function rematch(btn, id) {
  const token = localStorage.getItem(seatKey(id));
  btn.disabled = true;
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(id)}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token }) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
    localStorage.setItem(seatKey(data.table), token);   // the same token is the same seat there
    location.href = `/t/${encodeURIComponent(data.table)}`;
  } catch (e) { showError(e.message); btn.disabled = false; }
}

function table() {
  const root = $("#table");
  if (!root) return;
  const id = root.dataset.table;
  const refresh = () => { const ev = $("#evening", root); if (ev) askName(ev); tick(); };
  new MutationObserver(refresh).observe(root, { childList: true });
  setInterval(tick, 1000);
  root.addEventListener("click", (e) => {
    const start = e.target.closest("[data-start]");
    if (start) { start.disabled = true; send({ type: "start" }); return; }
    const again = e.target.closest("[data-rematch]");
    if (again) { rematch(again, id); return; }
    const to = e.target.closest("[data-rematch-to]");
    // following the link: a browser that held a seat here holds the same seat there
    const token = localStorage.getItem(seatKey(id));
    if (to && token && !watching()) localStorage.setItem(seatKey(to.dataset.rematchTo), token);
  });
  refresh();
}

// --- home: the signals field exists only where the variant allows signals --------------------------
function home() {
  const field = $("#c-signals-field");
  const game = $("#c-game");
  if (!field || !game) return;
  const sync = () => {
    const variant = $(`.game-opts[data-game="${game.value}"] select[data-variant-of]`);
    const on = variant?.selectedOptions[0]?.dataset.signals === "1";
    field.hidden = !on;
    $("select", field).disabled = !on;
  };
  document.addEventListener("change", (e) => { if (e.target.matches("#c-game, select[data-variant-of]")) sync(); });
  sync();
}

({ table, home })[document.body.dataset.page]?.();
