import { ordinal } from "./finish-words.ts"
import { markSvg } from "./mark-svg.ts"
import { ink, muted, tag, text, textWidth, wrap } from "./svg-text.ts"
import { timeAxisSvg } from "./time-axis-svg.ts"
import type { HighlightMark, HighlightState, RaceSpan, Timeline } from "./timeline-model.ts"
import { highlightStyle } from "./timeline-palette.ts"

/**
 * A pool's timeline without team scores: no score to plot, so the height says the place. Each
 * finish is a mark at its touch on the time axis and on its place's row (1st at the top), labelled
 * with its lane; a race is a band from its start (the horn) to its last touch, under its event and
 * heat; presses and other clicks sit on a row above the places.
 */

/** Vertical layout of a pool's chart, top to bottom. */
interface RaceFrame {
  readonly left: number
  readonly right: number
  readonly top: number
  /** The row of the clicks that are no finish; absent when there is none. */
  readonly otherRow: number | undefined
  readonly places: number
  readonly plotBottom: number
  readonly x: (t: number) => number
  readonly y: (place: number) => number
}

const placeRow = 18
const bandFill = "#f1f5f9"
const startLine = "#94a3b8"
const labelSize = 10

type FinishMark = HighlightMark & { readonly finish: NonNullable<HighlightMark["finish"]> }
const isFinish = (h: HighlightMark): h is FinishMark => h.finish !== null

const raceFrame = (tl: Timeline, width: number, pad: number, top: number): RaceFrame => {
  // Room for "12th" left of the rows.
  const left = pad + 28
  const right = width - pad - 4
  const others = tl.highlights.some((h) => !isFinish(h))
  const otherRow = others ? top + 16 + 12 : undefined
  const firstRow = (otherRow ?? top + 16) + (others ? 22 : 10)
  const places = Math.max(0, ...tl.highlights.filter(isFinish).map((h) => h.finish.place))
  const span = Math.max(tl.to - tl.from, 1)
  return {
    left,
    right,
    top,
    otherRow,
    places,
    plotBottom: (places === 0 ? (otherRow ?? firstRow) : firstRow + (places - 1) * placeRow) + 12,
    x: (t) => left + ((t - tl.from) / span) * (right - left),
    y: (place) => firstRow + (place - 1) * placeRow
  }
}

/** "Event 12 · Heat 3", shorter when its band is narrow. */
const raceNames = (race: RaceSpan): ReadonlyArray<string> => {
  const long = [race.event === null ? null : `Event ${race.event}`, race.heat === null ? null : `Heat ${race.heat}`].filter((s) => s !== null)
  const short = [race.event === null ? null : `E${race.event}`, race.heat === null ? null : `H${race.heat}`].filter((s) => s !== null)
  return long.length === 0 ? ["Race"] : [long.join(" · "), short.join(" · ")]
}

/**
 * Each race's band and a dashed line at its start; its name above, the newest race first: where
 * two names would overlap (races minutes apart on a long meet), the older one is left to its marks'
 * tooltips.
 */
const raceBands = (tl: Timeline, f: RaceFrame): string => {
  const bands = (tl.races ?? []).map((race) => {
    const x1 = f.x(race.from)
    const x2 = Math.max(f.x(race.to), x1 + 3)
    return tag("g", { "data-race": "", "data-event": race.event ?? undefined, "data-heat": race.heat ?? undefined, "data-from": race.from, "data-to": race.to, "data-finishes": race.finishes }, [
      tag("rect", { x: x1, y: f.top, width: x2 - x1, height: f.plotBottom - f.top, fill: bandFill }),
      tag("line", { x1, x2: x1, y1: f.top, y2: f.plotBottom, stroke: startLine, "stroke-dasharray": "3 2", "data-race-start": race.from })
    ].join(""))
  })
  const placed: Array<readonly [number, number]> = []
  const names = [...(tl.races ?? [])].reverse().flatMap((race) => {
    const centre = (f.x(race.from) + Math.max(f.x(race.to), f.x(race.from) + 3)) / 2
    for (const name of raceNames(race)) {
      const half = textWidth(name, 11, true) / 2
      const x = Math.min(Math.max(centre, f.left + half), f.right - half)
      if (placed.some(([from, to]) => x + half + 4 > from && x - half - 4 < to)) continue
      placed.push([x - half, x + half])
      return [text(x, f.top + 12, 11, name, { "text-anchor": "middle", "font-weight": 600, fill: "#334155", "data-race-label": race.from })]
    }
    return []
  })
  return bands.join("") + names.join("")
}

