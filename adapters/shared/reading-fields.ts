import type { Reading } from "../../src/domain/reading.ts"
import * as Value from "./field-values.ts"

/** Field names a generic (lines / JSON) configuration may map. */
export const fieldNames = [
  "home",
  "away",
  "period",
  "homePoints",
  "awayPoints",
  "sets",
  "homeSetsWon",
  "awaySetsWon",
  "serve",
  "clock"
] as const

export type FieldName = typeof fieldNames[number]

export const isFieldName = (name: string): name is FieldName => (fieldNames as ReadonlyArray<string>).includes(name)

type Draft = { -readonly [K in keyof Reading]: Reading[K] }

/** Both halves of a pair, or neither: half a pair is a malformed frame. */
const pair = <A>(home: A | undefined, away: A | undefined, name: string): readonly [A, A] | undefined => {
  if (home === undefined && away === undefined) return undefined
  if (home === undefined || away === undefined) throw new Value.MalformedFrame(`only one side of ${name}`)
  return [home, away]
}

/**
 * Builds a Reading from the configured fields' raw values. `home` and `away`
 * must be present when configured; other fields may be absent from a frame.
 * Throws `MalformedFrame` for anything out of range or half present.
 */
export const readingFromFields = (
  configured: ReadonlySet<FieldName>,
  valueOf: (field: FieldName) => unknown,
  receivedAt: number
): Reading => {
  const reading: Draft = { receivedAt }
  let present = 0
  const read = <A>(field: FieldName, parse: (value: unknown) => A | undefined): A | undefined => {
    if (!configured.has(field)) return undefined
    const value = parse(valueOf(field))
    if (value !== undefined) present++
    return value
  }

  const score = pair(read("home", Value.score), read("away", Value.score), "the score")
  if (score === undefined && (configured.has("home") || configured.has("away"))) {
    throw new Value.MalformedFrame("missing score")
  }
  if (score !== undefined) [reading.home, reading.away] = score
  const period = read("period", (v) => Value.count(v, Value.maxPeriod))
  if (period !== undefined) reading.period = period
  const gamePoints = pair(read("homePoints", Value.gamePoint), read("awayPoints", Value.gamePoint), "the game points")
  if (gamePoints !== undefined) reading.gamePoints = gamePoints
  const sets = read("sets", Value.sets)
  if (sets !== undefined) reading.sets = sets
  const setsWon = pair(
    read("homeSetsWon", (v) => Value.count(v, Value.maxSetsWon)),
    read("awaySetsWon", (v) => Value.count(v, Value.maxSetsWon)),
    "the sets won"
  )
  if (setsWon !== undefined) reading.setsWon = setsWon
  const serve = read("serve", Value.serve)
  if (serve !== undefined) reading.serve = serve
  const clock = read("clock", Value.clock)
  if (clock !== undefined) reading.clock = clock

  if (present === 0) throw new Value.MalformedFrame("no configured field present")
  return reading
}

const pairs: ReadonlyArray<readonly [FieldName, FieldName]> = [["home", "away"], ["homePoints", "awayPoints"], [
  "homeSetsWon",
  "awaySetsWon"
]]

/** For options checks: a problem with the set of configured fields, if any. */
export const fieldSetProblem = (names: ReadonlyArray<FieldName>): string | undefined => {
  if (names.length === 0) return `no field configured; known fields: ${fieldNames.join(", ")}`
  for (const [home, away] of pairs) {
    if (names.includes(home) !== names.includes(away)) return `${home} and ${away} must be configured together`
  }
  return undefined
}
