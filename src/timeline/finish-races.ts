import type { HighlightMark, RaceSpan } from "./timeline-model.ts"

/**
 * Which finishes swam in one race. A finish carries its touch (`at`: the race's start plus its
 * time) and the event/heat of its race's start, not the race itself: the start is the touch less
 * the time, and two touches of one race agree on it to the tracker's estimate (a few tenths).
 * The status card and the timeline group finishes alike with this.
 */

/** What grouping needs of a finish: its touch, its time, its race's event and heat. */
export interface RaceTouch {
  readonly at: number
  readonly timeMs: number
  readonly event?: number | undefined
  readonly heat?: number | undefined
}

// The tracker refines its start estimate by a few tenths at most; two races are minutes apart.
const sameStartMs = 10_000

/** "28.91" → 28 910, "1:02.34" → 62 340 (as the board shows a time); undefined for anything else. */
export const finishTimeMs = (time: string): number | undefined => {
  const shown = /^(?:(\d{1,2}):)?(\d{1,2})\.(\d{2})$/u.exec(time)
  if (shown === null) return undefined
  const [, minutes, seconds, hundredths] = shown
  if (minutes !== undefined && Number(seconds) >= 60) return undefined
  return (Number(minutes ?? 0) * 60 + Number(seconds)) * 1000 + Number(hundredths) * 10
}

/** The race's start, as this finish tells it. */
export const raceStartOf = (touch: RaceTouch): number => touch.at - touch.timeMs

const sameRace = (a: RaceTouch, b: RaceTouch) =>
  Math.abs(raceStartOf(a) - raceStartOf(b)) <= sameStartMs && a.event === b.event && a.heat === b.heat

/** The finishes by race, each race's finishes in the order given; the races in the order of their first finish. */
export const racesOf = <T>(items: ReadonlyArray<T>, touchOf: (item: T) => RaceTouch): Array<Array<T>> => {
  const races: Array<Array<T>> = []
  for (const item of items) {
    const race = races.find((r) => sameRace(touchOf(r[0]!), touchOf(item)))
    if (race === undefined) races.push([item])
    else race.push(item)
  }
  return races
}

/** The races of a pool's finish marks, oldest first; a time the board never shows counts as 0 (the race then starts at the touch). */
export const raceSpans = (highlights: ReadonlyArray<HighlightMark>): ReadonlyArray<RaceSpan> => {
  const touches = highlights.flatMap((h) =>
    h.finish === null ? [] : [{ at: h.at, timeMs: finishTimeMs(h.finish.time) ?? 0, event: h.finish.event, heat: h.finish.heat }]
  )
  return racesOf([...touches].sort((a, b) => a.at - b.at), (t) => t).map((race) => ({
    event: race[0]!.event ?? null,
    heat: race[0]!.heat ?? null,
    from: Math.min(...race.map(raceStartOf)),
    to: Math.max(...race.map((t) => t.at)),
    finishes: race.length
  })).sort((a, b) => a.from - b.from)
}
