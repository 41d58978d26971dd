import { fieldWord, observedFields, type ObservedField } from "../../adapters/layout-learning.ts"

// The consoles' options blocks name the same fields: they are defined with the learn description (adapters/layout-learning.ts).
export { fieldWord, observedFields, type ObservedField }

/** What the technician typed for one moment, normalised ("3", "O", "7:56", "34.6"). */
export type Noted = Partial<Record<ObservedField, string>>

/** One moment: when it was noted (ms, on the recording's clock), how to name it to the technician, and what the board showed. */
export interface Observation {
  readonly at: number
  /** "14:02:05" live, "12.5 s" from a capture. */
  readonly when: string
  readonly noted: Noted
}

export const example = "home 3 guest 5 period 2 clock 7:56"

const names: Readonly<Record<string, ObservedField>> = {
  home: "home",
  away: "away",
  guest: "away",
  visitor: "away",
  period: "period",
  clock: "clock"
}

const maxScore = 999
const maxPeriod = 30

const clockForms = /^(?:\d{1,2}:[0-5]\d|[0-5]?\d\.\d)$/u

/** The value as the finder compares it, or what is wrong with it. */
const valueOf = (field: ObservedField, text: string): string | { readonly problem: string } => {
  switch (field) {
    case "home":
    case "away":
      return /^\d{1,3}$/u.test(text) && Number(text) <= maxScore
        ? String(Number(text))
        : { problem: `${fieldWord(field)} "${text}" is not a score (a whole number from 0 to ${maxScore})` }
    case "period":
      if (/^\d{1,2}$/u.test(text) && Number(text) <= maxPeriod) return String(Number(text))
      // A letter only when the board shows one (O for overtime, E for extra time): typed as seen.
      return /^[A-Za-z]$/u.test(text)
        ? text.toUpperCase()
        : { problem: `period "${text}" is neither a number from 0 to ${maxPeriod} nor one letter as the board shows it (e.g. O)` }
    case "clock":
      return clockForms.test(text) ? text : { problem: `clock "${text}" is not M:SS, MM:SS or SS.t as the board shows it (7:56, 12:00, 34.6)` }
  }
}

/**
 * Parses `home 3 guest 5 period 2 clock 7:56` (`away` or `guest`, any order, commas or `=` allowed,
 * any subset) into what was noted, or the problem in words.
 */
export const parseNoted = (line: string): Noted | { readonly problem: string } => {
  const tokens = line.replace(/[,;]/gu, " ").replace(/=/gu, " ").trim().split(/\s+/u).filter((t) => t !== "")
  if (tokens.length === 0) return { problem: `nothing noted: write what the board shows, e.g. ${example}` }
  const noted: { -readonly [K in ObservedField]?: string } = {}
  for (let i = 0; i < tokens.length; i += 2) {
    const name = tokens[i]!.toLowerCase()
    const field = Object.hasOwn(names, name) ? names[name]! : undefined
    if (field === undefined) return { problem: `"${tokens[i]}" is not a field: write home, guest (or away), period and clock with their values, e.g. ${example}` }
    const text = tokens[i + 1]
    if (text === undefined) return { problem: `${name} has no value, e.g. ${example}` }
    if (noted[field] !== undefined) return { problem: `${fieldWord(field)} is given twice` }
    const value = valueOf(field, text)
    if (typeof value !== "string") return value
    noted[field] = value
  }
  return noted
}

/** `home 3, guest 5, period 2, clock 7:56`: how a moment is echoed back. */
export const describeNoted = (noted: Noted): string =>
  observedFields.filter((f) => noted[f] !== undefined).map((f) => `${fieldWord(f)} ${noted[f]}`).join(", ")

/**
 * `--at "SECONDS: home 3 guest 5"`: the moment in ms from the capture's first chunk, and what was
 * noted then; or the problem.
 */
export const parseAt = (text: string): { readonly offsetMs: number; readonly noted: Noted } | { readonly problem: string } => {
  const parts = /^\s*(\d+(?:\.\d+)?)\s*s?\s*:(.*)$/u.exec(text)
  if (parts === null) return { problem: `--at "${text}": write the seconds from the capture's start, a colon, then what the board showed, e.g. --at "42.5: ${example}"` }
  const noted = parseNoted(parts[2]!)
  if ("problem" in noted) return { problem: `--at "${text}": ${noted.problem}` }
  return { offsetMs: Math.round(Number(parts[1]) * 1000), noted }
}
