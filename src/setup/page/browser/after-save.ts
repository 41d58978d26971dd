/**
 * After a save: the daemon's light for the court and its first delivered entry, polled; a test
 * press's clip, or whether an event is open at the court at all.
 */
import type { DaemonAnswer, DaemonPlace } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { hms } from "./clock.ts"
import { $, onStopPolling, state } from "./core.ts"

const daemon: { timer: number | null } = { timer: null }

const stopDaemonPolling = (): void => {
  if (daemon.timer) {
    clearTimeout(daemon.timer)
    daemon.timer = null
  }
}
onStopPolling(stopDaemonPolling)

type Clip = NonNullable<DaemonPlace["lastClip"]>

const clipText = (c: Clip): string =>
  [c.outcome ? String(c.outcome).replace("-", " ").toUpperCase() : "WAITING", c.text || "", c.pressedAt ? "pressed " + hms(c.pressedAt) : ""]
    .filter((x) => x)
    .join(" · ")

const eventWords = (e: DaemonPlace["event"] | null): string => {
  if (e === null || e.open === null) return "The bridge has not yet heard from the service whether an event is open at this court."
  if (!e.open) return "No event is open at this court, so a press makes no clip until one is: open the event on the service, then press."
  const teams = e.homeTeam && e.awayTeam ? " (" + e.homeTeam + " v " + e.awayTeam + ")" : ""
  return "An event is open at this court" + teams + ": press the button now, the clip's outcome shows here."
}

/** A test press makes a clip only while an event is open at the court (status.json's event for the place). */
const showEvent = (e: DaemonPlace["event"] | null): void => {
  const open = e ? e.open : null
  const clip = $("daemon-clip")
  clip.setAttribute("data-event", open === true ? "open" : open === false ? "none" : "unknown")
  clip.textContent = eventWords(e)
}

const showEntry = (p: DaemonPlace | undefined): void => {
  const entry = p && p.lastEntry
  $("daemon-entry").textContent = !entry
    ? "none yet"
    : (entry.delivered ? "delivered, " : "not delivered yet (" + (entry.state || "waiting") + "), ") + "at " + hms(entry.at)
  $("daemon-entry").setAttribute("data-delivered", entry && entry.delivered ? "yes" : "no")
}

const showDaemonPlace = (d: DaemonAnswer): void => {
  const key = state.place ? state.place.key : null
  const p = d.reachable ? d.places.find((x) => x.key === key) : undefined
  const badge = $("daemon-badge")
  const light = p ? p.light : "DISCONNECTED"
  badge.textContent = light
  badge.className = "badge " + light.replace(" ", "")
  $("daemon-detail").textContent = !d.reachable
    ? "The bridge does not answer yet (" + (d.detail || "restarting?") + ")."
    : p
    ? p.detail || ""
    : "The bridge has not loaded this court yet."
  showEntry(p)
  if (p && p.lastClip) {
    $("daemon-clip").textContent = clipText(p.lastClip)
    $("daemon-clip").setAttribute("data-clip", p.lastClip.outcome || "waiting")
  } else showEvent(p ? p.event : null)
}

export const pollDaemon = async (): Promise<void> => {
  stopDaemonPolling()
  const r = await api<DaemonAnswer>("GET", "/api/daemon", undefined, true)
  if (r.status === 401) return
  showDaemonPlace(r.ok ? r.json : { reachable: false, detail: errorOf(r), places: [] })
  daemon.timer = window.setTimeout(pollDaemon, 2000)
}