/** A row per place, 1st at the top, named on the left. */
const placeRows = (f: RaceFrame): string =>
  Array.from({ length: f.places }, (_, i) => i + 1).map((place) =>
    tag("line", { x1: f.left, x2: f.right, y1: f.y(place), y2: f.y(place), stroke: "#e2e8f0", "data-place-row": place }) +
    text(f.left - 5, f.y(place) + 3.5, labelSize, ordinal(place), { "text-anchor": "end", fill: muted, "data-place-tick": place })
  ).join("")

/**
 * "L4" beside each finish on its place's row: to its right, else to its left, and left out where
 * it would cover another mark of the row, the place's name or run off the picture (the tooltip
 * still says it).
 */
const laneLabels = (finishes: ReadonlyArray<FinishMark>, f: RaceFrame, width: number): string => {
  const labels: Array<string> = []
  for (let place = 1; place <= f.places; place++) {
    const row = finishes.filter((h) => h.finish.place === place).map((h) => ({ h, x: f.x(h.at) })).sort((a, b) => a.x - b.x)
    let taken = -Infinity
    row.forEach(({ h, x }, i) => {
      const label = `L${h.finish.lane}`
      const w = textWidth(label, labelSize, true)
      const nextMark = row[i + 1]?.x ?? Infinity
      const previousMark = row[i - 1]?.x ?? -Infinity
      const right = x + 9 + w <= width - 2 && x + 9 + w + 2 < nextMark - 8
      const left = !right && x - 9 - w >= f.left && x - 9 - w - 2 > Math.max(previousMark + 8, taken)
      if (!right && !left) return
      const from = right ? x + 9 : x - 9 - w
      taken = from + w
      labels.push(text(from, f.y(place) + 3.5, labelSize, label, {
        "font-weight": 700,
        stroke: "#ffffff",
        "stroke-width": 3,
        "paint-order": "stroke",
        "data-finish-label": h.itemId
      }))
    })
  }
  return labels.join("")
}

/** The pool's chart: races, place rows, the marks, the time axis. */
export const raceChartSvg = (tl: Timeline, width: number, pad: number, top: number, timeZone: string | undefined) => {
  const f = raceFrame(tl, width, pad, top)
  const finishes = tl.highlights.filter(isFinish)
  const marks = tl.highlights.map((h) =>
    isFinish(h)
      ? markSvg(tl, h, f.x(h.at), f.y(h.finish.place), null, timeZone)
      : markSvg(tl, h, f.x(h.at), f.otherRow!, f.plotBottom, timeZone)
  ).join("")
  const axis = { x: f.x, left: f.left, right: f.right, tickTop: f.plotBottom + 2, baseline: f.plotBottom + 19 }
  const svg = tag("g", { "data-chart": "finishes" }, [
    raceBands(tl, f),
    placeRows(f),
    marks,
    laneLabels(finishes, f, width),
    tag("line", { x1: f.left, x2: f.right, y1: f.plotBottom + 2, y2: f.plotBottom + 2, stroke: "#cbd5e1" }),
    timeAxisSvg(tl, axis, pad, timeZone)
  ].join(""))
  return { svg, bottom: axis.baseline + 8 }
}

// A finish whose click is still on its way, or never made: said in the colour of a backlog.
const troubled: ReadonlyArray<HighlightState> = ["in-flight", "missed", "failed", "not-made", "skipped"]

/** Under a pool's chart, instead of the score backlog: its finishes, their races, what became of their clicks. */
export const finishSummarySvg = (tl: Timeline, width: number, pad: number, top: number) => {
  const finishes = tl.highlights.filter(isFinish)
  const races = tl.races?.length ?? 0
  const states = (Object.keys(highlightStyle) as Array<HighlightState>)
    .map((state) => [state, finishes.filter((h) => h.state === state).length] as const)
    .filter(([, n]) => n > 0)
  const parts = [
    finishes.length === 0 ? "Finishes: none yet" : `Finishes: ${finishes.length} in ${races} ${races === 1 ? "race" : "races"}`,
    ...states.map(([state, n]) => `${n} ${highlightStyle[state].label}`)
  ]
  const lines = wrap(parts, width - 2 * pad, 11.5)
  const alarming = states.some(([state]) => troubled.includes(state))
  const svg = tag("g", { "data-finish-summary": "", "data-finishes": finishes.length, "data-races": races },
    lines.map((line, i) => text(pad, top + 14 + i * 16, 11.5, line, { fill: alarming ? "#6d28d9" : ink, "font-weight": 600 })).join(""))
  return { svg, height: 8 + lines.length * 16 }
}
