// Attention: the tab says when the table waits for you. While the viewer has a decision (the table
// fragment's root carries data-turn="me") the document title starts with "▶ " and the tab's icon
// carries a dot; while the tab is hidden, an optional sound and an opt-in notification (the browser
// asks for that permission only after a click on its box). Nothing here talks to the server.
const table = document.getElementById("table");
const words = JSON.parse(document.getElementById("words")?.textContent || "{}");
const MARK = "▶ ";
const SOUND_KEY = "stich.attention.sound";
const NOTIFY_KEY = "stich.attention.notify";

function myTurn() {
  return !!table.querySelector('.table[data-turn="me"]');
}

function setTitle(mine) {
  const base = document.title.startsWith(MARK) ? document.title.slice(MARK.length) : document.title;
  const want = mine ? MARK + base : base;
  if (document.title !== want) document.title = want;
}

function setIcon(mine) {
  const icon = document.querySelector('link[rel="icon"]');
  if (!icon) return;
  icon.dataset.plain ||= icon.getAttribute("href");
  const want = mine && icon.dataset.turn ? icon.dataset.turn : icon.dataset.plain;
  if (icon.getAttribute("href") !== want) icon.setAttribute("href", want);
}

function beep() {
  // a short two-note chime, made here: no sound file to fetch, nothing plays before a person opted in
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return;
  const ctx = new Ctx();
  [660, 880].forEach((hz, i) => {
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.frequency.value = hz;
    gain.gain.setValueAtTime(0.0001, ctx.currentTime + i * 0.15);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + i * 0.15 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + i * 0.15 + 0.14);
    osc.connect(gain).connect(ctx.destination);
    osc.start(ctx.currentTime + i * 0.15);
    osc.stop(ctx.currentTime + i * 0.15 + 0.15);
  });
  setTimeout(() => ctx.close(), 600);
}

function tell() {
  if (!document.hidden) return;
  if (localStorage.getItem(SOUND_KEY) === "1") beep();
  if (localStorage.getItem(NOTIFY_KEY) === "1" && "Notification" in window && Notification.permission === "granted") {
    const n = new Notification(words.your_turn || "Your turn.", { body: document.title.slice(MARK.length), tag: "stich-turn" });
    n.onclick = () => { window.focus(); n.close(); };
  }
}

function checkbox(id, label, key, onTick) {
  const wrap = document.createElement("label");
  wrap.className = "pick";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = id;
  box.checked = localStorage.getItem(key) === "1";
  box.addEventListener("change", async () => {
    if (box.checked && onTick && !(await onTick())) box.checked = false;
    localStorage.setItem(key, box.checked ? "1" : "0");
  });
  wrap.append(box, " ", label);
  return wrap;
}

function controls() {
  // the opt-ins are folded away under the chat: asked for once, they must not push the felt and the
  // hand below the fold (a phone shows the table first); words come from the page (base.html's #words)
  const fold = document.createElement("details");
  fold.className = "more attention";
  fold.id = "attention";
  const summary = document.createElement("summary");
  summary.textContent = words.alerts || "Alerts";
  const group = document.createElement("fieldset");
  const legend = document.createElement("legend");
  legend.textContent = words.attention || "When it is your turn and this tab is hidden:";
  group.append(legend, checkbox("attention-sound", words.sound || "play a sound", SOUND_KEY));
  if ("Notification" in window) {
    group.append(" ", checkbox("attention-notify", words.notify || "show a notification", NOTIFY_KEY, async () => {
      // asked only now, after the person's click: a page never asks on its own
      const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
      return answer === "granted";
    }));
  }
  fold.append(summary, group);
  const chat = document.querySelector(".chat");
  if (chat) chat.after(fold); else table.after(fold);
}

if (table && table.dataset.table) {
  let was = false;
  const update = () => {
    const mine = myTurn();
    setTitle(mine);
    setIcon(mine);
    if (mine && !was) tell();
    was = mine;
  };
  new MutationObserver(update).observe(table, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-turn"] });
  update();
  controls();
}
