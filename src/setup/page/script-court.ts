/**
 * Steps 2–4: the court from the service's list, the console by maker then model (with
 * its wiring note), and the link: a serial adapter by its stable name, or a network
 * address.
 */
export const scriptCourt = String.raw`
function configured(key) { return ((state.config && state.config.places) || []).some((p) => p.key === key); }
function pickPlace(p) {
  state.place = { key: p.key, name: p.name || undefined, sport: p.sport || undefined };
  summary("place", (p.name || p.key) + " · " + (p.sport || "sport from the service"));
  goTo("console");
}
async function loadServicePlaces() {
  const box = clear($("service-places")); say("places-message", "Asking the service…", "info");
  const r = await api("GET", "/api/service-places");
  if (!r.ok || r.json.error) { say("places-message", errorOf(r) + " You can type the court below.", ""); $("place-by-hand").open = true; return; }
  say("places-message", "");
  r.json.places.forEach((p) => {
    const mine = state.place && state.place.key === p.key;
    const note = p.key + " · " + p.sport + (configured(p.key) && p.key !== state.replaces ? " · already set up: edit it from the list above" : "");
    const b = choice(p.name || p.key, note, mine, () => pickPlace(p)); b.setAttribute("data-place", p.key);
    if (configured(p.key) && p.key !== state.replaces) b.disabled = true;
    box.appendChild(b);
  });
}
function placeTyped() {
  const key = $("place-key").value.trim(); if (!key) { say("places-message", "Type the place key the service uses.", ""); return; }
  pickPlace({ key: key, name: $("place-name").value.trim(), sport: $("place-sport").value.trim() });
}
entries.place = loadServicePlaces;

function makers() { return Array.from(new Set(state.consoles.map((c) => c.maker))).sort(); }
function showMakers() {
  const box = clear($("makers"));
  makers().forEach((m) => { const b = choice(m, null, m === state.maker, () => { state.maker = m; showMakers(); showModels(); }); b.setAttribute("data-maker", m); box.appendChild(b); });
}
function showModels() {
  const box = clear($("models")); $("models-label").hidden = state.maker === null;
  state.consoles.filter((c) => c.maker === state.maker).forEach((c) => {
    const b = choice(c.model, c.summary, state.console === c, () => pickConsole(c)); b.setAttribute("data-model", c.protocol); box.appendChild(b);
  });
}
function consoleFacts(c) {
  const box = clear($("console-facts")); if (!c) return;
  box.appendChild(el("p", null, c.description));
  box.appendChild(el("h3", null, "Wiring"));
  box.appendChild(el("div", "note", c.wiring));
  const sport = state.place && state.place.sport;
  if (sport && c.sports.length > 0 && c.sports.indexOf(sport) < 0) box.appendChild(el("p", "message", "This console does not report " + sport + ": it knows " + c.sports.join(", ") + "."));
  const next = el("button", "primary", "Next: the link"); next.type = "button"; next.addEventListener("click", () => goTo("link"));
  const actions = el("div", "actions"); actions.appendChild(next); box.appendChild(actions);
}
function pickConsole(c) {
  if (state.console !== c) { state.options = c.protocol === (state.base.scoreboard || {}).protocol ? Object.assign({}, state.base.scoreboard.options || {}) : {}; }
  state.console = c; state.maker = c.maker; showModels(); consoleFacts(c);
  if (state.linkKind && linkKinds(c).indexOf(state.linkKind) < 0) { state.linkKind = null; state.link = null; }
  summary("console", c.maker + " " + c.model);
}
entries.console = () => { showMakers(); showModels(); consoleFacts(state.console); };

const linkWords = { serial: "USB serial adapter", "tcp-listen": "Network: the console connects here", "tcp-connect": "Network: connect to the console", udp: "Network: UDP" };
const linkHelp = { "tcp-listen": ["Address and port to listen on", "0.0.0.0:4001", "The console (or its converter) connects to the bridge on this port."],
  "tcp-connect": ["The console's address and port", "192.168.1.50:4001", "The bridge connects to the console or a serial-to-Ethernet converter in TCP server mode."],
  udp: ["Address and port to listen on", "0.0.0.0:4002", "The console sends its datagrams to this port."] };
function linkKinds(c) { const kinds = []; c.links.forEach((l) => { if (l === "tcp") kinds.push("tcp-listen", "tcp-connect"); else kinds.push(l); }); return kinds; }
function showLinkKinds() {
  const box = clear($("link-kinds"));
  linkKinds(state.console).forEach((k) => { const b = el("button", k === state.linkKind ? "chosen" : "", linkWords[k]); b.type = "button"; b.setAttribute("data-link", k);
    b.addEventListener("click", () => { state.linkKind = k; showLinkKinds(); showLinkForm(); }); box.appendChild(b); });
}
function showLinkForm() {
  const k = state.linkKind; $("link-serial").hidden = k !== "serial"; $("link-network").hidden = !k || k === "serial";
  if (k === "serial") { loadPorts(); baudChoices(); return; }
  if (!k) return;
  const h = linkHelp[k]; $("link-address-label").textContent = h[0]; $("link-address").placeholder = h[1]; $("link-address-help").textContent = h[2];
  const l = state.link || {}; $("link-address").value = (k === "udp" ? l.udp && l.udp.listen : k === "tcp-listen" ? l.tcp && l.tcp.listen : l.tcp && l.tcp.connect) || "";
}
function baudChoices() {
  const select = clear($("baud-rate")); const chosen = (state.link && state.link.serial && state.link.serial.baudRate) || state.console.serial.baudRate;
  [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200].forEach((b) => { const o = el("option", null, b + (b === state.console.serial.baudRate ? " (the console's usual)" : "")); o.value = String(b); o.selected = b === chosen; select.appendChild(o); });
}
async function loadPorts() {
  const box = clear($("serial-ports")); const r = await api("GET", "/api/serial-ports");
  if (!r.ok) { box.appendChild(el("p", "message", errorOf(r))); return; }
  if (r.json.ports.length === 0) box.appendChild(el("p", "message", "No USB serial adapter is plugged in. Plug it in, then Look again."));
  const current = state.link && state.link.serial && state.link.serial.path;
  r.json.ports.forEach((p) => {
    // The court being edited may keep its own adapter ("place court-1 scoreboard").
    const used = p.usedBy && !(state.replaces && p.usedBy.indexOf("place " + state.replaces + " ") === 0);
    const b = choice(p.path.replace(/^.*[/]/, ""), p.device + (p.usedBy ? " · used by " + p.usedBy : ""), p.path === current, () => { state.link = { serial: { path: p.path } }; loadPorts(); });
    b.setAttribute("data-port", p.path); if (used) b.disabled = true; box.appendChild(b);
  });
}
function linkFromForm() {
  const k = state.linkKind;
  if (k === "serial") { const path = state.link && state.link.serial && state.link.serial.path; if (!path) return null;
    const s = { path: path }; const baud = Number($("baud-rate").value); if (baud !== state.console.serial.baudRate) s.baudRate = baud; return { serial: s }; }
  const address = $("link-address").value.trim(); if (!address) return null;
  return k === "udp" ? { udp: { listen: address } } : k === "tcp-listen" ? { tcp: { listen: address } } : { tcp: { connect: address } };
}
function linkDone() {
  const link = linkFromForm();
  if (!link) { alertIn("link-done", state.linkKind === "serial" ? "Pick the adapter first." : "Type the address first."); return; }
  state.link = link; summary("link", linkText(link)); goTo("listen");
}
function linkText(l) { return l.serial ? l.serial.path + (l.serial.baudRate ? " at " + l.serial.baudRate + " baud" : "") : l.udp ? "UDP " + l.udp.listen : l.tcp.listen ? "listen " + l.tcp.listen : "connect " + l.tcp.connect; }
function alertIn(buttonId, text) { const b = $(buttonId); let m = b.parentNode.querySelector(".message"); if (!m) { m = el("p", "message"); b.parentNode.appendChild(m); } m.textContent = text; }
function linkKindOf(l) { return !l ? null : l.serial ? "serial" : l.udp ? "udp" : l.tcp && l.tcp.listen ? "tcp-listen" : "tcp-connect"; }
entries.link = () => { if (!state.linkKind) state.linkKind = linkKindOf(state.link) || linkKinds(state.console)[0]; showLinkKinds(); showLinkForm(); };
`
