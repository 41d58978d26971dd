/**
 * Step 6: "press the button now" listens on every source ticked (the broker, a serial
 * button box, an input device, GPIO lines) at once and binds whichever fired, with what
 * it does here; the overlay preview of the court as it would be saved.
 */
export const scriptButtons = String.raw`
function stopButtonListening() {
  if (state.buttonTimer) { clearTimeout(state.buttonTimer); state.buttonTimer = null; }
  if (state.buttonId !== null) { api("DELETE", "/api/buttons/listen/" + encodeURIComponent(state.buttonId)); state.buttonId = null; }
}
function fillSelect(id, boxId, items, empty) {
  const select = clear($(id)); const box = $(boxId);
  if (items.length === 0) { const o = el("option", null, empty); o.value = ""; select.appendChild(o); box.checked = false; }
  items.forEach((i) => { const o = el("option", null, i.text); o.value = i.value; select.appendChild(o); });
  select.disabled = items.length === 0; box.disabled = items.length === 0;
}
// The lists of step 6: serial adapters no court reads, input devices, GPIO chips.
async function loadButtonSources() {
  const [ports, devices] = await Promise.all([api("GET", "/api/serial-ports"), api("GET", "/api/buttons/devices")]);
  const board = state.link && state.link.serial && state.link.serial.path;
  const free = ports.ok ? ports.json.ports.filter((p) => !p.usedBy && p.path !== board) : [];
  fillSelect("button-serial", "source-serial", free.map((p) => ({ value: p.path, text: p.path.replace(/^.*[/]/, "") + " · " + p.device })), "no free USB serial adapter");
  const d = devices.ok ? devices.json : { inputs: [], gpiochips: [] };
  fillSelect("button-device", "source-device", d.inputs.map((i) => ({ value: i.path, text: i.path.replace(/^.*[/]/, "") })), "no input device");
  fillSelect("gpio-chip", "source-gpio", d.gpiochips.map((c) => ({ value: c.chip, text: c.chip + (c.label ? " · " + c.label : "") })), "no GPIO chip");
}
function gpioLines() { return $("gpio-lines").value.split(/[\s,]+/).filter((x) => x !== "").map(Number); }
// Only what is ticked; null with what is missing when nothing is.
function buttonSources() {
  const sources = {};
  if ($("source-mqtt").checked) { const url = $("mqtt-url").value.trim(); sources.mqtt = url ? { url: url } : {}; }
  if ($("source-serial").checked && $("button-serial").value) sources.serial = { path: $("button-serial").value };
  if ($("source-device").checked && $("button-device").value) sources.device = $("button-device").value;
  if ($("source-gpio").checked && $("gpio-chip").value) sources.gpio = { chip: $("gpio-chip").value, lines: gpioLines() };
  return Object.keys(sources).length > 0 ? sources : null;
}
function showButtonLinks(links) {
  const list = clear($("button-links"));
  (links || []).forEach((l) => { const li = el("li"); li.setAttribute("data-link", l.link); li.setAttribute("data-state", l.state);
    li.appendChild(el("span", null, l.link + " " + l.target + ": " + l.state + (l.detail ? " (" + l.detail + ")" : ""))); list.appendChild(li); });
}
async function listenForButton() {
  stopButtonListening(); $("button-found").hidden = true; state.pressed = null;
  const press = $("button-press"); press.hidden = false; showButtonLinks([]);
  const sources = buttonSources();
  if (!sources) { press.textContent = "Tick a source to listen on first."; return; }
  press.textContent = "Starting…";
  const r = await api("POST", "/api/buttons/listen", { sources: sources });
  if (!r.ok) { press.textContent = errorOf(r); return; }
  state.buttonId = r.json.id; press.textContent = "Press the button now"; pollButton();
}
async function pollButton() {
  const id = state.buttonId; if (id === null) return;
  const r = await api("GET", "/api/buttons/listen/" + encodeURIComponent(id), undefined, true);
  if (id !== state.buttonId) return;
  if (!r.ok) { $("button-press").textContent = errorOf(r); state.buttonId = null; return; }
  if (r.json.pressed) { pressed(r.json.pressed); return; }
  showButtonLinks(r.json.links);
  if (r.json.unusable) $("button-press").textContent = "Press the button now (heard " + r.json.unusable + ")";
  state.buttonTimer = setTimeout(pollButton, 700);
}
function pressed(p) {
  stopButtonListening(); state.pressed = p; $("button-press").hidden = true; $("button-found").hidden = false; showButtonLinks([]);
  $("button-described").textContent = "Heard at " + hms(Date.now()) + ": " + p.described;
}
function teamWord(t) { return t === "away" ? "guest" : t; }
function actionText(a) { return a.gesture + " on " + a.source + (a.button !== undefined ? " button " + a.button : "") + ": " + (a.do === "undo" ? "undo" : "highlight for " + teamWord(a.team)); }
function useButton() {
  const p = state.pressed; if (!p) return;
  state.buttons = state.buttons.filter((b) => b.name !== p.entry.name).concat([p.entry]);
  const action = { source: p.entry.name, gesture: p.gesture, do: $("button-do").value };
  if (p.button !== undefined && p.button !== null) action.button = p.button;
  if (action.do === "highlight") action.team = $("button-team").value;
  state.actions = state.actions.filter((a) => !(a.source === action.source && a.button === action.button && a.gesture === action.gesture)).concat([action]);
  state.pressed = null; $("button-found").hidden = true; showActions(); overlayPreview();
}
function showActions() {
  const list = clear($("actions"));
  if (state.actions.length === 0) list.appendChild(el("li", "muted", "None yet: Listen for a button, then press it."));
  state.actions.forEach((a, i) => { const li = el("li"); li.setAttribute("data-action", String(i)); li.appendChild(el("span", null, actionText(a)));
    const remove = el("button", "danger", "Remove"); remove.type = "button"; remove.addEventListener("click", () => { state.actions.splice(i, 1); showActions(); }); li.appendChild(remove); list.appendChild(li); });
  summary("buttons", state.actions.length + " button action(s).");
}
function overlayBlock(t) {
  const d = el("div", "overlay"); d.setAttribute("data-overlay", t.team);
  d.appendChild(el("span", "team", teamWord(t.team))); d.appendChild(el("span", null, t.text || t.missing || "no overlay"));
  (t.problems || []).forEach((p) => d.appendChild(el("div", "bad-text", String(p))));
  (t.lines || []).forEach((l) => d.appendChild(el("div", "small", l)));
  return d;
}
async function overlayPreview() {
  const box = clear($("overlay-preview")); if (!state.console) return;
  const r = await api("POST", "/api/overlay-preview", { place: buildPlace() });
  if (!r.ok) { box.appendChild(el("p", "muted", errorOf(r))); return; }
  (r.json.teams || []).forEach((t) => box.appendChild(overlayBlock(t)));
  if ((r.json.teams || []).length === 0) box.appendChild(el("p", "muted", "No overlay: highlights carry the score only."));
}
entries.buttons = () => { if (!$("mqtt-url").value && state.config && state.config.mqtt) $("mqtt-url").value = state.config.mqtt.url; showActions(); overlayPreview(); loadButtonSources(); };
`
