// stich replay: "Analyse" a seat's decisions (issue #38).  Asks the server to analyse the finished
// match (POST /api/tables/ID/analysis: the bot workers do it, docs/web-protocol.md "Analysis"), shows
// its progress while it runs, then opens the replay with the analysis at the first marked decision
// (?step=i&analysis=K, a link anyone can open).  Without script the form asks for a stored analysis
// only.  Loaded by replay.html only, as a file (no inline script).
const $ = (sel) => document.querySelector(sel);
const box = $("section.analysis");
const form = $("#analyse-form");
const POLL_MS = 400;

function showError(message) {
  const errors = $("#errors") || $("#analysis-status span");
  const words = JSON.parse(($("#words") || {}).textContent || "{}");
  errors.textContent = `${words.error || "Error:"} ${message}`;
  $("#analysis-status").hidden = false;
}

async function call(url, init) {
  const res = await fetch(url, init);
  let data = {};
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}

function show(status) {
  const lang = document.body.dataset.lang || "en";
  const pct = new Intl.NumberFormat(lang, { style: "percent" }).format(status.progress || 0);
  $("#analysis-status").hidden = false;
  $("#analysis-progress").value = status.progress || 0;
  $("#analysis-status span").textContent = status.status === "queued" ? box.dataset.queued
    : box.dataset.running.replace("%(p)s", pct);
}

form?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const seat = +$("#analyse-seat").value;
  const api = `/api/tables/${encodeURIComponent(box.dataset.table)}/analysis`;
  const button = form.querySelector("button");
  button.disabled = true;
  try {
    let status = await call(api, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat }) });
    let result = null;
    while (true) {
      show(status);
      result = await call(`${api}?seat=${seat}`);
      if (result.status === "done") break;
      status = result;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    show(result);
    // the first decision that lost something, else where the reader stood
    const marked = result.decisions.find((d) => d.mark !== "good");
    const step = marked ? marked.step : +box.dataset.step;
    const lang = document.body.dataset.lang || "en";
    location.href = `?step=${step}&analysis=${seat}&lang=${lang}#decision`;
  } catch (e) { showError(e.message); button.disabled = false; }
});
