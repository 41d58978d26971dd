/**
 * Step 5, when the board does not show what was heard: the layout finder on moments the
 * technician types, its options merged once accepted and heard again.
 */
import type { LayoutAnswer, MomentsAnswer } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { hms } from "./clock.ts"
import { $, clear, el, say, state } from "./core.ts"
import { bridgeReadsIt, listeningId, startListening } from "./listen.ts"

export const boardNo = (): void => {
  $("finder").hidden = false
  if (bridgeReadsIt()) {
    say("finder-message", "The layout finder needs the console to itself: stop the bridge (sudo systemctl stop scorebridge), then Listen again.", "")
    return
  }
  $("moment-home").focus()
  say("finder-message", "")
}

const notedText = (): string =>
  [["home", "moment-home"], ["guest", "moment-guest"], ["period", "moment-period"], ["clock", "moment-clock"]]
    .map(([word, id]) => [word, $(id!).value.trim()])
    .filter((p) => p[1] !== "")
    .map((p) => p[0] + " " + p[1])
    .join(" ")

type Moment = MomentsAnswer["moments"][number]

const momentText = (m: Moment): string => hms(m.at) + " — " + m.text

export const noteMoment = async (): Promise<void> => {
  const id = listeningId()
  if (id === null) return say("finder-message", "Not listening: Listen again first.", "")
  const noted = notedText()
  if (!noted) return say("finder-message", "Type what the board shows first.", "")
  const r = await api<MomentsAnswer>("POST", "/api/listen/" + encodeURIComponent(id) + "/moments", { noted })
  if (!r.ok) return say("finder-message", errorOf(r), "")
  const list = clear($("moments"))
  r.json.moments.forEach((m, i) => list.appendChild(el("li", null, "Moment " + (i + 1) + ": " + momentText(m))))
  say("finder-message", "Noted at " + hms(Date.now()) + ". Note another once the board has changed, then Find the layout.", "info")
}

const outcomeWords: Record<LayoutAnswer["outcome"], readonly [string, string]> = {
  found: ["Found: the settings below read the board as you noted it.", "good"],
  ambiguous: ["More than one layout fits: note another moment where the numbers differ, then Find again.", ""],
  "not-found": ["No layout reads the board as noted: check the moments, or the console and its link.", ""]
}

export const findLayout = async (): Promise<void> => {
  const id = listeningId()
  if (id === null) return say("finder-message", "Not listening: Listen again first.", "")
  say("finder-message", "Looking for the fields…", "info")
  $("layout-accept").hidden = true
  const r = await api<LayoutAnswer>("POST", "/api/listen/" + encodeURIComponent(id) + "/layout")
  if (!r.ok) return say("finder-message", errorOf(r), "")
  const lines = clear($("finder-lines"))
  r.json.lines.forEach((l) => lines.appendChild(el("div", null, l === "" ? " " : l)))
  const w = outcomeWords[r.json.outcome] || [String(r.json.outcome), ""]
  say("finder-message", w[0], w[1])
  state.found = r.json.outcome === "found" && r.json.options ? { ...r.json.options } : null
  $("layout-accept").hidden = state.found === null
}

export const acceptLayout = (): void => {
  state.options = Object.assign({}, state.options, state.found)
  state.found = null
  $("layout-accept").hidden = true
  clear($("moments"))
  clear($("finder-lines"))
  $("finder").hidden = true
  say("listen-message", "Listening again with the settings found: check the board once more.", "info")
  void startListening()
}
