/**
 * The status page's script (/status.js, bundled by esbuild from these modules: status-script.ts):
 * it fetches /status.json every 2 s and draws one card per place. Every value goes in through
 * textContent, never as HTML: error texts come from devices and the network. Nothing is global.
 */
import { card } from "./card.ts"
import { clock, venueClock } from "./clock.ts"
import { ago, byId, el, table } from "./page-parts.ts"
import type { Snapshot } from "./snapshot-types.ts"
import { showTimelines } from "./timeline.ts"

/** The upgrade guard went back a version: said until a later version passes its watch. `command` parts in <code>. */
const rollback = (r: Snapshot["rollback"]): void => {
  const b = byId("rollback")
  b.replaceChildren()
  b.style.display = r ? "block" : "none"
  if (!r) return
  r.text.split("`").forEach((part, i) => b.appendChild(i % 2 === 1 ? el("code", null, part) : document.createTextNode(part)))
}

const overall = (s: Snapshot): void => {
  const o = byId("overall")
  o.textContent = s.healthy ? "ALL LIVE" : s.reasons.length + " PROBLEM" + (s.reasons.length > 1 ? "S" : "")
  o.className = "pill " + (s.healthy ? "ok" : "bad")
  byId("meta").textContent = "updated " + clock(s.generatedAt) + " · running since " + clock(s.startedAt) +
    (s.clockSkewMs === null ? "" : " · clock vs service " + (s.clockSkewMs >= 0 ? "+" : "") + (s.clockSkewMs / 1000).toFixed(1) + " s") +
    " · times in " + s.venueClock.timeZone
}

const tokenState = (t: Snapshot["token"], now: number): HTMLSpanElement =>
  t.suspended
    ? el("span", "pill bad", "PAUSED: " + t.suspended)
    : t.backoffUntil
    ? el("span", "pill warn", "BACKING OFF (429) for " + Math.ceil((t.backoffUntil - now) / 1000) + " s")
    : el("span", "pill ok", "OK")

const tables = (s: Snapshot): void => {
  const t = s.token
  table("token", [
    ["State", tokenState(t, s.generatedAt)],
    ["Requests, last minute", t.sentLastMinute + " of " + t.limitPerMinute + " allowed"],
    ["Waiting for a slot", t.waiting.click + " clicks · " + t.waiting.score + " live scores · " + t.waiting.backlog + " past events' entries"]
  ])
  table("links", s.links.map((l) => [
    l.name,
    el("span", "pill " + (l.up ? "ok" : "bad"), l.up ? "UP" : l.state.toUpperCase()),
    l.target + (l.detail && !l.up ? " — " + l.detail : ""),
    (l.up ? "up" : "down") + " since " + clock(l.since) + (l.connects > 1 ? " · " + (l.connects - 1) + " reconnects" : "")
  ]))
}

const render = (s: Snapshot): void => {
  venueClock(s.venueClock)
  overall(s)
  rollback(s.rollback)
  const reasons = byId("reasons")
  reasons.replaceChildren()
  s.reasons.forEach((r) => reasons.appendChild(el("li", null, r)))
  const places = byId("places")
  places.replaceChildren()
  s.places.forEach((p) => places.appendChild(card(p, s.generatedAt)))
  showTimelines(s.timelines)
  tables(s)
}

let lastOk = 0

const notAnswering = (e: Error): void => {
  const b = byId("banner")
  b.style.display = "block"
  b.textContent = "The bridge is not answering (" + e.message + ")" + (lastOk ? "; last update " + ago(lastOk, Date.now()) : "") + ". What you see may be out of date."
}

const tick = (): void => {
  fetch("status.json", { cache: "no-store" })
    .then((r) => {
      if (!r.ok) throw new Error("HTTP " + r.status)
      return r.json() as Promise<Snapshot>
    })
    .then((s) => {
      lastOk = Date.now()
      byId("banner").style.display = "none"
      render(s)
    })
    .catch(notAnswering)
    .finally(() => {
      window.setTimeout(tick, 2000)
    })
}

tick()
