import { apiSports } from "../shared/api-sports.ts"
import type { Reading } from "../../src/domain/reading.ts"
import type { FieldReader } from "./fields.ts"
import { common, tennis, volleyball, type Field } from "./layout.ts"
import type { DaktronicsOptions } from "./options.ts"

export type SportReading = Omit<Reading, "receivedAt">

/** How one sport's state is read out of the RTD buffer. */
export interface SportLayout {
  /** Until every one of these has been written, the bridge knows no score. */
  readonly scoreFields: ReadonlyArray<Field>
  read(fields: FieldReader): SportReading
}

/** Every API sport code: the console's common fields apply to all of them. */
export const sportCodes = apiSports

/**
 * Per-set pairs up to the last set that shows anything or the current one.
 * The current set takes its live values when the console shows them, since
 * its per-set slot may lag behind.
 */
const setPairs = (
  home: ReadonlyArray<number | undefined>,
  away: ReadonlyArray<number | undefined>,
  current: number | undefined,
  live: readonly [number | undefined, number | undefined]
): Array<readonly [number, number]> | undefined => {
  let count = current !== undefined && current <= home.length ? current : 0
  home.forEach((value, i) => {
    if (value !== undefined || away[i] !== undefined) count = Math.max(count, i + 1)
  })
  if (count === 0) return undefined
  return Array.from({ length: count }, (_, i) => {
    const isCurrent = i + 1 === current
    return [(isCurrent ? live[0] : undefined) ?? home[i] ?? 0, (isCurrent ? live[1] : undefined) ?? away[i] ?? 0] as const
  })
}

const pair = (home: number | undefined, away: number | undefined): readonly [number, number] | undefined =>
  home === undefined || away === undefined ? undefined : [home, away]

const clockOf = (fields: FieldReader): string | undefined => fields.text(common.clock) || undefined

const generic: SportLayout = {
  scoreFields: [common.homeScore, common.awayScore],
  read: (fields) => ({
    clock: clockOf(fields),
    home: fields.number(common.homeScore),
    away: fields.number(common.awayScore),
    period: fields.number(common.period)
  })
}

const volleyballLayout = (points: "score" | "game"): SportLayout => {
  const home = points === "game" ? volleyball.homeCurrentGame : common.homeScore
  const away = points === "game" ? volleyball.awayCurrentGame : common.awayScore
  return {
    scoreFields: [home, away],
    read: (fields) => {
      const live = [fields.number(home), fields.number(away)] as const
      const period = fields.number(common.period)
      return {
        clock: clockOf(fields),
        home: live[0],
        away: live[1],
        period,
        sets: setPairs(
          volleyball.homeGamePoints.map((f) => fields.number(f)),
          volleyball.awayGamePoints.map((f) => fields.number(f)),
          period,
          live
        ),
        setsWon: pair(fields.number(volleyball.homeSetsWon), fields.number(volleyball.awaySetsWon)),
        serve: fields.serve(volleyball.homeServe, volleyball.awayServe)
      }
    }
  }
}

const tennisLayout: SportLayout = {
  scoreFields: [tennis.homeGamePoints, tennis.awayGamePoints],
  read: (fields) => {
    const tieBreak = fields.text(tennis.tieBreak).toUpperCase().includes("TIE")
    const homePoint = fields.gamePoint(tennis.homeGamePoints, tieBreak)
    const awayPoint = fields.gamePoint(tennis.awayGamePoints, tieBreak)
    const period = fields.number(common.period)
    return {
      clock: clockOf(fields),
      period,
      gamePoints: homePoint === undefined || awayPoint === undefined ? undefined : [homePoint, awayPoint],
      tieBreak,
      sets: setPairs(
        tennis.homeSetGames.map((f) => fields.number(f)),
        tennis.awaySetGames.map((f) => fields.number(f)),
        period,
        [fields.number(tennis.homeCurrentSet), fields.number(tennis.awayCurrentSet)]
      ),
      setsWon: pair(fields.number(tennis.homeSetsWon), fields.number(tennis.awaySetsWon)),
      serve: fields.serve(tennis.homeServe, tennis.awayServe)
    }
  }
}

/**
 * Follows src/domain/sport-kind.ts: only the sports the service has a
 * set-based entry for read set fields; padel stays generic there, so here too.
 */
export const sportLayout = (sport: string, options: DaktronicsOptions): SportLayout => {
  switch (sport) {
    case "tennis":
      return tennisLayout
    case "volleyball":
    case "beachvolleyball":
      return volleyballLayout(options.volleyballPoints ?? "score")
    default:
      return generic
  }
}
