import type { Reading } from "../domain/reading.ts"

/** A reading in a few words for the page, e.g. "12–10 · period 2 · 04:31". */
export const readingText = (reading: Reading): string => {
  const parts: Array<string> = []
  if (reading.home !== undefined || reading.away !== undefined) parts.push(`${reading.home ?? "?"}–${reading.away ?? "?"}`)
  if (reading.gamePoints !== undefined) parts.push(`points ${reading.gamePoints[0]}–${reading.gamePoints[1]}${reading.tieBreak === true ? " (tie-break)" : ""}`)
  if (reading.sets !== undefined && reading.sets.length > 0) parts.push(`sets ${reading.sets.map(([h, a]) => `${h}-${a}`).join(" ")}`)
  if (reading.setsWon !== undefined) parts.push(`sets won ${reading.setsWon[0]}–${reading.setsWon[1]}`)
  if (reading.period !== undefined) parts.push(`period ${reading.period}`)
  if (reading.serve !== undefined) parts.push(`${reading.serve} serves`)
  if (reading.clock !== undefined) parts.push(reading.clock)
  return parts.length === 0 ? "(no score fields)" : parts.join(" · ")
}
