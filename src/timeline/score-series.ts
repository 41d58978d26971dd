import type { KindItem } from "../delivery/outbox.ts"
import type { GenericEntry, Pair, ScoreEntry, TennisEntry, VolleyballEntry } from "../domain/score-entry.ts"
import { sportKind } from "../domain/sport-kind.ts"
import type { PeriodSpan, ScorePoint, ScoreSegment, ScoreShape, TieBreakSpan } from "./timeline-model.ts"

export interface ScoreSeries {
  readonly segments: ReadonlyArray<ScoreSegment>
  readonly periods: ReadonlyArray<PeriodSpan>
  readonly tieBreaks: ReadonlyArray<TieBreakSpan>
  readonly scoreText: { readonly home: string; readonly away: string } | null
  readonly yMax: number
}

type ScoreItem = KindItem<"score">

// Which fields an entry has says which of the service's entries it is (the outbox checked it is one).
const isTennis = (entry: ScoreEntry): entry is TennisEntry => "scoreValue" in entry && "pointScore" in entry.scoreValue
const hasSets = (entry: ScoreEntry): entry is TennisEntry | VolleyballEntry => "scoreValue" in entry
const hasCounts = (entry: ScoreEntry): entry is TennisEntry | GenericEntry => "left" in entry

/** The sport decides the shape; without one, the entries themselves do. */
export const scoreShape = (sport: string | null, scores: ReadonlyArray<ScoreItem>): ScoreShape => {
  if (sport !== null) return sportKind(sport)
  const first = scores[0]?.payload
  return first === undefined ? "generic" : isTennis(first) ? "tennis" : hasSets(first) ? "volleyball" : "generic"
}

export const scoreSeries = (shape: ScoreShape, sport: string | null, scores: ReadonlyArray<ScoreItem>): ScoreSeries =>
  shape === "generic" ? genericSeries(sport, scores) : setSeries(shape, scores)

const dash = (pair: Pair) => `${pair[0]}–${pair[1]}`

// Basketball counts quarters; most other boards just number their periods.
const periodPrefix = (sport: string | null) => (sport === "basketball" ? "Q" : "P")

const genericSeries = (sport: string | null, scores: ReadonlyArray<ScoreItem>): ScoreSeries => {
  const prefix = periodPrefix(sport)
  const entries = scores.flatMap((item) => (hasCounts(item.payload) ? [{ item, entry: item.payload }] : []))
  const points: Array<ScorePoint> = entries.map(({ entry, item }) => ({
    itemId: item.id,
    at: entry.timeStamp,
    home: entry.left,
    away: entry.right,
    state: item.state,
    text: `${entry.left}–${entry.right}${entry.period > 0 ? ` ${prefix}${entry.period}` : ""}`
  }))
  const periods: Array<PeriodSpan> = []
  for (const { entry } of entries) {
    const open = periods.at(-1)
    // A board that sends no period (0) has nothing to mark.
    if (entry.period <= 0) continue
    if (open?.period === entry.period) {
      periods[periods.length - 1] = { ...open, to: entry.timeStamp }
      continue
    }
    if (open !== undefined) periods[periods.length - 1] = { ...open, to: entry.timeStamp }
    periods.push({ period: entry.period, label: `${prefix}${entry.period}`, from: entry.timeStamp, to: entry.timeStamp, result: null })
  }
  const last = entries.at(-1)?.entry
  return {
    segments: points.length === 0 ? [] : [{ set: 0, points }],
    periods,
    tieBreaks: [],
    scoreText: last === undefined ? null : { home: String(last.left), away: String(last.right) },
    yMax: Math.max(5, ...points.flatMap((p) => [p.home, p.away]))
  }
}

interface SetReading {
  readonly item: ScoreItem
  readonly at: number
  readonly sets: ReadonlyArray<Pair>
  /** Tennis only: the game's points as the service has them (0–4, or tie-break counts). */
  readonly points: Pair | null
}

const tennisPoint = ["0", "15", "30", "40", "AD"]

