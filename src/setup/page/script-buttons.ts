/**
 * Step 6: "press the button now" binds whichever source fired, with what it does here,
 * and the overlay preview of the court as it would be saved.
 */
export const scriptButtons = String.raw`
function stopButtonListening() {
  if (state.buttonTimer) { clearTimeout(state.buttonTimer); state.buttonTimer = null; }
  if (state.buttonId !== null) { api("DELETE", "/api/buttons/listen/" + encodeURIComponent(state.buttonId)); state.buttonId = null; }
}
function buttonSources() { const url = $("mqtt-url").value.trim(); return { mqtt: url ? { url: url } : {} }; }
async function listenForButton() {
  stopButtonListening(); $("button-found").hidden = true; state.pressed = null;
  const press = $("button-press"); press.hidden = false; press.textContent = "Starting…";
  const r = await api("POST", "/api/buttons/listen", { sources: buttonSources() });
  if (!r.ok) { press.textContent = errorOf(r); return; }
  state.buttonId = r.json.id; press.textContent = "Press the button now"; pollButton();
}
async function pollButton() {
  const id = state.buttonId; if (id === null) return;
  const r = await api("GET", "/api/buttons/listen/" + encodeURIComponent(id));
  if (id !== state.buttonId) return;
  if (!r.ok) { $("button-press").textContent = errorOf(r); state.buttonId = null; return; }
  if (r.json.pressed) { pressed(r.json.pressed); return; }
  state.buttonTimer = setTimeout(pollButton, 700);
}
function pressed(p) {
  stopButtonListening(); state.pressed = p; $("button-press").hidden = true; $("button-found").hidden = false;
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
entries.buttons = () => { if (!$("mqtt-url").value && state.config && state.config.mqtt) $("mqtt-url").value = state.config.mqtt.url; showActions(); overlayPreview(); };
`
