/** One place's card: its light and why, what the board shows, what was sent and what waits, its race, its timeline, its recent errors. */
import { buttonsLine, clipLine, entryLine, eventLine, lastFrame, pastEventsLine, pressLine, queueLine, scoreLine } from "./card-lines.ts"
import { clock } from "./clock.ts"
import { el, row } from "./page-parts.ts"
import { finishes, raceView } from "./race.ts"
import type { PlaceStatus } from "./snapshot-types.ts"
import { timelineFigure } from "./timeline.ts"

const head = (p: PlaceStatus, badgeKey: string): HTMLDivElement => {
  const h = el("div", "head")
  h.appendChild(el("h2", null, p.name || p.key))
  const badge = el("div", "badge " + badgeKey, p.source.badge)
  badge.setAttribute("data-badge", "")
  h.appendChild(badge)
  return h
}

/** The place's reasons not said by its light's detail or its clip problem line. */
const problems = (p: PlaceStatus): HTMLDivElement => {
  const cp = p.clipProblem
  const box = el("div", "problems")
  p.reasons
    .filter((r) => r.indexOf(p.source.detail) < 0 && !(cp && r === p.key + ": " + cp.text))
    .forEach((r) => box.appendChild(el("div", null, r.replace(p.key + ": ", ""))))
  return box
}

const facts = (p: PlaceStatus, now: number): HTMLDListElement => {
  const dl = el("dl")
  const score = scoreLine(p)
  // A race without team scores: its own line says all the board shows.
  if (!p.race || score.scored) row(dl, "Scoreboard", score.line)
  if (p.race) row(dl, "Race", raceView(p.race))
  const shown = p.lastReading && p.lastReading.shown
  if (shown) {
    shown.forEach((x) => {
      const code = el("code", "shown", x.text)
      code.setAttribute("data-shown", x.label)
      row(dl, x.label, code)
    })
  }
  row(dl, "Last frame", lastFrame(p, now))
  const d = p.decoder
  row(dl, "Frames", d.frames + " ok · " + d.badFrames + " bad · " + d.overlong + " overlong")
  row(dl, "Event", eventLine(p.event))
  row(dl, "Last entry", entryLine(p))
  row(dl, "Queue", queueLine(p.queue, now))
  const past = pastEventsLine(p.queue.pastEvents, now)
  if (past) row(dl, "Past events", past)
  row(dl, "Last click", pressLine(p, now))
  if (p.lastClick) row(dl, "Clip", clipLine(p.lastClick))
  if (p.buttons.length > 0) row(dl, "Buttons", buttonsLine(p.buttons))
  return dl
}

const errors = (p: PlaceStatus): HTMLDetailsElement => {
  const det = el("details", "errors")
  det.appendChild(el("summary", null, "Recent errors (" + p.errors.length + ")"))
  const ul = el("ul")
  p.errors.slice(0, 8).forEach((e) => ul.appendChild(el("li", null, clock(e.at) + "  " + e.text + (e.times > 1 ? "  (×" + e.times + ")" : ""))))
  det.appendChild(ul)
  return det
}

export const card = (p: PlaceStatus, now: number): HTMLElement => {
  const badgeKey = p.source.badge.replace(" ", "")
  const c = el("article", "card " + badgeKey)
  c.setAttribute("data-place", p.key)
  c.appendChild(head(p, badgeKey))
  c.appendChild(el("div", "sub", p.key + (p.sport ? " · " + p.sport : "") + " · " + p.source.link + " " + p.source.target))
  c.appendChild(el("div", "detail", p.source.detail))
  c.appendChild(problems(p))
  if (p.clipProblem) {
    const warn = el("div", "clipwarn", "⚠ " + p.clipProblem.text)
    warn.setAttribute("data-clip-problem", "")
    c.appendChild(warn)
  }
  c.appendChild(facts(p, now))
  if (p.race) c.appendChild(finishes(p.race))
  c.appendChild(timelineFigure(p))
  if (p.errors.length > 0) c.appendChild(errors(p))
  return c
}
