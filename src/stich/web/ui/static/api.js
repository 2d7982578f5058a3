// The pages' JSON calls to the players' and clubs' APIs (docs/web-protocol.md): one way to post and one
// way to show what went wrong, in the page's own words.  The player is the HttpOnly session cookie, never
// seen here.  Imported by players.js and clubs.js with their own fingerprint (static files are cached for
// ever under a fingerprinted address: an import without it would keep an old copy).

export function showError(words, message) {
  const box = document.querySelector("#errors");
  box.textContent = "";
  const p = document.createElement("p");
  p.textContent = `${words.error || "Error:"} ${message}`;
  box.append(p);
}

export async function send(url, body, method = "POST") {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(url, init);
  let data = {};
  try { data = await res.json(); } catch { /* 204: no body */ }
  if (!res.ok) throw new Error(data.error || `${res.status} ${res.statusText}`);
  return data;
}
