/**
 * Step 7: the place as it will be saved, the diff and its problems, the save (a file changed
 * meanwhile is refused, not overwritten), then the daemon's light for the court (after-save.ts).
 */
import type { ChangeBody, PreviewAnswer, SavedAnswer } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { pollDaemon } from "./after-save.ts"
import { stopButtonListening } from "./button-capture.ts"
import { serviceChange, showTokenState } from "./checks.ts"
import { hms } from "./clock.ts"
import { loadConfig } from "./config.ts"
import { $, entries, say, state, summary } from "./core.ts"
import { showCourts } from "./courts.ts"
import { buildPlace } from "./place-build.ts"
import { showDiff, showProblems } from "./save-view.ts"

const mqttChange = (): ChangeBody["mqtt"] => {
  const url = $("mqtt-url").value.trim()
  const now = state.config && state.config.mqtt && state.config.mqtt.url
  return url && url !== now ? { url } : undefined
}

const saveBody = (): ChangeBody => {
  const service = serviceChange()
  const mqtt = mqttChange()
  // A new service address takes the token again in the same save (typed, not yet stored), else the server drops the stored one.
  const token = $("token").value.trim()
  return {
    // No config read (its load failed): no fingerprint matches, the server refuses the save as stale.
    fingerprint: state.config ? state.config.fingerprint : "",
    replaces: state.replaces,
    place: buildPlace(),
    buttons: state.buttons,
    ...(service ? { service } : {}),
    ...(mqtt ? { mqtt } : {}),
    ...(service && service.baseUrl && token ? { token } : {})
  }
}

export const preview = async (): Promise<void> => {
  if (!state.console || !state.place) return say("save-message", "Pick the court and its console first.", "")
  say("save-message", "")
  $<HTMLButtonElement>("save").disabled = true
  const r = await api<PreviewAnswer>("POST", "/api/preview", saveBody())
  if (!r.ok) return say("save-message", errorOf(r), "")
  showProblems(r.json.problems)
  showDiff(r.json.diff)
  const notes = r.json.secrets.map((n) => " Note: " + n + ".").join("")
  if (!r.json.valid) return say("save-message", "Not saved: the config would not be valid. Fix the problems above.", "")
  $<HTMLButtonElement>("save").disabled = false
  say("save-message", "The config is valid with this change. Save to write it and reload the bridge." + notes, "info")
}

const stale = "config.yaml changed since you opened this page (edited by hand, or saved from another browser): nothing was written. Reload the page to start from the file as it is now."

const saved = async (body: ChangeBody, answer: SavedAnswer): Promise<void> => {
  const reload = answer.reload
  const dropped = answer.secrets.map((n) => " " + n.charAt(0).toUpperCase() + n.slice(1) + ".").join("")
  if (body.token) $("token").value = ""
  say("save-message", "Saved at " + hms(Date.now()) + " (the previous version is kept as " + answer.kept + "). " + reload.message + dropped,
    reload.ok && !dropped ? "good" : "")
  state.replaces = state.place ? state.place.key : null
  state.base = buildPlace()
  await loadConfig()
  showCourts()
  showTokenState()
  summary("save", "Saved at " + hms(Date.now()) + ".")
  $("after-save").hidden = false
  void pollDaemon()
}

export const save = async (): Promise<void> => {
  $<HTMLButtonElement>("save").disabled = true
  say("save-message", "Saving…", "info")
  const body = saveBody()
  const r = await api<SavedAnswer>("POST", "/api/save", body)
  // Nothing was written; the page keeps the fingerprint it read, so only a reload (which shows the file as it is now) saves.
  if (r.status === 409) {
    say("save-message", stale, "")
    $("save").setAttribute("data-stale", "yes")
    return
  }
  if (!r.ok && r.status === 422) showProblems(r.json.problems)
  if (!r.ok) return say("save-message", errorOf(r), "")
  await saved(body, r.json)
}

entries.save = () => {
  stopButtonListening()
  void preview()
}
