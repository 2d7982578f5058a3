// stich pages: one small module, no framework, no build step.
// The table: opens the socket, swaps the server-rendered fragment, sends actions with unique ids
// (resent after a reconnect: the server answers a resent id once), reconnects with backoff + resync.
const $ = (sel, root = document) => root.querySelector(sel);
const words = JSON.parse(($("#words") || {}).textContent || "{}");
const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, k) => values[k]);
const live = (text) => { const el = $("#live"); if (el) { const p = document.createElement("p"); p.textContent = text; el.append(p); while (el.childNodes.length > 5) el.firstChild.remove(); } };
const uid = () => (crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36) + Math.random().toString(36).slice(2));
const NAME_KEY = "stich.name";
// names and chat arrive HTML-escaped in JSON frames: decode to plain text (a textarea runs nothing)
const unescape = (text) => { const t = document.createElement("textarea"); t.innerHTML = String(text ?? ""); return t.value; };
const seatKey = (id) => `stich.seat.${id}`;

function showError(message) {
  const box = $("#errors");
  if (box) { box.textContent = ""; const p = document.createElement("p"); p.textContent = `${words.error || "Error:"} ${message}`; box.append(p); }
}

async function postJSON(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = {};
  try { data = await res.json(); } catch { /* an empty or non-JSON answer */ }
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

function nameField() {
  const input = $("#player-name");
  if (!input) return () => "";
  input.value = localStorage.getItem(NAME_KEY) || "";
  input.addEventListener("change", () => localStorage.setItem(NAME_KEY, input.value.trim()));
  return () => input.value.trim();
}

function rememberSeat(url) {
  const m = /\/t\/([^/?#]+)\?token=([^&#]+)/.exec(url);
  if (m) localStorage.setItem(seatKey(m[1]), decodeURIComponent(m[2]));
}

// --- home ----------------------------------------------------------------------------------------
const LEVEL_KEY = "stich.level";

function home() {
  const name = nameField();
  // the bots' level: remembered in this browser, sent as the bot name (stich.bots.levels)
  const levels = [...document.querySelectorAll('input[name="level"]')];
  const saved = localStorage.getItem(LEVEL_KEY);
  levels.forEach((r) => {
    if (r.value === saved) r.checked = true;
    r.addEventListener("change", () => localStorage.setItem(LEVEL_KEY, r.value));
  });
  const level = () => levels.find((r) => r.checked)?.value;
  document.querySelectorAll("[data-quickplay]").forEach((btn) => btn.addEventListener("click", async () => {
    btn.disabled = true;
    try {
      const data = await postJSON("/api/quickplay", { game: btn.dataset.quickplay, variant: btn.dataset.variant, bot: level(), bot_delay: +$(".quick").dataset.botDelay, name: name() || undefined });
      rememberSeat(data.url);
      location.href = data.url;
    } catch (e) { showError(e.message); btn.disabled = false; }
  }));
  const join = $("#join-link");
  join?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("#join-url").value.trim();
    const m = /\/t\/[^\s]+/.exec(text);
    location.href = m ? m[0] : `/t/${encodeURIComponent(text)}`;
  });
  const form = $("#create");
  if (!form) return;
  const gameSel = $("#c-game");
  const sync = () => {
    document.querySelectorAll(".game-opts").forEach((fs) => { const on = fs.dataset.game === gameSel.value; fs.hidden = !on; fs.disabled = !on; });
    const fs = $(`.game-opts[data-game="${gameSel.value}"]`);
    const variant = $("select[data-variant-of]", fs);
    const players = +variant.selectedOptions[0].dataset.players;
    fs.querySelectorAll(".opt").forEach((el) => {
      const vs = el.dataset.variants.split(" ").filter(Boolean);
      const on = !vs.length || vs.includes(variant.value);
      el.hidden = !on; el.querySelectorAll("select,input").forEach((i) => { i.disabled = !on; });
    });
    document.querySelectorAll(".seat-choice").forEach((el) => { const on = +el.dataset.seat < players; el.hidden = !on; $("select", el).disabled = !on; });
  };
  gameSel.addEventListener("change", sync);
  document.querySelectorAll("select[data-variant-of]").forEach((s) => s.addEventListener("change", sync));
  sync();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const fs = $(`.game-opts[data-game="${gameSel.value}"]`);
    const options = {};
    fs.querySelectorAll("[data-option]").forEach((el) => { if (!el.disabled && el.value !== "") options[el.dataset.option] = el.type === "number" ? Number(el.value) : el.value; });
    const seats = [...document.querySelectorAll(".seat-choice select")].filter((s) => !s.disabled).map((s) => s.value);
    const body = { game: gameSel.value, variant: $("select[data-variant-of]", fs).value, options, seats, public: $("#c-public").checked };
    if ($("#c-rated")?.checked) body.rated = true;   // the server says why when seats or options do not fit
    // the table's settings (grace, timer, signals, bot delay, start): numbers as numbers, words as words
    form.querySelectorAll("[data-setting]").forEach((el) => { if (!el.disabled && (el.type !== "radio" || el.checked)) body[el.dataset.setting] = /^\d+(\.\d+)?$/.test(el.value) ? Number(el.value) : el.value; });
    try {
      const data = await postJSON("/api/tables", body);
      const out = $("#created");
      out.textContent = "";
      const list = document.createElement("ul");
      let first = true;
      for (const s of data.seats) {
        if (!s.url) continue;
        const li = document.createElement("li");
        const abs = new URL(s.url, location.href).href;
        const label = document.createElement("span");
        label.textContent = `${fmt(words.invite, { n: s.seat + 1 })}: `;
        const a = document.createElement("a"); a.href = s.url; a.textContent = abs;
        a.addEventListener("click", () => rememberSeat(s.url));
        const copy = document.createElement("button"); copy.type = "button"; copy.textContent = words.copy;
        copy.setAttribute("aria-label", `${words.copy}: ${fmt(words.invite, { n: s.seat + 1 })}`);
        copy.addEventListener("click", async () => { try { await navigator.clipboard.writeText(abs); live(words.copied); } catch { a.focus(); } });
        li.append(label, a, " ", copy);
        list.append(li);
        if (first) { first = false; }
      }
      const li = document.createElement("li");
      const w = document.createElement("a"); w.href = data.watch; w.textContent = `${words.watch}: ${new URL(data.watch, location.href).href}`;
      li.append(w); list.append(li);
      out.append(list);
      list.querySelector("a")?.focus();
    } catch (e) { showError(e.message); }
  });
}

