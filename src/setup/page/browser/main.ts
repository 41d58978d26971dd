/**
 * The setup page's script (/setup.js, bundled by esbuild from these modules: setup-script.ts):
 * every control bound here with addEventListener, nothing global, nothing inline.
 */
import type { ConsolesAnswer } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { listenForButton, loadButtonSources } from "./button-capture.ts"
import { useButton } from "./button-actions.ts"
import { loadChecks, storeToken } from "./checks.ts"
import { loadConfig } from "./config.ts"
import { $, goTo, isStep, say, state } from "./core.ts"
import { addCourt, showCourts } from "./courts.ts"
import { acceptLayout, boardNo, findLayout, noteMoment } from "./finder.ts"
import { linkDone, loadPorts } from "./link.ts"
import { boardYes, startListening } from "./listen.ts"
import { placeTyped } from "./place.ts"
import { preview, save } from "./save.ts"
import "./console.ts"

const clicks: ReadonlyArray<readonly [string, () => unknown]> = [
  ["court-add", addCourt],
  ["checks-again", loadChecks],
  ["place-typed", placeTyped],
  ["ports-again", loadPorts],
  ["link-done", linkDone],
  ["board-yes", boardYes],
  ["board-no", boardNo],
  ["listen-again", startListening],
  ["moment-note", noteMoment],
  ["layout-find", findLayout],
  ["layout-accept", acceptLayout],
  ["button-listen", listenForButton],
  ["button-use", useButton],
  ["button-sources-again", loadButtonSources],
  ["preview", preview],
  ["save", save]
]

// Picking a device ticks its source.
const ticks: ReadonlyArray<readonly [string, string]> = [
  ["button-serial", "source-serial"], ["button-device", "source-device"], ["gpio-chip", "source-gpio"], ["gpio-lines", "source-gpio"]
]

const wire = (): void => {
  clicks.forEach(([id, act]) => $(id).addEventListener("click", () => void act()))
  $("token-form").addEventListener("submit", (event) => void storeToken(event))
  ticks.forEach(([control, box]) => $(control).addEventListener("change", () => {
    $(box).checked = true
  }))
  document.querySelectorAll("[data-next]").forEach((b) =>
    b.addEventListener("click", () => {
      const next = b.getAttribute("data-next")
      if (isStep(next)) goTo(next)
    })
  )
}

const start = async (): Promise<void> => {
  wire()
  const consoles = await api<ConsolesAnswer>("GET", "/api/consoles")
  if (consoles.ok) state.consoles = consoles.json.consoles
  else say("banner", errorOf(consoles))
  await loadConfig()
  showCourts()
  if (state.config && state.config.places.length === 0) addCourt()
}

document.addEventListener("DOMContentLoaded", () => void start())
