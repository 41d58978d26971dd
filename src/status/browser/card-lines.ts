/** The lines of a place's card: what the board shows, what was sent, what waits, the last press and its clip. */
import { answer, clipBadge, clipLink } from "./answers.ts"
import { clock } from "./clock.ts"
import { ago, el, span } from "./page-parts.ts"
import type { PlaceStatus, ScoreEntry } from "./snapshot-types.ts"

export const scoreLine = (p: PlaceStatus): { readonly line: HTMLSpanElement; readonly scored: boolean } => {
  const r = p.lastReading
  const line = el("span")
  const scored = r !== null && (r.home !== undefined || r.away !== undefined)
  if (r !== null && scored) {
    line.appendChild(el("span", "score", (r.home === undefined ? "?" : r.home) + "–" + (r.away === undefined ? "?" : r.away)))
    line.appendChild(el("span", "small", (p.lastReadingText || "").split(" · ").slice(1).join(" · ")))
  } else line.appendChild(el("span", null, p.lastReadingText || "—"))
  return { line, scored }
}

export const lastFrame = (p: PlaceStatus, now: number): string =>
  p.lastReadingAt
    ? ago(p.lastReadingAt, now) + " (" + clock(p.lastReadingAt) + ")"
    : p.lastBytesAt
    ? "bytes " + ago(p.lastBytesAt, now) + ", none valid"
    : "none yet"

export const eventLine = (ev: PlaceStatus["event"]): string =>
  ev === null
    ? "not known yet"
    : ev.key === null
    ? "no event running"
    : (ev.homeTeam || "Home") + " vs " + (ev.awayTeam || "Away") + "  (" + ev.key + ")"

const entryText = (e: ScoreEntry): string => {
  const games = "scoreValue" in e ? e.scoreValue.gameScores : undefined
  const sets = games ? games.map((g) => g[0] + "-" + g[1]).join(" ") : ""
  const points = "scoreValue" in e && "pointScore" in e.scoreValue ? " (" + e.scoreValue.pointScore.join("–") + ")" : ""
  return "left" in e && !sets ? e.left + "–" + e.right + " P" + e.period : sets + points
}

export const entryLine = (p: PlaceStatus): HTMLSpanElement => {
  const entry = el("span")
  if (!p.lastEntry) {
    entry.textContent = "none yet"
    return entry
  }
  entry.appendChild(el("span", null, entryText(p.lastEntry.entry) + " at " + clock(p.lastEntry.entry.timeStamp) + " "))
  entry.appendChild(answer(p.lastEntry.answer))
  return entry
}

export const queueLine = (q: PlaceStatus["queue"], now: number): string =>
  q.score + " scores · " + q.click + " clicks · " + q.undo + " undos" + (q.oldestPendingAt ? " — oldest " + ago(q.oldestPendingAt, now) : "")

/** Of the pending scores, those of past events: null when there are none. */
export const pastEventsLine = (past: PlaceStatus["queue"]["pastEvents"], now: number): HTMLSpanElement | null => {
  if (past.entries <= 0) return null
  const line = el("span", null, past.entries + " entries of " + past.events + " past event" + (past.events === 1 ? "" : "s") + " wait behind the live ones — " +
    (past.throughAt === null
      ? "none being sent now (the service unreachable, or every slot taken by live scores and clicks)"
      : "through in " + span(past.throughAt - now) + " at the current rate (about " + clock(past.throughAt) + ")"))
  line.setAttribute("data-past-events", String(past.entries))
  return line
}

type Press = NonNullable<PlaceStatus["lastPress"]>

const lateLine = (late: NonNullable<Press["late"]>): HTMLDivElement => {
  const line = el("div", "small late", "LATE: waited at the broker while the bridge was not listening; pressed " +
    (late.after === null ? "before " + clock(late.arrivedAt) : "between " + clock(late.after) + " and " + clock(late.arrivedAt)) +
    ", window widened to " + clock(late.startTime) + "–" + clock(late.endTime))
  line.setAttribute("data-late", "")
  return line
}

export const pressLine = (p: PlaceStatus, now: number): HTMLSpanElement => {
  const press = el("span")
  const last = p.lastPress
  if (!last) {
    press.textContent = "none yet"
    return press
  }
  press.appendChild(el("span", null, last.gesture + " on " + last.source + "/" + last.button + ", " + ago(last.at, now) + " "))
  if (last.answer) press.appendChild(answer(last.answer))
  else press.appendChild(el("div", "small", last.text))
  if (last.late) press.appendChild(lateLine(last.late))
  return press
}

export const clipLine = (k: NonNullable<PlaceStatus["lastClick"]>): HTMLSpanElement => {
  const clip = el("span")
  clip.setAttribute("data-clip", k.outcome || "waiting")
  clip.appendChild(clipBadge(k))
  clip.appendChild(el("span", null, " " + k.text + " · #" + k.itemId + " pressed " + clock(k.pressedAt) + " "))
  const link = clipLink(k)
  if (link) clip.appendChild(link)
  return clip
}

export const buttonsLine = (buttons: PlaceStatus["buttons"]): HTMLSpanElement => {
  const b = el("span")
  buttons.forEach((x) => {
    b.appendChild(el("span", "pill " + (x.badge === "LIVE" ? "ok" : "bad"), x.source))
    b.appendChild(document.createTextNode(" "))
  })
  return b
}
