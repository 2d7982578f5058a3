// stich's tournament page: a print button, and the page follows the tournament by itself - every
// 10 s it asks the API for the tournament and reloads when a round was drawn or a result came in
// (the page is rendered on the server; this file only decides when to fetch it again).
const root = document.getElementById("tournament");
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}

function state(t) {
  let done = 0;
  for (const r of t.rounds) for (const tb of r.tables) for (const m of tb.matches) if (m.finished) done += 1;
  return `${t.drawn}/${done}/${t.corrections.length}`;
}

async function follow() {
  try {
    const res = await fetch(`/api/tournaments/${encodeURIComponent(root.dataset.tournament)}`);
    if (res.ok && state(await res.json()) !== root.dataset.state) {
      window.location.reload();
      return;
    }
  } catch { /* offline for a moment: asked again at the next tick */ }
  setTimeout(follow, 10000);
}

if (root && !root.classList.contains("score-sheet")) setTimeout(follow, 10000);
