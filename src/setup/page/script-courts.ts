/**
 * The configured courts (add another, or edit one: the page starts from the place as
 * the file has it and leaves the others alone) and the page's start.
 */
export const scriptCourts = String.raw`
async function loadConfig() {
  const r = await api("GET", "/api/config");
  if (!r.ok) { say("banner", errorOf(r)); return; }
  state.config = r.json; venueClock(r.json.venueClock);
  $("meta").textContent = r.json.path + (r.json.venueClock ? " · times in " + r.json.venueClock.timeZone : "");
  const reload = { systemd: "saving reloads the bridge's service", pid: "saving reloads the running bridge", "path-unit": "saving reloads the bridge's service (systemd sees the file replaced)", none: "no running bridge to reload: start it after saving" }[r.json.reload] || "";
  $("config-state").textContent = (r.json.valid ? "The config is valid" : "The config has problems") + " · " + reload + ".";
  const box = clear($("config-problems"));
  (r.json.problems || []).forEach((p) => { const d = el("div"); d.appendChild(el("span", "path", p.path || "config")); d.appendChild(document.createTextNode(p.message + (p.line ? " (line " + p.line + ")" : ""))); box.appendChild(d); });
}
function boardText(b) { if (!b) return "no scoreboard"; const link = b.serial ? b.serial.path.replace(/^.*[/]/, "") : b.tcp ? (b.tcp.listen ? "listen " + b.tcp.listen : b.tcp.connect) : b.udp ? "UDP " + b.udp.listen : "MQTT";
  return b.protocol + " · " + link; }
function showCourts() {
  const list = clear($("court-list")); const places = (state.config && state.config.places) || [];
  if (places.length === 0) list.appendChild(el("li", "muted", "No court yet."));
  places.forEach((p) => { const li = el("li"); li.setAttribute("data-court", p.key);
    const text = el("span"); text.appendChild(el("strong", null, p.name || p.key)); text.appendChild(el("span", "small", " " + p.key + (p.sport ? " · " + p.sport : "") + " · " + boardText(p.scoreboard)));
    li.appendChild(text); const edit = el("button", null, "Edit"); edit.type = "button"; edit.addEventListener("click", () => editCourt(p)); li.appendChild(edit); list.appendChild(li); });
}
function resetCourt() {
  stopPolling(); Object.assign(state, { replaces: null, base: {}, place: null, console: null, maker: null, linkKind: null, link: null, options: {}, pressed: null, buttons: [], actions: [] });
  stepOrder.forEach((id) => { $("step-" + id).hidden = true; summary(id, ""); });
  ["place-key", "place-name", "place-sport"].forEach((id) => { $(id).value = ""; }); $("place-by-hand").open = false;
  $("finder").hidden = true; $("after-save").hidden = true; showDiff(""); showProblems([]); say("save-message", ""); $("save").disabled = true;
}
function addCourt() { resetCourt(); goTo("checks"); }
function linkOf(b) { const out = {}; linkKeys.forEach((k) => { if (b && b[k] !== undefined) out[k] = b[k]; }); return out; }
function editCourt(p) {
  resetCourt();
  const board = p.scoreboard || {};
  Object.assign(state, { replaces: p.key, base: p, place: { key: p.key, name: p.name, sport: p.sport }, options: Object.assign({}, board.options || {}),
    actions: (p.actions || []).slice(), link: linkOf(board) });
  state.console = state.consoles.find((c) => c.protocol === board.protocol) || null; state.maker = state.console ? state.console.maker : null;
  state.linkKind = linkKindOf(state.link);
  const used = state.actions.map((a) => a.source); state.buttons = ((state.config && state.config.buttons) || []).filter((b) => used.indexOf(b.name) >= 0);
  summary("place", (p.name || p.key) + " · " + (p.sport || ""));
  $("place-key").value = p.key; $("place-name").value = p.name || ""; $("place-sport").value = p.sport || "";
  ["checks", "place", "console", "link", "buttons"].forEach((id) => { show(id); const enter = entries[id]; if (enter) enter(); });
  show("listen"); show("save"); markStep("place"); $("step-place").scrollIntoView({ block: "start", behavior: "instant" });
}
function wire() {
  $("court-add").addEventListener("click", addCourt);
  $("checks-again").addEventListener("click", loadChecks);
  $("token-form").addEventListener("submit", storeToken);
  $("place-typed").addEventListener("click", placeTyped);
  $("ports-again").addEventListener("click", loadPorts);
  $("link-done").addEventListener("click", linkDone);
  $("board-yes").addEventListener("click", boardYes);
  $("board-no").addEventListener("click", boardNo);
  $("listen-again").addEventListener("click", startListening);
  $("moment-note").addEventListener("click", noteMoment);
  $("layout-find").addEventListener("click", findLayout);
  $("layout-accept").addEventListener("click", acceptLayout);
  $("button-listen").addEventListener("click", listenForButton);
  $("button-use").addEventListener("click", useButton);
  $("button-sources-again").addEventListener("click", loadButtonSources);
  // Picking a device ticks its source.
  [["button-serial", "source-serial"], ["button-device", "source-device"], ["gpio-chip", "source-gpio"], ["gpio-lines", "source-gpio"]]
    .forEach((pair) => $(pair[0]).addEventListener("change", () => { $(pair[1]).checked = true; }));
  $("preview").addEventListener("click", preview);
  $("save").addEventListener("click", save);
  document.querySelectorAll("[data-next]").forEach((b) => b.addEventListener("click", () => goTo(b.getAttribute("data-next"))));
}
async function start() {
  wire();
  const consoles = await api("GET", "/api/consoles");
  if (consoles.ok) state.consoles = consoles.json.consoles; else say("banner", errorOf(consoles));
  await loadConfig(); showCourts();
  if (state.config && state.config.places.length === 0) addCourt();
}
document.addEventListener("DOMContentLoaded", start);
`
