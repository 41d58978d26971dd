/** The config as the setup server reads it (GET /api/config), its state line and its problems. */
import type { ConfigView } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { venueClock } from "./clock.ts"
import { $, clear, el, say, state } from "./core.ts"

const reloadWords: Record<ConfigView["reload"], string> = {
  systemd: "saving reloads the bridge's service",
  pid: "saving reloads the running bridge",
  "path-unit": "saving reloads the bridge's service (systemd sees the file replaced)",
  none: "no running bridge to reload: start it after saving"
}

export const problemLine = (p: { readonly path?: string; readonly message: string; readonly line?: number | undefined }): HTMLDivElement => {
  const d = el("div")
  d.appendChild(el("span", "path", p.path || "config"))
  d.appendChild(document.createTextNode(p.message + (p.line ? " (line " + p.line + ")" : "")))
  return d
}

export const loadConfig = async (): Promise<void> => {
  const r = await api<ConfigView>("GET", "/api/config")
  if (!r.ok) {
    say("banner", errorOf(r))
    return
  }
  state.config = r.json
  venueClock(r.json.venueClock)
  $("meta").textContent = r.json.path + (r.json.venueClock ? " · times in " + r.json.venueClock.timeZone : "")
  $("config-state").textContent = (r.json.valid ? "The config is valid" : "The config has problems") + " · " + (reloadWords[r.json.reload] || "") + "."
  const box = clear($("config-problems"))
  r.json.problems.forEach((p) => box.appendChild(problemLine(p)))
}
