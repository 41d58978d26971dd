/**
 * Step 5: a listening session on the chosen link, its light and reading polled every second. A
 * console the running bridge reads already (an existing court) cannot be opened twice: the page
 * shows what the bridge hears on it instead.
 */
import type { DaemonAnswer, ListenBody, ListenOpened, ListenView, StatusLight } from "./api-types.ts"
import { api, errorOf } from "./api.ts"
import { hms } from "./clock.ts"
import { $, entries, goTo, onStopPolling, say, state, summary } from "./core.ts"
import { linkText } from "./link-kinds.ts"

/** The session being polled, and the place whose reading the bridge shows instead of one. */
const listening: { id: string | null; timer: number | null; bridgeReads: string | null } = { id: null, timer: null, bridgeReads: null }

export const listeningId = (): string | null => listening.id
export const bridgeReadsIt = (): boolean => listening.bridgeReads !== null

/** A court typed without a sport goes without one: the server says what is missing. */
type ListenAsk = Omit<ListenBody, "sport"> & { readonly sport?: string }

const listenBody = (): ListenAsk | null => {
  if (!state.console || !state.place || !state.link) return null
  const { serial, tcp, udp } = state.link
  return { protocol: state.console.protocol, sport: state.place.sport, options: state.options, link: { serial, tcp, udp } }
}

export const stopListening = (): void => {
  if (listening.timer) {
    clearTimeout(listening.timer)
    listening.timer = null
  }
  listening.bridgeReads = null
  if (listening.id !== null) {
    void api("DELETE", "/api/listen/" + encodeURIComponent(listening.id))
    listening.id = null
  }
}
onStopPolling(stopListening)

interface Light {
  readonly light: StatusLight
  readonly detail?: string
  readonly reading: { readonly text: string } | null
}

const showLight = (s: Light & Partial<Pick<ListenView, "bytes" | "frames" | "badFrames" | "since">>): void => {
  const badge = $("listen-badge")
  badge.textContent = s.light
  badge.className = "badge " + s.light.replace(" ", "")
  badge.removeAttribute("data-from")
  $("listen-detail").textContent = s.detail || ""
  $("listen-reading").textContent = s.reading ? s.reading.text : ""
  $("listen-counts").textContent = s.bytes === undefined
    ? ""
    : s.bytes + " bytes · " + s.frames + " frames · " + s.badFrames + " bad" + (s.since ? " · since " + hms(s.since) : "")
}

export const startListening = async (): Promise<void> => {
  stopListening()
  const body = listenBody()
  showLight({ light: "DISCONNECTED", detail: "opening " + (state.link ? linkText(state.link) : "the link") + "…", reading: null })
  say("listen-message", "")
  const r = await api<ListenOpened>("POST", "/api/listen", body)
  // A 409 with the place whose scoreboard the running bridge reads on this link.
  if (!r.ok && r.status === 409 && typeof r.json.place === "string") {
    bridgeReads(r.json.place)
    return
  }
  if (!r.ok) {
    say("listen-message", errorOf(r), "")
    return
  }
  listening.id = r.json.id
  void pollListening()
}

const bridgeReads = (key: string): void => {
  listening.bridgeReads = key
  if (key === state.replaces) {
    say("listen-message", "The bridge reads this console now, for " + key + ": its light and reading are shown here. Go on if the board shows this.", "info")
  } else say("listen-message", "The bridge reads this link for " + key + ": pick another adapter or address for this court (its light is shown here).", "")
  void pollBridgeReading()
}

const bridgeLight = (key: string, d: DaemonAnswer): Light => {
  const p = d.reachable ? d.places.find((x) => x.key === key) : undefined
  if (p) return { light: p.light, detail: "the bridge reads this console now: " + (p.detail || ""), reading: p.reading ? { text: p.reading } : null }
  return { light: "DISCONNECTED", detail: d.reachable ? "the bridge has no court " + key : d.detail, reading: null }
}

const pollBridgeReading = async (): Promise<void> => {
  const key = listening.bridgeReads
  if (!key) return
  const r = await api<DaemonAnswer>("GET", "/api/daemon", undefined, true)
  if (listening.bridgeReads !== key) return
  showLight(r.ok ? bridgeLight(key, r.json) : { light: "DISCONNECTED", detail: errorOf(r), reading: null })
  $("listen-badge").setAttribute("data-from", "bridge")
  listening.timer = window.setTimeout(pollBridgeReading, 1500)
}

const pollListening = async (): Promise<void> => {
  const id = listening.id
  if (id === null) return
  const r = await api<ListenView>("GET", "/api/listen/" + encodeURIComponent(id), undefined, true)
  if (id !== listening.id) return
  if (!r.ok) {
    say("listen-message", errorOf(r) + " Listen again to reopen it.", "")
    listening.id = null
    return
  }
  showLight(r.json)
  listening.timer = window.setTimeout(pollListening, 1000)
}

export const boardYes = (): void => {
  const reading = $("listen-reading").textContent
  summary("listen", reading ? "The board showed " + reading + "." : "")
  stopListening()
  goTo("buttons")
}

entries.listen = () => void startListening()
