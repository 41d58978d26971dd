/**
 * Step 5: a listening session on the chosen link, its light and reading polled every
 * second; "Does the board show this?" and, when not, the layout finder on moments the
 * technician types, its options merged once accepted and heard again. A console the
 * running bridge reads already (an existing court) cannot be opened twice: the page
 * shows what the bridge hears on it instead.
 */
export const scriptListen = String.raw`
function listenBody() { return { protocol: state.console.protocol, sport: state.place.sport, options: state.options, link: state.link }; }
function stopListening() {
  if (state.listenTimer) { clearTimeout(state.listenTimer); state.listenTimer = null; }
  state.bridgeReads = null;
  if (state.listenId !== null) { api("DELETE", "/api/listen/" + encodeURIComponent(state.listenId)); state.listenId = null; }
}
async function startListening() {
  stopListening(); showLight({ light: "DISCONNECTED", detail: "opening " + linkText(state.link) + "…", reading: null });
  say("listen-message", "");
  const r = await api("POST", "/api/listen", listenBody());
  // A 409 with the place whose scoreboard the running bridge reads on this link.
  const holder = r.status === 409 && r.json && typeof r.json.place === "string" ? r.json.place : null;
  if (holder) { bridgeReads(holder); return; }
  if (!r.ok) { say("listen-message", errorOf(r), ""); return; }
  state.listenId = r.json.id; pollListening();
}
function bridgeReads(key) {
  state.bridgeReads = key;
  if (key === state.replaces) say("listen-message", "The bridge reads this console now, for " + key + ": its light and reading are shown here. Go on if the board shows this.", "info");
  else say("listen-message", "The bridge reads this link for " + key + ": pick another adapter or address for this court (its light is shown here).", "");
  pollBridgeReading();
}
async function pollBridgeReading() {
  const key = state.bridgeReads; if (!key) return;
  const r = await api("GET", "/api/daemon", undefined, true);
  if (state.bridgeReads !== key) return;
  const p = r.ok && r.json.reachable ? (r.json.places || []).find((x) => x.key === key) : null;
  showLight(p ? { light: p.light, detail: "the bridge reads this console now: " + (p.detail || ""), reading: p.reading ? { text: p.reading } : null }
    : { light: "DISCONNECTED", detail: r.ok ? r.json.detail || "the bridge has no court " + key : errorOf(r), reading: null });
  $("listen-badge").setAttribute("data-from", "bridge");
  state.listenTimer = setTimeout(pollBridgeReading, 1500);
}
function showLight(s) {
  const badge = $("listen-badge"); badge.textContent = s.light; badge.className = "badge " + s.light.replace(" ", ""); badge.removeAttribute("data-from");
  $("listen-detail").textContent = s.detail || "";
  $("listen-reading").textContent = s.reading ? s.reading.text : "";
  $("listen-counts").textContent = s.bytes === undefined ? "" : s.bytes + " bytes · " + s.frames + " frames · " + s.badFrames + " bad" + (s.since ? " · since " + hms(s.since) : "");
}
async function pollListening() {
  const id = state.listenId; if (id === null) return;
  const r = await api("GET", "/api/listen/" + encodeURIComponent(id), undefined, true);
  if (id !== state.listenId) return;
  if (!r.ok) { say("listen-message", errorOf(r) + " Listen again to reopen it.", ""); state.listenId = null; return; }
  showLight(r.json);
  state.listenTimer = setTimeout(pollListening, 1000);
}
function boardYes() {
  const reading = $("listen-reading").textContent;
  summary("listen", reading ? "The board showed " + reading + "." : "");
  stopListening(); goTo("buttons");
}
function boardNo() {
  if (state.bridgeReads) { say("finder-message", "The layout finder needs the console to itself: stop the bridge (sudo systemctl stop scorebridge), then Listen again.", ""); $("finder").hidden = false; return; }
  $("finder").hidden = false; $("moment-home").focus(); say("finder-message", ""); }
function notedText() {
  const parts = [["home", "moment-home"], ["guest", "moment-guest"], ["period", "moment-period"], ["clock", "moment-clock"]]
    .map((p) => [p[0], $(p[1]).value.trim()]).filter((p) => p[1] !== "");
  return parts.map((p) => p[0] + " " + p[1]).join(" ");
}
async function noteMoment() {
  if (state.listenId === null) { say("finder-message", "Not listening: Listen again first.", ""); return; }
  const noted = notedText(); if (!noted) { say("finder-message", "Type what the board shows first.", ""); return; }
  const r = await api("POST", "/api/listen/" + encodeURIComponent(state.listenId) + "/moments", { noted: noted });
  if (!r.ok) { say("finder-message", errorOf(r), ""); return; }
  const list = clear($("moments"));
  r.json.moments.forEach((m, i) => list.appendChild(el("li", null, "Moment " + (i + 1) + ": " + momentText(m))));
  say("finder-message", "Noted at " + hms(Date.now()) + ". Note another once the board has changed, then Find the layout.", "info");
}
function momentText(m) { if (typeof m === "string") return m; const at = m.at === undefined ? "" : hms(m.at) + " — ";
  return at + (m.text || m.described || m.noted || Object.keys(m.values || m).filter((k) => k !== "at").map((k) => k + " " + (m.values || m)[k]).join(", ")); }
async function findLayout() {
  if (state.listenId === null) { say("finder-message", "Not listening: Listen again first.", ""); return; }
  say("finder-message", "Looking for the fields…", "info"); $("layout-accept").hidden = true;
  const r = await api("POST", "/api/listen/" + encodeURIComponent(state.listenId) + "/layout");
  if (!r.ok) { say("finder-message", errorOf(r), ""); return; }
  const lines = clear($("finder-lines")); (r.json.lines || []).forEach((l) => lines.appendChild(el("div", null, l === "" ? " " : l)));
  const words = { found: ["Found: the settings below read the board as you noted it.", "good"],
    ambiguous: ["More than one layout fits: note another moment where the numbers differ, then Find again.", ""],
    "not-found": ["No layout reads the board as noted: check the moments, or the console and its link.", ""] };
  const w = words[r.json.outcome] || [r.json.outcome, ""]; say("finder-message", w[0], w[1]);
  state.found = r.json.outcome === "found" ? r.json.options : null;
  $("layout-accept").hidden = state.found === null;
}
function acceptLayout() {
  state.options = Object.assign({}, state.options, state.found); state.found = null;
  $("layout-accept").hidden = true; clear($("moments")); clear($("finder-lines")); $("finder").hidden = true;
  say("listen-message", "Listening again with the settings found: check the board once more.", "info");
  startListening();
}
entries.listen = startListening;
`