// --- lobby ---------------------------------------------------------------------------------------
function lobby() {
  const name = nameField();
  const box = $("#tables");
  const names = JSON.parse($("#names")?.textContent || "{}");
  const load = async () => {
    try {
      const res = await fetch("/api/lobby");
      const data = await res.json();
      box.textContent = "";
      if (!data.tables?.length) { const p = document.createElement("p"); p.textContent = words.none; box.append(p); return; }
      const list = document.createElement("ul");
      for (const t of data.tables) {
        const li = document.createElement("li");
        const seats = t.seats.map((s) => `${fmt(words.seat, { n: s.seat + 1 })}: ${s.kind === "human" ? (s.taken ? (s.name || words.human) : words.free) : words.bot}`).join(" · ");
        const title = `${names.games?.[t.game] || t.game} · ${names.variants?.[t.variant] || t.variant}`;
        const text = document.createElement("span"); text.textContent = `${title} — ${seats} `;
        const btn = document.createElement("button"); btn.type = "button"; btn.textContent = words.join;
        btn.setAttribute("aria-label", `${words.join}: ${title} (${t.table})`);
        btn.addEventListener("click", async () => {
          try { const d = await postJSON(`/api/tables/${encodeURIComponent(t.table)}/join`, { name: name() || undefined }); rememberSeat(d.url); location.href = d.url; }
          catch (e) { showError(e.message); load(); }
        });
        li.append(text, btn); list.append(li);
      }
      box.append(list);
    } catch (e) { showError(e.message); }
  };
  $("#refresh")?.addEventListener("click", load);
  load();
}

