/**
 * Step 1: the doctor's checks, the token (a password field, stored and forgotten: the
 * page never gets it back, only whether one is stored) and the service's address and
 * organization, which go into the save with the court.
 */
export const scriptChecks = String.raw`
const checkClass = { ok: "ok", warn: "warn", fail: "fail" };
function checkItem(c) {
  const li = el("li"); li.setAttribute("data-check", c.status);
  li.appendChild(el("span", "pill " + (checkClass[c.status] || "neutral"), c.status === "ok" ? "OK" : c.status.toUpperCase()));
  li.appendChild(el("span", "title", c.title));
  if (c.detail) li.appendChild(el("span", "detail", c.detail));
  if (c.fix && c.status !== "ok") li.appendChild(el("span", "fix", "To do: " + c.fix));
  return li;
}
async function loadChecks() {
  const list = clear($("checks")); list.appendChild(el("li", "muted", "Checking…")); summary("checks", "Checking…");
  const r = await api("GET", "/api/checks");
  clear(list);
  if (!r.ok) { list.appendChild(checkItem({ status: "fail", title: "The checks did not run", detail: errorOf(r) })); return; }
  r.json.checks.forEach((c) => list.appendChild(checkItem(c)));
  const failed = r.json.checks.filter((c) => c.status === "fail").length;
  summary("checks", failed === 0 ? "All checks pass." : failed + " check(s) need attention.");
}
function showTokenState() {
  const stored = state.config && state.config.tokenStored;
  $("token-state").textContent = stored ? "A token is stored. Paste a new one only to replace it." : "No token is stored yet: paste the one the service gave you.";
}
async function storeToken(event) {
  event.preventDefault();
  const field = $("token"); const token = field.value; field.value = "";
  if (token.trim() === "") { say("token-message", "Paste the token first.", ""); return; }
  const r = await api("POST", "/api/token", { token: token });
  if (!r.ok) { say("token-message", errorOf(r), ""); return; }
  // A bridge that already reads the stored token is restarted with it now; otherwise the save does it.
  const reload = r.json.reload;
  say("token-message", "Token stored at " + hms(Date.now()) + ". It is not shown again. " +
    (reload ? reload.message : "The bridge takes it when the court is saved."), reload && !reload.ok ? "" : "good");
  await loadConfig(); showTokenState(); loadChecks();
}
function fillService() {
  const s = (state.config && state.config.service) || {};
  if (!$("base-url").value) $("base-url").value = s.baseUrl || "";
  if (!$("company-key").value) $("company-key").value = s.companyKey || "";
}
// Only what the technician changed goes into the save: an untouched service block stays as written.
function serviceChange() {
  const s = (state.config && state.config.service) || {}; const out = {};
  const baseUrl = $("base-url").value.trim(), companyKey = $("company-key").value.trim();
  if (baseUrl && baseUrl !== s.baseUrl) out.baseUrl = baseUrl;
  if (companyKey && companyKey !== s.companyKey) out.companyKey = companyKey;
  return Object.keys(out).length > 0 ? out : undefined;
}
entries.checks = () => { showTokenState(); fillService(); loadChecks(); };
`
