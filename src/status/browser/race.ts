/**
 * A place whose board is a timing console's race: its clock, event, heat and phase, and its last
 * finishes with their clicks' clips.
 */
import { answer, clipBadge, clipLink } from "./answers.ts"
import { clock } from "./clock.ts"
import { el } from "./page-parts.ts"
import type { Finish, Race } from "./snapshot-types.ts"

const ordinal = (n: number): string => {
  const t = n % 100
  const suffix: Record<number, string> = { 1: "st", 2: "nd", 3: "rd" }
  return n + (t >= 11 && t <= 13 ? "th" : suffix[n % 10] || "th")
}

const phaseWords: Record<Race["phase"], readonly [string, string]> = {
  waiting: ["WAITING FOR THE START", "neutral"],
  running: ["RACING", "blue"],
  blank: ["CLOCK BLANK", "warn"],
  unread: ["BOARD NOT READ YET", "neutral"]
}

const eventHeat = (event: number | null, heat: number | null): string =>
  [event === null ? null : "Event " + event, heat === null ? null : "Heat " + heat].filter(Boolean).join(" · ")

/** The race as the board shows it now: the running clock large, the event and heat, the phase. */
export const raceView = (race: Race): HTMLSpanElement => {
  const v = el("span")
  v.setAttribute("data-race", race.phase)
  const c = el("span", "score", race.clock === null ? "—" : race.clock)
  c.setAttribute("data-race-clock", "")
  v.appendChild(c)
  // Not read since a restart: the board's event and heat are not known, not "none shown".
  const eh = el("span", null, (eventHeat(race.event, race.heat) || (race.phase === "unread" ? "" : "no event or heat shown")) + " ")
  eh.setAttribute("data-race-event", "")
  v.appendChild(eh)
  const ph = phaseWords[race.phase] || [race.phase, "neutral"]
  const pill = el("span", "pill " + ph[1], ph[0])
  pill.setAttribute("data-race-phase", "")
  v.appendChild(pill)
  if (race.blanked) v.appendChild(el("span", "pill warn", "BOARD BLANKED"))
  return v
}

/** What became of a finish's click: its clip when followed, else the service's answer. */
const finishClip = (f: Finish): HTMLSpanElement => {
  if (f.clip) {
    const s = el("span")
    s.setAttribute("data-finish-clip", f.clip.outcome || "waiting")
    s.title = f.clip.text
    s.appendChild(clipBadge(f.clip))
    const link = clipLink(f.clip)
    if (link) {
      s.appendChild(document.createTextNode(" "))
      s.appendChild(link)
    }
    return s
  }
  if (f.answer) return answer(f.answer)
  return el("span", "small", f.clickItemId === null ? "no click" : "#" + f.clickItemId)
}

const finishRow = (cells: ReadonlyArray<Node | string>, cls?: string): HTMLDivElement => {
  const r = el("div", "finish" + (cls ? " " + cls : ""))
  cells.forEach((c) => r.appendChild(c instanceof Node ? c : el("span", null, c)))
  return r
}

/** The last finishes: the newest race first, each race by place, under its event and heat. */
export const finishes = (race: Race): HTMLDivElement => {
  const box = el("div", "race")
  box.setAttribute("data-finishes", "")
  if (race.finishes.length === 0) {
    box.appendChild(el("div", "small", "No finish yet"))
    return box
  }
  let shown = -1
  race.finishes.forEach((f) => {
    if (f.race !== shown) {
      shown = f.race
      box.appendChild(el("h4", null, (eventHeat(f.event, f.heat) || "Race") + (f.race === 0 ? "" : " (earlier race)")))
      box.appendChild(finishRow(["Place", "Lane", "Time", "Touch", "Clip"], "cols"))
    }
    const r = finishRow([el("span", "place", ordinal(f.place)), "L" + f.lane, f.time, clock(f.at), finishClip(f)])
    r.setAttribute("data-finish", String(f.lane))
    if (f.swimmer) r.title = f.swimmer
    box.appendChild(r)
  })
  return box
}
