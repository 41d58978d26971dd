import type { Reading } from "../domain/reading.ts"

/** A race's words: the event and heat the board shows, and whether it is blanked. */
const raceParts = (reading: Reading): Array<string> => {
  const race = reading.race
  if (race === undefined) return []
  return [
    ...(race.event === undefined ? [] : [`Event ${race.event}`]),
    ...(race.heat === undefined ? [] : [`Heat ${race.heat}`])
  ]
}

/**
 * A reading in a few words for the page, e.g. "12–10 · period 2 · 04:31", or for a timing
 * console's race "Event 12 · Heat 3 · 1:02.3" (a race is no score; a dual meet's team score
 * comes first, "45–38 · Event 12 · …").
 */
export const readingText = (reading: Reading): string => {
  const parts: Array<string> = []
  // The score first: the page shows it large and the rest beside it.
  if (reading.home !== undefined || reading.away !== undefined) parts.push(`${reading.home ?? "?"}–${reading.away ?? "?"}`)
  parts.push(...raceParts(reading))
  if (reading.gamePoints !== undefined) parts.push(`points ${reading.gamePoints[0]}–${reading.gamePoints[1]}${reading.tieBreak === true ? " (tie-break)" : ""}`)
  if (reading.sets !== undefined && reading.sets.length > 0) parts.push(`sets ${reading.sets.map(([h, a]) => `${h}-${a}`).join(" ")}`)
  if (reading.setsWon !== undefined) parts.push(`sets won ${reading.setsWon[0]}–${reading.setsWon[1]}`)
  if (reading.period !== undefined) parts.push(`period ${reading.period}`)
  if (reading.serve !== undefined) parts.push(`${reading.serve} serves`)
  if (reading.clock !== undefined) parts.push(reading.clock)
  if (reading.race?.blanked === true) parts.push("board blanked")
  if (parts.length > 0) return parts.join(" · ")
  // A console whose score channels are not configured: what it shows is listed beside, never read as a score.
  return reading.shown !== undefined && reading.shown.length > 0 ? "no score read (score channels not configured)" : "(no score fields)"
}