// --- the table -----------------------------------------------------------------------------------
function table() {
  const root = $("#table");
  const id = root.dataset.table;
  const params = new URLSearchParams(location.search);
  let token = params.get("token");
  if (params.get("watch")) {
    token = null;   // watch as a spectator, even from the browser that holds a seat
  } else if (token) {
    localStorage.setItem(seatKey(id), token);
    history.replaceState(null, "", location.pathname + (params.get("lang") ? `?lang=${params.get("lang")}` : ""));
  } else {
    token = localStorage.getItem(seatKey(id));
  }
  const clock = $("#clock");
  let clockTimer = null;
  const showClock = (c) => {
    clearInterval(clockTimer);
    if (!c || !clock) { if (clock) clock.hidden = true; return; }
    const end = Date.now() + c.seconds * 1000;
    const who = c.seat === mySeat ? words.you : fmt(words.seat, { n: c.seat + 1 });
    const tick = () => {
      const left = Math.max(0, Math.round((end - Date.now()) / 1000));
      clock.textContent = fmt(words.clock, { seat: who, s: left });
      if (!left) clearInterval(clockTimer);
    };
    clock.hidden = false;
    tick();
    clockTimer = setInterval(tick, 1000);
  };
  let mySeat = null;
  const conn = $("#conn");
  let ws = null, seq = -1, lastLine = -1, tries = 0, pingTimer = null, first = true, openedAt = 0, placed = 0;
  const pending = new Map();   // action id -> message, until acknowledged
  const status = (text, offline) => { conn.textContent = text; conn.classList.toggle("offline", !!offline); };
  const send = (msg) => { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); };
  const act = (action) => {
    // one decision at a time: every control of the table waits for the answer (a second click would
    // send a second action, refused as out of turn); the next frame or an error gives them back
    root.querySelectorAll("button[data-action], form.choose button, form.choose-set button").forEach((b) => { b.disabled = true; });
    const msg = { type: "act", id: uid(), action };
    pending.set(msg.id, msg);
    send(msg);
    $("#errors").textContent = "";
  };

  // cards move (FLIP): where each card and seat was before a frame, then each card animated from there
  // to where the new frame puts it - from the hand to the trick, from a seat's place to the trick, and
  // a gathered trick to its winner when it leaves the felt.  Nothing moves when the system asks for less.
  const motion = () => !matchMedia("(prefers-reduced-motion: reduce)").matches && typeof Element.prototype.animate === "function";
  const seatArea = (el, seat) => el.querySelector(`.felt > [data-seat="${seat}"]`);
  function positions() {
    const cards = new Map();
    root.querySelectorAll("[data-card]").forEach((el) => cards.set(el.dataset.card, el.getBoundingClientRect()));
    const trick = root.querySelector("[data-trick]");
    const gone = trick && trick.dataset.winner !== undefined
      ? [...trick.querySelectorAll("[data-card]")].map((el) => ({ el, rect: el.getBoundingClientRect() })) : [];
    return { cards, gone, winner: trick?.dataset.winner };
  }
  function fly(before) {
    const move = (el, from, to, extra = {}) => {
      const dx = from.left + from.width / 2 - (to.left + to.width / 2), dy = from.top + from.height / 2 - (to.top + to.height / 2);
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      const scale = from.width && to.width ? from.width / to.width : 1;
      el.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, ...extra }, { transform: "none" }],
        { duration: 320, easing: "cubic-bezier(.2,.7,.3,1)" });
    };
    root.querySelectorAll("[data-card]").forEach((el) => {
      const to = el.getBoundingClientRect();
      const from = before.cards.get(el.dataset.card);
      if (from) { move(el, from, to); return; }
      // a card another seat played: it comes from that seat's place on the felt
      if (el.closest("[data-trick]") && el.dataset.seat !== undefined) {
        const seat = seatArea(root, el.dataset.seat);
        if (seat) move(el, seat.getBoundingClientRect(), to, { opacity: 0.3 });
      }
    });
    // the gathered trick left the felt: its cards go to the seat that won it
    const winner = before.winner !== undefined ? seatArea(root, before.winner) : null;
    if (!winner) return;
    const target = winner.getBoundingClientRect();
    for (const { el, rect } of before.gone) {
      if (root.querySelector(`[data-card="${CSS.escape(el.dataset.card)}"]`)) continue;
      const ghost = el.cloneNode(true);
      ["data-card", "data-seat", "role", "aria-label", "title"].forEach((a) => ghost.removeAttribute(a));
      ghost.setAttribute("aria-hidden", "true");
      ghost.classList.add("ghost");
      Object.assign(ghost.style, { position: "fixed", left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`,
        height: `${rect.height}px`, margin: "0", zIndex: "5", pointerEvents: "none" });
      document.body.append(ghost);
      const dx = target.left + target.width / 2 - (rect.left + rect.width / 2), dy = target.top + target.height / 2 - (rect.top + rect.height / 2);
      ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(0.4)`, opacity: 0 }],
        { duration: 420, easing: "ease-in" }).onfinish = () => ghost.remove();
    }
  }

  // the play (the turn line, the felt, the hand and its actions) is kept in the window while the page
  // above it (menu, name question) or a later frame (a contract line, the actions) would push the hand
  // below the fold, never past the table's top unless the hand needs it; once the reader scrolls the
  // page themselves, their place wins and the page is not moved again
  function showTheTable() {
    const play = $(".col-main", root);
    if (!play || window.scrollY !== placed) return;
    const bottom = play.getBoundingClientRect().bottom, top = root.getBoundingClientRect().top;
    // when the play is taller than the window (a declarer's many contracts above the hand on a
    // laptop), the hand wins over the table's top: the cards are what the choice is made from
    const hand = $(".hand", root)?.getBoundingClientRect().bottom ?? bottom;
    const by = Math.max(Math.min(bottom - window.innerHeight + 8, top), hand - window.innerHeight + 8);
    if (by > 0) window.scrollBy({ top: by, behavior: "instant" });
    placed = window.scrollY;
  }

  function swap(html) {
    const focused = document.activeElement;
    const keep = focused && root.contains(focused) ? (focused.dataset.action || focused.id || null) : null;
    // a details' summary (the last trick, the score sheet: opened with the keyboard) has no id of its
    // own: keep the focus on it through the new frame by its details' id
    const keepSummary = focused && root.contains(focused) && focused.tagName === "SUMMARY" ? focused.parentElement.id : null;
    const openDetails = [...root.querySelectorAll("details[open][id]")].map((d) => d.id);
    const before = motion() ? positions() : null;
    root.innerHTML = html;
    if (before) fly(before);
    openDetails.forEach((d) => { const el = document.getElementById(d); if (el) el.open = true; });
    const lines = [...root.querySelectorAll("#log li")];
    const fresh = lines.filter((li) => +li.dataset.i > lastLine);
    if (!first) fresh.forEach((li) => live(li.textContent));
    if (lines.length) lastLine = Math.max(lastLine, +lines[lines.length - 1].dataset.i);
    const log = $("#log", root); if (log) log.scrollTop = log.scrollHeight;
    const summary = keepSummary && document.getElementById(keepSummary)?.querySelector("summary");
    if (summary) summary.focus();
    else if (keep) {
      const again = root.querySelector(`[data-action="${CSS.escape(keep)}"]`) || document.getElementById(keep);
      if (again) again.focus();
      else if ($(".table", root)?.dataset.turn === "me") (root.querySelector("button.play, .actions button, .actions select") || root).focus();
      else root.focus();
    }
    if (!first && $(".table", root)?.dataset.turn === "me" && $("#turn", root)) live($("#turn", root).textContent);
    // every frame with the reader's cards (an earlier one may come before the deal), in the next
    // animation frame: after evening.js has put its name question above
    if (window.scrollY === placed && $(".hand .card", root)) requestAnimationFrame(showTheTable);
    first = false;
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const q = new URLSearchParams({ format: "html", lang: document.body.dataset.lang });
    if (token) q.set("token", token);
    status(words.connecting);
    ws = new WebSocket(`${proto}//${location.host}/ws/tables/${encodeURIComponent(id)}?${q}`);
    ws.onopen = () => {
      tries = 0;
      openedAt = Date.now();
      $("#chat-log").textContent = "";   // the server sends the recent chat again on each connect
      status(words.connected);
      if (seq >= 0) send({ type: "resync", seq });
      const name = localStorage.getItem(NAME_KEY);
      if (name && token) send({ type: "name", name });
      for (const msg of pending.values()) send(msg);     // same ids: the server acts on each once
      clearInterval(pingTimer);
      pingTimer = setInterval(() => send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "html") { if (msg.seq >= seq) { seq = msg.seq; mySeat = msg.seat; swap(msg.html); showClock(msg.clock); } }
      else if (msg.type === "ack") pending.delete(msg.id);
      else if (msg.type === "error") { if (msg.id) pending.delete(msg.id); showError(msg.message); live(msg.message); root.querySelectorAll("button[disabled]").forEach((b) => { b.disabled = false; }); }
      else if (msg.type === "chat") addChat(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(pingTimer);
      if (ev.code === 4403 && token) {   // a seat token this table does not know (e.g. an old one): watch instead
        localStorage.removeItem(seatKey(id));
        token = null;
        showError(ev.reason || words.error);
        setTimeout(connect, 0);
        return;
      }
      if (ev.code === 4403 || ev.code === 4404 || ev.code === 4400) { status(ev.reason || words.error, true); return; }
      // a rated table's seat without a player, or another player's seat: trying again cannot help
      if (ev.code === 4402 || ev.code === 4409) { status(words.player_seat, true); return; }
      status(words.offline, true);
      const delay = Math.min(10000, 500 * 2 ** tries++) * (0.5 + Math.random() / 2);
      setTimeout(connect, delay);
    };
  }

  function addChat(msg) {
    const li = document.createElement("li");
    li.textContent = `${unescape(msg.name) || fmt(words.seat, { n: (msg.seat ?? -1) + 1 })}: ${unescape(msg.text)}`;
    const log = $("#chat-log");
    log.append(li);
    log.scrollTop = log.scrollHeight;
    if (Date.now() - openedAt > 1000) live(li.textContent);   // not the history replayed on connect
  }

  root.addEventListener("click", (ev) => {
    const btn = ev.target.closest("button[data-action]");
    if (btn && root.contains(btn)) act(btn.dataset.action);
  });
  root.addEventListener("submit", (ev) => {
    const form = ev.target.closest("form.choose, form.choose-set");
    if (!form) return;
    ev.preventDefault();
    if (form.matches(".choose")) { act(form.elements.action.value); return; }
    // seats chosen by check boxes: "double 2,4 redouble 3", sent only when it is one of the legal actions
    const parts = [];
    for (const verb of ["double", "redouble"]) {
      const seats = [...form.querySelectorAll(`input[name="${verb}"]:checked`)].map((i) => +i.value).sort((a, b) => a - b);
      if (seats.length) parts.push(`${verb} ${seats.join(",")}`);
    }
    const action = parts.join(" ");
    if (form.dataset.actions.split("|").includes(action)) act(action);
    else { const why = parts.length ? words.not_allowed : words.pick; showError(why); live(why); }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName)) return;
    const btn = root.querySelector(`button[data-key="${ev.key}"]`);
    if (btn) { ev.preventDefault(); btn.focus(); btn.click(); return; }
    if (ev.key === "l" || ev.key === "L") { const d = $("#last-trick"); if (d) { d.open = !d.open; $("summary", d).focus(); } }
    if (ev.key === "t" || ev.key === "T") root.focus();
  });
  document.addEventListener("stich:send", (ev) => send(ev.detail));   // evening.js: start, a name
  $("#chat-form")?.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("#chat-text");
    if (input.value.trim()) { send({ type: "chat", text: input.value.trim() }); input.value = ""; }
  });
  connect();
}

// --- replay: arrow keys step -----------------------------------------------------------------------
function replay() {
  document.addEventListener("keydown", (ev) => {
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName)) return;
    const el = document.querySelector(`[data-key="${ev.key}"]`);
    if (el) { ev.preventDefault(); el.click(); }
  });
}

// --- upload: store the record on the server, then show it at its own shareable address ---------------
function upload() {
  const form = $("#upload-form");
  form?.addEventListener("submit", async (ev) => {
    const file = $("#record-file").files[0];
    if (!file) return;
    ev.preventDefault();
    try {
      const data = await postJSON("/api/records", JSON.parse(await file.text()));
      location.href = data.url;
    } catch (e) { showError(e.message); }
  });
}

const pages = { home, lobby, table, replay, upload };
pages[document.body.dataset.page]?.();
