// stich's tournament page: a print button, copy buttons for the director's links, and the page follows the
// tournament by itself - every 10 s it asks the API for the tournament and reloads when a round was drawn
// or a result came in (the page is rendered on the server; this file only decides when to fetch it again),
// but never while the director is typing into one of its forms (the typed points would be lost).
const root = document.getElementById("tournament");
const words = JSON.parse(document.getElementById("words")?.textContent || "{}");
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
for (const button of document.querySelectorAll("[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  button.hidden = false;   // without script the link is there to select; the button needs the clipboard
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      const live = document.getElementById("live");
      if (live) live.textContent = words.copied || "";
    } catch { field.focus(); field.select(); }
  });
}

function state(t) {
  let done = 0;
  for (const r of t.rounds) for (const tb of r.tables) for (const m of tb.matches) if (m.finished) done += 1;
  return `${t.drawn}/${done}/${t.corrections.length}`;
}

function typing() {
  for (const form of document.querySelectorAll("form.sheet-form, form.draw-form")) {
    if (form.contains(document.activeElement)) return true;
    for (const el of form.querySelectorAll("input")) {
      if (el.type === "checkbox" ? el.checked !== el.defaultChecked : el.value !== el.defaultValue) return true;
    }
  }
  return false;
}

async function follow() {
  try {
    const res = await fetch(`/api/tournaments/${encodeURIComponent(root.dataset.tournament)}`);
    if (res.ok && state(await res.json()) !== root.dataset.state && !typing()) {
      window.location.reload();
      return;
    }
  } catch { /* offline for a moment: asked again at the next tick */ }
  setTimeout(follow, 10000);
}

// a page that answers a form post (its error shown) is not reloaded: that would send the form again
if (root && !root.classList.contains("score-sheet") && !("posted" in root.dataset)) setTimeout(follow, 10000);
if (document.getElementById("form-errors")) document.getElementById("form-errors").focus();
