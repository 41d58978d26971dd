/**
 * Step 6, once a button was heard: what it does here (highlight for a team, or undo), the court's
 * button actions, and the overlay preview of the court as it would be saved.
 */
import type { OverlayPreviewAnswer, PageAction } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { $, clear, el, entries, state, summary } from "./core.ts"
import { buildPlace } from "./place-build.ts"
import { loadButtonSources } from "./button-capture.ts"

const teamWord = (t: string | undefined): string => (t === "away" ? "guest" : String(t))

const actionText = (a: PageAction): string =>
  a.gesture + " on " + a.source + (a.button !== undefined ? " button " + a.button : "") + ": " +
  (a.do === "undo" ? "undo" : "highlight for " + teamWord(a.team))

const teams = ["home", "away", "none"] as const
const teamPicked = () => teams.find((t) => t === $<HTMLSelectElement>("button-team").value) || "none"

const sameButton = (a: PageAction, b: PageAction): boolean => a.source === b.source && a.button === b.button && a.gesture === b.gesture

export const useButton = (): void => {
  const p = state.pressed
  if (!p) return
  state.buttons = state.buttons.filter((b) => b.name !== p.entry.name).concat([p.entry])
  const what = $<HTMLSelectElement>("button-do").value
  const button = p.button !== undefined && p.button !== null ? { button: p.button } : {}
  const action: PageAction = what === "undo"
    ? { source: p.entry.name, gesture: p.gesture, do: "undo", ...button }
    : { source: p.entry.name, gesture: p.gesture, do: "highlight", team: teamPicked(), ...button }
  state.actions = state.actions.filter((a) => !sameButton(a, action)).concat([action])
  state.pressed = null
  $("button-found").hidden = true
  showActions()
  void overlayPreview()
}

export const showActions = (): void => {
  const list = clear($("actions"))
  if (state.actions.length === 0) list.appendChild(el("li", "muted", "None yet: Listen for a button, then press it."))
  state.actions.forEach((a, i) => {
    const li = el("li")
    li.setAttribute("data-action", String(i))
    li.appendChild(el("span", null, actionText(a)))
    const remove = el("button", "danger", "Remove")
    remove.type = "button"
    remove.addEventListener("click", () => {
      state.actions.splice(i, 1)
      showActions()
    })
    li.appendChild(remove)
    list.appendChild(li)
  })
  summary("buttons", state.actions.length + " button action(s).")
}

const overlayBlock = (t: OverlayPreviewAnswer["teams"][number]): HTMLDivElement => {
  const d = el("div", "overlay")
  d.setAttribute("data-overlay", t.team)
  d.appendChild(el("span", "team", teamWord(t.team)))
  d.appendChild(el("span", null, t.text || "no overlay"))
  t.problems.forEach((p) => d.appendChild(el("div", "bad-text", String(p))))
  t.lines.forEach((l) => d.appendChild(el("div", "small", l)))
  return d
}

export const overlayPreview = async (): Promise<void> => {
  const box = clear($("overlay-preview"))
  if (!state.console) return
  const r = await api<OverlayPreviewAnswer>("POST", "/api/overlay-preview", { place: buildPlace() })
  if (!r.ok) {
    box.appendChild(el("p", "muted", errorOf(r)))
    return
  }
  r.json.teams.forEach((t) => box.appendChild(overlayBlock(t)))
  if (r.json.teams.length === 0) box.appendChild(el("p", "muted", "No overlay: highlights carry the score only."))
}

entries.buttons = () => {
  if (!$("mqtt-url").value && state.config && state.config.mqtt) $("mqtt-url").value = state.config.mqtt.url
  showActions()
  void overlayPreview()
  void loadButtonSources()
}
