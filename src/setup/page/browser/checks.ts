/**
 * Step 1: the doctor's checks, the token (a password field, stored and forgotten: the page never
 * gets it back, only whether one is stored) and the service's address and organization, which go
 * into the save with the court.
 */
import type { ChangeBody, ChecksAnswer, SetupCheck, TokenAnswer } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { hms } from "./clock.ts"
import { loadConfig } from "./config.ts"
import { $, clear, el, entries, say, state, summary } from "./core.ts"

const checkClass: Record<string, string> = { ok: "ok", warn: "warn", fail: "fail" }

const checkItem = (c: Pick<SetupCheck, "status" | "title" | "detail" | "fix">): HTMLLIElement => {
  const li = el("li")
  li.setAttribute("data-check", c.status)
  li.appendChild(el("span", "pill " + (checkClass[c.status] || "neutral"), c.status === "ok" ? "OK" : c.status.toUpperCase()))
  li.appendChild(el("span", "title", c.title))
  if (c.detail) li.appendChild(el("span", "detail", c.detail))
  if (c.fix && c.status !== "ok") li.appendChild(el("span", "fix", "To do: " + c.fix))
  return li
}

export const loadChecks = async (): Promise<void> => {
  const list = clear($("checks"))
  list.appendChild(el("li", "muted", "Checking…"))
  summary("checks", "Checking…")
  const r = await api<ChecksAnswer>("GET", "/api/checks")
  clear(list)
  if (!r.ok) {
    list.appendChild(checkItem({ status: "fail", title: "The checks did not run", detail: errorOf(r) }))
    return
  }
  r.json.checks.forEach((c) => list.appendChild(checkItem(c)))
  const failed = r.json.checks.filter((c) => c.status === "fail").length
  summary("checks", failed === 0 ? "All checks pass." : failed + " check(s) need attention.")
}

export const showTokenState = (): void => {
  const stored = state.config && state.config.tokenStored
  $("token-state").textContent = stored
    ? "A token is stored. Paste a new one only to replace it."
    : "No token is stored yet: paste the one the service gave you."
}

export const storeToken = async (event: Event): Promise<void> => {
  event.preventDefault()
  const field = $("token")
  const token = field.value
  field.value = ""
  if (token.trim() === "") {
    say("token-message", "Paste the token first.", "")
    return
  }
  const r = await api<TokenAnswer>("POST", "/api/token", { token })
  if (!r.ok) {
    say("token-message", errorOf(r), "")
    return
  }
  // A bridge that already reads the stored token is restarted with it now; otherwise the save does it.
  const reload = r.json.reload
  say("token-message", "Token stored at " + hms(Date.now()) + ". It is not shown again. " +
    (reload ? reload.message : "The bridge takes it when the court is saved."), reload && !reload.ok ? "" : "good")
  await loadConfig()
  showTokenState()
  void loadChecks()
}

const fillService = (): void => {
  const s = (state.config && state.config.service) || { baseUrl: undefined, companyKey: undefined }
  if (!$("base-url").value) $("base-url").value = typeof s.baseUrl === "string" ? s.baseUrl : ""
  if (!$("company-key").value) $("company-key").value = typeof s.companyKey === "string" ? s.companyKey : ""
}

/** Only what the technician changed goes into the save: an untouched service block stays as written. */
export const serviceChange = (): ChangeBody["service"] => {
  const s = (state.config && state.config.service) || { baseUrl: undefined, companyKey: undefined }
  const out: { baseUrl?: string; companyKey?: string } = {}
  const baseUrl = $("base-url").value.trim(), companyKey = $("company-key").value.trim()
  if (baseUrl && baseUrl !== s.baseUrl) out.baseUrl = baseUrl
  if (companyKey && companyKey !== s.companyKey) out.companyKey = companyKey
  return Object.keys(out).length > 0 ? out : undefined
}

entries.checks = () => {
  showTokenState()
  fillService()
  void loadChecks()
}