/**
 * A tie-break is played at 6–6 (the usual set); a count above AD while the games are level can
 * only be a tie-break on a shorter set.
 */
const inTieBreak = (games: Pair, points: Pair | null) =>
  games[0] === games[1] && (games[0] >= 6 || (points !== null && Math.max(points[0], points[1]) > 4))

const pointsText = (r: SetReading, team: 0 | 1) => {
  if (r.points === null) return ""
  const games = r.sets.at(-1)!
  return inTieBreak(games, r.points) ? String(r.points[team]) : tennisPoint[r.points[team]] ?? String(r.points[team])
}

const setReadings = (shape: ScoreShape, scores: ReadonlyArray<ScoreItem>): Array<SetReading> =>
  scores.flatMap((item): Array<SetReading> => {
    const entry = item.payload
    if (shape === "tennis") {
      return !isTennis(entry) || entry.scoreValue.gameScores.length === 0
        ? []
        : [{ item, at: entry.timeStamp, sets: entry.scoreValue.gameScores, points: entry.scoreValue.pointScore }]
    }
    return !hasSets(entry) || entry.scoreValue.gameScores.length === 0
      ? []
      : [{ item, at: entry.timeStamp, sets: entry.scoreValue.gameScores, points: null }]
  })

/**
 * Tennis and volleyball: one segment per set, on the set's own scale (games, or points), so a
 * set reads as a race from 0. The entry that opens set n+1 also closes set n on the score it
 * ended on: a board often jumps from 6–5 straight to the next set's 0–0.
 */
const setSeries = (shape: ScoreShape, scores: ReadonlyArray<ScoreItem>): ScoreSeries => {
  const readings = setReadings(shape, scores)
  const segments = new Map<number, Array<ScorePoint>>()
  const closed = new Set<number>()
  const tieBreaks = new Map<number, TieBreakSpan>()
  for (const r of readings) {
    const current = r.sets.length - 1
    for (let set = 0; set <= current; set++) {
      if (closed.has(set)) continue
      const points = segments.get(set)
      // A set first seen already over (the bridge started mid-match) has no race to draw.
      if (set < current) closed.add(set)
      if (points === undefined && set < current) continue
      const pair = r.sets[set]!
      const live = set === current
      const tieBreak = live && r.points !== null && inTieBreak(pair, r.points)
      const detail = !live || r.points === null
        ? ""
        : tieBreak ? `, tie-break ${dash(r.points)}` : `, ${pointsText(r, 0)}–${pointsText(r, 1)}`
      const point: ScorePoint = {
        itemId: r.item.id,
        at: r.at,
        home: pair[0],
        away: pair[1],
        state: r.item.state,
        text: `Set ${set + 1}: ${dash(pair)}${detail}`
      }
      if (points === undefined) segments.set(set, [point])
      else points.push(point)
      const started = tieBreaks.get(set)
      if (tieBreak) tieBreaks.set(set, { set: set + 1, from: started?.from ?? r.at, to: r.at, points: dash(r.points!) })
      else if (started !== undefined) tieBreaks.set(set, { ...started, to: r.at })
    }
  }
  const ordered = [...segments].sort(([a], [b]) => a - b)
  const last = readings.at(-1)
  const side = (team: 0 | 1) => {
    const games = last!.sets.map((pair) => pair[team]).join(" ")
    return last!.points === null ? games : `${games} · ${pointsText(last!, team)}`
  }
  return {
    segments: ordered.map(([set, points]) => ({ set: set + 1, points })),
    periods: ordered.map(([set, points]) => ({
      period: set + 1,
      label: `Set ${set + 1}`,
      from: points[0]!.at,
      to: points.at(-1)!.at,
      result: `${points.at(-1)!.home}–${points.at(-1)!.away}`
    })),
    tieBreaks: [...tieBreaks.values()].sort((a, b) => a.set - b.set),
    scoreText: last === undefined ? null : { home: side(0), away: side(1) },
    yMax: Math.max(shape === "tennis" ? 6 : 10, ...ordered.flatMap(([, points]) => points.flatMap((p) => [p.home, p.away])))
  }
}
