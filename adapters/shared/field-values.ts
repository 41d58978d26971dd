import type { GamePoint, Side } from "../../src/domain/reading.ts"

/**
 * Value rules shared by the text decoders (lines, JSON). Each parser takes
 * what the controller sent — a JSON value or a piece of a line — and returns
 * the value, `undefined` when the field is absent or blank, or throws
 * `MalformedFrame` so the whole frame is rejected: a half-understood frame must
 * never become a score.
 */
export class MalformedFrame extends Error {
  override readonly name = "MalformedFrame"
}

const fail = (message: string): never => {
  throw new MalformedFrame(message)
}

/** Scores are shown on at most three digits. */
export const maxScore = 999
export const maxPeriod = 30
export const maxSetsWon = 9
export const maxSets = 9

const isBlank = (value: unknown): value is undefined | null | "" =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "")

const digits = /^\d{1,3}$/

/** A non-negative integer up to `max`, as a JSON number or a string of digits. */
export const count = (value: unknown, max: number): number | undefined => {
  if (isBlank(value)) return undefined
  const n = typeof value === "number" ? value : typeof value === "string" && digits.test(value.trim()) ? Number(value.trim()) : NaN
  return Number.isInteger(n) && n >= 0 && n <= max ? n : fail(`not a count from 0 to ${max}`)
}

export const score = (value: unknown) => count(value, maxScore)

const gamePoints: Record<string, GamePoint> = { "0": "0", "00": "0", "15": "15", "30": "30", "40": "40", "A": "AD", "AD": "AD" }

/** Tennis game points: 0/15/30/40/AD as shown; any other count is a tie-break count. */
export const gamePoint = (value: unknown): GamePoint | undefined => {
  if (isBlank(value)) return undefined
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim().toUpperCase() : fail("game points must be text or a number")
  return gamePoints[text] ?? count(text, 99)
}

const setPair = /(\d{1,3})\s*[-:]\s*(\d{1,3})/g
const setSeparators = /^[\s,]*$/

/** Per-set tallies: `6-4 3-6 2:1` (spaces or commas between pairs), or an array of `[h, a]` or `{ home, away }`. */
export const sets = (value: unknown): Array<readonly [number, number]> | undefined => {
  if (value === undefined || value === null) return undefined
  const result: Array<readonly [number, number]> = []
  if (typeof value === "string") {
    for (const match of value.matchAll(setPair)) result.push([count(match[1], maxScore)!, count(match[2], maxScore)!])
    if (!setSeparators.test(value.replace(setPair, " "))) fail("sets must be pairs like 6-4, separated by spaces or commas")
  } else if (Array.isArray(value)) {
    for (const set of value) result.push(setOf(set))
  } else {
    fail("sets must be a string or an array")
  }
  return result.length > maxSets ? fail(`more than ${maxSets} sets`) : result
}

const setOf = (set: unknown): readonly [number, number] => {
  const [home, away] = Array.isArray(set) && set.length === 2
    ? [set[0], set[1]]
    : typeof set === "object" && set !== null && !Array.isArray(set)
    ? [(set as Record<string, unknown>)["home"], (set as Record<string, unknown>)["away"]]
    : fail("a set must be [home, away] or { home, away }")
  const h = score(home)
  const a = score(away)
  return h === undefined || a === undefined ? fail("a set needs both tallies") : [h, a]
}

const sides: Record<string, Side> = { "H": "home", "HOME": "home", "1": "home", "A": "away", "AWAY": "away", "2": "away" }

/** Who serves: H/A, home/away or 1/2. */
export const serve = (value: unknown): Side | undefined => {
  if (isBlank(value)) return undefined
  const side = typeof value === "string" || typeof value === "number" ? sides[String(value).trim().toUpperCase()] : undefined
  return side ?? fail("serve must be H/A, home/away or 1/2")
}

const maxClockLength = 16

/** The clock as shown; never validated beyond being short text, since it is never part of a score. */
export const clock = (value: unknown): string | undefined => {
  if (isBlank(value)) return undefined
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : fail("clock must be text")
  return text.length > maxClockLength ? fail("clock too long") : text
}
