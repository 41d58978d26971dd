/**
 * Step 7 and the court list: the place as it will be saved (an edited place keeps what
 * the page does not touch), the diff and its problems, the save (a file changed
 * meanwhile is refused, not overwritten), then the daemon's light and first delivered
 * entry for the court, polled.
 */
export const scriptSave = String.raw`
const linkKeys = ["serial", "tcp", "udp", "mqtt"];
function buildScoreboard() {
  const board = Object.assign({}, state.base.scoreboard || {}); linkKeys.forEach((k) => delete board[k]);
  board.protocol = state.console.protocol; Object.assign(board, state.link || {});
  if (Object.keys(state.options).length > 0) board.options = state.options; else delete board.options;
  return board;
}
// In the order a hand writes a place (key, name, sport, scoreboard, actions); what an edited place has beyond that stays as it was.
function buildPlace() {
  const own = { key: state.place.key };
  if (state.place.name) own.name = state.place.name; if (state.place.sport) own.sport = state.place.sport;
  // own twice: first for the order of its keys, last so a new name wins over the file's.
  const p = Object.assign({}, own, state.base, own, { scoreboard: buildScoreboard() });
  if (state.actions.length > 0) p.actions = state.actions; else delete p.actions;
  return p;
}
function mqttChange() { const url = $("mqtt-url").value.trim(); const now = state.config && state.config.mqtt && state.config.mqtt.url;
  return url && url !== now ? { url: url } : undefined; }
function saveBody() {
  const body = { fingerprint: state.config.fingerprint, replaces: state.replaces, place: buildPlace(), buttons: state.buttons };
  const service = serviceChange(); if (service) body.service = service;
  const mqtt = mqttChange(); if (mqtt) body.mqtt = mqtt;
  // A new service address takes the token again in the same save (typed, not yet stored), else the server drops the stored one.
  const token = $("token").value.trim(); if (service && service.baseUrl && token) body.token = token;
  return body;
}
function showProblems(problems) {
  const box = clear($("save-problems"));
  (problems || []).forEach((p) => { const d = el("div"); d.setAttribute("data-problem", p.path || ""); d.appendChild(el("span", "path", p.path || "config"));
    d.appendChild(document.createTextNode(p.message + (p.line ? " (line " + p.line + ")" : ""))); box.appendChild(d); });
}
function showDiff(diff) {
  const pre = clear($("diff")); pre.hidden = !diff;
  (diff || "").split("\n").forEach((line) => { const cls = line.startsWith("@@") ? "hunk" : line.startsWith("+") && !line.startsWith("+++") ? "add" : line.startsWith("-") && !line.startsWith("---") ? "del" : "same";
    pre.appendChild(el("span", cls, line === "" ? " " : line)); });
}
async function preview() {
  if (!state.console || !state.place) { say("save-message", "Pick the court and its console first.", ""); return; }
  say("save-message", ""); $("save").disabled = true;
  const r = await api("POST", "/api/preview", saveBody());
  if (!r.ok) { say("save-message", errorOf(r), ""); return; }
  showProblems(r.json.problems); showDiff(r.json.diff);
  const notes = (r.json.secrets || []).map((n) => " Note: " + n + ".").join("");
  if (r.json.valid) { $("save").disabled = false; say("save-message", "The config is valid with this change. Save to write it and reload the bridge." + notes, "info"); }
  else say("save-message", "Not saved: the config would not be valid. Fix the problems above.", "");
}
async function save() {
  $("save").disabled = true; say("save-message", "Saving…", "info");
  const body = saveBody(); const r = await api("POST", "/api/save", body);
  // Nothing was written; the page keeps the fingerprint it read, so only a reload (which shows the file as it is now) saves.
  if (r.status === 409) { say("save-message", "config.yaml changed since you opened this page (edited by hand, or saved from another browser): nothing was written. Reload the page to start from the file as it is now.", ""); $("save").setAttribute("data-stale", "yes"); return; }
  if (r.status === 422) { showProblems(r.json.problems); say("save-message", errorOf(r), ""); return; }
  if (!r.ok) { say("save-message", errorOf(r), ""); return; }
  const reload = r.json.reload || { ok: false, message: "" };
  const dropped = (r.json.secrets || []).map((n) => " " + n.charAt(0).toUpperCase() + n.slice(1) + ".").join("");
  if (body.token) $("token").value = "";
  say("save-message", "Saved at " + hms(Date.now()) + " (the previous version is kept as " + r.json.kept + "). " + reload.message + dropped, reload.ok && !dropped ? "good" : "");
  state.replaces = state.place.key; state.base = buildPlace(); await loadConfig(); showCourts(); showTokenState();
  summary("save", "Saved at " + hms(Date.now()) + ".");
  $("after-save").hidden = false; pollDaemon();
}
function clipText(c) { return [c.outcome ? String(c.outcome).replace("-", " ").toUpperCase() : "WAITING", c.text || "", c.pressedAt ? "pressed " + hms(c.pressedAt) : ""].filter((x) => x).join(" · "); }
function showDaemonPlace(d) {
  const p = d.reachable ? (d.places || []).find((x) => x.key === state.place.key) : null;
  const badge = $("daemon-badge"); const light = p ? p.light : "DISCONNECTED"; badge.textContent = light; badge.className = "badge " + light.replace(" ", "");
  $("daemon-detail").textContent = !d.reachable ? "The bridge does not answer yet (" + (d.error || "restarting?") + ")." : p ? p.detail || "" : "The bridge has not loaded this court yet.";
  const entry = p && p.lastEntry; $("daemon-entry").textContent = !entry ? "none yet" : (entry.delivered ? "delivered, " : "not delivered yet (" + (entry.state || "waiting") + "), ") + "at " + hms(entry.at);
  $("daemon-entry").setAttribute("data-delivered", entry && entry.delivered ? "yes" : "no");
  if (p && p.lastClip) { $("daemon-clip").textContent = clipText(p.lastClip); $("daemon-clip").setAttribute("data-clip", p.lastClip.outcome || "waiting"); }
  else showEvent(p ? p.event : null);
}
// A test press makes a clip only while an event is open at the court (status.json's event for the place).
function showEvent(e) {
  const open = e ? e.open : null; const clip = $("daemon-clip"); clip.setAttribute("data-event", open === true ? "open" : open === false ? "none" : "unknown");
  const teams = e && e.homeTeam && e.awayTeam ? " (" + e.homeTeam + " v " + e.awayTeam + ")" : "";
  clip.textContent = open === true ? "An event is open at this court" + teams + ": press the button now, the clip's outcome shows here."
    : open === false ? "No event is open at this court, so a press makes no clip until one is: open the event on the service, then press."
    : "The bridge has not yet heard from the service whether an event is open at this court.";
}
async function pollDaemon() {
  if (state.daemonTimer) clearTimeout(state.daemonTimer);
  const r = await api("GET", "/api/daemon", undefined, true);
  if (r.status === 401) return;
  showDaemonPlace(r.ok ? r.json : { reachable: false, error: errorOf(r) });
  state.daemonTimer = setTimeout(pollDaemon, 2000);
}
entries.save = () => { stopButtonListening(); preview(); };
`
